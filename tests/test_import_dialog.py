"""The import window, offscreen: file → mapping guessed → preview in red → import with progress → counts."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from conftest import run_modal
from factories import IMPORT_HEADER as HEADER
from factories import cpf_number as cpf
from factories import vendor_rows, write_csv, write_xlsx
from PySide6.QtCore import Qt

from models.services import importer
from views import theme
from views.import_dialog import ImportDialog, ImportWorker

TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def dialog(app_ready, qtbot, database, tmp_path):
    widget = ImportDialog(store=tmp_path / "mappings.json", today=TODAY)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def _table_rows(dialog) -> list[list[str]]:
    table = dialog.table
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_guess_preview_import_and_counts(dialog, qtbot, tmp_path, steps):
    """…with no statement on the GUI thread (issue 27 §5): the acts, the check and the import on workers."""
    from models.rules import acts

    acts.forget()  # the acts' cache cold, as after another desk installed one: read again, on a worker
    with steps("abrir"):
        qtbot.addWidget(ImportDialog(store=tmp_path / "mappings.json", today=TODAY))
    path = write_xlsx(tmp_path / "ambulantes.xlsx", vendor_rows())
    dialog.path_edit.setText(str(path))
    qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
    assert dialog.stack.currentIndex() == dialog.PAGE_MAPPING
    guessed = {key: combo.currentText() for key, combo in dialog.combos.items() if combo.currentData()}
    assert guessed == {
        "name": "Nome",
        "cpf": "CPF",
        "birth_date": "Data de Nascimento",
        "phone": "Telefone",
        "email": "E-mail",
        "district": "Bairro",
    }
    assert "as colunas reconhecidas pelo nome" in dialog.file_label.text()

    with steps("conferir as linhas"):
        qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
    assert dialog.stack.currentIndex() == dialog.PAGE_PREVIEW
    assert dialog.summary.text() == "2 linhas corretas, 3 com problemas."
    rows = {r[0]: r for r in _table_rows(dialog)}
    assert rows["2"][1] == "ok" and rows["2"][2] == "Maria da Silva"
    assert rows["5"][1] == "com problema" and rows["5"][5] == "CPF repetido: já está na linha 2."
    bad_item = dialog.table.item([r[0] for r in _table_rows(dialog)].index("5"), 5)
    assert bad_item.foreground().color() == theme.qcolour("error")
    from models.registry.people import Person

    assert Person.select().count() == 0  # nothing before the clerk confirms

    with steps("importar"), qtbot.waitSignal(dialog.imported, timeout=20000) as signal:
        qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)  # Importar (the question answers Yes)
    steps.check()
    result = signal.args[0]
    assert (result.people, result.skipped) == (2, 3)
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=5000)
    assert dialog.stack.currentIndex() == dialog.PAGE_DONE
    assert dialog.result_label.text() == "Importados: 2 pessoas, 0 empresas e 0 permissões. 3 linhas ficaram de fora."
    assert dialog.progress.value() == 2
    assert Person.select().count() == 2


def test_all_or_nothing_disables_import_when_a_row_is_bad(dialog, qtbot, tmp_path):
    dialog.open_file(write_csv(tmp_path / "v.csv", vendor_rows()))
    assert dialog.check_rows()
    assert dialog.next_button.isEnabled()
    dialog.mode_all.setChecked(True)
    assert not dialog.next_button.isEnabled()


def test_the_last_mapping_is_remembered_for_the_same_header(dialog, qtbot, tmp_path, app_ready):
    rows = [["Titular", "Documento", "Obs"], ["Maria da Silva", cpf(11), "x"]]
    path = write_csv(tmp_path / "m.csv", rows)
    dialog.open_file(path)
    assert not dialog.combos["cpf"].currentData()  # "Documento" guesses "CPF ou CNPJ"
    assert dialog.combos["cpf_cnpj"].currentText() == "Documento"
    dialog.combos["cpf_cnpj"].setCurrentIndex(0)
    dialog.combos["cpf"].setCurrentIndex(dialog.combos["cpf"].findData("Documento"))
    assert dialog.check_rows()

    again = ImportDialog(store=tmp_path / "mappings.json", today=TODAY)
    qtbot.addWidget(again)
    again.open_file(path)
    assert again.combos["cpf"].currentText() == "Documento"
    assert not again.combos["cpf_cnpj"].currentData()
    assert "da última vez" in again.file_label.text()


def test_mapping_saved_and_loaded_as_json(dialog, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    dialog.open_file(
        write_csv(
            tmp_path / "s.csv",
            [["Nome", "CPF", "Ramo", "Até", "De"], ["Maria da Silva", cpf(12), "Banana", "31/12/2026", "01/01/2026"]],
        )
    )
    dialog.regime_combo.setCurrentIndex(dialog.regime_combo.findData("sjc-2014"))
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("feirante"))
    dialog.combos["valid_until"].setCurrentIndex(dialog.combos["valid_until"].findData("Até"))
    dialog.combos["valid_from"].setCurrentIndex(dialog.combos["valid_from"].findData("De"))
    target = tmp_path / "saved.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    saved = importer.load_mapping(target)
    assert saved.defaults == {"regime": "sjc-2014", "permit_kind": "feirante"}
    assert saved.columns["line"] == "Ramo" and saved.columns["valid_until"] == "Até"

    dialog.regime_combo.setCurrentIndex(0)
    dialog.combos["line"].setCurrentIndex(0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(dialog.load_button, Qt.MouseButton.LeftButton)
    assert dialog.mapping() == saved
    assert dialog.check_rows()
    assert dialog.summary.text() == "1 linha correta (1 com permissão)."


def test_a_bad_mapping_is_said_at_the_bottom(dialog, tmp_path):
    dialog.open_file(write_csv(tmp_path / "n.csv", [["Nome", "Bairro"], ["Maria da Silva", "Centro"]]))
    assert not dialog.check_rows()
    assert "CPF" in dialog.error.text()
    assert dialog.stack.currentIndex() == dialog.PAGE_MAPPING


def test_an_unreadable_file_stays_on_the_first_page(dialog, tmp_path):
    bad = tmp_path / "velho.xls"
    bad.write_bytes(b"\xd0\xcf\x11\xe0")
    assert not dialog.open_file(bad)
    assert "salve a planilha como .xlsx ou .csv" in dialog.error.text()
    assert dialog.stack.currentIndex() == dialog.PAGE_FILE


def test_a_file_of_two_encodings_is_refused_at_the_first_page_naming_the_lines(dialog, tmp_path):
    """Issue 26 §7: a CSV with UTF-8 and Latin-1 rows was read whole as Windows-1252 ("JoÃ£o", "5 linhas
    corretas"); the window now stops at the file, naming the lines of each encoding, and nothing is imported."""
    path = tmp_path / "misto.csv"
    path.write_bytes(
        b"Nome;CPF\n"
        + f"João Araújo;{cpf(901)}\n".encode()
        + f"Conceição Brandão;{cpf(902)}\n".encode("latin-1")
        + f"Inês Guimarães;{cpf(903)}\n".encode()
    )
    assert not dialog.open_file(path)
    assert dialog.stack.currentIndex() == dialog.PAGE_FILE
    assert "misto.csv mistura codificações: a linha 3 não está em UTF-8" in dialog.error.text()
    assert "as linhas 2, 4 estão em UTF-8" in dialog.error.text()


def test_cancel_during_the_import_rolls_back(dialog, qtbot, tmp_path, monkeypatch):
    rows = [HEADER] + [[f"Pessoa Número{chr(65 + i)}", cpf(300 + i), "", "", "", ""] for i in range(5)]
    dialog.open_file(write_csv(tmp_path / "c.csv", rows))
    assert dialog.check_rows()
    release = threading.Event()
    original = ImportWorker._progress

    def slow(worker, done, total):
        answer = original(worker, done, total)
        if done == 2:
            release.wait(10)  # the clerk clicks Cancelar while the third row waits
            return not worker._cancelled
        return answer

    monkeypatch.setattr(ImportWorker, "_progress", slow)
    monkeypatch.setattr("models.services.importer.writing.BATCH_ROWS", 2)  # rows 1–2 are a batch staged already
    assert dialog.start_import()
    qtbot.waitUntil(lambda: dialog.progress.value() == 2, timeout=10000)
    from models.services.importer.staging import ImportRun, ImportStage

    assert ImportStage.select().count() == 1
    assert not dialog.close_button.isEnabled()
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=10000)
    assert dialog.result_label.text() == "Importação cancelada: nada foi gravado."
    assert dialog.import_result is None
    from models.registry.people import Person

    assert Person.select().count() == 0
    assert ImportRun.select().count() == ImportStage.select().count() == 0  # the staged batch is gone too


def test_menu_action_opens_the_import_window(app_ready, qtbot, sqlite_database, tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from desktop import paths
    from desktop.main_window import MainWindow

    QSettings().clear()
    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.action_import.isEnabled()
    assert window.action_import.text() == "&Importar ambulantes…"
    seen, _ = run_modal(window.action_import.trigger, lambda d: None)
    assert isinstance(seen, ImportDialog)
    assert seen.store == tmp_path / "import-mappings.json"
