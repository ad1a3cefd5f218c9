"""Where an import waits before it is published (issue 26 §7): its rows, prepared, in numbered batches.

An import runs in short transactions: each batch of prepared rows is written to :class:`ImportStage` in a
transaction of its own (no other desk sees it: nothing reads these tables but the importer), and the rows reach
the town's tables in one last short transaction (:func:`models.services.importer.writing.import_rows`), built of
one bulk insert per table. A desk killed while staging leaves its :class:`ImportRun` and the batches written;
importing the same rows again resumes after the last batch. Neither table is audited: what an import publishes is,
in the tables it reaches.
"""

from __future__ import annotations

import datetime as _dt
import json
from decimal import Decimal
from typing import Any

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField, TextField

from models.base import clock
from models.store.db import BaseModel

#: The states of a run: its batches being written, or its rows published and its permits being signed.
STAGING, PUBLISHED = "staging", "published"

#: A run left half-way by a desk that never came back is removed after this long (it holds personal data).
STALE_AFTER = _dt.timedelta(days=2)


class ImportRun(BaseModel):
    """One import: the rows it publishes (``key``: their SHA-256, with who imports them and how), its batches."""

    key = CharField(max_length=64, unique=True)
    source = CharField(max_length=300)
    username = CharField(max_length=64)
    total = IntegerField()  # rows to import
    batches = IntegerField()  # numbered 1..batches
    state = CharField(max_length=16, default=STAGING)
    started_at = DateTimeField(default=clock.now)
    result = TextField(default="")  # once published: what was imported (JSON), and the permits left to sign

    class Meta:
        table_name = "import_run"


class ImportStage(BaseModel):
    """One batch of an import's prepared rows, per table a JSON array of rows as the database stores them
    (:func:`stored_rows`): what the publication inserts with one ``INSERT … SELECT`` per table, on the server."""

    run = ForeignKeyField(ImportRun, backref="stages", on_delete="CASCADE")
    batch = IntegerField()
    people = TextField(default="[]")
    companies = TextField(default="[]")
    partners = TextField(default="[]")
    permits = TextField(default="[]")
    events = TextField(default="[]")

    class Meta:
        table_name = "import_stage"
        indexes = ((("run", "batch"), True),)


#: What a staged row may carry beside its table's columns (its holder, its place among the permits): keys that
#: begin with "_", never a column's name.
EXTRA = "_"


def _json_value(value: Any) -> Any:
    """A value as its column stores it, in JSON: a time as peewee writes it to SQLite (PostgreSQL reads it too), a
    date in ISO form."""
    if isinstance(value, _dt.datetime):
        return str(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return value


def stored_rows(model, rows: list[dict]) -> list[dict]:
    """``rows`` (field name → Python value) as the database stores them, keyed by column name; a field a row leaves
    out gets its default, so that every row has every column but the primary key. Keys beginning with
    :data:`EXTRA` are kept as they are."""
    fields = [f for f in model._meta.sorted_fields if f is not model._meta.primary_key]
    out = []
    for row in rows:
        stored: dict[str, Any] = {}
        for field in fields:
            if field.name in row:
                value = row[field.name]
            else:
                value = field.default() if callable(field.default) else field.default
            stored[field.column_name] = _json_value(field.db_value(value))
        stored.update({k: v for k, v in row.items() if k.startswith(EXTRA)})
        out.append(stored)
    return out


def dump(rows: list[dict] | dict) -> str:
    return json.dumps(rows, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def compact(rows: list[dict]) -> str:
    """The audit entry of a table's published rows, in the form of a bulk insert's entry
    (:func:`models.store.audit.bulk_rows` reads it back): the column names once, each column's distinct values
    once, each row the positions of its values — made before the publication takes the write turn."""
    names = sorted({name for row in rows for name in row})
    values, positions = [], []
    for name in names:
        seen: dict[tuple[str, Any], int] = {}
        positions.append([seen.setdefault((type(v).__name__, v), len(seen)) for v in (row.get(name) for row in rows)])
        values.append([value for _kind, value in seen])
    return dump({"columns": names, "values": values, "rows": [list(r) for r in zip(*positions, strict=True)]})
