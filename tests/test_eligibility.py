"""The eligibility engine (models/rules/eligibility/): pure, no database.

Every rule of every shipped regime is checked twice — with facts that pass it
and with facts that fail it — and the reason must show the values and the
article must be the rule's citation. Then the acts' own cases, and property
tests for the date arithmetic the rules share.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from factories import good_facts
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models.base.money import format_brl
from models.rules.eligibility import (
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
    HistoryFacts,
    PermitFacts,
    RuleResult,
    add_months,
    age_on,
    document_last_valid_day,
    elapsed,
    eligibility_summary,
    evaluate_eligibility,
    evaluate_rule,
    rule_key,
    to_dict,
    wait_end,
)
from models.rules.regimes import RULE_KINDS, get_regime, load_regimes
from models.rules.regimes.model import PermitKind, Rule

TODAY = dt.date(2026, 5, 14)
REGIMES = load_regimes()
ADMIN = {"cap": 100}  # a value for every cap the acts leave to the Administration

SCOPE_RELATION = {
    "person": "self",
    "spouse": "spouse",
    "partners": "business-partner",
    "dependants": "dependant",
    "family": "family",
    "household": "family",
}


def all_rules():
    for regime in REGIMES.values():
        for kind in regime.permit_kinds:
            for i, rule in enumerate(kind.rules):
                yield pytest.param(regime, kind, i, rule, id=f"{regime.id}/{kind.id}/{i}:{rule.kind}")


RULES = list(all_rules())
CHECKED_RULES = [p for p in RULES if p.values[3].kind != "custom"]
CUSTOM_RULES = [p for p in RULES if p.values[3].kind == "custom"]


def check(regime, kind, rule, facts, admin=ADMIN) -> RuleResult:
    result = evaluate_rule(regime, kind, rule, facts, admin_values=admin)
    assert result.status in STATUSES
    assert result.article == regime.cite_item(rule)
    assert result.reason and result.reason[0].isupper()
    return result


def _cap_of(kind, admin=ADMIN):
    cap_rule = next(r for r in kind.rules if r.kind == "cap")
    return cap_rule.count if cap_rule.count is not None else admin["cap"]


def failing(regime, kind, rule, good: ApplicantFacts) -> tuple[ApplicantFacts, list[str]]:
    """Facts that fail ``rule`` (and only it, as far as it matters) and what the reason must show."""
    today = good.today
    k = rule.kind
    if k == "min-age":
        years = rule.years
        birth = add_months(today, -12 * years) + dt.timedelta(days=1)
        return replace(good, birth_date=birth), [f"Idade {years - 1} anos", f"exige {years}"]
    if k == "legally-capable":
        return replace(good, legally_capable=False), ["não legalmente capaz"]
    if k == "legal-form":
        if "person" not in rule.allowed:
            return replace(good, applicant_type="person", is_mei=False), ["pessoa física", "sem MEI"]
        return replace(good, applicant_type="company", is_mei=False), ["pessoa jurídica", "somente pessoa física"]
    if k == "cnpj-required":
        return replace(good, has_cnpj=False), ["Não possui CNPJ"]
    if k == "municipal-registration":
        return replace(good, has_municipal_registration=False), ["Sem inscrição municipal"]
    if k == "resident":
        since = add_months(today, -12 * rule.years) + dt.timedelta(days=1)
        held_years = rule.years - 1
        held = [] if not held_years else [f"há {held_years} ano" + ("s" if held_years > 1 else "")]
        return replace(good, resident_since=since), [*held, "11 meses", f"{rule.years} ano", since.strftime("%d/%m/%Y")]
    if k == "document":
        documents = dict(good.documents)
        del documents[rule.document]
        return replace(good, documents=documents), [regime.document(rule.document).label, "não entregue"]
    if k == "one-per":
        permit = PermitFacts(
            regime.id, kind.id, site_id=good.site_id, relation=SCOPE_RELATION[rule.scope], number="77/2026"
        )
        return replace(good, permits=(permit,)), [kind.label, "nº 77/2026"]
    if k == "no-debts":
        debt = DebtFacts("Preço público de ocupação vencido", Decimal("124.87"))
        return replace(good, debts=(debt,)), ["1 débito", "R$ 124,87", "Preço público de ocupação vencido"]
    if k == "waiting-period":
        event = add_months(today, -(rule.months - 1))
        history = (HistoryFacts(rule.after, event, kind.id, regime.id),)
        ends = add_months(event, rule.months)
        return replace(good, history=history), [
            event.strftime("%d/%m/%Y"),
            ends.strftime("%d/%m/%Y"),
            f"{rule.months} meses",
        ]
    if k == "cap":
        cap = rule.count if rule.count is not None else ADMIN["cap"]
        return replace(good, active_count=cap), [f"{cap} de {cap}"]
    if k == "quota":
        cap = _cap_of(kind)
        reserved = -(-rule.percent * cap // 1)
        general = cap - int(reserved)
        return replace(good, active_count=general, quota_used=0, quota_beneficiary=False), [
            f"{general} vagas não reservadas",
            f"{int(reserved)} restantes",
        ]
    raise AssertionError(f"no failing facts for {k}")


# --------------------------------------------------------------------------- every rule, every regime


def test_every_rule_kind_is_covered_by_a_regime_or_a_synthetic_case():
    shipped = {p.values[3].kind for p in RULES}
    synthetic = {"no-prior-revocation", "not-public-servant"}  # no shipped act has them: tested below
    assert shipped | synthetic == set(RULE_KINDS)
    assert not shipped & synthetic, "a shipped rule kind would be tested only synthetically"


@pytest.mark.parametrize("regime, kind, index, rule", CHECKED_RULES)
def test_rule_passes_with_good_facts(regime, kind, index, rule):
    result = check(regime, kind, rule, good_facts(regime, kind))
    assert result.status == PASSED, result.reason
    assert result.key == f"{index}:{rule.kind}"


@pytest.mark.parametrize("regime, kind, index, rule", CHECKED_RULES)
def test_rule_fails_with_bad_facts_and_says_why(regime, kind, index, rule):
    good = good_facts(regime, kind)
    bad, expected = failing(regime, kind, rule, good)
    if rule.due:  # asked after the application (Sapezal art. 11): unmet when the permit is issued
        bad = replace(bad, issuing=True)
    result = check(regime, kind, rule, bad)
    assert result.status == FAILED, result.reason
    for text in expected:
        assert text in result.reason, (text, result.reason)
    # the whole application is then ineligible, and the summary cites the article
    whole = evaluate_eligibility(regime, kind, bad, admin_values=ADMIN)
    assert whole.verdict == INELIGIBLE
    assert whole.results[index].status == FAILED
    assert rule.basis in whole.summary.text


@pytest.mark.parametrize("regime, kind, index, rule", CUSTOM_RULES)
def test_custom_rule_is_always_manual_with_its_text(regime, kind, index, rule):
    for facts in (good_facts(regime, kind), ApplicantFacts("person", TODAY)):
        result = check(regime, kind, rule, facts)
        assert result.status == MANUAL
        assert rule.text in result.reason


@pytest.mark.parametrize("regime, kind, index, rule", CHECKED_RULES)
def test_rule_never_crashes_without_facts(regime, kind, index, rule):
    for applicant in ("person", "company"):
        result = check(regime, kind, rule, ApplicantFacts(applicant, TODAY), admin=None)
        assert result.status in (
            (MISSING, MANUAL, FAILED, PASSED, DUE_LATER) if rule.due else (MISSING, MANUAL, FAILED, PASSED)
        )
        if (
            rule.kind
            in ("min-age", "legally-capable", "cnpj-required", "municipal-registration", "resident", "no-debts")
            and not rule.due
        ):
            assert result.status == MISSING, result.reason


@pytest.mark.parametrize("regime_id", sorted(REGIMES))
def test_good_facts_leave_only_manual_rules(regime_id):
    regime = REGIMES[regime_id]
    for kind in regime.permit_kinds:
        outcome = evaluate_eligibility(regime, kind.id, good_facts(regime, kind), admin_values=ADMIN)
        assert [r.rule for r in outcome.results] == list(kind.rules)
        manual = [r for r in outcome.results if r.status != PASSED]
        assert all(r.status == MANUAL and r.rule.kind == "custom" for r in manual), [r.reason for r in manual]
        assert outcome.verdict == (PENDING if manual else ELIGIBLE)
        json.dumps(outcome.to_dict())


# --------------------------------------------------------------------------- rule kinds no act uses yet


def synthetic_kind(*rules: Rule) -> PermitKind:
    return PermitKind(
        id="synthetic",
        label="Permissão de teste",
        instrument="autorização",
        holder=("person",),
        basis="art. 1º",
        rules=tuple(rules),
    )


def test_no_prior_revocation():
    regime = get_regime("olimpia-2025")
    rule = Rule(kind="no-prior-revocation", basis="art. 999", months=24)
    kind = synthetic_kind(rule)
    base = ApplicantFacts("person", TODAY)
    assert check(regime, kind, rule, base).status == PASSED
    revoked = HistoryFacts("revocation", dt.date(2024, 6, 1), "synthetic", regime.id)
    result = check(regime, kind, rule, replace(base, history=(revoked,)))
    assert result.status == FAILED
    assert "01/06/2024" in result.reason and "01/06/2026" in result.reason and "24 meses" in result.reason
    assert result.article == "LC 324/2025, art. 999"
    assert check(regime, kind, rule, replace(base, history=(revoked,), today=dt.date(2026, 6, 1))).status == PASSED
    # a revocation in another regime or of another kind does not count
    elsewhere = replace(revoked, regime_id="sjc-2014")
    other_kind = replace(revoked, permit_kind_id="feira")
    assert check(regime, kind, rule, replace(base, history=(elsewhere, other_kind))).status == PASSED
    # an expiry is not a revocation
    assert check(regime, kind, rule, replace(base, history=(replace(revoked, kind="expiry"),))).status == PASSED


def test_not_public_servant():
    regime = get_regime("sjc-2014")
    rule = Rule(kind="not-public-servant", basis="art. 999")
    kind = synthetic_kind(rule)
    base = ApplicantFacts("person", TODAY)
    assert check(regime, kind, rule, base).status == MISSING
    assert check(regime, kind, rule, replace(base, public_servant=False)).status == PASSED
    result = check(regime, kind, rule, replace(base, public_servant=True))
    assert result.status == FAILED and "servidor público" in result.reason
    assert result.article == "Lei 9.158/2014, art. 999"


def test_unknown_rule_kind_is_manual_never_a_crash():
    regime = get_regime("sjc-2014")
    rule = Rule(kind="lunar-phase", basis="art. 1º")
    outcome = evaluate_eligibility(regime, synthetic_kind(rule), ApplicantFacts("person", TODAY))
    (result,) = outcome.results
    assert result.status == MANUAL
    assert "lunar-phase" in result.reason and "desconhecida" in result.reason
    assert outcome.verdict == PENDING


def test_admin_defined_values_are_manual_until_given():
    regime = get_regime("sapezal-2014")
    kind = regime.permit_kind("ponto-fixo")
    cap_rule = next(r for r in kind.rules if r.kind == "cap")
    assert cap_rule.admin_defined and rule_key(cap_rule) == "cap"
    facts = replace(good_facts(regime, kind), active_count=12)
    result = check(regime, kind, cap_rule, facts, admin=None)
    assert result.status == MANUAL and "Administração" in result.reason
    assert check(regime, kind, cap_rule, facts, admin={"cap": 13}).status == PASSED
    assert check(regime, kind, cap_rule, facts, admin={"cap": 12}).status == FAILED
    # an admin-defined age, residence, wait
    for rule, key in (
        (Rule(kind="min-age", basis="art. 1º", admin_defined=True), "min-age"),
        (Rule(kind="resident", basis="art. 1º", admin_defined=True), "resident"),
        (Rule(kind="waiting-period", basis="art. 1º", after="expiry", admin_defined=True), "waiting-period:expiry"),
    ):
        assert rule_key(rule) == key
        assert check(regime, synthetic_kind(rule), rule, facts, admin={}).status == MANUAL
        assert check(regime, synthetic_kind(rule), rule, facts, admin={key: 1}).status == PASSED


# --------------------------------------------------------------------------- the acts' own cases


class TestIlhaComprida:
    regime = get_regime("ilha-comprida-2017")
    kind = regime.permit_kind("ambulante-praia")

    def rule(self, kind_name):
        return next(r for r in self.kind.rules if r.kind == kind_name)

    def facts(self, **changes):
        return good_facts(self.regime, self.kind, **changes)

    def test_cap_280(self):
        cap = self.rule("cap")
        assert cap.count == 280
        assert check(self.regime, self.kind, cap, self.facts(active_count=279)).status == PASSED
        result = check(self.regime, self.kind, cap, self.facts(active_count=280))
        assert result.status == FAILED and "280 de 280" in result.reason
        assert result.article == "Dec. 890/2017, art. 11, § 1º"

    def quota(self, **changes):
        return check(self.regime, self.kind, self.rule("quota"), self.facts(**changes))

    def test_quota_10_percent_of_280_is_28_places(self):
        result = self.quota(active_count=100, quota_used=5, quota_beneficiary=True, quota_categories=("elderly",))
        assert result.status == PASSED
        assert "5 de 28" in result.reason and "resta(m) 23" in result.reason and "idoso" in result.reason
        assert result.article == "Dec. 890/2017, art. 11, § 2º"

    def test_non_beneficiary_never_fails_while_general_places_remain(self):
        # every reserved place taken, general places left
        result = self.quota(active_count=100, quota_used=28, quota_beneficiary=False)
        assert result.status == PASSED and "72 de 252" in result.reason
        # quota empty, 251 general places taken: one left
        assert self.quota(active_count=251, quota_used=0, quota_beneficiary=False).status == PASSED

    def test_non_beneficiary_fails_when_only_reserved_places_remain(self):
        result = self.quota(active_count=262, quota_used=10, quota_beneficiary=False)
        assert result.status == FAILED
        assert "252 vagas não reservadas" in result.reason and "18 restantes" in result.reason
        # while the cap itself still has room: 262 < 280
        assert check(self.regime, self.kind, self.rule("cap"), self.facts(active_count=262)).status == PASSED

    def test_beneficiary_takes_a_reserved_place_when_general_ones_are_gone(self):
        result = self.quota(active_count=262, quota_used=10, quota_beneficiary=True, quota_categories=("disabled",))
        assert result.status == PASSED and "10 de 28" in result.reason and "deficiência" in result.reason

    def test_beneficiary_competes_for_general_places_when_the_quota_is_full(self):
        result = self.quota(active_count=100, quota_used=28, quota_beneficiary=True)
        assert result.status == PASSED and "vagas reservadas estão ocupadas" in result.reason

    def test_beneficiaries_beyond_the_reserve_hold_general_places(self):
        # 40 beneficiaries hold permits: 28 in the reserve, 12 in general places; 222 others
        result = self.quota(active_count=262, quota_used=40, quota_beneficiary=False)
        assert result.status == PASSED and "234 de 252" in result.reason

    def test_labels_in_portuguese(self):
        outcome = evaluate_eligibility(self.regime, self.kind, self.facts())
        labels = {r.rule.kind: r.label for r in outcome.results}
        assert labels["quota"] == "Cota de 10 % para idoso ou pessoa com deficiência"
        assert labels["resident"] == "Residente no município há pelo menos 2 anos"

    def test_everything_full(self):
        for beneficiary in (True, False, None):
            result = self.quota(active_count=280, quota_used=28, quota_beneficiary=beneficiary)
            assert result.status == FAILED, beneficiary

    def test_unknown_beneficiary_matters_only_when_general_places_are_gone(self):
        assert self.quota(active_count=10, quota_used=0, quota_beneficiary=None).status == PASSED
        result = self.quota(active_count=252, quota_used=0, quota_beneficiary=None)
        assert result.status == MISSING and "enquadra" in result.reason
        assert self.quota(active_count=None).status == MISSING

    def test_resident_at_least_two_years(self):
        rule = self.rule("resident")
        since = dt.date(2024, 5, 14)
        assert check(self.regime, self.kind, rule, self.facts(resident_since=since)).status == PASSED
        result = check(self.regime, self.kind, rule, self.facts(resident_since=since + dt.timedelta(days=1)))
        assert result.status == FAILED and "pelo menos 2 anos" in result.reason and "15/05/2026" in result.reason

    def test_six_months_after_expiry(self):
        rule = self.rule("waiting-period")
        expiry = HistoryFacts("expiry", dt.date(2025, 11, 30), "ambulante-praia", self.regime.id)
        before = check(self.regime, self.kind, rule, self.facts(history=(expiry,), today=dt.date(2026, 5, 29)))
        assert before.status == FAILED
        assert "30/11/2025" in before.reason and "30/05/2026" in before.reason and "6 meses" in before.reason
        assert before.article == "Dec. 890/2017, art. 12, § 2º"
        on_the_day = check(self.regime, self.kind, rule, self.facts(history=(expiry,), today=dt.date(2026, 5, 30)))
        assert on_the_day.status == PASSED
        # a revocation is not what art. 12, § 2º waits for
        revoked = replace(expiry, kind="revocation")
        assert check(self.regime, self.kind, rule, self.facts(history=(revoked,))).status == PASSED

    def test_only_one_authorization_per_vendor(self):
        rule = self.rule("one-per")
        own = PermitFacts(self.regime.id, "ambulante-praia")
        assert check(self.regime, self.kind, rule, self.facts(permits=(own,))).status == FAILED
        # a spouse's authorization does not count for "uma autorização por vendedor"
        spouse = replace(own, relation="spouse")
        assert check(self.regime, self.kind, rule, self.facts(permits=(spouse,))).status == PASSED
        # nor does a permit no longer active
        assert (
            check(self.regime, self.kind, rule, self.facts(permits=(replace(own, status="expired"),))).status == PASSED
        )

    def test_only_a_mei_may_apply(self):
        rule = self.rule("legal-form")
        result = check(self.regime, self.kind, rule, self.facts(is_mei=False))
        assert result.status == FAILED and "o ato admite somente MEI" in result.reason
        assert check(self.regime, self.kind, rule, self.facts(is_mei=None)).status == MISSING


class TestSapezal:
    regime = get_regime("sapezal-2014")
    kind = regime.permit_kind("ponto-fixo")

    def rule(self, kind_name, **match):
        return next(
            r for r in self.kind.rules if r.kind == kind_name and all(getattr(r, k) == v for k, v in match.items())
        )

    def facts(self, **changes):
        return good_facts(self.regime, self.kind, **changes)

    def test_resident_more_than_one_year(self):
        rule = self.rule("resident")
        assert rule.years == 1
        exactly = check(self.regime, self.kind, rule, self.facts(resident_since=dt.date(2025, 5, 14)))
        assert exactly.status == FAILED
        assert "há 1 ano" in exactly.reason and "mais de 1 ano" in exactly.reason
        assert "15/05/2026" in exactly.reason
        assert exactly.article == "Lei 1.171/2014, art. 7º, parágrafo único, III; art. 7º, VI"
        one_day_more = check(self.regime, self.kind, rule, self.facts(resident_since=dt.date(2025, 5, 13)))
        assert one_day_more.status == PASSED
        result = check(self.regime, self.kind, rule, self.facts(resident_since=dt.date(2025, 2, 10)))
        assert result.status == PASSED
        assert (
            result.reason.startswith("Reside no município há 1 ano e 3 meses")
            and "exige mais de 1 ano" in result.reason
        )

    def test_label_says_more_than(self):
        result = check(self.regime, self.kind, self.rule("resident"), self.facts())
        assert result.label == "Residente no município há mais de 1 ano"

    def test_health_certificate_valid_six_months(self):
        """Art. 11, II: "renovável semestralmente" — checked when the licence is issued (asked after the list)."""
        rule = self.rule("document", document="health-certificate")
        assert self.regime.document("health-certificate").validity_months == 6
        self.facts = lambda **changes: good_facts(self.regime, self.kind, issuing=True, **changes)
        docs = dict(self.facts().documents)
        docs["health-certificate"] = DocumentFacts(delivered_on=dt.date(2026, 1, 10))
        on_last_day = check(self.regime, self.kind, rule, self.facts(documents=docs, today=dt.date(2026, 7, 10)))
        assert on_last_day.status == PASSED and "válido até 10/07/2026" in on_last_day.reason
        expired = check(self.regime, self.kind, rule, self.facts(documents=docs, today=dt.date(2026, 7, 11)))
        assert expired.status == FAILED
        assert "vencido em 10/07/2026" in expired.reason and "6 meses de validade" in expired.reason
        assert expired.article == "Lei 1.171/2014, art. 11, II"
        # the date printed on the certificate wins; validity counts from issue when it is known
        docs["health-certificate"] = DocumentFacts(delivered_on=dt.date(2026, 1, 10), valid_until=dt.date(2026, 3, 1))
        assert (
            check(self.regime, self.kind, rule, self.facts(documents=docs, today=dt.date(2026, 3, 2))).status == FAILED
        )
        docs["health-certificate"] = DocumentFacts(delivered_on=dt.date(2026, 1, 10), issued_on=dt.date(2025, 12, 1))
        assert (
            check(self.regime, self.kind, rule, self.facts(documents=docs, today=dt.date(2026, 6, 2))).status == FAILED
        )
        assert (
            check(self.regime, self.kind, rule, self.facts(documents=docs, today=dt.date(2026, 6, 1))).status == PASSED
        )

    def test_documents_without_validity_never_expire(self):
        rule = self.rule("document", document="identity-card")
        docs = dict(self.facts().documents)
        docs["identity-card"] = DocumentFacts(delivered_on=dt.date(2001, 1, 1))
        assert check(self.regime, self.kind, rule, self.facts(documents=docs)).status == PASSED

    def test_natural_persons_documents_are_required_from_a_company(self):
        # applies_to = ["person"] says whose document it is; the company applicant must still deliver it
        rule = self.rule("document", document="identity-card")
        docs = {k: v for k, v in self.facts().documents.items() if k != "identity-card"}
        result = check(self.regime, self.kind, rule, self.facts(applicant_type="company", documents=docs))
        assert result.status == FAILED

    def test_one_licence_per_entrepreneur_across_every_modality(self):
        rule = self.rule("one-per", scope="person")
        mobile = PermitFacts(self.regime.id, "movel", number="3/2025")
        result = check(self.regime, self.kind, rule, self.facts(permits=(mobile,)))
        assert result.status == FAILED and "Móvel" in result.reason
        # a permit of another regime is not a Sapezal licence
        assert (
            check(self.regime, self.kind, rule, self.facts(permits=(replace(mobile, regime_id="sjc-2014"),))).status
            == PASSED
        )

    def test_one_licence_per_family_spouse_included(self):
        rule = self.rule("one-per", scope="family")
        for relation in ("spouse", "partner", "dependant", "family"):
            permit = PermitFacts(self.regime.id, "feira-livre", relation=relation)
            result = check(self.regime, self.kind, rule, self.facts(permits=(permit,)))
            assert result.status == FAILED, relation
        partner = PermitFacts(self.regime.id, "feira-livre", relation="business-partner")
        assert check(self.regime, self.kind, rule, self.facts(permits=(partner,))).status == PASSED

    def test_age_eighteen_on_the_birthday(self):
        rule = self.rule("min-age")
        born = dt.date(2008, 5, 14)
        assert check(self.regime, self.kind, rule, self.facts(birth_date=born)).status == PASSED
        result = check(self.regime, self.kind, rule, self.facts(birth_date=born + dt.timedelta(days=1)))
        assert result.status == FAILED
        assert result.reason.startswith("Idade 17 anos; o ato exige 18") and "15/05/2026" in result.reason

    def test_debts_block_the_licence(self):
        rule = self.rule("no-debts")
        debts = (
            DebtFacts("Taxa de licença 2025", Decimal("80.00"), count=2),
            DebtFacts("Multa (art. 44)", Decimal("1234.5"), kind="fine"),
        )
        result = check(self.regime, self.kind, rule, self.facts(debts=debts))
        assert result.status == FAILED
        assert "3 débitos" in result.reason and "R$ 1.314,50" in result.reason and "2 em aberto" in result.reason
        assert check(self.regime, self.kind, rule, self.facts(debts=None)).status == MISSING


class TestSaoBento:
    regime = get_regime("sao-bento-2026")
    kind = regime.permit_kind("event-stall")

    def facts(self, **changes):
        return good_facts(self.regime, self.kind, **changes)

    def result(self, kind_name, facts):
        rule = next(r for r in self.kind.rules if r.kind == kind_name)
        return check(self.regime, self.kind, rule, facts)

    def test_cnpj_and_municipal_registration(self):
        assert self.result("cnpj-required", self.facts()).status == PASSED
        r = self.result("cnpj-required", self.facts(has_cnpj=False))
        assert r.status == FAILED and r.article == "Dec. 4.794/2026, art. 4º"
        r = self.result("municipal-registration", self.facts(has_municipal_registration=False))
        assert r.status == FAILED and r.article == "Dec. 4.794/2026, art. 4º"

    def test_a_person_without_cnpj_cannot_apply(self):
        r = self.result("legal-form", self.facts(applicant_type="person", is_mei=False))
        assert r.status == FAILED and "pessoa física" in r.reason
        # an MEI can (it has a CNPJ)
        assert self.result("legal-form", self.facts(applicant_type="person", is_mei=True)).status == PASSED

    def test_unpaid_tear_down_fine_blocks_participation(self):
        fine = DebtFacts(
            "Multa por não desmontar a barraca até o prazo (art. 2º, § 2º)", Decimal("150.00"), kind="fine"
        )
        r = self.result("no-debts", self.facts(debts=(fine,)))
        assert r.status == FAILED
        assert format_brl(Decimal("150")) in r.reason and "não desmontar" in r.reason
        outcome = evaluate_eligibility(self.regime, self.kind, self.facts(debts=(fine,)))
        assert outcome.verdict == INELIGIBLE and "art. 4º" in outcome.summary.text
        # paid: the company may take part again
        assert self.result("no-debts", self.facts(debts=())).status == PASSED

    def test_payment_proof(self):
        docs = {k: v for k, v in self.facts().documents.items() if k != "payment-proof"}
        r = self.result("document", self.facts(documents=docs))
        assert r.status == FAILED and "Comprovante de recolhimento" in r.reason


class TestSaoJoseDosCampos:
    regime = get_regime("sjc-2014")
    kind = regime.permit_kind("feirante")

    def rule(self, kind_name, **match):
        return next(
            r for r in self.kind.rules if r.kind == kind_name and all(getattr(r, k) == v for k, v in match.items())
        )

    def facts(self, **changes):
        return good_facts(self.regime, self.kind, **changes)

    @pytest.mark.parametrize(
        "scope, relation",
        [
            ("spouse", "spouse"),
            ("spouse", "partner"),
            ("partners", "business-partner"),
            ("dependants", "dependant"),
        ],
    )
    def test_relative_already_in_the_same_feira(self, scope, relation):
        rule = self.rule("one-per", scope=scope)
        permit = PermitFacts(
            self.regime.id, "feirante", site_id="feira-vila-ema", relation=relation, holder_name="Maria"
        )
        same = check(
            self.regime,
            self.kind,
            rule,
            self.facts(permits=(permit,), site_id="feira-vila-ema", site_label="Feira da Vila Ema"),
        )
        assert same.status == FAILED
        assert "mesma feira" in same.reason and "Feira da Vila Ema" in same.reason and "Maria" in same.reason
        assert same.article == "Lei 9.158/2014, art. 12"
        other = check(self.regime, self.kind, rule, self.facts(permits=(permit,), site_id="feira-centro"))
        assert other.status == PASSED and "outra feira" in other.reason
        unknown = check(self.regime, self.kind, rule, self.facts(permits=(permit,), site_id=None))
        assert unknown.status == MISSING

    def test_spouse_producer_counts_for_a_stallholder(self):
        # art. 12 binds feirante and produtor rural alike (the same article in both kinds)
        rule = self.rule("one-per", scope="spouse")
        permit = PermitFacts(self.regime.id, "produtor-rural", site_id="feira-1", relation="spouse")
        assert check(self.regime, self.kind, rule, self.facts(permits=(permit,))).status == FAILED
        producer = self.regime.permit_kind("produtor-rural")
        rule_p = next(r for r in producer.rules if r.kind == "one-per" and r.scope == "spouse")
        permit = PermitFacts(self.regime.id, "feirante", site_id="feira-1", relation="spouse")
        assert (
            check(self.regime, producer, rule_p, good_facts(self.regime, producer, permits=(permit,))).status == FAILED
        )
        permit = replace(permit, site_id="feira-2")
        assert (
            check(self.regime, producer, rule_p, good_facts(self.regime, producer, permits=(permit,))).status == PASSED
        )

    def test_one_stall_per_stallholder_in_any_feira(self):
        rule = self.rule("one-per", scope="person")
        own = PermitFacts(self.regime.id, "feirante", site_id="feira-2")
        assert check(self.regime, self.kind, rule, self.facts(permits=(own,))).status == FAILED

    def test_36_months_after_abandonment(self):
        rule = self.rule("waiting-period")
        assert (rule.after, rule.months) == ("abandonment", 36)
        left = HistoryFacts("abandonment", dt.date(2023, 3, 15), "feirante", self.regime.id)
        before = check(self.regime, self.kind, rule, self.facts(history=(left,), today=dt.date(2026, 3, 14)))
        assert before.status == FAILED
        assert "15/03/2023" in before.reason and "15/03/2026" in before.reason and "36 meses" in before.reason
        assert before.article == "Lei 9.158/2014, art. 26, parágrafo único"
        assert (
            check(self.regime, self.kind, rule, self.facts(history=(left,), today=dt.date(2026, 3, 15))).status
            == PASSED
        )
        # the latest abandonment binds
        again = replace(left, date=dt.date(2025, 1, 2))
        r = check(self.regime, self.kind, rule, self.facts(history=(left, again), today=dt.date(2026, 3, 15)))
        assert r.status == FAILED and "02/01/2028" in r.reason

    def test_natural_persons_legally_capable(self):
        r = check(self.regime, self.kind, self.rule("legal-form"), self.facts(applicant_type="company", is_mei=False))
        assert r.status == FAILED and "pessoa jurídica" in r.reason
        r = check(self.regime, self.kind, self.rule("legally-capable"), self.facts(legally_capable=None))
        assert r.status == MISSING


class TestOlimpia:
    regime = get_regime("olimpia-2025")
    tpu_a = regime.permit_kind("street-food-tpu-a")

    def rule(self, kind, kind_name, **match):
        return next(r for r in kind.rules if r.kind == kind_name and all(getattr(r, k) == v for k, v in match.items()))

    def test_no_tpu_for_natural_persons(self):
        rule = self.rule(self.tpu_a, "legal-form")
        facts = good_facts(self.regime, self.tpu_a, applicant_type="person", is_mei=False)
        r = check(self.regime, self.tpu_a, rule, facts)
        assert r.status == FAILED and "pessoa física" in r.reason
        assert r.article == "LC 324/2025, art. 162, § 1º"
        assert check(self.regime, self.tpu_a, rule, replace(facts, applicant_type="company")).status == PASSED
        # "titular de firma individual" (§ 2º): the MEI
        assert check(self.regime, self.tpu_a, rule, replace(facts, is_mei=True)).status == PASSED

    def test_one_tpu_per_person_across_categories(self):
        rule = self.rule(self.tpu_a, "one-per", scope="person")
        other_category = PermitFacts(self.regime.id, "street-food-tpu-c", number="TPU 9/2025")
        r = check(self.regime, self.tpu_a, rule, good_facts(self.regime, self.tpu_a, permits=(other_category,)))
        assert r.status == FAILED and "TPU 9/2025" in r.reason and "categoria C" in r.reason
        assert r.article == "LC 324/2025, art. 162"
        # a street-vending authorization is not a TPU
        vending = PermitFacts(self.regime.id, "street-vending")
        assert (
            check(self.regime, self.tpu_a, rule, good_facts(self.regime, self.tpu_a, permits=(vending,))).status
            == PASSED
        )

    def test_partner_or_spouse_of_a_permittee(self):
        for scope, relation in (("partners", "business-partner"), ("spouse", "spouse")):
            rule = self.rule(self.tpu_a, "one-per", scope=scope)
            permit = PermitFacts(self.regime.id, "street-food-tpu-b", relation=relation)
            facts = good_facts(self.regime, self.tpu_a, permits=(permit,))
            r = check(self.regime, self.tpu_a, rule, facts)
            assert r.status == FAILED and r.article == "LC 324/2025, art. 162, § 2º"
            # not limited to a site: any TPU
            r = check(self.regime, self.tpu_a, rule, replace(facts, site_id="ponto-7"))
            assert r.status == FAILED

    def test_twelve_months_after_revocation(self):
        kind = self.regime.permit_kind("street-vending")
        rule = self.rule(kind, "waiting-period")
        revoked = HistoryFacts("revocation", dt.date(2025, 6, 30), "street-vending", self.regime.id)
        before = check(
            self.regime, kind, rule, good_facts(self.regime, kind, history=(revoked,), today=dt.date(2026, 6, 29))
        )
        assert before.status == FAILED and "30/06/2026" in before.reason and "12 meses" in before.reason
        assert before.article == "LC 324/2025, art. 148"
        assert (
            check(
                self.regime, kind, rule, good_facts(self.regime, kind, history=(revoked,), today=dt.date(2026, 6, 30))
            ).status
            == PASSED
        )
        # art. 148 covers "ambulante ou eventual": a revoked event-trade authorization counts too
        eventual = replace(revoked, permit_kind_id="event-trade")
        assert (
            check(
                self.regime, kind, rule, good_facts(self.regime, kind, history=(eventual,), today=dt.date(2026, 6, 29))
            ).status
            == FAILED
        )
        # a revoked TPU does not
        tpu = replace(revoked, permit_kind_id="street-food-tpu-a")
        assert (
            check(
                self.regime, kind, rule, good_facts(self.regime, kind, history=(tpu,), today=dt.date(2026, 6, 29))
            ).status
            == PASSED
        )

    def test_feira_age_eighteen(self):
        kind = self.regime.permit_kind("feira")
        rule = self.rule(kind, "min-age")
        r = check(self.regime, kind, rule, good_facts(self.regime, kind, birth_date=dt.date(2009, 1, 1)))
        assert r.status == FAILED and r.reason.startswith("Idade 17 anos; o ato exige 18")
        assert r.article == "LC 324/2025, art. 207"


# --------------------------------------------------------------------------- verdicts and output


def _result(status, basis="art. 1º"):
    return RuleResult(Rule(kind="custom", basis=basis, text="x"), status, "Motivo.", f"Lei 1/2000, {basis}")


def test_verdicts():
    assert eligibility_summary([_result(PASSED), _result(PASSED)]).verdict == ELIGIBLE
    assert eligibility_summary([_result(PASSED), _result(MANUAL)]).verdict == PENDING
    assert eligibility_summary([_result(MISSING), _result(PASSED)]).verdict == PENDING
    assert eligibility_summary([_result(MANUAL), _result(FAILED), _result(MISSING)]).verdict == INELIGIBLE
    assert eligibility_summary([]).verdict == ELIGIBLE


def test_summary_text():
    s = eligibility_summary([_result(FAILED, "art. 7º, I"), _result(FAILED, "art. 7º, II"), _result(MANUAL)])
    assert (s.failed, s.manual, s.passed, s.missing, s.total) == (2, 1, 0, 0, 3)
    assert s.text == "Não apto: 2 requisitos não atendidos (Lei 1/2000, art. 7º, I; art. 7º, II)."
    s = eligibility_summary([_result(MANUAL), _result(MISSING), _result(MISSING)])
    assert s.text == (
        "Pendente: 1 requisito a conferir pelo servidor e 2 dados a informar; nenhum requisito descumprido."
    )
    assert eligibility_summary([_result(PASSED)]).text == "Apto: 1 requisito atendido."


def test_to_dict_is_json():
    regime = get_regime("ilha-comprida-2017")
    kind = regime.permit_kind("ambulante-praia")
    outcome = evaluate_eligibility(regime, kind.id, good_facts(regime, kind))
    data = json.loads(json.dumps(to_dict(outcome)))
    assert data["regime"] == "ilha-comprida-2017" and data["permit_kind"] == "ambulante-praia"
    assert data["verdict"] == PENDING
    assert len(data["results"]) == len(kind.rules)
    quota = next(r for r in data["results"] if r["kind"] == "quota")
    assert quota["rule"]["percent"] == "0.10" and quota["article"] == "Dec. 890/2017, art. 11, § 2º"
    assert set(quota) >= {"key", "kind", "label", "status", "reason", "article", "rule"}
    assert data["summary"]["verdict"] == PENDING
    json.dumps(to_dict(good_facts(regime, kind, debts=(DebtFacts("x", Decimal("1.50")),))))
    assert to_dict(outcome.results[0]) == outcome.results[0].to_dict()


def test_the_engine_is_pure():
    roots = set()
    for module in sorted((Path(__file__).resolve().parent.parent / "models" / "rules" / "eligibility").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                roots.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                roots.add(node.module)
    assert "models.rules.regimes" in roots  # the package's modules were read
    assert not {r for r in roots if r.split(".")[0] in ("peewee", "playhouse", "PySide6", "views", "desktop")}
    assert "models.store.db" not in roots and "models.store.schema" not in roots


# --------------------------------------------------------------------------- properties of the dates

dates = st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2090, 12, 31))


@given(dates, st.integers(min_value=0, max_value=600))
def test_add_months_never_before_and_keeps_the_day_when_it_can(day, months):
    end = add_months(day, months)
    assert end >= day
    assert (end.year * 12 + end.month) - (day.year * 12 + day.month) == months
    if day.day <= 28:
        assert end.day == day.day
    else:
        assert end.day == day.day or (end + dt.timedelta(days=1)).day == 1  # clamped to the month's end


@given(dates, dates, st.integers(min_value=0, max_value=600))
def test_add_months_is_monotone_in_the_date(a, b, months):
    assume(a <= b)
    assert add_months(a, months) <= add_months(b, months)


@given(dates, st.integers(min_value=0, max_value=300), st.integers(min_value=0, max_value=300))
def test_wait_end_is_monotone_in_the_months(day, m, n):
    assume(m <= n)
    assert day <= wait_end(day, m) <= wait_end(day, n)


@given(dates, st.integers(min_value=1, max_value=60), st.integers(min_value=-400, max_value=400))
def test_waiting_period_passes_exactly_from_its_end(event, months, offset):
    regime = get_regime("sjc-2014")
    kind = regime.permit_kind("feirante")
    rule = next(r for r in kind.rules if r.kind == "waiting-period")
    rule = replace(rule, months=months)
    today = wait_end(event, months) + dt.timedelta(days=offset)
    facts = ApplicantFacts("person", today, history=(HistoryFacts("abandonment", event, "feirante", regime.id),))
    status = evaluate_rule(regime, kind, rule, facts).status
    assert status == (PASSED if offset >= 0 else FAILED)


@given(st.dates(min_value=dt.date(1920, 1, 1), max_value=dt.date(2020, 12, 31)), st.integers(min_value=1, max_value=99))
@settings(max_examples=200)
def test_age_boundary(birth, years):
    regime = get_regime("sapezal-2014")
    kind = regime.permit_kind("ponto-fixo")
    rule = replace(next(r for r in kind.rules if r.kind == "min-age"), years=years)
    birthday = add_months(birth, 12 * years)
    on = evaluate_rule(regime, kind, rule, ApplicantFacts("company", birthday, birth_date=birth))
    before = evaluate_rule(
        regime, kind, rule, ApplicantFacts("company", birthday - dt.timedelta(days=1), birth_date=birth)
    )
    assert age_on(birth, birthday) == years and on.status == PASSED
    assert age_on(birth, birthday - dt.timedelta(days=1)) == years - 1 and before.status == FAILED
    assert f"Idade {years - 1} " in before.reason


@given(st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2008, 12, 31)))
def test_eighteen_on_the_birthday_itself(birth):
    assume(not (birth.month == 2 and birth.day == 29))
    birthday = birth.replace(year=birth.year + 18)
    regime = get_regime("olimpia-2025")
    kind = regime.permit_kind("feira")
    rule = next(r for r in kind.rules if r.kind == "min-age")
    assert evaluate_rule(regime, kind, rule, ApplicantFacts("person", birthday, birth_date=birth)).status == PASSED


@given(dates, dates)
def test_elapsed_adds_back_up(start, end):
    assume(start <= end)
    years, months, days = elapsed(start, end)
    assert 0 <= months < 12 and days >= 0
    assert add_months(start, 12 * years + months) + dt.timedelta(days=days) == end
    assert add_months(start, 12 * years + months + 1) > end


@given(
    st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2060, 12, 31)),
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=-100, max_value=100),
)
def test_document_validity(delivered, months, offset):
    regime = get_regime("sapezal-2014")
    kind = regime.permit_kind("ponto-fixo")
    rule = next(r for r in kind.rules if r.kind == "document" and r.document == "health-certificate")
    doc = DocumentFacts(delivered_on=delivered)
    last = document_last_valid_day(doc, months)
    assert last == add_months(delivered, months) and last >= delivered
    assert document_last_valid_day(doc, None) is None
    assert document_last_valid_day(replace(doc, valid_until=delivered), months) == delivered
    # with the regime's 6 months
    last6 = document_last_valid_day(doc, 6)
    today = last6 + dt.timedelta(days=offset)
    facts = ApplicantFacts("company", today, documents={"health-certificate": doc}, issuing=True)
    status = evaluate_rule(regime, kind, rule, facts).status
    if today < delivered:
        assert status == FAILED  # not delivered yet on that day
    else:
        assert status == (PASSED if today <= last6 else FAILED)


@given(
    st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2030, 12, 31)),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=-40, max_value=40),
)
def test_resident_strict_and_inclusive(since, years, offset):
    sapezal = get_regime("sapezal-2014")  # "há mais de"
    ilha = get_regime("ilha-comprida-2017")  # "no mínimo"
    anniversary = add_months(since, 12 * years)
    today = anniversary + dt.timedelta(days=offset)
    for regime, kind_id, strict in ((sapezal, "ponto-fixo", True), (ilha, "ambulante-praia", False)):
        kind = regime.permit_kind(kind_id)
        rule = replace(next(r for r in kind.rules if r.kind == "resident"), years=years)
        facts = ApplicantFacts("person", today, resident_since=since)
        status = evaluate_rule(regime, kind, rule, facts).status
        ok = offset > 0 if strict else offset >= 0
        assert status == (PASSED if ok else FAILED), (regime.id, offset)


def test_more_than_is_read_from_the_rule_not_the_town():
    regime = get_regime("sapezal-2014")
    kind = regime.permit_kind("ponto-fixo")
    rule = next(r for r in kind.rules if r.kind == "resident")
    facts = ApplicantFacts("company", TODAY, resident_since=add_months(TODAY, -12))
    assert rule.more_than  # "há mais de 01 (um) ano" — more_than = true in the regime file
    assert evaluate_rule(regime, kind, rule, facts).status == FAILED
    assert evaluate_rule(regime, kind, replace(rule, more_than=False), facts).status == PASSED
    # the notes are text for people: they decide nothing
    assert evaluate_rule(regime, kind, replace(rule, notes=None), facts).status == FAILED
    plain = replace(rule, more_than=False, notes="Residir há mais de 01 (um) ano")
    assert evaluate_rule(regime, kind, plain, facts).status == PASSED


def test_same_site_is_read_from_the_rule_not_its_notes():
    """SJC art. 12 ("na mesma feira livre") is ``same_site = true``; notes never decide it."""
    regime = get_regime("sjc-2014")
    kind = regime.permit_kind("feirante")
    rule = next(r for r in kind.rules if r.kind == "one-per" and r.scope == "spouse")
    assert rule.same_site
    elsewhere = PermitFacts(regime.id, "feirante", site_id="feira-centro", relation="spouse")
    facts = good_facts(regime, kind, permits=(elsewhere,), site_id="feira-vila-ema")
    assert evaluate_rule(regime, kind, rule, facts).status == PASSED
    assert evaluate_rule(regime, kind, replace(rule, notes=None), facts).status == PASSED
    anywhere = replace(rule, same_site=False, notes="Na mesma feira livre.")
    assert evaluate_rule(regime, kind, anywhere, facts).status == FAILED
    # the person rule (art. 11, § 4º) binds in any feira
    person = next(r for r in kind.rules if r.kind == "one-per" and r.scope == "person")
    assert not person.same_site
