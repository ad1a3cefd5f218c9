"""Putting a permit's holder on a stall and taking it off, the holders of a site, stall requests from permits.

Assigning a holder is one transaction; a clash found by the database
(another desk was quicker) is a pt-BR ``UserError`` and nothing is half-saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from peewee import (
    JOIN,
    IntegrityError,
)

from models.access.session import require
from models.base.errors import UserError
from models.permits import LIVE_STATUSES, Permit
from models.registry.people import Company, Person
from models.rules.regimes import get_regime
from models.sites.layout import (
    StallRequest,
)
from models.sites.queries import find_site
from models.sites.tables import Site, Stall
from models.store.db import db


def _stall(stall: Stall | int) -> Stall:
    stall_id = stall.id if isinstance(stall, Stall) else int(stall)
    row = Stall.get_or_none(Stall.id == stall_id)
    if row is None:
        raise UserError(f"Banca {stall_id} não encontrada.", field="stall")
    return row


def _permit(permit: Permit | int | str) -> Permit:
    if isinstance(permit, Permit):
        return permit
    if isinstance(permit, int):
        row = Permit.get_or_none(Permit.id == permit)
    else:
        row = Permit.get_or_none(Permit.number == str(permit).strip())
    if row is None:
        raise UserError(f"Permissão {permit} não encontrada.", field="holder")
    return row


def assign_holder(stall: Stall | int, permit: Permit | int | str) -> Stall:
    """Put the holder of ``permit`` on ``stall``: one transaction, refused in pt-BR when either is taken.

    The permit must be in force, of the site's regime and — when both say it —
    of the stall's section (SJC, Lei 9.158/2014, art. 8º).
    """
    require("sites.assign")
    stall = _stall(stall)
    permit = _permit(permit)
    site = Site.get_by_id(stall.site_id)
    if stall.holder_id == permit.id:
        return stall
    check_assignment(site, permit, number=stall.number, section=stall.section)
    if stall.holder_id is not None:
        other = Permit.get_by_id(stall.holder_id)
        raise UserError(
            f"A banca {stall.number} já tem titular (permissão nº {other.number}, {other.holder_name}): "
            "libere a banca antes.",
            field="stall",
        )
    held = Stall.get_or_none((Stall.site == stall.site_id) & (Stall.holder == permit.id))
    if held is not None:
        raise UserError(
            f"A permissão nº {permit.number} ({permit.holder_name}) já ocupa a banca {held.number} "
            f"de {site.name}: um titular ocupa uma só banca por local.",
            field="holder",
        )
    try:
        with db.atomic():
            updated = (
                Stall.update(holder=permit.id).where((Stall.id == stall.id) & Stall.holder.is_null(True)).execute()
            )
    except IntegrityError:
        raise UserError(
            f"A permissão nº {permit.number} acabou de ser posta em outra banca de {site.name} "
            "(outra mesa): nada foi alterado.",
            field="holder",
        ) from None
    if updated != 1:
        raise UserError(
            f"A banca {stall.number} acabou de receber um titular em outra mesa: nada foi alterado.", field="stall"
        )
    return Stall.get_by_id(stall.id)


def check_assignment(site: Site | int | str, permit: Permit | int | str, *, number: int, section: str | None) -> Permit:
    """The refusals of :func:`assign_holder` that belong to the permit, without writing anything.

    The map editor asks before it puts a holder on a stall of its plan: the
    permit must be in force, of the site's regime and — when both say it — of
    the stall's section (SJC, Lei 9.158/2014, art. 8º).
    """
    site = find_site(site)
    permit = _permit(permit)
    if permit.regime != site.regime:
        raise UserError(
            f"A permissão nº {permit.number} é do regime {permit.regime}; o local {site.name} segue "
            f"o regime {site.regime}.",
            field="holder",
        )
    if permit.status not in LIVE_STATUSES:
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}: só uma permissão em vigor ocupa banca.",
            field="holder",
        )
    if permit.section and section and permit.section != section:
        regime = get_regime(site.regime)
        sections = {s.id: s for s in regime.sections}
        want, have = sections.get(permit.section), sections.get(section)
        if want is not None and have is not None:
            raise UserError(
                f"A permissão nº {permit.number} é da Seção {want.numeral}; a banca {number} é da "
                f"Seção {have.numeral} ({regime.cite(have.basis)}).",
                field="holder",
            )
    return permit


@dataclass(frozen=True)
class HolderRow:
    """A permit in force of the site's regime, and the stall it holds at this site (if any)."""

    permit_id: int
    number: str
    name: str
    section: str
    line: str
    place: str  # the site the permit names
    stall: int | None  # its stall number at this site
    segment_id: int | None  # the segment of that stall


def site_holders(site: Site | int | str) -> list[HolderRow]:
    """Every permit in force of the site's regime, those that name this site first, then by section and number."""
    site = find_site(site)
    places = {site.name.lower()} | ({site.regime_site.lower()} if site.regime_site else set())
    held = {
        s.holder_id: (s.number, s.segment_id)
        for s in Stall.select(Stall.number, Stall.segment, Stall.holder).where(
            (Stall.site == site.id) & Stall.holder.is_null(False)
        )
    }
    rows = []
    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where((Permit.regime == site.regime) & Permit.status.in_(LIVE_STATUSES))
        .order_by(Permit.section, Permit.number)
    )
    for permit in query:
        number, segment_id = held.get(permit.id, (None, None))
        rows.append(
            HolderRow(
                permit_id=permit.id,
                number=permit.number,
                name=permit.holder_name,
                section=permit.section,
                line=permit.line,
                place=permit.site,
                stall=number,
                segment_id=segment_id,
            )
        )
    rows.sort(key=lambda r: (r.place.lower() not in places, r.section, r.number))
    return rows


def unassign_holder(stall: Stall | int) -> Stall:
    """Leave the stall free."""
    require("sites.assign")
    stall = _stall(stall)
    Stall.update(holder=None).where(Stall.id == stall.id).execute()
    return Stall.get_by_id(stall.id)


def requests_from_permits(site: Site | int | str) -> list[StallRequest]:
    """One stall request per permit in force of the site's regime whose place is this site (name or act id).

    Keyed by permit number, ordered by section then number; sizes from the
    permit (the layout falls back on the line's size).
    """
    site = find_site(site)
    places = [site.name] + ([site.regime_site] if site.regime_site else [])
    query = (
        Permit.select()
        .where((Permit.regime == site.regime) & Permit.status.in_(LIVE_STATUSES) & Permit.site.in_(places))
        .order_by(Permit.section, Permit.number)
    )
    requests = []
    for permit in query:
        requests.append(
            StallRequest(
                key=permit.number,
                section=permit.section or None,
                line=permit.line or None,
                front=permit.front,
                depth=permit.depth,
                hitch=permit.hitch or Decimal(0),
                holder=permit.number,
                holder_id=permit.id,
                equipment=permit.equipment or None,
            )
        )
    return requests
