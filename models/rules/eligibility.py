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
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Any

from models.base.money import format_brl
from models.rules import describe
from models.rules.regimes import PermitKind, Regime, Rule, get_regime

__all__ = [
    "DUE_LATER",
    "ELIGIBLE",
    "FAILED",
    "HISTORY_KINDS",
    "INACTIVE_STATUSES",
    "INELIGIBLE",
    "MANUAL",
    "MISSING",
    "PASSED",
    "PENDING",
    "RELATIONS",
    "SCOPE_RELATIONS",
    "STATUSES",
    "VERDICTS",
    "ApplicantFacts",
    "DebtFacts",
    "DocumentFacts",
    "DueFacts",
    "Eligibility",
    "EligibilitySummary",
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
    "verdict_of",
    "wait_end",
]

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

_RELATION_TEXT = {
    "self": "o próprio requerente",
    "spouse": "cônjuge",
    "partner": "companheiro(a)",
    "dependant": "dependente",
    "family": "familiar",
    "business-partner": "sócio",
}
_SCOPE_TEXT = {
    "person": "o próprio requerente",
    "spouse": "cônjuge ou companheiro(a)",
    "partners": "sócio",
    "dependants": "dependente",
    "family": "membro do núcleo familiar",
    "household": "membro do núcleo familiar",
}
_EVENT_TEXT = {
    "revocation": "cassação",
    "expiry": "vencimento da licença",
    "abandonment": "abandono",
    "cancellation": "cancelamento",
}
_BENEFICIARY_TEXT = {
    "elderly": "idoso",
    "disabled": "pessoa com deficiência",
    "no-income": "sem outra fonte de renda",
    "low-income": "baixa renda",
}
_FORM_TEXT = {"person": "pessoa física", "company": "pessoa jurídica", "mei": "MEI"}


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


# --------------------------------------------------------------------------- dates


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` + ``months`` calendar months, same day of the month, clamped to the month's end."""
    index = day.year * 12 + (day.month - 1) + months
    year, month0 = divmod(index, 12)
    month = month0 + 1
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day.day, last))


def wait_end(event: dt.date, months: int) -> dt.date:
    """The day a wait of ``months`` after ``event`` ends: from this day on, a new permit may be asked."""
    return add_months(event, months)


def elapsed(start: dt.date, end: dt.date) -> tuple[int, int, int]:
    """Whole (years, months, days) from ``start`` to ``end`` (``end`` ≥ ``start``)."""
    if end < start:
        return (0, 0, 0)
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if add_months(start, months) > end:
        months -= 1
    days = (end - add_months(start, months)).days
    return (months // 12, months % 12, days)


def age_on(birth: dt.date, today: dt.date) -> int:
    """Age in whole years on ``today`` (the birthday itself counts: born 10/05/2008 → 18 on 10/05/2026)."""
    years, _, _ = elapsed(birth, today)
    return years if today >= birth else -1


def document_last_valid_day(facts: DocumentFacts, validity_months: int | None) -> dt.date | None:
    """The last day a delivered document is valid, or ``None`` when it does not expire."""
    if facts.valid_until is not None:
        return facts.valid_until
    if validity_months:
        return add_months(facts.issued_on or facts.delivered_on, validity_months)
    return None


def _date(day: dt.date) -> str:
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _join(parts: list[str], conj: str = "e") -> str:
    parts = [p for p in parts if p]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {conj} " + parts[-1]


def _duration(years: int, months: int, days: int) -> str:
    parts = []
    if years:
        parts.append(_plural(years, "ano", "anos"))
    if months:
        parts.append(_plural(months, "mês", "meses"))
    if not parts:
        return _plural(days, "dia", "dias")
    return _join(parts)


def _years_text(n: int) -> str:
    return _plural(n, "ano", "anos")


def _months_text(n: int) -> str:
    return _plural(n, "mês", "meses")


# --------------------------------------------------------------------------- helpers


def rule_key(rule: Rule) -> str:
    """Key of ``admin_values`` for a rule whose number the act leaves to the Administration."""
    if rule.kind == "waiting-period" and rule.after:
        return f"waiting-period:{rule.after}"
    return rule.kind


@dataclass(frozen=True)
class _Context:
    regime: Regime
    kind: PermitKind
    facts: ApplicantFacts
    admin_values: Mapping[str, Any]

    def admin(self, rule: Rule) -> Any:
        return self.admin_values.get(rule_key(rule))

    def kind_label(self, kind_id: str) -> str:
        try:
            return self.regime.permit_kind(kind_id).label
        except Exception:  # a permit of a kind the regime no longer has: show its id
            return kind_id


def _same_rule(a: Rule, b: Rule) -> bool:
    return (a.kind, a.scope, a.after, a.basis, a.basis_act) == (b.kind, b.scope, b.after, b.basis, b.basis_act)


def _siblings(ctx: _Context, rule: Rule) -> list[tuple[PermitKind, Rule]]:
    """The permit kinds of the regime that carry the same rule (same article), this kind first."""
    found: list[tuple[PermitKind, Rule]] = [(ctx.kind, rule)]
    for other in ctx.regime.permit_kinds:
        if other.id == ctx.kind.id:
            continue
        for candidate in other.rules:
            if _same_rule(candidate, rule):
                found.append((other, candidate))
                break
    return found


def _kinds_text(ctx: _Context, kinds: list[PermitKind]) -> str:
    if len(kinds) == 1:
        return "deste tipo"
    return "dos tipos abrangidos pela regra (" + "; ".join(k.label for k in kinds) + ")"


def _more_than(rule: Rule) -> bool:
    """``resident`` with ``more_than = true``: "há mais de N anos" (strict)."""
    return rule.more_than


def _same_site(ctx: _Context, rule: Rule) -> bool:
    """``one-per`` with ``same_site = true``: only permits in the same feira/site count.

    The loader makes every copy of one article over several kinds agree, so the
    rule's own attribute is the rule's reading."""
    return rule.same_site


def _forms(facts: ApplicantFacts) -> set[str]:
    forms = {facts.applicant_type}
    if facts.is_mei:
        forms.add("mei")
    return forms


def _form_text(facts: ApplicantFacts) -> str:
    base = _FORM_TEXT.get(facts.applicant_type, facts.applicant_type)
    if facts.is_mei:
        return f"{base} (MEI)"
    if facts.is_mei is False:
        return f"{base} (sem MEI)"
    return base


def _site_text(site_id: str | None, label: str | None) -> str:
    if label:
        return label
    return site_id or "local não informado"


def _permit_text(ctx: _Context, permit: PermitFacts) -> str:
    parts = [ctx.kind_label(permit.permit_kind_id)]
    if permit.number:
        parts.append(f"nº {permit.number}")
    if permit.site_id or permit.site_label:
        parts.append(_site_text(permit.site_id, permit.site_label))
    who = _RELATION_TEXT.get(permit.relation, permit.relation)
    if permit.relation != "self":
        who = f"{who}{' ' + permit.holder_name if permit.holder_name else ''}"
        return f"{who}: " + ", ".join(parts)
    return ", ".join(parts)


# --------------------------------------------------------------------------- rule checks
# Each returns (status, reason).

Outcome = tuple[str, str]


def _check_min_age(ctx: _Context, rule: Rule) -> Outcome:
    years = rule.years if rule.years is not None else ctx.admin(rule)
    if years is None:
        return MANUAL, "A idade mínima é definida pela Administração e ainda não foi informada."
    years = int(years)
    facts = ctx.facts
    if facts.birth_date is None:
        if facts.applicant_type == "company":
            return MISSING, (
                f"Informe a data de nascimento do titular/responsável pela pessoa jurídica; "
                f"o ato exige {_years_text(years)}."
            )
        return MISSING, f"Data de nascimento não informada; o ato exige {_years_text(years)}."
    age = age_on(facts.birth_date, facts.today)
    comes_of_age = add_months(facts.birth_date, 12 * years)
    if age >= years:
        return PASSED, f"Idade {_years_text(max(age, 0))}; o ato exige {years}."
    return FAILED, (
        f"Idade {_years_text(max(age, 0))}; o ato exige {years} (completa {years} em {_date(comes_of_age)})."
    )


def _check_legally_capable(ctx: _Context, rule: Rule) -> Outcome:
    value = ctx.facts.legally_capable
    if value is None:
        return MISSING, "Capacidade civil não informada; o ato exige pessoa legalmente capaz."
    if value:
        return PASSED, "Pessoa legalmente capaz, como o ato exige."
    return FAILED, "Pessoa não legalmente capaz; o ato exige capacidade civil."


def _check_legal_form(ctx: _Context, rule: Rule) -> Outcome:
    facts = ctx.facts
    allowed = set(rule.allowed)
    allowed_text = _join([_FORM_TEXT.get(a, a) for a in rule.allowed])
    forms = _forms(facts)
    if forms & allowed:
        return PASSED, f"Forma jurídica: {_form_text(facts)}; o ato admite {allowed_text}."
    if facts.is_mei is None and "mei" in allowed:
        return MISSING, (f"Forma jurídica: {_form_text(facts)}; informe se é MEI — o ato admite {allowed_text}.")
    return FAILED, f"Forma jurídica: {_form_text(facts)}; o ato admite somente {allowed_text}."


def _yes_no(value: bool | None, yes: str, no: str, missing: str) -> Outcome:
    if value is None:
        return MISSING, missing
    return (PASSED, yes) if value else (FAILED, no)


def _check_cnpj(ctx: _Context, rule: Rule) -> Outcome:
    return _yes_no(
        ctx.facts.has_cnpj,
        "Possui CNPJ, como o ato exige.",
        "Não possui CNPJ; o ato exige inscrição no CNPJ.",
        "Informe se o requerente possui CNPJ; o ato o exige.",
    )


def _check_municipal_registration(ctx: _Context, rule: Rule) -> Outcome:
    return _yes_no(
        ctx.facts.has_municipal_registration,
        "Possui inscrição municipal (cadastro mobiliário), como o ato exige.",
        "Sem inscrição municipal (cadastro mobiliário); o ato a exige.",
        "Informe se o requerente tem inscrição municipal; o ato a exige.",
    )


def _check_resident(ctx: _Context, rule: Rule) -> Outcome:
    years = rule.years if rule.years is not None else ctx.admin(rule)
    if years is None and rule.admin_defined:
        return MANUAL, "O tempo mínimo de residência é definido pela Administração e ainda não foi informado."
    years = int(years or 0)
    strict = _more_than(rule)
    facts = ctx.facts
    if years == 0:
        need = "residir no município"
    else:
        need = f"{'mais de' if strict else 'pelo menos'} {_years_text(years)}"
    since = facts.resident_since
    if since is None:
        if facts.is_resident is False:
            return FAILED, f"Não reside no município; o ato exige {need if years else 'residência no município'}."
        return MISSING, f"Data de início da residência no município não informada; exige {need}."
    if since > facts.today:
        return FAILED, (f"Residência no município informada a partir de {_date(since)}, data futura; exige {need}.")
    held = _duration(*elapsed(since, facts.today))
    if years == 0:
        return PASSED, f"Reside no município desde {_date(since)} (há {held})."
    anniversary = add_months(since, 12 * years)
    ok = facts.today > anniversary if strict else facts.today >= anniversary
    text = f"Reside no município há {held} (desde {_date(since)}); exige {need}"
    if ok:
        return PASSED, text + "."
    first = anniversary + dt.timedelta(days=1) if strict else anniversary
    return FAILED, f"{text} — atende a partir de {_date(first)}."


def _check_document(ctx: _Context, rule: Rule) -> Outcome:
    doc_id = rule.document
    if not doc_id:
        return MANUAL, "Regra de documento sem o documento indicado; confira manualmente."
    try:
        document = ctx.regime.document(doc_id)
        label, months, condition = document.label, document.validity_months, document.condition
        recorded = document.recorded
    except Exception:  # the loader checks references; never crash the desk
        label, months, condition, recorded = doc_id, None, None, None
    facts = ctx.facts
    delivered = facts.documents.get(doc_id)
    if delivered is None and recorded == "municipal-registration" and facts.has_municipal_registration:
        # the act's file declares that the registration recorded in the form stands for this paper (issue 18 §4)
        return PASSED, f"{label}: inscrição municipal registrada no cadastro do requerente."
    if delivered is None:
        if condition:
            return MANUAL, f"{label}: não entregue; exigido só quando: {condition} Confira se é o caso."
        return FAILED, f"{label}: não entregue."
    if delivered.delivered_on > facts.today:
        return FAILED, (
            f"{label}: entrega registrada em {_date(delivered.delivered_on)}, depois de hoje ({_date(facts.today)})."
        )
    last = document_last_valid_day(delivered, months)
    where = f"entregue em {_date(delivered.delivered_on)}"
    if last is None:
        return PASSED, f"{label}: {where}."
    how = "" if delivered.valid_until is not None else f" ({_months_text(months or 0)} de validade)"
    if facts.today <= last:
        return PASSED, f"{label}: {where}, válido até {_date(last)}{how}."
    return FAILED, f"{label}: {where}, vencido em {_date(last)}{how}; hoje é {_date(facts.today)}."


def _check_one_per(ctx: _Context, rule: Rule) -> Outcome:
    scope = rule.scope or "person"
    relations = SCOPE_RELATIONS.get(scope)
    if relations is None:
        return MANUAL, f"Abrangência '{scope}' desconhecida; confira manualmente."
    siblings = _siblings(ctx, rule)
    kinds = [k for k, _ in siblings]
    kind_ids = {k.id for k in kinds}
    facts = ctx.facts
    related = [
        p
        for p in facts.permits
        if p.regime_id == ctx.regime.id
        and p.permit_kind_id in kind_ids
        and p.relation in relations
        and (p.status or "").lower() not in INACTIVE_STATUSES
    ]
    who = _SCOPE_TEXT.get(scope, scope)
    what = _kinds_text(ctx, kinds)
    if scope == "person":
        clear = f"O requerente não tem outra permissão ativa {what}."
    else:
        clear = f"Nenhum {who} do requerente tem permissão ativa {what}."
    if _same_site(ctx, rule):
        wanted = facts.site_id
        place = _site_text(wanted, facts.site_label)
        if not related:
            return PASSED, clear[:-1] + (f" em {place}." if wanted else ".")
        if wanted is None:
            listing = "; ".join(_permit_text(ctx, p) for p in related)
            return MISSING, (
                f"Informe a feira/local pretendido: o ato veda {who} já permissionário na mesma "
                f"feira, e há permissão ativa: {listing}."
            )
        conflicts = [p for p in related if p.site_id == wanted]
        unknown = [p for p in related if p.site_id is None]
        if conflicts:
            listing = "; ".join(_permit_text(ctx, p) for p in conflicts)
            return FAILED, f"Já há {who} com permissão ativa na mesma feira ({place}): {listing}."
        if unknown:
            listing = "; ".join(_permit_text(ctx, p) for p in unknown)
            return MISSING, f"Informe a feira/local destas permissões de {who}: {listing}."
        others = "; ".join(_permit_text(ctx, p) for p in related)
        return PASSED, (
            f"Nenhum {who} com permissão ativa em {place}; há permissão em outra feira, o que o ato não veda: {others}."
        )
    if not related:
        return PASSED, clear
    listing = "; ".join(_permit_text(ctx, p) for p in related)
    if scope == "person":
        return (
            FAILED,
            f"O requerente já tem {_plural(len(related), 'permissão ativa', 'permissões ativas')}: {listing}.",
        )
    return FAILED, f"Já há {who} do requerente com permissão ativa: {listing}."


def _check_no_debts(ctx: _Context, rule: Rule) -> Outcome:
    debts = ctx.facts.debts
    if debts is None:
        return MISSING, "Situação de débitos com o município não verificada."
    open_debts = [d for d in debts if d.count > 0 or d.amount > 0]
    if not open_debts:
        return PASSED, "Nenhum débito em aberto com o município."
    count = sum(max(d.count, 1) for d in open_debts)
    total = sum((d.amount for d in open_debts), Decimal("0"))
    listing = "; ".join(
        f"{d.description} ({d.count} em aberto, {format_brl(d.amount)})"
        if d.count > 1
        else f"{d.description} ({format_brl(d.amount)})"
        for d in open_debts
    )
    return FAILED, (
        f"Há {_plural(count, 'débito', 'débitos')} em aberto com o município, "
        f"total {format_brl(total)}: {listing}. "
        f"Regularize antes de participar."
    )


def _events(ctx: _Context, rule: Rule, kind: str) -> tuple[list[HistoryFacts], list[PermitKind]]:
    kinds = [k for k, _ in _siblings(ctx, rule)]
    ids = {k.id for k in kinds}
    events = [
        e for e in ctx.facts.history if e.kind == kind and e.regime_id == ctx.regime.id and e.permit_kind_id in ids
    ]
    return events, kinds


def _wait_outcome(ctx: _Context, rule: Rule, event_kind: str, months: int) -> Outcome:
    events, kinds = _events(ctx, rule, event_kind)
    name = _EVENT_TEXT.get(event_kind, event_kind)
    if not events:
        where = "deste tipo de permissão" if len(kinds) == 1 else "nos tipos de permissão da regra"
        return PASSED, f"Nenhum registro de {name} {where}."
    today = ctx.facts.today
    last = max(events, key=lambda e: e.date)
    ends = wait_end(last.date, months)
    number = f" (nº {last.number})" if last.number else ""
    head = f"Último registro de {name} em {_date(last.date)}{number}; o ato exige {_months_text(months)}"
    if today >= ends:
        return PASSED, f"{head}, cumpridos em {_date(ends)}."
    return FAILED, f"{head}: pode requerer a partir de {_date(ends)}."


def _check_waiting_period(ctx: _Context, rule: Rule) -> Outcome:
    months = rule.months if rule.months is not None else ctx.admin(rule)
    if months is None:
        return MANUAL, "O prazo de espera é definido pela Administração e ainda não foi informado."
    return _wait_outcome(ctx, rule, rule.after or "revocation", int(months))


def _check_no_prior_revocation(ctx: _Context, rule: Rule) -> Outcome:
    months = rule.months if rule.months is not None else ctx.admin(rule)
    if months is None:
        return MANUAL, "O período sem cassação é definido pela Administração e ainda não foi informado."
    return _wait_outcome(ctx, rule, "revocation", int(months))


def _cap_value(ctx: _Context, rule: Rule) -> int | None:
    value = rule.count if rule.count is not None else ctx.admin(rule)
    return None if value is None else int(value)


def _check_cap(ctx: _Context, rule: Rule) -> Outcome:
    cap = _cap_value(ctx, rule)
    if cap is None:
        return MANUAL, "O número máximo de permissões é definido pela Administração e ainda não foi informado."
    active = ctx.facts.active_count
    if active is None:
        return MISSING, f"Número de permissões ativas deste tipo não informado; o ato limita a {cap}."
    if active < cap:
        return PASSED, f"Permissões ativas deste tipo: {active} de {cap}; resta(m) {cap - active} vaga(s)."
    return FAILED, f"Permissões ativas deste tipo: {active} de {cap} — limite de {cap} atingido."


def _check_quota(ctx: _Context, rule: Rule) -> Outcome:
    percent = rule.percent
    if percent is None:
        given = ctx.admin(rule)
        percent = None if given is None else Decimal(str(given)) if not isinstance(given, Decimal) else given
    if percent is None:
        return MANUAL, "O percentual da cota é definido pela Administração e ainda não foi informado."
    cap_rule = next((r for r in ctx.kind.rules if r.kind == "cap"), None)
    cap = _cap_value(ctx, cap_rule) if cap_rule is not None else None
    who = (
        _join([_BENEFICIARY_TEXT.get(b, b) for b in rule.beneficiaries], "ou")
        if rule.beneficiaries
        else "beneficiários"
    )
    pct = describe.percent(percent)
    if cap is None:
        return MANUAL, (f"Cota de {pct} para {who}: o total de vagas não está definido; confira a cota manualmente.")
    reserved = int((percent * cap).to_integral_value(rounding=ROUND_CEILING))
    general = cap - reserved
    facts = ctx.facts
    if facts.active_count is None or facts.quota_used is None:
        return MISSING, (
            f"Cota de {pct} para {who} ({reserved} de {cap} vagas): informe as permissões "
            f"ativas e as vagas da cota já ocupadas."
        )
    # beneficiaries beyond the reserved places hold general ones
    used_quota = min(max(facts.quota_used, 0), facts.active_count, reserved)
    used_general = max(facts.active_count - used_quota, 0)
    free_reserved = max(reserved - used_quota, 0)
    free_general = max(general - used_general, 0)
    reserved_text = f"vagas reservadas: {used_quota} de {reserved} ocupadas"
    general_text = f"vagas não reservadas: {used_general} de {general} ocupadas"
    beneficiary = facts.quota_beneficiary
    if beneficiary:
        cats = _join([_BENEFICIARY_TEXT.get(c, c) for c in facts.quota_categories])
        fits = f"Enquadra-se na cota de {pct} ({cats or who})"
        if free_reserved:
            return PASSED, f"{fits}; {reserved_text}, resta(m) {free_reserved}."
        if free_general:
            return PASSED, (
                f"{fits}, mas as {reserved} vagas reservadas estão ocupadas; concorre às vagas não "
                f"reservadas ({used_general} de {general} ocupadas, resta(m) {free_general})."
            )
        return FAILED, f"{fits}, mas não há vagas: {reserved_text}; {general_text}."
    if free_general:
        if beneficiary is False:
            prefix = f"Não se enquadra na cota de {pct} para {who}"
        else:
            prefix = (
                f"Cota de {pct} para {who}: enquadramento não informado, desnecessário enquanto "
                f"houver vaga não reservada"
            )
        return PASSED, f"{prefix}; {general_text}, resta(m) {free_general} ({reserved} reservadas à cota)."
    if beneficiary is None and free_reserved:
        return MISSING, (
            f"As {general} vagas não reservadas estão ocupadas e resta(m) {free_reserved} reservada(s) "
            f"a {who}: informe se o requerente se enquadra na cota de {pct}."
        )
    if free_reserved:
        return FAILED, (
            f"Não se enquadra na cota de {pct} para {who}; as {general} vagas não reservadas estão "
            f"ocupadas e as {free_reserved} restantes são reservadas à cota."
        )
    return FAILED, f"Sem vagas: {reserved_text}; {general_text}."


def _check_not_public_servant(ctx: _Context, rule: Rule) -> Outcome:
    servant = ctx.facts.public_servant
    return _yes_no(
        None if servant is None else not servant,
        "Não é servidor público, como o ato exige.",
        "É servidor público; o ato veda a permissão a servidor.",
        "Informe se o requerente é servidor público; o ato o veda.",
    )


def _check_custom(ctx: _Context, rule: Rule) -> Outcome:
    return MANUAL, f"Conferir: {rule.text or 'requisito definido no ato'}"


def _proves_residence(ctx: _Context, rule: Rule) -> bool:
    if rule.kind == "resident":
        return True
    if rule.kind != "document" or not rule.document:
        return False
    try:
        return ctx.regime.document(rule.document).proves == "residence"
    except Exception:  # the loader checks references; never crash the desk
        return False


def _non_resident(ctx: _Context, rule: Rule, outcome: Outcome) -> Outcome:
    """Where the act admits applicants from other municipalities (the kind's ``non_residents``: Sapezal art. 29
    and art. 32), a residence requirement — a ``resident`` rule, a document that ``proves`` residence — does not
    refuse one whose home or seat is elsewhere."""
    admitted = ctx.kind.non_residents
    if admitted is None or not _proves_residence(ctx, rule) or outcome[0] == PASSED:
        return outcome
    where = ctx.regime.cite_item(admitted)
    who = "empresa" if ctx.facts.applicant_type == "company" else "requerente"
    if ctx.facts.based_elsewhere:
        return PASSED, (
            f"Não se exige: {who} de outra localidade, que o ato admite ({where}); a residência no "
            f"município não a recusa."
        )
    if ctx.facts.based_elsewhere is None and outcome[0] in (FAILED, MISSING):
        place = "a sede da empresa" if who == "empresa" else "o endereço do requerente"
        return MISSING, (
            f"{outcome[1]} Informe {place}: o ato admite quem é de outra localidade ({where}), e então "
            f"a residência não é exigida."
        )
    return outcome


def _deferred(ctx: _Context, rule: Rule, outcome: Outcome) -> Outcome:
    """A rule the act asks later (``due``: Sapezal art. 11 — CNPJ, health and clearance certificates "publicada a
    lista definitiva … no prazo de 10 dias úteis") is not unmet at the application: it is due later, with the
    deadline once it runs, and unmet only when the deadline has passed."""
    if not rule.due or outcome[0] in (PASSED, MANUAL) or ctx.facts.issuing:
        return outcome
    reason = outcome[1].rstrip(".")
    known = ctx.facts.deadlines.get(rule.due)
    if known is not None:
        if ctx.facts.today > known.due:
            return FAILED, f"{reason} — o prazo para apresentar terminou em {_date(known.due)} ({known.basis})."
        return DUE_LATER, f"{reason} — a apresentar até {_date(known.due)}: {known.text} ({known.basis})."
    try:
        deadline = ctx.regime.deadline(rule.due)
        when = f"em {describe.deadline_text(deadline)} ({ctx.regime.cite_item(deadline)})"
    except Exception:  # the loader checks references; never crash the desk
        when = "no prazo do ato"
    return DUE_LATER, f"{reason} — a apresentar depois, {when}, não no requerimento."


_CHECKS: dict[str, Callable[[_Context, Rule], Outcome]] = {
    "min-age": _check_min_age,
    "legally-capable": _check_legally_capable,
    "legal-form": _check_legal_form,
    "cnpj-required": _check_cnpj,
    "municipal-registration": _check_municipal_registration,
    "resident": _check_resident,
    "document": _check_document,
    "one-per": _check_one_per,
    "no-debts": _check_no_debts,
    "no-prior-revocation": _check_no_prior_revocation,
    "waiting-period": _check_waiting_period,
    "cap": _check_cap,
    "quota": _check_quota,
    "not-public-servant": _check_not_public_servant,
    "custom": _check_custom,
}


def _label(rule: Rule, regime: Regime) -> str:
    if rule.admin_defined:
        name = describe.RULES.get(rule.kind, rule.kind)
        return f"{name[:1].upper()}{name[1:]} (definido pela Administração)"
    if rule.kind == "quota" and rule.percent is not None:
        who = _join([_BENEFICIARY_TEXT.get(b, b) for b in rule.beneficiaries], "ou")
        return f"Cota de {describe.percent(rule.percent)} para {who}"
    if rule.kind == "resident" and rule.years:
        return f"Residente no município há {'mais de' if _more_than(rule) else 'pelo menos'} {_years_text(rule.years)}"
    try:
        return describe.rule(rule, regime)
    except Exception:  # a label must never stop the evaluation
        return rule.kind


# --------------------------------------------------------------------------- API


def _regime(regime: Regime | str) -> Regime:
    return regime if isinstance(regime, Regime) else get_regime(regime)


def evaluate_rule(
    regime: Regime | str,
    permit_kind: PermitKind | str,
    rule: Rule,
    facts: ApplicantFacts,
    *,
    admin_values: Mapping[str, Any] | None = None,
    position: int | None = None,
) -> RuleResult:
    """Check one rule of ``permit_kind`` against ``facts``."""
    regime = _regime(regime)
    kind = permit_kind if isinstance(permit_kind, PermitKind) else regime.permit_kind(permit_kind)
    ctx = _Context(regime, kind, facts, dict(admin_values or {}))
    if position is None:
        position = next((i for i, r in enumerate(kind.rules) if r is rule), -1)
    check = _CHECKS.get(rule.kind)
    if check is None:
        status, reason = (
            MANUAL,
            (f"Regra de tipo '{rule.kind}' desconhecida por esta versão do Praça; confira manualmente."),
        )
    else:
        status, reason = _deferred(ctx, rule, _non_resident(ctx, rule, check(ctx, rule)))
    known = facts.deadlines.get(rule.due) if rule.due else None
    return RuleResult(
        rule=rule,
        status=status,
        reason=reason,
        article=regime.cite_item(rule),
        key=f"{position}:{rule.kind}",
        label=_label(rule, regime),
        due=known.due if known is not None else None,
    )


def evaluate_eligibility(
    regime: Regime | str,
    permit_kind: PermitKind | str,
    facts: ApplicantFacts,
    *,
    admin_values: Mapping[str, Any] | None = None,
    extra_rules: Iterable[Rule] = (),
    waived_documents: Mapping[str, str] | None = None,
) -> Eligibility:
    """Check every rule of ``permit_kind`` (in the regime's order) against ``facts``; ``extra_rules`` are what the
    application's own choices add (the proof of an exemption asked for: Olímpia art. 90, § 2º), and
    ``waived_documents`` the documents an exemption makes moot (``{document: citation}``: the receipts of a fee
    not charged), which pass saying so."""
    regime = _regime(regime)
    kind = permit_kind if isinstance(permit_kind, PermitKind) else regime.permit_kind(permit_kind)
    waived = dict(waived_documents or {})
    results = []
    for i, rule in enumerate((*kind.rules, *extra_rules)):
        result = evaluate_rule(regime, kind, rule, facts, admin_values=admin_values, position=i)
        if rule.kind == "document" and rule.document in waived:
            result = dataclasses.replace(
                result, status=PASSED, reason=f"Dispensado: {result.label} ({waived[rule.document]})."
            )
        results.append(result)
    return Eligibility(regime.id, kind.id, tuple(results), eligibility_summary(results))


def verdict_of(results: Iterable[RuleResult]) -> str:
    """Ineligible when a rule failed; pending while one needs the clerk or a fact; else eligible — a requirement
    due later (``due-later``) does not hold the application back: it is checked by its deadline."""
    statuses = [r.status for r in results if r.status != DUE_LATER]
    if FAILED in statuses:
        return INELIGIBLE
    if MANUAL in statuses or MISSING in statuses or any(s not in STATUSES for s in statuses):
        return PENDING
    return ELIGIBLE


def join_articles(citations: list[str]) -> str:
    """ "Lei 1.171/2014, art. 7º, I; art. 7º, II" — the act named once when it repeats."""
    out: list[str] = []
    previous_act = None
    for citation in dict.fromkeys(citations):
        act, sep, rest = citation.partition(", ")
        out.append(rest if sep and act == previous_act else citation)
        previous_act = act if sep else None
    return "; ".join(out)


def eligibility_summary(results: Iterable[RuleResult]) -> EligibilitySummary:
    """Counts by status, the verdict and a pt-BR headline."""
    results = list(results)
    passed = sum(r.status == PASSED for r in results)
    failed = [r for r in results if r.status == FAILED]
    manual = sum(r.status == MANUAL for r in results)
    missing = sum(r.status == MISSING for r in results)
    later = [r for r in results if r.status == DUE_LATER]
    verdict = verdict_of(results)
    total = len(results)
    if verdict == INELIGIBLE:
        articles = join_articles([r.article for r in failed])
        text = f"Não apto: {_plural(len(failed), 'requisito não atendido', 'requisitos não atendidos')} ({articles})."
    elif verdict == PENDING:
        parts = []
        if manual:
            parts.append(_plural(manual, "requisito a conferir pelo servidor", "requisitos a conferir pelo servidor"))
        if missing:
            parts.append(_plural(missing, "dado a informar", "dados a informar"))
        text = f"Pendente: {_join(parts)}; nenhum requisito descumprido."
    elif passed:
        text = f"Apto: {_plural(passed, 'requisito atendido', 'requisitos atendidos')}."
    elif not later:
        text = "Apto: o ato não fixa requisitos para este tipo de permissão."
    else:
        text = "Apto."
    if later and verdict != INELIGIBLE:
        text = (
            text.rstrip(".") + f"; {_plural(len(later), 'requisito a apresentar', 'requisitos a apresentar')} "
            f"depois, no prazo do ato ({join_articles([r.article for r in later])})."
        )
    return EligibilitySummary(verdict, total, passed, len(failed), manual, missing, text, len(later))


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
