"""Dívida ativa (issue 30 §6): the charges overdue beyond the town's term, one row per debt with what Lei
6.830/1980, art. 2º, § 5º asks a term of inscription to state, the amounts updated to a date; once exported and
confirmed, each charge is inscribed (its own number and date, § 5º, V) and leaves the month's open list — it is
still a debt (eligibility keeps counting it)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from models.access.session import acting, require
from models.base.br import format_cnpj, format_cpf
from models.base.errors import UserError
from models.billing.charges import KINDS, Charge, ChargeState
from models.billing.charges.steps import date_text
from models.billing.collection.late import get_late_rules, late_charge
from models.billing.collection.tables import DebtInscription
from models.registry.applications import next_number
from models.registry.people import Company, Person
from models.store.db import db
from models.store.outfile import output

ZERO = Decimal("0.00")

#: (key, heading) — what art. 2º, § 5º asks, in its order
COLUMNS = [
    ("inscription", "Inscrição nº (§ 5º, V)"),
    ("inscribed_on", "Data da inscrição (§ 5º, V)"),
    ("debtor", "Devedor (§ 5º, I)"),
    ("document", "CPF/CNPJ"),
    ("co_responsible", "Co-responsáveis (§ 5º, I)"),
    ("address", "Domicílio (§ 5º, I)"),
    ("charge", "Cobrança nº"),
    ("origin", "Origem (§ 5º, III)"),
    ("nature", "Natureza (§ 5º, III)"),
    ("legal_basis", "Fundamento legal (§ 5º, III)"),
    ("original", "Valor originário (§ 5º, II)"),
    ("start", "Termo inicial: vencimento (§ 5º, II)"),
    ("interest_rule", "Forma de calcular juros e encargos (§ 5º, II)"),
    ("correction", "Atualização monetária: índice e fundamento (§ 5º, IV)"),
    ("corrected", "Correção monetária"),
    ("fine", "Multa de mora"),
    ("interest", "Juros de mora"),
    ("updated", "Valor atualizado"),
    ("formula", "Cálculo"),
    ("process", "Processo administrativo ou auto nº (§ 5º, VI)"),
]
MONEY = {"original", "corrected", "fine", "interest", "updated"}


@dataclass
class DebtRow:
    charge: Charge
    values: dict[str, object]


def _address(holder) -> str:
    parts = [", ".join(p for p in (holder.street, holder.number) if p), holder.district]
    place = "/".join(p for p in (holder.city, holder.state) if p)
    cep = f"CEP {holder.zip_code[:5]}-{holder.zip_code[5:]}" if len(holder.zip_code or "") == 8 else ""
    return " — ".join(p for p in (*parts, place, cep) if p)


def debt_rows(as_of: _dt.date) -> list[DebtRow]:
    """The open charges whose due date plus the town's term is before ``as_of``, updated to ``as_of`` — of the
    municipality's own acts (issue 31 §1: a town inscribes its own debts; every act while it is not known)."""
    from models.registry.municipality import own_scope

    rules = get_late_rules()
    if rules.debt_term is None:
        raise UserError(
            "O prazo para inscrição em dívida ativa não está cadastrado: informe-o em Cadastros → Arrecadação "
            "ou com praca collection late --debt-term-days N."
        )
    limit = as_of - _dt.timedelta(days=rules.debt_term)
    due = (ChargeState.status == "open") & (ChargeState.due_on < limit) & (ChargeState.amount > ChargeState.paid_total)
    scope = own_scope()
    if scope is not None:
        due &= Charge.regime.in_(sorted(scope))
    charges = Charge.with_state().where(due).order_by(Charge.due_on, Charge.number)
    rows = []
    for charge in charges:
        original = charge.open_amount
        late = late_charge(original, charge.due_on, as_of, rules) if charge.kind != "late" else None
        person, company = charge.person, charge.company
        holder: Person | Company | None = person or company
        if person is not None:
            debtor, document, partners = person.name, format_cpf(person.cpf), ""
        elif company is not None:
            debtor, document = company.legal_name, format_cnpj(company.cnpj)
            partners = "; ".join(f"{p.name} (CPF {format_cpf(p.cpf)})" if p.cpf else p.name for p in company.partners)
        else:
            debtor, document, partners = "", "", ""
        rows.append(
            DebtRow(
                charge,
                {
                    "inscription": "",
                    "inscribed_on": "",
                    "debtor": debtor,
                    "document": document,
                    "co_responsible": partners,
                    "address": _address(holder),
                    "charge": charge.number,
                    "origin": charge.label,
                    "nature": KINDS.get(charge.kind, charge.kind)
                    + (" (não tributária)" if charge.kind in ("fine", "late", "depot") else " (preço público ou taxa)"),
                    "legal_basis": charge.basis,
                    "original": original,
                    "start": date_text(charge.due_on),
                    "interest_rule": (
                        f"multa de {rules.fine_percent}% e juros de {rules.interest_percent}% ao mês ou fração, "
                        f"desde {date_text(charge.due_on)}"
                        + (", sobre o valor corrigido" if rules.correcting else "")
                        + f" — {rules.source}"
                        if rules.configured
                        else "sem multa e juros cadastrados"
                    ),
                    "correction": (
                        f"sujeita a atualização monetária pelo {rules.correction_index} (anual), desde "
                        f"{date_text(charge.due_on)} — {rules.correction_source}"
                        if rules.correcting
                        else "sujeita a atualização monetária; índice não declarado (Cadastros → Arrecadação)"
                    ),
                    "corrected": late.correction if late else ZERO,
                    "fine": late.fine if late else ZERO,
                    "interest": late.interest if late else ZERO,
                    "updated": original + (late.total if late else ZERO),
                    "formula": late.formula if late else "",
                    "process": charge.source,
                },
            )
        )
    return rows


def export_debts(
    path: str | Path,
    write: Callable[[list[DebtRow], Path], None],
    *,
    as_of: _dt.date,
    confirm: bool = False,
    today: _dt.date | None = None,
) -> list[DebtRow]:
    """Write the list with ``write(rows, temporary_path)`` (reports.debts_export); with ``confirm`` inscribe each
    charge (its number and date) in the transaction that writes the file — both happen, or neither."""
    require("charges.cancel" if confirm else "charges.create")
    today = today or _dt.date.today()
    if as_of > today:
        raise UserError(f"A data de atualização ({date_text(as_of)}) está no futuro.", field="as_of")
    with db.atomic():
        rows = debt_rows(as_of)
        if confirm:
            by = acting()
            for row in rows:
                seq = next_number(f"dividas-{today.year}")
                number = f"{today.year}/{seq:05d}"
                DebtInscription.create(
                    number=number,
                    charge=row.charge.id,
                    inscribed_on=today,
                    as_of=as_of,
                    original=row.values["original"],
                    updated=row.values["updated"],
                    file_name=Path(path).name[:255],
                    inscribed_by=by,
                )
                ChargeState.update(status="inscribed", version=ChargeState.version + 1).where(
                    (ChargeState.charge == row.charge.id) & (ChargeState.status == "open")
                ).execute()
                row.values["inscription"], row.values["inscribed_on"] = number, date_text(today)
        with output(path) as tmp:
            write(rows, tmp)
    return rows
