"""Fiscalização: notices, infraction records, seizures and interdictions, defences and appeals.

A **record** (:class:`Record`) is an issued act: once numbered it is never
edited. What the acts require is frozen on it when it is issued (Olímpia, LC
324/2025, art. 28 and 32; Ilha Comprida, Dec. 890/2017, art. 29): the date,
time and place, the offender (a registered person or company, or someone not
identified, described by name and looks), the permit if any, the facts, the
articles infringed (codes of the regime's catalogue), the witnesses, whether
the offender signed or refused (art. 28, § 1º; art. 32, §§ 2º–3º), the
inspector and his registration number, the photos (kept with their SHA-256),
the sanction proposed by :func:`models.enforcement.sanctions.propose_sanction` with its
formula and articles and any adjustment with its written reason, and the
deadlines counted by :func:`models.rules.deadlines.compute_deadline`.

* Numbers are gapless per kind and year (``AAAA/NNNNN``, counter
  ``record-<kind>-<year>``), taken inside the transaction that writes the
  record.
* A **correction** is a new record that refers to the old one; the old one
  only changes status (*corrigido*) and the deadlines start again from the
  new notification (Olímpia art. 32, § 4º). An offender recorded without
  identification is **identified** the same way, by a new record.
* An infraction record that follows a **notice** not complied with (Olímpia
  art. 29) and a seizure or interdiction record drawn up with it (art. 33) are
  the same occurrence: together they count once for recurrence.
* **Recurrence**: the offender's earlier occurrences, by nature, inside the
  regime's window, feed the proposal (Olímpia art. 12, § 1º; art. 17, § 1º).
* **Fines become charges** (``models.billing.charges.create_charge(kind="fine")``) in
  the transaction that issues the record, due at the act's payment deadline
  (or on the date the clerk enters where the act sets none).
* **Seizures**: items with quantity, perishable or not, and depot; a daily
  depot fee where the act sets one (Olímpia art. 145, § 2º and 215, § 4º:
  1 UFESP per day), reclaim deadlines, release only after the fines and fees
  are paid (art. 23, parágrafo único; Sapezal art. 52, § 1º), donation when
  not claimed in time (Olímpia art. 24; art. 215, § 2º).
* **Defence and appeal** (:class:`Contest`): filed with a date, before the
  instance; suspensive where the authority or the act gives it; the decision
  (upheld, partly upheld, annulled) updates the fine's charge; a final
  decision closes the administrative instance.
* Unpaid fines past their deadline are listed for inscription in **dívida
  ativa** (Olímpia art. 11, § 1º).

* **Decisions**: a sanction the act leaves to the authority, or ties to a
  fact, is proposed; the authority imposes or omits it with a written reason,
  and records the fact (the day it was verified, who verified it) — when the
  record is drawn up (``RecordDraft.adjustments``) or later
  (:func:`decide_sanctions`, a new event on the record; a fine imposed then
  becomes a charge). :func:`current_proposal` is the record's proposal with
  every later decision.

Which of the regime's ``[[deadlines]]`` run for a record is read from what the
deadline declares: its ``role`` (compliance, payment, defence, appeal,
reclaim…), its ``from`` event, ``applies_to`` (the sanctions it follows),
``perishable`` (reclaim) and ``matter`` (the scopes it is for: where an act has
a general deadline and one for a matter — ``defence`` and ``defence-tpu`` —
the matter's applies when the record's scope is one of them); an
``alternative`` deadline is offered to the inspector, never chosen alone.
"""

from __future__ import annotations

from models.enforcement.alerts import enforcement_alerts
from models.enforcement.contests import decide_contest, file_contest
from models.enforcement.deadline_roles import ROLES, deadline_role
from models.enforcement.debts import DebtRow, debt_register
from models.enforcement.decisions import (
    apply_to_permit,
    charged_fines_total,
    current_proposal,
    current_sanctions,
    decide_sanctions,
)
from models.enforcement.drafts import (
    AdjustInput,
    ItemInput,
    RecordDraft,
    Witness,
    default_regime_id,
    infractions_matching,
    offender_matches,
    permit_label,
    permit_number_of,
)
from models.enforcement.issuing import (
    correct_record,
    default_final,
    draft_from,
    followers_of,
    identify_offender,
    issue_record,
)
from models.enforcement.proposal import Preview, explain, preview
from models.enforcement.reading import (
    charges_of,
    contests_of,
    current_fine,
    deadline_rows,
    events_of,
    files_of,
    fine_status,
    get_record,
    items_of,
    moved_deadlines,
    record_rows,
    situation,
)
from models.enforcement.seizures import (
    SeizedRow,
    charge_depot_fee,
    depot_fee,
    donate_items,
    release_items,
    seized_goods,
)
from models.enforcement.tables import (
    CONTEST_KINDS,
    DECISION_LABELS,
    INSTANCES,
    KINDS,
    OUTCOMES,
    RELATIONS,
    SIGNATURES,
    STATUSES,
    ZERO,
    Contest,
    Record,
    RecordCharge,
    RecordEvent,
    RecordFile,
    SeizedItem,
)

__all__ = [
    "CONTEST_KINDS",
    "DECISION_LABELS",
    "INSTANCES",
    "KINDS",
    "OUTCOMES",
    "RELATIONS",
    "ROLES",
    "SIGNATURES",
    "STATUSES",
    "ZERO",
    "AdjustInput",
    "Contest",
    "DebtRow",
    "ItemInput",
    "Preview",
    "Record",
    "RecordCharge",
    "RecordDraft",
    "RecordEvent",
    "RecordFile",
    "SeizedItem",
    "SeizedRow",
    "Witness",
    "apply_to_permit",
    "charge_depot_fee",
    "charged_fines_total",
    "charges_of",
    "contests_of",
    "correct_record",
    "current_fine",
    "current_proposal",
    "current_sanctions",
    "deadline_role",
    "deadline_rows",
    "debt_register",
    "decide_contest",
    "decide_sanctions",
    "default_final",
    "default_regime_id",
    "depot_fee",
    "donate_items",
    "draft_from",
    "enforcement_alerts",
    "events_of",
    "explain",
    "file_contest",
    "files_of",
    "fine_status",
    "followers_of",
    "get_record",
    "identify_offender",
    "infractions_matching",
    "issue_record",
    "items_of",
    "moved_deadlines",
    "offender_matches",
    "permit_label",
    "permit_number_of",
    "preview",
    "record_rows",
    "release_items",
    "seized_goods",
    "situation",
]
