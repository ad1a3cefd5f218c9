"""An amount in fiscal units priced in R$ for a year (fines, a fixed fee): :func:`price_units`."""

from __future__ import annotations

from decimal import Decimal

from models.base.errors import UserError
from models.base.money import format_brl, format_factor, round_cents, to_decimal
from models.rules.fees.inputs import in_formula, regime_of, unit_value_detail
from models.rules.fees.results import TIMES, QuoteLine, UnitOverrides
from models.rules.regimes import (
    Regime,
)

# --------------------------------------------------------------------------- fines / units


def price_units(
    regime: Regime | str,
    n: Decimal | int | str,
    unit_code: str,
    year: int,
    overrides: UnitOverrides | None = None,
    *,
    label: str | None = None,
    basis: str | None = None,
) -> QuoteLine:
    """``n`` fiscal units of ``unit_code`` in ``year`` → R$ (``20 UFESP 2026`` → R$ 768,40).

    ``basis`` (an article of the act, e.g. ``"art. 14, I"``) names why the
    amount is due; the line's basis is then its full citation. Without it, the
    line cites where the unit's value comes from. A unit without a value for
    the year raises a ``UserError`` naming the unit and the year.
    """
    regime = regime_of(regime)
    count = to_decimal(n)
    if count < 0:
        raise UserError(f"Quantidade de {unit_code} inválida: {format_factor(count)}", field="units")
    value = regime.unit_value(unit_code, year, overrides)
    if unit_code == "BRL":
        formula = in_formula(count)
        citation = regime.cite(basis) if basis else regime.short
        details: tuple[str, ...] = ()
        label = label or format_brl(count)
    else:
        formula = f"{format_factor(count)}{TIMES}{format_factor(value)}"
        citation = regime.cite(basis) if basis else regime.unit_value_citation(unit_code, year, overrides)
        details = (unit_value_detail(regime, unit_code, year, overrides),)
        label = label or f"{format_factor(count)} {unit_code} de {year}"
    return QuoteLine(
        label=label,
        amount=round_cents(count * value),
        formula=formula,
        basis=citation,
        kind="charge",
        year=year,
        details=details,
    )
