"""People and companies: the applicants and holders of permits."""

from __future__ import annotations

import datetime as _dt

from peewee import BooleanField, CharField, DateField, DateTimeField, IntegerField, TextField

from models.db import BaseModel


def _now() -> _dt.datetime:
    return _dt.datetime.now().replace(microsecond=0)


class Person(BaseModel):
    """A natural person (pessoa física)."""

    name = CharField(max_length=200, index=True)
    cpf = CharField(max_length=11, unique=True)  # compact form
    rg = CharField(max_length=30, default="")
    birth_date = DateField(null=True)
    street = CharField(max_length=200, default="")
    number = CharField(max_length=20, default="")
    district = CharField(max_length=100, default="")
    city = CharField(max_length=100, default="")
    state = CharField(max_length=2, default="")
    zip_code = CharField(max_length=8, default="")
    phone = CharField(max_length=30, default="")
    email = CharField(max_length=200, default="")
    resident_since = DateField(null=True)
    notes = TextField(default="")
    created_at = DateTimeField(default=_now)
    version = IntegerField(default=1)

    class Meta:
        table_name = "person"


class Company(BaseModel):
    """A legal person (pessoa jurídica), MEI included."""

    cnpj = CharField(max_length=14, unique=True)  # compact form, letters allowed
    legal_name = CharField(max_length=200, index=True)
    trade_name = CharField(max_length=200, default="")
    mei = BooleanField(default=False)
    municipal_registration = CharField(max_length=40, default="")
    street = CharField(max_length=200, default="")
    number = CharField(max_length=20, default="")
    district = CharField(max_length=100, default="")
    city = CharField(max_length=100, default="")
    state = CharField(max_length=2, default="")
    zip_code = CharField(max_length=8, default="")
    phone = CharField(max_length=30, default="")
    email = CharField(max_length=200, default="")
    created_at = DateTimeField(default=_now)
    version = IntegerField(default=1)

    class Meta:
        table_name = "company"


def counts() -> dict[str, int]:
    """How many people and companies are registered (for the home page)."""
    return {"people": Person.select().count(), "companies": Company.select().count()}
