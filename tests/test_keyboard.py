"""Issue 18 §5: the keyboard — Down from the search box into the results and Enter to open the one selected,
Ctrl+N making each desk's main new thing, Ctrl+S saving the map wherever the focus is. (No two mnemonics collide:
tests/test_fit.py checks every desk and dialog on its walk.)"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal, searched, type_text
from factories import uid_of
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDialog

from models.registry.people import PersonInput, save_person
from models.store.files import set_store


@pytest.fixture
def window(app_ready, qtbot, database, tmp_path):
    QSettings().clear()
    set_store(tmp_path / "files")
    for name, cpf in (("Maria José da Silva", "529.982.247-25"), ("Mariana Souza", "111.444.777-35")):
        save_person(PersonInput(name=name, cpf=cpf, birth_date=dt.date(1980, 5, 17)), today=dt.date(2026, 11, 30))
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_down_goes_from_the_search_into_the_results_and_enter_opens_the_one_selected(window, qtbot):
    window.show_desk("atendimento")
    desk = window.pages["atendimento"].search
    desk.query.setFocus()
    type_text(desk.query, "Maria")
    searched(qtbot, desk)
    assert desk.model.rowCount() == 2
    qtbot.keyClick(desk.query, Qt.Key.Key_Down)
    assert desk.table.hasFocus() and desk.table.currentIndex().row() == 0
    qtbot.keyClick(desk.table, Qt.Key.Key_Down)
    assert desk.table.currentIndex().row() == 1
    chosen = desk.selected().name

    def look(dialog):
        assert dialog.name.text() == chosen

    opened, _ = run_modal(lambda: qtbot.keyClick(desk.table, Qt.Key.Key_Return), look)
    assert opened is not None and opened.windowTitle() == "Editar pessoa"


@pytest.mark.parametrize(
    "desk,kind",
    [
        ("atendimento", "PersonDialog"),
        ("mapas", "SiteFormDialog"),
        ("fiscalizacao", "RecordDialog"),
        ("cadastros", "UserDialog"),
    ],
)
def test_ctrl_n_makes_each_desks_main_new_thing(window, qtbot, monkeypatch, desk, kind):
    opened = []
    monkeypatch.setattr(QDialog, "exec", lambda dialog: opened.append(type(dialog).__name__) or 0)
    window.show_desk(desk)
    assert window.action_new.isEnabled() and window.action_new.text().startswith("&Novo: ")
    qtbot.keyClick(window.stack.currentWidget(), Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert opened == [kind]


def test_ctrl_n_on_a_desk_without_a_new_thing_says_so(window, qtbot):
    window.show_desk("painel")
    assert not window.action_new.isEnabled() and window.action_new.toolTip() == "Esta mesa não cria nada novo"


def test_ctrl_s_saves_the_map_wherever_the_focus_is(app_ready, qtbot, feira):
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.show_desk("mapas")
    page = win.pages["mapas"]
    page.select_site(feira.id)
    editor = page.editor
    editor.items[uid_of(editor.plan, 4)].setSelected(True)
    editor.nudge(1000, 0)
    assert editor.is_dirty()
    page.site_picker.setFocus()  # outside the map, its tools and its tabs
    QApplication.processEvents()
    qtbot.keyClick(page.site_picker, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not editor.is_dirty() and "Mapa salvo" in editor.message.text()


def test_file_dialogs_start_in_documents_with_a_name_that_says_what_the_file_is(app_ready, qtbot, feira, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from views.map_editor import MapEditor
    from views.save import documents_folder

    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a[2]) or ("", ""))
    editor = MapEditor()
    qtbot.addWidget(editor)
    editor.load(feira.id)
    editor.export_dialog()
    today = dt.date.today().isoformat()
    assert asked == [str(documents_folder() / f"mapa-feira-do-teste-{today}.pdf")]


def test_a_report_that_no_program_opens_says_so(app_ready, qtbot, tmp_path, no_blocking_message_boxes):
    from views.reports_page import ReportsPage

    page = ReportsPage()
    qtbot.addWidget(page)
    page.open_file = lambda path: False  # no viewer for it on this desk
    written = tmp_path / "taxas-2026-09.xlsx"
    written.write_bytes(b"x")
    page._offer_open(written, True)
    assert any("Não há neste computador um programa que abra XLSX" in said for said in no_blocking_message_boxes)


def test_a_first_start_shows_the_first_steps_with_a_button_to_each_tab(window, qtbot):
    from PySide6.QtCore import Qt

    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.first_steps.isVisible()
    text = home.findChild(type(home.heading), "first-steps-text").text()
    assert "praca demo" in text
    assert "Usuários e perfis" in home.step_texts["users"].text()
    qtbot.mouseClick(home.step_buttons["users"], Qt.MouseButton.LeftButton)
    registry = window.pages["cadastros"]
    assert window.current_desk() == "cadastros" and registry.tabs.currentWidget() is registry.users
    from models.store.settings import MUNICIPALITY, STATE, set_settings

    set_settings({MUNICIPALITY: "Olímpia", STATE: "SP"})
    window.show_desk("painel")
    home.refresh()
    assert home.first_steps.isVisible() and home.step_marks["municipality"].text() == "✔"  # the other steps wait
    assert not home.step_buttons["municipality"].isVisibleTo(home) and not home.demo_hint.isVisibleTo(home)


def test_zoom_by_keyboard_centres_on_the_selected_stall(app_ready, qtbot, feira):
    from PySide6.QtCore import QPointF

    from views.map_editor import MapEditor

    editor = MapEditor()
    qtbot.addWidget(editor)
    editor.resize(1300, 700)
    editor.show()
    qtbot.waitExposed(editor)
    editor.load(feira.id)
    editor.view.fit()
    item = editor.items[uid_of(editor.plan, 4)]
    item.setSelected(True)
    editor.view.setFocus()
    before = editor.view.px_per_mm()
    for _ in range(3):
        editor.tools.action_zoom_in.trigger()  # Ctrl+= (Ctrl++), or the toolbar's Zoom +
    assert editor.view.px_per_mm() > before
    centre = editor.view.mapToScene(editor.view.viewport().rect().center())
    target = item.sceneBoundingRect().center()
    assert abs(centre.x() - target.x()) < 1_000 and abs(centre.y() - target.y()) < 1_000, (centre, target)
    assert isinstance(centre, QPointF)


def test_file_dialogs_remember_the_last_folder_for_each_kind_of_file(app_ready, qtbot, tmp_path, monkeypatch):
    """Issue 31 §6: the dialogs forgot the last folder. Each kind of file (here PDF, then CSV) starts where the
    clerk last chose one of that kind; another kind still starts in Documents; a folder gone, Documents again."""
    from PySide6.QtWidgets import QFileDialog, QWidget

    from views.save import ask_open_path, documents_folder, save_file_name

    chosen = tmp_path / "prefeitura" / "mapas"
    chosen.mkdir(parents=True)
    asked = []

    def dialog(*args, **_kw):
        asked.append(args[2])
        return str(chosen / "mapa.pdf"), args[3]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a[2]) or ("", ""))
    parent = QWidget()
    qtbot.addWidget(parent)
    save_file_name(parent, "Exportar mapa", "mapa-a.pdf", "PDF (*.pdf)")
    save_file_name(parent, "Exportar mapa", "mapa-b.pdf", "PDF (*.pdf);;PNG (*.png)")
    ask_open_path(parent, "Importar feriados", "Planilha CSV (*.csv)")
    assert asked == [str(documents_folder() / "mapa-a.pdf"), str(chosen / "mapa-b.pdf"), str(documents_folder())]
    chosen.rmdir()
    save_file_name(parent, "Exportar mapa", "mapa-c.pdf", "PDF (*.pdf)")
    assert asked[-1] == str(documents_folder() / "mapa-c.pdf")
