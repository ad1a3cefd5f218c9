"""``praca backup --out FILE`` — a backup of the database, in Praça's portable format.

The embedded database is copied with SQLite's online backup API (safe while
Praça runs on this or another desk); PostgreSQL is read in one consistent
transaction. Either way the file (``*.praca-backup``, a zip with a manifest
and the data as JSON lines) restores into either back end with
``praca restore``. See ``models/backup.py`` for the format.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="ARQUIVO", type=Path, required=True,
                        help="arquivo do backup a gravar (ex.: praca-2026-11-30.praca-backup)")
    parser.epilog = ("Exemplos:\n"
                     "  praca backup --out praca-2026-11-30.praca-backup\n"
                     "  praca --db postgresql://praca@servidor:5432/praca backup --out /mnt/backups/praca.praca-backup")


def run(args: argparse.Namespace) -> int:
    from desktop import __version__
    from desktop.paths import resolve_db_url
    from models.backup import count_text, write_backup
    from models.db import close_database, open_database

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        info = write_backup(args.out, app_version=__version__)
    finally:
        close_database()
    backend = "SQLite" if info.backend == "sqlite" else "PostgreSQL"
    print(f"Backup gravado em {info.path}: {count_text(info.counts)} "
          f"({backend}, esquema versão {info.schema_version}).")
    return 0
