"""A shipped regime file with ten independent defects, and what the checker must say of each (tests of
``praca regimes check``: tests/test_regime_checker.py, tests/test_act_cases.py)."""

from models.rules.regimes import default_regimes_folder

SAMPLE = default_regimes_folder() / "cabeceira-grande-2012.toml"  # six articles: its list is short


def _swap(text: str, old: str, new: str, after: str = "") -> str:
    """``old`` → ``new`` at its first place after ``after`` (which must be in the text, as ``old``)."""
    start = text.index(after) if after else 0
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old) :]


def ten_defects() -> str:
    text = SAMPLE.read_text(encoding="utf-8")
    text = _swap(text, 'act = "Lei nº 376, de 25 de junho de 2012"\n', "")  # 1 a required key of the header
    text = _swap(text, "published = 2012-06-25", 'published = "2012-06-25"')  # 2 a date in quotes
    text = _swap(
        text, 'scope = ["street-vending"]\n', 'scope = ["street-vending"]\narticles = ["1", "2", "3", "4", "5", "6"]\n'
    )
    text = _swap(text, "label =", "lable =", after='id = "requerimento"')  # 3 a typo
    text = _swap(text, 'basis = "art. 3º"', 'basis = "art. 9º"', after='id = "comprovante-taxa"')  # 4 no such article
    text = _swap(text, "notes =", 'colour = "azul"\nnotes =', after='id = "ambulante"')  # 5 an unknown key
    text = _swap(text, '"comprovante-taxa"]', '"comprovante-taxas"]', after='id = "licenca-ambulante"')  # 6 a reference
    text = _swap(text, 'kind = "formula"', 'kind = "formulla"', after='id = "taxa-licenca"')  # 7 a near-miss choice
    text = _swap(text, "days = []", 'days = "segunda"', after='id = "locais-e-horarios"')  # 8 a text for a list
    text = _swap(text, 'ladder = "apreensao"', 'ladder = "apreensoes"', after='code = "fora-do-lugar"')  # 9 a reference
    text = _swap(text, "days = 5", 'days = "5"', after='id = "defence"')  # 10 a number in quotes
    return text


TEN = {
    "regime.act": "chave obrigatória ausente",
    "regime.published": "esperada uma data TOML",
    "documents.requerimento.lable": 'quis dizer "label"?',
    "documents.comprovante-taxa.basis": "o ato não tem o art. 9",
    "equipment.ambulante.colour": "chave desconhecida",
    "permit_kinds.licenca-ambulante.documents[1]": (
        'documento "comprovante-taxas" não existe neste regime — quis dizer "comprovante-taxa"?'
    ),
    "fees.taxa-licenca.kind": 'valor "formulla" não previsto; use um de: ',
    "schedules.locais-e-horarios.days": "lista",
    "infractions.fora-do-lugar.ladder": 'gradação "apreensoes" não existe em [[ladders]] — quis dizer "apreensao"?',
    "deadlines.defence.days": "inteiro",
}
