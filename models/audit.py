"""The audit trail: every change — who, when, which record, before and after — append-only.

Every insert, update and delete of a Praça table goes through
:class:`models.db.BaseModel`, whose queries call this module's hook inside the
transaction of the change: the entry commits with the change or not at all.
An update or delete reads the rows it touches before and after. A bulk insert
is one entry listing every row, the column names once (:func:`bulk_rows`).
Viewing a person's documents is recorded too (LGPD): :func:`record_view`.

The application offers no way to edit or delete an entry: no function here
does, and the table itself is left out of the hook.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from decimal import Decimal

from peewee import CharField, DateTimeField, IntegerField, TextField, fn

from models import session
from models.db import AUDIT, BaseModel, db

#: Tables whose writes are bookkeeping, not a clerk's change.
UNAUDITED = {"audit_entry", "counter", "praca_meta"}

ACTIONS = {"insert": "inclusão", "update": "alteração", "delete": "exclusão", "view": "consulta",
           "restore": "restauração de backup"}


def _now() -> _dt.datetime:
    return _dt.datetime.now().replace(microsecond=0)


class AuditEntry(BaseModel):
    at = DateTimeField(default=_now, index=True)
    username = CharField(max_length=100, index=True)
    table_name = CharField(max_length=64, index=True)
    record_id = CharField(max_length=64, default="", index=True)
    action = CharField(max_length=10)
    before = TextField(default="")
    after = TextField(default="")
    note = TextField(default="")
    person_id = IntegerField(null=True, index=True)  # the person the record is about, when there is one

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
    return json.dumps(data, ensure_ascii=False, default=_plain, sort_keys=True)


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
    by_column = list(zip(*data))
    values, indices = [], []
    for i in order:
        column = by_column[i]
        kinds = set(map(type, column))
        if kinds <= _PLAIN_KEYS or (len(kinds) == 1 and kinds <= _SAME_TEXT):
            keys = column  # equal values are written the same
        else:
            keys = list(zip(map(type, column), map(str, column)))
        first = dict(zip(keys, column))  # each key once, in order of appearance
        position = {key: at for at, key in enumerate(first)}
        values.append(list(first.values()))
        indices.append(list(map(position.__getitem__, keys)))
    return {"columns": [columns[i] for i in order], "values": values, "rows": list(zip(*indices))}


def bulk_rows(text: str) -> list[dict]:
    """The rows of a bulk insert's entry (its ``after``) as dicts, in either form the trail has kept them:
    :func:`_compact`'s or, in entries written before it, a list of dicts."""
    data = json.loads(text) if text else []
    if _is_compact(data):
        names, values = data["columns"], data["values"]
        return [{name: values[c][i] for c, (name, i) in enumerate(zip(names, row))} for row in data["rows"]]
    return data if isinstance(data, list) else [data]


def _is_compact(data) -> bool:
    return isinstance(data, dict) and set(data) == {"columns", "values", "rows"}


class _Hook:
    def audits(self, model) -> bool:
        return model._meta.table_name not in UNAUDITED

    def rows(self, model, where) -> list[dict]:
        query = model.select()
        if where is not None:
            query = query.where(where)
        return list(query.dicts())

    def _write(self, model, action: str, record_id, before, after, person_id=None, note: str = "") -> None:
        AuditEntry.insert(username=session.who(), table_name=model._meta.table_name,
                          record_id="" if record_id is None else str(record_id), action=action,
                          before=_dump(before) if before is not None else "",
                          after=_dump(after) if after is not None else "", note=note,
                          person_id=person_id).execute()

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
                items = [{getattr(k, "name", str(k)): v for k, v in item.items()} if isinstance(item, dict)
                         else dict(zip(columns, item)) for item in data]
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
            self._write(model, "update", old[pk.name], {k: old.get(k) for k in sorted(changed)},
                        {k: new.get(k) for k in sorted(changed)}, _person_of(model, new or old))

    def deleted(self, model, before: list[dict]) -> None:
        pk = model._meta.primary_key
        for old in before:
            self._write(model, "delete", old.get(pk.name), old, None, _person_of(model, old))


AUDIT.hook = _Hook()


def record_view(model, record_id, what: str, *, person_id: int | None = None) -> None:
    """Record that someone saw ``what`` of a record (a person's CPF, health certificate…) — LGPD."""
    with db.atomic():
        AuditEntry.insert(username=session.who(), table_name=model._meta.table_name, record_id=str(record_id),
                          action="view", note=what, person_id=person_id).execute()


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


def audit_rows(*, table: str | None = None, record_id: str | None = None, username: str | None = None,
               person_id: int | None = None, since: _dt.date | None = None, until: _dt.date | None = None,
               limit: int = 1000) -> list[AuditRow]:
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
    return [AuditRow(e.id, e.at, e.username, e.table_name, e.record_id, e.action, e.action_label, e.before,
                     e.after, e.note)
            for e in query.order_by(AuditEntry.id.desc()).limit(limit)]


def audit_tables() -> list[str]:
    return [t for (t,) in AuditEntry.select(AuditEntry.table_name).distinct().order_by(AuditEntry.table_name)
            .tuples()]


def export_csv(rows: list[AuditRow], path) -> None:
    """The rows shown, as a CSV file (UTF-8 with BOM, ``;`` — opens as is in Excel and LibreOffice)."""
    import csv

    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        out = csv.writer(fh, delimiter=";")
        out.writerow(["quando", "usuário", "tabela", "registro", "ação", "antes", "depois", "observação"])
        for r in rows:
            out.writerow([r.at.strftime("%d/%m/%Y %H:%M:%S"), r.username, r.table_name, r.record_id,
                          r.action_label, r.before, r.after, r.note])
