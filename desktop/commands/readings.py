"""``--reading POINT=READING`` and ``--reading-reason TEXT`` for the commands that show a figure (penalty, draw,
quote, deadline): the points where the act is silent at that figure, with the reading applied — the one chosen
here, else the one the regime declares — printed in text and in ``--json`` (issue 28 §2)."""

from __future__ import annotations

import argparse
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reading",
        metavar="PONTO=LEITURA",
        action="append",
        dest="readings",
        default=[],
        help="a leitura escolhida num ponto em que o ato silencia (pode repetir); a saída lista os pontos e as "
        "leituras de cada um",
    )
    parser.add_argument("--reading-reason", metavar="TEXTO", default="", help="o motivo da leitura escolhida")


def choices(args: argparse.Namespace) -> dict:
    from models.rules.silences import parse_choices

    return parse_choices(getattr(args, "readings", None) or [], getattr(args, "reading_reason", "") or "")


def applied(regime, where: str, args: argparse.Namespace, *, deadline: str | None = None, fees=None) -> tuple:
    """The points shown at ``where`` (for ``deadline`` or the quote's ``fees``: those that concern them) with the
    reading applied."""
    from models.rules.silences import resolve

    return resolve(regime, where, choices(args), deadline=deadline, fees=fees)


def as_json(found) -> list[dict[str, Any]]:
    return [a.to_dict() for a in found]


def as_text(found) -> str:
    from models.rules.silences import lines

    shown = lines(found)
    return ("\n" + "\n".join(shown) + "\n") if shown else ""
