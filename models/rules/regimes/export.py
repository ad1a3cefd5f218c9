"""A regime as JSON-ready data (``praca regimes --show ID --json``), each item with its full citation."""

from __future__ import annotations

import datetime as dt
from dataclasses import fields, is_dataclass
from decimal import Decimal
from typing import Any

from models.rules.regimes.model import Infraction, Section
from models.rules.regimes.regime import Regime

_ID_ATTRS = ("id", "code")


def _jsonable(regime: Regime, value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat(timespec="minutes") if isinstance(value, (dt.datetime, dt.time)) else value.isoformat()
    if isinstance(value, tuple):
        return [_jsonable(regime, item) for item in value]
    if is_dataclass(value):
        out: dict[str, Any] = {}
        for f in fields(value):
            if not f.init:
                continue
            item = getattr(value, f.name)
            if item is None or item == () or (f.name == "source"):
                continue
            name = f.name.rstrip("_")
            out[name] = _jsonable(regime, item)
        basis = getattr(value, "basis", None)
        if basis:
            out["article"] = regime.cite(basis, getattr(value, "basis_act", None))
        if isinstance(value, Infraction):
            # for an infraction, "article" is the article infringed (the field of
            # the format); the article that sets the penalty is "penalty_article"
            out["penalty_article"] = out["article"]
            out["article"] = regime.cite(value.article)
            out["infringed"] = value.article
        if isinstance(value, Section) and value.fire_rules_basis:
            out["fire_rules_article"] = regime.cite(value.fire_rules_basis)
        return out
    return value


def regime_to_dict(regime: Regime) -> dict[str, Any]:
    """Everything in the regime as JSON-ready data (for ``praca regimes --show ID --json``).

    Every item with a ``basis`` also carries ``article``: its full citation
    (``"Dec. 4.794/2026, art. 9º, § 2º"``) — for an infraction, the article
    infringed, with the penalty's own citation in ``penalty_article``. ``ids``
    gathers every id other commands take, by kind; ``venues`` and
    ``energy_tiers`` list those rows at top level, with their fee id.
    """
    data: dict[str, Any] = _jsonable(regime, regime)  # a dataclass: a dict
    for f in fields(regime):  # top-level collections are always present, even empty
        if f.init and f.name != "source" and isinstance(getattr(regime, f.name), tuple):
            data.setdefault(f.name, [])
    data.pop("equipment_kinds", None)
    data["equipment"] = [_jsonable(regime, e) for e in regime.equipment_kinds]
    data["citation"] = regime.short
    data["title"] = regime.title
    data["venues"] = [
        dict(_jsonable(regime, venue), fee=fee.id) for fee in regime.fees for venue in fee.venue_choices()
    ]
    data["energy_tiers"] = [
        dict(_jsonable(regime, tier), fee=fee.id) for fee in regime.fees for tier in fee.energy_tiers()
    ]
    data["ids"] = {
        "equipment": [e.id for e in regime.equipment_kinds],
        "lines": [line.id for line in regime.lines],
        "sections": [s.id for s in regime.sections],
        "groups": [g.id for g in regime.groups],
        "permit_kinds": [p.id for p in regime.permit_kinds],
        "documents": [d.id for d in regime.documents],
        "fees": [f.id for f in regime.fees],
        "venues": [v.id for f in regime.fees for v in f.venue_choices()],
        "energy": ["none"] + [t.id for f in regime.fees for t in f.energy_tiers()],
        "schedules": [s.id for s in regime.schedules],
        "sites": [s.id for s in regime.sites],
        "infractions": [i.code for i in regime.infractions],
        "ladders": [ladder.id for ladder in regime.ladders],
        "deadlines": [d.id for d in regime.deadlines],
        "units": [u.code for u in regime.units],
        "indexes": [x.code for x in regime.indexes],
        "prohibitions": [p.id for p in regime.prohibitions],
        "duties": [d.id for d in regime.duties],
    }
    return data
