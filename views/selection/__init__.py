"""Seleção: the call and its participants, the public draw, the draws kept, and the holders' permits and stalls.

Every decision is the domain's: :mod:`models.services.calls` gathers the participants
(debts, scores line by line, payment time), :mod:`models.selection` makes the
list and its SHA-256, :mod:`models.selection.draws` holds and annuls the draw,
:mod:`reports.draw_ata` prints the ata. The screen shows what they say — the
article of each decision — and the domain's one-line refusals.

One module per tab: common (the helpers the tabs share), call_tab, draw_tab, draws_tab,
appeals_tab, rotation_tab, page (the page that holds the tabs).
"""

from views.selection.page import SelectionPage

__all__ = [
    "SelectionPage",
]
