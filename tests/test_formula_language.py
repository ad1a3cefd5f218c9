"""The rule language (issue 29 §1): its grammar, read back and forth; refusal of anything outside it; Decimal
arithmetic, exact; units checked before anything is priced."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.formulas.evaluate import EvaluationError, evaluate, shown
from models.rules.formulas.syntax import (
    MAX_DEPTH,
    MAX_LENGTH,
    Binary,
    Bool,
    Call,
    FormulaError,
    In,
    Name,
    Num,
    Str,
    Unary,
    parse,
    source,
)
from models.rules.formulas.types import BOOL, MONEY, NUMBER, Category, Dim, check, parse_unit


def bare(tree):
    """The tree without its columns (two readings of one formula at other columns are the same formula)."""
    if isinstance(tree, tuple):
        return tuple(bare(t) for t in tree)
    if is_dataclass(tree):
        return (type(tree).__name__, *(bare(getattr(tree, f.name)) for f in fields(tree) if f.name != "column"))
    return tree


# --------------------------------------------------------------------------- trees of the grammar

names = st.sampled_from(["front", "depth", "area", "ci", "taxa_setor", "nota", "x1", "UFESP"])
numbers = st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False, allow_infinity=False).map(
    lambda d: Decimal(str(d))
)
units = st.sampled_from([None, None, "m", "m2", "dia", "dia_feira", "mes", "evento"])
leaves = st.one_of(
    st.builds(lambda v, u: Num(v, u, 0), numbers, units),
    st.builds(lambda n: Name(n, 0), names),
    st.builds(lambda v: Bool(v, 0), st.booleans()),
    st.builds(lambda s: Str(s, 0), st.sampled_from(["trailer", "barraca", "hortifruti", "a b"])),
)


def _extend(children):
    ops = st.sampled_from(["+", "-", "*", "/", "<", "<=", ">", ">=", "==", "!=", "and", "or"])
    return st.one_of(
        st.builds(lambda op, a, b: Binary(op, a, b, 0), ops, children, children),
        st.builds(lambda op, a: Unary(op, a, 0), st.sampled_from(["-", "not"]), children),
        st.builds(
            lambda f, args: Call(f, tuple(args), 0),
            st.sampled_from(["min", "max", "round", "fee"]),
            st.lists(children, min_size=1, max_size=3),
        ),
        st.builds(
            lambda item, opts, neg: In(item, tuple(Str(o, 0) for o in opts), neg, 0),
            children,
            st.lists(st.sampled_from(["trailer", "reboque", "pastel"]), min_size=1, max_size=3),
            st.booleans(),
        ),
    )


trees = st.recursive(leaves, _extend, max_leaves=12)


@given(trees)
def test_every_tree_is_written_and_read_back_as_itself(tree):
    text = source(tree)
    assert bare(parse(text)) == bare(tree), text


@given(st.text(max_size=60))
def test_any_text_is_either_a_formula_or_refused_with_a_column(text):
    try:
        tree = parse(text)
    except FormulaError as exc:
        assert 1 <= exc.column <= len(text) + 1
        assert exc.reason
    else:
        assert bare(parse(source(tree))) == bare(tree)


@pytest.mark.parametrize(
    "text, column",
    [
        ("__import__('os').system('ls')", 17),  # no attribute access
        ("front ** 2", 8),  # no power
        ("a; b", 2),
        ("lambda: 1", 7),
        ("x if y else z", 3),
        ("[1, 2][0]", 1),
        ("a.b", 2),
        ("f'{x}'", 2),
        ("5,50 * x", 2),
        ("front + ", 9),
        ("(front", 7),
        ("a < b < c", 7),
        ("2m", 1),
        ("", 1),
        ("`x`", 1),
        ("a = 1", 3),
        ("x @ y", 3),
        ("1e9", 1),
        ("m * 2", 1),  # a unit alone is not a value
    ],
)
def test_anything_outside_the_grammar_is_refused_at_its_column(text, column):
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert caught.value.column == column, caught.value


def test_a_formula_too_long_or_too_deep_is_refused_not_recursed_into():
    with pytest.raises(FormulaError, match="longa demais"):
        parse("1 + " * (MAX_LENGTH // 4) + "1")
    with pytest.raises(FormulaError, match="aninhada demais"):
        parse("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1))
    with pytest.raises(FormulaError, match="aninhada demais"):
        parse("-" * (MAX_DEPTH + 1) + "1")
    assert parse("(" * (MAX_DEPTH - 1) + "1" + ")" * (MAX_DEPTH - 1)) == Num(Decimal(1), None, MAX_DEPTH)


# --------------------------------------------------------------------------- Decimal, exact


def _value(text, **values):
    return evaluate(parse(text), lambda node: values[node.name])


@given(numbers, numbers, numbers)
def test_arithmetic_is_decimal_and_exact(a, b, c):
    assert _value("a + b * c", a=a, b=b, c=c) == a + b * c
    assert _value("(a - b) * c", a=a, b=b, c=c) == (a - b) * c
    assert _value("max(a, b, c) - min(a, b, c)", a=a, b=b, c=c) == max(a, b, c) - min(a, b, c)
    assert isinstance(_value("a * 0.1", a=a), Decimal)
    # 0.1 × 3 is 0.3 exactly (a float would give 0.30000000000000004)
    assert _value("0.1 * 3") == Decimal("0.3")


def test_round_is_to_the_cent_half_up_as_the_acts_round():
    # Dec. 4.794/2026, art. 12: 3,25 × R$ 38,42 = R$ 124,865 → R$ 124,87 (half to even would give 124,86)
    assert _value("round(3.25 * 38.42)") == Decimal("124.87")
    assert _value("round(2.5, 0)") == Decimal("3")
    assert _value("round(0.125, 2)") == Decimal("0.13")


def test_division_by_zero_is_said_not_raised_as_a_python_error():
    with pytest.raises(EvaluationError, match="divisão por zero"):
        _value("a / b", a=Decimal(1), b=Decimal(0))


def test_and_reads_its_right_side_only_when_the_left_does_not_decide():
    read = []

    def value(node):
        read.append(node.name)
        return {"mei": False, "depth": Decimal(3)}[node.name]

    assert evaluate(parse("mei and depth <= 3 m"), value) is False
    assert read == ["mei"]


def test_a_formula_is_written_with_its_values_in_pt_br():
    tree = parse("ci * UFESP * max(front + hitch, 1.00 m) * (1 - 0.30)")
    values = {"ci": "5,50", "UFESP": "38,42", "front": "4,00", "hitch": "0,50"}
    text = shown(tree, lambda n: values[n.name], None, lambda d: str(d).replace(".", ","))
    assert text == "5,50 × 38,42 × máx(4,00 + 0,50; 1,00) × (1 − 0,30)"


# --------------------------------------------------------------------------- units


def _type(text, **types):
    def name_type(node):
        if node.name not in types:
            raise FormulaError(f"nome desconhecido {node.name!r}", node.column)
        return types[node.name]

    return check(parse(text), name_type)


M, M2, DAY = Dim.of("m"), Dim.of("m2"), Dim.of("dia")


def test_units_are_checked_before_anything_is_priced():
    per_m2, _ = parse_unit("R$/m2")
    assert _type("taxa * front * depth", taxa=per_m2, front=M, depth=M) == MONEY
    assert _type("taxa * area", taxa=per_m2, area=M2) == MONEY
    assert _type("max(front + hitch, 1.00 m)", front=M, hitch=M) == M
    assert _type("mei and depth <= 3 m", mei=BOOL, depth=M) is BOOL
    assert _type("days * 2", days=DAY) == DAY
    with pytest.raises(FormulaError, match=r"incompatíveis em '\+': m e m²") as caught:
        _type("front + area", front=M, area=M2)
    assert caught.value.column == 7
    with pytest.raises(FormulaError, match="incompatíveis"):
        _type("max(front, 1.00)", front=M)
    with pytest.raises(FormulaError, match="esperada uma condição"):
        _type("front and mei", front=M, mei=BOOL)
    with pytest.raises(FormulaError, match="nome desconhecido 'fronte'"):
        _type("fronte * 2")


def test_a_category_is_compared_only_with_its_own_ids():
    kinds = Category("equipamento", frozenset({"trailer", "barraca"}))
    assert _type("equipment in ['trailer', 'barraca']", equipment=kinds) is BOOL
    with pytest.raises(FormulaError, match="quis dizer 'trailer'") as caught:
        _type("equipment in ['trailer', 'trailr']", equipment=kinds)
    assert caught.value.column == 26
    with pytest.raises(FormulaError, match="incompatíveis"):
        _type("equipment == 3", equipment=kinds)


def test_units_of_a_term_as_written_in_the_file():
    assert parse_unit("") == (NUMBER, None)
    assert parse_unit("R$/m2") == (MONEY / M2, None)
    assert parse_unit("UFESP/m", frozenset({"UFESP"})) == (MONEY / M, "UFESP")
    assert parse_unit("R$/dia") == (MONEY / DAY, None)
    assert parse_unit("UFM/mes", frozenset({"UFM"})) == (MONEY / Dim.of("mes"), "UFM")  # Chapadão do Sul
    assert parse_unit("meses") == (Dim.of("mes"), None)
    with pytest.raises(ValueError, match="não declarada"):
        parse_unit("UFM", frozenset({"UFESP"}))
    with pytest.raises(ValueError, match="não reconhecida"):
        parse_unit("reais por metro")


@given(year=st.integers(min_value=1000, max_value=2100), op=st.sampled_from(["<", "<=", "==", ">=", ">", "!="]))
def test_a_year_compared_is_written_as_a_year(year, op):
    """São Lourenço do Oeste's exception "year < 2011" reads so on the regime sheet, never "2.011"."""
    from models.base.money import format_factor

    text = shown(parse(f"year {op} {year}"), lambda node: node.name, None, format_factor)
    assert text.startswith("year ") and text.endswith(f" {year}")
    assert shown(parse(f"{year} {op} year"), lambda node: node.name, None, format_factor).startswith(f"{year} ")


_WORDS = {
    "R$": "R$", "BRL": "R$", "m": "m", "ml": "m", "m2": "m2", "m²": "m2", "dia": "dia", "dias": "dia",
    "dia_feira": "dia_feira", "dias_feira": "dia_feira", "mes": "mes", "meses": "mes", "evento": "evento",
    "eventos": "evento",
}  # fmt: skip


@given(top=st.sampled_from(sorted(_WORDS)), bottom=st.sampled_from(sorted(_WORDS)), spaces=st.booleans())
def test_every_unit_word_is_read_whole_whatever_it_begins_with(top, bottom, spaces):
    """ "mes" is a month, never "m" followed by "es"; each word of the format, over each other, as written."""
    text = f"{top} / {bottom}" if spaces else f"{top}/{bottom}"
    assert parse_unit(text) == (Dim.of(_WORDS[top]) / Dim.of(_WORDS[bottom]), None)


# --------------------------------------------------------------------------- compiled once, the same values

arithmetic = st.recursive(
    st.one_of(st.builds(lambda v: Num(v, None, 0), numbers), st.builds(lambda n: Name(n, 0), st.sampled_from("abc"))),
    lambda children: st.one_of(
        st.builds(lambda op, a, b: Binary(op, a, b, 0), st.sampled_from(["+", "-", "*", "/"]), children, children),
        st.builds(lambda a: Unary("-", a, 0), children),
        st.builds(
            lambda f, args: Call(f, tuple(args), 0),
            st.sampled_from(["min", "max"]),
            st.lists(children, min_size=2, max_size=3),
        ),
        st.builds(lambda a: Call("round", (a,), 0), children),
    ),
    max_leaves=10,
)


class _Env:
    def __init__(self, values):
        self.values = values

    def value(self, name):
        return self.values[name]

    def call(self, function, args):  # pragma: no cover - no other call in these trees
        raise AssertionError(function)


@given(arithmetic, numbers, numbers, numbers)
def test_the_compiled_closures_give_what_the_tree_gives(tree, a, b, c):
    from models.rules.formulas.compiled import compile_expr

    values = {"a": a, "b": b, "c": c}
    compiled = compile_expr(tree)
    try:
        expected = evaluate(tree, lambda node: values[node.name])
    except EvaluationError:
        with pytest.raises(EvaluationError):
            compiled.run(_Env(values))
        return
    assert compiled.run(_Env(values)) == expected
    text = "".join(p if isinstance(p, str) else str(values[p.name]) for p in compiled.parts)
    assert text == shown(
        tree,
        lambda node: str(values[node.name]),
        None,
        lambda d: __import__("models.base.money", fromlist=["x"]).format_factor(d),
    )


@given(trees, st.sampled_from(list(";@$`{}:?&|^%#\\~")), st.integers(min_value=0))
def test_a_character_outside_the_grammar_anywhere_outside_quotes_is_refused(tree, char, where):
    text = source(tree)
    outside = [i for i in range(len(text) + 1) if text[:i].count("'") % 2 == 0 and text[:i].count('"') % 2 == 0]
    at = outside[where % len(outside)]
    with pytest.raises(FormulaError) as caught:
        parse(text[:at] + char + text[at:])
    assert caught.value.column <= at + 1
