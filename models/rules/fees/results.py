r"""What the fee engine answers: a :class:`Quote`, made of :class:`QuoteLine`\ s — each with its amount,
its formula with the values in and the article it rests on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from models.base.money import format_brl

ENERGY_NONE = "none"
TIMES = " × "
MINUS = " − "

UnitOverrides = Mapping[tuple[str, int], Decimal]
CENT_Q = Decimal("0.01")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class AskedValue:
    """A value a formula asked for (``[[fees.inputs]]``), as given: what, how much, who set it — kept with the
    amount wherever the line is stored (the application's frozen quote, the charge's detail)."""

    name: str
    label: str
    value: Decimal
    set_by: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "value": str(self.value), "set_by": self.set_by}


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
    #: the values the act leaves open that this line was priced with, and who set them
    asked: tuple[AskedValue, ...] = ()
    #: the values that are another fee of the act (a fine's ``fee = "id"``), each said with its formula and article
    #: ("Preço público de ocupação (art. 9º) = Preço … da permissão nº 2026/0001: 5,50 × … = R$ 1.204,47 (…)")
    fee_values: tuple[str, ...] = ()
    #: the id of the exception of a formula fee that set its general rule aside (None: the general rule)
    exception: str | None = None

    def to_dict(self, currency: str = "R$") -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "amount": str(self.amount),
            "amount_text": format_brl(self.amount, currency=currency),
            "formula": self.formula,
            "basis": self.basis,
            "fee": self.fee,
            "kind": self.kind,
            "year": self.year,
            "due": self.due,
            "details": list(self.details),
        }
        if self.asked:
            data["asked"] = [value.to_dict() for value in self.asked]
        if self.exception:
            data["exception"] = self.exception
        return data


@dataclass(frozen=True)
class Quote:
    regime: str
    lines: tuple[QuoteLine, ...]
    inputs: Mapping[str, Any] = field(default_factory=dict, compare=False)
    #: Observations on the inputs: what was given but does not change this price, and why.
    notes: tuple[str, ...] = ()
    #: the money of the act's amounts (``[regime] currency``): "R$", or "Cr$" for an act in cruzeiros
    currency: str = "R$"

    def money(self, value: Decimal) -> str:
        """``value`` in the act's own money: ``R$ 1.234,56``, ``Cr$ 1.500,00``."""
        return format_brl(value, currency=self.currency)

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
            "currency": self.currency,
            "lines": [line.to_dict(self.currency) for line in self.lines],
            "total": str(self.total),
            "total_text": self.money(self.total),
            "total_charges": str(self.total_charges),
            "total_deposits": str(self.total_deposits),
            "notes": list(self.notes),
        }
