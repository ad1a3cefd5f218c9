"""Seized goods: the depot fee, release after the fines and fees are paid, donation when unclaimed."""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl, parse_typed, round_cents
from models.billing.charges import Charge, create_charge
from models.enforcement.chains import chain_of
from models.enforcement.proposal import unit_value_overrides
from models.enforcement.reading import charges_of, items_of
from models.enforcement.tables import ZERO, Record, RecordCharge, SeizedItem, acting_user, day_text, record_event
from models.rules import describe
from models.rules.fees.needs import fee_needs
from models.rules.regimes import act_money, get_regime
from models.store.db import db, update_versioned


@dataclass(frozen=True)
class DepotFee:
    """The depot's daily fee owed for a seizure up to a day: how many days, the value, the formula, the article."""

    days: int
    amount: Decimal | None
    formula: str
    basis: str
    start: _dt.date
    end: _dt.date
    admin_defined: bool = False
    #: a daily fee (the depot's diárias); False: the seizure's expenses, once, as the act words them
    daily: bool = True
    label: str = "Depósito de bens apreendidos"


def _held_since(record: Record) -> _dt.date:
    return record.at.date()


def depot_fee(record: Record, on: _dt.date, *, since: _dt.date | None = None) -> DepotFee | None:
    """The depot fee for the days from ``since`` (default: the seizure) to ``on``; None where the act sets none.

    Each day started in the depot is a daily fee (Olímpia art. 145, § 2º:
    "diárias pelo depósito dos bens no valor de 1 UFESP por dia"); the
    fiscal unit's value is the one of each day's year.
    """
    regime = get_regime(record.regime, on=record.at.date())
    rule = regime.seizure.depot_fee if regime.seizure else None
    start = since or _held_since(record)
    if rule is not None and rule.scopes and record.scope not in rule.scopes:
        # the act sets the daily fee for some matters only (Olímpia caps. XV and XVII): elsewhere, its own words
        expenses = regime.seizure.expenses if regime.seizure is not None else None
        if expenses is None:
            return None
        return DepotFee(
            0,
            None,
            expenses.text,
            regime.cite_item(expenses),
            start,
            on,
            admin_defined=True,
            daily=False,
            label="Despesas de apreensão, transporte e guarda",
        )
    if rule is None:
        return None
    days = max((on - start).days, 0 if since else 1)
    basis = regime.cite_item(rule)
    if fee_needs(regime, rule.as_fee()).administration is not None:
        return DepotFee(
            days, None, "preço do depósito definido pela Administração", basis, start, on, admin_defined=True
        )
    assert rule.amount is not None, "the loader requires an amount unless the Administration sets it"
    overrides = unit_value_overrides(regime)

    def money(value: Decimal) -> str:  # the act's figures in the act's money, converted once at the end
        return format_brl(value, currency=regime.currency)

    per_year: dict[int, int] = defaultdict(int)
    for i in range(days):
        per_year[(start + _dt.timedelta(days=i)).year] += 1
    total = ZERO
    parts = []
    for year, n in sorted(per_year.items()):
        value = regime.unit_value(rule.amount.unit, year, overrides) * rule.amount.value
        total += n * value
        if rule.amount.unit == "BRL":
            parts.append(f"{n} diária(s) × {money(value)}")
        else:
            unit_value = regime.unit_value(rule.amount.unit, year, overrides)
            parts.append(
                f"{n} diária(s) × {describe.amount(rule.amount)} × {money(unit_value)} ({rule.amount.unit} {year})"
            )
    amount = round_cents(total)
    formula = " + ".join(parts) + f" = {money(amount)}" if parts else money(ZERO)
    conversion = regime.conversion
    if conversion is not None and conversion.applies(on):  # a rule of the act converts its money: as its fines
        amount = conversion.convert(amount)
        formula += f" ÷ {conversion.divisor} = {format_brl(amount, currency=conversion.to)} ({conversion.cite})"
    return DepotFee(days, amount, formula, basis, start, on)


def _depot_covered(record: Record) -> tuple[_dt.date | None, list[Charge]]:
    links = list(RecordCharge.select().where((RecordCharge.record == record.id) & (RecordCharge.role == "depot")))
    charges = [Charge.get_by_id(link.charge_id) for link in links]
    live = [(link, c) for link, c in zip(links, charges, strict=True) if c.status != "cancelled"]
    until = max((link.until for link, _c in live if link.until), default=None)
    return until, [c for _l, c in live]


def charge_depot_fee(
    record: Record, *, on: _dt.date, by: str, amount: Any = None, today: _dt.date | None = None
) -> Charge:
    """Charge the depot's daily fees up to ``on`` (after what was charged before); ``amount`` where the
    Administration sets the price (Sapezal, Lei 1.171/2014, art. 52, § 1º)."""
    today = today or on
    by = acting_user(by)
    if record.kind != "seizure":
        raise UserError(f"O {record.reference} não é auto de apreensão.")
    if not record.identified:
        raise UserError("Infrator não identificado: identifique-o (novo auto) antes de cobrar o depósito.")
    covered, _charges = _depot_covered(record)
    fee = depot_fee(record, on, since=covered)
    if fee is None:
        raise UserError(f"O {get_regime(record.regime, on=record.at.date()).short} não prevê preço de depósito.")
    if not fee.daily and _charges:
        raise UserError(f"As despesas da apreensão já foram lançadas ({fee.basis}).")
    if covered is not None and on <= covered:
        raise UserError(f"As diárias já foram cobradas até {day_text(covered)}.")
    value = fee.amount
    formula = fee.formula
    if fee.admin_defined:
        if amount in (None, ""):
            what = (
                "O preço do depósito é definido pela Administração"
                if fee.daily
                else "As despesas da apreensão, do transporte e da guarda são apuradas pela Administração"
            )
            raise FieldErrors({"amount": f"{what} ({fee.basis}): informe o valor."})
        value = round_cents(parse_typed(amount, what="Valor", field="amount"))
        who = "preço definido" if fee.daily else "despesas apuradas"
        formula = f"{act_money(value, record.regime)} ({who} pela Administração)"
    if value is None or value <= 0:
        raise UserError("Nada a cobrar de depósito.")
    with db.atomic():
        charge = create_charge(
            kind="depot",
            regime=record.regime,
            label=(
                f"{fee.label} — {record.reference} ({day_text(fee.start)} a {day_text(on)})"
                if fee.daily
                else f"{fee.label} — {record.reference}"
            ),
            amount=value,
            due_on=on,
            basis=fee.basis,
            formula=formula,
            by=by,
            person_id=record.person_id,
            company_id=record.company_id,
            source=record.reference,
            today=today,
        )
        RecordCharge.create(record=record.id, charge=charge.id, role="depot", until=on)
    return charge


def _case_fines(record: Record) -> list[Charge]:
    """Fines of the whole occurrence (the seizure and the infraction record drawn up with it)."""
    found: list[Charge] = []
    for r in chain_of(record):
        if r.status == "annulled":
            continue
        found.extend(c for c in charges_of(r, "fine") if c.status != "cancelled")
    return found


def reclaim_due_of(record: Record, perishable: bool) -> dict | None:
    for d in record.deadline_data:
        if d.get("role") == "reclaim" and bool(d.get("perishable")) == perishable:
            return d
    return None


def due_passed(d: Mapping, on: _dt.date) -> bool:
    """Past the deadline on ``on`` (a deadline that ends during a day is past from the next day on)."""
    return on > _dt.date.fromisoformat(d["due_date"])


def release_items(record: Record, *, on: _dt.date, by: str, today: _dt.date | None = None) -> list[SeizedItem]:
    """Give the seized goods back — only once the fines and the depot fees are paid (Olímpia art. 23, parágrafo
    único; Sapezal art. 52, § 1º)."""
    require("enforcement.record")
    today = today or on
    by = acting_user(by)
    regime = get_regime(record.regime, on=record.at.date())
    items = [i for i in items_of(record) if i.held]
    if not items:
        raise UserError(f"Nada a devolver: os bens do {record.reference} já foram devolvidos ou doados.")
    if record.status == "corrected":
        raise UserError(f"O {record.reference} foi corrigido: devolva pelo auto que o substituiu.")
    rule = regime.seizure.release if regime.seizure and regime.seizure.release else None
    basis = regime.cite(rule.basis if rule else (regime.seizure.basis if regime.seizure else None))
    missing = []
    for charge in _case_fines(record):
        if charge.status != "paid":
            missing.append(f"multa nº {charge.number} ({act_money(charge.open_amount, record.regime)} em aberto)")
    if record.status != "annulled":
        if not record.identified and record.fine_total > 0:
            missing.append("identificação do infrator e pagamento da multa")
        fee = depot_fee(record, on)
        covered, depot_charges = _depot_covered(record)
        for charge in depot_charges:
            if charge.status != "paid":
                what = "diárias de depósito" if fee is None or fee.daily else "despesas da apreensão"
                missing.append(f"{what} nº {charge.number} ({act_money(charge.open_amount, record.regime)})")
        if fee is not None and fee.amount is not None and (covered is None or covered < on):
            rest = depot_fee(record, on, since=covered)
            if rest is not None and rest.amount and rest.amount > 0:
                due = act_money(rest.amount, record.regime)
                missing.append(f"diárias de depósito até {day_text(on)} ({due}: {rest.formula})")
    if missing:
        raise UserError(
            f"Devolução só depois de pagas as multas e as despesas de depósito ({basis}); falta: "
            + "; ".join(missing)
            + "."
        )
    with db.atomic():
        for item in items:
            update_versioned(
                item, "Os bens foram alterados em outra mesa; reabra o auto.", released_on=on, released_by=by
            )
        record_event(
            record, "released", by=by, on=today, text=f"Bens devolvidos em {day_text(on)} ({len(items)} item(ns))"
        )
    return [SeizedItem.get_by_id(i.id) for i in items]


def donate_items(
    record: Record,
    *,
    on: _dt.date,
    by: str,
    to: str,
    reason: str = "",
    consent: bool = False,
    today: _dt.date | None = None,
) -> list[SeizedItem]:
    """Donate goods not claimed in time (Olímpia art. 24; art. 215, § 2º); before that only with the
    offender's consent, for perishables or when he declares he will not claim them (art. 149; art. 215, § 3º)."""
    require("enforcement.record")
    today = today or on
    by = acting_user(by)
    if not (to or "").strip():
        raise FieldErrors({"to": "Informe a entidade que recebe a doação."})
    regime = get_regime(record.regime, on=record.at.date())
    items = [i for i in items_of(record) if i.held]
    if not items:
        raise UserError(f"Nada a doar: os bens do {record.reference} já foram devolvidos ou doados.")
    seizure = regime.seizure
    rule_basis = regime.cite(
        seizure.donation.basis if seizure and seizure.donation else (seizure.basis if seizure else None)
    )
    eligible, blocked, open_ended = [], [], []
    for item in items:
        due = reclaim_due_of(record, item.perishable)
        if consent or (due is not None and due_passed(due, on)):
            eligible.append(item)
        elif due is None:
            open_ended.append(item)
        else:
            blocked.append(f"{item.description}: prazo de retirada {due['due_text']} ({due['basis']})")
    if open_ended:
        if not (reason or "").strip():
            raise FieldErrors(
                {
                    "reason": f"O ato não fixa prazo de retirada ({rule_basis}): informe o fundamento "
                    "da doação (avaliação técnica, decisão da chefia…)."
                }
            )
        eligible.extend(open_ended)
    if not eligible:
        raise UserError(
            "Ainda no prazo de retirada — doação só depois dele, ou com a anuência do infrator: "
            + "; ".join(blocked)
            + "."
        )
    items = eligible
    note = (reason or "").strip() + (" (com anuência do infrator)" if consent else "")
    with db.atomic():
        for item in items:
            update_versioned(
                item,
                "Os bens foram alterados em outra mesa; reabra o auto.",
                donated_on=on,
                donated_by=by,
                donated_to=to.strip(),
                note=note,
            )
        record_event(
            record,
            "donated",
            by=by,
            on=today,
            text=f"Bens doados a {to.strip()} em {day_text(on)} ({rule_basis})" + (f" — {note}" if note else ""),
        )
    return [SeizedItem.get_by_id(i.id) for i in items]


@dataclass(frozen=True)
class SeizedRow:
    record_id: int
    reference: str
    offender: str
    regime: str
    seized_at: _dt.datetime
    items: str
    perishable: bool
    depot: str
    reclaim_due: str
    reclaim_basis: str
    reclaim_passed: bool
    days: int
    depot_due: Decimal | None
    depot_formula: str
    fines_open: Decimal
    total_due: Decimal
    state: str


def seized_goods(today: _dt.date, *, regimes: frozenset[str] | None = None) -> list[SeizedRow]:
    """Goods still held in the depots, each seizure with what must be paid today to get them back;
    ``regimes``: only the items of these acts (the municipality's own — ``own_scope()``; None: every act)."""
    held = SeizedItem.select(SeizedItem.record).where(
        SeizedItem.released_on.is_null() & SeizedItem.donated_on.is_null()
    )
    records = Record.select().where(Record.id.in_(held) & (Record.status != "corrected"))
    if regimes is not None:
        records = records.where(Record.regime.in_(sorted(regimes)))
    records = records.order_by(Record.at)
    rows = []
    for record in records:
        items = [i for i in items_of(record) if i.held]
        perishable = any(i.perishable for i in items)
        dues = [d for d in (reclaim_due_of(record, flag) for flag in {i.perishable for i in items}) if d]
        first = min(dues, key=lambda d: d["due_date"]) if dues else None
        passed = first is not None and due_passed(first, today)
        fee = depot_fee(record, today) if record.status != "annulled" else None
        _covered, depot_charges = _depot_covered(record)
        paid_depot = sum((c.paid_total for c in depot_charges if c.status != "cancelled"), ZERO)
        depot_due = None
        if fee is not None and fee.amount is not None:
            depot_due = max(fee.amount - paid_depot, ZERO)
        fines_open = sum((c.open_amount for c in _case_fines(record)), ZERO)
        total = fines_open + (depot_due or ZERO)
        if record.status == "annulled":
            state = "auto anulado: devolver"
        elif passed:
            state = "prazo de retirada vencido: doar"
        elif first:
            state = "no prazo de retirada"
        else:
            state = "o ato não fixa prazo de retirada"
        rows.append(
            SeizedRow(
                record_id=record.id,
                reference=record.reference,
                offender=record.offender_name,
                regime=record.regime,
                seized_at=record.at,
                items="; ".join(
                    f"{describe.number(i.quantity)} {i.unit} {i.description}" + (" (perecível)" if i.perishable else "")
                    for i in items
                ),
                perishable=perishable,
                depot=record.depot,
                reclaim_due=first["due_text"] if first else "—",
                reclaim_basis=first["basis"] if first else "",
                reclaim_passed=passed,
                days=fee.days if fee else max((today - record.at.date()).days, 1),
                depot_due=depot_due,
                depot_formula=fee.formula if fee else "o ato não fixa preço de depósito",
                fines_open=fines_open,
                total_due=total,
                state=state,
            )
        )
    return rows
