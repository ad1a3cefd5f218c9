"""The box an unexpected error opens (issue 31 §5): what happened and what to do, in Portuguese; the technical
detail is never shown — "Copiar detalhes" puts it on the clipboard for whoever supports the desk, and the box
says where the log file keeps it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QStyle, QVBoxLayout, QWidget

from views.blocks import fill, wrapped_label


class ErrorDialog(QDialog):
    """``message``: the clerk's line (``desktop.errors.explain``); ``details``: the report for the support, copied
    and never shown; ``log``: the log file that holds it (None when it could not be written)."""

    def __init__(self, parent: QWidget | None, message: str, details: str, log: Path | None):
        super().__init__(parent)
        self.setObjectName("error-dialog")
        self.setWindowTitle(self.tr("Praça — algo deu errado"))
        self.details = details
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(48, 48))
        top.addWidget(icon)
        self.message = wrapped_label(message, name="error-message")
        top.addWidget(self.message, 1)
        layout.addLayout(top)
        self.advice = wrapped_label(
            self.tr(
                "Tente de novo. Se acontecer outra vez, clique em “Copiar detalhes” e cole-os num e-mail ao "
                "suporte de informática da prefeitura, dizendo o que estava fazendo."
            ),
            name="error-advice",
        )
        layout.addWidget(self.advice)
        where = (
            fill(self.tr("O registro do erro foi gravado em: %1"), str(log))
            if log is not None
            else self.tr("O registro do erro não pôde ser gravado em arquivo; copie os detalhes agora.")
        )
        self.log_place = wrapped_label(where, name="error-log")
        self.log_place.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.log_place)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = self.buttons.addButton(self.tr("Copiar detalhes"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setObjectName("copy-details")
        self.copy_button.clicked.connect(self.copy_details)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

    def copy_details(self) -> None:
        """The details on the clipboard; the box stays open and says so."""
        QGuiApplication.clipboard().setText(self.details)
        self.copy_button.setText(self.tr("Detalhes copiados"))
