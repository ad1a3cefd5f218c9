"""People and companies: the applicants and holders of permits, with household and partners."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from peewee import (
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    IntegrityError,
    TextField,
)

from models.access.session import require
from models.base import clock
from models.base.br import clean_cnpj, clean_cpf
from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed
from models.base.text import control_errors, search_key
from models.store.db import BaseModel, DecimalTextField, db, update_versioned

if TYPE_CHECKING:
    from peewee import ModelSelect

HOUSING = {
    "rented": "alugada",
    "financed": "financiada",
    "owned": "própria",
    "lent": "cedida",
    "other": "outra",
}
RELATIONS = {"spouse": "cônjuge", "partner": "companheiro(a)", "child": "filho(a)", "dependant": "dependente"}


class Addressed(BaseModel):
    """Address and contact, the same for people and companies (never a table of its own)."""

    street = CharField(max_length=200, default="")
    number = CharField(max_length=20, default="")
    district = CharField(max_length=100, default="")
    city = CharField(max_length=100, default="")
    state = CharField(max_length=2, default="")
    zip_code = CharField(max_length=8, default="")
    phone = CharField(max_length=30, default="")
    email = CharField(max_length=200, default="")


class Person(Addressed):
    """A natural person (pessoa física)."""

    name = CharField(max_length=200, index=True)
    cpf = CharField(max_length=11, unique=True)  # compact form
    rg = CharField(max_length=30, default="")
    birth_date = DateField(null=True)
    resident_since = DateField(null=True)
    notes = TextField(default="")
    created_at = DateTimeField(default=clock.now)
    version = IntegerField(default=1)
    # v4: what the front desk and the socio-economic score need
    phone2 = CharField(max_length=30, default="")
    disabled = BooleanField(default=False)
    disability_notes = CharField(max_length=200, default="")
    family_income_mw = DecimalTextField(max_length=20, null=True)  # in minimum wages
    housing = CharField(max_length=16, default="")
    experience_years = IntegerField(null=True)
    photo_path = CharField(max_length=300, default="")
    photo_sha256 = CharField(max_length=64, default="")
    search_name = CharField(max_length=200, default="", index=True)

    if TYPE_CHECKING:  # for mypy: the back-reference of the household's members (its stub has none)
        household: ModelSelect[HouseholdMember]

    class Meta:
        table_name = "person"


class HouseholdMember(BaseModel):
    """Spouse/partner and dependants of a person (family nucleus)."""

    person = ForeignKeyField(Person, backref="household", on_delete="CASCADE")
    name = CharField(max_length=200)
    cpf = CharField(max_length=11, default="")
    relation = CharField(max_length=16)
    birth_date = DateField(null=True)
    disabled = BooleanField(default=False)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        person_id: int

    class Meta:
        table_name = "household_member"


class Company(Addressed):
    """A legal person (pessoa jurídica), MEI included."""

    cnpj = CharField(max_length=14, unique=True)  # compact form, letters allowed
    legal_name = CharField(max_length=200, index=True)
    trade_name = CharField(max_length=200, default="")
    mei = BooleanField(default=False)
    municipal_registration = CharField(max_length=40, default="")
    created_at = DateTimeField(default=clock.now)
    version = IntegerField(default=1)
    search_name = CharField(max_length=400, default="", index=True)  # v4

    if TYPE_CHECKING:  # for mypy: the back-reference of its partners (its stub has none)
        partners: ModelSelect[CompanyPartner]

    class Meta:
        table_name = "company"


class CompanyPartner(BaseModel):
    """A partner (sócio) of a company, and the partner's spouse."""

    company = ForeignKeyField(Company, backref="partners", on_delete="CASCADE")
    name = CharField(max_length=200)
    cpf = CharField(max_length=11, default="")
    person = ForeignKeyField(Person, null=True, on_delete="SET NULL")
    spouse_name = CharField(max_length=200, default="")
    spouse_cpf = CharField(max_length=11, default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        company_id: int
        person_id: int | None

    class Meta:
        table_name = "company_partner"


def mei_company(person: Person) -> Company | None:
    """The MEI a person answers for (an MEI is a company with one partner: its owner)."""
    return (
        Company.select()
        .join(CompanyPartner)
        .where((CompanyPartner.person == person) & (Company.mei == True))  # noqa: E712 — a peewee expression: SQL compares the column
        .first()
    )


def responsible_person(company: Company) -> Person | None:
    """The natural person who answers for a company (its first partner registered as a person)."""
    partner = (
        CompanyPartner.select()
        .where((CompanyPartner.company == company) & CompanyPartner.person.is_null(False))
        .order_by(CompanyPartner.id)
        .first()
    )
    return partner.person if partner else None


def get_person(person_id: int) -> Person:
    """A registered person by id (a ``UserError`` if removed meanwhile)."""
    found = Person.get_or_none(Person.id == person_id)
    if found is None:
        raise UserError(f"A pessoa nº {person_id} não está mais cadastrada.")
    return found


def open_person_record(person_id: int) -> Person:
    """A person's full record (CPF, RG, documents) for the form: only for roles that need it, and the
    viewing is recorded in the audit trail (LGPD, Lei 13.709/2018, art. 37)."""
    from models.store.audit import record_view

    require("people.view-documents")
    person = get_person(person_id)
    record_view(Person, person.id, "ficha com CPF, RG e documentos", person_id=person.id)
    return person


def get_company(company_id: int) -> Company:
    """A registered company by id (a ``UserError`` if removed meanwhile)."""
    found = Company.get_or_none(Company.id == company_id)
    if found is None:
        raise UserError(f"A empresa nº {company_id} não está mais cadastrada.")
    return found


def counts() -> dict[str, int]:
    """How many people and companies are registered (for the home page)."""
    return {"people": Person.select().count(), "companies": Company.select().count()}


# --------------------------------------------------------------------------- input and validation


@dataclass
class HouseholdInput:
    name: str
    relation: str
    cpf: str = ""
    birth_date: _dt.date | None = None
    disabled: bool = False


@dataclass
class PersonInput:
    """What the person form holds (text as typed; validated by ``save_person``)."""

    name: str = ""
    cpf: str = ""
    rg: str = ""
    birth_date: _dt.date | None = None
    street: str = ""
    number: str = ""
    district: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    phone: str = ""
    phone2: str = ""
    email: str = ""
    resident_since: _dt.date | None = None
    disabled: bool = False
    disability_notes: str = ""
    family_income_mw: str = ""
    housing: str = ""
    experience_years: int | None = None
    photo_file: str | None = None  # a new photo to keep (path), or None to keep the current one
    household: list[HouseholdInput] = field(default_factory=list)


@dataclass
class PartnerInput:
    name: str
    cpf: str = ""
    spouse_name: str = ""
    spouse_cpf: str = ""


@dataclass
class CompanyInput:
    cnpj: str = ""
    legal_name: str = ""
    trade_name: str = ""
    mei: bool = False
    municipal_registration: str = ""
    street: str = ""
    number: str = ""
    district: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    phone: str = ""
    email: str = ""
    partners: list[PartnerInput] = field(default_factory=list)


def _digits(text: str) -> str:
    return "".join(c for c in text or "" if c in "0123456789")


def _check_email(errors: dict, value: str) -> None:
    if value and ("@" not in value or "." not in value.split("@")[-1] or not value.isprintable() or " " in value):
        errors["email"] = f"E-mail inválido: {value}"


def _check_zip(errors: dict, value: str) -> str:
    digits = _digits(value)
    if digits and len(digits) != 8:
        errors["zip_code"] = "CEP deve ter 8 dígitos."
    return digits


def _check_state(errors: dict, value: str) -> str:
    state = (value or "").strip().upper()
    if state and (len(state) != 2 or not (state.isascii() and state.isalpha())):
        errors["state"] = "UF deve ter duas letras (ex.: SP)."
    return state


def _try(errors: dict, key: str, func, *args):
    try:
        return func(*args)
    except UserError as exc:
        errors.setdefault(key, exc.message)
        return None


def validate_person(data: PersonInput, *, today: _dt.date) -> dict:
    """Clean values for a ``Person`` row, or ``FieldErrors`` with every wrong field."""
    errors = control_errors(data)  # as typed: the cleaning below would fold a control character into a space
    if errors:
        raise FieldErrors(errors)
    name = " ".join((data.name or "").split())
    if not name:
        errors["name"] = "Informe o nome."
    elif len(name.split()) < 2:
        errors["name"] = "Informe o nome completo (nome e sobrenome)."
    cpf = _try(errors, "cpf", clean_cpf, data.cpf)
    if data.birth_date is not None:
        if data.birth_date > today:
            errors["birth_date"] = "A data de nascimento não pode estar no futuro."
        elif data.birth_date.year < today.year - 120:
            errors["birth_date"] = "Data de nascimento implausível."
    if data.resident_since is not None:
        if data.resident_since > today:
            errors["resident_since"] = "A data de residência não pode estar no futuro."
        elif data.birth_date is not None and data.resident_since < data.birth_date:
            errors["resident_since"] = "Reside no município desde antes de nascer?"
    income = None
    if (data.family_income_mw or "").strip():
        try:
            income = parse_typed(data.family_income_mw, what="Renda familiar (em salários mínimos)")
        except UserError as exc:
            errors["family_income_mw"] = exc.message
        else:
            if income < 0:
                errors["family_income_mw"] = "A renda familiar não pode ser negativa."
    if data.housing and data.housing not in HOUSING:
        errors["housing"] = f"Moradia inválida: {data.housing}"
    if data.experience_years is not None and not 0 <= data.experience_years <= 90:
        errors["experience_years"] = "Anos de experiência entre 0 e 90."
    state = _check_state(errors, data.state)
    zip_code = _check_zip(errors, data.zip_code)
    _check_email(errors, (data.email or "").strip())
    for i, member in enumerate(data.household):
        if not (member.name or "").strip():
            errors[f"household[{i}].name"] = f"Familiar {i + 1}: informe o nome."
        if member.relation not in RELATIONS:
            errors[f"household[{i}].relation"] = f"Familiar {i + 1}: informe o parentesco."
        if (member.cpf or "").strip():
            _try(errors, f"household[{i}].cpf", clean_cpf, member.cpf)
        if member.birth_date is not None and member.birth_date > today:
            errors[f"household[{i}].birth_date"] = f"Familiar {i + 1}: nascimento no futuro."
    if errors:
        raise FieldErrors(errors)
    return {
        "name": name,
        "cpf": cpf,
        "rg": (data.rg or "").strip(),
        "birth_date": data.birth_date,
        "street": data.street.strip(),
        "number": data.number.strip(),
        "district": data.district.strip(),
        "city": data.city.strip(),
        "state": state,
        "zip_code": zip_code,
        "phone": data.phone.strip(),
        "phone2": data.phone2.strip(),
        "email": data.email.strip(),
        "resident_since": data.resident_since,
        "disabled": bool(data.disabled),
        "disability_notes": data.disability_notes.strip(),
        "family_income_mw": income,
        "housing": data.housing,
        "experience_years": data.experience_years,
        "search_name": search_key(name)[: Person.search_name.max_length],  # "ﬁ" searches as "fi": it may grow
    }


def _update_versioned(model, row, values: dict):
    """Write ``values`` over ``row`` only if nobody changed it since it was read (optimistic locking)."""
    update_versioned(
        row,
        "Este cadastro foi alterado por outra pessoa enquanto você editava; reabra-o para ver a versão atual.",
        **values,
    )
    return model.get_by_id(row.id)


def save_person(data: PersonInput, *, person: Person | None = None, today: _dt.date | None = None) -> Person:
    """Create or update a person and their household in one transaction.

    Updating checks the row's ``version`` (optimistic locking): a copy edited
    by someone else meanwhile is refused, never silently overwritten.
    """
    require("people.save")
    today = today or _dt.date.today()
    values = validate_person(data, today=today)
    clash = Person.get_or_none((Person.cpf == values["cpf"]) & (Person.id != (person.id if person else -1)))
    if clash is not None:
        raise FieldErrors({"cpf": f"CPF já cadastrado para {clash.name}."})
    try:
        return write_person(data, values, person)
    except IntegrityError:  # another desk saved this CPF after the check above: the unique index caught it
        clash = Person.get_or_none((Person.cpf == values["cpf"]) & (Person.id != (person.id if person else -1)))
        if clash is None:
            raise
        raise FieldErrors(
            {"cpf": f"CPF acabou de ser cadastrado em outra mesa, para {clash.name}; nada foi gravado."}
        ) from None


def write_person(data: PersonInput, values: dict, person: Person | None) -> Person:
    """Write a person from ``values`` already checked (:func:`validate_person`) and their household — one
    transaction; the CPF's uniqueness is the caller's to check (:func:`save_person`, the importer)."""
    from models.store.files import keep_file

    with db.atomic():
        if data.photo_file:
            kept = keep_file(data.photo_file, "photos")
            values["photo_path"], values["photo_sha256"] = kept.path, kept.sha256
        if person is None:
            person = Person.create(**values)
        else:
            person = _update_versioned(Person, person, values)
            HouseholdMember.delete().where(HouseholdMember.person == person).execute()
        for member in data.household:
            HouseholdMember.create(
                person=person,
                name=" ".join(member.name.split()),
                relation=member.relation,
                cpf=clean_cpf(member.cpf) if member.cpf.strip() else "",
                birth_date=member.birth_date,
                disabled=member.disabled,
            )
    return person


def validate_company(data: CompanyInput) -> dict:
    errors = control_errors(data)  # as typed (see validate_person)
    if errors:
        raise FieldErrors(errors)
    cnpj = _try(errors, "cnpj", clean_cnpj, data.cnpj)
    legal = " ".join((data.legal_name or "").split())
    if not legal:
        errors["legal_name"] = "Informe a razão social."
    state = _check_state(errors, data.state)
    zip_code = _check_zip(errors, data.zip_code)
    _check_email(errors, (data.email or "").strip())
    for i, partner in enumerate(data.partners):
        if not (partner.name or "").strip():
            errors[f"partners[{i}].name"] = f"Sócio {i + 1}: informe o nome."
        if (partner.cpf or "").strip():
            _try(errors, f"partners[{i}].cpf", clean_cpf, partner.cpf)
        if (partner.spouse_cpf or "").strip():
            _try(errors, f"partners[{i}].spouse_cpf", clean_cpf, partner.spouse_cpf)
    if errors:
        raise FieldErrors(errors)
    trade = " ".join((data.trade_name or "").split())
    return {
        "cnpj": cnpj,
        "legal_name": legal,
        "trade_name": trade,
        "mei": bool(data.mei),
        "municipal_registration": data.municipal_registration.strip(),
        "street": data.street.strip(),
        "number": data.number.strip(),
        "district": data.district.strip(),
        "city": data.city.strip(),
        "state": state,
        "zip_code": zip_code,
        "phone": data.phone.strip(),
        "email": data.email.strip(),
        "search_name": search_key(f"{legal} {trade}")[: Company.search_name.max_length],
    }


def save_company(data: CompanyInput, *, company: Company | None = None) -> Company:
    """Create or update a company and its partners in one transaction (optimistic locking on update)."""
    require("people.save")
    values = validate_company(data)
    clash = Company.get_or_none((Company.cnpj == values["cnpj"]) & (Company.id != (company.id if company else -1)))
    if clash is not None:
        raise FieldErrors({"cnpj": f"CNPJ já cadastrado para {clash.legal_name}."})
    try:
        return write_company(data, values, company)
    except IntegrityError:  # another desk saved this CNPJ after the check above
        clash = Company.get_or_none((Company.cnpj == values["cnpj"]) & (Company.id != (company.id if company else -1)))
        if clash is None:
            raise
        raise FieldErrors(
            {"cnpj": f"CNPJ acabou de ser cadastrado em outra mesa, para {clash.legal_name}; nada foi gravado."}
        ) from None


def write_company(data: CompanyInput, values: dict, company: Company | None) -> Company:
    """Write a company from ``values`` already checked (:func:`validate_company`) and its partners — one
    transaction; the CNPJ's uniqueness is the caller's to check (:func:`save_company`, the importer)."""
    with db.atomic():
        if company is None:
            company = Company.create(**values)
        else:
            company = _update_versioned(Company, company, values)
            CompanyPartner.delete().where(CompanyPartner.company == company).execute()
        for partner in data.partners:
            cpf = clean_cpf(partner.cpf) if partner.cpf.strip() else ""
            CompanyPartner.create(
                company=company,
                name=" ".join(partner.name.split()),
                cpf=cpf,
                person=Person.get_or_none(Person.cpf == cpf) if cpf else None,
                spouse_name=" ".join(partner.spouse_name.split()),
                spouse_cpf=clean_cpf(partner.spouse_cpf) if partner.spouse_cpf.strip() else "",
            )
    return company


def age_on(birth: _dt.date, day: _dt.date) -> int:
    """Completed years on ``day``."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))
