"""Where a file is saved, and the writing of it (issue 18 §5): the save dialog starts in the user's Documents
folder with a name that says what the file is (``mapa-feira-noturna-jardim-satelite-2026-12-01.pdf``), the
platform's own dialog where it has one; the file is written off the GUI thread (views/operations.py)."""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget


def slug(*parts: str) -> str:
    """``"Feira Noturna do Jardim Satélite"`` → ``"feira-noturna-do-jardim-satelite"`` (parts joined by -)."""
    text = " ".join(p for p in parts if p)
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def file_name(*parts: str, day: _dt.date | None = None, suffix: str = "pdf") -> str:
    """A file name from what it holds and the day: ``file_name("mapa", site.name, day=today)``."""
    stem = slug(*parts, (day or _dt.date.today()).isoformat()) if day is not False else slug(*parts)
    return f"{stem}.{suffix}"


def documents_folder() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(folder) if folder else Path.home()


def ask_save_path(parent: QWidget, title: str, name: str, filters: str) -> str | None:
    """The path the clerk chose, starting at Documents/``name`` (``None`` when the clerk gave up)."""
    path, _ = QFileDialog.getSaveFileName(parent, title, str(documents_folder() / name), filters)
    return path or None


def ask_open_path(parent: QWidget, title: str, filters: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, str(documents_folder()), filters)
    return path or None


def write_in_background(parent: QWidget, text: str, write):
    """``write()`` (a PDF, a spreadsheet) in a worker thread while the window stays responsive; its result."""
    from views.operations import run_operation

    return run_operation(parent, text, lambda _progress: write(), cancellable=False)


def save_file_name(parent: QWidget, title: str, name: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName`` starting at Documents/``name`` (``name`` kept when it is a full path)."""
    start = name if Path(name).is_absolute() else str(documents_folder() / name)
    return QFileDialog.getSaveFileName(parent, title, start, filters)


def open_file_name(parent: QWidget, title: str, start: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getOpenFileName`` starting at ``start`` or, when none is given, at Documents."""
    return QFileDialog.getOpenFileName(parent, title, start or str(documents_folder()), filters)
