"""The debt tab: unpaid fines bound for the dívida ativa."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.money import format_brl
from models.registry.municipality import own_scope
from models.rules.regimes import act_money
from views.blocks import fill
from views.enforcement.common import day_label
from views.operations import in_background
from views.table_models import Column, RowsModel, make_table


class DebtTab(QWidget):
    """Fines not paid by their deadline: for inscription in the dívida ativa."""

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Multas não pagas no prazo, sem defesa ou recurso com efeito suspensivo pendente: "
                "a encaminhar para inscrição em dívida ativa."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.model = RowsModel(
            [
                Column(self.tr("Auto"), lambda r: r.reference),
                Column(self.tr("Cobrança"), lambda r: r.charge_number),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Documento"), lambda r: r.document),
                Column(self.tr("Em aberto"), lambda r: act_money(r.amount, r.regime), right=True),
                Column(self.tr("Prazo"), lambda r: day_label(r.due_on)),
                Column(self.tr("Dias de atraso"), lambda r: str(r.days_late), right=True),
                Column(self.tr("Base legal"), lambda r: r.basis),
            ],
            self,
        )
        self.table = make_table("debts", self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.total = QLabel()
        self.total.setObjectName("debt-total")
        layout.addWidget(self.total)

    def refresh(self) -> None:
        try:
            day = self._today or _dt.date.today()
            rows = in_background(lambda: enf.debt_register(day, regimes=own_scope()))
        except Exception:  # no database open yet
            rows = []
        self.model.set_rows(rows)
        total = sum((r.amount for r in rows), start=enf.ZERO)
        self.total.setText(
            fill(
                self.tr("%1 multa(s), %2 em aberto."),
                str(len(rows)),
                act_money(total, rows[0].regime) if rows else format_brl(total),
            )
        )
