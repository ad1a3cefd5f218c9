"""The placard shown at the stall, sized as the act sets it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
)

from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError
from models.permits.permit_doc import PermitDocument
from models.store.outfile import atomic_writer
from reports.permit_docs.common import (
    PLACARD_DEFAULT_MM,
    PageBox,
    begin_painting,
    doc_colour,
    draw_qr,
    make_font,
    pdf_writer,
)
from reports.permit_docs.text_boxes import draw_photo, wrap_lines
from reports.templating import date_br

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
    # the act may not ask for it, but the public verifies the stall with it (issue 32 §2): every signed placard
    # carries its QR
    want_qr = "qr-code" in contents or bool(doc.qr_text)
    if want_photo and not (doc.photo_path and Path(doc.photo_path).is_file()):
        raise UserError(f"A placa exige a foto do titular ({citation}): anexe a foto antes.", field="photo")
    if want_qr and not doc.qr_text:
        raise UserError(f"A placa exige o QR code ({citation}): assine o documento antes.", field="qr-code")

    background = doc_colour(placard.background, "#ffffff")
    ink = doc_colour(placard.text_colour, "#000000")
    path = Path(path)
    width_mm, height_mm = placard_size_mm(regime)
    writer = pdf_writer(
        path,
        width_mm,
        height_mm,
        f"Placa — {doc.display_company_name}",
        resolution=300,
        name=f"Placa {width_mm:g} × {height_mm:g} mm",
    )
    page = PageBox(writer)
    painter = begin_painting(writer, path)
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
                draw_photo(painter, page, (sx + (side_w - half) / 2, margin, half, half), doc.photo_path, "")
                draw_qr(painter, page.rect(sx + (side_w - half) / 2, margin + half + 10, half, half), doc.qr_text)
            elif want_qr:
                draw_qr(painter, page.rect(sx, margin, side_w, side_w), doc.qr_text)
            else:
                draw_photo(painter, page, (sx, margin, side_w, side_w), doc.photo_path, "")
        # the municipality's coat of arms at the foot's left, as tall as the foot (issue 31 §1: every letterhead)
        arms = QImage.fromData(doc.coat_of_arms) if doc.coat_of_arms else QImage()
        arms_w = 0.0
        if not arms.isNull() and arms.height():
            arms_w = small_h * arms.width() / arms.height()
            painter.drawImage(page.rect(margin, height_mm - margin - small_h, arms_w, small_h), arms)
            arms_w += 6.0
        painter.setPen(ink)
        painter.setFont(make_font(15))
        small = (
            f"Placa indicativa — {citation}. {doc.instrument.capitalize()} nº {doc.number}"
            f"{' · ' + doc.place if doc.place else ''} · validade {date_br(doc.valid_from)} a "
            f"{date_br(doc.valid_until)}."
        )
        painter.drawText(
            page.rect(margin + arms_w, height_mm - margin - small_h + 6, width_mm - 2 * (margin + arms_w), small_h - 6),
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
            font = make_font(size, bold=bold)
            metrics = QFontMetricsF(font, device)
            lines = wrap_lines(text, metrics, width_px, width_px, 99)
            fits = len(lines) <= lines_allowed and all(metrics.horizontalAdvance(line) <= width_px for line in lines)
            if fits or size <= min_pt:
                break
            size = max(min_pt, size - max(1.0, size * 0.04))
        if fits and (best is None or size > best[0]):
            best = (size, font, metrics, lines)
        if fits and size >= 0.6 * max_pt:
            break
    if best is None:
        font = make_font(min_pt, bold=bold)
        metrics = QFontMetricsF(font, device)
        return font, metrics, wrap_lines(text, metrics, width_px, width_px, max_lines)
    return best[1], best[2], best[3]


def _placard_lines(
    painter: QPainter,
    page: PageBox,
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
