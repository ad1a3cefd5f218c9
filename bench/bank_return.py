"""The bank's return file of 10.000 payments (Cobrança → Importar retorno, ``praca payments import``) against a
bare parse-and-executemany of the same file.

Praça: :func:`models.billing.collection.bank_files.import_return` — the file read and checked (every record, the
trailer's count and total), the agreement, each record matched to its guia by the barcode and classified, then
in one transaction (read again there, as another desk may have written meanwhile) the return file, the payments
with their sources, the charges' paid totals and statuses, every write audited. Baseline: the same file split into
its records and the very payment rows Praça wrote inserted bare in one transaction — the DB-API ``executemany`` on
SQLite, ``psycopg2.extras.execute_values`` on PostgreSQL. Budgets (issue 30 §4): ≤ 10 s, and ≤ 2× the baseline.
"""

from __future__ import annotations

import datetime as _dt
import tempfile
from pathlib import Path

from bench import data
from bench.common import Figure, bare_insert, limit_figure, open_scratch, paired, ratio_figure, say, thousands

NAME = "bank_return"
RECORDS = 10_000
LIMIT_S = 10.0
LIMIT = 2.0
PAID_ON = _dt.date(2026, 11, 19)


def run(backend: str, repeat: int) -> list[Figure]:
    from models.billing.charges import Charge, ChargeState
    from models.billing.collection import bulk_return, codes
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.guias import free_field
    from models.billing.collection.returns import build_return
    from models.billing.collection.tables import Guia, GuiaCharge
    from models.store.db import db, take_write_turn
    from models.store.settings import write_setting

    with open_scratch(backend), tempfile.TemporaryDirectory() as folder:
        say(f"  [{backend}] dados: permissões, o mês cobrado, uma guia por cobrança, o arquivo de retorno…")
        people, _ = data.add_people(data.PERMITS, 0)
        data.add_index_corrections()
        data.add_permits(people)
        month = data.add_month_of_charges(2026, 11, paid=0.0, cancelled=0.0)
        assert month > 0, "no charge in the month"
        with db.atomic():
            write_setting("collection_agreement", "0042")
            write_setting("collection_value_id", "6")
        charges = list(
            Charge.with_state().where((ChargeState.status == "open") & Charge.person.is_null(False)).order_by(Charge.id)
        )[: min(RECORDS, data.PERMITS)]
        guias, links = [], []
        for n, charge in enumerate(charges, 1):
            due = charge.due_on
            guias.append(
                {
                    "number": f"2026/{n:06d}",
                    "person": charge.person_id,
                    "payer_name": "Contribuinte",
                    "payer_document": "00000000000",
                    "regime": charge.regime,
                    "amount": charge.amount,
                    "due_on": due,
                    "barcode": codes.barcode(
                        value_id="6",
                        centavos=int(charge.amount * 100),
                        agreement="0042",
                        free=free_field(2026, n, due),
                    ),
                    "txid": f"PRACA2026{n:08d}",
                    "agreement": "0042",
                    "issued_on": data.TODAY,
                    "issued_by": "chefe.cobranca",
                }
            )
        with data.bulk():
            data.insert_batches(Guia, guias)
            ids = dict(Guia.select(Guia.number, Guia.id).tuples())
            for n, charge in enumerate(charges, 1):
                links.append({"guia": ids[f"2026/{n:06d}"], "charge": charge.id, "amount": charge.amount})
            data.insert_batches(GuiaCharge, links)
        path = Path(folder) / "RET.txt"
        path.write_bytes(
            build_return(
                agreement="0042",
                nsa=1,
                generated_on=data.TODAY,
                payments=[(g["barcode"], int(g["amount"] * 100), PAID_ON) for g in guias],
            )
        )
        from bench.common import analyze

        analyze()
        columns = ["charge_id", "paid_on", "amount", "reference", "recorded_at", "recorded_by", "note"]
        columns += ["channel", "guia_id", "return_file_id", "record", "barcode", "credited_on", "fee"]  # (schema v33)
        rows: list[tuple] = []
        made: list[int] = []
        charge_ids = ", ".join(str(c.id) for c in charges)

        def product():
            made.append(import_return(path, today=data.TODAY).payments)

        def put_back():
            with db.atomic():
                if not rows:  # the baseline inserts exactly what the import wrote
                    rows.extend(
                        db.execute_sql(
                            f"SELECT {', '.join(columns)} FROM payment WHERE reference LIKE {db.param} ORDER BY id",
                            ("RET %",),
                        ).fetchall()
                    )
                # raw SQL: the put-back is the benchmark's, not a clerk's change (the audit trail keeps its entries)
                db.execute_sql("DELETE FROM credit")
                db.execute_sql(f"DELETE FROM payment WHERE reference LIKE {db.param}", ("RET %",))
                db.execute_sql("DELETE FROM return_file")
                db.execute_sql(f"UPDATE charge_state SET paid_total = 0, status = 'open' WHERE id IN ({charge_ids})")

        def baseline():
            records = [line[:150] for line in path.read_text("latin-1").splitlines()]
            assert len([r for r in records if r.startswith("G")]) == len(rows)
            bare_insert(db, backend, "payment", columns, rows)

        def writes_only():
            # what no import of this file can leave out, by the import's own code: the payments (the baseline's
            # insert), the trail's entry of them, each charge's paid total and status with its entry (before and
            # after) — no file read, no record matched, nothing checked
            with db.atomic():
                take_write_turn(db)
                (last,) = db.execute_sql("SELECT COALESCE(MAX(id), 0) FROM payment").fetchone()
                bare_insert(db, backend, "payment", columns, rows)
                bulk_return._audit_inserts(last, "bench", len(rows))
                temp = "TEMP TABLE" + (" IF NOT EXISTS" if backend == "sqlite" else "")
                db.execute_sql(
                    f"CREATE {temp} {bulk_return.PARTS} (record integer, charge_id integer, amount bigint)"
                    + (" ON COMMIT DROP" if backend == "postgresql" else "")
                )
                db.execute_sql(
                    f"INSERT INTO {bulk_return.PARTS} SELECT record, charge_id, amount FROM payment WHERE id > {last}"
                )
                bulk_return._add_paid("bench", True)
            bulk_return.drop_staging()

        product()
        put_back()
        ours, theirs = paired(product, baseline, repeat, between=put_back)
        assert set(made) == {len(rows)} == {len(charges)}, (made, len(rows), len(charges))
        insert_only = "execute_values" if backend == "postgresql" else "executemany"
        what = f"a return file of {thousands(len(charges))} payments"
        figures = [
            limit_figure(what, backend, ours, LIMIT_S),
            ratio_figure(f"{what} vs bare parse and {insert_only}", backend, ours, theirs, LIMIT),
        ]
        if backend == "sqlite":  # (PostgreSQL: the import inserts by INSERT … SELECT on the server, the floor from
            # Python with the baseline's execute_values — no floor there; and the import is within its budget)
            floor, again = paired(writes_only, baseline, repeat, between=put_back)
            writes = ratio_figure(
                f"… of which the writes alone (payments, charge states, their trail) vs bare {insert_only}",
                backend,
                floor,
                again,
                LIMIT,
                detail="what no import can leave out: the import's own statements for them, nothing read or matched",
            )
            writes.judged = False  # the floor under the budget above, given beside it
            figures.append(writes)
        return figures
