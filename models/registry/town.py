"""Which town: the municipality this copy of Praça serves, and whether a regime or a city is that town.

Read by the front desk (residence, municipal registration) and by the printed permit (the agency's name).
"""

from __future__ import annotations

from models.base.text import search_key
from models.rules.regimes import Regime
from models.store.settings import MUNICIPALITY, get_setting

__all__ = ["serves", "town_key"]


def town_key(name: str) -> str:
    """A town's name as compared: no accents, no case, single spaces."""
    return search_key(name)


def serves(regime: Regime) -> bool:
    """True when the regime is the act of the municipality this copy of Praça serves.

    "Resident since" and the municipal registration Praça keeps are about that
    municipality; for another town's act they say nothing (demo data mixes the
    five acts in one database).
    """
    home = get_setting(MUNICIPALITY)
    return bool(home) and town_key(home) == town_key(regime.municipality)
