"""The sanctions report as an Excel workbook that stays live — built with the workbook toolkit (reports.workbook).

One sheet per view: Resumo; the records by kind, regime, site and inspector
(Por tipo, Por regime, Por local, Por fiscal), the infractions by article (Por
artigo, with the article infringed and the one that sets the penalty) and the
sanctions by kind (Por sanção); then the lists — Autos, Infrações, Sanções,
Multas, Prazos em curso, Apreensões pendentes, Reincidências, Dívida ativa.
The lists are values; every total and subtotal is a formula over them
(``SUMIFS``/``COUNTIFS``, ``SUM``), so a corrected amount on a list changes the
summary. A corrected record (replaced by its correction) and a cancelled fine
are listed and count in nothing; every formula also stores its result. Money is
``[$-416]"R$" #,##0.00`` (pt-BR under any locale), dates ``DD/MM/YYYY``; titles
and headers are frozen, every table has its filter, and Resumo has a native
chart of the fines charged and paid by kind of record.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from models.billing.report_parts import CANCELLED
from models.enforcement.sanctions_report import CORRECTED, SanctionsReport
from models.registry.municipality import left_out_note
from reports.workbook.book import Sheet, new_workbook
from reports.workbook.breakdown import abandon, breakdown_sheet, column_chart, save_workbook, ticker
from reports.workbook.formulas import Styled, f_counta, f_countifs, f_sum, f_sumifs
from reports.workbook.styles import COUNT, DATE, DATETIME, HEADER, LONG_TEXT, MONEY

Progress = Callable[[int, int], None]
_STEP = 200

# the lists: (header, width, number format or None, value of a row)
RECORD_COLUMNS = (
    ("Auto", 22, None, lambda r: r.reference),
    ("Tipo", 30, None, lambda r: r.kind_label),
    ("Regime", 34, None, lambda r: r.regime_label),
    ("Data e hora", 16, DATETIME, lambda r: r.at),
    ("Infrator", 32, None, lambda r: r.offender),
    ("Documento", 24, None, lambda r: r.document),
    ("Permissão", 12, None, lambda r: r.permit),
    ("Local", 30, None, lambda r: r.site),
    ("Endereço / ponto", 32, None, lambda r: r.place),
    ("Fiscal", 30, None, lambda r: r.inspector),
    ("Infrações", 28, None, lambda r: r.codes),
    ("Artigos infringidos", 40, None, lambda r: r.articles),
    ("Sanções aplicadas", 50, None, lambda r: r.sanctions),
    ("Ocorrência", 11, COUNT, lambda r: r.offence),
    ("Situação", 12, None, lambda r: r.status_label),
    ("Andamento", 32, None, lambda r: r.situation),
    ("Multa", 14, MONEY, lambda r: r.fine),
    ("Paga", 14, MONEY, lambda r: r.paid),
    ("Em aberto", 14, MONEY, lambda r: r.open),
    ("Vencida", 14, MONEY, lambda r: r.overdue),
)
INFRACTION_COLUMNS = (
    ("Auto", 22, None, lambda i: i.reference),
    ("Data e hora", 16, DATETIME, lambda i: i.at),
    ("Infrator", 32, None, lambda i: i.offender),
    ("Regime", 34, None, lambda i: i.regime_label),
    ("Código", 28, None, lambda i: i.code),
    ("Infração", 50, None, lambda i: i.label),
    ("Artigo infringido", 36, None, lambda i: i.article),
    ("Base da penalidade", 36, None, lambda i: i.basis),
    ("Ocorrência", 11, COUNT, lambda i: i.offence),
    ("Situação do auto", 14, None, lambda i: i.status_label),
)
SANCTION_COLUMNS = (
    ("Auto", 22, None, lambda s: s.reference),
    ("Data e hora", 16, DATETIME, lambda s: s.at),
    ("Infrator", 32, None, lambda s: s.offender),
    ("Regime", 34, None, lambda s: s.regime_label),
    ("Infração", 28, None, lambda s: s.code),
    ("Sanção", 16, None, lambda s: s.kind_label),
    ("Descrição", 56, None, lambda s: s.text),
    ("Valor", 14, MONEY, lambda s: s.amount),
    ("Dias", 8, COUNT, lambda s: s.days),
    ("Base legal", 44, None, lambda s: s.basis),
)
FINE_COLUMNS = (
    ("Nº", 12, None, lambda f: f.charge.number),
    ("Auto", 22, None, lambda f: f.record),
    ("Infrator", 32, None, lambda f: f.charge.holder),
    ("Regime", 34, None, lambda f: f.charge.regime_label),
    ("Descrição", 44, None, lambda f: f.charge.label),
    ("Vencimento", 12, DATE, lambda f: f.charge.due_on),
    ("Valor", 14, MONEY, lambda f: f.charge.amount),
    ("Pago", 14, MONEY, lambda f: f.charge.paid),
    ("Em aberto", 14, MONEY, lambda f: f.charge.open),
    ("Vencido", 14, MONEY, lambda f: f.charge.overdue),
    ("Situação", 14, None, lambda f: f.charge.situation),
    ("Fórmula", 40, None, lambda f: f.charge.formula),
    ("Valores informados", 44, None, lambda f: f.asked),  # what the inspector gave for its formula, and who
    ("Base legal", 50, None, lambda f: f.charge.basis),
)
DEADLINE_COLUMNS = (
    ("Auto", 22, None, lambda d: d.reference),
    ("Infrator", 32, None, lambda d: d.offender),
    ("Regime", 34, None, lambda d: d.regime_label),
    ("Prazo", 22, None, lambda d: d.role_label),
    ("Descrição", 40, None, lambda d: d.label),
    ("Início", 16, None, lambda d: d.start),
    ("Vencimento", 12, DATE, lambda d: d.due_on),
    ("Termina", 30, None, lambda d: d.due_text),
    ("Situação", 30, None, lambda d: d.state),
    ("Base legal", 40, None, lambda d: d.basis),
)
SEIZED_COLUMNS = (
    ("Auto", 22, None, lambda s: s.goods.reference),
    ("Infrator", 32, None, lambda s: s.goods.offender),
    ("Regime", 34, None, lambda s: s.regime_label),
    ("Apreendido em", 16, DATETIME, lambda s: s.goods.seized_at),
    ("Bens no depósito", 44, None, lambda s: s.goods.items),
    ("Perecível", 10, None, lambda s: "sim" if s.goods.perishable else "não"),
    ("Depósito", 28, None, lambda s: s.goods.depot),
    ("Retirada", 30, None, lambda s: s.goods.reclaim_due),
    ("Base legal", 36, None, lambda s: s.goods.reclaim_basis),
    ("Dias", 8, COUNT, lambda s: s.goods.days),
    ("Diárias a pagar", 14, MONEY, lambda s: s.goods.depot_due),
    ("Multas em aberto", 14, MONEY, lambda s: s.goods.fines_open),
    ("Total para retirar", 14, MONEY, lambda s: s.goods.total_due),
    ("Situação", 30, None, lambda s: s.goods.state),
)
RECURRENCE_COLUMNS = (
    ("Auto", 22, None, lambda r: r.reference),
    ("Data e hora", 16, DATETIME, lambda r: r.at),
    ("Infrator", 32, None, lambda r: r.offender),
    ("Regime", 34, None, lambda r: r.regime_label),
    ("Código", 28, None, lambda r: r.code),
    ("Infração", 44, None, lambda r: r.label),
    ("Ocorrência", 11, COUNT, lambda r: r.offence),
    ("Ocorrências anteriores", 40, None, lambda r: r.priors),
    ("Base legal", 50, None, lambda r: r.basis),
    ("Sanções", 50, None, lambda r: r.sanctions),
)
DEBT_COLUMNS = (
    ("Auto", 22, None, lambda d: d.fine.reference),
    ("Cobrança", 12, None, lambda d: d.fine.charge_number),
    ("Infrator", 32, None, lambda d: d.fine.offender),
    ("Documento", 24, None, lambda d: d.fine.document),
    ("Regime", 34, None, lambda d: d.regime_label),
    ("Vencida em", 12, DATE, lambda d: d.fine.due_on),
    ("Dias em atraso", 10, COUNT, lambda d: d.fine.days_late),
    ("Valor", 14, MONEY, lambda d: d.fine.amount),
    ("Base legal", 40, None, lambda d: d.fine.basis),
)

LISTS = (  # sheet, heading, columns, the report's rows, the column frozen first, a note
    (
        "Autos",
        "Autos lavrados no período",
        RECORD_COLUMNS,
        "records",
        "B",
        f"{CORRECTED}: substituído pelo auto que o corrigiu, não soma",
    ),
    (
        "Infrações",
        "Infrações registradas (artigos infringidos)",
        INFRACTION_COLUMNS,
        "infractions",
        "B",
        "uma linha por artigo infringido em auto não corrigido; ocorrência 2 ou mais: reincidência",
    ),
    (
        "Sanções",
        "Sanções aplicadas",
        SANCTION_COLUMNS,
        "sanctions",
        "B",
        "sanções que valem agora, dos autos em vigor (nem corrigidos nem anulados)",
    ),
    (
        "Multas",
        "Multas lançadas",
        FINE_COLUMNS,
        "fines",
        "B",
        "Pago: quitado da cobrança, até o valor cobrado; canceladas não somam",
    ),
    ("Prazos em curso", "Prazos em curso e julgamentos pendentes", DEADLINE_COLUMNS, "deadlines", "B", ""),
    (
        "Apreensões pendentes",
        "Bens apreendidos ainda no depósito",
        SEIZED_COLUMNS,
        "seized",
        "B",
        "o que pagar hoje para retirar: multas em aberto e diárias de depósito",
    ),
    (
        "Reincidências",
        "Reincidências",
        RECURRENCE_COLUMNS,
        "recurrences",
        "B",
        "mesma natureza, mesmo infrator, dentro da janela do ato",
    ),
    (
        "Dívida ativa",
        "Multas para inscrição em dívida ativa",
        DEBT_COLUMNS,
        "debts",
        "B",
        "multas não pagas depois de todos os prazos",
    ),
)


BREAKDOWNS = ("Por tipo", "Por regime", "Por local", "Por fiscal", "Por artigo", "Por sanção")
SHEETS = ("Resumo", *BREAKDOWNS, *(title for title, *_rest in LISTS))


def write_sanctions_report_xlsx(report: SanctionsReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Write ``report`` to ``path`` (.xlsx). ``progress(done, total)`` may raise to stop."""
    path = Path(path)
    book = new_workbook(path, report.title, SHEETS, report.currency)
    total = sum(len(getattr(report, key)) for *_r, key, _f, _n in LISTS) + 1
    tick = ticker(progress, total, _STEP)
    try:
        _write(book, report, tick)
    except BaseException:
        abandon(book)
        raise
    return save_workbook(book, path, progress, total)


def _write(book, report: SanctionsReport, tick) -> None:
    # the lists first: the summaries store what their formulas give on them
    lists: dict[str, Sheet] = {}
    for index, (title, heading, columns, key, freeze, note) in enumerate(LISTS):
        items = getattr(report, key)
        if index == 0:  # the first list says what the report, one municipality's, left out (issue 31 §1)
            note = "; ".join(x for x in (note, left_out_note(report.municipality, report.left_out, "auto(s)")) if x)
        sheet = Sheet(
            book, title, report, columns, heading=heading, freeze_col=freeze, note=note, key_columns=2, items=items
        )
        end = sheet.rows(items, tick)
        sheet.filter(end)
        totals = _list_totals(title, sheet)
        if totals is not None:
            sheet.skip()
            sheet.total(totals)
        lists[key] = sheet
    autos, multas = lists["records"].area, lists["fines"].area
    by_kind = None
    for title, heading, groups, column in (
        ("Por tipo", "Tipo de auto", report.by_kind, "Tipo"),
        ("Por regime", "Regime (ato)", report.by_regime, "Regime"),
        ("Por local", "Local", report.by_site, "Local"),
        ("Por fiscal", "Fiscal", report.by_inspector, "Fiscal"),
    ):
        summary_columns = (
            (heading, 46, None),
            ("Autos", 10, COUNT),
            ("Multas lançadas", 16, MONEY),
            ("Multas pagas", 16, MONEY),
            ("Em aberto", 16, MONEY),
            ("Vencidas", 16, MONEY),
        )
        result = breakdown_sheet(
            book,
            report,
            title,
            summary_columns,
            [(g.key,) for g in groups],
            heading=f"Autos e multas por {heading.lower()}",
            note=f"cada valor é uma fórmula sobre a aba Autos ({CORRECTED}s não somam)",
            criteria=[(autos(column), 0)],
            sums=[autos(name) for name in ("Multa", "Paga", "Em aberto", "Vencida")],
            exclude=(autos("Situação"), CORRECTED),
        )
        if title == "Por tipo":
            by_kind = result
    infractions = lists["infractions"].area
    breakdown_sheet(
        book,
        report,
        "Por artigo",
        (
            ("Código", 28, None),
            ("Infração", 50, None),
            ("Regime", 34, None),
            ("Artigo infringido", 36, None),
            ("Base da penalidade", 36, None),
            ("Autos", 10, COUNT),
        ),
        [(a.code, a.label, a.regime_label, a.article, a.basis) for a in report.by_article],
        heading="Infrações por artigo, com a base legal",
        note="cada contagem é uma fórmula sobre a aba Infrações",
        criteria=[(infractions("Código"), 0), (infractions("Regime"), 2)],
    )
    breakdown_sheet(
        book,
        report,
        "Por sanção",
        (("Sanção", 30, None), ("Aplicadas", 12, COUNT)),
        [(g.key,) for g in report.by_sanction],
        heading="Sanções aplicadas por tipo",
        note="cada contagem é uma fórmula sobre a aba Sanções",
        criteria=[(lists["sanctions"].area("Sanção"), 0)],
    )
    _summary(book, report, lists, autos, multas, by_kind)
    tick()


def _list_totals(title: str, sheet: Sheet) -> list | None:
    """The total row of a list with money: SUMIFS without what counts in nothing, SUM elsewhere."""
    columns = sheet.columns
    money = [i for i, (_h, _w, fmt, _g) in enumerate(columns) if fmt == MONEY]
    if not money or title in ("Sanções",):
        return None
    headers = [h for h, *_r in columns]
    row: list = [None] * len(columns)
    excluded = {"Autos": ("Situação", CORRECTED), "Multas": ("Situação", CANCELLED)}.get(title)
    row[0] = (
        f"Total (sem os {CORRECTED}s)"
        if title == "Autos"
        else ("Total (sem as canceladas)" if title == "Multas" else "Total")
    )
    for i in money:
        area = sheet.area(headers[i])
        if excluded is not None:
            row[i] = f_sumifs(area, [(sheet.area(excluded[0]), "<>", excluded[1], None)])
        else:
            row[i] = f_sum(area)
    return row


def _summary(book, report: SanctionsReport, lists: dict[str, Sheet], autos, multas, by_kind) -> None:
    """Resumo: the period's figures as formulas over the lists, and the chart."""
    columns = (("Indicador", 50, None), ("Valor", 18, MONEY), ("Como se calcula", 60, None), ("", 40, None))
    sheet = Sheet(book, "Resumo", report, columns, heading="Relatório de sanções")
    status = autos("Situação")
    situation = multas("Situação")
    deadlines = lists["deadlines"].area("Situação")
    live = (situation, "<>", CANCELLED, None)
    money_rows = (
        (
            "Multas lançadas (sem as canceladas)",
            f_sumifs(multas("Valor"), [live]),
            "soma de Valor em Multas, sem as canceladas",
        ),
        ("Multas pagas", f_sum(multas("Pago")), "pago sobre as multas, até o valor de cada uma"),
        ("Multas em aberto", f_sum(multas("Em aberto")), "lançado − pago"),
        ("Multas vencidas", f_sum(multas("Vencido")), f"em aberto com vencimento antes de {report.today:%d/%m/%Y}"),
        (
            "Para inscrição em dívida ativa",
            f_sum(lists["debts"].area("Valor")),
            "multas não pagas depois de todos os prazos",
        ),
        (
            "A pagar para retirar os bens apreendidos",
            f_sum(lists["seized"].area("Total para retirar")),
            "multas em aberto e diárias de depósito dos bens ainda no depósito",
        ),
    )
    count_rows = (
        (
            f"Autos lavrados (sem os {CORRECTED}s)",
            f_countifs([(autos("Auto"), "nonblank", None, None), (status, "<>", CORRECTED, None)]),
        ),
        ("Autos corrigidos (substituídos)", f_countifs([(status, "=", CORRECTED, None)])),
        ("Autos anulados", f_countifs([(status, "=", "anulado", None)])),
        ("Infrações registradas", f_counta(lists["infractions"].area("Auto"))),
        ("Reincidências", f_counta(lists["recurrences"].area("Auto"))),
        ("Sanções aplicadas", f_counta(lists["sanctions"].area("Auto"))),
        ("Número de multas lançadas", f_countifs([(multas("Nº"), "nonblank", None, None), live])),
        ("Número de multas vencidas", f_countifs([(situation, "=", "vencida", None)])),
        ("Prazos em curso e julgamentos pendentes", f_counta(deadlines)),
        ("Julgamentos atrasados", f_countifs([(deadlines, "prefix", "julgamento pendente", None)])),
        ("Apreensões com bens no depósito", f_counta(lists["seized"].area("Auto"))),
    )
    sheet.figures(money_rows, count_rows)
    widths = [w for _n, w, *_r in columns]
    # one line each, over the empty cells beside it
    sheet.append(
        [f"Autos lavrados de {report.label}, pelo fato (data e hora do auto); situação em {report.today:%d/%m/%Y}."]
    )
    sheet.append(
        [
            "Base legal de cada infração: aba Por artigo (artigo infringido e artigo da penalidade, como "
            "congelados nos autos)"
        ]
    )
    sheet.append([Styled(h, HEADER) for h in ("Infração", "Autos", "Artigo infringido", "Base da penalidade")])
    for a in report.by_article:
        sheet.wrapped(
            [
                Styled(f"{a.code} — {a.label}", LONG_TEXT),
                Styled(a.count, "Praça número"),
                Styled(a.article, LONG_TEXT),
                Styled(a.basis, LONG_TEXT),
            ],
            widths,
        )
    # the chart reads the breakdown by kind (Por tipo), itself formulas over the record list
    sheet.chart_below(
        column_chart(
            book, "Por tipo", f"Multas lançadas × pagas por tipo de auto — {report.label}", by_kind, series=(2, 3)
        ),
    )
