"""The documents of a permit kind, ticked as delivered with the day and the last valid day (and, where the form
keeps scans, the file): one table for the new application and for the documents delivered later."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHeaderView, QPushButton, QTableWidget, QTableWidgetItem, QWidget

from models.base.errors import FieldErrors, UserError
from models.registry.applications import DocumentInput
from views.blocks import fill
from views.widgets import DateEdit


class DocumentsTable(QTableWidget):
    """Document (checkable) · Entregue em · Válido até [· Arquivo]. ``changed`` fires on any tick or date typed."""

    changed = Signal()

    def __init__(self, *, attach: Callable[[str, QPushButton], None] | None = None, parent: QWidget | None = None):
        headers = [self.tr("Documento"), self.tr("Entregue em"), self.tr("Válido até")]
        if attach is not None:
            headers.append(self.tr("Arquivo"))
        super().__init__(0, len(headers), parent)
        self._attach = attach
        self.setObjectName("documents")
        self.setHorizontalHeaderLabels(headers)
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().hide()
        self.setTextElideMode(Qt.TextElideMode.ElideRight)  # a long name cut with "…", read whole on hover
        self.itemChanged.connect(self.changed)
        self.setMinimumHeight(self.rows_height(self.ROWS_SHOWN))

    #: Rows always in sight: the clerk ticks a kind's documents without scrolling a two-row window (issue 31 §6).
    ROWS_SHOWN = 6

    def rows_height(self, rows: int) -> int:
        """The height that shows the header and ``rows`` rows whole, with room for the horizontal scroll bar a
        narrow pane shows."""
        return (
            self.horizontalHeader().sizeHint().height()
            + self.horizontalScrollBar().sizeHint().height()
            + rows * max(self.verticalHeader().defaultSectionSize(), DateEdit().sizeHint().height())
            + 2 * self.frameWidth()
            + 2
        )

    def fill(self, regime, document_ids, today: _dt.date) -> None:
        """One unticked row per document of ``regime``, delivered ``today`` unless the clerk types another day."""
        self.setRowCount(0)
        self.blockSignals(True)
        for doc_id in document_ids:
            doc = regime.document(doc_id)
            row = self.rowCount()
            self.insertRow(row)
            item = QTableWidgetItem(doc.label)
            item.setData(Qt.ItemDataRole.UserRole, doc_id)
            item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            item.setCheckState(Qt.CheckState.Unchecked)
            tip = regime.cite_item(doc)
            if doc.validity_months:
                tip += fill(self.tr(" · validade de %1 meses"), doc.validity_months)
            item.setToolTip(f"{doc.label}\n{tip}")  # the whole name first: the column may cut it
            self.setItem(row, 0, item)
            delivered = DateEdit()
            delivered.set_date(today)
            valid = DateEdit()
            for edit in (delivered, valid):
                edit.textChanged.connect(self.changed)
            self.setCellWidget(row, 1, delivered)
            self.setCellWidget(row, 2, valid)
            if self._attach is not None:
                button = QPushButton(self.tr("Anexar…"))
                button.clicked.connect(lambda _c=False, d=doc_id, b=button: self._attach(d, b))
                self.setCellWidget(row, 3, button)
        self.blockSignals(False)
        self.resizeColumnsToContents()

    def _document(self, row: int) -> QTableWidgetItem:
        item = self.item(row, 0)
        assert item is not None  # every row names its document
        return item

    def _day(self, row: int, column: int) -> DateEdit:
        edit = self.cellWidget(row, column)
        assert isinstance(edit, DateEdit)  # the delivery and validity columns hold date edits
        return edit

    def tick(
        self, doc_id: str, delivered: bool = True, *, on: _dt.date | None = None, valid_until: _dt.date | None = None
    ) -> None:
        """Tick (or untick) one document, with its days — what the clerk's click and typing do."""
        for row in range(self.rowCount()):
            item = self._document(row)
            if item.data(Qt.ItemDataRole.UserRole) == doc_id:
                if on is not None:
                    self._day(row, 1).set_date(on)
                if valid_until is not None:
                    self._day(row, 2).set_date(valid_until)
                item.setCheckState(Qt.CheckState.Checked if delivered else Qt.CheckState.Unchecked)
                return
        raise KeyError(doc_id)

    def inputs(
        self, files: Mapping[str, str] | None = None, *, default_day: _dt.date | None = None
    ) -> list[DocumentInput]:
        """The ticked documents; a day typed wrong is a ``FieldErrors`` on ``documents[row]``."""
        docs, errors = [], {}
        for row in range(self.rowCount()):
            item = self._document(row)
            if item.checkState() != Qt.CheckState.Checked:
                continue
            doc_id = item.data(Qt.ItemDataRole.UserRole)
            try:
                delivered = self._day(row, 1).date()
                valid = self._day(row, 2).date()
            except UserError as exc:
                errors[f"documents[{row}]"] = f"{item.text()}: {exc.message}"
                continue
            docs.append(DocumentInput(doc_id, delivered or default_day, valid, (files or {}).get(doc_id)))
        if errors:
            raise FieldErrors(errors)
        return docs
