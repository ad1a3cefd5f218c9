"""Small input widgets for Brazilian data: dates dd/mm/aaaa, CPF and CNPJ with masks; the guarded form dialog."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from models.base.br import clean_cnpj, clean_cpf, format_cnpj, format_cpf, parse_br_date
from models.base.errors import UserError
from models.rules.acts import version_text as _version_text
from views import theme
from views.blocks import FieldErrorsView, button_row, fill, message_label, push_button
from views.save import save_file_name, write_in_background


class DateEdit(QLineEdit):
    """A date typed as dd/mm/aaaa; empty is allowed (``date()`` returns None)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setInputMask("00/00/0000;_")
        self.setPlaceholderText("dd/mm/aaaa")
        self.setMaximumWidth(130)

    def is_empty(self) -> bool:
        return not any(c.isdigit() for c in self.text())

    def date(self) -> _dt.date | None:
        """The date typed, None when empty; ``UserError`` when incomplete or impossible."""
        if self.is_empty():
            return None
        return parse_br_date(self.text().replace("_", ""))

    def set_date(self, value: _dt.date | None) -> None:
        self.setText(value.strftime("%d/%m/%Y") if value else "")


class WrappingLabel(QLabel):
    """A word-wrapped label that keeps the height its text needs at its width: a layout inside a tab or a
    splitter does not ask a label its height for its width, and squeezed the text to a clipped line or two."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._fit()

    def resizeEvent(self, event) -> None:  # Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        needed = self.heightForWidth(self.width())
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)


class DocumentEdit(QLineEdit):
    """CPF or CNPJ with its mask, checked as soon as it is complete."""

    validity_changed = Signal(bool, str)  # complete-and-valid?, message

    def __init__(self, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.kind = kind
        if kind == "cpf":
            self.setInputMask("000.000.000-00;_")
            self._clean, self._format, self._size = clean_cpf, format_cpf, 11
        else:  # alphanumeric CNPJ: letters allowed in the first twelve characters
            self.setInputMask(">NN.NNN.NNN/NNNN-00;_")
            self._clean, self._format, self._size = clean_cnpj, format_cnpj, 14
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("W" * (self._size + 4)))
        self.setMaximumWidth(self.minimumWidth() + 40)
        self.textChanged.connect(self._check)
        self.message = ""

    def compact(self) -> str:
        return "".join(c for c in self.text() if c.isalnum())

    def is_complete(self) -> bool:
        return len(self.compact()) == self._size

    def value(self) -> str:
        """The compact number, or ``UserError`` with the field's message."""
        return self._clean(self.compact())

    def set_value(self, compact: str) -> None:
        self.setText(self._format(compact) if compact else "")

    def _check(self) -> None:
        if not self.is_complete():
            self.message = ""
            self.setStyleSheet("")
            self.validity_changed.emit(False, "")
            return
        try:
            self.value()
        except UserError as exc:
            self.message = exc.message
            theme.styled(self, theme.REFUSED)
            self.validity_changed.emit(False, exc.message)
        else:
            self.message = ""
            self.setStyleSheet("")
            self.validity_changed.emit(True, "")


class GuardedDialog(QDialog):
    """A form dialog that asks before throwing away what was typed."""

    discard_question = "Descartar o que foi digitado neste cadastro?"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.dirty = False

    def save(self) -> None:
        """What Salvar does: each form defines it."""
        raise NotImplementedError

    def add_save_bar(self, layout) -> None:
        """The error line and Salvar/Cancelar under a form (``self.error``, ``self.buttons``, ``self.save_button``)."""
        from PySide6.QtWidgets import QDialogButtonBox

        self.error = QLabel()
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def watch_edits(self) -> None:
        """Mark the form dirty on any typing (call after the fields exist)."""
        for edit in self.findChildren(QLineEdit):
            edit.textEdited.connect(self._mark_dirty)

    def _mark_dirty(self, *_args) -> None:
        self.dirty = True
        errors = getattr(self, "errors", None)
        if isinstance(errors, FieldErrorsView):
            errors.forget(self.sender())

    def reject(self) -> None:
        if self.dirty:
            answer = QMessageBox.question(
                self,
                self.windowTitle(),
                self.tr(self.discard_question),
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Discard:
                return
        super().reject()


def current_user_name() -> str:
    """Who is at the desk: the logged-in user's name (``models.access.session.author``), never a name typed anywhere;
    nobody logged in is "" (and the domain refuses the act)."""
    from models.access import session

    logged_in = session.current()
    return logged_in.name if logged_in is not None else ""


ADDRESS_KEYS = ("street", "number", "district", "city", "state", "zip_code", "phone", "email")


@dataclass(frozen=True)
class AddressFields:
    """The address and contact line edits of a person's or a company's form, masked."""

    street: QLineEdit
    number: QLineEdit
    district: QLineEdit
    city: QLineEdit
    state: QLineEdit
    zip_code: QLineEdit
    phone: QLineEdit
    email: QLineEdit

    def edits(self) -> dict[str, QLineEdit]:
        return {key: getattr(self, key) for key in ADDRESS_KEYS}

    def widgets(self) -> dict[str, QWidget]:
        """The fields by key, for the form's ``FieldErrorsView``."""
        return dict(self.edits())

    def values(self) -> dict[str, str]:
        return {key: edit.text() for key, edit in self.edits().items()}

    def load(self, record: object) -> None:
        for key, edit in self.edits().items():
            edit.setText(getattr(record, key))


def make_address_fields() -> AddressFields:
    """The address and contact line edits (object names ``street`` … ``email``), masked."""
    edits = {}
    for key in ADDRESS_KEYS:
        edit = QLineEdit()
        edit.setObjectName(key)
        edits[key] = edit
    fields = AddressFields(**edits)
    fields.number.setMaximumWidth(90)
    fields.state.setInputMask(">AA;_")
    fields.state.setMaximumWidth(50)
    fields.zip_code.setInputMask("00000-000;_")
    fields.zip_code.setMaximumWidth(110)
    return fields


def cell_text(table, row: int, col: int) -> str:
    """What the clerk typed in a cell of a table of rows (household, partners), stripped; "" for an empty cell."""
    item = table.item(row, col)
    return item.text().strip() if item else ""


def add_remove_row(owner: QWidget, add_label: str, on_add, on_remove):
    """ "Adicionar …" and "Remover" under a table of rows the clerk edits (household, partners)."""

    add = push_button(add_label, slot=lambda: on_add())  # not the click's checked flag into on_add
    remove = push_button(owner.tr("Remo&ver"), slot=lambda: on_remove())
    return button_row(add, remove)


@dataclass(frozen=True)
class YearlyValueForm:
    """The fields of a yearly value kept with its source: year, value, source, the save button, the message."""

    year: QSpinBox
    value: QLineEdit
    reason: QLineEdit
    save_button: QPushButton
    message: QLabel


def add_yearly_value_form(
    owner: QWidget,
    layout: QBoxLayout,
    *,
    save: Callable[[], object],
    year_label: str,
    value_name: str,
    value_label: str,
    value_hint: str,
    source_hint: str,
    save_label: str,
) -> YearlyValueForm:
    """Year, value, source, a save button and a message line for a yearly value kept with its source, added to
    ``layout``; Enter in the value or the source saves (``save``). The value's object name is ``value_name``."""
    form = QFormLayout()
    year = QSpinBox()
    year.setObjectName("year")
    year.setRange(1990, 2100)
    year.setValue(_dt.date.today().year)
    year.setMaximumWidth(120)
    value = QLineEdit()
    value.setObjectName(value_name)
    value.setPlaceholderText(value_hint)
    value.setMaximumWidth(200)
    reason = QLineEdit()
    reason.setObjectName("reason")
    reason.setPlaceholderText(source_hint)
    save_button = push_button(save_label, "save", save)
    value.returnPressed.connect(save)
    reason.returnPressed.connect(save)
    form.addRow(year_label, year)
    form.addRow(value_label, value)
    form.addRow(owner.tr("&Fonte:"), reason)
    form.addRow("", save_button)
    layout.addLayout(form)
    message = message_label()
    layout.addWidget(message)
    return YearlyValueForm(year, value, reason, save_button, message)


def save_pdf_as(parent: QWidget, path, *, title: str, default_name: str, write, fail):
    """Ask where to save (unless ``path`` is given), then ``write(path)``; a file that cannot be written is said
    in one line through ``fail(text)``. Returns what ``write`` returned, or ``None``."""

    if not path:
        path, _ = save_file_name(parent, title, default_name, parent.tr("PDF (*.pdf)"))
        if not path:
            return None
    try:
        return write_in_background(parent, fill(parent.tr("Gravando %1…"), path), lambda: write(path))
    except OSError as exc:
        fail(fill(parent.tr("Não foi possível gravar %1: %2"), path, exc.strerror or str(exc)))
        return None


def print_document(parent: QWidget, printer, doc_name: str, document) -> bool:
    """Print ``document()`` (a QTextDocument) on ``printer``; ``None`` asks with the print dialog first."""
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter

    if printer is None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName(doc_name)
        if not QPrintDialog(printer, parent).exec():
            return False
    document().print_(printer)
    return True


def act_version_line(owner: QWidget, regime_id: str, sha: str, *, short: bool = False) -> str:
    """The act's version a frozen charge, permit or record was computed from — the act, the day that version
    applies from and its short hash — as rich text ("" when the item kept none); one wording on every screen
    (``short``: one line of a details pane that names the act already)."""
    from views.operations import in_background

    return version_line(
        owner, regime_id, in_background(lambda: _version_text(regime_id, sha, short=short)), short=short
    )


def version_line(owner: QWidget, regime_id: str, version: str, *, short: bool = False) -> str:
    """:func:`act_version_line` from the version's text already read (``models.rules.acts.version_text``, on a
    worker)."""
    from html import escape

    if not version:
        return ""
    if short:  # the act itself is named beside it
        return fill(owner.tr("ato %1"), escape(version))
    return fill(owner.tr("ato %1, %2"), escape(regime_id), escape(version))


OWN_ACTS = "@own"  # the regime filter's item for the municipality's own acts, when it has more than one


def fill_regime_filter(combo, regimes) -> None:
    """A list's regime filter: "Todos", the municipality's own acts (one item for them all when there are
    several), then every act. It keeps the clerk's choice across refreshes; the first time, and whenever the
    choice is gone, it starts on the municipality's own act(s) set in Cadastros → Município — the others
    stay reachable, "Todos" included, but are not the default (issue 18 §5)."""
    from models.registry.municipality import own_regime_ids
    from models.store.settings import MUNICIPALITY, get_setting
    from views.operations import in_background

    current = combo.currentData()
    own, town = in_background(lambda: (own_regime_ids(regimes.values()), get_setting(MUNICIPALITY)))
    combo.own_regime_ids = own
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(combo.tr("Todos"), "")
    if len(own) > 1:
        combo.addItem(fill(combo.tr("Atos de %1"), town), OWN_ACTS)
    for regime in sorted(regimes.values(), key=lambda r: (r.municipality, r.short)):
        combo.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
    index = combo.findData(current) if current is not None else -1
    if index < 0:
        index = combo.findData(OWN_ACTS if len(own) > 1 else own[0]) if own else 0
    combo.setCurrentIndex(max(0, index))
    combo.blockSignals(False)


def regime_filter_value(combo):
    """What a regime filter asks of the list: ``None`` (all), one act's id, or the own acts' ids."""
    data = combo.currentData()
    if data == OWN_ACTS:
        return list(getattr(combo, "own_regime_ids", [])) or None
    return data or None
