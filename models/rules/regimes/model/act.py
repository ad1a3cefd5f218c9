"""The act itself and its catalogue: fiscal units and indexes, documents, equipment, groups, lines,
sections; the calendar, the entry into force and an amendment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes.model.common import ClosedDay


@dataclass(frozen=True)
class UnitValue:
    year: int
    value: Decimal
    basis: str | None = None
    source: str | None = None
    notes: str | None = None
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None


@dataclass(frozen=True)
class Unit:
    code: str
    name: str
    basis: str
    values: tuple[UnitValue, ...] = ()
    basis_act: str | None = None
    notes: str | None = None

    def value_for(self, year: int) -> UnitValue | None:
        for item in self.values:
            if item.year == year:
                return item
        return None


@dataclass(frozen=True)
class Index:
    code: str
    name: str
    base_year: int
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Document:
    id: str
    label: str
    basis: str
    validity_months: int | None = None
    applies_to: tuple[str, ...] = ()
    condition: str | None = None
    #: what the document proves, where a rule reads it: "residence" (in the municipality; Sapezal art. 7º, III and VI)
    proves: str | None = None
    #: the applicant's record that stands for it when the file declares so (:data:`DOCUMENT_RECORDED`): then
    #: the number recorded in the form meets the requirement without a paper delivered — never guessed
    recorded: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Equipment:
    id: str
    label: str
    basis: str
    has_hitch: bool = False
    front: Decimal | None = None
    depth: Decimal | None = None
    handle: Decimal | None = None
    max_front: Decimal | None = None
    max_depth: Decimal | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Group:
    id: str
    number: int
    label: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Line:
    id: str
    label: str
    basis: str
    group: str | None = None
    front: Decimal | None = None
    depth: Decimal | None = None
    basis_act: str | None = None
    notes: str | None = None

    @property
    def area(self) -> Decimal | None:
        if self.front is None or self.depth is None:
            return None
        return self.front * self.depth

    @property
    def size(self) -> tuple[Decimal, Decimal] | None:
        """``(front, depth)`` where the act fixes both, else None."""
        if self.front is None or self.depth is None:
            return None
        return self.front, self.depth


@dataclass(frozen=True)
class Colour:
    name: str
    basis: str
    hex: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Section:
    id: str
    numeral: str
    label: str
    basis: str
    lines: tuple[str, ...] = ()
    side: str | None = None
    order: int | None = None
    colour: Colour | None = None
    fire_rules: bool = False
    fire_rules_basis: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Calendar:
    """The regime's legal calendar: the rule for process deadlines that end on a closed day."""

    closed_day: ClosedDay
    notes: str | None = None


@dataclass(frozen=True)
class InForce:
    """When the act came into force: facts before it are not judged by it."""

    from_: dt.date
    #: the article that says when the act is in force; None where it is unknown (``basis_unknown = true``)
    basis: str | None
    notes: str | None = None

    @property
    def basis_unknown(self) -> bool:
        return self.basis is None


@dataclass(frozen=True)
class Purpose:
    """``[regime] purpose``: what the act declares its rules are for ("a preços acessíveis, evitando-se, quando
    possível, os intermediários"), with its article — printed with the act, never a rule Praça applies."""

    text: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Conversion:
    """A rule that converts the act's amounts to reais from a day (``[regime] conversion``): an amendment, a
    correction act or the monetary reform's law declares it — never Praça. From ``from_`` on, an amount written in
    the act's money is shown as ``amount ÷ divide_by`` in reais, rounded to the cent half up, citing the rule."""

    divide_by: Decimal
    from_: dt.date
    basis: str
    #: the act the rule is in (another law: "Lei federal nº 8.880/1994"), or None for an article of this act
    basis_act: str | None = None
    to: str = "R$"
    notes: str | None = None

    def applies(self, on: dt.date) -> bool:
        return on >= self.from_

    def convert(self, amount: Decimal) -> Decimal:
        from decimal import ROUND_HALF_UP

        return (Decimal(amount) / self.divide_by).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

    @property
    def cite(self) -> str:
        return f"{self.basis_act}, {self.basis}" if self.basis_act else self.basis

    @property
    def divisor(self) -> str:
        """The divisor as the act writes it: "2.750"."""
        from models.base.money import format_factor

        return format_factor(self.divide_by)

    def said(self, amount: Decimal, currency: str) -> tuple[Decimal, str]:
        """``amount`` (in the act's ``currency``) in reais, and the sentence that says so with the rule's article:
        "Convertido em reais: CR$ 1.500,00 ÷ 2.750 = R$ 0,55 (Lei federal nº 8.880/1994, art. 1º)"."""
        from models.base.money import format_brl

        converted = self.convert(amount)
        return converted, (
            f"Convertido em reais: {format_brl(amount, currency=currency)} ÷ {self.divisor} = "
            f"{format_brl(converted, currency=self.to)} ({self.cite})"
        )

    def note(self, currency: str) -> str:
        """ "Valores do ato em CR$ convertidos em reais desde 01/07/1994: ÷ 2.750 (…)." """
        return (
            f"Valores do ato em {currency} convertidos em reais desde {self.from_.strftime('%d/%m/%Y')}: "
            f"÷ {self.divisor} ({self.cite})."
        )


@dataclass(frozen=True)
class Amendment:
    """This file is an amended version of the act: the amending act and the day its text applies from.

    A fact dated before ``in_force_from`` is judged by the version before (the original act stays)."""

    act: str
    in_force_from: dt.date
    summary: str | None = None
    notes: str | None = None
