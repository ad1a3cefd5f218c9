"""Fiscalização screen, driven like the inspector drives it: record an infraction, read the proposal with its
articles, adjust within the act's limits, issue, save the PDF, print; file a defence and decide it; seized goods;
dívida ativa."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import run_modal, type_text
from factories import draft, feirante, fines, pay, person
from factories import issue_record as issue
from pdftext import pdf_text
from PySide6.QtCore import Qt

from models import enforcement as enf
from models.billing.charges import Charge, record_payment
from views.enforcement import ContestDialog, DecisionDialog, EnforcementPage, RecordDialog

TODAY = dt.date(2026, 3, 16)  # a Monday


@pytest.fixture
def page(qtbot, keys, app_ready):
    widget = EnforcementPage(today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(1300, 800)
    widget.show()
    widget.refresh()
    return widget


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_record_an_infraction_read_the_proposal_issue_and_save_the_pdf(qtbot, page, tmp_path):
    maria = person("Maria Quitandeira Souza")
    tab = page.records
    photo = tmp_path / "banca.jpg"
    photo.write_bytes(b"\xff\xd8\xff" + b"foto da banca" * 50)

    def fill(dialog):
        assert isinstance(dialog, RecordDialog)
        dialog.form.regime.setCurrentIndex(dialog.form.regime.findData("olimpia-2025"))
        dialog.form.scope.setCurrentIndex(dialog.form.scope.findData("street-food"))
        type_text(dialog.form.offender_search, "quitandeira")
        dialog.settle()  # the registry is searched on a worker (issue 27 §5)
        assert dialog.form.matches.rowCount() == 1
        dialog.form.matches_view.selectRow(0)
        assert "Maria Quitandeira Souza" in dialog.form.offender_label.text()
        dialog.form.date.set_date(dt.date(2026, 3, 16))
        dialog.form.time.setText("09:45")
        type_text(dialog.form.place, "Praça Rui Barbosa, em frente à Matriz")
        type_text(dialog.form.facts, "Área do equipamento suja, sem recipiente para o lixo.")
        type_text(dialog.form.infraction_search, "lixo")
        codes = [
            dialog.form.catalogue.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dialog.form.catalogue.count())
        ]
        assert "tpu-area-suja" in codes and "geral-sem-penalidade" not in codes  # searched by words
        dialog.check_infraction("tpu-area-suja")
        type_text(dialog.form.witnesses, "João Vizinho; RG 12.345.678-9")
        dialog.form.inspector.setText("Marcos Fiscal")
        type_text(dialog.form.inspector_id, "4521")
        dialog.add_photos([str(photo)])
        dialog.update_preview()
        shown = dialog.proposal_view.toPlainText()
        assert "30 UFESP × R$ 38,42 (UFESP 2026) = R$ 1.152,60" in shown  # art. 192, step by step
        assert "LC 324/2025, art. 192, caput" in shown and "1ª ocorrência" in shown
        assert "Defesa contra o AIIP — comida de rua: até 26/03/2026" in shown  # 10 days, art. 198
        assert "Pagamento da multa: até 15/05/2026" in shown  # 60 days, art. 11
        assert enf.Record.select().count() == 0  # nothing written while the inspector reads
        click(qtbot, dialog.issue_button)

    _dialog, record = run_modal(lambda: tab.new_record(regime="olimpia-2025"), fill)
    assert record is not None and record.reference == "AI nº 2026/00001"
    assert "AI nº 2026/00001 lavrado" in tab.message.text() and "R$ 1.152,60" in tab.message.text()
    assert tab.model.rowCount() == 1 and tab.selected().id == record.id
    detail = tab.detail.toPlainText()
    assert "Praça Rui Barbosa" in detail and "Prazos" in detail and "banca.jpg" in detail
    [charge] = fines(record)
    assert charge.amount == Decimal("1152.60") and charge.person_id == maria.id
    assert enf.files_of(record)[0].sha256  # the photo is kept with its hash

    pdf = tab.save_pdf(tmp_path / "auto.pdf")
    assert pdf is not None and pdf.stat().st_size > 2000
    text = pdf_text(pdf, mode="plain")
    for expected in (
        "AUTO DE INFRAÇÃO E IMPOSIÇÃO DE",
        "AI nº 2026/00001",
        "Maria Quitandeira Souza",
        "CPF",
        "Praça Rui Barbosa",
        "art. 179, VI",
        "R$ 1.152,60",
        "Pagamento da multa",
        "art. 198",
        "João Vizinho",
        "matrícula 4521",
        "Agente fiscal",
        "banca.jpg",
    ):
        assert expected in " ".join(text.split()), expected

    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "impresso.pdf"))
    assert tab.print_record(printer)
    assert (tmp_path / "impresso.pdf").stat().st_size > 2000
    assert "enviado para impressão" in tab.message.text()


def test_a_graded_fine_is_adjusted_with_a_reason_before_issuing(qtbot, page, keys):
    from factories import INPC

    from models.billing.fiscal import set_index_correction

    for year, pct in INPC.items():
        set_index_correction("INPC", year, pct, entered_by="teste", reason="INPC de teste")
    pedro = person("Pedro Pasteleiro")
    permit = feirante(keys, pedro, on=dt.date(2026, 2, 2))
    notice = issue(
        draft(
            "sjc-2014",
            ["sujeira"],
            "12/03/2026 21:00",
            kind="notice",
            permit_id=permit.id,
            place="Feira Noturna do Jardim Satélite, banca 14",
        )
    )
    tab = page.records
    tab.refresh_rows()
    tab.select_record(notice.id)
    assert tab.buttons["follow"].isEnabled() and not tab.buttons["defence"].isEnabled()

    def fill(dialog):
        assert "seguimento" in dialog.windowTitle() and dialog.form.regime.isEnabled() is False
        dialog.form.date.set_date(dt.date(2026, 3, 13))
        dialog.form.time.setText("21:30")
        dialog.form.payment_due.set_date(dt.date(2026, 4, 13))
        dialog.update_preview()
        assert not dialog.issue_button.isEnabled()
        assert "graduar" in dialog.proposal_view.toPlainText()  # "até R$ 500,00", art. 24, § 1º

        def too_much(adjust):
            adjust.sanction.setCurrentIndex(adjust.sanction.findData(2))
            adjust.what.setCurrentIndex(adjust.what.findData("amount"))
            type_text(adjust.value, "5.000,00")
            type_text(adjust.reason, "muito lixo")
            adjust.accept()
            assert "fora dos limites" in adjust.error.text()

        assert dialog.ask_adjustment(dialog_hook=too_much) is None

        def graded(adjust):
            adjust.sanction.setCurrentIndex(adjust.sanction.findData(2))
            type_text(adjust.value, "300,00")
            type_text(adjust.reason, "resíduos espalhados pela calçada")
            adjust.accept()
            assert adjust.error.text() == ""

        assert dialog.ask_adjustment(dialog_hook=graded) is not None
        shown = dialog.proposal_view.toPlainText()
        assert "Decisão sobre a sanção nº 2: a graduar → R$ 300,00 — motivo: resíduos espalhados pela calçada" in shown
        assert "Fato verificado — notificação não atendida no prazo" in shown  # art. 23: the record verifies it
        assert "Recurso contra advertência, multa ou suspensão: até 16/03/2026 (segunda-feira) às 21:30" in shown
        click(qtbot, dialog.issue_button)

    _dialog, record = run_modal(lambda: tab.follow_up(), fill)
    assert record.refers_to_id == notice.id and record.fine_total == Decimal("300.00")
    assert fines(record)[0].due_on == dt.date(2026, 4, 13)


def test_an_unknown_offender_then_identified(qtbot, page):
    wellington = person("Wellington Redeiro")
    tab = page.records

    def fill(dialog):
        dialog.form.kind.setCurrentIndex(dialog.form.kind.findData("infraction"))
        dialog.form.regime.setCurrentIndex(dialog.form.regime.findData("olimpia-2025"))
        dialog.form.scope.setCurrentIndex(dialog.form.scope.findData("event"))
        dialog.form.unknown.setChecked(True)
        type_text(dialog.form.unknown_name, "Promotor do baile")
        dialog.form.date.set_date(dt.date(2026, 3, 14))
        dialog.form.time.setText("07:10")
        type_text(dialog.form.place, "Praça da Matriz")
        type_text(dialog.form.facts, "Montava palco e vendia ingressos de evento sem autorização.")
        dialog.form.infraction_search.setText("97")
        dialog.check_infraction("evento-sem-autorizacao")
        dialog.update_preview()
        assert "Descreva o infrator" in dialog.proposal_view.toPlainText()
        type_text(dialog.form.unknown_description, "homem de boné azul, uns 40 anos")
        dialog.form.signature.setCurrentIndex(dialog.form.signature.findData("refused"))
        dialog.update_preview()
        assert "a multa é lançada quando ele for identificado" in dialog.proposal_view.toPlainText()
        click(qtbot, dialog.issue_button)

    _d, unknown = run_modal(lambda: tab.new_record(regime="olimpia-2025"), fill)
    assert not unknown.identified and enf.charges_of(unknown) == []
    assert tab.buttons["identify"].isEnabled()

    def identify(dialog):
        assert not dialog.form.unknown.isEnabled() and dialog.form.reason.isVisible()
        type_text(dialog.form.offender_search, "wellington")
        dialog.settle()  # the registry is searched on a worker (issue 27 §5)
        dialog.form.matches_view.selectRow(0)
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)  # the proposal follows as one pauses
        assert (
            "Ocorrências anteriores" in dialog.proposal_view.toPlainText()
            or "Sem ocorrências anteriores" in dialog.proposal_view.toPlainText()
        )
        click(qtbot, dialog.issue_button)

    _d, found = run_modal(lambda: tab.identify_selected(), identify)
    assert found.person_id == wellington.id and found.refers_to_id == unknown.id
    assert fines(found)[0].amount == Decimal("3842.00")  # 100 UFESP, LC 324/2025, art. 97, parágrafo único
    assert enf.get_record(unknown.id).status == "corrected"
    rows = {r.reference: r.situation for r in tab.model.rows}
    assert rows[unknown.reference] == f"corrigido pelo {found.reference}"


def test_a_defence_and_its_decision(qtbot, page):
    helena = person("Helena Recorrente")
    record = issue(draft("olimpia-2025", ["tpu-area-suja"], "09/03/2026 09:30", holder=helena, scope="street-food"))
    tab = page.records
    tab.refresh_rows()
    tab.select_record(record.id)
    assert tab.buttons["defence"].isEnabled() and not tab.buttons["decide"].isEnabled()

    def file_it(dialog):
        assert isinstance(dialog, ContestDialog)
        assert (
            "Defesa contra o AIIP — comida de rua: até 19/03/2026"
            in dialog.findChild(type(dialog.error), "contest-deadline").text()
        )
        dialog.filed_on.set_date(dt.date(2026, 3, 16))
        type_text(dialog.grounds, "A lixeira estava instalada atrás do trailer.")
        dialog.suspensive.setChecked(True)
        type_text(dialog.suspensive_note, "art. 198")
        click(qtbot, dialog.ok_button)

    run_modal(lambda: tab.contest_selected("defence"), file_it)
    assert "Defesa protocolada em 16/03/2026" in tab.message.text()
    assert tab.selected().situation == "defesa em julgamento (efeito suspensivo)"
    assert "Julgamento da defesa" in tab.detail.toPlainText()  # 15 business days, art. 38
    assert tab.buttons["decide"].isEnabled()

    def decide(dialog):
        assert isinstance(dialog, DecisionDialog)
        assert not dialog.final.isChecked()  # the appeal board still can hear it (art. 41)
        dialog.outcome.setCurrentIndex(dialog.outcome.findData("partly"))
        click(qtbot, dialog.ok_button)
        assert "fundamentada" in dialog.error.text() or "novo valor" in dialog.error.text()
        type_text(dialog.new_amount, "576,30")
        type_text(dialog.reason, "Lixeira presente; entorno sujo só em parte.")
        click(qtbot, dialog.ok_button)

    run_modal(lambda: tab.decide_selected(), decide)
    assert "Defesa julgada: defesa procedente em parte" in tab.message.text()
    charges = enf.charges_of(record, "fine")
    assert [c.status for c in charges] == ["cancelled", "open"] and charges[1].amount == Decimal("576.30")
    assert tab.selected().fine == Decimal("576.30")
    assert "Recurso" in tab.detail.toPlainText()  # the appeal deadline now runs (art. 198, § 1º)
    assert tab.buttons["appeal"].isEnabled()


def test_seized_goods_release_after_payment_and_donation(qtbot, page):
    vendor = person("Ronaldo Pipoqueiro")
    for when in ("14/02/2026 07:00", "21/02/2026 07:00", "28/02/2026 07:00"):  # three feiras tolerated (art. 218)
        issue(draft("olimpia-2025", ["feira-sem-autorizacao"], when, kind="notice", holder=vendor, scope="feira"))
    seizure = issue(
        draft(
            "olimpia-2025",
            ["feira-sem-autorizacao"],
            "14/03/2026 07:00",
            kind="seizure",
            holder=vendor,
            scope="feira",
            depot="Galpão da feira",
            items=[enf.ItemInput("caixas de banana", "3", "cx", True)],
        )
    )
    other = issue(
        draft(
            "olimpia-2025",
            ["feira-sem-autorizacao"],
            "12/03/2026 07:00",
            kind="seizure",
            unknown_name="Desconhecido",
            unknown_description="camiseta vermelha",
            scope="feira",
            depot="Galpão da feira",
            items=[enf.ItemInput("redes", "4", "un", False)],
        )
    )
    tabs = page.seizures
    page.tabs.setCurrentWidget(tabs)
    assert tabs.model.rowCount() == 2
    rows = {r.reference: r for r in tabs.model.rows}
    assert rows[seizure.reference].total_due == Decimal("384.20") + Decimal("76.84")  # fine + 2 days
    # 72 hours (art. 215, § 2º) from Thursday end on Sunday 15/03: Monday 16/03 at 07:00 (art. 315; Lei 9.784/1999)
    assert not rows[other.reference].reclaim_passed
    assert "16/03/2026 (segunda-feira) às 07:00" in rows[other.reference].reclaim_due
    tabs.table.selectRow([r.reference for r in tabs.model.rows].index(seizure.reference))
    click(qtbot, tabs.release_button)
    assert "Devolução só depois de pagas" in tabs.message.text()
    pay(fines(seizure)[0], TODAY)
    click(qtbot, tabs.charge_button)
    assert "Diárias de depósito lançadas" in tabs.message.text() and "R$ 76,84" in tabs.message.text()
    depot = enf.charges_of(seizure, "depot")[0]
    record_payment(depot, paid_on=TODAY, amount=depot.amount, reference="D-9", by="tesouraria", today=TODAY)
    click(qtbot, tabs.release_button)
    assert f"Bens do {seizure.reference} devolvidos" in tabs.message.text()
    assert [r.reference for r in tabs.model.rows] == [other.reference]

    tabs._today = TODAY + dt.timedelta(days=1)  # the next day the deadline is past
    tabs.refresh()
    tabs.table.selectRow(0)

    def donate(dialog):
        type_text(dialog.to, "Lar São Vicente de Paulo")
        dialog.accept()

    assert tabs.donate_selected(dialog_hook=donate)
    assert tabs.model.rowCount() == 0 and "doados a Lar São Vicente de Paulo" in tabs.message.text()


def test_debt_register_lists_unpaid_fines_past_their_deadline(qtbot, keys, app_ready):
    debtor = person("Devedor Contumaz")
    issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=debtor))
    page = EnforcementPage(today=dt.date(2026, 5, 5))  # 60 days (art. 11) end on Labour Day: 04/05
    qtbot.addWidget(page)
    page.refresh()
    assert page.debts.model.rowCount() == 1
    assert "1 multa(s), R$ 1.152,60 em aberto." == page.debts.total.text()
    assert Charge.select().count() == 1


def test_the_photos_dialog_starts_in_documents_then_where_the_photos_were(
    qtbot, keys, app_ready, tmp_path, monkeypatch
):
    """Issue 32 §5: the Windows shortcuts start Praça in its own folder (Program Files): a dialog started at "" would
    open there. The photos' dialog starts in Documents, then in the folder the inspector last took photos from."""
    from PySide6.QtWidgets import QFileDialog

    from views.save import documents_folder

    photo = tmp_path / "celular" / "banca.jpg"
    photo.parent.mkdir()
    photo.write_bytes(b"\xff\xd8\xff" + b"foto" * 50)
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: asked.append(a[2]) or ([str(photo)], ""))
    dialog = RecordDialog(draft("olimpia-2025", ["tpu-area-suja"], "16/03/2026 09:45"), today=TODAY)
    qtbot.addWidget(dialog)
    dialog.add_photos()
    dialog.add_photos()
    assert asked == [str(documents_folder()), str(photo.parent)]
    assert dialog.photos == [str(photo)]  # the same photo twice is kept once
