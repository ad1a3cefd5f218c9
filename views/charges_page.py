"""Cobranças do mês and Inadimplência: generate the month, record payments, cancel, return deposits.

Every act goes through :mod:`models.billing.charges`, which checks and records it; the
screen shows the plan before the month is generated, the formula and the
article of each charge, and the domain's one-line refusal at the field or in
the message line.
"""

from __future__ import annotations

import datetime as _dt
from html import escape
from typing import Any

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import Cancelled, UserError
from models.base.money import format_brl
from models.billing.charges import (
    MonthPlan,
    Payment,
    cancel_charge,
    charge_rows,
    generate_month,
    get_charge,
    month_label,
    month_summary,
    payments_of,
    plan_month,
    return_deposit,
    revocation_candidates,
)
from models.registry.municipality import own_scope
from views.blocks import FieldErrorsView, ListTab, button_row, fill, push_button, user_errors, wrapped_label
from views.fit import fit_to_screen
from views.keys import search_keys
from views.operations import in_background, run_operation
from views.roles import allow
from views.table_models import Column, RowsModel, select_where
from views.widgets import DateEdit, GuardedDialog, act_version_line, current_user_name

STATUS_FILTERS = (
    ("", "Todas"),
    ("open", "Em aberto"),
    ("overdue", "Vencidas"),
    ("paid", "Pagas"),
    ("cancelled", "Canceladas"),
)


def _d(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


# --------------------------------------------------------------------------- dialogs


class GenerateDialog(QDialog):
    """What the month will create — each charge with its value, due date and article — before anything is written."""

    def __init__(self, plan: MonthPlan, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(fill(self.tr("Gerar cobranças — %1"), plan.label))
        fit_to_screen(self, QSize(980, 560))
        layout = QVBoxLayout(self)
        if plan.to_create:
            head = fill(self.tr("%1 cobrança(s) a gerar, total %2."), len(plan.to_create), format_brl(plan.total))
        else:
            head = fill(self.tr("Nenhuma cobrança nova para %1."), plan.label)
        if plan.existing:
            head += " " + fill(self.tr("%1 já gerada(s) antes (não serão repetidas)."), plan.existing)
        self.summary = wrapped_label(head, name="plan-summary")
        layout.addWidget(self.summary)
        self.model = RowsModel(
            [
                (self.tr("Permissão"), lambda c: c.permit_number),
                (self.tr("Titular"), lambda c: c.holder),
                (self.tr("Cobrança"), lambda c: c.label),
                Column(self.tr("Valor"), lambda c: format_brl(c.amount), right=True, tooltip=lambda c: c.formula),
                (self.tr("Vencimento"), lambda c: _d(c.due_on)),
                (self.tr("Base legal"), lambda c: c.basis),
            ],
            self,
        )
        self.model.set_rows(plan.to_create)
        self.table = QTableView()
        self.table.setObjectName("plan")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        # the charges to be created are the list; the ones not generated, with their reasons, a tab beside it
        self.tabs = QTabWidget()
        self.tabs.setObjectName("plan-tabs")
        self.tabs.addTab(self.table, fill(self.tr("A gerar (%1)"), len(plan.to_create)))
        self.skipped = QListWidget()
        self.skipped.setObjectName("plan-skipped")
        self.skipped.setWordWrap(True)
        self.skipped.addItems(list(plan.skipped))
        if plan.skipped:
            self.tabs.addTab(self.skipped, fill(self.tr("Não geradas (%1)"), len(plan.skipped)))
            self.tabs.setTabToolTip(
                1,
                self.tr(
                    "Taxas que o mês não cobra, cada uma com o motivo (valor a definir "
                    "pela Administração, dado que falta)"
                ),
            )
        layout.addWidget(self.tabs, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.generate_button = buttons.addButton(
            fill(self.tr("&Gerar %1 cobrança(s)"), len(plan.to_create)),
            QDialogButtonBox.ButtonRole.AcceptRole,
        )
        self.generate_button.setEnabled(bool(plan.to_create))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class PaymentDialog(GuardedDialog):
    """Record one payment (partial or whole) of a charge: date, amount, slip number."""

    def __init__(self, charge, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self.charge = charge
        self.today = today or _dt.date.today()
        self.payment: Payment | None = None
        self.setWindowTitle(fill(self.tr("Registrar pagamento — cobrança nº %1"), charge.number))
        layout = QVBoxLayout(self)
        about = QLabel(
            fill(
                self.tr("%1 — %2<br>Valor %3; pago até agora %4; em aberto %5."),
                escape(charge.debtor_name),
                escape(charge.label),
                format_brl(charge.amount),
                format_brl(charge.paid_total),
                format_brl(charge.open_amount),
            )
        )
        about.setTextFormat(Qt.TextFormat.RichText)
        about.setWordWrap(True)
        layout.addWidget(about)
        form = QFormLayout()
        self.paid_on = DateEdit()
        self.paid_on.setObjectName("paid_on")
        self.paid_on.set_date(self.today)
        self.amount = QLineEdit(
            format_brl(charge.open_amount).replace("R$", "").strip() if charge.open_amount > 0 else ""
        )
        self.amount.setObjectName("amount")
        self.reference = QLineEdit()
        self.reference.setObjectName("reference")
        self.reference.setPlaceholderText(self.tr("nº do boleto ou do recibo"))
        self.note = QLineEdit()
        self.note.setObjectName("note")
        form.addRow(self.tr("&Data do pagamento:"), self.paid_on)
        form.addRow(self.tr("&Valor pago (R$):"), self.amount)
        form.addRow(self.tr("&Boleto/recibo nº:"), self.reference)
        form.addRow(self.tr("&Observação:"), self.note)
        layout.addLayout(form)
        self.add_save_bar(layout)
        self.errors = FieldErrorsView(
            self.error, {"paid_on": self.paid_on, "amount": self.amount, "reference": self.reference}
        )
        self.watch_edits()
        self.reference.setFocus()

    def ask_overpayment(self, text: str) -> bool:
        """Asked before a payment above what is due is saved (issue 30 §5); a test replaces it."""
        answer = QMessageBox.question(
            self,
            self.tr("Pagamento a maior"),
            fill(self.tr("%1\n\nRegistrar assim mesmo?"), text),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def save(self) -> None:
        from models.billing.collection.desk import Overpayment, record_desk_payment

        charge, today = self.charge, self.today
        with user_errors(self.errors, field="reference") as unreadable:  # a date half typed
            typed: dict[str, Any] = {
                "paid_on": self.paid_on.date(),
                "amount": self.amount.text(),
                "reference": self.reference.text(),
                "note": self.note.text(),
            }
        if unreadable:
            return

        def record(accept: bool):  # off the GUI thread (issue 27 §5)
            return in_background(
                lambda: record_desk_payment(charge, **typed, accept_overpayment=accept, today=today),
                busy=self.findChildren(QDialogButtonBox),
            )

        with user_errors(self.errors, field="reference") as refused:
            try:
                self.payment = record(False)
            except Overpayment as over:  # not a refusal: a question before anything is saved
                if not self.ask_overpayment(over.message):
                    return
                self.payment = record(True)
        if refused:
            return
        self.dirty = False
        self.accept()


# --------------------------------------------------------------------------- the month's charges


class ChargesTab(ListTab):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent, today=today)
        layout = self.body
        bar = QHBoxLayout()
        self.month = QComboBox()
        self.month.setObjectName("month")
        self.status = QComboBox()
        self.status.setObjectName("status")
        for key, label in STATUS_FILTERS:
            self.status.addItem(self.tr(label), key)
        self.search_box(self.tr("Buscar por nº da cobrança, da permissão ou nome do devedor"))
        month_label = QLabel(self.tr("Mê&s:"))
        month_label.setBuddy(self.month)
        bar.addWidget(month_label)
        bar.addWidget(self.month)
        bar.addWidget(QLabel(self.tr("Situação:")))
        bar.addWidget(self.status)
        bar.addWidget(self.search, 1)
        layout.addLayout(bar)
        self.totals = QLabel()
        self.totals.setObjectName("totals")
        self.totals.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.totals)
        model = RowsModel(
            [
                (self.tr("Nº"), lambda r: r.number),
                (self.tr("Vencimento"), lambda r: _d(r.due_on)),
                (self.tr("Devedor"), lambda r: r.holder),
                (self.tr("Permissão"), lambda r: r.permit_number),
                (self.tr("Tipo"), lambda r: r.kind_label),
                (self.tr("Descrição"), lambda r: r.label),
                Column(
                    self.tr("Valor"),
                    lambda r: format_brl(r.amount, currency=r.currency),
                    right=True,
                    tooltip=lambda r: r.formula,
                ),
                Column(self.tr("Pago"), lambda r: format_brl(r.paid, currency=r.currency), right=True),
                (self.tr("Situação"), lambda r: r.situation),
            ],
            self,
        )
        self.list_table(model, "charges")
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.detail = wrapped_label(name="detail")
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        # the selected charge's detail, and beside it what the desk offers on it: the payer's credit (issue 30 §5)
        self.credit_button = push_button(self.tr("Usar cr&édito…"), "use-credit", lambda: self.use_credit_selected())
        below = QWidget()
        beside = QHBoxLayout(below)
        beside.setContentsMargins(0, 0, 0, 0)
        self.refund_button = push_button(
            self.tr("De&volver crédito…"), "refund-credit", lambda: self.refund_credit_selected()
        )
        offers = QVBoxLayout()
        offers.addWidget(self.credit_button)
        offers.addWidget(self.refund_button)
        offers.addStretch(1)
        beside.addWidget(self.detail, 1)
        beside.addLayout(offers)
        split.addWidget(below)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 100])  # the detail (formula, basis, payments, the payer's credit) readable from the start
        layout.addWidget(split, 1)
        self.generate_button = push_button(self.tr("&Gerar cobranças do mês…"), "generate")
        self.pay_button = push_button(self.tr("Registrar &pagamento…"), "pay")
        self.cancel_button = push_button(self.tr("&Cancelar cobrança…"), "cancel")
        self.return_button = push_button(self.tr("&Devolver caução…"), "return-deposit")
        self.guia_button = push_button(self.tr("G&uia (DAM)…"), "guia", lambda: self.guia_selected())
        self.reverse_button = push_button(self.tr("Estorna&r pagamento…"), "reverse", lambda: self.reverse_selected())
        self.bank_return_button = push_button(
            self.tr("Importar re&torno…"), "bank-return", lambda: self.import_return()
        )
        layout.addLayout(
            button_row(
                self.generate_button,
                self.pay_button,
                self.cancel_button,
                self.return_button,
                self.guia_button,
                self.reverse_button,
                self.bank_return_button,
            )
        )
        self.add_message()
        self.month.currentIndexChanged.connect(self.refresh_rows)
        self.status.currentIndexChanged.connect(self.refresh_rows)
        self.table.selectionModel().selectionChanged.connect(self._show_selected)
        self.table.doubleClicked.connect(self.pay_selected)
        search_keys(self.search, self.table, self.pay_selected)
        self.generate_button.clicked.connect(self.generate)
        self.pay_button.clicked.connect(self.pay_selected)
        self.cancel_button.clicked.connect(lambda: self.cancel_selected())
        self.return_button.clicked.connect(lambda: self.return_selected())
        self._fill_months()

    def _fill_months(self) -> None:
        self.month.blockSignals(True)
        self.month.clear()
        year, month = self.today.year, self.today.month + 1
        if month == 13:
            year, month = year + 1, 1
        for _ in range(37):  # next month, this month and three years back
            self.month.addItem(month_label(year, month).capitalize(), (year, month))
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        self.month.setCurrentIndex(1)
        self.month.blockSignals(False)

    def set_month(self, year: int, month: int) -> None:
        index = self.month.findData((year, month))
        if index < 0:
            self.month.addItem(month_label(year, month).capitalize(), (year, month))
            index = self.month.count() - 1
        self.month.setCurrentIndex(index)

    def refresh(self) -> None:
        self.refresh_rows()

    @Slot()
    def refresh_rows(self) -> None:
        year, month = self.month.currentData()
        keep = self.selected()
        status, text, today = self.status.currentData() or None, self.search.text(), self.today
        rows, s = in_background(lambda: _month_rows(year, month, status, text, today))
        self.model.set_rows(rows)
        self.totals.setText(
            fill(
                self.tr(
                    "<b>%1</b>: %2 cobrança(s) — lançado <b>%3</b>, pago <b>%4</b>, em aberto <b>%5</b>, "
                    "vencido <b>%6</b> (%7); recebido no mês %8."
                ),
                s.label.capitalize(),
                s.count,
                format_brl(s.charged, currency=s.currency),
                format_brl(s.paid, currency=s.currency),
                format_brl(s.open, currency=s.currency),
                format_brl(s.overdue, currency=s.currency),
                s.overdue_count,
                format_brl(s.received, currency=s.currency),
            )
            + (
                fill(
                    self.tr(
                        " <b>Atenção</b>: o mês tem cobranças de atos em moedas diferentes (%1) — os totais acima "
                        "misturam essas moedas; confira cobrança a cobrança."
                    ),
                    ", ".join(s.currencies),
                )
                if len(s.currencies) > 1
                else ""
            )
        )
        if keep is not None:
            self.select_number(keep.number, quiet=True)
        self._show_selected()

    def select_number(self, number: str, *, quiet: bool = False) -> bool:
        return select_where(self.table, self.model, lambda item: item.number == number, key=number, quiet=quiet)

    @Slot()
    def _show_selected(self) -> None:
        row = self.selected()
        allow(self.pay_button, "charges.pay", row is not None and row.status != "cancelled")
        allow(self.cancel_button, "charges.cancel", row is not None and row.status == "open" and row.paid == 0)
        allow(self.return_button, "charges.cancel", row is not None and row.kind == "deposit" and row.status == "paid")
        allow(self.generate_button, "charges.generate")
        allow(self.guia_button, "charges.create", row is not None and row.status == "open")
        allow(self.bank_return_button, "charges.pay")
        allow(self.reverse_button, "charges.cancel", row is not None and row.paid > 0 and row.status != "cancelled")
        if row is None:
            allow(self.credit_button, "charges.pay", False)
            allow(self.refund_button, "charges.cancel", False)
            self.detail.setText(self.tr("Selecione uma cobrança para ver a fórmula, a base legal e os pagamentos."))
            return
        charge, payments = in_background(lambda: _charge_and_payments(row.id))
        from views.collection_page import credit_notes

        used, credits = credit_notes(self, charge)
        allow(self.credit_button, "charges.pay", bool(credits) and charge.status == "open" and charge.open_amount > 0)
        allow(self.refund_button, "charges.cancel", bool(credits))
        lines = [
            f"<b>{escape(charge.number)}</b> — {escape(charge.label)} ({escape(charge.kind_label)})",
            fill(
                self.tr("Fórmula: %1 = <b>%2</b>"),
                escape(charge.formula),
                format_brl(charge.amount, currency=row.currency),
            ),
            fill(self.tr("Base legal: %1"), escape(charge.basis)),
            fill(
                self.tr("Vencimento %1 · lançada em %2 por %3"),
                _d(charge.due_on),
                _d(charge.created_on),
                escape(charge.created_by),
            ),
        ]
        version = act_version_line(self, charge.regime, charge.act_sha256)
        if version:  # the act's text it was computed from, even after the act was amended
            lines.append(fill(self.tr("Calculada com o %1"), version))
        from views.collection_page import payment_notes

        notes = payment_notes(self, charge)
        for p in payments:
            lines.append(
                fill(
                    self.tr("Pagamento nº %5 de %1 em %2, boleto %3 (registrado por %4)"),
                    format_brl(p.amount, currency=row.currency),
                    _d(p.paid_on),
                    escape(p.reference),
                    escape(p.recorded_by),
                    p.id,
                )
                + notes.get(p.id, "")
                + used.get(p.id, "")
            )
        if row.overpaid:
            lines.append(
                fill(
                    self.tr("<b>Paga a maior</b>: %1 acima do valor — verifique pagamento em duplicidade."),
                    format_brl(row.paid - row.amount, currency=row.currency),
                )
            )
        lines.extend(credits)
        if charge.status == "cancelled":
            lines.append(
                fill(
                    self.tr("Cancelada em %1 por %2: %3"),
                    charge.cancelled_at.strftime("%d/%m/%Y") if charge.cancelled_at else "",
                    escape(charge.cancelled_by),
                    escape(charge.cancel_reason),
                )
            )
        if charge.returned_on:
            lines.append(
                fill(
                    self.tr("Caução devolvida em %1 por %2. %3"),
                    _d(charge.returned_on),
                    escape(charge.returned_by),
                    escape(charge.returned_note),
                )
            )
        self.detail.setText("<br>".join(lines))

    # -- acts ----------------------------------------------------------------

    @Slot()
    def generate(self, *, confirm: bool | None = None) -> list:
        """Show the month's plan; on confirmation create it under a progress bar that can cancel everything."""
        year, month = self.month.currentData()
        with user_errors(self.message) as refused:
            today = self.today
            plan = in_background(lambda: plan_month(year, month, today=today))
        if refused:
            return []
        if confirm is None:
            dialog = GenerateDialog(plan, self)
            self.last_dialog: QDialog = dialog
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return []
        elif not confirm:
            return []
        if not plan.to_create:
            self.message.setText(fill(self.tr("Nada a gerar para %1."), plan.label))
            return []
        by = current_user_name()
        try:  # off the GUI thread, under a progress bar whose Cancelar rolls the whole month back
            created = run_operation(
                self,
                fill(self.tr("Gerando as cobranças de %1…"), plan.label),
                lambda progress: generate_month(year, month, by=by, today=self.today, progress=progress),
            )
        except Cancelled:
            self.message.setText(self.tr("Geração cancelada: nenhuma cobrança foi gravada."))
            return []
        except UserError as exc:
            self.message.setText(exc.message)
            return []
        self.message.setText(fill(self.tr("%1 cobrança(s) gerada(s) para %2."), len(created), plan.label))
        self.refresh_rows()
        return created

    @Slot()
    def pay_selected(self, *, dialog_hook=None):
        row = self.selected()
        if row is None or row.status == "cancelled":
            return None
        dialog = PaymentDialog(get_charge(row.id), self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.payment is None:
            return None
        charge = get_charge(row.id)
        self.message.setText(
            fill(
                self.tr("Pagamento de %1 registrado na cobrança nº %2 (%3)."),
                format_brl(dialog.payment.amount),
                row.number,
                charge.status_label,
            )
        )
        self.refresh_rows()
        return dialog.payment

    def import_return(self, *, dialog_hook=None):
        """Cobrança → Importar retorno: the bank's return file (issue 30 §4)."""
        from views.return_import import ReturnImportDialog

        dialog = ReturnImportDialog(self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        else:
            dialog.exec()
        if dialog.outcome is not None:
            self.message.setText(dialog.message.text())
            self.refresh_rows()
        return dialog.outcome

    def reverse_selected(self, payment_id: int | None = None, reason: str | None = None):
        """Estornar: reverse a payment of the selected charge (issue 30 §5) — a new act; the charge reopens."""
        from views.collection_page import reverse_on_desk

        row = self.selected()
        if row is None or row.paid <= 0:
            return None
        reversal = reverse_on_desk(self, get_charge(row.id), payment_id, reason, message=self.message)
        if reversal is not None:
            self.refresh_rows()
        return reversal

    def use_credit_selected(self, credit_id: int | None = None, amount: str | None = None, confirm=None):
        """Usar crédito: the payer's open credit on the selected charge (issue 30 §5) — a new act per credit used."""
        from views.collection_page import use_credit_on_desk

        row = self.selected()
        if row is None or row.status != "open":
            return None
        uses = use_credit_on_desk(
            self,
            get_charge(row.id),
            today=self.today,
            message=self.message,
            credit_id=credit_id,
            amount=amount,
            confirm=confirm,
        )
        if uses is not None:
            self.refresh_rows()
        return uses

    def refund_credit_selected(self, credit_id: int | None = None, *, dialog_hook=None):
        """Devolver crédito: refund the payer's open credit, in whole or in part (issue 30 §5) — an act with its
        reason (:class:`views.collection_page.RefundCreditDialog`)."""
        from views.collection_page import refund_credit_on_desk

        row = self.selected()
        if row is None:
            return None
        use = refund_credit_on_desk(
            self,
            get_charge(row.id),
            today=self.today,
            message=self.message,
            credit_id=credit_id,
            dialog_hook=dialog_hook,
        )
        if use is not None:
            self.refresh_rows()
        return use

    def guia_selected(self, path: str | None = None):
        """Issue the guia (DAM) of the selected charge and save it as a PDF (issue 30 §2)."""
        from views.collection_page import save_guia

        row = self.selected()
        if row is None or row.status != "open":
            return None
        guia = save_guia(self, [get_charge(row.id)], path, today=self.today, message=self.message)
        if guia is not None:
            self.refresh_rows()
        return guia

    def cancel_selected(self, reason: str | None = None) -> bool:
        row = self.selected()
        if row is None:
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(
                self,
                self.tr("Cancelar cobrança"),
                fill(self.tr("Motivo do cancelamento da cobrança nº %1 (fica registrado):"), row.number),
            )
            if not ok:
                return False
        answer = QMessageBox.question(
            self,
            self.tr("Cancelar cobrança"),
            fill(
                self.tr(
                    "Cancelar a cobrança nº %1 de %2 (%3)? O cancelamento não se desfaz; "
                    "uma cobrança nova pode ser lançada."
                ),
                row.number,
                row.holder,
                format_brl(row.amount),
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        with user_errors(self.message) as refused:
            by = current_user_name()
            in_background(lambda: cancel_charge(get_charge(row.id), reason=reason, by=by))
        if refused:
            return False
        self.message.setText(fill(self.tr("Cobrança nº %1 cancelada."), row.number))
        self.refresh_rows()
        return True

    def return_selected(self, note: str | None = None) -> bool:
        row = self.selected()
        if row is None:
            return False
        if note is None:
            note, ok = QInputDialog.getText(
                self,
                self.tr("Devolver caução"),
                fill(self.tr("Laudo/observação da devolução da caução nº %1:"), row.number),
            )
            if not ok:
                return False
        with user_errors(self.message) as refused:
            by, today = current_user_name(), self.today
            in_background(lambda: return_deposit(get_charge(row.id), on=today, by=by, note=note, today=today))
        if refused:
            return False
        self.message.setText(fill(self.tr("Caução nº %1 devolvida."), row.number))
        self.refresh_rows()
        return True


# --------------------------------------------------------------------------- delinquency


class DelinquencyTab(QWidget):
    """Permits with the act's number of months unpaid — for the chief to decide — and every overdue charge."""

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        intro = wrapped_label(
            self.tr(
                "Candidatas à cassação por inadimplência: o Praça não cassa sozinho — a decisão é "
                "da chefia, na tela Permissões."
            )
        )
        layout.addWidget(intro)
        self.candidates = RowsModel(
            [
                (self.tr("Permissão"), lambda c: c.permit_number),
                (self.tr("Titular"), lambda c: c.holder),
                Column(self.tr("Em aberto"), lambda c: format_brl(c.amount), right=True),
                (self.tr("Situação e base legal"), lambda c: c.text),
            ],
            self,
        )
        self.candidates_view = QTableView()
        self.candidates_view.setObjectName("candidates")
        self.candidates_view.setModel(self.candidates)
        self.candidates_view.verticalHeader().hide()
        self.candidates_view.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.candidates_view, 1)
        layout.addWidget(QLabel(self.tr("Cobranças vencidas e não pagas:")))
        self.overdue = RowsModel(
            [
                (self.tr("Nº"), lambda r: r.number),
                (self.tr("Vencimento"), lambda r: _d(r.due_on)),
                (self.tr("Devedor"), lambda r: r.holder),
                (self.tr("Permissão"), lambda r: r.permit_number),
                (self.tr("Descrição"), lambda r: r.label),
                Column(self.tr("Em aberto"), lambda r: format_brl(r.open_amount), right=True),
            ],
            self,
        )
        self.overdue_view = QTableView()
        self.overdue_view.setObjectName("overdue")
        self.overdue_view.setModel(self.overdue)
        self.overdue_view.verticalHeader().hide()
        self.overdue_view.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.overdue_view.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.overdue_view.setWordWrap(False)
        layout.addWidget(self.overdue_view, 2)

    def refresh(self) -> None:
        today = self._today or _dt.date.today()
        candidates, overdue = in_background(lambda: _arrears(today))
        self.candidates.set_rows(candidates)
        self.overdue.set_rows(overdue)


def _month_rows(year: int, month: int, status: str | None, text: str, today: _dt.date):
    """The month's charges and figures of this municipality's acts (never another town's), on a worker thread."""
    scope = own_scope()
    return (
        charge_rows(year=year, month=month, status=status, text=text, today=today, regimes=scope),
        month_summary(year, month, today=today, regimes=scope),
    )


def _arrears(today: _dt.date):
    """This municipality's revocation candidates and overdue charges, on a worker thread."""
    scope = own_scope()
    return (
        revocation_candidates(today=today, regimes=scope),
        charge_rows(status="overdue", today=today, regimes=scope),
    )


def _charge_and_payments(charge_id: int):
    """A charge and its payments, read on a worker thread (issue 27 §5)."""
    charge = get_charge(charge_id)
    return charge, list(payments_of(charge))
