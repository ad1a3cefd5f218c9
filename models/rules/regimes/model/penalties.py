"""What follows a breach and the process: sanctions, ladders, fines, infractions, penalties, deadlines,
seizure of goods, prohibitions, duties and the placard.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.base.errors import UserError
from models.rules.regimes.model.common import Amount, ClosedDay, Flag, TextRule
from models.rules.regimes.model.fees import AskedInput, Fee, FormulaTerm


@dataclass(frozen=True)
class SanctionCondition:
    """The fact a sanction waits for (``SANCTION_FACTS``), in the act's words: never imposed by the count alone."""

    fact: str
    text: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Sanction:
    kind: str
    basis: str
    comply_days: int | None = None
    comply_hours: int | None = None
    multiplier: Decimal | None = None
    amount: Amount | None = None
    graded: bool = False
    max: Amount | None = None
    days: int | None = None
    max_days: int | None = None
    until_remedied: bool = False
    wait_months: int | None = None
    #: a suspension, an impediment or a revocation's wait that lasts "until" a day: a date the act fixes, or
    #: "end-of-year" — until the end of the civil year of the infraction (``UNTIL_WORDS``)
    until: dt.date | str | None = None
    #: a suspension or an impediment that lasts N months or N years ("proibição de vender em eventos públicos por 2
    #: anos"): it runs from the infraction's day to the day of the same number N months (12 × N) later, or the
    #: next day where that month has none (Código Civil, art. 132, § 3º)
    months: int | None = None
    years: int | None = None
    text: str | None = None
    cumulative: bool = False
    #: the act leaves it to the authority ("poderá", "cumulativamente ou não"): proposed, imposed or omitted
    #: by the authority with a written reason
    discretionary: bool = False
    admin_defined: bool = False
    condition: SanctionCondition | None = None
    #: sanctions of one step with the same ``one_of`` are alternatives: the authority imposes exactly one
    #: (Olímpia art. 217: "suspensões temporárias ou exclusão definitiva")
    one_of: str | None = None
    #: the act's own word for it ("revogação", "exclusão definitiva") where it differs from the kind's
    word: str | None = None
    #: a warning's deadline to comply (the id of a ``role = "compliance"`` deadline)
    deadline: str | None = None
    basis_act: str | None = None
    #: the amending act that gave this value its wording ("redação dada pela Lei nº 2.000/1990")
    amended_by: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class LadderStep:
    offence: int
    sanctions: tuple[Sanction, ...]
    notes: str | None = None


@dataclass(frozen=True)
class Ladder:
    id: str
    label: str
    basis: str
    steps: tuple[LadderStep, ...]
    recurrence_window_days: int | None = None
    #: counted in calendar years: the same day N years before
    recurrence_window_years: int | None = None
    #: the matter (a regime scope) its infractions belong to: it chooses the matter's own deadlines
    matter: str | None = None
    basis_act: str | None = None
    notes: str | None = None

    def step_for(self, offence: int) -> LadderStep:
        """The step of the ``offence``-th offence (1-based); the last step repeats."""
        if offence < 1:
            raise UserError(f"Número da ocorrência inválido: {offence} (a primeira é 1)")
        for step in self.steps:
            if step.offence == offence:
                return step
        return self.steps[-1]


@dataclass(frozen=True)
class Fine:
    basis: str
    amount: Amount | None = None
    max: Amount | None = None
    graded: bool = False
    admin_defined: bool = False
    #: the act lets the authority impose it or not (Dec. 4.794/2026, art. 14: "poderá acarretar")
    discretionary: bool = False
    basis_act: str | None = None
    notes: str | None = None
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None
    #: the fine as a formula of the rule language (issue 29 §1): "0.30 * valor_licenca" (a share of the licence fee,
    #: asked), "30 * UFESP" (a multiple of a fiscal unit) — its named values (``terms``) and the values it asks for
    #: (``inputs``) each with its article; a recurrence multiplies it as any fine
    formula: str | None = None
    terms: tuple[FormulaTerm, ...] = ()
    inputs: tuple[AskedInput, ...] = ()

    def as_fee(self, code: str, label: str) -> Fee:
        """The fine's formula as a formula fee (``multa:CODE``): what the rule language checks and prices."""
        assert self.formula is not None, "only a fine written as a formula"
        return Fee(
            id=f"multa:{code}",
            label=f"Multa — {label}",
            kind="formula",
            basis=self.basis,
            basis_act=self.basis_act,
            amended_by=self.amended_by,
            formula=self.formula,
            terms=self.terms,
            inputs=self.inputs,
        )


@dataclass(frozen=True)
class Tolerance:
    """The act tolerates the first occurrences (Olímpia art. 218: three feiras without authorisation)."""

    occurrences: int
    spares: tuple[str, ...]  # sanction kinds not imposed within the tolerance
    text: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Infraction:
    code: str
    label: str
    article: str
    basis: str
    nature: str | None = None
    severity: str | None = None
    fine: Fine | None = None
    ladder: str | None = None
    sanctions: tuple[Sanction, ...] = ()
    tolerance: Tolerance | None = None
    #: the matter (a regime scope) it belongs to, where its ladder does not say it
    matter: str | None = None
    basis_act: str | None = None
    notes: str | None = None
    #: the act forbids the conduct (``article``) and sets no sanction for it (``no_sanction = true``): ``basis`` is
    #: then the article that forbids it, and a penalty for it says exactly that
    no_sanction: bool = False
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None


@dataclass(frozen=True)
class Recurrence:
    basis: str
    window_days: int | None = None
    window_years: int | None = None
    multiplier: Decimal | None = None
    max_doublings: int | None = None
    discretionary: bool = False
    #: how Praça reads the act where it can be read two ways and the reading costs someone money
    reading: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class IndexRef:
    code: str
    basis: str
    notes: str | None = None


@dataclass(frozen=True)
class RecordRequirement:
    """Something the act requires of or says about a record (Olímpia art. 32, V), with the act's words to print."""

    basis: str
    text: str | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class RecordRules:
    #: the inspector's registration number (matrícula) must be on the record
    inspector_id: RecordRequirement | None = None
    #: without the offender's signature a witness may supply it (Ilha Comprida art. 29, parágrafo único)
    witness_when_unsigned: RecordRequirement | None = None
    #: without the offender's signature the inspector states why (Olímpia art. 32, § 3º)
    unsigned_note: RecordRequirement | None = None
    #: the record stands without the offender's signature, in the act's words (Olímpia art. 32, § 2º)
    unsigned_valid: RecordRequirement | None = None


@dataclass(frozen=True)
class Penalties:
    cumulative: Flag | None = None
    recurrence: Recurrence | None = None
    any_order: Flag | None = None
    index: IndexRef | None = None
    record: RecordRules | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Deadline:
    id: str
    label: str
    count: str
    from_: str
    basis: str
    #: what the deadline is for (``DEADLINE_ROLES``)
    role: str = ""
    days: int | None = None
    hours: int | None = None
    direction: str = "after"
    applies_to: tuple[str, ...] = ()
    #: the matters (regime scopes) it is for; empty: the general deadline of its role
    matter: tuple[str, ...] = ()
    #: for a reclaim deadline: perishable goods (True), the others (False)
    perishable: bool | None = None
    #: offered to the inspector as an alternative, never chosen by default
    alternative: bool = False
    #: its own rule for a closed last day; None: the regime's calendar for process deadlines
    closed_day: ClosedDay | None = None
    basis_act: str | None = None
    notes: str | None = None
    #: the amending act that gave this value its wording ("Lei nº 2.000/1990"): cited "na redação dada pela …"
    amended_by: str | None = None


@dataclass(frozen=True)
class Period:
    basis: str
    days: int | None = None
    hours: int | None = None
    count: str | None = None
    admin_defined: bool = False
    notes: str | None = None


@dataclass(frozen=True)
class DepotFee:
    basis: str
    amount: Amount | None = None
    per: str | None = None
    admin_defined: bool = False
    #: the matters (regime scopes) whose seizures pay it; empty: every seizure
    scopes: tuple[str, ...] = ()
    notes: str | None = None

    def as_fee(self) -> Fee:
        """The depot's fee as a fee of the act (``apreensao:deposito``): a daily or single amount, or a value the
        Administration sets — what a caller asks of it through ``models.rules.fees.needs.fee_needs``, as of any fee."""
        return Fee(
            id="apreensao:deposito",
            label="Depósito de bens apreendidos",
            kind="per-day" if self.per == "day" else "fixed",
            basis=self.basis,
            amount=self.amount,
            per=None if self.per == "day" else self.per,
            admin_defined=self.admin_defined,
            notes=self.notes,
        )


@dataclass(frozen=True)
class Seizure:
    basis: str
    depot_fee: DepotFee | None = None
    reclaim_perishable: Period | None = None
    reclaim_other: Period | None = None
    donation: TextRule | None = None
    release: TextRule | None = None
    #: what the offender owes for the seizure where no depot fee applies (Olímpia art. 23, parágrafo único)
    expenses: TextRule | None = None
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Prohibition:
    id: str
    label: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Duty:
    id: str
    label: str
    basis: str
    basis_act: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class Placard:
    """Extension: the sign every stall must show (SB art. 4º, parágrafo único)."""

    basis: str
    min_width: Decimal | None = None
    min_height: Decimal | None = None
    background: str | None = None
    text_colour: str | None = None
    contents: tuple[str, ...] = ()
    notes: str | None = None
