"""The data folder: AppLocalDataLocation, never a roaming profile; the old folder moved once, nothing lost."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths

from desktop import paths


def _old_folder(root: Path) -> Path:
    old = root / "Roaming" / "Praca" / "Praca"
    (old / "keys").mkdir(parents=True)
    (old / "praca.sqlite3").write_bytes(b"SQLite format 3\0 the database")
    (old / "praca.sqlite3-wal").write_bytes(b"the write-ahead log")
    (old / "keys" / "signing.pem").write_text("key")
    return old


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_data_folder_is_the_local_one(tmp_path, monkeypatch):
    """Told apart as on Windows, where AppDataLocation is the roaming profile and AppLocalDataLocation is not."""
    where = {
        QStandardPaths.StandardLocation.AppDataLocation: tmp_path / "Roaming",
        QStandardPaths.StandardLocation.AppLocalDataLocation: tmp_path / "Local",
    }
    monkeypatch.setattr(paths, "_checked_old_place", False)
    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(where[location]))
    assert paths.data_dir() == tmp_path / "Local"
    assert paths.data_dir().is_dir()
    assert paths.old_data_dirs() == [tmp_path / "Roaming"]


def test_an_old_folder_is_moved_whole(tmp_path):
    old = _old_folder(tmp_path)
    before = _tree(old)
    new = tmp_path / "Local" / "Praca" / "Praca"
    notice = paths.move_data_folder(old, new)
    assert notice == f"a pasta de dados do Praça foi movida de {old} para {new}."
    assert _tree(new) == before
    assert not old.exists()
    assert paths.move_data_folder(old, new) is None  # a second start finds nothing to move


def test_across_disks_each_entry_is_copied_then_removed(tmp_path, monkeypatch):
    old = _old_folder(tmp_path)
    before = _tree(old)
    new = tmp_path / "Local"

    def no_rename(src, dst):
        if Path(src).parent == old:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_replace(src, dst)

    real_replace = os.replace
    monkeypatch.setattr(paths.os, "replace", no_rename)
    assert paths.move_data_folder(old, new).startswith("a pasta de dados do Praça foi movida")
    assert _tree(new) == before
    assert not old.exists()
    assert not list(new.glob("*.moving"))


def test_a_copy_that_fails_leaves_the_entry_where_it_was(tmp_path, monkeypatch):
    old = _old_folder(tmp_path)
    new = tmp_path / "Local"
    monkeypatch.setattr(paths.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.EXDEV, "x")))

    def full_disk(src, dst, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(paths.shutil, "copy2", full_disk)
    monkeypatch.setattr(paths.shutil, "copytree", full_disk)
    assert paths.move_data_folder(old, new) is None
    assert (old / "praca.sqlite3").read_bytes().startswith(b"SQLite format 3")
    assert (old / "keys" / "signing.pem").exists()
    assert not list(new.iterdir())


def test_a_database_already_in_the_new_folder_is_kept_and_the_old_one_named(tmp_path):
    old = _old_folder(tmp_path)
    new = tmp_path / "Local"
    new.mkdir()
    (new / "praca.sqlite3").write_bytes(b"SQLite format 3\0 the newer one")
    notice = paths.move_data_folder(old, new)
    assert str(old / "praca.sqlite3") in notice and "não foi apagado" in notice
    assert (new / "praca.sqlite3").read_bytes().endswith(b"the newer one")
    assert (old / "praca.sqlite3").read_bytes().endswith(b"the database")


def test_an_entry_the_new_folder_has_stays_behind_and_is_named(tmp_path):
    old = _old_folder(tmp_path)
    new = tmp_path / "Local"
    (new / "keys").mkdir(parents=True)
    notice = paths.move_data_folder(old, new)
    assert notice.endswith(f"ficaram em {old}, por já existirem na nova pasta ou por erro: keys.")
    assert (new / "praca.sqlite3").exists() and (old / "keys" / "signing.pem").exists()


@pytest.mark.parametrize("setup", ["same", "missing", "empty"])
def test_nothing_to_move(tmp_path, setup):
    old = tmp_path / "data"
    if setup != "missing":
        old.mkdir()
    if setup == "same":
        (old / "praca.sqlite3").write_bytes(b"db")
    assert paths.move_data_folder(old, old if setup == "same" else tmp_path / "new") is None


def test_the_first_start_moves_the_old_folder_and_says_so(tmp_path, monkeypatch, capsys):
    old = _old_folder(tmp_path)
    local = tmp_path / "local"
    monkeypatch.setattr(paths, "_checked_old_place", False)
    monkeypatch.setattr(paths, "moved_notice", None)
    monkeypatch.setattr(paths, "old_data_dirs", lambda: [old])
    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(local))
    assert paths.default_db_url() == f"sqlite:///{local / 'praca.sqlite3'}"
    assert (local / "praca.sqlite3").read_bytes().startswith(b"SQLite format 3")
    assert paths.moved_notice.startswith("a pasta de dados do Praça foi movida")
    assert capsys.readouterr().err == f"praca: {paths.moved_notice}\n"
    paths.data_dir()
    assert capsys.readouterr().err == ""  # once per start


# --------------------------------------------------------------------------- issue 32 §5: one database for the desk


def _places(monkeypatch, root: Path) -> dict:
    where = {
        QStandardPaths.StandardLocation.AppDataLocation: root / "Roaming",
        QStandardPaths.StandardLocation.AppLocalDataLocation: root / "Local",
    }
    monkeypatch.setattr(paths, "_checked_old_place", False)
    monkeypatch.setattr(paths, "moved_notice", None)
    monkeypatch.setattr(paths.QStandardPaths, "writableLocation", lambda location: str(where[location]))
    return where


def test_the_desks_folder_holds_everything_when_the_installer_set_it(tmp_path, monkeypatch):
    """PRACA_DATA (the Windows installer's "um banco para esta mesa", C:\\ProgramData\\Praca): the database, the
    backups, the scans and the keys are there, the same for every Windows user of the desk."""
    _places(monkeypatch, tmp_path)
    shared = tmp_path / "ProgramData" / "Praca"
    monkeypatch.setenv("PRACA_DATA", str(shared))
    assert paths.data_dir() == shared and shared.is_dir()
    assert paths.default_db_url() == f"sqlite:///{shared / 'praca.sqlite3'}"
    assert paths.backups_dir() == shared / "backups"
    assert paths.files_dir() == shared / "files" and paths.keys_dir() == shared / "keys"
    assert not (tmp_path / "Local").exists()  # nothing of the user's own folder is made
    assert paths.old_data_dirs() == [tmp_path / "Local", tmp_path / "Roaming"]
    monkeypatch.setenv("PRACA_DB", "postgresql://mesa01@servidor/praca")  # the server still wins for the records
    assert paths.default_db_url() == "postgresql://mesa01@servidor/praca"


def test_without_it_the_users_own_folder_as_before(tmp_path, monkeypatch):
    _places(monkeypatch, tmp_path)
    monkeypatch.setenv("PRACA_DATA", "  ")
    assert paths.data_dir() == tmp_path / "Local"
    assert paths.backups_dir() == tmp_path / "Local" / "backups"
    assert paths.old_data_dirs() == [tmp_path / "Roaming"]


def test_a_users_own_database_moves_into_the_desks_folder_once(tmp_path, monkeypatch, capsys):
    """A desk upgraded from a database per user to one for the desk: the first user to start brings theirs (and
    says so); a second user who had one too is told where it stayed, and nothing of it is lost or merged."""
    _places(monkeypatch, tmp_path)
    first = _old_folder(tmp_path / "first")  # the first user's Local folder, with a database and keys
    before = _tree(first)
    monkeypatch.setattr(
        paths.QStandardPaths,
        "writableLocation",
        lambda location: str(
            first if location == QStandardPaths.StandardLocation.AppLocalDataLocation else tmp_path / "none"
        ),
    )
    shared = tmp_path / "ProgramData" / "Praca"
    monkeypatch.setenv("PRACA_DATA", str(shared))
    assert paths.default_db_url() == f"sqlite:///{shared / 'praca.sqlite3'}"
    assert _tree(shared) == before and not first.exists()
    assert paths.moved_notice == f"a pasta de dados do Praça foi movida de {first} para {shared}."
    assert capsys.readouterr().err == f"praca: {paths.moved_notice}\n"

    second = _old_folder(tmp_path / "second")  # another Windows user of the same desk, with a database of their own
    monkeypatch.setattr(paths, "_checked_old_place", False)
    monkeypatch.setattr(paths, "moved_notice", None)
    monkeypatch.setattr(
        paths.QStandardPaths,
        "writableLocation",
        lambda location: str(
            second if location == QStandardPaths.StandardLocation.AppLocalDataLocation else tmp_path / "none"
        ),
    )
    assert paths.data_dir() == shared
    assert str(second / "praca.sqlite3") in paths.moved_notice and "não foi apagado" in paths.moved_notice
    assert (second / "praca.sqlite3").read_bytes().endswith(b"the database")
    assert _tree(shared) == before  # the desk's database is the first user's, untouched
