"""Opening and closing a Praça database: the one place that wires the store together (issue 21 §2).

``open_database(url)`` connects (:mod:`models.store.db`), refuses a file that is not a Praça database and one
written by a newer Praça, creates the schema of a new database when asked (``create=True``) or brings an older one
up to date one migration per transaction after copying an SQLite file aside (:mod:`models.store.schema`), installs
the audit trail (:mod:`models.store.audit`), binds every table to it and reads the acts it holds
(:mod:`models.rules.acts`). It sits above all of them, so that :mod:`models.store.db` imports none.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

from peewee import Database, SqliteDatabase

import models.store.audit  # installs the audit trail's hook: every change of a clerk is audited
from models.store.db import (
    AUDIT,
    NoDatabase,
    bind,
    check_folder,
    connect,
    current_database_id,
    disconnect,
    is_current,
    parse_url,
)

#: Callables run once, by the next :func:`open_database`, on the database just opened (the command line's login).
_next_open: list[Callable[[], object]] = []


def on_next_open(callback: Callable[[], object]) -> None:
    """Run ``callback()`` once, right after the next database is opened and bound (before the caller gets it); an
    error it raises closes that database and reaches the caller of ``open_database``."""
    _next_open.append(callback)


def forget_next_open() -> None:
    """Drop the callables :func:`on_next_open` registered that no open has run yet."""
    _next_open.clear()


def open_database(url: str, *, migrate: bool = True, create: bool = False) -> Database:
    """Open (migrating as needed) the Praça database at ``url``.

    Binds the proxy of :mod:`models.store.db` and returns the underlying peewee database. A new database — no
    SQLite file, a zero-byte file, an empty PostgreSQL schema — is given Praça's schema only with ``create=True``
    (the explicit set-up: ``praca init``, ``praca demo``, the desk's first start, a restore into a new database);
    otherwise :class:`~models.store.db.NoDatabase` is raised and nothing is created, not even the file.
    """
    target = parse_url(url)
    if not create and target.backend == "sqlite" and target.path is not None and target.path != ":memory:":
        path = Path(target.path)
        if not path.exists():
            check_folder(path)
            raise NoDatabase(str(path), "missing")
        if path.is_file() and path.stat().st_size == 0:
            raise NoDatabase(str(path), "empty")
    database = connect(target)
    AUDIT.suspended += 1  # creating and migrating the schema is not a clerk's change
    try:
        if not is_current(database, target):
            from models.store import schema  # every table: imported only to create or migrate (start-up is faster)

            schema.prepare(database, target, migrate=migrate, create=create)
        from models.store import desks

        desks.detect(database)  # a desk's role on PostgreSQL: the server audits and checks its writes
        if (
            isinstance(database, SqliteDatabase)
            and not getattr(database, "praca_read_only", False)
            and target.path is not None
            and target.path != ":memory:"
        ):
            database.execute_sql("PRAGMA journal_mode=wal")  # Praça's own file: several readers, one writer
            keep_private(Path(target.path))
    except BaseException:
        database.close()
        raise
    finally:
        AUDIT.suspended -= 1
    bind(database, target)
    models.store.audit.GUARD_REPAIRS.clear()  # what an earlier open found is not this database's
    if not getattr(database, "praca_read_only", False):  # a guard dropped behind Praça's back: back, and said
        models.store.audit.repair_guards(database)
    from models.access import session

    session.database_opened(current_database_id())  # a login made on another database ends here
    from models.rules import (
        acts,  # the acts this database holds: every desk computes with the same text
        holidays,  # the town's calendar: every deadline counts with it
    )

    acts.opened()
    holidays.forget()
    while _next_open:
        try:
            _next_open.pop(0)()
        except BaseException:
            forget_next_open()
            close_database()
            raise
    return database


_log = logging.getLogger(__name__)

#: The database and the files SQLite keeps beside it while it is open: every record is in them.
_BESIDE = ("", "-wal", "-shm", "-journal")


def keep_private(path: Path) -> list[Path]:
    """The SQLite database at ``path`` and its -wal, -shm and -journal readable by their owner only (0600): fixed
    quietly where an older Praça left them readable by others, with a line in the log; the partial copies a
    killed writer left beside it removed (:mod:`models.store.partial`). Returns the files whose mode was fixed.
    Files of another owner, and file systems without modes (Windows), are left as they are."""
    from models.store import partial

    partial.sweep(path.parent)
    fixed: list[Path] = []
    if os.name == "nt":
        return fixed
    for suffix in _BESIDE:
        file = path.with_name(path.name + suffix)
        try:
            info = file.stat()
            mode = stat.S_IMODE(info.st_mode)
            if mode & 0o077 == 0 or info.st_uid != os.geteuid():
                continue
            os.chmod(file, 0o600)
        except OSError:
            continue
        _log.info("%s era %s (legível por outros usuários); agora só o dono o lê (0600)", file, oct(mode))
        fixed.append(file)
    return fixed


def close_database() -> None:
    """Close the database the tables are bound to, if any, and forget the acts read from it."""
    disconnect()
    from models.rules import acts

    acts.forget()
