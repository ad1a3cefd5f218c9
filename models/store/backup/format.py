"""The file's format: its names and limits, the encoding of each column kind, a backup's data in memory."""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING

from peewee import (  # type: ignore[attr-defined]  # sort_models: peewee's, left out of its __all__
    AutoField,
    BigAutoField,
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
    TimeField,
    sort_models,
)

from models.base.errors import UserError
from models.base.money import from_centavos, to_centavos
from models.store.db import DecimalTextField, MoneyField

if TYPE_CHECKING:
    from models.store.sealed import Seal


FORMAT = "praca-backup"
FORMAT_VERSION = 1
SUFFIX = ".praca-backup"
MANIFEST = "manifest.json"
MAX_MANIFEST_BYTES = 4 * 1024 * 1024  # a manifest lists tables and counts: far below this
PAYLOAD = "data.jsonl"
#: The most a backup may hold once decompressed (its data; and the file itself). The demo's data is 2,8 MB for
#: 240 people, 79 permits and a few months of charges; a large town — 3.000 permits and their holders, ten years
#: of monthly charges, payments and the audit trail of each — comes to about 1 GB. Twice that is kept as room;
#: anything bigger is refused before a byte of it is decompressed (README: "Tamanho máximo de um backup").
MAX_BACKUP_BYTES = 2 * 1024**3
DAILY_KEEP = 7
WEEKLY_KEEP = 4
WINDOW_DAYS = 7
AUTO_PREFIX = "auto-"
AUTO_NAME = re.compile(r"^auto-(?P<stem>.+)-(?P<date>\d{4}-\d{2}-\d{2})" + re.escape(SUFFIX) + r"$")

#: Table → pt-BR words for the summaries shown before a restore.
LABELS = {
    "person": ("pessoa", "pessoas"),
    "company": ("empresa", "empresas"),
    "application": ("requerimento", "requerimentos"),
    "permit": ("permissão", "permissões"),
    "charge": ("cobrança", "cobranças"),
    "payment": ("pagamento", "pagamentos"),
    "site": ("local", "locais"),
    "stall": ("banca", "bancas"),
    "record": ("auto", "autos"),
    "draw": ("sorteio", "sorteios"),
    "user": ("usuário", "usuários"),
    "audit_entry": ("registro de auditoria", "registros de auditoria"),
}


class BackupError(UserError):
    """The file is not a Praça backup this Praça can restore (one pt-BR line; nothing was changed)."""


# --------------------------------------------------------------------------- helpers


def suggested_backup_name(today: _dt.date | None = None) -> str:
    today = today or _dt.date.today()
    return f"praca-{today:%Y-%m-%d}{SUFFIX}"


def backup_tables():
    from models.store import schema

    return sort_models(schema.TABLES)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def count_text(counts: dict[str, int]) -> str:
    """``"3 pessoas, 1 empresa, 5 permissões e 12 outros registros"`` (empty tables left out)."""
    parts = [_plural(counts[t], *LABELS[t]) for t in LABELS if counts.get(t)]
    others = sum(n for t, n in counts.items() if t not in LABELS and t != "praca_meta")
    if others:
        parts.append(_plural(others, "outro registro", "outros registros"))
    if not parts:
        return "nenhum dado"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " e " + parts[-1]


def column_kind(f) -> str:
    if isinstance(f, MoneyField):
        return "centavos"
    if isinstance(f, DecimalTextField):
        return "decimal"
    if isinstance(f, BooleanField):
        return "bool"
    if isinstance(f, DateTimeField):
        return "datetime"
    if isinstance(f, DateField):
        return "date"
    if isinstance(f, TimeField):
        return "time"
    if isinstance(f, ForeignKeyField):
        return column_kind(f.rel_field)
    if isinstance(f, (IntegerField, AutoField, BigAutoField)):
        return "int"
    if isinstance(f, (CharField, TextField)):
        return "text"
    return "raw"


def encode_value(kind: str, value):
    if value is None:
        return None
    if kind == "centavos":
        return to_centavos(value)
    if kind == "decimal":
        return str(value)
    if kind == "bool":
        return bool(value)
    if kind in ("date", "datetime", "time"):
        return value.isoformat() if hasattr(value, "isoformat") else str(value)
    if kind == "int":
        return int(value)
    if kind == "text":
        return str(value)
    if isinstance(value, (str, int, bool)):
        return value
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def decode_value(kind: str, value):
    """JSON value → the Python value the model's field takes (``ValueError`` when it cannot be)."""
    if value is None:
        return None
    if kind == "centavos":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"centavos não inteiros: {value!r}")
        return from_centavos(value)
    if kind == "decimal":
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            raise ValueError(f"número ilegível: {value!r}") from None
        if not number.is_finite():
            raise ValueError(f"número ilegível: {value!r}")
        return number
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"valor lógico ilegível: {value!r}")
        return value
    if kind == "date":
        return _dt.date.fromisoformat(value)
    if kind == "datetime":
        return _dt.datetime.fromisoformat(value)
    if kind == "time":
        return _dt.time.fromisoformat(value)
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"inteiro ilegível: {value!r}")
        return value
    if kind == "text":
        if not isinstance(value, str):
            raise ValueError(f"texto ilegível: {value!r}")
        return value
    return value


def storage_value(kind: str, value):
    """A decoded value as the scratch SQLite file of an upgrade stores it (what peewee writes to SQLite)."""
    if value is None:
        return None
    if kind == "centavos":
        return to_centavos(value)
    if kind == "decimal":
        return format(value, "f")
    if kind == "bool":
        return int(value)
    if kind in ("date", "time"):
        return value.isoformat()
    if kind == "datetime":
        return str(value)
    return value


# --------------------------------------------------------------------------- the data in a backup


@dataclass
class TableData:
    name: str
    primary_key: str | None
    columns: list[tuple[str, str]]  # (column name, type)
    rows: list[list] = field(default_factory=list)  # encoded values, in column order

    @property
    def column_names(self) -> list[str]:
        return [c for c, _t in self.columns]


@dataclass
class Backup:
    """A backup file, read and checked."""

    path: Path | None
    manifest: dict
    tables: dict[str, TableData]
    seal: Seal | None = None  # what its signature proves (None: not checked)
    encrypted: bool = False

    @property
    def schema_version(self) -> int:
        return self.manifest["schema_version"]

    #: rows per table as read — the rows themselves are kept only when asked (``read_backup(rows=True)``)
    row_counts: dict[str, int] | None = None

    @property
    def counts(self) -> dict[str, int]:
        if self.row_counts is not None:
            return dict(self.row_counts)
        return {name: len(t.rows) for name, t in self.tables.items()}

    @property
    def created_at(self) -> _dt.datetime | None:
        try:
            return _dt.datetime.fromisoformat(self.manifest.get("created_at", ""))
        except (TypeError, ValueError):
            return None

    @property
    def backend_label(self) -> str:
        backend = str(self.manifest.get("source_backend"))
        return {"sqlite": "banco embutido (SQLite)", "postgresql": "PostgreSQL"}.get(backend, backend)

    def describe(self) -> str:
        """One pt-BR sentence: when, from where, what it holds."""
        when = self.created_at
        stamp = when.strftime("%d/%m/%Y %H:%M") if when else "data desconhecida"
        return (
            f"backup de {stamp} ({self.backend_label}, esquema versão {self.schema_version}): {count_text(self.counts)}"
        )
