"""Backups of Praça's data: one portable file for both back ends, checked before any restore.

**The file** (``*.praca-backup``) is a zip with two members:

* ``manifest.json`` — ``format`` ``"praca-backup"``, ``format_version``,
  ``schema_version``, ``created_at`` (local time with its UTC offset),
  ``source_backend`` (``sqlite`` or ``postgresql``), ``source`` (the database,
  without password), ``app_version``, ``tables`` (for every table of
  :data:`models.store.schema.TABLES`: its ``rows`` count, ``primary_key`` and
  ``columns`` as ``[name, type]`` pairs), ``payload`` (the member's name) and
  ``payload_sha256`` / ``payload_bytes`` of that member;
* ``data.jsonl`` — one JSON line per row, ``["table", [value, …]]`` in the
  manifest's column order, tables in dependency order, rows by primary key.
  Types are lossless: ``int``, ``text``, ``bool``; ``date``, ``datetime`` and
  ``time`` as ISO 8601 text; ``decimal`` as the number's exact text; money
  (``centavos``) as an integer number of centavos.

**Writing.** The embedded database (SQLite) is first copied with SQLite's
online backup API — a consistent snapshot, safe while Praça runs on this or
another desk — and the file is exported from the snapshot. PostgreSQL is read
in one ``REPEATABLE READ`` transaction (one consistent view while the other
desks keep working). The file is written aside and renamed when complete.

**Restoring** checks the whole file first — a zip, the format name, a format
and schema version this Praça knows, the SHA-256 of the payload, the row
counts and columns — and refuses anything else with one line; nothing is
touched until the file has passed. A backup of an older schema is brought to
the current one by the same migrations an old database goes through (in a
scratch SQLite file), then restored. The restore is one transaction on the
open database, of either back end: a PostgreSQL backup restores into SQLite
and the other way round. A database that already holds data (any row outside
``praca_meta``) is replaced only when asked (``force``), and a backup of what
it held is written first (``keep_current``). The audit trail travels in the
backup like any table; the restore itself writes no audit entries (it is not
a clerk's change of records, and the trail it brings back is the one restored).

**Daily backups.** :func:`daily_backup` writes, at most once a day, a backup of
the embedded database into the data folder's ``backups`` (``auto-<banco>-
AAAA-MM-DD.praca-backup``) and rotates them with :func:`rotation_keep`:

* the 7 newest backups are kept (daily);
* of the older ones, the newest of each ISO week (Monday to Sunday) is kept,
  for the 4 most recent such weeks (weekly);
* a backup dated in the last 7 days, or after today (a clock set back), is
  never deleted; files that do not follow the automatic name are never
  touched.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import re
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING

from peewee import (
    AutoField,
    BigAutoField,
    BooleanField,
    CharField,
    DataError,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    IntegrityError,
    PostgresqlDatabase,
    SqliteDatabase,
    TextField,
    TimeField,
    sort_models,
)

from models.base.errors import UserError
from models.base.money import from_centavos, to_centavos
from models.store.archive import ZipLimits, check_zip, megabytes, read_member
from models.store.db import AUDIT, DecimalTextField, MoneyField, current_url, db, sqlite_backup

if TYPE_CHECKING:
    from models.store.sealed import Seal, Trust

FORMAT = "praca-backup"
FORMAT_VERSION = 1
SUFFIX = ".praca-backup"
MANIFEST = "manifest.json"
MAX_MANIFEST_BYTES = 4 * 1024 * 1024  # a manifest lists tables and counts: far below this
PAYLOAD = "data.jsonl"
DAILY_KEEP = 7
WEEKLY_KEEP = 4
WINDOW_DAYS = 7
AUTO_PREFIX = "auto-"
_AUTO_NAME = re.compile(r"^auto-(?P<stem>.+)-(?P<date>\d{4}-\d{2}-\d{2})" + re.escape(SUFFIX) + r"$")

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


def _tables():
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


def _type_of(f) -> str:
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
        return _type_of(f.rel_field)
    if isinstance(f, (IntegerField, AutoField, BigAutoField)):
        return "int"
    if isinstance(f, (CharField, TextField)):
        return "text"
    return "raw"


def _encode(kind: str, value):
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


def _decode(kind: str, value):
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


def _storage(kind: str, value):
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

    @property
    def counts(self) -> dict[str, int]:
        return {name: len(t.rows) for name, t in self.tables.items()}

    @property
    def created_at(self) -> _dt.datetime | None:
        try:
            return _dt.datetime.fromisoformat(self.manifest.get("created_at", ""))
        except (TypeError, ValueError):
            return None

    @property
    def backend_label(self) -> str:
        return {"sqlite": "banco embutido (SQLite)", "postgresql": "PostgreSQL"}.get(
            self.manifest.get("source_backend"), str(self.manifest.get("source_backend"))
        )

    def describe(self) -> str:
        """One pt-BR sentence: when, from where, what it holds."""
        when = self.created_at
        stamp = when.strftime("%d/%m/%Y %H:%M") if when else "data desconhecida"
        return (
            f"backup de {stamp} ({self.backend_label}, esquema versão {self.schema_version}): {count_text(self.counts)}"
        )


def _export(database) -> tuple[int, dict[str, TableData]]:
    """Every table of the schema, read through the models bound to ``database``."""
    from models.store import schema

    tables = _tables()
    out: dict[str, TableData] = {}
    with database.bind_ctx(tables):
        version = schema.read_version(database)
        for model in tables:
            fields = model._meta.sorted_fields
            kinds = [_type_of(f) for f in fields]
            pk = model._meta.primary_key
            data = TableData(
                model._meta.table_name,
                pk.column_name if pk else None,
                [(f.column_name, k) for f, k in zip(fields, kinds, strict=True)],
            )
            query = model.select(*fields)
            if pk is not None:
                query = query.order_by(pk)
            for row in query.tuples().iterator():
                data.rows.append([_encode(k, v) for k, v in zip(kinds, row, strict=True)])
            out[data.name] = data
    return version, out


def _source_backend(database) -> str:
    return "postgresql" if isinstance(database, PostgresqlDatabase) else "sqlite"


def snapshot_data(database=None) -> tuple[int, dict[str, TableData]]:
    """A consistent copy of the open database's data: ``(schema version, tables)``."""
    database = database if database is not None else db.obj
    if database is None:
        raise UserError("Nenhum banco de dados aberto.")
    if isinstance(database, SqliteDatabase):
        with tempfile.TemporaryDirectory(prefix="praca-backup-") as folder:
            copy = sqlite_backup(database, Path(folder) / "snapshot.sqlite3")  # the online backup API
            snap = SqliteDatabase(str(copy))
            try:
                return _export(snap)
            finally:
                snap.close()
    with database.atomic(isolation_level="REPEATABLE READ"):
        return _export(database)


def _payload(tables: dict[str, TableData]) -> bytes:
    out = io.BytesIO()
    for data in tables.values():
        for row in data.rows:
            out.write(json.dumps([data.name, row], ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
            out.write(b"\n")
    return out.getvalue()


def _manifest(
    version: int,
    tables: dict[str, TableData],
    payload: bytes,
    *,
    backend: str,
    source: str,
    app_version: str,
    now: _dt.datetime | None,
) -> dict:
    now = (now or _dt.datetime.now()).astimezone().replace(microsecond=0)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": version,
        "created_at": now.isoformat(),
        "source_backend": backend,
        "source": source,
        "app_version": app_version,
        "tables": {
            name: {"rows": len(t.rows), "primary_key": t.primary_key, "columns": [list(c) for c in t.columns]}
            for name, t in tables.items()
        },
        "payload": PAYLOAD,
        "payload_sha256": hashlib.sha256(payload).hexdigest(),
        "payload_bytes": len(payload),
    }


def write_file(dest: Path, manifest: dict, payload: bytes, *, signer=None, passphrase: str | None = None) -> Path:
    """Write the zip aside, read it back, and rename it over ``dest`` when complete (owner only: it holds every
    CPF) — :mod:`models.store.outfile`. ``signer`` signs the manifest (:mod:`models.store.sealed`);
    ``passphrase`` encrypts
    the whole file."""
    from models.store.outfile import output, write_bytes
    from models.store.sealed import SIGNATURE, encrypt, signature_member

    manifest_bytes = json.dumps(manifest, ensure_ascii=False, indent=2).encode("utf-8")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MANIFEST, manifest_bytes)
        zf.writestr(PAYLOAD, payload)
        if signer is not None:
            zf.writestr(SIGNATURE, signature_member(signer, manifest_bytes))
    data = buffer.getvalue()
    try:
        if passphrase is not None:
            write_bytes(dest, encrypt(data, passphrase), kind="bin")
        else:
            with output(dest, kind="zip") as tmp:
                Path(tmp).write_bytes(data)
    except OSError as exc:
        raise UserError(f"Não foi possível gravar o backup em {dest}: {exc.strerror or exc}.") from exc
    return dest


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    schema_version: int
    backend: str
    counts: dict[str, int]
    signed_by: str = ""  # the key id that signed it ("" unsigned)
    encrypted: bool = False

    @property
    def total(self) -> int:
        return sum(n for t, n in self.counts.items() if t != "praca_meta")


def _check_dest(dest: Path) -> Path:
    dest = Path(dest).expanduser()
    folder = dest.parent.resolve()
    if not folder.is_dir():
        raise UserError(f"A pasta {folder} não existe: crie-a ou escolha outro caminho para {dest.name}.", field="out")
    if dest.is_dir():
        raise UserError(f"{dest} é uma pasta: informe o nome do arquivo de backup.", field="out")
    from models.store.outfile import resolve_target

    resolve_target(dest)  # a device or a fifo: refused before the database is read
    url = current_url()
    if url is not None and url.backend == "sqlite" and url.path not in (None, ":memory:"):
        if dest.resolve() == Path(url.path).expanduser().resolve():
            raise UserError("Escolha outro arquivo: o backup não pode sobrescrever o próprio banco.", field="out")
    return dest


def write_backup(
    dest: str | Path,
    *,
    app_version: str = "",
    now: _dt.datetime | None = None,
    check_role: bool = True,
    signer=None,
    passphrase: str | None = None,
) -> BackupInfo:
    """Write a backup of the open database to ``dest`` (either back end), signed by ``signer`` when given and
    encrypted with ``passphrase`` when given (:mod:`models.store.sealed`). ``signer`` may be a function that returns
    it (or None), called after the checks."""
    from models.access import session

    if check_role:
        session.require("backup")
    dest = _check_dest(Path(dest))
    if callable(signer):  # looked up once the role and the destination are known to be fine
        signer = signer()
    database = db.obj
    version, tables = snapshot_data(database)
    payload = _payload(tables)
    url = current_url()
    manifest = _manifest(
        version,
        tables,
        payload,
        backend=_source_backend(database),
        source=url.display() if url else "",
        app_version=app_version,
        now=now,
    )
    write_file(dest, manifest, payload, signer=signer, passphrase=passphrase)
    return BackupInfo(
        dest,
        version,
        manifest["source_backend"],
        {n: len(t.rows) for n, t in tables.items()},
        signer.key_id if signer is not None else "",
        passphrase is not None,
    )


def backup_sqlite(dest: str | Path) -> Path:
    """Kept for callers of the first version: a backup of the open database (now in the portable format)."""
    return write_backup(dest).path


# --------------------------------------------------------------------------- reading and checking a file


def _not_ours(path: Path) -> BackupError:
    try:
        with path.open("rb") as fh:
            head = fh.read(16)
    except OSError:
        head = b""
    if head == b"SQLite format 3\x00":
        return BackupError(
            f"{path.name} é um arquivo de banco de dados, não um backup do Praça; para usá-lo, "
            f"abra-o em Arquivo → Abrir banco de dados (ou praca --db sqlite:///{path}). "
            "Nada foi alterado."
        )
    return BackupError(f"{path.name} não é um backup do Praça; nada foi alterado.")


def _corrupt(path: Path | None, why: str) -> BackupError:
    name = path.name if path else "O arquivo"
    return BackupError(f"{name} está corrompido ({why}); nada foi alterado.")


def _check_manifest(manifest, path: Path) -> dict:
    from models.store import schema

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_ours(path)
    fmt = manifest.get("format_version")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise _corrupt(path, "versão de formato ilegível")
    if fmt > FORMAT_VERSION:
        raise BackupError(
            f"{path.name} foi gravado por um Praça mais novo (formato de backup versão {fmt}; "
            f"este Praça lê até a versão {FORMAT_VERSION}). Atualize o Praça; nada foi alterado."
        )
    version = manifest.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _corrupt(path, "versão de esquema ilegível")
    if version > schema.LATEST:
        raise BackupError(
            f"{path.name} é de um Praça mais novo (esquema versão {version}); este Praça conhece "
            f"até a versão {schema.LATEST}. Atualize o Praça; nada foi alterado."
        )
    tables = manifest.get("tables")
    if not isinstance(tables, dict) or "praca_meta" not in tables:
        raise _corrupt(path, "lista de tabelas ausente")
    for name, info in tables.items():
        ok = (
            isinstance(info, dict)
            and isinstance(info.get("rows"), int)
            and info["rows"] >= 0
            and isinstance(info.get("columns"), list)
            and all(isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c) for c in info["columns"])
        )
        if not ok:
            raise _corrupt(path, f"descrição da tabela {name} ilegível")
    if not isinstance(manifest.get("payload_sha256"), str):
        raise _corrupt(path, "soma de verificação ausente")
    return manifest


#: What a backup may hold once decompressed: its manifest and its data (JSON lines compress 5 to 20 times; a
#: "zip bomb" a thousand times or more), and no data line longer than a row can be.
BACKUP_LIMITS = ZipLimits(
    "o backup", max_entries=16, max_entry_bytes=4 * 1024**3, max_total_bytes=4 * 1024**3, max_ratio=100
)
MAX_ROW_BYTES = 1024 * 1024


def _check_declared_size(manifest: dict, size: int, path: Path) -> None:
    """The data's size as the zip declares it must be the manifest's, and within what its rows can take."""
    declared = manifest.get("payload_bytes")
    if declared is not None and declared != size:
        raise _corrupt(path, f"os dados têm {size} bytes e o manifesto diz {declared}")
    rows = sum(info["rows"] for info in manifest["tables"].values())
    if size > (rows + 1) * MAX_ROW_BYTES:
        raise _corrupt(path, f"{megabytes(size)} de dados para {rows} linhas")


def is_encrypted_file(path: str | Path) -> bool:
    """Whether ``path`` is an encrypted backup (its passphrase is needed to read it)."""
    from models.store.sealed import MAGIC, is_encrypted

    try:
        with Path(path).expanduser().open("rb") as fh:
            return is_encrypted(fh.read(len(MAGIC)))
    except OSError:
        return False


def read_backup(path: str | Path, *, trust: Trust | None = None, passphrase: str | None = None) -> Backup:
    """Open and check a backup file completely; any problem is one ``BackupError`` line.

    With ``trust`` the signature is checked first, before anything else of the file is read, and a backup it
    cannot prove is refused unless ``trust.accept_unsigned`` (:mod:`models.store.sealed`). An encrypted backup needs
    its ``passphrase``."""
    from models.store.sealed import SIGNATURE, check_seal, decrypt

    path = Path(path).expanduser()
    if not path.exists():
        raise BackupError(f"Arquivo não encontrado: {path}.")
    if path.is_dir():
        raise BackupError(f"{path} é uma pasta, não um backup do Praça.")
    source: Path | io.BytesIO = path
    encrypted = is_encrypted_file(path)
    if encrypted:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise _corrupt(path, f"ilegível: {exc.strerror or exc}") from None
        source = io.BytesIO(decrypt(raw, passphrase, path.name))
    if not zipfile.is_zipfile(source):
        raise _not_ours(path)
    seal = None
    try:
        with zipfile.ZipFile(source) as zf:
            names = set(zf.namelist())
            if MANIFEST not in names:
                raise _not_ours(path)
            check_zip(zf, name=path.name, limits=BACKUP_LIMITS)  # a zip bomb stops here, before any byte is read
            manifest_bytes = read_member(zf, MANIFEST, name=path.name, max_bytes=MAX_MANIFEST_BYTES)
            if trust is not None:  # the signature first: nothing of a backup it cannot prove is used
                member = read_member(zf, SIGNATURE, name=path.name, max_bytes=64 * 1024) if SIGNATURE in names else None
                seal = check_seal(manifest_bytes, member, trust, path.name)
                if not seal.ok and not trust.accept_unsigned:
                    raise BackupError(
                        f"{seal.message} Nada foi alterado. Para restaurar mesmo assim, o "
                        "administrador usa --accept-unsigned e confirma."
                    )
            try:
                manifest = json.loads(manifest_bytes)
            except (UnicodeDecodeError, ValueError):
                raise _not_ours(path) from None
            manifest = _check_manifest(manifest, path)
            member = manifest.get("payload", PAYLOAD)
            if member not in names:
                raise _corrupt(path, "dados ausentes")
            size = zf.getinfo(member).file_size
            _check_declared_size(manifest, size, path)
            payload = read_member(zf, member, name=path.name, max_bytes=size)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as exc:
        raise _corrupt(path, f"zip ilegível: {exc}") from None
    if hashlib.sha256(payload).hexdigest() != manifest["payload_sha256"]:
        raise _corrupt(path, "a soma de verificação SHA-256 não confere")
    return Backup(path, manifest, _parse_payload(payload, manifest, path), seal, encrypted)


def _parse_payload(payload: bytes, manifest: dict, path: Path | None) -> dict[str, TableData]:
    tables = {
        name: TableData(name, info.get("primary_key"), [tuple(c) for c in info["columns"]])
        for name, info in manifest["tables"].items()
    }
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise _corrupt(path, "texto fora de UTF-8") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        try:
            name, row = json.loads(line)
        except (ValueError, TypeError):
            raise _corrupt(path, f"linha {number} dos dados ilegível") from None
        data = tables.get(name)
        if data is None or not isinstance(row, list) or len(row) != len(data.columns):
            raise _corrupt(path, f"linha {number} dos dados não confere com a tabela {name}")
        data.rows.append(row)
    for name, data in tables.items():
        if len(data.rows) != manifest["tables"][name]["rows"]:
            raise _corrupt(
                path,
                f"a tabela {name} tem {len(data.rows)} linhas e o manifesto diz {manifest['tables'][name]['rows']}",
            )
    return tables


# --------------------------------------------------------------------------- bringing an older backup up to date


def _upgrade(backup: Backup) -> dict[str, TableData]:
    """The tables of an older backup, migrated to the current schema in a scratch SQLite file."""
    from models.store import schema

    with tempfile.TemporaryDirectory(prefix="praca-restore-") as folder:
        scratch = SqliteDatabase(str(Path(folder) / "upgrade.sqlite3"), pragmas={"foreign_keys": 0})
        try:
            sql_types = {"int": "INTEGER", "centavos": "INTEGER", "bool": "INTEGER"}
            with scratch.atomic():
                for name, data in backup.tables.items():
                    cols = []
                    for column, kind in data.columns:
                        pk = " PRIMARY KEY" if column == data.primary_key else ""
                        cols.append(f'"{column}" {sql_types.get(kind, "TEXT")}{pk}')
                    scratch.execute_sql(f'CREATE TABLE "{name}" ({", ".join(cols)})')
                    marks = ", ".join("?" for _ in data.columns)
                    columns = ", ".join(f'"{c}"' for c in data.column_names)
                    for row in data.rows:
                        values = [_storage(k, _decode(k, v)) for (_c, k), v in zip(data.columns, row, strict=True)]
                        scratch.execute_sql(f'INSERT INTO "{name}" ({columns}) VALUES ({marks})', values)
            AUDIT.suspended += 1
            try:
                schema.apply_migrations(scratch, backup.schema_version)
            finally:
                AUDIT.suspended -= 1
            version, tables = _export(scratch)
        except BackupError:
            raise
        except Exception as exc:  # a migration that fails on this data: one line, nothing touched
            raise BackupError(
                f"Não foi possível atualizar o backup da versão {backup.schema_version} para a "
                f"{schema.LATEST}: {exc}. Nada foi alterado."
            ) from exc
        finally:
            scratch.close()
    if version != schema.LATEST:
        raise BackupError(f"O backup ficou na versão {version} depois das migrações; nada foi alterado.")
    return tables


def _current_tables(backup: Backup) -> dict[str, TableData]:
    """The backup's tables at the current schema version, each checked against its model."""
    from models.store import schema

    tables = _upgrade(backup) if backup.schema_version < schema.LATEST else backup.tables
    for model in _tables():
        name = model._meta.table_name
        data = tables.get(name)
        expected = [(f.column_name, _type_of(f)) for f in model._meta.sorted_fields]
        if data is None:
            raise _corrupt(backup.path, f"falta a tabela {name} do esquema versão {schema.LATEST}")
        if data.columns != expected:
            if sorted(data.columns) != sorted(expected):
                raise _corrupt(
                    backup.path, f"as colunas da tabela {name} não conferem com o esquema versão {schema.LATEST}"
                )
            order = [data.column_names.index(c) for c, _k in expected]
            data = TableData(name, data.primary_key, expected, [[row[i] for i in order] for row in data.rows])
            tables[name] = data
    unknown = set(tables) - {m._meta.table_name for m in _tables()}
    if unknown:
        raise _corrupt(backup.path, f"tabelas desconhecidas: {', '.join(sorted(unknown))}")
    return tables


# --------------------------------------------------------------------------- restoring


def database_counts(database=None) -> dict[str, int]:
    """Rows per table of the open database."""
    database = database if database is not None else db.obj
    tables = _tables()
    with database.bind_ctx(tables):
        return {m._meta.table_name: m.select().count() for m in tables}


#: tables a new database is created with rows in: the marker, and the acts shipped with Praça (an act the
#: municipality installed leaves its audit entry, which counts)
_BORN_WITH = ("praca_meta", "regime_act")


def is_empty(counts: dict[str, int]) -> bool:
    """No row outside what a new database is born with: nothing a restore would replace."""
    return not any(n for t, n in counts.items() if t not in _BORN_WITH)


@dataclass(frozen=True)
class RestoreResult:
    counts: dict[str, int]
    from_version: int
    replaced: dict[str, int]  # what the database held before (empty when it held nothing)
    kept_copy: Path | None

    @property
    def upgraded(self) -> bool:
        from models.store import schema

        return self.from_version < schema.LATEST


def _clear(database, tables) -> None:
    if isinstance(database, PostgresqlDatabase):
        names = ", ".join(f'"{m._meta.table_name}"' for m in tables)
        database.execute_sql(f"TRUNCATE {names}")
        return
    database.execute_sql("PRAGMA defer_foreign_keys = ON")
    for model in reversed(tables):
        database.execute_sql(f'DELETE FROM "{model._meta.table_name}"')


def _insert(database, tables, data: dict[str, TableData], progress: Callable[[str], None] | None) -> None:
    for model in tables:
        name = model._meta.table_name
        table = data[name]
        fields = model._meta.sorted_fields
        kinds = [k for _c, k in table.columns]
        pk = model._meta.primary_key
        pk_index = fields.index(pk)
        self_refs = [i for i, f in enumerate(fields) if isinstance(f, ForeignKeyField) and f.rel_model is model]
        later: list[tuple] = []
        rows = []
        for row in table.rows:
            values = [_decode(k, v) for k, v in zip(kinds, row, strict=True)]
            for i in self_refs:  # a row may point at a later one: link after every row is in
                if values[i] is not None:
                    later.append((values[pk_index], fields[i], values[i]))
                    values[i] = None
            rows.append(values)
        if progress:
            progress(name)
        for start in range(0, len(rows), 200):
            model.insert_many(rows[start : start + 200], fields=fields).execute()
        for pk_value, fk, value in later:
            model.update({fk: value}).where(pk == pk_value).execute()
        if isinstance(database, PostgresqlDatabase) and isinstance(pk, (AutoField, BigAutoField)):
            database.execute_sql(
                f"SELECT setval(pg_get_serial_sequence(%s, %s), "
                f'COALESCE((SELECT MAX("{pk.column_name}") FROM "{name}"), 0) + 1, false)',
                (f'"{name}"', pk.column_name),
            )


def restore_backup(
    path: str | Path,
    *,
    force: bool = False,
    keep_current: Path | None = None,
    app_version: str = "",
    progress: Callable[[str], None] | None = None,
    trust: Trust | None = None,
    passphrase: str | None = None,
) -> RestoreResult:
    """Replace the open database's data with the backup at ``path`` — all of it, in one transaction, or nothing.

    The backup's signature is checked first against ``trust`` (default: the open database's municipal keys,
    nothing accepted unsigned). A database that holds data is refused unless ``force``; then, when
    ``keep_current`` is given, a backup of what it held is written there first.
    """
    from models.access import session
    from models.access.signing_keys import key_ring
    from models.store import schema
    from models.store.sealed import Trust

    session.require("backup")
    if trust is None:
        trust = Trust(key_ring())
    backup = read_backup(path, trust=trust, passphrase=passphrase)
    data = _current_tables(backup)
    database = db.obj
    if database is None:
        raise UserError("Nenhum banco de dados aberto.")
    before = database_counts(database)
    url = current_url()
    where = url.display() if url else "o banco de dados"
    if not is_empty(before):
        if not force:
            raise UserError(
                f"{where} já tem dados ({count_text(before)}); a restauração substituiria tudo. "
                "Para substituir, use --force (um backup do banco atual é gravado antes). "
                "Nada foi alterado."
            )
        if keep_current is not None:
            write_backup(keep_current, app_version=app_version, check_role=False)
    tables = _tables()
    # decode everything before the transaction: a value that cannot be read refuses the file untouched
    try:
        for model in tables:
            t = data[model._meta.table_name]
            for row in t.rows:
                for (_c, k), v in zip(t.columns, row, strict=True):
                    _decode(k, v)
    except (ValueError, TypeError) as exc:
        raise _corrupt(backup.path, f"valor ilegível: {exc}") from None
    AUDIT.suspended += 1
    try:
        with database.atomic():
            if isinstance(database, PostgresqlDatabase):  # other desks wait until the restore is over
                names = ", ".join(f'"{m._meta.table_name}"' for m in tables)
                database.execute_sql(f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE")
            if not force and not is_empty(database_counts(database)):  # written meanwhile by another desk
                raise UserError(f"{where} recebeu dados enquanto o backup era conferido; nada foi alterado.")
            from models.store.audit import lift_guards

            lift_guards(database)  # the trail is replaced by the backup's, in this transaction only
            _clear(database, tables)
            _insert(database, tables, data, progress)
            with database.bind_ctx([schema.Meta]):
                schema.Meta.insert(key="schema_version", value=str(schema.LATEST)).on_conflict(
                    conflict_target=[schema.Meta.key], update={schema.Meta.value: str(schema.LATEST)}
                ).execute()
            _audit_restore(database, backup)
    except (IntegrityError, DataError) as exc:  # rolled back: the database is as it was
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BackupError(
            f"O banco de dados recusou o conteúdo de {backup.path.name} ({reason}); nada foi alterado."
        ) from exc
    finally:
        AUDIT.suspended -= 1
    from models.rules import acts

    acts.opened()  # the restored acts, and any this Praça ships that the backup lacks
    return RestoreResult(
        {n: len(t.rows) for n, t in data.items()},
        backup.schema_version,
        before if not is_empty(before) else {},
        keep_current if not is_empty(before) else None,
    )


def _audit_restore(database, backup) -> None:
    """The restored trail is the backup's own; the restore itself is one more entry on it: who, when, which file."""
    from models.access import session
    from models.store.audit import AuditEntry, append, restore_guards, seal_unsealed

    with database.bind_ctx([AuditEntry]):
        seal_unsealed(database)  # a backup from before the chain: its entries are linked in order
        restore_guards(database)
        append(
            table_name="*",
            record_id="",
            action="restore",
            username=session.who(),
            note=f"restaurado o backup {backup.path.name} ({backup.describe()})",
        )


# --------------------------------------------------------------------------- daily backups and their rotation


def rotation_keep(
    dates: Iterable[_dt.date],
    today: _dt.date,
    *,
    daily: int = DAILY_KEEP,
    weekly: int = WEEKLY_KEEP,
    window_days: int = WINDOW_DAYS,
) -> set[_dt.date]:
    """Which backup dates to keep (see the module's docstring for the rule). Pure: no file is touched."""
    ordered = sorted(set(dates), reverse=True)
    keep = set(ordered[:daily])
    weeks: dict[tuple[int, int], _dt.date] = {}
    for day in ordered[daily:]:
        week = tuple(day.isocalendar())[:2]
        if week not in weeks:
            if len(weeks) == weekly:
                break
            weeks[week] = day  # newest first: the first seen is the week's newest
    keep.update(weeks.values())
    window_start = today - _dt.timedelta(days=window_days - 1)
    keep.update(d for d in ordered if d >= window_start)
    return keep


def auto_backup_name(stem: str, day: _dt.date) -> str:
    return f"{AUTO_PREFIX}{stem}-{day:%Y-%m-%d}{SUFFIX}"


def auto_backups(folder: Path, stem: str) -> dict[_dt.date, Path]:
    """The automatic backups of the database ``stem`` in ``folder``, by date."""
    found: dict[_dt.date, Path] = {}
    if not folder.is_dir():
        return found
    for path in folder.iterdir():
        match = _AUTO_NAME.match(path.name)
        if match is None or match.group("stem") != stem or not path.is_file():
            continue
        try:
            found[_dt.date.fromisoformat(match.group("date"))] = path
        except ValueError:
            continue
    return found


#: A database holding less than this share of the data rows of its previous backup "lost most of its rows".
SHRINK_SHARE = 0.5
#: What counts as data for that comparison: not the marker table, nor the trail that only grows.
_NOT_DATA = frozenset({"praca_meta", "audit_entry"})
BACKUP_LOG = "backups.log"


def data_rows(counts: dict[str, int]) -> int:
    """The rows of a backup or a database that are the municipality's data (see :data:`_NOT_DATA`)."""
    return sum(n for table, n in counts.items() if table not in _NOT_DATA)


def manifest_counts(path: Path) -> dict[str, int] | None:
    """The row counts a backup's manifest declares, read without its data; ``None`` for a file that is not
    a readable backup (it is then neither a reference nor protected, and the rotation treats it as before)."""
    try:
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo(MANIFEST)
            if info.file_size > MAX_MANIFEST_BYTES:
                return None
            manifest = json.loads(zf.read(info))
        return {name: int(table["rows"]) for name, table in manifest["tables"].items()}
    except (OSError, KeyError, TypeError, ValueError, zipfile.BadZipFile):
        return None


@dataclass(frozen=True)
class Shrunk:
    """The open database holds much less than its previous backup: said on the desk and in the log."""

    previous: Path
    previous_day: _dt.date
    previous_total: int
    total: int

    @property
    def text(self) -> str:
        return (
            f"O banco de dados perdeu a maior parte dos dados desde o backup de "
            f"{self.previous_day:%d/%m/%Y}: tinha {self.previous_total} registros, tem {self.total}. "
            f"Os backups anteriores foram mantidos (em {self.previous.parent}); se os dados não deviam "
            f"ter sumido, restaure o de {self.previous_day:%d/%m/%Y} ({self.previous.name})."
        )


@dataclass(frozen=True)
class DailyResult:
    written: Path | None
    deleted: tuple[Path, ...]
    shrunk: Shrunk | None = None


def rotate(folder: Path, stem: str, today: _dt.date) -> tuple[Path, ...]:
    """Delete the automatic backups of ``stem`` that :func:`rotation_keep` does not keep — never those that held
    the data: the backups whose data rows are at least :data:`SHRINK_SHARE` of the largest there are kept as
    the rotation would keep them if they were the only ones, so that days of an empty or much smaller database
    never push the last backups with the data out."""
    backups = auto_backups(folder, stem)
    keep = rotation_keep(backups, today)
    totals = {}
    for day, path in backups.items():
        counts = manifest_counts(path)
        if counts is not None:
            totals[day] = data_rows(counts)
    largest = max(totals.values(), default=0)
    if largest:
        keep |= rotation_keep([day for day, total in totals.items() if total >= SHRINK_SHARE * largest], today)
    deleted = []
    for day, path in sorted(backups.items()):
        if day not in keep:
            path.unlink(missing_ok=True)
            deleted.append(path)
    return tuple(deleted)


def _shrunk_since(folder: Path, stem: str, today: _dt.date, total: int) -> Shrunk | None:
    """Compare the database's data rows with its newest readable automatic backup before ``today``."""
    earlier = sorted((day, path) for day, path in auto_backups(folder, stem).items() if day < today)
    for day, path in reversed(earlier):
        counts = manifest_counts(path)
        if counts is None:
            continue
        before = data_rows(counts)
        return Shrunk(path, day, before, total) if before and total < SHRINK_SHARE * before else None
    return None


def _log(folder: Path, line: str) -> None:
    """One line in the backups' log (``backups.log`` beside them): a failure to log never stops a backup."""
    try:
        with (folder / BACKUP_LOG).open("a", encoding="utf-8") as fh:
            fh.write(f"{_dt.datetime.now():%Y-%m-%d %H:%M:%S} {line}\n")
    except OSError:
        pass


def desk_signer():
    """The municipal key when this desk may sign with it, else None (the backup is written unsigned: a daily
    backup is never skipped for want of a key; the Painel says so, and unlocking the desk in this session signs
    it — :func:`seal_pending_backups`; left unsigned, restoring it needs the administrator's acceptance)."""
    from models.access.signing import SigningKeyError
    from models.access.signing_keys import municipal_signer

    try:
        return municipal_signer()
    except SigningKeyError:
        return None


#: The automatic backups this process wrote unsigned (the desk was not unlocked): path → SHA-256 of the file as
#: written. Only these are signed later (:func:`seal_pending_backups`), and only while their bytes are still the
#: ones written — a file changed or put there by anyone else is never signed.
_pending: dict[Path, str] = {}


def unsigned_daily_backup() -> Path | None:
    """Today's automatic backup when this process wrote it unsigned and has not signed it yet (the Painel says so
    and offers to unlock the desk), else None."""
    for path in sorted(_pending, reverse=True):
        if path.is_file():
            return path
    return None


def seal_pending_backups() -> list[Path]:
    """Sign, with the municipal key this desk has just been unlocked with, the automatic backups this process wrote
    unsigned — each only if its bytes are still exactly those written (else it stays unsigned and leaves the list).
    Returns the backups signed. Nothing happens while the desk cannot sign."""
    from models.store.outfile import output
    from models.store.sealed import SIGNATURE, signature_member

    if not _pending:
        return []
    signer = desk_signer()
    if signer is None:
        return []
    signed = []
    for path, digest in list(_pending.items()):
        _pending.pop(path, None)
        try:
            data = path.read_bytes()
            if hashlib.sha256(data).hexdigest() != digest:
                _log(path.parent, f"{path.name}: alterado depois de gravado; não foi assinado")
                continue
            buffer = io.BytesIO()
            with (
                zipfile.ZipFile(io.BytesIO(data)) as source,
                zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as target,
            ):
                for info in source.infolist():
                    target.writestr(info, source.read(info))
                target.writestr(SIGNATURE, signature_member(signer, source.read(MANIFEST)))
            with output(path, kind="zip") as tmp:
                Path(tmp).write_bytes(buffer.getvalue())
        except (OSError, UserError, zipfile.BadZipFile, KeyError) as exc:
            _log(path.parent, f"{path.name}: não foi possível assiná-lo ({exc})")
            continue
        _log(path.parent, f"{path.name} assinado pela chave {signer.key_id} (mesa liberada)")
        signed.append(path)
    return signed


def daily_backup(folder: str | Path, *, today: _dt.date | None = None, app_version: str = "") -> DailyResult:
    """Once a day, a backup of the open embedded database into ``folder``, then the rotation.

    Only the embedded database (SQLite): a PostgreSQL server is backed up on
    the server. Runs for whoever opens Praça (no role needed: it only reads).
    A database that lost most of its rows since the previous backup is reported (``shrunk``, and a line in
    ``backups.log``) and nothing is deleted that day; the rotation keeps the backups with the data after it.
    """
    url = current_url()
    if url is None or url.backend != "sqlite" or url.path in (None, ":memory:"):
        return DailyResult(None, ())
    today = today or _dt.date.today()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = Path(url.path).stem or "praca"
    dest = folder / auto_backup_name(stem, today)
    if dest.exists():
        return DailyResult(None, rotate(folder, stem, today))
    info = write_backup(dest, app_version=app_version, check_role=False, signer=desk_signer())
    if not info.signed_by:
        _pending[dest.resolve()] = hashlib.sha256(dest.read_bytes()).hexdigest()
    shrunk = _shrunk_since(folder, stem, today, data_rows(info.counts))
    if shrunk is not None:
        _log(folder, f"{dest.name}: {shrunk.text}")
        return DailyResult(info.path, (), shrunk)
    deleted = rotate(folder, stem, today)
    removed = f"; removidos pela rotação: {', '.join(p.name for p in deleted)}" if deleted else ""
    _log(folder, f"{dest.name} gravado ({count_text(info.counts)}){removed}")
    return DailyResult(info.path, deleted)


def safety_copy_name(now: _dt.datetime | None = None) -> str:
    """The name of the backup written before a restore replaces a database's data."""
    now = now or _dt.datetime.now()
    return f"antes-da-restauracao-{now:%Y-%m-%d-%H%M%S}{SUFFIX}"
