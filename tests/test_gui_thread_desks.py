"""Issue 27 §5: no database on the GUI thread — every desk of the demo, every tab of it, its first row selected,
runs its reads on a worker thread (views/operations.py ``in_background``/``LatestQuery``); and the dialogs each
desk opens most (the application as filed, a new record and its follow-up, the sanctions' decision, the site
form, the return file, the import) open, read what they show and close with no statement on the GUI thread."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView, QTabWidget

from models.store.files import set_store


def _visit(widget, qtbot) -> None:
    """Every tab of every tab widget under ``widget``, the first row of every table shown selected."""
    for tabs in widget.findChildren(QTabWidget):
        for index in range(tabs.count()):
            if not tabs.isTabEnabled(index):
                continue
            tabs.setCurrentIndex(index)
            qtbot.wait(10)
            for table in tabs.widget(index).findChildren(QTableView):
                if table.isVisible() and table.model() is not None and table.model().rowCount() > 0:
                    table.selectRow(0)
                    qtbot.wait(10)


def _dialogs(window, opened: list[str]) -> dict[str, list[tuple[str, object]]]:
    """Each desk's dialogs, by desk: (what, open it and close it); ``opened`` hears each dialog that showed."""
    from models.access.signing_keys import MUNICIPAL_KEY
    from views.import_dialog import ImportDialog

    pages = window.pages

    def leave(what):
        def hook(dialog):
            settle = getattr(dialog, "settle", None)
            if settle is not None:
                settle()
            opened.append(what)
            dialog.reject()

        return hook

    def import_people():
        dialog = ImportDialog(window, key_dir=MUNICIPAL_KEY)
        leave("importar ambulantes")(dialog)

    records = pages["fiscalizacao"].records
    return {
        "atendimento": [
            ("o requerimento", lambda: pages["atendimento"].worklist.open_selected(dialog_hook=leave("o requerimento")))
        ],
        "mapas": [
            ("novo local", lambda: pages["mapas"].new_site(dialog_hook=leave("novo local"))),
            ("editar local", lambda: pages["mapas"].edit_site(dialog_hook=leave("editar local"))),
        ],
        "cobranca": [
            ("importar retorno", lambda: pages["cobranca"].charges.import_return(dialog_hook=leave("importar retorno")))
        ],
        "fiscalizacao": [
            ("novo auto", lambda: records.new_record(dialog_hook=leave("novo auto"))),
            ("seguimento", lambda: records.follow_up(dialog_hook=leave("seguimento"))),
            ("corrigir", lambda: records.correct_selected(dialog_hook=leave("corrigir"))),
            ("decidir sanções", lambda: records.decide_sanctions_selected(dialog_hook=leave("decidir sanções"))),
        ],
        "cadastros": [("importar ambulantes", import_people)],
    }


def test_no_desk_of_the_demo_reads_the_database_on_the_gui_thread(demo_database, app_ready, qtbot, tmp_path, queries):
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.wait(50)
    from models.rules import acts, holidays

    opened: list[str] = []
    dialogs = _dialogs(window, opened)
    for desk in window.desks:
        acts.forget()  # the caches cold, as after another desk's change: their reads must not come back here
        holidays.forget()
        window.show_desk(desk.key)
        qtbot.wait(50)
        _visit(window.pages[desk.key], qtbot)
        for _what, open_and_close in dialogs.get(desk.key, []):
            acts.forget()
            open_and_close()
    assert queries.screens == [], "\n".join(dict.fromkeys(queries.screens))
    assert opened == [what for desk in window.desks for what, _open in dialogs.get(desk.key, [])]
    window.close()
