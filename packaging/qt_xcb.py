"""The libraries Qt's xcb platform (the window on a Linux X11 desk) needs beyond the X client every desk has —
found on the build machine and carried in the bundle (issue 32 §4).

PyInstaller collects a library the plugin links to only when the build machine has it, and merely warns when it
has not: a bundle built before ``libxcb-icccm4`` and ``libxcb-keysyms1`` were installed built with exit 0 and
aborted on a desk without them ("no Qt platform plugin could be initialized", exit 134). ``packaging/praca.spec``
calls :func:`xcb_binaries` before its analysis: a missing library stops the build with the package to install;
the ones found go into the bundle's ``_internal/`` by name, whatever PyInstaller's own analysis decides.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

#: soname → the Debian/Ubuntu package that provides it: what Qt 6's ``libqxcb.so`` links to beyond libxcb,
#: libX11 and the C/C++ runtime (Qt's "X11 requirements").
XCB_EXTRAS = {
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
}

_LINE = re.compile(r"^\s*(\S+)\s+=>\s+(not found|\S+)")


class MissingXcbLibraries(SystemExit):
    """The build machine lacks libraries the xcb plugin needs: the build stops, naming the packages."""


def xcb_plugin(pyside_dir: Path | None = None) -> Path:
    """PySide6's ``libqxcb.so``."""
    if pyside_dir is None:
        import PySide6

        pyside_dir = Path(PySide6.__file__).resolve().parent
    return pyside_dir / "Qt" / "plugins" / "platforms" / "libqxcb.so"


def parse_ldd(output: str) -> dict[str, Path | None]:
    """``ldd``'s lines as soname → resolved path (``None``: "not found")."""
    found: dict[str, Path | None] = {}
    for line in output.splitlines():
        match = _LINE.match(line)
        if match:
            name, where = match.groups()
            found[name] = None if where == "not found" else Path(where)
    return found


def check_xcb_libraries(ldd_output: str) -> dict[str, Path]:
    """The xcb extras ``ldd_output`` (of the plugin) resolves, by soname; :class:`MissingXcbLibraries` naming
    the packages of those it does not."""
    resolved = parse_ldd(ldd_output)
    missing = sorted({XCB_EXTRAS[name] for name, path in resolved.items() if name in XCB_EXTRAS and path is None})
    if missing:
        names = ", ".join(name for name, path in resolved.items() if name in XCB_EXTRAS and path is None)
        raise MissingXcbLibraries(
            f"praca.spec: faltam nesta máquina bibliotecas de que a plataforma xcb do Qt precisa ({names}); "
            f"o pacote não as levaria e não abriria a janela numa mesa sem elas. "
            f"Instale: sudo apt-get install {' '.join(missing)}"
        )
    return {name: path for name, path in resolved.items() if name in XCB_EXTRAS and path is not None}


def xcb_binaries(plugin: Path | None = None) -> list[tuple[str, str, str]]:
    """The xcb extras of this build machine as PyInstaller binaries ``(name, source, "BINARY")``, to be put at
    the top of ``_internal/`` (where the bundle's loader path finds them); stops the build when any is missing."""
    plugin = plugin or xcb_plugin()
    if not plugin.is_file():
        raise MissingXcbLibraries(f"praca.spec: {plugin} não existe: o PySide6 instalado não tem a plataforma xcb.")
    output = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=True).stdout
    return [(name, str(path), "BINARY") for name, path in sorted(check_xcb_libraries(output).items())]
