"""Novo requerimento driven like a clerk: eligibility rule by rule, the price, protocol and receipt."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import statuses
from pdftext import pdf_text
from PySide6.QtCore import Qt

from models.registry.applications import Application, ApplicationDocument
from models.registry.people import PersonInput, save_person
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)


#: Indomit's registration was open until 12:00 of 26/03/2026 (Dec. 4.794/2026, art. 3º): a São Bento application
#: filed on TODAY (November) is refused, the event being over (art. 2º) — these tests file in time
IN_TIME = dt.datetime(2026, 3, 20, 10, 0)


def dialog_for(qtbot, company, now=None):
    from views.application_form import ApplicationDialog

    dialog = ApplicationDialog("company", company.id, today=TODAY, now=now)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_sao_bento_application_end_to_end(qtbot, mei, tmp_path):
    d = dialog_for(qtbot, mei, now=IN_TIME)
    d.regime.setCurrentIndex(d.regime.findData("sao-bento-2026"))
    d.equipment.setCurrentIndex(d.equipment.findData("trailer"))
    qtbot.keyClicks(d.front, "4")
    qtbot.keyClicks(d.depth_edit, "3")
    d.settle()  # the dialog works it out once the clerk pauses
    # the price from the fee engine: MEI of the municipality, trailer ≤ 3 m (Dec. 4.794/2026, art. 9º, § 3º, I)
    assert d.quote_table.item(0, 2).text() == "5,50 × 38,42 × 4,00 × (1 − 0,30)"
    assert d.quote_note.text().replace("\xa0", " ") == "Total: R$ 591,67"
    # eligibility: documents not delivered yet fail, each with its article
    assert "Não apto" in d.verdict.text()
    failed = [k for k, v in statuses(d).items() if v == "failed"]
    assert failed and all("Documento" in k for k in failed)
    assert all(d.rules.item(r, 1).text().startswith("Dec. 4.794/2026, art.") for r in range(d.rules.rowCount()))
    # deliver every document; one scanned
    scan = tmp_path / "cnpj.pdf"
    scan.write_bytes(b"%PDF-1.4 cartao cnpj")
    kind_docs = [d.documents.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(d.documents.rowCount())]
    d.attach(kind_docs[0], path=str(scan))
    for doc_id in kind_docs[1:]:
        d.set_delivered(doc_id)
    d.settle()
    assert "failed" not in statuses(d).values()
    assert "Não apto" not in d.verdict.text()  # pending: debts cannot be checked yet, and says so
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    assert d.protocol.text() == "Protocolo 2026/00001"
    app = Application.get(Application.protocol == "2026/00001")
    assert app.company_id == mei.id and app.equipment == "trailer"
    assert ApplicationDocument.select().where(ApplicationDocument.application == app).count() == len(kind_docs)
    assert '"total": "591.67"' in app.quote_json
    out = d.save_receipt(str(tmp_path / "recibo.pdf"))
    text = pdf_text(out, mode="plain")
    assert "2026/00001" in text and "591,67" in text and "cnpj.pdf" in text


def test_missing_documents_are_listed_on_the_receipt(qtbot, mei, tmp_path):
    d = dialog_for(qtbot, mei, now=IN_TIME)
    d.regime.setCurrentIndex(d.regime.findData("sao-bento-2026"))
    d.save()
    assert d.protocol.text().startswith("Protocolo 2026/")
    text = pdf_text(d.save_receipt(str(tmp_path / "r.pdf")), mode="plain")
    assert "FALTA" in text and "Faltam 3 documento(s)" in text
    # the MEI's inscrição recorded in its form stands for the Cadastro Municipal (art. 4º, declared in the file)
    assert "inscrição municipal nº 12345, no cadastro" in " ".join(text.split())


def test_bad_sizes_are_refused_at_the_field_and_nothing_saved(qtbot, mei):
    d = dialog_for(qtbot, mei)
    d.regime.setCurrentIndex(d.regime.findData("sao-bento-2026"))
    d.equipment.setCurrentIndex(d.equipment.findData("trailer"))
    qtbot.keyClicks(d.front, "-2")
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    assert "front" in d.errors.shown and d.save_button.toolTip()
    assert d.protocol.text() == ""
    assert Application.select().count() == 0


def test_a_natural_person_cannot_hold_an_olimpia_tpu(qtbot, app_ready, database, tmp_path):
    """LC 324/2025, art. 162, § 1º–2º: the TPU is for companies/MEI."""
    from views.application_form import ApplicationDialog

    set_store(tmp_path / "files")
    person = save_person(
        PersonInput(name="Maria José da Silva", cpf="111.444.777-35", birth_date=dt.date(1990, 1, 1)), today=TODAY
    )
    d = ApplicationDialog("person", person.id, today=TODAY)
    qtbot.addWidget(d)
    d.regime.setCurrentIndex(d.regime.findData("olimpia-2025"))
    d.kind.setCurrentIndex(d.kind.findData("street-food-tpu-a"))
    d.settle()  # assessed off the GUI thread (issue 27 §5)
    rows = statuses(d)
    assert any(k.startswith("✘ Forma jurídica") for k in rows)
    assert "Não apto" in d.verdict.text() and "art. 162" in d.verdict.text()


def test_another_towns_records_do_not_count(qtbot, mei):
    """Praça serves Olímpia: a São Bento company's residence and registration say nothing for Sapezal's act."""
    from models.services.front_desk import applicant_facts, load_applicant
    from models.store.settings import MUNICIPALITY, set_settings

    set_settings({MUNICIPALITY: "São Bento do Sapucaí"})
    applicant = load_applicant("company", mei.id)
    home = applicant_facts(applicant, documents=[], today=TODAY, regime="sao-bento-2026", permit_kind="event-stall")
    assert home.is_resident is True and home.has_municipal_registration is True
    other = applicant_facts(applicant, documents=[], today=TODAY, regime="sapezal-2014", permit_kind="ponto-fixo")
    assert other.is_resident is False and other.resident_since is None and other.has_municipal_registration is False


def test_approval_checks_the_rules_and_the_acts_term_again(qtbot, mei):
    from models.base.errors import UserError
    from models.registry.applications import ApplicationInput, DocumentInput, change_status
    from models.rules.regimes import get_regime
    from models.services.filing import create_application
    from models.services.front_desk import approve_application

    kind = get_regime("sao-bento-2026").permit_kind("event-stall")
    missing = create_application(
        ApplicationInput(regime="sao-bento-2026", permit_kind="event-stall", company_id=mei.id),
        clerk="ana",
        now=IN_TIME,
    )
    missing = change_status(missing, "analysis", by="chefe")
    with pytest.raises(UserError, match=r"não pode ser aprovado: .*Documento"):
        approve_application(missing, by="chefe", today=dt.date(2026, 3, 20))
    complete = create_application(
        ApplicationInput(
            regime="sao-bento-2026",
            permit_kind="event-stall",
            company_id=mei.id,
            documents=[DocumentInput(d, dt.date(2026, 3, 20)) for d in kind.documents],
        ),
        clerk="ana",
        now=IN_TIME,
    )
    complete = change_status(complete, "analysis", by="chefe")
    # Dec. 4.794/2026, art. 2º: the three days ended on 29/03/2026 — nothing left to authorise in November
    with pytest.raises(UserError, match="29/03/2026"):
        approve_application(complete, by="chefe", today=TODAY)
    # issue 31 §4: rules still "a conferir" (art. 11, § 5º; art. 2º, § 2º; art. 3º) need the approver's reason
    with pytest.raises(UserError, match=r"Ainda a conferir: .*art\. 11, § 5º.*informe o motivo"):
        approve_application(complete, by="chefe", today=dt.date(2026, 3, 26))
    approved = approve_application(complete, by="chefe", today=dt.date(2026, 3, 26), reason="Conferi no balcão.")
    assert approved.status == "approved"
    from models.registry.applications import ApplicationEvent

    event = ApplicationEvent.select().where(ApplicationEvent.application == approved.id).order_by(ApplicationEvent.id)
    assert (
        "aprovado com requisitos a conferir" in list(event)[-1].reason
        and "Conferi no balcão." in list(event)[-1].reason
    )


def test_typing_is_assessed_once_the_clerk_pauses(qtbot, mei):
    d = dialog_for(qtbot, mei)
    d.regime.setCurrentIndex(d.regime.findData("sao-bento-2026"))
    d.equipment.setCurrentIndex(d.equipment.findData("trailer"))
    qtbot.keyClicks(d.depth_edit, "3")
    qtbot.keyClicks(d.front, "4")
    assert d.quote_table.rowCount() == 0 or d.quote_table.item(0, 2).text() != "5,50 × 38,42 × 4,00 × (1 − 0,30)"
    qtbot.waitUntil(
        lambda: d.quote_table.rowCount() == 1 and d.quote_table.item(0, 2).text() == "5,50 × 38,42 × 4,00 × (1 − 0,30)",
        timeout=3000,
    )


def test_a_regime_change_clears_the_old_refusal_and_its_red_frames(qtbot, mei):
    """Issue 31 §6: São Bento's refusal (its event is over) and the red frame stayed after switching the form to
    another act — an error about fields of an act no longer chosen."""
    dialog = dialog_for(qtbot, mei)
    dialog.regime.setCurrentIndex(dialog.regime.findData("sao-bento-2026"))
    dialog.settle()
    dialog.save()  # filed in November: the event of March is over
    refusal = dialog.error.text()
    assert dialog.application is None and refusal
    assert [w for w in dialog.errors.widgets.values() if w.styleSheet()]
    dialog.regime.setCurrentIndex(dialog.regime.findData("olimpia-2025"))
    assert dialog.error.text() == ""
    assert not [w for w in dialog.errors.widgets.values() if w.styleSheet() or w.toolTip() == refusal]
    assert dialog.save_button.toolTip() != refusal


def test_the_documents_checklist_shows_six_rows_with_their_whole_names_on_hover(qtbot, mei):
    """Issue 31 §6: the checklist showed two rows, the names cut. Six rows are in sight at 1366×768; a name the
    column cuts ends in "…" and is read whole in its tooltip."""
    from factories import application_dialog

    dialog = application_dialog(qtbot, "company", mei.id, "sapezal-2014", "ponto-fixo")
    table = dialog.documents
    assert table.rowCount() >= 6
    table.scrollToTop()
    bottom = table.rowViewportPosition(5) + table.rowHeight(5)
    assert 0 < bottom <= table.viewport().height(), (bottom, table.viewport().height())
    regime = dialog.current_regime()
    for row in range(table.rowCount()):
        item = table.item(row, 0)
        label = regime.document(item.data(Qt.ItemDataRole.UserRole)).label
        assert item.text() == label and item.toolTip().startswith(label)
    assert table.textElideMode() == Qt.TextElideMode.ElideRight
