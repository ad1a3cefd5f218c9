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

The package: :mod:`styles` (fonts, formats, the lists' columns), :mod:`formulas` (each formula with its
value), :mod:`sizes` (row heights, pages across), :mod:`book` (the workbook and its sheets, shared with the
sanctions report) and :mod:`fee_report` (the month's workbook).
"""

from __future__ import annotations

from reports.fee_report_xlsx.book import (
    Book,
    Sheet,
    new_workbook,
    sheet_range,
)
from reports.fee_report_xlsx.fee_report import (
    Breakdown,
    abandon,
    breakdown_sheet,
    column_chart,
    criteria_safe,
    group_formulas,
    save_workbook,
    ticker,
    write_fee_report_xlsx,
)
from reports.fee_report_xlsx.formulas import (
    Area,
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
    quote_sheetname,
    round2,
)
from reports.fee_report_xlsx.sizes import (
    A4_LANDSCAPE_PRINTABLE,
    pages_across,
    row_height,
    text_lines,
)
from reports.fee_report_xlsx.styles import (
    CENT_PLACES,
    CHARGE_COLUMNS,
    COL,
    COUNT,
    DATE,
    DATETIME,
    DELINQUENT_COLUMNS,
    FIRST,
    FONT,
    FONT_SIZE,
    GREEN,
    HEADER,
    HEADER_ROW,
    LINE_HEIGHT,
    LONG_TEXT,
    MIN_PRINT_SCALE,
    MONEY,
    PAYMENT_COLUMNS,
    PROGRESS_STEP,
    SHEETS,
    STYLES,
    SUBTITLE,
    TITLE,
    TOTAL_STYLE,
    UNSAFE_CRITERIA,
    VALUE_STYLE,
    Progress,
)

__all__ = [
    "A4_LANDSCAPE_PRINTABLE",
    "CENT_PLACES",
    "CHARGE_COLUMNS",
    "COL",
    "COUNT",
    "DATE",
    "DATETIME",
    "DELINQUENT_COLUMNS",
    "FIRST",
    "FONT",
    "FONT_SIZE",
    "GREEN",
    "HEADER",
    "HEADER_ROW",
    "LINE_HEIGHT",
    "LONG_TEXT",
    "MIN_PRINT_SCALE",
    "MONEY",
    "PAYMENT_COLUMNS",
    "PROGRESS_STEP",
    "SHEETS",
    "STYLES",
    "SUBTITLE",
    "TITLE",
    "TOTAL_STYLE",
    "UNSAFE_CRITERIA",
    "VALUE_STYLE",
    "Area",
    "Book",
    "Breakdown",
    "Formula",
    "Progress",
    "Sheet",
    "Styled",
    "abandon",
    "breakdown_sheet",
    "column_chart",
    "criteria_safe",
    "f_count",
    "f_counta",
    "f_countifs",
    "f_sum",
    "f_sumifs",
    "f_sumproduct",
    "fold_case",
    "group_formulas",
    "is_blank",
    "matching_rows",
    "meets_condition",
    "new_workbook",
    "pages_across",
    "quote_sheetname",
    "round2",
    "row_height",
    "save_workbook",
    "sheet_range",
    "text_lines",
    "ticker",
    "write_fee_report_xlsx",
]
