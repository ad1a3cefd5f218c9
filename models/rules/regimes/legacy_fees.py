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
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from models.rules.regimes.model import Amount, Condition, EnergyTier, Fee, Line
from models.rules.regimes.model.fees import (
    AskedInput,
    CitedWhen,
    DecisionTable,
    FeeException,
    FormulaTerm,
    Refusal,
    Requirement,
    Said,
    TableRow,
)

if TYPE_CHECKING:
    from models.rules.regimes.regime import Regime


def admin_value_name(fee_id: str) -> str:
    """The name of the value asked for where the act leaves a fee's value to the Administration: one per fee
    (``valor_taxa_licenca``), as an asked name means one thing across the act."""
    return "valor_" + re.sub(r"[^a-z0-9_]", "_", fee_id)  # a name of the language: ``apreensao:deposito`` too


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
        for measure, most, said in (
            ("front + hitch", tier.max_metres, "ML"),
            ("depth", tier.max_depth, "m de profundidade"),
        ):
            if most is not None:
                unit = said.split()[0]
                reason = f"{tariff} vale até {_shown(most)} {said}; informado {{{measure}}} {unit}"
                refusals.append(refusal(f"{chosen} and {measure} > {_number(most)} m", reason))
    table = DecisionTable(name="tarifa", label="Tarifa conforme a faixa de consumo", rows=tuple(rows), unit=fee.unit)
    return _formula_fee(
        fee,
        formula="tarifa",
        tables=(table,),
        refusals=tuple(refusals),
        unit=fee.unit,
        line_label=f"{fee.label} — {{energy}}",
    )


def _per_area_month(fee: Fee, lines: tuple[Line, ...]) -> Fee:
    """R$ per m² a month (corrected by an index): the area declared, the line's size (``area = "line"``) or the
    area used, never beyond the line's size (``"used"``) — each size the act fixes with its line's article,
    what the act does not allow (a size beyond the line's, no line, no area) refused with its reason."""
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
    index = "" if fee.index is None else f" * {fee.index}"
    what = fee.label.lower()
    sized = [line for line in lines if line.size is not None]
    unsized = tuple(line.id for line in lines if line.size is None)
    refusals: list[Refusal] = []
    says: list[Said] = []
    if fee.area in ("line", "used"):
        whose = "é a do ramo" if fee.area == "line" else "tem o máximo do ramo"
        options = ", ".join(line.id for line in lines)
        refusals.append(
            Refusal(
                "not given(line)",
                f"Informe o ramo (linha de produtos): a área de {what} {whose}. Ramos: {options}",
                fee.basis,
                field="line",
            )
        )
    tables: tuple[DecisionTable, ...] = ()
    exceptions: tuple[FeeException, ...] = ()
    formula = f"taxa{index} * area"
    if fee.area == "used":
        for line in sized:
            assert line.size is not None
            front, depth = line.size
            most = f"{_shown(front)} × {_shown(depth)}"
            chosen = f"line == '{line.id}'"
            refusals.append(
                Refusal(
                    f"{chosen} and not given(area)",
                    f"Informe a frente e a profundidade utilizadas (ou a área): {what} é cobrada por metro quadrado "
                    f'utilizado ({fee.basis}) — o ato fixa no máximo {most} m para "{line.label}"',
                    line.basis,
                    field="front",
                )
            )
            for name, value, unit, word in (
                ("front", front, "m", "Frente"),
                ("depth", depth, "m", "Profundidade"),
                ("area", front * depth, "m²", "Área"),
            ):
                dims = "" if name == "area" else " and given(front) and given(depth)"
                limit = f"{_number(value.normalize())} {'m2' if name == 'area' else 'm'}"
                refusals.append(
                    Refusal(
                        f"{chosen}{dims} and {name} > {limit}",
                        f"{word} de {{{name}}} {unit} acima do máximo de {_shown(value)} {unit} que o ato fixa para "
                        f'"{line.label}"',
                        line.basis,
                        field=name,
                    )
                )
            says.append(
                Said(
                    f'Área utilizada: {{area}} m²; máximo do ramo "{line.label}": {most} = {_shown(front * depth)} m²',
                    when=chosen,
                    basis=line.basis,
                )
            )
        refusals.append(
            Refusal(
                "not given(area)",
                f"Informe a frente e a profundidade utilizadas (ou a área): {what} é cobrada por metro quadrado "
                "utilizado",
                fee.basis,
                field="front",
            )
        )
        if unsized:
            says.append(Said("Área utilizada: {area} m².", when=f"line in {_texts(unsized)}"))
    elif fee.area == "line":
        rows = []
        for line in sized:
            assert line.size is not None
            front, depth = line.size
            chosen = f"line == '{line.id}'"
            for name, value, word in (("front", front, "de frente"), ("depth", depth, "de profundidade")):
                refusals.append(
                    Refusal(
                        f"{chosen} and given({name}) and {name} != {_number(value)} m",
                        f'O ato fixa {_shown(value)} m {word} para "{line.label}"; informado {{{name}}} m',
                        line.basis,
                        field=name,
                    )
                )
            rows.append(TableRow(front * depth, line.basis, when=chosen, label=line.label))
            says.append(
                Said(
                    f'Área do ramo "{line.label}": {_shown(front)} × {_shown(depth)} = {_shown(front * depth)} m²',
                    when=chosen,
                    basis=line.basis,
                )
            )
        if rows:
            tables = (DecisionTable("area_do_ramo", "Área do ramo", tuple(rows), unit="m2"),)
            formula = f"taxa{index} * area_do_ramo"
        if unsized and rows:
            exceptions = (
                FeeException(
                    id="ramo-sem-tamanho",
                    label="ramo sem tamanho fixado no ato",
                    when=f"line in {_texts(unsized)}",
                    formula=f"taxa{index} * area",
                    basis=fee.basis,
                ),
            )
        if unsized:
            says.append(
                Said(
                    "O ramo não tem tamanho fixado no ato: área informada de {area} m².",
                    when=f"line in {_texts(unsized)}",
                )
            )
    else:
        says.append(Said("Área declarada: {area} m²."))
    return _formula_fee(
        fee,
        formula=formula,
        per="month",
        terms=(term,),
        tables=tables,
        exceptions=exceptions,
        refusals=tuple(refusals),
        says=tuple(says),
    )


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
            rows.append(
                TableRow(
                    amount.value,
                    venue.basis,
                    when=f"venue == '{venue.id}'",
                    label=venue.label,
                    basis_act=venue.basis_act,
                    amended_by=venue.amended_by,
                )
            )
        if len(units) > 1:  # one table, one unit: no shipped act mixes them
            raise ValueError(f"{fee.id}: {pick} em unidades diferentes ({', '.join(sorted(units))})")
        return DecisionTable(name=name, label=label, rows=tuple(rows), unit=units.pop() if units else per)

    one_day = table("taxa_um_dia", "Taxa por 1 dia, conforme o imóvel", "dia", "one_day")
    per_day = table("taxa_por_dia", "Taxa por dia, conforme o imóvel", "dia", "per_day")
    minimum = table("minimo_dias", "Mínimo de dias cobrados, conforme o imóvel", "dia", "min_days")
    charged = FormulaTerm(
        name="dias_cobrados",
        label="dias cobrados",
        formula="max(days, minimo_dias)",
        basis=fee.basis,
        cited=(CitedWhen(fee.basis, "days < minimo_dias"),),  # said where the minimum binds
    )
    # "Taxa por 1 dia | Taxa por dia (mínimo de N dias)" (LC 324/2025, art. 89): what the line says of the
    # days, the minimum's article cited where it binds — each venue's own paragraph
    says = [
        Said(
            "1 dia: taxa por 1 dia, {taxa_um_dia} (a partir de 2 dias: {taxa_por_dia} por dia, mínimo de "
            "{minimo_dias} cobrados)",
            when="days == 1 dia",
        )
    ]
    for basis in dict.fromkeys(venue.basis for venue in fee.venues):
        ids = _texts(tuple(venue.id for venue in fee.venues if venue.basis == basis))
        says.append(
            Said(
                "{days} de uso: mínimo de {minimo_dias} cobrados",
                when=f"venue in {ids} and days > 1 dia and days < minimo_dias",
                basis=basis,
            )
        )
    says.append(
        Said("{days} de uso: {taxa_por_dia} por dia (mínimo de {minimo_dias} atingido)", when="days >= minimo_dias")
    )
    charge = _formula_fee(
        fee,
        formula="dias_cobrados * taxa_por_dia",
        terms=(charged,),
        tables=(one_day, per_day, minimum),
        line_label=f"{fee.label} — {{venue}} ({{days}})",
        says=tuple(says),
        exceptions=(
            FeeException(
                id="um-dia",
                label="uso por um só dia",
                when="days == 1 dia",
                formula="days * taxa_um_dia",
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
        line_label="Caução — {venue}",
        reading=None,
        basis_act=None,
        venues=(),
    )
    return charge, deposit


def admin_value_input(fee: Fee) -> AskedInput | None:
    """The value asked for where a ``fixed`` or ``per-day`` fee leaves its value to the Administration
    (``admin_defined = true``): the fee's own value (``fee_value``), per day when the fee is daily; None else."""
    if not fee.admin_defined:
        return None
    per_day = fee.kind == "per-day" or fee.per == "day"
    return AskedInput(
        name=admin_value_name(fee.id),
        label="Valor definido pela Administração" + (" (por dia)" if per_day else ""),
        basis=fee.basis,
        unit="R$/dia" if per_day else "R$",
        set_by="administration",
        basis_act=fee.basis_act,
        fee_value=True,
    )


def _fixed(fee: Fee) -> Fee:
    per_day = fee.kind == "per-day" or fee.per == "day"
    days = "days * " if per_day else ""
    per = "day" if fee.kind == "per-day" else fee.per
    label = f"{fee.label} ({{days}})" if per_day else None
    asked = admin_value_input(fee)
    if asked is not None:
        return _formula_fee(fee, formula=f"{days}{asked.name}", per=per, inputs=(asked,), line_label=label)
    assert fee.amount is not None, "the loader requires amount or admin_defined"
    term = FormulaTerm(
        name="valor",
        label="Valor fixado no ato" + (" por dia" if per_day else ""),
        value=fee.amount.value,
        unit=_unit(fee.amount.unit, "dia" if per_day else ""),
        basis=fee.basis,
        basis_act=fee.basis_act,
    )
    return _formula_fee(fee, formula=f"{days}valor", per=per, terms=(term,), line_label=label)


def as_formulas(fee: Fee, regime: Regime | None = None) -> tuple[Fee, ...]:
    """``fee`` said in the rule language: itself if it is a formula fee already; a venue table gives its fee
    and, when a venue has one, its deposit. ``regime`` — the fee's act — gives the names of its equipment,
    lines and venues (the refusals word them as the act does) and the sizes of its lines."""
    labels = act_labels(regime) if regime is not None else {}
    lines = regime.lines if regime is not None else ()
    if fee.kind == "formula":
        return (fee,)
    if fee.kind == "linear-metre":
        return (_linear_metre(fee),)
    if fee.kind == "energy":
        return (_energy(fee, labels),)
    if fee.kind == "per-area-month":
        return (_per_area_month(fee, lines),)
    if fee.kind == "venue-table":
        return _venue_table(fee)
    return (_fixed(fee),)


def act_labels(regime: Regime) -> dict[str, str]:
    """The act's names of its equipment, lines and venues, by id: what a converted refusal says."""
    venues = (venue for fee in regime.fees for venue in fee.venues)
    return {item.id: item.label for items in (regime.equipment_kinds, regime.lines, venues) for item in items}


def converted_fees(regime: Regime) -> tuple[Fee, ...]:
    """Every fee of ``regime`` said in the rule language, its refusals worded with the act's names."""
    return tuple(f for fee in regime.fees for f in as_formulas(fee, regime))


_CONVERTED: dict[tuple[str, str, str], tuple[Fee, tuple[Fee, ...]]] = {}


def formulas_of(regime: Regime, fee: Fee) -> tuple[Fee, ...]:
    """The formula fee(s) ``fee`` is priced as: itself for a formula fee, else its conversion — made once per
    version of the act (keyed as ``program_for`` is: the regime's id and SHA-256, or the fee's identity for a
    regime built in memory), so each converted fee is compiled once too."""
    if fee.kind == "formula":
        return (fee,)
    key = (regime.id, regime.sha256 or f"object-{id(fee)}", fee.id)
    found = _CONVERTED.get(key)
    if found is None or found[0] is not fee:
        found = _CONVERTED[key] = (fee, as_formulas(fee, regime))
    return found[1]
