"""Dark palettes (Windows 11 dark mode, a dark desktop theme): every desk stays readable.

The colours that screens once wrote by hand are roles of views/theme.py with a light and a dark shade; the
tables are checked against WCAG's 4.5:1; the documents shown on screen stay on paper, the map's legend in dark ink,
and a refused field readable on either palette. Every desk in both appearances: tests/test_appearance.py."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from views import theme

# Windows 11's dark mode, as Qt's windows11 style sets it
WINDOWS_DARK = {
    "Window": "#202020",
    "WindowText": "#ffffff",
    "Base": "#1c1c1c",
    "AlternateBase": "#2b2b2b",
    "Text": "#ffffff",
    "Button": "#2d2d2d",
    "ButtonText": "#ffffff",
    "Highlight": "#0078d4",
    "HighlightedText": "#ffffff",
    "ToolTipBase": "#2b2b2b",
    "ToolTipText": "#ffffff",
    "PlaceholderText": "#9d9d9d",
    "Link": "#99ebff",
    "Light": "#3c3c3c",
    "Midlight": "#333333",
    "Mid": "#2a2a2a",
    "Dark": "#161616",
    "Shadow": "#000000",
    "BrightText": "#ffffff",
}


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, value in WINDOWS_DARK.items():
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(value))
    return palette


@pytest.fixture
def dark(app_ready):
    """Configurações → Aparência → Escuro, undone after."""
    from PySide6.QtCore import QSettings

    app = QApplication.instance()
    theme.choose(theme.DARK)
    yield app
    QSettings().remove(theme.SETTING)
    theme.apply(app)


def test_the_colour_tables_read_on_their_palettes():
    light, dark_ = QPalette(), dark_palette()
    light.setColor(QPalette.ColorRole.Window, QColor("#efefef"))
    light.setColor(QPalette.ColorRole.WindowText, QColor("#000000"))
    light.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    assert not theme.is_dark(light) and theme.is_dark(dark_)
    for palette in (light, dark_):
        grounds = [palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base)]
        grounds += [theme.qcolour(role, palette) for role in ("panel", "status_bar")]
        for role in theme.TEXT_ROLES:
            for ground in grounds:
                ratio = theme.contrast(theme.qcolour(role, palette), ground)
                assert ratio >= 4.5, (role, ground.name(), round(ratio, 2))
        for role in theme.BACKGROUND_ROLES:  # the palette's own text on them
            ratio = theme.contrast(palette.color(QPalette.ColorRole.WindowText), theme.qcolour(role, palette))
            assert ratio >= 4.5, (role, round(ratio, 2))
        error_on_error = theme.contrast(theme.qcolour("error", palette), theme.qcolour("error_background", palette))
        assert error_on_error >= 3, round(error_on_error, 2)  # the import's refused cells: red text on pink


def test_the_stylesheet_follows_the_palette(dark):
    assert theme.colour("heading") in dark.styleSheet() and "${" not in dark.styleSheet()
    assert theme.colour("heading") == theme.ROLES["heading"][1]


def _ink_contrast(widget) -> float:
    """The text's contrast as drawn: the widget's most common pixel is its ground, the pixel farthest from it
    the ink (antialiased edges lie between the two)."""
    parent = widget.parentWidget()  # drawn as seen: over its parent's ground
    image = (parent.grab(widget.geometry()) if parent is not None else widget.grab()).toImage()
    pixels = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
    ground = QColor.fromRgb(pixels.most_common(1)[0][0])
    return max(theme.contrast(ground, QColor.fromRgb(p)) for p in pixels)


def test_a_document_shown_on_screen_stays_on_paper(dark, sqlite_database, qtbot):
    """The act's text (regime.html.j2, written in dark ink for print) keeps a white page on a dark palette:
    every colour its fragments are set in reads on the browser's ground. (A question of the screen, not of the
    database: SQLite only.)"""
    from PySide6.QtGui import QTextCharFormat

    from views.regimes_page import RegimesPage

    page = RegimesPage()
    qtbot.addWidget(page)
    page.refresh()
    browser = page.browser
    ground = browser.palette().color(QPalette.ColorRole.Base)
    ink = browser.palette().color(QPalette.ColorRole.Text)
    colours: set[str] = set()
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt: QTextCharFormat = fragment.charFormat()
            brush = fmt.foreground()
            colours.add((brush.color() if brush.style() != Qt.BrushStyle.NoBrush else ink).name())
            it += 1
        block = block.next()
    assert len(colours) >= 3  # body, headings, notes
    low = {c: round(theme.contrast(QColor(c), ground), 1) for c in colours if theme.contrast(QColor(c), ground) < 4.5}
    assert not low, (ground.name(), low)


def test_the_map_editor_and_its_legend_read_on_a_dark_palette(dark, feira, qtbot):
    """The map keeps its own white ground (a drawing, as printed); what is written over it — the legend — keeps
    dark ink, and the editor's panels follow the palette."""
    from views.map_editor import MapEditor

    editor = MapEditor()
    qtbot.addWidget(editor)
    editor.resize(1300, 760)
    editor.show()
    qtbot.waitExposed(editor)
    editor.load(feira.id)
    legend = editor.view.legend
    qtbot.waitUntil(lambda: any(label.isVisible() for label in legend.findChildren(QLabel)))  # shown, laid out
    labels = [
        label
        for label in editor.findChildren(QLabel)
        if label.isVisible() and label.text().strip() and label.width() >= 4 and label.height() >= 4
    ]
    assert any(legend.isAncestorOf(label) for label in labels)
    low = [f"{label.text()[:40]!r} {_ink_contrast(label):.1f}" for label in labels if _ink_contrast(label) < 3]
    assert not low, low


def test_a_refused_combo_reads_on_either_palette_even_when_the_palette_changed_after(app_ready, qtbot):
    """Issue 31 §6: after a refusal a combo's current item was white on pink. The refused field's stylesheet
    brings its own ink with its ground, so the text reads on the palette it was marked on and on the other."""
    from PySide6.QtWidgets import QComboBox

    from views.blocks import FieldErrorsView

    app = QApplication.instance()
    before = app.palette()
    try:
        for marked_on, drawn_on in ((before, dark_palette()), (dark_palette(), before)):
            app.setPalette(marked_on)
            combo = QComboBox()
            qtbot.addWidget(combo)
            combo.addItems(["Ambulante — ponto fixo", "Ambulante — itinerante"])
            combo.resize(280, 32)
            combo.show()
            FieldErrorsView(QLabel(), {"permit_kind": combo}).show({"permit_kind": "Escolha outra modalidade."})
            for palette in (marked_on, drawn_on):
                app.setPalette(palette)
                qtbot.wait(1)
                # the current item's text only: inside the red frame, left of the arrow
                image = combo.grab(QRect(6, 5, 160, combo.height() - 10)).toImage()
                pixels = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
                ground = QColor.fromRgb(pixels.most_common(1)[0][0])
                ink = max(theme.contrast(ground, QColor.fromRgb(p)) for p in pixels)
                assert ink >= 4.5, (theme.is_dark(marked_on), theme.is_dark(palette), ground.name(), round(ink, 2))
    finally:
        app.setPalette(before)
        theme.apply(app)
