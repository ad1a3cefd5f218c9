"""The draws held, as the Seleção desk lists them."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, cast

from peewee import fn

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.selection.draws import (
    Draw,
    DrawEntry,
    get_draw,
    list_draws,
    verify_draw,
)
from models.services.calls.options import place_label

# --------------------------------------------------------------------------- draws held


@dataclass(frozen=True)
class DrawRow:
    """One kept draw for the list "Sorteios realizados", checked again (``verify_draw``)."""

    id: int
    held_at: _dt.datetime
    regime_id: str
    regime_label: str
    call: str
    site_label: str
    place: str
    status: str
    status_label: str
    seed: str
    list_sha256: str
    participants: int
    holders: int
    problems: tuple[str, ...]
    replaced_by: int | None
    replaces: int | None
    annul_reason: str

    @property
    def check_text(self) -> str:
        return "confere" if not self.problems else "NÃO CONFERE"

    @property
    def situation(self) -> str:
        text = self.status_label
        if self.replaced_by:
            text += f" — substituído pelo nº {self.replaced_by}"
        if self.replaces:
            text += f" — substitui o nº {self.replaces}"
        return text


def draw_row(draw: Draw | int) -> DrawRow:
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    try:
        regime = get_regime(draw.regime)
        regime_label, site_label = (
            f"{regime.municipality}/{regime.state} — {regime.short}",
            place_label(regime, draw.site),
        )
    except UserError:  # a regime file removed since: show the ids
        regime_label, site_label = draw.regime, draw.site
    counts = {
        role: n
        for role, n in cast(
            Any,
            DrawEntry.select(DrawEntry.role, fn.COUNT(DrawEntry.id))
            .where(DrawEntry.draw == draw.id)
            .group_by(DrawEntry.role)
            .tuples(),
        )
    }
    previous = Draw.get_or_none(Draw.replaced_by == draw.id)
    return DrawRow(
        id=draw.id,
        held_at=draw.held_at,
        regime_id=draw.regime,
        regime_label=regime_label,
        call=draw.call,
        site_label=site_label,
        place=draw.place,
        status=draw.status,
        status_label=draw.status_label,
        seed=draw.seed,
        list_sha256=draw.list_sha256,
        participants=sum(n for role, n in counts.items() if role != "excluded"),
        holders=counts.get("holder", 0),
        problems=tuple(verify_draw(draw)),
        replaced_by=draw.replaced_by_id,
        replaces=previous.id if previous else None,
        annul_reason=draw.annul_reason,
    )


def draw_rows(*, limit: int = 200) -> list[DrawRow]:
    """The kept draws, newest first, each checked again against its list and seed."""
    return [draw_row(d) for d in list_draws(limit=limit)]
