"""What changed: every write the audit trail records is announced here by its table, and whoever listens (the
window's desks) knows its lists are out of date — one change signal from the domain to every screen, as Anki's
``operation_did_execute``. No Qt: a listener is any callable, held weakly so a closed window is let go.

:func:`models.store.audit.stamp` is the trail's last entry: a desk that saw one stamp and finds another knows that
something changed since, on this desk or on another one sharing the database (PostgreSQL).
"""

from __future__ import annotations

import logging
import os
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


# -- desks hearing each other on PostgreSQL (issue 27 §5) ----------------------------------------------------------

#: The channel every Praça desk of a PostgreSQL database notifies and listens on; the payload names the schema,
#: the desk (this process) and the table written: ``"schema desk table"``.
CHANNEL = "praca_changes"

#: This desk: its own notifications come back to it and are not news (it announced them already).
DESK = os.urandom(8).hex()  # not uuid: it imports platform, ~10 ms of the start-up


def notify(database, *table_names: str) -> None:
    """Tell the other desks sharing ``database`` (PostgreSQL) that ``table_names`` were written, in one statement
    (:func:`models.store.audit.append` sends them once the transaction that wrote them has committed)."""
    database.execute_sql(
        "SELECT pg_notify(%s, current_schema() || ' ' || %s || ' ' || t) FROM unnest(%s) AS t",
        (CHANNEL, DESK, list(table_names)),
    )


class Listener:
    """The tables other desks wrote, heard on a connection of its own that only listens (``LISTEN``): its
    :meth:`fileno` becomes readable when a notice arrives — a window watches it without a timer nor a query —
    and :meth:`take` returns the tables named since, this desk's own notices and other schemas' left out."""

    def __init__(self, database) -> None:
        import psycopg2  # type: ignore[import-untyped]

        self.connection = psycopg2.connect(dbname=database.database, **database.connect_params)
        self.connection.autocommit = True
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            self.schema = cursor.fetchone()[0]
            cursor.execute(f"LISTEN {CHANNEL}")

    def fileno(self) -> int:
        return self.connection.fileno()

    def take(self) -> set[str]:
        self.connection.poll()
        tables: set[str] = set()
        while self.connection.notifies:
            notice = self.connection.notifies.pop(0)
            schema, desk, table = [*notice.payload.split(" ", 2), "", ""][:3]
            if schema == self.schema and desk != DESK and table:
                tables.add(table)
        return tables

    def close(self) -> None:
        self.connection.close()


def listen() -> Listener | None:
    """A :class:`Listener` on the open database when it is PostgreSQL (``None`` on SQLite, or when no database
    is open: one desk per file, nothing to hear)."""
    from peewee import PostgresqlDatabase

    from models.store.db import db

    if not isinstance(db.obj, PostgresqlDatabase):
        return None
    return Listener(db.obj)
