"""A site as the form gives it (:class:`SiteInput`), its validation, and saving, reading back and deleting it.

Segments are matched by position; a segment that goes away must have no
stalls. Every error is a pt-BR ``FieldErrors`` naming the form's field.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from peewee import (
    IntegrityError,
    fn,
)

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed
from models.rules.regimes import WEEKDAYS, Regime, RegimeError, get_regime
from models.sites.layout import (
    NUMBERING,
    OBSTACLE_KINDS,
    SIDE_USES,
    SIDES,
    resolve_gap,
)
from models.sites.queries import find_site, named_points, obstacles_of, site_segments
from models.sites.tables import SITE_KINDS, NamedPoint, Site, SiteObstacle, SiteSegment, Stall, StallBreach
from models.store.db import db, update_versioned


@dataclass
class ObstacleInput:
    kind: str = ""
    side: str = "a"
    start: str | Decimal = ""
    extent: str | Decimal = ""
    label: str = ""


@dataclass
class SegmentInput:
    street: str = ""
    from_street: str = ""
    to_street: str = ""
    length: str | Decimal = ""
    width: str | Decimal = ""
    sides: str = "both"
    obstacles: list[ObstacleInput] = field(default_factory=list)


@dataclass
class PointInput:
    code: str = ""
    label: str = ""
    description: str = ""
    regime_site: str = ""
    basis: str = ""
    x: str | Decimal | None = None
    side: str = ""


@dataclass
class SiteInput:
    name: str = ""
    kind: str = "street"
    regime: str = ""
    regime_site: str = ""
    schedule: str = ""
    weekdays: Sequence[str] = ()
    setup_from: str | _dt.time | None = None
    setup_to: str | _dt.time | None = None
    opens: str | _dt.time | None = None
    closes: str | _dt.time | None = None
    teardown_from: str | _dt.time | None = None
    teardown_to: str | _dt.time | None = None
    first_day: str | _dt.date | None = None
    last_day: str | _dt.date | None = None
    max_points: str | int | None = None
    numbering: str = "sequential"
    gap: str | Decimal | None = None
    avoid: Sequence[str] = ()
    notes: str = ""
    segments: list[SegmentInput] = field(default_factory=list)
    points: list[PointInput] = field(default_factory=list)


MAX_METRES = 100_000  # no street, feira or beach of a town is longer (and the column keeps 20 characters)
_TIME = re.compile(r"^\s*(\d{1,2})(?::|h)?(\d{2})?\s*(?:min)?\s*$")


def _time(errors: dict, key: str, value, what: str) -> _dt.time | None:
    if value is None or value == "":
        return None
    if isinstance(value, _dt.time):
        return value
    match = _TIME.match(str(value))
    if match:
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        if hour < 24 and minute < 60:
            return _dt.time(hour, minute)
    errors.setdefault(key, f"{what}: hora inválida {value!r} (use 16:00).")
    return None


def _date(errors: dict, key: str, value, what: str) -> _dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = str(value).strip()
    for pattern in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return _dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    errors.setdefault(key, f"{what}: data inválida {value!r} (use 27/03/2026).")
    return None


def _metres(
    errors: dict,
    key: str,
    value,
    what: str,
    *,
    required: bool = True,
    positive: bool = True,
) -> Decimal | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            errors.setdefault(key, f"Informe {what}.")
        return None
    try:
        number = parse_typed(value, what=f"{what[0].upper()}{what[1:]} (em metros)")
    except UserError as exc:
        errors.setdefault(key, exc.message)
        return None
    if number < 0 or (positive and number == 0):
        errors.setdefault(
            key,
            f"{what[0].upper()}{what[1:]} deve ser maior que zero."
            if positive
            else f"{what[0].upper()}{what[1:]} não pode ser negativo(a).",
        )
        return None
    if number > MAX_METRES:
        errors.setdefault(key, f"{what[0].upper()}{what[1:]}: valor grande demais (no máximo 100.000 m).")
        return None
    if number != number.quantize(Decimal("0.001")):
        errors.setdefault(key, f"{what[0].upper()}{what[1:]}: no máximo três casas (milímetros).")
        return None
    return number


def _validate(data: SiteInput, *, site: Site | None) -> tuple[dict, list[dict], list[dict], Regime | None]:
    errors: dict[str, str] = {}
    name = " ".join((data.name or "").split())
    if not name:
        errors["name"] = "Informe o nome do local."
    else:
        clash = Site.get_or_none(fn.LOWER(Site.name) == name.lower())
        if clash is not None and (site is None or clash.id != site.id):
            errors["name"] = f"Já existe um local com o nome {clash.name}."
    if data.kind not in SITE_KINDS:
        errors["kind"] = f"Tipo de local inválido: {data.kind!r}. Opções: {', '.join(SITE_KINDS)}."
    regime = None
    try:
        regime = get_regime(data.regime or "")
    except RegimeError as exc:
        errors["regime"] = exc.reason if data.regime else "Escolha o regime (o ato que rege o local)."
    regime_site = (data.regime_site or "").strip()
    schedule = (data.schedule or "").strip()
    if regime is not None:
        if regime_site and regime_site not in regime.ids("site"):
            errors["regime_site"] = (
                f"O local {regime_site!r} não existe no regime {regime.id}. "
                f"Opções: {', '.join(regime.ids('site')) or 'nenhum'}."
            )
        if schedule and schedule not in regime.ids("schedule"):
            errors["schedule"] = (
                f"O calendário {schedule!r} não existe no regime {regime.id}. "
                f"Opções: {', '.join(regime.ids('schedule')) or 'nenhum'}."
            )
    weekdays = []
    for day in data.weekdays or ():
        day = day.strip().lower()
        if day not in WEEKDAYS:
            errors["weekdays"] = f"Dia da semana inválido: {day!r} (use {', '.join(WEEKDAYS)})."
        elif day not in weekdays:
            weekdays.append(day)
    weekdays.sort(key=WEEKDAYS.index)
    hours = {}
    for start, end, what in (
        ("setup_from", "setup_to", "Montagem"),
        ("opens", "closes", "Funcionamento"),
        ("teardown_from", "teardown_to", "Desmontagem"),
    ):
        a = _time(errors, start, getattr(data, start), what)
        b = _time(errors, end, getattr(data, end), what)
        if (a is None) != (b is None) and start not in errors and end not in errors:
            errors[end if a is not None else start] = f"{what}: informe o início e o fim."
        hours[start], hours[end] = a, b
    first_day = _date(errors, "first_day", data.first_day, "Primeiro dia")
    last_day = _date(errors, "last_day", data.last_day, "Último dia")
    if first_day and last_day and last_day < first_day:
        errors["last_day"] = "O último dia é anterior ao primeiro."
    max_points = None
    if data.max_points not in (None, ""):
        try:
            max_points = int(str(data.max_points).strip())
        except ValueError:
            errors["max_points"] = f"Número máximo de pontos inválido: {data.max_points!r}."
        else:
            if max_points < 1:
                errors["max_points"] = "O número máximo de pontos deve ser maior que zero."
    if regime is not None and "max_points" not in errors:
        legal = _legal_max_points(regime, regime_site)
        if legal is not None and max_points is not None and max_points > legal[0]:
            errors["max_points"] = f"O ato admite no máximo {legal[0]} pontos ({legal[1]})."
        elif max_points is None and legal is not None:
            max_points = legal[0]
    numbering = data.numbering or "sequential"
    if numbering not in NUMBERING:
        errors["numbering"] = f"Numeração inválida: {numbering!r}. Opções: {', '.join(NUMBERING)}."
    elif regime is not None and regime.layout and regime.layout.numbering and numbering not in regime.layout.numbering:
        errors["numbering"] = f"O regime admite só a numeração {', '.join(regime.layout.numbering)}."
    gap = _metres(errors, "gap", data.gap, "o espaço entre bancas", required=False, positive=False)
    if gap is not None and regime is not None:
        try:
            resolve_gap(regime, gap)
        except UserError as exc:
            errors["gap"] = exc.message
    avoid = []
    for kind in data.avoid or ():
        if kind not in OBSTACLE_KINDS:
            errors["avoid"] = f"Tipo de obstáculo desconhecido: {kind!r}."
        elif kind not in avoid:
            avoid.append(kind)
    segments = []
    for i, seg in enumerate(data.segments):
        key = f"segments[{i}]"
        street = " ".join((seg.street or "").split())
        if not street:
            errors[f"{key}.street"] = f"Trecho {i + 1}: informe o nome da rua."
        length = _metres(errors, f"{key}.length", seg.length, f"o comprimento do trecho {i + 1}")
        width = _metres(errors, f"{key}.width", seg.width, f"a largura da via do trecho {i + 1}")
        if seg.sides not in SIDE_USES:
            errors[f"{key}.sides"] = f"Trecho {i + 1}: lados usados inválidos {seg.sides!r} (one ou both)."
        obstacles = []
        for j, obs in enumerate(seg.obstacles):
            okey = f"{key}.obstacles[{j}]"
            what = f"Trecho {i + 1}, obstáculo {j + 1}"
            if obs.kind not in OBSTACLE_KINDS:
                errors[f"{okey}.kind"] = f"{what}: tipo inválido {obs.kind!r}. Opções: {', '.join(OBSTACLE_KINDS)}."
            if obs.side not in (*SIDES, "both"):
                errors[f"{okey}.side"] = f"{what}: lado inválido {obs.side!r} (a, b ou both)."
            from_start = _metres(errors, f"{okey}.start", obs.start, f"o início ({what.lower()})", positive=False)
            extent = _metres(errors, f"{okey}.extent", obs.extent, f"a extensão ({what.lower()})")
            if length is not None and from_start is not None and extent is not None and from_start + extent > length:
                errors[f"{okey}.extent"] = f"{what}: passa do fim do trecho ({from_start + extent} > {length} m)."
            obstacles.append(
                {
                    "kind": obs.kind,
                    "side": obs.side,
                    "start": from_start,
                    "extent": extent,
                    "label": (obs.label or "").strip(),
                }
            )
        segments.append(
            {
                "position": i,
                "street": street,
                "from_street": (seg.from_street or "").strip(),
                "to_street": (seg.to_street or "").strip(),
                "length": length,
                "width": width,
                "sides": seg.sides,
                "obstacles": obstacles,
            }
        )
    if data.kind in ("street", "feira") and not data.segments:
        errors["segments"] = "Informe ao menos um trecho de rua (nome, comprimento e largura)."
    points = []
    codes = set()
    for i, point in enumerate(data.points):
        code = " ".join((point.code or "").split())
        if not code:
            errors[f"points[{i}].code"] = f"Ponto {i + 1}: informe o código (ex.: Ponto 01)."
        elif code.lower() in codes:
            errors[f"points[{i}].code"] = f"Ponto {code} repetido."
        codes.add(code.lower())
        if point.regime_site and regime is not None and point.regime_site not in regime.ids("site"):
            errors[f"points[{i}].regime_site"] = f"Ponto {code}: {point.regime_site!r} não existe no regime."
        x = _metres(errors, f"points[{i}].x", point.x, f"a posição do ponto {code}", required=False, positive=False)
        if point.side and point.side not in SIDES:
            errors[f"points[{i}].side"] = f"Ponto {code}: lado inválido {point.side!r}."
        points.append(
            {
                "position": i,
                "code": code,
                "label": (point.label or "").strip(),
                "description": (point.description or "").strip(),
                "regime_site": point.regime_site or "",
                "basis": (point.basis or "").strip(),
                "x": x,
                "side": point.side or "",
            }
        )
    if errors or regime is None:  # no regime: its error is among them
        raise FieldErrors(errors)
    values = {
        "name": name,
        "kind": data.kind,
        "regime": regime.id,
        "regime_site": regime_site,
        "schedule": schedule,
        "weekdays": ",".join(weekdays),
        **hours,
        "first_day": first_day,
        "last_day": last_day,
        "max_points": max_points,
        "numbering": numbering,
        "gap": gap,
        "avoid": ",".join(avoid),
        "notes": (data.notes or "").strip(),
    }
    return values, segments, points, regime


def _legal_max_points(regime: Regime, regime_site: str) -> tuple[int, str] | None:
    """The act's limit of points for a site: its named site's, else the regime's — unless the act ties
    the limit to a named site and this is another place (Dec. 890/2017, art. 22: the Arena de Shows)."""
    if regime_site:
        named = regime.site(regime_site)
        if named.max_points is not None:
            return named.max_points, regime.cite(named.basis)
    elif any(s.max_points is not None for s in regime.sites):
        return None
    rule = regime.layout.max_points if regime.layout else None
    if rule is not None and rule.value is not None:
        return rule.value, regime.cite(rule.basis)
    return None


# --------------------------------------------------------------------------- saving sites


def save_site(data: SiteInput, *, site: Site | None = None) -> Site:
    """Create (``site=None``) or update a site with its segments, obstacles and named points, in one transaction.

    Segments are matched by position: a segment that goes away must have no
    stalls. Updating checks the row's ``version`` (another desk may have saved).
    """
    require("sites.edit")
    values, segments, points, _regime = _validate(data, site=site)
    try:
        return _save_site(values, segments, points, site)
    except IntegrityError:  # another desk saved a site of this name after the check in _validate
        if not Site.select().where((Site.name == values["name"]) & (Site.id != (site.id if site else -1))).exists():
            raise
        raise FieldErrors(
            {
                "name": f"Já existe um local com o nome {values['name']} (acabou de ser salvo em outra "
                "mesa); nada foi gravado."
            }
        ) from None


def _save_site(values: dict, segments: list[dict], points: list[dict], site: Site | None) -> Site:
    with db.atomic():
        if site is None:
            site = Site.create(**values)
        else:
            stale = "Este local foi alterado por outra pessoa enquanto você editava; reabra-o para ver a versão atual."
            update_versioned(site, stale, **values)
            site = Site.get_by_id(site.id)
        existing = {s.position: s for s in SiteSegment.select().where(SiteSegment.site == site.id)}
        for position, old in existing.items():
            if position >= len(segments):
                taken = Stall.select().where(Stall.segment == old.id).count()
                if taken:
                    raise UserError(
                        f"O trecho {position + 1} ({old.street}) tem {taken} banca(s): apague as bancas "
                        "antes de remover o trecho.",
                        field=f"segments[{position}]",
                    )
                old.delete_instance(recursive=True)
        for seg in segments:
            obstacles = seg.pop("obstacles")
            row = existing.get(seg["position"])
            if row is None:
                row = SiteSegment.create(site=site.id, **seg)
            else:
                SiteSegment.update(**seg).where(SiteSegment.id == row.id).execute()
            SiteObstacle.delete().where(SiteObstacle.segment == row.id).execute()
            if obstacles:
                SiteObstacle.insert_many([dict(o, segment=row.id) for o in obstacles]).execute()
        NamedPoint.delete().where(NamedPoint.site == site.id).execute()
        if points:
            NamedPoint.insert_many([dict(p, site=site.id) for p in points]).execute()
    return site


def site_input(site: Site | int | str) -> SiteInput:
    """What :func:`save_site` took for this site: the form's values to edit it again."""
    site = find_site(site)
    segments = []
    for seg in site_segments(site):
        segments.append(
            SegmentInput(
                street=seg.street,
                from_street=seg.from_street,
                to_street=seg.to_street,
                length=seg.length,
                width=seg.width,
                sides=seg.sides,
                obstacles=[
                    ObstacleInput(kind=o.kind, side=o.side, start=o.start, extent=o.extent, label=o.label)
                    for o in obstacles_of(seg.id)
                ],
            )
        )
    return SiteInput(
        name=site.name,
        kind=site.kind,
        regime=site.regime,
        regime_site=site.regime_site,
        schedule=site.schedule,
        weekdays=site.weekday_list,
        setup_from=site.setup_from,
        setup_to=site.setup_to,
        opens=site.opens,
        closes=site.closes,
        teardown_from=site.teardown_from,
        teardown_to=site.teardown_to,
        first_day=site.first_day,
        last_day=site.last_day,
        max_points=site.max_points,
        numbering=site.numbering,
        gap=site.gap,
        avoid=site.avoid_list,
        notes=site.notes,
        segments=segments,
        points=[
            PointInput(
                code=p.code,
                label=p.label,
                description=p.description,
                regime_site=p.regime_site,
                basis=p.basis,
                x=p.x,
                side=p.side,
            )
            for p in named_points(site)
        ],
    )


def delete_site(site: Site | int) -> None:
    """Delete a site with everything on it (segments, obstacles, points, stalls, kept breaches)."""
    require("sites.edit")
    site = find_site(site)
    with db.atomic():
        StallBreach.delete().where(StallBreach.site == site.id).execute()
        Stall.delete().where(Stall.site == site.id).execute()
        NamedPoint.delete().where(NamedPoint.site == site.id).execute()
        segment_ids = [s.id for s in SiteSegment.select(SiteSegment.id).where(SiteSegment.site == site.id)]
        if segment_ids:
            SiteObstacle.delete().where(SiteObstacle.segment.in_(segment_ids)).execute()
        SiteSegment.delete().where(SiteSegment.site == site.id).execute()
        Site.delete().where(Site.id == site.id).execute()
