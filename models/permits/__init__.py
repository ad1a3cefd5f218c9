"""Permits (alvarás, licenças, credenciais, TPU): issue, lifecycle and what is due today.

A permit is issued from an approved application and never edited afterwards:
every change is a :class:`PermitEvent` (append-only), and a change of content
— a renewal, a transfer to an heir, an exchange of sites — is a **new** permit
that refers to the old one (``previous``); the old one becomes ``superseded``
with the reason. The permit row itself only moves its ``status`` (with
``version`` for optimistic locking); its ``qr_text`` is written once, in the
transaction that issues it.

Numbers are ``AAAA/NNNNN`` per year from the gapless counter
``permit-AAAA`` (:func:`models.registry.applications.next_number`) taken inside the
transaction that creates the permit.

Readings of the acts (each computed date carries its article):

* **Validity** (``[[permit_kinds]].validity``). A term of N days, months or
  years is counted with the first day in force included: N months from
  01/12/2026 run to 30/11/2027 (:func:`models.rules.eligibility.add_months`, minus
  one day), so "prazo não superior a um ano" (Lei 1.171/2014, art. 38) is
  never exceeded, and the TPU's "validade por 5 (cinco) anos" (LC 324/2025,
  art. 158; art. 177) runs 01/12/2026–30/11/2031. A term of N days on a kind
  with a calendar of event days runs from the first event day (Dec.
  4.794/2026, art. 2º: 27, 28 e 29/03/2026). ``until = "event-end"`` runs to
  the last day of the kind's calendar; when the regime has no dates for it
  (Sapezal's temporária, Olímpia's events, Ilha Comprida's Ilha Verão) the
  clerk gives the event's last day. Where the act fixes no term (SJC, Lei
  9.158/2014, art. 4º; Olímpia, art. 138) the clerk gives the last day — Praça
  never invents one.
* **Yearly licences by exercise.** A kind whose renewal is due by a fixed day
  of the year (``renewal.until_month_day``) runs by exercise (calendar year):
  "validade de 01 (um) ano, podendo ser renovada por igual período, até o dia
  30 de setembro" with "para o exercício de 2018, especificamente, ... até
  31/01/2018" (Dec. 890/2017, art. 12 and § 1º) — a licence issued in 2026 is
  valid to 31/12/2026, its renewal asked until 30/09/2026 and valid for 2027.
  A licence issued after that year's date may be renewed while it is in force.
* **Renewal window** (``renewal``): ``from_days_before``/``to_days_before``
  count back from the last day of validity ("antecedência máxima de 240 e
  mínima de 60 dias, contados da data final", LC 324/2025, art. 166); an act
  that sets only the latest day ("solicitada 30 dias antes do encerramento",
  Lei 1.171/2014, art. 23, § 1º; art. 5º, § 3º) opens the window at issue.
  The renewed permit starts the day after the old one ends, for the same
  term; the old one is superseded at once (LC 324/2025, art. 166, parágrafo
  único: "fica revogado automaticamente o TPU vigente em caso de obtenção de
  novo Termo").
* **Start-up deadlines** come from the kind's ``startup`` and from the
  regime's ``[[deadlines]]`` counted from the issue (``from`` = ``issue``,
  ``permit-grant`` or ``approval-notice``): start the activity (closed by a
  ``started`` event), use the licence (``non-use``), pick it up
  (``permit-pickup``, ``licence-collection``; closed by ``picked-up``). A
  TPU's 90 days count from its publication (LC 324/2025, art. 176), taken as
  the issue date. Business days skip weekends and the national and state
  holidays (municipal ones when the deadline desk records them).
* **History for waiting periods**: a revocation (``revocation``; with
  ``abandonment`` when the ground is abandoning the feira, Lei 9.158/2014,
  art. 26, IV and parágrafo único), an expiry (``expiry``, dated the first day
  without licence — Dec. 890/2017, art. 12, § 2º: "contados da data em que
  perdeu o direito à licença") and a cancellation (``cancellation``) — not a
  cancellation the holder asked for (Dec. 890/2017, art. 12, § 3º; LC
  324/2025, art. 180), nor a permit superseded by its renewal, transfer or
  exchange.
* **Transfer to an heir** only where the kind's ``transfer`` says the act
  allows it (e.g. Lei 9.158/2014, art. 17), for the remaining term.
* **Leave** (``leave``): at most ``max_days_per_year`` days per calendar year
  in at most ``max_periods`` periods, asked ``notice_days`` ahead (Lei
  9.158/2014, art. 16 and § 1º).

The package, one module per seam (each imports only those listed before it):

* :mod:`~models.permits.tables` — the statuses and the three tables (``Permit``, ``PermitEvent``,
  ``PermitDocument``); imports the registry's tables and nothing else of the package.
* :mod:`~models.permits.steps` — the small steps every workflow shares: the permit's regime, an event recorded,
  a status moved or a permit claimed under the optimistic lock, the next number.
* :mod:`~models.permits.term` — how long a permit runs (validity, exercise, event days).
* :mod:`~models.permits.facts` — what the eligibility engine reads about permits already held.
* :mod:`~models.permits.queries` — finding a permit, its standing, the Permissões list and a permit's history.
* :mod:`~models.permits.lifecycle` — suspension, reactivation, revocation, cancellation, expiry.
* :mod:`~models.permits.renewal` — the renewal window, the documents on file, what is due for renewal.
* :mod:`~models.permits.startup` and :mod:`~models.permits.leave` — start-up deadlines; the yearly rest.
* :mod:`~models.permits.today` — what the Painel shows today.
* :mod:`~models.permits.document` — the printed permit and its signed QR text (:mod:`~models.permits.permit_doc`).
* Issuing a permit (from an application, by renewal, transfer or exchange) reads the applicant's facts and
  creates the charges: it is a step above the subjects, :mod:`models.services.issuing`.
* :mod:`~models.permits.signatures` — verifying a permit's QR and signing again: above the keys
  (:mod:`models.access.signing_keys`) and the permits' tables; not re-exported either.

Across packages, from the bottom up (each imports only what is below it, function-level imports included —
tests/test_import_graph.py and the import-linter contracts in pyproject.toml): registry.people and
registry.applications → these permit modules (but signatures) → billing (fiscal, pricing, charges, fee_report) →
sites, selection, enforcement → services (filing, front_desk, issuing, calls, importer).
"""

from __future__ import annotations

from models.permits.document import permit_document
from models.permits.facts import active_count, history_facts_for, permit_facts_for, quota_count, related_holders
from models.permits.leave import grant_leave
from models.permits.lifecycle import cancel, expire_due, reactivate, revoke, suspend
from models.permits.queries import (
    ROWS_LIMIT,
    PermitRow,
    find_permit,
    permit_history,
    permit_rows,
    successor_of,
)
from models.permits.renewal import (
    RenewalDecreeInput,
    decree_choices,
    decree_text,
    documents_on_file,
    due_for_renewal,
    record_renewal_decree,
    renewal_by_decree,
    renewal_decree,
    renewal_decrees,
    renewal_window,
)
from models.permits.startup import (
    extend_startup,
    record_picked_up,
    record_started,
    startup_deadlines,
)
from models.permits.tables import (
    LIVE_STATUSES,
    Permit,
    PermitDocument,
    PermitEvent,
    RenewalDecree,
)
from models.permits.term import (
    permit_term,
)
from models.permits.today import TodayItem, today_items

__all__ = [
    "LIVE_STATUSES",
    "ROWS_LIMIT",
    "Permit",
    "PermitDocument",
    "PermitEvent",
    "PermitRow",
    "RenewalDecree",
    "RenewalDecreeInput",
    "TodayItem",
    "active_count",
    "cancel",
    "decree_choices",
    "decree_text",
    "documents_on_file",
    "due_for_renewal",
    "expire_due",
    "extend_startup",
    "find_permit",
    "grant_leave",
    "history_facts_for",
    "permit_document",
    "permit_facts_for",
    "permit_history",
    "permit_rows",
    "permit_term",
    "quota_count",
    "reactivate",
    "record_picked_up",
    "record_renewal_decree",
    "record_started",
    "related_holders",
    "renewal_by_decree",
    "renewal_decree",
    "renewal_decrees",
    "renewal_window",
    "revoke",
    "startup_deadlines",
    "successor_of",
    "suspend",
    "today_items",
]
