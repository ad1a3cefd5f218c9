"""Redação dada por… on every kind of value (issue 29 §2): a term, a decision-table row, an exception, an asked
value, a sanction, a site and a permit's validity that an amending act worded cite it — in the quote's details, the
proposed sanction's basis and the regime sheet — and the checker takes the key only where a value is."""

from __future__ import annotations

import datetime as dt

from period_acts import PERIOD_FEES, REGIME_ID, period_act_text

from models.rules.fees import fee_quote
from models.rules.regimes import check_regime_text, load_regime_text

AMENDED = """
[[fees]]
id = "setor"
label = "Preço por m² conforme o setor"
kind = "formula"
per = "month"
formula = "preco_setor * area * months * fator"
basis = "art. 8º"

[[fees.terms]]
name = "fator"
label = "Fator de correção"
value = "1.10"
basis = "art. 8º, § 1º"
amended_by = "Lei nº 500/1990"

[[fees.tables]]
name = "preco_setor"
label = "Preço por m² e por mês"
unit = "R$/m2/mes"

[[fees.tables.rows]]
when = "local"
value = "2.00"
basis = "art. 8º, I"
amended_by = "Decreto nº 77/1991"

[[fees.tables.rows]]
value = "3.00"
basis = "art. 8º, II"

[[fees.inputs]]
name = "nota"
label = "Nota do fiscal"
min = "1"
max = "5"
places = 0
set_by = "inspector"
basis = "art. 8º, § 3º"
amended_by = "Lei nº 500/1990"

[[fees.exceptions]]
id = "feirante-antigo"
label = "feirante com nota 5: metade"
when = "nota >= 5"
formula = "base * 0.50"
basis = "art. 8º, § 2º"
amended_by = "Lei nº 500/1990"

[[sites]]
id = "largo-da-matriz"
kind = "street-segment"
label = "Largo da Matriz"
basis = "art. 9º"
amended_by = "Lei nº 500/1990"

[[infractions]]
code = "sem-cracha"
label = "Vender sem o crachá"
article = "art. 10"
basis = "art. 10"

[[infractions.sanctions]]
kind = "fine"
amount = { value = "50.00", unit = "BRL" }
basis = "art. 10"
amended_by = "Lei nº 500/1990"
"""
VALIDITY = 'validity = { until = "fiscal-year-end", basis = "art. 6º", amended_by = "Lei nº 500/1990" }'
TEXT = period_act_text(extra=PERIOD_FEES + AMENDED, validity=VALIDITY)
ACT = load_regime_text(TEXT, f"{REGIME_ID}.toml")
BY_LAW = "(redação dada pela Lei nº 500/1990)"


def test_the_quote_cites_each_amended_term_row_exception_and_asked_value():
    quote = fee_quote(ACT, fees=["setor"], area="6.00", months=2, local=True, asked={"nota": "5"}, asked_by="ana")
    line = quote.lines[0]
    details = "\n".join(line.details)
    assert f"Fator de correção = 1,10 (Lei 376/2012, art. 8º, § 1º {BY_LAW})" in details
    assert "linha 1 (local) → 2,00 Cr$/m2/mes (Lei 376/2012, art. 8º, I (redação dada pelo Decreto nº 77/1991))" in (
        details
    )
    assert f"Nota do fiscal = 5, de 1 a 5 (Lei 376/2012, art. 8º, § 3º {BY_LAW}) — informado por ana" in details
    assert f"Exceção 1 — feirante com nota 5: metade (Lei 376/2012, art. 8º, § 2º {BY_LAW}): aplica-se" in details
    other = fee_quote(ACT, fees=["setor"], area="6.00", months=2, asked={"nota": "1"}).lines[0]
    assert "linha 2 (demais casos) → 3,00 Cr$/m2/mes (Lei 376/2012, art. 8º, II)" in "\n".join(other.details)


def test_the_regime_sheet_cites_the_amending_act_beside_each_value():
    from reports.regime_sheet import regime_html

    sheet = regime_html(ACT).replace("\n", " ").replace("&nbsp;", " ").replace("\xa0", " ")
    for article in ("art. 8º, § 1º", "art. 8º, § 2º", "art. 8º, § 3º", "art. 9º", "art. 10", "art. 6º"):
        assert f"Lei 376/2012, {article} {BY_LAW}" in sheet, article
    assert "art. 8º, I (redação dada pelo Decreto nº 77/1991)" in sheet


def test_a_proposed_sanction_and_the_permits_validity_cite_the_amending_act():
    from models.enforcement.sanctions import propose_sanction
    from models.permits import permit_term

    proposal = propose_sanction(ACT, ["sem-cracha"], on=dt.date(1990, 6, 1))
    sanctions = [s for item in proposal.items for s in item.sanctions]
    assert [s.basis for s in sanctions] == [f"Lei 376/2012, art. 10 {BY_LAW}"]
    assert sanctions[0].label == "Multa, Cr$ 50,00"
    term = permit_term(ACT, "licenca-ambulante", dt.date(1990, 3, 10))
    assert term.article == f"Lei 376/2012, art. 6º {BY_LAW}"


def test_amended_by_is_text_where_a_value_is():
    wrong = TEXT.replace('amended_by = "Decreto nº 77/1991"', "amended_by = 1991")
    errors = check_regime_text(wrong, f"{REGIME_ID}.toml")
    assert [e.key for e in errors] == ["fees.setor.tables.preco_setor.rows[0].amended_by"]
