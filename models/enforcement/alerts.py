"""The Painel's enforcement alerts: deadlines running out, goods to release or donate, debts to inscribe."""

from __future__ import annotations

import datetime as _dt
import json
from collections import defaultdict
from decimal import Decimal
from typing import Any, cast

from models.billing.charges import ChargeState
from models.enforcement.debts import debt_register
from models.enforcement.seizures import due_passed, reclaim_due_of
from models.enforcement.tables import ZERO, Contest, Record, RecordCharge, SeizedItem, day_text
from models.rules import describe
from models.rules.regimes import act_money, get_regime

#: the deadlines a clerk acts on the day they end, and what the Painel says of them
_LAST_DAY = {
    "compliance": "termina hoje o prazo para regularizar",
    "defence": "termina hoje o prazo de defesa",
    "appeal": "termina hoje o prazo de recurso",
    "payment": "vence hoje a multa",
    "payment-after-decision": "vence hoje a multa mantida pela decisão",
}


def enforcement_alerts(today: _dt.date, *, recent_days: int = 30, regimes: frozenset[str] | None = None) -> list:
    """What the Painel shows from Fiscalização, as ``models.permits.TodayItem`` (each with its article);
    ``regimes``: only the items of these acts (the municipality's own — ``own_scope()``; None: every act).

    * deadlines of records in force that end today — to comply, to defend, to
      appeal, to pay a fine not paid (the deadline's own article);
    * a notice's deadline to comply that ended in the last ``recent_days`` days
      and no record followed it: the inspector checks and draws up the
      infraction record (Olímpia, LC 324/2025, art. 29);
    * defences and appeals awaiting a decision whose deadline ends today or has
      passed (Olímpia art. 38);
    * unpaid fines past every deadline, for the dívida ativa (art. 11, § 1º);
    * seized goods: the reclaim deadline ends today, or has passed (donation
      due: art. 24; art. 215, § 2º), perishables still in the depot (art. 149),
      goods of an annulled record to give back.
    """
    from models.permits import TodayItem

    items: list[TodayItem] = []

    def add(day: _dt.date, kind: str, record: Record, text: str, article: str, overdue: bool = False) -> None:
        who = f"{record.reference} ({record.offender_name})"
        items.append(
            TodayItem(
                day,
                kind,
                f"{who}: {text}",
                article,
                record.permit_id or 0,
                record.permit.number if record.permit is not None else "",
                overdue,
            )
        )

    since = today - _dt.timedelta(days=366)  # the acts' deadlines run for weeks, not years
    live = (Record.status == "issued") & (Record.issued_on >= since)
    if regimes is not None:
        live &= Record.regime.in_(sorted(regimes))
    records = {r.id: r for r in Record.select().where(live)}
    ids = list(records)
    contests: dict[int, list[Contest]] = defaultdict(list)
    followed: set[int] = set()
    open_fines: dict[int, Decimal] = defaultdict(lambda: ZERO)
    if ids:
        for c in Contest.select().where(Contest.record.in_(ids)).order_by(Contest.filed_on, Contest.id):
            contests[c.record_id].append(c)
        followed = {
            r.refers_to_id
            for r in Record.select(Record.refers_to).where(
                Record.refers_to.in_(ids) & (Record.relation == "follows-notice")
            )
            if r.refers_to_id is not None
        }
        fines = (
            RecordCharge.select(RecordCharge.record, ChargeState.amount, ChargeState.paid_total)
            .join(ChargeState, on=(RecordCharge.charge == ChargeState.charge))
            .where(RecordCharge.record.in_(ids) & (RecordCharge.role == "fine") & (ChargeState.status == "open"))
        )
        for record_id, amount, paid in cast(Any, fines.tuples()):
            open_fines[record_id] += amount - paid
    for record in records.values():
        filed = {c.kind for c in contests[record.id]}
        due_list = list(record.deadline_data)
        for c in contests[record.id]:
            due_list.extend(json.loads(c.after or "[]"))
        decided = any(d.get("role") == "payment-after-decision" for d in due_list)
        for d in due_list:
            role, due = d.get("role"), _dt.date.fromisoformat(d["due_date"])
            if (
                role not in _LAST_DAY
                or (role in ("defence", "appeal") and role in filed)
                or (role == "payment" and decided)
            ):  # the decision set the payment's new deadline
                continue
            if role.startswith("payment"):
                if record.id not in open_fines:
                    continue
                text = f"{_LAST_DAY[role]} de {act_money(open_fines[record.id], record.regime)} ({d['due_text']})."
            else:
                text = f"{_LAST_DAY[role]} ({d['label']}, {d['due_text']})."
            if due == today and not (role == "compliance" and record.id in followed):
                add(due, f"record-{role}", record, text, d["basis"])
            elif (
                role == "compliance"
                and record.id not in followed
                and today - _dt.timedelta(days=recent_days) <= due < today
            ):
                add(
                    due,
                    "record-compliance",
                    record,
                    f"o prazo para regularizar terminou em {day_text(due)} ({d['label']}): verificar no local e, "
                    "se não atendida a notificação, lavrar o auto de infração.",
                    d["basis"],
                    True,
                )
        for c in contests[record.id]:
            if not c.pending or not c.decision_deadline:
                continue
            d = json.loads(c.decision_deadline)
            due = _dt.date.fromisoformat(d["due_date"])
            if due <= today:
                when = "termina hoje" if due == today else f"terminou em {day_text(due)}"
                add(
                    due,
                    "record-decision",
                    record,
                    f"{c.kind_label.lower()} protocolada em {day_text(c.filed_on)} aguarda julgamento "
                    f"({c.instance}); o prazo para decidir {when}.",
                    d["basis"],
                    due < today,
                )

    debts = debt_register(today)
    if debts:
        amount = sum((d.amount for d in debts), ZERO)
        bases = "; ".join(dict.fromkeys(d.basis for d in debts if d.basis))
        items.append(
            TodayItem(
                min(d.due_on for d in debts),
                "fines-debt",
                f"{len(debts)} multa(s) vencida(s) e não paga(s), {act_money(amount, debts[0].regime)}: inscrever em "
                "dívida ativa (Fiscalização → Dívida ativa).",
                bases,
                0,
                "",
                True,
            )
        )

    held: dict[int, list[SeizedItem]] = defaultdict(list)
    for item in SeizedItem.select().where(SeizedItem.released_on.is_null() & SeizedItem.donated_on.is_null()):
        held[item.record_id].append(item)
    if held:
        for record in Record.select().where(Record.id.in_(list(held)) & (Record.status != "corrected")):
            regime = get_regime(record.regime, on=record.at.date())
            seizure = regime.seizure
            if record.status == "annulled":
                add(
                    today,
                    "seizure-return",
                    record,
                    "auto anulado: devolver os bens apreendidos ("
                    + "; ".join(i.description for i in held[record.id])
                    + ").",
                    regime.cite(seizure.basis) if seizure else "",
                    True,
                )
                continue
            for flag in sorted({i.perishable for i in held[record.id]}, reverse=True):
                what = "; ".join(
                    f"{describe.number(i.quantity)} {i.unit} {i.description}"
                    for i in held[record.id]
                    if i.perishable == flag
                )
                reclaim = reclaim_due_of(record, flag)
                if reclaim is None:
                    if flag:
                        add(
                            today,
                            "seizure-perishable",
                            record,
                            f"perecíveis no depósito ({what}); o ato não fixa prazo de retirada: decidir a destinação.",
                            regime.cite(seizure.basis) if seizure else "",
                            True,
                        )
                    continue
                due = _dt.date.fromisoformat(reclaim["due_date"])
                if due_passed(reclaim, today):
                    donation = regime.cite(seizure.donation.basis) if seizure and seizure.donation else reclaim["basis"]
                    add(
                        due,
                        "seizure-donation",
                        record,
                        f"bens não retirados no prazo ({reclaim['due_text']}): {what} — "
                        "doar ou dar a destinação do ato.",
                        donation,
                        True,
                    )
                elif due == today:
                    add(
                        due,
                        "seizure-reclaim",
                        record,
                        f"termina hoje o prazo de retirada dos bens ({what}), {reclaim['due_text']}.",
                        reclaim["basis"],
                    )
                elif flag:
                    add(
                        due,
                        "seizure-perishable",
                        record,
                        f"perecíveis no depósito ({what}), retirada {reclaim['due_text']}.",
                        reclaim["basis"],
                    )
    return sorted(items, key=lambda i: (not i.overdue, i.date, i.text))
