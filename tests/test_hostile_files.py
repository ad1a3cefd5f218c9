"""Issue 26 §8: bounded work on hostile files — backups read streaming under an absolute size, spreadsheets parsed
with defusedxml's protections, and every failure of a file read or written one Portuguese line (exit 2)."""

from __future__ import annotations

import base64
import errno
import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from factories import vendor_rows, write_xlsx
from PySide6.QtCore import Qt

from desktop.cli import main
from models.base.errors import UserError
from models.store.bootstrap import close_database

# --------------------------------------------------------------------------- backups


def hostile_backup(path: Path, lines: int, line_bytes: int = 1_000_000) -> Path:
    """A backup that passes every check a zip's directory allows: each member expands less than 100 times, the
    manifest declares its rows and the size and SHA-256 of its data — 5 MB that unpack to some 450 MB."""
    digest, size = hashlib.sha256(), 0
    noise = base64.b64encode(os.urandom(line_bytes // 105)).decode()  # just enough not to compress 100 times
    text = noise + "a" * (line_bytes - len(noise))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("data.jsonl", "w", force_zip64=True) as fh:
            for i in range(lines):
                line = json.dumps(["praca_meta", [f"k{i}", text]]).encode() + b"\n"
                fh.write(line)
                digest.update(line)
                size += len(line)
        zf.writestr(
            "manifest.json",
            json.dumps(
                {
                    "format": "praca-backup",
                    "format_version": 1,
                    "schema_version": 21,
                    "created_at": "2026-01-01T00:00:00-03:00",
                    "source_backend": "sqlite",
                    "source": "x",
                    "app_version": "",
                    "tables": {
                        "praca_meta": {
                            "rows": lines,
                            "primary_key": "key",
                            "columns": [["key", "text"], ["value", "text"]],
                        }
                    },
                    "payload": "data.jsonl",
                    "payload_sha256": digest.hexdigest(),
                    "payload_bytes": size,
                }
            ),
        )
    return path


PEAK = """
import resource, sys
from desktop.cli import main
code = main(["--db", sys.argv[2], "restore", sys.argv[1], "--check"])
print("PEAK", code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_kb(backup: Path, tmp_path: Path) -> tuple[int, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(backup), f"sqlite:///{tmp_path / 'nenhum.sqlite3'}"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("PEAK"))
    _, code, peak = line.split()
    return int(code), int(peak), done.stderr


@pytest.fixture
def small_backup(sqlite_database, tmp_path) -> Path:
    from models.store.backup import write_backup

    try:
        return write_backup(tmp_path / "pequeno.praca-backup").path
    finally:
        close_database()


def test_checking_a_hostile_backup_stays_bounded(small_backup, tmp_path):
    """``restore --check`` of 5 MB that unpack to 450 MB of valid rows: read line by line, never whole (it took
    1,2 GB before). Peak memory of the process against the same check of a small backup, in the same run."""
    hostile = hostile_backup(tmp_path / "hostil.praca-backup", 450)
    assert os.path.getsize(hostile) < 6 * 1024 * 1024
    code, baseline, _ = _peak_kb(small_backup, tmp_path)
    assert code == 0
    code, peak, err = _peak_kb(hostile, tmp_path)
    assert code == 0, err
    assert peak - baseline < 64 * 1024, f"{peak // 1024} MB against {baseline // 1024} MB for a small backup"


def test_the_data_is_never_held_whole_while_checked(small_backup, monkeypatch):
    """The data member is read in bounded pieces (a line at most), never as one ``read()``."""
    from models.store.backup import read_backup

    sizes = []
    real = zipfile.ZipExtFile.read

    def read(self, n=-1):
        sizes.append(n)
        return real(self, n)

    monkeypatch.setattr(zipfile.ZipExtFile, "read", read)
    backup = read_backup(small_backup, rows=False)
    assert backup.counts["praca_meta"] >= 1
    assert sizes and all(0 <= n <= 1024 * 1024 + 2 for n in sizes), sizes[:20]


def test_the_absolute_size_limit_is_documented_and_enforced(small_backup, monkeypatch, tmp_path):
    from models.store.backup import format as fmt
    from models.store.backup import read_backup, reading

    assert fmt.MAX_BACKUP_BYTES == 2 * 1024**3  # README: "Tamanho máximo de um backup"
    with zipfile.ZipFile(small_backup) as zf:
        size = zf.getinfo("data.jsonl").file_size
    monkeypatch.setattr(fmt, "MAX_BACKUP_BYTES", size - 1)
    monkeypatch.setattr(reading, "MAX_BACKUP_BYTES", size - 1)
    with pytest.raises(UserError) as caught:
        read_backup(small_backup)
    assert "descompactad" in caught.value.message and "limite" in caught.value.message
    assert "\n" not in caught.value.message


def _declare(path: Path, member: str, *, size: int, crc: int | None = None) -> None:
    """Rewrite what the zip's central directory says of ``member``: its uncompressed size (and CRC)."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    at = 0
    while True:
        at = data.index(b"PK\x01\x02", at)
        length = struct.unpack("<H", data[at + 28 : at + 30])[0]
        if bytes(data[at + 46 : at + 46 + length]) == name:
            break
        at += 4
    if crc is not None:
        data[at + 16 : at + 20] = struct.pack("<I", crc)
    data[at + 24 : at + 28] = struct.pack("<I", size)
    path.write_bytes(bytes(data))


def test_a_zip_bomb_is_refused_at_once_with_one_line(small_backup, tmp_path, capsys):
    """Declared: a member that says it unpacks to 3 GB. Actual: a member that says 1.000 bytes and holds 200 MB of
    zeros — never more is read than declared, and what was read does not check."""
    declared = tmp_path / "declarada.praca-backup"
    declared.write_bytes(small_backup.read_bytes())
    _declare(declared, "data.jsonl", size=3 * 1024**3)
    actual = tmp_path / "real.praca-backup"
    with zipfile.ZipFile(small_backup) as src, zipfile.ZipFile(actual, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("manifest.json", src.read("manifest.json"))
        with zf.open("data.jsonl", "w") as fh:
            for _ in range(200):
                fh.write(b"\0" * 1024 * 1024)
    _declare(actual, "data.jsonl", size=1000, crc=zlib.crc32(b"\0" * 1000))
    for bomb, says in ((declared, "limite"), (actual, "corrompido")):
        code = main(["--db", f"sqlite:///{tmp_path / 'nenhum.sqlite3'}", "restore", str(bomb), "--check"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and says in err and "inesperado" not in err, err


# --------------------------------------------------------------------------- spreadsheets


def _entity_bomb(good: Path, out: Path) -> Path:
    lol = '<!ENTITY lol "lollollollollollollollollollol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10)
    )
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in src.namelist():
            data = src.read(name)
            if name == "xl/worksheets/sheet1.xml":
                text = data.decode().split("?>", 1)[-1]
                text = f'<?xml version="1.0"?><!DOCTYPE lolz [{lol}]>' + text.replace("<v>", "<v>&lol9;", 1)
                data = text.encode()
            zf.writestr(name, data)
    return out


def _damaged(good: Path, out: Path, *, where: str) -> Path:
    """The sheet's compressed bytes overwritten in the middle, or at its end (a file cut and patched up)."""
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26 : info.header_offset + 30])
    start = info.header_offset + 30 + name_len + extra_len
    if where == "middle":
        at = start + info.compress_size // 2
        data[at : at + 200] = b"\0" * 200
    else:
        end = start + info.compress_size
        data[end - 50 : end] = b"\xff" * 50
    out.write_bytes(bytes(data))
    return out


def _zip_bomb_xlsx(good: Path, out: Path) -> Path:
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in src.namelist():
            data = src.read(name)
            if name == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</sheetData>", b"</sheetData>" + b" " * (300 * 1024 * 1024))
            zf.writestr(name, data)
    return out


@pytest.fixture
def hostile_sheets(tmp_path) -> dict[str, Path]:
    good = write_xlsx(tmp_path / "boa.xlsx", vendor_rows() * 40)
    cut = tmp_path / "metade.xlsx"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    return {
        "truncated": _damaged(good, tmp_path / "cortada.xlsx", where="end"),
        "damaged": _damaged(good, tmp_path / "danificada.xlsx", where="middle"),
        "cut": cut,
        "entities": _entity_bomb(good, tmp_path / "entidades.xlsx"),
        "zip bomb": _zip_bomb_xlsx(good, tmp_path / "bomba.xlsx"),
    }


def test_openpyxl_reads_through_defusedxml():
    import openpyxl

    assert openpyxl.DEFUSEDXML is True


@pytest.mark.parametrize("kind", ["truncated", "damaged", "cut", "entities", "zip bomb"])
def test_a_hostile_spreadsheet_is_one_portuguese_line(hostile_sheets, database, capsys, kind):
    code = main(["--db", database, "import", "vendors", str(hostile_sheets[kind]), "--dry-run"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "planilha" in err and "inesperado" not in err and "Traceback" not in err, err
    for english in ("File is not", "Bad CRC", "invalid literal", "Unable to read", "Entity", "entities"):
        assert english not in err, err


def test_the_import_window_says_why_a_hostile_spreadsheet_is_refused(hostile_sheets, app_ready, qtbot, database):
    from views.import_dialog import ImportDialog

    dialog = ImportDialog(store=None)
    qtbot.addWidget(dialog)
    dialog.show()
    for kind in ("damaged", "entities", "zip bomb"):
        dialog.path_edit.setText(str(hostile_sheets[kind]))
        qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
        assert dialog.stack.currentIndex() == dialog.PAGE_FILE
        shown = dialog.error.text()
        assert hostile_sheets[kind].name in shown and "inesperado" not in shown, shown


# --------------------------------------------------------------------------- a full disk, for each kind of writer


def _no_space(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _partials(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".partial" in p.name]


@pytest.mark.parametrize(
    "fmt,where",
    [
        ("xlsx", ("zipfile", "ZipFile", "write")),
        ("pdf", ("reportlab.pdfbase.pdfdoc", "PDFDocument", "SaveToFile")),
        ("html", ("pathlib", "Path", "write_text")),
    ],
)
def test_a_report_on_a_full_disk_is_one_line(database, tmp_path, capsys, monkeypatch, app_ready, fmt, where):
    import importlib

    module, cls, name = where
    monkeypatch.setattr(getattr(importlib.import_module(module), cls), name, _no_space)
    out = tmp_path / f"taxas.{fmt}"
    code = main(["--db", database, "report", "fees", "--month", "2026-09", "--format", fmt, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "o disco está cheio" in err and "inesperado" not in err, err
    assert not out.exists() and _partials(tmp_path) == []


def test_a_backup_on_a_full_disk_is_one_line(database, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(Path, "write_bytes", _no_space)
    out = tmp_path / "b.praca-backup"
    code = main(["--db", database, "backup", "--unsigned", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "o disco está cheio" in err, err
    assert not out.exists() and _partials(tmp_path) == []


def test_the_audit_csv_on_a_full_disk_is_one_message(database, tmp_path, monkeypatch):
    import builtins

    from models.store import audit
    from models.store.audit import audit_rows, export_csv

    class Full(io.StringIO):
        def write(self, _text):
            _no_space()

    real_open = builtins.open
    monkeypatch.setattr(audit, "open", lambda *a, **k: Full() if "w" in a[1:2] else real_open(*a, **k), raising=False)
    with pytest.raises(UserError) as caught:
        export_csv(audit_rows(), tmp_path / "trilha.csv")
    assert "o disco está cheio" in caught.value.message
    assert not (tmp_path / "trilha.csv").exists() and _partials(tmp_path) == []


def _full_filesystem_available() -> bool:
    try:
        return (
            subprocess.run(
                ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True, timeout=30
            ).returncode
            == 0
        )
    except (OSError, subprocess.SubprocessError):
        return False


PASSWORD = "senha-da-ana-2026"


def test_the_command_line_on_a_really_full_disk(sqlite_database, tmp_path):
    """A real full file system: a small tmpfs filled up, in a mount namespace of its own (no root needed)."""
    if not _full_filesystem_available():
        pytest.skip("no user namespace to mount a small tmpfs in")
    from models.access.users import create_user

    create_user(username="ana", name="Ana", role="administrador", password=PASSWORD)
    close_database()
    full = tmp_path / "cheio"
    full.mkdir()
    commands = {
        "xlsx": ["report", "fees", "--month", "2026-09", "--format", "xlsx", "--out", f"{full}/t.xlsx"],
        "pdf": ["report", "fees", "--month", "2026-09", "--format", "pdf", "--out", f"{full}/t.pdf"],
        "html": ["report", "fees", "--month", "2026-09", "--format", "html", "--out", f"{full}/t.html"],
        "backup": ["backup", "--unsigned", "--out", f"{full}/b.praca-backup"],
    }
    script = f"mount -t tmpfs -o size=64k tmpfs {full} && (head -c 1048576 /dev/zero > {full}/enche 2>/dev/null; true)"
    for kind, argv in commands.items():
        cli = " ".join(f"'{a}'" for a in [sys.executable, "-m", "desktop", "--db", sqlite_database, *argv])
        done = subprocess.run(
            ["unshare", "-rm", "sh", "-c", f"{script} && {cli}; echo rc=$? >&2; ls -a {full} >&2"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PRACA_USER": "ana", "PRACA_PASSWORD": PASSWORD},
        )
        lines = done.stderr.splitlines()
        said = [x for x in lines if x.startswith("praca:")]
        assert "rc=2" in lines, (kind, done.stderr)
        assert len(said) == 1 and "o disco está cheio" in said[0], (kind, done.stderr)
        assert not any(x for x in lines if "Exception ignored" in x or "Traceback" in x), (kind, done.stderr)
        listing = lines[lines.index("rc=2") + 1 :]
        assert sorted(listing) == [".", "..", "enche"], (kind, done.stderr)
