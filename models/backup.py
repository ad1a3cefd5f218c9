"""Backups of the embedded database (SQLite online backup API: safe while Praça runs)."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from peewee import SqliteDatabase

from models.db import db, sqlite_backup
from models.errors import UserError


def suggested_backup_name(today: _dt.date | None = None) -> str:
    today = today or _dt.date.today()
    return f"praca-backup-{today:%Y-%m-%d}.sqlite3"


def backup_sqlite(dest: str | Path) -> Path:
    """Copy the open SQLite database to ``dest`` with the online backup API."""
    database = db.obj
    if not isinstance(database, SqliteDatabase):
        raise UserError("O backup por este menu é do banco embutido (SQLite); "
                        "para o PostgreSQL use a exportação do Praça.")
    dest = Path(dest)
    if dest.resolve() == Path(database.database).resolve():
        raise UserError("Escolha outro arquivo: o backup não pode sobrescrever o próprio banco.")
    dest.parent.mkdir(parents=True, exist_ok=True)
    return sqlite_backup(database, dest)
