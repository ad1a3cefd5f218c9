"""Demo data: realistic, valid, deterministic, and never written over real data."""

from __future__ import annotations

import pytest
from stdnum.br import cnpj, cpf

from models.demo import fill_demo
from models.errors import UserError
from models.people import Company, Person
from models.settings import municipality_label


def test_demo_is_valid_and_varied(database):
    counts = fill_demo()
    assert counts["people"] >= 200 and counts["companies"] >= 50
    people = list(Person.select())
    assert all(cpf.is_valid(p.cpf) for p in people)
    assert len({p.name for p in people}) > 150
    assert len({p.birth_date.year for p in people}) > 30
    companies = list(Company.select())
    assert all(cnpj.is_valid(c.cnpj) for c in companies)
    assert any(not c.cnpj.isdigit() for c in companies), "a few alphanumeric CNPJs"
    assert any(c.mei for c in companies) and any(not c.mei for c in companies)
    assert municipality_label() == "Olímpia/SP"


def test_demo_is_deterministic(database):
    fill_demo(people=20, companies=5)
    first = [(p.name, p.cpf) for p in Person.select().order_by(Person.id)]
    from models.demo import SEED  # noqa: F401  (the seed is fixed in the module)

    Person.delete().execute()
    Company.delete().execute()
    fill_demo(people=20, companies=5)
    again = [(p.name, p.cpf) for p in Person.select().order_by(Person.id)]
    assert first == again


def test_demo_refuses_a_database_with_data(database):
    fill_demo(people=3, companies=1)
    with pytest.raises(UserError, match="já contém dados"):
        fill_demo(people=3, companies=1)
    assert Person.select().count() == 3
