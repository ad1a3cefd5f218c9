"""Regimes: one legal act encoded as data (``resources/regimes/<id>.toml``).

``load_regimes()`` reads every file of the folder into frozen dataclasses and
validates it strictly against docs/regime-format.md: a missing required key, an
unknown key, a wrong type, a TOML float where a decimal string is required, a
bad or duplicate id, a dangling reference, a missing ``basis``, a file whose id
is not its name or a TOML syntax error each raise :class:`RegimeError`, whose
message names the file, the key path (``fees[0].discounts[1].rate``) and the
reason, in pt-BR.

No rule of a town lives here: this module only knows the *format*.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import functools
import hashlib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from dataclasses import replace as dataclass_replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, NoReturn

from models.base.errors import UserError

__all__ = [
    "RegimeError",
    "RegimeErrors",
    "load_regime_text",
    "check_regime_text",
    "Amendment",
    "MissingUnitValue",
    "load_regimes",
    "load_regime_file",
    "get_regime",
    "clear_regime_cache",
    "default_regimes_folder",
    "regime_to_dict",
    # dataclasses
    "Regime",
    "Unit",
    "UnitValue",
    "Index",
    "Document",
    "Equipment",
    "Group",
    "Line",
    "Colour",
    "Section",
    "PermitKind",
    "Validity",
    "Renewal",
    "Startup",
    "Leave",
    "Rule",
    "Amount",
    "Due",
    "Condition",
    "Discount",
    "EnergyTier",
    "Venue",
    "Arrears",
    "Fee",
    "Instant",
    "HourRange",
    "OpeningHours",
    "ScheduleDay",
    "Schedule",
    "Site",
    "Measure",
    "Flag",
    "EndVendors",
    "DistanceRule",
    "Count",
    "LayoutRules",
    "Registration",
    "DrawSpec",
    "LateFill",
    "Preference",
    "Bracket",
    "ValuePoints",
    "Criterion",
    "Selection",
    "Sanction",
    "LadderStep",
    "Ladder",
    "Fine",
    "Infraction",
    "Recurrence",
    "IndexRef",
    "Penalties",
    "Deadline",
    "Period",
    "DepotFee",
    "TextRule",
    "Seizure",
    "Prohibition",
    "Duty",
    "Placard",
]


# --------------------------------------------------------------------------- errors


class RegimeError(UserError):
    """A regime file is malformed (or a regime id is unknown).

    ``file``, ``key`` and ``reason`` are also kept apart for screens and tests.
    """

    def __init__(self, reason: str, *, file: str | None = None, key: str | None = None):
        parts = [p for p in (file, key) if p]
        message = ": ".join(parts + [reason])
        super().__init__(message, field=key)
        self.file = file
        self.key = key
        self.reason = reason


class RegimeErrors(RegimeError):
    """Every mistake found in one regime file at once (``praca regimes check``, "Instalar ato…").

    ``errors`` holds each :class:`RegimeError`; the message lists them one per line."""

    def __init__(self, errors: list[RegimeError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.reason, file=first.file, key=first.key)
        self.args = ("\n".join(str(e) for e in self.errors),)

    def __str__(self) -> str:
        return self.args[0]


class MissingUnitValue(UserError):
    """A fiscal unit has no value for the year asked: Praça never guesses one."""

    def __init__(self, regime: "Regime", code: str, year: int):
        unit = regime.units_by_code.get(code)
        name = f"{code} ({unit.name})" if unit else code
        known = sorted(v.year for v in unit.values) if unit else []
        known_txt = (
            f"; o regime tem valores para {', '.join(str(y) for y in known)}"
            if known
            else "; o ato não informa nenhum valor"
        )
        super().__init__(
            f"A unidade fiscal {name} não tem valor para {year} no regime {regime.id} "
            f"({regime.short}){known_txt}. Cadastre o valor de {code} de {year} antes de calcular.",
            field="unit_value",
        )
        self.code = code
        self.year = year


# --------------------------------------------------------------------------- constants

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CODE_RE = re.compile(r"^[A-Z][A-Z0-9-]*$")
DECIMAL_RE = re.compile(r"^-?\d+(\.\d+)?$")
HEX_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
MONTH_DAY_RE = re.compile(r"^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")
BASIS_RE = re.compile(r"^(arts?\.|anexo|tabela|ementa|preâmbulo)", re.IGNORECASE)

SCOPES = ("street-vending", "event", "street-food", "feira", "beach")
HOLDERS = ("person", "company")
LEGAL_FORMS = ("person", "company", "mei")
RULE_KINDS = (
    "min-age",
    "legally-capable",
    "legal-form",
    "cnpj-required",
    "municipal-registration",
    "resident",
    "document",
    "one-per",
    "no-debts",
    "no-prior-revocation",
    "waiting-period",
    "cap",
    "quota",
    "not-public-servant",
    "custom",
)
ONE_PER_SCOPES = ("person", "family", "spouse", "partners", "household", "dependants")
WAIT_AFTER = ("expiry", "revocation", "abandonment", "cancellation")
FEE_KINDS = ("linear-metre", "energy", "per-area-month", "venue-table", "fixed", "per-day")
FIXED_PER = ("once", "year", "month", "day", "event")
METRE_KINDS = ("front", "front-plus-hitch")
#: what a per-area fee measures: the line's fixed size, the area declared, or the area used up to the line's size
AREA_KINDS = ("line", "declared", "used")
SITE_KINDS = ("street-segment", "arena", "beach-point", "venue")
SELECTION_METHODS = ("score", "registration-order", "draw", "rotating-draw", "preference-then-draw")
ORDER_BY = ("registration-time", "payment-time")
#: what decides between equal scores, in the order the act gives (Sapezal art. 10, § 3º: disabled, then oldest)
TIE_BREAKS = ("disabled", "oldest", "earliest-registration", "earliest-payment")
SANCTION_KINDS = (
    "warning",
    "fine",
    "suspension",
    "revocation",
    "seizure",
    "interdiction",
    "forfeiture",
    "impediment",
)
SEVERITIES = ("leve", "media", "grave", "gravissima")
COUNT_KINDS = ("calendar", "business", "hours")
#: what a sanction with a ``condition`` waits for — a fact someone verifies, never the count of offences:
#: ``not-complied``: the notice or warning was not complied with in its time (Olímpia art. 29; SJC art. 23);
#: ``not-remedied``: the irregularity recorded was not remedied (SJC art. 25, I; art. 26, II);
#: ``earlier-sanctions``: the sanctions of the earlier step were applied (Ilha Comprida art. 19, § 3º)
SANCTION_FACTS = ("not-complied", "not-remedied", "earlier-sanctions")
#: what a deadline is for (``role``); ``models.rules.deadlines.ROLES`` says how each is counted and who uses it
DEADLINE_ROLES = (
    "compliance",
    "payment",
    "payment-after-decision",
    "defence",
    "decision",
    "appeal",
    "appeal-decision",
    "reclaim",
    "selection-appeal",
    "selection-decision",
    "documents",
    "startup",
    "pickup",
    "use",
    "lapse",
    "renewal",
    "leave",
    "substitute",
    "request-decision",
    "publication",
    "price-payment",
    "damage-report",
    "deposit-return",
    "notice",
)
#: the roles of an administrative process: a deadline of these that ends on a day without public service follows
#: the regime's ``[calendar] closed_day`` rule (the act's, else Lei 9.784/1999, art. 66, § 1º, cited in the file)
PROCESS_ROLES = (
    "compliance",
    "payment",
    "payment-after-decision",
    "defence",
    "decision",
    "appeal",
    "appeal-decision",
    "reclaim",
    "selection-appeal",
    "selection-decision",
    "documents",
    "pickup",
    "substitute",
    "request-decision",
)
#: the events a deadline counts from (``from``)
DEADLINE_EVENTS = (
    "absence-start",
    "appeal-filed",
    "approval-notice",
    "archiving",
    "boleto-issue",
    "decision-notification",
    "decision-publication",
    "defence-filed",
    "deposit-return-request",
    "event-end",
    "filing",
    "final-list-publication",
    "infraction-record",
    "issue",
    "leave-start",
    "licence-expiry",
    "list-publication",
    "notification",
    "penalty",
    "permit-grant",
    "request-received",
    "seizure",
    "selection-end",
    "tpu-publication",
)
#: what happens to a deadline that ends on a day without public service
#: ``next-business-day``: it moves to the next business day (a deadline in hours, to the same hour of it);
#: ``end-of-next-business-day``: to the end of office hours of the next business day (Olímpia art. 24, § 2º, I);
#: ``stays``: it ends where it falls (the act says so)
CLOSED_DAY_RULES = ("next-business-day", "end-of-next-business-day", "stays")
DIRECTIONS = ("after", "before")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
SIDES = ("a", "b")
VALIDITY_UNTIL = ("event-end",)
DOCUMENT_PROVES = ("residence",)
#: what in the applicant's record Praça keeps may stand for a document, where the act's file declares it
#: (``recorded``): "municipal-registration", the inscrição municipal typed in the company's (or MEI's) form
DOCUMENT_RECORDED = ("municipal-registration",)
#: rules an act may defer to a deadline after the application (``due``): what the winners present later
DUE_LATER_RULES = ("document", "cnpj-required", "legal-form")

_TYPE_NAMES = {
    str: "texto",
    bool: "booleano",
    int: "inteiro",
    float: "número decimal TOML (float)",
    dict: "tabela",
    list: "lista",
    dt.datetime: "data e hora",
    dt.date: "data",
    dt.time: "hora",
}


def _type_name(value: Any) -> str:
    for kind, name in _TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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


PLACARD_CONTENTS = (
    "company-name",
    "holder-name",
    "cnpj",
    "cpf",
    "municipal-registration",
    "permit-number",
    "line",
    "section",
    "photo",
    "qr-code",
)


def _index(items: Iterable[Any], attr: str) -> dict[str, Any]:
    return {getattr(item, attr): item for item in items}


@dataclass(frozen=True)
class Regime:
    id: str
    municipality: str
    state: str
    act: str
    short: str
    published: dt.date
    scope: tuple[str, ...]
    summary: str
    in_force: InForce | None = None
    amendment: Amendment | None = None
    calendar: Calendar | None = None
    units: tuple[Unit, ...] = ()
    indexes: tuple[Index, ...] = ()
    documents: tuple[Document, ...] = ()
    equipment_kinds: tuple[Equipment, ...] = ()
    groups: tuple[Group, ...] = ()
    lines: tuple[Line, ...] = ()
    sections: tuple[Section, ...] = ()
    permit_kinds: tuple[PermitKind, ...] = ()
    fees: tuple[Fee, ...] = ()
    schedules: tuple[Schedule, ...] = ()
    sites: tuple[Site, ...] = ()
    layout: LayoutRules | None = None
    selection: Selection | None = None
    ladders: tuple[Ladder, ...] = ()
    infractions: tuple[Infraction, ...] = ()
    penalties: Penalties | None = None
    deadlines: tuple[Deadline, ...] = ()
    seizure: Seizure | None = None
    prohibitions: tuple[Prohibition, ...] = ()
    duties: tuple[Duty, ...] = ()
    placard: Placard | None = None
    notes: str | None = None
    source: str | None = field(default=None, compare=False)
    #: SHA-256 of the file's text (hex): which version of the act a figure was computed from
    sha256: str | None = field(default=None, compare=False)

    @property
    def effective_from(self) -> dt.date:
        """The first day this version of the act applies: its amendment's, else the act's entry into force."""
        if self.amendment is not None:
            return self.amendment.in_force_from
        return self.in_force.from_ if self.in_force is not None else self.published

    # lookup tables, built once
    units_by_code: dict[str, Unit] = field(init=False, repr=False, compare=False)
    _lookups: dict[str, dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units_by_code", _index(self.units, "code"))
        venues = [venue for fee in self.fees for venue in fee.venues]
        object.__setattr__(
            self,
            "_lookups",
            {
                "index": _index(self.indexes, "code"),
                "document": _index(self.documents, "id"),
                "equipment": _index(self.equipment_kinds, "id"),
                "group": _index(self.groups, "id"),
                "line": _index(self.lines, "id"),
                "section": _index(self.sections, "id"),
                "permit_kind": _index(self.permit_kinds, "id"),
                "fee": _index(self.fees, "id"),
                "venue": _index(venues, "id"),
                "schedule": _index(self.schedules, "id"),
                "site": _index(self.sites, "id"),
                "ladder": _index(self.ladders, "id"),
                "infraction": _index(self.infractions, "code"),
                "deadline": _index(self.deadlines, "id"),
                "prohibition": _index(self.prohibitions, "id"),
                "duty": _index(self.duties, "id"),
            },
        )

    # -- citations ---------------------------------------------------------

    def cite(self, basis: str | None, basis_act: str | None = None) -> str:
        """Full citation: ``"Dec. 4.794/2026, art. 9º, § 2º"``; a value taken
        from another act adds it: ``"…, art. 2º, § 2º; Lei Municipal nº 1.620/2013, art. 7º"``."""
        text = f"{self.short}, {basis}" if basis else self.short
        if basis_act:
            text = f"{text}; {basis_act}"
        return text

    def cite_item(self, item: Any) -> str:
        """Full citation of anything that has ``basis`` (and maybe ``basis_act``); an item that rests only on
        another law (``basis_act`` without ``basis``: Lei 9.784/1999 applied subsidiarily) cites that law."""
        basis, act = getattr(item, "basis", None), getattr(item, "basis_act", None)
        if basis is None and act:
            return act
        return self.cite(basis, act)

    def matter_of(self, codes: Iterable[str]) -> str:
        """The matter (a scope) the infractions declare (their own ``matter``, else their ladder's), when they all
        declare the same one; "" otherwise."""
        found = set()
        for code in codes:
            if code not in self.ids("infraction"):
                return ""
            infraction = self.infraction(code)
            matter = infraction.matter or (self.ladder(infraction.ladder).matter if infraction.ladder else None)
            found.add(matter or "")
        return found.pop() if len(found) == 1 else ""

    def closed_day_rule(self, deadline: "Deadline") -> "ClosedDay | None":
        """What happens when ``deadline`` ends on a day without public service: its own rule, else the regime's
        calendar for a process deadline counted forward (``PROCESS_ROLES``); None: it ends where it falls."""
        if deadline.closed_day is not None:
            return deadline.closed_day
        if self.calendar is not None and deadline.role in PROCESS_ROLES and deadline.direction == "after":
            return self.calendar.closed_day
        return None

    @property
    def title(self) -> str:
        return f"{self.municipality}/{self.state} — {self.act}"

    # -- lookups -----------------------------------------------------------

    _LABELS = {
        "index": "Índice",
        "document": "Documento",
        "equipment": "Equipamento",
        "group": "Grupo",
        "line": "Ramo (linha de produtos)",
        "section": "Seção",
        "permit_kind": "Tipo de permissão",
        "fee": "Preço/taxa",
        "venue": "Imóvel/local",
        "schedule": "Calendário",
        "site": "Local",
        "ladder": "Gradação de penalidades",
        "infraction": "Infração",
        "deadline": "Prazo",
        "prohibition": "Proibição",
        "duty": "Obrigação",
    }

    def _get(self, kind: str, key: str) -> Any:
        table = self._lookups[kind]
        try:
            return table[key]
        except (KeyError, TypeError):
            options = ", ".join(table) or "nenhum"
            raise UserError(
                f"{self._LABELS[kind]} '{key}' não existe no regime {self.id} ({self.short}). Opções: {options}.",
                field=kind,
            ) from None

    def ids(self, kind: str) -> tuple[str, ...]:
        """Every id of one kind (``"equipment"``, ``"line"``, ``"venue"``…)."""
        return tuple(self._lookups[kind])

    def unit(self, code: str) -> Unit:
        try:
            return self.units_by_code[code]
        except KeyError:
            options = ", ".join(self.units_by_code) or "nenhuma"
            raise UserError(
                f"Unidade fiscal '{code}' não existe no regime {self.id} ({self.short}). Opções: {options}.",
                field="unit",
            ) from None

    def index(self, code: str) -> Index:
        return self._get("index", code)

    def document(self, id: str) -> Document:
        return self._get("document", id)

    def equipment(self, id: str) -> Equipment:
        return self._get("equipment", id)

    def group(self, id: str) -> Group:
        return self._get("group", id)

    def line(self, id: str) -> Line:
        return self._get("line", id)

    def section(self, id: str) -> Section:
        return self._get("section", id)

    def permit_kind(self, id: str) -> PermitKind:
        return self._get("permit_kind", id)

    def fee(self, id: str) -> Fee:
        return self._get("fee", id)

    def venue(self, id: str) -> Venue:
        return self._get("venue", id)

    def venue_fee(self, venue_id: str) -> Fee:
        """The venue-table fee that lists ``venue_id``."""
        venue = self.venue(venue_id)
        for fee in self.fees:
            if venue in fee.venues:
                return fee
        raise AssertionError("venue without fee")  # pragma: no cover - built together

    def schedule(self, id: str) -> Schedule:
        return self._get("schedule", id)

    def site(self, id: str) -> Site:
        return self._get("site", id)

    def ladder(self, id: str) -> Ladder:
        return self._get("ladder", id)

    def infraction(self, code: str) -> Infraction:
        return self._get("infraction", code)

    def deadline(self, id: str) -> Deadline:
        return self._get("deadline", id)

    def prohibition(self, id: str) -> Prohibition:
        return self._get("prohibition", id)

    def duty(self, id: str) -> Duty:
        return self._get("duty", id)

    def sections_of_side(self, side: str) -> tuple[Section, ...]:
        """The sections on one side, in the act's order."""
        found = [s for s in self.sections if s.side == side]
        return tuple(sorted(found, key=lambda s: (s.order is None, s.order or 0)))

    # -- fiscal units --------------------------------------------------------

    def unit_value(
        self,
        code: str,
        year: int,
        overrides: Mapping[tuple[str, int], Decimal] | None = None,
    ) -> Decimal:
        """Value of one fiscal unit in one year.

        ``overrides`` — ``{(code, year): Decimal}`` kept by the clerk in the
        database — wins over the file. With neither, :class:`MissingUnitValue`
        (a ``UserError`` naming the unit and the year) is raised: never a guess.
        """
        if code == "BRL":
            return Decimal(1)
        if code not in self.units_by_code:
            self.unit(code)  # raises the UserError with the options
        if overrides:
            value = overrides.get((code, year))
            if value is not None:
                if isinstance(value, float) or isinstance(value, bool):
                    raise TypeError("unit_value: override must be Decimal/str/int, not float")
                return Decimal(value) if not isinstance(value, Decimal) else value
        found = self.units_by_code[code].value_for(year)
        if found is None:
            raise MissingUnitValue(self, code, year)
        return found.value

    def unit_value_citation(
        self,
        code: str,
        year: int,
        overrides: Mapping[tuple[str, int], Decimal] | None = None,
    ) -> str:
        """Where the value of ``code`` in ``year`` comes from: the full citation
        of the act (``"Dec. 4.794/2026, art. 9º, § 2º"``), the outside source
        (``"Comunicado SEFAZ-SP"``) or the clerk's table."""
        if code == "BRL":
            return ""
        if overrides and (code, year) in overrides:
            return "valor cadastrado pela Administração"
        unit = self.unit(code)
        value = unit.value_for(year)
        if value is None:
            raise MissingUnitValue(self, code, year)
        if value.basis:
            return self.cite(value.basis)
        return value.source or self.cite(unit.basis)


# --------------------------------------------------------------------------- reader


class _Node:
    """One TOML table being read: tracks the key path and which keys were used."""

    def __init__(self, file: str, path: str, data: Any, *, key_for_error: str | None = None):
        self.file = file
        self.path = path
        if not isinstance(data, dict):
            raise RegimeError(
                f"esperada uma tabela, veio {_type_name(data)} {_show(data)}",
                file=file,
                key=key_for_error or path or None,
            )
        self.data: dict[str, Any] = data
        self.used: set[str] = {"notes"}

    # -- paths / errors

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def fail(self, name: str | None, reason: str) -> NoReturn:
        raise RegimeError(reason, file=self.file, key=self.key(name) if name else (self.path or None))

    def has(self, name: str) -> bool:
        return name in self.data

    def raw(self, name: str, required: bool) -> Any:
        self.used.add(name)
        if name not in self.data:
            if required:
                self.fail(name, "chave obrigatória ausente")
            return None
        return self.data[name]

    def done(self) -> None:
        unknown = [name for name in self.data if name not in self.used]
        found = _FOUND.get()
        if found is not None:  # checking a whole file: every unknown key of the table, not only the first
            for name in unknown[:-1]:
                found.append(
                    RegimeError(
                        "chave desconhecida (não prevista no formato para esta tabela)",
                        file=self.file,
                        key=self.key(name),
                    )
                )
        for name in unknown[-1:]:
            self.fail(name, "chave desconhecida (não prevista no formato para esta tabela)")

    # -- scalars

    def _typed(self, name: str, value: Any, kind: type, what: str) -> Any:
        if kind is int:
            ok = type(value) is int
        elif kind is dt.date:
            ok = type(value) is dt.date
        else:
            ok = isinstance(value, kind)
        if not ok:
            self.fail(name, f"esperado {what}, veio {_type_name(value)} {_show(value)}")
        return value

    def text(self, name: str, required: bool = True) -> str | None:
        value = self.raw(name, required)
        if value is None:
            return None
        self._typed(name, value, str, "texto")
        if not value.strip():
            self.fail(name, "texto vazio")
        return value

    def notes(self) -> str | None:
        return self.text("notes", required=False)

    def ident(self, name: str = "id", required: bool = True) -> str | None:
        value = self.text(name, required)
        if value is not None and not ID_RE.match(value):
            self.fail(name, f"id inválido {_show(value)}: use minúsculas ASCII, dígitos e hífens (kebab-case)")
        return value

    def code(self, name: str = "code", required: bool = True) -> str | None:
        value = self.text(name, required)
        if value is not None and not CODE_RE.match(value):
            self.fail(name, f'código inválido {_show(value)}: use maiúsculas ASCII, como "UFESP"')
        return value

    def basis(self, name: str = "basis", required: bool = True) -> str | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(
                name, f'esperado o artigo em texto, como "art. 9º, § 2º"; veio {_type_name(value)} {_show(value)}'
            )
        if not BASIS_RE.match(value.strip()):
            self.fail(name, f'fundamento {_show(value)} deve citar o artigo do ato, como "art. 9º, § 2º"')
        return value

    def basis_act(self) -> str | None:
        return self.text("basis_act", required=False)

    def decimal(
        self,
        name: str,
        required: bool = True,
        *,
        positive: bool = False,
        non_negative: bool = False,
        max_value: Decimal | None = None,
    ) -> Decimal | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, float):
            self.fail(
                name,
                f'esperado um decimal em texto, como "{value!r}"; veio o número {value!r} '
                "(float TOML não é aceito: escreva o decimal entre aspas)",
            )
        if isinstance(value, bool):
            self.fail(name, f'esperado um decimal em texto, como "5.50"; veio booleano {_show(value)}')
        if isinstance(value, int):
            self.fail(name, f'esperado um decimal em texto, como "{value}"; veio o inteiro {value}')
        if not isinstance(value, str):
            self.fail(name, f'esperado um decimal em texto, como "5.50"; veio {_type_name(value)} {_show(value)}')
        if not DECIMAL_RE.match(value):
            self.fail(name, f'decimal inválido {_show(value)}: use dígitos e ponto, como "5.50"')
        try:
            result = Decimal(value)
        except InvalidOperation:  # pragma: no cover - regex guards
            self.fail(name, f"decimal inválido {_show(value)}")
        if positive and result <= 0:
            self.fail(name, f"deve ser maior que zero, veio {_show(value)}")
        if non_negative and result < 0:
            self.fail(name, f"não pode ser negativo, veio {_show(value)}")
        if max_value is not None and result > max_value:
            self.fail(name, f"deve ser no máximo {max_value}, veio {_show(value)}")
        return result

    def integer(self, name: str, required: bool = True, *, minimum: int | None = None) -> int | None:
        value = self.raw(name, required)
        if value is None:
            return None
        self._typed(name, value, int, "inteiro")
        if minimum is not None and value < minimum:
            self.fail(name, f"deve ser no mínimo {minimum}, veio {value}")
        return value

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.raw(name, False)
        if value is None:
            return default
        self._typed(name, value, bool, "booleano (true/false)")
        return value

    def optional_bool(self, name: str) -> bool | None:
        value = self.raw(name, False)
        if value is None:
            return None
        self._typed(name, value, bool, "booleano (true/false)")
        return value

    def date(self, name: str, required: bool = True) -> dt.date | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if type(value) is not dt.date:
            self.fail(name, f"esperada uma data TOML (AAAA-MM-DD, sem aspas), veio {_type_name(value)} {_show(value)}")
        return value

    def datetime(self, name: str, required: bool = True) -> dt.datetime | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                self.fail(name, "use data e hora locais, sem fuso horário")
            return value
        if isinstance(value, str):
            try:
                parsed = dt.datetime.fromisoformat(value)
            except ValueError:
                parsed = None
            if parsed is not None and "T" in value and parsed.tzinfo is None:
                return parsed
        self.fail(name, f"esperada data e hora locais (2026-03-27T12:00), veio {_type_name(value)} {_show(value)}")

    def time(self, name: str, required: bool = True) -> dt.time | None:
        value = self.raw(name, required)
        if value is None:
            return None
        if isinstance(value, dt.time) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str) and TIME_RE.match(value):
            hours, minutes = value.split(":")
            return dt.time(int(hours), int(minutes))
        self.fail(name, f'esperada uma hora "HH:MM" (como "18:00"), veio {_type_name(value)} {_show(value)}')

    def enum(self, name: str, choices: Iterable[str], required: bool = True, default: str | None = None) -> str | None:
        value = self.text(name, required)
        if value is None:
            return default
        choices = tuple(choices)
        if value not in choices:
            self.fail(name, f"valor {_show(value)} não previsto; use um de: {', '.join(choices)}")
        return value

    # -- lists

    def _list(self, name: str) -> list[Any] | None:
        value = self.raw(name, False)
        if value is None:
            return None
        self._typed(name, value, list, "lista")
        return value

    def text_list(self, name: str, *, required: bool = False) -> tuple[str, ...]:
        if required and name not in self.data:
            self.raw(name, True)
        items = self._list(name) or []
        for i, item in enumerate(items):
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{name}[{i}]", f"esperado texto, veio {_type_name(item)} {_show(item)}")
        return tuple(items)

    def ident_list(self, name: str, *, required: bool = False, unique: bool = True) -> tuple[str, ...]:
        items = self.text_list(name, required=required)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if not ID_RE.match(item):
                self.fail(f"{name}[{i}]", f"id inválido {_show(item)}: use minúsculas ASCII, dígitos e hífens")
            if unique and item in seen:
                self.fail(f"{name}[{i}]", f"{_show(item)} repetido na lista")
            seen.add(item)
        return items

    def enum_list(self, name: str, choices: Iterable[str], *, required: bool = False) -> tuple[str, ...]:
        choices = tuple(choices)
        items = self.text_list(name, required=required)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if item not in choices:
                self.fail(f"{name}[{i}]", f"valor {_show(item)} não previsto; use um de: {', '.join(choices)}")
            if item in seen:
                self.fail(f"{name}[{i}]", f"{_show(item)} repetido na lista")
            seen.add(item)
        return items

    # -- nested tables

    def table(self, name: str, required: bool = False) -> "_Node | None":
        value = self.raw(name, required)
        if value is None:
            return None
        return _Node(self.file, self.key(name), value)

    def tables(self, name: str, *, required: bool = False) -> list["_Node"]:
        value = self.raw(name, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(name, f"esperada uma lista de tabelas ([[{name}]]), veio {_type_name(value)} {_show(value)}")
        return [_Node(self.file, f"{self.key(name)}[{i}]", item) for i, item in enumerate(value)]


# --------------------------------------------------------------------------- parsing


def _unique(nodes_and_ids: Iterable[tuple["_Node", str]], key: str, what: str) -> None:
    seen: dict[str, str] = {}
    for node, ident in nodes_and_ids:
        if ident in seen:
            node.fail(key, f"{what} {_show(ident)} repetido (já usado em {seen[ident]})")
        seen[ident] = node.path


def _parse_amount(node: _Node, *, with_basis: bool = False, basis_required: bool = False) -> Amount:
    value = node.decimal("value", non_negative=True)
    unit_raw = node.text("unit")
    if unit_raw != "BRL" and not CODE_RE.match(unit_raw):
        node.fail("unit", f'unidade {_show(unit_raw)} inválida: "BRL" ou o código de uma [[units]]')
    basis = basis_act = None
    if with_basis:
        basis = node.basis(required=basis_required)
        basis_act = node.basis_act()
    notes = node.notes()
    node.done()
    return Amount(value=value, unit=unit_raw, basis=basis, basis_act=basis_act, notes=notes)


def _amount(parent: _Node, name: str, required: bool = True, **kw: Any) -> Amount | None:
    child = parent.table(name, required)
    if child is None:
        return None
    return _parse_amount(child, **kw)


def _flag(parent: _Node, name: str) -> Flag | None:
    child = parent.table(name)
    if child is None:
        return None
    result = Flag(basis=child.basis(), notes=child.notes())
    child.done()
    return result


def _parse_in_force(node: _Node) -> InForce:
    result = InForce(from_=node.date("from"), basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_amendment(node: _Node) -> Amendment:
    result = Amendment(
        act=node.text("act"),
        in_force_from=node.date("in_force_from"),
        summary=node.text("summary", required=False),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_closed_day(node: _Node, *, external: bool = False) -> ClosedDay:
    """``{ rule, basis, basis_act }``: with ``external`` (the regime's calendar) the rule may come from another
    law only (``basis_act``, as Lei 9.784/1999 applied subsidiarily); a deadline's own rule cites the act."""
    rule = node.enum("rule", CLOSED_DAY_RULES)
    basis = node.basis(required=not external)
    basis_act = node.basis_act()
    if basis is None and basis_act is None:
        node.fail("basis", "informe o artigo do ato (basis) ou a lei aplicada subsidiariamente (basis_act)")
    result = ClosedDay(rule=rule, basis=basis, basis_act=basis_act, notes=node.notes())
    node.done()
    return result


def _parse_calendar(node: _Node) -> Calendar:
    closed = node.table("closed_day", required=True)
    result = Calendar(closed_day=_parse_closed_day(closed, external=True), notes=node.notes())
    if result.closed_day.rule == "stays":
        closed.fail("rule", 'o calendário do regime diz como se prorroga um prazo; "stays" vale só num prazo')
    node.done()
    return result


def _parse_header(node: _Node) -> dict[str, Any]:
    header = {
        "id": node.ident("id"),
        "municipality": node.text("municipality"),
        "state": node.text("state"),
        "act": node.text("act"),
        "short": node.text("short"),
        "published": node.date("published"),
        "scope": node.enum_list("scope", SCOPES, required=True),
        "summary": node.text("summary"),
        "in_force": _parse_in_force(node.table("in_force", required=True)),
        "amendment": _sub(node, "amendment", _parse_amendment),
        "notes": node.notes(),
    }
    if header["amendment"] is not None and header["amendment"].in_force_from < header["in_force"].from_:
        node.fail(
            "amendment.in_force_from",
            "a alteração não pode valer antes de o ato entrar em vigor "
            f"({header['in_force'].from_.strftime('%d/%m/%Y')})",
        )
    if not re.match(r"^[A-Z]{2}$", header["state"]):
        node.fail("state", f'UF inválida {_show(header["state"])}: duas letras maiúsculas, como "SP"')
    if not header["scope"]:
        node.fail("scope", "lista vazia: informe ao menos um escopo")
    node.done()
    return header


def _parse_unit(node: _Node) -> Unit:
    code = node.code("code")
    if code == "BRL":
        node.fail("code", '"BRL" é reservado para reais')
    name = node.text("name")
    basis = node.basis()
    basis_act = node.basis_act()
    values_raw = node.raw("values", True)
    if not isinstance(values_raw, list):
        node.fail("values", f"esperada uma lista de valores por ano, veio {_type_name(values_raw)}")
    values = []
    years: dict[int, str] = {}
    for i, item in enumerate(values_raw):
        child = _Node(node.file, f"{node.key('values')}[{i}]", item)
        year = child.integer("year", minimum=1900)
        value = child.decimal("value", positive=True)
        v_basis = child.basis(required=False)
        source = child.text("source", required=False)
        if v_basis is None and source is None:
            child.fail(None, 'cada valor precisa de "basis" (artigo deste ato) ou "source" (referência externa)')
        v = UnitValue(year=year, value=value, basis=v_basis, source=source, notes=child.notes())
        child.done()
        if year in years:
            child.fail("year", f"ano {year} repetido")
        years[year] = child.path
        values.append(v)
    notes = node.notes()
    node.done()
    return Unit(
        code=code,
        name=name,
        basis=basis,
        basis_act=basis_act,
        values=tuple(sorted(values, key=lambda v: v.year)),
        notes=notes,
    )


def _parse_index(node: _Node) -> Index:
    result = Index(
        code=node.code("code"),
        name=node.text("name"),
        base_year=node.integer("base_year", minimum=1900),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_document(node: _Node) -> Document:
    result = Document(
        id=node.ident(),
        label=node.text("label"),
        validity_months=node.integer("validity_months", False, minimum=1),
        applies_to=node.enum_list("applies_to", HOLDERS),
        condition=node.text("condition", False),
        proves=node.enum("proves", DOCUMENT_PROVES, required=False),
        recorded=node.enum("recorded", DOCUMENT_RECORDED, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_equipment(node: _Node) -> Equipment:
    kw = {
        name: node.decimal(name, False, positive=True)
        for name in ("front", "depth", "handle", "max_front", "max_depth")
    }
    result = Equipment(
        id=node.ident(),
        label=node.text("label"),
        has_hitch=node.boolean("has_hitch"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
        **kw,
    )
    if result.front is not None and result.max_front is not None and result.front > result.max_front:
        node.fail("front", "maior que max_front")
    if result.depth is not None and result.max_depth is not None and result.depth > result.max_depth:
        node.fail("depth", "maior que max_depth")
    node.done()
    return result


def _parse_group(node: _Node) -> Group:
    result = Group(
        id=node.ident(),
        number=node.integer("number", minimum=1),
        label=node.text("label"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_line(node: _Node) -> Line:
    result = Line(
        id=node.ident(),
        label=node.text("label"),
        group=node.ident("group", False),
        front=node.decimal("front", False, positive=True),
        depth=node.decimal("depth", False, positive=True),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if (result.front is None) != (result.depth is None):
        node.fail("depth" if result.depth is None else "front", "informe frente e profundidade juntas (ou nenhuma)")
    node.done()
    return result


def _parse_section(node: _Node) -> Section:
    ident = node.ident()
    numeral = node.text("numeral")
    if not re.match(r"^[IVXLCDM]+$", numeral):
        node.fail("numeral", f'numeral romano inválido {_show(numeral)} (maiúsculas, como "XXVIII")')
    colour = None
    colour_node = node.table("colour")
    if colour_node is not None:
        hex_value = colour_node.text("hex", False)
        if hex_value is not None and not HEX_RE.match(hex_value):
            colour_node.fail("hex", f'cor inválida {_show(hex_value)}: use "#RRGGBB"')
        colour = Colour(
            name=colour_node.text("name"), hex=hex_value, basis=colour_node.basis(), notes=colour_node.notes()
        )
        colour_node.done()
    fire_raw = node.raw("fire_rules", False)
    fire_rules, fire_basis = False, None
    if isinstance(fire_raw, bool):
        fire_rules = fire_raw
    elif isinstance(fire_raw, dict):
        fire_node = _Node(node.file, node.key("fire_rules"), fire_raw)
        fire_rules, fire_basis = True, fire_node.basis()
        fire_node.done()
    elif fire_raw is not None:
        node.fail(
            "fire_rules", f'esperado true/false ou {{ basis = "…" }}, veio {_type_name(fire_raw)} {_show(fire_raw)}'
        )
    result = Section(
        id=ident,
        numeral=numeral,
        label=node.text("label"),
        lines=node.ident_list("lines"),
        side=node.enum("side", SIDES, required=False),
        order=node.integer("order", False, minimum=1),
        colour=colour,
        fire_rules=fire_rules,
        fire_rules_basis=fire_basis,
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.order is not None and result.side is None:
        node.fail("order", '"order" exige "side"')
    node.done()
    return result


_RULE_PARAMS: dict[str, tuple[str, ...]] = {
    "min-age": ("years",),
    "legally-capable": (),
    "legal-form": ("allowed",),
    "cnpj-required": (),
    "municipal-registration": (),
    "resident": (),  # years optional
    "document": ("document",),
    "one-per": ("scope",),
    "no-debts": (),
    "no-prior-revocation": ("months",),
    "waiting-period": ("after", "months"),
    "cap": ("count",),
    "quota": ("percent", "beneficiaries"),
    "not-public-servant": (),
    "custom": ("text",),
}


def _parse_rule(node: _Node) -> Rule:
    kind = node.enum("kind", RULE_KINDS)
    required = _RULE_PARAMS[kind]
    # a number the act leaves to the administration: admin_defined = true instead
    admin = node.boolean("admin_defined")
    numeric = {"years", "months", "count", "percent"}
    if admin and not (numeric & set(required) or kind == "resident"):
        node.fail("admin_defined", f"a regra {_show(kind)} não tem número a definir")
    kw: dict[str, Any] = {"admin_defined": admin}
    if kind in ("min-age", "resident"):
        kw["years"] = node.integer("years", "years" in required and not admin, minimum=0)
    for flag, owner in (("more_than", "resident"), ("same_site", "one-per")):
        if kind == owner and flag == "same_site" and isinstance(node.data.get(flag), str):
            kw[flag], kw["same_site_words"] = True, node.text(flag)  # the act's words: "mesma feira"
        elif kind == owner:
            kw[flag] = node.boolean(flag)
        elif node.has(flag):
            node.fail(flag, f"só vale para regras {_show(owner)}, não para {_show(kind)}")
    if kw.get("more_than") and not kw.get("years") and not admin:
        node.fail("more_than", '"há mais de N anos" precisa de years (maior que zero) ou admin_defined = true')
    if kind == "legal-form":
        kw["allowed"] = node.enum_list("allowed", LEGAL_FORMS, required=True)
        if not kw["allowed"]:
            node.fail("allowed", "lista vazia")
    if kind == "document":
        kw["document"] = node.ident("document")
    if kind == "one-per":
        kw["scope"] = node.enum("scope", ONE_PER_SCOPES)
    if kind in ("no-prior-revocation", "waiting-period"):
        kw["months"] = node.integer("months", not admin, minimum=1)
    if kind == "waiting-period":
        kw["after"] = node.enum("after", WAIT_AFTER)
    if kind == "cap":
        kw["count"] = node.integer("count", not admin, minimum=1)
    if kind == "quota":
        kw["percent"] = node.decimal("percent", not admin, positive=True, max_value=Decimal(1))
        kw["beneficiaries"] = node.ident_list("beneficiaries", required=True)
        if not kw["beneficiaries"]:
            node.fail("beneficiaries", "lista vazia")
    if kind == "custom":
        kw["text"] = node.text("text")
    if node.has("due"):
        if kind not in DUE_LATER_RULES:
            node.fail(
                "due", f"só vale para regras {', '.join(_show(k) for k in DUE_LATER_RULES)}, não para {_show(kind)}"
            )
        kw["due"] = node.ident("due")
    if admin and any(kw.get(k) is not None for k in numeric):
        node.fail("admin_defined", "com admin_defined = true não informe o número")
    result = Rule(kind=kind, basis=node.basis(), basis_act=node.basis_act(), notes=node.notes(), **kw)
    node.done()
    return result


def _parse_validity(node: _Node) -> Validity:
    days = node.integer("days", False, minimum=1)
    months = node.integer("months", False, minimum=1)
    years = node.integer("years", False, minimum=1)
    until = node.enum("until", VALIDITY_UNTIL, required=False)
    given = [n for n, v in (("days", days), ("months", months), ("years", years), ("until", until)) if v is not None]
    if len(given) != 1:
        node.fail(None, "informe exatamente um de: days, months, years, until")
    result = Validity(days=days, months=months, years=years, until=until, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_renewal(node: _Node) -> Renewal:
    from_days = node.integer("from_days_before", False, minimum=0)
    to_days = node.integer("to_days_before", False, minimum=0)
    month_day = node.text("until_month_day", False)
    if month_day is not None and not MONTH_DAY_RE.match(month_day):
        node.fail("until_month_day", f'esperado "MM-DD", como "09-30"; veio {_show(month_day)}')
    window = from_days is not None or to_days is not None
    if window == (month_day is not None):
        node.fail(None, "informe a janela (from_days_before e/ou to_days_before) ou until_month_day — um dos dois")
    if from_days is not None and to_days is not None and from_days < to_days:
        node.fail("from_days_before", "deve ser maior ou igual a to_days_before")
    result = Renewal(
        from_days_before=from_days,
        to_days_before=to_days,
        until_month_day=month_day,
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_startup(node: _Node) -> Startup:
    result = Startup(
        days=node.integer("days", minimum=1),
        extendable_once=node.boolean("extendable_once"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_leave(node: _Node) -> Leave:
    result = Leave(
        max_days_per_year=node.integer("max_days_per_year", minimum=1),
        max_periods=node.integer("max_periods", False, minimum=1),
        notice_days=node.integer("notice_days", False, minimum=0),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_transfer(node: _Node) -> Transfer:
    result = Transfer(to=node.text("to"), basis=node.basis(), basis_act=node.basis_act(), notes=node.notes())
    node.done()
    return result


#: while checking a file (``all_errors``): the errors found so far; each top-level item that fails is recorded
#: here and skipped, so that one run reports every broken item, not only the first
_FOUND: contextvars.ContextVar[list[RegimeError] | None] = contextvars.ContextVar("regime_errors", default=None)


def _attempt(parser: Any, node: _Node, *, salvage: bool = False) -> Any:
    """``parser(node)``; while collecting, a :class:`RegimeError` is recorded and ``_SKIPPED`` returned (with
    ``salvage``, what the entry reads as without its broken keys, when that reads: the rest of the file is
    then checked against it — the act's header)."""
    found = _FOUND.get()
    if found is None:
        return parser(node)
    try:
        return parser(node)
    except RegimeError as exc:
        first = exc
    # every mistake of the entry, not only the first: read it again without the key that failed, while the
    # failure is a key of its own (a later one, or one a sub-table reports); a mistake about a key taken away
    # (now "missing") is not one of the file's
    data, removed, errors, salvaged = dict(node.data), set(), [first], _SKIPPED
    for _ in range(len(node.data)):
        name = next(
            (
                n
                for n in data
                if errors[-1].key is not None
                and (errors[-1].key == node.key(n) or errors[-1].key.startswith((node.key(n) + ".", node.key(n) + "[")))
            ),
            None,
        )
        if name is None:
            break
        del data[name]
        removed.add(node.key(name))
        attempt: list[RegimeError] = []
        token = _FOUND.set(attempt)
        try:
            salvaged = parser(_Node(node.file, node.path, data))
            failed = None
        except RegimeError as again:
            failed = again
        finally:
            _FOUND.reset(token)
        about_removed = [
            e
            for e in attempt + ([failed] if failed else [])
            if any(e.key == k or (e.key or "").startswith((k + ".", k + "[")) for k in removed)
        ]
        errors.extend(e for e in attempt if e not in about_removed)
        if failed is None or failed in about_removed:
            break
        errors.append(failed)  # last: the next round takes its key away
    seen = {(error.key, str(error)) for error in found}  # what the first reading recorded already
    for error in errors:
        mark = (error.key, str(error))
        if mark not in seen:
            seen.add(mark)
            found.append(error)
    return salvaged if salvage else _SKIPPED


_SKIPPED = object()


def _sub(parent: _Node, name: str, parser: Any) -> Any:
    child = parent.table(name)
    if child is None:
        return None
    result = _attempt(parser, child)
    return None if result is _SKIPPED else result


def _parse_permit_kind(node: _Node) -> PermitKind:
    ident = node.ident()
    label = node.text("label")
    instrument = node.text("instrument")
    holder = node.enum_list("holder", HOLDERS, required=True)
    if not holder:
        node.fail("holder", "lista vazia: person e/ou company")
    result = PermitKind(
        id=ident,
        label=label,
        instrument=instrument,
        holder=holder,
        basis=node.basis(),
        basis_act=node.basis_act(),
        documents=node.ident_list("documents"),
        fees=node.ident_list("fees"),
        validity=_sub(node, "validity", _parse_validity),
        renewal=_sub(node, "renewal", _parse_renewal),
        startup=_sub(node, "startup", _parse_startup),
        leave=_sub(node, "leave", _parse_leave),
        transfer=_sub(node, "transfer", _parse_transfer),
        schedule=node.ident("schedule", False),
        non_residents=_flag(node, "non_residents"),
        precarious=_sub(node, "precarious", _parse_text_rule),
        rules=tuple(_parse_rule(child) for child in node.tables("rules")),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_due(node: _Node) -> Due:
    date = node.date("date", False)
    day = node.integer("day_of_month", False, minimum=1)
    if day is not None and day > 31:
        node.fail("day_of_month", f"dia do mês inválido: {day}")
    after = node.integer("days_after_issue", False, minimum=0)
    if sum(v is not None for v in (date, day, after)) != 1:
        node.fail(None, "informe exatamente um de: date, day_of_month, days_after_issue")
    result = Due(date=date, day_of_month=day, days_after_issue=after, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_condition(node: _Node) -> Condition:
    result = Condition(
        mei=node.optional_bool("mei"),
        local=node.optional_bool("local"),
        equipment=node.ident_list("equipment"),
        lines=node.ident_list("lines"),
        max_depth=node.decimal("max_depth", False, positive=True),
        max_metres=node.decimal("max_metres", False, positive=True),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_discount(node: _Node) -> Discount:
    ident = node.ident()
    label = node.text("label")
    rate = node.decimal("rate", positive=True, max_value=Decimal(1))
    when_node = node.table("when", required=True)
    result = Discount(
        id=ident,
        label=label,
        rate=rate,
        when=_parse_condition(when_node),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_tier(node: _Node) -> EnergyTier:
    result = EnergyTier(
        id=node.ident(),
        label=node.text("label"),
        factor=node.decimal("factor", positive=True),
        equipment=node.ident_list("equipment"),
        max_metres=node.decimal("max_metres", False, positive=True),
        max_depth=node.decimal("max_depth", False, positive=True),
        expected=node.decimal("expected", False, non_negative=True),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.id == "none":
        node.fail("id", '"none" é reservado (sem energia)')
    node.done()
    return result


def _parse_venue(node: _Node) -> Venue:
    result = Venue(
        id=node.ident(),
        label=node.text("label"),
        one_day=_amount(node, "one_day"),
        per_day=_amount(node, "per_day"),
        min_days=node.integer("min_days", minimum=1),
        deposit=_amount(node, "deposit", required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_arrears(node: _Node) -> Arrears:
    result = Arrears(
        months=node.integer("months", minimum=1),
        consecutive=node.boolean("consecutive", default=True),
        sanction=node.enum("sanction", SANCTION_KINDS, required=False, default="revocation"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_fee(node: _Node) -> Fee:
    ident = node.ident()
    label = node.text("label")
    kind = node.enum("kind", FEE_KINDS)
    kw: dict[str, Any] = {
        "id": ident,
        "label": label,
        "kind": kind,
        "basis": node.basis(),
        "basis_act": node.basis_act(),
        "due": _sub(node, "due", _parse_due),
        "year": node.integer("year", False, minimum=1900),
    }
    if kind == "linear-metre":
        kw["coefficient"] = node.decimal("coefficient", positive=True)
        kw["unit"] = _unit_code(node, "unit")
        kw["min_metres"] = node.decimal("min_metres", False, positive=True)
        kw["min_metres_basis"] = node.basis("min_metres_basis", required=False)
        if kw["min_metres_basis"] and kw["min_metres"] is None:
            node.fail("min_metres_basis", "sem min_metres")
        kw["hitch_counts"] = node.boolean("hitch_counts")
        kw["hitch_basis"] = node.basis("hitch_basis", required=False)
        kw["metre"] = node.enum("metre", METRE_KINDS, required=False, default="front")
        if kw["metre"] == "front-plus-hitch":
            if node.has("hitch_counts") and not kw["hitch_counts"]:
                node.fail("hitch_counts", 'contradiz metre = "front-plus-hitch"')
            kw["hitch_counts"] = True
        discounts = [_parse_discount(child) for child in node.tables("discounts")]
        _unique(zip(node.tables("discounts"), (d.id for d in discounts)), "id", "desconto")
        kw["discounts"] = tuple(discounts)
    elif kind == "energy":
        kw["unit"] = _unit_code(node, "unit")
        tier_nodes = node.tables("tiers", required=True)
        if not tier_nodes:
            node.fail("tiers", "lista vazia: informe ao menos uma faixa")
        tiers = [_parse_tier(child) for child in tier_nodes]
        _unique(zip(tier_nodes, (t.id for t in tiers)), "id", "faixa")
        kw["tiers"] = tuple(tiers)
    elif kind == "per-area-month":
        kw["rate"] = _amount(node, "rate")
        kw["area"] = node.enum("area", AREA_KINDS)
        kw["index"] = node.code("index", False)
        kw["arrears"] = _sub(node, "arrears", _parse_arrears)
    elif kind == "venue-table":
        venue_nodes = node.tables("venues", required=True)
        if not venue_nodes:
            node.fail("venues", "lista vazia: informe ao menos um imóvel")
        venues = [_parse_venue(child) for child in venue_nodes]
        kw["venues"] = tuple(venues)
    elif kind in ("fixed", "per-day"):
        kw["admin_defined"] = node.boolean("admin_defined")
        kw["amount"] = _amount(node, "amount", required=False)
        if kw["admin_defined"] == (kw["amount"] is not None):
            node.fail("amount", 'informe "amount" ou "admin_defined = true" — um dos dois')
        if kind == "fixed":
            # the period may be left to another act when the value itself is
            kw["per"] = node.enum("per", FIXED_PER, required=not kw["admin_defined"])
        else:
            kw["per"] = "day"
    exemption_nodes = node.tables("exemptions")
    kw["exemptions"] = tuple(_parse_exemption(child) for child in exemption_nodes)
    _unique(zip(exemption_nodes, (e.id for e in kw["exemptions"])), "id", "dispensa")
    kw["reading"] = node.text("reading", False)
    kw["notes"] = node.notes()
    node.done()
    return Fee(**kw)


def _parse_exemption(node: _Node) -> Exemption:
    result = Exemption(
        id=node.ident(),
        label=node.text("label"),
        waives=node.enum_list("waives", ("fee", "deposit")) or ("fee", "deposit"),
        document=node.ident("document", False),
        waives_documents=node.ident_list("waives_documents"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _unit_code(node: _Node, name: str) -> str:
    value = node.text(name)
    if value != "BRL" and not CODE_RE.match(value):
        node.fail(name, f'unidade {_show(value)} inválida: "BRL" ou o código de uma [[units]]')
    return value


def _parse_instant(node: _Node, key: str) -> Instant:
    result = Instant(at=node.datetime(key), basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_hours(node: _Node) -> HourRange:
    result = HourRange(start=node.time("from"), end=node.time("to"), basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_opening(node: _Node) -> OpeningHours:
    admin = node.boolean("admin_defined")
    opens = node.time("opens", not admin)
    closes = node.time("closes", not admin)
    if admin and (opens is not None or closes is not None):
        node.fail("admin_defined", "com admin_defined = true não informe opens/closes")
    result = OpeningHours(
        opens=opens,
        closes=closes,
        weekdays=node.enum_list("weekdays", WEEKDAYS),
        admin_defined=admin,
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_schedule_day(node: _Node) -> ScheduleDay:
    result = ScheduleDay(
        date=node.date("date"),
        opens=node.time("opens"),
        closes=node.time("closes"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_schedule(node: _Node) -> Schedule:
    ident = node.ident()
    label = node.text("label")
    basis = node.basis()
    setup_node = node.table("setup")
    teardown_node = node.table("teardown")
    day_nodes = node.tables("days")
    days = [_parse_schedule_day(child) for child in day_nodes]
    seen: dict[dt.date, str] = {}
    for child, day in zip(day_nodes, days):
        if day.date in seen:
            child.fail("date", f"dia {day.date.isoformat()} repetido")
        seen[day.date] = child.path
    result = Schedule(
        id=ident,
        label=label,
        basis=basis,
        basis_act=node.basis_act(),
        setup=_parse_instant(setup_node, "from") if setup_node else None,
        teardown=_parse_instant(teardown_node, "until") if teardown_node else None,
        days=tuple(sorted(days, key=lambda d: d.date)),
        setup_hours=_sub(node, "setup_hours", _parse_hours),
        teardown_hours=_sub(node, "teardown_hours", _parse_hours),
        opening_hours=_sub(node, "opening_hours", _parse_opening),
        notes=node.notes(),
    )
    if result.setup and result.teardown and result.teardown.at <= result.setup.at:
        node.fail("teardown", "a desmontagem deve ser depois do início da montagem")
    node.done()
    return result


def _parse_site(node: _Node) -> Site:
    result = Site(
        id=node.ident(),
        kind=node.enum("kind", SITE_KINDS),
        label=node.text("label"),
        from_=node.text("from", False),
        to=node.text("to", False),
        max_points=node.integer("max_points", False, minimum=1),
        description=node.text("description", False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_measure(node: _Node) -> Measure:
    admin = node.boolean("admin_defined")
    value = node.decimal("value", False, positive=True)
    if admin == (value is not None):
        node.fail("value", 'informe "value" ou "admin_defined = true" — um dos dois')
    result = Measure(value=value, admin_defined=admin, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_layout(node: _Node) -> LayoutRules:
    end_vendors = None
    ev = node.table("end_vendors")
    if ev is not None:
        end_vendors = EndVendors(
            front=ev.decimal("front", positive=True),
            depth=ev.decimal("depth", positive=True),
            min_distance=ev.decimal("min_distance", False, non_negative=True),
            basis=ev.basis(),
            notes=ev.notes(),
        )
        ev.done()
    distances = []
    for child in node.tables("min_distance_from"):
        distances.append(
            DistanceRule(
                what=child.ident("what"),
                value=child.decimal("value", positive=True),
                basis=child.basis(),
                notes=child.notes(),
            )
        )
        child.done()
    max_points = None
    mp = node.table("max_points")
    if mp is not None:
        admin = mp.boolean("admin_defined")
        value = mp.integer("value", not admin, minimum=1)
        if admin and value is not None:
            mp.fail("value", 'informe "value" ou "admin_defined = true" — um dos dois')
        max_points = Count(value=value, admin_defined=admin, basis=mp.basis(), notes=mp.notes())
        mp.done()
    result = LayoutRules(
        min_gap=_sub(node, "min_gap", _parse_measure),
        no_crossings=_flag(node, "no_crossings"),
        keep_garages_free=_flag(node, "keep_garages_free"),
        sides=_flag(node, "sides"),
        end_vendors=end_vendors,
        min_distance_from=tuple(distances),
        max_points=max_points,
        numbering=node.ident_list("numbering"),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_criterion(node: _Node) -> Criterion:
    ident = node.ident()
    label = node.text("label")
    field_name = node.text("field")
    if not re.match(r"^[a-z_][a-z0-9_]*$", field_name):
        node.fail("field", f"campo inválido {_show(field_name)}: use snake_case")
    brackets = []
    for child in node.tables("brackets"):
        brackets.append(
            Bracket(
                points=child.integer("points"),
                min=child.decimal("min", False),
                max=child.decimal("max", False),
                notes=child.notes(),
            )
        )
        child.done()
    values = []
    for child in node.tables("values"):
        equals = child.raw("equals", True)
        if isinstance(equals, str):
            equals = child.text("equals")
        elif type(equals) not in (bool, int):
            child.fail("equals", f"esperado texto, booleano ou inteiro, veio {_type_name(equals)} {_show(equals)}")
        values.append(ValuePoints(equals=equals, points=child.integer("points"), notes=child.notes()))
        child.done()
    if bool(brackets) == bool(values):
        node.fail("brackets", 'informe "brackets" (faixas) ou "values" (categorias) — um dos dois')
    result = Criterion(
        id=ident,
        label=label,
        field=field_name,
        brackets=tuple(brackets),
        values=tuple(values),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_registration(node: _Node) -> Registration:
    proof_until = node.datetime("proof_until", False)
    proof_basis = node.basis("proof_basis", required=False)
    if proof_basis is not None and proof_until is None:
        node.fail("proof_basis", "só vale com proof_until (o prazo do comprovante)")
    result = Registration(
        opens=node.datetime("opens", False),
        until=node.datetime("until", False),
        proof_until=proof_until,
        proof_basis=proof_basis,
        place=node.text("place", False),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_draw(node: _Node) -> DrawSpec:
    result = DrawSpec(
        at=node.datetime("at", False),
        place=node.text("place", False),
        by=node.text("by", False),
        when_more_than=node.integer("when_more_than", False, minimum=0),
        per=node.enum("per", ("line", "section", "site", "event"), required=False),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_late_fill(node: _Node) -> LateFill:
    result = LateFill(
        order_by=node.enum("order_by", ORDER_BY, required=False, default="registration-time"),
        pay_days_after_issue=node.integer("pay_days_after_issue", False, minimum=0),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_selection(node: _Node) -> Selection:
    method = node.enum("method", SELECTION_METHODS)
    criteria_nodes = node.tables("criteria")
    criteria = [_parse_criterion(child) for child in criteria_nodes]
    _unique(zip(criteria_nodes, (c.id for c in criteria)), "id", "critério")
    if method == "score" and not criteria:
        node.fail("criteria", 'method = "score" exige [[selection.criteria]]')
    if method != "score" and criteria:
        node.fail("criteria", f'critérios de pontuação só valem com method = "score" (veio {_show(method)})')
    pref_nodes = node.tables("preferences")
    prefs = []
    for rank, child in enumerate(pref_nodes, start=1):
        prefs.append(
            Preference(id=child.ident(), label=child.text("label"), rank=rank, basis=child.basis(), notes=child.notes())
        )
        child.done()
    _unique(zip(pref_nodes, (p.id for p in prefs)), "id", "preferência")
    tie_break = node.enum_list("tie_break", TIE_BREAKS)
    tie_break_basis = node.basis("tie_break_basis", required=bool(tie_break))
    if tie_break_basis is not None and not tie_break:
        node.fail("tie_break_basis", "só vale com tie_break (os critérios de desempate)")
    if method == "preference-then-draw" and not prefs:
        node.fail("preferences", 'method = "preference-then-draw" exige [[selection.preferences]]')
    result = Selection(
        method=method,
        permit_kinds=node.ident_list("permit_kinds"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        alternates=node.integer("alternates", False, minimum=0),
        tie_break=tie_break,
        tie_break_basis=tie_break_basis,
        exclude=node.ident_list("exclude"),
        appeal_days=node.integer("appeal_days", False, minimum=1),
        decision_business_days=node.integer("decision_business_days", False, minimum=1),
        criteria=tuple(criteria),
        order_by=node.enum("order_by", ORDER_BY, required=False),
        registration=_sub(node, "registration", _parse_registration),
        positions=_sub(node, "positions", _parse_draw),
        draw=_sub(node, "draw", _parse_draw),
        late_fill=_sub(node, "late_fill", _parse_late_fill),
        preferences=tuple(prefs),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_sanction_condition(node: _Node) -> SanctionCondition:
    result = SanctionCondition(
        fact=node.enum("fact", SANCTION_FACTS),
        text=node.text("text"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_sanction(node: _Node) -> Sanction:
    kind = node.enum("kind", SANCTION_KINDS)
    kw: dict[str, Any] = {"kind": kind}
    if kind == "warning":
        kw["comply_days"] = node.integer("comply_days", False, minimum=0)
        kw["comply_hours"] = node.integer("comply_hours", False, minimum=0)
        if kw["comply_days"] is not None and kw["comply_hours"] is not None:
            node.fail("comply_hours", "informe comply_days ou comply_hours, não os dois")
        kw["deadline"] = node.ident("deadline", False)
    elif kind == "fine":
        kw["multiplier"] = node.decimal("multiplier", False, positive=True)
        kw["amount"] = _amount(node, "amount", required=False)
        kw["graded"] = node.boolean("graded")
        kw["max"] = _amount(node, "max", required=False)
        if kw["multiplier"] is not None and kw["amount"] is not None:
            node.fail("amount", "informe multiplier (da multa da infração) ou amount (valor próprio), não os dois")
    elif kind == "suspension":
        kw["days"] = node.integer("days", False, minimum=1)
        kw["max_days"] = node.integer("max_days", False, minimum=1)
        kw["until_remedied"] = node.boolean("until_remedied")
    elif kind == "revocation":
        kw["wait_months"] = node.integer("wait_months", False, minimum=1)
    elif kind == "impediment":
        kw["text"] = node.text("text")
    if kind != "impediment":
        kw["text"] = node.text("text", False)
    kw["cumulative"] = node.boolean("cumulative")
    kw["discretionary"] = node.boolean("discretionary")
    kw["admin_defined"] = node.boolean("admin_defined")
    kw["condition"] = _sub(node, "condition", _parse_sanction_condition)
    kw["one_of"] = node.ident("one_of", False)
    kw["word"] = node.text("word", False)
    if kw["one_of"] is not None and not kw["discretionary"]:
        node.fail(
            "one_of", "sanções alternativas (one_of) ficam a critério da autoridade: informe discretionary = true"
        )
    if kw["admin_defined"] and any(kw.get(k) is not None for k in ("days", "max_days", "amount", "multiplier")):
        node.fail("admin_defined", "com admin_defined = true não informe days/max_days/amount/multiplier")
    kw["basis"] = node.basis()
    kw["basis_act"] = node.basis_act()
    kw["notes"] = node.notes()
    node.done()
    return Sanction(**kw)


def _parse_sanction_list(node: _Node, name: str, required: bool = False) -> tuple[Sanction, ...]:
    return tuple(_parse_sanction(child) for child in node.tables(name, required=required))


def _parse_ladder(node: _Node) -> Ladder:
    ident = node.ident()
    label = node.text("label")
    step_nodes = node.tables("steps", required=True)
    if not step_nodes:
        node.fail("steps", "lista vazia: informe ao menos um degrau")
    steps = []
    for i, child in enumerate(step_nodes, start=1):
        offence = child.integer("offence", minimum=1)
        if offence != i:
            child.fail("offence", f"esperado {i} (os degraus vão de 1 em 1, em ordem), veio {offence}")
        sanctions = _parse_sanction_list(child, "sanctions", required=True)
        if not sanctions:
            child.fail("sanctions", "lista vazia")
        groups = [x.one_of for x in sanctions if x.one_of]
        for group in set(groups):
            if groups.count(group) < 2:
                child.fail("sanctions", f"one_of {_show(group)} com uma só sanção: as alternativas são duas ou mais")
        steps.append(LadderStep(offence=offence, sanctions=sanctions, notes=child.notes()))
        child.done()
    result = Ladder(
        id=ident,
        label=label,
        steps=tuple(steps),
        recurrence_window_days=node.integer("recurrence_window_days", False, minimum=1),
        recurrence_window_years=node.integer("recurrence_window_years", False, minimum=1),
        matter=node.enum("matter", SCOPES, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.recurrence_window_days is not None and result.recurrence_window_years is not None:
        node.fail("recurrence_window_years", "informe recurrence_window_days ou recurrence_window_years, não os dois")
    node.done()
    return result


def _parse_fine(node: _Node) -> Fine:
    admin = node.boolean("admin_defined")
    graded = node.boolean("graded")
    max_amount = _amount(node, "max", required=False)
    amount = None
    if node.has("value") or node.has("unit"):
        value = node.decimal("value", non_negative=True)
        unit = _unit_code(node, "unit")
        amount = Amount(value=value, unit=unit)
    given = sum(x for x in (amount is not None, max_amount is not None, admin))
    if given != 1:
        node.fail(None, "a multa precisa de value + unit, ou max = { value, unit }, ou admin_defined = true — um só")
    if graded and max_amount is None:
        node.fail("graded", "graded = true exige max = { value, unit }")
    result = Fine(
        amount=amount,
        max=max_amount,
        graded=graded,
        admin_defined=admin,
        discretionary=node.boolean("discretionary"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_infraction(node: _Node) -> Infraction:
    code = node.ident("code")
    label = node.text("label")
    article = node.basis("article")
    result = Infraction(
        code=code,
        label=label,
        article=article,
        nature=node.text("nature", False),
        severity=node.enum("severity", SEVERITIES, required=False),
        fine=_sub(node, "fine", _parse_fine),
        ladder=node.ident("ladder", False),
        sanctions=_parse_sanction_list(node, "sanctions"),
        tolerance=_sub(node, "tolerance", _parse_tolerance),
        matter=node.enum("matter", SCOPES, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_tolerance(node: _Node) -> Tolerance:
    result = Tolerance(
        occurrences=node.integer("occurrences", minimum=1),
        spares=node.enum_list("spares", SANCTION_KINDS, required=True),
        text=node.text("text"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if not result.spares:
        node.fail("spares", "lista vazia: informe as sanções que a tolerância dispensa")
    node.done()
    return result


def _parse_record_rules(node: _Node) -> RecordRules:
    def requirement(name: str) -> RecordRequirement | None:
        child = node.table(name)
        if child is None:
            return None
        found = RecordRequirement(
            basis=child.basis(), text=child.text("text", False), basis_act=child.basis_act(), notes=child.notes()
        )
        child.done()
        return found

    result = RecordRules(
        inspector_id=requirement("inspector_id"),
        witness_when_unsigned=requirement("witness_when_unsigned"),
        unsigned_note=requirement("unsigned_note"),
        unsigned_valid=requirement("unsigned_valid"),
    )
    node.done()
    return result


def _parse_penalties(node: _Node) -> Penalties:
    recurrence = None
    rec = node.table("recurrence")
    if rec is not None:
        recurrence = Recurrence(
            window_days=rec.integer("window_days", False, minimum=1),
            window_years=rec.integer("window_years", False, minimum=1),
            multiplier=rec.decimal("multiplier", False, positive=True),
            max_doublings=rec.integer("max_doublings", False, minimum=1),
            discretionary=rec.boolean("discretionary"),
            reading=rec.text("reading", False),
            basis=rec.basis(),
            notes=rec.notes(),
        )
        if recurrence.window_days is not None and recurrence.window_years is not None:
            rec.fail("window_years", "informe window_days ou window_years, não os dois")
        rec.done()
    index = None
    ix = node.table("index")
    if ix is not None:
        index = IndexRef(code=ix.code("code"), basis=ix.basis(), notes=ix.notes())
        ix.done()
    result = Penalties(
        cumulative=_flag(node, "cumulative"),
        recurrence=recurrence,
        any_order=_flag(node, "any_order"),
        index=index,
        record=_sub(node, "record", _parse_record_rules),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_deadline(node: _Node) -> Deadline:
    ident = node.ident()
    label = node.text("label")
    days = node.integer("days", False, minimum=0)
    hours = node.integer("hours", False, minimum=0)
    count = node.enum("count", COUNT_KINDS)
    if (days is None) == (hours is None):
        node.fail("days", "informe days ou hours — um dos dois")
    if hours is not None and count != "hours":
        node.fail("count", 'prazo em horas exige count = "hours"')
    if days is not None and count == "hours":
        node.fail("count", 'count = "hours" exige hours, não days')
    if node.has("next_business_day"):
        node.fail(
            "next_business_day",
            'chave antiga: use closed_day = { rule = "end-of-next-business-day", '
            'basis = "…" } (ou "next-business-day", "stays")',
        )
    role = node.enum("role", DEADLINE_ROLES)
    result = Deadline(
        id=ident,
        label=label,
        role=role,
        days=days,
        hours=hours,
        count=count,
        from_=node.enum("from", DEADLINE_EVENTS),
        direction=node.enum("direction", DIRECTIONS, required=False, default="after"),
        applies_to=node.enum_list("applies_to", SANCTION_KINDS),
        matter=node.enum_list("matter", SCOPES),
        perishable=node.optional_bool("perishable"),
        alternative=node.boolean("alternative"),
        closed_day=_sub(node, "closed_day", _parse_closed_day),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.closed_day is not None and result.closed_day.rule != "stays" and result.direction == "before":
        node.fail("closed_day", 'só um prazo contado para frente (direction = "after") se prorroga')
    if result.perishable is not None and role != "reclaim":
        node.fail(
            "perishable", 'só os prazos de retirada de bens apreendidos (role = "reclaim") dizem se são de perecíveis'
        )
    if role == "reclaim" and result.perishable is None:
        node.fail(
            "perishable", 'um prazo de retirada (role = "reclaim") diz se é dos perecíveis: perishable = true ou false'
        )
    node.done()
    return result


def _parse_period(node: _Node) -> Period:
    days = node.integer("days", False, minimum=0)
    hours = node.integer("hours", False, minimum=0)
    admin = node.boolean("admin_defined")
    if sum((days is not None, hours is not None, admin)) != 1:
        node.fail("days", "informe days, hours ou admin_defined = true — um só")
    count = node.enum("count", ("calendar", "business"), required=days is not None)
    if count is not None and days is None:
        node.fail("count", "count vale só com days")
    result = Period(days=days, hours=hours, count=count, admin_defined=admin, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def _parse_text_rule(node: _Node) -> TextRule:
    result = TextRule(
        text=node.text("text"), amount=_amount(node, "amount", required=False), basis=node.basis(), notes=node.notes()
    )
    node.done()
    return result


def _parse_seizure(node: _Node) -> Seizure:
    depot = None
    dn = node.table("depot_fee")
    if dn is not None:
        admin = dn.boolean("admin_defined")
        amount = _amount(dn, "amount", required=not admin)
        if admin and amount is not None:
            dn.fail("amount", 'informe "amount" ou "admin_defined = true" — um dos dois')
        depot = DepotFee(
            amount=amount,
            per=dn.enum("per", ("day", "once"), required=not admin),
            admin_defined=admin,
            scopes=dn.enum_list("scopes", SCOPES),
            basis=dn.basis(),
            notes=dn.notes(),
        )
        dn.done()
    result = Seizure(
        basis=node.basis(),
        basis_act=node.basis_act(),
        depot_fee=depot,
        reclaim_perishable=_sub(node, "reclaim_perishable", _parse_period),
        reclaim_other=_sub(node, "reclaim_other", _parse_period),
        donation=_sub(node, "donation", _parse_text_rule),
        release=_sub(node, "release", _parse_text_rule),
        expenses=_sub(node, "expenses", _parse_text_rule),
        notes=node.notes(),
    )
    node.done()
    return result


def _parse_plain(node: _Node, cls: type) -> Any:
    result = cls(
        id=node.ident(), label=node.text("label"), basis=node.basis(), basis_act=node.basis_act(), notes=node.notes()
    )
    node.done()
    return result


def _parse_placard(node: _Node) -> Placard:
    result = Placard(
        min_width=node.decimal("min_width", False, positive=True),
        min_height=node.decimal("min_height", False, positive=True),
        background=node.text("background", False),
        text_colour=node.text("text_colour", False),
        contents=node.enum_list("contents", PLACARD_CONTENTS),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def _list_of(root: _Node, name: str, parser: Any, id_attr: str | None = "id", what: str = "id") -> tuple[Any, ...]:
    found = _FOUND.get()
    if found is not None:
        try:
            nodes = root.tables(name)
        except RegimeError as exc:
            found.append(exc)
            return ()
    else:
        nodes = root.tables(name)
    parsed = [(child, _attempt(parser, child)) for child in nodes]
    parsed = [(child, item) for child, item in parsed if item is not _SKIPPED]
    if id_attr:
        _attempt(lambda _: _unique(((c, getattr(i, id_attr)) for c, i in parsed), id_attr, what), root)
    return tuple(item for _, item in parsed)


# --------------------------------------------------------------------------- references


def _check_references(regime: Regime, root: _Node) -> None:
    file = root.file

    def fail(key: str, reason: str) -> NoReturn:
        raise RegimeError(reason, file=file, key=key)

    units = set(regime.units_by_code) | {"BRL"}
    indexes = {i.code for i in regime.indexes}
    documents = {d.id for d in regime.documents}
    equipment = {e.id for e in regime.equipment_kinds}
    groups = {g.id for g in regime.groups}
    lines = {line.id for line in regime.lines}
    fees = {f.id for f in regime.fees}
    schedules = {s.id for s in regime.schedules}
    ladders = {ladder.id for ladder in regime.ladders}

    def check_amount(amount: Amount | None, key: str) -> None:
        if amount is not None and amount.unit not in units:
            fail(f"{key}.unit", f'unidade {_show(amount.unit)} não declarada em [[units]] (nem "BRL")')

    def check_ids(values: Iterable[str], known: set[str], key: str, what: str) -> None:
        for i, value in enumerate(values):
            if value not in known:
                fail(f"{key}[{i}]", f"{what} {_show(value)} não existe neste regime")

    for i, line in enumerate(regime.lines):
        if line.group is not None and line.group not in groups:
            fail(f"lines[{i}].group", f"grupo {_show(line.group)} não existe em [[groups]]")
    numbers: dict[int, int] = {}
    for i, group in enumerate(regime.groups):
        if group.number in numbers:
            fail(f"groups[{i}].number", f"número {group.number} repetido (já em groups[{numbers[group.number]}])")
        numbers[group.number] = i
    positions: dict[tuple[str, int], int] = {}
    numerals: dict[str, int] = {}
    for i, section in enumerate(regime.sections):
        check_ids(section.lines, lines, f"sections[{i}].lines", "ramo")
        if section.numeral in numerals:
            fail(
                f"sections[{i}].numeral",
                f"numeral {section.numeral} repetido (já em sections[{numerals[section.numeral]}])",
            )
        numerals[section.numeral] = i
        if section.side and section.order is not None:
            slot = (section.side, section.order)
            if slot in positions:
                fail(
                    f"sections[{i}].order",
                    f"posição {section.order} do lado {section.side} repetida (já em sections[{positions[slot]}])",
                )
            positions[slot] = i
    rule_readings: dict[tuple, tuple[tuple[bool, bool], str]] = {}
    for i, kind in enumerate(regime.permit_kinds):
        key = f"permit_kinds[{i}]"
        check_ids(kind.documents, documents, f"{key}.documents", "documento")
        check_ids(kind.fees, fees, f"{key}.fees", "preço/taxa")
        if kind.schedule is not None and kind.schedule not in schedules:
            fail(f"{key}.schedule", f"calendário {_show(kind.schedule)} não existe em [[schedules]]")
        for j, rule in enumerate(kind.rules):
            if rule.kind == "document" and rule.document not in documents:
                fail(f"{key}.rules[{j}].document", f"documento {_show(rule.document)} não existe em [[documents]]")
            # one article repeated over several kinds is one rule: its readings must agree
            same = (rule.kind, rule.scope, rule.after, rule.basis, rule.basis_act)
            flags = (rule.more_than, rule.same_site)
            if same in rule_readings and rule_readings[same][0] != flags:
                first_flags, where = rule_readings[same]
                name = "more_than" if first_flags[0] != flags[0] else "same_site"
                fail(
                    f"{key}.rules[{j}].{name}",
                    f"a mesma regra ({_show(rule.kind)}, {rule.basis}) está em {where} com outro valor de {name}",
                )
            rule_readings.setdefault(same, (flags, f"{key}.rules[{j}]"))
    venue_ids: dict[str, str] = {}
    for i, fee in enumerate(regime.fees):
        key = f"fees[{i}]"
        if fee.year is not None and fee.year < regime.published.year:
            fail(f"{key}.year", f"{fee.year} é anterior à publicação do ato ({regime.published.year})")
        if fee.unit is not None and fee.unit not in units:
            fail(f"{key}.unit", f'unidade {_show(fee.unit)} não declarada em [[units]] (nem "BRL")')
        if fee.index is not None and fee.index not in indexes:
            fail(f"{key}.index", f"índice {_show(fee.index)} não declarado em [[indexes]]")
        check_amount(fee.rate, f"{key}.rate")
        check_amount(fee.amount, f"{key}.amount")
        for j, discount in enumerate(fee.discounts):
            check_ids(discount.when.equipment, equipment, f"{key}.discounts[{j}].when.equipment", "equipamento")
            check_ids(discount.when.lines, lines, f"{key}.discounts[{j}].when.lines", "ramo")
        for j, tier in enumerate(fee.tiers):
            check_ids(tier.equipment, equipment, f"{key}.tiers[{j}].equipment", "equipamento")
        for j, exemption in enumerate(fee.exemptions):
            if exemption.document is not None and exemption.document not in documents:
                fail(
                    f"{key}.exemptions[{j}].document",
                    f"documento {_show(exemption.document)} não existe em [[documents]]",
                )
            check_ids(exemption.waives_documents, documents, f"{key}.exemptions[{j}].waives_documents", "documento")
        for j, venue in enumerate(fee.venues):
            vkey = f"{key}.venues[{j}]"
            if venue.id in venue_ids:
                fail(f"{vkey}.id", f"imóvel {_show(venue.id)} repetido (já em {venue_ids[venue.id]})")
            venue_ids[venue.id] = vkey
            check_amount(venue.one_day, f"{vkey}.one_day")
            check_amount(venue.per_day, f"{vkey}.per_day")
            check_amount(venue.deposit, f"{vkey}.deposit")
            # 1 day at one_day; 2 days or more at per_day for at least min_days days: the
            # price must never fall when a day is added (checked when both are in one unit)
            charged = max(venue.min_days, 2)
            if venue.one_day.unit == venue.per_day.unit and venue.one_day.value > charged * venue.per_day.value:
                fail(
                    f"{vkey}.one_day",
                    f"a taxa de 1 dia ({venue.one_day.value} {venue.one_day.unit}) passa do preço de 2 dias "
                    f"({charged} × {venue.per_day.value} {venue.per_day.unit}): 2 dias custariam menos que 1",
                )

    deadlines = {d.id: d for d in regime.deadlines}

    def check_sanctions(sanctions: Iterable[Sanction], key: str) -> None:
        for j, sanction in enumerate(sanctions):
            check_amount(sanction.amount, f"{key}[{j}].amount")
            check_amount(sanction.max, f"{key}[{j}].max")
            if sanction.deadline is None:
                continue
            d = deadlines.get(sanction.deadline)
            if d is None:
                fail(f"{key}[{j}].deadline", f"prazo {_show(sanction.deadline)} não existe em [[deadlines]]")
            if d.role != "compliance":
                fail(f"{key}[{j}].deadline", f'o prazo {_show(d.id)} não é de regularização (role = "compliance")')
            if (sanction.comply_days, sanction.comply_hours) != (d.days, d.hours):
                fail(
                    f"{key}[{j}].deadline",
                    f"o prazo {_show(d.id)} ({d.days or d.hours} {'horas' if d.hours else 'dias'}) "
                    "difere de comply_days/comply_hours da advertência",
                )

    for i, ladder in enumerate(regime.ladders):
        for j, step in enumerate(ladder.steps):
            check_sanctions(step.sanctions, f"ladders[{i}].steps[{j}].sanctions")
    for i, ladder in enumerate(regime.ladders):
        if ladder.matter is not None and ladder.matter not in regime.scope:
            fail(f"ladders[{i}].matter", f"matéria {_show(ladder.matter)} não está no scope do regime")
    for i, deadline in enumerate(regime.deadlines):
        for j, matter in enumerate(deadline.matter):
            if matter not in regime.scope:
                fail(f"deadlines[{i}].matter[{j}]", f"matéria {_show(matter)} não está no scope do regime")
    for i, infraction in enumerate(regime.infractions):
        key = f"infractions[{i}]"
        if infraction.matter is not None and infraction.matter not in regime.scope:
            fail(f"{key}.matter", f"matéria {_show(infraction.matter)} não está no scope do regime")
        if infraction.ladder is not None and infraction.ladder not in ladders:
            fail(f"{key}.ladder", f"gradação {_show(infraction.ladder)} não existe em [[ladders]]")
        if infraction.fine is not None:
            if infraction.fine.amount is not None and infraction.fine.amount.unit not in units:
                fail(
                    f"{key}.fine.unit",
                    f'unidade {_show(infraction.fine.amount.unit)} não declarada em [[units]] (nem "BRL")',
                )
            check_amount(infraction.fine.max, f"{key}.fine.max")
        check_sanctions(infraction.sanctions, f"{key}.sanctions")
        if infraction.fine is None and infraction.ladder is not None:
            ladder = regime.ladder(infraction.ladder)
            if any(s.kind == "fine" and s.multiplier is not None for st in ladder.steps for s in st.sanctions):
                fail(
                    f"{key}.fine",
                    f'a gradação {_show(ladder.id)} multiplica a multa da infração, mas a infração não tem "fine"',
                )
    for i, deadline in enumerate(regime.deadlines):
        if (
            deadline.role in PROCESS_ROLES
            and deadline.closed_day is None
            and deadline.direction == "after"
            and regime.calendar is None
        ):
            fail(
                f"deadlines[{i}].role",
                f"prazo do processo ({_show(deadline.role)}) sem regra para o dia sem expediente: declare "
                "[calendar] closed_day (a do ato, ou a Lei nº 9.784/1999, art. 66, § 1º, subsidiária) ou "
                "closed_day no próprio prazo",
            )
    if regime.penalties and regime.penalties.index and regime.penalties.index.code not in indexes:
        fail("penalties.index.code", f"índice {_show(regime.penalties.index.code)} não declarado em [[indexes]]")
    if regime.seizure:
        if regime.seizure.depot_fee:
            check_amount(regime.seizure.depot_fee.amount, "seizure.depot_fee.amount")
        for name in ("donation", "release"):
            rule = getattr(regime.seizure, name)
            if rule is not None:
                check_amount(rule.amount, f"seizure.{name}.amount")


# --------------------------------------------------------------------------- loading

_TOP_LEVEL = (
    "regime",
    "units",
    "indexes",
    "documents",
    "equipment",
    "groups",
    "lines",
    "sections",
    "permit_kinds",
    "fees",
    "schedules",
    "sites",
    "layout",
    "selection",
    "ladders",
    "infractions",
    "penalties",
    "deadlines",
    "seizure",
    "prohibitions",
    "duties",
    "placard",
    "calendar",
    "notes",
)


def _check_selection_references(regime: Regime, root: _Node) -> None:
    """The permit kinds a selection names exist in the regime."""
    selection = regime.selection
    if selection is None:
        return
    kinds = {k.id for k in regime.permit_kinds}
    for i, kind in enumerate(selection.permit_kinds):
        if kind not in kinds:
            raise RegimeError(
                f"tipo de permissão {_show(kind)} não existe em [[permit_kinds]]",
                file=root.file,
                key=f"selection.permit_kinds[{i}]",
            )


def _check_rule_deadlines(regime: Regime, root: _Node) -> None:
    """A rule met later (``due``) names a deadline of the regime."""
    deadlines = {d.id for d in regime.deadlines}
    for i, kind in enumerate(regime.permit_kinds):
        for j, rule in enumerate(kind.rules):
            if rule.due is not None and rule.due not in deadlines:
                raise RegimeError(
                    f"prazo {_show(rule.due)} não existe em [[deadlines]]",
                    file=root.file,
                    key=f"permit_kinds[{i}].rules[{j}].due",
                )


def load_regime_file(path: str | Path, *, all_errors: bool = False) -> Regime:
    """Load and validate one regime file; :class:`RegimeError` on any mistake (with ``all_errors``,
    :class:`RegimeErrors` with every one found). The file's id must be its name."""
    path = Path(path)
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise RegimeError(f"não foi possível ler o arquivo ({exc.strerror or exc})", file=path.name) from exc
    return load_regime_text(raw_bytes, path.name, expected_id=path.stem, source=str(path), all_errors=all_errors)


def check_regime_text(text: str | bytes, file: str, *, expected_id: str | None = None) -> list[RegimeError]:
    """Every mistake in a regime's text (empty when it is valid): each broken item of the file is reported,
    then — only when the items themselves are sound — the references between them."""
    try:
        load_regime_text(text, file, expected_id=expected_id, all_errors=True)
    except RegimeErrors as exc:
        return exc.errors
    except RegimeError as exc:
        return [exc]
    return []


def load_regime_text(
    text: str | bytes, file: str, *, expected_id: str | None = None, source: str | None = None, all_errors: bool = False
) -> Regime:
    """Load and validate one regime from its TOML text (``file`` names it in messages); the result carries
    the text's SHA-256. :class:`RegimeError` on the first mistake, or with ``all_errors``
    :class:`RegimeErrors` with every broken item."""
    raw_bytes = text.encode("utf-8") if isinstance(text, str) else text
    try:
        data = tomllib.loads(raw_bytes.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RegimeError(f"o arquivo não está em UTF-8 ({exc.reason})", file=file) from exc
    except tomllib.TOMLDecodeError as exc:
        raise RegimeError(f"erro de sintaxe TOML: {exc}", file=file) from exc
    found: list[RegimeError] = []
    token = _FOUND.set(found if all_errors else None)
    try:
        regime = _build(data, file, expected_id, source or file)
    except RegimeError as exc:
        if not all_errors:
            raise
        if exc not in found:
            found.append(exc)
        regime = None
    finally:
        _FOUND.reset(token)
    if found:
        raise RegimeErrors(found)
    return dataclass_replace(regime, sha256=hashlib.sha256(raw_bytes).hexdigest())


def _build(data: dict, file: str, expected_id: str | None, source: str) -> Regime:
    root = _Node(file, "", data)
    header_node = root.table("regime", required=True)
    header = _attempt(_parse_header, header_node, salvage=True)
    if header is _SKIPPED:  # no header to check the rest against: its mistakes are all there is to say
        raise _FOUND.get()[-1]
    if expected_id is not None and header["id"] != expected_id:
        header_node.fail("id", f"o id {_show(header['id'])} difere do nome do arquivo ({_show(expected_id)})")

    units = _list_of(root, "units", _parse_unit, id_attr="code", what="unidade")
    indexes = _list_of(root, "indexes", _parse_index, id_attr="code", what="índice")
    clash = {u.code for u in units} & {x.code for x in indexes}
    if clash:
        root.fail("indexes", f"código {', '.join(sorted(clash))} usado como unidade e como índice")

    regime = Regime(
        **{k: v for k, v in header.items()},
        units=units,
        indexes=indexes,
        documents=_list_of(root, "documents", _parse_document, what="documento"),
        equipment_kinds=_list_of(root, "equipment", _parse_equipment, what="equipamento"),
        groups=_list_of(root, "groups", _parse_group, what="grupo"),
        lines=_list_of(root, "lines", _parse_line, what="ramo"),
        sections=_list_of(root, "sections", _parse_section, what="seção"),
        permit_kinds=_list_of(root, "permit_kinds", _parse_permit_kind, what="tipo de permissão"),
        fees=_list_of(root, "fees", _parse_fee, what="preço/taxa"),
        schedules=_list_of(root, "schedules", _parse_schedule, what="calendário"),
        sites=_list_of(root, "sites", _parse_site, what="local"),
        layout=_sub(root, "layout", _parse_layout),
        selection=_sub(root, "selection", _parse_selection),
        ladders=_list_of(root, "ladders", _parse_ladder, what="gradação"),
        infractions=_list_of(root, "infractions", _parse_infraction, id_attr="code", what="infração"),
        penalties=_sub(root, "penalties", _parse_penalties),
        deadlines=_list_of(root, "deadlines", _parse_deadline, what="prazo"),
        seizure=_sub(root, "seizure", _parse_seizure),
        prohibitions=_list_of(root, "prohibitions", lambda n: _parse_plain(n, Prohibition), what="proibição"),
        duties=_list_of(root, "duties", lambda n: _parse_plain(n, Duty), what="obrigação"),
        placard=_sub(root, "placard", _parse_placard),
        calendar=_sub(root, "calendar", _parse_calendar),
        source=source,
    )
    root.notes()
    found = _FOUND.get()
    if found is not None:
        _attempt(lambda node: node.done(), root)
        if found:  # references between broken items would only repeat them
            return regime
    else:
        root.done()
    _check_references(regime, root)
    _check_selection_references(regime, root)
    _check_rule_deadlines(regime, root)
    return regime


def default_regimes_folder() -> Path:
    """``resources/regimes`` of the installed ``resources`` package (or of this checkout)."""
    try:
        import resources  # a plain package of files, installed as such (importlib.resources costs a start-up)

        candidate = Path(resources.__file__).resolve().parent / "regimes"
        if candidate.is_dir():
            return candidate
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - fallback below
        pass
    return _models_root().parent / "resources" / "regimes"


def load_regimes(folder: str | Path | None = None) -> dict[str, Regime]:
    """Every ``*.toml`` of ``folder`` (default: :func:`default_regimes_folder`), by id.

    The first malformed file stops the load with its :class:`RegimeError`.
    """
    folder = Path(folder) if folder is not None else default_regimes_folder()
    if not folder.is_dir():
        raise RegimeError(f"pasta de regimes não encontrada: {folder}")
    regimes: dict[str, Regime] = {}
    for path in sorted(folder.glob("*.toml")):
        regime = load_regime_file(path)
        regimes[regime.id] = regime
    return regimes


@functools.lru_cache(maxsize=1)
def _default_regimes() -> dict[str, Regime]:
    return _load_through_cache(default_regimes_folder())


def _models_root() -> Path:
    """The ``models`` package folder: every module of the domain, at any depth."""
    import models

    return Path(models.__file__).resolve().parent


def _load_through_cache(folder: Path) -> dict[str, Regime]:
    """:func:`load_regimes`, kept parsed in the cache folder (:mod:`models.store.cache`) between runs: parsing and
    checking the five acts costs a start-up more than the rest of the Painel. The cache file is named by a hash
    of the files' text, of the domain's code (the text of each ``models/*.py``) and of Python's version —
    any change makes a new one; one that does not load is rebuilt. A file that fails to load is never cached."""
    import hashlib
    import pickle
    import sys

    from models.store.cache import cache_folder

    where = cache_folder()
    if where is None or not folder.is_dir():
        return load_regimes(folder)
    digest = hashlib.sha256(f"{sys.version}|{pickle.HIGHEST_PROTOCOL}|".encode())
    for source in sorted(_models_root().rglob("*.py")):  # the text, not the time: some
        digest.update(
            source.relative_to(_models_root()).as_posix().encode() + b"\0" + source.read_bytes() + b"\0"
        )  # installs fix every mtime
    for file in sorted(folder.glob("*.toml")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    path = where / f"regimes-{digest.hexdigest()[:40]}.pickle"
    try:
        with open(path, "rb") as fh:
            regimes = pickle.load(fh)
        if isinstance(regimes, dict) and all(isinstance(r, Regime) for r in regimes.values()):
            return regimes
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a damaged or foreign cache file: rebuilt below
        pass
    regimes = load_regimes(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(pickle.dumps(regimes, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)
        for old in where.glob("regimes-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except Exception:  # noqa: BLE001 - a read-only or full disk, something that does not pickle: parsed next time
        pass
    return regimes


class ActSource:
    """Where the installed acts come from when a database is open (:mod:`models.rules.acts`): each id's versions,
    oldest first, and whether the act was retired."""

    def versions(self, regime_id: str) -> tuple[Regime, ...]:  # pragma: no cover - interface
        raise NotImplementedError

    def ids(self) -> list[str]:  # pragma: no cover - interface
        raise NotImplementedError

    def retired(self, regime_id: str) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


_act_source: Any = None  # a callable returning the open database's ActSource, or None


def set_act_source(source: Any) -> None:
    """Called once by :mod:`models.rules.acts`: from then on, with a database open, the acts are the database's."""
    global _act_source
    _act_source = source


def _acts() -> ActSource | None:
    return _act_source() if _act_source is not None else None


def in_force_on(versions: tuple[Regime, ...], on: dt.date) -> Regime:
    """Of an act's versions (oldest first), the one that judges a fact of ``on``: the latest whose
    ``effective_from`` is not after it (the first version for a fact before them all — refused later by
    ``[regime] in_force`` where that matters)."""
    chosen = versions[0]
    for version in versions:
        if version.effective_from <= on:
            chosen = version
    return chosen


def shipped_regimes_from_files() -> dict[str, Regime]:
    """The acts shipped with this Praça, as their files say (read once per process)."""
    return dict(_default_regimes())


def shipped_regimes() -> dict[str, Regime]:
    """The acts offered for new work, by id: with a database open, its installed acts not retired, each in the
    version in force today; else the shipped files. (Screens ask for them often: kept parsed.)"""
    acts = _acts()
    if acts is None:
        return dict(_default_regimes())
    today = dt.date.today()
    return {i: in_force_on(acts.versions(i), today) for i in acts.ids() if not acts.retired(i)}


def retired_regimes() -> dict[str, Regime]:
    """The acts of the open database that were retired (each in its version in force today): no longer offered,
    still shown with their history."""
    acts = _acts()
    if acts is None:
        return {}
    today = dt.date.today()
    return {i: in_force_on(acts.versions(i), today) for i in acts.ids() if acts.retired(i)}


def get_regime(regime_id: str, on: dt.date | None = None) -> Regime:
    """The act ``regime_id`` in the version in force on ``on`` (default: today) — from the open database's
    installed acts (retired ones included: what was done under them is still read), else the shipped files."""
    acts = _acts()
    if acts is not None:
        versions = acts.versions(regime_id)
        if versions:
            return in_force_on(versions, on or dt.date.today())
        options = ", ".join(i for i in acts.ids() if not acts.retired(i)) or "nenhum"
        raise RegimeError(f"regime {_show(regime_id)} não existe. Regimes disponíveis: {options}.")
    regimes = _default_regimes()
    try:
        return regimes[regime_id]
    except KeyError:
        options = ", ".join(sorted(regimes)) or "nenhum"
        raise RegimeError(f"regime {_show(regime_id)} não existe. Regimes disponíveis: {options}.") from None


def clear_regime_cache() -> None:
    """Forget the cached regimes (after the files changed)."""
    _default_regimes.cache_clear()


# --------------------------------------------------------------------------- JSON

_ID_ATTRS = ("id", "code")


def _jsonable(regime: Regime, value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat(timespec="minutes") if isinstance(value, (dt.datetime, dt.time)) else value.isoformat()
    if isinstance(value, tuple):
        return [_jsonable(regime, item) for item in value]
    if is_dataclass(value):
        out: dict[str, Any] = {}
        for f in fields(value):
            if not f.init:
                continue
            item = getattr(value, f.name)
            if item is None or item == () or (f.name == "source"):
                continue
            name = f.name.rstrip("_")
            out[name] = _jsonable(regime, item)
        basis = getattr(value, "basis", None)
        if basis:
            out["article"] = regime.cite(basis, getattr(value, "basis_act", None))
        if isinstance(value, Infraction):
            # for an infraction, "article" is the article infringed (the field of
            # the format); the article that sets the penalty is "penalty_article"
            out["penalty_article"] = out["article"]
            out["article"] = regime.cite(value.article)
            out["infringed"] = value.article
        if isinstance(value, Section) and value.fire_rules_basis:
            out["fire_rules_article"] = regime.cite(value.fire_rules_basis)
        return out
    return value


def regime_to_dict(regime: Regime) -> dict[str, Any]:
    """Everything in the regime as JSON-ready data (for ``praca regimes --show ID --json``).

    Every item with a ``basis`` also carries ``article``: its full citation
    (``"Dec. 4.794/2026, art. 9º, § 2º"``) — for an infraction, the article
    infringed, with the penalty's own citation in ``penalty_article``. ``ids``
    gathers every id other commands take, by kind; ``venues`` and
    ``energy_tiers`` list those rows at top level, with their fee id.
    """
    data = _jsonable(regime, regime)
    for f in fields(regime):  # top-level collections are always present, even empty
        if f.init and f.name != "source" and isinstance(getattr(regime, f.name), tuple):
            data.setdefault(f.name, [])
    data.pop("equipment_kinds", None)
    data["equipment"] = [_jsonable(regime, e) for e in regime.equipment_kinds]
    data["citation"] = regime.short
    data["title"] = regime.title
    data["venues"] = [dict(_jsonable(regime, venue), fee=fee.id) for fee in regime.fees for venue in fee.venues]
    data["energy_tiers"] = [dict(_jsonable(regime, tier), fee=fee.id) for fee in regime.fees for tier in fee.tiers]
    data["ids"] = {
        "equipment": [e.id for e in regime.equipment_kinds],
        "lines": [line.id for line in regime.lines],
        "sections": [s.id for s in regime.sections],
        "groups": [g.id for g in regime.groups],
        "permit_kinds": [p.id for p in regime.permit_kinds],
        "documents": [d.id for d in regime.documents],
        "fees": [f.id for f in regime.fees],
        "venues": [v.id for f in regime.fees for v in f.venues],
        "energy": ["none"] + [t.id for f in regime.fees for t in f.tiers],
        "schedules": [s.id for s in regime.schedules],
        "sites": [s.id for s in regime.sites],
        "infractions": [i.code for i in regime.infractions],
        "ladders": [ladder.id for ladder in regime.ladders],
        "deadlines": [d.id for d in regime.deadlines],
        "units": [u.code for u in regime.units],
        "indexes": [x.code for x in regime.indexes],
        "prohibitions": [p.id for p in regime.prohibitions],
        "duties": [d.id for d in regime.duties],
    }
    return data
