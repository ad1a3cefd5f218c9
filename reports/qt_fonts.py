"""The font every document Praça draws is set in: DejaVu Sans, shipped in ``resources/fonts``.

Maps, reports and permits name it first and a generic family after it (``sans-serif``), and the PDFs embed it:
a document made on a Windows desk, which has no DejaVu, looks as one made on Linux. It is registered with
Qt (``QFontDatabase.addApplicationFont``) once a ``QGuiApplication`` exists — by ``desktop.app.ensure_app``,
the headless map writer and the PDF writer.
"""

from __future__ import annotations

from pathlib import Path

import resources

FAMILY = "DejaVu Sans"
#: For HTML and SVG: the shipped family, then the generic one a browser falls back to.
CSS_FAMILY = f'"{FAMILY}", sans-serif'
FONTS = Path(resources.__file__).resolve().parent / "fonts"

_registered: list[str] = []


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
