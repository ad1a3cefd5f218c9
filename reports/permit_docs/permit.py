"""The permit on A4: HTML laid out by Qt's text engine, its photo and footer, written as PDF."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFontMetricsF,
    QImage,
    QPainter,
    QPen,
    QTextCharFormat,
    QTextDocument,
    QTextFormat,
)

from models.base.br import format_cnpj, format_cpf
from models.base.money import format_brl
from models.permits.permit_doc import PermitDocument
from models.store.outfile import atomic_writer
from reports.permit_docs.common import (
    A4_MARGINS_MM,
    BRAND,
    FOOTER_MM,
    MUTED,
    PageBox,
    begin_painting,
    document_title,
    draw_qr,
    long_date_br,
    make_font,
    pdf_writer,
    qr_side_mm,
    state_name,
)
from reports.templating import date_br, render

# --------------------------------------------------------------------------- permit (A4)

QR_RESOURCE = "praca-qr"  # a transparent placeholder in the HTML; the vector QR is painted over it
PHOTO_RESOURCE = "praca-photo"
ARMS_RESOURCE = "praca-coat-of-arms"  # the municipality's coat of arms beside the letterhead
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
                at = line.cursorToX(offset)  # (x, position) in PySide6 (its stub says object)
                first = at[0] if isinstance(at, tuple) else at
                x = float(first) if isinstance(first, (int, float)) else 0.0
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


#: The permit's QR: at least this side, and larger when its modules would be under ``QR_MODULE_MM``.
PERMIT_QR_MM = 27.0
PERMIT_QR_QUIET = 2


def permit_qr_mm(doc: PermitDocument) -> float:
    """The side of the permit's QR: 27 mm, or what its text needs for ``QR_MODULE_MM`` modules (issue 32 §2)."""
    return qr_side_mm(doc.qr_text, PERMIT_QR_QUIET, at_least=PERMIT_QR_MM) if doc.qr_text else PERMIT_QR_MM


def permit_html(doc: PermitDocument, *, qr_size_mm: float | None = None) -> str:
    """The permit as HTML (Qt's rich-text subset), from ``resources/templates/permit.html.j2``."""
    if qr_size_mm is None:
        qr_size_mm = permit_qr_mm(doc)
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
        money = format_brl(Decimal(doc.amount), currency=doc.currency)
        if doc.amount_basis:
            money = f"{money} ({doc.amount_basis})"
        term_rows.append((doc.amount_label, money))
    issued_at = doc.issued_at or dt.date.today()
    return render(
        "permit.html.j2",
        doc=doc,
        title=document_title(doc),
        state_name=state_name(doc.state),
        holder_rows=[r for r in holder_rows if r[1]],
        activity_rows=[r for r in activity_rows if r[1]],
        place_rows=[r for r in place_rows if r[1]],
        term_rows=[r for r in term_rows if r[1]],
        has_photo=doc.photo_path is not None and Path(doc.photo_path).is_file(),
        photo_src=PHOTO_RESOURCE,
        has_arms=bool(doc.coat_of_arms),
        arms_src=ARMS_RESOURCE,
        arms_px=round(18 * CSS_PX_PER_MM),
        qr_src=QR_RESOURCE,
        qr_px=round(qr_size_mm * CSS_PX_PER_MM),
        photo_w=round(25 * CSS_PX_PER_MM),
        photo_h=round(32 * CSS_PX_PER_MM),
        signature_anchor=SIGNATURE_ANCHOR,
        place_and_date=f"{doc.municipality}/{doc.state}, {long_date_br(issued_at)}.",
    )


@atomic_writer("path", kind="pdf")
def write_permit_pdf(doc: PermitDocument, path: Path, *, qr_size_mm: float | None = None) -> Path:
    """The permit on A4 pages, with the signed QR (when ``doc.qr_text``) in the heading."""
    path = Path(path)
    width_mm, height_mm = 210.0, 297.0
    writer = pdf_writer(
        path, width_mm, height_mm, f"{document_title(doc)} — {doc.holder_name}", resolution=600, name="A4"
    )
    page = PageBox(writer)
    left, top, right, bottom = A4_MARGINS_MM
    body = QRectF(
        page.mm(left), page.mm(top), page.mm(width_mm - left - right), page.mm(height_mm - top - bottom - FOOTER_MM)
    )

    text = QTextDocument()
    text.documentLayout().setPaintDevice(writer)
    text.setDefaultFont(make_font(9.5))
    text.setDocumentMargin(0)
    if doc.photo_path and Path(doc.photo_path).is_file():
        text.addResource(QTextDocument.ResourceType.ImageResource, QUrl(PHOTO_RESOURCE), QImage(str(doc.photo_path)))
    if doc.coat_of_arms:
        text.addResource(
            QTextDocument.ResourceType.ImageResource, QUrl(ARMS_RESOURCE), QImage.fromData(doc.coat_of_arms)
        )
    blank = QImage(8, 8, QImage.Format.Format_ARGB32)
    blank.fill(Qt.GlobalColor.transparent)
    text.addResource(QTextDocument.ResourceType.ImageResource, QUrl(QR_RESOURCE), blank)
    text.setHtml(permit_html(doc, qr_size_mm=qr_size_mm))
    text.setPageSize(QSizeF(body.width(), body.height()))
    _keep_together(text, SIGNATURE_ANCHOR, body.height())
    pages = text.pageCount()
    qr_rect = _image_rect(text, QR_RESOURCE) if doc.qr_text else None

    painter = begin_painting(writer, path)
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
                draw_qr(painter, qr_rect, doc.qr_text, quiet=PERMIT_QR_QUIET)
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
    painter: QPainter, page: PageBox, doc: PermitDocument, number: int, total: int, width_mm: float, height_mm: float
) -> None:
    left, _top, right, bottom = A4_MARGINS_MM
    y = height_mm - bottom - FOOTER_MM + 3.0
    painter.save()
    painter.setPen(QPen(BRAND, page.mm(0.25)))
    painter.drawLine(QPointF(page.mm(left), page.mm(y)), QPointF(page.mm(width_mm - right), page.mm(y)))
    painter.setPen(MUTED)
    painter.setFont(make_font(7))
    band = page.rect(left, y + 1.2, width_mm - left - right, 5)
    who = f"{document_title(doc)} · {doc.holder_name} · {doc.citation}"
    metrics = QFontMetricsF(painter.font(), painter.device())
    who = metrics.elidedText(who, Qt.TextElideMode.ElideRight, band.width() * 0.8)
    painter.drawText(band, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), who)
    painter.drawText(band, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop), f"Página {number} de {total}")
    painter.restore()
