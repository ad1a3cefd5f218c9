"""Parsers of where and when: ``[[schedules]]``, ``[[sites]]``, ``[layout]`` and ``[selection]``."""

from __future__ import annotations

import datetime as dt
import re

from models.rules.regimes.model import (
    Bracket,
    Count,
    Criterion,
    DistanceRule,
    DrawSpec,
    EndVendors,
    HourRange,
    Instant,
    LateFill,
    LayoutRules,
    Measure,
    OpeningHours,
    Places,
    Preference,
    Registration,
    Schedule,
    ScheduleDay,
    Selection,
    Site,
    ValuePoints,
)
from models.rules.regimes.parse_common import flag_at
from models.rules.regimes.reader import Node, check_unique, parse_sub, show, type_name
from models.rules.regimes.vocabulary import (
    ORDER_BY,
    SELECTION_METHODS,
    SITE_KINDS,
    TIE_BREAKS,
    TIME_FIELDS,
    TIME_MEASURES,
    WEEKDAYS,
)


def parse_instant(node: Node, key: str) -> Instant:
    result = Instant(at=node.datetime(key), basis=node.basis(), notes=node.notes())
    node.done()
    return result


def parse_hours(node: Node) -> HourRange:
    result = HourRange(start=node.time("from"), end=node.time("to"), basis=node.basis(), notes=node.notes())
    node.done()
    return result


def parse_opening(node: Node) -> OpeningHours:
    admin = node.boolean("admin_defined")
    opens = node.time("opens", not admin)
    closes = node.time("closes", not admin)
    if admin and (opens is not None or closes is not None):
        node.fail("admin_defined", "com admin_defined = true não informe opens/closes")
    result = OpeningHours(
        opens=opens,
        closes=closes,
        weekdays=node.enum_list("weekdays", WEEKDAYS),
        admin_defined=admin,
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_where(node: Node) -> Places:
    """``places = { admin_defined = true, text = "…", basis = "art. 2º" }``: the act leaves the places to the
    Executive (places it names are [[sites]])."""
    if not node.boolean("admin_defined"):
        node.fail(
            "admin_defined",
            "informe admin_defined = true: places diz que o ato deixa os locais à Administração "
            "(os locais que o ato nomeia vão em [[sites]])",
        )
    result = Places(basis=node.basis(), admin_defined=True, text=node.text("text", False), notes=node.notes())
    node.done()
    return result


def parse_schedule_day(node: Node) -> ScheduleDay:
    result = ScheduleDay(
        date=node.date("date"),
        opens=node.time("opens"),
        closes=node.time("closes"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_schedule(node: Node) -> Schedule:
    ident = node.ident()
    label = node.text("label")
    basis = node.basis()
    setup_node = node.table("setup")
    teardown_node = node.table("teardown")
    day_nodes = node.tables("days")
    days = [parse_schedule_day(child) for child in day_nodes]
    seen: dict[dt.date, str] = {}
    for child, day in zip(day_nodes, days, strict=True):
        if day.date in seen:
            child.fail("date", f"dia {day.date.isoformat()} repetido")
        seen[day.date] = child.path
    result = Schedule(
        id=ident,
        label=label,
        basis=basis,
        basis_act=node.basis_act(),
        setup=parse_instant(setup_node, "from") if setup_node else None,
        teardown=parse_instant(teardown_node, "until") if teardown_node else None,
        days=tuple(sorted(days, key=lambda d: d.date)),
        setup_hours=parse_sub(node, "setup_hours", parse_hours),
        teardown_hours=parse_sub(node, "teardown_hours", parse_hours),
        opening_hours=parse_sub(node, "opening_hours", parse_opening),
        places=parse_sub(node, "places", parse_where),
        notes=node.notes(),
    )
    if result.setup and result.teardown and result.teardown.at <= result.setup.at:
        node.fail("teardown", "a desmontagem deve ser depois do início da montagem")
    node.done()
    return result


def parse_site(node: Node) -> Site:
    result = Site(
        id=node.ident(),
        kind=node.enum("kind", SITE_KINDS),
        label=node.text("label"),
        from_=node.text("from", False),
        to=node.text("to", False),
        max_points=node.integer("max_points", False, minimum=1),
        description=node.text("description", False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_measure(node: Node) -> Measure:
    admin = node.boolean("admin_defined")
    value = node.decimal("value", False, positive=True)
    if admin == (value is not None):
        node.fail("value", 'informe "value" ou "admin_defined = true" — um dos dois')
    result = Measure(value=value, admin_defined=admin, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def parse_layout(node: Node) -> LayoutRules:
    end_vendors = None
    ev = node.table("end_vendors")
    if ev is not None:
        end_vendors = EndVendors(
            front=ev.decimal("front", positive=True),
            depth=ev.decimal("depth", positive=True),
            min_distance=ev.decimal("min_distance", False, non_negative=True),
            basis=ev.basis(),
            notes=ev.notes(),
        )
        ev.done()
    distances = []
    for child in node.tables("min_distance_from"):
        distances.append(
            DistanceRule(
                what=child.ident("what"),
                value=child.decimal("value", positive=True),
                basis=child.basis(),
                notes=child.notes(),
            )
        )
        child.done()
    max_points = None
    mp = node.table("max_points")
    if mp is not None:
        admin = mp.boolean("admin_defined")
        value = mp.integer("value", not admin, minimum=1)
        if admin and value is not None:
            mp.fail("value", 'informe "value" ou "admin_defined = true" — um dos dois')
        max_points = Count(value=value, admin_defined=admin, basis=mp.basis(), notes=mp.notes())
        mp.done()
    result = LayoutRules(
        min_gap=parse_sub(node, "min_gap", parse_measure),
        no_crossings=flag_at(node, "no_crossings"),
        keep_garages_free=flag_at(node, "keep_garages_free"),
        sides=flag_at(node, "sides"),
        end_vendors=end_vendors,
        min_distance_from=tuple(distances),
        max_points=max_points,
        numbering=node.ident_list("numbering"),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_criterion(node: Node) -> Criterion:
    ident = node.ident()
    label = node.text("label")
    field_name = node.text("field")
    if not re.match(r"^[a-z_][a-z0-9_]*$", field_name):
        node.fail("field", f"campo inválido {show(field_name)}: use snake_case")
    brackets = []
    for child in node.tables("brackets"):
        brackets.append(
            Bracket(
                points=child.integer("points"),
                min=child.decimal("min", False),
                max=child.decimal("max", False),
                notes=child.notes(),
            )
        )
        child.done()
    values = []
    for child in node.tables("values"):
        equals = child.raw("equals", True)
        if isinstance(equals, str):
            equals = child.text("equals")
        elif type(equals) not in (bool, int):
            child.fail("equals", f"esperado texto, booleano ou inteiro, veio {type_name(equals)} {show(equals)}")
        values.append(ValuePoints(equals=equals, points=child.integer("points"), notes=child.notes()))
        child.done()
    if bool(brackets) == bool(values):
        node.fail("brackets", 'informe "brackets" (faixas) ou "values" (categorias) — um dos dois')
    measure = node.enum("measure", TIME_MEASURES, required=field_name in TIME_FIELDS)
    if measure is not None and field_name not in TIME_FIELDS:
        node.fail("measure", f"só vale para um tempo contado de uma data ({', '.join(TIME_FIELDS)})")
    result = Criterion(
        measure=measure,
        id=ident,
        label=label,
        field=field_name,
        brackets=tuple(brackets),
        values=tuple(values),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_registration(node: Node) -> Registration:
    proof_until = node.datetime("proof_until", False)
    proof_basis = node.basis("proof_basis", required=False)
    if proof_basis is not None and proof_until is None:
        node.fail("proof_basis", "só vale com proof_until (o prazo do comprovante)")
    result = Registration(
        opens=node.datetime("opens", False),
        until=node.datetime("until", False),
        proof_until=proof_until,
        proof_basis=proof_basis,
        place=node.text("place", False),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_draw(node: Node) -> DrawSpec:
    result = DrawSpec(
        at=node.datetime("at", False),
        place=node.text("place", False),
        by=node.text("by", False),
        when_more_than=node.integer("when_more_than", False, minimum=0),
        per=node.enum("per", ("line", "section", "site", "event"), required=False),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_late_fill(node: Node) -> LateFill:
    result = LateFill(
        order_by=node.enum("order_by", ORDER_BY, required=False, default="registration-time"),
        pay_days_after_issue=node.integer("pay_days_after_issue", False, minimum=0),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_selection(node: Node) -> Selection:
    method = node.enum("method", SELECTION_METHODS)
    criteria_nodes = node.tables("criteria")
    criteria = [parse_criterion(child) for child in criteria_nodes]
    check_unique(zip(criteria_nodes, (c.id for c in criteria), strict=True), "id", "critério")
    if method == "score" and not criteria:
        node.fail("criteria", 'method = "score" exige [[selection.criteria]]')
    if method != "score" and criteria:
        node.fail("criteria", f'critérios de pontuação só valem com method = "score" (veio {show(method)})')
    pref_nodes = node.tables("preferences")
    prefs = []
    for rank, child in enumerate(pref_nodes, start=1):
        prefs.append(
            Preference(id=child.ident(), label=child.text("label"), rank=rank, basis=child.basis(), notes=child.notes())
        )
        child.done()
    check_unique(zip(pref_nodes, (p.id for p in prefs), strict=True), "id", "preferência")
    tie_break = node.enum_list("tie_break", TIE_BREAKS)
    tie_break_basis = node.basis("tie_break_basis", required=bool(tie_break))
    if tie_break_basis is not None and not tie_break:
        node.fail("tie_break_basis", "só vale com tie_break (os critérios de desempate)")
    if method == "preference-then-draw" and not prefs:
        node.fail("preferences", 'method = "preference-then-draw" exige [[selection.preferences]]')
    result = Selection(
        method=method,
        permit_kinds=node.ident_list("permit_kinds"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        alternates=node.integer("alternates", False, minimum=0),
        tie_break=tie_break,
        tie_break_basis=tie_break_basis,
        exclude=node.ident_list("exclude"),
        appeal_days=node.integer("appeal_days", False, minimum=1),
        decision_business_days=node.integer("decision_business_days", False, minimum=1),
        criteria=tuple(criteria),
        order_by=node.enum("order_by", ORDER_BY, required=False),
        registration=parse_sub(node, "registration", parse_registration),
        positions=parse_sub(node, "positions", parse_draw),
        draw=parse_sub(node, "draw", parse_draw),
        late_fill=parse_sub(node, "late_fill", parse_late_fill),
        preferences=tuple(prefs),
        notes=node.notes(),
    )
    node.done()
    return result
