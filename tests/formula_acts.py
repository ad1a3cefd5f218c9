"""Shipped acts with some of their fees written again in the rule language (issue 29 §1, §3), beside the
originals: the same figures must come out of both.

* São Bento (Dec. 4.794/2026): the occupation price, ``linear-metre`` with its two MEI discounts → a formula
  (coefficient in UFESP per linear metre × the metres with the hitch, at least 1 ML) with two exceptions.
* São José dos Campos (Lei 9.158/2014): the monthly licence fee, ``per-area-month`` corrected by the INPC → a
  formula (R$ 2,50 per m² × INPC × the area).
* A made-up act (``praca-formulas-teste``, from São Bento's header) with what no shipped act has: a decision
  table by line, an inspector's grade within a ceiling asked at the desk, a surcharge on another fee.
"""

from __future__ import annotations

from models.rules.regime_schema import former_text
from models.rules.regimes import default_regimes_folder, load_regime_text

FOLDER = default_regimes_folder()
SAO_BENTO_TEXT = (FOLDER / "sao-bento-2026.toml").read_text(encoding="utf-8")
SJC_SHIPPED_TEXT = (FOLDER / "sjc-2014.toml").read_text(encoding="utf-8")
OLIMPIA_TEXT = (FOLDER / "olimpia-2025.toml").read_text(encoding="utf-8")


def sjc_by_kind_text() -> str:
    """São José dos Campos' act with its monthly fee in the older kind (``per-area-month``), as the file said it
    before it was written as its formula."""
    return former_text("sjc-2014", SJC_SHIPPED_TEXT)


def olimpia_by_kind_text() -> str:
    """Olímpia's act with its venue table in the older kind (``venue-table``, the deposit a column of it), as the
    file said it before its fee and its deposit were written as formulas."""
    return former_text("olimpia-2025", OLIMPIA_TEXT)


#: the monthly fee's act as the converter and the formula tests read it: in its older kind
SJC_TEXT = sjc_by_kind_text()

OCCUPATION_AS_FORMULA = """
[[fees]]
id = "occupation-formula"
label = "Preço público de ocupação de via pública"
kind = "formula"
per = "event"
year = 2026
formula = "ci * metros"
basis = "art. 9º, § 2º"
basis_act = "Lei nº 2.537/2025 e Decreto nº 4.710/2025, art. 2º (Nível de Impacto III)"

[[fees.terms]]
name = "ci"
label = "Ci (Nível de Impacto III), em UFESP por metro linear"
value = "5.50"
unit = "UFESP/m"
basis = "art. 9º, § 2º"

[[fees.terms]]
name = "metros"
label = "ML ocupados, com o engate, no mínimo 1 ML por unidade comercial"
formula = "max(front + hitch, 1.00 m)"
basis = "art. 9º, § 3º"

[[fees.exceptions]]
id = "mei-local-estrutura"
label = "desconto de 30 %"
when = "mei and local and equipment in ['trailer', 'reboque', 'barraca'] and depth <= 3.00 m"
formula = "base * (1 - 0.30)"
basis = "art. 9º, § 3º, I"
basis_act = "Lei nº 2.537/2025, art. 5º"

[[fees.exceptions]]
id = "mei-local-carrinho"
label = "desconto de 50 %"
when = "mei and local and equipment in ['carrinho-pipoca', 'carrinho-algodao-doce']"
formula = "base * (1 - 0.50)"
basis = "art. 9º, § 3º, I"
basis_act = "Lei nº 2.537/2025, art. 5º"
"""

LICENCE_AS_FORMULA = """
[[fees]]
id = "licence-fee-formula"
label = "Taxa de licença — ocupação do solo (mensal)"
kind = "formula"
per = "month"
formula = "taxa * INPC * area"
basis = "art. 11, § 5º"

[[fees.terms]]
name = "taxa"
label = "Taxa por metro quadrado utilizado, ao mês (valores de 2014)"
value = "2.50"
unit = "R$/m2"
basis = "art. 11, § 5º"
"""

#: a made-up act: a table by line, a grade the inspector gives within a ceiling, a surcharge on another fee
TEST_ID = "praca-formulas-teste"
EXTRA_FEES = """
[[fees]]
id = "feira-setor"
label = "Preço por setor da feira"
kind = "formula"
per = "month"
formula = "preco_setor * area"
basis = "art. 9º, § 2º"

[[fees.tables]]
name = "preco_setor"
label = "Preço por m² conforme o setor"
unit = "R$/m2"

[[fees.tables.rows]]
when = "line in ['hortifruti', 'flores']"
value = "2.00"
basis = "art. 9º, § 2º"

[[fees.tables.rows]]
when = "line == 'pastel'"
value = "3.50"
basis = "art. 9º, § 3º"

[[fees.tables.rows]]
value = "3.00"
basis = "art. 9º, § 3º, I"

[[fees]]
id = "diaria-graduada"
label = "Diária graduada pelo fiscal"
kind = "formula"
per = "day"
formula = "nota / 5 * teto * days"
basis = "art. 12"

[[fees.terms]]
name = "teto"
label = "Teto da diária"
value = "1"
unit = "UFESP/dia"
basis = "art. 12"

[[fees.inputs]]
name = "nota"
label = "Nota do fiscal"
min = "1"
max = "5"
places = 0
set_by = "inspector"
basis = "art. 12, § 1º"

[[fees]]
id = "vistoria"
label = "Vistoria graduada pelo fiscal"
kind = "formula"
per = "once"
formula = "nota / 5 * teto_vistoria"
basis = "art. 12"

[[fees.terms]]
name = "teto_vistoria"
label = "Teto da vistoria"
value = "2"
unit = "UFESP"
basis = "art. 12"

[[fees.inputs]]
name = "nota"
label = "Nota do fiscal"
min = "1"
max = "5"
places = 0
set_by = "inspector"
basis = "art. 12, § 1º"

[[fees]]
id = "lote-dia-feira"
label = "Preço por lote e por dia de feira"
kind = "formula"
per = "event"
formula = "preco_lote * lotes * dias_de_feira"
basis = "art. 13"

[[fees.terms]]
name = "preco_lote"
label = "Preço por lote, por dia de feira"
value = "12.50"
unit = "R$/dia_feira"
basis = "art. 13"

[[fees.inputs]]
name = "lotes"
label = "Lotes"
min = "1"
max = "4"
places = 0
set_by = "applicant"
basis = "art. 13, parágrafo único"

[[fees.inputs]]
name = "dias_de_feira"
label = "Dias de feira"
unit = "dia_feira"
min = "1"
places = 0
set_by = "applicant"
basis = "art. 13"

[[fees]]
id = "acrescimo"
label = "Acréscimo sobre o preço do setor"
kind = "formula"
formula = "round(fee('feira-setor') * 0.30)"
basis = "art. 12, § 2º"
"""


def sao_bento_by_kind_text() -> str:
    """São Bento's shipped act with its occupation price and its energy tariff in the older kinds
    (``linear-metre``, ``energy``), in place of their formula fees."""
    return former_text("sao-bento-2026", SAO_BENTO_TEXT)


#: the acts whose fee the Administration sets, with that fee's id: written as formula fees whose value is the
#: Administration's (``fee_value = true``) since issue 29 §6
ADMINISTRATION_FEES = {
    "cabeceira-grande-2012": "taxa-licenca",
    "ilha-comprida-2017": "tributos-devidos",
    "sapezal-2014": "licenca",
}


def administration_fee_by_kind_text(name: str) -> str:
    """The shipped act ``name`` with its fee the Administration sets in the older wording, as the file said it before
    its formula (``kind = "fixed"``, ``admin_defined = true``; its period, article and notes as they are)."""
    text = (FOLDER / f"{name}.toml").read_text(encoding="utf-8")
    fee_id = ADMINISTRATION_FEES[name]
    start = text.index(f'[[fees]]\nid = "{fee_id}"')
    asked = text.index("\n[[fees.inputs]]\n", start)
    end = text.index("\n\n", asked + 1)
    fee = text[start:asked]
    head, rule = fee.split('kind = "formula"\n', 1)
    rule = rule.split("\n", 1)[1]  # the formula (the value asked) goes: the older kind says it with admin_defined
    return text[:start] + head + 'kind = "fixed"\nadmin_defined = true\n' + rule + text[end + 1 :]


def sao_bento_text() -> str:
    return SAO_BENTO_TEXT + OCCUPATION_AS_FORMULA


def sjc_text() -> str:
    return SJC_TEXT + LICENCE_AS_FORMULA


def made_up_text() -> str:
    """São Bento's act under another id and town, with the made-up formula fees and three lines of its own."""
    body = SAO_BENTO_TEXT.replace('id = "sao-bento-2026"', f'id = "{TEST_ID}"', 1)
    body = body.replace('municipality = "São Bento do Sapucaí"', 'municipality = "Cidade das Fórmulas"', 1)
    body = body.split("\n# ---------------------------------------------------------------- casos do ato")[
        0
    ]  # São Bento's
    body = body.replace('fees = ["occupation", "energy"]', 'fees = ["occupation-formula", "vistoria"]', 1)
    lines = "".join(
        f'\n[[lines]]\nid = "{ident}"\nlabel = "{label}"\nbasis = "art. 3º"\n'
        for ident, label in (("hortifruti", "Hortifrúti"), ("flores", "Flores"), ("pastel", "Pastel"))
    )
    return body + OCCUPATION_AS_FORMULA + EXTRA_FEES + lines


def sao_bento():
    return load_regime_text(sao_bento_text(), "sao-bento-2026.toml")


def sjc():
    return load_regime_text(sjc_text(), "sjc-2014.toml")


def made_up():
    return load_regime_text(made_up_text(), f"{TEST_ID}.toml")


def sjc_amended_to_formula(since: str = "2026-09-01") -> str:
    """SJC's act as an amendment (in force from ``since``) whose monthly licence fee, same id, is written as a
    formula — the way a town would move its act to the language."""
    import re

    block = re.compile(r'\[\[fees\]\]\nid = "licence-fee"\n.*?\n\n(?=\[\[fees\]\])', re.DOTALL)
    assert block.search(SJC_TEXT), "sjc-2014.toml's licence fee moved"
    formula = LICENCE_AS_FORMULA.replace('id = "licence-fee-formula"', 'id = "licence-fee"').lstrip("\n")
    due = 'due = { day_of_month = 20, basis = "art. 11, § 5º" }\n'
    formula = formula.replace('basis = "art. 11, § 5º"\n', 'basis = "art. 11, § 5º"\n' + due, 1)
    text = block.sub(lambda _: formula + "\n", SJC_TEXT, count=1)
    return text + (
        f'\n[regime.amendment]\nact = "Lei de teste (a taxa em fórmula)"\nin_force_from = {since}\n'
        'summary = "A taxa de licença escrita como fórmula, sem mudar o valor."\n'
    )
