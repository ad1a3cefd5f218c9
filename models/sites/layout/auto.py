"""The legal auto-layout: stalls placed side by side, section by section, and numbered."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from models.base.errors import UserError
from models.rules.regimes import Regime
from models.sites.layout.plan_data import Layout, Note, Obstacle, PlacedStall, Segment, StallRequest, Unplaced
from models.sites.layout.readings import PlanRules, blocking_kinds, max_points_of, plan_rules, section_numeral
from models.sites.layout.units import (
    DISTANCE_FROM,
    INF,
    NUMBERING,
    OBSTACLE_KINDS,
    SIDE_LABELS,
    SIDES,
    format_metres,
    from_mm,
    to_mm,
)


@dataclass
class Item:
    req: StallRequest
    index: int
    front: int
    depth: int
    hitch: int
    side: str | None = None  # the side its section requires
    rank: tuple = ()
    line: str | None = None  # the request's line, or its section's only line

    @property
    def length(self) -> int:
        return self.front + self.hitch

    def label(self, rules: PlanRules) -> str:
        numeral = section_numeral(rules, self.req.section)
        return f"{self.req.key} ({numeral})" if numeral else self.req.key


class Blocked:
    """Merged, sorted forbidden intervals along one side: find the first free slot from a position."""

    def __init__(self, intervals: Iterable[tuple[int, int]]):
        merged: list[list[int]] = []
        for start, end in sorted(intervals):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [m[0] for m in merged]
        self.ends = [m[1] for m in merged]

    def slot(self, pos: int, length: int, limit: int) -> int | None:
        starts, ends = self.starts, self.ends
        while True:
            i = bisect_right(ends, pos)  # the first interval that ends after pos
            if i < len(starts) and starts[i] < pos + length:
                pos = ends[i]
                continue
            return pos if pos + length <= limit else None


def _resolve(
    rules: PlanRules, req: StallRequest, index: int, segment_width: int, sides_used: tuple[str, ...]
) -> tuple[Item | None, Unplaced | None]:
    """Sizes, side and rank of one request, or why it cannot be placed at all."""
    regime = rules.regime
    section = None
    if req.section:
        section = rules.sections.get(req.section)
        if section is None:
            return None, Unplaced(req.key, f"a seção {req.section!r} não existe no regime {regime.id}")
    line = None
    line_id = req.line
    if not line_id and section is not None and len(section.lines) == 1:
        line_id = section.lines[0]
    if line_id:
        line = rules.lines.get(line_id)
        if line is None:
            return None, Unplaced(req.key, f"o ramo {line_id!r} não existe no regime {regime.id}")
    equipment = None
    if req.equipment:
        equipment = rules.equipment.get(req.equipment)
        if equipment is None:
            return None, Unplaced(req.key, f"o equipamento {req.equipment!r} não existe no regime {regime.id}")
    ends = rules.layout.end_vendors
    front: Decimal | None
    depth: Decimal | None
    if req.end_vendor:
        if ends is None:
            return None, Unplaced(req.key, "o ato não prevê comércio nas pontas da feira")
        front = req.front if req.front is not None else ends.front
        depth = req.depth if req.depth is not None else ends.depth
        if to_mm(front) > to_mm(ends.front) or to_mm(depth) > to_mm(ends.depth):
            return None, Unplaced(
                req.key,
                f"ponta de feira de {format_metres(front)} × {format_metres(depth)}, maior que o máximo de "
                f"{format_metres(ends.front)} × {format_metres(ends.depth)}",
                rules.cite(ends.basis),
            )
    else:
        front = (
            req.front
            if req.front is not None
            else (
                line.front
                if line is not None and line.front is not None
                else (equipment.front if equipment is not None else None)
            )
        )
        depth = (
            req.depth
            if req.depth is not None
            else (
                line.depth
                if line is not None and line.depth is not None
                else (equipment.depth if equipment is not None else None)
            )
        )
        if front is None or depth is None:
            what = f"o ramo {line.label}" if line is not None else "a banca"
            return None, Unplaced(
                req.key, f"sem medidas: {what} não tem tamanho no ato e a frente e a profundidade não foram informadas"
            )
        too_big = too_large(rules, line, equipment, to_mm(front), to_mm(depth))
        if too_big:
            return None, Unplaced(req.key, too_big[0], too_big[1])
    hitch = req.hitch or Decimal(0)
    item = Item(req, index, to_mm(front), to_mm(depth), to_mm(hitch), line=line_id or None)
    if item.front <= 0 or item.depth <= 0 or item.hitch < 0:
        return None, Unplaced(
            req.key, "medidas inválidas (frente e profundidade maiores que zero, engate não negativo)"
        )
    if item.depth > segment_width:
        return None, Unplaced(
            req.key,
            f"profundidade de {format_metres(item.depth, mm=True)} maior que a largura "
            f"da via ({format_metres(segment_width, mm=True)})",
        )
    if section is not None and section.side is not None:
        if section.side not in sides_used:
            basis = rules.layout.sides.basis if rules.layout.sides is not None else section.basis
            return None, Unplaced(
                req.key,
                f"a Seção {section.numeral} fica no {SIDE_LABELS[section.side]} e este trecho usa um lado só",
                rules.cite(basis),
            )
        item.side = section.side
    if section is not None:
        order = section.order if section.order is not None else rules.section_rank[section.id] + 1
        item.rank = (0, order, rules.section_rank[section.id], index)
    else:
        item.rank = (1, 0, 0, index)
    return item, None


def too_large(rules: PlanRules, line, equipment, front: int, depth: int) -> tuple[str, str | None] | None:
    if line is not None and line.front is not None and (front > to_mm(line.front) or depth > to_mm(line.depth)):
        return (
            f"{format_metres(front, mm=True)} × {format_metres(depth, mm=True)}, maior que o tamanho do ramo "
            f"{line.label} ({format_metres(line.front)} × {format_metres(line.depth)})",
            rules.cite(line.basis),
        )
    if equipment is not None:
        max_front = equipment.max_front if equipment.max_front is not None else equipment.front
        max_depth = equipment.max_depth if equipment.max_depth is not None else equipment.depth
        if (max_front is not None and front > to_mm(max_front)) or (max_depth is not None and depth > to_mm(max_depth)):
            limit = " × ".join(format_metres(v) if v is not None else "—" for v in (max_front, max_depth))
            return (
                f"{format_metres(front, mm=True)} × {format_metres(depth, mm=True)}, maior que o máximo do "
                f"equipamento {equipment.label} ({limit})",
                rules.cite(equipment.basis),
            )
    return None


def _run_side(
    heads: list[Item],
    regular: list[Item],
    tails: list[Item],
    *,
    limit: int,
    gap: int,
    end_distance: int,
    blocked_for,
) -> tuple[list[tuple[Item, int]], list[Item], int]:
    """Pack one side in order: head end-vendors, stalls, tail end-vendors. Returns placed, failed, the end reached."""
    placed: list[tuple[Item, int]] = []
    failed: list[Item] = []
    cursor = 0
    reached = 0

    def put(item: Item) -> int | None:
        nonlocal cursor, reached
        x = blocked_for(item.depth).slot(cursor, item.length, limit)
        if x is None:
            failed.append(item)
            return None
        placed.append((item, x))
        cursor = x + item.length + gap
        reached = max(reached, x + item.length)
        return x + item.length

    last_head = None
    for item in heads:
        last_head = put(item) or last_head
    if last_head is not None:
        cursor = max(cursor, last_head + end_distance)
    last_regular = None
    for item in regular:
        last_regular = put(item) or last_regular
    if last_regular is not None and tails:
        cursor = max(cursor, last_regular + end_distance)
    for item in tails:
        put(item)
    return placed, failed, reached


def auto_layout(
    regime: Regime,
    segment: Segment,
    obstacles: Sequence[Obstacle],
    requests: Sequence[StallRequest],
    *,
    gap: Decimal | None = None,
    numbering: str = "sequential",
    max_points: int | None = None,
    avoid: Iterable[str] = (),
) -> Layout:
    """Lay ``requests`` out along ``segment`` as the regime orders; deterministic.

    ``gap``: the gap the Administration set for the site (needed where the act
    leaves it to them; never below a legal minimum — ``UserError``).
    ``numbering``: ``"sequential"`` (side A from 1 along the street, then side
    B) or ``"odd-even"`` (odd on side A, even on side B), within the regime's
    ``numbering`` options when it lists any. ``max_points``: the site's limit
    (default: the regime's). ``avoid``: more obstacle kinds to keep free.
    """
    if numbering not in NUMBERING:
        raise UserError(f"Numeração desconhecida: {numbering!r}. Opções: {', '.join(NUMBERING)}.", field="numbering")
    rules = plan_rules(regime, gap, strict=True)
    if rules.layout.numbering and numbering not in rules.layout.numbering:
        raise UserError(
            f"O regime {regime.id} admite só a numeração {', '.join(rules.layout.numbering)}.", field="numbering"
        )
    keys = [r.key for r in requests]
    if len(set(keys)) != len(keys):
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        raise UserError(f"Chave de banca repetida: {', '.join(repeated)}.", field="key")
    length = to_mm(segment.length)
    width = to_mm(segment.width)
    sides_used = segment.sides_used
    blocking = blocking_kinds(rules, avoid)
    notes: list[Note] = list(rules.gap_notes)
    unplaced: list[Unplaced] = []

    items: list[Item] = []
    end_items: list[Item] = []
    for index, req in enumerate(requests):
        item, refusal = _resolve(rules, req, index, width, sides_used)
        if refusal is not None:
            unplaced.append(refusal)
        elif item is not None and req.end_vendor:
            end_items.append(item)
        elif item is not None:
            items.append(item)
    items.sort(key=lambda it: it.rank)

    limit_points, points_basis = max_points_of(rules, max_points)
    if limit_points is not None and len(items) + len(end_items) > limit_points:
        keep = items[:limit_points]
        keep_ends = end_items[: max(0, limit_points - len(keep))]
        for item in items[limit_points:] + end_items[len(keep_ends) :]:
            unplaced.append(Unplaced(item.req.key, f"o local admite no máximo {limit_points} pontos", points_basis))
        items, end_items = keep, keep_ends
        notes.append(Note(f"No máximo {limit_points} pontos no local.", points_basis))

    # the ends of the feira that take end-vendors: head and tail of each side that has stalls
    sided = {s: [it for it in items if it.side == s] for s in sides_used}
    free = [it for it in items if it.side is None]  # after the sections of side A, then on side B
    has_stalls = {s: bool(sided[s]) or (s == "a" and bool(free)) for s in sides_used}
    ends = [(s, where) for s in sides_used for where in ("head", "tail") if has_stalls[s]] or [
        ("a", "head"),
        ("a", "tail"),
    ]
    heads: dict[str, list[Item]] = {s: [] for s in sides_used}
    tails: dict[str, list[Item]] = {s: [] for s in sides_used}
    for i, item in enumerate(end_items):
        side, where = ends[i % len(ends)]
        (heads if where == "head" else tails)[side].append(item)
    end_rule = rules.layout.end_vendors
    end_distance = max(rules.gap, to_mm(end_rule.min_distance or 0)) if end_rule is not None else rules.gap

    per_side_obstacles: dict[str, list[tuple[int, int]]] = {s: [] for s in SIDES}
    for obstacle in obstacles:
        if obstacle.kind not in blocking:
            continue
        start = to_mm(obstacle.start)
        for s in SIDES if obstacle.side == "both" else (obstacle.side,):
            per_side_obstacles[s].append((start, start + to_mm(obstacle.extent)))
    for kind, (code, basis) in sorted(blocking.items()):
        if code == "obstacle":
            notes.append(Note(f"Nenhuma banca sobre {OBSTACLE_KINDS[kind]} (escolha da Administração para o local)."))
        elif code == "crossing":
            notes.append(Note("Nenhuma banca em cruzamento de vias.", basis))
        else:
            notes.append(Note("Nenhuma banca impede o acesso a garagens.", basis))

    placed_by_side: dict[str, list[tuple[Item, int]]] = {}
    wanted: dict[str, tuple[list[Item], list[Item], list[Item]]] = {}  # what each side had to hold
    failed_space: list[tuple[str, Item]] = []
    spill: list[Item] = []
    blockers = {}
    for side in sides_used:
        base = Blocked(per_side_obstacles[side])
        cache: dict[int, Blocked] = {}
        across = [(it, x) for rows in placed_by_side.values() for it, x in rows]

        def blocked_for(depth: int, base=base, cache=cache, across=across) -> Blocked:
            # stalls across the street too deep to face this one block it, with the gap (one row there)
            if not across:
                return base
            if depth not in cache:
                deep = [(x - rules.gap, x + it.length + rules.gap) for it, x in across if it.depth + depth > width]
                cache[depth] = Blocked(list(zip(base.starts, base.ends, strict=True)) + deep) if deep else base
            return cache[depth]

        blockers[side] = blocked_for
        regular = sided[side] + (free if side == "a" else spill)
        placed, failed, _ = _run_side(
            heads[side],
            regular,
            tails[side],
            limit=length,
            gap=rules.gap,
            end_distance=end_distance,
            blocked_for=blocked_for,
        )
        placed_by_side[side] = placed
        last = side == sides_used[-1]
        spill = [] if last else [it for it in failed if it.side is None and not it.req.end_vendor]
        moved = {id(it) for it in spill}
        failed_space.extend((side, it) for it in failed if id(it) not in moved)
        wanted[side] = (heads[side], [it for it in regular if id(it) not in moved], tails[side])

    # by how many metres each side falls short: the same side laid out on an endless street
    shortfall_by_side: list[tuple[str, Decimal]] = []
    short_sides = {side for side, _ in failed_space}
    for side in sides_used:
        if side not in short_sides:
            continue
        hs, rs, ts = wanted[side]
        _, _, reached = _run_side(
            hs, rs, ts, limit=INF, gap=rules.gap, end_distance=end_distance, blocked_for=blockers[side]
        )
        shortfall_by_side.append((side, from_mm(max(0, reached - length))))
    for side, item in failed_space:
        unplaced.append(Unplaced(item.req.key, f"não coube no {SIDE_LABELS[side]}", rules.cite(segment.basis)))

    stalls = number_stalls(placed_by_side, sides_used, numbering, width)
    if rules.layout.sides is not None and any(s.side for s in regime.sections):
        notes.append(Note(_sides_text(regime), rules.cite(rules.layout.sides.basis)))
    if end_rule is not None and end_items:
        notes.append(
            Note(
                f"Pontas de feira de até {format_metres(end_rule.front)} × {format_metres(end_rule.depth)}, "
                f"a {format_metres(end_rule.min_distance or 0)} ou mais da primeira e da última banca.",
                rules.cite(end_rule.basis),
            )
        )
    for rule in rules.layout.min_distance_from:
        what = DISTANCE_FROM.get(rule.what, rule.what)
        notes.append(
            Note(
                f"Distância mínima de {format_metres(rule.value)} de {what}: confira no mapa "
                "(não aplicada automaticamente).",
                rules.cite(rule.basis),
            )
        )
    if len(sides_used) == 2:
        deepest = {s: max((it.depth for it, _ in placed_by_side.get(s, [])), default=0) for s in SIDES}
        if deepest["a"] and deepest["b"] and deepest["a"] + deepest["b"] >= width:
            notes.append(
                Note(
                    f"As bancas dos dois lados somam {format_metres(deepest['a'] + deepest['b'], mm=True)} "
                    f"de profundidade e a via tem {format_metres(width, mm=True)}: não sobra passagem no "
                    "meio onde elas se encontram; onde não cabem frente a frente, foram alternadas."
                )
            )
    notes.append(Note(f"Numeração {NUMBERING[numbering]}."))
    position = {key: i for i, key in enumerate(keys)}
    unplaced.sort(key=lambda u: position[u.key])
    return Layout(
        stalls=tuple(stalls),
        unplaced=tuple(unplaced),
        shortfall=sum((m for _, m in shortfall_by_side), Decimal(0)).quantize(Decimal("0.001")),
        shortfall_by_side=tuple(shortfall_by_side),
        notes=tuple(notes),
        gap=from_mm(rules.gap),
        numbering=numbering,
    )


def _sides_text(regime: Regime) -> str:
    parts = []
    for side in SIDES:
        numerals = [
            s.numeral for s in sorted((s for s in regime.sections if s.side == side), key=lambda s: s.order or 0)
        ]
        if numerals:
            span = numerals[0] if len(numerals) == 1 else f"{numerals[0]} a {numerals[-1]}"
            parts.append(f"Seções {span} no {SIDE_LABELS[side]}")
    return "; ".join(parts) + ", nesta ordem."


def number_stalls(
    placed_by_side: dict[str, list[tuple[Item, int]]], sides_used: tuple[str, ...], numbering: str, width: int
) -> list[PlacedStall]:
    stalls: list[PlacedStall] = []
    next_number = 1
    for side in sides_used:
        rows = sorted(placed_by_side.get(side, []), key=lambda row: (row[1], row[0].index))
        for i, (item, x) in enumerate(rows):
            if numbering == "odd-even":
                number = 2 * i + 1 if side == "a" else 2 * i + 2
            else:
                number = next_number
                next_number += 1
            req = item.req
            stalls.append(
                PlacedStall(
                    key=req.key,
                    number=number,
                    side=side,
                    x=from_mm(x),
                    y=from_mm(0 if side == "a" else width - item.depth),
                    width=from_mm(item.front),
                    depth=from_mm(item.depth),
                    rotation=0 if side == "a" else 180,
                    hitch=from_mm(item.hitch),
                    section=req.section,
                    line=item.line,
                    holder=req.holder,
                    holder_id=req.holder_id,
                    equipment=req.equipment,
                    end_vendor=req.end_vendor,
                )
            )
    return stalls
