"""What the enforcement tabs and dialogs share: the kind, status and scope labels, a day's label, the
rows of overdue deadlines.
"""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Qt

from models import enforcement as enf
from views import theme
from views.table_models import RowsModel

KIND_FILTERS = (("", "Todos os tipos"), *enf.KINDS.items())


STATUS_FILTERS = (
    ("", "Todas as situações"),
    ("issued", "Lavrados"),
    ("contested", "Em defesa ou recurso"),
    ("corrected", "Corrigidos"),
    ("annulled", "Anulados"),
)


SCOPE_LABELS = {
    "street-vending": "comércio ambulante",
    "event": "eventos",
    "street-food": "comida de rua",
    "feira": "feira livre",
    "beach": "praia",
}


def day_label(day) -> str:
    if day is None:
        return ""
    if isinstance(day, _dt.datetime):
        return day.strftime("%d/%m/%Y %H:%M")
    return day.strftime("%d/%m/%Y")


class OverdueRowsModel(RowsModel):
    """Rows past their deadline in red."""

    def __init__(self, columns, parent=None, *, flag: str = "overdue"):
        super().__init__(columns, parent)
        self.flag = flag

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid():
            return theme.qcolour("error") if getattr(self.rows[index.row()], self.flag, False) else None
        return super().data(index, role)
