"""Cadastros: regimes, fiscal units, users and the municipality's settings."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.store.settings import AGENCY, MUNICIPALITY, STATE, get_setting, set_settings
from views.blocks import user_errors
from views.collection_page import CollectionPage
from views.fiscal_units_page import FiscalUnitsPage
from views.holidays_page import HolidaysPage
from views.indexes_page import IndexesPage
from views.operations import in_background
from views.regimes_page import RegimesPage
from views.signing_page import SigningPage
from views.users_page import AuditPage, UsersPage


class SettingsForm(QWidget):
    """The municipality that runs this copy of Praça (shown in the title and on every document)."""

    def __init__(self, on_saved=None, parent: QWidget | None = None):
        super().__init__(parent)
        self._on_saved = on_saved
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.municipality = QLineEdit()
        self.municipality.setObjectName("municipality")
        self.municipality.setPlaceholderText(self.tr("ex.: Olímpia"))
        self.state = QLineEdit()
        self.state.setObjectName("state")
        self.state.setMaxLength(2)
        self.state.setInputMask(">AA;_")
        self.state.setFixedWidth(60)
        self.agency = QLineEdit()
        self.agency.setObjectName("agency")
        form.addRow(self.tr("Mun&icípio:"), self.municipality)
        form.addRow(self.tr("&UF:"), self.state)
        form.addRow(self.tr("Ó&rgão:"), self.agency)
        # No "your name" here: who signs receipts and permits is the logged-in user (issue 16 §4)
        for edit in (self.municipality, self.state, self.agency):
            edit.returnPressed.connect(self.save)
        layout.addLayout(form)
        self.message = QLabel()
        self.message.setObjectName("message")
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Reset)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).clicked.connect(self.save)
        self.buttons.button(QDialogButtonBox.StandardButton.Reset).clicked.connect(self.refresh)
        layout.addWidget(self.buttons)
        layout.addStretch(1)

    def refresh(self) -> None:
        town, state, agency = in_background(
            lambda: (get_setting(MUNICIPALITY), get_setting(STATE), get_setting(AGENCY))
        )
        self.municipality.setText(town)
        self.state.setText(state)
        self.agency.setText(agency)
        self.message.clear()

    def save(self) -> None:
        name = self.municipality.text().strip()
        state = self.state.text().strip().upper()
        if not name:
            self.message.setText(self.tr("Informe o nome do município."))
            self.municipality.setFocus()
            return
        if len(state) != 2 or not state.isalpha():
            self.message.setText(self.tr("Informe a UF com duas letras (ex.: SP)."))
            self.state.setFocus()
            return
        with user_errors(self.message) as refused:
            set_settings({MUNICIPALITY: name, STATE: state, AGENCY: self.agency.text()})
        if refused:
            return
        if self._on_saved:
            self._on_saved()
        self.message.setText(self.tr("Configurações salvas."))


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
        self.settings_form = SettingsForm(on_saved=self._saved)
        self.tabs.addTab(self.settings_form, self.tr("Configurações"))
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
        self.settings_form.refresh()
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
