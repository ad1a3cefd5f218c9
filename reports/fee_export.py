"""Export the monthly fee report to a file — what ``praca report fees`` and the Relatórios screen both call.

:func:`export_report`, :func:`parse_format` and :func:`check_target` serve the
sanctions report as well (reports/sanctions_export.py).

The figures are gathered once (:func:`models.billing.fee_report.fee_report`) and written
by the format's writer into a temporary file beside the target, which is then
renamed over it: a cancelled or failed export leaves nothing half-written (and
an older file of the same name untouched). ``progress(done, total)`` moves
from gathering to writing on one scale; it may raise to cancel.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from models.base.errors import UserError
from models.billing.fee_report import FeeReport, fee_report
from models.store.outfile import resolve_target

FORMATS = {
    "xlsx": ("Planilha Excel", "Planilha Excel (*.xlsx)"),
    "html": ("Página HTML (para imprimir em A4)", "Página HTML (*.html)"),
    "pdf": ("PDF", "PDF (*.pdf)"),
}
_KNOWN_SUFFIXES = {".xlsx": "xlsx", ".html": "html", ".htm": "html", ".pdf": "pdf"}
_SCALE = 1000
_GATHER = 150  # share of the bar for reading the database; the rest is writing

Progress = Callable[[int, int], None]
R = TypeVar("R")


def parse_format(text: str | None) -> str:
    fmt = (text or "").strip().lower().lstrip(".")
    if fmt not in FORMATS:
        raise UserError(f"Formato inválido: {text or '(vazio)'}; use xlsx, html ou pdf.", field="format")
    return fmt


def default_name(year: int, month: int, fmt: str) -> str:
    """``taxas-2026-03.xlsx``."""
    return f"taxas-{year:04d}-{month:02d}.{parse_format(fmt)}"


def check_target(path: str | Path, fmt: str) -> Path:
    """The file to write, or one pt-BR line saying why it cannot be written there."""
    raw = str(path or "").strip()
    if not raw:
        raise UserError("Informe o arquivo a gravar (--out ARQUIVO).", field="out")
    target = Path(raw).expanduser()
    suffix = target.suffix.lower()
    if suffix in _KNOWN_SUFFIXES and _KNOWN_SUFFIXES[suffix] != fmt:
        raise UserError(
            f"O arquivo {target.name} tem extensão {suffix}, mas o formato pedido é {fmt}: "
            f"use .{fmt} ou escolha o formato {_KNOWN_SUFFIXES[suffix]}.",
            field="out",
        )
    try:
        return _checked(target)
    except OSError as exc:  # a name too long for the file system, a path through a file…
        raise UserError(f"Não é possível gravar em {target}: {exc.strerror or exc}.", field="out") from None


def _checked(target: Path) -> Path:
    folder = target.parent.resolve()
    if target.is_dir():
        raise UserError(f"{target} é uma pasta: informe o nome do arquivo a gravar.", field="out")
    if not folder.is_dir():
        raise UserError(
            f"A pasta {folder} não existe: crie-a ou escolha outro caminho para {target.name}.", field="out"
        )
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UserError(f"Sem permissão para gravar {target.name} em {folder}.", field="out")
    resolve_target(target)  # a device, a fifo: refused before the month is gathered
    return target


def write_report(report: FeeReport, fmt: str, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Write an already gathered report (the writer of ``fmt``) straight to ``path``."""
    fmt = parse_format(fmt)
    if fmt == "xlsx":
        from reports.fee_report_xlsx import write_fee_report_xlsx

        return write_fee_report_xlsx(report, path, progress=progress)
    if fmt == "html":
        from reports.fee_report_html import write_fee_report_html

        return write_fee_report_html(report, path, progress=progress)
    from reports.fee_report_html import write_fee_report_pdf

    return write_fee_report_pdf(report, path, progress=progress)


def export_fee_report(
    year: int,
    month: int,
    fmt: str,
    path: str | Path,
    *,
    today: _dt.date | None = None,
    progress: Progress | None = None,
    municipality: str | None = None,
) -> tuple[Path, FeeReport]:
    """Gather the month and write it to ``path`` atomically; returns the path and the report written.
    ``municipality``: another town whose acts the database holds (default: the database's own)."""
    from models.registry.municipality import report_town

    today = today or _dt.date.today()
    return export_report(
        lambda gathering: fee_report(
            year, month, today=today, progress=gathering, town=report_town(municipality) if municipality else None
        ),
        write_report,
        fmt,
        path,
        progress=progress,
    )


def export_report(
    gather: Callable[[Progress], R],
    write: Callable[..., Path],
    fmt: str,
    path: str | Path,
    *,
    progress: Progress | None = None,
) -> tuple[Path, R]:
    """Gather a report and write it to ``path`` atomically — the fee and the sanctions reports' export.

    ``gather(progress)`` reads the database; ``write(report, fmt, path, progress=…)`` writes the file (into a
    temporary one beside ``path``, checked and renamed over it once complete: :mod:`models.store.outfile`).
    Returns the path and the report written.
    """
    fmt = parse_format(fmt)
    target = check_target(path, fmt)

    def gathering(done: int, total: int) -> None:
        if progress is not None:
            progress(_GATHER * done // max(total, 1), _SCALE)

    def writing(done: int, total: int) -> None:
        if progress is not None:
            progress(_GATHER + (_SCALE - _GATHER) * done // max(total, 1), _SCALE)

    report = gather(gathering)
    write(report, fmt, target, progress=writing)  # each writer writes aside and renames (models.store.outfile)
    if progress is not None:
        progress(_SCALE, _SCALE)
    return target, report
