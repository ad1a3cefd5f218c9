"""A quote's inputs as a person types them — on the command line (``praca quote``) or in a worked case of the
act (``[[cases]]``, which takes them as the command line does): sizes in pt-BR ("2,5"; an ambiguous "2.5" is
refused with both readings), whole days, a year of four digits, the administration's values as ``TAXA=VALOR``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from models.base.errors import UserError
from models.base.money import parse_typed

_WHOLE = re.compile(r"^\s*\d+\s*$")
_ADMIN_VALUE = re.compile(r"^\s*([a-z0-9][a-z0-9-]*)\s*=\s*(.+?)\s*$")
_ASKED = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*=\s*(.+?)\s*$")
_MEASURES = (("front", "Frente"), ("depth", "Profundidade"), ("hitch", "Engate"), ("area", "Área"))
#: the periods a formula counts a price in, by the engine's name, with the option that gives them
_PERIODS = (
    ("feira_days", "--feira-days (dias de feira)"),
    ("events", "--events (eventos)"),
    ("months", "--months (meses)"),
    ("fiscal_years", "--fiscal-years (exercícios)"),
)
_NAMES = ("equipment", "line", "energy", "venue", "permit_kind", "exemption")


def parse_year(text: str | int) -> int:
    """``"2026"`` → 2026; anything else is a one-line ``UserError``."""
    if isinstance(text, int) and not isinstance(text, bool) and 1000 <= text <= 9999:
        return text
    if not re.fullmatch(r"\s*\d{4}\s*", str(text or "")):
        raise UserError(f"Ano inválido: '{text}' (use quatro algarismos, por exemplo 2026).", field="year")
    return int(str(text))


def parse_days(text: str | int) -> int:
    return parse_count(text, "Número de dias", "days")


def parse_count(text: str | int, what: str, field: str) -> int:
    """A whole number from 1 as typed (days, feira days, events…); anything else is a one-line ``UserError``."""
    if isinstance(text, bool) or not _WHOLE.match(str(text or "")) or int(str(text)) < 1:
        raise UserError(f"{what} inválido: '{text}' (use um número inteiro, a partir de 1).", field=field)
    return int(str(text))


def parse_admin_values(items: Iterable[str] | None) -> dict[str, Decimal] | None:
    """``["licenca=150,00"]`` → ``{"licenca": Decimal("150.00")}``."""
    values: dict[str, Decimal] = {}
    for item in items or ():
        match = _ADMIN_VALUE.match(item)
        if match is None:
            raise UserError(
                f"--admin-value inválido: '{item}' (use TAXA=VALOR, por exemplo licenca=150,00).", field="admin_value"
            )
        values[match.group(1)] = parse_typed(
            match.group(2), what=f"--admin-value {match.group(1)}", field="admin_value"
        )
    return values or None


def parse_asked(items: Iterable[str] | None) -> dict[str, Decimal] | None:
    """``--input nota=4`` → ``{"nota": Decimal("4")}``, typed the pt-BR way; the act's bounds are the engine's."""
    values: dict[str, Decimal] = {}
    for item in items or ():
        match = _ASKED.match(item)
        if match is None:
            raise UserError(f"--input inválido: '{item}' (use NOME=VALOR, por exemplo nota=4).", field="inputs")
        values[match.group(1)] = parse_typed(match.group(2), what=f"--input {match.group(1)}", field="inputs")
    return values or None


def quote_inputs(typed: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of the fee engine from what was typed, by the engine's names (``permit_kind``,
    ``fees``, ``admin_values`` — a list of ``TAXA=VALOR``): measures read as typed in Brazil, days and year
    checked, flags kept only when set."""
    inputs: dict[str, Any] = {}
    for name in _NAMES:
        value = typed.get(name)
        if value is not None:
            inputs[name] = str(value).strip()
    for name, label in _MEASURES:
        value = typed.get(name)
        if value is not None:
            inputs[name] = parse_typed(value, what=f"--{name} ({label.lower()}, em metros)", field=name)
    for flag in ("mei", "local"):
        if typed.get(flag):
            inputs[flag] = True
    if typed.get("days") is not None:
        inputs["days"] = parse_days(typed["days"])
    for name, option in _PERIODS:  # the periods a formula counts a price in: whole numbers, as --days
        if typed.get(name) is not None:
            inputs[name] = parse_count(typed[name], option, name)
    if typed.get("year") is not None:
        inputs["year"] = parse_year(typed["year"])
    if typed.get("fees"):
        inputs["fees"] = [f.strip() for f in typed["fees"]]
    admin = parse_admin_values(typed.get("admin_values"))
    if admin:
        inputs["admin_values"] = admin
    asked = parse_asked(typed.get("asked"))  # --input NOME=VALOR: what a formula of the act leaves open
    if asked:
        inputs["asked"] = asked
    return inputs
