"""What the inspector enters for a record (:class:`RecordDraft`), and the offender and permit it names."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError
from models.base.text import search_key
from models.enforcement.sanctions import (
    Verification,
)
from models.permits import Permit, find_permit
from models.registry.people import Company, Person
from models.rules.regimes import Regime, get_regime
from models.rules.silences import Choice


@dataclass(frozen=True)
class ItemInput:
    description: str
    quantity: Any = "1"
    unit: str = "un"
    perishable: bool = False


@dataclass(frozen=True)
class Witness:
    name: str
    document: str = ""


@dataclass(frozen=True)
class AdjustInput:
    """One adjustment of the proposal as the inspector or chief asks it (``models.enforcement.sanctions.adjust``)."""

    reason: str
    amounts: Mapping[int, Any] = field(default_factory=dict)
    days: Mapping[int, int] = field(default_factory=dict)
    apply: tuple[int, ...] = ()
    omit: tuple[int, ...] = ()
    #: the fact a conditional sanction waits for, by sanction number: the day verified, who, how
    facts: Mapping[int, Verification] = field(default_factory=dict)
    by: str = ""

    def to_dict(self) -> dict:
        return {
            "reason": self.reason,
            "amounts": {str(k): str(v) for k, v in self.amounts.items()},
            "days": {str(k): int(v) for k, v in self.days.items()},
            "apply": list(self.apply),
            "omit": list(self.omit),
            "facts": {str(k): v.to_dict() for k, v in self.facts.items()},
            "by": self.by,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> AdjustInput:
        return cls(
            reason=data.get("reason", ""),
            amounts={int(k): v for k, v in data.get("amounts", {}).items()},
            days={int(k): int(v) for k, v in data.get("days", {}).items()},
            apply=tuple(data.get("apply", ())),
            omit=tuple(data.get("omit", ())),
            facts={int(k): Verification.from_dict(v) for k, v in data.get("facts", {}).items()},
            by=data.get("by", ""),
        )


@dataclass
class RecordDraft:
    """What the inspector fills in before a record is issued."""

    kind: str
    regime: str
    at: _dt.datetime | None
    place: str = ""
    facts: str = ""
    infractions: Sequence[str] = ()
    person_id: int | None = None
    company_id: int | None = None
    unknown_name: str = ""  # someone not identified: the name given or how he is called
    unknown_description: str = ""
    offender_document: str = ""  # RG/CPF as shown, for someone not registered
    offender_address: str = ""
    permit_id: int | None = None
    permit_number: str = ""
    scope: str = ""
    witnesses: Sequence[Witness] = ()
    signature: str = "signed"
    signature_note: str = ""
    inspector: str = ""
    inspector_id: str = ""
    notified_at: _dt.datetime | None = None  # default: the record's own date and hour (handed on the spot)
    photos: Sequence[str | Path] = ()
    items: Sequence[ItemInput] = ()
    depot: str = ""
    adjustments: Sequence[AdjustInput] = ()
    step: int | None = None
    step_reason: str = ""
    payment_due: _dt.date | None = None
    deadline_choices: Mapping[str, str] = field(default_factory=dict)  # role → deadline id the inspector chose
    refers_to_id: int | None = None
    relation: str = ""
    reason: str = ""
    apply_to_permit: bool = False
    #: the authority's reading of each point where the act is silent (``[[silences]]`` shown at "penalty"),
    #: with its reason; a point not chosen is applied in the reading the regime declares, and the record says so
    readings: Mapping[str, Choice] = field(default_factory=dict)
    #: the values a fine written as a formula asks for (``[[infractions.fine.inputs]]``), as the inspector typed
    #: them: kept on the record's proposal with the inspector's name
    asked: Mapping[str, str] = field(default_factory=dict)


def offender_facts(draft: RecordDraft, errors: dict) -> tuple[str, str, str, str]:
    """(name, document, address, description) as the record will show them (Olímpia art. 28, I, II, IV)."""
    if draft.person_id:
        person = Person.get_or_none(Person.id == draft.person_id)
        if person is None:
            errors["offender"] = f"A pessoa nº {draft.person_id} não está cadastrada."
            return "", "", "", ""
        document = f"CPF {format_cpf(person.cpf)}" + (f" · RG {person.rg}" if person.rg else "")
        return person.name, document, _address(person), ""
    if draft.company_id:
        company = Company.get_or_none(Company.id == draft.company_id)
        if company is None:
            errors["offender"] = f"A empresa nº {draft.company_id} não está cadastrada."
            return "", "", "", ""
        return company.legal_name, f"CNPJ {format_cnpj(company.cnpj)}", _address(company), ""
    name = (draft.unknown_name or "").strip()
    description = (draft.unknown_description or "").strip()
    if not name:
        errors["offender"] = (
            "Informe o infrator: escolha a pessoa ou empresa cadastrada, ou descreva quem não foi "
            "identificado (nome ou denominação que o identifique)."
        )
    elif not description:
        errors["unknown_description"] = (
            "Descreva o infrator não identificado (aparência, roupa, o que vendia), para identificá-lo depois."
        )
    return name, (draft.offender_document or "").strip(), (draft.offender_address or "").strip(), description


def _address(row) -> str:
    parts = [
        f"{row.street}, {row.number}".strip(", ") if row.street else "",
        row.district,
        f"{row.city}/{row.state}" if row.city else "",
    ]
    return " — ".join(p for p in parts if p)


def offender_matches(text: str, limit: int = 30):
    """People and companies as the inspector types (``models.registry.search.find_applicants``)."""
    from models.registry.search import find_applicants

    return find_applicants(text, limit=limit)


def permit_label(number: str) -> tuple[Permit | None, str]:
    """The permit with ``number`` and a line about it (holder, kind, status), or None and why not."""
    try:
        permit = find_permit(number)
    except UserError as exc:
        return None, exc.message
    regime = get_regime(permit.regime)
    try:
        kind = regime.permit_kind(permit.permit_kind).label
    except UserError:
        kind = permit.permit_kind
    place = permit.site or ""
    return permit, (
        f"{permit.holder_name} · {kind} · {regime.short} · {permit.status_label}" + (f" · {place}" if place else "")
    )


def default_regime_id() -> str:
    """The regime of the municipality set in Cadastros → Município, else the first by municipality."""
    from models.registry.town import working_regimes
    from models.store.settings import MUNICIPALITY, get_setting

    regimes = sorted(working_regimes().values(), key=lambda r: (r.municipality, r.id))
    town = search_key(get_setting(MUNICIPALITY))
    for regime in regimes:
        if town and search_key(regime.municipality) == town:
            return regime.id
    return regimes[0].id if regimes else ""


def permit_number_of(permit_id: int) -> str:
    permit = Permit.get_or_none(Permit.id == permit_id)
    return permit.number if permit is not None else ""


def infractions_matching(regime: Regime, text: str = "") -> list[tuple[str, str, str]]:
    """``regime``'s infractions as ``(code, article, label)`` whose code, article or label hold every word of
    ``text`` (no database: the screen filters the act it already read)."""
    words = search_key(text).split()
    found = []
    for infraction in regime.infractions:
        haystack = search_key(f"{infraction.code} {infraction.article} {infraction.label} {infraction.nature or ''}")
        if all(w in haystack for w in words):
            found.append((infraction.code, infraction.article, infraction.label))
    return found
