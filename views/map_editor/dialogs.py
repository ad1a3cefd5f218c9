"""Keeping a breach with its written reason; the list of holders dragged onto the map."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QMimeData, QSize, Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.sites import (
    KeptBreach,
    keep_breach,
)
from views.blocks import FieldErrorsView
from views.fit import fit_to_screen
from views.map_editor.style import PERMIT_MIME
from views.operations import in_background
from views.widgets import GuardedDialog, current_user_name


class KeepBreachDialog(GuardedDialog):
    """Keep a breach on purpose: the written reason and who keeps it (stored and shown with the breach)."""

    def __init__(self, site_id: int, breach, parent: QWidget | None = None):
        super().__init__(parent)
        self.site_id = site_id
        self.breach = breach
        self.kept: KeptBreach | None = None
        self.setWindowTitle(self.tr("Manter irregularidade com justificativa"))
        fit_to_screen(self, QSize(560, 340))
        layout = QVBoxLayout(self)
        about = QLabel(
            f"<b>{escape(breach.label.capitalize())}</b><br>{escape(breach.message)}"
            + (f"<br><i>{escape(breach.basis)}</i>" if breach.basis else "")
        )
        about.setWordWrap(True)
        about.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(about)
        form = QFormLayout()
        self.reason = QPlainTextEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("Por que a irregularidade fica (ofício, acordo, decisão da chefia…)"))
        self.by = QLineEdit(current_user_name())
        self.by.setObjectName("by")
        self.by.setReadOnly(True)  # who keeps it is the logged-in user (issue 16 §4), never a typed name
        form.addRow(self.tr("&Justificativa:"), self.reason)
        form.addRow(self.tr("&Servidor:"), self.by)
        layout.addLayout(form)
        self.add_save_bar(layout)
        self.errors = FieldErrorsView(self.error, {"reason": self.reason, "by": self.by})
        self.watch_edits()
        self.reason.textChanged.connect(lambda: setattr(self, "dirty", True))
        self.reason.setFocus()

    def save(self) -> None:
        try:  # written on a worker (issue 27 §5), Salvar held meanwhile
            site_id, breach, reason, by = self.site_id, self.breach, self.reason.toPlainText(), current_user_name()
            self.kept = in_background(lambda: keep_breach(site_id, breach, reason, by=by), busy=(self.buttons,))
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            return
        except UserError as exc:
            self.errors.show({exc.field or "reason": exc.message})
            return
        self.dirty = False
        self.accept()


class HolderList(QListWidget):
    """Permit holders without a stall; each drags onto a stall of the map."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("holders")
        self.setDragEnabled(True)
        self.setDragDropMode(QListWidget.DragDropMode.DragOnly)
        self.setSelectionMode(QListWidget.SelectionMode.SingleSelection)
        self.setWordWrap(True)

    def mimeTypes(self) -> list[str]:
        return [PERMIT_MIME]

    def mimeData(self, items) -> QMimeData:
        data = QMimeData()
        if items:
            permit_id = items[0].data(Qt.ItemDataRole.UserRole)
            data.setData(PERMIT_MIME, str(permit_id).encode())
            data.setText(items[0].text())
        return data
