"""Issue 16 §7: contention explained and errors clean — the month's run, the read-only and foreign files."""

from __future__ import annotations

import datetime as dt

import pytest

from models import charges
from models.charges import Charge, MonthRunBusy, generate_month, plan_month
from test_charges import inpc, sjc_stall  # noqa: F401  (inpc: fixture)
from test_permits import keys  # noqa: F401  (keys: fixture)


def test_a_second_desk_generating_the_month_on_postgresql_is_told(keys, inpc, database):
    if not database.startswith("postgresql"):
        pytest.skip("the advisory lock is PostgreSQL's; SQLite's single writer queues the runs")
    import psycopg2

    from models.db import parse_url

    sjc_stall(keys)
    target = parse_url(database)
    other = psycopg2.connect(dbname=target.dbname, user=target.user, host=target.host, port=target.port,
                             options=f"-c search_path={target.schema}")
    try:
        with other.cursor() as cur:  # another desk, in the middle of its run
            cur.execute(f"SELECT pg_try_advisory_lock({charges.MONTH_RUN_LOCK})")
            assert cur.fetchone()[0]
        with pytest.raises(MonthRunBusy, match="O mês já está sendo gerado em outra mesa"):
            generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))
        assert Charge.select().count() == 0
        with other.cursor() as cur:
            cur.execute(f"SELECT pg_advisory_unlock({charges.MONTH_RUN_LOCK})")
    finally:
        other.close()
    assert len(generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))) == 1


def test_the_month_is_planned_before_the_write_and_a_run_made_meanwhile_is_not_repeated(keys, inpc, monkeypatch):
    """The plan is computed outside the write transaction; what another desk wrote meanwhile is left out at the
    write, never a duplicate or a raw IntegrityError."""
    from models.db import db

    sjc_stall(keys, "Ana Maria Souza")
    sjc_stall(keys, "Beatriz Lima Rocha")
    stale = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    depth = []

    def planned_outside(*args, **kwargs):
        depth.append(db.transaction_depth())
        return stale

    first = generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1))  # the other desk's run
    monkeypatch.setattr(charges, "plan_month", planned_outside)
    assert generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1)) == []
    assert depth == [0] and len(first) == 2 and Charge.select().count() == 2
