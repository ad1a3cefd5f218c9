"""The fee-kind engine Praça priced the older fee kinds with before every fee became a formula (issue 29 §6), kept
frozen here — out of the application — as the yardstick: the formula benchmark's "theirs" (bench/formulas.py) and
the reference the converter's parity tests compare with (tests/test_legacy_fees.py). One function per older kind:
linear metre (with its discounts), energy, per area per month, venue table, fixed and per day — each gives the
:class:`QuoteLine` of one fee. :func:`priced_by_kind` makes the engine price a fee of an older kind with them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from decimal import Decimal
from typing import TypeVar
from unittest import mock

from models.base.errors import UserError
from models.base.money import format_factor, round_cents
from models.rules.describe.words import PER
from models.rules.fees import QuoteLine, amount_value
from models.rules.fees.inputs import (
    Inputs,
    amount_txt,
    due_text,
    in_formula,
    join_basis,
    unit_value_detail,
    year_for,
)
from models.rules.fees.results import MINUS, TIMES, UnitOverrides
from models.rules.regimes import Regime
from models.rules.regimes.model import Amount, Condition, Discount, EnergyTier, Fee, Line, Venue

# --------------------------------------------------------------------------- fee kinds


T = TypeVar("T")


def _kind_key(value: T | None, fee: Fee, key: str) -> T:
    """``fee.<key>``, a key the loader requires for the fee's kind (docs/regime-format.md)."""
    if value is None:  # pragma: no cover - the loader refuses such an act
        raise AssertionError(f"fee {fee.id} ({fee.kind}) without {key}")
    return value


def linear_metre(regime: Regime, fee: Fee, inp: Inputs) -> QuoteLine:
    year = year_for(fee, inp.year)
    coefficient, unit = _kind_key(fee.coefficient, fee, "coefficient"), _kind_key(fee.unit, fee, "unit")
    front = inp.front_or_equipment()
    if front is None:
        raise UserError(
            f"Informe a frente ocupada (metros lineares) para calcular {fee.label.lower()} ({regime.cite(fee.basis)}).",
            field="front",
        )
    details: list[str] = []
    bases: list[str | None] = [fee.basis]
    metres = front
    if inp.hitch is not None and inp.hitch > 0:
        if inp.equipment is not None and not inp.equipment.has_hitch:
            raise UserError(f"O equipamento '{inp.equipment.label}' não tem engate; não informe engate.", field="hitch")
        if fee.hitch_counts:
            metres = front + inp.hitch
            details.append(
                f"Engate incluído na metragem: {in_formula(front)} + {in_formula(inp.hitch)} = {in_formula(metres)} ML"
                + (f" ({regime.cite(fee.hitch_basis)})" if fee.hitch_basis else "")
            )
            bases.append(fee.hitch_basis)
        else:
            details.append("O engate não entra na metragem deste preço.")
    if fee.min_metres is not None and metres < fee.min_metres:
        details.append(
            f"Metragem mínima de {in_formula(fee.min_metres)} ML por unidade comercial (medido: "
            f"{in_formula(metres)} ML)" + (f" ({regime.cite(fee.min_metres_basis)})" if fee.min_metres_basis else "")
        )
        bases.append(fee.min_metres_basis)
        metres = fee.min_metres

    discount = _best_discount(regime, fee, inp, metres)
    unit_value = regime.unit_value(unit, year, inp.overrides)
    rate = discount.rate if discount else Decimal(0)
    exact = coefficient * unit_value * metres * (Decimal(1) - rate)

    parts = [format_factor(coefficient)]
    if unit != "BRL":
        parts.append(format_factor(unit_value))
        details.insert(0, unit_value_detail(regime, unit, year, inp.overrides))
    parts.append(in_formula(metres))
    formula = TIMES.join(parts)
    label = fee.label
    if discount:
        formula += f"{TIMES}(1{MINUS}{format_factor(discount.rate)})"
        percent = format_factor((discount.rate * 100).normalize())
        label = f"{fee.label} — desconto de {percent} %"
        details.append(f"Desconto: {discount.label} ({regime.cite_item(discount)})")
        bases.append(discount.basis)
    else:
        details.extend(_no_discount_details(regime, fee, inp, metres))
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    return QuoteLine(
        label=label,
        amount=round_cents(exact),
        formula=formula,
        basis=join_basis(regime, *bases),
        fee=fee.id,
        year=year,
        due=due_text(fee),
        details=tuple(details),
    )


def _condition_matches(cond: Condition, inp: Inputs, metres: Decimal) -> bool | None:
    """True / False, or None when only the depth is missing to decide."""
    if cond.mei is not None and cond.mei != inp.mei:
        return False
    if cond.local is not None and cond.local != inp.local:
        return False
    if cond.equipment and (inp.equipment is None or inp.equipment.id not in cond.equipment):
        return False
    if cond.lines and (inp.line is None or inp.line.id not in cond.lines):
        return False
    if cond.max_metres is not None and metres > cond.max_metres:
        return False
    if cond.max_depth is not None:
        depth = inp.depth_or_equipment()
        if depth is None:
            return None
        if depth > cond.max_depth:
            return False
    return True


def _who(cond: Condition) -> str:
    """Whom a discount is for, in words: "MEI do município", "MEI", "quem é do município"."""
    if cond.mei and cond.local:
        return "MEI do município"
    if cond.mei:
        return "MEI"
    if cond.local:
        return "quem é do município"
    return "outro titular"


def _fits_stall(cond: Condition, inp: Inputs) -> bool:
    """The discount is for this kind of stall (its equipment / product line), whoever holds it."""
    if cond.equipment and (inp.equipment is None or inp.equipment.id not in cond.equipment):
        return False
    if cond.lines and (inp.line is None or inp.line.id not in cond.lines):
        return False
    return True


def _failed_conditions(cond: Condition, inp: Inputs, metres: Decimal) -> list[str]:
    """What keeps a discount meant for this stall from applying, in pt-BR."""
    reasons: list[str] = []
    if (cond.mei is not None and cond.mei != inp.mei) or (cond.local is not None and cond.local != inp.local):
        if cond.mei is False or cond.local is False:
            reasons.append("o desconto não vale para " + ("MEI" if cond.mei is False else "quem é do município"))
        else:
            reasons.append(f"o desconto é só para {_who(cond)}")
    if cond.max_metres is not None and metres > cond.max_metres:
        reasons.append(f"metragem {in_formula(metres)} ML acima de {in_formula(cond.max_metres)} ML")
    if cond.max_depth is not None:
        depth = inp.depth_or_equipment()
        if depth is not None and depth > cond.max_depth:
            reasons.append(f"profundidade {in_formula(depth)} m acima de {in_formula(cond.max_depth)} m")
    return reasons


def _no_discount_details(regime: Regime, fee: Fee, inp: Inputs, metres: Decimal) -> list[str]:
    """The applicant says MEI or local and no discount was granted: say which condition failed, and where."""
    if not (inp.mei or inp.local) or not fee.discounts:
        return []
    details: list[str] = []
    meant = [d for d in fee.discounts if _fits_stall(d.when, inp)]
    for discount in meant:
        reasons = _failed_conditions(discount.when, inp, metres)
        if reasons:
            text = f"Sem desconto: {'; '.join(reasons)} ({regime.cite(discount.basis)})"
            if text not in details:
                details.append(text)
    if meant:
        return details
    bases: list[str] = []
    for discount in fee.discounts:
        if discount.basis not in bases:
            bases.append(discount.basis)
    citation = regime.cite("; ".join(bases))
    stall = inp.equipment.label if inp.equipment is not None else inp.line.label if inp.line is not None else None
    if stall is None:
        return [
            f"Sem desconto: os descontos deste preço dependem do equipamento ou do ramo, que não foi "
            f"informado ({citation})"
        ]
    return [f"Sem desconto: nenhum desconto deste preço alcança {stall} ({citation})"]


def _best_discount(regime: Regime, fee: Fee, inp: Inputs, metres: Decimal) -> Discount | None:
    best: Discount | None = None
    for discount in fee.discounts:
        verdict = _condition_matches(discount.when, inp, metres)
        if verdict is None:  # only a depth limit leaves it open
            max_depth = _kind_key(discount.when.max_depth, fee, "discounts.when.max_depth")
            raise UserError(
                f'Informe a profundidade: o desconto "{discount.label}" vale até '
                f"{in_formula(max_depth)} m de profundidade ({regime.cite(discount.basis)}).",
                field="depth",
            )
        if verdict and (best is None or discount.rate > best.rate):
            best = discount
    return best


def energy_line(regime: Regime, fee: Fee, tier: EnergyTier, inp: Inputs) -> QuoteLine:
    year = year_for(fee, inp.year)
    citation = regime.cite(tier.basis, None, tier.amended_by)
    if tier.equipment and inp.equipment is not None and inp.equipment.id not in tier.equipment:
        allowed = ", ".join(regime.equipment(e).label for e in tier.equipment)
        raise UserError(
            f'A tarifa "{tier.label}" vale para: {allowed} — não para {inp.equipment.label} ({citation}).',
            field="energy",
        )
    if tier.max_metres is not None:
        front = inp.front_or_equipment()
        if front is None:
            raise UserError(
                f'Informe a frente: a tarifa "{tier.label}" vale até {in_formula(tier.max_metres)} ML ({citation}).',
                field="front",
            )
        metres = front + (inp.hitch or 0)
        if metres > tier.max_metres:
            raise UserError(
                f'A tarifa "{tier.label}" vale até {in_formula(tier.max_metres)} ML; informado '
                f"{in_formula(metres)} ML ({citation}).",
                field="energy",
            )
    if tier.max_depth is not None:
        depth = inp.depth_or_equipment()
        if depth is None:
            raise UserError(
                f'Informe a profundidade: a tarifa "{tier.label}" vale até {in_formula(tier.max_depth)} m '
                f"({citation}).",
                field="depth",
            )
        if depth > tier.max_depth:
            raise UserError(
                f'A tarifa "{tier.label}" vale até {in_formula(tier.max_depth)} m de profundidade; '
                f"informado {in_formula(depth)} m ({citation}).",
                field="energy",
            )
    unit = _kind_key(fee.unit, fee, "unit")
    unit_value = regime.unit_value(unit, year, inp.overrides)
    exact = tier.factor * unit_value
    details = [d for d in (unit_value_detail(regime, unit, year, inp.overrides),) if d]
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    formula = (
        format_factor(tier.factor)
        if unit == "BRL"
        else f"{format_factor(tier.factor)}{TIMES}{format_factor(unit_value)}"
    )
    return QuoteLine(
        label=f"{fee.label} — {tier.label}",
        amount=round_cents(exact),
        formula=formula,
        basis=join_basis(regime, tier.basis),
        fee=fee.id,
        year=year,
        due=due_text(fee),
        details=tuple(details),
    )


def per_area_month(regime: Regime, fee: Fee, inp: Inputs) -> QuoteLine:
    year = year_for(fee, inp.year)
    details: list[str] = []
    bases: list[str | None] = [fee.basis]
    dims: tuple[Decimal, Decimal] | None = None
    area: Decimal | None = None
    line = inp.line
    if fee.area in ("line", "used") and line is None:
        whose = "é a do ramo" if fee.area == "line" else "tem o máximo do ramo"
        raise UserError(
            f"Informe o ramo (linha de produtos): a área de {fee.label.lower()} {whose} "
            f"({regime.cite(fee.basis)}). Ramos: {', '.join(regime.ids('line'))}.",
            field="line",
        )
    if fee.area == "line" and line is not None:  # without a line: refused above
        size = line.size
        if size is not None:
            _check_declared_matches_line(regime, line, size, inp)
            dims = size
            area = size[0] * size[1]
            details.append(
                f'Área do ramo "{line.label}": {in_formula(size[0])} × {in_formula(size[1])} = {in_formula(area)} m² '
                f"({regime.cite(line.basis)})"
            )
            bases.append(line.basis)
        else:
            dims, area = _declared_area(inp, fee)
            details.append(
                f'O ramo "{line.label}" não tem tamanho fixado no ato: área informada de {in_formula(area)} m².'
            )
    elif fee.area == "used":
        dims, area = _used_area(regime, fee, line, inp)
        size = line.size if line is not None else None
        if line is not None and size is not None:
            details.append(
                f'Área utilizada: {in_formula(area)} m²; máximo do ramo "{line.label}": {in_formula(size[0])} × '
                f"{in_formula(size[1])} = {in_formula(size[0] * size[1])} m² ({regime.cite(line.basis)})"
            )
            bases.append(line.basis)
        else:
            details.append(f"Área utilizada: {in_formula(area)} m².")
    else:
        dims, area = _declared_area(inp, fee)
        details.append(f"Área declarada: {in_formula(area)} m².")

    rate = _kind_key(fee.rate, fee, "rate")
    factor = Decimal(1)
    parts = [format_factor(rate.value)]
    if rate.unit != "BRL":
        unit_value = regime.unit_value(rate.unit, year, inp.overrides)
        factor *= unit_value
        parts.append(format_factor(unit_value))
        details.insert(0, unit_value_detail(regime, rate.unit, year, inp.overrides))
    if fee.index is not None:
        index = regime.index(fee.index)
        if year > index.base_year:
            correction = inp.index_factors.get(index.code)
            if correction is None:
                raise UserError(
                    f"O valor de {amount_txt(rate, regime.currency)}/m² é de {index.base_year} e é corrigido "
                    "anualmente pelo "
                    f"{index.code} ({regime.cite(index.basis)}): informe o fator acumulado do {index.code} de "
                    f"{index.base_year} a {year}, ou calcule para {index.base_year}.",
                    field="index_factor",
                )
            factor *= correction
            parts.append(format_factor(correction))
            details.append(
                f"Correção {index.code} {index.base_year}→{year}: fator {format_factor(correction)} "
                f"({regime.cite(index.basis)})"
            )
            bases.append(index.basis)
    if dims is not None:
        parts.extend([in_formula(dims[0]), in_formula(dims[1])])
    else:
        parts.append(in_formula(area))
    exact = rate.value * factor * area
    return QuoteLine(
        label=fee.label,
        amount=round_cents(exact),
        formula=TIMES.join(parts),
        basis=join_basis(regime, *bases),
        fee=fee.id,
        year=year,
        due=due_text(fee),
        details=tuple(details),
    )


def _check_declared_matches_line(regime: Regime, line: Line, size: tuple[Decimal, Decimal], inp: Inputs) -> None:
    front, depth = size
    if inp.area is not None and inp.area != front * depth:
        raise UserError(
            f"O ato fixa {in_formula(front)} × {in_formula(depth)} = {in_formula(front * depth)} m² para "
            f'"{line.label}" '
            f"({regime.cite(line.basis)}); informado {in_formula(inp.area)} m².",
            field="area",
        )
    if inp.front is not None and inp.front != front:
        raise UserError(
            f'O ato fixa {in_formula(front)} m de frente para "{line.label}" ({regime.cite(line.basis)}); '
            f"informado {in_formula(inp.front)} m.",
            field="front",
        )
    if inp.depth is not None and inp.depth != depth:
        raise UserError(
            f'O ato fixa {in_formula(depth)} m de profundidade para "{line.label}" ({regime.cite(line.basis)}); '
            f"informado {in_formula(inp.depth)} m.",
            field="depth",
        )


def _used_area(
    regime: Regime, fee: Fee, line: Line | None, inp: Inputs
) -> tuple[tuple[Decimal, Decimal] | None, Decimal]:
    """The area actually used ("por metro quadrado utilizado", SJC art. 11, § 5º): the stall's front × depth (or
    its area), never beyond the size the act fixes for the line — a maximum (art. 5º)."""
    size = line.size if line is not None else None
    if inp.area is None and (inp.front_or_equipment() is None or inp.depth_or_equipment() is None):
        fixed = (
            f' — o ato fixa no máximo {in_formula(size[0])} × {in_formula(size[1])} m para "{line.label}" '
            f"({regime.cite(line.basis)})"
            if line is not None and size is not None
            else ""
        )
        raise UserError(
            f"Informe a frente e a profundidade utilizadas (ou a área): {fee.label.lower()} é cobrada por metro "
            f"quadrado utilizado ({regime.cite(fee.basis)}){fixed}.",
            field="front" if inp.front_or_equipment() is None else "depth",
        )
    dims, area = _declared_area(inp, fee)
    if line is None or size is None:
        return dims, area
    for value, most, name, key in (
        (dims[0] if dims else None, size[0], "frente", "front"),
        (dims[1] if dims else None, size[1], "profundidade", "depth"),
        (area, size[0] * size[1], "área", "area"),
    ):
        if value is not None and value > most:
            unit = "m²" if key == "area" else "m"
            raise UserError(
                f"{name.capitalize()} de {in_formula(value)} {unit} acima do máximo de {in_formula(most)} {unit} "
                f"que o ato fixa "
                f'para "{line.label}" ({regime.cite(line.basis)}).',
                field=key,
            )
    return dims, area


def _declared_area(inp: Inputs, fee: Fee) -> tuple[tuple[Decimal, Decimal] | None, Decimal]:
    if inp.area is not None:
        return None, inp.area
    front, depth = inp.front_or_equipment(), inp.depth_or_equipment()
    if front is not None and depth is not None:
        return (front, depth), front * depth
    raise UserError(
        f"Informe a área (m²) ou a frente e a profundidade da banca para calcular {fee.label.lower()}.",
        field="area",
    )


def venue_table(regime: Regime, fee: Fee, venue: Venue, inp: Inputs) -> list[QuoteLine]:
    year = year_for(fee, inp.year)
    if inp.days is None:
        raise UserError(
            f'Informe o número de dias de uso de "{venue.label}" ({regime.cite(venue.basis)}).', field="days"
        )
    days = inp.days
    citation = regime.cite(venue.basis)
    # "Taxa por 1 dia | Taxa por dia (mínimo de N dias)" (LC 324/2025, art. 89): one day at the
    # one-day rate; two days or more at the daily rate, charged for at least the minimum.
    if days == 1:
        daily, charged = venue.one_day, 1
        rule = (
            f"1 dia: taxa por 1 dia, {amount_txt(venue.one_day, regime.currency)} (a partir de 2 dias: "
            f"{amount_txt(venue.per_day, regime.currency)} por dia, mínimo de {venue.min_days} dias cobrados)"
        )
    else:
        daily, charged = venue.per_day, max(days, venue.min_days)
        if charged > days:
            rule = f"{days} dias de uso: mínimo de {venue.min_days} dias cobrados — {citation}"
        else:
            per_day = amount_txt(venue.per_day, regime.currency)
            rule = f"{days} dias de uso: {per_day} por dia (mínimo de {venue.min_days} dias atingido)"
    details = [rule]
    unit_detail = unit_value_detail(regime, daily.unit, year, inp.overrides)
    if unit_detail:
        details.insert(0, unit_detail)
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    day_word = "dia" if days == 1 else "dias"
    lines = [
        QuoteLine(
            label=f"{fee.label} — {venue.label} ({days} {day_word})",
            amount=round_cents(charged * amount_value(regime, daily, year, inp.overrides)),
            formula=_amount_formula(regime, daily, year, inp.overrides, count=charged),
            basis=join_basis(regime, venue.basis),
            fee=fee.id,
            year=year,
            due=due_text(fee),
            details=tuple(details),
        )
    ]
    if venue.deposit is not None:
        lines.append(
            QuoteLine(
                label=f"Caução — {venue.label}",
                amount=round_cents(amount_value(regime, venue.deposit, year, inp.overrides)),
                formula=_amount_formula(regime, venue.deposit, year, inp.overrides),
                basis=join_basis(regime, venue.basis),
                fee=fee.id,
                kind="deposit",
                year=year,
                due=due_text(fee),
                details=tuple(d for d in (unit_value_detail(regime, venue.deposit.unit, year, inp.overrides),) if d),
            )
        )
    return lines


def _amount_formula(
    regime: Regime, amount: Amount, year: int, overrides: UnitOverrides | None, count: int | None = None
) -> str:
    parts = [str(count)] if count is not None else []
    if amount.unit == "BRL":
        parts.append(in_formula(amount.value))
    else:
        parts.append(format_factor(amount.value))
        parts.append(format_factor(regime.unit_value(amount.unit, year, overrides)))
    return TIMES.join(parts)


#: a fixed fee's period as its quote line says it: the regime sheet's words, but "parcela única" for "once"
_PER_TEXT = {**PER, "once": "parcela única"}


def fixed_line(regime: Regime, fee: Fee, inp: Inputs) -> QuoteLine:
    year = year_for(fee, inp.year)
    details: list[str] = []
    per_day = fee.kind == "per-day" or fee.per == "day"
    count = None
    if per_day:
        if inp.days is None:
            raise UserError(
                f"Informe o número de dias para calcular {fee.label.lower()} ({regime.cite(fee.basis)}).", field="days"
            )
        count = inp.days
    if fee.admin_defined:
        value = inp.admin_values.get(fee.id)
        if value is None:
            raise UserError(
                f'O valor de "{fee.label}" é definido pela Administração ({regime.cite(fee.basis)}'
                + (f"; {fee.basis_act}" if fee.basis_act else "")
                + "): informe-o antes de calcular.",
                field="admin_value",
            )
        amount = Amount(value=value, unit="BRL")
        details.append("Valor informado pela Administração.")
    else:
        amount = _kind_key(fee.amount, fee, "amount")
        unit_detail = unit_value_detail(regime, amount.unit, year, inp.overrides)
        if unit_detail:
            details.append(unit_detail)
    if fee.per and fee.per in _PER_TEXT:
        details.append(f"Periodicidade: {_PER_TEXT[fee.per]}.")
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    exact = amount_value(regime, amount, year, inp.overrides) * (count or 1)
    label = fee.label + (f" ({count} {'dia' if count == 1 else 'dias'})" if count is not None else "")
    return QuoteLine(
        label=label,
        amount=round_cents(exact),
        formula=_amount_formula(regime, amount, year, inp.overrides, count=count),
        basis=join_basis(regime, fee.basis),
        fee=fee.id,
        year=year,
        due=due_text(fee),
        details=tuple(details),
    )


# --------------------------------------------------------------------------- the engine, made to price by kind


def _price_by_kind(regime: Regime, fee: Fee, inp: Inputs, tier_owner, lines: list[QuoteLine]) -> None:
    if fee.kind == "linear-metre":
        lines.append(linear_metre(regime, fee, inp))
    elif fee.kind == "energy":
        assert tier_owner is not None and isinstance(tier_owner[1], EnergyTier)  # an energy fee's own tier
        lines.append(energy_line(regime, fee, tier_owner[1], inp))
    elif fee.kind == "per-area-month":
        lines.append(per_area_month(regime, fee, inp))
    elif fee.kind == "venue-table":
        assert isinstance(inp.venue, Venue)  # a venue table's own venue
        lines.extend(venue_table(regime, fee, inp.venue, inp))
    else:  # fixed, per-day
        lines.append(fixed_line(regime, fee, inp))


@contextlib.contextmanager
def priced_by_kind() -> Iterator[None]:
    """Within: the engine prices each fee of an older kind with this module's function for its kind, as it did
    before (a formula fee as its formula) — everything around the line (inputs, refusals, exemptions, total) is
    the engine's own, so only the line's pricing is compared."""
    from models.rules.fees import engine

    own = engine._price_fee

    def price(regime: Regime, fee: Fee, inp: Inputs, tier_owner, lines: list[QuoteLine]) -> None:
        if fee.kind == "formula":
            own(regime, fee, inp, tier_owner, lines)
            return
        if fee.kind == "energy" and not (tier_owner is not None and tier_owner[0] is fee):
            return  # no tier declared, or another fee's
        if fee.kind == "venue-table" and (inp.venue is None or inp.venue not in fee.venues):
            raise UserError(
                f'Informe o imóvel de "{fee.label}". Opções: {"; ".join(v.label for v in fee.venues)}.', field="venue"
            )
        _price_by_kind(regime, fee, inp, tier_owner, lines)

    with mock.patch.object(engine, "_price_fee", price):
        yield
