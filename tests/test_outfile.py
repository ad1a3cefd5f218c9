"""Issue 16 §1: a write that failed is never reported as done — every file aside, checked, synced, renamed."""

from __future__ import annotations

import os
import stat
import zipfile

import pytest

from desktop.cli import main
from models.base.errors import UserError
from models.store import outfile


def _left(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


def test_a_file_is_written_whole_owner_only_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "lista.txt"
    assert outfile.write_text(target, "Ana\n") == target
    assert target.read_text() == "Ana\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert _left(tmp_path) == []


def test_a_writer_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "relatorio.pdf"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), outfile.output(target) as tmp:
        tmp.write_bytes(b"%PDF-1.4 half")
        raise RuntimeError("painter died")
    assert target.read_bytes() == b"old" and _left(tmp_path) == []


@pytest.mark.parametrize(
    "kind,data,says",
    [
        ("pdf", b"", "vazio"),
        ("pdf", b"%PDF-1.4\n1 0 obj", "PDF ficou incompleto"),
        ("xlsx", b"PK\x03\x04 not a zip", "não se deixa reler"),
        ("png", b"\x89PNG\r\n\x1a\n....", "PNG ficou incompleta"),
        ("svg", b"<svg><g>", "SVG ficou incompleto"),
    ],
)
def test_an_incomplete_file_is_an_error_not_written(tmp_path, kind, data, says):
    target = tmp_path / f"saida.{kind}"
    with pytest.raises(outfile.WriteFailed, match=says):
        outfile.write_bytes(target, data)
    assert not target.exists() and _left(tmp_path) == []


def test_a_device_a_fifo_and_a_folder_are_refused(tmp_path):
    fifo = tmp_path / "fila"
    os.mkfifo(fifo)
    for target, says in ((fifo, "dispositivo ou fila"), (tmp_path, "é uma pasta"), ("/dev/full", "dispositivo")):
        with pytest.raises(outfile.WriteFailed, match=says):
            outfile.write_bytes(target, b"x")
    with pytest.raises(outfile.WriteFailed, match="não existe"):
        outfile.write_bytes(tmp_path / "nada" / "x.txt", b"x")


def test_a_symbolic_link_is_written_through_not_replaced(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("antes")
    link = tmp_path / "atalho.txt"
    link.symlink_to(real)
    outfile.write_text(link, "depois")
    assert link.is_symlink() and real.read_text() == "depois"


def test_a_full_disk_is_one_clear_error(tmp_path, monkeypatch):
    import errno

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outfile.os, "fsync", full)
    with pytest.raises(outfile.WriteFailed, match="o disco está cheio"):
        outfile.write_text(tmp_path / "a.txt", "x")
    assert _left(tmp_path) == [] and not (tmp_path / "a.txt").exists()


def test_reports_and_maps_refuse_a_device_on_the_command_line(database, capsys, tmp_path):
    for args in (
        ["report", "fees", "--month", "2026-09", "--format", "xlsx", "--out", "/dev/full"],
        ["backup", "--out", "/dev/full"],
        ["audit", "verify"],
    ):
        code = main(["--db", database, *args])
        err = capsys.readouterr().err
        if args[0] == "audit":
            assert code == 0
            continue
        assert code == 2 and err.count("\n") == 1 and "/dev/full" in err and "inesperado" not in err, err


def test_a_backup_is_owner_only_and_reads_back(database, tmp_path):
    from models.store.backup import write_backup

    info = write_backup(tmp_path / "b.praca-backup")
    assert stat.S_IMODE(info.path.stat().st_mode) == 0o600
    with zipfile.ZipFile(info.path) as archive:
        assert archive.testzip() is None
    assert _left(tmp_path) == []


def test_a_pdf_writer_goes_through_the_check(tmp_path, app_ready):
    from reports.pdf import html_to_pdf

    out = html_to_pdf("<p>Praça</p>", tmp_path / "a.pdf", title="t")
    assert out == tmp_path / "a.pdf" and out.read_bytes().rstrip().endswith(b"%%EOF")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and _left(tmp_path) == []
    with pytest.raises(UserError, match="dispositivo"):
        html_to_pdf("<p>x</p>", "/dev/full")


def test_an_exclusive_write_never_replaces_a_file_and_mode_is_set_outright(tmp_path):
    """A key or an act another process wrote first is kept (``exclusive``); a launcher gets its mode (0755)."""
    import os

    from models.store.outfile import TargetExists, write_bytes, write_text

    key = tmp_path / "praca-public.pem"
    write_bytes(key, b"first\n", kind="pem", mode=0o644, exclusive=True)
    with pytest.raises(TargetExists, match="já existe"):
        write_bytes(key, b"second\n", kind="pem", mode=0o644, exclusive=True)
    assert key.read_bytes() == b"first\n" and os.stat(key).st_mode & 0o777 == 0o644
    launcher = write_text(tmp_path / "praca.desktop", "[Desktop Entry]\n", kind="desktop", mode=0o755)
    assert os.stat(launcher).st_mode & 0o777 == 0o755
    assert sorted(p.name for p in tmp_path.iterdir()) == ["praca-public.pem", "praca.desktop"]  # nothing aside
