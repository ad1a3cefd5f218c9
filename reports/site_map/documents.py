"""The map as a document: PDF, PNG, SVG, or sent to a printer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRect, QRectF, QSize, QSizeF
from PySide6.QtGui import (
    QColor,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)

from models.store.outfile import atomic_writer
from reports.qt_fonts import ensure_gui_app
from reports.site_map.canvas import Canvas
from reports.site_map.pages import PageChoice, choose_page, layout_for_page
from reports.site_map.painting import paint_map_page
from reports.site_map.stall_list import (
    breaches_per_page,
    count_breach_pages,
    count_list_pages,
    paint_breach_page,
    paint_list_page,
    rows_per_page,
)

# --------------------------------------------------------------------------- documents


def paint_document(
    painter: QPainter, export: dict, choice: PageChoice, k: float, new_page: Callable[[], bool] | None = None
) -> int:
    """Paint page 1 (and, with ``new_page``, the list pages) with ``k`` device units per mm; returns pages."""
    list_pages = count_list_pages(export, choice) if new_page is not None else 0
    breach_pages = count_breach_pages(export, choice) if new_page is not None else 0
    pages = 1 + list_pages + breach_pages
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    c = Canvas(painter, k)
    paint_map_page(c, export, choice, pages=pages)
    if new_page is not None:
        per_page = rows_per_page(choice)
        stalls = export.get("stalls", [])
        for n in range(list_pages):
            if not new_page():
                break
            paint_list_page(c, export, choice, stalls[n * per_page : (n + 1) * per_page], page=n + 2, pages=pages)
        per_page = breaches_per_page(choice)
        kept = export.get("kept_breaches") or []
        for n in range(breach_pages):
            if not new_page():
                break
            rows = kept[n * per_page : (n + 1) * per_page]
            paint_breach_page(c, export, choice, rows, page=list_pages + n + 2, pages=pages)
    return pages


def _page_layout(choice: PageChoice) -> QPageLayout:
    size = (
        QPageSize(QPageSize.PageSizeId.A3 if choice.paper == "A3" else QPageSize.PageSizeId.A4)
        if choice.paper
        else QPageSize(QSizeF(choice.height, choice.width), QPageSize.Unit.Millimeter)
    )
    return QPageLayout(size, QPageLayout.Orientation.Landscape, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)


@atomic_writer("out", kind="pdf")
def write_pdf(export: dict, out: Path | str, *, paper: str | None = None) -> PageChoice:
    """The map (A4 or A3 landscape, to scale) and the list of stalls with their holders."""
    ensure_gui_app()
    choice = choose_page(export, paper=paper)
    writer = QPdfWriter(str(out))
    writer.setTitle(f"Mapa — {export['site']['name']}")
    writer.setCreator("Praça")
    writer.setResolution(300)
    writer.setPageLayout(_page_layout(choice))
    painter = QPainter(writer)
    try:
        paint_document(painter, export, choice, writer.resolution() / 25.4, new_page=writer.newPage)
    finally:
        painter.end()
    return choice


@atomic_writer("out", kind="png")
def write_png(export: dict, out: Path | str, *, dpi: int = 150, paper: str | None = None) -> PageChoice:
    """Page 1 of the map as a PNG at ``dpi`` (the paper's landscape aspect)."""
    ensure_gui_app()
    choice = choose_page(export, paper=paper)
    k = dpi / 25.4
    image = QImage(round(choice.width * k), round(choice.height * k), QImage.Format.Format_ARGB32)
    image.setDotsPerMeterX(round(dpi / 0.0254))
    image.setDotsPerMeterY(round(dpi / 0.0254))
    image.fill(QColor("#FFFFFF"))
    painter = QPainter(image)
    try:
        paint_document(painter, export, choice, k)
    finally:
        painter.end()
    if not image.save(str(out), "PNG"):  # type: ignore[call-overload]  # the stub says bytes; the binding wants str
        from models.base.errors import UserError

        raise UserError(f"Não foi possível gravar {out}.", field="out")
    return choice


@atomic_writer("out", kind="svg")
def write_svg(export: dict, out: Path | str, *, paper: str | None = None) -> PageChoice:
    """Page 1 of the map as SVG (10 units per millimetre)."""
    ensure_gui_app()
    from PySide6.QtSvg import QSvgGenerator

    choice = choose_page(export, paper=paper)
    k = 10.0
    generator = QSvgGenerator()
    generator.setFileName(str(out))
    generator.setResolution(254)  # 10 dots per mm: the file's width and height come out in mm
    generator.setSize(QSize(round(choice.width * k), round(choice.height * k)))
    generator.setViewBox(QRect(0, 0, round(choice.width * k), round(choice.height * k)))
    generator.setTitle(f"Mapa — {export['site']['name']}")
    generator.setDescription(f"Escala 1:{choice.scale}" if choice.scale else "Pontos do local")
    painter = QPainter(generator)
    try:
        painter.fillRect(QRectF(0, 0, choice.width * k, choice.height * k), QColor("#FFFFFF"))
        paint_document(painter, export, choice, k)
    finally:
        painter.end()
    _name_generic_family(Path(out))
    return choice


def _name_generic_family(svg: Path) -> None:
    """Qt names only the font it drew with; a viewer without DejaVu Sans is told to fall back to sans-serif
    (Qt's own default, "Sans Serif", is that generic family)."""
    import re

    def generic(match: re.Match) -> str:
        family = match.group(1)
        return 'font-family="sans-serif"' if family == "Sans Serif" else f'font-family="{family}, sans-serif"'

    text = svg.read_text(encoding="utf-8")
    svg.write_text(re.sub(r'font-family="([^",]+)"', generic, text), encoding="utf-8")


def print_map(printer, export: dict) -> PageChoice:
    """Print on ``printer`` (a ``QPrinter`` the print dialog set up): the map at the finest scale that fits
    its paper, then the list of stalls."""
    printer.setFullPage(True)
    rect = printer.pageLayout().fullRect(QPageLayout.Unit.Millimeter)
    width, height = max(rect.width(), rect.height()), min(rect.width(), rect.height())
    if rect.width() < rect.height():
        printer.setPageOrientation(QPageLayout.Orientation.Landscape)
    choice = layout_for_page(export, width, height)
    painter = QPainter(printer)
    try:
        paint_document(painter, export, choice, printer.resolution() / 25.4, new_page=printer.newPage)
    finally:
        painter.end()
    return choice


def prepare_printer(printer, export: dict) -> PageChoice:
    """Set ``printer`` to the paper :func:`choose_page` picks (before the print dialog shows)."""
    choice = choose_page(export)
    printer.setPageLayout(_page_layout(choice))
    return choice
