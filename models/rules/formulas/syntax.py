"""The rule language's text: a hand-written tokenizer and a recursive-descent parser into a small tree.

The language is an expression language and nothing more — no assignment, no loop, no user function, no
recursion: an expression is a finite tree, evaluated once, bottom-up, so every formula ends. Its grammar
(docs/regime-format.md, "A linguagem das fórmulas")::

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum [("<" | "<=" | ">" | ">=" | "==" | "!=") sum]
             | sum ["not"] "in" "[" [literal ("," literal)*] "]"
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER [UNIT] | STRING | "true" | "false" | NAME | NAME "(" [expr ("," expr)*] ")" | "(" expr ")"

``×``, ``÷``, ``−``, ``≤``, ``≥`` and ``≠`` are read as ``*``, ``/``, ``-``, ``<=``, ``>=`` and ``!=``: a clerk may
copy them from the act. A number is written with a dot (``5.50``), as every decimal of a regime file; a number
may carry a unit of measure (``1.00 m``, ``3 dias``). Anything else — an unknown character, an unclosed
parenthesis, two operators in a row, a formula longer than :data:`MAX_LENGTH` or nested deeper than
:data:`MAX_DEPTH` — is a :class:`FormulaError` with the column where reading stopped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

#: A formula of an act fits in a few lines; beyond this it is a mistake (or an attack on the checker).
MAX_LENGTH = 2000
#: Parentheses and operators nest at most this deep (the parser recurses once per level).
MAX_DEPTH = 40

KEYWORDS = frozenset({"and", "or", "not", "in", "true", "false"})
#: the units of measure a number may carry, by how they are written → the unit's canonical symbol
UNIT_WORDS = {
    "m": "m",
    "ml": "m",
    "m2": "m2",
    "m²": "m2",
    "dia": "dia",
    "dias": "dia",
    "dia_feira": "dia_feira",
    "dias_feira": "dia_feira",
    "mes": "mes",
    "meses": "mes",
    "evento": "evento",
    "eventos": "evento",
    "exercicio": "exercicio",
    "exercicios": "exercicio",
}
FUNCTIONS = ("min", "max", "round", "fee", "given")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


class FormulaError(Exception):
    """A formula that is not in the language, or whose names or units do not fit: ``reason`` in pt-BR and
    the 1-based ``column`` of the formula's text where it was found."""

    def __init__(self, reason: str, column: int):
        super().__init__(f"coluna {column}: {reason}")
        self.reason = reason
        self.column = column


# --------------------------------------------------------------------------- tree


@dataclass(frozen=True)
class Num:
    value: Decimal
    unit: str | None  # a canonical symbol of UNIT_WORDS, or None (a pure number)
    column: int


@dataclass(frozen=True)
class Str:
    value: str
    column: int


@dataclass(frozen=True)
class Bool:
    value: bool
    column: int


@dataclass(frozen=True)
class Name:
    name: str
    column: int


@dataclass(frozen=True)
class Unary:
    op: str  # "-" or "not"
    operand: Expr
    column: int


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / < <= > >= == != and or
    left: Expr
    right: Expr
    column: int


@dataclass(frozen=True)
class In:
    item: Expr
    options: tuple[Str | Num, ...]
    negated: bool
    column: int


@dataclass(frozen=True)
class Call:
    function: str
    args: tuple[Expr, ...]
    column: int


Expr = Num | Str | Bool | Name | Unary | Binary | In | Call


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class Token:
    kind: str  # "num", "str", "name", "op", "end"
    text: str
    column: int


_SPACE = re.compile(r"[ \t\r\n]+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("<=", ">=", "==", "!=", "+", "-", "*", "/", "(", ")", "[", "]", ",", "<", ">")
_ALIASES = {"×": "*", "÷": "/", "−": "-", "≤": "<=", "≥": ">=", "≠": "!="}


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; :class:`FormulaError` at the first character that is not in the language."""
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"fórmula longa demais ({len(text)} caracteres; no máximo {MAX_LENGTH})", MAX_LENGTH + 1)
    tokens: list[Token] = []
    at = 0
    while at < len(text):
        column = at + 1
        space = _SPACE.match(text, at)
        if space:
            at = space.end()
            continue
        char = text[at]
        if char in _ALIASES:
            tokens.append(Token("op", _ALIASES[char], column))
            at += 1
            continue
        number = _NUMBER.match(text, at)
        if number:
            end = number.end()
            if end < len(text) and (text[end].isalpha() or text[end] in "_."):
                raise FormulaError(f"número mal escrito: {text[at : end + 1]!r} (use ponto decimal: 5.50)", column)
            tokens.append(Token("num", number.group(), column))
            at = end
            continue
        name = _NAME.match(text, at)
        if name:
            end = name.end()
            word = name.group()
            if end < len(text) and text[end] == "²" and word == "m":  # m²
                word, end = "m²", end + 1
            elif end < len(text) and (text[end].isalpha() or text[end] == "$"):
                raise FormulaError(f"nome com caractere fora do alfabeto ASCII: {text[at : end + 1]!r}", end + 1)
            tokens.append(Token("name", word, column))
            at = end
            continue
        if char in "'\"":
            end = text.find(char, at + 1)
            if end < 0:
                raise FormulaError("texto entre aspas sem a aspa de fechamento", column)
            tokens.append(Token("str", text[at + 1 : end], column))
            at = end + 1
            continue
        op = next((o for o in _OPERATORS if text.startswith(o, at)), None)
        if op is None:
            raise FormulaError(f"caractere fora da linguagem: {char!r}", column)
        tokens.append(Token("op", op, column))
        at += len(op)
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.at = 0
        self.depth = 0

    @property
    def token(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def is_op(self, *ops: str) -> bool:
        return self.token.kind == "op" and self.token.text in ops

    def is_word(self, *words: str) -> bool:
        return self.token.kind == "name" and self.token.text in words

    def expect(self, op: str, what: str) -> Token:
        if not self.is_op(op):
            raise FormulaError(f"esperado {op!r} {what}, veio {self.shown(self.token)}", self.token.column)
        return self.take()

    @staticmethod
    def shown(token: Token) -> str:
        if token.kind == "end":
            return "o fim da fórmula"
        if token.kind == "str":
            return f"o texto {token.text!r}"
        return repr(token.text)

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"fórmula aninhada demais (mais de {MAX_DEPTH} níveis)", self.token.column)

    def parse(self) -> Expr:
        if self.token.kind == "end":
            raise FormulaError("fórmula vazia", 1)
        expr = self.expr()
        if self.token.kind != "end":
            hint = " (decimais com ponto: 5.50)" if self.is_op(",") else ""
            raise FormulaError(
                f"sobra {self.shown(self.token)} depois de uma expressão completa{hint}", self.token.column
            )
        return expr

    def expr(self) -> Expr:
        self.nested()
        try:
            return self.or_()
        finally:
            self.depth -= 1

    def or_(self) -> Expr:
        left = self.and_()
        while self.is_word("or"):
            column = self.take().column
            left = Binary("or", left, self.and_(), column)
        return left

    def and_(self) -> Expr:
        left = self.not_()
        while self.is_word("and"):
            column = self.take().column
            left = Binary("and", left, self.not_(), column)
        return left

    def not_(self) -> Expr:
        if self.is_word("not"):
            column = self.take().column
            self.nested()
            try:
                return Unary("not", self.not_(), column)
            finally:
                self.depth -= 1
        return self.compare()

    def compare(self) -> Expr:
        left = self.sum()
        if self.is_op(*COMPARISONS):
            token = self.take()
            right = self.sum()
            if self.is_op(*COMPARISONS):
                raise FormulaError("comparações encadeadas: use 'and' (a < b and b < c)", self.token.column)
            return Binary(token.text, left, right, token.column)
        negated = False
        if self.is_word("not") and self.tokens[self.at + 1].kind == "name" and self.tokens[self.at + 1].text == "in":
            self.take()
            negated = True
        if self.is_word("in"):
            column = self.take().column
            return In(left, self.options(), negated, column)
        if negated:  # pragma: no cover - guarded above
            raise FormulaError("esperado 'in' depois de 'not'", self.token.column)
        return left

    def options(self) -> tuple[Str | Num, ...]:
        self.expect("[", "para abrir a lista")
        items: list[Str | Num] = []
        while not self.is_op("]"):
            token = self.take()
            if token.kind == "str":
                items.append(Str(token.text, token.column))
            elif token.kind == "num":
                items.append(Num(Decimal(token.text), None, token.column))
            else:
                raise FormulaError(f"na lista, esperado um texto entre aspas, veio {self.shown(token)}", token.column)
            if not self.is_op("]"):
                self.expect(",", "entre os itens da lista")
        self.take()
        if not items:
            raise FormulaError("lista vazia", self.tokens[self.at - 1].column)
        return tuple(items)

    def sum(self) -> Expr:
        left = self.product()
        while self.is_op("+", "-"):
            token = self.take()
            left = Binary(token.text, left, self.product(), token.column)
        return left

    def product(self) -> Expr:
        left = self.unary()
        while self.is_op("*", "/"):
            token = self.take()
            left = Binary(token.text, left, self.unary(), token.column)
        return left

    def unary(self) -> Expr:
        if self.is_op("-"):
            column = self.take().column
            self.nested()
            try:
                return Unary("-", self.unary(), column)
            finally:
                self.depth -= 1
        return self.atom()

    def atom(self) -> Expr:
        token = self.token
        if token.kind == "num":
            self.take()
            unit = None
            if self.token.kind == "name" and self.token.text in UNIT_WORDS:
                unit = UNIT_WORDS[self.take().text]
            return Num(Decimal(token.text), unit, token.column)
        if token.kind == "str":
            self.take()
            return Str(token.text, token.column)
        if token.kind == "name":
            self.take()
            if token.text in ("true", "false"):
                return Bool(token.text == "true", token.column)
            if token.text in KEYWORDS:
                raise FormulaError(f"esperado um valor, veio a palavra {token.text!r}", token.column)
            if token.text in UNIT_WORDS:
                raise FormulaError(
                    f"{token.text!r} é uma unidade de medida: escreva-a depois de um número (1.00 {token.text})",
                    token.column,
                )
            if self.is_op("("):
                self.take()
                args: list[Expr] = []
                while not self.is_op(")"):
                    args.append(self.expr())
                    if not self.is_op(")"):
                        self.expect(",", "entre os argumentos (ou ')' para fechar)")
                self.take()
                return Call(token.text, tuple(args), token.column)
            return Name(token.text, token.column)
        if self.is_op("("):
            self.take()
            inner = self.expr()
            self.expect(")", "para fechar o parêntese")
            return inner
        raise FormulaError(f"esperado um valor, veio {self.shown(token)}", token.column)


def parse(text: str) -> Expr:
    """The tree of ``text``; :class:`FormulaError` (with its column) when ``text`` is not in the language."""
    if not isinstance(text, str):
        raise FormulaError("a fórmula deve ser um texto", 1)
    return _Parser(text).parse()


# --------------------------------------------------------------------------- back to text

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "in": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "==": 4, "!=": 4}
_PRECEDENCE.update({"+": 5, "-": 5, "*": 6, "/": 6, "neg": 7})


def precedence(expr: Expr) -> int:
    if isinstance(expr, Binary):
        return _PRECEDENCE[expr.op]
    if isinstance(expr, In):
        return _PRECEDENCE["in"]
    if isinstance(expr, Unary):
        return _PRECEDENCE["not"] if expr.op == "not" else _PRECEDENCE["neg"]
    return 9


def needs_parentheses(parent: Binary, child: Expr, right: bool) -> bool:
    """Whether ``child`` (an operand of ``parent``) must be written in parentheses to be read back as it is."""
    inner, outer = precedence(child), precedence(parent)
    if inner < outer:
        return True
    if inner == outer and right:  # a − (b − c), a ÷ (b × c), a < (b < c): left-associative
        return True
    return inner == outer and outer == _PRECEDENCE["<"]  # comparisons do not chain


def _number(num: Num) -> str:
    text = str(num.value)
    return f"{text} {num.unit}" if num.unit else text


def source(expr: Expr) -> str:
    """``expr`` written back in the language (``parse(source(e)) == e`` up to columns)."""
    if isinstance(expr, Num):
        return _number(expr)
    if isinstance(expr, Str):
        return f"'{expr.value}'" if "'" not in expr.value else f'"{expr.value}"'
    if isinstance(expr, Bool):
        return "true" if expr.value else "false"
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Unary):
        inner = source(expr.operand)
        if precedence(expr.operand) < precedence(expr):
            inner = f"({inner})"
        return f"not {inner}" if expr.op == "not" else f"-{inner}"
    if isinstance(expr, Binary):
        left, right = source(expr.left), source(expr.right)
        if needs_parentheses(expr, expr.left, False):
            left = f"({left})"
        if needs_parentheses(expr, expr.right, True):
            right = f"({right})"
        return f"{left} {expr.op} {right}"
    if isinstance(expr, In):
        item = source(expr.item)
        if precedence(expr.item) <= precedence(expr):
            item = f"({item})"
        options = ", ".join(source(o) for o in expr.options)
        return f"{item} {'not in' if expr.negated else 'in'} [{options}]"
    return f"{expr.function}({', '.join(source(a) for a in expr.args)})"


def names(expr: Expr) -> list[Name]:
    """Every name ``expr`` reads, in reading order (a function's name is not one)."""
    found: list[Name] = []

    def walk(node: Expr) -> None:
        if isinstance(node, Name):
            found.append(node)
        elif isinstance(node, Unary):
            walk(node.operand)
        elif isinstance(node, Binary):
            walk(node.left)
            walk(node.right)
        elif isinstance(node, In):
            walk(node.item)
        elif isinstance(node, Call):
            for arg in node.args:
                walk(arg)

    walk(expr)
    return found


def calls(expr: Expr) -> list[Call]:
    found: list[Call] = []

    def walk(node: Expr) -> None:
        if isinstance(node, Call):
            found.append(node)
            for arg in node.args:
                walk(arg)
        elif isinstance(node, Unary):
            walk(node.operand)
        elif isinstance(node, Binary):
            walk(node.left)
            walk(node.right)
        elif isinstance(node, In):
            walk(node.item)

    walk(expr)
    return found


def substituted(tree: Expr, by: dict[str, Expr]) -> Expr:
    """``tree`` with each name of ``by`` replaced by its tree (``base`` by the general rule's formula)."""
    if isinstance(tree, Name):
        return by.get(tree.name, tree)
    if isinstance(tree, Unary):
        return Unary(tree.op, substituted(tree.operand, by), tree.column)
    if isinstance(tree, Binary):
        return Binary(tree.op, substituted(tree.left, by), substituted(tree.right, by), tree.column)
    if isinstance(tree, In):
        return In(substituted(tree.item, by), tree.options, tree.negated, tree.column)
    if isinstance(tree, Call):
        return Call(tree.function, tuple(substituted(a, by) for a in tree.args), tree.column)
    return tree
