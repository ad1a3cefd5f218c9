"""Fiscalização: records issued through the real flow, each ladder and deadline against its article, gapless
numbers, corrections and identifications as new records, fines as charges, defences and appeals, seizures.

Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from factories import at, beach_licence, draft, feirante, fines, pay, person, sapezal_licence, tpu
from factories import (
    issue_record as issue,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.billing.charges import Charge
from models.billing.fiscal import set_unit_value
from models.permits import Permit, PermitEvent
from models.rules.regimes import get_regime

UFESP_2026 = Decimal("38.42")


def deadline(record: enf.Record, role: str, **match) -> dict:
    found = [d for d in record.deadline_data if d["role"] == role and all(d.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (role, record.deadline_data)
    return found[0]


# --------------------------------------------------------------------------- Olímpia, general ladder


def test_olimpia_notice_then_record_then_doubling_art_9_to_12(keys):
    jose = person("José Aparecido Lima")
    notice = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "02/03/2026 09:30", kind="notice", holder=jose))
    # art. 9º–10: a warning with 30 days to comply; the 20 UFESP fine only if not complied (art. 14; art. 28, VII)
    comply = deadline(notice, "compliance")
    assert comply["due_date"] == "2026-04-01" and "art. 10" in comply["basis"]
    sanctions = notice.proposal_data["infractions"][0]["sanctions"]
    assert [s["kind"] for s in sanctions] == ["warning", "fine"]
    assert sanctions[1]["condition"]["fact"] == "not-complied" and sanctions[1]["amount"] == "768.40"
    assert sanctions[1]["decision"] == "proposed" and sanctions[1]["discretionary"]  # art. 10, p. ú.: "poderá"
    assert enf.charges_of(notice) == [] and notice.fine_total == 0  # a notice imposes no fine
    assert [d["role"] for d in notice.deadline_data] == ["compliance"]

    # art. 29: the deadline passed without regularisation → infraction record, the same occurrence; the fact
    # is verified by the record itself and the authority imposes the fine it may impose (art. 10, p. ú.)
    record = issue(
        draft(
            "olimpia-2025",
            ["geral-sem-penalidade"],
            "06/04/2026 10:00",
            holder=jose,
            refers_to_id=notice.id,
            relation="follows-notice",
            adjustments=[enf.AdjustInput(reason="não regularizou no prazo", apply=(2,))],
        )
    )
    assert record.fine_total == Decimal("768.40")  # 20 UFESP × R$ 38,42 (art. 14)
    fine = record.proposal_data["infractions"][0]["sanctions"][1]
    assert fine["condition_met"]["on"] == "2026-04-06" and fine["condition_met"]["by"] == "Marcos Fiscal"
    payment = deadline(record, "payment")
    assert payment["due_date"] == "2026-06-05" and payment["basis"] == "LC 324/2025, art. 11"  # 60 days
    defence = deadline(record, "defence")
    assert defence["due_date"] == "2026-04-27" and "art. 34" in defence["basis"]  # 20 days: Sunday → Monday
    assert not [d for d in record.deadline_data if d["role"] == "compliance"]
    [charge] = fines(record)
    assert charge.amount == Decimal("768.40") and charge.due_on == dt.date(2026, 6, 5)
    assert charge.source == record.reference and charge.person_id == jose.id and charge.kind == "fine"
    assert "art. 14" in charge.basis and "art. 11" in charge.basis

    # art. 12, § 1º: the next occurrence of the same nature within 5 years doubles; the third quadruples
    second = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "04/05/2026 10:00", holder=jose))
    assert second.fine_total == Decimal("1536.80")
    assert second.proposal_data["infractions"][0]["offence"] == 2
    assert second.proposal_data["prior_refs"] == [f"{record.reference} de 02/03/2026"]
    third = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "01/06/2026 10:00", holder=jose))
    assert third.fine_total == Decimal("3073.60")
    fourth = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "01/07/2026 10:00", holder=jose))
    kinds = [s["kind"] for s in fourth.proposal_data["infractions"][0]["sanctions"]]
    assert kinds == ["suspension", "interdiction"] and fourth.fine_total == 0  # art. 12, § 2º
    # art. 15, § 1º: the suspension is the municipality's discretion — proposed, not imposed
    assert [s["decision"] for s in fourth.proposal_data["infractions"][0]["sanctions"]] == ["proposed", "imposed"]


def test_a_different_nature_or_offender_does_not_count(keys):
    ana, bia = person("Ana Beatriz Souza"), person("Bianca Moreira")
    issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=ana))
    other_nature = issue(draft("olimpia-2025", ["tpu-higiene-pessoal"], "03/03/2026 09:30", holder=ana))
    other_person = issue(draft("olimpia-2025", ["tpu-area-suja"], "03/03/2026 10:30", holder=bia))
    assert other_nature.fine_total == other_person.fine_total == Decimal("1152.60")  # 30 UFESP, art. 192


def test_olimpia_street_food_recurrence_suspends_the_permit_180_days(keys):
    holder = person("Carla Nakamura")
    permit = tpu(keys, holder, on=dt.date(2026, 1, 10))
    first = issue(
        draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", permit_id=permit.id, scope="street-food")
    )
    assert first.person_id == holder.id  # the permit's holder is the offender
    assert deadline(first, "defence")["due_date"] == "2026-03-12"  # 10 days, art. 198
    assert "art. 198" in deadline(first, "defence")["basis"]
    second = issue(
        draft(
            "olimpia-2025",
            ["tpu-area-suja"],
            "10/08/2026 11:00",
            permit_id=permit.id,
            scope="street-food",
            apply_to_permit=True,
        )
    )
    assert second.fine_total == Decimal("2305.20")  # doubled, art. 192, § 1º
    permit = Permit.get_by_id(permit.id)
    assert permit.status == "suspended"  # 180 days, art. 193, § 2º — through models.permits.suspend
    event = PermitEvent.select().where(PermitEvent.permit == permit.id).order_by(PermitEvent.id.desc()).first()
    assert event.kind == "suspended" and event.end == dt.date(2026, 8, 10) + dt.timedelta(days=179)
    assert second.reference in event.reason and "art. 193, § 2º" in event.reason
    with pytest.raises(UserError, match="já foi aplicada"):
        enf.apply_to_permit(second, by="chefe", today=dt.date(2026, 8, 11))


# --------------------------------------------------------------------------- Olímpia, street vending and seizures


def test_olimpia_street_vending_one_hour_then_fine_and_seizure_with_depot_fee(keys):
    vendor = person("Ronaldo Pipoqueiro")
    notice = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 15:00",
            kind="notice",
            holder=vendor,
            scope="street-vending",
        )
    )
    comply = deadline(notice, "compliance")  # art. 145, I: withdraw the goods within one hour, even on a Saturday
    assert comply["due"] == "2026-03-14T16:00" and "art. 145, I" in comply["basis"] and comply["ends_on_closed_day"]
    record = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 16:10",
            holder=vendor,
            scope="street-vending",
            refers_to_id=notice.id,
            relation="follows-notice",
        )
    )
    assert record.fine_total == Decimal("384.20")  # 10 UFESP, art. 145, § 1º
    seizure = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 16:20",
            kind="seizure",
            holder=vendor,
            scope="street-vending",
            refers_to_id=record.id,
            relation="accompanies",
            items=[
                enf.ItemInput("picolés de frutas", "40", "un", True),
                enf.ItemInput("carrinho térmico", "1", "un", False),
            ],
            depot="Depósito municipal, Rua Síria, 300",
        )
    )
    perishable = deadline(seizure, "reclaim", perishable=True)  # 24 hours end on Sunday: Monday, the same hour
    assert perishable["due"] == "2026-03-16T16:20" and "art. 149" in perishable["basis"]
    assert "9.784/1999, art. 66, § 1º" in perishable["basis"]
    other = deadline(seizure, "reclaim", perishable=False)
    assert other["count"] == "business" and "art. 24" in other["basis"]  # 30 business days
    # the seizure is drawn up with the infraction record (art. 33): the same occurrence, no second fine
    assert seizure.fine_total == 0 and fines(seizure) == []
    assert seizure.proposal_data["infractions"][0]["offence"] == 1
    # art. 145, § 2º: 1 UFESP per day in the depot
    fee = enf.depot_fee(seizure, dt.date(2026, 3, 17))
    assert fee.days == 3 and fee.amount == Decimal("115.26") and "art. 145, § 2º" in fee.basis

    # art. 23, parágrafo único: given back only after the fines and the depot are paid
    with pytest.raises(UserError, match="multa nº"):
        enf.release_items(seizure, on=dt.date(2026, 3, 15), by="deposito")
    for charge in fines(record) + fines(seizure):
        pay(charge, dt.date(2026, 3, 15), ref=f"F-{charge.id}")
    with pytest.raises(UserError, match="diárias de depósito até 15/03/2026"):
        enf.release_items(seizure, on=dt.date(2026, 3, 15), by="deposito")
    depot = enf.charge_depot_fee(seizure, on=dt.date(2026, 3, 15), by="deposito")
    assert depot.kind == "depot" and depot.amount == UFESP_2026 and depot.source == seizure.reference
    with pytest.raises(UserError, match=f"diárias de depósito nº {depot.number}"):
        enf.release_items(seizure, on=dt.date(2026, 3, 15), by="deposito")
    pay(depot, dt.date(2026, 3, 15), ref="D-1")
    released = enf.release_items(seizure, on=dt.date(2026, 3, 15), by="deposito")
    assert all(i.released_on == dt.date(2026, 3, 15) for i in released)
    assert enf.seized_goods(dt.date(2026, 3, 16)) == []


def test_seized_goods_list_what_is_due_today_and_donation_after_the_deadline(keys):
    vendor = person("Feirante sem Autorização")
    for when in ("14/02/2026 08:00", "21/02/2026 08:00", "28/02/2026 08:00"):  # three feiras tolerated (art. 218)
        tolerated = issue(draft("olimpia-2025", ["feira-sem-autorizacao"], when, kind="notice", holder=vendor))
        assert tolerated.fine_total == 0
    seizure = issue(
        draft(
            "olimpia-2025",
            ["feira-sem-autorizacao"],
            "07/03/2026 08:00",
            kind="seizure",
            holder=vendor,
            scope="feira",
            items=[enf.ItemInput("caixas de tomate", "5", "cx", False)],
            depot="Galpão da feira",
        )
    )
    # art. 215: 10 UFESP to release, 72 hours for goods that do not perish (§ 2º)
    assert seizure.fine_total == Decimal("384.20")
    reclaim = deadline(seizure, "reclaim", perishable=False)
    assert reclaim["due"] == "2026-03-10T08:00" and "art. 215, § 2º" in reclaim["basis"]
    [row] = enf.seized_goods(dt.date(2026, 3, 9))
    assert row.days == 2 and row.depot_due == Decimal("76.84") and row.fines_open == Decimal("384.20")
    assert row.total_due == Decimal("461.04") and row.state == "no prazo de retirada" and not row.reclaim_passed
    with pytest.raises(UserError, match="Ainda no prazo de retirada"):
        enf.donate_items(seizure, on=dt.date(2026, 3, 9), by="deposito", to="Lar São Vicente")
    [row] = enf.seized_goods(dt.date(2026, 3, 11))
    assert row.reclaim_passed and row.state.startswith("prazo de retirada vencido")
    donated = enf.donate_items(seizure, on=dt.date(2026, 3, 11), by="deposito", to="Lar São Vicente de Paulo")
    assert donated[0].donated_to == "Lar São Vicente de Paulo"
    assert enf.seized_goods(dt.date(2026, 3, 11)) == []
    with pytest.raises(UserError, match="Nada a devolver"):
        enf.release_items(seizure, on=dt.date(2026, 3, 11), by="deposito")


def test_perishables_may_go_at_once_with_the_offenders_consent_art_149(keys):
    vendor = person("Vendedor de Frutas")
    seizure = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 15:00",
            kind="seizure",
            holder=vendor,
            scope="street-vending",
            depot="Depósito municipal",
            items=[enf.ItemInput("bandejas de morango", "12", "un", True)],
        )
    )
    done = enf.donate_items(seizure, on=dt.date(2026, 3, 14), by="deposito", to="Casa da Criança", consent=True)
    assert "anuência" in done[0].note


def test_only_goods_past_their_deadline_are_donated(keys):
    vendor = person("Vendedor Misto")
    seizure = issue(
        draft(
            "olimpia-2025",
            ["ambulante-sem-autorizacao"],
            "14/03/2026 15:00",
            kind="seizure",
            holder=vendor,
            scope="street-vending",
            depot="Depósito municipal",
            items=[enf.ItemInput("bananas", "2", "cx", True), enf.ItemInput("carrinho", "1")],
        )
    )
    # 24 hours (art. 149) from Saturday end on Sunday: the same hour of Monday 16/03 (art. 315; Lei 9.784/1999)
    with pytest.raises(UserError, match="bananas: prazo de retirada até 16/03/2026"):
        enf.donate_items(seizure, on=dt.date(2026, 3, 16), by="deposito", to="Casa da Criança")
    done = enf.donate_items(seizure, on=dt.date(2026, 3, 17), by="deposito", to="Casa da Criança")
    assert [i.description for i in done] == ["bananas"]  # the cart has 30 business days
    [row] = enf.seized_goods(dt.date(2026, 3, 17))
    assert row.items == "1 un carrinho" and not row.reclaim_passed
    with pytest.raises(UserError, match="carrinho: prazo de retirada"):
        enf.donate_items(seizure, on=dt.date(2026, 3, 17), by="deposito", to="Casa da Criança")


def test_where_the_act_sets_no_reclaim_deadline_the_donation_needs_its_ground(keys):
    set_unit_value(get_regime("sapezal-2014"), "UFS", 2026, "52,30", entered_by="teste", reason="decreto de teste")
    holder = person("Joaquim Sapezalense")
    seizure = issue(
        draft(
            "sapezal-2014",
            ["proibido-44-v"],
            "02/03/2026 18:00",
            kind="seizure",
            holder=holder,
            payment_due=dt.date(2026, 4, 1),
            depot="Almoxarifado",
            items=[enf.ItemInput("espetinhos sem refrigeração", "30", "un", True)],
            adjustments=[enf.AdjustInput(reason="alimento impróprio", apply=(3,))],
        )
    )
    assert [d for d in seizure.deadline_data if d["role"] == "reclaim"] == []  # art. 52, § 3º: no deadline
    with pytest.raises(FieldErrors, match="não fixa prazo de retirada"):
        enf.donate_items(seizure, on=dt.date(2026, 3, 3), by="deposito", to="Entidade social")
    done = enf.donate_items(
        seizure,
        on=dt.date(2026, 3, 3),
        by="deposito",
        to="Entidade social",
        reason="avaliação técnica da Vigilância Sanitária",
    )
    assert done[0].donated_on == dt.date(2026, 3, 3)


def test_the_demo_has_a_year_of_enforcement(demo_database):
    counts = demo_database.counts  # the demo records its year of enforcement once the permits exist
    assert counts["records"] >= 15 and counts["seizures"] == 2 and counts["contests"] == 3
    records = list(enf.Record.select())
    assert {r.regime for r in records} == {
        "olimpia-2025",
        "sjc-2014",
        "sapezal-2014",
        "ilha-comprida-2017",
        "sao-bento-2026",
    }
    for kind in ("notice", "infraction", "seizure"):
        numbers = sorted(r.seq for r in records if r.kind == kind)
        assert numbers == list(range(1, len(numbers) + 1))  # gapless
    by_kind_date = sorted((r for r in records if r.kind == "infraction"), key=lambda r: r.seq)
    assert [r.at for r in by_kind_date] == sorted(r.at for r in by_kind_date)  # numbers follow the calendar
    items = list(enf.SeizedItem.select())
    assert any(i.released_on and i.perishable for i in items) and any(i.donated_on for i in items)
    contests = list(enf.Contest.select())
    assert any(c.outcome == "partly" for c in contests) and any(c.kind == "appeal" and c.pending for c in contests)
    assert any(r.relation == "identification" for r in records) and any(r.relation == "correction" for r in records)
    assert any(r.proposal_data["infractions"][0]["offence"] == 2 for r in records)  # recurrences
    assert enf.debt_register(dt.date(2026, 11, 30))


def test_perishables_general_rule_three_days_moved_past_tiradentes_art_24_par_2_i(keys):
    holder = person("Dona Quitéria")
    seizure = issue(
        draft(
            "olimpia-2025",
            ["tpu-produto-irregular"],
            "18/04/2026 10:00",
            kind="seizure",
            holder=holder,
            scope="street-food",
            depot="Depósito municipal",
            items=[enf.ItemInput("salgados sem procedência", "60", "un", True)],
        )
    )
    reclaim = deadline(seizure, "reclaim", perishable=True)
    # 18/04 + 3 days = 21/04 (Tiradentes) → the end of office hours of 22/04
    assert reclaim["due_date"] == "2026-04-22" and reclaim["extended"]
    assert "art. 24, § 2º, I" in reclaim["basis"]


# --------------------------------------------------------------------------- the other regimes


def test_sao_bento_r_150_for_not_tearing_down_and_the_due_date_the_act_does_not_fix(keys):
    holder = person("Joana Barraqueira")
    d = draft(
        "sao-bento-2026",
        ["nao-desmontar"],
        "30/03/2026 13:30",
        holder=holder,
        place="Rua Cel. Ribeiro da Luz, barraca 12",
    )
    with pytest.raises(FieldErrors) as error:
        issue(d)
    assert "payment_due" in error.value.errors  # the decree sets no payment deadline: the clerk enters it
    record = issue(d.__class__(**{**d.__dict__, "payment_due": dt.date(2026, 4, 30)}))
    assert record.fine_total == Decimal("150.00")
    [charge] = fines(record)
    assert charge.due_on == dt.date(2026, 4, 30) and "art. 2º, § 2º" in charge.basis
    sanctions = [s["kind"] for s in record.proposal_data["infractions"][0]["sanctions"]]
    assert "impediment" in sanctions


def test_sjc_notice_24_hours_then_graded_fine_and_appeal_in_72_hours(keys, inpc):
    holder = person("Pedro Pasteleiro")
    permit = feirante(keys, holder, on=dt.date(2026, 2, 2))
    notice = issue(
        draft(
            "sjc-2014",
            ["sujeira"],
            "05/03/2026 21:00",
            kind="notice",
            permit_id=permit.id,
            place="Feira Noturna do Jardim Satélite, banca 14",
        )
    )
    comply = deadline(notice, "compliance")
    assert comply["due"] == "2026-03-06T21:00" and "art. 23" in comply["basis"]  # at least 24 hours
    follow = draft(
        "sjc-2014",
        ["sujeira"],
        "06/03/2026 21:30",
        permit_id=permit.id,
        refers_to_id=notice.id,
        relation="follows-notice",
        payment_due=dt.date(2026, 4, 6),
    )
    with pytest.raises(FieldErrors, match="graduar"):  # "até R$ 500,00", graded by the authority (art. 24, § 1º)
        issue(follow)
    too_much = enf.AdjustInput(reason="reincidência na sujeira", amounts={2: "5.000,00"})
    with pytest.raises(UserError, match="fora dos limites"):
        issue(follow.__class__(**{**follow.__dict__, "adjustments": [too_much]}))
    graded = enf.AdjustInput(reason="resíduos espalhados por 10 m da calçada", amounts={2: "300,00"}, by="chefe")
    record = issue(follow.__class__(**{**follow.__dict__, "adjustments": [graded]}))
    assert record.fine_total == Decimal("300.00")
    assert record.proposal_data["adjustments"][0]["reason"] == "resíduos espalhados por 10 m da calçada"
    appeal = deadline(record, "appeal")
    assert appeal["due"] == "2026-03-09T21:30" and "art. 27, I" in appeal["basis"]  # 72 hours


def test_sjc_aggression_1000_corrected_and_15_days_suspension_art_25(keys, inpc):
    holder = person("Tobias Briguento")
    permit = feirante(keys, holder, on=dt.date(2026, 2, 2))
    record = issue(
        draft(
            "sjc-2014",
            ["agressao"],
            "12/03/2026 22:00",
            permit_id=permit.id,
            payment_due=dt.date(2026, 4, 12),
            apply_to_permit=True,
        )
    )
    fine = record.proposal_data["infractions"][0]["sanctions"][0]
    assert "R$ 1.000,00" in fine["formula"] and "INPC" in fine["formula"] and record.fine_total > 1000
    permit = Permit.get_by_id(permit.id)
    assert permit.status == "suspended"
    event = PermitEvent.select().where(PermitEvent.permit == permit.id).order_by(PermitEvent.id.desc()).first()
    assert event.kind == "suspended" and event.end == dt.date(2026, 3, 12) + dt.timedelta(days=14)
    second = issue(draft("sjc-2014", ["abandono"], "20/03/2026 22:00", permit_id=permit.id))
    assert deadline(second, "appeal")["due_date"] == "2026-03-30"  # cassação: 10 days, art. 27, II


def test_sapezal_one_fiscal_unit_doubled_defence_15_days_then_appeal_10_days(keys):
    set_unit_value(get_regime("sapezal-2014"), "UFS", 2026, "52,30", entered_by="teste", reason="decreto de teste")
    holder = person("Edson Lanches")
    permit = sapezal_licence(keys, holder, on=dt.date(2026, 1, 15))
    first = issue(
        draft("sapezal-2014", ["dever-41"], "02/03/2026 18:00", permit_id=permit.id, payment_due=dt.date(2026, 4, 1))
    )
    assert first.fine_total == Decimal("52.30")  # 1 UFS, art. 50
    defence = deadline(first, "defence")
    assert defence["due_date"] == "2026-03-17" and "art. 53, § 1º" in defence["basis"]
    second = issue(
        draft("sapezal-2014", ["dever-41"], "09/03/2026 18:00", permit_id=permit.id, payment_due=dt.date(2026, 4, 8))
    )
    assert second.fine_total == Decimal("104.60")  # in double on recurrence, art. 50
    contest = enf.file_contest(
        second,
        kind="defence",
        filed_on=dt.date(2026, 3, 12),
        by="protocolo",
        grounds="Estava varrendo quando o fiscal chegou",
        suspensive=True,
        suspensive_note="art. 53, § 3º",
    )
    assert contest.on_time
    decided = enf.decide_contest(
        contest,
        outcome="upheld",
        decided_on=dt.date(2026, 3, 20),
        by="chefe",
        reason="Fotos mostram o local sujo após o encerramento.",
    )
    assert not decided.final
    [appeal] = [d for d in json.loads(decided.after) if d["role"] == "appeal"]
    assert appeal["due_date"] == "2026-03-30" and "art. 53, § 2º" in appeal["basis"]  # 10 days


def test_ilha_comprida_serious_infraction_30_to_90_days_and_appeal_in_5_business_days(keys):
    holder = person("Marcos Praiano")
    permit = beach_licence(keys, holder, on=dt.date(2026, 1, 5))
    record = issue(
        draft(
            "ilha-comprida-2017",
            ["grave-indisciplina"],
            "16/04/2026 11:00",
            permit_id=permit.id,
            place="Balneário Monte Carlo, ponto 03",
        )
    )
    [suspension] = [s for s in record.proposal_data["infractions"][0]["sanctions"] if s["kind"] == "suspension"]
    assert suspension["min_days"] == 30 and suspension["max_days"] == 90 and "art. 27, § 1º" in suspension["basis"]
    appeal = deadline(record, "appeal")
    assert appeal["due_date"] == "2026-04-24" and "art. 30" in appeal["basis"]  # skips Tiradentes (21/04)
    # art. 28, I: the third recurrence of a serious infraction is revocation
    for when in ("15/05/2026 11:00", "15/06/2026 11:00"):
        issue(draft("ilha-comprida-2017", ["grave-indisciplina"], when, permit_id=permit.id))
    fourth = issue(draft("ilha-comprida-2017", ["grave-indisciplina"], "15/07/2026 11:00", permit_id=permit.id))
    kinds = [s["kind"] for s in fourth.proposal_data["infractions"][0]["sanctions"]]
    assert "revocation" in kinds and "art. 28, I" in json.dumps(fourth.proposal_data, ensure_ascii=False)


# --------------------------------------------------------------------------- numbers, corrections, identification


def test_numbers_are_gapless_per_kind_and_year_even_after_a_failure(keys, monkeypatch):
    vendor = person("Numeração Teste")

    def make(kind, when, **kw):
        return issue(
            draft(
                "olimpia-2025",
                ["geral-sem-penalidade"],
                when,
                kind=kind,
                holder=vendor,
                **kw,
            )
        )

    assert make("notice", "02/03/2026 09:00").number == "2026/00001"
    assert (
        make(
            "infraction",
            "02/03/2026 10:00",
            relation="follows-notice",
            refers_to_id=enf.Record.get(enf.Record.kind == "notice").id,
        ).number
        == "2026/00001"
    )
    # a failure after the number was taken rolls the number back with everything else
    import models.enforcement.issuing as module

    def broken(*_a, **_k):
        raise UserError("cobrança indisponível")

    monkeypatch.setattr(module, "create_charge", broken)
    with pytest.raises(UserError, match="indisponível"):
        make("infraction", "03/03/2026 10:00")
    monkeypatch.undo()
    assert enf.Record.select().where(enf.Record.kind == "infraction").count() == 1
    assert make("infraction", "03/03/2026 10:00").number == "2026/00002"
    assert make("notice", "04/03/2026 10:00").number == "2026/00002"
    set_unit_value(get_regime("olimpia-2025"), "UFESP", 2027, "39,90", entered_by="teste", reason="teste")
    assert (
        issue(
            draft("olimpia-2025", ["geral-sem-penalidade"], "04/01/2027 10:00", kind="notice", holder=vendor),
            today=dt.date(2027, 1, 4),
        ).number
        == "2027/00001"
    )


def test_a_correction_is_a_new_record_that_restarts_the_deadlines_art_32_par_4(keys):
    holder = person("Corrigido da Silva")
    old = issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=holder, place="Praça Rui Barbos"))
    before = {k: v for k, v in old.__data__.items() if k not in ("status", "version")}
    [old_charge] = fines(old)
    new = enf.correct_record(
        old,
        reason="local escrito errado",
        by="chefe",
        today=dt.date(2026, 3, 20),
        notified_at=at("20/03/2026 14:00"),
        place="Praça Rui Barbosa",
    )
    old = enf.get_record(old.id)
    assert {k: v for k, v in old.__data__.items() if k not in ("status", "version")} == before  # never edited
    assert old.status == "corrected" and enf.situation(old) == f"corrigido pelo {new.reference}"
    assert new.refers_to_id == old.id and new.relation == "correction" and new.place == "Praça Rui Barbosa"
    assert new.number == "2026/00002" and new.at == old.at
    # the deadlines count again from the new notification (01/05 is Labour Day: the old one went to 04/05)
    assert deadline(old, "payment")["due_date"] == "2026-05-04"
    assert deadline(new, "payment")["due_date"] == "2026-05-19"
    assert deadline(new, "defence")["due_date"] == "2026-03-30"
    assert Charge.get_by_id(old_charge.id).status == "cancelled"
    [charge] = fines(new)
    assert charge.amount == old_charge.amount and charge.due_on == dt.date(2026, 5, 19)
    with pytest.raises(UserError, match="corrigido"):
        enf.correct_record(old, reason="de novo", by="chefe", today=dt.date(2026, 3, 21))
    # the corrected record and its correction are one occurrence
    again = issue(draft("olimpia-2025", ["tpu-area-suja"], "10/04/2026 09:30", holder=holder))
    assert again.proposal_data["infractions"][0]["offence"] == 2


def test_an_unknown_offender_is_identified_later_by_a_new_record(keys):
    unknown = issue(
        draft(
            "olimpia-2025",
            ["evento-sem-autorizacao"],
            "14/03/2026 07:00",
            unknown_name="Promotor da festa",
            signature="refused",
            place="Praça da Matriz",
            unknown_description="homem de uns 40 anos, boné azul, montava o palco do baile",
            witnesses=[enf.Witness("Carlos Guarda", "GCM 117")],
        )
    )
    assert not unknown.identified and unknown.fine_total == Decimal("3842.00")  # 100 UFESP, art. 97, p. ú.
    assert enf.charges_of(unknown) == []  # nobody to charge yet
    assert enf.fine_status(unknown).startswith("a lançar")
    with pytest.raises(FieldErrors, match="Descreva"):
        enf.preview(
            draft("olimpia-2025", ["evento-sem-autorizacao"], "14/03/2026 07:00", unknown_name="Alguém"),
            today=dt.date(2026, 3, 14),
        )  # no description
    holder = person("Wellington Redeiro")
    found = enf.identify_offender(
        unknown,
        person_id=holder.id,
        by="chefe",
        today=dt.date(2026, 3, 25),
        notified_at=at("25/03/2026 10:00"),
        reason="identificado pelo RG no cadastro",
    )
    assert found.person_id == holder.id and found.refers_to_id == unknown.id and found.relation == "identification"
    assert enf.get_record(unknown.id).status == "corrected"
    assert found.offender_name == "Wellington Redeiro" and found.offender_document.startswith("CPF")
    assert deadline(found, "defence")["start"] == "2026-03-25T10:00"  # counted from his notification
    assert deadline(found, "payment")["due_date"] == "2026-05-25"  # 60 days end on Sunday 24/05: Monday
    [charge] = fines(found)
    assert charge.person_id == holder.id and charge.source == found.reference
    assert charge.amount == Decimal("3842.00") and charge.due_on == dt.date(2026, 5, 25)
    with pytest.raises(UserError, match="já está identificado"):
        enf.identify_offender(found, person_id=holder.id, by="chefe", today=dt.date(2026, 3, 26))


def test_the_acts_required_elements_are_checked(keys):
    today = dt.date(2026, 3, 14)
    empty = enf.RecordDraft(kind="infraction", regime="olimpia-2025", at=None)
    with pytest.raises(FieldErrors) as error:
        enf.preview(empty, today=today)
    assert {"at", "place", "facts", "infractions", "inspector", "offender"} <= set(error.value.errors)
    with pytest.raises(FieldErrors, match="futuro"):
        enf.preview(
            draft(
                "olimpia-2025", ["geral-sem-penalidade"], "15/03/2026 10:00", unknown_name="X", unknown_description="Y"
            ),
            today=today,
        )
    with pytest.raises(FieldErrors, match=r"anterior à vigência do ato \(LC 324/2025\), em vigor desde 03/12/2025"):
        enf.preview(
            draft(
                "olimpia-2025", ["geral-sem-penalidade"], "01/11/2025 10:00", unknown_name="X", unknown_description="Y"
            ),
            today=today,
        )
    seizure = draft(
        "olimpia-2025",
        ["geral-sem-penalidade"],
        "14/03/2026 10:00",
        kind="seizure",
        unknown_name="X",
        unknown_description="Y",
    )
    with pytest.raises(FieldErrors) as error:
        enf.preview(seizure, today=today)
    assert {"items", "depot"} <= set(error.value.errors)
    pv = enf.preview(
        draft(
            "olimpia-2025",
            ["geral-sem-penalidade"],
            "14/03/2026 10:00",
            unknown_name="X",
            unknown_description="Y",
            inspector_id="",
            signature="refused",
        ),
        today=today,
    )
    # LC 324/2025, art. 32, V and § 3º: the inspector's registration number; the refusal stated on the record
    assert any("matrícula" in w and "art. 32, V" in w for w in pv.warnings)
    assert any("declare a circunstância" in w and "art. 32, § 3º" in w for w in pv.warnings)
    assert not any("testemunha" in w for w in pv.warnings)  # a witness is Ilha Comprida's rule, not Olímpia's
    assert any("advertência" in w for w in pv.warnings)  # an infraction record before the notice
    ilha = enf.preview(
        draft(
            "ilha-comprida-2017",
            ["perto-escola"],
            "14/03/2026 10:00",
            unknown_name="X",
            unknown_description="Y",
            inspector_id="",
            signature="refused",
        ),
        today=today,
    )
    assert any("testemunha" in w and "Dec. 890/2017, art. 29, parágrafo único" in w for w in ilha.warnings)
    assert not any("matrícula" in w for w in ilha.warnings)


# --------------------------------------------------------------------------- defence and appeal


def test_defence_upheld_then_appeal_partly_upheld_reduces_the_charge(keys):
    holder = person("Helena Recorrente")
    record = issue(
        draft(
            "olimpia-2025",
            ["tpu-area-suja", "tpu-higiene-pessoal"],
            "02/03/2026 09:30",
            holder=holder,
            scope="street-food",
        )
    )
    assert record.fine_total == Decimal("2305.20")  # two infractions, cumulative (art. 190, parágrafo único)
    with pytest.raises(UserError, match="Primeiro a defesa"):
        enf.file_contest(record, kind="appeal", filed_on=dt.date(2026, 3, 5), by="protocolo")
    defence = enf.file_contest(
        record,
        kind="defence",
        filed_on=dt.date(2026, 3, 10),
        by="protocolo",
        grounds="A lixeira estava instalada",
        suspensive=True,
        suspensive_note="art. 198",
    )
    decision = json.loads(defence.decision_deadline)
    assert decision["due_date"] == "2026-03-31" and "art. 38" in decision["basis"]  # 15 business days
    assert enf.debt_register(dt.date(2026, 12, 1)) == []  # suspensive: not for the dívida ativa
    with pytest.raises(FieldErrors, match="fundamentada"):
        enf.decide_contest(defence, outcome="upheld", decided_on=dt.date(2026, 3, 20), by="chefe", reason="")
    defence = enf.decide_contest(
        defence,
        outcome="upheld",
        decided_on=dt.date(2026, 3, 20),
        by="chefe",
        reason="Auto regular.",
        notified_on=dt.date(2026, 3, 23),
    )
    after = {d["role"]: d for d in json.loads(defence.after)}
    assert after["payment-after-decision"]["due_date"] == "2026-04-22"  # 30 days, art. 40
    assert after["appeal"]["due_date"] == "2026-04-22" and "art. 198, § 1º" in after["appeal"]["basis"]
    appeal = enf.file_contest(
        record,
        kind="appeal",
        filed_on=dt.date(2026, 4, 6),
        by="protocolo",
        grounds="Só uma das infrações ocorreu",
        suspensive=True,
    )
    assert appeal.on_time and enf.situation(enf.get_record(record.id)).startswith("recurso em julgamento")
    [old] = fines(record)
    with pytest.raises(FieldErrors, match="novo valor"):
        enf.decide_contest(appeal, outcome="partly", decided_on=dt.date(2026, 4, 20), by="conselho", reason="x")
    appeal = enf.decide_contest(
        appeal,
        outcome="partly",
        decided_on=dt.date(2026, 4, 20),
        by="conselho",
        reason="Higiene pessoal não comprovada.",
        new_amount="1.152,60",
    )
    assert appeal.final
    assert Charge.get_by_id(old.id).status == "cancelled"
    assert "reduzida para R$ 1.152,60" in Charge.get_by_id(old.id).cancel_reason
    [new] = fines(record)
    assert new.amount == Decimal("1152.60") and new.source == record.reference
    assert enf.current_fine(enf.get_record(record.id)) == Decimal("1152.60")
    with pytest.raises(UserError, match="encerrou a instância"):
        enf.file_contest(record, kind="appeal", filed_on=dt.date(2026, 4, 25), by="protocolo")


def test_an_annulled_record_cancels_its_fine_and_does_not_count_for_recurrence(keys):
    holder = person("Anulado Santos")
    record = issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=holder))
    defence = enf.file_contest(
        record, kind="defence", filed_on=dt.date(2026, 3, 20), by="protocolo", today=dt.date(2026, 3, 20)
    )
    assert not defence.on_time  # the street-food defence runs 10 days (art. 198): kept, marked late
    enf.decide_contest(
        defence,
        outcome="annulled",
        decided_on=dt.date(2026, 3, 25),
        by="chefe",
        reason="Autuado não era o permissionário.",
    )
    record = enf.get_record(record.id)
    assert record.status == "annulled" and enf.current_fine(record) == 0
    assert all(c.status == "cancelled" for c in enf.charges_of(record))
    later = issue(draft("olimpia-2025", ["tpu-area-suja"], "10/04/2026 09:30", holder=holder))
    assert later.fine_total == Decimal("1152.60")  # first occurrence again


def test_unpaid_fines_past_their_deadline_go_to_the_debt_register(keys):
    debtor, payer = person("Devedor Contumaz"), person("Pagador Pontual")
    owed = issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=debtor))
    paid = issue(draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 10:30", holder=payer))
    pay(fines(paid)[0], dt.date(2026, 3, 10))
    # 60 days (art. 11) end on Labour Day 01/05: the next business day, 04/05 (art. 315; Lei 9.784/1999)
    assert enf.debt_register(dt.date(2026, 5, 4)) == []
    [row] = enf.debt_register(dt.date(2026, 5, 7))
    assert row.reference == owed.reference and row.amount == Decimal("1152.60") and row.days_late == 3
    assert "art. 11" in row.basis


# --------------------------------------------------------------------------- calculations


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(days=st.integers(min_value=0, max_value=400))
def test_depot_fee_is_one_ufesp_per_day_at_each_days_value(keys, days):
    start = dt.date(2025, 12, 20)
    if not enf.Record.select().exists():
        issue(
            draft(
                "olimpia-2025",
                ["feira-sem-autorizacao"],
                "20/12/2025 08:00",
                kind="seizure",
                scope="feira",
                unknown_name="Feirante",
                unknown_description="camisa verde",
                items=[enf.ItemInput("caixas", "2")],
                depot="Galpão",
            ),
            today=start,
        )
    record = enf.Record.get()
    on = start + dt.timedelta(days=days)
    charged = max(days, 1)  # a day started in the depot is a daily fee
    in_2025 = min(charged, 12)  # 20/12 … 31/12
    in_2026 = charged - in_2025
    if in_2026 > 365:  # 2027 has no UFESP in the file: never guessed
        with pytest.raises(UserError, match="UFESP"):
            enf.depot_fee(record, on)
        return
    fee = enf.depot_fee(record, on)
    assert fee.days == charged
    assert fee.amount == in_2025 * Decimal("37.02") + in_2026 * Decimal("38.42")
    assert "art. 145, § 2º" in fee.basis and "art. 215, § 4º" in fee.basis


def test_roles_inspectors_record_the_chief_decides(keys):
    from models.access.session import PermissionDenied, Session, acting_as

    holder = person("Papel Teste da Silva")
    d = draft("olimpia-2025", ["tpu-area-suja"], "02/03/2026 09:30", holder=holder)
    with acting_as(Session(None, "ana", "Ana Atendente", "atendente")), pytest.raises(PermissionDenied):
        issue(d)
    with acting_as(Session(None, "marcos", "Marcos Fiscal", "fiscal")):
        record = issue(d)
        contest = enf.file_contest(record, kind="defence", filed_on=dt.date(2026, 3, 5), by="protocolo")
        with pytest.raises(PermissionDenied, match="decidir defesas"):
            enf.decide_contest(contest, outcome="upheld", decided_on=dt.date(2026, 3, 6), by="x", reason="ok")
    with acting_as(Session(None, "chefe", "Chefe", "chefe")):
        assert (
            enf.decide_contest(
                contest, outcome="upheld", decided_on=dt.date(2026, 3, 6), by="chefe", reason="Auto regular."
            ).outcome
            == "upheld"
        )
