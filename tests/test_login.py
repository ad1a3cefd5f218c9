"""Issue 16 §4: who acts is always known — deny by default, the command line's login, throttled logins."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from desktop import login as cli_login
from desktop.cli import main
from models.access import session, users
from models.base.errors import UserError
from models.demo.users import DEMO_PASSWORD, DEMO_USERS, demo_users
from models.store.audit import AuditEntry
from models.store.bootstrap import close_database, open_database

PASSWORD = "senha-forte-123"


@pytest.fixture
def users_db(database):
    """A database with an administrator and a clerk; closed, as a command finds it."""
    users.create_user(username="admin", name="Joana Admin", role="administrador", password=PASSWORD)
    users.create_user(username="ana", name="Ana Souza", role="atendente", password=PASSWORD)
    close_database()
    return database


@pytest.fixture
def nobody(monkeypatch):
    """A fresh process: nobody logged in, no PRACA_USER in the environment, no password typed."""
    for name in ("PRACA_USER", "PRACA_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: (_ for _ in ()).throw(EOFError()))
    with session.acting_as(None):
        yield


def test_nobody_logged_in_may_do_nothing():
    with session.acting_as(None):
        assert not session.can("people.save") and not session.can("backup")
        with pytest.raises(session.PermissionDenied, match=r"Ninguém entrou no Praça.*cópias de segurança"):
            session.require("backup")
        with pytest.raises(session.PermissionDenied):
            session.author()
    assert session.can("backup")  # the tests' system session


def test_a_subcommand_that_reads_the_database_asks_for_a_login(users_db, nobody, capsys):
    assert main(["--db", users_db, "sites"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "praca sites exige login: use --user NOME" in err
    assert session.current() is None


def test_the_environment_logs_a_scheduled_job_in_and_its_acts_carry_the_user(users_db, nobody, monkeypatch, capsys):
    monkeypatch.setenv("PRACA_USER", "admin")
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    code = main(["--db", users_db, "units", "set", "UFESP", "2031", "40,00", "--source", "Resolução SF 1/2031"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "(admin, fonte" in out.out
    assert session.current() is None  # logged out when the command ended
    open_database(users_db)
    try:
        entry = AuditEntry.select().where(AuditEntry.table_name == "fiscal_unit_value").get()
        assert entry.username == "admin"
    finally:
        close_database()


def test_user_option_asks_the_password_and_a_wrong_one_is_one_line(users_db, nobody, monkeypatch, capsys):
    asked = []
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: asked.append(prompt) or "errada-123")
    assert main(["--db", users_db, "--user", "ana", "sites"]) == 2
    assert asked == ["Senha de ana no Praça: "]
    assert capsys.readouterr().err.strip() == "praca: Usuário ou senha incorretos (ou usuário desativado)."
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: PASSWORD)
    assert main(["--db", users_db, "sites", "--user", "ana"]) == 0
    assert "Nenhum local cadastrado." in capsys.readouterr().out


def test_the_role_of_the_logged_in_user_is_enforced_on_the_command_line(
    users_db, nobody, monkeypatch, capsys, tmp_path
):
    monkeypatch.setenv("PRACA_USER", "ana")
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    assert main(["--db", users_db, "backup", "--out", str(tmp_path / "b.praca-backup")]) == 2
    err = capsys.readouterr().err
    assert "Ana Souza (atendente) não pode fazer e restaurar cópias de segurança" in err
    assert not (tmp_path / "b.praca-backup").exists()


def test_compute_only_subcommands_need_no_login(users_db, nobody, capsys):
    assert main(["regimes"]) == 0
    assert main(["penalty", "--regime", "sapezal-2014", "--infraction", "x"]) in (0, 2)
    assert "exige login" not in capsys.readouterr().err
    assert main(["--db", users_db, "units"]) == 0  # listing the fiscal values: no personal data


def test_a_subcommand_that_says_nothing_needs_a_login():
    import argparse

    from desktop.cli import build_parser

    assert cli_login.needs_login(argparse.Namespace()) is True  # deny by default
    parsed = build_parser().parse_args(["units", "set", "UFESP", "2031", "1", "--source", "x"])
    assert cli_login.needs_login(parsed) and not cli_login.needs_login(build_parser().parse_args(["units"]))
    assert cli_login.needs_login(build_parser().parse_args(["restore", "x.praca-backup"])) == "unless-empty"


def _scrypts(monkeypatch) -> list:
    calls = []
    real = hashlib.scrypt

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(users.hashlib, "scrypt", counted)
    return calls


def test_repeated_failures_wait_longer_then_lock_the_login_and_are_audited(users_db, monkeypatch):
    waits = []
    monkeypatch.setattr(users, "pause", waits.append)
    open_database(users_db)
    try:
        with session.acting_as(None):
            t0 = dt.datetime(2026, 12, 4, 10, 0)
            for i in range(users.MAX_FAILURES):
                with pytest.raises(UserError):
                    users.authenticate("ana", "errada-123", now=t0 + dt.timedelta(seconds=i))
            assert waits == [0.5, 1.0, 2.0, 4.0, 8.0]
            with pytest.raises(UserError, match=r"bloqueado.*tente de novo às 10:15"):
                users.authenticate("ana", PASSWORD, now=t0 + dt.timedelta(minutes=5))  # the right one, too early
            assert users.authenticate("ana", PASSWORD, now=t0 + dt.timedelta(minutes=16)).username == "ana"
            failed = list(AuditEntry.select().where(AuditEntry.action == "login-fail").order_by(AuditEntry.id))
            assert [e.username for e in failed] == ["ana"] * users.MAX_FAILURES
            assert "bloqueado até 04/12/2026 10:15" in failed[-1].note
            # a success starts the count again
            waits.clear()
            with pytest.raises(UserError, match="incorretos"):
                users.authenticate("ana", "errada-123", now=t0 + dt.timedelta(minutes=17))
            assert waits == [0.5]
    finally:
        close_database()


def test_an_unknown_login_costs_and_leaves_what_a_known_one_does(users_db, monkeypatch):
    open_database(users_db)
    try:
        with session.acting_as(None):
            users._decoy_hash()  # made once per process, before any timing matters
            calls = _scrypts(monkeypatch)
            for login in ("ana", "ninguem"):
                with pytest.raises(UserError) as refused:
                    users.authenticate(login, "errada-123")
                assert refused.value.message == "Usuário ou senha incorretos (ou usuário desativado)."
            assert len(calls) == 2  # one scrypt each
            assert users.LoginThrottle.select().count() == 2
            assert [e.username for e in AuditEntry.select().where(AuditEntry.action == "login-fail")] == [
                "ana",
                "ninguem",
            ]
    finally:
        close_database()


def test_every_user_has_a_salt_of_its_own_the_demos_too(database):
    demo_users()
    hashes = [u.password_hash for u in users.User.select()]
    salts = {h.split("$")[4] for h in hashes}
    assert len(hashes) == len(DEMO_USERS) == len(salts)
    assert users.authenticate("ana.souza", DEMO_PASSWORD).role == "atendente"


# --------------------------------------------------------------------------- issue 26 §4: logins under concurrency


def _attempts_at_once(url: str, passwords: list[str], monkeypatch, *, slow: float = 0) -> tuple[list, list]:
    """Every password tried for ``ana`` at the same moment, each from a thread of its own (a connection of its
    own, as a desk has); returns what each attempt ended in and how many passwords were checked. ``slow``: seconds
    each check of a password takes more (a busy desk)."""
    import threading
    import time

    from models.store.db import db

    checked = []
    real = users.check_password

    def counted(password, stored):
        checked.append(password)
        time.sleep(slow)
        return real(password, stored)

    monkeypatch.setattr(users, "check_password", counted)
    barrier = threading.Barrier(len(passwords))
    outcomes: list = [None] * len(passwords)

    def attempt(index: int, password: str) -> None:
        try:
            barrier.wait()
            outcomes[index] = users.authenticate("ana", password).username
        except BaseException as exc:  # whatever it is, the test says it
            outcomes[index] = exc
        finally:
            db.close()  # this thread's connection

    open_database(url)
    try:
        with session.acting_as(None):
            users._decoy_hash()
            threads = [threading.Thread(target=attempt, args=(i, p)) for i, p in enumerate(passwords)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(120)
    finally:
        close_database()
    return outcomes, checked


def test_sixteen_wrong_passwords_at_once_check_at_most_the_allowed_number(users_db, monkeypatch):
    outcomes, checked = _attempts_at_once(users_db, ["errada-123"] * 16, monkeypatch)
    assert len(checked) <= users.MAX_FAILURES, f"{len(checked)} passwords checked"
    assert all(isinstance(o, UserError) for o in outcomes), [o for o in outcomes if not isinstance(o, UserError)]
    texts = {o.message for o in outcomes}
    assert any("bloqueado" in t for t in texts)  # the ones after the limit: refused unchecked
    assert all("incorretos" in t or "bloqueado" in t for t in texts), texts  # never a raw database error
    open_database(users_db)
    try:
        failed = AuditEntry.select().where(AuditEntry.action == "login-fail").count()
        assert failed == len(checked)  # each password checked and refused left its entry
        with session.acting_as(None), pytest.raises(UserError, match="bloqueado"):
            users.authenticate("ana", PASSWORD)  # the right one now waits for the lock to end
    finally:
        close_database()


def test_twenty_three_wrong_and_the_right_one_at_once_check_at_most_the_allowed_number(users_db, monkeypatch):
    import random

    passwords = ["errada-123"] * 23 + [PASSWORD]
    random.Random(26).shuffle(passwords)
    outcomes, checked = _attempts_at_once(users_db, passwords, monkeypatch)
    refused = [o for o in outcomes if not isinstance(o, str)]
    assert all(isinstance(o, UserError) for o in refused), refused
    logged_in = [o for o in outcomes if isinstance(o, str)]
    if not logged_in:  # the lock came first: at most the allowed number checked, the right one refused unchecked
        assert len(checked) <= users.MAX_FAILURES, f"{len(checked)} passwords checked"
    else:  # the right one came among the first: the wrong ones before it and after it are each at most the limit
        assert logged_in == ["ana"]  # (a success starts the count again: the attempts taken after it count anew)
        right = checked.index(PASSWORD)
        assert right < users.MAX_FAILURES and len(checked) <= 2 * users.MAX_FAILURES, checked


def test_a_new_login_name_tried_at_once_never_surfaces_a_duplicate_key(users_db, monkeypatch):
    """The throttle's row of a name never tried is created by one attempt; the others, at the same moment, count
    on it (an upsert) instead of failing on login_throttle's unique key."""
    outcomes, _checked = _attempts_at_once(users_db, ["errada-123", "outra-456"] * 8, monkeypatch, slow=0.3)
    assert all(isinstance(o, UserError) for o in outcomes), outcomes
    assert not [o for o in outcomes if "duplicate" in o.message.lower() or "unique" in o.message.lower()]
