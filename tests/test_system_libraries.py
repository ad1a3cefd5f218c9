"""The README's list of system libraries for a Debian/Ubuntu desk covers every library the wheel's Qt loads
(issue 31 §6: it missed ``libxcb-icccm4`` and ``libxcb-keysyms1``). ``ldd`` over PySide6's Qt libraries and the
plugins a desk opens, ``dpkg -S`` for their packages: each is on the list, brought by a package on it, or part
of every system (packaging/system_libraries.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packaging"))

import system_libraries
from qt_xcb import XCB_EXTRAS

pytestmark = pytest.mark.skipif(
    not (sys.platform == "linux" and shutil.which("ldd") and shutil.which("dpkg")), reason="Debian/Ubuntu only"
)


def test_the_readme_lists_every_library_the_wheels_qt_needs_on_a_desk():
    owners, lacking, unknown = system_libraries.check()
    assert len(owners) > 20  # the X11 and Wayland libraries, GL, fonts, D-Bus, CUPS… were found and owned
    assert not lacking, f"README.md: faltam na lista de apt-get install: {' '.join(lacking)}"
    assert not unknown, f"ldd: bibliotecas sem pacote nesta máquina: {sorted(unknown)}"


def test_a_package_left_off_the_list_is_named():
    listed = system_libraries.readme_packages()
    assert {"libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libxkbcommon-x11-0", "libcups2"} <= set(listed)
    _owners, lacking, _unknown = system_libraries.check([p for p in listed if p != "libxcb-keysyms1"])
    assert lacking == ["libxcb-keysyms1"]


def test_every_package_on_the_list_exists_and_the_bundles_xcb_libraries_are_on_it():
    listed = system_libraries.readme_packages()
    assert len(listed) == len(set(listed))
    known = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\\n", *listed], capture_output=True, text=True)
    assert set(known.stdout.split()) == set(listed), known.stderr  # no typo: each is a real package (any arch)
    assert set(XCB_EXTRAS.values()) <= set(listed)
