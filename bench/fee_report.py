"""The monthly fee report of a month with 20.000 charges: Excel against a bare XlsxWriter dump, HTML, peak memory.

Praça: :func:`reports.fee_export.export_fee_report` — what Relatórios → Taxas
and ``praca report fees`` run: the month read from the database
(:func:`models.billing.fee_report.fee_report`), then the workbook (eight sheets, named
styles, formulas for every total, filters, frozen panes, a native chart) or
the HTML page, written beside the target and renamed over it.

Baseline: an XlsxWriter ``constant_memory`` workbook given the very cells of
the report's three lists (charges, payments, delinquents) as plain values —
prepared before the clock starts: no database, no logic, no styles, no
formulas. Judged: the report's writer (the month already read, as the
baseline's cells are) against it, ≤ 1,3×. Reported beside it: the whole
export with the database read, and the same bare dump through openpyxl's
write-only mode (what the reports were written with before XlsxWriter).

Data: 20.000 SJC permits charged for September, October and November 2026
(November is the report's month): 93 %, 90 % and 80 % paid (a few twice), 1 %
cancelled, the rest overdue on 30/11/2026 — about a third of the holders
delinquent, and the revocation candidates of three months unpaid.

Budgets: the Excel writer ≤ 1,3× the baseline; HTML ≤ 1 s; peak memory (``tracemalloc``:
what Python allocates while the report is made, its data included) ≤ 2× the
baseline's (its cell values included).
"""

from __future__ import annotations

import gc
import os
import pickle
import shutil
import tempfile
import tracemalloc

from bench import data
from bench.common import Figure, clock, limit_figure, open_scratch, paired, ratio_figure, say, thousands

NAME = "fee_report"
XLSX_LIMIT = 1.3
HTML_LIMIT = 1.0
MEMORY_LIMIT = 2.0
YEAR, MONTH = 2026, 11
#: Share of each month's charges paid by 30/11/2026 (November's fell due on the 20th: many pay late).
PAID = {9: 0.93, 10: 0.90, 11: 0.80}


def _cells(report) -> list[tuple[str, list[str], list[list]]]:
    """The three lists of the workbook as plain values: (sheet, headers, rows)."""
    from reports.fee_report_xlsx import CHARGE_COLUMNS, DELINQUENT_COLUMNS, PAYMENT_COLUMNS

    out = []
    for title, columns, items in (
        ("Cobranças", CHARGE_COLUMNS, report.charges),
        ("Pagamentos", PAYMENT_COLUMNS, report.payments),
        ("Inadimplentes", DELINQUENT_COLUMNS, report.delinquents),
    ):
        getters = [c[-1] for c in columns]
        out.append((title, [c[0] for c in columns], [[get(item) for get in getters] for item in items]))
    return out


def bare_xlsx(cells, path: str) -> None:
    import xlsxwriter

    wb = xlsxwriter.Workbook(path, {"constant_memory": True})
    for title, headers, rows in cells:
        ws = wb.add_worksheet(title)
        ws.write_row(0, 0, headers)
        for index, row in enumerate(rows, start=1):
            ws.write_row(index, 0, row)
    wb.close()


def plain(cells):
    """The cells as XlsxWriter and openpyxl both take them: Decimal as float."""
    from decimal import Decimal

    return [
        (title, headers, [[float(v) if isinstance(v, Decimal) else v for v in row] for row in rows])
        for title, headers, rows in cells
    ]


def bare_openpyxl(cells, path: str) -> None:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    for title, headers, rows in cells:
        ws = wb.create_sheet(title)
        ws.append(headers)
        for row in rows:
            ws.append(row)
    wb.save(path)


def _reported(figure: Figure) -> Figure:
    figure.judged, figure.ok = False, True
    return figure


def _peak(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run(backend: str, repeat: int) -> list[Figure]:
    from reports.fee_export import export_fee_report

    with open_scratch(backend):
        say(f"  [{backend}] dados: {data.PERMITS} permissões, três meses de cobranças e pagamentos…")
        people, _ = data.add_people(data.PERMITS, 0)
        data.add_index_corrections()
        data.add_permits(people)
        for month, paid in PAID.items():
            data.add_month_of_charges(YEAR, month, paid=paid)
        from bench.common import analyze

        analyze()
        folder = tempfile.mkdtemp(prefix="praca-bench-report-")
        try:
            xlsx, html, bare = (os.path.join(folder, name) for name in ("taxas.xlsx", "taxas.html", "bare.xlsx"))

            def product_xlsx():
                return export_fee_report(YEAR, MONTH, "xlsx", xlsx, today=data.TODAY)

            def product_html():
                return export_fee_report(YEAR, MONTH, "html", html, today=data.TODAY)

            _path, report = product_xlsx()  # warm: regimes, styles, templates
            product_html()
            cells = _cells(report)
            count = len(report.charges)
            assert count >= data.PERMITS * 0.95 and report.payments and report.delinquents, count
            cells = plain(cells)
            from reports.fee_report_xlsx import write_fee_report_xlsx

            ours, theirs = paired(lambda: write_fee_report_xlsx(report, xlsx), lambda: bare_xlsx(cells, bare), repeat)
            export_times = [clock(product_xlsx) for _ in range(repeat)]
            openpyxl_times = [clock(lambda: bare_openpyxl(cells, bare)) for _ in range(repeat)]
            html_times = [clock(product_html) for _ in range(repeat)]
            size = os.path.getsize(html) / 2**20

            # memory: the report with its data against the bare dump with its cells (rebuilt inside the window)
            frozen = pickle.dumps(cells, protocol=pickle.HIGHEST_PROTOCOL)
            ours_mem = min(_peak(product_xlsx) for _ in range(2))
            theirs_mem = min(_peak(lambda: bare_xlsx(pickle.loads(frozen), bare)) for _ in range(2))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        what = thousands(count)
        memory = Figure(
            f"fee report peak memory ({what} charges → xlsx) vs bare XlsxWriter",
            backend,
            ours_mem,
            "bytes",
            f"≤ {MEMORY_LIMIT:g}×",
            ours_mem / theirs_mem <= MEMORY_LIMIT,
            theirs_mem,
            ours_mem / theirs_mem,
            detail="tracemalloc peak, data included on both sides; best of 2",
        )
        return [
            ratio_figure(
                f"fee report, {what} charges → xlsx (writer) vs bare XlsxWriter constant_memory",
                backend,
                ours,
                theirs,
                XLSX_LIMIT,
                detail=f"{len(report.payments)} payments, {len(report.delinquents)} delinquents; month already read",
            ),
            _reported(
                ratio_figure(
                    f"fee report, {what} charges → xlsx export (database read included) vs bare XlsxWriter",
                    backend,
                    export_times,
                    theirs,
                    XLSX_LIMIT,
                )
            ),
            _reported(
                ratio_figure(
                    "bare openpyxl write-only dump of the same cells vs bare XlsxWriter",
                    backend,
                    openpyxl_times,
                    theirs,
                    XLSX_LIMIT,
                    detail="for the record: the library the reports were written with before",
                )
            ),
            limit_figure(
                f"fee report, {what} charges → html",
                backend,
                html_times,
                HTML_LIMIT,
                detail=f"{size:.1f} MiB page; database read included",
            ),
            memory,
        ]
