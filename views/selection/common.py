"""What the selection tabs share: a monospace style, a day's and a moment's text, a table, a date field,
a rich label, the message line, writing a publication to a file.
"""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QDateEdit,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTableView,
)

from models.base.errors import UserError
from models.selection.process_tables import KINDS
from views.blocks import fill

MONO = 'font-family: "DejaVu Sans Mono", monospace;'  # shipped (reports/qt_fonts.py); inside style='…'


def when_text(value: _dt.datetime | None) -> str:
    return value.strftime("%d/%m/%Y %H:%M:%S") if value else ""


def set_up_table(view: QTableView, model, stretch: tuple[int, ...] = ()) -> QTableView:
    view.setModel(model)
    view.verticalHeader().hide()
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setWordWrap(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for column in stretch:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    return view


def date_edit(name: str, today: _dt.date) -> QDateEdit:
    edit = QDateEdit(QDate(today.year, today.month, today.day))
    edit.setObjectName(name)
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("dd/MM/yyyy")
    return edit


def picked_date(edit: QDateEdit) -> _dt.date:
    """The day chosen in a date edit made by :func:`date_edit` (always a valid day)."""
    day = edit.date()
    return _dt.date(day.year(), day.month(), day.day())


def day_text(value: _dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def rich_label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def public_draw_fields(owner, prefix: str, officials_height: int) -> tuple[QLineEdit, QPlainTextEdit]:
    """Where a public draw is held and who conducts and witnesses it, one per line: the two fields every draw's
    form asks, named ``{prefix}place`` and ``{prefix}officials``."""
    place = QLineEdit()
    place.setObjectName(f"{prefix}place")
    place.setPlaceholderText(owner.tr("Onde o sorteio é feito, em público"))
    officials = QPlainTextEdit()
    officials.setObjectName(f"{prefix}officials")
    officials.setPlaceholderText(owner.tr("Quem conduz e quem testemunha — um por linha"))
    officials.setMaximumHeight(officials_height)
    return place, officials


def message_line(name: str = "message") -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def write_publication(owner, pub, path: Path) -> Path | None:
    """The publication's document as PDF and, beside it, the exact hashed text (.txt)."""
    from models.store.outfile import write_bytes
    from reports.pdf import html_to_pdf

    html = (
        "<html><body><pre style='white-space: pre-wrap; font-size: 8pt;'>"
        + escape(pub.document)
        + "</pre></body></html>"
    )
    try:
        html_to_pdf(html, path, title=KINDS.get(pub.kind, pub.kind).capitalize())
        write_bytes(path.with_suffix(".txt"), pub.list_text.encode("utf-8"), kind="txt")
    except UserError as exc:  # models/store/outfile.py: one line, the target left as it was
        owner.message.setText(
            fill(owner.tr("Publicação registrada, mas não foi possível gravar %1: %2"), str(path), str(exc))
        )
        return None
    except OSError as exc:
        owner.message.setText(
            fill(
                owner.tr("Publicação registrada, mas não foi possível gravar %1: %2"),
                str(path),
                exc.strerror or str(exc),
            )
        )
        return None
    return path
