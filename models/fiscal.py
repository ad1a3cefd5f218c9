"""Fiscal-unit values entered by the clerk.

A regime file carries the values the act (or the State) publishes; a value
entered here for the same unit and year overrides it, and the row keeps who
entered it and when. Rows are never edited: a correction is a new row, and the
newest row for a (regime, unit, year) wins.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal

from peewee import CharField, DateTimeField, IntegerField, TextField

from models.db import BaseModel, MoneyField, db
from models.errors import UserError
from models.money import to_decimal

MIN_YEAR = 1990
MAX_YEAR = 2100


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


@dataclass(frozen=True)
class UnitValueRow:
    """One (unit, year) as the screens show it: the value in force and where it comes from."""

    unit: str
    year: int
    value: Decimal
    origin: str  # "ato" (the regime file) | "cadastro" (entered by the clerk)
    source: str  # the citation, or "fulano em 01/02/2026 10:00"
    file_value: Decimal | None  # what the file says, when a clerk's value overrides it


def set_unit_value(regime, unit: str, year: int, value, *, entered_by: str, reason: str = "") -> FiscalUnitValue:
    """Record the value of ``unit`` in ``year`` for ``regime`` (a new row; old ones stay)."""
    regime.unit(unit)  # a unit the regime does not declare is refused with the options
    if not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
        raise UserError(f"Ano inválido: {year} (entre {MIN_YEAR} e {MAX_YEAR}).", field="year")
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError, UserError) as exc:
        raise UserError(f"Valor inválido: {value!s} (use, por exemplo, 38,42).", field="value") from exc
    if amount <= 0:
        raise UserError("O valor da unidade fiscal deve ser maior que zero.", field="value")
    if amount != amount.quantize(Decimal("0.01")):
        raise UserError("Informe o valor em reais com no máximo duas casas decimais.", field="value")
    who = (entered_by or "").strip()
    if not who:
        raise UserError("Informe quem está cadastrando o valor.", field="entered_by")
    with db.atomic():
        return FiscalUnitValue.create(regime=regime.id, unit=unit, year=year, value=amount,
                                      entered_by=who, reason=(reason or "").strip())


def unit_overrides(regime_id: str) -> dict[tuple[str, int], Decimal]:
    """``{(unit, year): value}`` entered by clerks for one regime — the newest row wins."""
    found: dict[tuple[str, int], Decimal] = {}
    query = (FiscalUnitValue.select()
             .where(FiscalUnitValue.regime == regime_id)
             .order_by(FiscalUnitValue.entered_at, FiscalUnitValue.id))
    for row in query:
        found[(row.unit, row.year)] = row.value
    return found


def unit_value_history(regime_id: str, unit: str, year: int) -> list[FiscalUnitValue]:
    """Every value entered for one unit and year, newest first."""
    return list(FiscalUnitValue.select()
                .where((FiscalUnitValue.regime == regime_id) & (FiscalUnitValue.unit == unit)
                       & (FiscalUnitValue.year == year))
                .order_by(FiscalUnitValue.entered_at.desc(), FiscalUnitValue.id.desc()))


def unit_value_rows(regime) -> list[UnitValueRow]:
    """Every known value of every unit of ``regime``: the file's, overridden by the clerk's."""
    newest: dict[tuple[str, int], FiscalUnitValue] = {}
    query = (FiscalUnitValue.select().where(FiscalUnitValue.regime == regime.id)
             .order_by(FiscalUnitValue.entered_at, FiscalUnitValue.id))
    for row in query:
        newest[(row.unit, row.year)] = row
    rows: list[UnitValueRow] = []
    for unit in regime.units:
        file_values = {v.year: v for v in unit.values}
        for year in sorted(set(file_values) | {y for (u, y) in newest if u == unit.code}):
            in_file = file_values.get(year)
            entered = newest.get((unit.code, year))
            if entered is not None:
                rows.append(UnitValueRow(
                    unit.code, year, entered.value, "cadastro",
                    f"{entered.entered_by} em {entered.entered_at:%d/%m/%Y %H:%M}",
                    in_file.value if in_file else None))
            else:
                source = regime.cite(in_file.basis) if in_file.basis else (in_file.source or "")
                rows.append(UnitValueRow(unit.code, year, in_file.value, "ato", source, None))
    return rows
