"""What the Painel shows today about permits: renewals, start-up deadlines, ends of validity, suspensions."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from peewee import (
    JOIN,
)

from models.permits.renewal import renewal_window
from models.permits.startup import permit_deadlines
from models.permits.steps import date_text, events_by_permit, regime_of
from models.permits.tables import LIVE_STATUSES, Permit
from models.registry.people import Company, Person


@dataclass(frozen=True)
class TodayItem:
    date: _dt.date
    #: renewal-opens | renewal-closes | renewal-decree | startup | use | pickup | expiring | expired | suspension-ends
    kind: str
    text: str
    article: str
    permit_id: int
    number: str
    overdue: bool = False


def _due_horizon(kind, soon_days: int, expiring_days: int) -> int:
    """How many days ahead a permit's last day may be and still give the Painel something today.

    Its end within ``expiring_days``; a renewal window by days closes ``to_days_before`` before the end and opens
    ``from_days_before`` before it; a window that closes on a day of the year closes within the year before the
    end (:func:`renewal_window`)."""
    horizon = expiring_days
    renewal = kind.renewal
    if renewal is not None:
        if renewal.until_month_day:
            horizon = expiring_days + 366
        else:
            if renewal.from_days_before is not None:
                horizon = max(horizon, soon_days + renewal.from_days_before)
            horizon = max(horizon, expiring_days + (renewal.to_days_before or 0))
    return horizon


def _maybe_due(today: _dt.date, soon_days: int, expiring_days: int, regimes: frozenset[str] | None):
    """The permits :func:`today_items` may list: suspended ones, those issued from an application (start-up
    deadlines) and, for each regime and kind, those whose last day falls within its horizon."""
    condition = (Permit.status == "suspended") | (Permit.origin == "application")
    live = Permit.status.in_(LIVE_STATUSES)
    if regimes is not None:
        live &= Permit.regime.in_(sorted(regimes))
        condition &= Permit.regime.in_(sorted(regimes))
    pairs = Permit.select(Permit.regime, Permit.permit_kind).where(live).distinct()
    for pair in pairs:
        regime_id, kind_id = pair.regime, pair.permit_kind
        kind = regime_of(regime_id).permit_kind(kind_id)
        until = today + _dt.timedelta(days=_due_horizon(kind, soon_days, expiring_days))
        condition |= (Permit.regime == regime_id) & (Permit.permit_kind == kind_id) & (Permit.valid_until <= until)
    return condition


def today_items(
    today: _dt.date, *, soon_days: int = 7, expiring_days: int = 30, regimes: frozenset[str] | None = None
) -> list[TodayItem]:
    """What the Painel should show today, each with a pt-BR sentence and the article.

    Renewal windows opening (within ``soon_days``) or closing (within
    ``expiring_days``), start-up, use and pick-up deadlines due within
    ``soon_days`` or past, permits ending within ``expiring_days``, permits past
    their last day not yet marked expired, and suspensions whose term has come. ``regimes``: only the items of these
    acts (the municipality's own — ``own_scope()``; None: every act).
    """
    items: list[TodayItem] = []
    soon = today + _dt.timedelta(days=soon_days)
    later = today + _dt.timedelta(days=expiring_days)
    # permits in force (and those past their end but not yet marked) — only those that can have something due:
    # a town has tens of thousands, the Painel lists a few
    rows = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(Permit.status.in_(LIVE_STATUSES) & _maybe_due(today, soon_days, expiring_days, regimes))
        .order_by(Permit.valid_until, Permit.id)
    )
    live = []
    for permit in rows:
        who = f"Permissão nº {permit.number} ({permit.holder_name})"
        regime = regime_of(permit)
        kind = regime.permit_kind(permit.permit_kind)
        validity_article = regime.cite_item(kind.validity) if kind.validity else ""
        if permit.valid_until < today:
            items.append(
                TodayItem(
                    permit.valid_until,
                    "expired",
                    f"{who}: validade terminou em {date_text(permit.valid_until)}; dar baixa como vencida.",
                    validity_article,
                    permit.id,
                    permit.number,
                    True,
                )
            )
            continue
        live.append(permit)
        if permit.status == "active":
            window = renewal_window(permit)
            renewal = kind.renewal
            if window is None and renewal is not None and renewal.by_decree and permit.valid_until <= later:
                items.append(  # the act leaves the window to a decree: the step that is missing, not a guess
                    TodayItem(
                        today,
                        "renewal-decree",
                        f"{who}: a janela de renovação é fixada por decreto e nenhum foi registrado para as "
                        f"permissões que terminam em {permit.valid_until.year} (Permissões → Renovações e prazos → "
                        "Decreto de renovação…).",
                        regime.cite_item(renewal),
                        permit.id,
                        permit.number,
                    )
                )
            if window is not None and window.closes >= today:
                if window.opens_fixed and today <= window.opens <= soon:
                    when = "hoje" if window.opens == today else f"em {date_text(window.opens)}"
                    items.append(
                        TodayItem(
                            window.opens,
                            "renewal-opens",
                            f"{who}: abre {when} o prazo de renovação (até {date_text(window.closes)}).",
                            window.article,
                            permit.id,
                            permit.number,
                        )
                    )
                if window.opens <= today and window.closes <= later:
                    when = "hoje" if window.closes == today else f"em {date_text(window.closes)}"
                    items.append(
                        TodayItem(
                            window.closes,
                            "renewal-closes",
                            f"{who}: o prazo para pedir a renovação termina {when} "
                            f"(validade até {date_text(permit.valid_until)}).",
                            window.article,
                            permit.id,
                            permit.number,
                        )
                    )
        if permit.valid_until <= later:
            when = "hoje" if permit.valid_until == today else f"em {date_text(permit.valid_until)}"
            items.append(
                TodayItem(
                    permit.valid_until,
                    "expiring",
                    f"{who}: validade termina {when}.",
                    validity_article,
                    permit.id,
                    permit.number,
                )
            )
    # suspensions whose term has come
    suspended = [p for p in live if p.status == "suspended"]
    if suspended:
        events = events_by_permit([p.id for p in suspended], ("suspended",))
        for permit in suspended:
            history = events.get(permit.id)
            last = history[-1] if history else None
            if last is not None and last.end is not None and last.end <= soon:
                if last.end < today:
                    what = f"suspensão terminou em {date_text(last.end)}; reativar"
                else:
                    what = f"suspensão termina {'hoje' if last.end == today else 'em ' + date_text(last.end)}"
                items.append(
                    TodayItem(
                        last.end,
                        "suspension-ends",
                        f"Permissão nº {permit.number} ({permit.holder_name}): {what}.",
                        "",
                        permit.id,
                        permit.number,
                        last.end < today,
                    )
                )
    # start-up, use and pick-up deadlines
    applied = [p for p in live if p.origin == "application"]
    events = events_by_permit([p.id for p in applied], ("started", "picked-up", "startup-extended"))
    for permit in applied:
        for deadline in permit_deadlines(permit, events.get(permit.id, []), today):
            if deadline.due <= soon:
                items.append(
                    TodayItem(
                        deadline.due,
                        deadline.kind,
                        deadline.text,
                        deadline.article,
                        permit.id,
                        permit.number,
                        deadline.overdue,
                    )
                )
    order = {
        "expired": 0,
        "suspension-ends": 1,
        "startup": 2,
        "use": 3,
        "pickup": 4,
        "renewal-closes": 5,
        "renewal-opens": 6,
        "expiring": 7,
    }
    items.sort(key=lambda i: (i.date, order.get(i.kind, 9), i.number))
    return items
