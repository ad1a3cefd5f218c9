"""Evaluating a checked formula over ``Decimal`` values, and writing it with those values in for the quote
(``5,50 × 38,42 × máx(4,00; 1,00)``).

Arithmetic runs in a decimal context of :data:`PRECISION` digits that traps every inexact surprise a
``float`` would hide (an invalid operation, a division by zero, an overflow); nothing is rounded unless the
formula says ``round`` (to the cent, ``ROUND_HALF_UP``, as the acts round) — the fee's amount is rounded
once, at the end, by the engine.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

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

PRECISION = 50
CONTEXT = decimal.Context(
    prec=PRECISION,
    rounding=ROUND_HALF_UP,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)

Value = Decimal | bool | str


class EvaluationError(Exception):
    """A formula that cannot be computed with these values (a division by zero): ``reason`` in pt-BR."""

    def __init__(self, reason: str, column: int):
        super().__init__(reason)
        self.reason = reason
        self.column = column


def round_to(value: Decimal, places: int = 2) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=CONTEXT)


def evaluate(
    expr: Expr,
    name_value: Callable[[Name], Value],
    call_value: Callable[[Call, list[Value]], Value] | None = None,
) -> Value:
    """The value of ``expr`` (already checked by :func:`models.rules.formulas.types.check`). ``and`` and ``or``
    read their right side only when the left does not decide — a name the right side needs is asked for only
    then (a depth asked only for the stalls a discount could reach)."""

    def walk(node: Expr) -> Value:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, (Str, Bool)):
            return node.value
        if isinstance(node, Name):
            return name_value(node)
        if isinstance(node, Unary):
            inner = walk(node.operand)
            return (not inner) if node.op == "not" else -_dec(inner)
        if isinstance(node, Binary):
            if node.op == "and":
                return bool(walk(node.left)) and bool(walk(node.right))
            if node.op == "or":
                return bool(walk(node.left)) or bool(walk(node.right))
            left, right = walk(node.left), walk(node.right)
            return _binary(node, left, right)
        if isinstance(node, In):
            item = walk(node.item)
            found = any(option.value == item for option in node.options)
            return found != node.negated
        args = [walk(arg) for arg in node.args]
        if node.function == "min":
            return min(_dec(a) for a in args)
        if node.function == "max":
            return max(_dec(a) for a in args)
        if node.function == "round":
            places = int(_dec(args[1])) if len(args) == 2 else 2
            return round_to(_dec(args[0]), places)
        if call_value is None:  # pragma: no cover - the checker refuses such a call
            raise EvaluationError(f"função {node.function!r} desconhecida", node.column)
        return call_value(node, args)

    return walk(expr)


def _dec(value: Value) -> Decimal:
    if isinstance(value, Decimal):
        return value
    raise TypeError(f"not a quantity: {value!r}")  # pragma: no cover - the checker typed every operand


def _binary(node: Binary, left: Value, right: Value) -> Value:
    op = node.op
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    a, b = _dec(left), _dec(right)
    try:
        if op == "+":
            return CONTEXT.add(a, b)
        if op == "-":
            return CONTEXT.subtract(a, b)
        if op == "*":
            return CONTEXT.multiply(a, b)
        if op == "/":
            return CONTEXT.divide(a, b)
    except decimal.DivisionByZero:
        raise EvaluationError("divisão por zero", node.column) from None
    except (decimal.InvalidOperation, decimal.Overflow):
        raise EvaluationError("conta impossível (valor grande demais ou indefinido)", node.column) from None
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


# --------------------------------------------------------------------------- with the values in


def associative(parent: Binary, child: Expr) -> bool:
    """``a × (b × c)`` reads as ``a × b × c`` for a person (the same number): no parentheses there."""
    return isinstance(child, Binary) and parent.op == child.op and parent.op in ("*", "+", "and", "or")


SHOWN_OPS = {"+": "+", "-": "−", "*": "×", "/": "÷", "<": "<", "<=": "≤", ">": ">", ">=": "≥", "==": "=", "!=": "≠"}
SHOWN_FUNCTIONS = {"min": "mín", "max": "máx", "round": "arred"}


def shown(
    expr: Expr,
    name_text: Callable[[Name], str],
    call_text: Callable[[Call], str | None] | None = None,
    number_text: Callable[[Decimal], str] = str,
) -> str:
    """``expr`` written for a person: each name replaced by ``name_text(name)`` (its value, or its label),
    ``×``/``÷``/``−`` for the operators, ``mín``/``máx``/``arred`` for the functions; ``call_text`` writes a
    call of its own (the amount of another fee) or None to write it as a call."""

    def walk(node: Expr) -> str:
        if isinstance(node, Num):
            return number_text(node.value)
        if isinstance(node, Str):
            return f"“{node.value}”"
        if isinstance(node, Bool):
            return "sim" if node.value else "não"
        if isinstance(node, Name):
            return name_text(node)
        if isinstance(node, Unary):
            inner = walk(node.operand)
            if precedence(node.operand) < precedence(node):
                inner = f"({inner})"
            return f"não {inner}" if node.op == "not" else f"−{inner}"
        if isinstance(node, Binary):
            left, right = side(node.left, node.right), side(node.right, node.left)
            if needs_parentheses(node, node.left, False):
                left = f"({left})"
            if needs_parentheses(node, node.right, True) and not associative(node, node.right):
                right = f"({right})"
            op = {"and": "e", "or": "ou"}.get(node.op) or SHOWN_OPS[node.op]
            return f"{left} {op} {right}"
        if isinstance(node, In):
            item = walk(node.item)
            options = ", ".join(walk(o) for o in node.options)
            return f"{item} {'fora de' if node.negated else 'em'} [{options}]"
        own = call_text(node) if call_text is not None else None
        if own is not None:
            return own
        name = SHOWN_FUNCTIONS.get(node.function, node.function)
        return f"{name}({'; '.join(walk(a) for a in node.args)})"

    def side(node: Expr, other: Expr) -> str:
        return year_text(node, other) or walk(node)

    return walk(expr)


def year_text(node: Expr, other: Expr) -> str | None:
    """A number compared with ``year`` written as a year — 2011, never 2.011 —, or None for any other side."""
    if isinstance(node, Num) and isinstance(other, Name) and other.name == "year":
        return str(node.value)
    return None
