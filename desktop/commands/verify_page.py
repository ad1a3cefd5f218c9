"""``praca verify-page --out verificar.html`` — the municipality's verification page, to publish on its website.

One static HTML file with the municipality's public keys and the permits that
are revoked, suspended or cancelled now (``reports/verify_page.py``): a phone
that reads a permit's QR opens it and checks the signature itself, with no app
and no server. Export it again after a revocation (the desk reminds) and set
its address with ``praca signing url`` so the QR codes point at it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOGIN = True  # the administrator publishes it


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="ARQUIVO", type=Path, required=True, help="a página a gravar (ex.: verificar.html)"
    )
    parser.epilog = (
        "Exemplo:\n  praca verify-page --out verificar.html\n"
        "  praca signing url https://www.prefeitura.sp.gov.br/verificar.html"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.access.signing_keys import verify_url
    from models.store.bootstrap import close_database, open_database
    from reports.verify_page import write_verify_page

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        state = write_verify_page(args.out)
        url = verify_url()
    finally:
        close_database()
    withdrawn = len(state.withdrawn)
    print(
        f"Página de verificação gravada em {args.out}: {len(state.keys)} "
        f"{'chave' if len(state.keys) == 1 else 'chaves'}, {withdrawn} "
        f"{'permissão fora de vigor' if withdrawn == 1 else 'permissões fora de vigor'}. "
        + (
            f"Publique-a em {url}."
            if url
            else "Publique-a no site da prefeitura e informe o endereço: praca signing url https://…/verificar.html."
        )
    )
    return 0
