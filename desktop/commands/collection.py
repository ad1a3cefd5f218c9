"""``praca collection set|show`` — the town's collection agreement (convênio de arrecadação) and Pix key.

* ``praca collection show [--json]``
* ``praca collection set --agreement NNNN --value-id 6|8 [--pix-key CHAVE --pix-name NOME --pix-city CIDADE]``

The same settings as Cadastros → Arrecadação (models.billing.collection.agreement).
"""

from __future__ import annotations

import argparse
import json


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    return getattr(args, "action", None) == "set"


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    show = sub.add_parser("show", help="mostra o convênio e a chave Pix", formatter_class=parser.formatter_class)
    show.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(show, top=False)
    put = sub.add_parser(
        "set",
        help="cadastra o convênio de arrecadação (FEBRABAN) e a chave Pix do município",
        formatter_class=parser.formatter_class,
    )
    put.add_argument("--agreement", metavar="NNNN", help="código do convênio no banco (4 algarismos) — obrigatório")
    put.add_argument(
        "--value-id", metavar="6|8", help="identificador de valor: 6 (módulo 10) ou 8 (módulo 11) — obrigatório"
    )
    put.add_argument(
        "--pix-key", metavar="CHAVE", default="", help="chave Pix: CPF, CNPJ, e-mail, telefone ou aleatória"
    )
    put.add_argument("--pix-name", metavar="NOME", default="", help="nome do recebedor no Pix (até 25 letras)")
    put.add_argument("--pix-city", metavar="CIDADE", default="", help="cidade do recebedor no Pix (até 15 letras)")
    db_option(put, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca collection set --agreement 1234 --value-id 6 --pix-key 12345678000195 "
        '--pix-name "Prefeitura de Olimpia" --pix-city Olimpia\n'
        "  praca collection show --json"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.billing.collection.agreement import VALUE_ID_LABELS, get_agreement, set_agreement
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None) or "show"
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "set":
            found = set_agreement(
                agreement=args.agreement or "",
                value_id=args.value_id or "",
                pix_key=args.pix_key,
                pix_name=args.pix_name,
                pix_city=args.pix_city,
            )
            print(f"Convênio de arrecadação gravado: {found.agreement}, identificador de valor {found.value_id}.")
        else:
            found = get_agreement()
        if getattr(args, "json", False):
            print(json.dumps(found.as_dict(), ensure_ascii=False, indent=2))
            return 0
        if not found.configured:
            print("Convênio de arrecadação não cadastrado (praca collection set --agreement NNNN --value-id 6|8).")
            return 0
        print(f"Convênio (FEBRABAN): {found.agreement} — segmento {found.segment} (prefeituras)")
        print(f"Identificador de valor: {VALUE_ID_LABELS.get(found.value_id, found.value_id)}")
        if found.has_pix:
            print(f"Chave Pix: {found.pix_key} ({found.pix_kind}) — {found.pix_name}, {found.pix_city}")
        else:
            print("Chave Pix: não cadastrada (a guia sai sem QR Pix).")
        return 0
    finally:
        close_database()
