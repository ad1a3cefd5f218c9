"""Issue 18 §1: every desk, every tab, every map and every dialog fits a 1366×768 screen with its taskbar —
nothing outside the window, no button or label cut off (see fitcheck.py). The demo is built once for the module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import searched
from fitcheck import ROOM, collisions, fit, problems
from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtWidgets import QApplication, QDialog, QTabWidget

#: PRACA_FIT_SHOTS=<folder>: the dialogs saved there as PNG, to look at
SHOTS = Path(os.environ["PRACA_FIT_SHOTS"]) if os.environ.get("PRACA_FIT_SHOTS") else None


@pytest.fixture(scope="module")
def demo_window(tmp_path_factory, qapp, _demo_sqlite_template):
    """The main window on the demo database, as large as the screen's room; built once for every test here."""
    from demo_db import copy_demo

    from desktop.app import ensure_app
    from desktop.main_window import MainWindow
    from models.store.bootstrap import close_database, open_database

    ensure_app()
    QSettings().clear()
    open_database(copy_demo(_demo_sqlite_template, tmp_path_factory.mktemp("fit")))
    window = MainWindow()
    window.resize(ROOM)
    window.show()
    QApplication.processEvents()
    yield window
    window.close()
    window.deleteLater()
    close_database()


@pytest.fixture
def room(monkeypatch):
    """The screen every window measures itself against: 1366×768 less the taskbar."""
    import views.fit

    monkeypatch.setattr(views.fit, "screen_room", lambda _widget=None: QSize(ROOM))
    return ROOM


def _tabs_shown(widget):
    """Walk every tab of every tab widget under ``widget`` (nested ones too), yielding a label for each."""
    tabs = [t for t in widget.findChildren(QTabWidget) if t.isVisibleTo(widget)]
    if not tabs:
        yield ""
        return
    outer = tabs[0]
    for index in range(outer.count()):
        outer.setCurrentIndex(index)
        QApplication.processEvents()
        yield outer.tabText(index)
        for inner in outer.widget(index).findChildren(QTabWidget):
            if inner.isVisibleTo(widget):
                for sub in range(inner.count()):
                    inner.setCurrentIndex(sub)
                    QApplication.processEvents()
                    yield f"{outer.tabText(index)} → {inner.tabText(sub)}"


#: 1280×720 less the taskbar and the title bar: the smaller screen the issue names.
SMALL = QSize(1280 - 16, 720 - 40 - 40)


@pytest.mark.parametrize("screen", [ROOM, SMALL], ids=["1366x768", "1280x720"])
def test_the_window_and_every_desk_fit_and_no_two_mnemonics_collide(demo_window, room, screen):
    window = demo_window
    window.resize(screen)
    QApplication.processEvents()
    found = []
    for desk in window.desks:
        window.show_desk(desk.key)
        QApplication.processEvents()
        for tab in _tabs_shown(window.pages[desk.key]):
            hint = window.minimumSizeHint()
            if hint.width() > screen.width() or hint.height() > screen.height():
                found.append(f"{desk.key} {tab}: the window needs {hint.width()}×{hint.height()}")
            found += [f"{desk.key} {tab}: {p}" for p in problems(window, screen)]
            if screen == ROOM:
                found += [f"{desk.key} {tab}: two mnemonics {p}" for p in collisions(window)]
    window.resize(ROOM)
    QApplication.processEvents()
    assert found == [], "\n".join(found)


def test_every_map_fits_with_its_tools_legend_and_scale(demo_window, room):
    window = demo_window
    window.show_desk("mapas")
    page = window.pages["mapas"]
    found = []
    for row in list(page.model.rows):
        page.select_site(row.id)
        QApplication.processEvents()
        assert not page.table.isVisible(), "an open map takes the sites' list's room"
        found += [f"{row.name}: {p}" for p in problems(window)]
        if page.stack.currentWidget() is page.editor:
            editor = page.editor
            for bar in (editor.tools.toolbar, editor.tools.edit_tools, editor.tools.view_tools):
                hidden = [a.text() for a in bar.actions() if a.isVisible() and not bar.widgetForAction(a).isVisible()]
                assert hidden == [], f"{row.name}: {hidden} hidden behind the toolbar's »"
            legend, scale = editor.view.legend, editor.view.scale_bar
            assert not legend.geometry().intersects(scale.geometry()), f"{row.name}: the legend covers the scale"
    page.list_button.click()
    assert page.table.isVisible()
    found += [f"list shown: {p}" for p in problems(window)]
    assert found == []


class Opened:
    """Every dialog a desk opens, kept instead of run (``exec`` returns Rejected at once)."""

    def __init__(self, monkeypatch):
        self.dialogs: list[QDialog] = []
        monkeypatch.setattr(QDialog, "exec", lambda dialog: self._keep(dialog))

    def _keep(self, dialog) -> int:
        self.dialogs.append(dialog)
        return 0

    def check(self) -> list[str]:
        found = []
        for dialog in self.dialogs:
            name = f"{type(dialog).__name__} {dialog.windowTitle()!r}"
            opened = dialog.size() if dialog.testAttribute(Qt.WidgetAttribute.WA_Resized) else dialog.sizeHint()
            if opened.width() > ROOM.width() or opened.height() > ROOM.height():
                found.append(f"{name} opens at {opened.width()}×{opened.height()}")
            found += [f"{name}: {p}" for p in fit(dialog)]
            found += [f"{name}: two mnemonics {p}" for p in collisions(dialog)]
            if os.environ.get("PRACA_FIT_KEYS"):
                from fitcheck import mnemonics

                print(name, "".join(sorted(mnemonics(dialog))))
            dialog.close()
        return found


def _select_first(table) -> None:
    table.selectRow(0)
    QApplication.processEvents()


def test_every_dialog_fits_and_no_two_mnemonics_collide(demo_window, room, monkeypatch, qtbot):
    window = demo_window
    opened = Opened(monkeypatch)
    # the front desk: a person, a company, an application; a permit's dialogs
    desk = window.pages["atendimento"]
    window.show_desk("atendimento")
    desk.search.register("person")
    desk.search.register("company")
    desk.search.query.setText("a")
    desk.search.search()
    searched(qtbot, desk.search)
    _select_first(desk.search.table)
    desk.search.edit_selected()
    desk.search.start_application()
    desk.worklist.refresh()
    _select_first(desk.worklist.table)
    desk.worklist.open_selected()
    permits = desk.permits
    permits.refresh()
    _select_first(permits.table)
    permits.acts.open_history()
    permits.acts.leave_selected()
    permits.acts.renew_with_documents()
    permits.acts.transfer_selected()
    permits.acts.exchange_selected()
    # maps: a new site and the demo's feira
    maps = window.pages["mapas"]
    maps.new_site()
    maps.select_site(maps.model.rows[0].id)
    maps.edit_site()
    # billing: the month's plan, a payment
    billing = window.pages["cobranca"]
    billing.charges.generate()
    month = billing.charges.month
    for index in range(month.count()):  # a month of the demo's with charges
        month.setCurrentIndex(index)
        billing.charges.refresh_rows()
        payable = [i for i, r in enumerate(billing.charges.model.rows) if r.status != "cancelled"]
        if payable:
            billing.charges.table.selectRow(payable[0])
            break
    billing.charges.pay_selected()
    # enforcement: a new record, a contest, the sanctions
    records = window.pages["fiscalizacao"].records
    records.refresh()
    records.new_record()
    _select_first(records.table)
    records.contest_selected("defence")
    records.correct_selected()
    # registry: a user; the window's own dialogs
    window.pages["cadastros"].users.new_user()
    window.open_database_dialog()
    window.import_dialog()
    window.show_about()
    opened.dialogs.append(window.open_first_steps())  # not modal: beside the window (issue 31 §3)
    opened.dialogs.append(window.show_help())
    from views.login import FirstAdminDialog, LoginDialog

    for dialog in (LoginDialog(window, place="praca.sqlite3"), FirstAdminDialog(window)):
        opened.dialogs.append(dialog)
    if SHOTS:
        for dialog in opened.dialogs:
            fit(dialog)
            dialog.grab().save(str(SHOTS / f"{type(dialog).__name__}-{opened.dialogs.index(dialog)}.png"))
    kinds = {type(d).__name__ for d in opened.dialogs}
    assert {
        "PersonDialog",
        "CompanyDialog",
        "ApplicationDialog",
        "HistoryDialog",
        "SiteFormDialog",
        "GenerateDialog",
        "PaymentDialog",
        "RecordDialog",
        "UserDialog",
        "OpenDatabaseDialog",
        "ImportDialog",
        "AboutDialog",
        "ApplicationView",
        "LoginDialog",
        "FirstAdminDialog",
        "FirstStepsDialog",
        "HelpWindow",
    } <= kinds, kinds
    found = opened.check()
    assert found == [], "\n".join(found)


def test_a_cell_its_column_cuts_short_shows_its_whole_text_on_hover(demo_window, qtbot):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    window = demo_window
    window.show_desk("atendimento")
    worklist = window.pages["atendimento"].worklist
    window.pages["atendimento"].tabs.setCurrentWidget(worklist)
    worklist.refresh()
    table = worklist.table
    assert worklist.model.rowCount() > 0
    table.setColumnWidth(3, 40)  # Permissão: "Licença de Funcionamento …" in 40 px
    QApplication.processEvents()
    index = worklist.model.index(0, 3)
    whole = index.data()
    spot = table.visualRect(index).center()
    QApplication.sendEvent(table.viewport(), QHelpEvent(QEvent.Type.ToolTip, spot, table.viewport().mapToGlobal(spot)))
    assert QToolTip.text() == whole
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible())
    table.resizeColumnToContents(3)
    QApplication.processEvents()
    spot = table.visualRect(index).center()
    QApplication.sendEvent(table.viewport(), QHelpEvent(QEvent.Type.ToolTip, spot, table.viewport().mapToGlobal(spot)))
    assert not QToolTip.isVisible()  # whole already: no tooltip repeats it
