"""The enforcement tables (records, their files, charges, events, seized items, contests), the words
of their columns, and the small helpers every act on a record uses."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING

from peewee import (
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
)

from models.access.session import acting
from models.base import clock
from models.billing.charges import Charge
from models.enforcement.sanctions import (
    IMPOSED,
    PROPOSED,
)
from models.permits import Permit
from models.registry.people import Company, Person
from models.store.db import BaseModel, DecimalTextField, MoneyField, update_versioned

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


DECISION_EVENTS = ("decision-notification", "decision-publication")


ZERO = Decimal("0.00")


def day_text(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        person_id: int | None
        company_id: int | None
        permit_id: int | None
        refers_to_id: int | None

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
    def issued_deadline_data(self) -> list[dict]:
        """The deadlines as counted when the record was issued (never changed)."""
        return list(json.loads(self.deadlines or "[]"))

    @property
    def deadline_data(self) -> list[dict]:
        """The deadlines as they run now: each issued one counted again from the same start with the town's
        calendar of today (a holiday entered since moves it; ``moved_from`` says where it ended before)."""
        from models.enforcement.deadline_roles import recount

        return [recount(self, d) for d in self.issued_deadline_data]

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        record_id: int

    class Meta:
        table_name = "enforcement_file"


class RecordCharge(BaseModel):
    """A charge that comes from a record: its fine, or a depot fee (``until``: the last day charged)."""

    record = ForeignKeyField(Record, backref="charge_links", on_delete="RESTRICT")
    charge = ForeignKeyField(Charge, backref="record_links", on_delete="RESTRICT")
    role = CharField(max_length=12)  # fine | depot
    until = DateField(null=True)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        record_id: int
        charge_id: int

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        record_id: int

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        record_id: int

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        record_id: int

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


def record_event(
    record: Record, kind: str, *, by: str, on: _dt.date, text: str = "", data: Mapping | None = None
) -> None:
    RecordEvent.create(
        record=record.id,
        on=on,
        by=by,
        kind=kind,
        text=text,
        data=json.dumps(dict(data), ensure_ascii=False, default=str) if data else "",
    )


def claim_record(record: Record, **changes) -> None:
    stale = f"O {record.reference} foi alterado em outra mesa; reabra-o para ver a situação atual."
    update_versioned(record, stale, **changes)
    record.version += 1
    for key, value in changes.items():
        setattr(record, key, value)


def acting_user(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(by)


def fine_label(record: Record) -> str:
    return f"Multa — {record.reference} ({record.offender_name})"
