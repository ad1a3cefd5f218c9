"""The sanctions report (Relatórios → Sanções): a period's enforcement in figures, gathered once.

Pure data, like :mod:`models.billing.fee_report` (whose regime labels, site
disambiguation and sums it shares): :func:`sanctions_report` reads the records
**drawn up** in the period (the day and hour of the facts, ``Record.at``) and
returns a :class:`SanctionsReport` that the Excel, HTML and PDF writers
(``reports/sanctions_report_*.py``) only lay out.

What the figures mean:

* **autos** — the records of the period, by kind, regime, site and inspector. A
  record *corrected* (or whose offender was identified) is replaced by the new
  record that refers to it (Olímpia, LC 324/2025, art. 32, § 4º): it is listed
  but counts in nothing, so one occurrence is never counted twice; an
  *annulled* record counts (it was drawn up) with no fine;
* **infrações** — each article infringed on a counted record, with the article
  and the article that sets its penalty, as frozen on the record when issued;
  a **reincidência** is an infraction whose offence number is 2 or more (the
  offender's earlier occurrences of the same nature inside the act's window —
  Olímpia art. 12, § 1º; art. 17, § 1º);
* **sanções aplicadas** — the sanctions of the records in force (not corrected,
  not annulled) that apply now: a warning's conditional fine only once the
  notice was not complied with (art. 29);
* **multas** — the fine charges of the counted records (a reduced fine is a new
  charge, the old one cancelled; a cancelled charge is listed and counts in no
  total): **cobrado** their amounts, **pago** what was paid up to each amount,
  **em aberto** = cobrado − pago, **vencido** what is open on charges due before
  ``today``; and the unpaid fines past every deadline, for the **dívida ativa**
  (LC 324/2025, art. 11, § 1º — :func:`models.enforcement.debt_register`);
* **prazos em curso** — deadlines of the records still running on ``today``,
  and decisions on defences and appeals still pending, with their basis;
* **bens apreendidos pendentes** — goods seized in the period still in the
  depot on ``today``, with what must be paid to get them back
  (:func:`models.enforcement.seized_goods`).

Money is ``Decimal`` from integer centavos; nothing here is a float.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from peewee import JOIN

from models import enforcement as enf
from models.base.errors import FieldErrors
from models.billing.charges import KINDS as CHARGE_KINDS
from models.billing.charges import Charge
from models.billing.fee_report import (
    CANCELLED,
    NO_SITE,
    Cancelled,
    Group,
    Labels,
    Progress,
    ReportCharge,
    Sums,
    charge_money,
    charge_situation,
    disambiguate,
)
from models.permits import Permit
from models.rules import describe
from models.store.settings import AGENCY, get_setting, municipality_label

__all__ = [
    "CANCELLED",
    "CORRECTED",
    "ArticleGroup",
    "Cancelled",
    "CountGroup",
    "Debt",
    "Figures",
    "OpenDeadline",
    "PendingSeizure",
    "Recurrence",
    "ReportFine",
    "ReportInfraction",
    "ReportRecord",
    "ReportSanction",
    "SanctionsReport",
    "check_period",
    "period_label",
    "sanctions_report",
]

ZERO = Decimal("0.00")
CORRECTED = enf.STATUSES["corrected"]  # "corrigido": listed, counts in nothing (its correction counts)
_STEP = 50  # records between two progress calls
_RUNNING = ("vence hoje", "faltam")  # the states deadline_rows gives a deadline that still runs
_DECISIONS = ("decision", "appeal-decision")
FINE_LABEL = CHARGE_KINDS["fine"]


# --------------------------------------------------------------------------- what the report holds


class ReportRecord(NamedTuple):
    """One record of the period, with its fine as charged now."""

    id: int
    reference: str  # "AI nº 2026/00012"
    number: str
    kind: str
    kind_label: str
    regime: str
    regime_label: str
    at: _dt.datetime
    offender: str
    document: str
    permit: str
    site: str
    place: str
    inspector: str  # name and registration number: the key of the breakdown by inspector
    codes: str
    articles: str  # the articles infringed, cited in full
    sanctions: str  # the sanctions that apply, in words
    offence: int  # the highest offence number among its infractions (2 or more: a recurrence)
    status: str
    status_label: str  # lavrado, corrigido, anulado
    situation: str  # under defence, final decision…
    fine: Decimal  # fines charged (not cancelled)
    paid: Decimal  # paid on them, up to each amount
    open: Decimal
    overdue: Decimal

    @property
    def counted(self) -> bool:
        return self.status != "corrected"


class ReportInfraction(NamedTuple):
    """One article infringed on a counted record."""

    reference: str
    at: _dt.datetime
    offender: str
    regime: str
    regime_label: str
    code: str
    label: str
    article: str  # the article infringed
    basis: str  # the article that sets the penalty
    offence: int
    status_label: str


class ReportSanction(NamedTuple):
    """One sanction that applies, on a record in force."""

    reference: str
    at: _dt.datetime
    offender: str
    regime_label: str
    code: str
    kind: str
    kind_label: str  # multa, suspensão… in the act's word
    text: str
    amount: Decimal | None  # a fine as proposed and adjusted on the record
    days: int | None
    basis: str


class ReportFine(NamedTuple):
    """One fine charge of a counted record: its record, and the charge as the fee report lists one (the offender as
    holder, the record's site; cancelled ones count in no total)."""

    record: str  # its record's reference
    charge: ReportCharge


class OpenDeadline(NamedTuple):
    reference: str
    offender: str
    regime_label: str
    role_label: str
    label: str
    start: str
    due_on: _dt.date
    due_text: str
    state: str
    late: bool  # a decision past its deadline, still pending
    basis: str


class Recurrence(NamedTuple):
    reference: str
    at: _dt.datetime
    offender: str
    regime_label: str
    code: str
    label: str
    offence: int
    priors: str  # the earlier occurrences, by reference and day
    basis: str  # the recurrence rule and the penalty's articles
    sanctions: str


class PendingSeizure(NamedTuple):
    """Goods of a seizure of the period still in the depot, and what it takes to get them back today."""

    goods: enf.SeizedRow
    regime_label: str


class Debt(NamedTuple):
    """A fine of the period unpaid past every deadline: for the dívida ativa."""

    fine: enf.DebtRow
    regime_label: str


@dataclass(frozen=True)
class ArticleGroup:
    """An article infringed in the period: how many records cite it, how many as a recurrence."""

    code: str
    label: str
    regime: str
    regime_label: str
    article: str
    basis: str
    count: int
    recurrences: int


@dataclass(frozen=True)
class CountGroup:
    key: str
    count: int


@dataclass(frozen=True)
class Figures:
    records: int  # counted (not corrected)
    corrected: int
    annulled: int
    infractions: int
    recurrences: int
    sanctions: int
    fines: int  # fine charges not cancelled
    charged: Decimal
    paid: Decimal
    open: Decimal
    overdue: Decimal
    overdue_count: int
    debt: Decimal  # for the dívida ativa
    deadlines: int  # running, and decisions pending
    late_decisions: int
    seized: int  # seizures with goods still held
    seized_due: Decimal  # what must be paid today to get them all back


@dataclass(frozen=True)
class SanctionsReport:
    start: _dt.date
    end: _dt.date
    today: _dt.date
    generated_at: _dt.datetime
    municipality: str
    agency: str
    figures: Figures
    records: tuple[ReportRecord, ...]
    infractions: tuple[ReportInfraction, ...]
    sanctions: tuple[ReportSanction, ...]
    fines: tuple[ReportFine, ...]
    deadlines: tuple[OpenDeadline, ...]
    seized: tuple[PendingSeizure, ...]
    recurrences: tuple[Recurrence, ...]
    debts: tuple[Debt, ...]
    by_kind: tuple[Group, ...]
    by_regime: tuple[Group, ...]
    by_site: tuple[Group, ...]
    by_inspector: tuple[Group, ...]
    by_article: tuple[ArticleGroup, ...]
    by_sanction: tuple[CountGroup, ...]

    @property
    def label(self) -> str:
        return period_label(self.start, self.end)

    @property
    def title(self) -> str:
        return f"Relatório de sanções — {self.label}"

    @property
    def totals(self) -> Group:
        """The records' line of every breakdown: counted records and their fines."""
        f = self.figures
        return Group("Total", f.records, f.charged, f.paid, f.open, f.overdue)


def period_label(start: _dt.date, end: _dt.date) -> str:
    return f"{start:%d/%m/%Y} a {end:%d/%m/%Y}"


def check_period(start: _dt.date | None, end: _dt.date | None) -> tuple[_dt.date, _dt.date]:
    errors = {}
    if start is None:
        errors["start"] = "Informe o início do período."
    if end is None:
        errors["end"] = "Informe o fim do período."
    if not errors and start > end:
        errors["end"] = f"O período está invertido: o início ({start:%d/%m/%Y}) é depois do fim ({end:%d/%m/%Y})."
    if errors:
        raise FieldErrors(errors)
    return start, end


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
            Charge.paid_total,
            Charge.status,
            Charge.due_on,
            Charge.label,
            Charge.formula,
            Charge.basis,
            Charge.id,
        )
        .join(Charge, on=(enf.RecordCharge.charge == Charge.id))
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
) -> SanctionsReport:
    """Everything the sanctions report shows for the records drawn up from ``start`` to ``end`` (both included),
    as the situation is on ``today``.

    ``progress(done, total)`` is called as the records are read (``total`` their number); it may raise (e.g.
    :class:`Cancelled`) to stop — nothing is written.
    """
    start, end = check_period(start, end)
    first = _dt.datetime.combine(start, _dt.time(0))
    stop = _dt.datetime.combine(end + _dt.timedelta(days=1), _dt.time(0))
    labels = Labels()
    records = list(
        enf.Record.select(enf.Record, Permit.id, Permit.number, Permit.site)
        .join(Permit, JOIN.LEFT_OUTER, on=(enf.Record.permit == Permit.id))
        .where((enf.Record.at >= first) & (enf.Record.at < stop))
        .order_by(enf.Record.at, enf.Record.id)
    )
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

        # its fines, as charged now
        fine = paid = open_ = overdue = ZERO
        permit = r.permit.number if r.permit_id else ""
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
        if progress is not None and done % _STEP == 0:
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
        municipality=municipality_label(),
        agency=get_setting(AGENCY),
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
        late = row.role in _DECISIONS and row.state == "encerrado"
        if not (late or row.state.startswith(_RUNNING)):
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
