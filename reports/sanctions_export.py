"""Export the sanctions report to a file — what ``praca report sanctions`` and the Relatórios screen both call.

The same export as the fee report's (reports/fee_export.py): the figures are
gathered once (:func:`models.enforcement.sanctions_report.sanctions_report`), written into
a temporary file beside the target and renamed over it, with ``progress`` on
one scale from gathering to writing; a cancel or a failure leaves nothing.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path

from models.enforcement.sanctions_report import SanctionsReport, check_period, sanctions_report
from reports.fee_export import FORMATS, check_target, export_report, parse_format

__all__ = ["FORMATS", "check_target", "default_name", "export_sanctions_report", "parse_format", "write_report"]

Progress = Callable[[int, int], None]


def default_name(start: _dt.date, end: _dt.date, fmt: str) -> str:
    """``sancoes-2026-03-01-a-2026-03-31.pdf``."""
    return f"sancoes-{start:%Y-%m-%d}-a-{end:%Y-%m-%d}.{parse_format(fmt)}"


def write_report(report: SanctionsReport, fmt: str, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Write an already gathered report (the writer of ``fmt``) straight to ``path``."""
    fmt = parse_format(fmt)
    if fmt == "xlsx":
        from reports.sanctions_report_xlsx import write_sanctions_report_xlsx

        return write_sanctions_report_xlsx(report, path, progress=progress)
    from reports.sanctions_report_html import write_sanctions_report_html, write_sanctions_report_pdf

    writer = write_sanctions_report_html if fmt == "html" else write_sanctions_report_pdf
    return writer(report, path, progress=progress)


def export_sanctions_report(
    start: _dt.date,
    end: _dt.date,
    fmt: str,
    path: str | Path,
    *,
    today: _dt.date | None = None,
    progress: Progress | None = None,
    municipality: str | None = None,
) -> tuple[Path, SanctionsReport]:
    """Gather the period and write it to ``path`` atomically; returns the path and the report written.
    ``municipality``: another town whose acts the database holds (default: the database's own)."""
    from models.registry.municipality import report_town

    start, end = check_period(start, end)
    today = today or _dt.date.today()
    return export_report(
        lambda gathering: sanctions_report(
            start, end, today=today, progress=gathering, town=report_town(municipality) if municipality else None
        ),
        write_report,
        fmt,
        path,
        progress=progress,
    )
