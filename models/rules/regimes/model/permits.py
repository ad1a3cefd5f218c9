"""Permit kinds and what they ask: rules, validity, renewal, start-up, leave, transfer."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes.model.common import Flag, TextRule


@dataclass(frozen=True)
class Validity:
    basis: str
    days: int | None = None
    months: int | None = None
    years: int | None = None
    until: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Renewal:
    basis: str
    from_days_before: int | None = None
    to_days_before: int | None = None
    until_month_day: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None
    #: the act leaves the window to the Executive (a decree): Praça invents none — the desk records the decree's
    #: number, date and window (models.permits.renewal.record_renewal_decree) and renewals use it
    by_decree: bool = False


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
