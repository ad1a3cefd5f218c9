"""Cadastros → Unidades fiscais: the value of each unit per year; the clerk's values prevail over the acts'."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.base.money import format_brl
from models.billing.fiscal import UnitValueRow, set_unit_value, unit_value_rows, unit_value_warnings
from models.rules.regimes import shipped_regimes
from views.blocks import fill, user_errors, wrapped_label
from views.operations import in_background
from views.table_models import Column, RowsModel
from views.widgets import add_yearly_value_form, current_user_name


def _origin(row: UnitValueRow) -> str:
    tr = lambda text: QCoreApplication.translate("FiscalUnitsPage", text)  # noqa: E731
    if row.origin == "cadastro":
        extra = f" (nos atos: {format_brl(row.file_value)})" if row.file_value is not None else ""
        text = fill(tr("cadastrado por %1"), row.source) + extra
    else:
        text = row.source
    if row.fixed_by:
        text += fill(tr(" · fixado pelo próprio ato em %1"), ", ".join(row.fixed_by))
    return text


def unit_values_model(parent=None) -> RowsModel:
    tr = lambda text: QCoreApplication.translate("FiscalUnitsPage", text)  # noqa: E731
    return RowsModel(
        [
            Column(tr("Unidade"), lambda r: r.unit),
            Column(tr("Ano"), lambda r: str(r.year), right=True),
            Column(tr("Valor"), lambda r: format_brl(r.value), right=True),
            Column(tr("Origem"), _origin),
        ],
        parent,
    )


class FiscalUnitsPage(QWidget):
    """One fiscal unit at a time (UFESP is the same for every act that uses it)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        label = QLabel(self.tr("&Unidade:"))
        self.unit_combo = QComboBox()
        self.unit_combo.setObjectName("unit")
        label.setBuddy(self.unit_combo)
        top.addWidget(label)
        top.addWidget(self.unit_combo, 1)
        layout.addLayout(top)
        self.used_by = wrapped_label(name="used-by")
        layout.addWidget(self.used_by)

        self.model = unit_values_model(self)
        self.table = QTableView()
        self.table.setObjectName("unit-values")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        layout.addWidget(self.table, 1)
        self.empty = wrapped_label(
            self.tr(
                "Os atos não fixam valores para esta unidade: cadastre-os abaixo antes de calcular preços ou multas."
            ),
            "empty",
        )
        layout.addWidget(self.empty)

        fields = add_yearly_value_form(
            self,
            layout,
            save=self.save,
            year_label=self.tr("A&no:"),
            value_name="value",
            value_label=self.tr("&Valor (R$):"),
            value_hint=self.tr("ex.: 38,42"),
            source_hint=self.tr("obrigatória: comunicado, decreto, portaria…"),
            save_label=self.tr("&Cadastrar valor"),
        )
        self.year, self.value, self.reason = fields.year, fields.value, fields.reason
        self.save_button, self.message = fields.save_button, fields.message
        self.unit_combo.currentIndexChanged.connect(self.show_unit)
        self.regimes_by_unit: dict[str, list] = {}

    def refresh(self) -> None:
        current = self.unit_combo.currentData()
        with user_errors(self.message) as refused:
            regimes = shipped_regimes()
        if refused:
            return
        self.regimes_by_unit = {}
        names: dict[str, str] = {}
        for regime in sorted(regimes.values(), key=lambda r: r.municipality):
            for unit in regime.units:
                self.regimes_by_unit.setdefault(unit.code, []).append(regime)
                names.setdefault(unit.code, unit.name)
        self.unit_combo.blockSignals(True)
        self.unit_combo.clear()
        for code in sorted(names):
            self.unit_combo.addItem(f"{code} — {names[code]}", code)
        self.unit_combo.blockSignals(False)
        index = self.unit_combo.findData(current)
        self.unit_combo.setCurrentIndex(index if index >= 0 else 0)
        self.show_unit()

    def select_unit(self, code: str) -> None:
        index = self.unit_combo.findData(code)
        if index < 0:
            raise KeyError(code)
        self.unit_combo.setCurrentIndex(index)

    @Slot()
    def show_unit(self) -> None:
        code = self.unit_combo.currentData()
        if not code:
            self.model.set_rows([])
            self.empty.hide()
            return
        using = self.regimes_by_unit.get(code, [])
        self.used_by.setText(
            fill(self.tr("Usada por: %1"), "; ".join(f"{r.municipality}/{r.state} ({r.short})" for r in using))
        )
        self.model.set_rows(in_background(lambda: unit_value_rows(code)))
        self.table.resizeColumnsToContents()
        self.empty.setVisible(not self.model.rows)

    def save(self) -> None:
        code = self.unit_combo.currentData()
        using = self.regimes_by_unit.get(code, [])
        if not code or not using:
            return
        year, value, reason, by = self.year.value(), self.value.text(), self.reason.text(), current_user_name()
        warnings = in_background(lambda: unit_value_warnings(code, year, value))  # issue 27 §5
        if warnings:
            answer = QMessageBox.question(
                self,
                self.tr("Confirmar valor"),
                "\n".join(warnings) + "\n\n" + self.tr("Cadastrar mesmo assim?"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                self.message.setText(self.tr("Nada foi cadastrado."))
                return
        with user_errors(self.message) as refused:
            in_background(
                lambda: set_unit_value(using[0], code, year, value, entered_by=by, reason=reason),
                busy=(self.save_button,),
            )
        if refused:
            fields: dict[str, QWidget] = {"value": self.value, "year": self.year, "reason": self.reason}
            fields.get(refused.refused_field or "value", self.value).setFocus()
            return
        self.message.setText(fill(self.tr("Valor de %1 para %2 cadastrado."), code, self.year.value()))
        self.value.clear()
        self.reason.clear()
        self.show_unit()
