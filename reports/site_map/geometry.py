"""The map's palette and the geometry it shares with the editor: a stall's parts and footprint."""

from __future__ import annotations

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
OBSTACLE_COLOURS = {
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


def as_float(value) -> float:
    return 0.0 if value is None else float(value)


def footprint(stall: dict) -> tuple[float, float, float, float]:
    """(x0, y0, along, across) in metres."""
    length = as_float(stall["width"]) + as_float(stall.get("hitch"))
    depth = as_float(stall["depth"])
    along, across = (depth, length) if int(stall.get("rotation") or 0) % 180 == 90 else (length, depth)
    return as_float(stall["x"]), as_float(stall["y"]), along, across
