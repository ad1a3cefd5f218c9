"""Sizes: the lines a text takes in a column, row heights, how many pages across a sheet prints."""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Sequence
from decimal import Decimal

from reports.workbook.styles import FONT_SIZE, LINE_HEIGHT, MIN_PRINT_SCALE

# --------------------------------------------------------------------------- sizes


def text_lines(text: str, width: float, *, bold: bool = False) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide (Arial 10; a bold letter is wider)."""
    capacity = max(1, int(width * (0.95 if bold else 1.0)) - 1)  # LibreOffice prints a little wider than it shows
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


# points between 0,4" margins, less 7 %: LibreOffice's columns come out a little wider than Excel's 7 px a character
A4_LANDSCAPE_PRINTABLE = (841.89 - 2 * 0.4 * 72) * 0.93


def print_scale(widths: Sequence[float], key_columns: int) -> tuple[int, int]:
    """The print scale (percent) and the pages across: the largest scale up to 100 % that prints every column on
    one page, never below 80 % (10 pt type prints at 8 pt or more); a list too wide even then prints at 80 % on
    as many pages across as it takes, its key columns repeated on each."""
    total = sum(_column_points(w) for w in widths)
    floor = round(MIN_PRINT_SCALE * 100)
    if total <= A4_LANDSCAPE_PRINTABLE:
        return 100, 1
    room = A4_LANDSCAPE_PRINTABLE / MIN_PRINT_SCALE
    if total <= room:
        return max(floor, math.floor(A4_LANDSCAPE_PRINTABLE / total * 100)), 1
    key = sum(_column_points(w) for w in widths[:key_columns])
    return floor, 1 + math.ceil((total - room) / (room - key))


def columns_on_one_page(widths: Sequence[float]) -> int:
    """How many of the first columns print on one page at the least scale (one at the least)."""
    room, used = A4_LANDSCAPE_PRINTABLE / MIN_PRINT_SCALE, 0.0
    for count, width in enumerate(widths):
        used += _column_points(width)
        if used > room:
            return max(count, 1)
    return len(widths)


def shown_width(value, fmt) -> int:
    """The characters a value takes as the sheet shows it: money as R$ 1.234,56, dates as 31/12/2026."""
    if value is None or value == "":
        return 0
    if fmt is None:
        return max((len(line) for line in str(value).split("\n")), default=0)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return 16 if isinstance(value, _dt.datetime) else 10
    digits = len(f"{abs(int(value)):,}")
    return digits + (6 if "R$" in fmt else 1)  # "R$ ", ",00" and a sign


def fitted_columns(columns, items) -> tuple:
    """The columns with widths from their content: a text column as wide as its longest text, up to its declared
    width (beyond, it wraps), never narrower than its header's longest word; a figure's column as wide as its
    largest figure and its total, so that no number is clipped."""
    items = list(items)
    fitted = []
    for name, width, fmt, *rest in columns:
        getter = rest[-1] if rest else None
        values = [getter(item) for item in items] if getter is not None else []
        word = max((len(w) for w in str(name).split()), default=1) * 1.15 + 2  # bold
        if fmt is None:
            longest = max((shown_width(v, None) for v in values), default=0)
            new = min(width, max(longest * 1.1 + 2, word, 8))
        else:
            numbers = [v for v in values if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)]
            total = sum((abs(Decimal(str(v))) for v in numbers), Decimal(0))
            widest = max([shown_width(v, fmt) for v in values] + [shown_width(total, fmt) if numbers else 0])
            new = max(widest + 3, word, 8)
        fitted.append((name, round(new, 1), fmt, *rest))
    return tuple(fitted)
