"""Login at start, and the first administrator of a new database."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from models.access import session
from models.access.users import MIN_PASSWORD, User, authenticate_for, create_user, desk_connection, has_users
from models.base.errors import FieldErrors, UserError
from views.blocks import FormDialog, fill, wrapped_label
from views.operations import in_background


class LoginDialog(FormDialog):
    """Usuário e senha; three wrong tries close Praça."""

    MAX_TRIES = 3

    def __init__(self, parent: QWidget | None = None, *, place: str = ""):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Praça — entrar"))
        self.user: User | None = None
        self.tries = 0
        if place:
            self.body.addWidget(QLabel(fill(self.tr("Banco de dados: %1"), place)))
        form = QFormLayout()
        self.username = QLineEdit()
        self.username.setObjectName("username")
        self.password = QLineEdit()
        self.password.setObjectName("password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.tr("&Usuário:"), self.username)
        form.addRow(self.tr("&Senha:"), self.password)
        self.body.addLayout(form)
        buttons = self.finish(buttons=QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Entrar"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Sair"))
        self.setMinimumWidth(380)

    def accept(self) -> None:
        username, password, here = self.username.text(), self.password.text(), desk_connection()
        try:  # on a worker (issue 27 §5): the scrypt and a refusal's wait leave the window painting, Entrar held
            user = self.user = self.in_background(lambda: authenticate_for(here, username, password))
        except UserError as exc:
            self.tries += 1
            self.password.clear()
            self.password.setFocus()
            if self.tries >= self.MAX_TRIES:
                self.error.setText(self.tr("Três tentativas sem sucesso: o Praça será fechado."))
                super().reject()
                return
            self.error.setText(exc.message)
            return
        session.log_in(user.as_session())
        super().accept()


class FirstAdminDialog(FormDialog):
    """A new database has no users: the first one is the administrator."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Praça — primeiro acesso"))
        self.user: User | None = None
        intro = wrapped_label(
            self.tr(
                "Este banco de dados ainda não tem usuários. Cadastre o administrador: ele cria os "
                "demais (atendentes, fiscais e chefes) em Cadastros → Usuários."
            )
        )
        self.body.addWidget(intro)
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.username = QLineEdit("admin")
        self.username.setObjectName("username")
        self.password = QLineEdit()
        self.password.setObjectName("password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(fill(self.tr("ao menos %1 caracteres"), MIN_PASSWORD))
        self.confirm = QLineEdit()
        self.confirm.setObjectName("confirm")
        self.confirm.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.tr("&Nome:"), self.name)
        form.addRow(self.tr("&Usuário:"), self.username)
        form.addRow(self.tr("&Senha:"), self.password)
        form.addRow(self.tr("&Confirme a senha:"), self.confirm)
        self.body.addLayout(form)
        buttons = self.finish(
            {"name": self.name, "username": self.username, "password": self.password, "confirm": self.confirm},
            buttons=QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
        )
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Cadastrar e &entrar"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Sair"))
        self.setMinimumWidth(440)
        self.name.setFocus()

    def accept(self) -> None:
        typed = {
            "username": self.username.text(),
            "name": self.name.text(),
            "role": "administrador",
            "password": self.password.text(),
            "confirm": self.confirm.text(),
        }
        try:  # stored on a worker (issue 27 §5), the buttons held
            user = self.user = self.in_background(lambda: create_user(**typed))
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            return
        session.log_in(user.as_session())
        super().accept()


def log_in_at_start(parent: QWidget | None = None, *, place: str = "") -> bool:
    """The first administrator on a new database, else the login; ``False`` when the clerk gives up."""
    dialog = FirstAdminDialog(parent) if not in_background(has_users) else LoginDialog(parent, place=place)
    return dialog.exec() == QDialog.DialogCode.Accepted
