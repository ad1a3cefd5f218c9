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
