"""The engine: :func:`fee_quote` reads the inputs, chooses the regime's fees that apply and prices each
(exemptions and the act's declared readings included) into a :class:`Quote`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import Any, TypeVar

from models.base.errors import UserError
from models.base.money import format_brl, format_factor, to_decimal
from models.rules.fees.formula import bounds_text, checked_asked, formula_line
from models.rules.fees.inputs import (
    Inputs,
    day_count,
    decimal_map,
    in_formula,
    measured,
    period_counts,
    period_text,
    regime_of,
)
from models.rules.fees.needs import fee_needs, fees_needs
from models.rules.fees.results import CENT_Q, ENERGY_NONE, Quote, QuoteLine, UnitOverrides
from models.rules.regimes import Regime
from models.rules.regimes.fee_formulas import program_for
from models.rules.regimes.legacy_fees import formulas_of
from models.rules.regimes.model import Choice, EnergyTier, Fee
from models.rules.regimes.regime import wording

T = TypeVar("T")

# --------------------------------------------------------------------------- the engine


def fee_quote(
    regime: Regime | str,
    *,
    equipment: str | None = None,
    line: str | None = None,
    front: Decimal | int | str | None = None,
    depth: Decimal | int | str | None = None,
    hitch: Decimal | int | str | None = None,
    area: Decimal | int | str | None = None,
    mei: bool = False,
    local: bool = False,
    energy: str = ENERGY_NONE,
    days: int | None = None,
    feira_days: int | None = None,
    events: int | None = None,
    months: int | None = None,
    fiscal_years: int | None = None,
    venue: str | None = None,
    year: int | None = None,
    unit_overrides: UnitOverrides | None = None,
    index_factors: Mapping[str, Decimal | int | str] | None = None,
    fees: Iterable[str] | None = None,
    permit_kind: str | None = None,
    admin_values: Mapping[str, Decimal | int | str] | None = None,
    exemption: str | None = None,
    asked: Mapping[str, Decimal | int | str] | None = None,
    asked_by: str | None = None,
) -> Quote:
    """Price a stall under ``regime``, line by line.

    Which fees are priced: the ids in ``fees`` if given; else the fees of
    ``permit_kind`` if given; else every fee the inputs call for —
    ``linear-metre`` when ``equipment`` or ``front`` is given, ``per-area-month``
    when ``line`` or ``area`` is given, ``energy`` when ``energy`` is a tier id
    (``"low"``, ``"high"``…), ``venue-table`` when ``venue`` is given. ``fixed``
    and ``per-day`` fees are priced only when named (``fees``/``permit_kind``);
    one whose value the act leaves to the Administration (``fee_needs(…).administration``:
    ``admin_defined``, or a formula's ``fee_value`` input) needs its value in ``admin_values``
    (R$, by fee id) — or by its asked name in ``asked``.
    An energy fee is skipped when ``energy="none"``.

    Sizes are metres (``Decimal``, ``int`` or text such as ``"4,00"``; never
    ``float``). ``hitch`` is added to ``front`` when the fee counts the hitch.
    ``year`` defaults to the year the act fixes for the fee (``year`` in the
    file), else the current year. ``unit_overrides`` — ``{(code, year): value}``
    from the database — win over the file. ``index_factors`` — ``{code: factor}``
    — correct an indexed fee (see the module docstring).

    ``exemption`` — the id of a case the act exempts (``[[fees.exemptions]]``:
    Olímpia art. 90, charitable and public educational events): the fees and
    deposits it waives are priced at R$ 0,00, with what they would have been
    and the article. A fee whose ``reading`` states how Praça reads an
    ambiguous rule shows it on every line.

    ``asked`` — ``{name: value}``: the values a formula fee asks for because the act leaves them to someone
    (``[[fees.inputs]]``: an administration-defined base, an inspector's grade within a ceiling); each is
    refused outside the bounds the act sets. ``asked_by`` names who set them: it is kept on each line that
    uses one (``QuoteLine.asked``) and said in its details. A ``formula`` fee is priced when named, or when
    an input it reads (equipment, front, line, area, venue) is given.

    ``feira_days``, ``events``, ``months``, ``fiscal_years`` — the periods a formula fee counts its price in
    (whole numbers from 1), read by its formulas under those names, each in its own unit (a price in
    R$/dia_feira times feira days): "por dia de feira", "por evento", "por mês", "por exercício".

    Bad input (unknown equipment/line/venue, zero or negative size, a tier the
    equipment is not entitled to, a missing unit value…) raises ``UserError``
    with a pt-BR message.
    """
    regime = regime_of(regime)
    exemptions = {e.id: e for f in regime.fees for e in f.exemptions} if exemption is not None else {}
    if exemption is not None and exemption not in exemptions:
        options = ", ".join(exemptions) or "nenhuma"
        raise UserError(
            f"Dispensa '{exemption}' não existe no regime {regime.id} (dispensas: {options}).", field="exemption"
        )
    if energy is None:
        energy = ENERGY_NONE
    if not isinstance(mei, bool) or not isinstance(local, bool):
        raise TypeError("mei/local must be bool")
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        raise UserError(f"Ano inválido: {year!r}", field="year")
    if year is not None and year < regime.published.year:
        raise UserError(
            f"Ano {year} anterior ao ato: {regime.act} ({regime.short}) é de {regime.published.year} e não fixa "
            f"preços para antes disso. Calcule para {regime.published.year} ou depois.",
            field="year",
        )
    by_name, others = _by_name(regime, asked)
    inp = Inputs(
        equipment=regime.equipment(equipment) if equipment is not None else None,
        line=regime.line(line) if line is not None else None,
        front=measured(front, "Frente", "front"),
        depth=measured(depth, "Profundidade", "depth"),
        hitch=measured(hitch, "Engate", "hitch", allow_zero=True),
        area=measured(area, "Área", "area", unit="m²"),
        mei=mei,
        local=local,
        energy=energy,
        days=day_count(days),
        venue=regime.venue(venue) if venue is not None else None,
        year=year,
        overrides=unit_overrides,
        index_factors=decimal_map(index_factors, "Fator de correção"),
        admin_values=_admin_values(regime, {**by_name, **(admin_values or {})}),
        exemption=exemption,
        asked=checked_asked(regime, others),
        asked_by=asked_by,
        periods=period_counts(
            {"feira_days": feira_days, "events": events, "months": months, "fiscal_years": fiscal_years}
        ),
    )
    if inp.equipment is not None:
        _check_equipment_limits(regime, inp)

    notes: list[str] = []
    # an energy fee, or a formula fee priced by the tier (its table of the tiers, or the tiers it was said from)
    energy_fees = regime.energy_fees
    tier_owner: tuple[Fee, EnergyTier | Choice] | None = None
    if energy != ENERGY_NONE:
        for fee in energy_fees:
            tier = fee.tier(energy)
            if tier is not None:
                tier_owner = (fee, tier)
                break
        if tier_owner is None:
            if not energy_fees:
                notes.append(
                    f"Energia: o regime {regime.id} ({regime.short}) não tem tarifa de energia — "
                    f"a faixa '{energy}' não entra no cálculo."
                )
            else:
                tier_ids = [ENERGY_NONE] + [t.id for f in energy_fees for t in f.energy_tiers()]
                raise UserError(
                    f"Faixa de energia '{energy}' não existe no regime {regime.id}. Opções: {', '.join(tier_ids)}.",
                    field="energy",
                )

    explicit: list[Fee] | None = None
    if fees is not None:
        explicit = [regime.fee(fee_id) for fee_id in fees]
    elif permit_kind is not None:
        explicit = [regime.fee(fee_id) for fee_id in regime.permit_kind(permit_kind).fees]

    selected: list[Fee] = []
    if explicit is not None:
        selected = [f for f in explicit if not (f.energy_tiers() and energy == ENERGY_NONE)]
        if tier_owner is not None and tier_owner[0] not in selected:
            notes.append(
                f"Energia: a tarifa de energia não faz parte dos preços pedidos "
                f'({", ".join(f.id for f in explicit)}) — a faixa "{tier_owner[1].label}" não entra '
                f"no cálculo."
            )
            tier_owner = None
    else:
        given = _given(inp)
        for fee, reads in zip(regime.fees, _formula_reads(regime), strict=True):
            if fee.kind == "linear-metre" and (inp.equipment is not None or inp.front is not None):
                selected.append(fee)
            elif fee.kind == "per-area-month" and (inp.line is not None or inp.area is not None):
                selected.append(fee)
            elif fee.kind == "energy" and tier_owner is not None and fee is tier_owner[0]:
                selected.append(fee)
            elif fee.kind == "venue-table" and inp.venue is not None and inp.venue in fee.venues:
                selected.append(fee)
            elif reads is not None and _formula_called_for(reads, inp, given):
                selected.append(fee)
    if not selected:
        raise UserError(_nothing_to_price(regime), field="fees")

    lines: list[QuoteLine] = []
    for fee in selected:
        start = len(lines)
        _price_fee(regime, fee, inp, tier_owner, lines)
        lines[start:] = [_as_read_and_exempted(regime, fee, line, inp) for line in lines[start:]]
    if exemption is not None and not any(exemption in {e.id for e in f.exemptions} for f in selected):
        notes.append(
            f'Dispensa: "{exemptions[exemption].label}" não se aplica aos preços calculados — não altera o valor.'
        )

    inputs = {
        k: v
        for k, v in dict(
            equipment=equipment,
            line=line,
            front=inp.front,
            depth=inp.depth,
            hitch=inp.hitch,
            area=inp.area,
            mei=mei,
            local=local,
            energy=energy,
            days=inp.days,
            **inp.periods,
            venue=venue,
            year=year,
            exemption=exemption,
            asked={name: str(value) for name, value in inp.asked.items()} or None,
        ).items()
        if v is not None
    }
    notes.extend(_unused_inputs(regime, selected, inp))
    return Quote(regime=regime.id, lines=tuple(lines), inputs=inputs, notes=tuple(notes), currency=regime.currency)


def _as_read_and_exempted(regime: Regime, fee: Fee, line: QuoteLine, inp: Inputs) -> QuoteLine:
    """A fee's line with the regime's declared reading of an ambiguous rule, and priced at R$ 0,00 where the
    case given is one the act exempts (the amount it would have been stays in the formula)."""
    changes: dict[str, Any] = {}  # the line copied once, and only when something is added to it
    details = line.details
    if fee.reading and line.kind == "charge":
        details = changes["details"] = (
            *details,
            _per_version(regime, ("reading", fee.id), lambda: _reading(regime, fee)),
        )
    basis = line.basis
    if fee.amended_by and line.exception is None:
        # the general rule as an amending act worded it: said with the figure (an exception that set the rule
        # aside cites its own article, not the amended wording)
        basis = changes["basis"] = f"{basis} ({wording(fee.amended_by)})"
    exemption = next((e for e in fee.exemptions if e.id == inp.exemption), None) if inp.exemption is not None else None
    if exemption is not None and ("deposit" if line.kind == "deposit" else "fee") in exemption.waives:
        cite = regime.cite_item(exemption)
        without = format_brl(line.amount, currency=regime.currency)
        changes.update(
            amount=Decimal("0.00"),
            formula=f"dispensada ({cite}); sem a dispensa: {line.formula} = {without}",
            basis=f"{basis}; {cite}",
            details=(*details, f"Dispensa: {exemption.label} ({cite}) — sem ela seria {without}."),
        )
    return dataclasses.replace(line, **changes) if changes else line


def _reading(regime: Regime, fee: Fee) -> str:
    """How Praça reads an ambiguous rule of the fee, with its article: said on each of its lines."""
    return f"Leitura adotada ({regime.cite_item(fee)}): {fee.reading}"


#: what the engine works out alike for every quote of a version of an act, by the act's id and SHA-256 and what
_VERSIONED: dict[tuple[str, str, object], Any] = {}


def _per_version(regime: Regime, what: tuple[object, ...], make: Callable[[], T]) -> T:
    """``make()``, worked out once per version of the act (by ``what``); each time for a regime built in memory,
    whose fees may change."""
    if not regime.sha256:
        return make()
    key = (regime.id, regime.sha256, what)
    found = _VERSIONED.get(key, _VERSIONED)
    if found is _VERSIONED:
        found = _VERSIONED[key] = make()
    return found  # type: ignore[no-any-return]


def _price_fee(
    regime: Regime, fee: Fee, inp: Inputs, tier_owner: tuple[Fee, EnergyTier | Choice] | None, lines: list[QuoteLine]
) -> None:
    """Price one fee into ``lines``, as its formulas (a fee of an older kind said in the rule language,
    ``legacy_fees``): a venue table gives its fee and its deposit."""
    if fee.kind == "energy" and not (tier_owner is not None and tier_owner[0] is fee):
        return  # no tier declared, or another fee's
    if fee.kind == "venue-table" and (inp.venue is None or inp.venue not in fee.venues):
        raise UserError(
            f'Informe o imóvel de "{fee.label}". Opções: {"; ".join(v.label for v in fee.venues)}.', field="venue"
        )

    def other(fee_id: str) -> QuoteLine:
        """Another fee of the act priced with the same inputs (``fee('…')`` in a formula)."""
        found: list[QuoteLine] = []
        _price_fee(regime, regime.fee(fee_id), inp, tier_owner, found)
        charges = [line for line in found if line.kind == "charge"]
        if not charges:
            raise UserError(f"O preço '{fee_id}' não tem valor para estes dados.", field="fees")
        total = sum((line.amount for line in charges), Decimal("0.00"))
        return dataclasses.replace(charges[0], amount=total)

    administration = fee_needs(regime, fee).administration
    for formula in formulas_of(regime, fee):
        asked: Mapping[str, Decimal] = inp.asked
        admin = administration if any(item.name == administration for item in formula.inputs) else None
        if admin is not None and fee.id in inp.admin_values:
            # the value the Administration set, given by the fee's id: the value the formula asks for
            asked = {**asked, admin: inp.admin_values[fee.id]}
        try:
            line = formula_line(regime, formula, inp, asked=asked, asked_by=inp.asked_by, fee_amount=other)
        except UserError as exc:
            if admin is None or exc.field != f"inputs.{admin}":
                raise
            raise UserError(
                f'O valor de "{fee.label}" é definido pela Administração ({regime.cite(fee.basis)}'
                + (f"; {fee.basis_act}" if fee.basis_act else "")
                + "): informe-o antes de calcular.",
                field="admin_value",
            ) from None
        # a line of the act's fee: a venue table's deposit, priced by its own formula, is the venue table's line
        lines.append(line if formula.id == fee.id else dataclasses.replace(line, fee=fee.id))


def _given(inp: Inputs) -> frozenset[str]:
    """The inputs that describe the stall which the case gives: what calls a formula fee that reads one of them."""
    given = []
    if inp.equipment is not None:
        given.append("equipment")
    if inp.front is not None:
        given.append("front")
    if inp.line is not None:
        given.append("line")
    if inp.area is not None or (inp.front is not None and inp.depth is not None):
        given.append("area")
    if inp.venue is not None:
        given.append("venue")
    if inp.energy != ENERGY_NONE:
        given.append("energy")
    return frozenset(given)


def _formula_reads(regime: Regime) -> tuple[frozenset[str] | None, ...]:
    """For each fee of the act, in its order, the desk's inputs a formula fee reads, itself or through the fees it
    adds up (None: a fee of another kind): found once per version of the act."""
    return _per_version(
        regime,
        ("reads",),
        lambda: tuple(_reads_through(regime, fee) if fee.kind == "formula" else None for fee in regime.fees),
    )


def _reads_through(regime: Regime, fee: Fee) -> frozenset[str]:
    """The desk's inputs a formula fee reads, itself or through the fees it adds up (a surcharge on a fee)."""
    reads: set[str] = set()
    todo, seen = [fee], set()
    while todo:
        program = program_for(regime, todo.pop())
        reads |= program.reads
        for other in program.fees:
            if other not in seen and regime.fee(other).kind == "formula":
                seen.add(other)
                todo.append(regime.fee(other))
    return frozenset(reads)


def _formula_called_for(reads: frozenset[str], inp: Inputs, given: frozenset[str]) -> bool:
    """A formula fee is priced unasked when the inputs that describe the stall (``given``, :func:`_given`), which
    it reads (``reads``: itself or through the fees it adds up, :func:`_formula_reads`), are given."""
    if "energy" in reads and inp.energy == ENERGY_NONE:  # a tariff by the consumption declared: none declared
        return False
    return not reads.isdisjoint(given)


def _unused_inputs(regime: Regime, selected: list[Fee], inp: Inputs) -> list[str]:
    """Inputs given that none of the priced fees reads: said, never silently dropped."""
    notes: list[str] = []
    mei_read, local_read, by_day, reads, used = _per_version(
        regime, ("read", *(f.id for f in selected)), lambda: _read_by(regime, selected)
    )
    if inp.mei and not mei_read:
        notes.append(
            "MEI: nenhum dos preços calculados tem desconto ou condição para MEI — a informação não altera o valor."
        )
    if inp.local and not local_read:
        notes.append(
            "Do município: nenhum dos preços calculados tem desconto ou condição para quem é do "
            "município — a informação não altera o valor."
        )
    if inp.days is not None and not by_day:
        days = f"{inp.days} {'dia' if inp.days == 1 else 'dias'}"
        notes.append(
            f"Dias ({days}): nenhum dos preços calculados é cobrado por dia — a informação não altera o valor."
        )
    for name, count in inp.periods.items():
        if name not in reads:
            notes.append(
                f"{period_text(name, count).capitalize()}: nenhum dos preços calculados é contado nesse período — "
                "a informação não altera o valor."
            )
    priced = {f.id for f in selected}
    for fee_id in inp.admin_values:
        if fee_id not in priced:
            notes.append(
                f"O valor informado para '{fee_id}' não entra no cálculo: esse preço não está entre os "
                "calculados (peça-o pelo id)."
            )
    for name in inp.asked:
        if name not in used:
            notes.append(f"O valor informado para '{name}' não entra no cálculo: nenhum dos preços calculados o usa.")
    return notes


def _read_by(regime: Regime, selected: list[Fee]) -> tuple[bool, bool, bool, frozenset[str], frozenset[str]]:
    """What the fees priced read of the case: whether one has a discount or condition for an MEI, for one of the
    town, whether one is priced by the day; the desk's inputs the formula fees read, the asked values they use."""
    conditions = [d.when for f in selected if f.kind == "linear-metre" for d in f.discounts]
    reads = frozenset(name for f in selected if f.kind == "formula" for name in program_for(regime, f).reads)
    by_day = "days" in reads or any(
        f.kind in ("venue-table", "per-day") or (f.kind == "fixed" and f.per == "day") for f in selected
    )
    return (
        any(c.mei is not None for c in conditions) or "mei" in reads,
        any(c.local is not None for c in conditions) or "local" in reads,
        by_day,
        reads,
        frozenset(item.name for f in selected for item in f.inputs),
    )


def _by_name(regime: Regime, asked: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The asked values split: a fee's own value typed by its name (``--input valor_licenca=…``), by the fee's id as
    if typed so — both wordings of the fee, a formula's ``fee_value`` and an older ``admin_defined``, take it alike —
    and the others, by their names."""
    if not asked:
        return {}, {}
    owners = {n.administration: n.fee for n in fees_needs(regime) if n.administration is not None}
    by_fee = {owners[name]: value for name, value in asked.items() if name in owners}
    return by_fee, {name: value for name, value in asked.items() if name not in owners}


def _admin_values(regime: Regime, values: Mapping[str, Any] | None) -> dict[str, Decimal]:
    """R$ values of the fees the act leaves to the administration, by fee id (cents at most, within the bounds the
    act sets for the value, if any)."""
    result: dict[str, Decimal] = {}
    if not values:
        return result
    owned = {n.fee: n for n in fees_needs(regime) if n.administration is not None}
    admin_ids = list(owned)
    for key, value in values.items():
        if key not in owned:
            known = (
                f"Preços definidos pela Administração neste regime: {', '.join(admin_ids)}."
                if admin_ids
                else "Este regime não tem preço definido pela Administração."
            )
            raise UserError(
                f"'{key}' não é um preço definido pela Administração no regime {regime.id} ({regime.short}). {known}",
                field="admin_value",
            )
        # the fee named as the clerk reads it (and as typed on the command line), at its own field
        what, field = f'"{regime.fee(key).label}" ({key})', f"admin_values.{key}"
        try:
            number = to_decimal(value)
        except UserError:
            raise UserError(
                f"Valor informado para {what} inválido: {value!s} não é um número (use, por exemplo, 150,00).",
                field=field,
            ) from None
        if number < 0:
            raise UserError(f"Valor informado para {what} não pode ser negativo: {format_factor(number)}", field=field)
        if number != number.quantize(CENT_Q):
            raise UserError(
                f"Valor informado para {what} inválido: {format_factor(number)} — informe no máximo "
                "duas casas decimais (centavos).",
                field=field,
            )
        item = next(i for i in owned[key].asked if i.name == owned[key].administration)
        if (item.minimum is not None and number < item.minimum) or (item.maximum is not None and number > item.maximum):
            raise UserError(
                f"Valor informado para {what}: {format_factor(number)} fora dos limites do ato — "
                f"{bounds_text(regime, item)}.",
                field=field,
            )
        result[key] = number
    return result


def _check_equipment_limits(regime: Regime, inp: Inputs) -> None:
    eq = inp.equipment
    assert eq is not None
    if inp.hitch is not None and inp.hitch > 0 and not eq.has_hitch:
        raise UserError(f"O equipamento '{eq.label}' não tem engate; não informe engate.", field="hitch")
    if eq.max_front is not None and inp.front is not None and inp.front > eq.max_front:
        raise UserError(
            f"{eq.label}: frente máxima de {in_formula(eq.max_front)} m ({regime.cite(eq.basis)}); "
            f"informado {in_formula(inp.front)} m.",
            field="front",
        )
    if eq.max_depth is not None and inp.depth is not None and inp.depth > eq.max_depth:
        raise UserError(
            f"{eq.label}: profundidade máxima de {in_formula(eq.max_depth)} m ({regime.cite(eq.basis)}); "
            f"informado {in_formula(inp.depth)} m.",
            field="depth",
        )


def _nothing_to_price(regime: Regime) -> str:
    hints = []
    kinds = {f.kind for f in regime.fees}
    # a fee whose value the Administration sets is asked for by its id, whatever its wording
    by_id = [f for f in regime.fees if f.kind in ("fixed", "per-day") or fee_needs(regime, f).administration]
    formulas = [f for f in regime.fees if f.kind == "formula" and f not in by_id]
    if "linear-metre" in kinds:
        hints.append("o equipamento e a frente (metros)")
    if "per-area-month" in kinds:
        hints.append("o ramo")
    if "energy" in kinds:
        hints.append("a faixa de energia")
    if "venue-table" in kinds:
        hints.append("o imóvel e os dias")
    if formulas:
        hints.append("os dados que as fórmulas leem, ou o preço pelo id (" + ", ".join(f.id for f in formulas) + ")")
    if by_id:
        hints.append("o preço pelo id (" + ", ".join(f.id for f in by_id) + ")")
    if not hints:
        return f"O regime {regime.id} ({regime.short}) não fixa preços nem taxas."
    return f"Nada a calcular no regime {regime.id}: informe " + ", ou ".join(hints) + "."
