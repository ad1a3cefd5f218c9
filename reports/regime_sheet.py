"""A regime in readable form (HTML): what the Regimes screen shows and prints."""

from __future__ import annotations

import re

from models.rules import describe
from reports.templating import render

_NBSP = "&nbsp;"


def regime_html(regime, unit_rows=None) -> str:
    """The whole act — units, permits, lines, sections, fees, calendars, sites, layout, selection, placard,
    infractions and penalties, deadlines, seizure — each item with its article and the file's notes.

    ``unit_rows`` are ``models.billing.fiscal.UnitValueRow``s (the file's values merged
    with the clerk's); without them the file's values are shown.
    """
    html = render("regime.html.j2", regime=regime, unit_rows=unit_rows)
    html = describe.with_reais(html, regime.currency, regime.conversion)  # "CR$ 1.500,00 (R$ 0,55)", by its rule
    return keep_together(html, [u.code for u in regime.units] + [x.code for x in regime.indexes], regime.short)


def keep_together(html: str, codes=(), short: str = "") -> str:
    """Non-breaking spaces where a line break would split a figure from its unit.

    "R$ 150,00", "20 UFESP", "30 %", "0,50 m" must not break at a narrow
    width (the Regimes screen at the window's minimum size): the sentences of
    ``models.rules.describe`` are plain text, shared with the command line, so the
    HTML binds them here. ``short`` (the act's citation prefix, "Lei 1.171/2014")
    is kept in one piece too.
    """
    if short and " " in short:
        html = html.replace(short, short.replace(" ", _NBSP))
    html = re.sub(r"R\$ (?=-?\d)", "R$" + _NBSP, html)
    html = re.sub(r"(?<!\w)(arts?\.|§§?|nº) (?=\d|[IVXLC]+\b)", r"\1" + _NBSP, html)  # "art. 9º", "§ 2º"
    html = re.sub(r"(\dº?), (?=[IVXLC]+\b|§)", r"\1," + _NBSP, html)  # "art. 8º, XIII", "art. 9º, § 2º"
    units = ["%", "m²", "m", *sorted({re.escape(c) for c in ("UFESP", *codes)}, key=len, reverse=True)]
    pattern = r"(\d) (?=(?:" + "|".join(units) + r")(?![\w²]))"
    html = re.sub(pattern, r"\1" + _NBSP, html)
    return re.sub(r"(\d)(&nbsp;| )m × (?=\d)", r"\1&nbsp;m&nbsp;×&nbsp;", html)  # "10,00 m × 3,50 m" in one piece
