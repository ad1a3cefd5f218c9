"""The demo database and each town's demo, built once per test run (the xdist workers share them), copied for
each test that wants one.

``fill_demo()`` (240 people, 72 companies, a year of permits, charges and enforcement) takes seconds; many
tests only read it. The first test of the run that asks for ``demo_database`` builds it into a template, under a
file lock the other workers wait on (:func:`built_once`) — on SQLite a file in the run's shared folder, on
PostgreSQL a schema of the run (tests/db_templates.py) — and every test gets a copy of that template: a file
copy on SQLite; on PostgreSQL a schema of the worker's pool given the template's rows and sequence values (the
triggers guarding the audit trail are Praça's own, made with the schema; every row, and so every hash of
the chain, is the template's, so the copy verifies as the original does). Each test writes to its own copy
only. (A copy was a database made with ``CREATE DATABASE … TEMPLATE`` before: its ``DROP DATABASE`` makes the
server checkpoint, seconds to minutes on a busy machine.)
"""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Demo:
    """An open copy of the demo database: its URL and what ``fill_demo()`` reported when it built it."""

    url: str
    counts: dict


def shared_folder(tmp_path_factory) -> Path:
    """The run's temporary folder every xdist worker sees (…/pytest-N/, which holds each worker's popen-gwN/), or
    this process's own when it runs alone."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory, key: str, build: Callable[[Path], None]) -> Path:
    """The folder ``key`` of the run's shared folder, filled by ``build(folder)`` once per run: by the first process
    that asks, under a file lock (``filelock``); the others wait for it and read what it left there. The folder
    appears whole or not at all (built beside it, then renamed), so a reader never sees half of it."""
    from filelock import FileLock

    shared = shared_folder(tmp_path_factory)
    done = shared / key
    with FileLock(str(shared / f"{key}.lock")):
        if not done.exists():
            building = shared / f"{key}-building"
            shutil.rmtree(building, ignore_errors=True)  # a worker that died half-way left it
            building.mkdir()
            build(building)
            os.replace(building, done)
    return done


def _closed_alone(path: Path) -> None:
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"the closed template left {leftovers} beside it (a WAL not checkpointed)"


def shared_sqlite_template(tmp_path_factory, key: str, fill: Callable[[], dict]) -> tuple[Path, dict]:
    """A SQLite template filled by ``fill()`` (with the new database open), built once per test run
    (:func:`built_once`), closed alone (its WAL checkpointed into it): the file and what ``fill`` returned."""

    def build(folder: Path) -> None:
        from models.store.bootstrap import close_database, open_database

        open_database(f"sqlite:///{folder / 'demo.sqlite3'}", create=True)
        try:
            counts = fill()
        finally:
            close_database()
        _closed_alone(folder / "demo.sqlite3")
        (folder / "counts.pickle").write_bytes(pickle.dumps(counts))

    folder = built_once(tmp_path_factory, key, build)
    return folder / "demo.sqlite3", pickle.loads((folder / "counts.pickle").read_bytes())


@pytest.fixture(scope="session")
def _demo_sqlite_template(tmp_path_factory):
    """The SQLite demo, built once per test run (:func:`shared_sqlite_template`); each test copies the file. Built
    once per worker before: ``fill_demo()`` is seconds of CPU (81 s on the loaded machine of the issue-27 measure),
    paid by every worker."""
    return shared_sqlite_template(tmp_path_factory, "demo-template", fill_demo_counts)


@pytest.fixture(scope="session")
def _demo_pg_template(tmp_path_factory, _pg_schema_pool):
    """The PostgreSQL demo, built once per test run (:func:`shared_pg_template`). Built by each worker before: 275 s
    of CPU against 81 s on SQLite on the loaded machine of the issue-27 measure."""
    return shared_pg_template(tmp_path_factory, _pg_schema_pool, "demo-pg-template", fill_demo_counts)


def fill_demo_counts(**size) -> dict:
    from models.demo import fill_demo

    return fill_demo(**size)


def shared_pg_template(tmp_path_factory, pool, key: str, fill: Callable[[], dict]) -> tuple[str, dict]:
    """A template schema of the run filled by ``fill()`` (with its database open), built once per test run
    (:func:`built_once`) in a schema of its own that every worker's pool copies rows from (a schema's rows can be
    read from another schema of the database); dropped at the end of the run by the process that started the
    workers (:func:`db_templates.drop_shared_schemas`). The schema's name and what ``fill`` returned."""
    from db_templates import SHARED_SCHEMA

    def build(folder: Path) -> None:
        from conftest import _drop_schema

        from models.store.bootstrap import close_database, open_database

        name = pool.new_shared_schema()
        try:
            open_database(pool.url(name), create=True)
            try:
                counts = fill()
            finally:
                close_database()
        except BaseException:
            _drop_schema(pool.admin, name)  # the next worker that asks builds it again
            raise
        (folder / SHARED_SCHEMA).write_text(name)
        (folder / "counts.pickle").write_bytes(pickle.dumps(counts))

    folder = built_once(tmp_path_factory, key, build)
    name = (folder / SHARED_SCHEMA).read_text()
    pool.add_template(name, shared=True)
    return name, pickle.loads((folder / "counts.pickle").read_bytes())


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
    """An open copy of one town's demo (``fill_demo(town=slug)``, small): the town, the copy's URL and what
    ``fill_demo`` reported when it built it."""

    slug: str
    url: str
    counts: dict


#: the size of each town's demo in the desk tests: enough people for every job, built in seconds
TOWN_SIZE = {"people": 80, "companies": 30}


def _fill_town(slug: str) -> Callable[[], dict]:
    """The town's demo filled into a database holding every shipped act, as the tests' empty database does
    (tests/db_templates.py): the demo retires the others, with the reason."""

    def fill() -> dict:
        from db_templates import install_every_act

        install_every_act()
        return fill_demo_counts(town=slug, **TOWN_SIZE)

    return fill


@pytest.fixture(scope="session")
def _town_demo_templates(tmp_path_factory):
    """Each town's demo on SQLite, built once per test run (:func:`shared_sqlite_template`, one lock per town: two
    workers may build two towns at once), the first time a test asks for it: slug → (file, counts)."""
    return lambda slug: shared_sqlite_template(tmp_path_factory, f"town-{slug}", _fill_town(slug))


@pytest.fixture(scope="session")
def _town_demo_pg_templates(tmp_path_factory, _pg_schema_pool):
    """Each town's demo on PostgreSQL, built once per test run (:func:`shared_pg_template`) the first time a test
    asks for it: slug → (schema, counts). Built by each worker before."""
    return lambda slug: shared_pg_template(tmp_path_factory, _pg_schema_pool, f"town-pg-{slug}", _fill_town(slug))


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
        schema, counts = request.getfixturevalue("_town_demo_pg_templates")(slug)
        with pooled_schema(request.getfixturevalue("_pg_schema_pool"), schema) as url:
            open_database(url)
            set_store(tmp_path / "files")
            yield TownDemo(slug, url, dict(counts))
        return
    template, counts = request.getfixturevalue("_town_demo_templates")(request.param)
    url = copy_demo((template, counts), tmp_path)
    open_database(url)
    set_store(tmp_path / "files")
    try:
        yield TownDemo(request.param, url, dict(counts))
    finally:
        _stop_widget_timers()
        close_database()
