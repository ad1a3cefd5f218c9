"""The view and its overlays: zoom and pan, the scale bar, the legend."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QFont,
    QPainter,
    QPen,
    QTransform,
)
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsView,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from models.sites.stall_plan import NUDGE, NUDGE_LARGE
from views import theme
from views.blocks import fill
from views.map_editor.scene import MapScene
from views.map_editor.style import END_BAND, INK, LEGEND_BORDER, OVERLAY, RULER, SIDEWALK, WHITE

if TYPE_CHECKING:
    from views.map_editor.editor import MapEditor


class ScaleBar(QWidget):
    """A scale bar for the current zoom, over the map's bottom right corner."""

    def __init__(self, view: MapView):
        super().__init__(view.viewport())
        self.view = view
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.resize(220, 40)

    def metres(self) -> tuple[float, float]:
        """(metres, pixels) of the bar."""
        px_per_m = self.view.transform().m11() * 1000
        metres = 0.1
        for candidate in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
            if candidate * px_per_m <= 180:
                metres = float(candidate)
        return metres, metres * px_per_m

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), OVERLAY)
        metres, px = self.metres()
        x0, y0 = 10.0, 24.0
        for i in range(4):
            painter.setPen(QPen(INK, 1))
            painter.setBrush(INK if i % 2 == 0 else WHITE)
            painter.drawRect(QRectF(x0 + i * px / 4, y0, px / 4, 6))
        font = QFont(self.font())
        font.setPixelSize(11)
        painter.setFont(font)
        painter.setPen(INK)
        label = f"{metres:g}".replace(".", ",") + " m"
        painter.drawText(
            QRectF(x0, 4, 200, 16),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            fill(self.tr("Escala: %1"), label),
        )
        painter.end()


class LegendOverlay(QFrame):
    """The colours of the stalls with their article, over the map's bottom left corner."""

    def __init__(self, view: MapView):
        super().__init__(view.viewport())
        self.setObjectName("legend")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        # drawn on the map's own white ground: dark ink on any palette
        self.setStyleSheet(
            f"#legend {{ background: rgba(255,255,255,225); border: 1px solid {LEGEND_BORDER.name()}; }}"
            f"QLabel {{ background: transparent; color: {INK.name()}; }}"
        )
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(8, 6, 8, 6)
        self.layout_.setSpacing(2)
        self.entries: list = []

    def set_entries(self, entries, extra: list[str]) -> None:
        if (list(entries), list(extra)) == (self.entries, getattr(self, "extra", None)):
            return
        self.extra = list(extra)
        self.entries = list(entries)
        while self.layout_.count():
            item = self.layout_.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        title = QLabel(self.tr("<b>Legenda</b>"))
        self.layout_.addWidget(title)
        for entry in entries:
            swatch = (
                f"<span style='background:{entry.hex}; color:{entry.hex}'>&nbsp;&nbsp;&nbsp;</span>"
                f"<span style='background:{WHITE.name()}; color:{WHITE.name()}; border:1px solid {entry.hex}'>"
                "&nbsp;&nbsp;&nbsp;</span>"
            )
            basis = (
                f' <span style="color:{theme.on_paper("muted")}">({escape(entry.basis)})</span>' if entry.basis else ""
            )
            label = QLabel(f"{swatch} <b>{escape(entry.label)}</b> — {escape(entry.detail)}{basis}")
            label.setObjectName("legend-entry")
            self.layout_.addWidget(label)
        for text in extra:
            self.layout_.addWidget(QLabel(text))
        for index in range(self.layout_.count()):  # shown now: a label added to a shown legend would otherwise
            item = self.layout_.itemAt(index)  # appear only after the legend was sized without it
            shown = item.widget() if item is not None else None
            if shown is not None:
                shown.show()
        self.adjustSize()


class MapView(QGraphicsView):
    zoomed = Signal()

    MIN_PX_PER_MM = 0.0004
    MAX_PX_PER_MM = 1.5

    def __init__(self, editor: MapEditor, scene: MapScene):
        super().__init__(scene)
        self.editor = editor
        self.setObjectName("map-view")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPointF | None = None
        self._space = False
        self.scale_bar = ScaleBar(self)
        self.legend = LegendOverlay(self)
        self.zoomed.connect(self.scale_bar.update)

    def px_per_mm(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, *, anchor_under_mouse: bool = True) -> None:
        current = self.px_per_mm()
        target = min(self.MAX_PX_PER_MM, max(self.MIN_PX_PER_MM, current * factor))
        if target == current:
            return
        if not anchor_under_mouse:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.scale(target / current, target / current)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        if not anchor_under_mouse:  # by keyboard or toolbar: what the clerk works on stays in the middle
            focus = self.focus_rect()
            if not focus.isEmpty():
                self.centerOn(focus.center())
        self.zoomed.emit()

    def focus_rect(self) -> QRectF:
        """Where a keyboard zoom centres: the selected stalls, else the stalls in view, else all of them."""
        items = self.editor.items
        chosen = [items[uid] for uid in self.editor.selected_uids() if uid in items]
        if not chosen:
            seen = self.mapToScene(self.viewport().rect()).boundingRect()
            chosen = [item for item in items.values() if item.sceneBoundingRect().intersects(seen)]
        chosen = chosen or list(items.values())
        rect = QRectF()
        for item in chosen:
            rect = rect.united(item.sceneBoundingRect())
        return rect

    def street_rect(self) -> QRectF:
        plan = self.editor.plan
        if plan is None:
            return QRectF()
        return QRectF(
            -END_BAND - 1000,
            -SIDEWALK - RULER,
            plan.length + 2 * END_BAND + 2000,
            plan.width + 2 * SIDEWALK + RULER + 1000,
        )

    def fit(self) -> None:
        """The whole street in the window."""
        rect = self.street_rect()
        if not rect.isEmpty():
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            self.zoomed.emit()

    def fit_across(self) -> None:
        """The street's width filling the window's height, from its start: where a clerk reads the stalls."""
        rect = self.street_rect()
        if rect.isEmpty():
            return
        viewport = self.viewport().rect()
        room = self.legend.height() + 24  # the legend stays under the street
        factor = max(50, viewport.height() - room - 16) / rect.height()
        factor = min(self.MAX_PX_PER_MM, max(factor, viewport.width() / rect.width()))
        self.setTransform(QTransform.fromScale(factor, factor))
        self.centerOn(
            rect.left() + viewport.width() / 2 / factor, rect.top() - 8 / factor + viewport.height() / 2 / factor
        )
        self.zoomed.emit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_overlays()

    def _place_overlays(self) -> None:
        vp = self.viewport().rect()
        self.legend.adjustSize()
        self.legend.move(8, vp.bottom() - self.legend.height() - 8)
        x, y = vp.right() - self.scale_bar.width() - 8, vp.bottom() - self.scale_bar.height() - 8
        if self.legend.isVisible() and x < self.legend.geometry().right() + 8:  # never under the legend
            y = self.legend.y() - self.scale_bar.height() - 8
        self.scale_bar.move(x, y)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - int(steps * bar.pageStep() / 4))
            return
        if steps:
            self.zoom_by(1.2**steps)
        event.accept()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        arrows = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}
        if key in arrows and self.editor.selected_uids():
            step = NUDGE_LARGE if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else NUDGE
            dx, dy = arrows[key]
            self.editor.nudge(dx * step, dy * step)
            event.accept()
            return
        if key == Qt.Key.Key_Escape and self.editor.scene.cancel_gesture():
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().setCursor(Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)
