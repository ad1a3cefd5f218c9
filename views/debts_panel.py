"""Cobrança → Dívida ativa (issue 30 §6): the charges overdue beyond the town's term, exported as a spreadsheet
or CSV with what Lei 6.830/1980, art. 2º, § 5º asks; inscribed once the clerk confirms."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QComboBox, QDateEdit, QFormLayout, QGroupBox, QHBoxLayout, QMessageBox, QWidget

from models.billing.collection.dividas import export_debts
from reports.debts_export import writer
from views.blocks import fill, message_label, push_button, say, user_errors, wrapped_label
from views.operations import in_background


class DebtsPanel(QGroupBox):
    def __init__(self, parent: QWidget | None = None, *, today: Callable[[], _dt.date] | None = None):
        super().__init__(parent)
        self.setTitle(self.tr("Dívida ativa"))
        self.setObjectName("debts")
        self._today = today or _dt.date.today
        form = QFormLayout(self)
        form.addRow(
            wrapped_label(
                self.tr(
                    "As cobranças vencidas além do prazo do município (Cadastros → Arrecadação), uma linha por "
                    "dívida com o que a Lei 6.830/1980, art. 2º, § 5º pede, atualizadas até a data. Inscrever grava "
                    "o arquivo e marca as cobranças como inscritas em dívida ativa."
                )
            )
        )
        self.as_of = QDateEdit()
        self.as_of.setObjectName("debts-as-of")
        self.as_of.setCalendarPopup(True)
        self.as_of.setDisplayFormat("dd/MM/yyyy")
        day = self._today()
        self.as_of.setDate(QDate(day.year, day.month, day.day))
        form.addRow(self.tr("Atualizar até:"), self.as_of)
        self.format = QComboBox()
        self.format.setObjectName("debts-format")
        self.format.addItem(self.tr("Planilha (xlsx)"), "xlsx")
        self.format.addItem(self.tr("CSV"), "csv")
        form.addRow(self.tr("Formato:"), self.format)
        self.export_button = push_button(self.tr("Exportar lista…"), "debts-export", lambda: self.export())
        self.inscribe_button = push_button(
            self.tr("Exportar e inscrever…"), "debts-inscribe", lambda: self.export(confirm=True)
        )
        row = QHBoxLayout()
        row.addWidget(self.export_button)
        row.addWidget(self.inscribe_button)
        row.addStretch(1)
        form.addRow(row)
        self.message = message_label("debts-message")
        form.addRow(self.message)

    def refresh(self) -> None:
        """Nothing to read until the clerk exports (the list is computed then)."""

    def ask_confirm(self, text: str) -> bool:
        """Asked before the charges are inscribed; a test replaces it."""
        answer = QMessageBox.question(
            self,
            self.tr("Inscrever em dívida ativa"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def export(self, path: str | None = None, *, confirm: bool = False):
        from views.save import ask_save_path, file_name

        fmt = self.format.currentData() or "xlsx"
        q = self.as_of.date()
        as_of = _dt.date(q.year(), q.month(), q.day())
        if path is None:
            path = ask_save_path(
                self, self.tr("Salvar dívida ativa"), file_name("divida-ativa", day=as_of, suffix=fmt), f"*.{fmt}"
            )
            if not path:
                return None
        if confirm and not self.ask_confirm(
            self.tr(
                "As cobranças listadas serão inscritas em dívida ativa (número e data de inscrição) e sairão da "
                "lista de em aberto do mês. Continuar?"
            )
        ):
            return None
        with user_errors(lambda text: say(self.message, text, error=True)) as refused:
            today, buttons = self._today(), (self.export_button, self.inscribe_button)
            rows = in_background(  # issue 27 §5: read, written and inscribed on a worker, the buttons held
                lambda: export_debts(path, writer(fmt, as_of), as_of=as_of, confirm=confirm, today=today), busy=buttons
            )
        if refused:
            return None
        say(
            self.message,
            fill(
                self.tr("%1 dívida(s) gravada(s) em %2%3"),
                len(rows),
                path,
                self.tr(", inscritas em dívida ativa.") if confirm else self.tr("; nada foi inscrito."),
            ),
        )
        return rows
