"""``praca import vendors FILE [--mapping FILE] [--dry-run]`` — the town's list of vendors, headless.

Reads an ``.xlsx`` or ``.csv``, maps its columns to Praça's fields (from
``--mapping``, a JSON saved by the import window or written by hand, or
guessed from the header names), checks every row and prints the preview:
how many rows are right and each bad row with its line number and reason.
``--dry-run`` stops there. Otherwise the good rows are imported — staged in
short batches and published at once in one short transaction, so that the
other desks keep working (issue 26 §7) — when every row is right; with bad rows nothing is imported
unless ``--skip-bad`` says to import the good ones and leave the others out.
Bad input that prevents the import is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="import_what", metavar="O_QUE", title="o que importar", required=True)
    vendors = actions.add_parser(
        "vendors",
        help="ambulantes (pessoas ou empresas) e, se houver colunas para isso, suas permissões",
        description="Importa ambulantes (pessoas ou empresas) e, opcionalmente, suas permissões, de uma "
        "planilha .xlsx ou .csv.",
    )
    from desktop.cli import db_option

    db_option(vendors, top=False)  # --db and --user
    vendors.add_argument("file", metavar="ARQUIVO", type=Path, help="a planilha (.xlsx ou .csv com ; ou ,)")
    vendors.add_argument(
        "--mapping",
        metavar="ARQUIVO.json",
        type=Path,
        help="mapeamento das colunas (JSON gravado pela janela de importação); sem ele, as colunas "
        "são reconhecidas pelos nomes do cabeçalho",
    )
    vendors.add_argument("--regime", metavar="ID", help="regime das permissões, para todas as linhas")
    vendors.add_argument("--permit-kind", metavar="ID", help="tipo de permissão, para todas as linhas")
    vendors.add_argument("--dry-run", action="store_true", help="só confere e mostra a prévia; não grava nada")
    vendors.add_argument(
        "--skip-bad",
        action="store_true",
        help="importa as linhas corretas e deixa de fora as com problemas (sem esta opção, uma "
        "linha com problema impede a importação: tudo ou nada)",
    )
    vendors.add_argument("--show-mapping", action="store_true", help="mostra o mapeamento usado (JSON)")
    vendors.epilog = (
        "Campos (chaves do JSON do mapeamento):\n  " + "\n  ".join(f"{f.key}: {f.label}" for f in _fields()) + "\n\n"
        "Exemplos:\n"
        "  praca import vendors ambulantes.xlsx --dry-run\n"
        "  praca import vendors feira.csv --mapping feira.json --regime sjc-2014 --permit-kind feirante"
    )


def _fields():
    from models.services.importer import FIELDS

    return FIELDS


def run(args: argparse.Namespace) -> int:
    import datetime as _dt

    from desktop.paths import resolve_db_url, use_data_folder
    from models.access.signing_keys import MUNICIPAL_KEY
    from models.base.errors import UserError
    from models.services.importer import guess_mapping, import_rows, load_mapping, preview_import, read_sheet
    from models.store.bootstrap import close_database, open_database

    sheet = read_sheet(args.file)
    mapping = load_mapping(args.mapping) if args.mapping else guess_mapping(sheet.headers)
    if args.regime:
        mapping.defaults["regime"] = args.regime.strip()
    if args.permit_kind:
        mapping.defaults["permit_kind"] = args.permit_kind.strip()
    if args.show_mapping:
        print(mapping.to_json())
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        preview = preview_import(sheet, mapping, today=_dt.date.today())
        print(preview.text(), end="")
        bad = len(preview.bad_rows)
        if not preview.ok_rows:
            raise UserError(f"Nenhuma das {len(preview.rows)} linhas pode ser importada; nada foi importado.")
        if args.dry_run:
            if bad and not args.skip_bad:
                raise UserError(
                    f"{bad} {'linha tem' if bad == 1 else 'linhas têm'} problemas (veja acima); "
                    "corrija a planilha ou importe com --skip-bad. Nada foi gravado (--dry-run)."
                )
            print("Nada foi gravado (--dry-run).")
            return 0
        if bad and not args.skip_bad:
            raise UserError(
                f"{bad} {'linha tem' if bad == 1 else 'linhas têm'} problemas (veja acima): nada foi "
                "importado. Corrija a planilha ou use --skip-bad para importar só as linhas corretas."
            )
        use_data_folder()
        result = import_rows(preview, all_or_nothing=not args.skip_bad, today=_dt.date.today(), key_dir=MUNICIPAL_KEY)
    finally:
        close_database()
    print(result.text())
    return 0
