"""A participant of a selection as plain values, and the draw's constants: algorithm, CSV columns, tie-breaks, roles."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

ALGORITHM = "praca-sorteio-1"

#: The algorithm in words (pt-BR), for the ata and the command's text output.
ALGORITHM_STEPS: tuple[str, ...] = (
    "Cada participante vira uma linha de texto UTF-8 «id;nome», seguida, nesta ordem e só quando "
    "houver, de «;group=G», «;quota=1», «;preference=P», «;rank=R», «;score=S» e «;paid_at=AAAA-MM-DDTHH:MM:SS». "
    "As linhas são ordenadas pelo id (ordem dos códigos Unicode) e cada uma termina com uma quebra de linha.",
    "O SHA-256 desse texto é o hash da lista, publicado com a lista antes do sorteio.",
    "Para cada participante calcula-se SHA-256(semente + quebra de linha + hash da lista + quebra de linha + id), "
    "em hexadecimal; a ordem sorteada é a dos participantes por esse valor (empate, na prática impossível, pelo id).",
    "Em cada grupo, os titulares são os primeiros N da sequência de seleção (a ordem sorteada; ou a classificação, "
    "a hora do pagamento ou a preferência, quando o ato manda, com o desempate do ato e, no que restar empatado, a "
    "ordem sorteada), listados na ordem "
    "sorteada, que é a ordem de escolha do local; havendo cota, as vagas reservadas vão primeiro aos cotistas; "
    "depois vêm os K suplentes e os demais.",
    "Qualquer pessoa refaz o sorteio com a lista publicada, a semente e poucas linhas de Python "
    "(README do Praça, seção «Sorteios: como conferir»).",
)

CSV_COLUMNS = (
    "id",
    "name",
    "group",
    "score",
    "paid_at",
    "quota",
    "debtor",
    "preference",
    "disability",
    "birth_date",
    "registered_at",
)

#: tie-break ids a regime may list, in words
TIE_BREAKS = {
    "disabled": "pessoa com deficiência primeiro",
    "oldest": "o mais idoso primeiro",
    "earliest-registration": "a inscrição mais antiga primeiro",
    "earliest-payment": "o pagamento mais antigo primeiro",
}

ROLES = {"holder": "titular", "alternate": "suplente", "other": "demais", "excluded": "excluído"}


@dataclass(frozen=True)
class Participant:
    """One applicant in a selection, as plain values (``None``: not known).

    The names follow ``models.registry.people.Person`` and
    ``models.rules.eligibility.ApplicantFacts``. ``age_years`` and
    ``residence_years`` may be given directly; otherwise they are worked out
    from ``birth_date`` and ``resident_since`` on the reference date.
    """

    id: str
    name: str
    group: str = ""
    # socio-economic facts (Sapezal art. 10)
    birth_date: dt.date | None = None
    disabled: bool | None = None
    housing: str | None = None  # rented | financed | owned | lent | other (models.registry.people.HOUSING)
    family_income_mw: Decimal | None = None  # in minimum wages
    resident_since: dt.date | None = None
    residence_years: Decimal | None = None
    age_years: int | None = None
    dependants_under_16: int | None = None
    experience_years: int | None = None
    # order and draw
    registered_at: dt.datetime | None = None
    paid_at: dt.datetime | None = None
    quota: bool = False  # a beneficiary of the quota (Ilha Comprida art. 11, § 2º)
    debtor: bool | None = None  # in debt with the municipality (None: not checked)
    preference: str | None = None  # id of a regime preference (SJC art. 11, § 3º)
    score: Decimal | None = None
    rank: int | None = None  # 1 = best; from rank_by_score, or from the score
    # links back to the records (not part of the published list)
    person_id: int | None = None
    application_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name}
        for name in ("group", "quota", "preference", "rank", "score", "paid_at", "person_id", "application_id"):
            value = getattr(self, name)
            if value in (None, "", False):
                continue
            out[name] = json_value(value)
        return out


def json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def decimal_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


_SPACES = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """NFC, single spaces, no leading/trailing blanks: how texts enter the list."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text or "")).strip()
