"""Primeiros passos (issue 31 §3): a window that walks the administrator of a new database through the steps of
models.services.first_steps — the municipality, its act(s), the signing key, the holidays, the users, the
collection agreement —, each with what is done, what is missing, the act that does it and the tab of Cadastros
where it lives. It is not modal: the administrator may go to Cadastros and come back; it reads the checklist again
when it is activated."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from models.services.first_steps import STEPS, Step, first_steps
from views.blocks import button_row, fill, message_label, push_button, say, user_errors, wrapped_label
from views.operations import in_background

DONE_MARK, TODO_MARK = "✔", "○"


def _read() -> tuple[list[Step], bool, list[tuple[str, str]]]:
    """The checklist, whether the municipality has a key (Criar or Liberar), and the acts shipped with Praça for this
    municipality that the database does not hold yet (id, what to show), read off the GUI thread."""
    from models.access.signing_keys import active_key
    from models.rules.acts import held_ids, shipped_for
    from models.store.settings import MUNICIPALITY, get_setting

    held = held_ids()
    offered = [(r.id, f"{r.act} ({r.id})") for r in shipped_for(get_setting(MUNICIPALITY)) if r.id not in held]
    return first_steps(), active_key() is not None, offered


class _StepPage(QWidget):
    """One step: its name, what is set or missing, the acts that do it here and its tab of Cadastros."""

    def __init__(self, label: str, tab_title: str, open_tab: Callable[[], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(12, 0, 0, 0)
        heading = QLabel(label)
        heading.setStyleSheet("font-size: 15pt; font-weight: 600;")
        self.body.addWidget(heading)
        self.state = wrapped_label(name="step-state")
        self.body.addWidget(self.state)
        self.acts = QVBoxLayout()
        self.body.addLayout(self.acts)
        self.open_tab = push_button(fill(self.tr("Abrir Cadastros → %1"), tab_title), "open-tab", open_tab)
        self.body.addLayout(button_row(self.open_tab))
        self.message = message_label()
        self.body.addWidget(self.message)
        self.body.addStretch(1)

    def show_step(self, step: Step) -> None:
        mark = DONE_MARK if step.done else TODO_MARK
        state = (
            self.tr("Feito")
            if step.done
            else self.tr("A fazer")
            if not step.optional
            else self.tr("A fazer (opcional)")
        )
        self.state.setText(f"<b>{mark} {state}.</b> {escape(step.why)}")


class FirstStepsDialog(QDialog):
    """Primeiros passos. ``open_tab(tab)`` shows a tab of Cadastros in the main window, ``tab_title(tab)`` names it;
    ``on_change()`` is told after this window changed something (the window refreshes its title and pages).
    ``open_tab`` returns the tab's page; ``show_help(key)`` opens a guide (F1 here: the first steps' own)."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        open_tab: Callable[[str], Any],
        tab_title: Callable[[str], str],
        on_change: Callable[[], None] | None = None,
        show_help: Callable[[str], Any] | None = None,
    ):
        super().__init__(parent)
        self._show_help = show_help
        self.setObjectName("first-steps-dialog")
        self.setWindowTitle(self.tr("Primeiros passos"))
        self._open_tab = open_tab
        self._on_change = on_change
        self.steps: list[Step] = []
        self._reading = False
        layout = QVBoxLayout(self)
        intro = wrapped_label(
            self.tr(
                "Antes de atender, o banco de dados precisa saber qual é o município, qual é o seu ato, com que "
                "chave as permissões são assinadas, quais são os feriados e quem trabalha em cada mesa. Siga os "
                "passos; o Painel mostra o que falta até que todos estejam feitos."
            ),
            "first-steps-intro",
        )
        layout.addWidget(intro)
        row = QHBoxLayout()
        self.list = QListWidget()
        self.list.setObjectName("first-steps-list")
        self.list.setFixedWidth(250)
        self.list.setSpacing(3)
        row.addWidget(self.list)
        self.stack = QStackedWidget()
        row.addWidget(self.stack, 1)
        layout.addLayout(row, 1)
        self.pages: dict[str, _StepPage] = {}
        for defined in STEPS:
            page = _StepPage(defined.label, tab_title(defined.tab), partial(self._go_to_tab, defined.tab))
            page.setObjectName(f"step-page-{defined.id}")
            self.pages[defined.id] = page
            self.stack.addWidget(page)
            self.list.addItem(defined.label)
        self._municipality_actions()
        self._acts_actions()
        self._signing_actions()
        self._holidays_actions()
        self._users_actions()
        self._collection_actions()
        self.list.currentRowChanged.connect(self.stack.setCurrentIndex)
        buttons = QDialogButtonBox()
        self.back_button = buttons.addButton(self.tr("&Anterior"), QDialogButtonBox.ButtonRole.ActionRole)
        self.next_button = buttons.addButton(self.tr("&Próximo"), QDialogButtonBox.ButtonRole.ActionRole)
        self.back_button.setObjectName("back")
        self.next_button.setObjectName("next")
        self.back_button.clicked.connect(lambda: self.list.setCurrentRow(max(self.list.currentRow() - 1, 0)))
        self.next_button.clicked.connect(
            lambda: self.list.setCurrentRow(min(self.list.currentRow() + 1, len(STEPS) - 1))
        )
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.close)
        layout.addWidget(buttons)
        self.resize(900, 560)
        self.list.setCurrentRow(0)
        help_key = QShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents), self)  # F1: this window's guide
        help_key.activated.connect(self._help)

    def _help(self) -> None:
        if self._show_help is not None:
            self._show_help("primeiros-passos")

    # -- the steps' own acts ---------------------------------------------------

    def _municipality_actions(self) -> None:
        from views.municipality_page import MunicipalityPage

        page = self.pages["municipality"]
        self.municipality_form = MunicipalityPage()  # Cadastros → Município's own form (issue 31 §1)
        self.municipality_form.saved.connect(self.changed)
        page.acts.addWidget(self.municipality_form)

    def _acts_actions(self) -> None:
        page = self.pages["acts"]
        page.acts.addWidget(
            wrapped_label(
                self.tr(
                    "O banco de dados aplica só os atos do seu município. O Praça traz os atos de São Bento do "
                    "Sapucaí, Sapezal, Ilha Comprida, São José dos Campos, Olímpia e Cabeceira Grande: o do município "
                    "informado aparece abaixo para instalar. O de outro município é um arquivo de regime (.toml, "
                    "docs/novo-ato.md)."
                )
            )
        )
        self.shipped_acts = QVBoxLayout()  # one "Instalar …" per shipped act of this municipality not installed
        page.acts.addLayout(self.shipped_acts)
        self.shipped_buttons: dict[str, QPushButton] = {}
        self.install_act = push_button(self.tr("Instalar ato de um ar&quivo…"), "install-act", self._install_act)
        page.acts.addLayout(button_row(self.install_act))

    def _show_shipped(self, offered: list[tuple[str, str]]) -> None:
        if list(self.shipped_buttons) == [regime_id for regime_id, _shown in offered]:
            return
        for button in self.shipped_buttons.values():
            self.shipped_acts.removeWidget(button)
            button.deleteLater()
        self.shipped_buttons = {}
        for regime_id, shown in offered:
            button = push_button(
                fill(self.tr("Instalar %1"), shown),
                f"install-shipped-{regime_id}",
                partial(self.install_shipped, regime_id),
            )
            self.shipped_buttons[regime_id] = button
            self.shipped_acts.addWidget(button)

    def _signing_actions(self) -> None:
        page = self.pages["signing"]
        page.acts.addWidget(
            wrapped_label(
                self.tr(
                    "A chave assina o QR de cada permissão e os backups. O administrador a cria com uma senha de "
                    "ao menos 12 caracteres, que guarda consigo; cada mesa que emite permissões é liberada uma vez "
                    "com essa senha."
                )
            )
        )
        self.create_key = push_button(self.tr("&Criar a chave…"), "create-key", self._create_key)
        self.unlock = push_button(self.tr("&Liberar esta mesa…"), "unlock", self._unlock)
        page.acts.addLayout(button_row(self.create_key, self.unlock))

    def _holidays_actions(self) -> None:
        page = self.pages["holidays"]
        self.no_holidays = push_button(
            self.tr("O município &não tem feriados municipais"), "no-holidays", self._no_holidays
        )
        page.acts.addLayout(button_row(self.no_holidays))

    def _users_actions(self) -> None:
        page = self.pages["users"]
        self.new_user = push_button(self.tr("No&vo usuário…"), "new-user", self._new_user)
        page.acts.addLayout(button_row(self.new_user))

    def _collection_actions(self) -> None:
        page = self.pages["collection"]
        page.acts.addWidget(
            wrapped_label(
                self.tr(
                    "Opcional: sem convênio as cobranças são lançadas e pagas no balcão, mas não se emitem guias com "
                    "código de barras e Pix. Se ainda não há, diga-o aqui; o passo fica registrado como pulado."
                )
            )
        )
        self.no_collection = push_button(
            self.tr("Ainda não há convênio: pular es&te passo"), "no-collection", self._no_collection
        )
        page.acts.addLayout(button_row(self.no_collection))

    # -- reading and acting ----------------------------------------------------

    def current_step(self) -> str:
        return STEPS[max(self.list.currentRow(), 0)].id

    def show_step(self, step_id: str) -> None:
        index = next(i for i, s in enumerate(STEPS) if s.id == step_id)
        self.list.setCurrentRow(index)

    def refresh(self) -> None:
        """Read the checklist again (off the GUI thread) and show it."""
        if self._reading:
            return
        self._reading = True
        try:
            self.steps, has_key, offered = in_background(_read)
        finally:
            self._reading = False
        form = self.municipality_form
        typed = (form.name, form.ibge, form.cnpj, form.address, form.agency, form.office_hours)
        if not any(edit.isModified() for edit in typed):
            form.refresh()  # what the administrator is typing stays
        for index, step in enumerate(self.steps):
            self.list.item(index).setText(f"{DONE_MARK if step.done else TODO_MARK}  {step.label}")
            self.pages[step.id].show_step(step)
        self._show_shipped(offered)
        done = {s.id: s.done for s in self.steps}
        self.create_key.setEnabled(not has_key)
        self.unlock.setEnabled(has_key and not done["signing"])
        self.no_holidays.setEnabled(not done["holidays"])
        self.no_collection.setEnabled(not done["collection"])

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.id == step_id)

    def changed(self) -> None:
        self.refresh()
        if self._on_change is not None:
            self._on_change()

    def _go_to_tab(self, tab: str) -> None:
        self._open_tab(tab)

    def _install_act(self) -> None:
        """Cadastros → Regimes, and its file chooser: the act is checked and installed there."""
        self._open_tab("regimes_page").choose_file(amend=False)
        self.changed()

    def install_shipped(self, regime_id: str) -> None:
        """Install an act shipped with Praça as this municipality's (checked in the model: another town's is
        refused)."""
        from models.rules.acts import install_shipped_act

        message = self.pages["acts"].message
        with user_errors(lambda m: say(message, m, error=True)) as refused:
            version = in_background(partial(install_shipped_act, regime_id))
        if not refused:
            say(message, fill(self.tr("Ato %1 instalado: %2."), regime_id, version.label))
            self.changed()

    def _create_key(self) -> None:
        from models.access import signing_keys as sk
        from views.signing_page import PassphraseDialog

        dialog = PassphraseDialog(self.tr("Criar a chave da prefeitura"), confirm=True, parent=self)
        create: Any = sk.create_key
        dialog.action = create
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        key: Any = dialog.result_value
        say(
            self.pages["signing"].message,
            fill(
                self.tr("Chave %1 criada; esta mesa já assina. Libere as outras mesas com a mesma senha."),
                key.key_id,
            ),
        )
        self.changed()

    def _unlock(self) -> None:
        from views.signing_page import unlock_desk

        text = unlock_desk(self)
        if text is not None:
            say(self.pages["signing"].message, text)
            self.changed()

    def _no_holidays(self) -> None:
        from models.services.first_steps import confirm_no_holidays

        with user_errors(lambda m: say(self.pages["holidays"].message, m, error=True)) as refused:
            in_background(confirm_no_holidays)
        if not refused:
            say(self.pages["holidays"].message, self.tr("Registrado: o município não tem feriados municipais."))
            self.changed()

    def _no_collection(self) -> None:
        from models.services.first_steps import confirm_no_collection

        with user_errors(lambda m: say(self.pages["collection"].message, m, error=True)) as refused:
            in_background(confirm_no_collection)
        if not refused:
            say(self.pages["collection"].message, self.tr("Registrado: passo pulado até haver convênio."))
            self.changed()

    def _new_user(self, *, dialog_hook=None) -> None:
        from views.users_page import UserDialog

        dialog = UserDialog(self)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return
        if dialog.user is not None:
            say(
                self.pages["users"].message,
                fill(self.tr("Usuário %1 cadastrado (%2)."), dialog.user.name, dialog.user.role_label),
            )
            self.changed()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            QTimer.singleShot(0, self, self.refresh)  # back from Cadastros: what was done there shows here
