"""Which of the regime's ``[[deadlines]]`` run for a record, read from what each deadline declares."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import TYPE_CHECKING

from models.rules import describe
from models.rules.deadlines import DeadlineResult
from models.rules.regimes import Regime
from models.rules.regimes.model import Deadline

if TYPE_CHECKING:
    from models.enforcement.drafts import RecordDraft

#: the roles of a regime's deadlines that run for a record (``Deadline.role``), with their labels
ROLES = {
    role: describe.ROLES[role]
    for role in (
        "compliance",
        "payment",
        "defence",
        "decision",
        "appeal",
        "appeal-decision",
        "payment-after-decision",
        "reclaim",
    )
}


#: the events of a record a deadline may run from (its start)
START_EVENTS = ("notification", "infraction-record", "infraction-record-receipt", "penalty")


def deadline_role(deadline: Deadline) -> str | None:
    """What a regime deadline is for a record (its declared ``role``), or None when it is not about one."""
    return deadline.role if deadline.role in ROLES else None


def deadline_matter(regime: Regime, draft: RecordDraft, codes: list[str]) -> str:
    """The record's matter: the one the inspector chose, else the one its infractions declare (``matter``)."""
    return draft.scope or regime.matter_of(codes)


def pick_deadline(candidates: list[Deadline], scope: str) -> list[Deadline]:
    """The deadlines for the record's matter: those declared for its scope, else the general ones (no
    ``matter``); an ``alternative`` one only when the inspector chooses it."""
    usual = [d for d in candidates if not d.alternative]
    named = [d for d in usual if scope and scope in d.matter]
    return named or [d for d in usual if not d.matter]


def role_candidates(regime: Regime, role: str, sanction_kinds: set[str] | None = None) -> list[Deadline]:
    found = [d for d in regime.deadlines if d.role == role]
    if sanction_kinds is not None and role not in ("compliance",):
        found = [d for d in found if not d.applies_to or set(d.applies_to) & sanction_kinds]
    return found


def _moment(text: str) -> _dt.date | _dt.datetime:
    return _dt.datetime.fromisoformat(text) if "T" in text or " " in text else _dt.date.fromisoformat(text)


def recount(record, stored: dict) -> dict:
    """``stored`` (a deadline as the record was issued with it) counted again from the same start, with the
    calendar as it is now — the town's holidays entered since included (issue 28 §1). The issued text is never
    changed; when the end moved, ``moved_from`` keeps where it ended before and ``moved_by`` the closed days that
    moved it. A deadline the act no longer declares, or one that cannot be counted again, is returned as issued."""
    from models.base.errors import UserError
    from models.rules.deadlines import compute_deadline
    from models.rules.regimes import get_regime

    kind, start = stored.get("kind"), stored.get("start")
    if not kind or not start:
        return stored
    try:
        regime = get_regime(record.regime, on=record.at.date())
        result = compute_deadline(regime, kind, _moment(start))
    except (UserError, KeyError, ValueError):
        return stored
    counted = result.to_dict()
    if counted["due"] == stored.get("due"):
        return stored
    fresh = {**stored, **counted, "moved_from": stored.get("due_text", ""), "moved_from_date": stored.get("due_date")}
    before = {h["date"] for h in stored.get("holidays", [])}
    fresh["moved_by"] = [h for h in counted["holidays"] if h["date"] not in before]
    return fresh


def deadline_dict(result: DeadlineResult, role: str, *, extra: Mapping | None = None) -> dict:
    data = result.to_dict()
    data["role"] = role
    data["role_label"] = ROLES.get(role, role)
    if extra:
        data.update(extra)
    return data


def start_for(event: str, at: _dt.datetime, notified: _dt.datetime) -> _dt.datetime | None:
    if event == "seizure":
        return at
    if event in START_EVENTS:
        return notified
    return None
