"""The format's vocabulary: the patterns an id, a code, a decimal or an hour must match, and the choices
each enumerated key of docs/regime-format.md admits.
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- constants

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CODE_RE = re.compile(r"^[A-Z][A-Z0-9-]*$")
DECIMAL_RE = re.compile(r"^-?\d+(\.\d+)?$")
HEX_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
MONTH_DAY_RE = re.compile(r"^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")
#: what a ``basis`` may start with: an article, an annex, a table, the ementa, the preamble, or — where the copy read
#: does not number the rule (a summary that reproduces the act) — "dispositivo …", saying so: "dispositivo da multa,
#: sem número na cópia lida" (issue 29 §7, Altos/PI)
BASIS_RE = re.compile(r"^(arts?\.|anexo|tabela|ementa|preâmbulo|dispositivo)", re.IGNORECASE)

#: the money an act's amounts are written in (``[regime] currency``): real, cruzeiro (1942 and 1970), cruzeiro novo,
#: cruzado, cruzado novo, cruzeiro real — printed as such; a conversion to reais only where a rule says it
CURRENCIES = ("R$", "Cr$", "NCr$", "Cz$", "NCz$", "CR$")
SCOPES = ("street-vending", "event", "street-food", "feira", "beach")
HOLDERS = ("person", "company")
LEGAL_FORMS = ("person", "company", "mei")
RULE_KINDS = (
    "min-age",
    "legally-capable",
    "legal-form",
    "cnpj-required",
    "municipal-registration",
    "resident",
    "document",
    "one-per",
    "no-debts",
    "no-prior-revocation",
    "waiting-period",
    "cap",
    "quota",
    "not-public-servant",
    "custom",
)
ONE_PER_SCOPES = ("person", "family", "spouse", "partners", "household", "dependants")
WAIT_AFTER = ("expiry", "revocation", "abandonment", "cancellation")
FEE_KINDS = ("linear-metre", "energy", "per-area-month", "venue-table", "fixed", "per-day", "formula")
#: a fee paid "at each event" or "at each feira, when setting up" (``due = { at_each = "…" }``)
DUE_EACH = ("event", "feira-day")
#: what a fee's amount is counted per: once, a (civil) year, a month, a day, an event, a feira day, a fiscal year
FIXED_PER = ("once", "year", "month", "day", "event", "feira-day", "fiscal-year")
METRE_KINDS = ("front", "front-plus-hitch")
#: what a per-area fee measures: the line's fixed size, the area declared, or the area used up to the line's size
AREA_KINDS = ("line", "declared", "used")
SITE_KINDS = ("street-segment", "arena", "beach-point", "venue")
SELECTION_METHODS = ("score", "registration-order", "draw", "rotating-draw", "preference-then-draw")
ORDER_BY = ("registration-time", "payment-time")
#: what decides between equal scores, in the order the act gives (Sapezal art. 10, § 3º: disabled, then oldest)
#: how a score criterion on a time since a date (age, residence) measures it: the exact time elapsed (60 years and
#: a day is "maior de 60 anos") or the whole years completed (60 until the 61st birthday) — declared, never assumed
TIME_MEASURES = ("elapsed", "completed-years")
#: the criterion fields derived from a date, which must declare their measure
TIME_FIELDS = ("age_years", "residence_years")
TIE_BREAKS = ("disabled", "oldest", "earliest-registration", "earliest-payment")
SANCTION_KINDS = (
    "warning",
    "fine",
    "suspension",
    "revocation",
    "seizure",
    "interdiction",
    "forfeiture",
    "impediment",
)
#: a ban or suspension "until" (``until = "end-of-year"``): the end of the civil year of the infraction
UNTIL_WORDS = ("end-of-year",)
SEVERITIES = ("leve", "media", "grave", "gravissima")
COUNT_KINDS = ("calendar", "business", "hours")
#: what a sanction with a ``condition`` waits for — a fact someone verifies, never the count of offences:
#: ``not-complied``: the notice or warning was not complied with in its time (Olímpia art. 29; SJC art. 23);
#: ``not-remedied``: the irregularity recorded was not remedied (SJC art. 25, I; art. 26, II);
#: ``earlier-sanctions``: the sanctions of the earlier step were applied (Ilha Comprida art. 19, § 3º)
SANCTION_FACTS = ("not-complied", "not-remedied", "earlier-sanctions", "decision-final")
#: what a deadline is for (``role``); ``models.rules.deadlines.ROLES`` says how each is counted and who uses it
DEADLINE_ROLES = (
    "compliance",
    "payment",
    "payment-after-decision",
    "defence",
    "decision",
    "appeal",
    "appeal-decision",
    "reclaim",
    "selection-appeal",
    "selection-decision",
    "documents",
    "startup",
    "pickup",
    "use",
    "lapse",
    "renewal",
    "leave",
    "substitute",
    "request-decision",
    "publication",
    "price-payment",
    "damage-report",
    "deposit-return",
    "notice",
)
#: the roles of an administrative process: a deadline of these that ends on a day without public service follows
#: the regime's ``[calendar] closed_day`` rule (the act's, else Lei 9.784/1999, art. 66, § 1º, cited in the file)
PROCESS_ROLES = (
    "compliance",
    "payment",
    "payment-after-decision",
    "defence",
    "decision",
    "appeal",
    "appeal-decision",
    "reclaim",
    "selection-appeal",
    "selection-decision",
    "documents",
    "pickup",
    "substitute",
    "request-decision",
)
#: the events a deadline counts from (``from``)
DEADLINE_EVENTS = (
    "absence-start",
    "appeal-filed",
    "approval-notice",
    "archiving",
    "boleto-issue",
    "decision-notification",
    "decision-publication",
    "defence-filed",
    "deposit-return-request",
    "event-end",
    "filing",
    "final-list-publication",
    "infraction-record",
    "infraction-record-receipt",
    "issue",
    "leave-start",
    "licence-expiry",
    "list-publication",
    "notification",
    "penalty",
    "permit-grant",
    "request-received",
    "seizure",
    "selection-end",
    "tpu-publication",
)
#: what happens to a deadline that ends on a day without public service
#: ``next-business-day``: it moves to the next business day (a deadline in hours, to the same hour of it);
#: ``end-of-next-business-day``: to the end of office hours of the next business day (Olímpia art. 24, § 2º, I);
#: ``stays``: it ends where it falls (the act says so)
CLOSED_DAY_RULES = ("next-business-day", "end-of-next-business-day", "stays")
DIRECTIONS = ("after", "before")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
SIDES = ("a", "b")
#: a validity "until" a moment: the event's last day, or the end of the fiscal year (exercício) it was issued in
VALIDITY_UNTIL = ("event-end", "fiscal-year-end")
DOCUMENT_PROVES = ("residence",)
#: what in the applicant's record Praça keeps may stand for a document, where the act's file declares it
#: (``recorded``): "municipal-registration", the inscrição municipal typed in the company's (or MEI's) form
DOCUMENT_RECORDED = ("municipal-registration",)
#: rules an act may defer to a deadline after the application (``due``): what the winners present later
DUE_LATER_RULES = ("document", "cnpj-required", "legal-form")


PLACARD_CONTENTS = (
    "company-name",
    "holder-name",
    "cnpj",
    "cpf",
    "municipal-registration",
    "permit-number",
    "line",
    "section",
    "photo",
    "qr-code",
)

#: what Praça's engine does with a silent point's reading (``[[silences]] topic``): the recurrence window (a
#: reading's ``window_years``, or none), whether a prior still under defence or appeal counts, whether an auto of
#: the same day counts as a prior (a reading's ``counts``); "text" points are shown and recorded, not computed
SILENCE_TOPICS = ("recurrence-window", "recurrence-pending", "recurrence-same-day", "text")
#: where a silent point is shown to the authority: a penalty proposal (and the infraction record that carries it),
#: a draw, a quote, a deadline, a permit's renewal
#: what a worked case runs (``[[cases]]``): ``praca quote``, ``praca penalty``, ``praca deadline``, and the
#: socio-economic score of a selection (``[selection] criteria``), as the desk scores an applicant
CASE_KINDS = ("quote", "penalty", "deadline", "score")
#: where a worked case comes from: an example or a table row of the act itself, or written from its text
CASE_SOURCES = ("act", "reading")
SILENCE_WHERE = ("penalty", "draw", "quote", "deadline", "renewal")
