"""The tables of collection (issue 30): guias and their charges, the bank's return files, reversals and credits.
Schema v29 (models.store.schema); where each payment came from is on the payment's own row since v33."""

from __future__ import annotations

from typing import TYPE_CHECKING

from peewee import CharField, DateField, DateTimeField, ForeignKeyField, IntegerField, TextField

from models.base import clock
from models.billing.charges import Charge, Payment
from models.registry.people import Company, Person
from models.store.db import BaseModel, MoneyField

GUIA_STATUSES = {"open": "em aberto", "paid": "paga", "replaced": "substituída", "cancelled": "cancelada"}


class Guia(BaseModel):
    """A guia (DAM): one or more open charges of one payer, with the barcode and the Pix that pay them. Issued,
    never edited; a second copy is a new guia and this one is ``replaced``."""

    number = CharField(max_length=16, unique=True)  # AAAA/NNNNNN, counter guia-AAAA
    person = ForeignKeyField(Person, null=True, backref="guias", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="guias", on_delete="RESTRICT")
    payer_name = CharField(max_length=200)
    payer_document = CharField(max_length=14)  # CPF or CNPJ, compact
    regime = CharField(max_length=64)
    amount = MoneyField()
    due_on = DateField()
    barcode = CharField(max_length=44, unique=True)
    txid = CharField(max_length=25, unique=True)
    pix = TextField(default="")  # the BR Code (copia e cola); "" when no Pix key is set
    agreement = CharField(max_length=4)
    status = CharField(max_length=12, default="open", index=True)  # open, replaced, cancelled (paid: guia_state)
    issued_at = DateTimeField(default=clock.now)
    issued_on = DateField()
    issued_by = CharField(max_length=100)
    replaces = CharField(max_length=16, default="")  # the number of the guia this one replaces
    replaced_by = CharField(max_length=16, default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        person_id: int | None
        company_id: int | None

    class Meta:
        table_name = "guia"

    @property
    def status_label(self) -> str:
        return GUIA_STATUSES.get(self.status, self.status)


class GuiaCharge(BaseModel):
    """A charge a guia pays, with the amount it carries for it."""

    guia = ForeignKeyField(Guia, backref="items", on_delete="RESTRICT")
    charge = ForeignKeyField(Charge, backref="guia_items", on_delete="RESTRICT")
    amount = MoneyField()

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        guia_id: int
        charge_id: int

    class Meta:
        table_name = "guia_charge"
        indexes = ((("guia", "charge"), True),)


class ReturnFile(BaseModel):
    """A bank's return file imported (FEBRABAN arrecadação): the same agreement and NSA never twice."""

    agreement = CharField(max_length=20)
    nsa = IntegerField()
    generated_on = DateField()
    layout = CharField(max_length=2, default="")
    bank = CharField(max_length=40, default="")
    file_name = CharField(max_length=255)
    sha256 = CharField(max_length=64)
    records = IntegerField()
    total = MoneyField()
    imported_at = DateTimeField(default=clock.now)
    imported_by = CharField(max_length=100)

    class Meta:
        table_name = "return_file"
        indexes = ((("agreement", "nsa"), True),)


class Reversal(BaseModel):
    """A payment reversed (estorno): a new act referring to the payment, never an edit of it."""

    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN, counter reversal-AAAA
    payment = ForeignKeyField(Payment, backref="reversals", unique=True, on_delete="RESTRICT")
    amount = MoneyField()
    reason = TextField()
    reversed_on = DateField()
    reversed_at = DateTimeField(default=clock.now)
    reversed_by = CharField(max_length=100)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        payment_id: int

    class Meta:
        table_name = "payment_reversal"


class Credit(BaseModel):
    """What a payer paid beyond a charge (or a guia paid twice): to refund or to use on the payer's next charge."""

    payment = ForeignKeyField(Payment, null=True, backref="credits", on_delete="RESTRICT")
    guia = ForeignKeyField(Guia, null=True, backref="credits", on_delete="RESTRICT")
    return_file = ForeignKeyField(ReturnFile, null=True, backref="credits", on_delete="RESTRICT")
    record = IntegerField(null=True)
    person = ForeignKeyField(Person, null=True, backref="credits", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="credits", on_delete="RESTRICT")
    amount = MoneyField()
    status = CharField(max_length=10, default="open")  # open, used, refunded, reversed (balance: its CreditUse rows)
    arisen_on = DateField(index=True)  # the date of the payment that left it (the month it is reported in)
    created_at = DateTimeField(default=clock.now)
    note = TextField(default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        payment_id: int | None
        guia_id: int | None
        return_file_id: int | None
        person_id: int | None
        company_id: int | None

    class Meta:
        table_name = "credit"


class DebtInscription(BaseModel):
    """A charge inscribed in dívida ativa (Lei 6.830/1980, art. 2º, § 5º, V: the inscription's date and number)."""

    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN, counter dividas-AAAA
    charge = ForeignKeyField(Charge, backref="inscriptions", unique=True, on_delete="RESTRICT")
    inscribed_on = DateField()
    as_of = DateField()
    original = MoneyField()
    updated = MoneyField()
    file_name = CharField(max_length=255, default="")
    inscribed_at = DateTimeField(default=clock.now)
    inscribed_by = CharField(max_length=100)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        charge_id: int

    class Meta:
        table_name = "debt_inscription"


CREDIT_USES = {"apply": "usado na cobrança", "refund": "devolvido"}


class CreditUse(BaseModel):
    """A use of a payer's credit (issue 30 §5): applied to a charge — the payment it made there — or refunded; a new
    act referring to the credit, never an edit of it. The credit's balance is its amount less its uses (a use whose
    payment was reversed gives its amount back)."""

    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN, counter credit-use-AAAA
    credit = ForeignKeyField(Credit, backref="uses", on_delete="RESTRICT")
    kind = CharField(max_length=8)  # apply, refund
    charge = ForeignKeyField(Charge, null=True, backref="credit_uses", on_delete="RESTRICT")
    payment = ForeignKeyField(Payment, null=True, unique=True, backref="credit_uses", on_delete="RESTRICT")
    amount = MoneyField()
    used_on = DateField(index=True)
    used_at = DateTimeField(default=clock.now)
    used_by = CharField(max_length=100)
    reason = TextField(default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        credit_id: int
        charge_id: int | None
        payment_id: int | None

    class Meta:
        table_name = "credit_use"

    @property
    def kind_label(self) -> str:
        return CREDIT_USES.get(self.kind, self.kind)


#: The tables of schema v29 (models.store.schema._v29_collection) — and ``payment_source``, folded into the payment's
#: row in v33 —; :class:`CreditUse` came in v30.
V29_TABLES = [Guia, GuiaCharge, ReturnFile, Reversal, Credit, DebtInscription]
TABLES = [*V29_TABLES, CreditUse]
