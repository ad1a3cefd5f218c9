"""The sanctions report as HTML that prints and as a PDF from it.

The same pieces as the monthly fee report (reports/fee_report_html.py): money
formatted once per amount (:class:`Brl`), the SVG bar chart of two series per
group (here fines charged and paid by kind of record); the figures on A4
portrait pages, the lists of records and fines on A4 landscape pages, in a
browser's print and in the PDF (reports/paged_pdf) alike. The template is
resources/templates/sanctions_report.html.j2.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from models.billing.report_parts import CANCELLED
from models.enforcement.sanctions_report import CORRECTED, SanctionsReport
from models.store.outfile import atomic_writer
from reports.fee_report_html import Brl, bar_chart_svg, cents
from reports.templating import render, trail_anchor

Progress = Callable[[int, int], None]


def chart(report: SanctionsReport):
    """Fines charged × paid by kind of record, as SVG (the Excel file has the same chart, native)."""
    return bar_chart_svg(
        report.by_kind,
        f"Multas lançadas × pagas por tipo de auto — {report.label}",
        series=("Multa lançada", "Paga"),
        currency=report.currency,
    )


def sanctions_report_html(report: SanctionsReport) -> str:
    """The report as one HTML page."""
    return render(
        "sanctions_report.html.j2",
        report=report,
        figures=report.figures,
        totals=report.totals,
        chart=chart(report),
        brl=Brl(report.currency),  # the act's own money: Cr$ for an act in cruzeiros, never converted
        cents=cents,
        CORRECTED=CORRECTED,
        CANCELLED=CANCELLED,
        trail=trail_anchor(),
    )


@atomic_writer("path", kind="html")
def write_sanctions_report_html(report: SanctionsReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    path = Path(path)
    if progress is not None:
        progress(0, 1)
    path.write_text(sanctions_report_html(report), encoding="utf-8")
    if progress is not None:
        progress(1, 1)
    return path


def write_sanctions_report_pdf(report: SanctionsReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """The same page as a PDF: the figures on A4 portrait pages, the lists on A4 landscape pages."""
    from reports.paged_pdf import write_html_pdf

    return write_html_pdf(sanctions_report_html(report), path, progress=progress)
