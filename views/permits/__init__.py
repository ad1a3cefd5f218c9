"""Permissões: find a permit as you type, see its term, renewal window and history, act on it.

Every act goes through :mod:`models.permits` (which checks and records it);
the screen asks for what the act needs (confirmation, reason, dates, the heir,
the other permit), shows the domain's one-line refusal in the message line and
then selects the permit that results (the new one after a renewal, a transfer
or an exchange).

The package: common (the acts, filters, colours, rows and columns the tab and dialogs share), dialogs
(history, leave, renewal, heir, exchange), tab (the tab itself).
"""

from views.permits.tab import PermitsTab

__all__ = [
    "PermitsTab",
]
