"""The PyInstaller bundle (``make dist``), run as a desk runs it: ``make dist-check`` builds it and runs these
with ``PRACA_BUNDLE=dist/praca`` (CI does, through .ci/run). Without that variable they are skipped: building
the bundle takes minutes, and the wheel's own test (tests/test_install.py) covers the package in every run.

What is checked is what a bundle loses when a file is left out: the subcommands (imported by name), the
regimes, the ``holidays`` names in pt-BR, Qt's pt-BR strings, the templates and the PDF writer, every desk."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

import pytest

BUNDLE = os.environ.get("PRACA_BUNDLE", "").strip()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not BUNDLE, reason="no bundle: make dist-check builds and tests it")]


@pytest.fixture(scope="module")
def praca(tmp_path_factory):
    folder = Path(BUNDLE).resolve()
    program = folder / ("praca.exe" if os.name == "nt" else "praca")
    assert program.is_file(), f"{program} not found: run make dist"
    home = tmp_path_factory.mktemp("bundle-home")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "PRACA_DB", "PRACA_USER", "PRACA_PASSWORD", "VIRTUAL_ENV")
        and not k.startswith("XDG_")
    }
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen")
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = str(home / var.lower())

    def run(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(program), *args], capture_output=True, text=True, cwd=home, env={**env, **extra}, timeout=300
        )

    run.home = home
    run.program = program
    run.env = env
    return run


def test_help_version_and_regimes(praca):
    help_ = praca("--help")
    assert help_.returncode == 0, help_.stderr
    assert help_.stdout.startswith("uso: praca") and "check-window" in help_.stdout
    version = praca("--version")
    assert version.returncode == 0 and version.stdout.startswith("Praça ") and "+dev" not in version.stdout
    regimes = praca("regimes")
    assert regimes.returncode == 0, regimes.stderr
    assert "sapezal-2014" in regimes.stdout and "olimpia-2025" in regimes.stdout


def test_holidays_are_named_in_portuguese(praca):
    result = praca("deadline", "--regime", "ilha-comprida-2017", "--kind", "appeal", "--from", "2026-12-23")
    assert result.returncode == 0, result.stderr
    assert "25/12/2026 (sexta-feira): Natal" in result.stdout


def test_demo_window_and_a_pdf_report(praca):
    db = f"sqlite:///{praca.home / 'demo.sqlite3'}"
    demo = praca("demo", "--db", db)
    assert demo.returncode == 0, demo.stderr
    login = {"PRACA_USER": "admin", "PRACA_PASSWORD": "praca2026"}
    window = praca("check-window", "--db", db, **login)
    assert window.returncode == 0, window.stderr
    assert "mesas montadas: Painel, Atendimento" in window.stdout
    assert "Traduções do Qt em pt_BR: carregadas" in window.stdout
    # it only looks: the clerk's settings (last desk, window size) are not written (issue 32 §4)
    assert not list((praca.home / "xdg_config_home").rglob("*.conf"))
    out = praca.home / "taxas.pdf"
    month = dt.date.today().strftime("%Y-%m")
    report = praca("report", "fees", "--month", month, "--format", "pdf", "--out", str(out), "--db", db, **login)
    assert report.returncode == 0, report.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_signing_with_no_system_keyring(praca):
    """keyring in the bundle: with no keyring service (the fail or null backend), unlocking still works for this
    run, forgetting does not crash, and the desk says the passphrase was not kept."""
    db = f"sqlite:///{praca.home / 'chaves.sqlite3'}"
    assert praca("demo", "--db", db).returncode == 0  # the demo's key: passphrase praca-demo-2026
    login = {"PRACA_USER": "admin", "PRACA_PASSWORD": "praca2026"}
    unlocked = praca("signing", "unlock", "--db", db, PRACA_SIGNING_PASSPHRASE="praca-demo-2026", **login)
    assert unlocked.returncode == 0, unlocked.stderr
    assert "Esta mesa pode assinar" in unlocked.stdout
    forgotten = praca("signing", "forget", "--db", db, **login)
    assert forgotten.returncode == 0, forgotten.stderr
    listed = praca("signing", "list", "--db", db, **login)
    assert listed.returncode == 0 and "em uso" in listed.stdout, listed.stderr


def test_the_bundle_holds_its_files_and_installs_its_menu_entry(praca):
    internal = Path(BUNDLE).resolve() / "_internal"
    assert (
        internal / "models" / "rules" / "regimes" / "catalogue.py"
    ).is_file()  # the regimes cache is keyed by the domain's text
    assert (internal / "resources" / "fonts" / "DejaVuSans.ttf").is_file()
    assert (internal / "resources" / "regimes" / "sapezal-2014.toml").is_file()
    if os.name == "nt":
        assert (Path(BUNDLE).resolve() / "praca-gui.exe").is_file()
        return
    result = praca("install-desktop-entry")
    assert result.returncode == 0, result.stderr
    entry = (praca.home / "xdg_data_home" / "applications" / "praca.desktop").read_text(encoding="utf-8")
    assert f"Exec={Path(BUNDLE).resolve() / 'praca'}\n" in entry  # the bundle's own executable


# --------------------------------------------------------------------------- issue 32 §4: a bare desk's X11


def _system_xcb_extras() -> list[Path]:
    """The build machine's own copies of the xcb extras (packaging/qt_xcb.py), resolved to the files."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packaging"))
    from qt_xcb import XCB_EXTRAS, parse_ldd, xcb_plugin

    output = subprocess.run(["ldd", str(xcb_plugin())], capture_output=True, text=True, check=True).stdout
    return sorted(
        {path.resolve() for name, path in parse_ldd(output).items() if name in XCB_EXTRAS and path is not None}
    )


def test_the_bundle_carries_the_xcb_extras():
    """Every library Qt's xcb platform needs beyond the X client is in _internal/, where the bundle's loader
    path finds it before the system's."""
    if os.name == "nt":
        pytest.skip("the xcb platform is Linux's")
    internal = Path(BUNDLE).resolve() / "_internal"
    for name in ("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0", "libxkbcommon-x11.so.0"):
        assert (internal / name).is_file(), name
    plugin = next(internal.rglob("libqxcb.so"))
    ldd = subprocess.run(
        ["ldd", str(plugin)], capture_output=True, text=True, env={**os.environ, "LD_LIBRARY_PATH": str(internal)}
    ).stdout
    assert "not found" not in ldd
    for line in ldd.splitlines():
        if "libxcb-icccm" in line or "libxcb-keysyms" in line or "libxkbcommon-x11" in line:
            assert str(internal) in line, line


@pytest.mark.parametrize("platform", ["offscreen", "xcb"])
def test_the_window_opens_without_the_systems_xcb_extras(praca, platform, tmp_path):
    """The bundle on a desk without libxcb-icccm4, libxcb-keysyms1, libxcb-cursor0, libxkbcommon-x11-0 …: the
    system's copies are hidden (a private mount namespace binds /dev/null over each, as root), and the window
    opens offscreen and on an X server (Xvfb) from the bundle's own copies."""
    import shutil
    import time

    if os.name == "nt" or os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("hiding the system's libraries needs Linux, root and unshare")
    hidden = _system_xcb_extras()
    assert hidden, "the build machine's plugin links to no xcb extra"
    db = f"sqlite:///{praca.home / f'xcb-{platform}.sqlite3'}"
    assert praca("demo", "--db", db).returncode == 0
    env = {**praca.env, "PRACA_USER": "admin", "PRACA_PASSWORD": "praca2026", "QT_QPA_PLATFORM": platform}
    server = None
    if platform == "xcb":
        if not shutil.which("Xvfb"):
            pytest.skip("Xvfb não está instalado (apt-get install xvfb)")
        display = f":{90 + os.getpid() % 100}"
        server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1366x768x24", "-nolisten", "tcp"])
        time.sleep(1.5)
        env["DISPLAY"] = display
    else:
        env.pop("DISPLAY", None)
    mounts = " && ".join(f"mount --bind /dev/null {path}" for path in hidden)
    probe = f"ldd {next((Path(BUNDLE).resolve() / '_internal').rglob('libqxcb.so'))}"
    try:
        result = subprocess.run(
            [
                "unshare",
                "-m",
                "sh",
                "-c",
                f'{mounts} && ! LD_LIBRARY_PATH= {probe} >/dev/null 2>&1 && exec "$0" check-window --db "$1"',
                str(praca.program),
                db,
            ],
            capture_output=True,
            text=True,
            cwd=praca.home,
            env=env,
            timeout=300,
        )
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
    assert result.returncode == 0, result.stderr
    assert "mesas montadas: Painel, Atendimento" in result.stdout
