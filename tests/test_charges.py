"""Charges and payments: the month's run, frozen formulas, payments, cancellation, deposits, debts, delinquency.

Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from factories import TODAY, approved, company, issue, person, sjc_stall
from hypothesis import given
from hypothesis import strategies as st
from peewee import IntegrityError, fn

from models.base.errors import FieldErrors, UserError
from models.base.money import from_centavos
from models.billing.charges import (
    Charge,
    Payment,
    await_payment,
    cancel_charge,
    charge_rows,
    create_charge,
    debts_of,
    generate_month,
    month_summary,
    parse_month,
    plan_month,
    record_payment,
    return_deposit,
    revocation_candidates,
)
from models.billing.fiscal import set_index_correction
from models.registry.applications import Application
from models.rules.eligibility import FAILED, PASSED, evaluate_eligibility
from models.services.front_desk import applicant_facts, load_applicant
from models.store.db import db

#: The charges with their state (schema v32: status and paid total in charge_state), for SQL from the tables
CHARGES = "(SELECT c.*, s.status, s.paid_total FROM charge AS c JOIN charge_state AS s ON s.id = c.id) AS ch"

# --------------------------------------------------------------------------- the month's run


def test_month_run_previews_then_creates_once_with_frozen_formula(keys, inpc):
    permit = sjc_stall(keys)
    plan = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    assert len(plan.to_create) == 1 and plan.existing == 0
    planned = plan.to_create[0]
    # SJC art. 11, § 5º: R$ 2,50 per m² per month (2014) × INPC 2015..2026, 8,00 × 3,50 m, due on the 20th
    assert planned.kind == "monthly" and planned.period == "2026-09" and planned.due_on == dt.date(2026, 9, 20)
    assert "art. 11, § 5º" in planned.basis and "2,50" in planned.formula
    assert Charge.select().count() == 0  # the plan writes nothing
    created = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
    assert [c.amount for c in created] == [planned.amount]
    assert created[0].permit_id == permit.id and created[0].person_id == permit.person_id
    again = plan_month(2026, 9)
    assert again.to_create == () and again.existing == 1
    assert generate_month(2026, 9, by="tesouraria") == []  # idempotent
    # a later change of the index never changes an issued charge
    set_index_correction("INPC", 2026, "9,99", entered_by="teste", reason="revisão")
    stored = Charge.get_by_id(created[0].id)
    assert stored.amount == planned.amount and stored.formula == planned.formula
    assert json.loads(stored.detail)["basis"] == planned.basis
    # the next month is a new charge, with the new index
    october = generate_month(2026, 10, by="tesouraria", today=dt.date(2026, 10, 1))
    assert len(october) == 1 and october[0].amount > planned.amount


def test_the_month_is_searched_by_name_without_accents_and_by_number(keys, inpc):
    """Cobrança's search as the clerk types (views.charges_page): the debtor's name in any case and without its
    accents, the charge's or the permit's number; on each back end."""
    sjc_stall(keys, "Maria das Dores Lima")
    joao = sjc_stall(keys, "João Batista Rocha")
    created = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
    charge = next(c for c in created if c.permit_id == joao.id)

    def found(text: str) -> list[str]:
        return [r.number for r in charge_rows(year=2026, month=9, text=text, today=dt.date(2026, 9, 15))]

    assert len(created) == 2 and sorted(found("")) == sorted(c.number for c in created)
    assert found("joao batista") == found("JOÃO") == found(charge.number) == found(joao.number) == [charge.number]
    assert found("rocha maria") == []  # every word must match


def test_month_run_lists_what_it_cannot_charge(keys, inpc):
    from factories import tpu

    tpu(keys, company("Pastel da Maria Ltda", person("Maria José da Silva")))
    plan = plan_month(TODAY.year, TODAY.month)
    assert plan.to_create == ()
    assert any("definido pela Administração" in s and "art. 178" in s for s in plan.skipped)


def test_a_missing_index_correction_is_said_not_guessed(keys, database):
    sjc_stall(keys)
    plan = plan_month(2026, 9)
    assert plan.to_create == () and any("Falta a correção do INPC" in s for s in plan.skipped)


def test_month_run_is_all_or_nothing(keys, inpc):
    sjc_stall(keys, "Ana Maria Souza")
    sjc_stall(keys, "Beatriz Lima Rocha")

    def cancel_midway(done, total):
        if done == 2:
            raise RuntimeError("cancelado pelo usuário")

    with pytest.raises(RuntimeError):
        generate_month(2026, 9, by="tesouraria", progress=cancel_midway)
    assert Charge.select().count() == 0
    assert len(generate_month(2026, 9, by="tesouraria")) == 2


def test_parse_month():
    assert parse_month("2026-03") == (2026, 3) and parse_month("03/2026") == (2026, 3)
    for bad in ("", "2026-13", "2026/03", "março", "1999-01"):
        with pytest.raises(UserError, match="Mês inválido"):
            parse_month(bad)


# --------------------------------------------------------------------------- payments


def test_partial_payments_double_slip_and_overpayment(keys, inpc):
    sjc_stall(keys)
    charge = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))[0]
    half = (charge.amount / 2).quantize(Decimal("0.01"))
    record_payment(
        charge,
        paid_on=dt.date(2026, 9, 10),
        amount=str(half).replace(".", ","),
        reference="111",
        by="caixa",
        today=dt.date(2026, 9, 30),
    )
    assert Charge.get_by_id(charge.id).status == "open"
    with pytest.raises(UserError, match="boleto 111 já foi registrado"):
        record_payment(
            charge, paid_on=dt.date(2026, 9, 11), amount=half, reference="111", by="caixa", today=dt.date(2026, 9, 30)
        )
    with pytest.raises(IntegrityError):  # the database itself refuses the same slip twice
        with db.atomic():
            Payment.create(
                charge=charge.id, paid_on=dt.date(2026, 9, 11), amount=half, reference="111", recorded_by="x"
            )
    record_payment(
        charge,
        paid_on=dt.date(2026, 9, 12),
        amount=charge.amount - half,
        reference="112",
        by="caixa",
        today=dt.date(2026, 9, 30),
    )
    assert Charge.get_by_id(charge.id).status == "paid"
    record_payment(
        Charge.get_by_id(charge.id),
        paid_on=dt.date(2026, 9, 13),
        amount=charge.amount,
        reference="113",
        by="caixa",
        today=dt.date(2026, 9, 30),
    )
    row = charge_rows(year=2026, month=9, today=dt.date(2026, 9, 30))[0]
    assert row.overpaid and row.situation == "paga a maior"


@pytest.mark.parametrize(
    "amount, paid_on, reference, field",
    [
        ("", dt.date(2026, 9, 1), "1", "amount"),
        ("0", dt.date(2026, 9, 1), "1", "amount"),
        ("-5,00", dt.date(2026, 9, 1), "1", "amount"),
        ("1,234", dt.date(2026, 9, 1), "1", "amount"),
        ("abc", dt.date(2026, 9, 1), "1", "amount"),
        ("10,00", None, "1", "paid_on"),
        ("10,00", dt.date(2027, 1, 1), "1", "paid_on"),
        ("10,00", dt.date(2026, 9, 1), "  ", "reference"),
    ],
)
def test_bad_payments_are_refused_at_the_field_and_nothing_is_stored(keys, inpc, amount, paid_on, reference, field):
    sjc_stall(keys)
    charge = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))[0]
    with pytest.raises(FieldErrors) as caught:
        record_payment(
            charge, paid_on=paid_on, amount=amount, reference=reference, by="caixa", today=dt.date(2026, 9, 30)
        )
    assert field in caught.value.errors
    assert Payment.select().count() == 0 and Charge.get_by_id(charge.id).paid_total == 0


def test_cancel_needs_a_reason_and_an_unpaid_charge(keys, inpc):
    sjc_stall(keys)
    (first,) = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
    with pytest.raises(FieldErrors, match="motivo"):
        cancel_charge(first, reason=" ", by="chefe")
    cancelled = cancel_charge(first, reason="Permissionário em licença aprovada", by="chefe")
    assert cancelled.status == "cancelled" and cancelled.cancel_reason == "Permissionário em licença aprovada"
    with pytest.raises(UserError, match="já está cancelada"):
        cancel_charge(cancelled, reason="de novo", by="chefe")
    with pytest.raises(FieldErrors, match="cancelada"):
        record_payment(
            cancelled, paid_on=dt.date(2026, 9, 2), amount="1,00", reference="9", by="caixa", today=dt.date(2026, 9, 30)
        )
    (second,) = generate_month(2026, 10, by="tesouraria", today=dt.date(2026, 10, 1))
    record_payment(
        second, paid_on=dt.date(2026, 10, 2), amount="1,00", reference="9", by="caixa", today=dt.date(2026, 10, 30)
    )
    with pytest.raises(UserError, match="tem pagamentos"):
        cancel_charge(Charge.get_by_id(second.id), reason="engano", by="chefe")


def test_deposit_is_returned_once_after_payment(keys):
    holder = company("Eventos Olímpia Ltda", person("Rita de Cássia Moura"))
    deposit = create_charge(
        kind="deposit",
        regime="olimpia-2025",
        label="Caução — Recinto de Exposições",
        amount="1.500,00",
        due_on=TODAY,
        basis="art. 89",
        by="tesouraria",
        company_id=holder.id,
        today=TODAY,
    )
    assert deposit.amount == Decimal("1500.00") and "R$ 1.500,00" in deposit.formula
    with pytest.raises(UserError, match="não está paga"):
        return_deposit(deposit, on=TODAY, by="tesouraria", today=TODAY)
    record_payment(deposit, paid_on=TODAY, amount="1500", reference="C-1", by="caixa", today=TODAY)
    returned = return_deposit(
        Charge.get_by_id(deposit.id), on=TODAY, by="tesouraria", note="Laudo sem danos (art. 91, § 5º)", today=TODAY
    )
    assert returned.returned_on == TODAY
    with pytest.raises(UserError, match="já foi devolvida"):
        return_deposit(returned, on=TODAY, by="tesouraria", today=TODAY)


def test_manual_charge_validates_every_field(database):
    with pytest.raises(FieldErrors) as caught:
        create_charge(kind="nope", regime="nenhum", label="", amount="-1", due_on=None, basis="", by="")
    assert {"kind", "regime", "label", "amount", "due_on", "basis", "holder"} <= set(caught.value.errors)
    assert "by" not in caught.value.errors  # who acts is the session's user (issue 16 §4), never asked
    assert Charge.select().count() == 0


# --------------------------------------------------------------------------- awaiting payment


def test_awaiting_payment_charges_the_frozen_quote_and_holds_the_permit(keys):
    from models.billing.pricing import quote

    holder = company("Trailer do Zé Ltda", person("José Carlos Pinto"))
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 16),
        holder=holder,
        site="rua-cel-ribeiro-da-luz",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
    )
    frozen = quote(
        "sao-bento-2026",
        permit_kind="event-stall",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
        energy="high",
        year=2026,
    ).to_dict()
    Application.update(quote_json=json.dumps(frozen)).where(Application.id == app.id).execute()
    charges = await_payment(Application.get_by_id(app.id), by="ana", today=dt.date(2026, 3, 16))
    assert [c.amount for c in charges] == [Decimal(line["amount"]) for line in frozen["lines"]]
    assert all(c.due_on == dt.date(2026, 3, 26) for c in charges)  # art. 12, I
    app = Application.get_by_id(app.id)
    assert app.status == "awaiting_payment"
    with pytest.raises(UserError, match="aguarda pagamento"):
        issue(app, keys, dt.date(2026, 3, 20))
    for n, charge in enumerate(charges):
        record_payment(
            charge,
            paid_on=dt.date(2026, 3, 18),
            amount=charge.amount,
            reference=f"SB{n}",
            by="caixa",
            today=dt.date(2026, 3, 20),
        )
    permit = issue(Application.get_by_id(app.id), keys, dt.date(2026, 3, 20))
    assert permit.status == "active"
    # the month's run does not charge the event again
    assert plan_month(2026, 3, today=dt.date(2026, 3, 31)).to_create == ()


# --------------------------------------------------------------------------- debts block new permits


@pytest.mark.parametrize(
    "regime, kind, fields",
    [
        ("olimpia-2025", "street-food-tpu-a", {"equipment": "food-truck", "site": "Praça Rui Barbosa"}),
        ("sapezal-2014", "ponto-fixo", {"line": "bebidas", "group": "g03", "equipment": "barraca"}),
        ("sao-bento-2026", "event-stall", {"equipment": "barraca", "site": "rua-cel-ribeiro-da-luz"}),
    ],
)
def test_debts_block_where_the_act_says_so(keys, regime, kind, fields):
    holder = company("Lanches Bom Gosto Ltda", person("Paulo Roberto Dias"))

    def debts_rule(today):
        facts = applicant_facts(
            load_applicant("company", holder.id),
            documents=[],
            today=today,
            regime=regime,
            permit_kind=kind,
            site=fields.get("site", ""),
        )
        return next(r for r in evaluate_eligibility(regime, kind, facts).results if r.rule.kind == "no-debts")

    assert debts_rule(TODAY).status == PASSED  # checked, none
    charge = create_charge(
        kind="other",
        regime=regime,
        label="Preço público de 2026",
        amount="80,00",
        due_on=TODAY - dt.timedelta(days=10),
        basis="art. 9º",
        by="tesouraria",
        company_id=holder.id,
        today=TODAY,
    )
    assert debts_rule(TODAY - dt.timedelta(days=11)).status == PASSED  # not yet due: not a debt
    blocked = debts_rule(TODAY)
    assert blocked.status == FAILED and "R$ 80,00" in blocked.reason and charge.number in blocked.reason
    record_payment(charge, paid_on=TODAY, amount="80,00", reference="X1", by="caixa", today=TODAY)
    assert debts_rule(TODAY).status == PASSED


def test_an_unpaid_fine_blocks_even_before_its_due_date(database):
    vendor = person("Carlos Alberto Nunes")
    create_charge(
        kind="fine",
        regime="sao-bento-2026",
        label="Multa — não desmontou no horário",
        amount="150,00",
        due_on=TODAY + dt.timedelta(days=30),
        basis="art. 2º, § 2º",
        by="fiscal",
        person_id=vendor.id,
        today=TODAY,
    )
    debts = debts_of("person", vendor.id, today=TODAY)
    assert len(debts) == 1 and debts[0].kind == "fine" and debts[0].amount == Decimal("150.00")
    assert "multa não paga" in debts[0].description


# --------------------------------------------------------------------------- delinquency and totals


def test_three_consecutive_unpaid_months_make_a_candidate_never_a_revocation(keys, inpc):
    late = sjc_stall(keys, "Devedor Três Meses", on=dt.date(2026, 6, 1))
    gap = sjc_stall(keys, "Devedor Alternado", on=dt.date(2026, 6, 1))
    for month in (7, 8, 9, 10):
        for charge in generate_month(2026, month, by="tesouraria", today=dt.date(2026, month, 1)):
            if charge.permit_id == gap.id and month == 8:
                record_payment(
                    charge,
                    paid_on=dt.date(2026, 8, 15),
                    amount=charge.amount,
                    reference="G8",
                    by="caixa",
                    today=dt.date(2026, 8, 15),
                )
            if charge.permit_id == late.id and month == 7:
                record_payment(
                    charge,
                    paid_on=dt.date(2026, 7, 15),
                    amount=charge.amount,
                    reference="L7",
                    by="caixa",
                    today=dt.date(2026, 7, 15),
                )
    found = revocation_candidates(today=dt.date(2026, 10, 21))
    assert [c.permit_number for c in found] == [late.number]
    assert found[0].months == ("2026-08", "2026-09", "2026-10") and "art. 11, § 6º" in found[0].basis
    assert late.__class__.get_by_id(late.id).status == "active"  # the chief decides
    assert revocation_candidates(today=dt.date(2026, 10, 20)) == []  # October not yet overdue


def test_month_summary_equals_direct_sql(keys, inpc):
    for name in ("Ana Paula Reis", "Bruno Costa Lima", "Célia Maria Alves"):
        sjc_stall(keys, name)
    charges = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
    record_payment(
        charges[0],
        paid_on=dt.date(2026, 9, 18),
        amount=charges[0].amount,
        reference="A",
        by="caixa",
        today=dt.date(2026, 9, 30),
    )
    record_payment(
        charges[1], paid_on=dt.date(2026, 10, 2), amount="10,00", reference="B", by="caixa", today=dt.date(2026, 10, 2)
    )
    cancel_charge(charges[2], reason="lançada em duplicidade", by="chefe")
    summary = month_summary(2026, 9, today=dt.date(2026, 10, 5))
    cents = db.execute_sql(
        f"SELECT SUM(amount) FROM {CHARGES} WHERE status <> 'cancelled' "
        "AND due_on BETWEEN '2026-09-01' AND '2026-09-30'"
    ).fetchone()[0]
    assert summary.charged == from_centavos(int(cents)) == charges[0].amount + charges[1].amount
    assert summary.paid == charges[0].amount + Decimal("10.00")
    assert summary.open == summary.overdue == charges[1].amount - Decimal("10.00")
    assert summary.received == charges[0].amount and summary.cancelled_count == 1
    received_sql = Payment.select(fn.SUM(Payment.amount)).scalar()
    assert from_centavos(int(received_sql)) == charges[0].amount + Decimal("10.00")


@given(st.integers(min_value=1, max_value=9_999_999_99))
def test_amount_text_round_trips_in_centavos(cents):
    from models.billing.charges.steps import typed_amount

    value = from_centavos(cents)
    errors: dict = {}
    text = f"{value:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    assert typed_amount(errors, "amount", text, what="o valor") == value and not errors
