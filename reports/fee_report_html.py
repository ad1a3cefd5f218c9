"""The monthly fee report as HTML (printable on A4, inline SVG chart) and as PDF through Qt.

The HTML is for a browser: ``@page`` sets A4, the chart is inline SVG. The PDF
is the same template laid out by Qt's rich-text engine (``qt=True``), which
has no SVG: the same chart is rendered by Qt's SVG renderer to a PNG and
embedded. The figures come from :class:`models.fee_report.FeeReport`; money is
formatted here, once per distinct amount, so 20.000 charges render in well
under a second.

The sanctions report (reports/sanctions_report_html.py) shares :class:`Brl`,
:func:`cents`, :class:`Escaper`, :func:`bar_chart_svg`,
:func:`chart_png_data_uri` and :func:`write_paged_pdf`, and its template the
look of this one (resources/templates/report_common.html.j2).
"""

from __future__ import annotations

import base64
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from html import escape
from pathlib import Path

from markupsafe import Markup
from markupsafe import escape as markup_escape

from models.fee_report import CANCELLED, FeeReport
from models.outfile import atomic_writer
from reports.qt_fonts import FAMILY
from reports.templating import date_br, render

Progress = Callable[[int, int], None]

_PT = str.maketrans(",.", ".,")
CHARGED_COLOUR = "#1f4f45"
PAID_COLOUR = "#7fb59a"


class Brl:
    """``R$ 1.234,56`` for amounts already in cents (the report's), memoised: amounts repeat a lot."""

    def __init__(self) -> None:
        self._seen: dict[Decimal, str] = {}

    def __call__(self, value: Decimal) -> str:
        text = self._seen.get(value)
        if text is None:
            body = f"{abs(value):,.2f}".translate(_PT)
            text = self._seen[value] = ("-R$ " if value < 0 else "R$ ") + body
        return text


_Brl = Brl  # the name the fee report's tests know


def cents(value: Decimal) -> int:
    return int(value.scaleb(2))


# --------------------------------------------------------------------------- the chart


@dataclass(frozen=True)
class Chart:
    svg: Markup
    width: int
    height: int


def _nice_step(top: Decimal) -> Decimal:
    """A round gridline step (1, 2 or 5 × 10ⁿ) giving four or five lines up to ``top``."""
    if top <= 0:
        return Decimal(1)
    raw = top / 4
    power = Decimal(10) ** int(math.floor(raw.log10()))
    for factor in (1, 2, 5, 10):
        if power * factor >= raw:
            return power * factor
    return power * 10  # pragma: no cover


def _axis_label(value: Decimal) -> str:
    whole = f"{value:,.0f}".translate(_PT) if value == value.to_integral_value() else f"{value:,.2f}".translate(_PT)
    return f"R$ {whole}"


def _wrap(text: str, width: int = 16) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines[:3]


def bar_chart(report: FeeReport, *, width: int = 680, height: int = 260) -> Chart:
    """Charged vs paid by kind, as SVG (the Excel file has the same chart, native)."""
    return bar_chart_svg(report.by_kind, f"Cobrado × pago por tipo — {report.label}", width=width, height=height)


def bar_chart_svg(groups, title: str, *, series: tuple[str, str] = ("Cobrado", "Pago"), width: int = 680,
                  height: int = 260) -> Chart:
    """Two bars per group — ``charged`` and ``paid`` of each (``key`` names it) — as SVG; shared by the fee and the
    sanctions reports. ``series`` names the two bars in the legend and the tooltips."""
    brl = Brl()
    left, right, top, bottom = 92, 12, 34, 54
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max([g.charged for g in groups] + [Decimal(0)])
    step = _nice_step(peak)
    ceiling = step * max(1, math.ceil(peak / step)) if peak > 0 else step * 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" style="width: 100%; height: auto;" role="img" '
           'font-family="DejaVu Sans, Arial, sans-serif" font-size="10">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    # legend
    gap = max(90, 30 + 7 * len(series[0]))  # the second legend entry after the first one's words
    out.append(f'<rect x="{left}" y="8" width="12" height="12" fill="{CHARGED_COLOUR}"/>'
               f'<text x="{left + 17}" y="18">{escape(series[0])}</text>'
               f'<rect x="{left + gap}" y="8" width="12" height="12" fill="{PAID_COLOUR}"/>'
               f'<text x="{left + gap + 17}" y="18">{escape(series[1])}</text>')
    # gridlines and axis labels
    value = Decimal(0)
    while value <= ceiling:
        y = top + plot_h - float(value / ceiling) * plot_h
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#d5ddd7" '
                   f'stroke-width="1"/>')
        out.append(f'<text x="{left - 6}" y="{y + 3.5:.1f}" text-anchor="end" fill="#555555">'
                   f"{escape(_axis_label(value))}</text>")
        value += step
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#555555"/>')
    n = max(len(groups), 1)
    slot = plot_w / n
    bar = min(44.0, slot * 0.32)
    for i, g in enumerate(groups):
        centre = left + slot * (i + 0.5)
        # each value over its bar, running outwards from the gap between the two: they never overlap
        for offset, amount, colour, name, anchor, tx in ((-bar - 2, g.charged, CHARGED_COLOUR, series[0].lower(), "end",
                                                          bar),
                                                         (2, g.paid, PAID_COLOUR, series[1].lower(), "start", 0)):
            h = float(amount / ceiling) * plot_h if ceiling else 0.0
            x, y = centre + offset, top + plot_h - h
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{colour}">'
                       f"<title>{escape(f'{g.key} — {name}: {brl(amount)}')}</title></rect>")
            out.append(f'<text x="{x + tx:.1f}" y="{y - 3:.1f}" text-anchor="{anchor}" font-size="8" '
                       f'fill="#333333">{escape(brl(amount))}</text>')
        for k, line in enumerate(_wrap(g.key)):
            out.append(f'<text x="{centre:.1f}" y="{top + plot_h + 14 + 11 * k}" text-anchor="middle">'
                       f"{escape(line)}</text>")
    out.append("</svg>")
    return Chart(Markup("".join(out)), width, height)


def ensure_gui_app() -> None:
    """Qt's text and SVG rendering need a QGuiApplication (fonts): make a headless one on the command line."""
    global _app
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QGuiApplication

    instance = QCoreApplication.instance()
    if instance is None:
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        _app = QApplication(sys.argv[:1] or ["praca"])
    elif not isinstance(instance, QGuiApplication):
        raise RuntimeError("O PDF precisa de uma QGuiApplication (há só uma QCoreApplication).")
    from reports.qt_fonts import register_fonts

    register_fonts()


_app = None


def chart_png_data_uri(chart: Chart, *, scale: int = 3) -> str:
    """The SVG chart as a PNG ``data:`` URI, for Qt's rich text (which draws no SVG)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    ensure_gui_app()

    renderer = QSvgRenderer(QByteArray(str(chart.svg).encode("utf-8")))
    image = QImage(chart.width * scale, chart.height * scale, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(bytes(buffer.data())).decode("ascii")


# --------------------------------------------------------------------------- HTML


# One charge of the annex. The 20.000 rows of a large month are built here, not in the template's loop: each
# distinct text is escaped once (names, labels, formulas and bases repeat), which keeps the page under a second.
CHARGE_ROW = ('<tr{css}><td>{number}</td><td>{holder}</td><td>{permit}</td><td>{label}<br>'
              '<span class="small">{formula} — {basis}</span></td><td>{due}</td>'
              '<td class="num" align="right">{amount}</td><td class="num" align="right">{paid}</td>'
              '<td class="num" align="right">{open}</td><td>{situation}</td></tr>\n')
DELINQUENT_ROW = ('<tr><td>{holder}{permits}</td><td>{document}</td><td class="num" align="right">{count}</td>'
                  '<td class="num" align="right">{amount}</td><td>{since}</td><td class="small">{charges}</td></tr>\n')
PAYMENT_ROW = ('<tr><td>{day}</td><td>{number}</td><td>{holder}</td><td>{kind}</td><td>{reference}</td>'
               '<td class="num" align="right">{amount}</td><td>{by}</td></tr>\n')
QT_CHUNK = 150  # rows per table in the PDF: Qt lays out many short tables far faster than one long one


class Escaper:
    def __init__(self) -> None:
        self._seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        out = self._seen.get(text)
        if out is None:
            out = self._seen[text] = escape(text, quote=True)
        return out


def _charge_rows(charges, brl: Brl, day, progress: Progress | None, total: int) -> list[str]:
    esc = Escaper()
    rows = []
    for done, c in enumerate(charges, start=1):
        css = ' class="cancelled"' if c.situation == CANCELLED else (' class="late"' if c.overdue else "")
        rows.append(CHARGE_ROW.format(
            css=css, number=esc(c.number), holder=esc(c.holder), permit=esc(c.permit), label=esc(c.label),
            formula=esc(c.formula), basis=esc(c.basis), due=day(c.due_on), amount=brl(c.amount), paid=brl(c.paid),
            open=brl(c.open), situation=esc(c.situation)))
        if progress is not None and done % 2000 == 0:
            progress(done, total)
    return rows


def _delinquent_rows(delinquents, brl: Brl, day) -> Markup:
    """The delinquents' table rows, as the template wrote them (escaped as jinja escapes), built here: thousands
    of holders in a large month."""
    esc = markup_escape
    return Markup("".join(DELINQUENT_ROW.format(
        holder=esc(d.holder), permits=f'<br><span class="small">permissão {esc(d.permits)}</span>' if d.permits else "",
        document=esc(d.document), count=d.count, amount=esc(brl(d.amount)), since=esc(day(d.oldest_due)),
        charges=esc(d.charges)) for d in delinquents))


def fee_report_html(report: FeeReport, *, qt: bool = False, part: str = "all", start: int = 0,
                    stop: int | None = None, progress: Progress | None = None) -> str:
    """The report as one HTML page.

    ``qt=True`` is the variant Qt lays out for the PDF (the chart as PNG, the
    charge list in short tables); ``part`` is ``"all"``, ``"main"`` (without
    the charge list) or ``"annex"`` (only the charge list, or its rows
    ``start:stop``) — the PDF prints the annex on landscape pages, in parts.
    """
    brl = Brl()
    dates: dict = {}

    def day(value) -> str:
        text = dates.get(value)
        if text is None:
            text = dates[value] = date_br(value)
        return text

    total = len(report.charges) + len(report.payments)
    stop = len(report.charges) if stop is None else min(stop, len(report.charges))
    rows = _charge_rows(report.charges[start:stop], brl, day, progress, total) if part in ("all", "annex") else []
    if qt:
        chunks = [Markup("".join(rows[k:k + QT_CHUNK])) for k in range(0, len(rows), QT_CHUNK)]
    else:
        chunks = [Markup("".join(rows))] if rows else []
    esc = Escaper()
    payments = Markup("") if part == "annex" else Markup("".join(
        PAYMENT_ROW.format(day=day(p.paid_on), number=esc(p.charge), holder=esc(p.holder), kind=esc(p.kind_label),
                           reference=esc(p.reference), amount=brl(p.amount), by=esc(p.recorded_by))
        for p in report.payments))
    delinquents = Markup("") if part == "annex" else _delinquent_rows(report.delinquents, brl, day)
    chart = bar_chart(report) if part != "annex" else None
    html = render("fee_report.html.j2", report=report, totals=report.totals, charge_chunks=chunks,
                  payments=payments, delinquents=delinquents, chart=chart, qt=qt, part=part, annex_first=start == 0,
                  annex_last=stop >= len(report.charges),
                  chart_png=chart_png_data_uri(chart) if qt and report.by_kind and part != "annex" else "",
                  brl=brl, cents=cents, month_title=report.label[:1].upper() + report.label[1:])
    if progress is not None:
        progress(total, total)
    return html


@atomic_writer("path", kind="html")
def write_fee_report_html(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    path = Path(path)
    path.write_text(fee_report_html(report, progress=progress), encoding="utf-8")
    return path


ANNEX_PART = 1000  # charges per Qt document: each is laid out in turn, so the bar moves and Cancelar answers


def write_fee_report_pdf(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """The same report through Qt: the figures on A4 portrait pages, the charge list on A4 landscape pages.

    Qt needs about 2 ms a charge: 20.000 charges make some 1.300 pages in a
    minute or two; the HTML and Excel files are instant.
    """
    n = len(report.charges)
    parts = [(1, False, lambda: fee_report_html(report, qt=True, part="main"))]
    for first in range(0, n, ANNEX_PART):
        parts.append((min(first + ANNEX_PART, n) - first, True,
                      lambda first=first: fee_report_html(report, qt=True, part="annex", start=first,
                                                          stop=first + ANNEX_PART)))
    return write_paged_pdf(path, parts, title=report.title, municipality=report.municipality, progress=progress)


@atomic_writer("path", kind="pdf")
def write_paged_pdf(path: str | Path, parts, *, title: str, municipality: str = "",
                    progress: Progress | None = None) -> Path:
    """HTML parts laid out by Qt's rich-text engine (as ``reports.pdf.html_to_pdf`` does) on A4 pages drawn here
    one by one — shared by the fee and the sanctions reports.

    ``parts``: ``(weight, landscape, make_html)`` — each part is its own document, on portrait or landscape pages
    (a long list goes landscape, in several parts so the bar moves). Every page has the report's name and its
    number. ``progress(done, total)`` is called per part laid out (by its weight) and per page drawn — it may
    raise to stop (the caller removes the file).
    """
    from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
    from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    ensure_gui_app()
    path = Path(path)
    weight = sum(w for w, _landscape, _make in parts) or 1
    units = 2 * weight  # laying out, then drawing

    def tell(done: int) -> None:
        if progress is not None:
            progress(min(done, units), units)

    writer = QPdfWriter(str(path))
    writer.setTitle(f"{title} — {municipality}" if municipality else title)
    writer.setCreator("Praça")
    writer.setResolution(300)
    margins = QMarginsF(12, 12, 12, 12)
    a4 = QPageSize(QPageSize.PageSizeId.A4)
    portrait = QPageLayout(a4, QPageLayout.Orientation.Portrait, margins, QPageLayout.Unit.Millimeter)
    landscape = QPageLayout(a4, QPageLayout.Orientation.Landscape, margins, QPageLayout.Unit.Millimeter)
    writer.setPageLayout(portrait)
    footer = 6 / 25.4 * writer.resolution()  # 6 mm for the page number

    def lay_out(html: str, layout: QPageLayout):
        rect = layout.paintRectPixels(writer.resolution())
        document = QTextDocument()
        document.documentLayout().setPaintDevice(writer)  # px lengths scale as on screen (96 dpi)
        document.setDocumentMargin(0)
        document.setHtml(html)
        document.setPageSize(QSizeF(rect.width(), rect.height() - footer))
        document.pageCount()  # lays it out now
        return document, layout, rect

    tell(0)
    documents = []
    laid = 0
    for part_weight, wide, make_html in parts:
        documents.append(lay_out(make_html(), landscape if wide else portrait))
        laid += part_weight
        tell(laid)
    pages = sum(d.pageCount() for d, _l, _r in documents)
    font = QFont(FAMILY)
    font.setPointSizeF(7)
    caption = " — ".join(x for x in (municipality, title) if x)

    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"não foi possível gravar {path}")
    try:
        number = 0
        current = portrait
        for document, layout, rect in documents:
            if layout is not current:
                writer.setPageLayout(layout)  # from the next page on
                current = layout
            height = document.pageSize().height()
            for page in range(document.pageCount()):
                if number:
                    writer.newPage()
                number += 1
                painter.save()
                painter.translate(0, -page * height)
                document.drawContents(painter, QRectF(0, page * height, rect.width(), height))
                painter.restore()
                painter.setFont(font)
                painter.setPen(Qt.GlobalColor.darkGray)
                band = QRectF(0, rect.height() - footer * 0.8, rect.width(), footer * 0.8)
                painter.drawText(band, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, caption)
                painter.drawText(band, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                                 f"página {number} de {pages}")
                tell(weight + round(weight * number / pages))
    finally:
        painter.end()
    return path
