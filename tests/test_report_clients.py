"""The reports as their readers open them: LibreOffice, a reader that does not recalculate, Chromium's print,
a PDF reader — each through the real program (need_client: skipped when missing, a failure under CI=true).

One copy of the session's demo database for the module (SQLite: the clients do not see the back end; the report
tests run on both).
LibreOffice starts once per target format, converting every workbook in that run.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from pdftext import pdf_pages

TODAY = dt.date(2026, 11, 30)  # the demo's today
MONTH = (2026, 11)
PERIOD = (dt.date(2026, 1, 1), dt.date(2026, 11, 30))


@pytest.fixture(scope="module")
def demo(tmp_path_factory, _demo_sqlite_template):
    """The demo's fee report of November and sanctions report of the year, in every format."""
    from demo_db import copy_demo

    from models.store.bootstrap import close_database, open_database
    from reports.fee_export import export_fee_report
    from reports.sanctions_export import export_sanctions_report

    folder = tmp_path_factory.mktemp("relatorios")
    open_database(copy_demo(_demo_sqlite_template, folder))  # the demo's own today is TODAY
    try:
        files = {}
        for fmt in ("xlsx", "html", "pdf"):
            files[f"taxas.{fmt}"], fees = export_fee_report(*MONTH, fmt, folder / f"taxas.{fmt}", today=TODAY)
            files[f"sancoes.{fmt}"], sanctions = export_sanctions_report(
                *PERIOD, fmt, folder / f"sancoes.{fmt}", today=TODAY
            )
        # the dívida ativa list (issue 30 §6), once a term is set: the demo's overdue fines and fees
        from models.access.session import SYSTEM, acting_as
        from models.billing.collection.dividas import export_debts
        from models.billing.collection.late import set_late_rules
        from models.registry.municipality import MunicipalityInput, set_municipality
        from reports.debts_export import writer

        with acting_as(SYSTEM):
            set_late_rules(fine_percent="2", interest_percent="1", source="CTN, art. 161", due_days="5", debt_term="30")
            # a town inscribes its own debts (issue 31 §1): the demo's overdue fees are São José dos Campos's
            set_municipality(MunicipalityInput(name="São José dos Campos", state="SP", ibge="", agency=""))
            files["dividas.xlsx"] = folder / "dividas.xlsx"
            debts = export_debts(files["dividas.xlsx"], writer("xlsx", TODAY), as_of=TODAY, today=TODAY)
        assert len(debts) > 5
        yield {"folder": folder, "files": files, "fees": fees, "sanctions": sanctions}
    finally:
        close_database()


BOOKS = ("taxas.xlsx", "sancoes.xlsx", "dividas.xlsx")


@pytest.fixture(scope="module")
def printed(demo, tmp_path_factory, need_client) -> list[Path]:
    """The three workbooks printed to PDF by LibreOffice, once for the tests that read the print (one start of
    LibreOffice instead of one per test)."""
    (office,) = need_client("libreoffice|soffice")
    folder = tmp_path_factory.mktemp("impresso")
    return soffice(office, folder, "pdf", [demo["files"][name] for name in BOOKS], folder / "print")


def soffice(office: str, folder: Path, target: str, files: list[Path], out: Path) -> list[Path]:
    """One LibreOffice start converting every file of ``files`` to ``target``."""
    profile = folder / "lo-profile"
    subprocess.run(
        [
            office,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            target,
            "--outdir",
            str(out),
            *map(str, files),
        ],
        check=True,
        timeout=240,
        capture_output=True,
    )
    results = [out / (f.stem + "." + target.split(":")[0]) for f in files]
    missing = [r.name for r in results if not r.exists()]
    assert not missing, f"LibreOffice did not convert {missing}"
    return results


def _without_heights(source: Path, target: Path) -> None:
    """The workbook with no row height of its own: LibreOffice then sizes each row to fit its text."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = re.sub(rb'\s(?:ht="[\d.]+"|customHeight="1")', b"", data)
            zout.writestr(item, data)


def _formula_cells(path: Path) -> dict[tuple[str, str], object]:
    import openpyxl

    formulas = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    out = {}
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    out[(ws.title, cell.coordinate)] = values[ws.title][cell.coordinate].value
    return out


def test_libreoffice_recalculates_the_stored_values_and_no_header_is_cut(demo, printed, tmp_path, need_client):
    """Every formula's stored result is what LibreOffice computes; every row Praça sized is at least as tall as
    LibreOffice needs for its wrapped text; printed, each page has its number."""
    import openpyxl

    (office,) = need_client("libreoffice|soffice")
    books = [demo["files"][name] for name in BOOKS]
    bare = []
    for book in books:
        bare.append(tmp_path / f"{book.stem}-livre.xlsx")
        _without_heights(book, bare[-1])
    recalculated = soffice(office, tmp_path, "xlsx:Calc MS Excel 2007 XML", books + bare, tmp_path / "calc")

    for book, again in zip(books[:2], recalculated[:3], strict=False):
        stored = _formula_cells(book)
        assert len(stored) > 50 and all(v is not None for v in stored.values()), book.name
        computed = openpyxl.load_workbook(again, data_only=True)
        for (sheet, where), value in stored.items():
            theirs = computed[sheet][where].value
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                assert Decimal(str(theirs)).quantize(Decimal("0.01")) == Decimal(str(value)).quantize(
                    Decimal("0.01")
                ), (book.name, sheet, where, value, theirs)
            else:
                assert theirs == value, (book.name, sheet, where)

    for book, fitted in zip(books, recalculated[3:], strict=True):
        ours, needed = openpyxl.load_workbook(book), openpyxl.load_workbook(fitted)
        checked = 0
        for ws in ours.worksheets:
            for index, dim in ws.row_dimensions.items():
                if dim.customHeight and dim.height:
                    wanted = needed[ws.title].row_dimensions[index].height
                    assert wanted is None or dim.height >= wanted - 0.6, (
                        book.name,
                        ws.title,
                        index,
                        dim.height,
                        wanted,
                    )
                    checked += 1
        assert checked >= 1, book.name  # the header rows at least

    # printed from LibreOffice: every page numbered, every header of the charge list whole on its first page
    for pdf in printed:
        pages = pdf_pages(pdf)
        assert all(f"Página {n} de {len(pages)}" in page for n, page in enumerate(pages, start=1)), pdf.name

    # as shown, under this machine's locale (C or en-US here): money in pt-BR, the format's own locale
    from models.base.money import format_brl

    (csv,) = soffice(
        office,
        tmp_path,
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true",
        books[:1],
        tmp_path / "csv",
    )
    shown = csv.read_text(encoding="utf-8")
    charged = format_brl(demo["fees"].totals.charged).replace("\xa0", " ")
    assert f'"Cobrado (vencimento no mês, sem as canceladas)","{charged}"' in shown, shown[:600]


def test_a_reader_that_does_not_recalculate_shows_every_total(demo):
    """openpyxl's data_only view is what phone previews, Power Query and pandas read: the stored results."""
    import openpyxl

    report = demo["fees"]
    resumo = openpyxl.load_workbook(demo["files"]["taxas.xlsx"], data_only=True)["Resumo"]
    shown = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=20, max_col=2, values_only=True) if r[0]}
    assert (
        Decimal(str(shown["Cobrado (vencimento no mês, sem as canceladas)"])).quantize(Decimal("0.01"))
        == report.totals.charged
    )
    assert Decimal(str(shown["Vencido"])).quantize(Decimal("0.01")) == report.totals.overdue
    assert shown["Cobranças (sem as canceladas)"] == report.totals.count
    figures = demo["sanctions"].figures
    resumo = openpyxl.load_workbook(demo["files"]["sancoes.xlsx"], data_only=True)["Resumo"]
    shown = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=25, max_col=2, values_only=True) if r[0]}
    assert Decimal(str(shown["Multas lançadas (sem as canceladas)"])).quantize(Decimal("0.01")) == figures.charged


def test_chromium_prints_the_html_with_page_numbers_and_no_blank_last_page(demo, tmp_path, need_client):
    (chromium,) = need_client("chromium|chromium-browser|google-chrome")
    for name in ("taxas.html", "sancoes.html"):
        pdf = tmp_path / f"{name}.pdf"
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                f"--user-data-dir={tmp_path / 'chromium'}",
                f"--print-to-pdf={pdf}",
                demo["files"][name].as_uri(),
            ],
            check=True,
            timeout=120,
            capture_output=True,
        )
        pages = pdf_pages(pdf)
        assert len(pages) >= 2, name
        for number, page in enumerate(pages, start=1):
            assert f"Página {number} de {len(pages)}" in page, (name, number)
        # the last page carries the end of the list, not a stray footer line
        last = [line for line in pages[-1].splitlines() if line.strip() and "Página" not in line]
        assert len(last) >= 3 and any("Total" in line for line in last), (name, pages[-1])


def _rows_whole(pages: list[str], rows: list[tuple[str, str]]) -> None:
    """Each row's first text and its last cell's whole text on one page (a row split across pages leaves the
    cell's last lines on the next one). ``pages``: :func:`pdftext.pdf_pages`, raw and squashed."""
    for first, last in rows:
        on = [i for i, page in enumerate(pages) if first in page]
        assert on, first
        assert any(last in pages[i] for i in on), f"row {first!r} split: {last!r} on another page"


def test_pdf_reports_keep_each_row_whole_with_numbered_pages(demo, need_client):
    (pdfinfo,) = need_client("pdfinfo")
    fees = demo["fees"]
    pages = pdf_pages(demo["files"]["taxas.pdf"])
    assert len(pages) >= 3
    for number, page in enumerate(pages, start=1):
        assert f"Página {number} de {len(pages)}" in page
    # a charge's row: its number on the first line, its formula and legal basis on the last ones
    _rows_whole(
        pdf_pages(demo["files"]["taxas.pdf"], mode="raw", squash="all"),
        [(c.number, " ".join(f"{c.formula} — {c.basis}".split())) for c in fees.charges],
    )
    annex = next(i for i, page in enumerate(pages) if "Anexo — cobranças" in page)
    assert all("Cobrança — fórmula — base legal" in page for page in pages[annex:]), "the header on each page"
    info = subprocess.run([pdfinfo, str(demo["files"]["taxas.pdf"])], capture_output=True, text=True).stdout
    # ReportLab writes no tagged PDF (README, reports): the title a reader shows is the report's
    assert re.search(r"^Title:\s+Relatório mensal de taxas", info, re.MULTILINE), info
    # the fonts Praça ships (resources/fonts), embedded: the same page on a desk without DejaVu
    (pdffonts,) = need_client("pdffonts")
    fonts = subprocess.run([pdffonts, str(demo["files"]["taxas.pdf"])], capture_output=True, text=True).stdout
    faces = [line.split() for line in fonts.splitlines()[2:] if line.strip()]
    assert faces and all("DejaVu" in face[0] and "yes" in face[-5] for face in faces), fonts
    sanctions = demo["sanctions"]
    _rows_whole(
        pdf_pages(demo["files"]["sancoes.pdf"], mode="raw", squash="all"),
        [(f.charge.number, " ".join(f"{f.charge.formula} — {f.charge.basis}".split())) for f in sanctions.fines],
    )


def test_a_long_receipt_never_splits_a_row(demo, tmp_path, monkeypatch):
    """A receipt whose documents run over two pages: each document's row whole on one page."""
    import reports.receipt as receipt
    from models.registry.applications import Application

    app = Application.select().order_by(Application.id).first()
    real = receipt.receipt_context

    def many(application):
        context = real(application)
        one = context["documents"][0]
        context["documents"] = [
            dict(one, label=f"Documento {n:02d} — {one['label']}", article=f"{one['article']} (item {n:02d})")
            for n in range(1, 61)
        ]
        return context

    monkeypatch.setattr(receipt, "receipt_context", many)
    pdf = receipt.write_receipt_pdf(app, tmp_path / "recibo.pdf")
    pages = pdf_pages(pdf, mode="raw", squash="all")
    assert len(pages) >= 2
    one = real(app)["documents"][0]
    _rows_whole(
        pages, [(f"Documento {n:02d}", " ".join(f"{one['article']} (item {n:02d})".split())) for n in range(1, 61)]
    )
    assert all(f"Página {n} de {len(pages)}" in page for n, page in enumerate(pages, start=1))


def _cell_texts(book: Path) -> list[tuple[str, str, str, bool]]:
    """(sheet, cell, text as the sheet shows it, wrapped) for every text and money cell of ``book``."""
    import openpyxl

    from models.base.money import format_brl

    cells = []
    for ws in openpyxl.load_workbook(book, data_only=True).worksheets:
        for row in ws.iter_rows():
            for cell in row:
                value, wrapped = cell.value, bool(cell.alignment and cell.alignment.wrap_text)
                if isinstance(value, str) and value.strip() and cell.row > 2:  # the title rows run over empty cells
                    cells.append((ws.title, cell.coordinate, value, wrapped))
                elif isinstance(value, (int, float)) and "R$" in (cell.number_format or ""):
                    shown = format_brl(Decimal(str(value)).quantize(Decimal("0.01"))).replace("\xa0", " ")
                    cells.append((ws.title, cell.coordinate, shown, False))
    return cells


def _whole(word: str, words: set[str]) -> bool:
    cuts = [i + 1 for i, ch in enumerate(word[:-1]) if ch == "-"]
    return word in words or any(word[:i] in words and _whole(word[i:], words) for i in cuts)


def test_libreoffice_prints_every_workbook_at_8_pt_or_more_with_every_cell_whole(demo, printed):
    """Issue 32 §1: printed from LibreOffice, no character on any page of any workbook is smaller than 8 pt (the
    chart, the page's header and footer included), and every cell's text is in the PDF whole: a figure never
    loses its ",00", a word is never cut at the column's edge (a wrapped text: each of its words whole)."""
    import pdfplumber

    books = [demo["files"][name] for name in BOOKS]
    for book, pdf in zip(books, printed, strict=True):
        with pdfplumber.open(pdf) as doc:
            texts = []
            for number, page in enumerate(doc.pages, start=1):
                sizes = [c["size"] for c in page.chars if c["text"].strip()]
                assert sizes, (book.name, number)
                smallest = min(sizes)
                assert smallest >= 7.95, (book.name, number, round(smallest, 2))
                texts.append(page.extract_text() or "")
        printed = "\n".join(texts)
        # the audit trail's checkpoint at the foot of each page is whole: never cut mid-word beside the page's number
        trails = [line for line in printed.splitlines() if "Trilha de auditoria" in line]
        assert trails, book.name
        for line in trails:
            assert re.search(r"· (NÃO assinada|assinada pela chave \S+)( Página \d+ de \d+)?$", line.strip()), line
        squashed, words = "".join(printed.split()), set(printed.split())
        missing = []
        for sheet, where, text, wrapped in _cell_texts(book):
            if wrapped:  # each word whole (pdfplumber may join it to the next column's), or broken after its hyphen
                missing += [
                    (sheet, where, word) for word in text.split() if not (_whole(word, words) or word in squashed)
                ]
            elif "".join(text.split()) not in squashed:
                missing.append((sheet, where, text))
        assert not missing, (book.name, missing[:10])


CHART_PROBE = """<script>
setTimeout(() => {  // test only: the smallest lettering of the chart shown, in CSS px, and what shows it
  let smallest = 1e9, shown = [];
  for (const svg of document.querySelectorAll(".chart svg")) {
    const box = svg.getBoundingClientRect();
    if (!box.width) continue;
    shown.push(svg.getAttribute("class"));
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll("text")) {
      smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * scale);
    }
  }
  document.body.dataset.probe = smallest.toFixed(1) + "," + shown.join("+") + "," +
    document.documentElement.scrollWidth + "," + window.innerWidth;
}, 1000);
</script>
</body>"""


@pytest.mark.parametrize("width", [390, 1366])
def test_the_html_chart_is_readable_on_a_phone(demo, tmp_path, need_client, width):
    """Issue 32 §3: at 390 px the page shows the chart drawn for a phone — lettering of 11 px or more, as the
    page's own text — and at 1366 px the wide one; a screenshot of each is written beside the report."""
    (chromium,) = need_client("chromium|chromium-browser|google-chrome")
    for name in ("taxas.html", "sancoes.html"):
        source = demo["files"][name]
        probe = tmp_path / f"probe-{name}"
        probe.write_text(source.read_text(encoding="utf-8").replace("</body>", CHART_PROBE), encoding="utf-8")
        common = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'chromium'}",
            f"--window-size={width},900",
            "--virtual-time-budget=3000",
        ]
        done = subprocess.run([*common, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        smallest, shown, _scroll, _inner = re.search(r'data-probe="([^"]+)"', done.stdout).group(1).split(",")
        assert shown == ("narrow" if width < 760 else "wide"), (name, shown)
        assert float(smallest) >= (11 if width < 760 else 8), (name, width, smallest)
        subprocess.run(
            [*common, f"--screenshot={tmp_path / f'{name}-{width}.png'}", source.as_uri()],
            capture_output=True,
            timeout=120,
        )
