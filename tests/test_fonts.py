"""The documents' font is shipped (resources/fonts): registered with Qt, embedded in PDFs, named with a generic
fallback in SVG — the same map or report on a Windows desk, which has no DejaVu, as on Linux."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from factories import feira_export
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo

from reports.pdf import html_to_pdf
from reports.qt_fonts import FAMILY, FONTS, register_fonts
from reports.site_map import write_svg


def test_the_shipped_files_are_registered(app_ready):
    assert sorted(p.name for p in FONTS.glob("*.ttf")) == [
        "DejaVuSans-Bold.ttf",
        "DejaVuSans-BoldOblique.ttf",
        "DejaVuSans-Oblique.ttf",
        "DejaVuSans.ttf",
    ]
    assert (FONTS / "LICENSE.txt").is_file()
    assert register_fonts() == [FAMILY]
    assert FAMILY in QFontDatabase.families()
    assert QFontInfo(QFont(FAMILY)).family() == FAMILY


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


def test_an_svg_map_names_a_generic_fallback(app_ready, tmp_path):
    feira = feira_export()
    out = tmp_path / "mapa.svg"
    write_svg(feira, out)
    families = {el.get("font-family") for el in ET.parse(out).getroot().iter() if el.get("font-family")}
    assert f"{FAMILY}, sans-serif" in families
    assert all(family.endswith("sans-serif") for family in families), families
