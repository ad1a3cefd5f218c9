"""Cobrança: the month's charges and payments, delinquency, and the price simulator."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from views.charges_page import ChargesTab, DelinquencyTab
from views.fit import scrollable
from views.price_simulator import PriceSimulator


class BillingPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Cobrança"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.charges = ChargesTab()
        self.delinquency = DelinquencyTab()
        self.simulator = PriceSimulator()
        self.tabs.addTab(self.charges, self.tr("Cobranças do mês"))
        self.tabs.addTab(self.delinquency, self.tr("Inadimplência"))
        self.tabs.addTab(scrollable(self.simulator), self.tr("Simulador de preço"))
        from views.debts_panel import DebtsPanel

        self.debts = DebtsPanel()  # issue 30 §6
        self.tabs.addTab(scrollable(self.debts), self.tr("Dívida ativa"))
        self.tabs.currentChanged.connect(
            lambda i: (self.charges, self.delinquency, self.simulator, self.debts)[i].refresh()
        )
        layout.addWidget(self.tabs, 1)

    @property
    def new_item_label(self) -> str:
        return self.tr("Gerar cobranças do mês")

    def new_item(self):
        """Ctrl+N: the month's charges (their plan first)."""
        self.tabs.setCurrentIndex(0)
        return self.charges.generate()

    def refresh(self) -> None:
        for page in (self.charges, self.delinquency, self.simulator):
            page.refresh()
