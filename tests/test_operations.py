"""views/operations.py: background work and its one cancellation type (issue 27 §4)."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from models.base.errors import Cancelled


def test_one_cancellation_type_from_the_domain_to_the_screen(qtbot):
    """The clerk's Cancelar and a domain step that stops (a report's progress callback) raise the same
    ``Cancelled``: a screen catches one type, whatever stopped the work."""
    from views import operations

    parent = QWidget()
    qtbot.addWidget(parent)

    def domain_stops(progress):
        progress(0, 2)
        raise Cancelled()

    with pytest.raises(Cancelled):
        operations.run_operation(parent, "Gerando…", domain_stops)

    reached = []

    def long_work(progress):
        for done in range(500):
            progress(done, 500)
            reached.append(done)
            time.sleep(0.002)
        return "terminou"

    QTimer.singleShot(0, lambda: operations.current.dialog.cancel())
    with pytest.raises(Cancelled):
        operations.run_operation(parent, "Gerando…", long_work, show_after_ms=0)
    assert len(reached) < 500
