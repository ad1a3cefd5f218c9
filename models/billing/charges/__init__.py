"""Charges (cobranças) and payments: what each permit owes, what was paid, who is in debt.

A charge is an issued act: its amount, formula, values and legal basis are
frozen when it is created (``formula``, ``basis`` and ``detail`` keep the fee
engine's line as computed), so a later change of a fiscal-unit value or of a
regime file never changes it. It is never edited: it is paid (one or more
payments), or cancelled with a reason that is kept; a deposit (caução) that
was paid can be returned (Olímpia, LC 324/2025, art. 91, § 5º).

Where charges come from:

* **The month** (:func:`plan_month` / :func:`generate_month`): for every permit
  in force in the month, each fee of its kind (``[[permit_kinds]].fees``):
  a monthly fee (``per-area-month``, e.g. SJC's R$ 2,50/m² due on the 20th,
  Lei 9.158/2014, art. 11, § 5º) once per month; any other priced fee once per
  permit — from the quote frozen on its application when there is one (São
  Bento's occupation + energy, due 26/03/2026, Dec. 4.794/2026, art. 9º and 12).
  A fee whose value the Administration sets (``fee_needs(…).administration``) and
  has not set is listed, not invented. Each charge has a ``key`` (unique in the database),
  so generating the same month twice creates nothing new.
* **Awaiting payment** (:func:`await_payment`): where the act wants payment
  before the permit, the application's frozen quote becomes its charges.
* **By hand** (:func:`create_charge`): a value the Administration set (Olímpia
  TPU, art. 178), a venue fee or deposit (art. 89), a fine or depot fee.

Debts (:func:`debts_of`): open charges past their due date, and unpaid fines,
block new permits and renewals where the regime has a ``no-debts`` rule
(Sapezal, Lei 1.171/2014, art. 61; Olímpia art. 158; São Bento art. 2º, § 2º).
Delinquency (:func:`revocation_candidates`): a monthly fee with ``arrears``
(SJC art. 11, § 6º: three consecutive months unpaid) puts the permit on a list
for the chief to decide — Praça never revokes by itself.

The package, one module per seam (each imports only those before it; none imports a workflow above billing):

* :mod:`~models.billing.charges.tables` — ``Charge``, its ``ChargeState`` (what is paid, the status) and
  ``Payment``, and their vocabulary.
* :mod:`~models.billing.charges.steps` — months and their labels, the next number, a fee's kind and due day, an
  amount typed, a planned charge written.
* :mod:`~models.billing.charges.month` — the month's run (plan, then generate, one desk at a time) and the charges of
  an application awaiting payment.
* :mod:`~models.billing.charges.manual` — a charge by hand.
* :mod:`~models.billing.charges.payments` — payments, cancellation, deposits returned.
* :mod:`~models.billing.charges.lists` — the Cobrança list.
* :mod:`~models.billing.charges.debts` — debts (for eligibility) and delinquency (for the chief).
* :mod:`~models.billing.charges.summary` — the month in figures and the Painel's alerts.

Billing sits above :mod:`models.permits` (the tables and the Painel's ``TodayItem``) and below the front desk and
:mod:`models.services.issuing`, which read the debts and the open charges.
"""

from __future__ import annotations

from models.billing.charges.debts import Candidate, debts_of, revocation_candidates
from models.billing.charges.lists import (
    charge_rows,
)
from models.billing.charges.manual import create_charge
from models.billing.charges.month import (
    MONTH_RUN_LOCK,
    MonthPlan,
    MonthRunBusy,
    await_payment,
    generate_month,
    open_charges_of_application,
    plan_month,
)
from models.billing.charges.payments import cancel_charge, get_charge, payments_of, record_payment, return_deposit
from models.billing.charges.steps import (
    month_label,
    parse_month,
)
from models.billing.charges.summary import (
    charge_alerts,
    month_summary,
)
from models.billing.charges.tables import (
    KINDS,
    STATUSES,
    Charge,
    ChargeState,
    Payment,
)

__all__ = [
    "KINDS",
    "MONTH_RUN_LOCK",
    "STATUSES",
    "Candidate",
    "Charge",
    "ChargeState",
    "MonthPlan",
    "MonthRunBusy",
    "Payment",
    "await_payment",
    "cancel_charge",
    "charge_alerts",
    "charge_rows",
    "create_charge",
    "debts_of",
    "generate_month",
    "get_charge",
    "month_label",
    "month_summary",
    "open_charges_of_application",
    "parse_month",
    "payments_of",
    "plan_month",
    "record_payment",
    "return_deposit",
    "revocation_candidates",
]
