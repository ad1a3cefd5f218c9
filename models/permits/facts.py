"""Facts about permits already held, for the eligibility engine (one-per rules, waiting periods, caps, quotas).

Related holders (spouse, partners, family, business partners) and their permits in force; the history of
revocations, expiries and cancellations; how many permits of a kind are in force.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable

from peewee import (
    JOIN,
)

from models.base.errors import UserError
from models.permits.steps import regime_of
from models.permits.tables import GROUND_ABANDONMENT, GROUND_HOLDER_REQUEST, LIVE_STATUSES, Permit, PermitEvent
from models.registry.people import Company, CompanyPartner, HouseholdMember, Person
from models.rules.eligibility import HistoryFacts, PermitFacts


def related_holders(applicant_kind: str, applicant_id: int) -> tuple[dict[int, str], dict[int, str]]:
    """People and companies whose permits count for an applicant, each with its relation.

    ``self``: the applicant, and for a person the MEIs they answer for (an MEI
    is the person), for an MEI company its owner; ``spouse``/``partner`` from
    the household (both directions) and from a partner's registered spouse;
    ``dependant`` for children and dependants; ``family`` for the parent who
    lists the applicant as child; ``business-partner`` for the other partners
    of the applicant's companies and those companies (and, for a company
    applicant that is not an MEI, its own partners). The companies of a
    relative carry the relative's relation. First relation found wins, in
    that order.
    """
    persons: dict[int, str] = {}
    companies: dict[int, str] = {}

    def mei_of(person_ids: Iterable[int], cpfs: Iterable[str]):
        ids, cpfs = list(person_ids), [c for c in cpfs if c]
        if not ids and not cpfs:
            return []
        cond = CompanyPartner.person.in_(ids) if ids else None
        if cpfs:
            by_cpf = CompanyPartner.cpf.in_(cpfs)
            cond = by_cpf if cond is None else (cond | by_cpf)
        return list(
            CompanyPartner.select(CompanyPartner.company, CompanyPartner.person, CompanyPartner.cpf)
            .join(Company)
            .where(cond & (Company.mei == True))  # noqa: E712 — a peewee expression: SQL compares the column
        )

    def people_by_cpf(cpfs: Iterable[str]) -> dict[str, Person]:
        cpfs = [c for c in set(cpfs) if c]
        if not cpfs:
            return {}
        return {p.cpf: p for p in Person.select(Person.id, Person.cpf).where(Person.cpf.in_(cpfs))}

    naturals: list[Person] = []
    if applicant_kind == "person":
        me = Person.get_by_id(applicant_id)
        persons[me.id] = "self"
        naturals.append(me)
        for row in mei_of([me.id], [me.cpf]):
            companies.setdefault(row.company_id, "self")
    else:
        company = Company.get_by_id(applicant_id)
        companies[company.id] = "self"
        partners = list(CompanyPartner.select().where(CompanyPartner.company == company.id))
        found = people_by_cpf(p.cpf for p in partners)
        owners = [
            found.get(p.cpf) or (Person.get_or_none(Person.id == p.person_id) if p.person_id else None)
            for p in partners
        ]
        owners = [o for o in owners if o is not None]
        relation = "self" if company.mei else "business-partner"
        for owner in owners:
            persons.setdefault(owner.id, relation)
            naturals.append(owner)
        if company.mei:
            for row in mei_of([o.id for o in owners], [o.cpf for o in owners]):
                companies.setdefault(row.company_id, "self")
        spouses = people_by_cpf(p.spouse_cpf for p in partners)
        for spouse in spouses.values():
            persons.setdefault(spouse.id, "spouse")
    ids = [p.id for p in naturals]
    cpfs = [p.cpf for p in naturals]
    if ids:
        # household of the natural persons, both directions
        members = list(HouseholdMember.select().where(HouseholdMember.person.in_(ids)))
        found = people_by_cpf(m.cpf for m in members)
        for member in members:
            other = found.get(member.cpf)
            if other is None:
                continue
            relation = {"spouse": "spouse", "partner": "partner"}.get(member.relation, "dependant")
            persons.setdefault(other.id, relation)
        for member in HouseholdMember.select().where(HouseholdMember.cpf.in_(cpfs)):
            relation = {"spouse": "spouse", "partner": "partner"}.get(member.relation, "family")
            persons.setdefault(member.person_id, relation)
        # spouses registered with a company's partners, both directions
        spouse_cpfs = [
            p.spouse_cpf for p in CompanyPartner.select(CompanyPartner.spouse_cpf).where(CompanyPartner.cpf.in_(cpfs))
        ]
        spouse_cpfs += [
            p.cpf for p in CompanyPartner.select(CompanyPartner.cpf).where(CompanyPartner.spouse_cpf.in_(cpfs))
        ]
        for spouse in people_by_cpf(spouse_cpfs).values():
            persons.setdefault(spouse.id, "spouse")
        # business partners: companies the natural persons are partners of, and their other partners
        links = list(
            CompanyPartner.select(CompanyPartner.company)
            .join(Company)
            .where((CompanyPartner.person.in_(ids) | CompanyPartner.cpf.in_(cpfs)) & (Company.mei == False))  # noqa: E712 — a peewee expression: SQL compares the column
        )
        company_ids = {link.company_id for link in links}
        for cid in company_ids:
            companies.setdefault(cid, "business-partner")
        if company_ids:
            co_partners = list(CompanyPartner.select().where(CompanyPartner.company.in_(list(company_ids))))
            found = people_by_cpf(p.cpf for p in co_partners)
            for partner in co_partners:
                other = found.get(partner.cpf)
                if other is not None:
                    persons.setdefault(other.id, "business-partner")
    # a relative's companies answer for the relative (an MEI is the relative; a spouse's company is the
    # spouse's: LC 324/2025, art. 162, § 2º bars the spouse of a partner of a permissionária)
    relatives = {pid: rel for pid, rel in persons.items() if rel not in ("self", "business-partner")}
    if relatives:
        rel_people = {p.id: p for p in Person.select(Person.id, Person.cpf).where(Person.id.in_(list(relatives)))}
        by_cpf = {p.cpf: p.id for p in rel_people.values()}
        links = CompanyPartner.select(CompanyPartner.company, CompanyPartner.person, CompanyPartner.cpf).where(
            CompanyPartner.person.in_(list(relatives)) | CompanyPartner.cpf.in_(list(by_cpf))
        )
        for row in links:
            pid = row.person_id if row.person_id in relatives else by_cpf.get(row.cpf)
            if pid in relatives:
                companies.setdefault(row.company_id, relatives[pid])
    return persons, companies


def _holder_query(persons: dict[int, str], companies: dict[int, str]):
    cond = None
    if persons:
        cond = Permit.person.in_(list(persons))
    if companies:
        by_company = Permit.company.in_(list(companies))
        cond = by_company if cond is None else (cond | by_company)
    return cond


def site_label(regime_id: str, site: str) -> str | None:
    if not site:
        return None
    try:
        return regime_of(regime_id).site(site).label
    except UserError:
        return site


def permit_facts_for(
    applicant_kind: str, applicant_id: int, *, today: _dt.date, exclude: Iterable[int] = ()
) -> tuple[PermitFacts, ...]:
    """Permits in force of the applicant and of related people (spouse, partners, family), for one-per rules."""
    persons, companies = related_holders(applicant_kind, applicant_id)
    cond = _holder_query(persons, companies)
    if cond is None:
        return ()
    exclude = list(exclude)
    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(cond & Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until >= today))
    )
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    facts = []
    for permit in query.order_by(Permit.id):
        relation = persons.get(permit.person_id) if permit.person_id else companies.get(permit.company_id)
        facts.append(
            PermitFacts(
                regime_id=permit.regime,
                permit_kind_id=permit.permit_kind,
                site_id=permit.site or None,
                status=permit.status,
                relation=relation or "self",
                number=permit.number,
                site_label=site_label(permit.regime, permit.site),
                holder_name=permit.holder_name,
            )
        )
    return tuple(facts)


def history_facts_for(applicant_kind: str, applicant_id: int, *, today: _dt.date) -> tuple[HistoryFacts, ...]:
    """Revocations, abandonments, expiries and cancellations of the applicant's own permits (waiting periods)."""
    persons, companies = related_holders(applicant_kind, applicant_id)
    persons = {k: v for k, v in persons.items() if v == "self"}
    companies = {k: v for k, v in companies.items() if v == "self"}
    cond = _holder_query(persons, companies)
    if cond is None:
        return ()
    history: list[HistoryFacts] = []
    events = (
        PermitEvent.select(PermitEvent, Permit)
        .join(Permit)
        .where(cond & PermitEvent.kind.in_(["revoked", "expired", "cancelled"]))
        .order_by(PermitEvent.on, PermitEvent.id)
    )
    seen_expired: set[int] = set()
    for event in events:
        permit = event.permit
        base = dict(date=event.on, permit_kind_id=permit.permit_kind, regime_id=permit.regime, number=permit.number)
        if event.kind == "revoked":
            history.append(HistoryFacts(kind="revocation", **base))
            if event.ground == GROUND_ABANDONMENT:
                history.append(HistoryFacts(kind="abandonment", **base))
        elif event.kind == "expired":
            seen_expired.add(permit.id)
            history.append(HistoryFacts(kind="expiry", **base))
        elif event.ground != GROUND_HOLDER_REQUEST:
            history.append(HistoryFacts(kind="cancellation", **base))
    # ended but not yet marked expired: the right was lost the day after the last day
    lapsed = Permit.select().where(cond & Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today))
    for permit in lapsed:
        if permit.id not in seen_expired:
            history.append(
                HistoryFacts(
                    kind="expiry",
                    date=permit.valid_until + _dt.timedelta(days=1),
                    permit_kind_id=permit.permit_kind,
                    regime_id=permit.regime,
                    number=permit.number,
                )
            )
    return tuple(history)


def active_count(regime_id: str, permit_kind: str, *, today: _dt.date, exclude: Iterable[int] = ()) -> int:
    """Permits of one kind in force in the regime (caps and quotas)."""
    query = Permit.select().where(
        (Permit.regime == regime_id)
        & (Permit.permit_kind == permit_kind)
        & Permit.status.in_(LIVE_STATUSES)
        & (Permit.valid_until >= today)
        & (Permit.valid_from <= today)
    )
    exclude = list(exclude)
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    return query.count()


def quota_count(regime_id: str, permit_kind: str, *, today: _dt.date, exclude: Iterable[int] = ()) -> int:
    """Of those, the places held under a quota."""
    query = Permit.select().where(
        (Permit.regime == regime_id)
        & (Permit.permit_kind == permit_kind)
        & Permit.status.in_(LIVE_STATUSES)
        & (Permit.valid_until >= today)
        & (Permit.valid_from <= today)
        & (Permit.quota == True)  # noqa: E712 — a peewee expression: SQL compares the column
    )
    exclude = list(exclude)
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    return query.count()
