"""What a fee asks of the desk, whatever its wording (issue 29 §6): :func:`fee_needs` answers alike for a fee of
the old kinds (``linear-metre``, ``energy``, ``per-area-month``, ``venue-table``, ``fixed``, ``per-day``) and for
a formula fee — the inputs it reads (each with its unit and the article that asks for it), the period it is
counted in, whether it gives a deposit, and the value it leaves to the Administration.

Callers outside the fee engine (the month's charges, the front desk, the price simulator, the application form,
``praca quote``, the demo) read a fee only through this, so that when every fee is a formula nothing else changes.
The old kinds' answers live in :func:`_kind_needs`, which goes when the old kinds go.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from models.rules.formulas.syntax import FormulaError, names, parse
from models.rules.regimes import Regime
from models.rules.regimes.fee_formulas import fee_expressions, program_for
from models.rules.regimes.legacy_fees import admin_value_input
from models.rules.regimes.model import Fee
from models.rules.regimes.model.fees import AskedInput

#: the desk's inputs a fee may need, in the order a screen asks for them, with their label and unit (pt-BR)
NEED_WORDS: dict[str, tuple[str, str]] = {
    "equipment": ("Equipamento", ""),
    "line": ("Ramo", ""),
    "venue": ("Imóvel", ""),
    "front": ("Frente", "m"),
    "depth": ("Profundidade", "m"),
    "hitch": ("Engate", "m"),
    "area": ("Área", "m²"),
    "energy": ("Faixa de energia", ""),
    "days": ("Dias", "dia"),
    "feira_days": ("Dias de feira", "dia de feira"),
    "events": ("Eventos", "evento"),
    "months": ("Meses", "mês"),
    "fiscal_years": ("Exercícios", "exercício"),
    "mei": ("MEI", ""),
    "local": ("Do município", ""),
}


@dataclass(frozen=True)
class Need:
    """An input a fee reads: its desk name (``front``, ``venue``, ``feira_days``…), label, unit and the article
    that asks for it (as the file writes it: ``art. 9º, § 2º``)."""

    name: str
    label: str
    unit: str
    basis: str


@dataclass(frozen=True)
class FeeNeeds:
    """What one fee asks of the desk."""

    fee: str
    inputs: tuple[Need, ...]
    #: the period its price counts: ``once``, ``day``, ``feira-day``, ``event``, ``month``, ``year``,
    #: ``fiscal-year`` (the file's words); None where the act does not say one
    per: str | None
    #: its quote gives a refundable deposit line (a venue's caução)
    deposit: bool
    #: the values it asks for because the act leaves them to someone (an administration's value, a grade)
    asked: tuple[AskedInput, ...]
    #: the name of the asked value that *is* the fee's value, where the act leaves the whole value to the
    #: Administration (assessed apart, charged when set); None when the act prices it
    administration: str | None = None
    #: the act's options the desk offers for a category it reads (``energy``: the consumption tiers, ``venue``:
    #: the venues), as (id, label) in the act's order: a formula fee's table of choices, an old kind's list
    options: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def options_of(self, category: str) -> tuple[tuple[str, str], ...]:
        return next((found for name, found in self.options if name == category), ())

    def reads(self, name: str) -> bool:
        return any(need.name == name for need in self.inputs)

    @property
    def monthly(self) -> bool:
        return self.per == "month"


def _need(name: str, basis: str) -> Need:
    label, unit = NEED_WORDS[name]
    return Need(name, label, unit, basis)


def _ordered(found: Mapping[str, str]) -> tuple[Need, ...]:
    return tuple(_need(name, found[name]) for name in NEED_WORDS if name in found)


# --------------------------------------------------------------------------- formula fees


def _expression_basis(fee: Fee, key: str) -> str:
    """The article of the part of a formula fee an expression belongs to (``terms[1].formula`` → the term's,
    ``tables[0].rows[2].when`` → the row's, ``exceptions[0].when`` → the exception's)."""
    parts = [part.rstrip("]").split("[") for part in key.split(".")]
    index = {name: int(rest[0]) for name, *rest in parts if rest}
    if "terms" in index:
        return fee.terms[index["terms"]].basis
    if "tables" in index and "rows" in index:
        table = fee.tables[index["tables"]]
        # the act's list of options is asked by the fee's article; a row's condition by the row's
        return fee.basis if table.choice is not None else table.rows[index["rows"]].basis
    if "exceptions" in index:
        return fee.exceptions[index["exceptions"]].basis
    return fee.basis


def _cited_basis(fee: Fee, key: str, name: str) -> str | None:
    """The article of a fact read by a term whose articles are each cited only when they bind (``cited``): that
    of the first condition about that fact alone (``hitch > 0 m`` — the hitch's article), else the general
    rule's, as the term's other articles bind only when their conditions hold; None for any other expression."""
    if not key.startswith("terms[") or not key.endswith("].formula"):
        return None
    term = fee.terms[int(key[len("terms[") : -len("].formula")])]
    if not term.cited:
        return None
    for cited in term.cited:
        try:
            read = {node.name for node in names(parse(cited.when)) if node.name in NEED_WORDS}
        except FormulaError:  # reported by the checker
            continue
        if read == {name}:
            return cited.basis
    return fee.basis


def _formula_needs(regime: Regime, fee: Fee) -> FeeNeeds:
    program = program_for(regime, fee)
    found: dict[str, str] = {}
    for key, text in fee_expressions(fee):
        try:
            tree = parse(text)
        except FormulaError:  # a mistake the checker reports at its key: it asks for nothing
            continue
        for node in names(tree):
            if node.name in NEED_WORDS and node.name in program.reads:
                found.setdefault(node.name, _cited_basis(fee, key, node.name) or _expression_basis(fee, key))
    # the value the fee's whole value is, as the file declares it (fee_value = true; checked by the checker)
    administration = next((item.name for item in fee.inputs if item.fee_value), None)
    return FeeNeeds(
        fee=fee.id,
        inputs=_ordered(found),
        per=fee.per,
        deposit=fee.line_kind == "deposit",
        asked=fee.inputs,
        administration=administration,
        options=_options(fee),
    )


def _options(fee: Fee) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The act's lists a fee offers the desk: its tables of choices, or the tiers and venues of an old kind (kept
    by a fee said from them)."""
    found = (("energy", fee.energy_tiers()), ("venue", fee.venue_choices()))
    return tuple((category, tuple((o.id, o.label) for o in items)) for category, items in found if items)


# --------------------------------------------------------------------------- the old kinds


def _kind_needs(regime: Regime, fee: Fee) -> FeeNeeds:
    """A fee of the old kinds: what its kind reads (as the fee-kind engine priced it, ``bench/fee_kinds.py``)."""
    found: dict[str, str] = {}
    per = fee.per
    asked: tuple[AskedInput, ...] = ()
    administration = None
    deposit = False
    if fee.kind == "linear-metre":
        found["front"] = fee.basis
        if fee.hitch_counts:
            found["hitch"] = fee.hitch_basis or fee.basis
        for discount in fee.discounts:
            when = discount.when
            for name, used in (
                ("mei", when.mei is not None),
                ("local", when.local is not None),
                ("equipment", bool(when.equipment)),
                ("line", bool(when.lines)),
                ("depth", when.max_depth is not None),
            ):
                if used:
                    found.setdefault(name, discount.basis)
    elif fee.kind == "energy":
        found["energy"] = fee.basis
        for tier in fee.tiers:
            if tier.equipment:
                found.setdefault("equipment", tier.basis)
            if tier.max_metres is not None:
                found.setdefault("front", tier.basis)
                found.setdefault("hitch", tier.basis)
            if tier.max_depth is not None:
                found.setdefault("depth", tier.basis)
    elif fee.kind == "per-area-month":
        per = "month"
        found["area"] = fee.basis
        if fee.area in ("line", "used"):
            found["line"] = fee.basis
    elif fee.kind == "venue-table":
        found["venue"] = fee.basis
        found["days"] = fee.basis
        deposit = any(venue.deposit is not None for venue in fee.venues)
    else:  # fixed, per-day
        if fee.kind == "per-day":
            per = "day"
        if per == "day":
            found["days"] = fee.basis
        item = admin_value_input(fee)
        if item is not None:
            administration, asked = item.name, (item,)
    return FeeNeeds(fee.id, _ordered(found), per, deposit, asked, administration, _options(fee))


# --------------------------------------------------------------------------- the interface

_NEEDS: dict[tuple[str, str, str, str], FeeNeeds] = {}
_LOCK = threading.Lock()


def fee_needs(regime: Regime, fee: Fee | str) -> FeeNeeds:
    """What ``fee`` asks of the desk, worked out once per version of the act."""
    if isinstance(fee, str):
        fee = regime.fee(fee)
    if not regime.sha256:  # a regime built in memory: worked out each time (its fees may change)
        return _formula_needs(regime, fee) if fee.kind == "formula" else _kind_needs(regime, fee)
    key = (regime.id, regime.sha256, fee.id, fee.kind)  # the kind: a fee said again in other words is another
    found = _NEEDS.get(key)
    if found is None:
        found = _formula_needs(regime, fee) if fee.kind == "formula" else _kind_needs(regime, fee)
        with _LOCK:
            _NEEDS[key] = found
    return found


def fees_needs(regime: Regime, fees: Iterable[Fee | str] | None = None) -> list[FeeNeeds]:
    """:func:`fee_needs` of each of ``fees`` (default: every fee of the act)."""
    return [fee_needs(regime, fee) for fee in (regime.fees if fees is None else fees)]


def needed(regime: Regime, fees: Iterable[Fee | str] | None = None) -> dict[str, Need]:
    """Every input the fees read (default: every fee of the act), by name, in the order a screen asks them."""
    found: dict[str, Need] = {}
    for needs in fees_needs(regime, fees):
        for need in needs.inputs:
            found.setdefault(need.name, need)
    return {name: found[name] for name in NEED_WORDS if name in found}


def asked_values(regime: Regime, fees: Iterable[Fee | str] | None = None) -> dict[str, AskedInput]:
    """The values the fees ask for (one name, one meaning across the act) other than a fee's whole value left to
    the Administration (see :func:`administration_fees`)."""
    found: dict[str, AskedInput] = {}
    for needs in fees_needs(regime, fees):
        for item in needs.asked:
            if item.name != needs.administration:
                found.setdefault(item.name, item)
    return found


def administration_fees(regime: Regime, fees: Iterable[Fee | str] | None = None) -> list[Fee]:
    """The fees whose whole value the act leaves to the Administration (assessed apart)."""
    return [regime.fee(n.fee) for n in fees_needs(regime, fees) if n.administration is not None]


def energy_tiers(regime: Regime, fees: Iterable[Fee | str] | None = None) -> list[tuple[str, str]]:
    """(id, label) of the consumption tiers of the fees that read the energy declared."""
    return choices(regime, "energy", fees)


def venues(regime: Regime, fees: Iterable[Fee | str] | None = None) -> list[tuple[str, str]]:
    """(id, label) of the venues of the fees that read the venue chosen."""
    return choices(regime, "venue", fees)


def choices(regime: Regime, category: str, fees: Iterable[Fee | str] | None = None) -> list[tuple[str, str]]:
    """(id, label) of the act's options for ``category`` (``energy``, ``venue``) that the fees reading it offer,
    each once, in the act's order."""
    found: dict[str, str] = {}
    for needs in fees_needs(regime, fees):
        if needs.reads(category):
            for ident, label in needs.options_of(category):
                found.setdefault(ident, label)
    return list(found.items())


def tier_label(regime: Regime, tier_id: str) -> str:
    """The label of a consumption tier of the act (the id itself when the act has none)."""
    return dict(energy_tiers(regime)).get(tier_id, tier_id)


def charge_kind_of(regime: Regime, fee: Fee, line_kind: str = "charge") -> str:
    """The kind of charge a fee's quote line becomes: a deposit, a monthly, a venue's, a yearly or an event's."""
    if line_kind == "deposit":
        return "deposit"
    needs = fee_needs(regime, fee)
    if needs.monthly:
        return "monthly"
    if needs.reads("venue"):
        return "venue"
    if needs.per == "year":
        return "yearly"
    return "event"


def engine_values(
    regime: Regime,
    *,
    by_fee: Mapping[str, Any] | None = None,
    by_name: Mapping[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """The values typed at a desk as the fee engine takes them (``admin_values`` and ``asked``), whatever the
    fees' wording: a fee's whole value left to the Administration (:attr:`FeeNeeds.administration`) typed by the
    fee's id (``by_fee``) or by its asked name goes by the fee's id (``admin_values``: an amount in centavos, within
    the act's bounds), and any other value a formula asks by its name (``asked``)."""
    owners = {n.administration: n.fee for n in fees_needs(regime) if n.administration is not None}
    admin: dict[str, Any] = dict(by_fee or {})  # an id that is no such fee: the engine says so
    asked: dict[str, Any] = {}
    for name, value in (by_name or {}).items():
        if name in owners:
            admin[owners[name]] = value
        else:
            asked[name] = value
    out: dict[str, dict[str, Any]] = {}
    if admin:
        out["admin_values"] = admin
    if asked:
        out["asked"] = asked
    return out
