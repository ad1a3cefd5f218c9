"""Sanctions: what an act imposes for one or more infractions — pure functions.

:func:`propose_sanction` reads the regime's infraction catalogue and penalty
ladders (``[[infractions]]``, ``[[ladders]]``, ``[penalties]``) and the
offender's history, and proposes each sanction with its article. Praça
proposes; where the act leaves the choice to the authority or ties a sanction
to a fact, the authority decides and the reason is kept:

* the **offence number** is 1 + the prior offences of the same nature
  (``Infraction.nature``) within the recurrence window — in calendar years
  (``recurrence_window_years``: the same day N years before) or in days; the ladder's step for that number applies,
  and its last step repeats. Every prior date is listed with why it counts or
  not;
* each sanction has a **decision**: ``imposed`` (the act imposes it),
  ``proposed`` (it waits for the authority or for a fact), ``omitted`` (the
  authority dropped it, with a written reason) or ``tolerated`` (within a
  tolerance the act grants);
* a **discretionary** sanction (the act says "poderá", "cumulativamente ou
  não", or leaves the choice: ``discretionary = true`` in the file) — fines
  included — is proposed: the authority imposes or omits it with a reason
  (:func:`adjust`); alternatives (``one_of``) — exactly one is imposed;
* a **conditional** sanction (``condition = { fact, text, basis }``) is never
  imposed by the count of offences: it waits until the fact is recorded with
  the day it was verified and who verified it (``facts`` here, or
  :func:`adjust`); a record that follows a notice not complied with supplies
  ``not-complied``;
* a **tolerance** (``tolerance``: Olímpia art. 218) spares the sanctions it
  names for the first occurrences, which then do not count for recurrence;
* **fines** are the infraction's ``fine`` times the step's ``multiplier`` (or
  the sanction's own ``amount``): fiscal units × the unit's value in the year
  (the clerk's values in ``unit_values`` prevail over the file, as in
  ``models.rules.fees``), rounded once to the cent ``ROUND_HALF_UP``, with the
  formula and the values; a fine in reais that the act corrects by an index
  (``[penalties] index``) is multiplied by the accumulated factor given in
  ``index_factors``. A multiplier above ``recurrence.multiplier **
  max_doublings`` is capped (Olímpia art. 12, § 2º: doubled at most twice),
  and the regime's ``reading`` of the rule is shown. A **graded** fine ("até
  R$ 500,00", SJC art. 24, § 1º) has no amount until the authority grades it
  with :func:`adjust`;
* an infraction without a ladder gets its fine, doubled on recurrence when
  ``[penalties] recurrence`` says so, and its own ``sanctions`` (which apply
  every time, with or without a ladder);
* several infractions at once: each one's sanctions, cumulated where the act
  says so (``[penalties] cumulative``: Sapezal art. 49, parágrafo único;
  Olímpia art. 190, parágrafo único);
* a fact dated before the act came into force (``[regime] in_force``) is
  refused.

:func:`adjust` lets the inspector or the chief grade within the act's limits,
impose or omit what the act leaves to them and record the facts a condition
waits for, always with a written reason; anything outside the limits is
refused with a pt-BR ``UserError``. A fiscal unit without a value for the year
raises ``MissingUnitValue`` (a ``UserError`` naming the unit and the year).

One module over ~1,300 lines because it is one cohesive thing: a pure rule engine (no database, no session;
typed ``mypy --strict``) whose proposal types, the counting of offences, :func:`propose_sanction` and
:func:`adjust` share the same helpers and invariants — :func:`adjust` re-checks exactly the limits the
proposal was built from.
"""

from __future__ import annotations

import calendar as _calendar
import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from models.base.errors import UserError
from models.base.money import format_brl, format_factor, parse_typed, round_cents, to_decimal
from models.rules import describe
from models.rules.fees import QuoteLine
from models.rules.fees.needs import fee_needs
from models.rules.regimes import Regime, check_in_force, get_regime
from models.rules.regimes.model import Amount, Fee, Infraction, Ladder, Reading, Sanction
from models.rules.regimes.model.fees import AskedInput
from models.rules.silences import AppliedReading, Choice, reading_for, resolve

__all__ = [
    "DECISIONS",
    "IMPOSED",
    "OMITTED",
    "PROPOSED",
    "TOLERATED",
    "Adjustment",
    "InfractionProposal",
    "PriorOffence",
    "Proposal",
    "ProposedSanction",
    "Verification",
    "adjust",
    "count_prior",
    "fine_fees",
    "imposed",
    "in_reais",
    "propose_sanction",
    "sanction_head",
    "sanction_lines",
]

IMPOSED, PROPOSED, OMITTED, TOLERATED = "imposed", "proposed", "omitted", "tolerated"
DECISIONS = {
    IMPOSED: "imposta",
    PROPOSED: "proposta — aguarda decisão",
    OMITTED: "dispensada",
    TOLERATED: "tolerada",
}
_MERGED_KINDS = ("seizure", "interdiction", "forfeiture")
_TIMES = " × "
UnitValues = Mapping[tuple[str, int], Decimal]


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class PriorOffence:
    """An earlier infraction of the same offender: its code in the regime and its date; ``pending`` when a
    defence or an appeal against it is still undecided (no final decision yet)."""

    code: str
    on: dt.date
    pending: bool = False


@dataclass(frozen=True)
class Verification:
    """A fact someone verified: the day it was verified, who verified it, and how."""

    on: dt.date
    by: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"on": self.on.isoformat(), "by": self.by, "note": self.note}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verification:
        on = data.get("on")
        return cls(
            on=dt.date.fromisoformat(on) if isinstance(on, str) else cast(dt.date, on),
            by=str(data.get("by") or ""),
            note=str(data.get("note") or ""),
        )

    @property
    def text(self) -> str:
        return f"verificado em {self.on:%d/%m/%Y} por {self.by}" + (f" — {self.note}" if self.note else "")


@dataclass(frozen=True)
class ConditionText:
    """A sanction's condition as the proposal shows it: the fact, the act's words, the full citation."""

    fact: str
    text: str
    basis: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "fact_text": describe.FACTS.get(self.fact, self.fact),
            "text": self.text,
            "basis": self.basis,
        }


@dataclass(frozen=True)
class ProposedSanction:
    """One sanction of the proposal, numbered across the whole proposal (``adjust`` takes the number)."""

    number: int
    infraction: str
    kind: str
    label: str
    basis: str
    #: imposed | proposed | omitted | tolerated (``DECISIONS``)
    decision: str = IMPOSED
    discretionary: bool = False
    cumulative: bool = False
    admin_defined: bool = False
    #: the fact it waits for, in the act's words (never imposed by the count alone)
    condition: ConditionText | None = None
    #: the fact as verified (day, who), once recorded
    condition_met: Verification | None = None
    #: alternatives of one step: the authority imposes exactly one of those with the same ``one_of``
    one_of: str | None = None
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
    #: the values given for what a fine written as a formula asks, each said with its unit, article and who gave
    #: it ("Valor da licença do evento = 1.000,00 R$ (LC 324/2025, art. 89) — informado por Marcos Fiscal")
    asked: tuple[str, ...] = ()
    #: the names of its formula's values that are another fee of the act priced from the offender's permit (``fee =
    #: "id"``): not asked
    from_permit: tuple[str, ...] = ()
    #: … each said with the fee's formula, the permit and the article ("Preço público de ocupação (Dec. 4.794/2026,
    #: art. 9º, § 2º) = Preço público de ocupação da permissão nº 2026/0001: 5,50 × … = R$ 1.204,47 (…)")
    permit_values: tuple[str, ...] = ()
    #: the money of the act's amounts (``[regime] currency``)
    currency: str = "R$"
    # suspension
    days: int | None = None
    min_days: int | None = None
    max_days: int | None = None
    until_remedied: bool = False
    # revocation
    wait_months: int | None = None
    wait_until: dt.date | None = None
    #: the last day of a suspension or impediment that lasts "until" a day (a date the act fixes, or the end of the
    #: civil year of the infraction)
    until: dt.date | None = None
    text: str | None = None
    #: ids of the regime's deadlines that run for this sanction (``compute_deadline`` takes them)
    deadlines: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    notes: str | None = None
    adjusted: bool = False

    @property
    def applied(self) -> bool:
        """Imposed: it takes effect (a fine becomes due, a suspension can be applied to the permit)."""
        return self.decision == IMPOSED

    @property
    def amount_adjustable(self) -> bool:
        return self.kind == "fine" and (self.graded or self.admin_defined or self.min_amount is not None)

    @property
    def days_adjustable(self) -> bool:
        return (
            self.kind == "suspension" and not self.until_remedied and (self.max_days is not None or self.admin_defined)
        )

    @property
    def actions(self) -> tuple[str, ...]:
        """What the authority may still do with this sanction (``adjust``): ``fact`` (record the fact its
        condition waits for), ``apply`` (impose), ``omit``, ``amount`` (grade the fine), ``days``."""
        found = []
        if self.decision == PROPOSED and self.condition is not None and self.condition_met is None:
            found.append("fact")
        if self.decision == PROPOSED and self.discretionary and (self.condition is None or self.condition_met):
            found.append("apply")
        if (self.decision == PROPOSED and (self.discretionary or self.condition is not None)) or (
            self.decision == IMPOSED and self.discretionary
        ):
            found.append("omit")
        if self.decision in (PROPOSED, IMPOSED) and self.amount_adjustable:
            found.append("amount")
        if self.decision in (PROPOSED, IMPOSED) and self.days_adjustable:
            found.append("days")
        return tuple(found)

    @property
    def waiting(self) -> str | None:
        """What a proposed sanction waits for before it can be imposed (None when it is decided)."""
        if self.decision != PROPOSED:
            return None
        if self.condition is not None and self.condition_met is None:
            return (
                f"aguarda o fato: {self.condition.text} ({self.condition.basis}) — registre a data em que foi "
                "verificado e quem o verificou"
            )
        if self.one_of:
            return "a critério da autoridade: impor uma das sanções alternativas, com o motivo"
        return "a critério da autoridade: impor ou dispensar, com o motivo"

    @property
    def pending(self) -> str | None:
        """What the authority must still fix before this sanction is final (None when nothing)."""
        if self.decision in (OMITTED, TOLERATED):
            return None
        parts = [self.waiting] if self.decision == PROPOSED else []
        if self.kind == "fine" and self.amount is None:
            if self.max_amount is not None:
                parts.append(
                    "valor da multa a graduar pela autoridade, até "
                    + format_brl(self.max_amount, currency=self.currency)
                )
            else:
                parts.append("valor da multa a definir pela Administração")
        if self.kind == "suspension" and self.days is None and not self.until_remedied:
            if self.max_days is not None:
                parts.append(
                    f"prazo da suspensão a fixar pela autoridade, de {self.min_days or 1} a {self.max_days} dias"
                )
            else:
                parts.append("prazo da suspensão a fixar pela Administração")
        return "; ".join(p for p in parts if p) or None

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
            elif isinstance(value, (ConditionText, Verification)):
                value = value.to_dict()
            out[f.name] = value
        out["applied"] = self.applied
        out["decision_text"] = DECISIONS[self.decision]
        out["amount_text"] = format_brl(self.amount, currency=self.currency) if self.amount is not None else None
        out["max_amount_text"] = (
            format_brl(self.max_amount, currency=self.currency) if self.max_amount is not None else None
        )
        out["waiting"] = self.waiting
        out["pending"] = self.pending
        out["actions"] = list(self.actions)
        return out


def sanction_head(s: ProposedSanction) -> str:
    """One line for a sanction: number, label, amount or days, and its decision in words."""
    head = f"{s.number}. {s.label}"
    if s.kind == "fine" and s.amount is not None:
        head += f": {format_brl(s.amount, currency=s.currency)}"
    if s.kind == "suspension" and s.days:
        head += f": {describe.days(s.days)}"
    if s.kind in ("suspension", "impediment") and s.until is not None:
        day = s.until.strftime("%d/%m/%Y")
        if "até o fim do ano civil" in head:
            head = head.replace("até o fim do ano civil", f"até o fim do ano civil ({day})", 1)
        elif f"até {day}" not in head:
            head += f": até {day}"
    if s.decision == PROPOSED:
        if s.condition is not None and s.condition_met is None:
            head += f" [proposta — só {s.condition.text[:1].lower()}{s.condition.text[1:]}]"
        else:
            head += " [proposta — a critério da autoridade]"
    elif s.decision != IMPOSED:
        head += f" [{DECISIONS[s.decision]}]"
    return head


def sanction_lines(s: ProposedSanction) -> list[tuple[int, str]]:
    """A sanction in words, ``(indent, text)``: the head, formula, article, what is pending, the details."""
    out = [(0, sanction_head(s))]
    if s.formula:
        out.append((1, f"Fórmula: {s.formula}"))
    out.append((1, f"Base legal: {s.basis}"))
    if s.pending:
        out.append((1, f"A definir: {s.pending}"))
    for detail in s.details:
        out.append((1, detail))
    return out


def imposed(sanction: Mapping[str, Any], not_complied: bool = False) -> bool:
    """Whether a sanction as stored on a record (``ProposedSanction.to_dict``) takes effect.

    Records issued before decisions were kept say ``applied`` and a
    ``condition`` that only a notice not complied with fulfilled."""
    if "decision" in sanction:
        return bool(sanction["decision"] == IMPOSED)
    return bool(sanction.get("applied")) and (sanction.get("condition") is None or not_complied)


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
    recurrence_window_years: int | None = None
    #: the prior dates that counted for recurrence
    counted: tuple[dt.date, ...] = ()
    #: within the act's tolerance: (this occurrence, the occurrences tolerated, the article)
    tolerance: tuple[int, int, str] | None = None
    details: tuple[str, ...] = ()
    #: the act forbids the conduct and sets no sanction for it (``no_sanction`` in the regime)
    no_sanction: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "no_sanction": self.no_sanction,
            "label": self.label,
            "article": self.article,
            "basis": self.basis,
            "nature": self.nature,
            "prior": self.prior,
            "offence": self.offence,
            "ladder": self.ladder,
            "ladder_label": self.ladder_label,
            "step": self.step,
            "recurrence_window_days": self.recurrence_window_days,
            "recurrence_window_years": self.recurrence_window_years,
            "counted": [d.isoformat() for d in self.counted],
            "tolerance": (
                {"occurrence": self.tolerance[0], "tolerated": self.tolerance[1], "basis": self.tolerance[2]}
                if self.tolerance
                else None
            ),
            "details": list(self.details),
            "sanctions": [s.to_dict() for s in self.sanctions],
        }


@dataclass(frozen=True)
class Adjustment:
    number: int
    change: str  # amount | days | apply | omit | fact
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
    #: the points where the act is silent, with the reading applied (chosen by the authority, or declared)
    readings: tuple[AppliedReading, ...] = ()
    #: the money of the act's amounts (``[regime] currency``): "R$", or "Cr$" for an act in cruzeiros
    currency: str = "R$"
    #: the values given for what a fine written as a formula asks (``{name: value as typed}``), and who set them
    asked: tuple[tuple[str, str], ...] = ()
    asked_by: str | None = None

    def money(self, value: Decimal) -> str:
        """``value`` in the act's own money."""
        return format_brl(value, currency=self.currency)

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
        """The fines imposed now (with an amount)."""
        return sum(
            (s.amount for s in self.sanctions if s.kind == "fine" and s.applied and s.amount is not None),
            Decimal("0.00"),
        )

    @property
    def total_proposed(self) -> Decimal:
        """The fines still waiting for the authority's decision or for a fact (with an amount)."""
        return sum(
            (s.amount for s in self.sanctions if s.kind == "fine" and s.decision == PROPOSED and s.amount is not None),
            Decimal("0.00"),
        )

    @property
    def pending(self) -> tuple[str, ...]:
        return tuple(f"Sanção nº {s.number}: {s.pending}" for s in self.sanctions if s.pending)

    @property
    def waiting(self) -> tuple[ProposedSanction, ...]:
        """The sanctions proposed and not yet decided."""
        return tuple(s for s in self.sanctions if s.decision == PROPOSED)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Proposal:
        """The proposal as a record keeps it (``to_dict``), to decide on it later; records issued before
        decisions were kept read as then: a ``condition`` meant a warning not complied with."""
        not_complied = bool(data.get("not_complied"))
        items = []
        for item in data.get("infractions", []):
            sanctions = []
            for raw in item.get("sanctions", []):
                sanctions.append(_sanction_from_dict(raw, not_complied))
            tolerance = item.get("tolerance")
            items.append(
                InfractionProposal(
                    code=item["code"],
                    label=item["label"],
                    article=item["article"],
                    basis=item["basis"],
                    nature=item.get("nature", item["code"]),
                    prior=int(item.get("prior", 0)),
                    offence=int(item.get("offence", 1)),
                    sanctions=tuple(sanctions),
                    ladder=item.get("ladder"),
                    ladder_label=item.get("ladder_label"),
                    step=item.get("step"),
                    recurrence_window_days=item.get("recurrence_window_days"),
                    recurrence_window_years=item.get("recurrence_window_years"),
                    counted=tuple(dt.date.fromisoformat(d) for d in item.get("counted", [])),
                    no_sanction=bool(item.get("no_sanction", False)),
                    tolerance=(
                        (tolerance["occurrence"], tolerance["tolerated"], tolerance["basis"]) if tolerance else None
                    ),
                    details=tuple(item.get("details", [])),
                )
            )
        return cls(
            regime=data["regime"],
            on=dt.date.fromisoformat(data["on"]),
            year=int(data["year"]),
            items=tuple(items),
            cumulative=bool(data.get("cumulative")),
            cumulative_basis=data.get("cumulative_basis"),
            notes=tuple(data.get("notes", [])),
            adjustments=tuple(Adjustment(**a) for a in data.get("adjustments", [])),
            readings=tuple(AppliedReading.from_dict(r) for r in data.get("readings", [])),
            currency=str(data.get("currency", "R$")),
            asked=tuple((str(k), str(v)) for k, v in (data.get("asked") or {}).items()),
            asked_by=data.get("asked_by"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "regime": self.regime,
            "on": self.on.isoformat(),
            "year": self.year,
            "cumulative": self.cumulative,
            "cumulative_basis": self.cumulative_basis,
            "currency": self.currency,
            "infractions": [item.to_dict() for item in self.items],
            "total": str(self.total),
            "total_text": format_brl(self.total, currency=self.currency),
            "total_proposed": str(self.total_proposed),
            "total_proposed_text": format_brl(self.total_proposed, currency=self.currency),
            "pending": list(self.pending),
            "notes": list(self.notes),
            "adjustments": [a.to_dict() for a in self.adjustments],
            "readings": [r.to_dict() for r in self.readings],
            "asked": dict(self.asked),
            "asked_by": self.asked_by,
        }


_DECIMALS = ("amount", "min_amount", "max_amount", "multiplier", "units", "unit_value")


def _sanction_from_dict(raw: Mapping[str, Any], not_complied: bool) -> ProposedSanction:
    known = {f.name for f in dataclasses.fields(ProposedSanction)}
    kw: dict[str, Any] = {k: v for k, v in raw.items() if k in known}
    for name in _DECIMALS:
        if kw.get(name) is not None:
            kw[name] = Decimal(str(kw[name]))
    for name in ("wait_until", "until"):
        if kw.get(name):
            kw[name] = dt.date.fromisoformat(kw[name])
    for name in ("deadlines", "details", "asked", "from_permit", "permit_values"):
        kw[name] = tuple(kw.get(name) or ())
    condition = raw.get("condition")
    if isinstance(condition, str):  # the old form: only a warning not complied with
        kw["condition"] = ConditionText("not-complied", "se a advertência não for atendida no prazo", "")
        kw["condition_met"] = (
            Verification(dt.date.min, "auto de seguimento", "notificação não atendida") if not_complied else None
        )
    elif condition:
        kw["condition"] = ConditionText(condition["fact"], condition["text"], condition["basis"])
        met = raw.get("condition_met")
        kw["condition_met"] = Verification.from_dict(met) if met else None
    if "decision" not in raw:
        kw["decision"] = IMPOSED if imposed(raw, not_complied) else PROPOSED
    return ProposedSanction(**kw)


# --------------------------------------------------------------------------- helpers


def _cite(regime: Regime, *bases: str | None, act: str | None = None, amended_by: str | None = None) -> str:
    seen: list[str] = []
    for basis in bases:
        for part in (basis or "").split("; "):
            if part and part not in seen:
                seen.append(part)
    return regime.cite("; ".join(seen) if seen else None, act, amended_by)


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` plus ``months`` calendar months (31/01 + 1 → 28 or 29/02); negative goes back."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, _calendar.monthrange(year, month)[1]))


def _date(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


@dataclass(frozen=True)
class _Window:
    """The recurrence window: in calendar years (the same day N years before) or in days, and its article."""

    basis: str | None
    days: int | None = None
    years: int | None = None
    source: str | None = None  # a reading of a silent act (the window is not the act's)

    def start(self, on: dt.date) -> dt.date | None:
        """The first day of the window that ends on ``on`` (inclusive)."""
        if self.years:
            return add_months(on, -12 * self.years)
        if self.days:
            return on - dt.timedelta(days=self.days)
        return None

    @property
    def text(self) -> str:
        if self.years:
            return f"{describe.years(self.years)}, contados do mesmo dia do ano"
        return describe.days(self.days or 0)


def _window(regime: Regime, ladder: Ladder | None) -> _Window:
    """The recurrence window (ladder's, else the regime's) and the article that sets it; empty when none."""
    rec = regime.penalties.recurrence if regime.penalties else None
    if ladder is not None and (ladder.recurrence_window_years or ladder.recurrence_window_days):
        same = rec is not None and (rec.window_years, rec.window_days) == (
            ladder.recurrence_window_years,
            ladder.recurrence_window_days,
        )
        return _Window(
            rec.basis if same and rec is not None else ladder.basis,
            ladder.recurrence_window_days,
            ladder.recurrence_window_years,
        )
    if rec is not None and (rec.window_years or rec.window_days):
        return _Window(rec.basis, rec.window_days, rec.window_years)
    return _Window(None)


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


@dataclass(frozen=True)
class _Reckoning:
    """How the prior offences were counted: those that count for recurrence, those tolerated, and why."""

    count: int
    counted: tuple[dt.date, ...]
    tolerated: int  # occurrences before this one that fell within the act's tolerance
    all_same: int  # every prior occurrence of the same nature (for the tolerance)
    details: tuple[str, ...]


@dataclass(frozen=True)
class _Readings:
    """The readings of the act's silent points that change how priors count (``[[silences]]`` topics)."""

    window: tuple[Reading, str] | None = None  # the reading and its citation
    pending: tuple[Reading, str] | None = None
    same_day: tuple[Reading, str] | None = None


def _readings(regime: Regime, applied: Iterable[AppliedReading]) -> _Readings:
    applied = tuple(applied)

    def pick(topic: str) -> tuple[Reading, str] | None:
        reading = reading_for(regime, applied, topic)
        if reading is None:
            return None
        item = next(a for a in applied if a.topic == topic)
        return reading, item.source

    return _Readings(pick("recurrence-window"), pick("recurrence-pending"), pick("recurrence-same-day"))


def _reckon(
    regime: Regime,
    infraction: Infraction,
    prior: int | list[PriorOffence],
    on: dt.date,
    readings: _Readings | None = None,
) -> _Reckoning:
    readings = readings or _Readings()
    ladder = regime.ladder(infraction.ladder) if infraction.ladder else None
    window = _window(regime, ladder)
    if window.basis is None and not (window.years or window.days) and readings.window is not None:
        reading, cited = readings.window
        window = _Window(None, years=reading.window_years, source=f"leitura [{reading.id}]: {cited}")
    tolerance = infraction.tolerance
    spared = tolerance.occurrences if tolerance is not None else 0
    if isinstance(prior, int):
        count = max(prior - spared, 0)
        details: list[str] = [f"Ocorrências anteriores da mesma natureza informadas: {prior}."] if prior else []
        if prior and spared:
            details.append(
                f"As {min(prior, spared)} primeiras, dentro da tolerância "
                f"({regime.cite_item(tolerance)}), não contam para a reincidência."
            )
        return _Reckoning(count, (), min(prior, spared), prior, tuple(details))
    nature = infraction.nature or infraction.code
    details = []
    other = sorted((p for p in prior if _nature(regime, p.code) != nature), key=lambda p: p.on)
    later = sorted((p for p in prior if _nature(regime, p.code) == nature and p.on > on), key=lambda p: p.on)
    same = sorted((p for p in prior if _nature(regime, p.code) == nature and p.on <= on), key=lambda p: p.on)
    undecided: list[PriorOffence] = []
    if readings.pending is not None and readings.pending[0].counts is False:
        undecided = [p for p in same if p.pending]
        same = [p for p in same if not p.pending]
    same_day: list[PriorOffence] = []
    if readings.same_day is not None and readings.same_day[0].counts is False:
        same_day = [p for p in same if p.on == on]
        same = [p for p in same if p.on != on]
    tolerated, rest = same[:spared], same[spared:]
    start = window.start(on)
    counted = [p for p in rest if start is None or p.on >= start]
    outside = [p for p in rest if start is not None and p.on < start]
    if start is not None:
        details.append(
            f"Reincidência: contam as ocorrências da mesma natureza de {_date(start)} a {_date(on)} "
            f"({window.text} — {window.source or regime.cite(window.basis)})."
        )
    elif same and readings.window is not None:
        details.append(
            f"O ato ({regime.short}) não fixa prazo de reincidência: contam todas as ocorrências da mesma natureza "
            f"(leitura [{readings.window[0].id}]: {readings.window[1]})."
        )
    elif same:
        details.append(
            f"O ato ({regime.short}) não fixa prazo de reincidência: contam todas as ocorrências da mesma natureza."
        )
    if counted:
        details.append("Contam: " + ", ".join(_date(p.on) for p in counted) + ".")
    if tolerated:
        details.append(
            f"Toleradas ({regime.cite_item(tolerance)}), não contam para a reincidência: "
            + ", ".join(_date(p.on) for p in tolerated)
            + "."
        )
    if outside:
        details.append("Não contam, fora do prazo de reincidência: " + ", ".join(_date(p.on) for p in outside) + ".")
    if undecided and readings.pending is not None:
        details.append(
            "Não contam, ainda sob defesa ou recurso sem decisão definitiva "
            f"(leitura [{readings.pending[0].id}]: {readings.pending[1]}): "
            + ", ".join(_date(p.on) for p in undecided)
            + "."
        )
    if same_day and readings.same_day is not None:
        details.append(
            f"Não contam, do mesmo dia deste auto (leitura [{readings.same_day[0].id}]: {readings.same_day[1]}): "
            + ", ".join(_date(p.on) for p in same_day)
            + "."
        )
    if later:
        details.append("Não contam, posteriores a esta infração: " + ", ".join(_date(p.on) for p in later) + ".")
    if other:
        details.append("Não contam, de outra natureza: " + ", ".join(f"{_date(p.on)} ({p.code})" for p in other) + ".")
    return _Reckoning(len(counted), tuple(p.on for p in counted), len(tolerated), len(same), tuple(details))


def count_prior(
    regime: Regime | str,
    code: str,
    prior: int | Iterable[PriorOffence | tuple[str, dt.date]],
    on: dt.date,
    readings: Mapping[str, Choice | str] | None = None,
) -> tuple[int, tuple[str, ...]]:
    """How many prior offences count for recurrence of ``code`` on ``on``, and the reckoning in words.

    With a number, it is taken as given. With a list, the offences of the same
    nature, on or before ``on`` and within the recurrence window (calendar
    years: the same day N years before) count; the reckoning says of every
    date why it counts or not.
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    applied = resolve(regime, "penalty", readings, codes=(code,))
    reckoning = _reckon(regime, regime.infraction(code), _priors(prior), on, _readings(regime, applied))
    return reckoning.count, reckoning.details


# --------------------------------------------------------------------------- proposing


@dataclass
class _Context:
    regime: Regime
    on: dt.date
    year: int
    unit_values: UnitValues | None
    index_factors: Mapping[str, Decimal]
    facts: Mapping[str, Verification]
    readings: _Readings
    #: the values a fine written as a formula asks for (``[[infractions.fine.inputs]]``), and who set them
    asked: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    asked_by: str | None = None
    #: the act's fees priced with the facts of the offender's permit (what a fine's formula reads of them: ``fee =
    #: "id"``), or why one could not be; None: the record names no permit
    permit_fees: Mapping[str, QuoteLine | UserError] | None = None
    #: the permit's number, for the reason a fee was not priced
    permit: str | None = None


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
    facts: Mapping[str, Verification] | None = None,
    readings: Mapping[str, Choice | str] | None = None,
    asked: Mapping[str, Any] | None = None,
    asked_by: str | None = None,
    permit_fees: Mapping[str, QuoteLine | UserError] | None = None,
    permit: str | None = None,
) -> Proposal:
    """The sanctions the act sets for ``infraction_codes`` committed on ``on``.

    ``asked`` — ``{name: value}``: the values a fine written as a formula asks for (the licence fee a share of
    which is the fine…), each within the bounds the act sets; ``asked_by`` names who set them. Without one, the fine
    is proposed with its value left to the authority and the reason said. ``permit_fees`` — ``{fee id: line}``: the
    act's fees priced with the facts of the offender's permit (number ``permit``), or the ``UserError`` that says
    why one could not be: a value of a fine's formula that is another fee of the act (``fee = "id"``) is read from
    them, and asked only where the record names no permit or the fee could not be priced
    (:func:`fine_fees` names the fees the fines of some infractions read).

    ``prior`` — the number of earlier offences of the same nature within the
    recurrence window (taken as given), or the list of earlier offences
    (:class:`PriorOffence` or ``(code, date)``), which the engine filters by
    nature, date and window. ``year`` — the year of the fiscal-unit values
    (default: the year of ``on``). ``unit_values`` — ``{(code, year):
    Decimal}`` entered by the clerk (``models.billing.fiscal.unit_overrides``);
    ``index_factors`` — ``{index: accumulated factor}`` for fines in reais
    corrected by an index. ``step`` — where the act lets the authority apply
    the penalties in any order (``[penalties] any_order``, SJC art. 22,
    parágrafo único), the step to apply instead of the offence's, with
    ``reason``. ``facts`` — the facts already verified that conditions wait
    for, by ``SANCTION_FACTS`` id (``{"not-complied": Verification(...)}``). ``readings`` — the
    authority's reading of each point where the act is silent (``{point: Choice}``, the ``[[silences]]`` shown
    at "penalty"); a point not chosen is applied in the reading the regime declares; the proposal lists them all.
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    if isinstance(on, dt.datetime) or not isinstance(on, dt.date):
        raise UserError(f"Data da infração inválida: {on!r}.", field="on")
    check_in_force(regime, on)
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
    applied = resolve(regime, "penalty", readings, codes=codes)
    ctx = _Context(
        regime,
        on,
        year if year is not None else on.year,
        unit_values,
        factors,
        dict(facts or {}),
        _readings(regime, applied),
        dict(asked or {}),
        asked_by,
        permit_fees,
        permit,
    )
    found = _priors(prior)

    notes: list[str] = []
    if step is not None:
        any_order = regime.penalties.any_order if regime.penalties else None
        if any_order is None:
            raise UserError(
                f"O ato ({regime.short}) não permite aplicar as penalidades fora da ordem da gradação: "
                "vale o degrau da ocorrência.",
                field="step",
            )
        if not (reason or "").strip():
            raise UserError("Informe por escrito o motivo de aplicar outro degrau da gradação.", field="reason")
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise UserError(f"Degrau inválido: {step!r} (o primeiro é 1).", field="step")
        notes.append(
            f"Degrau {step} aplicado pela autoridade, independentemente da ordem "
            f"({regime.cite_item(any_order)}) — motivo: {(reason or '').strip()}"
        )

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
            notes.append(
                f"Infrações simultâneas: as sanções de cada uma aplicam-se cumulativamente "
                f"({regime.cite_item(cumulative_flag)})."
            )
        else:
            notes.append(
                f"O ato ({regime.short}) não diz se as sanções de infrações simultâneas se acumulam: "
                "cada infração é proposta com as suas."
            )
    for fact, verified in ctx.facts.items():
        notes.append(f"Fato verificado — {describe.FACTS.get(fact, fact)}: {verified.text}.")
    return Proposal(
        regime=regime.id,
        on=on,
        year=ctx.year,
        items=tuple(items),
        cumulative=cumulative,
        cumulative_basis=regime.cite_item(cumulative_flag) if cumulative_flag is not None else None,
        notes=tuple(notes),
        readings=applied,
        currency=regime.currency,
        asked=tuple((name, str(value)) for name, value in ctx.asked.items() if str(value or "").strip()),
        asked_by=ctx.asked_by if ctx.asked else None,
    )


def in_reais(proposal: Proposal, regime: Regime) -> Proposal:
    """``proposal`` with its fines in reais where a rule of the act converts its money on the infraction's day
    (``[regime] conversion``), as the quote lines are: each amount (and the limits an authority grades within) ÷ the
    rule's divisor, rounded to the cent half up; the formula goes on to the amount in reais and the details say the
    conversion with the rule's article; a fine left to the authority is set in reais. Unchanged where no rule says
    so (an act in cruzeiros stays in cruzeiros) — the act's worked cases are in its own money, as its quotes."""
    rule = regime.conversion
    if rule is None or not rule.applies(proposal.on) or proposal.currency != regime.currency:
        return proposal
    money = proposal.currency
    items = []
    for item in proposal.items:
        sanctions = []
        for s in item.sanctions:
            changed: dict[str, Any] = {"currency": rule.to}
            if s.kind == "fine":
                details = list(s.details)
                shown = s.amount if s.amount is not None else s.max_amount
                if shown is not None:
                    value, said = rule.said(shown, money)
                    details.append(f"{said}.")
                    if s.formula:
                        changed["formula"] = f"{s.formula} ÷ {rule.divisor} = {format_brl(value, currency=rule.to)}"
                else:
                    details.append(f"Valor a fixar em reais ({rule.cite}).")
                for name in ("amount", "min_amount", "max_amount"):
                    if getattr(s, name) is not None:
                        changed[name] = rule.convert(getattr(s, name))
                changed["details"] = tuple(details)
            sanctions.append(dataclasses.replace(s, **changed))
        items.append(dataclasses.replace(item, sanctions=tuple(sanctions)))
    return dataclasses.replace(
        proposal, items=tuple(items), currency=rule.to, notes=(*proposal.notes, rule.note(money))
    )


def _no_sanction(regime: Regime, infraction: Infraction) -> InfractionProposal:
    """A conduct the act forbids without a sanction: said exactly so, with the article that forbids it."""
    cited = regime.cite(infraction.article, infraction.basis_act)
    return InfractionProposal(
        code=infraction.code,
        label=infraction.label,
        article=regime.cite(infraction.article),
        basis=f"nenhuma — o ato proíbe a conduta ({cited}) e não lhe comina sanção",
        nature=infraction.nature or infraction.code,
        prior=0,
        offence=1,
        sanctions=(),
        no_sanction=True,
        details=(
            f"O ato ({regime.short}) proíbe esta conduta ({cited}) mas não lhe comina sanção: não há penalidade a "
            "propor com base nele.",
        ),
    )


def _propose_one(
    ctx: _Context, infraction: Infraction, prior: int | list[PriorOffence], step: int | None, first_number: int
) -> InfractionProposal:
    regime = ctx.regime
    if infraction.no_sanction:
        return _no_sanction(regime, infraction)
    ladder = regime.ladder(infraction.ladder) if infraction.ladder else None
    reckoning = _reckon(regime, infraction, prior, ctx.on, ctx.readings)
    count = reckoning.count
    offence = count + 1
    details = list(reckoning.details)
    tolerance = infraction.tolerance
    tolerated_now = False
    tolerance_info = None
    if tolerance is not None:
        occurrence = reckoning.all_same + 1
        tolerated_now = occurrence <= tolerance.occurrences
        tolerance_info = (occurrence, tolerance.occurrences, regime.cite_item(tolerance))
        spared = " e sem ".join(describe.SANCTIONS.get(k, k) for k in tolerance.spares)
        if tolerated_now:
            details.append(
                f"Dentro da tolerância: {occurrence}ª das {tolerance.occurrences} ocorrências toleradas "
                f'— "{tolerance.text}" ({regime.cite_item(tolerance)}): sem {spared}.'
            )
        else:
            details.append(
                f"Tolerância esgotada: {occurrence}ª ocorrência; as {tolerance.occurrences} primeiras "
                f"foram toleradas ({regime.cite_item(tolerance)})."
            )
    details.append(f"Esta é a {offence}ª ocorrência para a reincidência.")
    window = _window(regime, ladder)
    rec = regime.penalties.recurrence if regime.penalties else None

    planned: list[tuple[Sanction, Decimal | None]] = []  # (sanction, recurrence multiplier)
    used_step = None
    if ladder is not None:
        used_step = step if step is not None else offence
        if step is not None and step > len(ladder.steps):
            raise UserError(
                f'A gradação "{ladder.label}" tem {len(ladder.steps)} degraus; o degrau {step} não existe.',
                field="step",
            )
        chosen = ladder.step_for(used_step)
        if used_step > len(ladder.steps):
            details.append(
                f"A gradação tem {len(ladder.steps)} degraus: vale o último ({chosen.offence}ª ocorrência e seguintes)."
            )
        for s in chosen.sanctions:
            planned.append((s, None))
    elif infraction.fine is not None:
        multiplier = Decimal(1)
        if offence > 1 and rec is not None and rec.multiplier is not None:
            times = offence - 1 if rec.max_doublings is None else min(offence - 1, rec.max_doublings)
            multiplier = rec.multiplier**times
        synthetic = Sanction(
            kind="fine", basis=infraction.fine.basis, multiplier=multiplier, discretionary=infraction.fine.discretionary
        )
        planned.append((synthetic, multiplier if multiplier != 1 else None))
        if offence > 1 and (rec is None or rec.multiplier is None):
            details.append(f"O ato ({regime.short}) não agrava a multa desta infração na reincidência.")
    elif offence > 1:
        details.append(f"O ato ({regime.short}) não agrava a sanção desta infração na reincidência.")
    for s in infraction.sanctions:
        planned.append((s, None))

    sanctions: list[ProposedSanction] = []
    for s, rec_multiplier in planned:
        proposed = _sanction(ctx, infraction, s, rec_multiplier, first_number + len(sanctions))
        if tolerated_now and tolerance is not None and s.kind in tolerance.spares:
            proposed = dataclasses.replace(
                proposed,
                decision=TOLERATED,
                details=(*proposed.details, f"Dentro da tolerância ({regime.cite_item(tolerance)}): não se aplica."),
            )
        merged = False
        if proposed.kind in _MERGED_KINDS:
            for i, earlier in enumerate(sanctions):
                if earlier.kind == proposed.kind and earlier.condition == proposed.condition:
                    sanctions[i] = _merge(earlier, proposed, s)
                    merged = True
                    break
        if not merged:
            sanctions.append(proposed)
    return InfractionProposal(
        code=infraction.code,
        label=infraction.label,
        article=regime.cite(infraction.article),
        basis=regime.cite_item(infraction),
        nature=infraction.nature or infraction.code,
        prior=count,
        offence=offence,
        sanctions=tuple(sanctions),
        ladder=ladder.id if ladder else None,
        ladder_label=ladder.label if ladder else None,
        step=min(used_step, len(ladder.steps)) if ladder and used_step is not None else None,
        recurrence_window_days=window.days,
        recurrence_window_years=window.years,
        counted=reckoning.counted,
        tolerance=tolerance_info,
        details=tuple(details),
    )


_DECISION_RANK = {IMPOSED: 0, PROPOSED: 1, OMITTED: 2, TOLERATED: 3}


def _merge(earlier: ProposedSanction, later: ProposedSanction, source: Sanction) -> ProposedSanction:
    """Two seizures (interdictions…) for one infraction are one, with both articles; the one the act imposes
    prevails over the one it leaves to the authority."""
    basis = earlier.basis
    extra = source.basis
    if extra and extra not in basis:
        basis = f"{basis}; {extra}"
    decision = min(earlier.decision, later.decision, key=_DECISION_RANK.__getitem__)
    return dataclasses.replace(
        earlier,
        basis=basis,
        discretionary=earlier.discretionary and later.discretionary,
        decision=decision,
        details=earlier.details + tuple(d for d in later.details if d not in earlier.details),
    )


def _related_deadlines(regime: Regime, s: Sanction) -> tuple[str, ...]:
    """The deadlines that run for a sanction: a warning's own (``deadline``), else those that say they apply
    to its kind (``applies_to``)."""
    if s.kind == "warning":
        return (s.deadline,) if s.deadline else ()
    return tuple(d.id for d in regime.deadlines if s.kind in d.applies_to)


def _decision(ctx: _Context, s: Sanction) -> tuple[str, Verification | None]:
    """A sanction's decision before anyone adjusts it: a condition waits for its fact, discretion for the
    authority; only what the act imposes unconditionally is imposed."""
    met = ctx.facts.get(s.condition.fact) if s.condition is not None else None
    if s.condition is not None and met is None:
        return PROPOSED, None
    if s.discretionary:
        return PROPOSED, met
    return IMPOSED, met


def _sanction(
    ctx: _Context, infraction: Infraction, s: Sanction, rec_multiplier: Decimal | None, number: int
) -> ProposedSanction:
    regime = ctx.regime
    decision, met = _decision(ctx, s)
    condition = (
        ConditionText(s.condition.fact, s.condition.text, regime.cite_item(s.condition))
        if s.condition is not None
        else None
    )
    common: dict[str, Any] = dict(
        number=number,
        infraction=infraction.code,
        kind=s.kind,
        label=describe.sanction(s, terms=False, currency=regime.currency),
        basis=regime.cite(s.basis, s.basis_act, s.amended_by),
        discretionary=s.discretionary,
        cumulative=s.cumulative,
        admin_defined=s.admin_defined,
        condition=condition,
        condition_met=met,
        one_of=s.one_of,
        text=s.text,
        notes=s.notes,
        deadlines=_related_deadlines(regime, s),
        decision=decision,
    )
    details: list[str] = []
    if condition is not None and met is not None:
        details.append(f"Condição: {condition.text} ({condition.basis}) — {met.text}.")
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
    if s.until is not None and s.kind in ("suspension", "impediment"):
        common["until"] = _until_day(ctx, s, details)
    elif s.kind in ("suspension", "impediment") and (s.months or s.years):
        common["until"] = _term_day(ctx, s, details)
    if s.kind == "revocation" and s.until is not None:
        until = _until_day(ctx, s, details, revocation=True)
        common.update(wait_until=until + dt.timedelta(days=1))
    elif s.kind == "revocation" and s.wait_months:
        until = add_months(ctx.on, s.wait_months)
        common.update(wait_months=s.wait_months, wait_until=until)
        details.append(
            f"Nova permissão só a partir de {_date(until)} "
            f"({describe.months(s.wait_months)} contados de {_date(ctx.on)})."
        )
    elif s.kind == "seizure" and regime.seizure is not None and regime.seizure.depot_fee is not None:
        fee = regime.seizure.depot_fee
        where = (" — " + ", ".join(describe.SCOPES.get(x, x) for x in fee.scopes)) if fee.scopes else ""
        if fee_needs(regime, fee.as_fee()).administration is not None:
            details.append(f"Preço do depósito definido pela Administração{where} ({regime.cite_item(fee)}).")
        elif fee.amount is not None:
            per = describe.PER.get(fee.per or "", "")
            details.append(
                f"Diária de depósito: {describe.amount(fee.amount, regime.currency)} {per}{where} "
                f"({regime.cite_item(fee)})."
            )
    if s.discretionary:
        if s.one_of:
            details.append("Alternativa: a autoridade impõe uma só das sanções alternativas, com o motivo.")
        else:
            details.append("A critério da autoridade: proposta; a autoridade a impõe ou dispensa, com o motivo.")
    return ProposedSanction(details=tuple(details), currency=ctx.regime.currency, **common)


def _until_day(ctx: _Context, s: Sanction, details: list[str], *, revocation: bool = False) -> dt.date:
    """The last day of a ban "until" a day: the date the act fixes, or the 31st of December of the infraction's
    year ("until the end of the civil year": calendar years, as every year the act counts)."""
    if isinstance(s.until, dt.date):
        last, why = s.until, f"data fixada pelo ato ({ctx.regime.cite(s.basis)})"
    else:
        last = dt.date(ctx.on.year, 12, 31)
        why = f"fim do ano civil da infração ({ctx.regime.cite(s.basis)})"
    if last < ctx.on:
        details.append(f"O prazo fixado pelo ato terminou em {_date(last)}, antes da infração: nada a cumprir.")
    elif revocation:
        details.append(
            f"Nova permissão só a partir de {_date(last + dt.timedelta(days=1))} — até {_date(last)}: {why}."
        )
    else:
        details.append(f"Até {_date(last)} — {why}.")
    return last


def term_end(start: dt.date, months: int) -> dt.date:
    """The day a term of ``months`` months (12 × N for N years) counted from ``start`` expires: the day of the same
    number in the month it reaches, or the next day where that month has none (Código Civil, art. 132, § 3º:
    29/02/2024 + 2 anos → 01/03/2026; 31/01 + 1 mês → 01/03)."""
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    last = _calendar.monthrange(year, month)[1]
    if start.day <= last:
        return dt.date(year, month, start.day)
    return dt.date(year, month, last) + dt.timedelta(days=1)


def _term_day(ctx: _Context, s: Sanction, details: list[str]) -> dt.date:
    """The last day of a suspension or a ban "for N months / N years" counted from the infraction's day."""
    months = (s.years or 0) * 12 + (s.months or 0)
    last = term_end(ctx.on, months)
    length = describe.years(s.years) if s.years else describe.months(s.months or 0)
    same = last.day == ctx.on.day
    details.append(
        f"Até {_date(last)} — {length} contados de {_date(ctx.on)} ({ctx.regime.cite(s.basis)}), vencendo no dia "
        + ("de igual número" if same else "imediato, pois o mês do vencimento não tem dia de igual número")
        + " (Código Civil, art. 132, § 3º)."
    )
    return last


def _index_factor(ctx: _Context, amount: Amount) -> tuple[Decimal, str, str]:
    """The correction of a fine in reais by the act's index: (factor, formula part, detail); empty texts when none."""
    regime = ctx.regime
    ref = regime.penalties.index if regime.penalties else None
    if ref is None or amount.unit != "BRL":
        return Decimal(1), "", ""
    index = regime.index(ref.code)
    if ctx.year <= index.base_year:
        return Decimal(1), "", ""
    factor = ctx.index_factors.get(index.code)
    if factor is None:
        raise UserError(
            f"A multa de {format_brl(amount.value, currency=regime.currency)} é de {index.base_year} e é corrigida "
            "anualmente pelo "
            f"{index.code} ({regime.cite_item(ref)}): informe o fator acumulado do {index.code} de "
            f"{index.base_year} a {ctx.year}, ou calcule para {index.base_year}.",
            field="index_factor",
        )
    part = f"{format_factor(factor)} ({index.code} {index.base_year}→{ctx.year})"
    detail = (
        f"Correção {index.code} {index.base_year}→{ctx.year}: fator {format_factor(factor)} ({regime.cite_item(ref)})"
    )
    return factor, part, detail


def _fine(
    ctx: _Context, infraction: Infraction, s: Sanction, rec_multiplier: Decimal | None, details: list[str]
) -> dict[str, Any]:
    regime = ctx.regime
    fine = infraction.fine
    base: Amount | None = None
    base_text: str | None = None  # a fine written as a formula: the formula with the values
    asked: tuple[str, ...] = ()  # … and the values given for what it asks
    from_permit: tuple[str, ...] = ()  # … and those that are a fee priced from the offender's permit
    permit_values: tuple[str, ...] = ()  # … said with the fee's formula and article
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
        elif fine.formula is not None:
            priced = _fine_formula(ctx, infraction, details)
            admin = priced is None
            if priced is not None:
                base, base_text, asked, permit_values = priced
                permit_fees = ctx.permit_fees or {}
                from_permit = tuple(
                    item.name
                    for item in fine.inputs
                    if item.fee is not None and isinstance(permit_fees.get(item.fee), QuoteLine)
                )
                bases.extend([*(term.basis for term in fine.terms), *(item.basis for item in fine.inputs)])
        elif fine.amount is not None:
            base = fine.amount
            details.append(
                f"Multa da infração: {describe.amount(fine.amount, regime.currency)} ({regime.cite_item(fine)})."
            )
        elif fine.max is not None:
            base, graded = fine.max, True
            details.append(
                f"Multa da infração: até {describe.amount(fine.max, regime.currency)}, graduada pela autoridade "
                f"({regime.cite_item(fine)})."
            )
    else:
        admin = True

    rec = regime.penalties.recurrence if regime.penalties else None
    if rec is not None and rec.multiplier is not None and rec.max_doublings is not None:
        cap = rec.multiplier**rec.max_doublings
        if multiplier > cap:
            details.append(
                f"Multiplicador limitado a {format_factor(cap)} — a multa dobra no máximo "
                f"{describe.plural(rec.max_doublings, 'vez', 'vezes')} ({regime.cite_item(rec)})."
            )
            multiplier = cap
    if rec_multiplier is not None and rec is not None:
        how = "poderá ser aplicada" if rec.discretionary else "é aplicada"
        details.append(f"Reincidência: a multa {how} {format_factor(rec_multiplier)} × ({regime.cite_item(rec)}).")
        bases.append(rec.basis)
    elif multiplier != 1:
        details.append(f"Multa da infração × {format_factor(multiplier)} ({regime.cite(s.basis)}).")
    if multiplier != 1 and rec is not None and rec.reading:
        details.append(f"Leitura adotada ({regime.cite_item(rec)}): {rec.reading}")

    out: dict[str, Any] = dict(
        graded=graded,
        admin_defined=admin,
        multiplier=multiplier,
        year=ctx.year,
        basis=_cite(regime, *bases, act=act, amended_by=s.amended_by),
        asked=asked,
        from_permit=from_permit,
        permit_values=permit_values,
    )
    if base is None:
        out["formula"] = None
        return out
    units = multiplier * base.value
    parts = [] if multiplier == 1 else [format_factor(multiplier)]
    if base.unit == "BRL":
        exact = units
        shown = format_brl(base.value, currency=regime.currency)
        parts.append(shown if base_text is None else f"({base_text})" if parts else base_text)
        unit_value = None
    else:
        unit_value = regime.unit_value(base.unit, ctx.year, ctx.unit_values)
        exact = units * unit_value
        parts.append(f"{format_factor(base.value)} {base.unit}")
        parts.append(f"{format_brl(unit_value, currency=regime.currency)} ({base.unit} {ctx.year})")
        details.append(
            f"{base.unit} {ctx.year} = {format_brl(unit_value, currency=regime.currency)} "
            f"({regime.unit_value_citation(base.unit, ctx.year, ctx.unit_values)})."
        )
    factor, factor_part, factor_detail = _index_factor(ctx, base)
    if factor_part:
        exact *= factor
        parts.append(factor_part)
        details.append(factor_detail + ".")
    value = round_cents(exact)
    formula = (
        f"{_TIMES.join(parts)} = {format_brl(value, currency=regime.currency)}"
        if len(parts) > 1 or base_text is not None
        else format_brl(value, currency=regime.currency)
    )
    out.update(units=units if base.unit != "BRL" else None, unit=base.unit, unit_value=unit_value)
    if graded:
        out.update(max_amount=value, formula=f"até {formula}")
        return out
    out.update(amount=value, formula=formula)
    if rec_multiplier is not None and rec is not None and rec.discretionary:
        single = round_cents(exact / rec_multiplier)
        out.update(min_amount=single, max_amount=value)
    return out


def _fine_formula(
    ctx: _Context, infraction: Infraction, details: list[str]
) -> tuple[Amount, str, tuple[str, ...], tuple[str, ...]] | None:
    """The base fine of an infraction whose fine is written as a formula, priced by the rule language (each term
    with its article, a value asked for within its bounds) and said as "formula with the values = amount (article)";
    None, with the reason in ``details``, where a value it asks for is not given."""
    from models.rules.fees.formula import formula_line
    from models.rules.fees.inputs import Inputs

    regime = ctx.regime
    fine = infraction.fine
    assert fine is not None and fine.formula is not None
    fee = fine.as_fee(infraction.code, infraction.label)
    try:
        asked = _fine_asked(regime, fee, ctx.asked)
        inputs = Inputs(
            equipment=None,
            line=None,
            front=None,
            depth=None,
            hitch=None,
            area=None,
            mei=False,
            local=False,
            energy="none",
            days=None,
            venue=None,
            year=ctx.year,
            overrides=ctx.unit_values,
            index_factors=ctx.index_factors,
            admin_values={},
            asked=asked,
            asked_by=ctx.asked_by,
        )

        def other(fee_id: str) -> QuoteLine:
            found = (ctx.permit_fees or {}).get(fee_id)
            if isinstance(found, QuoteLine):
                return dataclasses.replace(found, label=f"{found.label} da permissão nº {ctx.permit}")
            what = f"{regime.fee(fee_id).label.lower()} ({fee_id})"
            if isinstance(found, UserError):
                raise UserError(
                    f"{what} não se calcula com os dados da permissão nº {ctx.permit}: {found.message.rstrip('.')}",
                    field="fine",
                )
            raise UserError(f"o auto não indica a permissão do infrator, com a qual se calcularia {what}")

        line = formula_line(regime, fee, inputs, asked=asked, asked_by=ctx.asked_by, fee_amount=other)
    except UserError as exc:
        details.append(f"Multa da infração por fórmula ({regime.cite_item(fine)}): {exc.message}")
        return None
    details.append(
        f"Multa da infração: {line.formula} = {format_brl(line.amount, currency=regime.currency)} ({line.basis})."
    )
    details.extend(f"{detail}." if not detail.endswith(".") else detail for detail in line.details)
    return Amount(value=line.amount, unit="BRL"), line.formula, _given(regime, fee, line), line.fee_values


def _given(regime: Regime, fee: Fee, line: QuoteLine) -> tuple[str, ...]:
    """The values given for what a fine's formula asked, each with its unit, article and who gave it."""
    from models.rules.fees.formula import asked_text

    declared = {item.name: item for item in fee.inputs}
    return tuple(asked_text(regime, declared[given.name], given) for given in line.asked)


def fine_inputs(regime: Regime, codes: Iterable[str]) -> dict[str, AskedInput]:
    """The values the fines of ``codes`` written as formulas ask for, by name (what a desk asks the inspector)."""
    found: dict[str, AskedInput] = {}
    for code in codes:
        try:
            fine = regime.infraction(code).fine
        except UserError:
            continue
        for item in fine.inputs if fine is not None else ():
            found.setdefault(item.name, item)
    return found


def fine_fees(regime: Regime, codes: Iterable[str]) -> tuple[str, ...]:
    """The act's fees the fines of ``codes`` written as formulas read (a value ``fee = "id"``, a call
    ``fee('id')``): what a record prices with the offender's permit before proposing."""
    from models.rules.regimes.fee_formulas import program_for

    found: dict[str, None] = {}
    for code in codes:
        try:
            infraction = regime.infraction(code)
        except UserError:
            continue
        fine = infraction.fine
        if fine is None or fine.formula is None:
            continue
        found.update((item.fee, None) for item in fine.inputs if item.fee is not None)
        found.update((fee_id, None) for fee_id in program_for(regime, fine.as_fee(code, infraction.label)).fees)
    return tuple(found)


def _fine_asked(regime: Regime, fee: Fee, values: Mapping[str, Any]) -> dict[str, Decimal]:
    """The values given for what a fine's formula asks (of those typed for every fine of the record), each within
    the bounds the act sets."""
    from models.rules.fees.formula import checked_asked

    declared = {item.name: item for item in fee.inputs}
    typed = {name: value for name, value in values.items() if name in declared and str(value or "").strip()}
    return checked_asked(regime, typed, declared)


# --------------------------------------------------------------------------- adjusting


def _money(value: Any) -> Decimal:
    try:
        amount = parse_typed(value, what="Valor", field="amount")
    except (TypeError, ValueError):
        raise UserError(f"Valor inválido: {value!s} (use, por exemplo, 350,00).", field="amount") from None
    if amount != amount.quantize(Decimal("0.01")):
        raise UserError(f"Informe o valor em reais com no máximo duas casas decimais: {value!s}.", field="amount")
    return amount.quantize(Decimal("0.01"))


def _numbers(values: Iterable[int] | None) -> list[int]:
    return list(values or [])


def _verification(value: Verification | Mapping[str, Any], number: int, offence_on: dt.date) -> Verification:
    try:
        fact = value if isinstance(value, Verification) else Verification.from_dict(value)
    except (TypeError, ValueError):
        raise UserError(
            f"Fato da sanção nº {number}: informe a data em que foi verificado e quem o verificou.", field="fact"
        ) from None
    if isinstance(fact.on, dt.datetime) or not isinstance(fact.on, dt.date):
        raise UserError(f"Fato da sanção nº {number}: informe a data em que foi verificado.", field="fact")
    if not fact.by.strip():
        raise UserError(f"Fato da sanção nº {number}: informe quem o verificou.", field="fact")
    if fact.on < offence_on:
        raise UserError(
            f"Fato da sanção nº {number}: verificado em {_date(fact.on)}, antes da infração ({_date(offence_on)}).",
            field="fact",
        )
    return dataclasses.replace(fact, by=fact.by.strip(), note=fact.note.strip())


def adjust(
    proposal: Proposal,
    *,
    reason: str,
    amounts: Mapping[int, Any] | None = None,
    days: Mapping[int, int] | None = None,
    apply: Iterable[int] = (),
    omit: Iterable[int] = (),
    facts: Mapping[int, Verification | Mapping[str, Any]] | None = None,
    by: str | None = None,
) -> Proposal:
    """The proposal as the inspector or the chief decides and grades it, within the act's limits.

    Sanctions are named by their ``number``. ``facts`` — the fact a
    conditional sanction waits for, verified (:class:`Verification`: the day
    and who): a sanction the act then imposes is imposed, a discretionary one
    stays for the authority; ``apply`` — impose a proposed sanction (a
    discretionary one; a conditional one only once its fact is recorded; one
    of alternatives omits the others); ``omit`` — drop a discretionary
    sanction, or a conditional one whose fact did not happen; ``amounts`` — the
    amount in R$ of a graded fine (SJC: up to R$ 500,00) or of one the
    Administration sets; ``days`` — the days of a suspension the act gives as
    a range or leaves to the authority. Every change needs ``reason`` and is
    kept in ``adjustments``. Anything the act does not allow is refused with a
    ``UserError``.
    """
    why = (reason or "").strip()
    if not why:
        raise UserError("Informe por escrito o motivo do ajuste da sanção.", field="reason")
    amounts = dict(amounts or {})
    days = dict(days or {})
    facts = dict(facts or {})
    apply_list, omit_list = _numbers(apply), _numbers(omit)
    if not (amounts or days or apply_list or omit_list or facts):
        raise UserError(
            "Nada a ajustar: informe o fato verificado, a sanção a impor ou dispensar, o valor ou o prazo.",
            field="number",
        )
    changed: dict[int, ProposedSanction] = {}
    log: list[Adjustment] = []

    def current(number: int) -> ProposedSanction:
        return changed.get(number) or proposal.sanction(number)

    def group(s: ProposedSanction) -> list[ProposedSanction]:
        item = next(i for i in proposal.items if any(x.number == s.number for x in i.sanctions))
        return [current(x.number) for x in item.sanctions if x.one_of and x.one_of == s.one_of]

    for number, raw in facts.items():
        s = current(number)
        if s.condition is None:
            raise UserError(
                f"A sanção nº {number} ({s.label}) não depende de fato: não há o que registrar.", field="fact"
            )
        if s.condition_met is not None:
            raise UserError(f"O fato da sanção nº {number} já foi registrado ({s.condition_met.text}).", field="fact")
        if s.decision != PROPOSED:
            raise UserError(f"A sanção nº {number} ({s.label}) já está {DECISIONS[s.decision]}.", field="fact")
        fact = _verification(raw, number, proposal.on)
        decision = PROPOSED if s.discretionary else IMPOSED
        changed[number] = dataclasses.replace(
            s,
            condition_met=fact,
            decision=decision,
            adjusted=True,
            details=(*s.details, f"Fato verificado — {s.condition.text}: {fact.text}."),
        )
        log.append(Adjustment(number, "fact", "aguarda o fato", f"fato {fact.text}", why, by))
    for number in apply_list:
        s = current(number)
        if s.decision == IMPOSED:
            raise UserError(f"A sanção nº {number} ({s.label}) já está imposta.", field="apply")
        if s.decision != PROPOSED:
            raise UserError(
                f"A sanção nº {number} ({s.label}) está {DECISIONS[s.decision]}: não pode ser imposta.", field="apply"
            )
        if s.condition is not None and s.condition_met is None:
            raise UserError(
                f"A sanção nº {number} ({s.label}) depende de um fato: {s.condition.text} "
                f"({s.condition.basis}) — registre antes a data em que foi verificado e quem o "
                "verificou.",
                field="apply",
            )
        changed[number] = dataclasses.replace(s, decision=IMPOSED, adjusted=True)
        log.append(Adjustment(number, "apply", "proposta", "imposta", why, by))
        if s.one_of:
            for other in group(s):
                if other.number != number and other.decision == PROPOSED:
                    changed[other.number] = dataclasses.replace(other, decision=OMITTED, adjusted=True)
                    log.append(
                        Adjustment(
                            other.number,
                            "omit",
                            "proposta",
                            "dispensada",
                            f"alternativa escolhida: sanção nº {number} — {why}",
                            by,
                        )
                    )
    for number in omit_list:
        s = current(number)
        if not (s.discretionary or s.condition is not None):
            raise UserError(
                f"A sanção nº {number} ({s.label}) é imposta pelo ato ({s.basis}): não pode ser dispensada.",
                field="omit",
            )
        if s.decision in (OMITTED, TOLERATED):
            raise UserError(f"A sanção nº {number} ({s.label}) já está {DECISIONS[s.decision]}.", field="omit")
        if s.decision == IMPOSED and not s.discretionary:
            raise UserError(
                f"A sanção nº {number} ({s.label}) foi imposta com o fato verificado "
                f"({s.condition_met.text if s.condition_met else ''}): não pode ser dispensada.",
                field="omit",
            )
        if s.one_of:
            others = [o for o in group(s) if o.number != number]
            if others and all(o.decision in (OMITTED, TOLERATED) for o in others):
                raise UserError(
                    f"O ato impõe uma das sanções alternativas ({s.basis}): dispensada esta, imponha outra.",
                    field="omit",
                )
        changed[number] = dataclasses.replace(s, decision=OMITTED, adjusted=True)
        log.append(
            Adjustment(
                number, "omit", "proposta" if s.decision == PROPOSED else DECISIONS[s.decision], "dispensada", why, by
            )
        )
    for number, raw in amounts.items():
        s = current(number)
        if s.kind != "fine":
            raise UserError(f"A sanção nº {number} ({s.label}) não é multa: não tem valor a graduar.", field="amount")
        value = _money(raw)
        if not s.amount_adjustable:
            shown = format_brl(s.amount, currency=s.currency) if s.amount is not None else "o valor do ato"
            raise UserError(
                f"A multa nº {number} é fixada pelo ato em {shown} ({s.basis}): não pode ser graduada.", field="amount"
            )
        low = s.min_amount if s.min_amount is not None else Decimal("0.01")
        if value < low or (s.max_amount is not None and value > s.max_amount):
            limits = (
                f"entre {format_brl(low, currency=s.currency)} e {format_brl(s.max_amount, currency=s.currency)}"
                if s.max_amount is not None
                else f"a partir de {format_brl(low, currency=s.currency)}"
            )
            raise UserError(
                f"Valor fora dos limites do ato: a multa nº {number} deve ficar {limits} "
                f"({s.basis}); veio {format_brl(value, currency=s.currency)}.",
                field="amount",
            )
        before = format_brl(s.amount, currency=s.currency) if s.amount is not None else "a graduar"
        formula = f"{format_brl(value, currency=s.currency)} (graduada pela autoridade"
        formula += f", até {format_brl(s.max_amount, currency=s.currency)})" if s.max_amount is not None else ")"
        changed[number] = dataclasses.replace(s, amount=value, formula=formula, adjusted=True)
        log.append(Adjustment(number, "amount", before, format_brl(value, currency=s.currency), why, by))
    for number, wanted in days.items():
        s = current(number)
        if s.kind != "suspension":
            raise UserError(f"A sanção nº {number} ({s.label}) não é suspensão: não tem prazo em dias.", field="days")
        if isinstance(wanted, bool) or not isinstance(wanted, int):
            raise UserError(f"Prazo inválido: {wanted!r} (informe um número inteiro de dias).", field="days")
        if not s.days_adjustable:
            fixed = f"{s.days} dias" if s.days is not None else "até sanar a irregularidade"
            raise UserError(
                f"A suspensão nº {number} é fixada pelo ato ({fixed}, {s.basis}): o prazo não pode ser alterado.",
                field="days",
            )
        fewest = s.min_days or 1
        if wanted < fewest or (s.max_days is not None and wanted > s.max_days):
            limits = f"de {fewest} a {s.max_days} dias" if s.max_days is not None else f"a partir de {fewest} dia"
            raise UserError(
                f"Prazo fora dos limites do ato: a suspensão nº {number} deve ser {limits} ({s.basis}); veio {wanted}.",
                field="days",
            )
        before = f"{s.days} dias" if s.days is not None else "a fixar"
        changed[number] = dataclasses.replace(s, days=wanted, adjusted=True)
        log.append(Adjustment(number, "days", before, describe.days(wanted), why, by))

    items = tuple(
        dataclasses.replace(item, sanctions=tuple(changed.get(s.number, s) for s in item.sanctions))
        for item in proposal.items
    )
    return dataclasses.replace(proposal, items=items, adjustments=proposal.adjustments + tuple(log))
