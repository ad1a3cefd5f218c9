"""The pieces the monthly fee report and the sanctions report share (models/enforcement/sanctions_report.py).

Labels of sites and sections (told apart when two towns share one), the rows fetched as tuples, money and days
from the database's raw values, the holders, the situation of a charge and the sums by group. Moved out of
:mod:`models.billing.fee_report`, which re-exports them.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError
from models.billing.charges import STATUSES
from models.store.db import db

ZERO = Decimal("0.00")
NO_SITE = "(sem local)"
NO_SECTION = "(sem seção)"
CANCELLED = STATUSES["cancelled"]  # "cancelada": the one situation that counts in no total


Progress = Callable[[int, int], None]


class Labels:
    """Regime, site and section labels, each regime read once."""

    def __init__(self) -> None:
        self._regimes: dict[str, object | None] = {}
        self._cache: dict[tuple[str, str, str], str] = {}

    def regime(self, regime_id: str):
        if regime_id not in self._regimes:
            from models.rules.regimes import get_regime

            try:
                self._regimes[regime_id] = get_regime(regime_id)
            except UserError:
                self._regimes[regime_id] = None
        return self._regimes[regime_id]

    def regime_label(self, regime_id: str) -> str:
        key = ("regime", regime_id, "")
        if key not in self._cache:
            regime = self.regime(regime_id)
            self._cache[key] = (
                f"{regime.municipality}/{regime.state} — {regime.short}" if regime is not None else regime_id
            )
        return self._cache[key]

    def town(self, regime_id: str) -> str:
        regime = self.regime(regime_id)
        return f"{regime.municipality}/{regime.state}" if regime is not None else regime_id

    def site(self, regime_id: str, site: str) -> str:
        key = ("site", regime_id, site)
        if key not in self._cache:
            regime = self.regime(regime_id)
            label = site.strip()
            if regime is not None and site and site in regime.ids("site"):
                label = regime.site(site).label
            self._cache[key] = label or NO_SITE
        return self._cache[key]

    def section(self, regime_id: str, section: str) -> str:
        key = ("section", regime_id, section)
        if key not in self._cache:
            regime = self.regime(regime_id)
            label = section.strip()
            if regime is not None and section and section in regime.ids("section"):
                s = regime.section(section)
                label = f"Seção {s.numeral} — {s.label}"
            self._cache[key] = label or NO_SECTION
        return self._cache[key]

    def section_order(self, regime_id: str, label: str) -> int:
        regime = self.regime(regime_id)
        if regime is not None:
            for index, s in enumerate(regime.sections):
                if label.startswith(f"Seção {s.numeral} — "):
                    return index
        return 10_000


def disambiguate(pairs: list[tuple[str, str]], town) -> dict[tuple[str, str], str]:
    """(regime, label) → label, with the town added where two regimes share a label (Praça da Matriz).

    "(sem local)" and "(sem seção)" stay one line each, whatever the town."""
    regimes_of: dict[str, set[str]] = defaultdict(set)
    for regime_id, label in pairs:
        regimes_of[label.casefold()].add(regime_id)
    return {
        (regime_id, label): (
            f"{label} ({town(regime_id)})"
            if len(regimes_of[label.casefold()]) > 1 and label not in (NO_SITE, NO_SECTION)
            else label
        )
        for regime_id, label in pairs
    }


def fetch_rows(query) -> list[tuple]:
    """The query's rows as the driver gives them: no per-column conversion (20.000 rows, a few columns each)."""
    return db.execute(query).fetchall()


class Values:
    """Centavos → ``Decimal`` and ISO text → ``date``, each distinct value converted once (they repeat a lot)."""

    def __init__(self) -> None:
        self._money: dict = {}
        self._days: dict = {}

    def money(self, centavos) -> Decimal:
        value = self._money.get(centavos)
        if value is None:
            value = self._money[centavos] = Decimal(int(centavos)).scaleb(-2) if centavos else ZERO
        return value

    def day(self, value) -> _dt.date:
        """A date column: a ``date`` from PostgreSQL, ISO text from SQLite."""
        day = self._days.get(value)
        if day is None:
            if isinstance(value, _dt.datetime):
                day = value.date()
            elif isinstance(value, _dt.date):
                day = value
            else:
                day = _dt.date.fromisoformat(str(value)[:10])
            self._days[value] = day
        return day


class Holders:
    """Debtor name and formatted CPF/CNPJ, each document formatted once."""

    def __init__(self) -> None:
        self._docs: dict[str, str] = {}

    def __call__(self, person_name, person_cpf, company_name, company_cnpj) -> tuple[str, str]:
        if person_name is not None:
            name, raw, fmt = person_name, person_cpf, format_cpf
        elif company_name is not None:
            name, raw, fmt = company_name, company_cnpj, format_cnpj
        else:
            return "", ""
        if not raw:
            return name, ""
        doc = self._docs.get(raw)
        if doc is None:
            try:
                doc = fmt(raw)
            except (UserError, ValueError):
                doc = raw
            self._docs[raw] = doc
        return name, doc


def charge_money(
    amount: Decimal, paid_total: Decimal, status: str, due_on: _dt.date, today: _dt.date
) -> tuple[Decimal, Decimal, Decimal, bool]:
    """What a charge counts on ``today``: paid (up to its amount), open, overdue, and whether it is late.

    A cancelled charge counts nothing; a payment beyond the amount is a refund to make, not more paid."""
    if status == "cancelled":
        return ZERO, ZERO, ZERO, False
    paid = paid_total if paid_total < amount else amount
    open_ = amount - paid
    late = status == "open" and due_on < today
    return paid, open_, open_ if late else ZERO, late


def charge_situation(status: str, amount: Decimal, paid_total: Decimal, overdue: bool) -> str:
    """A charge in one word of the report: cancelada, paga a maior, vencida, paga or em aberto."""
    if status == "cancelled":
        return CANCELLED
    if paid_total > amount:
        return "paga a maior"
    if overdue:
        return "vencida"
    return STATUSES.get(status, status)


@dataclass(frozen=True)
class Group:
    """One line of a breakdown (by regime, site, section or kind)."""

    key: str  # the label shown, the same text as the charge list's column (so SUMIF finds it)
    count: int
    charged: Decimal
    paid: Decimal
    open: Decimal
    overdue: Decimal


class Sums:
    """Count, charged, paid, open and overdue per key, added up in the one pass over the charges."""

    def __init__(self) -> None:
        self.slots: dict[str, list] = {}

    def add(self, key: str, amount: Decimal, paid: Decimal, open_: Decimal, overdue: Decimal) -> None:
        slot = self.slots.get(key)
        if slot is None:
            self.slots[key] = [1, amount, paid, open_, overdue]
            return
        slot[0] += 1
        slot[1] += amount
        slot[2] += paid
        slot[3] += open_
        slot[4] += overdue

    def groups(self, order=None) -> tuple[Group, ...]:
        keys = sorted(self.slots, key=order or (lambda k: k.casefold()))
        return tuple(Group(k, *self.slots[k]) for k in keys)
