"""Chains of records (corrections, identifications, follow-ups) and the offender's earlier offences."""

from __future__ import annotations

import datetime as _dt

from models.enforcement.sanctions import (
    PriorOffence,
)
from models.enforcement.tables import Contest, Record, day_text
from models.rules.regimes import Regime


def _root(record: Record) -> Record:
    seen = set()
    while record.refers_to_id and record.id not in seen:
        seen.add(record.id)
        record = Record.get_by_id(record.refers_to_id)
    return record


def chain_of(record: Record) -> list[Record]:
    """Every record of the same occurrence (the notice, its infraction record, seizure, corrections), by date."""
    root = _root(record)
    found = {root.id: root}
    frontier = [root.id]
    while frontier:
        followers = list(Record.select().where(Record.refers_to.in_(frontier)))
        frontier = [r.id for r in followers if r.id not in found]
        for r in followers:
            found[r.id] = r
    return sorted(found.values(), key=lambda r: (r.issued_at, r.id))


def prior_offences(
    regime: Regime,
    *,
    person_id: int | None,
    company_id: int | None,
    before: _dt.datetime,
    exclude: Record | None = None,
) -> tuple[list[PriorOffence], list[str]]:
    """The offender's earlier occurrences in this regime, one per nature and occurrence, and their references.

    An occurrence is a chain of records (notice → infraction record → seizure,
    corrections); it counts once, on the day of its first record. Annulled
    chains do not count; neither does the chain of ``exclude`` (the record
    being corrected or followed). An occurrence with a defence or an appeal not yet decided is ``pending``:
    whether it counts is the act's silent point ``recurrence-pending`` (``[[silences]]``), not decided here.
    """
    if not person_id and not company_id:
        return [], []
    owner = (Record.person == person_id) if person_id else (Record.company == company_id)
    rows = list(
        Record.select()
        .where(owner & (Record.regime == regime.id) & (Record.at < before) & (Record.status == "issued"))
        .order_by(Record.at)
    )
    if not rows:
        return [], []
    excluded = _root(exclude).id if exclude is not None else None
    by_root: dict[int, tuple[Record, list[Record]]] = {}
    for row in rows:
        root = _root(row)
        if root.id == excluded:
            continue
        by_root.setdefault(root.id, (root, []))[1].append(row)
    priors: list[PriorOffence] = []
    refs: list[str] = []
    for root, members in by_root.values():
        chain = chain_of(root)
        if any(r.status == "annulled" for r in chain):
            continue
        undecided = Contest.select().where(Contest.record.in_([r.id for r in chain]) & (Contest.outcome == ""))
        pending = undecided.exists()
        natures: dict[str, str] = {}
        for member in members:
            for code in member.codes:
                if code not in regime.ids("infraction"):
                    continue
                infraction = regime.infraction(code)
                natures.setdefault(infraction.nature or code, code)
        if not natures:
            continue
        on = root.at.date()
        priors.extend(PriorOffence(code, on, pending=pending) for code in natures.values())
        refs.append(f"{members[-1].reference} de {day_text(on)}" + (" (sob defesa ou recurso)" if pending else ""))
    return priors, refs
