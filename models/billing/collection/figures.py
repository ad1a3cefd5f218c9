"""The month's collection in figures (issue 30 §7), for the monthly fee report: what the bank, Pix and the desk
received, what was paid after its due date, reversed, kept as credit and inscribed in dívida ativa — each an SQL
sum of integer centavos, so the report's three formats agree to the cent."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal

from peewee import JOIN, fn

from models.base.money import from_centavos
from models.billing.charges import Charge, Payment
from models.billing.collection.tables import Credit, DebtInscription, PaymentSource, Reversal


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
    inscribed: Figure

    @property
    def rows(self) -> tuple[Figure, ...]:
        return (self.bank, self.pix, self.desk, self.late, self.reversed, self.credits, self.inscribed)


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
    paid = Payment.select().join(PaymentSource, JOIN.LEFT_OUTER, on=(PaymentSource.payment == Payment.id))
    bank = _sum(paid.where(in_month & (PaymentSource.channel == "bank")), Payment.amount)
    pix = _sum(paid.where(in_month & (PaymentSource.channel == "pix")), Payment.amount)
    desk = _sum(paid.where(in_month & PaymentSource.id.is_null()), Payment.amount)
    late = _sum(Payment.select().join(Charge).where(in_month & (Payment.paid_on > Charge.due_on)), Payment.amount)
    reversed_in = (Reversal.reversed_on >= first) & (Reversal.reversed_on <= last)
    credit_in = (Credit.arisen_on >= first) & (Credit.arisen_on <= last)
    inscribed_in = (DebtInscription.inscribed_on >= first) & (DebtInscription.inscribed_on <= last)
    if regimes is not None:
        reversed_in &= Reversal.payment.in_(own_payments)
        credit_in &= Credit.payment.is_null() | Credit.payment.in_(own_payments)
        inscribed_in &= DebtInscription.charge.in_(own_charges)
    back = _sum(Reversal.select().where(reversed_in), Reversal.amount)
    kept = _sum(Credit.select().where(credit_in), Credit.amount)
    inscribed = _sum(DebtInscription.select().where(inscribed_in), DebtInscription.original)
    return CollectionFigures(
        bank=Figure("Recebido pelo banco (arquivo de retorno)", *bank, "pagamentos com data no mês lidos do retorno"),
        pix=Figure("Recebido por Pix (extrato)", *pix, "créditos Pix do extrato ligados à guia pelo txid"),
        desk=Figure("Recebido no balcão", *desk, "pagamentos registrados à mão"),
        late=Figure("Pago com atraso", *late, "pagamentos com data depois do vencimento da cobrança"),
        reversed=Figure("Estornado", *back, "estornos com data no mês (o pagamento continua listado)"),
        credits=Figure("Créditos de contribuintes", *kept, "pago a maior ou em duplicidade, a devolver ou usar"),
        inscribed=Figure("Inscrito em dívida ativa", *inscribed, "valor originário das cobranças inscritas no mês"),
    )
