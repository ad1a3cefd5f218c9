"""Cadastros → Assinatura: the municipality's signing key, this desk's unlocking, the verification page.

The administrator creates the key once, rotates it, revokes a leaked one and
adds an old desk's public key; every issuing desk is unlocked once with the
key's passphrase (kept in the system keyring). The verification address goes
into every QR; the verification page is exported here, and the screen says
when a revocation or a key change made the published page out of date. Anyone
can check a QR's text here, against the database's keys and the permit's
status (issue 16 §7).
"""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.access import signing_keys as sk
from models.access.session import can
from models.permits import signatures
from views.blocks import FormDialog, button_row, fill, message_label, push_button, user_errors, wrapped_label
from views.operations import in_background
from views.save import open_file_name, save_file_name
from views.table_models import Column, RowsModel


def summary_rows(summary) -> list[tuple[str, str]]:
    from models.base.br import format_cnpj, format_cpf

    tr = lambda text: QCoreApplication.translate("SigningPage", text)  # noqa: E731
    document = summary.holder_document
    if len(document) == 11:
        document = f"CPF {format_cpf(document)}"
    elif len(document) == 14:
        document = f"CNPJ {format_cnpj(document)}"
    return [
        (tr("Número"), summary.number),
        (tr("Titular"), summary.holder_name),
        (tr("Documento"), document or "—"),
        (tr("Tipo"), summary.kind_label),
        (tr("Local"), summary.place or "—"),
        (tr("Validade"), f"{summary.valid_from:%d/%m/%Y} a {summary.valid_until:%d/%m/%Y}"),
        (tr("Município"), summary.municipality),
    ]


def keys_model(parent=None) -> RowsModel:
    tr = lambda text: QCoreApplication.translate("SigningPage", text)  # noqa: E731
    return RowsModel(
        [
            Column(tr("Chave"), lambda r: r.key_id),
            Column(tr("Impressão digital"), lambda r: r.fingerprint),
            Column(tr("Situação"), lambda r: r.state + (tr(" — esta mesa assina") if r.unlocked else "")),
            Column(tr("Criada em"), lambda r: r.created_at.strftime("%d/%m/%Y")),
            Column(tr("Por"), lambda r: r.created_by),
        ],
        parent,
    )


class PassphraseDialog(FormDialog):
    """The key's passphrase: typed twice for a new key, once to unlock this desk."""

    def __init__(self, title: str, *, confirm: bool, parent: QWidget | None = None):
        super().__init__(parent, title=title)
        form = QFormLayout()
        self.passphrase = QLineEdit()
        self.passphrase.setObjectName("passphrase")
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.tr("&Senha da chave:"), self.passphrase)
        self.again = QLineEdit()
        self.again.setObjectName("again")
        self.again.setEchoMode(QLineEdit.EchoMode.Password)
        if confirm:
            form.addRow(self.tr("&Repita a senha:"), self.again)
        else:
            self.again.hide()
        self.body.addLayout(form)
        hint = wrapped_label(
            fill(
                self.tr(
                    "Pelo menos %1 caracteres. Guarde-a em lugar seguro: sem ela nenhuma mesa assina, "
                    "e ela não pode ser recuperada."
                ),
                sk.MIN_PASSPHRASE,
            )
            if confirm
            else self.tr("A senha fica guardada no cofre de senhas deste computador.")
        )
        self.body.addWidget(hint)
        self.finish(
            buttons=QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, ok=self._accept
        )
        self._confirm = confirm
        self.action = None  # set by the page: the domain call that takes the passphrase
        self.result_value = None

    def _accept(self) -> None:
        text = self.passphrase.text()
        if self._confirm and text != self.again.text():
            self.error.setText(self.tr("As duas senhas não conferem."))
            self.again.setFocus()
            return
        with user_errors(self.error) as refused:
            action = self.action
            self.result_value = self.in_background(lambda: action(text)) if action is not None else text
        if refused:
            self.passphrase.setFocus()
            return
        self.accept()


def sealed_text(signed) -> str:
    """What the clerk is told of the automatic backups signed once the desk could sign (models.store.backup)."""
    if not signed:
        return ""
    return " " + fill(
        QCoreApplication.translate("SigningPage", "O backup automático %1 foi assinado."),
        ", ".join(path.name for path in signed),
    )


def unlock_desk(parent: QWidget) -> str | None:
    """Ask the key's passphrase and unlock this desk; then sign the automatic backups this session wrote unsigned.
    Returns what to tell the clerk, None when cancelled."""
    from models.store.backup import seal_pending_backups

    dialog = PassphraseDialog(
        QCoreApplication.translate("SigningPage", "Liberar esta mesa"), confirm=False, parent=parent
    )
    dialog.action = sk.unlock
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    tr = lambda text: QCoreApplication.translate("SigningPage", text)  # noqa: E731
    text = (
        tr("Esta mesa assina; a senha ficou no cofre de senhas deste computador.")
        if dialog.result_value
        else tr("Esta mesa assina até ser fechada: este computador não tem cofre de senhas.")
    )
    return text + sealed_text(in_background(seal_pending_backups))


class SigningPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today=None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        self.state = wrapped_label(name="state")
        layout.addWidget(self.state)

        self.model = keys_model(self)
        self.table = QTableView()
        self.table.setObjectName("keys")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()  # the id and fingerprint whole, the situation takes the rest
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        layout.addWidget(self.table, 1)

        self.create_button = push_button(self.tr("&Criar a chave…"), "create", self.create_key)
        self.rotate_button = push_button(self.tr("&Trocar a chave…"), "rotate", self.rotate_key)
        self.revoke_button = push_button(self.tr("Re&vogar a selecionada…"), "revoke", self.revoke_key)
        self.add_button = push_button(self.tr("&Incluir chave de mesa antiga…"), "add-old", self.add_old_key)
        self.unlock_button = push_button(self.tr("&Liberar esta mesa…"), "unlock", self.unlock)
        self.resign_button = push_button(self.tr("Rea&ssinar permissões"), "resign")
        self.resign_button.setToolTip(
            self.tr("Assina de novo, com a chave em uso, as permissões em vigor que uma chave revogada tinha assinado")
        )
        self.resign_button.clicked.connect(self.resign)
        layout.addLayout(button_row(self.create_button, self.rotate_button, self.revoke_button, self.resign_button))
        layout.addLayout(button_row(self.unlock_button, self.add_button))

        page_box = QGroupBox(self.tr("Verificação por celular"))
        page_layout = QVBoxLayout(page_box)
        url_row = QHBoxLayout()
        url_label = QLabel(self.tr("&Endereço da página:"))
        self.url = QLineEdit()
        self.url.setObjectName("verify-url")
        self.url.setPlaceholderText("https://www.prefeitura.sp.gov.br/verificar.html")
        url_label.setBuddy(self.url)
        self.url_save = push_button(self.tr("Salvar en&dereço"), "save-url", self.save_url)
        self.url.returnPressed.connect(self.save_url)
        url_row.addWidget(url_label)
        url_row.addWidget(self.url, 1)
        url_row.addWidget(self.url_save)
        page_layout.addLayout(url_row)
        export_row = QHBoxLayout()
        self.page_state = wrapped_label(name="page-state")
        self.export_button = push_button(self.tr("E&xportar a página…"), "export-page", self.export_page)
        export_row.addWidget(self.page_state, 1)
        export_row.addWidget(self.export_button)
        page_layout.addLayout(export_row)
        layout.addWidget(page_box)

        check_box = QGroupBox(self.tr("Conferir um QR code"))
        check_layout = QVBoxLayout(check_box)
        check_row = QHBoxLayout()
        self.qr_text = QLineEdit()
        self.qr_text.setObjectName("qr-text")
        self.qr_text.setPlaceholderText(
            self.tr("cole ou leia com o leitor o texto do QR code (PRACA2.… ou o endereço)")
        )
        self.qr_text.returnPressed.connect(self.check_text)
        self.check_button = push_button(self.tr("C&onferir"), "check", self.check_text)
        check_row.addWidget(self.qr_text, 1)
        check_row.addWidget(self.check_button)
        check_layout.addLayout(check_row)
        self.check_result = wrapped_label(name="check-result")
        check_layout.addWidget(self.check_result)
        layout.addWidget(check_box)

        self.message = message_label()
        layout.addWidget(self.message)

    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    # ------------------------------------------------------------------ state

    def refresh(self) -> None:
        from reports.verify_page import page_is_current

        rows, active, unlocked, url, current = in_background(
            lambda: (sk.key_rows(), sk.active_key(), sk.is_unlocked(), sk.verify_url(), page_is_current())
        )
        self.model.set_rows(rows)
        admin = can("settings.edit")
        if active is None:
            self.state.setText(
                self.tr(
                    "A prefeitura ainda não tem chave de assinatura: nenhuma mesa emite "
                    "permissões até que o administrador a crie."
                )
            )
        elif unlocked:
            self.state.setText(
                fill(self.tr("Chave em uso: %1. Esta mesa assina as permissões que emite."), active.key_id)
            )
        else:
            self.state.setText(
                fill(
                    self.tr(
                        "Chave em uso: %1. Esta mesa ainda NÃO assina: clique em Liberar esta mesa "
                        "e informe a senha da chave."
                    ),
                    active.key_id,
                )
            )
        self.create_button.setEnabled(admin and active is None)
        self.rotate_button.setEnabled(admin and active is not None)
        self.revoke_button.setEnabled(admin and bool(rows))
        self.add_button.setEnabled(admin)
        self.resign_button.setEnabled(admin and active is not None and any(r.revoked_on for r in rows))
        self.unlock_button.setEnabled(active is not None and not unlocked)
        self.url.setText(url)
        self.url.setEnabled(admin)
        self.url_save.setEnabled(admin)
        self.export_button.setEnabled(admin and bool(rows))
        if current is None:
            self.page_state.setText(self.tr("A página de verificação ainda não foi exportada."))
        elif current:
            self.page_state.setText(self.tr("A página exportada está em dia com as chaves e as permissões revogadas."))
        else:
            self.page_state.setText(
                self.tr(
                    "A página publicada está DESATUALIZADA: chaves ou permissões revogadas, "
                    "suspensas ou canceladas mudaram desde a exportação. Exporte-a de novo "
                    "e publique-a no site da prefeitura."
                )
            )

    def _done(self, text: str) -> None:
        self.refresh()
        self.message.setText(text)

    # ------------------------------------------------------------------ acts

    def _passphrase(self, title: str, *, confirm: bool, action) -> object:
        dialog = PassphraseDialog(title, confirm=confirm, parent=self)
        dialog.action = action
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.result_value

    def create_key(self) -> None:
        row = self._passphrase(self.tr("Criar a chave da prefeitura"), confirm=True, action=sk.create_key)
        if row is not None:
            from models.store.backup import seal_pending_backups

            in_background(seal_pending_backups)  # this desk signs now: the session's unsigned automatic backup too
            self._done(
                fill(
                    self.tr(
                        "Chave %1 criada; esta mesa já assina. Libere as outras mesas que emitem permissões "
                        "com a mesma senha."
                    ),
                    row.key_id,
                )
            )

    def rotate_key(self) -> None:
        row = self._passphrase(
            self.tr("Trocar a chave da prefeitura"),
            confirm=True,
            action=lambda text: sk.rotate_key(text, today=self.today()),
        )
        if row is not None:
            self._done(
                fill(
                    self.tr(
                        "Chave %1 em uso; a anterior continua verificando o que assinou. Libere de novo as "
                        "mesas que emitem permissões e exporte a página de verificação."
                    ),
                    row.key_id,
                )
            )

    def revoke_key(self) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            self.message.setText(self.tr("Selecione a chave a revogar."))
            return
        key = self.model.rows[index.row()]
        reason, ok = QInputDialog.getText(
            self,
            fill(self.tr("Revogar a chave %1"), key.key_id),
            self.tr(
                "Motivo (ex.: computador furtado, senha vazada). A partir de hoje "
                "nenhum documento assinado por ela é aceito:"
            ),
        )
        if not ok:
            return
        with user_errors(self.message) as refused:
            on = self.today()
            in_background(lambda: sk.revoke_key(key.key_id, on=on, reason=reason), busy=(self.revoke_button,))
        if refused:
            return
        self._done(
            fill(
                self.tr(
                    "Chave %1 revogada. Exporte a página de verificação de novo; os documentos que ela "
                    "assinou precisam ser reemitidos."
                ),
                key.key_id,
            )
        )

    def resign(self) -> None:
        with user_errors(self.message) as refused:
            today = self.today()
            numbers = in_background(lambda: signatures.resign_permits(today=today), busy=(self.resign_button,))
        if refused:
            return
        if numbers:
            self._done(
                fill(
                    self.tr("%1 permissões assinadas de novo: reimprima cartões e placas de %2."),
                    len(numbers),
                    ", ".join(numbers),
                )
            )
        else:
            self._done(
                self.tr(
                    "Nenhuma permissão em vigor foi assinada por chave revogada nem tem QR no formato antigo (PRACA1)."
                )
            )

    def add_old_key(self) -> None:
        path, _ = open_file_name(
            self, self.tr("Chave pública da mesa antiga"), "", self.tr("Chave pública (*.pem);;Todos (*)")
        )
        if not path:
            return
        with user_errors(self.message) as refused:
            row = in_background(lambda: sk.add_public_key(path), busy=(self.add_button,))
        if refused:
            return
        self._done(fill(self.tr("Chave %1 incluída, só para verificação."), row.key_id))

    def unlock(self) -> None:
        text = unlock_desk(self)
        if text is not None:
            self._done(text)

    def save_url(self) -> None:
        with user_errors(self.message) as refused:
            url = self.url.text()
            in_background(lambda: sk.set_verify_url(url), busy=(self.url_save, self.url))
        if refused:
            self.url.setFocus()
            return
        self._done(self.tr("Endereço salvo: os QR codes emitidos daqui em diante apontam para ele."))

    def export_page(self) -> None:
        from reports.verify_page import write_verify_page

        path, _ = save_file_name(
            self, self.tr("Exportar a página de verificação"), "verificar.html", self.tr("Página (*.html)")
        )
        if not path:
            return
        with user_errors(self.message) as refused:
            _state, url = in_background(lambda: (write_verify_page(path), sk.verify_url()), busy=(self.export_button,))
        if refused:
            return
        self._done(
            fill(
                self.tr("Página gravada em %1: publique-a em %2."),
                path,
                url or self.tr("o site da prefeitura"),
            )
        )

    def check_text(self) -> None:
        text = self.qr_text.text().strip()
        if not text:
            return
        with user_errors(self.check_result) as refused:
            today = self.today()
            result = in_background(lambda: signatures.verify_here(text, today=today), busy=(self.check_button,))
        if refused:
            return
        lines = [f"{result.status_pt.upper()} — {result.message}"]
        if result.summary is not None:
            lines += [f"{label}: {value}" for label, value in summary_rows(result.summary)]
        if result.checked:
            lines.append(fill(self.tr("Conferido com o banco: %1."), ", ".join(result.checked)))
        self.check_result.setText("\n".join(lines))
        self.check_result.setProperty("status", result.status)
