"""Demo data: a realistic, varied, deterministic database to try Praça on.

``fill_demo()`` writes into an empty database only, in one transaction. Each
later capability extends it so every screen has something real to show.
"""

from __future__ import annotations

import datetime as _dt
import random
import string
from decimal import Decimal

from models import schema
from models.br import cnpj_check_digits, cpf_check_digits
from models.db import db
from models.errors import UserError
from models.fiscal import set_index_correction
from models.people import Company, CompanyPartner, HouseholdMember, Person, search_key
from models.settings import AGENCY, MUNICIPALITY, STATE, set_settings

DEMO_MUNICIPALITY = "Olímpia"
DEMO_STATE = "SP"
SEED = 20260324

FIRST_NAMES_F = [
    "Maria", "Ana", "Francisca", "Antônia", "Adriana", "Juliana", "Márcia", "Fernanda",
    "Patrícia", "Aline", "Sandra", "Camila", "Luciana", "Cláudia", "Vanessa", "Simone",
    "Rosângela", "Tatiane", "Débora", "Jéssica", "Cristiane", "Raimunda", "Josefa", "Eliane",
]
FIRST_NAMES_M = [
    "José", "João", "Antônio", "Francisco", "Carlos", "Paulo", "Pedro", "Lucas", "Luiz",
    "Marcos", "Luís", "Gabriel", "Rafael", "Daniel", "Marcelo", "Bruno", "Eduardo", "Felipe",
    "Raimundo", "Rodrigo", "Sebastião", "Anderson", "Reinaldo", "Wellington",
]
SURNAMES = [
    "Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
    "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares",
    "Fernandes", "Vieira", "Barbosa", "Rocha", "Dias", "Nascimento", "Andrade", "Moreira",
    "Nunes", "Marques", "Machado", "Mendes", "Freitas", "Cardoso", "Ramos", "Gonçalves",
    "Santana", "Teixeira", "Bortolotto", "Zanetti", "Yamamoto", "Nakamura", "Haddad",
]
STREETS = [
    "Rua Bernardino de Campos", "Rua São João", "Rua Coronel Francisco Ribeiro", "Avenida Aurora Forti Neves",
    "Rua Marechal Deodoro", "Rua Treze de Maio", "Rua Engenheiro Antônio Prado", "Rua Síria",
    "Avenida Waldemar Lopes Ferraz", "Rua David de Oliveira", "Rua Nove de Julho", "Rua Cajobi",
    "Rua Dr. Antônio Olímpio", "Rua Santos Dumont", "Avenida Pref. Wilquem Manoel Neves",
]
DISTRICTS = [
    "Centro", "Jardim Santa Ifigênia", "Vila Hípica", "Jardim Glória", "Jardim Alvorada",
    "Parque São José", "Jardim Santa Efigênia", "Cohab IV", "Jardim Tropical", "Vila Ipiranga",
]
TRADES = [
    ("Pastelaria", "Pastéis"), ("Lanches", "Lanches"), ("Doces", "Doces Caseiros"),
    ("Pipoca", "Pipocas"), ("Churros", "Churros"), ("Açaí", "Açaí e Sorvetes"),
    ("Espetinhos", "Churrasquinho"), ("Caldo de Cana", "Garapa"), ("Artesanato", "Arte e Cultura"),
    ("Hortifruti", "Verduras e Legumes"), ("Tapiocaria", "Tapiocas"), ("Crepes", "Crepes"),
]


# INPC/IBGE yearly variation (percent) of year Y, applied to indexed values from Y + 1 on.
INPC_BY_YEAR = {
    2014: "6.23", 2015: "11.28", 2016: "6.58", 2017: "2.07", 2018: "3.43", 2019: "4.48",
    2020: "5.45", 2021: "10.16", 2022: "5.93", 2023: "3.71", 2024: "4.77",
}


def _cpf(rng: random.Random) -> str:
    while True:
        base = "".join(rng.choice(string.digits) for _ in range(9))
        if len(set(base)) > 1:
            return base + cpf_check_digits(base)


def _cnpj(rng: random.Random, alphanumeric: bool) -> str:
    alphabet = string.digits + string.ascii_uppercase if alphanumeric else string.digits
    while True:
        root = "".join(rng.choice(alphabet) for _ in range(8))
        if alphanumeric and root.isdigit():
            continue
        base = root + "0001"
        return base + cnpj_check_digits(base)


def _person_name(rng: random.Random) -> str:
    first = rng.choice(FIRST_NAMES_F if rng.random() < 0.5 else FIRST_NAMES_M)
    middle = rng.sample(SURNAMES, k=rng.choice([1, 2]))
    return " ".join([first, *middle, rng.choice(SURNAMES)])


def _phone(rng: random.Random) -> str:
    return f"(17) 9{rng.randint(8000, 9999)}-{rng.randint(0, 9999):04d}"


def _address(rng: random.Random) -> dict:
    return {
        "street": rng.choice(STREETS),
        "number": str(rng.randint(10, 2400)),
        "district": rng.choice(DISTRICTS),
        "city": DEMO_MUNICIPALITY,
        "state": DEMO_STATE,
        "zip_code": f"1540{rng.randint(0, 9)}{rng.randint(0, 999):03d}",
    }


def _email(name: str, rng: random.Random) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower().split()
    return f"{plain[0]}.{plain[-1]}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'hotmail.com', 'uol.com.br', 'yahoo.com.br'])}"


def fill_demo(*, people: int = 240, companies: int = 72, today: _dt.date | None = None) -> dict[str, int]:
    """Fill an empty database with demo data; refuses a database that has data."""
    if not schema.is_empty():
        raise UserError("O banco de dados já contém dados; o demo só é gravado em um banco novo.")
    rng = random.Random(SEED)
    today = today or _dt.date(2026, 11, 30)
    seen_cpf: set[str] = set()
    seen_cnpj: set[str] = set()
    person_rows = []
    for _ in range(people):
        cpf = _cpf(rng)
        while cpf in seen_cpf:
            cpf = _cpf(rng)
        seen_cpf.add(cpf)
        name = _person_name(rng)
        age_days = rng.randint(18 * 365 + 5, 78 * 365)
        birth = today - _dt.timedelta(days=age_days)
        resident = None
        if rng.random() < 0.85:
            resident = today - _dt.timedelta(days=rng.randint(90, min(age_days, 40 * 365)))
        person_rows.append(
            {
                "name": name,
                "cpf": cpf,
                "rg": f"{rng.randint(10, 59)}.{rng.randint(100, 999)}.{rng.randint(100, 999)}-{rng.choice('0123456789X')}",
                "birth_date": birth,
                **_address(rng),
                "phone": _phone(rng),
                "email": _email(name, rng) if rng.random() < 0.7 else "",
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
        cnpj = _cnpj(rng, alnum)
        while cnpj in seen_cnpj:
            cnpj = _cnpj(rng, alnum)
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
                **_address(rng),
                "phone": _phone(rng),
                "email": _email(owner["name"], rng) if rng.random() < 0.6 else "",
            }
        )
        company_rows[-1]["search_name"] = search_key(f"{legal} {company_rows[-1]['trade_name']}")
        owners.append(owner)
    with db.atomic():
        set_settings({MUNICIPALITY: DEMO_MUNICIPALITY, STATE: DEMO_STATE, AGENCY: "Prefeitura da Estância Turística de Olímpia"})
        for start in range(0, len(person_rows), 100):
            Person.insert_many(person_rows[start:start + 100]).execute()
        for start in range(0, len(company_rows), 100):
            Company.insert_many(company_rows[start:start + 100]).execute()
        by_cpf = {p.cpf: p.id for p in Person.select(Person.id, Person.cpf)}
        members = []
        for row in person_rows:
            if rng.random() < 0.55:
                members.append({"person": by_cpf[row["cpf"]], "name": _person_name(rng),
                                "relation": rng.choice(["spouse", "partner"]),
                                "birth_date": row["birth_date"] + _dt.timedelta(days=rng.randint(-3000, 3000))})
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                members.append({"person": by_cpf[row["cpf"]], "name": _person_name(rng), "relation": "child",
                                "birth_date": today - _dt.timedelta(days=rng.randint(200, 20 * 365))})
        for start in range(0, len(members), 200):
            HouseholdMember.insert_many(members[start:start + 200]).execute()
        by_cnpj = {c.cnpj: c.id for c in Company.select(Company.id, Company.cnpj)}
        CompanyPartner.insert_many([
            {"company": by_cnpj[row["cnpj"]], "name": owner["name"], "cpf": owner["cpf"],
             "person": by_cpf[owner["cpf"]]}
            for row, owner in zip(company_rows, owners)
        ]).execute()
        for year, pct in INPC_BY_YEAR.items():
            set_index_correction("INPC", year + 1, pct, entered_by="demonstração",
                                 reason=f"INPC/IBGE acumulado de {year} (dado de demonstração: confira na fonte oficial)")
    return {"people": len(person_rows), "companies": len(company_rows)}
