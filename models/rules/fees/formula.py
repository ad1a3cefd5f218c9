"""A ``kind = "formula"`` fee priced into its :class:`QuoteLine`: the general rule's formula, then its
exceptions in the file's order (the first that holds decides), each value with its article — the line's
formula is the rule with the values in (``5,50 × 38,42 × máx(4,00; 1,00) × (1 − 0,30)``) and its details say,
in the order they were read, every term, table row, asked value (with who set it), fiscal unit and exception.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from models.base.errors import UserError
from models.base.money import format_brl, format_factor, parse_typed, round_cents
from models.rules.fees.inputs import (
    PERIODS,
    Inputs,
    due_text,
    in_formula,
    join_basis,
    period_text,
    unit_value_detail,
    year_for,
)
from models.rules.fees.results import ENERGY_NONE, AskedValue, QuoteLine
from models.rules.formulas.evaluate import EvaluationError, Value, shown
from models.rules.formulas.syntax import Call, Expr, Name, Num, Str
from models.rules.formulas.types import Dim
from models.rules.regimes import Regime
from models.rules.regimes.fee_formulas import DESK_INPUTS, PLACEHOLDER, FeeProgram, Read, program_for
from models.rules.regimes.model import Fee
from models.rules.regimes.model.fees import CALLED, SETTERS, AskedInput
from models.rules.regimes.parse_fees import REFUSAL_PLACEHOLDER

#: how the desk's inputs are named in a message
_DESK_WORDS = {
    "front": ("a frente ocupada (metros)", "front"),
    "depth": ("a profundidade (metros)", "depth"),
    "hitch": ("o engate (metros)", "hitch"),
    "area": ("a área (m²) ou a frente e a profundidade", "area"),
    "days": ("o número de dias", "days"),
    "equipment": ("o equipamento", "equipment"),
    "line": ("o ramo", "line"),
    "venue": ("o imóvel", "venue"),
    "energy": ("a faixa de energia", "energy"),
}


#: the units of a count (days, feira days, events, months, fiscal years): a term in them is written 3, not 3,00
_COUNTED = frozenset(((unit, 1),) for unit in ("dia", "dia_feira", "evento", "mes", "exercicio"))

#: the desk's facts whose being given is their being set on the inputs
_GIVEN = frozenset({"hitch", "days", "equipment", "line", "venue"})

#: the desk's categories: in an exception's condition, one not given is none of the ids the condition names
_CATEGORIES = frozenset({"equipment", "line", "venue", "energy"})


def asked_inputs(regime: Regime) -> dict[str, AskedInput]:
    """Every value the act's formula fees ask for, by name (one name, one meaning across the act)."""
    found: dict[str, AskedInput] = {}
    for fee in regime.fees:
        for item in fee.inputs:
            found.setdefault(item.name, item)
    return found


def period_inputs(regime: Regime) -> list[str]:
    """The periods the act's formula fees count a price in (``feira_days``, ``events``, ``months``,
    ``fiscal_years``), in that order: what the desk asks beside the days."""
    reads: set[str] = set()
    for fee in regime.fees:
        if fee.kind == "formula":
            reads |= program_for(regime, fee).reads
    return [name for name in PERIODS if name in reads]


def bounds_text(regime: Regime, item: AskedInput) -> str:
    """``de 1 a 5 (Lei X, art. 7º)`` — the range the act sets, with its article."""
    return f"{bounds_span(item)} ({regime.cite(item.basis, item.basis_act, item.amended_by)})"


def bounds_span(item: AskedInput) -> str:
    """``de 1 a 5`` — the range the act sets."""
    unit = f" {item.unit}" if item.unit else ""
    if item.minimum is not None and item.maximum is not None:
        span = f"de {_factor(item.minimum)} a {_factor(item.maximum)}{unit}"
    elif item.maximum is not None:
        span = f"até {_factor(item.maximum)}{unit}"
    elif item.minimum is not None:
        span = f"a partir de {_factor(item.minimum)}{unit}"
    else:
        span = "sem limite fixado no ato"
    return span


def checked_asked(
    regime: Regime, values: Mapping[str, Any] | None, declared: Mapping[str, AskedInput] | None = None
) -> dict[str, Decimal]:
    """The values given for the act's asked inputs (``declared``: those of the act's fees, unless given — a fine's),
    each within the bounds the act sets; anything else is one clear ``UserError`` (field ``inputs.NAME``)."""
    if not values:
        return {}
    declared = asked_inputs(regime) if declared is None else declared
    result: dict[str, Decimal] = {}
    for name, raw in values.items():
        item = declared.get(name)
        if item is None:
            options = ", ".join(declared) or "nenhum"
            raise UserError(
                f"'{name}' não é um valor que o regime {regime.id} pede (valores: {options}).", field="inputs"
            )
        if isinstance(raw, float):
            raise TypeError("asked values: Decimal, int or text, never float")
        try:
            number = parse_typed(raw, what=item.label, field=f"inputs.{name}")  # typed the pt-BR way: "1.500"
        except TypeError:
            raise UserError(
                f"{item.label}: {raw!s} não é um número (use, por exemplo, 150,00).", field=f"inputs.{name}"
            ) from None
        low = item.minimum if item.minimum is not None else Decimal(0)
        if number < low or (item.maximum is not None and number > item.maximum):
            raise UserError(
                f"{item.label}: {_factor(number)} fora dos limites do ato — {bounds_text(regime, item)}.",
                field=f"inputs.{name}",
            )
        if number != number.quantize(Decimal(1).scaleb(-item.places)):
            raise UserError(
                f"{item.label}: {_factor(number)} — no máximo {item.places} casas decimais.",
                field=f"inputs.{name}",
            )
        result[name] = number
    return result


def asked_text(regime: Regime, item: AskedInput, given: AskedValue) -> str:
    """A value given for an asked input, said with its unit, article and who gave it: "Valor da licença = 1.000,00
    R$ (LC 324/2025, art. 89) — informado por Marcos Fiscal"."""
    by = f" — informado por {given.set_by}" if given.set_by else ""
    cite = regime.cite(item.basis, item.basis_act, item.amended_by)
    return f"{item.label} = {_factor(given.value)}{_unit(item.unit, regime.currency)} ({cite}){by}"


def _name_kind(program: FeeProgram, regime: Regime, name: str) -> str:
    """What a name of a formula fee is: ``base``, a ``term``, a ``table``, an ``asked`` value, a fiscal ``unit``, an
    ``index`` or a fact of the ``desk``."""
    if name == "base":
        return "base"
    if name in program.terms:
        return "term"
    if name in program.tables:
        return "table"
    if name in program.inputs:
        return "asked"
    if name in regime.units_by_code:
        return "unit"
    if any(index.code == name for index in regime.indexes):
        return "index"
    return "desk"


def _min_max_args(program: FeeProgram, name: str, tree: Expr) -> tuple[tuple[str, bool], ...]:
    """A term that is the greater or the lesser of its arguments: the compiled key of each argument, and whether it
    is a sum or a product (not a plain name or number); none for any other term."""
    if not (isinstance(tree, Call) and tree.function in ("min", "max")):
        return ()
    return tuple(
        (f"term:{name}:arg:{j}", not isinstance(arg, (Name, Num)))
        for j, arg in enumerate(tree.args)
        if f"term:{name}:arg:{j}" in program.compiled
    )


class _Pricing:
    """One evaluation of a formula fee (the :class:`Env` of its compiled closures): the values read, each once,
    and the details in reading order."""

    def __init__(
        self,
        regime: Regime,
        program: FeeProgram,
        inp: Inputs,
        year: int,
        asked: Mapping[str, Decimal],
        asked_by: str | None,
        fee_amount: Callable[[str], QuoteLine],
    ):
        self.regime, self.program, self.inp, self.year = regime, program, inp, year
        self.asked, self.asked_by, self.fee_amount = asked, asked_by, fee_amount
        self.values: dict[str, Value] = {}
        self.texts: dict[str, str] = {}
        self.details: list[str] = []
        self.fee_values: list[str] = []  # the values that are another fee of the act, each said (also in details)
        self.bases: list[str | None] = [program.fee.basis]
        self.given: list[AskedValue] = []
        self.called: dict[tuple[str, str], Decimal] = {}
        #: the row of each table read (None: none holds), found once per quote
        self.rows: dict[str, int | None] = {}
        #: names written as a product when shown: a value in fiscal units (``5,50 × 38,42``)
        self.products: dict[str, str] = {}
        #: the article a measure not given is asked for: an exception's while its condition is read (the depth
        #: a discount needs is asked by the discount's article), a refusal's while its condition is read, else
        #: the fee's
        self.asking_for: str | None = None
        #: a refusal's condition is being read: a category the case does not give leaves it undecided
        self.refusing = False

    # -- the Env of the compiled closures
    def value(self, name: str) -> Value:
        found = self.values.get(name)
        if found is None:
            found, self.texts[name] = self._read(name)
            self.values[name] = found
        return found

    def call(self, function: str, args: list[Value]) -> Value:
        if function == "given":
            return self._given(str(args[0]))
        key = (function, str(args[0]))
        found = self.called.get(key)
        if found is not None:
            return found
        if function == "fee":
            line = self.fee_amount(str(args[0]))
            shown = format_brl(line.amount, currency=self.regime.currency)
            self.details.append(f"{line.label} = {shown} ({line.basis})")
            value = line.amount
        else:  # a fiscal unit in a given year
            year = int(Decimal(str(args[0])))
            value = self.regime.unit_value(function, year, self.inp.overrides)
            self.details.append(self._unit_detail(function, year))
        self.called[key] = value
        return value

    def _unit_detail(self, code: str, year: int) -> str:
        """What a fiscal unit is worth in ``year`` and where that comes from: written once per version of the act
        when the file's value is used (a value from the database is said anew)."""
        if self.inp.overrides:
            return unit_value_detail(self.regime, code, year, self.inp.overrides)
        key = f"unit:{code}:{year}"
        text = self.program.said.get(key)
        if text is None:
            text = self.program.said[key] = unit_value_detail(self.regime, code, year, None)
        return text

    def _cite(self, key: str, basis: str, basis_act: str | None, amended_by: str | None = None) -> str:
        text = self.program.said.get(key)
        if text is None:
            text = self.program.said[key] = self.regime.cite(basis, basis_act, amended_by)
        return text

    # -- names
    def _read(self, name: str) -> tuple[Value, str]:
        program, regime = self.program, self.regime
        kind = program.name_kinds.get(name)
        if kind is None:  # what the name is, found once per version of the act
            kind = program.name_kinds[name] = _name_kind(program, regime, name)
        if kind == "base":  # an exception that reads the general rule, when the rule was set aside unpriced
            base = self.evaluate("formula")
            assert isinstance(base, Decimal)
            return base, _measure(base)
        if kind == "term":
            return self._term(name)
        if kind == "table":
            return self._table(name)
        if kind == "asked":
            return self._asked(name)
        if kind == "unit":
            value = regime.unit_value(name, self.year, self.inp.overrides)
            self.details.append(self._unit_detail(name, self.year))
            return value, _factor(value)
        if kind == "index":
            return self._index(name)
        return self._desk(name)

    def _term(self, name: str) -> tuple[Value, str]:
        term = self.program.terms[name]
        label = term.term.label or name
        conditional = bool(term.term.cited)
        if not conditional:  # its article before those of what it reads
            self.bases.append(term.term.basis)
        if term.tree is None and not conditional:  # a value of the act: said alike in every quote of a year

            def read() -> Read:
                value, text, said, product, unit_detail = self._value_term(name)
                cite = self._cite(f"term:{name}", term.term.basis, term.term.basis_act, term.term.amended_by)
                return value, text, product, unit_detail, f"{label} = {said} ({cite})"

            return self._read_once(("term", name, self.year), name, read)
        aside = ""  # what a minimum or maximum set aside came to (_chosen)
        if term.tree is None:  # a value of the act cited by condition
            value, text, said, product, unit_detail = self._value_term(name)
            self._in_units(name, product, unit_detail)
        else:
            computed = self.evaluate(f"term:{name}")
            assert isinstance(computed, Decimal)
            counted = term.dim.powers in _COUNTED and computed == computed.to_integral()
            value, text = computed, str(int(computed)) if counted else _measure(computed)  # 3 (days), not 3,00
            chosen, aside = self._chosen(name, term.tree, computed) if conditional else ("", "")
            said = f"{self.show(f'term:{name}')}{chosen} = {text}"
        if not conditional:
            cite = self._cite(f"term:{name}", term.term.basis, term.term.basis_act, term.term.amended_by)
        else:  # each article only when its condition holds; none holding, the term is not said
            self.values[name], self.texts[name] = value, text
            bases = [c.basis for j, c in enumerate(term.term.cited) if self.evaluate(f"cited:{name}:{j}")]
            if not bases:
                return value, text
            if len(bases) > 1:  # the article of what was set aside is cited too: what it came to is said
                said += aside
            self.bases.extend(bases)
            joined = "; ".join(bases)
            cite = self._cite(f"term:{name}:{joined}", joined, term.term.basis_act, term.term.amended_by)
        self.details.append(f"{label} = {said} ({cite})")
        return value, text

    def _in_units(self, name: str, product: str | None, unit_detail: str | None) -> None:
        """A value of the act in fiscal units read: what the unit is worth said, the value written as a product."""
        if product is not None:
            assert unit_detail is not None
            self.details.append(unit_detail)
            self.products[name] = product

    def _value_term(self, name: str) -> tuple[Decimal, str, str, str | None, str | None]:
        """A term the act gives a value: its value, its text, what the details say it is, the product it is written
        as and what the fiscal unit is worth (None: not in fiscal units)."""
        term = self.program.terms[name]
        value = term.term.value
        assert value is not None  # the loader asks for value or formula
        product = unit_detail = None
        if term.fiscal is None:
            said, text = f"{_factor(value)}{_unit(term.term.unit, self.regime.currency)}", _factor(value)
        else:
            unit_value = self.regime.unit_value(term.fiscal, self.year, self.inp.overrides)
            unit_detail = self._unit_detail(term.fiscal, self.year)
            said = f"{_factor(value)} {term.term.unit}"
            product = f"{_factor(value)} × {_factor(unit_value)}"
            value, text = value * unit_value, f"({product})"
        return value, text, said, product, unit_detail

    def _chosen(self, name: str, tree: Expr, value: Decimal) -> tuple[str, str]:
        """A term whose articles are cited by condition and that is the greater or the lesser of its arguments: the
        one that gave its value, written out when it is a sum or a product (``máx(3,20 + 0,80; 1,00) = 3,20 +
        0,80 = 4,00``); when a plain value gave it (a minimum that binds), the sums and products set aside, for the
        caller to write out after it when their article is cited too (``máx(0,01 + 0,01; 1,00) = 1,00 (0,01 +
        0,01 = 0,02)``)."""
        args = self.program.min_max.get(name)
        if args is None:  # its arguments' keys, found once per version of the act
            args = self.program.min_max[name] = _min_max_args(self.program, name, tree)
        for key, compound in args:
            if self.evaluate(key) == value:
                if compound:
                    return f" = {self.show(key)}", ""
                break
        aside = "; ".join(f"{self.show(key)} = {_measure(self._decimal(key))}" for key, compound in args if compound)
        return "", f" ({aside})" if aside else ""

    def _decimal(self, key: str) -> Decimal:
        found = self.evaluate(key)
        assert isinstance(found, Decimal)
        return found

    def _row(self, name: str) -> int | None:
        """The index of the table's first row that holds (None: none holds)."""
        if name in self.rows:
            return self.rows[name]
        found = self.rows[name] = self._first_row(name)
        return found

    def _first_row(self, name: str) -> int | None:
        table = self.program.tables[name]
        if table.keyed is not None:  # rows by one desk name's id: looked up
            found = table.keyed[1].get(str(self.value(table.keyed[0])))
            if found is None and table.whens[-1] is None:
                found = len(table.whens) - 1
            return found
        for n, when in enumerate(table.whens):
            if when is None or self.evaluate(f"row:{name}:{n}"):
                return n
        return None

    def _table(self, name: str) -> tuple[Value, str]:
        table = self.program.tables[name]
        index = self._row(name)
        if index is None:
            raise UserError(
                f"{table.table.label}: nenhuma linha da tabela se aplica a estes dados "
                f"({self.regime.cite(table.table.rows[0].basis)}) — confira os dados informados.",
                field="fees",
            )
        self.bases.append(table.table.rows[index].basis)
        return self._read_once(("row", name, index, self.year), name, lambda: self._table_row(name, index))

    def _read_once(self, key: tuple[str | int, ...], name: str, read: Callable[[], Read]) -> tuple[Value, str]:
        """A value of the act (a term's, a table row's) read — worked out once per version of the act and year
        (``key``) when the file's fiscal units are used, anew with values from the database: its value and text;
        what its fiscal unit is worth and its words said."""
        found = None if self.inp.overrides else self.program.values_read.get(key)
        if found is None:
            found = read()
            if not self.inp.overrides:
                self.program.values_read[key] = found
        value, text, product, unit_detail, said = found
        self._in_units(name, product, unit_detail)
        self.details.append(said)
        return value, text

    def _table_row(self, name: str, index: int) -> Read:
        """Row ``index`` of table ``name`` read: its value, its text, the product it is written as and what the
        fiscal unit is worth (None: a table not in fiscal units), and the row's words."""
        table = self.program.tables[name]
        row = table.table.rows[index]
        key = f"row:{name}:{index}"
        said = self.program.said.get(key)  # the row's words: the same in every quote of this version
        if said is None:
            when = table.whens[index]
            case = row.label or (self.symbolic(when) if when is not None else "demais casos")
            cite = self.regime.cite(row.basis, row.basis_act, row.amended_by)
            said = self.program.said[key] = (
                f"{table.table.label}: linha {index + 1} ({case}) → {_factor(row.amount)}"
                f"{_unit(table.table.unit, self.regime.currency)} ({cite})"
            )
        if table.fiscal is None:
            return row.amount, _factor(row.amount), None, None, said
        unit_value = self.regime.unit_value(table.fiscal, self.year, self.inp.overrides)
        product = f"{_factor(row.amount)} × {_factor(unit_value)}"
        return row.amount * unit_value, f"({product})", product, self._unit_detail(table.fiscal, self.year), said

    def _asked(self, name: str) -> tuple[Value, str]:
        item, _dim = self.program.inputs[name]
        why_asked = ""
        if item.fee is not None:  # another fee of the act: priced with the offender's permit, else asked
            try:
                return self._other_fee(item, self.fee_amount(item.fee))
            except UserError as exc:
                why_asked = f" ({exc.message.rstrip('.')})"
        value = self.asked.get(name)
        if value is None:
            who = SETTERS.get(item.set_by, item.set_by)
            raise UserError(
                f'"{self.program.fee.label}" depende de {item.label.lower()}, valor que {who}, '
                f"{bounds_text(self.regime, item)}: informe-o ({name}) antes de calcular{why_asked}.",
                field=f"inputs.{name}",
            )
        self.bases.append(item.basis)
        by = f" — informado por {self.asked_by}" if self.asked_by else ""
        self.details.append(
            f"{item.label} = {_factor(value)}{_unit(item.unit, self.regime.currency)}, "
            f"{bounds_text(self.regime, item)}{by}"
        )
        self.given.append(AskedValue(name, item.label, value, self.asked_by))
        return value, _factor(value)

    def _other_fee(self, item: AskedInput, line: QuoteLine) -> tuple[Value, str]:
        """A value that is another fee of the act, priced by the fee engine: said with its formula and article."""
        self.bases.append(item.basis)
        amount = format_brl(line.amount, currency=self.regime.currency)
        cite = self._cite(f"input:{item.name}", item.basis, item.basis_act, item.amended_by)
        said = f"{item.label} ({cite}) = {line.label}: {line.formula} = {amount} ({line.basis})"
        self.details.append(said)
        self.fee_values.append(said)
        return line.amount, _factor(line.amount)

    def _index(self, code: str) -> tuple[Value, str]:
        index = self.regime.index(code)
        if self.year <= index.base_year:  # no correction yet: a factor of 1, not written (2,50 × 14,00)
            return Decimal(1), ""
        factor = self.inp.index_factors.get(code)
        if factor is None:
            raise UserError(
                f"{self.program.fee.label}: o valor é de {index.base_year} e é corrigido anualmente pelo {code} "
                f"({self.regime.cite(index.basis)}): informe o fator acumulado do {code} de {index.base_year} a "
                f"{self.year}, ou calcule para {index.base_year}.",
                field="index_factor",
            )
        self.bases.append(index.basis)
        self.details.append(
            f"Correção {code} {index.base_year}→{self.year}: fator {_factor(factor)} ({self.regime.cite(index.basis)})"
        )
        return factor, _factor(factor)

    def _given(self, name: str) -> bool:
        """Whether the case gives the desk's fact ``name`` (the area: given, or the front and the depth)."""
        inp = self.inp
        if name == "area":
            return inp.area is not None or (
                inp.front_or_equipment() is not None and inp.depth_or_equipment() is not None
            )
        if name == "front":
            return inp.front_or_equipment() is not None
        if name == "depth":
            return inp.depth_or_equipment() is not None
        if name == "energy":
            return inp.energy != ENERGY_NONE
        if name in _GIVEN:
            return getattr(inp, name) is not None
        if name in PERIODS:
            return inp.periods.get(name) is not None
        return True  # the year, mei, local: always known

    def _desk(self, name: str) -> tuple[Value, str]:
        inp = self.inp
        value: Value | None
        if name == "front":
            value = inp.front_or_equipment()
        elif name == "depth":
            value = inp.depth_or_equipment()
        elif name == "hitch":
            value = inp.hitch if inp.hitch is not None else Decimal(0)
        elif name == "area":
            front, depth = inp.front_or_equipment(), inp.depth_or_equipment()
            value = inp.area if inp.area is not None else (front * depth if front and depth else None)
            if inp.area is None and front and depth:  # the area of the front and the depth: written as they are
                self.products[name] = f"{_measure(front)} × {_measure(depth)}"
        elif name == "days":
            value = Decimal(inp.days) if inp.days is not None else None
        elif name in PERIODS:
            count = inp.periods.get(name)
            value = Decimal(count) if count is not None else None
            if count is not None:  # the count, said in words beside the formula's bare number
                self.details.append(f"Período: {period_text(name, count)}.")
        elif name == "year":
            value = Decimal(self.year)
        elif name in ("mei", "local"):
            flag = inp.mei if name == "mei" else inp.local
            return flag, "sim" if flag else "não"
        elif name == "equipment":
            value = inp.equipment.id if inp.equipment is not None else None
        elif name == "line":
            value = inp.line.id if inp.line is not None else None
        elif name == "energy":
            value = inp.energy if inp.energy != ENERGY_NONE else None
        else:  # venue
            value = inp.venue.id if inp.venue is not None else None
        if value is None and self.refusing and name in _CATEGORIES:
            raise _UndecidedError(name)
        if value is None and self.asking_for is not None and name in _CATEGORIES:
            # an exception's condition on a stall not described: it is not one of the stalls the exception
            # names (a category not given never holds), as a discount for trailers does not reach "a stall"
            return "", ""
        if value is None:
            what, field = _DESK_WORDS[name] if name in _DESK_WORDS else (PERIODS[name][0], name)
            fee = self.program.fee
            cite = self.asking_for or self.regime.cite(fee.basis)
            raise UserError(f"Informe {what} para calcular {fee.label.lower()} ({cite}).", field=field)
        if isinstance(value, str):
            return value, value
        if name in ("days", "year") or name in PERIODS:  # counted, not measured: 2 dias, not 2,00
            return value, str(value)
        return value, _measure(value)

    # -- expressions
    def evaluate(self, key: str) -> Value:
        try:
            return self.program.compiled[key].run(self)
        except EvaluationError as exc:
            raise UserError(
                f"{self.program.fee.label}: {exc.reason} na fórmula ({self.regime.cite(self.program.fee.basis)}).",
                field="fees",
            ) from None

    def show(self, key: str) -> str:
        """The expression ``key`` with the values in (every name it shows was read when it was evaluated)."""
        out: list[str] = []
        unwritten = False  # a factor of 1 not written (an index before its first correction): its × goes too
        for part in self.program.compiled[key].parts:
            if isinstance(part, str):
                if unwritten and part.startswith(" × "):
                    part = part[3:]
                unwritten = False
                out.append(part)
            elif part.call is not None:
                out.append(self._call_text(part.call))
            elif part.name in self.products:
                product = self.products[part.name]
                out.append(f"({product})" if part.tight else product)
            else:
                if part.name not in self.texts:
                    self.value(part.name)
                text = self.texts[part.name]
                if not text and out and out[-1].endswith(" × "):
                    out[-1] = out[-1][:-3]
                elif not text:
                    unwritten = True
                out.append(text)
        return "".join(out)

    def _call_text(self, node: Call) -> str:
        arg = node.args[0]
        key = (node.function, str(arg.value) if isinstance(arg, (Str, Num)) else "")
        value = self.called.get(key)
        if value is None:
            computed = self.call(node.function, [arg.value if isinstance(arg, (Str, Num)) else ""])
            assert isinstance(computed, Decimal)
            value = computed
        return _measure(value) if node.function == "fee" else _factor(value)

    def symbolic(self, tree: Expr) -> str:
        """A condition or a formula as the act says it, for the details (the names stay names: the rule, not
        the case): written once per version of the act."""
        key = f"symbolic:{id(tree)}"
        text = self.program.said.get(key)
        if text is None:
            text = self.program.said[key] = shown(tree, lambda node: node.name, None, format_factor)
        return text


@functools.lru_cache(maxsize=4096)
def _factor_text(text: str) -> str:
    return format_factor(Decimal(text))


@functools.lru_cache(maxsize=4096)
def _measure_text(text: str) -> str:
    return in_formula(Decimal(text))


def _factor(value: Decimal) -> str:
    """``format_factor``, kept by the value as written (the same few values are written in every quote)."""
    return _factor_text(str(value))


def _measure(value: Decimal) -> str:
    """``in_formula``, kept by the value as written."""
    return _measure_text(str(value))


def _unit(unit: str, currency: str = "R$") -> str:
    """A value's unit after it: money in the act's own (``Cr$/dia`` in an act in cruzeiros)."""
    return f" {unit.replace('R$', currency)}" if unit else ""


class _UndecidedError(Exception):
    """A refusal's condition reads a category the case does not give: the refusal does not refuse."""


#: the units a count is said in, with its words: "3 dias", "1 dia de feira"
_COUNT_WORDS = {
    Dim.of("dia"): ("dia", "dias"),
    **{DESK_INPUTS[name]: words[1:] for name, words in PERIODS.items()},
}


def _count_words(program: FeeProgram, key: str) -> tuple[str, str] | None:
    """The words of a count said at ``key`` (``dia``, ``dias``), or None for a value that is not a count: found
    once per version of the act."""
    found = program.count_words.get(key, False)
    if found is False:
        said = program.said_types.get(key)
        found = program.count_words[key] = _COUNT_WORDS.get(said) if isinstance(said, Dim) else None
    return found  # type: ignore[return-value]


def _said(pricing: _Pricing, key: str, text: str, value: Value) -> str:
    """A value a text says (a refusal's reason, the line's label, what the line says): a count with its word
    (``3 dias``), a value of the act in fiscal units as the act writes it (``60 UFESP``), a measure as the desk
    writes it, a category by its name."""
    if isinstance(value, bool):
        return "sim" if value else "não"
    name = text.strip()
    if isinstance(value, Decimal):
        # said alike for the same value as written (and the same row of a table in fiscal units): kept
        program = pricing.program
        memo = (key, str(value), pricing._row(name) if name in program.tables else None)
        found = program.said_values.get(memo)
        if found is None:
            found = program.said_values[memo] = _said_number(pricing, key, name, value)
        return found
    inp = pricing.inp
    if name == "energy":
        tier = next((t for f in pricing.regime.fees for t in f.energy_tiers() if t.id == value), None)
        return tier.label if tier is not None else str(value)
    chosen = inp.equipment if name == "equipment" else inp.line if name == "line" else inp.venue
    if name in ("equipment", "line", "venue") and chosen is not None and chosen.id == value:
        return chosen.label
    return str(value)


def _said_number(pricing: _Pricing, key: str, name: str, value: Decimal) -> str:
    """A number a text says: a count with its word, a value of the act in fiscal units as the act writes it, a
    measure as the desk writes it."""
    words = _count_words(pricing.program, key)
    if words is not None and value == value.to_integral():
        return f"{int(value)} {words[0] if value == 1 else words[1]}"
    fiscal = _fiscal_value(pricing, name)
    return fiscal if fiscal is not None else _measure(value)


def _fiscal_value(pricing: _Pricing, name: str) -> str | None:
    """A term or table of the act in fiscal units, as the act writes it (``60 UFESP``); None for any other."""
    program = pricing.program
    if name not in program.tables and name not in program.terms:
        return None
    if name in program.tables and program.tables[name].fiscal is not None:
        row = pricing._row(name)
        if row is not None:
            return f"{_factor(program.tables[name].table.rows[row].amount)} {program.tables[name].fiscal}"
    term = program.terms.get(name)
    if term is not None and term.fiscal is not None and term.term.value is not None:
        return f"{_factor(term.term.value)} {term.fiscal}"
    return None


@functools.lru_cache(maxsize=1024)
def _split(template: str) -> tuple[str, ...]:
    return tuple(REFUSAL_PLACEHOLDER.split(template))


def _said_text(pricing: _Pricing, template: str, key: str) -> str:
    """``template`` with each ``{expression}`` replaced by its value (compiled as ``KEY:J``), said."""
    parts = list(_split(template))  # text, expression, text, …
    for j in range(1, len(parts), 2):
        said_key = f"{key}:{j // 2}"
        parts[j] = _said(pricing, said_key, parts[j], pricing.evaluate(said_key))
    return "".join(parts)


def _says(pricing: _Pricing) -> None:
    """What the line says (``[[fees.says]]``), each whose condition holds, with its article: one about other ids
    of a category the case gives (``venue in ['estadio'] and …``) is not read."""
    program = pricing.program
    every = program.fee.says
    for n in _plan(pricing, "says", program.says_keys, len(every), given_only=True):
        says = every[n]
        if says.when is not None and not pricing.evaluate(f"says:{n}"):
            continue
        text = _said_text(pricing, says.text, f"says:{n}")
        if says.basis is not None:
            text += f" — {pricing._cite(f'says:{n}', says.basis, says.basis_act, says.amended_by)}"
            pricing.bases.append(says.basis)
        pricing.details.append(text)


def _chosen(inp: Inputs) -> tuple[str | None, ...]:
    """The id the case gives for each desk category, in ``_CATEGORY_ORDER`` (None: not given)."""
    return (
        inp.equipment.id if inp.equipment is not None else None,
        inp.line.id if inp.line is not None else None,
        inp.venue.id if inp.venue is not None else None,
        inp.energy if inp.energy != ENERGY_NONE else None,
    )


_CATEGORY_ORDER = {"equipment": 0, "line": 1, "venue": 2, "energy": 3}


def _plan(
    pricing: _Pricing,
    what: str,
    keys: tuple[tuple[str, frozenset[str]] | None, ...],
    count: int,
    *,
    given_only: bool,
) -> tuple[int, ...]:
    """The refusals or sentences (``what``) to read for the case, in the file's order: those whose condition
    starts with an id of a category (``keys``) are left out for another id — and, unless ``given_only``, with the
    category not given. Worked out once per version of the act and choice of the categories."""
    chosen = _chosen(pricing.inp)
    plan_key = (what, chosen)
    plans = pricing.program.plans
    found = plans.get(plan_key)
    if found is None:
        kept = []
        for n in range(count):
            key = keys[n] if n < len(keys) else None
            if key is not None:
                picked = chosen[_CATEGORY_ORDER[key[0]]]
                if (picked is not None or not given_only) and picked not in key[1]:
                    continue
            kept.append(n)
        found = plans[plan_key] = tuple(kept)
    return found


def _refuse(pricing: _Pricing) -> None:
    """The act's refusals (``[[fees.refusals]]``), in the file's order, before the general rule: the first whose
    condition holds stops the price with its reason and article."""
    program = pricing.program
    every = program.fee.refusals
    # a refusal for another line, tier, venue…, or the category not given, is not read: undecided
    for n in _plan(pricing, "refusals", program.refusal_keys, len(every), given_only=False):
        refusal = every[n]
        cite = pricing._cite(f"refusal:{n}", refusal.basis, refusal.basis_act, refusal.amended_by)
        pricing.asking_for, pricing.refusing = cite, True
        try:
            holds = bool(pricing.evaluate(f"refusal:{n}"))
        except _UndecidedError:
            holds = False
        finally:
            pricing.asking_for, pricing.refusing = None, False
        if not holds:
            continue
        reason = _said_text(pricing, refusal.reason, f"refusal:{n}")
        raise UserError(f"{reason} ({cite}).", field=refusal.field or "fees")


def _due(program: FeeProgram) -> str | None:
    """When the fee is due, as the act says it: written once per version of the act."""
    said = program.said.get("due")
    if said is None:
        said = program.said["due"] = due_text(program.fee) or ""
    return said or None


def _general_rule(pricing: _Pricing) -> UserError | None:
    """Price the general rule first (its reading comes first in the details). When it cannot be priced — a
    fiscal unit without a value, a measure not given — the reason is kept and nothing it read is shown: an
    exception that holds sets the rule aside and prices without it (a value before the table an amending act
    added, asked for), and only when none does is the reason given (Catala's base and exceptions)."""
    details, given, fee_values = len(pricing.details), len(pricing.given), len(pricing.fee_values)
    # what was read before (a refusal's condition), restored when the rule cannot be priced: each name is read
    # once and kept, so what the rule read is what was added after these many
    read: tuple[dict[Any, Any], ...] = (pricing.values, pricing.texts, pricing.products, pricing.called)
    kept = tuple(len(found) for found in read)
    try:
        base = pricing.evaluate("formula")
    except UserError as unpriced:
        del pricing.details[details:], pricing.given[given:], pricing.fee_values[fee_values:]
        for found, count in zip(read, kept, strict=True):
            for name in list(found)[count:]:
                del found[name]
        return unpriced
    assert isinstance(base, Decimal)
    pricing.values["base"], pricing.texts["base"] = base, _measure(base)
    return None


def _holds(pricing: _Pricing, index: int, unpriced: UserError | None, cite: str) -> bool:
    """Whether exception ``index`` holds. With the general rule unpriced, what a condition lacks is not asked
    before what the rule lacks: the rule's reason is given first, as when the rule is priced first; else a
    measure the condition reads and was not given is asked for by the exception's article (``cite``)."""
    pricing.asking_for = cite
    try:
        return bool(pricing.evaluate(f"when:{index}"))
    except UserError:
        if unpriced is not None:
            raise unpriced from None
        raise
    finally:
        pricing.asking_for = None


def _quietly(pricing: _Pricing, key: str) -> bool | None:
    """A condition's value, or None when it reads what the case does not give (it decides nothing then)."""
    try:
        return bool(pricing.evaluate(key))
    except UserError:
        return None


def _why_not(pricing: _Pricing) -> list[str]:
    """The case claims an exception (its ``claimed`` holds) and none applied: the reason of each requirement that
    failed, with the exception's article — or that none of the claimed exceptions reaches this stall."""
    program, regime = pricing.program, pricing.regime
    claimed = [
        (n, exc.exception)
        for n, exc in enumerate(program.exceptions)
        if f"claimed:{n}" in program.compiled and _quietly(pricing, f"claimed:{n}")
    ]
    if not claimed:
        return []
    details: list[str] = []
    reached = False
    for n, exception in claimed:
        if f"reaches:{n}" in program.compiled and not _quietly(pricing, f"reaches:{n}"):
            continue
        reached = True
        reasons = [
            PLACEHOLDER.sub(lambda m: pricing.texts.get(m[1]) or m[0], requirement.reason)
            for j, requirement in enumerate(exception.unmet)
            if _quietly(pricing, f"unmet:{n}:{j}") is False
        ]
        if reasons:
            cite = pricing._cite(f"article:{n + 1}", exception.basis, None)
            text = f"{CALLED[exception.called][0]}: {'; '.join(reasons)} ({cite})"
            if text not in details:
                details.append(text)
    if reached:
        return details
    refused, none, plural = CALLED[claimed[0][1].called]
    citation = regime.cite("; ".join(dict.fromkeys(exception.basis for _n, exception in claimed)))
    inp = pricing.inp
    stall = inp.equipment.label if inp.equipment is not None else inp.line.label if inp.line is not None else None
    if stall is None:
        return [
            f"{refused}: {plural} deste preço dependem do equipamento ou do ramo, que não foi informado ({citation})"
        ]
    return [f"{refused}: {none} deste preço alcança {stall} ({citation})"]


def _basis(regime: Regime, program: FeeProgram, bases: tuple[str | None, ...]) -> str:
    """The line's articles, each once in the order read, cited: written once per version of the act and articles."""
    found = program.bases_said.get(bases)
    if found is not None:
        return found
    fee = program.fee
    kept: tuple[str | None, ...] | list[str | None] = bases
    if fee.amended_by is None and any(b is not None and b.startswith(f"{fee.basis},") for b in bases):
        # a paragraph or item of the fee's own article is cited: it says where in that article the figure is
        # (art. 12, § 1º — not "art. 12; art. 12, § 1º"); an article an amending act worded stays cited
        kept = [b for b in bases if b != fee.basis]
    joined = "; ".join(dict.fromkeys(b for b in kept if b))
    found = program.bases_said[bases] = regime.cite(joined, None) if joined else join_basis(regime)
    return found


def formula_line(
    regime: Regime,
    fee: Fee,
    inp: Inputs,
    *,
    asked: Mapping[str, Decimal],
    asked_by: str | None,
    fee_amount: Callable[[str], QuoteLine],
) -> QuoteLine:
    """The line of a formula fee: its rule, then the first exception whose condition holds (in the file's
    order), rounded once to the cent (``ROUND_HALF_UP``)."""
    program = program_for(regime, fee)
    if program.errors:  # a regime built in memory without the checker
        key, error = program.errors[0]
        raise UserError(f"{fee.label}: fórmula inválida em {key}, coluna {error.column}: {error.reason}", field="fees")
    year = year_for(fee, inp.year)
    pricing = _Pricing(regime, program, inp, year, asked, asked_by, fee_amount)
    _refuse(pricing)
    _says(pricing)  # what the line says of the facts, with its articles, before the rule's values
    unpriced = _general_rule(pricing)
    found = pricing.values.get("base")
    base = found if isinstance(found, Decimal) else None
    named = fee.label if fee.line_label is None else _said_text(pricing, fee.line_label, "line_label")
    amount, shown_key, label = base, "formula", named
    applied: str | None = None
    for n, exc in enumerate(program.exceptions, start=1):
        cite = pricing._cite(f"exception:{n}", exc.exception.basis, exc.exception.basis_act, exc.exception.amended_by)
        if not _holds(pricing, n - 1, unpriced, pricing._cite(f"article:{n}", exc.exception.basis, None)):
            said = program.said.get(f"not:{n}")
            if said is None:
                said = program.said[f"not:{n}"] = f"Exceção {n} — {exc.exception.label} ({cite}): não se aplica."
            pricing.details.append(said)
            continue
        value = pricing.evaluate(f"exception:{n - 1}")
        assert isinstance(value, Decimal)
        rule = (
            f"{pricing.show('formula')} = {_measure(base)}"
            if base is not None
            else f"{pricing.symbolic(program.formula)}, não calculada"
        )
        pricing.details.append(
            f"Exceção {n} — {exc.exception.label} ({cite}): aplica-se; em vez da regra geral "
            f"({rule}), {pricing.symbolic(exc.formula)}."
        )
        pricing.bases.append(exc.exception.basis)
        amount, shown_key, applied = value, f"shown:{n - 1}", exc.exception.id
        label = named if fee.line_label is not None else f"{named} — {exc.exception.label}"
        break
    if amount is None:  # no exception set the general rule aside: what it lacks is asked for
        assert unpriced is not None
        raise unpriced
    if applied is None:
        pricing.details.extend(_why_not(pricing))
    if amount < 0:
        raise UserError(f"{fee.label}: a fórmula deu valor negativo ({_measure(amount)}).", field="fees")
    if fee.basis_act:
        pricing.details.append(f"Com base em: {fee.basis_act}")
    return QuoteLine(
        label=label,
        amount=round_cents(amount),
        formula=pricing.show(shown_key),
        basis=_basis(regime, program, tuple(pricing.bases)),
        fee=fee.id,
        kind=fee.line_kind or "charge",
        year=year,
        due=_due(program),
        details=tuple(pricing.details),
        asked=tuple(pricing.given),
        fee_values=tuple(pricing.fee_values),
        exception=applied,
    )
