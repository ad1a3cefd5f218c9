"""Atendimento driven like a clerk: search as you type, register people and companies, bad input at the field."""

from __future__ import annotations

import pytest
from conftest import run_modal, searched, type_text
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from models.base.br import cnpj_check_digits
from models.registry.people import Company, HouseholdMember, Person
from models.store.files import set_store


@pytest.fixture
def desk(app_ready, qtbot, database, tmp_path):
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("atendimento")
    return win.pages["atendimento"].search


def run_dialog(qtbot, opener, fill):
    """The dialog ``opener`` shows, driven by ``fill``."""
    return run_modal(opener, fill)[0]


def test_register_a_person_found_nowhere(desk, qtbot):
    qtbot.keyClicks(desk.query, "529.982.247-25")
    searched(qtbot, desk)
    assert "Nova pessoa" in desk.hint.text()

    def fill(d):
        assert d.cpf.compact() == "52998224725"  # carried over from the search
        type_text(d.name, "Maria José da Silva")
        qtbot.keyClicks(d.birth, "17051980")
        type_text(d.city, "Olímpia")
        qtbot.keyClicks(d.family_income, "1,5")
        d.housing.setCurrentIndex(d.housing.findData("rented"))
        row = d.add_member()
        d.household.item(row, 0).setText("Ana da Silva")
        d.household.cellWidget(row, 1).setCurrentIndex(d.household.cellWidget(row, 1).findData("child"))
        qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
        assert not d.isVisible(), d.errors.shown

    run_dialog(qtbot, lambda: desk.register("person"), fill)
    searched(qtbot, desk)
    person = Person.get(Person.cpf == "52998224725")
    assert person.name == "Maria José da Silva" and str(person.birth_date) == "1980-05-17"
    assert [m.name for m in HouseholdMember.select().where(HouseholdMember.person == person)] == ["Ana da Silva"]
    assert desk.model.rowCount() == 1 and desk.model.rows[0].name == "Maria José da Silva"


def test_bad_person_input_is_shown_at_the_fields_and_nothing_saved(desk, qtbot, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    seen = {}

    def fill(d):
        qtbot.keyClicks(d.cpf, "12345678900")
        assert "CPF inválido" in d.cpf_status.text()  # at once, before saving
        qtbot.keyClicks(d.name, "Maria")
        qtbot.keyClicks(d.birth, "01012099")
        qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
        seen["errors"] = dict(d.errors.shown)
        seen["summary"] = d.error.text()
        seen["tooltip"] = d.save_button.toolTip()
        d.reject()

    run_dialog(qtbot, lambda: desk.register("person"), fill)
    assert {"cpf", "name", "birth_date"} <= set(seen["errors"])
    assert "corrigir" in seen["summary"] and seen["tooltip"] == seen["summary"]
    assert Person.select().count() == 0


def test_cancel_with_typing_asks_first(desk, qtbot, monkeypatch):
    asked = []

    def answer(*args, **kwargs):
        asked.append(args[2])
        return QMessageBox.StandardButton.Cancel if len(asked) == 1 else QMessageBox.StandardButton.Discard

    monkeypatch.setattr(QMessageBox, "question", answer)

    def fill(d):
        type_text(d.name, "Alguém")
        d.reject()
        assert d.isVisible()  # first answer: keep editing
        d.reject()

    run_dialog(qtbot, lambda: desk.register("person"), fill)
    assert len(asked) == 2 and "Descartar" in asked[0]


def test_register_company_with_alphanumeric_cnpj(desk, qtbot):
    base = "12ABC34501DE"
    cnpj = base + cnpj_check_digits(base)

    def fill(d):
        qtbot.keyClicks(d.cnpj, cnpj.lower())
        assert d.cnpj_status.text() == "✓"
        qtbot.keyClicks(d.legal_name, "Pastelaria Zanetti Ltda.")
        qtbot.keyClick(d.mei, Qt.Key.Key_Space)
        row = d.add_partner()
        d.partners.item(row, 0).setText("Carlos Zanetti")
        d.partners.item(row, 1).setText("529.982.247-25")
        qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)

    run_dialog(qtbot, lambda: desk.register("company"), fill)
    company = Company.get(Company.cnpj == cnpj)
    assert company.mei and company.legal_name == "Pastelaria Zanetti Ltda."
    assert [p.name for p in company.partners] == ["Carlos Zanetti"]


def test_search_as_you_type_and_edit(desk, qtbot):
    from models.demo import fill_demo

    fill_demo(people=30, companies=8)
    person = Person.select().order_by(Person.id).first()
    surname = person.name.split()[-1]
    qtbot.keyClicks(desk.query, surname[:4].lower())
    searched(qtbot, desk)
    assert any(m.name == person.name for m in desk.model.rows)
    desk.query.clear()
    qtbot.keyClicks(desk.query, person.cpf[:6])
    searched(qtbot, desk)
    assert desk.model.rows[0].name == person.name

    def fill(d):
        assert d.name.text() == person.name
        d.phone.clear()
        qtbot.keyClicks(d.phone, "(17) 3333-0000")
        qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)

    run_dialog(qtbot, desk.edit_selected, fill)
    assert Person.get_by_id(person.id).phone == "(17) 3333-0000"


def test_worklist_moves_applications_along(app_ready, qtbot, database, tmp_path, monkeypatch):
    import datetime as dt

    from PySide6.QtWidgets import QInputDialog

    from models.registry.applications import Application, ApplicationInput
    from models.registry.people import PersonInput, save_person
    from models.services.filing import create_application

    set_store(tmp_path / "files")
    person = save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=dt.date(2026, 11, 30))
    app = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana"
    )
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show_desk("atendimento")
    page = win.pages["atendimento"]
    page.tabs.setCurrentWidget(page.worklist)
    tab = page.worklist
    tab.refresh()
    tab.select_protocol(app.protocol)
    assert tab.action_buttons["analysis"].isEnabled() and not tab.action_buttons["approved"].isEnabled()
    qtbot.mouseClick(tab.action_buttons["analysis"], Qt.MouseButton.LeftButton)
    assert Application.get_by_id(app.id).status == "analysis"
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Faltou o atestado de saúde", True))
    from conftest import run_modal  # Indeferir opens the application as filed (issue 31 §4): refused from there

    run_modal(
        lambda: qtbot.mouseClick(tab.action_buttons["refused"], Qt.MouseButton.LeftButton),
        lambda view: qtbot.mouseClick(view.refuse_button, Qt.MouseButton.LeftButton),
    )
    assert Application.get_by_id(app.id).status == "refused"
    assert "indeferido" in tab.message.text()
    tab.status.setCurrentIndex(tab.status.findData("refused"))  # no longer "em aberto"
    tab.select_protocol(app.protocol)
    assert tab.action_buttons["appealed"].isEnabled() and not tab.action_buttons["analysis"].isEnabled()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", False))  # the clerk cancels
    qtbot.mouseClick(tab.action_buttons["appealed"], Qt.MouseButton.LeftButton)
    assert Application.get_by_id(app.id).status == "refused"
    out = tab.save_receipt(str(tmp_path / "r.pdf"))
    assert open(out, "rb").read(5) == b"%PDF-"


def test_issue_the_permit_from_the_worklist(app_ready, qtbot, database, tmp_path, monkeypatch):
    import datetime as dt

    from PySide6.QtWidgets import QInputDialog

    from models.access.signing import verify_text
    from models.permits import Permit
    from models.registry.applications import ApplicationInput, change_status
    from models.registry.people import PersonInput, save_person
    from models.services.filing import create_application

    set_store(tmp_path / "files")
    person = save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=dt.date(2026, 11, 30))
    sapezal = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana"
    )
    sjc = create_application(
        ApplicationInput(
            regime="sjc-2014", permit_kind="feirante", person_id=person.id, site="Feira Noturna do Centro"
        ),
        clerk="ana",
    )
    for app in (sapezal, sjc):
        change_status(change_status(app, "analysis", by="chefe"), "approved", by="chefe")
    from views.front_desk import WorklistTab

    tab = WorklistTab(key_dir=tmp_path / "keys")
    qtbot.addWidget(tab)
    tab.refresh()
    tab.select_protocol(sapezal.protocol)
    assert tab.issue_button.isEnabled()
    # Lei 1.171/2014, art. 11: the firm's CNPJ, the health and clearance certificates come before the licence
    assert tab.issue(today=dt.date(2026, 11, 30)) is None
    assert "art. 11, I" in tab.message.text() and "art. 11, II" in tab.message.text()
    from models.registry.applications import DocumentInput, record_documents
    from models.registry.people import CompanyInput, PartnerInput, save_company

    save_company(
        CompanyInput(
            cnpj="11.444.777/0001-61",
            legal_name="MARIA JOSE DA SILVA MEI",
            mei=True,
            partners=[PartnerInput(person.name, person.cpf)],
        )
    )
    record_documents(
        sapezal,
        [DocumentInput(d, dt.date(2026, 11, 30)) for d in ("cnpj-card", "health-certificate", "municipal-clearance")],
        by="ana",
        today=dt.date(2026, 11, 30),
    )
    tab.select_protocol(sapezal.protocol)
    permit = tab.issue(today=dt.date(2026, 11, 30))
    assert permit is not None and "emitida" in tab.message.text()
    assert permit.valid_until == dt.date(2027, 11, 29)  # one year (Lei 1.171/2014, art. 38)
    assert verify_text(permit.qr_text, tmp_path / "keys", today=dt.date(2026, 12, 1)).status == "valid"
    # SJC sets no term (art. 4º: precária): the clerk gives the end date
    asked = []
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: asked.append(a[2]) or ("31/12/2027", True))
    tab.select_protocol(sjc.protocol)
    second = tab.issue(today=dt.date(2026, 11, 30))
    assert asked and "não fixa prazo" in asked[0]
    assert second.valid_until == dt.date(2027, 12, 31)
    assert Permit.select().count() == 2


def test_the_worklist_starts_on_the_municipalitys_own_act(app_ready, qtbot, database, tmp_path):
    """Issue 18 §5: the regime filter starts on the act(s) of the municipality set in Configurações, not on
    "Todos"; the other acts and "Todos" stay a choice away, and the choice is kept across refreshes."""
    import datetime as dt

    from models.registry.applications import ApplicationInput
    from models.registry.people import PersonInput, save_person
    from models.services.filing import create_application
    from models.store.settings import MUNICIPALITY, set_settings
    from views.front_desk import WorklistTab

    set_store(tmp_path / "files")
    person = save_person(PersonInput(name="Maria José da Silva", cpf="529.982.247-25"), today=dt.date(2026, 11, 30))
    sapezal = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana"
    )
    sjc = create_application(
        ApplicationInput(
            regime="sjc-2014", permit_kind="feirante", person_id=person.id, site="Feira Noturna do Centro"
        ),
        clerk="ana",
    )

    def shown(tab):
        return sorted(item.protocol for item in tab.model.rows)

    tab = WorklistTab()
    qtbot.addWidget(tab)
    tab.refresh()
    assert tab.regime.currentData() == "" and shown(tab) == sorted([sapezal.protocol, sjc.protocol])  # no town yet
    set_settings({MUNICIPALITY: "sao jose dos campos"})  # as typed: no accents, lower case
    tab = WorklistTab()
    qtbot.addWidget(tab)
    tab.refresh()
    assert tab.regime.currentData() == "sjc-2014" and shown(tab) == [sjc.protocol]
    tab.regime.setCurrentIndex(tab.regime.findData(""))  # Todos, reachable
    assert shown(tab) == sorted([sapezal.protocol, sjc.protocol])
    tab.refresh()  # a refresh keeps the clerk's choice
    assert tab.regime.currentData() == "" and len(shown(tab)) == 2


def test_a_municipality_with_several_acts_filters_on_them_all(app_ready, qtbot, database):
    from types import SimpleNamespace

    from PySide6.QtWidgets import QComboBox

    from models.store.settings import MUNICIPALITY, set_settings
    from views.widgets import OWN_ACTS, fill_regime_filter, regime_filter_value

    regimes = {
        r.id: r
        for r in (
            SimpleNamespace(id="cidade-2020", municipality="Cidade", state="SP", short="Lei 1/2020"),
            SimpleNamespace(id="cidade-2024", municipality="Cidade", state="SP", short="Lei 9/2024"),
            SimpleNamespace(id="outra-2019", municipality="Outra", state="MG", short="Lei 5/2019"),
        )
    }
    combo = QComboBox()
    qtbot.addWidget(combo)
    set_settings({MUNICIPALITY: "Cidade"})
    fill_regime_filter(combo, regimes)
    assert combo.currentData() == OWN_ACTS and combo.currentText() == "Atos de Cidade"
    assert regime_filter_value(combo) == ["cidade-2020", "cidade-2024"]
    combo.setCurrentIndex(combo.findData("outra-2019"))
    assert regime_filter_value(combo) == "outra-2019"
