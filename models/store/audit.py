"""The audit trail: every change — who, when, which record, before and after — append-only.

Every insert, update and delete of a Praça table goes through
:class:`models.store.db.BaseModel`, whose queries call this module's hook inside the
transaction of the change: the entry commits with the change or not at all.
An update or delete reads the rows it touches before and after. A bulk insert
is one entry listing every row, the column names once (:func:`bulk_rows`).
Viewing a person's documents is recorded too (LGPD): :func:`record_view`.

The trail is append-only in the database itself: triggers on SQLite and
PostgreSQL refuse any UPDATE or DELETE (and TRUNCATE) of ``audit_entry``
(:func:`install_guards`); only a restore, which replaces the whole database,
lifts them inside its own transaction. Each entry carries the SHA-256 of the
one before it (``prev_hash``) and its own (``hash``, over its content and that
link): :func:`verify_chain` walks the chain and names the first entry that
does not follow. Entries are appended one at a time (:func:`append`), under a
lock on PostgreSQL, so the chain is the order of the ids.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import logging
from dataclasses import dataclass
from decimal import Decimal

from peewee import CharField, DateTimeField, IntegerField, PostgresqlDatabase, SqliteDatabase, TextField, fn

from models.access import session
from models.base import clock
from models.store import changes, desks
from models.store.db import AUDIT, CHAIN_LOCK_SQL, BaseModel, db

_log = logging.getLogger(__name__)

#: Tables whose writes are bookkeeping, not a clerk's change.
# failed logins: audited as such; an import's staged rows: audited when published (models.services.importer.staging)
UNAUDITED = {"audit_entry", "audit_checkpoint", "counter", "praca_meta", "login_throttle", "import_run", "import_stage"}

ACTIONS = {
    "insert": "inclusão",
    "update": "alteração",
    "delete": "exclusão",
    "view": "consulta",
    "restore": "restauração de backup",
    "login-fail": "login recusado",
    "guard": "proteção da trilha reinstalada",
}


class AuditEntry(BaseModel):
    at = DateTimeField(default=clock.now, index=True)
    username = CharField(max_length=100, index=True)
    table_name = CharField(max_length=64, index=True)
    record_id = CharField(max_length=64, default="", index=True)
    action = CharField(max_length=10)
    before = TextField(default="")
    after = TextField(default="")
    note = TextField(default="")
    person_id = IntegerField(null=True, index=True)  # the person the record is about, when there is one
    prev_hash = CharField(max_length=64, default="")  # the hash of the entry before it ("" for the first)
    hash = CharField(max_length=64, default="")  # SHA-256 of this entry's content and prev_hash

    class Meta:
        table_name = "audit_entry"

    @property
    def action_label(self) -> str:
        return ACTIONS.get(self.action, self.action)


def _plain(value):
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.get_id()
    if isinstance(value, bytes):
        return value.hex()
    return value


def _dump(data) -> str:
    # a bulk entry's rows are thousands of lists of positions: written without the spaces, a third of its text
    separators = (",", ":") if _is_compact(data) else None
    return json.dumps(data, ensure_ascii=False, default=_plain, sort_keys=True, separators=separators)


def _person_of(model, row: dict) -> int | None:
    if model.__name__ == "Person":
        return row.get("id")
    value = row.get("person")
    return value if isinstance(value, int) else None


_PLAIN_KEYS = {str, int, type(None)}
_SAME_TEXT = {_dt.date}  # equal dates have one text (equal datetimes need not: time zones)


def _compact(columns: list[str], data) -> dict:
    """Rows given as sequences of values → the form of a bulk insert's entry, read back by :func:`bulk_rows`:
    ``{"columns": [names], "values": [[each column's distinct values]], "rows": [[indices], ...]}`` — the names
    once, each distinct value once (a month's run repeats the same frozen fee line in thousands of rows), each
    row the positions of its values. Values equal but written differently (``0.05`` and ``0.050``) stay apart."""
    order = sorted(range(len(columns)), key=columns.__getitem__)
    by_column = list(zip(*data, strict=False))  # rows as given (an insert's rows are all as long)
    values, indices = [], []
    for i in order:
        column = by_column[i]
        if len(set(map(id, column))) == 1:  # one object in every row (a default, the run's stamp): one value
            values.append([column[0]])
            indices.append([0] * len(column))
            continue
        kinds = set(map(type, column))
        if kinds <= _PLAIN_KEYS or (len(kinds) == 1 and kinds <= _SAME_TEXT):
            keys = column  # equal values are written the same
        else:
            keys = list(zip(map(type, column), map(str, column), strict=True))
        first = dict(zip(keys, column, strict=True))  # each key once, in order of appearance
        position = {key: at for at, key in enumerate(first)}
        values.append(list(first.values()))
        indices.append(list(map(position.__getitem__, keys)))
    return {"columns": [columns[i] for i in order], "values": values, "rows": list(zip(*indices, strict=True))}


def bulk_rows(text: str) -> list[dict]:
    """The rows of a bulk insert's entry (its ``after``) as dicts, in any form the trail has kept them:
    :func:`_compact`'s, :func:`record_bulk_table`'s (the database's own rendering, row by row) or, in entries
    written before both, a list of dicts."""
    data = json.loads(text) if text else []
    if _is_table(data):
        names = data["columns"]
        return [dict(zip(names, row, strict=True)) for row in data["table"]]
    if _is_compact(data):
        names, values = data["columns"], data["values"]
        return [
            {name: values[c][i] for c, (name, i) in enumerate(zip(names, row, strict=True))} for row in data["rows"]
        ]
    return data if isinstance(data, list) else [data]


def _is_compact(data) -> bool:
    return isinstance(data, dict) and set(data) == {"columns", "values", "rows"}


def _is_table(data) -> bool:
    return isinstance(data, dict) and set(data) == {"columns", "table"}


def table_json(columns: list[str], rows_json: str) -> str:
    """The ``after``/``before`` of :func:`record_bulk_table`: the column names once and the rows as the database
    rendered them (a JSON array of arrays, built by ``json_group_array`` / ``json_agg``)."""
    if SECRET_COLUMNS & set(columns):
        raise ValueError(f"a bulk entry cannot keep {sorted(SECRET_COLUMNS & set(columns))}")
    return '{"columns": ' + json.dumps(columns) + ', "table": ' + (rows_json or "[]") + "}"


def money_text(column: str) -> str:
    """SQL rendering integer centavos (``column``, never negative) as the trail writes money: "300.00"."""
    if isinstance(db.obj, PostgresqlDatabase):
        return f"to_char({column} / 100.0, 'FM999999999999990.00')"
    return f"printf('%d.%02d', {column} / 100, {column} % 100)"


def rendered_rows(values: str, body: str, order: str, *more: str, params: tuple = ()):
    """``SELECT values FROM body`` as a JSON array of arrays (the ``table`` of :func:`table_json`), ordered by
    ``order``, rendered by the database — no row passes through Python; with ``more`` (other lists of values), a
    tuple of such arrays read in the same pass. ``params`` fill ``body``'s placeholders (the database's own)."""
    if isinstance(db.obj, PostgresqlDatabase):
        agg = "COALESCE(json_agg(json_build_array({}) ORDER BY " + order + ")::text, '[]')"
    else:  # SQLite scans a table in the order of its keys (ids): ``order`` there is the key's
        agg = "COALESCE(json_group_array(json_array({})), '[]')"
    found = db.execute_sql(f"SELECT {', '.join(agg.format(v) for v in (values, *more))} FROM {body}", params)
    row = found.fetchone()
    return tuple(row) if more else row[0]


def record_bulk_table(model, action: str, after: str, before: str = "", *, note: str) -> None:
    """One entry for rows a set-based statement wrote (``INSERT … SELECT``, ``UPDATE … FROM``) whose values the
    database itself rendered as JSON (:func:`table_json`) — no row passes through Python. On a desk the database's
    triggers have written the trail already, row by row (the caller need not render anything there:
    :func:`models.store.desks.is_desk`)."""
    append(table_name=model._meta.table_name, action=action, before=before, after=after, note=note)


#: Columns whose values the trail never keeps (a password hash: anyone who reads the trail could try guesses).
SECRET_COLUMNS = {"password_hash"}


def _masked(data):
    """``data`` (a row, or a bulk entry's rows) with the values of :data:`SECRET_COLUMNS` as ``"***"``."""
    if _is_compact(data) and SECRET_COLUMNS & set(data["columns"]):
        values = [
            ["***"] if name in SECRET_COLUMNS else v for name, v in zip(data["columns"], data["values"], strict=True)
        ]
        rows = [
            [0 if name in SECRET_COLUMNS else i for name, i in zip(data["columns"], row, strict=True)]
            for row in data["rows"]
        ]
        return {"columns": data["columns"], "values": values, "rows": rows}
    if isinstance(data, dict) and SECRET_COLUMNS & set(data):
        return {k: ("***" if k in SECRET_COLUMNS else v) for k, v in data.items()}
    if isinstance(data, list):
        return [_masked(item) for item in data]
    return data


def record_bulk(model, action: str, columns: list[str], after, before=None, *, note: str) -> None:
    """One entry for rows a bulk statement wrote outside the models' queries (a raw ``executemany``): ``after``
    (and, for an update, ``before``) as sequences of values in ``columns``' order, kept in :func:`_compact`'s form.
    On a desk the database's triggers have written the trail already, row by row."""
    _HOOK._write(
        model,
        action,
        None,
        _compact(columns, [[_plain(v) for v in row] for row in before]) if before else None,
        _compact(columns, [[_plain(v) for v in row] for row in after]),
        note=note,
    )


def record_migrated(model, columns: list[str], rows, *, note: str, action: str = "insert") -> None:
    """One entry for the rows a migration wrote (``rows``: sequences of values in ``columns``' order), appended to
    the chain on the database the migration has bound. Migrations are no clerk's change (the hook is suspended while
    the schema is made or moved), but rows a migration moves from one table to another are the trail's to show:
    who changed a figure, and when, stays readable across the move."""
    fields = {
        "at": clock.now(),
        "username": session.who(),
        "table_name": model._meta.table_name,
        "record_id": "",
        "action": action,
        "before": "",
        "after": _dump(_compact(columns, [[_plain(v) for v in row] for row in rows])),
        "note": note,
        "person_id": None,
    }
    _lock_chain(AuditEntry._meta.database)
    prev = _last_hash()
    AuditEntry.insert(prev_hash=prev, hash=entry_hash(prev, fields), **fields).execute()


class _Hook:
    def audits(self, model) -> bool:
        return model._meta.table_name not in UNAUDITED

    def rows(self, model, where) -> list[dict]:
        query = model.select()
        if where is not None:
            query = query.where(where)
        return list(query.dicts())

    def _write(self, model, action: str, record_id, before, after, person_id=None, note: str = "") -> None:
        before, after = _masked(before), _masked(after)
        append(
            table_name=model._meta.table_name,
            record_id="" if record_id is None else str(record_id),
            action=action,
            before=_dump(before) if before is not None else "",
            after=_dump(after) if after is not None else "",
            note=note,
            person_id=person_id,
        )

    def inserted(self, query, result) -> None:
        model = query.model
        data = query._insert
        if isinstance(data, dict):
            row = {getattr(k, "name", str(k)): _plain(v) for k, v in data.items()}
            pk = result[0] if isinstance(result, tuple) else result
            if model._meta.primary_key is not None and model._meta.primary_key.name not in row:
                row[model._meta.primary_key.name] = pk
            self._write(model, "insert", pk, None, row, _person_of(model, row))
            return
        if isinstance(data, (list, tuple)):
            columns = [getattr(c, "name", str(c)) for c in (query._columns or ())]
            if data and columns and set(map(type, data)) <= {list, tuple} and set(map(len, data)) == {len(columns)}:
                after = _compact(columns, data)
            else:
                items = [
                    {getattr(k, "name", str(k)): v for k, v in item.items()}
                    if isinstance(item, dict)
                    else dict(zip(columns, item, strict=False))
                    for item in data
                ]
                shapes = {frozenset(item) for item in items}
                if len(shapes) == 1 and items[0]:
                    names = sorted(items[0])
                    after = _compact(names, [[item[name] for name in names] for item in items])
                else:  # rows of different keys (what one leaves out its field's default fills): each as it came
                    after = items
            self._write(model, "insert", None, None, after, note=f"{len(data)} registro(s) de uma vez")
            return
        self._write(model, "insert", None, None, None, note="inclusão a partir de uma consulta")

    def updated(self, model, before: list[dict]) -> None:
        if not before:
            return
        pk = model._meta.primary_key
        after = {row[pk.name]: row for row in model.select().where(pk.in_([r[pk.name] for r in before])).dicts()}
        for old in before:
            new = after.get(old[pk.name], {})
            changed = {k for k in new if new.get(k) != old.get(k)}
            if not changed:
                continue
            self._write(
                model,
                "update",
                old[pk.name],
                {k: old.get(k) for k in sorted(changed)},
                {k: new.get(k) for k in sorted(changed)},
                _person_of(model, new or old),
            )

    def deleted(self, model, before: list[dict]) -> None:
        pk = model._meta.primary_key
        for old in before:
            self._write(model, "delete", old.get(pk.name), old, None, _person_of(model, old))


_HOOK = _Hook()
AUDIT.hook = _HOOK


# --------------------------------------------------------------------------- the chain

_FIELDS = ("at", "username", "table_name", "record_id", "action", "before", "after", "note", "person_id")
_GUARD_MESSAGE = "A trilha de auditoria só aceita inclusões: registros não podem ser alterados nem apagados."


def _at_text(value) -> str:
    if isinstance(value, str):  # SQLite hands back the text it stored
        value = _dt.datetime.fromisoformat(value)
    return value.replace(microsecond=0).isoformat(sep=" ")


def entry_hash(prev_hash: str, fields: dict) -> str:
    """SHA-256 of an entry: its fields (canonical JSON) and the hash of the entry before it."""
    content = {name: fields.get(name) for name in _FIELDS}
    content["at"] = _at_text(content["at"])
    content["person_id"] = content["person_id"] if content["person_id"] is not None else None
    for name in ("username", "table_name", "record_id", "action", "before", "after", "note"):
        content[name] = content[name] or ""
    text = json.dumps({"prev": prev_hash, **content}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _lock_chain(database) -> None:
    """On PostgreSQL desks append in turn: the chain is held until the transaction ends (every write of the
    transaction took it already: :func:`models.store.db.take_write_turn`)."""
    if isinstance(database, PostgresqlDatabase):
        database.execute_sql(CHAIN_LOCK_SQL)


def _last_hash() -> str:
    return (AuditEntry.select(AuditEntry.hash).order_by(AuditEntry.id.desc()).limit(1).scalar()) or ""


def append(*, author_confirmed: bool = False, **fields) -> None:
    """Append one entry to the trail, linked to the last one: who is the session's user.

    In the same transaction, once the chain's turn is taken, the session's user is re-checked against the
    database (:func:`models.access.session.confirm`: this database's user, still active, still in a role that
    allows what they did); a refusal rolls back the change the entry records. Not for a refused login's entry
    (nobody acted) nor when the caller confirmed the author already (``author_confirmed``: a restore, which
    replaces the users themselves)."""
    fields.setdefault("username", session.who())
    fields.setdefault("at", clock.now())
    for name in ("record_id", "before", "after", "note"):
        fields.setdefault(name, "")
    fields.setdefault("person_id", None)
    if desks.is_desk(db.obj):  # the server writes a desk's entries: a change by its trigger, the rest here
        if fields["action"] not in ("insert", "update", "delete"):
            desks.audit_note(**fields)
        _notify_desks(fields.get("table_name", ""))
        changes.announce(fields.get("table_name", ""))
        return
    with db.atomic():  # the lock, the last hash and the new entry in one transaction: never two on one link
        _lock_chain(db.obj)
        if not author_confirmed and fields.get("action") != "login-fail":
            session.confirm()
        prev = _last_hash()
        AuditEntry.insert(prev_hash=prev, hash=entry_hash(prev, fields), **fields).execute()
        _notify_desks(fields.get("table_name", ""))
    changes.announce(fields.get("table_name", ""))  # the desks' lists are out of date


def _notify_desks(table_name: str) -> None:
    """On PostgreSQL, the other desks hear of the write once its transaction has committed (LISTEN/NOTIFY): the
    tables a transaction wrote are sent in one statement after its commit — one per transaction, not one per
    row; a rolled-back transaction sends nothing."""
    database = db.obj
    if not table_name or not isinstance(database, PostgresqlDatabase):
        return
    outermost = database._state.transactions[0] if database._state.transactions else None
    if outermost is None:  # no transaction: the write is committed already
        changes.notify(database, table_name)
        return
    pending = getattr(database._state, "praca_notices", None)
    if pending is not None and pending[0] is outermost:
        pending[1].add(table_name)
        return
    tables = {table_name}
    database._state.praca_notices = (outermost, tables)

    def send() -> None:
        try:
            changes.notify(database, *sorted(tables))
        except Exception:  # any: the write is committed; a desk that did not hear catches up by the trail's stamp
            _log.exception("the other desks were not told of %s", sorted(tables))

    try:
        database.after_commit(send)
    except ValueError:  # a manual transaction (peewee's ``manual``) has no commit hook: sent now, with it
        database._state.praca_notices = None
        changes.notify(database, table_name)


def stamp() -> int:
    """The trail's last entry (0 on an empty trail or where there is no database open): a desk that saw one stamp
    and finds another knows something changed since, on this desk or another (:mod:`models.store.changes`)."""
    try:
        return AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id.desc()).limit(1).scalar() or 0
    except Exception:  # any: no database open (a window before its first one), nothing seen yet
        return 0


@dataclass(frozen=True)
class ChainState:
    """What :func:`verify_chain` found: how many entries, and the first one that does not follow (if any)."""

    count: int
    first_bad: int | None = None
    reason: str = ""
    last_hash: str = ""

    @property
    def intact(self) -> bool:
        return self.first_bad is None

    @property
    def text(self) -> str:
        if self.intact:
            tail = f"; último hash {self.last_hash[:16]}…" if self.last_hash else ""
            return f"Trilha de auditoria íntegra: {self.count} registro(s) encadeados{tail}."
        return f"Trilha de auditoria rompida no registro nº {self.first_bad}: {self.reason}"


def check_rows(rows) -> ChainState:
    """Walk entries given in id order (dicts with ``id``, ``prev_hash``, ``hash`` and the hashed fields): each must
    point at the one before and its ``hash`` must be the hash of what it says. The first that does not follow is
    named, with why. Used on the open database (:func:`verify_chain`) and on a backup's trail before a restore."""
    prev = ""
    count = 0
    for row in rows:
        count += 1
        when = _at_text(row["at"])[:16]
        if row["prev_hash"] != prev:
            return ChainState(
                count,
                row["id"],
                f"não aponta para o registro anterior (de {when}, "
                f"{row['username']}): um registro foi apagado, inserido ou trocado "
                "antes dele.",
                prev,
            )
        if row["hash"] != entry_hash(prev, row):
            return ChainState(
                count,
                row["id"],
                f"o conteúdo (de {when}, {row['username']}, "
                f"{row['table_name']}) não confere com o seu hash: foi alterado.",
                prev,
            )
        prev = row["hash"]
    return ChainState(count, None, "", prev)


def _database_rows(batch: int):
    last_id = 0
    columns = [AuditEntry.id, AuditEntry.prev_hash, AuditEntry.hash] + [getattr(AuditEntry, n) for n in _FIELDS]
    while True:
        rows = list(
            AuditEntry.select(*columns).where(AuditEntry.id > last_id).order_by(AuditEntry.id).limit(batch).dicts()
        )
        if not rows:
            return
        yield from rows
        last_id = rows[-1]["id"]


def verify_chain(*, batch: int = 2000) -> ChainState:
    """Walk the open database's trail in order (:func:`check_rows`)."""
    return check_rows(_database_rows(batch))


def seal_unsealed(database) -> int:
    """Give every entry without a hash its link and hash, in order (entries written before the chain existed,
    or restored from an older backup). Only where the guards are lifted: a migration or a restore."""
    prev = ""
    sealed = 0
    for row in AuditEntry.select().order_by(AuditEntry.id).dicts().iterator():
        if row["hash"] and row["prev_hash"] == prev:
            prev = row["hash"]
            continue
        digest = entry_hash(prev, row)
        AuditEntry.update(prev_hash=prev, hash=digest).where(AuditEntry.id == row["id"]).execute()
        prev = digest
        sealed += 1
    return sealed


_ORDER_MESSAGE = (
    "A trilha de auditoria só aceita inclusões no fim: um registro não pode substituir outro (REPLACE) "
    "nem entrar antes do último."
)
#: The tables the guards keep append-only: the trail and its signed checkpoints (models.store.checkpoints).
GUARDED = ("audit_entry", "audit_checkpoint")


def _sqlite_guards(database) -> dict[str, str]:
    """Every guard trigger of SQLite, by name, as SQLite keeps its text in ``sqlite_master``. UPDATE and DELETE are
    refused; so is an INSERT whose id is taken (``REPLACE``/``INSERT OR REPLACE`` delete the row they replace
    without firing a DELETE trigger while ``recursive_triggers`` is off — the BEFORE INSERT trigger sees the row
    still there) or that lands before the last entry (a gap filled, a negative id)."""
    present = set(table_names_of(database))
    guards = {}
    for table in GUARDED:
        if table not in present:
            continue
        for event in ("UPDATE", "DELETE"):
            name = f"{table}_no_{event.lower()}"
            guards[name] = (
                f'CREATE TRIGGER "{name}" BEFORE {event} ON "{table}" '
                f"BEGIN SELECT RAISE(ABORT, '{_GUARD_MESSAGE}'); END"
            )
        name = f"{table}_no_replace"
        guards[name] = (
            f'CREATE TRIGGER "{name}" BEFORE INSERT ON "{table}" '
            f'WHEN EXISTS (SELECT 1 FROM "{table}" WHERE "id" = NEW."id") '
            f"BEGIN SELECT RAISE(ABORT, '{_ORDER_MESSAGE}'); END"
        )
        name = f"{table}_in_order"
        guards[name] = (
            f'CREATE TRIGGER "{name}" AFTER INSERT ON "{table}" '
            f'WHEN NEW."id" < (SELECT MAX("id") FROM "{table}") '
            f"BEGIN SELECT RAISE(ABORT, '{_ORDER_MESSAGE}'); END"
        )
    return guards


_PG_FUNCTIONS = {
    "praca_audit_append_only": f"BEGIN RAISE EXCEPTION '{_GUARD_MESSAGE}'; END",
    "praca_audit_in_order": (
        "BEGIN IF NEW.id <= (SELECT max(id) FROM audit_entry) THEN "
        f"RAISE EXCEPTION '{_ORDER_MESSAGE}'; END IF; RETURN NEW; END"
    ),
    "praca_checkpoint_in_order": (
        "BEGIN IF NEW.id <= (SELECT max(id) FROM audit_checkpoint) THEN "
        f"RAISE EXCEPTION '{_ORDER_MESSAGE}'; END IF; RETURN NEW; END"
    ),
}


def _pg_guards(database) -> dict[str, tuple[str, str, str]]:
    """PostgreSQL's guard triggers: name → (table, timing and events, function). ``INSERT … ON CONFLICT DO UPDATE``
    runs the BEFORE INSERT trigger first (the id is taken: refused), and its update the UPDATE trigger."""
    present = set(table_names_of(database))
    guards = {}
    for table in GUARDED:
        if table not in present:
            continue
        prefix = "audit_entry" if table == "audit_entry" else table
        guards[f"{prefix}_append_only"] = (table, "BEFORE UPDATE OR DELETE", "FOR EACH ROW", "praca_audit_append_only")
        guards[f"{prefix}_no_truncate"] = (table, "BEFORE TRUNCATE", "FOR EACH STATEMENT", "praca_audit_append_only")
        order = "praca_audit_in_order" if table == "audit_entry" else "praca_checkpoint_in_order"
        guards[f"{prefix}_in_order"] = (table, "BEFORE INSERT", "FOR EACH ROW", order)
    return guards  # type: ignore[return-value]


def table_names_of(database) -> list[str]:
    if isinstance(database, SqliteDatabase):
        return [r[0] for r in database.execute_sql("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return list(database.get_tables(schema=database.execute_sql("SELECT current_schema()").fetchone()[0]))


def _shape(definition: str) -> tuple[str, frozenset[str], str]:
    """A PostgreSQL trigger's timing, events and level from its definition (PostgreSQL writes the events in its
    own order: ``BEFORE DELETE OR UPDATE``)."""
    words = definition.split()
    head = words[3 : words.index("ON")] if "ON" in words else []
    level = "ROW" if "ROW" in words else "STATEMENT"
    return (head[0] if head else "", frozenset(w for w in head[1:] if w != "OR"), level)


def _norm_sql(text: str) -> str:
    return " ".join((text or "").split())


def guard_problems(database) -> dict[str, str]:
    """The guards that are missing, disabled or not the ones Praça installs: name → ``"ausente"``, ``"desativada"``
    or ``"alterada"`` (empty: every guard in place and unaltered)."""
    problems: dict[str, str] = {}
    if isinstance(database, SqliteDatabase):
        found = {
            name: sql
            for name, sql in database.execute_sql("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        }
        for name, sql in _sqlite_guards(database).items():
            if name not in found:
                problems[name] = "ausente"
            elif _norm_sql(found[name]) != _norm_sql(sql):
                problems[name] = "alterada"
        return problems
    schema = database.execute_sql("SELECT current_schema()").fetchone()[0]
    bodies = {
        name: src
        for name, src in database.execute_sql(
            "SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = %s",
            (schema,),
        )
    }
    rows = database.execute_sql(
        "SELECT t.tgname, c.relname, t.tgenabled, p.proname, pg_get_triggerdef(t.oid) FROM pg_trigger t "
        "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        "JOIN pg_proc p ON p.oid = t.tgfoid WHERE n.nspname = %s AND NOT t.tgisinternal",
        (schema,),
    ).fetchall()
    found_pg = {name: (table, enabled, proc, definition) for name, table, enabled, proc, definition in rows}
    for name, (table, timing, each, function) in _pg_guards(database).items():
        if name not in found_pg:
            problems[name] = "ausente"
            continue
        on, enabled, proc, definition = found_pg[name]
        shape = _shape(f"CREATE TRIGGER {name} {timing} ON x {each}")
        if on != table or proc != function or _shape(definition) != shape:
            problems[name] = "alterada"
        elif _norm_sql(bodies.get(function, "")) != _norm_sql(_PG_FUNCTIONS[function]):
            problems[name] = "alterada"
        elif enabled == "D":
            problems[name] = "desativada"
    return problems


def install_guards(database) -> None:
    """The triggers that keep the trail (and its checkpoints) append-only on either back end: UPDATE, DELETE and
    TRUNCATE refused, and an INSERT only after the last row (no REPLACE, no upsert, no gap filled). A guard that
    was altered is put back as Praça writes it."""
    if isinstance(database, SqliteDatabase):
        found = {
            name: sql
            for name, sql in database.execute_sql("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        }
        for name, sql in _sqlite_guards(database).items():
            if name in found and _norm_sql(found[name]) == _norm_sql(sql):
                continue
            database.execute_sql(f'DROP TRIGGER IF EXISTS "{name}"')
            database.execute_sql(sql)
        return
    for function, body in _PG_FUNCTIONS.items():
        returns = "trigger"
        database.execute_sql(
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS {returns} LANGUAGE plpgsql AS $$ {body} $$"
        )
    for name, (table, timing, each, function) in _pg_guards(database).items():
        database.execute_sql(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
        database.execute_sql(f'CREATE TRIGGER {name} {timing} ON "{table}" {each} EXECUTE FUNCTION {function}()')


def lift_guards(database) -> None:
    """Lift the guards for the rest of the transaction (a restore replaces the whole trail with the backup's)."""
    if isinstance(database, SqliteDatabase):
        for name in _sqlite_guards(database):
            database.execute_sql(f'DROP TRIGGER IF EXISTS "{name}"')
    else:
        for table in GUARDED:
            if table in table_names_of(database):
                database.execute_sql(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')


def restore_guards(database) -> None:
    if isinstance(database, SqliteDatabase):
        install_guards(database)
    else:
        for table in GUARDED:
            if table in table_names_of(database):
                database.execute_sql(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')


#: What the last open of this process found wrong with the guards and did about it (the Painel and
#: ``praca audit verify`` say it): one pt-BR sentence each.
GUARD_REPAIRS: list[str] = []


def repair_guards(database) -> list[str]:
    """At every open: the guards that are missing, disabled or altered are put back, and the trail says so (one
    entry by ``sistema``, action ``guard``). Returns the sentences said (kept in :data:`GUARD_REPAIRS`)."""
    GUARD_REPAIRS.clear()
    if "audit_entry" not in table_names_of(database):
        return []
    problems = guard_problems(database)
    if not problems:
        return []
    listed = ", ".join(f"{name} ({state})" for name, state in sorted(problems.items()))
    try:
        with database.atomic():
            _lock_chain(database)  # two desks opening at once: one repairs, the other finds it done
            problems = guard_problems(database)
            if not problems:
                return []
            install_guards(database)
            restore_guards(database)  # a guard disabled (PostgreSQL) is enabled again
            append(
                author_confirmed=True,  # the system's act at the open, whoever is (or was) logged in
                table_name="audit_entry",
                action="guard",
                username=session.SYSTEM.username,
                note=f"proteções da trilha ausentes ou alteradas ao abrir o banco: {listed}; reinstaladas",
            )
    except Exception as exc:  # any: the role may not own the table (PostgreSQL); said, never hidden
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        GUARD_REPAIRS.append(
            f"ATENÇÃO: proteções da trilha de auditoria ausentes ou alteradas ({listed}) e NÃO reinstaladas "
            f"({reason}): peça ao administrador do banco que abra o Praça com o dono das tabelas."
        )
        return list(GUARD_REPAIRS)
    GUARD_REPAIRS.append(
        f"ATENÇÃO: proteções da trilha de auditoria estavam ausentes ou alteradas ao abrir o banco ({listed}); "
        "foram reinstaladas e a trilha registra isso. Alguém mexeu no banco por fora do Praça: confira a trilha "
        "(praca audit verify)."
    )
    return list(GUARD_REPAIRS)


def record_view(model, record_id, what: str, *, person_id: int | None = None) -> None:
    """Record that someone saw ``what`` of a record (a person's CPF, health certificate…) — LGPD."""
    with db.atomic():
        append(
            table_name=model._meta.table_name, record_id=str(record_id), action="view", note=what, person_id=person_id
        )


@dataclass(frozen=True)
class AuditRow:
    id: int
    at: _dt.datetime
    username: str
    table_name: str
    record_id: str
    action: str
    action_label: str
    before: str
    after: str
    note: str

    @property
    def changes(self) -> str:
        """``campo: antes → depois`` for an update; the values for an insert or delete; the note otherwise."""
        try:
            before = json.loads(self.before) if self.before else None
            after = json.loads(self.after) if self.after else None
        except ValueError:
            return self.note
        if _is_compact(after):  # a bulk insert or a bulk update (:func:`record_bulk`)
            return f"{len(after['rows'])} registro(s)"
        if _is_table(after):  # written by a set-based statement (:func:`record_bulk_table`)
            return f"{len(after['table'])} registro(s)"
        if isinstance(before, dict) and isinstance(after, dict):
            return "; ".join(f"{k}: {before.get(k)!s} → {after.get(k)!s}" for k in after)
        data = after if after is not None else before
        if _is_compact(data):  # a bulk insert
            data = data["rows"]
        if isinstance(data, list):
            return f"{len(data)} registro(s)"
        if isinstance(data, dict):
            return "; ".join(f"{k}: {v}" for k, v in data.items() if v not in (None, ""))[:500]
        return self.note


def audit_rows(
    *,
    table: str | None = None,
    record_id: str | None = None,
    username: str | None = None,
    person_id: int | None = None,
    since: _dt.date | None = None,
    until: _dt.date | None = None,
    limit: int = 1000,
) -> list[AuditRow]:
    """The trail, newest first, filtered by table and record, user, person or period."""
    session.require("audit.view")
    query = AuditEntry.select()
    if table:
        query = query.where(AuditEntry.table_name == table)
    if record_id:
        query = query.where(AuditEntry.record_id == str(record_id))
    if username:
        query = query.where(fn.LOWER(AuditEntry.username) == username.strip().lower())
    if person_id is not None:
        query = query.where(AuditEntry.person_id == person_id)
    if since:
        query = query.where(AuditEntry.at >= _dt.datetime.combine(since, _dt.time()))
    if until:
        query = query.where(AuditEntry.at < _dt.datetime.combine(until + _dt.timedelta(days=1), _dt.time()))
    return [
        AuditRow(e.id, e.at, e.username, e.table_name, e.record_id, e.action, e.action_label, e.before, e.after, e.note)
        for e in query.order_by(AuditEntry.id.desc()).limit(limit)
    ]


def audit_tables() -> list[str]:
    return [t for (t,) in AuditEntry.select(AuditEntry.table_name).distinct().order_by(AuditEntry.table_name).tuples()]


def export_csv(rows: list[AuditRow], path) -> None:
    """The rows shown, as a CSV file (UTF-8 with BOM, ``;`` — opens as is in Excel and LibreOffice)."""
    import csv

    from models.store.outfile import output

    with output(path, kind="csv") as tmp, open(tmp, "w", encoding="utf-8-sig", newline="") as fh:
        out = csv.writer(fh, delimiter=";")
        out.writerow(["quando", "usuário", "tabela", "registro", "ação", "antes", "depois", "observação"])
        for r in rows:
            out.writerow(
                [
                    r.at.strftime("%d/%m/%Y %H:%M:%S"),
                    r.username,
                    r.table_name,
                    r.record_id,
                    r.action_label,
                    r.before,
                    r.after,
                    r.note,
                ]
            )
