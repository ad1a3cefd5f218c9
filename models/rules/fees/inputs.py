"""The caller's inputs, checked (:class:`Inputs`: sizes to the centimetre, days, amounts), and the small
pieces each fee kind writes its line with (a size in a formula, an amount, the year, the due date, the
full citation).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from models.base.errors import UserError
from models.base.money import format_brl, format_decimal_br, format_factor, to_decimal
from models.rules.fees.results import CENT_Q, UnitOverrides
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.model import Amount, Choice, Equipment, Fee, Line, Venue

# --------------------------------------------------------------------------- helpers


def regime_of(regime: Regime | str) -> Regime:
    return regime if isinstance(regime, Regime) else get_regime(regime)


#: Sizes are measured to the centimetre (areas to the hundredth of m²): the formula shows two places
#: and must reproduce the amount, so more places are refused rather than hidden.
SIZE_PLACES = 2
#: Sanity limits: a stall or an area beyond them is a typing mistake, not a measure.
MAX_METRES = Decimal(100)
MAX_AREA = Decimal(10000)


def measured(
    value: Any, what: str, field_name: str, *, allow_zero: bool = False, unit: str = "metros"
) -> Decimal | None:
    if value is None:
        return None
    try:
        number = to_decimal(value)
    except UserError:
        raise UserError(
            f"Valor inválido para {what.lower()}: {value!s} não é um número (use, por exemplo, 2,50).", field=field_name
        ) from None
    if number < 0 or (number == 0 and not allow_zero):
        limit = "maior ou igual a zero" if allow_zero else "maior que zero"
        raise UserError(
            f"Valor inválido para {what.lower()}: {format_factor(number)} — informe um valor {limit}, em {unit}.",
            field=field_name,
        )
    area = unit == "m²"
    ceiling = MAX_AREA if area else MAX_METRES
    if number > ceiling:  # first: a number of forty digits cannot even be rounded to the centimetre
        symbol = "m²" if area else "m"
        shown = in_formula(number) if number.adjusted() < 12 else str(value)  # as typed, when too long to round
        raise UserError(
            f"Valor inválido para {what.lower()}: {shown} {symbol} — acima de "
            f"{format_decimal_br(ceiling, 0)} {symbol}; confira a medida (em {unit}).",
            field=field_name,
        )
    if number != number.quantize(Decimal(1).scaleb(-SIZE_PLACES)):
        precision = "" if area else " (centímetros)"
        raise UserError(
            f"Valor inválido para {what.lower()}: {format_factor(number)} — informe no máximo duas "
            f"casas decimais{precision}.",
            field=field_name,
        )
    return number


def day_count(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            number = to_decimal(value)
        except TypeError:
            raise UserError(f"Número de dias inválido: {value!r}", field="days") from None
        if number != number.to_integral_value():
            raise UserError(f"Número de dias inválido: {value!r} (use um número inteiro)", field="days")
        value = int(number)
    if value < 1:
        raise UserError(f"Número de dias inválido: {value} (mínimo 1)", field="days")
    return int(value)  # an int already (a bool was refused above)


#: the periods a formula may count a price in (the desk's names), with how a message and a line say them
PERIODS = {
    "feira_days": ("o número de dias de feira", "dia de feira", "dias de feira"),
    "events": ("o número de eventos", "evento", "eventos"),
    "months": ("o número de meses", "mês", "meses"),
    "fiscal_years": ("o número de exercícios (anos fiscais)", "exercício", "exercícios"),
}


def period_counts(values: Mapping[str, Any]) -> dict[str, int]:
    """The periods given (``{"feira_days": 8}``), each a whole number from 1; anything else is one ``UserError``."""
    counted: dict[str, int] = {}
    for name, value in values.items():
        if value is None:
            continue
        what = PERIODS[name][0]
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                number = to_decimal(value)
            except (TypeError, UserError):
                raise UserError(f"Valor inválido para {what}: {value!r} (use um número inteiro).", field=name) from None
            if number != number.to_integral_value():
                raise UserError(f"Valor inválido para {what}: {value!r} (use um número inteiro).", field=name)
            value = int(number)
        if value < 1:
            raise UserError(f"Valor inválido para {what}: {value} (mínimo 1).", field=name)
        counted[name] = int(value)
    return counted


def period_text(name: str, count: int) -> str:
    """``8 dias de feira``, ``1 exercício``."""
    _what, one, many = PERIODS[name]
    return f"{count} {one if count == 1 else many}"


def in_formula(value: Decimal) -> str:
    """Metres / areas / R$ in formulas: two places (``4`` → ``4,00``), never fewer than the value has
    (a ``"0.125"`` in a regime file prints ``0,125``): the formula must reproduce the amount."""
    if value == value.quantize(CENT_Q):
        return format_decimal_br(value, 2)
    return format_factor(value.normalize())


def amount_txt(amount: Amount, currency: str = "R$") -> str:
    """``100 UFESP`` / ``R$ 150,00`` (in the act's money: ``currency``)."""
    if amount.unit == "BRL":
        return format_brl(amount.value, currency=currency)
    return f"{format_factor(amount.value)} {amount.unit}"


def year_for(fee: Fee, year: int | None) -> int:
    if year is not None:
        return year
    if fee.year is not None:
        return fee.year
    return dt.date.today().year


def due_text(fee: Fee) -> str | None:
    due = fee.due
    if due is None:
        return None
    if due.date is not None:
        return f"até {due.date.strftime('%d/%m/%Y')}"
    if due.day_of_month is not None:
        return f"até o dia {due.day_of_month} de cada mês"
    if due.days_after_issue is not None:
        n = due.days_after_issue
        return f"em até {n} dia{'s' if n != 1 else ''} após a emissão da guia"
    if due.hours_after_issue is not None:
        n = due.hours_after_issue
        return f"em até {n} hora{'s' if n != 1 else ''} após a emissão da guia"
    if due.at_each == "event":
        return "a cada evento, na montagem"
    if due.at_each == "feira-day":
        return "a cada dia de feira, na montagem"
    return None  # pragma: no cover - loader guarantees one


def amount_value(
    regime: Regime | str,
    amount: Amount,
    year: int,
    overrides: UnitOverrides | None = None,
) -> Decimal:
    """Exact (unrounded) value in R$ of an :class:`Amount` in one year."""
    regime = regime_of(regime)
    if amount.unit == "BRL":
        return amount.value
    return amount.value * regime.unit_value(amount.unit, year, overrides)


def unit_value_detail(regime: Regime, unit: str, year: int, overrides: UnitOverrides | None) -> str:
    if unit == "BRL":
        return ""
    value = regime.unit_value(unit, year, overrides)
    shown = format_brl(value, currency=regime.currency)
    return f"{unit} {year} = {shown} ({regime.unit_value_citation(unit, year, overrides)})"


def join_basis(regime: Regime, *bases: str | None) -> str:
    parts = [b for b in bases if b]
    seen: list[str] = []
    for part in parts:
        if part not in seen:
            seen.append(part)
    return regime.cite("; ".join(seen)) if seen else regime.short


# --------------------------------------------------------------------------- inputs


@dataclass
class Inputs:
    equipment: Equipment | None
    line: Line | None
    front: Decimal | None
    depth: Decimal | None
    hitch: Decimal | None
    area: Decimal | None
    mei: bool
    local: bool
    energy: str
    days: int | None
    venue: Venue | Choice | None
    year: int | None
    overrides: UnitOverrides | None
    index_factors: Mapping[str, Decimal]
    admin_values: Mapping[str, Decimal]
    exemption: str | None = None
    #: values the act's formulas ask for (``[[fees.inputs]]``), checked against their bounds, and who set them
    asked: Mapping[str, Decimal] = field(default_factory=dict)
    asked_by: str | None = None
    #: the periods counted (``feira_days``, ``events``, ``months``, ``fiscal_years``), as the formulas name them
    periods: Mapping[str, int] = field(default_factory=dict)

    def front_or_equipment(self) -> Decimal | None:
        if self.front is not None:
            return self.front
        if self.equipment is not None and self.equipment.front is not None:
            return self.equipment.front
        return None

    def depth_or_equipment(self) -> Decimal | None:
        if self.depth is not None:
            return self.depth
        if self.equipment is not None and self.equipment.depth is not None:
            return self.equipment.depth
        return None


def decimal_map(values: Mapping[str, Any] | None, what: str) -> dict[str, Decimal]:
    result: dict[str, Decimal] = {}
    for key, value in (values or {}).items():
        number = to_decimal(value)
        if number <= 0:
            raise UserError(f"{what} '{key}' inválido: {format_factor(number)} (deve ser maior que zero)")
        result[key] = number
    return result
