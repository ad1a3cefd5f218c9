"""Fiscalização: notices, infraction records, seizures and interdictions, defences and appeals.

A **record** (:class:`Record`) is an issued act: once numbered it is never
edited. What the acts require is frozen on it when it is issued (Olímpia, LC
324/2025, art. 28 and 32; Ilha Comprida, Dec. 890/2017, art. 29): the date,
time and place, the offender (a registered person or company, or someone not
identified, described by name and looks), the permit if any, the facts, the
articles infringed (codes of the regime's catalogue), the witnesses, whether
the offender signed or refused (art. 28, § 1º; art. 32, §§ 2º–3º), the
inspector and his registration number, the photos (kept with their SHA-256),
the sanction proposed by :func:`models.enforcement.sanctions.propose_sanction` with its
formula and articles and any adjustment with its written reason, and the
deadlines counted by :func:`models.rules.deadlines.compute_deadline`.

* Numbers are gapless per kind and year (``AAAA/NNNNN``, counter
  ``record-<kind>-<year>``), taken inside the transaction that writes the
  record.
* A **correction** is a new record that refers to the old one; the old one
  only changes status (*corrigido*) and the deadlines start again from the
  new notification (Olímpia art. 32, § 4º). An offender recorded without
  identification is **identified** the same way, by a new record.
* An infraction record that follows a **notice** not complied with (Olímpia
  art. 29) and a seizure or interdiction record drawn up with it (art. 33) are
  the same occurrence: together they count once for recurrence.
* **Recurrence**: the offender's earlier occurrences, by nature, inside the
  regime's window, feed the proposal (Olímpia art. 12, § 1º; art. 17, § 1º).
* **Fines become charges** (``models.billing.charges.create_charge(kind="fine")``) in
  the transaction that issues the record, due at the act's payment deadline
  (or on the date the clerk enters where the act sets none).
* **Seizures**: items with quantity, perishable or not, and depot; a daily
  depot fee where the act sets one (Olímpia art. 145, § 2º and 215, § 4º:
  1 UFESP per day), reclaim deadlines, release only after the fines and fees
  are paid (art. 23, parágrafo único; Sapezal art. 52, § 1º), donation when
  not claimed in time (Olímpia art. 24; art. 215, § 2º).
* **Defence and appeal** (:class:`Contest`): filed with a date, before the
  instance; suspensive where the authority or the act gives it; the decision
  (upheld, partly upheld, annulled) updates the fine's charge; a final
  decision closes the administrative instance.
* Unpaid fines past their deadline are listed for inscription in **dívida
  ativa** (Olímpia art. 11, § 1º).

* **Decisions**: a sanction the act leaves to the authority, or ties to a
  fact, is proposed; the authority imposes or omits it with a written reason,
  and records the fact (the day it was verified, who verified it) — when the
  record is drawn up (``RecordDraft.adjustments``) or later
  (:func:`decide_sanctions`, a new event on the record; a fine imposed then
  becomes a charge). :func:`current_proposal` is the record's proposal with
  every later decision.

Which of the regime's ``[[deadlines]]`` run for a record is read from what the
deadline declares: its ``role`` (compliance, payment, defence, appeal,
reclaim…), its ``from`` event, ``applies_to`` (the sanctions it follows),
``perishable`` (reclaim) and ``matter`` (the scopes it is for: where an act has
a general deadline and one for a matter — ``defence`` and ``defence-tpu`` —
the matter's applies when the record's scope is one of them); an
``alternative`` deadline is offered to the inspector, never chosen alone.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from peewee import (
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
)

from models.access.session import acting, require
from models.base import clock
from models.base.br import format_cnpj, format_cpf
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl, parse_typed, round_cents, to_decimal
from models.billing.charges import Charge, cancel_charge, create_charge
from models.enforcement.sanctions import (
    IMPOSED,
    PROPOSED,
    PriorOffence,
    Proposal,
    Verification,
    adjust,
    check_in_force,
    imposed,
    propose_sanction,
    sanction_lines,
)
from models.permits import LIVE_STATUSES, Permit, find_permit
from models.registry.applications import next_number
from models.registry.people import Company, Person, search_key
from models.rules import describe
from models.rules.deadlines import DeadlineResult, compute_deadline
from models.rules.regimes import Deadline, MissingUnitValue, Regime, get_regime
from models.store.db import BaseModel, DecimalTextField, MoneyField, db, update_versioned
from models.store.files import keep_file

__all__ = [
    "KINDS",
    "KIND_SHORT",
    "STATUSES",
    "SIGNATURES",
    "RELATIONS",
    "ROLES",
    "OUTCOMES",
    "CONTEST_KINDS",
    "DECISION_LABELS",
    "Record",
    "RecordFile",
    "RecordCharge",
    "RecordEvent",
    "SeizedItem",
    "Contest",
    "TABLES",
    "ItemInput",
    "Witness",
    "AdjustInput",
    "RecordDraft",
    "Preview",
    "DeadlineRow",
    "RecordRow",
    "SeizedRow",
    "DebtRow",
    "DepotFee",
    "deadline_role",
    "prior_offences",
    "preview",
    "issue_record",
    "decide_sanctions",
    "current_proposal",
    "current_sanctions",
    "decisions_of",
    "charged_fines_total",
    "correct_record",
    "identify_offender",
    "get_record",
    "record_rows",
    "chain_of",
    "draft_from",
    "followers_of",
    "default_final",
    "charges_of",
    "files_of",
    "items_of",
    "contests_of",
    "events_of",
    "deadline_rows",
    "fine_status",
    "situation",
    "current_fine",
    "file_contest",
    "decide_contest",
    "apply_to_permit",
    "depot_fee",
    "charge_depot_fee",
    "release_items",
    "donate_items",
    "seized_goods",
    "debt_register",
    "offender_matches",
    "permit_label",
    "permit_number_of",
    "default_regime_id",
    "infraction_catalogue",
    "explain",
    "demo_enforcement",
    "enforcement_alerts",
]

KINDS = {
    "notice": "Notificação",
    "infraction": "Auto de infração e imposição de penalidade",
    "seizure": "Auto de apreensão",
    "interdiction": "Auto de interdição",
}
KIND_SHORT = {"notice": "Notificação", "infraction": "AI", "seizure": "Apreensão", "interdiction": "Interdição"}
STATUSES = {"issued": "lavrado", "corrected": "corrigido", "annulled": "anulado"}
SIGNATURES = {
    "signed": "assinou e recebeu a 2ª via",
    "refused": "recusou-se a assinar",
    "unable": "não pôde assinar",
    "absent": "ausente no ato",
}
RELATIONS = {
    "correction": "correção de",
    "identification": "identificação do infrator de",
    "follows-notice": "notificação não atendida:",
    "accompanies": "lavrado com",
}
#: the roles of a regime's deadlines that run for a record (``Deadline.role``), with their labels
ROLES = {
    role: describe.ROLES[role]
    for role in (
        "compliance",
        "payment",
        "defence",
        "decision",
        "appeal",
        "appeal-decision",
        "payment-after-decision",
        "reclaim",
    )
}
DECISION_LABELS = {
    IMPOSED: "imposta",
    PROPOSED: "proposta, aguardando a decisão da autoridade ou o fato",
    "omitted": "dispensada pela autoridade",
    "tolerated": "tolerada pelo ato",
}
CONTEST_KINDS = {"defence": "Defesa", "appeal": "Recurso"}
INSTANCES = {"defence": "1ª instância — chefia da fiscalização", "appeal": "2ª instância — órgão de recursos"}
OUTCOMES = {
    "upheld": "auto mantido (defesa improcedente)",
    "partly": "defesa procedente em parte",
    "annulled": "auto anulado (defesa procedente)",
}
_START_EVENTS = ("notification", "infraction-record", "penalty")
_DECISION_EVENTS = ("decision-notification", "decision-publication")
ZERO = Decimal("0.00")


def _d(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


def _dt_text(moment: _dt.datetime | None) -> str:
    return moment.strftime("%d/%m/%Y %H:%M") if moment else ""


# --------------------------------------------------------------------------- tables


class Record(BaseModel):
    """An enforcement act as issued: never edited (only its status moves, with an event)."""

    number = CharField(max_length=16)  # AAAA/NNNNN, per kind and year
    kind = CharField(max_length=16, index=True)
    year = IntegerField()
    seq = IntegerField()
    regime = CharField(max_length=64, index=True)
    scope = CharField(max_length=32, default="")  # the matter (regime scope) the deadlines are chosen for
    person = ForeignKeyField(Person, null=True, backref="records", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="records", on_delete="RESTRICT")
    offender_name = CharField(max_length=200)  # as written on the record
    offender_document = CharField(max_length=80, default="")
    offender_address = CharField(max_length=300, default="")
    offender_description = TextField(default="")  # someone not identified: looks, clothes, what was sold
    permit = ForeignKeyField(Permit, null=True, backref="records", on_delete="RESTRICT")
    place = CharField(max_length=300)
    at = DateTimeField(index=True)  # day and hour of the facts and of the record
    notified_at = DateTimeField()  # the offender's notification: where the deadlines count from
    facts = TextField()
    infractions = TextField()  # JSON list of the regime's infraction codes
    witnesses = TextField(default="[]")  # JSON [{name, document}]
    signature = CharField(max_length=12)
    signature_note = TextField(default="")
    inspector = CharField(max_length=100)
    inspector_id = CharField(max_length=40, default="")  # matrícula
    depot = CharField(max_length=200, default="")  # seizure: where the goods are kept (Olímpia art. 22)
    proposal = TextField()  # JSON: the proposal as adjusted, with formulas and articles
    adjustments = TextField(default="[]")  # JSON: the adjustments as asked (to re-apply on a correction)
    step = IntegerField(null=True)
    step_reason = TextField(default="")
    fine_total = MoneyField(default=0)  # fines charged when issued
    deadlines = TextField(default="[]")  # JSON: deadlines counted when issued, with their basis
    refers_to = ForeignKeyField("self", null=True, backref="followers", on_delete="RESTRICT")
    relation = CharField(max_length=20, default="")
    reason = TextField(default="")  # why the correction
    search_text = TextField(default="")
    status = CharField(max_length=12, default="issued", index=True)
    issued_on = DateField()
    issued_at = DateTimeField(default=clock.now)
    issued_by = CharField(max_length=100)
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    class Meta:
        table_name = "enforcement_record"
        indexes = ((("kind", "number"), True),)

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    @property
    def reference(self) -> str:
        """``"AI nº 2026/00012"``: numbers repeat across kinds, the reference does not."""
        return f"{KIND_SHORT.get(self.kind, self.kind)} nº {self.number}"

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def codes(self) -> list[str]:
        return list(json.loads(self.infractions or "[]"))

    @property
    def proposal_data(self) -> dict:
        return json.loads(self.proposal or "{}")

    @property
    def deadline_data(self) -> list[dict]:
        return list(json.loads(self.deadlines or "[]"))

    @property
    def witness_data(self) -> list[dict]:
        return list(json.loads(self.witnesses or "[]"))

    @property
    def identified(self) -> bool:
        return bool(self.person_id or self.company_id)


class RecordFile(BaseModel):
    """A photo or document of a record, kept in Praça's folder under its SHA-256."""

    record = ForeignKeyField(Record, backref="files", on_delete="RESTRICT")
    path = CharField(max_length=300)
    sha256 = CharField(max_length=64)
    original_name = CharField(max_length=200)
    size = IntegerField()
    kind = CharField(max_length=16, default="photo")
    added_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "enforcement_file"


class RecordCharge(BaseModel):
    """A charge that comes from a record: its fine, or a depot fee (``until``: the last day charged)."""

    record = ForeignKeyField(Record, backref="charge_links", on_delete="RESTRICT")
    charge = ForeignKeyField(Charge, backref="record_links", on_delete="RESTRICT")
    role = CharField(max_length=12)  # fine | depot
    until = DateField(null=True)

    class Meta:
        table_name = "enforcement_charge"


class RecordEvent(BaseModel):
    """One fact after a record was issued: corrected, applied to the permit, items released… never edited."""

    record = ForeignKeyField(Record, backref="events", on_delete="RESTRICT")
    at = DateTimeField(default=clock.now)
    on = DateField()
    by = CharField(max_length=100)
    kind = CharField(max_length=24, index=True)
    text = TextField(default="")
    data = TextField(default="")

    class Meta:
        table_name = "enforcement_event"


class SeizedItem(BaseModel):
    """One line of a seizure record: what, how much, perishable or not; its release or donation."""

    record = ForeignKeyField(Record, backref="items", on_delete="RESTRICT")
    description = CharField(max_length=300)
    quantity = DecimalTextField(max_length=20)
    unit = CharField(max_length=20, default="un")
    perishable = BooleanField(default=False)
    released_on = DateField(null=True)
    released_by = CharField(max_length=100, default="")
    donated_on = DateField(null=True)
    donated_by = CharField(max_length=100, default="")
    donated_to = CharField(max_length=200, default="")
    note = TextField(default="")
    version = IntegerField(default=1)

    class Meta:
        table_name = "enforcement_item"

    @property
    def held(self) -> bool:
        return self.released_on is None and self.donated_on is None


class Contest(BaseModel):
    """A defence or an appeal against a record, and its decision."""

    record = ForeignKeyField(Record, backref="contests", on_delete="RESTRICT")
    kind = CharField(max_length=8)  # defence | appeal
    instance = CharField(max_length=200)
    filed_on = DateField()
    filed_by = CharField(max_length=100)
    grounds = TextField(default="")
    on_time = BooleanField(default=True)
    deadline = TextField(default="")  # JSON: the deadline for filing it, as counted
    suspensive = BooleanField(default=False)
    suspensive_note = TextField(default="")
    decision_deadline = TextField(default="")  # JSON
    outcome = CharField(max_length=10, default="")
    decided_on = DateField(null=True)
    decided_by = CharField(max_length=100, default="")
    decision_reason = TextField(default="")
    new_amount = MoneyField(null=True)
    notified_on = DateField(null=True)  # the decision's notification (the next deadlines count from it)
    final = BooleanField(default=False)
    after = TextField(default="[]")  # JSON: deadlines that count from the decision
    version = IntegerField(default=1)

    class Meta:
        table_name = "enforcement_contest"

    @property
    def kind_label(self) -> str:
        return CONTEST_KINDS.get(self.kind, self.kind)

    @property
    def outcome_label(self) -> str:
        return OUTCOMES.get(self.outcome, "aguardando julgamento")

    @property
    def pending(self) -> bool:
        return not self.outcome


TABLES = [Record, RecordFile, RecordCharge, RecordEvent, SeizedItem, Contest]


# --------------------------------------------------------------------------- input


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
    def from_dict(cls, data: Mapping) -> "AdjustInput":
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


# --------------------------------------------------------------------------- deadlines: which run


def deadline_role(deadline: Deadline) -> str | None:
    """What a regime deadline is for a record (its declared ``role``), or None when it is not about one."""
    return deadline.role if deadline.role in ROLES else None


def _matter(regime: Regime, draft: "RecordDraft", codes: list[str]) -> str:
    """The record's matter: the one the inspector chose, else the one its infractions declare (``matter``)."""
    return draft.scope or regime.matter_of(codes)


def _pick(candidates: list[Deadline], scope: str) -> list[Deadline]:
    """The deadlines for the record's matter: those declared for its scope, else the general ones (no
    ``matter``); an ``alternative`` one only when the inspector chooses it."""
    usual = [d for d in candidates if not d.alternative]
    named = [d for d in usual if scope and scope in d.matter]
    return named or [d for d in usual if not d.matter]


def _role_candidates(regime: Regime, role: str, sanction_kinds: set[str] | None = None) -> list[Deadline]:
    found = [d for d in regime.deadlines if d.role == role]
    if sanction_kinds is not None and role not in ("compliance",):
        found = [d for d in found if not d.applies_to or set(d.applies_to) & sanction_kinds]
    return found


def _deadline_dict(result: DeadlineResult, role: str, *, extra: Mapping | None = None) -> dict:
    data = result.to_dict()
    data["role"] = role
    data["role_label"] = ROLES.get(role, role)
    if extra:
        data.update(extra)
    return data


def _start_for(event: str, at: _dt.datetime, notified: _dt.datetime) -> _dt.datetime | None:
    if event == "seizure":
        return at
    if event in _START_EVENTS:
        return notified
    return None


# --------------------------------------------------------------------------- people


def _offender_facts(draft: RecordDraft, errors: dict) -> tuple[str, str, str, str]:
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
    """The regime of the municipality set in Cadastros → Configurações, else the first by municipality."""
    from models.rules.regimes import shipped_regimes
    from models.store.settings import MUNICIPALITY, get_setting

    regimes = sorted(shipped_regimes().values(), key=lambda r: (r.municipality, r.id))
    town = search_key(get_setting(MUNICIPALITY))
    for regime in regimes:
        if town and search_key(regime.municipality) == town:
            return regime.id
    return regimes[0].id if regimes else ""


def permit_number_of(permit_id: int) -> str:
    permit = Permit.get_or_none(Permit.id == permit_id)
    return permit.number if permit is not None else ""


def infraction_catalogue(regime_id: str, text: str = "") -> list[tuple[str, str, str]]:
    """The regime's infractions as ``(code, article, label)``, filtered by words of the code, article or label."""
    regime = get_regime(regime_id)
    words = search_key(text).split()
    found = []
    for infraction in regime.infractions:
        haystack = search_key(f"{infraction.code} {infraction.article} {infraction.label} {infraction.nature or ''}")
        if all(w in haystack for w in words):
            found.append((infraction.code, infraction.article, infraction.label))
    return found


# --------------------------------------------------------------------------- chains and recurrence


def _root(record: Record) -> Record:
    seen = set()
    while record.refers_to_id and record.id not in seen:
        seen.add(record.id)
        record = Record.get_by_id(record.refers_to_id)
    return record


def chain_of(record: Record) -> list[Record]:
    """Every record of the same occurrence (the notice, its infraction record, seizure, corrections), by date."""
    root = _root(record)
    found = {root.id: root}
    frontier = [root.id]
    while frontier:
        followers = list(Record.select().where(Record.refers_to.in_(frontier)))
        frontier = [r.id for r in followers if r.id not in found]
        for r in followers:
            found[r.id] = r
    return sorted(found.values(), key=lambda r: (r.issued_at, r.id))


def prior_offences(
    regime: Regime,
    *,
    person_id: int | None,
    company_id: int | None,
    before: _dt.datetime,
    exclude: Record | None = None,
) -> tuple[list[PriorOffence], list[str]]:
    """The offender's earlier occurrences in this regime, one per nature and occurrence, and their references.

    An occurrence is a chain of records (notice → infraction record → seizure,
    corrections); it counts once, on the day of its first record. Annulled
    chains do not count; neither does the chain of ``exclude`` (the record
    being corrected or followed).
    """
    if not person_id and not company_id:
        return [], []
    owner = (Record.person == person_id) if person_id else (Record.company == company_id)
    rows = list(
        Record.select()
        .where(owner & (Record.regime == regime.id) & (Record.at < before) & (Record.status == "issued"))
        .order_by(Record.at)
    )
    if not rows:
        return [], []
    excluded = _root(exclude).id if exclude is not None else None
    by_root: dict[int, tuple[Record, list[Record]]] = {}
    for row in rows:
        root = _root(row)
        if root.id == excluded:
            continue
        by_root.setdefault(root.id, (root, []))[1].append(row)
    priors: list[PriorOffence] = []
    refs: list[str] = []
    for root, members in by_root.values():
        if any(r.status == "annulled" for r in chain_of(root)):
            continue
        natures: dict[str, str] = {}
        for member in members:
            for code in member.codes:
                if code not in regime.ids("infraction"):
                    continue
                infraction = regime.infraction(code)
                natures.setdefault(infraction.nature or code, code)
        if not natures:
            continue
        on = root.at.date()
        priors.extend(PriorOffence(code, on) for code in natures.values())
        refs.append(f"{members[-1].reference} de {_d(on)}")
    return priors, refs


# --------------------------------------------------------------------------- the proposal and the deadlines


@dataclass(frozen=True)
class Preview:
    """Everything a record will say, before it is issued: proposal, deadlines, what it charges."""

    regime: Regime
    kind: str
    proposal: Proposal
    priors: tuple[PriorOffence, ...]
    prior_refs: tuple[str, ...]
    fine_total: Decimal  # what becomes a charge when issued
    fine_lines: tuple[dict, ...]  # the fines charged: label, amount, formula, basis
    deadlines: tuple[dict, ...]
    options: Mapping[str, tuple[tuple[str, str], ...]]  # role → (id, label) the inspector may choose
    needs_payment_due: bool
    warnings: tuple[str, ...]
    offender: tuple[str, str, str, str]

    @property
    def payment_deadline(self) -> dict | None:
        return next((d for d in self.deadlines if d["role"] == "payment"), None)


def _unit_overrides(regime: Regime):
    from models.billing.fiscal import unit_overrides

    return unit_overrides(regime.id)


def _index_factors(regime: Regime, year: int) -> dict[str, Decimal]:
    from models.billing.pricing import FACTOR_PLACES, regime_index_factors

    factors = regime_index_factors(regime, year)
    return {code: f.factor.quantize(FACTOR_PLACES) for code, f in factors.items() if not f.missing}


def _propose(
    regime: Regime,
    codes: list[str],
    on: _dt.date,
    prior,
    step: int | None,
    step_reason: str,
    adjustments: Sequence[AdjustInput],
    facts: Mapping[str, Verification] | None = None,
) -> Proposal:
    try:
        proposal = propose_sanction(
            regime,
            codes,
            on=on,
            prior=prior,
            unit_values=_unit_overrides(regime),
            index_factors=_index_factors(regime, on.year),
            step=step,
            reason=step_reason or None,
            facts=facts,
        )
    except MissingUnitValue as exc:
        raise UserError(f"{exc.message} (Cadastros → Unidades fiscais)", field="infractions") from None
    except UserError as exc:
        if exc.field == "index_factor":
            raise UserError(f"{exc.message} (Cadastros → Correção monetária)", field="infractions") from None
        raise
    for item in adjustments:
        proposal = _apply_adjustment(proposal, item)
    return proposal


def _apply_adjustment(proposal: Proposal, item: AdjustInput) -> Proposal:
    return adjust(
        proposal,
        reason=item.reason,
        amounts=dict(item.amounts),
        days=dict(item.days),
        apply=item.apply,
        omit=item.omit,
        facts=dict(item.facts),
        by=item.by or None,
    )


def _charged_fines(proposal: Proposal) -> list:
    """Fines that become due now: imposed (by the act, by the authority, or once their fact was verified)."""
    return [s for s in proposal.sanctions if s.kind == "fine" and s.applied]


def _count(regime: Regime, deadline: Deadline, start, role: str) -> dict:
    return _deadline_dict(compute_deadline(regime, deadline.id, start), role)


def _record_deadlines(
    regime: Regime,
    kind: str,
    proposal: Proposal,
    *,
    at: _dt.datetime,
    notified: _dt.datetime,
    scope: str,
    codes: list[str],
    choices: Mapping[str, str],
    perishable: Iterable[bool],
    has_fine: bool,
    not_complied: bool = False,
) -> tuple[list[dict], dict[str, tuple[tuple[str, str], ...]]]:
    """The deadlines that start with the record, and the alternatives per role the inspector may pick."""
    applied = {s.kind for s in proposal.sanctions if s.applied}
    if has_fine:
        applied.add("fine")
    out: list[dict] = []
    options: dict[str, tuple[tuple[str, str], ...]] = {}

    def run(role: str, candidates: list[Deadline], *, extra: Mapping | None = None, key: str | None = None) -> None:
        key = key or role
        usable = [d for d in candidates if _start_for(d.from_, at, notified) is not None]
        if not usable:
            return
        options[key] = tuple((d.id, f"{d.label} ({regime.cite_item(d)})") for d in usable)
        chosen_id = choices.get(key)
        if chosen_id:
            picked = [d for d in usable if d.id == chosen_id]
            if not picked:
                raise UserError(
                    f"Prazo '{chosen_id}' não serve para {ROLES.get(role, role).lower()} neste auto.", field="deadlines"
                )
        else:
            picked = _pick(usable, scope)
        for d in picked:
            out.append(
                _deadline_dict(compute_deadline(regime, d.id, _start_for(d.from_, at, notified)), role, extra=extra)
            )

    # a warning runs its own deadline to comply (Olímpia art. 10; SJC art. 23)
    warnings = [s for s in proposal.sanctions if s.kind == "warning" and s.applied]
    if warnings and kind in ("notice", "infraction") and not not_complied:
        ids = {i for s in warnings for i in s.deadlines}
        run("compliance", [d for d in regime.deadlines if d.id in ids])
    if has_fine and kind != "notice":
        run("payment", _role_candidates(regime, "payment", applied))
    if kind != "notice":
        run("defence", _role_candidates(regime, "defence", applied))
        run("appeal", _role_candidates(regime, "appeal", applied))
    if kind == "seizure":
        reclaim = _role_candidates(regime, "reclaim")
        kinds = set(perishable)
        for flag in sorted(kinds):
            group = [d for d in reclaim if bool(d.perishable) == flag]
            run("reclaim", group, extra={"perishable": flag}, key="reclaim-perishable" if flag else "reclaim")
    return out, options


def _validate(draft: RecordDraft, regime: Regime | None, today: _dt.date) -> dict[str, str]:
    errors: dict[str, str] = {}
    if draft.kind not in KINDS:
        errors["kind"] = f"Tipo de auto desconhecido: {draft.kind}."
    if regime is None:
        errors["regime"] = "Escolha o regime (o ato que rege a fiscalização)."
    if draft.at is None:
        errors["at"] = "Informe o dia e a hora da lavratura."
    elif not isinstance(draft.at, _dt.datetime):
        errors["at"] = "Informe também a hora da lavratura."
    elif draft.at.date() > today:
        errors["at"] = f"A data do auto ({_d(draft.at.date())}) está no futuro."
    elif regime is not None:
        try:
            check_in_force(regime, draft.at.date(), what="O fato")
        except UserError as exc:
            errors["at"] = exc.message
    if draft.notified_at is not None and draft.at is not None and draft.notified_at < draft.at:
        errors["notified_at"] = "A ciência do infrator não pode ser anterior à lavratura."
    if not (draft.place or "").strip():
        errors["place"] = "Informe o local da infração."
    if not (draft.facts or "").strip():
        errors["facts"] = "Descreva o fato que constitui a infração e suas circunstâncias."
    codes = [c.strip() for c in draft.infractions if c and c.strip()]
    if not codes:
        errors["infractions"] = "Escolha ao menos uma infração do catálogo do regime (dispositivo infringido)."
    elif regime is not None:
        unknown = [c for c in codes if c not in regime.ids("infraction")]
        if unknown:
            errors["infractions"] = f"Infração '{unknown[0]}' não existe no regime {regime.id} ({regime.short})."
    if draft.scope and regime is not None and draft.scope not in regime.scope:
        errors["scope"] = f"Matéria '{draft.scope}' não consta do regime {regime.id}."
    if draft.signature not in SIGNATURES:
        errors["signature"] = "Diga se o infrator assinou, recusou-se, não pôde assinar ou estava ausente."
    for i, w in enumerate(draft.witnesses):
        if not (w.name or "").strip():
            errors[f"witnesses[{i}]"] = f"Testemunha {i + 1}: informe o nome."
    if not (draft.inspector or "").strip():
        errors["inspector"] = "Informe o nome do agente fiscal que lavra o auto."
    if draft.kind == "seizure":
        if not draft.items:
            errors["items"] = "Descreva os objetos apreendidos (descrição, quantidade, perecível ou não)."
        for i, item in enumerate(draft.items):
            if not (item.description or "").strip():
                errors[f"items[{i}]"] = f"Objeto {i + 1}: descreva-o."
                continue
            try:
                quantity = parse_typed(item.quantity)
            except (UserError, TypeError, ValueError):
                quantity = None
            if quantity is None or quantity <= 0:
                errors[f"items[{i}]"] = f"Objeto {i + 1}: quantidade inválida ({item.quantity})."
        if not (draft.depot or "").strip():
            errors["depot"] = "Indique o lugar onde os objetos ficarão depositados."
    for photo in draft.photos:
        if not Path(photo).is_file():
            errors["photos"] = f"Foto não encontrada: {photo}"
            break
    if draft.relation and draft.relation not in RELATIONS:
        errors["relation"] = f"Relação desconhecida: {draft.relation}."
    if draft.relation and not draft.refers_to_id:
        errors["relation"] = "Informe o auto a que este se refere."
    if draft.relation == "correction" and not (draft.reason or "").strip():
        errors["reason"] = "Informe o motivo da correção (o que estava errado ou faltava)."
    if draft.relation == "identification" and not (draft.person_id or draft.company_id):
        errors["offender"] = "Escolha a pessoa ou a empresa identificada."
    return errors


def _permit_of(draft: RecordDraft, errors: dict) -> Permit | None:
    if draft.permit_id:
        permit = Permit.get_or_none(Permit.id == draft.permit_id)
        if permit is None:
            errors["permit"] = f"Permissão {draft.permit_id} não encontrada."
        return permit
    if (draft.permit_number or "").strip():
        try:
            return find_permit(draft.permit_number)
        except UserError as exc:
            errors["permit"] = exc.message
    return None


def preview(draft: RecordDraft, *, today: _dt.date, strict: bool = True) -> Preview:
    """The proposal, the deadlines and the charges the record would have — nothing is written.

    Refuses with ``FieldErrors`` what the acts require and is missing; with
    ``strict`` False a fine still to be graded is let through (the proposal to
    adjust).
    """
    try:
        regime = get_regime(draft.regime, on=draft.at.date() if draft.at else None) if draft.regime else None
    except UserError:
        regime = None
    errors = _validate(draft, regime, today)
    permit = _permit_of(draft, errors)
    if permit is not None and not (draft.person_id or draft.company_id or (draft.unknown_name or "").strip()):
        draft = dataclasses.replace(draft, person_id=permit.person_id, company_id=permit.company_id)
    if permit is not None and regime is not None and permit.regime != regime.id:
        errors["permit"] = f"A permissão nº {permit.number} é do regime {permit.regime}, não do {regime.id}."
    offender = _offender_facts(draft, errors)
    if errors:
        raise FieldErrors(errors)
    assert regime is not None and draft.at is not None
    refers = Record.get_or_none(Record.id == draft.refers_to_id) if draft.refers_to_id else None
    if draft.refers_to_id and refers is None:
        raise FieldErrors({"relation": "O auto de referência não existe."})
    if refers is not None and refers.regime != regime.id:
        raise FieldErrors({"relation": f"{refers.reference} é do regime {refers.regime}."})
    codes = [c.strip() for c in draft.infractions if c and c.strip()]
    priors, refs = prior_offences(
        regime, person_id=draft.person_id, company_id=draft.company_id, before=draft.at, exclude=refers
    )
    not_complied = draft.relation == "follows-notice"
    facts = {}
    if not_complied and refers is not None:
        # the inspector who draws up the record after the notice verified that it was not complied with
        facts["not-complied"] = Verification(
            draft.at.date(),
            (draft.inspector or "").strip() or "agente fiscal",
            f"{refers.reference} não atendida no prazo",
        )
    proposal = _propose(regime, codes, draft.at.date(), priors, draft.step, draft.step_reason, draft.adjustments, facts)
    warnings: list[str] = []
    fines = _charged_fines(proposal) if draft.kind != "notice" else []
    pending = [s for s in fines if s.amount is None]
    if pending and strict:
        raise FieldErrors(
            {
                "adjust": f"Sanção nº {pending[0].number}: {pending[0].pending} — ajuste o valor, "
                "com o motivo, antes de lavrar."
            }
        )
    fine_lines = tuple(
        {
            "number": s.number,
            "label": s.label,
            "amount": s.amount,
            "formula": s.formula or "",
            "basis": s.basis,
            "infraction": s.infraction,
        }
        for s in fines
    )
    total = sum((s.amount for s in fines if s.amount is not None), ZERO)
    if draft.kind in ("infraction", "seizure", "interdiction") and not not_complied:
        conditional = [
            s
            for s in proposal.sanctions
            if s.decision == PROPOSED
            and s.condition is not None
            and s.condition_met is None
            and s.condition.fact == "not-complied"
        ]
        if conditional:
            warnings.append(
                "A sanção começa pela notificação: "
                + "; ".join(
                    f"nº {s.number} ({s.label}) só {s.condition.text.lower()} ({s.condition.basis})"
                    for s in conditional
                )
                + " — lavre a notificação, ou este auto como seguimento de uma notificação não atendida."
            )
    waiting = [
        s
        for s in proposal.waiting
        if not (s.condition is not None and s.condition.fact == "not-complied" and s.condition_met is None)
    ]
    if waiting and draft.kind != "notice":
        warnings.append(
            "Aguardam a autoridade: " + "; ".join(f"nº {s.number} ({s.label}) — {s.waiting}" for s in waiting) + "."
        )
    tolerated = [s for s in proposal.sanctions if s.decision == "tolerated"]
    if tolerated and draft.kind != "notice":
        item = next(i for i in proposal.items if i.tolerance)
        warnings.append(
            f"Dentro da tolerância ({item.tolerance[2]}): {item.tolerance[0]}ª de {item.tolerance[1]} "
            f"ocorrências toleradas — sem "
            + " e sem ".join(describe.SANCTIONS.get(s.kind, s.kind) for s in tolerated)
            + "; registre a ocorrência como notificação."
        )
    if total > 0 and not (draft.person_id or draft.company_id):
        warnings.append(
            "Infrator não identificado: a multa é lançada quando ele for identificado (novo auto que se refere a este)."
        )
    rules = regime.penalties.record if regime.penalties is not None else None
    if rules is not None and draft.signature != "signed":
        if rules.witness_when_unsigned is not None and not draft.witnesses:
            warnings.append(
                "Sem a assinatura do autuado, convém indicar uma testemunha "
                f"({regime.cite_item(rules.witness_when_unsigned)})."
            )
        if rules.unsigned_note is not None and not (draft.signature_note or "").strip():
            warnings.append(
                "Sem a assinatura do autuado, declare a circunstância no auto "
                f"({regime.cite_item(rules.unsigned_note)})."
            )
    if rules is not None and rules.inspector_id is not None and not (draft.inspector_id or "").strip():
        warnings.append(
            f"Informe a matrícula do agente fiscal (exigida no auto: {regime.cite_item(rules.inspector_id)})."
        )
    notified = draft.notified_at or draft.at
    deadlines, options = _record_deadlines(
        regime,
        draft.kind,
        proposal,
        at=draft.at,
        notified=notified,
        scope=_matter(regime, draft, codes),
        codes=codes,
        choices=draft.deadline_choices,
        perishable=[bool(i.perishable) for i in draft.items],
        has_fine=total > 0,
        not_complied=not_complied,
    )
    payment = [d for d in deadlines if d["role"] == "payment"]
    needs_due = total > 0 and not payment
    return Preview(
        regime=regime,
        kind=draft.kind,
        proposal=proposal,
        priors=tuple(priors),
        prior_refs=tuple(refs),
        fine_total=total,
        fine_lines=fine_lines,
        deadlines=tuple(deadlines),
        options=options,
        needs_payment_due=needs_due,
        warnings=tuple(warnings),
        offender=offender,
    )


def explain(pv: Preview) -> list[tuple[int, str]]:
    """The proposal step by step in pt-BR: ``(indent, text)`` lines with each step's article."""
    regime, proposal = pv.regime, pv.proposal
    out: list[tuple[int, str]] = []
    if pv.prior_refs:
        out.append((0, "Ocorrências anteriores do infrator neste regime: " + "; ".join(pv.prior_refs) + "."))
    else:
        out.append((0, "Sem ocorrências anteriores do infrator neste regime."))
    for note in proposal.notes:
        out.append((0, note))
    for item in proposal.items:
        out.append((0, f"Infração: {item.label} — {item.article}"))
        out.append((1, f"Penalidade: {item.basis}"))
        if item.ladder:
            out.append((1, f"Gradação: {item.ladder_label} — degrau {item.step}"))
        for detail in item.details:
            out.append((1, detail))
        for s in item.sanctions:
            out.extend((indent + 1, text) for indent, text in sanction_lines(s))
    for a in proposal.adjustments:
        out.append(
            (
                0,
                f"Decisão sobre a sanção nº {a.number}: {a.before} → {a.after} — motivo: {a.reason}"
                + (f" ({a.by})" if a.by else ""),
            )
        )
    if pv.fine_total > 0:
        out.append((0, f"Multa a lançar: {format_brl(pv.fine_total)}"))
    if proposal.total_proposed > 0:
        out.append(
            (0, f"Multa proposta, à espera da decisão da autoridade ou do fato: {format_brl(proposal.total_proposed)}")
        )
    for d in pv.deadlines:
        out.append((0, f"Prazo — {d['label']}: {d['due_text']} ({d['basis']})"))
    return out


# --------------------------------------------------------------------------- issuing


def _event(record: Record, kind: str, *, by: str, on: _dt.date, text: str = "", data: Mapping | None = None) -> None:
    RecordEvent.create(
        record=record.id,
        on=on,
        by=by,
        kind=kind,
        text=text,
        data=json.dumps(dict(data), ensure_ascii=False, default=str) if data else "",
    )


def _claim(record: Record, **changes) -> None:
    stale = f"O {record.reference} foi alterado em outra mesa; reabra-o para ver a situação atual."
    update_versioned(record, stale, **changes)
    record.version += 1
    for key, value in changes.items():
        setattr(record, key, value)


def _by(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(by)


def _fine_label(record: Record) -> str:
    return f"Multa — {record.reference} ({record.offender_name})"


def _create_fine_charge(
    record: Record, pv: Preview, *, by: str, today: _dt.date, due: _dt.date | None, permit: Permit | None
) -> Charge | None:
    if pv.fine_total <= 0 or not record.identified:
        return None
    payment = pv.payment_deadline
    if payment is not None:
        due = _dt.date.fromisoformat(payment["due_date"])
    if due is None:
        raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
    formula = (
        " + ".join(f"{line['formula']}" for line in pv.fine_lines)
        if len(pv.fine_lines) > 1
        else pv.fine_lines[0]["formula"]
    )
    if len(pv.fine_lines) > 1:
        formula += f" = {format_brl(pv.fine_total)}"
    basis = "; ".join(dict.fromkeys(line["basis"] for line in pv.fine_lines))
    if payment is not None:
        basis += f"; vencimento: {payment['basis']}"
    charge = create_charge(
        kind="fine",
        regime=record.regime,
        label=_fine_label(record),
        amount=pv.fine_total,
        due_on=due,
        basis=basis,
        formula=formula,
        by=by,
        permit=permit
        if permit is not None and permit.person_id == record.person_id and permit.company_id == record.company_id
        else None,
        person_id=record.person_id,
        company_id=record.company_id,
        source=record.reference,
        today=today,
    )
    RecordCharge.create(record=record.id, charge=charge.id, role="fine")
    return charge


def issue_record(draft: RecordDraft, *, by: str, today: _dt.date) -> Record:
    """Number and write the record, its photos and items, and its fine's charge — one transaction."""
    require("enforcement.record")
    by = _by(by)
    with db.atomic():
        pv = preview(draft, today=today)
        regime = pv.regime
        errors: dict[str, str] = {}
        permit = _permit_of(draft, errors)
        if permit is not None and not (draft.person_id or draft.company_id or (draft.unknown_name or "").strip()):
            draft = dataclasses.replace(draft, person_id=permit.person_id, company_id=permit.company_id)
        refers = Record.get_by_id(draft.refers_to_id) if draft.refers_to_id else None
        if refers is not None and draft.relation in ("correction", "identification"):
            if refers.status != "issued":
                raise UserError(f"O {refers.reference} está {refers.status_label}: não pode ser corrigido de novo.")
            if refers.kind != draft.kind:
                raise UserError(f"A correção do {refers.reference} é um auto do mesmo tipo ({refers.kind_label}).")
        if (
            pv.fine_total > 0
            and (draft.person_id or draft.company_id)
            and pv.payment_deadline is None
            and draft.payment_due is None
        ):
            raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
        year = today.year
        seq = next_number(f"record-{draft.kind}-{year}")
        number = f"{year}/{seq:05d}"
        name, document, address, description = pv.offender
        codes = [c.strip() for c in draft.infractions if c and c.strip()]
        notified = draft.notified_at or draft.at
        proposal = pv.proposal.to_dict()
        proposal["prior_refs"] = list(pv.prior_refs)
        proposal["fine_lines"] = [dict(line, amount=str(line["amount"])) for line in pv.fine_lines]
        proposal["not_complied"] = draft.relation == "follows-notice"  # the warning's conditions have come true
        record = Record.create(
            number=number,
            kind=draft.kind,
            year=year,
            seq=seq,
            regime=regime.id,
            scope=_matter(regime, draft, codes),
            act_sha256=regime.sha256 or "",
            person=draft.person_id,
            company=draft.company_id,
            offender_name=name,
            offender_document=document,
            offender_address=address,
            offender_description=description,
            permit=permit.id if permit is not None else None,
            place=draft.place.strip(),
            at=draft.at,
            notified_at=notified,
            facts=draft.facts.strip(),
            infractions=json.dumps(codes),
            witnesses=json.dumps(
                [{"name": w.name.strip(), "document": (w.document or "").strip()} for w in draft.witnesses],
                ensure_ascii=False,
            ),
            signature=draft.signature,
            signature_note=(draft.signature_note or "").strip(),
            inspector=draft.inspector.strip(),
            inspector_id=(draft.inspector_id or "").strip(),
            depot=(draft.depot or "").strip(),
            proposal=json.dumps(proposal, ensure_ascii=False),
            adjustments=json.dumps([a.to_dict() for a in draft.adjustments], ensure_ascii=False),
            step=draft.step,
            step_reason=(draft.step_reason or "").strip(),
            fine_total=pv.fine_total,
            deadlines=json.dumps(list(pv.deadlines), ensure_ascii=False, default=str),
            refers_to=refers.id if refers is not None else None,
            relation=draft.relation or "",
            reason=(draft.reason or "").strip(),
            search_text=search_key(f"{name} {draft.place} {number} {description}"),
            issued_on=today,
            issued_at=clock.now()
            if clock.now().date() == today
            else max(notified, _dt.datetime.combine(today, _dt.time(0))),
            issued_by=by,
        )
        for photo in draft.photos:
            kept = keep_file(photo, "records")
            RecordFile.create(
                record=record.id, path=kept.path, sha256=kept.sha256, original_name=kept.original_name, size=kept.size
            )
        for item in draft.items:
            SeizedItem.create(
                record=record.id,
                description=item.description.strip(),
                quantity=to_decimal(str(item.quantity)),
                unit=(item.unit or "un").strip() or "un",
                perishable=bool(item.perishable),
            )
        _event(record, "issued", by=by, on=today, text=f"{record.kind_label} lavrado por {record.inspector}")
        if refers is not None and draft.relation in ("correction", "identification"):
            _carry_over(refers, record, pv, by=by, today=today, permit=permit, due=draft.payment_due)
        else:
            _create_fine_charge(record, pv, by=by, today=today, due=draft.payment_due, permit=permit)
        if refers is not None:
            _event(
                refers,
                "followed",
                by=by,
                on=today,
                text=f"{RELATIONS.get(draft.relation, draft.relation)} → {record.reference}",
                data={"record": record.id},
            )
        if draft.apply_to_permit:
            apply_to_permit(record, by=by, today=today)
    return Record.get_by_id(record.id)


def _carry_over(
    old: Record, new: Record, pv: Preview, *, by: str, today: _dt.date, permit: Permit | None, due: _dt.date | None
) -> None:
    """A correction or identification replaces the old record: its files go along, its open fine is charged again
    with the restarted deadline (LC 324/2025, art. 32, § 4º), a fine already paid stays paid."""
    what = "corrigido" if new.relation == "correction" else "identificado o infrator"
    _claim(old, status="corrected")
    _event(
        old, "corrected", by=by, on=today, text=f"{what} pelo {new.reference}: {new.reason}", data={"record": new.id}
    )
    for f in RecordFile.select().where(RecordFile.record == old.id):
        RecordFile.create(
            record=new.id, path=f.path, sha256=f.sha256, original_name=f.original_name, size=f.size, kind=f.kind
        )
    kept_paid = False
    for link in RecordCharge.select().where((RecordCharge.record == old.id)):
        charge = Charge.get_by_id(link.charge_id)
        if charge.status == "cancelled":
            continue
        if charge.paid_total > 0 or charge.status == "paid":
            RecordCharge.create(record=new.id, charge=charge.id, role=link.role, until=link.until)
            kept_paid = kept_paid or link.role == "fine"
            continue
        cancel_charge(
            charge,
            reason=f"Auto {what} pelo {new.reference}: cobrança substituída, com o prazo "
            "restabelecido a partir da nova ciência do infrator",
            by=by,
        )
        if link.role == "depot":
            RecordCharge.create(record=new.id, charge=charge.id, role="cancelled-depot", until=link.until)
    if kept_paid:
        paid = sum(
            (
                Charge.get_by_id(link.charge_id).amount
                for link in RecordCharge.select().where((RecordCharge.record == new.id) & (RecordCharge.role == "fine"))
            ),
            ZERO,
        )
        if pv.fine_total > paid:
            raise UserError(
                f"A multa do {old.reference} já foi paga ({format_brl(paid)}); a correção para "
                f"{format_brl(pv.fine_total)} precisa de cobrança complementar lançada à parte."
            )
        return
    _create_fine_charge(new, pv, by=by, today=today, due=due, permit=permit)


def draft_from(record: Record, **changes) -> RecordDraft:
    """A draft with what ``record`` says (for a correction, an identification or a follow-up), and ``changes``."""
    return _draft_from(record, **changes)


def followers_of(record: Record) -> list[Record]:
    """Records that refer to ``record`` (its correction, the infraction record after a notice…)."""
    return list(Record.select().where(Record.refers_to == record.id).order_by(Record.id))


def default_final(contest: Contest) -> bool:
    """Whether a decision on ``contest`` closes the instance unless the authority says otherwise: an appeal's
    does; a defence's does where the act gives no appeal from the decision."""
    if contest.kind == "appeal":
        return True
    regime = get_regime(Record.get_by_id(contest.record_id).regime)
    return not any(d.role == "appeal" and d.from_ in _DECISION_EVENTS for d in regime.deadlines)


def _draft_from(record: Record, **changes) -> RecordDraft:
    items = [ItemInput(i.description, str(i.quantity), i.unit, i.perishable) for i in items_of(record)]
    base = RecordDraft(
        kind=record.kind,
        regime=record.regime,
        at=record.at,
        place=record.place,
        facts=record.facts,
        infractions=record.codes,
        person_id=record.person_id,
        company_id=record.company_id,
        unknown_name="" if record.identified else record.offender_name,
        unknown_description=record.offender_description,
        offender_document="" if record.identified else record.offender_document,
        offender_address="" if record.identified else record.offender_address,
        permit_id=record.permit_id,
        scope=record.scope,
        witnesses=[Witness(w["name"], w.get("document", "")) for w in record.witness_data],
        signature=record.signature,
        signature_note=record.signature_note,
        inspector=record.inspector,
        inspector_id=record.inspector_id,
        items=items,
        depot=record.depot,
        adjustments=[AdjustInput.from_dict(a) for a in json.loads(record.adjustments or "[]")],
        step=record.step,
        step_reason=record.step_reason,
    )
    return dataclasses.replace(base, **changes)


def correct_record(
    old: Record, *, reason: str, by: str, today: _dt.date, notified_at: _dt.datetime | None = None, **changes
) -> Record:
    """A new record that corrects ``old`` (which is not edited); the deadlines start again from ``notified_at``.

    ``changes`` are :class:`RecordDraft` fields that differ from the old record
    (facts, infractions, place…). LC 324/2025, art. 32, § 4º: corrections are
    communicated to the offender and the deadline to pay or appeal restarts.
    """
    reason = (reason or "").strip()
    if not reason:
        raise FieldErrors({"reason": "Informe o motivo da correção (o que estava errado ou faltava)."})
    notified = notified_at or _dt.datetime.combine(today, _dt.datetime.now().time().replace(microsecond=0))
    if notified < old.at:
        notified = old.at
    draft = _draft_from(old, refers_to_id=old.id, relation="correction", reason=reason, notified_at=notified, **changes)
    return issue_record(draft, by=by, today=today)


def identify_offender(
    old: Record,
    *,
    by: str,
    today: _dt.date,
    person_id: int | None = None,
    company_id: int | None = None,
    reason: str = "",
    notified_at: _dt.datetime | None = None,
    **changes,
) -> Record:
    """The offender recorded without identification is identified: a new record refers to the old one."""
    if old.identified:
        raise UserError(f"O infrator do {old.reference} já está identificado ({old.offender_name}).")
    if not person_id and not company_id:
        raise FieldErrors({"offender": "Escolha a pessoa ou a empresa identificada."})
    reason = (reason or "").strip() or "identificação do infrator"
    notified = notified_at or _dt.datetime.combine(today, _dt.datetime.now().time().replace(microsecond=0))
    if notified < old.at:
        notified = old.at
    draft = _draft_from(
        old,
        person_id=person_id,
        company_id=company_id,
        unknown_name="",
        offender_document="",
        offender_address="",
        refers_to_id=old.id,
        relation="identification",
        reason=reason,
        notified_at=notified,
        **changes,
    )
    return issue_record(draft, by=by, today=today)


# --------------------------------------------------------------------------- reading


def get_record(record_id: int) -> Record:
    record = Record.get_or_none(Record.id == record_id)
    if record is None:
        raise UserError(f"Auto {record_id} não encontrado.")
    return record


def files_of(record: Record) -> list[RecordFile]:
    return list(RecordFile.select().where(RecordFile.record == record.id).order_by(RecordFile.id))


def items_of(record: Record) -> list[SeizedItem]:
    return list(SeizedItem.select().where(SeizedItem.record == record.id).order_by(SeizedItem.id))


def contests_of(record: Record) -> list[Contest]:
    return list(Contest.select().where(Contest.record == record.id).order_by(Contest.filed_on, Contest.id))


def events_of(record: Record) -> list[RecordEvent]:
    return list(RecordEvent.select().where(RecordEvent.record == record.id).order_by(RecordEvent.at, RecordEvent.id))


def charges_of(record: Record, role: str | None = None) -> list[Charge]:
    query = (
        Charge.select()
        .join(RecordCharge, on=(RecordCharge.charge == Charge.id))
        .where(RecordCharge.record == record.id)
    )
    if role:
        query = query.where(RecordCharge.role == role)
    return list(query.order_by(Charge.id))


def current_fine(record: Record) -> Decimal:
    """The fine as it stands after the decisions: charged at issue, reduced or annulled by a decision."""
    if record.status == "annulled":
        return ZERO
    amount = record.fine_total + _fines_decided(record)
    for c in contests_of(record):
        if c.outcome == "annulled":
            return ZERO
        if c.outcome == "partly" and c.new_amount is not None:
            amount = c.new_amount
    return amount


def fine_status(record: Record) -> str:
    fines = [c for c in charges_of(record, "fine") if c.status != "cancelled"]
    if not fines:
        if record.fine_total > 0 and not record.identified:
            return "a lançar (infrator não identificado)"
        return "—"
    if all(c.status == "paid" for c in fines):
        return "paga"
    return "em aberto"


def situation(record: Record) -> str:
    """The record's state in words: corrected by…, annulled, under defence or appeal, final decision…"""
    if record.status == "corrected":
        follower = (
            Record.select()
            .where((Record.refers_to == record.id) & Record.relation.in_(("correction", "identification")))
            .first()
        )
        return f"corrigido pelo {follower.reference}" if follower else "corrigido"
    if record.status == "annulled":
        return "anulado"
    contests = contests_of(record)
    pending = [c for c in contests if c.pending]
    if pending:
        c = pending[-1]
        return f"{c.kind_label.lower()} em julgamento" + (" (efeito suspensivo)" if c.suspensive else "")
    paid = " — multa paga" if fine_status(record) == "paga" else ""
    final = [c for c in contests if c.final]
    if final:
        return f"decisão final: {final[-1].outcome_label}{paid}"
    if contests:
        return f"{contests[-1].kind_label.lower()} julgada: {contests[-1].outcome_label}{paid}"
    return f"lavrado{paid}"


@dataclass(frozen=True)
class RecordRow:
    id: int
    number: str
    reference: str
    kind: str
    kind_label: str
    regime: str
    at: _dt.datetime
    offender: str
    identified: bool
    place: str
    infractions: str
    fine: Decimal
    status: str
    situation: str
    inspector: str


def record_rows(
    *, text: str = "", kind: str | None = None, status: str | None = None, regime: str | None = None, limit: int = 1000
) -> list[RecordRow]:
    """Records, newest first, filtered by kind, status (issued/corrected/annulled, ``contested``: a defence or
    appeal pending) and words of the number, offender or place."""
    query = Record.select()
    if kind:
        query = query.where(Record.kind == kind)
    if status == "contested":
        pending = Contest.select(Contest.record).where(Contest.outcome == "")
        query = query.where(Record.id.in_(pending))
    elif status:
        query = query.where(Record.status == status)
    if regime:
        query = query.where(Record.regime == regime)
    for word in search_key(text or "").split():
        query = query.where(Record.search_text.contains(word) | Record.number.contains(word))
    rows = []
    for r in query.order_by(Record.at.desc(), Record.id.desc()).limit(limit):
        rows.append(
            RecordRow(
                id=r.id,
                number=r.number,
                reference=r.reference,
                kind=r.kind,
                kind_label=KIND_SHORT.get(r.kind, r.kind),
                regime=r.regime,
                at=r.at,
                offender=r.offender_name + ("" if r.identified else " (não identificado)"),
                identified=r.identified,
                place=r.place,
                infractions=", ".join(r.codes),
                fine=current_fine(r),
                status=r.status,
                situation=situation(r),
                inspector=r.inspector,
            )
        )
    return rows


@dataclass(frozen=True)
class DeadlineRow:
    role: str
    role_label: str
    label: str
    start: str
    due: str
    due_date: _dt.date
    due_text: str
    formula: str
    basis: str
    state: str
    overdue: bool


def _row(d: Mapping, today: _dt.date, state: str | None = None) -> DeadlineRow:
    due_date = _dt.date.fromisoformat(d["due_date"])
    if state is None:
        state = (
            "encerrado"
            if due_date < today
            else ("vence hoje" if due_date == today else f"faltam {describe.days((due_date - today).days)}")
        )
    return DeadlineRow(
        role=d.get("role", ""),
        role_label=d.get("role_label", ROLES.get(d.get("role", ""), "")),
        label=d["label"],
        start=d["start"],
        due=d["due"],
        due_date=due_date,
        due_text=d["due_text"],
        formula=d["formula"],
        basis=d["basis"],
        state=state,
        overdue=due_date < today,
    )


def deadline_rows(record: Record, today: _dt.date) -> list[DeadlineRow]:
    """The record's deadlines as issued, then those the defence and appeal started, each with its state."""
    rows = []
    contests = contests_of(record)
    for d in record.deadline_data:
        state = None
        if d.get("role") == "defence" and any(c.kind == "defence" for c in contests):
            state = "defesa apresentada"
        elif d.get("role") == "appeal" and any(c.kind == "appeal" for c in contests):
            state = "recurso interposto"
        elif d.get("role") == "payment" and fine_status(record) == "paga":
            state = "multa paga"
        if record.status == "corrected":
            state = "substituído (auto corrigido)"
        rows.append(_row(d, today, state))
    for c in contests:
        if c.decision_deadline:
            d = json.loads(c.decision_deadline)
            rows.append(_row(d, today, "julgado" if c.outcome else None))
        for d in json.loads(c.after or "[]"):
            state = None
            if d.get("role") == "appeal" and any(
                x.kind == "appeal" and x.filed_on >= c.filed_on for x in contests if x.id != c.id
            ):
                state = "recurso interposto"
            rows.append(_row(d, today, state))
    return rows


# --------------------------------------------------------------------------- defence and appeal


def _instance_closed(record: Record) -> Contest | None:
    return next((c for c in contests_of(record) if c.final), None)


def _filing_deadlines(record: Record, kind: str) -> list[dict]:
    """The deadlines to file a defence (as issued) or an appeal (as issued, or from the defence's decision)."""
    role = "defence" if kind == "defence" else "appeal"
    found = [d for d in record.deadline_data if d.get("role") == role]
    if kind == "appeal":
        for c in contests_of(record):
            found.extend(d for d in json.loads(c.after or "[]") if d.get("role") == "appeal")
    return found


def file_contest(
    record: Record,
    *,
    kind: str,
    filed_on: _dt.date,
    by: str,
    grounds: str = "",
    suspensive: bool = False,
    suspensive_note: str = "",
    instance: str = "",
    today: _dt.date | None = None,
) -> Contest:
    """File a defence or an appeal; a late one is kept and marked (the authority decides on it)."""
    require("enforcement.record")
    today = today or filed_on
    by = _by(by)
    errors: dict[str, str] = {}
    if kind not in CONTEST_KINDS:
        errors["kind"] = f"Tipo desconhecido: {kind} (defesa ou recurso)."
    if filed_on is None:
        errors["filed_on"] = "Informe a data do protocolo."
    elif filed_on > today:
        errors["filed_on"] = f"A data do protocolo ({_d(filed_on)}) está no futuro."
    elif filed_on < record.at.date():
        errors["filed_on"] = "A data do protocolo é anterior ao auto."
    if errors:
        raise FieldErrors(errors)
    if record.status != "issued":
        raise UserError(
            f"O {record.reference} está {record.status_label}: a defesa é contra o auto que o substituiu."
            if record.status == "corrected"
            else f"O {record.reference} está {record.status_label}."
        )
    if record.kind == "notice":
        raise UserError("A notificação não impõe pena: a defesa é contra o auto de infração.")
    closed = _instance_closed(record)
    if closed is not None:
        raise UserError(
            f"A decisão de {_d(closed.decided_on)} encerrou a instância administrativa: não cabe nova "
            f"{CONTEST_KINDS[kind].lower()}."
        )
    contests = contests_of(record)
    if any(c.pending for c in contests):
        raise UserError(f"Já há {next(c for c in contests if c.pending).kind_label.lower()} aguardando julgamento.")
    if kind == "defence" and any(c.kind == "defence" for c in contests):
        raise UserError("A defesa já foi apresentada e julgada; da decisão cabe recurso.")
    regime = get_regime(record.regime, on=record.at.date())
    has_defence_role = any(d.role == "defence" for d in regime.deadlines)
    if kind == "appeal" and has_defence_role and not any(c.kind == "defence" and c.outcome for c in contests):
        raise UserError("Primeiro a defesa e seu julgamento; da decisão cabe recurso.")
    deadlines = _filing_deadlines(record, kind)
    deadline = max(deadlines, key=lambda d: d["due_date"]) if deadlines else None
    on_time = deadline is None or filed_on <= _dt.date.fromisoformat(deadline["due_date"])
    decision = None
    role = "decision" if kind == "defence" else "appeal-decision"
    decision_rules = [d for d in regime.deadlines if d.role == role]
    if decision_rules:
        rule = decision_rules[0]
        decision = _deadline_dict(compute_deadline(regime, rule.id, filed_on), role)
    with db.atomic():
        contest = Contest.create(
            record=record.id,
            kind=kind,
            instance=(instance or "").strip() or INSTANCES[kind],
            filed_on=filed_on,
            filed_by=by,
            grounds=(grounds or "").strip(),
            on_time=on_time,
            deadline=json.dumps(deadline, ensure_ascii=False) if deadline else "",
            suspensive=bool(suspensive),
            suspensive_note=(suspensive_note or "").strip(),
            decision_deadline=json.dumps(decision, ensure_ascii=False) if decision else "",
        )
        late = "" if on_time else f" — fora do prazo ({deadline['due_text']})"
        _event(
            record,
            f"{kind}-filed",
            by=by,
            on=today,
            text=f"{CONTEST_KINDS[kind]} protocolada em {_d(filed_on)}{late}"
            + (" com efeito suspensivo" if suspensive else ""),
        )
    return contest


def decide_contest(
    contest: Contest,
    *,
    outcome: str,
    decided_on: _dt.date,
    by: str,
    reason: str,
    new_amount: Any = None,
    final: bool | None = None,
    notified_on: _dt.date | None = None,
    today: _dt.date | None = None,
) -> Contest:
    """Record the decision; it updates the fine's charge and counts the deadlines that run from it.

    ``upheld``: the fine stands (LC 324/2025, art. 40: paid within 30 days of
    the decision where the act says so). ``partly``: the fine becomes
    ``new_amount`` — the open charge is cancelled with the reason and a new one
    is charged. ``annulled``: the record is annulled and its open charges are
    cancelled. ``final`` closes the administrative instance (default: an
    appeal's decision, or a defence where the act gives no appeal from it).
    """
    require("enforcement.decide")
    today = today or decided_on
    by = _by(by)
    record = Record.get_by_id(contest.record_id)
    errors: dict[str, str] = {}
    if outcome not in OUTCOMES:
        errors["outcome"] = "Escolha a decisão: auto mantido, procedente em parte ou anulado."
    if not (reason or "").strip():
        errors["reason"] = "A decisão deve ser fundamentada por escrito (informe os fundamentos)."
    if decided_on is None:
        errors["decided_on"] = "Informe a data da decisão."
    elif decided_on < contest.filed_on:
        errors["decided_on"] = "A decisão não pode ser anterior ao protocolo."
    elif decided_on > today:
        errors["decided_on"] = f"A data da decisão ({_d(decided_on)}) está no futuro."
    amount = None
    fine_now = current_fine(record)
    if outcome == "partly" and new_amount not in (None, ""):
        try:
            amount = round_cents(parse_typed(new_amount, what="Novo valor"))
        except UserError as exc:
            errors["new_amount"] = exc.message
        except (TypeError, ValueError):
            errors["new_amount"] = f"Valor inválido: {new_amount}."
        else:
            if amount <= 0 or (fine_now > 0 and amount >= fine_now):
                errors["new_amount"] = (
                    f"Na procedência em parte a multa fica entre R$ 0,01 e menos que "
                    f"{format_brl(fine_now)}; para anular, escolha auto anulado."
                )
    elif outcome == "partly" and fine_now > 0:
        errors["new_amount"] = f"Informe o novo valor da multa (hoje {format_brl(fine_now)})."
    if errors:
        raise FieldErrors(errors)
    if not contest.pending:
        raise UserError(f"Esta {contest.kind_label.lower()} já foi julgada em {_d(contest.decided_on)}.")
    regime = get_regime(record.regime, on=record.at.date())
    if final is None:
        final = default_final(contest) or outcome == "annulled"
    notified = notified_on or decided_on
    after: list[dict] = []
    if not final:
        candidates = [d for d in regime.deadlines if d.role == "appeal" and d.from_ in _DECISION_EVENTS]
        for d in _pick(candidates, record.scope):
            after.append(_deadline_dict(compute_deadline(regime, d.id, notified), "appeal"))
    if outcome in ("upheld", "partly") and fine_now > 0:
        candidates = [d for d in regime.deadlines if d.role == "payment-after-decision"]
        for d in _pick(candidates, record.scope):
            after.append(_deadline_dict(compute_deadline(regime, d.id, notified), "payment-after-decision"))
    with db.atomic():
        update_versioned(
            contest,
            "Esta defesa/recurso foi alterada em outra mesa; reabra o auto.",
            outcome=outcome,
            decided_on=decided_on,
            decided_by=by,
            decision_reason=reason.strip(),
            new_amount=amount,
            notified_on=notified,
            final=bool(final),
            after=json.dumps(after, ensure_ascii=False),
        )
        contest = Contest.get_by_id(contest.id)
        words = f"{contest.kind_label} julgada em {_d(decided_on)}: {OUTCOMES[outcome]} — {reason.strip()}"
        if outcome == "annulled":
            for charge in charges_of(record):
                if charge.status == "open" and charge.paid_total == 0:
                    cancel_charge(
                        charge,
                        reason=f"{record.reference} anulado pela decisão de {_d(decided_on)} "
                        f"({contest.instance}): {reason.strip()}",
                        by=by,
                    )
            _claim(record, status="annulled")
        elif outcome == "partly" and amount is not None:
            _reduce_fine(record, contest, amount, after, by=by, today=today)
            words += f" — multa de {format_brl(fine_now)} para {format_brl(amount)}"
        _event(record, f"{contest.kind}-decided", by=by, on=today, text=words, data={"contest": contest.id})
        if final:
            _event(
                record,
                "instance-closed",
                by=by,
                on=today,
                text=f"Decisão final de {_d(decided_on)}: encerrada a instância administrativa",
            )
    return contest


def _reduce_fine(
    record: Record, contest: Contest, amount: Decimal, after: list[dict], *, by: str, today: _dt.date
) -> None:
    open_fines = [c for c in charges_of(record, "fine") if c.status != "cancelled"]
    due = None
    for d in after:
        if d["role"] == "payment-after-decision":
            due = _dt.date.fromisoformat(d["due_date"])
    for charge in open_fines:
        if charge.paid_total > 0:
            raise UserError(
                f"A multa (cobrança nº {charge.number}) já tem pagamento de {format_brl(charge.paid_total)}: "
                "registre a decisão depois de tratar a devolução na Cobrança."
            )
        due = due or charge.due_on
        cancel_charge(
            charge,
            reason=f"Multa reduzida para {format_brl(amount)} pela decisão de "
            f"{_d(contest.decided_on)} ({contest.instance}): {contest.decision_reason}",
            by=by,
        )
    if not record.identified:
        return
    basis = (
        open_fines[0].basis
        if open_fines
        else "; ".join(line.get("basis", "") for line in record.proposal_data.get("fine_lines", []))
    )
    basis = f"{basis}; decisão de {_d(contest.decided_on)} ({contest.instance})"
    charge = create_charge(
        kind="fine",
        regime=record.regime,
        label=_fine_label(record) + " — reduzida",
        amount=amount,
        due_on=due or today,
        basis=basis,
        formula=f"{format_brl(amount)} (decisão de {_d(contest.decided_on)}: procedente em parte)",
        by=by,
        person_id=record.person_id,
        company_id=record.company_id,
        permit=Permit.get_by_id(record.permit_id) if record.permit_id else None,
        source=record.reference,
        today=today,
    )
    RecordCharge.create(record=record.id, charge=charge.id, role="fine")


# --------------------------------------------------------------------------- the permit


# --------------------------------------------------------------------------- decisions after the record


def decisions_of(record: Record) -> list[RecordEvent]:
    """The authority's decisions on the record's sanctions after it was issued, in order."""
    return list(
        RecordEvent.select()
        .where((RecordEvent.record == record.id) & (RecordEvent.kind == "sanction-decision"))
        .order_by(RecordEvent.id)
    )


def current_proposal(record: Record) -> Proposal:
    """The record's proposal as issued, with every later decision of the authority (facts, imposed, omitted)."""
    proposal = Proposal.from_dict(record.proposal_data)
    for event in decisions_of(record):
        proposal = _apply_adjustment(proposal, AdjustInput.from_dict(json.loads(event.data)["adjustment"]))
    return proposal


def current_sanctions(record: Record) -> list[dict]:
    """Every sanction of the record as it stands now (``ProposedSanction.to_dict``), decisions included."""
    return [s.to_dict() for s in current_proposal(record).sanctions]


def decide_sanctions(
    record: Record,
    item: AdjustInput,
    *,
    by: str,
    today: _dt.date,
    notified_on: _dt.date | None = None,
    payment_due: _dt.date | None = None,
) -> RecordEvent:
    """The authority decides on a sanction the record proposed: records the fact a condition waits for (the day
    it was verified, who verified it), imposes or omits what the act leaves to it, grades within the limits —
    always with the written reason. The record is not edited: the decision is a new event on it, and a fine
    imposed now becomes a charge, due at the act's payment deadline counted from ``notified_on`` (the
    offender's notification of the decision; default ``today``) or on ``payment_due`` where the act sets none.
    """
    only_facts = bool(item.facts) and not (item.apply or item.omit or item.amounts or item.days)
    require("enforcement.record" if only_facts else "enforcement.decide")
    by = _by(by)
    if record.kind == "notice":
        raise UserError("A notificação não impõe pena: a decisão é no auto de infração lavrado depois dela.")
    if record.status != "issued":
        raise UserError(
            f"O {record.reference} está {record.status_label}: decida no auto que o substituiu."
            if record.status == "corrected"
            else f"O {record.reference} está {record.status_label}."
        )
    for number, fact in item.facts.items():
        if fact.on > today:
            raise FieldErrors(
                {"fact": f"Fato da sanção nº {number}: a data em que foi verificado ({_d(fact.on)}) está no futuro."}
            )
    regime = get_regime(record.regime, on=record.at.date())
    with db.atomic():
        record = Record.get_by_id(record.id)
        before = current_proposal(record)
        after = _apply_adjustment(before, dataclasses.replace(item, by=item.by or by))
        was = {s.number: s for s in before.sanctions}
        new_fines = [s for s in after.sanctions if s.kind == "fine" and s.applied and not was[s.number].applied]
        pending = [s for s in new_fines if s.amount is None]
        if pending:
            raise FieldErrors(
                {"amount": f"Sanção nº {pending[0].number}: {pending[0].pending} — gradue o valor na mesma decisão."}
            )
        added = sum((s.amount for s in new_fines), ZERO)
        charge = None
        if added > 0 and record.identified:
            notified = notified_on or today
            payment = [d for d in _role_candidates(regime, "payment", {"fine"}) if d.from_ in _START_EVENTS]
            picked = _pick(payment, record.scope)
            due = payment_due
            basis = "; ".join(dict.fromkeys(s.basis for s in new_fines))
            if picked:
                counted = compute_deadline(regime, picked[0].id, notified)
                due = counted.due_date
                basis += f"; vencimento: {counted.basis}"
            if due is None:
                raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
            formula = " + ".join(s.formula or format_brl(s.amount) for s in new_fines)
            if len(new_fines) > 1:
                formula += f" = {format_brl(added)}"
            permit = Permit.get_or_none(Permit.id == record.permit_id) if record.permit_id else None
            charge = create_charge(
                kind="fine",
                regime=record.regime,
                label=_fine_label(record),
                amount=added,
                due_on=due,
                basis=basis,
                formula=formula,
                by=by,
                permit=permit
                if permit is not None
                and permit.person_id == record.person_id
                and permit.company_id == record.company_id
                else None,
                person_id=record.person_id,
                company_id=record.company_id,
                source=record.reference,
                today=today,
            )
            RecordCharge.create(record=record.id, charge=charge.id, role="fine")
        _claim(record)
        words = "; ".join(
            f"nº {a.number}: {a.before} → {a.after}" for a in after.adjustments[len(before.adjustments) :]
        )
        event = RecordEvent.create(
            record=record.id,
            on=today,
            by=by,
            kind="sanction-decision",
            text=f"Decisão sobre as sanções — {words} — motivo: {item.reason.strip()}"
            + (f" — multa de {format_brl(added)} lançada" if charge is not None else ""),
            data=json.dumps(
                {
                    "adjustment": dataclasses.replace(item, by=item.by or by).to_dict(),
                    "fine": str(added),
                    "charge": charge.id if charge is not None else None,
                },
                ensure_ascii=False,
            ),
        )
    return event


def _fines_decided(record: Record) -> Decimal:
    """The fines the authority imposed after the record was issued."""
    return sum((Decimal(json.loads(e.data).get("fine") or "0") for e in decisions_of(record)), ZERO)


def charged_fines_total(record: Record) -> Decimal:
    """The fines charged for the record: at issue and by the authority's later decisions."""
    return record.fine_total + _fines_decided(record)


def apply_to_permit(record: Record, *, by: str, today: _dt.date) -> Permit | None:
    """Suspend or revoke the record's permit as the sanction says (through ``models.permits``)."""
    from models.permits import revoke, suspend

    require("permits.sanction")
    by = _by(by)
    if not record.permit_id:
        raise UserError(f"O {record.reference} não indica permissão.")
    if record.status != "issued":
        raise UserError(f"O {record.reference} está {record.status_label}.")
    done = (
        RecordEvent.select()
        .where((RecordEvent.record == record.id) & RecordEvent.kind.in_(("permit-suspended", "permit-revoked")))
        .first()
    )
    if done is not None:
        raise UserError(f"A sanção do {record.reference} já foi aplicada à permissão em {_d(done.on)}.")
    current = current_sanctions(record)
    sanctions = [s for s in current if s["applied"] and s["kind"] in ("suspension", "revocation")]
    if not sanctions:
        waiting = [s for s in current if s["decision"] == PROPOSED and s["kind"] in ("suspension", "revocation")]
        if waiting:
            raise UserError(
                f"A sanção nº {waiting[0]['number']} ({waiting[0]['label']}) do {record.reference} "
                f"ainda {waiting[0]['waiting']}."
            )
        raise UserError(f"O {record.reference} não impõe suspensão nem cassação da permissão.")
    pending = [s for s in sanctions if s.get("pending")]
    if pending:
        raise UserError(
            f"Sanção nº {pending[0]['number']}: {pending[0]['pending']} — decida antes de aplicá-la à permissão."
        )
    permit = Permit.get_by_id(record.permit_id)
    if permit.status not in LIVE_STATUSES:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}.")
    revocation = next((s for s in sanctions if s["kind"] == "revocation"), None)
    with db.atomic():
        if revocation is not None:
            permit = revoke(
                permit, by=by, today=today, reason=f"{record.reference}: {revocation['label']} ({revocation['basis']})"
            )
            _event(record, "permit-revoked", by=by, on=today, text=f"Permissão nº {permit.number} cassada")
        else:
            s = sanctions[0]
            if permit.status != "active":
                raise UserError(f"A permissão nº {permit.number} já está suspensa.")
            until = today + _dt.timedelta(days=s["days"] - 1) if s.get("days") else None
            span = f"por {describe.days(s['days'])}, até {_d(until)}" if until else "até sanar a irregularidade"
            permit = suspend(
                permit,
                by=by,
                today=today,
                until=until,
                reason=f"{record.reference}: {s['label']} {span} ({s['basis']})",
            )
            _event(record, "permit-suspended", by=by, on=today, text=f"Permissão nº {permit.number} suspensa {span}")
    return permit


# --------------------------------------------------------------------------- seizures


@dataclass(frozen=True)
class DepotFee:
    """The depot's daily fee owed for a seizure up to a day: how many days, the value, the formula, the article."""

    days: int
    amount: Decimal | None
    formula: str
    basis: str
    start: _dt.date
    end: _dt.date
    admin_defined: bool = False
    #: a daily fee (the depot's diárias); False: the seizure's expenses, once, as the act words them
    daily: bool = True
    label: str = "Depósito de bens apreendidos"


def _held_since(record: Record) -> _dt.date:
    return record.at.date()


def depot_fee(record: Record, on: _dt.date, *, since: _dt.date | None = None) -> DepotFee | None:
    """The depot fee for the days from ``since`` (default: the seizure) to ``on``; None where the act sets none.

    Each day started in the depot is a daily fee (Olímpia art. 145, § 2º:
    "diárias pelo depósito dos bens no valor de 1 UFESP por dia"); the
    fiscal unit's value is the one of each day's year.
    """
    regime = get_regime(record.regime, on=record.at.date())
    rule = regime.seizure.depot_fee if regime.seizure else None
    start = since or _held_since(record)
    if rule is not None and rule.scopes and record.scope not in rule.scopes:
        # the act sets the daily fee for some matters only (Olímpia caps. XV and XVII): elsewhere, its own words
        expenses = regime.seizure.expenses
        if expenses is None:
            return None
        return DepotFee(
            0,
            None,
            expenses.text,
            regime.cite_item(expenses),
            start,
            on,
            admin_defined=True,
            daily=False,
            label="Despesas de apreensão, transporte e guarda",
        )
    if rule is None:
        return None
    days = max((on - start).days, 0 if since else 1)
    basis = regime.cite_item(rule)
    if rule.amount is None:
        return DepotFee(
            days, None, "preço do depósito definido pela Administração", basis, start, on, admin_defined=True
        )
    overrides = _unit_overrides(regime)
    per_year: dict[int, int] = defaultdict(int)
    for i in range(days):
        per_year[(start + _dt.timedelta(days=i)).year] += 1
    total = ZERO
    parts = []
    for year, n in sorted(per_year.items()):
        value = regime.unit_value(rule.amount.unit, year, overrides) * rule.amount.value
        total += n * value
        if rule.amount.unit == "BRL":
            parts.append(f"{n} diária(s) × {format_brl(value)}")
        else:
            unit_value = regime.unit_value(rule.amount.unit, year, overrides)
            parts.append(
                f"{n} diária(s) × {describe.amount(rule.amount)} × {format_brl(unit_value)} ({rule.amount.unit} {year})"
            )
    amount = round_cents(total)
    return DepotFee(
        days, amount, " + ".join(parts) + f" = {format_brl(amount)}" if parts else format_brl(ZERO), basis, start, on
    )


def _depot_covered(record: Record) -> tuple[_dt.date | None, list[Charge]]:
    links = list(RecordCharge.select().where((RecordCharge.record == record.id) & (RecordCharge.role == "depot")))
    charges = [Charge.get_by_id(link.charge_id) for link in links]
    live = [(link, c) for link, c in zip(links, charges) if c.status != "cancelled"]
    until = max((link.until for link, _c in live if link.until), default=None)
    return until, [c for _l, c in live]


def charge_depot_fee(
    record: Record, *, on: _dt.date, by: str, amount: Any = None, today: _dt.date | None = None
) -> Charge:
    """Charge the depot's daily fees up to ``on`` (after what was charged before); ``amount`` where the
    Administration sets the price (Sapezal, Lei 1.171/2014, art. 52, § 1º)."""
    today = today or on
    by = _by(by)
    if record.kind != "seizure":
        raise UserError(f"O {record.reference} não é auto de apreensão.")
    if not record.identified:
        raise UserError("Infrator não identificado: identifique-o (novo auto) antes de cobrar o depósito.")
    covered, _charges = _depot_covered(record)
    fee = depot_fee(record, on, since=covered)
    if fee is None:
        raise UserError(f"O {get_regime(record.regime, on=record.at.date()).short} não prevê preço de depósito.")
    if not fee.daily and _charges:
        raise UserError(f"As despesas da apreensão já foram lançadas ({fee.basis}).")
    if covered is not None and on <= covered:
        raise UserError(f"As diárias já foram cobradas até {_d(covered)}.")
    value = fee.amount
    formula = fee.formula
    if fee.admin_defined:
        if amount in (None, ""):
            what = (
                "O preço do depósito é definido pela Administração"
                if fee.daily
                else "As despesas da apreensão, do transporte e da guarda são apuradas pela Administração"
            )
            raise FieldErrors({"amount": f"{what} ({fee.basis}): informe o valor."})
        value = round_cents(parse_typed(amount, what="Valor", field="amount"))
        formula = f"{format_brl(value)} ({'preço definido' if fee.daily else 'despesas apuradas'} pela Administração)"
    if value is None or value <= 0:
        raise UserError("Nada a cobrar de depósito.")
    with db.atomic():
        charge = create_charge(
            kind="depot",
            regime=record.regime,
            label=(
                f"{fee.label} — {record.reference} ({_d(fee.start)} a {_d(on)})"
                if fee.daily
                else f"{fee.label} — {record.reference}"
            ),
            amount=value,
            due_on=on,
            basis=fee.basis,
            formula=formula,
            by=by,
            person_id=record.person_id,
            company_id=record.company_id,
            source=record.reference,
            today=today,
        )
        RecordCharge.create(record=record.id, charge=charge.id, role="depot", until=on)
    return charge


def _case_fines(record: Record) -> list[Charge]:
    """Fines of the whole occurrence (the seizure and the infraction record drawn up with it)."""
    found = []
    for r in chain_of(record):
        if r.status == "annulled":
            continue
        found.extend(c for c in charges_of(r, "fine") if c.status != "cancelled")
    return found


def _reclaim_due(record: Record, perishable: bool) -> dict | None:
    for d in record.deadline_data:
        if d.get("role") == "reclaim" and bool(d.get("perishable")) == perishable:
            return d
    return None


def _due_passed(d: Mapping, on: _dt.date) -> bool:
    """Past the deadline on ``on`` (a deadline that ends during a day is past from the next day on)."""
    return on > _dt.date.fromisoformat(d["due_date"])


def release_items(record: Record, *, on: _dt.date, by: str, today: _dt.date | None = None) -> list[SeizedItem]:
    """Give the seized goods back — only once the fines and the depot fees are paid (Olímpia art. 23, parágrafo
    único; Sapezal art. 52, § 1º)."""
    require("enforcement.record")
    today = today or on
    by = _by(by)
    regime = get_regime(record.regime, on=record.at.date())
    items = [i for i in items_of(record) if i.held]
    if not items:
        raise UserError(f"Nada a devolver: os bens do {record.reference} já foram devolvidos ou doados.")
    if record.status == "corrected":
        raise UserError(f"O {record.reference} foi corrigido: devolva pelo auto que o substituiu.")
    rule = regime.seizure.release if regime.seizure and regime.seizure.release else None
    basis = regime.cite(rule.basis if rule else (regime.seizure.basis if regime.seizure else None))
    missing = []
    for charge in _case_fines(record):
        if charge.status != "paid":
            missing.append(f"multa nº {charge.number} ({format_brl(charge.open_amount)} em aberto)")
    if record.status != "annulled":
        if not record.identified and record.fine_total > 0:
            missing.append("identificação do infrator e pagamento da multa")
        fee = depot_fee(record, on)
        covered, depot_charges = _depot_covered(record)
        for charge in depot_charges:
            if charge.status != "paid":
                what = "diárias de depósito" if fee is None or fee.daily else "despesas da apreensão"
                missing.append(f"{what} nº {charge.number} ({format_brl(charge.open_amount)})")
        if fee is not None and fee.amount is not None and (covered is None or covered < on):
            rest = depot_fee(record, on, since=covered)
            if rest is not None and rest.amount and rest.amount > 0:
                missing.append(f"diárias de depósito até {_d(on)} ({format_brl(rest.amount)}: {rest.formula})")
    if missing:
        raise UserError(
            f"Devolução só depois de pagas as multas e as despesas de depósito ({basis}); falta: "
            + "; ".join(missing)
            + "."
        )
    with db.atomic():
        for item in items:
            update_versioned(
                item, "Os bens foram alterados em outra mesa; reabra o auto.", released_on=on, released_by=by
            )
        _event(record, "released", by=by, on=today, text=f"Bens devolvidos em {_d(on)} ({len(items)} item(ns))")
    return [SeizedItem.get_by_id(i.id) for i in items]


def donate_items(
    record: Record,
    *,
    on: _dt.date,
    by: str,
    to: str,
    reason: str = "",
    consent: bool = False,
    today: _dt.date | None = None,
) -> list[SeizedItem]:
    """Donate goods not claimed in time (Olímpia art. 24; art. 215, § 2º); before that only with the
    offender's consent, for perishables or when he declares he will not claim them (art. 149; art. 215, § 3º)."""
    require("enforcement.record")
    today = today or on
    by = _by(by)
    if not (to or "").strip():
        raise FieldErrors({"to": "Informe a entidade que recebe a doação."})
    regime = get_regime(record.regime, on=record.at.date())
    items = [i for i in items_of(record) if i.held]
    if not items:
        raise UserError(f"Nada a doar: os bens do {record.reference} já foram devolvidos ou doados.")
    seizure = regime.seizure
    rule_basis = regime.cite(
        seizure.donation.basis if seizure and seizure.donation else (seizure.basis if seizure else None)
    )
    eligible, blocked, open_ended = [], [], []
    for item in items:
        due = _reclaim_due(record, item.perishable)
        if consent or (due is not None and _due_passed(due, on)):
            eligible.append(item)
        elif due is None:
            open_ended.append(item)
        else:
            blocked.append(f"{item.description}: prazo de retirada {due['due_text']} ({due['basis']})")
    if open_ended:
        if not (reason or "").strip():
            raise FieldErrors(
                {
                    "reason": f"O ato não fixa prazo de retirada ({rule_basis}): informe o fundamento "
                    "da doação (avaliação técnica, decisão da chefia…)."
                }
            )
        eligible.extend(open_ended)
    if not eligible:
        raise UserError(
            "Ainda no prazo de retirada — doação só depois dele, ou com a anuência do infrator: "
            + "; ".join(blocked)
            + "."
        )
    items = eligible
    note = (reason or "").strip() + (" (com anuência do infrator)" if consent else "")
    with db.atomic():
        for item in items:
            update_versioned(
                item,
                "Os bens foram alterados em outra mesa; reabra o auto.",
                donated_on=on,
                donated_by=by,
                donated_to=to.strip(),
                note=note,
            )
        _event(
            record,
            "donated",
            by=by,
            on=today,
            text=f"Bens doados a {to.strip()} em {_d(on)} ({rule_basis})" + (f" — {note}" if note else ""),
        )
    return [SeizedItem.get_by_id(i.id) for i in items]


@dataclass(frozen=True)
class SeizedRow:
    record_id: int
    reference: str
    offender: str
    regime: str
    seized_at: _dt.datetime
    items: str
    perishable: bool
    depot: str
    reclaim_due: str
    reclaim_basis: str
    reclaim_passed: bool
    days: int
    depot_due: Decimal | None
    depot_formula: str
    fines_open: Decimal
    total_due: Decimal
    state: str


def seized_goods(today: _dt.date) -> list[SeizedRow]:
    """Goods still held in the depots, each seizure with what must be paid today to get them back."""
    held = SeizedItem.select(SeizedItem.record).where(
        SeizedItem.released_on.is_null() & SeizedItem.donated_on.is_null()
    )
    records = Record.select().where(Record.id.in_(held) & (Record.status != "corrected")).order_by(Record.at)
    rows = []
    for record in records:
        items = [i for i in items_of(record) if i.held]
        perishable = any(i.perishable for i in items)
        dues = [d for d in (_reclaim_due(record, flag) for flag in {i.perishable for i in items}) if d]
        first = min(dues, key=lambda d: d["due_date"]) if dues else None
        passed = bool(first) and _due_passed(first, today)
        fee = depot_fee(record, today) if record.status != "annulled" else None
        covered, depot_charges = _depot_covered(record)
        paid_depot = sum((c.paid_total for c in depot_charges if c.status != "cancelled"), ZERO)
        depot_due = None
        if fee is not None and fee.amount is not None:
            depot_due = max(fee.amount - paid_depot, ZERO)
        fines_open = sum((c.open_amount for c in _case_fines(record)), ZERO)
        total = fines_open + (depot_due or ZERO)
        if record.status == "annulled":
            state = "auto anulado: devolver"
        elif passed:
            state = "prazo de retirada vencido: doar"
        elif first:
            state = "no prazo de retirada"
        else:
            state = "o ato não fixa prazo de retirada"
        rows.append(
            SeizedRow(
                record_id=record.id,
                reference=record.reference,
                offender=record.offender_name,
                regime=record.regime,
                seized_at=record.at,
                items="; ".join(
                    f"{describe.number(i.quantity)} {i.unit} {i.description}" + (" (perecível)" if i.perishable else "")
                    for i in items
                ),
                perishable=perishable,
                depot=record.depot,
                reclaim_due=first["due_text"] if first else "—",
                reclaim_basis=first["basis"] if first else "",
                reclaim_passed=passed,
                days=fee.days if fee else max((today - record.at.date()).days, 1),
                depot_due=depot_due,
                depot_formula=fee.formula if fee else "o ato não fixa preço de depósito",
                fines_open=fines_open,
                total_due=total,
                state=state,
            )
        )
    return rows


# --------------------------------------------------------------------------- dívida ativa


@dataclass(frozen=True)
class DebtRow:
    record_id: int
    reference: str
    charge_id: int
    charge_number: str
    offender: str
    document: str
    regime: str
    amount: Decimal
    due_on: _dt.date
    days_late: int
    basis: str


def debt_register(today: _dt.date) -> list[DebtRow]:
    """Unpaid fines past their deadline, for inscription in the municipal debt register (dívida ativa;
    LC 324/2025, art. 11, § 1º). A fine under a defence or appeal with suspensive effect waits for the decision."""
    links = (
        RecordCharge.select(RecordCharge, Charge, Record)
        .join(Charge, on=(RecordCharge.charge == Charge.id))
        .switch(RecordCharge)
        .join(Record, on=(RecordCharge.record == Record.id))
        .where((RecordCharge.role == "fine") & (Charge.status == "open") & (Record.status == "issued"))
    )
    rows = []
    seen = set()
    for link in links:
        charge, record = link.charge, link.record
        if charge.id in seen:
            continue
        seen.add(charge.id)
        contests = contests_of(record)
        if any(c.pending and c.suspensive for c in contests):
            continue
        due = charge.due_on
        for c in contests:
            for d in json.loads(c.after or "[]"):
                if d.get("role") in ("payment-after-decision", "appeal"):
                    due = max(due, _dt.date.fromisoformat(d["due_date"]))
        for d in record.deadline_data:
            if d.get("role") in ("defence", "appeal") and not contests:
                due = max(due, _dt.date.fromisoformat(d["due_date"]))
        if due >= today:
            continue
        payment = next((d for d in record.deadline_data if d.get("role") == "payment"), None)
        rows.append(
            DebtRow(
                record_id=record.id,
                reference=record.reference,
                charge_id=charge.id,
                charge_number=charge.number,
                offender=record.offender_name,
                document=record.offender_document,
                regime=record.regime,
                amount=charge.open_amount,
                due_on=due,
                days_late=(today - due).days,
                basis=payment["basis"] if payment else charge.basis,
            )
        )
    return sorted(rows, key=lambda r: (r.due_on, r.reference))


# --------------------------------------------------------------------------- the Painel

#: the deadlines a clerk acts on the day they end, and what the Painel says of them
_LAST_DAY = {
    "compliance": "termina hoje o prazo para regularizar",
    "defence": "termina hoje o prazo de defesa",
    "appeal": "termina hoje o prazo de recurso",
    "payment": "vence hoje a multa",
    "payment-after-decision": "vence hoje a multa mantida pela decisão",
}


def enforcement_alerts(today: _dt.date, *, recent_days: int = 30) -> list:
    """What the Painel shows from Fiscalização, as ``models.permits.TodayItem`` (each with its article).

    * deadlines of records in force that end today — to comply, to defend, to
      appeal, to pay a fine not paid (the deadline's own article);
    * a notice's deadline to comply that ended in the last ``recent_days`` days
      and no record followed it: the inspector checks and draws up the
      infraction record (Olímpia, LC 324/2025, art. 29);
    * defences and appeals awaiting a decision whose deadline ends today or has
      passed (Olímpia art. 38);
    * unpaid fines past every deadline, for the dívida ativa (art. 11, § 1º);
    * seized goods: the reclaim deadline ends today, or has passed (donation
      due: art. 24; art. 215, § 2º), perishables still in the depot (art. 149),
      goods of an annulled record to give back.
    """
    from models.permits import TodayItem

    items: list[TodayItem] = []

    def add(day: _dt.date, kind: str, record: Record, text: str, article: str, overdue: bool = False) -> None:
        who = f"{record.reference} ({record.offender_name})"
        items.append(
            TodayItem(
                day,
                kind,
                f"{who}: {text}",
                article,
                record.permit_id or 0,
                record.permit.number if record.permit_id else "",
                overdue,
            )
        )

    since = today - _dt.timedelta(days=366)  # the acts' deadlines run for weeks, not years
    records = {r.id: r for r in Record.select().where((Record.status == "issued") & (Record.issued_on >= since))}
    ids = list(records)
    contests: dict[int, list[Contest]] = defaultdict(list)
    followed: set[int] = set()
    open_fines: dict[int, Decimal] = defaultdict(lambda: ZERO)
    if ids:
        for c in Contest.select().where(Contest.record.in_(ids)).order_by(Contest.filed_on, Contest.id):
            contests[c.record_id].append(c)
        followed = {
            r.refers_to_id
            for r in Record.select(Record.refers_to).where(
                Record.refers_to.in_(ids) & (Record.relation == "follows-notice")
            )
        }
        for link in (
            RecordCharge.select(RecordCharge.record, Charge.amount, Charge.paid_total)
            .join(Charge, on=(RecordCharge.charge == Charge.id))
            .where(RecordCharge.record.in_(ids) & (RecordCharge.role == "fine") & (Charge.status == "open"))
        ):
            open_fines[link.record_id] += link.charge.amount - link.charge.paid_total
    for record in records.values():
        filed = {c.kind for c in contests[record.id]}
        due_list = list(record.deadline_data)
        for c in contests[record.id]:
            due_list.extend(json.loads(c.after or "[]"))
        decided = any(d.get("role") == "payment-after-decision" for d in due_list)
        for d in due_list:
            role, due = d.get("role"), _dt.date.fromisoformat(d["due_date"])
            if (
                role not in _LAST_DAY
                or (role in ("defence", "appeal") and role in filed)
                or (role == "payment" and decided)
            ):  # the decision set the payment's new deadline
                continue
            if role.startswith("payment"):
                if record.id not in open_fines:
                    continue
                text = f"{_LAST_DAY[role]} de {format_brl(open_fines[record.id])} ({d['due_text']})."
            else:
                text = f"{_LAST_DAY[role]} ({d['label']}, {d['due_text']})."
            if due == today and not (role == "compliance" and record.id in followed):
                add(due, f"record-{role}", record, text, d["basis"])
            elif (
                role == "compliance"
                and record.id not in followed
                and today - _dt.timedelta(days=recent_days) <= due < today
            ):
                add(
                    due,
                    "record-compliance",
                    record,
                    f"o prazo para regularizar terminou em {_d(due)} ({d['label']}): verificar no local e, se não "
                    "atendida a notificação, lavrar o auto de infração.",
                    d["basis"],
                    True,
                )
        for c in contests[record.id]:
            if not c.pending or not c.decision_deadline:
                continue
            d = json.loads(c.decision_deadline)
            due = _dt.date.fromisoformat(d["due_date"])
            if due <= today:
                when = "termina hoje" if due == today else f"terminou em {_d(due)}"
                add(
                    due,
                    "record-decision",
                    record,
                    f"{c.kind_label.lower()} protocolada em {_d(c.filed_on)} aguarda julgamento ({c.instance}); o "
                    f"prazo para decidir {when}.",
                    d["basis"],
                    due < today,
                )

    debts = debt_register(today)
    if debts:
        amount = sum((d.amount for d in debts), ZERO)
        bases = "; ".join(dict.fromkeys(d.basis for d in debts if d.basis))
        items.append(
            TodayItem(
                min(d.due_on for d in debts),
                "fines-debt",
                f"{len(debts)} multa(s) vencida(s) e não paga(s), {format_brl(amount)}: inscrever em "
                "dívida ativa (Fiscalização → Dívida ativa).",
                bases,
                0,
                "",
                True,
            )
        )

    held: dict[int, list[SeizedItem]] = defaultdict(list)
    for item in SeizedItem.select().where(SeizedItem.released_on.is_null() & SeizedItem.donated_on.is_null()):
        held[item.record_id].append(item)
    if held:
        for record in Record.select().where(Record.id.in_(list(held)) & (Record.status != "corrected")):
            regime = get_regime(record.regime, on=record.at.date())
            seizure = regime.seizure
            if record.status == "annulled":
                add(
                    today,
                    "seizure-return",
                    record,
                    "auto anulado: devolver os bens apreendidos ("
                    + "; ".join(i.description for i in held[record.id])
                    + ").",
                    regime.cite(seizure.basis) if seizure else "",
                    True,
                )
                continue
            for flag in sorted({i.perishable for i in held[record.id]}, reverse=True):
                what = "; ".join(
                    f"{describe.number(i.quantity)} {i.unit} {i.description}"
                    for i in held[record.id]
                    if i.perishable == flag
                )
                d = _reclaim_due(record, flag)
                if d is None:
                    if flag:
                        add(
                            today,
                            "seizure-perishable",
                            record,
                            f"perecíveis no depósito ({what}); o ato não fixa prazo de retirada: decidir a destinação.",
                            regime.cite(seizure.basis) if seizure else "",
                            True,
                        )
                    continue
                due = _dt.date.fromisoformat(d["due_date"])
                if _due_passed(d, today):
                    donation = regime.cite(seizure.donation.basis) if seizure and seizure.donation else d["basis"]
                    add(
                        due,
                        "seizure-donation",
                        record,
                        f"bens não retirados no prazo ({d['due_text']}): {what} — doar ou dar a destinação do ato.",
                        donation,
                        True,
                    )
                elif due == today:
                    add(
                        due,
                        "seizure-reclaim",
                        record,
                        f"termina hoje o prazo de retirada dos bens ({what}), {d['due_text']}.",
                        d["basis"],
                    )
                elif flag:
                    add(
                        due,
                        "seizure-perishable",
                        record,
                        f"perecíveis no depósito ({what}), retirada {d['due_text']}.",
                        d["basis"],
                    )
    return sorted(items, key=lambda i: (not i.overdue, i.date, i.text))


# --------------------------------------------------------------------------- demo


def demo_enforcement(today: _dt.date | None = None) -> dict[str, int]:
    """A year of enforcement across the regimes, for ``praca demo`` (after the demo's people and permits).

    Through the real flow: notices followed by infraction records, recurrences
    (doubled fines, the street-food suspension), a seizure of perishables
    released after the fine and the depot were paid, a seizure of goods nobody
    claimed and that were donated, an offender identified later, a correction,
    a defence partly upheld, an appeal pending, and fines unpaid past their
    deadline for the dívida ativa. Each scenario is a story whose steps run
    interleaved in date order, so record numbers follow the calendar.
    Deterministic; a scenario whose dates fall before its act is skipped.
    """
    import heapq

    from models.billing.charges import record_payment
    from models.billing.fiscal import set_unit_value, unit_overrides

    today = today or _dt.date(2026, 11, 30)
    counts = {"records": 0, "seizures": 0, "contests": 0, "decisions": 0}
    inspectors = (("Marcos Vinícius Prado", "4521"), ("Sueli Aparecida Costa", "3877"), ("Rogério Tanaka", "5102"))
    chief = "Chefe do Setor de Fiscalização"

    def when(regime_id: str, days_ago: int, hour: int, minute: int = 0) -> _dt.datetime | None:
        moment = _dt.datetime.combine(today - _dt.timedelta(days=days_ago), _dt.time(hour, minute))
        return moment if moment.date() >= get_regime(regime_id).published else None

    def noon(day: _dt.date) -> _dt.datetime:
        return _dt.datetime.combine(day, _dt.time(12, 0))

    def put(d: RecordDraft, *, n: int = 0) -> Record:
        inspector, ident = inspectors[n % len(inspectors)]
        d = dataclasses.replace(d, inspector=inspector, inspector_id=ident)
        record = issue_record(d, by=inspector, today=d.at.date())
        counts["records"] += 1
        counts["seizures"] += record.kind == "seizure"
        return record

    def pay_all(record: Record, on: _dt.date, role: str = "fine") -> None:
        for charge in charges_of(record, role):
            if charge.status == "open":
                record_payment(
                    charge,
                    paid_on=on,
                    amount=charge.open_amount,
                    reference=f"DEMO-{charge.number}",
                    by="tesouraria",
                    today=on,
                )

    def unit(regime_id: str, code: str, value: Decimal) -> None:
        regime = get_regime(regime_id)
        if (code, today.year) not in unit_overrides(regime.id) and regime.unit(code).value_for(today.year) is None:
            set_unit_value(
                regime,
                code,
                today.year,
                value,
                entered_by="demonstração",
                reason=f"{code} {today.year} — dado de demonstração: confira o valor oficial",
            )

    people = list(
        Person.select()
        .where(Person.id.not_in(Permit.select(Permit.person).where(Permit.person.is_null(False))))
        .order_by(Person.id)
    )
    companies = list(Company.select().order_by(Company.id))
    if len(people) < 2 or not companies:
        return counts

    def permit(regime_id: str, prefix: str = "", offset: int = 0) -> Permit | None:
        query = Permit.select().where((Permit.regime == regime_id) & (Permit.status == "active"))
        if prefix:
            query = query.where(Permit.permit_kind.startswith(prefix))
        return query.order_by(Permit.id).offset(offset).first()

    olimpia, sjc, sapezal, ilha, sao_bento = (
        "olimpia-2025",
        "sjc-2014",
        "sapezal-2014",
        "ilha-comprida-2017",
        "sao-bento-2026",
    )
    tpu_permit = permit(olimpia, "street-food-tpu")

    def street_food():
        """A fine at once, then the recurrence doubled with 180 days' suspension (LC 324/2025, art. 192, § 1º;
        art. 193, § 2º); the defence partly upheld (one of the two infractions falls), the rest paid."""
        first_at, second_at = when(olimpia, 240, 19, 40), when(olimpia, 130, 20, 15)
        if tpu_permit is None or not first_at or not second_at:
            return
        site = tpu_permit.site or "Praça Rui Barbosa"
        yield first_at
        first = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=first_at,
                place=site,
                facts="Entorno do equipamento com copos e guardanapos no chão; sem recipiente para o "
                "lixo dos clientes.",
                infractions=["tpu-area-suja"],
                permit_id=tpu_permit.id,
                scope="street-food",
                witnesses=[Witness("Gilberto Moura", "RG 23.456.789-0")],
            )
        )
        yield noon(first_at.date() + _dt.timedelta(days=20))
        pay_all(first, first_at.date() + _dt.timedelta(days=20))
        yield second_at
        second = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=second_at,
                place=site,
                facts="Lixo espalhado de novo e um cão preso ao equipamento durante a venda.",
                infractions=["tpu-area-suja", "tpu-animais"],
                permit_id=tpu_permit.id,
                scope="street-food",
            ),
            n=1,
        )
        filed = second_at.date() + _dt.timedelta(days=6)
        yield noon(filed)
        defence = file_contest(
            second,
            kind="defence",
            filed_on=filed,
            by="protocolo",
            grounds="O cão era de um cliente e foi retirado na hora.",
            suspensive=True,
            suspensive_note="LC 324/2025, art. 198",
        )
        counts["contests"] += 1
        decided = second_at.date() + _dt.timedelta(days=18)
        yield noon(decided)
        kept = Decimal(second.proposal_data["infractions"][0]["sanctions"][0]["amount"])
        decide_contest(
            defence,
            outcome="partly",
            decided_on=decided,
            by=chief,
            new_amount=kept,
            reason="O animal não pertencia ao permissionário (depoimento e foto); mantida a multa pelo "
            "lixo, em dobro pela reincidência.",
        )
        yield noon(decided + _dt.timedelta(days=25))
        pay_all(second, decided + _dt.timedelta(days=25))

    def street_vending():
        """The one-hour notice not complied with, the record and the seizure of perishables, given back the next
        day once the fine and one day of depot were paid (LC 324/2025, art. 145; art. 149; art. 23)."""
        vendor = people[0]
        notice_at = when(olimpia, 200, 15, 0)
        if not notice_at:
            return
        yield notice_at
        notice = put(
            RecordDraft(
                kind="notice",
                regime=olimpia,
                at=notice_at,
                place="Avenida Menina Moça, 1200",
                facts="Venda de picolés em carrinho térmico sem autorização nem recolhimento da taxa diária.",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
            ),
            n=2,
        )
        yield notice_at + _dt.timedelta(minutes=75)
        record = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=notice_at + _dt.timedelta(minutes=75),
                place=notice.place,
                facts="Passada uma hora da notificação, continuava vendendo.",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
                refers_to_id=notice.id,
                relation="follows-notice",
            ),
            n=2,
        )
        yield notice_at + _dt.timedelta(minutes=85)
        seizure = put(
            RecordDraft(
                kind="seizure",
                regime=olimpia,
                at=notice_at + _dt.timedelta(minutes=85),
                place=notice.place,
                facts="Apreensão da mercadoria (art. 145, III; art. 147).",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
                refers_to_id=record.id,
                relation="accompanies",
                items=[
                    ItemInput("picolés de frutas", "48", "un", True),
                    ItemInput("carrinho térmico de isopor", "1", "un", False),
                ],
                depot="Depósito municipal, Rua Síria, 300",
            ),
            n=2,
        )
        next_day = notice_at.date() + _dt.timedelta(days=1)
        yield noon(next_day)
        pay_all(record, next_day)
        depot = charge_depot_fee(seizure, on=next_day, by="Depósito municipal", today=next_day)
        record_payment(
            depot,
            paid_on=next_day,
            amount=depot.amount,
            reference=f"DEMO-{depot.number}",
            by="tesouraria",
            today=next_day,
        )
        release_items(seizure, on=next_day, by="Depósito municipal")

    def feira_goods():
        """Goods of someone not identified, not claimed within 72 hours and donated (LC 324/2025, art. 215)."""
        feira_at = when(olimpia, 90, 7, 20)
        if not feira_at:
            return
        yield feira_at
        feira = put(
            RecordDraft(
                kind="seizure",
                regime=olimpia,
                at=feira_at,
                place="Feira livre da Rua Cajobi",
                facts="Comercializava redes e tapetes na feira sem autorização; saiu sem se identificar.",
                infractions=["feira-sem-autorizacao"],
                scope="feira",
                unknown_name="Vendedor de redes",
                signature="absent",
                unknown_description="homem de uns 40 anos, boné azul, camiseta listrada",
                items=[
                    ItemInput("redes de descanso", "6", "un", False),
                    ItemInput("tapetes de barbante", "4", "un", False),
                ],
                depot="Galpão da feira, Rua Cajobi, 15",
                witnesses=[Witness("Cleide Feirante", "banca 12")],
            )
        )
        donated = feira_at.date() + _dt.timedelta(days=4)
        yield noon(donated)
        donate_items(feira, on=donated, by="Depósito municipal", to="Associação Beneficente Lar São Vicente de Paulo")

    def event_organiser():
        """An event without authorisation (LC 324/2025, art. 97) by someone identified later by a new record."""
        event_at = when(olimpia, 70, 22, 30)
        if not event_at:
            return
        yield event_at
        unknown = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=event_at,
                place="Praça da Matriz",
                facts="Evento com palco e venda de bebidas sem a prévia autorização do município.",
                infractions=["evento-sem-autorizacao"],
                unknown_name="Organizador do evento",
                unknown_description="responsável pelo palco, apresentou-se como 'Beto do Som'",
                signature="absent",
            ),
            n=1,
        )
        found = event_at + _dt.timedelta(days=9, hours=-8)
        yield found
        identify_offender(
            unknown,
            company_id=companies[0].id,
            by=chief,
            today=found.date(),
            notified_at=found,
            reason="Identificado pelo contrato de locação do palco",
        )
        counts["records"] += 1

    def sidewalk():
        """The sidewalk obstructed: a fine at once (LC 324/2025, art. 263, II), never paid — for the dívida ativa."""
        sidewalk_at = when(olimpia, 150, 11, 0)
        if not sidewalk_at:
            return
        yield sidewalk_at
        put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=sidewalk_at,
                place="Rua São João, 1200",
                facts="Bancas e mostruário ocupando todo o passeio; pedestres andando pela rua.",
                infractions=["passeio-obstrucao-bancas"],
                person_id=people[1].id,
                scope="street-vending",
                signature="refused",
                witnesses=[Witness("Edna Comerciante", "RG 31.222.333-4")],
            )
        )

    def corrected():
        """A record corrected by a new one: the place was written wrong; the deadlines start again (art. 32, § 4º)."""
        corrected_at = when(olimpia, 40, 10, 10)
        if not corrected_at or tpu_permit is None:
            return
        yield corrected_at
        wrong = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=corrected_at,
                place="Praça Rui Barbos",
                facts="Mesas e caixas na área ajardinada ao lado do equipamento.",
                infractions=["tpu-caixas-area-particular-ajardinada"],
                permit_id=tpu_permit.id,
                scope="street-food",
            ),
            n=1,
        )
        fixed = corrected_at + _dt.timedelta(days=3)
        yield fixed
        correct_record(
            wrong,
            reason="nome da praça escrito errado",
            by=chief,
            today=fixed.date(),
            notified_at=fixed,
            place="Praça Rui Barbosa",
        )
        counts["records"] += 1

    def sjc_feira():
        """The 24-hour notice, then the fine graded by the authority (Lei 9.158/2014, art. 23–24); the appeal is
        still pending."""
        feira_permit = permit(sjc)
        notice_at = when(sjc, 21, 21, 0)
        if feira_permit is None or not notice_at:
            return
        yield notice_at
        notice = put(
            RecordDraft(
                kind="notice",
                regime=sjc,
                at=notice_at,
                place=feira_permit.site or "Feira noturna",
                facts="Resíduos de óleo e papéis sob a banca durante a feira.",
                infractions=["sujeira"],
                permit_id=feira_permit.id,
            ),
            n=1,
        )
        record_at = notice_at + _dt.timedelta(days=7)
        yield record_at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sjc,
                at=record_at,
                place=notice.place,
                facts="Na feira seguinte, a área da banca continuava suja.",
                infractions=["sujeira"],
                permit_id=feira_permit.id,
                refers_to_id=notice.id,
                relation="follows-notice",
                payment_due=record_at.date() + _dt.timedelta(days=45),
                adjustments=[
                    AdjustInput(
                        reason="resíduos espalhados por toda a frente da banca",
                        amounts={2: "300,00"},
                        by="Chefe da fiscalização",
                    )
                ],
            ),
            n=1,
        )
        filed = record_at + _dt.timedelta(days=2)
        yield filed
        file_contest(
            record,
            kind="appeal",
            filed_on=filed.date(),
            by="protocolo",
            grounds="A sujeira era da banca vizinha.",
            instance="Recurso protocolado no Paço Municipal",
        )
        counts["contests"] += 1

    def sjc_aggression():
        """Aggression: R$ 1.000,00 corrected by the INPC and 15 days' suspension (art. 25, parágrafo único), paid."""
        other = permit(sjc, offset=1)
        aggression_at = when(sjc, 160, 22, 40)
        if other is None or not aggression_at:
            return
        yield aggression_at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sjc,
                at=aggression_at,
                place=other.site or "Feira noturna",
                facts="Ofendeu e empurrou o feirante vizinho durante a montagem.",
                infractions=["agressao"],
                permit_id=other.id,
                payment_due=aggression_at.date() + _dt.timedelta(days=30),
                witnesses=[Witness("Osvaldo Feirante", "banca 7"), Witness("Lúcia Freguesa", "")],
            ),
            n=2,
        )
        yield noon(aggression_at.date() + _dt.timedelta(days=25))
        pay_all(record, aggression_at.date() + _dt.timedelta(days=25))

    def sapezal_duty():
        """A duty, then the same duty doubled (Lei 1.171/2014, art. 50); the defence rejected, the appeal running."""
        licence = permit(sapezal)
        first_at, second_at = when(sapezal, 210, 18, 30), when(sapezal, 45, 18, 45)
        if licence is None or not first_at or not second_at:
            return
        unit(sapezal, "UFS", Decimal("52.30"))
        yield first_at
        first = put(
            RecordDraft(
                kind="infraction",
                regime=sapezal,
                at=first_at,
                place=licence.site or "Praça da Matriz",
                facts="Não varreu nem recolheu os detritos após o funcionamento.",
                infractions=["dever-41"],
                permit_id=licence.id,
                payment_due=first_at.date() + _dt.timedelta(days=30),
            ),
            n=1,
        )
        yield noon(first_at.date() + _dt.timedelta(days=12))
        pay_all(first, first_at.date() + _dt.timedelta(days=12))
        yield second_at
        second = put(
            RecordDraft(
                kind="infraction",
                regime=sapezal,
                at=second_at,
                place=first.place,
                facts="De novo, detritos deixados no local após o encerramento.",
                infractions=["dever-41"],
                permit_id=licence.id,
                payment_due=second_at.date() + _dt.timedelta(days=30),
            ),
            n=1,
        )
        filed = second_at.date() + _dt.timedelta(days=5)
        yield noon(filed)
        defence = file_contest(
            second,
            kind="defence",
            filed_on=filed,
            by="protocolo",
            grounds="A limpeza é feita pela manhã.",
            suspensive=True,
            suspensive_note="Lei 1.171/2014, art. 53, § 3º",
            instance="Responsável pelo órgão que aplicou a sanção",
        )
        counts["contests"] += 1
        decided = second_at.date() + _dt.timedelta(days=12)
        yield noon(decided)
        decide_contest(
            defence,
            outcome="upheld",
            decided_on=decided,
            by="Secretaria de Desenvolvimento Econômico",
            reason="A lei exige a limpeza após o funcionamento diário (art. 41).",
        )

    def beach():
        """A serious infraction on the beach, the suspension graded at 30 days (Dec. 890/2017, art. 27, § 1º)."""
        licence = permit(ilha)
        beach_at = when(ilha, 300, 16, 0)
        if licence is None or not beach_at:
            return
        yield beach_at
        put(
            RecordDraft(
                kind="infraction",
                regime=ilha,
                at=beach_at,
                place=licence.site or "Balneário Monte Carlo",
                facts="Discutiu aos gritos com banhistas e com o agente, recusando-se a mudar o carrinho.",
                infractions=["grave-indisciplina"],
                permit_id=licence.id,
                signature="refused",
                witnesses=[Witness("Sgto. Almeida", "Polícia Militar")],
                adjustments=[
                    AdjustInput(
                        reason="primeira ocorrência; acalmou-se ao final",
                        days={1: 30},
                        by="Diretor do Departamento de Planejamento",
                    )
                ],
            ),
            n=2,
        )

    def event_stall():
        """The stall not torn down by 12h00 of 30/03/2026: R$ 150,00 (Dec. 4.794/2026, art. 2º, § 2º), paid."""
        teardown = _dt.datetime(2026, 3, 30, 13, 30)
        if teardown.date() > today - _dt.timedelta(days=30):
            return
        yield teardown
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sao_bento,
                at=teardown,
                place="Rua Cel. Ribeiro da Luz, barraca 17",
                facts="Barraca ainda montada às 13h30 de 30/03/2026, depois do prazo de desmontagem.",
                infractions=["nao-desmontar"],
                company_id=companies[-1].id,
                payment_due=_dt.date(2026, 4, 30),
            )
        )
        yield noon(_dt.date(2026, 4, 20))
        pay_all(record, _dt.date(2026, 4, 20))

    def event_placard():
        """No placard (Dec. 4.794/2026, art. 4º, parágrafo único): art. 14 lets the authority impose the fine of 20
        UFESP and the seizure "cumulativamente ou não" — the record proposes both; the chief imposes the fine and
        omits the seizure the next day, with the reason."""
        at = _dt.datetime(2026, 3, 28, 20, 15)
        if at.date() > today - _dt.timedelta(days=30):
            return
        yield at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sao_bento,
                at=at,
                place="Rua Cel. Ribeiro da Luz, barraca 9",
                facts="Barraca funcionando sem a placa indicativa com nome da empresa, CNPJ e Cadastro Municipal.",
                infractions=["sem-placa"],
                company_id=companies[0].id,
            )
        )
        proposal = current_proposal(record)
        fine = next(s.number for s in proposal.sanctions if s.kind == "fine")
        seizure = next(s.number for s in proposal.sanctions if s.kind == "seizure")
        decided = _dt.datetime(2026, 3, 29, 10, 0)
        yield decided
        decide_sanctions(
            record,
            AdjustInput(
                reason="sem placa durante toda a noite de sexta; orientado, não regularizou",
                apply=(fine,),
                omit=(seizure,),
                by="Chefe da fiscalização",
            ),
            by="Chefe da fiscalização",
            today=decided.date(),
            payment_due=_dt.date(2026, 4, 30),
        )
        counts["decisions"] += 1

    queue = []
    stories = (
        street_food,
        street_vending,
        feira_goods,
        event_organiser,
        sidewalk,
        corrected,
        sjc_feira,
        sjc_aggression,
        sapezal_duty,
        beach,
        event_stall,
        event_placard,
    )
    for order, make in enumerate(stories):
        story = make()
        first = next(story, None)
        if first is not None:
            heapq.heappush(queue, (first, order, story))
    while queue:
        _when, order, story = heapq.heappop(queue)
        step = next(story, None)
        if step is not None:
            heapq.heappush(queue, (step, order, story))
    return counts
