"""Arquivo → Abrir banco de dados: an SQLite file, or a PostgreSQL server for several desks."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QWidget,
)

from models.store.db import parse_url
from views.blocks import FormDialog, user_errors
from views.save import open_file_name


class OpenDatabaseDialog(FormDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Abrir banco de dados"))
        self.setMinimumWidth(560)

        self.sqlite_choice = QRadioButton(self.tr("Arquivo do banco embutido (SQLite) — um computador"))
        self.sqlite_choice.setChecked(True)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(self.tr("/caminho/para/praca.sqlite3"))
        browse = QPushButton(self.tr("Procurar…"))
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)

        self.pg_choice = QRadioButton(self.tr("Servidor PostgreSQL — vários computadores"))
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("postgresql://usuario@servidor:5432/praca")

        form = QFormLayout()
        form.addRow(self.sqlite_choice)
        form.addRow(self.tr("Arquivo:"), row)
        form.addRow(self.pg_choice)
        form.addRow(self.tr("Endereço:"), self.url_edit)
        self.body.addLayout(form)
        self.buttons = self.finish(
            buttons=QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )

        self.path_edit.textEdited.connect(lambda: self.sqlite_choice.setChecked(True))
        self.url_edit.textEdited.connect(lambda: self.pg_choice.setChecked(True))

    def _browse(self) -> None:
        path, _ = open_file_name(
            self, self.tr("Banco de dados do Praça"), "", self.tr("Banco SQLite (*.sqlite3 *.sqlite *.db);;Todos (*)")
        )
        if path:
            self.path_edit.setText(path)
            self.sqlite_choice.setChecked(True)

    def url(self) -> str:
        if self.sqlite_choice.isChecked():
            path = self.path_edit.text().strip()
            return f"sqlite:///{path}" if path else ""
        return self.url_edit.text().strip()

    def accept(self) -> None:
        with user_errors(self.error) as refused:
            parse_url(self.url())
        if refused:
            (self.path_edit if self.sqlite_choice.isChecked() else self.url_edit).setFocus()
            return
        super().accept()
