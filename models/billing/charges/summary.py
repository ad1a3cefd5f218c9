"""The month in figures (charged, paid, open) and what the Painel shows about charges."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from peewee import (
    Case,
    fn,
)

from models.base.money import format_brl
from models.billing.charges.debts import revocation_candidates
from models.billing.charges.lists import in_month
from models.billing.charges.steps import month_bounds, month_label
from models.billing.charges.tables import Charge, ChargeState, Payment
from models.permits import TodayItem


@dataclass(frozen=True)
class MonthSummary:
    year: int
    month: int
    charged: Decimal  # charges due in the month, not cancelled
    paid: Decimal  # paid on those charges (up to each amount)
    open: Decimal
    overdue: Decimal
    received: Decimal  # payments received in the month, whatever charge
    count: int
    overdue_count: int
    cancelled_count: int
    #: the moneys the month's acts write their amounts in (``("Cr$",)`` for an act in cruzeiros); more than one:
    #: the totals add amounts of different moneys and the screen says so
    currencies: tuple[str, ...] = ("R$",)

    @property
    def label(self) -> str:
        return month_label(self.year, self.month)

    @property
    def currency(self) -> str:
        """The one money of the month's totals (R$ when the month has acts in more than one)."""
        return self.currencies[0] if len(self.currencies) == 1 else "R$"


def _counted_paid():
    """What a charge counts as paid, in SQL: up to its amount."""
    return Case(None, [(ChargeState.paid_total < ChargeState.amount, ChargeState.paid_total)], ChargeState.amount)


def _open_part():
    """What is open on a charge that is not cancelled, in SQL: its amount less what was paid, never below zero."""
    return Case(None, [(ChargeState.amount > ChargeState.paid_total, ChargeState.amount - ChargeState.paid_total)], 0)


def month_summary(
    year: int, month: int, *, today: _dt.date | None = None, regimes: Collection[str] | None = None
) -> MonthSummary:
    """The month's figures, from SQL sums over integer centavos (exact on both back ends); ``regimes``: only the
    charges of these acts (one municipality's, as its fee report counts them — issue 31 §1)."""
    from models.base.money import from_centavos

    today = today or _dt.date.today()
    first, last = month_bounds(year, month)
    # the figures read the states only (their index by due date), the charges' act only when asked for
    month_charges = (ChargeState.due_on >= first) & (ChargeState.due_on <= last)
    if regimes is not None:
        month_charges &= ChargeState.charge.in_(Charge.select(Charge.id).where(Charge.regime.in_(sorted(regimes))))
    live = month_charges & (ChargeState.status != "cancelled")
    late = (ChargeState.status == "open") & (ChargeState.due_on < today)
    charged, count, paid, overdue, overdue_count = (
        ChargeState.select(
            fn.COALESCE(fn.SUM(ChargeState.amount), 0),
            fn.COUNT(ChargeState.charge),
            fn.COALESCE(fn.SUM(_counted_paid()), 0),
            fn.COALESCE(fn.SUM(Case(None, [(late, _open_part())], 0)), 0),
            fn.COALESCE(fn.SUM(Case(None, [(late, 1)], 0)), 0),
        )
        .where(live)
        .scalar(as_tuple=True)
    )
    paid_in_month = (Payment.paid_on >= first) & (Payment.paid_on <= last) & Payment.id.not_in(credit_payments())
    if regimes is not None:
        paid_in_month &= Payment.charge.in_(Charge.select(Charge.id).where(Charge.regime.in_(sorted(regimes))))
    received = Payment.select(fn.COALESCE(fn.SUM(Payment.amount), 0)).where(paid_in_month).scalar()
    cancelled = ChargeState.select().where(month_charges & (ChargeState.status == "cancelled")).count()
    charged_value = from_centavos(int(charged or 0))
    paid_value = from_centavos(int(paid or 0))
    of_month = in_month(year, month) if regimes is None else in_month(year, month) & Charge.regime.in_(sorted(regimes))
    acts = [charge.regime for charge in Charge.select(Charge.regime).where(of_month).distinct()]
    return MonthSummary(
        year,
        month,
        charged_value,
        paid_value,
        charged_value - paid_value,
        from_centavos(int(overdue or 0)),
        from_centavos(int(received or 0)),
        int(count or 0),
        int(overdue_count or 0),
        cancelled,
        currencies_of(acts),
    )


def currencies_of(regime_ids) -> tuple[str, ...]:
    """The moneys of these acts (``[regime] currency``), sorted; R$ for none, or for an act no longer known."""
    from models.rules.regimes import RegimeError, get_regime

    found = set()
    for regime_id in regime_ids:
        try:
            found.add(get_regime(regime_id).currency_on(_dt.date.today()))  # reais once a rule converts
        except RegimeError:
            found.add("R$")
    return tuple(sorted(found)) or ("R$",)


def credit_payments():
    """The payments made with a payer's credit (models.billing.collection.credits): no money received in the month
    (the payment's channel, schema v33)."""
    return Payment.select(Payment.id).where(Payment.channel == "credit")


def charge_alerts(today: _dt.date, *, regimes: frozenset[str] | None = None) -> list:
    """What the Painel shows from this desk: overdue charges in total, and each revocation candidate;
    ``regimes``: only the items of these acts (the municipality's own — ``own_scope()``; None: every act)."""
    from models.base.money import from_centavos

    items = []
    overdue = (ChargeState.status == "open") & (ChargeState.due_on < today)
    if regimes is not None:
        overdue &= ChargeState.charge.in_(Charge.select(Charge.id).where(Charge.regime.in_(sorted(regimes))))
    count, amount, oldest = (
        ChargeState.select(
            fn.COUNT(ChargeState.charge), fn.COALESCE(fn.SUM(_open_part()), 0), fn.MIN(ChargeState.due_on)
        )
        .where(overdue)
        .scalar(as_tuple=True)
    )
    if count:
        amount = from_centavos(int(amount))
        if not isinstance(oldest, _dt.date):
            oldest = _dt.date.fromisoformat(str(oldest)[:10])
        items.append(
            TodayItem(
                oldest,
                "charges-overdue",
                f"{count} cobrança(s) vencida(s) e não paga(s), {format_brl(amount)} em aberto "
                "(Cobrança → Inadimplência).",
                "",
                0,
                "",
                True,
            )
        )
    for c in revocation_candidates(today=today, regimes=regimes):
        items.append(
            TodayItem(
                today,
                "arrears",
                f"Permissão nº {c.permit_number} ({c.holder}): {c.text}",
                "",
                c.permit_id,
                c.permit_number,
                True,
            )
        )
    return items
