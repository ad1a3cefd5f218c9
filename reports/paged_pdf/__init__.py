"""The tabular documents' HTML laid out as a paged PDF with ReportLab's platypus — fee and sanctions reports, receipt.

Qt's rich-text engine, which still prints permits, cards, maps and the acts,
cannot keep a table row whole across a page break, keep a heading with what
follows or repeat a table's header on each page. Platypus can, with no system
library (a Windows desk has no Pango) and in time and memory linear in the rows.

The PDF is read from the very HTML the browser prints (one source for the
content, the figures and the legal citations): its few tags — headings,
paragraphs, tables with ``thead``, ``b``, ``br``, classed ``span`` — become
flowables; the ``@page`` rules give the margins and the footer's text; a
``div.annex`` starts the landscape pages; the inline SVG chart (rectangles,
lines, text) becomes a ReportLab drawing. A long table is a :class:`RowsTable`:
a row is never split, its header repeated on each page, a heading (and the note
under it) kept with the first rows. Every page says "Página N de M"
(:class:`NumberedCanvas`, two passes over the saved pages). The fonts are the
ones Praça ships (resources/fonts, DejaVu Sans), embedded.

ReportLab writes no tagged PDF (no structure tree, no marked content): what a
screen reader needs is in the HTML export, not in this PDF.

The package: :mod:`tree` (the HTML read into a small tree), :mod:`inline` (a cell's inline markup), :mod:`chart`
(the SVG chart as a drawing), :mod:`tables` (rows kept whole, headers repeated) and :mod:`document` (pages,
fonts, the builder and the numbered pages).
"""

from __future__ import annotations

from reports.paged_pdf.document import (
    register_fonts,
    write_html_pdf,
)
from reports.paged_pdf.tree import (
    BOLD,
    FONT,
)

__all__ = [
    "BOLD",
    "FONT",
    "register_fonts",
    "write_html_pdf",
]
