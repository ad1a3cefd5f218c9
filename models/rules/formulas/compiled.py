"""A checked formula compiled once: into a tree of small Python closures (no ``isinstance`` walk at each quote)
and into a text template with its parentheses and operators decided, whose slots are the names and calls to be
written with their values. :mod:`models.rules.regimes.fee_formulas` compiles a version of an act once; the fee
engine runs the closures and fills the templates for every quote.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

from models.base.money import format_factor
from models.rules.formulas.evaluate import (
    CONTEXT,
    SHOWN_FUNCTIONS,
    SHOWN_OPS,
    EvaluationError,
    Value,
    associative,
    round_to,
)
from models.rules.formulas.syntax import (
    Binary,
    Bool,
    Call,
    Expr,
    In,
    Name,
    Num,
    Str,
    Unary,
    needs_parentheses,
    precedence,
)


class Env(Protocol):
    """What a compiled formula reads: a name's value, a call's (another fee, a fiscal unit in a year)."""

    def value(self, name: str) -> Value: ...

    def call(self, function: str, args: list[Value]) -> Value: ...


Run = Callable[[Env], Value]


def _arith(op: str, left: Run, right: Run, column: int) -> Run:
    method = {"+": CONTEXT.add, "-": CONTEXT.subtract, "*": CONTEXT.multiply, "/": CONTEXT.divide}[op]

    def run(env: Env) -> Value:
        try:
            return method(left(env), right(env))  # type: ignore[arg-type]
        except decimal.DivisionByZero:
            raise EvaluationError("divisão por zero", column) from None
        except (decimal.InvalidOperation, decimal.Overflow):
            raise EvaluationError("conta impossível (valor grande demais ou indefinido)", column) from None

    return run


def _compare(op: str, left: Run, right: Run) -> Run:
    if op == "==":
        return lambda env: left(env) == right(env)
    if op == "!=":
        return lambda env: left(env) != right(env)
    if op == "<":
        return lambda env: left(env) < right(env)  # type: ignore[operator]
    if op == "<=":
        return lambda env: left(env) <= right(env)  # type: ignore[operator]
    if op == ">":
        return lambda env: left(env) > right(env)  # type: ignore[operator]
    return lambda env: left(env) >= right(env)  # type: ignore[operator]


def _quantity(value: Value) -> Decimal:
    assert isinstance(value, Decimal), "the checker typed it a quantity"
    return value


def compile_run(expr: Expr) -> Run:
    """``expr`` (checked) as closures: ``compile_run(e)(env)`` is its value. ``and``/``or`` read their right
    side only when the left does not decide."""
    if isinstance(expr, (Num, Str, Bool)):
        constant = expr.value
        return lambda env: constant
    if isinstance(expr, Name):
        name = expr.name
        return lambda env: env.value(name)
    if isinstance(expr, Unary):
        inner = compile_run(expr.operand)
        if expr.op == "not":
            return lambda env: not inner(env)
        return lambda env: -_quantity(inner(env))
    if isinstance(expr, Binary):
        left, right = compile_run(expr.left), compile_run(expr.right)
        if expr.op == "and":
            return lambda env: bool(left(env)) and bool(right(env))
        if expr.op == "or":
            return lambda env: bool(left(env)) or bool(right(env))
        if expr.op in ("+", "-", "*", "/"):
            return _arith(expr.op, left, right, expr.column)
        return _compare(expr.op, left, right)
    if isinstance(expr, In):
        item, options, negated = compile_run(expr.item), frozenset(o.value for o in expr.options), expr.negated
        return lambda env: (item(env) in options) != negated
    function = expr.function
    if function == "given":  # whether the case gives a fact: the name is asked about, never read
        asked = expr.args[0].name if isinstance(expr.args[0], Name) else ""
        return lambda env: env.call("given", [asked])
    args = [compile_run(arg) for arg in expr.args]
    if function == "min":
        return lambda env: min(_quantity(a(env)) for a in args)
    if function == "max":
        return lambda env: max(_quantity(a(env)) for a in args)
    if function == "round":
        value = args[0]
        places = int(expr.args[1].value) if len(expr.args) == 2 and isinstance(expr.args[1], Num) else 2
        return lambda env: round_to(value(env), places)  # type: ignore[arg-type]
    return lambda env: env.call(function, [a(env) for a in args])


# --------------------------------------------------------------------------- text


@dataclass(frozen=True)
class Slot:
    """A place in a template for a value: a name (``tight``: a product written there needs parentheses, as the
    right side of a division) or a call written by the engine."""

    name: str
    tight: bool = False
    call: Call | None = None


Part = str | Slot


def _product_needs_parentheses(parent: Expr | None, right: bool) -> bool:
    product = Binary("*", Name("a", 0), Name("b", 0), 0)
    if isinstance(parent, Unary):
        return True
    if isinstance(parent, Binary):
        return needs_parentheses(parent, product, right) and not associative(parent, product)
    return False


def template(expr: Expr) -> tuple[Part, ...]:
    """``expr`` as text parts for a person (``×``, ``÷``, ``−``, ``máx``): literals written once, each name and
    each call other than ``min``/``max``/``round`` a :class:`Slot`."""
    parts: list[Part] = []

    def emit(node: Expr, parent: Expr | None = None, right: bool = False) -> None:
        if isinstance(node, Num):
            parts.append(format_factor(node.value))
        elif isinstance(node, Str):
            parts.append(f"“{node.value}”")
        elif isinstance(node, Bool):
            parts.append("sim" if node.value else "não")
        elif isinstance(node, Name):
            parts.append(Slot(node.name, _product_needs_parentheses(parent, right)))
        elif isinstance(node, Unary):
            parts.append("não " if node.op == "not" else "−")
            wrap = precedence(node.operand) < precedence(node)
            if wrap:
                parts.append("(")
            emit(node.operand, node)
            if wrap:
                parts.append(")")
        elif isinstance(node, Binary):
            left_wrap = needs_parentheses(node, node.left, False)
            right_wrap = needs_parentheses(node, node.right, True) and not associative(node, node.right)
            if left_wrap:
                parts.append("(")
            emit(node.left, node, False)
            if left_wrap:
                parts.append(")")
            parts.append(f" { ({'and': 'e', 'or': 'ou'}.get(node.op) or SHOWN_OPS[node.op]) } ")
            if right_wrap:
                parts.append("(")
            emit(node.right, node, True)
            if right_wrap:
                parts.append(")")
        elif isinstance(node, In):
            emit(node.item, node)
            parts.append(f" {'fora de' if node.negated else 'em'} [")
            for i, option in enumerate(node.options):
                if i:
                    parts.append(", ")
                emit(option, node)
            parts.append("]")
        elif node.function in SHOWN_FUNCTIONS:
            parts.append(f"{SHOWN_FUNCTIONS[node.function]}(")
            for i, arg in enumerate(node.args):
                if i:
                    parts.append("; ")
                emit(arg, node)
            parts.append(")")
        else:
            parts.append(Slot(node.function, call=node))

    emit(expr)
    merged: list[Part] = []
    for part in parts:  # neighbouring literals joined once, here
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return tuple(merged)


@dataclass(frozen=True)
class Compiled:
    """One expression of a fee, compiled: its closures and its text template."""

    run: Run
    parts: tuple[Part, ...]


def compile_expr(expr: Expr) -> Compiled:
    return Compiled(compile_run(expr), template(expr))
