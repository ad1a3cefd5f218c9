"""Issue 26 §6: nothing Praça writes replaces its own database, the database's journals, another Praça database, a
backup, or anything in the automatic backups' folder — whatever the path says (a symbolic link, ``..``).

Every file goes through ``models/store/outfile.py``; these tests drive each command and each domain call behind a
screen's "Salvar como" at the open SQLite database, by its path and by a link to it, and check that the database
is still there, whole, after one clear line (exit 2 on the command line).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
from factories import PASS, open_new_database, person, tpu

from desktop.cli import main
from models.base.errors import UserError
from models.store import outfile
from models.store.bootstrap import close_database, open_database


@pytest.fixture
def town(sqlite_database, tmp_path):
    """An SQLite database with a signing key, the demo's sites and one permit: what every output needs."""
    from models.access import signing_keys as sk
    from models.demo.sites import demo_sites
    from models.store.files import set_store

    set_store(tmp_path / "files")
    sk.create_key(PASS)
    demo_sites()
    permit = tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"), on=dt.date.today())
    from models.sites import Site

    site = Site.select().order_by(Site.id).first()
    close_database()
    return {
        "url": sqlite_database,
        "db": Path(sqlite_database[len("sqlite:///") :]),
        "permit": permit.number,
        "site": site.id,
    }


def _intact(town) -> None:
    """The database is still Praça's, with its permit."""
    from models.permits import Permit

    with town["db"].open("rb") as fh:
        assert fh.read(16) == b"SQLite format 3\x00"
    open_database(town["url"])
    try:
        assert Permit.select().where(Permit.number == town["permit"]).count() == 1
    finally:
        close_database()


def _commands(town) -> dict[str, list[str]]:
    return {
        "report fees xlsx": ["report", "fees", "--month", "2026-09", "--format", "xlsx"],
        "report fees pdf": ["report", "fees", "--month", "2026-09", "--format", "pdf"],
        "report fees html": ["report", "fees", "--month", "2026-09", "--format", "html"],
        "report sanctions": ["report", "sanctions", "--from", "01/01/2026", "--to", "31/03/2026", "--format", "pdf"],
        "verify-page": ["verify-page"],
        "layout export json": ["layout", "export", "--site", str(town["site"]), "--format", "json"],
        "layout export pdf": ["layout", "export", "--site", str(town["site"]), "--format", "pdf"],
        "permit print": ["permit", "print", "--number", town["permit"], "--what", "permit"],
        "permit card": ["permit", "print", "--number", town["permit"], "--what", "card"],
    }


COMMANDS = [
    "report fees xlsx",
    "report fees pdf",
    "report fees html",
    "report sanctions",
    "verify-page",
    "layout export json",
    "layout export pdf",
    "permit print",
    "permit card",
]


@pytest.mark.parametrize("how", ["path", "link", "dotdot"])
@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_writes_over_the_open_database(town, tmp_path, capsys, app_ready, command, how):
    db = town["db"]
    if how == "path":
        out = db
    elif how == "link":
        out = tmp_path / "atalho"  # no extension: each format accepts it
        out.symlink_to(db)
    else:
        (tmp_path / "sub").mkdir()
        out = tmp_path / "sub" / ".." / db.name
    capsys.readouterr()
    code = main(["--db", town["url"], *_commands(town)[command], "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "banco de dados" in err and "inesperado" not in err, err
    assert "gravad" not in capsys.readouterr().out
    if how == "link":
        assert out.is_symlink()
    _intact(town)


def test_the_open_database_and_its_journals_are_refused_in_process(town):
    """The open database's -wal, -shm and -journal, by path and through a link, for the writers a screen calls."""
    from models.store.audit import audit_rows, export_csv

    open_database(town["url"])
    try:
        db = town["db"]
        for suffix in ("", "-wal", "-shm", "-journal"):
            target = db.with_name(db.name + suffix)
            before = target.read_bytes() if target.exists() else None
            with pytest.raises(UserError, match="banco de dados aberto"):
                outfile.write_text(target, "x")
            with pytest.raises(UserError, match="banco de dados aberto"):
                export_csv(audit_rows(), target)
            assert (target.read_bytes() if target.exists() else None) == before
        link = db.parent / "trilha.csv"
        link.symlink_to(db)
        with pytest.raises(UserError, match="banco de dados aberto"):
            export_csv(audit_rows(), link)
        assert link.is_symlink()
    finally:
        close_database()
    _intact(town)


def test_a_hard_link_to_the_open_database_is_refused(town):
    db = town["db"]
    hard = db.parent / "copia.xlsx"
    hard.hardlink_to(db)
    open_database(town["url"])
    try:
        with pytest.raises(UserError, match="banco de dados aberto"):
            outfile.write_bytes(hard, b"PK")
    finally:
        close_database()
    _intact(town)


def test_the_screens_exports_refuse_the_database(town, app_ready):
    """What the Relatórios, Mapa, Permissões and import screens call to "Salvar como"."""
    from models.permits import find_permit, permit_document
    from models.services.importer import guess_mapping, save_mapping
    from models.sites import site_export
    from reports.fee_export import export_fee_report
    from reports.permit_docs import write_permit_pdf
    from reports.sanctions_export import export_sanctions_report
    from reports.site_map import write_pdf as write_map_pdf
    from reports.verify_page import write_verify_page

    open_database(town["url"])
    db = town["db"]
    try:
        doc = permit_document(find_permit(town["permit"]))
        export = site_export(town["site"])
        calls = {
            "fees": lambda out: export_fee_report(2026, 9, "xlsx", out),
            "sanctions": lambda out: export_sanctions_report(dt.date(2026, 1, 1), dt.date(2026, 3, 31), "html", out),
            "permit": lambda out: write_permit_pdf(doc, out),
            "map": lambda out: write_map_pdf(export, out),
            "verify page": lambda out: write_verify_page(out),
            "import mapping": lambda out: save_mapping(out, guess_mapping(["Nome", "CPF"])),
        }
        for name, call in calls.items():
            with pytest.raises(UserError, match="banco de dados"):
                call(db)
            link = db.parent / f"atalho-{name.replace(' ', '-')}"
            link.symlink_to(db)
            with pytest.raises(UserError, match="banco de dados"):
                call(link)
    finally:
        close_database()
    _intact(town)


def test_another_praca_database_is_refused_but_not_a_foreign_sqlite_file(database, tmp_path):
    """On either back end open: a Praça SQLite file anywhere is never replaced; an SQLite file of something else is
    only a file."""
    other = _praca_database(tmp_path / "outro.sqlite3")
    foreign = tmp_path / "agenda.db"
    with sqlite3.connect(foreign) as con:
        con.execute("CREATE TABLE contato (nome TEXT)")
    con.close()
    before = other.read_bytes()
    for target in (other, tmp_path / "sub" / ".." / "outro.sqlite3"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(UserError, match="é um banco de dados do Praça"):
            outfile.write_text(target, "relatório")
    assert other.read_bytes() == before
    outfile.write_text(foreign, "relatório")  # not Praça's: a file like any other
    assert foreign.read_text() == "relatório"


def test_a_backup_is_never_replaced_by_anything_but_a_backup(database, tmp_path):
    from models.store.backup import write_backup

    backup = write_backup(tmp_path / "praca.praca-backup").path
    renamed = tmp_path / "copia.zip"
    renamed.write_bytes(backup.read_bytes())
    before = backup.read_bytes()
    for target in (backup, renamed, tmp_path / "novo.praca-backup"):
        with pytest.raises(UserError, match="backup do Praça"):
            outfile.write_text(target, "relatório")
    assert backup.read_bytes() == before and not (tmp_path / "novo.praca-backup").exists()
    # the backup itself may write a backup file, as it always could (a new one, or the same name again)
    assert write_backup(tmp_path / "novo.praca-backup").path.exists()
    write_backup(backup)
    # but never over a Praça database
    other = _praca_database(tmp_path / "outro.sqlite3")
    with pytest.raises(UserError, match="é um banco de dados do Praça"):
        write_backup(other)


def _praca_database(path: Path) -> Path:
    """A new Praça SQLite database at ``path``, closed; the database the test had open is open again."""
    from models.store.db import current_url

    opened = current_url().raw
    close_database()
    open_new_database(f"sqlite:///{path}")
    close_database()
    open_database(opened)
    return path


def test_the_automatic_backups_folder_is_only_the_backups_own(database, tmp_path, capsys, monkeypatch):
    """Nothing but the daily backup (and the copy kept before a restore) writes inside the data folder's backups."""
    from desktop import paths
    from desktop.paths import backups_dir
    from models.store.backup import daily_backup

    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(tmp_path / "dados"))
    paths.protect_backups()  # as every start does (desktop/cli.py)

    folder = backups_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for target in (folder / "taxas.xlsx", folder / "sub" / ".." / "x.json"):
        with pytest.raises(UserError, match="pasta dos backups automáticos"):
            outfile.write_text(target, "x")
    link = tmp_path / "relatorio.html"
    link.symlink_to(folder / "alvo.html")
    with pytest.raises(UserError, match="pasta dos backups automáticos"):
        outfile.write_text(link, "x")
    code = main(["--db", database, "report", "fees", "--month", "2026-09", "--format", "html", "--out", str(link)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "pasta dos backups automáticos" in err, err
    code = main(["--db", database, "backup", "--unsigned", "--out", str(folder / "meu.praca-backup")])
    err = capsys.readouterr().err
    assert code == 2 and "pasta dos backups automáticos" in err, err
    assert sorted(p.name for p in folder.iterdir()) == []
    if database.startswith("sqlite"):  # the daily backup is the embedded database's
        open_database(database)  # (each command closed it)
        result = daily_backup(folder, today=dt.date(2026, 9, 1))
        assert result.written is not None and result.written.parent == folder
