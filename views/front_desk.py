"""Atendimento: find the applicant as you type, register, start applications, follow the worklist."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.base.br import clean_cnpj, clean_cpf, format_cnpj, format_cpf, parse_br_date
from models.base.errors import FieldErrors, UserError
from models.registry.applications import OPEN_STATUSES, STATUSES, TRANSITIONS, change_status, get_application, worklist
from models.registry.people import get_company, open_person_record
from models.registry.search import find_applicants
from models.services.front_desk import approve_application
from views.blocks import button_row, fill, message_label, push_button, show, user_errors
from views.keys import search_keys
from views.operations import LatestQuery, in_background
from views.permits import PermitsTab
from views.roles import allow
from views.save import save_file_name, write_in_background
from views.table_models import RowsModel, selected_row
from views.widgets import current_user_name


class SearchTab(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.query = QLineEdit()
        self.query.setObjectName("search")
        self.query.setPlaceholderText(self.tr("Digite CPF, CNPJ ou parte do nome…"))
        self.query.setClearButtonEnabled(True)
        self.query.setStyleSheet("font-size: 13pt; padding: 6px;")
        layout.addWidget(self.query)
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        layout.addWidget(self.hint)
        self.model = RowsModel(
            [
                (self.tr("Nome"), lambda m: m.name),
                (self.tr("CPF/CNPJ"), lambda m: m.document),
                (self.tr("Tipo"), lambda m: self.tr("pessoa") if m.kind == "person" else self.tr("empresa")),
                (self.tr("Detalhe"), lambda m: m.detail),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("matches")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        self.table.doubleClicked.connect(self.edit_selected)
        layout.addWidget(self.table, 1)

        self.new_person = push_button(self.tr("Nova &pessoa"), "new-person")
        self.new_company = push_button(self.tr("Nova &empresa"), "new-company")
        self.edit_button = push_button(self.tr("Edi&tar cadastro"), "edit")
        self.apply_button = push_button(self.tr("Novo &requerimento"), "new-application")
        layout.addLayout(button_row(self.new_person, self.new_company, self.edit_button, self.apply_button))

        self.new_person.clicked.connect(lambda: self.register("person"))
        self.new_company.clicked.connect(lambda: self.register("company"))
        self.edit_button.clicked.connect(self.edit_selected)
        self.apply_button.clicked.connect(self.start_application)
        # search as you type off the GUI thread (issue 27 §5): the latest text wins, a stale query is interrupted
        self._finder = LatestQuery(self, find_applicants, self._show_matches, self._search_failed)
        self.query.textChanged.connect(self.search)
        self.query.returnPressed.connect(self._enter)
        search_keys(self.query, self.table, self.edit_selected)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        QShortcut(QKeySequence(self.tr("Ctrl+L")), self, activated=self.focus_search)
        self._update_buttons()

    def focus_search(self) -> None:
        self.query.setFocus()
        self.query.selectAll()

    @property
    def searching(self) -> bool:
        """A search runs or waits (tests wait for it; the clerk sees the list when it ends)."""
        return self._finder.busy

    @Slot()
    def search(self) -> None:
        """Look up what is typed on a worker thread; the matches are shown when they arrive."""
        self._finder.ask(self.query.text())

    def _search_failed(self, error: BaseException) -> None:
        if not isinstance(error, UserError):
            raise error  # the window's error box, as any failure of a screen
        self.hint.setText(error.message)

    def _show_matches(self, matches) -> None:
        text = self.query.text()
        self.model.set_rows(matches)
        if matches:
            self.table.selectRow(0)
            self.hint.setText(fill(self.tr("%1 encontrado(s). Enter abre o primeiro."), len(matches)))
        elif text.strip():
            self.hint.setText(self._nobody_hint(text))
        else:
            self.hint.clear()
        self._update_buttons()

    def _nobody_hint(self, text: str) -> str:
        digits = "".join(c for c in text if c.isalnum()).upper()
        if len(digits) == 11 and digits.isdigit():
            try:
                clean_cpf(digits)
            except UserError as exc:
                return exc.message
            return self.tr("Ninguém com este CPF. Clique em “Nova pessoa” para cadastrar.")
        if len(digits) == 14:
            try:
                clean_cnpj(digits)
            except UserError as exc:
                return exc.message
            return self.tr("Nenhuma empresa com este CNPJ. Clique em “Nova empresa” para cadastrar.")
        return self.tr("Ninguém encontrado. Cadastre uma nova pessoa ou empresa.")

    def selected(self):
        index = self.table.currentIndex()
        return self.model.rows[index.row()] if index.isValid() else None

    @Slot()
    def _update_buttons(self) -> None:
        has = self.selected() is not None
        self.edit_button.setEnabled(has)
        self.apply_button.setEnabled(has)

    def _enter(self) -> None:
        if self.selected() is not None:
            self.edit_selected()

    def register(self, kind: str):
        from views.company_form import CompanyDialog
        from views.person_form import PersonDialog

        digits = "".join(c for c in self.query.text() if c.isalnum()).upper()
        if kind == "person":
            dialog = PersonDialog(parent=self, cpf=digits if len(digits) == 11 and digits.isdigit() else "")
        else:
            dialog = CompanyDialog(parent=self, cnpj=digits if len(digits) == 14 else "")
        if dialog.exec():
            saved = dialog.person if kind == "person" else dialog.company
            self.query.setText(format_cpf(saved.cpf) if kind == "person" else format_cnpj(saved.cnpj))
            self.search()  # the same text may already be there
        return dialog

    @Slot()
    def edit_selected(self):
        from views.company_form import CompanyDialog
        from views.person_form import PersonDialog

        match = self.selected()
        if match is None:
            return None
        if match.kind == "person":
            try:
                person = open_person_record(match.id)  # role checked, viewing recorded (LGPD)
            except UserError as exc:
                QMessageBox.information(self, self.tr("Cadastro"), exc.message)
                return None
            dialog = PersonDialog(person, parent=self)
        else:
            dialog = CompanyDialog(get_company(match.id), parent=self)
        if dialog.exec():
            self.search()
        return dialog

    def start_application(self):
        from views.application_form import ApplicationDialog

        match = self.selected()
        if match is None:
            return None
        dialog = ApplicationDialog(match.kind, match.id, parent=self)
        dialog.exec()
        return dialog


class WorklistTab(QWidget):
    def __init__(self, parent: QWidget | None = None, *, key_dir=None):
        super().__init__(parent)
        self.key_dir = key_dir
        self.last_permit = None
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.status = QComboBox()
        self.status.setObjectName("status")
        self.status.addItem(self.tr("Em aberto"), "open")
        for key, label in STATUSES.items():
            self.status.addItem(label[:1].upper() + label[1:], key)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        row.addWidget(QLabel(self.tr("Situação:")))
        row.addWidget(self.status)
        row.addWidget(QLabel(self.tr("Regime:")))
        row.addWidget(self.regime, 1)
        layout.addLayout(row)
        self.model = RowsModel(
            [
                (self.tr("Protocolo"), lambda w: w.protocol),
                (self.tr("Requerente"), lambda w: w.applicant),
                (self.tr("Regime"), lambda w: w.regime_label),
                (self.tr("Permissão"), lambda w: w.kind_label),
                (self.tr("Situação"), lambda w: w.status_label),
                (self.tr("Dias"), lambda w: str(w.age_days)),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("worklist")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        actions = QHBoxLayout()
        self.action_buttons: dict[str, QPushButton] = {}
        for status, label in (
            ("analysis", self.tr("Em aná&lise")),
            ("approved", self.tr("A&provar")),
            ("refused", self.tr("&Indeferir…")),
            ("appealed", self.tr("Re&curso…")),
            ("awaiting_payment", self.tr("Aguardar pa&gamento")),
            ("withdrawn", self.tr("&Desistência…")),
        ):
            button = QPushButton(label)
            button.setObjectName(f"to-{status}")
            if status in ("approved", "refused"):  # the chefe decides with the record in front (issue 31 §4)
                button.clicked.connect(lambda _c=False: self.open_selected())
            else:
                button.clicked.connect(lambda _c=False, st=status: self.move_to(st))
            actions.addWidget(button)
            self.action_buttons[status] = button
        self.issue_button = push_button(self.tr("&Emitir permissão"), "issue", self.issue)
        actions.addWidget(self.issue_button)
        self.receipt_button = push_button(self.tr("&Recibo…"), "receipt", self.save_receipt)
        actions.addWidget(self.receipt_button)
        self.open_button = push_button(self.tr("A&brir…"), "open")
        self.open_button.setToolTip(
            self.tr("Tudo o que foi protocolado, para decidir (duplo clique ou Enter na lista)")
        )
        self.open_button.clicked.connect(self.open_selected)
        actions.insertWidget(0, self.open_button)
        actions.addStretch(1)
        layout.addLayout(actions)
        self.message = message_label()
        layout.addWidget(self.message)
        self.table.selectionModel().selectionChanged.connect(self._update_actions)
        self.table.activated.connect(self.open_selected)  # double click, Enter
        self.status.currentIndexChanged.connect(self.refresh_rows)
        self.regime.currentIndexChanged.connect(self.refresh_rows)

    def refresh(self) -> None:
        from models.rules.regimes import shipped_regimes
        from views.widgets import fill_regime_filter

        fill_regime_filter(self.regime, in_background(shipped_regimes))  # the municipality's own act(s) first
        self.refresh_rows()

    @Slot()
    def refresh_rows(self) -> None:
        self._show_rows(in_background(self._rows_query()))

    def _rows_query(self):
        """The worklist as the filters ask for it, to be read now or on a worker thread."""
        from views.widgets import regime_filter_value

        status = self.status.currentData()
        statuses = OPEN_STATUSES if status == "open" else (status,)
        regime = regime_filter_value(self.regime)
        return lambda: worklist(statuses=statuses, regime=regime)

    def _show_rows(self, rows) -> None:
        self.model.set_rows(rows)
        self._update_actions()

    def selected(self):
        return selected_row(self.table, self.model)

    def select_protocol(self, protocol: str) -> None:
        for row, item in enumerate(self.model.rows):
            if item.protocol == protocol:
                self.table.selectRow(row)
                return
        raise KeyError(protocol)

    @Slot()
    def _update_actions(self) -> None:
        item = self.selected()
        allowed = TRANSITIONS.get(item.status, set()) if item else set()
        for status, button in self.action_buttons.items():
            act = "applications.decide" if status in ("approved", "refused") else "applications.move"
            allow(button, act, status in allowed)
        allow(self.issue_button, "permits.issue", item is not None and item.status in ("approved", "awaiting_payment"))
        self.open_button.setEnabled(item is not None)
        self.receipt_button.setEnabled(item is not None)

    @Slot()
    def open_selected(self, *, dialog_hook=None):
        """The application as filed, with Aprovar and Indeferir (views/application_view.py)."""
        from views.application_view import ApplicationView

        item = self.selected()
        if item is None:
            return None
        dialog = ApplicationView(item.id, self, decide=lambda status, reason: self.move_to(status, reason))
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        else:
            dialog.exec()
        return dialog

    @Slot()
    def issue(self, *, end: _dt.date | None = None, today: _dt.date | None = None):
        """Issue the permit of the selected application; the end date is asked only when the act leaves it open."""
        from models.services.issuing import issue_permit

        item = self.selected()
        if item is None:
            return None
        today = today or _dt.date.today()
        by, key_dir, rows = current_user_name(), self.key_dir, self._rows_query()
        kwargs: dict = {}
        for _attempt in range(2):
            try:
                # the worker thread (issue 27 §5): issued, and the worklist read again, while the window repaints
                permit, listed = in_background(
                    lambda kw=dict(kwargs): (
                        issue_permit(get_application(item.id), by=by, today=today, key_dir=key_dir, **kw),
                        rows(),
                    )
                )
                break
            except FieldErrors as exc:
                key, message = next(iter(exc.errors.items()))
                if key not in ("valid_until", "event_end") or kwargs:
                    self.message.setText(message)
                    return None
                if end is None:
                    text, ok = QInputDialog.getText(
                        self, self.tr("Emitir permissão"), message + "\n" + self.tr("Data (dd/mm/aaaa):")
                    )
                    if not ok:
                        return None
                    try:
                        end = parse_br_date(text)
                    except UserError as refused:
                        self.message.setText(refused.message)
                        return None
                kwargs = {key: end}
            except UserError as exc:  # a missing first step (no key, this desk locked) is named, with a link to it
                show(self.message, exc)
                return None
        else:  # pragma: no cover - the loop always breaks or returns
            return None
        self.last_permit = permit
        self.message.setText(
            fill(
                self.tr("Permissão nº %1 emitida para %2, válida de %3 a %4."),
                permit.number,
                item.applicant,
                permit.valid_from.strftime("%d/%m/%Y"),
                permit.valid_until.strftime("%d/%m/%Y"),
            )
        )
        self._show_rows(listed)
        return permit

    def move_to(self, status: str, reason: str | None = None) -> bool:
        """Move the selected application; refusals, appeals and withdrawals ask for the reason."""
        item = self.selected()
        if item is None:
            return False
        if reason is None and status in ("refused", "appealed", "withdrawn"):
            reason, ok = QInputDialog.getText(
                self, STATUSES[status].capitalize(), fill(self.tr("Motivo (%1):"), STATUSES[status])
            )
            if not ok:
                return False
        by = current_user_name()

        def move():  # the worker thread (issue 27 §5)
            app = get_application(item.id)
            if status == "approved":  # checked again today: rules and the act's term
                approve_application(app, by=by, reason=reason or "")
            elif status == "awaiting_payment":  # the frozen quote becomes the charges to pay first
                from models.billing.charges import await_payment

                return await_payment(app, by=by)
            else:
                change_status(app, status, by=by, reason=reason or "")
            return None

        with user_errors(self.message) as refused:
            charges = in_background(move)
            if status == "awaiting_payment" and charges:
                numbers = ", ".join(c.number for c in charges)
                self.message.setText(
                    fill(self.tr("Protocolo %1: aguardando pagamento das cobranças %2."), item.protocol, numbers)
                )
        if refused:
            return False
        if status != "awaiting_payment" or not self.message.text().startswith(self.tr("Protocolo")):
            self.message.setText(fill(self.tr("Protocolo %1: %2."), item.protocol, STATUSES[status]))
        protocol = item.protocol
        self.refresh_rows()
        try:
            self.select_protocol(protocol)
        except KeyError:
            pass
        return True

    def save_receipt(self, path: str | None = None) -> str | None:
        from reports.receipt import write_receipt_pdf

        item = self.selected()
        if item is None:
            return None
        if not path:
            path, _ = save_file_name(
                self,
                self.tr("Recibo do protocolo"),
                f"recibo-{item.protocol.replace('/', '-')}.pdf",
                self.tr("PDF (*.pdf)"),
            )
        if path:
            app = get_application(item.id)
            write_in_background(self, self.tr("Gravando o recibo…"), lambda: write_receipt_pdf(app, path))
        return path or None


class FrontDeskPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, key_dir=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Atendimento"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.search = SearchTab()
        self.worklist = WorklistTab(key_dir=key_dir)
        self.permits = PermitsTab(key_dir=key_dir)
        self.tabs.addTab(self.search, self.tr("Balcão"))
        self.tabs.addTab(self.worklist, self.tr("Requerimentos"))
        self.tabs.addTab(self.permits, self.tr("Permissões"))
        self.tabs.currentChanged.connect(self._tab_shown)
        layout.addWidget(self.tabs, 1)

    @property
    def new_item_label(self) -> str:
        return self.tr("Nova pessoa")

    def new_item(self):
        """Ctrl+N: a new person at the counter (Balcão → Nova pessoa)."""
        self.tabs.setCurrentWidget(self.search)
        return self.search.register("person")

    def _tab_shown(self, _index: int) -> None:
        """What another tab changed (a permit issued from the worklist…) shows at once."""
        current = self.tabs.currentWidget()
        if current is self.worklist:
            self.worklist.refresh_rows()
        elif current is self.permits:
            self.permits.refresh()

    def refresh(self) -> None:
        self.search.search()
        self.worklist.refresh()
        self.permits.refresh()
