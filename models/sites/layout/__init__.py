"""Stall plans in metres: the legal auto-layout and the live checks of a plan.

Pure and fast: no database, no Qt. Everything the law decides comes from the
regime (``[layout]``, ``[[sections]]``, ``[[lines]]``, ``[[equipment]]``);
nothing here knows a town.

Coordinates of a street segment (a :class:`Segment`):

* ``x`` runs along the street, from the ``from`` end (0) to ``length``;
* ``y`` runs across the carriageway, from the kerb of side ``"a"`` (0) to the
  kerb of side ``"b"`` (``width``);
* a stall's ``(x, y)`` is the corner of its footprint nearest to the origin;
  its footprint along the street is ``width + hitch`` (the trailer's hitch
  first, at the lower ``x``: São Bento, Dec. 4.794/2026, art. 9º, § 1º counts
  it as part of the structure) and ``depth`` across it. ``rotation`` is 0, 90,
  180 or 270 degrees; at 90/270 the two extents swap. The auto-layout puts the
  stalls of side ``"a"`` against its kerb (``y = 0``, rotation 0) and those of
  side ``"b"`` against the other (``y = width − depth``, rotation 180), facing
  the middle of the street.

Readings of the acts, each with its article in the notes and breaches:

* **Sections and sides.** A section with ``side``/``order`` goes on that side
  in that order (SJC, Lei 9.158/2014, art. 8º, § 2º: I–IX on one side, X–XXVIII
  on the other); a section without a side follows the regime's order, side
  ``"a"`` first, continuing on side ``"b"``; a stall without a section goes
  after the sections. A section of side ``"b"`` on a segment that uses one
  side only is not placed (the act wants it on the other side).
* **One section per ramo** (art. 8º, caput): a stall whose line is not one of
  its section's lines, or a section laid out in two separate runs, is a breach.
* **Sizes by line** (art. 5º): the line's front × depth is the largest stall
  of that line; an equipment's ``max_front``/``max_depth`` (or its fixed
  ``front``/``depth``) likewise.
* **Gap** between neighbouring stalls of one row: the regime's ``min_gap``
  (Olímpia, LC 324/2025, art. 206, I: 0,50 m); when the act leaves it to the
  Administration (São Bento, art. 11, § 4º; art. 9º, § 10) the caller gives it;
  a caller's gap may be larger than the legal one, never smaller.
* **Crossings and garages** are kept free where the regime says so
  (``no_crossings``: art. 206, IV; ``keep_garages_free``: art. 206, II; Sapezal,
  Lei 1.171/2014, art. 43). Other obstacle kinds block only when the caller
  lists them in ``avoid`` (an Administration's choice). The regime's
  ``min_distance_from`` rules are named in the notes, not applied: the acts
  aim them at itinerant vendors, not at feira stalls (see the regimes' notes).
* **Feira-end vendors** (Sapezal, art. 68): at most ``end_vendors`` front ×
  depth (2,00 × 1,00 m), at least ``min_distance`` (1 m) from the first and
  the last stall, at the ends of the feira: head of side A, tail of side A,
  head of side B, tail of side B, in turn.
* **Maximum points** (Ilha Comprida, Dec. 890/2017, art. 22: 60).

Positions are kept in whole millimetres inside (exact and fast) and handed
out as ``Decimal`` metres.

The package, one module per seam (each imports only the ones listed before it):

* :mod:`~models.sites.layout.units` — millimetres and metres, the constants of a plan.
* :mod:`~models.sites.layout.plan_data` — the plain data of a plan.
* :mod:`~models.sites.layout.readings` — what the regime says about a plan.
* :mod:`~models.sites.layout.auto` — the legal auto-layout.
* :mod:`~models.sites.layout.checks` — the live checks of a plan a clerk edits.
"""

from models.sites.layout.auto import auto_layout
from models.sites.layout.checks import check_plan
from models.sites.layout.plan_data import (
    Breach,
    Layout,
    Obstacle,
    PlacedStall,
    Segment,
    StallRequest,
)
from models.sites.layout.readings import resolve_gap
from models.sites.layout.units import (
    NUMBERING,
    OBSTACLE_KINDS,
    ROTATIONS,
    SIDE_LABELS,
    SIDE_USES,
    SIDES,
    format_metres,
    from_mm,
    to_mm,
)

__all__ = [
    "NUMBERING",
    "OBSTACLE_KINDS",
    "ROTATIONS",
    "SIDES",
    "SIDE_LABELS",
    "SIDE_USES",
    "Breach",
    "Layout",
    "Obstacle",
    "PlacedStall",
    "Segment",
    "StallRequest",
    "auto_layout",
    "check_plan",
    "format_metres",
    "from_mm",
    "resolve_gap",
    "to_mm",
]
