"""The list of stalls printed after the map, and the breaches of the act the map keeps, each with its reason."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt

from models.sites.layout import SIDE_LABELS
from reports.site_map.canvas import Canvas, export_regime, metres_text
from reports.site_map.geometry import HEADER_H, INK, KERB, MARGIN, MUTED
from reports.site_map.pages import PageChoice
from reports.site_map.painting import paint_header

# --------------------------------------------------------------------------- the list of stalls

_COLUMNS = (
    ("Nº", 12.0),
    ("Seção", 16.0),
    ("Ramo / equipamento", 0.0),
    ("Lado", 14.0),
    ("Início", 20.0),
    ("Frente × prof.", 30.0),
    ("Permissão", 24.0),
    ("Titular", 0.0),
)  # 0: a share of what is left
_ROW_H = 5.4


def rows_per_page(choice: PageChoice) -> int:
    return max(1, int((choice.height - 2 * MARGIN - HEADER_H - 8) // _ROW_H))


def count_list_pages(export: dict, choice: PageChoice) -> int:
    stalls = export.get("stalls", [])
    return 0 if not stalls else math.ceil(len(stalls) / rows_per_page(choice))


def _what_sells(stall: dict, regime) -> str:
    if regime is None:
        return stall.get("line") or stall.get("equipment") or ""
    line = next((ln for ln in regime.lines if ln.id == stall.get("line")), None)
    if line is not None:
        return line.label
    kind = next((e for e in regime.equipment_kinds if e.id == stall.get("equipment")), None)
    if stall.get("end_vendor"):
        return "Ponta de feira"
    return kind.label if kind is not None else ""


def paint_list_page(c: Canvas, export: dict, choice: PageChoice, rows: list[dict], *, page: int, pages: int) -> None:
    regime = export_regime(export)
    paint_header(c, export, choice, page=page, pages=pages, what="Bancas e titulares")
    width = choice.width - 2 * MARGIN
    fixed = sum(w for _, w in _COLUMNS)
    shares = sum(1 for _, w in _COLUMNS if not w)
    widths = [w if w else (width - fixed) / shares for _, w in _COLUMNS]
    top = MARGIN + HEADER_H + 2
    c.no_pen()
    c.brush("#E8EBEE")
    c.rect(MARGIN, top, width, _ROW_H)
    c.pen(INK)
    c.font(2.6, bold=True)
    x = MARGIN
    for (title, _), w in zip(_COLUMNS, widths, strict=True):
        c.text(x + 1, top, w - 2, _ROW_H, title)
        x += w
    top += _ROW_H
    for i, stall in enumerate(rows):
        if i % 2:
            c.no_pen()
            c.brush("#F6F7F8")
            c.rect(MARGIN, top, width, _ROW_H)
        c.brush(None)
        holder = stall.get("holder")
        values = (
            str(stall["number"]),
            stall.get("section_numeral") or "",
            _what_sells(stall, regime),
            SIDE_LABELS.get(stall.get("side") or "", stall.get("side") or "").replace("lado ", "").upper(),
            metres_text(stall["x"]),
            f"{metres_text(stall['width'])} × {metres_text(stall['depth'])}".replace(" m ×", " ×"),
            holder or "—",
            stall.get("holder_name") or ("banca livre" if not holder else ""),
        )
        x = MARGIN
        c.font(2.6)
        for j, (value, w) in enumerate(zip(values, widths, strict=True)):
            c.pen(MUTED if (j == 7 and not holder) else INK)
            align = Qt.AlignmentFlag.AlignRight if j in (0, 4) else Qt.AlignmentFlag.AlignLeft
            c.text(x + 1, top, w - 2.5, _ROW_H, c.elided(value, w - 2.5), align | Qt.AlignmentFlag.AlignVCenter)
            x += w
        top += _ROW_H
    c.pen(KERB, 0.2)
    c.line(MARGIN, top, MARGIN + width, top)
    held = sum(1 for s in export.get("stalls", []) if s.get("holder"))
    if page == pages:
        c.pen(MUTED)
        c.font(2.6)
        c.text(MARGIN, top + 1, width, 5, f"{len(export.get('stalls', []))} banca(s), {held} com titular.")


# --------------------------------------------------------------------------- the breaches kept, with their reasons

_BREACH_H = 2 * _ROW_H


def breaches_per_page(choice: PageChoice) -> int:
    return max(1, int((choice.height - 2 * MARGIN - HEADER_H - 8) // _BREACH_H))


def count_breach_pages(export: dict, choice: PageChoice) -> int:
    """Every breach the map keeps is printed with its reason (issue 31 §6: the printed map left them out)."""
    kept = export.get("kept_breaches") or []
    return 0 if not kept else math.ceil(len(kept) / breaches_per_page(choice))


def paint_breach_page(c: Canvas, export: dict, choice: PageChoice, rows: list[dict], *, page: int, pages: int) -> None:
    paint_header(c, export, choice, page=page, pages=pages, what="Irregularidades mantidas, com a justificativa")
    width = choice.width - 2 * MARGIN
    top = MARGIN + HEADER_H + 2
    for kept in rows:
        stalls = kept.get("stalls") or []
        who = "Banca" if len(stalls) == 1 else "Bancas"
        head = f"{who} {', '.join(stalls)}: {kept.get('message', '')}" if stalls else kept.get("message", "")
        if kept.get("basis"):
            head += f" ({kept['basis']})"
        on = kept.get("kept_on") or ""
        day = f"{on[8:10]}/{on[5:7]}/{on[0:4]}" if len(on) == 10 else on
        by = ", ".join(p for p in (kept.get("kept_by") or "", day) if p)
        reason = f"Justificativa: {kept.get('reason', '')}" + (f" — {by}" if by else "")
        c.pen(INK)
        c.font(2.8, bold=True)
        c.text(MARGIN, top, width, _ROW_H, c.elided(head, width), Qt.AlignmentFlag.AlignVCenter)
        c.font(2.7)
        c.text(MARGIN + 4, top + _ROW_H, width - 4, _ROW_H, c.elided(reason, width - 4), Qt.AlignmentFlag.AlignVCenter)
        top += _BREACH_H
        c.pen(KERB, 0.15)
        c.line(MARGIN, top, MARGIN + width, top)
