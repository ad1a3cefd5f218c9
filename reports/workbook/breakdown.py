"""The pieces both report workbooks are built from, beyond a sheet: the progress ticker, saving or abandoning a
workbook, a breakdown sheet of live formulas over a list (:func:`breakdown_sheet`, with :func:`group_formulas` and
:func:`criteria_safe`) and its native column chart (:func:`column_chart`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from models.store.outfile import atomic_writer
from reports.workbook.book import Book, Sheet
from reports.workbook.formulas import (
    Formula,
    Styled,
    f_countifs,
    f_sumifs,
    f_sumproduct,
    fold_case,
    is_blank,
    matching_rows,
    meets_condition,
    round2,
)
from reports.workbook.styles import FIRST, FONT, HEADER_ROW, LONG_TEXT, MONEY, PROGRESS_STEP, UNSAFE_CRITERIA, Progress


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


def abandon(book: Book) -> None:
    book.wb.fileclosed = True  # nothing written: the target is never touched


@atomic_writer("path", kind="xlsx")
def save_workbook(book: Book, path: Path, progress: Progress | None, total: int) -> Path:
    book.wb.filename = str(path)  # the temporary file beside the target (models/store/outfile.py), renamed once checked
    book.close()
    if progress is not None:
        progress(total, total)
    return path


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
    font = {"name": FONT, "size": 10}  # printed at 80 % or more: 8 pt at the least
    chart.set_title({"name": title, "name_font": {"name": FONT, "size": 12, "bold": True}})
    chart.set_y_axis(
        {
            # no axis title: turned on its side, it printed at 3 pt in LibreOffice; the figures say R$
            "num_format": number_format,
            "num_font": font,
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
        lead_cells = [Styled(v, LONG_TEXT) if isinstance(v, str) else v for v in values]  # a long name wraps, whole
        sheet.wrapped(
            [*lead_cells, Styled(count, "Praça número"), *(Styled(f, "Praça moeda") for f in money)], sheet.widths
        )
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
