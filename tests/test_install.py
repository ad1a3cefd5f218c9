"""The package a town hall's IT installs: the wheel built from pyproject.toml, in a fresh environment.

The rest of the suite runs on the editable install, which sees the whole source tree: a package or a data file
missing from the wheel only shows here. One wheel is built for the module (in a copy of the sources, so the
checkout's ``build/`` never leaks into it) and installed into a new virtual environment outside the source
tree; the commands then run from there, from a folder of their own, with user folders of their own.

The environment gets the wheel from pip (its entry points, its files) and its dependencies from the test
environment's site-packages through a ``.pth`` — everything there except Praça's own editable install — so no
download is needed; ``make install`` already proves that pyproject.toml's dependencies resolve.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import desktop

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("desktop", "models", "views", "reports", "resources")


@dataclass
class Installed:
    wheel: Path
    venv: Path
    home: Path

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    @property
    def python(self) -> Path:
        return self.bin / ("python.exe" if os.name == "nt" else "python")

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "PRACA_DB", "PRACA_USER", "PRACA_PASSWORD")
            and not k.startswith("XDG_")
        }
        env.update(HOME=str(self.home), QT_QPA_PLATFORM="offscreen", **extra)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            env[var] = str(self.home / var.lower())
        return env

    def run(self, *args: str, **extra: str) -> subprocess.CompletedProcess:
        """``args[0]`` is a program of the environment's bin folder; run from a folder outside the sources."""
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            cwd=self.home,
            env=self.env(**extra),
            timeout=300,
        )


def _copy_sources(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, target / name)
    for package in PACKAGES:
        shutil.copytree(REPO / package, target / package, ignore=ignore)


def _dependencies_folder(target: Path) -> Path:
    """The test environment's installed distributions, Praça's editable install left out."""
    target.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    for entry in site.iterdir():
        name = entry.name.lower()
        if name.startswith(
            ("__editable__", "praca", "_distutils_hack", "distutils-precedence", "__pycache__")
        ) or name.endswith(".pth"):
            continue
        (target / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    root = tmp_path_factory.mktemp("install")
    src, wheels, venv, home = root / "src", root / "wheels", root / "venv", root / "home"
    src.mkdir()
    home.mkdir()
    _copy_sources(src)
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "--disable-pip-version-check",
            "-w",
            str(wheels),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = wheels.glob("praca-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    result = Installed(wheel, venv, home)
    purelib = subprocess.run(
        [str(result.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = _dependencies_folder(root / "deps")
    (Path(purelib) / "praca-test-dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(result.python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--disable-pip-version-check",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return result


def _source_files() -> set[str]:
    found = set()
    for package in PACKAGES:
        for path in (REPO / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(REPO).as_posix())
    return found


def test_the_wheel_holds_every_module_and_resource(installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    missing = sorted(_source_files() - names)
    assert not missing, f"left out of the wheel: {missing}"
    assert "desktop/commands/demo.py" in names  # the module a hand-written package list once forgot
    assert not any(n.startswith(("tests/", "bench/", "docs/")) for n in names)
    assert "praca = desktop.cli:main" in entry_points
    assert "[gui_scripts]\npraca-gui = desktop.cli:main" in entry_points  # Windows: the window, no console


def test_installed_praca_answers_outside_the_source_tree(installed):
    where = subprocess.run(
        [
            str(installed.python),
            "-c",
            "import json, desktop, models, views, reports, resources, desktop.commands;"
            "print(json.dumps([m.__file__ for m in (desktop, models, views, reports, resources, desktop.commands)]))",
        ],
        capture_output=True,
        text=True,
        cwd=installed.home,
        env=installed.env(),
        timeout=60,
    )
    assert where.returncode == 0, where.stderr
    for file in json.loads(where.stdout):
        assert Path(file).resolve().is_relative_to(installed.venv.resolve()), file

    help_ = installed.run("praca", "--help")
    assert help_.returncode == 0, help_.stderr
    assert help_.stdout.startswith("uso: praca") and "check-window" in help_.stdout

    regimes = installed.run("praca", "regimes")
    assert regimes.returncode == 0, regimes.stderr
    for regime in ("sapezal-2014", "olimpia-2025", "sjc-2014", "sao-bento-2026", "ilha-comprida-2017"):
        assert regime in regimes.stdout

    version = installed.run("praca", "--version")
    declared = installed.run("python", "-c", "import importlib.metadata as m; print(m.version('praca'))")
    assert declared.stdout.strip() == desktop.__version__  # the wheel's metadata: pyproject's dynamic version
    assert version.stdout.strip() == f"Praça {desktop.__version__}"

    if sys.platform.startswith("linux"):  # the menu entry starts this installation's praca
        entry = installed.run("praca", "install-desktop-entry")
        assert entry.returncode == 0, entry.stderr
        desktop_file = installed.home / "xdg_data_home" / "applications" / "praca.desktop"
        assert f"Exec={installed.bin / 'praca'}\n" in desktop_file.read_text(encoding="utf-8")


# Run inside the installed environment: the command line under an audit hook that notes every file Python opens
# inside the source tree or beside it (../shared); the dependencies' own files are allowed.
_AUDITED = textwrap.dedent("""
    import json, os, sys
    forbidden = [os.path.realpath(p) for p in json.loads(os.environ["PRACA_TEST_FORBIDDEN"])]
    allowed = [os.path.realpath(p) for p in json.loads(os.environ["PRACA_TEST_ALLOWED"])]
    seen = []

    def inside(path, roots):
        return any(path == root or path.startswith(root + os.sep) for root in roots)

    def hook(event, args):
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.path.realpath(os.fsdecode(args[0]))
            if inside(path, forbidden) and not inside(path, allowed):
                seen.append(path)

    sys.addaudithook(hook)
    from desktop.cli import main
    code = main(sys.argv[1:])
    if seen:
        print("OUTSIDE THE PACKAGE: " + " ".join(sorted(set(seen))), file=sys.stderr)
        code = code or 3
    sys.exit(code)
""")


def test_installed_demo_and_window(installed, sqlite_url):
    """On SQLite only: the demo on PostgreSQL is tested from the sources (tests/test_cli.py); here the question
    is what the package holds, and the PostgreSQL driver is a dependency like the others."""
    db_url = sqlite_url
    env = {
        "PRACA_TEST_FORBIDDEN": json.dumps([str(REPO), str(REPO.parent / "shared")]),
        "PRACA_TEST_ALLOWED": json.dumps([sys.prefix]),
    }  # the test environment's packages (REPO/.venv)

    def praca(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(installed.python), "-c", _AUDITED, *args],
            capture_output=True,
            text=True,
            cwd=installed.home,
            env=installed.env(**env, **extra),
            timeout=300,
        )

    demo = praca("demo", "--db", db_url)
    assert demo.returncode == 0, demo.stderr
    assert "Banco de demonstração criado" in demo.stdout

    window = praca("check-window", "--db", db_url, PRACA_USER="admin", PRACA_PASSWORD="praca2026")
    assert window.returncode == 0, window.stderr
    assert "mesas montadas: Painel, Atendimento" in window.stdout
    assert "Traduções do Qt em pt_BR: carregadas" in window.stdout

    nobody = praca("check-window", "--db", db_url)
    assert nobody.returncode == 2
    assert "exige login" in nobody.stderr
