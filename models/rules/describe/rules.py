"""A fee's rule in the words a lawyer reads, written from its compiled formula (issue 29 §6): the general rule
("Preço = R$ 2,50 × correção do INPC × área (m²)"), what each of its values is, each table row, each value the
act leaves to someone, then the exceptions in the order they are tried — each with its article.

A fee of the kinds that came before the rule language is said through its formula
(:mod:`models.rules.regimes.legacy_fees`), so every fee of every act is read the same way.
"""

from __future__ import annotations

from decimal import Decimal

from models.base.money import format_factor
from models.rules.describe.text import Fact, cap, cite, join_words, lower_first
from models.rules.describe.words import PER
from models.rules.fees.formula import bounds_span
from models.rules.formulas.evaluate import SHOWN_FUNCTIONS, SHOWN_OPS, associative, year_text
from models.rules.formulas.syntax import Binary, Bool, Call, Expr, In, Name, Num, Str, Unary, needs_parentheses, parse
from models.rules.formulas.syntax import precedence as _precedence
from models.rules.regimes import Regime
from models.rules.regimes.fee_formulas import FeeProgram, program_for
from models.rules.regimes.legacy_fees import as_formulas
from models.rules.regimes.model import Fee, Infraction
from models.rules.regimes.model.fees import SETTERS
from models.rules.regimes.parse_fees import REFUSAL_PLACEHOLDER

#: the desk's inputs as the rule says them
DESK_WORDS = {
    "front": "frente (m)",
    "depth": "profundidade (m)",
    "hitch": "engate (m)",
    "area": "área (m²)",
    "days": "dias",
    "year": "ano",
    "mei": "MEI",
    "local": "do município",
    "equipment": "equipamento",
    "line": "ramo",
    "venue": "imóvel",
    "energy": "faixa de energia",
    # the periods counted (a price per event times the events): said as the act counts them
    "feira_days": "dias de feira",
    "events": "eventos",
    "months": "meses",
    "fiscal_years": "exercícios",
}
#: a number's unit of measure, as said after it: (one, many)
UNIT_WORDS = {
    "m": ("m", "m"),
    "m2": ("m²", "m²"),
    "dia": ("dia", "dias"),
    "dia_feira": ("dia de feira", "dias de feira"),
    "mes": ("mês", "meses"),
    "evento": ("evento", "eventos"),
}
#: a value's unit of the file ("R$/m2", "UFESP/dia") — what it is counted per
PER_WORDS = {
    "m": "metro linear",
    "m2": "m²",
    "dia": "dia",
    "dia_feira": "dia de feira",
    "mes": "mês",
    "evento": "evento",
}


def money_words(value: Decimal, unit: str, currency: str) -> str:
    """``R$ 2,50 por m²``, ``5,50 UFESP por metro linear``, ``3 dias`` — a value of the act with its unit."""
    head, _, per = unit.partition("/")
    head = head.strip()
    number = format_factor(value)
    if head in ("R$", "BRL"):
        text = f"{currency} {number}"
    elif head in UNIT_WORDS:
        text = measure_words(value, head)
    else:
        text = f"{number} {head}".strip()
    # each unit it is counted per, in words: "R$/m2/evento" is "R$ 1,00 por m² e por evento"
    pers = [PER_WORDS.get(part.strip(), part.strip()) for part in per.split("/") if part.strip()]
    return f"{text} por {' e por '.join(pers)}" if pers else text


def measure_words(value: Decimal, unit: str) -> str:
    """``1 dia``, ``3 dias``, ``1,00 m`` — a number with its unit of measure."""
    one, many = UNIT_WORDS[unit]
    return f"{format_factor(value)} {one if value == 1 else many}"


class _Words:
    """Writes the expressions of one compiled fee in words."""

    def __init__(self, regime: Regime, program: FeeProgram):
        self.regime, self.program = regime, program
        self.read: list[str] = []  # terms, tables and asked values named, in reading order

    def _noted(self, name: str) -> None:
        if name not in self.read:
            self.read.append(name)

    def name(self, node: Name) -> str:
        name, program, regime = node.name, self.program, self.regime
        if name in program.terms:
            term = program.terms[name].term
            self._noted(name)
            if term.formula is None and term.value is not None:
                return money_words(term.value, term.unit, regime.currency).partition(" por ")[0]
            return lower_first(term.label or name)
        if name in program.tables:
            self._noted(name)
            return lower_first(program.tables[name].table.label)
        if name in program.inputs:
            self._noted(name)
            return lower_first(program.inputs[name][0].label)
        if name == "base":
            return "o valor da regra geral"
        for index in regime.indexes:
            if index.code == name:
                self._noted(name)
                return f"correção do {name} desde {index.base_year}"
        return DESK_WORDS.get(name, name)

    def _option(self, category: str, ident: str) -> str:
        """An id of the act's lists as the act names it."""
        labels = {
            "equipment": {e.id: e.label for e in self.regime.equipment_kinds},
            "line": {x.id: x.label for x in self.regime.lines},
            "venue": {v.id: v.label for f in self.regime.fees for v in f.venue_choices()},
            "energy": {t.id: t.label for f in self.regime.fees for t in f.energy_tiers()},
        }.get(category, {})
        label = labels.get(ident, ident)
        return label if category in ("venue", "energy") else lower_first(label)

    def expr(self, node: Expr) -> str:
        """An amount, a measure or a condition, in words."""
        if isinstance(node, Num):
            return measure_words(node.value, node.unit) if node.unit else format_factor(node.value)
        if isinstance(node, Str):
            return f"“{node.value}”"
        if isinstance(node, Bool):
            return "sempre" if node.value else "nunca"
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Unary):
            if node.op == "not" and isinstance(node.operand, Name) and node.operand.name in ("mei", "local"):
                return "não MEI" if node.operand.name == "mei" else "de fora do município"
            inner = self.expr(node.operand)
            if _precedence(node.operand) < _precedence(node):
                inner = f"({inner})"
            return f"não {inner}" if node.op == "not" else f"−{inner}"
        if isinstance(node, In):
            item = node.item
            options = [o.value for o in node.options]
            if isinstance(item, Name) and item.name in ("equipment", "line", "venue", "energy"):
                words = join_words([self._option(item.name, str(o)) for o in options], "ou")
                return f"{DESK_WORDS[item.name]}{' que não seja' if node.negated else ':'} {words}"
            shown = join_words([self.expr(o) for o in node.options], "ou")
            return f"{self.expr(item)} {'fora de' if node.negated else 'entre'} {shown}"
        if isinstance(node, Binary):
            if node.op in ("and", "or"):
                return self._junction(node)
            if node.op in ("==", "!=") and isinstance(node.left, Name) and isinstance(node.right, Str):
                category = node.left.name
                word = self._option(category, node.right.value)
                return f"{DESK_WORDS.get(category, category)}{':' if node.op == '==' else ' que não seja'} {word}"
            left = year_text(node.left, node.right) or self.expr(node.left)
            right = year_text(node.right, node.left) or self.expr(node.right)
            if needs_parentheses(node, node.left, False) or _worded(node.left):
                left = f"({left})"
            if (needs_parentheses(node, node.right, True) and not associative(node, node.right)) or _worded(node.right):
                right = f"({right})"
            return f"{left} {SHOWN_OPS[node.op]} {right}"
        return self._call(node)

    def _junction(self, node: Binary) -> str:
        parts: list[str] = []

        def flat(item: Expr) -> None:
            if isinstance(item, Binary) and item.op == node.op:
                flat(item.left)
                flat(item.right)
            else:
                text = self.expr(item)
                parts.append(f"({text})" if isinstance(item, Binary) and item.op in ("and", "or") else text)

        flat(node)
        return join_words(parts, "e" if node.op == "and" else "ou")

    def _call(self, node: Call) -> str:
        if node.function == "fee" and node.args and isinstance(node.args[0], Str):
            other = node.args[0].value
            label = next((f.label for f in self.regime.fees if f.id == other), other)
            return f"o valor de “{label}”"
        if node.function in self.regime.units_by_code:
            return f"{node.function} de {self.expr(node.args[0])}"
        if node.function == "given" and node.args and isinstance(node.args[0], Name):
            return f"informado {self.expr(node.args[0])}"
        args = [self.expr(a) for a in node.args]
        if node.function == "max":
            return f"o maior entre {join_words(args)}"
        if node.function == "min":
            return f"o menor entre {join_words(args)}"
        if node.function == "round" and len(args) == 1:
            return f"{args[0]}, arredondado ao centavo"
        return f"{SHOWN_FUNCTIONS.get(node.function, node.function)}({'; '.join(args)})"


def _said(regime: Regime, text: str, item: object) -> Fact:
    """A sentence of the rule with its article; the file's notes are the other facts' (said once)."""
    return Fact(text=text, cite=cite(regime, item))


def _worded(node: Expr) -> bool:
    """A call said in words ("o maior entre a e b"): bracketed inside a sum or a product, or it would read
    as ``max(a, b × c)``."""
    return isinstance(node, Call) and node.function in ("min", "max")


def rule_facts(regime: Regime, fee: Fee) -> list[Fact]:
    """The rules of ``fee`` in words, each with its article: the general rule, what its values are, the rows of
    its tables, the values the act leaves to someone, and the exceptions in the order they are tried. A venue
    table says its deposit as a rule of its own."""
    try:
        formulas = as_formulas(fee, regime)
    except ValueError:  # a venue table mixing units in a column: said by its kind's facts only
        return []
    out: list[Fact] = []
    for formula_fee in formulas:
        out.extend(_one(regime, formula_fee))
    return out


def fine_rule_facts(regime: Regime, infraction: Infraction) -> list[Fact]:
    """A fine written as a formula in words, as a fee's rule is: "Multa = 0,30 × preço público de ocupação", then
    what each of its values is (a value that is another fee of the act: priced from the offender's permit, else
    asked within its bounds), each with its article."""
    fine = infraction.fine
    assert fine is not None and fine.formula is not None, "only a fine written as a formula"
    return _one(regime, fine.as_fee(infraction.code, infraction.label), what="Multa")


def _one(regime: Regime, fee: Fee, what: str | None = None) -> list[Fact]:
    program = program_for(regime, fee)
    if program.errors:  # a mistake the checker reports; nothing to say in words
        return []
    words = _Words(regime, program)
    what = what or ("Caução" if fee.line_kind == "deposit" else "Valor")
    per = f", {PER[fee.per]}" if fee.per in PER and fee.per != "once" else ""
    out = [Fact(text=f"{what} = {words.expr(program.formula)}{per}", cite=regime.cite_item(fee))]
    for refusal in fee.refusals:  # what the act does not allow, before any price
        reason = REFUSAL_PLACEHOLDER.sub(lambda m: f"[{words.expr(parse(m[1]))}]", refusal.reason)
        out.append(_said(regime, f"Não se admite: quando {words.expr(parse(refusal.when))} — {reason}", refusal))
    exceptions = [
        (n, exc, words.expr(exc.when), words.expr(exc.formula)) for n, exc in enumerate(program.exceptions, start=1)
    ]
    done: set[str] = set()
    while len(done) < len(words.read):
        name = words.read[len(done)]
        done.add(name)
        out.extend(_value_facts(regime, program, words, name))
    for n, exc, when, formula in exceptions:
        out.append(
            _said(
                regime,
                f"Exceção {n} — {exc.exception.label}: quando {when}, {what} = {formula}",
                exc.exception,
            )
        )
    return out


def _value_facts(regime: Regime, program: FeeProgram, words: _Words, name: str) -> list[Fact]:
    """What one named value of the rule is: a term's value or formula, a table's rows, an asked value's bounds."""
    if name in program.terms:
        term = program.terms[name]
        label = cap(term.term.label or name)
        if term.tree is None:
            assert term.term.value is not None  # the loader asks for value or formula
            value = money_words(term.term.value, term.term.unit, regime.currency)
            return [_said(regime, f"{label}: {value}", term.term)]
        return [_said(regime, f"{label} = {words.expr(term.tree)}", term.term)]
    if name in program.tables:
        table = program.tables[name]
        rows = []
        for row, when in zip(table.table.rows, table.whens, strict=True):
            case = f"quando {words.expr(when)}" if when is not None else "nos demais casos"
            value = money_words(row.amount, table.table.unit, regime.currency)
            rows.append(_said(regime, f"{cap(case)}: {value}", row))
        return [Fact(text=f"{cap(table.table.label)} — vale a primeira linha que se aplica", details=tuple(rows))]
    index = next((x for x in regime.indexes if x.code == name), None)
    if index is not None:
        text = (
            f"Correção do {index.code} desde {index.base_year}: o fator acumulado do índice ({index.name}) "
            f"de {index.base_year} ao ano cobrado; 1 até {index.base_year}"
        )
        return [_said(regime, text, index)]
    item = program.inputs[name][0]
    who = SETTERS.get(item.set_by, item.set_by)
    if item.fee is not None:  # another fee of the act: from the offender's permit, else asked
        fee = regime.fee(item.fee)
        text = (
            f"{cap(item.label)}: {lower_first(fee.label)} deste ato ({fee.id}), calculado com os dados da permissão "
            f"do infrator; sem ela, valor que {who}, {bounds_span(item)}"
        )
        return [_said(regime, text, item)]
    return [_said(regime, f"{cap(item.label)}: valor que {who}, {bounds_span(item)}", item)]
