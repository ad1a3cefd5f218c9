"""Permit documents as PDF, drawn by Qt: the permit (A4), the ID card and the stall placard.

* :func:`write_permit_pdf` — the alvará / licença / TPU / credencial on A4: a
  jinja2 template (``permit.html.j2``) laid out by ``QTextDocument`` and
  painted page by page on a ``QPdfWriter``, with a footer on every page; the
  signed QR is painted as vector squares over a transparent placeholder image
  whose place the text layout reserved (PySide6 cannot register a Python
  ``QTextObjectInterface``, so the QR is not a text object).
* :func:`write_id_card_pdf` — the ID card on a page of 85,6 × 53,98 mm
  (ISO/IEC 7810 ID-1), two pages: the front (photo, name, documents, permit,
  activity, place, hours, equipment, validity) and the back (the QR and the
  rest of what Dec. 890/2017, art. 8º asks for).
* :func:`write_placard_pdf` — the stall placard of São Bento do Sapucaí
  (Dec. 4.794/2026, art. 4º, parágrafo único) or of any regime with a
  ``[placard]``: the regime says the size, the colours and the contents.

Each function takes a plain :class:`models.permits.permit_doc.PermitDocument`; none
touches the database. Needs a ``QGuiApplication`` (one is created, headless
if there is no display, when the caller has none).

Qt writes page sizes in whole PostScript points, so the card's page is
243 × 153 pt (85,73 × 53,975 mm, within 0,13 mm); everything on it is drawn
inside the exact 85,6 × 53,98 mm, the background bleeding to the page edge.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import segno
import segno.consts
from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
    QPen,
    QTextCharFormat,
    QTextDocument,
    QTextFormat,
)

from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError
from models.base.money import format_brl
from models.permits.permit_doc import PermitDocument
from models.store.outfile import atomic_writer
from reports.qt_fonts import ensure_gui_app
from reports.templating import date_br, render

__all__ = [
    "CARD_HEIGHT_MM",
    "CARD_WIDTH_MM",
    "PLACARD_DEFAULT_MM",
    "STATE_NAMES",
    "draw_qr",
    "long_date_br",
    "permit_html",
    "qr_modules",
    "write_id_card_pdf",
    "write_permit_pdf",
    "write_placard_pdf",
]

CARD_WIDTH_MM = 85.6
CARD_HEIGHT_MM = 53.98
PLACARD_DEFAULT_MM = (650.0, 450.0)  # Dec. 4.794/2026, art. 4º, parágrafo único: "no mínimo 0,65 × 0,45"
A4_MARGINS_MM = (18.0, 16.0, 18.0, 14.0)  # left, top, right, bottom (bottom without the footer)
FOOTER_MM = 9.0

INK = QColor("#1b1b1b")
BRAND = QColor("#1f4f45")
BRAND_LIGHT = QColor("#e9efe9")
ACCENT = QColor("#c9a227")
MUTED = QColor("#5b6660")

SANS = ["DejaVu Sans", "Liberation Sans", "Arial"]  # the first shipped and registered (reports/qt_fonts.py)

STATE_NAMES = {
    "AC": "Acre",
    "AL": "Alagoas",
    "AP": "Amapá",
    "AM": "Amazonas",
    "BA": "Bahia",
    "CE": "Ceará",
    "DF": "Distrito Federal",
    "ES": "Espírito Santo",
    "GO": "Goiás",
    "MA": "Maranhão",
    "MT": "Mato Grosso",
    "MS": "Mato Grosso do Sul",
    "MG": "Minas Gerais",
    "PA": "Pará",
    "PB": "Paraíba",
    "PR": "Paraná",
    "PE": "Pernambuco",
    "PI": "Piauí",
    "RJ": "Rio de Janeiro",
    "RN": "Rio Grande do Norte",
    "RS": "Rio Grande do Sul",
    "RO": "Rondônia",
    "RR": "Roraima",
    "SC": "Santa Catarina",
    "SP": "São Paulo",
    "SE": "Sergipe",
    "TO": "Tocantins",
}
_MONTHS = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)
# The colours a regime may name for a placard (pt-BR, either gender), or "#RRGGBB".
_COLOURS = {
    "branca": "#ffffff",
    "branco": "#ffffff",
    "preta": "#000000",
    "preto": "#000000",
    "amarela": "#ffd400",
    "amarelo": "#ffd400",
    "azul": "#0b3d91",
    "verde": "#0b6e3a",
    "vermelha": "#c8102e",
    "vermelho": "#c8102e",
    "cinza": "#808080",
    "laranja": "#f28c00",
}

# --------------------------------------------------------------------------- small helpers


def long_date_br(value: dt.date | dt.datetime) -> str:
    """``"27 de março de 2026"``."""
    return f"{value.day} de {_MONTHS[value.month - 1]} de {value.year}"


def _state_name(uf: str) -> str:
    return STATE_NAMES.get((uf or "").upper(), uf or "")


def _title(doc: PermitDocument) -> str:
    return f"{doc.instrument.upper()} Nº {doc.number}"


def _short_instrument(instrument: str) -> str:
    """A label that fits under the card's photo: "ALVARÁ", "LICENÇA", "TPU", "PERMISSÃO DE USO"…"""
    text = (instrument or "").strip()
    if text.lower().startswith("termo de permissão de uso"):
        return "TPU"
    return (text if len(text) <= 18 else text.split()[0]).upper()


def _holder_document_line(doc: PermitDocument) -> list[tuple[str, str]]:
    rows = []
    if doc.cpf:
        rows.append(("CPF", format_cpf(doc.cpf)))
    if doc.cnpj:
        rows.append(("CNPJ", format_cnpj(doc.cnpj)))
    return rows


def _font(point_size: float, *, bold: bool = False, families: Sequence[str] = SANS) -> QFont:
    font = QFont()
    font.setFamilies(list(families))
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def _colour(name: str | None, default: str) -> QColor:
    if not name:
        return QColor(default)
    key = name.strip().lower()
    if key.startswith("#") and QColor.isValidColorName(key):
        return QColor(key)
    if key in _COLOURS:
        return QColor(_COLOURS[key])
    raise UserError(f"Cor '{name}' da placa não reconhecida (use branca, preta, amarela… ou #RRGGBB).", field="placard")


class _Page:
    """Millimetre ↔ device-pixel conversions for one ``QPdfWriter``."""

    def __init__(self, writer: QPdfWriter):
        self.dpi = writer.resolution()

    def mm(self, value: float) -> float:
        return value * self.dpi / 25.4

    def rect(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(self.mm(x), self.mm(y), self.mm(w), self.mm(h))


def _writer(
    path: Path, width_mm: float, height_mm: float, title: str, *, resolution: int = 1200, name: str = ""
) -> QPdfWriter:
    ensure_gui_app()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = QPdfWriter(str(path))
    size = QPageSize(QSizeF(width_mm, height_mm), QPageSize.Unit.Millimeter, name, QPageSize.SizeMatchPolicy.ExactMatch)
    writer.setPageLayout(QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    writer.setResolution(resolution)
    writer.setTitle(title)
    writer.setCreator("Praça")
    return writer


def _begin(writer: QPdfWriter, path: Path) -> QPainter:
    painter = QPainter()
    if not painter.begin(writer):
        raise UserError(f"Não foi possível gravar o PDF em {path}.", field="path")
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    return painter


# --------------------------------------------------------------------------- QR


def qr_segments(text: str) -> str | list[tuple[str, int]]:
    """A verification address ``https://…#PRACA2.…`` as two segments: the address in byte mode and the signed
    text in alphanumeric mode (5,5 bits a character instead of 8: the card's QR stays small); any other text
    as it is. A phone's reader joins the segments into one address."""
    head, sep, tail = text.partition("#")
    if sep and tail and set(tail) <= _QR_ALPHANUMERIC:
        return [(head + sep, segno.consts.MODE_BYTE), (tail, segno.consts.MODE_ALPHANUMERIC)]
    return text


_QR_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


def qr_modules(text: str, error: str = "m") -> list[list[bool]]:
    """The QR symbol of ``text`` as rows of dark (True) / light modules, without the quiet zone."""
    qr = segno.make(qr_segments(text), error=error, micro=False)
    return [[bool(v) for v in row] for row in qr.matrix_iter(border=0)]


def draw_qr(painter: QPainter, rect: QRectF, text: str, *, quiet: int = 4, error: str = "m") -> None:
    """Draw the QR of ``text`` centred in ``rect`` as one vector path of filled squares.

    Horizontal runs of dark modules become one rectangle each and all of them
    one path, so viewers draw no hairline seams between modules. ``quiet``
    light modules are painted around the symbol.
    """
    modules = qr_modules(text, error)
    count = len(modules)
    side = min(rect.width(), rect.height())
    unit = side / (count + 2 * quiet)
    left = rect.x() + (rect.width() - side) / 2 + quiet * unit
    top = rect.y() + (rect.height() - side) / 2 + quiet * unit
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#ffffff"))
    painter.drawRect(QRectF(left - quiet * unit, top - quiet * unit, side, side))
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for y, row in enumerate(modules):
        x = 0
        while x < count:
            if row[x]:
                start = x
                while x < count and row[x]:
                    x += 1
                path.addRect(QRectF(left + start * unit, top + y * unit, (x - start) * unit, unit))
            else:
                x += 1
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.fillPath(path, QColor("#000000"))
    painter.restore()


# --------------------------------------------------------------------------- permit (A4)

QR_RESOURCE = "praca-qr"  # a transparent placeholder in the HTML; the vector QR is painted over it
PHOTO_RESOURCE = "praca-photo"
SIGNATURE_ANCHOR = "\u2063"  # invisible separator at the start of the signature table (see the template)
CSS_PX_PER_MM = 96 / 25.4  # QTextDocument reads <img width> in CSS pixels and scales them to the device


def _image_rect(text: QTextDocument, name: str) -> QRectF | None:
    """Where the layout put the inline image ``name`` (document coordinates), or None."""
    layout = text.documentLayout()
    block = text.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat() and fmt.toImageFormat().name() == name:
                image = fmt.toImageFormat()
                scale = layout.paintDevice().logicalDpiY() / 96 if layout.paintDevice() else 1.0
                w, h = image.width() * scale, image.height() * scale
                offset = fragment.position() - block.position()
                line = block.layout().lineForTextPosition(offset)
                x = line.cursorToX(offset)
                x = x[0] if isinstance(x, tuple) else x
                origin = layout.blockBoundingRect(block).topLeft()
                align = image.verticalAlignment()
                if align == QTextCharFormat.VerticalAlignment.AlignTop:
                    top = line.y()
                elif align == QTextCharFormat.VerticalAlignment.AlignBottom:
                    top = line.y() + line.height() - h
                elif align == QTextCharFormat.VerticalAlignment.AlignMiddle:
                    top = line.y() + (line.height() - h) / 2
                else:  # baseline: the image stands on the line's baseline
                    top = line.y() + line.ascent() - h
                return QRectF(origin.x() + x, origin.y() + top, w, h)
            it += 1
        block = block.next()
    return None


def permit_html(doc: PermitDocument, *, qr_size_mm: float = 27.0) -> str:
    """The permit as HTML (Qt's rich-text subset), from ``resources/templates/permit.html.j2``."""
    holder_rows = []
    if doc.company_name and doc.company_name != doc.holder_name:
        holder_rows.append(("Nome", doc.holder_name))
        holder_rows.append(("Nome empresarial", doc.company_name))
    else:
        holder_rows.append(("Nome" if not doc.cnpj or doc.cpf else "Nome empresarial", doc.holder_name))
    holder_rows += [
        ("Nome fantasia", doc.trade_name),
        ("CPF", format_cpf(doc.cpf)),
        ("RG", doc.rg),
        ("CNPJ", format_cnpj(doc.cnpj)),
        ("Cadastro municipal", doc.municipal_registration),
        ("Nº de identificação", doc.holder_id_number),
        ("Endereço", doc.address),
    ]
    activity_rows = [
        ("Ramo / produtos autorizados", doc.product_line),
        ("Grupo de produtos", doc.product_group),
        ("Seção", doc.section),
        ("Equipamento", doc.equipment),
        ("Dimensões do equipamento", doc.equipment_size),
    ]
    place_rows = [
        ("Local", doc.site),
        ("Ponto / posição", doc.point),
        ("Dias", doc.days),
        ("Horário", doc.hours),
    ]
    term_rows = [
        ("Vigência", f"de {date_br(doc.valid_from)} a {date_br(doc.valid_until)}"),
        ("Processo nº", doc.process_number),
    ]
    if doc.amount is not None:
        money = format_brl(Decimal(doc.amount))
        if doc.amount_basis:
            money = f"{money} ({doc.amount_basis})"
        term_rows.append((doc.amount_label, money))
    issued_at = doc.issued_at or dt.date.today()
    return render(
        "permit.html.j2",
        doc=doc,
        title=_title(doc),
        state_name=_state_name(doc.state),
        holder_rows=[r for r in holder_rows if r[1]],
        activity_rows=[r for r in activity_rows if r[1]],
        place_rows=[r for r in place_rows if r[1]],
        term_rows=[r for r in term_rows if r[1]],
        has_photo=bool(doc.photo_path) and Path(doc.photo_path).is_file(),
        photo_src=PHOTO_RESOURCE,
        qr_src=QR_RESOURCE,
        qr_px=round(qr_size_mm * CSS_PX_PER_MM),
        photo_w=round(25 * CSS_PX_PER_MM),
        photo_h=round(32 * CSS_PX_PER_MM),
        signature_anchor=SIGNATURE_ANCHOR,
        place_and_date=f"{doc.municipality}/{doc.state}, {long_date_br(issued_at)}.",
    )


@atomic_writer("path", kind="pdf")
def write_permit_pdf(doc: PermitDocument, path: Path, *, qr_size_mm: float = 27.0) -> Path:
    """The permit on A4 pages, with the signed QR (when ``doc.qr_text``) in the heading."""
    path = Path(path)
    width_mm, height_mm = 210.0, 297.0
    writer = _writer(path, width_mm, height_mm, f"{_title(doc)} — {doc.holder_name}", resolution=600, name="A4")
    page = _Page(writer)
    left, top, right, bottom = A4_MARGINS_MM
    body = QRectF(
        page.mm(left), page.mm(top), page.mm(width_mm - left - right), page.mm(height_mm - top - bottom - FOOTER_MM)
    )

    text = QTextDocument()
    text.documentLayout().setPaintDevice(writer)
    text.setDefaultFont(_font(9.5))
    text.setDocumentMargin(0)
    if doc.photo_path and Path(doc.photo_path).is_file():
        text.addResource(QTextDocument.ResourceType.ImageResource, QUrl(PHOTO_RESOURCE), QImage(str(doc.photo_path)))
    blank = QImage(8, 8, QImage.Format.Format_ARGB32)
    blank.fill(Qt.GlobalColor.transparent)
    text.addResource(QTextDocument.ResourceType.ImageResource, QUrl(QR_RESOURCE), blank)
    text.setHtml(permit_html(doc, qr_size_mm=qr_size_mm))
    text.setPageSize(QSizeF(body.width(), body.height()))
    _keep_together(text, SIGNATURE_ANCHOR, body.height())
    pages = text.pageCount()
    qr_rect = _image_rect(text, QR_RESOURCE) if doc.qr_text else None

    painter = _begin(writer, path)
    try:
        for index in range(pages):
            if index:
                writer.newPage()
            painter.save()
            painter.translate(body.left(), body.top() - index * body.height())
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = QRectF(0, index * body.height(), body.width(), body.height())
            painter.setClipRect(context.clip)
            text.documentLayout().draw(painter, context)
            if qr_rect is not None and qr_rect.intersects(context.clip):
                draw_qr(painter, qr_rect, doc.qr_text, quiet=2)
            painter.restore()
            _permit_footer(painter, page, doc, index + 1, pages, width_mm, height_mm)
    finally:
        painter.end()
    return path


def _keep_together(text: QTextDocument, anchor: str, page_height: float) -> None:
    """Move the table holding ``anchor`` (the place, date and signature) to a new page rather than split it."""
    cursor = text.find(anchor)
    table = cursor.currentTable() if not cursor.isNull() else None
    if table is None:
        return
    layout = text.documentLayout()
    tops, bottoms = [], []
    block = text.findBlock(table.firstPosition())
    while block.isValid() and block.position() <= table.lastPosition():
        rect = layout.blockBoundingRect(block)
        tops.append(rect.top())
        bottoms.append(rect.bottom())
        block = block.next()
    if tops and int(min(tops) // page_height) != int((max(bottoms) - 1) // page_height):
        fmt = table.format()
        fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        table.setFormat(fmt)


def _permit_footer(
    painter: QPainter, page: _Page, doc: PermitDocument, number: int, total: int, width_mm: float, height_mm: float
) -> None:
    left, _top, right, bottom = A4_MARGINS_MM
    y = height_mm - bottom - FOOTER_MM + 3.0
    painter.save()
    painter.setPen(QPen(BRAND, page.mm(0.25)))
    painter.drawLine(QPointF(page.mm(left), page.mm(y)), QPointF(page.mm(width_mm - right), page.mm(y)))
    painter.setPen(MUTED)
    painter.setFont(_font(7))
    band = page.rect(left, y + 1.2, width_mm - left - right, 5)
    who = f"{_title(doc)} · {doc.holder_name} · {doc.citation}"
    metrics = QFontMetricsF(painter.font(), painter.device())
    who = metrics.elidedText(who, Qt.TextElideMode.ElideRight, band.width() * 0.8)
    painter.drawText(band, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), who)
    painter.drawText(band, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop), f"Página {number} de {total}")
    painter.restore()


# --------------------------------------------------------------------------- text boxes for QPainter


@dataclass
class _Field:
    label: str
    value: str
    max_lines: int = 2
    bold: bool = False


def _draw_fields(
    painter: QPainter,
    page: _Page,
    rect_mm: tuple[float, float, float, float],
    fields: Iterable[_Field],
    *,
    sizes: Sequence[float] = (6.2, 5.8, 5.4, 5.0, 4.6),
    label_colour: QColor = MUTED,
    gap_mm: float = 0.35,
) -> float:
    """Draw "LABEL value" paragraphs top-down in ``rect_mm``; the largest font size that fits wins.

    Returns the height used (mm). Values longer than their ``max_lines`` are elided with "…".
    """
    fields = [f for f in fields if f.value]
    chosen = sizes[-1]
    for size in sizes:
        if _layout_fields(painter, page, rect_mm, fields, size, label_colour, gap_mm, draw=False) <= rect_mm[3]:
            chosen = size
            break
    return _layout_fields(painter, page, rect_mm, fields, chosen, label_colour, gap_mm, draw=True)


def _layout_fields(
    painter: QPainter,
    page: _Page,
    rect_mm,
    fields: Sequence[_Field],
    size: float,
    label_colour: QColor,
    gap_mm: float,
    *,
    draw: bool,
) -> float:
    x, y, w, _h = rect_mm
    label_font = _font(size * 0.78, bold=True)
    value_font = _font(size)
    value_bold = _font(size, bold=True)
    device = painter.device()
    label_metrics = QFontMetricsF(label_font, device)
    cursor = 0.0
    for item in fields:
        label = item.label.upper()
        label_w = label_metrics.horizontalAdvance(label + "  ")
        font = value_bold if item.bold else value_font
        metrics = QFontMetricsF(font, device)
        line_h = metrics.lineSpacing()
        # The label sits on the first line; the value wraps after it (first line is shorter).
        lines = _wrap(item.value, metrics, page.mm(w) - label_w, page.mm(w), item.max_lines)
        if draw:
            top = page.mm(y + cursor)
            baseline = top + metrics.ascent()
            painter.setFont(label_font)
            painter.setPen(label_colour)
            painter.drawText(QPointF(page.mm(x), baseline), label)
            painter.setFont(font)
            painter.setPen(INK)
            for index, line in enumerate(lines):
                lx = page.mm(x) + (label_w if index == 0 else 0)
                painter.drawText(QPointF(lx, baseline + index * line_h), line)
        cursor += len(lines) * line_h * 25.4 / page.dpi + gap_mm
    return cursor - gap_mm if fields else 0.0


def _wrap(text: str, metrics: QFontMetricsF, first_width: float, width: float, max_lines: int) -> list[str]:
    """Greedy word wrap; the last allowed line is elided with "…" when text remains."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        limit = first_width if not lines else width
        candidate = f"{current} {word}".strip()
        if metrics.horizontalAdvance(candidate) <= limit or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines:
            rest = " ".join([lines.pop(), *words[index:]])
            lines.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, limit if len(lines) == 0 else width))
            return lines
    if current:
        lines.append(current)
    # a single over-long word: elide it to the line
    out = []
    for index, line in enumerate(lines):
        limit = first_width if index == 0 else width
        out.append(
            line
            if metrics.horizontalAdvance(line) <= limit
            else metrics.elidedText(line, Qt.TextElideMode.ElideRight, limit)
        )
    return out


def _fit_point_size(text: str, width_px: float, device, *, bold: bool, max_pt: float, min_pt: float) -> float:
    size = max_pt
    while size > min_pt:
        if QFontMetricsF(_font(size, bold=bold), device).horizontalAdvance(text) <= width_px:
            return size
        size -= 0.25 if max_pt < 20 else 2
    return min_pt


def _draw_photo(
    painter: QPainter,
    page: _Page,
    rect_mm: tuple[float, float, float, float],
    photo: Path | None,
    caption: str = "2 × 2 cm",
) -> None:
    rect = page.rect(*rect_mm)
    image = QImage(str(photo)) if photo and Path(photo).is_file() else QImage()
    painter.save()
    if not image.isNull():
        # fill the frame, cropping the longer side (a 3×4 photo in a 2×2 frame keeps the face)
        scale = max(rect.width() / image.width(), rect.height() / image.height())
        sw, sh = rect.width() / scale, rect.height() / scale
        source = QRectF((image.width() - sw) / 2, (image.height() - sh) / 4, sw, sh)
        painter.drawImage(rect, image, source)
        painter.setPen(QPen(QColor("#8a948f"), page.mm(0.15)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect)
    else:
        painter.setBrush(QColor("#f3f5f4"))
        pen = QPen(QColor("#8a948f"), page.mm(0.2))
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawRect(rect)
        painter.setPen(QColor("#6f7a74"))
        painter.setFont(_font(7, bold=True))
        upper = QRectF(rect.x(), rect.y(), rect.width(), rect.height() * 0.55)
        painter.drawText(upper, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom), "FOTO")
        painter.setFont(_font(4.5))
        lower = QRectF(rect.x(), rect.y() + rect.height() * 0.58, rect.width(), rect.height() * 0.4)
        painter.drawText(lower, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop), caption)
    painter.restore()


# --------------------------------------------------------------------------- ID card


@atomic_writer("path", kind="pdf")
def write_id_card_pdf(doc: PermitDocument, path: Path) -> Path:
    """The ID card: page 1 the front, page 2 the back with the QR; each exactly 85,6 × 53,98 mm of drawing."""
    path = Path(path)
    writer = _writer(
        path, CARD_WIDTH_MM, CARD_HEIGHT_MM, f"{doc.card_title} — {doc.holder_name}", name="ID-1 85,6 × 53,98 mm"
    )
    page = _Page(writer)
    painter = _begin(writer, path)
    try:
        _card_front(painter, page, doc)
        writer.newPage()
        _card_back(painter, page, doc)
    finally:
        painter.end()
    return path


def _card_band(painter: QPainter, page: _Page, doc: PermitDocument, height: float, subtitle: str) -> None:
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, CARD_HEIGHT_MM + 1), QColor("#ffffff"))
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, height), BRAND)
    painter.fillRect(page.rect(0, height, CARD_WIDTH_MM + 1, 0.6), ACCENT)
    heading = f"PREFEITURA MUNICIPAL DE {doc.municipality.upper()}/{doc.state.upper()}"
    width = page.mm(CARD_WIDTH_MM - 6)
    size = _fit_point_size(heading, width, painter.device(), bold=True, max_pt=7.0, min_pt=4.8)
    painter.setPen(QColor("#ffffff"))
    painter.setFont(_font(size, bold=True))
    painter.drawText(
        page.rect(3, 0.9, CARD_WIDTH_MM - 6, height * 0.55),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        heading,
    )
    painter.setPen(QColor("#d7e4de"))
    sub_size = _fit_point_size(subtitle, width, painter.device(), bold=False, max_pt=5.0, min_pt=3.8)
    painter.setFont(_font(sub_size))
    painter.drawText(
        page.rect(3, height * 0.55, CARD_WIDTH_MM - 6, height * 0.4),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        subtitle,
    )


def _card_front(painter: QPainter, page: _Page, doc: PermitDocument) -> None:
    band = 9.2
    subtitle = doc.card_title.upper()
    if doc.agency:
        subtitle += f" · {doc.agency}"
    _card_band(painter, page, doc, band, subtitle)

    # photo 2 × 2 cm (Dec. 890/2017, art. 8º, I) and the permit number under it
    photo = (3.0, band + 2.2, 20.0, 20.0)
    _draw_photo(painter, page, photo, doc.photo_path)
    number_top = photo[1] + photo[3] + 1.3
    painter.setPen(MUTED)
    painter.setFont(_font(4.2, bold=True))
    painter.drawText(
        page.rect(3, number_top, 20, 2.2), int(Qt.AlignmentFlag.AlignHCenter), _short_instrument(doc.instrument)
    )
    size = _fit_point_size(f"Nº {doc.number}", page.mm(20), painter.device(), bold=True, max_pt=7.5, min_pt=4.5)
    painter.setPen(INK)
    painter.setFont(_font(size, bold=True))
    painter.drawText(page.rect(3, number_top + 2.0, 20, 3.6), int(Qt.AlignmentFlag.AlignHCenter), f"Nº {doc.number}")

    # name and the fields, right of the photo
    x, right = 25.5, CARD_WIDTH_MM - 3.0
    width = right - x
    top = band + 2.0
    name_size = _fit_point_size(doc.holder_name, page.mm(width), painter.device(), bold=True, max_pt=8.5, min_pt=6.0)
    name_font = _font(name_size, bold=True)
    metrics = QFontMetricsF(name_font, painter.device())
    name_lines = _wrap(doc.holder_name, metrics, page.mm(width), page.mm(width), 2)
    painter.setFont(name_font)
    painter.setPen(INK)
    for index, line in enumerate(name_lines):
        painter.drawText(QPointF(page.mm(x), page.mm(top) + metrics.ascent() + index * metrics.lineSpacing()), line)
    top += len(name_lines) * metrics.lineSpacing() * 25.4 / page.dpi + 0.6

    ids = [_Field(label, value, 1) for label, value in _holder_document_line(doc)]
    if doc.rg:
        ids.append(_Field("RG", doc.rg, 1))
    fields = [
        *ids,
        _Field("Atividade", doc.kind_label, 2),
        _Field("Ramo", doc.product_line, 2),
        _Field("Local", doc.place, 2),
        _Field("Horário", ", ".join(p for p in (doc.days, doc.hours) if p), 2),
        _Field("Equipamento", " — ".join(p for p in (doc.equipment, doc.equipment_size) if p), 1),
    ]
    validity_top = CARD_HEIGHT_MM - 8.2
    _draw_fields(painter, page, (x, top, width, validity_top - 0.8 - top), fields)

    # validity strip
    painter.fillRect(page.rect(0, validity_top, CARD_WIDTH_MM + 1, CARD_HEIGHT_MM - validity_top + 1), BRAND_LIGHT)
    painter.fillRect(page.rect(0, validity_top, 1.6, CARD_HEIGHT_MM - validity_top + 1), BRAND)
    painter.setPen(BRAND)
    painter.setFont(_font(4.4, bold=True))
    painter.drawText(page.rect(3.0, validity_top + 1.0, 30, 2.4), int(Qt.AlignmentFlag.AlignLeft), "VALIDADE")
    painter.setPen(INK)
    painter.setFont(_font(7.6, bold=True))
    painter.drawText(
        page.rect(3.0, validity_top + 3.1, 50, 4.2),
        int(Qt.AlignmentFlag.AlignLeft),
        f"{date_br(doc.valid_from)} a {date_br(doc.valid_until)}",
    )
    citation = doc.act_short or doc.act
    if doc.card_basis:
        citation = f"{citation}, {doc.card_basis}"
    painter.setPen(MUTED)
    painter.setFont(_font(4.0))
    painter.drawText(
        page.rect(48, validity_top + 1.0, CARD_WIDTH_MM - 51, 6.4),
        int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap),
        f"Documento de porte obrigatório\n{citation}",
    )


def _card_back(painter: QPainter, page: _Page, doc: PermitDocument) -> None:
    band = 5.6
    _card_band(painter, page, doc, band, "")
    # the band on the back holds one line: redraw it centred vertically
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, band), BRAND)
    painter.setPen(QColor("#ffffff"))
    heading = f"{doc.card_title.upper()} · {doc.instrument.upper()} Nº {doc.number}"
    size = _fit_point_size(heading, page.mm(CARD_WIDTH_MM - 6), painter.device(), bold=True, max_pt=5.6, min_pt=4.0)
    painter.setFont(_font(size, bold=True))
    painter.drawText(
        page.rect(3, 0, CARD_WIDTH_MM - 6, band),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        heading,
    )

    qr_side = 41.0
    qr_rect = (1.6, band + 0.6 + (CARD_HEIGHT_MM - band - 0.6 - qr_side) / 2, qr_side, qr_side)
    if doc.qr_text:
        draw_qr(painter, page.rect(*qr_rect), doc.qr_text, quiet=3)
    else:
        painter.setPen(QPen(QColor("#8a948f"), page.mm(0.2), Qt.PenStyle.DashLine))
        painter.drawRect(page.rect(qr_rect[0] + 3, qr_rect[1] + 3, qr_side - 6, qr_side - 6))
        painter.setFont(_font(5))
        painter.drawText(page.rect(*qr_rect), int(Qt.AlignmentFlag.AlignCenter), "sem QR code")

    x = qr_rect[0] + qr_side + 1.0
    width = CARD_WIDTH_MM - 2.6 - x
    top = band + 2.0
    issued = date_br(doc.issued_at) if doc.issued_at else ""
    if isinstance(doc.issued_at, dt.datetime):
        issued = doc.issued_at.strftime("%d/%m/%Y")
    fields = [
        _Field("Nº de identificação", doc.holder_id_number, 1),
        _Field("Cadastro municipal", doc.municipal_registration, 1),
        _Field("Nome fantasia", doc.trade_name, 1),
        _Field("Endereço", doc.address, 3),
        _Field("Processo nº", doc.process_number, 1),
        _Field("Grupo", doc.product_group, 2),
        _Field("Seção", doc.section, 1),
        _Field("Expedido em", " por ".join(p for p in (issued, doc.issued_by) if p), 2),
        _Field("Fundamento", doc.citation, 3),
    ]
    foot_h = 6.0
    _draw_fields(
        painter,
        page,
        (x, top, width, CARD_HEIGHT_MM - foot_h - top - 0.6),
        fields,
        sizes=(5.4, 5.1, 4.8, 4.5, 4.2, 3.9),
    )
    painter.setPen(MUTED)
    painter.setFont(_font(3.9))
    painter.drawText(
        page.rect(x, CARD_HEIGHT_MM - foot_h, width, foot_h - 1.2),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap),
        "Autenticidade: leia o QR code. A assinatura digital da Prefeitura confere titular, local e validade.",
    )


# --------------------------------------------------------------------------- placard


_PLACARD_LINES: dict[str, Callable[[PermitDocument], tuple[str, str]]] = {
    # content id → (text, style); styles: "name" (largest), "id" (large), "info" (medium)
    "company-name": lambda d: (d.display_company_name.upper(), "name"),
    "holder-name": lambda d: (d.holder_name.upper(), "name"),
    "cnpj": lambda d: (f"CNPJ {format_cnpj(d.cnpj)}" if d.cnpj else "", "id"),
    "cpf": lambda d: (f"CPF {format_cpf(d.cpf)}" if d.cpf else "", "id"),
    "municipal-registration": lambda d: (
        f"CADASTRO MUNICIPAL Nº {d.municipal_registration}" if d.municipal_registration else "",
        "id",
    ),
    "permit-number": lambda d: (f"{d.instrument.upper()} Nº {d.number}", "info"),
    "line": lambda d: (d.product_line, "info"),
    "section": lambda d: (d.section, "info"),
}
_PLACARD_LABELS = {
    "company-name": "o nome da empresa",
    "holder-name": "o nome do titular",
    "cnpj": "o CNPJ",
    "cpf": "o CPF",
    "municipal-registration": "o número do Cadastro Municipal",
    "permit-number": "o número",
    "line": "o ramo",
    "section": "a seção",
    "photo": "a foto",
    "qr-code": "o QR code",
}
_PLACARD_STYLE = {"name": (190.0, True), "id": (150.0, True), "info": (90.0, False)}


def placard_size_mm(regime) -> tuple[float, float]:
    """The placard's page: the act's minimum, never below 650 × 450 mm (the São Bento minimum)."""
    placard = regime.placard
    width, height = PLACARD_DEFAULT_MM
    if placard.min_width is not None:
        width = max(width, float(placard.min_width) * 1000)
    if placard.min_height is not None:
        height = max(height, float(placard.min_height) * 1000)
    return width, height


@atomic_writer("path", kind="pdf")
def write_placard_pdf(doc: PermitDocument, path: Path, regime) -> Path:
    """The stall placard the regime's ``[placard]`` describes, at full size (one page)."""
    placard = getattr(regime, "placard", None)
    if placard is None:
        raise UserError(f"O regime {regime.id} ({regime.short}) não prevê placa indicativa.", field="placard")
    contents = placard.contents or ("company-name", "cnpj", "municipal-registration")
    citation = regime.cite(placard.basis)
    lines: list[tuple[str, str]] = []
    for key in contents:
        if key in ("photo", "qr-code"):
            continue
        text, style = _PLACARD_LINES[key](doc)
        if not text.strip():
            raise UserError(
                f"A placa exige {_PLACARD_LABELS.get(key, key)} ({citation}), que este documento não tem.",
                field=key,
            )
        lines.append((text, style))
    want_photo = "photo" in contents
    want_qr = "qr-code" in contents
    if want_photo and not (doc.photo_path and Path(doc.photo_path).is_file()):
        raise UserError(f"A placa exige a foto do titular ({citation}): anexe a foto antes.", field="photo")
    if want_qr and not doc.qr_text:
        raise UserError(f"A placa exige o QR code ({citation}): assine o documento antes.", field="qr-code")

    background = _colour(placard.background, "#ffffff")
    ink = _colour(placard.text_colour, "#000000")
    path = Path(path)
    width_mm, height_mm = placard_size_mm(regime)
    writer = _writer(
        path,
        width_mm,
        height_mm,
        f"Placa — {doc.display_company_name}",
        resolution=300,
        name=f"Placa {width_mm:g} × {height_mm:g} mm",
    )
    page = _Page(writer)
    painter = _begin(writer, path)
    try:
        painter.fillRect(page.rect(0, 0, width_mm + 2, height_mm + 2), background)
        margin = 30.0
        side_w = 0.0
        if want_photo or want_qr:
            side_w = min(height_mm - 2 * margin - 40, width_mm * 0.32)
        text_w = width_mm - 2 * margin - (side_w + 20 if side_w else 0)
        small_h = 22.0
        _placard_lines(painter, page, lines, (margin, margin, text_w, height_mm - 2 * margin - small_h), ink)
        if side_w:
            sx = width_mm - margin - side_w
            if want_qr and want_photo:
                half = (height_mm - 2 * margin - small_h - 10) / 2
                _draw_photo(painter, page, (sx + (side_w - half) / 2, margin, half, half), doc.photo_path, "")
                draw_qr(painter, page.rect(sx + (side_w - half) / 2, margin + half + 10, half, half), doc.qr_text)
            elif want_qr:
                draw_qr(painter, page.rect(sx, margin, side_w, side_w), doc.qr_text)
            else:
                _draw_photo(painter, page, (sx, margin, side_w, side_w), doc.photo_path, "")
        painter.setPen(ink)
        painter.setFont(_font(15))
        small = (
            f"Placa indicativa — {citation}. {doc.instrument.capitalize()} nº {doc.number}"
            f"{' · ' + doc.place if doc.place else ''} · validade {date_br(doc.valid_from)} a "
            f"{date_br(doc.valid_until)}."
        )
        painter.drawText(
            page.rect(margin, height_mm - margin - small_h + 6, width_mm - 2 * margin, small_h - 6),
            int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap),
            small,
        )
    finally:
        painter.end()
    return path


def _fit_wrapped(
    text: str, width_px: float, device, *, bold: bool, max_pt: float, min_pt: float, max_lines: int
) -> tuple[QFont, QFontMetricsF, list[str]]:
    """The largest font (down to ``min_pt``) at which ``text`` wraps into at most ``max_lines`` lines.

    The fewest lines whose font is still at least 60 % of ``max_pt`` win (a short name stays on
    one line); otherwise the layout with the largest font.
    """
    best: tuple[float, QFont, QFontMetricsF, list[str]] | None = None
    for lines_allowed in range(1, max_lines + 1):
        size = max_pt
        while True:
            font = _font(size, bold=bold)
            metrics = QFontMetricsF(font, device)
            lines = _wrap(text, metrics, width_px, width_px, 99)
            fits = len(lines) <= lines_allowed and all(metrics.horizontalAdvance(line) <= width_px for line in lines)
            if fits or size <= min_pt:
                break
            size = max(min_pt, size - max(1.0, size * 0.04))
        if fits and (best is None or size > best[0]):
            best = (size, font, metrics, lines)
        if fits and size >= 0.6 * max_pt:
            break
    if best is None:
        font = _font(min_pt, bold=bold)
        metrics = QFontMetricsF(font, device)
        return font, metrics, _wrap(text, metrics, width_px, width_px, max_lines)
    return best[1], best[2], best[3]


def _placard_lines(
    painter: QPainter,
    page: _Page,
    lines: Sequence[tuple[str, str]],
    rect_mm: tuple[float, float, float, float],
    ink: QColor,
) -> None:
    """Each line as large as its style allows and the width permits, centred; the block centred vertically."""
    x, y, w, h = rect_mm
    device = painter.device()
    gap = page.mm(14)
    laid: list[tuple[list[str], QFont, QFontMetricsF]] = []
    for scale in (1.0, 0.85, 0.72, 0.6, 0.5, 0.4):
        laid = []
        for text, style in lines:
            max_pt, bold = _PLACARD_STYLE[style]
            max_lines = 2 if style != "id" else 1
            font, metrics, wrapped = _fit_wrapped(
                text,
                page.mm(w),
                device,
                bold=bold,
                max_pt=max_pt * scale,
                min_pt=max_pt * scale * 0.35,
                max_lines=max_lines,
            )
            laid.append((wrapped, font, metrics))
        total = sum(len(wrapped) * m.lineSpacing() for wrapped, _f, m in laid) + gap * (len(laid) - 1)
        if total <= page.mm(h):
            break
    cursor = page.mm(y) + max(0.0, (page.mm(h) - total) / 2)
    painter.setPen(ink)
    for wrapped, font, metrics in laid:
        painter.setFont(font)
        for line in wrapped:
            painter.drawText(
                QRectF(page.mm(x), cursor, page.mm(w), metrics.lineSpacing()),
                int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
                line,
            )
            cursor += metrics.lineSpacing()
        cursor += gap
