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

STATE_ATTR = _STATE = "_state"  # where a charge keeps its ChargeState once read (a join's ``attr``)


class _StateColumn:
    """``charge.status`` / ``charge.paid_total``: read from the charge's :class:`ChargeState`, their one home since
    schema v32. On the class it is an error, not a column: a query filters on ``ChargeState.status`` (joined: see
    :meth:`Charge.with_state`) — ``Charge.status == "open"`` would otherwise be a constant."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            raise AttributeError(f"Charge.{self.name} is ChargeState.{self.name} since schema v32: join charge_state")
        return getattr(instance.state, self.name)

    def __set__(self, instance, value) -> None:
        setattr(instance.state, self.name, value)


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
    # status and paid_total: ChargeState (schema v32), read as ``charge.status`` / ``charge.paid_total``
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

    status = _StateColumn("status")
    paid_total = _StateColumn("paid_total")

    @classmethod
    def create(cls, **query):
        """A charge and its state (open, nothing paid unless given) — one transaction, both audited."""
        state = {name: query.pop(name) for name in ("status", "paid_total") if name in query}
        with cls._meta.database.atomic():
            charge = super().create(**query)
            charge.__dict__[_STATE] = ChargeState.create(
                charge=charge.id, due_on=charge.due_on, amount=charge.amount, **state
            )
        return charge

    @classmethod
    def with_state(cls, *fields):
        """``Charge.select(*fields)`` with each charge's state joined (no query per charge for its status); filter
        on ``ChargeState.status`` / ``ChargeState.paid_total``."""
        return cls.select(*(fields or (cls,)), ChargeState).join(ChargeState, attr=_STATE).switch(cls)

    @property
    def state(self) -> ChargeState:
        """What is paid and the status (read once; :meth:`with_state` reads it with the charge)."""
        found = self.__dict__.get(_STATE)
        if found is None:
            found = self.__dict__[_STATE] = ChargeState.get_by_id(self.id)
        return found

    @classmethod
    def join_state(cls, query):
        """``query`` (which selects ``ChargeState`` too) joined to each charge's state, kept on the charge."""
        return query.join(ChargeState, on=(ChargeState.charge == cls.id), attr=_STATE)

    def forget_state(self) -> None:
        """Read the state again at the next use (another desk or a bulk statement changed it)."""
        self.__dict__.pop(_STATE, None)

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
        return self.state.open_amount  # the state holds the charge's amount too


class ChargeState(BaseModel):
    """What is paid on a charge and its status — the one home of both (schema v32), one narrow row per charge.

    A payment, a reversal, a credit used, a cancellation or an inscription in dívida ativa changes this row, never
    the charge's (about 1 KB with its frozen line, and on PostgreSQL in thirteen indexes, so every such update was
    a write in all of them; issue 30). The charge's amount and due date are copied here, never changed, so the
    Painel's and the reports' sums read this table's indexes only. Audited as every table is; ``version`` is the
    optimistic lock of payments and cancellations."""

    #: the charge's id is the state's (column ``id``, so the trail names the charge's number the same way)
    charge = ForeignKeyField(Charge, primary_key=True, column_name="id", backref="+", on_delete="RESTRICT")
    status = CharField(max_length=12, default="open", index=True)
    paid_total = MoneyField(default=0)
    due_on = DateField()  # the charge's (never changed)
    amount = MoneyField()  # the charge's (never changed)
    version = IntegerField(default=1)

    class Meta:
        table_name = "charge_state"

    @property
    def open_amount(self) -> Decimal:
        if self.status == "cancelled":
            return ZERO
        return max(self.amount - self.paid_total, ZERO)


# The Painel's and the reports' sums read indexes only (schema v14, moved to the state in v32): the month's
# figures by due date, and the open charges — a small part of a town's, which grows by tens of thousands a year.
ChargeState.add_index(
    ChargeState.index(
        ChargeState.due_on,
        ChargeState.status,
        ChargeState.amount,
        ChargeState.paid_total,
        name="charge_state_due_on_figures",
        safe=True,
    )
)
ChargeState.add_index(
    ChargeState.index(
        ChargeState.due_on, ChargeState.amount, ChargeState.paid_total, name="charge_state_open_by_due_on", safe=True
    ).where(ChargeState.status == "open")
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
    # Where it came from (schema v33; the table ``payment_source`` before): ``channel`` "" typed at the desk, "bank"
    # (a return file's record), "pix" (a statement's credit) or "credit" (a payer's credit used). The guia and the
    # file are the collection's (models.billing.collection.tables) and are kept by id: a return file of 10.000
    # records is written with no more per-row checks than the charge's key — the database itself matched each guia
    # by its barcode (kept here too) and made the file's row in the same transaction, and a payment is never edited.
    channel = CharField(max_length=8, default="")
    guia_id = IntegerField(null=True)
    return_file_id = IntegerField(null=True)
    record = IntegerField(null=True)  # the G record's sequence in the file
    barcode = CharField(max_length=44, default="")
    credited_on = DateField(null=True)
    fee = MoneyField(default=0)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        charge_id: int

    class Meta:
        table_name = "payment"
        indexes = ((("charge", "reference"), True),)
