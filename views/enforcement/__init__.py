"""Fiscalização: record notices and infraction, seizure and interdiction records; defences and appeals;
seized goods and what is due to release them; fines for the dívida ativa.

Every act goes through :mod:`models.enforcement`, which checks it against the
regime and records it; the screen shows the sanction worked out step by step
with its articles and the deadlines with their dates before anything is
issued, and the domain's one-line refusal at the field or in the message line.

One module per dialog or tab: common (filters, labels, the overdue rows), adjust_dialog,
record_dialog, contest_dialogs (defence/appeal, decision, donation), records_tab, seizures_tab,
debt_tab, page (the page that holds the tabs).
"""

from views.enforcement.adjust_dialog import AdjustDialog
from views.enforcement.contest_dialogs import (
    ContestDialog,
    DecisionDialog,
)
from views.enforcement.page import EnforcementPage
from views.enforcement.record_dialog import RecordDialog
from views.enforcement.records_tab import RecordsTab

__all__ = [
    "AdjustDialog",
    "ContestDialog",
    "DecisionDialog",
    "EnforcementPage",
    "RecordDialog",
    "RecordsTab",
]
