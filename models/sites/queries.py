"""Reading sites: finding one, the list of sites with their counts, a site's segments, points and stalls, the export.

Nothing here writes; :func:`find_site` is what every workflow of the package
starts with.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from peewee import (
    JOIN,
    fn,
)

from models.base.errors import UserError
from models.permits import Permit
from models.rules.regimes import RegimeError, get_regime
from models.sites.layout import (
    OBSTACLE_KINDS,
)
from models.sites.tables import NamedPoint, Site, SiteObstacle, SiteSegment, Stall, StallBreach


def find_site(site: Site | int | str) -> Site:
    """A site by row, id or exact name; ``UserError`` when there is none."""
    if isinstance(site, Site):
        return site
    row = None
    if isinstance(site, int) or (isinstance(site, str) and site.strip().isdecimal() and len(site.strip()) <= 9):
        row = Site.get_or_none(Site.id == int(site))
    elif isinstance(site, str):
        row = Site.get_or_none(fn.LOWER(Site.name) == " ".join(site.split()).lower())
    if row is None:
        raise UserError(f"Local {site!r} não encontrado (praca sites lista os locais).", field="site")
    return row


@dataclass(frozen=True)
class SiteRow:
    id: int
    name: str
    kind: str
    kind_label: str
    regime: str
    regime_short: str
    segments: int
    length: Decimal | None
    stalls: int
    assigned: int
    points: int
    max_points: int | None


def site_rows() -> list[SiteRow]:
    """Every site, by name, with its counts (one query per table, not per site)."""
    stalls = {
        site: (n, held)
        for site, n, held in cast(
            Any, Stall.select(Stall.site, fn.COUNT(Stall.id), fn.COUNT(Stall.holder)).group_by(Stall.site).tuples()
        )
    }
    points = {
        site: n
        for site, n in cast(
            Any, NamedPoint.select(NamedPoint.site, fn.COUNT(NamedPoint.id)).group_by(NamedPoint.site).tuples()
        )
    }
    segments: dict[int, list[Decimal]] = {}
    for seg in SiteSegment.select(SiteSegment.site, SiteSegment.length):
        segments.setdefault(seg.site_id, []).append(seg.length)
    rows = []
    for site in Site.select().order_by(fn.LOWER(Site.name), Site.id):
        try:
            short = get_regime(site.regime).short
        except RegimeError:
            short = site.regime
        lengths = segments.get(site.id, [])
        n, held = stalls.get(site.id, (0, 0))
        rows.append(
            SiteRow(
                id=site.id,
                name=site.name,
                kind=site.kind,
                kind_label=site.kind_label,
                regime=site.regime,
                regime_short=short,
                segments=len(lengths),
                length=sum(lengths, Decimal(0)) if lengths else None,
                stalls=n,
                assigned=held,
                points=points.get(site.id, 0),
                max_points=site.max_points,
            )
        )
    return rows


def site_segments(site: Site | int) -> list[SiteSegment]:
    site = find_site(site)
    return list(SiteSegment.select().where(SiteSegment.site == site.id).order_by(SiteSegment.position))


def named_points(site: Site | int) -> list[NamedPoint]:
    site = find_site(site)
    return list(NamedPoint.select().where(NamedPoint.site == site.id).order_by(NamedPoint.position, NamedPoint.id))


@dataclass(frozen=True)
class StallRow:
    id: int
    number: int
    segment: int
    section: str
    line: str
    side: str
    front: Decimal
    depth: Decimal
    permit_id: int | None
    permit_number: str | None
    holder_name: str | None


def stall_rows(site: Site | int) -> list[StallRow]:
    """The stalls of a site by number, with their holders (for the list beside the map and the printed map)."""
    site = find_site(site)
    rows = []
    query = (
        Stall.select(Stall, Permit)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.site == site.id)
        .order_by(Stall.number)
    )
    for stall in query:
        permit = stall.holder if stall.holder_id else None
        rows.append(
            StallRow(
                id=stall.id,
                number=stall.number,
                segment=stall.segment_id,
                section=stall.section,
                line=stall.line,
                side=stall.side,
                front=stall.front,
                depth=stall.depth,
                permit_id=stall.holder_id,
                permit_number=permit.number if permit else None,
                holder_name=permit.holder_name if permit else None,
            )
        )
    return rows


def obstacles_of(segment_id: int) -> list[SiteObstacle]:
    """The obstacles of a segment along the street (sorted here: the positions are stored as text)."""
    rows = SiteObstacle.select().where(SiteObstacle.segment == segment_id)
    return sorted(rows, key=lambda o: (o.start, o.id))


def site_export(site: Site | int | str) -> dict:
    """Everything a printed or exported map needs, in metres (``Decimal``), stalls by number.

    ``length`` is the sum of the segments' lengths; each stall and obstacle
    names its segment by position (0 = the first).
    """
    site = find_site(site)
    regime = get_regime(site.regime)
    segments = site_segments(site)
    position = {seg.id: seg.position for seg in segments}
    obstacles = []
    for seg in segments:
        for o in obstacles_of(seg.id):
            obstacles.append(
                {
                    "segment": seg.position,
                    "kind": o.kind,
                    "kind_label": OBSTACLE_KINDS.get(o.kind, o.kind),
                    "side": o.side,
                    "start": o.start,
                    "extent": o.extent,
                    "label": o.label,
                }
            )
    sections = {s.id: s for s in regime.sections}
    stalls = []
    query = (
        Stall.select(Stall, Permit)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.site == site.id)
        .order_by(Stall.number)
    )
    for s in query:
        section = sections.get(s.section)
        holder = s.holder if s.holder_id else None
        stalls.append(
            {
                "number": s.number,
                "segment": position.get(s.segment_id, 0),
                "section": s.section or None,
                "section_numeral": section.numeral if section else None,
                "line": s.line or None,
                "side": s.side,
                "x": s.x,
                "y": s.y,
                "width": s.front,
                "depth": s.depth,
                "hitch": s.hitch or Decimal(0),
                "rotation": s.rotation,
                "end_vendor": s.end_vendor,
                "equipment": s.equipment or None,
                "holder": holder.number if holder else None,
                "holder_name": holder.holder_name if holder else None,
            }
        )
    from models.registry.municipality import letterhead

    # what the map keeps against the act, each with the reason written for it: a printed map shows them all
    kept = [
        {
            "stalls": [k for k in row.stalls.split(",") if k],
            "message": row.message,
            "basis": row.basis,
            "reason": row.reason,
            "kept_by": row.kept_by,
            "kept_on": row.kept_at.date().isoformat() if row.kept_at else "",
        }
        for row in StallBreach.select().where(StallBreach.site == site.id).order_by(StallBreach.kept_at, StallBreach.id)
    ]
    head = letterhead(regime)
    return {
        "municipality": head["municipality"],
        "coat_of_arms": head["coat_of_arms"],  # a data: URI ("" for none): the printed map's letterhead
        "kept_breaches": kept,
        "site": {
            "id": site.id,
            "name": site.name,
            "kind": site.kind,
            "regime": site.regime,
            "regime_short": regime.short,
            "numbering": site.numbering,
            "gap": site.gap,
            "max_points": site.max_points,
        },
        "length": sum((seg.length for seg in segments), Decimal(0)) if segments else None,
        "segments": [
            {
                "position": seg.position,
                "street": seg.street,
                "from": seg.from_street,
                "to": seg.to_street,
                "length": seg.length,
                "width": seg.width,
                "sides": seg.sides,
            }
            for seg in segments
        ],
        "obstacles": obstacles,
        "points": [
            {
                "code": p.code,
                "label": p.label,
                "description": p.description,
                "basis": p.basis,
                "x": p.x,
                "side": p.side or None,
            }
            for p in named_points(site)
        ],
        "stalls": stalls,
    }
