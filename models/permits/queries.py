"""Finding permits and reading them for the screens: a permit by number, its standing, the Permissões list, a
permit's history.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from peewee import (
    JOIN,
    Expression,
)

from models.base.errors import UserError
from models.permits.facts import site_label
from models.permits.steps import date_text, regime_of
from models.permits.tables import LIVE_STATUSES, STATUSES, Permit, PermitEvent
from models.registry.people import Company, Person


def find_permit(number: str) -> Permit:
    """The permit with ``number`` (``AAAA/NNNNN``); one pt-BR line when there is none."""
    text = (number or "").strip()
    permit = Permit.get_or_none(Permit.number == text)
    if permit is None and "/" in text:
        year, _, seq = text.partition("/")
        if year.isdecimal() and seq.isdecimal() and len(year) <= 4 and len(seq) <= 9:  # beyond: no such permit
            permit = Permit.get_or_none((Permit.year == int(year)) & (Permit.seq == int(seq)))
    if permit is None:
        raise UserError(f"Permissão nº {text or '(vazio)'} não encontrada.", field="number")
    return permit


def successor_of(permit: Permit) -> Permit | None:
    """The permit that replaced ``permit`` (renewal, transfer or exchange), if any — the newest."""
    return Permit.select().where(Permit.previous == permit.id).order_by(Permit.id.desc()).first()


def permit_standing(number: str) -> tuple[str, _dt.date | None] | None:
    """The status of permit ``number`` and the day it took it (its last event to that status), or None."""
    permit = Permit.get_or_none(Permit.number == number)
    if permit is None:
        return None
    event = (
        PermitEvent.select(PermitEvent.on)
        .where((PermitEvent.permit == permit.id) & (PermitEvent.status_to == permit.status))
        .order_by(PermitEvent.on.desc(), PermitEvent.id.desc())
        .first()
    )
    return permit.status, event.on if event is not None else None


def withdrawn_permits(statuses: tuple[str, ...]) -> list[tuple[str, str, _dt.date | None]]:
    """(number, status, since) of every permit in one of ``statuses``, by number."""
    out = []
    for permit in (
        Permit.select(Permit.id, Permit.number, Permit.status)
        .where(Permit.status.in_(statuses))
        .order_by(Permit.number)
    ):
        event = (
            PermitEvent.select(PermitEvent.on)
            .where((PermitEvent.permit == permit.id) & (PermitEvent.status_to == permit.status))
            .order_by(PermitEvent.on.desc(), PermitEvent.id.desc())
            .first()
        )
        out.append((permit.number, permit.status, event.on if event is not None else None))
    return out


#: At most this many permits in the list (narrow it with the filters or the search).
ROWS_LIMIT = 500


@dataclass(frozen=True)
class PermitRow:
    """One permit as the list shows it: holder, act, kind, place, term and status, already in pt-BR."""

    id: int
    number: str
    holder_kind: str  # "person" | "company"
    holder_id: int
    holder_name: str
    holder_document: str  # CPF or CNPJ, formatted
    regime: str
    regime_short: str
    regime_title: str
    permit_kind: str
    kind_label: str
    site: str  # the site's label
    point: str
    valid_from: _dt.date
    valid_until: _dt.date
    status: str
    status_label: str
    lapsed: bool  # in force on paper (active/suspended) but past its last day: not yet marked expired
    origin: str

    @property
    def place(self) -> str:
        return " — ".join(p for p in (self.site, self.point) if p)


def _status_filter(status: str | None, today: _dt.date):
    """``active``/``suspended`` are those still within their term; ``expired`` adds the lapsed not yet marked."""
    if status is None:
        return None
    if status not in STATUSES:
        raise UserError(f"Situação desconhecida: {status}.", field="status")
    if status in LIVE_STATUSES:
        return (Permit.status == status) & (Permit.valid_until >= today)
    if status == "expired":
        return (Permit.status == "expired") | (Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today))
    return Permit.status == status


def _text_filter(text: str):
    """Number (``2026/00012``, ``2026/12`` or digits of it), CPF/CNPJ prefix, or words of the holder's name."""
    from models.base.text import search_key
    from models.registry.search import document_fragment

    text = (text or "").strip()
    if not text:
        return None
    if re.fullmatch(r"\d{4}/\d*", text):
        year, _, seq = text.partition("/")
        cond = Permit.number.startswith(text)
        if year.strip().isdecimal() and seq.strip().isdecimal() and len(seq.strip()) <= 9:
            cond |= (Permit.year == int(year)) & (Permit.seq == int(seq))
        return cond
    fragment = document_fragment(text)
    if fragment and sum(c.isdigit() for c in fragment) >= max(3, len(fragment) - 2):
        return Person.cpf.startswith(fragment) | Company.cnpj.startswith(fragment) | Permit.number.contains(fragment)
    words: Expression | None = None
    for word in search_key(text).split():
        match = Person.search_name.contains(word) | Company.search_name.contains(word)
        words = match if words is None else (words & match)
    return words


def _kind_label(regime, kind_id: str) -> str:
    try:
        return regime.permit_kind(kind_id).label
    except UserError:
        return kind_id


def permit_rows(
    *,
    status: str | None = None,
    regime: str | Sequence[str] | None = None,
    text: str = "",
    today: _dt.date,
    limit: int = ROWS_LIMIT,
) -> list[PermitRow]:
    """Permits for the list, newest first (at most ``limit``).

    ``status`` is a key of :data:`STATUSES` or ``None`` for all: ``active`` and
    ``suspended`` only while within their term, ``expired`` also the permits
    past their last day that :func:`expire_due` has not marked yet. ``text``
    matches the number (``2026/00012``, ``2026/12`` or its digits), the start
    of the holder's CPF/CNPJ, or the words of the holder's name (or trade name)
    in any order, without accents — as :func:`models.registry.search.find_applicants`.
    """
    from models.base.br import format_cnpj, format_cpf

    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
    )
    for cond in (
        _status_filter(status, today),
        _text_filter(text),
        Permit.regime.in_([regime] if isinstance(regime, str) else list(regime)) if regime else None,
    ):
        if cond is not None:
            query = query.where(cond)
    rows = []
    for permit in query.order_by(Permit.issued_on.desc(), Permit.id.desc()).limit(limit):
        try:
            reg = regime_of(permit)
        except UserError:  # a regime file no longer shipped: show the ids
            reg = None
        lapsed = permit.status in LIVE_STATUSES and permit.valid_until < today
        label = permit.status_label
        if lapsed:
            label = f"vencida em {date_text(permit.valid_until)} (baixa pendente)"
        person, company = permit.person, permit.company  # no query for an empty key
        if person is not None:
            holder = ("person", person.id, person.name, format_cpf(person.cpf))
        else:
            assert company is not None  # a permit names a person or a company
            holder = ("company", company.id, company.legal_name, format_cnpj(company.cnpj))
        rows.append(
            PermitRow(
                id=permit.id,
                number=permit.number,
                holder_kind=holder[0],
                holder_id=holder[1],
                holder_name=holder[2],
                holder_document=holder[3],
                regime=permit.regime,
                regime_short=reg.short if reg else permit.regime,
                regime_title=reg.title if reg else permit.regime,
                permit_kind=permit.permit_kind,
                kind_label=_kind_label(reg, permit.permit_kind) if reg else permit.permit_kind,
                site=(site_label(permit.regime, permit.site) or "") if reg else permit.site,
                point=permit.point,
                valid_from=permit.valid_from,
                valid_until=permit.valid_until,
                status=permit.status,
                status_label=label,
                lapsed=lapsed,
                origin=permit.origin,
            )
        )
    return rows


@dataclass(frozen=True)
class PermitHistoryItem:
    """One :class:`PermitEvent` for the screen: the other permit named by its number, labels in pt-BR."""

    id: int
    on: _dt.date
    at: _dt.datetime
    kind: str
    kind_label: str
    by: str
    reason: str
    ground: str
    status_from: str  # labels ("ativa"), empty when the event does not move the status
    status_to: str
    start: _dt.date | None
    end: _dt.date | None
    other_number: str
    details: dict


def permit_history(permit_id: int) -> list[PermitHistoryItem]:
    """The events of one permit, oldest first."""
    other_permit = Permit.alias()
    events = (
        PermitEvent.select(PermitEvent, other_permit.number)
        .join(other_permit, JOIN.LEFT_OUTER, on=(PermitEvent.other == other_permit.id), attr="other_permit")
        .where(PermitEvent.permit == permit_id)
        .order_by(PermitEvent.id)
    )
    items = []
    for event in events:
        other = getattr(event, "other_permit", None)
        items.append(
            PermitHistoryItem(
                id=event.id,
                on=event.on,
                at=event.at,
                kind=event.kind,
                kind_label=event.kind_label,
                by=event.by,
                reason=event.reason,
                ground=event.ground,
                status_from=STATUSES.get(event.status_from, event.status_from),
                status_to=STATUSES.get(event.status_to, event.status_to),
                start=event.start,
                end=event.end,
                other_number=other.number if other is not None and other.number else "",
                details=event.details,
            )
        )
    return items
