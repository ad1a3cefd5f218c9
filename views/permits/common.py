"""What the permits tab and its dialogs share: the acts and their labels, the status filters and colours,
a date's and a period's text, the rows of permits and of renewals due, the history's columns.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from views import theme
from views.table_models import Column, RowsModel

#: The act of models.access.session each button does (a role the act does not allow sees it disabled, with who may).
ACTS = {
    "suspend": "permits.sanction",
    "revoke": "permits.sanction",
    "cancel": "permits.sanction",
    "transfer": "permits.sanction",
    "exchange": "permits.sanction",
    "reactivate": "permits.sanction",
    "renew": "permits.lifecycle",
    "leave": "permits.lifecycle",
    "started": "permits.lifecycle",
    "picked-up": "permits.lifecycle",
}


#: The status filter: label, key of ``models.permits.STATUSES`` (``None``: every permit).
STATUS_FILTERS = (
    ("Ativas", "active"),
    ("Suspensas", "suspended"),
    ("Cassadas", "revoked"),
    ("Canceladas", "cancelled"),
    ("Vencidas", "expired"),
    ("Substituídas", "superseded"),
    ("Todas", None),
)


#: The documents a permit prints: button label, file name prefix, what the message calls it.
DOCUMENTS = {
    "permit": ("permissao", "Permissão"),
    "card": ("cartao", "Cartão de identificação"),
    "placard": ("placa", "Placa indicativa"),
}


RENEWAL_HORIZON_DAYS = 60


STATUS_COLOURS = {
    "suspended": "warning",
    "revoked": "error",
    "cancelled": "error",
    "expired": "muted",
    "superseded": "muted",
}  # roles of views/theme.py


def date_text(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


def period_text(start: _dt.date | None, end: _dt.date | None) -> str:
    if start and end:
        return f"{date_text(start)} a {date_text(end)}"
    if start:
        return f"desde {date_text(start)}"
    return ""


class StatusRowsModel(RowsModel):
    """The permits list: rows no longer in force in a quieter colour, suspended ones in amber."""

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid():
            row = self.rows[index.row()]
            look = "error" if getattr(row, "lapsed", False) else STATUS_COLOURS.get(row.status)
            colour = theme.colour(look) if look else None
            return QColor(colour) if colour else None
        return super().data(index, role)


class DueRowsModel(RowsModel):
    """Renewals and deadlines: what is overdue in red."""

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid():
            return theme.qcolour("error") if self.rows[index.row()].overdue else None
        return super().data(index, role)


@dataclass(frozen=True)
class DueRow:
    """A line of "Renovações e prazos": a renewal window or a start-up/use/pick-up deadline."""

    date: _dt.date
    permit_id: int
    number: str
    holder: str
    what: str
    period: str
    article: str
    overdue: bool
    renewal_open: bool  # a renewal that can be asked today
    extendable: bool = False  # a start-up deadline the act lets the clerk extend once


def history_columns(tr) -> list[Column]:
    return [
        Column(tr("Data"), lambda e: date_text(e.on)),
        Column(tr("Evento"), lambda e: e.kind_label),
        Column(tr("Situação"), lambda e: f"{e.status_from} → {e.status_to}" if e.status_from else e.status_to),
        Column(tr("Por"), lambda e: e.by),
        Column(tr("Motivo"), lambda e: e.reason, tooltip=lambda e: e.reason or None),
        Column(tr("Período"), lambda e: period_text(e.start, e.end)),
    ]


class MessageLine(QLabel):
    """The tab's message line: what an act did, or its refusal in the error colour."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("message")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def say(self, text: str, *, error: bool = False) -> None:
        theme.styled(self, "color: ${error};" if error else "")
        self.setText(text)

    def say_refusal(self, text: str) -> None:
        """A refusal (the target of ``user_errors``)."""
        self.say(text, error=True)
