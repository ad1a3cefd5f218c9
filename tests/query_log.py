"""The SQL statements peewee runs, each with its thread — and, on the GUI thread, the screen's line that asked for
it (issue 27 §5: no database on the GUI thread). The ``queries`` fixture (conftest) installs one for a test."""

from __future__ import annotations

import logging
import threading
import traceback


class QueryLog(logging.Handler):
    """Every SQL statement peewee runs, with the thread that ran it."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.entries: list[tuple[str, str]] = []
        self.screens: list[str] = []  # the GUI thread's statements, each after the views/desktop line that ran it

    def emit(self, record):
        name = threading.current_thread().name
        self.entries.append((name, str(record.msg)))
        if threading.current_thread() is threading.main_thread():
            lines = [f for f in traceback.extract_stack() if "/views/" in f.filename or "/desktop/" in f.filename]
            where = f"{lines[-1].filename.rsplit('/', 2)[-1]}:{lines[-1].lineno} {lines[-1].name}" if lines else "?"
            self.screens.append(f"{where}: {str(record.msg)[:80]}")

    def on_gui_thread(self) -> list[str]:
        return [sql for name, sql in self.entries if name == "MainThread"]


def installed():
    """A :class:`QueryLog` on peewee's logger until the generator resumes (a fixture's body)."""
    log = logging.getLogger("peewee")
    handler, level = QueryLog(), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
