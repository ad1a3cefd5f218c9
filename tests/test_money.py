"""models/base/money.py — Decimal money: parsing, HALF_UP rounding, centavos, pt-BR formatting."""

from decimal import Decimal

import pytest
from babel.numbers import format_currency
from hypothesis import given
from hypothesis import strategies as st

from models.base.errors import UserError
from models.base.money import (
    NBSP,
    format_brl,
    format_decimal_br,
    format_factor,
    from_centavos,
    quantize_places,
    round_cents,
    to_centavos,
    to_decimal,
)

D = Decimal

# amounts with any number of places, within what a town hall charges
amounts = st.decimals(
    min_value=D("-10000000"), max_value=D("10000000"), allow_nan=False, allow_infinity=False, places=None
)
cents_amounts = st.integers(min_value=-(10**11), max_value=10**11).map(lambda c: D(c).scaleb(-2))


# ---------------------------------------------------------------- to_decimal


@pytest.mark.parametrize(
    "text, expected",
    [
        ("5.50", D("5.50")),
        ("38.42", D("38.42")),
        ("5,50", D("5.50")),
        ("1.234,56", D("1234.56")),
        ("1234,5", D("1234.5")),
        ("R$ 1.234,56", D("1234.56")),
        (f"R${NBSP}124,87", D("124.87")),
        ("-R$ 10,00", D("-10.00")),
        ("  4 ", D("4")),
        ("1.000.000", D("1000000")),
        ("1.000", D("1.000")),  # one dot group: the regime files' decimal point
        ("0.82", D("0.82")),
    ],
)
def test_to_decimal_reads_dot_and_brazilian_comma(text, expected):
    assert to_decimal(text) == expected


def test_to_decimal_keeps_the_written_places():
    assert str(to_decimal("5.50")) == "5.50"
    assert str(to_decimal("5,50")) == "5.50"


def test_to_decimal_accepts_int_and_decimal():
    assert to_decimal(20) == D(20)
    assert to_decimal(D("1.5")) == D("1.5")


@pytest.mark.parametrize("bad", [5.5, 0.1, True, None, [1]])
def test_to_decimal_refuses_float_bool_and_others(bad):
    with pytest.raises(TypeError):
        to_decimal(bad)


@pytest.mark.parametrize("bad", ["abc", "1,2,3", "1.23.4,5,6", "", "R$", "NaN", "Infinity"])
def test_to_decimal_bad_text_is_a_user_error(bad):
    with pytest.raises(UserError):
        to_decimal(bad)


def test_to_decimal_refuses_nan_decimal():
    with pytest.raises(UserError):
        to_decimal(D("NaN"))


# ---------------------------------------------------------------- rounding


@pytest.mark.parametrize(
    "value, expected",
    [
        (D("124.865"), D("124.87")),  # Dec. 4.794/2026, art. 12, § 2º: 3,25 × 38,42 = 124,865 → 124,87
        (D("31.5044"), D("31.50")),  # art. 12, § 1º: 0,82 × 38,42
        (D("591.668"), D("591.67")),
        (D("0.005"), D("0.01")),
        (D("0.004999"), D("0.00")),
        (D("-0.005"), D("-0.01")),  # half away from zero
        (D("2.5"), D("2.50")),
        (7, D("7.00")),
    ],
)
def test_round_cents_is_half_up(value, expected):
    result = round_cents(value)
    assert result == expected
    assert result.as_tuple().exponent == -2


def test_quantize_places():
    assert quantize_places(D("1.25"), 1) == D("1.3")
    assert quantize_places(D("1.249"), 0) == D("1")
    with pytest.raises(ValueError):
        quantize_places(D("1"), -1)


@given(amounts)
def test_round_cents_always_two_places_and_within_half_cent(value):
    result = round_cents(value)
    assert result.as_tuple().exponent == -2
    assert abs(result - value) <= D("0.005")


# ---------------------------------------------------------------- centavos


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_centavos_round_trip_from_int(centavos):
    amount = from_centavos(centavos)
    assert amount.as_tuple().exponent == -2
    assert to_centavos(amount) == centavos


@given(cents_amounts)
def test_centavos_round_trip_from_decimal(amount):
    assert from_centavos(to_centavos(amount)) == amount


@given(amounts)
def test_to_centavos_rounds_half_up_once(value):
    assert to_centavos(value) == int(round_cents(value) * 100)


def test_centavos_examples():
    assert to_centavos(D("124.865")) == 12487
    assert to_centavos("1.234,56") == 123456
    assert from_centavos(76840) == D("768.40")
    assert str(from_centavos(5)) == "0.05"
    assert str(from_centavos(-150)) == "-1.50"


@pytest.mark.parametrize("bad", [1.0, True, "100", D("100")])
def test_from_centavos_wants_an_int(bad):
    with pytest.raises(TypeError):
        from_centavos(bad)


# ---------------------------------------------------------------- formatting


@pytest.mark.parametrize(
    "value, expected",
    [
        (D("1234.56"), "R$ 1.234,56"),
        (D("124.865"), "R$ 124,87"),  # HALF_UP before formatting (Babel alone gives 124,86)
        (D("0"), "R$ 0,00"),
        (D("0.5"), "R$ 0,50"),
        (D("1234567.891"), "R$ 1.234.567,89"),
        (D("-10"), "-R$ 10,00"),
        (D("-0.001"), "R$ 0,00"),
        (150, "R$ 150,00"),
        ("768.4", "R$ 768,40"),
    ],
)
def test_format_brl(value, expected):
    assert format_brl(value) == expected


def test_format_brl_non_breaking_space():
    assert format_brl(D("1234.56"), nbsp=True) == "R$\xa01.234,56"


def test_babel_alone_would_round_half_even():
    """Why we round first: Babel turns 124,865 into 124,86 (half-even)."""
    assert format_currency(D("124.865"), "BRL", locale="pt_BR") == "R$\xa0124,86"
    assert format_brl(D("124.865"), nbsp=True) == "R$\xa0124,87"


@given(amounts)
def test_format_brl_matches_babel_on_rounded_amounts(value):
    rounded = round_cents(value)
    if rounded == 0:
        rounded = abs(rounded)  # Babel prints "-R$ 0,00" for Decimal("-0.00")
    assert format_brl(value, nbsp=True) == format_currency(rounded, "BRL", locale="pt_BR")


@given(amounts)
def test_format_brl_reads_back(value):
    assert to_decimal(format_brl(value)) == round_cents(value)


@pytest.mark.parametrize(
    "value, places, expected",
    [
        (D("5.5"), 2, "5,50"),
        (D("38.42"), 2, "38,42"),
        (D("1234.5"), 1, "1.234,5"),
        (D("1234.5"), 2, "1.234,50"),
        (D("4"), 2, "4,00"),
        (D("14"), 0, "14"),
        (D("0.125"), 2, "0,13"),
        (D("-1234567.5"), 1, "-1.234.567,5"),
    ],
)
def test_format_decimal_br(value, places, expected):
    assert format_decimal_br(value, places) == expected


@given(amounts, st.integers(min_value=1, max_value=4))
def test_format_decimal_br_keeps_the_places_and_reads_back(value, places):
    # with places >= 1 the text always has a comma, so it reads back unambiguously
    text = format_decimal_br(value, places)
    fraction = text.split(",")[1] if "," in text else ""
    assert len(fraction) == places
    assert to_decimal(text) == quantize_places(value, places)


@pytest.mark.parametrize(
    "value, expected",
    [
        (D("0.82"), "0,82"),
        (D("5.50"), "5,50"),
        (D("3.25"), "3,25"),
        (D("0.30"), "0,30"),
        (D("20"), "20"),
        (D("1234.5"), "1.234,5"),
        (D("1.4321"), "1,4321"),
        ("38.42", "38,42"),
    ],
)
def test_format_factor_prints_as_written(value, expected):
    assert format_factor(value) == expected
