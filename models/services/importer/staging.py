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
    """One batch of an import's prepared rows (JSON: :func:`dump_rows`)."""

    run = ForeignKeyField(ImportRun, backref="stages", on_delete="CASCADE")
    batch = IntegerField()
    rows = TextField()

    class Meta:
        table_name = "import_stage"
        indexes = ((("run", "batch"), True),)


def _tagged(value: Any) -> Any:
    if isinstance(value, _dt.datetime):
        return {"$t": value.isoformat()}
    if isinstance(value, _dt.date):
        return {"$d": value.isoformat()}
    if isinstance(value, Decimal):
        return {"$n": str(value)}
    if isinstance(value, dict):
        return {k: _tagged(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_tagged(v) for v in value]
    return value


def _untagged(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1:
            ((tag, text),) = value.items()
            if tag == "$t":
                return _dt.datetime.fromisoformat(text)
            if tag == "$d":
                return _dt.date.fromisoformat(text)
            if tag == "$n":
                return Decimal(text)
        return {k: _untagged(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untagged(v) for v in value]
    return value


def dump_rows(rows: list[dict]) -> str:
    """Prepared rows as JSON, their dates, times and decimals tagged so that :func:`load_rows` gives them back."""
    return json.dumps(_tagged(rows), ensure_ascii=False, sort_keys=True)


def load_rows(text: str) -> list[dict]:
    return _untagged(json.loads(text))
