"""The sanctions report as HTML (printable on A4, inline SVG chart) and as PDF through Qt.

The same pieces as the monthly fee report (reports/fee_report_html.py): money
formatted once per amount (:class:`Brl`), the SVG bar chart of two series per
group (here fines charged and paid by kind of record), the PNG of that chart for
Qt, which draws no SVG, and the paged PDF writer — the figures on A4 portrait
pages, the lists of records and fines on A4 landscape pages. The template is
resources/templates/sanctions_report.html.j2.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from models.sanctions_report import CANCELLED, CORRECTED, SanctionsReport
from models.outfile import atomic_writer
from reports.fee_report_html import Brl, bar_chart_svg, cents, chart_png_data_uri, write_paged_pdf
from reports.templating import render

Progress = Callable[[int, int], None]
QT_CHUNK = 150  # rows per table in the PDF: Qt lays out many short tables far faster than one long one


def chart(report: SanctionsReport):
    """Fines charged × paid by kind of record, as SVG (the Excel file has the same chart, native)."""
    return bar_chart_svg(report.by_kind, f"Multas lançadas × pagas por tipo de auto — {report.label}",
                         series=("Multa lançada", "Paga"))


def sanctions_report_html(report: SanctionsReport, *, qt: bool = False, part: str = "all") -> str:
    """The report as one HTML page.

    ``qt=True`` is the variant Qt lays out for the PDF (the chart as PNG, the
    lists in short tables); ``part`` is ``"all"``, ``"main"`` (the figures and
    breakdowns) or ``"annex"`` (the lists of records and fines, printed landscape).
    """
    svg = chart(report) if part != "annex" else None
    return render("sanctions_report.html.j2", report=report, figures=report.figures, totals=report.totals,
                  chart=svg, chart_png=chart_png_data_uri(svg) if qt and svg is not None and report.by_kind else "",
                  qt=qt, part=part, chunk=QT_CHUNK if qt else max(len(report.records), len(report.fines), 1),
                  brl=Brl(), cents=cents, CORRECTED=CORRECTED, CANCELLED=CANCELLED)


@atomic_writer("path", kind="html")
def write_sanctions_report_html(report: SanctionsReport, path: str | Path, *,
                                progress: Progress | None = None) -> Path:
    path = Path(path)
    if progress is not None:
        progress(0, 1)
    path.write_text(sanctions_report_html(report), encoding="utf-8")
    if progress is not None:
        progress(1, 1)
    return path


def write_sanctions_report_pdf(report: SanctionsReport, path: str | Path, *,
                               progress: Progress | None = None) -> Path:
    """The figures on A4 portrait pages, the lists of records and fines on A4 landscape pages."""
    main = 1 + len(report.infractions) + len(report.deadlines) + len(report.seized) + len(report.debts)
    parts = [(main, False, lambda: sanctions_report_html(report, qt=True, part="main")),
             (1 + len(report.records) + len(report.fines), True,
              lambda: sanctions_report_html(report, qt=True, part="annex"))]
    return write_paged_pdf(path, parts, title=report.title, municipality=report.municipality, progress=progress)
