"""The monthly fee report's workbook: summary, charges, payments, late payers, by kind, with charts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from models.billing.fee_report import CANCELLED, FeeReport
from models.store.outfile import atomic_writer
from reports.fee_report_xlsx.book import Book, Sheet, new_workbook
from reports.fee_report_xlsx.formulas import (
    Formula,
    Styled,
    f_count,
    f_counta,
    f_countifs,
    f_sum,
    f_sumifs,
    f_sumproduct,
    fold_case,
    is_blank,
    matching_rows,
    meets_condition,
    round2,
)
from reports.fee_report_xlsx.sizes import row_height, text_lines
from reports.fee_report_xlsx.styles import (
    CHARGE_COLUMNS,
    COUNT,
    DELINQUENT_COLUMNS,
    FIRST,
    FONT,
    HEADER,
    HEADER_ROW,
    LONG_TEXT,
    MONEY,
    PAYMENT_COLUMNS,
    PROGRESS_STEP,
    SHEETS,
    UNSAFE_CRITERIA,
    Progress,
)
from reports.templating import date_br

# --------------------------------------------------------------------------- the workbook


def ticker(progress: Progress | None, total: int, step: int = PROGRESS_STEP) -> Callable[[], None]:
    """``progress(0, total)`` now, and a function to call per row written: it reports every ``step`` rows."""
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None and done % step == 0:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    return tick


def write_fee_report_xlsx(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Write ``report`` to ``path`` (.xlsx). ``progress(done, total)`` may raise to stop."""
    path = Path(path)
    book = new_workbook(path, report.title, SHEETS)
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
        note="Pago: quitado da cobrança, até o valor cobrado; canceladas não somam",
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

    payments = Sheet(book, "Pagamentos", report, PAYMENT_COLUMNS, heading="Pagamentos recebidos no mês")
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
        widths = [w for _n, w, *_r in DELINQUENT_COLUMNS]
        late.append(
            [Styled(h, HEADER) for h in headers],
            height=row_height(max(text_lines(h, w, bold=True) for h, w in zip(headers, widths, strict=True))),
        )
        for cand in report.candidates:
            late.append(
                [
                    cand.holder,
                    cand.permit_number,
                    Styled(len(cand.months), "Praça número"),
                    Styled(cand.amount, "Praça moeda"),
                    f"{cand.months[0][5:]}/{cand.months[0][:4]}",
                    cand.basis,
                    cand.text,
                ]
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


def abandon(book: Book) -> None:
    book.wb.fileclosed = True  # nothing written: the target is never touched


@atomic_writer("path", kind="xlsx")
def save_workbook(book: Book, path: Path, progress: Progress | None, total: int) -> Path:
    book.wb.filename = str(path)  # the temporary file beside the target (models/store/outfile.py), renamed once checked
    book.wb.close()
    if progress is not None:
        progress(total, total)
    return path


def _summary(book: Book, report: FeeReport, charges: Sheet, payments: Sheet, late: Sheet, by_kind) -> None:
    """Resumo: the month's figures as formulas over the lists, the legal basis of each kind, the chart."""
    columns = (("Indicador", 46, None), ("Valor", 18, MONEY), ("Como se calcula", 60, None), ("", 40, None))
    sheet = Sheet(book, "Resumo", report, columns, heading=report.title.replace(" — " + report.label, ""))
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
    # the chart reads the breakdown by kind (Por tipo), itself formulas over the charge list
    sheet.ws.insert_chart(
        "F3", column_chart(book, "Por tipo", f"Cobrado × pago por tipo — {report.label}", by_kind, series=(2, 3))
    )


def column_chart(
    book: Book,
    sheet: str,
    title: str,
    breakdown: Breakdown,
    *,
    series: tuple[int, int] = (2, 3),
    y_title: str = "R$",
    number_format: str = MONEY,
):
    """A native clustered column chart of two money columns of a breakdown sheet (``series``: their 0-based
    indexes among the money columns' sheet columns) over its keys, with the values cached for readers that
    do not recalculate."""
    chart = book.wb.add_chart({"type": "column"})
    first, last = FIRST - 1, max(breakdown.last, FIRST) - 1
    keys = [r[0] for r in breakdown.rows] or [""]
    colours = ("#1F4F45", "#7FB59A")
    for colour, col in zip(colours, series, strict=True):
        values = [float(v) for v in breakdown.column(col)] or [0.0]
        chart.add_series(
            {
                "name": [sheet, HEADER_ROW - 1, col],
                "name_data": [breakdown.headers[col]],
                "categories": [sheet, first, 0, last, 0],
                "categories_data": keys,
                "values": [sheet, first, col, last, col],
                "values_data": values,
                "fill": {"color": colour},
                "border": {"none": True},
            }
        )
    font = {"name": FONT, "size": 9}
    chart.set_title({"name": title, "name_font": {"name": FONT, "size": 11, "bold": True}})
    chart.set_y_axis(
        {
            "name": y_title,
            "num_format": number_format,
            "num_font": font,
            "name_font": font,
            "major_gridlines": {"visible": False},
        }
    )
    chart.set_x_axis({"num_font": font})
    chart.set_legend({"position": "bottom", "font": font})
    chart.set_size({"width": 640, "height": 320})
    return chart


def criteria_safe(key: str, keys: list[str]) -> bool:
    """SUMIFS matches wildcards, operators and case-insensitively: only plain, distinct keys go through it."""
    if UNSAFE_CRITERIA & set(key) or key[:1] in "<>=":
        return False
    return sum(1 for k in keys if k.casefold() == key.casefold()) == 1


def group_formulas(row: int, criteria, sums, exclude, safe: bool, rows=None) -> tuple[Formula, list[Formula]]:
    """The count and the sums of the list's lines whose columns equal this row's key cells.

    ``criteria``: (area on the list, column letter of the key cell on this sheet, the key); ``exclude``: (area,
    value) of lines that count in nothing (a cancelled charge, a corrected record) or None. ``safe``: the keys
    can go through COUNTIFS/SUMIFS; otherwise an exact SUMPRODUCT comparison (no wildcard, no operator)."""
    conditions: list[tuple[Any, str, Any, str | None]] = [
        (area, "=", key, f"${letter}{row}") for area, letter, key in criteria
    ]
    if exclude is not None:
        conditions.append((exclude[0], "<>", exclude[1], None))
    rows = matching_rows(conditions) if rows is None else rows
    if safe:
        return f_countifs(conditions, rows), [f_sumifs(area, conditions, rows) for area in sums]
    return f_sumproduct(None, conditions, rows), [f_sumproduct(area, conditions, rows) for area in sums]


def _index(criteria, exclude) -> dict[tuple, list[int]]:
    """The list's lines by their keys (compared as COUNTIFS compares them: text without case), once for a whole
    breakdown; lines with a blank key or excluded left out."""
    areas = [area for area, _index in criteria]
    out: dict[tuple, list[int]] = {}
    for i in range(len(areas[0].values)):
        if exclude is not None and not meets_condition(exclude[0].values[i], "<>", exclude[1]):
            continue
        keys = tuple(area.values[i] for area in areas)
        if any(is_blank(k) for k in keys):
            continue
        out.setdefault(tuple(fold_case(k) for k in keys), []).append(i)
    return out


@dataclass
class Breakdown:
    headers: list[str]
    rows: list[list]  # per line: its lead values, then the stored results (count, sums)
    last: int

    def column(self, index: int) -> list:
        return [r[index] for r in self.rows]


def breakdown_sheet(
    book: Book, report, title: str, columns, rows, *, heading: str, note: str, criteria, sums=(), exclude=None
) -> Breakdown:
    """A breakdown as live formulas over a list sheet: per line its lead cells (``rows``: the key and any text
    beside it), then the count and the money sums of the list's matching lines, then a total row.

    ``columns``: the lead columns, the count column, one money column per area of ``sums``;
    ``criteria``: (area on the list, index of the lead cell it must equal)."""
    sheet = Sheet(book, title, report, columns, heading=heading, note=note)
    lead = len(columns) - 1 - len(sums)
    combos = [tuple(str(r[index]).casefold() for _area, index in criteria) for r in rows]
    lines = _index(criteria, exclude)
    results = []
    row = HEADER_ROW
    for values, combo in zip(rows, combos, strict=True):
        row += 1
        # each key plain, and the line's keys together distinct (SUMIFS would merge lines differing only in case)
        safe = combos.count(combo) == 1 and all(
            criteria_safe(values[index], [values[index]]) for _area, index in criteria
        )
        keyed = [(area, xl_col_to_name(index), values[index]) for area, index in criteria]
        matching = lines.get(tuple(fold_case(values[index]) for _area, index in criteria), [])
        count, money = group_formulas(row, keyed, sums, exclude, safe, matching)
        sheet.append([*values, Styled(count, "Praça número"), *(Styled(f, "Praça moeda") for f in money)])
        results.append([*values, count.value, *(f.value for f in money)])
    last = row
    sheet.filter(last)
    sheet.skip()
    end = max(last, FIRST)
    totals = []
    for i in range(lead, len(columns)):
        letter = xl_col_to_name(i)
        stored = sum((r[i] for r in results), Decimal(0))
        totals.append(
            Formula(f"=SUM({letter}{FIRST}:{letter}{end})", int(stored))
            if i == lead
            else Formula(f"=ROUND(SUM({letter}{FIRST}:{letter}{end}),2)", round2(stored))
        )
    sheet.total(["Total", *([None] * (lead - 1)), *totals])
    return Breakdown([name for name, *_r in columns], results, last)
