"""A period's enforcement gathered once, in a fixed number of queries, into the report's figures."""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from decimal import Decimal

from peewee import JOIN, fn

from models import enforcement as enf
from models.billing.charges import Charge, ChargeState
from models.billing.fee_report import ReportCharge, report_currency
from models.billing.report_parts import NO_SITE, Labels, Progress, Sums, charge_money, charge_situation, disambiguate
from models.enforcement.sanctions_report.figures import (
    DECISIONS,
    FINE_LABEL,
    PROGRESS_STEP,
    RUNNING,
    ZERO,
    ArticleGroup,
    CountGroup,
    Debt,
    Figures,
    OpenDeadline,
    PendingSeizure,
    Recurrence,
    ReportFine,
    ReportInfraction,
    ReportRecord,
    ReportSanction,
    SanctionsReport,
    check_period,
)
from models.permits import Permit
from models.registry.municipality import ReportTown, report_town
from models.rules import describe

# --------------------------------------------------------------------------- gathering


def _site(labels: Labels, regime_id: str, permit_site: str | None, place: str) -> str:
    """The permit's site; else the regime's site the place names; else the place up to its first comma."""
    if permit_site:
        return labels.site(regime_id, permit_site)
    regime = labels.regime(regime_id)
    folded = place.casefold()
    if regime is not None:
        for site in regime.sites:
            if site.label.casefold() in folded:
                return site.label
    return place.split(",")[0].strip() or NO_SITE


def _applies(sanction: dict, not_complied: bool) -> bool:
    from models.enforcement.sanctions import imposed

    return imposed(sanction, not_complied)


def asked_text(proposal: dict, fines: list[dict]) -> str:
    """The values the inspector gave for the record's fines written as formulas, each with who gave it: as each
    fine keeps them, or — a record issued before they were kept on the fine — as the proposal kept them."""
    given = [text for s in fines for text in s.get("asked") or ()]
    # a fine that kept nothing — issued before, or read again (an empty tuple) once the authority decided on it
    if proposal.get("asked") and not any(s.get("asked") or s.get("from_permit") for s in fines):
        given = _older_asked(proposal)
    return "; ".join(dict.fromkeys(given))


def _older_asked(proposal: dict) -> list[str]:
    """The values a record issued before its fines kept them gave, as the proposal kept them (``{name: as typed}``),
    said as a newer record's: with the value's label, unit and article (the act's version of the record's day), and
    who gave it; as typed where the act no longer declares the value."""
    from models.base.errors import UserError
    from models.base.money import parse_typed
    from models.enforcement.sanctions import fine_inputs
    from models.rules.fees.formula import asked_text as value_text
    from models.rules.fees.results import AskedValue
    from models.rules.regimes import RegimeError, get_regime

    by = proposal.get("asked_by")
    try:
        regime = get_regime(proposal["regime"], on=_dt.date.fromisoformat(proposal["on"]))
        declared = fine_inputs(regime, [item["code"] for item in proposal.get("infractions", []) if item.get("code")])
    except (RegimeError, KeyError, ValueError):
        regime, declared = None, {}
    said = []
    for name, value in proposal["asked"].items():
        item = declared.get(name)
        try:
            number = parse_typed(str(value), what=name) if item is not None else None
        except UserError:
            number = None
        if regime is not None and item is not None and number is not None:
            said.append(value_text(regime, item, AskedValue(name, item.label, number, by)))
        else:
            said.append(f"{name} = {value}" + (f" — informado por {by}" if by else ""))
    return said


def _sanction_text(s: dict) -> str:
    text = s.get("label") or describe.SANCTIONS.get(s["kind"], s["kind"])
    if s.get("amount_text"):
        text += f" — {s['amount_text']}"
    if s.get("pending"):
        text += f" ({s['pending']})"
    return text


def _recurrence_basis(labels: Labels, regime_id: str, item: dict, sanctions: list[dict]) -> str:
    parts: dict[str, None] = {}
    regime = labels.regime(regime_id)
    rule = regime.penalties.recurrence if regime is not None and regime.penalties else None
    if rule is not None and rule.basis:
        parts[regime.cite(rule.basis)] = None
    for s in sanctions:
        if s.get("basis"):
            parts[s["basis"]] = None
    if not parts and item.get("basis"):
        parts[item["basis"]] = None
    return "; ".join(parts)


def _fines(start: _dt.datetime, stop: _dt.datetime) -> dict[int, list]:
    """The fine charges of the period's counted records, each under the newest record that carries it (a paid
    fine goes along to the correction of its record)."""
    query = (
        enf.RecordCharge.select(
            enf.RecordCharge.record,
            Charge.number,
            Charge.amount,
            ChargeState.paid_total,
            ChargeState.status,
            Charge.due_on,
            Charge.label,
            Charge.formula,
            Charge.basis,
            Charge.id,
        )
        .join(Charge, on=(enf.RecordCharge.charge == Charge.id))
        .join(ChargeState, on=(ChargeState.charge == Charge.id))
        .join(enf.Record, on=(enf.RecordCharge.record == enf.Record.id))
        .where(
            (enf.RecordCharge.role == "fine")
            & (enf.Record.at >= start)
            & (enf.Record.at < stop)
            & (enf.Record.status != "corrected")
        )
        .order_by(Charge.due_on, Charge.number)
        .tuples()
    )
    owner: dict[int, int] = {}
    rows: dict[int, tuple] = {}
    for record_id, *charge in query:
        charge_id = charge[-1]
        if record_id > owner.get(charge_id, 0):
            owner[charge_id] = record_id
        rows[charge_id] = tuple(charge)
    by_record: dict[int, list] = defaultdict(list)
    for charge_id, record_id in owner.items():
        by_record[record_id].append(rows[charge_id])
    return by_record


def sanctions_report(
    start: _dt.date,
    end: _dt.date,
    *,
    today: _dt.date,
    progress: Progress | None = None,
    now: _dt.datetime | None = None,
    town: ReportTown | None = None,
) -> SanctionsReport:
    """Everything the sanctions report shows for the records drawn up from ``start`` to ``end`` (both included),
    as the situation is on ``today``.

    One municipality's (issue 31 §1): ``town`` (:func:`models.registry.municipality.report_town`), by default
    the database's own — only the records of its acts, headed with its name, agency and coat of arms; the
    records of other towns' acts are only counted in ``left_out``. A database that does not know its
    municipality yet gets the one town its period holds, and is refused a period of several.

    ``progress(done, total)`` is called as the records are read (``total`` their number); it may raise (e.g.
    :class:`models.base.errors.Cancelled`) to stop — nothing is written.
    """
    start, end = check_period(start, end)
    first = _dt.datetime.combine(start, _dt.time(0))
    stop = _dt.datetime.combine(end + _dt.timedelta(days=1), _dt.time(0))
    counts = {
        regime: int(count)
        for regime, count in enf.Record.select(enf.Record.regime, fn.COUNT(enf.Record.id))
        .where((enf.Record.at >= first) & (enf.Record.at < stop))
        .group_by(enf.Record.regime)
        .tuples()
    }
    town = town or report_town(present=counts)
    own = sorted(town.regime_ids)
    labels = Labels()
    records = list(
        enf.Record.select(enf.Record, Permit.id, Permit.number, Permit.site)
        .join(Permit, JOIN.LEFT_OUTER, on=(enf.Record.permit == Permit.id))
        .where((enf.Record.at >= first) & (enf.Record.at < stop) & enf.Record.regime.in_(own))
        .order_by(enf.Record.at, enf.Record.id)
    )
    left_out = town.left_out(counts)
    total = len(records)
    if progress is not None:
        progress(0, total)
    fines_of = _fines(first, stop)
    ids = [r.id for r in records]
    followed = (
        {
            r.refers_to_id
            for r in enf.Record.select(enf.Record.refers_to).where(
                enf.Record.refers_to.in_(ids) & (enf.Record.relation == "follows-notice")
            )
        }
        if ids
        else set()
    )
    held = (
        {
            i.record_id
            for i in enf.SeizedItem.select(enf.SeizedItem.record).where(
                enf.SeizedItem.record.in_(ids)
                & enf.SeizedItem.released_on.is_null()
                & enf.SeizedItem.donated_on.is_null()
            )
        }
        if ids
        else set()
    )
    contested = (
        {c.record_id for c in enf.Contest.select(enf.Contest.record).where(enf.Contest.record.in_(ids))}
        if ids
        else set()
    )
    decided = (
        {
            e.record_id
            for e in enf.RecordEvent.select(enf.RecordEvent.record).where(
                enf.RecordEvent.record.in_(ids) & (enf.RecordEvent.kind == "sanction-decision")
            )
        }
        if ids
        else set()
    )

    site_pairs = set()
    places = []
    for r in records:
        site = _site(labels, r.regime, r.permit.site if r.permit_id else None, r.place)
        site_pairs.add((r.regime, site))
        places.append(site)
    site_names = disambiguate(sorted(site_pairs), labels.town)

    out_records: list[ReportRecord] = []
    infractions: list[ReportInfraction] = []
    sanctions: list[ReportSanction] = []
    fines: list[ReportFine] = []
    deadlines: list[OpenDeadline] = []
    recurrences: list[Recurrence] = []
    sums = {name: Sums() for name in ("kind", "regime", "site", "inspector")}
    articles: dict[tuple[str, str], dict] = {}
    sanction_counts: dict[str, int] = defaultdict(int)
    corrected = annulled = 0
    for done, (r, site) in enumerate(zip(records, places, strict=True), start=1):
        regime_label = labels.regime_label(r.regime)
        site = site_names[(r.regime, site)]
        inspector = f"{r.inspector} (mat. {r.inspector_id})" if r.inspector_id else r.inspector
        proposal = r.proposal_data
        if r.id in decided:  # the authority decided on its sanctions after it was issued
            proposal = dict(enf.current_proposal(r).to_dict(), prior_refs=proposal.get("prior_refs", []))
        not_complied = bool(proposal.get("not_complied"))
        items = proposal.get("infractions", [])
        applied = [s for item in items for s in item.get("sanctions", []) if _applies(s, not_complied)]
        counted = r.status != "corrected"
        corrected += not counted
        annulled += r.status == "annulled"

        # its fines, as charged now, with the values the inspector gave for a fine written as a formula
        fine = paid = open_ = overdue = ZERO
        permit = r.permit.number if r.permit_id else ""
        given = asked_text(proposal, [s for s in applied if s.get("kind") == "fine"])
        for number, amount, paid_total, status, due_on, label, formula, basis, _id in fines_of.get(r.id, ()):
            c_paid, c_open, c_overdue, late = charge_money(amount, paid_total, status, due_on, today)
            if status != "cancelled":
                fine += amount
                paid += c_paid
                open_ += c_open
                overdue += c_overdue
            fines.append(
                ReportFine(
                    r.reference,
                    ReportCharge(
                        number,
                        r.offender_name,
                        r.offender_document,
                        permit,
                        r.regime,
                        regime_label,
                        site,
                        "",
                        "fine",
                        FINE_LABEL,
                        label,
                        "",
                        due_on,
                        amount,
                        c_paid,
                        paid_total,
                        c_open,
                        c_overdue,
                        status,
                        charge_situation(status, amount, paid_total, late),
                        formula or "",
                        basis or "",
                    ),
                    given,
                )
            )

        offence = max((int(item.get("offence") or 1) for item in items), default=1)
        out_records.append(
            ReportRecord(
                id=r.id,
                reference=r.reference,
                number=r.number,
                kind=r.kind,
                kind_label=r.kind_label,
                regime=r.regime,
                regime_label=regime_label,
                at=r.at,
                offender=r.offender_name + ("" if r.identified else " (não identificado)"),
                document=r.offender_document,
                permit=permit,
                site=site,
                place=r.place,
                inspector=inspector,
                codes=", ".join(r.codes),
                articles="; ".join(dict.fromkeys(item.get("article", "") for item in items if item.get("article"))),
                sanctions="; ".join(_sanction_text(s) for s in applied) if r.status == "issued" else "",
                offence=offence,
                status=r.status,
                status_label=r.status_label,
                situation=enf.situation(r),
                fine=fine,
                paid=paid,
                open=open_,
                overdue=overdue,
            )
        )
        if counted:
            for name, key in (
                ("kind", r.kind_label),
                ("regime", regime_label),
                ("site", site),
                ("inspector", inspector),
            ):
                sums[name].add(key, fine, paid, open_, overdue)
            for item in items:
                code = item.get("code", "")
                offence_n = int(item.get("offence") or 1)
                infractions.append(
                    ReportInfraction(
                        r.reference,
                        r.at,
                        r.offender_name,
                        r.regime,
                        regime_label,
                        code,
                        item.get("label", code),
                        item.get("article", ""),
                        item.get("basis", ""),
                        offence_n,
                        r.status_label,
                    )
                )
                slot = articles.setdefault(
                    (r.regime, code),
                    {
                        "label": item.get("label", code),
                        "article": item.get("article", ""),
                        "basis": item.get("basis", ""),
                        "count": 0,
                        "recurrences": 0,
                    },
                )
                slot["count"] += 1
                slot["recurrences"] += offence_n > 1
                if offence_n > 1:
                    own = [s for s in item.get("sanctions", []) if _applies(s, not_complied)]
                    recurrences.append(
                        Recurrence(
                            r.reference,
                            r.at,
                            r.offender_name,
                            regime_label,
                            code,
                            item.get("label", code),
                            offence_n,
                            "; ".join(proposal.get("prior_refs", [])),
                            _recurrence_basis(labels, r.regime, item, own),
                            "; ".join(_sanction_text(s) for s in own),
                        )
                    )
        if r.status == "issued":
            for s in applied:
                kind_label = describe.SANCTIONS.get(s["kind"], s["kind"])
                sanction_counts[kind_label] += 1
                sanctions.append(
                    ReportSanction(
                        r.reference,
                        r.at,
                        r.offender_name,
                        regime_label,
                        s.get("infraction", ""),
                        s["kind"],
                        kind_label,
                        _sanction_text(s),
                        Decimal(s["amount"]) if s.get("amount") not in (None, "") else None,
                        s.get("days"),
                        s.get("basis", ""),
                    )
                )
            deadlines.extend(
                _open_deadlines(
                    r, today, regime_label, followed=r.id in followed, held=r.id in held, contested=r.id in contested
                )
            )
        if progress is not None and done % PROGRESS_STEP == 0:
            progress(done, total)

    period_ids = set(ids)
    seized = tuple(
        PendingSeizure(row, labels.regime_label(row.regime))
        for row in enf.seized_goods(today)
        if row.record_id in period_ids
    )
    debts = tuple(
        Debt(row, labels.regime_label(row.regime)) for row in enf.debt_register(today) if row.record_id in period_ids
    )
    counted_fines = [f.charge for f in fines if f.charge.counted]
    kind_order = {label: i for i, label in enumerate(enf.KINDS.values())}
    by_article = tuple(
        sorted(
            (
                ArticleGroup(
                    code,
                    a["label"],
                    regime_id,
                    labels.regime_label(regime_id),
                    a["article"],
                    a["basis"],
                    a["count"],
                    a["recurrences"],
                )
                for (regime_id, code), a in articles.items()
            ),
            key=lambda a: (a.regime_label, a.code),
        )
    )
    sanction_order = {label: i for i, label in enumerate(describe.SANCTIONS.values())}
    figures = Figures(
        records=len(records) - corrected,
        corrected=corrected,
        annulled=annulled,
        infractions=len(infractions),
        recurrences=len(recurrences),
        sanctions=len(sanctions),
        fines=len(counted_fines),
        charged=sum((f.amount for f in counted_fines), ZERO),
        paid=sum((f.paid for f in counted_fines), ZERO),
        open=sum((f.open for f in counted_fines), ZERO),
        overdue=sum((f.overdue for f in counted_fines), ZERO),
        overdue_count=sum(1 for f in counted_fines if f.overdue),
        debt=sum((d.fine.amount for d in debts), ZERO),
        deadlines=len(deadlines),
        late_decisions=sum(1 for d in deadlines if d.late),
        seized=len(seized),
        seized_due=sum((s.goods.total_due for s in seized), ZERO),
    )
    if progress is not None:
        progress(total, total)
    return SanctionsReport(
        start=start,
        end=end,
        today=today,
        generated_at=now or _dt.datetime.now().replace(microsecond=0),
        municipality=town.label,
        agency=town.agency,
        coat_of_arms=town.coat_of_arms,
        left_out=left_out,
        currency=report_currency(labels, town.regime_ids, counts),  # refuses a period of two moneys, as fees do
        figures=figures,
        records=tuple(out_records),
        infractions=tuple(infractions),
        sanctions=tuple(sanctions),
        fines=tuple(fines),
        deadlines=tuple(sorted(deadlines, key=lambda d: (d.due_on, d.reference))),
        seized=seized,
        recurrences=tuple(recurrences),
        debts=debts,
        by_kind=sums["kind"].groups(order=lambda k: (kind_order.get(k, 99), k)),
        by_regime=sums["regime"].groups(),
        by_site=sums["site"].groups(order=lambda k: (k == NO_SITE, k.casefold())),
        by_inspector=sums["inspector"].groups(),
        by_article=by_article,
        by_sanction=tuple(
            CountGroup(k, sanction_counts[k])
            for k in sorted(sanction_counts, key=lambda k: (sanction_order.get(k, 99), k))
        ),
    )


def _open_deadlines(
    record: enf.Record, today: _dt.date, regime_label: str, *, followed: bool, held: bool, contested: bool
) -> list[OpenDeadline]:
    """The record's deadlines still running on ``today`` and its decisions still pending."""
    if not contested and all(_dt.date.fromisoformat(d["due_date"]) < today for d in record.deadline_data):
        return []  # nothing runs any more: no need to read its contests and charges again
    found = []
    for row in enf.deadline_rows(record, today):
        late = row.role in DECISIONS and row.state == "encerrado"
        if not (late or row.state.startswith(RUNNING)):
            continue
        if (row.role == "compliance" and followed) or (row.role == "reclaim" and not held):
            continue  # the notice was followed by its record; the goods are gone
        state = f"julgamento pendente desde {row.due_date:%d/%m/%Y}" if late else row.state
        found.append(
            OpenDeadline(
                record.reference,
                record.offender_name,
                regime_label,
                row.role_label,
                row.label,
                _moment(row.start),
                row.due_date,
                row.due_text,
                state,
                late,
                row.basis,
            )
        )
    return found


def _moment(text: str) -> str:
    """``2026-03-02T09:30`` → ``02/03/2026 09:30`` (a deadline's start, as counted)."""
    try:
        moment = _dt.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return text or ""
    return f"{moment:%d/%m/%Y %H:%M}" if "T" in text else f"{moment:%d/%m/%Y}"
