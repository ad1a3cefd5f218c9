"""``praca report fees|sanctions … --format xlsx|html|pdf --out FILE`` — the monthly fee and the sanctions reports.

``report`` has one sub-command per report: ``fees --month AAAA-MM`` (charges,
payments and delinquents of a month: reports/fee_export.py) and ``sanctions
--from DATE --to DATE`` (records, infractions by article, sanctions, fines,
deadlines, seized goods and recurrences of a period: reports/sanctions_export.py).
A report is written to a temporary file and renamed over ``--out`` only when
complete. Bad input — a month that is not AAAA-MM, a date that does not exist,
a period that ends before it starts, an unknown format, a folder that does not
exist or cannot be written — is one pt-BR line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys

from models.base.errors import UserError

# name → (configure, run) of a report, or None while it is not built
REPORTS: dict[str, tuple | None] = {}

LOGIN = True


def configure(parser: argparse.ArgumentParser) -> None:
    kinds = parser.add_subparsers(dest="report", metavar="RELATÓRIO", title="relatórios", required=True)
    for name, (help_text, built) in (
        (
            "fees",
            (
                "relatório mensal de taxas: cobrado, pago, em aberto, vencido, pagamentos e inadimplentes",
                (_configure_fees, _run_fees),
            ),
        ),
        (
            "sanctions",
            (
                "relatório de sanções: autos por tipo, artigo, local e fiscal, sanções, multas, prazos, "
                "apreensões e reincidências de um período",
                (_configure_sanctions, _run_sanctions),
            ),
        ),
    ):
        REPORTS[name] = built
        if built is None:
            p = kinds.add_parser(
                name,
                help=f"{help_text} (ainda não disponível)",
                description=f"{help_text}.\nAinda não disponível nesta versão do Praça: o comando sai com status 2.",
            )
            for option in ("--db", "--month", "--format", "--out", "--as-of"):  # the options a report takes
                p.add_argument(option, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
            p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
            p.set_defaults(report_run=_not_built(name))
            continue
        p = kinds.add_parser(name, help=help_text, description=help_text[:1].upper() + help_text[1:] + ".")
        from desktop.cli import db_option

        db_option(p, top=False)  # --db and --user
        built[0](p)
        p.set_defaults(report_run=built[1])
    parser.epilog = (
        "Exemplos:\n"
        "  praca report fees --month 2026-03 --format xlsx --out taxas-2026-03.xlsx\n"
        "  praca report fees --month 2026-11 --format pdf --out taxas-2026-11.pdf\n"
        "  praca report sanctions --from 01/01/2026 --to 31/03/2026 --format pdf --out sancoes.pdf"
    )


def run(args: argparse.Namespace) -> int:
    return args.report_run(args)


def _not_built(name: str):
    def run_missing(_args: argparse.Namespace) -> int:
        print(f"praca: o relatório '{name}' ainda não está disponível nesta versão do Praça.", file=sys.stderr)
        return 2

    return run_missing


# --------------------------------------------------------------------------- fees


def _configure_fees(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--month", metavar="AAAA-MM", help="o mês (cobranças com vencimento nele), ex.: 2026-03")
    parser.add_argument("--format", metavar="FORMATO", default=None, help="xlsx, html ou pdf")
    parser.add_argument("--out", metavar="ARQUIVO", help="arquivo a gravar (ex.: taxas-2026-03.xlsx)")
    parser.add_argument(
        "--as-of",
        metavar="DD/MM/AAAA",
        dest="as_of",
        default=None,
        help="data da situação: o que está vencido e quem está inadimplente (padrão: hoje)",
    )
    _municipality_option(parser)
    parser.epilog = (
        "Cobrado, pago, em aberto e vencido do mês, por regime, local, seção e tipo; a lista das "
        "cobranças com titular, permissão, fórmula e base legal; os pagamentos recebidos no mês; "
        "os inadimplentes e os candidatos à cassação.\n\n"
        "Exemplo:\n  praca report fees --month 2026-03 --format html --out taxas-2026-03.html"
    )


def _municipality_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--municipality",
        metavar="NOME",
        default=None,
        help="o relatório de outro município cujos atos este banco guarda (padrão: o município deste banco, "
        "praca municipality show); um relatório nunca mistura municípios",
    )


def _town(report) -> str:
    return f"{report.municipality}, " if report.municipality else ""


def _said_after(report, notice: str) -> None:
    """After a report is written: that the database does not know its municipality yet (the report was headed
    with the one town its period holds), and on stderr what it left out — other towns' records (a database
    filled before issue 31)."""
    if notice:
        print(notice)
    if report.left_out:
        towns = "; ".join(f"{town}: {count}" for town, count in report.left_out)
        print(
            f"praca: aviso: o relatório é de {report.municipality} e não inclui os registros de atos de outros "
            f"municípios ({towns}); gere o de cada um com --municipality NOME.",
            file=sys.stderr,
        )


def _parse_as_of(text: str | None) -> _dt.date:
    return _dt.date.today() if text is None else _parse_date(text, "--as-of")


def _parse_date(text: str, option: str) -> _dt.date:
    from models.base.br import parse_br_date

    raw = text.strip()
    field = option.lstrip("-").replace("-", "_")
    if "/" in raw:  # typed the Brazilian way: the one dd/mm/aaaa reader says what is wrong
        return parse_br_date(raw, what=f"Data em {option}", field=field)
    try:
        return _dt.date.fromisoformat(raw)
    except ValueError:
        pass
    raise UserError(
        f"Data inválida em {option}: {raw or '(vazia)'}; use DD/MM/AAAA, por exemplo 30/11/2026.",
        field=field,
    )


def _export(args: argparse.Namespace, parse_format, check_target, example, export):
    """Format and file checked before the database is opened, then the report written: ``(path, report)``."""
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    if args.format is None:
        raise UserError("Informe o formato: --format xlsx, html ou pdf.", field="format")
    fmt = parse_format(args.format)
    if not args.out:
        raise UserError(f"Informe o arquivo a gravar: --out ARQUIVO (por exemplo {example(fmt)}).", field="out")
    check_target(args.out, fmt)
    today = _parse_as_of(args.as_of)
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        from models.registry.municipality import missing_notice

        path, report = export(fmt, args.out, today)
        return path, report, missing_notice()
    finally:
        close_database()


def _run_fees(args: argparse.Namespace) -> int:
    from models.base.money import format_brl
    from models.billing.charges import parse_month
    from reports.fee_export import check_target, export_fee_report, parse_format

    if not args.month:
        raise UserError("Informe o mês: --month AAAA-MM (por exemplo 2026-03).", field="month")
    year, month = parse_month(args.month)
    path, report, notice = _export(
        args,
        parse_format,
        check_target,
        lambda fmt: f"taxas-{year:04d}-{month:02d}.{fmt}",
        lambda fmt, out, today: export_fee_report(year, month, fmt, out, today=today, municipality=args.municipality),
    )
    t = report.totals
    print(
        f"Relatório de taxas de {_town(report)}{report.label}, gravado em {path}: {t.count} cobrança(s); cobrado "
        f"{format_brl(t.charged)}, pago {format_brl(t.paid)}, em aberto {format_brl(t.open)}, vencido "
        f"{format_brl(t.overdue)}; recebido no mês {format_brl(report.received)}."
    )
    _said_after(report, notice)
    return 0


# --------------------------------------------------------------------------- sanctions


def _configure_sanctions(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", metavar="DD/MM/AAAA", dest="start", help="primeiro dia do período (data do auto)")
    parser.add_argument("--to", metavar="DD/MM/AAAA", dest="end", help="último dia do período")
    parser.add_argument("--format", metavar="FORMATO", default=None, help="xlsx, html ou pdf")
    parser.add_argument("--out", metavar="ARQUIVO", help="arquivo a gravar (ex.: sancoes-2026-t1.pdf)")
    parser.add_argument(
        "--as-of",
        metavar="DD/MM/AAAA",
        dest="as_of",
        default=None,
        help="data da situação: prazos em curso, multas vencidas, bens no depósito (padrão: hoje)",
    )
    _municipality_option(parser)
    parser.epilog = (
        "Os autos lavrados no período (pela data do fato) por tipo, regime, local e fiscal; as infrações "
        "por artigo com a base legal; as sanções aplicadas; as multas lançadas, pagas e vencidas; os "
        "prazos em curso; os bens apreendidos ainda no depósito; as reincidências e a dívida ativa.\n\n"
        "Exemplo:\n  praca report sanctions --from 01/01/2026 --to 31/03/2026 --format xlsx "
        "--out sancoes-2026-t1.xlsx"
    )


def _run_sanctions(args: argparse.Namespace) -> int:
    from models.base.money import format_brl
    from models.enforcement.sanctions_report import check_period
    from reports.fee_export import check_target, parse_format
    from reports.sanctions_export import default_name, export_sanctions_report

    if not args.start or not args.end:
        raise UserError(
            "Informe o período: --from DD/MM/AAAA --to DD/MM/AAAA (por exemplo --from 01/01/2026 --to 31/03/2026).",
            field="start",
        )
    start, end = check_period(_parse_date(args.start, "--from"), _parse_date(args.end, "--to"))
    path, report, notice = _export(
        args,
        parse_format,
        check_target,
        lambda fmt: default_name(start, end, fmt),
        lambda fmt, out, today: export_sanctions_report(
            start, end, fmt, out, today=today, municipality=args.municipality
        ),
    )
    f = report.figures
    print(
        f"Relatório de sanções de {_town(report)}{report.label}, gravado em {path}: {f.records} auto(s), "
        f"{f.infractions} infração(ões), {f.recurrences} reincidência(s); multas lançadas "
        f"{format_brl(f.charged)}, pagas {format_brl(f.paid)}, vencidas {format_brl(f.overdue)}; "
        f"{f.deadlines} prazo(s) em curso; {f.seized} apreensão(ões) com bens no depósito."
    )
    _said_after(report, notice)
    return 0
