"""Municipality settings kept in the database (one row per key)."""

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
    AGENCY: "Prefeitura Municipal",
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


def municipality_label() -> str:
    """'Olímpia/SP' or '' when not configured yet."""
    name = get_setting(MUNICIPALITY)
    state = get_setting(STATE)
    if name and state:
        return f"{name}/{state}"
    return name


def own_regime_ids(regimes) -> list[str]:
    """The ids of ``regimes`` whose act is the municipality's set in Cadastros → Configurações (the town's own
    acts, issue 18 §5), compared without accents or case; none while no municipality is set."""
    from models.base.text import search_key

    town = search_key(get_setting(MUNICIPALITY))
    if not town:
        return []
    return sorted(r.id for r in regimes if search_key(r.municipality) == town)


def letterhead(regime) -> dict[str, str]:
    """The letterhead of a document of ``regime``'s act: that act's municipality (a São Bento receipt never says
    Olímpia), and the agency set in Configurações only where it is that municipality's own."""
    place = f"{regime.municipality}/{regime.state}" if regime.state else regime.municipality
    own = get_setting(MUNICIPALITY).strip().casefold() == regime.municipality.strip().casefold()
    agency = get_setting(AGENCY) if own else ""
    return {"municipality": place, "agency": agency or f"Prefeitura Municipal de {regime.municipality}"}
