"""Schemas v32–v33 (issue 30): what is paid on a charge and its status live in ``charge_state``, one narrow row per
charge — the one home of both —, and where a payment came from on the payment's own row. A database made before (v31:
both on the charge's row, the source in ``payment_source``) opens, migrates, and keeps every figure and the audit
trail's chain; a payment, a reversal, a cancellation or a credit used writes the state, never the charge's row.
SQLite and, with ``PRACA_TEST_PG``, PostgreSQL."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from factories import olimpia_fine as _fine

TODAY = dt.date(2026, 3, 10)

#: The charge's columns and indexes as schema v31 had them (models/billing/charges/tables.py before v32).
V31_INDEXES = (
    'CREATE INDEX "charge_status" ON "charge" ("status")',
    'CREATE INDEX "charge_due_on_figures" ON "charge" ("due_on", "status", "amount", "paid_total")',
    'CREATE INDEX "charge_open_by_due_on" ON "charge" ("due_on", "kind", "permit_id", "fee", "period", "amount", '
    '"paid_total") WHERE ("status" = \'open\')',
)


def _town(tmp_path) -> list[int]:
    """Charges in every state a town has: paid, paid in part, cancelled, paid then reversed, paid above (a credit),
    part paid with that credit, inscribed in dívida ativa, paid by the bank's return file."""
    from factories import person

    from models.billing.charges import cancel_charge, record_payment
    from models.billing.collection.agreement import set_agreement
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.credits import apply_credit
    from models.billing.collection.desk import record_desk_payment, reverse_payment
    from models.billing.collection.guias import issue_guia
    from models.billing.collection.returns import build_return
    from models.store.db import db

    vendor, other = person("Carlos Alberto Nunes"), person("Ana Lima")
    paid, part, cancelled, reversed_, over, later, inscribed = (
        _fine(vendor, "300,00"),
        _fine(vendor, "120,00"),
        _fine(vendor, "80,00"),
        _fine(vendor, "100,00"),
        _fine(vendor, "80,00", label="Multa — art. 161"),
        _fine(vendor, "50,00", due=dt.date(2026, 4, 20)),
        _fine(other, "75,00", due=dt.date(2025, 6, 1)),
    )
    record_payment(paid, paid_on=TODAY, amount="300,00", reference="R1", by="caixa", today=TODAY)
    record_payment(part, paid_on=TODAY, amount="50,00", reference="R2", by="caixa", today=TODAY)
    cancel_charge(cancelled, reason="lançada em duplicidade", by="chefe")
    payment = record_payment(reversed_, paid_on=TODAY, amount="100,00", reference="R3", by="caixa", today=TODAY)
    reverse_payment(payment.id, reason="cheque devolvido", today=TODAY)
    record_desk_payment(over, paid_on=TODAY, amount="100,00", reference="R4", accept_overpayment=True, today=TODAY)
    apply_credit(later, today=TODAY)
    with db.atomic():  # as the dívida ativa's export inscribes it (models.billing.collection.dividas)
        from models.billing.charges import ChargeState

        ChargeState.update(status="inscribed", version=ChargeState.version + 1).where(
            ChargeState.charge == inscribed.id
        ).execute()
    set_agreement(agreement="0042", value_id="6", pix_key="", pix_name="", pix_city="")
    banked = _fine(other, "90,00", due=dt.date(2026, 3, 20))
    guia = issue_guia([banked], today=TODAY)
    ret = tmp_path / "RET0005.txt"
    ret.write_bytes(build_return(agreement="0042", nsa=5, generated_on=TODAY, payments=[(guia.barcode, 9000, TODAY)]))
    assert import_return(ret, today=TODAY).payments == 1
    return [c.id for c in (paid, part, cancelled, reversed_, over, later, inscribed, banked)]


def _figures(ids: list[int]) -> dict:
    """Every figure a reader shows of those charges: each one's state, the desk's list, the month's summary and the
    Painel's alert, the dívida ativa's candidates and the payer's debts."""
    from models.billing.charges import Charge, Payment, charge_alerts, charge_rows, debts_of, month_summary
    from models.billing.collection.desk import sources_of
    from models.billing.collection.figures import collection_figures

    today = dt.date(2026, 3, 31)
    charges = {c.id: c for c in Charge.select().where(Charge.id.in_(ids))}
    sources = {}
    for charge in charges.values():
        for payment_id, s in sources_of(charge).items():
            guia, bank_file = (s.guia.number if s.guia else ""), (s.return_file.nsa if s.return_file else "")
            sources[payment_id] = (s.channel, s.record, guia, bank_file)
    return {
        "payments": [(p.id, p.amount, p.reference) for p in Payment.select().order_by(Payment.id)],
        "sources": sources,
        "collection": collection_figures(dt.date(2026, 3, 1), today),
        "states": [(charges[i].status, charges[i].paid_total, charges[i].open_amount) for i in ids],
        "rows": [(r.number, r.status, r.paid, r.open_amount, r.overdue) for r in charge_rows(today=today)],
        "overdue": [(r.number, r.open_amount) for r in charge_rows(status="overdue", today=today)],
        "summary": month_summary(2026, 3, today=today),
        "alerts": [item.text for item in charge_alerts(today)],
        "debts": debts_of("person", charges[ids[0]].person_id, today=today),
    }


def _back_to_version_31() -> None:
    """Turn the open database into what schema v31 had: status and paid total on the charge's row, with its three
    indexes, and no ``charge_state``; each payment's source in ``payment_source`` (raw SQL: the owner's hand, as a
    database made before would be)."""
    from peewee import PostgresqlDatabase

    from models.store import schema
    from models.store.db import db

    key = "SERIAL PRIMARY KEY" if isinstance(db.obj, PostgresqlDatabase) else "INTEGER NOT NULL PRIMARY KEY"
    source = "channel, guia_id, return_file_id, record, barcode, credited_on, fee"
    with db.atomic():
        db.obj.execute_sql(
            f"CREATE TABLE payment_source (id {key}, payment_id INTEGER NOT NULL UNIQUE REFERENCES payment (id), "
            "channel VARCHAR(8) NOT NULL, guia_id INTEGER REFERENCES guia (id), return_file_id INTEGER REFERENCES "
            "return_file (id), record INTEGER, barcode VARCHAR(44) NOT NULL, credited_on DATE, fee BIGINT NOT NULL)"
        )
        db.obj.execute_sql(
            f"INSERT INTO payment_source (payment_id, {source}) SELECT id, {source} FROM payment WHERE channel <> ''"
        )
        for column in source.split(", "):
            db.obj.execute_sql(f"ALTER TABLE payment DROP COLUMN {column}")
        db.obj.execute_sql("ALTER TABLE charge ADD COLUMN status VARCHAR(12) NOT NULL DEFAULT 'open'")
        db.obj.execute_sql("ALTER TABLE charge ADD COLUMN paid_total BIGINT NOT NULL DEFAULT 0")
        for column in ("status", "paid_total"):
            db.obj.execute_sql(
                f"UPDATE charge SET {column} = (SELECT s.{column} FROM charge_state AS s WHERE s.id = charge.id)"
            )
        for statement in V31_INDEXES:
            db.obj.execute_sql(statement)
        db.obj.execute_sql("DROP TABLE charge_state")
        schema.Meta.update(value="31").where(schema.Meta.key == "schema_version").execute()


def test_a_database_made_before_migrates_with_every_figure_and_the_chain(database, tmp_path):
    from models.billing.charges import Charge, ChargeState
    from models.store import schema
    from models.store.audit import AuditEntry, bulk_rows, verify_chain
    from models.store.bootstrap import close_database, open_database
    from models.store.db import db

    ids = _town(tmp_path)
    expected = _figures(ids)
    states = ["paid", "open", "cancelled", "open", "paid", "open", "inscribed", "paid"]
    assert [s[0] for s in expected["states"]] == states
    assert sorted(s[0] for s in expected["sources"].values()) == ["bank", "credit"]
    assert ("bank", 2, "2026/000001", 5) in expected["sources"].values()
    assert expected["states"][1][1:] == (Decimal("50.00"), Decimal("70.00"))
    _back_to_version_31()
    last = AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id.desc()).scalar()
    close_database()

    open_database(database)
    assert schema.read_version(db.obj) == schema.LATEST == 33
    assert "payment_source" not in db.obj.get_tables()
    columns = {c.name for c in db.obj.get_columns("charge")}
    assert not {"status", "paid_total"} & columns
    charge_indexes = {index.name for index in db.obj.get_indexes("charge")}
    assert not {"charge_status", "charge_due_on_figures", "charge_open_by_due_on"} & charge_indexes
    state_indexes = {index.name: index for index in db.obj.get_indexes("charge_state")}
    assert state_indexes["charge_state_due_on_figures"].columns == ["due_on", "status", "amount", "paid_total"]
    assert "open" in state_indexes["charge_state_open_by_due_on"].sql  # partial: the open charges only
    assert _figures(ids) == expected
    assert ChargeState.select().count() == Charge.select().count()
    # the copy is in the trail: one entry listing every charge's state as it was, and the chain still holds
    [copied] = AuditEntry.select().where((AuditEntry.id > last) & (AuditEntry.table_name == "charge_state"))
    rows = {row["id"]: row for row in bulk_rows(copied.after)}
    assert [(rows[i]["status"], Decimal(rows[i]["paid_total"])) for i in ids] == [
        (status, paid) for status, paid, _open in expected["states"]
    ]
    [moved] = AuditEntry.select().where((AuditEntry.id > last) & (AuditEntry.table_name == "payment"))
    assert moved.action == "update"
    assert sorted(row["channel"] for row in bulk_rows(moved.after)) == ["bank", "credit"]
    assert verify_chain().intact


def test_a_payment_reversal_and_cancellation_write_the_state_never_the_charges_row(database):
    from factories import person

    from models.billing.charges import Charge, cancel_charge, record_payment
    from models.billing.collection.desk import reverse_payment
    from models.store.audit import AuditEntry, verify_chain

    vendor = person("Beatriz Costa")
    charge, other = _fine(vendor, "300,00"), _fine(vendor, "40,00")
    last = AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id.desc()).scalar()
    payment = record_payment(charge, paid_on=TODAY, amount="300,00", reference="R9", by="caixa", today=TODAY)
    reverse_payment(payment.id, reason="estorno do banco", today=TODAY)
    written = [
        (e.table_name, e.action)
        for e in AuditEntry.select().where(AuditEntry.id > last).order_by(AuditEntry.id)
        if e.table_name in ("charge", "charge_state")
    ]
    assert written == [("charge_state", "update"), ("charge_state", "update")]
    assert (Charge.get_by_id(charge.id).status, Charge.get_by_id(charge.id).paid_total) == ("open", Decimal("0.00"))
    cancel_charge(other, reason="lançada em duplicidade", by="chefe")  # the reason on the charge, the status here
    cancelled = Charge.get_by_id(other.id)
    assert (cancelled.status, cancelled.cancel_reason) == ("cancelled", "lançada em duplicidade")
    assert verify_chain().intact


def test_a_query_on_the_charges_status_column_is_refused_loudly(database):
    """``Charge.status == "open"`` in a query would be a constant: the class says where the column went."""
    import pytest

    from models.billing.charges import Charge

    with pytest.raises(AttributeError, match=r"ChargeState\.status"):
        _ = Charge.status
    with pytest.raises(AttributeError, match=r"ChargeState\.paid_total"):
        _ = Charge.paid_total
