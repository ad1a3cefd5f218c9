"""The law's own terms (issue 15, parts 1 and 2): discretion stays with the authority, conditions hold, tolerances
apply, recurrence is counted in calendar years, nothing is judged by an act before it came into force, and deadlines
follow the legal calendar — each test names the article it checks.

Database tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from conftest import run_modal, type_text
from factories import draft, feirante, fines, open_new_database, person
from factories import issue_record as issue

from desktop.cli import main
from models import enforcement as enf
from models.access.session import PermissionDenied, Session, acting_as
from models.base.errors import UserError
from models.enforcement.sanctions import IMPOSED, OMITTED, PROPOSED, Verification, adjust, propose_sanction
from models.rules.regimes import (
    DEADLINE_ROLES,
    PROCESS_ROLES,
    RegimeError,
    default_regimes_folder,
    load_regime_file,
    shipped_regimes,
)


@pytest.fixture
def sqlite_url(sqlite_database):
    """The commands read an existing database only: this one is made first, as ``praca init`` makes it."""
    from models.store.bootstrap import close_database

    close_database()
    return sqlite_database


D = Decimal
REGIMES = shipped_regimes()
FISCAL = Session(None, "fiscal.marcos", "Marcos Fiscal", "fiscal")
CHEFE = Session(None, "chefe.fiscalizacao", "Chefe da Fiscalização", "chefe")


def only(proposal, kind: str, infraction: str | None = None):
    found = [s for s in proposal.sanctions if s.kind == kind and (infraction is None or s.infraction == infraction)]
    assert len(found) == 1, found
    return found[0]


def regime_with(tmp_path, regime_id: str, old: str, new: str):
    text = (default_regimes_folder() / f"{regime_id}.toml").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / f"{regime_id}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_regime_file(path)


# --------------------------------------------------------------------------- 1. discretion


@pytest.mark.parametrize(
    "regime_id, code, prior, kind, article",
    [
        ("sao-bento-2026", "fora-do-horario", 0, "fine", "art. 14"),  # "poderá acarretar, cumulativamente ou não"
        ("sao-bento-2026", "fora-do-horario", 0, "seizure", "art. 14, II"),
        ("ilha-comprida-2017", "perto-escola", 1, "suspension", "art. 17, § 2º"),  # "poderá ser imposta suspensão"
        ("ilha-comprida-2017", "nao-portar-cartao", 1, "suspension", "art. 19, § 2º"),
        ("ilha-comprida-2017", "nao-portar-cartao", 1, "fine", "art. 19, § 2º"),
        ("olimpia-2025", "geral-sem-penalidade", 3, "suspension", "art. 15"),  # "ação discricionária do Município"
        ("olimpia-2025", "evento-sem-autorizacao", 0, "impediment", "art. 97"),  # "poderá ser embargada"
        ("sapezal-2014", "dever-40-i", 0, "suspension", "art. 50"),  # "podendo ser cumulada com a suspensão"
        ("sapezal-2014", "proibido-44-i", 0, "revocation", "art. 51"),  # "com possibilidade de cassação"
    ],
)
def test_what_the_act_leaves_to_the_authority_is_proposed_never_imposed(regime_id, code, prior, kind, article):
    """Where the act says "poderá", "cumulativamente ou não" or "possibilidade", the sanction is discretionary:
    proposed, and imposed or omitted only by the authority with a reason."""
    proposal = propose_sanction(
        regime_id,
        [code],
        on=dt.date(2026, 3, 28),
        prior=prior,
        unit_values={("UFIC", 2026): D("5.00"), ("UFS", 2026): D("45.10")},
    )
    s = only(proposal, kind)
    assert s.discretionary and s.decision == PROPOSED and not s.applied and article in s.basis
    assert set(s.actions) >= {"apply", "omit"}
    omitted = adjust(proposal, reason="primeira ocorrência, regularizou na hora", omit=[s.number], by="chefe")
    assert only(omitted, kind).decision == OMITTED
    assert omitted.adjustments[-1].reason == "primeira ocorrência, regularizou na hora"
    assert only(adjust(proposal, reason="gravidade", apply=[s.number]), kind).decision == IMPOSED


def test_a_sanction_the_act_imposes_cannot_be_omitted_sao_bento_art_2_par_2():
    """Dec. 4.794/2026, art. 2º, § 2º: "dará ensejo à lavratura do auto de infração com imposição de multa de
    R$ 150,00" — imposed; the authority cannot drop it."""
    proposal = propose_sanction("sao-bento-2026", ["nao-desmontar"], on=dt.date(2026, 3, 30))
    fine = only(proposal, "fine")
    assert fine.decision == IMPOSED and not fine.discretionary and "omit" not in fine.actions
    with pytest.raises(UserError, match="imposta pelo ato"):
        adjust(proposal, reason="x", omit=[fine.number])


def test_alternatives_impose_exactly_one_olimpia_art_217():
    """LC 324/2025, art. 217: "suspensões temporárias ou exclusão definitiva" — the authority chooses one."""
    proposal = propose_sanction("olimpia-2025", ["feira-cdc"], on=dt.date(2026, 3, 28))
    suspension, exclusion = only(proposal, "suspension"), only(proposal, "revocation")
    assert suspension.one_of == exclusion.one_of == "art-217"
    assert exclusion.label.startswith("Exclusão definitiva") and suspension.label.startswith("Suspensão temporária")
    chosen = adjust(proposal, reason="primeira vez", apply=[suspension.number], days={suspension.number: 7})
    assert only(chosen, "suspension").decision == IMPOSED and only(chosen, "revocation").decision == OMITTED
    assert "alternativa escolhida" in chosen.adjustments[1].reason
    one_left = adjust(proposal, reason="reincidente", omit=[suspension.number])
    with pytest.raises(UserError, match="uma das sanções alternativas"):
        adjust(one_left, reason="x", omit=[exclusion.number])


# --------------------------------------------------------------------------- 1. conditions


def test_sjc_suspension_waits_for_the_unremedied_irregularity_art_25_i():
    """Lei 9.158/2014, art. 25, I: suspension "quando o permissionário infrator não sanar a irregularidade" —
    never imposed by the count of offences; imposed once the fact is recorded with its day and who verified it."""
    proposal = propose_sanction(
        "sjc-2014", ["sujeira"], on=dt.date(2026, 3, 13), prior=1, index_factors={"INPC": D("1.6")}
    )
    suspension = only(proposal, "suspension")
    assert suspension.condition.fact == "not-remedied" and suspension.condition.basis == "Lei 9.158/2014, art. 25, I"
    assert suspension.decision == PROPOSED and suspension.actions == ("fact", "omit", "days")
    with pytest.raises(UserError, match="depende de um fato"):
        adjust(proposal, reason="x", apply=[suspension.number])
    with pytest.raises(UserError, match="antes da infração"):
        adjust(proposal, reason="x", facts={suspension.number: Verification(dt.date(2026, 3, 1), "Fiscal")})
    with pytest.raises(UserError, match="quem o verificou"):
        adjust(proposal, reason="x", facts={suspension.number: Verification(dt.date(2026, 3, 20), " ")})
    verified = adjust(
        proposal,
        reason="vistoria de retorno",
        facts={suspension.number: Verification(dt.date(2026, 3, 20), "Fiscal Rui", "banca suja")},
    )
    done = only(verified, "suspension")
    assert done.decision == IMPOSED and done.condition_met.by == "Fiscal Rui"
    assert verified.adjustments[0].change == "fact"
    # art. 26, II: the revocation waits for its own fact, even at the third offence
    third = propose_sanction("sjc-2014", ["sujeira"], on=dt.date(2026, 3, 13), prior=2)
    assert only(third, "revocation").decision == PROPOSED and only(third, "revocation").condition.basis.endswith(
        "art. 26, II"
    )


def test_olimpia_art_263_notice_before_fine_and_seizure():
    """LC 324/2025, art. 263: notice for immediate removal; fine and seizure only if it is not complied with."""
    first = propose_sanction("olimpia-2025", ["passeio-obstrucao-bancas"], on=dt.date(2026, 3, 13))
    assert only(first, "warning").applied
    for kind in ("fine", "seizure"):
        s = only(first, kind)
        assert s.condition.fact == "not-complied" and s.decision == PROPOSED and "art. 263" in s.condition.basis
    followed = propose_sanction(
        "olimpia-2025",
        ["passeio-obstrucao-bancas"],
        on=dt.date(2026, 3, 13),
        facts={"not-complied": Verification(dt.date(2026, 3, 13), "Fiscal Ana")},
    )
    assert only(followed, "fine").applied and only(followed, "seizure").applied
    assert followed.total == D("384.20")


@pytest.mark.parametrize(
    "code", ["passeio-mesas-cadeiras", "passeio-bancas-produtos", "passeio-exposicao-mercadorias", "passeio-alimentos"]
)
def test_olimpia_art_260_iii_forfeits_construction_material_only(code):
    """LC 324/2025, art. 260, III: removal and incorporation into the municipality's patrimony reach "material de
    construção" left on the sidewalk; a vendor's tables, goods or food are never proposed for forfeiture."""
    for prior in (0, 1):
        proposal = propose_sanction(
            "olimpia-2025",
            [code],
            on=dt.date(2026, 3, 13),
            prior=prior,
            facts={"not-complied": Verification(dt.date(2026, 3, 17), "Fiscal Ana")},
        )
        assert [s.kind for s in proposal.sanctions] == ["warning", "fine"]
        assert all("art. 260, III" not in s.basis for s in proposal.sanctions)


def test_sao_bento_art_14_cumulatively_or_not_is_the_authoritys_choice_not_a_rule_for_simultaneous_autos():
    """Dec. 4.794/2026, art. 14: the fine and the seizure "poderá acarretar cumulativamente ou não" — each is proposed
    to the authority; the decree says nothing of simultaneous infractions, so the header must not say they cumulate."""
    proposal = propose_sanction("sao-bento-2026", ["sem-placa", "fora-do-horario"], on=dt.date(2026, 3, 28))
    assert not proposal.cumulative and proposal.cumulative_basis is None
    assert not any("aplicam-se cumulativamente" in note for note in proposal.notes)
    assert any("não diz se as sanções de infrações simultâneas se acumulam" in note for note in proposal.notes)
    assert {s.decision for s in proposal.sanctions} == {PROPOSED}


def test_ilha_comprida_revocation_only_after_suspension_and_fine_were_applied_art_19_par_3():
    proposal = propose_sanction("ilha-comprida-2017", ["nao-portar-cartao"], on=dt.date(2026, 3, 13), prior=2)
    revocation = only(proposal, "revocation")
    assert revocation.condition.fact == "earlier-sanctions" and revocation.decision == PROPOSED
    proven = adjust(
        proposal,
        reason="AI anteriores com suspensão e multa aplicadas",
        facts={revocation.number: {"on": "2026-03-13", "by": "Chefe", "note": "AI nº 2026/00003"}},
    )
    assert only(proven, "revocation").applied  # "será automaticamente cassada"


# --------------------------------------------------------------------------- 1. tolerance, recurrence, force


def test_olimpia_three_feiras_tolerated_without_fine_or_seizure_art_218():
    dates = [("feira-sem-autorizacao", dt.date(2026, 2, d)) for d in (7, 14)]
    third = propose_sanction("olimpia-2025", ["feira-sem-autorizacao"], on=dt.date(2026, 2, 21), prior=dates)
    assert {s.decision for s in third.sanctions} == {"tolerated"} and third.total == 0
    assert any("3ª das 3 ocorrências toleradas" in d and "art. 218" in d for d in third.items[0].details)
    dates.append(("feira-sem-autorizacao", dt.date(2026, 2, 21)))
    fourth = propose_sanction("olimpia-2025", ["feira-sem-autorizacao"], on=dt.date(2026, 2, 28), prior=dates)
    assert fourth.total == D("384.20") and only(fourth, "seizure").applied
    assert fourth.items[0].offence == 1  # the tolerated ones do not count for recurrence (art. 12)


def test_recurrence_in_calendar_years_not_days_olimpia_art_12_par_1():
    """Five years from 29/02/2028 start on 28/02/2023 (the same day, five years before) — not 1.825 days."""
    regime = REGIMES["olimpia-2025"]
    on = dt.date(2028, 2, 29)
    inside = propose_sanction(
        regime,
        ["tpu-area-suja"],
        on=on,
        prior=[("tpu-area-suja", dt.date(2023, 2, 28))],
        unit_values={("UFESP", 2028): D("40.00")},
    )
    assert inside.items[0].offence == 2 and inside.items[0].counted == (dt.date(2023, 2, 28),)
    assert any("de 28/02/2023 a 29/02/2028" in d and "5 anos" in d for d in inside.items[0].details)
    # 1.825 days before 29/02/2028 is 01/03/2023: a window in days would have dropped 28/02/2023 and kept less
    outside = propose_sanction(
        regime,
        ["tpu-area-suja"],
        on=on,
        prior=[("tpu-area-suja", dt.date(2023, 2, 27))],
        unit_values={("UFESP", 2028): D("40.00")},
    )
    assert outside.items[0].offence == 1


def test_penalty_prior_dates_on_the_command_line_say_which_counted_and_why(sqlite_url, capsys):
    """``praca penalty --prior-date`` counts the recurrence within the act's window itself (LC 324/2025,
    art. 12, § 1º: five years, calendar years)."""
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--infraction",
                "geral-sem-penalidade",
                "--date",
                "02/04/2026",
                "--prior-date",
                "15/05/2024",
                "--prior-date",
                "01/03/2020",
                "--prior-date",
                "02/04/2021",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    item = data["infractions"][0]
    assert item["offence"] == 3 and item["counted"] == ["2021-04-02", "2024-05-15"]
    assert item["recurrence_window_years"] == 5
    assert "Não contam, fora do prazo de reincidência: 01/03/2020." in item["details"]
    assert data["total"] == "3073.60"  # 4 × 20 UFESP (art. 12, § 2º: doubled twice)
    for s in item["sanctions"]:
        assert {"discretionary", "condition", "decision", "waiting"} <= set(s)
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--infraction",
                "geral-sem-penalidade",
                "--prior",
                "1",
                "--prior-date",
                "15/05/2024",
            ]
        )
        == 2
    )
    assert "não os dois" in capsys.readouterr().err


def test_penalty_json_says_discretion_and_conditions_for_every_sanction(sqlite_url, capsys):
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "sjc-2014",
                "--infraction",
                "sujeira",
                "--prior",
                "1",
                "--year",
                "2014",
                "--date",
                "2014-10-01",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    suspension = next(s for s in data["infractions"][0]["sanctions"] if s["kind"] == "suspension")
    assert suspension["condition"]["fact"] == "not-remedied" and suspension["condition"]["basis"].endswith("art. 25, I")
    assert suspension["decision"] == "proposed" and suspension["discretionary"] is False
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--infraction",
                "fora-do-horario",
                "--date",
                "2026-03-28",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [s["discretionary"] for s in data["infractions"][0]["sanctions"]] == [True, True]  # art. 14
    assert data["total"] == "0.00" and data["total_proposed"] == "768.40"


def test_an_infraction_before_the_act_came_into_force_is_refused_everywhere(keys, capsys, database):
    """Dec. 4.794/2026, art. 15: in force on 24/03/2026 — an infraction of 20/03/2026 is not judged by it."""
    with pytest.raises(UserError, match=r"anterior à vigência do ato \(Dec. 4.794/2026\), em vigor desde 24/03/2026"):
        propose_sanction("sao-bento-2026", ["nao-desmontar"], on=dt.date(2026, 3, 20))
    early = draft("sao-bento-2026", ["nao-desmontar"], "20/03/2026 12:00", holder=person("Antes da Vigência"))
    with pytest.raises(UserError, match="em vigor desde 24/03/2026"):
        enf.preview(early, today=dt.date(2026, 3, 30))
    with pytest.raises(UserError, match="em vigor desde 24/03/2026"):
        enf.issue_record(early, by="ana", today=dt.date(2026, 3, 30))
    assert (
        main(
            [
                "penalty",
                "--db",
                database,
                "--regime",
                "sao-bento-2026",
                "--infraction",
                "nao-desmontar",
                "--date",
                "20/03/2026",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "art. 15" in err and "Traceback" not in err


# --------------------------------------------------------------------------- 1. decisions on the record


def test_the_authority_decides_a_discretionary_fine_after_the_record_sao_bento_art_14(keys):
    """The record proposes art. 14's fine; the chief imposes it later with a reason: a new event on the record, the
    record itself untouched, and the fine becomes a charge."""
    holder = person("Barraqueiro Sem Placa")
    with acting_as(FISCAL):
        record = issue(
            draft("sao-bento-2026", ["sem-placa"], "28/03/2026 20:00", holder=holder, payment_due=dt.date(2026, 4, 30))
        )
    assert record.fine_total == 0 and fines(record) == []
    before = dict(record.__data__)
    proposal = enf.current_proposal(record)
    fine = only(proposal, "fine")
    assert fine.decision == PROPOSED and fine.amount == D("768.40")
    decision = enf.AdjustInput(
        reason="placa ausente durante todo o evento", apply=(fine.number,), omit=(only(proposal, "seizure").number,)
    )
    with acting_as(FISCAL), pytest.raises(PermissionDenied, match="chefe"):
        enf.decide_sanctions(record, decision, by="Marcos Fiscal", today=dt.date(2026, 3, 30))
    with acting_as(CHEFE), pytest.raises(UserError, match="informe o vencimento"):
        enf.decide_sanctions(record, decision, by="Chefe", today=dt.date(2026, 3, 30))
    with acting_as(CHEFE):
        event = enf.decide_sanctions(
            record, decision, by="Chefe", today=dt.date(2026, 3, 30), payment_due=dt.date(2026, 4, 30)
        )
    assert "multa de R$ 768,40 lançada" in event.text
    record = enf.get_record(record.id)
    assert {k: v for k, v in record.__data__.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }  # the issued record is not edited
    [charge] = fines(record)
    assert charge.amount == D("768.40") and charge.due_on == dt.date(2026, 4, 30) and "art. 14" in charge.basis
    current = {s["kind"]: s for s in enf.current_sanctions(record)}
    assert current["fine"]["decision"] == "imposed" and current["seizure"]["decision"] == "omitted"
    assert enf.current_fine(record) == D("768.40") and enf.charged_fines_total(record) == D("768.40")
    with acting_as(CHEFE), pytest.raises(UserError, match="já está imposta"):
        enf.decide_sanctions(record, decision, by="Chefe", today=dt.date(2026, 3, 31))


def test_a_conditional_suspension_applies_to_the_permit_only_after_its_fact_sjc_art_25_i(keys):
    from factories import INPC

    from models.billing.fiscal import set_index_correction

    for year, pct in INPC.items():
        set_index_correction("INPC", year, pct, entered_by="teste", reason="INPC de teste")
    holder = person("Feirante Reincidente")
    permit = feirante(keys, holder, on=dt.date(2026, 2, 2))
    issue(
        draft(
            "sjc-2014",
            ["sujeira"],
            "05/03/2026 21:00",
            permit_id=permit.id,
            adjustments=[enf.AdjustInput(reason="leve", amounts={2: "100,00"})],
        )
    )
    second = issue(
        draft(
            "sjc-2014",
            ["sujeira"],
            "12/03/2026 21:00",
            permit_id=permit.id,
            payment_due=dt.date(2026, 4, 13),
            adjustments=[enf.AdjustInput(reason="reincidência", amounts={1: "400,00"})],
        )
    )
    with pytest.raises(UserError, match="ainda aguarda o fato"):
        enf.apply_to_permit(second, by="chefe", today=dt.date(2026, 3, 14))
    suspension = only(enf.current_proposal(second), "suspension")
    with acting_as(FISCAL):  # the inspector records the fact he verified
        enf.decide_sanctions(
            second,
            enf.AdjustInput(
                reason="vistoria na feira seguinte",
                facts={suspension.number: Verification(dt.date(2026, 3, 19), "Marcos Fiscal", "lixo ainda acumulado")},
            ),
            by="Marcos Fiscal",
            today=dt.date(2026, 3, 19),
        )
    with pytest.raises(UserError, match="prazo da suspensão a fixar"):
        enf.apply_to_permit(enf.get_record(second.id), by="chefe", today=dt.date(2026, 3, 19))
    with acting_as(CHEFE):
        enf.decide_sanctions(
            second,
            enf.AdjustInput(reason="gravidade média", days={suspension.number: 7}),
            by="Chefe",
            today=dt.date(2026, 3, 19),
        )
    permit = enf.apply_to_permit(enf.get_record(second.id), by="chefe", today=dt.date(2026, 3, 19))
    assert permit.status == "suspended"
    html = __import__("reports.enforcement_docs", fromlist=["record_html"]).record_html(enf.get_record(second.id))
    assert "verificado em 19/03/2026 por Marcos Fiscal" in html and "Decisão sobre a sanção nº 2" in html


def test_the_printed_record_shows_the_reading_of_the_doubling_olimpia_art_12(keys):
    from reports.enforcement_docs import record_html

    holder = person("Quiosque Reincidente")
    issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=holder))
    second = issue(draft("olimpia-2025", ["tpu-area-suja"], "09/03/2026 09:30", holder=holder))
    html = record_html(second, today=dt.date(2026, 3, 9))
    assert "Leitura adotada" in html and "2× na primeira e 4× na segunda" in html
    assert "Contam: 02/03/2026" in html


def test_the_preview_cites_only_the_regimes_own_articles_for_what_a_record_needs():
    """The inspector's registration number is Olímpia's requirement (art. 32, V); a witness Ilha Comprida's
    (art. 29, parágrafo único): a São Bento record is warned of neither."""
    regime = REGIMES["sao-bento-2026"]
    assert regime.penalties.record is None
    olimpia = REGIMES["olimpia-2025"].penalties.record
    assert olimpia.inspector_id.basis == "art. 32, V" and olimpia.witness_when_unsigned is None
    assert REGIMES["ilha-comprida-2017"].penalties.record.witness_when_unsigned.basis == "art. 29, parágrafo único"


# --------------------------------------------------------------------------- 1. the desk


def test_the_desk_lets_the_authority_omit_and_impose_with_a_reason(qtbot, keys, app_ready):
    from views.enforcement import AdjustDialog, EnforcementPage

    holder = person("Ambulante do Indomit")
    record = issue(
        draft("sao-bento-2026", ["sem-placa"], "28/03/2026 20:00", holder=holder, payment_due=dt.date(2026, 4, 30))
    )
    page = EnforcementPage(today=dt.date(2026, 3, 30))
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.refresh()
    tab = page.records
    tab.select_record(record.id)
    detail = tab.detail.toPlainText()
    assert "proposta, aguardando a decisão da autoridade" in detail
    assert tab.buttons["sanctions"].isEnabled()

    def omit_seizure(dialog):
        assert isinstance(dialog, AdjustDialog)
        dialog.sanction.setCurrentIndex(dialog.sanction.findData(2))
        assert [dialog.what.itemData(i) for i in range(dialog.what.count())] == ["apply", "omit"]
        dialog.what.setCurrentIndex(dialog.what.findData("omit"))
        dialog.accept()
        assert "motivo" in dialog.error.text()  # the reason is required
        type_text(dialog.reason, "mercadoria dentro da barraca")
        dialog.accept()

    run_modal(lambda: tab.decide_sanctions_selected(), omit_seizure)
    assert "nº 2: proposta → dispensada" in tab.message.text()
    assert "dispensada pela autoridade" in tab.detail.toPlainText()

    def impose_fine(dialog):
        dialog.sanction.setCurrentIndex(dialog.sanction.findData(1))
        dialog.what.setCurrentIndex(dialog.what.findData("apply"))
        type_text(dialog.reason, "placa ausente")
        dialog.accept()

    run_modal(lambda: tab.decide_sanctions_selected(), impose_fine)
    assert "O ato não fixa prazo de pagamento" in tab.message.text()  # São Bento sets none: asked for
    assert fines(record) == []


def test_the_desk_records_the_fact_a_condition_waits_for(qtbot, keys, app_ready):
    from views.enforcement import EnforcementPage

    holder = person("Comerciante da Calçada")
    record = issue(draft("olimpia-2025", ["passeio-mesas-cadeiras"], "02/03/2026 09:30", holder=holder))
    page = EnforcementPage(today=dt.date(2026, 3, 10))
    qtbot.addWidget(page)
    page.refresh()
    tab = page.records
    tab.select_record(record.id)

    def fact(dialog):
        fine = next(s for s in dialog.proposal.sanctions if s.kind == "fine")
        dialog.sanction.setCurrentIndex(dialog.sanction.findData(fine.number))
        assert "art. 260, II" in dialog.state.text()
        assert dialog.what.currentData() == "fact" and dialog.fact_on.isVisibleTo(dialog)
        dialog.fact_on.set_date(dt.date(2026, 3, 9))
        dialog.fact_by.setText("Fiscal Rui")
        type_text(dialog.fact_note, "mesas ainda no passeio")
        type_text(dialog.reason, "vistoria após o prazo")
        dialog.accept()

    run_modal(lambda: tab.decide_sanctions_selected(), fact)
    fine = next(s for s in enf.current_sanctions(record) if s["kind"] == "fine")
    assert fine["decision"] == "imposed" and fine["condition_met"]["by"] == "Fiscal Rui"
    assert "verificado em 09/03/2026 por Fiscal Rui" in tab.detail.toPlainText()


# --------------------------------------------------------------------------- 1. depot, units, exemption


def test_the_depot_daily_fee_is_olimpias_only_in_chapters_xv_and_xvii(keys):
    """LC 324/2025, art. 145, § 2º and art. 215, § 4º set 1 UFESP a day for street vending and feiras; a street
    food seizure (art. 194) owes the expenses of art. 23, parágrafo único, as the Administration assesses them."""
    holder = person("Food Truck Apreendido")
    food = issue(
        draft(
            "olimpia-2025",
            ["tpu-produto-irregular"],
            "02/03/2026 09:30",
            kind="seizure",
            holder=holder,
            depot="Depósito",
            items=[enf.ItemInput("salgados", "20", "un", True)],
        )
    )
    assert food.scope == "street-food"  # the infraction's declared matter
    fee = enf.depot_fee(food, dt.date(2026, 3, 5))
    assert fee.amount is None and not fee.daily and "art. 23, parágrafo único" in fee.basis
    with pytest.raises(UserError, match="despesas"):
        enf.charge_depot_fee(food, on=dt.date(2026, 3, 5), by="deposito")
    charge = enf.charge_depot_fee(food, on=dt.date(2026, 3, 5), by="deposito", amount="85,00")
    assert charge.label.startswith("Despesas de apreensão, transporte e guarda")
    with pytest.raises(UserError, match="já foram lançadas"):
        enf.charge_depot_fee(food, on=dt.date(2026, 3, 6), by="deposito", amount="10,00")
    street = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "02/03/2026 09:30",
            kind="seizure",
            holder=person("Ambulante Apreendido"),
            depot="Depósito",
            items=[enf.ItemInput("bonés", "30", "un")],
        )
    )
    assert enf.depot_fee(street, dt.date(2026, 3, 4)).amount == D("76.84")  # 2 days × 1 UFESP


def test_units_are_listed_and_set_from_the_command_line_audited(database, capsys):
    """A server prepared headless: Ilha Comprida's UFIC has no value in the act (Dec. 890/2017, art. 19, § 2º);
    ``praca units set`` records one, audited, and ``praca penalty`` then sanctions with it."""
    from models.store.audit import AuditEntry
    from models.store.bootstrap import close_database

    close_database()
    assert main(["units", "--db", database]) == 0
    assert "UFIC — Unidade Fiscal de Ilha Comprida" in capsys.readouterr().out
    assert (
        main(
            [
                "penalty",
                "--db",
                database,
                "--regime",
                "ilha-comprida-2017",
                "--infraction",
                "nao-portar-cartao",
                "--prior",
                "1",
                "--date",
                "2026-03-10",
            ]
        )
        == 2
    )
    assert "units set UFIC 2026 VALOR --source TEXTO" in capsys.readouterr().err
    assert main(["units", "set", "UFIC", "2026", "3,75", "--db", database]) == 2
    assert "--source" in capsys.readouterr().err
    assert main(["units", "set", "UFIC", "2026", "3,75", "--source", "Decreto nº 1.200/2025", "--db", database]) == 0
    assert "UFIC 2026 = R$ 3,75 gravado" in capsys.readouterr().out
    assert main(["units", "set-index", "INPC", "2015", "6,23", "--source", "IBGE", "--db", database]) == 0
    assert "INPC 2015: correção de 6,23 % gravada" in capsys.readouterr().out
    assert main(["units", "--json", "--db", database]) == 0
    data = json.loads(capsys.readouterr().out)
    ufic = next(u for u in data["units"] if u["code"] == "UFIC")
    assert ufic["values"] == [
        {
            "year": 2026,
            "value": "3.75",
            "origin": "cadastro",
            "source": ufic["values"][0]["source"],
            "file_value": None,
            "fixed_by": [],
        }
    ]
    inpc = next(i for i in data["indexes"] if i["code"] == "INPC")
    assert inpc["corrections"][0]["year"] == 2015 and inpc["factor"]["missing"][0] == 2016
    assert (
        main(
            [
                "penalty",
                "--db",
                database,
                "--regime",
                "ilha-comprida-2017",
                "--infraction",
                "nao-portar-cartao",
                "--prior",
                "1",
                "--date",
                "2026-03-10",
            ]
        )
        == 0
    )
    assert "até 200 UFIC × R$ 3,75 (UFIC 2026) = R$ 750,00" in capsys.readouterr().out
    open_new_database(database)
    assert AuditEntry.select().where(AuditEntry.table_name == "fiscal_unit_value").count() == 1
    assert main(["units", "set", "UFX", "2026", "1", "--source", "x", "--db", database]) == 2
    assert "não é declarada" in capsys.readouterr().err


def test_charitable_events_are_exempt_from_the_venue_fee_and_deposit_olimpia_art_90(capsys, sqlite_url):
    from models.rules.fees import fee_quote

    quote = fee_quote("olimpia-2025", venue="recinto-arena", days=2, year=2026, exemption="assistencial")
    assert [line.amount for line in quote.lines] == [D("0.00"), D("0.00")]
    assert "sem a dispensa: 3 × 15 × 38,42 = R$ 1.728,90" in quote.lines[0].formula
    assert "art. 90" in quote.lines[0].basis and "art. 90" in quote.lines[1].basis
    full = fee_quote("olimpia-2025", venue="recinto-arena", days=2, year=2026)
    assert full.lines[0].amount == D("1728.90")
    # art. 89: the reading of "taxa por dia (mínimo de N dias)" is stated on the line
    assert any(d.startswith("Leitura adotada (LC 324/2025, art. 89)") for d in full.lines[0].details)
    with pytest.raises(UserError, match="Dispensa 'gratis' não existe"):
        fee_quote("olimpia-2025", venue="recinto-arena", days=2, year=2026, exemption="gratis")
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--venue",
                "recinto-arena",
                "--days",
                "2",
                "--year",
                "2026",
                "--exemption",
                "em-beneficio-de-entidade",
            ]
        )
        == 0
    )
    assert "Total: R$ 0,00" in capsys.readouterr().out


# --------------------------------------------------------------------------- 2. deadlines: meaning declared


ROLE_USERS = {
    **{role: "models.enforcement" for role in enf.ROLES},
    "selection-appeal": "models.selection.process",
    "selection-decision": "models.selection.process",
    "startup": "models.permits",
    "use": "models.permits",
    "pickup": "models.permits",
}


@pytest.mark.parametrize("kind, article, days", [("defence", "art. 34", 20), ("defence-tpu", "art. 198", 10)])
def test_olimpia_defence_counts_from_the_receipt_of_the_auto_not_its_lavratura(sqlite_url, capsys, kind, article, days):
    """LC 324/2025, arts. 34 and 198: the defence is counted "da data do recebimento (comprovado) do auto de
    infração" — the command line and the regime sheet say so, and the desk counts from the offender's notice."""
    code = main(["deadline", "--db", sqlite_url, "--regime", "olimpia-2025", "--kind", kind, "--from", "03/03/2026"])
    out = capsys.readouterr().out
    assert code == 0 and f"{days} dias corridos, contados do recebimento do auto de infração" in out
    assert "lavratura" not in out and f"LC 324/2025, {article}" in out
    assert main(["regimes", "--show", "olimpia-2025"]) == 0
    sheet = capsys.readouterr().out
    assert "contados da lavratura" not in sheet and sheet.count("contados do recebimento do auto de infração") == 2


def test_every_deadline_of_the_five_acts_declares_a_role_the_engine_handles():
    from models.permits.startup import PERMIT_ROLES
    from models.rules import describe

    assert set(DEADLINE_ROLES) == set(describe.ROLES)  # each role has its label
    assert set(PROCESS_ROLES) <= set(DEADLINE_ROLES)
    for regime in REGIMES.values():
        for d in regime.deadlines:
            assert d.role in DEADLINE_ROLES, (regime.id, d.id)
            if d.role in enf.ROLES:
                assert enf.deadline_role(d) == d.role
            if d.role in ("startup", "use", "pickup"):
                assert d.role in PERMIT_ROLES
            if d.role == "reclaim":
                assert d.perishable is not None
            assert d.from_ in describe.EVENTS
            rule = regime.closed_day_rule(d)
            if d.role in PROCESS_ROLES and d.direction == "after":
                assert rule is not None, (regime.id, d.id)  # every process deadline knows its closed-day rule


@pytest.mark.parametrize(
    "old, new, key, reason",
    [
        ('role = "appeal"\n', "", "role", "chave obrigatória ausente"),
        ('role = "appeal"\n', 'role = "recurso"\n', "role", "não previsto"),
        ('from = "penalty"\n', 'from = "penalidade"\n', "from", "não previsto"),
        ('role = "appeal"\n', 'role = "appeal"\nperishable = true\n', "perishable", "retirada"),
        ("[calendar]\nclosed_day", "[calendario_antigo]\nclosed_day", "calendario_antigo", "desconhecida"),
    ],
)
def test_the_loader_rejects_an_undeclared_or_unknown_deadline_meaning(tmp_path, old, new, key, reason):
    from factories import BASE_REGIME as BASE
    from factories import write_regime as write

    assert old in BASE
    with pytest.raises(RegimeError) as error:
        load_regime_file(write(tmp_path, BASE.replace(old, new, 1)))
    assert key in (error.value.key or "") and reason in str(error.value)


def test_a_process_deadline_without_a_closed_day_rule_is_refused(tmp_path):
    from factories import BASE_REGIME as BASE
    from factories import write_regime as write

    text = BASE.replace(
        '[calendar]\nclosed_day = { rule = "next-business-day", basis_act = "Lei nº 9.784/1999, art. 66, § 1º" }\n', ""
    )
    with pytest.raises(RegimeError, match=r"Lei nº 9.784/1999"):
        load_regime_file(write(tmp_path, text))


@pytest.mark.parametrize(
    "sanction, key, reason",
    [
        (
            '{ kind = "fine", multiplier = "1", condition = { fact = "chuva", text = "x", basis = "art. 7º" }, '
            'basis = "art. 7º" }',
            "condition.fact",
            "não previsto",
        ),
        ('{ kind = "fine", multiplier = "1", one_of = "a", basis = "art. 7º" }', "one_of", "discretionary"),
        ('{ kind = "warning", comply_days = 30, deadline = "appeal", basis = "art. 7º" }', "deadline", "regularização"),
    ],
)
def test_the_loader_rejects_badly_declared_sanctions(tmp_path, sanction, key, reason):
    from factories import BASE_REGIME as BASE
    from factories import write_regime as write

    old = 'sanctions = [ { kind = "fine", multiplier = "1", basis = "art. 7º" } ]'
    assert old in BASE
    with pytest.raises(RegimeError) as error:
        load_regime_file(write(tmp_path, BASE.replace(old, f"sanctions = [ {sanction} ]", 1)))
    assert key in (error.value.key or "") and reason in str(error.value)


def test_the_regime_summary_counts_deadlines_as_the_act_says_olimpia_art_24(capsys):
    """LC 324/2025, art. 24: 30 dias úteis — never "corridos"; and each closed-day rule with its basis."""
    assert main(["regimes", "--show", "olimpia-2025"]) == 0
    out = capsys.readouterr().out
    assert "Prazo para retirar os demais bens: 30 dias úteis" in out
    assert "30 dias úteis, contados da apreensão" in out
    assert (
        "prorroga-se até o primeiro dia útil seguinte (um prazo em horas, até a mesma hora desse dia) "
        "(LC 324/2025, art. 315; Lei nº 9.784/1999, art. 66, § 1º (aplicação subsidiária))"
    ) in out
    assert "vai até o fim do expediente do primeiro dia útil seguinte (LC 324/2025, art. 24, § 2º, I)" in out


def test_deadline_command_moves_off_closed_days_citing_lei_9784_art_66(capsys):
    assert main(["deadline", "--regime", "ilha-comprida-2017", "--kind", "startup", "--from", "2026-03-07"]) == 0
    assert "não é prazo do processo administrativo" in capsys.readouterr().out
    assert (
        main(["deadline", "--regime", "sjc-2014", "--kind", "appeal-revocation", "--from", "15/12/2026", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["due"] == "2026-12-28" and data["extended"] and data["closed_rule"] == "next-business-day"
    assert data["basis"].endswith("Lei nº 9.784/1999, art. 66, § 1º (aplicação subsidiária)")


def test_record_deadlines_on_the_desk_move_off_closed_days(keys):
    """Olímpia art. 198: the street-food defence, 10 days from Thursday 12/03/2026, ends on Sunday 22/03 →
    Monday 23/03 (art. 315; Lei 9.784/1999, art. 66, § 1º)."""
    record = issue(draft("olimpia-2025", ["tpu-area-suja"], "12/03/2026 09:30", holder=person("Quiosqueiro da Praça")))
    defence = next(d for d in record.deadline_data if d["role"] == "defence")
    assert defence["kind"] == "defence-tpu" and defence["due_date"] == "2026-03-23" and defence["extended"]
    assert "art. 315" in defence["basis"] and "9.784/1999, art. 66, § 1º" in defence["basis"]


def test_selection_and_permit_deadlines_follow_the_legal_calendar_sapezal(keys):
    """Sapezal (Lei 1.171/2014, art. 37): the licence is picked up within 5 business days; its start-up (art. 35,
    VI, b) is not a process deadline and stays where it falls."""
    from factories import sapezal_licence

    from models.permits import startup_deadlines

    permit = sapezal_licence(keys, person("Ambulante de Sapezal"), on=dt.date(2026, 3, 4))
    rows = {d.article: d for d in startup_deadlines(dt.date(2026, 3, 5)) if d.permit_id == permit.id}
    pickup = next(d for a, d in rows.items() if "art. 37" in a)
    assert pickup.kind == "pickup" and pickup.due == dt.date(2026, 3, 11)
    startup = next(d for a, d in rows.items() if "art. 35, VI, b" in a)
    assert startup.kind == "startup" and startup.due == dt.date(2026, 3, 14)  # a Saturday: the holder's own
    # art. 60: 30 days from 04/03 end on Friday 03/04 (Good Friday) → Monday 06/04, the office being closed
    collection = next(d for a, d in rows.items() if "art. 60" in a)
    assert collection.kind == "pickup" and collection.due == dt.date(2026, 4, 6)


def test_an_event_application_takes_the_venue_and_the_exemption_olimpia_arts_89_and_90(
    qtbot, app_ready, db_url, tmp_path
):
    """LC 324/2025, art. 90: an event in benefit of a charitable entity is exempt from the venue fee and deposit —
    an input of the application; § 2º: the entity's consent is then required."""
    from factories import application_dialog, statuses

    from models.registry.applications import Application
    from models.registry.people import PersonInput, save_person
    from models.store.files import set_store

    open_new_database(db_url)
    set_store(tmp_path / "files")
    promoter = save_person(
        PersonInput(name="Promotora de Festas Beneficentes", cpf="529.982.247-25", birth_date=dt.date(1980, 5, 17)),
        today=dt.date(2026, 3, 2),
    )
    dialog = application_dialog(qtbot, "person", promoter.id, "olimpia-2025", "event-public", today=dt.date(2026, 3, 2))
    assert dialog.venue_box.isVisible()
    dialog.venue.setCurrentIndex(dialog.venue.findData("recinto-arena"))
    type_text(dialog.days, "2")
    dialog.settle()
    assert "R$ 1.728,90" in dialog.quote_table.item(0, 1).text()
    dialog.exemption.setCurrentIndex(dialog.exemption.findData("em-beneficio-de-entidade"))
    dialog.settle()
    assert dialog.quote_table.item(0, 1).text() == "R$ 0,00" and "art. 90" in dialog.quote_table.item(0, 3).text()
    rules = {
        dialog.rules.item(r, 0).text().split("\n")[0]: dialog.rules.item(r, 1).text()
        for r in range(dialog.rules.rowCount())
    }
    consent = next(k for k in rules if "concordância da entidade" in k)
    assert consent.startswith("✘") and rules[consent] == "LC 324/2025, art. 90, §§ 1º e 2º"
    # the receipts of the fee and deposit it waives are moot (art. 86 asks them only of what is charged)
    assert all(k.startswith("✔") for k in rules if "quitada" in k)
    dialog.set_delivered("charity-consent", True, on=dt.date(2026, 3, 2))
    dialog.set_delivered("event-request", True, on=dt.date(2026, 3, 2))
    dialog.settle()
    assert any(row.startswith("✔") and "concordância da entidade" in row for row in statuses(dialog))
    dialog.save()
    app = Application.get()
    assert (app.venue, app.days, app.exemption) == ("recinto-arena", 2, "em-beneficio-de-entidade")
    assert json.loads(app.quote_json)["lines"][0]["amount"] == "0.00"
