"""An act's amounts printed in its own money wherever Praça prints them (issue 29 §2): an act in cruzeiros
(``currency = "Cr$"``, tests/period_acts.py) gives a guia, a month's charges report (xlsx, HTML, PDF), a permit and a
regime sheet that say Cr$ — never R$, never converted."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from pdftext import pdf_text
from period_acts import REGIME_ID, period_act_text

from models.rules.regimes import load_regime_text

ACT = load_regime_text(period_act_text(), f"{REGIME_ID}.toml")
TODAY = dt.date(2026, 3, 10)


def _no_reais(text: str) -> bool:
    """No "R$" but the "R$" inside "Cr$"."""
    return "R$" not in text.replace("Cr$", "")


@pytest.fixture
def cruzeiros(database):
    """The act in cruzeiros installed, with one charge of Cr$ 1.500,00 due in March 2026 on a payer."""
    from factories import person

    from models.access import session
    from models.billing.charges import create_charge
    from models.rules import acts

    with session.acting_as(session.SYSTEM):
        acts.install(period_act_text().encode("utf-8"), f"{REGIME_ID}.toml")
    vendor = person("Carlos Alberto Nunes")
    charge = create_charge(
        kind="yearly",
        regime=REGIME_ID,
        label="Taxa de licença por exercício",
        amount="1.500,00",
        due_on=dt.date(2026, 3, 20),
        basis="Lei 376/2012, art. 6º",
        formula="1.500,00 × 1",
        by="tesouraria",
        person_id=vendor.id,
        today=TODAY,
    )
    return charge


def test_a_guia_of_an_act_in_cruzeiros_prints_cruzeiros(cruzeiros, tmp_path):
    from models.billing.collection.agreement import set_agreement
    from models.billing.collection.guias import issue_guia
    from reports.guia_pdf import write_guia_pdf

    set_agreement(agreement="0042", value_id="6", pix_key="11222333000181", pix_name="Prefeitura", pix_city="Cidade")
    guia = issue_guia([cruzeiros], today=TODAY)
    text = pdf_text(write_guia_pdf(guia, tmp_path / "guia.pdf")).replace("\xa0", " ")
    assert "Cr$ 1.500,00" in text and "Total a pagar: Cr$ 1.500,00" in text
    assert _no_reais(text)


def test_the_months_charges_report_of_an_act_in_cruzeiros_says_cruzeiros_in_every_format(cruzeiros, tmp_path):
    import openpyxl

    from models.billing.fee_report import fee_report
    from reports.fee_report_html import fee_report_html
    from reports.fee_report_xlsx import write_fee_report_xlsx

    report = fee_report(2026, 3, today=TODAY)
    assert report.currency == "Cr$" and report.totals.charged == Decimal("1500.00")
    html = fee_report_html(report)
    assert "Cr$ 1.500,00" in html and _no_reais(html)
    book = openpyxl.load_workbook(write_fee_report_xlsx(report, tmp_path / "taxas.xlsx"))
    formats = {
        cell.number_format for sheet in book.worksheets for row in sheet.iter_rows() for cell in row if cell.value
    }
    money = [f for f in formats if "#,##0.00" in f]
    assert money and all('"Cr$"' in f for f in money)


def test_the_charges_report_pdf_says_cruzeiros(cruzeiros, tmp_path, app_ready):
    from models.billing.fee_report import fee_report
    from reports.fee_report_html import write_fee_report_pdf

    text = pdf_text(write_fee_report_pdf(fee_report(2026, 3, today=TODAY), tmp_path / "taxas.pdf"))
    text = text.replace("\xa0", " ")
    assert "Cr$ 1.500,00" in text and _no_reais(text)


def test_a_month_of_acts_in_two_moneys_is_refused_not_added(cruzeiros):
    from models.base.errors import UserError
    from models.billing.charges import create_charge
    from models.billing.fee_report import fee_report

    create_charge(
        kind="yearly",
        regime="cabeceira-grande-2012",
        label="Taxa da licença",
        amount="80,00",
        due_on=dt.date(2026, 3, 20),
        basis="Lei 376/2012, art. 3º",
        by="tesouraria",
        person_id=cruzeiros.person_id,
        today=TODAY,
    )
    with pytest.raises(UserError, match=r"moedas diferentes \(Cr\$: Lei 376/2012; R\$: Lei 376/2012\)"):
        fee_report(2026, 3, today=TODAY)
    from models.billing.charges import month_summary

    assert month_summary(2026, 3, today=TODAY).currencies == ("Cr$", "R$")


def test_a_permit_and_the_regime_sheet_of_an_act_in_cruzeiros_say_cruzeiros():
    from models.permits.permit_doc import from_regime
    from reports.permit_docs import permit_html
    from reports.regime_sheet import regime_html

    doc = from_regime(
        ACT,
        "licenca-ambulante",
        number="1986/000001",
        valid_from=dt.date(1986, 3, 10),
        valid_until=dt.date(1986, 12, 31),
        holder_name="Carlos Alberto Nunes",
        amount=Decimal("1500.00"),
        amount_basis="Lei 376/2012, art. 6º",
    )
    html = permit_html(doc)
    assert "Cr$" in html and "1.500,00" in html and _no_reais(html)
    sheet = regime_html(ACT)
    assert "Valores em cruzeiros (Cr$), a moeda do ato — o Praça não os converte para reais." in sheet
    assert "Valores em reais" not in sheet


def test_the_cobrancas_list_and_detail_show_the_charge_in_its_acts_money(cruzeiros, qtbot, app_ready):
    from views.charges_page import ChargesTab

    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    model = tab.table.model()
    assert [model.index(r, 6).data() for r in range(model.rowCount())] == ["Cr$ 1.500,00"]
    assert [model.index(r, 7).data() for r in range(model.rowCount())] == ["Cr$ 0,00"]
    assert tab.select_number(cruzeiros.number)
    assert "= <b>Cr$ 1.500,00</b>" in tab.detail.text()
    tab.grab().save("/tmp/periods/cobrancas-cruzeiros.png")
    assert "lançado <b>Cr$ 1.500,00</b>" in tab.totals.text() and _no_reais(tab.totals.text())
