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

**Writing.** The embedded database (SQLite) is read in one read transaction
on a connection of its own — in WAL mode a consistent snapshot, safe while
Praça runs on this or another desk, and no copy of the data on disk.
PostgreSQL is read in one ``REPEATABLE READ`` transaction (one consistent view
while the other desks keep working). The file is written aside (a
:mod:`models.store.partial` file: owner only, removed by the next run if the
writer is killed) and renamed when complete.

**Reading** is bounded whatever the file holds: at most
:data:`~models.store.backup.format.MAX_BACKUP_BYTES` decompressed, no member
expanding a hundred times, and the data read as a stream of JSON lines, never
whole.

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

The package: :mod:`format` (names, limits, column kinds, the data in memory), :mod:`writing`,
:mod:`reading` (checking a file whole; an older schema brought up to date), :mod:`restore` and :mod:`daily`.
"""

from __future__ import annotations

from models.store.backup.daily import (
    BACKUP_LOG,
    auto_backup_name,
    auto_backups,
    backup_trails,
    checkpoints_beside,
    checkpoints_given,
    daily_backup,
    daily_checkpoint,
    desk_signer,
    forget_pending,
    rotation_keep,
    safety_copy_name,
    seal_pending_backups,
    unsigned_daily_backup,
)
from models.store.backup.format import (
    BackupError,
    count_text,
    suggested_backup_name,
)
from models.store.backup.reading import (
    is_encrypted_file,
    read_backup,
)
from models.store.backup.restore import (
    BrokenTrailError,
    database_counts,
    is_empty,
    restore_backup,
)
from models.store.backup.writing import (
    snapshot_data,
    write_backup,
)

__all__ = [
    "BACKUP_LOG",
    "BackupError",
    "BrokenTrailError",
    "auto_backup_name",
    "auto_backups",
    "backup_trails",
    "checkpoints_beside",
    "checkpoints_given",
    "count_text",
    "daily_backup",
    "daily_checkpoint",
    "database_counts",
    "desk_signer",
    "forget_pending",
    "is_empty",
    "is_encrypted_file",
    "read_backup",
    "restore_backup",
    "rotation_keep",
    "safety_copy_name",
    "seal_pending_backups",
    "snapshot_data",
    "suggested_backup_name",
    "unsigned_daily_backup",
    "write_backup",
]
