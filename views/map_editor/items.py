"""A stall on the map: a thin view of the plan's box, outlined when in breach."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetricsF,
    QPainter,
    QPen,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
)

from models.sites.stall_plan import Box
from reports.site_map import stall_parts
from views.map_editor.style import BREACH, INK, KEPT, MUTED, SELECTED, SELECTED_FILL, SPOT, TOW, WHITE, colour_of

if TYPE_CHECKING:
    from views.map_editor.editor import MapEditor

#: The resize grip's side on screen, in pixels.
GRIP_PX = 9


class StallItem(QGraphicsRectItem):
    """A stall as the plan has it: white with its section's colour on the back, number, section and holder
    (simplified when zoomed out); red outline when in breach, orange dashed when the breach is kept."""

    def __init__(self, editor: MapEditor, box: Box):
        super().__init__()
        self.setPen(QPen(Qt.PenStyle.NoPen))  # the bounding rect is the footprint, exactly (kept by Qt, not asked)
        self.editor = editor
        self.uid = box.uid
        self.box = box
        self.state = ""  # "" | "breach" | "kept"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        # zoomed far out the scene draws every stall at once (MapScene.drawForeground): no paint call per stall
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, editor.scene.far)
        self.setAcceptHoverEvents(True)
        self.setZValue(1)
        self.show_box(box)

    def show_box(self, box: Box) -> None:
        self.box = box
        self.setRect(0, 0, box.along, box.across)
        self.setPos(box.x, box.y)
        self.update()

    def hoverEnterEvent(self, event) -> None:
        self.setToolTip(self.editor.describe(self.box))  # written when asked: cheap for thousands of stalls
        super().hoverEnterEvent(event)

    def hoverMoveEvent(self, event) -> None:
        lod = self.editor.view.px_per_mm()
        on_grip = (
            self.isSelected()
            and len(self.editor.scene.selectedItems()) == 1
            and self.has_grip(lod)
            and self.handle_rect(lod).contains(event.pos())
        )
        if on_grip:
            self.setCursor(Qt.CursorShape.SizeFDiagCursor if self.box.side == "a" else Qt.CursorShape.SizeBDiagCursor)
        else:
            self.setCursor(Qt.CursorShape.SizeAllCursor)
        super().hoverMoveEvent(event)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        box = self.box
        lod = option.levelOfDetailFromTransform(painter.worldTransform()) or 1e-6
        entry = self.editor.current_plan().entry(box)
        colour = colour_of(entry.hex)
        w, h = float(box.along), float(box.across)
        selected = self.isSelected()
        if min(w, h) * lod < SPOT:  # far away: a spot of colour (all of them far: MapScene.drawForeground)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(BREACH if self.state == "breach" else (SELECTED if selected else colour))
            painter.drawRect(QRectF(0, 0, w, h))
            return
        hitch = float(box.hitch)
        body, band, tow = stall_parts(w, h, hitch, box.rotation)
        if tow is not None:
            painter.setPen(QPen(MUTED, 0))
            painter.setBrush(TOW)
            painter.drawRect(QRectF(tow[0], tow[1], tow[2] - tow[0], tow[3] - tow[1]))
        body_rect = QRectF(body[0], body[1], body[2] - body[0], body[3] - body[1])
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(SELECTED_FILL if selected else WHITE)
        painter.drawRect(body_rect)
        painter.setBrush(colour)
        painter.drawRect(QRectF(band[0], band[1], band[2] - band[0], band[3] - band[1]))
        # outline inside the footprint (the bounding rect stays exact)
        if self.state:
            px = 3.0
            pen = QPen(BREACH if self.state == "breach" else KEPT, px)
            if self.state == "kept":
                pen.setStyle(Qt.PenStyle.DashLine)
        elif selected:
            px = 2.5
            pen = QPen(SELECTED, px)
        else:
            px = 1.0
            pen = QPen(colour.darker(135), px)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inset = px / 2 / lod
        painter.drawRect(body_rect.adjusted(inset, inset, -inset, -inset))
        if selected and len(self.editor.scene.selectedItems()) == 1 and self.has_grip(lod):
            handle = self.handle_rect(lod)
            painter.setPen(QPen(SELECTED, 0))
            painter.setBrush(WHITE)
            painter.drawRect(handle)
        self._paint_labels(painter, lod, body_rect, band)

    def has_grip(self, lod: float) -> bool:
        """A resize grip only where the stall is at least three grips across on screen: far out the 9-pixel grip
        would cover the whole stall, and a drag meant to move it resized it (issue 31 §6)."""
        return min(float(self.box.along), float(self.box.across)) * lod >= 3 * GRIP_PX

    def handle_rect(self, lod: float) -> QRectF:
        """The resize grip: the far corner from the stall's kerb, 9 px square."""
        size = GRIP_PX / lod
        w, h = float(self.box.along), float(self.box.across)
        y = h - size if self.box.side == "a" else 0.0
        return QRectF(w - size, y, size, size)

    def _paint_labels(self, painter: QPainter, lod: float, body: QRectF, band) -> None:
        box = self.box
        editor = self.editor
        wpx, hpx = body.width() * lod, body.height() * lod
        if min(wpx, hpx) < 12:
            return
        painter.save()
        painter.scale(1 / lod, 1 / lod)
        rect = QRectF(body.x() * lod, body.y() * lod, wpx, hpx)
        band_rect = QRectF(band[0] * lod, band[1] * lod, (band[2] - band[0]) * lod, (band[3] - band[1]) * lod)
        # the free (white) part takes the text
        if box.rotation == 0:
            free = QRectF(rect.x(), band_rect.bottom(), rect.width(), rect.bottom() - band_rect.bottom())
        elif box.rotation == 180:
            free = QRectF(rect.x(), rect.y(), rect.width(), band_rect.top() - rect.y())
        elif box.rotation == 90:
            free = QRectF(rect.x(), rect.y(), band_rect.left() - rect.x(), rect.height())
        else:
            free = QRectF(band_rect.right(), rect.y(), rect.right() - band_rect.right(), rect.height())
        font = QFont(painter.font())
        section = editor.current_plan().section_label(box)
        if band_rect.height() >= 11 and band_rect.width() >= 16 and box.rotation in (0, 180):
            font.setPixelSize(max(8, min(12, int(band_rect.height() * 0.75))))
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(WHITE)
            short = section.replace("Seção ", "")
            text = QFontMetricsF(font).elidedText(short, Qt.TextElideMode.ElideRight, band_rect.width() - 4)
            painter.drawText(band_rect, int(Qt.AlignmentFlag.AlignCenter), text)
            section = ""
        lines = [(str(box.number), True)]
        if free.height() >= 34 and free.width() >= 44:
            if section:
                lines.append((section, False))
            if box.holder:
                lines.append((f"{box.holder} · {box.holder_name or ''}".rstrip(" ·"), False))
            elif free.height() >= 44:
                lines.append((editor.tr("livre"), False))
        size = max(8, min(14, int(free.height() / (len(lines) + 0.6))))
        painter.setPen(INK)
        line_h = size * 1.25
        top = free.center().y() - line_h * len(lines) / 2
        for i, (text, bold) in enumerate(lines):
            font.setPixelSize(size if i == 0 else max(8, size - 3))
            font.setBold(bold)
            painter.setFont(font)
            painter.setPen(INK if i == 0 else MUTED)
            shown = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, free.width() - 4)
            painter.drawText(
                QRectF(free.x() + 2, top + i * line_h, free.width() - 4, line_h),
                int(Qt.AlignmentFlag.AlignCenter),
                shown,
            )
        painter.restore()
