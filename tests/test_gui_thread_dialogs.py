"""Issue 27 §5: no database on the GUI thread in the dialogs that write — Cadastros → Assinatura (creating,
rotating, revoking the key, unlocking this desk, the address, the page, the QR check), Cadastros → Usuários (a new
user, a role, a password, deactivating) —, in the application form's assessment and the price simulator, in
Fiscalização's record dialog and the acts on a record, in the application view, the site form and the map editor.
Each step is driven through its real widgets with the query log on (tests/query_log.py ``Steps``); a statement the
GUI thread runs is named by the screen line that asked for it. (Cobrança's return file and dívida ativa:
tests/test_collection.py; the import dialog: tests/test_import_dialog.py.)"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from conftest import run_modal, type_text
from factories import PASS
from factories import type_passphrase as _type_passphrase
from PySide6.QtCore import Qt, QTimer

from models.access import session
from models.access import signing_keys as sk


@pytest.fixture
def logged_out():
    yield
    session.log_out()


def test_the_signing_page_writes_off_the_gui_thread(
    database, app_ready, qtbot, tmp_path, fresh_desk, monkeypatch, steps
):
    import datetime as dt

    from models.store.files import set_store
    from views.signing_page import SigningPage

    set_store(tmp_path / "files")
    today = dt.date.today()
    page = SigningPage(today=today)
    qtbot.addWidget(page)
    page.refresh()
    with steps("criar a chave"):
        run_modal(page.create_key, _type_passphrase(PASS))
    kid = sk.active_key().key_id
    assert kid in page.state.text()
    sk._session.clear()  # another desk on the same database
    sk._private.clear()
    fresh_desk.clear()
    page.refresh()
    with steps("liberar esta mesa: senha errada"):
        wrong = _type_passphrase("uma senha que não é a dela")
        run_modal(page.unlock, wrong)
    assert f"Senha incorreta para a chave {kid}" in wrong.error
    with steps("liberar esta mesa"):
        run_modal(page.unlock, _type_passphrase(PASS))
    assert sk.is_unlocked()
    with steps("salvar o endereço"):
        type_text(page.url, "https://www.olimpia.sp.gov.br/verificar.html")
        qtbot.mouseClick(page.url_save, Qt.MouseButton.LeftButton)
    assert sk.verify_url() == "https://www.olimpia.sp.gov.br/verificar.html"
    out = tmp_path / "verificar.html"
    monkeypatch.setattr("views.save.QFileDialog.getSaveFileName", lambda *a, **k: (str(out), ""))
    with steps("exportar a página"):
        qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    assert out.exists() and "olimpia" in page.message.text()
    with steps("conferir um QR"):
        type_text(page.qr_text, "PRACA2.nada")
        qtbot.mouseClick(page.check_button, Qt.MouseButton.LeftButton)
    assert page.check_result.text()
    with steps("trocar a chave"):
        run_modal(page.rotate_key, _type_passphrase(PASS + "-2"))
    assert sk.active_key().key_id != kid
    page.table.selectRow([row.key_id for row in page.model.rows].index(kid))
    monkeypatch.setattr("views.signing_page.QInputDialog.getText", lambda *a, **k: ("senha vazada", True))
    with steps("revogar a chave"):
        qtbot.mouseClick(page.revoke_button, Qt.MouseButton.LeftButton)
    assert "revogada" in page.message.text()
    with steps("reassinar"):
        qtbot.mouseClick(page.resign_button, Qt.MouseButton.LeftButton)
    assert "Nenhuma permissão" in page.message.text()
    steps.check()


def test_the_users_page_writes_off_the_gui_thread(
    database, app_ready, qtbot, no_blocking_message_boxes, logged_out, steps
):
    from models.access.users import User, create_user
    from views.users_page import UsersPage

    password = "senha-forte-123"
    admin = create_user(username="admin", name="Admin", role="administrador", password=password)
    session.log_in(admin.as_session())
    page = UsersPage()
    qtbot.addWidget(page)
    page.refresh()

    def fill(dialog, login="ana.souza", confirm=password):
        type_text(dialog.name, "Ana Souza")
        type_text(dialog.username, login)
        dialog.role.setCurrentIndex(dialog.role.findData("atendente"))
        type_text(dialog.password, password)
        type_text(dialog.confirm, confirm)
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        fill.error = dialog.error.text()

    with steps("novo usuário: recusado"):
        run_modal(page.new_user, lambda d: fill(d, login="admin"))
    assert fill.error and User.select().count() == 1  # the login is taken: said at the field, nothing stored
    with steps("novo usuário"):
        run_modal(page.new_user, fill)
    assert "Usuário ana.souza cadastrado (atendente)" in page.message.text()
    page.table.selectRow([u.username for u in page.model.rows].index("ana.souza"))
    with steps("alterar o perfil"):
        assert page.change_role("fiscal")
    with steps("redefinir a senha"):
        assert page.reset_password("outra-senha-forte-456")
    with steps("senha curta: recusada"):
        assert not page.reset_password("curta")
    with steps("desativar"):
        assert page.toggle_active()
    ana = User.get(User.username == "ana.souza")
    assert ana.role == "fiscal" and not ana.active
    steps.check()


def test_saving_a_new_user_disables_save_and_keeps_the_window_responsive(
    database, app_ready, qtbot, logged_out, monkeypatch, queries
):
    """While the user is stored on the worker, Salvar is disabled and the GUI thread runs its timers; after, the
    button is enabled again."""
    import views.users_page as page_module
    from models.access.users import create_user

    admin = create_user(username="admin", name="Admin", role="administrador", password="senha-forte-123")
    session.log_in(admin.as_session())
    dialog = page_module.UserDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    type_text(dialog.name, "Ana Souza")
    type_text(dialog.username, "ana.souza")
    type_text(dialog.password, "senha-forte-123")
    type_text(dialog.confirm, "senha-forte-123")
    ticked, seen = threading.Event(), {}
    real = page_module.create_user

    def slow_create(**fields):
        assert ticked.wait(5), "the GUI thread was blocked while the user was stored"
        seen["enabled while saving"] = dialog.save_button.isEnabled()
        return real(**fields)

    monkeypatch.setattr(page_module, "create_user", slow_create)
    QTimer.singleShot(50, ticked.set)
    queries.entries.clear()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.user is not None and dialog.user.username == "ana.souza"
    assert seen == {"enabled while saving": False} and dialog.save_button.isEnabled()
    assert queries.entries and queries.on_gui_thread() == []


def test_the_application_form_assesses_off_the_gui_thread(qtbot, mei, steps):
    """Atendimento's form: opening it (the applicant and the town), choosing the act and the permit, typing the
    stall's size — the eligibility, the price and the filing check are worked out on a worker."""
    import datetime as dt

    from factories import statuses

    from views.application_form import ApplicationDialog

    with steps("abrir o formulário"):
        dialog = ApplicationDialog("company", mei.id, today=dt.date(2026, 11, 30), now=dt.datetime(2026, 3, 20, 10))
        qtbot.addWidget(dialog)
        dialog.show()
    with steps("escolher o ato e a permissão"):
        dialog.regime.setCurrentIndex(dialog.regime.findData("sao-bento-2026"))
        dialog.equipment.setCurrentIndex(dialog.equipment.findData("trailer"))
        dialog.settle()
    with steps("digitar o tamanho"):
        qtbot.keyClicks(dialog.front, "4")
        qtbot.keyClicks(dialog.depth_edit, "3")
        result = dialog.settle()
    assert result is not None and result.quote is not None and statuses(dialog)
    assert dialog.quote_table.rowCount() == len(result.quote.lines)
    steps.check()


def test_a_stale_assessment_is_dropped_when_the_clerk_types_on(qtbot, mei, monkeypatch):
    """The clerk changes the front while the last assessment still runs: that answer is never shown; the
    newest input's is."""
    import datetime as dt

    import views.application_form as form

    dialog = form.ApplicationDialog("company", mei.id, today=dt.date(2026, 11, 30), now=dt.datetime(2026, 3, 20, 10))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.regime.setCurrentIndex(dialog.regime.findData("sao-bento-2026"))
    dialog.equipment.setCurrentIndex(dialog.equipment.findData("trailer"))
    qtbot.keyClicks(dialog.depth_edit, "3")
    dialog.settle()
    real, gate, fronts = form.assess, threading.Event(), {}

    def slow_assess(applicant, data, **kwargs):
        if data.front == "4":
            assert gate.wait(5)
        result = real(applicant, data, **kwargs)
        fronts[id(result)] = data.front
        return result

    monkeypatch.setattr(form, "assess", slow_assess)
    shown, show = [], dialog._assessor.success
    dialog._assessor.success = lambda result: (shown.append(fronts[id(result)]), show(result))
    type_text(dialog.front, "4")
    dialog.update_assessment()  # the pause after typing: the assessment of "4" starts and waits
    dialog.front.clear()
    type_text(dialog.front, "5")
    dialog.update_assessment()  # a newer input while "4" is still being assessed
    gate.set()
    result = dialog.settle()
    assert shown == ["5"] and dialog.last_assessment is result
    assert (
        result.quote.total
        == real(dialog.applicant, dialog.application_input(), energy="none", now=dialog.now()).quote.total
    )


@pytest.fixture
def simulator(database, app_ready, qtbot):
    from views.price_simulator import PriceSimulator

    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    return sim


def test_the_price_simulator_prices_off_the_gui_thread(simulator, qtbot, steps):
    with steps("abrir o simulador"):
        simulator.refresh()
        simulator.settle()
    with steps("escolher o ato e o equipamento"):
        simulator.select_regime("sao-bento-2026")
        simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
        qtbot.keyClicks(simulator.depth_edit, "2")
        simulator.settle()
    for key in "2,5":
        with steps(f"digitar {key!r}"):
            qtbot.keyClicks(simulator.front, key)
            simulator.settle()
    assert simulator.total.text().replace("\xa0", " ") == "Total: R$ 528,28"  # 5,50 × 38,42 × 2,50
    assert "Calculado com o ato sao-bento-2026" in simulator.notes.text()
    del steps.worker["digitar ','"]  # "2," is "2": priced again, no statement needed beyond the caches
    steps.gui.pop("digitar ','")
    steps.check()


def test_the_price_simulator_drops_a_stale_price(simulator, qtbot, monkeypatch):
    import views.price_simulator as module

    simulator.refresh()
    simulator.select_regime("sao-bento-2026")
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    qtbot.keyClicks(simulator.depth_edit, "2")
    simulator.settle()
    real, gate = module.quote, threading.Event()

    def slow_quote(regime, **values):
        if str(values.get("front")) == "2":
            assert gate.wait(5)
        return real(regime, **values)

    monkeypatch.setattr(module, "quote", slow_quote)
    shown, show = [], simulator._pricing.success
    simulator._pricing.success = lambda answer: (shown.append(answer[0].total), show(answer))
    qtbot.keyClicks(simulator.front, "2")  # priced on the worker, which waits
    qtbot.keyClicks(simulator.front, ",5")  # newer inputs meanwhile: the price of "2" is stale
    gate.set()
    simulator.settle()
    assert len(shown) == 1 and simulator.total.text().replace("\xa0", " ") == "Total: R$ 528,28"


# -- Fiscalização: the record dialog, the tab's acts on a record, the seized goods ---------------------------------

FISCAL_DAY = dt.date(2026, 3, 16)


@pytest.fixture
def fiscal(database, keys, app_ready, qtbot):
    from views.enforcement import EnforcementPage

    page = EnforcementPage(today=FISCAL_DAY)
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()
    return page


def test_the_record_dialog_searches_previews_adjusts_and_issues_off_the_gui_thread(fiscal, qtbot, steps):
    """Novo auto: opening it, the act, the offender searched as one types, the permit's number, the preview as the
    form changes, an adjustment refused and one made, Lavrar — the registry, the acts and the proposal read on a
    worker; then the record's follow-up and correction opened, and the authority deciding its sanctions."""
    from factories import person

    from models import enforcement as enf
    from views.enforcement import RecordDialog

    maria = person("Maria Quitandeira Souza")
    tab = fiscal.records
    with steps("abrir o auto"):
        base = enf.RecordDraft(kind="infraction", regime="olimpia-2025", at=dt.datetime(2026, 3, 16, 9, 45))
        dialog = RecordDialog(base, tab, today=FISCAL_DAY)
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.settle()
    assert not dialog.issue_button.isEnabled()  # refused at its fields: nothing to issue yet
    with steps("escolher a matéria, buscar o autuado"):
        dialog.form.scope.setCurrentIndex(dialog.form.scope.findData("street-food"))
        type_text(dialog.form.offender_search, "quitandeira")
        dialog.settle()
    assert dialog.form.matches.rowCount() == 1 and "Maria Quitandeira Souza" in dialog.form.offender_label.text()
    assert dialog.offender == ("person", maria.id)
    with steps("a permissão pelo número"):
        type_text(dialog.form.permit_number, "2026/99999")
        dialog.settle()
    assert dialog.form.permit_found.text()  # why it is not found, said beside the field
    with steps("preencher: a prévia acompanha"):
        dialog.form.permit_number.clear()
        type_text(dialog.form.place, "Praça Rui Barbosa")
        type_text(dialog.form.facts, "Área do equipamento suja, sem recipiente para o lixo.")
        type_text(dialog.form.infraction_search, "lixo")
        dialog.check_infraction("tpu-area-suja")
        type_text(dialog.form.inspector_id, "4521")
        dialog.settle()
    assert "R$ 1.152,60" in dialog.proposal_view.toPlainText() and dialog.issue_button.isEnabled()

    def too_much(adjust):
        adjust.what.setCurrentIndex(adjust.what.findData("amount"))
        type_text(adjust.value, "50.000,00")
        type_text(adjust.reason, "muito lixo")
        adjust.accept()

    with steps("ajustar: recusado"):
        assert dialog.ask_adjustment(dialog_hook=too_much) is None
    with steps("desfazer ajustes"):
        qtbot.mouseClick(dialog.clear_adjust_button, Qt.MouseButton.LeftButton)
        dialog.settle()
    with steps("lavrar"):
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)
    record = dialog.record
    assert record is not None and dialog.fined and record.reference == "AI nº 2026/00001"
    tab.refresh_rows()
    tab.select_record(record.id)

    def leave(d):
        d.settle()
        d.reject()

    with steps("seguimento: abrir"):
        tab.follow_up(dialog_hook=leave)
    assert "seguimento" in tab.last_dialog.windowTitle()
    with steps("corrigir: abrir"):
        tab.correct_selected(dialog_hook=leave)
    assert "Maria Quitandeira Souza" in tab.last_dialog.form.offender_label.text()

    def omit(adjust):  # the seizure São Bento's act leaves to the authority (test_legal_terms)
        adjust.sanction.setCurrentIndex(adjust.sanction.findData(2))
        adjust.what.setCurrentIndex(adjust.what.findData("omit"))
        type_text(adjust.reason, "mercadoria dentro da barraca")
        adjust.accept()

    from factories import draft
    from factories import issue_record as issue

    other = issue(
        draft("sao-bento-2026", ["sem-placa"], "28/03/2026 20:00", holder=maria, payment_due=dt.date(2026, 4, 30))
    )
    tab._today = dt.date(2026, 3, 30)
    tab.refresh_rows()
    tab.select_record(other.id)
    with steps("decidir sanções"):
        event = tab.decide_sanctions_selected(dialog_hook=omit)
    assert event is not None and event.text in tab.message.text(), tab.message.text()
    steps.check()


def test_a_stale_offender_search_is_dropped_when_the_inspector_types_on(fiscal, qtbot, monkeypatch):
    """The inspector types on while the registry is still searched for the last text: those matches are never
    shown; the newest text's are."""
    from factories import person

    from models import enforcement as enf
    from views.enforcement import RecordDialog

    person("Maria Quitandeira Souza")
    person("Mariana Pipoqueira Lima")
    dialog = RecordDialog(
        enf.RecordDraft(kind="infraction", regime="olimpia-2025", at=None), fiscal.records, today=FISCAL_DAY
    )
    qtbot.addWidget(dialog)
    real, gate, shown = enf.offender_matches, threading.Event(), []

    def slow(text, limit=30):
        if text == "mari":
            assert gate.wait(5)
        return real(text, limit)

    monkeypatch.setattr(enf, "offender_matches", slow)
    dialog._matcher.query = slow
    show = dialog._matcher.success
    dialog._matcher.success = lambda rows: (shown.append([r.name for r in rows]), show(rows))
    dialog.form.offender_search.setText("mari")  # searched on the worker, which waits
    dialog.form.offender_search.setText("mariana")  # a newer text meanwhile: the matches of "mari" are stale
    gate.set()
    dialog.settle()
    assert shown == [["Mariana Pipoqueira Lima"]] and dialog.form.matches.rowCount() == 1


def _seizure():
    """A seizure record of Olímpia's feira, its goods in the depot (Ronaldo's bananas)."""
    from factories import draft, person
    from factories import issue_record as issue

    from models import enforcement as enf

    return issue(
        draft(
            "olimpia-2025",
            ["feira-sem-autorizacao"],
            "14/03/2026 07:00",
            kind="seizure",
            holder=person("Ronaldo Pipoqueiro"),
            scope="feira",
            depot="Galpão da feira",
            items=[enf.ItemInput("caixas de banana", "3", "cx", True)],
        )
    )


def test_the_contest_its_decision_and_the_seized_goods_run_off_the_gui_thread(fiscal, qtbot, steps):
    seizure = _seizure()
    tab = fiscal.records
    tab.refresh_rows()
    tab.select_record(seizure.id)

    def file_it(dialog):
        type_text(dialog.grounds, "A feira estava autorizada verbalmente.")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    with steps("protocolar a defesa"):
        contest = tab.contest_selected("defence", dialog_hook=file_it)
    assert contest is not None

    def decide(dialog):
        dialog.outcome.setCurrentIndex(dialog.outcome.findData("upheld"))
        type_text(dialog.reason, "Não havia autorização.")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)

    with steps("julgar a defesa"):
        decided = tab.decide_selected(dialog_hook=decide)
    assert decided is not None and "julgada" in tab.message.text()
    goods = fiscal.seizures
    fiscal.tabs.setCurrentWidget(goods)
    goods.refresh()
    goods.table.selectRow([r.reference for r in goods.model.rows].index(seizure.reference))
    with steps("cobrar diárias"):
        qtbot.mouseClick(goods.charge_button, Qt.MouseButton.LeftButton)
    assert "Diárias de depósito lançadas" in goods.message.text()
    steps.check()


def test_charging_the_depot_holds_the_buttons_and_keeps_the_window_responsive(fiscal, qtbot, monkeypatch):
    from models import enforcement as enf

    seizure = _seizure()
    goods = fiscal.seizures
    goods.refresh()
    goods.table.selectRow(0)
    assert goods.selected().reference == seizure.reference
    ticked, seen, real = threading.Event(), {}, enf.charge_depot_fee

    def slow(*args, **kwargs):
        assert ticked.wait(5), "the GUI thread was blocked while the charge was written"
        seen["buttons"] = [b.isEnabled() for b in goods._buttons()]
        return real(*args, **kwargs)

    monkeypatch.setattr(enf, "charge_depot_fee", slow)
    QTimer.singleShot(50, ticked.set)
    qtbot.mouseClick(goods.charge_button, Qt.MouseButton.LeftButton)
    assert seen == {"buttons": [False, False, False]} and "Diárias de depósito lançadas" in goods.message.text()
    assert goods.charge_button.isEnabled()


# -- Atendimento: the application as filed (Requerimentos → Abrir) ------------------------------------------------


def test_the_application_view_reads_and_decides_off_the_gui_thread(
    database, app_ready, qtbot, tmp_path, monkeypatch, logged_out, steps
):
    """Opening a filed application (the record, its eligibility today, files, history) and refusing it: the
    reads and the move on workers."""
    from models.registry.applications import ApplicationInput, change_status, get_application
    from models.registry.people import PersonInput, save_person
    from models.services.filing import create_application
    from models.store.files import set_store
    from views.front_desk import WorklistTab

    set_store(tmp_path / "files")
    today = dt.date(2026, 11, 30)
    person = save_person(
        PersonInput(name="Maria José da Silva", cpf="529.982.247-25", birth_date=dt.date(1980, 5, 17)), today=today
    )
    app = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana", today=today
    )
    change_status(app, "analysis", by="ana")
    session.log_in(session.Session(None, "chefe", "Chefe", "chefe"))
    tab = WorklistTab()
    qtbot.addWidget(tab)
    tab.show()
    tab.refresh()
    tab.table.selectRow(0)
    with steps("abrir o requerimento"):
        dialog = tab.open_selected(dialog_hook=lambda d: None)
    assert "Maria José da Silva" in dialog.filed.toPlainText() and "Elegibilidade" in dialog.filed.toPlainText()
    assert [dialog.history.item(r, 2).text() for r in range(dialog.history.rowCount())] == ["recebido", "em análise"]
    with steps("indeferir"):
        assert dialog.refuse("documentação incompleta")
    assert dialog.decision == "refused" and get_application(app.id).status == "refused"
    steps.check()


# -- Mapas: the site form, the map editor's assignment and export --------------------------------------------------


def test_the_site_form_and_the_map_editor_run_off_the_gui_thread(app_ready, qtbot, feira, keys, tmp_path, steps):
    """Editar local (opening, a refusal at its cell, saving), then in the map a holder assigned — refused by the act
    at the holder's line — and the map exported: the site, the act's checks and the export's data on workers."""
    from factories import feirante, person

    from models.sites import SiteSegment
    from views.maps_page import MapsPage

    holder = feirante(keys, person("Ana Pasteleira"), site="Feira do Teste")
    page = MapsPage()
    qtbot.addWidget(page)
    page.resize(1400, 800)
    page.show()
    page.refresh()

    def fill(dialog):
        type_text(dialog.name, "Rua São João")
        dialog.regime.setCurrentIndex(dialog.regime.findData("olimpia-2025"))
        for column, text in enumerate(("Rua São João", "Rua A", "Rua B", "abc", "9")):
            dialog.segments.item(0, column).setText(text)
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert dialog.saved_site is None and "não é um número" in dialog.segments.item(0, 3).toolTip()  # refused
        dialog.segments.item(0, 3).setText("120,00")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    with steps("novo local: abrir, recusado, salvo, o mapa aberto"):
        site = page.new_site(dialog_hook=fill)
    assert site is not None and SiteSegment.get(SiteSegment.site == site.id).length == 120
    with steps("editar local: abrir"):
        page.select_site(feira.id)
        page.edit_site(dialog_hook=lambda dialog: None)
    assert page.last_dialog.name.text() == "Feira do Teste"
    editor = page.editor
    editor._reload_holders()
    editor.holder_panel.holder_filter.setText(holder.number)
    editor.holder_panel.holder_list.setCurrentRow(0)
    editor.select_stalls([next(iter(editor.plan.stalls))])
    with steps("atribuir: recusado pelo ato"):
        qtbot.mouseClick(editor.holder_panel.assign_button, Qt.MouseButton.LeftButton)
    assert "é da Seção XVI" in editor.holder_panel.holder_message.text()
    with steps("exportar o mapa"):
        assert editor.export_to(tmp_path / "mapa.svg")
    assert (tmp_path / "mapa.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    steps.check()
