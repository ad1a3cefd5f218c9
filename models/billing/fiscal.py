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
from typing import TYPE_CHECKING

from peewee import CharField, DateTimeField, IntegerField, TextField

from models.access.session import acting, require
from models.base.errors import UserError
from models.base.money import format_brl, parse_typed
from models.store.db import BaseModel, DecimalTextField, MoneyField, db

if TYPE_CHECKING:
    from models.rules.regimes import Regime
    from models.rules.regimes.model import UnitValue

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
    origin: str  # "ato" (a regime file) | "cadastro" (entered by the clerk)
    source: str  # the citation, or "fulano em 01/02/2026 10:00 — fonte: …"
    file_value: Decimal | None  # what the acts say, when a clerk's value overrides it
    fixed_by: tuple[str, ...] = ()  # acts that fix this value themselves (their value prevails for them)


def _regimes_using(unit: str) -> list[Regime]:
    from models.rules.regimes import shipped_regimes

    return [r for r in shipped_regimes().values() if unit in r.units_by_code]


def set_unit_value(regime, unit: str, year: int, value, *, entered_by: str, reason: str = "") -> FiscalUnitValue:
    """Record the value of ``unit`` in ``year`` (a new row; old ones stay).

    A fiscal unit is one value for every regime that uses it (UFESP is the
    State's); ``regime`` only says from where it was entered. An act that
    fixes the value itself keeps its own (see ``unit_overrides``).
    """
    require("settings.edit")
    regime.unit(unit)  # a unit the regime does not declare is refused with the options
    if not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
        raise UserError(f"Ano inválido: {year} (entre {MIN_YEAR} e {MAX_YEAR}).", field="year")
    amount = parse_typed(value, what="Valor da unidade fiscal", field="value")
    if amount <= 0:
        raise UserError("O valor da unidade fiscal deve ser maior que zero.", field="value")
    if amount != amount.quantize(Decimal("0.01")):
        raise UserError("Informe o valor em reais com no máximo duas casas decimais.", field="value")
    source = (reason or "").strip()
    if not source:
        raise UserError("Informe a fonte do valor (comunicado, decreto, portaria…).", field="reason")
    who = acting(entered_by)  # the session's user (issue 16 §4)
    if not who:
        raise UserError("Informe quem está cadastrando o valor.", field="entered_by")
    with db.atomic():
        return FiscalUnitValue.create(
            regime=regime.id, unit=unit, year=year, value=amount, entered_by=who, reason=source
        )


def _newest_entered(unit: str | None = None) -> dict[tuple[str, int], FiscalUnitValue]:
    query = FiscalUnitValue.select().order_by(FiscalUnitValue.id)  # the row saved last wins (not a desk's clock)
    if unit is not None:
        query = query.where(FiscalUnitValue.unit == unit)
    return {(row.unit, row.year): row for row in query}


def unit_overrides(regime_id: str) -> dict[tuple[str, int], Decimal]:
    """``{(unit, year): value}`` entered by clerks for the units of one regime — the newest row wins.

    A value the act itself fixes (a file value with an article, like São
    Bento's "UFESP fixada para 2026 em R$ 38,42", art. 9º, § 2º) is not
    overridden for that act.
    """
    from models.rules.regimes import get_regime

    regime = get_regime(regime_id)
    found: dict[tuple[str, int], Decimal] = {}
    for (unit, year), row in _newest_entered().items():
        declared = regime.units_by_code.get(unit)
        if declared is None:
            continue
        in_file = declared.value_for(year)
        if in_file is not None and in_file.basis:
            continue
        found[(unit, year)] = row.value
    return found


def unit_value_history(unit: str, year: int) -> list[FiscalUnitValue]:
    """Every value entered for one unit and year, newest first."""
    return list(
        FiscalUnitValue.select()
        .where((FiscalUnitValue.unit == unit) & (FiscalUnitValue.year == year))
        .order_by(FiscalUnitValue.id.desc())
    )


def unit_value_rows(unit: str) -> list[UnitValueRow]:
    """Every known value of ``unit`` by year: the acts', overridden by the clerk's."""
    regimes = _regimes_using(unit)
    newest = _newest_entered(unit)
    in_files: dict[int, list[tuple[Regime, UnitValue]]] = {}
    for regime in regimes:
        for value in regime.units_by_code[unit].values:
            in_files.setdefault(value.year, []).append((regime, value))
    rows: list[UnitValueRow] = []
    for year in sorted(set(in_files) | {y for (_u, y) in newest}):
        found = in_files.get(year, [])
        fixed_by = tuple(regime.short for regime, value in found if value.basis)
        entered = newest.get((unit, year))
        if entered is not None:
            source = f"{entered.entered_by} em {entered.entered_at:%d/%m/%Y %H:%M}"
            if entered.reason:
                source += f" — fonte: {entered.reason}"
            rows.append(
                UnitValueRow(
                    unit, year, entered.value, "cadastro", source, found[0][1].value if found else None, fixed_by
                )
            )
        else:
            regime, value = next(((r, v) for r, v in found if v.basis), found[0])
            source = regime.cite(value.basis) if value.basis else (value.source or "")
            rows.append(UnitValueRow(unit, year, value.value, "ato", source, None, fixed_by))
    return rows


def unit_value_warnings(unit: str, year: int, value) -> list[str]:
    """What a clerk should confirm before recording a value: it replaces one, or looks like a typo."""
    try:
        amount = parse_typed(value)
    except (TypeError, ValueError, UserError):
        return []
    warnings = []
    rows = {row.year: row for row in unit_value_rows(unit)}
    current = rows.get(year)
    if current is not None:
        warnings.append(
            f"{unit} {year} já vale {format_brl(current.value)} ({current.source}); o novo valor o substitui."
        )
    if current is not None and current.fixed_by:
        warnings.append(f"Para {', '.join(current.fixed_by)} vale o valor fixado pelo próprio ato.")
    previous = rows.get(year - 1)
    if previous is not None and previous.value > 0:
        change = (amount - previous.value) / previous.value
        if abs(change) > Decimal("0.30"):
            warnings.append(
                f"O valor difere {abs(change) * 100:.0f} % do de {year - 1} ({format_brl(previous.value)}): "
                "confira se não há erro de digitação."
            )
    return warnings


class IndexCorrection(BaseModel):
    """The yearly correction of a price index (INPC…) applied from ``year`` on, e.g. 2015: 6,23 %.

    National indexes are the same for every regime, so rows are per index code.
    Never edited: the newest row for (index, year) wins.
    """

    index = CharField(max_length=16)  # type: ignore[assignment]  # the column "index", over peewee's Model.index()
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
    require("settings.edit")
    code = (index or "").strip().upper()
    if not code:
        raise UserError("Informe o índice (ex.: INPC).", field="index")
    if not isinstance(year, int) or not MIN_YEAR <= year <= MAX_YEAR:
        raise UserError(f"Ano inválido: {year} (entre {MIN_YEAR} e {MAX_YEAR}).", field="year")
    pct = parse_typed(percent, what="Percentual de correção", field="rate")
    if not Decimal("-50") < pct < Decimal("100"):
        raise UserError("O percentual de correção deve estar entre -50 % e 100 %.", field="rate")
    who = acting(entered_by)  # the session's user (issue 16 §4)
    if not who:
        raise UserError("Informe quem está cadastrando a correção.", field="entered_by")
    with db.atomic():
        return IndexCorrection.create(
            index=code, year=year, rate=pct / 100, entered_by=who, reason=(reason or "").strip()
        )


def index_corrections(index: str) -> dict[int, IndexCorrection]:
    """The correction in force for each year of ``index`` (the newest row per year)."""
    found: dict[int, IndexCorrection] = {}
    query = IndexCorrection.select().where(IndexCorrection.index == index.upper()).order_by(IndexCorrection.id)
    for row in query:
        found[row.year] = row
    return dict(sorted(found.items()))


def index_factor(index: str, base_year: int, year: int) -> IndexFactor:
    """Accumulated factor: the product of (1 + correction) for each year after ``base_year`` up to ``year``."""
    from models.rules.describe import percent

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
