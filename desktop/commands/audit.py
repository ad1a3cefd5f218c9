"""``praca audit verify`` and ``praca audit checkpoint`` — the audit trail checked, and its head signed.

The trail is append-only in the database (triggers refuse UPDATE, DELETE,
REPLACE and an entry put before the last); each entry carries the SHA-256 of
the one before. ``verify`` walks the chain, checks that the guards are present
and unaltered (Praça reinstalls a missing one when it opens the database, and
says so here, on the Painel and in the trail), and that the chain reaches
every checkpoint found — in the database, in the file beside the daily
backups, in each backup's manifest and in the files given with
``--checkpoint`` (a checkpoint file or a backup): an entry deleted or rewritten
up to the newest checkpoint is named by its number (exit 1). ``checkpoint``
signs the trail's head now (``models/store/checkpoints.py``). Errors are one
line and exit 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    verify = sub.add_parser(
        "verify",
        help="confere a trilha de auditoria: a cadeia, as proteções e os pontos de controle",
        description="Confere a cadeia de hashes da trilha de auditoria (cada registro aponta para o anterior e o "
        "seu hash confere com o que ele diz), as proteções do banco (gatilhos) e que a trilha chega a cada ponto "
        "de controle assinado encontrado no banco, ao lado dos backups diários, nos backups e nos arquivos dados.",
        formatter_class=parser.formatter_class,
    )
    verify.add_argument("--json", action="store_true", help="saída em JSON")
    verify.add_argument(
        "--checkpoint",
        metavar="ARQUIVO",
        type=Path,
        action="append",
        default=[],
        help="confere também os pontos de controle deste arquivo (trilha-….jsonl ou um backup)",
    )
    db_option(verify, top=False)
    checkpoint = sub.add_parser(
        "checkpoint",
        help="assina agora o ponto de controle da trilha (número e hash do último registro)",
        description="Grava um ponto de controle da trilha de auditoria, assinado com a chave da prefeitura quando "
        "esta mesa pode assinar, no banco e no arquivo ao lado dos backups diários.",
        formatter_class=parser.formatter_class,
    )
    db_option(checkpoint, top=False)
    parser.epilog = (
        "Exemplos:\n  praca audit verify\n  praca audit verify --checkpoint pendrive/trilha-praca.jsonl\n"
        "  praca audit checkpoint\n  praca --db postgresql://praca@servidor/praca audit verify --json"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import data_dir, resolve_db_url
    from models.base.errors import UserError
    from models.store.backup import backup_trails, checkpoints_beside, checkpoints_given
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None)
    if action not in ("verify", "checkpoint"):
        raise UserError("Informe a ação: praca audit verify ou praca audit checkpoint.", field="action")
    given = [checkpoints_given(path) for path in getattr(args, "checkpoint", [])]  # a bad file: before opening
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "checkpoint":
            return _checkpoint(data_dir() / "backups")
        from models.store.checkpoints import trail_report

        folder = data_dir() / "backups"
        report = trail_report(
            [*checkpoints_beside(folder), *given],
            references=lambda: backup_trails(folder, getattr(args, "checkpoint", [])),
        )
    finally:
        close_database()
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if report.intact else 1


def _checkpoint(folder: Path) -> int:
    from models.access import session
    from models.base.errors import UserError
    from models.store import checkpoints

    session.require("audit.view")
    made = checkpoints.make("manual")
    if made is None:
        raise UserError("A trilha de auditoria está vazia: não há o que assinar.")
    where = checkpoints.append_file(folder, made)
    state = f"assinado pela chave {made.key_id}" if made.signed else made.unsigned_reason.replace("não", "NÃO", 1)
    print(f"Ponto de controle gravado: registro nº {made.entry}, hash {made.hash}, {state}; no banco e em {where}.")
    return 0
