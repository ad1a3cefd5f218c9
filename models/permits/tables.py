"""The permit's tables and their vocabulary: statuses, event kinds, origins, revocation grounds.

Bottom of the package: imports the registry's tables (people, applications) and the store, no workflow.
"""

from __future__ import annotations

import json
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

from models.base import clock
from models.registry.applications import Application
from models.registry.people import Company, Person
from models.store.db import BaseModel, DecimalTextField

STATUSES = {
    "active": "ativa",
    "suspended": "suspensa",
    "revoked": "cassada",
    "cancelled": "cancelada",
    "expired": "vencida",
    "superseded": "substituída",
}


#: Statuses of a permit its holder still holds (counted by one-per rules, caps and quotas).
LIVE_STATUSES = ("active", "suspended")


EVENT_KINDS = {
    "issued": "emissão",
    "suspended": "suspensão",
    "reactivated": "reativação",
    "revoked": "cassação",
    "cancelled": "cancelamento",
    "expired": "vencimento",
    "renewed": "renovação",
    "leave": "descanso/afastamento",
    "transfer": "transferência",
    "exchange": "permuta de locais",
    "started": "início das atividades",
    "picked-up": "retirada do alvará",
    "startup-extended": "prorrogação do prazo de início",
}


ORIGINS = {
    "application": "requerimento",
    "renewal": "renovação",
    "transfer": "transferência",
    "exchange": "permuta",
    "import": "importação",  # an existing permit brought from the town's list (models/services/importer/)
}


# revocation grounds that the eligibility history tells apart
GROUND_ABANDONMENT = "abandonment"


GROUND_HOLDER_REQUEST = "holder-request"


class Permit(BaseModel):
    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN
    year = IntegerField()
    seq = IntegerField()
    application = ForeignKeyField(Application, null=True, unique=True, backref="permits", on_delete="RESTRICT")
    previous = ForeignKeyField("self", null=True, backref="successors", on_delete="RESTRICT")
    origin = CharField(max_length=16, default="application")
    regime = CharField(max_length=64, index=True)
    permit_kind = CharField(max_length=64)
    person = ForeignKeyField(Person, null=True, backref="permits", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="permits", on_delete="RESTRICT")
    site = CharField(max_length=200, default="")
    point = CharField(max_length=64, default="")  # stall / point within the site
    line = CharField(max_length=64, default="")
    group = CharField(max_length=64, default="")
    section = CharField(max_length=64, default="")
    equipment = CharField(max_length=64, default="")
    front = DecimalTextField(max_length=20, null=True)
    depth = DecimalTextField(max_length=20, null=True)
    hitch = DecimalTextField(max_length=20, null=True)
    days_hours = TextField(default="")
    quota = BooleanField(default=False)  # holds a place reserved by a quota rule
    valid_from = DateField()
    valid_until = DateField(index=True)
    status = CharField(max_length=16, default="active", index=True)
    status_at = DateTimeField(default=clock.now)
    issued_on = DateField()
    issued_at = DateTimeField(default=clock.now)
    issued_by = CharField(max_length=100)
    qr_text = TextField(default="")
    notes = TextField(default="")
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        application_id: int | None
        previous_id: int | None
        person_id: int | None
        company_id: int | None

    class Meta:
        table_name = "permit"

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def holder_ref(self) -> tuple[str, int]:
        """``("person", id)`` or ``("company", id)``: whom the permit is for."""
        if self.person_id:
            return "person", self.person_id
        assert self.company_id is not None  # a permit names a person or a company
        return "company", self.company_id

    @property
    def holder_name(self) -> str:
        if self.person is not None:  # no query when the key is empty
            return self.person.name
        return self.company.legal_name if self.company is not None else ""

    @property
    def origin_label(self) -> str:
        return ORIGINS.get(self.origin, self.origin)


class PermitEvent(BaseModel):
    """One fact of a permit's life: who, when, what, why — never edited nor deleted."""

    permit = ForeignKeyField(Permit, backref="events", on_delete="RESTRICT")
    at = DateTimeField(default=clock.now)  # when it was recorded
    on = DateField()  # the date that counts (deadlines, waiting periods)
    by = CharField(max_length=100)
    kind = CharField(max_length=20, index=True)
    status_from = CharField(max_length=16, default="")
    status_to = CharField(max_length=16, default="")
    reason = TextField(default="")
    ground = CharField(max_length=32, default="")
    start = DateField(null=True)
    end = DateField(null=True)
    other = ForeignKeyField(Permit, null=True, backref="mentions", on_delete="RESTRICT")
    data = TextField(default="")  # JSON: substitute, basis…

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        permit_id: int
        other_id: int | None

    class Meta:
        table_name = "permit_event"

    @property
    def kind_label(self) -> str:
        return EVENT_KINDS.get(self.kind, self.kind)

    @property
    def details(self) -> dict:
        return json.loads(self.data) if self.data else {}


class PermitDocument(BaseModel):
    """A document delivered after the application — with a renewal (a new health certificate…) — never edited."""

    permit = ForeignKeyField(Permit, backref="documents", on_delete="RESTRICT")
    document = CharField(max_length=64)  # id from the regime's [[documents]]
    delivered_on = DateField()
    valid_until = DateField(null=True)
    file_path = CharField(max_length=300, default="")
    sha256 = CharField(max_length=64, default="")
    original_name = CharField(max_length=300, default="")
    recorded_at = DateTimeField(default=clock.now)
    recorded_by = CharField(max_length=100)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        permit_id: int

    class Meta:
        table_name = "permit_document"


class RenewalDecree(BaseModel):
    """The Executive's decree that sets the renewal window where the act leaves it to a decree (``renewal =
    { by_decree = true }``): for the permits of a kind whose validity ends in ``year``, renewal is asked from
    ``opens`` to ``closes`` (both included). Recorded at the desk with the decree's number and date and who recorded
    it — Praça never invents the window; one decree per act, kind and year (a later decree is a correction: recorded
    anew, the old row kept with ``replaced_by``)."""

    regime = CharField(max_length=64, index=True)
    permit_kind = CharField(max_length=64)
    year = IntegerField()
    number = CharField(max_length=100)  # "Decreto nº 1.234/2026"
    decree_date = DateField()
    opens = DateField()
    closes = DateField()
    recorded_by = CharField(max_length=100)
    recorded_at = DateTimeField(default=clock.now)
    notes = TextField(default="")
    replaced_by = IntegerField(null=True)  # the id of the decree recorded in its place

    class Meta:
        table_name = "renewal_decree"
