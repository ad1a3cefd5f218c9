"""``praca check-window``: the smoke test of an installation opens every desk, and says which one failed.

Every desk is built on each back end; what the command does when a desk fails and which settings it leaves alone
is the command's, not the back end's: those run on SQLite only (``sqlite_database``)."""

from __future__ import annotations

import pytest

import desktop.main_window
from desktop.cli import main


def test_every_desk_is_built(app_ready, database, capsys):
    assert main(["check-window", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "mesas montadas: Painel, Atendimento, Seleção, Mapas, Cobrança, Fiscalização, Relatórios, Cadastros" in out


@pytest.mark.qt_no_exception_capture  # the command's own hook is what is tested
def test_a_desk_that_fails_fails_the_check(app_ready, sqlite_database, capsys, monkeypatch):
    def broken():
        raise RuntimeError("recurso ausente")

    monkeypatch.setattr(desktop.main_window, "_maps", broken)
    assert main(["check-window", "--db", sqlite_database]) == 1
    err = capsys.readouterr().err
    assert "RuntimeError: recurso ausente" in err
    assert err.count("praca check-window:") == 1


def _settings_snapshot() -> dict:
    from PySide6.QtCore import QSettings

    settings = QSettings()
    settings.sync()
    return {key: settings.value(key) for key in settings.allKeys()}


@pytest.mark.parametrize("before", [{}, {"window/desk": "cobranca"}], ids=["sem-ajustes", "mesa-do-escrivao"])
def test_check_window_leaves_the_users_settings_alone(app_ready, sqlite_database, capsys, before):
    """An installation's check opens every desk and closes on the last (Cadastros): the clerk's next start still
    opens on the desk and at the size the clerk left, and a desk never used gets no settings at all."""
    from PySide6.QtCore import QSettings

    settings = QSettings()
    settings.clear()
    for key, value in before.items():
        settings.setValue(key, value)
    settings.sync()
    assert main(["check-window", "--db", sqlite_database]) == 0
    assert _settings_snapshot() == before
    QSettings().clear()


def test_commands_that_only_look_write_no_settings(app_ready, sqlite_database, capsys, tmp_path):
    """``regimes``, ``quote``, ``verify`` and ``check-window`` read; none writes the user's settings file."""
    import os

    from PySide6.QtCore import QSettings

    QSettings().clear()
    QSettings().sync()
    path = QSettings().fileName()
    if os.path.exists(path):
        os.remove(path)
    for argv in (
        ["regimes"],
        ["verify", "PRACA3.AAAAAAAA.AAAA.AAAA"],
        ["check-window", "--db", sqlite_database],
    ):
        main(argv)
        assert not os.path.exists(path), argv
        assert _settings_snapshot() == {}, argv
