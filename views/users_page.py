"""Cadastros → Usuários and Auditoria: who may do what, and every change with who, when, before and after."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.access import session
from models.access.users import (
    MIN_PASSWORD,
    User,
    change_role,
    create_user,
    get_user,
    set_active,
    set_password,
    user_rows,
)
from models.base.errors import FieldErrors, UserError
from models.store.audit import audit_rows, audit_tables, export_csv, verify_chain
from views.blocks import (
    FormDialog,
    ListTab,
    button_row,
    fill,
    message_label,
    push_button,
    say,
    user_errors,
    wrapped_label,
)
from views.operations import in_background
from views.save import save_file_name
from views.table_models import RowsModel, selected_row
from views.widgets import DateEdit


class UserDialog(FormDialog):
    """A new user: name, login, role and a first password."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Novo usuário"))
        self.user: User | None = None
        form = QFormLayout()
        self.name, self.username = QLineEdit(), QLineEdit()
        self.name.setObjectName("name")
        self.username.setObjectName("username")
        self.role = QComboBox()
        self.role.setObjectName("role")
        for key, label in session.ROLES.items():
            self.role.addItem(label, key)
        self.password, self.confirm = QLineEdit(), QLineEdit()
        self.password.setObjectName("password")
        self.confirm.setObjectName("confirm")
        for edit in (self.password, self.confirm):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(fill(self.tr("ao menos %1 caracteres"), MIN_PASSWORD))
        form.addRow(self.tr("&Nome:"), self.name)
        form.addRow(self.tr("&Usuário (login):"), self.username)
        form.addRow(self.tr("&Perfil:"), self.role)
        form.addRow(self.tr("&Senha inicial:"), self.password)
        form.addRow(self.tr("&Confirme:"), self.confirm)
        self.body.addLayout(form)
        fields = {
            "name": self.name,
            "username": self.username,
            "role": self.role,
            "password": self.password,
            "confirm": self.confirm,
        }
        self.save_button = self.finish(fields).button(QDialogButtonBox.StandardButton.Save)

    def accept(self) -> None:
        fields = {
            "username": self.username.text(),
            "name": self.name.text(),
            "role": self.role.currentData(),
            "password": self.password.text(),
            "confirm": self.confirm.text(),
        }
        with self.refused() as refused:
            self.user = self.in_background(lambda: create_user(**fields))
        if refused:
            return
        super().accept()


class UsersPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        intro = wrapped_label(
            self.tr(
                "Atendentes protocolam e emitem; fiscais lavram autos; chefes decidem (aprovar, "
                "cassar, cancelar cobranças, sortear); o administrador faz tudo, inclusive usuários, "
                "backup e importação. As permissões valem também para quem chamar as funções "
                "diretamente."
            )
        )
        layout.addWidget(intro)
        self.model = RowsModel(
            [
                (self.tr("Usuário"), lambda u: u.username),
                (self.tr("Nome"), lambda u: u.name),
                (self.tr("Perfil"), lambda u: u.role_label),
                (self.tr("Situação"), lambda u: self.tr("ativo") if u.active else self.tr("desativado")),
                (self.tr("Último acesso"), lambda u: u.last_login.strftime("%d/%m/%Y %H:%M") if u.last_login else ""),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("users")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.new_button = QPushButton(self.tr("&Novo usuário…"))
        self.role_button = QPushButton(self.tr("Alterar &perfil…"))
        self.password_button = QPushButton(self.tr("Redefinir &senha…"))
        self.active_button = QPushButton(self.tr("&Desativar"))
        for button, slot in (
            (self.new_button, self.new_user),
            (self.role_button, self.change_role),
            (self.password_button, self.reset_password),
            (self.active_button, self.toggle_active),
        ):
            button.clicked.connect(lambda _c=False, s=slot: s())  # not the click's checked flag into s
        layout.addLayout(button_row(self.new_button, self.role_button, self.password_button, self.active_button))
        self.message = message_label()
        layout.addWidget(self.message)
        self.table.selectionModel().selectionChanged.connect(self._update)

    def refresh(self) -> None:
        keep = self.selected()
        self.model.set_rows(in_background(user_rows))
        if keep is not None:
            for row, user in enumerate(self.model.rows):
                if user.id == keep.id:
                    self.table.selectRow(row)
        self._update()

    def selected(self):
        return selected_row(self.table, self.model)

    @Slot()
    def _update(self) -> None:
        row = self.selected()
        manage = session.can("users.manage")
        self.new_button.setEnabled(manage)
        for button in (self.role_button, self.password_button, self.active_button):
            button.setEnabled(manage and row is not None)
        self.active_button.setText(self.tr("&Ativar") if row is not None and not row.active else self.tr("&Desativar"))

    def _act(self, act, done: str) -> bool:
        """``act()`` (a write of the domain) off the GUI thread, the page's buttons disabled while it runs."""
        try:
            in_background(act, busy=(self.new_button, self.role_button, self.password_button, self.active_button))
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return False
        except UserError as exc:
            self.message.setText(exc.message)
            return False
        self.message.setText(done)
        self.refresh()
        return True

    def new_user(self, *, dialog_hook=None):
        dialog = UserDialog(self)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.user is not None:
            self.message.setText(
                fill(self.tr("Usuário %1 cadastrado (%2)."), dialog.user.username, dialog.user.role_label)
            )
            self.refresh()
        return dialog.user

    def change_role(self, role: str | None = None) -> bool:
        row = self.selected()
        if row is None:
            return False
        if role is None:
            labels = list(session.ROLES.values())
            label, ok = QInputDialog.getItem(
                self,
                self.tr("Alterar perfil"),
                fill(self.tr("Perfil de %1:"), row.username),
                labels,
                labels.index(row.role_label),
                False,
            )
            if not ok:
                return False
            role = next(k for k, v in session.ROLES.items() if v == label)
        return self._act(
            lambda: change_role(get_user(row.id), role), fill(self.tr("Perfil de %1 alterado."), row.username)
        )

    def reset_password(self, password: str | None = None) -> bool:
        row = self.selected()
        if row is None:
            return False
        if password is None:
            password, ok = QInputDialog.getText(
                self,
                self.tr("Redefinir senha"),
                fill(self.tr("Nova senha de %1:"), row.username),
                QLineEdit.EchoMode.Password,
            )
            if not ok:
                return False
        return self._act(
            lambda: set_password(get_user(row.id), password),
            fill(self.tr("Senha de %1 redefinida."), row.username),
        )

    def toggle_active(self) -> bool:
        row = self.selected()
        if row is None:
            return False
        if row.active:
            answer = QMessageBox.question(
                self,
                self.tr("Desativar usuário"),
                fill(self.tr("Desativar %1? Ele não poderá mais entrar; o histórico fica."), row.username),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        return self._act(
            lambda: set_active(get_user(row.id), not row.active),
            fill(self.tr("Usuário %1 %2."), row.username, self.tr("desativado") if row.active else self.tr("ativado")),
        )


class AuditPage(ListTab):
    """The trail, newest first: filter by user, table, record, person and period; export what is shown."""

    SEARCH_DELAY_MS = 250

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = self.body
        bar = QHBoxLayout()
        self.username = QLineEdit()
        self.username.setObjectName("username")
        self.username.setPlaceholderText(self.tr("usuário"))
        self.table_name = QComboBox()
        self.table_name.setObjectName("table")
        self.record_id = QLineEdit()
        self.record_id.setObjectName("record")
        self.record_id.setPlaceholderText(self.tr("nº interno do registro"))
        self.since, self.until = DateEdit(), DateEdit()
        self.since.setObjectName("since")
        self.until.setObjectName("until")
        for label, widget in (
            (self.tr("Usuário:"), self.username),
            (self.tr("Tabela:"), self.table_name),
            (self.tr("Registro:"), self.record_id),
            (self.tr("De:"), self.since),
            (self.tr("Até:"), self.until),
        ):
            bar.addWidget(QLabel(label))
            bar.addWidget(widget)
        self.export_button = push_button(self.tr("E&xportar CSV…"), "export")
        self.export_button.clicked.connect(lambda: self.export())
        bar.addWidget(self.export_button)
        layout.addLayout(bar)
        self.chain = wrapped_label(name="chain")
        layout.addWidget(self.chain)
        self.model = RowsModel(
            [
                (self.tr("Quando"), lambda r: r.at.strftime("%d/%m/%Y %H:%M:%S")),
                (self.tr("Usuário"), lambda r: r.username),
                (self.tr("Tabela"), lambda r: r.table_name),
                (self.tr("Registro"), lambda r: r.record_id),
                (self.tr("Ação"), lambda r: r.action_label),
                (self.tr("O que mudou"), lambda r: r.changes),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("audit")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.add_message()
        self.refresh_on_typing(self.username, self.record_id, self.since, self.until)
        self.table_name.currentIndexChanged.connect(self.refresh_rows)

    def refresh(self) -> None:
        current = self.table_name.currentData()
        self.table_name.blockSignals(True)
        self.table_name.clear()
        self.table_name.addItem(self.tr("todas"), "")
        if session.can("audit.view"):
            for name in in_background(audit_tables):
                self.table_name.addItem(name, name)
        self.table_name.setCurrentIndex(max(0, self.table_name.findData(current)))
        self.table_name.blockSignals(False)
        self.check_chain()
        self.refresh_rows()

    def check_chain(self):
        """Walk the trail's hash chain and say whether it is intact (or where it breaks)."""
        if not session.can("audit.view"):
            self.chain.clear()
            return None
        state = in_background(verify_chain)
        say(self.chain, state.text, error=not state.intact)
        return state

    @Slot()
    def refresh_rows(self) -> None:
        with user_errors(self.message) as refused:
            since, until = self.since.date(), self.until.date()
        if refused:
            return
        with user_errors(self.message) as refused:
            table = self.table_name.currentData() or None
            record_id = self.record_id.text().strip() or None
            username = self.username.text().strip() or None
            rows = in_background(
                lambda: audit_rows(table=table, record_id=record_id, username=username, since=since, until=until)
            )
        if refused:
            self.model.set_rows([])
            return
        self.model.set_rows(rows)
        self.message.setText(
            fill(
                self.tr(
                    "%1 registro(s) mostrados (no máximo 1.000, os mais recentes). A trilha não "
                    "pode ser alterada nem apagada."
                ),
                len(rows),
            )
        )

    def export(self, path: str | None = None) -> str | None:
        if not path:
            path, _ = save_file_name(
                self,
                self.tr("Exportar auditoria"),
                f"auditoria-{_dt.date.today():%Y-%m-%d}.csv",
                self.tr("CSV (*.csv)"),
            )
        if not path:
            return None
        export_csv(self.model.rows, path)
        self.message.setText(fill(self.tr("Exportado: %1"), path))
        return path
