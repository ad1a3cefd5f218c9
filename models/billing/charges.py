"""Charges (cobranças) and payments: what each permit owes, what was paid, who is in debt.

A charge is an issued act: its amount, formula, values and legal basis are
frozen when it is created (``formula``, ``basis`` and ``detail`` keep the fee
engine's line as computed), so a later change of a fiscal-unit value or of a
regime file never changes it. It is never edited: it is paid (one or more
payments), or cancelled with a reason that is kept; a deposit (caução) that
was paid can be returned (Olímpia, LC 324/2025, art. 91, § 5º).

Where charges come from:

* **The month** (:func:`plan_month` / :func:`generate_month`): for every permit
  in force in the month, each fee of its kind (``[[permit_kinds]].fees``):
  a monthly fee (``per-area-month``, e.g. SJC's R$ 2,50/m² due on the 20th,
  Lei 9.158/2014, art. 11, § 5º) once per month; any other priced fee once per
  permit — from the quote frozen on its application when there is one (São
  Bento's occupation + energy, due 26/03/2026, Dec. 4.794/2026, art. 9º and 12).
  A fee whose value the Administration sets (``admin_defined``) and has not set
  is listed, not invented. Each charge has a ``key`` (unique in the database),
  so generating the same month twice creates nothing new.
* **Awaiting payment** (:func:`await_payment`): where the act wants payment
  before the permit, the application's frozen quote becomes its charges.
* **By hand** (:func:`create_charge`): a value the Administration set (Olímpia
  TPU, art. 178), a venue fee or deposit (art. 89), a fine or depot fee.

Debts (:func:`debts_of`): open charges past their due date, and unpaid fines,
block new permits and renewals where the regime has a ``no-debts`` rule
(Sapezal, Lei 1.171/2014, art. 61; Olímpia art. 158; São Bento art. 2º, § 2º).
Delinquency (:func:`revocation_candidates`): a monthly fee with ``arrears``
(SJC art. 11, § 6º: three consecutive months unpaid) puts the permit on a list
for the chief to decide — Praça never revokes by itself.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
from calendar import monthrange
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import NamedTuple

from peewee import (
    JOIN,
    Case,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    IntegrityError,
    PostgresqlDatabase,
    TextField,
    fn,
)

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl, parse_typed
from models.permits.tables import LIVE_STATUSES, Permit
from models.permits.today import TodayItem
from models.registry.applications import Application, change_status, next_number, next_numbers
from models.registry.people import Company, Person
from models.rules.acts import act_sha
from models.rules.eligibility import DebtFacts
from models.store.db import BaseModel, MoneyField, db, update_versioned

__all__ = [
    "KINDS",
    "STATUSES",
    "Charge",
    "Payment",
    "PlannedCharge",
    "MonthPlan",
    "ChargeRow",
    "MonthSummary",
    "Candidate",
    "parse_month",
    "month_label",
    "plan_month",
    "generate_month",
    "await_payment",
    "create_charge",
    "record_payment",
    "cancel_charge",
    "return_deposit",
    "charge_rows",
    "payments_of",
    "get_charge",
    "debts_of",
    "open_charges_of_application",
    "revocation_candidates",
    "month_summary",
    "overdue_count",
    "charge_alerts",
]

KINDS = {
    "monthly": "mensalidade",
    "event": "preço por evento / avulso",
    "yearly": "preço público anual",
    "venue": "taxa de uso de imóvel público",
    "deposit": "caução",
    "fine": "multa",
    "depot": "diária de depósito",
    "other": "outra",
}
STATUSES = {"open": "em aberto", "paid": "paga", "cancelled": "cancelada"}
ZERO = Decimal("0.00")


def _date(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


# --------------------------------------------------------------------------- tables


class Charge(BaseModel):
    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN, counter charge-AAAA
    key = CharField(max_length=80, null=True, unique=True)  # generation key: a month never charged twice
    kind = CharField(max_length=16, index=True)
    regime = CharField(max_length=64, index=True)
    permit = ForeignKeyField(Permit, null=True, backref="charges", on_delete="RESTRICT")
    application = ForeignKeyField(Application, null=True, backref="charges", on_delete="RESTRICT")
    person = ForeignKeyField(Person, null=True, backref="charges", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="charges", on_delete="RESTRICT")
    fee = CharField(max_length=64, default="")
    label = CharField(max_length=200)
    period = CharField(max_length=7, default="", index=True)  # AAAA-MM of a monthly fee
    amount = MoneyField()
    due_on = DateField()  # indexed by the two indexes below, both led by it
    formula = TextField(default="")
    basis = TextField(default="")
    detail = TextField(default="")  # JSON of the fee engine's line, frozen
    status = CharField(max_length=12, default="open", index=True)
    paid_total = MoneyField(default=0)
    created_at = DateTimeField(default=clock.now)
    created_on = DateField()
    created_by = CharField(max_length=100)
    cancelled_at = DateTimeField(null=True)
    cancelled_by = CharField(max_length=100, default="")
    cancel_reason = TextField(default="")
    returned_on = DateField(null=True)  # a deposit given back
    returned_by = CharField(max_length=100, default="")
    returned_note = TextField(default="")
    source = CharField(max_length=64, default="")  # e.g. an infraction record's number
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    class Meta:
        table_name = "charge"

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def debtor_name(self) -> str:
        if self.person_id:
            return self.person.name
        return self.company.legal_name if self.company_id else ""

    @property
    def open_amount(self) -> Decimal:
        if self.status == "cancelled":
            return ZERO
        return max(self.amount - self.paid_total, ZERO)


# The Painel's and the reports' sums read indexes only (schema v14): the month's figures by due date, and the
# open charges — a small part of a town's, which grows by tens of thousands a year — with what the overdue total
# and the arrears list need.
Charge.add_index(
    Charge.index(
        Charge.due_on, Charge.status, Charge.amount, Charge.paid_total, name="charge_due_on_figures", safe=True
    )
)
Charge.add_index(
    Charge.index(
        Charge.due_on,
        Charge.kind,
        Charge.permit,
        Charge.fee,
        Charge.period,
        Charge.amount,
        Charge.paid_total,
        name="charge_open_by_due_on",
        safe=True,
    ).where(Charge.status == "open")
)


class Payment(BaseModel):
    """One payment of a charge: never edited; a slip is recorded once per charge (unique index)."""

    charge = ForeignKeyField(Charge, backref="payments", on_delete="RESTRICT")
    paid_on = DateField(index=True)
    amount = MoneyField()
    reference = CharField(max_length=64)  # the bank slip's number, or the receipt's
    recorded_at = DateTimeField(default=clock.now)
    recorded_by = CharField(max_length=100)
    note = TextField(default="")

    class Meta:
        table_name = "payment"
        indexes = ((("charge", "reference"), True),)


# --------------------------------------------------------------------------- helpers


def parse_month(text: str) -> tuple[int, int]:
    """``"2026-03"`` (or ``"03/2026"``) → ``(2026, 3)``; one pt-BR line otherwise."""
    raw = (text or "").strip()
    year = month = None
    if len(raw) == 7 and raw[4] == "-":
        year, month = raw[:4], raw[5:]
    elif len(raw) == 7 and raw[2] == "/":
        month, year = raw[:2], raw[3:]
    if (
        year
        and month
        and year.isdecimal()
        and month.isdecimal()
        and 1 <= int(month) <= 12
        and 2000 <= int(year) <= 2100
    ):
        return int(year), int(month)
    raise UserError(f"Mês inválido: {raw or '(vazio)'}; use AAAA-MM, por exemplo 2026-03.", field="month")


def month_label(year: int, month: int) -> str:
    names = [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ]
    return f"{names[month - 1]} de {year}"


def _month_bounds(year: int, month: int) -> tuple[_dt.date, _dt.date]:
    return _dt.date(year, month, 1), _dt.date(year, month, monthrange(year, month)[1])


def _by(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(by)


def _next_charge_number(today: _dt.date) -> str:
    seq = next_number(f"charge-{today.year}")
    return f"{today.year}/{seq:05d}"


def _charge_kind(fee, line_kind: str) -> str:
    if line_kind == "deposit":
        return "deposit"
    if fee is None:
        return "other"
    if fee.kind == "per-area-month":
        return "monthly"
    if fee.kind == "venue-table":
        return "venue"
    if fee.per == "year":
        return "yearly"
    return "event"


def _due_for(fee, line_due: str | None, *, issued: _dt.date, period_end: _dt.date) -> _dt.date:
    """The due date a fee sets: a fixed date, a day of the month, days after issue — or the month's end."""
    due = getattr(fee, "due", None)
    if due is not None:
        if due.date:
            return due.date
        if due.days_after_issue is not None:
            return issued + _dt.timedelta(days=due.days_after_issue)
        if due.day_of_month:
            return period_end.replace(day=min(due.day_of_month, period_end.day))
    return period_end


# --------------------------------------------------------------------------- the month's charges


class PlannedCharge(NamedTuple):
    """A charge the month will create, shown before anything is written (immutable, and made fast: a month
    plans 20.000 of them)."""

    key: str
    permit_id: int | None
    permit_number: str
    holder: str
    regime: str
    fee: str
    kind: str
    label: str
    period: str
    amount: Decimal
    due_on: _dt.date
    formula: str
    basis: str
    detail: dict
    person_id: int | None = None
    company_id: int | None = None
    application_id: int | None = None

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class MonthPlan:
    year: int
    month: int
    to_create: tuple[PlannedCharge, ...]
    existing: int  # charges of this month already created (a second run creates nothing)
    skipped: tuple[str, ...]  # fees not charged, with the reason (value not set, quote impossible…)

    @property
    def total(self) -> Decimal:
        return sum((c.amount for c in self.to_create), ZERO)

    @property
    def label(self) -> str:
        return month_label(self.year, self.month)


def _quote_lines_of(permit, regime, fee_ids: list[str], admin_ids: list[str], year: int, book=None) -> list[dict]:
    """Lines of the fee engine for ``fee_ids`` of ``permit`` (a row of :func:`plan_month`'s query): as frozen on
    its application (with any value the Administration set, ``admin_ids``), else computed now (without them;
    ``book``: the regime's price book)."""
    from models.billing.pricing import quote

    app = Application.get_or_none(Application.id == permit.application) if permit.application else None
    if app is not None and app.quote_json:
        stored = json.loads(app.quote_json) or {}
        lines = [line for line in stored.get("lines", []) if line.get("fee") in (*fee_ids, *admin_ids)]
        if lines:
            return lines
    if not fee_ids:
        return []
    inputs = {"fees": fee_ids, "year": year}
    for name in ("equipment", "line", "front", "depth", "hitch"):
        value = getattr(permit, name)
        if value not in (None, ""):
            inputs[name] = value
    if permit.company:
        inputs["mei"] = bool(permit.company_mei)
    return [line.to_dict() for line in quote(regime, book=book, **inputs).lines]


def _area_inputs(regime, permit: Permit, fee) -> tuple[str, ...]:
    """What an area fee reads of a permit: the line alone where the fee charges the size the act fixes for it;
    else the stall's real size (SJC art. 11, § 5º: "por metro quadrado utilizado", the line's size a maximum)."""
    try:
        line = regime.line(permit.line) if permit.line else None
    except UserError:
        line = None
    if fee.area == "line" and line is not None and line.front is not None and line.depth is not None:
        return ("line",)
    return ("line", "front", "depth")


class _PermitRow(NamedTuple):
    """What the month's plan reads of a permit (a plain row: 20.000 of them are read in a blink)."""

    id: int
    number: str
    regime: str
    permit_kind: str
    person: int | None
    company: int | None
    application: int | None
    issued_on: _dt.date
    equipment: str
    line: str
    front: Decimal | None
    depth: Decimal | None
    hitch: Decimal | None
    person_name: str | None
    company_name: str | None
    company_mei: bool | None


def _permit_rows(raw: list[tuple]) -> list[_PermitRow]:
    """The driver's rows as :class:`_PermitRow`: dates and sizes converted once per distinct value (they repeat)."""
    days: dict = {}
    sizes: dict = {None: None, "": None}
    rows = []
    for (
        pid,
        number,
        regime,
        kind,
        person,
        company,
        application,
        issued,
        equipment,
        line,
        front,
        depth,
        hitch,
        person_name,
        company_name,
        mei,
    ) in raw:
        day = days.get(issued)
        if day is None:
            day = days[issued] = issued if isinstance(issued, _dt.date) else _dt.date.fromisoformat(str(issued)[:10])
        for text in (front, depth, hitch):
            if text not in sizes:
                sizes[text] = Decimal(text)
        rows.append(
            _PermitRow(
                pid,
                number,
                regime,
                kind,
                person,
                company,
                application,
                day,
                equipment,
                line,
                sizes[front],
                sizes[depth],
                sizes[hitch],
                person_name,
                company_name,
                None if mei is None else bool(mei),
            )
        )
    return rows


def plan_month(year: int, month: int, *, today: _dt.date | None = None) -> MonthPlan:
    """What :func:`generate_month` would create for the month, and what it leaves out and why.

    Thousands of permits are priced with one price book per regime (read once), and stalls of the same size
    and line share one computed line: the fee engine is pure, so equal inputs give the same line."""
    from models.billing.pricing import price_book, quote
    from models.rules.regimes import get_regime

    first, last = _month_bounds(year, month)
    period = f"{year:04d}-{month:02d}"
    # plain rows, the holder's name (and a company's MEI flag) with them: one query, no model per permit
    permits = (
        Permit.select(
            Permit.id,
            Permit.number,
            Permit.regime,
            Permit.permit_kind,
            Permit.person,
            Permit.company,
            Permit.application,
            Permit.issued_on,
            Permit.equipment,
            Permit.line,
            Permit.front,
            Permit.depth,
            Permit.hitch,
            Person.name.alias("person_name"),
            Company.legal_name.alias("company_name"),
            Company.mei.alias("company_mei"),
        )
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(
            Permit.status.in_(LIVE_STATUSES)
            & (Permit.valid_from <= last)
            & (Permit.valid_until >= first)
            & (Permit.issued_on <= last)
        )
        .order_by(Permit.regime, Permit.number)
    )
    permits = _permit_rows(db.execute(permits).fetchall())
    # keys that can clash: this month's, and those of charges made once (no period) — not every past month's
    existing_keys = {
        k
        for (k,) in Charge.select(Charge.key)
        .where(Charge.key.is_null(False) & ((Charge.period == "") | (Charge.period == period)))
        .tuples()
    }
    planned: list[PlannedCharge] = []
    skipped: list[str] = []
    existing = 0
    books: dict[str, object] = {}
    quoted: dict[tuple, object] = {}  # (regime, fee, inputs) → (line, its dict) or the refusal
    # what repeats across 20.000 permits is worked out once: the regime and kind with its fees sorted, which
    # inputs price a stall of a line, the due date of a fee for an issue date, the label of a fee
    kinds: dict[tuple, object] = {}
    inputs_of: dict[tuple, tuple[str, ...]] = {}
    getters: dict[tuple[str, ...], attrgetter] = {}
    dues: dict[tuple, _dt.date] = {}
    labels: dict[tuple, str] = {}
    this_month = month_label(year, month)

    def book_of(regime):
        if regime.id not in books:
            books[regime.id] = price_book(regime, year)
        return books[regime.id]

    def kind_of(regime_id: str, kind_id: str):
        """(regime, monthly fees, fees charged once, fees whose value the Administration sets), or the refusal."""
        try:
            regime = get_regime(regime_id, on=_dt.date(year, month, 1))  # the act's text in force in the month
            kind = regime.permit_kind(kind_id)
        except UserError as exc:
            return exc
        monthly, once, admin = [], [], []
        for fee_id in kind.fees:
            fee = regime.fee(fee_id)
            if fee.kind == "per-area-month":
                monthly.append(fee)
            elif fee.kind == "per-day":
                continue  # depot fees come from seizures (enforcement), not from the month
            elif fee.admin_defined:
                admin.append(fee)  # charged only when frozen on the application
            else:
                once.append(fee.id)
        return regime, monthly, once, admin

    for permit in permits:
        found = kinds.get((permit.regime, permit.permit_kind))
        if found is None:
            found = kinds[permit.regime, permit.permit_kind] = kind_of(permit.regime, permit.permit_kind)
        if isinstance(found, UserError):
            skipped.append(f"Permissão nº {permit.number}: {found.message}")
            continue
        regime, monthly, once, admin = found
        holder = permit.person_name if permit.person else permit.company_name
        for fee in monthly:
            key = f"p{permit.id}:{fee.id}:{period}"
            if key in existing_keys:
                existing += 1
                continue
            names = inputs_of.get((regime.id, fee.id, permit.line))
            if names is None:
                names = inputs_of[regime.id, fee.id, permit.line] = _area_inputs(regime, permit, fee)
                getters[names] = attrgetter(*names)
            memo = (regime.id, fee.id, names, str(getters[names](permit)))  # "2.0" and "2" stay apart
            if memo not in quoted:
                inputs = {name: getattr(permit, name) for name in names if getattr(permit, name) not in (None, "")}
                try:
                    line = quote(regime, fees=[fee.id], year=year, book=book_of(regime), **inputs).lines[0]
                    quoted[memo] = (line, line.to_dict())
                except UserError as exc:
                    quoted[memo] = exc
            priced = quoted[memo]
            if isinstance(priced, UserError):
                skipped.append(f"Permissão nº {permit.number} — {fee.label}: {priced.message}")
                continue
            line, line_dict = priced
            due = dues.get((regime.id, fee.id, permit.issued_on))
            if due is None:
                due = dues[regime.id, fee.id, permit.issued_on] = _due_for(
                    fee, None, issued=permit.issued_on, period_end=last
                )
            label = labels.get((regime.id, fee.id))
            if label is None:
                label = labels[regime.id, fee.id] = f"{fee.label} — {this_month}"
            planned.append(
                PlannedCharge(
                    key=key,
                    permit_id=permit.id,
                    permit_number=permit.number,
                    holder=holder,
                    regime=regime.id,
                    fee=fee.id,
                    kind="monthly",
                    label=label,
                    period=period,
                    amount=line.amount,
                    due_on=due,
                    formula=line.formula,
                    basis=line.basis,
                    detail=line_dict,
                    person_id=permit.person,
                    company_id=permit.company,
                    application_id=permit.application,
                )
            )
        if not once and not admin:
            continue
        common = dict(
            permit_id=permit.id,
            permit_number=permit.number,
            holder=holder,
            regime=regime.id,
            person_id=permit.person,
            company_id=permit.company,
            application_id=permit.application,
        )
        owner = f"a{permit.application}" if permit.application else f"p{permit.id}"
        try:
            lines = _quote_lines_of(
                permit, regime, once, [f.id for f in admin], year, book_of(regime) if once else None
            )
        except UserError as exc:
            skipped.append(f"Permissão nº {permit.number}: {exc.message}")
            continue
        priced = {line.get("fee") for line in lines}
        for fee in admin:
            if fee.id not in priced:
                skipped.append(
                    f"Permissão nº {permit.number} — {fee.label}: valor definido pela Administração "
                    f"({regime.cite_item(fee)}); lance-o como cobrança avulsa com o valor fixado."
                )
        for index, line in enumerate(lines):
            key = f"{owner}:{index}"
            if key in existing_keys:
                existing += 1
                continue
            fee = regime.fee(line["fee"]) if line.get("fee") else None
            planned.append(
                PlannedCharge(
                    key=key,
                    fee=line.get("fee") or "",
                    kind=_charge_kind(fee, line.get("kind", "charge")),
                    label=line["label"],
                    period="",
                    amount=Decimal(line["amount"]),
                    due_on=_due_for(fee, line.get("due"), issued=permit.issued_on, period_end=last),
                    formula=line.get("formula", ""),
                    basis=line.get("basis", ""),
                    detail=line,
                    **common,
                )
            )
    return MonthPlan(year, month, tuple(planned), existing, tuple(skipped))


def _period_day(period: str) -> _dt.date | None:
    """The first day of a monthly charge's period (``AAAA-MM``), or None for a charge of no month."""
    try:
        return _dt.date(int(period[:4]), int(period[5:7]), 1) if period else None
    except ValueError:
        return None


def _create(planned: PlannedCharge, *, by: str, today: _dt.date) -> Charge:
    return Charge.create(
        number=_next_charge_number(today),
        key=planned.key,
        kind=planned.kind,
        regime=planned.regime,
        permit=planned.permit_id,
        application=planned.application_id,
        person=planned.person_id,
        company=planned.company_id,
        fee=planned.fee,
        label=planned.label,
        period=planned.period,
        amount=planned.amount,
        due_on=planned.due_on,
        formula=planned.formula,
        basis=planned.basis,
        detail=json.dumps(planned.detail, ensure_ascii=False),
        created_on=today,
        created_by=by,
        act_sha256=act_sha(planned.regime, _period_day(planned.period) or today),
    )


_BATCH = 500  # charges per INSERT of the month's run (and per audit entry, and per progress call)


#: Held by the desk generating a month on PostgreSQL (a session lock): a second desk is told, not made to wait.
MONTH_RUN_LOCK = "hashtext(current_schema() || '.month-run')"


class MonthRunBusy(UserError):
    def __init__(self):
        super().__init__(
            "O mês já está sendo gerado em outra mesa: espere ela terminar e gere de novo (o que ela "
            "gerar não é repetido)."
        )


@contextlib.contextmanager
def month_run_turn():
    """The month's run's turn: on PostgreSQL an advisory lock tried without waiting (:class:`MonthRunBusy` when
    another desk holds it); SQLite's single writer queues the runs by itself."""
    database = db.obj
    if not isinstance(database, PostgresqlDatabase):
        yield
        return
    (got,) = database.execute_sql(f"SELECT pg_try_advisory_lock({MONTH_RUN_LOCK})").fetchone()
    if not got:
        raise MonthRunBusy()
    try:
        yield
    finally:
        try:
            database.execute_sql(f"SELECT pg_advisory_unlock({MONTH_RUN_LOCK})")
        except Exception:  # noqa: BLE001 - a lost connection released it with the session
            pass


def generate_month(year: int, month: int, *, by: str, today: _dt.date | None = None, progress=None) -> list[Charge]:
    """Create the month's charges; a second run creates nothing new.

    Everything is prepared before the write transaction (the plan, each row but its number), so other desks
    wait only for the writing: inside it the month's keys are read again (a charge another run made meanwhile
    is not made twice), the numbers are taken from the counter in one step (gapless, in plan order) and the
    rows go in by batches of ``_BATCH``, each batch one entry of the audit trail. On PostgreSQL a second desk
    generating at the same time is told so (:class:`MonthRunBusy`). ``progress(done, total)`` is called after
    each batch (a bar on the screen); it may raise to cancel — then nothing is kept.
    """
    require("charges.generate")
    by = _by(by)
    today = today or _dt.date.today()
    created = []
    with month_run_turn():
        plan = plan_month(year, month, today=today)  # reads only: no write lock held while it is computed
        if not plan.to_create:
            return created
        fields = [f for f in Charge._meta.sorted_fields if f is not Charge.id]
        names = [f.name for f in fields]
        at = {name: i for i, name in enumerate(names)}
        base = [f.default() if callable(f.default) else f.default for f in fields]  # the model's defaults
        for name, value in dict(
            status="open", paid_total=ZERO, created_at=clock.now(), created_on=today, created_by=by, version=1
        ).items():
            base[at[name]] = value
        given = (
            "number",
            "key",
            "kind",
            "regime",
            "permit",
            "application",
            "person",
            "company",
            "fee",
            "label",
            "period",
            "amount",
            "due_on",
            "formula",
            "basis",
            "detail",
            "act_sha256",
        )
        # a row is the defaults followed by the given values, picked in the fields' order (at C speed)
        pick = itemgetter(*[len(base) + given.index(n) if n in given else at[n] for n in names])
        base = tuple(base)
        details: dict[int, str] = {}  # many charges share one frozen line: its JSON is written once
        prepared = []  # (key, the given values after the number)
        shas: dict[str, str] = {}  # the act's text each regime's charges of the month are computed from
        for planned in plan.to_create:
            sha = shas.get(planned.regime)
            if sha is None:
                sha = shas[planned.regime] = act_sha(planned.regime, _dt.date(year, month, 1))
            detail = details.get(id(planned.detail))
            if detail is None:
                detail = details[id(planned.detail)] = json.dumps(planned.detail, ensure_ascii=False)
            prepared.append(
                (
                    planned.key,
                    (
                        planned.key,
                        planned.kind,
                        planned.regime,
                        planned.permit_id,
                        planned.application_id,
                        planned.person_id,
                        planned.company_id,
                        planned.fee,
                        planned.label,
                        planned.period,
                        planned.amount,
                        planned.due_on,
                        planned.formula,
                        planned.basis,
                        detail,
                        sha,
                    ),
                )
            )
        period = f"{year:04d}-{month:02d}"
        with db.atomic():
            made = {
                k
                for (k,) in Charge.select(Charge.key)
                .where(Charge.key.is_null(False) & ((Charge.period == "") | (Charge.period == period)))
                .tuples()
            }
            todo = [rest for key, rest in prepared if key not in made]
            total = len(todo)
            if not total:
                return created
            numbers = iter(next_numbers(f"charge-{today.year}", total))
            # the new rows' ids come after every id there is now (SQLite: this desk holds the write lock;
            # PostgreSQL: the sequence only grows) — read back once at the end, matched by key
            (before,) = db.execute_sql("SELECT COALESCE(MAX(id), 0) FROM charge").fetchone()
            written: list[tuple] = []
            for start in range(0, total, _BATCH):
                rows = [
                    pick(base + (f"{today.year}/{next(numbers):05d}",) + rest) for rest in todo[start : start + _BATCH]
                ]
                Charge.insert_rows(fields, rows)
                written.extend(rows)
                if progress is not None:
                    progress(len(written), total)
            ids = dict(db.execute_sql(f'SELECT "key", id FROM charge WHERE id > {db.param}', (before,)).fetchall())
            key = at["key"]
            for row in written:  # the records as Charge.create returns them
                charge = Charge(__no_default__=True)
                charge.__data__ = dict(zip(names, row), id=ids[row[key]])
                created.append(charge)
    return created


def await_payment(app: Application, *, by: str, today: _dt.date | None = None) -> list[Charge]:
    """Move an approved application to *aguardando pagamento* and charge its frozen quote — one transaction."""
    require("applications.move")
    from models.rules.regimes import get_regime

    by = _by(by)
    today = today or _dt.date.today()
    stored = json.loads(app.quote_json or "{}") or {}
    lines = stored.get("lines", [])
    regime = get_regime(app.regime)
    created = []
    with db.atomic():
        change_status(
            app,
            "awaiting_payment",
            by=by,
            reason="cobrança emitida" if lines else "sem preço calculado no requerimento",
        )
        existing = {k for (k,) in Charge.select(Charge.key).where(Charge.key.startswith(f"a{app.id}:")).tuples()}
        _first, last = _month_bounds(today.year, today.month)
        for index, line in enumerate(lines):
            key = f"a{app.id}:{index}"
            if key in existing:
                continue
            fee = regime.fee(line["fee"]) if line.get("fee") else None
            if fee is not None and fee.kind == "per-area-month":
                continue  # the month's run charges monthly fees, once the permit is in force
            created.append(
                _create(
                    PlannedCharge(
                        key=key,
                        permit_id=None,
                        permit_number="",
                        holder=app.applicant_name,
                        regime=app.regime,
                        fee=line.get("fee") or "",
                        kind=_charge_kind(fee, line.get("kind", "charge")),
                        label=line["label"],
                        period="",
                        amount=Decimal(line["amount"]),
                        due_on=_due_for(fee, line.get("due"), issued=today, period_end=last),
                        formula=line.get("formula", ""),
                        basis=line.get("basis", ""),
                        detail=line,
                        person_id=app.person_id,
                        company_id=app.company_id,
                        application_id=app.id,
                    ),
                    by=by,
                    today=today,
                )
            )
    return created


def open_charges_of_application(app: Application) -> list[Charge]:
    """Charges of the application still open (the permit waits for them where the act says so)."""
    return list(Charge.select().where((Charge.application == app.id) & (Charge.status == "open")).order_by(Charge.id))


# --------------------------------------------------------------------------- by hand


def _money(errors: dict, key: str, text, *, what: str) -> Decimal | None:
    """An amount typed by the clerk (pt-BR text: ``models.base.money.parse_typed``) or computed (a ``Decimal``)."""
    raw = text.strip() if isinstance(text, str) else text
    if raw is None or raw == "":
        errors[key] = f"Informe {what}."
        return None
    try:
        value = parse_typed(raw, what=f"{what[0].upper()}{what[1:]}")
    except UserError as exc:
        errors[key] = exc.message
        return None
    if value <= 0:
        errors[key] = f"{what[0].upper()}{what[1:]} deve ser maior que zero."
        return None
    if value >= Decimal("100000000"):  # before quantize: a number this long has no room for centavos
        errors[key] = "Valor grande demais."
        return None
    if value != value.quantize(Decimal("0.01")):
        errors[key] = "Use no máximo dois decimais (centavos)."
        return None
    return value


def create_charge(
    *,
    kind: str,
    regime: str,
    label: str,
    amount,
    due_on: _dt.date | None,
    basis: str,
    by: str,
    formula: str = "",
    permit: Permit | None = None,
    person_id: int | None = None,
    company_id: int | None = None,
    source: str = "",
    key: str | None = None,
    today: _dt.date | None = None,
) -> Charge:
    """A charge entered by hand (a value the Administration set, a venue fee, a fine…), with its basis."""
    require("charges.create")
    from models.rules.regimes import get_regime

    today = today or _dt.date.today()
    errors: dict[str, str] = {}
    if kind not in KINDS:
        errors["kind"] = f"Tipo de cobrança desconhecido: {kind}."
    try:
        get_regime(regime)
    except UserError:
        errors["regime"] = f"Regime desconhecido: {regime or '(vazio)'}."
    label = (label or "").strip()
    if not label:
        errors["label"] = "Descreva a cobrança."
    value = _money(errors, "amount", amount, what="o valor")
    if due_on is None:
        errors["due_on"] = "Informe o vencimento."
    basis = (basis or "").strip()
    if not basis:
        errors["basis"] = "Informe a base legal (artigo do ato)."
    if permit is not None:
        person_id, company_id = permit.person_id, permit.company_id
    if not person_id and not company_id:
        errors["holder"] = "Informe o devedor (permissão, pessoa ou empresa)."
    by = _by(by)  # the session's user (issue 16 §4)
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        return Charge.create(
            number=_next_charge_number(today),
            key=key,
            kind=kind,
            regime=regime,
            permit=permit.id if permit is not None else None,
            person=person_id,
            company=company_id,
            label=label,
            amount=value,
            due_on=due_on,
            formula=(formula or "").strip() or f"valor informado: {format_brl(value)}",
            basis=basis,
            detail="",
            source=source,
            created_on=today,
            created_by=by,
            act_sha256=act_sha(regime, today),
        )


# --------------------------------------------------------------------------- payments, cancellation, deposits


def _claim(charge: Charge, **changes) -> None:
    stale = f"A cobrança nº {charge.number} foi alterada em outra mesa; reabra-a para ver a situação atual."
    update_versioned(charge, stale, **changes)


def record_payment(
    charge: Charge,
    *,
    paid_on: _dt.date | None,
    amount,
    reference: str,
    by: str,
    note: str = "",
    today: _dt.date | None = None,
) -> Payment:
    """Record a payment (partial or whole) of ``charge`` — one transaction.

    A slip already recorded for this charge is refused (the database's unique
    index catches two desks at once); a second payment beyond the amount is
    kept and the charge shows *paga a maior* (a double payment to refund).
    """
    require("charges.pay")
    today = today or _dt.date.today()
    errors: dict[str, str] = {}
    value = _money(errors, "amount", amount, what="o valor pago")
    if paid_on is None:
        errors["paid_on"] = "Informe a data do pagamento."
    elif paid_on > today:
        errors["paid_on"] = f"A data do pagamento ({_date(paid_on)}) está no futuro."
    reference = (reference or "").strip()
    if not reference:
        errors["reference"] = "Informe o número do boleto ou do recibo."
    by = _by(by)  # the session's user (issue 16 §4)
    if charge.status == "cancelled":
        errors["charge"] = f"A cobrança nº {charge.number} foi cancelada; não recebe pagamento."
    if errors:
        raise FieldErrors(errors)
    same = Payment.get_or_none((Payment.charge == charge.id) & (Payment.reference == reference))
    if same is not None:
        raise UserError(
            f"O boleto {reference} já foi registrado nesta cobrança em {_date(same.paid_on)} "
            f"por {same.recorded_by}: pagamento não registrado de novo.",
            field="reference",
        )
    try:
        with db.atomic():
            payment = Payment.create(
                charge=charge.id,
                paid_on=paid_on,
                amount=value,
                reference=reference,
                recorded_by=by,
                note=(note or "").strip(),
            )
            total = charge.paid_total + value
            _claim(charge, paid_total=total, status="paid" if total >= charge.amount else "open")
    except IntegrityError:
        raise UserError(
            f"O boleto {reference} acabou de ser registrado nesta cobrança em outra mesa: "
            "pagamento não registrado de novo.",
            field="reference",
        ) from None
    charge.paid_total = total
    charge.status = "paid" if total >= charge.amount else "open"
    charge.version += 1
    return payment


def cancel_charge(charge: Charge, *, reason: str, by: str) -> Charge:
    """Cancel an unpaid charge; the reason is kept. A charge with payments is not cancelled (refund first)."""
    require("charges.cancel")
    reason = (reason or "").strip()
    errors = {}
    if not reason:
        errors["reason"] = "Informe o motivo do cancelamento."
    by = _by(by)  # the session's user (issue 16 §4)
    if errors:
        raise FieldErrors(errors)
    if charge.status == "cancelled":
        raise UserError(f"A cobrança nº {charge.number} já está cancelada.")
    if charge.paid_total > 0:
        raise UserError(
            f"A cobrança nº {charge.number} tem pagamentos ({format_brl(charge.paid_total)}); não pode ser cancelada."
        )
    with db.atomic():
        _claim(charge, status="cancelled", cancelled_at=clock.now(), cancelled_by=by, cancel_reason=reason)
    return Charge.get_by_id(charge.id)


def return_deposit(charge: Charge, *, on: _dt.date, by: str, note: str = "", today: _dt.date | None = None) -> Charge:
    """Record that a paid deposit (caução) was given back (Olímpia, LC 324/2025, art. 91, § 5º)."""
    require("charges.cancel")
    today = today or _dt.date.today()
    if charge.kind != "deposit":
        raise UserError(f"A cobrança nº {charge.number} não é caução.")
    if charge.status != "paid":
        raise UserError(f"A caução nº {charge.number} não está paga; não há o que devolver.")
    if charge.returned_on is not None:
        raise UserError(f"A caução nº {charge.number} já foi devolvida em {_date(charge.returned_on)}.")
    if on is None or on > today:
        raise FieldErrors({"on": "Informe a data da devolução (não futura)."})
    by = _by(by)
    with db.atomic():
        _claim(charge, returned_on=on, returned_by=by, returned_note=(note or "").strip())
    return Charge.get_by_id(charge.id)


def get_charge(charge_id: int) -> Charge:
    charge = Charge.get_or_none(Charge.id == charge_id)
    if charge is None:
        raise UserError(f"Cobrança {charge_id} não encontrada.")
    return charge


def payments_of(charge: Charge) -> list[Payment]:
    return list(Payment.select().where(Payment.charge == charge.id).order_by(Payment.paid_on, Payment.id))


# --------------------------------------------------------------------------- lists


@dataclass(frozen=True)
class ChargeRow:
    id: int
    number: str
    kind: str
    kind_label: str
    regime: str
    permit_number: str
    holder: str
    label: str
    period: str
    amount: Decimal
    paid: Decimal
    due_on: _dt.date
    status: str
    status_label: str
    overdue: bool
    overpaid: bool
    formula: str
    basis: str
    site: str = ""
    section: str = ""

    @property
    def open_amount(self) -> Decimal:
        return ZERO if self.status == "cancelled" else max(self.amount - self.paid, ZERO)

    @property
    def situation(self) -> str:
        if self.overpaid:
            return "paga a maior"
        if self.overdue:
            return "vencida"
        return self.status_label


def _rows(query, today: _dt.date) -> list[ChargeRow]:
    rows = []
    for c in query:
        permit = c.permit if c.permit_id else None
        holder = c.person.name if c.person_id else (c.company.legal_name if c.company_id else "")
        rows.append(
            ChargeRow(
                id=c.id,
                number=c.number,
                kind=c.kind,
                kind_label=c.kind_label,
                regime=c.regime,
                permit_number=permit.number if permit else "",
                holder=holder,
                label=c.label,
                period=c.period,
                amount=c.amount,
                paid=c.paid_total,
                due_on=c.due_on,
                status=c.status,
                status_label=c.status_label,
                overdue=c.status == "open" and c.due_on < today,
                overpaid=c.paid_total > c.amount,
                formula=c.formula,
                basis=c.basis,
                site=permit.site if permit else "",
                section=permit.section if permit else "",
            )
        )
    return rows


def _base_query():
    return (
        Charge.select(Charge, Permit, Person, Company)
        .join(Permit, JOIN.LEFT_OUTER, on=(Charge.permit == Permit.id))
        .switch(Charge)
        .join(Person, JOIN.LEFT_OUTER, on=(Charge.person == Person.id))
        .switch(Charge)
        .join(Company, JOIN.LEFT_OUTER, on=(Charge.company == Company.id))
    )


def _in_month(year: int, month: int):
    first, last = _month_bounds(year, month)
    return (Charge.due_on >= first) & (Charge.due_on <= last)


def charge_rows(
    *,
    year: int | None = None,
    month: int | None = None,
    status: str | None = None,
    text: str = "",
    regime: str | None = None,
    today: _dt.date | None = None,
    limit: int = 2000,
) -> list[ChargeRow]:
    """Charges due in the month (or all), filtered: ``status`` open/paid/cancelled/overdue; ``text`` matches
    the charge or permit number or the debtor's name (without accents)."""
    from models.registry.people import search_key

    today = today or _dt.date.today()
    query = _base_query()
    if year and month:
        query = query.where(_in_month(year, month))
    if status == "overdue":
        query = query.where((Charge.status == "open") & (Charge.due_on < today))
    elif status:
        query = query.where(Charge.status == status)
    if regime:
        query = query.where(Charge.regime == regime)
    words = search_key(text or "").split()
    for word in words:
        query = query.where(
            Charge.number.contains(word)
            | Permit.number.contains(word)
            | Person.search_name.contains(word)
            | Company.search_name.contains(word)
        )
    return _rows(query.order_by(Charge.due_on, Charge.number).limit(limit), today)


def overdue_count(today: _dt.date | None = None) -> int:
    today = today or _dt.date.today()
    return Charge.select().where((Charge.status == "open") & (Charge.due_on < today)).count()


# --------------------------------------------------------------------------- debts and delinquency


def debts_of(kind: str, holder_id: int, *, today: _dt.date) -> tuple[DebtFacts, ...]:
    """Debts of a person or company, for the eligibility rules: open charges past their due date, and every
    unpaid fine, due or not (São Bento, Dec. 4.794/2026, art. 2º, § 2º: no participation until it is paid)."""
    column = Charge.person if kind == "person" else Charge.company
    rows = (
        Charge.select()
        .where((column == holder_id) & (Charge.status == "open") & ((Charge.due_on < today) | (Charge.kind == "fine")))
        .order_by(Charge.due_on)
    )
    grouped: dict[str, list[Charge]] = defaultdict(list)
    for charge in rows:
        grouped["fine" if charge.kind == "fine" else "charge"].append(charge)
    facts = []
    for what, charges in grouped.items():
        amount = sum((c.open_amount for c in charges), ZERO)
        numbers = ", ".join(c.number for c in charges[:5]) + ("…" if len(charges) > 5 else "")
        noun = "multa" if what == "fine" else "cobrança"
        s = "s" if len(charges) > 1 else ""
        state = f"não paga{s}" if what == "fine" else f"vencida{s} e não paga{s}"
        description = f"{len(charges)} {noun}{s} {state} (nº {numbers})"
        facts.append(DebtFacts(description=description, amount=amount, count=len(charges), kind=what))
    return tuple(facts)


@dataclass(frozen=True)
class Candidate:
    """A permit with the act's number of consecutive months unpaid: for the chief to decide."""

    permit_id: int
    permit_number: str
    holder: str
    regime: str
    months: tuple[str, ...]  # the consecutive periods unpaid (AAAA-MM)
    amount: Decimal
    basis: str
    text: str


def _consecutive(periods: list[str]) -> list[str]:
    """The longest run of consecutive months in ``periods`` (sorted AAAA-MM)."""
    best: list[str] = []
    run: list[str] = []
    previous = None
    for p in periods:
        y, m = int(p[:4]), int(p[5:])
        index = y * 12 + m
        run = run + [p] if previous is not None and index == previous + 1 else [p]
        previous = index
        if len(run) > len(best):
            best = run
    return best


def revocation_candidates(*, today: _dt.date) -> list[Candidate]:
    """Permits in force with ``arrears.months`` months unpaid (consecutive where the act says so).

    The open monthly charges are read as plain rows (a town has tens of thousands); the permit's number and its
    holder are read for the candidates only."""
    from models.base.money import from_centavos
    from models.rules.regimes import get_regime, shipped_regimes

    unpaid_monthly = (
        (Charge.kind == "monthly")
        & (Charge.status == "open")
        & (Charge.due_on < today)
        & Permit.status.in_(LIVE_STATUSES)
    )
    # only permits with as many unpaid months as the least any act asks for can be candidates
    try:
        fewest = min(
            (
                fee.arrears.months
                for regime in shipped_regimes().values()
                for fee in regime.fees
                if fee.arrears is not None
            ),
            default=None,
        )
    except UserError:  # a regime file that does not load: every permit is looked at, as before
        fewest = 1
    if fewest is None:
        return []
    behind = (
        Charge.select(Charge.permit)
        .join(Permit, on=(Charge.permit == Permit.id))
        .where(unpaid_monthly)
        .group_by(Charge.permit, Charge.fee)
        .having(fn.COUNT(Charge.period.distinct()) >= fewest)
    )
    rows = db.execute(
        Charge.select(Charge.permit, Permit.regime, Charge.fee, Charge.period, Charge.amount, Charge.paid_total)
        .join(Permit, on=(Charge.permit == Permit.id))
        .where(unpaid_monthly & Charge.permit.in_(behind))
        .order_by(Charge.period)
    ).fetchall()
    regime_of: dict[int, str] = {}
    unpaid: dict[tuple[int, str], list[tuple[str, int]]] = defaultdict(list)  # (permit, fee) → (period, open ¢)
    for permit_id, regime_id, fee_id, period, amount, paid in rows:
        regime_of[permit_id] = regime_id
        unpaid[(permit_id, fee_id)].append((period, max(int(amount) - int(paid or 0), 0)))
    regimes: dict[str, object] = {}
    due = []
    for (permit_id, fee_id), items in unpaid.items():
        regime_id = regime_of[permit_id]
        if regime_id not in regimes:
            try:
                regimes[regime_id] = get_regime(regime_id)
            except UserError:
                regimes[regime_id] = None
        regime = regimes[regime_id]
        if regime is None:
            continue
        try:
            arrears = regime.fee(fee_id).arrears
        except UserError:
            continue
        if arrears is None:
            continue
        periods = sorted({period for period, _ in items if period})
        run = _consecutive(periods) if arrears.consecutive else periods
        if len(run) < arrears.months:
            continue
        due.append((permit_id, regime, arrears, run, from_centavos(sum(c for period, c in items if period in run))))
    holders: dict[int, tuple[str, str]] = {}
    ids = sorted({permit_id for permit_id, *_ in due})
    for start in range(0, len(ids), 5000):
        for permit_id, number, person_name, company_name in (
            Permit.select(Permit.id, Permit.number, Person.name, Company.legal_name)
            .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
            .switch(Permit)
            .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
            .where(Permit.id.in_(ids[start : start + 5000]))
            .tuples()
        ):
            holders[permit_id] = (number, person_name if person_name is not None else company_name)
    found = []
    for permit_id, regime, arrears, run, amount in due:
        number, holder = holders[permit_id]
        basis = regime.cite_item(arrears)
        months = ", ".join(f"{p[5:]}/{p[:4]}" for p in run)
        found.append(
            Candidate(
                permit_id=permit_id,
                permit_number=number,
                holder=holder,
                regime=regime.id,
                months=tuple(run),
                amount=amount,
                basis=basis,
                text=f"{len(run)} meses {'consecutivos ' if arrears.consecutive else ''}sem pagamento ({months}; "
                f"{format_brl(amount)}): o ato prevê a cassação ({basis}) — decisão da chefia.",
            )
        )
    return sorted(found, key=lambda c: c.permit_number)


# --------------------------------------------------------------------------- the month in figures


@dataclass(frozen=True)
class MonthSummary:
    year: int
    month: int
    charged: Decimal  # charges due in the month, not cancelled
    paid: Decimal  # paid on those charges (up to each amount)
    open: Decimal
    overdue: Decimal
    received: Decimal  # payments received in the month, whatever charge
    count: int
    overdue_count: int
    cancelled_count: int

    @property
    def label(self) -> str:
        return month_label(self.year, self.month)


def _counted_paid():
    """What a charge counts as paid, in SQL: up to its amount."""
    return Case(None, [(Charge.paid_total < Charge.amount, Charge.paid_total)], Charge.amount)


def _open_part():
    """What is open on a charge that is not cancelled, in SQL: its amount less what was paid, never below zero."""
    return Case(None, [(Charge.amount > Charge.paid_total, Charge.amount - Charge.paid_total)], 0)


def month_summary(year: int, month: int, *, today: _dt.date | None = None) -> MonthSummary:
    """The month's figures, from SQL sums over integer centavos (exact on both back ends)."""
    from models.base.money import from_centavos

    today = today or _dt.date.today()
    first, last = _month_bounds(year, month)
    live = _in_month(year, month) & (Charge.status != "cancelled")
    late = (Charge.status == "open") & (Charge.due_on < today)
    charged, count, paid, overdue, overdue_count = (
        Charge.select(
            fn.COALESCE(fn.SUM(Charge.amount), 0),
            fn.COUNT(Charge.id),
            fn.COALESCE(fn.SUM(_counted_paid()), 0),
            fn.COALESCE(fn.SUM(Case(None, [(late, _open_part())], 0)), 0),
            fn.COALESCE(fn.SUM(Case(None, [(late, 1)], 0)), 0),
        )
        .where(live)
        .scalar(as_tuple=True)
    )
    received = (
        Payment.select(fn.COALESCE(fn.SUM(Payment.amount), 0))
        .where((Payment.paid_on >= first) & (Payment.paid_on <= last))
        .scalar()
    )
    cancelled = Charge.select().where(_in_month(year, month) & (Charge.status == "cancelled")).count()
    charged_value = from_centavos(int(charged or 0))
    paid_value = from_centavos(int(paid or 0))
    return MonthSummary(
        year,
        month,
        charged_value,
        paid_value,
        charged_value - paid_value,
        from_centavos(int(overdue or 0)),
        from_centavos(int(received or 0)),
        int(count or 0),
        int(overdue_count or 0),
        cancelled,
    )


def charge_alerts(today: _dt.date) -> list:
    """What the Painel shows from this desk: overdue charges in total, and each revocation candidate."""
    from models.base.money import from_centavos

    items = []
    count, amount, oldest = (
        Charge.select(fn.COUNT(Charge.id), fn.COALESCE(fn.SUM(_open_part()), 0), fn.MIN(Charge.due_on))
        .where((Charge.status == "open") & (Charge.due_on < today))
        .scalar(as_tuple=True)
    )
    if count:
        amount = from_centavos(int(amount))
        if not isinstance(oldest, _dt.date):
            oldest = _dt.date.fromisoformat(str(oldest)[:10])
        items.append(
            TodayItem(
                oldest,
                "charges-overdue",
                f"{count} cobrança(s) vencida(s) e não paga(s), {format_brl(amount)} em aberto "
                "(Cobrança → Inadimplência).",
                "",
                0,
                "",
                True,
            )
        )
    for c in revocation_candidates(today=today):
        items.append(
            TodayItem(
                today,
                "arrears",
                f"Permissão nº {c.permit_number} ({c.holder}): {c.text}",
                "",
                c.permit_id,
                c.permit_number,
                True,
            )
        )
    return items
