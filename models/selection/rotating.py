"""The rotating list (Ilha Comprida, art. 21) and the points of an event or beach."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from models.base.errors import UserError
from models.selection.participants import (
    ALGORITHM,
    Participant,
    normalize_text,
)
from models.selection.published import (
    canonical_line,
    canonical_participants,
    list_sha256,
    normalize_seed,
    order_from_list,
)


def rotation(order: Sequence[str], vacancies_per_event: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """The vendors of each event from one drawn ``order`` used as a rotating list
    (Ilha Comprida, Dec. 890/2017, art. 21, § 1º, I): each event takes the next
    names in sequence; when the list ends it starts again from its beginning.
    An event never takes the same vendor twice (at most ``len(order)`` names).
    The list is the drawn order itself: art. 21 reserves nothing, so the quota
    of art. 11, § 2º (licences) does not reorder it."""
    if not order:
        raise UserError("A lista corrida está vazia.", field="order")
    events, cursor, size = [], 0, len(order)
    for n in vacancies_per_event:
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise UserError(f"O número de vagas de cada evento deve ser maior que zero (veio {n}).", field="vacancies")
        take = min(n, size)
        events.append(tuple(order[(cursor + i) % size] for i in range(take)))
        cursor = (cursor + take) % size
    return tuple(events)


def event_vendors(order: Sequence[str], vacancies_per_event: Sequence[int], k: int) -> tuple[str, ...]:
    """The vendors of event ``k`` (1 = the first) of the rotating list."""
    if k < 1 or k > len(vacancies_per_event):
        raise UserError(f"Evento {k} fora da sequência (1 a {len(vacancies_per_event)}).", field="event")
    return rotation(order, vacancies_per_event[:k])[k - 1]


@dataclass(frozen=True)
class PointsResult:
    """The second draw of Ilha Comprida (art. 21, § 1º, II): vendor → point."""

    seed: str
    list_sha256: str
    list_text: str
    order: tuple[str, ...]
    assignments: tuple[tuple[str, str], ...]  # (vendor id, point label), in drawn order

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": ALGORITHM,
            "seed": self.seed,
            "list_sha256": self.list_sha256,
            "list": self.list_text.splitlines(),
            "order": list(self.order),
            "assignments": [{"id": pid, "point": point} for pid, point in self.assignments],
        }


def assign_points(
    vendors: Iterable[Participant],
    points: Sequence[str],
    seed: str,
    *,
    max_points: int | None = None,
    max_basis: str = "",
) -> PointsResult:
    """Spread one event's vendors over its points by a draw of their own: the
    first in drawn order takes the first point, and so on. More points than
    ``max_points`` (Ilha Comprida art. 22: 60) or more vendors than points is
    a ``UserError``."""
    points = [normalize_text(p) for p in points]
    if not points:
        raise UserError("Informe os pontos do evento.", field="points")
    if len(set(points)) != len(points):
        raise UserError("Há pontos repetidos na lista de pontos.", field="points")
    if max_points is not None and len(points) > max_points:
        where = f" ({max_basis})" if max_basis else ""
        raise UserError(f"São {len(points)} pontos; o ato permite no máximo {max_points}{where}.", field="points")
    listed = canonical_participants(vendors)
    if len(listed) > len(points):
        raise UserError(f"São {len(listed)} ambulantes para {len(points)} pontos.", field="points")
    seed = normalize_seed(seed)
    text = "".join(canonical_line(p) + "\n" for p in listed)
    order = order_from_list(text, seed)
    return PointsResult(
        seed=seed,
        list_sha256=list_sha256(text),
        list_text=text,
        order=order,
        assignments=tuple(zip(order, points, strict=False)),
    )
