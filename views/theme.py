"""Praça's colours, for a light and for a dark palette (Windows 11 dark mode, a dark desktop theme).

A screen never writes a colour: it names a role — ``theme.colour("error")`` — and gets the shade that reads on
the palette in use. The application's stylesheet (``resources/style.qss``) names the same roles
(``${error}``…) and is filled from these tables when the application starts and again when the system
switches between light and dark (a colour a screen already took keeps its shade until the screen is built
again, at the next start at the latest). Every text colour keeps a contrast of at least 4.5:1 (WCAG AA) with the
window and the lists it is shown on (tests/test_dark_palette.py).
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from PySide6.QtGui import QColor, QGuiApplication, QPalette

import resources

STYLESHEET = Path(resources.__file__).resolve().parent / "style.qss"

# role → (on a light palette, on a dark palette)
ROLES: dict[str, tuple[str, str]] = {
    # text
    "error": ("#b00020", "#ff8a80"),
    "ok": ("#1b5e20", "#81c784"),
    "warning": ("#7a5c00", "#ffd54f"),
    "info": ("#1565c0", "#90caf9"),
    "muted": ("#5b6660", "#aab4ae"),
    "heading": ("#1f4f45", "#8fd3c1"),
    # backgrounds (the palette's text is drawn on them)
    "error_background": ("#fde7ea", "#5c1f27"),
    "error_field": ("#fff4f4", "#3d1f22"),
    "panel": ("#f4f7f4", "#2a322e"),
    "status_bar": ("#e9efe9", "#26302b"),
    # lines
    "border": ("#999999", "#7a7a7a"),
}
#: The ink of a refused field on its ``error_field`` ground (light palette, dark palette).
FIELD_INK = ("#1b1b1b", "#ffffff")
TEXT_ROLES = ("error", "ok", "warning", "info", "muted", "heading")
BACKGROUND_ROLES = ("error_background", "error_field", "panel", "status_bar")


def is_dark(palette: QPalette | None = None) -> bool:
    """Whether the palette in use draws light text on a dark window (whatever the system calls its mode)."""
    if palette is None:
        if QGuiApplication.instance() is None:
            return False
        palette = QGuiApplication.palette()
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    return window.lightnessF() < text.lightnessF()


def colour(role: str, palette: QPalette | None = None) -> str:
    """The ``#rrggbb`` of ``role`` for the palette in use (or ``palette``)."""
    light, dark = ROLES[role]
    return dark if is_dark(palette) else light


def on_paper(role: str) -> str:
    """The shade of ``role`` for something drawn on its own white ground (the map and its legend, a document)."""
    return ROLES[role][0]


def qcolour(role: str, palette: QPalette | None = None) -> QColor:
    return QColor(colour(role, palette))


def error_style() -> str:
    """A field whose value was refused: a red frame on a faint red background, with its own ink — the text
    (a combo's current item too) always comes with the background it is read on: a field marked on one palette
    and then drawn on another (the system switched to dark, a desktop theme that paints combos itself) showed
    white on pink (issue 31 §6)."""
    ink = FIELD_INK[1] if is_dark() else FIELD_INK[0]
    return (
        f"border: 1px solid {colour('error')}; background: {colour('error_field')}; color: {ink}; "
        f"selection-background-color: {colour('error')}; selection-color: {colour('error_field')};"
    )


def paper(widget) -> None:
    """A widget that shows a printable document (the regime's text, a report's preview) shows it on paper:
    the templates (resources/templates) are written in dark ink for white pages, on any palette."""
    palette = widget.palette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
        palette.setColor(group, QPalette.ColorRole.Base, QColor("#ffffff"))
        palette.setColor(group, QPalette.ColorRole.Text, QColor("#1b1b1b"))
        palette.setColor(group, QPalette.ColorRole.Link, QColor("#1565c0"))
        palette.setColor(group, QPalette.ColorRole.LinkVisited, QColor("#6a1b9a"))
    widget.setPalette(palette)
    document = getattr(widget, "document", None)
    if callable(document):  # links take the application's palette when the HTML is parsed: named here
        document().setDefaultStyleSheet("a { color: #1565c0; }")


def stylesheet(palette: QPalette | None = None) -> str:
    """``resources/style.qss`` with each ``${role}`` filled for the palette."""
    values = {role: colour(role, palette) for role in ROLES}
    return Template(STYLESHEET.read_text(encoding="utf-8")).substitute(values)


_following: set[int] = set()


def apply(app) -> None:
    """Set the application's stylesheet for its palette, and again whenever the system switches light/dark."""
    app.setStyleSheet(stylesheet(app.palette()))
    if id(app) not in _following:
        _following.add(id(app))
        hints = app.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(lambda *_: app.setStyleSheet(stylesheet(app.palette())))


# --------------------------------------------------------------------------- contrast (WCAG 2.x)


def relative_luminance(colour_: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour_.redF()) + 0.7152 * channel(colour_.greenF()) + 0.0722 * channel(colour_.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
