"""Municipality settings kept in the database (one row per key).

The municipality's identity built on them — and the letterheads — is :mod:`models.registry.municipality`."""

from __future__ import annotations

from peewee import CharField, TextField

from models.access.session import require
from models.store.db import BaseModel, db

MUNICIPALITY = "municipality"
STATE = "state"
AGENCY = "agency"

DEFAULTS = {
    MUNICIPALITY: "",
    STATE: "",
    AGENCY: "",  # "" : the letterhead says "Prefeitura Municipal de <name>" (models.registry.municipality)
}


class Setting(BaseModel):
    key = CharField(primary_key=True, max_length=64)
    value = TextField(default="")

    class Meta:
        table_name = "setting"


def get_setting(key: str) -> str:
    row = Setting.get_or_none(Setting.key == key)
    return row.value if row is not None else DEFAULTS.get(key, "")


def set_settings(values: dict[str, str]) -> None:
    """Write several settings in one transaction."""
    require("settings.edit")
    with db.atomic():
        for key, value in values.items():
            write_setting(key, value)


def write_setting(key: str, value: str) -> None:
    """One setting written (the caller checked who may change it)."""
    Setting.insert(key=key, value=value.strip()).on_conflict(
        conflict_target=[Setting.key], update={Setting.value: value.strip()}
    ).execute()
