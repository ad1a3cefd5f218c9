"""The demo database, built once per test run on SQLite (the xdist workers share it) and once per worker on
PostgreSQL, copied for each test that wants it.

``fill_demo()`` (240 people, 72 companies, a year of permits, charges and enforcement) takes seconds; many
tests only read it. The first test that asks for ``demo_database`` builds it into a template — on SQLite a file,
on PostgreSQL a schema of the worker's pool (tests/db_templates.py) — and every test gets a copy of that
template: a file copy on SQLite; on PostgreSQL a schema of the pool given the template's rows and sequence values
(the triggers guarding the audit trail are Praça's own, made with the schema; every row, and so every hash of
the chain, is the template's, so the copy verifies as the original does). Each test writes to its own copy
only. (A copy was a database made with ``CREATE DATABASE … TEMPLATE`` before: its ``DROP DATABASE`` makes the
server checkpoint, seconds to minutes on a busy machine.)
"""

from __future__ import annotations

import os
import pickle
import shutil
from dataclasses import dataclass

import pytest


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
    """The SQLite demo, built once per test run — by the first xdist worker that asks, under a file lock, in the
    run's temporary folder the workers share; the others wait for it and read the same file (each test copies it).
    Built once per worker before: ``fill_demo()`` is seconds of CPU (81 s on the loaded machine of the issue-27
    measure), paid by every worker."""
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # …/pytest-N/ holds every gwN/
    path, made = shared / "demo-template" / "demo.sqlite3", shared / "demo-template" / "counts.pickle"
    with FileLock(str(shared / "demo-template.lock")):
        if not made.exists():
            building = shared / "demo-template-building"
            shutil.rmtree(building, ignore_errors=True)  # a worker that died half-way left it
            building.mkdir()
            counts = _build(f"sqlite:///{building / path.name}")
            leftovers = [p.name for p in building.iterdir() if p.name != path.name]
            assert not leftovers, f"the closed template left {leftovers} beside it (a WAL not checkpointed)"
            (building / made.name).write_bytes(pickle.dumps(counts))
            os.replace(building, path.parent)  # whole or not at all: a reader never sees half a template
    return path, pickle.loads(made.read_bytes())


@pytest.fixture(scope="session")
def _demo_pg_template(_pg_schema_pool):
    """A schema of the worker's pool holding the demo, kept as a template of the pool."""
    name = _pg_schema_pool.take()
    counts = _build(_pg_schema_pool.url(name))
    _pg_schema_pool.add_template(name)
    return name, counts


@pytest.fixture(params=["sqlite", "postgresql"])
def demo_database(request, tmp_path):
    """An open copy of the full demo database (``fill_demo()`` with its defaults), on each back end; the test's
    own to change."""
    from conftest import _stop_widget_timers
    from db_templates import pooled_schema

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
    with pooled_schema(request.getfixturevalue("_pg_schema_pool"), template) as url:
        open_database(url)
        yield Demo(url, dict(counts))


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


@dataclass(frozen=True)
class TownDemo:
    """An open copy of one town's demo (``fill_demo(town=slug)``, small): the town and the copy's URL."""

    slug: str
    url: str


#: the size of each town's demo in the desk tests: enough people for every job, built in seconds
TOWN_SIZE = {"people": 80, "companies": 30}


@pytest.fixture(scope="session")
def _town_demo_templates(tmp_path_factory):
    """Each town's demo built once per session (per xdist worker), the first time a test asks for it: slug → file."""
    built: dict[str, object] = {}

    def template(slug: str):
        from models.demo import fill_demo
        from models.store.bootstrap import close_database, open_database

        if slug not in built:
            path = tmp_path_factory.mktemp(f"town-{slug}") / "demo.sqlite3"
            open_database(f"sqlite:///{path}", create=True)
            try:
                fill_demo(town=slug, **TOWN_SIZE)
            finally:
                close_database()
            built[slug] = path
        return built[slug]

    return template


@pytest.fixture(scope="session")
def _town_demo_pg_templates(_pg_schema_pool):
    """Each town's demo on PostgreSQL, built once per worker the first time a test asks for it, kept as a template
    schema of the worker's pool: slug → schema. (The pool's database holds every act: the demo retires the others,
    as it does for a database given to it with acts in it.)"""
    built: dict[str, str] = {}

    def template(slug: str) -> str:
        from models.demo import fill_demo
        from models.store.bootstrap import close_database, open_database

        if slug not in built:
            name = _pg_schema_pool.take()
            open_database(_pg_schema_pool.url(name))
            try:
                fill_demo(town=slug, **TOWN_SIZE)
            finally:
                close_database()
            _pg_schema_pool.add_template(name)
            built[slug] = name
        return built[slug]

    return template


@pytest.fixture
def town_demo(request, tmp_path, app_ready):
    """An open copy of the demo of the town ``request.param`` (a slug of ``models.demo.towns.TOWNS``) — on SQLite,
    or on PostgreSQL for ``(slug, "postgresql")`` — with its own file store; the test's to change."""
    from conftest import _stop_widget_timers

    from models.store.bootstrap import close_database, open_database
    from models.store.files import set_store

    if isinstance(request.param, tuple):
        from db_templates import pooled_schema

        slug, _backend = request.param
        template = request.getfixturevalue("_town_demo_pg_templates")(slug)
        with pooled_schema(request.getfixturevalue("_pg_schema_pool"), template) as url:
            open_database(url)
            set_store(tmp_path / "files")
            try:
                yield TownDemo(slug, url)
            finally:
                _stop_widget_timers()
                close_database()
        return
    template = request.getfixturevalue("_town_demo_templates")(request.param)
    copy = tmp_path / "praca.sqlite3"
    shutil.copyfile(template, copy)
    url = f"sqlite:///{copy}"
    open_database(url)
    set_store(tmp_path / "files")
    try:
        yield TownDemo(request.param, url)
    finally:
        _stop_widget_timers()
        close_database()
