"""The monthly fee report: figures, Excel (live formulas), HTML, PDF, the command line and the Relatórios page.

The month is built through the real functions of models/billing/charges/ (the
month's run, payments, a cancellation, a fine paid twice, a deposit never
paid). Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on
PostgreSQL. The totals of the Excel file *after recalculation* (LibreOffice,
when installed), of the HTML (parsed) and of the PDF (pdftotext, when
installed) must agree to the cent with a direct SQL sum.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import zipfile
from decimal import Decimal
from xml.etree import ElementTree

import pytest
from factories import company, person, sjc_stall
from hypothesis import given
from hypothesis import strategies as st
from pdftext import pdf_text
from reports_read import Figures, cents, pdf_pages, recalculated

from models.base.errors import Cancelled
from models.base.money import format_brl, from_centavos
from models.billing.charges import (
    Charge,
    cancel_charge,
    create_charge,
    generate_month,
    month_summary,
    record_payment,
)
from models.billing.fee_report import fee_report
from models.billing.report_parts import CANCELLED, NO_SECTION, NO_SITE, disambiguate
from models.registry.municipality import report_town
from models.store.db import db
from models.store.settings import set_settings
from reports.workbook.styles import MONEY

#: The charges with their state (schema v32: status and paid total in charge_state), for SQL from the tables
CHARGES = "(SELECT c.*, s.status, s.paid_total FROM charge AS c JOIN charge_state AS s ON s.id = c.id) AS ch"

YEAR, MONTH = 2026, 9
FIRST, LAST = "2026-09-01", "2026-09-30"
TODAY = dt.date(2026, 10, 25)  # October's fee is past due (the 20th): three months unpaid make a candidate
OFFICE = shutil.which("libreoffice") or shutil.which("soffice")
PDFTOTEXT = shutil.which("pdftotext")


# --------------------------------------------------------------------------- the month


def _pay(charge, on, amount=None, ref=None):
    return record_payment(
        Charge.get_by_id(charge.id),
        paid_on=on,
        amount=amount or charge.amount,
        reference=ref or f"B{charge.id}-{on:%m%d}",
        by="caixa",
        today=TODAY,
    )


def build_month(keys) -> dict:
    """Four feirantes of SJC from July, a month of everything, and an Olímpia deposit never paid."""
    set_settings({"municipality": "São José dos Campos", "state": "SP", "agency": "Prefeitura de São José dos Campos"})
    on = dt.date(2026, 7, 1)
    ana = sjc_stall(keys, "Ana Paula Reis", on=on)
    bruno = sjc_stall(keys, "Bruno Costa Lima", on=on)
    celia = sjc_stall(keys, "Célia Maria Alves", on=on)
    diego = sjc_stall(keys, "Diego Souza Prado", on=on)
    by_month = {}
    for month in (7, 8, 9, 10):
        created = generate_month(2026, month, by="tesouraria", today=dt.date(2026, month, 1))
        by_month[month] = {c.permit_id: c for c in created}
    for month in (7, 8, 9, 10):  # Ana pays everything on the 15th (August's only in September)
        _pay(by_month[month][ana.id], dt.date(2026, month + (month == 8), 5 if month == 8 else 15))
    _pay(by_month[7][bruno.id], dt.date(2026, 7, 15))  # then nothing: August–October unpaid
    for month in (7, 8, 10):
        _pay(by_month[month][celia.id], dt.date(2026, month, 18))
    cancel_charge(Charge.get_by_id(by_month[9][celia.id].id), reason="Licença aprovada em setembro", by="chefe")
    for month in (7, 8, 10):
        _pay(by_month[month][diego.id], dt.date(2026, month, 19))
    _pay(by_month[9][diego.id], dt.date(2026, 9, 25), amount=Decimal("10.00"))  # partial, then nothing
    fine = create_charge(
        kind="fine",
        regime="sjc-2014",
        label="Multa — banca fora do alinhamento",
        amount="150,00",
        due_on=dt.date(2026, 9, 25),
        basis="Lei 9.158/2014, art. 16, II",
        by="fiscal",
        permit=diego,
        today=dt.date(2026, 9, 10),
    )
    _pay(fine, dt.date(2026, 9, 24), ref="M1")
    _pay(fine, dt.date(2026, 9, 26), ref="M2")  # paid twice: "paga a maior"
    eventos = company("Eventos Olímpia Ltda", person("Rita de Cássia Moura"))
    deposit = create_charge(
        kind="deposit",
        regime="olimpia-2025",
        label="Caução — Recinto de Exposições",
        amount="1.500,00",
        due_on=dt.date(2026, 9, 10),
        basis="LC 324/2025, art. 89",
        by="tesouraria",
        company_id=eventos.id,
        today=dt.date(2026, 9, 1),
    )
    return {
        "ana": ana,
        "bruno": bruno,
        "celia": celia,
        "diego": diego,
        "fine": fine,
        "deposit": deposit,
        "months": by_month,
    }


@pytest.fixture
def month(keys, inpc):
    return build_month(keys)


def sql_cents(sql: str) -> int:
    value = db.execute_sql(sql).fetchone()[0]
    return int(value or 0)


def sql_totals() -> dict[str, int]:
    """The month's figures straight from the tables, in centavos (the columns are integer centavos): São José dos
    Campos's, the database's municipality (the Olímpia deposit is another town's: issue 31 §1)."""
    in_month = f"due_on BETWEEN '{FIRST}' AND '{LAST}' AND regime = 'sjc-2014'"
    return {
        "charged": sql_cents(f"SELECT SUM(amount) FROM {CHARGES} WHERE status <> 'cancelled' AND {in_month}"),
        "paid": sql_cents(
            f"SELECT SUM(CASE WHEN paid_total < amount THEN paid_total ELSE amount END) FROM {CHARGES} "
            f"WHERE status <> 'cancelled' AND {in_month}"
        ),
        "overdue": sql_cents(
            f"SELECT SUM(amount - paid_total) FROM {CHARGES} WHERE status = 'open' "
            f"AND due_on < '{TODAY.isoformat()}' AND {in_month}"
        ),
        "received": sql_cents(
            f"SELECT SUM(amount) FROM payment WHERE paid_on BETWEEN '{FIRST}' AND '{LAST}' "
            "AND charge_id IN (SELECT id FROM charge WHERE regime = 'sjc-2014')"
        ),
    }


# --------------------------------------------------------------------------- the figures


def test_report_figures_equal_direct_sql_and_month_summary(month):
    report = fee_report(YEAR, MONTH, today=TODAY)
    expected = sql_totals()
    t = report.totals
    assert (cents(t.charged), cents(t.paid), cents(t.overdue), cents(report.received)) == (
        expected["charged"],
        expected["paid"],
        expected["overdue"],
        expected["received"],
    )
    assert t.open == t.charged - t.paid
    summary = month_summary(YEAR, MONTH, today=TODAY, regimes={"sjc-2014"})  # the town's, as its report
    assert (summary.charged, summary.paid, summary.open, summary.overdue, summary.received, summary.count) == (
        t.charged,
        t.paid,
        t.open,
        t.overdue,
        report.received,
        t.count,
    )
    assert report.cancelled_count == 1 and t.count == 4  # 3 fees + fine; Célia's cancelled
    assert report.left_out == (("Olímpia/SP", 1),)  # the deposit of Olímpia's act: another town's report

    # every breakdown adds up to the totals
    for groups in (report.by_regime, report.by_site, report.by_section, report.by_kind):
        assert sum(g.count for g in groups) == t.count
        for field in ("charged", "paid", "open", "overdue"):
            assert sum((getattr(g, field) for g in groups), Decimal(0)) == getattr(t, field)
    assert [g.key for g in report.by_kind] == ["mensalidade", "multa"]  # in KINDS' order
    assert [g.key for g in report.by_regime] == ["São José dos Campos/SP — Lei 9.158/2014"]
    assert {g.key for g in report.by_site} == {"Feira Noturna do Jardim Satélite"}
    assert any(g.key.startswith("Seção XVI — ") for g in report.by_section)

    rows = {c.number: c for c in report.charges}
    fine = rows[month["fine"].number]
    assert fine.situation == "paga a maior" and fine.paid == Decimal("150.00") and fine.paid_total == Decimal("300.00")
    assert month["deposit"].number not in rows
    cancelled = rows[month["months"][9][month["celia"].id].number]
    assert cancelled.situation == CANCELLED and cancelled.paid == cancelled.open == Decimal(0)
    diego = rows[month["months"][9][month["diego"].id].number]
    assert diego.situation == "vencida" and diego.paid == Decimal("10.00") and diego.overdue == diego.amount - 10
    assert diego.permit == month["diego"].number and "art. 11, § 5º" in diego.basis and "×" in diego.formula

    # payments dated in September, whatever charge: Ana's August fee paid on 05/09 is received in September
    august = month["months"][8][month["ana"].id]
    assert august.number in {p.charge for p in report.payments}
    assert all(dt.date(2026, 9, 1) <= p.paid_on <= dt.date(2026, 9, 30) for p in report.payments)

    # delinquents: due up to 30/09, open and past due on 25/10 — Bruno (Aug + Sep), Diego
    holders = {d.holder: d for d in report.delinquents}
    assert set(holders) == {"Bruno Costa Lima", "Diego Souza Prado"}
    assert holders["Bruno Costa Lima"].count == 2
    assert [d.amount for d in report.delinquents] == sorted((d.amount for d in report.delinquents), reverse=True)
    # SJC art. 11, § 6º: three consecutive months unpaid — a list for the chief, no revocation
    assert [c.permit_number for c in report.candidates] == [month["bruno"].number]
    # the legal basis of each kind, as frozen on the charges
    bases = {b.kind: b for b in report.bases}
    assert "art. 11, § 5º" in bases["monthly"].text and "deposit" not in bases
    assert report.municipality == "São José dos Campos/SP" and report.agency == "Prefeitura de São José dos Campos"
    # the deposit is in Olímpia's report, under its own header: no section, no site, overdue, its basis
    olimpia = fee_report(YEAR, MONTH, today=TODAY, town=report_town("Olímpia"))
    assert olimpia.municipality == "Olímpia/SP" and olimpia.agency == "Prefeitura Municipal de Olímpia"
    [deposit] = olimpia.charges
    assert deposit.number == month["deposit"].number and deposit.situation == "vencida" and deposit.site == NO_SITE
    assert NO_SECTION in {g.key for g in olimpia.by_section} and [g.key for g in olimpia.by_kind] == ["caução"]
    assert [(d.holder, d.amount) for d in olimpia.delinquents] == [("Eventos Olímpia Ltda", Decimal("1500.00"))]
    assert [b.text for b in olimpia.bases] == ["LC 324/2025, art. 89"]
    assert olimpia.left_out == (("São José dos Campos/SP", 5),)  # four fees (one cancelled) and the fine


def test_an_empty_month_is_a_report_of_zeros(database):
    report = fee_report(2026, 2, today=TODAY)
    assert report.charges == () and report.totals.charged == 0 and report.by_kind == ()
    assert report.received == 0 and report.delinquents == ()


def test_progress_is_called_and_can_cancel(month):
    calls = []
    fee_report(YEAR, MONTH, today=TODAY, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 5) and calls[-1] == (5, 5)  # São José dos Campos's five (the Olímpia deposit is not)

    def stop(done, total):
        raise Cancelled()

    with pytest.raises(Cancelled):
        fee_report(YEAR, MONTH, today=TODAY, progress=stop)


def test_a_site_named_alike_in_two_towns_is_told_apart():
    names = disambiguate(
        [
            ("olimpia-2025", "Praça da Matriz"),
            ("sapezal-2014", "Praça da Matriz"),
            ("sjc-2014", "Feira Noturna"),
            ("olimpia-2025", NO_SITE),
            ("sjc-2014", NO_SITE),
        ],
        lambda r: {"olimpia-2025": "Olímpia/SP", "sapezal-2014": "Sapezal/MT"}.get(r, r),
    )
    assert names[("olimpia-2025", "Praça da Matriz")] == "Praça da Matriz (Olímpia/SP)"
    assert names[("sapezal-2014", "Praça da Matriz")] == "Praça da Matriz (Sapezal/MT)"
    assert names[("sjc-2014", "Feira Noturna")] == "Feira Noturna"
    assert names[("olimpia-2025", NO_SITE)] == names[("sjc-2014", NO_SITE)] == NO_SITE  # one line, not one a town


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_report_money_format_is_format_brl(centavos):
    from reports.fee_report_html import _Brl

    value = from_centavos(centavos)
    assert _Brl()(value) == format_brl(value)


# --------------------------------------------------------------------------- the three files agree with SQL


def _export(fmt, path):
    from reports.fee_export import export_fee_report

    written, _report = export_fee_report(YEAR, MONTH, fmt, path, today=TODAY)
    return written


def test_excel_html_and_pdf_agree_to_the_cent_with_sql(month, tmp_path, app_ready):
    import openpyxl

    expected = sql_totals()
    expected["open"] = expected["charged"] - expected["paid"]

    # HTML, parsed
    parser = Figures()
    parser.feed(_export("html", tmp_path / "taxas.html").read_text(encoding="utf-8"))
    for name in ("charged", "paid", "open", "overdue", "received"):
        key = {"charged": "cobrado", "paid": "pago", "open": "aberto", "overdue": "vencido", "received": "recebido"}
        assert parser.cents[f"total-{key[name]}"] == expected[name], name
    for prefix in ("tipo", "regime", "local", "secao"):  # each breakdown's total row
        assert parser.cents[f"{prefix}-cobrado"] == expected["charged"]
        assert parser.cents[f"{prefix}-vencido"] == expected["overdue"]
    assert parser.cents["cobrancas-cobrado"] == expected["charged"]
    assert parser.cents["pagamentos-total"] == expected["received"]

    # Excel: the results the file stores (what a reader that does not recalculate shows), and the workbook
    # recalculated by LibreOffice — both to the cent of SQL
    xlsx = _export("xlsx", tmp_path / "taxas.xlsx")
    books = [openpyxl.load_workbook(xlsx, data_only=True)]
    computed = recalculated(xlsx, tmp_path)
    if computed is not None:
        books.append(openpyxl.load_workbook(computed, data_only=True))
    for wb in books:
        resumo = {
            row[0]: row[1]
            for row in wb["Resumo"].iter_rows(min_row=4, max_row=20, max_col=2, values_only=True)
            if row[0]
        }
        assert cents(resumo["Cobrado (vencimento no mês, sem as canceladas)"]) == expected["charged"]
        assert cents(resumo["Pago"]) == expected["paid"]
        assert cents(resumo["Em aberto"]) == expected["open"]
        assert cents(resumo["Vencido"]) == expected["overdue"]
        assert cents(resumo["Recebido no mês"]) == expected["received"]
        assert resumo["Cobranças (sem as canceladas)"] == 4 and resumo["Cobranças canceladas"] == 1
        assert resumo["Inadimplentes"] == 2
        for sheet in ("Por regime", "Por local", "Por seção", "Por tipo"):
            total = next(r for r in wb[sheet].iter_rows(values_only=True) if r[0] == "Total")
            assert (total[1], cents(total[2]), cents(total[3]), cents(total[5])) == (
                4,
                expected["charged"],
                expected["paid"],
                expected["overdue"],
            ), sheet
        kinds = {r[0]: r for r in wb["Por tipo"].iter_rows(min_row=4, values_only=True) if r[0]}
        assert cents(kinds["multa"][2]) == 15000 and cents(kinds["multa"][3]) == 15000
        assert "caução" not in kinds  # the Olímpia deposit: another town's report

    # PDF, as text
    pdf = _export("pdf", tmp_path / "taxas.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    if PDFTOTEXT is not None:
        text = pdf_text(pdf)
        for label, name in (
            ("Cobrado", "charged"),
            ("Pago", "paid"),
            ("Em aberto", "open"),
            ("Vencido", "overdue"),
            ("Recebido no mês", "received"),
        ):
            found = re.search(rf"^\s*{label}\s+(R\$ [\d.]+,\d\d)", text, re.MULTILINE)
            assert found, f"{label} not in the PDF's summary"
            assert found.group(1) == format_brl(from_centavos(expected[name])), label
        assert "Prefeitura de São José dos Campos" in text and "Página 1 de" in text
        assert month["fine"].number in text and "paga a maior" in text


# --------------------------------------------------------------------------- Excel: live and formatted


def test_excel_is_live_formatted_filtered_frozen_and_charted(month, tmp_path):
    import openpyxl

    report = fee_report(YEAR, MONTH, today=TODAY)
    path = _export("xlsx", tmp_path / "taxas.xlsx")
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [
        "Resumo",
        "Por regime",
        "Por local",
        "Por seção",
        "Por tipo",
        "Cobranças",
        "Pagamentos",
        "Inadimplentes",
    ]
    last = 3 + len(report.charges)  # header on row 3, one row per charge
    charges = wb["Cobranças"]
    assert [c.value for c in charges[3]][:3] == ["Nº", "Titular", "CPF/CNPJ"]
    assert charges.freeze_panes == "B4" and charges.auto_filter.ref == f"A3:R{last}"
    assert charges["L4"].number_format == MONEY and charges["K4"].number_format == "DD/MM/YYYY"
    assert isinstance(charges["K4"].value, dt.datetime)
    # widths from the content (issue 32 §1): as wide as the longest name, never wider than declared
    longest = max(len(c.holder) for c in report.charges)
    assert longest + 2 <= charges.column_dimensions["B"].width <= 35 and charges.column_dimensions["J"].width < 15
    numbers = [charges.cell(row=r, column=1).value for r in range(4, last + 1)]
    assert numbers == [c.number for c in report.charges]
    total_row = next(r for r in range(last + 1, last + 4) if charges.cell(row=r, column=1).value)
    assert charges.cell(row=total_row, column=12).value == (
        f"=ROUND(SUMIFS('Cobranças'!$L$4:$L${last},'Cobranças'!$P$4:$P${last},\"<>cancelada\"),2)"
    )

    resumo = wb["Resumo"]
    formulas = {row[0].value: row[1] for row in resumo.iter_rows(min_row=4, max_row=15, max_col=2)}
    charged = formulas["Cobrado (vencimento no mês, sem as canceladas)"]
    assert charged.value == f"=ROUND(SUMIFS('Cobranças'!$L$4:$L${last},'Cobranças'!$P$4:$P${last},\"<>cancelada\"),2)"
    assert charged.number_format == MONEY
    assert formulas["Vencido"].value == f"=ROUND(SUM('Cobranças'!$O$4:$O${last}),2)"
    pays = 3 + len(report.payments)
    assert formulas["Recebido no mês"].value == f"=ROUND(SUM('Pagamentos'!$F$4:$F${pays}),2)"
    assert resumo.freeze_panes == "A4"

    # one municipality's report: the Olímpia deposit is said under the title, never counted (issue 31 §1)
    for sheet in ("Resumo", "Cobranças"):
        assert "não inclui 1 cobrança(s) de atos de outros municípios (Olímpia/SP: 1)" in wb[sheet]["A2"].value
    por_tipo = wb["Por tipo"]
    assert por_tipo["A4"].value == "mensalidade"
    assert por_tipo["C4"].value == (
        f"=ROUND(SUMIFS('Cobranças'!$L$4:$L${last},'Cobranças'!$H$4:$H${last},$A4,"
        f"'Cobranças'!$P$4:$P${last},\"<>cancelada\"),2)"
    )
    assert por_tipo["B4"].value.startswith("=COUNTIFS(") and por_tipo["B4"].number_format == "0"
    assert por_tipo.auto_filter.ref == "A3:F5" and por_tipo.freeze_panes == "A4"
    total = next(r for r in por_tipo.iter_rows() if r[0].value == "Total")
    assert total[2].value == "=ROUND(SUM(C4:C5),2)" and total[2].font.bold
    for sheet in ("Por regime", "Por local", "Por seção"):
        assert wb[sheet]["C4"].value.startswith("=ROUND(SUMIFS('Cobranças'!$L$4:")
    pagamentos = wb["Pagamentos"]
    assert pagamentos["F4"].number_format == MONEY and pagamentos["A4"].number_format == "DD/MM/YYYY"
    assert pagamentos.auto_filter.ref == f"A3:G{pays}"
    assert wb["Inadimplentes"]["A4"].value == report.delinquents[0].holder
    assert {wb["Inadimplentes"]["A4"].value, wb["Inadimplentes"]["A5"].value} == {
        "Bruno Costa Lima",
        "Diego Souza Prado",
    }

    # the native chart: a clustered bar chart on Resumo over Por tipo (openpyxl does not read charts back)
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        chart = archive.read("xl/charts/chart1.xml").decode("utf-8")
        rels = archive.read("xl/worksheets/_rels/sheet1.xml.rels").decode("utf-8")
    assert "xl/drawings/drawing1.xml" in names and "drawing" in rels
    ns = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
    bar = ElementTree.fromstring(chart).find(".//c:barChart", ns)
    assert bar is not None and bar.find("c:grouping", ns).get("val") == "clustered"
    series = bar.findall("c:ser", ns)
    assert [s.find("c:tx/c:strRef/c:f", ns).text for s in series] == ["'Por tipo'!$C$3", "'Por tipo'!$D$3"]
    assert [s.find("c:val/c:numRef/c:f", ns).text for s in series] == ["'Por tipo'!$C$4:$C$5", "'Por tipo'!$D$4:$D$5"]
    assert {s.find("c:cat/c:strRef/c:f", ns).text for s in series} == {"'Por tipo'!$A$4:$A$5"}


def test_criteria_that_sumifs_would_misread_use_an_exact_comparison():
    from reports.workbook.breakdown import criteria_safe

    labels = ["Feira * Centro", "Praça da Matriz", "praça da matriz", ">10", "Rua ~ 1"]
    assert not criteria_safe("Feira * Centro", labels) and not criteria_safe(">10", labels)
    assert not criteria_safe("Praça da Matriz", labels)  # SUMIFS ignores case: two keys would merge
    assert criteria_safe("Feira Noturna", ["Feira Noturna"])


def test_an_empty_month_exports_in_every_format(database, tmp_path, app_ready):
    import openpyxl

    from reports.fee_export import export_fee_report

    for fmt in ("xlsx", "html", "pdf"):
        path, report = export_fee_report(2026, 2, fmt, tmp_path / f"vazio.{fmt}", today=TODAY)
        assert path.stat().st_size > 0 and report.totals.count == 0
    computed = recalculated(tmp_path / "vazio.xlsx", tmp_path)
    if computed is not None:
        resumo = openpyxl.load_workbook(computed, data_only=True)["Resumo"]
        values = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=15, max_col=2, values_only=True) if r[0]}
        assert values["Cobrado (vencimento no mês, sem as canceladas)"] == 0
        assert values["Cobranças (sem as canceladas)"] == 0 and values["Inadimplentes"] == 0
    assert "Nenhuma cobrança com vencimento no mês." in (tmp_path / "vazio.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- HTML and PDF: a municipal report


def test_html_is_a_printable_a4_page_with_chart_header_and_bases(month, tmp_path):
    path = _export("html", tmp_path / "taxas.html")
    html = path.read_text(encoding="utf-8")
    parser = Figures()
    parser.feed(html)
    text = " ".join(" ".join(parser.text).split())
    assert "@page" in html and "size: A4" in html
    assert "svg" in parser.tags and html.count("<rect") >= 6  # background, legend, 2 kinds × 2 bars
    assert "Prefeitura de São José dos Campos" in text and "São José dos Campos/SP" in text
    assert "Relatório mensal de taxas" in text and "Setembro de 2026" in text
    assert "Lei 9.158/2014, art. 11, § 5º" in text and "Lei 9.158/2014, art. 16, II" in text  # bases of each kind
    assert "Candidatos à cassação" in text and month["bruno"].number in text
    assert "Multa — banca fora do alinhamento" in text and "paga a maior" in text
    # the Olímpia deposit is another town's (issue 31 §1): said, never counted
    assert "Eventos Olímpia Ltda" not in text and "LC 324/2025" not in text
    assert "não inclui as cobranças de atos de outros municípios" in text and "Olímpia/SP: 1" in text


@pytest.mark.parametrize(
    "typed", ['=HYPERLINK("http://exemplo.invalid","Clique")', "+5511987654321", "-2+3", "@SUM(1+1)", "=1+1"]
)
def test_what_people_typed_is_text_in_the_workbook_never_a_formula(database, tmp_path, typed):
    """A name or a description that starts with = + - @ is written as a string: no reader runs it."""
    import openpyxl

    from reports.fee_report_xlsx import write_fee_report_xlsx

    vendor = person(f"{typed} Silva")  # a name needs a surname
    create_charge(
        kind="other",
        regime="sjc-2014",
        label=typed,
        amount="10,00",
        due_on=dt.date(2026, 9, 5),
        basis="art. 1º",
        by="t",
        person_id=vendor.id,
        today=TODAY,
    )
    path = write_fee_report_xlsx(fee_report(YEAR, MONTH, today=TODAY), tmp_path / "taxas.xlsx")
    charges = openpyxl.load_workbook(path)["Cobranças"]
    holder, label = charges["B4"], charges["I4"]
    assert (holder.value, holder.data_type) == (f"{typed} Silva", "s")
    assert (label.value, label.data_type) == (typed, "s")
    with zipfile.ZipFile(path) as archive:
        sheet = archive.read("xl/worksheets/sheet6.xml").decode("utf-8")  # Cobranças, the sixth tab
    formulas = re.findall(r"<f>(.*?)</f>", sheet)
    assert formulas and not any("HYPERLINK" in f or "1+1" in f or "5511" in f or "2+3" in f for f in formulas)


def test_html_escapes_what_the_clerk_typed(database, tmp_path):
    from reports.fee_report_html import fee_report_html

    vendor = person("Zé <b>Negrito</b> & Cia")
    create_charge(
        kind="other",
        regime="sjc-2014",
        label="<script>alert(1)</script>",
        amount="10,00",
        due_on=dt.date(2026, 9, 5),
        basis="art. 1º",
        by="t",
        person_id=vendor.id,
        today=TODAY,
    )
    html = fee_report_html(fee_report(YEAR, MONTH, today=TODAY))
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Zé &lt;b&gt;Negrito&lt;/b&gt; &amp; Cia" in html


@pytest.mark.skipif(PDFTOTEXT is None, reason="poppler-utils (pdftotext) ausente")
def test_pdf_has_the_summary_portrait_and_the_charge_list_landscape(month, tmp_path, app_ready):
    sizes, text = pdf_pages(_export("pdf", tmp_path / "taxas.pdf"))
    assert sizes and sizes[0][0] < sizes[0][1]  # the figures on A4 portrait
    assert sizes[-1][0] > sizes[-1][1]  # the charge list on A4 landscape
    assert "Anexo — cobranças com vencimento no mês" in text and f"Página {len(sizes)} de {len(sizes)}" in text


# --------------------------------------------------------------------------- atomic and cancellable


def test_export_is_atomic_a_cancel_leaves_nothing_and_keeps_the_old_file(month, tmp_path, app_ready):
    from reports.fee_export import export_fee_report

    for fmt in ("xlsx", "html", "pdf"):
        target = tmp_path / f"taxas.{fmt}"
        target.write_bytes(b"old")
        before = sorted(p.name for p in tmp_path.iterdir())

        def cancel_while_writing(done, total):
            if done > 150:  # past the gathering (150 of 1000): the writer has started
                raise Cancelled()

        with pytest.raises(Cancelled):
            export_fee_report(YEAR, MONTH, fmt, target, today=TODAY, progress=cancel_while_writing)
        assert target.read_bytes() == b"old", fmt  # the old file untouched
        assert sorted(p.name for p in tmp_path.iterdir()) == before, fmt  # no temporary file left
        written, _ = export_fee_report(YEAR, MONTH, fmt, target, today=TODAY)
        assert written.read_bytes()[:2] != b"ol" and sorted(p.name for p in tmp_path.iterdir()) == before


# --------------------------------------------------------------------------- command line


def test_cli_writes_each_format(month, tmp_path, capsys, app_ready):
    from desktop.cli import main
    from models.store.bootstrap import close_database
    from models.store.db import current_url

    url = current_url().raw
    expected = sql_totals()
    close_database()
    for fmt in ("xlsx", "html", "pdf"):
        out = tmp_path / f"taxas-2026-09.{fmt}"
        assert (
            main(
                [
                    "report",
                    "fees",
                    "--db",
                    url,
                    "--month",
                    "2026-09",
                    "--format",
                    fmt,
                    "--out",
                    str(out),
                    "--as-of",
                    "25/10/2026",
                ]
            )
            == 0
        )
        said = capsys.readouterr().out
        assert out.exists() and str(out) in said
        assert f"cobrado {format_brl(from_centavos(expected['charged']))}" in said
    assert (
        main(
            [
                "--db",
                url,
                "report",
                "fees",
                "--month",
                "09/2026",
                "--format",
                "HTML",
                "--out",
                str(tmp_path / "b.html"),
                "--as-of",
                "2026-10-25",
            ]
        )
        == 0
    )


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--month", "2026-13", "--format", "xlsx", "--out", "{tmp}/a.xlsx"], "Mês inválido: 2026-13"),
        (["--month", "março", "--format", "xlsx", "--out", "{tmp}/a.xlsx"], "Mês inválido"),
        (["--format", "xlsx", "--out", "{tmp}/a.xlsx"], "Informe o mês"),
        (["--month", "2026-03", "--format", "docx", "--out", "{tmp}/a.docx"], "Formato inválido: docx"),
        (["--month", "2026-03", "--out", "{tmp}/a.xlsx"], "Informe o formato"),
        (["--month", "2026-03", "--format", "pdf"], "Informe o arquivo"),
        (["--month", "2026-03", "--format", "xlsx", "--out", "{tmp}/nada/a.xlsx"], "não existe"),
        (["--month", "2026-03", "--format", "xlsx", "--out", "{tmp}"], "é uma pasta"),
        (["--month", "2026-03", "--format", "xlsx", "--out", "{tmp}/a.pdf"], "extensão .pdf"),
        (["--month", "2026-03", "--format", "xlsx", "--out", "{tmp}/ro/a.xlsx"], "Sem permissão"),
        (
            ["--month", "2026-03", "--format", "xlsx", "--out", "{tmp}/a.xlsx", "--as-of", "31/02/2026"],
            "fevereiro de 2026 não tem dia 31",
        ),
    ],
)
def test_cli_bad_input_is_one_pt_br_line_and_exit_2(argv, fragment, tmp_path, sqlite_url, capsys):
    import os

    from desktop.cli import main

    readonly = tmp_path / "ro"
    readonly.mkdir()
    readonly.chmod(0o500)
    if fragment == "Sem permissão" and os.access(readonly, os.W_OK):
        pytest.skip("running as a user who may write anywhere")  # root ignores the mode bits
    try:
        args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
        assert main(["--db", sqlite_url, "report", "fees", *args]) == 2
    finally:
        readonly.chmod(0o700)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("praca: ") and fragment in err
    assert not list(tmp_path.glob("**/a.*"))


def test_cli_refuses_a_folder_it_cannot_write_even_as_root(tmp_path, sqlite_url, capsys, monkeypatch):
    import os

    from desktop.cli import main

    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if str(p).endswith("ro") else real(p, mode, **kw))
    (tmp_path / "ro").mkdir()
    assert (
        main(
            [
                "--db",
                sqlite_url,
                "report",
                "fees",
                "--month",
                "2026-03",
                "--format",
                "xlsx",
                "--out",
                str(tmp_path / "ro" / "a.xlsx"),
            ]
        )
        == 2
    )
    assert "Sem permissão para gravar a.xlsx" in capsys.readouterr().err


# --------------------------------------------------------------------------- the Relatórios page


@pytest.fixture
def page(month, app_ready, qtbot):
    from views.reports_page import ReportsPage

    widget = ReportsPage(today=lambda: TODAY)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_page_starts_on_this_month_and_shows_the_figures(page, qtbot):
    assert page.selected_month() == (2026, 10)
    page.month.setCurrentIndex(8)  # setembro
    summary = month_summary(YEAR, MONTH, today=TODAY, regimes={"sjc-2014"})  # the town's, as its report
    assert page.selected_month() == (2026, 9)
    assert format_brl(summary.charged) in page.summary.text() and "4 cobrança(s)" in page.summary.text()
    page.set_month(2026, 2)
    assert "Nenhuma cobrança" in page.summary.text()


@pytest.mark.parametrize("fmt", ["xlsx", "html", "pdf"])
def test_page_exports_each_format_with_progress(page, qtbot, tmp_path, fmt):
    page.set_month(YEAR, MONTH)
    page.set_format(fmt)
    opened = []
    page.open_file = lambda path: opened.append(path) or True
    target = tmp_path / f"taxas-2026-09.{fmt}"
    written = page.export(target, open_after=False)
    assert written == target and target.stat().st_size > 0 and opened == []
    assert str(target) in page.message.text() and "cobrado" in page.message.text()
    # the Olímpia deposit is another town's: said on the page, as on the report
    assert "não inclui cobranças de atos de outros municípios (Olímpia/SP: 1)" in page.message.text()
    assert page.export_button.isEnabled() and page.progress_dialog is None
    if fmt == "html":
        parser = Figures()
        parser.feed(target.read_text(encoding="utf-8"))
        assert parser.cents["total-cobrado"] == sql_totals()["charged"]


def test_page_gives_each_towns_report_never_a_mix(page, tmp_path):
    """Issue 31 §1: the database is São José dos Campos; the Olímpia deposit it holds is in Olímpia's report,
    chosen on the page, under Olímpia's header — each town's figures on the screen and in its file alike."""
    assert page.town_row.isVisible()
    assert [page.town.itemText(i) for i in range(page.town.count())] == [
        "São José dos Campos/SP (este banco)",
        "Olímpia/SP",
    ]
    page.set_month(YEAR, MONTH)
    assert "4 cobrança(s)" in page.summary.text()
    page.town.setCurrentIndex(1)
    assert page.summary.text().startswith(f"1 cobrança(s): cobrado {format_brl(Decimal('1500'))},")
    page.set_format("html")
    target = tmp_path / "taxas-olimpia.html"
    assert page.export(target, open_after=False) == target
    html = target.read_text(encoding="utf-8")
    assert "Prefeitura Municipal de Olímpia" in html and "Eventos Olímpia Ltda" in html
    assert "Feira Noturna" not in html and "São José dos Campos/SP: 5" in html


def test_page_offers_to_open_the_file(page, tmp_path, no_blocking_message_boxes):
    page.set_month(YEAR, MONTH)
    opened = []
    page.open_file = lambda path: opened.append(path) or True
    written = page.export(tmp_path / "taxas.xlsx")  # the question is answered "Sim" by the fixture
    assert opened == [written] and any("Abrir o arquivo" in s for s in no_blocking_message_boxes)


def test_page_export_button_uses_the_default_name(page, qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    asked = {}

    def save_as(parent, title, name, filters):
        asked.update(name=name, filters=filters)
        return str(tmp_path / "escolhido"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    page.set_month(YEAR, MONTH)
    page.set_format("xlsx")
    page.open_file = lambda path: True
    qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)

    from views.save import documents_folder

    assert asked["name"] == str(documents_folder() / "taxas-2026-09.xlsx") and "*.xlsx" in asked["filters"]
    assert (tmp_path / "escolhido.xlsx").exists()  # the extension is added when the clerk typed none


def test_page_cancel_leaves_no_file(page, tmp_path):
    from PySide6.QtCore import QTimer

    page.set_month(YEAR, MONTH)
    page.set_format("pdf")
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "taxas.pdf"
    QTimer.singleShot(0, lambda: page.progress_dialog.cancel())
    assert page.export(target, open_after=False) is None
    assert not list(folder.iterdir())  # neither the file nor a temporary one
    assert "cancelada" in page.message.text()


def test_page_bad_path_is_said_on_the_page(page, tmp_path):
    page.set_month(YEAR, MONTH)
    assert page.export(tmp_path / "nada" / "taxas.xlsx", open_after=False) is None
    assert "não existe" in page.message.text()


def test_main_window_has_the_reports_page(app_ready, qtbot, sqlite_database):
    from desktop.main_window import MainWindow
    from views.reports_page import ReportsPage

    window = MainWindow()
    qtbot.addWidget(window)
    window.show_desk("relatorios")
    assert isinstance(window.pages["relatorios"], ReportsPage)
    assert window.stack.currentWidget() is window.pages["relatorios"]
