"""Cobrança: the price simulator now; the month's charges and payments come next."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from views.placeholder import PlaceholderPage
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
        self.simulator = PriceSimulator()
        self.tabs.addTab(self.simulator, self.tr("Simulador de preço"))
        self.tabs.addTab(PlaceholderPage(self.tr("Cobranças do mês"), self.tr(
            "Cobranças geradas pelo motor de preços para as permissões ativas, pagamentos e inadimplência.")),
            self.tr("Cobranças do mês"))
        layout.addWidget(self.tabs, 1)

    def refresh(self) -> None:
        self.simulator.refresh()
