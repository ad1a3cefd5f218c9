"""Guias (DAM): one or more open charges of one payer, with the FEBRABAN barcode and the Pix that pay them.

A guia is issued, never edited. Its 25-digit free field identifies it — ``00000`` + the year and the guia's
sequence (12 digits) + its due date (AAAAMMDD) —, so the bank's return file finds it by the barcode alone; its
Pix txid (``PRACA`` + the same 12 digits) identifies it in a bank statement. Issuing a new guia for a charge that
an open guia already carries replaces that guia (its number is cancelled: status ``replaced``).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from models.access.session import acting, require
from models.base import clock
from models.base.errors import UserError
from models.base.money import format_brl, to_centavos
from models.billing.charges import Charge, ChargeState
from models.billing.charges.steps import date_text
from models.billing.collection import codes
from models.billing.collection.agreement import require_agreement
from models.billing.collection.late import Late, get_late_rules, late_charge
from models.billing.collection.tables import Guia, GuiaCharge
from models.registry.applications import next_number
from models.store.db import db


@dataclass(frozen=True)
class GuiaLine:
    number: str
    label: str
    period: str
    basis: str
    due_on: _dt.date
    amount: Decimal
    formula: str = ""  # an accessory charge's (correction, multa, juros): printed on the guia with its values


def free_field(year: int, seq: int, due: _dt.date) -> str:
    return f"00000{year:04d}{seq:08d}{due:%Y%m%d}"


def _payer(charge: Charge) -> tuple[str, str, str]:
    """(key, name, document) of a charge's debtor."""
    person, company = charge.person, charge.company
    if person is not None:
        return f"p{charge.person_id}", person.name, person.cpf
    if company is not None:
        return f"c{charge.company_id}", company.legal_name, company.cnpj
    return "", "", ""


def find_charges(numbers: list[str]) -> list[Charge]:
    found: list[Charge] = []
    for raw in numbers:
        number = (raw or "").strip()
        charge = Charge.get_or_none(Charge.number == number)
        if charge is None:
            raise UserError(f"Cobrança {number or '(vazia)'} não encontrada.", field="charge")
        if charge not in found:
            found.append(charge)
    if not found:
        raise UserError("Informe ao menos uma cobrança (--charge NÚMERO).", field="charge")
    return found


def issue_guia(
    charges: list[Charge], *, today: _dt.date | None = None, by: str = "", write: Callable[[Guia], object] | None = None
) -> Guia:
    """Issue a guia for ``charges`` (open, of one payer) — one transaction.

    A charge past its due date, where the town set its late-payment rules (:mod:`~.late`), brings its multa and
    juros computed to the guia's new due date (today + the days the rules give) as an accessory charge the guia
    carries too; an open guia of the same charges is replaced, and the accessory charges only it carried are
    cancelled (recomputed here). ``write(guia)`` (the PDF) runs inside the same transaction: a guia whose document
    could not be written is not issued."""
    require("charges.create")
    today = today or _dt.date.today()
    agreement = require_agreement()
    rules = get_late_rules()
    payers = {_payer(c)[0] for c in charges}
    for charge in charges:
        if charge.status != "open" or charge.open_amount <= 0:
            raise UserError(
                f"A cobrança nº {charge.number} está {charge.status_label}: não entra numa guia.", field="charge"
            )
    if len(payers) != 1 or "" in payers:
        raise UserError("Uma guia reúne cobranças de um só devedor: separe as cobranças por devedor.", field="charge")
    _key, name, document = _payer(charges[0])
    overdue = [c for c in charges if c.due_on < today and c.kind != "late"]
    due = today + _dt.timedelta(days=rules.due_days) if overdue else max(today, min(c.due_on for c in charges))
    by = acting(by)
    with db.atomic():
        earlier = list(
            Guia.select()
            .join(GuiaCharge)
            .where((Guia.status == "open") & (GuiaCharge.charge.in_([c.id for c in charges])))
            .distinct()
        )
        if earlier:
            _cancel_late_of(earlier, keep={c.id for c in charges}, by=by, today=today)
        items = list(charges)
        for charge in overdue:
            late = late_charge(charge.open_amount, charge.due_on, due, rules)
            if late is not None and late.total > 0:
                items.append(late_item(charge, late, due, today))
        amount = sum((c.open_amount for c in items), Decimal("0.00"))
        centavos = to_centavos(amount)
        if centavos > codes.MAX_CENTAVOS:
            raise UserError(f"Valor grande demais para um código de barras: {format_brl(amount)}.")
        seq = next_number(f"guia-{today.year}")
        number = f"{today.year}/{seq:06d}"
        code = codes.barcode(
            value_id=agreement.value_id,
            centavos=centavos,
            agreement=agreement.agreement,
            free=free_field(today.year, seq, due),
        )
        txid = f"PRACA{today.year:04d}{seq:08d}"
        pix = (
            codes.pix_payload(
                key=agreement.pix_key, name=agreement.pix_name, city=agreement.pix_city, amount=amount, txid=txid
            )
            if agreement.has_pix
            else ""
        )
        guia = Guia.create(
            number=number,
            person=charges[0].person_id,
            company=charges[0].company_id,
            payer_name=name,
            payer_document=document,
            regime=charges[0].regime,
            amount=amount,
            due_on=due,
            barcode=code,
            txid=txid,
            pix=pix,
            agreement=agreement.agreement,
            issued_on=today,
            issued_by=by,
            replaces=", ".join(g.number for g in earlier),
        )
        for charge in items:
            GuiaCharge.create(guia=guia.id, charge=charge.id, amount=charge.open_amount)
        if earlier:
            Guia.update(status="replaced", replaced_by=number).where(
                Guia.id.in_([g.id for g in earlier]) & (Guia.status == "open")
            ).execute()
        if write is not None:
            write(guia)
    return guia


def late_item(charge: Charge, late: Late, due: _dt.date, today: _dt.date, *, why: str = ""):
    """The accessory charge of ``charge``'s monetary correction, multa and juros (kind ``late``), with its formula
    and basis."""
    from models.billing.charges import create_charge

    return create_charge(
        kind="late",
        regime=charge.regime,
        label=f"{late.what}{why} da cobrança nº {charge.number}",
        amount=late.total,
        due_on=due,
        basis=late.basis,
        formula=late.formula,
        by="",
        person_id=charge.person_id,
        company_id=charge.company_id,
        source=charge.number,
        today=today,
    )


def _cancel_late_of(guias: list[Guia], *, keep: set[int], by: str, today: _dt.date) -> None:
    """Cancel the unpaid accessory charges the replaced ``guias`` carried (not asked for again)."""
    ids = [
        i.charge_id
        for i in GuiaCharge.select(GuiaCharge.charge)
        .join(Charge)
        .join(ChargeState, on=ChargeState.charge == Charge.id)
        .where(
            GuiaCharge.guia.in_([g.id for g in guias])
            & (Charge.kind == "late")
            & (ChargeState.status == "open")
            & (ChargeState.paid_total == 0)
        )
        if i.charge_id not in keep
    ]
    if ids:
        ChargeState.update(status="cancelled", version=ChargeState.version + 1).where(
            ChargeState.charge.in_(ids) & (ChargeState.status == "open")
        ).execute()
        Charge.update(
            cancelled_at=clock.now(),
            cancelled_by=by,
            cancel_reason="encargos recalculados na segunda via da guia",
            version=Charge.version + 1,
        ).where(Charge.id.in_(ids) & Charge.cancelled_at.is_null()).execute()


def guia_lines(guia: Guia) -> list[GuiaLine]:
    items = GuiaCharge.select(GuiaCharge, Charge).join(Charge).where(GuiaCharge.guia == guia.id).order_by(Charge.number)
    return [
        GuiaLine(
            i.charge.number,
            i.charge.label,
            i.charge.period,
            i.charge.basis,
            i.charge.due_on,
            i.amount,
            i.charge.formula if i.charge.kind == "late" else "",
        )
        for i in items
    ]


def guia_state(guia: Guia) -> str:
    """``replaced`` or ``cancelled`` as issued; otherwise ``paid`` when every charge it carries is paid, else
    ``open`` — derived from the charges, so a payment (by the bank or at the desk) and its reversal need no write
    on the guia."""
    if guia.status in ("replaced", "cancelled"):
        return guia.status
    open_ = (
        GuiaCharge.select()
        .join(ChargeState, on=ChargeState.charge == GuiaCharge.charge)
        .where((GuiaCharge.guia == guia.id) & (ChargeState.status != "paid"))
        .exists()
    )
    return "open" if open_ else "paid"


def guia_json(guia: Guia) -> dict[str, object]:
    return {
        "number": guia.number,
        "amount": f"{guia.amount:.2f}",
        "due": date_text(guia.due_on),
        "barcode": guia.barcode,
        "linha_digitavel": codes.linha_digitavel(guia.barcode),
        "pix": guia.pix,
        "payer": guia.payer_name,
        "charges": [line.number for line in guia_lines(guia)],
        "status": guia_state(guia),
        "replaces": guia.replaces,
    }


def guias_of(charge: Charge) -> list[Guia]:
    return list(Guia.select().join(GuiaCharge).where(GuiaCharge.charge == charge.id).order_by(Guia.issued_at, Guia.id))


def get_guia(number: str) -> Guia:
    guia = Guia.get_or_none(Guia.number == (number or "").strip())
    if guia is None:
        raise UserError(f"Guia {number} não encontrada.", field="guia")
    return guia
