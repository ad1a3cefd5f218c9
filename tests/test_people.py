"""People and companies: validation at the field, household and partners, optimistic locking, search."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.br import cnpj_check_digits
from models.base.errors import FieldErrors, UserError
from models.base.text import search_key
from models.registry.people import (
    CompanyInput,
    HouseholdInput,
    HouseholdMember,
    PartnerInput,
    Person,
    PersonInput,
    age_on,
    save_company,
    save_person,
    validate_person,
)
from models.registry.search import find_applicants
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)
CPF = "52998224725"


def person(**kw) -> PersonInput:
    base = dict(
        name="Maria José da Silva",
        cpf="529.982.247-25",
        birth_date=dt.date(1980, 5, 17),
        city="Olímpia",
        state="sp",
        zip_code="15400-000",
        resident_since=dt.date(2001, 1, 1),
        family_income_mw="1,5",
        housing="rented",
        experience_years=4,
    )
    base.update(kw)
    return PersonInput(**base)


def test_save_person_with_household(database, tmp_path):
    set_store(tmp_path / "files")
    photo = tmp_path / "foto.jpg"
    photo.write_bytes(b"\xff\xd8\xff fake jpeg")
    saved = save_person(
        person(
            photo_file=str(photo),
            household=[
                HouseholdInput("João da Silva", "spouse", cpf="111.444.777-35"),
                HouseholdInput("Ana da Silva", "child", birth_date=dt.date(2015, 2, 1)),
            ],
        ),
        today=TODAY,
    )
    again = Person.get_by_id(saved.id)
    assert again.cpf == CPF and again.state == "SP" and again.zip_code == "15400000"
    assert again.family_income_mw == Decimal("1.5") and again.search_name == "maria jose da silva"
    assert [(m.name, m.relation) for m in again.household.order_by(HouseholdMember.id)] == [
        ("João da Silva", "spouse"),
        ("Ana da Silva", "child"),
    ]
    assert len(again.photo_sha256) == 64 and (tmp_path / "files" / again.photo_path).exists()


@pytest.mark.parametrize(
    "changes,field",
    [
        (dict(cpf="123.456.789-00"), "cpf"),
        (dict(cpf=""), "cpf"),
        (dict(name=""), "name"),
        (dict(name="Maria"), "name"),
        (dict(birth_date=dt.date(2027, 1, 1)), "birth_date"),
        (dict(resident_since=dt.date(1970, 1, 1)), "resident_since"),
        (dict(family_income_mw="muito"), "family_income_mw"),
        (dict(family_income_mw="-1"), "family_income_mw"),
        (dict(state="São Paulo"), "state"),
        (dict(zip_code="1540"), "zip_code"),
        (dict(email="maria@"), "email"),
        (dict(household=[HouseholdInput("", "spouse")]), "household[0].name"),
        (dict(household=[HouseholdInput("Zé", "primo")]), "household[0].relation"),
    ],
)
def test_bad_person_input_is_refused_at_the_field(database, changes, field):
    with pytest.raises(FieldErrors) as err:
        save_person(person(**changes), today=TODAY)
    assert field in err.value.errors
    assert Person.select().count() == 0


def test_every_wrong_field_is_reported_at_once():
    with pytest.raises(FieldErrors) as err:
        validate_person(person(name="", cpf="1", zip_code="9"), today=TODAY)
    assert {"name", "cpf", "zip_code"} <= set(err.value.errors)


def test_duplicate_cpf_is_refused(database):
    first = save_person(person(), today=TODAY)
    with pytest.raises(FieldErrors, match=first.name):
        save_person(person(name="Outra Pessoa Qualquer"), today=TODAY)


def test_stale_edit_is_refused(database):
    saved = save_person(person(), today=TODAY)
    copy_a = Person.get_by_id(saved.id)
    copy_b = Person.get_by_id(saved.id)
    save_person(person(phone="(17) 99999-0000"), person=copy_a, today=TODAY)
    with pytest.raises(UserError, match="alterado por outra pessoa"):
        save_person(person(phone="(17) 98888-0000"), person=copy_b, today=TODAY)
    assert Person.get_by_id(saved.id).phone == "(17) 99999-0000"


def test_company_with_partners_and_alphanumeric_cnpj(database):
    base = "12ABC34501DE"
    company = save_company(
        CompanyInput(
            cnpj=base + cnpj_check_digits(base),
            legal_name="Pastelaria Zanetti Ltda.",
            trade_name="Pastel da Praça",
            mei=False,
            partners=[PartnerInput("Carlos Zanetti", CPF, "Márcia Zanetti")],
        )
    )
    assert company.cnpj == "12ABC34501DE35"
    assert [p.name for p in company.partners] == ["Carlos Zanetti"]
    with pytest.raises(FieldErrors) as err:
        save_company(CompanyInput(cnpj="12.ABC.345/01DE-36", legal_name=""))
    assert {"cnpj", "legal_name"} <= set(err.value.errors)


def test_search_by_document_and_by_words(database):
    save_person(person(), today=TODAY)
    save_person(person(name="José Antônio Pereira", cpf="111.444.777-35"), today=TODAY)
    save_company(CompanyInput(cnpj="11.222.333/0001-81", legal_name="Doces Caseiros Pereira Ltda."))
    assert [m.name for m in find_applicants("529.98")] == ["Maria José da Silva"]
    assert [m.document for m in find_applicants("11222")] == ["11.222.333/0001-81"]
    assert {m.name for m in find_applicants("pereira")} == {"José Antônio Pereira", "Doces Caseiros Pereira Ltda."}
    assert [m.name for m in find_applicants("silva jose")] == ["Maria José da Silva"]
    assert [m.name for m in find_applicants("ANTONIO")] == ["José Antônio Pereira"]
    assert find_applicants("") == [] and find_applicants("xyzzy") == []


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=0, max_size=40))
def test_search_key_is_idempotent_and_ascii(text):
    key = search_key(text)
    assert key == search_key(key)
    assert key.isascii() and key == key.lower()


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 1, 1)), st.integers(0, 100))
def test_age_on_birthday(birth, years):
    try:
        day = birth.replace(year=birth.year + years)
    except ValueError:  # 29 February
        return
    assert age_on(birth, day) == years
    assert age_on(birth, day - dt.timedelta(days=1)) == years - 1


def test_search_finds_an_alphanumeric_cnpj_typed_any_way(database):
    base = "12ABC34501DE"
    cnpj = base + cnpj_check_digits(base)
    save_company(CompanyInput(cnpj=cnpj, legal_name="Pastelaria Zanetti Ltda."))
    for typed in ("12.ABC.345/01DE-35", "12abc34501de35", "12ABC", "12.abc.3"):
        assert [m.document for m in find_applicants(typed)] == ["12.ABC.345/01DE-35"], typed
    assert [m.name for m in find_applicants("zanetti")] == ["Pastelaria Zanetti Ltda."]
