"""Shapes several tables share: an amount, a flag with its article, a rule in text, a closed-day rule."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Amount:
    value: Decimal
    unit: str  # "BRL" or the code of one of the regime's units
    basis: str | None = None
    basis_act: str | None = None
    notes: str | None = None

    @property
    def is_brl(self) -> bool:
        return self.unit == "BRL"


@dataclass(frozen=True)
class Flag:
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class ClosedDay:
    """What happens to a deadline that ends on a day without public service (``CLOSED_DAY_RULES``), and why:
    the act's article (``basis``), or a law applied subsidiarily (``basis_act``: Lei 9.784/1999, art. 66, § 1º)."""

    rule: str
    basis: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class TextRule:
    text: str
    basis: str
    amount: Amount | None = None
    notes: str | None = None
