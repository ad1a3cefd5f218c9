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

from models.db import BaseModel, DecimalTextField, MoneyField, db
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


class IndexCorrection(BaseModel):
    """The yearly correction of a price index (INPC…) applied from ``year`` on, e.g. 2015: 6,23 %.

    National indexes are the same for every regime, so rows are per index code.
    Never edited: the newest row for (index, year) wins.
    """

    index = CharField(max_length=16)
    year = IntegerField()
    rate = DecimalTextField(max_length=32)  # fraction: 6,23 % → Decimal("0.0623")
    entered_by = CharField(max_length=100)
    entered_at = DateTimeField(default=lambda: _dt.datetime.now().replace(microsecond=0))
    reason = TextField(default="")

    class Meta:
        table_name = "index_correction"
        indexes = ((("index", "year"), False),)


@dataclass(frozen=True)
class IndexFactor:
    """The accumulated correction of ``index`` from ``base_year`` to ``year``, with how it was made."""

    index: str
    base_year: int
    year: int
    factor: Decimal
    formula: str  # "(1 + 6,23 %) × (1 + 11,28 %) × …"
    missing: tuple[int, ...]  # years without a correction (factor is then unusable)


def set_index_correction(index: str, year: int, percent, *, entered_by: str, reason: str = "") -> IndexCorrection:
    """Record the correction (in percent, e.g. "6,23") applied to values of ``index`` from ``year`` on."""
    code = (index or "").strip().upper()
    if not code:
        raise UserError("Informe o índice (ex.: INPC).", field="index")
    if not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
        raise UserError(f"Ano inválido: {year} (entre {MIN_YEAR} e {MAX_YEAR}).", field="year")
    try:
        pct = to_decimal(percent)
    except (TypeError, ValueError, UserError) as exc:
        raise UserError(f"Percentual inválido: {percent!s} (use, por exemplo, 6,23).", field="rate") from exc
    if not Decimal("-50") < pct < Decimal("100"):
        raise UserError("O percentual de correção deve estar entre -50 % e 100 %.", field="rate")
    who = (entered_by or "").strip()
    if not who:
        raise UserError("Informe quem está cadastrando a correção.", field="entered_by")
    with db.atomic():
        return IndexCorrection.create(index=code, year=year, rate=pct / 100, entered_by=who,
                                      reason=(reason or "").strip())


def index_corrections(index: str) -> dict[int, IndexCorrection]:
    """The correction in force for each year of ``index`` (the newest row per year)."""
    found: dict[int, IndexCorrection] = {}
    query = (IndexCorrection.select().where(IndexCorrection.index == index.upper())
             .order_by(IndexCorrection.entered_at, IndexCorrection.id))
    for row in query:
        found[row.year] = row
    return dict(sorted(found.items()))


def index_factor(index: str, base_year: int, year: int) -> IndexFactor:
    """Accumulated factor: the product of (1 + correction) for each year after ``base_year`` up to ``year``."""
    from models.describe import percent

    rows = index_corrections(index)
    factor = Decimal(1)
    parts, missing = [], []
    for y in range(base_year + 1, year + 1):
        row = rows.get(y)
        if row is None:
            missing.append(y)
            continue
        factor *= 1 + row.rate
        parts.append(f"(1 + {percent(row.rate)})")
    return IndexFactor(index.upper(), base_year, year, factor, " × ".join(parts) or "1", tuple(missing))
