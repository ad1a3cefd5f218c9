"""Text boxes drawn with QPainter: fields wrapped and fitted to their width, and the holder's photo."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPen,
)

from reports.permit_docs.common import INK, MUTED, PageBox, make_font

# --------------------------------------------------------------------------- text boxes for QPainter


@dataclass
class BoxField:
    label: str
    value: str
    max_lines: int = 2
    bold: bool = False


def draw_fields(
    painter: QPainter,
    page: PageBox,
    rect_mm: tuple[float, float, float, float],
    fields: Iterable[BoxField],
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
    page: PageBox,
    rect_mm,
    fields: Sequence[BoxField],
    size: float,
    label_colour: QColor,
    gap_mm: float,
    *,
    draw: bool,
) -> float:
    x, y, w, _h = rect_mm
    label_font = make_font(size * 0.78, bold=True)
    value_font = make_font(size)
    value_bold = make_font(size, bold=True)
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
        lines = wrap_lines(item.value, metrics, page.mm(w) - label_w, page.mm(w), item.max_lines)
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


def wrap_lines(text: str, metrics: QFontMetricsF, first_width: float, width: float, max_lines: int) -> list[str]:
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


def fit_point_size(text: str, width_px: float, device, *, bold: bool, max_pt: float, min_pt: float) -> float:
    size = max_pt
    while size > min_pt:
        if QFontMetricsF(make_font(size, bold=bold), device).horizontalAdvance(text) <= width_px:
            return size
        size -= 0.25 if max_pt < 20 else 2
    return min_pt


def draw_photo(
    painter: QPainter,
    page: PageBox,
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
        painter.setFont(make_font(7, bold=True))
        upper = QRectF(rect.x(), rect.y(), rect.width(), rect.height() * 0.55)
        painter.drawText(upper, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom), "FOTO")
        painter.setFont(make_font(4.5))
        lower = QRectF(rect.x(), rect.y() + rect.height() * 0.58, rect.width(), rect.height() * 0.4)
        painter.drawText(lower, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop), caption)
    painter.restore()
