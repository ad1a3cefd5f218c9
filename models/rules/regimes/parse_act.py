"""Parsers of the act's header (``[regime]``, its entry into force, amendment and calendar) and of the
catalogue tables: units, indexes, documents, equipment, groups, lines, sections.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TypedDict

from models.rules.regimes.locate import article
from models.rules.regimes.model import (
    Amendment,
    Calendar,
    Colour,
    Conversion,
    Document,
    Equipment,
    Group,
    Index,
    InForce,
    Line,
    Purpose,
    Section,
    Unit,
    UnitValue,
)
from models.rules.regimes.parse_common import parse_closed_day
from models.rules.regimes.reader import Node, parse_sub, show, type_name
from models.rules.regimes.vocabulary import (
    CURRENCIES,
    DOCUMENT_PROVES,
    DOCUMENT_RECORDED,
    HEX_RE,
    HOLDERS,
    SCOPES,
    SIDES,
)


def parse_in_force(node: Node) -> InForce:
    """``{ from, basis }``, or ``{ from, basis_unknown = true, notes }`` where the text known has no in-force clause
    (a copy without its last article, an act cited by another): the date is the one the file can vouch for, and
    every citation of it says that the article is unknown."""
    unknown = node.boolean("basis_unknown")
    basis = node.basis(required=not unknown)
    if unknown and basis is not None:
        node.fail("basis_unknown", "o artigo da vigência é conhecido (basis): tire basis_unknown")
    result = InForce(from_=node.date("from"), basis=basis, notes=node.notes())
    if unknown and result.notes is None:
        node.fail("notes", "diga em notes por que o artigo da vigência é desconhecido e de onde vem a data")
    node.done()
    return result


def parse_amendment(node: Node) -> Amendment:
    result = Amendment(
        act=node.text("act"),
        in_force_from=node.date("in_force_from"),
        summary=node.text("summary", required=False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_purpose(node: Node) -> Purpose:
    """``purpose = { text = "…", basis = "art. 1º" }``: the aim the act declares, with its article."""
    result = Purpose(text=node.text("text"), basis=node.basis(), basis_act=node.basis_act(), notes=node.notes())
    node.done()
    return result


def parse_conversion(node: Node) -> Conversion:
    """``conversion = { to = "R$", divide_by = "2750", from = 1994-07-01, basis = "art. 1º", basis_act = "Lei
    federal nº 8.880/1994" }``: the rule that converts the act's amounts to reais from a day."""
    result = Conversion(
        to=node.enum("to", ("R$",)),
        divide_by=node.decimal("divide_by", positive=True),
        from_=node.date("from"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_calendar(node: Node) -> Calendar:
    closed = node.table("closed_day", required=True)
    result = Calendar(closed_day=parse_closed_day(closed, external=True), notes=node.notes())
    if result.closed_day.rule == "stays":
        closed.fail("rule", 'o calendário do regime diz como se prorroga um prazo; "stays" vale só num prazo')
    node.done()
    return result


class Header(TypedDict):
    """``[regime]``: what the act is, as the :class:`~models.rules.regimes.regime.Regime` takes it."""

    id: str
    municipality: str
    state: str
    act: str
    short: str
    published: dt.date
    scope: tuple[str, ...]
    summary: str
    purpose: Purpose | None
    in_force: InForce
    currency: str
    conversion: Conversion | None
    amendment: Amendment | None
    articles: tuple[str, ...]
    notes: str | None


def parse_articles(node: Node) -> tuple[str, ...]:
    """``articles = ["1", "2", "9-A", …]``: the articles the act has (optional); the check then refuses a
    ``basis`` that cites one it does not have."""
    entries = node.text_list("articles")
    out: list[str] = []
    for i, entry in enumerate(entries):
        number = article(entry)
        if number is None:
            node.fail(f"articles[{i}]", f'artigo {show(entry)} ilegível: escreva o número, como "9" ou "9-A"')
        if number in out:
            node.fail(f"articles[{i}]", f"artigo {show(entry)} repetido na lista")
        out.append(number)
    return tuple(out)


def parse_header(node: Node) -> Header:
    header: Header = {
        "id": node.ident("id"),
        "municipality": node.text("municipality"),
        "state": node.text("state"),
        "act": node.text("act"),
        "short": node.text("short"),
        "published": node.date("published"),
        "scope": node.enum_list("scope", SCOPES, required=True),
        "summary": node.text("summary"),
        "purpose": parse_sub(node, "purpose", parse_purpose),
        "in_force": parse_in_force(node.table("in_force", required=True)),
        "currency": node.enum("currency", CURRENCIES, required=False, default="R$"),
        "conversion": parse_sub(node, "conversion", parse_conversion),
        "amendment": parse_sub(node, "amendment", parse_amendment),
        "articles": parse_articles(node),
        "notes": node.notes(),
    }
    if header["amendment"] is not None and header["amendment"].in_force_from < header["in_force"].from_:
        node.fail(
            "amendment.in_force_from",
            "a alteração não pode valer antes de o ato entrar em vigor "
            f"({header['in_force'].from_.strftime('%d/%m/%Y')})",
        )
    if header["conversion"] is not None and header["currency"] == "R$":
        node.fail("conversion", "o ato já escreve seus valores em reais (R$): não há conversão a declarar")
    if not re.match(r"^[A-Z]{2}$", header["state"]):
        node.fail("state", f'UF inválida {show(header["state"])}: duas letras maiúsculas, como "SP"')
    if not header["scope"]:
        node.fail("scope", "lista vazia: informe ao menos um escopo")
    node.done()
    return header


def parse_unit(node: Node) -> Unit:
    code = node.code("code")
    if code == "BRL":
        node.fail("code", '"BRL" é reservado para reais')
    name = node.text("name")
    basis = node.basis()
    basis_act = node.basis_act()
    values_raw = node.raw("values", True)
    if not isinstance(values_raw, list):
        node.fail("values", f"esperada uma lista de valores por ano, veio {type_name(values_raw)}")
    values = []
    years: dict[int, str] = {}
    for i, item in enumerate(values_raw):
        child = Node(node.file, f"{node.key('values')}[{i}]", item)
        year = child.integer("year", minimum=1900)
        value = child.decimal("value", positive=True)
        v_basis = child.basis(required=False)
        source = child.text("source", required=False)
        if v_basis is None and source is None:
            child.fail(None, 'cada valor precisa de "basis" (artigo deste ato) ou "source" (referência externa)')
        v = UnitValue(
            year=year,
            value=value,
            basis=v_basis,
            source=source,
            notes=child.notes(),
            amended_by=child.text("amended_by", False),
        )
        child.done()
        if year in years:
            child.fail("year", f"ano {year} repetido")
        years[year] = child.path
        values.append(v)
    notes = node.notes()
    node.done()
    return Unit(
        code=code,
        name=name,
        basis=basis,
        basis_act=basis_act,
        values=tuple(sorted(values, key=lambda v: v.year)),
        notes=notes,
    )


def parse_index(node: Node) -> Index:
    result = Index(
        code=node.code("code"),
        name=node.text("name"),
        base_year=node.integer("base_year", minimum=1900),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_document(node: Node) -> Document:
    result = Document(
        id=node.ident(),
        label=node.text("label"),
        validity_months=node.integer("validity_months", False, minimum=1),
        applies_to=node.enum_list("applies_to", HOLDERS),
        condition=node.text("condition", False),
        proves=node.enum("proves", DOCUMENT_PROVES, required=False),
        recorded=node.enum("recorded", DOCUMENT_RECORDED, required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_equipment(node: Node) -> Equipment:
    kw = {
        name: node.decimal(name, False, positive=True)
        for name in ("front", "depth", "handle", "max_front", "max_depth")
    }
    result = Equipment(
        id=node.ident(),
        label=node.text("label"),
        has_hitch=node.boolean("has_hitch"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
        **kw,
    )
    if result.front is not None and result.max_front is not None and result.front > result.max_front:
        node.fail("front", "maior que max_front")
    if result.depth is not None and result.max_depth is not None and result.depth > result.max_depth:
        node.fail("depth", "maior que max_depth")
    node.done()
    return result


def parse_group(node: Node) -> Group:
    result = Group(
        id=node.ident(),
        number=node.integer("number", minimum=1),
        label=node.text("label"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_line(node: Node) -> Line:
    result = Line(
        id=node.ident(),
        label=node.text("label"),
        group=node.ident("group", False),
        front=node.decimal("front", False, positive=True),
        depth=node.decimal("depth", False, positive=True),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if (result.front is None) != (result.depth is None):
        node.fail("depth" if result.depth is None else "front", "informe frente e profundidade juntas (ou nenhuma)")
    node.done()
    return result


def parse_section(node: Node) -> Section:
    ident = node.ident()
    numeral = node.text("numeral")
    if not re.match(r"^[IVXLCDM]+$", numeral):
        node.fail("numeral", f'numeral romano inválido {show(numeral)} (maiúsculas, como "XXVIII")')
    colour = None
    colour_node = node.table("colour")
    if colour_node is not None:
        hex_value = colour_node.text("hex", False)
        if hex_value is not None and not HEX_RE.match(hex_value):
            colour_node.fail("hex", f'cor inválida {show(hex_value)}: use "#RRGGBB"')
        colour = Colour(
            name=colour_node.text("name"), hex=hex_value, basis=colour_node.basis(), notes=colour_node.notes()
        )
        colour_node.done()
    fire_raw = node.raw("fire_rules", False)
    fire_rules, fire_basis = False, None
    if isinstance(fire_raw, bool):
        fire_rules = fire_raw
    elif isinstance(fire_raw, dict):
        fire_node = Node(node.file, node.key("fire_rules"), fire_raw)
        fire_rules, fire_basis = True, fire_node.basis()
        fire_node.done()
    elif fire_raw is not None:
        node.fail(
            "fire_rules", f'esperado true/false ou {{ basis = "…" }}, veio {type_name(fire_raw)} {show(fire_raw)}'
        )
    result = Section(
        id=ident,
        numeral=numeral,
        label=node.text("label"),
        lines=node.ident_list("lines"),
        side=node.enum("side", SIDES, required=False),
        order=node.integer("order", False, minimum=1),
        colour=colour,
        fire_rules=fire_rules,
        fire_rules_basis=fire_basis,
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    if result.order is not None and result.side is None:
        node.fail("order", '"order" exige "side"')
    node.done()
    return result
