"""Where Praça keeps its data, and which database it opens by default."""

from __future__ import annotations

import logging
import os
import shutil
import stat
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths

ORGANIZATION = "Praca"
APPLICATION = "Praca"
DB_FILE = "praca.sqlite3"
KEYS_FOLDER = "keys"
BACKUPS_FOLDER = "backups"
#: The data folder holds every record, scan and backup: its owner's only (issue 26 §6).
PRIVATE_FOLDER = 0o700
#: A data folder set for every user of a computer: the Windows installer's "one database for this desk"
#: (``C:\\ProgramData\\Praca``, docs/install-windows.md §4), which every Windows user of the desk reads and writes.
DATA_ENV = "PRACA_DATA"

_log = logging.getLogger(__name__)


def set_application_names() -> None:
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


#: What the first start after the data folder's move said (shown by the window once; the CLI printed it).
moved_notice: str | None = None
_checked_old_place = False


def data_dir() -> Path:
    """The data folder, created if missing: ``PRACA_DATA`` when set (the desk's folder, shared by its Windows
    users), else the user's own ``QStandardPaths.AppLocalDataLocation`` — on Windows ``AppData\\Local\\Praca\\Praca``,
    never the roaming profile that a domain may copy to a file server, where SQLite's write-ahead log breaks; on
    Linux ``~/.local/share/Praca/Praca``. What an earlier place holds is moved here once: Praça kept its data in
    ``AppDataLocation`` before (``AppData\\Roaming`` on Windows), and a desk whose installer now chose one database
    for the desk had one for each user until then."""
    global _checked_old_place, moved_notice
    path = _data_location()
    if not _checked_old_place:
        _checked_old_place = True
        for old in old_data_dirs():
            notice = move_data_folder(old, path)
            if notice:
                moved_notice = notice
                print(f"praca: {notice}", file=sys.stderr)
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    keep_private(path)
    return path


def _shared_data_location() -> Path | None:
    """``PRACA_DATA``, when set."""
    value = os.environ.get(DATA_ENV, "").strip()
    return Path(value) if value else None


def _local_data_location() -> Path:
    set_application_names()
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation))


def _data_location() -> Path:
    set_application_names()
    return _shared_data_location() or _local_data_location()


def keep_private(folder: Path) -> None:
    """``folder`` readable by its owner only (0700): quietly, with a line in the log when it was not (a folder of
    another owner, or a file system without modes, is left as it is)."""
    try:
        mode = stat.S_IMODE(folder.stat().st_mode)
        if os.name == "nt" or mode & 0o077 == 0 or folder.stat().st_uid != os.geteuid():
            return
        os.chmod(folder, PRIVATE_FOLDER)
    except (OSError, AttributeError):
        return
    _log.info("pasta de dados %s: era %s, agora só o dono a lê (0700)", folder, oct(mode))


def backups_dir() -> Path | None:
    """The automatic backups' folder (``<data folder>/backups``), named without creating anything; only the
    automatic backup writes there (``models.store.outfile.protect_folder``)."""
    shared = _shared_data_location()
    if shared is not None:
        return shared / BACKUPS_FOLDER
    set_application_names()
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return Path(location) / BACKUPS_FOLDER if location else None


def old_data_dirs() -> list[Path]:
    """Where the data may have been before: the roaming ``AppDataLocation`` (earlier versions), and — when the
    desk's folder is set (``PRACA_DATA``) — the user's own local folder, first."""
    set_application_names()
    roaming = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    if _shared_data_location() is None:
        return [roaming]
    return [_local_data_location(), roaming]


def move_data_folder(old: Path, new: Path) -> str | None:
    """Move what ``old`` holds into ``new``, entry by entry; say what was done, or ``None`` when nothing was.

    Nothing is lost on the way: an entry is renamed when both folders are on one disk, else copied beside its
    destination, renamed into place and only then removed from ``old``. An entry ``new`` already has is left
    where it is, and so is the whole folder when ``new`` already holds a database: that one stays the one
    opened, and the message names the other."""
    try:
        if not old.is_dir() or old.resolve() == new.resolve():
            return None
    except OSError:
        return None
    entries = sorted(old.iterdir())
    if not entries:
        return None
    if (new / DB_FILE).exists() and (old / DB_FILE).exists():
        return (
            f"há um banco de dados antigo em {old / DB_FILE}; o Praça abre o da pasta nova "
            f"({new / DB_FILE}). O antigo não foi apagado: abra-o pelo menu Arquivo se for o certo."
        )
    new.mkdir(parents=True, exist_ok=True)
    left: list[str] = []
    for entry in entries:
        target = new / entry.name
        if target.exists():
            left.append(entry.name)
            continue
        try:
            _move_entry(entry, target)
        except OSError:
            left.append(entry.name)
    try:
        old.rmdir()  # only when empty
    except OSError:
        pass
    moved = len(entries) - len(left)
    if not moved:
        return None
    text = f"a pasta de dados do Praça foi movida de {old} para {new}"
    if left:
        text += f"; ficaram em {old}, por já existirem na nova pasta ou por erro: {', '.join(left)}"
    return text + "."


def _move_entry(entry: Path, target: Path) -> None:
    try:
        os.replace(entry, target)  # one disk: a rename, nothing copied
        return
    except OSError:
        pass
    partial = target.with_name(target.name + ".moving")
    if partial.exists():
        shutil.rmtree(partial) if partial.is_dir() else partial.unlink()
    try:
        if entry.is_dir():
            shutil.copytree(entry, partial)
        else:
            shutil.copy2(entry, partial)
        os.replace(partial, target)
    except OSError:
        if partial.exists():
            shutil.rmtree(partial, ignore_errors=True) if partial.is_dir() else partial.unlink(missing_ok=True)
        raise
    shutil.rmtree(entry) if entry.is_dir() else entry.unlink()


def protect_backups() -> None:
    """Tell every writer (``models.store.outfile``) that only the automatic backup writes in the data folder's
    ``backups``: called once at start (``desktop/cli.py``, for every command and the window)."""
    from models.store.outfile import protect_folder

    protect_folder(backups_dir)


def keys_dir() -> Path:
    """Where Praça keeps the municipality's signing key pair (``<data folder>/keys``; not created here)."""
    return data_dir() / KEYS_FOLDER


def default_db_url() -> str:
    """``--db`` beats ``PRACA_DB``, which beats the embedded database in the data folder."""
    env = os.environ.get("PRACA_DB", "").strip()
    if env:
        return env
    return f"sqlite:///{data_dir() / DB_FILE}"


def resolve_db_url(explicit: str | None) -> str:
    """``--db URL`` when given, else the default; an empty ``--db ''`` is refused, never read as "default"."""
    if explicit is None:
        return default_db_url()
    if not explicit.strip():
        from models.store.db import DatabaseError

        raise DatabaseError(
            "--db com URL vazia: informe sqlite:///CAMINHO ou "
            "postgresql://usuario@servidor:porta/banco, ou omita --db para usar o banco padrão."
        )
    return explicit.strip()


def open_for_computing(explicit: str | None) -> None:
    """Open the database a computation from the acts reads its recorded values from (fiscal-unit values, index
    corrections): ``--db`` when given (a wrong one is an error), else the default one when it exists. With no
    default database yet the shipped acts are read alone, against an empty database in memory holding them all:
    nothing is created on disk (``praca quote`` and ``praca penalty`` need no set-up)."""
    from models.store.bootstrap import open_database
    from models.store.db import NoDatabase

    url = resolve_db_url(explicit)
    try:
        open_database(url)
    except NoDatabase:
        if explicit is not None:
            raise
        open_database("sqlite:///:memory:", create=True)
        from models.rules import acts

        acts.install_shipped()  # no municipality's database: the acts shipped with Praça, read alone
        acts.forget()


def files_dir() -> Path:
    """Where scanned documents and photos are kept (``<data folder>/files``)."""
    return data_dir() / "files"


def cache_dir() -> Path | None:
    """The user's cache folder (QStandardPaths.CacheLocation): what Praça can always rebuild; ``None`` when the
    system gives none (never the current folder)."""
    set_application_names()
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return Path(location) if location else None


def use_data_folder() -> None:
    """Point the domain's file store at the user's data folder, and its cache at the cache folder."""
    from models.store.cache import set_cache_folder
    from models.store.files import set_store

    set_store(files_dir())
    set_cache_folder(cache_dir())


def installed_regime(explicit_db: str | None, regime_id: str, on=None):
    """The act ``regime_id`` as the database holds it — the version in force on ``on`` (default: today) — read
    from the database a computation would open (:func:`open_for_computing`); the acts shipped with Praça when
    there is none yet (also when ``explicit_db`` names none: bad input is refused before it is opened). The database
    is closed again: the act read is plain data. It is for new work (a sanction proposed, a draw): in a database
    that knows its municipality another town's act is refused in one line (:func:`for_new_work`)."""
    from models.registry.town import for_new_work
    from models.rules.regimes import get_regime
    from models.store.bootstrap import close_database
    from models.store.db import NoDatabase

    try:
        open_for_computing(explicit_db)
    except NoDatabase:  # no database there (yet): the shipped acts judge the input; opening it says the rest
        return get_regime(regime_id, on=on)
    try:
        return for_new_work(regime_id, on=on)
    finally:
        close_database()
