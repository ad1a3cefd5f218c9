"""The ID card (front and back) of a permit's holder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPen,
)

from models.permits.permit_doc import PermitDocument
from models.store.outfile import atomic_writer
from reports.permit_docs.common import (
    ACCENT,
    BRAND,
    BRAND_LIGHT,
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    INK,
    MUTED,
    PageBox,
    begin_painting,
    draw_qr,
    holder_document_line,
    make_font,
    pdf_writer,
    short_instrument,
)
from reports.permit_docs.text_boxes import BoxField, draw_fields, draw_photo, fit_point_size, wrap_lines
from reports.templating import date_br

# --------------------------------------------------------------------------- ID card


@atomic_writer("path", kind="pdf")
def write_id_card_pdf(doc: PermitDocument, path: Path) -> Path:
    """The ID card: page 1 the front, page 2 the back with the QR; each exactly 85,6 × 53,98 mm of drawing."""
    path = Path(path)
    writer = pdf_writer(
        path, CARD_WIDTH_MM, CARD_HEIGHT_MM, f"{doc.card_title} — {doc.holder_name}", name="ID-1 85,6 × 53,98 mm"
    )
    page = PageBox(writer)
    painter = begin_painting(writer, path)
    try:
        _card_front(painter, page, doc)
        writer.newPage()
        _card_back(painter, page, doc)
    finally:
        painter.end()
    return path


def _card_band(painter: QPainter, page: PageBox, doc: PermitDocument, height: float, subtitle: str) -> None:
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, CARD_HEIGHT_MM + 1), QColor("#ffffff"))
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, height), BRAND)
    painter.fillRect(page.rect(0, height, CARD_WIDTH_MM + 1, 0.6), ACCENT)
    left = 3.0 + _coat_of_arms(painter, page, doc.coat_of_arms, height)  # the municipality's, in the band
    heading = f"PREFEITURA MUNICIPAL DE {doc.municipality.upper()}/{doc.state.upper()}"
    width = page.mm(CARD_WIDTH_MM - 3 - left)
    size = fit_point_size(heading, width, painter.device(), bold=True, max_pt=7.0, min_pt=4.8)
    painter.setPen(QColor("#ffffff"))
    painter.setFont(make_font(size, bold=True))
    painter.drawText(
        page.rect(left, 0.9, CARD_WIDTH_MM - 3 - left, height * 0.55),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        heading,
    )
    painter.setPen(QColor("#d7e4de"))
    sub_size = fit_point_size(subtitle, width, painter.device(), bold=False, max_pt=5.0, min_pt=3.8)
    painter.setFont(make_font(sub_size))
    painter.drawText(
        page.rect(left, height * 0.55, CARD_WIDTH_MM - 3 - left, height * 0.4),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        subtitle,
    )


def _coat_of_arms(painter: QPainter, page: PageBox, data: bytes, band: float) -> float:
    """The municipality's coat of arms at the band's left, ``band`` − 1,6 mm tall; the width it takes (0 without)."""
    image = QImage.fromData(data) if data else QImage()
    if image.isNull():
        return 0.0
    tall = band - 1.6
    wide = tall * image.width() / image.height()
    painter.drawImage(page.rect(2.2, 0.8, wide, tall), image)
    return wide  # the text starts 0,8 mm after it: 2,2 + wide + 0,8 = 3 + wide


def _card_front(painter: QPainter, page: PageBox, doc: PermitDocument) -> None:
    band = 9.2
    subtitle = doc.card_title.upper()
    if doc.agency:
        subtitle += f" · {doc.agency}"
    _card_band(painter, page, doc, band, subtitle)

    # photo 2 × 2 cm (Dec. 890/2017, art. 8º, I) and the permit number under it
    photo = (3.0, band + 2.2, 20.0, 20.0)
    draw_photo(painter, page, photo, doc.photo_path)
    number_top = photo[1] + photo[3] + 1.3
    painter.setPen(MUTED)
    painter.setFont(make_font(4.2, bold=True))
    painter.drawText(
        page.rect(3, number_top, 20, 2.2), int(Qt.AlignmentFlag.AlignHCenter), short_instrument(doc.instrument)
    )
    size = fit_point_size(f"Nº {doc.number}", page.mm(20), painter.device(), bold=True, max_pt=7.5, min_pt=4.5)
    painter.setPen(INK)
    painter.setFont(make_font(size, bold=True))
    painter.drawText(page.rect(3, number_top + 2.0, 20, 3.6), int(Qt.AlignmentFlag.AlignHCenter), f"Nº {doc.number}")

    # name and the fields, right of the photo
    x, right = 25.5, CARD_WIDTH_MM - 3.0
    width = right - x
    top = band + 2.0
    name_size = fit_point_size(doc.holder_name, page.mm(width), painter.device(), bold=True, max_pt=8.5, min_pt=6.0)
    name_font = make_font(name_size, bold=True)
    metrics = QFontMetricsF(name_font, painter.device())
    name_lines = wrap_lines(doc.holder_name, metrics, page.mm(width), page.mm(width), 2)
    painter.setFont(name_font)
    painter.setPen(INK)
    for index, line in enumerate(name_lines):
        painter.drawText(QPointF(page.mm(x), page.mm(top) + metrics.ascent() + index * metrics.lineSpacing()), line)
    top += len(name_lines) * metrics.lineSpacing() * 25.4 / page.dpi + 0.6

    ids = [BoxField(label, value, 1) for label, value in holder_document_line(doc)]
    if doc.rg:
        ids.append(BoxField("RG", doc.rg, 1))
    fields = [
        *ids,
        BoxField("Atividade", doc.kind_label, 2),
        BoxField("Ramo", doc.product_line, 2),
        BoxField("Local", doc.place, 2),
        BoxField("Horário", ", ".join(p for p in (doc.days, doc.hours) if p), 2),
        BoxField("Equipamento", " — ".join(p for p in (doc.equipment, doc.equipment_size) if p), 1),
    ]
    validity_top = CARD_HEIGHT_MM - 8.2
    draw_fields(painter, page, (x, top, width, validity_top - 0.8 - top), fields)

    # validity strip
    painter.fillRect(page.rect(0, validity_top, CARD_WIDTH_MM + 1, CARD_HEIGHT_MM - validity_top + 1), BRAND_LIGHT)
    painter.fillRect(page.rect(0, validity_top, 1.6, CARD_HEIGHT_MM - validity_top + 1), BRAND)
    painter.setPen(BRAND)
    painter.setFont(make_font(4.4, bold=True))
    painter.drawText(page.rect(3.0, validity_top + 1.0, 30, 2.4), int(Qt.AlignmentFlag.AlignLeft), "VALIDADE")
    painter.setPen(INK)
    painter.setFont(make_font(7.6, bold=True))
    painter.drawText(
        page.rect(3.0, validity_top + 3.1, 50, 4.2),
        int(Qt.AlignmentFlag.AlignLeft),
        f"{date_br(doc.valid_from)} a {date_br(doc.valid_until)}",
    )
    citation = doc.act_short or doc.act
    if doc.card_basis:
        citation = f"{citation}, {doc.card_basis}"
    painter.setPen(MUTED)
    painter.setFont(make_font(4.0))
    painter.drawText(
        page.rect(48, validity_top + 1.0, CARD_WIDTH_MM - 51, 6.4),
        int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap),
        f"Documento de porte obrigatório\n{citation}",
    )


def _card_back(painter: QPainter, page: PageBox, doc: PermitDocument) -> None:
    band = 5.6
    _card_band(painter, page, doc, band, "")
    # the band on the back holds one line: redraw it centred vertically
    painter.fillRect(page.rect(0, 0, CARD_WIDTH_MM + 1, band), BRAND)
    painter.setPen(QColor("#ffffff"))
    heading = f"{doc.card_title.upper()} · {doc.instrument.upper()} Nº {doc.number}"
    size = fit_point_size(heading, page.mm(CARD_WIDTH_MM - 6), painter.device(), bold=True, max_pt=5.6, min_pt=4.0)
    painter.setFont(make_font(size, bold=True))
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
        painter.setFont(make_font(5))
        painter.drawText(page.rect(*qr_rect), int(Qt.AlignmentFlag.AlignCenter), "sem QR code")

    x = qr_rect[0] + qr_side + 1.0
    width = CARD_WIDTH_MM - 2.6 - x
    top = band + 2.0
    issued = date_br(doc.issued_at) if doc.issued_at else ""
    if isinstance(doc.issued_at, dt.datetime):
        issued = doc.issued_at.strftime("%d/%m/%Y")
    fields = [
        BoxField("Nº de identificação", doc.holder_id_number, 1),
        BoxField("Cadastro municipal", doc.municipal_registration, 1),
        BoxField("Nome fantasia", doc.trade_name, 1),
        BoxField("Endereço", doc.address, 3),
        BoxField("Processo nº", doc.process_number, 1),
        BoxField("Grupo", doc.product_group, 2),
        BoxField("Seção", doc.section, 1),
        BoxField("Expedido em", " por ".join(p for p in (issued, doc.issued_by) if p), 2),
        BoxField("Fundamento", doc.citation, 3),
    ]
    foot_h = 6.0
    draw_fields(
        painter,
        page,
        (x, top, width, CARD_HEIGHT_MM - foot_h - top - 0.6),
        fields,
        sizes=(5.4, 5.1, 4.8, 4.5, 4.2, 3.9),
    )
    painter.setPen(MUTED)
    painter.setFont(make_font(3.9))
    painter.drawText(
        page.rect(x, CARD_HEIGHT_MM - foot_h, width, foot_h - 1.2),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap),
        "Autenticidade: leia o QR code. A assinatura digital da Prefeitura confere titular, local e validade.",
    )
