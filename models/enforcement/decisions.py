"""Decisions after the record: sanctions the authority imposes or omits later, and the effect on the permit."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
from decimal import Decimal

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.billing.charges import create_charge
from models.enforcement.deadline_roles import START_EVENTS, pick_deadline, role_candidates
from models.enforcement.drafts import AdjustInput
from models.enforcement.proposal import apply_adjustment
from models.enforcement.sanctions import (
    PROPOSED,
    Proposal,
)
from models.enforcement.tables import (
    ZERO,
    Record,
    RecordCharge,
    RecordEvent,
    acting_user,
    claim_record,
    day_text,
    fine_label,
    record_event,
)
from models.permits import LIVE_STATUSES, Permit
from models.rules import describe
from models.rules.deadlines import compute_deadline
from models.rules.regimes import act_money, get_regime
from models.store.db import db


def decisions_of(record: Record) -> list[RecordEvent]:
    """The authority's decisions on the record's sanctions after it was issued, in order."""
    return list(
        RecordEvent.select()
        .where((RecordEvent.record == record.id) & (RecordEvent.kind == "sanction-decision"))
        .order_by(RecordEvent.id)
    )


def current_proposal(record: Record) -> Proposal:
    """The record's proposal as issued, with every later decision of the authority (facts, imposed, omitted)."""
    proposal = Proposal.from_dict(record.proposal_data)
    for event in decisions_of(record):
        proposal = apply_adjustment(proposal, AdjustInput.from_dict(json.loads(event.data)["adjustment"]))
    return proposal


def current_sanctions(record: Record) -> list[dict]:
    """Every sanction of the record as it stands now (``ProposedSanction.to_dict``), decisions included."""
    return [s.to_dict() for s in current_proposal(record).sanctions]


def decide_sanctions(
    record: Record,
    item: AdjustInput,
    *,
    by: str,
    today: _dt.date,
    notified_on: _dt.date | None = None,
    payment_due: _dt.date | None = None,
) -> RecordEvent:
    """The authority decides on a sanction the record proposed: records the fact a condition waits for (the day
    it was verified, who verified it), imposes or omits what the act leaves to it, grades within the limits —
    always with the written reason. The record is not edited: the decision is a new event on it, and a fine
    imposed now becomes a charge, due at the act's payment deadline counted from ``notified_on`` (the
    offender's notification of the decision; default ``today``) or on ``payment_due`` where the act sets none.
    """
    only_facts = bool(item.facts) and not (item.apply or item.omit or item.amounts or item.days)
    require("enforcement.record" if only_facts else "enforcement.decide")
    by = acting_user(by)
    if record.kind == "notice":
        raise UserError("A notificação não impõe pena: a decisão é no auto de infração lavrado depois dela.")
    if record.status != "issued":
        raise UserError(
            f"O {record.reference} está {record.status_label}: decida no auto que o substituiu."
            if record.status == "corrected"
            else f"O {record.reference} está {record.status_label}."
        )
    for number, fact in item.facts.items():
        if fact.on > today:
            raise FieldErrors(
                {
                    "fact": f"Fato da sanção nº {number}: a data em que foi verificado ({day_text(fact.on)}) "
                    "está no futuro."
                }
            )
    regime = get_regime(record.regime, on=record.at.date())
    with db.atomic():
        record = Record.get_by_id(record.id)
        before = current_proposal(record)
        after = apply_adjustment(before, dataclasses.replace(item, by=item.by or by))
        was = {s.number: s for s in before.sanctions}
        new_fines = [s for s in after.sanctions if s.kind == "fine" and s.applied and not was[s.number].applied]
        pending = [s for s in new_fines if s.amount is None]
        if pending:
            raise FieldErrors(
                {"amount": f"Sanção nº {pending[0].number}: {pending[0].pending} — gradue o valor na mesma decisão."}
            )
        amounts = {s.number: s.amount for s in new_fines if s.amount is not None}  # every one graded (above)
        added = sum(amounts.values(), ZERO)
        charge = None
        if added > 0 and record.identified:
            notified = notified_on or today
            payment = [d for d in role_candidates(regime, "payment", {"fine"}) if d.from_ in START_EVENTS]
            picked = pick_deadline(payment, record.scope)
            due = payment_due
            basis = "; ".join(dict.fromkeys(s.basis for s in new_fines))
            if picked:
                counted = compute_deadline(regime, picked[0].id, notified)
                due = counted.due_date
                basis += f"; vencimento: {counted.basis}"
            if due is None:
                raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
            formula = " + ".join(s.formula or act_money(amounts[s.number], record.regime) for s in new_fines)
            if len(new_fines) > 1:
                formula += f" = {act_money(added, record.regime)}"
            permit = Permit.get_or_none(Permit.id == record.permit_id) if record.permit_id else None
            charge = create_charge(
                kind="fine",
                regime=record.regime,
                label=fine_label(record),
                amount=added,
                due_on=due,
                basis=basis,
                formula=formula,
                by=by,
                permit=permit
                if permit is not None
                and permit.person_id == record.person_id
                and permit.company_id == record.company_id
                else None,
                person_id=record.person_id,
                company_id=record.company_id,
                source=record.reference,
                today=today,
            )
            RecordCharge.create(record=record.id, charge=charge.id, role="fine")
        claim_record(record)
        words = "; ".join(
            f"nº {a.number}: {a.before} → {a.after}" for a in after.adjustments[len(before.adjustments) :]
        )
        event = RecordEvent.create(
            record=record.id,
            on=today,
            by=by,
            kind="sanction-decision",
            text=f"Decisão sobre as sanções — {words} — motivo: {item.reason.strip()}"
            + (f" — multa de {act_money(added, record.regime)} lançada" if charge is not None else ""),
            data=json.dumps(
                {
                    "adjustment": dataclasses.replace(item, by=item.by or by).to_dict(),
                    "fine": str(added),
                    "charge": charge.id if charge is not None else None,
                },
                ensure_ascii=False,
            ),
        )
    return event


def fines_decided(record: Record) -> Decimal:
    """The fines the authority imposed after the record was issued."""
    return sum((Decimal(json.loads(e.data).get("fine") or "0") for e in decisions_of(record)), ZERO)


def charged_fines_total(record: Record) -> Decimal:
    """The fines charged for the record: at issue and by the authority's later decisions."""
    return record.fine_total + fines_decided(record)


def apply_to_permit(record: Record, *, by: str, today: _dt.date) -> Permit:
    """Suspend or revoke the record's permit as the sanction says (through ``models.permits``)."""
    from models.permits import revoke, suspend

    require("permits.sanction")
    by = acting_user(by)
    if not record.permit_id:
        raise UserError(f"O {record.reference} não indica permissão.")
    if record.status != "issued":
        raise UserError(f"O {record.reference} está {record.status_label}.")
    done = (
        RecordEvent.select()
        .where((RecordEvent.record == record.id) & RecordEvent.kind.in_(("permit-suspended", "permit-revoked")))
        .first()
    )
    if done is not None:
        raise UserError(f"A sanção do {record.reference} já foi aplicada à permissão em {day_text(done.on)}.")
    current = current_sanctions(record)
    sanctions = [s for s in current if s["applied"] and s["kind"] in ("suspension", "revocation")]
    if not sanctions:
        waiting = [s for s in current if s["decision"] == PROPOSED and s["kind"] in ("suspension", "revocation")]
        if waiting:
            raise UserError(
                f"A sanção nº {waiting[0]['number']} ({waiting[0]['label']}) do {record.reference} "
                f"ainda {waiting[0]['waiting']}."
            )
        raise UserError(f"O {record.reference} não impõe suspensão nem cassação da permissão.")
    pending = [s for s in sanctions if s.get("pending")]
    if pending:
        raise UserError(
            f"Sanção nº {pending[0]['number']}: {pending[0]['pending']} — decida antes de aplicá-la à permissão."
        )
    permit = Permit.get_by_id(record.permit_id)
    if permit.status not in LIVE_STATUSES:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}.")
    revocation = next((s for s in sanctions if s["kind"] == "revocation"), None)
    with db.atomic():
        if revocation is not None:
            permit = revoke(
                permit, by=by, today=today, reason=f"{record.reference}: {revocation['label']} ({revocation['basis']})"
            )
            record_event(record, "permit-revoked", by=by, on=today, text=f"Permissão nº {permit.number} cassada")
        else:
            s = sanctions[0]
            if permit.status != "active":
                raise UserError(f"A permissão nº {permit.number} já está suspensa.")
            until = today + _dt.timedelta(days=s["days"] - 1) if s.get("days") else None
            span = f"por {describe.days(s['days'])}, até {day_text(until)}" if until else "até sanar a irregularidade"
            permit = suspend(
                permit,
                by=by,
                today=today,
                until=until,
                reason=f"{record.reference}: {s['label']} {span} ({s['basis']})",
            )
            record_event(
                record, "permit-suspended", by=by, on=today, text=f"Permissão nº {permit.number} suspensa {span}"
            )
    return permit
