"""One read-only table model for every list the screens show (rows are domain objects)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView


@dataclass(frozen=True)
class Column:
    header: str
    text: Callable[[Any], str]
    right: bool = False  # numbers and money align right
    tooltip: Callable[[Any], str | None] | None = None


class RowsModel(QAbstractTableModel):
    """Rows are plain objects; each column says how to show one of them."""

    def __init__(self, columns: Sequence[Column | tuple], parent=None):
        super().__init__(parent)
        self.columns = [c if isinstance(c, Column) else Column(*c) for c in columns]
        self.rows: list = []

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:  # Qt API
        return 0 if parent is not None and parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:  # Qt API
        return 0 if parent is not None and parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section].header
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        column = self.columns[index.column()]
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(row)
        if role == Qt.ItemDataRole.ToolTipRole and column.tooltip is not None:
            return column.tooltip(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def selected_row(table, model: RowsModel):
    """The row object under the table's current index, or ``None``."""
    index = table.currentIndex()
    rows = model.rows
    return rows[index.row()] if index.isValid() and index.row() < len(rows) else None


def select_where(
    table, model: RowsModel, match: Callable[[Any], bool], *, key: Any = None, quiet: bool = False
) -> bool:
    """Select the first row that ``match`` accepts; ``KeyError(key)`` when none does, unless ``quiet``."""
    for row, item in enumerate(model.rows):
        if match(item):
            table.selectRow(row)
            return True
    if not quiet:
        raise KeyError(key)
    return False


def make_table(name: str, model) -> QTableView:
    """A read-only list: whole rows selected one at a time, alternating colours, one line per row."""
    table = QTableView()
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.horizontalHeader().setHighlightSections(False)
    return table
