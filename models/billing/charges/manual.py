"""A charge by hand: a value the Administration set, a venue fee or deposit, a fine or a depot fee."""

from __future__ import annotations

import datetime as _dt

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.billing.charges.steps import next_charge_number, typed_amount
from models.billing.charges.tables import KINDS, Charge
from models.permits import Permit
from models.rules.acts import act_sha
from models.store.db import db


def create_charge(
    *,
    kind: str,
    regime: str,
    label: str,
    amount,
    due_on: _dt.date | None,
    basis: str,
    by: str,
    formula: str = "",
    permit: Permit | None = None,
    person_id: int | None = None,
    company_id: int | None = None,
    source: str = "",
    key: str | None = None,
    today: _dt.date | None = None,
) -> Charge:
    """A charge entered by hand (a value the Administration set, a venue fee, a fine…), with its basis."""
    require("charges.create")
    from models.rules.regimes import get_regime

    today = today or _dt.date.today()
    errors: dict[str, str] = {}
    if kind not in KINDS:
        errors["kind"] = f"Tipo de cobrança desconhecido: {kind}."
    try:
        get_regime(regime)
    except UserError:
        errors["regime"] = f"Regime desconhecido: {regime or '(vazio)'}."
    label = (label or "").strip()
    if not label:
        errors["label"] = "Descreva a cobrança."
    value = typed_amount(errors, "amount", amount, what="o valor")
    if due_on is None:
        errors["due_on"] = "Informe o vencimento."
    basis = (basis or "").strip()
    if not basis:
        errors["basis"] = "Informe a base legal (artigo do ato)."
    if permit is not None:
        person_id, company_id = permit.person_id, permit.company_id
    if not person_id and not company_id:
        errors["holder"] = "Informe o devedor (permissão, pessoa ou empresa)."
    by = acting(by)  # the session's user (issue 16 §4)
    if errors or value is None:  # no value: its error is among them
        raise FieldErrors(errors)
    with db.atomic():
        return Charge.create(
            number=next_charge_number(today),
            key=key,
            kind=kind,
            regime=regime,
            permit=permit.id if permit is not None else None,
            person=person_id,
            company=company_id,
            label=label,
            amount=value,
            due_on=due_on,
            formula=(formula or "").strip() or f"valor informado: {format_brl(value)}",
            basis=basis,
            detail="",
            source=source,
            created_on=today,
            created_by=by,
            act_sha256=act_sha(regime, today),
        )
