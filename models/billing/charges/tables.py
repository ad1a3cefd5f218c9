"""Charges and payments: the two tables and their vocabulary (kinds, statuses)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from peewee import (
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
)

from models.base import clock
from models.permits import Permit
from models.registry.applications import Application
from models.registry.people import Company, Person
from models.store.db import BaseModel, MoneyField

KINDS = {
    "monthly": "mensalidade",
    "event": "preço por evento / avulso",
    "yearly": "preço público anual",
    "venue": "taxa de uso de imóvel público",
    "deposit": "caução",
    "fine": "multa",
    "depot": "diária de depósito",
    "other": "outra",
    "late": "multa e juros de mora",
}


STATUSES = {
    "open": "em aberto",
    "paid": "paga",
    "cancelled": "cancelada",
    "inscribed": "inscrita em dívida ativa",  # issue 30 §6: still owed, collected by the dívida ativa
}


ZERO = Decimal("0.00")


class Charge(BaseModel):
    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN, counter charge-AAAA
    key = CharField(max_length=80, null=True, unique=True)  # generation key: a month never charged twice
    kind = CharField(max_length=16, index=True)
    regime = CharField(max_length=64, index=True)
    permit = ForeignKeyField(Permit, null=True, backref="charges", on_delete="RESTRICT")
    application = ForeignKeyField(Application, null=True, backref="charges", on_delete="RESTRICT")
    person = ForeignKeyField(Person, null=True, backref="charges", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="charges", on_delete="RESTRICT")
    fee = CharField(max_length=64, default="")
    label = CharField(max_length=200)
    period = CharField(max_length=7, default="", index=True)  # AAAA-MM of a monthly fee
    amount = MoneyField()
    due_on = DateField()  # indexed by the two indexes below, both led by it
    formula = TextField(default="")
    basis = TextField(default="")
    detail = TextField(default="")  # JSON of the fee engine's line, frozen
    status = CharField(max_length=12, default="open", index=True)
    paid_total = MoneyField(default=0)
    created_at = DateTimeField(default=clock.now)
    created_on = DateField()
    created_by = CharField(max_length=100)
    cancelled_at = DateTimeField(null=True)
    cancelled_by = CharField(max_length=100, default="")
    cancel_reason = TextField(default="")
    returned_on = DateField(null=True)  # a deposit given back
    returned_by = CharField(max_length=100, default="")
    returned_note = TextField(default="")
    source = CharField(max_length=64, default="")  # e.g. an infraction record's number
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        permit_id: int | None
        application_id: int | None
        person_id: int | None
        company_id: int | None

    class Meta:
        table_name = "charge"

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def debtor_name(self) -> str:
        if self.person is not None:  # no query when the key is empty
            return self.person.name
        return self.company.legal_name if self.company is not None else ""

    @property
    def open_amount(self) -> Decimal:
        if self.status == "cancelled":
            return ZERO
        return max(self.amount - self.paid_total, ZERO)


# The Painel's and the reports' sums read indexes only (schema v14): the month's figures by due date, and the
# open charges — a small part of a town's, which grows by tens of thousands a year — with what the overdue total
# and the arrears list need.
Charge.add_index(
    Charge.index(
        Charge.due_on, Charge.status, Charge.amount, Charge.paid_total, name="charge_due_on_figures", safe=True
    )
)
Charge.add_index(
    Charge.index(
        Charge.due_on,
        Charge.kind,
        Charge.permit,
        Charge.fee,
        Charge.period,
        Charge.amount,
        Charge.paid_total,
        name="charge_open_by_due_on",
        safe=True,
    ).where(Charge.status == "open")
)


class Payment(BaseModel):
    """One payment of a charge: never edited; a slip is recorded once per charge (unique index)."""

    charge = ForeignKeyField(Charge, backref="payments", on_delete="RESTRICT")
    paid_on = DateField(index=True)
    amount = MoneyField()
    reference = CharField(max_length=64)  # the bank slip's number, or the receipt's
    recorded_at = DateTimeField(default=clock.now)
    recorded_by = CharField(max_length=100)
    note = TextField(default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        charge_id: int

    class Meta:
        table_name = "payment"
        indexes = ((("charge", "reference"), True),)
