"""Sites (streets, feiras, event areas, beaches), their segments, obstacles, named points and stalls.

A **site** follows one regime: a street segment named by the act (São Bento,
Dec. 4.794/2026, art. 1º: Rua Cel. Ribeiro da Luz between Av. Dr. Rubião
Júnior and Rua 7 de Setembro), a feira with its weekdays and set-up, trading
and tear-down hours (SJC, Lei 9.158/2014, art. 10), an event area with a
maximum of points (Ilha Comprida, Dec. 890/2017, art. 22: 60) and its dates
(São Bento, arts. 2º and 5º), or a beach with named points (art. 23, § 2º:
Ponto 01 … Ponto 15). Each site has one or more **segments** (street, the
streets at both ends, length, carriageway width, sides used) with their
**obstacles**, and its **stalls**, placed in metres as :mod:`models.sites.layout`
describes.

The database itself keeps a stall to one holder (one ``holder`` column) and a
holder to one stall per site (a unique index on ``(site, holder)``, where
NULLs — free stalls — do not clash), and stall numbers unique per site.
Assigning a holder is one transaction; a clash found by the database (another
desk was quicker) is a pt-BR ``UserError`` and nothing is half-saved.

:func:`plan_of` gives a segment as the plain input of :mod:`models.sites.layout`
(:class:`Plan`), :func:`save_layout` writes a plan back, keeping each holder
with the stall of the same number.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from peewee import (
    JOIN,
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    IntegrityError,
    TextField,
    TimeField,
    fn,
)

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed
from models.permits import LIVE_STATUSES, Permit
from models.registry.people import Company, Person
from models.rules.regimes import WEEKDAYS, Regime, RegimeError, get_regime
from models.sites.layout import (
    NUMBERING,
    OBSTACLE_KINDS,
    ROTATIONS,
    SIDE_USES,
    SIDES,
    Breach,
    Layout,
    PlacedStall,
    Segment,
    StallRequest,
    auto_layout,
    check_plan,
    resolve_gap,
)
from models.sites.layout import (
    Obstacle as LayoutObstacle,
)
from models.store.db import BaseModel, DecimalTextField, db, update_versioned

__all__ = [
    "SITE_KINDS",
    "WEEKDAY_LABELS",
    "Site",
    "SiteSegment",
    "SiteObstacle",
    "NamedPoint",
    "Stall",
    "StallBreach",
    "SITE_TABLES",
    "SiteInput",
    "SegmentInput",
    "ObstacleInput",
    "PointInput",
    "SiteRow",
    "StallRow",
    "Plan",
    "LayoutSaved",
    "KeptBreach",
    "save_site",
    "delete_site",
    "find_site",
    "site_rows",
    "site_segments",
    "named_points",
    "stall_rows",
    "plan_of",
    "save_layout",
    "assign_holder",
    "unassign_holder",
    "requests_from_permits",
    "check_assignment",
    "HolderRow",
    "site_holders",
    "site_input",
    "keep_breach",
    "kept_breaches",
    "drop_kept_breach",
    "site_export",
]

SITE_KINDS = {
    "street": "rua (trecho)",
    "feira": "feira",
    "event-area": "área de evento",
    "beach": "praia",
}
WEEKDAY_LABELS = dict(zip(WEEKDAYS, ("seg", "ter", "qua", "qui", "sex", "sáb", "dom")))
# a regime's [[sites]] kind → the kind of site it suggests
_FROM_REGIME_KIND = {"street-segment": "street", "arena": "event-area", "beach-point": "beach", "venue": "event-area"}


# --------------------------------------------------------------------------- tables


class Site(BaseModel):
    name = CharField(max_length=200, unique=True)
    kind = CharField(max_length=16)
    regime = CharField(max_length=64, index=True)
    regime_site = CharField(max_length=64, default="")  # id of the regime's [[sites]] entry, if the act names it
    schedule = CharField(max_length=64, default="")  # id of the regime's [[schedules]] entry (event days)
    weekdays = CharField(max_length=40, default="")  # "fri,sat"
    setup_from = TimeField(null=True)
    setup_to = TimeField(null=True)
    opens = TimeField(null=True)
    closes = TimeField(null=True)
    teardown_from = TimeField(null=True)
    teardown_to = TimeField(null=True)
    first_day = DateField(null=True)
    last_day = DateField(null=True)
    max_points = IntegerField(null=True)
    numbering = CharField(max_length=16, default="sequential")
    gap = DecimalTextField(max_length=20, null=True)  # metres, when the Administration sets it
    avoid = CharField(max_length=200, default="")  # obstacle kinds kept free by the Administration
    notes = TextField(default="")
    created_at = DateTimeField(default=clock.now)
    version = IntegerField(default=1)

    class Meta:
        table_name = "site"

    @property
    def kind_label(self) -> str:
        return SITE_KINDS.get(self.kind, self.kind)

    @property
    def weekday_list(self) -> tuple[str, ...]:
        return tuple(d for d in self.weekdays.split(",") if d)

    @property
    def avoid_list(self) -> tuple[str, ...]:
        return tuple(k for k in self.avoid.split(",") if k)


class SiteSegment(BaseModel):
    site = ForeignKeyField(Site, backref="segments", on_delete="CASCADE")
    position = IntegerField(default=0)
    street = CharField(max_length=200)
    from_street = CharField(max_length=200, default="")
    to_street = CharField(max_length=200, default="")
    length = DecimalTextField(max_length=20)
    width = DecimalTextField(max_length=20)
    sides = CharField(max_length=8, default="both")

    class Meta:
        table_name = "site_segment"
        indexes = ((("site", "position"), True),)

    @property
    def title(self) -> str:
        ends = " e ".join(e for e in (self.from_street, self.to_street) if e)
        return f"{self.street}, entre {ends}" if ends and self.from_street and self.to_street else self.street


class SiteObstacle(BaseModel):
    segment = ForeignKeyField(SiteSegment, backref="obstacles", on_delete="CASCADE")
    side = CharField(max_length=8)  # a | b | both
    start = DecimalTextField(max_length=20)
    extent = DecimalTextField(max_length=20)
    kind = CharField(max_length=32)
    label = CharField(max_length=200, default="")

    class Meta:
        table_name = "site_obstacle"


class NamedPoint(BaseModel):
    """A point the act names (Dec. 890/2017, art. 23, § 2º: "Ponto 01 – Balneário Di Franco, …")."""

    site = ForeignKeyField(Site, backref="points", on_delete="CASCADE")
    position = IntegerField(default=0)
    code = CharField(max_length=64)  # "Ponto 01"
    label = CharField(max_length=200, default="")
    description = TextField(default="")
    regime_site = CharField(max_length=64, default="")  # "ponto-01"
    basis = CharField(max_length=200, default="")
    x = DecimalTextField(max_length=20, null=True)  # along the segment, when drawn
    side = CharField(max_length=8, default="")

    class Meta:
        table_name = "named_point"
        indexes = ((("site", "code"), True),)


class Stall(BaseModel):
    site = ForeignKeyField(Site, backref="stalls", on_delete="CASCADE")
    segment = ForeignKeyField(SiteSegment, backref="stalls", on_delete="CASCADE")
    number = IntegerField()
    section = CharField(max_length=64, default="")
    line = CharField(max_length=64, default="")
    equipment = CharField(max_length=64, default="")
    side = CharField(max_length=8)
    x = DecimalTextField(max_length=20)
    y = DecimalTextField(max_length=20)
    front = DecimalTextField(max_length=20)
    depth = DecimalTextField(max_length=20)
    hitch = DecimalTextField(max_length=20, default=Decimal(0))
    rotation = IntegerField(default=0)
    end_vendor = BooleanField(default=False)
    holder = ForeignKeyField(Permit, null=True, backref="stalls", on_delete="RESTRICT")

    class Meta:
        table_name = "stall"
        indexes = (
            (("site", "number"), True),
            (("site", "holder"), True),  # a holder holds one stall per site (NULLs: free stalls)
        )


class StallBreach(BaseModel):
    """A breach the clerk kept on purpose, with the written reason."""

    site = ForeignKeyField(Site, backref="kept_breaches", on_delete="CASCADE")
    code = CharField(max_length=32)
    signature = CharField(max_length=400, index=True)
    stalls = CharField(max_length=400, default="")  # the stall keys (numbers), comma separated
    message = TextField()
    basis = CharField(max_length=200, default="")
    reason = TextField()
    kept_by = CharField(max_length=100)
    kept_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "stall_breach"


SITE_TABLES = [Site, SiteSegment, SiteObstacle, NamedPoint, Stall, StallBreach]


# --------------------------------------------------------------------------- input and validation


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
            start = _metres(errors, f"{okey}.start", obs.start, f"o início ({what.lower()})", positive=False)
            extent = _metres(errors, f"{okey}.extent", obs.extent, f"a extensão ({what.lower()})")
            if length is not None and start is not None and extent is not None and start + extent > length:
                errors[f"{okey}.extent"] = f"{what}: passa do fim do trecho ({start + extent} > {length} m)."
            obstacles.append(
                {
                    "kind": obs.kind,
                    "side": obs.side,
                    "start": start,
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
    if errors:
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
        for position, row in existing.items():
            if position >= len(segments):
                taken = Stall.select().where(Stall.segment == row.id).count()
                if taken:
                    raise UserError(
                        f"O trecho {position + 1} ({row.street}) tem {taken} banca(s): apague as bancas "
                        "antes de remover o trecho.",
                        field=f"segments[{position}]",
                    )
                row.delete_instance(recursive=True)
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
                    for o in _obstacles_of(seg.id)
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


def find_site(site: Site | int | str) -> Site:
    """A site by row, id or exact name; ``UserError`` when there is none."""
    if isinstance(site, Site):
        return site
    row = None
    if isinstance(site, int) or (isinstance(site, str) and site.strip().isdecimal() and len(site.strip()) <= 9):
        row = Site.get_or_none(Site.id == int(site))
    elif isinstance(site, str):
        row = Site.get_or_none(fn.LOWER(Site.name) == " ".join(site.split()).lower())
    if row is None:
        raise UserError(f"Local {site!r} não encontrado (praca sites lista os locais).", field="site")
    return row


# --------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class SiteRow:
    id: int
    name: str
    kind: str
    kind_label: str
    regime: str
    regime_short: str
    segments: int
    length: Decimal | None
    stalls: int
    assigned: int
    points: int
    max_points: int | None


def site_rows() -> list[SiteRow]:
    """Every site, by name, with its counts (one query per table, not per site)."""
    stalls = {
        r.site_id: (r.n, r.held)
        for r in Stall.select(Stall.site, fn.COUNT(Stall.id).alias("n"), fn.COUNT(Stall.holder).alias("held")).group_by(
            Stall.site
        )
    }
    points = {
        r.site_id: r.n
        for r in NamedPoint.select(NamedPoint.site, fn.COUNT(NamedPoint.id).alias("n")).group_by(NamedPoint.site)
    }
    segments: dict[int, list[Decimal]] = {}
    for seg in SiteSegment.select(SiteSegment.site, SiteSegment.length):
        segments.setdefault(seg.site_id, []).append(seg.length)
    rows = []
    for site in Site.select().order_by(fn.LOWER(Site.name), Site.id):
        try:
            short = get_regime(site.regime).short
        except RegimeError:
            short = site.regime
        lengths = segments.get(site.id, [])
        n, held = stalls.get(site.id, (0, 0))
        rows.append(
            SiteRow(
                id=site.id,
                name=site.name,
                kind=site.kind,
                kind_label=site.kind_label,
                regime=site.regime,
                regime_short=short,
                segments=len(lengths),
                length=sum(lengths, Decimal(0)) if lengths else None,
                stalls=n,
                assigned=held,
                points=points.get(site.id, 0),
                max_points=site.max_points,
            )
        )
    return rows


def site_segments(site: Site | int) -> list[SiteSegment]:
    site = find_site(site)
    return list(SiteSegment.select().where(SiteSegment.site == site.id).order_by(SiteSegment.position))


def named_points(site: Site | int) -> list[NamedPoint]:
    site = find_site(site)
    return list(NamedPoint.select().where(NamedPoint.site == site.id).order_by(NamedPoint.position, NamedPoint.id))


@dataclass(frozen=True)
class StallRow:
    id: int
    number: int
    segment: int
    section: str
    line: str
    side: str
    front: Decimal
    depth: Decimal
    permit_id: int | None
    permit_number: str | None
    holder_name: str | None


def stall_rows(site: Site | int) -> list[StallRow]:
    """The stalls of a site by number, with their holders (for the list beside the map and the printed map)."""
    site = find_site(site)
    rows = []
    query = (
        Stall.select(Stall, Permit)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.site == site.id)
        .order_by(Stall.number)
    )
    for stall in query:
        permit = stall.holder if stall.holder_id else None
        rows.append(
            StallRow(
                id=stall.id,
                number=stall.number,
                segment=stall.segment_id,
                section=stall.section,
                line=stall.line,
                side=stall.side,
                front=stall.front,
                depth=stall.depth,
                permit_id=stall.holder_id,
                permit_number=permit.number if permit else None,
                holder_name=permit.holder_name if permit else None,
            )
        )
    return rows


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class Plan:
    """One segment of a site as :mod:`models.sites.layout` takes it."""

    site_id: int
    segment_id: int
    regime: Regime
    segment: Segment
    obstacles: tuple[LayoutObstacle, ...]
    stalls: tuple[PlacedStall, ...]
    gap: Decimal | None
    max_points: int | None
    numbering: str
    avoid: tuple[str, ...]

    def check(self, stalls: Sequence[PlacedStall] | None = None) -> list[Breach]:
        """The live legal checks of these stalls (default: the saved ones)."""
        return check_plan(
            self.regime,
            self.segment,
            self.obstacles,
            self.stalls if stalls is None else stalls,
            gap=self.gap,
            max_points=self.max_points,
            avoid=self.avoid,
        )

    def auto(self, requests: Sequence[StallRequest]) -> Layout:
        """Lay ``requests`` out on this segment with the site's gap, numbering and limits."""
        return auto_layout(
            self.regime,
            self.segment,
            self.obstacles,
            requests,
            gap=self.gap,
            numbering=self.numbering,
            max_points=self.max_points,
            avoid=self.avoid,
        )


def _segment_row(site: Site, segment: SiteSegment | int | None) -> SiteSegment:
    if segment is None:
        row = SiteSegment.select().where(SiteSegment.site == site.id).order_by(SiteSegment.position).first()
        if row is None:
            raise UserError(
                f"O local {site.name} não tem trecho de rua: cadastre um trecho para montar o mapa.", field="segments"
            )
        return row
    seg_id = segment.id if isinstance(segment, SiteSegment) else int(segment)
    row = SiteSegment.get_or_none((SiteSegment.id == seg_id) & (SiteSegment.site == site.id))
    if row is None:
        raise UserError(f"O trecho {seg_id} não é do local {site.name}.", field="segment")
    return row


def _segment_basis(site: Site, regime: Regime) -> str | None:
    if site.regime_site and site.regime_site in regime.ids("site"):
        named = regime.site(site.regime_site)
        if named.kind == "street-segment":
            return named.basis
    return None


def _obstacles_of(segment_id: int) -> list[SiteObstacle]:
    """The obstacles of a segment along the street (sorted here: the positions are stored as text)."""
    rows = SiteObstacle.select().where(SiteObstacle.segment == segment_id)
    return sorted(rows, key=lambda o: (o.start, o.id))


def plan_of(site: Site | int | str, segment: SiteSegment | int | None = None) -> Plan:
    """A segment of the site (default: the first) with its obstacles and stalls, as layout input."""
    site = find_site(site)
    row = _segment_row(site, segment)
    regime = get_regime(site.regime)
    seg = Segment(
        length=row.length,
        width=row.width,
        sides=row.sides,
        street=row.street,
        from_street=row.from_street,
        to_street=row.to_street,
        basis=_segment_basis(site, regime),
    )
    obstacles = tuple(
        LayoutObstacle(side=o.side, start=o.start, extent=o.extent, kind=o.kind, label=o.label)
        for o in _obstacles_of(row.id)
    )
    query = (
        Stall.select(Stall, Permit.id, Permit.number)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.segment == row.id)
        .order_by(Stall.number)
    )
    stalls = tuple(
        PlacedStall(
            key=str(s.number),
            number=s.number,
            side=s.side,
            x=s.x,
            y=s.y,
            width=s.front,
            depth=s.depth,
            rotation=s.rotation,
            hitch=s.hitch or Decimal(0),
            section=s.section or None,
            line=s.line or None,
            holder=s.holder.number if s.holder_id else None,
            holder_id=s.holder_id,
            equipment=s.equipment or None,
            end_vendor=s.end_vendor,
        )
        for s in query
    )
    return Plan(
        site_id=site.id,
        segment_id=row.id,
        regime=regime,
        segment=seg,
        obstacles=obstacles,
        stalls=stalls,
        gap=site.gap,
        max_points=site.max_points,
        numbering=site.numbering,
        avoid=site.avoid_list,
    )


@dataclass(frozen=True)
class LayoutSaved:
    stalls: int
    kept: tuple[tuple[int, str], ...]  # (stall number, permit number) of the holders that stayed
    released: tuple[str, ...]  # permit numbers left without a stall

    def summary(self) -> str:
        text = f"{self.stalls} banca(s) gravada(s)"
        if self.kept:
            text += f"; {len(self.kept)} titular(es) mantido(s) no mesmo número"
        if self.released:
            text += f"; sem banca agora: permissão nº {', '.join(self.released)}"
        return text + "."


def _check_stalls(stalls: Sequence[PlacedStall]) -> None:
    errors: dict[str, str] = {}
    numbers: set[int] = set()
    for i, s in enumerate(stalls):
        what = f"Banca {s.number}"
        if not isinstance(s.number, int) or s.number < 1:
            errors[f"stalls[{i}].number"] = f"Número de banca inválido: {s.number!r}."
        elif s.number in numbers:
            errors[f"stalls[{i}].number"] = f"Número de banca repetido: {s.number}."
        numbers.add(s.number)
        if s.side not in SIDES:
            errors[f"stalls[{i}].side"] = f"{what}: lado inválido {s.side!r}."
        if s.rotation not in ROTATIONS:
            errors[f"stalls[{i}].rotation"] = f"{what}: rotação {s.rotation!r} (use 0, 90, 180 ou 270)."
        if s.width <= 0 or s.depth <= 0 or (s.hitch or 0) < 0:
            errors[f"stalls[{i}].width"] = f"{what}: frente e profundidade devem ser maiores que zero."
    if errors:
        raise FieldErrors(errors)


def save_layout(
    site: Site | int | str,
    stalls: Sequence[PlacedStall],
    *,
    segment: SiteSegment | int | None = None,
    keep_holders: bool = True,
) -> LayoutSaved:
    """Replace the stalls of a segment (default: the first) in one transaction.

    A stall's own ``holder_id`` wins; otherwise the holder of the old stall of
    the same number stays on it — unless ``keep_holders`` is false (the map
    editor, whose plan carries every holder: a stall it left free stays free).
    A holder of another segment of the site, or
    given to two stalls, is refused (the database would refuse it too).
    Legal breaches are not refused here: the editor shows them and the clerk
    keeps them with a reason (:func:`keep_breach`).
    """
    require("sites.edit")
    site = find_site(site)
    row = _segment_row(site, segment)
    _check_stalls(stalls)
    with db.atomic():
        old = {
            s.number: s.holder_id
            for s in Stall.select(Stall.number, Stall.holder).where(Stall.segment == row.id)
            if s.holder_id
        }
        elsewhere = {
            s.holder_id: s.number
            for s in Stall.select(Stall.number, Stall.holder).where(
                (Stall.site == site.id) & (Stall.segment != row.id) & Stall.holder.is_null(False)
            )
        }
        numbers_elsewhere = {
            s.number for s in Stall.select(Stall.number).where((Stall.site == site.id) & (Stall.segment != row.id))
        }
        explicit: dict[int, int] = {}
        for s in stalls:
            if s.number in numbers_elsewhere:
                raise UserError(f"O número {s.number} já é de uma banca de outro trecho deste local.", field="number")
            if s.holder_id is None:
                continue
            if s.holder_id in explicit:
                raise UserError(
                    f"A mesma permissão está nas bancas {explicit[s.holder_id]} e {s.number}: um "
                    "titular ocupa uma só banca por local.",
                    field="holder",
                )
            if s.holder_id in elsewhere:
                raise UserError(
                    f"A permissão da banca {s.number} já ocupa a banca {elsewhere[s.holder_id]} deste local.",
                    field="holder",
                )
            explicit[s.holder_id] = s.number
        permits = (
            {
                p.id: p
                for p in Permit.select(Permit.id, Permit.number, Permit.regime, Permit.status).where(
                    Permit.id.in_(list(explicit) + list(old.values()))
                )
            }
            if (explicit or old)
            else {}
        )
        for holder_id, number in explicit.items():
            permit = permits.get(holder_id)
            if permit is None:
                raise UserError(f"Banca {number}: permissão {holder_id} não encontrada.", field="holder")
            if permit.regime != site.regime:
                raise UserError(
                    f"Banca {number}: a permissão nº {permit.number} é de outro regime ({permit.regime}).",
                    field="holder",
                )
            if permit.status not in LIVE_STATUSES and holder_id not in old.values():
                raise UserError(
                    f"Banca {number}: a permissão nº {permit.number} está {permit.status_label}; só "
                    "uma permissão em vigor ocupa banca.",
                    field="holder",
                )
        taken = set(explicit)
        rows, kept = [], []
        for s in sorted(stalls, key=lambda s: s.number):
            holder = s.holder_id
            if holder is None and keep_holders:
                previous = old.get(s.number)
                if previous is not None and previous not in taken and previous not in elsewhere:
                    holder = previous
                    taken.add(previous)
                    kept.append((s.number, permits[previous].number))
            rows.append(
                {
                    "site": site.id,
                    "segment": row.id,
                    "number": s.number,
                    "section": s.section or "",
                    "line": s.line or "",
                    "equipment": s.equipment or "",
                    "side": s.side,
                    "x": s.x,
                    "y": s.y,
                    "front": s.width,
                    "depth": s.depth,
                    "hitch": s.hitch or Decimal(0),
                    "rotation": s.rotation,
                    "end_vendor": bool(s.end_vendor),
                    "holder": holder,
                }
            )
        released = tuple(sorted(permits[h].number for h in set(old.values()) - taken))
        Stall.delete().where(Stall.segment == row.id).execute()
        for start in range(0, len(rows), 200):
            Stall.insert_many(rows[start : start + 200]).execute()
    return LayoutSaved(stalls=len(rows), kept=tuple(kept), released=released)


# --------------------------------------------------------------------------- holders


def _stall(stall: Stall | int) -> Stall:
    stall_id = stall.id if isinstance(stall, Stall) else int(stall)
    row = Stall.get_or_none(Stall.id == stall_id)
    if row is None:
        raise UserError(f"Banca {stall_id} não encontrada.", field="stall")
    return row


def _permit(permit: Permit | int | str) -> Permit:
    if isinstance(permit, Permit):
        return permit
    if isinstance(permit, int):
        row = Permit.get_or_none(Permit.id == permit)
    else:
        row = Permit.get_or_none(Permit.number == str(permit).strip())
    if row is None:
        raise UserError(f"Permissão {permit} não encontrada.", field="holder")
    return row


def assign_holder(stall: Stall | int, permit: Permit | int | str) -> Stall:
    """Put the holder of ``permit`` on ``stall``: one transaction, refused in pt-BR when either is taken.

    The permit must be in force, of the site's regime and — when both say it —
    of the stall's section (SJC, Lei 9.158/2014, art. 8º).
    """
    require("sites.assign")
    stall = _stall(stall)
    permit = _permit(permit)
    site = Site.get_by_id(stall.site_id)
    if stall.holder_id == permit.id:
        return stall
    check_assignment(site, permit, number=stall.number, section=stall.section)
    if stall.holder_id is not None:
        other = Permit.get_by_id(stall.holder_id)
        raise UserError(
            f"A banca {stall.number} já tem titular (permissão nº {other.number}, {other.holder_name}): "
            "libere a banca antes.",
            field="stall",
        )
    held = Stall.get_or_none((Stall.site == stall.site_id) & (Stall.holder == permit.id))
    if held is not None:
        raise UserError(
            f"A permissão nº {permit.number} ({permit.holder_name}) já ocupa a banca {held.number} "
            f"de {site.name}: um titular ocupa uma só banca por local.",
            field="holder",
        )
    try:
        with db.atomic():
            updated = (
                Stall.update(holder=permit.id).where((Stall.id == stall.id) & Stall.holder.is_null(True)).execute()
            )
    except IntegrityError:
        raise UserError(
            f"A permissão nº {permit.number} acabou de ser posta em outra banca de {site.name} "
            "(outra mesa): nada foi alterado.",
            field="holder",
        ) from None
    if updated != 1:
        raise UserError(
            f"A banca {stall.number} acabou de receber um titular em outra mesa: nada foi alterado.", field="stall"
        )
    return Stall.get_by_id(stall.id)


def check_assignment(site: Site | int | str, permit: Permit | int | str, *, number: int, section: str | None) -> Permit:
    """The refusals of :func:`assign_holder` that belong to the permit, without writing anything.

    The map editor asks before it puts a holder on a stall of its plan: the
    permit must be in force, of the site's regime and — when both say it — of
    the stall's section (SJC, Lei 9.158/2014, art. 8º).
    """
    site = find_site(site)
    permit = _permit(permit)
    if permit.regime != site.regime:
        raise UserError(
            f"A permissão nº {permit.number} é do regime {permit.regime}; o local {site.name} segue "
            f"o regime {site.regime}.",
            field="holder",
        )
    if permit.status not in LIVE_STATUSES:
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}: só uma permissão em vigor ocupa banca.",
            field="holder",
        )
    if permit.section and section and permit.section != section:
        regime = get_regime(site.regime)
        sections = {s.id: s for s in regime.sections}
        want, have = sections.get(permit.section), sections.get(section)
        if want is not None and have is not None:
            raise UserError(
                f"A permissão nº {permit.number} é da Seção {want.numeral}; a banca {number} é da "
                f"Seção {have.numeral} ({regime.cite(have.basis)}).",
                field="holder",
            )
    return permit


@dataclass(frozen=True)
class HolderRow:
    """A permit in force of the site's regime, and the stall it holds at this site (if any)."""

    permit_id: int
    number: str
    name: str
    section: str
    line: str
    place: str  # the site the permit names
    stall: int | None  # its stall number at this site
    segment_id: int | None  # the segment of that stall


def site_holders(site: Site | int | str) -> list[HolderRow]:
    """Every permit in force of the site's regime, those that name this site first, then by section and number."""
    site = find_site(site)
    places = {site.name.lower()} | ({site.regime_site.lower()} if site.regime_site else set())
    held = {
        s.holder_id: (s.number, s.segment_id)
        for s in Stall.select(Stall.number, Stall.segment, Stall.holder).where(
            (Stall.site == site.id) & Stall.holder.is_null(False)
        )
    }
    rows = []
    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where((Permit.regime == site.regime) & Permit.status.in_(LIVE_STATUSES))
        .order_by(Permit.section, Permit.number)
    )
    for permit in query:
        number, segment_id = held.get(permit.id, (None, None))
        rows.append(
            HolderRow(
                permit_id=permit.id,
                number=permit.number,
                name=permit.holder_name,
                section=permit.section,
                line=permit.line,
                place=permit.site,
                stall=number,
                segment_id=segment_id,
            )
        )
    rows.sort(key=lambda r: (r.place.lower() not in places, r.section, r.number))
    return rows


def unassign_holder(stall: Stall | int) -> Stall:
    """Leave the stall free."""
    require("sites.assign")
    stall = _stall(stall)
    Stall.update(holder=None).where(Stall.id == stall.id).execute()
    return Stall.get_by_id(stall.id)


def requests_from_permits(site: Site | int | str) -> list[StallRequest]:
    """One stall request per permit in force of the site's regime whose place is this site (name or act id).

    Keyed by permit number, ordered by section then number; sizes from the
    permit (the layout falls back on the line's size).
    """
    site = find_site(site)
    places = [site.name] + ([site.regime_site] if site.regime_site else [])
    query = (
        Permit.select()
        .where((Permit.regime == site.regime) & Permit.status.in_(LIVE_STATUSES) & Permit.site.in_(places))
        .order_by(Permit.section, Permit.number)
    )
    requests = []
    for permit in query:
        requests.append(
            StallRequest(
                key=permit.number,
                section=permit.section or None,
                line=permit.line or None,
                front=permit.front,
                depth=permit.depth,
                hitch=permit.hitch or Decimal(0),
                holder=permit.number,
                holder_id=permit.id,
                equipment=permit.equipment or None,
            )
        )
    return requests


# --------------------------------------------------------------------------- kept breaches


@dataclass(frozen=True)
class KeptBreach:
    id: int
    code: str
    signature: str
    stalls: tuple[str, ...]
    message: str
    basis: str
    reason: str
    kept_by: str
    kept_at: _dt.datetime


def keep_breach(site: Site | int | str, breach: Breach, reason: str, *, by: str) -> KeptBreach:
    """Keep a breach on purpose: only with a written reason, which is stored and shown."""
    require("sites.edit")
    site = find_site(site)
    errors = {}
    if len((reason or "").strip()) < 10:
        errors["reason"] = "Escreva o motivo para manter a irregularidade (ao menos algumas palavras)."
    by = acting(by)  # the session's user (issue 16 §4)
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        StallBreach.delete().where(
            (StallBreach.site == site.id) & (StallBreach.signature == breach.signature)
        ).execute()
        row = StallBreach.create(
            site=site.id,
            code=breach.code,
            signature=breach.signature,
            stalls=",".join(breach.keys),
            message=breach.message,
            basis=breach.basis or "",
            reason=reason.strip(),
            kept_by=acting(by),
        )
    return _kept(row)


def _kept(row: StallBreach) -> KeptBreach:
    return KeptBreach(
        id=row.id,
        code=row.code,
        signature=row.signature,
        stalls=tuple(k for k in row.stalls.split(",") if k),
        message=row.message,
        basis=row.basis,
        reason=row.reason,
        kept_by=row.kept_by,
        kept_at=row.kept_at,
    )


def kept_breaches(site: Site | int | str) -> dict[str, KeptBreach]:
    """The kept breaches of a site by signature (match them with ``Breach.signature``)."""
    site = find_site(site)
    return {
        row.signature: _kept(row)
        for row in StallBreach.select().where(StallBreach.site == site.id).order_by(StallBreach.kept_at, StallBreach.id)
    }


def drop_kept_breach(kept_id: int) -> None:
    require("sites.edit")
    StallBreach.delete().where(StallBreach.id == kept_id).execute()


# --------------------------------------------------------------------------- export


def site_export(site: Site | int | str) -> dict:
    """Everything a printed or exported map needs, in metres (``Decimal``), stalls by number.

    ``length`` is the sum of the segments' lengths; each stall and obstacle
    names its segment by position (0 = the first).
    """
    site = find_site(site)
    regime = get_regime(site.regime)
    segments = site_segments(site)
    position = {seg.id: seg.position for seg in segments}
    obstacles = []
    for seg in segments:
        for o in _obstacles_of(seg.id):
            obstacles.append(
                {
                    "segment": seg.position,
                    "kind": o.kind,
                    "kind_label": OBSTACLE_KINDS.get(o.kind, o.kind),
                    "side": o.side,
                    "start": o.start,
                    "extent": o.extent,
                    "label": o.label,
                }
            )
    sections = {s.id: s for s in regime.sections}
    stalls = []
    query = (
        Stall.select(Stall, Permit)
        .join(Permit, JOIN.LEFT_OUTER, on=(Stall.holder == Permit.id))
        .where(Stall.site == site.id)
        .order_by(Stall.number)
    )
    for s in query:
        section = sections.get(s.section)
        stalls.append(
            {
                "number": s.number,
                "segment": position.get(s.segment_id, 0),
                "section": s.section or None,
                "section_numeral": section.numeral if section else None,
                "line": s.line or None,
                "side": s.side,
                "x": s.x,
                "y": s.y,
                "width": s.front,
                "depth": s.depth,
                "hitch": s.hitch or Decimal(0),
                "rotation": s.rotation,
                "end_vendor": s.end_vendor,
                "equipment": s.equipment or None,
                "holder": s.holder.number if s.holder_id else None,
                "holder_name": s.holder.holder_name if s.holder_id else None,
            }
        )
    return {
        "site": {
            "id": site.id,
            "name": site.name,
            "kind": site.kind,
            "regime": site.regime,
            "regime_short": regime.short,
            "numbering": site.numbering,
            "gap": site.gap,
            "max_points": site.max_points,
        },
        "length": sum((seg.length for seg in segments), Decimal(0)) if segments else None,
        "segments": [
            {
                "position": seg.position,
                "street": seg.street,
                "from": seg.from_street,
                "to": seg.to_street,
                "length": seg.length,
                "width": seg.width,
                "sides": seg.sides,
            }
            for seg in segments
        ],
        "obstacles": obstacles,
        "points": [
            {
                "code": p.code,
                "label": p.label,
                "description": p.description,
                "basis": p.basis,
                "x": p.x,
                "side": p.side or None,
            }
            for p in named_points(site)
        ],
        "stalls": stalls,
    }
