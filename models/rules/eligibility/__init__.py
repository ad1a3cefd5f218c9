"""Eligibility: does one application meet every rule of its permit kind, and why.

A pure rule engine — no database, no Qt. The front desk gathers plain facts
about the applicant from the database into :class:`ApplicantFacts`;
:func:`evaluate_eligibility` checks each rule of the regime's permit kind
(``kind.rules``, in the file's order) and returns one :class:`RuleResult` per
rule — ``status`` (``"passed"``, ``"failed"``, ``"manual"`` or
``"missing-data"``), a pt-BR ``reason`` that shows the actual values, and the
rule's full citation — plus the overall verdict:

* ``"ineligible"`` when any rule failed;
* ``"pending"`` when none failed but some still need the clerk (``manual``) or
  a fact nobody gave yet (``missing-data``);
* ``"eligible"`` only when every rule passed.

Readings of the acts that the engine takes (see also docs/regime-format.md):

* **Calendar months.** Every "N months" / "N years" is calendar arithmetic:
  the date N months later, same day of the month, clamped to the month's
  last day (31/08 + 6 months = 28/02 or 29/02). :func:`add_months` is the one
  place that decides it; ages, residence, waiting periods and document
  validity all use it.
* **Age** (``min-age``): "18 anos completos" — the applicant qualifies on the
  18th birthday itself (≥).
* **Residence** (``resident``): "no mínimo N anos" (Ilha Comprida, art. 7º,
  IV) is ≥ — qualifies on the Nth anniversary of the residence. Where the act
  says "há mais de N anos" (Sapezal, art. 7º, parágrafo único, III) the rule
  carries ``more_than = true`` and the comparison is strict: one day past the
  anniversary (when the act says both "mais de" and "no mínimo", the regime
  file sets the stricter). The engine reads this from the rule's attribute,
  never from the town nor from its notes. Without it: ≥.
* **Waiting periods** (``waiting-period``, ``no-prior-revocation``): the wait
  ends on ``event date + N months``; from that date on the applicant may
  apply. Ilha Comprida art. 12, § 2º ("após 06 meses, contados da data em que
  perdeu o direito"), Olímpia art. 148 ("não poderá ser autorizado em um
  período inferior a 12 meses contados da data da reincidência") and SJC art.
  26, parágrafo único ("depois de transcorridos trinta e seis meses") are
  read alike; none says more precisely which day is the first allowed.
  The latest event binds.
* **Documents** (``document``): delivered on or before ``today`` and still
  valid on ``today``, the last valid day included. The last valid day is the
  one the clerk typed (``valid_until``), else ``issued_on`` (or
  ``delivered_on``) + the document's ``validity_months`` (Sapezal's health
  certificate: 6 months), else the document does not expire. A document with
  a ``condition`` ("só para quem vende alimentos") that was not delivered is
  left to the clerk (``manual``). ``applies_to`` says *whose* document it is
  (Sapezal asks the natural person's identity card from a company
  applicant), so it never waives the rule.
* **One per …** (``one-per``): counts the active permits the desk lists,
  by the holder's relation to the applicant — ``person``: the applicant
  (``self``); ``spouse``: ``spouse`` and ``partner`` (companheiro(a) in a
  união estável); ``partners``: ``business-partner`` (sócios); ``dependants``:
  ``dependant``; ``family``/``household``: ``spouse``, ``partner``,
  ``dependant``, ``family``. Which kinds it spans: the permit kinds of the
  regime that carry the same rule (same kind, scope and article) — so one
  article repeated over several kinds (Sapezal art. 26 over its four
  modalities, Olímpia art. 162 over TPU A–D, SJC art. 11, § 4º over feirante
  and produtor rural) spans all of them, while a rule of one kind only
  (Ilha Comprida art. 11) counts that kind. Only the same feira/site when the
  rule carries ``same_site = true`` (SJC art. 12: "na mesma feira livre").
  Permits whose status is one of
  :data:`INACTIVE_STATUSES` are ignored. For a renewal the desk must leave
  the permit being renewed out of ``permits``.
* **Waiting periods and revocations** count the events of the same regime and
  of the kinds that carry the same rule (Olímpia art. 148 spans ambulante and
  eventual).
* **Cap** (``cap``): eligible while the active permits of the kind are fewer
  than the cap (``count < cap``); a cap left to the Administration needs its
  value (``admin_values["cap"]``), else ``manual``.
* **Quota** (``quota``): reserved places = percent × the kind's cap, rounded
  up to a whole place (10 % of 280 = 28). A beneficiary passes while reserved
  or general places remain; a non-beneficiary fails only when every
  non-reserved place is taken. Whether the applicant is a beneficiary
  (Ilha Comprida: elderly or disabled *and* without other income or with a
  family income up to one minimum wage) is decided by the clerk and given as
  ``quota_beneficiary``.
* **Custom** rules are always ``manual``: the clerk checks and ticks them;
  ``RuleResult.key`` identifies the rule for that tick.

Values the act leaves to the Administration (``admin_defined = true``) are
taken from ``admin_values``, keyed by :func:`rule_key` (``"cap"``,
``"min-age"``, ``"resident"``, ``"quota"``, ``"no-prior-revocation"``,
``"waiting-period:expiry"``…); until given, the rule is ``manual``.

The package's modules: :mod:`.facts` (vocabulary, facts, results), :mod:`.context` (dates, wording, the
context of a check), :mod:`.checks` (one check per rule kind), :mod:`.evaluate` (the API). This module
re-exports the public names.
"""

from __future__ import annotations

from models.rules.eligibility.context import (
    add_months,
    age_on,
    document_last_valid_day,
    elapsed,
    rule_key,
    wait_end,
)
from models.rules.eligibility.evaluate import (
    eligibility_summary,
    evaluate_eligibility,
    evaluate_rule,
    join_articles,
)
from models.rules.eligibility.facts import (
    DUE_LATER,
    ELIGIBLE,
    FAILED,
    INELIGIBLE,
    MANUAL,
    MISSING,
    PASSED,
    PENDING,
    STATUSES,
    ApplicantFacts,
    DebtFacts,
    DocumentFacts,
    DueFacts,
    Eligibility,
    HistoryFacts,
    PermitFacts,
    RuleResult,
    to_dict,
)

__all__ = [
    "DUE_LATER",
    "ELIGIBLE",
    "FAILED",
    "INELIGIBLE",
    "MANUAL",
    "MISSING",
    "PASSED",
    "PENDING",
    "STATUSES",
    "ApplicantFacts",
    "DebtFacts",
    "DocumentFacts",
    "DueFacts",
    "Eligibility",
    "HistoryFacts",
    "PermitFacts",
    "RuleResult",
    "add_months",
    "age_on",
    "document_last_valid_day",
    "elapsed",
    "eligibility_summary",
    "evaluate_eligibility",
    "evaluate_rule",
    "join_articles",
    "rule_key",
    "to_dict",
    "wait_end",
]
