"""What every benchmark shares: the temporary databases, the timing, the figures and their table."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

PG_URL = os.environ.get("PRACA_TEST_PG", "").strip()

#: ``python -m bench --smoke``: every benchmark once, on small data, nothing judged — each path exercised, so that
#: a benchmark that raises fails CI (tests/test_bench.py) instead of breaking unnoticed until the next ``make bench``.
SMOKE = {"on": False}


def at_least(repeat: int, runs: int) -> int:
    """``runs`` or more timed runs for a figure whose single runs are short; ``repeat`` alone in a smoke run."""
    return repeat if SMOKE["on"] else max(repeat, runs)


# --------------------------------------------------------------------------- figures


@dataclass
class Figure:
    """One line of the table: what was measured, its figure, the baseline of the same run and the budget."""

    what: str
    backend: str  # "sqlite", "postgresql" or "—" (no database involved)
    value: float  # seconds, or bytes for memory
    unit: str  # "s" | "bytes"
    budget: str  # "≤ 2×", "< 100 ms"…
    ok: bool
    baseline: float | None = None
    ratio: float | None = None
    detail: str = ""
    judged: bool = True  # False: a figure given beside a budget, not held to one

    def shown(self, value: float | None) -> str:
        if value is None:
            return "—"
        if self.unit == "bytes":
            return f"{value / 2**20:.1f} MiB"
        return f"{value * 1000:.1f} ms" if value < 10 else f"{value:.2f} s"

    def row(self) -> str:
        ratio = f"{self.ratio:.2f}×" if self.ratio is not None else "—"
        verdict = ("ok" if self.ok else "MISSED") if self.judged else "reported"
        return (
            f"| {self.what} | {self.backend} | {self.shown(self.value)} | {self.shown(self.baseline)} | {ratio} "
            f"| {self.budget} | {verdict} |"
        )


HEADER = "| what | database | Praça | baseline | ratio | budget | result |\n|---|---|---|---|---|---|---|"


def bare_insert(db, backend: str, table: str, columns: list[str], rows: list) -> None:
    """The baseline of a bulk write: ``rows`` inserted into ``table`` in one transaction by the driver alone —
    ``psycopg2.extras.execute_values`` on PostgreSQL, the DB-API ``executemany`` on SQLite."""
    insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    with db.atomic():
        cursor = db.cursor()
        if backend == "postgresql":
            from psycopg2.extras import execute_values

            execute_values(cursor, insert + "%s", rows, page_size=500)
        else:
            cursor.executemany(insert + f"({', '.join('?' * len(columns))})", rows)


def thousands(n: int) -> str:
    """``20000`` → ``"20.000"``."""
    return f"{n:,}".replace(",", ".")


def say(text: str = "") -> None:
    print(text, flush=True)


def ratio_figure(
    what: str,
    backend: str,
    product: list[float],
    baseline: list[float],
    limit: float,
    *,
    detail: str = "",
    unit: str = "s",
) -> Figure:
    """Product against baseline: the ratio of the best runs (the least disturbed by a noisy machine) is the one
    judged; the medians are given in the detail too."""
    best, base = min(product), min(baseline)
    ratio = best / base
    med = statistics.median(product) / statistics.median(baseline)
    shown = Figure(what, backend, best, unit, f"≤ {limit:g}×".replace(".", ","), ratio <= limit, base, ratio)
    extra = (
        f"min of {len(product)}: {shown.shown(best)} vs {shown.shown(base)}; medians "
        f"{shown.shown(statistics.median(product))} vs {shown.shown(statistics.median(baseline))} ({med:.2f}×)"
    )
    shown.detail = f"{detail}; {extra}" if detail else extra
    return shown


def limit_figure(what: str, backend: str, times: list[float], limit_s: float, *, detail: str = "") -> Figure:
    """An absolute budget: the median must be within it (and the best run is given)."""
    med = statistics.median(times)
    budget = f"< {limit_s * 1000:g} ms" if limit_s < 1 else f"≤ {limit_s:g} s"
    fig = Figure(what, backend, med, "s", budget, med < limit_s if limit_s < 1 else med <= limit_s)
    extra = f"median of {len(times)}; best {fig.shown(min(times))}, worst {fig.shown(max(times))}"
    fig.detail = f"{detail}; {extra}" if detail else extra
    return fig


# --------------------------------------------------------------------------- timing


#: What the clock measures: "wall" (elapsed) or "cpu" (this process's CPU time: what a busy machine does not
#: steal — used where all the work happens in this process, e.g. SQLite, openpyxl, Qt painting).
MODE = {"clock": "wall"}


def clock(fn: Callable[[], object]) -> float:
    gc.collect()
    timer = time.process_time if MODE["clock"] == "cpu" else time.perf_counter
    start = timer()
    fn()
    return timer() - start


@contextlib.contextmanager
def cpu_clock(on: bool = True) -> Iterator[None]:
    """Measure CPU time inside the block (when ``on``), elapsed time otherwise."""
    before = MODE["clock"]
    MODE["clock"] = "cpu" if on else "wall"
    try:
        yield
    finally:
        MODE["clock"] = before


def paired(
    product: Callable[[], object],
    baseline: Callable[[], object],
    repeat: int,
    *,
    between: Callable[[], object] | None = None,
) -> tuple[list[float], list[float]]:
    """Run product and baseline in turn ``repeat`` times (so both see the same noise); ``between()`` runs,
    untimed, after each of them (to put the database back as it was)."""
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(clock(product))
        if between is not None:
            between()
        theirs.append(clock(baseline))
        if between is not None:
            between()
    return ours, theirs


def repeated(fn: Callable[[], object], repeat: int) -> list[float]:
    return [clock(fn) for _ in range(repeat)]


# --------------------------------------------------------------------------- databases


def backends(only: str | None = None) -> list[str]:
    """SQLite always; PostgreSQL when ``PRACA_TEST_PG`` is set and answers."""
    found = ["sqlite"]
    if PG_URL:
        try:
            _pg_admin().close()
            found.append("postgresql")
        except Exception as exc:  # any failure to reach the server
            say(f"(PostgreSQL em {PG_URL} não responde: {exc}; só SQLite)")
    return [b for b in found if only in (None, b)]


def _pg_admin():
    import psycopg2

    from models.store.db import parse_url

    target = parse_url(PG_URL)
    conn = psycopg2.connect(
        dbname=target.dbname,
        user=target.user,
        password=target.password,
        host=target.host,
        port=target.port,
        connect_timeout=5,
    )
    conn.autocommit = True
    return conn


@contextlib.contextmanager
def scratch_url(backend: str) -> Iterator[str]:
    """The URL of an empty database of the benchmark's own: an SQLite file in a temporary folder, or a fresh
    PostgreSQL schema ``bench_…``; removed afterwards."""
    from models.store.bootstrap import close_database

    if backend == "sqlite":
        folder = tempfile.mkdtemp(prefix="praca-bench-")
        try:
            yield f"sqlite:///{os.path.join(folder, 'bench.sqlite3')}"
        finally:
            close_database()
            shutil.rmtree(folder, ignore_errors=True)
        return
    name = f"bench_{uuid.uuid4().hex[:12]}"
    conn = _pg_admin()
    with conn.cursor() as cur:
        cur.execute(f'CREATE SCHEMA "{name}"')
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}schema={name}"
    finally:
        close_database()
        with conn.cursor() as cur:
            cur.execute("SET lock_timeout = '10s'")
            cur.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        conn.close()


#: The users a benchmark's database has: the first (the administrator, who creates the others) and the clerk who
#: acts — the head of the department, who generates the month's charges and edits the maps.
ADMIN = ("admin.bench", "Administradora do Benchmark", "administrador")
CLERK = ("chefe.cobranca", "Chefe da Cobrança", "chefe")
PASSWORD = "senha-do-benchmark-2026"


def log_in_clerk() -> None:
    """Log in the clerk of the benchmark's own data as a desk does: the administrator (the first user) logs in
    and creates the clerk, who then logs in with a password (``models.access.users.authenticate``) — never the
    system's session, which no login gives."""
    from models.access import session, users

    username, name, role = ADMIN
    users.create_user(username=username, name=name, role=role, password=PASSWORD, confirm=PASSWORD)
    session.log_in(users.authenticate(username, PASSWORD).as_session())
    username, name, role = CLERK
    users.create_user(username=username, name=name, role=role, password=PASSWORD, confirm=PASSWORD)
    session.log_in(users.authenticate(username, PASSWORD).as_session())


@contextlib.contextmanager
def open_scratch(backend: str) -> Iterator[str]:
    """:func:`scratch_url`, opened (schema created) and bound to the models, with its clerk logged in
    (:func:`log_in_clerk`); logged out afterwards."""
    from models.access import session
    from models.rules import acts
    from models.store.bootstrap import open_database

    with scratch_url(backend) as url:
        open_database(url, create=True)  # a scratch database is new: its schema is made here
        acts.install_shipped()  # a new database holds no act (issue 31 §1): the benchmarks' data is of every town
        log_in_clerk()
        try:
            yield url
        finally:
            session.log_out()


def analyze() -> None:
    """Fresh statistics after a bulk load, as a database that has been in use has them."""
    from models.store.db import db

    db.execute_sql("ANALYZE")


PYCACHE = os.path.join(tempfile.gettempdir(), "praca-bench-pycache")


def python_env() -> dict[str, str]:
    """Environment for a child process: headless Qt, this checkout on the path, and compiled modules cached
    (in a folder of the benchmarks' own, outside the tree) as an installed application has them — without it,
    every start would compile Praça's sources again."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = PYCACHE
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


PYTHON = sys.executable
