"""Issuing a record, correcting it, identifying its offender: numbered, frozen, its fines charged."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json

from models.access.session import require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl, to_decimal
from models.base.text import search_key
from models.billing.charges import Charge, cancel_charge, create_charge
from models.enforcement.deadline_roles import deadline_matter
from models.enforcement.decisions import apply_to_permit
from models.enforcement.drafts import AdjustInput, ItemInput, RecordDraft, Witness
from models.enforcement.proposal import Preview, permit_of, preview
from models.enforcement.reading import items_of
from models.enforcement.tables import (
    DECISION_EVENTS,
    RELATIONS,
    ZERO,
    Contest,
    Record,
    RecordCharge,
    RecordFile,
    SeizedItem,
    acting_user,
    claim_record,
    fine_label,
    record_event,
)
from models.permits import Permit
from models.registry.applications import next_number
from models.rules.regimes import get_regime
from models.rules.silences import Choice
from models.store.db import db
from models.store.files import keep_file


def _create_fine_charge(
    record: Record, pv: Preview, *, by: str, today: _dt.date, due: _dt.date | None, permit: Permit | None
) -> Charge | None:
    if pv.fine_total <= 0 or not record.identified:
        return None
    payment = pv.payment_deadline
    if payment is not None:
        due = _dt.date.fromisoformat(payment["due_date"])
    if due is None:
        raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
    formula = (
        " + ".join(f"{line['formula']}" for line in pv.fine_lines)
        if len(pv.fine_lines) > 1
        else pv.fine_lines[0]["formula"]
    )
    if len(pv.fine_lines) > 1:
        formula += f" = {format_brl(pv.fine_total)}"
    basis = "; ".join(dict.fromkeys(line["basis"] for line in pv.fine_lines))
    if payment is not None:
        basis += f"; vencimento: {payment['basis']}"
    charge = create_charge(
        kind="fine",
        regime=record.regime,
        label=fine_label(record),
        amount=pv.fine_total,
        due_on=due,
        basis=basis,
        formula=formula,
        by=by,
        permit=permit
        if permit is not None and permit.person_id == record.person_id and permit.company_id == record.company_id
        else None,
        person_id=record.person_id,
        company_id=record.company_id,
        source=record.reference,
        today=today,
    )
    RecordCharge.create(record=record.id, charge=charge.id, role="fine")
    return charge


def issue_record(draft: RecordDraft, *, by: str, today: _dt.date) -> Record:
    """Number and write the record, its photos and items, and its fine's charge — one transaction."""
    require("enforcement.record")
    by = acting_user(by)
    with db.atomic():
        pv = preview(draft, today=today)
        regime = pv.regime
        errors: dict[str, str] = {}
        permit = permit_of(draft, errors)
        if permit is not None and not (draft.person_id or draft.company_id or (draft.unknown_name or "").strip()):
            draft = dataclasses.replace(draft, person_id=permit.person_id, company_id=permit.company_id)
        refers = Record.get_by_id(draft.refers_to_id) if draft.refers_to_id else None
        if refers is not None and draft.relation in ("correction", "identification"):
            if refers.status != "issued":
                raise UserError(f"O {refers.reference} está {refers.status_label}: não pode ser corrigido de novo.")
            if refers.kind != draft.kind:
                raise UserError(f"A correção do {refers.reference} é um auto do mesmo tipo ({refers.kind_label}).")
        if (
            pv.fine_total > 0
            and (draft.person_id or draft.company_id)
            and pv.payment_deadline is None
            and draft.payment_due is None
        ):
            raise FieldErrors({"payment_due": "O ato não fixa prazo de pagamento da multa: informe o vencimento."})
        year = today.year
        seq = next_number(f"record-{draft.kind}-{year}")
        number = f"{year}/{seq:05d}"
        name, document, address, description = pv.offender
        codes = [c.strip() for c in draft.infractions if c and c.strip()]
        notified = draft.notified_at or draft.at
        midnight = _dt.datetime.combine(today, _dt.time(0))
        proposal = pv.proposal.to_dict()
        proposal["prior_refs"] = list(pv.prior_refs)
        proposal["fine_lines"] = [dict(line, amount=str(line["amount"])) for line in pv.fine_lines]
        proposal["not_complied"] = draft.relation == "follows-notice"  # the warning's conditions have come true
        record = Record.create(
            number=number,
            kind=draft.kind,
            year=year,
            seq=seq,
            regime=regime.id,
            scope=deadline_matter(regime, draft, codes),
            act_sha256=regime.sha256 or "",
            person=draft.person_id,
            company=draft.company_id,
            offender_name=name,
            offender_document=document,
            offender_address=address,
            offender_description=description,
            permit=permit.id if permit is not None else None,
            place=draft.place.strip(),
            at=draft.at,
            notified_at=notified,
            facts=draft.facts.strip(),
            infractions=json.dumps(codes),
            witnesses=json.dumps(
                [{"name": w.name.strip(), "document": (w.document or "").strip()} for w in draft.witnesses],
                ensure_ascii=False,
            ),
            signature=draft.signature,
            signature_note=(draft.signature_note or "").strip(),
            inspector=draft.inspector.strip(),
            inspector_id=(draft.inspector_id or "").strip(),
            depot=(draft.depot or "").strip(),
            proposal=json.dumps(proposal, ensure_ascii=False),
            adjustments=json.dumps([a.to_dict() for a in draft.adjustments], ensure_ascii=False),
            step=draft.step,
            step_reason=(draft.step_reason or "").strip(),
            fine_total=pv.fine_total,
            deadlines=json.dumps(list(pv.deadlines), ensure_ascii=False, default=str),
            refers_to=refers.id if refers is not None else None,
            relation=draft.relation or "",
            reason=(draft.reason or "").strip(),
            search_text=search_key(f"{name} {draft.place} {number} {description}"),
            issued_on=today,
            issued_at=clock.now() if clock.now().date() == today else max(notified or midnight, midnight),
            issued_by=by,
        )
        for photo in draft.photos:
            kept = keep_file(photo, "records")
            RecordFile.create(
                record=record.id, path=kept.path, sha256=kept.sha256, original_name=kept.original_name, size=kept.size
            )
        for item in draft.items:
            SeizedItem.create(
                record=record.id,
                description=item.description.strip(),
                quantity=to_decimal(str(item.quantity)),
                unit=(item.unit or "un").strip() or "un",
                perishable=bool(item.perishable),
            )
        record_event(record, "issued", by=by, on=today, text=f"{record.kind_label} lavrado por {record.inspector}")
        if refers is not None and draft.relation in ("correction", "identification"):
            _carry_over(refers, record, pv, by=by, today=today, permit=permit, due=draft.payment_due)
        else:
            _create_fine_charge(record, pv, by=by, today=today, due=draft.payment_due, permit=permit)
        if refers is not None:
            record_event(
                refers,
                "followed",
                by=by,
                on=today,
                text=f"{RELATIONS.get(draft.relation, draft.relation)} → {record.reference}",
                data={"record": record.id},
            )
        if draft.apply_to_permit:
            apply_to_permit(record, by=by, today=today)
    return Record.get_by_id(record.id)


def _carry_over(
    old: Record, new: Record, pv: Preview, *, by: str, today: _dt.date, permit: Permit | None, due: _dt.date | None
) -> None:
    """A correction or identification replaces the old record: its files go along, its open fine is charged again
    with the restarted deadline (LC 324/2025, art. 32, § 4º), a fine already paid stays paid."""
    what = "corrigido" if new.relation == "correction" else "identificado o infrator"
    claim_record(old, status="corrected")
    record_event(
        old, "corrected", by=by, on=today, text=f"{what} pelo {new.reference}: {new.reason}", data={"record": new.id}
    )
    for f in RecordFile.select().where(RecordFile.record == old.id):
        RecordFile.create(
            record=new.id, path=f.path, sha256=f.sha256, original_name=f.original_name, size=f.size, kind=f.kind
        )
    kept_paid = False
    for link in RecordCharge.select().where(RecordCharge.record == old.id):
        charge = Charge.get_by_id(link.charge_id)
        if charge.status == "cancelled":
            continue
        if charge.paid_total > 0 or charge.status == "paid":
            RecordCharge.create(record=new.id, charge=charge.id, role=link.role, until=link.until)
            kept_paid = kept_paid or link.role == "fine"
            continue
        cancel_charge(
            charge,
            reason=f"Auto {what} pelo {new.reference}: cobrança substituída, com o prazo "
            "restabelecido a partir da nova ciência do infrator",
            by=by,
        )
        if link.role == "depot":
            RecordCharge.create(record=new.id, charge=charge.id, role="cancelled-depot", until=link.until)
    if kept_paid:
        paid = sum(
            (
                Charge.get_by_id(link.charge_id).amount
                for link in RecordCharge.select().where((RecordCharge.record == new.id) & (RecordCharge.role == "fine"))
            ),
            ZERO,
        )
        if pv.fine_total > paid:
            raise UserError(
                f"A multa do {old.reference} já foi paga ({format_brl(paid)}); a correção para "
                f"{format_brl(pv.fine_total)} precisa de cobrança complementar lançada à parte."
            )
        return
    _create_fine_charge(new, pv, by=by, today=today, due=due, permit=permit)


def draft_from(record: Record, **changes) -> RecordDraft:
    """A draft with what ``record`` says (for a correction, an identification or a follow-up), and ``changes``."""
    return _draft_from(record, **changes)


def followers_of(record: Record) -> list[Record]:
    """Records that refer to ``record`` (its correction, the infraction record after a notice…)."""
    return list(Record.select().where(Record.refers_to == record.id).order_by(Record.id))


def default_final(contest: Contest) -> bool:
    """Whether a decision on ``contest`` closes the instance unless the authority says otherwise: an appeal's
    does; a defence's does where the act gives no appeal from the decision."""
    if contest.kind == "appeal":
        return True
    regime = get_regime(Record.get_by_id(contest.record_id).regime)
    return not any(d.role == "appeal" and d.from_ in DECISION_EVENTS for d in regime.deadlines)


def _draft_from(record: Record, **changes) -> RecordDraft:
    items = [ItemInput(i.description, str(i.quantity), i.unit, i.perishable) for i in items_of(record)]
    base = RecordDraft(
        kind=record.kind,
        regime=record.regime,
        at=record.at,
        place=record.place,
        facts=record.facts,
        infractions=record.codes,
        person_id=record.person_id,
        company_id=record.company_id,
        unknown_name="" if record.identified else record.offender_name,
        unknown_description=record.offender_description,
        offender_document="" if record.identified else record.offender_document,
        offender_address="" if record.identified else record.offender_address,
        permit_id=record.permit_id,
        scope=record.scope,
        witnesses=[Witness(w["name"], w.get("document", "")) for w in record.witness_data],
        signature=record.signature,
        signature_note=record.signature_note,
        inspector=record.inspector,
        inspector_id=record.inspector_id,
        items=items,
        depot=record.depot,
        adjustments=[AdjustInput.from_dict(a) for a in json.loads(record.adjustments or "[]")],
        step=record.step,
        step_reason=record.step_reason,
        readings={
            r["point"]: Choice(r["reading"], r.get("reason", ""), r.get("by", ""))
            for r in json.loads(record.proposal or "{}").get("readings", [])
            if r.get("chosen")
        },
        asked=dict(json.loads(record.proposal or "{}").get("asked") or {}),
    )
    return dataclasses.replace(base, **changes)


def correct_record(
    old: Record, *, reason: str, by: str, today: _dt.date, notified_at: _dt.datetime | None = None, **changes
) -> Record:
    """A new record that corrects ``old`` (which is not edited); the deadlines start again from ``notified_at``.

    ``changes`` are :class:`RecordDraft` fields that differ from the old record
    (facts, infractions, place…). LC 324/2025, art. 32, § 4º: corrections are
    communicated to the offender and the deadline to pay or appeal restarts.
    """
    reason = (reason or "").strip()
    if not reason:
        raise FieldErrors({"reason": "Informe o motivo da correção (o que estava errado ou faltava)."})
    notified = notified_at or _dt.datetime.combine(today, _dt.datetime.now().time().replace(microsecond=0))
    if notified < old.at:
        notified = old.at
    draft = _draft_from(old, refers_to_id=old.id, relation="correction", reason=reason, notified_at=notified, **changes)
    return issue_record(draft, by=by, today=today)


def identify_offender(
    old: Record,
    *,
    by: str,
    today: _dt.date,
    person_id: int | None = None,
    company_id: int | None = None,
    reason: str = "",
    notified_at: _dt.datetime | None = None,
    **changes,
) -> Record:
    """The offender recorded without identification is identified: a new record refers to the old one."""
    if old.identified:
        raise UserError(f"O infrator do {old.reference} já está identificado ({old.offender_name}).")
    if not person_id and not company_id:
        raise FieldErrors({"offender": "Escolha a pessoa ou a empresa identificada."})
    reason = (reason or "").strip() or "identificação do infrator"
    notified = notified_at or _dt.datetime.combine(today, _dt.datetime.now().time().replace(microsecond=0))
    if notified < old.at:
        notified = old.at
    draft = _draft_from(
        old,
        person_id=person_id,
        company_id=company_id,
        unknown_name="",
        offender_document="",
        offender_address="",
        refers_to_id=old.id,
        relation="identification",
        reason=reason,
        notified_at=notified,
        **changes,
    )
    return issue_record(draft, by=by, today=today)
