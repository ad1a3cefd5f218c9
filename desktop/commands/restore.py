"""``praca restore FILE [--force] [--check]`` — put a backup back, all of it or nothing.

The file is checked first (a Praça backup, a format and schema version this
Praça knows, the SHA-256 of its data); anything else is refused with one line
and exit 2. A backup of an older Praça is brought up to date after it is read.
The restore is one transaction on the database given by ``--db`` (of either
back end: a PostgreSQL backup restores into the embedded database and the
other way round). A database that already holds data is replaced only with
``--force``, and then a backup of what it held is written first to the data
folder's ``backups`` (``antes-da-restauracao-….praca-backup``).

Before anything else the backup's signature is checked (``models/store/sealed.py``)
against the target database's municipal keys, ``--key`` (a public key file or
a key folder) and ``--trust-fingerprint`` (a restore onto a new machine: the
fingerprint the municipality gave). A backup that is unsigned, signed by an
unknown key, or changed after it was signed is refused unless the
administrator passes ``--accept-unsigned`` and confirms by typing RESTAURAR.
An encrypted backup asks its passphrase (or ``PRACA_BACKUP_PASSPHRASE``).

A backup whose audit trail is broken (a chain that does not follow, or that does not reach the checkpoint of
its own manifest) is refused: a restore never re-links it. ``--accept-broken-trail`` restores it after the
administrator confirms by typing RESTAURAR, and the trail then records that the restored trail was broken, and
where (issue 26 §3).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

LOGIN = "unless-empty"  # a restore into a new database is its set-up: nobody to log in as yet


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="ARQUIVO", type=Path, help="o backup (*.praca-backup)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="substitui os dados de um banco que não está vazio (um backup do que ele tinha é "
        "gravado antes na pasta de backups)",
    )
    parser.add_argument(
        "--key",
        metavar="ARQUIVO",
        type=Path,
        action="append",
        default=[],
        help="confia também nesta chave pública (ed25519-public.pem ou a pasta da chave)",
    )
    parser.add_argument(
        "--trust-fingerprint",
        metavar="IMPRESSÃO",
        action="append",
        default=[],
        help="confia na chave com esta impressão digital (ex.: 052B-8E1A-34E3-FA2E)",
    )
    parser.add_argument(
        "--accept-unsigned", action="store_true", help="restaura um backup sem assinatura válida, depois de confirmar"
    )
    parser.add_argument(
        "--accept-broken-trail",
        action="store_true",
        help="restaura um backup cuja trilha de auditoria está rompida, depois de confirmar (a trilha registra onde)",
    )
    parser.add_argument(
        "--check", action="store_true", help="só confere o arquivo e diz o que ele contém; não restaura nada"
    )
    parser.epilog = (
        "Exemplos:\n"
        "  praca restore praca-2026-11-30.praca-backup --check\n"
        "  praca --db sqlite:///novo.sqlite3 restore praca-2026-11-30.praca-backup\n"
        "  praca restore praca-2026-11-30.praca-backup --force"
    )


def run(args: argparse.Namespace) -> int:
    from desktop import __version__
    from desktop.commands.backup import backup_passphrase
    from desktop.paths import data_dir, resolve_db_url
    from models.store.backup import count_text, is_encrypted_file, read_backup, restore_backup, safety_copy_name
    from models.store.bootstrap import close_database, open_database
    from models.store.db import current_url

    passphrase = backup_passphrase(confirm=False) if is_encrypted_file(args.file) else None
    trust = _trust(args)
    if args.check:  # says what the signature proves; refuses nothing
        trust = dataclasses.replace(trust, accept_unsigned=True)
    # a file that is not a good backup is refused before the database is written; its signature first of all
    backup = read_backup(args.file, trust=trust, passphrase=passphrase, rows=False)  # counted, not kept
    seal = backup.seal
    assert seal is not None  # checked: a trust was given
    if args.check:
        print(
            f"{args.file}: {backup.describe()}. O arquivo confere (SHA-256 {backup.manifest['payload_sha256']}; "
            f"{seal.message if seal.ok else 'SEM assinatura válida: ' + seal.message})."
        )
        return 0
    if not seal.ok:
        _confirm_unsigned(seal.message)
        trust = dataclasses.replace(trust, accept_unsigned=True)
    # A restore writes a whole database: into a new one too (the explicit set-up of a desk that starts from a
    # backup); an empty file is then filled by the restore, never mistaken for the real database.
    open_database(resolve_db_url(getattr(args, "db", None)), create=True)
    try:
        opened = current_url()
        assert opened is not None  # opened just above
        where = opened.display()
        keep = None
        if args.force:
            folder = data_dir() / "backups"
            folder.mkdir(parents=True, exist_ok=True)
            keep = folder / safety_copy_name()
        result = restore_backup(
            args.file,
            force=args.force,
            keep_current=keep,
            app_version=__version__,
            trust=trust,
            passphrase=passphrase,
            accept_broken_trail=_confirm_broken if args.accept_broken_trail else False,
        )
        if result.checkpoint is not None:
            from models.store.checkpoints import append_file

            try:
                append_file(data_dir() / "backups", result.checkpoint)
            except OSError:
                pass
        from models.permits.signatures import check_all_permits

        signed_ok, signed_bad = check_all_permits()
    finally:
        close_database()
    text = f"Backup restaurado em {where}: {count_text(result.counts)}."
    if result.broken_trail:
        text += f" A trilha de auditoria restaurada está rompida ({result.broken_trail}); isso ficou registrado nela."
    if result.upgraded:
        from models.store.schema import LATEST

        text += f" Atualizado do esquema versão {result.from_version} para a {LATEST}."
    if result.kept_copy is not None:
        text += f" O que havia ({count_text(result.replaced)}) foi guardado em {result.kept_copy}."
    if signed_ok or signed_bad:
        text += (
            f" Assinaturas: {signed_ok} {'permissão confere' if signed_ok == 1 else 'permissões conferem'} "
            "com as chaves da prefeitura"
        )
        text += (
            f"; NÃO conferem: {', '.join(signed_bad[:20])}{'…' if len(signed_bad) > 20 else ''}." if signed_bad else "."
        )
    print(text)
    return 0


def _trust(args: argparse.Namespace):
    """The keys a restore trusts: the target database's (when it exists), ``--key`` and ``--trust-fingerprint``."""
    from desktop.paths import resolve_db_url
    from models.access.signing import KeyEntry, KeyRing, load_public_key
    from models.access.signing_keys import key_ring
    from models.store.bootstrap import close_database, open_database
    from models.store.db import NoDatabase
    from models.store.sealed import Trust

    entries: list[KeyEntry] = []
    try:
        open_database(resolve_db_url(getattr(args, "db", None)))
    except NoDatabase:
        pass
    else:
        try:
            entries += key_ring().entries
        except Exception:  # an older database without the keys' table: nothing to trust there
            pass
        finally:
            close_database()
    entries += [KeyEntry(load_public_key(path)) for path in args.key]
    return Trust(KeyRing(tuple(entries)), tuple(args.trust_fingerprint), accept_unsigned=args.accept_unsigned)


def ask(prompt: str) -> str:
    """One line from the administrator (tests replace it)."""
    print(prompt, end="", file=sys.stderr, flush=True)
    return sys.stdin.readline()


def _confirm_unsigned(reason: str) -> None:
    from models.base.errors import UserError

    print(f"ATENÇÃO: {reason}", file=sys.stderr)
    if ask("Para restaurar mesmo assim, digite RESTAURAR: ").strip() != "RESTAURAR":
        raise UserError("Restauração não confirmada; nada foi alterado.", field="accept_unsigned")


def _confirm_broken(where: str) -> bool:
    from models.base.errors import UserError

    print(f"ATENÇÃO: a trilha de auditoria deste backup está rompida: {where}", file=sys.stderr)
    if ask("Para restaurá-lo assim mesmo (a trilha registra que estava rompida), digite RESTAURAR: ").strip() != (
        "RESTAURAR"
    ):
        raise UserError("Restauração não confirmada; nada foi alterado.", field="accept_broken_trail")
    return True
