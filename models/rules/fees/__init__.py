"""The fee engine: prices a stall from a regime, line by line — pure functions.

Every :class:`QuoteLine` carries its amount (rounded once, to the cent,
``ROUND_HALF_UP``), the formula with the values substituted in pt-BR decimal
style (``"5,50 × 38,42 × 4,00 × (1 − 0,30)"``) and the full citation of the
article it comes from (``"Dec. 4.794/2026, art. 9º, § 2º; art. 9º, § 3º, I"``).
No rule of a town lives here: every fee is priced as its formula (docs/regime-format.md); a fee of an older
kind is read as its formula (``models.rules.regimes.legacy_fees``).

Monetary correction (``index_factors``): a fee with ``index = "INPC"`` is
written in values of the index's ``base_year``. To price it in a later year the
caller passes ``index_factors={"INPC": Decimal("1.4321")}`` — the accumulated
correction factor from ``base_year`` to the year asked, which the clerk's index
table computes (product of ``1 + yearly variation``). The engine multiplies the
nominal rate by the factor, unrounded, and rounds the line once. Without the
factor, a year after ``base_year`` is refused with a message: Praça never
charges an uncorrected value, nor guesses the index.

The package's modules: :mod:`.results` (``Quote``, ``QuoteLine``), :mod:`.inputs` (the caller's inputs,
checked, and the pieces of a line's text), :mod:`.units` (``price_units``), :mod:`.formula` (a formula fee's line),
:mod:`.needs` (what a fee asks for), :mod:`.engine` (``fee_quote``). This module re-exports the public names.
"""

from __future__ import annotations

from models.rules.fees.engine import fee_quote
from models.rules.fees.inputs import (
    amount_value,
)
from models.rules.fees.results import (
    Quote,
    QuoteLine,
)
from models.rules.fees.units import price_units

__all__ = [
    "Quote",
    "QuoteLine",
    "amount_value",
    "fee_quote",
    "price_units",
]
