"""``praca install-desktop-entry``: Praça in a Linux desk's application menu."""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
import sys

import pytest

from desktop.cli import main
from desktop.commands.desktop_entry import desktop_entry, exec_line

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop.org menus: Linux")


def _read(path):
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_installs_the_entry_and_the_icon_for_the_user(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["install-desktop-entry"]) == 0
    entry_file = tmp_path / "applications" / "praca.desktop"
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "praca.svg"
    assert icon.read_text(encoding="utf-8").lstrip().startswith("<")
    entry = _read(entry_file)
    assert entry["Name"] == "Praça" and entry["Type"] == "Application" and entry["Icon"] == "praca"
    assert entry["Terminal"] == "false"
    program = shlex.split(entry["Exec"])[0]  # the praca of the environment that ran the command
    assert shutil.which(program) or program == sys.executable
    assert str(entry_file) in capsys.readouterr().out
    validate = shutil.which("desktop-file-validate")
    if validate:  # the freedesktop.org checker, where the desk has it
        result = subprocess.run([validate, str(entry_file)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr

    assert main(["install-desktop-entry", "--remove"]) == 0
    assert not entry_file.exists() and not icon.exists()


def test_a_path_with_spaces_and_specials_is_quoted():
    line = exec_line(["/opt/Praça Municipal/$bin/praca"])
    assert line == '"/opt/Praça Municipal/\\\\$bin/praca"'  # quoted, $ escaped, then the string escape
    assert exec_line(["/usr/bin/praca"]) == "/usr/bin/praca"
    assert "Exec=/usr/bin/praca\n" in desktop_entry(["/usr/bin/praca"])


def test_a_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert main(["install-desktop-entry"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("praca: Não foi possível gravar em") and err.count("\n") == 1
