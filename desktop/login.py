"""The command line's login: who runs a subcommand that changes data or reads personal data.

Every subcommand module under ``desktop/commands`` says whether it needs a
logged-in Praça user with a module attribute ``LOGIN`` (see ``desktop/cli.py``):

* ``LOGIN = True`` — the default, also when the module says nothing (deny by default);
* ``LOGIN = False`` — it only computes from the acts (``regimes``, ``quote``…) or sets up a new database
  (``init``, ``demo``);
* ``LOGIN = "unless-empty"`` — as ``True``, except on a database that holds no data yet (a restore into a
  new database is its explicit set-up: there is nobody to log in as);
* ``LOGIN = callable(args) -> bool`` — when it depends on the arguments (``units`` lists freely, ``units set``
  needs a login).

The user is named by ``--user NAME`` (the password is then asked on the terminal, or read from
``PRACA_PASSWORD``) or by ``PRACA_USER`` and ``PRACA_PASSWORD`` in the environment (scheduled jobs). The
login happens when the subcommand opens its database (``models.store.bootstrap.on_next_open``), against that database,
with the same throttling as the desk's (``models.access.users.authenticate``); from then on every act runs, and is
audited, as that user. A subcommand that never opens a database never asks anyone.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import warnings

from models.access import session
from models.base.errors import UserError

#: How the password is asked on a terminal (tests replace it).
ask_password = getpass.getpass


def needs_login(args: argparse.Namespace) -> bool | str:
    rule = getattr(args, "_login", True)
    if callable(rule):
        return bool(rule(args))
    return rule


def credentials(args: argparse.Namespace) -> tuple[str, str]:
    """The login name and password for this run: ``--user`` (password asked, or ``PRACA_PASSWORD``), else
    ``PRACA_USER`` and ``PRACA_PASSWORD``."""
    env_user = os.environ.get("PRACA_USER", "").strip()
    env_password = os.environ.get("PRACA_PASSWORD")
    user = (getattr(args, "user", None) or "").strip() or env_user
    command = getattr(args, "command", None) or ""
    if not user:
        raise UserError(
            f"praca {command} exige login: use --user NOME (a senha é pedida) ou defina PRACA_USER e "
            f"PRACA_PASSWORD no ambiente.",
            field="user",
        )
    if env_password is not None and (not env_user or env_user.lower() == user.lower()):
        return user, env_password
    try:
        with warnings.catch_warnings():  # no terminal: getpass reads standard input (a pipe) — said on stderr
            warnings.simplefilter("ignore", getpass.GetPassWarning)
            return user, ask_password(f"Senha de {user} no Praça: ")
    except (EOFError, KeyboardInterrupt, OSError):
        raise UserError(f"Senha de {user} não informada.", field="password") from None


def _log_in(args: argparse.Namespace, rule) -> None:
    from models.access.users import authenticate, has_users
    from models.store.schema import is_empty

    if rule == "unless-empty" and is_empty() and not has_users():
        session.log_in(session.SYSTEM)  # a new database: its set-up, as the system
        return
    name, password = credentials(args)
    session.log_in(authenticate(name, password).as_session())


@contextlib.contextmanager
def for_command(args: argparse.Namespace):
    """Around one subcommand: log its user in when it opens its database, and out when it ends.

    A session already open in this process (an embedding program, the tests) is kept while it belongs to the
    database the subcommand opens: a login made on another database ends when this one opens
    (:func:`models.access.session.database_opened`), and the subcommand's user logs in here instead.
    """
    from models.store import bootstrap

    rule = needs_login(args)
    if not rule:
        yield
        return
    kept = session.current()

    def log_in_here() -> None:
        if session.current() is None:
            _log_in(args, rule)

    bootstrap.on_next_open(log_in_here)
    try:
        yield
    finally:
        bootstrap.forget_next_open()
        if session.current() is not kept:  # the subcommand's own login ends with it
            session.log_out()
