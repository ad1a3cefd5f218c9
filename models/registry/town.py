"""Which town: the municipality this copy of Praça serves, whether a regime or a city is that town, and the acts
the database works under.

Read by the front desk (residence, municipal registration), by the printed permit (the agency's name) and by every
screen and command that starts new work under an act (:func:`working_regimes`, :func:`for_new_work`).
"""

from __future__ import annotations

import datetime as dt

from models.base.errors import UserError
from models.base.text import search_key
from models.rules.regimes import Regime, get_regime, shipped_regimes
from models.store.settings import MUNICIPALITY, STATE, get_setting

__all__ = ["NotThisTownsAct", "for_new_work", "serves", "town_key", "working_regimes"]


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


def working_regimes() -> dict[str, Regime]:
    """The acts this database works under — the only ones offered for new work (a new application, a price
    simulation, a site, an infraction recorded, an import, a call, ``praca quote|penalty|deadline|draw``), by id.

    Its installed acts not retired (:func:`shipped_regimes`) and, once the database knows its municipality
    (issue 31 §1), only that municipality's: a database filled before then holds every shipped act, and what was
    done under another town's act stays readable (:func:`get_regime`), but nothing new starts under it. While the
    municipality is not set, every installed act (the first steps ask for it)."""
    regimes = shipped_regimes()
    if not get_setting(MUNICIPALITY):
        return regimes
    return {regime_id: regime for regime_id, regime in regimes.items() if serves(regime)}


class NotThisTownsAct(UserError):  # noqa: N818 - a UserError: the message is for the user
    """New work asked under an act that is not the municipality's own."""


def for_new_work(regime_id: str, on: dt.date | None = None) -> Regime:
    """The act ``regime_id`` (its version in force on ``on``) for new work — refused in one line when it is another
    town's act (or a retired one) in a database that knows its municipality (:func:`working_regimes`)."""
    regime = get_regime(regime_id, on=on)  # an unknown id says so, with the ids there are
    home = get_setting(MUNICIPALITY)
    if not home or (serves(regime) and regime.id in shipped_regimes()):
        return regime
    own = ", ".join(sorted(working_regimes())) or "nenhum instalado"
    state = get_setting(STATE)
    here = f"{home}/{state}" if state else home
    raise NotThisTownsAct(
        f"O ato {regime.id} é de {regime.municipality}/{regime.state}, não de {here}: trabalho novo só nos atos "
        f"do município ({own}).",
        field="regime",
    )
