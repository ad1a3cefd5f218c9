"""``praca debts export --as-of DD/MM/AAAA --format xlsx|csv --out ARQUIVO [--confirm] [--json]`` — the charges
overdue beyond the town's term, for inscription in dívida ativa (issue 30 §6). Without ``--confirm`` the list
only; with it each charge is inscribed (number and date) and leaves the month's open list."""

from __future__ import annotations

import argparse
import datetime as _dt
import json
from decimal import Decimal

from models.base.errors import UserError


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    return True


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    exp = sub.add_parser(
        "export", help="lista as dívidas para inscrição em dívida ativa", formatter_class=parser.formatter_class
    )
    exp.add_argument("--as-of", metavar="DD/MM/AAAA", help="valores atualizados até esta data (padrão: hoje)")
    exp.add_argument("--format", metavar="xlsx|csv", default="xlsx", help="formato do arquivo (padrão xlsx)")
    exp.add_argument("--out", metavar="ARQUIVO", help="onde gravar — obrigatório")
    exp.add_argument(
        "--confirm", action="store_true", help="inscreve as cobranças listadas (número e data de inscrição)"
    )
    exp.add_argument("--json", action="store_true", help="resumo em JSON")
    db_option(exp, top=False)
    parser.epilog = "Exemplo:\n  praca debts export --as-of 31/12/2026 --format xlsx --out divida-ativa.xlsx --confirm"


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.billing.collection.dividas import export_debts
    from models.rules.deadlines import parse_moment
    from models.store.bootstrap import close_database, open_database
    from reports.debts_export import writer

    if getattr(args, "action", None) != "export":
        raise UserError("Informe a ação: praca debts export --as-of DD/MM/AAAA --format xlsx|csv --out ARQUIVO.")
    if not (args.out or "").strip():
        raise UserError("Informe onde gravar: --out ARQUIVO.", field="out")
    as_of = parse_moment(args.as_of, what="Data de atualização") if args.as_of else _dt.date.today()
    if isinstance(as_of, _dt.datetime):
        as_of = as_of.date()
    write = writer((args.format or "").strip().lower(), as_of)
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        rows = export_debts(args.out, write, as_of=as_of, confirm=args.confirm)
        total = sum((Decimal(str(r.values["updated"])) for r in rows), start=Decimal("0.00"))
        if args.json:
            print(
                json.dumps(
                    {
                        "as_of": as_of.strftime("%d/%m/%Y"),
                        "count": len(rows),
                        "updated_total": f"{total:.2f}",
                        "inscribed": bool(args.confirm),
                        "charges": [r.charge.number for r in rows],
                        "inscriptions": [r.values["inscription"] for r in rows if r.values["inscription"]],
                    },
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return 0
        print(f"{len(rows)} dívida(s) gravada(s) em {args.out}, atualizadas até {as_of:%d/%m/%Y}.")
        if args.confirm:
            print("Cobranças inscritas em dívida ativa: saem da lista de em aberto do mês.")
        else:
            print("Nada foi inscrito (use --confirm para inscrever as cobranças listadas).")
        return 0
    finally:
        close_database()
