"""``praca deadline --regime ID --kind KIND --from DATE [--holiday DATE …] [--json]`` — a legal deadline.

Counted by ``models.rules.deadlines.compute_deadline``: calendar days, business days
(national and state holidays from the ``holidays`` package, plus the municipal
ones given with ``--holiday``) or hours, moved to the next business day only
where the act says so. Kinds are the regime's deadline ids:
``praca regimes --show ID`` lists them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json

from desktop.commands import readings
from models.base.br import weekday_name
from models.base.errors import UserError

LOGIN = False  # computes from the acts only


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regime", metavar="ID", help="o regime (obrigatório; praca regimes lista os ids)")
    parser.add_argument(
        "--kind", metavar="PRAZO", help="o prazo, pelo id do regime (praca regimes --show ID lista os prazos)"
    )
    parser.add_argument(
        "--from",
        metavar="DATA",
        dest="start",
        help="início: AAAA-MM-DD ou DD/MM/AAAA; com a hora (2026-03-20 18:00) nos prazos em horas",
    )
    parser.add_argument(
        "--holiday",
        metavar="DATA",
        action="append",
        dest="holidays",
        help="feriado municipal a considerar (pode repetir)",
    )
    readings.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Exemplos:\n"
        "  praca deadline --regime olimpia-2025 --kind defence --from 03/03/2026\n"
        '  praca deadline --regime sjc-2014 --kind appeal --from "2026-03-20 18:00"\n'
        "  praca deadline --regime ilha-comprida-2017 --kind appeal --from 2026-12-23 --json"
    )


def run(args: argparse.Namespace) -> int:
    from models.rules.deadlines import check_kind, compute_deadline, parse_moment
    from models.rules.regimes import shipped_regimes

    if not (args.regime or "").strip():
        raise UserError(
            "Informe o regime: --regime ID (disponíveis: " + ", ".join(sorted(shipped_regimes())) + ").", field="regime"
        )
    if not (args.start or "").strip():
        raise UserError("Informe o início do prazo: --from DATA (AAAA-MM-DD ou DD/MM/AAAA).", field="start")
    start = parse_moment(args.start, what="Data de início")
    from desktop.paths import open_for_computing
    from models.rules.regimes import get_regime
    from models.store.bootstrap import close_database
    from models.store.db import NoDatabase

    holidays: dict[dt.date, str] = {}  # a one-off question; the town's own calendar is the database's
    for text in args.holidays or []:
        day = parse_moment(text, what="Data do feriado")
        if isinstance(day, dt.datetime):
            raise UserError(f"Feriado municipal: informe só a data, sem hora ('{text}').", field="holiday")
        holidays[day] = "feriado municipal (informado no comando)"
    try:
        open_for_computing(getattr(args, "db", None))
        opened = True
    except NoDatabase:  # no database there (yet): the shipped acts and the official calendar
        opened = False
    try:
        regime = get_regime(args.regime.strip(), on=start.date() if isinstance(start, dt.datetime) else start)
        kind = check_kind(regime, args.kind)
        result = compute_deadline(regime, kind, start, holidays=holidays)  # with the town's holidays kept
        points = readings.applied(regime, "deadline", args, deadline=kind)
    finally:
        if opened:
            close_database()
    if args.json:
        print(json.dumps({**result.to_dict(), "readings": readings.as_json(points)}, ensure_ascii=False, indent=2))
    else:
        print(deadline_text(regime, result) + readings.as_text(points), end="")
    return 0


def deadline_text(regime, result) -> str:
    from models.rules import describe

    d = regime.deadline(result.kind)
    start = result.start
    start_text = (
        f"{start:%d/%m/%Y} ({weekday_name(start.weekday())}) às {start:%H:%M}"
        if isinstance(start, dt.datetime)
        else f"{start:%d/%m/%Y} ({weekday_name(start.weekday())})"
    )
    out = [
        f"Regime: {regime.municipality}/{regime.state} — {regime.act} ({regime.id})",
        f"Prazo: {d.label} [{d.id}] — {describe.deadline_text(d, regime)}",
        f"Início: {start_text}",
        f"Termina: {result.due_text}",
        f"Cálculo: {result.formula}",
        f"Base legal: {result.basis}",
    ]
    for detail in result.details:
        out.append(f"  · {detail}")
    if result.notes:
        out.append(f"Obs.: {result.notes}")
    return "\n".join(out) + "\n"
