"""The month's charges — planned, then generated in batches by one desk at a time — and the charges of an
application awaiting payment (its frozen quote).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import NamedTuple

from peewee import (
    JOIN,
    PostgresqlDatabase,
)

from models.access.session import acting, require
from models.base import clock
from models.base.errors import UserError
from models.billing.charges.steps import PlannedCharge, charge_kind, create_planned, due_for, month_bounds, month_label
from models.billing.charges.tables import STATE_ATTR, ZERO, Charge, ChargeState
from models.permits import LIVE_STATUSES, Permit
from models.registry.applications import Application, change_status, next_numbers
from models.registry.people import Company, Person
from models.rules.acts import act_sha
from models.rules.fees.needs import fee_needs
from models.store import desks
from models.store.audit import money_text, record_bulk_table, rendered_rows, table_json
from models.store.db import collector_paused, db, take_write_turn


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
    inputs = permit_inputs(permit, bool(permit.company_mei) if permit.company else None)
    return [line.to_dict() for line in quote(regime, book=book, fees=fee_ids, year=year, **inputs).lines]


def permit_inputs(permit, mei: bool | None) -> dict:
    """What the fee engine reads of a permit: its stall's equipment, line and sizes, and whether its holder is an
    MEI (``mei``: None for a person)."""
    inputs = {}
    for name in ("equipment", "line", "front", "depth", "hitch"):
        value = getattr(permit, name)
        if value not in (None, ""):
            inputs[name] = value
    if mei is not None:
        inputs["mei"] = mei
    return inputs


def permit_fee_lines(regime, permit: Permit, fee_ids, on: _dt.date) -> dict:
    """``{fee id: QuoteLine}``: the act's fees ``fee_ids`` priced by the fee engine with the facts of ``permit``
    for the day ``on``, in the act's own money (a fine that is a share of one is converted once, whole); the
    ``UserError`` that says why, for a fee those facts do not price."""
    from models.billing.pricing import quote

    mei = bool(permit.company.mei) if permit.company_id else None
    found: dict = {}
    for fee_id in fee_ids:
        try:
            inputs = permit_inputs(permit, mei)
            found[fee_id] = quote(regime, fees=[fee_id], year=on.year, on=on, convert=False, **inputs).lines[0]
        except UserError as exc:
            found[fee_id] = exc
    return found


def _area_inputs(regime, permit: Permit, fee) -> tuple[str, ...]:
    """What a monthly fee reads of a permit (:func:`fee_needs`, worked out once per version of the act): its
    stall's equipment, line and sizes — an area is the permit's front × depth (SJC art. 11, § 5º: "por metro
    quadrado utilizado")."""
    reads = {need.name for need in fee_needs(regime, fee).inputs}
    if "area" in reads:  # a permit keeps its front and depth: the area is their product
        reads |= {"front", "depth"}
    return tuple(name for name in ("equipment", "line", "front", "depth", "hitch") if name in reads) or ("line",)


_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def month_periods(regime, kind_id: str, fee, year: int, month: int) -> dict[str, int]:
    """The periods a monthly formula fee counts, in the month charged: ``months`` = 1; ``feira_days`` = the days
    of the month on which the kind's calendar (``[[schedules]]``: its dated days, else its weekdays) has the feira
    — as the file declares them, never guessed. A period the fee reads and the file does not give is left out (the
    fee is then skipped with the engine's request for it)."""
    needs = fee_needs(regime, fee)
    counted: dict[str, int] = {}
    if needs.reads("months"):
        counted["months"] = 1
    if needs.reads("feira_days"):
        kind = regime.permit_kind(kind_id)
        schedule = regime.schedule(kind.schedule) if kind.schedule else None
        first, last = month_bounds(year, month)
        count = 0
        if schedule is not None and schedule.days:
            count = sum(1 for d in schedule.days if first <= d.date <= last)
        elif schedule is not None and schedule.opening_hours is not None and schedule.opening_hours.weekdays:
            weekdays = {_WEEKDAYS.index(w) for w in schedule.opening_hours.weekdays}
            count = sum(1 for n in range(last.day) if (first + _dt.timedelta(days=n)).weekday() in weekdays)
        if count:
            counted["feira_days"] = count
    return counted


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

    first, last = month_bounds(year, month)
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
    periods_of: dict[tuple, dict[str, int]] = {}  # (regime, kind, fee) → the periods it counts in the month
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
            needs = fee_needs(regime, fee)
            if needs.monthly:
                monthly.append(fee)
            elif needs.administration is not None:
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
            counted = periods_of.get((regime.id, permit.permit_kind, fee.id))
            if counted is None:
                counted = periods_of[regime.id, permit.permit_kind, fee.id] = month_periods(
                    regime, permit.permit_kind, fee, year, month
                )
            memo = (regime.id, fee.id, names, str(getters[names](permit)), str(counted))  # "2.0" and "2" apart
            if memo not in quoted:
                inputs = {name: getattr(permit, name) for name in names if getattr(permit, name) not in (None, "")}
                inputs.update(counted)
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
                due = dues[regime.id, fee.id, permit.issued_on] = due_for(
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
                    kind=charge_kind(regime, fee, line.get("kind", "charge")),
                    label=line["label"],
                    period="",
                    amount=Decimal(line["amount"]),
                    due_on=due_for(fee, line.get("due"), issued=permit.issued_on, period_end=last),
                    formula=line.get("formula", ""),
                    basis=line.get("basis", ""),
                    detail=line,
                    **common,
                )
            )
    return MonthPlan(year, month, tuple(planned), existing, tuple(skipped))


#: Charges per INSERT of the month's run (and per audit entry, and per progress call): each batch costs an entry of
#: the trail and its link; PostgreSQL takes at most 65.535 parameters in a statement (see ``batch`` below).
_BATCH = 2000


#: Held by the desk generating a month on PostgreSQL (a session lock): a second desk is told, not made to wait.
MONTH_RUN_LOCK = "hashtext(current_schema() || '.month-run')"


class MonthRunBusy(UserError):  # noqa: N818 - a public name the charges screen and the tests catch
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
        except Exception:  # broad on purpose: a lost connection released it with the session
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
    by = acting(by)
    today = today or _dt.date.today()
    created = []
    with month_run_turn(), collector_paused():  # no cycles among the rows: see collector_paused
        plan = plan_month(year, month, today=today)  # reads only: no write lock held while it is computed
        if not plan.to_create:
            return created
        fields = [f for f in Charge._meta.sorted_fields if f is not Charge.id]
        names = [f.name for f in fields]
        at = {name: i for i, name in enumerate(names)}
        base = [f.default() if callable(f.default) else f.default for f in fields]  # the model's defaults
        for name, value in dict(created_at=clock.now(), created_on=today, created_by=by, version=1).items():
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
            batch = min(_BATCH, 60_000 // len(fields))  # PostgreSQL: one parameter per value of the batch
            for start in range(0, total, batch):
                rows = [
                    pick((*base, f"{today.year}/{next(numbers):05d}", *rest)) for rest in todo[start : start + batch]
                ]
                Charge.insert_rows(fields, rows)
                written.extend(rows)
                if progress is not None:
                    progress(len(written), total)
            ids = dict(db.execute_sql(f'SELECT "key", id FROM charge WHERE id > {db.param}', (before,)).fetchall())
            key, amount, due_on = at["key"], at["amount"], at["due_on"]
            states = [(ids[row[key]], "open", ZERO, row[due_on], row[amount], 1) for row in written]
            _write_states(before, states)
            for row, state in zip(written, states, strict=True):  # the records as Charge.create returns them
                charge = _record(Charge, dict(zip(names, row, strict=True), id=state[0]))
                charge.__dict__[STATE_ATTR] = _record(ChargeState, dict(zip(_STATE_FIELDS, state, strict=True)))
                created.append(charge)
    return created


#: A new charge's state (schema v32), in this order: its id, open, nothing paid, the charge's due date and amount.
_STATE_COLUMNS = ["id", "status", "paid_total", "due_on", "amount", "version"]
_STATE_FIELDS = ["charge", "status", "paid_total", "due_on", "amount", "version"]


def _write_states(before: int, states: list[tuple]) -> None:
    """The month's new charges' states (``states``: their values in :data:`_STATE_COLUMNS`' order, one per new
    charge), made from the charges' rows by one ``INSERT … SELECT``, and one entry of the trail listing them as the
    database renders them — the same rows, read by the same condition just before. The charges are those after id
    ``before`` with no state yet: on SQLite this desk holds the write lock, so all of them are the run's; on
    PostgreSQL a charge another desk committed meanwhile has its state already (made in its own transaction)."""
    take_write_turn(db)
    new = f"charge AS c WHERE c.id > {db.param}"
    if isinstance(db.obj, PostgresqlDatabase):
        new += " AND NOT EXISTS (SELECT 1 FROM charge_state AS s WHERE s.id = c.id)"
    audit = not desks.is_desk(db.obj)  # on a desk the server's triggers write the trail, row by row
    if audit:
        date = "::text" if isinstance(db.obj, PostgresqlDatabase) else ""
        rows = rendered_rows(
            f"c.id, 'open', '0.00', c.due_on{date}, {money_text('c.amount')}, 1", new, "c.id", params=(before,)
        )
    written = db.execute_sql(
        f"INSERT INTO charge_state ({', '.join(_STATE_COLUMNS)}) SELECT c.id, 'open', 0, c.due_on, c.amount, 1 "
        f"FROM {new}",
        (before,),
    ).rowcount
    if written != len(states):  # pragma: no cover - the write lock and the transaction keep other desks' rows out
        raise RuntimeError(f"{written} charge states written for {len(states)} new charges")
    if audit:
        note = f"{written} registro(s) de uma vez"
        record_bulk_table(ChargeState, "insert", table_json(_STATE_COLUMNS, rows), note=note)


def _record(model, data: dict):
    """A record of ``model`` holding ``data`` (field name → value) as a query returns one — nothing dirty, no
    default added — without :class:`peewee.Model`'s constructor (a month's run returns 20.000 of them)."""
    record = model.__new__(model)
    record.__data__, record._dirty, record.__rel__ = data, set(), {}
    return record


def await_payment(app: Application, *, by: str, today: _dt.date | None = None) -> list[Charge]:
    """Move an approved application to *aguardando pagamento* and charge its frozen quote — one transaction."""
    require("applications.move")
    from models.rules.regimes import get_regime

    by = acting(by)
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
        _first, last = month_bounds(today.year, today.month)
        for index, line in enumerate(lines):
            key = f"a{app.id}:{index}"
            if key in existing:
                continue
            fee = regime.fee(line["fee"]) if line.get("fee") else None
            if fee is not None and charge_kind(regime, fee, "charge") == "monthly":
                continue  # the month's run charges monthly fees, once the permit is in force
            created.append(
                create_planned(
                    PlannedCharge(
                        key=key,
                        permit_id=None,
                        permit_number="",
                        holder=app.applicant_name,
                        regime=app.regime,
                        fee=line.get("fee") or "",
                        kind=charge_kind(regime, fee, line.get("kind", "charge")),
                        label=line["label"],
                        period="",
                        amount=Decimal(line["amount"]),
                        due_on=due_for(fee, line.get("due"), issued=today, period_end=last),
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
    return list(
        Charge.with_state().where((Charge.application == app.id) & (ChargeState.status == "open")).order_by(Charge.id)
    )
