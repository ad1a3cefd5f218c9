"""A :class:`Fact` (one sentence with its citation and notes) and the pt-BR forms of numbers, amounts, dates
and periods every description uses.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from models.base.br import weekday_name
from models.base.money import format_brl, format_decimal_br, format_factor
from models.rules.describe.words import COUNTS
from models.rules.regimes import Regime
from models.rules.regimes.model import Amount, Conversion

# --------------------------------------------------------------------------- a fact


@dataclass(frozen=True)
class Fact:
    """One thing an act says: the sentence, its full citation, the file's notes on it, its details.

    ``ident`` is the id other commands take (shown by the front end as it
    likes); ``option`` the command-line option that takes it (``--energy``).
    """

    text: str
    cite: str = ""
    notes: str = ""
    details: tuple[Fact, ...] = ()
    ident: str = ""
    option: str = ""


def notes(item: object) -> str:
    """The regime file's notes on ``item`` ("" when none)."""
    return (getattr(item, "notes", None) or "").strip()


def cite(regime: Regime, item: object) -> str:
    """Full citation of ``item`` if it has a basis, else ""."""
    if item is None or not getattr(item, "basis", None):
        return ""
    return regime.cite_item(item)


def fact(
    regime: Regime, text: str, item: object = None, *, ident: str = "", option: str = "", citation: str | None = None
) -> Fact:
    """A sentence about ``item``, with its citation and notes."""
    return Fact(
        text=text,
        cite=cite(regime, item) if citation is None else citation,
        notes=notes(item),
        ident=ident,
        option=option,
    )


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    """ "Impedida de …" → "impedida de …" (an acronym such as "TPU …" stays as it is)."""
    if len(text) > 1 and text[1].islower():
        return text[:1].lower() + text[1:]
    return text


def join_words(items: Iterable[str | None], last: str = "e") -> str:
    present = [i for i in items if i]
    if len(present) <= 1:
        return "".join(present)
    return f"{', '.join(present[:-1])} {last} {present[-1]}"


# --------------------------------------------------------------------------- numbers, dates, periods


def plural(n: int | Decimal, one: str, many: str) -> str:
    return f"{format_decimal_br(n, 0)} {one if n == 1 else many}"


def years(n: int) -> str:
    return plural(n, "ano", "anos")


def months(n: int) -> str:
    return plural(n, "mês", "meses")


def days(n: int) -> str:
    return plural(n, "dia", "dias")


def metres(value: Decimal | None) -> str:
    return "—" if value is None else f"{format_decimal_br(value, 2)} m"


def number(value: Decimal | int | str) -> str:
    """A decimal of the file as written, in pt-BR ("1.00" → "1,00", "30" → "30")."""
    return format_factor(value)


#: the act's money in words (``[regime] currency``), for "Valores em …" on the regime sheet
CURRENCY_NAMES = {
    "R$": "reais",
    "Cr$": "cruzeiros",
    "NCr$": "cruzeiros novos",
    "Cz$": "cruzados",
    "NCz$": "cruzados novos",
    "CR$": "cruzeiros reais",
}


def currency_text(currency: str = "R$", conversion: Conversion | None = None) -> str:
    """``Valores em cruzeiros (Cr$), a moeda do ato — sem conversão para reais.``; where a rule of the act converts
    them (``conversion``), the rule with its day, divisor and article."""
    if currency == "R$":
        return "Valores em reais (R$)."
    name = CURRENCY_NAMES.get(currency, currency)
    if conversion is None:
        return f"Valores em {name} ({currency}), a moeda do ato — o Praça não os converte para reais."
    return (
        f"Valores em {name} ({currency}), a moeda do ato; desde {conversion.from_.strftime('%d/%m/%Y')} convertidos "
        f"em reais: cada valor ÷ {conversion.divisor}, arredondado ao centavo ({conversion.cite}). Cada valor em "
        f"{currency} desta folha é seguido do seu valor em reais (com quatro casas o que fica abaixo de R$ 0,10: "
        "o arredondamento vale para o valor calculado, não para a taxa que o multiplica)."
    )


def with_reais(text: str, currency: str, conversion: Conversion | None) -> str:
    """``text`` with each amount in the act's money followed by its value in reais where a rule of the act
    converts it: "CR$ 1.500,00 (R$ 0,55)" — unchanged without a rule."""
    if conversion is None or currency == conversion.to:
        return text
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(currency)}(?: |\xa0|&nbsp;)(\d{{1,3}}(?:\.\d{{3}})*,\d{{2}})")

    def converted(found: re.Match[str]) -> str:
        value = Decimal(found[1].replace(".", "").replace(",", "."))
        cents = conversion.convert(value)
        if Decimal(0) < value and cents < Decimal("0.10"):  # a rate that multiplies: its cents would say nothing
            exact = (value / conversion.divide_by).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
            return f"{found[0]} ({conversion.to} {format_decimal_br(exact, 4)})"
        return f"{found[0]} ({format_brl(cents, currency=conversion.to)})"

    return pattern.sub(converted, text)


def amount(value: Amount | None, currency: str = "R$") -> str:
    """An ``Amount``: "R$ 150,00" or "20 UFESP" — in the act's money (``currency``: "Cr$ 500,00")."""
    if value is None:
        return "—"
    if value.unit == "BRL":
        return format_brl(value.value, currency=currency)
    n = value.value
    text = format_decimal_br(n, 0) if n == n.to_integral_value() else format_decimal_br(n, 2)
    return f"{text} {value.unit}"


def percent(rate: Decimal) -> str:
    """A fraction as a percentage with the places it needs: 0.30 → "30 %", 0.0623 → "6,23 %"."""
    value = (rate * 100).normalize()
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):  # NaN or infinity: no rate
        raise ValueError(f"not a rate: {rate}")
    places = min(max(0, -exponent), 4)
    return f"{format_decimal_br(value, places)} %"


def period(days: int | None = None, hours: int | None = None, count: str | None = None) -> str:
    if hours is not None:
        return f"{hours} hora{'s' if hours != 1 else ''}"
    if days is None:
        return "—"
    unit = COUNTS.get(count or "calendar", "dias")
    if days == 1:
        unit = {"dias corridos": "dia corrido", "dias úteis": "dia útil"}.get(unit, "dia")
    return f"{days} {unit}"


def date(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


def clock(value: dt.time | dt.datetime) -> str:
    return value.strftime("%H:%M")


def moment(value: dt.datetime) -> str:
    """ "27/03/2026 (sexta-feira) às 12:00"."""
    return f"{date(value)} ({weekday_name(value.weekday())}) às {clock(value)}"
