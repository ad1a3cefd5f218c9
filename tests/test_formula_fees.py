"""Formula fees (issue 29 §1, §3): two shipped fees written again in the rule language give the same figures;
decision tables, exceptions in order, asked values within bounds (recorded with who set them), references to
other fees; the checker reports every formula mistake at its item's id path with its column; a version of an
act is compiled once."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from formula_acts import TEST_ID, made_up, made_up_text, sao_bento, sjc
from hypothesis import given
from hypothesis import strategies as st

from desktop.cli import main
from models.base.errors import UserError
from models.rules.describe.rules import rule_facts
from models.rules.fees import fee_quote
from models.rules.regimes import check_regime_text, load_regime_text
from models.rules.regimes.fee_formulas import compiled_count, program_for

SAO_BENTO = sao_bento()
SJC = sjc()
MADE_UP = made_up()

sizes = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("12"), places=2).map(lambda d: str(d))


def _line(regime, fee, **inputs):
    return fee_quote(regime, fees=[fee], **inputs).lines[0]


@given(
    equipment=st.sampled_from(
        ["barraca", "trailer", "reboque", "carrinho-pipoca", "carrinho-algodao-doce", "carrinho-cachorro-quente"]
    ),
    front=sizes,
    hitch=st.one_of(st.none(), sizes),
    depth=sizes,
    mei=st.booleans(),
    local=st.booleans(),
)
def test_sao_bentos_linear_metre_price_as_a_formula_gives_the_same_figures(equipment, front, hitch, depth, mei, local):
    """Dec. 4.794/2026, art. 9º: Ci × UFESP × ML (with the hitch, at least 1 ML), with the MEI discounts."""
    inputs = dict(equipment=equipment, front=front, depth=depth, mei=mei, local=local)
    if hitch is not None and equipment in ("trailer", "reboque"):
        inputs["hitch"] = hitch
    try:
        shipped = _line(SAO_BENTO, "occupation", **inputs)
    except UserError as exc:  # a size beyond the equipment's maximum: both refuse it
        with pytest.raises(UserError):
            _line(SAO_BENTO, "occupation-formula", **inputs)
        assert exc.field in ("front", "depth")
        return
    written = _line(SAO_BENTO, "occupation-formula", **inputs)
    assert written.amount == shipped.amount
    assert written.formula == shipped.formula  # the same values, in the same order, with the same signs


@given(
    line=st.sampled_from(["comidas-tipicas", "legumes-verduras", "banana", "carnes-aves"]),
    front=st.decimals(min_value=Decimal("0.5"), max_value=Decimal("4"), places=2).map(str),
    depth=st.decimals(min_value=Decimal("0.5"), max_value=Decimal("3.5"), places=2).map(str),
    year=st.sampled_from([2014, 2020, 2026]),
    factor=st.decimals(min_value=Decimal("1.0001"), max_value=Decimal("2.5"), places=4).map(str),
)
def test_sjcs_per_area_month_fee_as_a_formula_gives_the_same_figures(line, front, depth, year, factor):
    """Lei 9.158/2014, art. 11, §§ 5º e 7º: R$ 2,50 per m² used, a month, corrected by the INPC."""
    inputs = dict(line=line, front=front, depth=depth, year=year, index_factors={"INPC": factor})
    shipped = _line(SJC, "licence-fee", **inputs)
    written = _line(SJC, "licence-fee-formula", **inputs)
    assert written.amount == shipped.amount
    assert "art. 11, § 7º" in written.basis if year > 2014 else "art. 11, § 5º" in written.basis


def test_the_written_fee_says_every_value_with_its_article_and_the_exceptions_in_order():
    line = _line(SAO_BENTO, "occupation-formula", equipment="carrinho-pipoca", front="0.80", mei=True, local=True)
    assert line.amount == Decimal("105.66")  # 5,50 × 38,42 × 1,00 (the minimum) × 0,50
    assert line.formula == "5,50 × 38,42 × 1,00 × (1 − 0,50)"  # the metres' own formula is in the details
    assert line.label == "Preço público de ocupação de via pública — desconto de 50 %"
    assert line.basis == "Dec. 4.794/2026, art. 9º, § 2º; art. 9º, § 3º; art. 9º, § 3º, I"
    details = "\n".join(line.details)
    assert "UFESP 2026 = R$ 38,42" in details
    assert "máx(0,80 + 0,00; 1,00) = 1,00 (Dec. 4.794/2026, art. 9º, § 3º)" in details
    first = details.index("Exceção 1 — desconto de 30 %")
    second = details.index("Exceção 2 — desconto de 50 %")
    assert first < second
    assert (
        "Exceção 1 — desconto de 30 % (Dec. 4.794/2026, art. 9º, § 3º, I; Lei nº 2.537/2025, art. 5º): não se aplica"
        in details
    )
    assert "aplica-se; em vez da regra geral (5,50 × 38,42 × 1,00 = 211,31), base × (1 − 0,50)" in details


def test_an_exception_reads_the_depth_only_for_the_stalls_it_could_reach():
    with pytest.raises(UserError, match="Informe a profundidade") as caught:
        _line(SAO_BENTO, "occupation-formula", equipment="barraca", front="3", mei=True, local=True)
    assert caught.value.field == "depth"
    assert _line(SAO_BENTO, "occupation-formula", equipment="barraca", front="3").amount == Decimal("633.93")


def test_a_decision_table_takes_its_first_row_that_holds_with_that_rows_article():
    hortifruti = _line(MADE_UP, "feira-setor", line="flores", area="10")
    pastel = _line(MADE_UP, "feira-setor", line="pastel", area="10")
    assert (hortifruti.amount, pastel.amount) == (Decimal("20.00"), Decimal("35.00"))
    assert pastel.details == (
        "Preço por m² conforme o setor: linha 2 (line = “pastel”) → 3,50 R$/m2 (Dec. 4.794/2026, art. 9º, § 3º)",
    )
    assert pastel.basis.endswith("art. 9º, § 3º")
    with pytest.raises(UserError, match="Informe o ramo"):  # the table's first row reads the line
        fee_quote(MADE_UP, fees=["feira-setor"], area="10", equipment="barraca")


def test_a_fee_on_top_of_another_fee_of_the_act():
    surcharge = _line(MADE_UP, "acrescimo", line="pastel", area="10")
    assert surcharge.amount == Decimal("10.50")  # 30 % of R$ 35,00
    assert surcharge.formula == "arred(35,00 × 0,30)"
    assert "Preço por setor da feira = R$ 35,00" in surcharge.details[0]


def test_an_asked_value_is_refused_outside_the_acts_bounds_and_kept_with_who_set_it():
    with pytest.raises(
        UserError, match=r"Nota do fiscal: 7 fora dos limites do ato — de 1 a 5 \(.*art\. 12, § 1º\)"
    ) as c:
        fee_quote(MADE_UP, fees=["diaria-graduada"], days=2, asked={"nota": "7"})
    assert c.value.field == "inputs.nota"
    with pytest.raises(UserError, match="no máximo 0 casas"):
        fee_quote(MADE_UP, fees=["diaria-graduada"], days=2, asked={"nota": "3,5"})
    with pytest.raises(UserError, match="depende de nota do fiscal, valor que o fiscal fixa, de 1 a 5"):
        fee_quote(MADE_UP, fees=["diaria-graduada"], days=2)
    with pytest.raises(UserError, match="'grade' não é um valor que o regime"):
        fee_quote(MADE_UP, fees=["diaria-graduada"], days=2, asked={"grade": "3"})
    line = fee_quote(MADE_UP, fees=["diaria-graduada"], days=2, asked={"nota": "4"}, asked_by="fiscal.ana").lines[0]
    assert line.amount == Decimal("61.47")  # 4 ÷ 5 × 1 UFESP (R$ 38,42) × 2 dias = 61,472
    assert line.formula == "4 ÷ 5 × 1 × 38,42 × 2"
    assert "Nota do fiscal = 4, de 1 a 5 (Dec. 4.794/2026, art. 12, § 1º) — informado por fiscal.ana" in line.details
    stored = json.loads(json.dumps(line.to_dict()))
    assert stored["asked"] == [{"name": "nota", "label": "Nota do fiscal", "value": "4", "set_by": "fiscal.ana"}]


def test_a_formula_fee_is_priced_unasked_when_the_inputs_it_reads_are_given():
    quote = fee_quote(MADE_UP, line="pastel", area="10")
    assert [line.fee for line in quote.lines] == ["feira-setor", "acrescimo"]
    assert "occupation" not in [line.fee for line in fee_quote(MADE_UP, line="pastel", area="10").lines]


def test_a_version_of_an_act_is_compiled_once():
    first = program_for(SAO_BENTO, SAO_BENTO.fee("occupation-formula"))
    before = compiled_count()
    for front in ("1", "2", "3"):
        _line(SAO_BENTO, "occupation-formula", equipment="barraca", front=front)
    assert compiled_count() == before
    assert program_for(SAO_BENTO, SAO_BENTO.fee("occupation-formula")) is first
    amended = made_up()  # another text (its own SHA-256): its own programs
    assert program_for(amended, amended.fee("occupation-formula")) is not first


# --------------------------------------------------------------------------- the checker


def test_the_checker_reports_every_formula_mistake_at_its_id_path_with_its_column(tmp_path, capsys):
    text = made_up_text().replace(f'id = "{TEST_ID}"', 'id = "formulas-erradas"', 1)
    for old, new in (
        ('formula = "preco_setor * area"', 'formula = "preco_setor * area + front"'),  # R$ + m
        ('formula = "nota / 5 * teto * days"', 'formula = "nota / 5 * tetoo * days"'),  # unknown name
        ("formula = \"round(fee('feira-setor') * 0.30)\"", "formula = \"fee('feira-setor') * 0,30\""),
        ("when = \"line == 'pastel'\"", "when = \"line == 'pastl'\""),  # not a line of the act
        ('formula = "max(front + hitch, 1.00 m)"', 'formula = "max(front + area, 1.00 m)"'),  # m + m²
        ('formula = "base * (1 - 0.50)"', 'formula = "base * (1 - 0.50"'),  # syntax
    ):
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "formulas-erradas.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["regimes", "check", str(path)]) == 2
    err = capsys.readouterr().err
    expected = [
        # the first of each in the file: São Bento's own occupation price (art. 9º), a formula fee
        r"fees\.occupation\.terms\.metros\.formula: erro na fórmula, coluna 11: unidades incompatíveis em "
        r"'\+': m e m²",
        r"fees\.occupation\.exceptions\.mei-local-cart\.formula: erro na fórmula, coluna 17: esperado '\)'",
        r"fees\.feira-setor\.formula: erro na fórmula, coluna 20: unidades incompatíveis em '\+': R\$ e m",
        r"fees\.feira-setor\.tables\.preco_setor\.rows\[1\]\.when: erro na fórmula, coluna 9: ramo 'pastl' não "
        r"existe neste regime — quis dizer 'pastel'\?",
        r"fees\.diaria-graduada\.formula: erro na fórmula, coluna 12: nome desconhecido 'tetoo' — quis dizer 'teto'\?",
        r"fees\.acrescimo\.formula: erro na fórmula, coluna 23: sobra ',' depois de uma expressão completa "
        r"\(decimais com ponto: 5\.50\)",
    ]
    for pattern in expected:
        assert re.search(r"formulas-erradas\.toml:\d+: " + pattern, err), (pattern, err)
    assert "6 erros; nada foi gravado." in err


def test_the_checker_refuses_circles_and_a_formula_that_does_not_come_out_in_reais():
    text = made_up_text().replace(
        "formula = \"round(fee('feira-setor') * 0.30)\"", "formula = \"round(fee('acrescimo-2') * 0.30)\""
    )
    text += """
[[fees]]
id = "acrescimo-2"
label = "Outro acréscimo"
kind = "formula"
formula = "fee('acrescimo') + area"
basis = "art. 12"
"""
    errors = check_regime_text(text, f"{TEST_ID}.toml")
    reasons = [f"{e.key}: {e.reason}" for e in errors]
    assert any("acrescimo-2" in r and "unidades incompatíveis em '+': R$ e m²" in r for r in reasons), reasons
    assert any("em círculo: acrescimo → acrescimo-2 → acrescimo" in r for r in reasons), reasons


# --------------------------------------------------------------------------- the command line


def test_praca_quote_asks_for_the_value_the_act_leaves_open_within_its_bounds(database, tmp_path, capsys):
    path = tmp_path / f"{TEST_ID}.toml"
    path.write_text(made_up_text(), encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    quote = [
        "--db",
        database,
        "quote",
        "--regime",
        TEST_ID,
        "--fee",
        "diaria-graduada",
        "--days",
        "2",
        "--year",
        "2026",
    ]
    assert main([*quote, "--input", "nota=7"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err  # one clear line
    assert "Nota do fiscal: 7 fora dos limites do ato — de 1 a 5" in err and "art. 12, § 1º" in err
    assert main(quote) == 2
    assert "informe-o (nota)" in capsys.readouterr().err
    assert main([*quote, "--input", "nota=4"]) == 0
    out = capsys.readouterr().out
    assert "Diária graduada pelo fiscal (2 dias)" not in out  # a formula fee's label is the act's
    assert "Fórmula: 4 ÷ 5 × 1 × 38,42 × 2 = R$ 61,47" in out
    assert "Nota do fiscal = 4, de 1 a 5" in out and "nota 4" in out
    assert main([*quote, "--input", "nota=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lines"][0]["asked"] == [{"name": "nota", "label": "Nota do fiscal", "value": "4", "set_by": None}]
    assert data["inputs"]["asked"] == {"nota": "4"}


def test_the_acts_sheet_says_a_formula_fee_as_the_file_writes_it_with_its_articles():
    from desktop.commands.regimes import regime_text

    text = regime_text(MADE_UP)
    assert "Regra geral: ci × metros — Dec. 4.794/2026, art. 9º, § 2º" in text
    assert "metros (ML ocupados, com o engate, no mínimo 1 ML por unidade comercial) = máx(front + hitch; 1,00)" in text
    assert "Exceção 1 — desconto de 30 %: quando mei e local e equipment em [“trailer”, “reboque”, “barraca”]" in text
    assert "Preço por m² conforme o setor: line = “pastel” → 3,50 R$/m2 — Dec. 4.794/2026, art. 9º, § 3º" in text
    assert "Nota do fiscal: valor que o fiscal fixa, de 1 a 5 (--input nota) — Dec. 4.794/2026, art. 12, § 1º" in text


def test_a_price_per_lot_per_feira_day_the_format_could_not_say_before():
    """Issue 29: "a fee per lot × per feira day has no kind" — a formula with the units of the act."""
    line = _line(MADE_UP, "lote-dia-feira", asked={"lotes": "3", "dias_de_feira": "4"}, asked_by="ana")
    assert line.amount == Decimal("150.00")
    assert line.formula == "12,50 × 3 × 4"
    assert "Lotes = 3, de 1 a 4 (Dec. 4.794/2026, art. 13, parágrafo único) — informado por ana" in line.details
    with pytest.raises(UserError, match="Lotes: 5 fora dos limites do ato — de 1 a 4"):
        _line(MADE_UP, "lote-dia-feira", asked={"lotes": "5", "dias_de_feira": "4"})
    wrong = made_up_text().replace('unit = "R$/dia_feira"', 'unit = "R$/dia"')  # R$/dia × dia de feira: not R$
    errors = check_regime_text(wrong, f"{TEST_ID}.toml")
    assert [e.reason for e in errors if "lote-dia-feira" in (e.key or "")] == [
        "erro na fórmula, coluna 1: a fórmula do preço deve dar R$, dá R$·dia de feira/dia"
    ]


def test_the_months_run_charges_a_monthly_formula_fee_as_the_fee_kind_it_replaces(keys, inpc):
    """SJC's act amended to write its monthly licence fee (art. 11, § 5º) as a formula: September's charge, from
    the amended text, is August's amount, frozen with the formula's own text and articles."""
    import datetime as dt

    from factories import sjc_stall
    from formula_acts import sjc_amended_to_formula

    from models.access import session
    from models.billing.charges import Charge, generate_month, plan_month
    from models.rules import acts

    sjc_stall(keys)  # 8,00 × 3,50 m of pastel, issued 03/08/2026
    august = plan_month(2026, 8, today=dt.date(2026, 8, 3)).to_create[0]
    assert august.formula == "2,50 × 1,930547 × 8,00 × 3,50"  # per-area-month: R$ 2,50 × INPC × front × depth
    with session.acting_as(session.SYSTEM):
        acts.amend(sjc_amended_to_formula("2026-09-01").encode("utf-8"), "sjc-2014.toml")
    september = plan_month(2026, 9, today=dt.date(2026, 9, 1)).to_create[0]
    assert september.amount == august.amount and september.kind == "monthly"
    assert september.due_on == dt.date(2026, 9, 20)
    assert september.formula == august.formula  # taxa × INPC × area, the area of the front and the depth
    assert "art. 11, § 5º" in september.basis and "art. 11, § 7º" in september.basis
    created = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
    stored = Charge.get_by_id(created[0].id)
    assert stored.amount == august.amount and json.loads(stored.detail)["formula"] == september.formula


# --------------------------------------------------------------------------- an exception sets the rule aside


@given(
    value=st.decimals(min_value=Decimal("0"), max_value=Decimal("999.99"), places=2),
    days=st.integers(min_value=1, max_value=60),
    year=st.integers(min_value=1998, max_value=2010),
)
def test_an_exception_that_holds_prices_without_the_general_rule_it_sets_aside(value, days, year):
    """São Lourenço do Oeste: the table in UFRM came with LC 127/2010; a fact before 2011 is priced by the exception
    with the value the Administration gives, and the general rule (which needs a UFRM the act never values) is
    neither priced nor asked for — Catala's base and exceptions: the exception overrides, it does not add."""
    line = fee_quote(
        "sao-lourenco-do-oeste-1997",
        permit_kind="alvara-ambulante",
        equipment="automotor",
        days=days,
        year=year,
        asked={"valor_antes_2011": value},
    ).lines[0]
    assert line.amount == (value * days).quantize(Decimal("0.01"))
    assert any("em vez da regra geral (taxa_dia × days, não calculada)" in d for d in line.details)
    assert not any("UFRM" in d for d in line.details)  # nothing of the rule set aside is shown as read


def test_the_rule_set_aside_still_asks_when_no_exception_holds_or_the_exception_reads_it():
    with pytest.raises(UserError, match="UFRM"):  # 2026: the table applies, and the UFRM has no value
        fee_quote("sao-lourenco-do-oeste-1997", permit_kind="alvara-ambulante", equipment="automotor", days=1)
    overrides = {("UFRM", 2026): Decimal("120.00")}
    line = fee_quote(
        "sao-lourenco-do-oeste-1997",
        permit_kind="alvara-ambulante",
        equipment="automotor",
        days=1,
        unit_overrides=overrides,
    ).lines[0]
    assert line.amount == Decimal("120.00")
    assert any("Exceção 1" in d and "não se aplica" in d for d in line.details)
    with pytest.raises(UserError, match="UFM"):  # Chapadão do Sul: the resident's discount reads the base
        fee_quote(
            "chapadao-do-sul-2007",
            permit_kind="licenca-ano",
            line="moveis",
            local=True,
            asked={"desconto_residente": "20"},
        )


def test_a_reason_naming_a_value_the_fee_does_not_read_and_a_condition_that_is_no_condition_are_reported():
    """``[[fees.exceptions]] unmet`` and ``[[fees.terms]] cited``: checked like every expression of the fee."""
    # São Bento's occupation price (art. 9º) says both, as a formula fee
    said = '{ when = "depth <= 3.00 m", reason = "profundidade {depth} m acima de 3,00 m" }'
    assert said in made_up_text()
    text = made_up_text().replace(said, said.replace("{depth}", "{profundidad}"), 1)
    errors = check_regime_text(text, f"{TEST_ID}.toml")
    assert any("profundidad" in e.reason and "unmet" in (e.key or "") for e in errors), errors
    condition = '{ basis = "art. 9º, § 3º", when = "front + hitch < 1.00 m" }'
    assert condition in made_up_text()
    cited = made_up_text().replace(condition, condition.replace(" < 1.00 m", ""), 1)
    errors = check_regime_text(cited, f"{TEST_ID}.toml")
    assert any("condição" in e.reason and "cited" in (e.key or "") for e in errors), errors


_REFUSAL = """
[[fees.refusals]]
when = "line == 'pastel' and area > 12.00 m2"
reason = "Banca de {area} m² acima dos 12,00 m² que o ato admite para {line}"
basis = "art. 9º, § 4º"
field = "area"
"""


def _with_refusal(refusal: str = _REFUSAL, label: str = "") -> str:
    text = made_up_text()
    old = 'formula = "preco_setor * area"\nbasis = "art. 9º, § 2º"\n'
    assert old in text
    return text.replace(old, old + label + refusal, 1)


def test_a_refusal_stops_the_price_with_its_reason_the_values_read_and_its_article():
    """``[[fees.refusals]]``: the fact the act does not allow is refused before any price, its reason saying the
    values read (a measure as the desk writes it, a line by its name) with the refusal's article and field; the
    facts it does not reach are priced, and a line not given leaves the refusal undecided."""
    regime = load_regime_text(_with_refusal(label='line_label = "Feira — {line} ({area} m²)"\n'), f"{TEST_ID}.toml")
    with pytest.raises(UserError) as exc:
        fee_quote(regime, fees=["feira-setor"], line="pastel", area="12,50")
    assert str(exc.value) == (
        "Banca de 12,50 m² acima dos 12,00 m² que o ato admite para Pastel (Dec. 4.794/2026, art. 9º, § 4º)."
    )
    assert exc.value.field == "area"
    line = fee_quote(regime, fees=["feira-setor"], line="pastel", area="12").lines[0]
    assert line.label == "Feira — Pastel (12,00 m²)" and line.amount > 0
    assert fee_quote(regime, fees=["feira-setor"], line="flores", area="20").lines[0].amount > 0
    words = [f.text for f in rule_facts(regime, regime.fee("feira-setor"))]
    assert any(w.startswith("Não se admite: quando ") and "12,00 m²" in w for w in words), words


def test_the_checker_reports_a_refusals_mistakes_at_its_id_path():
    """A refusal's condition must be true or false; every name it and its reason read must exist."""
    broken = _REFUSAL.replace("area > 12.00 m2", "area + 12.00 m2").replace("{area}", "{aera}")
    errors = check_regime_text(_with_refusal(broken, 'line_label = "{linha}"\n'), f"{TEST_ID}.toml")
    keys = {(e.key or "", e.reason) for e in errors}
    assert any("refusals[0].when" in k and "condição" in r for k, r in keys), keys
    assert any("refusals[0].reason" in k and "'aera'" in r and "'area'" in r for k, r in keys), keys
    assert any("line_label" in k and "'linha'" in r for k, r in keys), keys
    syntax = check_regime_text(_with_refusal(_REFUSAL.replace("{area}", "{area +}")), f"{TEST_ID}.toml")
    assert any("reason" in (e.key or "") and "{area +}" in e.reason for e in syntax), syntax


def test_given_asks_whether_the_case_states_a_fact_and_the_line_says_its_sentences():
    """``given(area)`` in a refusal: the act's own words when the area is missing; ``given()`` of anything but a
    desk's fact is refused by the checker. ``[[fees.says]]``: a sentence under its condition, with its article."""
    refusal = _REFUSAL + (
        '\n[[fees.refusals]]\nwhen = "not given(area)"\nreason = "Informe a área utilizada: o preço é por m²"\n'
        'basis = "art. 9º, § 2º"\nfield = "area"\n'
        '\n[[fees.says]]\nwhen = "area > 10.00 m2"\ntext = "Banca grande: {area} m² de {line}"\n'
        'basis = "art. 9º, § 5º"\n'
    )
    regime = load_regime_text(_with_refusal(refusal), f"{TEST_ID}.toml")
    with pytest.raises(UserError) as exc:
        fee_quote(regime, fees=["feira-setor"], line="flores")
    assert str(exc.value) == "Informe a área utilizada: o preço é por m² (Dec. 4.794/2026, art. 9º, § 2º)."
    big = fee_quote(regime, fees=["feira-setor"], line="flores", front="4", depth="3").lines[0]
    assert "Banca grande: 12,00 m² de Flores — Dec. 4.794/2026, art. 9º, § 5º" in big.details
    assert "art. 9º, § 5º" in big.basis and "4,00 × 3,00" in big.formula
    small = fee_quote(regime, fees=["feira-setor"], line="flores", area="9").lines[0]
    assert not any("Banca grande" in d for d in small.details) and "art. 9º, § 5º" not in small.basis
    wrong = _with_refusal(refusal.replace("not given(area)", "not given(2 m)"))
    errors = check_regime_text(wrong, f"{TEST_ID}.toml")
    assert any("given()" in e.reason and "refusals[1].when" in (e.key or "") for e in errors), errors
