"""The list the Cobrança screen shows: charges with their holder, status and what is open."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal

from peewee import (
    JOIN,
)

from models.billing.charges.steps import month_bounds
from models.billing.charges.tables import ZERO, Charge, ChargeState
from models.permits import Permit
from models.registry.people import Company, Person


@dataclass(frozen=True)
class ChargeRow:
    id: int
    number: str
    kind: str
    kind_label: str
    regime: str
    permit_number: str
    holder: str
    label: str
    period: str
    amount: Decimal
    paid: Decimal
    due_on: _dt.date
    status: str
    status_label: str
    overdue: bool
    overpaid: bool
    formula: str
    basis: str
    site: str = ""
    section: str = ""
    #: the money of the charge's act, as it writes it (``Cr$`` for an act in cruzeiros): shown so, never converted
    currency: str = "R$"

    @property
    def open_amount(self) -> Decimal:
        return ZERO if self.status == "cancelled" else max(self.amount - self.paid, ZERO)

    @property
    def situation(self) -> str:
        if self.overpaid:
            return "paga a maior"
        if self.overdue:
            return "vencida"
        return self.status_label


def _currency(regime_id: str, known: dict[str, str]) -> str:
    """The money of the act ``regime_id`` (``[regime] currency``), read once per act; R$ for an act no longer known."""
    if regime_id not in known:
        from models.rules.regimes import RegimeError, get_regime

        try:
            known[regime_id] = get_regime(regime_id).currency_on(_dt.date.today())  # reais once a rule converts
        except RegimeError:
            known[regime_id] = "R$"
    return known[regime_id]


def _rows(query, today: _dt.date) -> list[ChargeRow]:
    rows = []
    known: dict[str, str] = {}
    for c in query:
        permit = c.permit if c.permit_id else None
        holder = c.person.name if c.person_id else (c.company.legal_name if c.company_id else "")
        rows.append(
            ChargeRow(
                id=c.id,
                number=c.number,
                kind=c.kind,
                kind_label=c.kind_label,
                regime=c.regime,
                permit_number=permit.number if permit else "",
                holder=holder,
                label=c.label,
                period=c.period,
                amount=c.amount,
                paid=c.paid_total,
                due_on=c.due_on,
                status=c.status,
                status_label=c.status_label,
                overdue=c.status == "open" and c.due_on < today,
                overpaid=c.paid_total > c.amount,
                formula=c.formula,
                basis=c.basis,
                site=permit.site if permit else "",
                section=permit.section if permit else "",
                currency=_currency(c.regime, known),
            )
        )
    return rows


def base_query():
    return (
        Charge.join_state(Charge.select(Charge, ChargeState, Permit, Person, Company))
        .switch(Charge)
        .join(Permit, JOIN.LEFT_OUTER, on=(Charge.permit == Permit.id))
        .switch(Charge)
        .join(Person, JOIN.LEFT_OUTER, on=(Charge.person == Person.id))
        .switch(Charge)
        .join(Company, JOIN.LEFT_OUTER, on=(Charge.company == Company.id))
    )


def in_month(year: int, month: int):
    first, last = month_bounds(year, month)
    return (Charge.due_on >= first) & (Charge.due_on <= last)


def charge_rows(
    *,
    year: int | None = None,
    month: int | None = None,
    status: str | None = None,
    text: str = "",
    regime: str | None = None,
    today: _dt.date | None = None,
    limit: int = 2000,
    regimes: frozenset[str] | None = None,
) -> list[ChargeRow]:
    """Charges due in the month (or all), filtered: ``status`` open/paid/cancelled/overdue; ``text`` matches
    the charge or permit number or the debtor's name (without accents); ``regimes``: only the items of these acts (the
    municipality's own — ``own_scope()``; None: every act)."""
    from models.base.text import search_key

    today = today or _dt.date.today()
    query = base_query()
    if year and month:
        query = query.where(in_month(year, month))
    if status == "overdue":
        query = query.where((ChargeState.status == "open") & (ChargeState.due_on < today))
    elif status:
        query = query.where(ChargeState.status == status)
    if regime:
        query = query.where(Charge.regime == regime)
    if regimes is not None:
        query = query.where(Charge.regime.in_(sorted(regimes)))
    words = search_key(text or "").split()
    for word in words:
        query = query.where(
            Charge.number.contains(word)
            | Permit.number.contains(word)
            | Person.search_name.contains(word)
            | Company.search_name.contains(word)
        )
    return _rows(query.order_by(Charge.due_on, Charge.number).limit(limit), today)


def overdue_count(today: _dt.date | None = None) -> int:
    today = today or _dt.date.today()
    return ChargeState.select().where((ChargeState.status == "open") & (ChargeState.due_on < today)).count()
