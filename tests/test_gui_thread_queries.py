"""Issue 27 §5: no database on the GUI thread — search as you type, saving and issuing run off it."""

from __future__ import annotations

import threading

import pytest
from conftest import type_text

from models.store.files import set_store


@pytest.fixture
def window(app_ready, qtbot, database, tmp_path):
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win


def test_search_as_you_type_runs_no_query_on_the_gui_thread_and_few_per_key(window, qtbot, queries):
    from models.demo import fill_demo

    fill_demo(people=30, companies=8)
    window.show_desk("atendimento")
    desk = window.pages["atendimento"].search
    counts = []
    for key in "silva":
        queries.entries.clear()
        type_text(desk.query, key)
        qtbot.waitUntil(lambda: not desk.searching, timeout=5000)
        counts.append(len(queries.entries))
        assert queries.on_gui_thread() == [], key
    print("queries per key", counts)
    assert max(counts) <= 3, counts
    assert desk.model.rows and all("silva" in m.name.lower() for m in desk.model.rows)


def test_a_newer_request_drops_the_stale_answer_and_interrupts_its_query(app_ready, qtbot, database):
    """The first query is a statement that would run for minutes: the second request interrupts it (SQLite's
    interrupt, PostgreSQL's cancel), its answer is never shown, and only the latest answer arrives."""
    from PySide6.QtCore import QObject

    from models.store.db import db
    from views.operations import LatestQuery

    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    shown, failed, started = [], [], threading.Event()

    def query(text):
        if text == "slow":
            started.set()
            return db.execute_sql(endless).fetchone()
        return db.execute_sql("SELECT 42").fetchone()[0]

    owner = QObject()
    latest = LatestQuery(owner, query, shown.append, failed.append)
    latest.ask("slow")
    assert started.wait(5)
    qtbot.wait(300)  # the statement runs now (an interrupt before it starts is not heard)
    latest.ask("fast")
    latest.ask("fast")  # requests made meanwhile collapse into the last one
    qtbot.waitUntil(lambda: not latest.busy, timeout=10000)
    assert shown == [42] and failed == []


def test_saving_an_application_runs_off_the_gui_thread_with_the_window_responsive(qtbot, mei, queries, monkeypatch):
    """Salvar: the application is assessed and stored on a worker thread; meanwhile the GUI thread runs its
    timers (a timer set when Salvar is clicked fires before the filing ends) and runs no query."""
    import datetime as dt

    from PySide6.QtCore import Qt, QTimer

    import views.application_form as form
    from models.registry.applications import Application

    dialog = form.ApplicationDialog("company", mei.id, today=dt.date(2026, 11, 30), now=dt.datetime(2026, 3, 20, 10))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.regime.setCurrentIndex(dialog.regime.findData("sao-bento-2026"))
    dialog.equipment.setCurrentIndex(dialog.equipment.findData("trailer"))
    qtbot.keyClicks(dialog.front, "4")
    qtbot.keyClicks(dialog.depth_edit, "3")
    dialog.settle()
    ticked = threading.Event()
    filed = form.create_application

    def slow_filing(*args, **kwargs):
        assert ticked.wait(5), "the GUI thread was blocked while the application was filed"
        return filed(*args, **kwargs)

    monkeypatch.setattr(form, "create_application", slow_filing)
    QTimer.singleShot(50, ticked.set)
    queries.entries.clear()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.protocol.text() == "Protocolo 2026/00001"
    assert queries.entries and queries.on_gui_thread() == []
    assert Application.select().count() == 1


def test_issuing_a_permit_runs_off_the_gui_thread(app_ready, qtbot, database, tmp_path, queries):
    import datetime as dt

    from models.registry.applications import ApplicationInput, DocumentInput, change_status, record_documents
    from models.registry.people import CompanyInput, PartnerInput, PersonInput, save_company, save_person
    from models.services.filing import create_application
    from views.front_desk import WorklistTab

    set_store(tmp_path / "files")
    day = dt.date(2026, 11, 30)
    person = save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=day)
    save_company(
        CompanyInput(
            cnpj="11.444.777/0001-61",
            legal_name="MARIA JOSE DA SILVA MEI",
            mei=True,
            partners=[PartnerInput(person.name, person.cpf)],
        )
    )
    app = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana"
    )
    change_status(change_status(app, "analysis", by="chefe"), "approved", by="chefe")
    wanted = ("cnpj-card", "health-certificate", "municipal-clearance")
    record_documents(app, [DocumentInput(d, day) for d in wanted], by="ana", today=day)
    tab = WorklistTab(key_dir=tmp_path / "keys")
    qtbot.addWidget(tab)
    tab.refresh()
    tab.select_protocol(app.protocol)
    queries.entries.clear()
    permit = tab.issue(today=day)
    assert permit is not None and "emitida" in tab.message.text()
    assert queries.entries and queries.on_gui_thread() == []
    assert [row.protocol for row in tab.model.rows] == []  # issued: off the open worklist, read on the worker


def test_a_screen_closed_while_its_query_runs_is_not_answered(app_ready, qtbot, database):
    """The clerk closes the dialog mid-search: the query ends on its own and nothing reaches the closed screen."""
    import gc

    from PySide6.QtCore import QObject

    from views import operations

    release, shown = threading.Event(), []
    owner = QObject()
    latest = operations.LatestQuery(owner, lambda text: release.wait(5) and text, shown.append)
    latest.ask("a")
    running = next(iter(operations._calls))
    owner.deleteLater()
    del owner, latest
    qtbot.wait(50)
    gc.collect()
    release.set()
    qtbot.waitUntil(running.isFinished, timeout=5000)
    qtbot.wait(50)
    assert shown == []
