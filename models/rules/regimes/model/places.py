"""Where and when: schedules and opening hours, sites, the layout of a street, and the selection."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes.model.common import Flag


@dataclass(frozen=True)
class Instant:
    at: dt.datetime
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class HourRange:
    start: dt.time
    end: dt.time
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class OpeningHours:
    """Extension: weekly opening hours, or ``admin_defined`` when the act leaves them to the Executive."""

    basis: str
    opens: dt.time | None = None
    closes: dt.time | None = None
    weekdays: tuple[str, ...] = ()
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class Places:
    """Where a feira or the sales happen when the act leaves the places to the Executive ("em logradouros
    designados pelo Prefeito"): ``admin_defined``, with the act's criteria in ``text``. Places the act names
    are [[sites]]."""

    basis: str
    admin_defined: bool = True
    text: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class ScheduleDay:
    date: dt.date
    opens: dt.time
    closes: dt.time
    basis: str
    notes: str | None = None

    @property
    def crosses_midnight(self) -> bool:
        return self.closes <= self.opens

    @property
    def opens_at(self) -> dt.datetime:
        return dt.datetime.combine(self.date, self.opens)

    @property
    def closes_at(self) -> dt.datetime:
        day = self.date + dt.timedelta(days=1) if self.crosses_midnight else self.date
        return dt.datetime.combine(day, self.closes)


@dataclass(frozen=True)
class Schedule:
    id: str
    label: str
    basis: str
    setup: Instant | None = None
    teardown: Instant | None = None
    days: tuple[ScheduleDay, ...] = ()
    setup_hours: HourRange | None = None
    teardown_hours: HourRange | None = None
    opening_hours: OpeningHours | None = None
    #: where, when the act leaves the places to the Executive
    places: Places | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Site:
    id: str
    kind: str
    label: str
    basis: str
    from_: str | None = None
    to: str | None = None
    max_points: int | None = None
    description: str | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Measure:
    basis: str
    value: Decimal | None = None
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class EndVendors:
    front: Decimal
    depth: Decimal
    basis: str
    min_distance: Decimal | None = None
    notes: str | None = None


@dataclass(frozen=True)
class DistanceRule:
    what: str
    value: Decimal
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class Count:
    basis: str
    value: int | None = None
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class LayoutRules:
    min_gap: Measure | None = None
    no_crossings: Flag | None = None
    keep_garages_free: Flag | None = None
    sides: Flag | None = None
    end_vendors: EndVendors | None = None
    min_distance_from: tuple[DistanceRule, ...] = ()
    max_points: Count | None = None
    numbering: tuple[str, ...] = ()
    notes: str | None = None


@dataclass(frozen=True)
class Registration:
    """Extension: when and how applications are taken (SB art. 3º)."""

    basis: str
    opens: dt.datetime | None = None
    until: dt.datetime | None = None
    proof_until: dt.datetime | None = None
    proof_basis: str | None = None  # the article of the proof's cut-off, when it is not ``basis`` alone (SB art. 6º)
    place: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class DrawSpec:
    """Extension: a public draw — of positions (SB art. 3º, I) or of vacancies (SJC art. 18)."""

    basis: str
    at: dt.datetime | None = None
    place: str | None = None
    by: str | None = None
    when_more_than: int | None = None
    per: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class LateFill:
    """Extension: filling places left after the deadlines (SB art. 10)."""

    basis: str
    order_by: str = "registration-time"
    pay_days_after_issue: int | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Preference:
    id: str
    label: str
    rank: int
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class Bracket:
    points: int
    min: Decimal | None = None
    max: Decimal | None = None
    notes: str | None = None


@dataclass(frozen=True)
class ValuePoints:
    equals: str | bool | int  # a category (text), a yes/no field (bool) or a count
    points: int
    notes: str | None = None


@dataclass(frozen=True)
class Criterion:
    id: str
    label: str
    field: str
    basis: str
    brackets: tuple[Bracket, ...] = ()
    values: tuple[ValuePoints, ...] = ()
    #: for a time since a date (TIME_FIELDS): "elapsed" or "completed-years", as the regime reads the act
    measure: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Selection:
    method: str
    basis: str
    #: the permit kinds whose places this selection gives (empty: every kind of the regime); their rules only —
    #: a quota of another kind (Ilha Comprida art. 11, § 2º: licences) is not a quota of these draws (art. 21)
    permit_kinds: tuple[str, ...] = ()
    alternates: int | None = None
    tie_break: tuple[str, ...] = ()
    tie_break_basis: str | None = None  # the article of the tie-break (Sapezal: art. 10, § 3º)
    exclude: tuple[str, ...] = ()
    appeal_days: int | None = None
    decision_business_days: int | None = None
    criteria: tuple[Criterion, ...] = ()
    order_by: str | None = None
    registration: Registration | None = None
    positions: DrawSpec | None = None
    draw: DrawSpec | None = None
    late_fill: LateFill | None = None
    preferences: tuple[Preference, ...] = ()
    basis_act: str | None = None
    notes: str | None = None
