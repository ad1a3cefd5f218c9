"""Does a window fit a 1366×768 screen? Every visible widget with text, and every button, lies inside it and has
the room its text needs (its ``minimumSizeHint``); a word-wrapped label, the room for its text at its width."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTabBar,
    QWidget,
)

#: 1366×768 less a taskbar (40) and a title bar (30): the room a window's contents have.
SCREEN = QSize(1366, 768)
ROOM = QSize(1366, 768 - 40 - 30)


def _text(widget: QWidget) -> str:
    if isinstance(widget, (QLabel, QAbstractButton)):
        return widget.text()
    if isinstance(widget, QGroupBox):
        return widget.title()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    return ""


def _scrolled(widget: QWidget, window: QWidget) -> bool:
    """Inside a scroll area's viewport: scrolled into view, so never outside the window — but never cut short."""
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(widget):
            return True
        parent = parent.parentWidget()
    return False


def problems(window: QWidget, room: QSize = ROOM) -> list[str]:
    """What does not fit when ``window`` is given ``room`` (its own size hint if smaller): one line each."""
    found = []
    hint = window.minimumSizeHint()
    if hint.width() > room.width() or hint.height() > room.height():
        found.append(f"{type(window).__name__} needs at least {hint.width()}×{hint.height()}")
    size = window.size()
    area = QRect(QPoint(0, 0), size)
    for widget in window.findChildren(QWidget):
        if not widget.isVisibleTo(window) or isinstance(widget, QTabBar):
            continue
        scrolled = _scrolled(widget, window)
        text = _text(widget)
        if not text and not isinstance(widget, (QAbstractButton, QLineEdit, QComboBox)):
            continue
        rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        name = f"{type(widget).__name__} {text[:80]!r}" if text else f"{type(widget).__name__} {widget.objectName()!r}"
        if not scrolled and not area.contains(rect):
            found.append(f"{name} lies outside the window ({rect.x()},{rect.y()} {rect.width()}×{rect.height()})")
            continue
        parent = widget.parentWidget()
        if parent is not None and parent is not window:
            visible = QRect(parent.mapTo(window, QPoint(0, 0)), parent.size())
            if not scrolled and not visible.contains(rect) and not isinstance(parent, QAbstractScrollArea):
                found.append(f"{name} is cut off by its {type(parent).__name__}")
                continue
        if isinstance(widget, QLabel) and widget.wordWrap():
            need = widget.heightForWidth(widget.width())
            if need > widget.height() + 1:
                found.append(f"{name} is clipped: {widget.height()} high, its text needs {need}")
            continue
        if isinstance(widget, QLabel) and widget.textFormat() != 0 and widget.text().startswith("<"):
            continue
        want = widget.minimumSizeHint()
        if isinstance(widget, QAbstractButton) and text:  # the text must show whole, the style's margins aside
            want = QSize(widget.fontMetrics().horizontalAdvance(text.replace("&", "")) + 8, want.height())
        if isinstance(widget, QComboBox):  # its list opens wide: the choice shown must fit
            want = QSize(widget.fontMetrics().horizontalAdvance(text) + 30, want.height()) if text else QSize(0, 0)
        if isinstance(widget, QLabel) and text:
            want = widget.sizeHint()
        if want.width() > widget.width() + 1 or (
            isinstance(widget, QAbstractButton) and want.height() > widget.height() + 1
        ):
            found.append(f"{name} is clipped: {widget.width()}×{widget.height()}, needs {want.width()}×{want.height()}")
    return found


def fit(window: QWidget, room: QSize = ROOM) -> list[str]:
    """Give ``window`` the room a 1366×768 screen has (no more than it asks for) and say what does not fit."""
    from PySide6.QtWidgets import QApplication

    hint = window.sizeHint().expandedTo(window.minimumSizeHint())
    window.resize(
        min(max(hint.width(), window.width()), room.width()), min(max(hint.height(), window.height()), room.height())
    )
    if not window.isVisible():
        window.show()
    QApplication.processEvents()
    layout = window.layout()
    if layout is not None:
        layout.activate()
    QApplication.processEvents()
    return problems(window, room)


def mnemonics(window: QWidget) -> dict[str, list[str]]:
    """The Alt+letter keys of what is on screen in ``window`` (buttons, labels' buddies, group boxes, the tabs shown),
    each with the texts that claim it; a key claimed twice is a collision."""
    import re

    from PySide6.QtWidgets import QTabWidget

    found: dict[str, list[str]] = {}

    def claim(text: str) -> None:
        match = re.search(r"&([^&\s])", text.replace("&&", ""))
        if match:
            found.setdefault(match.group(1).lower(), []).append(text)

    from PySide6.QtWidgets import QMainWindow

    if isinstance(window, QMainWindow):  # the menus' Alt keys are the window's too
        for action in window.menuBar().actions():
            claim(action.text())
    for widget in window.findChildren(QWidget):
        if not widget.isVisibleTo(window):
            continue
        if isinstance(widget, QAbstractButton):
            claim(widget.text())
        elif isinstance(widget, QLabel) and widget.buddy() is not None:
            claim(widget.text())
        elif isinstance(widget, QGroupBox) and widget.isCheckable():
            claim(widget.title())
        elif isinstance(widget, QTabWidget):
            for index in range(widget.count()):
                claim(widget.tabText(index))
    return found


def collisions(window: QWidget) -> list[str]:
    return [
        f"Alt+{key.upper()}: {' / '.join(texts)}" for key, texts in sorted(mnemonics(window).items()) if len(texts) > 1
    ]
