"""The page chosen for a map: paper, orientation and scale, the strips a long segment is cut into."""

from __future__ import annotations

from dataclasses import dataclass, field

from reports.site_map.geometry import (
    END_BAND,
    FOOTER_H,
    HEADER_H,
    LEGIBLE_MM,
    MARGIN,
    MIN_SIDEWALK_MM,
    PAPERS,
    RULER_H,
    SCALES,
    SEGMENT_TITLE_H,
    SIDEWALK_M,
    STRIP_GAP,
    as_float,
    footprint,
)

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


def strip_breaks(length: float, intervals: list[tuple[float, float]], capacity: float) -> list[tuple[float, float]]:
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


def strip_height(segment: dict, mm_per_m: float) -> float:
    sidewalk = max(MIN_SIDEWALK_MM, SIDEWALK_M * mm_per_m)
    return RULER_H + 2 * sidewalk + as_float(segment["width"]) * mm_per_m


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
                    x0, _, along, _ = footprint(stall)
                    intervals.append((x0, x0 + along))
            pieces = strip_breaks(as_float(seg["length"]), intervals, capacity)
            if len(segments) > 1:
                used += SEGMENT_TITLE_H
            used += len(pieces) * (strip_height(seg, mm_per_m) + STRIP_GAP)
            strips += [Strip(seg["position"], a, b, i == 0, i == len(pieces) - 1) for i, (a, b) in enumerate(pieces)]
        if used <= avail_h:
            return PageChoice(paper, width, height, scale, strips)
    return None


def choose_page(export: dict, *, paper: str | None = None) -> PageChoice:
    """A4 when the map is legible on it, else A3 (or the ``paper`` asked for), at the finest scale that fits."""
    if not export.get("segments"):
        name = paper or "A4"
        return PageChoice(name, *PAPERS[name], scale=0)
    smallest = min((min(footprint(s)[2], footprint(s)[3]) for s in export.get("stalls", [])), default=2.0)
    options = [paper] if paper else ["A4", "A3"]
    found = {name: _layout_on(export, name, *PAPERS[name]) for name in options}
    for name in options:
        choice = found[name]
        if choice is not None and smallest * choice.mm_per_m >= LEGIBLE_MM:
            return choice
    for name in reversed(options):
        fitting = found[name]
        if fitting is not None:
            return fitting
    name = options[-1]
    choice = _layout_on(export, name, PAPERS[name][0], 1e9) or PageChoice(name, *PAPERS[name], scale=SCALES[-1])
    choice.height = PAPERS[name][1]
    choice.fits = False
    return choice


def layout_for_page(export: dict, width: float, height: float) -> PageChoice:
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
