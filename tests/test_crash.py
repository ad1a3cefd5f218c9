"""Crash safety: a desk killed with SIGKILL in the middle of a bulk operation leaves all of it or none of it.

A child process (``spawn``) opens the database and runs the month's charges
(:func:`models.billing.charges.generate_month`) or an import
(:func:`models.services.importer.import_rows`); its progress callback tells the parent
when it is half-way (or, in the other case, the operation has returned) and
then waits; the parent kills it with SIGKILL. Afterwards the database passes
its integrity check, holds none of the operation (killed half-way) or all of it
(killed after the commit), its counters agree with its rows, and a fresh
``open_database`` works and can run the operation again.

Run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import signal
import sqlite3
import time

import pytest
from factories import open_new_database

CTX = multiprocessing.get_context("spawn")
SEPTEMBER = dt.date(2026, 9, 1)
INPC = {
    2015: "6,23",
    2016: "11,28",
    2017: "6,58",
    2018: "2,07",
    2019: "3,43",
    2020: "4,48",
    2021: "5,45",
    2022: "10,16",
    2023: "5,93",
    2024: "3,71",
    2025: "4,77",
    2026: "3,90",
}


def _bulk_then_hang(url: str, what: str, when: str, reached, backend_pid, args: tuple) -> None:
    """Runs in a process of its own: the bulk operation, stopped (to be killed) half-way or after it returned."""
    from models.access import session

    session.log_in(session.SYSTEM)  # a desk of its own: someone is logged in there (issue 16 §4)
    from models.store.db import db

    open_new_database(url)
    if url.startswith("postgresql"):
        backend_pid.value = db.execute_sql("SELECT pg_backend_pid()").fetchone()[0]

    def progress(done: int, total: int) -> None:
        if when == "midway" and total // 2 <= done < total:
            reached.set()
            time.sleep(600)  # the parent kills this process here, inside the transaction

    if what == "month":
        from models.billing import charges

        # The run writes its rows in batches and reports after each; a month of a big town has many
        # batches, these sixteen permits get four — so that there is a middle to be killed in.
        charges.month._BATCH = 4
        charges.generate_month(2026, 9, by="tesouraria", today=SEPTEMBER, progress=progress)
    else:
        from models.services import importer

        path, regime, kind = args
        sheet = importer.read_sheet(path)
        mapping = importer.guess_mapping(sheet.headers)
        mapping.defaults.update(regime=regime, permit_kind=kind)
        importer.import_rows(
            importer.preview_import(sheet, mapping, today=SEPTEMBER), today=SEPTEMBER, progress=progress
        )
    if when == "after":
        reached.set()
        time.sleep(600)


def kill_when_reached(url: str, what: str, when: str, *args) -> int:
    """Start the child, wait until it reports the point, SIGKILL it; its PostgreSQL session's pid (or 0)."""
    reached = CTX.Event()
    backend_pid = CTX.Value("i", 0)
    child = CTX.Process(target=_bulk_then_hang, args=(url, what, when, reached, backend_pid, args))
    child.start()
    deadline = time.monotonic() + 180
    while not reached.wait(0.2):
        assert child.is_alive(), f"the child ended before the point (exit code {child.exitcode})"
        assert time.monotonic() < deadline, "the child never reached the point"
    os.kill(child.pid, signal.SIGKILL)
    child.join(30)
    assert child.exitcode == -signal.SIGKILL
    return backend_pid.value


def integrity_ok(url: str, killed_session: int) -> None:
    """SQLite: ``PRAGMA integrity_check`` and ``foreign_key_check`` on a connection of its own. PostgreSQL
    keeps its own integrity (write-ahead log): the killed desk's session must be gone, its transaction
    rolled back by the server."""
    from models.store.db import parse_url

    target = parse_url(url)
    if target.backend == "sqlite":
        check = sqlite3.connect(target.path)
        try:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert check.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            check.close()
        return
    from models.store.db import db

    assert killed_session
    for _ in range(100):  # the server ends the session as soon as it sees the socket closed
        if not db.execute_sql("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (killed_session,)).fetchone()[0]:
            return
        time.sleep(0.1)
    raise AssertionError(f"the killed desk's session {killed_session} is still on the server")


def reopen(url: str) -> None:
    from models.store.bootstrap import close_database

    close_database()
    open_new_database(url)


# --------------------------------------------------------------------------- the month's charges


@pytest.fixture
def stalls(database, tmp_path):
    """Sixteen SJC feirantes with their permits, and the INPC the monthly fee needs (Lei 9.158/2014, art. 11)."""
    from factories import sjc_stall

    from models.billing.fiscal import set_index_correction
    from models.store.files import set_store

    set_store(tmp_path / "files")
    for year, pct in INPC.items():
        set_index_correction("INPC", year, pct, entered_by="teste", reason="INPC de teste")
    keys = tmp_path / "keys"
    return [sjc_stall(keys, f"Feirante Número {i} da Silva") for i in range(16)]


def audited_rows(table: str) -> int:
    """How many rows of ``table`` the audit trail records as inserted (a bulk insert is one entry listing them)."""
    from models.store.audit import AuditEntry, bulk_rows

    return sum(
        len(bulk_rows(entry.after)) if entry.after else 1
        for entry in AuditEntry.select().where((AuditEntry.table_name == table) & (AuditEntry.action == "insert"))
    )


def month_state() -> tuple[int, int, int]:
    """Charges, the charge counter, and the charges the audit trail records."""
    from models.billing.charges import Charge
    from models.registry.applications import Counter

    counter = Counter.get_or_none(Counter.name == "charge-2026")
    return Charge.select().count(), counter.value if counter else 0, audited_rows("charge")


@pytest.mark.parametrize("when, kept", [("midway", 0), ("after", 16)])
def test_month_run_killed_keeps_all_or_nothing(stalls, database, when, kept):
    from models.billing.charges import Charge, generate_month

    integrity_ok(database, kill_when_reached(database, "month", when))
    assert month_state() == (kept, kept, kept)
    reopen(database)
    assert month_state() == (kept, kept, kept)
    # the desk that comes back runs the month again: what was lost is made, nothing is made twice
    again = generate_month(2026, 9, by="tesouraria", today=SEPTEMBER)
    assert len(again) == 16 - kept
    numbers = sorted(int(c.number.split("/")[1]) for c in Charge.select())
    assert numbers == list(range(1, 17))
    assert {c.permit_id for c in Charge.select()} == {p.id for p in stalls}


# --------------------------------------------------------------------------- an import


def import_state() -> tuple[int, int, int]:
    """People, permits, and the people the audit trail records."""
    from models.permits import Permit
    from models.registry.people import Person

    return Person.select().count(), Permit.select().count(), audited_rows("person")


def vendor_list(path) -> str:
    from factories import cpf_number as cpf
    from factories import write_csv

    rows = [["Nome", "CPF", "Ramo", "Seção", "Frente", "Profundidade", "Início", "Validade", "Nº do alvará"]]
    rows += [
        [
            f"Ambulante Número {i} Souza",
            cpf(9000 + i),
            "pastel",
            "xvi",
            "8,00",
            "3,50",
            "01/01/2026",
            "31/12/2027",
            f"{i}/2019",
        ]
        for i in range(30)
    ]
    return str(write_csv(path, rows))


@pytest.mark.parametrize("when, kept", [("midway", 0), ("after", 30)])
def test_import_killed_keeps_all_or_nothing(database, tmp_path, when, kept):
    from models.permits import Permit
    from models.services import importer

    path = vendor_list(tmp_path / "ambulantes.csv")
    integrity_ok(database, kill_when_reached(database, "import", when, path, "sjc-2014", "feirante"))
    assert import_state() == (kept, kept, kept)
    reopen(database)
    assert import_state() == (kept, kept, kept)
    sheet = importer.read_sheet(path)
    mapping = importer.guess_mapping(sheet.headers)
    mapping.defaults.update(regime="sjc-2014", permit_kind="feirante")
    preview = importer.preview_import(sheet, mapping, today=SEPTEMBER)
    if kept:  # all of it is there: the list is now "already registered", row by row
        assert preview.ok_rows == [] and all("já cadastrado" in r.reason for r in preview.bad_rows)
        return
    result = importer.import_rows(preview, today=SEPTEMBER)
    assert (result.people, result.permits) == (30, 30)
    assert sorted(int(p.number.split("/")[1]) for p in Permit.select()) == list(range(1, 31))
