"""Bad input everywhere: every form's fields and every domain function that takes what a clerk types.

Property (hypothesis): a valid input with some of its fields replaced by
anything — empty, blanks, control characters, NUL, emoji, other scripts' digits,
texts longer than the column, numbers with a thousand digits, impossible dates
— is either saved, or refused with ``UserError``/``FieldErrors`` whose every
message is one non-empty line; and a refusal stores nothing (the row counts and
the counters are as they were). Nothing else may come out: no ``ValueError``,
no database error. Each example runs inside a transaction rolled back at its
end, on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL (where a text longer
than its column or a NUL character is an error of the server).

The command line (``quote``, ``penalty``, ``deadline``, ``draw``, ``report``)
gets random arguments: exit 0 or 2, never a traceback, and a refusal is one
line on stderr. The person form gets random text typed into its fields and
Salvar pressed: no crash, and either a saved person or a message at the field.
``models.services.importer.check_row`` has its own property in tests/test_importer.py.

The example counts are modest for ``make test``; ``BAD_N`` (database
properties), ``BAD_CLI_N`` and ``BAD_FORM_N`` raise them for a longer hunt,
e.g. ``BAD_N=300 BAD_CLI_N=1000 pytest tests/test_bad_input.py``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
from decimal import Decimal

import pytest
from factories import open_new_database
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from models.base.br import cnpj_check_digits, cpf_check_digits
from models.base.errors import FieldErrors, UserError

TODAY = dt.date(2026, 11, 30)
DB_SETTINGS = settings(
    max_examples=int(os.environ.get("BAD_N", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
CPF = "529" + "982" + "247" + cpf_check_digits("529982247")
CNPJ = "11222333" + "0001" + cnpj_check_digits("112223330001")

NASTY = [
    "",
    " ",
    "   \t ",
    "\x00",
    "Maria\x00José",
    "\n",
    "José\nda Silva",
    "\r\n",
    "\u200b",
    "\ufeff",
    "😀 🍢",
    "𝟘𝟙𝟚",  # noqa: RUF001 - digits of other scripts, typed on purpose: they must be refused
    "٣٤٥",
    "１２３",  # noqa: RUF001 - digits of other scripts, typed on purpose: they must be refused
    "ﬁ" * 150,
    "'; DROP TABLE person; --",
    "%s %d {0}",
    "\\",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "1E+30",
    "-0",
    "0",
    "-1",
    "9" * 40,
    "1.234,56",
    "1,2,3",
    "R$ 1,00",
    "-R$ 5",
    "0,001",
    ",",
    ".",
    "31/02/2026",
    "2026-02-30",
    "00/00/0000",
    "99/99/9999",
    "25:61",
    "24:00",
    "16h",
    "529.982.247-25",
    "111.111.111-11",
    "00.000.000/0001-91",
    "12.ABC.345/01DE-35",
    "a@b",
    "a@b.c",
    "@",
    " x@y.z ",
    "a@b.c\nd",
    "SP",
    "sp",
    "ZZZ",
    "15400-000",
    "x" * 201,
    "Ç" * 401,
    "José da Silva " * 20,
    "²",
    "2026/²",
    "2026-0²",
    "2026/99999999999999",
    "99999999999999999999",
    "2026/00001",
    "٢٠٢٦/٠٠٠٠١",  # noqa: RUF001 - digits of other scripts, typed on purpose: they must be refused
    "1540000²",
]
TEXT = st.one_of(st.sampled_from(NASTY), st.text(max_size=25), st.text(min_size=150, max_size=420))
DATE = st.one_of(st.dates(), st.sampled_from([TODAY, dt.date(1, 1, 1), dt.date(9999, 12, 31)]))
MAYBE_DATE = st.one_of(st.none(), DATE)
AMOUNT = st.one_of(
    TEXT,
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([Decimal("150.00"), Decimal("0.001"), Decimal("1E+40"), Decimal("-0")]),
)
SMALL_INT = st.one_of(
    st.none(), st.integers(), st.integers(min_value=-5, max_value=100), st.sampled_from([2**31, 2**63, -(2**31) - 1])
)


@st.composite
def mutated(draw, base: dict, fields: dict, most: int = 3) -> dict:
    """``base`` (a valid input) with up to ``most`` of ``fields`` replaced by what their strategies draw."""
    names = draw(st.lists(st.sampled_from(sorted(fields)), max_size=most, unique=True))
    values = dict(base)
    for name in names:
        values[name] = draw(fields[name])
    return values


def clean_refusal(exc: BaseException) -> None:
    """A refusal the clerk can read: ``UserError``, every message one non-empty line."""
    assert isinstance(exc, UserError), f"{type(exc).__name__}: {exc}"
    messages = list(exc.errors.values()) if isinstance(exc, FieldErrors) else [exc.message]
    for message in messages:
        assert isinstance(message, str) and message.strip(), repr(message)
        assert len(message.splitlines()) == 1 and "\x00" not in message, repr(message)
        assert "Traceback" not in message, message


def snapshot(models) -> tuple:
    from models.registry.applications import Counter

    return (
        tuple(m.select().count() for m in models),
        tuple(sorted(Counter.select(Counter.name, Counter.value).tuples())),
    )


def attempt(models, call):
    """``call()`` either succeeds (its result) or is refused cleanly with nothing stored (``None``)."""
    before = snapshot(models)
    try:
        result = call()
    except Exception as exc:  # anything but a clean refusal fails below
        clean_refusal(exc)
        assert snapshot(models) == before, "a refused input left rows behind"
        event("refused")
        return None
    event("saved")
    return result


@contextlib.contextmanager
def rolled_back():
    """One example's changes, undone at its end (the next example starts from the same database)."""
    from models.store.db import db

    with db.atomic() as txn:
        try:
            yield
        finally:
            txn.rollback()


# --------------------------------------------------------------------------- people and companies


PERSON = dict(
    name="Maria José da Silva",
    cpf="529.982.247-25",
    rg="12.345.678-9",
    birth_date=dt.date(1980, 5, 17),
    street="Rua Sete de Setembro",
    number="120",
    district="Centro",
    city="Olímpia",
    state="SP",
    zip_code="15400-000",
    phone="(17) 99999-0000",
    phone2="",
    email="maria@exemplo.com.br",
    resident_since=dt.date(2001, 1, 1),
    disabled=False,
    disability_notes="",
    family_income_mw="1,5",
    housing="rented",
    experience_years=4,
    household=[],
)


def _household():
    from models.registry.people import RELATIONS, HouseholdInput

    return st.lists(
        st.builds(
            HouseholdInput,
            name=TEXT,
            relation=st.one_of(st.sampled_from(sorted(RELATIONS)), TEXT),
            cpf=st.one_of(st.just(""), st.just("111.444.777-35"), TEXT),
            birth_date=MAYBE_DATE,
            disabled=st.booleans(),
        ),
        max_size=2,
    )


PERSON_FIELDS = {
    **{
        k: TEXT
        for k in (
            "name",
            "cpf",
            "rg",
            "street",
            "number",
            "district",
            "city",
            "state",
            "zip_code",
            "phone",
            "phone2",
            "email",
            "disability_notes",
            "family_income_mw",
            "housing",
        )
    },
    "birth_date": MAYBE_DATE,
    "resident_since": MAYBE_DATE,
    "experience_years": SMALL_INT,
    "disabled": st.booleans(),
    "household": _household(),
}


@DB_SETTINGS
@given(values=mutated(PERSON, PERSON_FIELDS), edit=st.booleans())
def test_save_person_takes_anything(database, values, edit):
    from models.registry.people import HouseholdMember, Person, PersonInput, save_person

    with rolled_back():
        existing = None
        if edit:
            existing = save_person(
                PersonInput(**dict(PERSON, cpf="111.444.777-35", name="Outra Pessoa Qualquer")), today=TODAY
            )
        saved = attempt(
            [Person, HouseholdMember], lambda: save_person(PersonInput(**values), person=existing, today=TODAY)
        )
        if saved is None and existing is not None:
            assert Person.get_by_id(existing.id).version == existing.version  # not changed half-way
        if saved is not None:  # what was kept is clean
            again = Person.get_by_id(saved.id)
            assert again.name.strip() and len(again.cpf) == 11 and again.cpf.isascii() and again.cpf.isdigit()
            assert again.email == "" or (again.email.isprintable() and "@" in again.email)
            assert again.state == "" or (again.state.isascii() and again.state.isalpha() and len(again.state) == 2)
            assert again.zip_code == "" or (
                again.zip_code.isascii() and again.zip_code.isdigit() and len(again.zip_code) == 8
            )


def test_what_a_column_cannot_hold_is_refused_at_its_field_on_both_back_ends(database):
    """SQLite would keep a street of 201 characters or a NUL; PostgreSQL would fail with a server error. Both say
    it in one line at the field, and nothing is stored."""
    from models.registry.people import Person, PersonInput, save_person
    from models.registry.search import find_applicants

    for changes, field in (
        (dict(street="x" * 201), "street"),
        (dict(number="9" * 21), "number"),
        (dict(name="Maria\x00José da Silva"), "name"),
        (dict(family_income_mw="9" * 25), "family_income_mw"),
    ):
        with pytest.raises(FieldErrors) as err:
            save_person(PersonInput(**dict(PERSON, **changes)), today=TODAY)
        assert field in err.value.errors, err.value.errors
        clean_refusal(err.value)
    assert Person.select().count() == 0
    try:  # a lookup with a NUL: nothing found, or one line — never the driver's ValueError
        assert find_applicants("Maria\x00") == []
    except UserError as exc:
        clean_refusal(exc)


COMPANY = dict(
    cnpj="11.222.333/0001-81",
    legal_name="Pastel da Maria Ltda",
    trade_name="Pastel da Maria",
    mei=False,
    municipal_registration="12345",
    street="Rua A",
    number="1",
    district="Centro",
    city="Olímpia",
    state="SP",
    zip_code="15400-000",
    phone="(17) 3333-0000",
    email="pastel@exemplo.com",
    partners=[],
)


def _partners():
    from models.registry.people import PartnerInput

    return st.lists(
        st.builds(
            PartnerInput,
            name=TEXT,
            cpf=st.one_of(st.just(""), st.just(CPF), TEXT),
            spouse_name=TEXT,
            spouse_cpf=st.one_of(st.just(""), TEXT),
        ),
        max_size=2,
    )


COMPANY_FIELDS = {
    **{
        k: TEXT
        for k in (
            "cnpj",
            "legal_name",
            "trade_name",
            "municipal_registration",
            "street",
            "number",
            "district",
            "city",
            "state",
            "zip_code",
            "phone",
            "email",
        )
    },
    "mei": st.booleans(),
    "partners": _partners(),
}


@DB_SETTINGS
@given(values=mutated(dict(COMPANY, cnpj=CNPJ), COMPANY_FIELDS))
def test_save_company_takes_anything(database, values):
    from models.registry.people import Company, CompanyInput, CompanyPartner, save_company

    with rolled_back():
        attempt([Company, CompanyPartner], lambda: save_company(CompanyInput(**values)))


# --------------------------------------------------------------------------- applications


def _regime_ids() -> list[str]:
    from models.rules.regimes import shipped_regimes

    return sorted(shipped_regimes())


def _ids(kind: str) -> list[str]:
    from models.rules.regimes import shipped_regimes

    return sorted({i for r in shipped_regimes().values() for i in r.ids(kind)})


def _application_fields():
    from models.registry.applications import DocumentInput

    documents = st.lists(
        st.builds(
            DocumentInput,
            document=st.one_of(st.sampled_from(_ids("document")), TEXT),
            delivered_on=MAYBE_DATE,
            valid_until=MAYBE_DATE,
        ),
        max_size=2,
    )
    return {
        "regime": st.one_of(st.sampled_from(_regime_ids()), TEXT),
        "permit_kind": st.one_of(st.sampled_from(_ids("permit_kind")), TEXT),
        **{k: st.one_of(st.sampled_from(_ids(k)), TEXT) for k in ("line", "group", "section", "equipment")},
        **{k: TEXT for k in ("site", "front", "depth", "hitch", "power_kw", "notes")},
        "electric": st.booleans(),
        "gas": st.booleans(),
        "sound": st.booleans(),
        "applicant": st.sampled_from(["person", "company", "both", "none", "gone"]),
        "documents": documents,
    }


APPLICATION = dict(
    regime="sapezal-2014",
    permit_kind="ponto-fixo",
    line="bebidas",
    group="g03",
    section="",
    site="Praça da Matriz",
    equipment="barraca",
    front="2,00",
    depth="1,50",
    hitch="",
    power_kw="",
    notes="",
    electric=False,
    gas=False,
    sound=False,
    applicant="person",
    documents=[],
)


@DB_SETTINGS
@given(data=st.data())
def test_create_application_takes_anything(database, data):
    from models.registry.applications import Application, ApplicationDocument, ApplicationEvent, ApplicationInput
    from models.registry.people import CompanyInput, PersonInput, save_company, save_person
    from models.services.filing import create_application

    values = data.draw(mutated(APPLICATION, _application_fields()))
    with rolled_back():
        person = save_person(PersonInput(**PERSON), today=TODAY)
        company = save_company(CompanyInput(**dict(COMPANY, cnpj=CNPJ)))
        who = values.pop("applicant")
        values["person_id"] = {"person": person.id, "both": person.id, "gone": person.id + 1000}.get(who)
        values["company_id"] = {"company": company.id, "both": company.id}.get(who)
        attempt(
            [Application, ApplicationDocument, ApplicationEvent],
            lambda: create_application(ApplicationInput(**values), clerk="ana.souza", today=TODAY),
        )


# --------------------------------------------------------------------------- charges and payments


def _debtor():
    from models.registry.people import PersonInput, save_person

    return save_person(PersonInput(**PERSON), today=TODAY)


CHARGE = dict(
    kind="other",
    regime="olimpia-2025",
    label="Preço público — TPU",
    amount="150,00",
    due_on=TODAY,
    basis="LC 324/2025, art. 178",
    by="tesouraria",
    formula="",
    source="",
    key=None,
)


@DB_SETTINGS
@given(data=st.data())
def test_create_charge_takes_anything(database, data):
    from models.billing.charges import KINDS, Charge, create_charge

    values = data.draw(
        mutated(
            CHARGE,
            {
                "kind": st.one_of(st.sampled_from(sorted(KINDS)), TEXT),
                "regime": st.one_of(st.sampled_from(_regime_ids()), TEXT),
                "label": TEXT,
                "amount": AMOUNT,
                "due_on": MAYBE_DATE,
                "basis": TEXT,
                "by": TEXT,
                "formula": TEXT,
                "source": TEXT,
                "key": st.one_of(st.none(), TEXT),
            },
        )
    )
    with rolled_back():
        debtor = _debtor()
        attempt([Charge], lambda: create_charge(**values, person_id=debtor.id, today=TODAY))


@DB_SETTINGS
@given(
    values=mutated(
        dict(paid_on=TODAY, amount="150,00", reference="34191.79001 01043", by="tesouraria", note=""),
        {"paid_on": MAYBE_DATE, "amount": AMOUNT, "reference": TEXT, "by": TEXT, "note": TEXT},
    )
)
def test_record_payment_takes_anything(database, values):
    from models.billing.charges import Charge, Payment, create_charge, record_payment

    with rolled_back():
        charge = create_charge(**CHARGE, person_id=_debtor().id, today=TODAY)
        paid = attempt([Payment], lambda: record_payment(charge, **values, today=TODAY))
        stored = Charge.get_by_id(charge.id)
        if paid is None:
            assert stored.paid_total == 0 and stored.version == 1
        else:
            assert stored.paid_total == paid.amount > 0


# --------------------------------------------------------------------------- permits


@DB_SETTINGS
@given(
    values=mutated(
        dict(
            start=dt.date(2026, 6, 1),
            end=dt.date(2026, 6, 15),
            substitute_name="",
            substitute_cpf="",
            by="ana.souza",
            reason="descanso anual",
        ),
        {
            "start": DATE,
            "end": DATE,
            "substitute_name": TEXT,
            "substitute_cpf": st.one_of(st.just(CPF), TEXT),
            "by": TEXT,
            "reason": TEXT,
        },
    )
)
def test_grant_leave_takes_anything(database, values):
    from factories import site_permit as make_permit

    from models.permits import Permit, PermitEvent, grant_leave

    with rolled_back():
        permit = make_permit()
        attempt([PermitEvent], lambda: grant_leave(permit, **values, today=dt.date(2026, 3, 2)))
        assert Permit.get_by_id(permit.id).status == "active"


@DB_SETTINGS
@given(
    values=mutated(
        dict(by="chefe.fiscalizacao", reason="Infração do art. 25", until=None),
        {"by": TEXT, "reason": TEXT, "until": MAYBE_DATE},
    )
)
def test_suspend_takes_anything(database, values):
    from factories import site_permit as make_permit

    from models.permits import Permit, PermitEvent, suspend

    with rolled_back():
        permit = make_permit()
        done = attempt([PermitEvent], lambda: suspend(permit, **values, today=TODAY))
        assert Permit.get_by_id(permit.id).status == ("active" if done is None else "suspended")


# --------------------------------------------------------------------------- sites


def _site_fields():
    from models.rules.regimes import WEEKDAYS
    from models.sites import SITE_KINDS, ObstacleInput, PointInput, SegmentInput
    from models.sites.layout import NUMBERING, OBSTACLE_KINDS

    obstacles = st.lists(
        st.builds(
            ObstacleInput,
            kind=st.one_of(st.sampled_from(sorted(OBSTACLE_KINDS)), TEXT),
            side=st.one_of(st.sampled_from(["a", "b", "both"]), TEXT),
            start=TEXT,
            extent=TEXT,
            label=TEXT,
        ),
        max_size=2,
    )
    segments = st.lists(
        st.builds(
            SegmentInput,
            street=TEXT,
            from_street=TEXT,
            to_street=TEXT,
            length=st.one_of(st.just("200,00"), TEXT),
            width=st.one_of(st.just("10"), TEXT),
            sides=st.one_of(st.sampled_from(["one", "both"]), TEXT),
            obstacles=obstacles,
        ),
        max_size=2,
    )
    points = st.lists(
        st.builds(
            PointInput,
            code=TEXT,
            label=TEXT,
            description=TEXT,
            regime_site=TEXT,
            basis=TEXT,
            x=st.one_of(st.none(), TEXT),
            side=TEXT,
        ),
        max_size=2,
    )
    hour = st.one_of(st.none(), st.sampled_from(["16:00", "7h", "0730"]), TEXT)
    return {
        "name": TEXT,
        "kind": st.one_of(st.sampled_from(sorted(SITE_KINDS)), TEXT),
        "regime": st.one_of(st.sampled_from(_regime_ids()), TEXT),
        "regime_site": TEXT,
        "schedule": TEXT,
        "weekdays": st.lists(st.one_of(st.sampled_from(WEEKDAYS), TEXT), max_size=3),
        **{k: hour for k in ("setup_from", "setup_to", "opens", "closes", "teardown_from", "teardown_to")},
        "first_day": st.one_of(MAYBE_DATE, TEXT),
        "last_day": st.one_of(MAYBE_DATE, TEXT),
        "max_points": st.one_of(SMALL_INT, TEXT),
        "numbering": st.one_of(st.sampled_from(sorted(NUMBERING)), TEXT),
        "gap": st.one_of(st.none(), TEXT),
        "avoid": st.lists(st.one_of(st.sampled_from(sorted(OBSTACLE_KINDS)), TEXT), max_size=2),
        "notes": TEXT,
        "segments": segments,
        "points": points,
    }


SITE = dict(
    name="Feira do Teste",
    kind="feira",
    regime="sjc-2014",
    weekdays=("fri",),
    setup_from="16:00",
    setup_to="17:00",
    opens="18:00",
    closes="22:00",
    teardown_from="22:00",
    teardown_to="23:00",
)


@DB_SETTINGS
@given(data=st.data())
def test_save_site_takes_anything(database, data):
    from models.sites import NamedPoint, SegmentInput, Site, SiteInput, SiteObstacle, SiteSegment, save_site

    base = dict(SITE, segments=[SegmentInput(street="Avenida Andrômeda", length="200,00", width="10")])
    values = data.draw(mutated(base, _site_fields(), most=4))
    with rolled_back():
        attempt([Site, SiteSegment, SiteObstacle, NamedPoint], lambda: save_site(SiteInput(**values)))


# --------------------------------------------------------------------------- enforcement


def _record_fields():
    from models import enforcement as enf

    at = st.one_of(st.none(), st.datetimes(), st.just(dt.datetime(2026, 3, 2, 9, 30)))
    return {
        "kind": st.one_of(st.sampled_from(sorted(enf.KINDS)), TEXT),
        "regime": st.one_of(st.sampled_from(_regime_ids()), TEXT),
        "at": at,
        "notified_at": at,
        **{
            k: TEXT
            for k in (
                "place",
                "facts",
                "unknown_name",
                "unknown_description",
                "offender_document",
                "offender_address",
                "permit_number",
                "scope",
                "signature_note",
                "inspector",
                "inspector_id",
                "depot",
                "step_reason",
                "reason",
            )
        },
        "infractions": st.lists(st.one_of(st.sampled_from(_ids("infraction")), TEXT), max_size=3),
        "witnesses": st.lists(st.builds(enf.Witness, name=TEXT, document=TEXT), max_size=2),
        "signature": st.one_of(st.sampled_from(sorted(enf.SIGNATURES)), TEXT),
        "items": st.lists(
            st.builds(
                enf.ItemInput,
                description=TEXT,
                quantity=st.one_of(TEXT, st.integers(), st.decimals(allow_nan=True)),
                unit=TEXT,
                perishable=st.booleans(),
            ),
            max_size=2,
        ),
        "step": SMALL_INT,
        "payment_due": MAYBE_DATE,
        "relation": st.one_of(st.just(""), st.sampled_from(sorted(enf.RELATIONS)), TEXT),
        "identified": st.booleans(),
    }


RECORD = dict(
    kind="infraction",
    regime="olimpia-2025",
    at=dt.datetime(2026, 3, 2, 9, 30),
    place="Praça da Matriz, em frente ao nº 120",
    facts="Constatado pelo agente no local, durante a fiscalização de rotina.",
    infractions=["tpu-area-suja"],
    inspector="Marcos Fiscal",
    inspector_id="4521",
    identified=True,
)


@DB_SETTINGS
@given(data=st.data())
def test_issue_record_takes_anything(database, data):
    from models import enforcement as enf
    from models.billing.charges import Charge

    values = data.draw(mutated(RECORD, _record_fields(), most=4))
    with rolled_back():
        offender = _debtor()
        if values.pop("identified"):
            values["person_id"] = offender.id
        attempt(
            [enf.Record, enf.RecordEvent, enf.SeizedItem, enf.RecordCharge, Charge],
            lambda: enf.issue_record(enf.RecordDraft(**values), by="fiscal.marcos", today=dt.date(2026, 3, 2)),
        )


# --------------------------------------------------------------------------- what is typed in a search box


@DB_SETTINGS
@given(text=TEXT)
def test_lookups_take_anything(database, text):
    """Search boxes and number fields: a list (maybe empty), or a refusal — never an error of the database."""
    from models import enforcement as enf
    from models.access.users import authenticate
    from models.billing.charges import charge_rows, parse_month
    from models.permits import find_permit, permit_rows
    from models.registry.search import find_applicants
    from models.sites import find_site

    with rolled_back():
        _debtor()
        for lookup in (
            lambda: find_applicants(text),
            lambda: find_permit(text),
            lambda: find_site(text),
            lambda: enf.permit_label(text),
            lambda: charge_rows(text=text),
            lambda: enf.record_rows(text=text),
            lambda: permit_rows(text=text, today=TODAY),
            lambda: parse_month(text),
            lambda: authenticate(text, text),
        ):
            attempt([], lookup)


# --------------------------------------------------------------------------- users


@DB_SETTINGS
@given(
    values=mutated(
        dict(username="ana.souza", name="Ana Souza", role="atendente", password="praca2026", confirm="praca2026"),
        {
            "username": TEXT,
            "name": TEXT,
            "role": st.one_of(st.sampled_from(["atendente", "fiscal", "chefe", "administrador"]), TEXT),
            "password": TEXT,
            "confirm": st.one_of(st.none(), TEXT),
        },
    )
)
def test_create_user_takes_anything(database, values):
    from models.access.users import User, create_user

    with rolled_back():
        User.create(username="admin", name="Administrador", role="administrador", password_hash="scrypt$x")
        attempt([User], lambda: create_user(**values))


# --------------------------------------------------------------------------- the command line


# A valid call of each command; the property replaces or leaves out some of its values and adds others.
BASE = {
    "quote": {"--regime": "sao-bento-2026", "--equipment": "trailer", "--front": "4", "--depth": "3"},
    "penalty": {"--regime": "olimpia-2025", "--infraction": "ambulante-sem-autorizacao", "--date": "02/03/2026"},
    "deadline": {"--regime": "olimpia-2025", "--kind": "reclaim-perishable", "--from": "02/04/2026"},
    "draw": {"--regime": "sapezal-2014", "--input": "entrada.csv", "--vacancies": "2", "--seed": "12345"},
    "report fees": {"--month": "2026-03", "--format": "html", "--out": "taxas.html"},
    "report sanctions": {"--from": "01/01/2026", "--to": "31/03/2026", "--format": "html", "--out": "sancoes.html"},
}
OPTIONS = {
    "quote": [
        "--regime",
        "--equipment",
        "--line",
        "--front",
        "--depth",
        "--hitch",
        "--area",
        "--energy",
        "--days",
        "--venue",
        "--year",
        "--fee",
        "--permit-kind",
        "--admin-value",
    ],
    "penalty": ["--regime", "--infraction", "--prior", "--year", "--date"],
    "deadline": ["--regime", "--kind", "--from", "--holiday"],
    "draw": ["--regime", "--input", "--vacancies", "--seed", "--alternates", "--events"],
    "report fees": ["--month", "--format", "--out", "--as-of"],
    "report sanctions": ["--from", "--to", "--format", "--out", "--as-of"],
}
FLAGS = {
    "quote": ["--mei", "--local", "--json"],
    "penalty": ["--json"],
    "deadline": ["--json"],
    "draw": ["--json", "--list-only"],
    "report fees": ["--help"],
    "report sanctions": ["--help"],
}
GOOD = [
    "sjc-2014",
    "olimpia-2025",
    "sao-bento-2026",
    "sapezal-2014",
    "ilha-comprida-2017",
    "pastel",
    "trailer",
    "4",
    "4,00",
    "2026",
    "2026-03",
    "03/2026",
    "30/11/2026",
    "2026-11-30",
    "3",
    "xlsx",
    "html",
    "pdf",
    "geral-sem-penalidade",
    "tpu-area-suja",
    "reclaim-perishable",
    "seed-123",
    "g01=3,g02=2",
    "feirante",
    "ambulante-sem-autorizacao",
    "entrada.csv",
    "saida.pdf",
    "nao/existe/saida.xlsx",
    ".",
]
ARG = st.one_of(
    st.sampled_from(GOOD),
    st.text(max_size=20).filter(lambda t: "\x00" not in t and "/" not in t),
    st.sampled_from([n for n in NASTY if "\x00" not in n and "/" not in n]),
)


@st.composite
def argv(draw):
    command = draw(st.sampled_from(sorted(BASE)))
    options = dict(BASE[command])
    for name in draw(st.lists(st.sampled_from(OPTIONS[command]), max_size=2, unique=True)):
        options[name] = draw(st.one_of(ARG, st.none()))  # None: the option left out
    args = command.split()
    for name, value in options.items():
        if value is not None:
            args += [name, value]
    args += draw(st.lists(st.sampled_from(FLAGS[command]), max_size=2, unique=True))
    if draw(st.integers(0, 4)) == 0:
        args.append(draw(ARG))  # a stray word
    return args


@pytest.fixture(scope="module")
def cli_place(tmp_path_factory):
    """A folder to run in (every relative --out and --input lands there) and a database."""
    place = tmp_path_factory.mktemp("cli")
    (place / "entrada.csv").write_text("id,name,group\n1,Ana,g01\n2,Bia,g01\n3,Caio,g02\n", encoding="utf-8")
    from models.store.bootstrap import close_database

    open_new_database(f"sqlite:///{place / 'praca.sqlite3'}")  # as praca init makes it
    close_database()
    return place


@settings(
    max_examples=int(os.environ.get("BAD_CLI_N", "250")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(args=argv())
def test_cli_never_tracebacks(cli_place, monkeypatch, args):
    from desktop.cli import main

    monkeypatch.chdir(cli_place)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*args, "--db", f"sqlite:///{cli_place / 'praca.sqlite3'}"])
        except SystemExit as exc:  # argparse: a usage error (2) or --help (0)
            code = exc.code
    said = err.getvalue()
    event(f"{args[0]}: exit {code}")
    assert code in (0, 2), (args, code, said)
    assert "Traceback" not in said and "erro inesperado" not in said, (args, said)
    if code == 2:
        lines = said.splitlines()
        assert len(lines) == 1 and lines[0].startswith("praca") and lines[0].strip(), (args, said)


# --------------------------------------------------------------------------- the person form


KEYS = st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn"))  # what a keyboard (or a paste) types
FORM_TEXT = st.one_of(
    st.text(KEYS, max_size=12),
    st.sampled_from([n for n in NASTY if len(n) < 60 and n.isprintable()]),
    st.sampled_from(["x" * 201, "Ç" * 110]),
)


@settings(
    max_examples=int(os.environ.get("BAD_FORM_N", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    typed=st.dictionaries(
        st.sampled_from(
            [
                "name",
                "cpf",
                "rg",
                "birth_date",
                "street",
                "number",
                "district",
                "city",
                "state",
                "zip_code",
                "phone",
                "phone2",
                "email",
                "resident_since",
                "family_income_mw",
                "disability_notes",
            ]
        ),
        FORM_TEXT,
        min_size=1,
        max_size=5,
    )
)
def test_person_form_with_random_typing(app_ready, qtbot, database, typed):
    from conftest import type_text
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    from models.registry.people import HouseholdMember, Person
    from views.person_form import PersonDialog

    last = Person.select().order_by(Person.id.desc()).first()
    try:  # saved by a worker's connection (issue 27 §5): a transaction of this thread cannot undo it
        dialog = PersonDialog(today=TODAY)
        qtbot.addWidget(dialog)
        for key, value in {"name": "Maria José da Silva", "cpf": "52998224725", "birth_date": "17051980"}.items():
            type_text(dialog.findChild(QLineEdit, key), value)
        for key, text in typed.items():
            edit = dialog.findChild(QLineEdit, key)
            edit.selectAll()
            edit.del_()
            type_text(edit, text)
        before = snapshot([Person, HouseholdMember])
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        if dialog.result() == dialog.DialogCode.Accepted:
            event("saved")
            assert Person.select().count() == before[0][0] + 1
        else:
            event("refused at the field")
            assert snapshot([Person, HouseholdMember]) == before
            message = dialog.error.text()
            assert message.strip() and "\n" not in message
            marked = [w for w in dialog.errors.widgets.values() if w.toolTip()]
            assert marked, f"no field marked for: {message}"
        dialog.dirty = False
        dialog.close()
    finally:  # the next example starts from the same database
        Person.delete().where(Person.id > (last.id if last else 0)).execute()  # its household cascades
