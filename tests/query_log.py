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


class Steps:
    """The GUI thread's statements step by step: ``with steps("criar a chave"): …``; ``gui`` maps each step to the
    screen lines that ran a statement on the GUI thread, ``worker`` to how many ran on a worker."""

    def __init__(self, queries):
        self.queries = queries
        self.gui: dict[str, list[str]] = {}
        self.worker: dict[str, int] = {}
        self._step = ""

    def __call__(self, step: str):
        self._step = step
        return self

    def __enter__(self):
        self.queries.entries.clear()
        self.queries.screens.clear()

    def __exit__(self, *exc):
        self.gui[self._step] = list(self.queries.screens)
        self.worker[self._step] = len(self.queries.entries) - len(self.queries.screens)
        return False

    def check(self) -> None:
        print({step: len(lines) for step, lines in self.gui.items()})
        left = {step: lines for step, lines in self.gui.items() if lines}
        assert not left, "\n".join(f"{step}: {line}" for step, lines in left.items() for line in dict.fromkeys(lines))
        assert all(self.worker.values()), self.worker  # each step did reach the database, on a worker


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
