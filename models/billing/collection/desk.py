"""At the desk: a payment above what is due (asked first; the excess kept as the payer's credit) and a payment
reversed (estorno: a new act referring to the payment; the charge reopens) — issue 30 §5."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.billing.charges import Charge, Payment, record_payment
from models.billing.charges.payments import claim_state
from models.billing.charges.steps import typed_amount
from models.billing.collection.credits import after_reversal, check_reversal
from models.billing.collection.tables import Credit, Guia, ReturnFile, Reversal
from models.registry.applications import next_number
from models.store.db import db


class Overpayment(UserError):  # noqa: N818 - a refusal the desk turns into a question
    """The amount typed is above what the charge still owes: asked (desk) or refused (command line)."""

    def __init__(self, charge: Charge, amount: Decimal):
        self.excess = amount - charge.open_amount
        self.amount = amount
        super().__init__(
            f"Pagamento a maior: {format_brl(amount)} na cobrança nº {charge.number}, que deve "
            f"{format_brl(charge.open_amount)}; o excesso de {format_brl(self.excess)} ficaria como crédito do "
            "contribuinte (a devolver ou a usar na próxima cobrança).",
            field="amount",
        )


def record_desk_payment(
    charge: Charge,
    *,
    paid_on: _dt.date | None,
    amount,
    reference: str,
    note: str = "",
    accept_overpayment: bool = False,
    today: _dt.date | None = None,
) -> Payment:
    """A payment typed at the desk: above what is due, refused with :class:`Overpayment` unless
    ``accept_overpayment`` — then the whole amount is recorded and the excess kept as a credit (one transaction)."""
    require("charges.pay")
    errors: dict[str, str] = {}
    value = typed_amount(errors, "amount", amount, what="o valor pago")
    if errors or value is None:
        raise FieldErrors(errors or {"amount": "Informe o valor pago."})
    excess = value - charge.open_amount if charge.status != "cancelled" else Decimal("0.00")
    if excess > 0 and not accept_overpayment:
        raise Overpayment(charge, value)
    with db.atomic():
        payment = record_payment(
            charge, paid_on=paid_on, amount=value, reference=reference, by="", note=note, today=today
        )
        if excess > 0:
            Credit.create(
                payment=payment.id,
                person=charge.person_id,
                company=charge.company_id,
                amount=excess,
                arisen_on=payment.paid_on,
                note=f"pago a maior na cobrança nº {charge.number}",
            )
    return payment


def reverse_payment(payment_id: int, *, reason: str, today: _dt.date | None = None) -> Reversal:
    """Reverse payment ``payment_id``: a reversal act referring to it (the payment is never edited); the charge's
    paid total goes down and it reopens (and so does a guia it paid: :func:`~.guias.guia_state`). One
    transaction."""
    require("charges.cancel")
    today = today or _dt.date.today()
    reason = (reason or "").strip()
    if not reason:
        raise FieldErrors({"reason": "Informe o motivo do estorno."})
    payment = Payment.get_or_none(Payment.id == payment_id)
    if payment is None:
        raise UserError(f"Pagamento nº {payment_id} não encontrado.", field="payment")
    done = Reversal.get_or_none(Reversal.payment == payment.id)
    if done is not None:
        raise UserError(
            f"O pagamento nº {payment_id} já foi estornado (estorno nº {done.number}, {done.reversed_on:%d/%m/%Y})."
        )
    by = acting()
    charge = Charge.get_by_id(payment.charge_id)
    if charge.status == "cancelled":
        raise UserError(f"A cobrança nº {charge.number} está cancelada; o pagamento não é estornado.")
    check_reversal(payment)
    total = charge.paid_total - payment.amount
    with db.atomic():
        seq = next_number(f"reversal-{today.year}")
        reversal = Reversal.create(
            number=f"{today.year}/{seq:05d}",
            payment=payment.id,
            amount=payment.amount,
            reason=reason,
            reversed_on=today,
            reversed_by=by,
        )
        claim_state(charge, paid_total=total, status="paid" if total >= charge.amount else "open")
        Credit.update(status="reversed").where((Credit.payment == payment.id) & (Credit.status == "open")).execute()
        after_reversal(payment)
    return reversal


@dataclass(frozen=True)
class Source:
    """Where a payment came from when it was not typed at the desk (:class:`Payment`'s own columns since v33)."""

    payment_id: int
    channel: str
    record: int | None
    guia: Guia | None
    return_file: ReturnFile | None


def sources_of(charge: Charge) -> dict[int, Source]:
    """Where ``charge``'s payments came from (those not typed at the desk), by payment id."""
    rows = list(Payment.select().where((Payment.charge == charge.id) & (Payment.channel != "")))
    guias = {g.id: g for g in Guia.select().where(Guia.id.in_({p.guia_id for p in rows if p.guia_id}))}
    files = {f.id: f for f in ReturnFile.select().where(ReturnFile.id.in_({p.return_file_id for p in rows}))}
    return {
        p.id: Source(p.id, p.channel, p.record, guias.get(p.guia_id or 0), files.get(p.return_file_id or 0))
        for p in rows
    }


def reversals_of(charge: Charge) -> dict[int, Reversal]:
    """The reversals of ``charge``'s payments, by payment id."""
    rows = Reversal.select().join(Payment).where(Payment.charge == charge.id)
    return {r.payment_id: r for r in rows}


def open_credits(*, person_id: int | None = None, company_id: int | None = None) -> list[Credit]:
    query = Credit.select().where(Credit.status == "open")
    if person_id:
        query = query.where(Credit.person == person_id)
    if company_id:
        query = query.where(Credit.company == company_id)
    return list(query.order_by(Credit.id))
