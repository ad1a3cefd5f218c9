"""Cobrança → Simulador de preço, typed into like a clerk would; it agrees with the command line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from quote_cases import QUOTE_CASES, QUOTE_ERRORS


@pytest.fixture
def simulator(app_ready, qtbot, sqlite_database):
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("cobranca")
    page = win.pages["cobranca"]
    page.tabs.setCurrentIndex(2)  # the simulator, in its scroll area
    return page.simulator


def fill(simulator, qtbot, regime: str, args: dict) -> None:
    simulator.select_regime(regime)
    for key in ("equipment", "line", "venue", "energy"):
        if key in args:
            combo = getattr(simulator, key)
            index = combo.findData(args[key])
            assert index >= 0, f"{key}={args[key]} not offered"
            combo.setCurrentIndex(index)
    for key in ("front", "depth", "hitch", "area"):
        if key in args:
            edit = getattr(simulator, "depth_edit" if key == "depth" else key)  # depth_edit: QWidget.depth() stays
            edit.clear()
            qtbot.keyClicks(edit, args[key])
    for key in ("mei", "local"):
        box = getattr(simulator, key)
        if box.isChecked() != bool(args.get(key)):
            qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    simulator.days.setValue(args.get("days", 0))
    if "year" in args:
        simulator.year.setValue(args["year"])
    simulator.settle()  # priced off the GUI thread (issue 27 §5)


def brl(amount: str) -> str:
    from decimal import Decimal

    from models.base.money import format_brl

    return format_brl(Decimal(amount))


@pytest.mark.parametrize("case", QUOTE_CASES, ids=[c["id"] for c in QUOTE_CASES])
def test_simulator_reproduces_the_acts(simulator, qtbot, case):
    fill(simulator, qtbot, case["regime"], case["args"])
    assert simulator.error.text() == ""
    assert simulator.total.text().endswith(f"Total: {brl(case['total'])}")
    model = simulator.model
    assert model.data(model.index(0, 2)) == case["formula"]
    assert model.data(model.index(0, 3)).startswith(simulator.regime().short + ", art.")
    assert case["formula"] in simulator.details.text()


@pytest.mark.parametrize("case", QUOTE_ERRORS, ids=[c["id"] for c in QUOTE_ERRORS])
def test_simulator_explains_bad_input(simulator, qtbot, case):
    if case["args"].get("equipment") == "nave-espacial":
        pytest.skip("the screen only offers the regime's equipment kinds")
    fill(simulator, qtbot, case["regime"], case["args"])
    assert case["fragment"] in simulator.error.text()
    assert simulator.model.rowCount() == 0
    assert simulator.total.text() == ""


def test_simulator_updates_as_the_clerk_types(simulator, qtbot):
    simulator.select_regime("sao-bento-2026")
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    qtbot.keyClicks(simulator.depth_edit, "2")
    qtbot.keyClicks(simulator.front, "2")
    simulator.settle()
    assert simulator.total.text().replace("\xa0", " ") == "Total: R$ 422,62"  # 5,50 × 38,42 × 2,00
    qtbot.keyClicks(simulator.front, ",5")
    simulator.settle()
    assert simulator.total.text().replace("\xa0", " ") == "Total: R$ 528,28"  # 2,5 m


def test_simulator_offers_only_the_regimes_choices(simulator):
    simulator.select_regime("sjc-2014")
    lines = {simulator.line.itemData(i) for i in range(simulator.line.count())}
    assert {"comidas-tipicas", "pastel", "frutas"} <= lines
    assert not simulator.venue.isEnabled()
    simulator.select_regime("olimpia-2025")
    venues = {simulator.venue.itemData(i) for i in range(simulator.venue.count())}
    assert "recinto-arena" in venues and not simulator.line.isEnabled()


def test_quote_lines_model(simulator, qtbot, qtmodeltester):
    fill(simulator, qtbot, "sao-bento-2026", QUOTE_CASES[2]["args"])
    assert simulator.model.rowCount() == 2
    qtmodeltester.check(simulator.model)


def test_fees_the_administration_sets_are_asked_on_screen(simulator, qtbot):
    """Lei 1.171/2014, art. 8º leaves the licence fee to a decree: the clerk types it, Praça never invents it."""
    simulator.select_regime("sapezal-2014")
    simulator.permit_kind.setCurrentIndex(simulator.permit_kind.findData("ponto-fixo"))
    simulator.settle()
    assert "definido pela Administração" in simulator.error.text()
    assert simulator.admin_box.isVisible()
    qtbot.keyClicks(simulator.admin_edits["licenca"], "85,00")
    simulator.settle()
    assert simulator.error.text() == ""
    assert simulator.total.text().replace("\xa0", " ") == "Total: R$ 85,00"


def test_sizes_and_amounts_are_read_the_pt_br_way(simulator, qtbot):
    """Issue 18 §3: the simulator reads its fields with the desks' one parser, not the regime files' dot."""
    simulator.select_regime("sapezal-2014")
    simulator.permit_kind.setCurrentIndex(simulator.permit_kind.findData("ponto-fixo"))
    qtbot.keyClicks(simulator.admin_edits["licenca"], "1.500")  # mil e quinhentos, not R$ 1,50
    simulator.settle()
    assert simulator.error.text() == ""
    assert simulator.total.text().replace("\xa0", " ") == "Total: R$ 1.500,00"
    simulator.admin_edits["licenca"].clear()
    qtbot.keyClicks(simulator.admin_edits["licenca"], "1.50")
    simulator.settle()
    assert "duas formas" in simulator.error.text() and simulator.total.text() == ""
    assert simulator.admin_edits["licenca"].styleSheet() != ""
    simulator.select_regime("sao-bento-2026")
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    qtbot.keyClicks(simulator.depth_edit, "2")
    qtbot.keyClicks(simulator.front, "2.5")  # read two ways: refused with both, marked at the field
    simulator.settle()
    assert "duas formas" in simulator.error.text() and "Frente" in simulator.error.text()
    assert simulator.front.styleSheet() != "" and simulator.total.text() == ""


def test_changing_regime_clears_what_was_typed_for_the_other(simulator, qtbot):
    simulator.select_regime("sao-bento-2026")
    qtbot.keyClicks(simulator.front, "4")
    qtbot.keyClick(simulator.mei, Qt.Key.Key_Space)
    simulator.select_regime("sjc-2014")
    assert simulator.front.text() == "" and not simulator.mei.isChecked()


def test_default_regime_is_the_municipalitys(app_ready, qtbot, sqlite_database):
    from models.store.settings import MUNICIPALITY, set_settings

    set_settings({MUNICIPALITY: "São José dos Campos"})
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    assert win.pages["cobranca"].simulator.regime_combo.currentData() == "sjc-2014"


def test_the_simulator_takes_the_exemptions_the_act_grants_olimpia_art_90(simulator, qtbot):
    """LC 324/2025, art. 90: charitable and public educational events are exempt from the venue fee and deposit —
    an input of the quote, never assumed."""
    fill(simulator, qtbot, "olimpia-2025", {"venue": "recinto-arena", "days": 2, "year": 2026})
    assert simulator.total.text().endswith(f"Total: {brl('3649.90')}")  # 1.728,90 + caução 1.921,00
    offered = [simulator.exemption.itemData(i) for i in range(1, simulator.exemption.count())]
    assert offered == ["assistencial", "em-beneficio-de-entidade"] and simulator.exemption.currentIndex() == 0
    simulator.exemption.setCurrentIndex(simulator.exemption.findData("assistencial"))
    simulator.settle()
    assert simulator.total.text().endswith(f"Total: {brl('0.00')}")
    assert "art. 90" in simulator.exemption.currentText()
    simulator.select_regime("sjc-2014")
    assert not simulator.exemption.isEnabled()  # SJC's act grants none
