"""packaging/: the Windows icon drawn from the SVG (the bundle itself: tests/test_bundle.py)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtGui import QImage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packaging"))
from make_ico import SIZES, write_ico


def test_the_ico_holds_every_size_as_png(qapp, tmp_path):
    data = write_ico(tmp_path / "praca.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(SIZES))
    for index, size in enumerate(SIZES):
        width, height, _, _, planes, bits, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * index)
        assert (width, height) == ((0, 0) if size == 256 else (size, size))
        image = QImage.fromData(data[offset : offset + length], "PNG")
        assert (image.width(), image.height(), planes, bits) == (size, size, 1, 32)
        assert image.pixelColor(size // 2, size // 2).alpha() > 0  # the drawing, not an empty square


def test_the_windowed_executable_writes_to_a_log_instead_of_failing(tmp_path):
    """praca-gui.exe has no console: Python starts it with no stdout or stderr (None)."""
    import os
    import subprocess

    script = Path(__file__).resolve().parent.parent / "packaging" / "praca_main.py"
    code = (
        "import runpy, sys; sys.stdout = None; sys.stderr = None; sys.argv = ['praca', '--version'];"
        f"runpy.run_path({str(script)!r}, run_name='__main__')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "LOCALAPPDATA": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    log = tmp_path / "Praca" / "Praca" / "praca-gui.log"
    assert log.read_text(encoding="utf-8").startswith("Praça ")


def test_the_gui_script_runs_without_streams():
    """pip's praca-gui on Windows runs under pythonw: no stdout, no stderr."""
    import subprocess

    code = (
        "import sys; sys.stdout = None; sys.stderr = None; from desktop.cli import main;"
        "code = main(['--version']); sys.exit(code)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
