"""Payments, cancellation and deposits returned: the only changes a charge knows (optimistic lock)."""

from __future__ import annotations

import datetime as _dt

from peewee import (
    IntegrityError,
)

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.billing.charges.steps import date_text, typed_amount
from models.billing.charges.tables import Charge, Payment
from models.store.db import db, update_versioned


def _stale(charge: Charge) -> str:
    return f"A cobrança nº {charge.number} foi alterada em outra mesa; reabra-a para ver a situação atual."


def _claim(charge: Charge, **changes) -> None:
    update_versioned(charge, _stale(charge), **changes)


def claim_state(charge: Charge, **changes) -> None:
    """Change what is paid on ``charge`` or its status (its :class:`ChargeState`) only if nobody changed it since
    it was read — the optimistic lock every payment, reversal, credit used, cancellation and inscription takes;
    the charge itself is not written."""
    update_versioned(charge.state, _stale(charge), **changes)


def record_payment(
    charge: Charge,
    *,
    paid_on: _dt.date | None,
    amount,
    reference: str,
    by: str,
    note: str = "",
    today: _dt.date | None = None,
    channel: str = "",
) -> Payment:
    """Record a payment (partial or whole) of ``charge`` — one transaction.

    A slip already recorded for this charge is refused (the database's unique
    index catches two desks at once); a second payment beyond the amount is
    kept and the charge shows *paga a maior* (a double payment to refund).
    """
    require("charges.pay")
    today = today or _dt.date.today()
    errors: dict[str, str] = {}
    value = typed_amount(errors, "amount", amount, what="o valor pago")
    if paid_on is None:
        errors["paid_on"] = "Informe a data do pagamento."
    elif paid_on > today:
        errors["paid_on"] = f"A data do pagamento ({date_text(paid_on)}) está no futuro."
    reference = (reference or "").strip()
    if not reference:
        errors["reference"] = "Informe o número do boleto ou do recibo."
    by = acting(by)  # the session's user (issue 16 §4)
    if charge.status == "cancelled":
        errors["charge"] = f"A cobrança nº {charge.number} foi cancelada; não recebe pagamento."
    if errors:
        raise FieldErrors(errors)
    same = Payment.get_or_none((Payment.charge == charge.id) & (Payment.reference == reference))
    if same is not None:
        raise UserError(
            f"O boleto {reference} já foi registrado nesta cobrança em {date_text(same.paid_on)} "
            f"por {same.recorded_by}: pagamento não registrado de novo.",
            field="reference",
        )
    try:
        with db.atomic():
            payment = Payment.create(
                charge=charge.id,
                paid_on=paid_on,
                amount=value,
                reference=reference,
                recorded_by=by,
                note=(note or "").strip(),
                channel=channel,
            )
            total = charge.paid_total + value
            claim_state(charge, paid_total=total, status="paid" if total >= charge.amount else "open")
    except IntegrityError:
        raise UserError(
            f"O boleto {reference} acabou de ser registrado nesta cobrança em outra mesa: "
            "pagamento não registrado de novo.",
            field="reference",
        ) from None
    charge.paid_total = total
    charge.status = "paid" if total >= charge.amount else "open"
    charge.state.version += 1
    return payment


def cancel_charge(charge: Charge, *, reason: str, by: str) -> Charge:
    """Cancel an unpaid charge; the reason is kept. A charge with payments is not cancelled (refund first)."""
    require("charges.cancel")
    reason = (reason or "").strip()
    errors = {}
    if not reason:
        errors["reason"] = "Informe o motivo do cancelamento."
    by = acting(by)  # the session's user (issue 16 §4)
    if errors:
        raise FieldErrors(errors)
    if charge.status == "cancelled":
        raise UserError(f"A cobrança nº {charge.number} já está cancelada.")
    if charge.paid_total > 0:
        raise UserError(
            f"A cobrança nº {charge.number} tem pagamentos ({format_brl(charge.paid_total)}); não pode ser cancelada."
        )
    with db.atomic():
        claim_state(charge, status="cancelled")
        _claim(charge, cancelled_at=clock.now(), cancelled_by=by, cancel_reason=reason)
    return get_charge(charge.id)


def return_deposit(charge: Charge, *, on: _dt.date, by: str, note: str = "", today: _dt.date | None = None) -> Charge:
    """Record that a paid deposit (caução) was given back (Olímpia, LC 324/2025, art. 91, § 5º)."""
    require("charges.cancel")
    today = today or _dt.date.today()
    if charge.kind != "deposit":
        raise UserError(f"A cobrança nº {charge.number} não é caução.")
    if charge.status != "paid":
        raise UserError(f"A caução nº {charge.number} não está paga; não há o que devolver.")
    if charge.returned_on is not None:
        raise UserError(f"A caução nº {charge.number} já foi devolvida em {date_text(charge.returned_on)}.")
    if on is None or on > today:
        raise FieldErrors({"on": "Informe a data da devolução (não futura)."})
    by = acting(by)
    with db.atomic():
        _claim(charge, returned_on=on, returned_by=by, returned_note=(note or "").strip())
    return Charge.get_by_id(charge.id)


def get_charge(charge_id: int) -> Charge:
    charge = Charge.with_state().where(Charge.id == charge_id).first()  # its state in the same reading
    if charge is None:
        raise UserError(f"Cobrança {charge_id} não encontrada.")
    return charge


def payments_of(charge: Charge) -> list[Payment]:
    return list(Payment.select().where(Payment.charge == charge.id).order_by(Payment.paid_on, Payment.id))
