"""The ``praca`` command line: help, version, demo, unbuilt commands, one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from desktop.cli import COMMANDS, main


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real entry point, in a process of its own (``python -m desktop``)."""
    full_env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args], capture_output=True, text=True, env=full_env, timeout=120
    )


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: praca")
    for name in [
        "demo",
        "regimes",
        "quote",
        "penalty",
        "deadline",
        "draw",
        "sites",
        "layout",
        "permit",
        "verify",
        "report",
        "import",
        "backup",
        "restore",
    ]:
        assert name in COMMANDS
        assert f"    {name}" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("Praça ")


@pytest.mark.parametrize("name", [n for n, (module, _) in COMMANDS.items() if module is None])
def test_unbuilt_commands_say_so_and_exit_2(name, capsys):
    assert main([name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"'{name}' ainda não está disponível" in err


def test_unknown_option_is_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--nada"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_demo_creates_then_refuses(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    assert main(["demo", "--db", url]) == 0
    assert "pessoas" in capsys.readouterr().out
    assert main(["--db", url, "demo"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "praca: O banco de dados já contém dados; o demo só é gravado em um banco novo."


def test_demo_on_postgres(pg_schema_url, capsys):
    """The command on PostgreSQL, with one town (the six acts' demo is built on PostgreSQL by the run's demo template,
    tests/demo_db.py, and compared with SQLite's in test_demo)."""
    assert main(["demo", "--town", "sao-bento", "--db", pg_schema_url]) == 0
    assert "pessoas" in capsys.readouterr().out
    assert main(["demo", "--db", pg_schema_url]) == 2


def test_bad_db_url_is_one_line(capsys):
    assert main(["demo", "--db", "mysql://x@y/z"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("praca: URL de banco de dados inválida")


def test_foreign_file_via_subprocess(tmp_path):
    bad = tmp_path / "x.txt"
    bad.write_text("texto")
    result = run_cli("demo", "--db", f"sqlite:///{bad}")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "não é um banco de dados do Praça" in result.stderr
    assert bad.read_text() == "texto"


def test_python_m_desktop_and_console_script_agree(tmp_path):
    assert run_cli("--version").stdout.startswith("Praça ")
    script = os.path.join(os.path.dirname(sys.executable), "praca")
    if not os.path.exists(script):
        pytest.skip("console script not installed in this environment")
    result = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("Praça ")


def test_praca_db_variable_is_honoured(tmp_path):
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    # praca init: a command that creates the database, in a second (the demo took minutes on a busy machine)
    result = run_cli("init", "--admin", "ana", env={"PRACA_DB": url, "PRACA_PASSWORD": "senha-forte-123"})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "env.sqlite3").exists()
