"""pt-BR sentences for the parts of a regime, for screens, reports and the command line.

Pure functions over the regime's dataclasses: they never compute a price (the
fee engine does), they only say in words what the act says. The Regimes screen
(``resources/templates/regime.html.j2``) and ``praca regimes --show`` both
take their wording from here, so the two can never tell an act differently.

Most parts of an act come out as :class:`Fact`\\ s — one sentence, its full
citation, the regime file's notes on it and its details — which each front end
only lays out (HTML list or table, indented text).

Attributes that a newer regime loader adds (``Rule.more_than``,
``Rule.same_site``…) are read with ``getattr(…, None)``: without them the
sentence falls back on what the rule's notes say, as the eligibility check does.

The package's modules: :mod:`.words` (the words for the format's values), :mod:`.text` (``Fact``, numbers,
amounts, dates), then one module per part of an act — :mod:`.permits`, :mod:`.fees`, :mod:`.penalties`,
:mod:`.places`, :mod:`.selection`. This module re-exports their public names: ``describe.fee_facts(…)``.
"""

from __future__ import annotations

from models.rules.describe.cases import (
    CASE_KIND_WORDS,
    CASE_SOURCE_WORDS,
    case_expectation,
    case_line,
)
from models.rules.describe.fees import (
    choice_values,
    fee_facts,
    fee_kind,
    venue,
)
from models.rules.describe.penalties import (
    deadline,
    deadline_text,
    event,
    fine,
    infraction_facts,
    ladder_facts,
    penalty_facts,
    sanction,
    seizure_facts,
    window,
)
from models.rules.describe.permits import (
    document,
    holders,
    permit_facts,
    rule,
    rule_due,
    validity,
)
from models.rules.describe.places import (
    index_text,
    layout_facts,
    placard_facts,
    purpose_facts,
    schedule_day,
    schedule_facts,
    section_place,
    section_title,
    site,
)
from models.rules.describe.selection import (
    criterion_items,
    selection_facts,
)
from models.rules.describe.text import (
    Fact,
    amount,
    clock,
    currency_text,
    date,
    days,
    metres,
    moment,
    months,
    notes,
    number,
    percent,
    period,
    plural,
    with_reais,
    years,
)
from models.rules.describe.words import (
    BENEFICIARIES,
    DAY_NAMES,
    EVENTS,
    FACTS,
    MEASURES,
    ONE_PER,
    ORDER_BY,
    PER,
    ROLES,
    RULES,
    SANCTIONS,
    SCOPES,
    SEVERITIES,
    TIE_BREAKS,
    WEEKDAYS,
)

__all__ = [
    "BENEFICIARIES",
    "CASE_KIND_WORDS",
    "CASE_SOURCE_WORDS",
    "DAY_NAMES",
    "EVENTS",
    "FACTS",
    "MEASURES",
    "ONE_PER",
    "ORDER_BY",
    "PER",
    "ROLES",
    "RULES",
    "SANCTIONS",
    "SCOPES",
    "SEVERITIES",
    "TIE_BREAKS",
    "WEEKDAYS",
    "Fact",
    "amount",
    "case_expectation",
    "case_line",
    "choice_values",
    "clock",
    "criterion_items",
    "currency_text",
    "date",
    "days",
    "deadline",
    "deadline_text",
    "document",
    "event",
    "fee_facts",
    "fee_kind",
    "fine",
    "holders",
    "index_text",
    "infraction_facts",
    "ladder_facts",
    "layout_facts",
    "metres",
    "moment",
    "months",
    "notes",
    "number",
    "penalty_facts",
    "percent",
    "period",
    "permit_facts",
    "placard_facts",
    "plural",
    "purpose_facts",
    "rule",
    "rule_due",
    "sanction",
    "schedule_day",
    "schedule_facts",
    "section_place",
    "section_title",
    "seizure_facts",
    "selection_facts",
    "site",
    "validity",
    "venue",
    "window",
    "with_reais",
    "years",
]
