"""Quotes as the desks ask for them: the fee engine fed with what the database keeps.

The engine (``models.rules.fees``) is pure; this module adds the clerk's fiscal-unit
values (which prevail over the regime files) and the accumulated corrections of
price indexes, so the command line and the screens price exactly alike.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from decimal import ROUND_HALF_UP, Decimal

from models.base.errors import UserError
from models.base.money import format_brl, format_decimal_br
from models.billing.fiscal import IndexFactor, index_factor, unit_overrides
from models.rules.fees import Quote, fee_quote
from models.rules.regimes import Regime, check_in_force, get_regime

#: Accumulated index factors are kept to six decimal places (as published correction tables are).
FACTOR_PLACES = Decimal("0.000001")


class MissingCorrection(UserError):  # noqa: N818 - a public name the price simulator and the CLI catch
    """A yearly correction of a price index is not in the database for a year the quote needs.

    The message says what to enter, not where: the window and the command line each
    add how to enter it there. ``index``, ``years`` and ``base_year`` are kept apart."""

    def __init__(self, message: str, *, index: str, years: tuple[int, ...], base_year: int):
        super().__init__(message, field="index_factor")
        self.index = index
        self.years = years
        self.base_year = base_year


def _years_text(years: tuple[int, ...]) -> str:
    """``(2015, …, 2026)`` → ``"de 2015 a 2026"``; ``(2016, 2018)`` → ``"de 2016 e 2018"``."""
    if len(years) == 1:
        return f"de {years[0]}"
    if list(years) == list(range(years[0], years[-1] + 1)):
        return f"de {years[0]} a {years[-1]}"
    return "de " + ", ".join(str(y) for y in years[:-1]) + f" e {years[-1]}"


def regime_index_factors(regime: Regime, year: int) -> dict[str, IndexFactor]:
    """The accumulated factor of each index the regime names, from its base year to ``year``."""
    found = {}
    for index in regime.indexes:
        if year > index.base_year:
            found[index.code] = index_factor(index.code, index.base_year, year)
    return found


@dataclasses.dataclass(frozen=True)
class PriceBook:
    """What the database adds to one regime's prices for one year (the clerk's unit values, the index factors),
    read once for many quotes — the month's run prices thousands of permits with one book per regime."""

    regime_id: str
    year: int
    factors: dict[str, IndexFactor]
    usable: dict[str, Decimal]
    overrides: dict


def price_book(regime: Regime, year: int) -> PriceBook:
    factors = regime_index_factors(regime, year)
    usable = {
        code: f.factor.quantize(FACTOR_PLACES, rounding=ROUND_HALF_UP) for code, f in factors.items() if not f.missing
    }
    return PriceBook(regime.id, year, factors, usable, unit_overrides(regime.id))


def quote(
    regime: Regime | str,
    *,
    year: int | None = None,
    today: _dt.date | None = None,
    on: _dt.date | None = None,
    book: PriceBook | None = None,
    convert: bool = True,
    **inputs,
) -> Quote:
    """``fee_quote`` with the database's unit values and index corrections.

    ``on``: the day of the fact priced, refused before the act came into force.

    ``inputs`` are ``fee_quote``'s keyword arguments (equipment, line, front,
    depth, hitch, area, mei, local, energy, days, venue, permit_kind, fees,
    admin_values). An index correction that is missing for a year the quote
    needs is refused with the years to enter. ``book``: the regime's
    :class:`PriceBook` for the year, when the caller prices many stalls at once. ``convert`` False: in the act's
    own money even where a rule of it converts to reais (a figure that goes into another, converted once at the
    end: a fine that is a share of the licence).
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    if on is not None:
        check_in_force(regime, on, what="A data")
    target = year or (today or _dt.date.today()).year
    if book is None:
        book = price_book(regime, target)
    elif (book.regime_id, book.year) != (regime.id, target):
        raise ValueError(f"price book of {book.regime_id}/{book.year} used for {regime.id}/{target}")
    factors = book.factors
    try:
        result = fee_quote(regime, year=year, unit_overrides=book.overrides, index_factors=book.usable, **inputs)
    except UserError as exc:
        missing = [f for f in factors.values() if f.missing]
        if exc.field == "index_factor" and missing:
            f = missing[0]
            years = ", ".join(str(y) for y in f.missing)
            index = regime.index(f.index)
            raise MissingCorrection(
                f"Falta a correção do {f.index} para {years}: o valor do ato é de {f.base_year} e é corrigido "
                f"anualmente ({regime.cite_item(index)}). Cadastre a correção do {f.index} "
                f"{_years_text(tuple(f.missing))}, ou calcule para {f.base_year}.",
                index=f.index,
                years=tuple(f.missing),
                base_year=f.base_year,
            ) from None
        raise
    result = _explain_factors(result, factors)
    return converted(result, regime, on or today or _dt.date.today()) if convert else result


def converted(result: Quote, regime: Regime, day: _dt.date) -> Quote:
    """``result`` in reais where a rule of the act converts its money from a day on or before ``day`` (``[regime]
    conversion``): each line's amount ÷ the rule's divisor, rounded to the cent half up, with the conversion and its
    article in the line's details; unchanged where no rule says so (an act in cruzeiros stays in cruzeiros)."""
    rule = regime.conversion
    if rule is None or not rule.applies(day):
        return result
    lines = []
    for line in result.lines:
        amount, said = rule.said(line.amount, result.currency)
        formula = f"{line.formula} = {format_brl(line.amount, currency=result.currency)} ÷ {rule.divisor}"
        lines.append(dataclasses.replace(line, amount=amount, formula=formula, details=(*line.details, said)))
    note = rule.note(result.currency)
    return dataclasses.replace(result, lines=tuple(lines), currency=rule.to, notes=(*result.notes, note))


def _explain_factors(result: Quote, factors: dict[str, IndexFactor]) -> Quote:
    """Add to each corrected line how its accumulated factor was made."""
    if not factors:
        return result
    lines = []
    for line in result.lines:
        extra = tuple(
            f"Fator {f.index} {f.base_year}→{f.year} = {f.formula} = "
            f"{format_decimal_br(f.factor.quantize(FACTOR_PLACES, rounding=ROUND_HALF_UP), 6)}"
            for f in factors.values()
            if not f.missing and any(f"Correção {f.index}" in d for d in line.details)
        )
        lines.append(dataclasses.replace(line, details=line.details + extra) if extra else line)
    return dataclasses.replace(result, lines=tuple(lines))
