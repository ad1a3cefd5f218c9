"""Cobrança → Importar retorno: the bank's FEBRABAN return file, previewed record by record, then imported all at
once (issue 30 §4). The screen only shows what models.billing.collection.returns decides."""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from pathlib import Path

from PySide6.QtWidgets import QDialog, QHeaderView, QMessageBox, QTableView, QVBoxLayout, QWidget

from models.base.money import format_brl
from models.billing.collection.bank_files import ImportResult, import_return, preview_file
from models.billing.collection.returns import CATEGORIES, Preview
from views.blocks import button_row, error_label, fill, message_label, push_button, say, user_errors, wrapped_label
from views.operations import in_background
from views.table_models import Column, RowsModel


class ReturnImportDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self.today = today
        self.path: str | None = None
        self.preview: Preview | None = None
        self.outcome: ImportResult | None = None
        self.setWindowTitle(self.tr("Importar retorno do banco"))
        self.resize(980, 560)
        layout = QVBoxLayout(self)
        layout.addWidget(
            wrapped_label(
                self.tr(
                    "O arquivo de retorno de arrecadação (padrão FEBRABAN, 150 posições) que o banco envia: cada "
                    "pagamento é ligado à sua guia pelo código de barras. Confira a prévia e importe; um arquivo "
                    "com erro é recusado inteiro, e o mesmo arquivo importado de novo não muda nada."
                )
            )
        )
        self.choose_button = push_button(self.tr("&Escolher arquivo…"), "choose", lambda: self.choose())
        layout.addLayout(button_row(self.choose_button))
        self.summary = wrapped_label(name="summary")
        layout.addWidget(self.summary)
        self.model = RowsModel(
            [
                (self.tr("Registro"), lambda i: str(i.detail.record)),
                (self.tr("Guia"), lambda i: i.guia.number if i.guia else ""),
                (self.tr("Contribuinte"), lambda i: i.guia.payer_name if i.guia else ""),
                (self.tr("Pago em"), lambda i: i.detail.paid_on.strftime("%d/%m/%Y")),
                Column(self.tr("Valor"), lambda i: format_brl(i.amount), right=True),
                (self.tr("Situação"), lambda i: i.category_label),
                (self.tr("Observação"), lambda i: i.note),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("return-items")
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(6, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.error = error_label()
        layout.addWidget(self.error)
        self.message = message_label()
        layout.addWidget(self.message)
        self.import_button = push_button(self.tr("&Importar"), "import", lambda: self.import_())
        self.import_button.setEnabled(False)
        close = push_button(self.tr("&Fechar"), "close", self.accept)
        layout.addLayout(button_row(self.import_button, close))

    def choose(self) -> bool:
        from views.save import ask_open_path

        path = ask_open_path(
            self,
            self.tr("Arquivo de retorno"),
            self.tr("Retorno ou extrato (*.txt *.ret *.RET *.ofx *.OFX);;Todos (*)"),
        )
        return bool(path) and self.load(str(path))

    def load(self, path: str) -> bool:
        """Read and preview ``path`` (nothing written)."""
        self.path, self.preview = path, None
        self.model.set_rows([])
        self.import_button.setEnabled(False)
        say(self.error, "")
        self.message.clear()
        with user_errors(lambda text: say(self.error, text, error=True)) as refused:
            today, buttons = self.today, (self.choose_button, self.import_button)
            self.preview = in_background(  # issue 27 §5: the file read and matched to its guias on a worker
                lambda: preview_file(Path(path).read_bytes(), Path(path).name, today=today), busy=buttons
            )
        if refused or self.preview is None:
            self.summary.setText(fill(self.tr("%1: arquivo recusado; nada será importado."), Path(path).name))
            return False
        preview = self.preview
        h = preview.parsed.header
        counts = preview.counts()
        self.model.set_rows(preview.items)
        self.summary.setText(
            fill(
                self.tr("Convênio %1, NSA %2, gerado em %3 — %4 pagamento(s), %5. %6"),
                h.agreement,
                h.nsa,
                h.generated_on.strftime("%d/%m/%Y"),
                len(preview.items),
                format_brl(sum((i.amount for i in preview.items), start=Decimal("0.00"))),
                "; ".join(f"{CATEGORIES[k]}: {v}" for k, v in counts.items() if v),
            )
        )
        if preview.already is not None:
            say(
                self.message,
                fill(
                    self.tr("Este arquivo já foi importado em %1 por %2: importar de novo não muda nada."),
                    preview.already.imported_at.strftime("%d/%m/%Y"),
                    preview.already.imported_by,
                ),
            )
        self.import_button.setEnabled(preview.already is None)
        return True

    def ask_overpayment(self, text: str) -> bool:
        """Asked before records paid above what is due become credits; a test replaces it."""
        answer = QMessageBox.question(
            self,
            self.tr("Pago a maior"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def import_(self):
        if self.preview is None or self.path is None:
            return None
        over = [i for i in self.preview.items if i.credit > 0]
        accept = False
        if over:
            text = fill(
                self.tr(
                    "%1 registro(s) pago(s) a maior ou em duplicidade: %2 ficam como crédito dos contribuintes "
                    "(a devolver ou a usar na próxima cobrança). Importar assim mesmo?"
                ),
                len(over),
                format_brl(sum((i.credit for i in over), start=Decimal("0.00"))),
            )
            if not self.ask_overpayment(text):
                return None
            accept = True
        with user_errors(lambda text: say(self.error, text, error=True)) as refused:
            path, today, buttons = self.path, self.today, (self.choose_button, self.import_button)
            self.outcome = in_background(  # issue 27 §5: one transaction on a worker, the buttons held meanwhile
                lambda: import_return(path, accept_overpayment=accept, today=today), busy=buttons
            )
        if refused or self.outcome is None:
            return None
        self.import_button.setEnabled(False)
        say(
            self.message,
            fill(
                self.tr("Importado: %1 pagamento(s) registrado(s), %2 crédito(s)."),
                self.outcome.payments,
                self.outcome.credits,
            ),
        )
        return self.outcome
