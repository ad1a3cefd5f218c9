"""What changed: every write the audit trail records is announced here by its table, and whoever listens (the
window's desks) knows its lists are out of date — one change signal from the domain to every screen, as Anki's
``operation_did_execute``. No Qt: a listener is any callable, held weakly so a closed window is let go.

:func:`models.store.audit.stamp` is the trail's last entry: a desk that saw one stamp and finds another knows that
something changed since, on this desk or on another one sharing the database (PostgreSQL).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable

_log = logging.getLogger(__name__)

_listeners: list = []


def subscribe(listener: Callable[[str], None]) -> None:
    """Call ``listener(table_name)`` after each audited write; a bound method is held weakly."""
    ref = weakref.WeakMethod(listener) if hasattr(listener, "__self__") else (lambda: listener)
    _listeners.append(ref)


def announce(table_name: str) -> None:
    """A row of ``table_name`` was written (called by the audit trail, :func:`models.store.audit.append`)."""
    for ref in list(_listeners):
        listener = ref()
        if listener is None:
            _listeners.remove(ref)
            continue
        try:
            listener(table_name)
        except Exception:  # any: a screen that fails to take note never undoes the write it heard of
            _log.exception("a listener of %s failed", table_name)
