"""``praca init`` — create a new, empty Praça database: the explicit set-up of a server or a desk.

No other subcommand creates a database: a mistyped ``--db`` or a file emptied by accident is an error naming
the path (``models.db.NoDatabase``), never a fresh schema taken for the real one. A database that already
holds Praça's schema is left as it is (brought up to date if older) and said so.
"""

from __future__ import annotations

import argparse

LOGIN = False  # creates a new, empty database; an existing one is left as it is


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("Exemplos:\n"
                     "  praca init\n"
                     "  praca --db postgresql://praca@servidor:5432/praca init\n"
                     "Depois: o primeiro usuário administrador é criado ao abrir o aplicativo nesse banco.")


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.db import NoDatabase, close_database, current_url, open_database

    url = resolve_db_url(getattr(args, "db", None))
    try:
        open_database(url)
        existed = True
    except NoDatabase:
        open_database(url, create=True)
        existed = False
    try:
        where = current_url().display()
    finally:
        close_database()
    if existed:
        print(f"{where} já é um banco de dados do Praça; nada foi criado.")
    else:
        print(f"Banco de dados do Praça criado em {where}. Abra o aplicativo nele para cadastrar o primeiro "
              f"administrador.")
    return 0
