"""models/sites/layout.py: the legal auto-layout (properties) and every live check of a plan."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.sites.layout import (
    Obstacle,
    PlacedStall,
    Segment,
    StallRequest,
    auto_layout,
    check_plan,
    resolve_gap,
    to_mm,
)

SJC = get_regime("sjc-2014")
OLIMPIA = get_regime("olimpia-2025")
SAPEZAL = get_regime("sapezal-2014")
SAO_BENTO = get_regime("sao-bento-2026")
ILHA = get_regime("ilha-comprida-2017")


def metres(lo: int, hi: int, step: int = 50):
    """Decimal metres between lo and hi centimetres, on a step of ``step`` cm."""
    return st.integers(lo // step, hi // step).map(lambda n: D(n * step) / 100)


# --------------------------------------------------------------------------- an oracle, pairwise (slow but obvious)


def footprint(s: PlacedStall):
    x0, y0, x1, y1 = s.footprint
    return to_mm(x0), to_mm(y0), to_mm(x1), to_mm(y1)


def pairwise_problems(stalls, gap_mm):
    """(overlaps, gaps) found by comparing every pair: the oracle the sweep is checked against."""
    overlaps, gaps = set(), set()
    for i, a in enumerate(stalls):
        ax0, ay0, ax1, ay1 = footprint(a)
        for b in stalls[i + 1 :]:
            bx0, by0, bx1, by1 = footprint(b)
            if ay0 >= by1 or by0 >= ay1:
                continue
            pair = frozenset((a.key, b.key))
            if ax0 < bx1 and bx0 < ax1:
                overlaps.add(pair)
            elif min(abs(bx0 - ax1), abs(ax0 - bx1)) < gap_mm:
                gaps.add(pair)
    return overlaps, gaps


# --------------------------------------------------------------------------- strategies


OBSTACLE_KINDS = ["garage", "crossing", "bus-stop", "hydrant", "tree", "school-gate"]


@st.composite
def scenarios(draw):
    regime = draw(st.sampled_from([SJC, OLIMPIA, SAPEZAL, SAO_BENTO]))
    sides = draw(st.sampled_from(["one", "both"]))
    length = draw(metres(1000, 30000, 100))
    width = draw(metres(300, 1600, 50))
    segment = Segment(length=length, width=width, sides=sides)
    obstacles = []
    for _ in range(draw(st.integers(0, 6))):
        start = draw(metres(0, int(length * 100) - 100, 10))
        extent = draw(metres(10, 800, 10))
        obstacles.append(
            Obstacle(
                side=draw(st.sampled_from(["a", "b", "both"])),
                start=start,
                extent=min(extent, length - start),
                kind=draw(st.sampled_from(OBSTACLE_KINDS)),
            )
        )
    requests = []
    n = draw(st.integers(0, 40))
    for i in range(n):
        if regime.sections:
            section = draw(st.sampled_from(regime.sections))
            line = SJC.line(section.lines[0])
            if line.front is None:
                front, depth = draw(metres(100, 400)), draw(metres(100, 300))
            else:
                front, depth = None, None
            requests.append(StallRequest(key=f"k{i}", section=section.id, front=front, depth=depth))
        else:
            end_vendor = (
                regime.layout is not None
                and regime.layout.end_vendors is not None
                and draw(st.booleans())
                and i % 3 == 0
            )
            if end_vendor:
                requests.append(StallRequest(key=f"k{i}", end_vendor=True))
            else:
                requests.append(
                    StallRequest(
                        key=f"k{i}",
                        front=draw(metres(100, 600)),
                        depth=draw(metres(100, 300)),
                        hitch=draw(st.sampled_from([D(0), D(0), D("1.20")])),
                    )
                )
    gap = None
    if regime.layout and regime.layout.min_gap and regime.layout.min_gap.admin_defined:
        gap = draw(st.sampled_from([None, D("0.50"), D("1.00")]))
    elif draw(st.booleans()):
        legal = regime.layout.min_gap.value if regime.layout and regime.layout.min_gap else D(0)
        gap = legal + draw(metres(0, 100, 25))
    numbering = draw(st.sampled_from(["sequential", "odd-even"]))
    avoid = draw(st.sampled_from([(), ("hydrant",), ("tree", "bus-stop")]))
    return regime, segment, obstacles, requests, gap, numbering, avoid


COMMON = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@COMMON
@given(scenarios())
def test_auto_layout_is_legal(case):
    regime, segment, obstacles, requests, gap, numbering, avoid = case
    layout = auto_layout(regime, segment, obstacles, requests, gap=gap, numbering=numbering, avoid=avoid)
    gap_mm = to_mm(layout.gap)
    stalls = list(layout.stalls)

    # every request exactly once: placed or said why not
    placed_keys = [s.key for s in stalls]
    unplaced_keys = [u.key for u in layout.unplaced]
    assert sorted(placed_keys + unplaced_keys) == sorted(r.key for r in requests)
    assert all(u.reason for u in layout.unplaced)

    # no overlaps and every gap at least the minimum (pairwise oracle)
    overlaps, gaps = pairwise_problems(stalls, gap_mm)
    assert not overlaps
    assert not gaps
    legal_gap = (
        regime.layout.min_gap.value if regime.layout and regime.layout.min_gap and regime.layout.min_gap.value else D(0)
    )
    assert layout.gap >= legal_gap

    # inside the street, on a side it uses
    for s in stalls:
        x0, y0, x1, y1 = footprint(s)
        assert 0 <= x0 and x1 <= to_mm(segment.length) and 0 <= y0 and y1 <= to_mm(segment.width)
        assert s.side in segment.sides_used

    # never on a crossing nor in front of a garage where the regime says so, nor on what the site avoids
    kept_free = set(avoid)
    if regime.layout and regime.layout.no_crossings:
        kept_free.add("crossing")
    if regime.layout and regime.layout.keep_garages_free:
        kept_free.add("garage")
    for s in stalls:
        x0, _, x1, _ = footprint(s)
        for o in obstacles:
            if o.kind in kept_free and o.side in (s.side, "both"):
                assert x1 <= to_mm(o.start) or x0 >= to_mm(o.end), (s, o)

    # section order kept on each side, sections on their own side, one run per section
    sections = {sec.id: sec for sec in regime.sections}
    for side in ("a", "b"):
        row = sorted((s for s in stalls if s.side == side), key=lambda s: s.x)
        orders = [sections[s.section].order for s in row if s.section]
        assert orders == sorted(orders)
        for s in row:
            if s.section and sections[s.section].side:
                assert sections[s.section].side == side
        runs = [s.section for i, s in enumerate(row) if s.section and (i == 0 or row[i - 1].section != s.section)]
        assert len(runs) == len(set(runs))

    # numbering
    numbers = [s.number for s in stalls]
    assert len(set(numbers)) == len(numbers)
    for side in ("a", "b"):
        row = sorted((s for s in stalls if s.side == side), key=lambda s: s.x)
        assert [s.number for s in row] == sorted(s.number for s in row)
        if numbering == "odd-even" and row:
            assert {s.number % 2 for s in row} == {1 if side == "a" else 0}
    if numbering == "sequential":
        assert sorted(numbers) == list(range(1, len(stalls) + 1))

    # the live checks agree: a layout made by the rules breaks none of them
    assert check_plan(regime, segment, obstacles, stalls, gap=gap, avoid=avoid) == []

    # the shortfall is said exactly when something did not fit for lack of street
    no_room = [u for u in layout.unplaced if u.reason.startswith("não coube")]
    if no_room:
        assert layout.shortfall > 0
        assert "Faltam" in layout.summary()
    else:
        assert layout.shortfall == 0

    # deterministic
    again = auto_layout(regime, segment, obstacles, list(requests), gap=gap, numbering=numbering, avoid=avoid)
    assert again == layout


@COMMON
@given(scenarios(), st.data())
def test_check_plan_overlaps_and_gaps_match_the_pairwise_oracle(case, data):
    regime, segment, obstacles, requests, gap, numbering, avoid = case
    layout = auto_layout(regime, segment, obstacles, requests, gap=gap, numbering=numbering, avoid=avoid)
    stalls = list(layout.stalls)
    # the clerk drags some stalls about
    for i in range(len(stalls)):
        if data.draw(st.booleans()):
            dx = data.draw(st.integers(-800, 800)) * D("0.01")
            stalls[i] = replace(stalls[i], x=max(D(0), stalls[i].x + dx))
    breaches = check_plan(regime, segment, obstacles, stalls, gap=gap, avoid=avoid)
    overlaps, gaps = pairwise_problems(stalls, to_mm(layout.gap))
    assert {frozenset(b.keys) for b in breaches if b.code == "overlap"} == overlaps
    assert {frozenset(b.keys) for b in breaches if b.code == "gap"} == gaps


# --------------------------------------------------------------------------- auto-layout, by example


def sjc_requests(per_section=1):
    out = []
    for section in SJC.sections:
        line = SJC.line(section.lines[0])
        for k in range(per_section):
            out.append(
                StallRequest(
                    key=f"{section.id}-{k}",
                    section=section.id,
                    front=None if line.front else D("3.00"),
                    depth=None if line.front else D("2.50"),
                )
            )
    return out


def test_sjc_sections_on_their_sides_in_order():
    layout = auto_layout(SJC, Segment(D("400"), D("10")), [], sjc_requests(2))
    assert layout.fits and layout.shortfall == 0
    side_a = [s.section for s in sorted(layout.stalls, key=lambda s: s.x) if s.side == "a"]
    side_b = [s.section for s in sorted(layout.stalls, key=lambda s: s.x) if s.side == "b"]
    assert list(dict.fromkeys(side_a)) == ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
    assert next(iter(dict.fromkeys(side_b))) == "x" and list(dict.fromkeys(side_b))[-1] == "xxviii"
    assert len(set(side_b)) == 19
    # sizes by line (art. 5º): pastel 12 × 3,5, fruit 10 × 3,5
    pastel = next(s for s in layout.stalls if s.section == "xvi")
    assert (pastel.width, pastel.depth, pastel.line) == (D("12.000"), D("3.500"), "pastel")
    # side B against its kerb, facing the middle
    assert pastel.y == D("10") - D("3.5") and pastel.rotation == 180
    assert any("art. 8º, § 2º" in (n.basis or "") for n in layout.notes)


def test_sjc_on_a_one_sided_street_leaves_the_other_sides_sections_out():
    layout = auto_layout(SJC, Segment(D("400"), D("10"), sides="one"), [], sjc_requests())
    assert {s.section for s in layout.stalls} == {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"}
    out = {u.key: u for u in layout.unplaced}
    assert len(out) == 19
    assert "Seção X fica no lado B" in out["x-0"].reason
    assert out["x-0"].basis == "Lei 9.158/2014, art. 8º, § 2º"


def test_too_short_says_by_how_many_metres_and_which_stalls():
    requests = [StallRequest(key=f"B{i}", front=D("4.00"), depth=D("2.00")) for i in range(1, 6)]
    layout = auto_layout(OLIMPIA, Segment(D("20"), D("6"), sides="one"), [], requests)
    # 5 × 4,00 m + 4 × 0,50 m (art. 206, I) = 22,00 m on a 20,00 m street
    assert [s.key for s in layout.stalls] == ["B1", "B2", "B3", "B4"]
    assert layout.shortfall == D("2.000")
    assert [u.key for u in layout.unplaced] == ["B5"]
    assert layout.summary().startswith("Faltam 2,00 m de rua (lado A: 2,00 m).")
    assert "B5 — não coube no lado A" in layout.summary()


def test_shortfall_counts_the_obstacles_in_the_way():
    requests = [StallRequest(key=f"B{i}", front=D("4.00"), depth=D("2.00")) for i in range(1, 4)]
    crossing = Obstacle("both", D("5.00"), D("8.00"), "crossing")
    layout = auto_layout(OLIMPIA, Segment(D("15"), D("8"), sides="one"), [crossing], requests)
    # B1 at 0–4; the crossing 5–13 pushes B2 to 13–17, past the end; B3 would end at 21,50
    assert [s.key for s in layout.stalls] == ["B1"]
    assert layout.shortfall == D("6.500")


def test_numbering_odd_even_and_sequential():
    requests = [StallRequest(key=f"k{i}", front=D("3"), depth=D("2")) for i in range(6)]
    seg = Segment(D("10"), D("8"))
    odd_even = auto_layout(SAPEZAL, seg, [], requests, numbering="odd-even")
    by_side = {side: [s.number for s in sorted(odd_even.stalls, key=lambda s: s.x) if s.side == side] for side in "ab"}
    assert by_side == {"a": [1, 3, 5], "b": [2, 4, 6]}
    sequential = auto_layout(SAPEZAL, seg, [], requests)
    assert [(s.side, s.number) for s in sequential.stalls] == [
        ("a", 1),
        ("a", 2),
        ("a", 3),
        ("b", 4),
        ("b", 5),
        ("b", 6),
    ]
    with pytest.raises(UserError, match="Numeração desconhecida"):
        auto_layout(SAPEZAL, seg, [], requests, numbering="zigzag")


def test_crossings_and_garages_kept_free_only_where_the_act_says_so():
    obstacles = [Obstacle("a", D("2.00"), D("3.00"), "garage"), Obstacle("both", D("9.00"), D("6.00"), "crossing")]
    requests = [StallRequest(key=f"k{i}", front=D("3"), depth=D("2")) for i in range(4)]
    seg = Segment(D("40"), D("8"), sides="one")
    olimpia = auto_layout(OLIMPIA, seg, obstacles, requests)
    spans = [(s.x, s.x + s.width) for s in olimpia.stalls]
    assert spans == [
        (D("5.000"), D("8.000")),
        (D("15.000"), D("18.000")),
        (D("18.500"), D("21.500")),
        (D("22.000"), D("25.000")),
    ]
    notes = " ".join(f"{n.text} {n.basis}" for n in olimpia.notes)
    assert "art. 206, IV" in notes and "art. 206, II" in notes
    # SJC's act says nothing of garages or crossings: the stalls run on
    sjc = auto_layout(SJC, seg, obstacles, [StallRequest(key="k", section="i")])
    assert sjc.stalls[0].x == 0
    # a site may keep more free (the Administration's choice)
    hydrant = auto_layout(
        SAPEZAL,
        seg,
        [Obstacle("a", D("1"), D("1"), "hydrant")],
        [StallRequest(key="k", front=D("3"), depth=D("2"))],
        avoid=("hydrant",),
    )
    assert hydrant.stalls[0].x == D("2")


def test_trailer_takes_its_hitch():
    requests = [
        StallRequest(key="t1", equipment="trailer", front=D("4.50"), depth=D("2.20"), hitch=D("1.20")),
        StallRequest(key="b1", equipment="barraca", front=D("3.00"), depth=D("3.00")),
    ]
    layout = auto_layout(SAO_BENTO, Segment(D("50"), D("8")), [], requests, gap=D("1.00"))
    trailer, tent = layout.stalls
    assert trailer.length == D("5.700")
    assert tent.x == D("6.700")  # 4,50 + 1,20 of hitch (art. 9º, § 1º) + 1,00 of gap (art. 11, § 4º)
    assert any("art. 11, § 4º" in (n.basis or "") for n in layout.notes)


def test_gap_from_the_act_or_from_the_administration():
    assert resolve_gap(OLIMPIA, None)[:2] == (D("0.500"), "LC 324/2025, art. 206, I")
    assert resolve_gap(OLIMPIA, D("0.80"))[0] == D("0.800")
    with pytest.raises(UserError, match="menor que o mínimo legal de 0,50 m"):
        resolve_gap(OLIMPIA, D("0.30"))
    value, basis, how = resolve_gap(SAO_BENTO, None)
    assert value == 0 and basis == "Dec. 4.794/2026, art. 11, § 4º" and "Administração" in how
    assert resolve_gap(SAO_BENTO, D("1.5"))[0] == D("1.500")
    assert resolve_gap(SJC, None)[0] == 0


def test_end_vendors_at_the_ends_at_least_one_metre_away():
    requests = [StallRequest(key=f"e{i}", end_vendor=True) for i in range(3)] + [
        StallRequest(key=f"k{i}", front=D("3"), depth=D("2")) for i in range(4)
    ]
    layout = auto_layout(SAPEZAL, Segment(D("40"), D("6"), sides="one"), [], requests)
    assert layout.fits
    by_key = {s.key: s for s in layout.stalls}
    regular = [s for s in layout.stalls if not s.end_vendor]
    first = min(s.x for s in regular)
    last = max(s.x + s.width for s in regular)
    for key in ("e0", "e1", "e2"):
        s = by_key[key]
        assert (s.width, s.depth) == (D("2.000"), D("1.000"))  # art. 68: 2,00 × 1,00 m
        assert s.x + s.width + 1 <= first or s.x >= last + 1
    assert by_key["e0"].x == 0 and by_key["e1"].x == last + 1  # head, tail, head again
    assert check_plan(SAPEZAL, Segment(D("40"), D("6"), sides="one"), [], layout.stalls) == []
    bigger = auto_layout(
        SAPEZAL,
        Segment(D("40"), D("6")),
        [],
        [StallRequest(key="e", end_vendor=True, front=D("2.50"), depth=D("1.00"))],
    )
    assert "maior que o máximo" in bigger.unplaced[0].reason and "art. 68" in bigger.unplaced[0].basis
    none = auto_layout(OLIMPIA, Segment(D("40"), D("6")), [], [StallRequest(key="e", end_vendor=True)])
    assert "não prevê comércio nas pontas" in none.unplaced[0].reason


def test_requests_the_layout_cannot_take():
    requests = [
        StallRequest(key="big", section="iv", front=D("9.00"), depth=D("3.50")),  # banana: 8,00 × 3,50
        StallRequest(key="nosize", section="vi"),  # biscoitos: no size in the act
        StallRequest(key="ghost", section="xxix"),
        StallRequest(key="deep", section="vi", front=D("3"), depth=D("12")),
    ]
    layout = auto_layout(SJC, Segment(D("100"), D("10")), [], requests)
    reasons = {u.key: u for u in layout.unplaced}
    assert "maior que o tamanho do ramo Banana" in reasons["big"].reason
    assert reasons["big"].basis == "Lei 9.158/2014, art. 5º, II"
    assert reasons["nosize"].reason.startswith("sem medidas")
    assert "não existe" in reasons["ghost"].reason
    assert "maior que a largura da via" in reasons["deep"].reason
    with pytest.raises(UserError, match="repetida"):
        auto_layout(SJC, Segment(D("100"), D("10")), [], [StallRequest(key="a", section="i")] * 2)


def test_max_points_leave_the_rest_out():
    requests = [StallRequest(key=f"k{i:02d}", front=D("1.50"), depth=D("0.80")) for i in range(62)]
    layout = auto_layout(ILHA, Segment(D("300"), D("5")), [], requests)
    assert len(layout.stalls) == 60  # Dec. 890/2017, art. 22
    assert [u.key for u in layout.unplaced] == ["k60", "k61"]
    assert layout.unplaced[0].basis == "Dec. 890/2017, art. 22"
    assert layout.shortfall == 0


def test_opposite_stalls_too_deep_to_face_each_other_are_staggered():
    requests = [StallRequest(key=f"{s}{i}", section=s) for s in ("i", "x") for i in range(2)]
    requests = [r if r.section == "i" else replace(r, front=D("3"), depth=D("3")) for r in requests]
    seg = Segment(D("60"), D("6"))  # 3,50 + 3,00 > 6,00
    layout = auto_layout(SJC, seg, [], requests)
    assert layout.fits
    assert check_plan(SJC, seg, [], layout.stalls) == []
    b = [s for s in layout.stalls if s.side == "b"]
    assert min(s.x for s in b) >= D("16")
    assert any("não sobra passagem" in n.text for n in layout.notes)


def test_five_hundred_stalls_all_placed():  # how fast: bench/auto_layout.py
    requests = [StallRequest(key=f"k{i}", front=D("3"), depth=D("2")) for i in range(500)]
    obstacles = [Obstacle("a", D(13 * i), D("3"), "garage") for i in range(1, 60)]
    layout = auto_layout(OLIMPIA, Segment(D("1200"), D("8")), obstacles, requests)
    assert len(layout.stalls) == 500


# --------------------------------------------------------------------------- check_plan, each breach


def stall(key, x, *, side="a", width="3", depth="2", number=None, y=None, **kw):
    width, depth = D(width), D(depth)
    if y is None:
        y = D(0) if side == "a" else D("8") - depth
    return PlacedStall(
        key=key,
        number=number or int("".join(c for c in key if c.isdigit()) or 0),
        side=side,
        x=D(x),
        y=D(y),
        width=width,
        depth=depth,
        **kw,
    )


SEG = Segment(D("60"), D("8"))


def codes(breaches):
    return sorted(b.code for b in breaches)


def test_overlap_detected_and_touching_is_not():
    plan = [stall("1", "0"), stall("2", "2.5"), stall("3", "5.5")]
    breaches = check_plan(SJC, SEG, [], plan)
    assert codes(breaches) == ["overlap"]
    assert breaches[0].keys == ("1", "2") and "0,50 m" in breaches[0].message
    # opposite sides do not overlap: different rows
    assert check_plan(SJC, SEG, [], [stall("1", "0"), stall("2", "0", side="b")]) == []


def test_gap_below_the_minimum():
    plan = [stall("1", "0"), stall("2", "3.30"), stall("3", "6.80")]
    breaches = check_plan(OLIMPIA, SEG, [], plan)
    assert codes(breaches) == ["gap"]
    assert breaches[0].keys == ("1", "2")
    assert breaches[0].basis == "LC 324/2025, art. 206, I"
    assert "0,30 m; o mínimo é 0,50 m" in breaches[0].message
    # the Administration's gap where the act leaves it to them
    assert codes(check_plan(SAO_BENTO, SEG, [], plan, gap=D("1.00"))) == ["gap", "gap"]
    assert check_plan(SAO_BENTO, SEG, [], plan) == []


def test_on_a_crossing_or_in_front_of_a_garage():
    obstacles = [Obstacle("a", D("10"), D("3"), "garage", "nº 120"), Obstacle("both", D("30"), D("8"), "crossing")]
    plan = [stall("1", "9"), stall("2", "20"), stall("3", "35", side="b"), stall("4", "13.5")]
    breaches = check_plan(OLIMPIA, SEG, obstacles, plan)
    assert codes(breaches) == ["crossing", "garage"]
    garage = next(b for b in breaches if b.code == "garage")
    assert garage.keys == ("1",) and "nº 120" in garage.message and garage.basis == "LC 324/2025, art. 206, II"
    crossing = next(b for b in breaches if b.code == "crossing")
    assert crossing.keys == ("3",) and crossing.basis == "LC 324/2025, art. 206, IV"
    # a garage of the other side is no breach; SJC's act says nothing of either
    assert check_plan(OLIMPIA, SEG, [Obstacle("b", D("9"), D("3"), "garage")], [stall("1", "9")]) == []
    assert check_plan(SJC, SEG, obstacles, plan) == []


def test_outside_the_street():
    assert codes(check_plan(SJC, SEG, [], [stall("1", "58")])) == ["outside"]
    assert codes(check_plan(SJC, SEG, [], [stall("1", "-0.5")])) == ["outside"]
    assert codes(check_plan(SJC, SEG, [], [stall("1", "0", y="7")])) == ["outside"]
    one = Segment(D("60"), D("8"), sides="one")
    breach = check_plan(SJC, one, [], [stall("1", "0", side="b")])[0]
    assert breach.code == "outside" and "não usa" in breach.message
    assert check_plan(SJC, SEG, [], [stall("1", "57")]) == []


def test_section_out_of_order_and_on_the_wrong_side():
    plan = [
        stall("1", "0", section="i", width="8", depth="3.5"),
        stall("2", "9", section="iii", width="10", depth="3.5"),
        stall("3", "20", section="ii", width="8", depth="3.5"),
        stall("4", "29", section="iv", width="8", depth="3.5"),
    ]
    breaches = check_plan(SJC, Segment(D("60"), D("10")), [], plan)
    assert codes(breaches) == ["section-order"]
    assert len(breaches[0].keys) == 1 and breaches[0].basis == "Lei 9.158/2014, art. 8º, § 2º"
    wrong = check_plan(SJC, Segment(D("60"), D("10")), [], [stall("1", "0", section="x")])
    assert codes(wrong) == ["wrong-side"] and "lado B" in wrong[0].message


def test_two_sections_of_the_same_line():
    # a pastel stall in the churrasco section: pastel's section is XVI (art. 8º, XVI)
    plan = [stall("1", "0", side="b", section="xix", line="pastel", width="3", depth="2")]
    breaches = check_plan(SJC, SEG, [], plan)
    assert codes(breaches) == ["two-sections"]
    assert "Seção XVI" in breaches[0].message and breaches[0].basis == "Lei 9.158/2014, art. 8º, XVI"
    # typical food belongs to six sections: any of them is right
    assert (
        check_plan(
            SJC, SEG, [], [stall("1", "0", side="b", section="xxii", line="comidas-tipicas", width="4", depth="3.5")]
        )
        == []
    )
    # one section laid out in two runs
    split = [
        stall("1", "0", section="i", width="8", depth="3.5"),
        stall("2", "8", section="ii", width="8", depth="3.5"),
        stall("3", "16", section="i", width="8", depth="3.5"),
    ]
    breaches = check_plan(SJC, Segment(D("60"), D("10")), [], split)
    assert "two-sections" in codes(breaches)
    assert next(b for b in breaches if b.code == "two-sections").keys == ("3",)


def test_more_points_than_the_area_allows():
    plan = [stall(str(i), str(i * 2), width="1.5", depth="0.8", number=i) for i in range(1, 62)]
    seg = Segment(D("200"), D("5"))
    breaches = check_plan(ILHA, seg, [], plan)
    assert codes(breaches) == ["max-points"]
    assert breaches[0].keys == ("61",) and breaches[0].basis == "Dec. 890/2017, art. 22"
    assert check_plan(ILHA, seg, [], plan[:60]) == []
    assert codes(check_plan(SJC, seg, [], plan, max_points=10)) == ["max-points"]


def test_stall_larger_than_its_line_allows():
    breaches = check_plan(SJC, SEG, [], [stall("1", "0", section="iv", width="9", depth="3.5")])
    assert codes(breaches) == ["too-large"] and breaches[0].basis == "Lei 9.158/2014, art. 5º, II"
    assert check_plan(SJC, SEG, [], [stall("1", "0", section="iv", width="8", depth="3.5")]) == []
    cart = check_plan(ILHA, SEG, [], [stall("1", "0", equipment="carrinho", width="1.8", depth="0.8")])
    assert codes(cart) == ["too-large"] and cart[0].basis == "Dec. 890/2017, art. 14"


def test_end_vendor_in_the_middle_or_too_close():
    seg = Segment(D("60"), D("6"), sides="one")
    plan = [stall("1", "0", end_vendor=True, width="2", depth="1"), stall("2", "2.5"), stall("3", "10")]
    breaches = check_plan(SAPEZAL, seg, [], plan)
    assert codes(breaches) == ["end-vendor"] and breaches[0].basis == "Lei 1.171/2014, art. 68"
    middle = [stall("1", "0"), stall("2", "5", end_vendor=True, width="2", depth="1"), stall("3", "10")]
    assert codes(check_plan(SAPEZAL, seg, [], middle)) == ["end-vendor"]
    assert check_plan(SAPEZAL, seg, [], [stall("1", "0", end_vendor=True, width="2", depth="1"), stall("2", "3")]) == []


def test_repeated_numbers_and_unknown_ids():
    assert codes(check_plan(SJC, SEG, [], [stall("1", "0", number=7), stall("2", "10", number=7)])) == ["number"]
    assert codes(check_plan(SJC, SEG, [], [stall("1", "0", section="xxx")])) == ["unknown"]


def test_rotated_stall_uses_its_depth_along_the_street():
    plan = [stall("1", "0", width="4", depth="2", rotation=90), stall("2", "2.2")]
    assert check_plan(SJC, SEG, [], plan) == []
    assert codes(check_plan(OLIMPIA, SEG, [], plan)) == ["gap"]


def test_two_thousand_stalls_checked():  # how fast: bench/plan_check.py
    plan = [stall(str(i), str(D("3.5") * (i // 2)), side="ab"[i % 2], number=i + 1) for i in range(2000)]
    seg = Segment(D("3600"), D("8"))
    breaches = check_plan(OLIMPIA, seg, [Obstacle("a", D("100"), D("10"), "garage")], plan)
    assert {b.code for b in breaches} == {"garage"}
