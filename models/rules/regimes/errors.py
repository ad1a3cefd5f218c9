"""The errors of the regime format: a malformed file (:class:`RegimeError`, every mistake at once in
:class:`RegimeErrors`) and a fiscal unit without a value for a year (:class:`MissingUnitValue`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.base.errors import UserError

if TYPE_CHECKING:
    from models.rules.regimes.regime import Regime


class RegimeError(UserError):
    """A regime file is malformed (or a regime id is unknown).

    ``file``, ``key``, ``line`` and ``reason`` are also kept apart for screens and tests.
    """

    def __init__(self, reason: str, *, file: str | None = None, key: str | None = None, line: int | None = None):
        where = f"{file}:{line}" if file and line else file
        parts = [p for p in (where, key) if p]
        message = ": ".join([*parts, reason])
        super().__init__(message, field=key)
        self.file = file
        self.key = key
        self.reason = reason
        #: the line of the TOML text the key is on (set by the whole-file check), else None
        self.line = line


class RegimeErrors(RegimeError):  # noqa: N818 - a public name the whole tree and the tests use
    """Every mistake found in one regime file at once (``praca regimes check``, "Instalar ato…").

    ``errors`` holds each :class:`RegimeError`; the message lists them one per line."""

    def __init__(self, errors: list[RegimeError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.reason, file=first.file, key=first.key, line=first.line)
        self.args = ("\n".join(str(e) for e in self.errors),)

    def __str__(self) -> str:
        return str(self.args[0])


class MissingUnitValue(UserError):  # noqa: N818 - a public name the whole tree and the tests use
    """A fiscal unit has no value for the year asked: Praça never guesses one."""

    def __init__(self, regime: Regime, code: str, year: int):
        unit = regime.units_by_code.get(code)
        name = f"{code} ({unit.name})" if unit else code
        known = sorted(v.year for v in unit.values) if unit else []
        known_txt = (
            f"; o regime tem valores para {', '.join(str(y) for y in known)}"
            if known
            else "; o ato não informa nenhum valor"
        )
        super().__init__(
            f"A unidade fiscal {name} não tem valor para {year} no regime {regime.id} "
            f"({regime.short}){known_txt}. Cadastre o valor de {code} de {year} antes de calcular.",
            field="unit_value",
        )
        self.code = code
        self.year = year
