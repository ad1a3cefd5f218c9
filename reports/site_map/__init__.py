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

The package: :mod:`geometry` (palette and a stall's parts, shared with the editor), :mod:`pages` (the paper and scale
chosen), :mod:`canvas` and :mod:`painting` (the map drawn in millimetres), :mod:`stall_list` (the list of
stalls) and :mod:`documents` (PDF, PNG, SVG and the printer).
"""

from __future__ import annotations

from reports.site_map.documents import (
    prepare_printer,
    print_map,
    write_pdf,
    write_png,
    write_svg,
)
from reports.site_map.geometry import (
    OBSTACLE_MARKS,
    PAPERS,
    SCALES,
    stall_parts,
)
from reports.site_map.pages import (
    PageChoice,
    choose_page,
    strip_breaks,
)

__all__ = [
    "OBSTACLE_MARKS",
    "PAPERS",
    "SCALES",
    "PageChoice",
    "choose_page",
    "prepare_printer",
    "print_map",
    "stall_parts",
    "strip_breaks",
    "write_pdf",
    "write_png",
    "write_svg",
]
