"""``praca renewal-decree add|list`` — the Executive's decree that sets a renewal window (issue 29 §2).

Where an act leaves the renewal window to a decree (``renewal = { by_decree = true }`` in its file), Praça invents
none: the decree's number, date and window are recorded here (or at Permissões → Decreto de renovação…) with who
recorded it, and renewals of that kind's permits ending in that year use it.

* ``praca renewal-decree add --regime ID --kind TIPO --year AAAA --number "Decreto nº 1.234/2026" --date DD/MM/AAAA
  --opens DD/MM/AAAA --closes DD/MM/AAAA [--notes TEXTO]``
* ``praca renewal-decree list [--regime ID] [--json]``
"""

from __future__ import annotations

import argparse
import json


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    """Listing needs no login; recording does."""
    return getattr(args, "action", None) == "add"


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    add = sub.add_parser(
        "add",
        help="registra o decreto que fixa a janela de renovação",
        description="Registra o decreto do Executivo que fixa a janela de renovação de um tipo de permissão, "
        "onde o ato a deixa a decreto (renewal = { by_decree = true }).",
        formatter_class=parser.formatter_class,
    )
    add.add_argument("--regime", metavar="ID", help="o ato (obrigatório)")
    add.add_argument("--kind", metavar="TIPO", help="o tipo de permissão (obrigatório)")
    add.add_argument("--year", metavar="AAAA", help="o exercício: o ano em que terminam as permissões (obrigatório)")
    add.add_argument("--number", metavar="NÚMERO", help='o decreto, como "Decreto nº 1.234/2026" (obrigatório)')
    add.add_argument("--date", metavar="DD/MM/AAAA", help="a data do decreto (obrigatória)")
    add.add_argument("--opens", metavar="DD/MM/AAAA", help="o primeiro dia da janela (obrigatório)")
    add.add_argument("--closes", metavar="DD/MM/AAAA", help="o último dia da janela (obrigatório)")
    add.add_argument("--notes", metavar="TEXTO", default="", help="observação")
    db_option(add, top=False)
    listing = sub.add_parser("list", help="lista os decretos registrados", formatter_class=parser.formatter_class)
    listing.add_argument("--regime", metavar="ID", help="só os deste ato")
    listing.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(listing, top=False)
    parser.epilog = (
        "Exemplos:\n"
        '  praca renewal-decree add --regime ID --kind TIPO --year 2026 --number "Decreto nº 1.234/2026" '
        "--date 10/10/2026 --opens 01/11/2026 --closes 30/11/2026\n"
        "  praca renewal-decree list --regime ID"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None) or "list"
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "add":
            return _add(args)
        return _list(getattr(args, "regime", None), getattr(args, "json", False))
    finally:
        close_database()


def _add(args: argparse.Namespace) -> int:
    from models.base.errors import FieldErrors, UserError
    from models.permits import RenewalDecreeInput, decree_text, record_renewal_decree

    flags = {"regime": "--regime", "kind": "--kind", "year": "--year", "number": "--number", "date": "--date"}
    flags.update(opens="--opens", closes="--closes")
    missing = [flag for key, flag in flags.items() if not (getattr(args, key, None) or "").strip()]
    if missing:
        raise UserError(f"Informe {', '.join(missing)} (praca renewal-decree add --help).", field="decree")
    data = RenewalDecreeInput(
        regime=args.regime.strip(),
        permit_kind=args.kind.strip(),
        year=args.year,
        number=args.number,
        decree_date=args.date,
        opens=args.opens,
        closes=args.closes,
        notes=args.notes or "",
    )
    try:
        decree = record_renewal_decree(data)
    except FieldErrors as exc:
        flag = {"permit_kind": "--kind", "decree_date": "--date"}
        raise UserError(
            "; ".join(f"{flag.get(k, '--' + k)}: {m}" for k, m in exc.errors.items()), field="decree"
        ) from None
    print(f"Registrado: {decree_text(decree)}.")
    return 0


def _list(regime_id: str | None, as_json: bool) -> int:
    from models.permits import decree_text, renewal_decrees

    rows = renewal_decrees((regime_id or "").strip() or None)
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "regime": d.regime,
                        "permit_kind": d.permit_kind,
                        "year": d.year,
                        "number": d.number,
                        "decree_date": d.decree_date.isoformat(),
                        "opens": d.opens.isoformat(),
                        "closes": d.closes.isoformat(),
                        "recorded_by": d.recorded_by,
                        "recorded_at": d.recorded_at.isoformat(),
                        "replaced": d.replaced_by is not None,
                    }
                    for d in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    if not rows:
        print("Nenhum decreto de renovação registrado.")
        return 0
    for d in rows:
        print(f"{d.regime} · {d.permit_kind} · {decree_text(d)}")
    return 0
