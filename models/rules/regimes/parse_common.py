"""Parsers of the small shapes several tables share: an amount, a flag with its article, a unit code, a
rule in text, a closed-day rule, a plain item (id, label, article).
"""

from __future__ import annotations

from typing import Literal, TypeVar, overload

from models.rules.regimes.model import Amount, ClosedDay, Duty, Flag, Prohibition, TextRule
from models.rules.regimes.reader import Node, show
from models.rules.regimes.vocabulary import CLOSED_DAY_RULES, CODE_RE


def parse_amount(node: Node, *, with_basis: bool = False, basis_required: bool = False) -> Amount:
    value = node.decimal("value", non_negative=True)
    unit_raw = node.text("unit")
    if unit_raw != "BRL" and not CODE_RE.match(unit_raw):
        node.fail("unit", f'unidade {show(unit_raw)} inválida: "BRL" ou o código de uma [[units]]')
    basis = basis_act = None
    if with_basis:
        basis = node.basis(required=basis_required)
        basis_act = node.basis_act()
    notes = node.notes()
    node.done()
    return Amount(value=value, unit=unit_raw, basis=basis, basis_act=basis_act, notes=notes)


@overload
def amount_at(
    parent: Node, name: str, required: Literal[True] = True, *, with_basis: bool = ..., basis_required: bool = ...
) -> Amount: ...
@overload
def amount_at(
    parent: Node, name: str, required: bool = ..., *, with_basis: bool = ..., basis_required: bool = ...
) -> Amount | None: ...
def amount_at(
    parent: Node, name: str, required: bool = True, *, with_basis: bool = False, basis_required: bool = False
) -> Amount | None:
    """The amount in the table ``name`` of ``parent`` (None when it is optional and absent)."""
    child = parent.table(name, required)
    if child is None:
        return None
    return parse_amount(child, with_basis=with_basis, basis_required=basis_required)


def flag_at(parent: Node, name: str) -> Flag | None:
    child = parent.table(name)
    if child is None:
        return None
    result = Flag(basis=child.basis(), notes=child.notes())
    child.done()
    return result


def parse_closed_day(node: Node, *, external: bool = False) -> ClosedDay:
    """``{ rule, basis, basis_act }``: with ``external`` (the regime's calendar) the rule may come from another
    law only (``basis_act``, as Lei 9.784/1999 applied subsidiarily); a deadline's own rule cites the act."""
    rule = node.enum("rule", CLOSED_DAY_RULES)
    basis = node.basis(required=not external)
    basis_act = node.basis_act()
    if basis is None and basis_act is None:
        node.fail("basis", "informe o artigo do ato (basis) ou a lei aplicada subsidiariamente (basis_act)")
    result = ClosedDay(rule=rule, basis=basis, basis_act=basis_act, notes=node.notes())
    node.done()
    return result


def unit_code(node: Node, name: str) -> str:
    value = node.text(name)
    if value != "BRL" and not CODE_RE.match(value):
        node.fail(name, f'unidade {show(value)} inválida: "BRL" ou o código de uma [[units]]')
    return value


def parse_text_rule(node: Node) -> TextRule:
    result = TextRule(
        text=node.text("text"), amount=amount_at(node, "amount", required=False), basis=node.basis(), notes=node.notes()
    )
    node.done()
    return result


#: the items read as a plain id, label and article
Plain = TypeVar("Plain", Prohibition, Duty)


def parse_plain(node: Node, cls: type[Plain]) -> Plain:
    result = cls(
        id=node.ident(), label=node.text("label"), basis=node.basis(), basis_act=node.basis_act(), notes=node.notes()
    )
    node.done()
    return result
