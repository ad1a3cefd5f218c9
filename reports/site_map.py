"""The printed map of a site: PDF (A4 or A3 landscape, to scale), PNG and SVG, from :func:`models.sites.site_export`.

Page 1 is the map at a standard scale stated on the page (1:200, 1:500…):
the street cut into strips of the page's width when it is longer than one,
the carriageway with both sides, the obstacles, each stall in its section's
colour (SJC, Lei 9.158/2014, art. 9º: "verde e branco", "vermelho e
branco", "azul e branco" — drawn as a white stall with the colour on its back
half) with its number and section, the streets at each end named, a legend
with the article of each colour and a scale bar. The paper is A4 when the map
is legible on it (the smallest stall at least 5 mm on paper), else A3. The
following pages list every stall with its holder.

A site without a street (a beach with named points) prints the list of its
points with their descriptions instead of a drawing.

PNG and SVG hold page 1. Everything comes from the export dict, so the same
functions serve ``praca layout export`` (headless: a Qt application is made
offscreen when there is none) and the map editor (its plan's
:meth:`models.sites.stall_plan.StallPlan.export`, saved or not).

:func:`stall_parts` says where a stall's colour band and hitch go; the editor
draws its stalls with it too, so screen and paper agree.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)

from models.rules.regimes import RegimeError, get_regime
from models.sites.layout import SIDE_LABELS, format_metres
from models.sites.stall_plan import legend, legend_entry
from models.store.outfile import atomic_writer
from reports.qt_fonts import FAMILY, ensure_gui_app

__all__ = [
    "OBSTACLE_MARKS",
    "PAPERS",
    "SCALES",
    "PageChoice",
    "Strip",
    "choose_page",
    "paint_document",
    "print_map",
    "stall_parts",
    "write_pdf",
    "write_png",
    "write_svg",
]

PAPERS = {"A4": (297.0, 210.0), "A3": (420.0, 297.0)}  # landscape, mm
SCALES = (50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000)
LEGIBLE_MM = 5.0  # the smallest stall side on paper that still takes its number
MARGIN = 10.0
HEADER_H = 21.0
FOOTER_H = 30.0
END_BAND = 9.0  # the cross street drawn at each end of a segment
RULER_H = 4.5
STRIP_GAP = 4.0
SEGMENT_TITLE_H = 6.0
SIDEWALK_M = 2.0
MIN_SIDEWALK_MM = 3.0

OBSTACLE_MARKS = {
    "garage": "G",
    "crossing": "",
    "bus-stop": "PO",
    "taxi-stop": "PT",
    "school-gate": "E",
    "hydrant": "H",
    "tree": "",
    "building-entrance": "EE",
}
_OBSTACLE_COLOURS = {
    "garage": "#6D4C41",
    "crossing": "#424242",
    "bus-stop": "#1E88E5",
    "taxi-stop": "#FBC02D",
    "school-gate": "#8E24AA",
    "hydrant": "#D32F2F",
    "tree": "#388E3C",
    "building-entrance": "#5D4037",
}
ASPHALT = "#D7DBDF"
SIDEWALK = "#F1EFEA"
KERB = "#8A8F94"
INK = "#1F2328"
MUTED = "#5F6B76"

# --------------------------------------------------------------------------- geometry shared with the editor


def stall_parts(along: float, across: float, hitch: float, rotation: int, band: float = 0.4):
    """Where to draw a stall inside its footprint ``(0, 0)–(along, across)``: ``(body, band, hitch)``.

    Each is ``(x0, y0, x1, y1)`` in the footprint's units; ``hitch`` is None
    when there is none. The band of colour is on the back of the stall, away
    from the customers: a stall at rotation 0 (side A) faces +y, 180 faces −y,
    90 faces −x and 270 faces +x. The hitch comes first along the stall's own
    axis (lower x, or lower y when turned).
    """
    if rotation % 180 == 0:
        body = (hitch, 0.0, along, across)
        tow = (0.0, across * 0.42, hitch, across * 0.58) if hitch else None
        if rotation == 0:
            strip = (hitch, 0.0, along, across * band)
        else:
            strip = (hitch, across * (1 - band), along, across)
    else:
        body = (0.0, hitch, along, across)
        tow = (along * 0.42, 0.0, along * 0.58, hitch) if hitch else None
        if rotation == 90:
            strip = (along * (1 - band), hitch, along, across)
        else:
            strip = (0.0, hitch, along * band, across)
    return body, strip, tow


def _f(value) -> float:
    return 0.0 if value is None else float(value)


def _footprint(stall: dict) -> tuple[float, float, float, float]:
    """(x0, y0, along, across) in metres."""
    length = _f(stall["width"]) + _f(stall.get("hitch"))
    depth = _f(stall["depth"])
    along, across = (depth, length) if int(stall.get("rotation") or 0) % 180 == 90 else (length, depth)
    return _f(stall["x"]), _f(stall["y"]), along, across


# --------------------------------------------------------------------------- page choice


@dataclass(frozen=True)
class Strip:
    segment: int  # position of the segment
    start: float  # metres along it
    end: float
    first: bool
    last: bool


@dataclass
class PageChoice:
    paper: str
    width: float  # mm
    height: float
    scale: int  # the n of 1:n (0 when there is no drawing)
    strips: list[Strip] = field(default_factory=list)
    fits: bool = True

    @property
    def mm_per_m(self) -> float:
        return 1000.0 / self.scale if self.scale else 0.0


def _breaks(length: float, intervals: list[tuple[float, float]], capacity: float) -> list[tuple[float, float]]:
    """Cut ``[0, length]`` into pieces of at most ``capacity`` metres, between stalls where possible."""
    merged: list[list[float]] = []
    for a, b in sorted(intervals):
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    out = []
    start = 0.0
    while length - start > 1e-6:
        end = min(length, start + capacity)
        if end < length:
            inside = next((m for m in merged if m[0] < end < m[1]), None)
            if inside is not None and inside[0] - start >= capacity * 0.5:
                # the middle of the free space before that run of stalls
                before = max((m[1] for m in merged if m[1] <= inside[0]), default=start)
                end = (max(before, start) + inside[0]) / 2 if inside[0] > max(before, start) else inside[0]
        out.append((start, end))
        start = end
    return out or [(0.0, length)]


def _strip_height(segment: dict, mm_per_m: float) -> float:
    sidewalk = max(MIN_SIDEWALK_MM, SIDEWALK_M * mm_per_m)
    return RULER_H + 2 * sidewalk + _f(segment["width"]) * mm_per_m


def _layout_on(export: dict, paper: str, width: float, height: float) -> PageChoice | None:
    """The finest standard scale at which every segment fits the page, or None."""
    segments = export.get("segments") or []
    avail_w = width - 2 * MARGIN - 2 * END_BAND
    avail_h = height - 2 * MARGIN - HEADER_H - FOOTER_H
    for scale in SCALES:
        mm_per_m = 1000.0 / scale
        capacity = avail_w / mm_per_m
        strips: list[Strip] = []
        used = 0.0
        for seg in segments:
            intervals = []
            for stall in export.get("stalls", []):
                if stall.get("segment", 0) == seg["position"]:
                    x0, _, along, _ = _footprint(stall)
                    intervals.append((x0, x0 + along))
            pieces = _breaks(_f(seg["length"]), intervals, capacity)
            if len(segments) > 1:
                used += SEGMENT_TITLE_H
            used += len(pieces) * (_strip_height(seg, mm_per_m) + STRIP_GAP)
            strips += [Strip(seg["position"], a, b, i == 0, i == len(pieces) - 1) for i, (a, b) in enumerate(pieces)]
        if used <= avail_h:
            return PageChoice(paper, width, height, scale, strips)
    return None


def choose_page(export: dict, *, paper: str | None = None) -> PageChoice:
    """A4 when the map is legible on it, else A3 (or the ``paper`` asked for), at the finest scale that fits."""
    if not export.get("segments"):
        name = paper or "A4"
        return PageChoice(name, *PAPERS[name], scale=0)
    smallest = min((min(_footprint(s)[2], _footprint(s)[3]) for s in export.get("stalls", [])), default=2.0)
    options = [paper] if paper else ["A4", "A3"]
    found = {name: _layout_on(export, name, *PAPERS[name]) for name in options}
    for name in options:
        choice = found[name]
        if choice is not None and smallest * choice.mm_per_m >= LEGIBLE_MM:
            return choice
    for name in reversed(options):
        if found[name] is not None:
            return found[name]
    name = options[-1]
    choice = _layout_on(export, name, PAPERS[name][0], 1e9) or PageChoice(name, *PAPERS[name], scale=SCALES[-1])
    choice.height = PAPERS[name][1]
    choice.fits = False
    return choice


def _layout_for_page(export: dict, width: float, height: float) -> PageChoice:
    """For a paper the printer chose: the finest scale that fits it."""
    name = next((n for n, (w, h) in PAPERS.items() if abs(w - width) < 2 and abs(h - height) < 2), "")
    if not export.get("segments"):
        return PageChoice(name, width, height, 0)
    choice = _layout_on(export, name, width, height)
    if choice is None:
        choice = _layout_on(export, name, width, 1e9) or PageChoice(name, width, height, SCALES[-1])
        choice.height = height
        choice.fits = False
    return choice


# --------------------------------------------------------------------------- drawing in millimetres


class _Canvas:
    """A painter that takes millimetres: ``k`` device units per mm."""

    def __init__(self, painter: QPainter, k: float):
        self.p = painter
        self.k = k

    def r(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(x * self.k, y * self.k, w * self.k, h * self.k)

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.k, y * self.k)

    def font(self, size: float, *, bold: bool = False, italic: bool = False) -> QFont:
        font = QFont(FAMILY)  # shipped and registered (reports/qt_fonts.py)
        font.setPixelSize(max(1, round(size * self.k)))
        font.setBold(bold)
        font.setItalic(italic)
        self.p.setFont(font)
        return font

    def pen(self, colour: str | QColor = INK, width: float = 0.2, style=Qt.PenStyle.SolidLine) -> None:
        pen = QPen(QColor(colour))
        pen.setWidthF(max(0.5, width * self.k))
        pen.setStyle(style)
        self.p.setPen(pen)

    def no_pen(self) -> None:
        self.p.setPen(Qt.PenStyle.NoPen)

    def brush(self, colour: str | QColor | None, style=Qt.BrushStyle.SolidPattern) -> None:
        self.p.setBrush(Qt.BrushStyle.NoBrush if colour is None else QBrush(QColor(colour), style))

    def rect(self, x, y, w, h) -> None:
        self.p.drawRect(self.r(x, y, w, h))

    def line(self, x0, y0, x1, y1) -> None:
        self.p.drawLine(self.pt(x0, y0), self.pt(x1, y1))

    def text(self, x, y, w, h, text: str, flags=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter) -> None:
        self.p.drawText(self.r(x, y, w, h), int(flags), text)

    def width_of(self, text: str) -> float:
        return QFontMetricsF(self.p.font()).horizontalAdvance(text) / self.k

    def elided(self, text: str, width: float) -> str:
        return QFontMetricsF(self.p.font()).elidedText(text, Qt.TextElideMode.ElideRight, width * self.k)


def _regime(export: dict):
    try:
        return get_regime(export["site"]["regime"])
    except (RegimeError, KeyError):
        return None


def _today() -> str:
    return _dt.date.today().strftime("%d/%m/%Y")


def _metres(value) -> str:
    return format_metres(Decimal(value) if not isinstance(value, Decimal) else value)


def _segment_title(seg: dict) -> str:
    if seg.get("from") and seg.get("to"):
        return f"{seg['street']}, entre {seg['from']} e {seg['to']}"
    return seg["street"]


def _paint_header(c: _Canvas, export: dict, choice: PageChoice, *, page: int, pages: int, what: str = "") -> None:
    site = export["site"]
    x, w = MARGIN, choice.width - 2 * MARGIN
    c.pen(INK)
    c.font(5.2, bold=True)
    c.text(x, MARGIN, w * 0.7, 7, c.elided(site["name"], w * 0.7))
    c.font(3.0)
    kind = {"street": "rua (trecho)", "feira": "feira", "event-area": "área de evento", "beach": "praia"}.get(
        site.get("kind", ""), site.get("kind", "")
    )
    segments = export.get("segments") or []
    where = "; ".join(_segment_title(s) for s in segments) if segments else "pontos nomeados pelo ato"
    c.pen(MUTED)
    c.text(x, MARGIN + 7.5, w * 0.72, 5, c.elided(f"{where} — {kind} — {site.get('regime_short', '')}", w * 0.72))
    right = []
    if choice.scale:
        right.append(f"Escala 1:{choice.scale} (1 cm = {_metres(Decimal(choice.scale) / 100)})")
    right.append(f"Emitido em {_today()} — página {page} de {pages}")
    c.pen(INK)
    c.font(3.6, bold=True)
    c.text(
        x, MARGIN, w, 7, right[0] if choice.scale else "", Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    )
    c.font(3.0)
    c.pen(MUTED)
    c.text(x, MARGIN + 7.5, w, 5, right[-1], Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if what:
        c.pen(INK)
        c.font(3.4, bold=True)
        c.text(x, MARGIN + 13, w, 5, what)
    c.pen(KERB, 0.3)
    c.line(x, MARGIN + HEADER_H - 2, x + w, MARGIN + HEADER_H - 2)


def _ruler_step(scale: int) -> float:
    """Metres between the ruler's marks: about 15 mm apart on paper."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if step * 1000.0 / scale >= 15:
            return float(step)
    return 1000.0


def _paint_strip(c: _Canvas, export: dict, strip: Strip, seg: dict, top: float, choice: PageChoice, regime) -> float:
    """One strip of a segment from ``top``; returns its height."""
    k_m = choice.mm_per_m
    left = MARGIN + END_BAND
    width_m = _f(seg["width"])
    sidewalk = max(MIN_SIDEWALK_MM, SIDEWALK_M * k_m)
    span = (strip.end - strip.start) * k_m
    ruler_y = top
    a_top = top + RULER_H
    road_top = a_top + sidewalk
    road_h = width_m * k_m
    b_top = road_top + road_h

    def X(metres: float) -> float:  # noqa: N802 - a coordinate
        return left + (metres - strip.start) * k_m

    # ruler: metres along the segment
    step = _ruler_step(choice.scale)
    c.pen(MUTED, 0.15)
    c.font(2.2)
    mark = math.ceil(strip.start / step - 1e-9) * step
    while mark <= strip.end + 1e-9:
        c.line(X(mark), ruler_y + RULER_H - 1.2, X(mark), ruler_y + RULER_H)
        label = f"{format_metres(Decimal(str(mark)).quantize(Decimal('1')))}".replace(",00", "")
        c.text(
            X(mark) - 10,
            ruler_y,
            20,
            RULER_H - 1.2,
            label,
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
        )
        mark += step
    # sidewalks, kerbs, carriageway, centre line
    c.no_pen()
    c.brush(SIDEWALK)
    c.rect(left, a_top, span, sidewalk)
    c.rect(left, b_top, span, sidewalk)
    c.brush(ASPHALT)
    c.rect(left, road_top, span, road_h)
    c.pen(KERB, 0.35)
    c.line(left, road_top, left + span, road_top)
    c.line(left, b_top, left + span, b_top)
    c.pen("#FFFFFF", 0.3, Qt.PenStyle.DashLine)
    c.line(left, road_top + road_h / 2, left + span, road_top + road_h / 2)
    c.brush(None)
    # side names on the sidewalks
    c.pen(MUTED)
    c.font(min(2.4, sidewalk * 0.7), italic=True)
    sides = seg.get("sides", "both")
    c.text(left + 1, a_top, 40, sidewalk, "Lado A — calçada")
    c.text(left + 1, b_top, 40, sidewalk, "Lado B — calçada" if sides == "both" else "Lado B — sem bancas")
    c.font(min(3.0, road_h * 0.3), bold=True)
    c.pen("#9AA1A8")
    c.text(left, road_top, span, road_h, seg["street"], Qt.AlignmentFlag.AlignCenter)

    c.p.save()
    c.p.setClipRect(c.r(left, a_top, span, b_top + sidewalk - a_top))
    # obstacles on their side's sidewalk; crossings and garages marked across the kerb lane
    for obstacle in export.get("obstacles", []):
        if obstacle.get("segment", 0) != seg["position"]:
            continue
        x0, x1 = _f(obstacle["start"]), _f(obstacle["start"]) + _f(obstacle["extent"])
        if x1 < strip.start or x0 > strip.end:
            continue
        colour = _OBSTACLE_COLOURS.get(obstacle["kind"], MUTED)
        for side in ("a", "b") if obstacle["side"] == "both" else (obstacle["side"],):
            y = a_top if side == "a" else b_top
            w = max(1.8, (x1 - x0) * k_m)
            if obstacle["kind"] == "tree":
                c.pen("#1B5E20", 0.2)
                c.brush("#66BB6A")
                d = min(sidewalk * 0.9, max(1.8, w))
                c.p.drawEllipse(c.r(X((x0 + x1) / 2) - d / 2, y + (sidewalk - d) / 2, d, d))
            else:
                c.pen(colour, 0.2)
                c.brush(colour)
                c.rect(X(x0), y + sidewalk * 0.15, w, sidewalk * 0.7)
                mark = OBSTACLE_MARKS.get(obstacle["kind"], "")
                if mark:
                    c.pen("#FFFFFF")
                    c.font(min(2.2, sidewalk * 0.55), bold=True)
                    if c.width_of(mark) < w + 2:
                        c.text(X(x0) - 2, y, w + 4, sidewalk, mark, Qt.AlignmentFlag.AlignCenter)
            if obstacle["kind"] in ("garage", "crossing"):
                c.pen("#C62828", 0.2)
                c.brush("#C62828", Qt.BrushStyle.BDiagPattern)
                if obstacle["kind"] == "crossing" and obstacle["side"] == "both":
                    c.rect(X(x0), road_top, w, road_h)
                else:
                    lane = min(road_h / 2, 3.0 * k_m)
                    c.rect(X(x0), road_top if side == "a" else b_top - lane, w, lane)
    # stalls
    for stall in export.get("stalls", []):
        if stall.get("segment", 0) != seg["position"]:
            continue
        x0, y0, along, across = _footprint(stall)
        if x0 + along < strip.start or x0 > strip.end:
            continue
        _paint_stall(c, stall, X(x0), road_top + y0 * k_m, along * k_m, across * k_m, regime)
    c.p.restore()

    # the streets at each end, or where the strip goes on
    band_top, band_h = a_top, b_top + sidewalk - a_top
    for at_start in (True, False):
        x = MARGIN if at_start else left + span
        is_end = strip.first if at_start else strip.last
        if is_end:
            name = seg.get("from" if at_start else "to") or ""
            c.no_pen()
            c.brush(ASPHALT)
            c.rect(x + 0.6, band_top, END_BAND - 1.2, band_h)
            c.pen(KERB, 0.35)
            c.line(x + 0.6, band_top, x + 0.6, band_top + band_h)
            c.line(x + END_BAND - 0.6, band_top, x + END_BAND - 0.6, band_top + band_h)
            if name:
                c.p.save()
                c.p.translate(c.pt(x + END_BAND / 2, band_top + band_h / 2))
                c.p.rotate(-90)
                c.pen(INK)
                c.font(min(2.8, END_BAND * 0.32), bold=True)
                c.p.drawText(
                    QRectF(-band_h / 2 * c.k, -END_BAND / 2 * c.k, band_h * c.k, END_BAND * c.k),
                    int(Qt.AlignmentFlag.AlignCenter),
                    c.elided(name, band_h - 1),
                )
                c.p.restore()
        else:
            c.pen(MUTED)
            c.font(2.2, italic=True)
            arrow = "continuação" if at_start else "continua abaixo"
            c.p.save()
            c.p.translate(c.pt(x + END_BAND / 2, band_top + band_h / 2))
            c.p.rotate(-90)
            c.p.drawText(
                QRectF(-band_h / 2 * c.k, -END_BAND / 2 * c.k, band_h * c.k, END_BAND * c.k),
                int(Qt.AlignmentFlag.AlignCenter),
                arrow,
            )
            c.p.restore()
    return RULER_H + 2 * sidewalk + road_h


def _paint_stall(c: _Canvas, stall: dict, x: float, y: float, w: float, h: float, regime) -> None:
    entry = (
        legend_entry(regime, stall.get("section"), stall.get("equipment"), bool(stall.get("end_vendor")))
        if regime is not None
        else None
    )
    colour = QColor(entry.hex if entry else "#78909C")
    hitch_mm = (
        _f(stall.get("hitch"))
        * (w if int(stall.get("rotation") or 0) % 180 == 0 else h)
        / max(1e-9, (_f(stall["width"]) + _f(stall.get("hitch"))))
    )
    body, band, tow = stall_parts(w, h, hitch_mm, int(stall.get("rotation") or 0))
    if tow is not None:
        c.pen(INK, 0.15)
        c.brush("#9E9E9E")
        c.rect(x + tow[0], y + tow[1], tow[2] - tow[0], tow[3] - tow[1])
    c.pen(colour.darker(130), 0.25)
    c.brush("#FFFFFF")
    bx, by, bw, bh = x + body[0], y + body[1], body[2] - body[0], body[3] - body[1]
    c.rect(bx, by, bw, bh)
    c.no_pen()
    c.brush(colour)
    c.rect(x + band[0], y + band[1], band[2] - band[0], band[3] - band[1])
    c.pen(colour.darker(130), 0.25)
    c.brush(None)
    c.rect(bx, by, bw, bh)
    # the label in the white part: number, then section
    free = (bx, by, bw, bh)
    rotation = int(stall.get("rotation") or 0)
    if rotation == 0:
        free = (bx, by + bh * 0.4, bw, bh * 0.6)
    elif rotation == 180:
        free = (bx, by, bw, bh * 0.6)
    elif rotation == 90:
        free = (bx, by, bw * 0.6, bh)
    else:
        free = (bx + bw * 0.4, by, bw * 0.6, bh)
    fx, fy, fw, fh = free
    size = min(3.2, fh * 0.55, fw * 0.45)
    if size < 1.1:
        return
    number = str(stall["number"])
    numeral = stall.get("section_numeral") or ""
    band_w, band_h = band[2] - band[0], band[3] - band[1]
    if numeral and rotation in (0, 180) and band_h >= 1.6:
        # the section's numeral in white on its colour
        c.pen("#FFFFFF")
        c.font(min(2.4, band_h * 0.8), bold=True)
        if c.width_of(numeral) <= band_w - 0.4:
            c.text(x + band[0], y + band[1], band_w, band_h, numeral, Qt.AlignmentFlag.AlignCenter)
            numeral = ""
    c.pen(INK)
    c.font(size, bold=True)
    if fh >= size * 2.1 and numeral:
        c.text(fx, fy, fw, fh / 2, number, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
        c.font(size * 0.75)
        c.pen(MUTED)
        c.text(
            fx,
            fy + fh / 2,
            fw,
            fh / 2,
            c.elided(numeral, fw),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
        )
    else:
        c.text(fx, fy, fw, fh, number, Qt.AlignmentFlag.AlignCenter)


def _paint_footer(c: _Canvas, export: dict, choice: PageChoice, regime, *, with_list: bool = False) -> None:
    top = choice.height - MARGIN - FOOTER_H + 2
    x = MARGIN
    c.pen(KERB, 0.3)
    c.line(x, top - 1.5, choice.width - MARGIN, top - 1.5)
    entries = (
        legend(
            regime,
            ((s.get("section"), s.get("equipment"), bool(s.get("end_vendor"))) for s in export.get("stalls", [])),
        )
        if regime is not None
        else []
    )
    c.pen(INK)
    c.font(3.2, bold=True)
    if entries or export.get("obstacles"):
        c.text(x, top, 40, 5, "Legenda")
    bar_w = 62.0
    col_w = (choice.width - 2 * MARGIN - bar_w - 6) / 2
    row_h = 4.6
    rows_per_col = max(1, int((FOOTER_H - 7) // row_h))
    for i, entry in enumerate(entries):
        col, row = divmod(i, rows_per_col)
        if col > 1:
            break
        ex, ey = x + col * col_w, top + 5.5 + row * row_h
        c.pen(QColor(entry.hex).darker(130), 0.2)
        c.brush("#FFFFFF")
        c.rect(ex, ey + 0.4, 7, 3.4)
        c.no_pen()
        c.brush(entry.hex)
        c.rect(ex, ey + 0.4, 7, 3.4 * 0.4)
        c.brush(None)
        c.pen(INK)
        c.font(2.6, bold=True)
        head = entry.label
        c.text(ex + 8.5, ey, col_w - 9, 4.2, head)
        used = c.width_of(head) + 1.5
        c.font(2.4)
        c.pen(MUTED)
        rest = entry.detail + (f" ({entry.basis})" if entry.basis else "")
        c.text(ex + 8.5 + used, ey, col_w - 9 - used, 4.2, c.elided(rest, col_w - 9 - used))
    # obstacles and the list
    kinds = []
    for o in export.get("obstacles", []):
        if o["kind"] not in [k for k, _ in kinds]:
            kinds.append((o["kind"], o.get("kind_label") or o["kind"]))
    extra_row = top + 5.5 + min(len(entries), rows_per_col) * row_h
    notes = []
    if kinds:
        notes.append(
            "Obstáculos: "
            + " · ".join(f"{OBSTACLE_MARKS.get(k) or ('●' if k == 'tree' else '▨')} {label}" for k, label in kinds)
        )
    if export.get("stalls") and with_list:
        notes.append("Lista das bancas e titulares na página seguinte.")
    if notes and extra_row + 4 <= choice.height - MARGIN:
        c.font(2.4)
        c.pen(MUTED)
        c.text(x, extra_row, 2 * col_w, 4.2, c.elided("   ".join(notes), 2 * col_w))
    # scale bar
    if choice.scale:
        _paint_scale_bar(c, choice, choice.width - MARGIN - bar_w, top + 2, bar_w)
    if not choice.fits:
        c.pen("#B00020")
        c.font(2.6, bold=True)
        c.text(
            x,
            choice.height - MARGIN - 4,
            choice.width - 2 * MARGIN,
            4,
            "O trecho não coube inteiro nesta folha: use uma folha maior ou exporte por trecho.",
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        )


def _paint_scale_bar(c: _Canvas, choice: PageChoice, x: float, y: float, width: float) -> None:
    k_m = choice.mm_per_m
    total = 1.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step * k_m <= width - 6:
            total = float(step)
    parts = 4 if total not in (25.0, 250.0) else 5
    seg_mm = total * k_m / parts
    c.pen(INK)
    c.font(2.8, bold=True)
    c.text(x, y, width, 4.5, f"Escala 1:{choice.scale}", Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    bar_y = y + 8
    for i in range(parts):
        c.pen(INK, 0.2)
        c.brush(INK if i % 2 == 0 else "#FFFFFF")
        c.rect(x + i * seg_mm, bar_y, seg_mm, 1.6)
    c.brush(None)
    c.font(2.2)
    for i in range(parts + 1):
        value = total * i / parts
        label = (f"{value:g}".replace(".", ",")) + (" m" if i == parts else "")
        c.text(
            x + i * seg_mm - 8, bar_y + 1.8, 16, 3.5, label, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        )


def _paint_map_page(c: _Canvas, export: dict, choice: PageChoice, *, pages: int) -> None:
    with_list = pages > 1
    regime = _regime(export)
    _paint_header(c, export, choice, page=1, pages=pages)
    segments = {s["position"]: s for s in export.get("segments") or []}
    if not segments:
        _paint_points(c, export, choice, MARGIN + HEADER_H)
        _paint_footer(c, export, choice, regime, with_list=with_list)
        return
    top = MARGIN + HEADER_H
    limit = choice.height - MARGIN - FOOTER_H
    current = None
    for strip in choice.strips:
        seg = segments[strip.segment]
        if len(segments) > 1 and strip.segment != current:
            c.pen(INK)
            c.font(3.0, bold=True)
            c.text(
                MARGIN,
                top,
                choice.width - 2 * MARGIN,
                SEGMENT_TITLE_H,
                f"Trecho {strip.segment + 1}: {_segment_title(seg)}",
            )
            top += SEGMENT_TITLE_H
        current = strip.segment
        if top + _strip_height(seg, choice.mm_per_m) > limit + 0.01 and not choice.fits:
            break
        top += _paint_strip(c, export, strip, seg, top, choice, regime) + STRIP_GAP
    _paint_footer(c, export, choice, regime, with_list=with_list)


def _paint_points(c: _Canvas, export: dict, choice: PageChoice, top: float) -> None:
    c.pen(INK)
    c.font(3.4, bold=True)
    c.text(MARGIN, top, 200, 5, "Pontos nomeados pelo ato")
    top += 7
    width = choice.width - 2 * MARGIN
    for point in export.get("points", []):
        if top > choice.height - MARGIN - FOOTER_H - 5:
            break
        c.pen(INK)
        c.font(2.8, bold=True)
        c.text(MARGIN, top, 24, 4.5, point["code"])
        c.font(2.6)
        text = point.get("description") or point.get("label") or ""
        if point.get("basis"):
            text += f" ({export['site'].get('regime_short', '')}, {point['basis']})"
        c.text(MARGIN + 24, top, width - 24, 4.5, c.elided(text, width - 24))
        top += 5.2


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


def _rows_per_page(choice: PageChoice) -> int:
    return max(1, int((choice.height - 2 * MARGIN - HEADER_H - 8) // _ROW_H))


def _list_pages(export: dict, choice: PageChoice) -> int:
    stalls = export.get("stalls", [])
    return 0 if not stalls else math.ceil(len(stalls) / _rows_per_page(choice))


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


def _paint_list_page(c: _Canvas, export: dict, choice: PageChoice, rows: list[dict], *, page: int, pages: int) -> None:
    regime = _regime(export)
    _paint_header(c, export, choice, page=page, pages=pages, what="Bancas e titulares")
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
            SIDE_LABELS.get(stall.get("side"), stall.get("side") or "").replace("lado ", "").upper(),
            _metres(stall["x"]),
            f"{_metres(stall['width'])} × {_metres(stall['depth'])}".replace(" m ×", " ×"),
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


# --------------------------------------------------------------------------- documents


def paint_document(
    painter: QPainter, export: dict, choice: PageChoice, k: float, new_page: Callable[[], bool] | None = None
) -> int:
    """Paint page 1 (and, with ``new_page``, the list pages) with ``k`` device units per mm; returns pages."""
    list_pages = _list_pages(export, choice) if new_page is not None else 0
    pages = 1 + list_pages
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    c = _Canvas(painter, k)
    _paint_map_page(c, export, choice, pages=pages)
    if new_page is not None:
        per_page = _rows_per_page(choice)
        stalls = export.get("stalls", [])
        for n in range(list_pages):
            if not new_page():
                break
            _paint_list_page(c, export, choice, stalls[n * per_page : (n + 1) * per_page], page=n + 2, pages=pages)
    return pages


def _page_layout(choice: PageChoice) -> QPageLayout:
    size = (
        QPageSize(QPageSize.PageSizeId.A3 if choice.paper == "A3" else QPageSize.PageSizeId.A4)
        if choice.paper
        else QPageSize(QSizeF(choice.height, choice.width), QPageSize.Unit.Millimeter)
    )
    return QPageLayout(size, QPageLayout.Orientation.Landscape, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)


@atomic_writer("out", kind="pdf")
def write_pdf(export: dict, out: Path | str, *, paper: str | None = None) -> PageChoice:
    """The map (A4 or A3 landscape, to scale) and the list of stalls with their holders."""
    ensure_gui_app()
    choice = choose_page(export, paper=paper)
    writer = QPdfWriter(str(out))
    writer.setTitle(f"Mapa — {export['site']['name']}")
    writer.setCreator("Praça")
    writer.setResolution(300)
    writer.setPageLayout(_page_layout(choice))
    painter = QPainter(writer)
    try:
        paint_document(painter, export, choice, writer.resolution() / 25.4, new_page=writer.newPage)
    finally:
        painter.end()
    return choice


@atomic_writer("out", kind="png")
def write_png(export: dict, out: Path | str, *, dpi: int = 150, paper: str | None = None) -> PageChoice:
    """Page 1 of the map as a PNG at ``dpi`` (the paper's landscape aspect)."""
    ensure_gui_app()
    choice = choose_page(export, paper=paper)
    k = dpi / 25.4
    image = QImage(round(choice.width * k), round(choice.height * k), QImage.Format.Format_ARGB32)
    image.setDotsPerMeterX(round(dpi / 0.0254))
    image.setDotsPerMeterY(round(dpi / 0.0254))
    image.fill(QColor("#FFFFFF"))
    painter = QPainter(image)
    try:
        paint_document(painter, export, choice, k)
    finally:
        painter.end()
    if not image.save(str(out), "PNG"):
        from models.base.errors import UserError

        raise UserError(f"Não foi possível gravar {out}.", field="out")
    return choice


@atomic_writer("out", kind="svg")
def write_svg(export: dict, out: Path | str, *, paper: str | None = None) -> PageChoice:
    """Page 1 of the map as SVG (10 units per millimetre)."""
    ensure_gui_app()
    from PySide6.QtSvg import QSvgGenerator

    choice = choose_page(export, paper=paper)
    k = 10.0
    generator = QSvgGenerator()
    generator.setFileName(str(out))
    generator.setResolution(254)  # 10 dots per mm: the file's width and height come out in mm
    generator.setSize(QSize(round(choice.width * k), round(choice.height * k)))
    generator.setViewBox(QRect(0, 0, round(choice.width * k), round(choice.height * k)))
    generator.setTitle(f"Mapa — {export['site']['name']}")
    generator.setDescription(f"Escala 1:{choice.scale}" if choice.scale else "Pontos do local")
    painter = QPainter(generator)
    try:
        painter.fillRect(QRectF(0, 0, choice.width * k, choice.height * k), QColor("#FFFFFF"))
        paint_document(painter, export, choice, k)
    finally:
        painter.end()
    _name_generic_family(Path(out))
    return choice


def _name_generic_family(svg: Path) -> None:
    """Qt names only the font it drew with; a viewer without DejaVu Sans is told to fall back to sans-serif
    (Qt's own default, "Sans Serif", is that generic family)."""
    import re

    def generic(match: re.Match) -> str:
        family = match.group(1)
        return 'font-family="sans-serif"' if family == "Sans Serif" else f'font-family="{family}, sans-serif"'

    text = svg.read_text(encoding="utf-8")
    svg.write_text(re.sub(r'font-family="([^",]+)"', generic, text), encoding="utf-8")


def print_map(printer, export: dict) -> PageChoice:
    """Print on ``printer`` (a ``QPrinter`` the print dialog set up): the map at the finest scale that fits
    its paper, then the list of stalls."""
    printer.setFullPage(True)
    rect = printer.pageLayout().fullRect(QPageLayout.Unit.Millimeter)
    width, height = max(rect.width(), rect.height()), min(rect.width(), rect.height())
    if rect.width() < rect.height():
        printer.setPageOrientation(QPageLayout.Orientation.Landscape)
    choice = _layout_for_page(export, width, height)
    painter = QPainter(printer)
    try:
        paint_document(painter, export, choice, printer.resolution() / 25.4, new_page=printer.newPage)
    finally:
        painter.end()
    return choice


def prepare_printer(printer, export: dict) -> PageChoice:
    """Set ``printer`` to the paper :func:`choose_page` picks (before the print dialog shows)."""
    choice = choose_page(export)
    printer.setPageLayout(_page_layout(choice))
    return choice
