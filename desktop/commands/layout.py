"""``praca layout export --site ID --format json|pdf|png|svg --out FILE`` — the map of a site.

``json`` lists every stall (``number``, ``section``, ``side``, ``x``, ``y``,
``width`` = front, ``depth``, ``rotation``, ``holder`` = permit number or
null, and ``hitch``, ``segment``…), the site's ``length``, ``segments``,
``obstacles`` and named ``points``, in metres (numbers), from
:func:`models.sites.site_export`.

The drawn formats come from a renderer: a function ``write_<format>(export,
out)`` in the module ``reports.site_map`` (Qt), or one registered in
:data:`RENDERERS`. Until one exists the format is refused with exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from models.base.errors import UserError

FORMATS = ("json", "pdf", "png", "svg")
RENDERER_MODULE = "reports.site_map"

#: format → function(export: dict, out: Path) -> None; ``json`` is built in, the others come from the renderer.
RENDERERS: dict[str, Callable[[dict, Path], None]] = {}

LOGIN = True  # the map names the holders


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="layout_action", metavar="AÇÃO", title="ações", required=True)
    export = actions.add_parser(
        "export",
        help="grava o mapa de um local (json, pdf, png ou svg)",
        description="Grava o mapa de um local: bancas, titulares, trecho e obstáculos.",
    )
    from desktop.cli import db_option

    db_option(export, top=False)  # --db and --user
    export.add_argument("--site", metavar="ID", required=True, help="id do local (praca sites lista os ids)")
    export.add_argument("--format", choices=FORMATS, default="json", help="json, pdf, png ou svg (padrão: json)")
    export.add_argument("--out", metavar="ARQUIVO", type=Path, required=True, help="arquivo a gravar")
    export.epilog = "Exemplos:\n  praca layout export --site 1 --format json --out feira.json"


def _plain(value):
    if isinstance(value, Decimal):
        return float(value)  # metres with at most three places: exact enough as a JSON number
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def write_json(export: dict, out: Path) -> None:
    from models.store.outfile import write_text

    write_text(out, json.dumps(_plain(export), ensure_ascii=False, indent=2) + "\n", kind="json")


def renderer(fmt: str) -> Callable[[dict, Path], None]:
    """The writer of ``fmt``: built in (json), registered, or ``write_<fmt>`` of the renderer module."""
    if fmt == "json":
        return write_json
    if fmt in RENDERERS:
        return RENDERERS[fmt]
    try:
        module = importlib.import_module(RENDERER_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != RENDERER_MODULE:
            raise
        module = None
    func = getattr(module, f"write_{fmt}", None) if module is not None else None
    if func is None:
        raise UserError(f"Formato {fmt} ainda não disponível nesta versão do Praça: use --format json.", field="format")
    return func


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.sites import site_export
    from models.store.bootstrap import close_database, open_database

    site_id = (args.site or "").strip()
    if not site_id.isdigit():
        raise UserError(f"Id de local inválido: {args.site!r} (um número; praca sites lista os ids).", field="site")
    write = renderer(args.format)
    out: Path = args.out
    folder = out.expanduser().resolve().parent
    if not folder.is_dir():
        raise UserError(f"A pasta {folder} não existe: crie-a ou escolha outro caminho para {out.name}.", field="out")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        export = site_export(int(site_id))
    finally:
        close_database()
    write(export, out)
    print(f"Mapa de {export['site']['name']} ({len(export['stalls'])} bancas) gravado em {out}.")
    return 0
