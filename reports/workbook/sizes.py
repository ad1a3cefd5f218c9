"""Sizes: the lines a text takes in a column, row heights, how many pages across a sheet prints."""

from __future__ import annotations

import math
from collections.abc import Sequence

from reports.workbook.styles import FONT_SIZE, LINE_HEIGHT, MIN_PRINT_SCALE

# --------------------------------------------------------------------------- sizes


def text_lines(text: str, width: float, *, bold: bool = False) -> int:
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
