"""Calls (chamamentos): who takes part in a selection, and what a held draw turns into.

The Seleção page asks this module, never the tables:

* **The call** — a regime, a place (one of the act's ``[[sites]]``, a site of
  ``models/sites/__init__.py`` or a place typed by hand) and a group or line — gathers
  the applications of that regime in analysis, approved or awaiting payment
  (:data:`ELIGIBLE_STATUSES`) as :class:`Candidate` records: the
  ``models.selection.Participant`` that enters the draw, the applicant's debts
  with the municipality (``models.billing.charges.debts_of``: ``debtor`` is set from
  them, and where the regime's ``selection.exclude`` holds ``"debtors"`` —
  Sapezal, Lei 1.171/2014, art. 12, I — the candidate is left out with the
  article), the socio-economic score line by line and the rank within the
  group (Sapezal art. 10, §§ 2º–3º), and the time of payment (São Bento,
  Dec. 4.794/2026, art. 3º, § 2º).
* **Payment time** (:func:`payment_time`): the application's charges (not
  cancelled) must all be paid; the moment is the last payment's. Praça keeps
  the day of a payment (``Payment.paid_on``) and the moment it was recorded
  (``recorded_at``): a payment recorded on the day it was made takes the time
  it was recorded; one recorded on a later day has no known time of day and
  takes the end of that day (23:59:59), so it never passes ahead of a payment
  of the same day whose time is known. The text says which reading was used.
* **After the draw** — the holders in order of choice (:func:`draw_holders`),
  their permits (:func:`issue_holder_permits`, through
  ``models.permits.issue_permit``) and their stalls (:func:`stall_choices`,
  :func:`assign_stalls`, through ``models.sites.assign_holder``): holder 1
  chooses first (Sapezal art. 12, § 1º; São Bento art. 3º, I).

The package: :mod:`options` (the call's options and text, when a payment counts), :mod:`candidates` (a
call's list, its order and ranks), :mod:`draws` (the draws held as rows) and :mod:`holders` (the winners'
permits and stalls).
"""

from __future__ import annotations

from models.services.calls.candidates import (
    CallList,
    call_list,
)
from models.services.calls.draws import (
    draw_rows,
)
from models.services.calls.holders import (
    StallChoice,
    assign_stalls,
    draw_holders,
    draw_sites,
    issue_holder_permits,
    stall_choices,
)
from models.services.calls.options import (
    default_call_text,
    group_options,
    method_text,
    payment_time,
    selection_regimes,
    site_options,
)

__all__ = [
    "CallList",
    "StallChoice",
    "assign_stalls",
    "call_list",
    "default_call_text",
    "draw_holders",
    "draw_rows",
    "draw_sites",
    "group_options",
    "issue_holder_permits",
    "method_text",
    "payment_time",
    "selection_regimes",
    "site_options",
    "stall_choices",
]
