"""Sanctions: what an act imposes for one or more infractions — pure functions.

:func:`propose_sanction` reads the regime's infraction catalogue and penalty
ladders (``[[infractions]]``, ``[[ladders]]``, ``[penalties]``) and the
offender's history, and proposes each sanction with its article:

* the **offence number** is 1 + the prior offences of the same nature
  (``Infraction.nature``) within the recurrence window (the ladder's
  ``recurrence_window_days``, else ``[penalties] recurrence.window_days``;
  without either every prior offence counts); the ladder's step for that
  number applies, and its last step repeats;
* a step that opens with a **warning** gives its ``comply_days`` or
  ``comply_hours``; the other sanctions of that step that are not
  ``cumulative`` apply only if the warning is not complied with in time
  (Olímpia art. 10, parágrafo único, and art. 29; SJC art. 23: "sob pena de
  multa"), and are marked ``condition = "if-not-complied"``;
* **fines** are the infraction's ``fine`` times the step's ``multiplier`` (or
  the sanction's own ``amount``): fiscal units × the unit's value in the year
  (the clerk's values in ``unit_values`` prevail over the file, as in
  ``models.fees``), rounded once to the cent ``ROUND_HALF_UP``, with the
  formula and the values; a fine in reais that the act corrects by an index
  (``[penalties] index``) is multiplied by the accumulated factor given in
  ``index_factors``. A multiplier above ``recurrence.multiplier **
  max_doublings`` is capped (Olímpia art. 12, § 2º: doubled at most twice). A
  **graded** fine ("até R$ 500,00", SJC art. 24, § 1º) has no amount until the
  authority grades it with :func:`adjust`;
* an infraction without a ladder gets its fine, doubled on recurrence when
  ``[penalties] recurrence`` says so, and its own ``sanctions`` (which apply
  every time, with or without a ladder);
* **discretionary** sanctions (the act says "poderá") are proposed but not
  applied until the authority applies them (:func:`adjust`); a discretionary
  fine is applied (the discretion is on its amount);
* several infractions at once: each one's sanctions, cumulated where the act
  says so (``[penalties] cumulative``: Sapezal art. 49, parágrafo único;
  Olímpia art. 190, parágrafo único).

:func:`adjust` lets the inspector or the chief grade within the act's limits,
apply or drop a discretionary sanction, always with a written reason; anything
outside the limits is refused with a pt-BR ``UserError``. A fiscal unit
without a value for the year raises ``MissingUnitValue`` (a ``UserError``
naming the unit and the year).
"""

from __future__ import annotations

import calendar as _calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from models import describe
from models.errors import UserError
from models.money import format_brl, format_factor, round_cents, to_decimal
from models.regimes import Amount, Infraction, Ladder, Regime, Sanction, get_regime

__all__ = [
    "PriorOffence",
    "ProposedSanction",
    "InfractionProposal",
    "Adjustment",
    "Proposal",
    "propose_sanction",
    "adjust",
    "count_prior",
]

IF_NOT_COMPLIED = "if-not-complied"
_MERGED_KINDS = ("seizure", "interdiction", "forfeiture")
_TIMES = " × "
UnitValues = Mapping[tuple[str, int], Decimal]


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class PriorOffence:
    """An earlier infraction of the same offender: its code in the regime and its date."""

    code: str
    on: dt.date


@dataclass(frozen=True)
class ProposedSanction:
    """One sanction of the proposal, numbered across the whole proposal (``adjust`` takes the number)."""

    number: int
    infraction: str
    kind: str
    label: str
    basis: str
    applied: bool = True
    discretionary: bool = False
    cumulative: bool = False
    admin_defined: bool = False
    #: ``"if-not-complied"``: only if the warning of the same step is not complied with in time
    condition: str | None = None
    # warning
    comply_days: int | None = None
    comply_hours: int | None = None
    # fine
    amount: Decimal | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    graded: bool = False
    multiplier: Decimal | None = None
    units: Decimal | None = None
    unit: str | None = None
    unit_value: Decimal | None = None
    year: int | None = None
    formula: str | None = None
    # suspension
    days: int | None = None
    min_days: int | None = None
    max_days: int | None = None
    until_remedied: bool = False
    # revocation
    wait_months: int | None = None
    wait_until: dt.date | None = None
    text: str | None = None
    #: ids of the regime's deadlines that run for this sanction (``compute_deadline`` takes them)
    deadlines: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    notes: str | None = None
    adjusted: bool = False

    @property
    def amount_adjustable(self) -> bool:
        return self.kind == "fine" and (self.graded or self.admin_defined or self.min_amount is not None)

    @property
    def days_adjustable(self) -> bool:
        return self.kind == "suspension" and not self.until_remedied and (
            self.max_days is not None or self.admin_defined)

    @property
    def pending(self) -> str | None:
        """What the authority must still fix before this sanction is final (None when nothing)."""
        if not self.applied:
            return None
        if self.kind == "fine" and self.amount is None:
            if self.max_amount is not None:
                return f"valor da multa a graduar pela autoridade, até {format_brl(self.max_amount)}"
            return "valor da multa a definir pela Administração"
        if self.kind == "suspension" and self.days is None and not self.until_remedied:
            if self.max_days is not None:
                return f"prazo da suspensão a fixar pela autoridade, de {self.min_days or 1} a {self.max_days} dias"
            return "prazo da suspensão a fixar pela Administração"
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Decimal):
                value = str(value)
            elif isinstance(value, dt.date):
                value = value.isoformat()
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        out["amount_text"] = format_brl(self.amount) if self.amount is not None else None
        out["max_amount_text"] = format_brl(self.max_amount) if self.max_amount is not None else None
        out["pending"] = self.pending
        return out


@dataclass(frozen=True)
class InfractionProposal:
    """The sanctions for one infraction: which offence it is, which step, why."""

    code: str
    label: str
    article: str  # full citation of the article infringed
    basis: str  # full citation of the article that sets the penalty
    nature: str
    prior: int
    offence: int
    sanctions: tuple[ProposedSanction, ...]
    ladder: str | None = None
    ladder_label: str | None = None
    step: int | None = None
    recurrence_window_days: int | None = None
    details: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code, "label": self.label, "article": self.article, "basis": self.basis,
            "nature": self.nature, "prior": self.prior, "offence": self.offence, "ladder": self.ladder,
            "ladder_label": self.ladder_label, "step": self.step,
            "recurrence_window_days": self.recurrence_window_days, "details": list(self.details),
            "sanctions": [s.to_dict() for s in self.sanctions],
        }


@dataclass(frozen=True)
class Adjustment:
    number: int
    change: str  # amount | days | apply | omit
    before: str
    after: str
    reason: str
    by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Proposal:
    regime: str
    on: dt.date
    year: int
    items: tuple[InfractionProposal, ...]
    cumulative: bool = False
    cumulative_basis: str | None = None
    notes: tuple[str, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()

    @property
    def sanctions(self) -> tuple[ProposedSanction, ...]:
        return tuple(s for item in self.items for s in item.sanctions)

    def sanction(self, number: int) -> ProposedSanction:
        for s in self.sanctions:
            if s.number == number:
                return s
        last = len(self.sanctions)
        raise UserError(f"A proposta não tem a sanção nº {number} (são {last}: de 1 a {last}).", field="number")

    @property
    def total(self) -> Decimal:
        """The fines that apply now (applied, not conditional, with an amount)."""
        return sum((s.amount for s in self.sanctions
                    if s.kind == "fine" and s.applied and s.condition is None and s.amount is not None),
                   Decimal("0.00"))

    @property
    def total_if_not_complied(self) -> Decimal:
        """The fines if the warnings are not complied with in time (conditional fines included)."""
        return sum((s.amount for s in self.sanctions if s.kind == "fine" and s.applied and s.amount is not None),
                   Decimal("0.00"))

    @property
    def pending(self) -> tuple[str, ...]:
        return tuple(f"Sanção nº {s.number}: {s.pending}" for s in self.sanctions if s.pending)

    def to_dict(self) -> dict[str, Any]:
        return {
            "regime": self.regime,
            "on": self.on.isoformat(),
            "year": self.year,
            "cumulative": self.cumulative,
            "cumulative_basis": self.cumulative_basis,
            "infractions": [item.to_dict() for item in self.items],
            "total": str(self.total),
            "total_text": format_brl(self.total),
            "total_if_not_complied": str(self.total_if_not_complied),
            "total_if_not_complied_text": format_brl(self.total_if_not_complied),
            "pending": list(self.pending),
            "notes": list(self.notes),
            "adjustments": [a.to_dict() for a in self.adjustments],
        }


# --------------------------------------------------------------------------- helpers


def _cite(regime: Regime, *bases: str | None, act: str | None = None) -> str:
    seen: list[str] = []
    for basis in bases:
        for part in (basis or "").split("; "):
            if part and part not in seen:
                seen.append(part)
    return regime.cite("; ".join(seen) if seen else None, act)


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` plus ``months`` calendar months (31/01 + 1 → 28 or 29/02)."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, _calendar.monthrange(year, month)[1]))


def _date(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


def _window(regime: Regime, ladder: Ladder | None) -> tuple[int | None, str | None]:
    """The recurrence window in days and the article that sets it."""
    if ladder is not None and ladder.recurrence_window_days:
        rec = regime.penalties.recurrence if regime.penalties else None
        basis = rec.basis if rec is not None and rec.window_days == ladder.recurrence_window_days else ladder.basis
        return ladder.recurrence_window_days, basis
    rec = regime.penalties.recurrence if regime.penalties else None
    if rec is not None and rec.window_days:
        return rec.window_days, rec.basis
    return None, None


def _nature(regime: Regime, code: str) -> str:
    if code in regime.ids("infraction"):
        infraction = regime.infraction(code)
        return infraction.nature or infraction.code
    return code


def _priors(prior: int | Iterable[PriorOffence | tuple[str, dt.date]]) -> int | list[PriorOffence]:
    if isinstance(prior, bool):
        raise UserError("Ocorrências anteriores: informe um número inteiro ou a lista de ocorrências.", field="prior")
    if isinstance(prior, int):
        if prior < 0:
            raise UserError(f"Número de ocorrências anteriores inválido: {prior} (use 0 ou mais).", field="prior")
        return prior
    found = []
    for item in prior:
        if isinstance(item, PriorOffence):
            found.append(item)
        else:
            code, on = item
            found.append(PriorOffence(code, on))
        if isinstance(found[-1].on, dt.datetime) or not isinstance(found[-1].on, dt.date):
            raise UserError(f"Ocorrência anterior sem data válida: {item!r}.", field="prior")
    return found


def count_prior(
    regime: Regime | str,
    code: str,
    prior: int | Iterable[PriorOffence | tuple[str, dt.date]],
    on: dt.date,
) -> tuple[int, tuple[str, ...]]:
    """How many prior offences count for recurrence of ``code`` on ``on``, and the reckoning in words.

    With a number, it is taken as given. With a list, the offences of the same
    nature, on or before ``on`` and within the recurrence window, count.
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    infraction = regime.infraction(code)
    ladder = regime.ladder(infraction.ladder) if infraction.ladder else None
    window, window_basis = _window(regime, ladder)
    found = _priors(prior)
    if isinstance(found, int):
        return found, (f"Ocorrências anteriores da mesma natureza informadas: {found}.",) if found else ()
    nature = infraction.nature or infraction.code
    same = sorted((p for p in found if _nature(regime, p.code) == nature and p.on <= on), key=lambda p: p.on)
    if window is None:
        counted, outside = same, []
    else:
        limit = on - dt.timedelta(days=window)
        counted = [p for p in same if p.on >= limit]
        outside = [p for p in same if p.on < limit]
    details = []
    if counted:
        where = (f"em até {describe.span(window)} ({regime.cite(window_basis)})" if window is not None
                 else "(o ato não fixa prazo de reincidência: contam todas)")
        details.append(f"Ocorrências anteriores da mesma natureza {where}: "
                       + ", ".join(_date(p.on) for p in counted) + ".")
    if outside:
        details.append("Fora do prazo de reincidência, não contam: " + ", ".join(_date(p.on) for p in outside) + ".")
    return len(counted), tuple(details)


# --------------------------------------------------------------------------- proposing


@dataclass
class _Context:
    regime: Regime
    on: dt.date
    year: int
    unit_values: UnitValues | None
    index_factors: Mapping[str, Decimal]


def propose_sanction(
    regime: Regime | str,
    infraction_codes: Iterable[str],
    *,
    on: dt.date,
    prior: int | Iterable[PriorOffence | tuple[str, dt.date]] = 0,
    year: int | None = None,
    unit_values: UnitValues | None = None,
    index_factors: Mapping[str, Decimal | int | str] | None = None,
    step: int | None = None,
    reason: str | None = None,
) -> Proposal:
    """The sanctions the act sets for ``infraction_codes`` committed on ``on``.

    ``prior`` — the number of earlier offences of the same nature within the
    recurrence window (taken as given), or the list of earlier offences
    (:class:`PriorOffence` or ``(code, date)``), which the engine filters by
    nature and window. ``year`` — the year of the fiscal-unit values (default:
    the year of ``on``). ``unit_values`` — ``{(code, year): Decimal}`` entered
    by the clerk (``models.fiscal.unit_overrides``); ``index_factors`` —
    ``{index: accumulated factor}`` for fines in reais corrected by an index.
    ``step`` — where the act lets the authority apply the penalties in any
    order (``[penalties] any_order``, SJC art. 22, parágrafo único), the step to
    apply instead of the offence's, with ``reason``.
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    if isinstance(on, dt.datetime) or not isinstance(on, dt.date):
        raise UserError(f"Data da infração inválida: {on!r}.", field="on")
    codes = [c.strip() if isinstance(c, str) else c for c in infraction_codes]
    if not codes:
        raise UserError("Informe ao menos uma infração.", field="infraction")
    repeated = sorted({c for c in codes if codes.count(c) > 1})
    if repeated:
        raise UserError(f"Infração repetida na mesma autuação: {', '.join(repeated)}.", field="infraction")
    infractions = [regime.infraction(code) for code in codes]
    if year is not None and (isinstance(year, bool) or not isinstance(year, int)):
        raise UserError(f"Ano inválido: {year!r}.", field="year")
    factors = {}
    for code, value in (index_factors or {}).items():
        factor = to_decimal(value)
        if factor <= 0:
            raise UserError(f"Fator de correção do {code} inválido: {value}.", field="index_factor")
        factors[code] = factor
    ctx = _Context(regime, on, year if year is not None else on.year, unit_values, factors)
    found = _priors(prior)

    notes: list[str] = []
    if step is not None:
        any_order = regime.penalties.any_order if regime.penalties else None
        if any_order is None:
            raise UserError(f"O ato ({regime.short}) não permite aplicar as penalidades fora da ordem da gradação: "
                            "vale o degrau da ocorrência.", field="step")
        if not (reason or "").strip():
            raise UserError("Informe por escrito o motivo de aplicar outro degrau da gradação.", field="reason")
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise UserError(f"Degrau inválido: {step!r} (o primeiro é 1).", field="step")
        notes.append(f"Degrau {step} aplicado pela autoridade, independentemente da ordem "
                     f"({regime.cite_item(any_order)}) — motivo: {reason.strip()}")

    items = []
    number = 1
    for infraction in infractions:
        item = _propose_one(ctx, infraction, found, step, number)
        number += len(item.sanctions)
        items.append(item)

    cumulative_flag = regime.penalties.cumulative if regime.penalties else None
    cumulative = len(items) > 1 and cumulative_flag is not None
    if len(items) > 1:
        if cumulative_flag is not None:
            notes.append(f"Infrações simultâneas: as sanções de cada uma aplicam-se cumulativamente "
                         f"({regime.cite_item(cumulative_flag)}).")
        else:
            notes.append(f"O ato ({regime.short}) não diz se as sanções de infrações simultâneas se acumulam: "
                         "cada infração é proposta com as suas.")
    return Proposal(
        regime=regime.id, on=on, year=ctx.year, items=tuple(items), cumulative=cumulative,
        cumulative_basis=regime.cite_item(cumulative_flag) if cumulative_flag is not None else None,
        notes=tuple(notes),
    )


def _propose_one(ctx: _Context, infraction: Infraction, prior, step: int | None, first_number: int) -> InfractionProposal:
    regime = ctx.regime
    ladder = regime.ladder(infraction.ladder) if infraction.ladder else None
    count, details_prior = count_prior(regime, infraction.code, prior, ctx.on)
    offence = count + 1
    details = list(details_prior)
    details.append(f"Esta é a {offence}ª ocorrência.")
    window, _ = _window(regime, ladder)
    rec = regime.penalties.recurrence if regime.penalties else None

    planned: list[tuple[Sanction, str | None, Decimal | None]] = []  # (sanction, condition, recurrence multiplier)
    used_step = None
    if ladder is not None:
        used_step = step if step is not None else offence
        if step is not None and step > len(ladder.steps):
            raise UserError(f"A gradação \"{ladder.label}\" tem {len(ladder.steps)} degraus; o degrau {step} não existe.",
                            field="step")
        chosen = ladder.step_for(used_step)
        if used_step > len(ladder.steps):
            details.append(f"A gradação tem {len(ladder.steps)} degraus: vale o último "
                           f"({chosen.offence}ª ocorrência e seguintes).")
        warning_first = any(s.kind == "warning" for s in chosen.sanctions)
        for s in chosen.sanctions:
            condition = IF_NOT_COMPLIED if warning_first and s.kind != "warning" and not s.cumulative else None
            planned.append((s, condition, None))
    elif infraction.fine is not None:
        multiplier = Decimal(1)
        if offence > 1 and rec is not None and rec.multiplier is not None:
            times = offence - 1 if rec.max_doublings is None else min(offence - 1, rec.max_doublings)
            multiplier = rec.multiplier ** times
        synthetic = Sanction(kind="fine", basis=infraction.fine.basis, multiplier=multiplier,
                             discretionary=bool(rec and rec.discretionary and multiplier != 1))
        planned.append((synthetic, None, multiplier if multiplier != 1 else None))
        if offence > 1 and (rec is None or rec.multiplier is None):
            details.append(f"O ato ({regime.short}) não agrava a multa desta infração na reincidência.")
    elif offence > 1:
        details.append(f"O ato ({regime.short}) não agrava a sanção desta infração na reincidência.")
    for s in infraction.sanctions:
        planned.append((s, None, None))

    sanctions: list[ProposedSanction] = []
    for s, condition, rec_multiplier in planned:
        proposed = _sanction(ctx, infraction, s, condition, rec_multiplier, first_number + len(sanctions))
        merged = False
        if proposed.kind in _MERGED_KINDS:
            for i, earlier in enumerate(sanctions):
                if earlier.kind == proposed.kind and earlier.condition == proposed.condition:
                    sanctions[i] = _merge(regime, earlier, proposed, s)
                    merged = True
                    break
        if not merged:
            sanctions.append(proposed)
    return InfractionProposal(
        code=infraction.code, label=infraction.label, article=regime.cite(infraction.article),
        basis=regime.cite_item(infraction), nature=infraction.nature or infraction.code, prior=count,
        offence=offence, sanctions=tuple(sanctions), ladder=ladder.id if ladder else None,
        ladder_label=ladder.label if ladder else None, step=min(used_step, len(ladder.steps)) if ladder else None,
        recurrence_window_days=window, details=tuple(details),
    )


def _merge(regime: Regime, earlier: ProposedSanction, later: ProposedSanction, source: Sanction) -> ProposedSanction:
    """Two seizures (interdictions…) for one infraction are one, with both articles."""
    basis = earlier.basis
    extra = source.basis
    if extra and extra not in basis:
        basis = f"{basis}; {extra}"
    mandatory = not (earlier.discretionary and later.discretionary)
    return dataclasses.replace(
        earlier, basis=basis, discretionary=not mandatory, applied=earlier.applied or later.applied or mandatory,
        details=earlier.details + tuple(d for d in later.details if d not in earlier.details),
    )


def _related_deadlines(regime: Regime, s: Sanction) -> tuple[str, ...]:
    found = []
    for d in regime.deadlines:
        if s.kind not in d.applies_to:
            continue
        if s.kind == "warning":
            if s.comply_days is not None and d.days != s.comply_days:
                continue
            if s.comply_hours is not None and d.hours != s.comply_hours:
                continue
        found.append(d.id)
    return tuple(found)


def _sanction(ctx: _Context, infraction: Infraction, s: Sanction, condition: str | None,
              rec_multiplier: Decimal | None, number: int) -> ProposedSanction:
    regime = ctx.regime
    common: dict[str, Any] = dict(
        number=number, infraction=infraction.code, kind=s.kind, label=describe.sanction(s),
        basis=regime.cite(s.basis, s.basis_act), discretionary=s.discretionary, cumulative=s.cumulative,
        admin_defined=s.admin_defined, condition=condition, text=s.text, notes=s.notes,
        deadlines=_related_deadlines(regime, s),
        applied=not (s.discretionary and s.kind != "fine"),
    )
    details: list[str] = []
    if condition == IF_NOT_COMPLIED:
        details.append("Só se a advertência não for atendida no prazo.")
    if s.kind == "warning":
        common.update(comply_days=s.comply_days, comply_hours=s.comply_hours)
        if s.comply_hours == 0:
            details.append("Regularização imediata.")
    elif s.kind == "fine":
        common.update(_fine(ctx, infraction, s, rec_multiplier, details))
    elif s.kind == "suspension":
        if s.days is not None and s.max_days is None:
            common["days"] = s.days
        elif s.max_days is not None:
            common.update(min_days=s.days or 1, max_days=s.max_days)
        common["until_remedied"] = s.until_remedied
    elif s.kind == "revocation" and s.wait_months:
        until = add_months(ctx.on, s.wait_months)
        common.update(wait_months=s.wait_months, wait_until=until)
        details.append(f"Nova permissão só a partir de {_date(until)} "
                       f"({describe.months(s.wait_months)} contados de {_date(ctx.on)}).")
    elif s.kind == "seizure" and regime.seizure is not None and regime.seizure.depot_fee is not None:
        fee = regime.seizure.depot_fee
        if fee.amount is not None:
            per = describe.PER.get(fee.per or "", "")
            details.append(f"Diária de depósito: {describe.amount(fee.amount)} {per} ({regime.cite_item(fee)}).")
        elif fee.admin_defined:
            details.append(f"Preço do depósito definido pela Administração ({regime.cite_item(fee)}).")
    if s.discretionary and s.kind != "fine":
        details.append("A critério da autoridade: só se aplica se ela decidir (ajuste com o motivo).")
    return ProposedSanction(details=tuple(details), **common)


def _index_factor(ctx: _Context, amount: Amount) -> tuple[Decimal, str | None, str | None]:
    """The correction of a fine in reais by the act's index: (factor, formula part, detail)."""
    regime = ctx.regime
    ref = regime.penalties.index if regime.penalties else None
    if ref is None or amount.unit != "BRL":
        return Decimal(1), None, None
    index = regime.index(ref.code)
    if ctx.year <= index.base_year:
        return Decimal(1), None, None
    factor = ctx.index_factors.get(index.code)
    if factor is None:
        raise UserError(
            f"A multa de {format_brl(amount.value)} é de {index.base_year} e é corrigida anualmente pelo "
            f"{index.code} ({regime.cite_item(ref)}): informe o fator acumulado do {index.code} de "
            f"{index.base_year} a {ctx.year}, ou calcule para {index.base_year}.",
            field="index_factor",
        )
    part = f"{format_factor(factor)} ({index.code} {index.base_year}→{ctx.year})"
    detail = f"Correção {index.code} {index.base_year}→{ctx.year}: fator {format_factor(factor)} ({regime.cite_item(ref)})"
    return factor, part, detail


def _fine(ctx: _Context, infraction: Infraction, s: Sanction, rec_multiplier: Decimal | None,
          details: list[str]) -> dict[str, Any]:
    regime = ctx.regime
    fine = infraction.fine
    base: Amount | None = None
    graded = s.graded
    admin = s.admin_defined
    multiplier = s.multiplier if s.multiplier is not None else Decimal(1)
    bases = [s.basis]
    act = s.basis_act
    if s.amount is not None:
        base = s.amount
    elif s.max is not None:
        base, graded = s.max, True
    elif fine is not None:
        bases.append(fine.basis)
        act = act or fine.basis_act
        if fine.admin_defined:
            admin = True
        elif fine.amount is not None:
            base = fine.amount
            details.append(f"Multa da infração: {describe.amount(fine.amount)} ({regime.cite_item(fine)}).")
        elif fine.max is not None:
            base, graded = fine.max, True
            details.append(f"Multa da infração: até {describe.amount(fine.max)}, graduada pela autoridade "
                           f"({regime.cite_item(fine)}).")
    else:
        admin = True

    rec = regime.penalties.recurrence if regime.penalties else None
    if rec is not None and rec.multiplier is not None and rec.max_doublings is not None:
        cap = rec.multiplier ** rec.max_doublings
        if multiplier > cap:
            details.append(f"Multiplicador limitado a {format_factor(cap)} — a multa dobra no máximo "
                           f"{describe.plural(rec.max_doublings, 'vez', 'vezes')} ({regime.cite_item(rec)}).")
            multiplier = cap
    if rec_multiplier is not None and rec is not None:
        how = "poderá ser aplicada" if rec.discretionary else "é aplicada"
        details.append(f"Reincidência: a multa {how} {format_factor(rec_multiplier)} × ({regime.cite_item(rec)}).")
        bases.append(rec.basis)
    elif multiplier != 1:
        details.append(f"Multa da infração × {format_factor(multiplier)} ({regime.cite(s.basis)}).")

    out: dict[str, Any] = dict(graded=graded, admin_defined=admin, multiplier=multiplier, year=ctx.year,
                               basis=_cite(regime, *bases, act=act))
    if base is None:
        out["formula"] = None
        return out
    units = multiplier * base.value
    parts = [] if multiplier == 1 else [format_factor(multiplier)]
    if base.unit == "BRL":
        exact = units
        parts.append(format_brl(base.value))
        unit_value = None
    else:
        unit_value = regime.unit_value(base.unit, ctx.year, ctx.unit_values)
        exact = units * unit_value
        parts.append(f"{format_factor(base.value)} {base.unit}")
        parts.append(f"{format_brl(unit_value)} ({base.unit} {ctx.year})")
        details.append(f"{base.unit} {ctx.year} = {format_brl(unit_value)} "
                       f"({regime.unit_value_citation(base.unit, ctx.year, ctx.unit_values)}).")
    factor, factor_part, factor_detail = _index_factor(ctx, base)
    if factor_part:
        exact *= factor
        parts.append(factor_part)
        details.append(factor_detail + ".")
    value = round_cents(exact)
    formula = f"{_TIMES.join(parts)} = {format_brl(value)}" if len(parts) > 1 else format_brl(value)
    out.update(units=units if base.unit != "BRL" else None, unit=base.unit, unit_value=unit_value)
    if graded:
        out.update(max_amount=value, formula=f"até {formula}")
        return out
    out.update(amount=value, formula=formula)
    if rec_multiplier is not None and rec is not None and rec.discretionary:
        single = round_cents(exact / rec_multiplier)
        out.update(min_amount=single, max_amount=value)
    return out


# --------------------------------------------------------------------------- adjusting


def _money(value: Any) -> Decimal:
    try:
        amount = to_decimal(value)
    except (TypeError, ValueError, UserError):
        raise UserError(f"Valor inválido: {value!s} (use, por exemplo, 350,00).", field="amount") from None
    if amount != amount.quantize(Decimal("0.01")):
        raise UserError(f"Informe o valor em reais com no máximo duas casas decimais: {value!s}.", field="amount")
    return amount.quantize(Decimal("0.01"))


def _numbers(values: Iterable[int] | None) -> list[int]:
    return list(values or [])


def adjust(
    proposal: Proposal,
    *,
    reason: str,
    amounts: Mapping[int, Any] | None = None,
    days: Mapping[int, int] | None = None,
    apply: Iterable[int] = (),
    omit: Iterable[int] = (),
    by: str | None = None,
) -> Proposal:
    """The proposal as the inspector or the chief grades it, within the act's limits.

    Sanctions are named by their ``number``. ``amounts`` — the amount in R$ of
    a graded fine (SJC: up to R$ 500,00) or of one the Administration sets;
    ``days`` — the days of a suspension the act gives as a range or leaves to
    the authority; ``apply`` / ``omit`` — apply or drop a discretionary
    sanction. Every change needs ``reason`` and is kept in ``adjustments``.
    Anything the act does not allow is refused with a ``UserError``.
    """
    why = (reason or "").strip()
    if not why:
        raise UserError("Informe por escrito o motivo do ajuste da sanção.", field="reason")
    amounts = dict(amounts or {})
    days = dict(days or {})
    apply_list, omit_list = _numbers(apply), _numbers(omit)
    if not (amounts or days or apply_list or omit_list):
        raise UserError("Nada a ajustar: informe o valor, o prazo ou a sanção a aplicar ou dispensar.", field="number")
    changed: dict[int, ProposedSanction] = {}
    log: list[Adjustment] = []

    def current(number: int) -> ProposedSanction:
        return changed.get(number) or proposal.sanction(number)

    for number in apply_list:
        s = current(number)
        if s.applied:
            raise UserError(f"A sanção nº {number} ({s.label}) já está aplicada.", field="apply")
        changed[number] = dataclasses.replace(s, applied=True, adjusted=True)
        log.append(Adjustment(number, "apply", "não aplicada", "aplicada", why, by))
    for number in omit_list:
        s = current(number)
        if not s.discretionary or s.kind == "fine":
            raise UserError(f"A sanção nº {number} ({s.label}) é imposta pelo ato ({s.basis}): "
                            "não pode ser dispensada.", field="omit")
        if not s.applied:
            raise UserError(f"A sanção nº {number} ({s.label}) já não está aplicada.", field="omit")
        changed[number] = dataclasses.replace(s, applied=False, adjusted=True)
        log.append(Adjustment(number, "omit", "aplicada", "dispensada", why, by))
    for number, raw in amounts.items():
        s = current(number)
        if s.kind != "fine":
            raise UserError(f"A sanção nº {number} ({s.label}) não é multa: não tem valor a graduar.", field="amount")
        value = _money(raw)
        if not s.amount_adjustable:
            shown = format_brl(s.amount) if s.amount is not None else "o valor do ato"
            raise UserError(f"A multa nº {number} é fixada pelo ato em {shown} ({s.basis}): "
                            "não pode ser graduada.", field="amount")
        low = s.min_amount if s.min_amount is not None else Decimal("0.01")
        if value < low or (s.max_amount is not None and value > s.max_amount):
            limits = (f"entre {format_brl(low)} e {format_brl(s.max_amount)}" if s.max_amount is not None
                      else f"a partir de {format_brl(low)}")
            raise UserError(f"Valor fora dos limites do ato: a multa nº {number} deve ficar {limits} "
                            f"({s.basis}); veio {format_brl(value)}.", field="amount")
        before = format_brl(s.amount) if s.amount is not None else "a graduar"
        formula = f"{format_brl(value)} (graduada pela autoridade"
        formula += f", até {format_brl(s.max_amount)})" if s.max_amount is not None else ")"
        changed[number] = dataclasses.replace(s, amount=value, formula=formula, adjusted=True)
        log.append(Adjustment(number, "amount", before, format_brl(value), why, by))
    for number, raw in days.items():
        s = current(number)
        if s.kind != "suspension":
            raise UserError(f"A sanção nº {number} ({s.label}) não é suspensão: não tem prazo em dias.", field="days")
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise UserError(f"Prazo inválido: {raw!r} (informe um número inteiro de dias).", field="days")
        if not s.days_adjustable:
            fixed = f"{s.days} dias" if s.days is not None else "até sanar a irregularidade"
            raise UserError(f"A suspensão nº {number} é fixada pelo ato ({fixed}, {s.basis}): "
                            "o prazo não pode ser alterado.", field="days")
        low = s.min_days or 1
        if raw < low or (s.max_days is not None and raw > s.max_days):
            limits = (f"de {low} a {s.max_days} dias" if s.max_days is not None else f"a partir de {low} dia")
            raise UserError(f"Prazo fora dos limites do ato: a suspensão nº {number} deve ser {limits} "
                            f"({s.basis}); veio {raw}.", field="days")
        before = f"{s.days} dias" if s.days is not None else "a fixar"
        changed[number] = dataclasses.replace(s, days=raw, adjusted=True)
        log.append(Adjustment(number, "days", before, describe.days(raw), why, by))

    items = tuple(
        dataclasses.replace(item, sanctions=tuple(changed.get(s.number, s) for s in item.sanctions))
        for item in proposal.items
    )
    return dataclasses.replace(proposal, items=items, adjustments=proposal.adjustments + tuple(log))
