"""The month's collection in figures (issue 30 §7), for the monthly fee report: what the bank, Pix and the desk
received, what was paid after its due date, reversed, kept as credit and inscribed in dívida ativa — each an SQL
sum of integer centavos, so the report's three formats agree to the cent."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from peewee import JOIN, fn

from models.base.money import from_centavos, to_centavos
from models.billing.charges import Charge, Payment
from models.billing.collection.tables import Credit, CreditUse, DebtInscription, Reversal


@dataclass(frozen=True)
class Figure:
    label: str
    count: int
    amount: Decimal
    how: str


@dataclass(frozen=True)
class CollectionFigures:
    bank: Figure
    pix: Figure
    desk: Figure
    late: Figure
    reversed: Figure
    credits: Figure
    credits_used: Figure
    credits_refunded: Figure
    credits_open: Figure
    inscribed: Figure

    @property
    def rows(self) -> tuple[Figure, ...]:
        return (
            self.bank,
            self.pix,
            self.desk,
            self.late,
            self.reversed,
            self.credits,
            self.credits_used,
            self.credits_refunded,
            self.credits_open,
            self.inscribed,
        )


def _sum(query, column) -> tuple[int, Decimal]:
    count, total = query.select(fn.COUNT(column), fn.COALESCE(fn.SUM(column), 0)).tuples().get()
    return int(count), from_centavos(int(total))


def collection_figures(first: _dt.date, last: _dt.date, regimes: frozenset[str] | None = None) -> CollectionFigures:
    """The month's figures; ``regimes``: only what concerns charges of these acts (one municipality's report) —
    a credit not tied to a payment is the database's own town's."""
    in_month = (Payment.paid_on >= first) & (Payment.paid_on <= last)
    if regimes is not None:
        own_charges = Charge.select(Charge.id).where(Charge.regime.in_(sorted(regimes)))
        own_payments = Payment.select(Payment.id).where(Payment.charge.in_(own_charges))
        in_month &= Payment.charge.in_(own_charges)
    paid = Payment.select()
    bank = _sum(paid.where(in_month & (Payment.channel == "bank")), Payment.amount)
    pix = _sum(paid.where(in_month & (Payment.channel == "pix")), Payment.amount)
    desk = _sum(paid.where(in_month & (Payment.channel == "")), Payment.amount)
    money = Payment.channel != "credit"  # a credit used is no money received
    late = _sum(
        paid.switch(Payment).join(Charge).where(in_month & money & (Payment.paid_on > Charge.due_on)), Payment.amount
    )
    reversed_in = (Reversal.reversed_on >= first) & (Reversal.reversed_on <= last)
    credit_in = (Credit.arisen_on >= first) & (Credit.arisen_on <= last)
    inscribed_in = (DebtInscription.inscribed_on >= first) & (DebtInscription.inscribed_on <= last)
    used_in_month = (CreditUse.used_on >= first) & (CreditUse.used_on <= last)
    used_by_end = CreditUse.used_on <= last
    owed_at_end = (Credit.arisen_on <= last) & (Credit.status != "reversed")
    if regimes is not None:
        reversed_in &= Reversal.payment.in_(own_payments)
        own_credit = Credit.payment.is_null() | Credit.payment.in_(own_payments)
        credit_in &= own_credit
        owed_at_end &= own_credit
        own_credits = Credit.select(Credit.id).where(own_credit)
        used_in_month &= CreditUse.credit.in_(own_credits)
        used_by_end &= CreditUse.credit.in_(own_credits)
        inscribed_in &= DebtInscription.charge.in_(own_charges)
    back = _sum(Reversal.select().where(reversed_in), Reversal.amount)
    kept = _sum(Credit.select().where(credit_in), Credit.amount)
    uses = CreditUse.select().join(Reversal, JOIN.LEFT_OUTER, on=(Reversal.payment == CreditUse.payment))
    used = _sum(uses.where(used_in_month & (CreditUse.kind == "apply") & Reversal.id.is_null()), CreditUse.amount)
    refunded = _sum(uses.where(used_in_month & (CreditUse.kind == "refund")), CreditUse.amount)
    # what payers are owed at the month's end: credits arisen by then (not reversed), less their uses by then
    owed = Credit.select(Credit.id, Credit.amount).where(owed_at_end)
    spent = (
        uses.where(used_by_end & ((CreditUse.kind == "refund") | Reversal.id.is_null()))
        .select(CreditUse.credit, fn.SUM(CreditUse.amount))
        .group_by(CreditUse.credit)
    )
    by_credit: dict[int, int] = {c: int(total or 0) for c, total in cast(Any, spent.tuples())}
    left = [to_centavos(amount) - by_credit.get(c, 0) for c, amount in cast(Any, owed.tuples())]
    still = (sum(1 for cents in left if cents > 0), from_centavos(sum(left)))
    inscribed = _sum(DebtInscription.select().where(inscribed_in), DebtInscription.original)
    return CollectionFigures(
        bank=Figure("Recebido pelo banco (arquivo de retorno)", *bank, "pagamentos com data no mês lidos do retorno"),
        pix=Figure("Recebido por Pix (extrato)", *pix, "créditos Pix do extrato ligados à guia pelo txid"),
        desk=Figure("Recebido no balcão", *desk, "pagamentos registrados à mão"),
        late=Figure("Pago com atraso", *late, "pagamentos com data depois do vencimento da cobrança"),
        reversed=Figure("Estornado", *back, "estornos com data no mês (o pagamento continua listado)"),
        credits=Figure("Créditos de contribuintes", *kept, "pago a maior ou em duplicidade, a devolver ou usar"),
        credits_used=Figure(
            "Créditos usados em cobranças", *used, "créditos abatidos de cobranças no mês (não é dinheiro recebido)"
        ),
        credits_refunded=Figure("Créditos devolvidos", *refunded, "devoluções de crédito registradas no mês"),
        credits_open=Figure(
            "Créditos em aberto no fim do mês", *still, "saldo dos créditos até o fim do mês, menos usos e devoluções"
        ),
        inscribed=Figure("Inscrito em dívida ativa", *inscribed, "valor originário das cobranças inscritas no mês"),
    )
