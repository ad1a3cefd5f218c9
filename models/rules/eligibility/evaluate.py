"""The API: :func:`evaluate_rule`, :func:`evaluate_eligibility`, and the verdict and summary of the results."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from models.rules.eligibility.checks import CHECKS, deferred, non_resident, rule_label
from models.rules.eligibility.context import Context, join_words, plural
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
    Eligibility,
    EligibilitySummary,
    RuleResult,
)
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.model import PermitKind, Rule

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
    ctx = Context(regime, kind, facts, dict(admin_values or {}))
    if position is None:
        position = next((i for i, r in enumerate(kind.rules) if r is rule), -1)
    check = CHECKS.get(rule.kind)
    if check is None:
        status, reason = (
            MANUAL,
            (f"Regra de tipo '{rule.kind}' desconhecida por esta versão do Praça; confira manualmente."),
        )
    else:
        status, reason = deferred(ctx, rule, non_resident(ctx, rule, check(ctx, rule)))
    known = facts.deadlines.get(rule.due) if rule.due else None
    return RuleResult(
        rule=rule,
        status=status,
        reason=reason,
        article=regime.cite_item(rule),
        key=f"{position}:{rule.kind}",
        label=rule_label(rule, regime),
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
        text = f"Não apto: {plural(len(failed), 'requisito não atendido', 'requisitos não atendidos')} ({articles})."
    elif verdict == PENDING:
        parts = []
        if manual:
            parts.append(plural(manual, "requisito a conferir pelo servidor", "requisitos a conferir pelo servidor"))
        if missing:
            parts.append(plural(missing, "dado a informar", "dados a informar"))
        text = f"Pendente: {join_words(parts)}; nenhum requisito descumprido."
    elif passed:
        text = f"Apto: {plural(passed, 'requisito atendido', 'requisitos atendidos')}."
    elif not later:
        text = "Apto: o ato não fixa requisitos para este tipo de permissão."
    else:
        text = "Apto."
    if later and verdict != INELIGIBLE:
        text = (
            text.rstrip(".") + f"; {plural(len(later), 'requisito a apresentar', 'requisitos a apresentar')} "
            f"depois, no prazo do ato ({join_articles([r.article for r in later])})."
        )
    return EligibilitySummary(verdict, total, passed, len(failed), manual, missing, text, len(later))
