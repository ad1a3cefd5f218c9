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
    from models.store.checkpoints import Checkpoint
    from models.store.sealed import Trust
from models.store.backup.format import BackupError, TableData, backup_tables, count_text, decode_value
from models.store.backup.reading import corrupt, current_tables, read_backup
from models.store.backup.writing import write_backup

# --------------------------------------------------------------------------- restoring


class BrokenTrailError(BackupError):
    """The backup's audit trail is broken (``where``): refused unless the administrator accepts it."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where


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
    broken_trail: str = ""  # where the restored trail is broken (accepted by the administrator), "" when intact
    checkpoint: Checkpoint | None = None  # the checkpoint of the restored trail made after the restore

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
    accept_broken_trail: bool | Callable[[str], bool] = False,
) -> RestoreResult:
    """Replace the open database's data with the backup at ``path`` — all of it, in one transaction, or nothing.

    The backup's signature is checked first against ``trust`` (default: the open database's municipal keys,
    nothing accepted unsigned). A database that holds data is refused unless ``force``; then, when
    ``keep_current`` is given, a backup of what it held is written there first.

    The backup's audit trail is checked too (:func:`trail_break`): a broken chain is never re-linked, and such a
    backup is refused unless ``accept_broken_trail`` (the administrator's decision: True, or a function asked with
    where the trail breaks that says yes — the confirmation of the command line and the window); the restore then
    records in
    the trail that the restored trail was broken, and where.
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
    broken = trail_break(backup, data)
    # only the administrator restores (the "backup" act): accepting a broken trail is theirs alone
    accepted = accept_broken_trail(broken) if broken and callable(accept_broken_trail) else accept_broken_trail
    if broken and not accepted:
        raise BrokenTrailError(
            broken,
            f"{backup.path.name if backup.path else 'O backup'} traz uma trilha de auditoria rompida: {broken} "
            "Restaurá-lo não a conserta. Para restaurar mesmo assim, o administrador usa --accept-broken-trail e "
            "confirma (a restauração registra na trilha que ela estava rompida, e onde). Nada foi alterado.",
        )
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
            replaced = _head_before(database)
            lift_guards(database)  # the trail is replaced by the backup's, in this transaction only
            _clear(database, tables)
            _insert(database, tables, data, progress)
            with database.bind_ctx([schema.Meta]):
                for key, value in (("schema_version", str(schema.LATEST)), (DATABASE_ID_KEY, identity)):
                    # the database keeps its own identity: a login made on the backup's database is not one here
                    schema.Meta.insert(key=key, value=value).on_conflict(
                        conflict_target=[schema.Meta.key], update={schema.Meta.value: value}
                    ).execute()
            _audit_restore(database, backup, broken, replaced)
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
    from models.store import checkpoints

    try:  # the restored trail and its restore entry, pinned at once (signed when this desk can sign)
        checkpoint = checkpoints.make("restore")
    except (IntegrityError, DataError):
        checkpoint = None
    return RestoreResult(
        {n: len(t.rows) for n, t in data.items()},
        backup.schema_version,
        before if not is_empty(before) else {},
        keep_current if not is_empty(before) else None,
        broken,
        checkpoint,
    )


#: The schema version whose backups carry a checkpoint in their manifest (models.store.checkpoints).
_CHECKPOINTS_SINCE = 23


def trail_break(backup, data: dict[str, TableData]) -> str:
    """Where the backup's audit trail is broken — its chain (:func:`models.store.audit.check_rows`) or the
    checkpoint its manifest holds — as one pt-BR sentence; ``""`` when it is intact."""
    from models.store.audit import check_rows
    from models.store.checkpoints import Checkpoint

    trail = data.get("audit_entry")
    if trail is None:
        return ""
    names = trail.column_names
    kinds = [k for _c, k in trail.columns]
    rows = (
        dict(zip(names, (decode_value(k, v) for k, v in zip(kinds, row, strict=True)), strict=True))
        for row in trail.rows
    )
    state = check_rows(rows)
    if not state.intact:
        return f"no registro nº {state.first_bad}, que {state.reason}"
    pinned = backup.manifest.get("audit_checkpoint") if backup.schema_version >= _CHECKPOINTS_SINCE else None
    if pinned is not None:
        try:
            checkpoint = Checkpoint.from_json(pinned)
        except (ValueError, TypeError):
            return "o ponto de controle do manifesto está ilegível."
        at = {row[names.index("id")]: row[names.index("hash")] for row in trail.rows}
        if at.get(checkpoint.entry) != checkpoint.hash:
            return (
                f"o registro nº {checkpoint.entry} não confere com o ponto de controle do próprio backup "
                "(registros apagados ou reescritos depois de gravado)."
            )
    return ""


def _head_before(database) -> str:
    """The head of the trail a restore replaces, as the restore entry records it."""
    row = database.execute_sql('SELECT "id", "hash" FROM "audit_entry" ORDER BY "id" DESC LIMIT 1').fetchone()
    if row is None:
        return ""
    return f"a trilha substituída terminava no registro nº {row[0]} (hash {row[1]})"


def _audit_restore(database, backup, broken: str, replaced: str) -> None:
    """The restored trail is the backup's own, never re-linked (a backup from before the chain was linked by its
    migration, :func:`models.store.schema._v16_audit_chain`); the restore itself is one more entry on it: who,
    when, which file, the head of the trail it replaced — and, when the administrator accepted a broken one,
    that it is broken and where."""
    from models.access import session
    from models.store.audit import AuditEntry, append, restore_guards

    note = f"restaurado o backup {backup.path.name if backup.path else ''} ({backup.describe()})"
    if replaced:
        note += f"; {replaced}"
    if broken:
        note += f"; A TRILHA RESTAURADA ESTÁ ROMPIDA (aceito pelo administrador): {broken}"
    with database.bind_ctx([AuditEntry]):
        restore_guards(database)
        append(
            table_name="*",
            record_id="",
            action="restore",
            username=session.who(),
            author_confirmed=True,  # before the users were replaced (restore_backup)
            note=note,
        )
