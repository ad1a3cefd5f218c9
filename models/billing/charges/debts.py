"""Debts and delinquency: overdue charges and unpaid fines for the eligibility engine; the permits whose monthly
fees are in arrears, for the chief to decide.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from peewee import (
    JOIN,
    fn,
)

from models.base.errors import UserError
from models.base.money import format_brl
from models.billing.charges.tables import ZERO, Charge, ChargeState
from models.permits import LIVE_STATUSES, Permit
from models.registry.people import Company, Person
from models.rules.eligibility import DebtFacts
from models.store.db import db


def debts_of(kind: str, holder_id: int, *, today: _dt.date) -> tuple[DebtFacts, ...]:
    """Debts of a person or company, for the eligibility rules: open charges past their due date, and every
    unpaid fine, due or not (São Bento, Dec. 4.794/2026, art. 2º, § 2º: no participation until it is paid)."""
    column = Charge.person if kind == "person" else Charge.company
    rows = (
        Charge.with_state()
        .where(
            (column == holder_id)
            & ChargeState.status.in_(("open", "inscribed"))  # a debt inscribed in dívida ativa is still a debt
            & ((Charge.due_on < today) | (Charge.kind == "fine"))
        )
        .order_by(Charge.due_on)
    )
    grouped: dict[str, list[Charge]] = defaultdict(list)
    for charge in rows:
        grouped["fine" if charge.kind == "fine" else "charge"].append(charge)
    facts = []
    for what, charges in grouped.items():
        amount = sum((c.open_amount for c in charges), ZERO)
        numbers = ", ".join(c.number for c in charges[:5]) + ("…" if len(charges) > 5 else "")
        noun = "multa" if what == "fine" else "cobrança"
        s = "s" if len(charges) > 1 else ""
        state = f"não paga{s}" if what == "fine" else f"vencida{s} e não paga{s}"
        description = f"{len(charges)} {noun}{s} {state} (nº {numbers})"
        facts.append(DebtFacts(description=description, amount=amount, count=len(charges), kind=what))
    return tuple(facts)


@dataclass(frozen=True)
class Candidate:
    """A permit with the act's number of consecutive months unpaid: for the chief to decide."""

    permit_id: int
    permit_number: str
    holder: str
    regime: str
    months: tuple[str, ...]  # the consecutive periods unpaid (AAAA-MM)
    amount: Decimal
    basis: str
    text: str


def _consecutive(periods: list[str]) -> list[str]:
    """The longest run of consecutive months in ``periods`` (sorted AAAA-MM)."""
    best: list[str] = []
    run: list[str] = []
    previous = None
    for p in periods:
        y, m = int(p[:4]), int(p[5:])
        index = y * 12 + m
        run = [*run, p] if previous is not None and index == previous + 1 else [p]
        previous = index
        if len(run) > len(best):
            best = run
    return best


def revocation_candidates(*, today: _dt.date, regimes: frozenset[str] | None = None) -> list[Candidate]:
    """Permits in force with ``arrears.months`` months unpaid (consecutive where the act says so); ``regimes``: only the
    items of these acts (the municipality's own — ``own_scope()``; None: every act).

    The open monthly charges are read as plain rows (a town has tens of thousands); the permit's number and its
    holder are read for the candidates only."""
    from models.base.money import from_centavos
    from models.rules.regimes import get_regime, shipped_regimes

    unpaid_monthly = (
        (Charge.kind == "monthly")
        & (ChargeState.status == "open")
        & (ChargeState.due_on < today)
        & Permit.status.in_(LIVE_STATUSES)
    )
    if regimes is not None:
        unpaid_monthly &= Permit.regime.in_(sorted(regimes))
    # only permits with as many unpaid months as the least any act asks for can be candidates
    try:
        fewest = min(
            (
                fee.arrears.months
                for regime in shipped_regimes().values()
                for fee in regime.fees
                if fee.arrears is not None
            ),
            default=None,
        )
    except UserError:  # a regime file that does not load: every permit is looked at, as before
        fewest = 1
    if fewest is None:
        return []
    behind = (
        Charge.select(Charge.permit)
        .join(ChargeState, on=(ChargeState.charge == Charge.id))
        .join(Permit, on=(Charge.permit == Permit.id))
        .where(unpaid_monthly)
        .group_by(Charge.permit, Charge.fee)
        .having(fn.COUNT(Charge.period.distinct()) >= fewest)
    )
    rows = db.execute(
        Charge.select(Charge.permit, Permit.regime, Charge.fee, Charge.period, Charge.amount, ChargeState.paid_total)
        .join(ChargeState, on=(ChargeState.charge == Charge.id))
        .join(Permit, on=(Charge.permit == Permit.id))
        .where(unpaid_monthly & Charge.permit.in_(behind))
        .order_by(Charge.period)
    ).fetchall()
    regime_of: dict[int, str] = {}
    unpaid: dict[tuple[int, str], list[tuple[str, int]]] = defaultdict(list)  # (permit, fee) → (period, open ¢)
    for permit_id, regime_id, fee_id, period, amount, paid in rows:
        regime_of[permit_id] = regime_id
        unpaid[(permit_id, fee_id)].append((period, max(int(amount) - int(paid or 0), 0)))
    regimes: dict[str, object] = {}
    due = []
    for (permit_id, fee_id), items in unpaid.items():
        regime_id = regime_of[permit_id]
        if regime_id not in regimes:
            try:
                regimes[regime_id] = get_regime(regime_id)
            except UserError:
                regimes[regime_id] = None
        regime = regimes[regime_id]
        if regime is None:
            continue
        try:
            arrears = regime.fee(fee_id).arrears
        except UserError:
            continue
        if arrears is None:
            continue
        periods = sorted({period for period, _ in items if period})
        run = _consecutive(periods) if arrears.consecutive else periods
        if len(run) < arrears.months:
            continue
        due.append((permit_id, regime, arrears, run, from_centavos(sum(c for period, c in items if period in run))))
    holders: dict[int, tuple[str, str]] = {}
    ids = sorted({permit_id for permit_id, *_ in due})
    for start in range(0, len(ids), 5000):
        for permit_id, number, person_name, company_name in (
            Permit.select(Permit.id, Permit.number, Person.name, Company.legal_name)
            .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
            .switch(Permit)
            .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
            .where(Permit.id.in_(ids[start : start + 5000]))
            .tuples()
        ):
            holders[permit_id] = (number, person_name if person_name is not None else company_name)
    found = []
    for permit_id, regime, arrears, run, amount in due:
        number, holder = holders[permit_id]
        basis = regime.cite_item(arrears)
        months = ", ".join(f"{p[5:]}/{p[:4]}" for p in run)
        found.append(
            Candidate(
                permit_id=permit_id,
                permit_number=number,
                holder=holder,
                regime=regime.id,
                months=tuple(run),
                amount=amount,
                basis=basis,
                text=f"{len(run)} meses {'consecutivos ' if arrears.consecutive else ''}sem pagamento ({months}; "
                f"{format_brl(amount)}): o ato prevê a cassação ({basis}) — decisão da chefia.",
            )
        )
    return sorted(found, key=lambda c: c.permit_number)
