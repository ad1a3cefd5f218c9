"""Praça's appearance: the Fusion style with a light or a dark palette of its own, and the colours screens name.

The clerk chooses in Arquivo → Configurações → Aparência: Sistema (light or dark as the desktop says), Claro or
Escuro — a setting of this desk (``QSettings``), applied at start and at once when changed (issue 31 §6). Praça draws
with Qt's Fusion style and the two palettes below, never with the desktop theme's: a dark GTK theme painted the
approval view's table header white on white, and a palette only half followed is what made refused combos
white on pink. ``praca -style NOME`` (Qt's own argument) keeps the style named; the palette stays Praça's.

A screen never writes a colour: it names a role — ``theme.colour("error")`` — and gets the shade that reads on
the palette in use; a widget's own style sheet is written with the roles in it (``theme.styled(label,
"color: ${muted};")``) and is filled again when the appearance changes. The application's stylesheet
(``resources/style.qss``) names the same roles. Every text colour keeps a contrast of at least 4.5:1 (WCAG AA)
with the window, the lists and the buttons it is shown on (tests/test_dark_palette.py, tests/test_appearance.py).
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

import resources

STYLESHEET = Path(resources.__file__).resolve().parent / "style.qss"

#: Arquivo → Configurações → Aparência: the desk's choice, kept in its settings.
SETTING = "appearance/mode"
SYSTEM, LIGHT, DARK = "system", "light", "dark"
APPEARANCES = (SYSTEM, LIGHT, DARK)
STYLE = "Fusion"

# The two palettes, role → (light, dark). Text on Window, Base, AlternateBase, Button and ToolTipBase reads at
# 10:1 or more; the selection (Highlight / HighlightedText) and the placeholder at 4.5:1 or more.
PALETTE: dict[str, tuple[str, str]] = {
    "Window": ("#f2f3f1", "#222624"),
    "WindowText": ("#1b1b1b", "#ececec"),
    "Base": ("#ffffff", "#1a1d1c"),
    "AlternateBase": ("#f4f7f4", "#262b29"),
    "Text": ("#1b1b1b", "#ececec"),
    "Button": ("#e6e9e6", "#303533"),
    "ButtonText": ("#1b1b1b", "#ececec"),
    "BrightText": ("#ffffff", "#ffffff"),
    "Highlight": ("#2a6f61", "#2f7d6c"),
    "HighlightedText": ("#ffffff", "#ffffff"),
    "ToolTipBase": ("#ffffe1", "#2f3432"),
    "ToolTipText": ("#1b1b1b", "#ececec"),
    "PlaceholderText": ("#646b67", "#9ba29e"),
    "Link": ("#1565c0", "#90caf9"),
    "LinkVisited": ("#6a1b9a", "#ce93d8"),
    # the bevels Fusion draws frames, headers and scroll bars with
    "Light": ("#ffffff", "#454b48"),
    "Midlight": ("#e3e5e2", "#383d3b"),
    "Mid": ("#b8bcb9", "#2a2e2c"),
    "Dark": ("#9a9e9b", "#151716"),
    "Shadow": ("#767676", "#000000"),
}
#: What a disabled widget writes with (WCAG asks no contrast of it; it still reads as greyed, not as gone).
DISABLED_TEXT = ("#8b918d", "#7c827e")

# role → (on the light palette, on the dark palette)
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
    # the desks' list on the left: the town hall's green in both, its text white; the desk chosen in amber
    "nav": ("#1f4f45", "#173b34"),
    "nav_text": ("#ffffff", "#ffffff"),
    "nav_hover": ("#2d6a5d", "#24544a"),
    "nav_selected": ("#f2c14e", "#f2c14e"),
    "nav_selected_text": ("#1b1b1b", "#1b1b1b"),
}
#: The ink of a refused field on its ``error_field`` ground (light palette, dark palette).
FIELD_INK = ("#1b1b1b", "#ffffff")
TEXT_ROLES = ("error", "ok", "warning", "info", "muted", "heading")
BACKGROUND_ROLES = ("error_background", "error_field", "panel", "status_bar")

#: A field whose value was refused: a red frame on a faint red ground, with its own ink — the text (a combo's
#: current item too) always comes with the ground it is read on: a field marked on one palette and then drawn on
#: another showed white on pink (issue 31 §6). Given to :func:`styled`.
REFUSED = (
    "border: 1px solid ${error}; background: ${error_field}; color: ${field_ink}; "
    "selection-background-color: ${error}; selection-color: ${error_field};"
)


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


def values(palette: QPalette | None = None) -> dict[str, str]:
    """Every role's shade for the palette in use (or ``palette``): what ``${role}`` stands for in a style sheet."""
    dark = is_dark(palette)
    filled = {role: pair[1] if dark else pair[0] for role, pair in ROLES.items()}
    filled["field_ink"] = FIELD_INK[1] if dark else FIELD_INK[0]
    return filled


def styled(widget: QWidget, css: str) -> None:
    """``widget.setStyleSheet(css)`` with each ``${role}`` filled for the palette in use — and filled again when
    the appearance changes, as long as the widget keeps that style sheet (a field cleared of its refusal with
    ``setStyleSheet("")`` is left alone)."""
    filled = Template(css).substitute(values()) if css else ""
    widget.setProperty("praca_css", css)
    widget.setProperty("praca_css_filled", filled)
    widget.setStyleSheet(filled)


def _restyle_widgets() -> None:
    for widget in QApplication.allWidgets():
        css = widget.property("praca_css")
        if css and widget.styleSheet() == widget.property("praca_css_filled"):
            styled(widget, css)


def paper(widget) -> None:
    """A widget that shows a printable document (the regime's text, a report's preview, an application as filed)
    shows it on paper: the templates (resources/templates) are written in dark ink for white pages, on any
    palette."""
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
    return Template(STYLESHEET.read_text(encoding="utf-8")).substitute(values(palette))


# --------------------------------------------------------------------------- the palettes and the choice


def make_palette(dark: bool) -> QPalette:
    """Praça's light or dark palette, every role set (nothing left to the desktop theme)."""
    result = QPalette()
    side = 1 if dark else 0
    groups = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled)
    for name, pair in PALETTE.items():
        role = getattr(QPalette.ColorRole, name)
        for group in groups:
            result.setColor(group, role, QColor(pair[side]))
    for name in ("WindowText", "Text", "ButtonText", "PlaceholderText"):
        result.setColor(QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, name), QColor(DISABLED_TEXT[side]))
    return result


def saved_appearance() -> str:
    """This desk's choice (Arquivo → Configurações → Aparência): ``system``, ``light`` or ``dark``."""
    value = QSettings().value(SETTING, SYSTEM)
    return value if isinstance(value, str) and value in APPEARANCES else SYSTEM


def system_is_dark() -> bool:
    """Whether the desktop asks for dark (Windows' dark mode, a dark GNOME/KDE scheme); unknown is light."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


class _Changes(QObject):
    """Says that the appearance changed (the clerk's choice, or the desktop switched with Sistema chosen): what a
    screen drew with the old shades (rich text, table cells) is drawn again by its desk's refresh."""

    changed = Signal()


changes = _Changes()
#: ``praca -style NOME`` (or ``QT_STYLE_OVERRIDE``): the style the clerk named is kept (desktop/app.py).
keep_style = False
_following: set[int] = set()
_applying = False
_style = ""


def style_name() -> str:
    """The style the application draws with (``fusion``, or the one ``-style`` named), lower case."""
    return _style


def apply(app, mode: str | None = None) -> None:
    """Fusion with the palette ``mode`` calls for (the saved choice when ``None``), the application's style
    sheet filled for it, the widgets' own style sheets filled again; and, once per application, follow the
    desktop when it switches between light and dark."""
    global _applying, _style
    if _applying:
        return
    _applying = True
    try:
        chosen = mode if mode is not None and mode in APPEARANCES else saved_appearance()
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "setColorScheme"):  # Qt 6.8: the window's frame (Windows 11, GNOME) follows too
            scheme = {LIGHT: Qt.ColorScheme.Light, DARK: Qt.ColorScheme.Dark}.get(chosen, Qt.ColorScheme.Unknown)
            hints.setColorScheme(scheme)  # Unknown: the desktop's own again
        dark = chosen == DARK or (chosen == SYSTEM and system_is_dark())
        if keep_style:  # read before the application's style sheet wraps it (its wrapper has no name)
            if not _style and not app.styleSheet():
                _style = app.style().name().lower()
        elif _style != STYLE.lower():
            app.setStyle(STYLE)
            _style = STYLE.lower()
        app.setPalette(make_palette(dark))
        app.setStyleSheet(stylesheet(app.palette()))
        _restyle_widgets()
    finally:
        _applying = False
    if id(app) not in _following:
        _following.add(id(app))
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(lambda *_: _system_switched(app))
    changes.changed.emit()


def _system_switched(app) -> None:
    if not _applying and saved_appearance() == SYSTEM:
        apply(app, SYSTEM)


def choose(mode: str) -> None:
    """The clerk's choice: kept in this desk's settings and applied now."""
    if mode not in APPEARANCES:
        raise ValueError(mode)
    QSettings().setValue(SETTING, mode)
    apply(QApplication.instance(), mode)


# --------------------------------------------------------------------------- contrast (WCAG 2.x)


def relative_luminance(colour_: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour_.redF()) + 0.7152 * channel(colour_.greenF()) + 0.0722 * channel(colour_.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
