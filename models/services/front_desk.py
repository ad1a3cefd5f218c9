"""What the front desk asks the domain while an application is being typed: facts, eligibility, price.

The eligibility engine and the fee engine are pure; this module reads the
database to give them the applicant's facts, so the screen never writes SQL
nor decides a rule.

**The applicant's evaluation** (issue 27 §4) is one service with explicit moments: :func:`evaluate_applicant`
(and :func:`evaluate_application` for an application on file) judges the applicant at a :class:`Moment` — filing,
approval, issue, renewal, transfer, exchange — and the moment alone decides what the facts hold: whether the
requirements the act asks later are due now (from the issue on) or by their deadline, whether a permit is left out
of the counts (the one renewed, passed on or exchanged). Every path goes through it: :func:`assess` (filing),
:func:`eligibility_now` and :func:`later_requirements` (approval; issuing checks the latter again), renewal,
transfer and exchange in :mod:`models.services.issuing`. The whole judgement at the issue is not switched on yet
(``models.services.issuing.check_due_later`` says why).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from models.access import session
from models.access.session import require
from models.base.errors import UserError
from models.base.money import format_factor
from models.billing.charges import debts_of
from models.billing.pricing import quote
from models.permits import active_count, history_facts_for, permit_facts_for, permit_term, quota_count
from models.registry.applications import ApplicationInput, DocumentInput
from models.registry.people import Company, Person, mei_company, responsible_person
from models.registry.town import serves, town_key
from models.rules.eligibility import ApplicantFacts, DocumentFacts, DueFacts, Eligibility, evaluate_eligibility
from models.rules.fees import Quote
from models.rules.fees.needs import administration_fees, engine_values
from models.rules.filing import FilingCheck
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.model import Rule
from models.services.filing import filing_for, moment_of
from models.store.settings import MUNICIPALITY, get_setting


@dataclass(frozen=True)
class Applicant:
    kind: str  # "person" | "company"
    id: int
    name: str
    document: str  # compact CPF/CNPJ
    is_mei: bool
    local: bool  # lives / is established in the municipality


def recorded_documents(applicant_kind: str, applicant_id: int, regime: Regime, kind) -> dict[str, str]:
    """The documents of ``kind`` that the applicant's record meets without a paper, each with what stands for it
    — only those the act's file declares so (``recorded = "municipal-registration"``: São Bento, Dec. 4.794/2026,
    art. 4º asks to *have* the Prefeitura's inscrição mobiliária), and only when the registration recorded in the
    form is that town's (:func:`local_to`). Nothing is guessed from a document's name."""
    out: dict[str, str] = {}
    for doc_id in kind.documents:
        if regime.document(doc_id).recorded != "municipal-registration":
            continue
        if local_to(applicant_kind, applicant_id, regime)[2] is not True:
            continue
        if applicant_kind == "person":
            firm = mei_company(Person.get_by_id(applicant_id))
        else:
            firm = Company.get_by_id(applicant_id)
        number = firm.municipal_registration if firm is not None else ""
        if number:
            out[doc_id] = f"inscrição municipal nº {number}, no cadastro"
    return out


def local_to(
    applicant_kind: str, applicant_id: int, regime: Regime
) -> tuple[bool | None, _dt.date | None, bool | None]:
    """(lives/is established in the regime's town?, since when, has that town's municipal registration?)."""
    if applicant_kind == "person":
        person = Person.get_by_id(applicant_id)
        mei = mei_company(person)
        city, since = person.city, person.resident_since
        registration = bool(mei and mei.municipal_registration)
    else:
        company = Company.get_by_id(applicant_id)
        owner = responsible_person(company)
        city, since = company.city, owner.resident_since if owner else None
        registration = bool(company.municipal_registration)
    in_town = bool(city) and town_key(city) == town_key(regime.municipality)
    home = get_setting(MUNICIPALITY)
    if serves(regime) or (in_town and not home):
        resident = True if since or in_town else None
        return resident, since, registration
    if in_town:  # lives or is established there: a registration recorded in its form is that town's (issue 18 §4)
        return True, None, (True if registration else None)
    if not home and registration:  # the desk serves no town yet: the registration it recorded is the one asked
        return (False if city else None), None, True
    return (False if city else None), None, (False if city else None)


def based_elsewhere(applicant_kind: str, applicant_id: int, regime: Regime) -> bool | None:
    """Is the applicant's home — a firm's seat — in another municipality than the regime's? (``None``: no city.)"""
    holder = Person.get_by_id(applicant_id) if applicant_kind == "person" else Company.get_by_id(applicant_id)
    if not (holder.city or "").strip():
        return None
    return town_key(holder.city) != town_key(regime.municipality)


def load_applicant(kind: str, applicant_id: int) -> Applicant:
    town = get_setting(MUNICIPALITY).strip().lower()
    if kind == "person":
        person = Person.get_by_id(applicant_id)
        mei = mei_company(person) is not None
        local = person.resident_since is not None or (bool(town) and person.city.strip().lower() == town)
        return Applicant("person", person.id, person.name, person.cpf, mei, local)
    company = Company.get_by_id(applicant_id)
    local = bool(company.municipal_registration) or (bool(town) and company.city.strip().lower() == town)
    return Applicant("company", company.id, company.legal_name, company.cnpj, company.mei, local)


def _final_list_published(regime: Regime, protocol: str) -> _dt.date | None:
    """The day the final list with ``protocol`` among its winners was published (Sapezal art. 10, § 5º; art. 11)."""
    from models.selection.publications import final_list_of

    pub = final_list_of(regime.id, protocol) if protocol else None
    return pub.published_on if pub is not None else None


#: how the desk dates the events a deferred requirement's deadline counts from (``Deadline.from_``)
EVENT_DATES = {"final-list-publication": _final_list_published}


def due_dates(regime: Regime, permit_kind: str, protocol: str) -> dict[str, DueFacts]:
    """The end of each deadline the kind's rules defer to (``Rule.due``), once the event it counts from happened
    for the application ``protocol`` (Sapezal art. 11: 10 business days from the final list it is in)."""
    from models.rules.deadlines import compute_deadline

    found: dict[str, DueFacts] = {}
    for rule in regime.permit_kind(permit_kind).rules:
        if not rule.due or rule.due in found:
            continue
        deadline = regime.deadline(rule.due)
        dating = EVENT_DATES.get(deadline.from_)
        start = dating(regime, protocol) if dating is not None else None
        if start is not None:
            result = compute_deadline(regime, deadline.id, start)
            found[rule.due] = DueFacts(due=result.due_date, text=result.formula, basis=result.basis)
    return found


def applicant_facts(
    applicant: Applicant,
    *,
    documents: list[DocumentInput],
    site: str = "",
    today: _dt.date,
    regime: str = "",
    permit_kind: str = "",
    exclude_permits: tuple[int, ...] = (),
    protocol: str = "",
    issuing: bool = False,
) -> ApplicantFacts:
    """The facts the eligibility rules read, from the database and the form.

    ``permits``: the permits in force of the applicant and of related people
    (spouse or partner, dependants, family, business partners — see
    :func:`models.permits.related_holders`); ``history``: revocations,
    abandonments, expiries and cancellations of the applicant's own permits;
    ``active_count`` and ``quota_used``: permits in force of ``permit_kind`` in
    ``regime`` (when both are given) and how many of them hold a quota place.
    ``exclude_permits`` leaves out the permit being renewed or transferred.
    ``debts``: the applicant's overdue charges and unpaid fines
    (:func:`models.billing.charges.debts_of`). ``protocol`` (an application filed)
    dates the deadlines of the requirements the act asks later
    (:func:`due_dates`); ``issuing``: a permit is being issued, renewed or
    passed on, and those requirements are due now.
    """

    delivered = {
        d.document: DocumentFacts(delivered_on=d.delivered_on or today, valid_until=d.valid_until) for d in documents
    }
    permits = permit_facts_for(applicant.kind, applicant.id, today=today, exclude=exclude_permits)
    history = history_facts_for(applicant.kind, applicant.id, today=today)
    counts = {}
    if regime and permit_kind:
        counts = {
            "active_count": active_count(regime, permit_kind, today=today, exclude=exclude_permits),
            "quota_used": quota_count(regime, permit_kind, today=today, exclude=exclude_permits),
        }
    site_label = None
    if site and regime:
        try:
            site_label = get_regime(regime).site(site).label
        except UserError:
            site_label = None
    common = dict(
        today=today,
        documents=delivered,
        debts=debts_of(applicant.kind, applicant.id, today=today),
        permits=permits,
        history=history,
        site_id=site or None,
        site_label=site_label,
        **counts,
    )
    resident, since, registration = (
        local_to(applicant.kind, applicant.id, get_regime(regime)) if regime else (None, None, None)
    )
    if regime:
        common["based_elsewhere"] = based_elsewhere(applicant.kind, applicant.id, get_regime(regime))
        if permit_kind and protocol:
            common["deadlines"] = due_dates(get_regime(regime), permit_kind, protocol)
    common["issuing"] = issuing
    if applicant.kind == "person":
        person = Person.get_by_id(applicant.id)
        mei = mei_company(person)
        return ApplicantFacts(
            applicant_type="person",
            is_mei=applicant.is_mei,
            has_cnpj=mei is not None,
            has_municipal_registration=registration,
            birth_date=person.birth_date,
            resident_since=since,
            is_resident=resident,
            **common,
        )
    company = Company.get_by_id(applicant.id)
    owner = responsible_person(company)
    return ApplicantFacts(
        applicant_type="company",
        is_mei=company.mei,
        has_cnpj=True,
        has_municipal_registration=registration,
        birth_date=owner.birth_date if owner else None,
        resident_since=since,
        is_resident=resident,
        **common,
    )


class Moment(enum.StrEnum):
    """When the applicant is judged; the moment decides what the facts hold."""

    FILING = "filing"  # the form being typed and filed: what the act asks later is due later
    APPROVAL = "approval"  # the application decided: what the act asks later is due by its deadline, if running
    ISSUE = "issue"  # the permit issued: every requirement is due now (not yet asked by issue_permit)
    RENEWAL = "renewal"  # the holder renews: the permit renewed left out of the counts; every requirement due now
    TRANSFER = "transfer"  # the heir receives it: the permit passed on left out of the counts; due now
    EXCHANGE = "exchange"  # two holders swap places: both permits left out of the counts; due now


#: the moments from which every requirement is due now (``ApplicantFacts.issuing``)
DUE_NOW = frozenset({Moment.ISSUE, Moment.RENEWAL, Moment.TRANSFER, Moment.EXCHANGE})
#: the moments at which a permit in force is being replaced, and may be left out of the counts
REPLACING = frozenset({Moment.RENEWAL, Moment.TRANSFER, Moment.EXCHANGE})


def evaluate_applicant(
    moment: Moment,
    applicant: Applicant,
    *,
    regime: str,
    permit_kind: str,
    documents: Sequence[DocumentInput],
    today: _dt.date,
    site: str = "",
    protocol: str = "",
    exclude_permits: tuple[int, ...] = (),
    asked: ApplicationInput | None = None,
) -> Eligibility:
    """The applicant judged at ``moment``, rule by rule, with the act in force on ``today``.

    ``protocol`` (an application on file) dates the deadlines of the requirements the act asks later; at filing
    there is none yet. ``exclude_permits``: the permits being replaced (renewal, transfer, exchange only).
    ``asked``: the application's own choices that change the rules (an exemption: :func:`exemption_terms`).
    """
    if exclude_permits and moment not in REPLACING:
        raise ValueError(f"{moment}: no permit is replaced at this moment")
    act = get_regime(regime, on=today)
    facts = applicant_facts(
        applicant,
        documents=list(documents),
        site=site,
        today=today,
        regime=regime,
        permit_kind=permit_kind,
        exclude_permits=exclude_permits,
        protocol="" if moment is Moment.FILING else protocol,
        issuing=moment in DUE_NOW,
    )
    return evaluate_eligibility(act, permit_kind, facts, **(exemption_terms(act, asked) if asked else {}))


def applicant_of(holder) -> Applicant:
    """The applicant of an application or the holder of a permit (a person or a company)."""
    return load_applicant("person" if holder.person_id else "company", holder.person_id or holder.company_id)


def evaluate_application(app, moment: Moment, *, today: _dt.date) -> Eligibility:
    """An application on file judged at ``moment`` on what is recorded now (the person's or company's record, the
    documents delivered since, the exemption asked for)."""
    stored = stored_input(app)
    return evaluate_applicant(
        moment,
        applicant_of(app),
        regime=app.regime,
        permit_kind=app.permit_kind,
        documents=stored.documents,
        today=today,
        site=app.site,
        protocol=app.protocol,
        asked=stored,
    )


@dataclass(frozen=True)
class Assessment:
    eligibility: Eligibility | None
    quote: Quote | None
    quote_problem: UserError | None  # why there is no price (a value the database lacks…)
    filing: FilingCheck | None = None  # may it be filed now (registration window, the event's dates)


def assess(
    applicant: Applicant,
    data: ApplicationInput,
    *,
    energy: str = "none",
    today: _dt.date | None = None,
    now: _dt.datetime | None = None,
) -> Assessment:
    """Eligibility rule by rule, the price and whether it may be filed now, for what is on the form."""
    at = moment_of(today, now)
    today = at.date()
    regime: Regime = get_regime(data.regime, on=today)  # the version in force on the application's day
    eligibility = evaluate_applicant(
        Moment.FILING,
        applicant,
        regime=data.regime,
        permit_kind=data.permit_kind,
        documents=data.documents,
        today=today,
        site=data.site,
        asked=data,
    )
    kind = regime.permit_kind(data.permit_kind)
    result, problem = None, None
    if kind.fees:
        # a value the Administration sets (Olímpia art. 93: the event's energy and water) is assessed later:
        # the application prices the rest and says so
        later = administration_fees(regime, kind.fees)
        priced = [f for f in kind.fees if f not in {fee.id for fee in later}]
        inputs = {"fees": priced} if later else {"permit_kind": kind.id}
        inputs.update(mei=applicant.is_mei, local=local_to(applicant.kind, applicant.id, regime)[0] is True)
        for key in ("equipment", "line", "front", "depth", "hitch", "venue", "exemption"):
            value = getattr(data, key)
            if value:
                inputs[key] = value
        if (data.days or "").strip().isdigit():
            inputs["days"] = int(data.days)
        if energy and energy != "none":
            inputs["energy"] = energy
        typed = {name: text for name, text in data.asked.items() if (text or "").strip()}
        if typed:
            inputs.update(engine_values(regime, by_name=typed))
            # who set them: kept on each line that uses one, in the quote frozen on the application
            inputs["asked_by"] = session.author() if session.current() is not None else None
        try:
            result = quote(regime, **inputs) if priced else None
        except UserError as exc:
            problem = exc
        if result is not None and later:
            result = dataclasses.replace(
                result,
                notes=result.notes
                + tuple(
                    f"{f.label}: valor definido pela Administração ({regime.cite_item(f)}), cobrado à parte."
                    for f in later
                ),
            )
    return Assessment(eligibility, result, problem, filing_for(regime, kind.id, data.site, at))


def exemption_terms(regime: Regime, data: ApplicationInput) -> dict:
    """What an exemption asked for changes in the eligibility (Olímpia art. 90): the proof it needs (§ 2º: the
    benefited entity's consent) as a document requirement, and the receipts of the fee and deposit it waives,
    moot — as ``evaluate_eligibility``'s ``extra_rules`` and ``waived_documents``."""
    if not data.exemption or not data.permit_kind:
        return {}
    fees = [regime.fee(f) for f in regime.permit_kind(data.permit_kind).fees]
    exemption = next((e for f in fees for e in f.exemptions if e.id == data.exemption), None)
    if exemption is None:
        return {}
    cite = regime.cite_item(exemption)
    extra = (
        (Rule(kind="document", document=exemption.document, basis=exemption.basis, basis_act=exemption.basis_act),)
        if exemption.document
        else ()
    )
    return {
        "extra_rules": extra,
        "waived_documents": {doc: f"{exemption.label}, {cite}" for doc in exemption.waives_documents},
    }


def stored_input(app) -> ApplicationInput:
    """What was protocolled, as the form would hold it (documents as delivered)."""
    from models.registry.applications import ApplicationDocument

    # delivered later (the winners' documents) after those of the application: the latest of a kind counts
    docs = [
        DocumentInput(d.document, d.delivered_on, d.valid_until) for d in app.documents.order_by(ApplicationDocument.id)
    ]
    return ApplicationInput(
        regime=app.regime,
        permit_kind=app.permit_kind,
        person_id=app.person_id,
        company_id=app.company_id,
        line=app.line,
        group=app.group,
        section=app.section,
        site=app.site,
        equipment=app.equipment,
        front=format_factor(app.front) if app.front is not None else "",
        depth=format_factor(app.depth) if app.depth is not None else "",
        hitch=format_factor(app.hitch) if app.hitch is not None else "",
        venue=app.venue or "",
        days=str(app.days) if app.days else "",
        exemption=app.exemption or "",
        documents=docs,
    )


def later_requirements(app, *, today: _dt.date) -> tuple:
    """The requirements the act asks of ``app`` after the application (``Rule.due``; Sapezal art. 11: CNPJ,
    health and clearance certificates within 10 business days of the final list), each checked today with its
    deadline: ``RuleResult`` values, in the kind's order (empty when the act defers nothing)."""
    if not any(rule.due for rule in get_regime(app.regime, on=today).permit_kind(app.permit_kind).rules):
        return ()
    return tuple(r for r in evaluate_application(app, Moment.APPROVAL, today=today).results if r.rule.due)


def eligibility_now(app, *, today: _dt.date | None = None) -> Eligibility:
    """The application's eligibility checked again on ``today``, rule by rule, on what is recorded now (the
    person's or company's record, the documents delivered since)."""
    return evaluate_application(app, Moment.APPROVAL, today=today or _dt.date.today())


def approve_application(app, *, by: str, today: _dt.date | None = None, reason: str = ""):
    """Approve after checking again, today: no rule may fail, and the act's term must still be ahead. A rule still
    "a conferir" (checked by a person) does not stop the approval, but the one who approves says why, and the reason
    is recorded with the rules it covers (issue 31 §4)."""
    require("applications.decide")
    from models.registry.applications import change_status

    today = today or _dt.date.today()
    regime = get_regime(app.regime)
    result = eligibility_now(app, today=today)
    failed = result.by_status("failed")
    if failed:
        listed = "; ".join(f"{r.label or r.rule.kind} ({r.article})" for r in failed)
        raise UserError(f"O requerimento {app.protocol} não pode ser aprovado: {listed}.")
    try:
        permit_term(regime, app.permit_kind, today)
    except UserError as exc:
        if not (hasattr(exc, "errors") and set(exc.errors) <= {"valid_until", "event_end"}):
            raise UserError(f"O requerimento {app.protocol} não pode ser aprovado: {exc.message}") from None
    pending = result.by_status("manual")
    why = " ".join((reason or "").split())
    text = f"elegível em {today:%d/%m/%Y}"
    if pending:
        listed = "; ".join(f"{r.label or r.rule.kind} ({r.article})" for r in pending)
        if not why:
            raise UserError(
                f"Ainda a conferir: {listed}. Confira e informe o motivo da aprovação (ele fica registrado).",
                field="reason",
            )
        text += f"; aprovado com requisitos a conferir ({listed}) — motivo: {why}"
    elif why:
        text += f" — {why}"
    return change_status(app, "approved", by=by, reason=text)
