"""Drawing in millimetres on a page: the canvas and the small texts every page repeats."""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPen,
)

from models.rules.regimes import RegimeError, get_regime
from models.sites.layout import format_metres
from reports.qt_fonts import FAMILY
from reports.site_map.geometry import INK

# --------------------------------------------------------------------------- drawing in millimetres


class Canvas:
    """A painter that takes millimetres: ``k`` device units per mm."""

    def __init__(self, painter: QPainter, k: float):
        self.p = painter
        self.k = k

    def r(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(x * self.k, y * self.k, w * self.k, h * self.k)

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.k, y * self.k)

    def font(self, size: float, *, bold: bool = False, italic: bool = False) -> QFont:
        font = QFont(FAMILY)  # shipped and registered (reports/qt_fonts.py)
        font.setPixelSize(max(1, round(size * self.k)))
        font.setBold(bold)
        font.setItalic(italic)
        self.p.setFont(font)
        return font

    def pen(self, colour: str | QColor = INK, width: float = 0.2, style=Qt.PenStyle.SolidLine) -> None:
        pen = QPen(QColor(colour))
        pen.setWidthF(max(0.5, width * self.k))
        pen.setStyle(style)
        self.p.setPen(pen)

    def no_pen(self) -> None:
        self.p.setPen(Qt.PenStyle.NoPen)

    def brush(self, colour: str | QColor | None, style=Qt.BrushStyle.SolidPattern) -> None:
        self.p.setBrush(Qt.BrushStyle.NoBrush if colour is None else QBrush(QColor(colour), style))

    def rect(self, x, y, w, h) -> None:
        self.p.drawRect(self.r(x, y, w, h))

    def line(self, x0, y0, x1, y1) -> None:
        self.p.drawLine(self.pt(x0, y0), self.pt(x1, y1))

    def text(self, x, y, w, h, text: str, flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter) -> None:
        self.p.drawText(self.r(x, y, w, h), int(flags), text)

    def width_of(self, text: str) -> float:
        return QFontMetricsF(self.p.font()).horizontalAdvance(text) / self.k

    def elided(self, text: str, width: float) -> str:
        return QFontMetricsF(self.p.font()).elidedText(text, Qt.TextElideMode.ElideRight, width * self.k)


def export_regime(export: dict):
    try:
        return get_regime(export["site"]["regime"])
    except (RegimeError, KeyError):
        return None


def today_text() -> str:
    return _dt.date.today().strftime("%d/%m/%Y")


def metres_text(value) -> str:
    return format_metres(Decimal(value) if not isinstance(value, Decimal) else value)


def segment_title(seg: dict) -> str:
    if seg.get("from") and seg.get("to"):
        return f"{seg['street']}, entre {seg['from']} e {seg['to']}"
    return seg["street"]
