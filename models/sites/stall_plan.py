"""The stall plan being edited: one segment's stalls in whole millimetres, the edits a clerk makes, the legend.

Pure Python (no Qt, no database), so that the map editor's undo commands and
the printed map share one document and one set of rules:

* :class:`StallPlan` holds the stalls of one segment (a :class:`models.sites.Plan`
  gives the street, obstacles and regime) as :class:`Box`es keyed by a private
  ``uid``. Every change goes through :meth:`StallPlan.apply` with a
  :data:`Changes` map ``uid → Box`` (``None`` removes the stall); an undo
  command keeps the boxes before and after and applies one or the other.
* The edit methods (``moved``, ``rotated``, ``resized``, ``aligned``,
  ``distributed``, ``added``, ``deleted``, ``assigned``…) never change the
  plan: they return the :data:`Changes` that would make the edit.
* :meth:`StallPlan.breaches` runs :func:`models.sites.layout.check_plan` (the live
  legal checks, each with its article) on the current boxes; a breach names
  stalls by number, as :func:`models.sites.plan_of` does, so that a breach
  kept with a reason (:func:`models.sites.keep_breach`) matches it again after
  saving.
* :func:`legend` groups the stalls by the colour of their section (SJC, Lei
  9.158/2014, art. 9º: verde e branco, vermelho e branco, azul e branco); stalls
  of a regime without colours are told apart by equipment (a presentation
  choice, not the act's).

Snapping: positions land on a 0,10 m grid, or on a neighbour kept at the
plan's minimum gap, or on a kerb or an end of the street, whichever is nearer
within the tolerance the view gives (a few screen pixels in millimetres).

One module over 600 lines because it is one thing: most of it is :class:`StallPlan`, a single document whose
edit methods share its boxes, snapping and gaps; the legend (a hundred lines) reads the same boxes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from models.base.errors import UserError
from models.base.money import format_factor, parse_typed
from models.rules.regimes import Regime
from models.sites.layout import (
    OBSTACLE_KINDS,
    ROTATIONS,
    SIDES,
    Breach,
    Layout,
    PlacedStall,
    StallRequest,
    format_metres,
    from_mm,
    resolve_gap,
    to_mm,
)

__all__ = [
    "GRID",
    "MIN_SIZE",
    "NUDGE",
    "NUDGE_LARGE",
    "Box",
    "Changes",
    "HolderInfo",
    "LegendEntry",
    "SizeLimit",
    "StallPlan",
    "kept_free_kinds",
    "legend",
    "legend_entry",
]

GRID = 100  # mm: the 0,10 m grid the stalls snap to
NUDGE = 100  # mm: an arrow key
NUDGE_LARGE = 1000  # mm: Shift + arrow key
MIN_SIZE = 500  # mm: the smallest front or depth the editor makes

# Colours told apart where the act gives none (presentation, not law): by equipment kind, in the regime's order.
_PALETTE = ("#8D6E63", "#00897B", "#F9A825", "#6A1B9A", "#546E7A", "#EF6C00", "#AD1457", "#283593", "#558B2F")
_NEUTRAL = "#78909C"
_END_VENDOR = "#616161"


@dataclass(frozen=True)
class Box:
    """One stall on the plan, in whole millimetres (``x`` along the street, ``y`` across from side A's kerb)."""

    uid: int
    number: int
    side: str
    x: int
    y: int
    front: int
    depth: int
    hitch: int = 0
    rotation: int = 0
    section: str | None = None
    line: str | None = None
    equipment: str | None = None
    end_vendor: bool = False
    holder: str | None = None  # the permit number
    holder_id: int | None = None
    holder_name: str | None = None

    @property
    def length(self) -> int:
        """Along the stall's own axis: front plus hitch."""
        return self.front + self.hitch

    @property
    def along(self) -> int:
        """Extent along the street, rotation applied."""
        return self.depth if self.rotation % 180 == 90 else self.length

    @property
    def across(self) -> int:
        return self.length if self.rotation % 180 == 90 else self.depth

    @property
    def x1(self) -> int:
        return self.x + self.along

    @property
    def y1(self) -> int:
        return self.y + self.across

    def placed(self) -> PlacedStall:
        return PlacedStall(
            key=str(self.number),
            number=self.number,
            side=self.side,
            x=from_mm(self.x),
            y=from_mm(self.y),
            width=from_mm(self.front),
            depth=from_mm(self.depth),
            rotation=self.rotation,
            hitch=from_mm(self.hitch),
            section=self.section,
            line=self.line,
            holder=self.holder,
            holder_id=self.holder_id,
            equipment=self.equipment,
            end_vendor=self.end_vendor,
        )

    @classmethod
    def from_placed(cls, uid: int, stall: PlacedStall, holder_name: str | None = None) -> Box:
        return cls(
            uid=uid,
            number=stall.number,
            side=stall.side,
            x=to_mm(stall.x),
            y=to_mm(stall.y),
            front=to_mm(stall.width),
            depth=to_mm(stall.depth),
            hitch=to_mm(stall.hitch or 0),
            rotation=stall.rotation,
            section=stall.section,
            line=stall.line,
            equipment=stall.equipment,
            end_vendor=stall.end_vendor,
            holder=stall.holder,
            holder_id=stall.holder_id,
            holder_name=holder_name,
        )


Changes = dict[int, "Box | None"]


@dataclass(frozen=True)
class HolderInfo:
    """A permit that may take a stall: its id, number, holder's name and section."""

    permit_id: int
    number: str
    name: str
    section: str = ""


@dataclass(frozen=True)
class SizeLimit:
    max_front: int | None  # mm; None: the act gives no maximum
    max_depth: int | None
    text: str  # "ramo Legumes e verduras: até 8,00 × 3,50 m"
    basis: str | None = None


@dataclass(frozen=True)
class LegendEntry:
    key: str
    label: str  # "Verde e branco"
    hex: str
    detail: str  # "Seções I a IV"
    basis: str | None = None  # the article, cited ("Lei 9.158/2014, art. 9º, I")


# --------------------------------------------------------------------------- legend


def _runs(indexes: list[int], names: Sequence[str]) -> str:
    """``[0, 1, 2, 4]`` with numerals → ``"I a III, V"``."""
    parts: list[str] = []
    runs: list[list[int]] = []  # each run of consecutive indexes: [first, last]
    for i in sorted(indexes):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    for first, last in runs:
        parts.append(names[first] if first == last else f"{names[first]} a {names[last]}")
    return ", ".join(parts)


def legend_entry(
    regime: Regime, section: str | None, equipment: str | None = None, end_vendor: bool = False
) -> LegendEntry:
    """The colour a stall is drawn in: its section's (art. 9º), else its equipment's, else neutral."""
    if end_vendor:
        return LegendEntry(
            "end-vendor", "Ponta de feira", _END_VENDOR, "comércio nas pontas da feira", _cite_end_vendors(regime)
        )
    sections = regime.sections
    found = next((s for s in sections if s.id == section), None) if section else None
    if found is not None and found.colour is not None:
        colour = found.colour
        same = [
            i
            for i, s in enumerate(sections)
            if s.colour is not None and (s.colour.name, s.colour.hex) == (colour.name, colour.hex)
        ]
        numerals = [s.numeral for s in sections]
        detail = ("Seção " if len(same) == 1 else "Seções ") + _runs(same, numerals)
        return LegendEntry(
            f"colour:{colour.name}:{colour.hex}",
            colour.name[:1].upper() + colour.name[1:],
            colour.hex or _NEUTRAL,
            detail,
            regime.cite(colour.basis),
        )
    kinds = [e.id for e in regime.equipment_kinds]
    if equipment and equipment in kinds and not any(s.colour for s in sections):
        kind = regime.equipment_kinds[kinds.index(equipment)]
        return LegendEntry(
            f"equipment:{equipment}",
            kind.label,
            _PALETTE[kinds.index(equipment) % len(_PALETTE)],
            "equipamento",
            regime.cite(kind.basis),
        )
    if found is not None:
        return LegendEntry("section", "Sem cor no ato", _NEUTRAL, "seção sem cor definida")
    return LegendEntry("none", "Banca", _NEUTRAL, "sem seção")


def _cite_end_vendors(regime: Regime) -> str | None:
    rule = regime.layout.end_vendors if regime.layout else None
    return regime.cite(rule.basis) if rule is not None else None


def legend(regime: Regime, stalls: Iterable[tuple[str | None, str | None, bool]]) -> list[LegendEntry]:
    """The entries of the stalls ``(section, equipment, end_vendor)``, in the regime's order of sections."""
    order = {s.id: i for i, s in enumerate(regime.sections)}
    kinds = {e.id: i for i, e in enumerate(regime.equipment_kinds)}
    seen: dict[str, tuple[tuple, LegendEntry]] = {}
    for section, equipment, end_vendor in stalls:
        entry = legend_entry(regime, section, equipment, end_vendor)
        rank = (
            (0, order.get(section or "", 999))
            if entry.key.startswith("colour")
            else ((1, kinds.get(equipment or "", 999)) if entry.key.startswith("equipment") else (2, 0))
        )
        if entry.key not in seen or rank < seen[entry.key][0]:
            seen[entry.key] = (rank, entry)
    return [entry for _, entry in sorted(seen.values(), key=lambda pair: (pair[0], pair[1].label))]


def kept_free_kinds(regime: Regime, avoid: Iterable[str]) -> dict[str, str | None]:
    """Obstacle kinds no stall may stand on → the article (None: the Administration's choice for the site)."""
    kinds: dict[str, str | None] = {kind: None for kind in avoid if kind in OBSTACLE_KINDS}
    rules = regime.layout
    if rules is not None and rules.no_crossings is not None:
        kinds["crossing"] = regime.cite(rules.no_crossings.basis)
    if rules is not None and rules.keep_garages_free is not None:
        kinds["garage"] = regime.cite(rules.keep_garages_free.basis)
    return kinds


# --------------------------------------------------------------------------- the plan


class StallPlan:
    """The stalls of one segment being edited (see the module's notes). ``plan`` is a :class:`models.sites.Plan`."""

    def __init__(self, plan, *, names: Mapping[int, str] | None = None, position: int = 0):
        self.plan = plan
        self.regime: Regime = plan.regime
        self.position = position  # the segment's position in the site (0 = the first)
        self.length = to_mm(plan.segment.length)
        self.width = to_mm(plan.segment.width)
        self.gap = to_mm(resolve_gap(plan.regime, plan.gap, strict=False)[0])
        self.stalls: dict[int, Box] = {}
        self._next_uid = 1
        names = names or {}
        for stall in plan.stalls:
            uid = self._new_uid()
            self.stalls[uid] = Box.from_placed(uid, stall, names.get(stall.holder_id) if stall.holder_id else None)
        self.listeners: list[Callable[[set[int]], None]] = []
        self._breaches: list[Breach] | None = None
        self._flagged: dict[int, list[Breach]] | None = None
        self._by_number: dict[int, list[int]] | None = None

    def _new_uid(self) -> int:
        uid = self._next_uid
        self._next_uid += 1
        return uid

    # -- the one way to change it -------------------------------------------
    def apply(self, changes: Mapping[int, Box | None]) -> None:
        """Put each box in place (``None`` removes it) and tell the listeners which uids changed."""
        for uid, box in changes.items():
            if box is None:
                self.stalls.pop(uid, None)
            else:
                if box.uid != uid:
                    raise ValueError(f"box {box.uid} filed under uid {uid}")
                self.stalls[uid] = box
                self._next_uid = max(self._next_uid, uid + 1)
        self._breaches = self._flagged = self._by_number = None
        changed = set(changes)
        for listener in list(self.listeners):
            listener(changed)

    def before(self, changes: Mapping[int, Box | None]) -> Changes:
        """What ``changes`` would replace: the undo of applying them."""
        return {uid: self.stalls.get(uid) for uid in changes}

    # -- reading -------------------------------------------------------------
    def boxes(self) -> list[Box]:
        """By number (then uid)."""
        return sorted(self.stalls.values(), key=lambda b: (b.number, b.uid))

    def placed(self) -> list[PlacedStall]:
        return [b.placed() for b in self.boxes()]

    def by_number(self, number: int) -> list[int]:
        return list(self._numbers().get(number, ()))

    def breaches(self) -> list[Breach]:
        """The live legal checks (:func:`models.sites.layout.check_plan`), cached until the next change."""
        if self._breaches is None:
            self._breaches = self.plan.check(self.placed())
        return self._breaches

    def _numbers(self) -> dict[int, list[int]]:
        if self._by_number is None:
            index: dict[int, list[int]] = {}
            for b in self.stalls.values():
                index.setdefault(b.number, []).append(b.uid)
            self._by_number = index
        return self._by_number

    def breach_uids(self, breach: Breach) -> set[int]:
        """The stalls a breach names (it names them by number)."""
        index = self._numbers()
        return {uid for k in breach.keys if str(k).isdigit() for uid in index.get(int(k), ())}

    def flagged(self) -> dict[int, list[Breach]]:
        """Each stall in a breach → its breaches (cached until the next change)."""
        if self._flagged is None:
            out: dict[int, list[Breach]] = {}
            for breach in self.breaches():
                for uid in self.breach_uids(breach):
                    out.setdefault(uid, []).append(breach)
            self._flagged = out
        return self._flagged

    def kept_free(self) -> dict[str, str | None]:
        return kept_free_kinds(self.regime, self.plan.avoid)

    def legend(self) -> list[LegendEntry]:
        return legend(self.regime, ((b.section, b.equipment, b.end_vendor) for b in self.stalls.values()))

    def entry(self, box: Box) -> LegendEntry:
        return legend_entry(self.regime, box.section, box.equipment, box.end_vendor)

    def section_label(self, box: Box) -> str:
        """``"Seção III"``, the equipment's name, or ``""``."""
        if box.end_vendor:
            return "Ponta de feira"
        section = next((s for s in self.regime.sections if s.id == box.section), None) if box.section else None
        if section is not None:
            return f"Seção {section.numeral}"
        kind = next((e for e in self.regime.equipment_kinds if e.id == box.equipment), None)
        return kind.label if kind is not None else (box.section or "")

    def limits(self, box: Box) -> SizeLimit:
        """The largest front and depth the act allows this stall (art. 5º of SJC: by line; equipment; ends)."""
        regime = self.regime
        if box.end_vendor and regime.layout and regime.layout.end_vendors:
            rule = regime.layout.end_vendors
            return SizeLimit(
                to_mm(rule.front),
                to_mm(rule.depth),
                f"ponta de feira: até {format_metres(rule.front)} × {format_metres(rule.depth)}",
                regime.cite(rule.basis),
            )
        line_id = box.line
        section = next((s for s in regime.sections if s.id == box.section), None) if box.section else None
        if not line_id and section is not None and len(section.lines) == 1:
            line_id = section.lines[0]
        line = next((ln for ln in regime.lines if ln.id == line_id), None) if line_id else None
        if line is not None and line.front is not None and line.depth is not None:
            return SizeLimit(
                to_mm(line.front),
                to_mm(line.depth),
                f"ramo {line.label}: até {format_metres(line.front)} × {format_metres(line.depth)}",
                regime.cite(line.basis),
            )
        kind = next((e for e in regime.equipment_kinds if e.id == box.equipment), None) if box.equipment else None
        if kind is not None:
            front = kind.max_front if kind.max_front is not None else kind.front
            depth = kind.max_depth if kind.max_depth is not None else kind.depth
            if front is not None or depth is not None:
                shown = " × ".join(format_metres(v) if v is not None else "—" for v in (front, depth))
                return SizeLimit(
                    to_mm(front) if front is not None else None,
                    to_mm(depth) if depth is not None else None,
                    f"{kind.label}: até {shown}",
                    regime.cite(kind.basis),
                )
        return SizeLimit(None, None, "o ato não fixa tamanho máximo para esta banca")

    def next_number(self) -> int:
        return max((b.number for b in self.stalls.values()), default=0) + 1

    def counts(self) -> tuple[int, int]:
        """(stalls, stalls with a holder)."""
        return len(self.stalls), sum(1 for b in self.stalls.values() if b.holder_id is not None)

    # -- geometry helpers ----------------------------------------------------
    def _side_of(self, y: int, across: int) -> str:
        return "a" if 2 * y + across < self.width else "b"

    def _placed_at(self, box: Box, x: int, y: int) -> Box:
        side = self._side_of(y, box.across)
        rotation = box.rotation
        if side != box.side and rotation in (0, 180):
            rotation = 0 if side == "a" else 180  # facing the middle of the street from its new kerb
        return replace(box, x=x, y=y, side=side, rotation=rotation)

    @staticmethod
    def _grid(value: int) -> int:
        return (value + GRID // 2) // GRID * GRID

    def _snap_x(self, x0: int, width: int, y0: int, y1: int, moving: set[int], tolerance: int) -> int:
        """The nearest of: a street end, a neighbour in the row at the minimum gap, the edge of a stall in
        another row — within ``tolerance``; else the grid."""
        best, best_d = None, tolerance + 1
        candidates = [0, self.length - width]
        for other in self.stalls.values():
            if other.uid in moving:
                continue
            if other.y < y1 and y0 < other.y1:  # the same row: keep the gap
                candidates += [other.x1 + self.gap, other.x - self.gap - width]
            else:
                candidates += [other.x, other.x1 - width]
        for c in candidates:
            d = abs(c - x0)
            if d <= tolerance and d < best_d:
                best, best_d = c, d
        return best if best is not None else self._grid(x0)

    def _snap_y(self, y0: int, height: int, x0: int, x1: int, moving: set[int], tolerance: int) -> int:
        best, best_d = None, tolerance + 1
        candidates = [0, self.width - height]
        for other in self.stalls.values():
            if other.uid in moving or other.x > x1 + 20_000 or other.x1 < x0 - 20_000:
                continue
            candidates += [other.y, other.y1 - height]
        for c in candidates:
            d = abs(c - y0)
            if d <= tolerance and d < best_d:
                best, best_d = c, d
        return best if best is not None else self._grid(y0)

    # -- edits (each returns the Changes; nothing is applied) ----------------
    def moved(self, uids: Iterable[int], dx: int, dy: int, *, snap: bool = True, tolerance: int = 300) -> Changes:
        """Move the stalls together by ``dx``, ``dy`` mm; with ``snap`` the group lands on the grid, a
        neighbour (at the minimum gap) or a kerb. A stall that crosses the middle changes side and faces
        the middle from its new kerb."""
        uids = [u for u in uids if u in self.stalls]
        if not uids:
            return {}
        boxes = [self.stalls[u] for u in uids]
        gx0, gy0 = min(b.x for b in boxes), min(b.y for b in boxes)
        gx1, gy1 = max(b.x1 for b in boxes), max(b.y1 for b in boxes)
        if snap:
            moving = set(uids)
            ny0 = self._snap_y(gy0 + dy, gy1 - gy0, gx0 + dx, gx1 + dx, moving, tolerance)
            dy = ny0 - gy0
            nx0 = self._snap_x(gx0 + dx, gx1 - gx0, gy0 + dy, gy1 + dy, moving, tolerance)
            dx = nx0 - gx0
        if dx == 0 and dy == 0:
            return {}
        return {b.uid: self._placed_at(b, b.x + dx, b.y + dy) for b in boxes}

    def nudged(self, uids: Iterable[int], dx: int, dy: int) -> Changes:
        """An exact move (keyboard): 0,10 m or 1 m a press, no snapping."""
        return self.moved(uids, dx, dy, snap=False)

    def rotated(self, uids: Iterable[int], quarter: int = 1) -> Changes:
        """Turn each stall by 90° steps about its centre, keeping it on its kerb when it stood on one."""
        out: Changes = {}
        for uid in uids:
            box = self.stalls.get(uid)
            if box is None:
                continue
            rotation = ROTATIONS[(ROTATIONS.index(box.rotation) + quarter) % len(ROTATIONS)]
            turned = replace(box, rotation=rotation)
            cx2, cy2 = 2 * box.x + box.along, 2 * box.y + box.across
            x = (cx2 - turned.along) // 2
            y = (cy2 - turned.across) // 2
            if box.y == 0:
                y = 0
            elif box.y1 == self.width:
                y = self.width - turned.across
            out[uid] = replace(turned, x=x, y=y)
        return out

    def typed_size(self, uid: int, front: str, depth: str) -> tuple[int, int]:
        """Front and depth as the clerk typed them in metres (pt-BR, :func:`models.base.money.parse_typed`) → mm.

        Refused — ``UserError`` naming the field (``front``/``depth``) — when the number cannot be read, is
        zero or negative, is below the editor's smallest stall, has a fraction of a millimetre, or exceeds
        the largest size the act allows this stall (:meth:`limits`, with the act's article). Nothing is
        clamped: what was typed is what is kept, or the reason it cannot be."""
        limit = self.limits(self.stalls[uid])
        out: list[int] = []
        for key, label, text, most in (
            ("front", "Frente", front, limit.max_front),
            ("depth", "Profundidade", depth, limit.max_depth),
        ):
            metres = parse_typed(text, what=label, field=key)
            if metres <= 0:
                raise UserError(
                    f"{label}: informe um valor maior que zero (veio {format_factor(metres)} m).", field=key
                )
            thousandths = metres * 1000
            if thousandths != thousandths.to_integral_value():
                raise UserError(
                    f"{label}: {format_factor(metres)} m — use no máximo três casas decimais (milímetros).", field=key
                )
            mm = int(thousandths)
            if mm < MIN_SIZE:
                raise UserError(
                    f"{label}: {format_metres(mm, mm=True)} — o mapa não desenha banca menor que "
                    f"{format_metres(MIN_SIZE, mm=True)}.",
                    field=key,
                )
            if most is not None and mm > most:
                basis = f" ({limit.basis})" if limit.basis else ""
                raise UserError(
                    f"{label}: {format_metres(mm, mm=True)} passa do máximo que o ato permite "
                    f"a esta banca — {limit.text}{basis}.",
                    field=key,
                )
            out.append(mm)
        return out[0], out[1]

    def resized(self, uid: int, front: int, depth: int) -> tuple[Changes, SizeLimit, bool]:
        """Front and depth in mm, kept within what the act allows this stall and on the 0,10 m steps the
        editor uses; returns ``(changes, limit, clamped?)``. The stall keeps its start along the street
        and its kerb."""
        box = self.stalls[uid]
        limit = self.limits(box)
        want = (front, depth)
        front, depth = max(MIN_SIZE, front), max(MIN_SIZE, depth)
        if limit.max_front is not None:
            front = min(front, limit.max_front)
        if limit.max_depth is not None:
            depth = min(depth, limit.max_depth)
        clamped = (front, depth) != want
        if (front, depth) == (box.front, box.depth):
            return {}, limit, clamped
        new = replace(box, front=front, depth=depth)
        y = box.y
        if box.side == "b" or box.y1 == self.width:
            y = box.y1 - new.across
        return {uid: replace(new, y=y)}, limit, clamped

    def aligned(self, uids: Iterable[int], how: str) -> Changes:
        """``left``/``right`` (along the street), ``top``/``bottom`` (across) or ``kerb`` (each on its side's kerb)."""
        boxes = [self.stalls[u] for u in uids if u in self.stalls]
        if not boxes or (how != "kerb" and len(boxes) < 2):
            return {}
        out: Changes = {}
        for b in boxes:
            if how == "left":
                x, y = min(o.x for o in boxes), b.y
            elif how == "right":
                x, y = max(o.x1 for o in boxes) - b.along, b.y
            elif how == "top":
                x, y = b.x, min(o.y for o in boxes)
            elif how == "bottom":
                x, y = b.x, max(o.y1 for o in boxes) - b.across
            elif how == "kerb":
                x, y = b.x, 0 if b.side == "a" else self.width - b.across
            else:
                raise ValueError(how)
            if (x, y) != (b.x, b.y):
                out[b.uid] = self._placed_at(b, x, y)
        return out

    def distributed(self, uids: Iterable[int]) -> Changes:
        """Equal gaps along the street between the first and the last of the stalls (three or more)."""
        boxes = sorted((self.stalls[u] for u in uids if u in self.stalls), key=lambda b: (b.x, b.uid))
        if len(boxes) < 3:
            return {}
        span = boxes[-1].x1 - boxes[0].x
        free = span - sum(b.along for b in boxes)
        gaps = len(boxes) - 1
        out: Changes = {}
        x = boxes[0].x
        for i, b in enumerate(boxes):
            if b.x != x:
                out[b.uid] = replace(b, x=x)
            x += b.along + (free // gaps + (1 if i < free % gaps else 0) if i < gaps else 0)
        return out

    def packed(self, uids: Iterable[int]) -> Changes:
        """Close the selected stalls up behind the first, at the minimum gap (in street order)."""
        boxes = sorted((self.stalls[u] for u in uids if u in self.stalls), key=lambda b: (b.x, b.uid))
        out: Changes = {}
        if len(boxes) < 2:
            return out
        x = boxes[0].x1 + self.gap
        for b in boxes[1:]:
            if b.x != x:
                out[b.uid] = replace(b, x=x)
            x += b.along + self.gap
        return out

    def added(
        self, *, section: str | None = None, equipment: str | None = None, side: str = "a", x: int | None = 0
    ) -> tuple[int, Changes]:
        """A new free stall with the next number, the size its line allows (else 3,00 × 2,50 m), on its
        section's side (else ``side``) against the kerb, at ``x`` (on the grid) — ``None``: at the first place
        where it breaks no rule (:meth:`first_free_x`)."""
        regime = self.regime
        found = next((s for s in regime.sections if s.id == section), None) if section else None
        if section and found is None:
            raise UserError(f"A seção {section!r} não existe no regime {regime.id}.", field="section")
        if found is not None and found.side:
            side = found.side
        if side not in self.plan.segment.sides_used:
            side = "a"
        line = found.lines[0] if found is not None and len(found.lines) == 1 else None
        uid = self._new_uid()
        probe = Box(
            uid=uid,
            number=self.next_number(),
            side=side,
            x=0,
            y=0,
            front=3000,
            depth=2500,
            section=section,
            line=line,
            equipment=equipment,
        )
        limit = self.limits(probe)
        front = limit.max_front if limit.max_front is not None else 3000
        depth = limit.max_depth if limit.max_depth is not None else 2500
        depth = min(depth, self.width)

        def at_kerb(kerb: str) -> Box:
            box = replace(probe, side=kerb, front=front, depth=depth, rotation=0 if kerb == "a" else 180)
            return replace(box, y=0 if kerb == "a" else self.width - box.across)

        box = at_kerb(side)
        if x is None:  # the first place where it breaks no rule: on its kerb, then the other; else the start
            kerbs = [side] if found is not None and found.side else [side, *sorted(set(SIDES) - {side})]
            for kerb in kerbs:
                if kerb not in self.plan.segment.sides_used:
                    continue
                free = self.first_free_x(at_kerb(kerb))
                if free is not None:
                    box, x = at_kerb(kerb), free
                    break
            else:
                x = 0
        x = min(max(0, self._grid(x)), max(0, self.length - box.along))
        return uid, {uid: replace(box, x=x)}

    def first_free_x(self, box: Box) -> int | None:
        """The first ``x`` along its kerb, from the street's start, where ``box`` (not yet in the plan) breaks
        none of the act's rules — right after a neighbour at the minimum gap, or the start; None when there is no
        such place (issue 31 §6: "+ Banca" dropped the new stall onto existing ones)."""
        row = [b for b in self.stalls.values() if b.y < box.y + box.across and box.y < b.y1]
        ends = [b.x1 + self.gap for b in row] + [
            to_mm(o.start + o.extent) for o in self.plan.obstacles if o.side in (box.side, "both")
        ]
        # after each neighbour and obstacle, and every 0,50 m up to 5 m further (an obstacle may ask for a clearance)
        candidates = sorted({self._grid(e + GRID // 2 - 1) + k * 5 * GRID for e in [0, *ends] for k in range(11)})
        placed = self.placed()
        mine = str(box.number)
        for x in candidates:
            if x + box.along > self.length:
                break
            if any(b.x < x + box.along + self.gap and x < b.x1 + self.gap for b in row):
                continue  # on a neighbour, or nearer than the gap
            trial = replace(box, x=x)
            if not any(mine in breach.keys for breach in self.plan.check([*placed, trial.placed()])):
                return x
        return None

    def deleted(self, uids: Iterable[int]) -> Changes:
        return {u: None for u in uids if u in self.stalls}

    def edited(self, uid: int, *, number: int | None = None, section: str | None = None) -> Changes:
        """A new number or section (the line follows the section when it has only one)."""
        box = self.stalls[uid]
        new = box
        if number is not None and number != box.number:
            if number < 1:
                raise UserError("O número da banca deve ser maior que zero.", field="number")
            other = next((b for b in self.stalls.values() if b.number == number and b.uid != uid), None)
            if other is not None:
                raise UserError(f"Já existe a banca {number} neste trecho.", field="number")
            new = replace(new, number=number)
        if section is not None and section != (box.section or ""):
            found = next((s for s in self.regime.sections if s.id == section), None) if section else None
            if section and found is None:
                raise UserError(f"A seção {section!r} não existe no regime {self.regime.id}.", field="section")
            line = box.line
            if found is not None and found.lines and line not in found.lines:
                line = found.lines[0] if len(found.lines) == 1 else None
            new = replace(new, section=section or None, line=line if section else box.line)
        return {} if new == box else {uid: new}

    def assigned(self, uid: int, holder: HolderInfo, *, elsewhere: Mapping[int, int] | None = None) -> Changes:
        """Put ``holder`` on the stall: refused when the stall has a holder, or the holder already holds a
        stall of this plan or (``elsewhere``: permit id → stall number) of another segment of the site."""
        box = self.stalls.get(uid)
        if box is None:
            raise UserError("Banca não encontrada no mapa.", field="stall")
        if box.holder_id == holder.permit_id:
            return {}
        if box.holder_id is not None:
            raise UserError(
                f"A banca {box.number} já tem titular (permissão nº {box.holder}, "
                f"{box.holder_name or 'titular'}): libere a banca antes.",
                field="stall",
            )
        other = next((b for b in self.stalls.values() if b.holder_id == holder.permit_id), None)
        number = other.number if other is not None else (elsewhere or {}).get(holder.permit_id)
        if number is not None:
            raise UserError(
                f"A permissão nº {holder.number} ({holder.name}) já ocupa a banca {number} deste "
                "local: um titular ocupa uma só banca por local.",
                field="holder",
            )
        return {uid: replace(box, holder=holder.number, holder_id=holder.permit_id, holder_name=holder.name)}

    def unassigned(self, uids: Iterable[int]) -> Changes:
        return {
            u: replace(self.stalls[u], holder=None, holder_id=None, holder_name=None)
            for u in uids
            if u in self.stalls and self.stalls[u].holder_id is not None
        }

    def auto(
        self, extra: Sequence[StallRequest] = (), *, names: Mapping[int, str] | None = None
    ) -> tuple[Changes, Layout]:
        """Lay out again the plan's stalls (with their holders) and ``extra`` requests
        (:func:`models.sites.layout.auto_layout` with the site's gap, numbering and limits). Stalls that do not
        fit leave the plan and are listed in the layout's ``unplaced``, with the reason."""
        held = {b.holder_id for b in self.stalls.values() if b.holder_id is not None}
        requests = [
            StallRequest(
                key=f"#{b.uid}",
                section=b.section,
                line=b.line,
                front=from_mm(b.front),
                depth=from_mm(b.depth),
                hitch=from_mm(b.hitch),
                holder=b.holder,
                holder_id=b.holder_id,
                equipment=b.equipment,
                end_vendor=b.end_vendor,
            )
            for b in self.boxes()
        ]
        requests += [r for r in extra if r.holder_id is None or r.holder_id not in held]
        layout = self.plan.auto(requests)
        names = dict(names or {})
        names.update({b.holder_id: b.holder_name for b in self.stalls.values() if b.holder_id and b.holder_name})
        out: Changes = {uid: None for uid in self.stalls}
        fresh = self._next_uid
        for stall in layout.stalls:
            if stall.key.startswith("#"):
                uid = int(stall.key[1:])
            else:
                uid, fresh = fresh, fresh + 1
            out[uid] = Box.from_placed(uid, stall, names.get(stall.holder_id) if stall.holder_id else None)
        return out, layout

    # -- output ----------------------------------------------------------------
    def export(self, base: dict) -> dict:
        """``base`` (:func:`models.sites.site_export`) with this segment's stalls as they are now."""
        sections = {s.id: s for s in self.regime.sections}
        mine = []
        for b in self.boxes():
            section = sections.get(b.section or "")
            mine.append(
                {
                    "number": b.number,
                    "segment": self.position,
                    "section": b.section,
                    "section_numeral": section.numeral if section else None,
                    "line": b.line,
                    "side": b.side,
                    "x": from_mm(b.x),
                    "y": from_mm(b.y),
                    "width": from_mm(b.front),
                    "depth": from_mm(b.depth),
                    "hitch": from_mm(b.hitch),
                    "rotation": b.rotation,
                    "end_vendor": b.end_vendor,
                    "equipment": b.equipment,
                    "holder": b.holder,
                    "holder_name": b.holder_name,
                }
            )
        others = [s for s in base.get("stalls", []) if s.get("segment", 0) != self.position]
        out = dict(base)
        out["stalls"] = sorted(others + mine, key=lambda s: s["number"])
        return out


def metres_text(mm: int) -> str:
    """``"12,50 m"``."""
    return format_metres(mm, mm=True)


def decimal_metres(mm: int) -> Decimal:
    return from_mm(mm)
