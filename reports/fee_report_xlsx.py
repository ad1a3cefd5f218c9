"""The monthly fee report as an Excel workbook that stays live and carries its values.

One sheet per view — Resumo, Por regime, Por local, Por seção, Por tipo,
Cobranças, Pagamentos, Inadimplentes. The rows of *Cobranças* and *Pagamentos*
are values; every total and subtotal is a formula over them (``SUMIFS`` /
``COUNTIFS`` on the charge list, ``SUM`` for the totals), so a corrected amount
on the list changes the summary — and every formula cell also stores the
result Praça computed from the same rows, so a reader that does not
recalculate (mail and phone previews, Power Query, pandas) shows the figures,
not blanks. Built with the workbook toolkit (:mod:`reports.workbook`), as the
sanctions report is (:mod:`reports.sanctions_report_xlsx`).
"""

from __future__ import annotations

from pathlib import Path

from xlsxwriter.utility import xl_col_to_name

from models.billing.fee_report import FeeReport
from models.billing.report_parts import CANCELLED
from models.registry.municipality import left_out_note
from reports.templating import date_br
from reports.workbook.book import Book, Sheet, new_workbook
from reports.workbook.breakdown import abandon, breakdown_sheet, column_chart, save_workbook, ticker
from reports.workbook.formulas import Styled, f_count, f_counta, f_countifs, f_sum, f_sumifs
from reports.workbook.sizes import row_height, text_lines
from reports.workbook.styles import COUNT, DATE, HEADER, LONG_TEXT, MONEY, Progress

SHEETS = ("Resumo", "Por regime", "Por local", "Por seção", "Por tipo", "Cobranças", "Pagamentos", "Inadimplentes")

# the charge list: (header, width, number format or None, value of a ReportCharge)
CHARGE_COLUMNS = (
    ("Nº", 12, None, lambda c: c.number),
    ("Titular", 34, None, lambda c: c.holder),
    ("CPF/CNPJ", 19, None, lambda c: c.holder_document),
    ("Permissão", 14, None, lambda c: c.permit),
    ("Regime", 36, None, lambda c: c.regime_label),
    ("Local", 32, None, lambda c: c.site),
    ("Seção", 30, None, lambda c: c.section),
    ("Tipo", 22, None, lambda c: c.kind_label),
    ("Descrição", 48, None, lambda c: c.label),
    ("Competência", 12, None, lambda c: c.period),
    ("Vencimento", 12, DATE, lambda c: c.due_on),
    ("Valor", 14, MONEY, lambda c: c.amount),
    ("Pago", 14, MONEY, lambda c: c.paid),
    ("Em aberto", 14, MONEY, lambda c: c.open),
    ("Vencido", 14, MONEY, lambda c: c.overdue),
    ("Situação", 14, None, lambda c: c.situation),
    ("Fórmula", 40, None, lambda c: c.formula),
    ("Base legal", 50, None, lambda c: c.basis),
)
COL = {name: xl_col_to_name(i) for i, (name, *_rest) in enumerate(CHARGE_COLUMNS)}

PAYMENT_COLUMNS = (
    ("Data", 12, DATE, lambda p: p.paid_on),
    ("Cobrança", 12, None, lambda p: p.charge),
    ("Titular", 34, None, lambda p: p.holder),
    ("Tipo", 22, None, lambda p: p.kind_label),
    ("Referência (boleto)", 20, None, lambda p: p.reference),
    ("Valor", 14, MONEY, lambda p: p.amount),
    ("Registrado por", 18, None, lambda p: p.recorded_by),
)

DELINQUENT_COLUMNS = (
    ("Titular", 34, None, lambda d: d.holder),
    ("CPF/CNPJ", 19, None, lambda d: d.document),
    ("Cobranças vencidas", 12, COUNT, lambda d: d.count),
    ("Valor vencido", 14, MONEY, lambda d: d.amount),
    ("Vencimento mais antigo", 14, DATE, lambda d: d.oldest_due),
    ("Permissões", 20, None, lambda d: d.permits),
    ("Cobranças", 60, None, lambda d: d.charges),
)


# --------------------------------------------------------------------------- the workbook


def write_fee_report_xlsx(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Write ``report`` to ``path`` (.xlsx). ``progress(done, total)`` may raise to stop."""
    path = Path(path)
    book = new_workbook(path, report.title, SHEETS, report.currency)
    total = len(report.charges) + len(report.payments) + len(report.delinquents) + 1
    tick = ticker(progress, total)
    try:
        _write_fee_report(book, report, tick)
    except BaseException:
        abandon(book)
        raise
    return save_workbook(book, path, progress, total)


def _write_fee_report(book: Book, report: FeeReport, tick) -> None:
    # the lists first: the summaries store what their formulas give on them
    charges = Sheet(
        book,
        "Cobranças",
        report,
        CHARGE_COLUMNS,
        heading="Cobranças com vencimento no mês",
        freeze_col="B",
        key_columns=2,
        note="; ".join(
            x
            for x in (
                "Pago: quitado da cobrança, até o valor cobrado; canceladas não somam",
                left_out_note(report.municipality, report.left_out, "cobrança(s)"),
            )
            if x
        ),
        items=report.charges,
    )
    last = charges.rows(report.charges, tick)
    charges.filter(last)
    charges.skip()
    c = charges.area
    live = (c("Situação"), "<>", CANCELLED, None)
    row: list = ["Total (sem as canceladas)"] + [None] * (len(CHARGE_COLUMNS) - 1)
    index = {name: i for i, (name, *_r) in enumerate(CHARGE_COLUMNS)}
    row[index["Valor"]] = f_sumifs(c("Valor"), [live])
    for name in ("Pago", "Em aberto", "Vencido"):
        row[index[name]] = f_sum(c(name))
    charges.total(row)

    payments = Sheet(
        book, "Pagamentos", report, PAYMENT_COLUMNS, heading="Pagamentos recebidos no mês", items=report.payments
    )
    last = payments.rows(report.payments, tick)
    payments.filter(last)
    payments.skip()
    payments.total(["Total recebido", None, None, None, None, f_sum(payments.area("Valor")), None])

    # delinquents, then the revocation candidates (the chief decides)
    late = Sheet(
        book,
        "Inadimplentes",
        report,
        DELINQUENT_COLUMNS,
        heading="Inadimplentes",
        note=f"cobranças com vencimento até {date_br(report.last_day)} vencidas e não pagas",
        items=report.delinquents,
    )
    last = late.rows(report.delinquents, tick)
    late.filter(last)
    late.skip()
    late.total(
        [
            "Total",
            None,
            f_sum(late.area("Cobranças vencidas"), money=False),
            f_sum(late.area("Valor vencido")),
            None,
            None,
            None,
        ]
    )
    late.skip()
    late.append(
        [
            Styled(
                "Candidatos à cassação (lista para a decisão da chefia; o Praça nunca cassa por conta própria)",
                "Praça total",
            )
        ]
    )
    if report.candidates:
        headers = ("Titular", "Permissão", "Meses sem pagamento", "Valor em atraso", "Desde", "Base legal", "Situação")
        widths = late.widths
        late.append(
            [Styled(h, HEADER) for h in headers],
            height=row_height(max(text_lines(h, w, bold=True) for h, w in zip(headers, widths, strict=True))),
        )
        for cand in report.candidates:  # each text wrapped in its column: none runs past the last one
            late.wrapped(
                [
                    Styled(cand.holder, LONG_TEXT),
                    Styled(cand.permit_number, LONG_TEXT),
                    Styled(len(cand.months), "Praça número"),
                    Styled(cand.amount, "Praça moeda"),
                    f"{cand.months[0][5:]}/{cand.months[0][:4]}",
                    Styled(cand.basis, LONG_TEXT),
                    Styled(cand.text, LONG_TEXT),
                ],
                widths,
            )
    else:
        late.append(["Nenhuma permissão com os meses de atraso que o ato prevê."])

    sums = [c(name) for name in ("Valor", "Pago", "Em aberto", "Vencido")]
    by_kind = None
    for title, heading, groups, column in (
        ("Por regime", "Regime", report.by_regime, "Regime"),
        ("Por local", "Local", report.by_site, "Local"),
        ("Por seção", "Seção", report.by_section, "Seção"),
        ("Por tipo", "Tipo de cobrança", report.by_kind, "Tipo"),
    ):
        columns = (
            (heading, 46, None),
            ("Cobranças", 12, COUNT),
            ("Cobrado", 16, MONEY),
            ("Pago", 16, MONEY),
            ("Em aberto", 16, MONEY),
            ("Vencido", 16, MONEY),
        )
        by_kind = breakdown_sheet(
            book,
            report,
            title,
            columns,
            [(g.key,) for g in groups],
            heading=f"{report.title.replace(' — ' + report.label, '')} por {heading.lower()}",
            note="cada valor é uma fórmula sobre a aba Cobranças",
            criteria=[(c(column), 0)],
            sums=sums,
            exclude=(c("Situação"), CANCELLED),
        )
    _summary(book, report, charges, payments, late, by_kind)
    tick()


def _summary(book: Book, report: FeeReport, charges: Sheet, payments: Sheet, late: Sheet, by_kind) -> None:
    """Resumo: the month's figures as formulas over the lists, the legal basis of each kind, the chart."""
    columns = (("Indicador", 46, None), ("Valor", 18, MONEY), ("Como se calcula", 60, None), ("", 44, None))
    sheet = Sheet(
        book,
        "Resumo",
        report,
        columns,
        heading=report.title.replace(" — " + report.label, ""),
        note=left_out_note(report.municipality, report.left_out, "cobrança(s)"),
    )
    c = charges.area
    live = (c("Situação"), "<>", CANCELLED, None)
    money_rows = (
        (
            "Cobrado (vencimento no mês, sem as canceladas)",
            f_sumifs(c("Valor"), [live]),
            "soma de Valor em Cobranças, sem as canceladas",
        ),
        ("Pago", f_sum(c("Pago")), "pago sobre as cobranças do mês, até o valor de cada uma"),
        ("Em aberto", f_sum(c("Em aberto")), "cobrado − pago"),
        ("Vencido", f_sum(c("Vencido")), f"em aberto com vencimento antes de {date_br(report.today)}"),
        ("Recebido no mês", f_sum(payments.area("Valor")), "pagamentos com data no mês, de qualquer cobrança"),
        (
            "Inadimplência acumulada",
            f_sum(late.area("Valor vencido")),
            f"vencido e não pago em cobranças com vencimento até {date_br(report.last_day)}",
        ),
    )
    count_rows = (
        ("Cobranças (sem as canceladas)", f_countifs([(c("Nº"), "nonblank", None, None), live])),
        ("Cobranças vencidas", f_countifs([(c("Situação"), "=", "vencida", None)])),
        ("Cobranças canceladas", f_countifs([(c("Situação"), "=", CANCELLED, None)])),
        ("Pagamentos recebidos no mês", f_count(payments.area("Valor"))),
        ("Inadimplentes", f_counta(late.area("Titular"))),
        ("Candidatos à cassação", len(report.candidates)),
    )
    sheet.figures(money_rows, count_rows)
    if report.collection is not None:  # issue 30 §7: the month's collection, SQL sums of centavos
        sheet.append([Styled("Arrecadação do mês", "Praça total")])
        for figure in report.collection.rows:
            sheet.append([figure.label, Styled(figure.amount, "Praça destaque"), f"{figure.count} — {figure.how}"])
        sheet.skip()
    sheet.append([Styled("Base legal de cada tipo de cobrança (como congelada nas cobranças do mês)", "Praça total")])
    sheet.append([Styled(h, HEADER) for h in ("Tipo", "Cobranças", "Regime", "Base legal")])
    widths = [w for _n, w, *_r in columns]
    for basis in report.bases:
        sheet.wrapped(
            [
                Styled(basis.kind_label, LONG_TEXT),
                Styled(basis.count, "Praça número"),
                Styled(basis.regime_label, LONG_TEXT),
                Styled(basis.text, LONG_TEXT),
            ],
            widths,
        )
    # the chart reads the breakdown by kind (Por tipo), itself formulas over the charge list; below the tables
    sheet.chart_below(
        column_chart(book, "Por tipo", f"Cobrado × pago por tipo — {report.label}", by_kind, series=(2, 3))
    )
