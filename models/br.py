"""Brazilian identifiers: CPF and CNPJ (alphanumeric CNPJ included).

Check digits come from python-stdnum; values are stored in compact form and
shown formatted. A bad number raises ``UserError`` naming the field.
"""

from __future__ import annotations

from stdnum.br import cnpj as _cnpj
from stdnum.br import cpf as _cpf
from stdnum.exceptions import ValidationError

from models.errors import UserError


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
    if len(value or "") == 11 and value.isascii() and value.isdigit():  # the compact form as stored: sliced (reports format thousands)
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
