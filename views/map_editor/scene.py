"""The scene: the segment to scale (street, sidewalks, obstacles), the stalls, and the clerk's gestures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPen,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsScene,
)

from models.sites.layout import format_metres
from models.sites.stall_plan import GRID
from reports.site_map import OBSTACLE_MARKS
from views.blocks import fill
from views.map_editor.items import StallItem
from views.map_editor.style import (
    ASPHALT,
    BREACH,
    BREACH_HATCH,
    END_BAND,
    HATCH,
    INK,
    KERB,
    MUTED,
    OBSTACLE_COLOURS,
    OBSTACLE_DEFAULT,
    PAPER,
    PERMIT_MIME,
    SELECTED,
    SIDEWALK,
    SIDEWALK_COLOUR,
    STREET_NAME,
    TREE_CROWN,
    WHITE,
    colour_of,
    grid_pen_colour,
)

if TYPE_CHECKING:
    from views.map_editor.editor import MapEditor


@dataclass
class _Gesture:
    kind: str  # "move" | "resize"
    press: QPointF
    uids: list[int]
    changes: dict


class MapScene(QGraphicsScene):
    """The street and its stalls; mouse drags preview on the items and push one command on release."""

    def __init__(self, editor: MapEditor):
        super().__init__(editor)
        self.editor = editor
        self.gesture: _Gesture | None = None
        self.far = False  # every stall under SPOT pixels: drawn here as spots, the items paint nothing
        self._spots: list[tuple[QColor, list[QRectF]]] | None = None

    def spots_changed(self) -> None:
        """A stall moved, changed state or was (de)selected: the spots are drawn afresh."""
        self._spots = None
        if self.far:
            self.update()

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """Far out, the stalls as spots of their colour (red in breach, blue selected), one call per colour —
        what each stall would paint, without thousands of calls into Python (Qt's chip example: level of
        detail)."""
        if not self.far or self.editor.plan is None:
            return
        if self._spots is None:
            groups: dict[str, tuple[QColor, list[QRectF]]] = {}
            plan = self.editor.plan
            for item in self.editor.items.values():
                box = item.box
                colour = (
                    BREACH
                    if item.state == "breach"
                    else SELECTED
                    if item.isSelected()
                    else colour_of(plan.entry(box).hex)
                )
                groups.setdefault(colour.name(), (colour, []))[1].append(QRectF(box.x, box.y, box.along, box.across))
            self._spots = list(groups.values())
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, rects in self._spots:
            painter.setBrush(colour)
            painter.drawRects(rects)

    # -- what is drawn under the stalls ----------------------------------------
    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        rect = QRectF(rect)
        painter.fillRect(rect, PAPER)
        plan = self.editor.plan
        if plan is None:
            return
        length, width = float(plan.length), float(plan.width)
        lod = QStyleOptionLod.of(painter)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(SIDEWALK_COLOUR)
        painter.drawRect(QRectF(0, -SIDEWALK, length, SIDEWALK))
        painter.drawRect(QRectF(0, width, length, SIDEWALK))
        painter.setBrush(ASPHALT)
        painter.drawRect(QRectF(0, 0, length, width))
        for x in (-END_BAND, length):  # the cross streets
            painter.drawRect(QRectF(x, -SIDEWALK, END_BAND, width + 2 * SIDEWALK))
        kerb = QPen(KERB, 1.5)
        kerb.setCosmetic(True)
        painter.setPen(kerb)
        painter.drawLine(QPointF(0, 0), QPointF(length, 0))
        painter.drawLine(QPointF(0, width), QPointF(length, width))
        painter.drawLine(QPointF(0, -SIDEWALK), QPointF(0, width + SIDEWALK))
        painter.drawLine(QPointF(length, -SIDEWALK), QPointF(length, width + SIDEWALK))
        centre = QPen(WHITE, 1.5, Qt.PenStyle.DashLine)
        centre.setCosmetic(True)
        painter.setPen(centre)
        painter.drawLine(QPointF(0, width / 2), QPointF(length, width / 2))
        if plan.plan.segment.sides == "one":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(HATCH, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(QRectF(0, width / 2, length, width / 2))
        self._paint_grid(painter, rect, lod, length, width)
        self._paint_obstacles(painter, lod, width)
        self._paint_texts(painter, rect, lod, length, width)

    def _paint_grid(self, painter: QPainter, rect: QRectF, lod: float, length: float, width: float) -> None:
        # the 0,10 m grid when it is far enough apart to help; 1 m lines otherwise
        for step, alpha in ((GRID, 18), (1000, 30)):
            if step * lod < 6:
                continue
            pen = QPen(grid_pen_colour(alpha), 0)
            painter.setPen(pen)
            x0 = max(0.0, (rect.left() // step) * step)
            x1 = min(length, rect.right())
            x = x0
            while x <= x1:
                painter.drawLine(QPointF(x, 0), QPointF(x, width))
                x += step
            y = 0.0
            while y <= width:
                painter.drawLine(QPointF(max(0.0, rect.left()), y), QPointF(x1, y))
                y += step
            break

    def _paint_obstacles(self, painter: QPainter, lod: float, width: float) -> None:
        plan = self.editor.current_plan()
        kept_free = plan.kept_free()
        for obstacle in plan.plan.obstacles:
            start = float(obstacle.start) * 1000
            extent = max(float(obstacle.extent) * 1000, 4 / lod)
            colour = QColor(OBSTACLE_COLOURS.get(obstacle.kind, OBSTACLE_DEFAULT))
            for side in ("a", "b") if obstacle.side == "both" else (obstacle.side,):
                y = -SIDEWALK if side == "a" else width
                painter.setPen(QPen(colour.darker(130), 0))
                if obstacle.kind == "tree":
                    painter.setBrush(TREE_CROWN)
                    d = min(SIDEWALK * 0.9, max(extent, 1000.0))
                    painter.drawEllipse(QRectF(start + extent / 2 - d / 2, y + (SIDEWALK - d) / 2, d, d))
                else:
                    painter.setBrush(colour)
                    painter.drawRect(QRectF(start, y + SIDEWALK * 0.15, extent, SIDEWALK * 0.7))
                if obstacle.kind in kept_free:
                    painter.setPen(QPen(BREACH, 0, Qt.PenStyle.DashLine))
                    painter.setBrush(QBrush(BREACH_HATCH, Qt.BrushStyle.BDiagPattern))
                    if obstacle.kind == "crossing" and obstacle.side == "both":
                        painter.drawRect(QRectF(start, 0, extent, width))
                    else:
                        lane = min(width / 2, 3000.0)
                        painter.drawRect(QRectF(start, 0 if side == "a" else width - lane, extent, lane))
                mark = OBSTACLE_MARKS.get(obstacle.kind, "")
                if mark and extent * lod >= 12 and SIDEWALK * lod >= 12:
                    self._text(painter, lod, QRectF(start, y, extent, SIDEWALK), mark, 10, WHITE, bold=True)

    def _text(
        self,
        painter: QPainter,
        lod: float,
        rect: QRectF,
        text: str,
        px: int,
        colour: QColor,
        *,
        bold: bool = False,
        align=Qt.AlignmentFlag.AlignCenter,
        rotate: bool = False,
    ) -> None:
        """Text ``px`` pixels high whatever the zoom, in the scene ``rect``."""
        painter.save()
        font = QFont(painter.font())
        font.setPixelSize(px)
        font.setBold(bold)
        painter.setFont(font)
        painter.setPen(colour)
        centre = rect.center()
        painter.translate(centre)
        painter.scale(1 / lod, 1 / lod)
        w, h = rect.width() * lod, rect.height() * lod
        if rotate:
            painter.rotate(-90)
            w, h = h, w
        painter.drawText(QRectF(-w / 2, -h / 2, w, h), int(align), text)
        painter.restore()

    def _paint_texts(self, painter: QPainter, rect: QRectF, lod: float, length: float, width: float) -> None:
        plan = self.editor.current_plan()
        segment = plan.plan.segment
        # the streets at each end
        for x, name in ((-END_BAND, segment.from_street), (length, segment.to_street)):
            if name:
                self._text(
                    painter,
                    lod,
                    QRectF(x, -SIDEWALK, END_BAND, width + 2 * SIDEWALK),
                    name,
                    13,
                    INK,
                    bold=True,
                    rotate=True,
                )
        # the street's own name and the sides, every so often (fixed places: the same whatever is exposed)
        every = 30_000.0
        while every * lod < 600:
            every *= 2
        x = every / 2
        while x < length:
            if rect.left() - every < x < rect.right() + every:
                self._text(
                    painter,
                    lod,
                    QRectF(x - every / 2, width / 2 - 600 / lod, every, 1200 / lod),
                    segment.street,
                    13,
                    STREET_NAME,
                    bold=True,
                )
                if SIDEWALK * lod >= 11:
                    for y, label in ((-SIDEWALK, self.editor.tr("Lado A")), (width, self.editor.tr("Lado B"))):
                        self._text(painter, lod, QRectF(x - every / 2, y, every, SIDEWALK), label, 11, MUTED)
            x += every
        # the ruler: metres along the street
        step = 1000
        for candidate in (1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000):
            step = candidate
            if candidate * lod >= 70:
                break
        pen = QPen(MUTED, 0)
        painter.setPen(pen)
        x = max(0, int(rect.left() // step) * step)
        while x <= min(length, rect.right() + step):
            painter.setPen(pen)
            painter.drawLine(QPointF(x, -SIDEWALK - 6 / lod), QPointF(x, -SIDEWALK))
            label = format_metres(int(x), mm=True).replace(",00", "")
            self._text(
                painter,
                lod,
                QRectF(x - 50 / lod, -SIDEWALK - 22 / lod, 100 / lod, 15 / lod),
                label,
                10,
                MUTED,
                align=Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
            )
            x += step

    # -- gestures --------------------------------------------------------------
    def stall_at(self, pos: QPointF) -> StallItem | None:
        for item in self.items(pos):
            if isinstance(item, StallItem):
                return item
        return None

    def _lod(self) -> float:
        views = self.views()
        return views[0].transform().m11() if views else 1.0

    def mousePressEvent(self, event) -> None:
        editor = self.editor
        if event.button() == Qt.MouseButton.LeftButton and editor.plan is not None:
            item = self.stall_at(event.scenePos())
            if item is not None:
                mods = event.modifiers()
                if mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
                    item.setSelected(not item.isSelected())
                    event.accept()
                    return
                if (
                    item.isSelected()
                    and len(self.selectedItems()) == 1
                    and item.has_grip(self._lod())
                    and item.handle_rect(self._lod()).contains(item.mapFromScene(event.scenePos()))
                ):
                    self.gesture = _Gesture("resize", event.scenePos(), [item.uid], {})
                    event.accept()
                    return
                if not item.isSelected():
                    self.clearSelection()
                    item.setSelected(True)
                self.gesture = _Gesture("move", event.scenePos(), editor.selected_uids(), {})
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        gesture = self.gesture
        if gesture is None:
            super().mouseMoveEvent(event)
            return
        plan = self.editor.current_plan()
        pos = event.scenePos()
        if gesture.kind == "move":
            dx, dy = round(pos.x() - gesture.press.x()), round(pos.y() - gesture.press.y())
            snap = not (event.modifiers() & Qt.KeyboardModifier.AltModifier)
            gesture.changes = plan.moved(gesture.uids, dx, dy, snap=snap, tolerance=max(GRID, round(8 / self._lod())))
        else:
            box = plan.stalls[gesture.uids[0]]
            dx, dy = pos.x() - gesture.press.x(), pos.y() - gesture.press.y()
            along = round((box.along + dx) / GRID) * GRID
            across = round((box.across + (dy if box.side == "a" else -dy)) / GRID) * GRID
            if box.rotation % 180 == 0:
                front, depth = along - box.hitch, across
            else:
                front, depth = across - box.hitch, along
            gesture.changes, limit, _clamped = plan.resized(box.uid, front, depth)
            self.editor.show_status(
                fill(self.editor.tr("Limite: %1"), limit.text) + (f" ({limit.basis})" if limit.basis else "")
            )
        for uid in gesture.uids:
            item = self.editor.items.get(uid)
            if item is not None:
                item.show_box(gesture.changes.get(uid) or plan.stalls[uid])
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        gesture = self.gesture
        if gesture is None or event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        self.gesture = None
        editor = self.editor
        if gesture.changes:
            if gesture.kind == "move":
                editor.push(gesture.changes, editor.moving_text(gesture.uids))
            else:
                box = editor.current_plan().stalls[gesture.uids[0]]
                editor.push(gesture.changes, fill(editor.tr("Redimensionar banca %1"), str(box.number)))
        event.accept()

    def cancel_gesture(self) -> bool:
        if self.gesture is None:
            return False
        for uid in self.gesture.uids:
            stalls = self.editor.current_plan().stalls
            if uid in self.editor.items and uid in stalls:
                self.editor.items[uid].show_box(stalls[uid])
        self.gesture = None
        return True

    # -- holders dropped on a stall --------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(PERMIT_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(PERMIT_MIME):
            item = self.stall_at(event.scenePos())
            event.setAccepted(item is not None)
            if item is not None:
                event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(PERMIT_MIME):
            super().dropEvent(event)
            return
        item = self.stall_at(event.scenePos())
        if item is None:
            event.ignore()
            return
        permit_id = int(bytes(event.mimeData().data(PERMIT_MIME)).decode())
        self.editor.assign(item.uid, permit_id)
        event.acceptProposedAction()


class QStyleOptionLod:
    """The level of detail (pixels per millimetre) of a painter, as Qt's items compute it."""

    @staticmethod
    def of(painter: QPainter) -> float:
        t: QTransform = painter.worldTransform()
        from math import hypot

        return hypot(t.m11(), t.m12()) or 1e-6
