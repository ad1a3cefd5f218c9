"""Public prices charged: charges, payments, debts, fiscal units and the monthly fee report."""
