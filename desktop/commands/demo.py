"""``praca demo [--town TOWN]`` — a new database filled with realistic demo data."""

from __future__ import annotations

import argparse

from desktop.paths import resolve_db_url
from models.access.signing_keys import MUNICIPAL_KEY
from models.demo import fill_demo
from models.demo.towns import DEFAULT_TOWN, TOWNS
from models.store.bootstrap import close_database, open_database

LOGIN = False  # a new database only (it refuses one with data): filled as the system


def configure(parser: argparse.ArgumentParser) -> None:
    towns = "; ".join(f"{slug}: {t.label} ({t.regime_id})" for slug, t in TOWNS.items())
    parser.add_argument(
        "--town",
        choices=list(TOWNS),
        metavar="MUNICÍPIO",
        help=f"um município com o seu próprio ato, datado de hoje, com trabalho aberto em cada mesa — {towns}. "
        f"Sem --town: os seis atos num banco só, o município {TOWNS[DEFAULT_TOWN].label}, datado de 30/11/2026",
    )
    parser.epilog = "Recusa gravar em um banco que já tenha dados."


def run(args: argparse.Namespace) -> int:
    url = resolve_db_url(getattr(args, "db", None))
    town = getattr(args, "town", None)
    open_database(url, create=True)  # a new database: the demo's explicit set-up
    try:
        counts = fill_demo(key_dir=MUNICIPAL_KEY, town=town)
    finally:
        close_database()
    where = f" ({TOWNS[town].label}, {TOWNS[town].regime_id})" if town else ""
    print(
        f"Banco de demonstração criado em {url}{where}: {counts['people']} pessoas, {counts['companies']} empresas, "
        f"{counts.get('applications', 0)} requerimentos, {counts.get('permits', 0)} permissões."
    )
    return 0
