"""Unpaid fines past their deadline, listed for inscription in dívida ativa (Olímpia art. 11, § 1º)."""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from decimal import Decimal

from models.billing.charges import Charge, ChargeState
from models.enforcement.reading import contests_of
from models.enforcement.tables import Record, RecordCharge


@dataclass(frozen=True)
class DebtRow:
    record_id: int
    reference: str
    charge_id: int
    charge_number: str
    offender: str
    document: str
    regime: str
    amount: Decimal
    due_on: _dt.date
    days_late: int
    basis: str


def debt_register(today: _dt.date, *, regimes: frozenset[str] | None = None) -> list[DebtRow]:
    """Unpaid fines past their deadline, for inscription in the municipal debt register (dívida ativa;
    LC 324/2025, art. 11, § 1º). A fine under a defence or appeal with suspensive effect waits for the decision.
    ``regimes``: only the items of these acts (the municipality's own — ``own_scope()``; None: every act)."""
    links = (
        Charge.join_state(
            RecordCharge.select(RecordCharge, Charge, ChargeState, Record).join(
                Charge, on=(RecordCharge.charge == Charge.id)
            )
        )
        .switch(RecordCharge)
        .join(Record, on=(RecordCharge.record == Record.id))
        .where((RecordCharge.role == "fine") & (ChargeState.status == "open") & (Record.status == "issued"))
    )
    if regimes is not None:
        links = links.where(Record.regime.in_(sorted(regimes)))
    rows = []
    seen = set()
    for link in links:
        charge, record = link.charge, link.record
        if charge.id in seen:
            continue
        seen.add(charge.id)
        contests = contests_of(record)
        if any(c.pending and c.suspensive for c in contests):
            continue
        due = charge.due_on
        for c in contests:
            for d in json.loads(c.after or "[]"):
                if d.get("role") in ("payment-after-decision", "appeal"):
                    due = max(due, _dt.date.fromisoformat(d["due_date"]))
        for d in record.deadline_data:
            if d.get("role") in ("defence", "appeal") and not contests:
                due = max(due, _dt.date.fromisoformat(d["due_date"]))
        if due >= today:
            continue
        payment = next((d for d in record.deadline_data if d.get("role") == "payment"), None)
        rows.append(
            DebtRow(
                record_id=record.id,
                reference=record.reference,
                charge_id=charge.id,
                charge_number=charge.number,
                offender=record.offender_name,
                document=record.offender_document,
                regime=record.regime,
                amount=charge.open_amount,
                due_on=due,
                days_late=(today - due).days,
                basis=payment["basis"] if payment else charge.basis,
            )
        )
    return sorted(rows, key=lambda r: (r.due_on, r.reference))
