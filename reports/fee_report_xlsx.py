"""The monthly fee report as an Excel workbook that stays live and carries its values.

One sheet per view — Resumo, Por regime, Por local, Por seção, Por tipo,
Cobranças, Pagamentos, Inadimplentes. The rows of *Cobranças* and *Pagamentos*
are values; every total and subtotal is a formula over them (``SUMIFS`` /
``COUNTIFS`` on the charge list, ``SUM`` for the totals), so a corrected amount
on the list changes the summary — and every formula cell also stores the
result Praça computed from the same rows, so a reader that does not
recalculate (mail and phone previews, Power Query, pandas) shows the figures,
not blanks. Excel and LibreOffice still recalculate on opening.

Written with XlsxWriter, not openpyxl (which still reads workbooks: imports,
tests): openpyxl cannot store a formula's result beside the formula, and
XlsxWriter can (``write_formula(..., value=)``), names the font in every
format (LibreOffice then never falls back to a serif face), takes explicit row
heights for the wrapped headers and streams rows (``constant_memory``).

Money is ``[$-416]"R$" #,##0.00`` — the format carries its locale (pt-BR), so
LibreOffice shows ``R$ 3.378,36`` under any locale (tested through its CSV "as
shown"); dates are real dates ``DD/MM/YYYY``.
Every text is written as a string: a name typed as ``=HYPERLINK(…)`` or
``+55 11…`` stays text, never a formula. Each sheet prints on A4 landscape
with the header row repeated and "Página N de M" in the footer, fitted to as
few pages across as keep the type at 8 pt or more (a list too wide for one
page repeats its key columns on the next one across, printed over then down).

The sanctions report (reports/sanctions_report_xlsx.py) is built from the same
pieces: :func:`new_workbook`, :func:`ticker`, :class:`Sheet`, :class:`Area`,
:func:`breakdown_sheet` (with :func:`group_formulas` and :func:`criteria_safe`),
the formula helpers (:func:`f_sum`, :func:`f_sumifs`, :func:`f_countifs`, …),
:func:`column_chart` and :func:`save_workbook`.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import xlsxwriter
from xlsxwriter.utility import xl_col_to_name

from models.billing.fee_report import CANCELLED, FeeReport
from models.store.outfile import atomic_writer
from reports.templating import date_br

# Arial in every format: Excel and LibreOffice on Windows have it; on Linux LibreOffice takes its metric twin,
# Liberation Sans, so the widths and heights computed here hold. 10 pt, never scaled below 80 % in print.
FONT, FONT_SIZE = "Arial", 10
LINE_HEIGHT = 12.75  # points per line of 10 pt Arial, as Excel spaces it
MIN_PRINT_SCALE = 0.8  # 10 pt × 0,8 = 8 pt on paper

# pt-BR by the format itself: the [$-416] prefix makes LibreOffice read it as a Portuguese (Brazil) format, so it
# shows R$ 3.378,36 under any locale (with [$R$-416] the locale names only the symbol: R$ 3,378.36 in en-US)
MONEY = '[$-416]"R$" #,##0.00'

DATE = "DD/MM/YYYY"
DATETIME = "DD/MM/YYYY HH:MM"
COUNT = "0"
GREEN = "#1F4F45"

TITLE, SUBTITLE, HEADER, LONG_TEXT = "Praça título", "Praça subtítulo", "Praça cabeçalho", "Praça texto longo"
STYLES = {
    TITLE: {"bold": True, "font_size": 14, "font_color": GREEN},
    SUBTITLE: {"italic": True, "font_size": 9, "font_color": "#555555"},
    HEADER: {
        "bold": True,
        "font_color": "#FFFFFF",
        "bg_color": GREEN,
        "text_wrap": True,
        "valign": "top",
        "border": 1,
        "border_color": "#FFFFFF",
    },
    LONG_TEXT: {"text_wrap": True, "valign": "top"},
    "Praça texto": {},
    "Praça moeda": {"num_format": MONEY},
    "Praça data": {"num_format": DATE},
    "Praça data e hora": {"num_format": DATETIME},
    "Praça número": {"num_format": COUNT, "valign": "top"},  # beside wrapped text: on its first line
    "Praça destaque": {"bold": True, "num_format": MONEY},
    "Praça total": {"bold": True, "bg_color": "#E9EFE9"},
    "Praça total moeda": {"bold": True, "bg_color": "#E9EFE9", "num_format": MONEY},
    "Praça total número": {"bold": True, "bg_color": "#E9EFE9", "num_format": COUNT},
}
VALUE_STYLE = {MONEY: "Praça moeda", DATE: "Praça data", DATETIME: "Praça data e hora", COUNT: "Praça número"}
TOTAL_STYLE = {MONEY: "Praça total moeda", COUNT: "Praça total número", None: "Praça total"}

HEADER_ROW = 3  # rows 1–2: title and subtitle; row 3: column headers; data from row 4 (1-based, as Excel shows)
FIRST = HEADER_ROW + 1

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

_UNSAFE_CRITERIA = set("*?~")
_STEP = 500
_CENT = Decimal("0.01")

Progress = Callable[[int, int], None]


# --------------------------------------------------------------------------- formulas with their values


@dataclass(frozen=True)
class Formula:
    """A formula and the result it has on the rows written: both go into the cell."""

    text: str
    value: Decimal | int


@dataclass(frozen=True)
class Styled:
    value: object
    style: str


@dataclass(frozen=True)
class Area:
    """A column of a list sheet, from its first data row to its last: its reference and the values written."""

    sheet: str
    column: int  # 0-based
    values: Sequence

    @property
    def letter(self) -> str:
        return xl_col_to_name(self.column)

    def __str__(self) -> str:
        last = max(HEADER_ROW + len(self.values), FIRST)
        return f"{quote_sheetname(self.sheet)}!${self.letter}${FIRST}:${self.letter}${last}"


def quote_sheetname(name: str) -> str:
    """Always quoted: a name with accents or spaces reads the same in every spreadsheet."""
    return "'" + name.replace("'", "''") + "'"


def round2(value) -> Decimal:
    return Decimal(value).quantize(_CENT, rounding=ROUND_HALF_UP)


def _numbers(values) -> list:
    return [v for v in values if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)]


def _fold(value):
    return value.casefold() if isinstance(value, str) else value


def _blank(value) -> bool:
    return value is None or value == ""


# a condition: (area, op, operand, reference) — op "=" / "<>" / "nonblank" / "prefix"; reference: the cell
# the formula compares with (``$A4``) instead of a quoted literal
def _meets(value, op: str, operand) -> bool:
    """COUNTIFS/SUMIFS criteria as Excel and LibreOffice read them: text compared without case."""
    if op == "nonblank":
        return not _blank(value)
    if op == "prefix":
        return isinstance(value, str) and value.casefold().startswith(operand.casefold())
    equal = not _blank(value) and _fold(value) == _fold(operand)
    return equal if op == "=" else not equal


def _criterion(op: str, operand, reference: str | None) -> str:
    if reference is not None:
        return reference
    text = "" if operand is None else str(operand).replace('"', '""')
    return {"=": f'"{text}"', "<>": f'"<>{text}"', "nonblank": '"<>"', "prefix": f'"{text}*"'}[op]


def _matching(conditions) -> list[int]:
    """The indexes of the list's lines that meet every condition."""
    n = len(conditions[0][0].values)
    return [i for i in range(n) if all(_meets(area.values[i], op, operand) for area, op, operand, _r in conditions)]


def _criteria(conditions) -> str:
    return ",".join(f"{a},{_criterion(op, x, ref)}" for a, op, x, ref in conditions)


def _sum_at(area: Area, rows) -> Decimal:
    values = area.values
    return sum(_numbers(values[i] for i in rows), Decimal(0))


def f_sum(area: Area, *, money: bool = True) -> Formula:
    total = sum(_numbers(area.values), Decimal(0))
    if money:
        return Formula(f"=ROUND(SUM({area}),2)", round2(total))
    return Formula(f"=SUM({area})", int(total))


def f_sumifs(area: Area, conditions, rows=None) -> Formula:
    """``rows``: the matching lines when the caller already knows them (a breakdown indexes its list once)."""
    rows = _matching(conditions) if rows is None else rows
    return Formula(f"=ROUND(SUMIFS({area},{_criteria(conditions)}),2)", round2(_sum_at(area, rows)))


def f_countifs(conditions, rows=None) -> Formula:
    rows = _matching(conditions) if rows is None else rows
    return Formula(f"=COUNTIFS({_criteria(conditions)})", len(rows))


def f_count(area: Area) -> Formula:
    return Formula(f"=COUNT({area})", len(_numbers(area.values)))


def f_counta(area: Area) -> Formula:
    return Formula(f"=COUNTA({area})", sum(1 for v in area.values if not _blank(v)))


def f_sumproduct(area: Area | None, conditions, rows=None) -> Formula:
    """An exact comparison (no wildcard, no operator read in a key) where COUNTIFS/SUMIFS would misread."""
    rows = _matching(conditions) if rows is None else rows
    parts = []
    for a, op, x, ref in conditions:
        operand = ref if ref is not None else '"' + str(x).replace('"', '""') + '"'
        parts.append(f"({a}{'=' if op == '=' else '<>'}{operand})")
    match = "*".join(parts)
    if area is None:
        return Formula(f"=SUMPRODUCT({match}*1)", len(rows))
    return Formula(f"=ROUND(SUMPRODUCT({match}*{area}),2)", round2(_sum_at(area, rows)))


# --------------------------------------------------------------------------- sizes


def _lines(text: str, width: float, *, bold: bool = False) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide (Arial 10; a bold letter is wider)."""
    capacity = max(1, int(width * (0.95 if bold else 1.1)) - 1)
    count = 0
    for paragraph in str(text).split("\n"):
        line = 0
        count += 1
        for word in paragraph.split():
            if line and line + 1 + len(word) > capacity:
                count += 1
                line = len(word)
            else:
                line += (1 if line else 0) + len(word)
            while line > capacity:  # a word longer than the column breaks
                count += 1
                line -= capacity
    return max(count, 1)


def row_height(lines: int, size: float = FONT_SIZE) -> float:
    return round(lines * LINE_HEIGHT * size / FONT_SIZE + 3, 2)


def _column_points(width: float) -> float:
    return (width * 7 + 5) * 0.75  # Excel: 7 px per character of Arial 10 plus padding; 0,75 pt per px


A4_LANDSCAPE_PRINTABLE = 841.89 - 2 * 0.4 * 72  # points between 0,4" margins


def pages_across(widths: Sequence[float], key_columns: int) -> int:
    """The fewest pages across that print these columns at 80 % or more, the key columns repeated on each."""
    total = sum(_column_points(w) for w in widths)
    room = A4_LANDSCAPE_PRINTABLE / MIN_PRINT_SCALE
    if total <= room:
        return 1
    key = sum(_column_points(w) for w in widths[:key_columns])
    return 1 + math.ceil((total - room) / (room - key))


# --------------------------------------------------------------------------- the workbook and its sheets


class Book:
    """An XlsxWriter workbook with the report's formats (each names its font) and its sheets made in tab order."""

    def __init__(self, path: Path, title: str, sheets: Sequence[str]):
        self.wb = xlsxwriter.Workbook(
            str(path),
            {
                "constant_memory": True,  # rows stream to disk: a 20.000-charge month in little memory
                "strings_to_formulas": False,
                "strings_to_numbers": False,
                "strings_to_urls": False,
                "remove_timezone": True,
                "default_format_properties": {"font_name": FONT, "font_size": FONT_SIZE},
            },
        )
        self.wb.set_properties({"title": title, "author": "Praça", "comments": "Gerado pelo Praça"})
        self.formats = {
            name: self.wb.add_format({"font_name": FONT, "font_size": FONT_SIZE, **props})
            for name, props in STYLES.items()
        }
        self.sheets = {name: self.wb.add_worksheet(name) for name in sheets}


def new_workbook(path: str | Path, title: str, sheets: Sequence[str]) -> Book:
    return Book(Path(path), title, sheets)


class Sheet:
    """A sheet with the report's look: title rows, a header row tall enough for its wrapped names, A4 landscape
    print with the header repeated and page numbers; the values written to each column are kept (:meth:`area`)
    so the summaries' formulas store their results.

    ``report`` is any report with ``label``, ``agency``, ``municipality``, ``today`` and ``generated_at`` (the
    monthly fee report, the sanctions report)."""

    def __init__(
        self,
        book: Book,
        title: str,
        report,
        columns,
        *,
        heading: str,
        freeze_col: str = "A",
        note: str = "",
        key_columns: int = 1,
    ):
        self.book, self.title, self.columns = book, title, columns
        self.ws = ws = book.sheets[title]
        self.fmt = book.formats
        widths = [width for _name, width, *_rest in columns]
        for index, width in enumerate(widths):
            ws.set_column(index, index, width)
        freeze = ord(freeze_col.upper()) - ord("A")
        ws.freeze_panes(HEADER_ROW, freeze)
        ws.set_landscape()
        ws.set_paper(9)  # A4
        ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.6)
        ws.repeat_rows(HEADER_ROW - 1)
        place = " — ".join(x for x in (report.agency, report.municipality) if x)
        caption = f"{heading} — {report.label}"[:120].replace("&", "&&")
        ws.set_footer(f'&L&"{FONT}"&8{caption}&R&"{FONT}"&8Página &P de &N')
        across = pages_across(widths, key_columns)
        if across > 1:  # too wide for one page at 8 pt: its key columns again on each page across
            ws.repeat_columns(0, key_columns - 1)
            ws.print_across()
        ws.fit_to_pages(across, 0)  # the width only: as many pages down as the list takes
        self.row = 0  # the next row, 0-based
        ws.set_row(0, row_height(1, 14))
        self.append([Styled(f"{heading} — {report.label}", TITLE)])
        sub = f"{place} · situação em {date_br(report.today)} · gerado em {date_br(report.generated_at)}"
        self.append([Styled(f"{sub}{' · ' + note if note else ''}", SUBTITLE)])
        lines = max(_lines(name, width, bold=True) for name, width, *_r in columns)
        self.append([Styled(name, HEADER) for name, *_rest in columns], height=row_height(lines))
        self.data: dict[str, list] = {name: [] for name, *_rest in columns}

    # writing

    def put(self, row: int, col: int, value, style: str | None = None) -> None:
        ws, fmt = self.ws, (self.fmt[style] if style else None)
        if isinstance(value, Styled):
            value, fmt = value.value, self.fmt[value.style]
        if isinstance(value, Formula):
            result = value.value
            ws.write_formula(row, col, value.text, fmt, float(result) if isinstance(result, Decimal) else result)
        elif isinstance(value, str):
            ws.write_string(row, col, value, fmt)  # never read as a formula, a number or a link
        elif isinstance(value, bool):
            ws.write_boolean(row, col, value, fmt)
        elif isinstance(value, (int, float, Decimal)):
            ws.write_number(row, col, float(value), fmt)
        elif isinstance(value, (_dt.date, _dt.datetime)):
            ws.write_datetime(row, col, value, fmt)
        elif value is None:
            if fmt is not None:
                ws.write_blank(row, col, None, fmt)
        else:
            ws.write_string(row, col, str(value), fmt)

    def append(self, values, *, height: float | None = None) -> int:
        """Write a row after the last; returns its 1-based number."""
        if height is not None:
            self.ws.set_row(self.row, height)
        for col, value in enumerate(values):
            self.put(self.row, col, value)
        self.row += 1
        return self.row

    def wrapped(self, values, widths: Sequence[float]) -> int:
        """A row of wrapped text: its height from the longest cell."""
        lines = max(
            (
                _lines(v.value if isinstance(v, Styled) else v, w)
                for v, w in zip(values, widths, strict=False)  # the row's cells: as many as it has, of the widths
                if isinstance(v.value if isinstance(v, Styled) else v, str)
            ),
            default=1,
        )
        return self.append(values, height=row_height(lines) if lines > 1 else None)

    def rows(self, items, progress=None) -> int:
        """One row per item; returns the last data row (``HEADER_ROW`` when there is none)."""
        getters = [getter for *_rest, getter in self.columns]
        styles = [self.fmt[VALUE_STYLE[fmt]] if fmt else None for _n, _w, fmt, *_r in self.columns]
        stores = [self.data[name] for name, *_rest in self.columns]
        write_string, write_number, write_datetime = self.ws.write_string, self.ws.write_number, self.ws.write_datetime
        for item in items:
            row = self.row
            for col, (getter, fmt, store) in enumerate(zip(getters, styles, stores, strict=True)):
                value = getter(item)
                store.append(value)
                if value is None or value == "":
                    continue
                if fmt is None:
                    write_string(row, col, str(value))  # text is text: never a formula
                elif isinstance(value, (_dt.date, _dt.datetime)):
                    write_datetime(row, col, value, fmt)
                else:
                    write_number(row, col, float(value), fmt)
            self.row += 1
            if progress is not None:
                progress()
        return self.row

    def area(self, name: str) -> Area:
        index = next(i for i, (header, *_r) in enumerate(self.columns) if header == name)
        return Area(self.title, index, self.data[name])

    def skip(self) -> None:
        self.row += 1

    def figures(self, money_rows, count_rows) -> None:
        """A summary's lines: (label, formula, how it is computed) in money, then (label, formula or number)."""
        for label, formula, how in money_rows:
            self.append([label, Styled(formula, "Praça destaque"), how])
        for label, formula in count_rows:
            self.append([label, Styled(formula, "Praça número")])
        self.skip()

    def filter(self, last_row: int) -> None:
        self.ws.autofilter(HEADER_ROW - 1, 0, max(last_row, FIRST) - 1, len(self.columns) - 1)

    def total(self, values) -> None:
        """A total row: bold on a light fill; formulas and numbers keep the column's format."""
        cells = []
        for index, value in enumerate(values):
            fmt = self.columns[index][2] if index < len(self.columns) and value not in (None, "") else None
            cells.append(Styled(value, TOTAL_STYLE.get(fmt, TOTAL_STYLE[None])))
        self.append(cells)


def sheet_range(sheet: str, column: str, last: int) -> str:
    return f"{quote_sheetname(sheet)}!${column}${FIRST}:${column}${max(last, FIRST)}"


# --------------------------------------------------------------------------- the workbook


def ticker(progress: Progress | None, total: int, step: int = _STEP) -> Callable[[], None]:
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
            height=row_height(max(_lines(h, w, bold=True) for h, w in zip(headers, widths, strict=True))),
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
    if _UNSAFE_CRITERIA & set(key) or key[:1] in "<>=":
        return False
    return sum(1 for k in keys if k.casefold() == key.casefold()) == 1


_criteria_safe = criteria_safe  # the name the fee report's tests know


def group_formulas(row: int, criteria, sums, exclude, safe: bool, rows=None) -> tuple[Formula, list[Formula]]:
    """The count and the sums of the list's lines whose columns equal this row's key cells.

    ``criteria``: (area on the list, column letter of the key cell on this sheet, the key); ``exclude``: (area,
    value) of lines that count in nothing (a cancelled charge, a corrected record) or None. ``safe``: the keys
    can go through COUNTIFS/SUMIFS; otherwise an exact SUMPRODUCT comparison (no wildcard, no operator)."""
    conditions = [(area, "=", key, f"${letter}{row}") for area, letter, key in criteria]
    if exclude is not None:
        conditions.append((exclude[0], "<>", exclude[1], None))
    rows = _matching(conditions) if rows is None else rows
    if safe:
        return f_countifs(conditions, rows), [f_sumifs(area, conditions, rows) for area in sums]
    return f_sumproduct(None, conditions, rows), [f_sumproduct(area, conditions, rows) for area in sums]


def _index(criteria, exclude) -> dict[tuple, list[int]]:
    """The list's lines by their keys (compared as COUNTIFS compares them: text without case), once for a whole
    breakdown; lines with a blank key or excluded left out."""
    areas = [area for area, _index in criteria]
    out: dict[tuple, list[int]] = {}
    for i in range(len(areas[0].values)):
        if exclude is not None and not _meets(exclude[0].values[i], "<>", exclude[1]):
            continue
        keys = tuple(area.values[i] for area in areas)
        if any(_blank(k) for k in keys):
            continue
        out.setdefault(tuple(_fold(k) for k in keys), []).append(i)
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
        matching = lines.get(tuple(_fold(values[index]) for _area, index in criteria), [])
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
