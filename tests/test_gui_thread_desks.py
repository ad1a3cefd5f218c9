"""Issue 27 §5: no database on the GUI thread — every desk of the demo, every tab of it, its first row selected,
runs its reads on a worker thread (views/operations.py ``in_background``/``LatestQuery``)."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView, QTabWidget

from models.store.files import set_store


def _visit(widget, qtbot) -> None:
    """Every tab of every tab widget under ``widget``, the first row of every table shown selected."""
    for tabs in widget.findChildren(QTabWidget):
        for index in range(tabs.count()):
            if not tabs.isTabEnabled(index):
                continue
            tabs.setCurrentIndex(index)
            qtbot.wait(10)
            for table in tabs.widget(index).findChildren(QTableView):
                if table.isVisible() and table.model() is not None and table.model().rowCount() > 0:
                    table.selectRow(0)
                    qtbot.wait(10)


def test_no_desk_of_the_demo_reads_the_database_on_the_gui_thread(demo_database, app_ready, qtbot, tmp_path, queries):
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.wait(50)
    from models.rules import acts, holidays

    for desk in window.desks:
        acts.forget()  # the caches cold, as after another desk's change: their reads must not come back here
        holidays.forget()
        window.show_desk(desk.key)
        qtbot.wait(50)
        _visit(window.pages[desk.key], qtbot)
    assert queries.screens == [], "\n".join(dict.fromkeys(queries.screens))
    window.close()
