"""``praca audit verify`` — checks the audit trail's chain: every entry linked to the one before by its hash.

The trail is append-only in the database (triggers refuse UPDATE and DELETE);
each entry carries the SHA-256 of the one before. ``verify`` walks the chain
and says it is intact, or names the first entry that does not follow and why
(exit 1). Errors are one line and exit 2.
"""

from __future__ import annotations

import argparse
import json

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    verify = sub.add_parser(
        "verify",
        help="confere a cadeia de hashes da trilha de auditoria",
        description="Confere a cadeia de hashes da trilha de auditoria: cada registro aponta "
        "para o anterior e o seu hash confere com o que ele diz.",
        formatter_class=parser.formatter_class,
    )
    verify.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(verify, top=False)
    parser.epilog = (
        "Exemplos:\n  praca audit verify\n  praca --db postgresql://praca@servidor/praca audit verify --json"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.base.errors import UserError
    from models.store.audit import verify_chain
    from models.store.bootstrap import close_database, open_database

    if getattr(args, "action", None) != "verify":
        raise UserError("Informe a ação: praca audit verify.", field="action")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        state = verify_chain()
    finally:
        close_database()
    if args.json:
        print(
            json.dumps(
                {
                    "intact": state.intact,
                    "count": state.count,
                    "first_bad": state.first_bad,
                    "reason": state.reason,
                    "last_hash": state.last_hash,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print(state.text)
    return 0 if state.intact else 1
