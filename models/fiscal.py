"""Fiscal-unit values entered by the clerk.

A regime file carries the values the act (or the State) publishes; a value
entered here for the same unit and year overrides it, and the row keeps who
entered it and when. Rows are never edited: a correction is a new row, and the
newest row for a (regime, unit, year) wins.
"""

from __future__ import annotations

import datetime as _dt

from peewee import CharField, DateTimeField, IntegerField, TextField

from models.db import BaseModel, MoneyField


class FiscalUnitValue(BaseModel):
    regime = CharField(max_length=64, index=True)
    unit = CharField(max_length=16)
    year = IntegerField()
    value = MoneyField()
    entered_by = CharField(max_length=100)
    entered_at = DateTimeField(default=lambda: _dt.datetime.now().replace(microsecond=0))
    reason = TextField(default="")

    class Meta:
        table_name = "fiscal_unit_value"
        indexes = ((("regime", "unit", "year"), False),)
