"""``praca init`` — create a new, empty Praça database: the explicit set-up of a server or a desk.

No other subcommand creates a database: a mistyped ``--db`` or a file emptied by accident is an error naming
the path (``models.store.db.NoDatabase``), never a fresh schema taken for the real one. A database that already
holds Praça's schema is left as it is (brought up to date if older) and said so.

``--admin LOGIN`` also creates the first administrator, so that a server is prepared headless: every
subcommand that changes data asks for a login (``desktop/login.py``), and a database without users has nobody
to log in as. The password is read from ``PRACA_PASSWORD`` or asked twice on the terminal; a database that
already has users is refused (further users are created by the administrator in Cadastros → Usuários).

``--municipality NOME --uf UF [--ibge …] [--cnpj …] …`` says which municipality the database is (issue 31 §1:
one database, one town hall — ``models.registry.municipality``), checked before anything is created. Without
it the window asks the administrator at the first start, and ``praca municipality set`` sets it later.

``--act FILE_OR_ID`` (repeatable) installs the municipality's act(s): a regime file of its own, or the id of an
act shipped with Praça. Without it a new database gets the shipped acts of the municipality named (Olímpia's for
``--municipality Olímpia``) and none for a town Praça ships no act of — then the first steps' "Ato(s)" stays
pending until the administrator installs one (``praca regimes install``). An act of another municipality is
refused, and every act is checked before anything is created: a database is one town hall.
"""

from __future__ import annotations

import argparse

LOGIN = False  # creates a new, empty database; an existing one is left as it is


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--admin",
        metavar="LOGIN",
        help="cria também o primeiro administrador com esse login (a senha é pedida duas vezes, "
        "ou lida de $PRACA_PASSWORD)",
    )
    parser.add_argument("--admin-name", metavar="NOME", help="nome completo do administrador (padrão: o login)")
    from desktop.commands.municipality import identity_options

    identity_options(parser, name_flag="--municipality")
    parser.add_argument(
        "--act",
        metavar="ARQUIVO_OU_ID",
        action="append",
        help="o ato do município: o seu arquivo .toml ou o id de um ato fornecido com o Praça (repita para mais "
        "de um). Padrão: os atos fornecidos do município informado em --municipality (nenhum para outro "
        "município: instale-o depois com praca regimes install)",
    )
    parser.epilog = (
        "Exemplos:\n"
        "  praca init --municipality Olímpia --uf SP --ibge 3533908\n"
        "  praca init --municipality 'Minha Cidade' --uf SP --act minha-cidade-2027.toml\n"
        "  praca --db postgresql://praca@servidor:5432/praca init --admin joana.silva "
        "--admin-name 'Joana Silva'\n"
        "Sem --admin, o primeiro administrador é criado ao abrir o aplicativo nesse banco."
    )


def _admin_password(login: str) -> tuple[str, str]:
    """The first administrator's password and its confirmation: ``PRACA_PASSWORD``, else asked twice."""
    import os

    from desktop import login as cli_login
    from models.base.errors import UserError

    env = os.environ.get("PRACA_PASSWORD")
    if env is not None:
        return env, env
    try:
        return (cli_login.ask_password(f"Senha do administrador {login}: "), cli_login.ask_password("Repita a senha: "))
    except (EOFError, KeyboardInterrupt, OSError):
        raise UserError(f"Senha do administrador {login} não informada; nada foi criado.", field="password") from None


def _create_admin(args: argparse.Namespace, password: str) -> str:
    from models.access.users import create_user, has_users
    from models.base.errors import UserError

    if has_users():
        raise UserError(
            "Este banco já tem usuários: o administrador cria os demais em Cadastros → Usuários; "
            "nenhum administrador foi criado.",
            field="admin",
        )
    login = args.admin.strip()
    user = create_user(
        username=login, name=(args.admin_name or "").strip() or login, role="administrador", password=password
    )
    return user.username


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database
    from models.store.db import NoDatabase, current_url

    url = resolve_db_url(getattr(args, "db", None))
    town = _identity(args)  # a bad municipality is refused before any database is created
    chosen = _chosen_acts(args, town)  # so is an unreadable, invalid or another town's act
    admin = getattr(args, "admin", None)
    password = ""
    if admin is not None:  # a bad login or password is refused before any database is created
        from models.access.users import check_new_login

        check_new_login(username=admin)
        password, confirm = _admin_password(admin.strip())
        check_new_login(username=admin, password=password, confirm=confirm)
    try:
        open_database(url)
        existed = True
    except NoDatabase:
        open_database(url, create=True)
        existed = False
    try:
        opened = current_url()
        assert opened is not None  # opened just above
        where = opened.display()
        if town is not None:
            _set_identity(town)
        acts_note = _install_acts(args, chosen, existed)
        created_admin = _create_admin(args, password) if admin is not None else None
        desk_note = "" if existed else _desk_role()
        from models.registry.municipality import missing_notice, municipality

        town_note = missing_notice() or f"Município deste banco: {municipality().label}."
    finally:
        close_database()
    if existed:
        print(f"{where} já é um banco de dados do Praça; nenhum banco foi criado.")
    else:
        print(f"Banco de dados do Praça criado em {where}.")
    if created_admin:
        print(
            f"Administrador {created_admin} criado: use praca --user {created_admin} nos comandos que pedem "
            f"login, ou entre com ele no aplicativo."
        )
    elif not existed:
        print("Abra o aplicativo nele para cadastrar o primeiro administrador, ou use praca init --admin LOGIN.")
    print(town_note)
    if acts_note:
        print(acts_note)
    if desk_note:
        print(desk_note)
    if not existed:
        print("O que falta para atender: praca first-steps (no aplicativo, Ajuda → Primeiros passos).")
    return 0


def _identity(args: argparse.Namespace):
    """The municipality the options give, checked (``None`` when no option names one)."""
    from desktop.commands.municipality import given_identity
    from models.registry.municipality import check

    keys = ("name", "uf", "ibge", "cnpj", "address", "agency", "coat_of_arms", "office_hours")
    if all(getattr(args, key, None) is None for key in keys):
        return None
    given = given_identity(args)
    check(given)
    return given


def _chosen_acts(args: argparse.Namespace, town) -> list:
    """The acts ``--act`` names, each read and checked against the municipality given (nothing created yet); without
    ``--act``, the shipped acts of that municipality (``None``: no municipality named, the default is decided once
    the database is open)."""
    from models.rules.acts import ActChoice, check_choice, choose_act, shipped_for

    name = (town.name or "") if town is not None else ""
    specs = getattr(args, "act", None)
    if specs is None:
        return [ActChoice(shipped_id=r.id) for r in shipped_for(name)] if name else []
    chosen = [choose_act(spec) for spec in specs]
    for choice in chosen:
        check_choice(choice, name)
    return chosen


def _install_acts(args: argparse.Namespace, chosen: list, existed: bool) -> str:
    """Install the chosen acts in the database being set up (as the system, while it has no users); what to tell
    the administrator."""
    from models.access import session
    from models.access.users import has_users
    from models.base.errors import UserError
    from models.registry.municipality import municipality
    from models.rules.acts import check_choice, held_ids, history, install_choice

    named = getattr(args, "act", None) is not None
    if existed and not named and (held_ids() or has_users()):
        return ""  # an existing database in use keeps its acts; init says so and changes nothing
    if existed and has_users():
        raise UserError(
            "Este banco já tem usuários: o administrador instala o ato com praca --user LOGIN regimes install "
            "ARQUIVO_OU_ID (ou em Cadastros → Regimes); nada foi instalado.",
            field="act",
        )
    town = municipality().name
    for choice in chosen:
        check_choice(choice, town)  # against the stored municipality too (an existing database's)
    installed = []
    with session.acting_as(session.SYSTEM):
        for choice in chosen:
            if choice.shipped_id and any(v.regime_id == choice.shipped_id for v in history()):
                continue  # already there (an existing database)
            installed.append(install_choice(choice))
    if installed:
        return (
            "Ato(s) do município instalado(s): "
            + "; ".join(f"{v.regime.act if v.regime else v.regime_id} ({v.regime_id})" for v in installed)
            + "."
        )
    if existed:
        return ""
    return (
        "Nenhum ato instalado"
        + (f": o Praça não traz o ato de {town}" if town else "")
        + ". Instale o ato do município com praca --user LOGIN regimes install ARQUIVO_OU_ID "
        "(ou no aplicativo, Primeiros passos → Ato(s) do município)."
    )


def _set_identity(given) -> None:
    """The municipality of a database being set up: by the system while it has no users (its set-up), else
    refused — an existing database's municipality is changed by its administrator (praca municipality set)."""
    from models.access import session
    from models.access.users import has_users
    from models.base.errors import UserError

    if has_users():
        raise UserError(
            "Este banco já tem usuários: o administrador informa o município com praca --user LOGIN "
            "municipality set (ou em Cadastros → Município); nada foi alterado.",
            field="municipality",
        )
    from models.registry.municipality import set_municipality

    with session.acting_as(session.SYSTEM):
        set_municipality(given)


def _desk_role() -> str:
    """On PostgreSQL, the desks' group role and its rights (``models.store.desks``): what to tell the server's
    administrator ("" on SQLite)."""
    from peewee import PeeweeException, PostgresqlDatabase

    from models.store import desks
    from models.store.db import db

    database = db.obj
    if not isinstance(database, PostgresqlDatabase):
        return ""
    try:
        with database.atomic():
            desks.grant(database)
    except PeeweeException:  # an owner that may not create roles: pg-setup, run by one that may, does it
        return (
            f"As mesas ainda não têm o papel {desks.DESK_ROLE}: rode praca pg-setup com um papel que possa criar "
            f"papéis (README, Várias mesas)."
        )
    return (
        f"As mesas entram pelo papel {desks.DESK_ROLE}, que só pode o que o usuário do Praça pode: crie o login de "
        f"cada mesa com praca pg-setup --desk-login mesa01."
    )
