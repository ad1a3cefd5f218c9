"""Records a municipality can trust (issue 16): no empty database taken for the real one, backups that keep
the data they held, personal data that never becomes code or garbage, clean errors.

Each test names the guarantee it holds; those with a database run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest

from models.demo import fill_demo

READ_COMMANDS = [
    ["sites"],
    ["report", "fees", "--month", "2026-03", "--format", "html", "--out", "{tmp}/taxas.html"],
    ["backup", "--out", "{tmp}/copia.praca-backup"],
    ["audit", "verify"],
    ["units"],
    ["layout", "export", "--site", "1", "--format", "json", "--out", "{tmp}/mapa.json"],
]


def _run(argv, capsys) -> tuple[int, str, str]:
    from desktop.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --------------------------------------------------------------------------- 2. no empty database taken for a real one


@pytest.mark.parametrize("argv", READ_COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("state", ["missing", "zero bytes"])
def test_a_missing_or_empty_sqlite_file_is_an_error_naming_it_and_stays_as_it_was(tmp_path, capsys, argv, state):
    """A mistyped path or a file emptied by accident is never given a fresh schema by a command that reads."""
    path = tmp_path / "praca.sqlite3"
    if state == "zero bytes":
        path.write_bytes(b"")
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--db", f"sqlite:///{path}"]
    code, out, err = _run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(path) in err and "praca init" in err
    if state == "missing":
        assert not path.exists()
        assert "Não há banco de dados do Praça" in err
    else:
        assert path.stat().st_size == 0
        assert "está vazio" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if state == "missing" else ["praca.sqlite3"])


def test_an_empty_postgresql_schema_is_not_given_one_by_a_command_that_reads(pg_schema_url, capsys):
    """A mistyped ?schema= (an empty schema) is an error naming it: no table is created there."""
    import psycopg2

    from models.store.db import parse_url

    code, _out, err = _run(["sites", "--db", pg_schema_url], capsys)
    assert code == 2 and "está vazio" in err and "praca init" in err
    target = parse_url(pg_schema_url)
    with psycopg2.connect(dbname=target.dbname, user=target.user, host=target.host, port=target.port) as conn:
        with conn.cursor() as cur:
            cur.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = %s", (target.schema,))
            assert cur.fetchone()[0] == 0


def test_praca_init_creates_a_database_once_and_then_the_commands_read_it(db_url, capsys):
    """``praca init`` is the explicit set-up; run again it changes nothing and says so."""
    code, out, _err = _run(["init", "--db", db_url], capsys)
    assert code == 0 and "criado" in out
    code, out, _err = _run(["init", "--db", db_url], capsys)
    assert code == 0 and "já é um banco de dados do Praça" in out
    code, out, err = _run(["sites", "--db", db_url], capsys)
    assert code == 0, err


def test_the_domain_creates_a_schema_only_when_asked(db_url):
    """``open_database`` refuses an empty database unless ``create=True``; created, it opens as it is."""
    from models.store.bootstrap import close_database, open_database
    from models.store.db import NoDatabase

    with pytest.raises(NoDatabase):
        open_database(db_url)
    open_database(db_url, create=True)
    close_database()
    open_database(db_url)  # a Praça database now: opens without create
    close_database()


def test_the_desk_asks_before_it_creates_a_database_and_creates_nothing_when_told_no(
    app_ready, qtbot, tmp_path, monkeypatch
):
    """The first start's explicit set-up: the clerk is asked; "Não" leaves no file and closes the window."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from desktop.main_window import MainWindow

    asked: list[str] = []

    def answer(choice):
        def box(parent, title, text, *args, **kwargs):
            asked.append(text)
            return choice

        return box

    path = tmp_path / "praca.sqlite3"
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    QSettings().clear()
    win = MainWindow(opening=f"sqlite:///{path}", log_in=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.exit_code is not None, timeout=10_000)
    assert win.exit_code == 0 and not path.exists()
    assert "Não há banco de dados do Praça" in asked[-1] and str(path) in asked[-1]

    path.write_bytes(b"")  # emptied by accident: the question warns that the data are gone
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    win = MainWindow(opening=f"sqlite:///{path}", log_in=False)
    qtbot.addWidget(win)
    with qtbot.waitSignal(win.started, timeout=10_000):
        win.show()
    assert "está vazio" in asked[-1] and "restaure um backup" in asked[-1]
    assert win.nav.isEnabled() and path.stat().st_size > 0


# --------------------------------------------------------------------------- 2. the daily backup's rotation


def _daily(folder: Path, day: _dt.date):
    from models.store.backup import daily_backup

    return daily_backup(folder, today=day, app_version="test")


def test_the_rotation_never_drops_the_backups_that_held_data_for_a_database_that_lost_them(sqlite_url, tmp_path):
    """A database that lost most of its rows since the last backup is reported, and the older backups stay."""
    from models.store.backup import auto_backups
    from models.store.bootstrap import close_database, open_database

    folder = tmp_path / "backups"
    open_database(sqlite_url, create=True)
    fill_demo(people=30, companies=4)
    start = _dt.date(2026, 3, 1)
    for offset in range(20):  # twenty days with the data: the rotation keeps its 7 + 4
        result = _daily(folder, start + _dt.timedelta(days=offset))
        assert result.shrunk is None
    held = dict(auto_backups(folder, "praca"))
    assert 8 <= len(held) <= 12
    close_database()

    Path(sqlite_url.removeprefix("sqlite:///")).unlink()  # the file replaced by an empty database
    open_database(sqlite_url, create=True)
    later = start + _dt.timedelta(days=20)
    first = _daily(folder, later)  # the day of the loss: said, with the figures
    assert first.shrunk is not None and first.deleted == ()
    assert "perdeu" in first.shrunk.text and f"{first.shrunk.previous_total:n}" in first.shrunk.text
    for offset in range(1, 12):  # twelve more days: the plain rotation would have removed every backup with data
        _daily(folder, later + _dt.timedelta(days=offset))
    kept = auto_backups(folder, "praca")
    assert set(held) <= set(kept)  # every backup that held the data is still there
    assert len(kept) <= len(held) + 11  # and the empty ones still rotate
    log = (folder / "backups.log").read_text(encoding="utf-8")
    assert "perdeu" in log and log.count("\n") >= 10


def test_a_shrunk_database_is_said_in_a_box_on_the_desk(app_ready, sqlite_url, no_blocking_message_boxes):
    """The desk's daily backup at start: the loss is shown to the clerk, not only written in the log."""
    from desktop.app import daily_backup_at_start
    from desktop.paths import data_dir
    from models.store.bootstrap import close_database, open_database

    open_database(sqlite_url, create=True)
    fill_demo(people=12, companies=2)
    _daily(data_dir() / "backups", _dt.date.today() - _dt.timedelta(days=1))
    close_database()
    Path(sqlite_url.removeprefix("sqlite:///")).unlink()
    open_database(sqlite_url, create=True)
    daily_backup_at_start()
    assert no_blocking_message_boxes and "perdeu a maior parte dos dados" in no_blocking_message_boxes[-1]


# --------------------------------------------------------------------------- 3. control characters, strict CSV


def test_a_control_character_is_refused_at_the_field_on_every_write(database):
    """C0/C1 controls never reach the database; the field and the character are named; a line break only where
    a field holds several lines."""
    from models.base.errors import FieldErrors
    from models.registry.people import Person, PersonInput, save_person

    data = PersonInput(name="Maria\x1b[31m Silva", cpf="52998224725", birth_date=_dt.date(1980, 5, 17))
    with pytest.raises(FieldErrors) as err:
        save_person(data, today=_dt.date(2026, 3, 1))
    assert "U+001B (ESC)" in err.value.errors["name"] and "posição 6" in err.value.errors["name"]
    for text in ("Maria\x85 Silva", "Maria\x00", "Maria\nSilva", "Maria\x7f"):
        with pytest.raises(FieldErrors) as err:
            save_person(
                PersonInput(name=text, cpf="52998224725", birth_date=_dt.date(1980, 5, 17)), today=_dt.date(2026, 3, 1)
            )
        assert "name" in err.value.errors
    assert Person.select().count() == 0


def test_the_person_form_names_the_control_character_at_the_name(app_ready, qtbot, database):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from models.registry.people import Person
    from views.person_form import PersonDialog

    dialog = PersonDialog(today=_dt.date(2026, 3, 1))
    qtbot.addWidget(dialog)
    dialog.findChild(QLineEdit, "name").insert("Maria \x1b]0;x\x07José")  # pasted: an escape sequence
    dialog.findChild(QLineEdit, "cpf").insert("52998224725")
    dialog.findChild(QLineEdit, "birth_date").insert("17051980")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.result() != dialog.DialogCode.Accepted and Person.select().count() == 0
    assert "U+001B (ESC)" in dialog.error.text()
    assert dialog.errors.widgets["name"].toolTip()
    dialog.dirty = False
    dialog.close()


@pytest.mark.parametrize(
    "text, message",
    [
        ('nome;cpf\n"Ana;52998224725\nBia;11144477735\nCris;39053344705\n', "linha 2: aspas abertas na coluna 1"),
        ('nome;cpf\nAna "Zé";52998224725\nBia;11144477735\n', "linha 2: aspas soltas na coluna 1"),
        ('nome;cpf\n"Ana" Maria;52998224725\n', "linha 2: texto depois das aspas"),
        (
            "nome;cpf\nAna;52998224725\nBia\x1b[2J;11144477735\n",
            "linha 3, coluna 1: O texto tem um caractere de controle U+001B (ESC)",
        ),
        ("nome;cpf\nAna\x1c;52998224725\n", "linha 2, coluna 1"),
    ],
)
def test_an_import_csv_is_read_strictly_naming_the_line(tmp_path, text, message):
    """A stray quote is an error naming the line, never a silent merge of the rows after it."""
    from models.base.errors import UserError
    from models.services.importer import read_sheet

    path = tmp_path / "ambulantes.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        read_sheet(path)
    assert message in err.value.message and "ambulantes.csv" in err.value.message


def test_a_good_csv_still_reads_quotes_and_doubled_quotes(tmp_path):
    from models.services.importer import read_sheet

    path = tmp_path / "ambulantes.csv"
    path.write_text(
        'nome;apelido;cpf\r\n"Silva; Ana";"o ""Zé""";52998224725\r\n\r\nBia;;11144477735\r\n', encoding="utf-8"
    )
    sheet = read_sheet(path)
    assert sheet.headers == ["nome", "apelido", "cpf"] and sheet.delimiter == ";"
    assert sheet.rows == [(2, ["Silva; Ana", 'o "Zé"', "52998224725"]), (4, ["Bia", "", "11144477735"])]


def test_the_draws_csv_is_read_strictly_too(tmp_path, capsys):
    """The merge of two participants by a stray quote (praca draw) is refused with the line."""
    path = tmp_path / "inscritos.csv"
    path.write_text('id,name\n1,"Ana\n2,Bia\n3,Cris"\n4,Duda\n', encoding="utf-8")
    code, out, err = _run(
        ["draw", "--regime", "sapezal-2014", "--input", str(path), "--vacancies", "1", "--seed", "1"], capsys
    )
    assert code == 2 and out == "" and "linha 2: aspas abertas" in err


def test_old_data_with_a_control_character_reaches_the_terminal_as_a_visible_symbol(database, capsys):
    """A name stored before the check (by an older Praça) is shown with ␛, never as an escape sequence."""
    from models.demo.sites import demo_sites
    from models.sites import Site
    from models.store.db import db

    demo_sites()
    site = Site.select().first()
    db.execute_sql(f"UPDATE site SET name = {db.param} WHERE id = {db.param}", (f"{site.name}\x1b[2J", site.id))
    code, out, err = _run(["sites", "--db", database], capsys)
    assert code == 0, err
    assert "\x1b" not in out and "\u241b[2J" in out


# --------------------------------------------------------------------------- 3. bounded archives


def _bomb(path: Path, member: str, size: int, head: bytes = b"", manifest: bytes | None = None) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        if manifest is not None:
            zf.writestr("manifest.json", manifest)
        with zf.open(member, "w", force_zip64=True) as fh:
            fh.write(head)
            block = b" " * (1024 * 1024)
            for _ in range(size // len(block)):
                fh.write(block)
    return path


def test_a_zip_bomb_backup_is_refused_before_it_is_decompressed(tmp_path):
    """A small backup that would unpack to hundreds of MB is refused from its sizes, with bounded memory."""
    import json
    import tracemalloc

    from models.base.errors import UserError
    from models.store.backup import read_backup

    manifest = {
        "format": "praca-backup",
        "format_version": 1,
        "schema_version": 1,
        "tables": {"praca_meta": {"rows": 1, "columns": [["key", "text"]]}},
        "payload": "data.jsonl",
        "payload_sha256": "0" * 64,
    }
    path = _bomb(
        tmp_path / "bomba.praca-backup", "data.jsonl", 300 * 1024 * 1024, manifest=json.dumps(manifest).encode()
    )
    assert path.stat().st_size < 2 * 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(UserError) as err:
            read_backup(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "bomba.praca-backup" in err.value.message and "descompactad" in err.value.message
    assert peak < 16 * 1024 * 1024


def test_a_backup_whose_data_outgrow_its_manifest_is_refused(tmp_path):
    """The data's size must be the manifest's and fit the rows it declares."""
    import json
    import zipfile

    from models.base.errors import UserError
    from models.store.backup import read_backup

    payload = b'["praca_meta",["app"]]\n' * 40_000
    manifest = {
        "format": "praca-backup",
        "format_version": 1,
        "schema_version": 1,
        "tables": {"praca_meta": {"rows": 1, "columns": [["key", "text"]]}},
        "payload": "data.jsonl",
        "payload_sha256": "0" * 64,
        "payload_bytes": 23,
    }
    path = tmp_path / "grande.praca-backup"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        zf.writestr("data.jsonl", payload)
    with pytest.raises(UserError) as err:
        read_backup(path)
    assert "o manifesto diz 23" in err.value.message


def test_a_zip_bomb_spreadsheet_is_refused_before_openpyxl_reads_it(tmp_path):
    """A 1 MB .xlsx whose sheet would unpack to 300 MB is refused at once by the import."""
    import zipfile

    import openpyxl

    from models.base.errors import UserError
    from models.services.importer import read_sheet

    good = tmp_path / "lista.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["nome", "cpf"])
    book.save(good)
    bomb = tmp_path / "bomba.xlsx"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                out.writestr(info, src.read(info))
    with (
        zipfile.ZipFile(bomb, "a", compression=zipfile.ZIP_DEFLATED) as zf,
        zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh,
    ):
        fh.write(
            b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
            b'main"><sheetData>'
        )
        for _ in range(300):
            fh.write(b" " * (1024 * 1024))
        fh.write(b"</sheetData></worksheet>")
    assert bomb.stat().st_size < 2 * 1024 * 1024
    with pytest.raises(UserError) as err:
        read_sheet(bomb)
    assert "bomba.xlsx" in err.value.message and "sheet1.xml" in err.value.message


def test_a_spreadsheet_cell_with_a_control_character_is_named(tmp_path):
    import openpyxl

    from models.base.errors import UserError
    from models.services.importer import read_sheet

    path = tmp_path / "lista.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["nome", "cpf"])
    book.active.append(["Ana", "52998224725"])
    book.active.append(["Bia\u009b31m", "11144477735"])  # a C1 CSI: openpyxl writes it, a terminal obeys it
    book.save(path)
    with pytest.raises(UserError) as err:
        read_sheet(path)
    assert "lista.xlsx, célula A3" in err.value.message and "U+009B" in err.value.message
