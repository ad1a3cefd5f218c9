"""The empty Praça database, made once per test session (per xdist worker) and back end, given to each test that
takes ``database``.

Creating Praça's schema costs tens of milliseconds on SQLite and over a second on PostgreSQL, where each of its
~180 CREATE statements makes files the server must sync; ``database`` is taken by most tests of the suite. So the
schema is made once, by Praça's own ``open_database(create=True)`` with every shipped act installed
(:func:`install_every_act`), and each test gets that result:

* **SQLite**: a copy of the template file (the template is closed first, its WAL checkpointed into it: no
  ``-wal`` or ``-shm`` beside it to copy).
* **PostgreSQL**: a schema of the worker's pool, each made by ``open_database(create=True)`` as the template was.
  After the test, if no catalog row of the schema was written (:data:`_CATALOG_DIGEST`: no DDL, GRANT, disabled
  trigger or TRUNCATE — its tables, columns, indexes, constraints, triggers and functions are as Praça made them),
  it goes back to the pool; otherwise it is dropped. A schema taken from the pool is emptied and given the
  template's rows and sequence values, in one transaction with the triggers off (the audit trail's guard refuses
  a DELETE); a lock that keeps this from running drops it too. A schema is never handed to a second test unless
  its catalog is as made and its rows are the template's. The demo (tests/demo_db.py) is a second template of
  the same pool: a copy of it is the same reset with the demo's rows. The demo's schema is the run's, not the
  worker's: built once by the first worker that asks (:meth:`SchemaPool.new_shared_schema`), read by every
  worker's pool, and dropped by the process that started the workers when the run ends
  (:func:`drop_shared_schemas`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from pathlib import Path

import pytest

#: Every catalog row that describes a schema — the schema, what it holds (``pg_depend``), its relations, columns,
#: defaults, constraints, triggers, indexes, functions, policies, sequences and types — by its oid and the
#: transaction that last wrote it (``xmin``): any DDL, GRANT, ``DISABLE TRIGGER`` or ``TRUNCATE`` on the schema
#: writes one of these rows or adds an object, and then the digest differs. Read through the catalogs' indexes
#: (never a scan of ``pg_class``, which a server without autovacuum lets grow with every schema dropped). Rows
#: and sequence values are not in the catalog: the reset puts them back.
_CATALOG_DIGEST = """
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = %s),
     deps AS (SELECT classid, objid FROM pg_depend
              WHERE refclassid = 'pg_namespace'::regclass AND refobjid = (SELECT oid FROM ns)),
     rel AS (SELECT oid, xmin FROM pg_class WHERE oid IN (SELECT objid FROM deps WHERE classid = 'pg_class'::regclass)),
     idx AS (SELECT indexrelid, xmin FROM pg_index WHERE indrelid IN (SELECT oid FROM rel))
SELECT md5(coalesce(string_agg(x, ',' ORDER BY x), '')) FROM (
  SELECT 'n' || oid::text || ':' || xmin::text FROM pg_namespace WHERE oid = (SELECT oid FROM ns)
  UNION ALL SELECT 'o' || classid::text || '.' || objid::text FROM deps
  UNION ALL SELECT 'c' || oid::text || ':' || xmin::text FROM rel
  UNION ALL SELECT 'i' || indexrelid::text || ':' || xmin::text FROM idx
  UNION ALL SELECT 'x' || oid::text || ':' || xmin::text FROM pg_class WHERE oid IN (SELECT indexrelid FROM idx)
  UNION ALL SELECT 'a' || attrelid::text || '.' || attnum::text || ':' || xmin::text
    FROM pg_attribute WHERE attrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 'd' || oid::text || ':' || xmin::text FROM pg_attrdef WHERE adrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 'k' || oid::text || ':' || xmin::text FROM pg_constraint WHERE conrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 't' || oid::text || ':' || xmin::text FROM pg_trigger WHERE tgrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 'y' || oid::text || ':' || xmin::text FROM pg_policy WHERE polrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 's' || seqrelid::text || ':' || xmin::text FROM pg_sequence WHERE seqrelid IN (SELECT oid FROM rel)
  UNION ALL SELECT 'p' || oid::text || ':' || xmin::text FROM pg_proc
    WHERE oid IN (SELECT objid FROM deps WHERE classid = 'pg_proc'::regclass)
  UNION ALL SELECT 'T' || oid::text || ':' || xmin::text FROM pg_type
    WHERE oid IN (SELECT objid FROM deps WHERE classid = 'pg_type'::regclass)
) AS rows(x)
"""


def install_every_act() -> None:
    """The tests' empty database holds every act shipped with Praça (a real new database holds none until the
    administrator installs the municipality's own: ``praca init --act``): a test prices, files and enforces under
    whichever act it is about without installing it first."""
    from models.rules import acts
    from models.store.db import AUDIT

    AUDIT.suspended += 1  # part of the database as made, as the schema is: no audit entry
    try:
        acts.install_shipped()
    finally:
        AUDIT.suspended -= 1
    acts.forget()


# --------------------------------------------------------------------------------------------------------- SQLite


@pytest.fixture(scope="session")
def _empty_sqlite_template(tmp_path_factory):
    """An empty, current Praça database file, made by Praça's own schema creation; closed and checkpointed."""
    from models.store.bootstrap import close_database, open_database

    path = tmp_path_factory.mktemp("empty-template") / "praca.sqlite3"
    open_database(f"sqlite:///{path}", create=True)
    install_every_act()
    close_database()
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"the closed template left {leftovers} beside it (a WAL not checkpointed)"
    return path


def copy_empty_sqlite(template, url: str) -> None:
    """Put a copy of the empty template where the SQLite ``url`` points (a file that does not exist yet)."""
    from models.store.db import parse_url

    target = parse_url(url).path
    assert not os.path.exists(target), f"{target} exists: the template is copied only to a new file"
    shutil.copy(template, target)  # its mode too: the owner's only (0600), as Praça made it


# ----------------------------------------------------------------------------------------------------- PostgreSQL


class SchemaPool:
    """The worker's PostgreSQL schemas that hold an empty, current Praça database (see the module's docstring)."""

    def __init__(self, admin, base_url: str):
        self.admin = admin
        self.base_url = base_url
        self.free: list[str] = []
        self.digests: dict[str, str] = {}  # each schema of the pool: its catalog's digest when it was made
        self.kept: set[str] = set()  # the templates
        self.shared: set[str] = set()  # the templates of the run (tests/demo_db.py): another process drops them
        self.template = self._new()  # the empty database; tests/demo_db.py adds the demo's (add_template)
        with self.admin.cursor() as cur:
            cur.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname",
                (self.template,),
            )
            self.tables = [row[0] for row in cur.fetchall()]
        self.sequences: dict[str, list[tuple]] = {}
        self.add_template(self.template)

    def add_template(self, name: str, *, shared: bool = False) -> None:
        """Keep ``name`` (a schema of the pool, or of the run when ``shared``; filled) as a template :meth:`take` can
        copy: never given to a test."""
        self.digests.pop(name, None)
        if shared:
            self.shared.add(name)
        with self.admin.cursor() as cur:
            cur.execute(
                "SELECT sequencename, last_value, start_value FROM pg_sequences WHERE schemaname = %s "
                "ORDER BY sequencename",
                (name,),
            )
            self.sequences[name] = cur.fetchall()
        self.kept.add(name)

    def url(self, name: str) -> str:
        sep = "&" if "?" in self.base_url else "?"
        return f"{self.base_url}{sep}schema={name}"

    def new_shared_schema(self) -> str:
        """A new, empty schema for a template of the run (its name written to the run's shared folder as
        :data:`SHARED_SCHEMA`): no pool drops it; :func:`drop_shared_schemas` does, at the end of the run."""
        name = f"praca_t_{uuid.uuid4().hex[:12]}"
        with self.admin.cursor() as cur:
            cur.execute(f'CREATE SCHEMA "{name}"')
        return name

    def _new(self) -> str:
        """A new schema with Praça's schema made in it by ``open_database(create=True)``."""
        from models.store.bootstrap import close_database, open_database

        name = f"praca_t_{uuid.uuid4().hex[:12]}"
        with self.admin.cursor() as cur:
            cur.execute(f'CREATE SCHEMA "{name}"')
        self.digests[name] = ""
        open_database(self.url(name), create=True)
        install_every_act()
        close_database()
        self.digests[name] = self._digest(name)
        return name

    def _digest(self, name: str) -> str:
        with self.admin.cursor() as cur:
            cur.execute(_CATALOG_DIGEST, (name,))
            return cur.fetchone()[0]

    def take(self, template: str | None = None) -> str:
        """A schema holding what ``template`` holds (the empty database unless named): one of the pool, reset to
        it, or a new one."""
        template = template or self.template
        while self.free:
            name = self.free.pop()
            if self._reset(name, template):
                return name
            self._drop(name)
        name = self._new()  # as made: what the empty template holds
        if template != self.template and not self._reset(name, template):
            raise RuntimeError(f"the schema {name} could not be given the rows of {template}")
        return name

    def give_back(self, name: str) -> None:
        """Keep ``name`` for a next test when no catalog row of it was written; drop it otherwise."""
        if self._digest(name) == self.digests[name]:
            self.free.append(name)
        else:
            self._drop(name)

    def _drop(self, name: str) -> None:
        from conftest import _drop_schema

        del self.digests[name]
        _drop_schema(self.admin, name)

    def _reset(self, name: str, template: str) -> bool:
        """Every table emptied and given the template's rows, every sequence the template's value; one
        transaction, with the triggers off for it (superuser only: otherwise the schema is dropped instead)."""
        statements = ["SET LOCAL lock_timeout = '2s'", "SET LOCAL session_replication_role = replica"]
        statements += [f'DELETE FROM "{name}"."{table}"' for table in self.tables]
        statements += [f'INSERT INTO "{name}"."{table}" SELECT * FROM "{template}"."{table}"' for table in self.tables]
        statements += [
            f'SELECT setval(\'"{name}"."{seq}"\', {last if last is not None else start}, {last is not None})'
            for seq, last, start in self.sequences[template]
        ]
        self.admin.autocommit = False
        try:
            with self.admin.cursor() as cur:
                cur.execute(";\n".join(statements))
            self.admin.commit()
            return True
        except Exception:  # a lock held by what the test left open, or no right to turn the triggers off
            self.admin.rollback()
            return False
        finally:
            self.admin.autocommit = True

    def close(self) -> None:
        from conftest import _drop_schema

        for name in sorted((set(self.digests) | self.kept) - self.shared):
            _drop_schema(self.admin, name)
        self.admin.close()


#: The file, in a folder of the run's shared folder (tests/demo_db.py ``built_once``), naming a schema of the run.
SHARED_SCHEMA = "pg-schema"


def drop_shared_schemas(folder: Path) -> None:
    """Drop the schemas of the run named in ``folder`` (the run's shared folder): called once the workers are done,
    by the process that started them (conftest's ``pytest_sessionfinish``)."""
    from conftest import _drop_schema, _pg_admin

    names = [path.read_text() for path in folder.glob(f"*/{SHARED_SCHEMA}")]
    if not names:
        return
    admin = _pg_admin()
    admin.autocommit = True
    try:
        for name in names:
            _drop_schema(admin, name)
    finally:
        admin.close()


@pytest.fixture(scope="session")
def _pg_schema_pool(pg_available):
    if not pg_available:
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    from conftest import PG_URL, _pg_admin

    admin = _pg_admin()
    admin.autocommit = True
    pool = SchemaPool(admin, PG_URL)
    yield pool
    pool.close()


@contextlib.contextmanager
def pooled_schema(pool: SchemaPool, template: str | None = None):
    """The URL of a schema of the pool holding what ``template`` holds (the empty, current Praça database unless
    named), given back after the block."""
    from conftest import _stop_widget_timers

    from models.store.bootstrap import close_database

    name = pool.take(template)
    try:
        yield pool.url(name)
    finally:
        _stop_widget_timers()
        close_database()
        pool.give_back(name)
