"""Fees: their kinds' keys, discounts and the conditions they ask, energy tiers, venues, arrears, exemptions."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes.model.common import Amount


@dataclass(frozen=True)
class Due:
    """When a fee is paid: on a fixed date, on a day of each month, N days or N hours after the guia is issued, or
    at each event / each feira day, when the stall is set up (``at_each``)."""

    basis: str
    date: dt.date | None = None
    day_of_month: int | None = None
    days_after_issue: int | None = None
    hours_after_issue: int | None = None
    at_each: str | None = None  # DUE_EACH: "event" | "feira-day"
    notes: str | None = None


@dataclass(frozen=True)
class Condition:
    """When a discount applies: every given key must hold."""

    mei: bool | None = None
    local: bool | None = None
    equipment: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    max_depth: Decimal | None = None
    max_metres: Decimal | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Discount:
    id: str
    label: str
    rate: Decimal
    when: Condition
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class EnergyTier:
    id: str
    label: str
    factor: Decimal
    basis: str
    equipment: tuple[str, ...] = ()
    max_metres: Decimal | None = None
    max_depth: Decimal | None = None
    expected: Decimal | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Venue:
    id: str
    label: str
    one_day: Amount
    per_day: Amount
    min_days: int
    basis: str
    deposit: Amount | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Arrears:
    """Extension: unpaid months that trigger a sanction (SJC art. 11, § 6º)."""

    months: int
    basis: str
    consecutive: bool = True
    sanction: str = "revocation"
    notes: str | None = None


@dataclass(frozen=True)
class Exemption:
    """A case the act exempts from a fee (Olímpia art. 90: charitable and public educational events): an input
    of the quote and of the application, never assumed."""

    id: str
    label: str
    basis: str
    #: what it waives: the fee itself (``fee``), the deposit (``deposit``)
    waives: tuple[str, ...] = ("fee", "deposit")
    #: the document that proves it (an id of ``[[documents]]``), asked for at the application
    document: str | None = None
    #: the documents it makes moot (the receipts of the fee and deposit it waives)
    waives_documents: tuple[str, ...] = ()
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Fee:
    id: str
    label: str
    kind: str
    basis: str
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None
    due: Due | None = None
    year: int | None = None
    # linear-metre
    coefficient: Decimal | None = None
    unit: str | None = None
    min_metres: Decimal | None = None
    min_metres_basis: str | None = None
    hitch_counts: bool = False
    hitch_basis: str | None = None
    metre: str = "front"
    discounts: tuple[Discount, ...] = ()
    # energy
    tiers: tuple[EnergyTier, ...] = ()
    # per-area-month
    rate: Amount | None = None
    area: str | None = None
    index: str | None = None
    arrears: Arrears | None = None
    # venue-table
    venues: tuple[Venue, ...] = ()
    # fixed / per-day
    amount: Amount | None = None
    per: str | None = None
    admin_defined: bool = False
    #: cases the act exempts (``Exemption``)
    exemptions: tuple[Exemption, ...] = ()
    #: how Praça reads the act where it can be read two ways and the reading costs someone money
    reading: str | None = None
    notes: str | None = None

    def tier(self, tier_id: str) -> EnergyTier | None:
        for tier in self.tiers:
            if tier.id == tier_id:
                return tier
        return None
