"""Issue 18 §4: the chefe decides with the facts in view — the application opens from the worklist with all that was
filed, the approval lists what is still "a conferir", a role the act does not allow sees the buttons disabled
with who may; the receipt's letterhead is the act's municipality."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal
from factories import uid_of
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog

from models.access import session
from models.registry.applications import ApplicationInput, change_status, get_application
from models.registry.people import PersonInput, save_person
from models.services.filing import create_application
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def worklist(app_ready, qtbot, database, tmp_path):
    QSettings().clear()
    set_store(tmp_path / "files")
    person = save_person(
        PersonInput(name="Maria José da Silva", cpf="529.982.247-25", birth_date=dt.date(1980, 5, 17)), today=TODAY
    )
    app = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana", today=TODAY
    )
    app = change_status(app, "analysis", by="ana")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("atendimento")
    page = win.pages["atendimento"]
    page.tabs.setCurrentWidget(page.worklist)
    page.worklist.refresh()
    yield page.worklist, app
    session.log_out()


def _double_click_first(qtbot, table) -> None:
    rect = table.visualRect(table.model().index(0, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_a_double_click_opens_what_was_filed_and_approval_lists_what_is_to_check(worklist, qtbot, monkeypatch):
    tab, app = worklist
    asked = []
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: asked.append(a[2]) or ("", False))
    seen = {}

    def look(dialog):
        html = dialog.filed.toPlainText()
        seen["filed"] = html
        seen["history"] = [dialog.history.item(r, 2).text() for r in range(dialog.history.rowCount())]
        seen["enabled"] = (dialog.approve_button.isEnabled(), dialog.refuse_button.isEnabled())
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
        seen["open"] = dialog.isVisible()

    run_modal(lambda: _double_click_first(qtbot, tab.table), look)
    assert "Maria José da Silva" in seen["filed"] and "529.982.247-25" in seen["filed"]
    assert "Documentos" in seen["filed"] and "Elegibilidade" in seen["filed"]
    assert seen["history"] == ["recebido", "em análise"]
    assert seen["enabled"] == (True, True)
    assert len(asked) == 1 and "Ainda a conferir" in asked[0] and "art." in asked[0]
    assert seen["open"]  # cancelled: nothing decided, the dialog stays
    assert get_application(app.id).status == "analysis"


def test_aprovar_on_the_list_opens_the_record_and_a_pending_check_needs_a_recorded_reason(worklist, qtbot, monkeypatch):
    """Issue 31 §4: "Aprovar" approved in one click with requirements still "a conferir"; now the list's button opens
    the application with everything filed, and approving there with a check pending asks for the reason first
    (the domain refuses the approval without it, whoever calls: tests/test_application_form.py)."""
    tab, app = worklist
    asked = []
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: asked.append(a[2]) or ("", False))
    tab.table.selectRow(0)
    seen = {}

    def decide(dialog):
        seen["filed"] = dialog.filed.toPlainText()
        qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
        seen["open"] = dialog.isVisible()

    run_modal(lambda: qtbot.mouseClick(tab.action_buttons["approved"], Qt.MouseButton.LeftButton), decide)
    assert "Maria José da Silva" in seen["filed"] and "Elegibilidade" in seen["filed"]
    assert len(asked) == 1 and "motivo da aprovação" in asked[0] and "art." in asked[0]
    assert seen["open"] and get_application(app.id).status == "analysis"  # no reason given: nothing decided


def test_a_role_the_act_does_not_allow_sees_the_buttons_disabled_with_who_may(worklist, qtbot):
    tab, _app = worklist
    session.log_in(session.Session(None, "ana", "Ana", "atendente"))
    tab.refresh_rows()
    tab.table.selectRow(0)
    approve = tab.action_buttons["approved"]
    assert not approve.isEnabled()
    assert approve.toolTip() == "Só chefe ou administrador pode aprovar ou indeferir requerimentos."
    assert tab.action_buttons["withdrawn"].isEnabled()  # recording a withdrawal is hers to do
    dialog = tab.open_selected(dialog_hook=lambda d: None)
    assert not dialog.approve_button.isEnabled() and "chefe" in dialog.approve_button.toolTip()
    session.log_in(session.Session(None, "chefe", "Chefe", "chefe"))
    tab.refresh_rows()
    tab.table.selectRow(0)
    assert approve.isEnabled() and approve.toolTip() == ""


def test_the_receipts_letterhead_is_the_acts_municipality(worklist):
    from models.store.settings import AGENCY, MUNICIPALITY, STATE, set_settings
    from reports.receipt import receipt_html

    _tab, app = worklist
    set_settings({MUNICIPALITY: "Olímpia", STATE: "SP", AGENCY: "Prefeitura da Estância Turística de Olímpia"})
    html = receipt_html(get_application(app.id))
    assert "Sapezal/MT" in html and "Prefeitura Municipal de Sapezal" in html
    assert "Olímpia" not in html


def test_a_map_with_an_open_breach_is_saved_only_once_each_breach_is_kept_with_a_reason(editor, qtbot):
    from models.sites import Stall

    plan = editor.plan
    uid = uid_of(plan, 2)
    editor.items[uid].setSelected(True)
    editor.nudge(-700, 0)  # 0,30 m from stall 1: less than the act's 0,50 m
    assert editor.open_breaches()
    before = sorted(s.x for s in Stall.select())
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert editor.is_dirty() and sorted(s.x for s in Stall.select()) == before  # nothing written
    assert "não foi salvo" in editor.message.text() and "justificativa" in editor.message.text()
    from models.sites import keep_breach

    for breach in editor.open_breaches():
        editor.kept[breach.signature] = keep_breach(
            editor.site_id, breach, "Geminadas a pedido (ofício 12/2026).", by="chefe"
        )
    assert editor.open_breaches() == []
    qtbot.keyClick(editor.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not editor.is_dirty() and "Mapa salvo" in editor.message.text()


def test_the_map_tools_a_role_may_not_use_are_disabled_with_who_may(editor, qtbot):
    session.log_in(session.Session(None, "ana", "Ana", "atendente"))
    try:
        editor.load(editor.site_id)
        editor.items[uid_of(editor.plan, 2)].setSelected(True)
        assert not editor.tools.action_auto.isEnabled() and "chefe" in editor.tools.action_auto.toolTip()
        assert (
            not editor.tools.action_delete.isEnabled()
            and "editar locais e mapas" in editor.tools.action_delete.toolTip()
        )
        assert editor.holder_panel.assign_button.isEnabled()  # assigning a stall is hers to do
    finally:
        session.log_out()


def test_the_receipt_is_written_off_the_gui_thread(worklist, tmp_path, monkeypatch):
    import threading

    import reports.receipt

    tab, _app = worklist
    threads = []
    write = reports.receipt.write_receipt_pdf
    monkeypatch.setattr(
        reports.receipt,
        "write_receipt_pdf",
        lambda app, path: threads.append(threading.current_thread()) or write(app, path),
    )
    tab.table.selectRow(0)
    target = tmp_path / "recibo.pdf"
    assert tab.save_receipt(str(target)) == str(target)
    assert target.read_bytes().startswith(b"%PDF")
    assert threads and threads[0] is not threading.main_thread()


def test_billing_and_enforcement_buttons_a_role_may_not_use_say_who_may(app_ready, qtbot, database):
    from views.charges_page import ChargesTab
    from views.enforcement import RecordsTab

    with session.acting_as(session.Session(None, "ana", "Ana", "atendente")):
        charges, records = ChargesTab(), RecordsTab()
        qtbot.addWidget(charges)
        qtbot.addWidget(records)
        charges.refresh()
        records.refresh()
        assert not charges.generate_button.isEnabled()
        assert charges.generate_button.toolTip() == "Só chefe ou administrador pode gerar as cobranças do mês."
        assert not records.buttons["new"].isEnabled() and "fiscal" in records.buttons["new"].toolTip()
    with session.acting_as(session.Session(None, "bia", "Bia", "fiscal")):
        charges.refresh()
        records.refresh()
        assert records.buttons["new"].isEnabled() and records.buttons["new"].toolTip() == ""


@pytest.mark.parametrize("home", ["", "Sapezal"])
def test_a_companys_municipal_registration_recorded_in_its_form_counts_for_the_rule(database, tmp_path, home):
    from models.registry.people import CompanyInput, save_company
    from models.services.front_desk import eligibility_now
    from models.store.settings import MUNICIPALITY, set_settings

    set_store(tmp_path / "files")
    if home:
        set_settings({MUNICIPALITY: home})
    firm = save_company(
        CompanyInput(
            cnpj="11.222.333/0001-81",
            legal_name="Pipoca Olímpia Ltda.",
            city="Olímpia",
            state="SP",
            municipal_registration="48.213",
        )
    )
    app = create_application(
        ApplicationInput(regime="olimpia-2025", permit_kind="street-vending", company_id=firm.id),
        clerk="ana",
        today=TODAY,
    )
    rule = next(r for r in eligibility_now(app, today=TODAY).results if r.rule.kind == "municipal-registration")
    assert rule.status == "passed", rule.reason
    from models.registry.people import Company

    Company.update(municipal_registration="").where(Company.id == firm.id).execute()
    rule = next(
        r
        for r in eligibility_now(get_application(app.id), today=TODAY).results
        if r.rule.kind == "municipal-registration"
    )
    assert rule.status != "passed"


def test_the_registration_in_the_form_meets_the_document_only_where_the_act_says_so(database, tmp_path):
    """São Bento's file declares (recorded = "municipal-registration", art. 4º) that the inscrição mobiliária
    recorded in the company's form stands for that document; no other document is taken from the record."""
    from models.registry.people import Company, CompanyInput, save_company
    from models.rules.eligibility import evaluate_eligibility
    from models.rules.regimes import get_regime
    from models.rules.regimes.model import Rule
    from models.services.front_desk import applicant_facts, load_applicant
    from reports.receipt import receipt_context, receipt_html

    set_store(tmp_path / "files")
    in_time = dt.datetime(2026, 3, 20, 10, 0)  # within the Indomit's registration (Dec. 4.794/2026, art. 3º)
    regime = get_regime("sao-bento-2026")
    assert regime.document("municipal-registration").recorded == "municipal-registration"
    assert regime.document("cnpj-card").recorded is None
    firm = save_company(
        CompanyInput(
            cnpj="11.222.333/0001-81",
            legal_name="Pastel do Indomit Ltda.",
            city="São Bento do Sapucaí",
            state="SP",
            municipal_registration="7.031",
        )
    )
    app = create_application(
        ApplicationInput(regime="sao-bento-2026", permit_kind="event-stall", company_id=firm.id),
        clerk="ana",
        now=in_time,
    )

    def receipt():
        context = receipt_context(get_application(app.id))
        return {d["label"]: d for d in context["documents"]}, [d["label"] for d in context["missing"]]

    def rule():  # a document rule on it, as an act could write one
        facts = applicant_facts(
            load_applicant("company", firm.id),
            documents=[],
            today=in_time.date(),
            regime="sao-bento-2026",
            permit_kind="event-stall",
        )
        extra = Rule(kind="document", document="municipal-registration", basis="art. 4º")
        return evaluate_eligibility(regime, "event-stall", facts, extra_rules=[extra]).results[-1]

    label = regime.document("municipal-registration").label
    documents, missing = receipt()
    assert documents[label]["recorded"] == "inscrição municipal nº 7.031, no cadastro" and label not in missing
    assert regime.document("cnpj-card").label in missing  # the CNPJ on record is not its card: not declared
    assert "inscrição municipal nº 7.031, no cadastro" in receipt_html(get_application(app.id))
    assert rule().status == "passed" and "registrada no cadastro" in rule().reason
    Company.update(municipal_registration="").where(Company.id == firm.id).execute()
    documents, missing = receipt()
    assert documents[label]["recorded"] == "" and label in missing
    assert rule().status != "passed"
