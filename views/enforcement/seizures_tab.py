"""The seizures tab: seized goods, their release and what is due for it."""

from __future__ import annotations

import datetime as _dt
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.registry.municipality import own_scope
from models.rules.regimes import act_money
from views.blocks import fill, say, user_errors
from views.enforcement.common import OverdueRowsModel, day_label
from views.enforcement.contest_dialogs import DonateDialog
from views.operations import in_background
from views.table_models import Column, make_table, selected_row
from views.widgets import current_user_name


class SeizuresTab(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Bens apreendidos ainda no depósito e o que é devido hoje para devolvê-los "
                "(multas e diárias de depósito); vencido o prazo de retirada, a doação."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.model = OverdueRowsModel(
            [
                Column(self.tr("Auto"), lambda r: r.reference),
                Column(self.tr("Apreensão"), lambda r: day_label(r.seized_at)),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Bens"), lambda r: r.items, tooltip=lambda r: r.items),
                Column(self.tr("Retirada até"), lambda r: r.reclaim_due, tooltip=lambda r: r.reclaim_basis),
                Column(self.tr("Dias"), lambda r: str(r.days), right=True),
                Column(
                    self.tr("Depósito"),
                    lambda r: act_money(r.depot_due, r.regime) if r.depot_due is not None else "—",
                    right=True,
                    tooltip=lambda r: r.depot_formula,
                ),
                Column(self.tr("Multas"), lambda r: act_money(r.fines_open, r.regime), right=True),
                Column(self.tr("Devido hoje"), lambda r: act_money(r.total_due, r.regime), right=True),
                Column(self.tr("Situação"), lambda r: r.state),
            ],
            self,
            flag="reclaim_passed",
        )
        self.table = make_table("seized", self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.detail = QLabel()
        self.detail.setObjectName("seized-detail")
        self.detail.setWordWrap(True)
        layout.addWidget(self.detail)
        actions = QHBoxLayout()
        self.charge_button = QPushButton(self.tr("&Cobrar diárias até hoje"))
        self.charge_button.setObjectName("charge-depot")
        self.release_button = QPushButton(self.tr("De&volver bens"))
        self.release_button.setObjectName("release")
        self.donate_button = QPushButton(self.tr("D&oar…"))
        self.donate_button.setObjectName("donate")
        self.charge_button.clicked.connect(lambda: self.charge_selected())
        self.release_button.clicked.connect(lambda: self.release_selected())
        self.donate_button.clicked.connect(lambda: self.donate_selected())
        for b in (self.charge_button, self.release_button, self.donate_button):
            actions.addWidget(b)
        actions.addStretch(1)
        layout.addLayout(actions)
        self.message = QLabel()
        self.message.setObjectName("seized-message")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        try:
            today = self.today
            rows = in_background(lambda: enf.seized_goods(today, regimes=own_scope()))
        except Exception:  # no database open yet
            rows = []
        keep = self.selected()
        self.model.set_rows(rows)
        if keep is not None:
            for i, r in enumerate(rows):
                if r.record_id == keep.record_id:
                    self.table.selectRow(i)
        self._show_selected()

    def selected(self):
        return selected_row(self.table, self.model)

    def _show_selected(self) -> None:
        row = self.selected()
        for b in self._buttons():
            b.setEnabled(row is not None)
        if row is None:
            self.detail.setText("")
            return
        self.detail.setText(
            fill(
                self.tr("%1 — depósito: %2. Diárias: %3. Retirada: %4 %5"),
                row.reference,
                row.depot,
                row.depot_formula,
                row.reclaim_due,
                row.reclaim_basis,
            )
        )

    def _buttons(self) -> tuple[QPushButton, ...]:
        return (self.charge_button, self.release_button, self.donate_button)

    def _say(self, text: str, *, error: bool = False) -> None:
        say(self.message, text, error=error)

    def say_refusal(self, text: str) -> None:
        """A refusal on the message line (the target of ``user_errors``)."""
        self._say(text, error=True)

    def charge_selected(self, amount: str | None = None):
        row = self.selected()
        if row is None:
            return None
        try:
            by, today = current_user_name(), self.today
            record_id = row.record_id
            charge = in_background(  # issue 27 §5: the charge is written on a worker, the buttons held meanwhile
                lambda: enf.charge_depot_fee(enf.get_record(record_id), on=today, by=by, amount=amount, today=today),
                busy=self._buttons(),
            )
        except FieldErrors as exc:
            if "amount" in exc.errors and amount is None:
                value, ok = QInputDialog.getText(self, self.tr("Preço do depósito"), exc.errors["amount"])
                return self.charge_selected(value) if ok else None
            self._say(exc.message, error=True)
            return None
        except UserError as exc:
            self._say(exc.message, error=True)
            return None
        self._say(
            fill(
                self.tr("Diárias de depósito lançadas: cobrança nº %1, %2."),
                charge.number,
                act_money(charge.amount, charge.regime),
            )
        )
        self.refresh()
        return charge

    def release_selected(self) -> bool:
        row = self.selected()
        if row is None:
            return False
        with user_errors(self.say_refusal) as refused:
            by, today = current_user_name(), self.today
            in_background(
                lambda: enf.release_items(enf.get_record(row.record_id), on=today, by=by, today=today),
                busy=self._buttons(),
            )
        if refused:
            return False
        self._say(fill(self.tr("Bens do %1 devolvidos."), row.reference))
        self.refresh()
        return True

    def donate_selected(self, *, dialog_hook=None) -> bool:
        row = self.selected()
        if row is None:
            return False
        dialog = DonateDialog(row, self)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        with user_errors(self.say_refusal) as refused:
            typed: dict[str, Any] = {
                "on": self.today,
                "by": current_user_name(),
                "to": dialog.to.text(),
                "reason": dialog.reason.text(),
                "consent": dialog.consent.isChecked(),
                "today": self.today,
            }
            in_background(lambda: enf.donate_items(enf.get_record(row.record_id), **typed), busy=self._buttons())
        if refused:
            return False
        self._say(fill(self.tr("Bens do %1 doados a %2."), row.reference, dialog.to.text()))
        self.refresh()
        return True
