"""``praca first-steps`` — what a new database still lacks (issue 31 §3), as the Painel's checklist says it.

``praca first-steps [--json]`` lists each step — the municipality, its act, the signing key unlocked on this
desk, the holidays, the users, the collection agreement — done or not, with what is set or what is missing;
``no-holidays`` and ``no-collection`` record the administrator's word that the town has no municipal holiday or
no collection agreement yet (who and when, in the audit trail). The exit code is 0 either way: the list is a
report, not a check.
"""

from __future__ import annotations

import argparse
import json

ACTIONS = {
    "no-holidays": "registra que o município não tem feriados municipais",
    "no-collection": "registra que ainda não há convênio de arrecadação (o passo opcional fica pulado)",
}


def LOGIN(args) -> bool:  # noqa: N802 - the name every subcommand declares (desktop/login.py)
    return getattr(args, "action", None) in ACTIONS


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    parser.add_argument("--json", action="store_true", help="saída em JSON")
    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    for name, help_text in ACTIONS.items():
        db_option(sub.add_parser(name, help=help_text, description=help_text), top=False)
    parser.epilog = "Exemplos:\n  praca first-steps\n  praca first-steps --json\n  praca first-steps no-holidays"


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.services.first_steps import confirm_no_collection, confirm_no_holidays, first_steps
    from models.store.bootstrap import close_database, open_database

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        action = getattr(args, "action", None)
        if action == "no-holidays":
            confirm_no_holidays()
        elif action == "no-collection":
            confirm_no_collection()
        steps = first_steps()
    finally:
        close_database()
    if getattr(args, "json", False):
        print(json.dumps([step.__dict__ for step in steps], ensure_ascii=False, indent=2))
        return 0
    for step in steps:
        optional = " (opcional)" if step.optional else ""
        print(f"{'✔' if step.done else '○'} {step.label}{optional} — {step.why}")
    missing = [s.label for s in steps if not s.done]
    print(
        "Todos os passos feitos."
        if not missing
        else f"Falta(m): {', '.join(missing)} — no aplicativo, Ajuda → Primeiros passos."
    )
    return 0
