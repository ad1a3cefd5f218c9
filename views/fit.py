"""Windows that fit the screen they open on: a 1366×768 town-hall screen with its taskbar included.

``fit_to_screen`` gives a window the size it prefers but never more than the screen's available area (less the
title bar the window manager adds); ``compact_combos`` keeps a combo box from demanding the width of its longest
item (a regime's whole citation, a site's full name), which made desks wider than the screen.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QScrollArea,
    QStyle,
    QStyledItemDelegate,
    QToolTip,
    QWidget,
)

#: What the window manager adds around a window (title bar, borders), kept out of the room a window is given.
FRAME = QSize(16, 40)


def screen_room(widget: QWidget | None = None) -> QSize:
    """The room a window's contents have on the screen ``widget`` is on (the primary one else)."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    area = screen.availableGeometry().size() if screen is not None else QSize(1366, 728)
    return QSize(max(area.width() - FRAME.width(), 320), max(area.height() - FRAME.height(), 240))


def fit_to_screen(window: QWidget, preferred: QSize | None = None) -> QSize:
    """Resize ``window`` to ``preferred`` (its size hint if not given), bounded by the room the screen has; its
    combo boxes compact (see ``compact_combos``) — those built after this call too, when the window shows."""
    compact_combos(window)
    tip_cut_cells(window)
    if not window.property("fits-screen"):
        window.setProperty("fits-screen", True)
        window.installEventFilter(_COMPACT_ON_SHOW)
    room = screen_room(window)
    wanted = preferred if preferred is not None else window.sizeHint()
    wanted = wanted.expandedTo(window.minimumSizeHint())
    size = QSize(min(wanted.width(), room.width()), min(wanted.height(), room.height()))
    window.resize(size)
    return size


def compact_combos(root: QWidget, characters: int = 22) -> None:
    """Every combo box under ``root`` as wide as ``characters`` asks at least, not as its longest item: the
    layout gives it what room there is, its list opens as wide as its items, and its tooltip names the choice."""
    for combo in root.findChildren(QComboBox):
        if combo.property("compact"):
            continue
        combo.setProperty("compact", True)
        if combo.sizeAdjustPolicy() == QComboBox.SizeAdjustPolicy.AdjustToContentsOnFirstShow:
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(characters)
            if not combo.minimumWidth():  # Qt keeps the minimum it measured before: the layout reads this one
                combo.setMinimumWidth(combo.fontMetrics().horizontalAdvance("x" * characters) + 40)
        if not combo.toolTip() and not combo.isEditable():  # a tooltip of its own says more than the choice
            combo.currentTextChanged.connect(combo.setToolTip)
            combo.setToolTip(combo.currentText())
        combo.view().installEventFilter(_POPUP_WIDENER)


class _PopupWidener(QObject):
    """Opens a combo box's list as wide as its widest item (measured when the list shows, not per item added)."""

    def eventFilter(self, view, event) -> bool:  # Qt's name
        if event.type() == QEvent.Type.Show:
            combo = view.parentWidget()
            while combo is not None and not isinstance(combo, QComboBox):
                combo = combo.parentWidget()
            if combo is not None:
                _widen_popup(combo, view)
        return False


_POPUP_WIDENER = _PopupWidener()


class _CompactOnShow(QObject):
    """A window fitted before its fields were built: its combo boxes compact when it shows."""

    def eventFilter(self, window, event) -> bool:  # Qt's name
        if event.type() == QEvent.Type.Show and window.isWindow():
            compact_combos(window)
            tip_cut_cells(window)
            room = screen_room(window)
            if window.width() > room.width() or window.height() > room.height():
                window.resize(window.size().boundedTo(room))
        return False


_COMPACT_ON_SHOW = _CompactOnShow()


def _widen_popup(combo: QComboBox, view) -> None:
    metrics = view.fontMetrics()
    widest = max((metrics.horizontalAdvance(combo.itemText(i)) for i in range(combo.count())), default=0)
    view.setMinimumWidth(min(widest + 40, screen_room(combo).width()))


def scrollable(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area: as large as the room there is, scrolled where it needs more."""
    scroll = QScrollArea()
    scroll.setObjectName(f"{widget.objectName() or 'content'}-scroll")
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(widget)
    return scroll


class _CutCellTips(QStyledItemDelegate):
    """A cell whose text the column cuts short ("Lei 9.158/2…") shows it whole as its tooltip."""

    def helpEvent(self, event, view, option, index) -> bool:  # Qt's name
        if event.type() == QEvent.Type.ToolTip and index.data(Qt.ItemDataRole.ToolTipRole) is None:
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if isinstance(text, str) and text:
                margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
                if option.fontMetrics.horizontalAdvance(text) + 2 * margin > option.rect.width():
                    QToolTip.showText(event.globalPos(), text, view)
                    return True
                QToolTip.hideText()
                return True
        return super().helpEvent(event, view, option, index)


def tip_cut_cells(root: QWidget) -> None:
    """Every list and table under ``root``: a cell cut short by its column shows its whole text on hover."""
    for view in root.findChildren(QAbstractItemView):
        if type(view.itemDelegate()) is QStyledItemDelegate:
            view.setItemDelegate(_CutCellTips(view))
