"""Shared fixtures: headless Qt, isolated user folders, a fresh database per test.

Database tests take the ``database`` (or ``db_url``) fixture and run once on
SQLite and, when ``PRACA_TEST_PG`` holds a URL, once more on PostgreSQL in a
schema of their own. ``database`` is a copy of an empty database made once per
session (tests/db_templates.py); ``db_url`` is a URL where nothing exists yet.
Under ``CI=true`` an unreachable PostgreSQL fails the run instead of skipping.

The suite runs in parallel (pytest-xdist, ``make test``): each worker has its own
user folders, its own empty templates (the demos are the run's: tests/demo_db.py) and
its own PostgreSQL schemas; the markers of
tests that start other programs are set here from what they use (tests/loop.py).
"""

from __future__ import annotations

import os
import tempfile
import uuid

# Before anything imports Qt: no screen, and user folders that are the test run's own.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="praca-test-home-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_HOME, _var.lower())
os.environ.pop("PRACA_DB", None)
os.environ.pop("PRACA_DATA", None)  # the desk's shared data folder (desktop/paths.py): each test sets its own
# Every PostgreSQL session this process (and the commands it starts) opens is named after it: a schema's drop ends
# only this process's idle sessions, never another xdist worker's or another run's on the same server.
os.environ["PGAPPNAME"] = f"praca-test-{os.getpid()}"
# The municipality's signing passphrase never reaches the developer's own keyring, nor comes from it.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
os.environ.pop("PRACA_SIGNING_PASSPHRASE", None)

import loop  # noqa: E402
import pytest  # noqa: E402
from db_templates import _empty_sqlite_template, _pg_schema_pool, copy_empty_sqlite, pooled_schema  # noqa: E402,F401
from demo_db import (  # noqa: E402,F401
    _demo_pg_template,
    _demo_sqlite_template,
    _town_demo_pg_templates,
    _town_demo_templates,
    demo_database,
    demo_sqlite,
    town_demo,
)

loop.load_hypothesis_profile()

# The builders' fixtures (keys, inpc, feira, editor, fresh_desk) for every test module, which takes them by name
# without importing them (tests/factories.py).
pytest_plugins = ["factories"]

PG_URL = os.environ.get("PRACA_TEST_PG", "").strip()
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Markers from what each test uses, xdist groups, hypothesis's examples for the profile (tests/loop.py). First:
    pytest-xdist's worker reads the ``xdist_group`` markers in its own hook, registered after this one and so called
    before it — the groups set here were never seen, and each worker made the module-scoped fixtures again."""
    loop.modify_items(config, items)


def pytest_sessionfinish(session):
    """The run's shared PostgreSQL templates (the demo's schema, tests/demo_db.py) are dropped once every worker is
    done: by the process that started them, or by the only one."""
    if PG_URL and not hasattr(session.config, "workerinput"):
        from db_templates import drop_shared_schemas
        from demo_db import shared_folder

        drop_shared_schemas(shared_folder(session.config._tmp_path_factory))


def _pg_admin():
    import psycopg2

    from models.store.db import parse_url

    target = parse_url(PG_URL)
    return psycopg2.connect(
        dbname=target.dbname,
        user=target.user,
        password=target.password,
        host=target.host,
        port=target.port,
        connect_timeout=5,
    )


@pytest.fixture(scope="session")
def pg_available() -> bool:
    if not PG_URL:
        return False
    try:
        conn = _pg_admin()
    except Exception as exc:  # any failure to reach the server
        if IN_CI:
            pytest.fail(f"PRACA_TEST_PG={PG_URL} is unreachable under CI: {exc}")
        return False
    conn.close()
    return True


@pytest.fixture(scope="session")
def need_client():
    """``need_client("libreoffice|soffice", "pdftotext")``: the path of each program (the first of its
    alternatives found), or a skip naming the missing one — a failure under ``CI=true``, where .ci/run installs
    them (LibreOffice, poppler-utils, zbar-tools, Chromium)."""
    import shutil

    def need(*programs: str) -> list[str]:
        found = []
        for alternatives in programs:
            path = next((p for p in (shutil.which(n) for n in alternatives.split("|")) if p), None)
            if path is None:
                message = f"{alternatives.replace('|', ' ou ')} ausente"
                if IN_CI:
                    pytest.fail(f"{message}: .ci/run should have installed it")
                pytest.skip(message)
            found.append(path)
        return found

    return need


@pytest.fixture
def pg_schema_url(pg_available):
    """A URL to an empty PostgreSQL schema of this test's own; dropped afterwards."""
    if not pg_available:
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    name = f"praca_t_{uuid.uuid4().hex[:12]}"
    conn = _pg_admin()
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'CREATE SCHEMA "{name}"')
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}schema={name}"
    finally:
        from models.store.bootstrap import close_database

        _stop_widget_timers()
        close_database()
        _drop_schema(conn, name)
        conn.close()


def _stop_widget_timers() -> None:
    """A debounced search (a single-shot QTimer) or a search running off the GUI thread (views.operations.
    LatestQuery) a test left pending would query a database that is gone."""
    try:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        from views.operations import LatestQuery
    except ImportError:  # pragma: no cover
        return
    if QApplication.instance() is None:
        return
    import gc

    # no collection while the widgets are walked: a Python-owned dialog collected half-way deletes its C++ children,
    # and a widget of the list fetched before would then be a dangling pointer (a segfault, depending on GC timing)
    gc.disable()
    try:
        for widget in QApplication.allWidgets():
            for timer in widget.findChildren(QTimer):
                if timer.isActive() and timer.isSingleShot():
                    timer.stop()
            for query in widget.findChildren(LatestQuery):
                query.stop()
    finally:
        gc.enable()


def _drop_schema(conn, name: str) -> None:
    """Drop a test's schema. A Qt timer of the test may have reopened the connection after the test and be
    holding a lock on its tables: such idle sessions are ended and the drop tried again; a schema that still
    cannot go is left behind (named praca_t_…, harmless) rather than failing a test that passed."""
    import warnings

    for attempt in range(2):
        try:
            with conn.cursor() as cur:
                cur.execute("SET lock_timeout = '5s'")
                cur.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
            return
        except Exception as exc:  # any server refusal
            if attempt:
                warnings.warn(f"schema {name} left behind: {exc}", stacklevel=2)
                return
            with conn.cursor() as cur:
                cur.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                    "current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle%%' "
                    "AND application_name = %s",
                    (os.environ["PGAPPNAME"],),
                )


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """An empty database URL, on each back end."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'praca.sqlite3'}"
        from models.store.bootstrap import close_database

        _stop_widget_timers()
        close_database()
    else:
        yield request.getfixturevalue("pg_schema_url")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """An open, current, empty Praça database on each back end: a copy of the session's empty template — the file
    on SQLite, a schema of the worker's pool on PostgreSQL (tests/db_templates.py)."""
    from models.store.bootstrap import open_database

    if request.param == "sqlite":
        yield from _open_empty_sqlite(tmp_path, request.getfixturevalue("_empty_sqlite_template"))
        return
    if not request.getfixturevalue("pg_available"):
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    with pooled_schema(request.getfixturevalue("_pg_schema_pool")) as url:
        open_database(url)
        yield url


@pytest.fixture
def sqlite_database(request, tmp_path):
    """The empty database of ``database``, on SQLite only, open: its URL — for a window, a command or a file whose
    back end cannot matter (the copy of a template, instead of ``open_new_database(sqlite_url)``'s new schema)."""
    yield from _open_empty_sqlite(tmp_path, request.getfixturevalue("_empty_sqlite_template"))


def _open_empty_sqlite(tmp_path, template):
    from models.store.bootstrap import close_database, open_database

    url = f"sqlite:///{tmp_path / 'praca.sqlite3'}"
    copy_empty_sqlite(template, url)
    open_database(url)
    try:
        yield url
    finally:
        _stop_widget_timers()
        close_database()


@pytest.fixture
def sqlite_url(tmp_path):
    from models.store.bootstrap import close_database

    yield f"sqlite:///{tmp_path / 'praca.sqlite3'}"
    close_database()


@pytest.fixture
def app_ready(qapp):
    """The QApplication set up as Praça sets it up (names, icon, pt_BR translations)."""
    from desktop.app import ensure_app

    ensure_app()
    return qapp


def type_text(widget, text: str) -> None:
    """Type ``text`` into ``widget`` key by key, accents included.

    ``QTest.keyClicks`` asserts on anything outside ASCII (Qt's qasciikey.cpp),
    so each character is sent as the key event a keyboard would produce.
    """
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    for char in text:
        if char.isascii():
            QTest.keyClick(widget, char)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, char))


@pytest.fixture(autouse=True)
def system_session():
    """Each test acts as the system: nobody logged in may do nothing (``models.access.session``). Tests of the login
    and of deny-by-default run inside ``session.acting_as(None)``; the command line keeps a session it finds."""
    from models.access import session, users

    session.log_in(session.SYSTEM)
    users.pause, pause = (lambda seconds: None), users.pause  # a failed login's delay: no test waits for it
    from models.store import backup

    backup.forget_pending()  # no test sees another's unsigned automatic backup (the Painel's notice)
    yield
    users.pause = pause
    session.log_out()


@pytest.fixture(autouse=True)
def fresh_file_folders():
    """Each test's file dialogs start in Documents: the folder an earlier test chose is not remembered
    (views.save keeps the last folder per kind of file in the settings)."""
    yield
    from PySide6.QtCore import QSettings

    QSettings().remove("files/last-folder")


@pytest.fixture(autouse=True)
def no_blocking_message_boxes(monkeypatch):
    """A modal message box would wait forever offscreen: answer it (Discard/Yes/Ok) and keep what it said.

    Tests that care about the answer patch ``QMessageBox.question`` themselves.
    """
    from PySide6.QtWidgets import QMessageBox

    said: list[str] = []
    buttons = QMessageBox.StandardButton

    def box(*args, **kwargs):
        said.append(args[2] if len(args) > 2 else kwargs.get("text", ""))
        offered = args[3] if len(args) > 3 else kwargs.get("buttons", buttons.Ok)
        for choice in (buttons.Discard, buttons.Yes, buttons.Ok):
            if offered & choice:
                return choice
        return buttons.Ok

    for name in ("question", "warning", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, box)
    return said


def run_modal(opener, fill):
    """Open a modal dialog with ``opener()`` and let ``fill(dialog)`` drive it once it shows.

    Returns ``(dialog, what opener returned)``. A dialog ``fill`` leaves open is
    closed (past any discard question) so the test cannot hang; an assertion
    that fails inside ``fill`` is raised here, after the dialog is closed.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QDialog

    seen = {}
    timer = QTimer()  # stopped when the opener returns: a dialog of a later test is never driven by this one
    timer.setSingleShot(True)

    def act():
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            # not open yet: the opener reads the database first, off the GUI thread, with the event loop running
            # (views.operations.in_background) — this timer fires inside that loop, before the dialog shows
            timer.start(10)
            return
        seen["dialog"] = dialog
        try:
            fill(dialog)
        except BaseException as exc:  # re-raised below, after the dialog is closed
            seen["error"] = exc
        finally:
            if dialog is not None and dialog.isVisible():
                QDialog.done(dialog, 0)

    timer.timeout.connect(act)
    timer.start(0)
    try:
        result = opener()
    finally:
        timer.stop()
    if "error" in seen:
        raise seen["error"]
    return seen.get("dialog"), result


def searched(qtbot, desk) -> None:
    """Wait for the search ``desk`` runs off the GUI thread (Atendimento's Balcão, issue 27 §5) to be shown."""
    qtbot.waitUntil(lambda: not desk.searching, timeout=10000)
