"""Issue 29 §2: what Fiscalização prints and says of a record under an act in cruzeiros is in cruzeiros — the fine's
charge and its formula, the sanctions report (HTML, PDF, xlsx and its chart), the record's document, the desk's
lists and messages, a decision's refusal — never R$, never converted."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from factories import draft, person
from period_acts import CABECEIRA, FINE

from models import enforcement as enf

REGIME = "mesa-1975"
ON = dt.date(2026, 5, 4)


def _no_reais(text: str) -> bool:
    """No "R$" but the "R$" inside "Cr$"."""
    return "R$" not in text.replace("Cr$", "")


@pytest.fixture
def fined(database):
    """An act in cruzeiros installed and a record of its fine (Cr$ 500,00) issued on a vendor."""
    from models.access import session
    from models.rules import acts

    body = CABECEIRA.replace('id = "cabeceira-grande-2012"', f'id = "{REGIME}"', 1)
    body = body.replace('scope = ["street-vending"]\n', 'scope = ["street-vending"]\ncurrency = "Cr$"\n', 1)
    with session.acting_as(session.SYSTEM):
        acts.install((body + FINE).encode("utf-8"), f"{REGIME}.toml")
    holder = person("José Ambulante")
    d = draft(REGIME, ["multa-cruzeiros"], "04/05/2026 10:00", holder=holder, payment_due=dt.date(2026, 5, 20))
    return enf.issue_record(d, by="ana.souza", today=ON)


def test_the_fine_and_the_sanctions_report_are_in_the_acts_money(fined, tmp_path, app_ready):
    import openpyxl
    from pdftext import pdf_text

    from reports.sanctions_report_html import sanctions_report_html, write_sanctions_report_pdf
    from reports.sanctions_report_xlsx import write_sanctions_report_xlsx

    (fine,) = enf.charges_of(fined, "fine")
    assert fine.amount == Decimal("500.00")
    from models.enforcement.sanctions_report import sanctions_report

    report = sanctions_report(dt.date(2026, 5, 1), dt.date(2026, 5, 31), today=ON)
    assert report.currency == "Cr$" and report.figures.charged == Decimal("500.00")
    html = sanctions_report_html(report)
    assert "Cr$ 500,00" in html.replace("\xa0", " ") and _no_reais(html)
    text = pdf_text(write_sanctions_report_pdf(report, tmp_path / "sancoes.pdf")).replace("\xa0", " ")
    assert "Cr$ 500,00" in text and _no_reais(text)
    book = openpyxl.load_workbook(write_sanctions_report_xlsx(report, tmp_path / "sancoes.xlsx"))
    formats = {c.number_format for s in book.worksheets for row in s.iter_rows() for c in row if c.value}
    money = [f for f in formats if "#,##0.00" in f]
    assert money and all('"Cr$"' in f for f in money)


def test_the_records_document_and_a_decisions_refusal_speak_cruzeiros(fined):
    from models.base.errors import FieldErrors
    from reports.enforcement_docs import record_html

    page = record_html(fined, today=ON)
    assert "Cr$ 500,00" in page.replace("\xa0", " ") and _no_reais(page)
    contest = enf.file_contest(fined, kind="defence", filed_on=ON, by="ana.souza", grounds="Não vendia.", today=ON)
    with pytest.raises(FieldErrors) as refused:
        enf.decide_contest(
            contest, outcome="partly", decided_on=ON, by="ana.souza", reason="Em parte.", new_amount="600,00", today=ON
        )
    said = refused.value.errors["new_amount"]
    assert said == (
        "Na procedência em parte a multa fica entre Cr$ 0,01 e menos que Cr$ 500,00; para anular, escolha auto anulado."
    )


def test_the_desks_lists_show_the_fine_in_the_acts_money(fined, qtbot, app_ready):
    from views.enforcement import EnforcementPage

    page = EnforcementPage(today=ON)
    qtbot.addWidget(page)
    page.refresh()
    tab = page.records
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0)
    from PySide6.QtCore import Qt

    horizontal, shown = Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole
    column = next(i for i in range(tab.model.columnCount()) if tab.model.headerData(i, horizontal, shown) == "Multa")
    assert tab.model.index(0, column).data() == "Cr$ 500,00"


def test_the_decision_dialogs_ask_the_fine_in_the_acts_money(fined, qtbot, app_ready):
    from PySide6.QtWidgets import QFormLayout, QLabel

    from views.enforcement import DecisionDialog

    contest = enf.file_contest(fined, kind="defence", filed_on=ON, by="ana.souza", grounds="Não vendia.", today=ON)
    dialog = DecisionDialog(DecisionDialog.facts(contest), today=ON)  # the facts a worker reads (issue 27 §5)
    qtbot.addWidget(dialog)
    labels = [w.text() for w in dialog.findChildren(QLabel)]
    assert "&Nova multa (Cr$):" in labels and not any("(R$)" in t for t in labels)
    assert any("Multa atual: Cr$ 500,00" in t for t in labels)
    assert dialog.findChildren(QFormLayout)
