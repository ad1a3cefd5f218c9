"""The small steps the charges' workflows share: months and their labels, the next charge number, a fee's kind
and due day, an amount typed by the clerk, a planned charge written.
"""

from __future__ import annotations

import datetime as _dt
import json
from calendar import monthrange
from decimal import Decimal
from typing import NamedTuple

from models.base.br import month_name
from models.base.errors import UserError
from models.base.money import parse_typed
from models.billing.charges.tables import KINDS, Charge
from models.registry.applications import next_number
from models.rules.acts import act_sha
from models.rules.fees.needs import charge_kind_of


def date_text(day: _dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


def parse_month(text: str) -> tuple[int, int]:
    """``"2026-03"`` (or ``"03/2026"``) → ``(2026, 3)``; one pt-BR line otherwise."""
    raw = (text or "").strip()
    year = month = None
    if len(raw) == 7 and raw[4] == "-":
        year, month = raw[:4], raw[5:]
    elif len(raw) == 7 and raw[2] == "/":
        month, year = raw[:2], raw[3:]
    if (
        year
        and month
        and year.isdecimal()
        and month.isdecimal()
        and 1 <= int(month) <= 12
        and 2000 <= int(year) <= 2100
    ):
        return int(year), int(month)
    raise UserError(f"Mês inválido: {raw or '(vazio)'}; use AAAA-MM, por exemplo 2026-03.", field="month")


def month_label(year: int, month: int) -> str:
    """``"março de 2026"``."""
    return f"{month_name(month)} de {year}"


def month_bounds(year: int, month: int) -> tuple[_dt.date, _dt.date]:
    return _dt.date(year, month, 1), _dt.date(year, month, monthrange(year, month)[1])


def next_charge_number(today: _dt.date) -> str:
    seq = next_number(f"charge-{today.year}")
    return f"{today.year}/{seq:05d}"


def charge_kind(regime, fee, line_kind: str) -> str:
    """The kind of charge a fee's line becomes (``models.rules.fees.needs.charge_kind_of``); ``other`` without a
    fee."""
    if line_kind == "deposit":
        return "deposit"
    if fee is None:
        return "other"
    return charge_kind_of(regime, fee, line_kind)


def due_for(fee, line_due: str | None, *, issued: _dt.date, period_end: _dt.date) -> _dt.date:
    """The due date a fee sets: a fixed date, a day of the month, days after issue — or the month's end."""
    due = getattr(fee, "due", None)
    if due is not None:
        if due.date:
            return due.date
        if due.days_after_issue is not None:
            return issued + _dt.timedelta(days=due.days_after_issue)
        if due.hours_after_issue is not None:  # the day the last hour falls on, counted from the guia's day
            return issued + _dt.timedelta(days=-(-due.hours_after_issue // 24))
        if due.at_each is not None:  # paid at the event (the feira day), when setting up: due as issued
            return issued
        if due.day_of_month:
            return period_end.replace(day=min(due.day_of_month, period_end.day))
    return period_end


def period_day(period: str) -> _dt.date | None:
    """The first day of a monthly charge's period (``AAAA-MM``), or None for a charge of no month."""
    try:
        return _dt.date(int(period[:4]), int(period[5:7]), 1) if period else None
    except ValueError:
        return None


class PlannedCharge(NamedTuple):
    """A charge the month will create, shown before anything is written (immutable, and made fast: a month
    plans 20.000 of them)."""

    key: str
    permit_id: int | None
    permit_number: str
    holder: str
    regime: str
    fee: str
    kind: str
    label: str
    period: str
    amount: Decimal
    due_on: _dt.date
    formula: str
    basis: str
    detail: dict
    person_id: int | None = None
    company_id: int | None = None
    application_id: int | None = None

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)


def create_planned(planned: PlannedCharge, *, by: str, today: _dt.date) -> Charge:
    return Charge.create(
        number=next_charge_number(today),
        key=planned.key,
        kind=planned.kind,
        regime=planned.regime,
        permit=planned.permit_id,
        application=planned.application_id,
        person=planned.person_id,
        company=planned.company_id,
        fee=planned.fee,
        label=planned.label,
        period=planned.period,
        amount=planned.amount,
        due_on=planned.due_on,
        formula=planned.formula,
        basis=planned.basis,
        detail=json.dumps(planned.detail, ensure_ascii=False),
        created_on=today,
        created_by=by,
        act_sha256=act_sha(planned.regime, period_day(planned.period) or today),
    )


def typed_amount(errors: dict, key: str, text, *, what: str) -> Decimal | None:
    """An amount typed by the clerk (pt-BR text: ``models.base.money.parse_typed``) or computed (a ``Decimal``)."""
    raw = text.strip() if isinstance(text, str) else text
    if raw is None or raw == "":
        errors[key] = f"Informe {what}."
        return None
    try:
        value = parse_typed(raw, what=f"{what[0].upper()}{what[1:]}")
    except UserError as exc:
        errors[key] = exc.message
        return None
    if value <= 0:
        errors[key] = f"{what[0].upper()}{what[1:]} deve ser maior que zero."
        return None
    if value >= Decimal("100000000"):  # before quantize: a number this long has no room for centavos
        errors[key] = "Valor grande demais."
        return None
    if value != value.quantize(Decimal("0.01")):
        errors[key] = "Use no máximo dois decimais (centavos)."
        return None
    return value
