"""Public prices charged: charges, payments, debts, fiscal units and the monthly fee report.

From the bottom up: :mod:`~models.billing.fiscal` (fiscal units and price indexes) → :mod:`~models.billing.pricing`
(the fee engine with this database's values) → :mod:`~models.billing.charges` (reads the permits' tables) →
:mod:`~models.billing.fee_report`. Billing sits above :mod:`models.permits` (but its issuing step) and below the
front desk (:mod:`models.services.front_desk`) and :mod:`models.services.issuing`, which read debts and open charges.
"""
