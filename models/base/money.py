"""Money and decimal helpers — no Qt, no float.

Money is ``decimal.Decimal``. Amounts are rounded to the cent once, with
``ROUND_HALF_UP`` (the acts round that way: 3,25 × R$ 38,42 = R$ 124,865 →
R$ 124,87), *before* they are formatted, so that no formatter (Babel rounds
half to even) ever decides a cent. The database keeps integer centavos.

pt-BR formatting is done here by hand (thousands ``.``, decimal ``,``) so that
the output never depends on a locale being installed; the result is the same
as Babel's ``format_currency(..., "BRL", locale="pt_BR")`` on an amount already
rounded to the cent (the tests check that).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from models.base.errors import UserError

__all__ = [
    "CENT",
    "NBSP",
    "format_brl",
    "format_decimal_br",
    "format_factor",
    "from_centavos",
    "parse_typed",
    "quantize_places",
    "round_cents",
    "to_centavos",
    "to_decimal",
]

CENT = Decimal("0.01")
NBSP = "\xa0"

_DOT_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
# pt-BR: optional thousands groups with ".", decimal ","; or plain digits with ","
_BR_DECIMAL = re.compile(r"^[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d*)?$")
_BR_THOUSANDS_ONLY = re.compile(r"^[+-]?\d{1,3}(\.\d{3}){2,}$")


def to_decimal(value: str | int | Decimal) -> Decimal:
    """Return ``value`` as a finite ``Decimal``.

    Accepts ``Decimal``, ``int`` and strings. A string with a comma is read in
    the Brazilian way (``"1.234,56"``, ``"5,50"``); otherwise the dot is the
    decimal point (``"5.50"``), as in the regime files — except a number with
    two or more dot groups (``"1.000.000"``), which can only be thousands. A
    leading ``R$`` and
    spaces are ignored. ``float`` (and ``bool``) are refused with ``TypeError``:
    a binary float cannot carry a price.
    """
    if isinstance(value, bool):
        raise TypeError("to_decimal: bool não é um valor numérico")
    if isinstance(value, float):
        raise TypeError(
            "to_decimal: float recusado — use str, int ou Decimal (valores monetários não podem ser binários)"
        )
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int):
        result = Decimal(value)
    elif isinstance(value, str):
        result = _parse_decimal_text(value)
    else:
        raise TypeError(f"to_decimal: tipo não aceito: {type(value).__name__}")
    if not result.is_finite():
        raise UserError(f"Valor numérico inválido: {value!s}")
    return result


def _parse_decimal_text(text: str) -> Decimal:
    cleaned = text.strip().replace(NBSP, " ")
    if cleaned.upper().startswith("R$"):
        cleaned = cleaned[2:]
    elif cleaned.upper().startswith("-R$"):
        cleaned = "-" + cleaned[3:]
    cleaned = cleaned.replace(" ", "")
    if "," in cleaned:
        if not _BR_DECIMAL.match(cleaned):
            raise UserError(f"Número inválido: {text!r} (use, por exemplo, 1.234,56 ou 5,50)")
        cleaned = cleaned.replace(".", "").replace(",", ".")
        if cleaned.endswith("."):
            cleaned = cleaned[:-1]
    elif _BR_THOUSANDS_ONLY.match(cleaned):
        cleaned = cleaned.replace(".", "")  # "1.000.000": two or more groups can only be thousands
    elif not _DOT_DECIMAL.match(cleaned):
        raise UserError(f"Número inválido: {text!r} (use, por exemplo, 1234.56 ou 5,50)")
    try:
        return Decimal(cleaned)
    except InvalidOperation as exc:  # pragma: no cover - the regexes already guard
        raise UserError(f"Número inválido: {text!r}") from exc


_TYPED_INT = re.compile(r"\d+")
_TYPED_GROUPED = re.compile(r"\d{1,3}(\.\d{3})+(,\d*)?")  # 1.500 · 1.500,00 · 1.234.567,8
_TYPED_COMMA = re.compile(r"\d*,\d*")  # 1,5 · 0,50 · ,5 · 5,
_TYPED_DOT = re.compile(r"\d*\.\d+")  # 2.5 · 1234.56: a decimal point, the English way
_TYPED_ENGLISH = re.compile(r"\d{1,3}(,\d{3})+(\.\d*)?")  # 1,500.00 · 1,234,567


def parse_typed(value: str | int | Decimal, *, what: str = "Valor", field: str | None = None) -> Decimal:
    """A number as a person types it in Brazil — the one reader of every money and measure field, on the desks
    and on the command line (the regime files keep dot decimals: :func:`to_decimal`).

    pt-BR, strictly: the comma is the decimal mark and the dot only groups thousands, in threes. ``"1.500"`` and
    ``"1.500,00"`` are one thousand five hundred, ``"1,5"`` is one and a half. An entry that can be read two
    ways is refused with both readings, never guessed: ``"1.50"`` or ``"2.5"`` (a decimal point the English
    way, or a misplaced thousands mark?), and a number in the English form (``"1,500.00"``). A leading
    ``R$``, spaces and a sign are allowed; ``Decimal`` and ``int`` pass as they are."""
    if not isinstance(value, str):
        return to_decimal(value)
    text = value.strip()
    cleaned = text.replace(NBSP, " ")
    sign = ""
    if cleaned[:1] in ("+", "-"):
        sign, cleaned = ("-" if cleaned[0] == "-" else ""), cleaned[1:].lstrip()
    if cleaned.upper().startswith("R$"):
        cleaned = cleaned[2:]
    cleaned = cleaned.replace(" ", "")
    if not sign and cleaned[:1] == "-":
        sign, cleaned = "-", cleaned[1:]
    digits = cleaned.replace(".", "").replace(",", "")
    if _TYPED_INT.fullmatch(cleaned):
        number = cleaned
    elif _TYPED_GROUPED.fullmatch(cleaned):
        number = cleaned.replace(".", "").replace(",", ".").rstrip(".")
    elif _TYPED_COMMA.fullmatch(cleaned) and digits:
        whole, part = cleaned.split(",")
        number = f"{whole or '0'}.{part or '0'}"
    elif _TYPED_DOT.fullmatch(cleaned):
        decimal = _format_fixed(Decimal(cleaned if cleaned[0] != "." else "0" + cleaned))
        grouped = _group_thousands(digits.lstrip("0") or "0")
        raise UserError(
            f"{what}: «{text}» pode ser lido de duas formas — o ponto como vírgula decimal ({decimal}) "
            f"ou separando milhares ({grouped}). No Brasil a vírgula separa os decimais: "
            f"escreva {decimal}.",
            field=field,
        )
    elif _TYPED_ENGLISH.fullmatch(cleaned):
        brazilian = cleaned.replace(",", " ").replace(".", ",").replace(" ", ".")
        raise UserError(f"{what}: «{text}» está no formato inglês; escreva {brazilian}.", field=field)
    else:
        raise UserError(f"{what}: «{text}» não é um número (escreva, por exemplo, 1.500,00 ou 2,50).", field=field)
    result = Decimal(sign + number)
    return result + 0 if result == 0 else result  # "-0" is zero


def quantize_places(value: str | int | Decimal, places: int) -> Decimal:
    """Round ``value`` to ``places`` decimal places, ``ROUND_HALF_UP``."""
    if places < 0:
        raise ValueError("places must be >= 0")
    exponent = _EXPONENTS[places] if places < len(_EXPONENTS) else Decimal(1).scaleb(-places)
    return to_decimal(value).quantize(exponent, rounding=ROUND_HALF_UP)


#: ``Decimal(1).scaleb(-places)`` for the usual places (cents, a factor's six places…): made once
_EXPONENTS = tuple(Decimal(1).scaleb(-places) for places in range(9))


def round_cents(value: str | int | Decimal) -> Decimal:
    """Round to the cent with ``ROUND_HALF_UP`` (``124.865`` → ``124.87``)."""
    return quantize_places(value, 2)


def to_centavos(value: str | int | Decimal) -> int:
    """Amount → integer centavos (rounded to the cent first, ``ROUND_HALF_UP``)."""
    cents = round_cents(value)
    return int(cents.scaleb(2))


def from_centavos(centavos: int) -> Decimal:
    """Integer centavos → ``Decimal`` with exactly two places (``12345`` → ``123.45``)."""
    if isinstance(centavos, bool) or not isinstance(centavos, int):
        raise TypeError(f"from_centavos: esperado int, veio {type(centavos).__name__}")
    return Decimal(centavos).scaleb(-2).quantize(CENT)


def _group_thousands(digits: str) -> str:
    """``"1234567"`` → ``"1.234.567"``."""
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return ".".join(parts)


def _format_fixed(value: Decimal, group: bool = True) -> str:
    """Format a finite Decimal as it stands (no rounding) in pt-BR style."""
    sign, _, _exponent = value.as_tuple()
    text = format(abs(value), "f")  # plain notation, keeps the exponent's places
    if "." in text:
        integer, fraction = text.split(".")
    else:
        integer, fraction = text, ""
    integer = integer.lstrip("0") or "0"
    if group:
        integer = _group_thousands(integer)
    body = integer + ("," + fraction if fraction else "")
    is_zero = value == 0
    return ("-" if sign and not is_zero else "") + body


def format_decimal_br(value: str | int | Decimal, places: int = 2, *, group: bool = True) -> str:
    """pt-BR decimal with exactly ``places`` places: ``5.5`` → ``"5,50"``,
    ``1234.5`` (places=1) → ``"1.234,5"``. Rounds ``ROUND_HALF_UP`` first."""
    return _format_fixed(quantize_places(value, places), group=group)


def format_factor(value: str | int | Decimal, *, group: bool = True) -> str:
    """A factor printed as written, in pt-BR: ``Decimal("0.82")`` → ``"0,82"``,
    ``Decimal("5.50")`` → ``"5,50"``, ``Decimal("20")`` → ``"20"``.

    Nothing is rounded and no place is added or stripped: the Decimal's own
    exponent decides (so a regime's ``"5.50"`` prints ``5,50``)."""
    return _format_fixed(to_decimal(value), group=group)


def format_brl(value: str | int | Decimal, *, nbsp: bool = False, currency: str = "R$") -> str:
    """``R$ 1.234,56`` — rounded to the cent ``ROUND_HALF_UP`` before formatting.

    ``nbsp=True`` puts a non-breaking space after ``R$`` (what Babel and the
    printed documents use); the default is a plain space. Negative amounts
    read ``-R$ 10,00``. ``currency``: the symbol of the act's own money, for an act
    written before the real (``"Cr$ 1.500,00"``, ``[regime] currency``); never converted here.
    """
    cents = round_cents(value)
    space = NBSP if nbsp else " "
    body = _format_fixed(abs(cents))
    return ("-" if cents < 0 else "") + currency + space + body
