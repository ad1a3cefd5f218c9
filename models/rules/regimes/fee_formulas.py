"""A formula fee checked against its act and compiled (:class:`FeeProgram`): every name its formulas read is
a desk input, a term, a decision table, an asked input, a fiscal unit or an index of the act; every unit fits
(``front + area`` — m + m² — is refused); the fee's formula and each exception's come out in R$; terms and
fees do not refer to themselves in a circle. The checker reports each mistake at its expression's key with
its column; the engine prices from the compiled program, compiled once per version of the act
(:func:`program_for`, keyed by the regime's id and the SHA-256 of its text).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from models.rules.formulas.compiled import Compiled, compile_expr
from models.rules.formulas.syntax import (
    Binary,
    Call,
    Expr,
    FormulaError,
    In,
    Name,
    Num,
    Str,
    names,
    parse,
    substituted,
)
from models.rules.formulas.types import BOOL, MONEY, NUMBER, Category, Dim, Type, check, parse_unit, type_text
from models.rules.regimes.model import Fee
from models.rules.regimes.model.fees import AskedInput, DecisionTable, FeeException, FormulaTerm
from models.rules.regimes.parse_fees import REFUSAL_PLACEHOLDER
from models.rules.regimes.reader import near

if TYPE_CHECKING:
    from models.rules.regimes.regime import Regime

#: the desk's inputs a formula may read, with their types (categories get the act's ids when compiled)
DESK_INPUTS: dict[str, Type] = {
    "front": Dim.of("m"),
    "depth": Dim.of("m"),
    "hitch": Dim.of("m"),
    "area": Dim.of("m2"),
    "days": Dim.of("dia"),
    # the periods a price is counted in, as the act counts them (issue 29 §2): feira days (the days the feira
    # operates in the period charged), events, months and fiscal years (exercícios) — each its own unit, so a
    # term in R$/dia_feira can only be multiplied by feira days, never by calendar days
    "feira_days": Dim.of("dia_feira"),
    "events": Dim.of("evento"),
    "months": Dim.of("mes"),
    "fiscal_years": Dim.of("exercicio"),
    "year": NUMBER,
    "mei": BOOL,
    "local": BOOL,
}
#: the desk's inputs that choose from one of the act's lists
DESK_CATEGORIES = {"equipment": "equipamento", "line": "ramo", "venue": "imóvel", "energy": "faixa de energia"}


@dataclass(frozen=True)
class TermProgram:
    term: FormulaTerm
    tree: Expr | None  # None: a number of the act (``value``)
    dim: Dim
    fiscal: str | None  # the fiscal unit its value is counted in


@dataclass(frozen=True)
class TableProgram:
    table: DecisionTable
    whens: tuple[Expr | None, ...]  # one per row; None: every other case
    dim: Dim
    fiscal: str | None
    #: a table whose every row but a last "every other case" is ``NAME == 'id'`` over one desk name (a price by
    #: venue, by line): that name and the first row of each id, looked up rather than tried row by row
    keyed: tuple[str, dict[str, int]] | None = None


def _keyed(whens: tuple[Expr | None, ...]) -> tuple[str, dict[str, int]] | None:
    """The lookup of a table whose rows each compare one desk name with an id (first hit kept)."""
    name: str | None = None
    rows: dict[str, int] = {}
    for n, when in enumerate(whens):
        if when is None and n == len(whens) - 1:
            break
        if not (
            isinstance(when, Binary)
            and when.op == "=="
            and isinstance(when.left, Name)
            and isinstance(when.right, Str)
            and when.left.name in (name or when.left.name,)
        ):
            return None
        name = when.left.name
        rows.setdefault(when.right.value, n)
    return (name, rows) if name is not None else None


@dataclass(frozen=True)
class ExceptionProgram:
    exception: FeeException
    when: Expr
    formula: Expr


#: a value of the act read: its value, its text, the product it is written as and what its fiscal unit is worth
#: (None: not in fiscal units), and its words in the details
Read = tuple[Decimal, str, str | None, str | None, str]


@dataclass(frozen=True)
class FeeProgram:
    """A formula fee, checked and parsed: what the engine evaluates."""

    fee: Fee
    formula: Expr
    terms: dict[str, TermProgram]
    tables: dict[str, TableProgram]
    exceptions: tuple[ExceptionProgram, ...]
    inputs: dict[str, tuple[AskedInput, Dim]]
    #: the desk's inputs any of its expressions reads (``front``, ``line``…): what the quote must be given
    reads: frozenset[str] = frozenset()
    #: the other fees of the act it adds up (``fee('licenca')``)
    fees: tuple[str, ...] = ()
    #: each expression compiled to closures and a text template (none when the fee has a mistake): ``formula``,
    #: ``term:NAME``, ``row:TABLE:N``, ``when:N``, ``exception:N``, ``shown:N`` (the exception with ``base``
    #: written out as the rule), ``refusal:N`` and ``refusal:N:J`` (the J-th value its reason says),
    #: ``line_label:J`` (the J-th value the line's label says), ``says:N`` and ``says:N:J``
    compiled: dict[str, Compiled] = field(default_factory=dict, compare=False)
    #: texts the engine writes alike for every quote of this version (a term's detail, an exception's rule),
    #: kept once written
    said: dict[str, str] = field(default_factory=dict, compare=False)
    errors: tuple[tuple[str, FormulaError], ...] = field(default=(), compare=False)
    #: the type of each value said in a text (a count in days is said "3 dias"), by its compiled key
    said_types: dict[str, Type] = field(default_factory=dict, compare=False)
    #: per refusal, the desk's category and the ids its condition starts with (``line == 'pastel' and …``,
    #: ``venue in ['a', 'b'] and …``): a refusal for other ids, or with the category not given, is not read at all
    refusal_keys: tuple[tuple[str, frozenset[str]] | None, ...] = field(default=(), compare=False)
    #: the same for each sentence the line says (``[[fees.says]]``): one for other ids of a category given is not
    #: read (its condition cannot hold)
    says_keys: tuple[tuple[str, frozenset[str]] | None, ...] = field(default=(), compare=False)
    #: the refusals and sentences read for each choice of the desk's categories (by those keys), worked out at the
    #: first quote of that choice
    plans: dict[tuple[object, ...], tuple[int, ...]] = field(default_factory=dict, compare=False)
    #: the words of a count said in a text (``dia``, ``dias``), by its compiled key (None: not a count)
    count_words: dict[str, tuple[str, str] | None] = field(default_factory=dict, compare=False)
    #: what each name read is (``term``, ``table``, ``desk``…), found at its first reading
    name_kinds: dict[str, str] = field(default_factory=dict, compare=False)
    #: a value of the act read in a year with the file's fiscal units (none from the database): a table's row by
    #: ("row", table, row, year), a term the act gives a value by ("term", name, year) — the same in every quote
    values_read: dict[tuple[str | int, ...], Read] = field(default_factory=dict, compare=False)
    #: the line's articles cited, by the articles it read (in reading order)
    bases_said: dict[tuple[str | None, ...], str] = field(default_factory=dict, compare=False)
    #: a number a text says (``3 dias``, ``60 UFESP``), by its compiled key, its value as written and the row of
    #: the table in fiscal units it is (None: not one)
    said_values: dict[tuple[str, str, int | None], str] = field(default_factory=dict, compare=False)
    #: a term that is the greater or the lesser of its arguments: each argument's compiled key and whether it is a
    #: sum or a product, by the term's name (none: another term)
    min_max: dict[str, tuple[tuple[str, bool], ...]] = field(default_factory=dict, compare=False)


def fee_expressions(fee: Fee) -> Iterator[tuple[str, str]]:
    """(key inside the fee, text) of every expression of a formula fee."""
    if fee.formula is not None:
        yield "formula", fee.formula
    for i, term in enumerate(fee.terms):
        if term.formula is not None:
            yield f"terms[{i}].formula", term.formula
        for j, cited in enumerate(term.cited):
            yield f"terms[{i}].cited[{j}].when", cited.when
    for i, table in enumerate(fee.tables):
        for j in range(len(table.rows)):
            when = table.when_of(j)  # a table of choices: the option chosen (``venue == 'recinto'``)
            if when is not None:
                yield f"tables[{i}].rows[{j}].when", when
    for i, exc in enumerate(fee.exceptions):
        yield f"exceptions[{i}].when", exc.when
        yield f"exceptions[{i}].formula", exc.formula
        if exc.claimed is not None:
            yield f"exceptions[{i}].claimed", exc.claimed
        if exc.reaches is not None:
            yield f"exceptions[{i}].reaches", exc.reaches
        for j, requirement in enumerate(exc.unmet):
            yield f"exceptions[{i}].unmet[{j}].when", requirement.when
    for j, said in enumerate(REFUSAL_PLACEHOLDER.findall(fee.line_label or "")):
        yield f"line_label[{j}]", said
    for i, refusal in enumerate(fee.refusals):
        yield f"refusals[{i}].when", refusal.when
        for j, said in enumerate(REFUSAL_PLACEHOLDER.findall(refusal.reason)):
            yield f"refusals[{i}].reason[{j}]", said
    for i, says in enumerate(fee.says):
        if says.when is not None:
            yield f"says[{i}].when", says.when
        for j, said in enumerate(REFUSAL_PLACEHOLDER.findall(says.text)):
            yield f"says[{i}].text[{j}]", said


def rule_names(fee: Fee) -> set[str]:
    """The names a formula fee's general rule reads, itself or through its terms (not the exceptions')."""
    terms = {term.name: term for term in fee.terms}
    seen: set[str] = set()
    todo = [fee.formula or "0"]
    while todo:
        try:
            tree = parse(todo.pop())
        except FormulaError:  # reported at its key
            continue
        for node in names(tree):
            if node.name in seen:
                continue
            seen.add(node.name)
            term = terms.get(node.name)
            if term is not None and term.formula is not None:
                todo.append(term.formula)
    return seen


def fee_value_mistakes(regime: Regime, fee: Fee) -> list[tuple[str, str]]:
    """What is wrong with the value a fee declares as its own, left to the Administration (``[[fees.inputs]]
    fee_value = true``), each at its key inside the fee: it is set by the Administration, in money (R$ or a fiscal
    unit, per a period or not), one per fee, and read by the general rule (it *is* the fee's value)."""
    found: list[tuple[str, str]] = []
    declared: str | None = None
    rule = rule_names(fee) if any(item.fee_value for item in fee.inputs) else set()
    for j, item in enumerate(fee.inputs):
        if not item.fee_value:
            continue
        if declared is not None:
            found.append((f"inputs[{j}].fee_value", f"um preço tem um só valor próprio (já declarado: {declared!r})"))
            continue
        declared = item.name
        if item.set_by != "administration":
            found.append(
                (
                    f"inputs[{j}].set_by",
                    "o valor do próprio preço (fee_value = true) é o que a Administração fixa: use set_by = "
                    '"administration"',
                )
            )
        money = item.unit.split("/")[0].strip()
        if money != "R$" and money not in regime.units_by_code:
            found.append(
                (
                    f"inputs[{j}].unit",
                    'o valor do próprio preço (fee_value = true) é dinheiro: unit = "R$" (ou "R$/dia", '
                    '"R$/exercicio"…) ou uma unidade fiscal de [[units]]',
                )
            )
        if item.name not in rule:
            found.append(
                (
                    f"inputs[{j}].fee_value",
                    f"o valor do próprio preço ({item.name!r}) precisa estar na regra geral (formula) do preço",
                )
            )
    return found


def compile_fee(regime: Regime, fee: Fee) -> FeeProgram:
    """``fee`` (``kind = "formula"``) checked against ``regime``. Each expression with a mistake is recorded in
    ``errors`` as (its key inside the fee, the :class:`FormulaError`); the others are still checked."""
    fiscal_units = frozenset(regime.units_by_code)
    indexes = {index.code for index in regime.indexes}
    fee_ids = {f.id for f in regime.fees}
    errors: list[tuple[str, FormulaError]] = []
    desk: dict[str, Type] = dict(DESK_INPUTS)
    desk["equipment"] = Category("equipamento", frozenset(e.id for e in regime.equipment_kinds))
    desk["line"] = Category("ramo", frozenset(line.id for line in regime.lines))
    desk["venue"] = Category("imóvel", frozenset(regime.ids("venue")))
    desk["energy"] = Category("faixa de energia", frozenset(t.id for f in regime.fees for t in f.energy_tiers()))
    trees: dict[str, Expr] = {}
    for key, text in fee_expressions(fee):
        try:
            trees[key] = parse(text)
        except FormulaError as exc:  # the loader reported it already; recorded so the fee is not priced
            errors.append((key, exc))

    term_keys = {term.name: f"terms[{i}]" for i, term in enumerate(fee.terms)}
    terms = {term.name: term for term in fee.terms}
    # a table with columns is read by each column's name, as a table of its own
    tables = {read.name: (i, read) for i, table in enumerate(fee.tables) for read in table.read_as()}
    asked: dict[str, tuple[AskedInput, Dim]] = {}
    for i, item in enumerate(fee.inputs):
        try:
            asked[item.name] = (item, parse_unit(item.unit, fiscal_units)[0])
        except ValueError as exc:
            errors.append((f"inputs[{i}].unit", FormulaError(str(exc), 1)))
    term_programs: dict[str, TermProgram] = {}
    table_programs: dict[str, TableProgram] = {}
    visiting: list[str] = []
    reads: set[str] = set()
    referenced: list[str] = []
    known = sorted({*desk, *terms, *tables, *asked, *fiscal_units, *indexes, "base"})

    failed: set[str] = set()

    def term_type(name: str, column: int) -> Dim:
        if name in term_programs:
            return term_programs[name].dim
        if name in failed:
            raise _ReportedError(name, column)
        term = terms[name]
        if name in visiting:
            circle = " → ".join([*visiting[visiting.index(name) :], name])
            raise FormulaError(f"referência circular entre termos: {circle}", column)
        key = f"{term_keys[name]}.formula" if term.formula is not None else f"{term_keys[name]}.unit"
        visiting.append(name)
        try:
            if term.formula is None:
                dim, fiscal = parse_unit(term.unit, fiscal_units)
                term_programs[name] = TermProgram(term, None, dim, fiscal)
                return dim
            tree = trees.get(key)
            if tree is None:  # its syntax error is recorded already
                raise _ReportedError(name, column)
            kind = typed(tree, in_exception=False)
            if not isinstance(kind, Dim):
                raise FormulaError(f"o termo {name!r} deve ser um valor ou uma medida, não {type_text(kind)}", 1)
            term_programs[name] = TermProgram(term, tree, kind, None)
            return kind
        except (FormulaError, ValueError) as exc:
            if not isinstance(exc, _ReportedError):
                errors.append((key, exc if isinstance(exc, FormulaError) else FormulaError(str(exc), 1)))
            failed.add(name)
            raise _ReportedError(name, column) from None
        finally:
            visiting.pop()

    def table_type(name: str, column: int) -> Dim:
        if name in table_programs:
            return table_programs[name].dim
        if name in failed:
            raise _ReportedError(name, column)
        i, table = tables[name]
        try:
            dim, fiscal = parse_unit(table.unit, fiscal_units)
        except ValueError as exc:
            errors.append((f"tables[{i}].unit", FormulaError(str(exc), 1)))
            failed.add(name)
            raise _ReportedError(name, column) from None
        whens = tuple(
            None if table.when_of(j) is None else trees.get(f"tables[{i}].rows[{j}].when")
            for j in range(len(table.rows))
        )  # a column of a table of choices has a row for each of its options, in order
        keyed = _keyed(whens)
        if keyed is not None and keyed[0] not in DESK_CATEGORIES:  # a term or an asked value: tried in order
            keyed = None
        table_programs[name] = TableProgram(table, whens, dim, fiscal, keyed)
        return dim

    def typed(tree: Expr, *, in_exception: bool) -> Type:
        def name_type(node: Name) -> Type:
            name = node.name
            if name in desk:
                reads.add(name)
                return desk[name]
            if name == "base":
                if not in_exception:
                    raise FormulaError("'base' (o valor da regra geral) só existe nas exceções", node.column)
                return MONEY
            if name in terms:
                return term_type(name, node.column)
            if name in tables:
                return table_type(name, node.column)
            if name in asked:
                return asked[name][1]
            if name in fiscal_units:
                return MONEY
            if name in indexes:
                return NUMBER
            guess = near(name, known)
            hint = f" — quis dizer {guess!r}?" if guess else ""
            raise FormulaError(f"nome desconhecido {name!r}{hint}", node.column)

        def call_type(node: Call, args: list[Type]) -> Type:
            if node.function == "fee":
                if len(node.args) != 1 or not isinstance(node.args[0], Str):
                    raise FormulaError("fee() pede o id de um preço do ato entre aspas: fee('licenca')", node.column)
                ident = node.args[0].value
                if ident == fee.id:
                    raise FormulaError(f"o preço {ident!r} não pode somar a si mesmo", node.args[0].column)
                if ident not in fee_ids:
                    guess = near(ident, fee_ids)
                    hint = f" — quis dizer {guess!r}?" if guess else ""
                    raise FormulaError(f"preço {ident!r} não existe neste regime{hint}", node.args[0].column)
                referenced.append(ident)
                return MONEY
            if node.function == "given":
                arg = node.args[0] if len(node.args) == 1 else None
                if not (isinstance(arg, Name) and arg.name in desk):
                    raise FormulaError("given() pede um dado do balcão: given(front), given(line)", node.column)
                return BOOL
            if node.function in fiscal_units:
                arg = node.args[0] if len(node.args) == 1 else None
                if not (isinstance(arg, Num) and arg.unit is None and arg.value == arg.value.to_integral()):
                    raise FormulaError(f"{node.function}(ANO) pede o ano, como {node.function}(2026)", node.column)
                return MONEY
            raise FormulaError(
                f"função {node.function!r} desconhecida (use min, max, round, fee, given, ou uma unidade fiscal com o "
                "ano)",
                node.column,
            )

        return check(tree, name_type, call_type)

    def expect(key: str, want: Type, what: str, *, in_exception: bool = False) -> None:
        tree = trees.get(key)
        if tree is None:
            return
        try:
            kind = typed(tree, in_exception=in_exception)
        except _ReportedError:
            return
        except FormulaError as exc:
            errors.append((key, exc))
            return
        if kind != want:
            errors.append((key, FormulaError(f"{what} deve dar {type_text(want)}, dá {type_text(kind)}", 1)))

    expect("formula", MONEY, "a fórmula do preço")
    for i, term in enumerate(fee.terms):
        try:
            term_type(term.name, 1)
        except FormulaError:
            pass  # recorded at the term's key
        for j in range(len(term.cited)):
            expect(f"terms[{i}].cited[{j}].when", BOOL, "a condição de citar o artigo")
    for i, table in enumerate(fee.tables):
        for read in table.read_as():
            try:
                table_type(read.name, 1)
            except FormulaError:
                pass  # recorded at the table's key
        for j in range(len(table.rows)):
            if table.when_of(j) is not None:
                expect(f"tables[{i}].rows[{j}].when", BOOL, "a condição da linha")
    exceptions: list[ExceptionProgram] = []
    for i, exception in enumerate(fee.exceptions):
        expect(f"exceptions[{i}].when", BOOL, "a condição da exceção", in_exception=True)
        expect(f"exceptions[{i}].formula", MONEY, "a fórmula da exceção", in_exception=True)
        for key in ("claimed", "reaches", *(f"unmet[{j}].when" for j in range(len(exception.unmet)))):
            if f"exceptions[{i}].{key}" in trees:
                expect(f"exceptions[{i}].{key}", BOOL, "a condição")
        for j, requirement in enumerate(exception.unmet):
            for placeholder in PLACEHOLDER.findall(requirement.reason):
                if placeholder not in (*desk, *terms, *tables, *asked):
                    errors.append(
                        (f"exceptions[{i}].unmet[{j}].reason", FormulaError(f"nome desconhecido {placeholder!r}", 1))
                    )
        when, formula = trees.get(f"exceptions[{i}].when"), trees.get(f"exceptions[{i}].formula")
        if when is not None and formula is not None:
            exceptions.append(ExceptionProgram(exception, when, formula))
    said_keys = [f"line_label[{j}]" for j in range(len(REFUSAL_PLACEHOLDER.findall(fee.line_label or "")))]
    for i, refusal in enumerate(fee.refusals):
        expect(f"refusals[{i}].when", BOOL, "a condição da recusa")
        said_keys += [f"refusals[{i}].reason[{j}]" for j in range(len(REFUSAL_PLACEHOLDER.findall(refusal.reason)))]
    for i, says in enumerate(fee.says):
        if says.when is not None:
            expect(f"says[{i}].when", BOOL, "a condição do que a linha diz")
        said_keys += [f"says[{i}].text[{j}]" for j in range(len(REFUSAL_PLACEHOLDER.findall(says.text)))]
    said_types: dict[str, Type] = {}
    for key in said_keys:  # a value said in a text: any type
        if key in trees:
            try:
                said_types[key] = typed(trees[key], in_exception=False)
            except _ReportedError:
                pass
            except FormulaError as exc:
                errors.append((key, exc))
    compiled: dict[str, Compiled] = {}
    if not errors:
        formula_tree = trees["formula"]
        compiled["formula"] = compile_expr(formula_tree)
        for name, term_program in term_programs.items():
            if term_program.tree is not None:
                compiled[f"term:{name}"] = compile_expr(term_program.tree)
                tree = term_program.tree
                if term_program.term.cited and isinstance(tree, Call) and tree.function in ("min", "max"):
                    for j, arg in enumerate(tree.args):  # the one that gives the value, shown
                        compiled[f"term:{name}:arg:{j}"] = compile_expr(arg)
            for j in range(len(term_program.term.cited)):
                compiled[f"cited:{name}:{j}"] = compile_expr(trees[f"{term_keys[name]}.cited[{j}].when"])
        for name, table_program in table_programs.items():
            for j, when_tree in enumerate(table_program.whens):
                if when_tree is not None:
                    compiled[f"row:{name}:{j}"] = compile_expr(when_tree)
        for i, exception_program in enumerate(exceptions):
            compiled[f"when:{i}"] = compile_expr(exception_program.when)
            compiled[f"exception:{i}"] = compile_expr(exception_program.formula)
            compiled[f"shown:{i}"] = compile_expr(substituted(exception_program.formula, {"base": formula_tree}))
        for i in range(len(fee.exceptions)):
            for key in ("claimed", "reaches"):
                if f"exceptions[{i}].{key}" in trees:
                    compiled[f"{key}:{i}"] = compile_expr(trees[f"exceptions[{i}].{key}"])
            for j in range(len(fee.exceptions[i].unmet)):
                compiled[f"unmet:{i}:{j}"] = compile_expr(trees[f"exceptions[{i}].unmet[{j}].when"])
        for j in range(len(REFUSAL_PLACEHOLDER.findall(fee.line_label or ""))):
            compiled[f"line_label:{j}"] = compile_expr(trees[f"line_label[{j}]"])
        for i, refusal in enumerate(fee.refusals):
            compiled[f"refusal:{i}"] = compile_expr(trees[f"refusals[{i}].when"])
            for j in range(len(REFUSAL_PLACEHOLDER.findall(refusal.reason))):
                compiled[f"refusal:{i}:{j}"] = compile_expr(trees[f"refusals[{i}].reason[{j}]"])
        for i, says in enumerate(fee.says):
            if says.when is not None:
                compiled[f"says:{i}"] = compile_expr(trees[f"says[{i}].when"])
            for j in range(len(REFUSAL_PLACEHOLDER.findall(says.text))):
                compiled[f"says:{i}:{j}"] = compile_expr(trees[f"says[{i}].text[{j}]"])
    used = {n.name for tree in trees.values() for n in names(tree)}
    for i, item in enumerate(fee.inputs):
        if item.name not in used:
            errors.append((f"inputs[{i}].name", FormulaError(f"valor {item.name!r} declarado e não usado", 1)))
    return FeeProgram(
        fee=fee,
        formula=trees.get("formula", Num(Decimal(0), None, 1)),
        terms=term_programs,
        tables=table_programs,
        exceptions=tuple(exceptions),
        inputs=asked,
        reads=frozenset(reads),
        fees=tuple(dict.fromkeys(referenced)),
        errors=tuple(errors),
        compiled=compiled,
        said_types={_said_key(key): kind for key, kind in said_types.items()},
        refusal_keys=tuple(_category_key(trees.get(f"refusals[{i}].when")) for i in range(len(fee.refusals))),
        says_keys=tuple(_category_key(trees.get(f"says[{i}].when")) for i in range(len(fee.says))),
    )


def _category_key(tree: Expr | None) -> tuple[str, frozenset[str]] | None:
    """``(name, ids)`` when ``tree`` is ``NAME == 'id'`` or ``NAME in ['a', 'b']`` over a desk category, or starts
    with it (``and``): the condition cannot hold for another id."""
    while isinstance(tree, Binary) and tree.op == "and":
        tree = tree.left
    if (
        isinstance(tree, Binary)
        and tree.op == "=="
        and isinstance(tree.left, Name)
        and tree.left.name in DESK_CATEGORIES
        and isinstance(tree.right, Str)
    ):
        return tree.left.name, frozenset((tree.right.value,))
    if (
        isinstance(tree, In)
        and not tree.negated
        and isinstance(tree.item, Name)
        and tree.item.name in DESK_CATEGORIES
        and all(isinstance(option, Str) for option in tree.options)
    ):
        return tree.item.name, frozenset(str(option.value) for option in tree.options)
    return None


def _said_key(key: str) -> str:
    """``says[0].text[1]`` → ``says:0:1``: a value said in a text, by its compiled key."""
    return re.sub(r"\.?(?:reason|text)?\[(\d+)\]", r":\1", key).replace("refusals:", "refusal:")


class _ReportedError(FormulaError):
    """A name whose own mistake is recorded already: the expressions that read it are not blamed for it."""

    def __init__(self, name: str, column: int):
        super().__init__(f"{name!r} tem erro (veja o próprio item)", column)


def fee_circles(programs: dict[str, FeeProgram]) -> list[list[str]]:
    """The circles of ``fee('…')`` references among the act's formula fees (each once)."""
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(fee_id: str, path: list[str]) -> None:
        if fee_id in path:
            circle = [*path[path.index(fee_id) :], fee_id]
            if set(circle) not in [set(c) for c in circles]:
                circles.append(circle)
            return
        if fee_id in done or fee_id not in programs:
            return
        for other in programs[fee_id].fees:
            visit(other, [*path, fee_id])
        done.add(fee_id)

    for fee_id in programs:
        visit(fee_id, [])
    return circles


# --------------------------------------------------------------------------- compiled once per version

#: a value named in a requirement's reason: ``{depth}``
PLACEHOLDER = re.compile(r"\{(\w+)\}")

_PROGRAMS: dict[tuple[str, str, str], FeeProgram] = {}
_LOCK = threading.Lock()


def program_for(regime: Regime, fee: Fee) -> FeeProgram:
    """The compiled program of a formula fee of ``regime``, compiled once per version of the act: keyed by the
    regime's id, the SHA-256 of its text (a regime built in memory, without one, by the fee's identity) and
    the fee's id."""
    version = regime.sha256 or f"object-{id(fee)}"
    key = (regime.id, version, fee.id)
    program = _PROGRAMS.get(key)
    if program is None or (not regime.sha256 and program.fee is not fee):
        program = compile_fee(regime, fee)
        with _LOCK:
            _PROGRAMS[key] = program
    return program


def compiled_count() -> int:
    """How many fee programs are compiled (the bench and the tests check that a version compiles once)."""
    return len(_PROGRAMS)
