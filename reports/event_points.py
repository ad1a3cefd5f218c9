"""The sheet of one event of a rotating list (Ilha Comprida, Dec. 890/2017, art. 21, § 1º): who works it, from where
in the list, and the ata of its point draw — HTML and PDF."""

from __future__ import annotations

from pathlib import Path

from models.registry.municipality import letterhead
from models.rules.regimes import get_regime
from models.selection import ALGORITHM_STEPS
from models.selection.rotation_list import event_with_draw, point_label, rotation_state
from reports.pdf import html_to_pdf, text_document
from reports.templating import render


def event_sheet_context(event_id: int) -> dict:
    """What the sheet shows, read from the kept event and point draw (never recomputed, only verified)."""
    event, draw = event_with_draw(event_id)
    regime = get_regime(draw.regime)
    state = rotation_state(draw)
    row = state.event(event.number)
    site = draw.site
    if site and site in regime.ids("site"):
        site = regime.site(site).label
    point = row.point_draw
    return {
        "regime": regime,
        "draw": draw,
        "state": state,
        "event": row,
        "site": site,
        "point": point,
        "assignments": [(i, point_label(p), name, pid) for i, (pid, name, p) in enumerate(row.assignments, 1)],
        "list_lines": point.list_text.splitlines() if point else [],
        "officials": point.official_list if point else [],
        "steps": ALGORITHM_STEPS,
        **letterhead(regime),
    }


def event_sheet_html(event_id: int) -> str:
    return render("event_points.html.j2", **event_sheet_context(event_id))


def event_sheet_document(event_id: int):
    """A ``QTextDocument`` of the sheet, for the print dialog."""
    return text_document(event_sheet_html(event_id))


def write_event_sheet_pdf(event_id: int, path: str | Path) -> Path:
    return html_to_pdf(event_sheet_html(event_id), path, title="Folha do evento — lista corrida e pontos")
