"""Dates (months added, waits, ages, a document's last valid day), the pt-BR pieces of a reason, and the
context one rule is checked in (the regime, the permit kind, the facts, the rules of its sibling kinds).
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.rules.eligibility.facts import FORM_TEXT, RELATION_TEXT, ApplicantFacts, DocumentFacts, PermitFacts
from models.rules.regimes import Regime
from models.rules.regimes.model import PermitKind, Rule

# --------------------------------------------------------------------------- dates


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` + ``months`` calendar months, same day of the month, clamped to the month's end."""
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    month = month0 + 1
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day.day, last))


def wait_end(event: dt.date, months: int) -> dt.date:
    """The day a wait of ``months`` after ``event`` ends: from this day on, a new permit may be asked."""
    return add_months(event, months)


def elapsed(start: dt.date, end: dt.date) -> tuple[int, int, int]:
    """Whole (years, months, days) from ``start`` to ``end`` (``end`` ≥ ``start``)."""
    if end < start:
        return (0, 0, 0)
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if add_months(start, months) > end:
        months -= 1
    days = (end - add_months(start, months)).days
    return (months // 12, months % 12, days)


def age_on(birth: dt.date, today: dt.date) -> int:
    """Age in whole years on ``today`` (the birthday itself counts: born 10/05/2008 → 18 on 10/05/2026)."""
    years, _, _ = elapsed(birth, today)
    return years if today >= birth else -1


def document_last_valid_day(facts: DocumentFacts, validity_months: int | None) -> dt.date | None:
    """The last day a delivered document is valid, or ``None`` when it does not expire."""
    if facts.valid_until is not None:
        return facts.valid_until
    if validity_months:
        return add_months(facts.issued_on or facts.delivered_on, validity_months)
    return None


def date_text(day: dt.date) -> str:
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def join_words(parts: list[str], conj: str = "e") -> str:
    parts = [p for p in parts if p]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {conj} " + parts[-1]


def duration(years: int, months: int, days: int) -> str:
    parts = []
    if years:
        parts.append(plural(years, "ano", "anos"))
    if months:
        parts.append(plural(months, "mês", "meses"))
    if not parts:
        return plural(days, "dia", "dias")
    return join_words(parts)


def years_text(n: int) -> str:
    return plural(n, "ano", "anos")


def months_text(n: int) -> str:
    return plural(n, "mês", "meses")


# --------------------------------------------------------------------------- helpers


def rule_key(rule: Rule) -> str:
    """Key of ``admin_values`` for a rule whose number the act leaves to the Administration."""
    if rule.kind == "waiting-period" and rule.after:
        return f"waiting-period:{rule.after}"
    return rule.kind


@dataclass(frozen=True)
class Context:
    regime: Regime
    kind: PermitKind
    facts: ApplicantFacts
    admin_values: Mapping[str, Any]

    def admin(self, rule: Rule) -> Any:
        return self.admin_values.get(rule_key(rule))

    def kind_label(self, kind_id: str) -> str:
        try:
            return self.regime.permit_kind(kind_id).label
        except Exception:  # a permit of a kind the regime no longer has: show its id
            return kind_id


def _same_rule(a: Rule, b: Rule) -> bool:
    return (a.kind, a.scope, a.after, a.basis, a.basis_act) == (b.kind, b.scope, b.after, b.basis, b.basis_act)


def siblings_of(ctx: Context, rule: Rule) -> list[tuple[PermitKind, Rule]]:
    """The permit kinds of the regime that carry the same rule (same article), this kind first."""
    found: list[tuple[PermitKind, Rule]] = [(ctx.kind, rule)]
    for other in ctx.regime.permit_kinds:
        if other.id == ctx.kind.id:
            continue
        for candidate in other.rules:
            if _same_rule(candidate, rule):
                found.append((other, candidate))
                break
    return found


def kinds_text(ctx: Context, kinds: list[PermitKind]) -> str:
    if len(kinds) == 1:
        return "deste tipo"
    return "dos tipos abrangidos pela regra (" + "; ".join(k.label for k in kinds) + ")"


def is_more_than(rule: Rule) -> bool:
    """``resident`` with ``more_than = true``: "há mais de N anos" (strict)."""
    return rule.more_than


def is_same_site(ctx: Context, rule: Rule) -> bool:
    """``one-per`` with ``same_site = true``: only permits in the same feira/site count.

    The loader makes every copy of one article over several kinds agree, so the
    rule's own attribute is the rule's reading."""
    return rule.same_site


def forms_of(facts: ApplicantFacts) -> set[str]:
    forms = {facts.applicant_type}
    if facts.is_mei:
        forms.add("mei")
    return forms


def form_text(facts: ApplicantFacts) -> str:
    base = FORM_TEXT.get(facts.applicant_type, facts.applicant_type)
    if facts.is_mei:
        return f"{base} (MEI)"
    if facts.is_mei is False:
        return f"{base} (sem MEI)"
    return base


def site_text(site_id: str | None, label: str | None) -> str:
    if label:
        return label
    return site_id or "local não informado"


def permit_text(ctx: Context, permit: PermitFacts) -> str:
    parts = [ctx.kind_label(permit.permit_kind_id)]
    if permit.number:
        parts.append(f"nº {permit.number}")
    if permit.site_id or permit.site_label:
        parts.append(site_text(permit.site_id, permit.site_label))
    who = RELATION_TEXT.get(permit.relation, permit.relation)
    if permit.relation != "self":
        who = f"{who}{' ' + permit.holder_name if permit.holder_name else ''}"
        return f"{who}: " + ", ".join(parts)
    return ", ".join(parts)
