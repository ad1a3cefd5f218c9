"""Where Praça keeps its data, and which database it opens by default."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QStandardPaths

ORGANIZATION = "Praca"
APPLICATION = "Praca"
DB_FILE = "praca.sqlite3"


def set_application_names() -> None:
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


def data_dir() -> Path:
    """The user's data folder (QStandardPaths.AppDataLocation), created if missing."""
    set_application_names()
    path = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_url() -> str:
    """``--db`` beats ``PRACA_DB``, which beats the embedded database in the data folder."""
    env = os.environ.get("PRACA_DB", "").strip()
    if env:
        return env
    return f"sqlite:///{data_dir() / DB_FILE}"


def resolve_db_url(explicit: str | None) -> str:
    return explicit.strip() if explicit and explicit.strip() else default_db_url()
