"""What the sanctions report holds: a record's row, its infractions, sanctions and fines, the open deadlines,
the groups and the totals."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from models import enforcement as enf
from models.base.errors import FieldErrors
from models.billing.charges import KINDS as CHARGE_KINDS
from models.billing.fee_report import ReportCharge
from models.billing.report_parts import Group

ZERO = Decimal("0.00")
CORRECTED = enf.STATUSES["corrected"]  # "corrigido": listed, counts in nothing (its correction counts)
PROGRESS_STEP = 50  # records between two progress calls
RUNNING = ("vence hoje", "faltam")  # the states deadline_rows gives a deadline that still runs
DECISIONS = ("decision", "appeal-decision")
FINE_LABEL = CHARGE_KINDS["fine"]


# --------------------------------------------------------------------------- what the report holds


class ReportRecord(NamedTuple):
    """One record of the period, with its fine as charged now."""

    id: int
    reference: str  # "AI nº 2026/00012"
    number: str
    kind: str
    kind_label: str
    regime: str
    regime_label: str
    at: _dt.datetime
    offender: str
    document: str
    permit: str
    site: str
    place: str
    inspector: str  # name and registration number: the key of the breakdown by inspector
    codes: str
    articles: str  # the articles infringed, cited in full
    sanctions: str  # the sanctions that apply, in words
    offence: int  # the highest offence number among its infractions (2 or more: a recurrence)
    status: str
    status_label: str  # lavrado, corrigido, anulado
    situation: str  # under defence, final decision…
    fine: Decimal  # fines charged (not cancelled)
    paid: Decimal  # paid on them, up to each amount
    open: Decimal
    overdue: Decimal

    @property
    def counted(self) -> bool:
        return self.status != "corrected"


class ReportInfraction(NamedTuple):
    """One article infringed on a counted record."""

    reference: str
    at: _dt.datetime
    offender: str
    regime: str
    regime_label: str
    code: str
    label: str
    article: str  # the article infringed
    basis: str  # the article that sets the penalty
    offence: int
    status_label: str


class ReportSanction(NamedTuple):
    """One sanction that applies, on a record in force."""

    reference: str
    at: _dt.datetime
    offender: str
    regime_label: str
    code: str
    kind: str
    kind_label: str  # multa, suspensão… in the act's word
    text: str
    amount: Decimal | None  # a fine as proposed and adjusted on the record
    days: int | None
    basis: str


class ReportFine(NamedTuple):
    """One fine charge of a counted record: its record, and the charge as the fee report lists one (the offender as
    holder, the record's site; cancelled ones count in no total)."""

    record: str  # its record's reference
    charge: ReportCharge
    #: the values the inspector gave for its formula, each with who gave it ("Valor da licença = 1.000,00 R$ (…) —
    #: informado por Marcos Fiscal"; several joined by "; ")
    asked: str = ""


class OpenDeadline(NamedTuple):
    reference: str
    offender: str
    regime_label: str
    role_label: str
    label: str
    start: str
    due_on: _dt.date
    due_text: str
    state: str
    late: bool  # a decision past its deadline, still pending
    basis: str


class Recurrence(NamedTuple):
    reference: str
    at: _dt.datetime
    offender: str
    regime_label: str
    code: str
    label: str
    offence: int
    priors: str  # the earlier occurrences, by reference and day
    basis: str  # the recurrence rule and the penalty's articles
    sanctions: str


class PendingSeizure(NamedTuple):
    """Goods of a seizure of the period still in the depot, and what it takes to get them back today."""

    goods: enf.SeizedRow
    regime_label: str


class Debt(NamedTuple):
    """A fine of the period unpaid past every deadline: for the dívida ativa."""

    fine: enf.DebtRow
    regime_label: str


@dataclass(frozen=True)
class ArticleGroup:
    """An article infringed in the period: how many records cite it, how many as a recurrence."""

    code: str
    label: str
    regime: str
    regime_label: str
    article: str
    basis: str
    count: int
    recurrences: int


@dataclass(frozen=True)
class CountGroup:
    key: str
    count: int


@dataclass(frozen=True)
class Figures:
    records: int  # counted (not corrected)
    corrected: int
    annulled: int
    infractions: int
    recurrences: int
    sanctions: int
    fines: int  # fine charges not cancelled
    charged: Decimal
    paid: Decimal
    open: Decimal
    overdue: Decimal
    overdue_count: int
    debt: Decimal  # for the dívida ativa
    deadlines: int  # running, and decisions pending
    late_decisions: int
    seized: int  # seizures with goods still held
    seized_due: Decimal  # what must be paid today to get them all back


@dataclass(frozen=True)
class SanctionsReport:
    start: _dt.date
    end: _dt.date
    today: _dt.date
    generated_at: _dt.datetime
    municipality: str
    agency: str
    figures: Figures
    records: tuple[ReportRecord, ...]
    infractions: tuple[ReportInfraction, ...]
    sanctions: tuple[ReportSanction, ...]
    fines: tuple[ReportFine, ...]
    deadlines: tuple[OpenDeadline, ...]
    seized: tuple[PendingSeizure, ...]
    recurrences: tuple[Recurrence, ...]
    debts: tuple[Debt, ...]
    by_kind: tuple[Group, ...]
    by_regime: tuple[Group, ...]
    by_site: tuple[Group, ...]
    by_inspector: tuple[Group, ...]
    by_article: tuple[ArticleGroup, ...]
    by_sanction: tuple[CountGroup, ...]
    coat_of_arms: str = ""  # the municipality's, as a data: URI ("" for none)
    #: the period's records of other towns' acts, left out of this municipality's report: (town, count)
    left_out: tuple[tuple[str, int], ...] = ()
    #: the money of the municipality's acts, as they write it (``[regime] currency``: Cr$ for an act in cruzeiros)
    currency: str = "R$"

    @property
    def label(self) -> str:
        return period_label(self.start, self.end)

    @property
    def title(self) -> str:
        return f"Relatório de sanções — {self.label}"

    @property
    def totals(self) -> Group:
        """The records' line of every breakdown: counted records and their fines."""
        f = self.figures
        return Group("Total", f.records, f.charged, f.paid, f.open, f.overdue)


def period_label(start: _dt.date, end: _dt.date) -> str:
    return f"{start:%d/%m/%Y} a {end:%d/%m/%Y}"


def check_period(start: _dt.date | None, end: _dt.date | None) -> tuple[_dt.date, _dt.date]:
    errors = {}
    if start is None:
        errors["start"] = "Informe o início do período."
    if end is None:
        errors["end"] = "Informe o fim do período."
    if start is not None and end is not None and start > end:
        errors["end"] = f"O período está invertido: o início ({start:%d/%m/%Y}) é depois do fim ({end:%d/%m/%Y})."
    if errors or start is None or end is None:
        raise FieldErrors(errors)
    return start, end
