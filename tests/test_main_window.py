"""The real main window, offscreen: desks, menus, title, settings, about, remembered state."""

from __future__ import annotations

import pytest
from conftest import run_modal, type_text
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLineEdit, QMessageBox

from models.demo import fill_demo
from models.store.bootstrap import open_database

DESKS = ["painel", "atendimento", "selecao", "mapas", "cobranca", "fiscalizacao", "relatorios", "cadastros"]


@pytest.fixture
def window(app_ready, qtbot, sqlite_database):
    QSettings().clear()
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_every_desk_is_reachable_by_click(window, qtbot):
    labels = [window.nav.item(i).text() for i in range(window.nav.count())]
    assert labels == [
        "Painel",
        "Atendimento",
        "Seleção",
        "Mapas",
        "Cobrança",
        "Fiscalização",
        "Relatórios",
        "Cadastros",
    ]
    for row, key in enumerate(DESKS):
        rect = window.nav.visualItemRect(window.nav.item(row))
        qtbot.mouseClick(window.nav.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert window.current_desk() == key
        assert window.stack.currentWidget() is window.pages[key]
        assert window.stack.currentWidget().isVisible()


def test_every_desk_is_reachable_by_keyboard(window, qtbot):
    for index, key in enumerate(DESKS):
        qtbot.keyClick(window, str(index + 1), Qt.KeyboardModifier.ControlModifier)
        assert window.current_desk() == key


def test_title_and_status_name_municipality_and_database(window, sqlite_url):
    assert "município não configurado" in window.windowTitle()
    fill_demo(people=5, companies=2)
    window.refresh()
    title = window.windowTitle()
    assert "Olímpia/SP" in title
    assert sqlite_url.removeprefix("sqlite:///") in title
    assert "Banco:" in window.db_label.text()
    home = window.pages["painel"]
    assert home.people.text() == "5"
    assert home.companies.text() == "2"


def test_municipality_tab_saves_and_retitles(window, qtbot):
    window.show_desk("cadastros")
    page = window.pages["cadastros"]
    page.tabs.setCurrentWidget(page.municipality_page)
    form = page.municipality_page
    form.name.clear()
    qtbot.keyClicks(form.name, "Ilha Comprida")
    form.state.setCurrentIndex(form.state.findText("SP"))
    qtbot.keyClicks(form.ibge, "3520426")
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert form.message.text() == "Município salvo: Ilha Comprida/SP."
    assert "Ilha Comprida/SP" in window.windowTitle()


def test_municipality_tab_refuses_empty_municipality(window, qtbot):
    form = window.pages["cadastros"].municipality_page
    form.name.clear()
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert form.error.text().startswith("Informe o nome do município.")
    assert "município não configurado" in window.windowTitle()


def test_about_dialog_lists_version_and_acts(window, qtbot):
    seen = {}

    def inspect():
        dialog = QApplication.activeModalWidget()
        seen["text"] = dialog.label.text()
        seen["close"] = dialog.buttons.button(QDialogButtonBox.StandardButton.Close).text()
        dialog.reject()

    QTimer.singleShot(0, inspect)
    window.action_about.trigger()
    assert "Praça" in seen["text"]
    assert "Atos carregados" in seen["text"]
    # Qt's own pt_BR translations are loaded: standard buttons speak Portuguese.
    assert seen["close"].replace("&", "") == "Fechar"


def test_last_desk_and_geometry_are_remembered(window, qtbot):
    window.show_desk("mapas")
    window.resize(1000, 650)  # the offscreen screen is small; Qt clamps restored geometry to it
    window.move(13, 17)
    qtbot.wait(10)
    closed_geometry = window.geometry()
    window.close()
    assert QSettings().value("window/desk") == "mapas"
    from desktop.main_window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.current_desk() == "mapas"
    # Width is clamped to the small offscreen screen; the height proves the restore
    # (a window without saved geometry opens 760 px high).
    assert again.height() == closed_geometry.height() == 650


def test_open_database_dialog_explains_a_bad_url(window, qtbot):
    from views.open_database import OpenDatabaseDialog

    dialog = OpenDatabaseDialog(window)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.url_edit, "mysql://x")
    dialog.accept()
    assert dialog.result() == 0
    assert "inválida" in dialog.error.text()


def test_switching_to_a_foreign_file_keeps_the_current_database(window, tmp_path, monkeypatch):
    bad = tmp_path / "planilha.xlsx"
    bad.write_bytes(b"PK\x03\x04 not a database")
    messages = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: messages.append(a[2]))
    before = window.windowTitle()
    assert window.switch_database(f"sqlite:///{bad}") is False
    assert messages and "não é um banco de dados do Praça" in messages[0]
    assert window.windowTitle() == before


def test_switching_database_retitles(window, tmp_path, monkeypatch):
    import views.login

    asked = []
    monkeypatch.setattr(views.login, "log_in_at_start", lambda parent, place="": asked.append(place) or True)
    other = f"sqlite:///{tmp_path / 'outro.sqlite3'}"
    assert window.switch_database(other)
    assert "outro.sqlite3" in window.windowTitle()
    assert asked == [other]  # a login there: the session of the database left does not follow


def test_backup_writes_a_copy(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from models.store.backup import read_backup

    fill_demo(people=3, companies=1)
    dest = tmp_path / "copia.praca-backup"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(dest), ""))
    window.action_backup.trigger()
    assert dest.exists()
    assert read_backup(dest).counts["person"] == 3


def test_painel_shows_todays_items_with_their_articles(app_ready, qtbot, demo_sqlite):
    import datetime as dt

    QSettings().clear()
    open_database(demo_sqlite)
    from desktop.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    home = window.pages["painel"]
    home.day = dt.date(2026, 11, 30)  # the demo's today
    home.refresh()
    texts = [home.today.item(i).text() for i in range(home.today.count())]
    assert texts and all(
        "art." in t for t in texts if "suspensão termina" not in t and "cobrança(s) vencida(s)" not in t
    )
    assert all("()" not in t for t in texts)


def test_the_application_keeps_files_in_the_users_data_folder(app_ready):
    from desktop.paths import data_dir, use_data_folder
    from models.store.files import store

    use_data_folder()
    assert store() == data_dir() / "files" and store().is_dir()


def test_the_logged_in_user_signs_documents_not_a_typed_name(window, qtbot):
    """Issue 16 §4: who acts comes from the session, never from free text."""
    from models.access import session
    from views.widgets import current_user_name

    form = window.pages["cadastros"].municipality_page
    type_text(form.name, "Olímpia")
    form.state.setCurrentIndex(form.state.findText("SP"))
    assert form.findChild(QLineEdit, "clerk_name") is None  # no name typed for this desk: the session's user
    qtbot.keyClick(form.name, Qt.Key.Key_Return)  # Enter saves
    assert form.message.text() == "Município salvo: Olímpia/SP."
    with session.acting_as(session.Session(7, "ana.souza", "Ana Souza", "atendente")):
        assert current_user_name() == "Ana Souza"
    with session.acting_as(None):
        assert current_user_name() == ""


def test_unexpected_errors_are_one_line_for_the_clerk():
    import peewee

    from desktop.errors import explain
    from models.base.errors import UserError

    assert explain(UserError("CPF inválido.")) == "CPF inválido."
    assert "ocupado por outra mesa" in explain(peewee.OperationalError("database is locked"))
    assert "conexão" in explain(peewee.InterfaceError("connection already closed"))
    # nothing in English reaches the clerk (issue 31 §5): the exception's own text goes to the log
    import re

    for failure in (
        peewee.InterfaceError("connection already closed"),
        peewee.DatabaseError("database disk image is malformed"),
        peewee.IntegrityError("NOT NULL constraint failed: permit.number"),
    ):
        said = explain(failure)
        assert "nada" in said.lower() and not {"connection", "malformed", "constraint"} & set(re.findall(r"\w+", said))
    unexpected = explain(RuntimeError("libshiboken: Internal C++ object (StallItem) already deleted."))
    assert "RuntimeError" not in unexpected and "StallItem" not in unexpected
    assert unexpected.startswith("Algo que o Praça não esperava")


def test_an_unexpected_error_is_a_portuguese_box_with_details_to_copy_and_the_logs_place(app_ready, qtbot, tmp_path):
    """The excepthook the window installs: the clerk reads what happened and what to do in Portuguese; the
    traceback is in the log file, whose place the box names, and "Copiar detalhes" puts it on the clipboard."""
    import sys

    from PySide6.QtWidgets import QAbstractButton, QLabel

    from desktop import app, errors

    try:
        raise RuntimeError("libshiboken: Internal C++ object (StallItem) already deleted.")
    except RuntimeError:
        kind, value, tb = sys.exc_info()
    previous = sys.excepthook
    log = errors.start_log(tmp_path)
    try:
        app._install_excepthook()
        seen = {}

        def read(dialog):
            seen["title"] = dialog.windowTitle()
            seen["texts"] = [label.text() for label in dialog.findChildren(QLabel)]
            seen["buttons"] = [button.text() for button in dialog.findChildren(QAbstractButton)]
            qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
            assert dialog.isVisible()  # copying does not close the box
            seen["copied"] = QApplication.clipboard().text()

        run_modal(lambda: sys.excepthook(kind, value, tb), read)
    finally:
        sys.excepthook = previous
        errors.stop_log()
    shown = " ".join([seen["title"], *seen["texts"], *seen["buttons"]])
    for english in ("RuntimeError", "libshiboken", "Internal", "deleted", "Traceback", "Close", "Copy"):
        assert english not in shown
    assert "Copiar detalhes" in seen["buttons"] and "Fechar" in seen["buttons"]
    assert any("Tente de novo" in text for text in seen["texts"])
    assert log == tmp_path / "praca.log" and any(str(log) in text for text in seen["texts"])
    assert "RuntimeError: libshiboken: Internal C++ object (StallItem) already deleted." in seen["copied"]
    assert "Praça " in seen["copied"] and "Traceback" in seen["copied"]
    written = log.read_text(encoding="utf-8")
    assert "erro inesperado" in written and "StallItem" in written


# --------------------------------------------------------------------------- start-up: the window first


def _starting_window(qtbot, url, **kwargs):
    from desktop.main_window import MainWindow

    QSettings().clear()
    win = MainWindow(opening=url, **kwargs)
    qtbot.addWidget(win)
    return win


def test_the_window_shows_before_the_database_opens_then_fills(app_ready, qtbot, sqlite_url):
    from models.store.bootstrap import close_database, open_database
    from models.store.db import current_url

    open_database(sqlite_url, create=True)
    fill_demo(people=5, companies=2)
    close_database()
    opened = []
    win = _starting_window(qtbot, sqlite_url, log_in=False, at_open=lambda: opened.append(current_url()))
    home = win.pages.built["painel"]  # the Painel's frame, built before any database is open
    assert current_url() is None and not win.nav.isEnabled() and not win.action_backup.isEnabled()
    assert home.today.item(0).text() == "Abrindo o banco de dados…"
    assert "abrindo o banco de dados" in win.windowTitle()
    with qtbot.waitSignal(win.started, timeout=10_000):
        win.show()  # its first paint opens the database
    assert [u.raw for u in opened] == [sqlite_url]  # the day's backup ran once it was open
    assert win.nav.isEnabled() and win.action_backup.isEnabled()
    assert home.people.text() == "5" and home.companies.text() == "2"
    assert "Olímpia/SP" in win.windowTitle()
    assert win.exit_code is None
    win.show_desk("cobranca")  # the other desks are built as before, now that there is a database
    assert win.stack.currentWidget() is win.pages["cobranca"]


def test_a_database_that_does_not_open_says_why_and_closes_the_window(
    app_ready, qtbot, tmp_path, no_blocking_message_boxes
):
    broken = tmp_path / "not-a-database.sqlite3"
    broken.write_bytes(b"this is not an SQLite file, only text " * 200)
    win = _starting_window(qtbot, f"sqlite:///{broken}", log_in=False)
    win.show()
    qtbot.waitUntil(lambda: win.exit_code is not None, timeout=10_000)
    assert win.exit_code != 0 and not win.isVisible()
    assert no_blocking_message_boxes and "banco de dados" in no_blocking_message_boxes[-1].lower()
    assert list(win.pages.built) == ["painel"]  # closing built no desk that needs a database


def test_giving_up_the_login_closes_the_window(app_ready, qtbot, sqlite_url, monkeypatch):
    import views.login
    from models.store.db import current_url

    asked = []
    monkeypatch.setattr(views.login, "log_in_at_start", lambda parent, place="": asked.append(place) or False)
    win = _starting_window(qtbot, sqlite_url)
    win.show()
    qtbot.waitUntil(lambda: win.exit_code is not None, timeout=10_000)
    assert asked == [sqlite_url] and win.exit_code == 0 and not win.isVisible()
    assert current_url() is not None and not win.nav.isEnabled()  # nothing of the database was shown


def test_a_failure_after_the_database_opens_closes_the_window_too(
    app_ready, qtbot, sqlite_url, monkeypatch, no_blocking_message_boxes
):
    import views.login
    from models.base.errors import UserError

    def broken(parent, place=""):
        raise UserError("O banco de dados está ocupado por outra mesa.")

    monkeypatch.setattr(views.login, "log_in_at_start", broken)
    win = _starting_window(qtbot, sqlite_url)
    win.show()
    qtbot.waitUntil(lambda: win.exit_code is not None, timeout=10_000)
    assert win.exit_code == UserError("x").exit_code != 0 and not win.isVisible() and not win.nav.isEnabled()
    assert "ocupado por outra mesa" in no_blocking_message_boxes[-1]


def test_the_window_module_imports_no_database_layer():
    """What the window needs to show itself: no peewee, no model (start-up; see bench/startup.py)."""
    import subprocess
    import sys

    code = (
        "import sys\nimport desktop.app, desktop.main_window, views.home\n"
        "print(sorted(m for m in sys.modules if m == 'peewee' or m.startswith('models.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['models.base', 'models.base.errors']"


def test_a_window_started_minimized_opens_its_database_all_the_same(app_ready, qtbot, sqlite_url):
    win = _starting_window(qtbot, sqlite_url, log_in=False)
    with qtbot.waitSignal(win.started, timeout=10_000):
        win.showMinimized()  # on a desktop no paint comes while minimized: showing it is enough
        assert not win._start_pending  # the start is on its way before any paint
    assert win.nav.isEnabled()


def test_at_start_only_the_open_runs_on_the_gui_thread_and_under_a_modal_progress(
    app_ready, qtbot, sqlite_url, tmp_path, monkeypatch, queries
):
    """Issue 27 §5: starting the window — the database opened, the day's backup, the first administrator's login,
    the Painel filled — runs no statement on the GUI thread but the open itself, which stays there (peewee's
    connection per thread: the open sets up the window's own) under a modal "Abrindo o banco de dados…" while the
    desks are disabled (desktop/main_window.py ``_open_under_progress``)."""
    from conftest import type_text
    from PySide6.QtWidgets import QApplication, QProgressDialog

    import desktop.main_window as main_window
    from desktop import app, paths
    from models.access import session
    from models.store.bootstrap import close_database, open_database

    open_database(sqlite_url, create=True)
    close_database()
    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    real, shown = main_window.open_database, []

    def spy(url, *, create=False):
        shown.append([d.labelText() for d in QApplication.topLevelWidgets() if isinstance(d, QProgressDialog)])
        return real(url, create=create)

    monkeypatch.setattr(main_window, "open_database", spy)
    queries.entries.clear()
    queries.screens.clear()
    win = _starting_window(qtbot, sqlite_url, at_open=app.daily_backup_at_start)

    from PySide6.QtCore import QTimer

    from views.login import FirstAdminDialog

    def first_admin():  # the new database's first administrator, typed once the dialog shows
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, FirstAdminDialog):
            timer.start(10)
            return
        type_text(dialog.name, "Joana Prefeitura")
        type_text(dialog.password, "senha-forte-123")
        type_text(dialog.confirm, "senha-forte-123")
        dialog.accept()

    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(first_admin)
    timer.start(0)
    try:
        with qtbot.waitSignal(win.started, timeout=20_000):
            win.show()  # its first paint opens the database
        timer.stop()
        assert shown and all("Abrindo o banco de dados…" in labels for labels in shown)
        assert session.current() is not None and session.current().username == "admin"
        assert list((tmp_path / "backups").glob("auto-praca-*.praca-backup"))  # the day's backup, on a worker
        left = [
            line for line in queries.screens if "_open_under_progress" not in line and " open_database:" not in line
        ]
        assert queries.entries and left == [], "\n".join(dict.fromkeys(left))
    finally:
        session.log_out()
        win.close()
