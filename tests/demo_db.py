"""The demo database, built once per test session and back end, copied for each test that wants it.

``fill_demo()`` (240 people, 72 companies, a year of permits, charges and enforcement) takes seconds; many
tests only read it. The first test that asks for ``demo_database`` builds it into a template — on SQLite a file,
on PostgreSQL a database of its own — and every test gets a copy of that template: a file copy on SQLite,
``CREATE DATABASE … TEMPLATE`` on PostgreSQL (a byte copy: the schema name, the triggers guarding the audit
trail and every hash of its chain are the template's own, so the copy verifies as the original does). Each test
writes to its own copy only; the copy is dropped afterwards.
"""

from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest

#: The schema the PostgreSQL template (and so each copy) keeps Praça's tables in.
_PG_SCHEMA = "praca_demo"


@dataclass(frozen=True)
class Demo:
    """An open copy of the demo database: its URL and what ``fill_demo()`` reported when it built it."""

    url: str
    counts: dict


def _build(url: str) -> dict:
    from models.demo import fill_demo
    from models.store.bootstrap import close_database, open_database

    open_database(url, create=True)
    try:
        return fill_demo()
    finally:
        close_database()


@pytest.fixture(scope="session")
def _demo_sqlite_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("demo-template") / "demo.sqlite3"
    counts = _build(f"sqlite:///{path}")
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"the closed template left {leftovers} beside it (a WAL not checkpointed)"
    return path, counts


def _pg_url(dbname: str) -> str:
    """PRACA_TEST_PG pointing at database ``dbname``, schema :data:`_PG_SCHEMA`."""
    from conftest import PG_URL

    parts = urlsplit(PG_URL)
    query = "&".join(q for q in parts.query.split("&") if q and not q.startswith("schema="))
    query = "&".join(q for q in (query, f"schema={_PG_SCHEMA}") if q)
    return urlunsplit((parts.scheme, parts.netloc, f"/{dbname}", query, parts.fragment))


def _pg_admin_autocommit():
    from conftest import _pg_admin

    conn = _pg_admin()
    conn.autocommit = True
    return conn


@pytest.fixture(scope="session")
def _demo_pg_template(pg_available):
    if not pg_available:
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    import psycopg2

    name = f"praca_tpl_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin_autocommit()
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        from models.store.db import parse_url

        target = parse_url(_pg_url(name))
        conn = psycopg2.connect(
            dbname=name,
            user=target.user,
            password=target.password,
            host=target.host,
            port=target.port,
            connect_timeout=5,
        )
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f'CREATE SCHEMA "{_PG_SCHEMA}"')
        conn.close()
        counts = _build(_pg_url(name))
        yield name, counts
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def demo_database(request, tmp_path):
    """An open copy of the full demo database (``fill_demo()`` with its defaults), on each back end; the test's
    own to change."""
    from conftest import _stop_widget_timers

    from models.store.bootstrap import close_database, open_database

    if request.param == "sqlite":
        template, counts = request.getfixturevalue("_demo_sqlite_template")
        copy = tmp_path / "praca.sqlite3"
        shutil.copyfile(template, copy)
        url = f"sqlite:///{copy}"
        open_database(url)
        try:
            yield Demo(url, dict(counts))
        finally:
            _stop_widget_timers()
            close_database()
        return
    template, counts = request.getfixturevalue("_demo_pg_template")
    name = f"praca_c_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin_autocommit()
    try:
        with admin.cursor() as cur:
            cur.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        url = _pg_url(name)
        open_database(url)
        try:
            yield Demo(url, dict(counts))
        finally:
            _stop_widget_timers()
            close_database()
            with admin.cursor() as cur:
                cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.close()


@pytest.fixture
def demo_sqlite(request, tmp_path):
    """A copy of the demo database on SQLite only, not opened: its URL (for tests where the back end does not
    matter — a window, a report reader — or that open it themselves)."""
    from models.store.bootstrap import close_database

    yield copy_demo(request.getfixturevalue("_demo_sqlite_template"), tmp_path)
    close_database()


def copy_demo(template, folder) -> str:
    """A copy of the SQLite demo template (the ``_demo_sqlite_template`` fixture) in ``folder``: its URL."""
    path, _ = template
    copy = folder / "demo.sqlite3"
    shutil.copyfile(path, copy)
    return f"sqlite:///{copy}"
