"""Where the act is silent or ambiguous (``[[silences]]``): the point, the articles, and the readings the
authority may choose — each with its text and its source. Praça never fills a silence by itself: the reading it
computes with until the authority chooses (``applied``) is declared here and printed beside the figure.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One way to read the silent point: what it says, and its source (an article of this act, or another act)."""

    id: str
    text: str
    basis: str | None = None  # an article of this act
    source: str | None = None  # another act, a court's decision, doctrine
    #: what the engine does under this reading, where the point's ``topic`` is one Praça computes
    window_years: int | None = None  # recurrence-window: the window in years (none: every prior counts)
    counts: bool | None = None  # recurrence-pending / recurrence-same-day: whether such a prior counts
    notes: str | None = None

    @property
    def cited(self) -> str:
        return "; ".join(part for part in (self.basis, self.source) if part)


@dataclass(frozen=True)
class Silence:
    """A point where the act is silent or ambiguous, handed to the authority with its readings."""

    id: str
    topic: str  # SILENCE_TOPICS: what Praça's engine does with the choice ("text": printed only)
    where: tuple[str, ...]  # SILENCE_WHERE: where the point is shown (penalty, draw, quote, deadline, renewal)
    question: str
    basis: str  # the article(s) where the act is silent
    applied: str  # the reading Praça computes with until the authority chooses one
    readings: tuple[Reading, ...] = ()
    #: where ``where`` has "deadline": the deadlines (ids) the point concerns; empty: every deadline of the act
    deadlines: tuple[str, ...] = ()
    #: where ``where`` has "penalty": the infractions (codes) and ladders (ids) the point concerns; both empty:
    #: every infraction of the act
    infractions: tuple[str, ...] = ()
    ladders: tuple[str, ...] = ()
    #: where ``where`` has "quote": the fees (ids) the point concerns; empty: every quote of the act
    fees: tuple[str, ...] = ()
    basis_act: str | None = None
    notes: str | None = None

    def reading(self, reading_id: str) -> Reading | None:
        return next((r for r in self.readings if r.id == reading_id), None)

    @property
    def default(self) -> Reading:
        found = self.reading(self.applied)
        assert found is not None, "the loader checks that the applied reading is declared"
        return found
