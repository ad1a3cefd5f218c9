"""The pieces every screen is built from, written once (issue 21 §3).

* ``fill(self.tr("Cobrança nº %1 de %2"), number, holder)`` — a translated text with its ``%1``, ``%2``… filled
  in one pass (a value that itself holds "%2" is left as it is). The ``self.tr("…")`` stays at the call site so
  that the translation tools still find the text.
* ``FieldErrorsView`` — a form's refused fields marked (red frame, tooltip) with one summary line.
* ``wrapped_label(text)`` — a label whose text wraps (an introduction, a hint).
* ``error_label()`` and ``message_label()`` — the line under a form that says what was refused (coloured by the
  stylesheet's ``QLabel[role="error"]``: no screen writes the colour) and the line under a list that says what
  was done; ``say(label, text, error=…)`` writes on such a line, in the error colour for a refusal.
* ``push_button(text, name, slot)`` and ``button_row(*buttons)`` — a row of actions, left-aligned.
* ``user_errors(target)`` — the one way a screen shows what the domain refused::

      with user_errors(self.message) as refused:
          cancel_charge(…)
      if refused:
          return False

  ``target`` is a label (it shows the message), a ``FieldErrorsView`` (it marks the field the error names, or
  every field of a ``FieldErrors``) or a function taking the message. A refusal for a missing first step (its
  ``step``: no signing key, no collection agreement) adds on a label the step's name and a link that opens it.
* ``FormDialog`` — a dialog around a form: the error line and the buttons under it, refusals marked at their
  fields.
* ``ListTab`` — a list the clerk narrows as they type: a search box whose typing refreshes the rows a moment
  after the last key, the table, the selected row and the message line.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from views import operations, theme
from views.table_models import RowsModel, selected_row

_PLACE = re.compile(r"%(\d)")


def fill(template: str, *values: object) -> str:
    """``template`` with ``%1`` … ``%9`` replaced by ``str(values[0])`` …; a number with no value stays."""

    def place(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return str(values[index]) if 0 <= index < len(values) else match.group(0)

    return _PLACE.sub(place, template)


class FieldErrorsView:
    """Shows a ``FieldErrors`` on a form: red border and tooltip on each field, one summary line."""

    def __init__(self, summary: QLabel, widgets: dict[str, QWidget]):
        self.summary = summary
        self.summary.setObjectName("error")
        self.summary.setWordWrap(True)
        self.widgets = widgets
        self.shown: dict[str, str] = {}

    def clear(self) -> None:
        for widget in self.widgets.values():
            widget.setStyleSheet("")
            widget.setToolTip("")
        self.summary.clear()
        self.shown = {}

    def forget(self, widget) -> None:
        """The clerk is correcting this field: stop marking it."""
        for key, shown in list(self.widgets.items()):
            if shown is widget and widget.toolTip():
                widget.setStyleSheet("")
                widget.setToolTip("")
                self.shown = {k: v for k, v in self.shown.items() if k.split(".")[0].split("[")[0] != key}
                if not self.shown:
                    self.summary.clear()

    def show(self, errors: dict[str, str]) -> None:
        self.clear()
        self.shown = dict(errors)
        first = None
        for key, message in errors.items():
            widget = self.widgets.get(key) or self.widgets.get(key.split(".")[0].split("[")[0])
            if widget is not None:
                theme.styled(widget, theme.REFUSED)
                widget.setToolTip(message)
                first = first or widget
        count = len(errors)
        head = next(iter(errors.values()))
        self.summary.setText(head if count == 1 else f"{head} (e mais {count - 1} campo(s) a corrigir)")
        if first is not None:
            first.setFocus()


def error_label(name: str = "error") -> QLabel:
    """The line that says what was refused, in the error colour of the stylesheet."""
    label = QLabel()
    if name:
        label.setObjectName(name)
    label.setProperty("role", "error")
    label.setWordWrap(True)
    return label


def say(label: QLabel, text: str, *, error: bool = False) -> None:
    """``text`` on a message line, in the error colour when it is a refusal (the stylesheet's
    ``QLabel[role="error"]``: the label is polished again so that the changed role takes effect)."""
    role = "error" if error else ""
    if (label.property("role") or "") != role:
        label.setProperty("role", role)
        label.style().unpolish(label)
        label.style().polish(label)
    label.setText(text)


def wrapped_label(text: str = "", name: str = "") -> QLabel:
    """A label whose text wraps at its width (an introduction, a hint, a detail)."""
    label = QLabel(text)
    if name:
        label.setObjectName(name)
    label.setWordWrap(True)
    return label


def message_label(name: str = "message") -> QLabel:
    """The line under a list that says what was done (or refused)."""
    return wrapped_label(name=name)


def push_button(text: str, name: str = "", slot: Callable[..., Any] | None = None) -> QPushButton:
    """A button with its object name (what the tests and the keyboard map find it by) and what it does."""
    button = QPushButton(text)
    if name:
        button.setObjectName(name)
    if slot is not None:
        button.clicked.connect(slot)
    return button


def button_row(*buttons: QWidget, stretch: bool = True) -> QHBoxLayout:
    """The buttons side by side, pushed to the left (``stretch``) as every action row is."""
    row = QHBoxLayout()
    for button in buttons:
        row.addWidget(button)
    if stretch:
        row.addStretch(1)
    return row


class user_errors:  # noqa: N801 - used as a statement, like contextlib's suppress
    """Show a ``UserError`` raised inside the ``with`` on ``target`` instead of letting it through.

    ``target``: a ``QLabel`` (its text becomes the message), a ``FieldErrorsView`` (the field the error names —
    or ``field`` when it names none — is marked; a ``FieldErrors`` marks all of its fields) or a callable taking
    the message. The object is true after a refusal; ``message`` and ``refused_field`` are the error's.

    The exception itself is not kept: through its traceback (and the one of the error it was raised from) it
    holds the frame of the ``with``, which holds this object — a cycle that kept every widget of those frames
    alive until the garbage collector came by, and a dialog the collector then deleted while Qt was walking
    its widgets crashed the process.
    """

    def __init__(self, target: QLabel | FieldErrorsView | Callable[[str], object], *, field: str = ""):
        self.target = target
        self.field = field
        self.refused = False
        self.message = ""
        self.refused_field: str | None = None

    def __enter__(self) -> user_errors:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        if not isinstance(exc, UserError):
            return False
        self.refused, self.message, self.refused_field = True, exc.message, exc.field
        show(self.target, exc, field=self.field)
        return True

    def __bool__(self) -> bool:
        return self.refused


def show(target: QLabel | FieldErrorsView | Callable[[str], object], exc: UserError, *, field: str = "") -> None:
    """``exc`` on ``target`` (see ``user_errors``)."""
    if isinstance(target, FieldErrorsView):
        if isinstance(exc, FieldErrors):
            target.show(exc.errors)
        else:
            target.show({exc.field or field: exc.message})
    elif isinstance(target, QLabel):
        if exc.step:
            show_step_refusal(target, exc.message, exc.step)
        else:
            target.setText(exc.message)
    else:
        target(exc.message)
        owner = getattr(target, "__self__", None)  # a label's own method (MessageLine.say_refusal…)
        if exc.step and isinstance(owner, QLabel):
            show_step_refusal(owner, exc.message, exc.step)


#: a link's address that opens a first step (models.services.first_steps): ``passo:signing``
STEP_LINK = "passo:"


def show_step_refusal(label: QLabel, message: str, step: str) -> None:
    """A refusal for a missing first step (no signing key, no collection agreement…) on ``label``: the message, the
    step it lacks named, and a link that opens that step in Primeiros passos (issue 31 §3)."""
    from html import escape

    from models.services.first_steps import step_def

    link = fill(label.tr("Falta o passo «%1» dos Primeiros passos: abrir…"), step_def(step).label)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    label.setText(f'<p>{escape(message)}<br><a href="{STEP_LINK}{step}">{escape(link)}</a></p>')
    if label.findChild(_StepLink) is None:
        _StepLink(label)


class _StepLink(QObject):
    """Opens the step a refusal's link names, in the window that keeps the first steps (``open_first_steps``)."""

    def __init__(self, label: QLabel):
        super().__init__(label)
        self.label = label
        label.linkActivated.connect(self.open)

    @Slot(str)
    def open(self, href: str) -> None:
        if href.startswith(STEP_LINK):
            open_step(self.label, href[len(STEP_LINK) :])


def open_step(widget: QWidget, step: str) -> bool:
    """Open ``step`` of Primeiros passos from ``widget``: its window if it keeps them, else the application's."""
    from PySide6.QtWidgets import QApplication

    shown = [top for top in QApplication.topLevelWidgets() if top.isVisible()]
    for top in (widget.window(), QApplication.activeWindow(), *shown):
        opener = getattr(top, "open_first_steps", None)
        if callable(opener):
            opener(step)
            return True
    return False


class FormDialog(QDialog):
    """A dialog around a form: ``body`` (its vertical layout) takes the fields; ``finish`` adds the error line
    (``self.error``) and the buttons under them, and names the fields a refusal may point at; ``refused()`` is
    ``user_errors`` on those fields."""

    def __init__(self, parent: QWidget | None = None, *, title: str = ""):
        super().__init__(parent)
        if title:
            self.setWindowTitle(title)
        self.body = QVBoxLayout(self)
        self.error = error_label()
        self.errors = FieldErrorsView(self.error, {})

    def finish(
        self,
        fields: dict[str, QWidget] | None = None,
        *,
        buttons: QDialogButtonBox.StandardButton = QDialogButtonBox.StandardButton.Save
        | QDialogButtonBox.StandardButton.Cancel,
        field: str = "",
        ok: Callable[[], object] | None = None,
    ) -> QDialogButtonBox:
        """The error line and ``buttons`` (accepted → ``ok``, by default ``accept``; rejected → ``reject``) under
        the form; a refusal that names no field is shown at ``field`` (or only on the line)."""
        self.errors.widgets = dict(fields or {})
        self.default_field = field
        self.body.addWidget(self.error)
        box = QDialogButtonBox(buttons)
        box.accepted.connect(ok or self.accept)
        box.rejected.connect(self.reject)
        self.body.addWidget(box)
        self.button_box = box
        return box

    def refused(self) -> user_errors:
        """``with self.refused() as refused: …`` — a refusal marked at its field and said on the error line."""
        return user_errors(self.errors, field=getattr(self, "default_field", ""))

    def in_background(self, call: Callable[[], Any]) -> Any:
        """``call()`` (the domain's save) off the GUI thread, the dialog's buttons disabled while it runs
        (``views.operations.in_background``); inside ``with self.refused()`` a refusal shows at its field."""
        box = getattr(self, "button_box", None)
        return operations.in_background(call, busy=(box,) if box is not None else ())


class ListTab(QWidget):
    """A list the clerk narrows as they type. ``body`` is the tab's vertical layout; ``search_box`` makes the
    search line (typing refreshes the rows ``SEARCH_DELAY_MS`` after the last key, through ``refresh_rows``),
    ``list_table`` the table of ``model``, ``message`` (from ``add_message``) the line under it."""

    SEARCH_DELAY_MS = 200

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        self.body = QVBoxLayout(self)
        self.search_timer = QTimer(self)
        self.search_timer.setSingleShot(True)
        self.search_timer.setInterval(self.SEARCH_DELAY_MS)
        self.search_timer.timeout.connect(self.refresh_rows)

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def search_box(self, placeholder: str, name: str = "search") -> QLineEdit:
        """``self.search``: a line whose typing refreshes the list a moment after the last key."""
        self.search = QLineEdit()
        self.search.setObjectName(name)
        self.search.setPlaceholderText(placeholder)
        self.search.setClearButtonEnabled(True)
        self.refresh_on_typing(self.search)
        return self.search

    def refresh_on_typing(self, *edits: QLineEdit) -> None:
        """Typing in any of ``edits`` refreshes the list a moment after the last key."""
        for edit in edits:
            edit.textChanged.connect(self._typed)

    @Slot()
    def _typed(self) -> None:
        self.search_timer.start()

    def list_table(self, model: RowsModel, name: str) -> QTableView:
        """``self.model`` shown in ``self.table``: whole rows, one at a time, no row numbers, no wrapping."""
        self.model = model
        self.table = QTableView()
        self.table.setObjectName(name)
        self.table.setModel(model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        return self.table

    def add_message(self) -> QLabel:
        self.message = message_label()
        self.body.addWidget(self.message)
        return self.message

    def selected(self):
        return selected_row(self.table, self.model)

    def refresh_rows(self) -> None:
        raise NotImplementedError
