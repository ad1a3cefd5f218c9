"""``praca holidays list|add|remove|import`` — the town's own calendar (issue 28 §1).

The same table as Cadastros → Feriados: the municipality's holidays and optional closures (ponto facultativo),
each with its source, which every deadline counts with (national and state holidays come from the ``holidays``
package). The town is the one of the act named by ``--regime`` (its municipality and state).

* ``praca holidays list [--regime ID] [--year AAAA] [--json]``
* ``praca holidays add QUANDO --name NOME --source FONTE --regime ID [--optional]`` — QUANDO is ``DD/MM/AAAA``
  (one day), ``DD/MM`` (every year) or ``Páscoa±N`` (days from Easter, every year);
* ``praca holidays remove Nº --reason MOTIVO``;
* ``praca holidays import ARQUIVO.csv --regime ID`` — columns ``data; nome; fonte; tipo``, all or nothing;
* ``praca holidays office-hours [08:00-17:00]`` — shows or sets the office's hours (expediente).

Adding, removing or importing prints the running deadlines of the town's records that moved.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json

from models.base.errors import UserError


def LOGIN(args: argparse.Namespace) -> bool:  # noqa: N802 - the name desktop/cli.py looks up
    """Listing and showing need no login; the changes do."""
    action = getattr(args, "action", None)
    return action in ("add", "remove", "import") or (action == "office-hours" and bool(getattr(args, "hours", None)))


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    listing = sub.add_parser(
        "list", help="lista os feriados e pontos facultativos", formatter_class=parser.formatter_class
    )
    listing.add_argument("--regime", metavar="ID", help="só os do município deste ato")
    listing.add_argument("--year", metavar="AAAA", help="mostra as datas deste ano")
    listing.add_argument("--removed", action="store_true", help="inclui os removidos")
    listing.add_argument("--json", action="store_true", help="saída em JSON")
    db_option(listing, top=False)
    add = sub.add_parser(
        "add",
        help="cadastra um feriado ou ponto facultativo do município",
        description="Cadastra um feriado (ou ponto facultativo) do município do ato, com a sua fonte.",
        formatter_class=parser.formatter_class,
    )
    add.add_argument("when", metavar="QUANDO", help="DD/MM/AAAA (um dia), DD/MM (todo ano) ou Páscoa±N")
    add.add_argument("--name", metavar="NOME", help="o nome, como «Aniversário da cidade» — obrigatório")
    add.add_argument("--source", metavar="FONTE", help="a lei ou o decreto que o fixa — obrigatória")
    add.add_argument("--regime", metavar="ID", help="o ato do município (obrigatório)")
    add.add_argument("--optional", action="store_true", help="ponto facultativo decretado (a repartição fecha)")
    db_option(add, top=False)
    remove = sub.add_parser(
        "remove", help="remove um feriado (fica no histórico)", formatter_class=parser.formatter_class
    )
    remove.add_argument("number", metavar="Nº", help="o número do feriado (praca holidays list)")
    remove.add_argument("--reason", metavar="MOTIVO", help="por que sai do calendário — obrigatório")
    db_option(remove, top=False)
    imp = sub.add_parser(
        "import", help="importa um CSV de feriados (data; nome; fonte; tipo)", formatter_class=parser.formatter_class
    )
    imp.add_argument("file", metavar="ARQUIVO", help="o CSV, UTF-8, com cabeçalho data; nome; fonte; tipo")
    imp.add_argument("--regime", metavar="ID", help="o ato do município (obrigatório)")
    db_option(imp, top=False)
    office = sub.add_parser(
        "office-hours",
        help="mostra ou define o expediente da repartição (08:00-17:00)",
        formatter_class=parser.formatter_class,
    )
    office.add_argument("hours", metavar="HORÁRIO", nargs="?", help="como 08:00-17:00 (sem ele: mostra o atual)")
    db_option(office, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca holidays list --regime olimpia-2025 --year 2026\n"
        '  praca holidays add 20/01 --name "São Sebastião, padroeiro" --source "Lei Municipal nº 1.000/1990" '
        "--regime olimpia-2025\n"
        '  praca holidays add Páscoa-47 --name "Carnaval" --source "Decreto nº 8.000/2026" --optional '
        "--regime olimpia-2025\n"
        '  praca holidays remove 3 --reason "Lei revogada"\n'
        "  praca holidays import feriados.csv --regime olimpia-2025\n"
        "  praca holidays office-hours 08:00-17:00"
    )


def _town(regime_id: str | None, required: bool) -> tuple[str, str] | None:
    from models.rules.regimes import get_regime

    if not (regime_id or "").strip():
        if required:
            raise UserError(
                "Informe o município pelo seu ato: --regime ID (praca regimes lista os ids).", field="regime"
            )
        return None
    regime = get_regime((regime_id or "").strip())
    return regime.municipality, regime.state


def _year(text: str | None) -> int | None:
    if text is None:
        return None
    raw = text.strip()
    if not (raw.isdigit() and len(raw) == 4):
        raise UserError(f"Ano inválido: '{text}' (use quatro algarismos, como 2026).", field="year")
    return int(raw)


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None) or "list"
    year = _year(getattr(args, "year", None))
    if action == "remove":
        number = (args.number or "").strip()
        if not number.isdigit():
            raise UserError(f"Número de feriado inválido: '{args.number}'.", field="holiday")
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "office-hours":
            return _office_hours(args.hours)
        if action == "list":  # also «praca holidays» alone
            return _list(
                _town(getattr(args, "regime", None), False),
                year,
                getattr(args, "removed", False),
                getattr(args, "json", False),
            )
        return _change(args, action)
    finally:
        close_database()


def _list(town: tuple[str, str] | None, year: int | None, removed: bool, as_json: bool) -> int:
    from models.rules.holidays import list_holidays

    rows = list_holidays(*(town or (None, None)), include_removed=removed)
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "number": r.id,
                        "municipality": r.municipality,
                        "state": r.state,
                        "name": r.name,
                        "kind": r.kind,
                        "when": r.when_text,
                        "rule": r.rule,
                        "dates": [d.isoformat() for d in r.days_in(year)] if year else None,
                        "source": r.source,
                        "created_by": r.created_by,
                        "removed": r.removed_at is not None,
                    }
                    for r in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    if not rows:
        print("Nenhum feriado municipal cadastrado" + (f" em {town[0]}/{town[1]}" if town else "") + ".")
        print("Os feriados nacionais e estaduais já contam em todo prazo; cadastre os do município com")
        print("praca holidays add.")
        return 0
    for r in rows:
        dates = ""
        if year:
            dates = " — " + (", ".join(d.strftime("%d/%m/%Y") for d in r.days_in(year)) or f"não cai em {year}")
        gone = f" [removido em {r.removed_at:%d/%m/%Y}: {r.removed_reason}]" if r.removed_at else ""
        print(
            f"nº {r.id}  {r.municipality}/{r.state}  {r.when_text}{dates}  {r.name} ({r.kind_label}) — "
            f"fonte: {r.source}{gone}"
        )
    return 0


def _office_hours(text: str | None) -> int:
    from models.rules import holidays

    if text:
        opens, closes = holidays.set_office_hours(text)
        print(f"Expediente da repartição: {opens:%H:%M}–{closes:%H:%M}, nos dias úteis.")
        print("Um prazo em horas que termine fora dele mostra as leituras para a autoridade.")
        return 0
    shown = holidays.office_hours_text()
    print(f"Expediente da repartição: {shown}, nos dias úteis." if shown else "Expediente da repartição: não definido.")
    return 0


def _change(args: argparse.Namespace, action: str) -> int:
    from models import enforcement as enf
    from models.rules import holidays

    if action == "add":
        town = _town(args.regime, True)
        assert town is not None
        row = holidays.add_holiday(
            *town,
            args.when,
            name=args.name or "",
            source=args.source or "",
            kind="optional" if args.optional else "holiday",
        )
        print(f"Cadastrado: nº {row.id} — {row.name} ({row.kind_label}), {row.when_text}, {town[0]}/{town[1]}.")
    elif action == "remove":
        row = holidays.remove_holiday(int(args.number), reason=args.reason or "")
        town = (row.municipality, row.state)
        print(f"Removido: nº {row.id} — {row.name}, {row.when_text} ({row.removed_reason}).")
    else:
        town = _town(args.regime, True)
        assert town is not None
        rows = holidays.import_holidays(*town, args.file)
        print(f"Importados {len(rows)} feriado(s) para {town[0]}/{town[1]}.")
    moved = enf.moved_deadlines(_dt.date.today(), municipality=town[0])
    if moved:
        print(f"Prazos em curso recalculados com o calendário do município ({len(moved)}):")
        for m in moved:
            print(f"  {m.reference} — {m.label}: agora {m.now} ({m.moved})")
    else:
        print("Nenhum prazo em curso mudou.")
    return 0
