"""Several desks at once: two real connections in two processes, on one database.

Two desks — processes started once for the module with ``spawn`` — open the
database of each test with ``models.store.bootstrap.open_database`` and meet at a barrier
before every act, so both really act at the same moment. Run on SQLite and, with ``PRACA_TEST_PG``, on
PostgreSQL (the ``db_url`` fixture; the PostgreSQL variant is skipped without it).

* numbers stay distinct and gapless: protocols, infraction records (and their
  fines' charges), permits;
* two desks assigning one stall, or one holder to two stalls: one wins, the
  other gets one pt-BR line and nothing is half-saved;
* one slip recorded twice at once: one payment, counted once;
* edits over a stale copy (person, charge, permit): refused, never merged.

The crash tests (SIGKILL half-way through a bulk operation) are in
``tests/test_crash.py``.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import queue
import traceback
from decimal import Decimal

import pytest
from factories import open_new_database

CTX = multiprocessing.get_context("spawn")
TODAY = dt.date(2026, 11, 30)
WAIT = 90  # seconds a desk waits for the other at the barrier


# --------------------------------------------------------------------------- running two desks


def _desk(index: int, inbox, outbox, barrier) -> None:
    """Runs in a process of its own: one desk, for every test of the module.

    Takes ``(url, task, args)`` from ``inbox``, opens the database at ``url``, calls the function ``task`` of
    this module with ``(barrier, *args)`` — it waits at the barrier before each act — closes the database and
    puts the outcome in ``outbox``. A refusal (``UserError``) is an outcome; anything else is a crash, sent
    back whole with its traceback.
    """
    from models.access import session
    from models.base.errors import UserError
    from models.store.bootstrap import close_database

    session.log_in(session.SYSTEM)  # a desk of its own: someone is logged in there (issue 16 §4)
    for url, task, args in iter(inbox.get, None):
        try:
            open_new_database(url)
            try:
                result = ("ok", globals()[task](barrier, *args))
            except UserError as exc:
                result = ("refused", exc.message, exc.field)
            finally:
                close_database()
        except BaseException:  # reported to the test, which fails with it
            barrier.abort()
            result = ("crash", traceback.format_exc())
        outbox.put((index, result))


class Desks:
    """Two desks (spawned processes with connections of their own), started once for the module."""

    def __init__(self, count: int = 2):
        self.count = count
        self.start()

    def start(self) -> None:
        self.barrier = CTX.Barrier(self.count)
        self.outbox = CTX.Queue()
        self.inboxes = [CTX.Queue() for _ in range(self.count)]
        self.workers = [
            CTX.Process(target=_desk, args=(i, inbox, self.outbox, self.barrier), daemon=True)
            for i, inbox in enumerate(self.inboxes)
        ]
        for w in self.workers:
            w.start()

    def run(self, url: str, *tasks: tuple) -> list[tuple]:
        """Give each desk its ``(task, *args)``, all at once; their outcomes, desk by desk."""
        assert len(tasks) == len(self.inboxes)
        for inbox, task in zip(self.inboxes, tasks, strict=False):
            inbox.put((url, task[0], tuple(task[1:])))
        try:
            outcomes = dict(self.outbox.get(timeout=240) for _ in tasks)
        except queue.Empty:  # a desk hangs (a deadlock?): new desks for the next test, and this one fails
            for w in self.workers:
                w.kill()
            self.start()
            raise AssertionError("a desk did not finish within 240 s") from None
        crashes = [r[1] for r in outcomes.values() if r[0] == "crash"]
        if crashes:
            self.barrier.reset()
        assert not crashes, "\n".join(crashes)
        return [outcomes[i] for i in range(len(tasks))]

    def close(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for w in self.workers:
            w.join(timeout=30)
            if w.is_alive():
                w.kill()


@pytest.fixture(scope="module")
def desks():
    started = Desks()
    yield started
    started.close()


def _rounds(barrier, items, act) -> list[tuple]:
    """In a desk: for each item, wait for the other desk, then ``act(item)``; each round's outcome."""
    from models.base.errors import UserError

    outcomes = []
    for item in items:
        prepared = act.prepare(item) if hasattr(act, "prepare") else item
        barrier.wait(WAIT)
        try:
            outcomes.append(("ok", act(prepared)))
        except UserError as exc:
            outcomes.append(("refused", exc.message, exc.field))
    return outcomes


def split(a: tuple, b: tuple) -> tuple[tuple, tuple]:
    """The winner's and the loser's outcome of one round, checking there is exactly one of each."""
    assert sorted((a[0], b[0])) == ["ok", "refused"], (a, b)
    return (a, b) if a[0] == "ok" else (b, a)


def one_line(message: str) -> bool:
    return bool(message and message.strip()) and "\n" not in message and "Traceback" not in message


def seqs(numbers) -> list[int]:
    return sorted(int(n.split("/")[1]) for n in numbers)


# --------------------------------------------------------------------------- (a) numbers


def _save_applications(barrier, person_id: int, rounds: int) -> list[str]:
    from models.registry.applications import ApplicationInput
    from models.services.filing import create_application

    protocols = []
    for _ in range(rounds):
        barrier.wait(WAIT)
        app = create_application(
            ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person_id),
            clerk="mesa",
            today=TODAY,
        )
        protocols.append(app.protocol)
    return protocols


def test_protocols_saved_at_once_are_distinct_and_gapless(desks, database, tmp_path):
    from factories import person

    from models.registry.applications import Application, ApplicationEvent, Counter
    from models.store.files import set_store

    set_store(tmp_path / "files")
    holder = person("Maria José da Silva")
    a, b = desks.run(database, ("_save_applications", holder.id, 8), ("_save_applications", holder.id, 8))
    assert a[0] == b[0] == "ok"
    assert not set(a[1]) & set(b[1])
    assert seqs(a[1] + b[1]) == list(range(1, 17))
    assert Application.select().count() == 16 and ApplicationEvent.select().count() == 16
    assert Counter.get(Counter.name == "protocol-2026").value == 16


def _issue_records(barrier, person_ids: list[int]) -> list[tuple[str, str]]:
    from factories import draft

    from models import enforcement as enf

    issued = []
    for person_id in person_ids:
        barrier.wait(WAIT)
        record = enf.issue_record(
            draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", person_id=person_id),
            by="fiscal.marcos",
            today=dt.date(2026, 3, 2),
        )
        [charge] = enf.charges_of(record, "fine")
        issued.append((record.number, charge.number))
    return issued


def test_infraction_records_issued_at_once_are_distinct_and_gapless(desks, database, tmp_path):
    from factories import person

    from models import enforcement as enf
    from models.billing.charges import Charge
    from models.store.files import set_store

    set_store(tmp_path / "files")
    people = [person(f"Autuado Número {i} da Silva").id for i in range(12)]
    a, b = desks.run(database, ("_issue_records", people[0::2]), ("_issue_records", people[1::2]))
    assert a[0] == b[0] == "ok"
    records = [r for r, _c in a[1] + b[1]]
    charges = [c for _r, c in a[1] + b[1]]
    assert seqs(records) == list(range(1, 13))  # auto de infração nº 2026/00001 … 00012, none twice
    assert seqs(charges) == list(range(1, 13))  # and each fine's charge numbered from its own counter
    assert enf.Record.select().count() == 12
    assert Charge.select().where(Charge.kind == "fine").count() == 12
    # each record has its own fine, none doubled
    assert sorted(c.source for c in Charge.select()) == sorted(r.reference for r in enf.Record.select())


def _issue_permits(barrier, app_ids: list[int], key_dir: str) -> list[str]:
    from pathlib import Path

    from models.registry.applications import Application
    from models.services.issuing import issue_permit

    numbers = []
    for app_id in app_ids:
        barrier.wait(WAIT)
        numbers.append(
            issue_permit(Application.get_by_id(app_id), by="mesa", today=TODAY, key_dir=Path(key_dir)).number
        )
    return numbers


def test_permits_issued_at_once_are_distinct_and_gapless(desks, database, tmp_path):
    from factories import approved, company, person

    from models.access.signing import verify_text
    from models.permits import Permit
    from models.store.files import set_store

    set_store(tmp_path / "files")
    keys = tmp_path / "keys"
    apps = [
        approved(
            "olimpia-2025",
            "street-food-tpu-b",
            holder=company(f"Comida de Rua {i} Ltda", person(f"Sócia Número {i} Lima")),
            site=f"Ponto {i}",
        ).id
        for i in range(10)
    ]
    a, b = desks.run(database, ("_issue_permits", apps[0::2], str(keys)), ("_issue_permits", apps[1::2], str(keys)))
    assert a[0] == b[0] == "ok"
    assert seqs(a[1] + b[1]) == list(range(1, 11))
    # the key pair was made once, by whichever desk came first, and every QR verifies with it
    assert all(verify_text(p.qr_text, keys, today=TODAY).ok for p in Permit.select())


# --------------------------------------------------------------------------- (b) stalls


def _assign(barrier, pairs: list[tuple[int, int]]) -> list[tuple]:
    from models.sites import assign_holder

    return _rounds(barrier, pairs, lambda pair: assign_holder(*pair).holder_id)


def _site_with_stalls(count: int):
    from factories import feira_site as feira
    from factories import placed_at as placed

    from models.sites import Stall, save_layout

    site = feira()
    save_layout(site, [placed(n, str(4 * (n - 1))) for n in range(1, count + 1)])
    return site, [Stall.get((Stall.site == site.id) & (Stall.number == n)).id for n in range(1, count + 1)]


def test_two_desks_assigning_the_same_stall_one_wins(desks, database):
    from factories import site_permit as make_permit

    from models.sites import Stall

    rounds = 5
    site, stalls = _site_with_stalls(rounds)
    mine = [make_permit(section="vi").id for _ in range(rounds)]
    theirs = [make_permit(section="vi").id for _ in range(rounds)]
    a, b = desks.run(
        database,
        ("_assign", list(zip(stalls, mine, strict=False))),
        ("_assign", list(zip(stalls, theirs, strict=False))),
    )
    holders = {s.id: s.holder_id for s in Stall.select().where(Stall.site == site.id)}
    for i, stall_id in enumerate(stalls):
        won, lost = split(a[1][i], b[1][i])
        assert holders[stall_id] == won[1]  # the winner's, whole
        assert one_line(lost[1]) and f"banca {i + 1}" in lost[1] and lost[2] == "stall"
        loser = theirs[i] if won[1] == mine[i] else mine[i]
        assert Stall.select().where(Stall.holder == loser).count() == 0  # nothing half-saved


def test_one_holder_on_two_stalls_at_once_is_refused(desks, database):
    from factories import site_permit as make_permit
    from peewee import IntegrityError

    from models.sites import Stall
    from models.store.db import db

    rounds = 4
    _site, stalls = _site_with_stalls(2 * rounds)
    permits = [make_permit(section="vi") for _ in range(rounds)]
    a, b = desks.run(
        database,
        ("_assign", [(stalls[2 * i], p.id) for i, p in enumerate(permits)]),
        ("_assign", [(stalls[2 * i + 1], p.id) for i, p in enumerate(permits)]),
    )
    for i, permit in enumerate(permits):
        _won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1]) and permit.number in lost[1] and lost[2] == "holder"
        assert Stall.select().where(Stall.holder == permit.id).count() == 1
    # and it is the database's unique index that holds the line, whatever the code above it does
    with pytest.raises(IntegrityError), db.atomic():
        Stall.update(holder=permits[0].id).where(Stall.holder.is_null(True)).execute()


# --------------------------------------------------------------------------- (c) one slip, twice


class _Pay:
    """Record a payment from the copy of the charge this desk has on screen."""

    def __init__(self, reference: str | None):
        self.reference = reference

    def prepare(self, charge_id: int):
        from models.billing.charges import Charge

        return Charge.get_by_id(charge_id)

    def __call__(self, charge) -> int:
        from models.billing.charges import record_payment

        reference = self.reference or f"BOL-{charge.id}-{os.getpid()}"
        return record_payment(
            charge, paid_on=TODAY, amount="40,00", reference=reference, by="tesouraria", today=TODAY
        ).id


def _pay(barrier, charge_ids: list[int], reference: str | None) -> list[tuple]:
    return _rounds(barrier, charge_ids, _Pay(reference))


def _charges(count: int, amount: str = "40,00") -> list[int]:
    from factories import person

    from models.billing.charges import create_charge

    debtor = person("Devedora Maria Aparecida")
    return [
        create_charge(
            kind="other",
            regime="olimpia-2025",
            label=f"Preço público {i}",
            amount=amount,
            due_on=TODAY,
            basis="LC 324/2025, art. 178",
            by="teste",
            person_id=debtor.id,
            today=TODAY,
        ).id
        for i in range(count)
    ]


def test_one_slip_recorded_twice_at_once_is_counted_once(desks, database):
    from models.billing.charges import Charge, Payment

    charges = _charges(5)
    a, b = desks.run(
        database, ("_pay", charges, "34191.79001 01043.510047"), ("_pay", charges, "34191.79001 01043.510047")
    )
    for i, charge_id in enumerate(charges):
        _won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1]) and "34191.79001 01043.510047" in lost[1] and lost[2] == "reference"
        charge = Charge.get_by_id(charge_id)
        assert Payment.select().where(Payment.charge == charge_id).count() == 1
        assert charge.paid_total == Decimal("40.00") and charge.status == "paid"


def test_two_payments_of_one_charge_at_once_never_lose_one(desks, database):
    """Two different slips for one charge at the same moment: the second is refused (the charge changed
    meanwhile) or both are kept — never one payment lost from the total."""
    from models.billing.charges import Charge, Payment

    charges = _charges(4, amount="100,00")
    a, b = desks.run(database, ("_pay", charges, None), ("_pay", charges, None))
    for i, charge_id in enumerate(charges):
        for outcome in (a[1][i], b[1][i]):
            assert outcome[0] == "ok" or one_line(outcome[1])
        charge = Charge.get_by_id(charge_id)
        paid = [p.amount for p in Payment.select().where(Payment.charge == charge_id)]
        assert len(paid) == [a[1][i][0], b[1][i][0]].count("ok") >= 1
        assert charge.paid_total == sum(paid, Decimal("0.00"))


# --------------------------------------------------------------------------- (d) stale copies


def _edit_person(barrier, person_id: int, name: str, relative: str) -> str:
    from models.registry.people import HouseholdInput, Person, PersonInput, save_person

    copy = Person.get_by_id(person_id)  # the form opened on this desk
    data = PersonInput(
        name=name,
        cpf=copy.cpf,
        birth_date=copy.birth_date,
        city="Olímpia",
        household=[HouseholdInput(relative, "child")],
    )
    barrier.wait(WAIT)
    return save_person(data, person=copy, today=TODAY).name


def test_two_desks_editing_one_person_the_second_is_refused_not_merged(desks, database):
    from factories import person

    from models.registry.people import HouseholdMember, Person

    who = person("Rita de Cássia Nunes")
    a, b = desks.run(
        database,
        ("_edit_person", who.id, "Rita de Cássia Nunes Prado", "Pedro Nunes Prado"),
        ("_edit_person", who.id, "Rita Cássia Nunes Lima", "Paula Nunes Lima"),
    )
    won, lost = split(a, b)
    assert one_line(lost[1]) and "alterado por outra pessoa" in lost[1]
    stored = Person.get_by_id(who.id)
    winner = won[1]
    assert stored.name == winner and stored.version == 2
    family = [m.name for m in HouseholdMember.select().where(HouseholdMember.person == who.id)]
    assert family == (["Pedro Nunes Prado"] if winner.endswith("Prado") else ["Paula Nunes Lima"])


def _register(barrier, cpfs: list[str], name: str) -> list[tuple]:
    from models.registry.people import PersonInput, save_person

    return _rounds(
        barrier,
        cpfs,
        lambda cpf: save_person(PersonInput(name=name, cpf=cpf, birth_date=dt.date(1990, 1, 2)), today=TODAY).id,
    )


def test_two_desks_registering_one_cpf_at_once(desks, database):
    """The CPF check before the transaction cannot see the other desk's save: the unique index does."""
    from factories import new_cpf

    from models.registry.people import Person

    cpfs = [new_cpf() for _ in range(4)]
    a, b = desks.run(database, ("_register", cpfs, "José Aparecido Lima"), ("_register", cpfs, "José A. Lima"))
    for i, cpf in enumerate(cpfs):
        _won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1]) and lost[2] == "cpf" and "CPF" in lost[1]
        assert Person.select().where(Person.cpf == cpf).count() == 1


class _ChargeAct:
    """Cancel or pay a charge from the copy this desk read before the other desk acted."""

    def __init__(self, act: str):
        self.act = act

    def prepare(self, charge_id: int):
        from models.billing.charges import Charge

        return Charge.get_by_id(charge_id)

    def __call__(self, copy) -> str:
        from models.billing.charges import cancel_charge, record_payment

        if self.act == "cancel":
            cancel_charge(copy, reason="lançada em duplicidade", by="chefe")
        else:
            record_payment(copy, paid_on=TODAY, amount="40,00", reference="REC-77", by="tesouraria", today=TODAY)
        return self.act


def _charge_act(barrier, charge_ids: list[int], act: str) -> list[tuple]:
    return _rounds(barrier, charge_ids, _ChargeAct(act))


def test_cancel_and_pay_one_charge_at_once(desks, database):
    from models.billing.charges import Charge, Payment

    charges = _charges(4)
    a, b = desks.run(database, ("_charge_act", charges, "cancel"), ("_charge_act", charges, "pay"))
    for i, charge_id in enumerate(charges):
        won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1])
        charge = Charge.get_by_id(charge_id)
        payments = Payment.select().where(Payment.charge == charge_id).count()
        if won[1] == "cancel":  # cancelled: no payment on it
            assert charge.status == "cancelled" and payments == 0 and charge.paid_total == 0
        else:  # paid: not cancelled
            assert charge.status == "paid" and payments == 1 and charge.cancel_reason == ""
        assert charge.state.version == 2  # what is paid and the status: the state's lock (schema v32)


class _PermitAct:
    """Suspend, revoke or grant a leave from the copy of the permit this desk read before the other acted."""

    def __init__(self, act: str, start: str = "", end: str = ""):
        self.act, self.start, self.end = act, start, end

    def prepare(self, permit_id: int):
        from models.permits import Permit

        return Permit.get_by_id(permit_id)

    def __call__(self, copy) -> str:
        from models.permits import grant_leave, revoke, suspend

        if self.act == "suspend":
            return suspend(copy, by="chefe", reason="infração do art. 25", today=TODAY).status
        if self.act == "revoke":
            return revoke(copy, by="chefe", reason="abandono da feira", today=TODAY).status
        return grant_leave(
            copy,
            dt.date.fromisoformat(self.start),
            dt.date.fromisoformat(self.end),
            by="mesa",
            today=dt.date(2026, 3, 2),
        ).kind


def _permit_act(barrier, permit_ids: list[int], *act) -> list[tuple]:
    return _rounds(barrier, permit_ids, _PermitAct(*act))


def test_suspend_and_revoke_one_permit_at_once(desks, database):
    from factories import site_permit as make_permit

    from models.permits import Permit, PermitEvent

    permits = [make_permit().id for _ in range(3)]
    a, b = desks.run(database, ("_permit_act", permits, "suspend"), ("_permit_act", permits, "revoke"))
    for i, permit_id in enumerate(permits):
        won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1]) and "outra mesa" in lost[1]
        stored = Permit.get_by_id(permit_id)
        assert stored.status == won[1] and stored.version == 2
        assert PermitEvent.select().where(PermitEvent.permit == permit_id).count() == 1


def test_two_leaves_granted_at_once_cannot_overlap(desks, database):
    """Lei 9.158/2014, art. 16: 30 days a year in at most two periods — counted by each desk before it saves."""
    from factories import site_permit as make_permit

    from models.permits import PermitEvent

    permits = [make_permit().id for _ in range(3)]
    a, b = desks.run(
        database,
        ("_permit_act", permits, "leave", "2026-06-01", "2026-06-20"),
        ("_permit_act", permits, "leave", "2026-06-10", "2026-06-29"),
    )
    for i, permit_id in enumerate(permits):
        _won, lost = split(a[1][i], b[1][i])
        assert one_line(lost[1])
        leaves = PermitEvent.select().where((PermitEvent.permit == permit_id) & (PermitEvent.kind == "leave"))
        assert leaves.count() == 1
