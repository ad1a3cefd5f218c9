"""The system libraries a Debian/Ubuntu desk needs for Praça installed from the wheel (issue 31 §6).

The wheel's PySide6 carries Qt itself (and ICU); what Qt's libraries and the plugins a desk loads link to beyond
that comes from the distribution. This script asks ``ldd`` for every library those files need (directly or
through another), ``dpkg -S`` for the package that holds each, and compares with the README's list::

    .venv/bin/python packaging/system_libraries.py          # the packages, and what the README lacks (exit 1)

A library is covered when its package is in the README's ``apt-get install`` line, or is installed by one of
those packages (their dependencies, as dpkg records them), or belongs to every Debian/Ubuntu system (priority
``required`` and what those depend on: the C and C++ runtimes, zlib…). ``tests/test_system_libraries.py`` runs
the same check, so a PySide6 that starts needing a new library fails the suite until the README names it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

#: The files of the wheel's PySide6 a desk loads: Praça's Qt modules, Qt's libraries they pull, and the plugins
#: Qt opens on a Linux desk — the X11 window (xcb, its GL integrations), the Wayland window, images and icons,
#: printing (CUPS), keyboard composition, the desktop portal (file dialogs under Flatpak/GNOME).
DESK_FILES = (
    "QtCore.abi3.so",
    "QtGui.abi3.so",
    "QtWidgets.abi3.so",
    "QtPrintSupport.abi3.so",
    "QtSvg.abi3.so",
    "Qt/lib/libQt6Core.so.6",
    "Qt/lib/libQt6Gui.so.6",
    "Qt/lib/libQt6Widgets.so.6",
    "Qt/lib/libQt6PrintSupport.so.6",
    "Qt/lib/libQt6Svg.so.6",
    "Qt/lib/libQt6DBus.so.6",
    "Qt/lib/libQt6XcbQpa.so.6",
    "Qt/lib/libQt6WaylandClient.so.6",
    "Qt/plugins/platforms/libqxcb.so",
    "Qt/plugins/platforms/libqwayland.so",
    "Qt/plugins/xcbglintegrations/*.so",
    "Qt/plugins/wayland-shell-integration/*.so",
    "Qt/plugins/wayland-decoration-client/*.so",
    "Qt/plugins/wayland-graphics-integration-client/*.so",
    "Qt/plugins/imageformats/*.so",
    "Qt/plugins/iconengines/*.so",
    "Qt/plugins/printsupport/*.so",
    "Qt/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so",
    "Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "Qt/plugins/platformthemes/libqxdgdesktopportal.so",
)
#: Plugins Qt tries and quietly skips when their library is absent: not on the list a desk must install.
#: ``libqgtk3.so`` (GNOME's native file dialogs; Praça draws with Fusion and its own palette) needs GTK 3;
#: ``libqpdf.so`` needs Qt PDF, which PySide6-Essentials does not ship.
OPTIONAL_FILES = ("Qt/plugins/platformthemes/libqgtk3.so", "Qt/plugins/imageformats/libqpdf.so")

README = Path(__file__).resolve().parent.parent / "README.md"
#: The README's list: the ``apt-get install`` command on the line after this marker.
MARKER = "<!-- system-libraries: packaging/system_libraries.py checks this list -->"

_LDD = re.compile(r"^\s*(\S+)\s+=>\s+(not found|\S+)")


def pyside_dir() -> Path:
    import PySide6

    return Path(PySide6.__file__).resolve().parent


def desk_files(base: Path | None = None) -> list[Path]:
    base = base or pyside_dir()
    found: list[Path] = []
    for pattern in DESK_FILES:
        matches = sorted(base.glob(pattern))
        if not matches:
            raise FileNotFoundError(f"{base / pattern}: not in this PySide6")
        found += [m for m in matches if not any(m.match(optional) for optional in OPTIONAL_FILES)]
    return found


def ldd(files: Iterable[Path], inside: Path) -> tuple[dict[str, Path], set[str]]:
    """(soname → system path, sonames not found) of everything ``files`` need, leaving out what ``inside`` holds."""
    system: dict[str, Path] = {}
    missing: set[str] = set()
    for file in files:
        output = subprocess.run(["ldd", str(file)], capture_output=True, text=True, check=True).stdout
        for line in output.splitlines():
            match = _LDD.match(line)
            if not match:
                continue
            name, where = match.groups()
            if where == "not found":
                if not name.startswith("libQt6"):  # Qt's own are in the wheel (or the plugin is optional)
                    missing.add(name)
                continue
            path = Path(where)
            if inside not in path.resolve().parents:
                system[name] = path
    return system, missing


def direct_needs(files: Iterable[Path]) -> set[str]:
    """The sonames ``files`` name themselves (ELF ``NEEDED``, read by binutils' ``readelf``): what the README lists;
    what those need in turn comes with them."""
    needed: set[str] = set()
    for file in files:
        output = subprocess.run(["readelf", "-d", str(file)], capture_output=True, text=True, check=True).stdout
        needed.update(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", output))
    return needed


def _variants(path: Path) -> list[str]:
    """The names dpkg may know a library by: as ldd found it, its real file, with and without ``/usr`` (merged
    /usr systems)."""
    names: list[str] = []
    for candidate in (path, path.resolve()):
        text = str(candidate)
        names.append(text)
        names.append(text[4:] if text.startswith("/usr/") else "/usr" + text)
    return list(dict.fromkeys(names))


def packages_of(paths: dict[str, Path]) -> dict[str, str]:
    """soname → the Debian package that installed it (``dpkg -S``); a library no package owns is left out."""
    variants = {soname: _variants(path) for soname, path in paths.items()}
    everything = sorted({name for names in variants.values() for name in names})
    result = subprocess.run(["dpkg", "-S", *everything], capture_output=True, text=True)
    owner: dict[str, str] = {}
    for line in result.stdout.splitlines():
        packages, _, path = line.partition(": ")
        if path:
            owner[path.strip()] = packages.split(",")[0].split(":")[0].strip()
    found: dict[str, str] = {}
    for soname, names in variants.items():
        for name in names:
            if name in owner:
                found[soname] = owner[name]
                break
    return found


def _installed() -> dict[str, dict[str, str]]:
    fields = "${Package}\\t${Priority}\\t${Depends}\\t${Pre-Depends}\\t${Provides}\\t${db:Status-Abbrev}\\n"
    output = subprocess.run(["dpkg-query", "-W", "-f", fields], capture_output=True, text=True, check=True).stdout
    packages: dict[str, dict[str, str]] = {}
    for line in output.splitlines():
        name, priority, depends, pre, provides, status = (line.split("\t") + [""] * 6)[:6]
        if status.startswith("ii"):
            packages[name] = {"priority": priority, "depends": f"{depends}, {pre}", "provides": provides}
    return packages


def _names(field: str) -> list[list[str]]:
    """A Depends field as its alternatives: ``a (>= 1) | b, c:any`` → [[a, b], [c]]."""
    groups = []
    for group in field.split(","):
        names = [re.sub(r"[\s(:].*", "", alt.strip()) for alt in group.split("|")]
        names = [n for n in names if n]
        if names:
            groups.append(names)
    return groups


def covered(listed: Iterable[str]) -> set[str]:
    """The packages installed with ``listed`` (their dependencies, recursively) and with every system (priority
    required), as this machine's dpkg records them."""
    installed = _installed()
    provider: dict[str, str] = {}
    for name, info in installed.items():
        for virtual in _names(info["provides"]):
            provider.setdefault(virtual[0], name)
    roots = [n for n in listed] + [n for n, info in installed.items() if info["priority"] == "required"]
    seen: set[str] = set()
    stack = [provider.get(n, n) for n in roots]
    while stack:
        name = stack.pop()
        if name in seen or name not in installed:
            seen.add(name)
            continue
        seen.add(name)
        for alternatives in _names(installed[name]["depends"]):
            present = [provider.get(a, a) for a in alternatives if provider.get(a, a) in installed]
            stack.extend(present[:1])
    return seen


def readme_packages(text: str | None = None) -> list[str]:
    """The packages of the README's ``apt-get install`` line under :data:`MARKER`."""
    text = README.read_text(encoding="utf-8") if text is None else text
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.strip() == MARKER:
            for following in lines[number + 1 :]:
                if "apt-get install" in following:
                    words = following.split("apt-get install", 1)[1].replace("\\", " ").split()
                    return [w for w in words if not w.startswith("-")]
    raise LookupError(f"README.md: no apt-get install line after {MARKER}")


def check(listed: list[str] | None = None) -> tuple[dict[str, str], list[str], set[str]]:
    """(soname → package of every system library a desk loads, the packages of those the README's list does not
    cover, sonames ldd did not find on this machine)."""
    base = pyside_dir()
    system, missing = ldd(desk_files(base), base.parent)  # PySide6 and shiboken6, side by side in site-packages
    owners = packages_of(system)
    unowned = {soname for soname in system if soname not in owners}
    enough = covered(readme_packages() if listed is None else listed)
    lacking = sorted({package for package in owners.values() if package not in enough})
    return owners, lacking, missing | unowned


def main() -> int:
    owners, lacking, unknown = check()
    for package in sorted(set(owners.values())):
        libraries = ", ".join(sorted(s for s, p in owners.items() if p == package))
        print(f"{package}: {libraries}")
    try:
        direct = direct_needs(desk_files())
    except FileNotFoundError:  # no binutils: the check above does not need it
        direct = set()
    if direct:
        base = covered([])
        named = sorted({p for s, p in owners.items() if s in direct and p not in base})
        print(f"\nO que os arquivos do Qt pedem diretamente (a lista do README): {' '.join(named)}")
    if unknown:
        print(f"sem pacote nesta máquina (ldd: not found, ou de nenhum pacote): {', '.join(sorted(unknown))}")
    if lacking:
        print(f"README.md não cobre: {' '.join(lacking)}", file=sys.stderr)
        return 1
    print("README.md cobre todas.")
    return 0 if not unknown else 1


if __name__ == "__main__":
    sys.exit(main())
