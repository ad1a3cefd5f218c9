"""The small steps every permit workflow shares.

The permit's regime (the act's text in force on its issue day), the acting user's reason, an event recorded
(append-only), a status moved or a permit claimed under the optimistic lock, the year's next number, the permit
that follows another (:func:`issue_successor`: renewal, transfer, exchange) and the chain of permits one continues.
Imports only :mod:`models.permits.tables` of the package.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Sequence

from peewee import (
    JOIN,
)

from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.permits.tables import LIVE_STATUSES, Permit, PermitEvent
from models.registry.applications import Application, next_number
from models.registry.people import Company, Person
from models.store.db import update_versioned


def date_text(day: _dt.date) -> str:
    return day.strftime("%d/%m/%Y")


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def regime_of(permit_or_id):
    from models.rules.regimes import get_regime

    if isinstance(permit_or_id, Permit):  # the act's text in force on the day the permit was issued
        return get_regime(permit_or_id.regime, on=permit_or_id.issued_on)
    return get_regime(permit_or_id)


def required_reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise FieldErrors({"reason": f"Informe o motivo ({what})."})
    return reason


def next_permit_number(today: _dt.date) -> tuple[int, int, str]:
    seq = next_number(f"permit-{today.year}")
    return today.year, seq, f"{today.year}/{seq:05d}"


def record_event(
    permit: Permit,
    kind: str,
    *,
    by: str,
    on: _dt.date,
    status_to: str = "",
    status_from: str = "",
    reason: str = "",
    ground: str = "",
    start: _dt.date | None = None,
    end: _dt.date | None = None,
    other: Permit | None = None,
    data: dict | None = None,
) -> PermitEvent:
    return PermitEvent.create(
        permit=permit.id,
        on=on,
        by=by,
        kind=kind,
        status_from=status_from,
        status_to=status_to,
        reason=reason,
        ground=ground,
        start=start,
        end=end,
        other=other.id if other is not None else None,
        data=json.dumps(data, ensure_ascii=False, sort_keys=True) if data else "",
    )


def move_status(permit: Permit, to: str, *, allowed_from: Sequence[str], what: str) -> Permit:
    """Change the status (optimistic lock); call inside the transaction that records the event."""
    if permit.status not in allowed_from:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}; não pode ser {what}.")
    stale = f"A permissão nº {permit.number} foi alterada em outra mesa; reabra-a para ver a situação atual."
    update_versioned(permit, stale, status=to, status_at=clock.now())
    return Permit.get_by_id(permit.id)


def claim(permit: Permit, statuses: Sequence[str] = ("active",)) -> None:
    """Inside a transaction: take the permit as this desk saw it (version and status), or refuse.

    The guarded UPDATE also queues two desks acting on one permit at once.
    """
    stale = f"A permissão nº {permit.number} foi alterada em outra mesa; reabra-a para ver a situação atual."
    update_versioned(permit, stale, where=Permit.status.in_(list(statuses)))
    permit.version += 1


def _successor_values(permit: Permit) -> dict:
    """What a permit that follows ``permit`` holds of it: the holder, the place, the stall, the days and hours."""
    return dict(
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        person=permit.person_id,
        company=permit.company_id,
        site=permit.site,
        point=permit.point,
        line=permit.line,
        group=permit.group,
        section=permit.section,
        equipment=permit.equipment,
        front=permit.front,
        depth=permit.depth,
        hitch=permit.hitch,
        days_hours=permit.days_hours,
        quota=permit.quota,
    )


def issue_successor(
    old: Permit,
    *,
    origin: str,
    by: str,
    today: _dt.date,
    valid_from: _dt.date,
    valid_until: _dt.date,
    notes: str,
    reason: str,
    data: dict | None = None,
    **changes,
) -> Permit:
    """The one step that issues the permit following ``old`` (renewal, transfer to an heir, exchange of sites).

    Inside the caller's transaction: the year's next number, what ``old`` holds (``changes`` replace some of
    it: the heir, the other place), the act's version in force today (as a permit from an application keeps)
    and the ``issued`` event naming ``old``. The caller supersedes ``old`` (a renewal lets it run to its end)
    and signs the new permit.
    """
    from models.rules.acts import act_sha

    year, seq, number = next_permit_number(today)
    values = _successor_values(old)
    values.update(changes)
    new = Permit.create(
        number=number,
        year=year,
        seq=seq,
        previous=old.id,
        origin=origin,
        valid_from=valid_from,
        valid_until=valid_until,
        status="active",
        issued_on=today,
        issued_by=by,
        notes=notes,
        act_sha256=act_sha(values["regime"], today),
        **values,
    )
    record_event(new, "issued", by=by, on=today, status_to="active", reason=reason, other=old, data=data)
    return new


def supersede(
    permit: Permit, new: Permit, *, kind: str, by: str, today: _dt.date, reason: str, data: dict | None = None
) -> None:
    old = move_status(permit, "superseded", allowed_from=("active",), what="substituída")
    record_event(
        old, kind, by=by, on=today, status_from="active", status_to="superseded", reason=reason, other=new, data=data
    )


def root_application(permit: Permit) -> Application | None:
    seen = 0
    current: Permit | None = permit
    while current is not None and seen < 1000:
        if current.application_id:
            return Application.get_by_id(current.application_id)
        current = Permit.get_or_none(Permit.id == current.previous_id) if current.previous_id else None
        seen += 1
    return None


def chain_of(permit: Permit) -> list[Permit]:
    """``permit`` and the permits it succeeded (renewals, transfers, exchanges), newest first."""
    chain: list[Permit] = []
    seen: set[int] = set()
    current: Permit | None = permit
    while current is not None and current.id not in seen and len(chain) < 1000:
        chain.append(current)
        seen.add(current.id)
        current = Permit.get_or_none(Permit.id == current.previous_id) if current.previous_id else None
    return chain


def events_by_permit(ids: Sequence[int], kinds: Sequence[str]) -> dict[int, list[PermitEvent]]:
    found: dict[int, list[PermitEvent]] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = (
            PermitEvent.select()
            .where(PermitEvent.permit.in_(chunk) & PermitEvent.kind.in_(list(kinds)))
            .order_by(PermitEvent.id)
        )
        for event in rows:
            found.setdefault(event.permit_id, []).append(event)
    return found


def live_permits(today: _dt.date):
    return (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until >= today))
        .order_by(Permit.valid_until, Permit.id)
    )
