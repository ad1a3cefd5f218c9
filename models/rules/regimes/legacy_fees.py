"""The fee kinds that came before the rule language (``linear-metre``, ``energy``, ``per-area-month``,
``venue-table``, ``fixed``, ``per-day``) said again as ``kind = "formula"`` fees: the same figures, each value
with its article, so a fee of any kind can be read — and, in time, priced — by the one engine of the rule
language (issue 29 §6; docs/regime-format.md, *Formula fees*).

:func:`as_formulas` gives the formula fee(s) of a fee: a venue table gives two, its fee and its deposit
(``<id>-caucao``). A value the act leaves to the Administration becomes a value asked for (``[[fees.inputs]]``,
``set_by = "administration"``). The conversion is deterministic; a venue table whose venues price one column in
different units (R$ here, UFESP there) is the one shape it refuses (``ValueError``): a table has one unit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from models.rules.regimes.model import Amount, Condition, EnergyTier, Fee
from models.rules.regimes.model.fees import (
    AskedInput,
    CitedWhen,
    DecisionTable,
    FeeException,
    FormulaTerm,
    Refusal,
    Requirement,
    TableRow,
)

if TYPE_CHECKING:
    from models.rules.regimes.regime import Regime


def admin_value_name(fee_id: str) -> str:
    """The name of the value asked for where the act leaves a fee's value to the Administration: one per fee
    (``valor_taxa_licenca``), as an asked name means one thing across the act."""
    return "valor_" + fee_id.replace("-", "_")


def _unit(amount_unit: str, per: str = "") -> str:
    """A file's amount unit (``BRL`` or a fiscal unit's code) as a unit of the rule language."""
    unit = "R$" if amount_unit == "BRL" else amount_unit
    return f"{unit}/{per}" if per else unit


def _number(value: Decimal) -> str:
    """A decimal as a number of the language (a dot, never an exponent)."""
    return format(value, "f")


def _shown(value: Decimal) -> str:
    """A measure of the act as the desk writes it: ``2,00``."""
    return f"{value:.2f}".replace(".", ",")


def _texts(ids: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"'{ident}'" for ident in ids) + "]"


def _condition(when: Condition, metres: str) -> str:
    """A discount's ``when`` as a condition of the language (every key given must hold)."""
    parts: list[str] = []
    if when.mei is not None:
        parts.append("mei" if when.mei else "not mei")
    if when.local is not None:
        parts.append("local" if when.local else "not local")
    if when.lines:
        parts.append(f"line in {_texts(when.lines)}")
    parts += _stall_limits(when.equipment, when.max_metres, when.max_depth, metres)
    return " and ".join(parts) or "true"


def _requirements(when: Condition, metres: str) -> tuple[Requirement, ...]:
    """What a discount asks of the holder and of the stall's size, each with the reason said when it fails."""
    found: list[Requirement] = []
    who = [
        part
        for part in (
            "mei" if when.mei else "not mei" if when.mei is False else "",
            "local" if when.local else "not local" if when.local is False else "",
        )
        if part
    ]
    if who:
        if when.mei is False or when.local is False:
            reason = "o desconto não vale para " + ("MEI" if when.mei is False else "quem é do município")
        else:
            whom = {(True, True): "MEI do município", (True, None): "MEI", (None, True): "quem é do município"}
            reason = f"o desconto é só para {whom.get((when.mei, when.local), 'outro titular')}"
        found.append(Requirement(" and ".join(who), reason))
    if when.max_metres is not None:
        limit = _number(when.max_metres)
        shown = limit.replace(".", ",")
        found.append(Requirement(f"{metres} <= {limit} m", f"metragem {{{metres}}} ML acima de {shown} ML"))
    if when.max_depth is not None:
        limit = _number(when.max_depth)
        shown = limit.replace(".", ",")
        found.append(Requirement(f"depth <= {limit} m", f"profundidade {{depth}} m acima de {shown} m"))
    return tuple(found)


def _stall_limits(
    equipment: tuple[str, ...],
    max_metres: Decimal | None,
    max_depth: Decimal | None,
    metres: str,
    lines: tuple[str, ...] = (),
) -> list[str]:
    """The equipment (and product lines) and sizes a discount or an energy tier reaches, as conditions."""
    parts = [f"equipment in {_texts(equipment)}"] if equipment else []
    if lines:
        parts.append(f"line in {_texts(lines)}")
    if max_metres is not None:
        parts.append(f"{metres} <= {_number(max_metres)} m")
    if max_depth is not None:
        parts.append(f"depth <= {_number(max_depth)} m")
    return parts


def _formula_fee(fee: Fee, **changes: object) -> Fee:
    """``fee`` as a formula fee: what it says of due dates, arrears, exemptions, readings and notes is kept, and
    its venues and energy tiers (the act's lists of public buildings and of consumption tiers are read from the
    fee that prices them)."""
    base: dict[str, Any] = dict(
        kind="formula",
        coefficient=None,
        unit=None,
        min_metres=None,
        min_metres_basis=None,
        hitch_counts=False,
        hitch_basis=None,
        discounts=(),
        rate=None,
        area=None,
        index=None,
        amount=None,
        admin_defined=False,
    )
    base.update(changes)
    return dataclasses.replace(fee, **base)


def _linear_metre(fee: Fee) -> Fee:
    assert fee.coefficient is not None and fee.unit is not None, "the loader requires them of a linear-metre fee"
    terms = [
        FormulaTerm(
            name="coeficiente",
            label=f"Coeficiente, em {_unit(fee.unit)} por metro linear",
            value=fee.coefficient,
            unit=_unit(fee.unit, "m"),
            basis=fee.basis,
            basis_act=fee.basis_act,
        )
    ]
    metres = "front + hitch" if fee.hitch_counts else "front"
    label = "metros lineares ocupados" + (", com o engate" if fee.hitch_counts else "")
    bases: list[str | None] = [fee.hitch_basis] if fee.hitch_counts else []
    # each article cited on a line only when it changes the metreage: the hitch's with a hitch, the minimum's
    # when it binds
    cited = [CitedWhen(fee.hitch_basis or fee.basis, "hitch > 0 m")] if fee.hitch_counts else []
    if fee.min_metres is not None:
        minimum = f"{_number(fee.min_metres)} m"
        cited.append(CitedWhen(fee.min_metres_basis or fee.basis, f"{metres} < {minimum}"))
        metres = f"max({metres}, {minimum})"
        label += f", no mínimo {_number(fee.min_metres).replace('.', ',')} ML"
        bases.append(fee.min_metres_basis)
    basis = "; ".join(b for b in bases if b) or fee.basis
    terms.append(FormulaTerm(name="metros", label=label, formula=metres, basis=basis, cited=tuple(cited)))
    metres = "metros"
    # "the highest applicable discount applies": tried from the highest rate down, the first that holds decides
    ordered = sorted(fee.discounts, key=lambda d: d.rate, reverse=True)
    exceptions = tuple(
        FeeException(
            id=d.id,
            label=f"desconto de {_number((d.rate * 100).normalize()).replace('.', ',')} %",  # the line's label
            when=_condition(d.when, metres),
            formula=f"base * (1 - {_number(d.rate)})",
            basis=d.basis,
            basis_act=d.basis_act,
            notes="; ".join(text for text in (d.label, d.notes) if text),  # whom it is for, in the act's words
            claimed="mei or local",
            reaches=" and ".join(_stall_limits(d.when.equipment, None, None, metres, d.when.lines)) or None,
            unmet=_requirements(d.when, metres),
        )
        for d in ordered
    )
    return _formula_fee(fee, formula=f"coeficiente * {metres}", terms=tuple(terms), exceptions=exceptions)


def _energy(fee: Fee, labels: Mapping[str, str]) -> Fee:
    """The tariff by the consumption tier declared (a table keyed by the tier), each tier's limits — the equipment
    it is for, the metreage, the depth — a refusal with the tier's article, as the act does not allow the tier
    beyond them. The fee keeps its tiers (the act's list of tiers, the desk's choices) and its unit."""
    assert fee.unit is not None, "the loader requires it of an energy fee"
    rows, refusals = [], []
    for tier in fee.tiers:
        rows.append(
            TableRow(
                value=tier.factor,
                basis=tier.basis,
                when=f"energy == '{tier.id}'",
                label=tier.label,
                basis_act=tier.basis_act,
                amended_by=tier.amended_by,
                notes=tier.notes,
            )
        )
        tariff = f'A tarifa "{tier.label}"'
        chosen = f"energy == '{tier.id}'"

        def refusal(when: str, reason: str, tier: EnergyTier = tier) -> Refusal:
            return Refusal(when, reason, tier.basis, field="energy", amended_by=tier.amended_by)

        if tier.equipment:
            allowed = ", ".join(labels.get(e, e) for e in tier.equipment)
            refusals.append(
                refusal(
                    f"{chosen} and equipment not in {_texts(tier.equipment)}",
                    f"{tariff} vale para: {allowed} — não para {{equipment}}",
                )
            )
        if tier.max_metres is not None:
            most = _number(tier.max_metres)
            refusals.append(
                refusal(
                    f"{chosen} and front + hitch > {most} m",
                    f"{tariff} vale até {_shown(tier.max_metres)} ML; informado {{front + hitch}} ML",
                )
            )
        if tier.max_depth is not None:
            most = _number(tier.max_depth)
            refusals.append(
                refusal(
                    f"{chosen} and depth > {most} m",
                    f"{tariff} vale até {_shown(tier.max_depth)} m de profundidade; informado {{depth}} m",
                )
            )
    table = DecisionTable(name="tarifa", label="Tarifa conforme a faixa de consumo", rows=tuple(rows), unit=fee.unit)
    return _formula_fee(
        fee,
        formula="tarifa",
        tables=(table,),
        refusals=tuple(refusals),
        unit=fee.unit,
        line_label=f"{fee.label} — {{energy}}",
    )


def _per_area_month(fee: Fee) -> Fee:
    assert fee.rate is not None, "the loader requires it of a per-area-month fee"
    rate = fee.rate
    term = FormulaTerm(
        name="taxa",
        label="Valor por metro quadrado, ao mês",
        value=rate.value,
        unit=_unit(rate.unit, "m2"),
        basis=fee.basis,
        basis_act=rate.basis_act,
    )
    formula = "taxa * area" if fee.index is None else f"taxa * {fee.index} * area"
    return _formula_fee(fee, formula=formula, per="month", terms=(term,))


def _venue_table(fee: Fee) -> tuple[Fee, ...]:
    def table(name: str, label: str, per: str, pick: str) -> DecisionTable:
        """One column of the act's table (``pick``: a venue's key), a row per venue that has it."""
        rows, units = [], set()
        for venue in fee.venues:
            value: Amount | int | None = getattr(venue, pick)
            if value is None:
                continue
            amount = value if isinstance(value, Amount) else Amount(value=Decimal(value), unit="")
            units.add(_unit(amount.unit, per) if amount.unit else per)
            rows.append(TableRow(amount.value, venue.basis, when=f"venue == '{venue.id}'", label=venue.label))
        if len(units) > 1:  # one table, one unit: no shipped act mixes them
            raise ValueError(f"{fee.id}: {pick} em unidades diferentes ({', '.join(sorted(units))})")
        return DecisionTable(name=name, label=label, rows=tuple(rows), unit=units.pop() if units else per)

    one_day = table("taxa_um_dia", "Taxa por 1 dia, conforme o imóvel", "", "one_day")
    per_day = table("taxa_por_dia", "Taxa por dia, conforme o imóvel", "dia", "per_day")
    minimum = table("minimo_dias", "Mínimo de dias cobrados, conforme o imóvel", "dia", "min_days")
    charge = _formula_fee(
        fee,
        formula="taxa_por_dia * max(days, minimo_dias)",
        tables=(one_day, per_day, minimum),
        exceptions=(
            FeeException(
                id="um-dia",
                label="uso por um só dia",
                when="days == 1 dia",
                formula="taxa_um_dia",
                basis=fee.basis,
            ),
        ),
    )
    with_deposit = [v for v in fee.venues if v.deposit is not None]
    if not with_deposit:
        return (charge,)
    deposit = _formula_fee(
        fee,
        id=f"{fee.id}-caucao",
        label=f"Caução — {fee.label}",
        formula="caucao",
        tables=(table("caucao", "Caução, conforme o imóvel", "", "deposit"),),
        line_kind="deposit",
        reading=None,
        venues=(),
    )
    return charge, deposit


def _fixed(fee: Fee) -> Fee:
    per_day = fee.kind == "per-day" or fee.per == "day"
    days = " * days" if per_day else ""
    per = "day" if fee.kind == "per-day" else fee.per
    if fee.admin_defined:
        name = admin_value_name(fee.id)
        asked = AskedInput(
            name=name,
            label="Valor definido pela Administração" + (" (por dia)" if per_day else ""),
            basis=fee.basis,
            unit="R$/dia" if per_day else "R$",
            set_by="administration",
            basis_act=fee.basis_act,
        )
        return _formula_fee(fee, formula=f"{name}{days}", per=per, inputs=(asked,))
    assert fee.amount is not None, "the loader requires amount or admin_defined"
    term = FormulaTerm(
        name="valor",
        label="Valor fixado no ato" + (" por dia" if per_day else ""),
        value=fee.amount.value,
        unit=_unit(fee.amount.unit, "dia" if per_day else ""),
        basis=fee.basis,
        basis_act=fee.basis_act,
    )
    return _formula_fee(fee, formula=f"valor{days}", per=per, terms=(term,))


def as_formulas(fee: Fee, labels: Mapping[str, str] | None = None) -> tuple[Fee, ...]:
    """``fee`` said in the rule language: itself if it is a formula fee already; a venue table gives its fee
    and, when a venue has one, its deposit. ``labels`` — the act's names of its equipment, lines and venues by
    id — word the refusals as the act names them (the ids without them)."""
    labels = labels or {}
    if fee.kind == "formula":
        return (fee,)
    if fee.kind == "linear-metre":
        return (_linear_metre(fee),)
    if fee.kind == "energy":
        return (_energy(fee, labels),)
    if fee.kind == "per-area-month":
        return (_per_area_month(fee),)
    if fee.kind == "venue-table":
        return _venue_table(fee)
    return (_fixed(fee),)


def act_labels(regime: Regime) -> dict[str, str]:
    """The act's names of its equipment, lines and venues, by id: what a converted refusal says."""
    venues = (venue for fee in regime.fees for venue in fee.venues)
    return {item.id: item.label for items in (regime.equipment_kinds, regime.lines, venues) for item in items}


def converted_fees(regime: Regime) -> tuple[Fee, ...]:
    """Every fee of ``regime`` said in the rule language, its refusals worded with the act's names."""
    labels = act_labels(regime)
    return tuple(f for fee in regime.fees for f in as_formulas(fee, labels))
