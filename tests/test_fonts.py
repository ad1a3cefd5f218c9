"""The font is shipped (resources/fonts): registered with Qt, the application's own, embedded in PDFs, named with a
generic fallback in SVG — the same window, map or report on a Windows desk, which has no DejaVu, as on Linux, and on
a Linux desk whose default sans-serif is another (Noto Sans, with fonts-noto-core: CI installs it)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from factories import feira_export
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo
from PySide6.QtWidgets import QApplication, QLabel

from reports.pdf import html_to_pdf
from reports.qt_fonts import FAMILY, FONTS, MONO_FAMILY, register_fonts
from reports.site_map import write_svg


def test_the_shipped_files_are_registered(app_ready):
    assert sorted(p.name for p in FONTS.glob("*.ttf")) == [
        "DejaVuSans-Bold.ttf",
        "DejaVuSans-BoldOblique.ttf",
        "DejaVuSans-Oblique.ttf",
        "DejaVuSans.ttf",
        "DejaVuSansMono-Bold.ttf",
        "DejaVuSansMono.ttf",
    ]
    assert (FONTS / "LICENSE.txt").is_file()
    assert register_fonts() == [FAMILY, MONO_FAMILY]
    assert FAMILY in QFontDatabase.families()
    assert QFontInfo(QFont(FAMILY)).family() == FAMILY


def test_the_window_is_set_in_the_shipped_font(app_ready, qtbot):
    """Not fontconfig's default sans-serif: with fonts-noto-core installed that is Noto Sans, wider, and the main
    window needed 706 px where 698 are free (tests/test_fit.py)."""
    assert QApplication.font().family() == FAMILY
    label = QLabel("Permissões")
    qtbot.addWidget(label)
    assert QFontInfo(label.font()).family() == FAMILY
    for generic in ("Sans Serif", "sans-serif"):
        assert QFontInfo(QFont(generic)).family() == FAMILY, generic
    assert QFontInfo(QFont("monospace")).family() == MONO_FAMILY


#: The PostScript names of the shipped faces, as a PDF names what it embeds.
SHIPPED = {
    b"DejaVuSans",
    b"DejaVuSans-Bold",
    b"DejaVuSans-Oblique",
    b"DejaVuSans-BoldOblique",
    b"DejaVuSansMono",
    b"DejaVuSansMono-Bold",
}


def _embedded(pdf: Path) -> set[bytes]:
    return set(re.findall(rb"/FontName\s*/(?:[A-Z]{6}\+)?([A-Za-z0-9-]+)", pdf.read_bytes()))


def test_a_pdf_embeds_the_shipped_font(app_ready, tmp_path):
    out = html_to_pdf(
        '<html><head><style>body { font-family: "DejaVu Sans", sans-serif; }</style></head>'
        "<body><p>Alvará de permissão de uso — Praça</p></body></html>",
        tmp_path / "doc.pdf",
    )
    data = out.read_bytes()
    fonts = set(re.findall(rb"/FontName\s*/(?:[A-Z]{6}\+)?([A-Za-z0-9-]+)", data))
    assert fonts == {b"DejaVuSans"}, fonts
    assert b"/FontFile2" in data  # the glyphs themselves, not a name the reader must find


def test_a_pdf_of_generic_families_embeds_only_the_shipped_fonts(app_ready, tmp_path):
    """What the HTML leaves to the default, or names generically, is the shipped font too."""
    out = html_to_pdf(
        "<html><body><p>Sem família — <b>negrito</b> <i>itálico</i> <b><i>os dois</i></b></p>"
        '<p style="font-family: sans-serif">sans-serif</p>'
        '<p style="font-family: monospace">SHA-256 <b>9f86d081884c7d65</b></p><p></p></body></html>',
        tmp_path / "generico.pdf",
    )
    fonts = _embedded(out)
    assert fonts <= SHIPPED and b"DejaVuSans" in fonts and b"DejaVuSansMono" in fonts, fonts


def test_every_template_names_a_shipped_family_first():
    """A template that named a font of the machine first would embed it where it is installed."""
    templates = sorted((FONTS.parent / "templates").glob("*.j2"))
    assert templates
    for template in templates:
        for families in re.findall(r"font-family:\s*([^;}]+)", template.read_text(encoding="utf-8")):
            first = families.split(",")[0].strip().strip("'\"")
            assert first in (FAMILY, MONO_FAMILY), f"{template.name}: {families}"


def test_an_svg_map_names_a_generic_fallback(app_ready, tmp_path):
    feira = feira_export()
    out = tmp_path / "mapa.svg"
    write_svg(feira, out)
    families = {el.get("font-family") for el in ET.parse(out).getroot().iter() if el.get("font-family")}
    assert f"{FAMILY}, sans-serif" in families
    assert all(family.endswith("sans-serif") for family in families), families
