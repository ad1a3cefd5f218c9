"""The desk's simulator asks for the values a formula of the act leaves open (issue 29 §1), within the act's
bounds, and keeps who set them on the line."""

from __future__ import annotations

import datetime as dt
import json

from formula_acts import TEST_ID, made_up_text
from PySide6.QtCore import Qt


def test_the_simulator_asks_for_the_value_the_act_leaves_open_and_records_who_set_it(
    app_ready, qtbot, sqlite_url, tmp_path
):
    from models.access import session
    from models.rules import acts
    from models.store.bootstrap import open_database

    open_database(sqlite_url, create=True)
    acts.install(made_up_text().encode("utf-8"), f"{TEST_ID}.toml")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("cobranca")
    page = win.pages["cobranca"]
    page.tabs.setCurrentIndex(2)
    simulator = page.simulator
    simulator.refresh()
    simulator.select_regime(TEST_ID)
    assert simulator.asked_box.isVisible()
    edit = simulator.asked_edits["nota"]
    assert edit.placeholderText() == "de 1 a 5" and edit.toolTip().startswith("Valor que o fiscal fixa: de 1 a 5")
    simulator.permit_kind.setCurrentIndex(simulator.permit_kind.findData("event-stall"))
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    qtbot.keyClicks(simulator.front, "3")
    simulator.settle()
    assert "nota do fiscal" in simulator.error.text()
    qtbot.keyClicks(edit, "7")
    simulator.settle()
    assert "fora dos limites do ato" in simulator.error.text() and edit.styleSheet() != ""
    edit.clear()
    qtbot.keyClicks(edit, "4")
    simulator.settle()
    assert simulator.error.text() == ""
    amounts = [str(line.amount) for line in simulator.last_quote.lines]
    assert amounts == ["633.93", "61.47"]
    graded = simulator.last_quote.lines[1]
    assert graded.asked[0].value == 4 and graded.asked[0].set_by == (session.current().name or None)
    simulator.grab().save(str(tmp_path / "simulador-formula.png"))


def test_an_application_keeps_the_value_the_act_leaves_open_and_who_set_it_with_its_quote(qtbot, mei, tmp_path):
    """The application's frozen quote (what its charges are made from) keeps the inspector's grade, within the
    act's bounds, and the clerk who typed it."""
    from models.access import session
    from models.registry.applications import Application
    from models.rules import acts
    from views.application_form import ApplicationDialog

    acts.install(made_up_text().encode("utf-8"), f"{TEST_ID}.toml")
    d = ApplicationDialog("company", mei.id, today=dt.date(2026, 11, 30), now=dt.datetime(2026, 3, 20, 10, 0))
    qtbot.addWidget(d)
    d.show()
    d.regime.setCurrentIndex(d.regime.findData(TEST_ID))
    d.kind.setCurrentIndex(d.kind.findData("event-stall"))
    d.equipment.setCurrentIndex(d.equipment.findData("barraca"))
    qtbot.keyClicks(d.front, "3")
    qtbot.keyClicks(d.depth_edit, "3")
    assert d.asked_box.isVisible()
    d.settle()
    assert "nota do fiscal" in d.quote_note.text()  # asked for, never assumed
    qtbot.keyClicks(d.asked_edits["nota"], "9")
    d.settle()
    assert "fora dos limites do ato — de 1 a 5" in d.quote_note.text()
    d.asked_edits["nota"].clear()
    qtbot.keyClicks(d.asked_edits["nota"], "4")
    d.settle()
    assert [d.quote_table.item(r, 2).text() for r in range(d.quote_table.rowCount())] == [
        "5,50 × 38,42 × 3,00",  # a MEI, but not of this (made-up) town: no exception of art. 9º, § 3º, I
        "4 ÷ 5 × 2 × 38,42",
    ]
    d.grab().save(str(tmp_path / "requerimento-formula.png"))
    assert d.width() <= 1366 and d.height() <= 768
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    app = Application.get(Application.regime == TEST_ID)
    lines = json.loads(app.quote_json)["lines"]
    assert lines[1]["asked"] == [
        {"name": "nota", "label": "Nota do fiscal", "value": "4", "set_by": session.current().name}
    ]
    assert any("informado por " + session.current().name in detail for detail in lines[1]["details"])
