"""The database: one proxy every table is bound to, and how a URL becomes a connection.

``connect(parse_url(url))`` accepts ``sqlite:///PATH`` (the embedded database, one desk) or
``postgresql://user@host:port/dbname`` (several desks on one server; ``?schema=NAME`` selects a PostgreSQL schema).
It refuses a file that is not SQLite. Opening a Praça database — schema checked, created or migrated, the audit
trail installed, the acts read — is :func:`models.store.bootstrap.open_database`: this module sits under every
table and imports nothing of Praça above ``models.base``.

Over 600 lines and kept whole: the proxy, the audited base model every table derives from (its inserts,
updates and deletes report to the trail through hooks set here), the money and decimal fields and the URL that
opens a connection are the one layer every table stands on, and nothing in it imports anything of Praça above
models/base.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlparse

from peewee import (
    AutoField,
    BigIntegerField,
    BooleanField,
    CharField,
    Database,
    DatabaseProxy,
    DateField,
    DateTimeField,
    Field,
    ForeignKeyField,
    IntegerField,
    Model,
    ModelDelete,
    ModelInsert,
    ModelUpdate,
    Node,
    OperationalError,
    PostgresqlDatabase,
    SqliteDatabase,
    TextField,
    __exception_wrapper__,
    classmethod_only,
    quote,
)

from models.base.errors import FieldErrors, UserError
from models.base.money import from_centavos, to_centavos
from models.base.text import CONTROL, control_problem

db = DatabaseProxy()

SQLITE_HEADER = b"SQLite format 3\x00"
APP_MARK = "praca"


class _Audit:
    """Where the audit trail (:mod:`models.store.audit`) plugs into every write of the models.

    ``hook`` is set by :mod:`models.store.audit` when it is imported; ``suspended``
    counts the sections that must not be audited (opening and migrating a
    database, before its audit table exists).
    """

    hook = None
    suspended = 0

    def active_for(self, model) -> bool:
        return self.hook is not None and not self.suspended and self.hook.audits(model)


AUDIT = _Audit()


#: Anything :func:`models.base.text.control_problem` may refuse in some column (a cheap first look over many rows).
_BAD_TEXT = re.compile(CONTROL.pattern + "|[\t\n\r]")
NUL_MESSAGE = "O texto tem um caractere nulo (NUL), que o banco de dados não aceita: apague-o e digite de novo."


def _column_problem(field, value) -> str | None:
    """What keeps ``value`` out of ``field``'s column on either back end, in pt-BR (``None``: nothing).

    PostgreSQL refuses a text longer than its ``varchar``, a NUL character or an
    integer beyond its column with a server error; SQLite would store them, and a
    backup of that database would then not restore on PostgreSQL. Both refuse them
    here, before the query, as a ``FieldErrors`` at the field — and every other control
    character too (``models.base.text.control_problem``: a line break only in a ``TextField``).
    """
    if value is None or isinstance(value, Node) or isinstance(field, ForeignKeyField):
        return None
    if isinstance(field, (CharField, TextField)):
        try:
            text = field.db_value(value)
        except (TypeError, ValueError, ArithmeticError):
            return None
        if not isinstance(text, str):
            return None
        problem = control_problem(text, multiline=isinstance(field, TextField) or getattr(field, "multiline", False))
        if problem:
            return problem
        limit = getattr(field, "max_length", None)
        if limit and len(text) > limit:
            return f"Texto longo demais: {len(text)} caracteres; o campo admite até {limit}."
    elif isinstance(field, IntegerField):
        try:
            number = field.db_value(value)
        except (TypeError, ValueError, ArithmeticError):
            return None
        if isinstance(number, int) and not isinstance(number, bool):
            limit = 2**63 if isinstance(field, BigIntegerField) else 2**31
            if not -limit <= number < limit:
                return "Número grande demais para ser gravado."
    return None


def check_row(model, row) -> None:
    """Refuse values a column cannot hold (the check every insert and update of a model goes through; a bulk write
    by the driver alone calls it itself)."""
    errors: dict[str, str] = {}
    for key, value in row.items():
        field = key if isinstance(key, Field) else model._meta.combined.get(key)
        problem = _column_problem(field, value) if isinstance(field, Field) else None
        if problem:
            errors.setdefault(field.name, problem)
    if errors:
        raise FieldErrors(errors)


def _check_insert(query) -> None:
    data = query._insert
    if isinstance(data, dict):
        check_row(query.model, data)
    elif isinstance(data, (list, tuple)):
        columns = list(query._columns or ())
        for item in data:
            check_row(query.model, item if isinstance(item, dict) else dict(zip(columns, item, strict=False)))


#: Held by a PostgreSQL transaction from its first write to its end: the audit chain's turn (see below).
CHAIN_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.audit_entry'))"


def take_write_turn(database) -> None:
    """On PostgreSQL, a transaction takes the audit chain's lock before its first write, not at its first audit
    entry: every write of a transaction is appended to one chain, so two transactions that wrote rows would
    otherwise each hold a row the other waits for while one holds the chain (a deadlock the server breaks by
    killing one desk's work). Taken first, the chain orders writers the way SQLite's ``BEGIN IMMEDIATE`` does;
    reads never wait for it. Re-entrant: a transaction that holds it takes it again at no cost."""
    database = database.obj if isinstance(database, DatabaseProxy) else database
    if isinstance(database, PostgresqlDatabase) and database.in_transaction():
        database.execute_sql(CHAIN_LOCK_SQL)


class _AuditedInsert(ModelInsert):
    def _execute(self, database):
        if not AUDIT.suspended:  # a clerk's change (a migration or a restore puts back what was there)
            _check_insert(self)
        if not AUDIT.active_for(self.model):
            take_write_turn(database)
            return super()._execute(database)
        with database.atomic():  # the change and its audit entry commit together, or neither
            take_write_turn(database)
            result = super()._execute(database)
            AUDIT.hook.inserted(self, result)
        return result


class _AuditedUpdate(ModelUpdate):
    def _execute(self, database):
        if not AUDIT.suspended:
            check_row(self.model, self._update)
        if not AUDIT.active_for(self.model):
            take_write_turn(database)
            return super()._execute(database)
        with database.atomic():
            take_write_turn(database)
            before = AUDIT.hook.rows(self.model, self._where)
            result = super()._execute(database)
            AUDIT.hook.updated(self.model, before)
        return result


class _AuditedDelete(ModelDelete):
    def _execute(self, database):
        if not AUDIT.active_for(self.model):
            take_write_turn(database)
            return super()._execute(database)
        with database.atomic():
            take_write_turn(database)
            before = AUDIT.hook.rows(self.model, self._where)
            result = super()._execute(database)
            AUDIT.hook.deleted(self.model, before)
        return result


#: Fields whose conversion of a value of this exact type is the value itself (``insert_rows`` skips it).
_AS_IS = {
    CharField: str,
    TextField: str,
    IntegerField: int,
    BigIntegerField: int,
    AutoField: int,
    BooleanField: bool,
    DateField: _dt.date,
    DateTimeField: _dt.datetime,
}


class _SqliteText:
    """A date or time as the text sqlite3 stores for it (``date.isoformat()``, ``datetime.isoformat(" ")``)."""

    db_value = staticmethod(str)


#: Types whose equal values are always written the same (``Decimal("0.05") == Decimal("0.050")``: not one).
_ONE_TEXT = {str, int, bool, type(None), _dt.date}


def _converted(field, column: list) -> list:
    """``field.db_value`` of every value of a column, each distinct value converted once (a month's amounts
    repeat: 20.000 charges, a few dozen prices). Values are told apart by type and, where equal values can be
    written differently, by their text."""
    if len(set(map(id, column))) == 1:  # one object in every row (a default, the run's stamp): converted once
        return [None if column[0] is None else field.db_value(column[0])] * len(column)
    kinds = set(map(type, column))
    keys = list(zip(map(type, column), column if kinds <= _ONE_TEXT else map(str, column), strict=True))
    try:
        first = dict(zip(keys, column, strict=True))  # each distinct value once
    except TypeError:  # a value that cannot be a key (a dict, a list): one by one
        return [None if v is None else field.db_value(v) for v in column]
    converted = {key: None if value is None else field.db_value(value) for key, value in first.items()}
    return list(map(converted.__getitem__, keys))


@contextlib.contextmanager
def collector_paused():
    """Python's cycle collector paused while a bulk write builds tens of thousands of rows, entries and records
    (a month's charges): none of them forms a cycle, yet each full pass of the collector walks every object the
    process holds, and those passes cost the month's run more than its inserts. Resumed at the end (if it ran
    before), whatever happened."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class BaseModel(Model):
    """Every table of Praça: its inserts, updates and deletes go through the audit trail."""

    if TYPE_CHECKING:  # for mypy: the key peewee adds to every table (its stub has none), and delete()
        id: Any

        # peewee's stub types delete as a descriptor mypy binds to type[Never] on a subclass
        @classmethod
        def delete(cls) -> ModelDelete: ...

    class Meta:
        database = db
        legacy_table_names = False

    @classmethod
    def insert(cls, __data=None, **insert):
        return _AuditedInsert(cls, cls._normalize_data(__data, insert))

    @classmethod
    def insert_many(cls, rows, fields=None):
        if AUDIT.hook is not None and not isinstance(rows, (list, tuple)):
            rows = list(rows)  # the audit reads them after the insert
        return _AuditedInsert(cls, insert=rows, columns=fields)

    @classmethod
    def insert_rows(cls, fields, rows) -> int:
        """Thousands of rows at once (a month's charges): ``rows`` are sequences of values for ``fields`` (every
        column the rows need — no default is added); returns how many were written.

        ``insert_many`` builds its SQL value by value; here the statement is written once, each column is
        converted by its field only where its values are not already what the driver takes (a ``str`` for a
        ``CharField``…), and the driver gets the rows whole — ``executemany`` on SQLite, one multi-row ``VALUES``
        on PostgreSQL. Texts too long for their column or with a NUL are refused at the field, as for any insert.
        Audited as ``insert_many`` is: one entry listing the rows, in the same transaction. On PostgreSQL keep
        ``len(rows) × len(fields)`` under 65.000 parameters.
        """
        rows = rows if isinstance(rows, (list, tuple)) else list(rows)
        if not rows:
            return 0
        database = cls._meta.database
        database = database.obj if isinstance(database, DatabaseProxy) else database
        columns = [list(values) for values in zip(*rows, strict=False)]  # a row shorter than the fields: refused below
        if len(columns) != len(fields):
            raise ValueError(f"{len(fields)} fields but rows of {len(columns)} values")
        none = type(None)
        sqlite = isinstance(database, SqliteDatabase)
        for index, field in enumerate(fields):
            column = columns[index]
            kind = _AS_IS.get(type(field.rel_field if isinstance(field, ForeignKeyField) else field))
            if kind is None or not set(map(type, column)) <= {kind, none}:
                column = columns[index] = _converted(field, column)
            if sqlite and kind in (_dt.date, _dt.datetime) and set(map(type, column)) <= {kind, none}:
                column = columns[index] = _converted(_SqliteText, column)  # as sqlite3's own adapters would
            if isinstance(field, (CharField, TextField)) and set(map(type, column)) <= {str, none}:
                texts = list(filter(None, set(column)))  # each distinct text once (a month repeats its lines)
                limit = getattr(field, "max_length", None)
                if texts and ((limit and max(map(len, texts)) > limit) or _BAD_TEXT.search("".join(texts))):
                    problem = next(filter(None, (_column_problem(field, v) for v in texts)), None)
                    if problem:  # (a line break in a text of several lines is no problem)
                        raise FieldErrors({field.name: problem})

        def name(text: str) -> str:
            return quote((text,), database.quote)

        one = "(" + ", ".join([database.param] * len(fields)) + ")"
        head = f"INSERT INTO {name(cls._meta.table_name)} ({', '.join(name(f.column_name) for f in fields)}) VALUES "
        values = list(zip(*columns, strict=True))
        with database.atomic():  # the rows and their audit entry commit together, or neither
            take_write_turn(database)
            if sqlite:
                with __exception_wrapper__:  # the driver's errors as peewee's, as for any query
                    database.cursor().executemany(head + one, values)
            else:
                database.execute_sql(head + ", ".join([one] * len(values)), [v for row in values for v in row])
            if AUDIT.active_for(cls):
                AUDIT.hook.inserted(_AuditedInsert(cls, insert=rows, columns=list(fields)), None)
        return len(values)

    @classmethod
    def insert_from(cls, query, fields):
        columns = [getattr(cls, f) if isinstance(f, str) else f for f in fields]
        return _AuditedInsert(cls, insert=query, columns=columns)

    @classmethod
    def update(cls, __data: dict[Any, Any] | None = None, **update: Any) -> Any:
        return _AuditedUpdate(cls, cls._normalize_data(__data, update))

    @classmethod_only
    def delete(cls):  # noqa: N805 - peewee's classmethod_only makes it a class method, as Model.delete is
        return _AuditedDelete(cls)


def update_versioned(row: BaseModel, stale: str, /, *, where=None, **changes) -> None:
    """Write ``changes`` over ``row`` only if nobody changed it since it was read (the optimistic lock): one
    guarded ``UPDATE … SET version = version + 1 … WHERE id = ? AND version = ?`` (and ``where``, when given). When
    another desk got there first nothing is written and ``UserError(stale)`` says so. ``row`` itself is left as it
    was read; call it inside the transaction that records what goes with the change.
    """
    model = type(row)
    key = model._meta.primary_key
    condition = (key == row.get_id()) & (model.version == row.version)
    if where is not None:
        condition &= where
    if model.update(version=model.version + 1, **changes).where(condition).execute() != 1:
        raise UserError(stale)


class MoneyField(BigIntegerField):
    """A ``Decimal`` amount of reais stored as an integer number of centavos.

    SQLite stores peewee's ``DecimalField`` as REAL, so SQL sums would be
    floating point; integers sum exactly on both back ends.
    """

    def db_value(self, value):
        if value is None:
            return None
        return to_centavos(value)

    def python_value(self, value):
        if value is None:
            return None
        return from_centavos(int(value))


class DecimalTextField(CharField):
    """An exact ``Decimal`` that is not money (rates, factors), kept as its text."""

    def db_value(self, value):
        if value is None:
            return None
        if not isinstance(value, Decimal):
            raise TypeError(f"DecimalTextField takes Decimal, not {type(value).__name__}")
        return format(value, "f")

    def python_value(self, value):
        return None if value is None else Decimal(value)


class DatabaseError(UserError):
    """The database cannot be opened as it is (foreign, newer, unreachable, bad URL)."""


class NoDatabase(DatabaseError):  # noqa: N818 - a public name the desktop, the commands and the tests use
    """No Praça database where one was expected: the file does not exist, holds zero bytes, or the database or
    schema is empty. Nothing was created: only an explicit set-up (``praca init``, ``praca demo``, the desk's
    first start) creates one — a mistyped URL or a file emptied by accident is never taken for a new database.

    ``state`` is ``"missing"`` (no file) or ``"empty"`` (a zero-byte file, or a database without tables)."""

    def __init__(self, where: str, state: str):
        self.where, self.state = where, state
        if state == "missing":
            text = (
                f"Não há banco de dados do Praça em {where}: confira o caminho, ou crie um banco novo com "
                f"praca init (ou praca demo, para um de demonstração). Nada foi criado."
            )
        else:
            text = (
                f"{where} está vazio: não é um banco de dados do Praça. Se ele já guardou os dados do Praça, "
                f"restaure um backup; para começar do zero, crie um banco novo com praca init. "
                f"Nada foi alterado."
            )
        super().__init__(text)


@dataclass(frozen=True)
class DatabaseURL:
    backend: str  # "sqlite" | "postgresql"
    path: str | None = None  # sqlite
    user: str | None = None
    password: str | None = None
    host: str | None = None
    port: int | None = None
    dbname: str | None = None
    schema: str | None = None
    raw: str = ""

    def display(self) -> str:
        """A short, password-free name for window titles and messages."""
        if self.backend == "sqlite":
            if not self.path or self.path == ":memory:":
                return ":memory:"
            return str(Path(self.path).expanduser().resolve())
        where = f"{self.host or 'localhost'}:{self.port or 5432}/{self.dbname}"
        if self.schema:
            where += f" (esquema {self.schema})"
        return f"PostgreSQL {where}"


_URL_HINT = "use sqlite:///CAMINHO ou postgresql://usuario@servidor:porta/banco"


def parse_url(url: str) -> DatabaseURL:
    """Parse a database URL; a malformed one raises ``DatabaseError`` with a hint."""
    if not url or not isinstance(url, str):
        raise DatabaseError(f"URL de banco de dados vazia ({_URL_HINT}).")
    parsed = urlparse(url)
    scheme = parsed.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///relative.db → "relative.db"; sqlite:////abs/x.db → "/abs/x.db"
        if not url.lower().startswith("sqlite:///"):
            raise DatabaseError(f"URL de banco de dados inválida: {url!r} ({_URL_HINT}).")
        path = unquote(url[len("sqlite:///") :])
        if not path:
            raise DatabaseError(f"URL de banco de dados sem caminho: {url!r} ({_URL_HINT}).")
        return DatabaseURL("sqlite", path=path, raw=url)
    if scheme in ("postgresql", "postgres"):
        dbname = parsed.path.lstrip("/")
        if not dbname:
            raise DatabaseError(f"URL do PostgreSQL sem o nome do banco: {url!r} ({_URL_HINT}).")
        query = parse_qs(parsed.query)
        schema = query.get("schema", [None])[0]
        if schema is not None and not schema.replace("_", "").isalnum():
            raise DatabaseError(f"Nome de esquema inválido na URL: {schema!r}.")
        try:
            port = parsed.port
        except ValueError:
            raise DatabaseError(f"Porta inválida na URL: {url!r}.") from None
        return DatabaseURL(
            "postgresql",
            user=unquote(parsed.username) if parsed.username else None,
            password=unquote(parsed.password) if parsed.password else None,
            host=parsed.hostname,
            port=port,
            dbname=dbname,
            schema=schema,
            raw=url,
        )
    raise DatabaseError(f"URL de banco de dados inválida: {url!r} ({_URL_HINT}).")


class _PostgresqlDatabase(PostgresqlDatabase):
    """PostgreSQL, refusing a NUL character in any value of a query (the server takes none) with a pt-BR line —
    a search or a lookup as much as a write (writes say it at the field: :func:`_column_problem`)."""

    def execute_sql(self, sql, params=None):
        if params and any(isinstance(p, str) and "\x00" in p for p in params):
            raise UserError(NUL_MESSAGE)
        return super().execute_sql(sql, params)

    #: Set by :mod:`models.store.desks`: binds a desk's new connection to the Praça user bound to the others.
    on_new_connection: Callable[[Any, Any], None] | None = None

    def _initialize_connection(self, conn):
        """A desk's new connection (another thread, a reconnection) is bound to the same Praça user."""
        super()._initialize_connection(conn)
        if getattr(self, "praca_binding", None) is not None and self.on_new_connection is not None:
            type(self).on_new_connection(self, conn)


def set_rebind_hook(hook: Callable[[Any, Any], None]) -> None:
    """``hook(database, connection)`` runs on each new PostgreSQL connection of a desk whose Praça user is bound
    (:mod:`models.store.desks`)."""
    _PostgresqlDatabase.on_new_connection = hook


def check_folder(path: Path) -> None:
    """A new SQLite file only in a folder that exists: a mistyped path must not grow folders."""
    parent = path.parent
    if not parent.is_dir():
        what = "não é uma pasta" if parent.exists() else "não existe"
        raise DatabaseError(
            f"A pasta {parent.expanduser().resolve()} {what}: crie-a antes ou escolha outro caminho "
            f"para o banco de dados ({path.name})."
        )


#: The embedded database, its write-ahead log and its shared memory hold every record: their owner's only.
PRIVATE_MODE = 0o600


def _new_private_file(path: Path) -> None:
    """Create the empty file SQLite is about to open, owner only (SQLite gives its -wal, -shm and -journal the
    database's mode). One that appeared meanwhile is left to SQLite."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE))
    except FileExistsError:
        pass
    except OSError as exc:
        raise DatabaseError(f"Não foi possível criar o banco de dados {path}: {exc.strerror or exc}.") from None


LOCK_WAIT_SECONDS = 10  # the longest a desk waits for another's write (SQLite busy_timeout, PostgreSQL lock_timeout)


def _writable(path: Path) -> bool:
    """Whether this process may write the SQLite file and its folder (its journal lives there)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _read_only_uri(path: Path) -> str:
    """An SQLite file on read-only media opened for reading: ``mode=ro``, and ``immutable=1`` where its folder
    cannot hold the lock files WAL needs (nothing can change the file there)."""
    from urllib.parse import quote as quote_path

    uri = f"file:{quote_path(str(path.expanduser().resolve()))}?mode=ro"
    return uri + ("" if os.access(path.parent, os.W_OK | os.X_OK) else "&immutable=1")


def connect(target: DatabaseURL) -> Database:
    if target.backend == "sqlite":
        if target.path != ":memory:":
            path = Path(target.path)
            if path.exists():
                if path.is_dir():
                    raise DatabaseError(f"{path} é uma pasta, não um banco de dados do Praça.")
                with path.open("rb") as fh:
                    head = fh.read(len(SQLITE_HEADER))
                if head and head != SQLITE_HEADER:
                    raise DatabaseError(
                        f"{path} não é um banco de dados do Praça (não é um arquivo SQLite); nada foi alterado."
                    )
            else:
                # A new file only in a folder that exists: a mistyped path must not grow folders.
                # (The application's own data folder is created by desktop/paths.py.)
                check_folder(path)
                _new_private_file(path)  # SQLite would make it readable by all; its -wal and -shm follow its mode
        read_only = target.path != ":memory:" and Path(target.path).exists() and not _writable(Path(target.path))
        # No journal_mode here: switching a file to WAL changes it, and a file is switched only once it is known
        # to be Praça's (models.store.bootstrap.open_database) — a foreign SQLite file is left exactly as it was.
        database = SqliteDatabase(
            _read_only_uri(Path(target.path)) if read_only else target.path,
            pragmas={
                "foreign_keys": 1,
                "synchronous": "normal",
                "busy_timeout": 10000,
            },
            timeout=10,
            # Every transaction takes the write lock at BEGIN: two desks saving at once
            # queue up instead of failing when a read lock would have to be upgraded.
            lock_type="IMMEDIATE",
            uri=read_only,
        )
        database.praca_read_only = read_only
    else:
        # A desk waits for another's lock at most LOCK_WAIT_SECONDS, as SQLite's busy timeout: then a clear line
        # (database_error_text), never minutes blocked.
        kwargs = {"options": f"-c lock_timeout={LOCK_WAIT_SECONDS * 1000}"}
        if target.schema:
            kwargs["options"] += f" -c search_path={target.schema}"
        database = _PostgresqlDatabase(
            target.dbname,
            user=target.user,
            password=target.password,
            host=target.host,
            port=target.port,
            **kwargs,
        )
    try:
        database.connect(reuse_if_open=True)
    except OperationalError as exc:
        if target.backend == "postgresql":
            raise DatabaseError(postgres_error_text(target, str(exc))) from exc
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseError(f"Não foi possível abrir {target.display()}: {reason}") from exc
    return database


def postgres_error_text(target: DatabaseURL, server_text: str) -> str:
    """One pt-BR line for a PostgreSQL connection failure, the server's own text after a colon.

    The common failures (server down or unreachable, database or role missing, password
    refused, unknown host) are named in Portuguese; any other keeps the generic opening."""
    text = " ".join(part.strip() for part in server_text.strip().splitlines() if part.strip())
    text = text or "sem mensagem do servidor"
    low = text.lower()
    where = f"{target.host or 'localhost'}:{target.port or 5432}"
    user = target.user or "(usuário do sistema)"
    if "password authentication failed" in low or "no password supplied" in low:
        head = f"Senha recusada para o usuário {user} no servidor PostgreSQL {where}"
    elif re.search(r'role ".*" does not exist', low):
        head = f"O usuário {user} não existe no servidor PostgreSQL {where}"
    elif re.search(r'database ".*" does not exist', low):
        head = f"O banco de dados {target.dbname} não existe no servidor PostgreSQL {where} (crie-o com createdb)"
    elif "could not translate host name" in low or "name or service not known" in low:
        head = f"Servidor PostgreSQL {target.host} não encontrado (confira o nome do servidor)"
    elif "connection refused" in low or "could not connect" in low or "timeout expired" in low:
        head = (
            f"Não foi possível conectar ao servidor PostgreSQL {where}: confira se o servidor está ligado "
            f"e aceita conexões"
        )
    else:
        head = f"Não foi possível abrir {target.display()}"
    return f"{head}: {text}"


def database_error_text(exc: BaseException, *, detail: bool = True) -> str | None:
    """One pt-BR line for a failure of the database under an operation (``None``: not one): another desk's lock
    held too long, a damaged file, a value beyond a column, read-only media, a connection that dropped. With
    ``detail=False`` (the window's boxes) the driver's own words, in English, are left out: the log keeps them."""
    import peewee

    try:
        import psycopg2

        driver_errors: tuple = (sqlite3.Error, psycopg2.Error)
    except ImportError:  # pragma: no cover
        driver_errors = (sqlite3.Error,)
    if not isinstance(exc, (peewee.PeeweeException, *driver_errors)):
        return None
    said = " ".join(str(exc).split()) or type(exc).__name__
    low = said.lower()
    quoted = f" ({said})" if detail else ""
    where = _current.display() if _current is not None else "o banco de dados"
    if "lock timeout" in low or "database is locked" in low or "database table is locked" in low:
        return (
            f"O banco de dados está ocupado por outra mesa há mais de {LOCK_WAIT_SECONDS} segundos: nada foi "
            f"gravado; tente de novo em instantes."
        )
    if "readonly database" in low or "read-only" in low:
        return (
            f"{where[:1].upper()}{where[1:]} está somente para leitura (mídia protegida): dá para consultar, "
            f"não para gravar."
        )
    if any(t in low for t in ("malformed", "not a database", "file is encrypted", "disk i/o error", "corrupt")):
        return (
            f"{where[:1].upper()}{where[1:]} está danificado{quoted}: restaure o último backup "
            f"(praca restore). Nada foi gravado."
        )
    if "out of range" in low or "too large" in low:
        return "Número grande demais: nenhum registro do Praça tem esse número. Nada foi gravado."
    if isinstance(exc, (peewee.InterfaceError, peewee.OperationalError)) or any(
        t in low for t in ("connection", "terminat", "server closed")
    ):
        return (
            f"A conexão com {where} caiu no meio da operação{quoted}: nada do que estava em andamento "
            f"foi gravado; tente de novo."
        )
    return f"O banco de dados recusou a operação{quoted}. Nada foi gravado."


def table_names(database: Database, target: DatabaseURL | None = None) -> list[str]:
    """Tables of the connected database (of the URL's schema on PostgreSQL)."""
    if isinstance(database, PostgresqlDatabase):
        schema = target.schema if target and target.schema else None
        if schema is None:
            schema = database.execute_sql("SELECT current_schema()").fetchone()[0]
        return database.get_tables(schema=schema)
    try:
        return database.get_tables()
    except sqlite3.DatabaseError as exc:  # header fine but the file is damaged/encrypted
        raise DatabaseError(f"O arquivo não é um banco de dados do Praça utilizável: {exc}") from exc


_current: DatabaseURL | None = None
_current_id: str = ""

#: The schema version this Praça writes — ``models.store.schema.LATEST``, which checks that the two agree. Kept here
#: so that opening a database already current reads one row and imports no table it does not use.
SCHEMA_VERSION = 33
META_TABLE = "praca_meta"
#: The key in :data:`META_TABLE` of the database's identity: random, written when the database is created (or
#: migrated to version 22), kept by a restore. A login belongs to the database it was made on (issue 26 §1).
DATABASE_ID_KEY = "database_id"


def new_database_id() -> str:
    import secrets

    return secrets.token_hex(16)


def read_database_id(database: Database) -> str:
    """The identity of the Praça database ``database`` ("" when it has none: not a Praça database at version 22)."""
    key, value, meta = (quote((name,), database.quote) for name in ("key", "value", META_TABLE))
    row = database.execute_sql(
        f"SELECT {value} FROM {meta} WHERE {key} = {database.param}", (DATABASE_ID_KEY,)
    ).fetchone()
    return row[0] if row else ""


def is_current(database: Database, target: DatabaseURL) -> bool:
    """True when ``database`` is a Praça database at :data:`SCHEMA_VERSION` (anything else: let
    :func:`models.store.schema.prepare` create, migrate or refuse it)."""
    if META_TABLE not in table_names(database, target):
        return False
    key, value, meta = (quote((name,), database.quote) for name in ("key", "value", META_TABLE))
    rows = dict(
        database.execute_sql(f"SELECT {key}, {value} FROM {meta} WHERE {key} IN ('app', 'schema_version')").fetchall()
    )
    return rows.get("app") == "praca" and rows.get("schema_version") == str(SCHEMA_VERSION)


def current_url() -> DatabaseURL | None:
    """The URL of the database the proxy is bound to, if any."""
    return _current


def current_database_id() -> str:
    """The identity of the database the proxy is bound to ("" when none is): what a login made on it carries."""
    return _current_id


def bind(database: Database, target: DatabaseURL) -> None:
    """Point the proxy (and every table) at ``database``, opened from ``target`` (:mod:`models.store.bootstrap`
    does it once the schema is current)."""
    global _current, _current_id
    identity = read_database_id(database)
    db.initialize(database)
    _current, _current_id = target, identity


def disconnect() -> None:
    """Close the database the proxy is bound to, if any, and forget its URL."""
    global _current, _current_id
    if db.obj is not None and not db.is_closed():
        db.close()
    _current, _current_id = None, ""


def sqlite_copy_aside(database: SqliteDatabase, suffix: str) -> Path | None:
    """Copy an SQLite database next to itself with the online backup API."""
    path = Path(database.database)
    if str(path) == ":memory:":
        return None
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return sqlite_backup(database, path.with_name(f"{path.name}.{suffix}-{stamp}.bak"))


def sqlite_backup(database: SqliteDatabase, dest: Path) -> Path:
    """Write a consistent copy of ``database`` to ``dest`` (written aside, owner only, then renamed): a copy of a
    database interrupted half-way is a :mod:`models.store.partial` file, removed at the next start."""
    from models.store import partial

    tmp = partial.create(dest)
    try:
        target = sqlite3.connect(tmp)
        try:
            database.connection().backup(target)
        finally:
            target.close()
        tmp.replace(dest)
    except BaseException:
        partial.discard(tmp)
        raise
    partial.release(tmp)
    return dest
