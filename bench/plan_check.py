"""Checking a stall plan of 2.000 stalls against its act: pure Python, no database.

Moved here from the tests (issue 21 §5: no timed assertion in tests/), which keep what these plans must yield.

* ``check_plan`` (:func:`models.sites.layout.check_plan`): 2.000 stalls on both sides of an Olímpia street
  (LC 324/2025, art. 206: the 0,50 m gap, garages kept free) with one garage — what saving a map checks.
  Budget: < 100 ms (it runs on every edit; the test's loose bound was 1 s).
* The map editor's plan (:class:`models.sites.stall_plan.StallPlan`): its breaches, one stall moved onto another, its
  breaches again — what the editor does after each drag. Budget: < 250 ms (the test's loose
  bound was 2 s).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

from bench.common import Figure, at_least, limit_figure, repeated

NAME = "plan_check"
STALLS = 2_000
CHECK_LIMIT = 0.100
EDIT_LIMIT = 0.250


def _olimpia_plan():
    from models.rules.regimes import get_regime
    from models.sites.layout import Obstacle, PlacedStall, Segment

    stalls = []
    for i in range(STALLS):
        side, depth = "ab"[i % 2], D("2")
        stalls.append(
            PlacedStall(
                key=str(i),
                number=i + 1,
                side=side,
                x=D("3.5") * (i // 2),
                y=D(0) if side == "a" else D("8") - depth,
                width=D("3"),
                depth=depth,
            )
        )
    return (
        get_regime("olimpia-2025"),
        Segment(D("3600"), D("8")),
        [Obstacle("a", D("100"), D("10"), "garage")],
        stalls,
    )


def _editor_plan():
    from models.rules.regimes import get_regime
    from models.sites import Plan
    from models.sites.layout import PlacedStall, Segment
    from models.sites.stall_plan import StallPlan

    stalls = []
    for n in range(1, STALLS + 1):
        side, depth = ("a" if n % 2 else "b"), D("2")
        stalls.append(
            PlacedStall(
                key=str(n),
                number=n,
                side=side,
                x=D((n - 1) // 2 * 4),
                y=D(0) if side == "a" else D(10) - depth,
                width=D("3"),
                depth=depth,
                rotation=0 if side == "a" else 180,
                section=None,
                line=None,
            )
        )
    plan = Plan(
        site_id=1,
        segment_id=1,
        regime=get_regime("sjc-2014"),
        segment=Segment(length=D("4100"), width=D("10"), street="Avenida Andrômeda"),
        obstacles=(),
        stalls=tuple(stalls),
        gap=D("0.50"),
        max_points=None,
        numbering="sequential",
        avoid=(),
    )
    return plan, StallPlan


def run(backend: str, repeat: int) -> list[Figure]:
    from models.sites.layout import check_plan

    regime, segment, obstacles, stalls = _olimpia_plan()
    breaches = check_plan(regime, segment, obstacles, stalls)
    assert {b.code for b in breaches} == {"garage"}, breaches[:3]
    check = repeated(lambda: check_plan(regime, segment, obstacles, stalls), at_least(repeat, 5))

    plan_data, StallPlan = _editor_plan()  # noqa: N806 - the class itself, imported late

    def edit():
        plan = StallPlan(replace(plan_data))
        assert plan.breaches() == []
        uid = plan.by_number(10)[0]
        plan.apply(plan.moved([uid], 800, 0, snap=False))
        assert plan.breaches()

    edit()
    edits = repeated(edit, at_least(repeat, 5))
    return [
        limit_figure(f"check_plan of {STALLS} stalls", "—", check, CHECK_LIMIT),
        limit_figure(f"map editor: breaches, a move, breaches ({STALLS} stalls)", "—", edits, EDIT_LIMIT),
    ]
