"""The desk's simulator asks for the values a formula of the act leaves open (issue 29 §1), within the act's
bounds, and keeps who set them on the line."""

from __future__ import annotations

from formula_acts import TEST_ID, made_up_text


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
    assert edit.placeholderText() == "de 1 a 5" and "o fiscal" in edit.toolTip()
    simulator.permit_kind.setCurrentIndex(simulator.permit_kind.findData("event-stall"))
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    qtbot.keyClicks(simulator.front, "3")
    simulator.days.setValue(2)
    assert "nota do fiscal" in simulator.error.text()
    qtbot.keyClicks(edit, "7")
    assert "fora dos limites do ato" in simulator.error.text() and edit.styleSheet() != ""
    edit.clear()
    qtbot.keyClicks(edit, "4")
    assert simulator.error.text() == ""
    amounts = [str(line.amount) for line in simulator.last_quote.lines]
    assert amounts == ["633.93", "61.47"]
    graded = simulator.last_quote.lines[1]
    assert graded.asked[0].value == 4 and graded.asked[0].set_by == (session.current().name or None)
    simulator.grab().save(str(tmp_path / "simulador-formula.png"))
