"""The parts of a regime: one frozen dataclass per table of docs/regime-format.md (units, documents, lines,
sections, permit kinds and their rules, fees, schedules, sites, layout, selection, penalties, deadlines,
seizure, placard). The whole act is :class:`models.rules.regimes.regime.Regime`.

Over 600 lines and kept whole: it is one thing, the format's data model, read top to bottom beside the
format's description; its classes hold data only (a few derived properties), no behaviour to split by.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.base.errors import UserError

# --------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True)
class UnitValue:
    year: int
    value: Decimal
    basis: str | None = None
    source: str | None = None
    notes: str | None = None


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
class Validity:
    basis: str
    days: int | None = None
    months: int | None = None
    years: int | None = None
    until: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Renewal:
    basis: str
    from_days_before: int | None = None
    to_days_before: int | None = None
    until_month_day: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Startup:
    days: int
    basis: str
    extendable_once: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class Leave:
    """Extension: yearly rest the holder may take (SJC art. 16)."""

    basis: str
    max_days_per_year: int
    max_periods: int | None = None
    notice_days: int | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Transfer:
    """Extension: the act lets the permit pass to the holder's heirs on death (SJC art. 17; Sapezal art. 36, V)."""

    basis: str
    to: str  # who may receive it, in the act's words
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Rule:
    kind: str
    basis: str
    years: int | None = None
    allowed: tuple[str, ...] = ()
    document: str | None = None
    scope: str | None = None
    months: int | None = None
    after: str | None = None
    count: int | None = None
    percent: Decimal | None = None
    beneficiaries: tuple[str, ...] = ()
    text: str | None = None
    admin_defined: bool = False
    #: ``resident``: the act says "há mais de N anos" — strictly more than N years (not "no mínimo")
    more_than: bool = False
    #: ``one-per``: only in the same feira/site (SJC art. 12: "na mesma feira livre")
    same_site: bool = False
    #: the act's words for that site ("mesma feira"), where ``same_site`` gives them
    same_site_words: str | None = None
    #: ``document``/``cnpj-required``/``legal-form``: met later, within this ``[[deadlines]]`` entry, not at the
    #: application (Sapezal art. 11: CNPJ, health and clearance certificates within 10 business days of the final list)
    due: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class PermitKind:
    id: str
    label: str
    instrument: str
    holder: tuple[str, ...]
    basis: str
    documents: tuple[str, ...] = ()
    fees: tuple[str, ...] = ()
    validity: Validity | None = None
    renewal: Renewal | None = None
    startup: Startup | None = None
    leave: Leave | None = None
    transfer: Transfer | None = None
    schedule: str | None = None
    #: the act admits applicants from other municipalities (Sapezal art. 29; art. 32): residence does not refuse them
    non_residents: Flag | None = None
    #: the warning the act requires on the document: the permit is precarious (Sapezal art. 35, VI), in its words
    precarious: TextRule | None = None
    rules: tuple[Rule, ...] = ()
    basis_act: str | None = None
    notes: str | None = None


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
class Due:
    basis: str
    date: dt.date | None = None
    day_of_month: int | None = None
    days_after_issue: int | None = None
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
    notes: str | None = None


@dataclass(frozen=True)
class Measure:
    basis: str
    value: Decimal | None = None
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class Flag:
    basis: str
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


@dataclass(frozen=True)
class SanctionCondition:
    """The fact a sanction waits for (``SANCTION_FACTS``), in the act's words: never imposed by the count alone."""

    fact: str
    text: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Sanction:
    kind: str
    basis: str
    comply_days: int | None = None
    comply_hours: int | None = None
    multiplier: Decimal | None = None
    amount: Amount | None = None
    graded: bool = False
    max: Amount | None = None
    days: int | None = None
    max_days: int | None = None
    until_remedied: bool = False
    wait_months: int | None = None
    text: str | None = None
    cumulative: bool = False
    #: the act leaves it to the authority ("poderá", "cumulativamente ou não"): proposed, imposed or omitted
    #: by the authority with a written reason
    discretionary: bool = False
    admin_defined: bool = False
    condition: SanctionCondition | None = None
    #: sanctions of one step with the same ``one_of`` are alternatives: the authority imposes exactly one
    #: (Olímpia art. 217: "suspensões temporárias ou exclusão definitiva")
    one_of: str | None = None
    #: the act's own word for it ("revogação", "exclusão definitiva") where it differs from the kind's
    word: str | None = None
    #: a warning's deadline to comply (the id of a ``role = "compliance"`` deadline)
    deadline: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class LadderStep:
    offence: int
    sanctions: tuple[Sanction, ...]
    notes: str | None = None


@dataclass(frozen=True)
class Ladder:
    id: str
    label: str
    basis: str
    steps: tuple[LadderStep, ...]
    recurrence_window_days: int | None = None
    #: counted in calendar years: the same day N years before
    recurrence_window_years: int | None = None
    #: the matter (a regime scope) its infractions belong to: it chooses the matter's own deadlines
    matter: str | None = None
    basis_act: str | None = None
    notes: str | None = None

    def step_for(self, offence: int) -> LadderStep:
        """The step of the ``offence``-th offence (1-based); the last step repeats."""
        if offence < 1:
            raise UserError(f"Número da ocorrência inválido: {offence} (a primeira é 1)")
        for step in self.steps:
            if step.offence == offence:
                return step
        return self.steps[-1]


@dataclass(frozen=True)
class Fine:
    basis: str
    amount: Amount | None = None
    max: Amount | None = None
    graded: bool = False
    admin_defined: bool = False
    #: the act lets the authority impose it or not (Dec. 4.794/2026, art. 14: "poderá acarretar")
    discretionary: bool = False
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Tolerance:
    """The act tolerates the first occurrences (Olímpia art. 218: three feiras without authorisation)."""

    occurrences: int
    spares: tuple[str, ...]  # sanction kinds not imposed within the tolerance
    text: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Infraction:
    code: str
    label: str
    article: str
    basis: str
    nature: str | None = None
    severity: str | None = None
    fine: Fine | None = None
    ladder: str | None = None
    sanctions: tuple[Sanction, ...] = ()
    tolerance: Tolerance | None = None
    #: the matter (a regime scope) it belongs to, where its ladder does not say it
    matter: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Recurrence:
    basis: str
    window_days: int | None = None
    window_years: int | None = None
    multiplier: Decimal | None = None
    max_doublings: int | None = None
    discretionary: bool = False
    #: how Praça reads the act where it can be read two ways and the reading costs someone money
    reading: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class IndexRef:
    code: str
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class RecordRequirement:
    """Something the act requires of or says about a record (Olímpia art. 32, V), with the act's words to print."""

    basis: str
    text: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class RecordRules:
    #: the inspector's registration number (matrícula) must be on the record
    inspector_id: RecordRequirement | None = None
    #: without the offender's signature a witness may supply it (Ilha Comprida art. 29, parágrafo único)
    witness_when_unsigned: RecordRequirement | None = None
    #: without the offender's signature the inspector states why (Olímpia art. 32, § 3º)
    unsigned_note: RecordRequirement | None = None
    #: the record stands without the offender's signature, in the act's words (Olímpia art. 32, § 2º)
    unsigned_valid: RecordRequirement | None = None


@dataclass(frozen=True)
class Penalties:
    cumulative: Flag | None = None
    recurrence: Recurrence | None = None
    any_order: Flag | None = None
    index: IndexRef | None = None
    record: RecordRules | None = None
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
class Calendar:
    """The regime's legal calendar: the rule for process deadlines that end on a closed day."""

    closed_day: ClosedDay
    notes: str | None = None


@dataclass(frozen=True)
class InForce:
    """When the act came into force: facts before it are not judged by it."""

    from_: dt.date
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class Amendment:
    """This file is an amended version of the act: the amending act and the day its text applies from.

    A fact dated before ``in_force_from`` is judged by the version before (the original act stays)."""

    act: str
    in_force_from: dt.date
    summary: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Deadline:
    id: str
    label: str
    count: str
    from_: str
    basis: str
    #: what the deadline is for (``DEADLINE_ROLES``)
    role: str = ""
    days: int | None = None
    hours: int | None = None
    direction: str = "after"
    applies_to: tuple[str, ...] = ()
    #: the matters (regime scopes) it is for; empty: the general deadline of its role
    matter: tuple[str, ...] = ()
    #: for a reclaim deadline: perishable goods (True), the others (False)
    perishable: bool | None = None
    #: offered to the inspector as an alternative, never chosen by default
    alternative: bool = False
    #: its own rule for a closed last day; None: the regime's calendar for process deadlines
    closed_day: ClosedDay | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Period:
    basis: str
    days: int | None = None
    hours: int | None = None
    count: str | None = None
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class DepotFee:
    basis: str
    amount: Amount | None = None
    per: str | None = None
    admin_defined: bool = False
    #: the matters (regime scopes) whose seizures pay it; empty: every seizure
    scopes: tuple[str, ...] = ()
    notes: str | None = None


@dataclass(frozen=True)
class TextRule:
    text: str
    basis: str
    amount: Amount | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Seizure:
    basis: str
    depot_fee: DepotFee | None = None
    reclaim_perishable: Period | None = None
    reclaim_other: Period | None = None
    donation: TextRule | None = None
    release: TextRule | None = None
    #: what the offender owes for the seizure where no depot fee applies (Olímpia art. 23, parágrafo único)
    expenses: TextRule | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Prohibition:
    id: str
    label: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Duty:
    id: str
    label: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Placard:
    """Extension: the sign every stall must show (SB art. 4º, parágrafo único)."""

    basis: str
    min_width: Decimal | None = None
    min_height: Decimal | None = None
    background: str | None = None
    text_colour: str | None = None
    contents: tuple[str, ...] = ()
    notes: str | None = None
