"""Issue 26 §8: a backup killed while it is written leaves its partial file readable by its owner only, and the next
run — the next backup there, or the next start — removes it, with a line in the log. A partial file that a live
writer still holds is never touched."""

from __future__ import annotations

import datetime as dt
import logging
import multiprocessing
import os
import signal
import stat
import time
from pathlib import Path

import pytest

from models.store import partial
from models.store.bootstrap import close_database, open_database

CTX = multiprocessing.get_context("spawn")


def _partials(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".partial"))


def _write_backup_then_hang(url: str, dest: str, reached) -> None:
    """A desk of its own: writes a backup and stops half-way through the file, to be killed there."""
    from models.access import session

    session.log_in(session.SYSTEM)
    open_database(url)
    real = Path.write_bytes

    def half_then_hang(self, data):
        if not self.name.endswith(".partial"):
            return real(self, data)
        with open(self, "wb") as fh:
            fh.write(data[: len(data) // 2])
            fh.flush()
            reached.set()
            time.sleep(600)  # killed here

    Path.write_bytes = half_then_hang  # type: ignore[method-assign]
    from models.store.backup import write_backup

    write_backup(dest)


def _kill_half_way(url: str, dest: Path) -> None:
    reached = CTX.Event()
    child = CTX.Process(target=_write_backup_then_hang, args=(url, str(dest), reached))
    child.start()
    deadline = time.monotonic() + 180
    while not reached.wait(0.2):
        assert child.is_alive(), f"the child ended before writing (exit code {child.exitcode})"
        assert time.monotonic() < deadline
    left = _partials(dest.parent)
    assert len(left) == 1 and stat.S_IMODE(left[0].stat().st_mode) == 0o600  # never readable by others meanwhile
    assert partial.is_live(left[0])  # a live writer holds it: nobody removes it now
    partial.sweep(dest.parent)
    assert _partials(dest.parent) == left
    os.kill(child.pid, signal.SIGKILL)
    child.join(30)
    assert child.exitcode == -signal.SIGKILL


@pytest.fixture
def filled(sqlite_url):
    from models.demo import fill_demo

    open_database(sqlite_url, create=True)
    fill_demo(people=4, companies=1, permits=False)
    close_database()
    return sqlite_url


def test_a_killed_backup_is_cleaned_up_by_the_next_backup(filled, tmp_path, caplog):
    from models.store.backup import write_backup

    out = tmp_path / "saida"
    out.mkdir()
    dest = out / "praca.praca-backup"
    _kill_half_way(filled, dest)
    left = _partials(out)
    assert len(left) == 1 and not dest.exists()
    assert not partial.is_live(left[0])
    open_database(filled)
    try:
        with caplog.at_level(logging.INFO, logger="models.store.partial"):
            write_backup(dest)
    finally:
        close_database()
    assert _partials(out) == [] and dest.exists()
    assert any(left[0].name in r.getMessage() for r in caplog.records), caplog.text


def test_a_killed_daily_backup_is_cleaned_up_at_the_next_start(filled, tmp_path):
    from models.store.backup import BACKUP_LOG, auto_backup_name, daily_backup

    folder = tmp_path / "backups"
    folder.mkdir()
    _kill_half_way(filled, folder / auto_backup_name("praca", dt.date(2026, 9, 1)))
    assert len(_partials(folder)) == 1
    open_database(filled)
    try:
        daily_backup(folder, today=dt.date(2026, 9, 1))  # the start's daily backup: the same day, again
    finally:
        close_database()
    assert _partials(folder) == []
    log = (folder / BACKUP_LOG).read_text(encoding="utf-8")
    assert "arquivo parcial" in log and "removido" in log, log


def test_a_start_removes_partial_copies_beside_the_database(filled, tmp_path, caplog):
    """A copy aside interrupted (before a migration): SQLite's online backup writes beside the database."""
    db = Path(filled.removeprefix("sqlite:///"))
    stale = partial.create(db.with_name(db.name + ".v20-20260901-101010.bak"))
    stale.write_bytes(b"SQLite format 3\x00 half a copy")
    partial.release(stale)
    assert stat.S_IMODE(stale.stat().st_mode) == 0o600
    with caplog.at_level(logging.INFO, logger="models.store.partial"):
        open_database(filled)
    close_database()
    assert not stale.exists()
    assert any(stale.name in r.getMessage() for r in caplog.records), caplog.text


def test_a_partial_someone_else_named_like_ours_but_not_ours_is_kept(tmp_path):
    """Only Praça's own pattern is swept: ``.NAME.XXXXXXXX.partial``."""
    mine = tmp_path / "notas.partial"
    mine.write_text("meu")
    other = tmp_path / ".notas.txt.partial"
    other.write_text("meu")
    partial.sweep(tmp_path)
    assert mine.exists() and other.exists()
