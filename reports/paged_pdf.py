"""HTML laid out as a paged, tagged PDF — the tabular documents (fee and sanctions reports, the receipt).

Qt's rich-text engine, which still prints permits, cards, maps and the acts,
cannot keep a table row whole across a page break, keep a heading with what
follows or repeat a table's header on each page. ReportLab's platypus can, but
writes no tagged PDF (5.1 has neither marked content nor a structure tree).
WeasyPrint lays out the very HTML the browser prints with CSS paged media
(``break-inside: avoid`` on rows, ``break-after: avoid`` on headings, ``thead``
repeated, ``@page`` margin boxes with "Página N de M", named landscape pages)
and writes a tagged PDF/UA-1 (structure tree, language, title) with its fonts
embedded — what a screen reader needs.

The fonts are the ones Praça ships (resources/fonts, DejaVu Sans), given to
WeasyPrint as ``@font-face`` rules: a PDF embeds the same faces on any desk.
It needs Pango (a system library every Linux desktop has; on Windows the GTK
runtime WeasyPrint documents).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import resources
from models.outfile import atomic_writer
from reports.templating import TEMPLATES

FONTS = Path(resources.__file__).resolve().parent / "fonts"
FACES = (("DejaVuSans.ttf", "normal", "normal"), ("DejaVuSans-Bold.ttf", "bold", "normal"),
         ("DejaVuSans-Oblique.ttf", "normal", "italic"), ("DejaVuSans-BoldOblique.ttf", "bold", "italic"))

Progress = Callable[[int, int], None]


@atomic_writer("path", kind="pdf")
def write_html_pdf(html: str, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Lay ``html`` out on the pages its ``@page`` rules set and write it to ``path`` as tagged PDF/UA-1.

    ``progress(done, 2)``: before the layout, after it, after writing — it may raise to stop between them."""
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    # WeasyPrint warns of each CSS rule it does not apply — the phone layout's media query among them — and
    # Python would print those warnings on a desk's terminal: only errors are worth a line
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    path = Path(path)
    if progress is not None:
        progress(0, 2)
    fonts = FontConfiguration()
    faces = CSS(string="".join(
        f'@font-face {{ font-family: "DejaVu Sans"; src: url("{(FONTS / name).as_uri()}"); font-weight: {weight}; '
        f"font-style: {style}; }}" for name, weight, style in FACES), font_config=fonts)
    options = {"pdf_variant": "pdf/ua-1", "pdf_tags": True, "presentational_hints": True, "stylesheets": [faces]}
    document = HTML(string=html, base_url=str(TEMPLATES)).render(font_config=fonts, **options)
    if progress is not None:
        progress(1, 2)
    document.write_pdf(str(path), **options)
    if progress is not None:
        progress(2, 2)
    return path
