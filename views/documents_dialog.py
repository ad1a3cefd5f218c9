"""Documents delivered after the application — the winners' documents (Sapezal, Lei 1.171/2014, art. 11) — typed
in as the clerk receives them: which ones, on what day, valid until when."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from models.applications import Application, DocumentInput, record_documents
from models.errors import FieldErrors, UserError
from models.regimes import get_regime
from views.widgets import DateEdit, FieldErrorsView, GuardedDialog, current_user_name


class DeliveredDocumentsDialog(GuardedDialog):
    """Tick the documents delivered, with the day of delivery and, when printed on it, the last valid day."""

    discard_question = "Descartar as entregas marcadas?"

    def __init__(self, app: Application, documents: tuple[str, ...], *, today: _dt.date,
                 deadline_text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.app = app
        self.today = today
        self.recorded: list = []
        regime = get_regime(app.regime)
        self.setWindowTitle(self.tr("Documentos entregues — %1").replace("%1", app.protocol))
        self.resize(760, 320)
        layout = QVBoxLayout(self)
        head = QLabel(self.tr("<b>%1</b> — requerimento %2").replace("%1", app.applicant_name)
                      .replace("%2", app.protocol))
        layout.addWidget(head)
        if deadline_text:
            due = QLabel(deadline_text)
            due.setObjectName("deadline")
            due.setWordWrap(True)
            layout.addWidget(due)
        self.table = QTableWidget(len(documents), 3)
        self.table.setObjectName("documents")
        self.table.setHorizontalHeaderLabels([self.tr("Documento"), self.tr("Entregue em"), self.tr("Válido até")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        for row, doc_id in enumerate(documents):
            doc = regime.document(doc_id)
            item = QTableWidgetItem(doc.label)
            item.setData(Qt.ItemDataRole.UserRole, doc_id)
            item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setToolTip(regime.cite_item(doc))
            self.table.setItem(row, 0, item)
            delivered = DateEdit()
            delivered.set_date(today)
            self.table.setCellWidget(row, 1, delivered)
            self.table.setCellWidget(row, 2, DateEdit())
        self.table.itemChanged.connect(lambda _i: self._mark_dirty())
        layout.addWidget(self.table, 1)
        self.add_save_bar(layout)
        self.save_button.setText(self.tr("&Registrar entrega"))
        self.errors = FieldErrorsView(self.error, {"documents": self.table})
        self.watch_edits()

    def tick(self, doc_id: str, *, on: _dt.date | None = None, valid_until: _dt.date | None = None) -> None:
        """Mark one document delivered (the mouse's click on its box, for keyboard and tests alike)."""
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item.data(Qt.ItemDataRole.UserRole) == doc_id:
                if on is not None:
                    self.table.cellWidget(row, 1).set_date(on)
                if valid_until is not None:
                    self.table.cellWidget(row, 2).set_date(valid_until)
                item.setCheckState(Qt.CheckState.Checked)
                return
        raise KeyError(doc_id)

    def inputs(self) -> list[DocumentInput]:
        docs, errors = [], {}
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item.checkState() != Qt.CheckState.Checked:
                continue
            try:
                delivered = self.table.cellWidget(row, 1).date()
                valid = self.table.cellWidget(row, 2).date()
            except UserError as exc:
                errors[f"documents[{row}]"] = f"{item.text()}: {exc.message}"
                continue
            docs.append(DocumentInput(item.data(Qt.ItemDataRole.UserRole), delivered, valid))
        if errors:
            raise FieldErrors(errors)
        return docs

    def save(self) -> None:
        try:
            self.recorded = record_documents(self.app, self.inputs(), by=current_user_name(), today=self.today)
        except FieldErrors as exc:
            self.errors.show({key.split(".")[0] if key.startswith("documents") else key: message
                              for key, message in exc.errors.items()})
            return
        except UserError as exc:
            self.errors.show({"documents": exc.message})
            return
        self.dirty = False
        self.accept()
