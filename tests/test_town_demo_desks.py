"""Issue 31 §2 at the desks: São Bento do Sapucaí's demo, driven like a clerk — the next edition of its event is open
for filing today, the street is on the map with its stalls, the fees it charged are paid at the fee desk and the
inspector's records are listed (each desk once; the other towns through their services in test_town_demos.py)."""

from __future__ import annotations

import datetime as dt
import shutil

import pytest
from conftest import run_modal, type_text
from PySide6.QtCore import Qt

from models.store.bootstrap import close_database, open_database

TOWN = {"town": "sao-bento", "people": 80, "companies": 30}


@pytest.fixture(scope="module")
def _sao_bento_template(tmp_path_factory):
    from models.demo import fill_demo

    path = tmp_path_factory.mktemp("sao-bento") / "demo.sqlite3"
    open_database(f"sqlite:///{path}", create=True)
    try:
        fill_demo(**TOWN)
    finally:
        close_database()
    return path


@pytest.fixture
def sao_bento(_sao_bento_template, tmp_path, app_ready):
    from conftest import _stop_widget_timers

    from models.store.files import set_store

    copy = tmp_path / "praca.sqlite3"
    shutil.copyfile(_sao_bento_template, copy)
    open_database(f"sqlite:///{copy}")
    set_store(tmp_path / "files")
    yield copy
    _stop_widget_timers()
    close_database()


def test_the_front_desk_files_for_the_next_edition_today(qtbot, sao_bento):
    from factories import statuses

    from models.registry.applications import Application
    from models.registry.people import Company
    from views.application_form import ApplicationDialog

    applied = Application.select(Application.company).where(Application.company.is_null(False))
    company = Company.select().where(Company.id.not_in(applied) & (Company.municipal_registration != "")).first()
    dialog = ApplicationDialog("company", company.id)
    qtbot.addWidget(dialog)
    dialog.show()
    assert [dialog.regime.itemData(i) for i in range(dialog.regime.count())] == ["sao-bento-2026"]
    dialog.regime.setCurrentIndex(0)
    dialog.equipment.setCurrentIndex(dialog.equipment.findData("barraca"))
    qtbot.keyClicks(dialog.front, "3")
    qtbot.keyClicks(dialog.depth_edit, "3")
    kinds = [dialog.documents.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(dialog.documents.rowCount())]
    for doc_id in kinds:
        dialog.set_delivered(doc_id)
    dialog.settle()
    assert "failed" not in statuses(dialog).values(), statuses(dialog)
    assert "terminou" not in dialog.verdict.text()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.protocol.text().startswith(f"Protocolo {dt.date.today().year}/"), dialog.protocol.text()
    app = Application.select().order_by(Application.id.desc()).first()
    assert app.company_id == company.id and app.regime == "sao-bento-2026"


def test_the_map_desk_opens_the_street_with_its_stalls(qtbot, sao_bento):
    from models.sites import Site
    from views.maps_page import MapsPage

    page = MapsPage()
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    page.refresh()
    street = Site.get(Site.regime == "sao-bento-2026")
    assert [r.name for r in page.model.rows] == [street.name]
    page.select_site(street.id)
    count = next(r.stalls for r in page.model.rows if r.id == street.id)
    assert page.stack.currentWidget() is page.editor and len(page.editor.items) == count >= 20
    assert street.first_day > dt.date.today()  # the next edition's days (Dec. 4.794/2026, art. 5º, moved)


def test_the_fee_desk_records_a_payment_of_the_event(qtbot, sao_bento):
    from models.billing.charges import Charge, Payment
    from views.charges_page import ChargesTab

    open_charge = Charge.select().where(Charge.status == "open").order_by(Charge.id).first()
    assert open_charge is not None, "an application awaiting its payment"
    tab = ChargesTab()
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(open_charge.created_at.year, open_charge.created_at.month)
    rows = [tab.model.rows[r].number for r in range(tab.model.rowCount())]
    assert open_charge.number in rows
    tab.table.selectRow(rows.index(open_charge.number))
    before = Payment.select().count()

    def pay(dialog):
        type_text(dialog.reference, "34191.79001 01043")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    run_modal(lambda: tab.pay_selected(), pay)
    assert Payment.select().count() == before + 1
    assert Charge.get_by_id(open_charge.id).status == "paid"


def test_the_inspector_records_a_missing_placard_at_the_enforcement_desk(qtbot, sao_bento):
    from models.enforcement import Record
    from models.registry.people import Company
    from views.enforcement import EnforcementPage

    page = EnforcementPage()
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    page.refresh()
    tab = page.records
    before = {r.reference for r in Record.select()}
    assert before and {tab.model.index(r, 0).data() for r in range(tab.model.rowCount())} >= before
    company = Company.select().order_by(Company.id).first()

    def fill(dialog):
        assert [dialog.form.regime.itemData(i) for i in range(dialog.form.regime.count())] == ["sao-bento-2026"]
        type_text(dialog.form.offender_search, company.cnpj[:8])
        assert dialog.form.matches.rowCount() >= 1
        dialog.form.matches_view.selectRow(0)
        dialog.form.time.setText("20:15")
        type_text(dialog.form.place, "Rua Cel. Ribeiro da Luz, barraca 4")
        type_text(dialog.form.facts, "Barraca funcionando sem a placa indicativa.")
        dialog.check_infraction("sem-placa")
        dialog.form.inspector.setText("Marcos Ribeiro")
        type_text(dialog.form.inspector_id, "4521")
        dialog.update_preview()
        assert "Dec. 4.794/2026" in dialog.proposal_view.toPlainText()
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _dialog, record = run_modal(lambda: tab.new_record(regime="sao-bento-2026"), fill)
    assert record is not None and record.regime == "sao-bento-2026" and record.reference not in before
    assert f"{record.reference} lavrado" in tab.message.text()
