"""Defence and appeal (:class:`Contest`): filed before the instance, decided, the fine's charge updated."""

from __future__ import annotations

import datetime as _dt
import json
from decimal import Decimal
from typing import Any

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed, round_cents
from models.billing.charges import cancel_charge, create_charge
from models.enforcement.deadline_roles import deadline_dict, pick_deadline, recount
from models.enforcement.issuing import default_final
from models.enforcement.reading import charges_of, contests_of, current_fine
from models.enforcement.tables import (
    CONTEST_KINDS,
    DECISION_EVENTS,
    INSTANCES,
    OUTCOMES,
    Contest,
    Record,
    RecordCharge,
    acting_user,
    claim_record,
    day_text,
    fine_label,
    record_event,
)
from models.permits import Permit
from models.rules.deadlines import compute_deadline
from models.rules.regimes import act_money, get_regime
from models.store.db import db, update_versioned


def _instance_closed(record: Record) -> Contest | None:
    return next((c for c in contests_of(record) if c.final), None)


def _filing_deadlines(record: Record, kind: str) -> list[dict]:
    """The deadlines to file a defence (as issued) or an appeal (as issued, or from the defence's decision)."""
    role = "defence" if kind == "defence" else "appeal"
    found = [d for d in record.deadline_data if d.get("role") == role]
    if kind == "appeal":
        for c in contests_of(record):
            found.extend(recount(record, d) for d in json.loads(c.after or "[]") if d.get("role") == "appeal")
    return found


def file_contest(
    record: Record,
    *,
    kind: str,
    filed_on: _dt.date | None,  # None (the field left empty) is refused at its field
    by: str,
    grounds: str = "",
    suspensive: bool = False,
    suspensive_note: str = "",
    instance: str = "",
    today: _dt.date | None = None,
) -> Contest:
    """File a defence or an appeal; a late one is kept and marked (the authority decides on it)."""
    require("enforcement.record")
    by = acting_user(by)
    errors: dict[str, str] = {}
    if kind not in CONTEST_KINDS:
        errors["kind"] = f"Tipo desconhecido: {kind} (defesa ou recurso)."
    if filed_on is None:
        errors["filed_on"] = "Informe a data do protocolo."
    elif filed_on > (today or filed_on):  # no "today" given: the day it is filed
        errors["filed_on"] = f"A data do protocolo ({day_text(filed_on)}) está no futuro."
    elif filed_on < record.at.date():
        errors["filed_on"] = "A data do protocolo é anterior ao auto."
    if errors or filed_on is None:  # no date: its error is among them
        raise FieldErrors(errors)
    today = today or filed_on
    if record.status != "issued":
        raise UserError(
            f"O {record.reference} está {record.status_label}: a defesa é contra o auto que o substituiu."
            if record.status == "corrected"
            else f"O {record.reference} está {record.status_label}."
        )
    if record.kind == "notice":
        raise UserError("A notificação não impõe pena: a defesa é contra o auto de infração.")
    closed = _instance_closed(record)
    if closed is not None:
        raise UserError(
            f"A decisão de {day_text(closed.decided_on)} encerrou a instância administrativa: não cabe nova "
            f"{CONTEST_KINDS[kind].lower()}."
        )
    contests = contests_of(record)
    if any(c.pending for c in contests):
        raise UserError(f"Já há {next(c for c in contests if c.pending).kind_label.lower()} aguardando julgamento.")
    if kind == "defence" and any(c.kind == "defence" for c in contests):
        raise UserError("A defesa já foi apresentada e julgada; da decisão cabe recurso.")
    regime = get_regime(record.regime, on=record.at.date())
    has_defence_role = any(d.role == "defence" for d in regime.deadlines)
    if kind == "appeal" and has_defence_role and not any(c.kind == "defence" and c.outcome for c in contests):
        raise UserError("Primeiro a defesa e seu julgamento; da decisão cabe recurso.")
    deadlines = _filing_deadlines(record, kind)
    deadline = max(deadlines, key=lambda d: d["due_date"]) if deadlines else None
    on_time = deadline is None or filed_on <= _dt.date.fromisoformat(deadline["due_date"])
    decision = None
    role = "decision" if kind == "defence" else "appeal-decision"
    decision_rules = [d for d in regime.deadlines if d.role == role]
    if decision_rules:
        rule = decision_rules[0]
        decision = deadline_dict(compute_deadline(regime, rule.id, filed_on), role)
    with db.atomic():
        contest = Contest.create(
            record=record.id,
            kind=kind,
            instance=(instance or "").strip() or INSTANCES[kind],
            filed_on=filed_on,
            filed_by=by,
            grounds=(grounds or "").strip(),
            on_time=on_time,
            deadline=json.dumps(deadline, ensure_ascii=False) if deadline else "",
            suspensive=bool(suspensive),
            suspensive_note=(suspensive_note or "").strip(),
            decision_deadline=json.dumps(decision, ensure_ascii=False) if decision else "",
        )
        late = "" if on_time or deadline is None else f" — fora do prazo ({deadline['due_text']})"
        record_event(
            record,
            f"{kind}-filed",
            by=by,
            on=today,
            text=f"{CONTEST_KINDS[kind]} protocolada em {day_text(filed_on)}{late}"
            + (" com efeito suspensivo" if suspensive else ""),
        )
    return contest


def decide_contest(
    contest: Contest,
    *,
    outcome: str,
    decided_on: _dt.date | None,  # None (the field left empty) is refused at its field
    by: str,
    reason: str,
    new_amount: Any = None,
    final: bool | None = None,
    notified_on: _dt.date | None = None,
    today: _dt.date | None = None,
) -> Contest:
    """Record the decision; it updates the fine's charge and counts the deadlines that run from it.

    ``upheld``: the fine stands (LC 324/2025, art. 40: paid within 30 days of
    the decision where the act says so). ``partly``: the fine becomes
    ``new_amount`` — the open charge is cancelled with the reason and a new one
    is charged. ``annulled``: the record is annulled and its open charges are
    cancelled. ``final`` closes the administrative instance (default: an
    appeal's decision, or a defence where the act gives no appeal from it).
    """
    require("enforcement.decide")
    by = acting_user(by)
    record = Record.get_by_id(contest.record_id)
    errors: dict[str, str] = {}
    if outcome not in OUTCOMES:
        errors["outcome"] = "Escolha a decisão: auto mantido, procedente em parte ou anulado."
    if not (reason or "").strip():
        errors["reason"] = "A decisão deve ser fundamentada por escrito (informe os fundamentos)."
    if decided_on is None:
        errors["decided_on"] = "Informe a data da decisão."
    elif decided_on < contest.filed_on:
        errors["decided_on"] = "A decisão não pode ser anterior ao protocolo."
    elif decided_on > (today or decided_on):  # no "today" given: the day it is decided
        errors["decided_on"] = f"A data da decisão ({day_text(decided_on)}) está no futuro."
    amount = None
    fine_now = current_fine(record)
    if outcome == "partly" and new_amount not in (None, ""):
        try:
            amount = round_cents(parse_typed(new_amount, what="Novo valor"))
        except UserError as exc:
            errors["new_amount"] = exc.message
        except (TypeError, ValueError):
            errors["new_amount"] = f"Valor inválido: {new_amount}."
        else:
            if amount <= 0 or (fine_now > 0 and amount >= fine_now):
                errors["new_amount"] = (
                    f"Na procedência em parte a multa fica entre {act_money('0.01', record.regime)} e menos que "
                    f"{act_money(fine_now, record.regime)}; para anular, escolha auto anulado."
                )
    elif outcome == "partly" and fine_now > 0:
        errors["new_amount"] = f"Informe o novo valor da multa (hoje {act_money(fine_now, record.regime)})."
    if errors or decided_on is None:  # no date: its error is among them
        raise FieldErrors(errors)
    today = today or decided_on
    if not contest.pending:
        raise UserError(f"Esta {contest.kind_label.lower()} já foi julgada em {day_text(contest.decided_on)}.")
    regime = get_regime(record.regime, on=record.at.date())
    if final is None:
        final = default_final(contest) or outcome == "annulled"
    notified = notified_on or decided_on
    after: list[dict] = []
    if not final:
        candidates = [d for d in regime.deadlines if d.role == "appeal" and d.from_ in DECISION_EVENTS]
        for d in pick_deadline(candidates, record.scope):
            after.append(deadline_dict(compute_deadline(regime, d.id, notified), "appeal"))
    if outcome in ("upheld", "partly") and fine_now > 0:
        candidates = [d for d in regime.deadlines if d.role == "payment-after-decision"]
        for d in pick_deadline(candidates, record.scope):
            after.append(deadline_dict(compute_deadline(regime, d.id, notified), "payment-after-decision"))
    with db.atomic():
        update_versioned(
            contest,
            "Esta defesa/recurso foi alterada em outra mesa; reabra o auto.",
            outcome=outcome,
            decided_on=decided_on,
            decided_by=by,
            decision_reason=reason.strip(),
            new_amount=amount,
            notified_on=notified,
            final=bool(final),
            after=json.dumps(after, ensure_ascii=False),
        )
        contest = Contest.get_by_id(contest.id)
        words = f"{contest.kind_label} julgada em {day_text(decided_on)}: {OUTCOMES[outcome]} — {reason.strip()}"
        if outcome == "annulled":
            for charge in charges_of(record):
                if charge.status == "open" and charge.paid_total == 0:
                    cancel_charge(
                        charge,
                        reason=f"{record.reference} anulado pela decisão de {day_text(decided_on)} "
                        f"({contest.instance}): {reason.strip()}",
                        by=by,
                    )
            claim_record(record, status="annulled")
        elif outcome == "partly" and amount is not None:
            _reduce_fine(record, contest, amount, after, by=by, today=today)
            words += f" — multa de {act_money(fine_now, record.regime)} para {act_money(amount, record.regime)}"
        record_event(record, f"{contest.kind}-decided", by=by, on=today, text=words, data={"contest": contest.id})
        if final:
            record_event(
                record,
                "instance-closed",
                by=by,
                on=today,
                text=f"Decisão final de {day_text(decided_on)}: encerrada a instância administrativa",
            )
    return contest


def _reduce_fine(
    record: Record, contest: Contest, amount: Decimal, after: list[dict], *, by: str, today: _dt.date
) -> None:
    open_fines = [c for c in charges_of(record, "fine") if c.status != "cancelled"]
    due = None
    for d in after:
        if d["role"] == "payment-after-decision":
            due = _dt.date.fromisoformat(d["due_date"])
    for charge in open_fines:
        if charge.paid_total > 0:
            raise UserError(
                f"A multa (cobrança nº {charge.number}) já tem pagamento de "
                f"{act_money(charge.paid_total, record.regime)}: "
                "registre a decisão depois de tratar a devolução na Cobrança."
            )
        due = due or charge.due_on
        cancel_charge(
            charge,
            reason=f"Multa reduzida para {act_money(amount, record.regime)} pela decisão de "
            f"{day_text(contest.decided_on)} ({contest.instance}): {contest.decision_reason}",
            by=by,
        )
    if not record.identified:
        return
    basis = (
        open_fines[0].basis
        if open_fines
        else "; ".join(line.get("basis", "") for line in record.proposal_data.get("fine_lines", []))
    )
    basis = f"{basis}; decisão de {day_text(contest.decided_on)} ({contest.instance})"
    charge = create_charge(
        kind="fine",
        regime=record.regime,
        label=fine_label(record) + " — reduzida",
        amount=amount,
        due_on=due or today,
        basis=basis,
        formula=f"{act_money(amount, record.regime)} (decisão de {day_text(contest.decided_on)}: procedente em parte)",
        by=by,
        person_id=record.person_id,
        company_id=record.company_id,
        permit=Permit.get_by_id(record.permit_id) if record.permit_id else None,
        source=record.reference,
        today=today,
    )
    RecordCharge.create(record=record.id, charge=charge.id, role="fine")
