"""Where Praça keeps its data, and which database it opens by default."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths

ORGANIZATION = "Praca"
APPLICATION = "Praca"
DB_FILE = "praca.sqlite3"
KEYS_FOLDER = "keys"


def set_application_names() -> None:
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


def data_dir() -> Path:
    """The user's data folder (QStandardPaths.AppDataLocation), created if missing."""
    set_application_names()
    path = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    path.mkdir(parents=True, exist_ok=True)
    return path


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
        from models.db import DatabaseError

        raise DatabaseError("--db com URL vazia: informe sqlite:///CAMINHO ou "
                            "postgresql://usuario@servidor:porta/banco, ou omita --db para usar o banco padrão.")
    return explicit.strip()


def open_for_computing(explicit: str | None) -> None:
    """Open the database a computation from the acts reads its recorded values from (fiscal-unit values, index
    corrections): ``--db`` when given (a wrong one is an error), else the default one when it exists. With no
    default database yet the acts are read alone, against an empty database in memory: nothing is created on
    disk (``praca quote`` and ``praca penalty`` need no set-up)."""
    from models.db import NoDatabase, open_database

    url = resolve_db_url(explicit)
    try:
        open_database(url)
    except NoDatabase:
        if explicit is not None:
            raise
        open_database("sqlite:///:memory:", create=True)


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
    from models.cache import set_cache_folder
    from models.files import set_store

    set_store(files_dir())
    set_cache_folder(cache_dir())
