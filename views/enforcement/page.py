"""The Fiscalização page: the records, seizures and debt tabs."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtWidgets import (
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from views.enforcement.debt_tab import DebtTab
from views.enforcement.records_tab import RecordsTab
from views.enforcement.seizures_tab import SeizuresTab


class EnforcementPage(QWidget):
    """Fiscalização: records, seized goods, dívida ativa."""

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Fiscalização"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.records = RecordsTab(today=today)
        self.seizures = SeizuresTab(today=today)
        self.debts = DebtTab(today=today)
        self.tabs.addTab(self.records, self.tr("Autos"))
        self.tabs.addTab(self.seizures, self.tr("Apreensões"))
        self.tabs.addTab(self.debts, self.tr("Dívida ativa"))
        tabs = (self.records, self.seizures, self.debts)
        self.tabs.currentChanged.connect(lambda i: tabs[i].refresh() if 0 <= i < len(tabs) else None)
        layout.addWidget(self.tabs, 1)

    @property
    def new_item_label(self) -> str:
        return self.tr("Novo auto")

    def new_item(self):
        """Ctrl+N: a new infraction record."""
        self.tabs.setCurrentWidget(self.records)
        return self.records.new_record()

    def refresh(self) -> None:
        for tab in (self.records, self.seizures, self.debts):
            tab.refresh()
