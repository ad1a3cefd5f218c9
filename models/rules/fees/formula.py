"""A ``kind = "formula"`` fee priced into its :class:`QuoteLine`: the general rule's formula, then its
exceptions in the file's order (the first that holds decides), each value with its article — the line's
formula is the rule with the values in (``5,50 × 38,42 × máx(4,00; 1,00) × (1 − 0,30)``) and its details say,
in the order they were read, every term, table row, asked value (with who set it), fiscal unit and exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from models.base.errors import UserError
from models.base.money import format_brl, format_factor, round_cents, to_decimal
from models.rules.fees.inputs import Inputs, due_text, in_formula, join_basis, unit_value_detail, year_for
from models.rules.fees.results import AskedValue, QuoteLine
from models.rules.formulas.evaluate import EvaluationError, Value, evaluate, shown
from models.rules.formulas.syntax import Binary, Call, Expr, In, Name, Num, Unary
from models.rules.regimes import Regime
from models.rules.regimes.fee_formulas import FeeProgram, program_for
from models.rules.regimes.model.fees import SETTERS, AskedInput, Fee

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
}


def asked_inputs(regime: Regime) -> dict[str, AskedInput]:
    """Every value the act's formula fees ask for, by name (one name, one meaning across the act)."""
    found: dict[str, AskedInput] = {}
    for fee in regime.fees:
        for item in fee.inputs:
            found.setdefault(item.name, item)
    return found


def bounds_text(regime: Regime, item: AskedInput) -> str:
    """``de 1 a 5 (Lei X, art. 7º)`` — the range the act sets, with its article."""
    unit = f" {item.unit}" if item.unit else ""
    if item.minimum is not None and item.maximum is not None:
        span = f"de {format_factor(item.minimum)} a {format_factor(item.maximum)}{unit}"
    elif item.maximum is not None:
        span = f"até {format_factor(item.maximum)}{unit}"
    elif item.minimum is not None:
        span = f"a partir de {format_factor(item.minimum)}{unit}"
    else:
        span = "sem limite fixado no ato"
    return f"{span} ({regime.cite(item.basis, item.basis_act)})"


def checked_asked(regime: Regime, values: Mapping[str, Any] | None) -> dict[str, Decimal]:
    """The values given for the act's asked inputs, each within the bounds the act sets; anything else is one
    clear ``UserError`` (field ``inputs.NAME``)."""
    declared = asked_inputs(regime)
    result: dict[str, Decimal] = {}
    for name, raw in (values or {}).items():
        item = declared.get(name)
        if item is None:
            options = ", ".join(declared) or "nenhum"
            raise UserError(
                f"'{name}' não é um valor que o regime {regime.id} pede (valores: {options}).", field="inputs"
            )
        try:
            number = to_decimal(raw)
        except (UserError, TypeError):
            raise UserError(
                f"{item.label}: {raw!s} não é um número (use, por exemplo, 150,00).", field=f"inputs.{name}"
            ) from None
        low = item.minimum if item.minimum is not None else Decimal(0)
        if number < low or (item.maximum is not None and number > item.maximum):
            raise UserError(
                f"{item.label}: {format_factor(number)} fora dos limites do ato — {bounds_text(regime, item)}.",
                field=f"inputs.{name}",
            )
        if number != number.quantize(Decimal(1).scaleb(-item.places)):
            raise UserError(
                f"{item.label}: {format_factor(number)} — no máximo {item.places} casas decimais.",
                field=f"inputs.{name}",
            )
        result[name] = number
    return result


class _Pricing:
    """One evaluation of a formula fee: the values read (each once), and the details in reading order."""

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
        self.bases: list[str | None] = [program.fee.basis]
        self.given: list[AskedValue] = []
        self.called: dict[tuple[str, str], Decimal] = {}
        #: names written as a product when shown: a value in fiscal units (``5,50 × 38,42``)
        self.products: dict[str, Expr] = {}

    # -- names
    def value(self, node: Name) -> Value:
        name = node.name
        if name not in self.values:
            self.values[name], self.texts[name] = self._read(name)
        return self.values[name]

    def text(self, node: Name) -> str:
        if node.name not in self.texts:
            self.value(node)
        return self.texts[node.name]

    def _read(self, name: str) -> tuple[Value, str]:
        program, regime = self.program, self.regime
        if name in program.terms:
            return self._term(name)
        if name in program.tables:
            return self._table(name)
        if name in program.inputs:
            return self._asked(name)
        if name in regime.units_by_code:
            value = regime.unit_value(name, self.year, self.inp.overrides)
            self.details.append(unit_value_detail(regime, name, self.year, self.inp.overrides))
            return value, format_factor(value)
        if any(index.code == name for index in regime.indexes):
            return self._index(name)
        return self._desk(name)

    def _term(self, name: str) -> tuple[Value, str]:
        term = self.program.terms[name]
        label = term.term.label or name
        cite = self.regime.cite(term.term.basis, term.term.basis_act)
        self.bases.append(term.term.basis)
        if term.tree is None:
            assert term.term.value is not None  # the loader asks for value or formula
            value = term.term.value
            if term.fiscal is None:
                self.details.append(f"{label} = {format_factor(value)}{_unit(term.term.unit)} ({cite})")
                return value, format_factor(value)
            unit_value = self.regime.unit_value(term.fiscal, self.year, self.inp.overrides)
            self.details.append(unit_value_detail(self.regime, term.fiscal, self.year, self.inp.overrides))
            self.details.append(f"{label} = {format_factor(value)} {term.term.unit} ({cite})")
            self.products[name] = _product(value, unit_value)
            return value * unit_value, f"({format_factor(value)} × {format_factor(unit_value)})"
        computed = self.evaluate(term.tree)
        assert isinstance(computed, Decimal)
        self.details.append(f"{label} = {self.show(term.tree)} = {in_formula(computed)} ({cite})")
        return computed, in_formula(computed)

    def _table(self, name: str) -> tuple[Value, str]:
        table = self.program.tables[name]
        for n, (row, when) in enumerate(zip(table.table.rows, table.whens, strict=True), start=1):
            if when is not None and not self.evaluate(when):
                continue
            cite = self.regime.cite(row.basis, row.basis_act)
            self.bases.append(row.basis)
            case = row.label or (self.symbolic(when) if when is not None else "demais casos")
            value = row.value
            text = format_factor(value)
            if table.fiscal is not None:
                unit_value = self.regime.unit_value(table.fiscal, self.year, self.inp.overrides)
                self.details.append(unit_value_detail(self.regime, table.fiscal, self.year, self.inp.overrides))
                value, text = value * unit_value, f"({format_factor(row.value)} × {format_factor(unit_value)})"
                self.products[name] = _product(row.value, unit_value)
            self.details.append(
                f"{table.table.label}: linha {n} ({case}) → "
                f"{format_factor(row.value)}{_unit(table.table.unit)} ({cite})"
            )
            return value, text
        raise UserError(
            f"{table.table.label}: nenhuma linha da tabela se aplica a estes dados "
            f"({self.regime.cite(table.table.rows[0].basis)}) — confira os dados informados.",
            field="fees",
        )

    def _asked(self, name: str) -> tuple[Value, str]:
        item, _dim = self.program.inputs[name]
        value = self.asked.get(name)
        if value is None:
            who = SETTERS.get(item.set_by, item.set_by)
            raise UserError(
                f'"{self.program.fee.label}" depende de {item.label.lower()}, valor que {who} fixa '
                f"{bounds_text(self.regime, item)}: informe-o ({name}) antes de calcular.",
                field=f"inputs.{name}",
            )
        self.bases.append(item.basis)
        by = f" — informado por {self.asked_by}" if self.asked_by else ""
        self.details.append(
            f"{item.label} = {format_factor(value)}{_unit(item.unit)}, {bounds_text(self.regime, item)}{by}"
        )
        self.given.append(AskedValue(name, item.label, value, self.asked_by))
        return value, format_factor(value)

    def _index(self, code: str) -> tuple[Value, str]:
        index = self.regime.index(code)
        if self.year <= index.base_year:
            return Decimal(1), "1"
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
            f"Correção {code} {index.base_year}→{self.year}: fator {format_factor(factor)} "
            f"({self.regime.cite(index.basis)})"
        )
        return factor, format_factor(factor)

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
        elif name == "days":
            value = Decimal(inp.days) if inp.days is not None else None
        elif name == "year":
            value = Decimal(self.year)
        elif name in ("mei", "local"):
            flag = inp.mei if name == "mei" else inp.local
            return flag, "sim" if flag else "não"
        elif name == "equipment":
            value = inp.equipment.id if inp.equipment is not None else None
        elif name == "line":
            value = inp.line.id if inp.line is not None else None
        else:  # venue
            value = inp.venue.id if inp.venue is not None else None
        if value is None:
            what, field = _DESK_WORDS[name]
            fee = self.program.fee
            raise UserError(
                f"Informe {what} para calcular {fee.label.lower()} ({self.regime.cite(fee.basis)}).", field=field
            )
        if isinstance(value, str):
            return value, value
        if name in ("days", "year"):  # counted, not measured: 2 dias, not 2,00
            return value, str(value)
        return value, in_formula(value)

    # -- calls and expressions
    def call(self, node: Call, args: list[Value]) -> Value:
        key = (node.function, str(args[0]))
        if key in self.called:
            return self.called[key]
        if node.function == "fee":
            line = self.fee_amount(str(args[0]))
            self.details.append(f"{line.label} = {format_brl(line.amount)} ({line.basis})")
            value = line.amount
        else:  # a fiscal unit in a given year
            year = int(Decimal(str(args[0])))
            value = self.regime.unit_value(node.function, year, self.inp.overrides)
            self.details.append(unit_value_detail(self.regime, node.function, year, self.inp.overrides))
        self.called[key] = value
        return value

    def call_text(self, node: Call) -> str | None:
        if node.function in ("min", "max", "round"):
            return None
        value = self.evaluate(node)
        assert isinstance(value, Decimal)
        return in_formula(value) if node.function == "fee" else format_factor(value)

    def evaluate(self, tree: Expr) -> Value:
        try:
            return evaluate(tree, self.value, self.call)
        except EvaluationError as exc:
            raise UserError(
                f"{self.program.fee.label}: {exc.reason} na fórmula ({self.regime.cite(self.program.fee.basis)}).",
                field="fees",
            ) from None

    def show(self, tree: Expr) -> str:
        self.evaluate(tree)  # every name read (and its products known) before it is written
        return shown(_substituted(tree, self.products), self.text, self.call_text, format_factor)

    def symbolic(self, tree: Expr) -> str:
        """A condition or a formula as the act says it, for the details (the names stay names: the rule, not
        the case)."""
        return shown(tree, lambda node: node.name, None, format_factor)


def _product(value: Decimal, unit_value: Decimal) -> Expr:
    return Binary("*", Num(value, None, 0), Num(unit_value, None, 0), 0)


def _unit(unit: str) -> str:
    return f" {unit}" if unit else ""


def _substituted(tree: Expr, by: Mapping[str, Expr]) -> Expr:
    """``tree`` with each name of ``by`` replaced by its tree (``base`` by the general rule's formula, a value
    in fiscal units by ``5,50 × 38,42``), so that it is written with the parentheses it needs."""
    if not by:
        return tree
    if isinstance(tree, Name):
        return by.get(tree.name, tree)
    if isinstance(tree, Unary):
        return Unary(tree.op, _substituted(tree.operand, by), tree.column)
    if isinstance(tree, Binary):
        return Binary(tree.op, _substituted(tree.left, by), _substituted(tree.right, by), tree.column)
    if isinstance(tree, In):
        return In(_substituted(tree.item, by), tree.options, tree.negated, tree.column)
    if isinstance(tree, Call):
        return Call(tree.function, tuple(_substituted(a, by) for a in tree.args), tree.column)
    return tree


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
    base = pricing.evaluate(program.formula)
    assert isinstance(base, Decimal)
    amount, tree, label = base, program.formula, fee.label
    pricing.values["base"], pricing.texts["base"] = base, in_formula(base)
    for n, exc in enumerate(program.exceptions, start=1):
        cite = regime.cite(exc.exception.basis, exc.exception.basis_act)
        if not pricing.evaluate(exc.when):
            pricing.details.append(f"Exceção {n} — {exc.exception.label} ({cite}): não se aplica.")
            continue
        value = pricing.evaluate(exc.formula)
        assert isinstance(value, Decimal)
        pricing.details.append(
            f"Exceção {n} — {exc.exception.label} ({cite}): aplica-se; em vez da regra geral "
            f"({pricing.show(program.formula)} = {in_formula(base)}), {pricing.symbolic(exc.formula)}."
        )
        pricing.bases.append(exc.exception.basis)
        amount, tree = value, _substituted(exc.formula, {"base": program.formula})
        label = f"{fee.label} — {exc.exception.label}"
        break
    if amount < 0:
        raise UserError(f"{fee.label}: a fórmula deu valor negativo ({in_formula(amount)}).", field="fees")
    if fee.basis_act:
        pricing.details.append(f"Com base em: {fee.basis_act}")
    return QuoteLine(
        label=label,
        amount=round_cents(amount),
        formula=pricing.show(tree),
        basis=join_basis(regime, *pricing.bases),
        fee=fee.id,
        year=year,
        due=due_text(fee),
        details=tuple(pricing.details),
        asked=tuple(pricing.given),
    )
