"""``praca backup --out FILE`` — a backup of the database, in Praça's portable format.

The embedded database is read in one read transaction of its own (a
consistent state, safe while Praça runs on this or another desk, and no copy
on disk); PostgreSQL is read in one consistent transaction. Either way the
file (``*.praca-backup``, a zip with a manifest and the data as JSON lines)
restores into either back end with ``praca restore``. See ``models/store/backup/__init__.py`` for the format.

The backup is signed (``models/store/sealed.py``): with the municipality's key when
this desk is unlocked (``praca signing unlock``), or with ``--key PASTA``, a key
the administrator keeps outside the backup (created there on first use);
``--unsigned`` writes it without a signature, which a restore then refuses
unless the administrator accepts it. ``--encrypt`` encrypts the file with a
passphrase (``PRACA_BACKUP_PASSPHRASE`` or asked twice) for copies that leave
the building.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        metavar="ARQUIVO",
        type=Path,
        required=True,
        help="arquivo do backup a gravar (ex.: praca-2026-11-30.praca-backup)",
    )
    parser.add_argument(
        "--key",
        metavar="PASTA",
        type=Path,
        default=None,
        help="assina com a chave desta pasta (guardada fora do backup) em vez da chave da prefeitura",
    )
    parser.add_argument("--unsigned", action="store_true", help="grava sem assinatura (a restauração pedirá aceite)")
    parser.add_argument(
        "--encrypt",
        action="store_true",
        help="cifra o arquivo com uma senha (PRACA_BACKUP_PASSPHRASE ou pedida no terminal)",
    )
    parser.epilog = (
        "Exemplos:\n"
        "  praca backup --out praca-2026-11-30.praca-backup\n"
        "  praca --db postgresql://praca@servidor:5432/praca backup --out /mnt/backups/praca.praca-backup"
    )


def run(args: argparse.Namespace) -> int:
    from desktop import __version__
    from desktop.paths import resolve_db_url
    from models.store.backup import count_text, write_backup
    from models.store.bootstrap import close_database, open_database

    passphrase = backup_passphrase(confirm=True) if args.encrypt else None
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        info = write_backup(args.out, app_version=__version__, signer=lambda: _signer(args), passphrase=passphrase)
    finally:
        close_database()
    backend = "SQLite" if info.backend == "sqlite" else "PostgreSQL"
    sealed = f"assinado pela chave {info.signed_by}" if info.signed_by else "SEM assinatura"
    print(
        f"Backup gravado em {info.path}: {count_text(info.counts)} "
        f"({backend}, esquema versão {info.schema_version}; {sealed}{', cifrado' if info.encrypted else ''})."
    )
    return 0


def _signer(args: argparse.Namespace):
    from models.access.signing import SigningKeyError, as_signer
    from models.access.signing_keys import municipal_signer
    from models.base.errors import UserError

    if args.unsigned:
        return None
    if args.key is not None:
        return as_signer(args.key)
    try:
        return municipal_signer()
    except SigningKeyError as exc:
        raise UserError(
            f"O backup não pode ser assinado: {exc.message.replace('; nada foi emitido', '')} "
            "Ou use --key PASTA (uma chave guardada fora do backup), ou --unsigned."
        ) from None


def backup_passphrase(*, confirm: bool) -> str:
    """The passphrase of an encrypted backup: ``PRACA_BACKUP_PASSPHRASE``, else asked on the terminal."""
    import getpass
    import os

    from models.base.errors import UserError

    given = os.environ.get("PRACA_BACKUP_PASSPHRASE")
    if given:
        return given
    try:
        first = getpass.getpass("Senha do backup cifrado: ")
        if confirm and getpass.getpass("Repita a senha: ") != first:
            raise UserError("As duas senhas não conferem; nada foi gravado.", field="passphrase")
    except (EOFError, OSError):
        raise UserError("Senha do backup não informada (PRACA_BACKUP_PASSPHRASE).", field="passphrase") from None
    return first
