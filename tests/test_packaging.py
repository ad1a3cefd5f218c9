"""packaging/: the Windows icon drawn from the SVG (the bundle itself: tests/test_bundle.py)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest
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


def test_the_windowed_executables_log_is_in_the_desks_folder_when_it_has_one(tmp_path):
    """One database for the desk (PRACA_DATA, docs/install-windows.md §4): the log is beside it, where §8 says."""
    import os
    import subprocess

    script = Path(__file__).resolve().parent.parent / "packaging" / "praca_main.py"
    code = (
        "import runpy, sys; sys.stdout = None; sys.stderr = None; sys.argv = ['praca', '--version'];"
        f"runpy.run_path({str(script)!r}, run_name='__main__')"
    )
    shared = tmp_path / "ProgramData" / "Praca"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "LOCALAPPDATA": str(tmp_path / "Local"), "PRACA_DATA": str(shared)},
    )
    assert result.returncode == 0, result.stderr
    assert (shared / "praca-gui.log").read_text(encoding="utf-8").startswith("Praça ")
    assert not (tmp_path / "Local").exists()


def test_the_gui_script_runs_without_streams():
    """pip's praca-gui on Windows runs under pythonw: no stdout, no stderr."""
    import subprocess

    code = (
        "import sys; sys.stdout = None; sys.stderr = None; from desktop.cli import main;"
        "code = main(['--version']); sys.exit(code)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


# --------------------------------------------------------------------------- issue 32 §4: the xcb extras

LDD_WITHOUT_TWO = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007f68)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f68)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f68)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f68)
"""


def test_a_missing_xcb_library_stops_the_build_naming_its_package():
    """What PyInstaller only warned about (and `make dist` built a bundle that aborts on a bare desk)."""
    from qt_xcb import MissingXcbLibraries, check_xcb_libraries

    with pytest.raises(MissingXcbLibraries) as raised:
        check_xcb_libraries(LDD_WITHOUT_TWO)
    message = str(raised.value)
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in message
    assert message.endswith("Instale: sudo apt-get install libxcb-icccm4 libxcb-keysyms1")
    assert raised.value.code == message  # SystemExit with a message: PyInstaller exits 1 printing it
    found = check_xcb_libraries(
        LDD_WITHOUT_TWO.replace("libxcb-icccm.so.4 => not found\n", "").replace(
            "libxcb-keysyms.so.1 => not found\n", ""
        )
    )
    assert set(found) == {"libxkbcommon-x11.so.0", "libxcb-cursor.so.0"}  # libxcb and libc stay the system's


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb platform is Linux's")
def test_this_machine_has_every_xcb_library_the_plugin_needs():
    """The spec's check on the real plugin: every library it names is found and goes into the bundle."""
    from qt_xcb import XCB_EXTRAS, xcb_binaries, xcb_plugin

    binaries = xcb_binaries()
    names = {name for name, _source, _kind in binaries}
    assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0", "libxkbcommon-x11.so.0"} <= names
    assert names <= set(XCB_EXTRAS)
    assert all(Path(source).is_file() and kind == "BINARY" for _name, source, kind in binaries)
    assert xcb_plugin().is_file()


def test_the_spec_runs_the_check_before_its_analysis():
    spec = (Path(__file__).resolve().parent.parent / "packaging" / "praca.spec").read_text(encoding="utf-8")
    assert spec.index("XCB_BINARIES = xcb_binaries()") < spec.index("a = Analysis(")
    assert "a.binaries += [entry for entry in XCB_BINARIES" in spec
