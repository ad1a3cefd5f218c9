"""Writing a backup: a consistent snapshot of either back end, exported, written aside and renamed."""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from peewee import (
    PostgresqlDatabase,
    SqliteDatabase,
)

from models.base.errors import UserError
from models.store.db import current_url, db

if TYPE_CHECKING:
    pass
from models.store.backup.format import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    PAYLOAD,
    TableData,
    backup_tables,
    column_kind,
    encode_value,
)


def export_tables(database) -> tuple[int, dict[str, TableData]]:
    """Every table of the schema, read through the models bound to ``database``."""
    from models.store import schema

    tables = backup_tables()
    out: dict[str, TableData] = {}
    with database.bind_ctx(tables):
        version = schema.read_version(database)
        for model in tables:
            fields = model._meta.sorted_fields
            kinds = [column_kind(f) for f in fields]
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
                data.rows.append([encode_value(k, v) for k, v in zip(kinds, row, strict=True)])
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
        path = str(database.database)
        if path == ":memory:" or path.startswith("file:"):  # nothing else can write it: read it as it is
            with database.atomic():
                return export_tables(database)
        # One read transaction on a connection of its own: in WAL mode it sees one consistent state while this
        # desk and others keep writing — and no copy of the data is ever made on disk (issue 26 §8).
        snap = SqliteDatabase(path, pragmas={"query_only": 1, "busy_timeout": 10000})
        try:
            with snap.atomic():
                return export_tables(snap)
        finally:
            snap.close()
    with database.atomic(isolation_level="REPEATABLE READ"):
        return export_tables(database)


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


def write_file(
    dest: Path,
    manifest: dict,
    payload: bytes,
    *,
    signer=None,
    passphrase: str | None = None,
    automatic: bool = False,
) -> Path:
    """Write the zip aside, read it back, and rename it over ``dest`` when complete (owner only: it holds every
    CPF) — :mod:`models.store.outfile`. ``signer`` signs the manifest (:mod:`models.store.sealed`);
    ``passphrase`` encrypts
    the whole file. ``automatic``: the automatic backup, which alone writes in the data folder's ``backups``."""
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
            write_bytes(dest, encrypt(data, passphrase), kind="bin", backup=True, automatic=automatic)
        else:
            with output(dest, kind="zip", backup=True, automatic=automatic) as tmp:
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


def _check_dest(dest: Path, automatic: bool = False) -> Path:
    dest = Path(dest).expanduser()
    folder = dest.parent.resolve()
    if not folder.is_dir():
        raise UserError(f"A pasta {folder} não existe: crie-a ou escolha outro caminho para {dest.name}.", field="out")
    if dest.is_dir():
        raise UserError(f"{dest} é uma pasta: informe o nome do arquivo de backup.", field="out")
    from models.store.outfile import resolve_target

    resolve_target(dest, backup=True, automatic=automatic)  # refused before the database is read (outfile.protected)
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
    automatic: bool = False,
) -> BackupInfo:
    """Write a backup of the open database to ``dest`` (either back end), signed by ``signer`` when given and
    encrypted with ``passphrase`` when given (:mod:`models.store.sealed`). ``signer`` may be a function that returns
    it (or None), called after the checks. ``automatic``: the daily backup, or the copy kept before a restore —
    the only backups written in the data folder's ``backups`` (:mod:`models.store.outfile`)."""
    from models.access import session

    if check_role:
        session.require("backup")
    dest = _check_dest(Path(dest), automatic)
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
    checkpoint = _checkpoint(tables)
    if checkpoint is not None:  # the trail's head as the backup holds it, signed: it leaves the database here
        manifest["audit_checkpoint"] = checkpoint.to_json()
    write_file(dest, manifest, payload, signer=signer, passphrase=passphrase, automatic=automatic)
    if checkpoint is not None:
        _keep_checkpoint(checkpoint, dest.parent if automatic else None)
    return BackupInfo(
        dest,
        version,
        manifest["source_backend"],
        {n: len(t.rows) for n, t in tables.items()},
        signer.key_id if signer is not None else "",
        passphrase is not None,
    )


def _checkpoint(tables: dict[str, TableData]):
    """A checkpoint of the last audit entry the snapshot holds (None for an empty trail)."""
    from models.store import checkpoints

    trail = tables.get("audit_entry")
    if trail is None or not trail.rows:
        return None
    names = trail.column_names
    last = trail.rows[-1]
    return checkpoints.make("backup", at_head=(int(last[names.index("id")]), last[names.index("hash")]), store=False)


def _keep_checkpoint(checkpoint, folder: Path | None) -> None:
    """The backup's checkpoint kept in the database too, and (an automatic backup) in the file beside it. A
    failure here never fails the backup already written: its manifest holds the checkpoint."""
    from peewee import DatabaseError as PeeweeError

    from models.store import checkpoints

    try:
        checkpoints.keep(checkpoint)
    except PeeweeError:
        pass
    if folder is not None:
        try:
            checkpoints.append_file(folder, checkpoint)
        except OSError:
            pass


def backup_sqlite(dest: str | Path) -> Path:
    """Kept for callers of the first version: a backup of the open database (now in the portable format)."""
    return write_backup(dest).path
