"""Numbers and dates as people type them in Brazil (issue 18 §3): one reader for every money and measure field,
strict pt-BR, an ambiguous entry refused with its readings; a date that does not exist said as such."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.base.br import calendar_problem, parse_br_date
from models.base.errors import UserError
from models.base.money import format_brl, format_decimal_br, parse_typed

amounts = st.decimals(
    min_value=Decimal("0"), max_value=Decimal("99999999.99"), places=2, allow_nan=False, allow_infinity=False
)


@given(amounts)
def test_what_praca_prints_reads_back_as_the_same_number(value):
    assert parse_typed(format_decimal_br(value)) == value
    assert parse_typed(format_brl(value)) == value
    assert parse_typed(format_brl(value, nbsp=True)) == value
    assert parse_typed("-" + format_decimal_br(value)) == -value


@given(
    st.integers(min_value=1, max_value=999), st.lists(st.integers(min_value=0, max_value=999), min_size=1, max_size=3)
)
def test_dots_in_threes_are_thousands(head, groups):
    text = str(head) + "".join(f".{g:03d}" for g in groups)
    assert parse_typed(text) == int(text.replace(".", ""))


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=99))
def test_a_dot_before_one_or_two_digits_is_refused_with_both_readings(whole, cents):
    text = f"{whole}.{cents:0{2 if cents > 9 else 1}d}"
    with pytest.raises(UserError) as err:
        parse_typed(text, what="Valor")
    assert "pode ser lido de duas formas" in err.value.message
    assert format_decimal_br(Decimal(text), places=len(text.split(".")[1]), group=True) in err.value.message


@given(st.text(max_size=12))
def test_any_text_is_a_number_or_one_clear_refusal(text):
    try:
        value = parse_typed(text)
    except UserError as exc:
        assert exc.message and "\n" not in exc.message
    else:
        assert isinstance(value, Decimal) and value.is_finite()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1.500", Decimal("1500")),
        ("1.500,00", Decimal("1500.00")),
        ("1,5", Decimal("1.5")),
        ("R$ 1.234,56", Decimal("1234.56")),
        ("12.345.678,9", Decimal("12345678.9")),
        (",5", Decimal("0.5")),
        ("-3", Decimal("-3")),
        ("4,004", Decimal("4.004")),
    ],
)
def test_brazilian_entries(text, expected):
    assert parse_typed(text) == expected


@pytest.mark.parametrize(
    "text, said",
    [
        ("1.50", "pode ser lido de duas formas"),
        ("2.5", "escreva 2,5"),
        ("1,500.00", "formato inglês; escreva 1.500,00"),
        ("12,3,4", "não é um número"),
        ("1.5000", "duas formas"),
    ],
)
def test_refused_entries_say_why(text, said):
    with pytest.raises(UserError) as err:
        parse_typed(text)
    assert said in err.value.message


@given(st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31)))
def test_every_day_of_the_calendar_reads_back(day):
    assert parse_br_date(day.strftime("%d/%m/") + f"{day.year:04d}") == day


@pytest.mark.parametrize(
    "text, said",
    [
        ("31/02/1985", "31/02/1985 não existe — fevereiro de 1985 não tem dia 31"),
        ("29/02/2023", "fevereiro de 2023 não tem dia 29"),
        ("10/13/2020", "não existe o mês 13"),
        ("31-02-1985", "use dd/mm/aaaa"),
    ],
)
def test_a_date_that_does_not_exist_is_said_as_such(text, said):
    with pytest.raises(UserError) as err:
        parse_br_date(text)
    assert said in err.value.message
    assert calendar_problem(2024, 2, 29) is None


def test_the_date_field_says_the_date_does_not_exist(app_ready, qtbot):
    from conftest import type_text

    from views.widgets import DateEdit

    edit = DateEdit()
    qtbot.addWidget(edit)
    type_text(edit, "31021985")
    with pytest.raises(UserError) as err:
        edit.date()
    assert "fevereiro de 1985 não tem dia 31" in err.value.message
