"""The benchmarks' data: seeded, deterministic, at the scale of a large town, written fast.

50.000 people, 2.000 companies, 20.000 permits of the São José dos Campos
night feiras (Lei 9.158/2014: the regime with a monthly fee, so every permit
is charged every month), the INPC corrections its fee needs, and months of
charges with their payments. Rows go in with ``insert_many`` in batches inside
one transaction; the audit trail is suspended for the set-up only (a bulk load
is not a clerk's change — product code never does this).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import random
import string
from decimal import Decimal

from models.store.db import AUDIT, db

SEED = 20261130
TODAY = _dt.date(2026, 11, 30)
PEOPLE = 50_000
COMPANIES = 2_000
PERMITS = 20_000
REGIME = "sjc-2014"
FEIRAS = (
    "Feira Noturna do Jardim Satélite",
    "Feira Noturna do Parque Industrial",
    "Feira Noturna do Centro",
    "Feira Noturna do Jardim das Indústrias",
    "Feira Noturna de Santana",
)
CLERKS = ("ana.souza", "carlos.lima", "fernanda.rocha")
BATCH = 500


@contextlib.contextmanager
def bulk():
    """One transaction, audit suspended: the set-up of a benchmark, never a clerk's change."""
    AUDIT.suspended += 1
    try:
        with db.atomic():
            yield
    finally:
        AUDIT.suspended -= 1


def insert_batches(model, rows: list[dict], size: int = BATCH) -> None:
    for start in range(0, len(rows), size):
        model.insert_many(rows[start : start + size]).execute()


# --------------------------------------------------------------------------- people and companies


def _cpf(rng: random.Random) -> str:
    from models.base.br import cpf_check_digits

    while True:
        base = "".join(rng.choice(string.digits) for _ in range(9))
        if len(set(base)) > 1:
            return base + cpf_check_digits(base)


def _cnpj(rng: random.Random) -> str:
    from models.base.br import cnpj_check_digits

    base = "".join(rng.choice(string.digits) for _ in range(8)) + "0001"
    return base + cnpj_check_digits(base)


def add_people(
    people: int | None = None, companies: int | None = None, *, seed: int = SEED
) -> tuple[list[int], list[int]]:
    """``people`` people and ``companies`` companies (:data:`PEOPLE`, :data:`COMPANIES` unless given) with names,
    CPF/CNPJ, addresses; returns their ids."""
    from models.base.text import search_key
    from models.demo.people import demo_address, demo_name, demo_phone
    from models.registry.people import Company, Person

    people = PEOPLE if people is None else people
    companies = COMPANIES if companies is None else companies
    rng = random.Random(seed)
    seen: set[str] = set()
    rows = []
    for _ in range(people):
        cpf = _cpf(rng)
        while cpf in seen:
            cpf = _cpf(rng)
        seen.add(cpf)
        name = demo_name(rng)
        rows.append(
            {
                "name": name,
                "cpf": cpf,
                "rg": f"{rng.randint(10, 59)}.{rng.randint(100, 999)}.{rng.randint(100, 999)}-1",
                "birth_date": TODAY - _dt.timedelta(days=rng.randint(18 * 365 + 5, 78 * 365)),
                **demo_address(rng),
                "phone": demo_phone(rng),
                "resident_since": TODAY - _dt.timedelta(days=rng.randint(90, 20 * 365)),
                "family_income_mw": Decimal(rng.choice(["0.5", "1", "1.5", "2", "3"])),
                "housing": rng.choice(["rented", "owned", "lent"]),
                "experience_years": rng.choice([0, 1, 3, 8]),
                "search_name": search_key(name),
            }
        )
    firms = []
    seen = set()
    for i in range(companies):
        cnpj = _cnpj(rng)
        while cnpj in seen:
            cnpj = _cnpj(rng)
        seen.add(cnpj)
        owner = rows[i]["name"]
        legal = f"{owner.upper()} {cnpj[:8]}"
        trade = f"Pastelaria d{'a' if i % 2 else 'o'} {owner.split()[0]}"
        firms.append(
            {
                "cnpj": cnpj,
                "legal_name": legal,
                "trade_name": trade,
                "mei": True,
                **demo_address(rng),
                "search_name": search_key(f"{legal} {trade}"),
            }
        )
    with bulk():
        insert_batches(Person, rows)
        insert_batches(Company, firms)
    person_ids = [i for (i,) in Person.select(Person.id).order_by(Person.id).tuples()]
    company_ids = [i for (i,) in Company.select(Company.id).order_by(Company.id).tuples()]
    return person_ids, company_ids


# --------------------------------------------------------------------------- permits


INPC_BY_YEAR = {
    2014: "6.23",
    2015: "11.28",
    2016: "6.58",
    2017: "2.07",
    2018: "3.43",
    2019: "4.48",
    2020: "5.45",
    2021: "10.16",
    2022: "5.93",
    2023: "3.71",
    2024: "4.77",
    2025: "3.90",
}


def add_index_corrections() -> None:
    """The INPC corrections the SJC monthly fee is indexed by (art. 11, § 7º)."""
    from models.billing.fiscal import IndexCorrection

    with bulk():
        insert_batches(
            IndexCorrection,
            [
                {
                    "index": "INPC",
                    "year": year + 1,
                    "rate": Decimal(pct) / 100,
                    "entered_by": "bench",
                    "reason": f"INPC/IBGE de {year} (dado de teste)",
                }
                for year, pct in INPC_BY_YEAR.items()
            ],
        )


def add_permits(person_ids: list[int], permits: int | None = None, *, seed: int = SEED) -> list[int]:
    """``permits`` SJC night-feira permits (:data:`PERMITS` unless given: feirante / produtor rural), one per
    person, in every section and line, most active, some suspended; issued 2024–2026, in force through 2027."""
    from models.permits import Permit
    from models.registry.applications import Counter
    from models.rules.regimes import get_regime

    regime = get_regime(REGIME)
    rng = random.Random(seed + 1)
    sections = regime.sections
    seqs: dict[int, int] = {}
    rows = []
    for i in range(PERMITS if permits is None else permits):
        section = sections[i % len(sections)]
        line = regime.line(section.lines[0])
        issued = _dt.date(2024, 1, 8) + _dt.timedelta(days=(i * 997) % 1000)
        seqs[issued.year] = seq = seqs.get(issued.year, 0) + 1
        rows.append(
            {
                "number": f"{issued.year}/{seq:05d}",
                "year": issued.year,
                "seq": seq,
                "origin": "import",
                "regime": REGIME,
                "permit_kind": "produtor-rural" if i % 11 == 3 else "feirante",
                "person": person_ids[i],
                "site": FEIRAS[i % len(FEIRAS)],
                "point": f"Banca {i // len(FEIRAS) + 1:04d}",
                "line": line.id,
                "section": section.id,
                "equipment": "banca",
                "front": line.front or Decimal("3.00"),
                "depth": line.depth or Decimal("2.50"),
                "days_hours": "Sextas-feiras, das 18h às 23h",
                "valid_from": issued,
                "valid_until": _dt.date(2027, 12, 31),
                "status": "suspended" if rng.random() < 0.02 else "active",
                "issued_on": issued,
                "issued_by": CLERKS[i % len(CLERKS)],
            }
        )
    with bulk():
        insert_batches(Permit, rows)
        insert_batches(Counter, [{"name": f"permit-{y}", "value": n} for y, n in seqs.items()])
    return [i for (i,) in Permit.select(Permit.id).order_by(Permit.id).tuples()]


# --------------------------------------------------------------------------- a month of charges


def charge_rows(year: int, month: int, *, first_number: int, today: _dt.date = TODAY) -> list[dict]:
    """The rows :func:`models.billing.charges.generate_month` creates for the month (its own plan), numbered from
    ``first_number`` — for the set-up of the benchmarks that need charges, and for the bare insert."""
    from models.billing.charges import plan_month

    plan = plan_month(year, month, today=today)
    rows = []
    for n, c in enumerate(plan.to_create, start=first_number):
        rows.append(
            {
                "number": f"{today.year}/{n:05d}",
                "key": c.key,
                "kind": c.kind,
                "regime": c.regime,
                "permit": c.permit_id,
                "application": c.application_id,
                "person": c.person_id,
                "company": c.company_id,
                "fee": c.fee,
                "label": c.label,
                "period": c.period,
                "amount": c.amount,
                "due_on": c.due_on,
                "formula": c.formula,
                "basis": c.basis,
                "detail": json.dumps(c.detail, ensure_ascii=False),
                "created_on": today,
                "created_by": "chefe.cobranca",
            }
        )
    return rows


def add_month_of_charges(
    year: int, month: int, *, paid: float = 0.6, cancelled: float = 0.01, today: _dt.date = TODAY, seed: int = SEED
) -> int:
    """Charge the month (as the month's run would) and pay ``paid`` of them (a few twice, some in part), cancel
    ``cancelled`` of the rest; returns how many charges the month has."""
    from models.billing.charges import Charge, ChargeState, Payment
    from models.registry.applications import Counter

    rng = random.Random(seed + year * 100 + month)
    name = f"charge-{today.year}"
    counter = Counter.get_or_none(Counter.name == name)
    start = (counter.value if counter else 0) + 1
    rows = charge_rows(year, month, first_number=start, today=today)
    for row in rows:
        luck = rng.random()
        if luck < paid:
            row["status"], row["paid_total"] = "paid", row["amount"]
        elif luck < paid + cancelled:
            row["status"], row["cancelled_by"], row["cancel_reason"] = "cancelled", "chefe", "permissão suspensa"
    states = {row["number"]: (row.pop("status", "open"), row.pop("paid_total", 0)) for row in rows}
    with bulk():
        insert_batches(Charge, rows)
        Counter.insert(name=name, value=start + len(rows) - 1).on_conflict(
            conflict_target=[Counter.name], update={Counter.value: start + len(rows) - 1}
        ).execute()
        ids = dict(Charge.select(Charge.number, Charge.id).where(Charge.period == f"{year:04d}-{month:02d}").tuples())
        insert_batches(
            ChargeState,
            [
                {
                    "charge": ids[row["number"]],
                    "status": states[row["number"]][0],
                    "paid_total": states[row["number"]][1],
                    "due_on": row["due_on"],
                    "amount": row["amount"],
                }
                for row in rows
            ],
        )
        for row in rows:
            row["status"] = states[row["number"]][0]
        payments = []
        for row in rows:
            if row.get("status") != "paid":
                continue
            day = min(row["due_on"] - _dt.timedelta(days=rng.randint(0, 15)), today)
            payments.append(
                {
                    "charge": ids[row["number"]],
                    "paid_on": day,
                    "amount": row["amount"],
                    "reference": f"{row['number'].replace('/', '')}-1",
                    "recorded_by": CLERKS[len(payments) % 3],
                }
            )
            if rng.random() < 0.005:  # paid twice: a refund to make
                payments.append(
                    {
                        "charge": ids[row["number"]],
                        "paid_on": day,
                        "amount": row["amount"],
                        "reference": f"{row['number'].replace('/', '')}-2",
                        "recorded_by": "carlos.lima",
                    }
                )
        insert_batches(Payment, payments)
    return len(rows)


def town(*, charges_months: tuple[tuple[int, int], ...] = ()) -> dict[str, int]:
    """The whole town: people, companies, corrections, permits and the months of charges asked for."""
    people, companies = add_people()
    add_index_corrections()
    permits = add_permits(people)
    counts = {"people": len(people), "companies": len(companies), "permits": len(permits)}
    for year, month in charges_months:
        counts[f"charges {year}-{month:02d}"] = add_month_of_charges(year, month)
    from bench.common import analyze

    analyze()
    return counts
