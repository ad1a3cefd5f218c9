"""Parsers of what follows a breach and of the process: ``[[ladders]]``, ``[[infractions]]``,
``[penalties]``, ``[[deadlines]]``, ``[seizure]`` and the ``[placard]``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from models.rules.regimes.model import (
    Amount,
    Deadline,
    DepotFee,
    Fine,
    IndexRef,
    Infraction,
    Ladder,
    LadderStep,
    Penalties,
    Period,
    Placard,
    RecordRequirement,
    RecordRules,
    Recurrence,
    Sanction,
    SanctionCondition,
    Seizure,
    Tolerance,
)
from models.rules.regimes.model.fees import AskedInput
from models.rules.regimes.parse_common import amount_at, flag_at, parse_closed_day, parse_text_rule, unit_code
from models.rules.regimes.parse_fees import formula_at, parse_asked_input, parse_term
from models.rules.regimes.reader import Node, meant, parse_list, parse_sub, show
from models.rules.regimes.vocabulary import (
    COUNT_KINDS,
    DEADLINE_EVENTS,
    DEADLINE_ROLES,
    DIRECTIONS,
    PLACARD_CONTENTS,
    SANCTION_FACTS,
    SANCTION_KINDS,
    SCOPES,
    SEVERITIES,
    UNTIL_WORDS,
)


def parse_sanction_condition(node: Node) -> SanctionCondition:
    result = SanctionCondition(
        fact=node.enum("fact", SANCTION_FACTS),
        text=node.text("text"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def _until(node: Node) -> dt.date | str | None:
    """``until = 2026-12-31`` (a date the act fixes) or ``until = "end-of-year"`` (the end of the civil year)."""
    value = node.raw("until", False)
    if value is None or type(value) is dt.date:
        return value
    if isinstance(value, str) and value in UNTIL_WORDS:
        return value
    node.fail(
        "until",
        f"esperada uma data TOML (2026-12-31) ou um de: {', '.join(UNTIL_WORDS)}; veio {show(value)}"
        + (meant(value, UNTIL_WORDS) if isinstance(value, str) else ""),
    )


def parse_sanction(node: Node) -> Sanction:
    kind = node.enum("kind", SANCTION_KINDS)
    kw: dict[str, Any] = {"kind": kind}
    if kind == "warning":
        kw["comply_days"] = node.integer("comply_days", False, minimum=0)
        kw["comply_hours"] = node.integer("comply_hours", False, minimum=0)
        if kw["comply_days"] is not None and kw["comply_hours"] is not None:
            node.fail("comply_hours", "informe comply_days ou comply_hours, não os dois")
        kw["deadline"] = node.ident("deadline", False)
    elif kind == "fine":
        kw["multiplier"] = node.decimal("multiplier", False, positive=True)
        kw["amount"] = amount_at(node, "amount", required=False)
        kw["graded"] = node.boolean("graded")
        kw["max"] = amount_at(node, "max", required=False)
        if kw["multiplier"] is not None and kw["amount"] is not None:
            node.fail("amount", "informe multiplier (da multa da infração) ou amount (valor próprio), não os dois")
    elif kind == "suspension":
        kw["days"] = node.integer("days", False, minimum=1)
        kw["max_days"] = node.integer("max_days", False, minimum=1)
        kw["until_remedied"] = node.boolean("until_remedied")
    elif kind == "revocation":
        kw["wait_months"] = node.integer("wait_months", False, minimum=1)
    elif kind == "impediment":
        kw["text"] = node.text("text")
    if kind != "impediment":
        kw["text"] = node.text("text", False)
    if kind in ("suspension", "impediment"):
        kw["months"] = node.integer("months", False, minimum=1)
        kw["years"] = node.integer("years", False, minimum=1)
        given = [k for k in ("days", "max_days", "months", "years") if kw.get(k) is not None]
        if kw["months"] is not None or kw["years"] is not None:
            if len(given) > 1:
                node.fail(
                    "years" if kw["years"] is not None else "months",
                    "informe uma só duração: days (ou days e max_days), months ou years — " + ", ".join(given),
                )
            if kw.get("until_remedied"):
                node.fail("until_remedied", "uma duração em meses ou anos não termina ao sanar a irregularidade")
    if kind in ("suspension", "impediment", "revocation"):
        kw["until"] = _until(node)
        durations = ("days", "max_days", "wait_months", "months", "years")
        if kw["until"] is not None and any(kw.get(k) is not None for k in durations):
            node.fail(
                "until",
                "informe a duração (days, max_days, months, years, wait_months) ou até quando (until), não os dois",
            )
    kw["cumulative"] = node.boolean("cumulative")
    kw["discretionary"] = node.boolean("discretionary")
    kw["admin_defined"] = node.boolean("admin_defined")
    kw["condition"] = parse_sub(node, "condition", parse_sanction_condition)
    kw["one_of"] = node.ident("one_of", False)
    kw["word"] = node.text("word", False)
    if kw["one_of"] is not None and not kw["discretionary"]:
        node.fail(
            "one_of", "sanções alternativas (one_of) ficam a critério da autoridade: informe discretionary = true"
        )
    if kw["admin_defined"] and any(kw.get(k) is not None for k in ("days", "max_days", "amount", "multiplier")):
        node.fail("admin_defined", "com admin_defined = true não informe days/max_days/amount/multiplier")
    kw["basis"] = node.basis()
    kw["basis_act"] = node.basis_act()
    kw["amended_by"] = node.text("amended_by", False)
    kw["notes"] = node.notes()
    node.done()
    return Sanction(**kw)


def parse_sanction_list(node: Node, name: str, required: bool = False) -> tuple[Sanction, ...]:
    return tuple(parse_sanction(child) for child in node.tables(name, required=required))


def parse_ladder(node: Node) -> Ladder:
    ident = node.ident()
    label = node.text("label")
    step_nodes = node.tables("steps", required=True)
    if not step_nodes:
        node.fail("steps", "lista vazia: informe ao menos um degrau")
    steps = []
    for i, child in enumerate(step_nodes, start=1):
        offence = child.integer("offence", minimum=1)
        if offence != i:
            child.fail("offence", f"esperado {i} (os degraus vão de 1 em 1, em ordem), veio {offence}")
        sanctions = parse_sanction_list(child, "sanctions", required=True)
        if not sanctions:
            child.fail("sanctions", "lista vazia")
        groups = [x.one_of for x in sanctions if x.one_of]
        for group in set(groups):
            if groups.count(group) < 2:
                child.fail("sanctions", f"one_of {show(group)} com uma só sanção: as alternativas são duas ou mais")
        steps.append(LadderStep(offence=offence, sanctions=sanctions, notes=child.notes()))
        child.done()
    result = Ladder(
        id=ident,
        label=label,
        steps=tuple(steps),
        recurrence_window_days=node.integer("recurrence_window_days", False, minimum=1),
        recurrence_window_years=node.integer("recurrence_window_years", False, minimum=1),
        matter=node.enum("matter", SCOPES, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.recurrence_window_days is not None and result.recurrence_window_years is not None:
        node.fail("recurrence_window_years", "informe recurrence_window_days ou recurrence_window_years, não os dois")
    node.done()
    return result


def parse_fine_input(node: Node) -> AskedInput:
    """A value a fine's formula reads: asked as a fee's (``[[fees.inputs]]``), or another fee of the act
    (``fee = "id"``) priced with the offender's permit, asked only when the record names none."""
    source = node.ident("fee", False)
    item = parse_asked_input(node)
    return dataclasses.replace(item, fee=source) if source is not None else item


def parse_fine(node: Node) -> Fine:
    admin = node.boolean("admin_defined")
    graded = node.boolean("graded")
    max_amount = amount_at(node, "max", required=False)
    amount = None
    if node.has("value") or node.has("unit"):
        value = node.decimal("value", non_negative=True)
        unit = unit_code(node, "unit")
        amount = Amount(value=value, unit=unit)
    formula = formula_at(node, "formula", required=False)
    given = sum(x for x in (amount is not None, max_amount is not None, admin, formula is not None))
    if given != 1:
        node.fail(
            None,
            "a multa precisa de value + unit, ou max = { value, unit }, ou formula, ou admin_defined = true — um só",
        )
    if graded and max_amount is None:
        node.fail("graded", "graded = true exige max = { value, unit }")
    result = Fine(
        amount=amount,
        max=max_amount,
        graded=graded,
        admin_defined=admin,
        discretionary=node.boolean("discretionary"),
        amended_by=node.text("amended_by", False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
        formula=formula,
        terms=parse_list(node, "terms", parse_term, id_attr="name", what="termo"),
        inputs=parse_list(node, "inputs", parse_fine_input, id_attr="name", what="valor informado"),
    )
    if formula is None and (result.terms or result.inputs):
        node.fail("formula", "termos e valores informados só numa multa escrita como fórmula (formula = …)")
    node.done()
    return result


def parse_infraction(node: Node) -> Infraction:
    code = node.ident("code")
    label = node.text("label")
    article = node.basis("article")
    no_sanction = node.boolean("no_sanction")
    if no_sanction:  # the act forbids and sets no sanction: nothing to cite for one, nothing to apply
        for name in ("fine", "ladder", "sanctions", "tolerance", "basis"):
            if node.has(name):
                node.fail(name, "a conduta não tem sanção no ato (no_sanction = true): tire esta chave")
        result = Infraction(
            code=code,
            label=label,
            article=article,
            basis=article,
            nature=node.text("nature", False),
            severity=node.enum("severity", SEVERITIES, required=False),
            matter=node.enum("matter", SCOPES, required=False),
            basis_act=node.basis_act(),
            notes=node.notes(),
            no_sanction=True,
        )
        node.done()
        return result
    result = Infraction(
        code=code,
        label=label,
        article=article,
        nature=node.text("nature", False),
        severity=node.enum("severity", SEVERITIES, required=False),
        fine=parse_sub(node, "fine", parse_fine),
        ladder=node.ident("ladder", False),
        sanctions=parse_sanction_list(node, "sanctions"),
        tolerance=parse_sub(node, "tolerance", parse_tolerance),
        matter=node.enum("matter", SCOPES, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_tolerance(node: Node) -> Tolerance:
    result = Tolerance(
        occurrences=node.integer("occurrences", minimum=1),
        spares=node.enum_list("spares", SANCTION_KINDS, required=True),
        text=node.text("text"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if not result.spares:
        node.fail("spares", "lista vazia: informe as sanções que a tolerância dispensa")
    node.done()
    return result


def parse_record_rules(node: Node) -> RecordRules:
    def requirement(name: str) -> RecordRequirement | None:
        child = node.table(name)
        if child is None:
            return None
        found = RecordRequirement(
            basis=child.basis(), text=child.text("text", False), basis_act=child.basis_act(), notes=child.notes()
        )
        child.done()
        return found

    result = RecordRules(
        inspector_id=requirement("inspector_id"),
        witness_when_unsigned=requirement("witness_when_unsigned"),
        unsigned_note=requirement("unsigned_note"),
        unsigned_valid=requirement("unsigned_valid"),
    )
    node.done()
    return result


def parse_penalties(node: Node) -> Penalties:
    recurrence = None
    rec = node.table("recurrence")
    if rec is not None:
        recurrence = Recurrence(
            window_days=rec.integer("window_days", False, minimum=1),
            window_years=rec.integer("window_years", False, minimum=1),
            multiplier=rec.decimal("multiplier", False, positive=True),
            max_doublings=rec.integer("max_doublings", False, minimum=1),
            discretionary=rec.boolean("discretionary"),
            reading=rec.text("reading", False),
            basis=rec.basis(),
            notes=rec.notes(),
        )
        if recurrence.window_days is not None and recurrence.window_years is not None:
            rec.fail("window_years", "informe window_days ou window_years, não os dois")
        rec.done()
    index = None
    ix = node.table("index")
    if ix is not None:
        index = IndexRef(code=ix.code("code"), basis=ix.basis(), notes=ix.notes())
        ix.done()
    result = Penalties(
        cumulative=flag_at(node, "cumulative"),
        recurrence=recurrence,
        any_order=flag_at(node, "any_order"),
        index=index,
        record=parse_sub(node, "record", parse_record_rules),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_deadline(node: Node) -> Deadline:
    ident = node.ident()
    label = node.text("label")
    days = node.integer("days", False, minimum=0)
    hours = node.integer("hours", False, minimum=0)
    count = node.enum("count", COUNT_KINDS)
    if (days is None) == (hours is None):
        node.fail("days", "informe days ou hours — um dos dois")
    if hours is not None and count != "hours":
        node.fail("count", 'prazo em horas exige count = "hours"')
    if days is not None and count == "hours":
        node.fail("count", 'count = "hours" exige hours, não days')
    if node.has("next_business_day"):
        node.fail(
            "next_business_day",
            'chave antiga: use closed_day = { rule = "end-of-next-business-day", '
            'basis = "…" } (ou "next-business-day", "stays")',
        )
    role = node.enum("role", DEADLINE_ROLES)
    result = Deadline(
        id=ident,
        label=label,
        role=role,
        days=days,
        hours=hours,
        count=count,
        from_=node.enum("from", DEADLINE_EVENTS),
        direction=node.enum("direction", DIRECTIONS, required=False, default="after"),
        applies_to=node.enum_list("applies_to", SANCTION_KINDS),
        matter=node.enum_list("matter", SCOPES),
        perishable=node.optional_bool("perishable"),
        alternative=node.boolean("alternative"),
        closed_day=parse_sub(node, "closed_day", parse_closed_day),
        amended_by=node.text("amended_by", False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.closed_day is not None and result.closed_day.rule != "stays" and result.direction == "before":
        node.fail("closed_day", 'só um prazo contado para frente (direction = "after") se prorroga')
    if result.perishable is not None and role != "reclaim":
        node.fail(
            "perishable", 'só os prazos de retirada de bens apreendidos (role = "reclaim") dizem se são de perecíveis'
        )
    if role == "reclaim" and result.perishable is None:
        node.fail(
            "perishable", 'um prazo de retirada (role = "reclaim") diz se é dos perecíveis: perishable = true ou false'
        )
    node.done()
    return result


def parse_period(node: Node) -> Period:
    days = node.integer("days", False, minimum=0)
    hours = node.integer("hours", False, minimum=0)
    admin = node.boolean("admin_defined")
    if sum((days is not None, hours is not None, admin)) != 1:
        node.fail("days", "informe days, hours ou admin_defined = true — um só")
    count = node.enum("count", ("calendar", "business"), required=days is not None)
    if count is not None and days is None:
        node.fail("count", "count vale só com days")
    result = Period(days=days, hours=hours, count=count, admin_defined=admin, basis=node.basis(), notes=node.notes())
    node.done()
    return result


def parse_seizure(node: Node) -> Seizure:
    depot = None
    dn = node.table("depot_fee")
    if dn is not None:
        admin = dn.boolean("admin_defined")
        amount = amount_at(dn, "amount", required=not admin)
        if admin and amount is not None:
            dn.fail("amount", 'informe "amount" ou "admin_defined = true" — um dos dois')
        depot = DepotFee(
            amount=amount,
            per=dn.enum("per", ("day", "once"), required=not admin),
            admin_defined=admin,
            scopes=dn.enum_list("scopes", SCOPES),
            basis=dn.basis(),
            notes=dn.notes(),
        )
        dn.done()
    result = Seizure(
        basis=node.basis(),
        basis_act=node.basis_act(),
        depot_fee=depot,
        reclaim_perishable=parse_sub(node, "reclaim_perishable", parse_period),
        reclaim_other=parse_sub(node, "reclaim_other", parse_period),
        donation=parse_sub(node, "donation", parse_text_rule),
        release=parse_sub(node, "release", parse_text_rule),
        expenses=parse_sub(node, "expenses", parse_text_rule),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_placard(node: Node) -> Placard:
    result = Placard(
        min_width=node.decimal("min_width", False, positive=True),
        min_height=node.decimal("min_height", False, positive=True),
        background=node.text("background", False),
        text_colour=node.text("text_colour", False),
        contents=node.enum_list("contents", PLACARD_CONTENTS),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result
