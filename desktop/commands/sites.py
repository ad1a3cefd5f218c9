"""``praca sites [--json]`` — the sites (streets, feiras, event areas, beaches) and their ids.

The id is what ``praca layout export --site ID`` takes. ``--json`` lists
``id``, ``name``, ``kind``, ``regime`` and the counts of each site.
"""

from __future__ import annotations

import argparse
import json

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = "Exemplos:\n  praca sites\n  praca sites --json"


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.sites import site_rows
    from models.store.bootstrap import close_database, open_database

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        rows = site_rows()
    finally:
        close_database()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": r.id,
                        "name": r.name,
                        "kind": r.kind,
                        "regime": r.regime,
                        "segments": r.segments,
                        "length": None if r.length is None else float(r.length),
                        "stalls": r.stalls,
                        "assigned": r.assigned,
                        "points": r.points,
                        "max_points": r.max_points,
                    }
                    for r in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    if not rows:
        print("Nenhum local cadastrado.")
        return 0
    width = max(len(r.name) for r in rows)
    for r in rows:
        what = f"{r.stalls} banca(s), {r.assigned} com titular" if r.stalls or not r.points else f"{r.points} ponto(s)"
        print(f"{r.id:>4}  {r.name:<{width}}  {r.kind_label:<15}  {r.regime:<20}  {what}")
    return 0
