"""Reading records: rows for the lists, a record's files, charges, items, contests, events and deadlines."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from models.base.errors import UserError
from models.base.text import search_key
from models.billing.charges import Charge
from models.enforcement.deadline_roles import ROLES, recount
from models.enforcement.decisions import fines_decided
from models.enforcement.tables import (
    KIND_SHORT,
    ZERO,
    Contest,
    Record,
    RecordCharge,
    RecordEvent,
    RecordFile,
    SeizedItem,
)
from models.rules import describe


def get_record(record_id: int) -> Record:
    record = Record.get_or_none(Record.id == record_id)
    if record is None:
        raise UserError(f"Auto {record_id} não encontrado.")
    return record


def files_of(record: Record) -> list[RecordFile]:
    return list(RecordFile.select().where(RecordFile.record == record.id).order_by(RecordFile.id))


def items_of(record: Record) -> list[SeizedItem]:
    return list(SeizedItem.select().where(SeizedItem.record == record.id).order_by(SeizedItem.id))


def contests_of(record: Record) -> list[Contest]:
    return list(Contest.select().where(Contest.record == record.id).order_by(Contest.filed_on, Contest.id))


def events_of(record: Record) -> list[RecordEvent]:
    return list(RecordEvent.select().where(RecordEvent.record == record.id).order_by(RecordEvent.at, RecordEvent.id))


def charges_of(record: Record, role: str | None = None) -> list[Charge]:
    query = (
        Charge.with_state()  # their status and paid total read with them (the screens show them)
        .join(RecordCharge, on=(RecordCharge.charge == Charge.id))
        .where(RecordCharge.record == record.id)
    )
    if role:
        query = query.where(RecordCharge.role == role)
    return list(query.order_by(Charge.id))


def current_fine(record: Record) -> Decimal:
    """The fine as it stands after the decisions: charged at issue, reduced or annulled by a decision."""
    if record.status == "annulled":
        return ZERO
    amount = record.fine_total + fines_decided(record)
    for c in contests_of(record):
        if c.outcome == "annulled":
            return ZERO
        if c.outcome == "partly" and c.new_amount is not None:
            amount = c.new_amount
    return amount


def fine_status(record: Record) -> str:
    fines = [c for c in charges_of(record, "fine") if c.status != "cancelled"]
    if not fines:
        if record.fine_total > 0 and not record.identified:
            return "a lançar (infrator não identificado)"
        return "—"
    if all(c.status == "paid" for c in fines):
        return "paga"
    return "em aberto"


def situation(record: Record) -> str:
    """The record's state in words: corrected by…, annulled, under defence or appeal, final decision…"""
    if record.status == "corrected":
        follower = (
            Record.select()
            .where((Record.refers_to == record.id) & Record.relation.in_(("correction", "identification")))
            .first()
        )
        return f"corrigido pelo {follower.reference}" if follower else "corrigido"
    if record.status == "annulled":
        return "anulado"
    contests = contests_of(record)
    pending = [c for c in contests if c.pending]
    if pending:
        c = pending[-1]
        return f"{c.kind_label.lower()} em julgamento" + (" (efeito suspensivo)" if c.suspensive else "")
    paid = " — multa paga" if fine_status(record) == "paga" else ""
    final = [c for c in contests if c.final]
    if final:
        return f"decisão final: {final[-1].outcome_label}{paid}"
    if contests:
        return f"{contests[-1].kind_label.lower()} julgada: {contests[-1].outcome_label}{paid}"
    return f"lavrado{paid}"


@dataclass(frozen=True)
class RecordRow:
    id: int
    number: str
    reference: str
    kind: str
    kind_label: str
    regime: str
    at: _dt.datetime
    offender: str
    identified: bool
    place: str
    infractions: str
    fine: Decimal
    status: str
    situation: str
    inspector: str


def record_rows(
    *,
    text: str = "",
    kind: str | None = None,
    status: str | None = None,
    regime: str | None = None,
    limit: int = 1000,
    regimes: frozenset[str] | None = None,
) -> list[RecordRow]:
    """Records, newest first, filtered by kind, status (issued/corrected/annulled, ``contested``: a defence or
    appeal pending) and words of the number, offender or place; ``regimes``: only the items of these acts (the
    municipality's own — ``own_scope()``; None: every act)."""
    query = Record.select()
    if kind:
        query = query.where(Record.kind == kind)
    if status == "contested":
        pending = Contest.select(Contest.record).where(Contest.outcome == "")
        query = query.where(Record.id.in_(pending))
    elif status:
        query = query.where(Record.status == status)
    if regime:
        query = query.where(Record.regime == regime)
    if regimes is not None:
        query = query.where(Record.regime.in_(sorted(regimes)))
    for word in search_key(text or "").split():
        query = query.where(Record.search_text.contains(word) | Record.number.contains(word))
    rows = []
    for r in query.order_by(Record.at.desc(), Record.id.desc()).limit(limit):
        rows.append(
            RecordRow(
                id=r.id,
                number=r.number,
                reference=r.reference,
                kind=r.kind,
                kind_label=KIND_SHORT.get(r.kind, r.kind),
                regime=r.regime,
                at=r.at,
                offender=r.offender_name + ("" if r.identified else " (não identificado)"),
                identified=r.identified,
                place=r.place,
                infractions=", ".join(r.codes),
                fine=current_fine(r),
                status=r.status,
                situation=situation(r),
                inspector=r.inspector,
            )
        )
    return rows


@dataclass(frozen=True)
class DeadlineRow:
    role: str
    role_label: str
    label: str
    start: str
    due: str
    due_date: _dt.date
    due_text: str
    formula: str
    basis: str
    state: str
    overdue: bool
    #: where it ended when the record was issued, when the town's calendar moved it since (pt-BR), else ""
    moved: str = ""
    #: an hour count ending while the office is closed: the readings handed to the authority (pt-BR)
    readings: tuple[str, ...] = ()


def moved_text(d: Mapping) -> str:
    """``"antes: até 23/03/2026 — movido por 23/03/2026 São José (feriado municipal, Lei nº 10/1990)"``."""
    if not d.get("moved_from"):
        return ""
    why = "; ".join(f"{_dt.date.fromisoformat(h['date']):%d/%m/%Y} {h['name']}" for h in d.get("moved_by") or [])
    return f"antes: {d['moved_from']}" + (f" — movido por {why}" if why else "")


def _row(d: Mapping, today: _dt.date, state: str | None = None) -> DeadlineRow:
    due_date = _dt.date.fromisoformat(d["due_date"])
    if state is None:
        state = (
            "encerrado"
            if due_date < today
            else ("vence hoje" if due_date == today else f"faltam {describe.days((due_date - today).days)}")
        )
    return DeadlineRow(
        role=d.get("role", ""),
        role_label=d.get("role_label", ROLES.get(d.get("role", ""), "")),
        label=d["label"],
        start=d["start"],
        due=d["due"],
        due_date=due_date,
        due_text=d["due_text"],
        formula=d["formula"],
        basis=d["basis"],
        state=state,
        overdue=due_date < today,
        moved=moved_text(d),
        readings=tuple(d.get("readings") or ()),
    )


def deadline_rows(record: Record, today: _dt.date) -> list[DeadlineRow]:
    """The record's deadlines as issued, then those the defence and appeal started, each with its state."""
    rows = []
    contests = contests_of(record)
    for d in record.deadline_data:
        state = None
        if d.get("role") == "defence" and any(c.kind == "defence" for c in contests):
            state = "defesa apresentada"
        elif d.get("role") == "appeal" and any(c.kind == "appeal" for c in contests):
            state = "recurso interposto"
        elif d.get("role") == "payment" and fine_status(record) == "paga":
            state = "multa paga"
        if record.status == "corrected":
            state = "substituído (auto corrigido)"
        rows.append(_row(d, today, state))
    for c in contests:
        if c.decision_deadline:
            d = recount(record, json.loads(c.decision_deadline))
            rows.append(_row(d, today, "julgado" if c.outcome else None))
        for d in (recount(record, x) for x in json.loads(c.after or "[]")):
            state = None
            if d.get("role") == "appeal" and any(
                x.kind == "appeal" and x.filed_on >= c.filed_on for x in contests if x.id != c.id
            ):
                state = "recurso interposto"
            rows.append(_row(d, today, state))
    return rows


@dataclass(frozen=True)
class MovedDeadline:
    """A running deadline of an issued record that the town's calendar moved since the record was issued."""

    record_id: int
    reference: str
    regime: str
    label: str
    before: str  # pt-BR: where it ended when issued
    now: str  # pt-BR: where it ends now
    moved: str  # pt-BR: before, and the closed days that moved it


def moved_deadlines(today: _dt.date, *, municipality: str | None = None) -> list[MovedDeadline]:
    """Every deadline still running (it ended, as issued or as counted now, today or later) of an issued record
    whose end the town's calendar moved — what the desk shows after a holiday is entered or removed
    (issue 28 §1). ``municipality``: only the records of that town's acts."""
    from models.rules.regimes import get_regime

    found = []
    query = Record.select().where(Record.status == "issued").order_by(Record.id)
    for record in query:
        if municipality is not None:
            try:
                town = get_regime(record.regime, on=record.at.date()).municipality
            except UserError:
                continue
            if " ".join(town.casefold().split()) != " ".join(municipality.casefold().split()):
                continue
        for d in record.deadline_data:
            if not d.get("moved_from"):
                continue
            latest = max(_dt.date.fromisoformat(d["due_date"]), _dt.date.fromisoformat(d["moved_from_date"]))
            if latest < today:
                continue
            found.append(
                MovedDeadline(
                    record_id=record.id,
                    reference=record.reference,
                    regime=record.regime,
                    label=d["label"],
                    before=d["moved_from"],
                    now=d["due_text"],
                    moved=moved_text(d),
                )
            )
    return found
