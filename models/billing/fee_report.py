"""The monthly fee report (Relatórios → Taxas): the month's charges in figures, gathered once.

Pure data: :func:`fee_report` reads the database in a fixed number of queries
(the month's charges with their permit, application and debtor in one; the
month's payments in another; the overdue charges for the delinquents in a
third; the revocation candidates of :func:`models.billing.charges.revocation_candidates`)
— never one query per row — and returns a :class:`FeeReport` that the Excel,
HTML and PDF writers (``reports/fee_report_*.py``) only lay out.

What the figures mean (the same as :func:`models.billing.charges.month_summary`):

* the month's charges are those **due** in the month; a cancelled charge is
  listed (with its reason kept elsewhere) but counts in no total;
* **cobrado** — the sum of their amounts; **pago** — what was paid on them, up
  to each amount (a payment beyond it is a refund to make, listed under
  *Pagamentos* and marked *paga a maior*); **em aberto** = cobrado − pago;
  **vencido** — what is open on charges whose due date is before ``today``;
* **recebido** — the payments dated in the month, whatever charge they paid;
* **inadimplentes** — holders with charges due up to the month's end still open
  and past due on ``today``; plus the permits the act puts on the chief's list
  (SJC, Lei 9.158/2014, art. 11, § 6º — never an automatic revocation).

Money is ``Decimal`` from integer centavos; nothing here is a float.
"""

from __future__ import annotations

import datetime as _dt
from calendar import monthrange
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from peewee import JOIN

from models.base.errors import UserError
from models.billing.charges import KINDS, Candidate, Charge, ChargeState, Payment, month_label, revocation_candidates
from models.billing.charges.summary import credit_payments
from models.billing.collection.figures import CollectionFigures, collection_figures
from models.billing.report_parts import (
    CANCELLED,
    NO_SECTION,
    NO_SITE,
    ZERO,
    Group,
    Holders,
    Labels,
    Progress,
    Sums,
    Values,
    charge_money,
    charge_situation,
    disambiguate,
    fetch_rows,
)
from models.permits import Permit
from models.registry.applications import Application
from models.registry.municipality import ReportTown, report_town
from models.registry.people import Company, Person

# Group, Sums, Labels, Values, Holders, Progress… live in models.billing.report_parts (shared with the
# sanctions report) and are re-exported here.
__all__ = [
    "CANCELLED",
    "NO_SECTION",
    "NO_SITE",
    "Delinquent",
    "FeeReport",
    "Group",
    "Holders",
    "KindBasis",
    "Labels",
    "Progress",
    "ReportCharge",
    "ReportPayment",
    "Sums",
    "Totals",
    "Values",
    "charge_money",
    "charge_situation",
    "disambiguate",
    "fee_report",
    "fetch_rows",
]

_STEP = 500  # rows between two progress calls


# --------------------------------------------------------------------------- what the report holds


@dataclass(frozen=True)
class Totals:
    count: int  # charges not cancelled
    charged: Decimal
    paid: Decimal
    open: Decimal
    overdue: Decimal
    overdue_count: int = 0


class ReportCharge(NamedTuple):
    """One charge of the month (a named tuple: 20.000 of them are built in a blink)."""

    number: str
    holder: str
    holder_document: str
    permit: str  # permit number, or the application's protocol when the charge came before the permit
    regime: str  # regime id
    regime_label: str  # "São José dos Campos/SP — Lei 9.158/2014"
    site: str
    section: str
    kind: str
    kind_label: str
    label: str
    period: str  # "AAAA-MM" of a monthly fee, else ""
    due_on: _dt.date
    amount: Decimal
    paid: Decimal  # counted paid: up to the amount, 0 when cancelled
    paid_total: Decimal  # everything paid on it (more than the amount when paid twice)
    open: Decimal
    overdue: Decimal
    status: str
    situation: str  # paga, em aberto, vencida, paga a maior, cancelada
    formula: str
    basis: str

    @property
    def counted(self) -> bool:
        return self.status != "cancelled"


class ReportPayment(NamedTuple):
    paid_on: _dt.date
    charge: str
    holder: str
    kind_label: str
    reference: str
    amount: Decimal
    recorded_by: str


@dataclass(frozen=True)
class Delinquent:
    """A holder with charges past due and unpaid (due up to the month's end)."""

    holder: str
    document: str
    count: int
    amount: Decimal
    oldest_due: _dt.date
    charges: str  # their numbers
    permits: str


@dataclass(frozen=True)
class KindBasis:
    """The legal basis of a kind of charge present in the month, as frozen on the charges."""

    kind: str
    kind_label: str
    regime_label: str
    bases: tuple[str, ...]
    count: int

    @property
    def text(self) -> str:
        """The distinct citations of all its bases, in order of first appearance, in one line."""
        parts: dict[str, None] = {}
        for basis in self.bases:
            for part in basis.split("; "):
                if part.strip():
                    parts.setdefault(part.strip(), None)
        return "; ".join(parts)


@dataclass(frozen=True)
class FeeReport:
    year: int
    month: int
    today: _dt.date
    generated_at: _dt.datetime
    municipality: str
    agency: str
    totals: Totals
    received: Decimal
    received_count: int
    cancelled_count: int
    by_regime: tuple[Group, ...]
    by_site: tuple[Group, ...]
    by_section: tuple[Group, ...]
    by_kind: tuple[Group, ...]
    charges: tuple[ReportCharge, ...]
    payments: tuple[ReportPayment, ...]
    delinquents: tuple[Delinquent, ...]
    candidates: tuple[Candidate, ...]
    bases: tuple[KindBasis, ...]
    collection: CollectionFigures | None = None  # issue 30 §7: bank, Pix, desk, late, reversed, credits, inscribed
    coat_of_arms: str = ""  # the municipality's, as a data: URI ("" for none)
    #: the month's charges of other towns' acts, left out of this municipality's report: (town, count)
    left_out: tuple[tuple[str, int], ...] = ()
    #: the money of the municipality's acts, as they write it (``[regime] currency``: Cr$ for an act in cruzeiros)
    currency: str = "R$"

    @property
    def label(self) -> str:
        return month_label(self.year, self.month)

    @property
    def period(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def title(self) -> str:
        return f"Relatório mensal de taxas — {self.label}"

    @property
    def first_day(self) -> _dt.date:
        return _dt.date(self.year, self.month, 1)

    @property
    def last_day(self) -> _dt.date:
        return _dt.date(self.year, self.month, monthrange(self.year, self.month)[1])

    @property
    def delinquent_total(self) -> Decimal:
        return sum((d.amount for d in self.delinquents), ZERO)


# Labels, disambiguate, fetch_rows, Values, Holders, Sums, charge_money and charge_situation serve both reports
# (models/enforcement/sanctions_report.py).


# --------------------------------------------------------------------------- gathering


def _month_charges(first: _dt.date, last: _dt.date, regimes: frozenset[str]):
    return (
        Charge.select(
            Charge.number,
            Charge.kind,
            Charge.regime,
            Charge.label,
            Charge.period,
            Charge.amount,
            Charge.due_on,
            ChargeState.status,
            ChargeState.paid_total,
            Charge.formula,
            Charge.basis,
            Permit.number,
            Permit.site,
            Permit.section,
            Application.protocol,
            Application.site,
            Application.section,
            Person.name,
            Person.cpf,
            Company.legal_name,
            Company.cnpj,
        )
        .join(ChargeState, on=(ChargeState.charge == Charge.id))
        .switch(Charge)
        .join(Permit, JOIN.LEFT_OUTER, on=(Charge.permit == Permit.id))
        .switch(Charge)
        .join(Application, JOIN.LEFT_OUTER, on=(Charge.application == Application.id))
        .switch(Charge)
        .join(Person, JOIN.LEFT_OUTER, on=(Charge.person == Person.id))
        .switch(Charge)
        .join(Company, JOIN.LEFT_OUTER, on=(Charge.company == Company.id))
        .where((Charge.due_on >= first) & (Charge.due_on <= last) & Charge.regime.in_(sorted(regimes)))
        .order_by(Charge.due_on, Charge.number)
    )


def _regime_counts(first: _dt.date, last: _dt.date) -> dict[str, int]:
    """The month's charges per act (one grouped query): which towns the month holds."""
    from peewee import fn

    rows = fetch_rows(
        Charge.select(Charge.regime, fn.COUNT(Charge.id))
        .where((Charge.due_on >= first) & (Charge.due_on <= last))
        .group_by(Charge.regime)
    )
    return {str(row[0]): int(row[1]) for row in rows}


def fee_report(
    year: int,
    month: int,
    *,
    today: _dt.date,
    progress: Progress | None = None,
    now: _dt.datetime | None = None,
    town: ReportTown | None = None,
) -> FeeReport:
    """Everything the monthly fee report shows, for the month ``year``-``month``, as the situation is on ``today``.

    One municipality's (issue 31 §1): ``town`` (:func:`models.registry.municipality.report_town`), by default
    the database's own — only the charges of its acts count, headed with its name, agency and coat of arms; the
    charges of other towns' acts are only counted in ``left_out``. A database that does not know its
    municipality yet gets the one town its month holds, and is refused a month of several.

    ``progress(done, total)`` is called as the charges are read (``total`` their
    number); it may raise (:class:`models.base.errors.Cancelled`) to stop — nothing is written.
    """
    if not 1 <= int(month) <= 12:
        raise UserError(f"Mês inválido: {month}.", field="month")
    first = _dt.date(year, month, 1)
    last = _dt.date(year, month, monthrange(year, month)[1])
    counts = _regime_counts(first, last)
    town = town or report_town(present=counts)
    own = town.regime_ids
    labels = Labels()
    holders = Holders()
    values = Values()

    raw = fetch_rows(_month_charges(first, last, own))
    total_rows = len(raw)
    if progress is not None:
        progress(0, total_rows)

    # site and section: the permit's, else the application's (a charge made before its permit)
    site_pairs, section_pairs = set(), set()
    places = []
    for row in raw:
        regime_id, permit_number = row[2], row[11]
        if permit_number is not None:
            site_raw, section_raw = row[12] or "", row[13] or ""
        else:
            site_raw, section_raw = row[15] or "", row[16] or ""
        site, section = labels.site(regime_id, site_raw), labels.section(regime_id, section_raw)
        site_pairs.add((regime_id, site))
        section_pairs.add((regime_id, section))
        places.append((site, section))
    site_names = disambiguate(sorted(site_pairs), labels.town)
    section_names = disambiguate(sorted(section_pairs), labels.town)

    charges: list[ReportCharge] = []
    append = charges.append
    money, day = values.money, values.day
    sums = {name: Sums() for name in ("regime", "site", "section", "kind")}
    add_regime, add_site, add_section, add_kind = (sums[n].add for n in ("regime", "site", "section", "kind"))
    charged = paid_sum = overdue_sum = ZERO
    count = overdue_count = cancelled_count = 0
    for done, (
        (
            number,
            kind,
            regime_id,
            label,
            period,
            amount,
            due_on,
            status,
            paid_total,
            formula,
            basis,
            permit_number,
            _ps,
            _pc,
            protocol,
            _as,
            _ac,
            person_name,
            person_cpf,
            company_name,
            company_cnpj,
        ),
        (site, section),
    ) in enumerate(zip(raw, places, strict=True), start=1):
        amount, paid_total, due_on = money(amount), money(paid_total), day(due_on)
        holder, document = holders(person_name, person_cpf, company_name, company_cnpj)
        regime_label, kind_label = labels.regime_label(regime_id), KINDS.get(kind, kind)
        site, section = site_names[(regime_id, site)], section_names[(regime_id, section)]
        paid, open_, overdue, late = charge_money(amount, paid_total, status, due_on, today)
        if status == "cancelled":
            cancelled_count += 1
        else:
            overdue_count += late
            count += 1
            charged += amount
            paid_sum += paid
            overdue_sum += overdue
            add_regime(regime_label, amount, paid, open_, overdue)
            add_site(site, amount, paid, open_, overdue)
            add_section(section, amount, paid, open_, overdue)
            add_kind(kind_label, amount, paid, open_, overdue)
        append(
            ReportCharge(
                number,
                holder,
                document,
                permit_number if permit_number is not None else (f"protocolo {protocol}" if protocol else ""),
                regime_id,
                regime_label,
                site,
                section,
                kind,
                kind_label,
                label,
                period or "",
                due_on,
                amount,
                paid,
                paid_total,
                open_,
                overdue,
                status,
                charge_situation(status, amount, paid_total, late),
                formula or "",
                basis or "",
            )
        )
        if progress is not None and done % _STEP == 0:
            progress(done, total_rows)
    totals = Totals(
        count=count,
        charged=charged,
        paid=paid_sum,
        open=charged - paid_sum,
        overdue=overdue_sum,
        overdue_count=overdue_count,
    )

    kind_order = {k: i for i, k in enumerate(KINDS)}
    label_to_kind = {v: k for k, v in KINDS.items()}
    section_regime = {name: regime_id for (regime_id, _), name in section_names.items()}
    by_regime = sums["regime"].groups()
    by_site = sums["site"].groups(order=lambda k: (k == NO_SITE, k.casefold()))
    by_section = sums["section"].groups(
        order=lambda k: (
            k.startswith(NO_SECTION),
            section_regime.get(k, ""),
            labels.section_order(section_regime.get(k, ""), k),
            k.casefold(),
        )
    )
    by_kind = sums["kind"].groups(order=lambda k: (kind_order.get(label_to_kind.get(k, ""), 99), k))

    payments = _payments(first, last, values, own)
    delinquents = _delinquents(last, today, holders, values, own)
    candidates = tuple(c for c in revocation_candidates(today=today) if c.regime in own)
    if progress is not None:
        progress(total_rows, total_rows)
    return FeeReport(
        year=year,
        month=month,
        today=today,
        generated_at=now or _dt.datetime.now().replace(microsecond=0),
        municipality=town.label,
        agency=town.agency,
        totals=totals,
        received=sum((p.amount for p in payments), ZERO),
        received_count=len(payments),
        cancelled_count=cancelled_count,
        by_regime=by_regime,
        by_site=by_site,
        by_section=by_section,
        by_kind=by_kind,
        charges=tuple(charges),
        payments=payments,
        delinquents=delinquents,
        candidates=candidates,
        bases=_bases(charges, labels, kind_order),
        collection=collection_figures(first, last, own),
        coat_of_arms=town.coat_of_arms,
        left_out=town.left_out(counts),
        currency=report_currency(labels, own, counts),
    )


def report_currency(labels: Labels, own: frozenset[str], counts: dict[str, int]) -> str:
    """The money the month's acts write their amounts in (``R$``; ``Cr$`` for an act in cruzeiros), printed as such —
    never converted. Amounts in two moneys cannot be added: such a month is refused with the acts named."""
    present = sorted(r for r in own if counts.get(r)) or sorted(own)
    moneys: dict[str, list[str]] = {}
    for regime_id in present:
        regime = labels.regime(regime_id)
        if regime is not None:
            moneys.setdefault(regime.currency_on(_dt.date.today()), []).append(regime.short)
    if len(moneys) > 1:
        listed = "; ".join(f"{money}: {', '.join(shorts)}" for money, shorts in sorted(moneys.items()))
        raise UserError(
            f"Os atos deste mês escrevem seus valores em moedas diferentes ({listed}): os totais não se somam. "
            "A conversão para reais só existe onde um ato a estabelece."
        )
    return next(iter(moneys), "R$")


def _payments(first: _dt.date, last: _dt.date, values: Values, regimes: frozenset[str]) -> tuple[ReportPayment, ...]:
    query = (
        Payment.select(
            Payment.paid_on,
            Charge.number,
            Charge.kind,
            Payment.reference,
            Payment.amount,
            Payment.recorded_by,
            Person.name,
            Company.legal_name,
        )
        .join(Charge, on=(Payment.charge == Charge.id))
        .join(Person, JOIN.LEFT_OUTER, on=(Charge.person == Person.id))
        .switch(Charge)
        .join(Company, JOIN.LEFT_OUTER, on=(Charge.company == Company.id))
        .where(
            (Payment.paid_on >= first)
            & (Payment.paid_on <= last)
            & Charge.regime.in_(sorted(regimes))
            & Payment.id.not_in(credit_payments())
        )
        .order_by(Payment.paid_on, Payment.id)
    )
    return tuple(
        ReportPayment(
            values.day(paid_on),
            number,
            person_name or company_name or "",
            KINDS.get(kind, kind),
            reference,
            values.money(amount),
            recorded_by,
        )
        for paid_on, number, kind, reference, amount, recorded_by, person_name, company_name in fetch_rows(query)
    )


def _delinquents(
    last: _dt.date, today: _dt.date, holders: Holders, values: Values, regimes: frozenset[str]
) -> tuple[Delinquent, ...]:
    """Holders with charges due up to the month's end that are open and past due on ``today``."""
    query = (
        Charge.select(
            Charge.number,
            Charge.amount,
            ChargeState.paid_total,
            Charge.due_on,
            Charge.person,
            Charge.company,
            Permit.number,
            Person.name,
            Person.cpf,
            Company.legal_name,
            Company.cnpj,
        )
        .join(ChargeState, on=(ChargeState.charge == Charge.id))
        .switch(Charge)
        .join(Permit, JOIN.LEFT_OUTER, on=(Charge.permit == Permit.id))
        .switch(Charge)
        .join(Person, JOIN.LEFT_OUTER, on=(Charge.person == Person.id))
        .switch(Charge)
        .join(Company, JOIN.LEFT_OUTER, on=(Charge.company == Company.id))
        .where(
            (ChargeState.status == "open")
            & (ChargeState.due_on < today)
            & (Charge.due_on <= last)
            & Charge.regime.in_(sorted(regimes))
        )
        .order_by(Charge.due_on, Charge.number)
    )
    acc: dict[tuple, dict] = {}
    for (
        number,
        amount,
        paid_total,
        due_on,
        person_id,
        company_id,
        permit_number,
        person_name,
        person_cpf,
        company_name,
        company_cnpj,
    ) in fetch_rows(query):
        key = ("p", person_id) if person_id else ("c", company_id)
        slot = acc.get(key)
        if slot is None:
            holder, document = holders(person_name, person_cpf, company_name, company_cnpj)
            slot = acc[key] = {
                "holder": holder,
                "document": document,
                "count": 0,
                "amount": ZERO,
                "oldest": values.day(due_on),
                "numbers": [],
                "permits": [],
            }
        slot["count"] += 1
        slot["amount"] += max(values.money(amount) - values.money(paid_total), ZERO)
        slot["numbers"].append(number)
        if permit_number and permit_number not in slot["permits"]:
            slot["permits"].append(permit_number)
    found = [
        Delinquent(
            holder=s["holder"],
            document=s["document"],
            count=s["count"],
            amount=s["amount"],
            oldest_due=s["oldest"],
            charges=", ".join(s["numbers"]),
            permits=", ".join(s["permits"]),
        )
        for s in acc.values()
    ]
    return tuple(sorted(found, key=lambda d: (-d.amount, d.holder.casefold())))


def _bases(charges: list[ReportCharge], labels: Labels, kind_order: dict[str, int]) -> tuple[KindBasis, ...]:
    """Each kind present, per regime: the distinct legal bases frozen on its charges."""
    acc: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for c in charges:
        key = (c.kind, c.regime)
        counts[key] += 1
        if c.basis:
            acc[key].setdefault(c.basis, None)
    keys = sorted(counts, key=lambda k: (kind_order.get(k[0], 99), labels.regime_label(k[1])))
    return tuple(
        KindBasis(
            kind=k,
            kind_label=KINDS.get(k, k),
            regime_label=labels.regime_label(r),
            bases=tuple(sorted(acc[(k, r)])),
            count=counts[(k, r)],
        )
        for k, r in keys
    )
