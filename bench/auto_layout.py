"""Auto-layout of 500 stalls (Mapas → Distribuir automaticamente): pure Python, no database.

Praça: :func:`models.sites.layout.auto_layout` — two feiras, each of 500 stalls:
the São José dos Campos night feira (Lei 9.158/2014: 28 sections on their
sides in the legal order, sizes by line, the gap) on a street with garages and
crossings, and an Olímpia street (LC 324/2025, art. 206: 0,50 m gap, garages
and crossings kept free) with a garage every 13 m. The figure is the slower
feira's median. Budget: < 100 ms.
"""

from __future__ import annotations

import functools
import random
import statistics
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

from bench.common import Figure, at_least, limit_figure, repeated

NAME = "auto_layout"
LIMIT = 0.100
STALLS = 500


def sjc_feira(seed: int = 20261130):
    from models.rules.regimes import get_regime
    from models.sites.layout import Obstacle, Segment, StallRequest

    regime = get_regime("sjc-2014")
    rng = random.Random(seed)
    requests = []
    for i in range(STALLS):
        section = regime.sections[rng.randrange(len(regime.sections))]
        line = regime.line(section.lines[0])
        sized = line.front is None
        requests.append(
            StallRequest(
                key=f"s{i:03d}",
                section=section.id,
                line=line.id,
                front=D(rng.choice(["2.00", "2.50", "3.00"])) if sized else None,
                depth=D("2.50") if sized else None,
                holder=f"2026/{i + 1:05d}",
            )
        )
    obstacles = [Obstacle("a" if k % 2 else "b", D(37 * k), D("3.00"), "garage") for k in range(1, 60)]
    obstacles += [Obstacle("both", D(400 * k), D("10.00"), "crossing") for k in range(1, 5)]
    return regime, Segment(D("2400"), D("12"), street="Avenida Andrômeda"), obstacles, requests


def olimpia_street():
    from models.rules.regimes import get_regime
    from models.sites.layout import Obstacle, Segment, StallRequest

    regime = get_regime("olimpia-2025")
    requests = [StallRequest(key=f"k{i:03d}", front=D("3"), depth=D("2")) for i in range(STALLS)]
    obstacles = [Obstacle("a", D(13 * i), D("3"), "garage") for i in range(1, 60)]
    obstacles += [Obstacle("both", D(300 * k), D("8"), "crossing") for k in range(1, 4)]
    return regime, Segment(D("1400"), D("8"), street="Avenida Aurora Forti Neves"), obstacles, requests


def run(backend: str, repeat: int) -> list[Figure]:
    from models.sites.layout import auto_layout

    worst = None
    for name, (regime, segment, obstacles, requests) in (("SJC", sjc_feira()), ("Olímpia", olimpia_street())):
        layout = auto_layout(regime, segment, obstacles, requests)
        assert len(layout.stalls) + len(layout.unplaced) == STALLS, name
        times = repeated(functools.partial(auto_layout, regime, segment, obstacles, requests), at_least(repeat, 7))
        placed = len(layout.stalls)
        if worst is None or statistics.median(times) > statistics.median(worst[1]):
            worst = (name, times, placed)
    name, times, placed = worst
    return [
        limit_figure(
            f"auto-layout of {STALLS} stalls (slower feira)",
            "—",
            times,
            LIMIT,
            detail=f"slower: {name}, {placed} placed",
        )
    ]
