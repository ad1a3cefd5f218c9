"""The map's dimensions and colours: the frame drawn around the segment, the palette, a length's text."""

from __future__ import annotations

from PySide6.QtGui import (
    QColor,
)

from models.sites.layout import format_metres

PERMIT_MIME = "application/x-praca-permit"


SIDEWALK = 2500  # mm drawn for each sidewalk (not data: a frame for the obstacles)


END_BAND = 8000  # mm of the cross street drawn at each end


RULER = 3500


NUDGE_COMMAND = 1701  # QUndoCommand.id() of arrow-key nudges, which merge


ASPHALT = QColor("#D7DBDF")


SIDEWALK_COLOUR = QColor("#F1EFEA")


KERB = QColor("#8A8F94")


INK = QColor("#1F2328")


MUTED = QColor("#5F6B76")


BREACH = QColor("#D50000")


KEPT = QColor("#EF6C00")


SELECTED = QColor("#1E88E5")


# The drawing's own ground and fills: the map is drawn as it is printed, on white, whatever the appearance
# (views/theme.py: Sistema, Claro, Escuro); what is written over it keeps these dark inks.
PAPER = QColor("#FBFBFA")
WHITE = QColor("#FFFFFF")
OVERLAY = QColor(255, 255, 255, 215)  # the scale bar's ground over the map
LEGEND_BORDER = QColor("#C8CCD0")
HATCH = QColor(0, 0, 0, 30)  # the sidewalk's hatching
STREET_NAME = QColor("#9AA1A8")
TREE_CROWN = QColor("#66BB6A")
BREACH_HATCH = QColor(213, 0, 0, 90)  # a strip kept free, hatched in the breach's red
TOW = QColor("#9E9E9E")  # a trailer's hitch
SELECTED_FILL = QColor("#DCEBFA")
OBSTACLE_DEFAULT = "#607D8B"


def grid_pen_colour(alpha: int) -> QColor:
    return QColor(0, 0, 0, alpha)


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


SPOT = 4  # px: a stall smaller than this across is drawn as a spot of its colour


def metre_text(mm: int) -> str:
    return format_metres(mm, mm=True)


_COLOURS: dict[str, QColor] = {}


def colour_of(hex_code: str) -> QColor:
    """One QColor per colour of the legend (a map paints thousands of stalls in a few colours)."""
    colour = _COLOURS.get(hex_code)
    if colour is None:
        colour = _COLOURS[hex_code] = QColor(hex_code)
    return colour
