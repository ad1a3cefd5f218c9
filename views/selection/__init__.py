"""Seleção: the call and its participants, the public draw, the draws kept, and the holders' permits and stalls.

Every decision is the domain's: :mod:`models.services.calls` gathers the participants
(debts, scores line by line, payment time), :mod:`models.selection` makes the
list and its SHA-256, :mod:`models.selection.draws` holds and annuls the draw,
:mod:`reports.draw_ata` prints the ata. The screen shows what they say — the
article of each decision — and the domain's one-line refusals.

One module per tab: common (the helpers the tabs share), call_tab, draw_tab, draws_tab,
appeals_tab, rotation_tab, page (the page that holds the tabs).
"""

from views.selection.appeals_tab import AppealsTab
from views.selection.call_tab import CallTab
from views.selection.common import (
    MONO,
    date_edit,
    day_text,
    message_line,
    rich_label,
    set_up_table,
    when_text,
    write_publication,
)
from views.selection.draw_tab import DrawTab
from views.selection.draws_tab import DrawsTab
from views.selection.page import SelectionPage
from views.selection.rotation_tab import RotationTab

__all__ = [
    "MONO",
    "AppealsTab",
    "CallTab",
    "DrawTab",
    "DrawsTab",
    "RotationTab",
    "SelectionPage",
    "date_edit",
    "day_text",
    "message_line",
    "rich_label",
    "set_up_table",
    "when_text",
    "write_publication",
]
