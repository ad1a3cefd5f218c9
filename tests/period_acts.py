"""A made-up act in cruzeiros (``periodos-1985``, from Cabeceira Grande's header) whose prices are counted in the
periods real acts use (issue 29 §2): per lot per feira day, per event, per fiscal year (exercício), per month — and
whose licence is valid for the fiscal year it is issued in. Shared by the periods' and the currency's tests."""

from __future__ import annotations

from models.rules.regimes import default_regimes_folder

REGIME_ID = "periodos-1985"
CABECEIRA = (default_regimes_folder() / "cabeceira-grande-2012.toml").read_text(encoding="utf-8")

#: a fine fixed in the act's money (Cr$ 500,00 in an act in cruzeiros) and two worked cases
FINE = """
[[infractions]]
code = "multa-cruzeiros"
label = "Infração com multa fixada em cruzeiros"
article = "art. 1º"
fine = { value = "500.00", unit = "BRL", basis = "art. 5º" }
basis = "art. 5º"

[[cases]]
id = "multa-em-cruzeiros"
label = "Multa de Cr$ 500,00"
article = "art. 5º"
date = 2026-06-01
kind = "penalty"
inputs = { infraction = ["multa-cruzeiros"] }
expect = { total = "500.00" }

[[cases]]
id = "taxa-em-cruzeiros"
label = "Taxa informada pela Administração: Cr$ 1.500,00"
article = "art. 3º"
date = 2026-06-01
kind = "quote"
inputs = { fee = ["taxa-licenca"], admin-value = { taxa-licenca = "1.500,00" } }
expect = { total = "1500.00" }
"""

PERIOD_FEES = """
[[fees]]
id = "lote-feira"
label = "Preço por lote e por dia de feira"
kind = "formula"
per = "feira-day"
formula = "preco_lote * lotes * feira_days"
basis = "art. 4º"

[[fees.terms]]
name = "preco_lote"
label = "Preço de um lote por dia de feira"
value = "12.50"
unit = "R$/dia_feira"
basis = "art. 4º"

[[fees.inputs]]
name = "lotes"
label = "Lotes"
min = "1"
max = "4"
places = 0
set_by = "applicant"
basis = "art. 4º, parágrafo único"

[[fees.exceptions]]
id = "feira-longa"
label = "a partir do 9º dia de feira, metade do preço"
when = "feira_days > 8 dias_feira"
formula = "preco_lote * lotes * (8 dias_feira + (feira_days - 8 dias_feira) * 0.50)"
basis = "art. 4º, § 2º"

[[fees]]
id = "espaco-evento"
label = "Preço do espaço por evento"
kind = "formula"
per = "event"
formula = "preco_evento * events"
basis = "art. 5º"

[[fees.terms]]
name = "preco_evento"
label = "Preço do espaço por evento"
value = "300.00"
unit = "R$/evento"
basis = "art. 5º"

[[fees]]
id = "taxa-anual"
label = "Taxa de licença por exercício"
kind = "formula"
per = "fiscal-year"
formula = "taxa_exercicio * fiscal_years"
basis = "art. 6º"

[[fees.terms]]
name = "taxa_exercicio"
label = "Taxa por exercício"
value = "1500.00"
unit = "R$/exercicio"
basis = "art. 6º"

[[fees]]
id = "ocupacao-mensal"
label = "Ocupação por m² e por mês"
kind = "formula"
per = "month"
formula = "taxa_m2_mes * area * months"
basis = "art. 7º"

[[fees.terms]]
name = "taxa_m2_mes"
label = "Taxa por m² e por mês"
value = "2.00"
unit = "R$/m2/mes"
basis = "art. 7º"

[[cases]]
id = "tres-lotes-oito-feiras"
label = "Três lotes em oito dias de feira: Cr$ 300,00"
article = "art. 4º"
date = 1986-03-01
kind = "quote"
inputs = { fee = ["lote-feira"], feira-days = 8, input = { lotes = "3" } }
expect = { total = "300.00" }

[[cases]]
id = "dois-eventos"
label = "Dois eventos: Cr$ 600,00"
article = "art. 5º"
date = 1986-03-01
kind = "quote"
inputs = { fee = ["espaco-evento"], events = 2 }
expect = { total = "600.00" }

[[cases]]
id = "um-exercicio"
label = "Um exercício: Cr$ 1.500,00"
article = "art. 6º"
date = 1986-03-01
kind = "quote"
inputs = { fee = ["taxa-anual"], fiscal-years = 1 }
expect = { total = "1500.00" }

[[cases]]
id = "seis-m2-tres-meses"
label = "6 m² por três meses: Cr$ 36,00"
article = "art. 7º"
date = 1986-03-01
kind = "quote"
inputs = { fee = ["ocupacao-mensal"], area = "6,00", months = 3 }
expect = { total = "36.00" }
"""


FISCAL_YEAR = 'validity = { until = "fiscal-year-end", basis = "art. 6º" }'


def period_act_text(*, extra: str = PERIOD_FEES, validity: str = FISCAL_YEAR) -> str:
    """The made-up act: Cabeceira Grande's file in cruzeiros, published in 1985, its licence valid for the fiscal
    year (``validity``), with ``extra`` appended (the period fees and their cases)."""
    text = CABECEIRA.replace('id = "cabeceira-grande-2012"', f'id = "{REGIME_ID}"', 1)
    text = text.replace('scope = ["street-vending"]\n', 'scope = ["street-vending"]\ncurrency = "Cr$"\n', 1)
    text = text.replace("published = 2012-06-25", "published = 1985-06-25", 1)
    text = text.replace("in_force = { from = 2012-06-25", "in_force = { from = 1985-06-25", 1)
    text = text.replace('fees = ["taxa-licenca"]\n', f'fees = ["taxa-licenca"]\n{validity}\n', 1)
    return text + extra
