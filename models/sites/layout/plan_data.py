"""The plain data of a plan: segment, obstacles, stall requests, placed stalls, layout, breaches."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from models.base.errors import UserError
from models.sites.layout.units import BREACH_CODES, OBSTACLE_KINDS, SIDE_LABELS, SIDE_USES, SIDES, format_metres, to_mm


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
