"""Parsers of ``[[permit_kinds]]``: the instrument, its rules, validity, renewal, start-up, leave, transfer."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from models.rules.regimes.model import Leave, PermitKind, Renewal, Rule, Startup, Transfer, Validity
from models.rules.regimes.parse_common import flag_at, parse_text_rule
from models.rules.regimes.reader import Node, parse_sub, show
from models.rules.regimes.vocabulary import (
    DUE_LATER_RULES,
    HOLDERS,
    LEGAL_FORMS,
    MONTH_DAY_RE,
    ONE_PER_SCOPES,
    RULE_KINDS,
    VALIDITY_UNTIL,
    WAIT_AFTER,
)

_RULE_PARAMS: dict[str, tuple[str, ...]] = {
    "min-age": ("years",),
    "legally-capable": (),
    "legal-form": ("allowed",),
    "cnpj-required": (),
    "municipal-registration": (),
    "resident": (),  # years optional
    "document": ("document",),
    "one-per": ("scope",),
    "no-debts": (),
    "no-prior-revocation": ("months",),
    "waiting-period": ("after", "months"),
    "cap": ("count",),
    "quota": ("percent", "beneficiaries"),
    "not-public-servant": (),
    "custom": ("text",),
}


def parse_rule(node: Node) -> Rule:
    kind = node.enum("kind", RULE_KINDS)
    required = _RULE_PARAMS[kind]
    # a number the act leaves to the administration: admin_defined = true instead
    admin = node.boolean("admin_defined")
    numeric = {"years", "months", "count", "percent"}
    if admin and not (numeric & set(required) or kind == "resident"):
        node.fail("admin_defined", f"a regra {show(kind)} não tem número a definir")
    kw: dict[str, Any] = {"admin_defined": admin}
    if kind in ("min-age", "resident"):
        kw["years"] = node.integer("years", "years" in required and not admin, minimum=0)
    for flag, owner in (("more_than", "resident"), ("same_site", "one-per")):
        if kind == owner and flag == "same_site" and isinstance(node.data.get(flag), str):
            kw[flag], kw["same_site_words"] = True, node.text(flag)  # the act's words: "mesma feira"
        elif kind == owner:
            kw[flag] = node.boolean(flag)
        elif node.has(flag):
            node.fail(flag, f"só vale para regras {show(owner)}, não para {show(kind)}")
    if kw.get("more_than") and not kw.get("years") and not admin:
        node.fail("more_than", '"há mais de N anos" precisa de years (maior que zero) ou admin_defined = true')
    if kind == "legal-form":
        kw["allowed"] = node.enum_list("allowed", LEGAL_FORMS, required=True)
        if not kw["allowed"]:
            node.fail("allowed", "lista vazia")
    if kind == "document":
        kw["document"] = node.ident("document")
    if kind == "one-per":
        kw["scope"] = node.enum("scope", ONE_PER_SCOPES)
    if kind in ("no-prior-revocation", "waiting-period"):
        kw["months"] = node.integer("months", not admin, minimum=1)
    if kind == "waiting-period":
        kw["after"] = node.enum("after", WAIT_AFTER)
    if kind == "cap":
        kw["count"] = node.integer("count", not admin, minimum=1)
    if kind == "quota":
        kw["percent"] = node.decimal("percent", not admin, positive=True, max_value=Decimal(1))
        kw["beneficiaries"] = node.ident_list("beneficiaries", required=True)
        if not kw["beneficiaries"]:
            node.fail("beneficiaries", "lista vazia")
    if kind == "custom":
        kw["text"] = node.text("text")
    if node.has("due"):
        if kind not in DUE_LATER_RULES:
            node.fail(
                "due", f"só vale para regras {', '.join(show(k) for k in DUE_LATER_RULES)}, não para {show(kind)}"
            )
        kw["due"] = node.ident("due")
    if admin and any(kw.get(k) is not None for k in numeric):
        node.fail("admin_defined", "com admin_defined = true não informe o número")
    result = Rule(kind=kind, basis=node.basis(), basis_act=node.basis_act(), notes=node.notes(), **kw)
    node.done()
    return result


def parse_validity(node: Node) -> Validity:
    days = node.integer("days", False, minimum=1)
    months = node.integer("months", False, minimum=1)
    years = node.integer("years", False, minimum=1)
    until = node.enum("until", VALIDITY_UNTIL, required=False)
    given = [n for n, v in (("days", days), ("months", months), ("years", years), ("until", until)) if v is not None]
    if len(given) != 1:
        node.fail(None, "informe exatamente um de: days, months, years, until")
    result = Validity(
        days=days,
        months=months,
        years=years,
        until=until,
        basis=node.basis(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_renewal(node: Node) -> Renewal:
    from_days = node.integer("from_days_before", False, minimum=0)
    to_days = node.integer("to_days_before", False, minimum=0)
    month_day = node.text("until_month_day", False)
    if month_day is not None and not MONTH_DAY_RE.match(month_day):
        node.fail("until_month_day", f'esperado "MM-DD", como "09-30"; veio {show(month_day)}')
    by_decree = node.boolean("by_decree", False)
    window = from_days is not None or to_days is not None
    if by_decree and (window or month_day is not None):
        node.fail(
            "by_decree",
            "a janela fixada por decreto não se escreve no arquivo: tire from_days_before, to_days_before e "
            "until_month_day (o decreto é registrado na mesa: praca renewal-decree add)",
        )
    elif not by_decree and window == (month_day is not None):
        node.fail(
            None,
            "informe a janela (from_days_before e/ou to_days_before) ou until_month_day — um dos dois — ou "
            "by_decree = true quando o ato a deixa a decreto do Executivo",
        )
    if from_days is not None and to_days is not None and from_days < to_days:
        node.fail("from_days_before", "deve ser maior ou igual a to_days_before")
    result = Renewal(
        from_days_before=from_days,
        to_days_before=to_days,
        until_month_day=month_day,
        by_decree=by_decree,
        basis=node.basis(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_startup(node: Node) -> Startup:
    result = Startup(
        days=node.integer("days", minimum=1),
        extendable_once=node.boolean("extendable_once"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_leave(node: Node) -> Leave:
    result = Leave(
        max_days_per_year=node.integer("max_days_per_year", minimum=1),
        max_periods=node.integer("max_periods", False, minimum=1),
        notice_days=node.integer("notice_days", False, minimum=0),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_transfer(node: Node) -> Transfer:
    result = Transfer(to=node.text("to"), basis=node.basis(), basis_act=node.basis_act(), notes=node.notes())
    node.done()
    return result


def parse_permit_kind(node: Node) -> PermitKind:
    ident = node.ident()
    label = node.text("label")
    instrument = node.text("instrument")
    holder = node.enum_list("holder", HOLDERS, required=True)
    if not holder:
        node.fail("holder", "lista vazia: person e/ou company")
    result = PermitKind(
        id=ident,
        label=label,
        instrument=instrument,
        holder=holder,
        basis=node.basis(),
        basis_act=node.basis_act(),
        documents=node.ident_list("documents"),
        fees=node.ident_list("fees"),
        validity=parse_sub(node, "validity", parse_validity),
        renewal=parse_sub(node, "renewal", parse_renewal),
        startup=parse_sub(node, "startup", parse_startup),
        leave=parse_sub(node, "leave", parse_leave),
        transfer=parse_sub(node, "transfer", parse_transfer),
        schedule=node.ident("schedule", False),
        non_residents=flag_at(node, "non_residents"),
        precarious=parse_sub(node, "precarious", parse_text_rule),
        rules=tuple(parse_rule(child) for child in node.tables("rules")),
        notes=node.notes(),
    )
    node.done()
    return result
