"""``praca init --admin``: a server prepared headless has someone to log in as (issue 16 §4, issue 17).

Every subcommand that changes data asks for a Praça login; without this the first administrator could only be
created by opening the application on the new database."""

from __future__ import annotations

import pytest

from desktop import login as cli_login
from desktop.cli import main
from models.access import session
from models.store.bootstrap import close_database, open_database
from models.store.db import NoDatabase


def _no_database(url: str) -> bool:
    try:
        open_database(url)
    except NoDatabase:
        return True
    close_database()
    return False


def test_init_creates_the_first_administrator_who_can_then_log_in(db_url, monkeypatch, capsys):
    monkeypatch.setenv("PRACA_PASSWORD", "senha-forte-123")
    assert main(["init", "--db", db_url, "--admin", "Joana.Silva", "--admin-name", "Joana Silva"]) == 0
    out = capsys.readouterr().out
    assert "Banco de dados do Praça criado" in out and "Administrador joana.silva criado" in out
    with session.acting_as(None):
        monkeypatch.delenv("PRACA_USER", raising=False)
        assert main(["sites", "--db", db_url]) == 2  # deny by default: nobody named
        assert "exige login" in capsys.readouterr().err
        monkeypatch.setenv("PRACA_USER", "joana.silva")
        assert main(["sites", "--db", db_url]) == 0
    assert capsys.readouterr().out == "Nenhum local cadastrado.\n"
    # a second administrator is the first one's to create, on the desk
    assert main(["init", "--db", db_url, "--admin", "outro"]) == 2
    assert "já tem usuários" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (["curta", "curta"], "ao menos"),
        (["senha-forte-123", "senha-forte-321"], "confirmação não é igual"),
    ],
)
def test_a_refused_password_creates_no_database(db_url, monkeypatch, capsys, answers, message):
    monkeypatch.delenv("PRACA_PASSWORD", raising=False)
    asked = iter(answers)
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: next(asked))
    assert main(["init", "--db", db_url, "--admin", "joana"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert _no_database(db_url)


def test_a_bad_login_is_refused_before_the_password_is_asked(db_url, monkeypatch, capsys):
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: pytest.fail("asked a password for a bad login"))
    assert main(["init", "--db", db_url, "--admin", "joana silva!"]) == 2
    assert "Use só letras" in capsys.readouterr().err
    assert _no_database(db_url)
