"""``praca pg-setup`` — on the PostgreSQL server, with the tables' owner's credentials: the desks' rights.

What ``praca init`` does for a new server, and the upgrade step of an existing one (issue 26 §2,
``models/store/desks.py``): the schema brought up to date, the desks' group role (``praca_desk``) created when
missing and given exactly the rights of ``models.store.desks.RIGHTS`` (whatever it or an older shared role held is
revoked), ``--desk-login mesa01`` a login role of its own for one desk (its password asked twice, or read from
``PRACA_DESK_PASSWORD``), and ``--enroll LOGIN`` the server's proof of a Praça user's password (asked, checked
against the user's): a user the server has no proof for cannot log in at a desk until then, or until the
administrator sets their password again. Run it again at any time: it changes nothing it does not have to.
"""

from __future__ import annotations

import argparse

LOGIN = False  # the owner's credentials are the authority: it runs on the server, before any desk can log in


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--desk-role",
        metavar="PAPEL",
        default=None,
        help="o papel (grupo) das mesas no PostgreSQL (padrão: praca_desk)",
    )
    parser.add_argument(
        "--desk-login",
        metavar="LOGIN",
        action="append",
        default=[],
        help="cria (ou troca a senha de) o login de uma mesa, membro do papel das mesas; a senha é pedida duas vezes "
        "ou lida de $PRACA_DESK_PASSWORD",
    )
    parser.add_argument(
        "--enroll",
        metavar="USUARIO",
        action="append",
        default=[],
        help="faz a senha de um usuário do Praça valer nas mesas (a senha é pedida e conferida)",
    )
    parser.epilog = (
        "Exemplos (no servidor, com o dono das tabelas):\n"
        "  praca --db postgresql://praca@localhost:5432/praca pg-setup\n"
        "  praca --db postgresql://praca@localhost:5432/praca pg-setup --desk-login mesa01 --enroll joana.silva\n"
        "Cada mesa usa então postgresql://mesa01@servidor:5432/praca (a senha em pgpass.conf)."
    )


def _ask(prompt: str, env: str | None = None, *, twice: bool = False) -> str:
    import os

    from desktop import login as cli_login
    from models.base.errors import UserError

    if env and os.environ.get(env) is not None:
        return os.environ[env]
    try:
        first = cli_login.ask_password(prompt)
        if twice and cli_login.ask_password("Repita a senha: ") != first:
            raise UserError("A confirmação não é igual à senha; nada foi alterado.", field="password")
    except (EOFError, KeyboardInterrupt, OSError):
        raise UserError("Senha não informada; nada foi alterado.", field="password") from None
    return first


def run(args: argparse.Namespace) -> int:
    from peewee import PeeweeException

    from desktop.paths import resolve_db_url
    from models.access import users
    from models.base.errors import UserError
    from models.store import desks
    from models.store.bootstrap import close_database, open_database
    from models.store.db import database_error_text, parse_url

    url = resolve_db_url(getattr(args, "db", None))
    if parse_url(url).backend != "postgresql":
        raise UserError(
            "praca pg-setup é para um servidor PostgreSQL (--db postgresql://…); o banco embutido é de uma mesa só."
        )
    role = args.desk_role or desks.DESK_ROLE
    desks.check_role_name(role, "o papel das mesas")
    for login in args.desk_login:
        desks.check_role_name(login, "o login da mesa")
    logins = [
        (login, _ask(f"Senha do login da mesa {login}: ", "PRACA_DESK_PASSWORD", twice=True))
        for login in args.desk_login
    ]
    database = open_database(url)  # an older schema is brought up to date here: this is the upgrade step
    try:
        if desks.is_desk(database):
            raise UserError(
                "praca pg-setup precisa das credenciais do dono das tabelas (no servidor), não as de uma mesa; "
                "nada foi alterado."
            )
        try:
            with database.atomic():
                desks.install(database)
                desks.grant(database, role)
                for login, password in logins:
                    desks.add_desk_login(database, login, password, role)
        except PeeweeException as exc:
            raise UserError(
                f"O servidor recusou a configuração das mesas ({database_error_text(exc) or exc}). Rode com um "
                f"papel que possa criar papéis (CREATEROLE), ou crie antes: CREATE ROLE {role} NOLOGIN; — nada foi "
                f"alterado."
            ) from None
        where = parse_url(url).display()
        print(f"{where}: as mesas (papel {role}) só podem o que o usuário do Praça que entrou nelas pode.")
        for login, _password in logins:
            print(f"Login da mesa {login} pronto: PRACA_DB=postgresql://{login}@SERVIDOR:PORTA/BANCO, senha em pgpass.")
        for login in args.enroll:
            user = users.User.get_or_none(users.User.username == login.strip().lower())
            password = _ask(f"Senha de {login} no Praça: ")
            if user is None or not user.active or not users.check_password(password, user.password_hash):
                raise UserError(f"Usuário ou senha incorretos para {login}; a senha dele não foi cadastrada nas mesas.")
            desks.store_verifier(database, user.username, password)
            print(f"A senha de {user.username} vale nas mesas.")
        missing = [
            u.username
            for u in users.User.select().where(users.User.active).order_by(users.User.username)
            if not desks.has_verifier(database, u.username)
        ]
        if missing:
            print(
                "Ainda não entram nas mesas (a senha deles é anterior): "
                + ", ".join(missing)
                + ". Use praca pg-setup --enroll LOGIN, ou o administrador redefine a senha em Cadastros → Usuários."
            )
    finally:
        close_database()
    return 0
