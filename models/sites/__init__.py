"""Sites (streets, feiras, event areas, beaches), their segments, obstacles, named points and stalls.

A **site** follows one regime: a street segment named by the act (São Bento,
Dec. 4.794/2026, art. 1º: Rua Cel. Ribeiro da Luz between Av. Dr. Rubião
Júnior and Rua 7 de Setembro), a feira with its weekdays and set-up, trading
and tear-down hours (SJC, Lei 9.158/2014, art. 10), an event area with a
maximum of points (Ilha Comprida, Dec. 890/2017, art. 22: 60) and its dates
(São Bento, arts. 2º and 5º), or a beach with named points (art. 23, § 2º:
Ponto 01 … Ponto 15). Each site has one or more **segments** (street, the
streets at both ends, length, carriageway width, sides used) with their
**obstacles**, and its **stalls**, placed in metres as :mod:`models.sites.layout`
describes.

The database itself keeps a stall to one holder (one ``holder`` column) and a
holder to one stall per site (a unique index on ``(site, holder)``, where
NULLs — free stalls — do not clash), and stall numbers unique per site.
Assigning a holder is one transaction; a clash found by the database (another
desk was quicker) is a pt-BR ``UserError`` and nothing is half-saved.

The package is split by what a module does: :mod:`~models.sites.tables`,
:mod:`~models.sites.queries` (reading), :mod:`~models.sites.editing` (the
site form), :mod:`~models.sites.plans`, :mod:`~models.sites.holders` and
:mod:`~models.sites.breaches` (kept breaches); this module re-exports their
public names. :func:`plan_of` gives a segment as the plain input of :mod:`models.sites.layout`
(:class:`Plan`), :func:`save_layout` writes a plan back, keeping each holder
with the stall of the same number.
"""

from __future__ import annotations

from models.sites.breaches import KeptBreach, drop_kept_breach, keep_breach, kept_breaches
from models.sites.editing import (
    ObstacleInput,
    PointInput,
    SegmentInput,
    SiteInput,
    delete_site,
    save_site,
    site_input,
)
from models.sites.holders import (
    HolderRow,
    assign_holder,
    check_assignment,
    requests_from_permits,
    site_holders,
    unassign_holder,
)
from models.sites.plans import (
    Plan,
    plan_of,
    save_layout,
)
from models.sites.queries import (
    find_site,
    named_points,
    site_export,
    site_rows,
    site_segments,
    stall_rows,
)
from models.sites.tables import (
    SITE_KINDS,
    NamedPoint,
    Site,
    SiteObstacle,
    SiteSegment,
    Stall,
    StallBreach,
)

__all__ = [
    "SITE_KINDS",
    "HolderRow",
    "KeptBreach",
    "NamedPoint",
    "ObstacleInput",
    "Plan",
    "PointInput",
    "SegmentInput",
    "Site",
    "SiteInput",
    "SiteObstacle",
    "SiteSegment",
    "Stall",
    "StallBreach",
    "assign_holder",
    "check_assignment",
    "delete_site",
    "drop_kept_breach",
    "find_site",
    "keep_breach",
    "kept_breaches",
    "named_points",
    "plan_of",
    "requests_from_permits",
    "save_layout",
    "save_site",
    "site_export",
    "site_holders",
    "site_input",
    "site_rows",
    "site_segments",
    "stall_rows",
    "unassign_holder",
]
