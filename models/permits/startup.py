"""Start-up, use and pick-up deadlines counted from a permit's issue, and the facts that close them."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.permits.steps import (
    claim,
    date_text,
    events_by_permit,
    live_permits,
    record_event,
    regime_of,
    required_reason,
)
from models.permits.tables import EVENT_KINDS, LIVE_STATUSES, Permit, PermitEvent
from models.rules.deadlines import compute_deadline
from models.store.db import db

# deadlines of [[deadlines]] that count from the issue of a permit
ISSUE_EVENTS = ("issue", "permit-grant", "approval-notice")


@dataclass(frozen=True)
class StartupDeadline:
    permit_id: int
    number: str
    holder: str
    kind: str  # "startup" | "use" | "pickup"
    label: str
    due: _dt.date
    article: str
    overdue: bool
    extendable: bool
    text: str


#: the permit deadlines the desk follows, by their declared role: (the fact that closes them, the row's kind)
PERMIT_ROLES = {"startup": ("started", "startup"), "use": ("started", "use"), "pickup": ("picked-up", "pickup")}


def permit_deadlines(permit: Permit, events: list[PermitEvent], today: _dt.date) -> list[StartupDeadline]:
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    done = {e.kind for e in events}
    out: list[StartupDeadline] = []
    start = permit.issued_on

    def add(key: str, label: str, due: _dt.date, article: str, extendable: bool) -> None:
        overdue = due < today
        verb = "venceu em" if overdue else "vence em"
        out.append(
            StartupDeadline(
                permit.id,
                permit.number,
                permit.holder_name,
                key,
                label,
                due,
                article,
                overdue,
                extendable,
                f"Permissão nº {permit.number} ({permit.holder_name}): {label} — prazo {verb} {date_text(due)}.",
            )
        )

    startup = kind.startup
    if startup is not None and "started" not in done:
        extended = [e for e in events if e.kind == "startup-extended"]
        due = start + _dt.timedelta(days=startup.days)
        if extended and extended[-1].end:
            due = extended[-1].end
        add(
            "startup",
            "início das atividades",
            due,
            regime.cite_item(startup),
            bool(startup.extendable_once and not extended),
        )
    for deadline in regime.deadlines:
        if (
            deadline.role not in PERMIT_ROLES
            or deadline.from_ not in ISSUE_EVENTS
            or deadline.direction != "after"
            or not deadline.days
        ):
            continue
        if startup is not None and deadline.days == startup.days and deadline.basis == startup.basis:
            continue  # the same deadline as the kind's start-up
        closing, key = PERMIT_ROLES[deadline.role]
        if closing in done:
            continue
        counted = compute_deadline(regime, deadline.id, start)  # the legal calendar included
        label = deadline.label[:1].lower() + deadline.label[1:]
        add(key, label, counted.due_date, counted.basis, False)
    return out


def startup_deadlines(today: _dt.date) -> list[StartupDeadline]:
    """Open start-up, use and pick-up deadlines of the permits issued from an application, soonest first."""
    permits = list(live_permits(today).where(Permit.origin == "application"))
    events = events_by_permit([p.id for p in permits], ("started", "picked-up", "startup-extended"))
    items = [d for p in permits for d in permit_deadlines(p, events.get(p.id, []), today)]
    items.sort(key=lambda d: (d.due, d.number, d.kind))
    return items


def record_started(permit: Permit, *, by: str, on: _dt.date, reason: str = "") -> PermitEvent:
    """The holder started the activity (closes the start-up and use deadlines)."""
    require("permits.lifecycle")
    return _record_fact(permit, "started", by=by, on=on, reason=reason or "início das atividades verificado")


def record_picked_up(permit: Permit, *, by: str, on: _dt.date, reason: str = "") -> PermitEvent:
    """The holder picked up the permit (closes the pick-up deadlines)."""
    require("permits.lifecycle")
    return _record_fact(permit, "picked-up", by=by, on=on, reason=reason or "alvará retirado pelo titular")


def _record_fact(permit: Permit, kind: str, *, by: str, on: _dt.date, reason: str) -> PermitEvent:
    by = acting(by)
    if permit.status not in LIVE_STATUSES:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}.")
    if on < permit.issued_on:
        raise FieldErrors({"on": f"Data anterior à emissão ({date_text(permit.issued_on)})."})
    if PermitEvent.select().where((PermitEvent.permit == permit.id) & (PermitEvent.kind == kind)).exists():
        raise UserError(f"Já registrado para a permissão nº {permit.number}: {EVENT_KINDS[kind]}.")
    with db.atomic():
        claim(permit, LIVE_STATUSES)
        if PermitEvent.select().where((PermitEvent.permit == permit.id) & (PermitEvent.kind == kind)).exists():
            raise UserError(f"Já registrado para a permissão nº {permit.number}: {EVENT_KINDS[kind]}.")
        return record_event(permit, kind, by=by, on=on, reason=reason)


def extend_startup(permit: Permit, *, by: str, reason: str, today: _dt.date) -> _dt.date:
    """Extend the start-up deadline once by the same period, where the act allows it (LC 324/2025, art. 176)."""
    require("permits.lifecycle")
    by, reason = acting(by), required_reason(reason, "prorrogação justificada")
    regime = regime_of(permit)
    startup = regime.permit_kind(permit.permit_kind).startup
    if startup is None or not startup.extendable_once:
        raise UserError(f"O ato ({regime.short}) não prevê prorrogação do prazo de início para esta permissão.")
    events = events_by_permit([permit.id], ("started", "startup-extended")).get(permit.id, [])
    if any(e.kind == "startup-extended" for e in events):
        raise UserError(
            f"O prazo de início da permissão nº {permit.number} já foi prorrogado uma vez "
            f"({regime.cite_item(startup)}: uma única vez)."
        )
    if any(e.kind == "started" for e in events):
        raise UserError(f"A permissão nº {permit.number} já iniciou as atividades.")
    due = permit.issued_on + _dt.timedelta(days=startup.days)
    if today > due:
        raise UserError(f"O prazo de início venceu em {date_text(due)}; não pode mais ser prorrogado.")
    new_due = due + _dt.timedelta(days=startup.days)
    with db.atomic():
        claim(permit, LIVE_STATUSES)  # a second desk extending at the same time loses here
        record_event(
            permit,
            "startup-extended",
            by=by,
            on=today,
            reason=reason,
            start=due,
            end=new_due,
            data={"article": regime.cite_item(startup)},
        )
    return new_due
