"""The sanctions report as an Excel workbook that stays live — built from the fee report's pieces.

One sheet per view: Resumo; the records by kind, regime, site and inspector
(Por tipo, Por regime, Por local, Por fiscal), the infractions by article (Por
artigo, with the article infringed and the one that sets the penalty) and the
sanctions by kind (Por sanção); then the lists — Autos, Infrações, Sanções,
Multas, Prazos em curso, Apreensões pendentes, Reincidências, Dívida ativa.
The lists are values; every total and subtotal is a formula over them
(``SUMIFS``/``COUNTIFS``, ``SUM``), so a corrected amount on a list changes the
summary. A corrected record (replaced by its correction) and a cancelled fine
are listed and count in nothing. Money is ``"R$" #,##0.00``, dates
``DD/MM/YYYY``; titles and headers are frozen, every table has its filter, and
Resumo has a native chart of the fines charged and paid by kind of record.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from openpyxl.utils import get_column_letter

from models.sanctions_report import CANCELLED, CORRECTED, SanctionsReport
from reports.fee_report_xlsx import (
    COUNT,
    DATE,
    DATETIME,
    HEADER,
    HEADER_ROW,
    LONG_TEXT,
    MONEY,
    Sheet,
    breakdown_sheet,
    column_chart,
    new_workbook,
    save_workbook,
    sheet_range,
    ticker,
)

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
    ("Autos", "Autos lavrados no período", RECORD_COLUMNS, "records", "B",
     f"{CORRECTED}: substituído pelo auto que o corrigiu, não soma"),
    ("Infrações", "Infrações registradas (artigos infringidos)", INFRACTION_COLUMNS, "infractions", "B",
     "uma linha por artigo infringido em auto não corrigido; ocorrência 2 ou mais: reincidência"),
    ("Sanções", "Sanções aplicadas", SANCTION_COLUMNS, "sanctions", "B",
     "sanções que valem agora, dos autos em vigor (nem corrigidos nem anulados)"),
    ("Multas", "Multas lançadas", FINE_COLUMNS, "fines", "B",
     "Pago: quitado da cobrança, até o valor cobrado; canceladas não somam"),
    ("Prazos em curso", "Prazos em curso e julgamentos pendentes", DEADLINE_COLUMNS, "deadlines", "B", ""),
    ("Apreensões pendentes", "Bens apreendidos ainda no depósito", SEIZED_COLUMNS, "seized", "B",
     "o que pagar hoje para retirar: multas em aberto e diárias de depósito"),
    ("Reincidências", "Reincidências", RECURRENCE_COLUMNS, "recurrences", "B",
     "mesma natureza, mesmo infrator, dentro da janela do ato"),
    ("Dívida ativa", "Multas para inscrição em dívida ativa", DEBT_COLUMNS, "debts", "B",
     "multas não pagas depois de todos os prazos"),
)


def _col(columns, name: str) -> str:
    return get_column_letter(next(i for i, (header, *_r) in enumerate(columns, start=1) if header == name))


def _area(sheet: str, columns, name: str, last: int) -> str:
    return sheet_range(sheet, _col(columns, name), last)


def write_sanctions_report_xlsx(report: SanctionsReport, path: str | Path, *,
                                progress: Progress | None = None) -> Path:
    """Write ``report`` to ``path`` (.xlsx). ``progress(done, total)`` may raise to stop."""
    path = Path(path)
    wb = new_workbook(report.title)
    last = {key: HEADER_ROW + len(getattr(report, key)) for *_r, key, _f, _n in LISTS}
    total = sum(len(getattr(report, key)) for *_r, key, _f, _n in LISTS) + 1
    tick = ticker(progress, total, _STEP)
    autos = lambda name: _area("Autos", RECORD_COLUMNS, name, last["records"])  # noqa: E731
    multas = lambda name: _area("Multas", FINE_COLUMNS, name, last["fines"])  # noqa: E731

    _summary(wb, report, last, autos, multas)
    for title, heading, groups, column in (
        ("Por tipo", "Tipo de auto", report.by_kind, "Tipo"),
        ("Por regime", "Regime (ato)", report.by_regime, "Regime"),
        ("Por local", "Local", report.by_site, "Local"),
        ("Por fiscal", "Fiscal", report.by_inspector, "Fiscal"),
    ):
        columns = ((heading, 46, None), ("Autos", 10, COUNT), ("Multas lançadas", 16, MONEY),
                   ("Multas pagas", 16, MONEY), ("Em aberto", 16, MONEY), ("Vencidas", 16, MONEY))
        breakdown_sheet(wb, report, title, columns, [(g.key,) for g in groups],
                        heading=f"Autos e multas por {heading.lower()}",
                        note=f"cada valor é uma fórmula sobre a aba Autos ({CORRECTED}s não somam)",
                        criteria=[(autos(column), 0)],
                        sums=[autos(name) for name in ("Multa", "Paga", "Em aberto", "Vencida")],
                        exclude=(autos("Situação"), CORRECTED))
    infractions = lambda name: _area("Infrações", INFRACTION_COLUMNS, name, last["infractions"])  # noqa: E731
    breakdown_sheet(wb, report, "Por artigo",
                    (("Código", 28, None), ("Infração", 50, None), ("Regime", 34, None),
                     ("Artigo infringido", 36, None), ("Base da penalidade", 36, None), ("Autos", 10, COUNT)),
                    [(a.code, a.label, a.regime_label, a.article, a.basis) for a in report.by_article],
                    heading="Infrações por artigo, com a base legal",
                    note="cada contagem é uma fórmula sobre a aba Infrações",
                    criteria=[(infractions("Código"), 0), (infractions("Regime"), 2)])
    breakdown_sheet(wb, report, "Por sanção", (("Sanção", 30, None), ("Aplicadas", 12, COUNT)),
                    [(g.key,) for g in report.by_sanction], heading="Sanções aplicadas por tipo",
                    note="cada contagem é uma fórmula sobre a aba Sanções",
                    criteria=[(_area("Sanções", SANCTION_COLUMNS, "Sanção", last["sanctions"]), 0)])

    for title, heading, columns, key, freeze, note in LISTS:
        sheet = Sheet(wb, title, report, columns, heading=heading, freeze_col=freeze, note=note)
        end = sheet.rows(getattr(report, key), tick)
        sheet.filter(end)
        totals = _list_totals(title, columns, last[key])
        if totals is not None:
            sheet.ws.append([])
            sheet.total(totals)
    tick()
    return save_workbook(wb, path, progress, total)


def _list_totals(title: str, columns, last: int) -> list | None:
    """The total row of a list with money: SUMIFS without what counts in nothing, SUM elsewhere."""
    money = [i for i, (_h, _w, fmt, _g) in enumerate(columns) if fmt == MONEY]
    if not money or title in ("Sanções",):
        return None
    headers = [h for h, *_r in columns]
    row: list = [None] * len(columns)
    excluded = {"Autos": ("Situação", CORRECTED), "Multas": ("Situação", CANCELLED)}.get(title)
    row[0] = f"Total (sem os {CORRECTED}s)" if title == "Autos" else (
        "Total (sem as canceladas)" if title == "Multas" else "Total")
    for i in money:
        area = _area(title, columns, headers[i], last)
        if excluded is not None:
            row[i] = (f'=ROUND(SUMIFS({area},{_area(title, columns, excluded[0], last)},'
                      f'"<>{excluded[1]}"),2)')
        else:
            row[i] = f"=ROUND(SUM({area}),2)"
    return row


def _summary(wb, report: SanctionsReport, last: dict[str, int], autos, multas) -> None:
    """Resumo: the period's figures as formulas over the lists, and the chart."""
    columns = (("Indicador", 50, None), ("Valor", 18, MONEY), ("Como se calcula", 70, None), ("", 40, None))
    sheet = Sheet(wb, "Resumo", report, columns, heading="Relatório de sanções")
    ws = sheet.ws
    status = autos("Situação")
    situation = multas("Situação")
    deadlines = _area("Prazos em curso", DEADLINE_COLUMNS, "Situação", last["deadlines"])
    money_rows = (
        ("Multas lançadas (sem as canceladas)", f'=ROUND(SUMIFS({multas("Valor")},{situation},"<>{CANCELLED}"),2)',
         "soma de Valor em Multas, sem as canceladas"),
        ("Multas pagas", f"=ROUND(SUM({multas('Pago')}),2)", "pago sobre as multas, até o valor de cada uma"),
        ("Multas em aberto", f"=ROUND(SUM({multas('Em aberto')}),2)", "lançado − pago"),
        ("Multas vencidas", f"=ROUND(SUM({multas('Vencido')}),2)",
         f"em aberto com vencimento antes de {report.today:%d/%m/%Y}"),
        ("Para inscrição em dívida ativa",
         f"=ROUND(SUM({_area('Dívida ativa', DEBT_COLUMNS, 'Valor', last['debts'])}),2)",
         "multas não pagas depois de todos os prazos"),
        ("A pagar para retirar os bens apreendidos",
         f"=ROUND(SUM({_area('Apreensões pendentes', SEIZED_COLUMNS, 'Total para retirar', last['seized'])}),2)",
         "multas em aberto e diárias de depósito dos bens ainda no depósito"),
    )
    count_rows = (
        (f"Autos lavrados (sem os {CORRECTED}s)", f'=COUNTIFS({autos("Auto")},"<>",{status},"<>{CORRECTED}")'),
        ("Autos corrigidos (substituídos)", f'=COUNTIFS({status},"{CORRECTED}")'),
        ("Autos anulados", f'=COUNTIFS({status},"anulado")'),
        ("Infrações registradas", f"=COUNTA({_area('Infrações', INFRACTION_COLUMNS, 'Auto', last['infractions'])})"),
        ("Reincidências", f"=COUNTA({_area('Reincidências', RECURRENCE_COLUMNS, 'Auto', last['recurrences'])})"),
        ("Sanções aplicadas", f"=COUNTA({_area('Sanções', SANCTION_COLUMNS, 'Auto', last['sanctions'])})"),
        ("Número de multas lançadas", f'=COUNTIFS({multas("Nº")},"<>",{situation},"<>{CANCELLED}")'),
        ("Número de multas vencidas", f'=COUNTIFS({situation},"vencida")'),
        ("Prazos em curso e julgamentos pendentes", f"=COUNTA({deadlines})"),
        ("Julgamentos atrasados", f'=COUNTIFS({deadlines},"julgamento pendente*")'),
        ("Apreensões com bens no depósito",
         f"=COUNTA({_area('Apreensões pendentes', SEIZED_COLUMNS, 'Auto', last['seized'])})"),
    )
    sheet.figures(money_rows, count_rows)
    ws.append([sheet.cell(f"Autos lavrados de {report.label}, pelo fato (data e hora do auto); situação em "
                          f"{report.today:%d/%m/%Y}.", LONG_TEXT)])
    ws.append([sheet.cell("Base legal de cada infração: aba Por artigo (artigo infringido e artigo da "
                          "penalidade, como congelados nos autos)", LONG_TEXT)])
    ws.append([sheet.cell(h, HEADER) for h in ("Infração", "Autos", "Artigo infringido", "Base da penalidade")])
    for a in report.by_article:
        ws.append([f"{a.code} — {a.label}", sheet.cell(a.count, "Praça número"), sheet.cell(a.article, LONG_TEXT),
                   sheet.cell(a.basis, LONG_TEXT)])
    # the chart reads the breakdown by kind (Por tipo), itself formulas over the record list
    ws.add_chart(column_chart("Por tipo", f"Multas lançadas × pagas por tipo de auto — {report.label}", 3, 4,
                              HEADER_ROW + len(report.by_kind)), "E3")
