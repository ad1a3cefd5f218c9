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

from models.errors import UserError

__all__ = [
    "CENT",
    "NBSP",
    "to_decimal",
    "round_cents",
    "quantize_places",
    "to_centavos",
    "from_centavos",
    "format_brl",
    "format_decimal_br",
    "format_factor",
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


def quantize_places(value: str | int | Decimal, places: int) -> Decimal:
    """Round ``value`` to ``places`` decimal places, ``ROUND_HALF_UP``."""
    if places < 0:
        raise ValueError("places must be >= 0")
    exponent = Decimal(1).scaleb(-places)
    return to_decimal(value).quantize(exponent, rounding=ROUND_HALF_UP)


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
    sign, _, exponent = value.as_tuple()
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


def format_brl(value: str | int | Decimal, *, nbsp: bool = False) -> str:
    """``R$ 1.234,56`` — rounded to the cent ``ROUND_HALF_UP`` before formatting.

    ``nbsp=True`` puts a non-breaking space after ``R$`` (what Babel and the
    printed documents use); the default is a plain space. Negative amounts
    read ``-R$ 10,00``.
    """
    cents = round_cents(value)
    space = NBSP if nbsp else " "
    body = _format_fixed(abs(cents))
    return ("-" if cents < 0 else "") + "R$" + space + body
