"""The fee engine: prices a stall from a regime, line by line — pure functions.

Every :class:`QuoteLine` carries its amount (rounded once, to the cent,
``ROUND_HALF_UP``), the formula with the values substituted in pt-BR decimal
style (``"5,50 × 38,42 × 4,00 × (1 − 0,30)"``) and the full citation of the
article it comes from (``"Dec. 4.794/2026, art. 9º, § 2º; art. 9º, § 3º, I"``).
No rule of a town lives here: the engine only knows the fee *kinds* of
docs/regime-format.md.

Monetary correction (``index_factors``): a fee with ``index = "INPC"`` is
written in values of the index's ``base_year``. To price it in a later year the
caller passes ``index_factors={"INPC": Decimal("1.4321")}`` — the accumulated
correction factor from ``base_year`` to the year asked, which the clerk's index
table computes (product of ``1 + yearly variation``). The engine multiplies the
nominal rate by the factor, unrounded, and rounds the line once. Without the
factor, a year after ``base_year`` is refused with a message: Praça never
charges an uncorrected value, nor guesses the index.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from models.base.errors import UserError
from models.base.money import format_brl, format_decimal_br, format_factor, round_cents, to_decimal
from models.rules.regimes import (
    Amount,
    Condition,
    Discount,
    EnergyTier,
    Equipment,
    Fee,
    Line,
    Regime,
    Venue,
    get_regime,
)

__all__ = [
    "ENERGY_NONE",
    "Quote",
    "QuoteLine",
    "amount_value",
    "fee_quote",
    "price_units",
]

ENERGY_NONE = "none"
_TIMES = " × "
_MINUS = " − "

UnitOverrides = Mapping[tuple[str, int], Decimal]
CENT_Q = Decimal("0.01")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class QuoteLine:
    """One priced line: what, how much, how it was computed and why (the article)."""

    label: str
    amount: Decimal
    formula: str
    basis: str
    fee: str | None = None
    kind: str = "charge"  # "charge" or "deposit" (caução: refundable)
    year: int | None = None
    due: str | None = None
    details: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "amount": str(self.amount),
            "amount_text": format_brl(self.amount),
            "formula": self.formula,
            "basis": self.basis,
            "fee": self.fee,
            "kind": self.kind,
            "year": self.year,
            "due": self.due,
            "details": list(self.details),
        }


@dataclass(frozen=True)
class Quote:
    regime: str
    lines: tuple[QuoteLine, ...]
    inputs: Mapping[str, Any] = field(default_factory=dict, compare=False)
    #: Observations on the inputs: what was given but does not change this price, and why.
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> Decimal:
        """Everything to be paid, deposits included (each line already rounded)."""
        return sum((line.amount for line in self.lines), Decimal("0.00"))

    @property
    def total_charges(self) -> Decimal:
        """Fees and prices only (without refundable deposits)."""
        return sum((line.amount for line in self.lines if line.kind != "deposit"), Decimal("0.00"))

    @property
    def total_deposits(self) -> Decimal:
        return sum((line.amount for line in self.lines if line.kind == "deposit"), Decimal("0.00"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "regime": self.regime,
            "inputs": {k: (str(v) if isinstance(v, Decimal) else v) for k, v in self.inputs.items()},
            "lines": [line.to_dict() for line in self.lines],
            "total": str(self.total),
            "total_text": format_brl(self.total),
            "total_charges": str(self.total_charges),
            "total_deposits": str(self.total_deposits),
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- helpers


def _regime(regime: Regime | str) -> Regime:
    return regime if isinstance(regime, Regime) else get_regime(regime)


#: Sizes are measured to the centimetre (areas to the hundredth of m²): the formula shows two places
#: and must reproduce the amount, so more places are refused rather than hidden.
SIZE_PLACES = 2
#: Sanity limits: a stall or an area beyond them is a typing mistake, not a measure.
MAX_METRES = Decimal(100)
MAX_AREA = Decimal(10000)


def _measure(
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
        shown = _m(number) if number.adjusted() < 12 else str(value)  # as typed, when too long to round
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


def _days(value: Any) -> int | None:
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


def _m(value: Decimal) -> str:
    """Metres / areas / R$ in formulas: two places (``4`` → ``4,00``), never fewer than the value has
    (a ``"0.125"`` in a regime file prints ``0,125``): the formula must reproduce the amount."""
    if value == value.quantize(CENT_Q):
        return format_decimal_br(value, 2)
    return format_factor(value.normalize())


def _amount_txt(amount: Amount) -> str:
    """``100 UFESP`` / ``R$ 150,00``."""
    if amount.unit == "BRL":
        return format_brl(amount.value)
    return f"{format_factor(amount.value)} {amount.unit}"


def _year_for(fee: Fee, year: int | None) -> int:
    if year is not None:
        return year
    if fee.year is not None:
        return fee.year
    return dt.date.today().year


def _due_text(fee: Fee) -> str | None:
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
    return None  # pragma: no cover - loader guarantees one


def amount_value(
    regime: Regime | str,
    amount: Amount,
    year: int,
    overrides: UnitOverrides | None = None,
) -> Decimal:
    """Exact (unrounded) value in R$ of an :class:`Amount` in one year."""
    regime = _regime(regime)
    if amount.unit == "BRL":
        return amount.value
    return amount.value * regime.unit_value(amount.unit, year, overrides)


def _unit_detail(regime: Regime, unit: str, year: int, overrides: UnitOverrides | None) -> str:
    if unit == "BRL":
        return ""
    value = regime.unit_value(unit, year, overrides)
    return f"{unit} {year} = {format_brl(value)} ({regime.unit_value_citation(unit, year, overrides)})"


def _join_basis(regime: Regime, *bases: str | None) -> str:
    parts = [b for b in bases if b]
    seen: list[str] = []
    for part in parts:
        if part not in seen:
            seen.append(part)
    return regime.cite("; ".join(seen)) if seen else regime.short


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
    regime = _regime(regime)
    count = to_decimal(n)
    if count < 0:
        raise UserError(f"Quantidade de {unit_code} inválida: {format_factor(count)}", field="units")
    value = regime.unit_value(unit_code, year, overrides)
    if unit_code == "BRL":
        formula = _m(count)
        citation = regime.cite(basis) if basis else regime.short
        details: tuple[str, ...] = ()
        label = label or format_brl(count)
    else:
        formula = f"{format_factor(count)}{_TIMES}{format_factor(value)}"
        citation = regime.cite(basis) if basis else regime.unit_value_citation(unit_code, year, overrides)
        details = (_unit_detail(regime, unit_code, year, overrides),)
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


# --------------------------------------------------------------------------- inputs


@dataclass
class _Inputs:
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
    venue: Venue | None
    year: int | None
    overrides: UnitOverrides | None
    index_factors: Mapping[str, Decimal]
    admin_values: Mapping[str, Decimal]
    exemption: str | None = None

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


def _decimal_map(values: Mapping[str, Any] | None, what: str) -> dict[str, Decimal]:
    result: dict[str, Decimal] = {}
    for key, value in (values or {}).items():
        number = to_decimal(value)
        if number <= 0:
            raise UserError(f"{what} '{key}' inválido: {format_factor(number)} (deve ser maior que zero)")
        result[key] = number
    return result


# --------------------------------------------------------------------------- fee kinds


T = TypeVar("T")


def _kind_key(value: T | None, fee: Fee, key: str) -> T:
    """``fee.<key>``, a key the loader requires for the fee's kind (docs/regime-format.md)."""
    if value is None:  # pragma: no cover - the loader refuses such an act
        raise AssertionError(f"fee {fee.id} ({fee.kind}) without {key}")
    return value


def _linear_metre(regime: Regime, fee: Fee, inp: _Inputs) -> QuoteLine:
    year = _year_for(fee, inp.year)
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
                f"Engate incluído na metragem: {_m(front)} + {_m(inp.hitch)} = {_m(metres)} ML"
                + (f" ({regime.cite(fee.hitch_basis)})" if fee.hitch_basis else "")
            )
            bases.append(fee.hitch_basis)
        else:
            details.append("O engate não entra na metragem deste preço.")
    if fee.min_metres is not None and metres < fee.min_metres:
        details.append(
            f"Metragem mínima de {_m(fee.min_metres)} ML por unidade comercial (medido: {_m(metres)} ML)"
            + (f" ({regime.cite(fee.min_metres_basis)})" if fee.min_metres_basis else "")
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
        details.insert(0, _unit_detail(regime, unit, year, inp.overrides))
    parts.append(_m(metres))
    formula = _TIMES.join(parts)
    label = fee.label
    if discount:
        formula += f"{_TIMES}(1{_MINUS}{format_factor(discount.rate)})"
        percent = format_factor((discount.rate * 100).normalize())
        label = f"{fee.label} — desconto de {percent} %"
        details.append(f"Desconto: {discount.label} ({regime.cite(discount.basis, discount.basis_act)})")
        bases.append(discount.basis)
    else:
        details.extend(_no_discount_details(regime, fee, inp, metres))
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    return QuoteLine(
        label=label,
        amount=round_cents(exact),
        formula=formula,
        basis=_join_basis(regime, *bases),
        fee=fee.id,
        year=year,
        due=_due_text(fee),
        details=tuple(details),
    )


def _condition_matches(cond: Condition, inp: _Inputs, metres: Decimal) -> bool | None:
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


def _fits_stall(cond: Condition, inp: _Inputs) -> bool:
    """The discount is for this kind of stall (its equipment / product line), whoever holds it."""
    if cond.equipment and (inp.equipment is None or inp.equipment.id not in cond.equipment):
        return False
    if cond.lines and (inp.line is None or inp.line.id not in cond.lines):
        return False
    return True


def _failed_conditions(cond: Condition, inp: _Inputs, metres: Decimal) -> list[str]:
    """What keeps a discount meant for this stall from applying, in pt-BR."""
    reasons: list[str] = []
    if (cond.mei is not None and cond.mei != inp.mei) or (cond.local is not None and cond.local != inp.local):
        if cond.mei is False or cond.local is False:
            reasons.append("o desconto não vale para " + ("MEI" if cond.mei is False else "quem é do município"))
        else:
            reasons.append(f"o desconto é só para {_who(cond)}")
    if cond.max_metres is not None and metres > cond.max_metres:
        reasons.append(f"metragem {_m(metres)} ML acima de {_m(cond.max_metres)} ML")
    if cond.max_depth is not None:
        depth = inp.depth_or_equipment()
        if depth is not None and depth > cond.max_depth:
            reasons.append(f"profundidade {_m(depth)} m acima de {_m(cond.max_depth)} m")
    return reasons


def _no_discount_details(regime: Regime, fee: Fee, inp: _Inputs, metres: Decimal) -> list[str]:
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


def _best_discount(regime: Regime, fee: Fee, inp: _Inputs, metres: Decimal) -> Discount | None:
    best: Discount | None = None
    for discount in fee.discounts:
        verdict = _condition_matches(discount.when, inp, metres)
        if verdict is None:  # only a depth limit leaves it open
            max_depth = _kind_key(discount.when.max_depth, fee, "discounts.when.max_depth")
            raise UserError(
                f'Informe a profundidade: o desconto "{discount.label}" vale até '
                f"{_m(max_depth)} m de profundidade ({regime.cite(discount.basis)}).",
                field="depth",
            )
        if verdict and (best is None or discount.rate > best.rate):
            best = discount
    return best


def _energy(regime: Regime, fee: Fee, tier: EnergyTier, inp: _Inputs) -> QuoteLine:
    year = _year_for(fee, inp.year)
    citation = regime.cite(tier.basis)
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
                f'Informe a frente: a tarifa "{tier.label}" vale até {_m(tier.max_metres)} ML ({citation}).',
                field="front",
            )
        metres = front + (inp.hitch or 0)
        if metres > tier.max_metres:
            raise UserError(
                f'A tarifa "{tier.label}" vale até {_m(tier.max_metres)} ML; informado {_m(metres)} ML ({citation}).',
                field="energy",
            )
    if tier.max_depth is not None:
        depth = inp.depth_or_equipment()
        if depth is None:
            raise UserError(
                f'Informe a profundidade: a tarifa "{tier.label}" vale até {_m(tier.max_depth)} m ({citation}).',
                field="depth",
            )
        if depth > tier.max_depth:
            raise UserError(
                f'A tarifa "{tier.label}" vale até {_m(tier.max_depth)} m de profundidade; '
                f"informado {_m(depth)} m ({citation}).",
                field="energy",
            )
    unit = _kind_key(fee.unit, fee, "unit")
    unit_value = regime.unit_value(unit, year, inp.overrides)
    exact = tier.factor * unit_value
    details = [d for d in (_unit_detail(regime, unit, year, inp.overrides),) if d]
    if fee.basis_act:
        details.append(f"Com base em: {fee.basis_act}")
    formula = (
        format_factor(tier.factor)
        if unit == "BRL"
        else f"{format_factor(tier.factor)}{_TIMES}{format_factor(unit_value)}"
    )
    return QuoteLine(
        label=f"{fee.label} — {tier.label}",
        amount=round_cents(exact),
        formula=formula,
        basis=_join_basis(regime, tier.basis),
        fee=fee.id,
        year=year,
        due=_due_text(fee),
        details=tuple(details),
    )


def _per_area_month(regime: Regime, fee: Fee, inp: _Inputs) -> QuoteLine:
    year = _year_for(fee, inp.year)
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
                f'Área do ramo "{line.label}": {_m(size[0])} × {_m(size[1])} = {_m(area)} m² '
                f"({regime.cite(line.basis)})"
            )
            bases.append(line.basis)
        else:
            dims, area = _declared_area(inp, fee)
            details.append(f'O ramo "{line.label}" não tem tamanho fixado no ato: área informada de {_m(area)} m².')
    elif fee.area == "used":
        dims, area = _used_area(regime, fee, line, inp)
        size = line.size if line is not None else None
        if line is not None and size is not None:
            details.append(
                f'Área utilizada: {_m(area)} m²; máximo do ramo "{line.label}": {_m(size[0])} × '
                f"{_m(size[1])} = {_m(size[0] * size[1])} m² ({regime.cite(line.basis)})"
            )
            bases.append(line.basis)
        else:
            details.append(f"Área utilizada: {_m(area)} m².")
    else:
        dims, area = _declared_area(inp, fee)
        details.append(f"Área declarada: {_m(area)} m².")

    rate = _kind_key(fee.rate, fee, "rate")
    factor = Decimal(1)
    parts = [format_factor(rate.value)]
    if rate.unit != "BRL":
        unit_value = regime.unit_value(rate.unit, year, inp.overrides)
        factor *= unit_value
        parts.append(format_factor(unit_value))
        details.insert(0, _unit_detail(regime, rate.unit, year, inp.overrides))
    if fee.index is not None:
        index = regime.index(fee.index)
        if year > index.base_year:
            correction = inp.index_factors.get(index.code)
            if correction is None:
                raise UserError(
                    f"O valor de {_amount_txt(rate)}/m² é de {index.base_year} e é corrigido anualmente pelo "
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
        parts.extend([_m(dims[0]), _m(dims[1])])
    else:
        parts.append(_m(area))
    exact = rate.value * factor * area
    return QuoteLine(
        label=fee.label,
        amount=round_cents(exact),
        formula=_TIMES.join(parts),
        basis=_join_basis(regime, *bases),
        fee=fee.id,
        year=year,
        due=_due_text(fee),
        details=tuple(details),
    )


def _check_declared_matches_line(regime: Regime, line: Line, size: tuple[Decimal, Decimal], inp: _Inputs) -> None:
    front, depth = size
    if inp.area is not None and inp.area != front * depth:
        raise UserError(
            f'O ato fixa {_m(front)} × {_m(depth)} = {_m(front * depth)} m² para "{line.label}" '
            f"({regime.cite(line.basis)}); informado {_m(inp.area)} m².",
            field="area",
        )
    if inp.front is not None and inp.front != front:
        raise UserError(
            f'O ato fixa {_m(front)} m de frente para "{line.label}" ({regime.cite(line.basis)}); '
            f"informado {_m(inp.front)} m.",
            field="front",
        )
    if inp.depth is not None and inp.depth != depth:
        raise UserError(
            f'O ato fixa {_m(depth)} m de profundidade para "{line.label}" ({regime.cite(line.basis)}); '
            f"informado {_m(inp.depth)} m.",
            field="depth",
        )


def _used_area(
    regime: Regime, fee: Fee, line: Line | None, inp: _Inputs
) -> tuple[tuple[Decimal, Decimal] | None, Decimal]:
    """The area actually used ("por metro quadrado utilizado", SJC art. 11, § 5º): the stall's front × depth (or
    its area), never beyond the size the act fixes for the line — a maximum (art. 5º)."""
    size = line.size if line is not None else None
    if inp.area is None and (inp.front_or_equipment() is None or inp.depth_or_equipment() is None):
        fixed = (
            f' — o ato fixa no máximo {_m(size[0])} × {_m(size[1])} m para "{line.label}" ({regime.cite(line.basis)})'
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
                f"{name.capitalize()} de {_m(value)} {unit} acima do máximo de {_m(most)} {unit} que o ato fixa "
                f'para "{line.label}" ({regime.cite(line.basis)}).',
                field=key,
            )
    return dims, area


def _declared_area(inp: _Inputs, fee: Fee) -> tuple[tuple[Decimal, Decimal] | None, Decimal]:
    if inp.area is not None:
        return None, inp.area
    front, depth = inp.front_or_equipment(), inp.depth_or_equipment()
    if front is not None and depth is not None:
        return (front, depth), front * depth
    raise UserError(
        f"Informe a área (m²) ou a frente e a profundidade da banca para calcular {fee.label.lower()}.",
        field="area",
    )


def _venue_table(regime: Regime, fee: Fee, venue: Venue, inp: _Inputs) -> list[QuoteLine]:
    year = _year_for(fee, inp.year)
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
            f"1 dia: taxa por 1 dia, {_amount_txt(venue.one_day)} (a partir de 2 dias: "
            f"{_amount_txt(venue.per_day)} por dia, mínimo de {venue.min_days} dias cobrados)"
        )
    else:
        daily, charged = venue.per_day, max(days, venue.min_days)
        if charged > days:
            rule = f"{days} dias de uso: mínimo de {venue.min_days} dias cobrados — {citation}"
        else:
            rule = (
                f"{days} dias de uso: {_amount_txt(venue.per_day)} por dia (mínimo de {venue.min_days} dias atingido)"
            )
    details = [rule]
    unit_detail = _unit_detail(regime, daily.unit, year, inp.overrides)
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
            basis=_join_basis(regime, venue.basis),
            fee=fee.id,
            year=year,
            due=_due_text(fee),
            details=tuple(details),
        )
    ]
    if venue.deposit is not None:
        lines.append(
            QuoteLine(
                label=f"Caução — {venue.label}",
                amount=round_cents(amount_value(regime, venue.deposit, year, inp.overrides)),
                formula=_amount_formula(regime, venue.deposit, year, inp.overrides),
                basis=_join_basis(regime, venue.basis),
                fee=fee.id,
                kind="deposit",
                year=year,
                due=_due_text(fee),
                details=tuple(d for d in (_unit_detail(regime, venue.deposit.unit, year, inp.overrides),) if d),
            )
        )
    return lines


def _amount_formula(
    regime: Regime, amount: Amount, year: int, overrides: UnitOverrides | None, count: int | None = None
) -> str:
    parts = [str(count)] if count is not None else []
    if amount.unit == "BRL":
        parts.append(_m(amount.value))
    else:
        parts.append(format_factor(amount.value))
        parts.append(format_factor(regime.unit_value(amount.unit, year, overrides)))
    return _TIMES.join(parts)


_PER_TEXT = {"once": "parcela única", "year": "por ano", "month": "por mês", "day": "por dia", "event": "por evento"}


def _fixed(regime: Regime, fee: Fee, inp: _Inputs) -> QuoteLine:
    year = _year_for(fee, inp.year)
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
        unit_detail = _unit_detail(regime, amount.unit, year, inp.overrides)
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
        basis=_join_basis(regime, fee.basis),
        fee=fee.id,
        year=year,
        due=_due_text(fee),
        details=tuple(details),
    )


# --------------------------------------------------------------------------- the engine


def fee_quote(
    regime: Regime | str,
    *,
    equipment: str | None = None,
    line: str | None = None,
    front: Decimal | int | str | None = None,
    depth: Decimal | int | str | None = None,
    hitch: Decimal | int | str | None = None,
    area: Decimal | int | str | None = None,
    mei: bool = False,
    local: bool = False,
    energy: str = ENERGY_NONE,
    days: int | None = None,
    venue: str | None = None,
    year: int | None = None,
    unit_overrides: UnitOverrides | None = None,
    index_factors: Mapping[str, Decimal | int | str] | None = None,
    fees: Iterable[str] | None = None,
    permit_kind: str | None = None,
    admin_values: Mapping[str, Decimal | int | str] | None = None,
    exemption: str | None = None,
) -> Quote:
    """Price a stall under ``regime``, line by line.

    Which fees are priced: the ids in ``fees`` if given; else the fees of
    ``permit_kind`` if given; else every fee the inputs call for —
    ``linear-metre`` when ``equipment`` or ``front`` is given, ``per-area-month``
    when ``line`` or ``area`` is given, ``energy`` when ``energy`` is a tier id
    (``"low"``, ``"high"``…), ``venue-table`` when ``venue`` is given. ``fixed``
    and ``per-day`` fees are priced only when named (``fees``/``permit_kind``);
    an ``admin_defined`` one needs its value in ``admin_values`` (R$, by fee id).
    An energy fee is skipped when ``energy="none"``.

    Sizes are metres (``Decimal``, ``int`` or text such as ``"4,00"``; never
    ``float``). ``hitch`` is added to ``front`` when the fee counts the hitch.
    ``year`` defaults to the year the act fixes for the fee (``year`` in the
    file), else the current year. ``unit_overrides`` — ``{(code, year): value}``
    from the database — win over the file. ``index_factors`` — ``{code: factor}``
    — correct an indexed fee (see the module docstring).

    ``exemption`` — the id of a case the act exempts (``[[fees.exemptions]]``:
    Olímpia art. 90, charitable and public educational events): the fees and
    deposits it waives are priced at R$ 0,00, with what they would have been
    and the article. A fee whose ``reading`` states how Praça reads an
    ambiguous rule shows it on every line.

    Bad input (unknown equipment/line/venue, zero or negative size, a tier the
    equipment is not entitled to, a missing unit value…) raises ``UserError``
    with a pt-BR message.
    """
    regime = _regime(regime)
    exemptions = {e.id: e for f in regime.fees for e in f.exemptions}
    if exemption is not None and exemption not in exemptions:
        options = ", ".join(exemptions) or "nenhuma"
        raise UserError(
            f"Dispensa '{exemption}' não existe no regime {regime.id} (dispensas: {options}).", field="exemption"
        )
    if energy is None:
        energy = ENERGY_NONE
    if not isinstance(mei, bool) or not isinstance(local, bool):
        raise TypeError("mei/local must be bool")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        raise UserError(f"Ano inválido: {year!r}", field="year")
    if year is not None and year < regime.published.year:
        raise UserError(
            f"Ano {year} anterior ao ato: {regime.act} ({regime.short}) é de {regime.published.year} e não fixa "
            f"preços para antes disso. Calcule para {regime.published.year} ou depois.",
            field="year",
        )
    inp = _Inputs(
        equipment=regime.equipment(equipment) if equipment is not None else None,
        line=regime.line(line) if line is not None else None,
        front=_measure(front, "Frente", "front"),
        depth=_measure(depth, "Profundidade", "depth"),
        hitch=_measure(hitch, "Engate", "hitch", allow_zero=True),
        area=_measure(area, "Área", "area", unit="m²"),
        mei=mei,
        local=local,
        energy=energy,
        days=_days(days),
        venue=regime.venue(venue) if venue is not None else None,
        year=year,
        overrides=unit_overrides,
        index_factors=_decimal_map(index_factors, "Fator de correção"),
        admin_values=_admin_values(regime, admin_values),
        exemption=exemption,
    )
    if inp.equipment is not None:
        _check_equipment_limits(regime, inp)

    notes: list[str] = []
    energy_fees = [f for f in regime.fees if f.kind == "energy"]
    tier_owner: tuple[Fee, EnergyTier] | None = None
    if energy != ENERGY_NONE:
        for fee in energy_fees:
            tier = fee.tier(energy)
            if tier is not None:
                tier_owner = (fee, tier)
                break
        if tier_owner is None:
            if not energy_fees:
                notes.append(
                    f"Energia: o regime {regime.id} ({regime.short}) não tem tarifa de energia — "
                    f"a faixa '{energy}' não entra no cálculo."
                )
            else:
                tier_ids = [ENERGY_NONE] + [t.id for f in energy_fees for t in f.tiers]
                raise UserError(
                    f"Faixa de energia '{energy}' não existe no regime {regime.id}. Opções: {', '.join(tier_ids)}.",
                    field="energy",
                )

    explicit: list[Fee] | None = None
    if fees is not None:
        explicit = [regime.fee(fee_id) for fee_id in fees]
    elif permit_kind is not None:
        explicit = [regime.fee(fee_id) for fee_id in regime.permit_kind(permit_kind).fees]

    selected: list[Fee] = []
    if explicit is not None:
        selected = [f for f in explicit if not (f.kind == "energy" and energy == ENERGY_NONE)]
        if tier_owner is not None and tier_owner[0] not in selected:
            notes.append(
                f"Energia: a tarifa de energia não faz parte dos preços pedidos "
                f'({", ".join(f.id for f in explicit)}) — a faixa "{tier_owner[1].label}" não entra '
                f"no cálculo."
            )
            tier_owner = None
    else:
        for fee in regime.fees:
            if fee.kind == "linear-metre" and (inp.equipment is not None or inp.front is not None):
                selected.append(fee)
            elif fee.kind == "per-area-month" and (inp.line is not None or inp.area is not None):
                selected.append(fee)
            elif fee.kind == "energy" and tier_owner is not None and fee is tier_owner[0]:
                selected.append(fee)
            elif fee.kind == "venue-table" and inp.venue is not None and inp.venue in fee.venues:
                selected.append(fee)
    if not selected:
        raise UserError(_nothing_to_price(regime), field="fees")

    lines: list[QuoteLine] = []
    for fee in selected:
        start = len(lines)
        _price_fee(regime, fee, inp, tier_owner, lines)
        lines[start:] = [_as_read_and_exempted(regime, fee, line, inp) for line in lines[start:]]
    if exemption is not None and not any(exemption in {e.id for e in f.exemptions} for f in selected):
        notes.append(
            f'Dispensa: "{exemptions[exemption].label}" não se aplica aos preços calculados — não altera o valor.'
        )

    inputs = {
        k: v
        for k, v in dict(
            equipment=equipment,
            line=line,
            front=inp.front,
            depth=inp.depth,
            hitch=inp.hitch,
            area=inp.area,
            mei=mei,
            local=local,
            energy=energy,
            days=inp.days,
            venue=venue,
            year=year,
            exemption=exemption,
        ).items()
        if v is not None
    }
    notes.extend(_unused_inputs(selected, inp))
    return Quote(regime=regime.id, lines=tuple(lines), inputs=inputs, notes=tuple(notes))


def _as_read_and_exempted(regime: Regime, fee: Fee, line: QuoteLine, inp: _Inputs) -> QuoteLine:
    """A fee's line with the regime's declared reading of an ambiguous rule, and priced at R$ 0,00 where the
    case given is one the act exempts (the amount it would have been stays in the formula)."""
    details = line.details
    if fee.reading and line.kind == "charge":
        details = (*details, f"Leitura adotada ({regime.cite_item(fee)}): {fee.reading}")
    exemption = next((e for e in fee.exemptions if e.id == inp.exemption), None)
    waived = exemption is not None and ("deposit" if line.kind == "deposit" else "fee") in exemption.waives
    if exemption is None or not waived:
        return dataclasses.replace(line, details=details)
    cite = regime.cite_item(exemption)
    return dataclasses.replace(
        line,
        amount=Decimal("0.00"),
        formula=f"dispensada ({cite}); sem a dispensa: {line.formula} = {format_brl(line.amount)}",
        basis=f"{line.basis}; {cite}",
        details=(*details, f"Dispensa: {exemption.label} ({cite}) — sem ela seria {format_brl(line.amount)}."),
    )


def _price_fee(
    regime: Regime, fee: Fee, inp: _Inputs, tier_owner: tuple[Fee, EnergyTier] | None, lines: list[QuoteLine]
) -> None:
    """Price one fee into ``lines`` (a venue table gives its fee and its deposit)."""
    if fee.kind == "linear-metre":
        lines.append(_linear_metre(regime, fee, inp))
    elif fee.kind == "energy":
        if tier_owner is not None and tier_owner[0] is fee:
            lines.append(_energy(regime, fee, tier_owner[1], inp))
    elif fee.kind == "per-area-month":
        lines.append(_per_area_month(regime, fee, inp))
    elif fee.kind == "venue-table":
        if inp.venue is None or inp.venue not in fee.venues:
            raise UserError(
                f'Informe o imóvel de "{fee.label}". Opções: {", ".join(v.id for v in fee.venues)}.',
                field="venue",
            )
        lines.extend(_venue_table(regime, fee, inp.venue, inp))
    else:  # fixed, per-day
        lines.append(_fixed(regime, fee, inp))


def _unused_inputs(selected: list[Fee], inp: _Inputs) -> list[str]:
    """Inputs given that none of the priced fees reads: said, never silently dropped."""
    notes: list[str] = []
    conditions = [d.when for f in selected if f.kind == "linear-metre" for d in f.discounts]
    if inp.mei and not any(c.mei is not None for c in conditions):
        notes.append(
            "MEI: nenhum dos preços calculados tem desconto ou condição para MEI — a informação não altera o valor."
        )
    if inp.local and not any(c.local is not None for c in conditions):
        notes.append(
            "Do município: nenhum dos preços calculados tem desconto ou condição para quem é do "
            "município — a informação não altera o valor."
        )
    by_day = any(f.kind in ("venue-table", "per-day") or (f.kind == "fixed" and f.per == "day") for f in selected)
    if inp.days is not None and not by_day:
        days = f"{inp.days} {'dia' if inp.days == 1 else 'dias'}"
        notes.append(
            f"Dias ({days}): nenhum dos preços calculados é cobrado por dia — a informação não altera o valor."
        )
    priced = {f.id for f in selected}
    for fee_id in inp.admin_values:
        if fee_id not in priced:
            notes.append(
                f"O valor informado para '{fee_id}' não entra no cálculo: esse preço não está entre os "
                "calculados (peça-o pelo id)."
            )
    return notes


def _admin_values(regime: Regime, values: Mapping[str, Any] | None) -> dict[str, Decimal]:
    """R$ values of the fees the act leaves to the administration, by fee id (cents at most)."""
    result: dict[str, Decimal] = {}
    admin_ids = [f.id for f in regime.fees if f.admin_defined]
    for key, value in (values or {}).items():
        if key not in admin_ids:
            known = (
                f"Preços definidos pela Administração neste regime: {', '.join(admin_ids)}."
                if admin_ids
                else "Este regime não tem preço definido pela Administração."
            )
            raise UserError(
                f"'{key}' não é um preço definido pela Administração no regime {regime.id} ({regime.short}). {known}",
                field="admin_value",
            )
        try:
            number = to_decimal(value)
        except UserError:
            raise UserError(
                f"Valor informado para '{key}' inválido: {value!s} não é um número (use, por exemplo, 150,00).",
                field="admin_value",
            ) from None
        if number < 0:
            raise UserError(
                f"Valor informado para '{key}' não pode ser negativo: {format_factor(number)}", field="admin_value"
            )
        if number != number.quantize(CENT_Q):
            raise UserError(
                f"Valor informado para '{key}' inválido: {format_factor(number)} — informe no máximo "
                "duas casas decimais (centavos).",
                field="admin_value",
            )
        result[key] = number
    return result


def _check_equipment_limits(regime: Regime, inp: _Inputs) -> None:
    eq = inp.equipment
    assert eq is not None
    if eq.max_front is not None and inp.front is not None and inp.front > eq.max_front:
        raise UserError(
            f"{eq.label}: frente máxima de {_m(eq.max_front)} m ({regime.cite(eq.basis)}); "
            f"informado {_m(inp.front)} m.",
            field="front",
        )
    if eq.max_depth is not None and inp.depth is not None and inp.depth > eq.max_depth:
        raise UserError(
            f"{eq.label}: profundidade máxima de {_m(eq.max_depth)} m ({regime.cite(eq.basis)}); "
            f"informado {_m(inp.depth)} m.",
            field="depth",
        )


def _nothing_to_price(regime: Regime) -> str:
    hints = []
    kinds = {f.kind for f in regime.fees}
    if "linear-metre" in kinds:
        hints.append("o equipamento e a frente (metros)")
    if "per-area-month" in kinds:
        hints.append("o ramo")
    if "energy" in kinds:
        hints.append("a faixa de energia")
    if "venue-table" in kinds:
        hints.append("o imóvel e os dias")
    if {"fixed", "per-day"} & kinds:
        hints.append("o preço pelo id (" + ", ".join(f.id for f in regime.fees if f.kind in ("fixed", "per-day")) + ")")
    if not hints:
        return f"O regime {regime.id} ({regime.short}) não fixa preços nem taxas."
    return f"Nada a calcular no regime {regime.id}: informe " + ", ou ".join(hints) + "."
