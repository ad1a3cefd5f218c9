"""The sixth act (issue 20, Done when) driven on the desks' own widgets: Cabeceira Grande/MG, Lei nº 376/2012 — the
price simulator asks for the fee the act leaves to the Administration and prices it, and Fiscalização records an
infraction by it with the act's seizure and donation (art. 5º). It has no site, so no map."""

from __future__ import annotations

import datetime as dt

from conftest import run_modal, type_text
from factories import person
from PySide6.QtCore import Qt

REGIME = "cabeceira-grande-2012"


def test_the_simulator_prices_the_sixth_act(database, app_ready, qtbot):
    from views.price_simulator import PriceSimulator

    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    sim.refresh()
    sim.select_regime(REGIME)
    sim.permit_kind.setCurrentIndex(sim.permit_kind.findData("licenca-ambulante"))
    sim.settle()
    assert "definido pela Administração (Lei 376/2012, art. 3º)" in sim.error.text()  # asked, never invented
    assert sim.admin_box.isVisibleTo(sim)
    type_text(sim.admin_edits["taxa-licenca"], "48,50")
    sim.settle()  # priced off the GUI thread (issue 27 §5)
    assert sim.error.text() == ""
    assert sim.total.text().replace("\xa0", " ") == "Total: R$ 48,50"


def test_fiscalizacao_records_an_infraction_of_the_sixth_act(keys, app_ready, qtbot):
    from views.enforcement import EnforcementPage

    person("Antônio Vendedor")
    page = EnforcementPage(today=dt.date(2026, 12, 1))
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()
    tab = page.records

    def fill(dialog):
        dialog.form.regime.setCurrentIndex(dialog.form.regime.findData(REGIME))
        type_text(dialog.form.offender_search, "antônio vendedor")
        dialog.settle()  # the registry is searched on a worker (issue 27 §5)
        dialog.form.matches_view.selectRow(0)
        dialog.form.date.set_date(dt.date(2026, 12, 1))
        dialog.form.time.setText("10:00")
        type_text(dialog.form.place, "Praça da Matriz")
        type_text(dialog.form.facts, "Vendia frutas sem a licença da Prefeitura.")
        dialog.check_infraction("sem-licenca")
        dialog.form.inspector.setText("Marcos Fiscal")
        type_text(dialog.form.inspector_id, "4521")
        dialog.update_preview()
        shown = dialog.proposal_view.toPlainText()
        assert "Lei 376/2012, art. 5º" in shown and "entidades filantrópicas" in shown
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _d, record = run_modal(lambda: tab.new_record(regime=REGIME), fill)
    assert record is not None and record.regime == REGIME
    assert tab.select_record(record.id)
    assert "Lavrado com o ato cabeceira-grande-2012, versão 1" in tab.detail.toPlainText()
