"""Parsers of ``[[fees]]``: kinds, discounts, energy tiers, venues, arrears, exemptions."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from models.rules.formulas.syntax import FUNCTIONS, KEYWORDS, UNIT_WORDS, FormulaError, parse
from models.rules.formulas.types import parse_unit
from models.rules.regimes.errors import RegimeError
from models.rules.regimes.model import Arrears, Condition, Discount, Due, EnergyTier, Exemption, Fee, Venue
from models.rules.regimes.model.fees import (
    CALLED,
    SETTERS,
    AskedInput,
    CitedWhen,
    DecisionTable,
    FeeException,
    FormulaTerm,
    Refusal,
    Requirement,
    Said,
    TableColumn,
    TableRow,
)
from models.rules.regimes.parse_common import amount_at, unit_code
from models.rules.regimes.reader import FOUND, Node, check_unique, near, parse_list, parse_sub
from models.rules.regimes.vocabulary import AREA_KINDS, DUE_EACH, FEE_KINDS, FIXED_PER, METRE_KINDS, SANCTION_KINDS

#: an expression in a refusal's reason: ``{front + hitch}``
REFUSAL_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def parse_due(node: Node) -> Due:
    date = node.date("date", False)
    day = node.integer("day_of_month", False, minimum=1)
    if day is not None and day > 31:
        node.fail("day_of_month", f"dia do mês inválido: {day}")
    after = node.integer("days_after_issue", False, minimum=0)
    hours = node.integer("hours_after_issue", False, minimum=1)
    each = node.enum("at_each", DUE_EACH, required=False)
    if sum(v is not None for v in (date, day, after, hours, each)) != 1:
        node.fail(None, "informe exatamente um de: date, day_of_month, days_after_issue, hours_after_issue, at_each")
    result = Due(
        date=date,
        day_of_month=day,
        days_after_issue=after,
        hours_after_issue=hours,
        at_each=each,
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_condition(node: Node) -> Condition:
    result = Condition(
        mei=node.optional_bool("mei"),
        local=node.optional_bool("local"),
        equipment=node.ident_list("equipment"),
        lines=node.ident_list("lines"),
        max_depth=node.decimal("max_depth", False, positive=True),
        max_metres=node.decimal("max_metres", False, positive=True),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_discount(node: Node) -> Discount:
    ident = node.ident()
    label = node.text("label")
    rate = node.decimal("rate", positive=True, max_value=Decimal(1))
    when_node = node.table("when", required=True)
    result = Discount(
        id=ident,
        label=label,
        rate=rate,
        when=parse_condition(when_node),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_tier(node: Node) -> EnergyTier:
    result = EnergyTier(
        id=node.ident(),
        label=node.text("label"),
        factor=node.decimal("factor", positive=True),
        equipment=node.ident_list("equipment"),
        max_metres=node.decimal("max_metres", False, positive=True),
        max_depth=node.decimal("max_depth", False, positive=True),
        expected=node.decimal("expected", False, non_negative=True),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    if result.id == "none":
        node.fail("id", '"none" é reservado (sem energia)')
    node.done()
    return result


def parse_venue(node: Node) -> Venue:
    result = Venue(
        id=node.ident(),
        label=node.text("label"),
        one_day=amount_at(node, "one_day"),
        per_day=amount_at(node, "per_day"),
        min_days=node.integer("min_days", minimum=1),
        deposit=amount_at(node, "deposit", required=False),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_arrears(node: Node) -> Arrears:
    result = Arrears(
        months=node.integer("months", minimum=1),
        consecutive=node.boolean("consecutive", default=True),
        sanction=node.enum("sanction", SANCTION_KINDS, required=False, default="revocation"),
        basis=node.basis(),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_fee(node: Node) -> Fee:
    ident = node.ident()
    label = node.text("label")
    kind = node.enum("kind", FEE_KINDS)
    kw: dict[str, Any] = {
        "id": ident,
        "label": label,
        "kind": kind,
        "basis": node.basis(),
        "basis_act": node.basis_act(),
        "amended_by": node.text("amended_by", False),
        "due": parse_sub(node, "due", parse_due),
        "year": node.integer("year", False, minimum=1900),
    }
    if kind == "linear-metre":
        kw["coefficient"] = node.decimal("coefficient", positive=True)
        kw["unit"] = unit_code(node, "unit")
        kw["min_metres"] = node.decimal("min_metres", False, positive=True)
        kw["min_metres_basis"] = node.basis("min_metres_basis", required=False)
        if kw["min_metres_basis"] and kw["min_metres"] is None:
            node.fail("min_metres_basis", "sem min_metres")
        kw["hitch_counts"] = node.boolean("hitch_counts")
        kw["hitch_basis"] = node.basis("hitch_basis", required=False)
        kw["metre"] = node.enum("metre", METRE_KINDS, required=False, default="front")
        if kw["metre"] == "front-plus-hitch":
            if node.has("hitch_counts") and not kw["hitch_counts"]:
                node.fail("hitch_counts", 'contradiz metre = "front-plus-hitch"')
            kw["hitch_counts"] = True
        discounts = [parse_discount(child) for child in node.tables("discounts")]
        check_unique(zip(node.tables("discounts"), (d.id for d in discounts), strict=True), "id", "desconto")
        kw["discounts"] = tuple(discounts)
    elif kind == "energy":
        kw["unit"] = unit_code(node, "unit")
        tier_nodes = node.tables("tiers", required=True)
        if not tier_nodes:
            node.fail("tiers", "lista vazia: informe ao menos uma faixa")
        tiers = [parse_tier(child) for child in tier_nodes]
        check_unique(zip(tier_nodes, (t.id for t in tiers), strict=True), "id", "faixa")
        kw["tiers"] = tuple(tiers)
    elif kind == "per-area-month":
        kw["rate"] = amount_at(node, "rate")
        kw["area"] = node.enum("area", AREA_KINDS)
        kw["index"] = node.code("index", False)
        kw["arrears"] = parse_sub(node, "arrears", parse_arrears)
    elif kind == "venue-table":
        venue_nodes = node.tables("venues", required=True)
        if not venue_nodes:
            node.fail("venues", "lista vazia: informe ao menos um imóvel")
        venues = [parse_venue(child) for child in venue_nodes]
        kw["venues"] = tuple(venues)
    elif kind == "formula":
        kw.update(parse_formula_parts(node))
        kw["arrears"] = parse_sub(node, "arrears", parse_arrears)  # a monthly fee's unpaid months (SJC)
        if kw["arrears"] is not None and kw["per"] != "month":
            node.fail("arrears", 'só um preço mensal (per = "month") tem meses em atraso')
    elif kind in ("fixed", "per-day"):
        kw["admin_defined"] = node.boolean("admin_defined")
        kw["amount"] = amount_at(node, "amount", required=False)
        if kw["admin_defined"] == (kw["amount"] is not None):
            node.fail("amount", 'informe "amount" ou "admin_defined = true" — um dos dois')
        if kind == "fixed":
            # the period may be left to another act when the value itself is
            kw["per"] = node.enum("per", FIXED_PER, required=not kw["admin_defined"])
        else:
            kw["per"] = "day"
    exemption_nodes = node.tables("exemptions")
    kw["exemptions"] = tuple(parse_exemption(child) for child in exemption_nodes)
    check_unique(zip(exemption_nodes, (e.id for e in kw["exemptions"]), strict=True), "id", "dispensa")
    kw["reading"] = node.text("reading", False)
    kw["notes"] = node.notes()
    node.done()
    return Fee(**kw)


def parse_exemption(node: Node) -> Exemption:
    result = Exemption(
        id=node.ident(),
        label=node.text("label"),
        waives=node.enum_list("waives", ("fee", "deposit")) or ("fee", "deposit"),
        document=node.ident("document", False),
        waives_documents=node.ident_list("waives_documents"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        notes=node.notes(),
    )
    node.done()
    return result


# --------------------------------------------------------------------------- formula fees (issue 29 §1, §3)

#: a name a formula reads: lower-case ASCII, digits and "_" (a hyphen would read as a minus)
NAME_RE = re.compile(r"^[a-z_][a-z0-9_]*$")
#: names the language gives every formula fee (the desk's inputs, ``base`` in an exception)
BUILTIN_NAMES = (
    "front",
    "depth",
    "hitch",
    "area",
    "days",
    "year",
    "mei",
    "local",
    "equipment",
    "line",
    "venue",
    "base",
)


def formula_at(node: Node, name: str, required: bool = True) -> str | None:
    """A formula's text, read in the language: a syntax error is reported at the key with its column."""
    text = node.text(name, required)
    if text is None:
        return None
    try:
        parse(text)
    except FormulaError as exc:
        node.fail(name, f"erro na fórmula, coluna {exc.column}: {exc.reason} — «{text}»")
    return text


def unit_at(node: Node, name: str = "unit") -> str:
    text = node.text(name, False) or ""
    try:
        parse_unit(text)
    except ValueError as exc:
        node.fail(name, str(exc))
    return text


def name_at(node: Node, key: str = "name") -> str:
    value = node.text(key)
    if not NAME_RE.match(value):
        node.fail(key, f'nome inválido "{value}": use minúsculas ASCII, dígitos e "_" (hífen seria subtração)')
    if value in KEYWORDS or value in UNIT_WORDS or value in FUNCTIONS or value in BUILTIN_NAMES:
        node.fail(key, f'"{value}" é uma palavra da linguagem das fórmulas: escolha outro nome')
    return value


def parse_term(node: Node) -> FormulaTerm:
    name = name_at(node)
    value = node.decimal("value", False)
    formula = formula_at(node, "formula", False)
    if (value is None) == (formula is None):
        node.fail("value", 'informe "value" (um número do ato) ou "formula" — um dos dois')
    unit = unit_at(node)
    if formula is not None and unit:
        node.fail("unit", "a unidade de um termo com fórmula vem da própria fórmula")
    result = FormulaTerm(
        name=name,
        label=node.text("label", False),
        value=value,
        unit=unit,
        formula=formula,
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
        cited=tuple(parse_cited(child) for child in node.tables("cited")),
    )
    node.done()
    return result


def parse_cited(node: Node) -> CitedWhen:
    result = CitedWhen(basis=node.basis(), when=formula_at(node, "when") or "")
    node.done()
    return result


def parse_row(node: Node, choice: str | None = None, columns: tuple[TableColumn, ...] = ()) -> TableRow:
    """A row of a decision table; of a table of choices (``choice``), one of the act's options: its ``id`` and
    ``label``, no ``when`` (its condition is the option chosen), and with ``columns`` a value for each
    (``values = { coluna = "…" }``) instead of ``value``."""
    if choice is not None:
        ident: str | None = node.ident()
        label: str | None = node.text("label")
        if node.has("when"):
            node.fail("when", f'uma linha de uma tabela de opções não tem "when": vale quando {choice} é o seu id')
        when = None
    else:
        ident, label, when = None, node.text("label", False), formula_at(node, "when", False)
    values: tuple[tuple[str, Decimal], ...] = ()
    value: Decimal | None = None
    if columns:
        if node.has("value"):
            node.fail("value", 'uma tabela com colunas dá "values = { coluna = valor }", um valor por coluna')
        given = node.table("values", required=True)
        values = tuple((column.name, given.decimal(column.name)) for column in columns)
        given.done()
    else:
        value = node.decimal("value")
    result = TableRow(
        when=when,
        value=value,
        label=label,
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
        id=ident,
        values=values,
    )
    node.done()
    return result


def parse_column(node: Node) -> TableColumn:
    result = TableColumn(name=name_at(node), label=node.text("label"), unit=unit_at(node))
    node.done()
    return result


#: the desk's categories a table of choices may list (``[[fees.tables]] choice``)
TABLE_CHOICES = ("energy", "venue")


def _choice_at(node: Node) -> str | None:
    """The desk list a table of choices declares; while checking a whole file, a mistake is recorded and the table
    read as the list nearest to what was written, so that its rows are checked as rows of options."""
    found = FOUND.get()
    try:
        return node.enum("choice", TABLE_CHOICES, required=False)
    except RegimeError as exc:
        if found is None:
            raise
        found.append(exc)
        return near(str(node.data.get("choice")), TABLE_CHOICES) or TABLE_CHOICES[0]


def parse_table(node: Node) -> DecisionTable:
    name = name_at(node)
    label = node.text("label")
    choice = _choice_at(node)
    columns = parse_list(node, "columns", parse_column, id_attr="name", what="coluna")
    if columns and choice is None:
        node.fail("columns", 'só uma tabela de opções (choice = "venue", "energy") tem colunas')
    if columns and node.has("unit"):
        node.fail("unit", "numa tabela com colunas, cada coluna tem a sua unidade")
    unit = "" if columns else unit_at(node)
    row_nodes = node.tables("rows", required=True)
    if not row_nodes:
        node.fail("rows", "tabela sem linhas")
    rows = parse_list(
        node,
        "rows",
        lambda child: parse_row(child, choice, columns),
        id_attr="id" if choice is not None else None,
        what="opção",
    )
    for row_node, row in zip(row_nodes, rows, strict=False):
        if choice is None and row.when is None and row is not rows[-1]:
            row_node.fail("when", 'só a última linha pode ficar sem "when" (os demais casos)')
    result = DecisionTable(
        name=name, label=label, unit=unit, rows=rows, notes=node.notes(), choice=choice, columns=columns
    )
    node.done()
    return result


def parse_fee_exception(node: Node) -> FeeException:
    result = FeeException(
        id=node.ident(),
        label=node.text("label"),
        when=formula_at(node, "when") or "",
        formula=formula_at(node, "formula") or "",
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
        claimed=formula_at(node, "claimed", False),
        reaches=formula_at(node, "reaches", False),
        unmet=tuple(parse_requirement(child) for child in node.tables("unmet")),
        called=node.enum("called", CALLED, False, default="desconto"),
    )
    node.done()
    return result


def parse_requirement(node: Node) -> Requirement:
    result = Requirement(when=formula_at(node, "when") or "", reason=node.text("reason"))
    node.done()
    return result


#: what a formula fee's quote line is (``line_kind``): a charge, or a refundable deposit (a venue's caução)
LINE_KINDS = ("charge", "deposit")

#: the desk's fields a refusal may be about (``[[fees.refusals]] field``)
REFUSAL_FIELDS = ("front", "depth", "hitch", "area", "days", "equipment", "line", "venue", "energy", "fees")


def said_at(node: Node, name: str, required: bool = True) -> str | None:
    """A text said with values (``{front + hitch}``): each expression in braces read in the language."""
    text = node.text(name, required)
    for placeholder in REFUSAL_PLACEHOLDER.findall(text or ""):
        try:
            parse(placeholder)
        except FormulaError as exc:
            node.fail(name, f"erro na expressão {{{placeholder}}}, coluna {exc.column}: {exc.reason}")
    return text


def parse_refusal(node: Node) -> Refusal:
    reason = said_at(node, "reason") or ""
    result = Refusal(
        when=formula_at(node, "when") or "",
        reason=reason,
        basis=node.basis(),
        field=node.enum("field", REFUSAL_FIELDS, False),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_said(node: Node) -> Said:
    result = Said(
        text=said_at(node, "text") or "",
        when=formula_at(node, "when", False),
        basis=node.basis("basis", False),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
    )
    node.done()
    return result


def parse_asked_input(node: Node) -> AskedInput:
    name = name_at(node)
    minimum = node.decimal("min", False)
    maximum = node.decimal("max", False)
    if minimum is not None and maximum is not None and minimum > maximum:
        node.fail("max", f"o máximo ({maximum}) é menor que o mínimo ({minimum})")
    places = node.integer("places", False, minimum=0)
    if places is not None and places > 6:
        node.fail("places", "no máximo 6 casas decimais")
    result = AskedInput(
        name=name,
        label=node.text("label"),
        unit=unit_at(node),
        minimum=minimum,
        maximum=maximum,
        places=2 if places is None else places,
        set_by=node.enum("set_by", tuple(SETTERS), required=False, default="administration"),
        basis=node.basis(),
        basis_act=node.basis_act(),
        amended_by=node.text("amended_by", False),
        notes=node.notes(),
        fee_value=node.boolean("fee_value"),
    )
    node.done()
    return result


def parse_formula_parts(node: Node) -> dict[str, Any]:
    """The keys of a ``kind = "formula"`` fee: its formula, terms, decision tables, exceptions and the inputs it
    asks for. Names and units are checked against the whole act afterwards (``fee_formulas``)."""
    parts: dict[str, Any] = {
        "formula": formula_at(node, "formula"),
        "line_label": said_at(node, "line_label", False),
        "per": node.enum("per", FIXED_PER, required=False),
        "terms": parse_list(node, "terms", parse_term, id_attr="name", what="termo"),
        "tables": parse_list(node, "tables", parse_table, id_attr="name", what="tabela"),
        "exceptions": parse_list(node, "exceptions", parse_fee_exception, what="exceção"),
        "inputs": parse_list(node, "inputs", parse_asked_input, id_attr="name", what="valor informado"),
        "refusals": parse_list(node, "refusals", parse_refusal, id_attr=None, what="recusa"),
        "says": parse_list(node, "says", parse_said, id_attr=None, what="dito"),
        "line_kind": node.enum("line_kind", LINE_KINDS, required=False),
    }
    names: dict[str, str] = {}
    for key in ("terms", "tables", "inputs"):
        for i, item in enumerate(parts[key]):
            read = [(f"{key}[{i}].name", item.name)]
            if key == "tables" and item.columns:  # a table with columns is read by its columns' names
                read = [(f"{key}[{i}].columns[{j}].name", c.name) for j, c in enumerate(item.columns)]
            for where, name in read:
                if name in names:
                    node.fail(where, f'nome "{name}" já usado em {names[name]}')
                names[name] = key

    return parts
