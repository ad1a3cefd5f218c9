"""Reading a backup file and checking it whole before anything is touched; an older schema brought up to date."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from peewee import (
    SqliteDatabase,
)

from models.store.archive import ZipLimits, check_zip, megabytes, read_member
from models.store.db import AUDIT

if TYPE_CHECKING:
    from models.store.sealed import Trust
from models.store.backup.format import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    MAX_BACKUP_BYTES,
    MAX_MANIFEST_BYTES,
    PAYLOAD,
    Backup,
    BackupError,
    TableData,
    backup_tables,
    column_kind,
    decode_value,
    storage_value,
)
from models.store.backup.writing import export_tables

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


def corrupt(path: Path | None, why: str) -> BackupError:
    name = path.name if path else "O arquivo"
    return BackupError(f"{name} está corrompido ({why}); nada foi alterado.")


def _check_manifest(manifest, path: Path) -> dict:
    from models.store import schema

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_ours(path)
    fmt = manifest.get("format_version")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise corrupt(path, "versão de formato ilegível")
    if fmt > FORMAT_VERSION:
        raise BackupError(
            f"{path.name} foi gravado por um Praça mais novo (formato de backup versão {fmt}; "
            f"este Praça lê até a versão {FORMAT_VERSION}). Atualize o Praça; nada foi alterado."
        )
    version = manifest.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise corrupt(path, "versão de esquema ilegível")
    if version > schema.LATEST:
        raise BackupError(
            f"{path.name} é de um Praça mais novo (esquema versão {version}); este Praça conhece "
            f"até a versão {schema.LATEST}. Atualize o Praça; nada foi alterado."
        )
    tables = manifest.get("tables")
    if not isinstance(tables, dict) or "praca_meta" not in tables:
        raise corrupt(path, "lista de tabelas ausente")
    for name, info in tables.items():
        ok = (
            isinstance(info, dict)
            and isinstance(info.get("rows"), int)
            and info["rows"] >= 0
            and isinstance(info.get("columns"), list)
            and all(isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c) for c in info["columns"])
        )
        if not ok:
            raise corrupt(path, f"descrição da tabela {name} ilegível")
    if not isinstance(manifest.get("payload_sha256"), str):
        raise corrupt(path, "soma de verificação ausente")
    return manifest


#: What a backup may hold once decompressed: its manifest and its data (JSON lines compress 5 to 20 times; a
#: "zip bomb" a thousand times or more), and no data line longer than a row can be.
BACKUP_LIMITS = ZipLimits(
    "o backup",
    max_entries=16,
    max_entry_bytes=MAX_BACKUP_BYTES,
    max_total_bytes=MAX_BACKUP_BYTES + MAX_MANIFEST_BYTES + 64 * 1024,
    max_ratio=100,
)
MAX_ROW_BYTES = 1024 * 1024


def _check_declared_size(manifest: dict, size: int, path: Path) -> None:
    """The data's size as the zip declares it must be the manifest's, and within what its rows can take."""
    declared = manifest.get("payload_bytes")
    if declared is not None and declared != size:
        raise corrupt(path, f"os dados têm {size} bytes e o manifesto diz {declared}")
    rows = sum(info["rows"] for info in manifest["tables"].values())
    if size > (rows + 1) * MAX_ROW_BYTES:
        raise corrupt(path, f"{megabytes(size)} de dados para {rows} linhas")


def is_encrypted_file(path: str | Path) -> bool:
    """Whether ``path`` is an encrypted backup (its passphrase is needed to read it)."""
    from models.store.sealed import MAGIC, is_encrypted

    try:
        with Path(path).expanduser().open("rb") as fh:
            return is_encrypted(fh.read(len(MAGIC)))
    except OSError:
        return False


def current_limits() -> ZipLimits:
    """:data:`BACKUP_LIMITS` with today's :data:`MAX_BACKUP_BYTES` (a test may lower it)."""
    if BACKUP_LIMITS.max_entry_bytes == MAX_BACKUP_BYTES:
        return BACKUP_LIMITS
    return dataclasses.replace(
        BACKUP_LIMITS, max_entry_bytes=MAX_BACKUP_BYTES, max_total_bytes=MAX_BACKUP_BYTES + MAX_MANIFEST_BYTES
    )


def read_backup(
    path: str | Path, *, trust: Trust | None = None, passphrase: str | None = None, rows: bool = True
) -> Backup:
    """Open and check a backup file completely; any problem is one ``BackupError`` line.

    With ``trust`` the signature is checked first, before anything else of the file is read, and a backup it
    cannot prove is refused unless ``trust.accept_unsigned`` (:mod:`models.store.sealed`). An encrypted backup needs
    its ``passphrase``.

    Bounded whatever the file holds (issue 26 §8): what the zip declares is checked first (:data:`MAX_BACKUP_BYTES`
    decompressed, no member expanding a hundred times), then the data is read as a stream, one JSON line at a
    time — once for its SHA-256, once for its rows — never whole. ``rows=False`` (a check, the question before a
    restore) keeps only the counts; a restore keeps the rows."""
    from models.store.sealed import SIGNATURE, check_seal, decrypt

    path = Path(path).expanduser()
    if not path.exists():
        raise BackupError(f"Arquivo não encontrado: {path}.")
    if path.is_dir():
        raise BackupError(f"{path} é uma pasta, não um backup do Praça.")
    source: Path | io.BytesIO = path
    encrypted = is_encrypted_file(path)
    if encrypted:
        size = path.stat().st_size
        if size > MAX_BACKUP_BYTES:  # decrypted in memory: never more than the limit
            raise BackupError(
                f"{path.name}: o backup tem {megabytes(size)} (o limite é {megabytes(MAX_BACKUP_BYTES)}); não foi lido."
            )
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise corrupt(path, f"ilegível: {exc.strerror or exc}") from None
        source = io.BytesIO(decrypt(raw, passphrase, path.name))
    if not zipfile.is_zipfile(source):
        raise _not_ours(path)
    seal = None
    try:
        with zipfile.ZipFile(source) as zf:
            names = set(zf.namelist())
            if MANIFEST not in names:
                raise _not_ours(path)
            check_zip(zf, name=path.name, limits=current_limits())  # a zip bomb stops here, before any byte is read
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
                raise corrupt(path, "dados ausentes")
            size = zf.getinfo(member).file_size
            _check_declared_size(manifest, size, path)
            if _payload_digest(zf, member) != manifest["payload_sha256"]:
                raise corrupt(path, "a soma de verificação SHA-256 não confere")
            tables, counts = _parse_payload(zf, member, manifest, path, keep=rows)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error) as exc:
        raise corrupt(path, f"zip ilegível: {exc}") from None
    return Backup(path, manifest, tables, seal, encrypted, counts)


def _payload_digest(zf: zipfile.ZipFile, member: str) -> str:
    """The SHA-256 of the data member, read in pieces."""
    digest = hashlib.sha256()
    with zf.open(member) as fh:
        while block := fh.read(1024 * 1024):
            digest.update(block)
    return digest.hexdigest()


def data_lines(zf: zipfile.ZipFile, member: str, path: Path | None):
    """The data member's lines, one at a time, none longer than a row can be (:data:`MAX_ROW_BYTES`)."""
    with zf.open(member) as fh:
        number = 0
        while line := fh.readline(MAX_ROW_BYTES + 2):
            number += 1
            if not line.endswith(b"\n") and len(line) > MAX_ROW_BYTES:
                raise corrupt(path, f"a linha {number} dos dados passa de {megabytes(MAX_ROW_BYTES)}")
            yield number, line


def _parse_payload(
    zf: zipfile.ZipFile, member: str, manifest: dict, path: Path | None, *, keep: bool = True
) -> tuple[dict[str, TableData], dict[str, int]]:
    """The data's rows by table (kept only when ``keep``) and how many each table has, checked against the
    manifest."""
    tables = {
        name: TableData(name, info.get("primary_key"), [tuple(c) for c in info["columns"]])
        for name, info in manifest["tables"].items()
    }
    counts = dict.fromkeys(tables, 0)
    for number, raw in data_lines(zf, member, path):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise corrupt(path, "texto fora de UTF-8") from None
        if not line.strip():
            continue
        try:
            name, row = json.loads(line)
        except (ValueError, TypeError):
            raise corrupt(path, f"linha {number} dos dados ilegível") from None
        data = tables.get(name) if isinstance(name, str) else None
        if data is None or not isinstance(row, list) or len(row) != len(data.columns):
            raise corrupt(path, f"linha {number} dos dados não confere com a tabela {name}")
        counts[name] += 1
        if keep:
            data.rows.append(row)
    for name in tables:
        if counts[name] != manifest["tables"][name]["rows"]:
            raise corrupt(
                path,
                f"a tabela {name} tem {counts[name]} linhas e o manifesto diz {manifest['tables'][name]['rows']}",
            )
    return tables, counts


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
                        values = [
                            storage_value(k, decode_value(k, v)) for (_c, k), v in zip(data.columns, row, strict=True)
                        ]
                        scratch.execute_sql(f'INSERT INTO "{name}" ({columns}) VALUES ({marks})', values)
            AUDIT.suspended += 1
            try:
                schema.apply_migrations(scratch, backup.schema_version)
            finally:
                AUDIT.suspended -= 1
            version, tables = export_tables(scratch)
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


def current_tables(backup: Backup) -> dict[str, TableData]:
    """The backup's tables at the current schema version, each checked against its model."""
    from models.store import schema

    tables = _upgrade(backup) if backup.schema_version < schema.LATEST else backup.tables
    for model in backup_tables():
        name = model._meta.table_name
        data = tables.get(name)
        expected = [(f.column_name, column_kind(f)) for f in model._meta.sorted_fields]
        if data is None:
            raise corrupt(backup.path, f"falta a tabela {name} do esquema versão {schema.LATEST}")
        if data.columns != expected:
            if sorted(data.columns) != sorted(expected):
                raise corrupt(
                    backup.path, f"as colunas da tabela {name} não conferem com o esquema versão {schema.LATEST}"
                )
            order = [data.column_names.index(c) for c, _k in expected]
            data = TableData(name, data.primary_key, expected, [[row[i] for i in order] for row in data.rows])
            tables[name] = data
    unknown = set(tables) - {m._meta.table_name for m in backup_tables()}
    if unknown:
        raise corrupt(backup.path, f"tabelas desconhecidas: {', '.join(sorted(unknown))}")
    return tables
