"""``praca check-window``: the smoke test of an installation opens every desk, and says which one failed."""

from __future__ import annotations

import pytest

import desktop.main_window
from desktop.cli import main


def test_every_desk_is_built(app_ready, database, capsys):
    assert main(["check-window", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "mesas montadas: Painel, Atendimento, Seleção, Mapas, Cobrança, Fiscalização, Relatórios, Cadastros" in out


@pytest.mark.qt_no_exception_capture  # the command's own hook is what is tested
def test_a_desk_that_fails_fails_the_check(app_ready, database, capsys, monkeypatch):
    def broken():
        raise RuntimeError("recurso ausente")

    monkeypatch.setattr(desktop.main_window, "_maps", broken)
    assert main(["check-window", "--db", database]) == 1
    err = capsys.readouterr().err
    assert "RuntimeError: recurso ausente" in err
    assert err.count("praca check-window:") == 1
