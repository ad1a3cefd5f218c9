"""The font the window and every document Praça draws are set in: DejaVu Sans (and DejaVu Sans Mono for hashes and
seeds), shipped in ``resources/fonts``.

Maps, reports and permits name it first and a generic family after it (``sans-serif``), and the PDFs embed it:
a document made on a Windows desk, which has no DejaVu, looks as one made on Linux. It is registered with
Qt (``QFontDatabase.addApplicationFont``) once a ``QGuiApplication`` exists — by ``desktop.app.ensure_app``,
or by ``ensure_gui_app`` here for the map and document writers that a command line calls with no window — and
:func:`use_shipped_fonts` makes it the application's font: left to fontconfig, Qt's default "Sans Serif" is
whatever the machine has (Noto Sans where ``fonts-noto-core`` is installed), so what fits a window and what a PDF
embeds would depend on the fonts installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import resources

FAMILY = "DejaVu Sans"
#: For hashes, seeds and ids, which are read character by character.
MONO_FAMILY = "DejaVu Sans Mono"
#: For HTML and SVG: the shipped family, then the generic one a browser falls back to.
CSS_FAMILY = f'"{FAMILY}", sans-serif'
FONTS = Path(resources.__file__).resolve().parent / "fonts"

_registered: list[str] = []
_app = None  # the headless application ensure_gui_app made: it must outlive the painting


def register_fonts() -> list[str]:
    """Add the shipped fonts to Qt's database (once); the families they hold. Needs a QGuiApplication."""
    if _registered:
        return list(_registered)
    from PySide6.QtGui import QFontDatabase

    for file in sorted(FONTS.glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(file))
        if font_id < 0:
            raise RuntimeError(f"fonte não carregada: {file}")
        for family in QFontDatabase.applicationFontFamilies(font_id):
            if family not in _registered:
                _registered.append(family)
    return list(_registered)


def use_shipped_fonts(app) -> None:
    """Make the shipped family the application's font (at the platform's size: a desk that asked for larger type
    keeps it) and what the generic names resolve to, so that no widget, ``QTextDocument`` or PDF falls back on a
    font of the machine. Registers the fonts first."""
    from PySide6.QtGui import QFont

    register_fonts()
    font = QFont(app.font())
    font.setFamilies([FAMILY])
    app.setFont(font)
    for generic in ("Sans Serif", "sans-serif"):
        QFont.insertSubstitutions(generic, [FAMILY])
    QFont.insertSubstitutions("monospace", [MONO_FAMILY])


def ensure_gui_app() -> None:
    """QPainter and QTextDocument need a QGuiApplication (fonts): make a headless one when there is none, and
    give it the shipped fonts (:func:`use_shipped_fonts`).

    A QApplication, so that the same process may still show widgets later (a test run, or the window printing
    after a command).
    """
    global _app
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QGuiApplication

    instance = QCoreApplication.instance()
    if instance is None:
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        _app = QApplication(sys.argv[:1] or ["praca"])
    elif not isinstance(instance, QGuiApplication):
        raise RuntimeError(
            "Os mapas e os documentos em PDF precisam de uma QGuiApplication (há só uma QCoreApplication)."
        )
    use_shipped_fonts(QGuiApplication.instance())
