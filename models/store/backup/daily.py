"""The daily backup of the embedded database, its rotation, its log, and signing it once the desk can sign."""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from models.base.errors import UserError
from models.store import partial
from models.store.db import current_url

if TYPE_CHECKING:
    pass
from models.store.backup.format import (
    AUTO_NAME,
    AUTO_PREFIX,
    DAILY_KEEP,
    MANIFEST,
    MAX_MANIFEST_BYTES,
    SUFFIX,
    WEEKLY_KEEP,
    WINDOW_DAYS,
    count_text,
)
from models.store.backup.writing import write_backup

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
        week = (day.isocalendar().year, day.isocalendar().week)
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
        match = AUTO_NAME.match(path.name)
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


def forget_pending() -> None:
    """Forget the backups waiting to be signed (a new session of the desk, or a test, starts with none)."""
    _pending.clear()


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
            with output(path, kind="zip", backup=True, automatic=True) as tmp:
                Path(tmp).write_bytes(buffer.getvalue())
        except (OSError, UserError, zipfile.BadZipFile, KeyError) as exc:
            _log(path.parent, f"{path.name}: não foi possível assiná-lo ({exc})")
            continue
        _log(path.parent, f"{path.name} assinado pela chave {signer.key_id} (mesa liberada)")
        signed.append(path)
    if signed:  # the day's checkpoint of the trail was unsigned too: signed now, beside the backups
        daily_checkpoint(signed[0].parent)
    return signed


def daily_backup(folder: str | Path, *, today: _dt.date | None = None, app_version: str = "") -> DailyResult:
    """Once a day, a backup of the open embedded database into ``folder``, then the rotation; and, on either back
    end, the day's checkpoint of the audit trail (:func:`daily_checkpoint`)."""
    result = _daily_backup(folder, today=today, app_version=app_version)
    daily_checkpoint(folder, today=today)
    return result


def daily_checkpoint(folder: str | Path, *, today: _dt.date | None = None):
    """The day's signed checkpoint of the trail (:func:`models.store.checkpoints.ensure_daily`), kept in the
    database and in the file beside the backups. A failure is logged beside the backups, never raised."""
    from peewee import DatabaseError as PeeweeError

    from models.store import checkpoints

    if current_url() is None:
        return None
    try:
        made = checkpoints.ensure_daily(today)
        if made is not None:
            checkpoints.append_file(folder, made)
        return made
    except (PeeweeError, OSError) as exc:
        _log(Path(folder), f"ponto de controle da trilha não gravado: {exc}")
        return None


def _daily_backup(folder: str | Path, *, today: _dt.date | None = None, app_version: str = "") -> DailyResult:
    """Once a day, a backup of the open embedded database into ``folder``, then the rotation.

    Only the embedded database (SQLite): a PostgreSQL server is backed up on
    the server. Runs for whoever opens Praça (no role needed: it only reads).
    A database that lost most of its rows since the previous backup is reported (``shrunk``, and a line in
    ``backups.log``) and nothing is deleted that day; the rotation keeps the backups with the data after it.
    """
    folder = Path(folder)
    for left in partial.sweep(folder):  # a backup killed half-way, at the last start (issue 26 §8)
        _log(folder, f"{left.name}: arquivo parcial de um backup interrompido, removido")
    url = current_url()
    if url is None or url.backend != "sqlite" or url.path in (None, ":memory:"):
        return DailyResult(None, ())
    today = today or _dt.date.today()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)  # every CPF of the town: the owner's only
    stem = Path(url.path).stem or "praca"
    dest = folder / auto_backup_name(stem, today)
    if dest.exists():
        return DailyResult(None, rotate(folder, stem, today))
    info = write_backup(dest, app_version=app_version, check_role=False, signer=desk_signer(), automatic=True)
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


# ------------------------------------------------------------------- the trail's checkpoints outside the database


def manifest_checkpoint(path: Path):
    """The checkpoint a backup's manifest holds (``audit_checkpoint``), read without its data: a
    :class:`~models.store.checkpoints.Found` (empty for a backup without one; an encrypted backup is not read)."""
    from models.store.checkpoints import Checkpoint, Found

    try:
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo(MANIFEST)
            if info.file_size > MAX_MANIFEST_BYTES:
                return Found((), (f"{path.name}: manifesto grande demais",))
            manifest = json.loads(zf.read(info))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return Found()
    data = manifest.get("audit_checkpoint") if isinstance(manifest, dict) else None
    if data is None:
        return Found()
    try:
        return Found((Checkpoint.from_json(data, f"backup {path.name}"),))
    except (ValueError, TypeError):
        return Found((), (f"{path.name}: ponto de controle ilegível no manifesto",))


def checkpoints_beside(folder: str | Path) -> list:
    """Every checkpoint kept outside the database in ``folder`` (the data folder's ``backups``): the file of the
    open database's checkpoints and each backup's manifest."""
    from models.store import checkpoints

    folder = Path(folder)
    found = []
    anchor = checkpoints.anchor_file(folder)
    if anchor.is_file():
        found.append(checkpoints.read_file(anchor))
    if folder.is_dir():
        for path in sorted(folder.glob(f"*{SUFFIX}")):
            if path.is_file():
                found.append(manifest_checkpoint(path))
    return found


def checkpoints_given(path: str | Path):
    """The checkpoints of a file the administrator gives (``praca audit verify --checkpoint``): a checkpoint file
    or a backup. They count whatever database they name (``found_in`` marked with ``!``)."""
    import dataclasses

    from models.store import checkpoints

    path = Path(path).expanduser()
    if not path.is_file():
        raise UserError(f"Arquivo de pontos de controle não encontrado: {path}.", field="checkpoint")
    found = manifest_checkpoint(path) if zipfile.is_zipfile(path) else checkpoints.read_file(path)
    if not found.checkpoints and not found.unreadable:
        raise UserError(f"{path.name} não tem pontos de controle da trilha de auditoria.", field="checkpoint")
    return dataclasses.replace(
        found, checkpoints=tuple(dataclasses.replace(c, found_in="!" + c.found_in) for c in found.checkpoints)
    )


def backup_trail(path: Path) -> tuple[str, dict[int, str]] | None:
    """The audit entries (number → hash) of a backup in the data folder, as a reference to name the first entry
    of the open database that was rewritten since — only when the backup proves its own trail: a chain that
    follows up to the checkpoint of its manifest, signed by a key of the open database. None otherwise (an
    encrypted, unreadable or unproven backup). Streamed: only the trail's lines are kept."""
    from models.access.signing_keys import key_ring
    from models.store.archive import check_zip
    from models.store.audit import check_rows
    from models.store.backup.reading import current_limits, data_lines
    from models.store.checkpoints import Checkpoint, signature_status

    try:
        with zipfile.ZipFile(path) as zf:
            check_zip(zf, name=path.name, limits=current_limits())
            info = zf.getinfo(MANIFEST)
            if info.file_size > MAX_MANIFEST_BYTES:
                return None
            manifest = json.loads(zf.read(info))
            pinned = Checkpoint.from_json(manifest["audit_checkpoint"])
            if signature_status(pinned, key_ring()) != "valid":
                return None
            columns = [c for c, _k in manifest["tables"]["audit_entry"]["columns"]]
            rows = []
            for _number, raw in data_lines(zf, manifest.get("payload", "data.jsonl"), path):
                if not raw.startswith(b'["audit_entry"'):
                    continue
                _table, values = json.loads(raw)
                rows.append(dict(zip(columns, values, strict=True)))
    except (OSError, KeyError, TypeError, ValueError, UserError, zipfile.BadZipFile):
        return None
    rows.sort(key=lambda row: row["id"])
    upto = [row for row in rows if row["id"] <= pinned.entry]
    state = check_rows(upto)
    hashes = {row["id"]: row["hash"] for row in upto}
    if not state.intact or hashes.get(pinned.entry) != pinned.hash:
        return None
    return path.name, hashes


def backup_trails(folder: str | Path, given: list | tuple = ()):
    """The proven trails of the backups in ``folder`` and of the backups given, newest file first."""
    paths = [Path(p) for p in given if zipfile.is_zipfile(p)]
    folder = Path(folder)
    if folder.is_dir():
        paths += sorted(folder.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in paths:
        trail = backup_trail(path)
        if trail is not None:
            yield trail
