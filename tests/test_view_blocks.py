"""views/blocks.py: the pieces the screens are built from."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit

from models.base.errors import FieldErrors, UserError
from views.blocks import (
    FieldErrorsView,
    FormDialog,
    ListTab,
    button_row,
    error_label,
    fill,
    push_button,
    say,
    user_errors,
)
from views.table_models import RowsModel


def test_fill_replaces_each_number_once():
    assert fill("%1 de %2", "a", "b") == "a de b"
    assert fill("%2, %1", 1, 2) == "2, 1"
    assert fill("%1 e %2", "100%2", "x") == "100%2 e x"  # a value is not filled again
    assert fill("%1 %3", "a") == "a %3"


def test_user_errors_shows_on_a_label_and_lets_other_errors_through(qtbot):
    label = QLabel()
    with user_errors(label) as refused:
        raise UserError("Não pode.")
    assert refused and refused.message == "Não pode." and label.text() == "Não pode."
    with user_errors(label) as refused:
        pass
    assert not refused
    try:
        with user_errors(label):
            raise KeyError("x")
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a programming error is not a refusal")


def test_user_errors_marks_the_field(qtbot):
    summary, name, other = QLabel(), QLineEdit(), QLineEdit()
    for widget in (summary, name, other):
        qtbot.addWidget(widget)
    errors = FieldErrorsView(summary, {"name": name, "other": other})
    with user_errors(errors, field="other"):
        raise UserError("Nome vazio.", field="name")
    assert name.toolTip() == "Nome vazio." and not other.toolTip()
    with user_errors(errors, field="other"):
        raise UserError("Sem campo.")
    assert other.toolTip() == "Sem campo."
    with user_errors(errors):
        raise FieldErrors({"name": "a", "other": "b"})
    assert (name.toolTip(), other.toolTip()) == ("a", "b")
    seen = []
    with user_errors(seen.append):
        raise UserError("dito")
    assert seen == ["dito"]


def test_form_dialog_and_rows(qtbot):
    dialog = FormDialog(title="Teste")
    qtbot.addWidget(dialog)
    field = QLineEdit()
    dialog.body.addWidget(field)
    dialog.finish({"name": field}, field="name")
    with dialog.refused():
        raise UserError("Informe o nome.")
    assert dialog.error.text() == "Informe o nome." and field.toolTip() == "Informe o nome."
    assert dialog.error.property("role") == "error" and dialog.windowTitle() == "Teste"
    clicked = []
    button = push_button("&Ok", "ok", lambda: clicked.append(1))
    row = button_row(button)
    assert button.objectName() == "ok" and row.count() == 2
    button.click()
    assert clicked == [1]
    assert error_label("x").objectName() == "x"


def test_list_tab_refreshes_after_typing(qtbot):
    class Tab(ListTab):
        refreshed = 0

        def refresh_rows(self) -> None:
            Tab.refreshed += 1
            self.model.set_rows([self.search.text()])

    tab = Tab()
    qtbot.addWidget(tab)
    tab.body.addWidget(tab.search_box("buscar"))
    tab.body.addWidget(tab.list_table(RowsModel([("Texto", str)], tab), "rows"))
    tab.add_message()
    tab.search.setText("abc")
    assert tab.search_timer.isActive()
    qtbot.waitUntil(lambda: Tab.refreshed == 1)
    tab.table.selectRow(0)
    assert tab.selected() == "abc"


def test_say_colours_a_refusal_through_the_stylesheet(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    say(label, "Não pode.", error=True)
    assert label.text() == "Não pode." and label.property("role") == "error" and not label.styleSheet()
    say(label, "Feito.")
    assert label.text() == "Feito." and label.property("role") == ""


def test_a_refusal_leaves_no_cycle_holding_the_dialog(qtbot):
    """The refused error is not kept: its traceback would hold the frame of the ``with`` (and so the dialog)."""
    import gc
    import weakref

    def refuse():
        try:
            int("x")
        except ValueError:
            raise UserError("Não pode.") from None

    def accept_in(dialog):
        with user_errors(dialog.error) as refused:
            refuse()
        return refused

    gc.collect()
    gc.disable()
    try:
        dialog = FormDialog()
        dialog.finish()
        watched = weakref.ref(dialog)
        refused = accept_in(dialog)
        assert refused and refused.message == "Não pode." and dialog.error.text() == "Não pode."
        del dialog
        assert watched() is None  # freed at once, not left to the collector
    finally:
        gc.enable()
