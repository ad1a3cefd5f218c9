"""Restoring a checked backup onto the open database, in one transaction, of either back end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from peewee import (
    AutoField,
    BigAutoField,
    DataError,
    ForeignKeyField,
    IntegrityError,
    PostgresqlDatabase,
)

from models.base.errors import UserError
from models.store.db import AUDIT, DATABASE_ID_KEY, current_url, db, new_database_id, read_database_id

if TYPE_CHECKING:
    from models.store.sealed import Trust
from models.store.backup.format import BackupError, TableData, backup_tables, count_text, decode_value
from models.store.backup.reading import corrupt, current_tables, read_backup
from models.store.backup.writing import write_backup

# --------------------------------------------------------------------------- restoring


def database_counts(database=None) -> dict[str, int]:
    """Rows per table of the open database."""
    database = database if database is not None else db.obj
    tables = backup_tables()
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
            values = [decode_value(k, v) for k, v in zip(kinds, row, strict=True)]
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
    data = current_tables(backup)
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
            write_backup(keep_current, app_version=app_version, check_role=False, automatic=True)
    tables = backup_tables()
    # decode everything before the transaction: a value that cannot be read refuses the file untouched
    try:
        for model in tables:
            t = data[model._meta.table_name]
            for row in t.rows:
                for (_c, k), v in zip(t.columns, row, strict=True):
                    decode_value(k, v)
    except (ValueError, TypeError) as exc:
        raise corrupt(backup.path, f"valor ilegível: {exc}") from None
    AUDIT.suspended += 1
    try:
        with database.atomic():
            if isinstance(database, PostgresqlDatabase):  # other desks wait until the restore is over
                names = ", ".join(f'"{m._meta.table_name}"' for m in tables)
                database.execute_sql(f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE")
            if not force and not is_empty(database_counts(database)):  # written meanwhile by another desk
                raise UserError(f"{where} recebeu dados enquanto o backup era conferido; nada foi alterado.")
            from models.store.audit import lift_guards

            session.confirm("backup")  # still an active administrator of this database, in this transaction
            identity = read_database_id(database) or new_database_id()
            lift_guards(database)  # the trail is replaced by the backup's, in this transaction only
            _clear(database, tables)
            _insert(database, tables, data, progress)
            with database.bind_ctx([schema.Meta]):
                for key, value in (("schema_version", str(schema.LATEST)), (DATABASE_ID_KEY, identity)):
                    # the database keeps its own identity: a login made on the backup's database is not one here
                    schema.Meta.insert(key=key, value=value).on_conflict(
                        conflict_target=[schema.Meta.key], update={schema.Meta.value: value}
                    ).execute()
            _audit_restore(database, backup)
    except (IntegrityError, DataError) as exc:  # rolled back: the database is as it was
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BackupError(
            f"O banco de dados recusou o conteúdo de {backup.path.name if backup.path else 'cópia'} ({reason}); "
            "nada foi alterado."
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
            author_confirmed=True,  # before the users were replaced (restore_backup)
            note=f"restaurado o backup {backup.path.name} ({backup.describe()})",
        )
