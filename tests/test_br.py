"""CPF and CNPJ validation (property-based)."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from models.base.br import clean_cnpj, clean_cpf, cnpj_check_digits, cpf_check_digits, format_cnpj, format_cpf
from models.base.errors import UserError

digits9 = st.text(alphabet=string.digits, min_size=9, max_size=9).filter(lambda s: len(set(s)) > 1)
alnum12 = st.text(alphabet=string.digits + string.ascii_uppercase, min_size=12, max_size=12)


@given(digits9)
def test_generated_cpf_validates_in_any_format(base):
    number = base + cpf_check_digits(base)
    assert clean_cpf(number) == number
    assert clean_cpf(format_cpf(number)) == number


@given(st.text(alphabet=string.digits, min_size=11, max_size=11))
def test_cpf_accepted_exactly_when_check_digits_match(number):
    expected = number[9:] == cpf_check_digits(number[:9]) and len(set(number)) > 1
    try:
        accepted = clean_cpf(number) == number
    except UserError as err:
        assert err.field == "cpf"
        accepted = False
    assert accepted == expected


@given(digits9, st.integers(min_value=1, max_value=9))
def test_a_changed_check_digit_is_refused(base, delta):
    number = base + cpf_check_digits(base)
    changed = number[:10] + str((int(number[10]) + delta) % 10)
    with pytest.raises(UserError):
        clean_cpf(changed)


@given(alnum12)
def test_alphanumeric_cnpj(base):
    assume(not base.startswith("00000000"))
    number = base + cnpj_check_digits(base)
    assert clean_cnpj(number.lower()) == number
    assert clean_cnpj(format_cnpj(number)) == number


@pytest.mark.parametrize("raw", ["", "123", "111.111.111-11", "abc.def.ghi-jk"])
def test_bad_cpf_messages(raw):
    with pytest.raises(UserError, match="CPF"):
        clean_cpf(raw)


def test_month_and_day_names_come_from_babel():
    """One place spells them (Babel's pt_BR data); the month label, the long date and the calendar's refusal use it."""
    import datetime as dt

    from models.base.br import calendar_problem, month_name, month_names, weekday_name
    from models.billing.charges import month_label
    from reports.permit_docs import long_date_br

    assert month_names()[0] == "janeiro" and month_name(3) == "março" and len(month_names()) == 12
    assert [weekday_name(d) for d in (0, 2, 5, 6)] == ["segunda-feira", "quarta-feira", "sábado", "domingo"]
    assert weekday_name(dt.date(2026, 3, 23).weekday()) == "segunda-feira" and weekday_name(0, short=True) == "seg."
    assert month_label(2026, 12) == "dezembro de 2026"
    assert long_date_br(dt.datetime(2026, 3, 27, 10, 0)) == "27 de março de 2026"
    assert calendar_problem(1985, 2, 31) == "fevereiro de 1985 não tem dia 31 (vai até 28)"
