"""Permissões driven like a clerk, the screen's side: what the details and buttons show, the documents refused, the
confirmations and reasons asked, the dialogs' refusals at their fields, the keyboard, the table models.

Every test runs on SQLite only (tests/loop.py ``SQLITE_ONLY``): what they check is drawn by the screen. The acts they
reach are tested on both back ends — suspend, reactivate, revoke and cancel with their grounds, renewal refused, the
start-up and pick-up deadlines, leave, transfer and exchange in test_permits; the searches and the writes made on
workers, with the GUI thread's statements counted, in test_permits_tab.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest
from conftest import run_modal, searched, type_text
from factories import (
    TODAY,
    click,
    company,
    event_stall,
    feirante,
    history_kinds,
    person,
    sapezal_licence,
    select,
    set_status,
    shown,
    tpu,
)
from pdftext import pdf_text
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QMessageBox, QPushButton, QTabWidget

from models.permits import PermitEvent, find_permit, revoke, suspend

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) ausente")


def test_the_details_show_the_renewal_window_with_its_article(make_tab, keys):
    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    fair = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, truck.number)
    assert tab.detail_labels["renewal"].text() == (
        "pedido de 03/04/2031 a 30/09/2031 (entre 240 e 60 dias antes do "
        "fim da validade; LC 324/2025, art. 166; art. 177)"
    )
    assert "LC 324/2025" in tab.detail_labels["validity"].text()
    assert not tab.buttons["renew"].isEnabled() and "03/04/2031" in tab.buttons["renew"].toolTip()
    # the TPU has no placard, no leave and no transfer to heirs; the SJC feirante has leave and transfer
    assert not tab.buttons["pdf-placard"].isEnabled()
    assert not tab.buttons["leave"].isEnabled() and not tab.buttons["transfer"].isEnabled()
    select(tab, fair.number)
    assert "não prevê renovação" in tab.detail_labels["renewal"].text()
    assert tab.buttons["leave"].isEnabled() and tab.buttons["transfer"].isEnabled()
    assert history_kinds(tab) == ["emissão"]


@needs_pdftotext
def test_pdf_buttons_write_the_permit_card_and_placard(make_tab, keys, tmp_path, clock):
    holder = company("Barraca Boa Eventos Ltda", person("Pedro Alves Costa"), registration="445566")
    permit = event_stall(keys, holder)
    clock.day = dt.date(2026, 3, 20)  # the day it was issued, a week before the event
    tab = make_tab()
    select(tab, permit.number)
    for key in ("pdf-permit", "pdf-card", "pdf-placard", "print"):
        assert tab.buttons[key].isEnabled(), key
    texts = {}
    for what in ("permit", "card", "placard"):
        out = tab.acts.save_pdf(what, tmp_path / f"{what}.pdf")
        assert out == tmp_path / f"{what}.pdf" and out.is_file()
        assert str(out) in tab.message.text()
        texts[what] = pdf_text(out, squash="all")  # the placard wraps its big lines
    assert permit.number in texts["permit"] and "Barraca Boa Eventos Ltda" in texts["permit"]
    assert permit.number in texts["card"]
    assert "BARRACA BOA EVENTOS LTDA" in texts["placard"] and "445566" in texts["placard"]
    # and printed: the same document, re-laid out for the printer (here a PDF printer)
    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert tab.acts.print_permit(printer)
    assert permit.number in pdf_text(tmp_path / "printed.pdf", squash="all")
    assert "enviada para impressão" in tab.message.text()


def test_documents_of_a_permit_no_longer_in_force_are_refused(make_tab, keys, tmp_path):
    permit = revoke(
        tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias"))),
        by="fiscal",
        reason="Sublocação",
        today=TODAY,
    )
    tab = make_tab()
    set_status(tab, "revoked")
    select(tab, permit.number)
    assert not any(b.isEnabled() for b in tab.buttons.values())
    assert tab.acts.save_pdf("card", tmp_path / "card.pdf") is None  # even when called directly
    assert "está cassada" in tab.message.text() and not (tmp_path / "card.pdf").exists()


def test_a_permit_past_its_last_day_is_not_printed(make_tab, keys, clock, tmp_path):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    clock.day = dt.date(2028, 1, 1)  # ended 31/12/2027, not yet marked expired
    tab = make_tab()
    set_status(tab, "expired")
    select(tab, permit.number)
    assert tab.selected().status_label == "vencida em 31/12/2027 (baixa pendente)"
    for key in ("pdf-permit", "pdf-card", "print", "suspend", "reactivate", "renew", "leave"):
        assert not tab.buttons[key].isEnabled(), key
    assert tab.buttons["revoke"].isEnabled() and tab.buttons["cancel"].isEnabled()
    assert tab.acts.save_pdf("permit", tmp_path / "p.pdf") is None and not (tmp_path / "p.pdf").exists()
    assert "terminou em 31/12/2027" in tab.message.text()


def test_suspend_asks_confirmation_and_reason_then_reactivate(
    make_tab, keys, qtbot, monkeypatch, no_blocking_message_boxes
):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)
    asked = []
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: asked.append(a[2]) or ("Banca fora do lugar", True))
    # "No" to the confirmation: nothing asked, nothing changed
    with monkeypatch.context() as patch:
        patch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
        click(qtbot, tab.buttons["suspend"])
    assert asked == [] and find_permit(permit.number).status == "active"
    click(qtbot, tab.buttons["suspend"])
    assert "Suspender a permissão nº" in no_blocking_message_boxes[-1]
    assert asked == ["Motivo da suspensão:"]
    assert find_permit(permit.number).status == "suspended"
    # still selected (the "Ativas" filter gave way), its status and history on screen
    assert tab.selected().number == permit.number and tab.selected().status_label == "suspensa"
    assert history_kinds(tab) == ["emissão", "suspensão"]
    reasons = [tab.history_model.data(tab.history_model.index(r, 2)) for r in range(tab.history_model.rowCount())]
    assert reasons[-1] == "Banca fora do lugar"
    assert tab.message.text() == f"Permissão nº {permit.number} suspensa."
    assert not tab.buttons["suspend"].isEnabled() and tab.buttons["reactivate"].isEnabled()
    click(qtbot, tab.buttons["reactivate"])
    assert find_permit(permit.number).status == "active"
    assert tab.selected().status_label == "ativa" and history_kinds(tab)[-1] == "reativação"


def test_revoke_is_refused_without_a_reason(make_tab, keys, qtbot, monkeypatch, no_blocking_message_boxes):
    permit = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    tab = make_tab()
    select(tab, permit.number)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("   ", True))
    click(qtbot, tab.buttons["revoke"])
    assert "Cassar a permissão nº" in no_blocking_message_boxes[-1]
    assert tab.message.text() == "Informe o motivo (cassação)."
    assert "b00020" in tab.message.styleSheet()
    assert find_permit(permit.number).status == "active"
    # cancelled input dialog: nothing happens
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Sublocação", False))
    click(qtbot, tab.buttons["revoke"])
    assert find_permit(permit.number).status == "active"
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Sublocação do ponto", True))
    click(qtbot, tab.buttons["revoke"])
    revoked = find_permit(permit.number)
    assert revoked.status == "revoked" and tab.selected().status_label == "cassada"
    assert tab.status.currentData() is None  # the list now shows every status, the permit selected
    last = revoked.events.order_by(PermitEvent.id.desc()).first()
    assert (last.kind, last.reason, last.ground) == ("revoked", "Sublocação do ponto", "")


def test_revoking_a_feirante_asks_whether_it_was_abandonment(
    make_tab, keys, qtbot, monkeypatch, no_blocking_message_boxes
):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Faltou a 4 feiras seguidas", True))
    click(qtbot, tab.buttons["revoke"])  # the fixture answers "Yes" to both questions
    assert "abandono" in no_blocking_message_boxes[-1]
    last = find_permit(permit.number).events.order_by(PermitEvent.id.desc()).first()
    assert (last.kind, last.ground) == ("revoked", "abandonment")


def test_cancel_at_the_holders_request(make_tab, keys, qtbot, monkeypatch):
    permit = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    tab = make_tab()
    select(tab, permit.number)
    answers = iter([QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No])
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: next(answers))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Encerrou a atividade", True))
    click(qtbot, tab.buttons["cancel"])
    last = find_permit(permit.number).events.order_by(PermitEvent.id.desc()).first()
    assert (last.kind, last.ground) == ("cancelled", "")  # not at the holder's request: counts as history
    assert tab.selected().status_label == "cancelada"


def test_renew_refused_lists_the_failed_rules(make_tab, keys, qtbot, clock):
    old = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    clock.day = dt.date(2027, 10, 20)  # the health certificate delivered 20/11/2026 lasted 6 months
    tab = make_tab()
    select(tab, old.number)

    def look_and_leave(dialog):  # the refusal opens the documents dialog, the expired one in red
        intro = dialog.findChild(QLabel, "renewal-intro").text()
        assert intro.startswith("Renovação recusada — 1 requisito não atendido:")
        assert "Lei 1.171/2014, art. 11, II" in intro
        dialog.reject()

    run_modal(lambda: click(qtbot, tab.buttons["renew"]), look_and_leave)
    assert tab.message.text().startswith("Renovação recusada — 1 requisito não atendido:")
    assert find_permit(old.number).status == "active" and tab.selected().number == old.number


def test_a_future_delivery_is_refused_in_the_dialog_and_nothing_is_renewed(make_tab, keys, qtbot, clock):
    old = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    clock.day = dt.date(2027, 10, 20)
    tab = make_tab()
    select(tab, old.number)

    def deliver_tomorrow(dialog):
        type_text(dialog.rows["health-certificate"][0], "21/10/2027")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert "no futuro" in dialog.error.text() and dialog.isVisible()

    run_modal(lambda: tab.acts.renew_with_documents(), deliver_tomorrow)
    assert tab.selected().number == old.number and find_permit(old.number).successors.count() == 0


def test_leave_dialog_bad_date_is_shown_at_the_field(make_tab, keys, qtbot):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)

    def bad(d):
        qtbot.keyClicks(d.start, "31022027")
        click(qtbot, d.ok_button)
        assert d.isVisible() and "31/02/2027 não existe" in d.error.text()
        assert "b00020" in d.start.styleSheet()

    run_modal(tab.acts.leave_selected, bad)
    assert history_kinds(tab) == ["emissão"]


def test_transfer_without_reason_is_refused_at_the_message_line(make_tab, keys, qtbot):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    person("Carla Mendes Ribeiro", cpf="52998224725")
    tab = make_tab()
    select(tab, permit.number)

    def pick(d):
        qtbot.keyClicks(d.query, "529.982")
        searched(qtbot, d)
        click(qtbot, d.ok_button)

    run_modal(tab.acts.transfer_selected, pick)
    assert tab.message.text().startswith("Informe o motivo")
    assert find_permit(permit.number).status == "active"


def test_record_started_and_picked_up_close_the_deadlines(make_tab, keys, qtbot):
    permit = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    tab = make_tab()
    select(tab, permit.number)
    before = {r.what for r in tab.due_model.rows if r.number == permit.number}
    assert "início das atividades" in before
    click(qtbot, tab.buttons["started"])
    assert not tab.buttons["started"].isEnabled() and tab.buttons["picked-up"].isEnabled()
    assert "início das atividades registrado em 30/11/2026" in tab.message.text()
    assert "início das atividades" not in {r.what for r in tab.due_model.rows}
    click(qtbot, tab.buttons["picked-up"])
    # the renewal (Lei 1.171/2014: asked until 30 days before the end) is listed only when that day nears
    assert [r.what for r in tab.due_model.rows] == []
    assert history_kinds(tab)[-2:] == ["início das atividades", "retirada do alvará"]


def test_enter_on_the_list_opens_the_history(make_tab, keys, qtbot):
    permit = suspend(feirante(keys, person("Antônio Carlos Mendes")), by="fiscal", reason="Sem crachá", today=TODAY)
    tab = make_tab()
    set_status(tab, None)
    qtbot.keyClicks(tab.query, "antonio")
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)  # from the search to the list
    assert tab.focusWidget() is tab.table and tab.selected().number == permit.number

    def read(d):
        assert permit.number in d.windowTitle()
        rows = [
            [d.model.data(d.model.index(r, c)) for c in range(d.model.columnCount())] for r in range(d.model.rowCount())
        ]
        assert rows[-1][:5] == ["30/11/2026", "suspensão", "ativa → suspensa", "fiscal", "Sem crachá"]
        assert rows[-1][5] == "desde 30/11/2026"

    dialog, _ = run_modal(lambda: qtbot.keyClick(tab.table, Qt.Key.Key_Return), read)
    assert dialog is not None


def test_the_acts_are_reached_from_the_keyboard(make_tab, keys, qtbot, monkeypatch, no_blocking_message_boxes):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    tab.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is tab)
    qtbot.keyClick(tab, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)  # &Buscar
    assert QApplication.focusWidget() is tab.query
    type_text(tab.query, "antônio")
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is tab.table and tab.selected().number == permit.number
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Banca fora do lugar", True))
    qtbot.keyClick(tab.table, Qt.Key.Key_U, Qt.KeyboardModifier.AltModifier)  # S&uspender… (an animated click)
    qtbot.waitUntil(lambda: find_permit(permit.number).status == "suspended")
    assert "Suspender a permissão nº" in no_blocking_message_boxes[-1]
    qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.AltModifier)  # Renovações e pra&zos
    assert tab.pages.currentIndex() == 1 and QApplication.focusWidget() is tab.due_table
    qtbot.keyClick(tab, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is tab.query
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    assert tab.pages.currentIndex() == 0  # back at the list, the selected permit's page shows


def test_mnemonics_are_unique_and_leave_the_menus_alone(make_tab):
    tab = make_tab()

    def letters(widgets):
        found = []
        for widget in widgets:
            match = re.search(r"&(\w)", widget.text())
            if match:
                found.append(match.group(1).lower())
        return found

    always = [w for w in tab.findChildren(QLabel) if w.buddy() is not None]
    always_letters = letters(always) + [
        re.search(r"&(\w)", tab.pages.tabText(i)).group(1).lower()
        for i in range(tab.pages.count())
        if "&" in tab.pages.tabText(i)
    ]
    for page in range(tab.pages.count()):
        on_page = letters(tab.pages.widget(page).findChildren(QPushButton))
        together = always_letters + on_page
        assert len(together) == len(set(together)), sorted(together)
        assert not set(together) & {"a", "m", "j"}  # Arquivo, Mesas, Ajuda
    assert len(letters(tab.buttons.values())) == len(tab.buttons)  # every act has one
    assert isinstance(tab.pages, QTabWidget)


def test_table_models_pass_the_model_tester(make_tab, keys, qtmodeltester, qtbot):
    feirante(keys, person("Antônio Carlos Mendes"))
    sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    tab = make_tab()
    assert tab.model.rowCount() == 2 and tab.history_model.rowCount() == 1 and tab.due_model.rowCount() > 0
    for model in (tab.model, tab.history_model, tab.due_model):
        qtmodeltester.check(model)
    select(tab, find_permit("2026/00001").number)

    def check(d):
        type_text(d.query, "a")
        searched(qtbot, d)
        qtmodeltester.check(d.model)

    run_modal(tab.acts.transfer_selected, check)


def test_the_list_starts_on_the_municipalitys_own_act(make_tab, keys):
    """Issue 18 §5: with Olímpia set in Configurações the list opens on Olímpia's act, "Todos" a choice away."""
    from models.store.settings import MUNICIPALITY, set_settings

    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    fair = feirante(keys, person("Antônio Carlos Mendes"))
    set_settings({MUNICIPALITY: "Olímpia"})
    tab = make_tab()
    assert tab.regime.currentData() == "olimpia-2025" and shown(tab) == [truck.number]
    tab.regime.setCurrentIndex(tab.regime.findData(""))
    assert sorted(shown(tab)) == sorted([truck.number, fair.number])
