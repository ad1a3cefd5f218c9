"""A segment as the plain input of :mod:`models.sites.layout` (:class:`Plan`), and writing a plan back.

:func:`save_layout` replaces a segment's stalls in one transaction, keeping
each holder with the stall of the same number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from peewee import (
    JOIN,
)

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.permits import LIVE_STATUSES, Permit
from models.rules.regimes import Regime, get_regime
from models.sites.breaches import OpenBreaches, kept_breaches, open_breaches
from models.sites.layout import (
    ROTATIONS,
    SIDES,
    Breach,
    Layout,
    PlacedStall,
    Segment,
    StallRequest,
    auto_layout,
    check_plan,
)
from models.sites.layout import (
    Obstacle as LayoutObstacle,
)
from models.sites.queries import find_site, obstacles_of
from models.sites.tables import Site, SiteSegment, Stall
from models.store.db import db


@dataclass(frozen=True)
class Plan:
    """One segment of a site as :mod:`models.sites.layout` takes it."""

    site_id: int
    segment_id: int
    regime: Regime
    segment: Segment
    obstacles: tuple[LayoutObstacle, ...]
    stalls: tuple[PlacedStall, ...]
    gap: Decimal | None
    max_points: int | None
    numbering: str
    avoid: tuple[str, ...]

    def check(self, stalls: Sequence[PlacedStall] | None = None) -> list[Breach]:
        """The live legal checks of these stalls (default: the saved ones)."""
        return check_plan(
            self.regime,
            self.segment,
            self.obstacles,
            self.stalls if stalls is None else stalls,
            gap=self.gap,
            max_points=self.max_points,
            avoid=self.avoid,
        )

    def auto(self, requests: Sequence[StallRequest]) -> Layout:
        """Lay ``requests`` out on this segment with the site's gap, numbering and limits."""
        return auto_layout(
            self.regime,
            self.segment,
            self.obstacles,
            requests,
            gap=self.gap,
            numbering=self.numbering,
            max_points=self.max_points,
            avoid=self.avoid,
        )


def _segment_row(site: Site, segment: SiteSegment | int | None) -> SiteSegment:
    if segment is None:
        row = SiteSegment.select().where(SiteSegment.site == site.id).order_by(SiteSegment.position).first()
        if row is None:
            raise UserError(
                f"O local {site.name} não tem trecho de rua: cadastre um trecho para montar o mapa.", field="segments"
            )
        return row
    seg_id = segment.id if isinstance(segment, SiteSegment) else int(segment)
    row = SiteSegment.get_or_none((SiteSegment.id == seg_id) & (SiteSegment.site == site.id))
    if row is None:
        raise UserError(f"O trecho {seg_id} não é do local {site.name}.", field="segment")
    return row


def _segment_basis(site: Site, regime: Regime) -> str | None:
    if site.regime_site and site.regime_site in regime.ids("site"):
        named = regime.site(site.regime_site)
        if named.kind == "street-segment":
            return named.basis
    return None


def plan_of(site: Site | int | str, segment: SiteSegment | int | None = None) -> Plan:
    """A segment of the site (default: the first) with its obstacles and stalls, as layout input."""
    site = find_site(site)
    row = _segment_row(site, segment)
    regime = get_regime(site.regime)
    seg = Segment(
        length=row.length,
        width=row.width,
        sides=row.sides,
        street=row.street,
        from_street=row.from_street,
        to_street=row.to_street,
        basis=_segment_basis(site, regime),
    )
    obstacles = tuple(
        LayoutObstacle(side=o.side, start=o.start, extent=o.extent, kind=o.kind, label=o.label)
        for o in obstacles_of(row.id)
    )
    query = (
        Stall.select(Stall, Permit.id, Permit.number)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.segment == row.id)
        .order_by(Stall.number)
    )
    stalls = tuple(
        PlacedStall(
            key=str(s.number),
            number=s.number,
            side=s.side,
            x=s.x,
            y=s.y,
            width=s.front,
            depth=s.depth,
            rotation=s.rotation,
            hitch=s.hitch or Decimal(0),
            section=s.section or None,
            line=s.line or None,
            holder=s.holder.number if s.holder is not None else None,
            holder_id=s.holder_id,
            equipment=s.equipment or None,
            end_vendor=s.end_vendor,
        )
        for s in query
    )
    return Plan(
        site_id=site.id,
        segment_id=row.id,
        regime=regime,
        segment=seg,
        obstacles=obstacles,
        stalls=stalls,
        gap=site.gap,
        max_points=site.max_points,
        numbering=site.numbering,
        avoid=site.avoid_list,
    )


@dataclass(frozen=True)
class LayoutSaved:
    stalls: int
    kept: tuple[tuple[int, str], ...]  # (stall number, permit number) of the holders that stayed
    released: tuple[str, ...]  # permit numbers left without a stall

    def summary(self) -> str:
        text = f"{self.stalls} banca(s) gravada(s)"
        if self.kept:
            text += f"; {len(self.kept)} titular(es) mantido(s) no mesmo número"
        if self.released:
            text += f"; sem banca agora: permissão nº {', '.join(self.released)}"
        return text + "."


def _check_stalls(stalls: Sequence[PlacedStall]) -> None:
    errors: dict[str, str] = {}
    numbers: set[int] = set()
    for i, s in enumerate(stalls):
        what = f"Banca {s.number}"
        if not isinstance(s.number, int) or s.number < 1:
            errors[f"stalls[{i}].number"] = f"Número de banca inválido: {s.number!r}."
        elif s.number in numbers:
            errors[f"stalls[{i}].number"] = f"Número de banca repetido: {s.number}."
        numbers.add(s.number)
        if s.side not in SIDES:
            errors[f"stalls[{i}].side"] = f"{what}: lado inválido {s.side!r}."
        if s.rotation not in ROTATIONS:
            errors[f"stalls[{i}].rotation"] = f"{what}: rotação {s.rotation!r} (use 0, 90, 180 ou 270)."
        if s.width <= 0 or s.depth <= 0 or (s.hitch or 0) < 0:
            errors[f"stalls[{i}].width"] = f"{what}: frente e profundidade devem ser maiores que zero."
    if errors:
        raise FieldErrors(errors)


def save_layout(
    site: Site | int | str,
    stalls: Sequence[PlacedStall],
    *,
    segment: SiteSegment | int | None = None,
    keep_holders: bool = True,
) -> LayoutSaved:
    """Replace the stalls of a segment (default: the first) in one transaction.

    A stall's own ``holder_id`` wins; otherwise the holder of the old stall of
    the same number stays on it — unless ``keep_holders`` is false (the map
    editor, whose plan carries every holder: a stall it left free stays free).
    A holder of another segment of the site, or
    given to two stalls, is refused (the database would refuse it too).
    A breach of the act (:meth:`Plan.check`) is refused too unless it was kept
    with its written reason first (:func:`keep_breach`): :class:`OpenBreaches`,
    whoever the caller.
    """
    require("sites.edit")
    site = find_site(site)
    row = _segment_row(site, segment)
    _check_stalls(stalls)
    with db.atomic():
        unkept = open_breaches(plan_of(site, row).check(stalls), kept_breaches(site))
        if unkept:
            raise OpenBreaches(unkept)
        old = {
            s.number: s.holder_id
            for s in Stall.select(Stall.number, Stall.holder).where(Stall.segment == row.id)
            if s.holder_id
        }
        elsewhere = {
            s.holder_id: s.number
            for s in Stall.select(Stall.number, Stall.holder).where(
                (Stall.site == site.id) & (Stall.segment != row.id) & Stall.holder.is_null(False)
            )
        }
        numbers_elsewhere = {
            s.number for s in Stall.select(Stall.number).where((Stall.site == site.id) & (Stall.segment != row.id))
        }
        explicit: dict[int, int] = {}
        for s in stalls:
            if s.number in numbers_elsewhere:
                raise UserError(f"O número {s.number} já é de uma banca de outro trecho deste local.", field="number")
            if s.holder_id is None:
                continue
            if s.holder_id in explicit:
                raise UserError(
                    f"A mesma permissão está nas bancas {explicit[s.holder_id]} e {s.number}: um "
                    "titular ocupa uma só banca por local.",
                    field="holder",
                )
            if s.holder_id in elsewhere:
                raise UserError(
                    f"A permissão da banca {s.number} já ocupa a banca {elsewhere[s.holder_id]} deste local.",
                    field="holder",
                )
            explicit[s.holder_id] = s.number
        permits = (
            {
                p.id: p
                for p in Permit.select(Permit.id, Permit.number, Permit.regime, Permit.status).where(
                    Permit.id.in_(list(explicit) + list(old.values()))
                )
            }
            if (explicit or old)
            else {}
        )
        for holder_id, number in explicit.items():
            permit = permits.get(holder_id)
            if permit is None:
                raise UserError(f"Banca {number}: permissão {holder_id} não encontrada.", field="holder")
            if permit.regime != site.regime:
                raise UserError(
                    f"Banca {number}: a permissão nº {permit.number} é de outro regime ({permit.regime}).",
                    field="holder",
                )
            if permit.status not in LIVE_STATUSES and holder_id not in old.values():
                raise UserError(
                    f"Banca {number}: a permissão nº {permit.number} está {permit.status_label}; só "
                    "uma permissão em vigor ocupa banca.",
                    field="holder",
                )
        taken = set(explicit)
        rows, kept = [], []
        for s in sorted(stalls, key=lambda s: s.number):
            holder = s.holder_id
            if holder is None and keep_holders:
                previous = old.get(s.number)
                if previous is not None and previous not in taken and previous not in elsewhere:
                    holder = previous
                    taken.add(previous)
                    kept.append((s.number, permits[previous].number))
            rows.append(
                {
                    "site": site.id,
                    "segment": row.id,
                    "number": s.number,
                    "section": s.section or "",
                    "line": s.line or "",
                    "equipment": s.equipment or "",
                    "side": s.side,
                    "x": s.x,
                    "y": s.y,
                    "front": s.width,
                    "depth": s.depth,
                    "hitch": s.hitch or Decimal(0),
                    "rotation": s.rotation,
                    "end_vendor": bool(s.end_vendor),
                    "holder": holder,
                }
            )
        released = tuple(sorted(permits[h].number for h in set(old.values()) - taken))
        Stall.delete().where(Stall.segment == row.id).execute()
        for start in range(0, len(rows), 200):
            Stall.insert_many(rows[start : start + 200]).execute()
    return LayoutSaved(stalls=len(rows), kept=tuple(kept), released=released)
