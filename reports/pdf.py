"""HTML (Qt's rich-text subset) to an A4 PDF, and to a QTextDocument for the print dialog."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from models.store.outfile import atomic_writer


def text_document(html: str) -> QTextDocument:
    """A document in the shipped font: what the HTML does not style (its default, an empty block's paragraph mark)
    is DejaVu Sans too, never the machine's default sans-serif."""
    from reports.qt_fonts import FAMILY, register_fonts

    register_fonts()
    document = QTextDocument()
    font = QFont(document.defaultFont())
    font.setFamilies([FAMILY])
    document.setDefaultFont(font)
    document.setHtml(html)
    return document


@atomic_writer("path", kind="pdf")
def html_to_pdf(html: str, path: str | Path, *, title: str = "") -> Path:
    """Write ``html`` as an A4 portrait PDF with 15 mm margins."""
    from reports.qt_fonts import register_fonts

    register_fonts()  # the templates name the shipped DejaVu Sans: embedded in the PDF on every desk
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setTitle(title)
    writer.setCreator("Praça")
    writer.setResolution(300)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 15, 15, 15),
            QPageLayout.Unit.Millimeter,
        )
    )
    text_document(html).print_(writer)
    return path
