"""Issue 31 §3: first steps — the checklist read from the database, ticked as each step is done; a refusal for a
missing step that names it and opens it; Primeiros passos taking a new database to a first permit printed."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal, type_text
from factories import person, type_passphrase
from pdftext import pdf_text
from PySide6.QtCore import QSettings, Qt

from models.access import session
from models.access import signing_keys as sk
from models.access.users import create_user
from models.base.errors import UserError
from models.billing.collection.agreement import require_agreement, set_agreement
from models.registry.applications import ApplicationInput, change_status
from models.rules.holidays import add_holiday
from models.services.filing import create_application
from models.services.first_steps import confirm_no_collection, confirm_no_holidays, first_steps, pending
from models.store.bootstrap import open_database
from models.store.files import set_store
from models.store.settings import MUNICIPALITY, STATE, set_settings

PASSPHRASE = "uma senha bem longa"


def done() -> dict[str, bool]:
    return {step.id: step.done for step in first_steps()}


def test_the_checklist_ticks_as_each_step_is_done(database):
    assert done() == dict.fromkeys(("municipality", "acts", "signing", "holidays", "users", "collection"), False)
    set_settings({MUNICIPALITY: "Olímpia", STATE: "SP"})
    assert done()["municipality"] and done()["acts"]  # Olímpia's act is one of the acts shipped and installed
    why = {s.id: s.why for s in first_steps()}
    assert "Lei Complementar nº 324" in why["acts"] and "(olimpia-2025)" in why["acts"]

    sk.create_key(PASSPHRASE)
    assert done()["signing"]
    sk.forget()  # the key exists; this desk does not sign until unlocked
    step = next(s for s in first_steps() if s.id == "signing")
    assert not step.done and "ainda não assina" in step.why
    sk.unlock(PASSPHRASE, remember=False)
    assert done()["signing"]

    confirm_no_holidays(today=dt.date(2026, 12, 7))
    step = next(s for s in first_steps() if s.id == "holidays")
    assert step.done and "Sistema" in step.why and "07/12/2026" in step.why
    confirm_no_holidays(False)
    assert not done()["holidays"]
    add_holiday("Olímpia", "SP", "24/06", name="São João Batista", source="Lei municipal nº 1/1950")
    assert done()["holidays"]

    create_user(username="admin", name="Administradora", role="administrador", password="segredo123")
    assert not done()["users"]  # the administrator alone works no desk
    create_user(username="ana", name="Ana Souza", role="atendente", password="segredo123")
    step = next(s for s in first_steps() if s.id == "users")
    assert step.done and step.why == "2 usuários ativos: administrador (1), atendente (1)."

    assert [s.id for s in pending()] == ["collection"]
    confirm_no_collection()
    assert pending() == []
    confirm_no_collection(False)
    set_agreement(agreement="1234", value_id="6")
    assert pending() == []


def test_an_act_that_lacks_a_step_names_it(database):
    with pytest.raises(UserError) as no_key:
        sk.municipal_signer()
    assert no_key.value.step == "signing"
    sk.create_key(PASSPHRASE)
    sk.forget()
    with pytest.raises(UserError, match="ainda não pode assinar") as locked:
        sk.municipal_signer()
    assert locked.value.step == "signing"
    with pytest.raises(UserError) as no_agreement:
        require_agreement()
    assert no_agreement.value.step == "collection"


def test_another_town_has_its_act_installed_from_a_file(database):
    set_settings({MUNICIPALITY: "Campinas", STATE: "SP"})
    step = next(s for s in first_steps() if s.id == "acts")
    assert not step.done and "Nenhum ato de Campinas" in step.why


# --------------------------------------------------------------------------- the screens


@pytest.fixture
def new_window(app_ready, qtbot, db_url, tmp_path):
    """A window on a new database, its first user (the administrator) logged in, as a first start leaves it."""
    QSettings().clear()
    open_database(db_url, create=True)
    set_store(tmp_path / "files")
    admin = create_user(username="admin", name="Beatriz Prado", role="administrador", password="segredo123")
    session.log_in(admin.as_session())
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def marks(home) -> dict[str, str]:
    return {key: label.text() for key, label in home.step_marks.items()}


def test_the_first_steps_path_takes_a_new_database_to_a_first_permit_printed(new_window, qtbot, tmp_path):
    window = new_window
    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.first_steps.isVisible() and set(marks(home).values()) == {"○"}

    steps = window.open_first_steps()
    assert steps.isVisible() and steps.current_step() == "municipality"
    form = steps.municipality_form  # Cadastros → Município's form (issue 31 §1)
    type_text(form.name, "Olímpia")
    form.state.setCurrentIndex(form.state.findText("SP"))
    type_text(form.ibge, "3533908")
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    assert form.message.text() == "Município salvo: Olímpia/SP.", form.error.text()
    assert steps.step("municipality").done and marks(home)["municipality"] == "✔"  # the Painel follows
    assert "Olímpia/SP" in window.windowTitle()

    # a new database holds no act: the step offers Olímpia's, the one act Praça ships for it, and nobody else's
    assert not steps.step("acts").done and "olimpia-2025" in steps.step("acts").why
    assert list(steps.shipped_buttons) == ["olimpia-2025"]
    steps.install_shipped("sjc-2014")  # another town's act: refused in the model, said at the step
    assert "é de São José dos Campos/SP" in steps.pages["acts"].message.text()
    qtbot.mouseClick(steps.shipped_buttons["olimpia-2025"], Qt.MouseButton.LeftButton)
    assert "Ato olimpia-2025 instalado" in steps.pages["acts"].message.text()
    assert steps.step("acts").done and marks(home)["acts"] == "✔" and not steps.shipped_buttons
    from models.rules.regimes import shipped_regimes

    assert list(shipped_regimes()) == ["olimpia-2025"]  # the one act this database prices, lists and reports with

    # a first application, filed and approved at the front desk (the desks' own tests drive those forms)
    today = dt.date.today()
    holder = person("Maria Aparecida Lopes")
    app = create_application(
        ApplicationInput(
            regime="olimpia-2025",
            permit_kind="street-food-tpu-a",
            person_id=holder.id,
            site="Praça Rui Barbosa",
            equipment="food-truck",
        ),
        clerk="admin",
        today=today,
    )
    change_status(change_status(app, "analysis", by="admin"), "approved", by="admin")

    # issuing before the key exists: refused, the step named, and its link opens it
    window.show_desk("atendimento")
    desk = window.pages["atendimento"]
    desk.tabs.setCurrentWidget(desk.worklist)
    desk.worklist.refresh_rows()
    desk.worklist.select_protocol(app.protocol)
    qtbot.mouseClick(desk.worklist.issue_button, Qt.MouseButton.LeftButton)
    said = desk.worklist.message.text()
    assert "chave de assinatura" in said and "Chave de assinatura" in said and 'href="passo:signing"' in said
    steps.list.setCurrentRow(0)
    desk.worklist.message.linkActivated.emit("passo:signing")
    assert steps.isVisible() and steps.current_step() == "signing"
    assert steps.create_key.isEnabled() and not steps.unlock.isEnabled()  # no key yet: nothing to unlock

    opened, _ = run_modal(
        lambda: qtbot.mouseClick(steps.create_key, Qt.MouseButton.LeftButton), type_passphrase(PASSPHRASE)
    )
    assert opened is not None and steps.step("signing").done
    assert "criada" in steps.pages["signing"].message.text()
    assert not steps.create_key.isEnabled() and not steps.unlock.isEnabled()  # one key, and this desk signs

    steps.next_button.click()
    assert steps.current_step() == "holidays"
    qtbot.mouseClick(steps.no_holidays, Qt.MouseButton.LeftButton)
    assert steps.step("holidays").done and "Beatriz Prado" in steps.step("holidays").why

    steps.next_button.click()
    assert steps.current_step() == "users"

    def new_clerk(dialog):
        type_text(dialog.name, "Ana Souza")
        type_text(dialog.username, "ana.souza")
        dialog.role.setCurrentIndex(dialog.role.findData("atendente"))
        type_text(dialog.password, "segredo123")
        type_text(dialog.confirm, "segredo123")
        dialog.accept()

    steps._new_user(dialog_hook=new_clerk)
    assert steps.step("users").done

    steps.next_button.click()
    qtbot.mouseClick(steps.no_collection, Qt.MouseButton.LeftButton)
    assert steps.step("collection").done
    assert all(s.done for s in steps.steps)
    window.show_desk("painel")
    assert not home.first_steps.isVisible()  # every step done: the checklist is gone

    window.show_desk("atendimento")
    desk.worklist.select_protocol(app.protocol)
    qtbot.mouseClick(desk.worklist.issue_button, Qt.MouseButton.LeftButton)
    permit = desk.worklist.last_permit
    assert permit is not None and "emitida" in desk.worklist.message.text()
    desk.tabs.setCurrentWidget(desk.permits)
    assert desk.permits.select_permit(permit.id)
    out = desk.permits.acts.save_pdf("permit", tmp_path / "permissao.pdf")
    assert out is not None and out.is_file()
    text = pdf_text(out, squash="all")
    assert permit.number in text and "Maria Aparecida Lopes" in text


def test_the_painel_checklist_ticks_and_its_buttons_open_each_tab(new_window, qtbot):
    window = new_window
    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.first_steps.isVisible() and marks(home)["municipality"] == "○"
    qtbot.mouseClick(home.step_buttons["signing"], Qt.MouseButton.LeftButton)
    registry = window.pages["cadastros"]
    assert window.current_desk() == "cadastros" and registry.tabs.currentWidget() is registry.signing
    set_settings({MUNICIPALITY: "Olímpia", STATE: "SP"})
    confirm_no_holidays()
    window.show_desk("painel")
    assert marks(home) == {
        "municipality": "✔",
        "acts": "○",  # a new database holds no act until the administrator installs the town's
        "signing": "○",
        "holidays": "✔",
        "users": "○",
        "collection": "○",
    }
    assert not home.step_buttons["holidays"].isVisibleTo(home) and home.step_buttons["users"].isVisibleTo(home)


def test_a_guia_without_an_agreement_names_the_step_and_opens_it(new_window, qtbot):
    from PySide6.QtWidgets import QLabel

    from views.blocks import user_errors

    label = QLabel()
    qtbot.addWidget(label)
    with user_errors(label) as refused:
        require_agreement()
    assert refused and "Convênio de arrecadação" in label.text() and 'href="passo:collection"' in label.text()
    label.linkActivated.emit("passo:collection")
    dialog = new_window.first_steps_dialog
    assert dialog.isVisible() and dialog.current_step() == "collection"


def test_a_new_database_opens_the_first_steps(app_ready, qtbot, db_url, tmp_path, monkeypatch):
    from desktop.main_window import MainWindow

    QSettings().clear()
    set_store(tmp_path / "files")
    monkeypatch.setattr(MainWindow, "_confirm_new_database", lambda self, exc: True)
    window = MainWindow(opening=db_url, log_in=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window._ready, timeout=20000)
    dialog = window.first_steps_dialog
    assert dialog.isVisible() and dialog.current_step() == "municipality"
    dialog.close()


def test_another_town_installs_its_act_from_a_file_through_the_first_steps(new_window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    import views.regimes_page
    from models.rules.regimes import default_regimes_folder

    text = (default_regimes_folder() / "sapezal-2014.toml").read_text(encoding="utf-8")
    text = text.replace('id = "sapezal-2014"', 'id = "campinas-2026"', 1)
    text = text.replace('municipality = "Sapezal"', 'municipality = "Campinas"', 1).replace(
        'state = "MT"', 'state = "SP"', 1
    )
    act = tmp_path / "campinas-2026.toml"
    act.write_text(text, encoding="utf-8")
    set_settings({MUNICIPALITY: "Campinas", STATE: "SP"})
    steps = new_window.open_first_steps()
    assert steps.current_step() == "acts" and "Nenhum ato de Campinas" in steps.step("acts").why
    monkeypatch.setattr(views.regimes_page, "open_file_name", lambda *a, **k: (str(act), ""))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(steps.install_act, Qt.MouseButton.LeftButton)
    registry = new_window.pages["cadastros"]
    assert registry.tabs.currentWidget() is registry.regimes_page, registry.regimes_page.error.text()
    assert steps.step("acts").done and "(campinas-2026)" in steps.step("acts").why


def test_f1_in_the_first_steps_opens_their_guide(new_window, qtbot):
    steps = new_window.open_first_steps()
    qtbot.waitUntil(steps.isActiveWindow, timeout=5000)
    qtbot.keyClick(steps.list, Qt.Key.Key_F1)
    assert new_window.help_window.isVisible() and new_window.help_window.key == "primeiros-passos"


def test_a_message_line_of_the_permits_tab_offers_the_missing_step_too(app_ready, qtbot):
    from views.blocks import user_errors
    from views.permits.common import MessageLine

    line = MessageLine()
    qtbot.addWidget(line)
    with user_errors(line.say_refusal) as refused:
        raise UserError("Esta mesa ainda não pode assinar com a chave ABCD1234 da prefeitura.", step="signing")
    assert refused and "ABCD1234" in line.text() and 'href="passo:signing"' in line.text()
    with user_errors(line.say_refusal):
        raise UserError("Outra recusa.")
    assert line.text() == "Outra recusa."  # a refusal of no step: no link


def test_praca_first_steps_lists_the_checklist_and_records_the_answers(db_url, monkeypatch, capsys):
    import json

    from desktop.cli import main

    monkeypatch.setenv("PRACA_PASSWORD", "senha-forte-123")
    assert main(["init", "--db", db_url, "--admin", "joana.silva", "--admin-name", "Joana Silva"]) == 0
    capsys.readouterr()
    assert main(["first-steps", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "○ Município — Informe o município — nome, UF, código IBGE" in out
    assert "○ Convênio de arrecadação (opcional)" in out
    assert "Falta(m): Município, Ato(s) do município" in out
    with session.acting_as(None):
        monkeypatch.delenv("PRACA_USER", raising=False)
        assert main(["first-steps", "no-holidays", "--db", db_url]) == 2  # the administrator's word: a login
        assert "exige login" in capsys.readouterr().err
        monkeypatch.setenv("PRACA_USER", "joana.silva")
        assert main(["first-steps", "no-holidays", "--db", db_url]) == 0
    assert "✔ Feriados municipais — Sem feriados municipais (confirmado por Joana Silva em" in capsys.readouterr().out
    assert main(["first-steps", "--json", "--db", db_url]) == 0
    steps = {s["id"]: s for s in json.loads(capsys.readouterr().out)}
    assert steps["holidays"]["done"] and not steps["signing"]["done"] and steps["collection"]["optional"]


def test_holidays_entered_under_the_acts_town_count_whatever_the_spelling_of_the_municipality(database):
    set_settings({MUNICIPALITY: "Olimpia", STATE: "SP"})  # typed without the accent: its act is still found
    assert done()["acts"] and not done()["holidays"]
    add_holiday("Olímpia", "SP", "24/06", name="São João Batista", source="Lei municipal nº 1/1950")
    assert done()["holidays"]


def test_liberar_esta_mesa_from_the_first_steps_ticks_the_painel(new_window, qtbot):
    window = new_window
    window.show_desk("cadastros")
    sk.create_key(PASSPHRASE)
    sk.forget()  # another desk created the key: this one does not sign yet
    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.step_marks["signing"].text() == "○" and "ainda não assina" in home.step_texts["signing"].text()
    steps = window.open_first_steps("signing")
    assert steps.unlock.isEnabled() and not steps.create_key.isEnabled()
    wrong, _ = run_modal(
        lambda: qtbot.mouseClick(steps.unlock, Qt.MouseButton.LeftButton), type_passphrase("outra senha longa")
    )
    assert wrong is not None and not steps.step("signing").done
    run_modal(lambda: qtbot.mouseClick(steps.unlock, Qt.MouseButton.LeftButton), type_passphrase(PASSPHRASE))
    assert steps.step("signing").done and "Esta mesa assina" in steps.pages["signing"].message.text()
    window.show_desk("cadastros")
    window.show_desk("painel")
    assert home.step_marks["signing"].text() == "✔"


def test_the_holidays_step_opens_feriados_on_the_municipality(new_window, qtbot):
    from models.rules.acts import install_shipped_act

    set_settings({MUNICIPALITY: "São Bento do Sapucaí", STATE: "SP"})
    with session.acting_as(session.SYSTEM):
        install_shipped_act("sao-bento-2026")
    steps = new_window.open_first_steps("holidays")
    qtbot.mouseClick(steps.pages["holidays"].open_tab, Qt.MouseButton.LeftButton)
    registry = new_window.pages["cadastros"]
    assert registry.tabs.currentWidget() is registry.holidays_page
    assert registry.holidays_page.current_town() == ("São Bento do Sapucaí", "SP")


def test_the_first_steps_read_and_write_off_the_gui_thread(new_window, qtbot):
    import logging
    import threading

    statements: list[str] = []

    class OnGuiThread(logging.Handler):
        def emit(self, record):
            if threading.current_thread() is threading.main_thread():
                statements.append(str(record.msg)[:80])

    log = logging.getLogger("peewee")
    handler, level = OnGuiThread(logging.DEBUG), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        steps = new_window.open_first_steps()
        for index in range(steps.list.count()):
            steps.list.setCurrentRow(index)
        qtbot.mouseClick(steps.no_holidays, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(steps.no_collection, Qt.MouseButton.LeftButton)
        new_window.show_desk("painel")
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    assert steps.step("holidays").done and steps.step("collection").done
    assert statements == []
