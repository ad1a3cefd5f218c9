"""Demo data: a realistic, varied, deterministic database to try Praça on.

``fill_demo()`` writes into an empty database only, in one transaction. Each
later capability extends it so every screen has something real to show:
people and companies; applications in every status; permits of every regime
issued through the real workflow (numbers, terms, QR when a key folder is
given), some renewed, suspended, revoked, cancelled or expired, and some due
for renewal or with start-up deadlines around the demo's today (30/11/2026).
"""

from __future__ import annotations

import datetime as _dt
import random
from decimal import Decimal

from models.base.errors import UserError
from models.base.text import search_key
from models.billing.fiscal import set_index_correction
from models.demo.desk import DemoDesk
from models.demo.people import (
    SEED,
    TRADES,
    demo_address,
    demo_cnpj,
    demo_cpf,
    demo_email,
    demo_name,
    demo_phone,
    demo_rg,
)
from models.demo.towns import DEFAULT_TOWN, TOWNS, Town, install_acts, keep_only_own_act, set_municipality
from models.registry.people import Company, CompanyPartner, HouseholdMember, Person
from models.store import schema
from models.store.db import db

__all__ = ["DEMO_PASSPHRASE", "DEMO_TODAY", "INPC_BY_YEAR", "SEED", "fill_demo"]

# INPC/IBGE yearly variation (percent) of year Y, applied to indexed values from Y + 1 on.
INPC_BY_YEAR = {  # the yearly rates, in per cent
    2014: Decimal("6.23"),
    2015: Decimal("11.28"),
    2016: Decimal("6.58"),
    2017: Decimal("2.07"),
    2018: Decimal("3.43"),
    2019: Decimal("4.48"),
    2020: Decimal("5.45"),
    2021: Decimal("10.16"),
    2022: Decimal("5.93"),
    2023: Decimal("3.71"),
    2024: Decimal("4.77"),
    2025: Decimal("3.90"),
}


#: The demo municipality's signing passphrase (README): a desk opening the demo unlocks its key with it.
DEMO_PASSPHRASE = "praca-demo-2026"


#: the day the demo without ``--town`` is dated (its stories are told as of this day)
DEMO_TODAY = _dt.date(2026, 11, 30)


def fill_demo(
    *,
    people: int | None = None,
    companies: int | None = None,
    today: _dt.date | None = None,
    key_dir=None,
    permits: bool = True,
    town: str | None = None,
) -> dict[str, int]:
    """Fill an empty database with demo data (see :func:`_fill_demo`): the system's act, whoever runs it — a new
    database has no user to log in as.

    ``town`` (``sao-bento``, ``sapezal``, ``ilha-comprida``, ``sjc``, ``olimpia``, ``cabeceira-grande``:
    :data:`models.demo.towns.TOWNS`): one municipality with its own act, dated from ``today`` (default: the real
    today) so that every desk has open work (issue 31 §2). Without it, the six acts' data under Olímpia, as of
    :data:`DEMO_TODAY` (240 people, 72 companies)."""
    from models.access import session
    from models.demo.towns import town as find_town

    place = find_town(town) if town is not None else None  # an unknown town refused before anything is written
    if place is not None:
        people = 150 if people is None else people
        companies = 48 if companies is None else companies
    with session.acting_as(session.current() or session.SYSTEM):
        return _fill_demo(
            people=240 if people is None else people,
            companies=72 if companies is None else companies,
            today=today,
            key_dir=key_dir,
            permits=permits,
            place=place,
        )


def _fill_demo(
    *, people: int, companies: int, today: _dt.date | None, key_dir, permits: bool, place: Town | None
) -> dict[str, int]:
    """Fill an empty database with demo data; refuses a database that has data.

    ``key_dir``: what signs the demo permits' QR codes — ``MUNICIPAL_KEY`` (the database's key, created with
    :data:`DEMO_PASSPHRASE`), a key folder, or ``None`` (the permits are issued without QR).
    ``permits``: also applications and permits (needs at least 60 people and
    20 companies).
    """
    if not schema.is_empty():
        raise UserError("O banco de dados já contém dados; o demo só é gravado em um banco novo.")
    from models.access.signing_keys import MUNICIPAL_KEY, active_key, create_key

    install_acts(place)
    if key_dir is MUNICIPAL_KEY and active_key() is None:
        create_key(DEMO_PASSPHRASE)  # the demo municipality's signing key; its passphrase is in the README
    rng = random.Random(SEED)
    today = today or (_dt.date.today() if place is not None else DEMO_TODAY)
    seen_cpf: set[str] = set()
    seen_cnpj: set[str] = set()
    person_rows = []
    for _ in range(people):
        cpf = demo_cpf(rng)
        while cpf in seen_cpf:
            cpf = demo_cpf(rng)
        seen_cpf.add(cpf)
        name = demo_name(rng)
        age_days = rng.randint(18 * 365 + 5, 78 * 365)
        birth = today - _dt.timedelta(days=age_days)
        resident = None
        if rng.random() < 0.85:
            resident = today - _dt.timedelta(days=rng.randint(90, min(age_days, 40 * 365)))
        person_rows.append(
            {
                "name": name,
                "cpf": cpf,
                "rg": demo_rg(rng),
                "birth_date": birth,
                **demo_address(rng, place),
                "phone": demo_phone(rng, place),
                "email": demo_email(name, rng) if rng.random() < 0.7 else "",
                "resident_since": resident,
                "disabled": rng.random() < 0.06,
                "family_income_mw": Decimal(rng.choice(["0.5", "0.8", "1", "1.2", "1.5", "2", "2.5", "3", "4", "6"])),
                "housing": rng.choice(["rented", "rented", "financed", "owned", "owned", "lent", "other"]),
                "experience_years": rng.choice([0, 0, 1, 2, 3, 5, 8, 12, 20]),
                "search_name": search_key(name),
            }
        )
    company_rows = []
    owners = []
    for i in range(companies):
        alnum = i % 9 == 4  # a few of the alphanumeric CNPJs issued since July 2026
        cnpj = demo_cnpj(rng, alnum)
        while cnpj in seen_cnpj:
            cnpj = demo_cnpj(rng, alnum)
        seen_cnpj.add(cnpj)
        owner = rng.choice(person_rows)
        kind, trade = rng.choice(TRADES)
        mei = rng.random() < 0.7
        surname = owner["name"].split()[-1]
        legal = f"{owner['name'].upper()} {cnpj[:8]}" if mei else f"{kind} {surname} Ltda."
        company_rows.append(
            {
                "cnpj": cnpj,
                "legal_name": legal,
                "trade_name": f"{trade} d{'a' if rng.random() < 0.5 else 'o'} {owner['name'].split()[0]}",
                "mei": mei,
                "municipal_registration": f"{rng.randint(10000, 99999)}" if rng.random() < 0.8 else "",
                **demo_address(rng, place),
                "phone": demo_phone(rng, place),
                "email": demo_email(owner["name"], rng) if rng.random() < 0.6 else "",
            }
        )
        company_rows[-1]["search_name"] = search_key(f"{legal} {company_rows[-1]['trade_name']}")
        owners.append(owner)
    with db.atomic():
        set_municipality(place or TOWNS[DEFAULT_TOWN])
        for start in range(0, len(person_rows), 100):
            Person.insert_many(person_rows[start : start + 100]).execute()
        for start in range(0, len(company_rows), 100):
            Company.insert_many(company_rows[start : start + 100]).execute()
        by_cpf = {p.cpf: p.id for p in Person.select(Person.id, Person.cpf)}
        members = []
        for row in person_rows:
            if rng.random() < 0.55:
                members.append(
                    {
                        "person": by_cpf[row["cpf"]],
                        "name": demo_name(rng),
                        "relation": rng.choice(["spouse", "partner"]),
                        "birth_date": row["birth_date"] + _dt.timedelta(days=rng.randint(-3000, 3000)),
                    }
                )
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                members.append(
                    {
                        "person": by_cpf[row["cpf"]],
                        "name": demo_name(rng),
                        "relation": "child",
                        "birth_date": today - _dt.timedelta(days=rng.randint(200, 20 * 365)),
                    }
                )
        for start in range(0, len(members), 200):
            HouseholdMember.insert_many(members[start : start + 200]).execute()
        by_cnpj = {c.cnpj: c.id for c in Company.select(Company.id, Company.cnpj)}
        CompanyPartner.insert_many(
            [
                {
                    "company": by_cnpj[row["cnpj"]],
                    "name": owner["name"],
                    "cpf": owner["cpf"],
                    "person": by_cpf[owner["cpf"]],
                }
                for row, owner in zip(company_rows, owners, strict=True)
            ]
        ).execute()
        for year, pct in INPC_BY_YEAR.items():
            set_index_correction(
                "INPC",
                year + 1,
                pct,
                entered_by="demonstração",
                reason=f"INPC/IBGE acumulado de {year} (dado de demonstração: confira na fonte oficial)",
            )
        counts = {"people": len(person_rows), "companies": len(company_rows)}
        from models.demo.users import demo_users

        counts["users"] = demo_users()  # documented in the README: login and password
        if place is not None:
            counts.update(_fill_town(place, today, key_dir, permits=permits and people >= 60 and companies >= 20))
        elif permits and people >= 60 and companies >= 20:
            counts.update(DemoDesk(random.Random(SEED + 1), today, key_dir).fill())
            from models.demo.sites import demo_sites

            made = demo_sites()  # the SJC night feira with its holders, the São Bento street, the beach points
            counts.update({"sites": made["sites"], "stalls": made["stalls"]})
            from models.demo.enforcement import demo_enforcement

            done = demo_enforcement(today)  # a year of records, recurrences, seizures, defences and appeals
            counts.update({key: done[key] for key in ("records", "seizures", "contests")})
    return counts


def _fill_town(place: Town, today: _dt.date, key_dir, *, permits: bool) -> dict[str, int]:
    """A town's own demo, after its people: only its act, its history as of ``today``, the jobs open that day
    (``models.demo.open_jobs``), its sites with stalls and a year of its enforcement."""
    from models.demo.enforcement import demo_enforcement
    from models.demo.open_jobs import ilha_arena, open_stories
    from models.demo.sites import demo_town_sites

    counts = {"acts_retired": keep_only_own_act(place)}  # none in a new database: it holds only the town's act
    if not permits:
        return counts
    regime_id = place.regime_id
    if regime_id == "ilha-comprida-2017":
        ilha_arena(today)  # its dates come before the credentials asked for it (the filing checks them)
    _demo_fiscal_values(regime_id, today)
    # whole years since the demo's own day: the stories' calendar dates keep their place in the act's year
    years = today.year - DEMO_TODAY.year - (1 if (today.month, today.day) < (DEMO_TODAY.month, DEMO_TODAY.day) else 0)
    desk = DemoDesk(random.Random(SEED + 1), today, key_dir, regimes=(regime_id,), years=years)
    counts.update(desk.fill(more=lambda: open_stories(desk, regime_id)))
    demo_town_sites(regime_id)
    from models.sites import Site, Stall

    counts.update({"sites": Site.select().count(), "stalls": Stall.select().count()})
    done = demo_enforcement(today, regimes=(regime_id,))
    counts.update({key: done[key] for key in ("records", "seizures", "contests")})
    return counts


#: a fiscal unit the act names without a value (Sapezal's UFS, Lei 1.171/2014): the demo's value, entered by hand
DEMO_UNIT_VALUES = {"UFS": Decimal("52.30")}
#: the INPC of a year the demo does not know yet: a demonstration estimate, entered by hand
DEMO_INPC = Decimal("4.00")


def _demo_fiscal_values(regime_id: str, today: _dt.date) -> None:
    """The values a town's demo needs from the past two years to today that its act does not give — a fiscal unit's
    value for a year (UFESP of a year after the act's, Sapezal's UFS) and the INPC of a year INPC_BY_YEAR does not
    have — entered as the clerk enters them (Cadastros → Unidades fiscais / Correção monetária), each marked as a
    demonstration value to check against the official one. The act's own values stand where it has them."""
    from models.billing.fiscal import index_corrections, set_index_correction, set_unit_value, unit_overrides
    from models.rules.regimes import get_regime

    regime = get_regime(regime_id)
    for unit in regime.units:
        entered = unit_overrides(regime.id)
        known = {v.year: v.value for v in unit.values} | {y: v for (code, y), v in entered.items() if code == unit.code}
        for year in range(today.year - 2, today.year + 1):
            if year in known:
                continue
            before = [y for y in known if y < year]
            value = known[max(before)] if before else DEMO_UNIT_VALUES.get(unit.code)
            if value is None:
                continue
            set_unit_value(
                regime,
                unit.code,
                year,
                value,
                entered_by="demonstração",
                reason=f"{unit.code} {year} — dado de demonstração (repete o último valor conhecido): confira o "
                "valor oficial",
            )
            known[year] = value
    held = index_corrections("INPC")
    for year in range(max(INPC_BY_YEAR) + 1, today.year):
        if year + 1 not in held:
            set_index_correction(
                "INPC",
                year + 1,
                DEMO_INPC,
                entered_by="demonstração",
                reason=f"INPC/IBGE de {year}: estimativa de demonstração — confira na fonte oficial",
            )
