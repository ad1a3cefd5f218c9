"""The ata (minutes) of a public draw: what was drawn, how, by whom, and how to check it — HTML and PDF."""

from __future__ import annotations

from pathlib import Path

from models.registry.municipality import letterhead
from models.rules.regimes import get_regime
from models.rules.silences import AppliedReading
from models.selection import ALGORITHM_STEPS
from models.selection.draws import Draw, draw_entries, get_draw, replacement_of, verify_draw
from reports.pdf import html_to_pdf, text_document
from reports.templating import render


def draw_ata_context(draw: Draw | int) -> dict:
    """Everything the ata shows, read from the kept draw (never recomputed, only verified)."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    regime = get_regime(draw.regime)
    entries = draw_entries(draw)
    result = draw.result
    group_info = {g["group"]: g for g in result.get("groups", [])}
    if not group_info:
        group_info[""] = {
            "group": "",
            "label": "",
            "vacancies": result.get("vacancies"),
            "quota_reserved": result.get("quota_reserved", 0),
            "note": result.get("note", ""),
            "draw_required": result.get("draw_required", True),
        }
    groups = []
    for gid, info in sorted(group_info.items()):
        mine = [e for e in entries if e.group == gid]
        groups.append(
            {
                "id": gid,
                "label": info.get("label") or gid,
                "vacancies": info.get("vacancies"),
                "quota_reserved": info.get("quota_reserved", 0),
                "note": info.get("note", ""),
                "holders": [e for e in mine if e.role == "holder"],
                "alternates": [e for e in mine if e.role == "alternate"],
                "others": [e for e in mine if e.role == "other"],
            }
        )
    drawn = sorted((e for e in entries if e.position is not None), key=lambda e: e.position or 0)
    site = draw.site
    if site and site in regime.ids("site"):
        site = regime.site(site).label
    return {
        "draw": draw,
        "regime": regime,
        "groups": groups,
        "has_groups": any(g["id"] for g in groups),
        "drawn": drawn,
        "excluded": [e for e in entries if e.role == "excluded"],
        "list_lines": draw.list_text.splitlines(),
        "officials": draw.official_list,
        "steps": ALGORITHM_STEPS,
        "problems": verify_draw(draw),
        "replacement": replacement_of(draw),
        "site": site,
        "readings": [AppliedReading.from_dict(r) for r in result.get("readings", [])],
        **letterhead(regime),
    }


def draw_ata_html(draw: Draw | int) -> str:
    return render("draw_ata.html.j2", **draw_ata_context(draw))


def draw_ata_document(draw: Draw | int):
    """A ``QTextDocument`` of the ata, for the print dialog."""
    return text_document(draw_ata_html(draw))


def write_draw_ata_pdf(draw: Draw | int, path: str | Path) -> Path:
    number = draw.id if isinstance(draw, Draw) else draw
    return html_to_pdf(draw_ata_html(draw), path, title=f"Ata do sorteio nº {number}")
