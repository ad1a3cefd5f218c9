"""Cadastros → Correção monetária: the yearly corrections of price indexes (INPC…) that acts apply to their values."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHeaderView,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.billing.fiscal import index_corrections, set_index_correction
from models.rules.describe import percent
from models.rules.regimes import shipped_regimes
from views.blocks import fill, user_errors, wrapped_label
from views.operations import in_background
from views.table_models import Column, RowsModel
from views.widgets import add_yearly_value_form, current_user_name


class IndexesPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.explain = wrapped_label()
        layout.addWidget(self.explain)
        form_top = QFormLayout()
        self.index_combo = QComboBox()
        self.index_combo.setObjectName("index")
        form_top.addRow(self.tr("Í&ndice:"), self.index_combo)
        layout.addLayout(form_top)
        self.model = RowsModel(
            [
                Column(self.tr("Ano"), lambda r: str(r.year), right=True),
                Column(self.tr("Correção"), lambda r: percent(r.rate), right=True),
                Column(self.tr("Fonte"), lambda r: r.reason),
                Column(self.tr("Cadastrado por"), lambda r: f"{r.entered_by} em {r.entered_at:%d/%m/%Y %H:%M}"),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("corrections")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)

        fields = add_yearly_value_form(
            self,
            layout,
            save=self.save,
            year_label=self.tr("Aplicada a partir do an&o:"),
            value_name="rate",
            value_label=self.tr("&Correção (%):"),
            value_hint=self.tr("ex.: 4,77 (por cento)"),
            source_hint=self.tr("ex.: INPC/IBGE acumulado de 2024; Decreto nº …"),
            save_label=self.tr("Cadas&trar correção"),
        )
        self.year, self.rate, self.reason = fields.year, fields.value, fields.reason
        self.save_button, self.message = fields.save_button, fields.message
        self.index_combo.currentIndexChanged.connect(self.show_index)

    def refresh(self) -> None:
        current = self.index_combo.currentData()
        with user_errors(self.message) as refused:
            regimes = shipped_regimes().values()
        if refused:
            return
        used: dict[str, list[str]] = {}
        for regime in regimes:
            for index in regime.indexes:
                used.setdefault(index.code, []).append(
                    f"{regime.municipality}/{regime.state} ({regime.cite_item(index)}, valores de {index.base_year})"
                )
        self.index_combo.blockSignals(True)
        self.index_combo.clear()
        for code in sorted(used):
            self.index_combo.addItem(code, code)
        self.index_combo.blockSignals(False)
        self._used = used
        position = self.index_combo.findData(current)
        self.index_combo.setCurrentIndex(position if position >= 0 else 0)
        self.show_index()

    @Slot()
    def show_index(self) -> None:
        code = self.index_combo.currentData()
        if not code:
            self.explain.setText(self.tr("Nenhum regime carregado usa índice de correção."))
            self.model.set_rows([])
            return
        self.explain.setText(
            fill(
                self.tr(
                    "Correção aplicada a cada ano sobre os valores corrigidos pelo %1. O fator acumulado é o produto "
                    "de (1 + correção) de cada ano desde o ano-base do ato. Usado por: %2."
                ),
                code,
                "; ".join(self._used.get(code, [])),
            )
        )
        self.model.set_rows(in_background(lambda: index_corrections(code)).values())
        self.table.resizeColumnsToContents()

    def save(self) -> None:
        code = self.index_combo.currentData()
        if not code:
            return
        with user_errors(self.message) as refused:
            year, rate, by, reason = self.year.value(), self.rate.text(), current_user_name(), self.reason.text()
            in_background(lambda: set_index_correction(code, year, rate, entered_by=by, reason=reason))
        if refused:
            (self.year if refused.refused_field == "year" else self.rate).setFocus()
            return
        self.message.setText(fill(self.tr("Correção de %1 para %2 cadastrada."), code, self.year.value()))
        self.rate.clear()
        self.reason.clear()
        self.show_index()
