"""A payer's credits (issue 30 §5): what was paid beyond a charge, or a guia paid twice, is the payer's — to use on
their next charge or to refund. Each use is a new act (:class:`~.tables.CreditUse`: its number, date, author)
referring to the credit and, when applied, to the charge and the payment it made there; the credit itself is never
edited but for its status. Its balance is its amount less its uses; a use whose payment was reversed gives its
amount back. A payment made with a credit is no money received: the month's received figures leave it out and the
report's credits block shows it (:mod:`~.figures`)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from peewee import JOIN, fn

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl, from_centavos
from models.billing.charges import Charge, Payment, record_payment
from models.billing.charges.steps import date_text, typed_amount
from models.billing.collection.tables import Credit, CreditUse, Reversal
from models.registry.applications import next_number
from models.store.db import db, take_write_turn

ZERO = Decimal("0.00")
CREDIT_CHANNEL = "credit"  # Payment.channel of a payment made with a credit


@dataclass(frozen=True)
class CreditLine:
    """A credit as the desk and the command line show it."""

    id: int
    arisen_on: _dt.date
    amount: Decimal
    balance: Decimal
    status: str
    origin: str
    payer: str

    @property
    def text(self) -> str:
        return (
            f"crédito nº {self.id} de {date_text(self.arisen_on)}: {format_brl(self.balance)} em aberto "
            f"(de {format_brl(self.amount)}; {self.origin})"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "credit": self.id,
            "arisen_on": date_text(self.arisen_on),
            "amount": f"{self.amount:.2f}",
            "balance": f"{self.balance:.2f}",
            "status": self.status,
            "origin": self.origin,
            "payer": self.payer,
        }


def _live_uses():
    """The uses that count against a credit: refunds, and applications whose payment was not reversed."""
    return (
        CreditUse.select(CreditUse.credit, fn.SUM(CreditUse.amount).alias("used"))
        .join(Reversal, JOIN.LEFT_OUTER, on=(Reversal.payment == CreditUse.payment))
        .where(Reversal.id.is_null())
        .group_by(CreditUse.credit)
    )


def balances(credit_ids: list[int]) -> dict[int, Decimal]:
    """Each credit's balance: its amount less its live uses (integer centavos summed by the database)."""
    if not credit_ids:
        return {}
    used = {c: int(u or 0) for c, u in _live_uses().where(CreditUse.credit.in_(credit_ids)).tuples()}
    rows = Credit.select(Credit.id, Credit.amount).where(Credit.id.in_(credit_ids))
    return {c: amount - from_centavos(used.get(c, 0)) for c, amount in cast(Any, rows.tuples())}


def _payer_of(credit: Credit) -> str:
    if credit.person is not None:
        return credit.person.name
    return credit.company.legal_name if credit.company is not None else ""


def credit_lines(
    *, person_id: int | None = None, company_id: int | None = None, open_only: bool = True
) -> list[CreditLine]:
    """A payer's credits (or everyone's), oldest first; ``open_only``: those with a balance."""
    query = Credit.select().where(Credit.status != "reversed")
    if person_id:
        query = query.where(Credit.person == person_id)
    if company_id:
        query = query.where(Credit.company == company_id)
    credits = list(query.order_by(Credit.arisen_on, Credit.id))
    left = balances([c.id for c in credits])
    lines = [CreditLine(c.id, c.arisen_on, c.amount, left[c.id], c.status, c.note or "", _payer_of(c)) for c in credits]
    return [line for line in lines if line.balance > 0] if open_only else lines


def credits_for(charge: Charge) -> list[CreditLine]:
    """The open credits of ``charge``'s payer — what the desk offers to use on it."""
    if not (charge.person_id or charge.company_id):
        return []
    return credit_lines(person_id=charge.person_id or None, company_id=charge.company_id or None)


def _status(balance: Decimal, kind: str) -> str:
    if balance > 0:
        return "open"
    return "used" if kind == "apply" else "refunded"


def apply_credit(
    charge: Charge, *, credit_id: int | None = None, amount=None, today: _dt.date | None = None
) -> list[CreditUse]:
    """Use the payer's open credit on ``charge`` — one transaction: oldest credit first (or only ``credit_id``), up to
    what the charge still owes (or ``amount``, typed pt-BR). Each credit drawn on is one act (:class:`CreditUse`)
    that made a payment on the charge (reference ``CRÉDITO nº …``, its source the channel ``credit``); a credit
    used in part keeps the rest open."""
    require("charges.pay")
    today = today or _dt.date.today()
    by = acting()
    if charge.status != "open" or charge.open_amount <= 0:
        raise UserError(
            f"A cobrança nº {charge.number} está {charge.status_label}: não há o que pagar com crédito.", field="charge"
        )
    errors: dict[str, str] = {}
    wanted = (
        typed_amount(errors, "amount", amount, what="o valor a usar do crédito") if amount not in (None, "") else None
    )
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        take_write_turn(db)  # the balances are read once this desk holds the write turn: never spent twice
        charge = Charge.get_by_id(charge.id)
        lines = credits_for(charge)
        if credit_id is not None:
            credit = Credit.get_or_none(Credit.id == credit_id)
            if credit is None:
                raise UserError(f"Crédito nº {credit_id} não encontrado.", field="credit")
            if (credit.person_id or None, credit.company_id or None) != (
                charge.person_id or None,
                charge.company_id or None,
            ):
                raise UserError(
                    f"O crédito nº {credit_id} é de outro contribuinte, não do devedor da cobrança nº {charge.number}.",
                    field="credit",
                )
            lines = [line for line in lines if line.id == credit_id]
            if not lines:
                raise UserError(f"O crédito nº {credit_id} não tem saldo em aberto.", field="credit")
        available = sum((line.balance for line in lines), ZERO)
        if available <= 0:
            raise UserError(f"O devedor da cobrança nº {charge.number} não tem crédito em aberto.", field="credit")
        ceiling = min(available, charge.open_amount)
        if wanted is not None and (wanted <= 0 or wanted > ceiling):
            raise FieldErrors(
                {
                    "amount": f"O valor a usar deve ser maior que zero e no máximo {format_brl(ceiling)} "
                    f"(crédito em aberto {format_brl(available)}; a cobrança deve {format_brl(charge.open_amount)})."
                }
            )
        remaining = wanted if wanted is not None else ceiling
        uses: list[CreditUse] = []
        for line in lines:
            if remaining <= 0:
                break
            take = min(line.balance, remaining)
            seq = next_number(f"credit-use-{today.year}")
            number = f"{today.year}/{seq:05d}"
            payment = record_payment(
                charge,
                paid_on=today,
                amount=take,
                reference=f"CRÉDITO nº {line.id} (uso {number})",
                by="",
                note=f"crédito nº {line.id} do contribuinte ({line.origin})",
                today=today,
                channel=CREDIT_CHANNEL,
            )
            uses.append(
                CreditUse.create(
                    number=number,
                    credit=line.id,
                    kind="apply",
                    charge=charge.id,
                    payment=payment.id,
                    amount=take,
                    used_on=today,
                    used_by=by,
                    reason=f"usado na cobrança nº {charge.number}",
                )
            )
            Credit.update(status=_status(line.balance - take, "apply")).where(Credit.id == line.id).execute()
            remaining -= take
    return uses


def refund_credit(credit_id: int, *, reason: str, amount=None, today: _dt.date | None = None) -> CreditUse:
    """Refund a credit (all its balance, or ``amount``): an act of its own with the reason — one transaction."""
    require("charges.cancel")
    today = today or _dt.date.today()
    by = acting()
    reason = " ".join((reason or "").split())
    errors: dict[str, str] = {}
    if not reason:
        errors["reason"] = "Informe o motivo e como foi devolvido (ordem bancária, processo…)."
    wanted = typed_amount(errors, "amount", amount, what="o valor devolvido") if amount not in (None, "") else None
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        take_write_turn(db)
        credit = Credit.get_or_none(Credit.id == credit_id)
        if credit is None or credit.status == "reversed":
            raise UserError(f"Crédito nº {credit_id} não encontrado ou estornado.", field="credit")
        balance = balances([credit.id])[credit.id]
        if balance <= 0:
            raise UserError(f"O crédito nº {credit_id} não tem saldo em aberto.", field="credit")
        value = wanted if wanted is not None else balance
        if value <= 0 or value > balance:
            raise FieldErrors(
                {"amount": f"O valor devolvido deve ser maior que zero e no máximo {format_brl(balance)} (o saldo)."}
            )
        seq = next_number(f"credit-use-{today.year}")
        use = CreditUse.create(
            number=f"{today.year}/{seq:05d}",
            credit=credit.id,
            kind="refund",
            amount=value,
            used_on=today,
            used_by=by,
            reason=reason,
        )
        Credit.update(status=_status(balance - value, "refund")).where(Credit.id == credit.id).execute()
    return use


def check_reversal(payment: Payment) -> None:
    """Before a payment is reversed: one whose excess became a credit that was used or refunded in the meantime is
    refused (that use is reversed first); nothing is written."""
    for credit in Credit.select().where((Credit.payment == payment.id) & (Credit.status != "reversed")):
        spent = list(
            CreditUse.select()
            .join(Reversal, JOIN.LEFT_OUTER, on=(Reversal.payment == CreditUse.payment))
            .where((CreditUse.credit == credit.id) & Reversal.id.is_null())
        )
        if spent:
            raise UserError(
                f"O excesso deste pagamento (crédito nº {credit.id}) já foi "
                + "; ".join(f"{u.kind_label} (ato nº {u.number})" for u in spent)
                + ": estorne antes o uso do crédito; nada foi estornado."
            )


def after_reversal(payment: Payment) -> None:
    """A reversed payment made with a credit gives the credit its amount back: the credit is open again."""
    use = CreditUse.get_or_none(CreditUse.payment == payment.id)
    if use is not None:
        Credit.update(status="open").where(Credit.id == use.credit_id).execute()


def uses_of(charge: Charge) -> dict[int, CreditUse]:
    """The credit uses that paid ``charge``, by payment id."""
    return {u.payment_id: u for u in CreditUse.select().where(CreditUse.charge == charge.id) if u.payment_id}
