"""The main window: navigation between the desks, menus, status bar."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QSettings, QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QStyle,
    QWidget,
)

from desktop.app import app_icon
from desktop.paths import keys_dir
from models.db import current_url, open_database
from models.errors import UserError
from models.settings import municipality_label
from views.about import AboutDialog
from views.billing_page import BillingPage
from views.enforcement_page import EnforcementPage
from views.front_desk import FrontDeskPage
from views.home import HomePage
from views.maps_page import MapsPage
from views.open_database import OpenDatabaseDialog
from views.registry import RegistryPage
from views.reports_page import ReportsPage
from views.selection_page import SelectionPage


@dataclass(frozen=True)
class Desk:
    key: str
    label: str
    icon: QStyle.StandardPixmap
    factory: Callable[[], QWidget]


class MainWindow(QMainWindow):
    """Praça's one window: a list of desks on the left, the chosen desk on the right."""

    database_changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowIcon(app_icon())
        self.setMinimumSize(QSize(960, 620))
        self.desks = self._desks()

        self.nav = QListWidget()
        self.nav.setObjectName("nav")
        self.nav.setIconSize(QSize(22, 22))
        self.nav.setFixedWidth(190)
        self.nav.setSpacing(2)
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}
        for index, desk in enumerate(self.desks):
            item = QListWidgetItem(self.style().standardIcon(desk.icon), desk.label)
            item.setData(Qt.ItemDataRole.UserRole, desk.key)
            item.setToolTip(self.tr("%1 (Ctrl+%2)").replace("%1", desk.label).replace("%2", str(index + 1)))
            self.nav.addItem(item)
            page = desk.factory()
            page.setObjectName(f"page-{desk.key}")
            self.pages[desk.key] = page
            self.stack.addWidget(page)
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)

        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.db_label = QLabel()
        self.statusBar().addPermanentWidget(self.db_label)
        self._build_menus()
        self._restore_state()
        self.refresh()

    # -- structure ---------------------------------------------------------
    def _desks(self) -> list[Desk]:
        sp = QStyle.StandardPixmap
        tr = self.tr
        return [
            Desk("painel", tr("Painel"), sp.SP_DirHomeIcon, lambda: HomePage(self)),
            Desk("atendimento", tr("Atendimento"), sp.SP_FileDialogContentsView, lambda: FrontDeskPage(key_dir=keys_dir())),
            Desk("selecao", tr("Seleção"), sp.SP_DialogApplyButton, lambda: SelectionPage(key_dir=keys_dir())),
            Desk("mapas", tr("Mapas"), sp.SP_FileDialogDetailedView, lambda: MapsPage()),
            Desk("cobranca", tr("Cobrança"), sp.SP_DialogSaveButton, lambda: BillingPage()),
            Desk("fiscalizacao", tr("Fiscalização"), sp.SP_MessageBoxWarning, lambda: EnforcementPage()),
            Desk("relatorios", tr("Relatórios"), sp.SP_FileIcon, lambda: ReportsPage()),
            Desk("cadastros", tr("Cadastros"), sp.SP_FileDialogListView, lambda: RegistryPage(self)),
        ]

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&Arquivo"))
        self.action_open = QAction(self.tr("&Abrir banco de dados…"), self)
        self.action_open.setShortcut(QKeySequence.StandardKey.Open)
        self.action_open.triggered.connect(self.open_database_dialog)
        file_menu.addAction(self.action_open)
        self.action_backup = QAction(self.tr("&Backup…"), self)
        self.action_backup.triggered.connect(self.backup_dialog)
        file_menu.addAction(self.action_backup)
        file_menu.addSeparator()
        self.action_switch_user = QAction(self.tr("&Trocar de usuário…"), self)
        self.action_switch_user.triggered.connect(self.switch_user)
        file_menu.addAction(self.action_switch_user)
        self.action_quit = QAction(self.tr("Sai&r"), self)
        self.action_quit.setShortcut(QKeySequence(self.tr("Ctrl+Q")))
        self.action_quit.triggered.connect(self.close)
        file_menu.addAction(self.action_quit)

        desk_menu = self.menuBar().addMenu(self.tr("&Mesas"))
        for index, desk in enumerate(self.desks):
            action = QAction(desk.label, self)
            action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, key=desk.key: self.show_desk(key))
            desk_menu.addAction(action)

        help_menu = self.menuBar().addMenu(self.tr("A&juda"))
        self.action_about = QAction(self.tr("&Sobre o Praça"), self)
        self.action_about.triggered.connect(self.show_about)
        help_menu.addAction(self.action_about)

    # -- navigation --------------------------------------------------------
    def show_desk(self, key: str) -> None:
        for row in range(self.nav.count()):
            if self.nav.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.nav.setCurrentRow(row)
                return
        raise KeyError(key)

    def current_desk(self) -> str:
        item = self.nav.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else ""

    # -- state -------------------------------------------------------------
    def refresh(self) -> None:
        """Title, status bar and pages after the database or the settings changed."""
        url = current_url()
        where = url.display() if url else self.tr("nenhum banco aberto")
        place = municipality_label() or self.tr("município não configurado")
        self.setWindowTitle(self.tr("Praça — %1 — %2").replace("%1", place).replace("%2", where))
        from models import session

        user = session.current()
        who = self.tr("%1 (%2) · ").replace("%1", user.name).replace("%2", session.ROLES.get(user.role, user.role)) \
            if user is not None else ""
        self.db_label.setText(who + self.tr("Banco: %1").replace("%1", where))
        self.action_backup.setEnabled(url is not None and url.backend == "sqlite")
        for page in self.pages.values():
            refresh = getattr(page, "refresh", None)
            if callable(refresh):
                refresh()
        self.statusBar().showMessage(self.tr("Pronto."), 4000)

    def switch_user(self) -> bool:
        """Log out and in again at this desk (the window stays; its pages reload for the new role)."""
        from models import session
        from views.login import LoginDialog

        dialog = LoginDialog(self)
        if dialog.exec() != LoginDialog.DialogCode.Accepted:
            return False
        self.refresh()
        self.statusBar().showMessage(self.tr("Usuário: %1.").replace("%1", session.current().name), 4000)
        return True

    def _restore_state(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1200, 760)
        last = settings.value("window/desk", "painel")
        keys = [desk.key for desk in self.desks]
        self.nav.setCurrentRow(keys.index(last) if last in keys else 0)

    def closeEvent(self, event: QCloseEvent) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/desk", self.current_desk())
        super().closeEvent(event)

    # -- actions -----------------------------------------------------------
    def open_database_dialog(self) -> None:
        dialog = OpenDatabaseDialog(self)
        if dialog.exec():
            self.switch_database(dialog.url())

    def switch_database(self, url: str) -> bool:
        """Open ``url`` instead of the current database; on failure keep the current one."""
        previous = current_url()
        try:
            open_database(url)
        except UserError as exc:
            QMessageBox.warning(self, self.tr("Abrir banco de dados"), exc.message)
            if previous is not None:
                open_database(previous.raw)
            return False
        self.refresh()
        self.database_changed.emit()
        return True

    def backup_dialog(self) -> None:
        from models.backup import backup_sqlite, suggested_backup_name

        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Salvar backup"), suggested_backup_name(), self.tr("Banco SQLite (*.sqlite3)"))
        if not path:
            return
        try:
            backup_sqlite(path)
        except UserError as exc:
            QMessageBox.warning(self, self.tr("Backup"), exc.message)
            return
        self.statusBar().showMessage(self.tr("Backup gravado em %1").replace("%1", path), 8000)

    def show_about(self) -> None:
        AboutDialog(self).exec()
