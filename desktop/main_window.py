"""The main window: navigation between the desks, menus, status bar.

Over 600 lines and kept whole: it is one window class — its menus, actions, status bar and the desks it
switches between are one object's state, and each part reads and changes the others (a desk opened by a menu,
a status line refreshed by a desk's change).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QEventLoop, QSettings, QSize, QSocketNotifier, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QStyle,
    QWidget,
)

from desktop.errors import UNEXPECTED, explain, report_unexpected
from desktop.icon import app_icon
from models.base.errors import UserError
from views.blocks import fill
from views.operations import in_background

# The database layer (peewee, the models) is imported where it is used: the window shows before the database is
# opened (``MainWindow(opening=…)``), and importing it is most of a start-up.


def current_url():
    from models.store.db import current_url

    return current_url()


def open_database(url: str, *, create: bool = False):
    from models.store.bootstrap import open_database

    return open_database(url, create=create)


def municipality_label() -> str:
    from models.registry.municipality import municipality

    return in_background(lambda: municipality().label)  # off the GUI thread (issue 27 §5)


# Each desk's module is imported when the desk is first shown: start-up builds only the desk on screen.
def _home(window):
    from views.home import HomePage

    return HomePage(window)


def _front_desk():
    from models.access.signing_keys import MUNICIPAL_KEY
    from views.front_desk import FrontDeskPage

    return FrontDeskPage(key_dir=MUNICIPAL_KEY)


def _selection():
    from models.access.signing_keys import MUNICIPAL_KEY
    from views.selection import SelectionPage

    return SelectionPage(key_dir=MUNICIPAL_KEY)


def _maps():
    from views.maps_page import MapsPage

    return MapsPage()


def _billing():
    from views.billing_page import BillingPage

    return BillingPage()


def _enforcement():
    from views.enforcement import EnforcementPage

    return EnforcementPage()


def _reports():
    from views.reports_page import ReportsPage

    return ReportsPage()


def _registry(window):
    from views.registry import RegistryPage

    return RegistryPage(window)


@dataclass(frozen=True)
class Desk:
    key: str
    label: str
    icon: QStyle.StandardPixmap
    factory: Callable[[], QWidget]
    early: bool = False  # its page may be built before the database is open (widgets only; filled by refresh)


class _Pages(Mapping):
    """The desks' pages by key, each built (and refreshed) the first time it is asked for or shown."""

    def __init__(self, window: MainWindow):
        self._window = window
        self.built: dict[str, QWidget] = {}

    def __getitem__(self, key: str) -> QWidget:
        page = self.built.get(key)
        return page if page is not None else self._window._build_page(key)

    def __iter__(self):
        return iter(desk.key for desk in self._window.desks)

    def __len__(self) -> int:
        return len(self._window.desks)


class MainWindow(QMainWindow):
    """Praça's one window: a list of desks on the left, the chosen desk on the right."""

    database_changed = Signal()
    #: The database given to ``opening`` is open, the clerk logged in, the pages filled.
    started = Signal()
    _changed_in_worker = Signal(str)  # a write heard in a worker thread, taken note of in the window's

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        opening: str | None = None,
        log_in: bool = True,
        at_open: Callable[[], None] | None = None,
        remember: bool = True,
    ):
        """The window on the database already open — or, with ``opening``, shown first and then opening that
        database (``at_open`` runs once it is open — the daily backup), asking the clerk to log in (``log_in``)
        and filling its pages: the window appears at once, its figures right after. ``exit_code`` says why a
        window that could not start closed itself. ``remember=False`` (``praca check-window``, a window that only
        looks): closing it leaves the user's settings — last desk, size — as they were (issue 32 §4)."""
        super().__init__(parent)
        self._remember = remember
        self._opening = opening
        self._log_in = log_in
        self._at_open = at_open
        self._start_pending = False  # True from construction with ``opening`` until the first paint
        self.exit_code: int | None = None
        self._created = False  # this window created the database it opened (Primeiros passos then opens)
        self.first_steps_dialog: QWidget | None = None  # Primeiros passos, built when first opened
        self.help_window: QWidget | None = None  # the offline help, built at the first F1
        self.setWindowIcon(app_icon())
        self.setMinimumSize(QSize(960, 620))
        self.desks = self._desks()

        self.nav = QListWidget()
        self.nav.setObjectName("nav")
        self.nav.setIconSize(QSize(22, 22))
        self.nav.setFixedWidth(190)
        self.nav.setSpacing(2)
        self.stack = QStackedWidget()
        self.pages = _Pages(self)  # built when first shown: start-up builds only the desk on screen
        self._ready = False
        for index, desk in enumerate(self.desks):
            item = QListWidgetItem(self.style().standardIcon(desk.icon), desk.label)
            item.setToolTip(fill(self.tr("%1 (Ctrl+%2)"), desk.label, index + 1))
            self.nav.addItem(item)
            self.stack.addWidget(QWidget())  # stands in for the page until it is built
        self.nav.currentRowChanged.connect(self._show_row)

        central = QWidget()
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        # stays current (issue 18 §2): a write on any desk leaves the other desks stale, refreshed when shown; a
        # write by another desk on the database (PostgreSQL) is seen by the trail's stamp when the clerk returns
        self._stale: set[str] = set()
        self._local_writes = False
        self._seen_stamp = 0
        self._listener = None  # another desk's writes, heard on PostgreSQL (LISTEN/NOTIFY, issue 27 §5)
        self._notifier: QSocketNotifier | None = None
        self._listening_to = None
        from models.store import changes

        self._changed_in_worker.connect(self._data_changed)  # queued: emitted in the worker thread
        changes.subscribe(self._data_changed)

        self.db_label = QLabel()
        self.statusBar().addPermanentWidget(self.db_label)
        self._build_menus()
        self._restore_state()
        if opening is None:
            self.refresh()
            self._ready = True
        else:
            self._set_connected(False)
            self.setWindowTitle(self.tr("Praça — abrindo o banco de dados…"))
            self.statusBar().showMessage(self.tr("Abrindo o banco de dados…"))
            self._start_pending = True  # started by the first paint: the clerk sees the window first

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        self._start_soon()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.isMinimized():  # started minimized: no paint comes until the clerk restores it
            self._start_soon()

    def _start_soon(self) -> None:
        if self._start_pending:
            self._start_pending = False
            QTimer.singleShot(0, self._start)

    def _set_connected(self, connected: bool) -> None:
        self.nav.setEnabled(connected)
        for action in (
            self.action_open,
            self.action_backup,
            self.action_restore,
            self.action_import,
            self.action_switch_user,
            self.action_new,
            self.action_reload,
            self.action_first_steps,
            *self.desk_actions,
        ):
            action.setEnabled(connected)

    def _start(self) -> None:
        """Open the database given at construction, log in, fill the pages (see ``__init__``). Whatever fails
        on the way (the database, or a query of the login or the Painel) is said in one line and closes the
        window: a window half started is never left behind."""
        try:
            self._open_log_in_fill()
        except Exception as exc:  # whatever it is, the clerk gets one line in a box
            message = explain(exc)
            if message == UNEXPECTED:  # what to do, the details to copy, the log's place
                report_unexpected(self, type(exc), exc, exc.__traceback__)
            else:
                print(f"praca: {message}", file=sys.stderr)
                QMessageBox.critical(self, "Praça", message)
            self.exit_code = exc.exit_code if isinstance(exc, UserError) else 1
            self._set_connected(False)
            self.close()

    def _open_log_in_fill(self) -> None:
        url, self._opening = self._opening, None
        if not self._open_or_set_up(url):
            self.exit_code = 0
            self.close()
            return
        if self._at_open is not None:
            self.statusBar().showMessage(self.tr("Conferindo o backup diário…"))
            self.statusBar().repaint()  # seen now: a day's first backup of a big town takes a moment
            self._at_open()
        if self._log_in:
            from views.login import log_in_at_start

            self.statusBar().showMessage(self.tr("Banco de dados aberto; entre com seu usuário."))
            if not log_in_at_start(self, place=url):
                self.exit_code = 0
                self.close()
                return
        self._set_connected(True)
        self._show_row(self.nav.currentRow())  # the desk on screen, built now that there is a database
        self.refresh()
        self._ready = True
        self.started.emit()
        self._first_steps_if_new()

    # -- structure ---------------------------------------------------------
    def _desks(self) -> list[Desk]:
        sp = QStyle.StandardPixmap
        tr = self.tr
        return [
            Desk("painel", tr("Painel"), sp.SP_DirHomeIcon, lambda: _home(self), early=True),
            Desk("atendimento", tr("Atendimento"), sp.SP_FileDialogContentsView, _front_desk),
            Desk("selecao", tr("Seleção"), sp.SP_DialogApplyButton, _selection),
            Desk("mapas", tr("Mapas"), sp.SP_FileDialogDetailedView, _maps),
            Desk("cobranca", tr("Cobrança"), sp.SP_DialogSaveButton, _billing),
            Desk("fiscalizacao", tr("Fiscalização"), sp.SP_MessageBoxWarning, _enforcement),
            Desk("relatorios", tr("Relatórios"), sp.SP_FileIcon, _reports),
            Desk("cadastros", tr("Cadastros"), sp.SP_FileDialogListView, lambda: _registry(self)),
        ]

    def _build_page(self, key: str) -> QWidget:
        """Build a desk's page in place of its stand-in, refreshed as every page is at start."""
        index = next(i for i, desk in enumerate(self.desks) if desk.key == key)
        page = self.desks[index].factory()
        page.setObjectName(f"page-{key}")
        from views.fit import compact_combos, tip_cut_cells

        compact_combos(page)  # a long regime or site name does not make the desk wider than the screen
        tip_cut_cells(page)
        self.pages.built[key] = page
        stand_in = self.stack.widget(index)
        showing = self.stack.currentIndex() == index
        self.stack.insertWidget(index, page)
        self.stack.removeWidget(stand_in)
        stand_in.deleteLater()
        if showing:
            self.stack.setCurrentIndex(index)
        refresh = getattr(page, "refresh", None)
        if callable(refresh) and self._ready:  # at start, MainWindow.refresh() does it
            refresh()
        return page

    def _show_row(self, row: int) -> None:
        if not 0 <= row < len(self.desks):
            return
        desk = self.desks[row]
        if self._opening is not None and not desk.early and desk.key not in self.pages.built:
            self.stack.setCurrentIndex(row)  # its stand-in, until the database is open
            return
        built = desk.key in self.pages.built
        self.stack.setCurrentWidget(self.pages[desk.key])
        self._name_new_item()
        if built and self._ready:
            self._bring_up_to_date(desk.key)

    def _name_new_item(self) -> None:
        """Arquivo → Novo (Ctrl+N) makes the desk's main new thing, named after it; a desk without one says so."""
        page = self.pages.built.get(self.current_desk())
        label = getattr(page, "new_item_label", "") if page is not None else ""
        self.action_new.setEnabled(bool(label))
        self.action_new.setText(fill(self.tr("&Novo: %1"), label) if label else self.tr("&Novo…"))
        self.action_new.setToolTip(label or self.tr("Esta mesa não cria nada novo"))

    def new_item(self):
        """Ctrl+N: the desk on screen makes its main new thing (a person, a site, an infraction record…)."""
        page = self.pages.built.get(self.current_desk())
        make = getattr(page, "new_item", None)
        return make() if callable(make) and self.action_new.isEnabled() else None

    # -- staying current -----------------------------------------------------
    def _data_changed(self, table: str) -> None:
        """A write on this desk (models.store.changes): every other desk built that shows ``table`` is stale until
        shown again."""
        from shiboken6 import isValid

        if not isValid(self):  # a window already closed and deleted that Python still holds
            return
        if QThread.currentThread() is not self.thread():  # a write of an operation's worker thread
            self._changed_in_worker.emit(table)
            return
        self._local_writes = True
        current = self.current_desk()
        self._stale.update(key for key in self._showing({table}) if key != current)

    def _showing(self, tables: set[str]) -> list[str]:
        """The desks built that show any of ``tables`` (a page's ``shows``: the tables it reads; a page that does
        not say is taken to show them all)."""
        return [
            key
            for key, page in self.pages.built.items()
            if getattr(page, "shows", None) is None or not tables.isdisjoint(page.shows)
        ]

    def _listen(self) -> None:
        """Hear the other desks of the database now open (PostgreSQL): a notice wakes the window, no timer."""
        from models.store import changes

        url = current_url()
        if self._listener is not None and url == self._listening_to:
            return  # the same database: already heard
        self._stop_listening()
        self._listening_to = url
        try:
            self._listener = changes.listen()
        except Exception:  # any: a desk that cannot listen still works, current when the clerk returns to a list
            logging.getLogger(__name__).exception("cannot listen to the other desks")
            return
        if self._listener is not None:
            self._notifier = QSocketNotifier(self._listener.fileno(), QSocketNotifier.Type.Read, self)
            self._notifier.activated.connect(self._heard)

    def _stop_listening(self) -> None:
        if self._notifier is not None:
            self._notifier.setEnabled(False)
            self._notifier.deleteLater()
            self._notifier = None
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def _take_heard(self) -> set[str]:
        """The tables other desks wrote since last heard (PostgreSQL); the desks that show them are stale."""
        if self._listener is None:
            return set()
        try:
            tables = self._listener.take()
        except Exception:  # any: the server went away — heard again when the database is opened again
            logging.getLogger(__name__).exception("stopped hearing the other desks")
            self._stop_listening()
            return set()
        if "regime_act" in tables:  # an act installed or amended there: read the acts again
            from models.rules import acts

            acts.forget()
        self._stale.update(self._showing(tables))
        return tables

    def _heard(self) -> None:
        """Another desk wrote (PostgreSQL): the desks that show what it wrote are stale; the one on screen is
        refreshed at once (a payment taken at the cashier's shows on the Painel)."""
        if not self._take_heard():
            return
        key = self.current_desk()
        if key in self._stale and self._ready and current_url() is not None:
            self._stale.discard(key)
            refresh = getattr(self.pages.built.get(key), "refresh", None)
            if callable(refresh):
                refresh()

    def _bring_up_to_date(self, key: str) -> None:
        """Refresh desk ``key`` if a write here left it stale or another desk wrote since it was last seen."""
        from models.store import audit

        stamp = in_background(audit.stamp)
        if stamp != self._seen_stamp:
            # nobody here wrote: another desk did — the desks showing what it wrote are stale (heard, typed, by the
            # listener on PostgreSQL); not heard (yet): every desk is
            if not self._local_writes and not self._take_heard():
                self._stale.update(self.pages.built)
                from models.rules import acts

                acts.forget()  # and it may have installed or amended an act: read the acts again
            self._seen_stamp, self._local_writes = stamp, False
        if key in self._stale:
            self._stale.discard(key)
            refresh = getattr(self.pages.built.get(key), "refresh", None)
            if callable(refresh):
                refresh()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if (
            event.type() == QEvent.Type.ActivationChange
            and self.isActiveWindow()
            and self._ready
            and current_url() is not None
        ):
            key = self.current_desk()
            if key in self.pages.built:
                self._bring_up_to_date(key)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&Arquivo"))
        self.action_open = QAction(self.tr("&Abrir banco de dados…"), self)
        self.action_open.setShortcut(QKeySequence.StandardKey.Open)
        self.action_open.triggered.connect(self.open_database_dialog)
        file_menu.addAction(self.action_open)
        self.action_new = QAction(self.tr("&Novo…"), self)
        self.action_new.setShortcut(QKeySequence.StandardKey.New)
        self.action_new.triggered.connect(self.new_item)
        file_menu.addAction(self.action_new)
        self.action_backup = QAction(self.tr("&Backup…"), self)
        self.action_backup.triggered.connect(self.backup_dialog)
        file_menu.addAction(self.action_backup)
        self.action_restore = QAction(self.tr("&Restaurar…"), self)
        self.action_restore.triggered.connect(self.restore_dialog)
        file_menu.addAction(self.action_restore)
        self.action_import = QAction(self.tr("&Importar ambulantes…"), self)
        self.action_import.triggered.connect(self.import_dialog)
        file_menu.addAction(self.action_import)
        file_menu.addSeparator()
        self._build_appearance_menu(file_menu)
        self.action_switch_user = QAction(self.tr("&Trocar de usuário…"), self)
        self.action_switch_user.triggered.connect(self.switch_user)
        file_menu.addAction(self.action_switch_user)
        self.action_quit = QAction(self.tr("Sai&r"), self)
        self.action_quit.setShortcut(QKeySequence(self.tr("Ctrl+Q")))
        self.action_quit.triggered.connect(self.close)
        file_menu.addAction(self.action_quit)

        desk_menu = self.menuBar().addMenu(self.tr("&Mesas"))
        self.action_reload = QAction(self.tr("A&tualizar esta mesa"), self)
        self.action_reload.setShortcut(QKeySequence("F5"))
        self.action_reload.triggered.connect(self.reload_desk)
        desk_menu.addAction(self.action_reload)
        desk_menu.addSeparator()
        self.desk_actions: list[QAction] = []
        for index, desk in enumerate(self.desks):
            action = QAction(desk.label, self)
            self.desk_actions.append(action)
            action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, key=desk.key: self.show_desk(key))
            desk_menu.addAction(action)

        help_menu = self.menuBar().addMenu(self.tr("A&juda"))
        self.action_help = QAction(self.tr("A&juda desta mesa"), self)
        self.action_help.setShortcut(QKeySequence.StandardKey.HelpContents)  # F1
        self.action_help.triggered.connect(lambda: self.show_help())
        help_menu.addAction(self.action_help)
        guides = help_menu.addMenu(self.tr("&Guias das mesas"))
        from views.help_index import help_pages  # the index alone: the help window's widgets at the first F1

        self.guide_actions: dict[str, QAction] = {}
        for page in help_pages():  # the bundled pages (resources/help), each desk's guide among them
            action = QAction(page.title, self)
            action.triggered.connect(lambda _=False, key=page.key: self.show_help(key))
            guides.addAction(action)
            self.guide_actions[page.key] = action
        self.action_first_steps = QAction(self.tr("&Primeiros passos…"), self)
        self.action_first_steps.triggered.connect(lambda: self.open_first_steps())
        help_menu.addAction(self.action_first_steps)
        help_menu.addSeparator()
        self.action_about = QAction(self.tr("&Sobre o Praça"), self)
        self.action_about.triggered.connect(self.show_about)
        help_menu.addAction(self.action_about)

    def _build_appearance_menu(self, file_menu: QMenu) -> None:
        """Arquivo → Configurações → Aparência: Sistema, Claro or Escuro — this desk's choice, applied at once (issue
        31 §6). Under Arquivo: every letter of "Configurações" is already an Alt key on some desk."""
        from views import theme

        settings_menu = file_menu.addMenu(self.tr("&Configurações"))
        appearance_menu = settings_menu.addMenu(self.tr("&Aparência"))
        self.appearance_group = QActionGroup(self)
        self.appearance_group.setExclusive(True)
        self.appearance_actions: dict[str, QAction] = {}
        labels = {
            theme.SYSTEM: self.tr("&Sistema (claro ou escuro, como o computador)"),
            theme.LIGHT: self.tr("&Claro"),
            theme.DARK: self.tr("&Escuro"),
        }
        chosen = theme.saved_appearance()
        for mode, label in labels.items():
            action = QAction(label, self)
            action.setCheckable(True)
            action.setChecked(mode == chosen)
            action.triggered.connect(lambda _=False, mode=mode: self.choose_appearance(mode))
            self.appearance_group.addAction(action)
            appearance_menu.addAction(action)
            self.appearance_actions[mode] = action
        theme.changes.changed.connect(self._appearance_changed)
        self._hears_appearance = True

    def choose_appearance(self, mode: str) -> None:
        from views import theme

        theme.choose(mode)
        self.appearance_actions[mode].setChecked(True)

    def _appearance_changed(self) -> None:
        """What the desks drew with the old shades (rich text, table cells) is drawn again: the desk on screen
        now, the others when shown."""
        from shiboken6 import isValid

        if not isValid(self) or not self.isVisible() or not self._ready or current_url() is None:
            return  # a window closed (and another perhaps open on another database) draws nothing
        self._stale.update(self.pages.built)
        key = self.current_desk()
        if key in self.pages.built:
            self._bring_up_to_date(key)

    # -- navigation --------------------------------------------------------
    # The navigation's rows are the desks' in order (the row says the desk: no Qt item data, whose ``Qt``
    # namespace costs a start-up a sixth of a bare window)
    def show_desk(self, key: str) -> None:
        keys = [desk.key for desk in self.desks]
        if key not in keys:
            raise KeyError(key)
        self.nav.setCurrentRow(keys.index(key))

    def current_desk(self) -> str:
        row = self.nav.currentRow()
        return self.desks[row].key if 0 <= row < len(self.desks) else ""

    def reload_desk(self) -> None:
        """F5 (Mesas → Atualizar esta mesa), on every desk, the Painel too: the desk on screen reads the database
        again now — what another desk wrote included; the other desks do when shown next (issue 31 §6)."""
        key = self.current_desk()
        if not self._ready or current_url() is None or key not in self.pages.built:
            return
        from models.rules import acts

        acts.forget()  # another desk may have installed or amended an act
        self._stale.update(self.pages.built)  # every desk reads afresh: this one now, the others when shown
        self._bring_up_to_date(key)
        self.statusBar().showMessage(self.tr("Mesa atualizada."), 3000)

    # -- state -------------------------------------------------------------
    def refresh(self) -> None:
        """Title, status bar and pages after the database or the settings changed."""
        url = current_url()
        where = url.display() if url else self.tr("nenhum banco aberto")
        place = municipality_label() or self.tr("município não configurado")
        self.setWindowTitle(fill(self.tr("Praça — %1 — %2"), place, where))
        from models.access import session

        user = session.current()
        who = (
            fill(self.tr("%1 (%2) · "), user.name, session.ROLES.get(user.role, user.role)) if user is not None else ""
        )
        self.db_label.setText(who + fill(self.tr("Banco: %1"), where))
        for action in (self.action_backup, self.action_restore, self.action_import):
            action.setEnabled(url is not None)
        for page in list(self.pages.built.values()):  # the others are refreshed when built
            refresh = getattr(page, "refresh", None)
            if callable(refresh):
                refresh()
        self._stale.clear()
        self._listen()
        from models.store import audit

        self._seen_stamp, self._local_writes = in_background(audit.stamp), False
        self.statusBar().showMessage(self.tr("Pronto."), 4000)

    def _log_in_again(self) -> None:
        """The users are now the restored ones: whoever was logged in may not exist there."""
        from models.access import session
        from views.login import log_in_at_start

        session.log_out()
        if not log_in_at_start(self):
            self.close()

    def switch_user(self) -> bool:
        """Log out and in again at this desk (the window stays; its pages reload for the new role)."""
        from models.access import session
        from views.login import LoginDialog

        dialog = LoginDialog(self)
        if dialog.exec() != LoginDialog.DialogCode.Accepted:
            return False
        self._forget_messages()
        self.refresh()
        self.statusBar().showMessage(fill(self.tr("Usuário: %1."), session.current().name), 4000)
        return True

    def _forget_messages(self) -> None:
        """What the desks said to the user before (an act done, a refusal) is not the next user's to read."""
        self.statusBar().clearMessage()
        for page in self.pages.built.values():
            for label in page.findChildren(QLabel):
                if label.objectName() in ("message", "map-message"):
                    label.clear()

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

    def _pages_let_go(self) -> bool:
        """Every page with work not yet saved (a map being edited) agrees to let it go — only pages built have
        any (asking the others would build every desk, on a window that may have no database)."""
        return all(page.confirm_leave() for page in list(self.pages.built.values()) if hasattr(page, "confirm_leave"))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._pages_let_go():
            event.ignore()
            return
        if self._remember:
            settings = QSettings()
            settings.setValue("window/geometry", self.saveGeometry())
            settings.setValue("window/desk", self.current_desk())
        self._stop_listening()
        if self._hears_appearance:  # a closed window redraws nothing when the appearance changes
            from views import theme

            theme.changes.changed.disconnect(self._appearance_changed)
            self._hears_appearance = False
        super().closeEvent(event)

    def _open_or_set_up(self, url: str) -> bool:
        """Open ``url``; where there is no Praça database yet (no file, an empty one) create it only when the
        clerk says so — the desk's explicit set-up. ``False`` when the clerk does not."""
        from models.store.db import NoDatabase

        try:
            self._open_under_progress(url)
            return True
        except NoDatabase as exc:
            if not self._confirm_new_database(exc):
                return False
        self._open_under_progress(url, create=True)
        self._created = True  # a new database: Primeiros passos opens once the administrator is logged in
        return True

    def _open_under_progress(self, url: str, *, create: bool = False) -> None:
        """Open ``url`` on the GUI thread, under a modal "Abrindo o banco de dados…" (issue 27 §5: the one open
        left synchronous). Peewee keeps a connection per thread and opening sets up the window's own — the schema
        checked or migrated, a desk detected and bound, the database's identity read —, so it cannot be done on a
        worker; the window cannot be used meanwhile anyway: its desks are disabled until a database is open (at
        start) or the progress dialog, modal, holds it (Arquivo → Abrir)."""
        from PySide6.QtWidgets import QProgressDialog

        progress = QProgressDialog(self.tr("Abrindo o banco de dados…"), "", 0, 0, self)
        progress.setObjectName("opening-database")
        progress.setCancelButton(None)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(0)
        progress.show()
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)  # painted before it waits
        try:
            open_database(url, create=create)
        finally:
            progress.close()
            progress.deleteLater()

    def _confirm_new_database(self, exc) -> bool:
        buttons = QMessageBox.StandardButton
        if exc.state == "missing":
            text = self.tr(
                "Não há banco de dados do Praça em %1.\n\nCriar um banco novo e vazio aí? Para usar um "
                "banco que já existe, escolha Não e abra-o em Arquivo → Abrir banco de dados…"
            )
        else:
            text = self.tr(
                "%1 está vazio: não há nele dados do Praça.\n\nSe ele já guardou os dados deste "
                "Praça, eles não estão mais aí: recupere o arquivo ou restaure um backup (depois de criar o "
                "banco, em Arquivo → Restaurar…). Criar um banco novo e vazio aí?"
            )
        answer = QMessageBox.question(
            self, self.tr("Banco de dados novo"), fill(text, exc.where), buttons.Yes | buttons.No, buttons.No
        )
        return answer == buttons.Yes

    # -- actions -----------------------------------------------------------
    def open_database_dialog(self) -> None:
        from views.open_database import OpenDatabaseDialog

        dialog = OpenDatabaseDialog(self)
        if dialog.exec():
            self.switch_database(dialog.url())

    def switch_database(self, url: str) -> bool:
        """Open ``url`` instead of the current database; on failure keep the current one (and its login).

        A login belongs to the database it was made on (issue 26 §1): once another database is open, the session
        ends and the clerk logs in there — with a user of that database — or the window closes."""
        if not self._pages_let_go():
            return False
        previous = current_url()
        try:
            if not self._open_or_set_up(url):
                if previous is not None:
                    self._open_under_progress(previous.raw)
                return False
        except UserError as exc:
            QMessageBox.warning(self, self.tr("Abrir banco de dados"), exc.message)
            if previous is not None:
                self._open_under_progress(previous.raw)
            return False
        from models.access import session

        session.log_out()
        self._forget_messages()
        if self._log_in:
            from views.login import log_in_at_start

            self.refresh()  # the title and the status bar name the database opened, and nobody logged in
            if not log_in_at_start(self, place=url):
                self.close()
                return False
        self.refresh()
        self.database_changed.emit()
        self._first_steps_if_new()
        return True

    def backup_dialog(self) -> None:
        from desktop import __version__
        from models.store.backup import count_text, desk_signer, suggested_backup_name, write_backup
        from views.save import save_file_name

        path, _ = save_file_name(
            self, self.tr("Salvar backup"), suggested_backup_name(), self.tr("Backup do Praça (*.praca-backup)")
        )
        if not path:
            return
        from views.operations import run_operation

        try:  # off the GUI thread: a big town's backup takes a while, the window stays responsive
            info = run_operation(
                self,
                self.tr("Gravando o backup…"),
                lambda _progress: write_backup(path, app_version=__version__, signer=desk_signer()),
                cancellable=False,
            )
        except UserError as exc:
            QMessageBox.warning(self, self.tr("Backup"), exc.message)
            return
        sealed = (
            fill(self.tr("assinado pela chave %1"), info.signed_by)
            if info.signed_by
            else self.tr("SEM assinatura: libere esta mesa em Cadastros → Assinatura para assinar os backups")
        )
        self.statusBar().showMessage(
            fill(self.tr("Backup gravado em %1 (%2; %3)."), path, count_text(info.counts), sealed),
            12000,
        )

    def restore_dialog(self) -> None:
        """Arquivo → Restaurar…: check the file, say what it holds and what it replaces, then restore."""
        from desktop import __version__
        from desktop.paths import data_dir
        from models.access.signing_keys import key_ring
        from models.store.backup import (
            count_text,
            database_counts,
            is_empty,
            is_encrypted_file,
            read_backup,
            restore_backup,
            safety_copy_name,
        )
        from models.store.sealed import Trust
        from views.save import open_file_name

        path, _ = open_file_name(
            self, self.tr("Restaurar backup"), "", self.tr("Backup do Praça (*.praca-backup);;Todos (*)")
        )
        if not path:
            return
        title = self.tr("Restaurar backup")
        passphrase = None
        if is_encrypted_file(path):
            from PySide6.QtWidgets import QInputDialog, QLineEdit

            passphrase, ok = QInputDialog.getText(
                self, title, self.tr("Senha do backup cifrado:"), QLineEdit.EchoMode.Password
            )
            if not ok:
                return
        try:  # the keys, the file read and checked, the database counted: on a worker (issue 27 §5)

            def check():
                trust = Trust(key_ring(), accept_unsigned=True)  # read it whole; an unproven one is asked below
                return trust, read_backup(path, trust=trust, passphrase=passphrase, rows=False), database_counts()

            trust, backup, current = in_background(check)  # counted, not kept
        except UserError as exc:
            QMessageBox.warning(self, title, exc.message)
            return
        where = current_url().display()
        question = fill(self.tr("Restaurar o %1?"), backup.describe())
        if backup.seal.ok:
            question += "\n\n" + fill(self.tr("Assinatura conferida: %1."), backup.seal.message)
        else:
            question += "\n\n" + self.tr("ATENÇÃO: %1 Restaure só se tiver certeza da origem do arquivo.").replace(
                "%1", backup.seal.message
            )
        keep = None
        if not is_empty(current):
            folder = data_dir() / "backups"
            keep = folder / safety_copy_name()
            question += "\n\n" + fill(
                self.tr(
                    "Isto SUBSTITUI todos os dados de %1 (%2) pelos do backup. Antes, uma cópia do que há agora é "
                    "gravada em %3."
                ),
                where,
                count_text(current),
                keep,
            )
        answer = QMessageBox.question(
            self,
            title,
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        from models.base.errors import Cancelled
        from models.store.backup import BrokenTrailError
        from views.operations import run_operation

        steps = max(len(backup.counts), 1)
        accept_broken = [False]

        def work(progress):  # the worker thread: the whole restore is one transaction, Cancelar rolls it back
            done = [0]

            def table_done(_name: str) -> None:
                done[0] += 1
                progress(done[0], steps)

            progress(0, steps)
            return restore_backup(
                path,
                force=True,
                keep_current=keep,
                app_version=__version__,
                trust=trust,
                passphrase=passphrase,
                progress=table_done,
                accept_broken_trail=accept_broken[0],
            )  # an unproven one: the "Sim" above

        while True:
            try:
                if keep is not None:
                    keep.parent.mkdir(parents=True, exist_ok=True)
                result = run_operation(self, self.tr("Restaurando o backup…"), work, title=title)
            except Cancelled:
                self.statusBar().showMessage(self.tr("Restauração cancelada: nada foi alterado."), 8000)
                return
            except BrokenTrailError as exc:  # checked before anything was written: the administrator decides
                if accept_broken[0] or not self._accept_broken_trail(title, exc.where):
                    QMessageBox.warning(self, title, exc.message)
                    return
                accept_broken[0] = True
                continue
            except UserError as exc:
                QMessageBox.warning(self, title, exc.message)
                return
            break
        if result.checkpoint is not None:  # the restored trail's head, beside the daily backups too
            from models.store.checkpoints import append_file

            try:
                append_file(data_dir() / "backups", result.checkpoint)
            except OSError:
                pass
        done = fill(self.tr("Backup restaurado: %1."), count_text(result.counts))
        if result.broken_trail:
            done += " " + fill(
                self.tr("A trilha de auditoria restaurada está rompida (%1); a trilha registra isso."),
                result.broken_trail,
            )
        self.statusBar().showMessage(done, 8000)
        self._log_in_again()
        self.refresh()
        self.database_changed.emit()

    def _accept_broken_trail(self, title: str, where: str) -> bool:
        """The backup's audit trail is broken: restoring it does not mend it. Only the administrator accepts it,
        and the trail then records that it was restored broken, and where (a restore is the administrator's act)."""
        answer = QMessageBox.question(
            self,
            title,
            fill(
                self.tr(
                    "ATENÇÃO: a trilha de auditoria deste backup está rompida: %1\n\nRestaurá-lo não a conserta. "
                    "Restaurar assim mesmo? A trilha registrará que foi restaurada rompida, e onde."
                ),
                where,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def import_dialog(self) -> None:
        """Arquivo → Importar ambulantes…"""
        from desktop.paths import data_dir
        from models.access.signing_keys import MUNICIPAL_KEY
        from views.import_dialog import ImportDialog

        dialog = ImportDialog(self, store=data_dir() / "import-mappings.json", key_dir=MUNICIPAL_KEY)
        dialog.exec()
        if dialog.import_result is not None:
            self.refresh()
            self.database_changed.emit()

    # -- first steps and help (issue 31 §3) -----------------------------------
    def open_registry_tab(self, tab: str) -> QWidget:
        """Cadastros, on ``tab`` (an attribute of views.registry.RegistryPage: a first step's ``tab``); its page."""
        self.show_desk("cadastros")
        registry = self.pages["cadastros"]
        page = getattr(registry, tab)
        registry.tabs.setCurrentWidget(page)
        return page

    def registry_tab_title(self, tab: str) -> str:
        registry = self.pages["cadastros"]
        return registry.tabs.tabText(registry.tabs.indexOf(getattr(registry, tab))).replace("&", "")

    def _first_steps_if_new(self) -> None:
        if self._created:
            self._created = False
            self.open_first_steps()

    def open_first_steps(self, step: str | None = None):
        """Ajuda → Primeiros passos (and a new database, and a refusal for a missing step): the window beside this
        one, on ``step`` (or the first not done)."""
        from views.first_steps import FirstStepsDialog

        dialog = self.first_steps_dialog
        if not isinstance(dialog, FirstStepsDialog):
            dialog = FirstStepsDialog(
                self,
                open_tab=self.open_registry_tab,
                tab_title=self.registry_tab_title,
                on_change=self.refresh,
                show_help=self.show_help,
            )
            self.first_steps_dialog = dialog
        dialog.refresh()
        if step is None:
            step = next((s.id for s in dialog.steps if not s.done), dialog.steps[0].id)
        dialog.show_step(step)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def show_help(self, key: str | None = None):
        """F1: the bundled help page of the desk on screen (or ``key``), offline, in a window of its own."""
        from views.help import HelpWindow

        window = self.help_window
        if not isinstance(window, HelpWindow):
            window = HelpWindow(self)
            self.help_window = window
        window.show_page(key or self.current_desk())
        window.show()
        window.raise_()
        return window

    def show_about(self) -> None:
        from views.about import AboutDialog

        AboutDialog(self).exec()
