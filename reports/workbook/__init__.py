"""The workbook toolkit: Excel workbooks that stay live and carry their values (the fee and sanctions reports).

A report's lists are values; every total and subtotal is a formula over them
(``SUMIFS`` / ``COUNTIFS``, ``SUM``), so a corrected amount on a list changes
the summary — and every formula cell also stores the result Praça computed
from the same rows, so a reader that does not recalculate (mail and phone
previews, Power Query, pandas) shows the figures, not blanks. Excel and
LibreOffice still recalculate on opening.

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
with its title, subtitle and header row repeated and "Página N de M" in the
footer, at a fixed scale of 80 to 100 % — never a fit, which shrinks the type
as far as the widest row asks: 10 pt prints at 8 pt or more, the page's header
and footer included (a list too wide for one page repeats its key columns on
the next one across, printed over then down). Widths come from the content, a
long text wraps, an empty list is one line, a chart has a page of its own
below the tables (issue 32 §1; tests/test_report_clients.py prints each
workbook with LibreOffice and measures every character with pdfplumber).

The fee report (:mod:`reports.fee_report_xlsx`) and the sanctions report
(:mod:`reports.sanctions_report_xlsx`) are built from these modules, each name
imported from its own module (this package re-exports none):
:mod:`~reports.workbook.styles` (fonts, formats, the header row),
:mod:`~reports.workbook.formulas` (each formula with its value: :func:`f_sum`,
:func:`f_sumifs`, :func:`f_countifs`, …), :mod:`~reports.workbook.sizes` (row
heights, pages across), :mod:`~reports.workbook.book` (:func:`new_workbook`,
:class:`Sheet`) and :mod:`~reports.workbook.breakdown` (:func:`ticker`,
:func:`breakdown_sheet` with :func:`group_formulas` and :func:`criteria_safe`,
:func:`column_chart`, :func:`save_workbook`).
"""
