"""Documents delivered after the application — the winners' documents (Sapezal, Lei 1.171/2014, art. 11) — typed
in as the clerk receives them: which ones, on what day, valid until when."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from models.base.errors import FieldErrors, UserError
from models.registry.applications import Application, record_documents
from models.rules.regimes import get_regime
from views.blocks import FieldErrorsView, fill, wrapped_label
from views.documents_table import DocumentsTable
from views.fit import fit_to_screen
from views.operations import in_background
from views.widgets import GuardedDialog, current_user_name


class DeliveredDocumentsDialog(GuardedDialog):
    """Tick the documents delivered, with the day of delivery and, when printed on it, the last valid day."""

    discard_question = "Descartar as entregas marcadas?"

    def __init__(
        self,
        app: Application,
        documents: tuple[str, ...],
        *,
        today: _dt.date,
        deadline_text: str = "",
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.app = app
        self.today = today
        self.recorded: list = []
        regime, applicant_name = in_background(lambda: (get_regime(app.regime), app.applicant_name))  # issue 27 §5
        self.setWindowTitle(fill(self.tr("Documentos entregues — %1"), app.protocol))
        fit_to_screen(self, QSize(760, 320))
        layout = QVBoxLayout(self)
        head = QLabel(fill(self.tr("<b>%1</b> — requerimento %2"), applicant_name, app.protocol))
        layout.addWidget(head)
        if deadline_text:
            due = wrapped_label(deadline_text, name="deadline")
            layout.addWidget(due)
        self.table = DocumentsTable()
        self.table.fill(regime, documents, today)
        self.table.changed.connect(self._mark_dirty)
        layout.addWidget(self.table, 1)
        self.add_save_bar(layout)
        self.save_button.setText(self.tr("&Registrar entrega"))
        self.errors = FieldErrorsView(self.error, {"documents": self.table})
        self.watch_edits()

    def tick(self, doc_id: str, *, on: _dt.date | None = None, valid_until: _dt.date | None = None) -> None:
        """Mark one document delivered (the mouse's click on its box, for keyboard and tests alike)."""
        self.table.tick(doc_id, on=on, valid_until=valid_until)

    def save(self) -> None:
        try:  # written on a worker (issue 27 §5), Registrar entrega held
            app, inputs, by, today = self.app, self.table.inputs(), current_user_name(), self.today
            self.recorded = in_background(
                lambda: record_documents(app, inputs, by=by, today=today), busy=(self.buttons,)
            )
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            return
        except UserError as exc:
            self.errors.show({"documents": exc.message})
            return
        self.dirty = False
        self.accept()
