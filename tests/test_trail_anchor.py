"""A trail anchored outside the database (issue 26 §3): signed checkpoints of the chain's head in the database,
beside the daily backups, in every backup's manifest; guards that refuse REPLACE and upserts, reinstalled when
missing; ``praca audit verify`` naming what was deleted or rewritten; a restore that never re-links a broken chain.

Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL — the attacks as an insider with
the database's own credentials would run them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
import zipfile

import pytest
from factories import PASS, new_cpf, open_new_database
from peewee import DatabaseError as PeeweeError
from peewee import PostgresqlDatabase

from desktop.cli import main
from models.access import signing_keys as sk
from models.access.users import create_user
from models.registry.people import PersonInput, save_person
from models.store import checkpoints
from models.store.audit import GUARD_REPAIRS, AuditEntry, entry_hash, guard_problems, verify_chain
from models.store.backup import BackupError, daily_backup, restore_backup, write_backup
from models.store.bootstrap import close_database, open_database
from models.store.db import db
from models.store.sealed import Trust

PASSWORD = "senha-forte-123"


def _people(n: int, prefix: str = "Pessoa") -> None:
    for i in range(n):
        save_person(PersonInput(name=f"{prefix} {chr(65 + i)} da Silva", cpf=new_cpf(), birth_date=dt.date(1980, 1, 1)))


def _ids() -> list[int]:
    return [e.id for e in AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id)]


def _pg() -> bool:
    return isinstance(db.obj, PostgresqlDatabase)


def _drop_guards() -> None:
    """What an insider with the owner's credentials does first: the guards of the trail and its checkpoints go."""
    with db.atomic():
        if _pg():
            for name, table in (
                ("audit_entry_append_only", "audit_entry"),
                ("audit_checkpoint_append_only", "audit_checkpoint"),
            ):
                db.obj.execute_sql(f'DROP TRIGGER {name} ON "{table}"')
        else:
            for name in ("audit_entry_no_delete", "audit_entry_no_update", "audit_checkpoint_no_delete"):
                db.obj.execute_sql(f'DROP TRIGGER "{name}"')


def _reopen(url: str) -> None:
    close_database()
    open_database(url)


# --------------------------------------------------------------------------- REPLACE, upserts, entries out of order


def test_replace_upserts_and_entries_before_the_last_are_refused(database):
    """SQLite's REPLACE deletes the row it replaces without firing a DELETE trigger (recursive_triggers off): it
    passed the old guards and rewrote an entry. Now every form is refused, on the trail and on its checkpoints."""
    _people(3)
    checkpoints.make("manual")
    ids = _ids()
    first = AuditEntry.get_by_id(ids[0])
    fields = '"at", "username", "table_name", "record_id", "action", "before", "after", "note", "prev_hash", "hash"'
    columns = f'"id", {fields}'

    def copy(new_id: str, username: str = "'eve'") -> str:
        chosen = fields.replace('"username"', username)
        return f'SELECT {new_id}, {chosen} FROM "audit_entry" WHERE "id" = {ids[0]}'

    checkpoint_columns = '"id", "entry_id", "entry_hash", "at", "source", "occasion"'
    checkpoint_copy = 'SELECT "id", 1, \'x\', "at", \'\', \'forjado\' FROM "audit_checkpoint" ORDER BY "id" LIMIT 1'
    same = copy('"id"')
    attacks = [
        f'INSERT INTO "audit_entry" ({columns}) {same} ON CONFLICT ("id") DO UPDATE SET "username" = \'eve\'',
        f'INSERT INTO "audit_checkpoint" ({checkpoint_columns}) {checkpoint_copy} '
        'ON CONFLICT ("id") DO UPDATE SET "entry_hash" = \'x\'',
        f'INSERT INTO "audit_entry" ({columns}) {copy("-5")}',  # before the first
        f'INSERT INTO "audit_entry" ({columns}) {copy("0")}',
    ]
    if not _pg():
        attacks += [
            f'REPLACE INTO "audit_entry" ({columns}) {same}',
            f'INSERT OR REPLACE INTO "audit_entry" ({columns}) {same}',
            f'REPLACE INTO "audit_checkpoint" ({checkpoint_columns}) {checkpoint_copy}',
        ]
    for sql in attacks:
        with pytest.raises(PeeweeError, match="só aceita inclusões"), db.atomic():
            db.obj.execute_sql(sql)
    assert AuditEntry.get_by_id(ids[0]).username == first.username
    assert _ids() == ids and verify_chain().intact and not guard_problems(db.obj)
    assert checkpoints.trail_report().intact


# --------------------------------------------------------------------------- a guard dropped, the newest deleted


def test_dropping_a_guard_and_deleting_the_newest_entries_is_reported_by_number(database, tmp_path):
    """Before, a chain cut at its end still verified ("íntegra") and nobody noticed the missing trigger. Now the
    guard is reinstalled at the next open — in the trail and on the Painel — and the checkpoint outside the
    database names the entries deleted, even when the checkpoints in the database were deleted too."""
    _people(4)
    folder = tmp_path / "backups"
    pinned = checkpoints.make("daily")
    checkpoints.append_file(folder, pinned)
    ids = _ids()
    assert pinned.entry == ids[-1]
    _drop_guards()
    with db.atomic():  # the newest two entries, and the checkpoints the database held, go
        db.obj.execute_sql(f'DELETE FROM "audit_entry" WHERE "id" >= {ids[-2]}')
        db.obj.execute_sql('DELETE FROM "audit_checkpoint"')
    assert verify_chain().intact  # the chain alone cannot tell: it ends earlier, that is all
    _reopen(database)
    assert GUARD_REPAIRS and "reinstaladas" in GUARD_REPAIRS[0]
    assert not guard_problems(db.obj)
    repaired = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    assert repaired.action == "guard" and "audit_entry" in repaired.note and repaired.username == "sistema"
    with pytest.raises(PeeweeError), db.atomic():
        db.obj.execute_sql(f'DELETE FROM "audit_entry" WHERE "id" = {ids[0]}')
    report = checkpoints.trail_report([checkpoints.read_file(checkpoints.anchor_file(folder))])
    assert not report.intact
    text = "\n".join(report.lines())
    if _pg():  # the sequence goes on: the guard's entry is after the checkpoint's
        assert f"os registros nº {ids[-2]} a nº {ids[-1]} foram apagados" in text
    else:  # SQLite gives the next entry the first free number: the guard's entry took nº ids[-2]
        assert f"o registro nº {ids[-1]} foi apagado — a trilha termina no nº {ids[-2]}" in text
    assert "reinstaladas" in text and any("reinstaladas" in problem for problem in report.problems)
    _reopen(database)  # the next open finds the guards in place; the trail keeps the record of the repair
    again = checkpoints.trail_report()
    assert not again.repaired and any("reinstaladas" in line for line in again.past_repairs)


def test_the_newest_entries_deleted_are_named_by_praca_audit_verify(database, tmp_path, capsys, monkeypatch):
    """The command line: the file beside the daily backups is found by itself; a file given with --checkpoint
    (a copy kept elsewhere) counts too."""
    from desktop.paths import data_dir
    from models.store.db import parse_url

    monkeypatch.setenv("PRACA_USER", "admin")
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    create_user(username="admin", name="Administradora", role="administrador", password=PASSWORD)
    from models.access.session import acting_as
    from models.access.users import User

    with acting_as(User.get(User.username == "admin").as_session()):
        _people(3)
    close_database()
    assert main(["audit", "checkpoint", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "Ponto de controle gravado" in out and "NÃO assinado" in out
    anchor = checkpoints.anchor_file(data_dir() / "backups", parse_url(database))
    assert anchor.is_file()
    kept = tmp_path / "pendrive.jsonl"
    kept.write_bytes(anchor.read_bytes())
    assert main(["audit", "verify", "--db", database]) == 0
    assert "chega ao ponto de controle mais recente" in capsys.readouterr().out
    open_database(database)
    last = _ids()[-1]
    _drop_guards()
    with db.atomic():
        db.obj.execute_sql(f'DELETE FROM "audit_entry" WHERE "id" >= {last - 1}')
        db.obj.execute_sql('DELETE FROM "audit_checkpoint"')
    close_database()
    anchor.unlink()  # the attacker found the file beside the backups too: the copy given by hand still tells
    assert main(["audit", "verify", "--db", database, "--checkpoint", str(kept)]) == 1
    out = capsys.readouterr().out
    assert f"registros nº {last - 1} a nº {last} foram apagados" in out or f"o registro nº {last} foi apagado" in out
    assert "reinstaladas" in out  # the guards dropped: put back at the open, and said
    assert main(["audit", "verify", "--db", database, "--checkpoint", str(kept), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["intact"] is False and data["problems"]


# --------------------------------------------------------------------------- rewriting and re-hashing


def _rewrite(entry_id: int, note: str) -> None:
    """Rewrite one entry and recompute every hash after it: the chain verifies again, only a checkpoint tells."""
    _drop_guards()
    rows = list(AuditEntry.select().where(AuditEntry.id >= entry_id).order_by(AuditEntry.id).dicts())
    prev = AuditEntry.get_by_id(entry_id - 1).hash if entry_id > 1 else ""
    with db.atomic():
        for row in rows:
            if row["id"] == entry_id:
                row["note"] = note
            digest = entry_hash(prev, row)
            db.obj.execute_sql(
                'UPDATE "audit_entry" SET "note" = %s, "prev_hash" = %s, "hash" = %s WHERE "id" = %s'.replace(
                    "%s", "?" if not _pg() else "%s"
                ),
                (row["note"], prev, digest, row["id"]),
            )
            prev = digest


def test_an_entry_rewritten_and_rehashed_is_caught_by_the_signed_checkpoint(database):
    sk.create_key(PASS)
    _people(2, "Antes")
    early = checkpoints.make("daily")
    _people(2, "Depois")
    late = checkpoints.make("backup")
    assert early.signed and late.signed and checkpoints.signature_status(late, sk.key_ring()) == "valid"
    target = early.entry + 2
    _rewrite(target, "nada aconteceu")
    assert verify_chain().intact  # re-hashed: the chain alone verifies
    _reopen(database)
    report = checkpoints.trail_report()
    assert not report.intact
    text = "\n".join(report.problems)
    assert f"entre o nº {early.entry + 1} e o nº {late.entry}" in text and "reescrito" in text
    assert "confere" in "\n".join(report.lines())  # the earlier checkpoint still matches


def test_a_backup_of_the_data_folder_names_the_entry_rewritten(database, tmp_path):
    """Between two checkpoints the rewritten entry is named from a backup that proves its own trail (a chain up to
    its manifest's checkpoint, signed by the municipality's key)."""
    from models.store.backup import backup_trails

    sk.create_key(PASS)
    _people(2, "Antes")
    early = checkpoints.make("daily")
    _people(3, "Depois")
    folder = tmp_path / "backups"
    folder.mkdir()
    write_backup(folder / "copia.praca-backup", signer=sk.municipal_signer())
    target = early.entry + 2
    _rewrite(target, "nada aconteceu")
    _reopen(database)
    report = checkpoints.trail_report(references=lambda: backup_trails(folder))
    assert any(f"o primeiro registro diferente é o nº {target}, que foi reescrito" in p for p in report.problems)
    forged = tmp_path / "forjado.praca-backup"  # a backup whose trail does not prove itself is no reference
    _break_backup(folder / "copia.praca-backup", forged)
    assert list(backup_trails(tmp_path / "nada", [forged])) == []


def test_a_forged_checkpoint_is_told_apart(database, tmp_path):
    sk.create_key(PASS)
    _people(2)
    made = checkpoints.make("manual")
    forged = dict(made.to_json(), entry=made.entry + 5)
    path = tmp_path / "forjado.jsonl"
    path.write_text(json.dumps(forged) + "\n" + "isto não é json\n", encoding="utf-8")
    found = checkpoints.read_file(path)
    assert len(found.checkpoints) == 1 and found.unreadable
    assert checkpoints.signature_status(found.checkpoints[0], sk.key_ring()) == "bad"
    report = checkpoints.trail_report([found])
    assert not report.intact and any("NÃO confere" in p for p in report.problems)


def test_a_desk_that_cannot_sign_says_so_in_the_checkpoint(database):
    sk.create_key(PASS)
    sk.forget()  # the key is locked on this desk
    _people(1)
    made = checkpoints.make("daily")
    assert not made.signed and "bloqueada nesta mesa" in made.unsigned_reason
    assert "NÃO assinada (a chave da prefeitura está bloqueada nesta mesa" in checkpoints.footer_text()
    assert checkpoints.trail_report().intact


# --------------------------------------------------------------------------- backups carry the checkpoints


def test_every_backup_carries_a_checkpoint_and_the_daily_file_is_kept_beside_them(database, tmp_path):
    sk.create_key(PASS)
    _people(2)
    path = tmp_path / "copia.praca-backup"
    write_backup(path, signer=sk.municipal_signer())
    with zipfile.ZipFile(path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    pinned = checkpoints.Checkpoint.from_json(manifest["audit_checkpoint"])
    last = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    assert (pinned.entry, pinned.hash) == (last.id, last.hash) and pinned.signed
    assert checkpoints.newest_stored() == pinned
    if _pg():
        return  # the daily backup is the embedded database's
    folder = tmp_path / "backups"
    result = daily_backup(folder, today=dt.date.today())
    assert result.written is not None
    anchor = checkpoints.anchor_file(folder)
    lines = anchor.read_text(encoding="utf-8").splitlines()
    assert lines and json.loads(lines[-1])["occasion"] == "backup"
    if os.name != "nt":
        assert stat.S_IMODE(anchor.stat().st_mode) == 0o600
    from models.store.backup import checkpoints_beside

    beside = checkpoints_beside(folder)
    assert sum(len(found.checkpoints) for found in beside) >= 2  # the file and the backup's manifest
    assert checkpoints.trail_report(beside).intact


def test_the_day_has_a_checkpoint_even_without_a_backup(database, tmp_path):
    _people(1)
    folder = tmp_path / "backups"
    from models.store.backup import daily_checkpoint

    first = daily_checkpoint(folder)
    assert first is not None and checkpoints.anchor_file(folder).is_file()
    assert daily_checkpoint(folder) is None  # one a day (an unsigned one is replaced only by a signed one)


# --------------------------------------------------------------------------- restoring a broken trail


def _break_backup(path, out) -> int:
    """Change one audit entry's note in a backup's data (and the checksum): the chain breaks at that entry."""
    with zipfile.ZipFile(path) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    lines = members["data.jsonl"].decode("utf-8").splitlines()
    manifest = json.loads(members["manifest.json"])
    columns = [c for c, _k in manifest["tables"]["audit_entry"]["columns"]]
    broken = None
    for i, line in enumerate(lines):
        table, row = json.loads(line)
        if table == "audit_entry" and broken is None and row[columns.index("id")] > 1:
            row[columns.index("note")] = "reescrito"
            broken = row[columns.index("id")]
            lines[i] = json.dumps([table, row], ensure_ascii=False, separators=(",", ":"))
    payload = ("\n".join(lines) + "\n").encode("utf-8")
    manifest["payload_sha256"] = hashlib.sha256(payload).hexdigest()
    manifest["payload_bytes"] = len(payload)
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=2).encode())
        zf.writestr("data.jsonl", payload)
    assert broken is not None
    return broken


def test_a_restore_never_relinks_a_broken_chain(database, tmp_path):
    """Before, the restore re-sealed the backup's trail and ``audit verify`` then said "íntegra". Now such a
    backup is refused; accepted by the administrator, the trail says it was restored broken, and where, and
    stays broken at that entry."""
    _people(3)
    path = tmp_path / "copia.praca-backup"
    write_backup(path)
    bad = tmp_path / "rompido.praca-backup"
    broken = _break_backup(path, bad)
    trust = Trust(accept_unsigned=True)
    with pytest.raises(BackupError, match=f"trilha de auditoria rompida: no registro nº {broken}"):
        restore_backup(bad, force=True, trust=trust)
    with pytest.raises(BackupError, match="--accept-broken-trail"):
        restore_backup(bad, force=True, trust=trust, accept_broken_trail=lambda where: False)
    assert verify_chain().intact  # refused: nothing touched
    result = restore_backup(bad, force=True, trust=trust, accept_broken_trail=True)
    assert f"nº {broken}" in result.broken_trail
    state = verify_chain()
    assert not state.intact and state.first_bad == broken  # never re-linked
    last = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    assert last.action == "restore" and "ROMPIDA" in last.note and f"nº {broken}" in last.note
    assert "a trilha substituída terminava no registro nº" in last.note


def test_praca_restore_asks_before_restoring_a_broken_trail(db_url, tmp_path, capsys, monkeypatch):
    open_database(db_url, create=True)
    create_user(username="admin", name="Administradora", role="administrador", password=PASSWORD)
    _people(2)
    path = tmp_path / "copia.praca-backup"
    write_backup(path, check_role=False)
    close_database()
    bad = tmp_path / "rompido.praca-backup"
    broken = _break_backup(path, bad)
    target = f"sqlite:///{tmp_path / 'novo.sqlite3'}"
    monkeypatch.setattr("desktop.commands.restore.ask", lambda prompt: "RESTAURAR\n")
    assert main(["restore", "--db", target, str(bad), "--accept-unsigned"]) == 2
    assert "rompida" in capsys.readouterr().err
    answers = iter(["RESTAURAR\n", "não\n"])
    monkeypatch.setattr("desktop.commands.restore.ask", lambda prompt: next(answers))
    assert main(["restore", "--db", target, str(bad), "--accept-unsigned", "--accept-broken-trail"]) == 2
    assert "não confirmada" in capsys.readouterr().err
    monkeypatch.setattr("desktop.commands.restore.ask", lambda prompt: "RESTAURAR\n")
    assert main(["restore", "--db", target, str(bad), "--accept-unsigned", "--accept-broken-trail"]) == 0
    assert "rompida" in capsys.readouterr().out
    open_database(target)
    assert verify_chain().first_bad == broken
    close_database()


@pytest.fixture
def window(app_ready, qtbot, sqlite_database):
    from PySide6.QtCore import QSettings

    QSettings().clear()
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    return win


def test_the_window_asks_before_restoring_a_broken_trail(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from desktop import paths

    monkeypatch.setattr(paths, "data_dir", lambda: tmp_path)
    _people(3)
    bad = tmp_path / "rompido.praca-backup"
    broken = _break_backup(write_backup(tmp_path / "copia.praca-backup").path, bad)
    said: list[str] = []
    answers: list[QMessageBox.StandardButton] = []

    def question(*args, **kwargs):
        said.append(args[2])
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: said.append(a[2]))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    import views.login

    monkeypatch.setattr(views.login, "log_in_at_start", lambda *a, **k: True)
    yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
    answers[:] = [yes, no]  # restore? yes — the trail is broken: restore anyway? no
    window.action_restore.trigger()
    assert any("trilha de auditoria deste backup está rompida" in text for text in said)
    assert said[-1].endswith("Nada foi alterado.")
    assert verify_chain().intact
    said.clear()
    answers[:] = [yes, yes]
    window.action_restore.trigger()
    assert verify_chain().first_bad == broken
    last = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    assert last.action == "restore" and "ROMPIDA" in last.note


def test_the_painel_says_a_guard_was_missing_and_put_back(database, app_ready, qtbot):
    from views.home import HomePage

    _people(1)
    page = HomePage()
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    assert not page.guard_notice.isVisible()
    _drop_guards()
    _reopen(database)
    page.refresh()
    assert page.guard_notice.isVisible() and "reinstaladas" in page.guard_notice.text()
    assert "audit_entry_" in page.guard_notice.text()
    _reopen(database)  # put back: the next open finds nothing to say
    page.refresh()
    assert not page.guard_notice.isVisible()


# --------------------------------------------------------------------------- printed reports carry it


def test_printed_reports_carry_the_signed_checkpoint_at_the_foot(database, tmp_path, app_ready):
    import shutil

    import openpyxl
    from reports_read import pdf_pages

    from models.billing.fee_report import fee_report
    from reports.fee_report_html import fee_report_html, write_fee_report_pdf
    from reports.fee_report_xlsx import write_fee_report_xlsx

    sk.create_key(PASS)
    _people(2)
    report = fee_report(2026, 9, today=dt.date(2026, 9, 30))
    html = fee_report_html(report)
    pinned = checkpoints.newest_stored()
    last = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    assert pinned is not None and (pinned.entry, pinned.hash) == (last.id, last.hash) and pinned.signed
    expected = f"Trilha de auditoria nº {last.id} · hash {last.hash[:16]}"
    assert expected in html and f"assinada pela chave {pinned.key_id}" in html
    assert html.count(expected) == 2  # the foot of every printed page (@page) and the end of the document
    book = openpyxl.load_workbook(write_fee_report_xlsx(report, tmp_path / "taxas.xlsx"))
    assert all(expected in sheet.oddFooter.center.text for sheet in book.worksheets)
    assert checkpoints.newest_stored() == pinned  # the head did not move: no new checkpoint for each page
    if shutil.which("pdftotext") is not None:
        _sizes, text = pdf_pages(write_fee_report_pdf(report, tmp_path / "taxas.pdf"))
        assert f"Trilha de auditoria nº {last.id}" in " ".join(text.split())


def test_checkpoints_of_a_trail_a_restore_replaced_are_set_aside_only_under_a_signed_checkpoint(database, tmp_path):
    """Restoring an older backup legitimately ends the trail earlier than the checkpoints made since: those are
    set aside — named — when a valid signed checkpoint covers the restore; without one they stay a problem."""
    sk.create_key(PASS)
    _people(2, "Antes")
    older = write_backup(tmp_path / "antigo.praca-backup", signer=sk.municipal_signer()).path
    _people(3, "Depois")
    folder = tmp_path / "backups"
    later = checkpoints.make("daily")
    checkpoints.append_file(folder, later)
    sk.forget()  # restored on a desk that cannot sign: the restore's checkpoint is unsigned
    result = restore_backup(older, force=True, trust=Trust(sk.key_ring()))
    assert result.checkpoint is not None and not result.checkpoint.signed
    outside = [checkpoints.read_file(checkpoints.anchor_file(folder))]
    report = checkpoints.trail_report(outside)
    assert not report.intact and any(f"nº {later.entry}" in p for p in report.problems)
    sk.unlock(PASS)
    signed = checkpoints.make("manual")  # the administrator signs the restored trail's head
    assert signed.signed
    report = checkpoints.trail_report(outside)
    assert report.intact
    assert any(v.state == "superseded" and "restauração de backup" in v.text for v in report.verdicts)


def test_a_guard_is_reinstalled_whoever_was_logged_in_elsewhere(database, tmp_path):
    """The repair is the system's act at the open: a login made on another database (which this open ends) does
    not stop it."""
    from models.access.session import acting_as
    from models.access.users import User

    _people(1)
    _drop_guards()
    close_database()
    other = f"sqlite:///{tmp_path / 'outro.sqlite3'}"
    open_new_database(other)
    create_user(username="eva", name="Eva", role="administrador", password=PASSWORD)
    elsewhere = User.get(User.username == "eva").as_session()
    close_database()
    with acting_as(elsewhere):
        open_database(database)
        assert GUARD_REPAIRS and "reinstaladas" in GUARD_REPAIRS[0]
    assert not guard_problems(db.obj)
