"""The live checks of a plan a clerk edits: overlaps, gaps, obstacles, sections and sizes."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes import Regime
from models.rules.regimes.model import Section
from models.sites.layout.auto import too_large
from models.sites.layout.plan_data import Breach, Obstacle, PlacedStall, Segment
from models.sites.layout.readings import PlanRules, blocking_kinds, max_points_of, plan_rules
from models.sites.layout.units import SIDE_LABELS, SIDES, format_metres, to_mm


@dataclass
class _Geo:
    stall: PlacedStall
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def name(self) -> str:
        return f"banca {self.stall.number}"


def _geo(stall: PlacedStall) -> _Geo:
    along, across = (stall.depth, stall.width + stall.hitch)
    if stall.rotation % 180 != 90:
        along, across = across, along
    x0, y0 = to_mm(stall.x), to_mm(stall.y)
    return _Geo(stall, x0, y0, x0 + to_mm(along), y0 + to_mm(across))


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]


def check_plan(
    regime: Regime,
    segment: Segment,
    obstacles: Sequence[Obstacle],
    stalls: Sequence[PlacedStall],
    *,
    gap: Decimal | None = None,
    max_points: int | None = None,
    avoid: Iterable[str] = (),
) -> list[Breach]:
    """Every legal problem of a plan, each with its stalls, a pt-BR message and its article.

    Fast enough for every edit (sorted sweeps, no pairwise comparison of all
    stalls). A ``gap`` below a legal minimum is not refused here: the legal one
    is checked.
    """
    rules = plan_rules(regime, gap, strict=False)
    out: list[Breach] = []
    geos = sorted((_geo(s) for s in stalls), key=lambda g: (g.x0, g.y0, g.stall.number, g.stall.key))
    length, width = to_mm(segment.length), to_mm(segment.width)
    seg_basis = rules.cite(segment.basis)

    # numbers
    seen: dict[int, _Geo] = {}
    for g in sorted(geos, key=lambda g: (g.stall.number, g.stall.key)):
        first = seen.setdefault(g.stall.number, g)
        if first is not g:
            out.append(Breach("number", (first.stall.key, g.stall.key), f"Duas bancas com o número {g.stall.number}."))

    # outside the street, unknown ids, sizes, side and line of the section
    sides_used = segment.sides_used
    end_rule = rules.layout.end_vendors
    sides_basis = rules.layout.sides.basis if rules.layout.sides is not None else None
    for g in geos:
        s = g.stall
        if s.side not in sides_used:
            out.append(
                Breach(
                    "outside",
                    (s.key,),
                    f"A {g.name} está no {SIDE_LABELS.get(s.side, s.side)}, que este trecho não usa.",
                    seg_basis,
                )
            )
        elif g.x0 < 0 or g.x1 > length or g.y0 < 0 or g.y1 > width:
            out.append(
                Breach(
                    "outside",
                    (s.key,),
                    f"A {g.name} sai dos limites do trecho "
                    f"({format_metres(length, mm=True)} × "
                    f"{format_metres(width, mm=True)}).",
                    seg_basis,
                )
            )
        section = rules.sections.get(s.section) if s.section else None
        line = rules.lines.get(s.line) if s.line else None
        equipment = rules.equipment.get(s.equipment) if s.equipment else None
        unknown = [
            what
            for what, value, found in (
                ("seção", s.section, section),
                ("ramo", s.line, line),
                ("equipamento", s.equipment, equipment),
            )
            if value and found is None
        ]
        if unknown:
            out.append(
                Breach(
                    "unknown", (s.key,), f"A {g.name} tem {', '.join(unknown)} que não existe no regime {regime.id}."
                )
            )
        if s.end_vendor:
            if end_rule is None:
                out.append(Breach("end-vendor", (s.key,), f"A {g.name} é ponta de feira, que o ato não prevê."))
            elif to_mm(s.width) > to_mm(end_rule.front) or to_mm(s.depth) > to_mm(end_rule.depth):
                out.append(
                    Breach(
                        "too-large",
                        (s.key,),
                        f"A {g.name} (ponta de feira) tem {format_metres(s.width)} × "
                        f"{format_metres(s.depth)}; o máximo é {format_metres(end_rule.front)} × "
                        f"{format_metres(end_rule.depth)}.",
                        rules.cite(end_rule.basis),
                    )
                )
        else:
            if line is None and section is not None and len(section.lines) == 1:
                line = rules.lines.get(section.lines[0])
            too_big = too_large(rules, line, equipment, to_mm(s.width), to_mm(s.depth))
            if too_big:
                out.append(Breach("too-large", (s.key,), f"A {g.name} tem {too_big[0]}.", too_big[1]))
        if section is not None and section.side is not None and s.side != section.side and s.side in SIDES:
            out.append(
                Breach(
                    "wrong-side",
                    (s.key,),
                    f"A {g.name} é da Seção {section.numeral}, que fica no {SIDE_LABELS[section.side]}.",
                    rules.cite(sides_basis or section.basis),
                )
            )
        if section is not None and s.line and line is not None and section.lines and s.line not in section.lines:
            homes = rules.line_sections.get(s.line, [])
            where = f"pertence à Seção {', '.join(h.numeral for h in homes)}" if homes else "não tem seção no regime"
            out.append(
                Breach(
                    "two-sections",
                    (s.key,),
                    f"A {g.name} vende {line.label}, que {where}, mas está na Seção {section.numeral}: "
                    "não se admite mais de uma seção por ramo.",
                    rules.cite(homes[0].basis if homes else section.basis),
                )
            )

    # overlaps and gaps: one sweep along the street, comparing only stalls still within reach
    min_gap = rules.gap
    gap_basis = rules.gap_basis
    active: list[_Geo] = []
    for g in geos:
        active = [a for a in active if a.x1 + min_gap > g.x0]
        for a in active:
            if a.y0 >= g.y1 or g.y0 >= a.y1:
                continue  # not in the same row
            if a.x1 > g.x0 and g.x1 > g.x0 and a.x1 > a.x0:
                overlap = min(a.x1, g.x1) - g.x0
                out.append(
                    Breach(
                        "overlap",
                        (a.stall.key, g.stall.key),
                        f"As bancas {a.stall.number} e {g.stall.number} se sobrepõem em "
                        f"{format_metres(overlap, mm=True)}.",
                    )
                )
            elif g.x0 - a.x1 < min_gap:
                out.append(
                    Breach(
                        "gap",
                        (a.stall.key, g.stall.key),
                        f"Entre as bancas {a.stall.number} e {g.stall.number} há "
                        f"{format_metres(g.x0 - a.x1, mm=True)}; o mínimo é "
                        f"{format_metres(min_gap, mm=True)}.",
                        gap_basis,
                    )
                )
        active.append(g)

    # crossings, garages and other kept-free obstacles on the stall's side
    blocking = blocking_kinds(rules, avoid)
    per_side: dict[str, list[tuple[int, int, Obstacle]]] = {s: [] for s in SIDES}
    for obstacle in obstacles:
        if obstacle.kind in blocking:
            start = to_mm(obstacle.start)
            for on_side in SIDES if obstacle.side == "both" else (obstacle.side,):
                per_side[on_side].append((start, start + to_mm(obstacle.extent), obstacle))
    for on_side in SIDES:
        per_side[on_side].sort(key=lambda o: (o[0], o[1]))
    starts = {s: [o[0] for o in per_side[s]] for s in SIDES}
    longest = {s: max((o[1] - o[0] for o in per_side[s]), default=0) for s in SIDES}
    for g in geos:
        side = g.stall.side
        if side not in per_side or not per_side[side]:
            continue
        k = bisect_left(starts[side], g.x1) - 1
        hits = []
        while k >= 0 and per_side[side][k][0] > g.x0 - longest[side]:
            o_start, o_end, obstacle = per_side[side][k]
            if o_end > g.x0 and o_start < g.x1:
                hits.append(obstacle)
            k -= 1
        for obstacle in reversed(hits):
            code, basis = blocking[obstacle.kind]
            name = f" ({obstacle.label})" if obstacle.label else ""
            what = {"crossing": "sobre o cruzamento", "garage": "em frente à entrada de garagem"}.get(
                code, f"sobre {obstacle.kind_label}"
            )
            extra = "" if code != "obstacle" else " — mantido livre por decisão da Administração"
            out.append(Breach(code, (g.stall.key,), f"A {g.name} está {what}{name}{extra}.", basis))

    # order and runs of sections along each side; end vendors at the ends
    for side in SIDES:
        side_row = [g for g in geos if g.stall.side == side]
        regular = [g for g in side_row if not g.stall.end_vendor]
        ordered = [
            (g, rules.sections[g.stall.section])
            for g in regular
            if g.stall.section in rules.sections and rules.sections[g.stall.section].order is not None
        ]
        misplaced = {id(g) for g, _ in _out_of_order(ordered)}
        highest: tuple[int, Section] | None = None  # the highest section seen so far along the side
        for g, section in ordered:
            order = section.order or 0  # every section here has an order (filtered above)
            if id(g) in misplaced:
                after = f", depois da Seção {highest[1].numeral}" if highest and highest[0] > order else ""
                out.append(
                    Breach(
                        "section-order",
                        (g.stall.key,),
                        f"A {g.name} (Seção {section.numeral}) está fora da ordem das seções no "
                        f"{SIDE_LABELS[side]}{after}.",
                        rules.cite(sides_basis or section.basis),
                    )
                )
            if highest is None or order > highest[0]:
                highest = (order, section)
        if end_rule is not None and regular:
            row_start, row_end = regular[0].x0, max(g.x1 for g in regular)
            distance = to_mm(end_rule.min_distance or 0)
            for g in side_row:
                if g.stall.end_vendor and not (g.x1 + distance <= row_start or g.x0 >= row_end + distance):
                    out.append(
                        Breach(
                            "end-vendor",
                            (g.stall.key,),
                            f"A {g.name} é ponta de feira e deve ficar numa ponta, a "
                            f"{format_metres(distance, mm=True)} ou mais da primeira e da última banca.",
                            rules.cite(end_rule.basis),
                        )
                    )
    out.extend(_split_sections(rules, geos))

    # maximum points
    limit, basis = max_points_of(rules, max_points)
    if limit is not None and len(geos) > limit:
        beyond = sorted(geos, key=lambda g: (g.stall.number, g.stall.key))[limit:]
        out.append(
            Breach(
                "max-points",
                tuple(g.stall.key for g in beyond),
                f"O local tem {len(geos)} pontos; o máximo é {limit}.",
                basis,
            )
        )
    return out


def _out_of_order(ordered: list[tuple[_Geo, Section]]) -> list[tuple[_Geo, Section]]:
    """The stalls outside a longest run of non-decreasing section order (the fewest to move)."""
    if not ordered:
        return []
    tails: list[int] = []  # order value at the end of the best run of each length
    tail_index: list[int] = []
    parent = [-1] * len(ordered)
    for i, (_, section) in enumerate(ordered):
        value = section.order or 0
        pos = bisect_right(tails, value)
        if pos == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[pos] = value
            tail_index[pos] = i
        parent[i] = tail_index[pos - 1] if pos > 0 else -1
    keep = set()
    i = tail_index[-1]
    while i >= 0:
        keep.add(i)
        i = parent[i]
    return [item for i, item in enumerate(ordered) if i not in keep]


def _split_sections(rules: PlanRules, geos: list[_Geo]) -> list[Breach]:
    """A section laid out in two or more separate runs is a second section of its ramo (art. 8º, caput)."""
    runs: dict[str, list[list[_Geo]]] = {}
    for side in SIDES:
        previous = None
        for g in geos:
            if g.stall.side != side or g.stall.end_vendor:
                continue
            section_id = g.stall.section
            if section_id and section_id == previous:
                runs[section_id][-1].append(g)
            elif section_id:
                runs.setdefault(section_id, []).append([g])
            previous = section_id
    out = []
    for section_id, parts in runs.items():
        if len(parts) < 2:
            continue
        section = rules.sections.get(section_id)
        numeral = section.numeral if section is not None else section_id
        extra = [g for part in parts[1:] for g in part]
        out.append(
            Breach(
                "two-sections",
                tuple(g.stall.key for g in extra),
                f"A Seção {numeral} está dividida em {len(parts)} trechos (bancas "
                f"{_join([str(g.stall.number) for g in extra])} fora do primeiro): cada ramo tem "
                "uma só seção.",
                rules.cite(section.basis) if section is not None else None,
            )
        )
    return out
