"""Permit documents as PDF, drawn by Qt: the permit (A4), the ID card and the stall placard.

* :func:`write_permit_pdf` — the alvará / licença / TPU / credencial on A4: a
  jinja2 template (``permit.html.j2``) laid out by ``QTextDocument`` and
  painted page by page on a ``QPdfWriter``, with a footer on every page; the
  signed QR is painted as vector squares over a transparent placeholder image
  whose place the text layout reserved (PySide6 cannot register a Python
  ``QTextObjectInterface``, so the QR is not a text object).
* :func:`write_id_card_pdf` — the ID card on a page of 85,6 × 53,98 mm
  (ISO/IEC 7810 ID-1), two pages: the front (photo, name, documents, permit,
  activity, place, hours, equipment, validity) and the back (the QR and the
  rest of what Dec. 890/2017, art. 8º asks for).
* :func:`write_placard_pdf` — the stall placard of São Bento do Sapucaí
  (Dec. 4.794/2026, art. 4º, parágrafo único) or of any regime with a
  ``[placard]``: the regime says the size, the colours and the contents.

Each function takes a plain :class:`models.permits.permit_doc.PermitDocument`; none
touches the database. Needs a ``QGuiApplication`` (one is created, headless
if there is no display, when the caller has none).

Qt writes page sizes in whole PostScript points, so the card's page is
243 × 153 pt (85,73 × 53,975 mm, within 0,13 mm); everything on it is drawn
inside the exact 85,6 × 53,98 mm, the background bleeding to the page edge.

The package: :mod:`common` (pages, fonts, colours, dates, the QR), :mod:`text_boxes` (fields laid out for
QPainter), then one module per document: :mod:`permit`, :mod:`card`, :mod:`placard`.
"""

from __future__ import annotations

from reports.permit_docs.card import (
    write_id_card_pdf,
)
from reports.permit_docs.common import (
    STATE_NAMES,
    draw_qr,
    long_date_br,
    qr_modules,
    qr_segments,
)
from reports.permit_docs.permit import (
    PHOTO_RESOURCE,
    QR_RESOURCE,
    permit_html,
    write_permit_pdf,
)
from reports.permit_docs.placard import (
    write_placard_pdf,
)

__all__ = [
    "PHOTO_RESOURCE",
    "QR_RESOURCE",
    "STATE_NAMES",
    "draw_qr",
    "long_date_br",
    "permit_html",
    "qr_modules",
    "qr_segments",
    "write_id_card_pdf",
    "write_permit_pdf",
    "write_placard_pdf",
]
