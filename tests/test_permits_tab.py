"""Permissões driven like a clerk: search as you type, documents, suspend, revoke, renew, leave, heir, exchange.

Every test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import shutil

import pytest
from conftest import run_modal, searched, type_text
from factories import event_stall, select, shown
from pdftext import pdf_text
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QMessageBox, QPushButton, QTabWidget

from models.base.br import cnpj_check_digits, cpf_check_digits, format_cpf
from models.permits import PermitEvent, expire_due, find_permit, permit_history, permit_rows, revoke, suspend
from models.registry.applications import ApplicationInput, DocumentInput, change_status
from models.registry.people import CompanyInput, PartnerInput, PersonInput, save_company, save_person
from models.rules.regimes import get_regime
from models.services.filing import create_application
from models.services.issuing import exchange_sites, issue_permit
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)  # a Monday
_numbers = itertools.count(223456780)
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) ausente")


# --------------------------------------------------------------------------- helpers (as in test_permits.py)


def new_cpf() -> str:
    base = f"{next(_numbers):09d}"
    return base + cpf_check_digits(base)


def new_cnpj() -> str:
    base = f"{next(_numbers) % 100000000:08d}0001"
    return base + cnpj_check_digits(base)


def person(name: str, **kw):
    return save_person(
        PersonInput(
            name=name,
            cpf=kw.pop("cpf", None) or new_cpf(),
            birth_date=dt.date(1980, 5, 17),
            resident_since=dt.date(2010, 1, 1),
            **kw,
        ),
        today=TODAY,
    )


def company(name: str, *partners, registration: str = "12345"):
    return save_company(
        CompanyInput(
            cnpj=new_cnpj(),
            legal_name=name,
            municipal_registration=registration,
            partners=[PartnerInput(name=p.name, cpf=p.cpf) for p in partners],
        )
    )


def approved(regime: str, kind: str, *, on: dt.date = TODAY, holder=None, documents=(), **fields):
    who = {"person_id": holder.id} if hasattr(holder, "cpf") else {"company_id": holder.id}
    app = create_application(
        ApplicationInput(regime=regime, permit_kind=kind, documents=list(documents), **who, **fields),
        clerk="ana",
        today=on,
    )
    app = change_status(app, "analysis", by="chefe")
    return change_status(app, "approved", by="chefe")


def tpu(keys, holder, on=TODAY, site="Praça Rui Barbosa"):
    app = approved("olimpia-2025", "street-food-tpu-a", on=on, holder=holder, site=site, equipment="food-truck")
    return issue_permit(app, by="ana", today=on, key_dir=keys)


def feirante(keys, holder, site="Feira Noturna do Jardim Satélite", point="", kind="feirante"):
    app = approved(
        "sjc-2014",
        kind,
        holder=holder,
        site=site,
        line="pastel",
        section="xvi",
        equipment="banca",
        front="8,00",
        depth="3,50",
    )
    return issue_permit(app, by="ana", today=TODAY, key_dir=keys, point=point, valid_until=dt.date(2027, 12, 31))


def sapezal_licence(keys, holder, on=TODAY):
    docs = [
        DocumentInput(d, on - dt.timedelta(days=10))
        for d in get_regime("sapezal-2014").permit_kind("ponto-fixo").documents
    ]
    app = approved(
        "sapezal-2014",
        "ponto-fixo",
        on=on,
        holder=holder,
        documents=docs,
        line="bebidas",
        group="g03",
        equipment="barraca",
        front="2,00",
        depth="1,50",
        site="Praça da Matriz",
    )
    return issue_permit(app, by="ana", today=on, key_dir=keys)


def run_dialog(qtbot, opener, fill):
    return run_modal(opener, fill)


@pytest.fixture
def keys(database, tmp_path):
    set_store(tmp_path / "files")
    return tmp_path / "keys"


def history_kinds(tab) -> list[str]:
    model = tab.history_model
    return [model.data(model.index(r, 1)) for r in range(model.rowCount())]


def set_status(tab, key) -> None:
    tab.status.setCurrentIndex(tab.status.findData(key))


def click(qtbot, button: QPushButton) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# --------------------------------------------------------------------------- the list


def test_permit_rows_filter_by_status_regime_and_text(keys):
    antonio = person("Antônio Carlos Mendes")
    fair = feirante(keys, antonio)
    truck_co = company("Food Truck Ltda", person("Marcos Paulo Dias"))
    truck = tpu(keys, truck_co)
    gone = revoke(
        tpu(keys, company("Lanches Rápidos Ltda", person("Paulo Souza")), site="Praça da Matriz"),
        by="fiscal",
        reason="Sublocação",
        today=TODAY,
    )
    rows = permit_rows(today=TODAY)
    assert [r.number for r in rows] == [gone.number, truck.number, fair.number]  # newest first
    row = rows[-1]
    assert (row.holder_name, row.holder_document, row.holder_kind) == (antonio.name, format_cpf(antonio.cpf), "person")
    kind = get_regime("sjc-2014").permit_kind("feirante")
    assert (row.regime_short, row.kind_label) == ("Lei 9.158/2014", kind.label)
    assert (row.site, row.status_label, row.lapsed) == ("Feira Noturna do Jardim Satélite", "ativa", False)
    assert [r.number for r in permit_rows(status="active", today=TODAY)] == [truck.number, fair.number]
    assert [r.number for r in permit_rows(status="revoked", today=TODAY)] == [gone.number]
    assert [r.number for r in permit_rows(regime="sjc-2014", today=TODAY)] == [fair.number]
    # words of the name in any order, without accents; CPF/CNPJ prefix with any punctuation; the number
    assert [r.number for r in permit_rows(text="mendes antonio", today=TODAY)] == [fair.number]
    assert [r.number for r in permit_rows(text=format_cpf(antonio.cpf)[:7], today=TODAY)] == [fair.number]
    assert [r.number for r in permit_rows(text=truck_co.cnpj[:8], today=TODAY)] == [truck.number]
    assert [r.number for r in permit_rows(text=truck.number, today=TODAY)] == [truck.number]
    assert [r.number for r in permit_rows(text="2026/2", today=TODAY)] == [truck.number]  # 2026/00002
    assert permit_rows(text="ninguém", today=TODAY) == []
    # past its last day but not yet marked: listed as expired, not as active
    later = dt.date(2028, 1, 1)
    assert [r.number for r in permit_rows(status="expired", today=later)] == [fair.number]
    assert fair.number not in [r.number for r in permit_rows(status="active", today=later)]
    lapsed = permit_rows(text=fair.number, today=later)[0]
    assert lapsed.lapsed and lapsed.status_label == "vencida em 31/12/2027 (baixa pendente)"
    expire_due(later)
    assert permit_rows(status="expired", today=later)[0].status_label == "vencida"
    assert len(permit_rows(today=TODAY, limit=2)) == 2


def test_permit_history_in_order_with_labels_and_the_other_permit(keys):
    permit = suspend(feirante(keys, person("Antônio Carlos Mendes")), by="fiscal", reason="Sem crachá", today=TODAY)
    items = permit_history(permit.id)
    assert [(i.kind_label, i.status_from, i.status_to, i.by, i.reason) for i in items] == [
        ("emissão", "", "ativa", "ana", items[0].reason),
        ("suspensão", "ativa", "suspensa", "fiscal", "Sem crachá"),
    ]
    assert items[1].start == TODAY and items[1].end is None and items[1].other_number == ""
    a = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro")
    b = feirante(keys, person("José Wilson Prado"), site="Feira Noturna do Parque Industrial")
    new_a, _new_b = exchange_sites(a, b, by="chefe", reason="Despacho 12/2026", today=TODAY)
    assert permit_history(a.id)[-1].other_number == new_a.number
    assert permit_history(new_a.id)[0].other_number == a.number


def test_search_finds_the_permit_as_you_type(make_tab, keys, qtbot):
    antonio = person("Antônio Carlos Mendes")
    fair = feirante(keys, antonio)
    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    tab = make_tab()
    assert shown(tab) == [truck.number, fair.number]
    assert "2 permissões" in tab.hint.text()
    qtbot.keyClicks(tab.query, "mend")
    assert shown(tab) == [fair.number]
    assert tab.selected().number == fair.number
    assert antonio.name in tab.detail_labels["holder"].text()
    assert "de 30/11/2026 a 31/12/2027" in tab.detail_labels["validity"].text()
    tab.query.clear()
    type_text(tab.query, "Antônio C")
    assert shown(tab) == [fair.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, format_cpf(antonio.cpf)[:8])
    assert shown(tab) == [fair.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, truck.number)
    assert shown(tab) == [truck.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, "zzz")
    assert shown(tab) == [] and "Nenhuma permissão" in tab.hint.text()
    assert not any(b.isEnabled() for b in tab.buttons.values())
    tab.query.clear()
    set_status(tab, "suspended")
    assert shown(tab) == []
    set_status(tab, None)
    tab.regime.setCurrentIndex(tab.regime.findData("olimpia-2025"))
    assert shown(tab) == [truck.number]


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


# --------------------------------------------------------------------------- documents


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


# --------------------------------------------------------------------------- status changes


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


# --------------------------------------------------------------------------- renewal


def test_renew_from_the_renewals_table_selects_the_new_permit(make_tab, keys, qtbot, clock, steps):
    old = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    feirante(keys, person("Antônio Carlos Mendes"))
    clock.day = dt.date(2031, 5, 2)
    tab = make_tab()
    tab.pages.setCurrentIndex(1)
    rows = tab.due_model.rows
    assert "(2)" in tab.pages.tabText(1)
    # the start-up deadline never closed, overdue and in red; the renewal window open today
    assert [(r.number, r.what, r.overdue, r.renewal_open) for r in rows] == [
        (old.number, "início das atividades — vencido", True, False),
        (old.number, "renovação (pedido aberto)", False, True),
    ]
    assert (rows[1].period, rows[1].article) == ("03/04/2031 a 30/09/2031", "LC 324/2025, art. 166; art. 177")
    tab.due_table.selectRow(0)
    assert not tab.due_renew.isEnabled()
    tab.due_table.selectRow(1)
    with steps("renovar"):  # read, renewed and shown on workers (issue 27 §5)
        click(qtbot, tab.due_renew)
    steps.check()
    new = find_permit("2031/00001")
    assert new.previous_id == old.id and new.origin == "renewal"
    assert find_permit(old.number).status == "active"  # in force until 29/11/2031; the new one starts after
    assert tab.selected().number == new.number
    assert tab.message.text() == (
        f"Permissão nº {old.number} renovada: nova permissão nº {new.number}, de 30/11/2031 a 29/11/2036."
    )
    assert [r.what for r in tab.due_model.rows] == ["início das atividades — vencido"]  # no renewal left
    assert not tab.due_renew.isEnabled()
    assert "renovação da nº" in tab.detail_labels["origin"].text()


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


def test_renew_with_a_new_health_certificate_keeps_it_for_the_next_time(make_tab, keys, qtbot, clock, tmp_path, steps):
    from models.permits import PermitDocument, documents_on_file

    old = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    clock.day = dt.date(2027, 10, 20)
    scan = tmp_path / "atestado.pdf"
    scan.write_bytes(b"%PDF-1.4 atestado de saude")
    tab = make_tab()
    select(tab, old.number)

    def deliver(dialog):
        type_text(dialog.rows["health-certificate"][0], "18/10/2027")
        type_text(dialog.rows["health-certificate"][1], "17/04/2028")
        dialog.rows["health-certificate"][2].setText(str(scan))
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible(), dialog.error.text()

    with steps("renovar com documentos"):  # what is on file read, and the renewal made, on workers (issue 27 §5)
        run_modal(lambda: tab.acts.renew_with_documents(), deliver)
    steps.check()
    new = tab.selected()
    assert new.number != old.number and "com os documentos novos" in tab.message.text()
    kept = PermitDocument.get(PermitDocument.document == "health-certificate")
    assert kept.delivered_on == dt.date(2027, 10, 18) and len(kept.sha256) == 64 and kept.recorded_by
    on_file = {d.document: d for d in documents_on_file(find_permit(new.number), today=clock.day)}
    assert on_file["health-certificate"].delivered_on == dt.date(2027, 10, 18)
    assert not on_file["health-certificate"].expired


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


def test_extend_startup_once_and_expire_lapsed_from_the_screen(make_tab, keys, qtbot, clock, steps):
    permit = tpu(keys, company("Lanches da Praça Ltda", person("Rita Souza Melo")))  # 90 days, once more 90
    tab = make_tab()
    tab.pages.setCurrentIndex(1)
    row = next(r for r, item in enumerate(tab.due_model.rows) if item.number == permit.number)
    tab.due_table.selectRow(row)
    assert tab.due_extend.isEnabled()
    with steps("prorrogar o início"):
        assert tab.acts.extend_startup_due(reason="Aguardando ligação de energia")
    assert "prorrogado até" in tab.message.text()
    row = next(r for r, item in enumerate(tab.due_model.rows) if item.number == permit.number)
    tab.due_table.selectRow(row)
    assert not tab.due_extend.isEnabled()  # once only (LC 324/2025, art. 176)
    clock.day = dt.date(2032, 1, 1)
    with steps("marcar vencidas"):
        expired = tab.acts.expire_lapsed()
    steps.check()
    assert [p.number for p in expired] == [permit.number]
    assert "1 permissão(ões) marcada(s) como vencida(s)" in tab.message.text()


# --------------------------------------------------------------------------- leave, heir, exchange, facts


def test_leave_dialog_shows_the_acts_limits_and_records_the_leave(make_tab, keys, qtbot, steps):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)

    def too_soon(d):
        qtbot.keyClicks(d.start, "10122026")
        qtbot.keyClicks(d.end, "20122026")
        click(qtbot, d.ok_button)
        assert d.isVisible()  # refused: the dialog stays open with the act's reason
        assert "30 dias de antecedência" in d.error.text() and "Lei 9.158/2014, art. 16" in d.error.text()
        d.start.clear()
        d.end.clear()
        qtbot.keyClicks(d.start, "10012027")
        qtbot.keyClicks(d.end, "24012027")
        type_text(d.substitute_name, "Joana Aparecida Lopes")
        qtbot.keyClicks(d.substitute_cpf, "52998224725")
        click(qtbot, d.ok_button)
        assert not d.isVisible(), d.error.text()

    with steps("afastamento"):  # the act's check and the write on a worker (issue 27 §5)
        dialog, _ = run_dialog(qtbot, tab.acts.leave_selected, too_soon)
    steps.check()
    event = dialog.leave
    assert (event.start, event.end, event.details["substitute_cpf"]) == (
        dt.date(2027, 1, 10),
        dt.date(2027, 1, 24),
        "52998224725",
    )
    assert history_kinds(tab)[-1] == "descanso/afastamento"
    assert "10/01/2027 a 24/01/2027" in tab.message.text()


def test_leave_dialog_bad_date_is_shown_at_the_field(make_tab, keys, qtbot):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)

    def bad(d):
        qtbot.keyClicks(d.start, "31022027")
        click(qtbot, d.ok_button)
        assert d.isVisible() and "31/02/2027 não existe" in d.error.text()
        assert "b00020" in d.start.styleSheet()

    run_dialog(qtbot, tab.acts.leave_selected, bad)
    assert history_kinds(tab) == ["emissão"]


def test_transfer_to_an_heir_found_by_name(make_tab, keys, qtbot, no_blocking_message_boxes, steps):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    heir = person("Carla Mendes Ribeiro")
    tab = make_tab()
    select(tab, permit.number)

    def pick(d):
        assert not d.ok_button.isEnabled()
        type_text(d.query, "carla mendes")
        searched(qtbot, d)
        assert [m.name for m in d.model.rows] == ["Carla Mendes Ribeiro"]  # the holder himself is left out
        type_text(d.reason, "Falecimento; sucessores indicaram a filha")
        click(qtbot, d.ok_button)

    with steps("transferir a herdeiro"):  # the search, the heir and the transfer on workers (issue 27 §5)
        run_dialog(qtbot, tab.acts.transfer_selected, pick)
    steps.check()
    assert "para Carla Mendes Ribeiro?" in no_blocking_message_boxes[-1]
    new = tab.selected()
    assert (new.holder_name, new.origin) == (heir.name, "transfer") and new.number != permit.number
    assert find_permit(permit.number).status == "superseded"
    assert "transferida a Carla Mendes Ribeiro" in tab.message.text()


def test_transfer_without_reason_is_refused_at_the_message_line(make_tab, keys, qtbot):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    person("Carla Mendes Ribeiro", cpf="52998224725")
    tab = make_tab()
    select(tab, permit.number)

    def pick(d):
        qtbot.keyClicks(d.query, "529.982")
        searched(qtbot, d)
        click(qtbot, d.ok_button)

    run_dialog(qtbot, tab.acts.transfer_selected, pick)
    assert tab.message.text().startswith("Informe o motivo")
    assert find_permit(permit.number).status == "active"


def test_exchange_sites_with_another_permit_by_number(make_tab, keys, qtbot, steps):
    mine = feirante(keys, person("Antônio Carlos Mendes"), point="Banca 03")
    theirs = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro", point="Banca 11")
    tab = make_tab()
    select(tab, mine.number)

    def pick(d):
        qtbot.keyClicks(d.number, "2026/09999")
        searched(qtbot, d)  # looked up on a worker as the clerk types (issue 27 §5)
        assert "não encontrada" in d.found.text() and not d.ok_button.isEnabled()
        d.number.clear()
        qtbot.keyClicks(d.number, mine.number)
        searched(qtbot, d)
        assert "própria" in d.found.text() and not d.ok_button.isEnabled()
        d.number.clear()
        qtbot.keyClicks(d.number, theirs.number)
        assert not d.ok_button.isEnabled()  # not before the answer
        searched(qtbot, d)
        assert "Rita de Cássia Nunes" in d.found.text() and "Feira Noturna do Centro" in d.found.text()
        type_text(d.reason, "Despacho 12/2026 do Departamento de Posturas")
        click(qtbot, d.ok_button)

    with steps("permutar"):
        run_dialog(qtbot, tab.acts.exchange_selected, pick)
    steps.check()
    new = tab.selected()
    assert new.holder_name == "Antônio Carlos Mendes" and new.place == "Feira Noturna do Centro — Banca 11"
    assert {find_permit(mine.number).status, find_permit(theirs.number).status} == {"superseded"}
    assert "Locais permutados" in tab.message.text()


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


# --------------------------------------------------------------------------- keyboard and models


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

    dialog, _ = run_dialog(qtbot, lambda: qtbot.keyClick(tab.table, Qt.Key.Key_Return), read)
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

    run_dialog(qtbot, tab.acts.transfer_selected, check)


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
