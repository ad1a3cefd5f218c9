"""Brazilian identifiers: CPF and CNPJ (alphanumeric CNPJ included); dates typed dd/mm/aaaa; month and day names.

Check digits come from python-stdnum; values are stored in compact form and
shown formatted. A bad number raises ``UserError`` naming the field. Month and
weekday names come from Babel's pt_BR locale data (CLDR), the one place Praça
spells them: :func:`month_name`, :func:`month_names`, :func:`weekday_name`.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import functools
import re
from collections.abc import Sequence
from typing import Literal, overload

from stdnum.br import cnpj as _cnpj
from stdnum.br import cpf as _cpf
from stdnum.exceptions import ValidationError

from models.base.errors import UserError


def _shown(value: str) -> str:
    """What was typed, on one line and not too long, for the message."""
    text = " ".join(value.split())
    return text if len(text) <= 40 else text[:39] + "…"


def clean_cpf(value: str) -> str:
    """The compact CPF (11 digits) or ``UserError``."""
    raw = (value or "").strip()
    if not raw:
        raise UserError("Informe o CPF.", field="cpf")
    try:
        number = _cpf.validate(raw)
    except ValidationError:
        raise UserError(f"CPF inválido: {_shown(raw)} (verifique os dígitos).", field="cpf") from None
    if len(set(number)) == 1:  # 000.000.000-00 … 999.999.999-99 pass the digits but are never issued
        raise UserError(f"CPF inválido: {_shown(raw)} (número com todos os dígitos iguais).", field="cpf")
    return number


def clean_cnpj(value: str) -> str:
    """The compact CNPJ (14 characters, letters allowed in the first 12) or ``UserError``."""
    raw = (value or "").strip().upper()
    if not raw:
        raise UserError("Informe o CNPJ.", field="cnpj")
    try:
        return _cnpj.validate(raw)
    except ValidationError:
        raise UserError(f"CNPJ inválido: {_shown(raw)} (verifique os dígitos).", field="cnpj") from None


def format_cpf(value: str) -> str:
    if (
        len(value or "") == 11 and value.isascii() and value.isdigit()
    ):  # the compact form as stored: sliced (reports format thousands)
        return f"{value[:3]}.{value[3:6]}.{value[6:9]}-{value[9:]}"
    return _cpf.format(value) if value else ""


def format_cnpj(value: str) -> str:
    return _cnpj.format(value) if value else ""


def cpf_check_digits(first9: str) -> str:
    """The two check digits of a CPF from its first nine digits (mod-11 rule)."""
    digits = [int(c) for c in first9]
    for _ in range(2):
        weight = len(digits) + 1
        total = sum((weight - i) * d for i, d in enumerate(digits))
        digits.append(0 if total % 11 < 2 else 11 - total % 11)
    return f"{digits[-2]}{digits[-1]}"


def cnpj_check_digits(first12: str) -> str:
    return _cnpj.calc_check_digits(first12)


# --------------------------------------------------------------------------- month and day names


@functools.cache
def month_names() -> tuple[str, ...]:
    """``("janeiro", …, "dezembro")``: the pt_BR month names, from Babel (loaded on first use, not at start-up)."""
    from babel.dates import get_month_names

    names = get_month_names("wide", locale="pt_BR")
    return tuple(str(names[month]) for month in range(1, 13))


def month_name(month: int) -> str:
    """``month_name(3) == "março"``."""
    return month_names()[month - 1]


@functools.cache
def _weekday_names(width: Literal["abbreviated", "wide"]) -> tuple[str, ...]:
    from babel.dates import get_day_names

    names = get_day_names(width, locale="pt_BR")
    return tuple(str(names[day]) for day in range(7))  # Babel counts from Monday, as date.weekday() does


def weekday_name(weekday: int, *, short: bool = False) -> str:
    """``weekday_name(0) == "segunda-feira"`` (``date.weekday()``: Monday is 0); ``short``: ``"seg."``."""
    return _weekday_names("abbreviated" if short else "wide")[weekday]


class WeekdayNames(Sequence[str]):
    """``names[date.weekday()]``: the seven :func:`weekday_name` as a sequence, read from Babel on first use."""

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return _weekday_names("wide")[index]

    def __len__(self) -> int:
        return 7


# --------------------------------------------------------------------------- dates typed dd/mm/aaaa

_BR_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def calendar_problem(year: int, month: int, day: int) -> str | None:
    """Why ``day/month/year`` is not a day of the calendar, in pt-BR (``None``: it is one) — said as such, never
    as a wrong format: "fevereiro de 1985 não tem dia 31"."""
    if not 1 <= year <= 9999:
        return f"o ano {year} está fora do calendário (de 1 a 9999)"
    if not 1 <= month <= 12:
        return f"não existe o mês {month}"
    last = calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        return f"{month_name(month)} de {year} não tem dia {day}" + (f" (vai até {last})" if day > last else "")
    return None


def parse_br_date(text: str, *, what: str = "Data", field: str | None = None) -> _dt.date:
    """A date typed dd/mm/aaaa: ``UserError`` that says either that the format is wrong or that the date does not
    exist ("31/02/1985: fevereiro de 1985 não tem dia 31")."""
    raw = (text or "").strip()
    match = _BR_DATE.fullmatch(raw)
    if match is None:
        raise UserError(f"{what} inválida: {raw or '(vazia)'} (use dd/mm/aaaa).", field=field)
    day, month, year = (int(g) for g in match.groups())
    problem = calendar_problem(year, month, day)
    if problem:
        raise UserError(f"{what}: {raw} não existe — {problem}.", field=field)
    return _dt.date(year, month, day)
