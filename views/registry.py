"""Cadastros: the municipality, its acts, fiscal units, holidays, users, collection and signing key."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from views.collection_page import CollectionPage
from views.fiscal_units_page import FiscalUnitsPage
from views.holidays_page import HolidaysPage
from views.indexes_page import IndexesPage
from views.municipality_page import MunicipalityPage
from views.regimes_page import RegimesPage
from views.signing_page import SigningPage
from views.users_page import AuditPage, UsersPage


class RegistryPage(QWidget):
    def __init__(self, main_window=None, parent: QWidget | None = None):
        super().__init__(parent)
        self._main = main_window
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Cadastros"))
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("registry-tabs")
        self.municipality_page = MunicipalityPage()
        self.municipality_page.saved.connect(self._saved)
        self.tabs.addTab(self.municipality_page, self.tr("Município"))
        self.regimes_page = RegimesPage()
        self.tabs.addTab(self.regimes_page, self.tr("Regimes"))
        self.fiscal_units_page = FiscalUnitsPage()
        self.tabs.addTab(self.fiscal_units_page, self.tr("Unidades fiscais"))
        self.indexes_page = IndexesPage()
        self.tabs.addTab(self.indexes_page, self.tr("Correção monetária"))
        self.holidays_page = HolidaysPage()
        self.tabs.addTab(self.holidays_page, self.tr("Feriados"))
        self.users = UsersPage()
        self.tabs.addTab(self.users, self.tr("Usuários"))
        self.audit = AuditPage()
        self.tabs.addTab(self.audit, self.tr("Auditoria"))
        self.collection_page = CollectionPage()
        self.tabs.addTab(self.collection_page, self.tr("Arrecadação"))
        self.signing = SigningPage()
        self.tabs.addTab(self.signing, self.tr("Assinatura"))
        layout.addWidget(self.tabs, 1)
        self.tabs.currentChanged.connect(self._tab_changed)

    def _saved(self) -> None:
        if self._main is not None:
            self._main.refresh()

    @property
    def new_item_label(self) -> str:
        return self.tr("Novo usuário")

    def new_item(self):
        """Ctrl+N: a new user (Cadastros → Usuários)."""
        self.tabs.setCurrentWidget(self.users)
        return self.users.new_user()

    def refresh(self) -> None:
        self.municipality_page.refresh()
        self.regimes_page.refresh()
        self.fiscal_units_page.refresh()
        self.indexes_page.refresh()
        self.holidays_page.refresh()
        self.collection_page.refresh()
        self.users.refresh()
        self.audit.refresh()
        self.signing.refresh()

    def _tab_changed(self, index: int) -> None:
        # values entered under Unidades fiscais show at once in the regime's text
        if self.tabs.widget(index) is self.regimes_page:
            self.regimes_page.show_current()
