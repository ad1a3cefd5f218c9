"""The act's own worked cases (``[[cases]]``): what a figure of the act must come out as — the examples and table
rows the act gives, and the cases its reader writes from the text — run by ``praca regimes check``.

A case says what it runs (``kind``: a quote, a penalty, a deadline), with its inputs as the command line takes
them (``praca quote --front 4,00`` is ``front = "4,00"``), the day of the fact, and what it expects.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

#: a case's input: a text as typed on the command line, a whole number, a yes/no, a date, or a list of them
CaseInput = str | int | bool | dt.date | tuple[str, ...] | tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CaseExpect:
    """What the case must come out as; only the figures given are compared."""

    #: quote: the total; penalty: the fines imposed
    total: Decimal | None = None
    #: quote: the prices and fees (without deposits), the deposits
    charges: Decimal | None = None
    deposits: Decimal | None = None
    #: quote: the amount of each line, by the fee's id
    lines: tuple[tuple[str, Decimal], ...] = ()
    #: penalty: the fines proposed, waiting for the authority or a fact
    proposed: Decimal | None = None
    #: penalty: the kinds of the sanctions, in order (fine, suspension, seizure…)
    sanctions: tuple[str, ...] = ()
    #: penalty: the step of the ladder applied (the offence counted with its recurrence)
    step: int | None = None
    #: penalty: the days of a suspension or ban
    days: int | None = None
    #: penalty: the last day of a suspension or ban "until" a day (the end of the civil year…)
    until: dt.date | None = None
    #: deadline: the last day (or day and hour, for counts in hours)
    due: dt.date | dt.datetime | None = None
    #: deadline: whether it was moved to the next business day
    extended: bool | None = None
    #: score: the points of the socio-economic score, all criteria summed
    points: int | None = None
    #: the engine refuses the case: a fragment of its message (a size above the act's maximum…)
    refused: str | None = None


@dataclass(frozen=True)
class Case:
    id: str
    label: str
    #: the article the case comes from (an example, a table row), or that its expectation reads
    basis: str
    #: the day of the fact: the act's version in force that day, and the year of its values
    date: dt.date
    kind: str  # CASE_KINDS: quote | penalty | deadline | score
    #: the inputs, by the command line's option name (without "--"), in the file's order
    inputs: tuple[tuple[str, CaseInput], ...]
    expect: CaseExpect
    #: ``source = "act"``: an example or a table row the act itself gives; ``"reading"``: written from the text
    source: str = "act"
    notes: str | None = None

    def input(self, name: str) -> CaseInput | None:
        return next((value for key, value in self.inputs if key == name), None)
