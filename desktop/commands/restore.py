"""``praca restore FILE [--force] [--check]`` — put a backup back, all of it or nothing.

The file is checked first (a Praça backup, a format and schema version this
Praça knows, the SHA-256 of its data); anything else is refused with one line
and exit 2. A backup of an older Praça is brought up to date after it is read.
The restore is one transaction on the database given by ``--db`` (of either
back end: a PostgreSQL backup restores into the embedded database and the
other way round). A database that already holds data is replaced only with
``--force``, and then a backup of what it held is written first to the data
folder's ``backups`` (``antes-da-restauracao-….praca-backup``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOGIN = "unless-empty"  # a restore into a new database is its set-up: nobody to log in as yet


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="ARQUIVO", type=Path, help="o backup (*.praca-backup)")
    parser.add_argument("--force", action="store_true",
                        help="substitui os dados de um banco que não está vazio (um backup do que ele tinha é "
                             "gravado antes na pasta de backups)")
    parser.add_argument("--check", action="store_true",
                        help="só confere o arquivo e diz o que ele contém; não restaura nada")
    parser.epilog = ("Exemplos:\n"
                     "  praca restore praca-2026-11-30.praca-backup --check\n"
                     "  praca --db sqlite:///novo.sqlite3 restore praca-2026-11-30.praca-backup\n"
                     "  praca restore praca-2026-11-30.praca-backup --force")


def run(args: argparse.Namespace) -> int:
    from desktop import __version__
    from desktop.paths import data_dir, resolve_db_url
    from models.backup import count_text, read_backup, restore_backup, safety_copy_name
    from models.db import close_database, current_url, open_database

    backup = read_backup(args.file)  # a file that is not a good backup is refused before any database is opened
    if args.check:
        print(f"{args.file}: {backup.describe()}. O arquivo confere (SHA-256 {backup.manifest['payload_sha256']}).")
        return 0
    # A restore writes a whole database: into a new one too (the explicit set-up of a desk that starts from a
    # backup); an empty file is then filled by the restore, never mistaken for the real database.
    open_database(resolve_db_url(getattr(args, "db", None)), create=True)
    try:
        where = current_url().display()
        keep = None
        if args.force:
            folder = data_dir() / "backups"
            folder.mkdir(parents=True, exist_ok=True)
            keep = folder / safety_copy_name()
        result = restore_backup(args.file, force=args.force, keep_current=keep, app_version=__version__)
    finally:
        close_database()
    text = f"Backup restaurado em {where}: {count_text(result.counts)}."
    if result.upgraded:
        from models.schema import LATEST

        text += f" Atualizado do esquema versão {result.from_version} para a {LATEST}."
    if result.kept_copy is not None:
        text += f" O que havia ({count_text(result.replaced)}) foi guardado em {result.kept_copy}."
    print(text)
    return 0
