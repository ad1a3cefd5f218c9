"""Formulas written with the value they compute, so that a reader that does not recalculate shows the figure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from xlsxwriter.utility import xl_col_to_name

from reports.workbook.styles import CENT_PLACES, FIRST, HEADER_ROW

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
    return Decimal(value).quantize(CENT_PLACES, rounding=ROUND_HALF_UP)


def _numbers(values) -> list:
    return [v for v in values if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)]


def fold_case(value):
    return value.casefold() if isinstance(value, str) else value


def is_blank(value) -> bool:
    return value is None or value == ""


# a condition: (area, op, operand, reference) — op "=" / "<>" / "nonblank" / "prefix"; reference: the cell
# the formula compares with (``$A4``) instead of a quoted literal
def meets_condition(value, op: str, operand) -> bool:
    """COUNTIFS/SUMIFS criteria as Excel and LibreOffice read them: text compared without case."""
    if op == "nonblank":
        return not is_blank(value)
    if op == "prefix":
        return isinstance(value, str) and value.casefold().startswith(operand.casefold())
    equal = not is_blank(value) and fold_case(value) == fold_case(operand)
    return equal if op == "=" else not equal


def _criterion(op: str, operand, reference: str | None) -> str:
    if reference is not None:
        return reference
    text = "" if operand is None else str(operand).replace('"', '""')
    return {"=": f'"{text}"', "<>": f'"<>{text}"', "nonblank": '"<>"', "prefix": f'"{text}*"'}[op]


def matching_rows(conditions) -> list[int]:
    """The indexes of the list's lines that meet every condition."""
    n = len(conditions[0][0].values)
    return [
        i for i in range(n) if all(meets_condition(area.values[i], op, operand) for area, op, operand, _r in conditions)
    ]


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
    rows = matching_rows(conditions) if rows is None else rows
    return Formula(f"=ROUND(SUMIFS({area},{_criteria(conditions)}),2)", round2(_sum_at(area, rows)))


def f_countifs(conditions, rows=None) -> Formula:
    rows = matching_rows(conditions) if rows is None else rows
    return Formula(f"=COUNTIFS({_criteria(conditions)})", len(rows))


def f_count(area: Area) -> Formula:
    return Formula(f"=COUNT({area})", len(_numbers(area.values)))


def f_counta(area: Area) -> Formula:
    return Formula(f"=COUNTA({area})", sum(1 for v in area.values if not is_blank(v)))


def f_sumproduct(area: Area | None, conditions, rows=None) -> Formula:
    """An exact comparison (no wildcard, no operator read in a key) where COUNTIFS/SUMIFS would misread."""
    rows = matching_rows(conditions) if rows is None else rows
    parts = []
    for a, op, x, ref in conditions:
        operand = ref if ref is not None else '"' + str(x).replace('"', '""') + '"'
        parts.append(f"({a}{'=' if op == '=' else '<>'}{operand})")
    match = "*".join(parts)
    if area is None:
        return Formula(f"=SUMPRODUCT({match}*1)", len(rows))
    return Formula(f"=ROUND(SUMPRODUCT({match}*{area}),2)", round2(_sum_at(area, rows)))
