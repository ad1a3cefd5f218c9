"""A month's charges for 20.000 permits (Cobrança → Gerar cobranças do mês) against a bare insert of the same rows.

Praça: :func:`models.billing.charges.generate_month` — the month's plan (every permit
in force priced by the fee engine, with its formula and article frozen),
gapless numbers, the rows, the audit trail, one transaction, with a progress
callback as the screen passes one. Baseline: the very rows it wrote, already
converted to what the driver takes, inserted bare in one transaction — the
DB-API ``executemany`` on SQLite, ``psycopg2.extras.execute_values`` (the
fastest bulk insert psycopg2 has) on PostgreSQL. The database holds last
month's charges too, as it would. Budget: ≤ 3×.
"""

from __future__ import annotations

from bench import data
from bench.common import Figure, bare_insert, clock, open_scratch, paired, ratio_figure, say, thousands

NAME = "charges"
LIMIT = 3.0
YEAR, MONTH = 2026, 12


def run(backend: str, repeat: int) -> list[Figure]:
    from models.billing.charges import Charge, generate_month, plan_month
    from models.store.db import db

    with open_scratch(backend):
        say(f"  [{backend}] dados: {data.PERMITS} permissões e seus titulares, o mês anterior cobrado…")
        people, _ = data.add_people(data.PERMITS, 0)
        data.add_index_corrections()
        data.add_permits(people)
        data.add_month_of_charges(2026, 11)
        from bench.common import analyze

        analyze()
        columns = [f.column_name for f in Charge._meta.sorted_fields if f is not Charge.id]
        period = f"{YEAR:04d}-{MONTH:02d}"
        counter = db.execute_sql("SELECT value FROM counter WHERE name = 'charge-2026'").fetchone()[0]
        rows: list[tuple] = []
        made: list[int] = []

        def product():
            made.append(
                len(
                    generate_month(
                        YEAR, MONTH, by="chefe.cobranca", today=data.TODAY, progress=lambda done, total: None
                    )
                )
            )

        def put_back():
            with db.atomic():
                if not rows:  # the baseline inserts exactly what the month's run wrote
                    rows.extend(
                        db.execute_sql(
                            f"SELECT {', '.join(columns)} FROM charge WHERE period = {db.param} ORDER BY id", (period,)
                        ).fetchall()
                    )
                month = f"SELECT id FROM charge WHERE period = {db.param}"  # their states first (schema v32)
                db.execute_sql(f"DELETE FROM charge_state WHERE id IN ({month})", (period,))
                db.execute_sql(f"DELETE FROM charge WHERE period = {db.param}", (period,))
                # the audit trail is append-only (its guard refuses a DELETE): each run's entries stay, as a desk's
                # would; appending to a longer trail costs the same
                db.execute_sql(f"UPDATE counter SET value = {db.param} WHERE name = 'charge-2026'", (counter,))

        def baseline():
            bare_insert(db, backend, "charge", columns, rows)

        # the first run gives the rows; then the two alternate, the database put back after each
        product()
        put_back()
        planning = clock(lambda: plan_month(YEAR, MONTH, today=data.TODAY))
        ours, theirs = paired(product, baseline, repeat, between=put_back)
        assert set(made) == {len(rows)} and len(rows) >= data.PERMITS * 0.95, (made, len(rows))
        insert_only = "execute_values" if backend == "postgresql" else "executemany"
        return [
            ratio_figure(
                f"a month's charges ({thousands(len(rows))} permits) vs bare {insert_only}",
                backend,
                ours,
                theirs,
                LIMIT,
                detail=f"of which the plan (pricing every permit) {planning * 1000:.0f} ms",
            )
        ]
