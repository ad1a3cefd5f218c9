"""Fees: their kinds' keys, discounts and the conditions they ask, energy tiers, venues, arrears, exemptions."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from decimal import Decimal

from models.rules.regimes.model.common import Amount


@dataclass(frozen=True)
class Due:
    """When a fee is paid: on a fixed date, on a day of each month, N days or N hours after the guia is issued, or
    at each event / each feira day, when the stall is set up (``at_each``)."""

    basis: str
    date: dt.date | None = None
    day_of_month: int | None = None
    days_after_issue: int | None = None
    hours_after_issue: int | None = None
    at_each: str | None = None  # DUE_EACH: "event" | "feira-day"
    notes: str | None = None


@dataclass(frozen=True)
class Condition:
    """When a discount applies: every given key must hold."""

    mei: bool | None = None
    local: bool | None = None
    equipment: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    max_depth: Decimal | None = None
    max_metres: Decimal | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Discount:
    id: str
    label: str
    rate: Decimal
    when: Condition
    basis: str
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class EnergyTier:
    id: str
    label: str
    factor: Decimal
    basis: str
    equipment: tuple[str, ...] = ()
    max_metres: Decimal | None = None
    max_depth: Decimal | None = None
    expected: Decimal | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Venue:
    id: str
    label: str
    one_day: Amount
    per_day: Amount
    min_days: int
    basis: str
    deposit: Amount | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Arrears:
    """Extension: unpaid months that trigger a sanction (SJC art. 11, § 6º)."""

    months: int
    basis: str
    consecutive: bool = True
    sanction: str = "revocation"
    notes: str | None = None


@dataclass(frozen=True)
class Exemption:
    """A case the act exempts from a fee (Olímpia art. 90: charitable and public educational events): an input
    of the quote and of the application, never assumed."""

    id: str
    label: str
    basis: str
    #: what it waives: the fee itself (``fee``), the deposit (``deposit``)
    waives: tuple[str, ...] = ("fee", "deposit")
    #: the document that proves it (an id of ``[[documents]]``), asked for at the application
    document: str | None = None
    #: the documents it makes moot (the receipts of the fee and deposit it waives)
    waives_documents: tuple[str, ...] = ()
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class FormulaTerm:
    """A named value of a formula fee (``[[fees.terms]]``): a number the act gives, in its unit (``value`` and
    ``unit``: ``"5.50"``; ``"2.50"`` in ``"R$/m2"``; ``"100"`` in ``"UFESP"``), or a formula of its own over other
    names (``formula``) — each with its article."""

    name: str
    basis: str
    label: str | None = None
    value: Decimal | None = None
    unit: str = ""
    formula: str | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None
    #: its articles on a quote line, each only when its condition holds — the hitch's article only when there is a
    #: hitch (``hitch > 0 m``), a minimum's only when it binds (``front + hitch < 1.00 m``); none holding, the
    #: term is not said. Empty: ``basis``, always
    cited: tuple[CitedWhen, ...] = ()


@dataclass(frozen=True)
class CitedWhen:
    """An article of a term cited on a quote line only when ``when`` holds (``[[fees.terms]] cited``)."""

    basis: str
    when: str


@dataclass(frozen=True)
class TableRow:
    """A row of a decision table: when its condition holds (``when``; none: "in every other case", the last
    row), the table's value is ``value`` (in the table's unit), by ``basis``.

    A row of a table of the desk's choices (``DecisionTable.choice``) is one of the act's options instead: its
    ``id`` and ``label`` are what the desk offers, its condition is that option chosen (``venue == 'id'``), and
    with ``columns`` it gives a value to each (``values``, in the columns' order)."""

    value: Decimal | None
    basis: str
    when: str | None = None
    label: str | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None
    #: the option's id (a table of choices)
    id: str | None = None
    #: (column name, value), in the columns' order (a table of choices with columns)
    values: tuple[tuple[str, Decimal], ...] = ()

    @property
    def amount(self) -> Decimal:
        """The row's value in a table read by a formula (a table of one column, or a column of a table)."""
        assert self.value is not None, "a row of a table with columns is read through its columns"
        return self.value


@dataclass(frozen=True)
class TableColumn:
    """A column of a table of choices (``[[fees.tables]] columns``): a value of each option, read in a formula by
    its ``name``, in its ``unit`` (``taxa_por_dia``, in ``UFESP/dia``)."""

    name: str
    label: str
    unit: str = ""


@dataclass(frozen=True)
class DecisionTable:
    """Tiers as the act lists them (``[[fees.tables]]``): rows of conditions → value, the first row that holds
    decides (DMN's "first" hit policy). Read in a formula by its ``name``.

    With ``choice`` (a desk category: ``energy``, ``venue``) it is the act's list of options the desks offer —
    São Bento's consumption tiers, Olímpia's venues —, each row one option with its id, label, value(s) and
    article; with ``columns`` each option has several values (Olímpia's venue: the price of one day, of each day,
    the minimum days), each column read in a formula by its name as a table of its own."""

    name: str
    label: str
    rows: tuple[TableRow, ...]
    unit: str = ""
    notes: str | None = None
    choice: str | None = None
    columns: tuple[TableColumn, ...] = ()

    def when_of(self, index: int) -> str | None:
        """Row ``index``'s condition: the option chosen, in a table of choices."""
        row = self.rows[index]
        if self.choice is not None and row.id is not None:
            return f"{self.choice} == '{row.id}'"
        return row.when

    def column(self, name: str) -> DecisionTable:
        """Column ``name`` of a table of choices as a table of its own (a row per option that has a value)."""
        col = next(c for c in self.columns if c.name == name)
        rows = tuple(
            TableRow(
                value=dict(row.values)[name],
                basis=row.basis,
                when=self.when_of(n),
                label=row.label,
                basis_act=row.basis_act,
                amended_by=row.amended_by,
                notes=row.notes,
                id=row.id,
            )
            for n, row in enumerate(self.rows)
            if name in dict(row.values)
        )
        return DecisionTable(name=col.name, label=col.label, rows=rows, unit=col.unit, choice=self.choice)

    def read_as(self) -> tuple[DecisionTable, ...]:
        """The tables a formula reads: itself, or each of its columns."""
        return tuple(self.column(c.name) for c in self.columns) if self.columns else (self,)


@dataclass(frozen=True)
class Choice:
    """One of the act's options a desk offers for a category (``energy``: a consumption tier, ``venue``: a
    public venue), declared as a row of a formula fee's table of choices: its id, label and article."""

    category: str
    id: str
    label: str
    basis: str
    basis_act: str | None = None
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class FeeException:
    """An exception to a formula fee's general rule (``[[fees.exceptions]]``), as the law writes it: when
    ``when`` holds, the amount is ``formula`` instead (``base`` in it is the general rule's amount). The
    exceptions are tried in the file's order; the first that holds decides."""

    id: str
    label: str
    when: str
    formula: str
    basis: str
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None
    #: when the case claims the exception (``mei or local``) and it does not apply, the line says why: the
    #: reason of each ``unmet`` requirement that fails, or that no exception of the fee ``reaches`` the stall
    claimed: str | None = None
    #: the stalls the exception is for (``equipment in ['trailer']``); none: every stall
    reaches: str | None = None
    unmet: tuple[Requirement, ...] = ()
    #: what the act calls it, in the reasons: "Sem desconto: …", "nenhum desconto deste preço alcança …"
    called: str = "desconto"


@dataclass(frozen=True)
class Requirement:
    """A requirement of an exception (``[[fees.exceptions.unmet]]``): a condition and, when the case claims the
    exception and the condition fails, the reason said — ``{depth}``, ``{metros}``: the value read, as shown
    (``profundidade {depth} m acima de 3,00 m``)."""

    when: str
    reason: str


@dataclass(frozen=True)
class Refusal:
    """A fact the act does not allow (``[[fees.refusals]]``): when ``when`` holds, the fee is not priced and the
    desk is told ``reason`` with the article (``A tarifa vale até 2,00 ML; informado {front + hitch} ML`` — each
    ``{expression}`` is the value read, as shown; a category, its label). Refusals are tried in the file's order,
    before the general rule; one whose condition reads a category the case does not give (the equipment, the
    line) does not refuse, and a measure it reads and the case does not give is asked for by its article."""

    when: str
    reason: str
    basis: str
    #: the desk's field the refusal is about (``front``, ``depth``, ``energy``…), highlighted at the desk
    field: str | None = None
    basis_act: str | None = None
    #: the amending act that gave this rule its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Said:
    """What the quote line says when ``when`` holds (``[[fees.says]]``): ``text`` with each ``{expression}`` the
    value read, as shown (``{days} de uso: mínimo de {minimo_dias} cobrados``), followed by its article when it
    has one (`` — LC 324/2025, art. 89, § 1º``). A fact it reads and the case does not give is asked for."""

    text: str
    when: str | None = None
    basis: str | None = None
    basis_act: str | None = None
    amended_by: str | None = None
    notes: str | None = None


#: what an act calls an exception a case claims (``called``): the words of its reasons — "Sem desconto",
#: "nenhum desconto deste preço alcança …", "os descontos deste preço dependem …"
CALLED = {
    "desconto": ("Sem desconto", "nenhum desconto", "os descontos"),
    "redução": ("Sem redução", "nenhuma redução", "as reduções"),
    "isenção": ("Sem isenção", "nenhuma isenção", "as isenções"),
}


#: who sets a value a formula asks for (``[[fees.inputs]] set_by``), as a message says it: "valor que o fiscal fixa"
SETTERS = {
    "administration": "a Administração fixa",
    "inspector": "o fiscal fixa",
    "authority": "a autoridade competente fixa",
    "applicant": "o requerente informa",  # a count the application states: lots, feira days, events
}


@dataclass(frozen=True)
class AskedInput:
    """A value a formula needs that the desk cannot have (``[[fees.inputs]]``): an administration-defined base,
    the inspector's grade within a ceiling, a range the authority fixes. Asked for at the desk and on the command
    line, within the bounds the act sets (``minimum``, ``maximum``), and recorded with who set it."""

    name: str
    label: str
    basis: str
    unit: str = ""
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    places: int = 2
    set_by: str = "administration"
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None
    #: the value *is* the fee's own (per its period), which the act leaves to the Administration (``fee_value =
    #: true``): the fee is assessed apart — not priced with the application, charged once the value is set, typed
    #: by the fee's id too (``--admin-value FEE=VALOR``). Declared in the file, never guessed
    fee_value: bool = False
    #: a fine's value that is another fee of the act (``fee = "licenca"``: "30 % do valor da licença"): priced by
    #: the fee engine with the facts of the offender's permit when the record names one; asked, within the bounds,
    #: when it does not
    fee: str | None = None


@dataclass(frozen=True)
class Fee:
    id: str
    label: str
    kind: str
    basis: str
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None
    due: Due | None = None
    year: int | None = None
    # linear-metre
    coefficient: Decimal | None = None
    unit: str | None = None
    min_metres: Decimal | None = None
    min_metres_basis: str | None = None
    hitch_counts: bool = False
    hitch_basis: str | None = None
    metre: str = "front"
    discounts: tuple[Discount, ...] = ()
    # energy
    tiers: tuple[EnergyTier, ...] = ()
    # per-area-month
    rate: Amount | None = None
    area: str | None = None
    index: str | None = None
    arrears: Arrears | None = None
    # venue-table
    venues: tuple[Venue, ...] = ()
    # fixed / per-day
    amount: Amount | None = None
    per: str | None = None
    admin_defined: bool = False
    # formula
    formula: str | None = None
    terms: tuple[FormulaTerm, ...] = ()
    tables: tuple[DecisionTable, ...] = ()
    exceptions: tuple[FeeException, ...] = ()
    inputs: tuple[AskedInput, ...] = ()
    #: the quote line's label said with the values read (``{venue}``: the venue's name, ``{days}``: "3 dias");
    #: none: the fee's label
    line_label: str | None = None
    #: facts the act does not allow, refused before the fee is priced (``Refusal``)
    refusals: tuple[Refusal, ...] = ()
    #: what the line says, each under its condition (``Said``)
    says: tuple[Said, ...] = ()
    #: cases the act exempts (``Exemption``)
    exemptions: tuple[Exemption, ...] = ()
    #: ``deposit`` when its line is a refundable deposit (a venue table's caução said as a formula); else a charge
    line_kind: str | None = None
    #: how Praça reads the act where it can be read two ways and the reading costs someone money
    reading: str | None = None
    notes: str | None = None

    @functools.cached_property
    def _choices(self) -> dict[str, tuple[Choice, ...]]:
        found: dict[str, dict[str, Choice]] = {}
        for table in self.tables:
            if table.choice is None:
                continue
            options = found.setdefault(table.choice, {})
            for row in table.rows:
                if row.id is not None and row.id not in options:
                    options[row.id] = Choice(
                        table.choice, row.id, row.label or row.id, row.basis, row.basis_act, row.amended_by, row.notes
                    )
        return {category: tuple(options.values()) for category, options in found.items()}

    def choices(self, category: str) -> tuple[Choice, ...]:
        """The options this formula fee's tables of choices declare for ``category`` (``energy``, ``venue``), in
        the file's order, each once (worked out once per fee)."""
        return self._choices.get(category, ())

    def energy_tiers(self) -> tuple[EnergyTier | Choice, ...]:
        """The consumption tiers the desk offers for this fee: an energy fee's, or a formula fee's choices."""
        return self.tiers or self.choices("energy")

    def venue_choices(self) -> tuple[Venue | Choice, ...]:
        """The venues the desk offers for this fee: a venue table's, or a formula fee's choices."""
        return self.venues or self.choices("venue")

    def tier(self, tier_id: str) -> EnergyTier | Choice | None:
        for tier in self.energy_tiers():
            if tier.id == tier_id:
                return tier
        return None
