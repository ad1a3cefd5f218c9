"""The rotating list kept in the database: its events, their vendors and the draws of points."""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from peewee import IntegrityError

from models.access.session import require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.rules.regimes import Regime, get_regime
from models.selection import (
    ALGORITHM,
    Participant,
    assign_points,
    list_sha256,
    max_points_of,
    normalize_text,
    order_from_list,
    rotation,
)
from models.selection.draws import Draw, draw_entries, get_draw
from models.selection.process_tables import PointDraw, RotationEvent
from models.selection.publications import clerk_name
from models.store.db import db


def _rotating(regime: Regime) -> bool:
    return regime.selection is not None and regime.selection.method == "rotating-draw"


def rotation_draws() -> list[tuple[int, str]]:
    """Held draws of regimes whose draw forms a rotating list, newest first: (id, label)."""
    out = []
    for d in Draw.select().where(Draw.status == "held").order_by(Draw.held_at.desc(), Draw.id.desc()):
        try:
            regime = get_regime(d.regime)
        except UserError:
            continue
        if _rotating(regime):
            out.append((d.id, f"Sorteio nº {d.id} — {d.held_at:%d/%m/%Y} — {d.call}"))
    return out


@dataclass(frozen=True)
class ListRow:
    position: int  # 1-based
    id: str
    name: str
    events: tuple[int, ...]  # the events (numbers) this vendor worked


@dataclass(frozen=True)
class EventRow:
    id: int
    number: int
    event_date: _dt.date
    label: str
    vacancies: int
    start: int  # 1-based position in the list where the event began
    vendors: tuple[tuple[str, str], ...]  # (id, name) in the list's order
    wrapped: bool  # the list ended during this event and started again from the beginning
    point_draw: PointDraw | None
    assignments: tuple[tuple[str, str, str], ...]  # (id, name, point) in drawn order
    problems: tuple[str, ...]
    size: int = 0  # of the whole list

    @property
    def span_text(self) -> str:
        """Where in the list the event's vendors are: "4º ao 5º e 1º ao 1º (a lista recomeçou do início)"."""
        if not self.vendors:
            return ""
        last = (self.start - 1 + len(self.vendors) - 1) % self.size + 1
        if not self.wrapped:
            return f"{self.start}º" if last == self.start else f"{self.start}º ao {last}º"
        again = "1º" if last == 1 else f"1º ao {last}º"
        return f"{self.start}º ao {self.size}º e {again} (a lista recomeçou do início)"


@dataclass(frozen=True)
class RotationState:
    draw_id: int
    draw_status: str
    regime_id: str
    site: str
    call: str
    seed: str
    list_sha256: str
    rows: tuple[ListRow, ...]
    events: tuple[EventRow, ...]
    next_start: int  # 1-based position where the next event begins
    max_points: int | None
    max_basis: str
    basis: str  # the rotating list's article
    problems: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.rows)

    def event(self, number: int) -> EventRow:
        for e in self.events:
            if e.number == number:
                return e
        raise UserError(f"O evento {number} não está registrado.", field="event")


def _rotation_draw(draw: Draw | int) -> tuple[Draw, Regime, list]:
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    regime = get_regime(draw.regime)
    if not _rotating(regime):
        raise UserError(
            f"O sorteio nº {draw.id} não forma lista corrida: o ato do regime {regime.short} não a prevê.", field="draw"
        )
    drawn = sorted((e for e in draw_entries(draw) if e.position is not None), key=lambda e: e.position or 0)
    return draw, regime, drawn


def _max_points(regime: Regime, site: str) -> tuple[int | None, str]:
    return max_points_of(regime, site if site in regime.ids("site") else None)


def _events(draw: Draw) -> list[RotationEvent]:
    return list(RotationEvent.select().where(RotationEvent.draw == draw.id).order_by(RotationEvent.number))


def rotation_state(draw: Draw | int) -> RotationState:
    """The rotating list of a held draw, the events registered on it and their point draws, checked again."""
    draw, regime, drawn = _rotation_draw(draw)
    order = [e.participant_id for e in drawn]
    names = {e.participant_id: e.name for e in drawn}
    events = _events(draw)
    expected = rotation(order, [e.vacancies for e in events]) if events else ()
    problems: list[str] = []
    rows: list[EventRow] = []
    worked: dict[str, list[int]] = {}
    cursor = 0
    for i, event in enumerate(events):
        vendors = event.vendors
        event_problems = []
        if tuple(vendors) != expected[i] or event.start != cursor:
            event_problems.append(
                f"Evento {event.number}: os ambulantes registrados não são os que a lista corrida dá."
            )
        for pid in vendors:
            worked.setdefault(pid, []).append(event.number)
        wrapped = cursor + len(vendors) > len(order)
        cursor = (cursor + len(vendors)) % len(order)
        point = PointDraw.get_or_none(PointDraw.event == event.id)
        assignments: tuple[tuple[str, str, str], ...] = ()
        if point is not None:
            assignments = tuple((pid, names.get(pid, pid), p) for pid, p in point.assignments)
            event_problems += [f"Evento {event.number}: {p}" for p in verify_point_draw(point)]
        problems += event_problems
        rows.append(
            EventRow(
                id=event.id,
                number=event.number,
                event_date=event.event_date,
                label=event.label,
                vacancies=event.vacancies,
                start=event.start + 1,
                vendors=tuple((pid, names.get(pid, pid)) for pid in vendors),
                wrapped=wrapped,
                point_draw=point,
                assignments=assignments,
                problems=tuple(event_problems),
                size=len(order),
            )
        )
    max_points, max_basis = _max_points(regime, draw.site)
    return RotationState(
        draw_id=draw.id,
        draw_status=draw.status,
        regime_id=regime.id,
        site=draw.site,
        call=draw.call,
        seed=draw.seed,
        list_sha256=draw.list_sha256,
        rows=tuple(
            ListRow(i, e.participant_id, e.name, tuple(worked.get(e.participant_id, ())))
            for i, e in enumerate(drawn, start=1)
        ),
        events=tuple(rows),
        next_start=cursor + 1,
        max_points=max_points,
        max_basis=max_basis,
        basis=regime.cite(regime.selection.basis if regime.selection is not None else None),
        problems=tuple(problems),
    )


def _check_vacancies(vacancies: int, max_points: int | None, max_basis: str) -> None:
    if isinstance(vacancies, bool) or not isinstance(vacancies, int) or vacancies <= 0:
        raise UserError(f"O número de vagas do evento deve ser maior que zero (veio {vacancies}).", field="vacancies")
    if max_points is not None and vacancies > max_points:
        raise UserError(
            f"São {vacancies} vagas; o ato permite no máximo {max_points} pontos na área ({max_basis}).",
            field="vacancies",
        )


def preview_event(draw: Draw | int, vacancies: int) -> tuple[tuple[tuple[str, str], ...], bool]:
    """Who would work the next event with ``vacancies`` places, and whether the list starts again in it."""
    draw, regime, drawn = _rotation_draw(draw)
    _check_vacancies(vacancies, *_max_points(regime, draw.site))
    order = [e.participant_id for e in drawn]
    names = {e.participant_id: e.name for e in drawn}
    previous = [e.vacancies for e in _events(draw)]
    cursor = sum(min(n, len(order)) for n in previous) % len(order)
    vendors = rotation(order, [*previous, vacancies])[-1]
    return tuple((pid, names[pid]) for pid in vendors), cursor + len(vendors) > len(order)


def add_event(draw: Draw | int, *, event_date: _dt.date, vacancies: int, by: str, label: str = "") -> RotationEvent:
    """Register the next event of the rotating list: it takes the next ``vacancies`` vendors from where the
    last event stopped, starting again from the beginning when the list ends (art. 21, § 1º, I)."""
    require("draws.hold")
    draw, regime, drawn = _rotation_draw(draw)
    if draw.status != "held":
        raise UserError(
            f"O sorteio nº {draw.id} foi anulado: a lista corrida passa a ser a do sorteio que o substituir.",
            field="draw",
        )
    if event_date is None:
        raise UserError("Informe a data do evento.", field="event_date")
    max_points, max_basis = _max_points(regime, draw.site)
    _check_vacancies(vacancies, max_points, max_basis)
    clerk = clerk_name(by)
    order = [e.participant_id for e in drawn]
    with db.atomic():
        events = _events(draw)
        if events and event_date < events[-1].event_date:
            raise UserError(
                f"A lista corrida segue os eventos em ordem: o evento {events[-1].number} foi em "
                f"{events[-1].event_date:%d/%m/%Y}; este não pode ser antes.",
                field="event_date",
            )
        previous = [e.vacancies for e in events]
        cursor = sum(min(n, len(order)) for n in previous) % len(order)
        vendors = rotation(order, [*previous, vacancies])[-1]
        try:
            with db.atomic():
                return RotationEvent.create(
                    draw=draw.id,
                    number=len(events) + 1,
                    event_date=event_date,
                    label=normalize_text(label),
                    vacancies=vacancies,
                    start=cursor,
                    vendors_json=json.dumps(list(vendors)),
                    created_by=clerk,
                )
        except IntegrityError:
            raise UserError(
                "Outro evento acaba de ser registrado nesta lista: atualize e confira antes de registrar.",
                field="event",
            ) from None


def remove_last_event(draw: Draw | int, *, by: str) -> int:
    """Remove the last event registered (a typing mistake), while its points were not drawn; returns its number."""
    require("draws.hold")
    draw, _regime_obj, _drawn = _rotation_draw(draw)
    clerk_name(by)
    with db.atomic():
        events = _events(draw)
        if not events:
            raise UserError("Não há evento registrado nesta lista.", field="event")
        last = events[-1]
        if PointDraw.select().where(PointDraw.event == last.id).exists():
            raise UserError(
                f"Os pontos do evento {last.number} já foram sorteados: o evento fica registrado.", field="event"
            )
        RotationEvent.delete().where(RotationEvent.id == last.id).execute()
    return last.number


_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")


def parse_points(text: str) -> tuple[str, ...]:
    """Point labels: ``"1-20"`` (a range), ``"A1, A2; B1"`` or one per line, mixed."""
    out: list[str] = []
    for part in re.split(r"[,;\n]", text or ""):
        item = normalize_text(part)
        if not item:
            continue
        match = _RANGE.match(item)
        if match:
            first, last = int(match.group(1)), int(match.group(2))
            if first > last or last - first >= 1000:
                raise UserError(f"Intervalo de pontos inválido: '{item}'.", field="points")
            out.extend(str(n) for n in range(first, last + 1))
        else:
            out.append(item)
    if not out:
        raise UserError("Informe os pontos do evento (por exemplo 1-20).", field="points")
    return tuple(out)


def point_label(point: str) -> str:
    return f"Ponto {point}" if point.isdigit() else point


def hold_point_draw(
    event: RotationEvent | int,
    *,
    points: Sequence[str] | str,
    seed: str,
    place: str,
    officials: Sequence[str] | str,
    by: str,
    held_at: _dt.datetime | None = None,
) -> PointDraw:
    """The second draw of an event (art. 21, § 1º, II): the day's vendors over the day's points, at most the
    points the act allows in the area (art. 22). Kept once, with its list, hash and seed."""
    require("draws.hold")
    event_id = event.id if isinstance(event, RotationEvent) else event
    row = RotationEvent.get_or_none(RotationEvent.id == event_id)
    if row is None:
        raise UserError(f"O evento nº {event_id} não existe.", field="event")
    draw, regime, drawn = _rotation_draw(row.draw_id)
    if draw.status != "held":
        raise UserError(f"O sorteio nº {draw.id} foi anulado: não se sorteiam pontos com a sua lista.", field="draw")
    errors = {}
    place_text = normalize_text(place)
    items = officials.splitlines() if isinstance(officials, str) else list(officials)
    officials_text = "\n".join(normalize_text(o) for o in items if normalize_text(o))
    if not place_text:
        errors["place"] = "Informe o local do sorteio dos pontos."
    if not officials_text:
        errors["officials"] = "Informe quem conduziu e testemunhou o sorteio."
    if errors:
        raise FieldErrors(errors)
    labels = parse_points(points) if isinstance(points, str) else tuple(normalize_text(p) for p in points)
    names = {e.participant_id: e.name for e in drawn}
    vendors = [Participant(id=pid, name=names[pid]) for pid in row.vendors]
    max_points, max_basis = _max_points(regime, draw.site)
    result = assign_points(vendors, labels, seed, max_points=max_points, max_basis=max_basis)
    clerk = clerk_name(by)
    try:
        with db.atomic():
            return PointDraw.create(
                event=row.id,
                held_at=(held_at or clock.now()).replace(microsecond=0),
                place=place_text,
                officials=officials_text,
                seed=result.seed,
                points_json=json.dumps(list(labels), ensure_ascii=False),
                list_text=result.list_text,
                list_sha256=result.list_sha256,
                assignments_json=json.dumps([list(a) for a in result.assignments], ensure_ascii=False),
                algorithm=ALGORITHM,
                basis=regime.cite(regime.selection.basis if regime.selection is not None else None),
                created_by=clerk,
            )
    except IntegrityError:
        raise UserError(f"Os pontos do evento {row.number} já foram sorteados.", field="event") from None


def verify_point_draw(point: PointDraw) -> list[str]:
    """Recompute a point draw from its stored list and seed: ``[]`` when everything matches."""
    problems = []
    if list_sha256(point.list_text) != point.list_sha256:
        problems.append("o hash da lista dos pontos não confere.")
    order = order_from_list(point.list_text, point.seed)
    points = json.loads(point.points_json)
    if list(zip(order, points, strict=False)) != point.assignments:
        problems.append("a distribuição registrada não é a que a lista e a semente produzem.")
    return problems


def event_with_draw(event_id: int) -> tuple[RotationEvent, Draw]:
    row = RotationEvent.get_or_none(RotationEvent.id == event_id)
    if row is None:
        raise UserError(f"O evento nº {event_id} não existe.", field="event")
    return row, get_draw(row.draw_id)
