"""Cadastros → Unidades fiscais: the value of each unit per year; the clerk's values prevail over the acts'."""

from __future__ import annotations

import datetime as _dt
import getpass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.errors import UserError
from models.fiscal import UnitValueRow, set_unit_value, unit_value_rows
from models.money import format_brl
from models.regimes import load_regimes


def current_user_name() -> str:
    """Who is at the desk (the system login until Praça has its own users)."""
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in this environment
        return "usuário"


class UnitValuesModel(QAbstractTableModel):
    HEADERS = ("Unidade", "Ano", "Valor", "Origem")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[UnitValueRow] = []

    def set_rows(self, rows: list[UnitValueRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.tr(self.HEADERS[section])
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return row.unit
            if column == 1:
                return str(row.year)
            if column == 2:
                return format_brl(row.value)
            if row.origin == "cadastro":
                extra = f" (ato: {format_brl(row.file_value)})" if row.file_value is not None else ""
                return self.tr("cadastrado por %1").replace("%1", row.source) + extra
            return row.source
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class FiscalUnitsPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("&Regime:")))
        self.regime_combo = QComboBox()
        self.regime_combo.setObjectName("regime")
        top.itemAt(0).widget().setBuddy(self.regime_combo)
        top.addWidget(self.regime_combo, 1)
        layout.addLayout(top)

        self.model = UnitValuesModel(self)
        self.table = QTableView()
        self.table.setObjectName("unit-values")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        layout.addWidget(self.table, 1)
        self.empty = QLabel(self.tr("O ato não fixa valores para as unidades deste regime: cadastre-os abaixo "
                                    "antes de calcular preços ou multas."))
        self.empty.setObjectName("empty")
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)

        form = QFormLayout()
        self.unit_combo = QComboBox()
        self.unit_combo.setObjectName("unit")
        self.year = QSpinBox()
        self.year.setObjectName("year")
        self.year.setRange(1990, 2100)
        self.year.setValue(_dt.date.today().year)
        self.value = QLineEdit()
        self.value.setObjectName("value")
        self.value.setPlaceholderText(self.tr("ex.: 38,42"))
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("fonte: comunicado, decreto, portaria…"))
        self.save_button = QPushButton(self.tr("&Cadastrar valor"))
        self.save_button.setObjectName("save")
        self.save_button.clicked.connect(self.save)
        self.value.returnPressed.connect(self.save)
        form.addRow(self.tr("&Unidade:"), self.unit_combo)
        form.addRow(self.tr("A&no:"), self.year)
        form.addRow(self.tr("&Valor (R$):"), self.value)
        form.addRow(self.tr("&Fonte:"), self.reason)
        form.addRow("", self.save_button)
        layout.addLayout(form)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)

        self.regime_combo.currentIndexChanged.connect(lambda _i: self.show_regime())
        self.regimes = {}

    def refresh(self) -> None:
        current = self.regime_combo.currentData()
        try:
            self.regimes = load_regimes()
        except UserError as exc:
            self.message.setText(exc.message)
            self.regimes = {}
        self.regime_combo.blockSignals(True)
        self.regime_combo.clear()
        for regime in sorted(self.regimes.values(), key=lambda r: r.municipality):
            if regime.units:
                self.regime_combo.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        self.regime_combo.blockSignals(False)
        index = self.regime_combo.findData(current)
        self.regime_combo.setCurrentIndex(index if index >= 0 else 0)
        self.show_regime()

    def regime(self):
        return self.regimes.get(self.regime_combo.currentData() or "")

    def show_regime(self) -> None:
        regime = self.regime()
        self.unit_combo.clear()
        if regime is None:
            self.model.set_rows([])
            self.empty.hide()
            return
        for unit in regime.units:
            self.unit_combo.addItem(f"{unit.code} — {unit.name}", unit.code)
        self._show_rows(regime)

    def _show_rows(self, regime) -> None:
        self.model.set_rows(unit_value_rows(regime))
        self.table.resizeColumnsToContents()
        self.empty.setVisible(not self.model.rows)

    def save(self) -> None:
        regime = self.regime()
        if regime is None:
            return
        try:
            set_unit_value(regime, self.unit_combo.currentData(), self.year.value(), self.value.text(),
                           entered_by=current_user_name(), reason=self.reason.text())
        except UserError as exc:
            self.message.setText(exc.message)
            {"value": self.value, "year": self.year, "unit": self.unit_combo}.get(exc.field, self.value).setFocus()
            return
        self.message.setText(self.tr("Valor de %1 para %2 cadastrado.")
                             .replace("%1", self.unit_combo.currentData()).replace("%2", str(self.year.value())))
        self.value.clear()
        self.reason.clear()
        self._show_rows(regime)
