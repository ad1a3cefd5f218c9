"""Issue 26 §6: the embedded database, its write-ahead log and its shared memory are readable by their owner only
(0600), and the data folder is the owner's only (0700) — when they are made and at every start, where a file an
older Praça left readable by all is fixed quietly, with a line in the log."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from desktop.cli import main
from models.store.bootstrap import close_database, open_database


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask():
    """The usual umask of a desk (022): what SQLite and mkdir would give others without Praça's care."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _files(db: Path) -> dict[str, int]:
    return {p.name: _mode(p) for p in db.parent.iterdir() if p.name.startswith(db.name) and p.is_file()}


def test_praca_init_makes_the_database_owner_only(tmp_path, open_umask, capsys):
    db = tmp_path / "praca.sqlite3"
    assert main(["--db", f"sqlite:///{db}", "init"]) == 0
    assert _files(db) == {"praca.sqlite3": 0o600}
    open_database(f"sqlite:///{db}")  # open: the WAL and its index exist, owner only as the database
    try:
        from models.store.settings import set_settings

        set_settings({"municipality": "Olímpia"})
        assert set(_files(db)) == {"praca.sqlite3", "praca.sqlite3-wal", "praca.sqlite3-shm"}
        assert set(_files(db).values()) == {0o600}
    finally:
        close_database()


def test_praca_demo_makes_the_database_owner_only(tmp_path, open_umask, capsys, monkeypatch):
    import desktop.commands.demo as demo

    def small_demo(**_kw):  # the modes are the database's, not the demo's data: a few rows are enough
        from models.store.settings import set_settings

        set_settings({"municipality": "Olímpia"})
        return {"people": 0, "companies": 0}

    monkeypatch.setattr(demo, "fill_demo", small_demo)
    db = tmp_path / "demo.sqlite3"
    assert main(["--db", f"sqlite:///{db}", "demo"]) == 0
    assert _files(db) == {"demo.sqlite3": 0o600}


def test_a_start_fixes_a_database_left_readable_by_all(tmp_path, open_umask, caplog):
    db = tmp_path / "praca.sqlite3"
    url = f"sqlite:///{db}"
    open_database(url, create=True)
    from models.store.settings import set_settings

    set_settings({"municipality": "Olímpia"})
    for path in db.parent.iterdir():  # as an older Praça left them: the database and its WAL 0644
        if path.name.startswith(db.name):
            os.chmod(path, 0o644)
    wal = db.with_name(db.name + "-wal")
    assert wal.exists()
    close_database()
    os.chmod(db, 0o644)
    with caplog.at_level(logging.INFO, logger="models.store.bootstrap"):
        open_database(url)
    try:
        assert set(_files(db).values()) == {0o600}, _files(db)
        assert any("0600" in r.getMessage() and db.name in r.getMessage() for r in caplog.records), caplog.text
    finally:
        close_database()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="models.store.bootstrap"):
        open_database(url)  # already right: nothing to say
    close_database()
    assert not caplog.records


def test_the_data_folder_is_the_owners_only(tmp_path, open_umask, monkeypatch, caplog):
    from PySide6.QtCore import QStandardPaths

    from desktop import paths

    where = tmp_path / "Local" / "Praca" / "Praca"
    monkeypatch.setattr(paths, "_checked_old_place", True)
    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(where))
    assert QStandardPaths is paths.QStandardPaths
    assert paths.data_dir() == where and _mode(where) == 0o700  # made so
    os.chmod(where, 0o755)  # as an older Praça left it
    with caplog.at_level(logging.INFO, logger="desktop.paths"):
        assert paths.data_dir() == where
    assert _mode(where) == 0o700
    assert any("0700" in r.getMessage() for r in caplog.records), caplog.text


def test_the_embedded_database_of_the_desk_is_owner_only(tmp_path, open_umask, monkeypatch, capsys):
    """``praca init`` with no ``--db``: the data folder and the database in it, as a desk's first start makes them."""
    from desktop import paths

    where = tmp_path / "dados"
    monkeypatch.setattr(paths, "_checked_old_place", True)
    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(where))
    assert main(["init"]) == 0
    assert _mode(where) == 0o700 and _mode(where / paths.DB_FILE) == 0o600


def test_a_copy_of_the_database_made_before_a_migration_is_owner_only(tmp_path, open_umask):
    """The copy aside (SQLite's online backup API) holds every record too."""
    from models.store.db import sqlite_copy_aside

    db = tmp_path / "praca.sqlite3"
    database = open_database(f"sqlite:///{db}", create=True)
    try:
        copy = sqlite_copy_aside(database, "pre-migration")
    finally:
        close_database()
    assert _mode(copy) == 0o600
