"""Sanction proposals (models/enforcement/sanctions.py) against the articles of each act.

UFESP 2026 = R$ 38,42 (the regime files); the Unidade Fiscal de Sapezal and
the UFIC have no value in their acts, so the tests give one as the clerk would.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.enforcement.sanctions import (
    IMPOSED,
    OMITTED,
    PROPOSED,
    TOLERATED,
    PriorOffence,
    add_months,
    adjust,
    count_prior,
    propose_sanction,
)
from models.rules.regimes import MissingUnitValue, shipped_regimes

D = Decimal
ON = dt.date(2026, 5, 4)
REGIMES = shipped_regimes()
UFS = {("UFS", 2026): D("45.10")}
UFIC = {("UFIC", 2026): D("5.00")}
INPC = {"INPC": D("1.654321")}


def kinds(proposal, applied_only: bool = True) -> list[str]:
    return [s.kind for s in proposal.sanctions if s.applied or not applied_only]


def only(proposal, kind: str):
    found = [s for s in proposal.sanctions if s.kind == kind]
    assert len(found) == 1, found
    return found[0]


def olimpia(code: str, prior=0, **kw):
    return propose_sanction("olimpia-2025", [code], on=ON, prior=prior, **kw)


# --------------------------------------------------------------------------- every ladder of every regime

LADDER_CASES = [
    (regime.id, ladder.id, offence)
    for regime in REGIMES.values()
    for ladder in regime.ladders
    for offence in range(1, len(ladder.steps) + 2)
]


@pytest.mark.parametrize("regime_id, ladder_id, offence", LADDER_CASES)
def test_every_step_of_every_ladder_is_proposed_with_its_articles(regime_id, ladder_id, offence):
    regime = REGIMES[regime_id]
    ladder = regime.ladder(ladder_id)
    infraction = next(i for i in regime.infractions if i.ladder == ladder_id)
    proposal = propose_sanction(
        regime, [infraction.code], on=ON, prior=offence - 1, unit_values={**UFS, **UFIC}, index_factors=INPC
    )
    item = proposal.items[0]
    assert item.offence == offence
    step = ladder.step_for(offence)
    assert item.step == step.offence  # the last step repeats
    step_kinds = [s.kind for s in step.sanctions]
    proposed = [s.kind for s in item.sanctions]
    for kind in step_kinds:
        assert kind in proposed
    for s in item.sanctions:
        assert s.basis.startswith(f"{regime.short}, art")
        if s.kind == "fine":
            assert s.formula
            assert s.amount is not None or s.max_amount is not None
        if s.kind == "fine" and s.amount is not None:
            assert s.amount == s.amount.quantize(D("0.01"))
    for s, source in zip(item.sanctions, step.sanctions, strict=False):
        # what the act leaves to the authority, or ties to a fact, is proposed — never imposed by the count
        assert (s.condition is not None) == (source.condition is not None)
        if source.condition is not None:
            assert s.condition.text == source.condition.text
            assert f"{regime.short}, {source.condition.basis}" in s.condition.basis  # then any basis_act
        expected = PROPOSED if (source.condition is not None or source.discretionary) else IMPOSED
        assert s.decision == expected and s.discretionary == source.discretionary


@pytest.mark.parametrize("regime_id, code", [(r.id, i.code) for r in REGIMES.values() for i in r.infractions])
def test_every_infraction_has_a_first_offence_proposal(regime_id, code):
    proposal = propose_sanction(regime_id, [code], on=ON, unit_values={**UFS, **UFIC}, index_factors=INPC)
    infraction = next(i for i in REGIMES[regime_id].infractions if i.code == code)
    if infraction.no_sanction:  # a conduct the act forbids without a sanction proposes none, and says so
        assert not proposal.sanctions and proposal.items[0].no_sanction
    else:
        assert proposal.sanctions, "an infraction without any sanction"
    assert proposal.items[0].article.startswith(REGIMES[regime_id].short)


# --------------------------------------------------------------------------- Olímpia, LC 324/2025


def test_olimpia_general_ladder_warning_first_then_doubling_then_suspension_and_interdiction():
    # art. 9º–10: warning, 30 days to comply; art. 14: 20 UFESP if not complied (art. 29)
    first = olimpia("geral-sem-penalidade")
    warning, fine = first.sanctions
    assert warning.kind == "warning" and warning.comply_days == 30 and warning.deadlines == ("comply",)
    assert "art. 9º; art. 10" in warning.basis
    assert fine.condition.fact == "not-complied" and fine.amount == D("768.40")
    assert fine.decision == PROPOSED and fine.discretionary  # art. 10, parágrafo único: "poderá impor"
    assert fine.formula == "20 UFESP × R$ 38,42 (UFESP 2026) = R$ 768,40"
    assert "art. 14" in fine.basis
    assert first.total == D("0.00") and first.total_proposed == D("768.40")
    # art. 12: recurrence within 5 years doubles, progressively, at most twice
    second = olimpia("geral-sem-penalidade", prior=1)
    assert kinds(second) == ["fine"] and second.total == D("1536.80")
    assert second.sanctions[0].formula == "2 × 20 UFESP × R$ 38,42 (UFESP 2026) = R$ 1.536,80"
    third = olimpia("geral-sem-penalidade", prior=2)
    assert third.total == D("3073.60")
    # art. 12, § 2º: after the second recurrence, suspension and interdiction; art. 15, § 1º: the suspension
    # "faz parte da ação discricionária do Município" — proposed, the interdiction imposed
    fourth = olimpia("geral-sem-penalidade", prior=3)
    assert kinds(fourth, applied_only=False) == ["suspension", "interdiction"] and kinds(fourth) == ["interdiction"]
    assert fourth.pending == (
        "Sanção nº 1: a critério da autoridade: impor ou dispensar, com o motivo; prazo da "
        "suspensão a fixar pela Administração",
    )
    imposed = adjust(fourth, reason="reincidente", apply=[1], days={1: 15})
    assert kinds(imposed) == ["suspension", "interdiction"] and imposed.pending == ()
    # art. 17: a new recurrence after the suspension: revocation, once that suspension is verified
    for prior in (4, 9):
        revocation = only(olimpia("geral-sem-penalidade", prior=prior), "revocation")
        assert revocation.decision == PROPOSED and revocation.condition.fact == "earlier-sanctions"


def test_olimpia_event_without_authorisation_100_ufesp_doubled_at_most_twice():
    # art. 97, parágrafo único: 100 UFESP; art. 12, § 2º: doubled at most twice
    amounts = [olimpia("evento-sem-autorizacao", prior=n).total for n in range(5)]
    assert amounts == [D("3842.00"), D("7684.00"), D("15368.00"), D("15368.00"), D("15368.00")]
    impediment = only(olimpia("evento-sem-autorizacao"), "impediment")  # art. 97: "poderá ser embargada"
    assert impediment.discretionary and impediment.decision == PROPOSED


def test_olimpia_fine_without_ladder_is_tolerated_three_times_art_218_then_doubles_by_art_12():
    """Feira without authorisation: 10 UFESP (art. 215, § 1º) and seizure; the first three feiras are tolerated
    (art. 218) and do not count for recurrence; then doubling by art. 12, at most twice."""
    totals = [olimpia("feira-sem-autorizacao", prior=n).total for n in range(7)]
    assert totals == [D("0.00")] * 3 + [D("384.20"), D("768.40"), D("1536.80"), D("1536.80")]
    tolerated = olimpia("feira-sem-autorizacao", prior=2)
    assert [s.decision for s in tolerated.sanctions] == [TOLERATED, TOLERATED]
    assert tolerated.items[0].tolerance == (3, 3, "LC 324/2025, art. 218")
    fine = olimpia("feira-sem-autorizacao", prior=4).sanctions[0]
    assert "art. 12" in fine.basis and any("Reincidência" in d for d in fine.details)


def test_olimpia_street_vending_art_145_and_148():
    first = olimpia("ambulante-sem-autorizacao")
    warning = only(first, "warning")
    assert warning.comply_hours == 1 and warning.deadlines == ("comply-street-vending",)
    fine = only(first, "fine")
    assert fine.amount == D("384.20") and fine.condition.fact == "not-complied"  # 10 UFESP, art. 145, § 1º
    assert fine.decision == PROPOSED
    seizure = only(first, "seizure")
    assert seizure.condition is None and seizure.applied and "art. 147, I" in seizure.basis
    assert any("1 UFESP por dia" in d for d in seizure.details)  # art. 145, § 2º
    second = olimpia("ambulante-sem-autorizacao", prior=1)
    assert sorted(kinds(second)) == ["fine", "revocation", "seizure"]
    assert only(second, "fine").amount == D("768.40")
    seizure = only(second, "seizure")  # art. 145, III and art. 147, I: one seizure, both articles
    assert "art. 145, III" in seizure.basis and "art. 147, I" in seizure.basis
    revocation = only(second, "revocation")
    assert revocation.wait_months == 12 and revocation.wait_until == dt.date(2027, 5, 4)  # art. 148


def test_olimpia_street_food_fine_at_once_then_double_and_suspension_then_cancellation():
    first = olimpia("tpu-area-suja")  # art. 192: 30 UFESP, "de imediato"
    assert kinds(first) == ["fine"] and first.total == D("1152.60")
    second = olimpia("tpu-area-suja", prior=1)  # art. 192, § 1º; art. 193, § 2º
    assert second.total == D("2305.20") and only(second, "suspension").days == 180
    third = olimpia("tpu-area-suja", prior=2)  # art. 195, I and parágrafo único
    assert kinds(third) == ["revocation", "impediment"]


def test_olimpia_street_food_warning_then_30_ufesp():
    first = olimpia("tpu-nao-afixar-termo")  # art. 191
    assert kinds(first) == ["warning"] and first.sanctions[0].comply_days == 30
    second = olimpia("tpu-nao-afixar-termo", prior=1)  # art. 192, § 2º
    assert second.total == D("1152.60")


def test_olimpia_several_street_food_infractions_are_cumulative_art_190():
    proposal = propose_sanction("olimpia-2025", ["tpu-area-suja", "tpu-animais"], on=ON)
    assert proposal.cumulative and "art. 190, parágrafo único" in proposal.cumulative_basis
    assert proposal.total == D("2305.20")
    assert [s.number for s in proposal.sanctions] == [1, 2]
    assert any("cumulativamente" in n for n in proposal.notes)


def test_olimpia_recurrence_counts_the_same_nature_within_five_calendar_years_art_12_par_1():
    prior = [
        PriorOffence("geral-sem-penalidade", dt.date(2022, 1, 10)),  # within 5 years
        PriorOffence("geral-sem-penalidade", dt.date(2020, 1, 10)),  # too old
        ("ambulante-esquina", dt.date(2025, 6, 1)),  # another nature
        ("geral-sem-penalidade", dt.date(2026, 6, 1)),  # after this infraction
    ]
    n, details = count_prior("olimpia-2025", "geral-sem-penalidade", prior, ON)
    assert n == 1
    assert "de 04/05/2021 a 04/05/2026" in details[0] and "5 anos" in details[0] and "art. 12" in details[0]
    assert details[1] == "Contam: 10/01/2022."
    assert "fora do prazo de reincidência: 10/01/2020" in details[2]
    assert "posteriores a esta infração: 01/06/2026" in details[3]
    assert "de outra natureza: 01/06/2025 (ambulante-esquina)" in details[4]
    assert olimpia("geral-sem-penalidade", prior=prior).total == D("1536.80")
    # the window's edge, in calendar years: the same day five years before still counts, the day before not
    edge = dt.date(2021, 5, 4)
    assert count_prior("olimpia-2025", "geral-sem-penalidade", [("geral-sem-penalidade", edge)], ON)[0] == 1
    older = dt.date(2021, 5, 3)
    assert count_prior("olimpia-2025", "geral-sem-penalidade", [("geral-sem-penalidade", older)], ON)[0] == 0


def test_olimpia_does_not_let_the_authority_skip_steps():
    with pytest.raises(UserError, match="não permite aplicar as penalidades fora da ordem"):
        olimpia("geral-sem-penalidade", step=3, reason="grave")


def test_a_fixed_fine_cannot_be_graded():
    proposal = olimpia("tpu-area-suja")
    with pytest.raises(UserError, match=r"fixada pelo ato em R\$ 1.152,60"):
        adjust(proposal, reason="atenuante", amounts={1: "500,00"})


def test_a_unit_value_entered_by_the_clerk_prevails():
    proposal = olimpia("tpu-area-suja", year=2027, unit_values={("UFESP", 2027): D("40.00")})
    assert proposal.total == D("1200.00") and proposal.year == 2027
    assert "valor cadastrado pela Administração" in " ".join(proposal.sanctions[0].details)


def test_a_missing_ufesp_year_names_the_unit_and_the_year():
    with pytest.raises(MissingUnitValue) as error:
        olimpia("tpu-area-suja", year=2031)
    assert "UFESP" in error.value.message and "2031" in error.value.message


# --------------------------------------------------------------------------- São Bento do Sapucaí, Dec. 4.794/2026


def test_sao_bento_not_tearing_down_r_150_and_barred_from_future_events():
    proposal = propose_sanction("sao-bento-2026", ["nao-desmontar"], on=dt.date(2026, 3, 30))
    fine = only(proposal, "fine")
    assert fine.amount == D("150.00") and fine.formula == "R$ 150,00"
    assert "art. 2º, § 2º" in fine.basis and "Lei Municipal nº 1.620/2013" in fine.basis
    assert "impediment" in kinds(proposal)


def test_sao_bento_fine_and_seizure_both_at_the_authoritys_discretion_art_14():
    """Dec. 4.794/2026, art. 14: "poderá acarretar, cumulativamente ou não" — the fine of 20 UFESP and the seizure
    are proposed; the authority imposes or omits each, with the reason."""
    proposal = propose_sanction("sao-bento-2026", ["instalar-sem-pagar"], on=dt.date(2026, 3, 28))
    fine, seizure = only(proposal, "fine"), only(proposal, "seizure")
    assert fine.amount == D("768.40") and fine.discretionary and fine.decision == PROPOSED  # 20 × 38,42
    assert proposal.total == D("0.00") and proposal.total_proposed == D("768.40")
    assert not seizure.applied and seizure.discretionary  # "cumulativamente ou não"
    applied = adjust(
        proposal, reason="mercadoria exposta na calçada", apply=[seizure.number], omit=[fine.number], by="Fiscal Ana"
    )
    assert only(applied, "seizure").applied and applied.adjustments[0].by == "Fiscal Ana"
    assert only(applied, "fine").decision == OMITTED and applied.total == D("0.00")
    again = adjust(applied, reason="reconsiderado", omit=[seizure.number])
    assert not only(again, "seizure").applied and len(again.adjustments) == 3


def test_sao_bento_has_no_recurrence_rule():
    proposal = propose_sanction("sao-bento-2026", ["instalar-sem-pagar"], on=dt.date(2026, 3, 28), prior=2)
    assert proposal.total_proposed == D("768.40")
    assert any("não agrava a multa" in d for d in proposal.items[0].details)


def test_sao_bento_two_infractions_add_up_art_14():
    proposal = propose_sanction("sao-bento-2026", ["nao-desmontar", "sem-placa"], on=dt.date(2026, 3, 30))
    # art. 2º, § 2º imposes R$ 150,00; art. 14's 20 UFESP is the authority's to impose; the decree is silent on
    # simultaneous infractions (art. 14's "cumulativamente ou não" is about one infraction's penalties): each its own
    assert not proposal.cumulative and proposal.total == D("150.00") and proposal.total_proposed == D("768.40")
    art_14 = next(s for s in proposal.sanctions if s.kind == "fine" and s.infraction == "sem-placa")
    both = adjust(proposal, reason="placa ausente", apply=[art_14.number])
    assert both.total == D("918.40")


# --------------------------------------------------------------------------- São José dos Campos, Lei 9.158/2014


def sjc(code: str, prior=0, **kw):
    kw.setdefault("year", 2014)
    return propose_sanction("sjc-2014", [code], on=ON, prior=prior, **kw)


def test_sjc_notice_24_hours_then_fine_up_to_500_graded_by_the_inspector():
    first = sjc("sujeira")
    warning, fine = first.sanctions
    assert warning.comply_hours == 24 and warning.deadlines == ("comply-warning",)  # art. 23
    assert fine.condition.fact == "not-complied" and fine.graded and fine.decision == PROPOSED  # "sob pena de multa"
    assert fine.amount is None and fine.max_amount == D("500.00")  # art. 24, § 1º
    assert fine.pending.startswith("aguarda o fato: Notificação Preliminar não atendida")
    graded = adjust(first, reason="primeira autuação, gravidade leve", amounts={2: "150,00"})
    assert graded.sanctions[1].amount == D("150.00") and graded.total_proposed == D("150.00")
    assert graded.adjustments[0].before == "a graduar" and graded.adjustments[0].after == "R$ 150,00"
    assert graded.total == D("0.00")
    at_the_limit = adjust(first, reason="gravíssima", amounts={2: D("500.00")})
    assert at_the_limit.sanctions[1].amount == D("500.00")
    with pytest.raises(UserError, match="entre R\\$ 0,01 e R\\$ 500,00"):
        adjust(first, reason="muito grave", amounts={2: "500,01"})
    with pytest.raises(UserError, match="motivo"):
        adjust(first, reason="   ", amounts={2: "150,00"})
    with pytest.raises(UserError, match="duas casas"):
        adjust(first, reason="x", amounts={2: "150,005"})


def test_sjc_recurrence_doubles_the_limit_with_suspension_then_revocation():
    second = sjc("sujeira", prior=1)  # art. 24, § 2º; art. 25, I
    fine, suspension = second.sanctions
    assert fine.max_amount == D("1000.00") and fine.applied  # "poderá ser aplicado em dobro": graded up to it
    assert suspension.days is None and suspension.admin_defined
    assert suspension.decision == PROPOSED and suspension.condition.fact == "not-remedied"  # art. 25, I
    graded = adjust(second, reason="reincidência específica", amounts={1: "800,00"}, days={2: 7})
    assert graded.sanctions[0].amount == D("800.00") and graded.sanctions[1].days == 7
    with pytest.raises(UserError, match=r"entre R\$ 0,01 e R\$ 1.000,00"):
        adjust(second, reason="x", amounts={1: "1000,01"})
    third = sjc("sujeira", prior=2)  # art. 26, II: only when the irregularity is not remedied
    assert kinds(third, applied_only=False) == ["revocation"] and kinds(third) == []
    assert third.sanctions[0].deadlines == ("appeal-revocation",)


def test_sjc_aggression_1000_and_15_days_then_summary_revocation():
    first = sjc("agressao")  # art. 25, parágrafo único
    assert first.total == D("1000.00") and only(first, "suspension").days == 15
    with pytest.raises(UserError, match="fixada pelo ato"):
        adjust(first, reason="x", days={2: 10})
    assert kinds(sjc("agressao", prior=1)) == ["revocation"]  # art. 26, I


def test_sjc_fines_are_corrected_by_the_inpc():
    with pytest.raises(UserError, match="corrigida anualmente pelo INPC") as error:
        sjc("agressao", year=2026)
    assert error.value.field == "index_factor"
    corrected = sjc("agressao", year=2026, index_factors=INPC)
    assert corrected.total == D("1654.32")  # 1.000,00 × 1,654321
    assert corrected.sanctions[0].formula == "R$ 1.000,00 × 1,654321 (INPC 2014→2026) = R$ 1.654,32"
    graded = sjc("sujeira", year=2026, index_factors=INPC)
    assert graded.sanctions[1].max_amount == D("827.16")  # 500,00 × 1,654321 = 827,1605


def test_sjc_abandonment_revocation_with_36_months_wait():
    revocation = sjc("abandono").sanctions[0]
    assert revocation.wait_months == 36 and revocation.wait_until == dt.date(2029, 5, 4)  # art. 26, parágrafo único


def test_sjc_any_order_lets_the_authority_pick_a_step_with_a_reason():
    proposal = sjc("sujeira", step=3, reason="agressão ao fiscal durante a autuação")
    assert kinds(proposal, applied_only=False) == ["revocation"]
    assert any("art. 22, parágrafo único" in n for n in proposal.notes)
    with pytest.raises(UserError, match="motivo"):
        sjc("sujeira", step=3)
    with pytest.raises(UserError, match="não existe"):
        sjc("sujeira", step=9, reason="x")


def test_sjc_says_when_the_act_is_silent_on_cumulation():
    proposal = propose_sanction("sjc-2014", ["sujeira", "agressao"], on=ON, year=2014)
    assert not proposal.cumulative
    assert any("não diz se as sanções de infrações simultâneas se acumulam" in n for n in proposal.notes)


# --------------------------------------------------------------------------- Sapezal, Lei 1.171/2014


def sapezal(codes, prior=0, **kw):
    kw.setdefault("unit_values", UFS)
    return propose_sanction("sapezal-2014", codes, on=ON, prior=prior, **kw)


def test_sapezal_needs_the_value_of_its_fiscal_unit():
    with pytest.raises(MissingUnitValue) as error:
        propose_sanction("sapezal-2014", ["dever-40-i"], on=ON)
    message = error.value.message
    assert "UFS (Unidade Fiscal de Sapezal)" in message and "2026" in message


def test_sapezal_duty_one_unit_doubled_on_recurrence_art_50():
    first = sapezal(["dever-40-i"])
    assert first.total == D("45.10") and first.sanctions[0].formula == "1 UFS × R$ 45,10 (UFS 2026) = R$ 45,10"
    assert sapezal(["dever-40-i"], prior=1).total == D("90.20")
    assert sapezal(["dever-40-i"], prior=5).total == D("90.20")


def test_sapezal_prohibition_two_units_with_possible_revocation_art_51():
    proposal = sapezal(["proibido-44-i"])
    assert proposal.total == D("90.20")
    revocation = only(proposal, "revocation")
    assert revocation.discretionary and not revocation.applied
    assert sapezal(["proibido-44-i"], prior=1).total == D("90.20")  # art. 51 does not double


def test_sapezal_suspension_up_to_10_days_is_the_authoritys_choice():
    proposal = sapezal(["dever-40-i"])
    suspension = only(proposal, "suspension")
    assert not suspension.applied and suspension.max_days == 10  # art. 49, IV; art. 50
    applied = adjust(
        proposal, reason="reincidente em outras posturas", apply=[suspension.number], days={suspension.number: 10}
    )
    assert only(applied, "suspension").days == 10 and only(applied, "suspension").applied
    assert applied.pending == ("Sanção nº 3: a critério da autoridade: impor ou dispensar, com o motivo",)  # seizure
    with pytest.raises(UserError, match="de 1 a 10 dias"):
        adjust(proposal, reason="x", apply=[suspension.number], days={suspension.number: 11})
    with pytest.raises(UserError, match="não pode ser dispensada"):
        adjust(proposal, reason="x", omit=[1])
    dropped = adjust(proposal, reason="primeira infração", omit=[suspension.number])
    assert only(dropped, "suspension").decision == OMITTED
    with pytest.raises(UserError, match="já está dispensada"):
        adjust(dropped, reason="x", omit=[suspension.number])


def test_sapezal_simultaneous_infractions_are_cumulative_art_49():
    proposal = sapezal(["dever-40-i", "proibido-44-i"])
    assert proposal.cumulative and "art. 49, parágrafo único" in proposal.cumulative_basis
    assert proposal.total == D("135.30")


# --------------------------------------------------------------------------- Ilha Comprida, Dec. 890/2017


def ilha(code, prior=0, **kw):
    return propose_sanction("ilha-comprida-2017", [code], on=ON, prior=prior, **kw)


def test_ilha_comprida_forbidden_places_warning_then_possible_suspension_art_17():
    first = ilha("perto-escola")
    assert kinds(first) == ["warning", "impediment"]  # art. 17, § 1º; art. 33
    second = ilha("perto-escola", prior=1)
    suspension = only(second, "suspension")
    assert not suspension.applied and suspension.max_days == 30  # "poderá ... por até 30 dias"


def test_ilha_comprida_duties_warning_then_suspension_and_fine_up_to_200_ufic_then_revocation():
    assert kinds(ilha("nao-portar-cartao")) == ["warning", "impediment"]  # art. 19, § 1º: no unit needed
    with pytest.raises(MissingUnitValue, match="UFIC"):
        ilha("nao-portar-cartao", prior=1)
    second = ilha("nao-portar-cartao", prior=1, unit_values=UFIC)  # art. 19, § 2º
    fine = only(second, "fine")
    assert fine.max_amount == D("1000.00") and fine.formula == "até 200 UFIC × R$ 5,00 (UFIC 2026) = R$ 1.000,00"
    suspension = only(second, "suspension")
    # "poderá ser imposta suspensão [...], bem como aplicação de multa": both proposed
    assert not suspension.applied and not fine.applied and suspension.discretionary and fine.discretionary
    assert (suspension.min_days, suspension.max_days) == (1, 30)
    graded = adjust(
        second,
        reason="primeira reincidência",
        amounts={fine.number: "250,00"},
        days={suspension.number: 5},
        apply=[fine.number, suspension.number],
    )
    assert graded.total == D("250.00") and graded.pending == ()
    with pytest.raises(UserError, match="de 1 a 30 dias"):
        adjust(second, reason="x", days={suspension.number: 31})
    third = ilha("nao-portar-cartao", prior=2)  # art. 19, § 3º: after the suspension and the fine were applied
    assert kinds(third, applied_only=False) == ["revocation", "impediment"] and kinds(third) == ["impediment"]
    assert only(third, "revocation").condition.fact == "earlier-sanctions"


def test_ilha_comprida_prohibitions_without_warning_and_seizure_art_20():
    first = ilha("produto-proibido", unit_values=UFIC)
    assert sorted(kinds(first)) == ["fine", "impediment", "seizure", "suspension"]
    assert kinds(ilha("produto-proibido", prior=1), applied_only=False) == ["revocation", "seizure", "impediment"]


def test_ilha_comprida_serious_infractions_30_to_90_days_revoked_at_the_third_recurrence_art_28_i():
    for prior in range(3):
        suspension = only(ilha("grave-documentos", prior=prior), "suspension")
        assert (suspension.min_days, suspension.max_days) == (30, 90)  # art. 27, § 1º
    proposal = ilha("grave-documentos")
    with pytest.raises(UserError, match="de 30 a 90 dias"):
        adjust(proposal, reason="x", days={1: 20})
    assert only(adjust(proposal, reason="documentos vencidos", days={1: 30}), "suspension").days == 30
    assert kinds(ilha("grave-documentos", prior=3)) == ["revocation", "impediment"]  # 3ª reincidência (art. 28, I)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "codes, prior, match",
    [
        ([], 0, "ao menos uma infração"),
        (["tpu-area-suja", "tpu-area-suja"], 0, "repetida"),
        (["nao-existe"], 0, "Infração 'nao-existe' não existe"),
        (["tpu-area-suja"], -1, "anteriores inválido"),
        (["tpu-area-suja"], True, "número inteiro"),
    ],
)
def test_bad_input_is_refused(codes, prior, match):
    with pytest.raises(UserError, match=match):
        propose_sanction("olimpia-2025", codes, on=ON, prior=prior)


def test_adjust_refuses_what_is_not_there():
    proposal = olimpia("geral-sem-penalidade", prior=3)
    with pytest.raises(UserError, match="não tem a sanção nº 9"):
        adjust(proposal, reason="x", amounts={9: "1"})
    with pytest.raises(UserError, match="não é multa"):
        adjust(proposal, reason="x", amounts={1: "1"})
    with pytest.raises(UserError, match="Nada a ajustar"):
        adjust(proposal, reason="x")
    # Olímpia art. 15: the municipality fixes the suspension's term
    fixed = adjust(proposal, reason="até regularizar o alvará", days={1: 15})
    assert fixed.sanctions[0].days == 15 and fixed.sanctions[0].adjusted


def test_to_dict_is_json_ready():
    import json

    data = olimpia("ambulante-sem-autorizacao", prior=1).to_dict()
    text = json.dumps(data, ensure_ascii=False)
    assert '"amount": "768.40"' in text and '"wait_until": "2027-05-04"' in text
    assert data["infractions"][0]["offence"] == 2


def test_add_months_keeps_the_end_of_month():
    assert add_months(dt.date(2026, 1, 31), 1) == dt.date(2026, 2, 28)
    assert add_months(dt.date(2027, 12, 15), 36) == dt.date(2030, 12, 15)


# --------------------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(
        [
            (r.id, i.code)
            for r in REGIMES.values()
            for i in r.infractions
            if i.fine is not None and i.fine.amount is not None
        ]
    ),
    st.integers(min_value=0, max_value=8),
    st.decimals(min_value=D("0.01"), max_value=D("999.99"), places=2),
)
def test_fixed_fines_are_units_times_value_rounded_half_up(regime_code, prior, value):
    regime_id, code = regime_code
    regime = REGIMES[regime_id]
    fine_def = regime.infraction(code).fine.amount
    values = {(fine_def.unit, 2026): value} if fine_def.unit != "BRL" else None
    proposal = propose_sanction(regime, [code], on=ON, prior=prior, unit_values=values, index_factors=INPC, year=2026)
    for s in proposal.sanctions:
        if s.kind != "fine" or s.amount is None:
            continue
        unit_value = value if fine_def.unit != "BRL" else D(1)
        factor = INPC["INPC"] if (fine_def.unit == "BRL" and regime.penalties and regime.penalties.index) else D(1)
        expected = (s.multiplier * fine_def.value * unit_value * factor).quantize(D("0.01"), rounding=ROUND_HALF_UP)
        assert s.amount == expected
        rec = regime.penalties.recurrence if regime.penalties else None
        if rec is not None and rec.multiplier and rec.max_doublings:
            assert s.multiplier <= rec.multiplier**rec.max_doublings
    assert proposal.total >= 0 and proposal.total_proposed >= 0


def test_a_ladder_multiplier_beyond_the_acts_doublings_is_capped(tmp_path):
    from models.rules.regimes import default_regimes_folder, load_regime_file

    text = (default_regimes_folder() / "olimpia-2025.toml").read_text(encoding="utf-8")
    old = 'sanctions = [ { kind = "fine", multiplier = "4", basis = "art. 12, caput e § 2º" } ]'
    assert old in text
    path = tmp_path / "olimpia-2025.toml"
    path.write_text(text.replace(old, old.replace('"4"', '"8"'), 1), encoding="utf-8")
    regime = load_regime_file(path)
    fine = propose_sanction(regime, ["geral-sem-penalidade"], on=ON, prior=2).sanctions[0]
    assert fine.multiplier == D("4") and fine.amount == D("3073.60")  # art. 12, § 2º: twice at most
    assert any("no máximo 2 vezes" in d for d in fine.details)
