"""The vocabulary of a check (statuses, verdicts, relations), what Praça knows of an applicant
(:class:`ApplicantFacts` and its parts) and what a check answers (:class:`RuleResult`, :class:`Eligibility`),
with their JSON (:func:`to_dict`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from decimal import Decimal
from typing import Any

from models.rules.regimes.model import Rule

# --------------------------------------------------------------------------- vocabulary

PASSED = "passed"
FAILED = "failed"
MANUAL = "manual"
MISSING = "missing-data"
DUE_LATER = "due-later"  # the act asks it later, within a deadline, not at the application (Sapezal art. 11)
STATUSES = (PASSED, FAILED, MANUAL, MISSING, DUE_LATER)

ELIGIBLE = "eligible"
INELIGIBLE = "ineligible"
PENDING = "pending"
VERDICTS = (ELIGIBLE, INELIGIBLE, PENDING)

RELATIONS = ("self", "spouse", "partner", "dependant", "family", "business-partner")
SCOPE_RELATIONS: dict[str, frozenset[str]] = {
    "person": frozenset({"self"}),
    "spouse": frozenset({"spouse", "partner"}),
    "partners": frozenset({"business-partner"}),
    "dependants": frozenset({"dependant"}),
    "family": frozenset({"spouse", "partner", "dependant", "family"}),
    "household": frozenset({"spouse", "partner", "dependant", "family"}),
}
INACTIVE_STATUSES = frozenset(
    {
        "expired",
        "revoked",
        "cancelled",
        "canceled",
        "abandoned",
        "closed",
        "archived",
        "rejected",
        "refused",
        "withdrawn",
        "ended",
        "inactive",
        "void",
        "superseded",
    }
)
HISTORY_KINDS = ("revocation", "expiry", "abandonment", "cancellation")

RELATION_TEXT = {
    "self": "o próprio requerente",
    "spouse": "cônjuge",
    "partner": "companheiro(a)",
    "dependant": "dependente",
    "family": "familiar",
    "business-partner": "sócio",
}
SCOPE_TEXT = {
    "person": "o próprio requerente",
    "spouse": "cônjuge ou companheiro(a)",
    "partners": "sócio",
    "dependants": "dependente",
    "family": "membro do núcleo familiar",
    "household": "membro do núcleo familiar",
}
EVENT_TEXT = {
    "revocation": "cassação",
    "expiry": "vencimento da licença",
    "abandonment": "abandono",
    "cancellation": "cancelamento",
}
BENEFICIARY_TEXT = {
    "elderly": "idoso",
    "disabled": "pessoa com deficiência",
    "no-income": "sem outra fonte de renda",
    "low-income": "baixa renda",
}
FORM_TEXT = {"person": "pessoa física", "company": "pessoa jurídica", "mei": "MEI"}


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class DocumentFacts:
    """One document the applicant delivered."""

    delivered_on: dt.date
    valid_until: dt.date | None = None  # last valid day, as printed on the document
    issued_on: dt.date | None = None  # when known, validity_months counts from here


@dataclass(frozen=True)
class PermitFacts:
    """An existing permit of the applicant or of someone related to them."""

    regime_id: str
    permit_kind_id: str
    site_id: str | None = None
    status: str = "active"
    relation: str = "self"  # one of RELATIONS
    number: str | None = None
    site_label: str | None = None
    holder_name: str | None = None


@dataclass(frozen=True)
class DebtFacts:
    """Open charges or unpaid fines with the municipality (``count`` of them, ``amount`` in total)."""

    description: str
    amount: Decimal
    count: int = 1
    kind: str = "charge"  # "charge" | "fine"


@dataclass(frozen=True)
class HistoryFacts:
    """A past event of one of the applicant's permits."""

    kind: str  # one of HISTORY_KINDS
    date: dt.date
    permit_kind_id: str
    regime_id: str
    number: str | None = None


@dataclass(frozen=True)
class DueFacts:
    """The end of a deadline a rule defers to (``Rule.due``), worked out by the desk from the event it counts from."""

    due: dt.date
    text: str  # how: "10 dias úteis a partir de …: termina em …"
    basis: str  # the deadline's full citation


@dataclass(frozen=True)
class ApplicantFacts:
    """Everything the engine needs to know about one application, as plain values.

    ``None`` means *not known*: the rule that needs it is ``missing-data``.
    """

    applicant_type: str  # "person" | "company"
    today: dt.date
    is_mei: bool | None = None
    has_cnpj: bool | None = None
    has_municipal_registration: bool | None = None
    # the natural person (the applicant, or the MEI/partner who answers for the company)
    birth_date: dt.date | None = None
    legally_capable: bool | None = None
    resident_since: dt.date | None = None
    is_resident: bool | None = None  # False: does not live in the municipality
    public_servant: bool | None = None
    documents: Mapping[str, DocumentFacts] = field(default_factory=dict)
    permits: tuple[PermitFacts, ...] = ()  # active permits held by the applicant or related people
    debts: tuple[DebtFacts, ...] | None = None  # None: not checked; () : no debts
    history: tuple[HistoryFacts, ...] = ()
    active_count: int | None = None  # active permits of this kind in the regime (cap, quota)
    quota_used: int | None = None  # of those, places held under the quota
    quota_beneficiary: bool | None = None
    quota_categories: tuple[str, ...] = ()  # e.g. ("elderly",), for the message
    site_id: str | None = None  # the feira/site wanted
    site_label: str | None = None
    #: the applicant's home — a firm's seat — is in another municipality (None: not known)
    based_elsewhere: bool | None = None
    #: by deadline id: the end of the deadlines rules defer to (``Rule.due``), once the event they count from happened
    deadlines: Mapping[str, DueFacts] = field(default_factory=dict)
    #: a permit is being issued (or renewed, passed on): what the act asks later is due now
    issuing: bool = False


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class RuleResult:
    rule: Rule
    status: str  # one of STATUSES
    reason: str  # pt-BR, with the values
    article: str  # full citation, regime.cite_item(rule)
    key: str = ""  # "<position>:<kind>" in kind.rules — stable id for the clerk's tick
    label: str = ""  # the requirement in a few words
    due: dt.date | None = None  # a requirement the act asks later (``Rule.due``): its deadline, once it runs

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.rule.kind,
            "label": self.label,
            "status": self.status,
            "reason": self.reason,
            "article": self.article,
            "due": self.due.isoformat() if self.due else None,
            "rule": _jsonable(self.rule),
        }


@dataclass(frozen=True)
class EligibilitySummary:
    verdict: str  # one of VERDICTS
    total: int
    passed: int
    failed: int
    manual: int
    missing: int
    text: str  # pt-BR headline
    due_later: int = 0  # requirements the act asks later (their deadline in each reason)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "manual": self.manual,
            "missing_data": self.missing,
            "due_later": self.due_later,
            "text": self.text,
        }


@dataclass(frozen=True)
class Eligibility:
    regime_id: str
    permit_kind_id: str
    results: tuple[RuleResult, ...]
    summary: EligibilitySummary

    @property
    def verdict(self) -> str:
        return self.summary.verdict

    @property
    def eligible(self) -> bool:
        return self.summary.verdict == ELIGIBLE

    def by_status(self, status: str) -> tuple[RuleResult, ...]:
        return tuple(r for r in self.results if r.status == status)

    def to_dict(self) -> dict[str, Any]:
        return {
            "regime": self.regime_id,
            "permit_kind": self.permit_kind_id,
            "verdict": self.verdict,
            "summary": self.summary.to_dict(),
            "results": [r.to_dict() for r in self.results],
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return value


def to_dict(obj: Any) -> Any:
    """JSON-ready form of an :class:`Eligibility`, a :class:`RuleResult`, a summary, facts or a list of them."""
    return _jsonable(obj)
