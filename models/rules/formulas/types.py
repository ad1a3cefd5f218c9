"""What a formula's values are — a quantity with its unit (R$, m, m², dias, dias de feira, meses, eventos, or a
pure number), a yes/no, or a category (an equipment, a line…) — and :func:`check`, which works out the type of
every expression before it is ever evaluated: ``front + area`` (m + m²) is refused at load time, with its
column, never priced.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from models.rules.formulas.syntax import (
    COMPARISONS,
    Binary,
    Bool,
    Call,
    Expr,
    FormulaError,
    In,
    Name,
    Num,
    Str,
    Unary,
)

#: how each unit symbol prints (the canonical symbols of ``syntax.UNIT_WORDS`` and money)
SYMBOLS = {"R$": "R$", "m": "m", "dia": "dia", "dia_feira": "dia de feira", "mes": "mês", "evento": "evento"}


@dataclass(frozen=True)
class Dim:
    """A unit as powers of the base units: R$/m² is ``(("R$", 1), ("m", -2))``; a pure number is ``()``."""

    powers: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(symbol: str) -> Dim:
        if symbol == "m2":
            return Dim((("m", 2),))
        return Dim(((symbol, 1),))

    def _combine(self, other: Dim, sign: int) -> Dim:
        powers = dict(self.powers)
        for unit, power in other.powers:
            powers[unit] = powers.get(unit, 0) + sign * power
        return Dim(tuple(sorted((u, p) for u, p in powers.items() if p)))

    def __mul__(self, other: Dim) -> Dim:
        return self._combine(other, 1)

    def __truediv__(self, other: Dim) -> Dim:
        return self._combine(other, -1)

    def text(self) -> str:
        """``R$/m²``, ``m``, ``número`` — as the checker's messages say it."""
        if not self.powers:
            return "número"

        def one(unit: str, power: int) -> str:
            name = SYMBOLS.get(unit, unit)
            return name + {1: "", 2: "²", 3: "³"}.get(power, f"^{power}")

        top = [one(u, p) for u, p in self.powers if p > 0] or ["1"]
        bottom = [one(u, -p) for u, p in self.powers if p < 0]
        return "·".join(top) + "".join(f"/{b}" for b in bottom)


NUMBER = Dim()
MONEY = Dim.of("R$")


@dataclass(frozen=True)
class Category:
    """A value chosen from a list (the stall's equipment, its line, the venue…): ``kind`` says which list,
    ``options`` the ids it may take (empty: any text)."""

    kind: str
    options: frozenset[str] = frozenset()


class Boolean:
    """The type of a condition."""

    def __repr__(self) -> str:
        return "BOOL"


BOOL = Boolean()
Type = Dim | Category | Boolean


def type_text(kind: Type) -> str:
    if isinstance(kind, Dim):
        return kind.text()
    if isinstance(kind, Category):
        return f"categoria ({kind.kind})"
    return "condição (sim/não)"


# --------------------------------------------------------------------------- units of a term


#: longer words first: "mes" must not be read as "m" followed by "es"
_UNIT_PART = re.compile(
    r"\s*(R\$|BRL|meses|mes|m²|m2|ml|m|dias_feira|dia_feira|dias|dia|eventos|evento|[A-Z][A-Z0-9]*)\s*"
)
_UNIT_WORDS = {
    "R$": "R$",
    "BRL": "R$",
    "m²": "m2",
    "m2": "m2",
    "ml": "m",
    "m": "m",
    "dias_feira": "dia_feira",
    "dia_feira": "dia_feira",
    "dias": "dia",
    "dia": "dia",
    "meses": "mes",
    "mes": "mes",
    "eventos": "evento",
    "evento": "evento",
}


def parse_unit(text: str, fiscal_units: frozenset[str] | None = None) -> tuple[Dim, str | None]:
    """A term's unit as written in the file (``"R$/m2"``, ``"UFESP"``, ``"UFESP/m"``, ``""`` for a pure number)
    → its :class:`Dim` and the fiscal unit it is counted in (its value is multiplied by the unit's value in the
    year priced), if any. ``fiscal_units``: the codes the regime declares (None: any code, checked later).
    :class:`ValueError` with a pt-BR reason when it is not a unit."""
    text = text.strip()
    if not text:
        return NUMBER, None
    dim = NUMBER
    fiscal: str | None = None
    at, sign = 0, 1
    while True:
        part = _UNIT_PART.match(text, at)
        if part is None:
            raise ValueError(
                f"unidade {text!r} não reconhecida: use R$, uma unidade fiscal (UFESP…), m, m2, dia, dia_feira, mes, "
                f'evento, combinadas com "/" (R$/m2)'
            )
        word = part.group(1)
        if word in _UNIT_WORDS:
            symbol = _UNIT_WORDS[word]
            unit = Dim.of(symbol)
        else:
            if fiscal_units is not None and word not in fiscal_units:
                raise ValueError(f"unidade fiscal {word!r} não declarada em [[units]]")
            if fiscal is not None or sign < 0:
                raise ValueError(f"unidade {text!r}: uma só unidade fiscal, no numerador (UFESP/m2)")
            fiscal, unit = word, MONEY
        dim = dim * unit if sign > 0 else dim / unit
        at = part.end()
        if at == len(text):
            return dim, fiscal
        if text[at] not in "/*":
            raise ValueError(f'unidade {text!r} não reconhecida: separe as unidades com "/" (R$/m2)')
        sign = -1 if text[at] == "/" else sign
        at += 1


# --------------------------------------------------------------------------- checking


def _mismatch(op: str, left: Type, right: Type, column: int) -> FormulaError:
    return FormulaError(f"unidades incompatíveis em {op!r}: {type_text(left)} e {type_text(right)}", column)


def check(
    expr: Expr,
    name_type: Callable[[Name], Type],
    call_type: Callable[[Call, list[Type]], Type] | None = None,
) -> Type:
    """The type of ``expr``; :class:`FormulaError` (with the column) at the first name or unit that does not
    fit. ``name_type`` types a name (raising ``FormulaError`` for an unknown one); ``call_type`` types the
    calls other than ``min``, ``max`` and ``round`` (a fee of the act, a fiscal unit of a given year)."""

    def quantity(node: Expr, what: str) -> Dim:
        kind = walk(node)
        if not isinstance(kind, Dim):
            raise FormulaError(f"{what}: esperado um número ou uma medida, veio {type_text(kind)}", node.column)
        return kind

    def condition(node: Expr, what: str) -> None:
        kind = walk(node)
        if kind is not BOOL:
            raise FormulaError(f"{what}: esperada uma condição (sim/não), veio {type_text(kind)}", node.column)

    def walk(node: Expr) -> Type:
        if isinstance(node, Num):
            return Dim.of(node.unit) if node.unit else NUMBER
        if isinstance(node, Str):
            return Category("texto")
        if isinstance(node, Bool):
            return BOOL
        if isinstance(node, Name):
            return name_type(node)
        if isinstance(node, Unary):
            if node.op == "not":
                condition(node.operand, "'not'")
                return BOOL
            return quantity(node.operand, "'-'")
        if isinstance(node, Binary):
            if node.op in ("and", "or"):
                condition(node.left, repr(node.op))
                condition(node.right, repr(node.op))
                return BOOL
            if node.op in ("==", "!=") and not isinstance(walk(node.left), Dim):
                left, right = walk(node.left), walk(node.right)
                if isinstance(left, Category) and isinstance(right, Category):
                    _check_options(left, right, node.right)
                    _check_options(right, left, node.left)
                    return BOOL
                if left is BOOL and right is BOOL:
                    return BOOL
                raise _mismatch(node.op, left, right, node.column)
            left_dim = quantity(node.left, repr(node.op))
            right_dim = quantity(node.right, repr(node.op))
            if node.op in ("*", "/"):
                return left_dim * right_dim if node.op == "*" else left_dim / right_dim
            if left_dim != right_dim:
                raise _mismatch(node.op, left_dim, right_dim, node.column)
            return BOOL if node.op in COMPARISONS else left_dim
        if isinstance(node, In):
            item = walk(node.item)
            if isinstance(item, Category):
                for option in node.options:
                    if not isinstance(option, Str):
                        raise FormulaError(f"{type_text(item)} comparada a um número", option.column)
                    _check_options(item, Category("texto"), option)
                return BOOL
            if isinstance(item, Dim):
                for option in node.options:
                    if not isinstance(option, Num) or item != NUMBER:
                        raise FormulaError(f"lista de {type_text(item)} só com números puros", option.column)
                return BOOL
            raise FormulaError("'in' pede uma categoria ou um número à esquerda", node.column)
        return _check_call(node, quantity, walk, call_type)

    return walk(expr)


def _check_options(category: Category, other: Category, node: Expr) -> None:
    """A text compared with a category must be one of its ids (``equipment in ['trailr']`` is a typo)."""
    if not isinstance(node, Str) or not category.options or node.value in category.options:
        return
    import difflib

    guess = difflib.get_close_matches(node.value, sorted(category.options), n=1, cutoff=0.6)
    hint = f" — quis dizer {guess[0]!r}?" if guess else f" (opções: {', '.join(sorted(category.options))})"
    raise FormulaError(f"{category.kind} {node.value!r} não existe neste regime{hint}", node.column)


def _check_call(
    node: Call,
    quantity: Callable[[Expr, str], Dim],
    walk: Callable[[Expr], Type],
    call_type: Callable[[Call, list[Type]], Type] | None,
) -> Type:
    if node.function in ("min", "max"):
        if len(node.args) < 2:
            raise FormulaError(f"{node.function}() pede ao menos dois valores", node.column)
        dims = [quantity(arg, f"{node.function}()") for arg in node.args]
        for arg, dim in zip(node.args[1:], dims[1:], strict=True):
            if dim != dims[0]:
                raise _mismatch(f"{node.function}()", dims[0], dim, arg.column)
        return dims[0]
    if node.function == "round":
        if len(node.args) not in (1, 2):
            raise FormulaError(
                "round() pede o valor e, se quiser, as casas decimais: round(x) ou round(x, 2)", node.column
            )
        dim = quantity(node.args[0], "round()")
        if len(node.args) == 2:
            places = node.args[1]
            if not (isinstance(places, Num) and places.unit is None and places.value == places.value.to_integral()):
                raise FormulaError("round(): as casas decimais são um número inteiro (0 a 6)", places.column)
            if not 0 <= places.value <= 6:
                raise FormulaError("round(): as casas decimais vão de 0 a 6", places.column)
        return dim
    if call_type is None:
        raise FormulaError(f"função {node.function!r} desconhecida (use min, max, round)", node.column)
    return call_type(node, [walk(arg) for arg in node.args])
