"""``praca permit print --number N --what permit|card|placard --out FILE.pdf`` — prints an issued permit.

``permit`` is the alvará / licença / TPU on A4, ``card`` the ID card
(85,6 × 53,98 mm, front and back), ``placard`` the stall placard of a regime
that has one. The document is built from the database by
``models.permits.permit_document`` with the QR text signed when the permit was
issued. Only a permit in force (active or suspended) is printed: a revoked,
cancelled, expired or superseded one is refused, so that no valid-looking card
of it leaves the desk. An unknown number is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from desktop.paths import resolve_db_url, use_data_folder
from models.base.errors import UserError

WHAT = {
    "permit": "Documento",
    "card": "Cartão de identificação",
    "placard": "Placa indicativa",
}

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="permit_action", metavar="AÇÃO", title="ações", required=True)
    printer = actions.add_parser(
        "print",
        help="grava em PDF o documento, o cartão ou a placa de uma permissão",
        description="Grava em PDF o documento, o cartão de identificação ou a placa de uma permissão emitida.",
    )
    from desktop.cli import db_option

    db_option(printer, top=False)  # --db and --user
    printer.add_argument("--number", metavar="N", required=True, help="número da permissão (AAAA/NNNNN)")
    printer.add_argument(
        "--what",
        choices=tuple(WHAT),
        default="permit",
        help="permit (documento A4), card (cartão de identificação) ou placard (placa)",
    )
    printer.add_argument("--out", metavar="ARQUIVO.pdf", type=Path, required=True, help="arquivo PDF a gravar")
    printer.epilog = (
        "Exemplos:\n  praca permit print --number 2026/00012 --what card --out cartao.pdf\n"
        "  praca permit print --number 2026/00003 --what placard --out placa.pdf"
    )


def run(args: argparse.Namespace) -> int:
    from models.permits import LIVE_STATUSES, find_permit, permit_document, successor_of
    from models.rules.regimes import get_regime
    from models.store.bootstrap import close_database, open_database
    from reports.permit_docs import write_id_card_pdf, write_permit_pdf, write_placard_pdf

    out: Path = args.out
    if out.parent and not out.parent.expanduser().resolve().is_dir():
        raise UserError(
            f"A pasta {out.parent.expanduser().resolve()} não existe: crie-a ou escolha outro caminho para {out.name}.",
            field="out",
        )
    url = resolve_db_url(getattr(args, "db", None))
    open_database(url)
    try:
        permit = find_permit(args.number)
        if permit.status not in LIVE_STATUSES:
            successor = successor_of(permit)
            tail = f", substituída pela nº {successor.number}" if successor is not None else ""
            raise UserError(
                f"A permissão nº {permit.number} está {permit.status_label}{tail}: só se imprime permissão em vigor.",
                field="number",
            )
        use_data_folder()
        doc = permit_document(permit)
        if args.what == "permit":
            write_permit_pdf(doc, out)
        elif args.what == "card":
            write_id_card_pdf(doc, out)
        else:
            write_placard_pdf(doc, out, get_regime(permit.regime))
    finally:
        close_database()
    print(f"{WHAT[args.what]} da permissão nº {permit.number} gravado em {out}.")
    return 0
