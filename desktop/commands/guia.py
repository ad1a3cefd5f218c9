"""``praca guia --charge NÚMERO [--charge …] --out GUIA.pdf [--json]`` — the guia (DAM) of open charges of one
payer, with the FEBRABAN barcode, the linha digitável and the Pix QR (issue 30 §2).

``--json`` prints ``number``, ``amount`` (``"300.00"``), ``due`` (dd/mm/aaaa), ``barcode``, ``linha_digitavel``
and ``pix``."""

from __future__ import annotations

import argparse
import json

from models.base.errors import UserError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--charge", metavar="NÚMERO", action="append", default=[], help="uma cobrança (AAAA/NNNNN); repita para várias"
    )
    parser.add_argument("--out", metavar="ARQUIVO.pdf", help="onde gravar a guia em PDF — obrigatório")
    parser.add_argument("--json", action="store_true", help="mostra número, valor, vencimento e códigos em JSON")
    parser.epilog = "Exemplo:\n  praca guia --charge 2026/00012 --charge 2026/00013 --out guia.pdf --json"


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.billing.collection.guias import find_charges, guia_json, issue_guia
    from models.store.bootstrap import close_database, open_database
    from reports.guia_pdf import write_guia_pdf

    if not args.charge:
        raise UserError("Informe ao menos uma cobrança: --charge NÚMERO.", field="charge")
    if not (args.out or "").strip():
        raise UserError("Informe onde gravar a guia: --out ARQUIVO.pdf.", field="out")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        guia = issue_guia(find_charges(args.charge), write=lambda g: write_guia_pdf(g, args.out))
        data = guia_json(guia)
        if args.json:
            print(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            print(f"Guia nº {guia.number} gravada em {args.out}: {data['amount']} com vencimento {data['due']}.")
            print(f"Linha digitável: {data['linha_digitavel']}")
            if guia.replaces:
                print(f"Substitui a(s) guia(s) nº {guia.replaces}, cancelada(s).")
        return 0
    finally:
        close_database()
