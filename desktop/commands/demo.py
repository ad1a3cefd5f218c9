"""``praca demo`` — a new database filled with realistic demo data."""

from __future__ import annotations

import argparse

from desktop.paths import resolve_db_url
from models.access.signing_keys import MUNICIPAL_KEY
from models.demo import fill_demo
from models.store.bootstrap import close_database, open_database

LOGIN = False  # a new database only (it refuses one with data): filled as the system


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "Recusa gravar em um banco que já tenha dados."


def run(args: argparse.Namespace) -> int:
    url = resolve_db_url(getattr(args, "db", None))
    open_database(url, create=True)  # a new database: the demo's explicit set-up
    try:
        counts = fill_demo(key_dir=MUNICIPAL_KEY)
    finally:
        close_database()
    print(f"Banco de demonstração criado em {url}: {counts['people']} pessoas, {counts['companies']} empresas.")
    return 0
