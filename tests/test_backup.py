"""Backups: the portable file, its checks, all-or-nothing restores on both back ends, daily rotation, CLI, menu."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest
from factories import open_new_database
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.demo import fill_demo
from models.store import backup, schema
from models.store.backup import BackupError, read_backup, restore_backup, rotation_keep, write_backup
from models.store.bootstrap import close_database, open_database
from models.store.sealed import Trust

UNSIGNED_OK = Trust(accept_unsigned=True)  # these tests write unsigned backups (models.store.sealed is tested apart)

TODAY = dt.date(2026, 11, 30)


# --------------------------------------------------------------------------- helpers


def snapshot() -> dict[str, list]:
    """Every table's rows of the open database, encoded as in a backup."""
    _version, tables = backup.snapshot_data()
    rows = {name: t.rows for name, t in tables.items()}
    audit = tables.get("audit_entry")
    if audit is not None:  # a restore adds its own entry to the restored trail: compare the rest
        action = [c for c, _k in audit.columns].index("action")
        rows["audit_entry"] = [r for r in audit.rows if r[action] != "restore"]
    if "praca_meta" in rows:  # a database keeps its own identity through a restore (issue 26 §1): compare the rest
        rows["praca_meta"] = [r for r in rows["praca_meta"] if r[0] != "database_id"]
    checkpoints = tables.get("audit_checkpoint")
    if checkpoints is not None:  # each backup and each restore pins the trail's head: compare the others
        occasion = [c for c, _k in checkpoints.columns].index("occasion")
        rows["audit_checkpoint"] = [r for r in checkpoints.rows if r[occasion] not in ("backup", "restore")]
    return rows


def sqlite_url_in(folder: Path, name: str) -> str:
    return f"sqlite:///{folder / name}"


def rewrite(path: Path, dest: Path, *, manifest=None, payload: bytes | None = None, fix_sha: bool = False) -> Path:
    """A copy of a backup with its manifest and/or payload changed."""
    with zipfile.ZipFile(path) as zf:
        old_manifest = json.loads(zf.read("manifest.json"))
        old_payload = zf.read("data.jsonl")
    manifest = manifest(old_manifest) if callable(manifest) else (manifest or old_manifest)
    payload = old_payload if payload is None else payload
    if fix_sha:  # as one who changed the data on purpose would: the checksum and the size recomputed
        manifest["payload_sha256"] = hashlib.sha256(payload).hexdigest()
        manifest["payload_bytes"] = len(payload)
    with zipfile.ZipFile(dest, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        zf.writestr("data.jsonl", payload)
    return dest


@pytest.fixture
def small(database):
    """An open database (both back ends) with a few people and companies."""
    fill_demo(people=6, companies=2, permits=False)
    return database


# --------------------------------------------------------------------------- round trips


def test_round_trip_gives_identical_data_on_both_back_ends(demo_database, tmp_path):
    """The full demo (permits, charges, self-references, money, dates) out and back in: every row the same."""
    before = snapshot()
    first = tmp_path / "a.praca-backup"
    info = write_backup(first, app_version="t")
    assert info.counts["person"] == 240 and info.total == sum(len(r) for n, r in before.items() if n != "praca_meta")
    # money as integer centavos, decimals as their exact text
    data = read_backup(first)
    charge = data.tables["charge"]
    money = [i for i, (_c, kind) in enumerate(charge.columns) if kind == "centavos"]
    assert money and all(isinstance(row[i], int) for row in charge.rows for i in money if row[i] is not None)
    front = data.tables["permit"].column_names.index("front")
    assert any(isinstance(row[front], str) and "." in row[front] for row in data.tables["permit"].rows)
    close_database()

    # into a new embedded database (a PostgreSQL backup into SQLite when the run has PostgreSQL)
    open_database(sqlite_url_in(tmp_path, "other.sqlite3"), create=True)
    result = restore_backup(first, trust=UNSIGNED_OK)
    assert result.replaced == {} and result.kept_copy is None
    assert snapshot() == before
    second = tmp_path / "b.praca-backup"
    write_backup(second)
    close_database()

    # and back over the original database (SQLite into the first back end), replacing what it holds
    open_database(demo_database.url, create=True)
    kept = tmp_path / "kept.praca-backup"
    result = restore_backup(second, force=True, keep_current=kept, trust=UNSIGNED_OK)
    assert snapshot() == before
    assert result.replaced["person"] == 240
    # the same data — and one checkpoint more: writing ``first`` pinned the trail's head in the database
    assert read_backup(kept).counts == {**read_backup(first).counts, "audit_checkpoint": 1}

    # the sequences follow the restored ids: a new person gets a fresh id
    from models.registry.people import Person, PersonInput, save_person

    top = max(p.id for p in Person.select())
    person = save_person(PersonInput(name="Nova Pessoa Depois", cpf="529.982.247-25"), today=TODAY)
    assert person.id > top


def test_manifest_describes_the_file(small, tmp_path):
    path = write_backup(tmp_path / "x.praca-backup", app_version="9.9").path
    with zipfile.ZipFile(path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        payload = zf.read("data.jsonl")
    assert manifest["format"] == "praca-backup" and manifest["format_version"] == 1
    assert manifest["schema_version"] == schema.LATEST
    assert manifest["source_backend"] in ("sqlite", "postgresql")
    assert manifest["app_version"] == "9.9"
    assert dt.datetime.fromisoformat(manifest["created_at"]).tzinfo is not None
    assert manifest["payload_sha256"] == hashlib.sha256(payload).hexdigest()
    assert set(manifest["tables"]) == {m._meta.table_name for m in schema.TABLES}
    assert manifest["tables"]["person"]["rows"] == 6
    assert ["id", "int"] in manifest["tables"]["person"]["columns"]
    lines = payload.decode().splitlines()
    assert sum(1 for line in lines if json.loads(line)[0] == "person") == 6


def test_sqlite_backup_while_another_desk_writes(sqlite_url, tmp_path):
    """The backup reads what is committed, while another connection holds a write transaction."""
    open_database(sqlite_url, create=True)
    fill_demo(people=4, companies=1, permits=False)
    other = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=1)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE person SET name = 'Ainda Não Gravado' WHERE id = 1")
    try:
        path = write_backup(tmp_path / "live.praca-backup").path
    finally:
        other.rollback()
        other.close()
    names = [
        row[read_backup(path).tables["person"].column_names.index("name")]
        for row in read_backup(path).tables["person"].rows
    ]
    assert len(names) == 4 and "Ainda Não Gravado" not in names


# --------------------------------------------------------------------------- refusals


@pytest.fixture
def good_file(small, tmp_path):
    return write_backup(tmp_path / "good.praca-backup").path


def _refused(path, message_part: str) -> str:
    before = snapshot()
    with pytest.raises(BackupError) as caught:
        restore_backup(path, force=True, trust=UNSIGNED_OK)
    text = caught.value.message
    assert message_part.lower() in text.lower()
    assert "\n" not in text
    assert snapshot() == before  # nothing changed
    return text


def test_corrupted_payload_is_refused(good_file, tmp_path):
    with zipfile.ZipFile(good_file) as zf:
        payload = zf.read("data.jsonl")
    tampered = payload.replace(b'"person",[1,', b'"person",[7,', 1)
    assert tampered != payload
    bad = rewrite(good_file, tmp_path / "bad.praca-backup", payload=tampered)
    _refused(bad, "corrompido (a soma de verificação SHA-256 não confere)")


def test_truncated_file_is_refused(good_file, tmp_path):
    data = good_file.read_bytes()
    cut = tmp_path / "cut.praca-backup"
    cut.write_bytes(data[: len(data) // 2])
    text = _refused(cut, "cut.praca-backup")
    assert "não é um backup do Praça" in text or "corrompido" in text


@pytest.mark.parametrize("what", ["text", "xlsx", "sqlite", "other-zip", "empty"])
def test_foreign_files_are_refused_with_one_line(small, tmp_path, what):
    path = tmp_path / f"coisa-{what}.praca-backup"
    if what == "text":
        path.write_text("nome;cpf\nMaria;123\n", encoding="utf-8")
    elif what == "xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        book.active.append(["Nome", "CPF"])
        book.save(path)
    elif what == "sqlite":
        con = sqlite3.connect(path)
        con.execute("create table x (a)")
        con.commit()
        con.close()
    elif what == "other-zip":
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("manifest.json", json.dumps({"format": "outro-programa", "version": 1}))
    else:
        path.write_bytes(b"")
    text = _refused(path, "nada foi alterado")
    if what == "sqlite":
        assert "banco de dados, não um backup" in text
    else:
        assert "não é um backup do Praça" in text


def test_newer_schema_is_refused(good_file, tmp_path):
    def newer(manifest):
        manifest["schema_version"] = schema.LATEST + 1
        return manifest

    bad = rewrite(good_file, tmp_path / "newer.praca-backup", manifest=newer)
    _refused(bad, f"esquema versão {schema.LATEST + 1}")


def test_newer_format_is_refused(good_file, tmp_path):
    def newer(manifest):
        manifest["format_version"] = 2
        return manifest

    _refused(rewrite(good_file, tmp_path / "f2.praca-backup", manifest=newer), "formato de backup versão 2")


def test_wrong_row_count_is_refused(good_file, tmp_path):
    def more(manifest):
        manifest["tables"]["person"]["rows"] += 1
        return manifest

    _refused(rewrite(good_file, tmp_path / "n.praca-backup", manifest=more), "a tabela person tem 6 linhas")


def test_a_restore_that_fails_midway_changes_nothing(good_file, tmp_path):
    """A backup whose rows the database refuses (a repeated CPF) leaves every table as it was."""
    with zipfile.ZipFile(good_file) as zf:
        lines = zf.read("data.jsonl").decode().splitlines()
    people = [json.loads(line) for line in lines if json.loads(line)[0] == "person"]
    clash = people[1]
    cpf_index = read_backup(good_file).tables["person"].column_names.index("cpf")
    clash[1][cpf_index] = people[0][1][cpf_index]
    lines = [
        json.dumps(clash) if json.loads(line)[0] == "person" and json.loads(line)[1][0] == clash[1][0] else line
        for line in lines
    ]
    bad = rewrite(good_file, tmp_path / "clash.praca-backup", payload=("\n".join(lines) + "\n").encode(), fix_sha=True)
    _refused(bad, "recusou o conteúdo")


def test_non_empty_database_is_refused_unless_forced(good_file, tmp_path):
    before = snapshot()
    with pytest.raises(UserError) as caught:
        restore_backup(good_file, trust=UNSIGNED_OK)
    assert "já tem dados (6 pessoas, 2 empresas" in caught.value.message
    assert "--force" in caught.value.message
    assert snapshot() == before
    kept = tmp_path / "antes.praca-backup"
    result = restore_backup(good_file, force=True, keep_current=kept, trust=UNSIGNED_OK)
    assert result.kept_copy == kept and kept.exists()
    assert snapshot() == before


def test_a_role_without_backup_is_refused(good_file, tmp_path):
    from models.access import session

    clerk = session.Session(None, "ana", "Ana Clara", "atendente")
    with session.acting_as(clerk):
        with pytest.raises(session.PermissionDenied):
            write_backup(tmp_path / "no.praca-backup")
        with pytest.raises(session.PermissionDenied):
            restore_backup(good_file, force=True, trust=UNSIGNED_OK)
    assert not (tmp_path / "no.praca-backup").exists()


def test_an_older_backup_is_migrated_after_restoring(good_file, tmp_path, db_url):
    """A version-3 backup (before the household columns of v4) restores and goes through the migrations."""
    v4_person = {
        "phone2",
        "disabled",
        "disability_notes",
        "family_income_mw",
        "housing",
        "experience_years",
        "photo_path",
        "photo_sha256",
        "search_name",
    }
    v3_tables = {"praca_meta", "setting", "person", "company", "fiscal_unit_value", "index_correction"}
    original = read_backup(good_file)
    manifest = json.loads(json.dumps(original.manifest))
    out_lines = []
    keep_columns = {}
    for name in list(manifest["tables"]):
        if name not in v3_tables:
            del manifest["tables"][name]
            continue
        columns = manifest["tables"][name]["columns"]
        drop = v4_person if name == "person" else ({"search_name"} if name == "company" else set())
        keep_columns[name] = [i for i, (c, _k) in enumerate(columns) if c not in drop]
        manifest["tables"][name]["columns"] = [columns[i] for i in keep_columns[name]]
    for name, table in original.tables.items():
        if name not in v3_tables:
            continue
        for row in table.rows:
            if name == "praca_meta" and row[0] == "schema_version":
                row = ["schema_version", "3"]
            out_lines.append(json.dumps([name, [row[i] for i in keep_columns[name]]], ensure_ascii=False))
    manifest["schema_version"] = 3
    payload = ("\n".join(out_lines) + "\n").encode()
    old = rewrite(good_file, tmp_path / "v3.praca-backup", manifest=manifest, payload=payload, fix_sha=True)
    close_database()
    open_database(sqlite_url_in(tmp_path, "from-v3.sqlite3"), create=True)
    result = restore_backup(old, trust=UNSIGNED_OK)
    assert result.from_version == 3 and result.upgraded
    from models.base.text import search_key
    from models.registry.people import Company, Person

    people = list(Person.select())
    assert len(people) == 6 and all(p.search_name == search_key(p.name) for p in people)
    assert all(c.search_name for c in Company.select())
    assert schema.read_version(schema.Meta._meta.database.obj) == schema.LATEST


# --------------------------------------------------------------------------- daily backups and rotation

dates = st.lists(st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2027, 12, 31)), max_size=80)


@settings(max_examples=300, deadline=None)
@given(dates, st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2027, 12, 31)))
def test_rotation_rule(days, today):
    keep = rotation_keep(days, today)
    distinct = sorted(set(days), reverse=True)
    assert keep <= set(distinct)
    assert set(distinct[:7]) <= keep  # the 7 newest (daily)
    assert {d for d in distinct if d > today - dt.timedelta(days=7)} <= keep  # never inside the window or future
    older = [d for d in distinct[7:] if d not in keep]
    weekly = [d for d in keep if d not in distinct[:7] and d <= today - dt.timedelta(days=7)]
    weeks = [tuple(d.isocalendar())[:2] for d in weekly]
    assert len(weeks) == len(set(weeks)) and len(weeks) <= 4  # one per week, at most 4 weeks
    for d in weekly:  # the weekly one is the newest of its week among the older ones
        assert not any(o > d and tuple(o.isocalendar())[:2] == tuple(d.isocalendar())[:2] for o in older)
    assert rotation_keep(keep, today) == keep  # rotating again deletes nothing more


def test_a_desk_used_every_day_keeps_7_daily_and_4_weekly():
    kept: set[dt.date] = set()
    start = dt.date(2026, 1, 1)
    for n in range(120):
        today = start + dt.timedelta(days=n)
        kept = rotation_keep(kept | {today}, today)
    today = start + dt.timedelta(days=119)
    assert len(kept) == 11
    assert {today - dt.timedelta(days=i) for i in range(7)} <= kept
    weekly = sorted(kept - {today - dt.timedelta(days=i) for i in range(7)})
    # the newest of each older week: Sundays, but for the week the daily ones have begun to cover
    assert all(d.weekday() == 6 for d in weekly[:-1])
    assert weekly[-1] == today - dt.timedelta(days=7) or weekly[-1].weekday() == 6
    assert len({tuple(d.isocalendar())[:2] for d in weekly}) == 4


def test_daily_backup_once_a_day_with_rotation(sqlite_url, tmp_path):
    open_database(sqlite_url, create=True)
    fill_demo(people=3, companies=1, permits=False)
    folder = tmp_path / "backups"
    folder.mkdir()
    old_days = [TODAY - dt.timedelta(days=i) for i in range(1, 60)]
    for day in old_days:
        (folder / backup.auto_backup_name("praca", day)).write_bytes(b"x")
    mine = folder / "guardado-a-mao.praca-backup"
    mine.write_bytes(b"y")
    other_db = folder / backup.auto_backup_name("outro", TODAY - dt.timedelta(days=50))
    other_db.write_bytes(b"z")

    first = backup.daily_backup(folder, today=TODAY)
    assert first.written == folder / "auto-praca-2026-11-30.praca-backup"
    assert read_backup(first.written).counts["person"] == 3
    left = backup.auto_backups(folder, "praca")
    assert set(left) == rotation_keep([TODAY, *old_days], TODAY) and len(left) == 11
    assert mine.exists() and other_db.exists()  # not ours to rotate

    again = backup.daily_backup(folder, today=TODAY)
    assert again.written is None and again.deleted == ()


def test_daily_backup_skips_postgresql(database, tmp_path):
    if database.startswith("sqlite"):
        assert backup.daily_backup(tmp_path / "b", today=TODAY).written is not None
    else:
        assert backup.daily_backup(tmp_path / "b", today=TODAY).written is None


def test_app_start_makes_the_daily_backup(app_ready, sqlite_database, tmp_path, monkeypatch, queries):
    """…on a worker (issue 27 §5): the backup and the trail's checkpoint run no statement on the GUI thread."""
    from desktop import app, paths

    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    queries.entries.clear()
    queries.screens.clear()
    app.daily_backup_at_start()
    assert len(list((tmp_path / "backups").glob("auto-praca-*.praca-backup"))) == 1
    assert queries.entries and queries.on_gui_thread() == []


# --------------------------------------------------------------------------- command line


def test_cli_backup_and_restore(tmp_path, capsys):
    from desktop.cli import main

    source = sqlite_url_in(tmp_path, "source.sqlite3")
    assert main(["demo", "--db", source]) == 0
    capsys.readouterr()
    out = tmp_path / "copia.praca-backup"
    assert main(["backup", "--db", source, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Backup gravado em" in said and "240 pessoas" in said

    assert "assinado pela chave" in said  # the demo's municipal key, unlocked in this process
    assert main(["restore", str(out), "--check"]) == 0
    assert "O arquivo confere" in capsys.readouterr().out

    target = sqlite_url_in(tmp_path, "novo.sqlite3")
    assert main(["restore", "--db", target, str(out)]) == 2  # a new machine: the key must be confirmed
    err = capsys.readouterr().err
    fingerprint = err.split("--trust-fingerprint ")[1].split(".")[0]
    assert main(["restore", "--db", target, str(out), "--trust-fingerprint", fingerprint]) == 0
    said = capsys.readouterr().out
    assert "Backup restaurado" in said and "permissões conferem com as chaves da prefeitura." in said

    # the same again: the database is no longer empty
    assert main(["restore", "--db", target, str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "já tem dados" in err and "--force" in err

    assert main(["restore", "--db", target, str(out), "--force"]) == 0
    said = capsys.readouterr().out
    assert "foi guardado em" in said
    kept = Path(said.rsplit("foi guardado em ", 1)[1].split(". Assinaturas")[0].strip().rstrip("."))
    assert kept.exists() and read_backup(kept).counts["person"] == 240


@pytest.mark.parametrize(
    "args, message",
    [
        (["restore", "{tmp}/nada.praca-backup"], "Arquivo não encontrado"),
        (["restore", "{tmp}/lista.csv"], "não é um backup do Praça"),
        (["backup", "--out", "{tmp}/nao/existe/x.praca-backup"], "não existe"),
        (["backup"], "--out"),
    ],
)
def test_cli_bad_input_is_one_line(tmp_path, capsys, args, message):
    from desktop.cli import main

    (tmp_path / "lista.csv").write_text("nome;cpf\n", encoding="utf-8")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args] + ["--db", sqlite_url_in(tmp_path, "x.sqlite3")]
    assert main(["init", "--db", sqlite_url_in(tmp_path, "x.sqlite3")]) == 0
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_cli_backup_of_postgresql_restores_into_sqlite(database, tmp_path, capsys, monkeypatch):
    """Both ways through the command line: the database under test (either back end) → a file → SQLite."""
    from desktop.cli import main

    fill_demo(people=5, companies=2, permits=False)
    before = snapshot()
    close_database()
    out = tmp_path / "pg.praca-backup"
    assert main(["backup", "--db", database, "--out", str(out)]) == 2  # no key to sign with: said, not skipped
    assert "--unsigned" in capsys.readouterr().err
    assert main(["backup", "--db", database, "--out", str(out), "--unsigned"]) == 0
    target = sqlite_url_in(tmp_path, "fromcli.sqlite3")
    monkeypatch.setattr("desktop.commands.restore.ask", lambda prompt: "RESTAURAR\n")
    assert main(["restore", "--db", target, str(out), "--accept-unsigned"]) == 0
    open_new_database(target)
    assert snapshot() == before


# --------------------------------------------------------------------------- the menu actions


@pytest.fixture
def window(app_ready, qtbot, sqlite_database):
    from PySide6.QtCore import QSettings

    QSettings().clear()
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    return win


def test_menu_backup_then_restore_asks_and_says_what_is_replaced(
    window, tmp_path, monkeypatch, no_blocking_message_boxes, steps
):
    """…with no statement on the GUI thread (issue 27 §5): the backup, the file's check and the count of what it
    replaces, the restore and the window's refresh after it all run on workers."""
    from PySide6.QtWidgets import QFileDialog

    from desktop import paths

    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    fill_demo(people=4, companies=1, permits=False)
    before = snapshot()
    file = tmp_path / "menu.praca-backup"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(file), ""))
    with steps("fazer backup"):
        window.action_backup.trigger()
    assert read_backup(file).counts["person"] == 4

    from models.registry.people import Person

    Person.update(name="Nome Trocado Depois").where(Person.id == 1).execute()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(file), ""))
    import views.login

    logins = []
    monkeypatch.setattr(views.login, "log_in_at_start", lambda *a, **k: logins.append(1) or True)
    with steps("restaurar"):
        window.action_restore.trigger()
    steps.check()
    question = no_blocking_message_boxes[-1]
    assert "SUBSTITUI todos os dados" in question and "4 pessoas" in question
    assert snapshot() == before  # answered Yes: restored
    assert logins == [1]  # the users are the restored ones: log in again
    from models.store.audit import AuditEntry

    assert AuditEntry.get(AuditEntry.action == "restore").note.startswith("restaurado o backup menu.praca-backup")
    assert list((tmp_path / "backups").glob("antes-da-restauracao-*.praca-backup"))


def test_menu_restore_refuses_a_foreign_file(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    bad = tmp_path / "planilha.xlsx"
    bad.write_bytes(b"PK\x03\x04 nada")
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    window.action_restore.trigger()
    assert warnings and "não é um backup do Praça" in warnings[0]


def test_menu_restore_can_be_declined(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    fill_demo(people=2, companies=1, permits=False)
    file = write_backup(tmp_path / "d.praca-backup").path
    from models.registry.people import Person

    Person.update(name="Fica Como Está").where(Person.id == 1).execute()
    before = snapshot()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(file), ""))
    window.action_restore.trigger()
    assert snapshot() == before


@pytest.fixture
def window_on(app_ready, qtbot, db_url):
    """The main window on SQLite and on PostgreSQL (the restore locks PostgreSQL's tables in the worker)."""
    from PySide6.QtCore import QSettings

    QSettings().clear()
    open_new_database(db_url)
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    return win


def test_menu_restore_runs_off_the_gui_thread_and_cancelar_changes_nothing(
    window_on, tmp_path, monkeypatch, no_blocking_message_boxes
):
    """Issue 18 §2: the restore runs in a worker under a progress dialog; Cancelar rolls it back whole."""
    import threading

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QFileDialog

    import models.store.backup
    import views.login
    from desktop import paths
    from models.registry.people import Person
    from views import operations

    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    monkeypatch.setattr(views.login, "log_in_at_start", lambda *a, **k: True)
    fill_demo(people=3, companies=1, permits=False)
    file = write_backup(tmp_path / "c.praca-backup").path
    Person.update(name="Fica Como Está").where(Person.id == 1).execute()
    before = snapshot()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(file), ""))
    real, seen = models.store.backup.restore_backup, []

    def spy(*args, **kwargs):
        seen.append(
            (
                threading.current_thread() is threading.main_thread(),
                operations.current is not None and operations.current.dialog.labelText(),
            )
        )
        return real(*args, **kwargs)

    monkeypatch.setattr(models.store.backup, "restore_backup", spy)

    # Cancelar pressed on the progress dialog as soon as it exists (the file is checked on a worker first): the
    # first table is never written
    def cancel_when_shown():
        if operations.current is None:
            QTimer.singleShot(0, cancel_when_shown)
        else:
            operations.current.dialog.cancel()

    QTimer.singleShot(0, cancel_when_shown)
    window_on.action_restore.trigger()
    assert seen == []  # cancelled before the restore began
    assert snapshot() == before
    assert "cancelada" in window_on.statusBar().currentMessage()
    window_on.action_restore.trigger()  # again, to the end: in the worker thread, under "Restaurando o backup…"
    assert seen[-1] == (False, "Restaurando o backup…")
    assert Person.get_by_id(1).name != "Fica Como Está"  # restored


def test_a_restored_database_keeps_its_own_identity_and_the_backups_logins_are_not_its(database, tmp_path):
    """Issue 26 §1: the identity a login carries is the database's, not its contents': a backup of another
    database restored here leaves this database's identity, and a session made on that other one stays refused."""
    from models.access import session
    from models.access.users import authenticate, create_user
    from models.store.db import current_database_id, db, read_database_id

    other = sqlite_url_in(tmp_path, "outro.sqlite3")
    open_database(other, create=True)
    create_user(username="eve", name="Eve", role="administrador", password="senha-forte-123")
    with session.acting_as(None):
        eve = authenticate("eve", "senha-forte-123").as_session()
    out = tmp_path / "outro.praca-backup"
    write_backup(out, check_role=False)
    close_database()
    open_database(database)
    mine = current_database_id()
    restore_backup(out, trust=UNSIGNED_OK)
    assert read_database_id(db.obj) == mine != eve.database_id
    with session.acting_as(eve), pytest.raises(session.PermissionDenied, match="outro banco de dados"):
        session.require("people.save")
