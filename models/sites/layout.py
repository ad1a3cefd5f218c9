"""Stall plans in metres: the legal auto-layout and the live checks of a plan.

Pure and fast: no database, no Qt. Everything the law decides comes from the
regime (``[layout]``, ``[[sections]]``, ``[[lines]]``, ``[[equipment]]``);
nothing here knows a town.

Coordinates of a street segment (a :class:`Segment`):

* ``x`` runs along the street, from the ``from`` end (0) to ``length``;
* ``y`` runs across the carriageway, from the kerb of side ``"a"`` (0) to the
  kerb of side ``"b"`` (``width``);
* a stall's ``(x, y)`` is the corner of its footprint nearest to the origin;
  its footprint along the street is ``width + hitch`` (the trailer's hitch
  first, at the lower ``x``: São Bento, Dec. 4.794/2026, art. 9º, § 1º counts
  it as part of the structure) and ``depth`` across it. ``rotation`` is 0, 90,
  180 or 270 degrees; at 90/270 the two extents swap. The auto-layout puts the
  stalls of side ``"a"`` against its kerb (``y = 0``, rotation 0) and those of
  side ``"b"`` against the other (``y = width − depth``, rotation 180), facing
  the middle of the street.

Readings of the acts, each with its article in the notes and breaches:

* **Sections and sides.** A section with ``side``/``order`` goes on that side
  in that order (SJC, Lei 9.158/2014, art. 8º, § 2º: I–IX on one side, X–XXVIII
  on the other); a section without a side follows the regime's order, side
  ``"a"`` first, continuing on side ``"b"``; a stall without a section goes
  after the sections. A section of side ``"b"`` on a segment that uses one
  side only is not placed (the act wants it on the other side).
* **One section per ramo** (art. 8º, caput): a stall whose line is not one of
  its section's lines, or a section laid out in two separate runs, is a breach.
* **Sizes by line** (art. 5º): the line's front × depth is the largest stall
  of that line; an equipment's ``max_front``/``max_depth`` (or its fixed
  ``front``/``depth``) likewise.
* **Gap** between neighbouring stalls of one row: the regime's ``min_gap``
  (Olímpia, LC 324/2025, art. 206, I: 0,50 m); when the act leaves it to the
  Administration (São Bento, art. 11, § 4º; art. 9º, § 10) the caller gives it;
  a caller's gap may be larger than the legal one, never smaller.
* **Crossings and garages** are kept free where the regime says so
  (``no_crossings``: art. 206, IV; ``keep_garages_free``: art. 206, II; Sapezal,
  Lei 1.171/2014, art. 43). Other obstacle kinds block only when the caller
  lists them in ``avoid`` (an Administration's choice). The regime's
  ``min_distance_from`` rules are named in the notes, not applied: the acts
  aim them at itinerant vendors, not at feira stalls (see the regimes' notes).
* **Feira-end vendors** (Sapezal, art. 68): at most ``end_vendors`` front ×
  depth (2,00 × 1,00 m), at least ``min_distance`` (1 m) from the first and
  the last stall, at the ends of the feira: head of side A, tail of side A,
  head of side B, tail of side B, in turn.
* **Maximum points** (Ilha Comprida, Dec. 890/2017, art. 22: 60).

Positions are kept in whole millimetres inside (exact and fast) and handed
out as ``Decimal`` metres.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from models.base.errors import UserError
from models.base.money import format_decimal_br
from models.rules.regimes import LayoutRules, Regime, Section

__all__ = [
    "BREACH_CODES",
    "NUMBERING",
    "OBSTACLE_KINDS",
    "ROTATIONS",
    "SIDES",
    "SIDE_LABELS",
    "SIDE_USES",
    "Breach",
    "Layout",
    "Note",
    "Obstacle",
    "PlacedStall",
    "Segment",
    "StallRequest",
    "Unplaced",
    "auto_layout",
    "check_plan",
    "format_metres",
    "from_mm",
    "resolve_gap",
    "to_mm",
]

SIDES = ("a", "b")
SIDE_LABELS = {"a": "lado A", "b": "lado B", "both": "os dois lados"}
SIDE_USES = {"one": "um lado", "both": "os dois lados"}
OBSTACLE_KINDS = {
    "garage": "entrada de garagem",
    "crossing": "cruzamento",
    "bus-stop": "ponto de ônibus",
    "taxi-stop": "ponto de táxi",
    "school-gate": "portão de escola",
    "hydrant": "hidrante",
    "tree": "árvore",
    "building-entrance": "entrada de edifício",
}
NUMBERING = {
    "sequential": "sequencial (lado A, depois lado B)",
    "odd-even": "ímpares no lado A, pares no lado B",
}
ROTATIONS = (0, 90, 180, 270)
BREACH_CODES = {
    "overlap": "bancas sobrepostas",
    "gap": "espaço entre bancas menor que o mínimo",
    "crossing": "banca em cruzamento",
    "garage": "banca em frente a garagem",
    "obstacle": "banca sobre obstáculo",
    "outside": "banca fora do trecho",
    "section-order": "seção fora de ordem",
    "wrong-side": "seção no lado errado",
    "two-sections": "ramo em mais de uma seção",
    "max-points": "pontos além do limite",
    "too-large": "banca maior que o permitido",
    "end-vendor": "ponta de feira fora do lugar",
    "number": "número de banca repetido",
    "unknown": "seção, ramo ou equipamento desconhecido",
}

# what a regime's min_distance_from measures from, in pt-BR
_DISTANCE_FROM = {
    "bus-stop": "ponto de ônibus",
    "taxi-stop": "ponto de táxi",
    "school": "portão de escola",
    "feira": "feira livre",
    "same-trade-shop": "comércio fixo do mesmo ramo",
    "corner": "esquina",
}
_MM = Decimal(1000)
_INF = 1 << 62


# --------------------------------------------------------------------------- units


def to_mm(value: Decimal | int | str) -> int:
    """Metres (``Decimal``, ``int`` or text such as ``"0.50"``) → whole millimetres (half up)."""
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str)):
        raise TypeError(f"medida em metros deve ser Decimal, int ou texto, não {type(value).__name__}")
    return int((Decimal(value) * _MM).to_integral_value(ROUND_HALF_UP))


def from_mm(value: int) -> Decimal:
    """Whole millimetres → ``Decimal`` metres with three places (``12500`` → ``12.500``)."""
    return Decimal(value).scaleb(-3)


def format_metres(value: Decimal | int, *, mm: bool = False) -> str:
    """``"12,50 m"`` (three places when the value has millimetres)."""
    metres = from_mm(value) if mm else Decimal(value)
    places = 3 if (metres * 100) != (metres * 100).to_integral_value() else 2
    return f"{format_decimal_br(metres, places)} m"


# --------------------------------------------------------------------------- plan data


@dataclass(frozen=True)
class Segment:
    """A stretch of street: ``length`` along it, ``width`` of the carriageway, the sides used."""

    length: Decimal
    width: Decimal
    sides: str = "both"  # "one" (only side "a") | "both"
    street: str = ""
    from_street: str = ""
    to_street: str = ""
    basis: str | None = None  # the article that authorises trading on this stretch, if any

    def __post_init__(self) -> None:
        if self.sides not in SIDE_USES:
            raise UserError(f"Lados usados inválidos: {self.sides!r} (use 'one' ou 'both').", field="sides")
        if to_mm(self.length) <= 0:
            raise UserError("O comprimento do trecho deve ser maior que zero.", field="length")
        if to_mm(self.width) <= 0:
            raise UserError("A largura da via deve ser maior que zero.", field="width")

    @property
    def sides_used(self) -> tuple[str, ...]:
        return SIDES if self.sides == "both" else ("a",)


@dataclass(frozen=True)
class Obstacle:
    """Something along a side (``"a"``, ``"b"`` or ``"both"``) from ``start`` for ``extent`` metres."""

    side: str
    start: Decimal
    extent: Decimal
    kind: str
    label: str = ""

    def __post_init__(self) -> None:
        if self.side not in (*SIDES, "both"):
            raise UserError(f"Lado do obstáculo inválido: {self.side!r} (use 'a', 'b' ou 'both').", field="side")
        if self.kind not in OBSTACLE_KINDS:
            raise UserError(
                f"Tipo de obstáculo desconhecido: {self.kind!r}. Opções: {', '.join(OBSTACLE_KINDS)}.", field="kind"
            )
        if to_mm(self.extent) <= 0:
            raise UserError("A extensão do obstáculo deve ser maior que zero.", field="extent")

    @property
    def kind_label(self) -> str:
        return OBSTACLE_KINDS[self.kind]

    @property
    def end(self) -> Decimal:
        return self.start + self.extent


@dataclass(frozen=True)
class StallRequest:
    """A stall to place. ``front``/``depth`` default to the line's size (or the equipment's)."""

    key: str
    section: str | None = None
    line: str | None = None
    front: Decimal | None = None
    depth: Decimal | None = None
    hitch: Decimal = Decimal(0)
    holder: str | None = None  # what the map shows: the permit number
    holder_id: int | None = None  # the permit's id, when it comes from the database
    equipment: str | None = None
    end_vendor: bool = False  # a feira-end vendor (Sapezal, art. 68)


@dataclass(frozen=True)
class PlacedStall:
    key: str
    number: int
    side: str
    x: Decimal
    y: Decimal
    width: Decimal  # the front
    depth: Decimal
    rotation: int = 0
    hitch: Decimal = Decimal(0)
    section: str | None = None
    line: str | None = None
    holder: str | None = None
    holder_id: int | None = None
    equipment: str | None = None
    end_vendor: bool = False

    @property
    def length(self) -> Decimal:
        """What the stall takes along its own axis: front plus hitch."""
        return self.width + self.hitch

    @property
    def footprint(self) -> tuple[Decimal, Decimal, Decimal, Decimal]:
        """``(x0, y0, x1, y1)`` in metres, rotation applied."""
        along, across = (self.depth, self.length) if self.rotation % 180 == 90 else (self.length, self.depth)
        return self.x, self.y, self.x + along, self.y + across


@dataclass(frozen=True)
class Unplaced:
    key: str
    reason: str
    basis: str | None = None


@dataclass(frozen=True)
class Note:
    text: str
    basis: str | None = None


@dataclass(frozen=True)
class Layout:
    stalls: tuple[PlacedStall, ...]
    unplaced: tuple[Unplaced, ...]
    shortfall: Decimal  # metres the segment lacks for the stalls that did not fit (0 when all fit)
    shortfall_by_side: tuple[tuple[str, Decimal], ...] = ()
    notes: tuple[Note, ...] = ()
    gap: Decimal = Decimal(0)
    numbering: str = "sequential"

    @property
    def fits(self) -> bool:
        return not self.unplaced

    def summary(self) -> str:
        """One paragraph in pt-BR: all placed, or by how many metres and which stalls did not fit."""
        placed = len(self.stalls)
        if not self.unplaced:
            return f"Todas as {placed} bancas foram posicionadas." if placed != 1 else "A banca foi posicionada."
        parts = []
        if self.shortfall > 0:
            sides = "; ".join(f"{SIDE_LABELS[s]}: {format_metres(m)}" for s, m in self.shortfall_by_side if m > 0)
            parts.append(f"Faltam {format_metres(self.shortfall)} de rua ({sides}).")
        listed = "; ".join(f"{u.key} — {u.reason}" for u in self.unplaced)
        parts.append(f"{len(self.unplaced)} banca(s) não posicionada(s): {listed}.")
        return " ".join(parts)


@dataclass(frozen=True)
class Breach:
    """A legal problem of a plan: ``code`` (see :data:`BREACH_CODES`), the stalls, a pt-BR message, the article."""

    code: str
    keys: tuple[str, ...]
    message: str
    basis: str | None = None

    @property
    def label(self) -> str:
        return BREACH_CODES.get(self.code, self.code)

    @property
    def signature(self) -> str:
        """Stable text naming this breach (code and stalls), to match a kept breach with a live one."""
        return f"{self.code}:{','.join(sorted(self.keys))}"


# --------------------------------------------------------------------------- regime readings


@dataclass
class _Rules:
    regime: Regime
    layout: LayoutRules
    sections: dict[str, Section]
    section_rank: dict[str, int]
    lines: dict
    equipment: dict
    line_sections: dict[str, list[Section]]
    gap: int
    gap_basis: str | None
    gap_notes: list[Note] = field(default_factory=list)

    def cite(self, basis: str | None) -> str | None:
        return self.regime.cite(basis) if basis else None


def resolve_gap(regime: Regime, gap: Decimal | None, *, strict: bool = True) -> tuple[Decimal, str | None, str]:
    """The minimum gap between stalls: ``(metres, citation or None, how it was set, in pt-BR)``.

    A legal minimum (``min_gap.value``) wins over a smaller ``gap`` — refused
    with a ``UserError`` when ``strict``; an Administration-defined gap
    (``min_gap.admin_defined``) is the caller's ``gap`` (0 when none is given).
    """
    mm, basis, how = _gap(regime, gap, strict=strict)
    return from_mm(mm), basis, how


def _gap(regime: Regime, gap: Decimal | None, *, strict: bool) -> tuple[int, str | None, str]:
    rule = regime.layout.min_gap if regime.layout else None
    given = None if gap is None else to_mm(gap)
    if given is not None and given < 0:
        raise UserError("O espaço entre bancas não pode ser negativo.", field="gap")
    if rule is not None and rule.value is not None:
        legal = to_mm(rule.value)
        cite = regime.cite(rule.basis)
        if given is not None and given < legal:
            if strict:
                raise UserError(
                    f"O espaço entre bancas informado ({format_metres(given, mm=True)}) é menor que o "
                    f"mínimo legal de {format_metres(legal, mm=True)} ({cite}).",
                    field="gap",
                )
            given = legal
        if given is not None and given > legal:
            return (
                given,
                cite,
                (
                    f"Espaço entre bancas: {format_metres(given, mm=True)}, definido para o local "
                    f"(mínimo legal {format_metres(legal, mm=True)})."
                ),
            )
        return legal, cite, f"Espaço mínimo entre bancas: {format_metres(legal, mm=True)}."
    if rule is not None and rule.admin_defined:
        cite = regime.cite(rule.basis)
        if given is None:
            return (
                0,
                cite,
                (
                    "O ato deixa o espaço mínimo entre as estruturas à Administração e nenhum foi "
                    "informado para o local: bancas sem espaço entre si."
                ),
            )
        return given, cite, f"Espaço entre bancas definido pela Administração: {format_metres(given, mm=True)}."
    if given:
        return (
            given,
            None,
            (
                f"Espaço entre bancas definido para o local: {format_metres(given, mm=True)} "
                "(o ato não fixa espaçamento)."
            ),
        )
    return 0, None, "O ato não fixa espaçamento entre bancas."


def _rules(regime: Regime, gap: Decimal | None, *, strict: bool) -> _Rules:
    line_sections: dict[str, list[Section]] = {}
    for section in regime.sections:
        for line_id in section.lines:
            line_sections.setdefault(line_id, []).append(section)
    gap_mm, gap_basis, how = _gap(regime, gap, strict=strict)
    return _Rules(
        regime=regime,
        layout=regime.layout or LayoutRules(),
        sections={s.id: s for s in regime.sections},
        section_rank={s.id: i for i, s in enumerate(regime.sections)},
        lines={line.id: line for line in regime.lines},
        equipment={e.id: e for e in regime.equipment_kinds},
        line_sections=line_sections,
        gap=gap_mm,
        gap_basis=gap_basis,
        gap_notes=[Note(how, gap_basis)],
    )


def _blocking_kinds(rules: _Rules, avoid: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """Obstacle kinds a stall may not stand on → (breach code, citation)."""
    kinds: dict[str, tuple[str, str | None]] = {}
    for kind in avoid:
        if kind not in OBSTACLE_KINDS:
            raise UserError(
                f"Tipo de obstáculo desconhecido: {kind!r}. Opções: {', '.join(OBSTACLE_KINDS)}.", field="avoid"
            )
        kinds[kind] = ("obstacle", None)
    if rules.layout.no_crossings is not None:
        kinds["crossing"] = ("crossing", rules.cite(rules.layout.no_crossings.basis))
    if rules.layout.keep_garages_free is not None:
        kinds["garage"] = ("garage", rules.cite(rules.layout.keep_garages_free.basis))
    return kinds


def _max_points(rules: _Rules, max_points: int | None) -> tuple[int | None, str | None]:
    if max_points is not None:
        if max_points < 0:
            raise UserError("O número máximo de pontos não pode ser negativo.", field="max_points")
        rule = rules.layout.max_points
        return max_points, rules.cite(rule.basis) if rule is not None else None
    rule = rules.layout.max_points
    if rule is not None and rule.value is not None:
        return rule.value, rules.cite(rule.basis)
    return None, None


def _numeral(rules: _Rules, section_id: str | None) -> str:
    section = rules.sections.get(section_id or "")
    return f"Seção {section.numeral}" if section is not None else (f"seção {section_id}" if section_id else "")


# --------------------------------------------------------------------------- auto-layout


@dataclass
class _Item:
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

    def label(self, rules: _Rules) -> str:
        numeral = _numeral(rules, self.req.section)
        return f"{self.req.key} ({numeral})" if numeral else self.req.key


class _Blocked:
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
    rules: _Rules, req: StallRequest, index: int, segment_width: int, sides_used: tuple[str, ...]
) -> tuple[_Item | None, Unplaced | None]:
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
        too_big = _too_large(rules, line, equipment, to_mm(front), to_mm(depth))
        if too_big:
            return None, Unplaced(req.key, too_big[0], too_big[1])
    hitch = req.hitch or Decimal(0)
    item = _Item(req, index, to_mm(front), to_mm(depth), to_mm(hitch), line=line_id or None)
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


def _too_large(rules: _Rules, line, equipment, front: int, depth: int) -> tuple[str, str | None] | None:
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
    heads: list[_Item],
    regular: list[_Item],
    tails: list[_Item],
    *,
    limit: int,
    gap: int,
    end_distance: int,
    blocked_for,
) -> tuple[list[tuple[_Item, int]], list[_Item], int]:
    """Pack one side in order: head end-vendors, stalls, tail end-vendors. Returns placed, failed, the end reached."""
    placed: list[tuple[_Item, int]] = []
    failed: list[_Item] = []
    cursor = 0
    reached = 0

    def put(item: _Item) -> int | None:
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
    rules = _rules(regime, gap, strict=True)
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
    blocking = _blocking_kinds(rules, avoid)
    notes: list[Note] = list(rules.gap_notes)
    unplaced: list[Unplaced] = []

    items: list[_Item] = []
    end_items: list[_Item] = []
    for index, req in enumerate(requests):
        item, refusal = _resolve(rules, req, index, width, sides_used)
        if refusal is not None:
            unplaced.append(refusal)
        elif req.end_vendor:
            end_items.append(item)
        else:
            items.append(item)
    items.sort(key=lambda it: it.rank)

    limit_points, points_basis = _max_points(rules, max_points)
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
    heads: dict[str, list[_Item]] = {s: [] for s in sides_used}
    tails: dict[str, list[_Item]] = {s: [] for s in sides_used}
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

    placed_by_side: dict[str, list[tuple[_Item, int]]] = {}
    wanted: dict[str, tuple[list[_Item], list[_Item], list[_Item]]] = {}  # what each side had to hold
    failed_space: list[tuple[str, _Item]] = []
    spill: list[_Item] = []
    blockers = {}
    for side in sides_used:
        base = _Blocked(per_side_obstacles[side])
        cache: dict[int, _Blocked] = {}
        across = [(it, x) for rows in placed_by_side.values() for it, x in rows]

        def blocked_for(depth: int, base=base, cache=cache, across=across) -> _Blocked:
            # stalls across the street too deep to face this one block it, with the gap (one row there)
            if not across:
                return base
            if depth not in cache:
                deep = [(x - rules.gap, x + it.length + rules.gap) for it, x in across if it.depth + depth > width]
                cache[depth] = _Blocked(list(zip(base.starts, base.ends, strict=True)) + deep) if deep else base
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
            hs, rs, ts, limit=_INF, gap=rules.gap, end_distance=end_distance, blocked_for=blockers[side]
        )
        shortfall_by_side.append((side, from_mm(max(0, reached - length))))
    for side, item in failed_space:
        unplaced.append(Unplaced(item.req.key, f"não coube no {SIDE_LABELS[side]}", rules.cite(segment.basis)))

    stalls = _number(placed_by_side, sides_used, numbering, width)
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
        what = _DISTANCE_FROM.get(rule.what, rule.what)
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


def _number(
    placed_by_side: dict[str, list[tuple[_Item, int]]], sides_used: tuple[str, ...], numbering: str, width: int
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


# --------------------------------------------------------------------------- live checks


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
    rules = _rules(regime, gap, strict=False)
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
            too_big = _too_large(rules, line, equipment, to_mm(s.width), to_mm(s.depth))
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
    blocking = _blocking_kinds(rules, avoid)
    per_side: dict[str, list[tuple[int, int, Obstacle]]] = {s: [] for s in SIDES}
    for obstacle in obstacles:
        if obstacle.kind in blocking:
            start = to_mm(obstacle.start)
            for s in SIDES if obstacle.side == "both" else (obstacle.side,):
                per_side[s].append((start, start + to_mm(obstacle.extent), obstacle))
    for s in SIDES:
        per_side[s].sort(key=lambda o: (o[0], o[1]))
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
        row = [g for g in geos if g.stall.side == side]
        regular = [g for g in row if not g.stall.end_vendor]
        ordered = [
            (g, rules.sections[g.stall.section])
            for g in regular
            if g.stall.section in rules.sections and rules.sections[g.stall.section].order is not None
        ]
        misplaced = {id(g) for g, _ in _out_of_order(ordered)}
        highest: tuple[int, Section] | None = None  # the highest section seen so far along the side
        for g, section in ordered:
            if id(g) in misplaced:
                after = f", depois da Seção {highest[1].numeral}" if highest and highest[0] > section.order else ""
                out.append(
                    Breach(
                        "section-order",
                        (g.stall.key,),
                        f"A {g.name} (Seção {section.numeral}) está fora da ordem das seções no "
                        f"{SIDE_LABELS[side]}{after}.",
                        rules.cite(sides_basis or section.basis),
                    )
                )
            if highest is None or section.order > highest[0]:
                highest = (section.order, section)
        if end_rule is not None and regular:
            first, last = regular[0].x0, max(g.x1 for g in regular)
            distance = to_mm(end_rule.min_distance or 0)
            for g in row:
                if g.stall.end_vendor and not (g.x1 + distance <= first or g.x0 >= last + distance):
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
    limit, basis = _max_points(rules, max_points)
    if limit is not None and len(geos) > limit:
        extra = sorted(geos, key=lambda g: (g.stall.number, g.stall.key))[limit:]
        out.append(
            Breach(
                "max-points",
                tuple(g.stall.key for g in extra),
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


def _split_sections(rules: _Rules, geos: list[_Geo]) -> list[Breach]:
    """A section laid out in two or more separate runs is a second section of its ramo (art. 8º, caput)."""
    runs: dict[str, list[list[_Geo]]] = {}
    for side in SIDES:
        previous = None
        for g in geos:
            if g.stall.side != side or g.stall.end_vendor:
                continue
            section = g.stall.section
            if section and section == previous:
                runs[section][-1].append(g)
            elif section:
                runs.setdefault(section, []).append([g])
            previous = section
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
