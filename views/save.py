"""Where a file is saved, and the writing of it (issue 18 §5): the save dialog starts in the user's Documents
folder with a name that says what the file is (``mapa-feira-noturna-jardim-satelite-2026-12-01.pdf``), the
platform's own dialog where it has one; the file is written off the GUI thread (views/operations.py). Each kind of
file (PDF, spreadsheet, CSV, act…: the first extension of the dialog's filter) starts, from the second time on, in
the folder the clerk last chose for that kind (issue 31 §6), kept in the settings."""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths
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


_EXTENSION = re.compile(r"\*\.([A-Za-z0-9]+)")


def file_kind(filters: str) -> str:
    """The kind of file a dialog asks for: its filter's first extension (``"PDF (*.pdf)"`` → ``"pdf"``)."""
    found = _EXTENSION.search(filters or "")
    return found.group(1).lower() if found else "any"


def start_folder(filters: str) -> Path:
    """Where a dialog for this kind of file starts: the folder last chosen for it, while it exists; else
    Documents."""
    last = QSettings().value(f"files/last-folder/{file_kind(filters)}", "")
    if last and Path(str(last)).is_dir():
        return Path(str(last))
    return documents_folder()


def remember_folder(filters: str, path: str) -> None:
    """The folder of ``path`` (a file chosen) is where this kind of file starts next time."""
    if path:
        QSettings().setValue(f"files/last-folder/{file_kind(filters)}", str(Path(path).parent))


def ask_save_path(parent: QWidget, title: str, name: str, filters: str) -> str | None:
    """The path the clerk chose, starting at Documents/``name`` — or the folder last chosen for this kind of
    file (``None`` when the clerk gave up)."""
    path, _ = save_file_name(parent, title, name, filters)
    return path or None


def ask_open_path(parent: QWidget, title: str, filters: str) -> str | None:
    path, _ = open_file_name(parent, title, "", filters)
    return path or None


def write_in_background(parent: QWidget, text: str, write):
    """``write()`` (a PDF, a spreadsheet) in a worker thread while the window stays responsive; its result."""
    from views.operations import run_operation

    return run_operation(parent, text, lambda _progress: write(), cancellable=False)


def save_file_name(parent: QWidget, title: str, name: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName`` starting at ``name`` in the folder last chosen for this kind of file, else
    in Documents (``name`` kept when it is a full path); the folder chosen is remembered."""
    start = name if Path(name).is_absolute() else str(start_folder(filters) / name)
    path, chosen = QFileDialog.getSaveFileName(parent, title, start, filters)
    remember_folder(filters, path)
    return path, chosen


def open_file_name(parent: QWidget, title: str, start: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getOpenFileName`` starting at ``start`` or, when none is given, in the folder last chosen
    for this kind of file, else in Documents; the folder chosen is remembered."""
    path, chosen = QFileDialog.getOpenFileName(parent, title, start or str(start_folder(filters)), filters)
    remember_folder(filters, path)
    return path, chosen
