"""Permits: numbers, terms per act, signed QR, lifecycle, renewals, deadlines, eligibility, printing.

Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import shutil
from pathlib import Path

import pytest
from factories import (
    TODAY,
    all_documents,
    approved,
    beach_licence,
    company,
    feirante,
    issue,
    mei_vendor,
    open_new_database,
    person,
    results,
    sapezal_licence,
    tpu,
)
from pdftext import pdf_text

from models.access.signing import verify_text
from models.base.errors import FieldErrors, UserError
from models.permits import (
    Permit,
    PermitEvent,
    active_count,
    cancel,
    due_for_renewal,
    expire_due,
    extend_startup,
    find_permit,
    grant_leave,
    permit_document,
    permit_term,
    reactivate,
    record_picked_up,
    record_started,
    renewal_window,
    revoke,
    startup_deadlines,
    suspend,
    today_items,
)
from models.registry.applications import Application, ApplicationInput, DocumentInput
from models.registry.people import HouseholdInput
from models.rules.eligibility import FAILED, PASSED, evaluate_eligibility
from models.rules.regimes import get_regime
from models.services.filing import create_application
from models.services.front_desk import applicant_facts, assess, load_applicant
from models.services.issuing import exchange_sites, issue_permit, renew, transfer_to_heir
from models.store.bootstrap import close_database
from models.store.files import set_store

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) ausente")


# --------------------------------------------------------------------------- numbers


def test_numbers_are_gapless_per_year_and_a_failed_issue_gives_the_number_back(keys, tmp_path):
    maker = company("Pastel da Maria Ltda", person("Maria José da Silva"))
    first = tpu(keys, maker)
    assert first.number == "2026/00001" and (first.year, first.seq) == (2026, 1)
    # only an approved application (or one awaiting payment) becomes a permit; nothing is used up
    received = create_application(
        ApplicationInput(regime="olimpia-2025", permit_kind="street-food-tpu-b", company_id=maker.id),
        clerk="ana",
        today=TODAY,
    )
    with pytest.raises(UserError, match="só se emite a permissão de um requerimento aprovado"):
        issue(received, keys)
    # a failure inside the transaction (the key folder cannot be created) rolls everything back
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    other = company("Lanches do João Ltda", person("João Pereira Lima"))
    app = approved("olimpia-2025", "street-food-tpu-b", holder=other, site="Praça da Matriz")
    with pytest.raises(UserError, match="pasta de chaves"):
        issue_permit(app, by="ana", today=TODAY, key_dir=blocker / "keys")
    assert Application.get_by_id(app.id).status == "approved"
    assert Permit.select().count() == 1
    second = issue(Application.get_by_id(app.id), keys)
    assert second.number == "2026/00002"
    assert Application.get_by_id(app.id).status == "issued"
    with pytest.raises(UserError):  # issued once only
        issue(Application.get_by_id(app.id), keys)
    third = issue(
        approved(
            "olimpia-2025",
            "street-food-tpu-c",
            holder=company("C Ltda", person("Ana Lima Souza")),
            on=dt.date(2027, 1, 4),
        ),
        keys,
        dt.date(2027, 1, 4),
    )
    assert third.number == "2027/00001"
    assert find_permit("2027/1").id == third.id  # typed without the zeros
    with pytest.raises(UserError, match="Permissão nº 2027/00099 não encontrada"):
        find_permit("2027/00099")


def _issue_many(url: str, app_ids: list[int], key_dir: str, queue) -> None:
    """Runs in a process of its own: another desk issuing permits."""
    from models.access import session

    session.log_in(session.SYSTEM)  # a desk of its own: someone is logged in there (issue 16 §4)
    open_new_database(url)
    numbers = []
    for app_id in app_ids:
        permit = issue_permit(Application.get_by_id(app_id), by="mesa", today=TODAY, key_dir=Path(key_dir))
        numbers.append(permit.number)
    close_database()
    queue.put(numbers)


def test_two_desks_issuing_at_once_get_distinct_gapless_numbers(keys, database):
    apps = []
    for i in range(24):
        holder = company(f"Comida de Rua {i} Ltda", person(f"Sócio Número {i}"))
        apps.append(approved("olimpia-2025", "street-food-tpu-b", holder=holder, site=f"Ponto {i}").id)
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_issue_many, args=(database, apps[i::3], str(keys), queue)) for i in range(3)]
    for w in workers:
        w.start()
    batches = [queue.get(timeout=180) for _ in workers]
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    numbers = sorted(int(n.split("/")[1]) for batch in batches for n in batch)
    assert numbers == list(range(1, 25))
    # one key pair for every desk, and every QR verifies with it
    for permit in Permit.select():
        assert verify_text(permit.qr_text, keys, today=TODAY).ok


# --------------------------------------------------------------------------- terms, per act


@pytest.mark.parametrize(
    "regime, kind, issued, expected, article",
    [
        # Dec. 4.794/2026, art. 2º: the three days of the event (27, 28 e 29/03/2026)
        (
            "sao-bento-2026",
            "event-stall",
            dt.date(2026, 3, 20),
            (dt.date(2026, 3, 27), dt.date(2026, 3, 29)),
            "Dec. 4.794/2026, art. 2º",
        ),
        # Lei 1.171/2014, art. 38: "prazo não superior a um ano"
        ("sapezal-2014", "ponto-fixo", TODAY, (TODAY, dt.date(2027, 11, 29)), "Lei 1.171/2014, art. 38"),
        # Dec. 890/2017, art. 12 and § 1º: one exercise
        (
            "ilha-comprida-2017",
            "ambulante-praia",
            dt.date(2026, 3, 10),
            (dt.date(2026, 3, 10), dt.date(2026, 12, 31)),
            "Dec. 890/2017, art. 12",
        ),
        # LC 324/2025, art. 158 and 177: 5 years
        ("olimpia-2025", "street-food-tpu-a", TODAY, (TODAY, dt.date(2031, 11, 29)), "LC 324/2025, art. 158; art. 177"),
        (
            "olimpia-2025",
            "street-food-tpu-d",
            dt.date(2028, 2, 29),
            (dt.date(2028, 2, 29), dt.date(2033, 2, 27)),
            "LC 324/2025, art. 158; art. 177",
        ),
    ],
)
def test_term_per_act_with_its_article(regime, kind, issued, expected, article):
    term = permit_term(get_regime(regime), kind, issued)
    assert (term.valid_from, term.valid_until) == expected
    assert term.article == article


def test_terms_the_act_leaves_open_are_asked_never_invented():
    sjc = get_regime("sjc-2014")
    with pytest.raises(FieldErrors) as err:
        permit_term(sjc, "feirante", TODAY)  # Lei 9.158/2014 fixes no term
    assert "não fixa prazo de validade" in err.value.errors["valid_until"]
    term = permit_term(sjc, "feirante", TODAY, valid_until=dt.date(2027, 12, 31))
    assert term.valid_until == dt.date(2027, 12, 31) and term.article == ""
    sapezal = get_regime("sapezal-2014")
    with pytest.raises(FieldErrors) as err:
        permit_term(sapezal, "temporaria", TODAY)  # until the end of an event the regime does not date
    assert "último dia do evento" in err.value.errors["event_end"]
    term = permit_term(sapezal, "temporaria", TODAY, event_end=dt.date(2026, 12, 13))
    assert term.valid_until == dt.date(2026, 12, 13) and term.article == "Lei 1.171/2014, art. 27, IV"
    with pytest.raises(FieldErrors, match="O ato fixa a validade"):
        permit_term(get_regime("olimpia-2025"), "street-food-tpu-a", TODAY, valid_until=dt.date(2040, 1, 1))
    with pytest.raises(UserError, match="terminaram em 29/03/2026"):
        permit_term(get_regime("sao-bento-2026"), "event-stall", dt.date(2026, 4, 2))


def test_issued_permit_keeps_its_term_and_history(keys):
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 18),
        holder=company("Barraca Boa Ltda", person("Pedro Alves Costa")),
        site="rua-cel-ribeiro-da-luz",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
    )
    permit = issue(app, keys, dt.date(2026, 3, 20), point="Posição 07")
    assert (permit.valid_from, permit.valid_until) == (dt.date(2026, 3, 27), dt.date(2026, 3, 29))
    assert "Sexta-feira, 27/03/2026: das 18:00 às 01:00" in permit.days_hours  # from the act's calendar
    event = permit.events.get()
    assert (event.kind, event.status_to, event.details["article"]) == ("issued", "active", "Dec. 4.794/2026, art. 2º")
    assert "2026/00001" in event.reason or app.protocol in event.reason
    assert [e.status_to for e in Application.get_by_id(app.id).events][-1] == "issued"


# --------------------------------------------------------------------------- the signed QR


def test_qr_is_signed_and_says_what_the_document_says(keys):
    holder = company("Pastel da Maria Ltda", person("Maria José da Silva"))
    permit = tpu(keys, holder)
    check = verify_text(permit.qr_text, keys, today=TODAY)
    assert check.ok, check.message
    doc = permit_document(permit)
    assert check.summary == doc.summary()
    assert (check.summary.number, check.summary.holder_document) == (permit.number, holder.cnpj)
    assert check.summary.valid_until == dt.date(2031, 11, 29) and check.summary.place == "Praça Rui Barbosa"
    tampered = permit.qr_text[:12] + ("A" if permit.qr_text[12] != "A" else "B") + permit.qr_text[13:]
    assert not verify_text(tampered, keys, today=TODAY).ok
    assert verify_text(permit.qr_text, keys, today=dt.date(2031, 12, 1)).status == "expired"


def test_permit_document_has_what_the_acts_ask(keys):
    owner = person(
        "Joana Darc Souza",
        rg="12.345.678-9",
        street="Rua Síria",
        number="10",
        district="Centro",
        city="Ilha Comprida",
        state="SP",
    )
    company("JOANA DARC SOUZA MEI", owner, mei=True, registration="7788")
    permit = beach_licence(keys, owner, on=dt.date(2026, 3, 10))
    doc = permit_document(permit)
    # Dec. 890/2017, art. 8º: name, RG and CNPJ, address, place, line, validity, process number
    assert doc.holder_name == "Joana Darc Souza" and doc.rg == "12.345.678-9" and doc.cnpj
    assert doc.address == "Rua Síria, 10 — Centro — Ilha Comprida/SP"
    assert doc.site.startswith("Ponto 03") and doc.product_line
    assert doc.equipment_size == "1,50 × 0,80 m (+ 0,20 m de engate)"
    assert doc.process_number == Application.get_by_id(permit.application_id).protocol
    assert doc.valid_until == dt.date(2026, 12, 31) and doc.qr_text == permit.qr_text
    assert "precária" in doc.precariousness
    sapezal = permit_document(sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha"))))
    assert "título precário" in sapezal.precariousness  # Lei 1.171/2014, art. 35, VI
    assert sapezal.product_group.startswith("Grupo 3")


# --------------------------------------------------------------------------- lifecycle


def test_suspend_reactivate_revoke_cancel_pass_and_refuse(keys):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    with pytest.raises(FieldErrors):
        suspend(permit, by="fiscal", reason="  ", today=TODAY)
    stale = Permit.get_by_id(permit.id)
    permit = suspend(
        permit, by="fiscal", reason="Infração do art. 25", today=TODAY, until=TODAY + dt.timedelta(days=15)
    )
    assert permit.status == "suspended"
    with pytest.raises(UserError, match="alterada em outra mesa"):
        revoke(stale, by="x", reason="y", today=TODAY)
    with pytest.raises(UserError, match="está suspensa; não pode ser suspensa"):
        suspend(permit, by="fiscal", reason="de novo", today=TODAY)
    permit = reactivate(permit, by="fiscal", today=TODAY + dt.timedelta(days=15))
    assert permit.status == "active"
    with pytest.raises(UserError, match="está ativa; não pode ser reativada"):
        reactivate(permit, by="fiscal", today=TODAY)
    permit = revoke(permit, by="chefe", reason="Abandono da feira", today=dt.date(2027, 1, 10), abandonment=True)
    assert permit.status == "revoked"
    for action in (
        lambda: cancel(permit, by="chefe", reason="x", today=TODAY),
        lambda: suspend(permit, by="chefe", reason="x", today=TODAY),
        lambda: revoke(permit, by="chefe", reason="x", today=TODAY),
    ):
        with pytest.raises(UserError, match="está cassada"):
            action()
    kinds = [(e.kind, e.status_from, e.status_to) for e in permit.events.order_by(PermitEvent.id)]
    assert kinds == [
        ("issued", "", "active"),
        ("suspended", "active", "suspended"),
        ("reactivated", "suspended", "active"),
        ("revoked", "active", "revoked"),
    ]
    assert permit.events.order_by(PermitEvent.id.desc()).first().ground == "abandonment"


def test_stale_copy_is_refused(keys):
    permit = feirante(keys, person("Rita de Cássia Nunes"))
    stale = Permit.get_by_id(permit.id)
    suspend(permit, by="fiscal", reason="Infração", today=TODAY)
    with pytest.raises(UserError, match="alterada em outra mesa"):
        suspend(stale, by="fiscal", reason="Outra infração", today=TODAY)


def test_cancel_at_request_and_by_act(keys):
    first = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 3, 10))
    cancelled = cancel(
        first, by="div", reason="Não tem mais interesse", today=dt.date(2026, 5, 2), at_holder_request=True
    )
    assert cancelled.status == "cancelled" and cancelled.events.order_by(PermitEvent.id.desc()).first().ground
    with pytest.raises(FieldErrors):
        cancel(beach_licence(keys, mei_vendor("Mário Sérgio Prado"), site="ponto-04"), by="div", reason="", today=TODAY)


def test_expire_due_marks_only_what_ended_and_dates_the_loss_of_the_right(keys):
    lapsed = beach_licence(keys, mei_vendor("Sebastião Rocha Lima"), on=dt.date(2026, 3, 10))  # to 31/12/2026
    second = beach_licence(keys, mei_vendor("Cláudia Regina Lopes"), on=dt.date(2026, 4, 1), site="ponto-04")
    suspended = suspend(second, by="fiscal", reason="Infração", today=dt.date(2026, 6, 1))
    current = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    assert expire_due(dt.date(2026, 12, 31)) == []  # the last day is still in force
    expired = expire_due(dt.date(2027, 1, 1))
    assert sorted(p.id for p in expired) == sorted([lapsed.id, suspended.id])
    assert Permit.get_by_id(current.id).status == "active"
    event = Permit.get_by_id(lapsed.id).events.order_by(PermitEvent.id.desc()).first()
    assert (event.kind, event.on) == ("expired", dt.date(2027, 1, 1))
    with pytest.raises(UserError, match="está vencida"):
        reactivate(Permit.get_by_id(suspended.id), by="fiscal", today=dt.date(2027, 1, 2))
    assert expire_due(dt.date(2027, 1, 1)) == []


# --------------------------------------------------------------------------- renewal


def test_renewal_windows_per_act(keys):
    olimpia = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    # LC 324/2025, art. 166: at most 240 and at least 60 days before the last day (29/11/2031)
    assert tuple(renewal_window(olimpia)) == (dt.date(2031, 4, 3), dt.date(2031, 9, 30))
    assert renewal_window(olimpia).article == "LC 324/2025, art. 166; art. 177"
    # Lei 1.171/2014, art. 23, § 1º; art. 5º, § 3º: asked 30 days before the end; no opening day
    sapezal = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    window = renewal_window(sapezal)
    assert tuple(window) == (TODAY, dt.date(2027, 10, 30)) and not window.opens_fixed
    assert window.article == "Lei 1.171/2014, art. 5º, § 3º; art. 23, § 1º"
    # Dec. 890/2017, art. 12: until 30 September of the exercise
    beach = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 3, 10))
    assert tuple(renewal_window(beach)) == (dt.date(2026, 3, 10), dt.date(2026, 9, 30))
    late = beach_licence(keys, mei_vendor("Mário Sérgio Prado"), on=dt.date(2026, 10, 14), site="ponto-04")
    assert tuple(renewal_window(late)) == (dt.date(2026, 10, 14), dt.date(2026, 12, 31))  # issued after 30/09
    # no renewal in the act
    assert renewal_window(feirante(keys, person("Antônio Carlos Mendes"))) is None
    event = issue(
        approved(
            "sao-bento-2026",
            "event-stall",
            on=dt.date(2026, 3, 18),
            holder=company("Barraca Ltda", person("Pedro Alves Costa")),
            equipment="barraca",
        ),
        keys,
        dt.date(2026, 3, 20),
    )
    assert renewal_window(event) is None


def test_renewal_inside_the_window_makes_a_new_permit_and_the_old_runs_to_its_end(keys):
    holder = company("Food Truck Ltda", person("Marcos Paulo Dias"))
    old = tpu(keys, holder)
    with pytest.raises(UserError, match=r"Fora do prazo de renovação .* de 03/04/2031 a 30/09/2031 .*art\. 166"):
        renew(old, by="ana", today=TODAY, key_dir=keys)
    new = renew(old, by="ana", today=dt.date(2031, 5, 2), key_dir=keys)
    assert new.number == "2031/00001" and new.origin == "renewal" and new.previous_id == old.id
    assert (new.valid_from, new.valid_until) == (dt.date(2031, 11, 30), dt.date(2036, 11, 29))
    assert (new.site, new.equipment, new.company_id) == (old.site, old.equipment, old.company_id)
    old = Permit.get_by_id(old.id)
    assert old.status == "active"  # still the holder's permit until 29/11/2031 (LC 324/2025, art. 166)
    last = old.events.order_by(PermitEvent.id.desc()).first()
    assert (last.kind, last.other_id) == ("renewed", new.id) and "2031/00001" in last.reason
    assert verify_text(new.qr_text, keys, today=dt.date(2032, 1, 1)).ok
    with pytest.raises(UserError, match="já foi renovada pela nº 2031/00001"):
        renew(old, by="ana", today=dt.date(2031, 5, 3), key_dir=keys)
    # one place, not two: the renewal that starts later is not counted before its day
    assert active_count(old.regime, old.permit_kind, today=dt.date(2031, 6, 1)) == 1
    assert old.id not in {item.permit_id for item in due_for_renewal(dt.date(2031, 6, 1), 60)}


def test_renewal_rechecks_eligibility_and_lists_the_failed_rules(keys):
    holder = company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha"))
    old = sapezal_licence(keys, holder)  # documents delivered 20/11/2026
    renewal_day = dt.date(2027, 10, 20)
    with pytest.raises(UserError) as err:  # the health certificate lasts 6 months (art. 11, II)
        renew(old, by="ana", today=renewal_day, key_dir=keys)
    assert err.value.message.startswith("Renovação recusada — 1 requisito não atendido:")
    assert "vencido em 20/05/2027" in err.value.message and "Lei 1.171/2014, art. 11, II" in err.value.message
    fresh = [DocumentInput("health-certificate", renewal_day - dt.timedelta(days=2))]
    new = renew(old, by="ana", today=renewal_day, key_dir=keys, documents=fresh)
    assert (new.valid_from, new.valid_until) == (dt.date(2027, 11, 30), dt.date(2028, 11, 29))
    # a renewal after the 30 days the act gives is refused
    with pytest.raises(UserError, match="até 30 dias antes do fim da validade"):
        renew(new, by="ana", today=dt.date(2028, 11, 1), key_dir=keys)


def test_beach_licence_renewed_for_the_next_exercise(keys):
    old = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 3, 10))
    new = renew(
        old,
        by="div",
        today=dt.date(2026, 9, 15),
        key_dir=keys,
        documents=all_documents("ilha-comprida-2017", "ambulante-praia", dt.date(2026, 9, 10)),
    )
    assert (new.valid_from, new.valid_until) == (dt.date(2027, 1, 1), dt.date(2027, 12, 31))
    with pytest.raises(UserError, match="de 01/01/2027 a 30/09/2027"):
        renew(new, by="div", today=dt.date(2027, 10, 1), key_dir=keys)


def test_only_an_active_permit_with_a_renewal_rule_is_renewed(keys):
    permit = suspend(
        tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias"))), by="f", reason="x", today=TODAY
    )
    with pytest.raises(UserError, match="só uma permissão ativa pode ser renovada"):
        renew(permit, by="ana", today=dt.date(2031, 5, 2), key_dir=keys)
    with pytest.raises(UserError, match="não prevê renovação"):
        renew(feirante(keys, person("Antônio Carlos Mendes")), by="ana", today=TODAY, key_dir=keys)


def test_due_for_renewal(keys):
    sapezal = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    olimpia = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    due = due_for_renewal(dt.date(2027, 10, 20), within_days=30)
    assert [(d.number, d.closes) for d in due] == [(sapezal.number, dt.date(2027, 10, 30))]
    assert due[0].article == "Lei 1.171/2014, art. 5º, § 3º; art. 23, § 1º" and "pedido até 30/10/2027" in due[0].text
    due = due_for_renewal(dt.date(2031, 3, 20), within_days=30)
    assert [(d.number, d.opens) for d in due] == [(olimpia.number, dt.date(2031, 4, 3))]
    assert "pedido de 03/04/2031 a 30/09/2031" in due[0].text


# --------------------------------------------------------------------------- start-up deadlines


def test_sapezal_startup_use_and_pickup_deadlines(keys):
    permit = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    items = {(d.kind, d.due, d.article) for d in startup_deadlines(TODAY)}
    assert items == {
        ("startup", dt.date(2026, 12, 10), "Lei 1.171/2014, art. 35, VI, b"),  # start within 10 days
        ("pickup", dt.date(2026, 12, 7), "Lei 1.171/2014, art. 37"),  # 5 business days
        ("use", dt.date(2026, 12, 30), "Lei 1.171/2014, art. 36, parágrafo único"),  # unused 30 days → cassação
        ("pickup", dt.date(2026, 12, 30), "Lei 1.171/2014, art. 60"),  # not collected in 30 days → archived
    }
    overdue = [d for d in startup_deadlines(dt.date(2026, 12, 11)) if d.overdue]
    assert {d.kind for d in overdue} == {"startup", "pickup"}
    assert any("venceu em 10/12/2026" in d.text for d in overdue)
    record_started(permit, by="fiscal", on=dt.date(2026, 12, 3))
    assert {d.kind for d in startup_deadlines(TODAY)} == {"pickup"}
    record_picked_up(permit, by="ana", on=dt.date(2026, 12, 2))
    assert startup_deadlines(TODAY) == []
    with pytest.raises(UserError, match="Já registrado"):
        record_started(permit, by="fiscal", on=dt.date(2026, 12, 3))


def test_beach_and_tpu_startup_and_the_one_extension(keys):
    beach = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 3, 10))
    [item] = startup_deadlines(dt.date(2026, 3, 10))
    assert (item.due, item.article) == (dt.date(2026, 3, 25), "Dec. 890/2017, art. 23, § 3º")  # 15 days
    record_started(beach, by="fiscal", on=dt.date(2026, 3, 12))
    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    [item] = startup_deadlines(TODAY)
    assert (item.due, item.article, item.extendable) == (dt.date(2027, 2, 28), "LC 324/2025, art. 176", True)
    with pytest.raises(FieldErrors):
        extend_startup(truck, by="ana", reason="", today=TODAY)
    assert extend_startup(truck, by="ana", reason="Vistoria do veículo pendente", today=dt.date(2027, 2, 1)) == dt.date(
        2027, 5, 29
    )
    [item] = startup_deadlines(dt.date(2027, 3, 1))
    assert (item.due, item.extendable, item.overdue) == (dt.date(2027, 5, 29), False, False)
    with pytest.raises(UserError, match="uma única vez"):
        extend_startup(truck, by="ana", reason="De novo", today=dt.date(2027, 3, 1))
    with pytest.raises(UserError, match="não prevê prorrogação"):
        extend_startup(
            sapezal_licence(keys, company("Bebidas Ltda", person("Carlos Dias Rocha"))),
            by="ana",
            reason="x",
            today=TODAY,
        )


# --------------------------------------------------------------------------- leave, transfer, exchange


def test_leave_thirty_days_a_year_in_two_periods_asked_thirty_days_ahead(keys):
    permit = feirante(keys, person("Antônio Carlos Mendes"))  # Lei 9.158/2014, art. 16
    with pytest.raises(FieldErrors, match="30 dias de antecedência"):
        grant_leave(permit, dt.date(2026, 12, 10), dt.date(2026, 12, 20), by="chefe", today=TODAY)
    first = grant_leave(
        permit,
        dt.date(2027, 1, 10),
        dt.date(2027, 1, 24),
        "Joana Aparecida Lopes",
        "529.982.247-25",
        by="chefe",
        today=TODAY,
    )
    assert (first.kind, first.details["days"], first.details["substitute_cpf"]) == ("leave", 15, "52998224725")
    with pytest.raises(UserError, match="coincide"):
        grant_leave(permit, dt.date(2027, 1, 20), dt.date(2027, 1, 30), by="chefe", today=TODAY)
    with pytest.raises(UserError, match=r"já há 15 no ano e o ato permite no máximo 30 \(Lei 9.158/2014, art. 16\)"):
        grant_leave(permit, dt.date(2027, 3, 1), dt.date(2027, 3, 16), by="chefe", today=TODAY)
    grant_leave(permit, dt.date(2027, 3, 1), dt.date(2027, 3, 10), by="chefe", today=TODAY)
    with pytest.raises(UserError, match="no máximo 2"):
        grant_leave(permit, dt.date(2027, 6, 1), dt.date(2027, 6, 3), by="chefe", today=TODAY)
    # another year has days of its own
    grant_leave(permit, dt.date(2026, 12, 31), dt.date(2026, 12, 31), by="chefe", today=dt.date(2026, 11, 1))
    with pytest.raises(FieldErrors, match="CPF"):
        grant_leave(
            permit, dt.date(2027, 8, 1), dt.date(2027, 8, 2), "Fulano de Tal", "111.111.111-11", by="chefe", today=TODAY
        )
    # Sapezal, art. 48, II: 30 days a year, in as many periods as wanted
    licence = sapezal_licence(keys, company("Bebidas Ltda", person("Carlos Dias Rocha")))
    for month in (1, 2, 3):
        grant_leave(licence, dt.date(2027, month, 1), dt.date(2027, month, 5), by="chefe", today=TODAY)
    with pytest.raises(UserError, match="não prevê descanso"):
        grant_leave(
            tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias"))),
            dt.date(2027, 1, 10),
            dt.date(2027, 1, 12),
            by="chefe",
            today=TODAY,
        )


def test_transfer_to_heir_only_where_the_act_allows(keys, monkeypatch):
    import models.services.issuing as issuing

    holder = person("Antônio Carlos Mendes")
    heir = person("Carla Mendes Ribeiro")
    permit = feirante(keys, holder)
    # the SJC file says the act allows it (Lei 9.158/2014, art. 17); Olímpia's TPU does not (art. 158)
    assert get_regime("sjc-2014").permit_kind("feirante").transfer.basis == "art. 17"
    with pytest.raises(UserError, match="não prevê a transferência"):
        transfer_to_heir(
            tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias"))),
            heir,
            by="chefe",
            reason="Falecimento",
            today=TODAY,
            key_dir=keys,
        )
    with monkeypatch.context() as patch, pytest.raises(UserError, match="não prevê a transferência"):
        patch.setattr(issuing, "_transfer_rule", lambda kind: None)  # a kind whose act is silent
        transfer_to_heir(permit, heir, by="chefe", reason="Falecimento do titular", today=TODAY, key_dir=keys)
    with pytest.raises(FieldErrors):
        transfer_to_heir(permit, heir, by="chefe", reason="", today=TODAY, key_dir=keys)
    new = transfer_to_heir(
        permit,
        heir,
        by="chefe",
        reason="Falecimento; sucessores indicaram a filha",
        today=dt.date(2027, 2, 1),
        key_dir=keys,
    )
    assert (new.person_id, new.origin, new.previous_id) == (heir.id, "transfer", permit.id)
    assert (new.valid_from, new.valid_until) == (dt.date(2027, 2, 1), permit.valid_until)  # the remaining term
    assert (new.site, new.section, new.line) == (permit.site, permit.section, permit.line)
    old = Permit.get_by_id(permit.id)
    assert old.status == "superseded"
    assert "Lei 9.158/2014, art. 17" in old.events.order_by(PermitEvent.id.desc()).first().reason
    assert verify_text(new.qr_text, keys, today=dt.date(2027, 2, 1)).summary.holder_document == heir.cpf
    # an heir who already holds a permit of the kind is refused (art. 11, § 4º)
    other = feirante(keys, person("Paulo Roberto Dias"), site="Feira Noturna do Centro")
    with pytest.raises(UserError, match=r"Transferência recusada .*art\. 11, § 4º"):
        transfer_to_heir(other, heir, by="chefe", reason="Falecimento", today=dt.date(2027, 2, 2), key_dir=keys)


def test_exchange_of_sites_with_the_administration_consent(keys):
    a = feirante(keys, person("Antônio Carlos Mendes"), site="Feira Noturna do Jardim Satélite", point="Banca 03")
    b = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro", point="Banca 11")
    with pytest.raises(FieldErrors):
        exchange_sites(a, b, by="chefe", reason="", today=TODAY)
    new_a, new_b = exchange_sites(
        a,
        b,
        by="chefe",
        reason="Despacho 12/2026 do Departamento de Posturas",
        today=dt.date(2026, 12, 5),
        key_dir=keys,
    )
    assert (new_a.person_id, new_a.site, new_a.point) == (a.person_id, b.site, "Banca 11")
    assert (new_b.person_id, new_b.site, new_b.point) == (b.person_id, a.site, "Banca 03")
    assert new_a.valid_until == a.valid_until and new_a.origin == "exchange"
    assert {Permit.get_by_id(a.id).status, Permit.get_by_id(b.id).status} == {"superseded"}
    summary = verify_text(new_a.qr_text, keys, today=dt.date(2026, 12, 5)).summary
    assert summary.place == "Feira Noturna do Centro — Banca 11"
    with pytest.raises(UserError, match="está substituída"):
        exchange_sites(Permit.get_by_id(a.id), new_b, by="chefe", reason="x", today=TODAY)
    with pytest.raises(UserError, match="mesmo tipo"):
        exchange_sites(
            new_a,
            feirante(keys, person("José Wilson Prado"), kind="produtor-rural"),
            by="chefe",
            reason="x",
            today=TODAY,
        )


def test_every_successor_permit_is_issued_by_one_step_with_the_act_in_force(keys):
    """Renewal, transfer to an heir and exchange issue the next permit alike: the act's version in force on its
    issue day (as a permit from an application keeps), an ``issued`` event naming the permit it follows."""
    from models.rules.acts import act_sha

    tpu_old = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    heir = person("Carla Mendes Ribeiro")
    a = feirante(keys, person("Antônio Carlos Mendes"), site="Feira Noturna do Jardim Satélite", point="Banca 03")
    b = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro", point="Banca 11")
    c = feirante(keys, person("Paulo Roberto Dias"), site="Feira Noturna do Centro", point="Banca 12")
    assert tpu_old.act_sha256 == act_sha(tpu_old.regime, tpu_old.issued_on) != ""
    renewed = renew(tpu_old, by="ana", today=dt.date(2031, 5, 2), key_dir=keys)
    day = dt.date(2027, 2, 1)
    heirs = transfer_to_heir(c, heir, by="chefe", reason="Falecimento do titular", today=day, key_dir=keys)
    new_a, new_b = exchange_sites(a, b, by="chefe", reason="Despacho 12/2026", today=day, key_dir=keys)
    for new, old in ((renewed, tpu_old), (heirs, c), (new_a, a), (new_b, b)):
        assert new.act_sha256 == act_sha(new.regime, new.issued_on) != "", new.origin
        first = new.events.order_by(PermitEvent.id).first()
        assert (first.kind, first.status_to, first.other_id) == ("issued", "active", old.id)
        assert (new.previous_id, new.regime, new.permit_kind) == (old.id, old.regime, old.permit_kind)


def test_exchange_refused_when_a_spouse_is_in_the_new_feira(keys):
    wife = person("Maria das Dores Lima")
    husband = person("João Batista Lima", household=[HouseholdInput(name=wife.name, relation="spouse", cpf=wife.cpf)])
    feirante(keys, wife, site="Feira Noturna do Centro")
    mine = feirante(keys, husband, site="Feira Noturna do Jardim Satélite")
    theirs = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro")
    with pytest.raises(UserError, match=r"Permuta recusada .*mesma feira.*Lei 9.158/2014, art. 12"):
        exchange_sites(mine, theirs, by="chefe", reason="Despacho 13/2026", today=TODAY)


# --------------------------------------------------------------------------- today


def test_today_items_with_text_and_article(keys):
    permit = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    items = today_items(dt.date(2026, 12, 3))
    assert [(i.kind, i.date) for i in items] == [("pickup", dt.date(2026, 12, 7)), ("startup", dt.date(2026, 12, 10))]
    assert items[0].article == "Lei 1.171/2014, art. 37" and f"nº {permit.number}" in items[0].text
    record_picked_up(permit, by="ana", on=dt.date(2026, 12, 2))
    record_started(permit, by="fiscal", on=dt.date(2026, 12, 3))
    items = today_items(dt.date(2027, 10, 30))
    assert [(i.kind, i.date, i.article) for i in items] == [
        ("renewal-closes", dt.date(2027, 10, 30), "Lei 1.171/2014, art. 5º, § 3º; art. 23, § 1º"),
        ("expiring", dt.date(2027, 11, 29), "Lei 1.171/2014, art. 38"),
    ]
    assert "renovação termina hoje" in items[0].text and "validade termina em 29/11/2027" in items[1].text
    [item] = today_items(dt.date(2027, 12, 2))
    assert (item.kind, item.overdue) == ("expired", True) and "dar baixa" in item.text
    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")), on=dt.date(2026, 6, 1))
    record_started(truck, by="fiscal", on=dt.date(2026, 6, 10))
    opening = [i for i in today_items(dt.date(2030, 9, 30)) if i.kind == "renewal-opens"]
    assert [(i.number, i.date) for i in opening] == [(truck.number, dt.date(2030, 10, 3))]
    assert opening[0].article == "LC 324/2025, art. 166; art. 177"
    suspend(truck, by="fiscal", reason="Infração", today=dt.date(2027, 1, 10), until=dt.date(2027, 1, 20))
    ends = [i for i in today_items(dt.date(2027, 1, 18)) if i.kind == "suspension-ends"]
    assert len(ends) == 1 and "termina em 20/01/2027" in ends[0].text


# --------------------------------------------------------------------------- eligibility sees the permits


def test_olimpia_one_tpu_per_person_art_162(keys):
    partner = person("Maria José da Silva")
    holder = company("Pastel da Maria Ltda", partner)
    tpu(keys, holder)
    found, facts = results(holder, "olimpia-2025", "street-food-tpu-b")
    assert found["LC 324/2025, art. 162"].status == FAILED
    assert "2026/00001" in found["LC 324/2025, art. 162"].reason
    # the front desk's live assessment sees it too
    assessment = assess(
        load_applicant("company", holder.id),
        ApplicationInput(regime="olimpia-2025", permit_kind="street-food-tpu-c", company_id=holder.id),
        today=TODAY,
    )
    assert any(r.status == FAILED and r.article == "LC 324/2025, art. 162" for r in assessment.eligibility.results)
    # § 2º: another company of the same partner, and a company of the partner's spouse
    second = company("Lanches da Maria Ltda", partner)
    found, facts = results(second, "olimpia-2025", "street-food-tpu-d")
    assert found["LC 324/2025, art. 162"].status == PASSED
    by_scope = {
        r.rule.scope: r
        for r in evaluate_eligibility("olimpia-2025", "street-food-tpu-d", facts).results
        if r.rule.kind == "one-per"
    }
    assert by_scope["partners"].status == FAILED and "sócio" in by_scope["partners"].reason
    assert by_scope["partners"].article == "LC 324/2025, art. 162, § 2º"
    husband = person(
        "José Carlos da Silva", household=[HouseholdInput(name=partner.name, relation="spouse", cpf=partner.cpf)]
    )
    his = company("Churros do José Ltda", husband)
    facts = applicant_facts(
        load_applicant("company", his.id),
        documents=[],
        today=TODAY,
        regime="olimpia-2025",
        permit_kind="street-food-tpu-a",
    )
    by_scope = {
        r.rule.scope: r
        for r in evaluate_eligibility("olimpia-2025", "street-food-tpu-a", facts).results
        if r.rule.kind == "one-per"
    }
    assert by_scope["spouse"].status == FAILED and by_scope["person"].status == PASSED


def test_sjc_spouse_in_the_same_feira_art_12(keys):
    wife = person("Maria das Dores Lima")
    husband = person("João Batista Lima", household=[HouseholdInput(name=wife.name, relation="spouse", cpf=wife.cpf)])
    feirante(keys, wife, site="Feira Noturna do Centro")
    found, facts = results(husband, "sjc-2014", "feirante", site="Feira Noturna do Centro")
    spouse = next(
        r
        for r in evaluate_eligibility("sjc-2014", "feirante", facts).results
        if r.rule.kind == "one-per" and r.rule.scope == "spouse"
    )
    assert spouse.status == FAILED and "mesma feira" in spouse.reason and spouse.article == "Lei 9.158/2014, art. 12"
    assert found["Lei 9.158/2014, art. 11, § 4º"].status == PASSED
    _, facts = results(husband, "sjc-2014", "feirante", site="Feira Noturna do Jardim Satélite")
    spouse = next(
        r
        for r in evaluate_eligibility("sjc-2014", "feirante", facts).results
        if r.rule.kind == "one-per" and r.rule.scope == "spouse"
    )
    assert spouse.status == PASSED
    # the wife herself: one per person (art. 11, § 4º), in any feira
    found, _ = results(wife, "sjc-2014", "produtor-rural", site="Feira Noturna do Jardim Satélite")
    assert found["Lei 9.158/2014, art. 11, § 4º"].status == FAILED


def test_history_feeds_the_waiting_periods(keys):
    # Olímpia art. 148: 12 months after a revocation
    vendor = person("Paulo Roberto Dias")
    permit = issue(
        approved("olimpia-2025", "street-vending", holder=vendor, on=dt.date(2026, 1, 10), equipment="carrocinha"),
        keys,
        dt.date(2026, 1, 10),
        valid_until=dt.date(2027, 6, 30),
    )
    revoke(permit, by="chefe", reason="Reincidência", today=dt.date(2026, 6, 1))
    found, _ = results(vendor, "olimpia-2025", "event-trade")
    assert found["LC 324/2025, art. 148"].status == FAILED
    assert "pode requerer a partir de 01/06/2027" in found["LC 324/2025, art. 148"].reason
    # SJC art. 26, parágrafo único: 36 months after abandoning the feira
    feira = feirante(keys, person("Antônio Carlos Mendes"))
    revoke(feira, by="chefe", reason="Abandono", today=dt.date(2026, 12, 1), abandonment=True)
    found, _ = results(Permit.get_by_id(feira.id).person, "sjc-2014", "feirante", today=dt.date(2027, 1, 1))
    assert found["Lei 9.158/2014, art. 26, parágrafo único"].status == FAILED
    # Ilha Comprida art. 12, § 2º: 6 months after the licence lapsed (not after asking to cancel it)
    lapsed_holder = mei_vendor("Sebastião Rocha Lima")
    beach_licence(keys, lapsed_holder, on=dt.date(2026, 3, 10))
    found, facts = results(lapsed_holder, "ilha-comprida-2017", "ambulante-praia", today=dt.date(2027, 3, 1))
    assert found["Dec. 890/2017, art. 12, § 2º"].status == FAILED  # before the run of expire_due too
    expire_due(dt.date(2027, 1, 1))
    found, _ = results(lapsed_holder, "ilha-comprida-2017", "ambulante-praia", today=dt.date(2027, 7, 1))
    assert found["Dec. 890/2017, art. 12, § 2º"].status == PASSED
    quitter = mei_vendor("Lúcia Helena Prado")
    cancel(
        beach_licence(keys, quitter, on=dt.date(2026, 3, 10), site="ponto-04"),
        by="div",
        reason="Pedido",
        today=dt.date(2026, 4, 1),
        at_holder_request=True,
    )
    _, facts = results(quitter, "ilha-comprida-2017", "ambulante-praia", today=dt.date(2026, 4, 2))
    assert facts.history == () and facts.permits == ()


def test_cap_and_quota_counts(keys):
    first = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 3, 10))
    app = approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        on=dt.date(2026, 3, 10),
        holder=mei_vendor("Mário Sérgio Prado"),
        site="ponto-04",
    )
    issue(app, keys, dt.date(2026, 3, 10), quota=True)
    _, facts = results(
        mei_vendor("Ana Beatriz Prado"), "ilha-comprida-2017", "ambulante-praia", today=dt.date(2026, 5, 1)
    )
    assert (facts.active_count, facts.quota_used) == (2, 1)
    suspend(first, by="f", reason="x", today=dt.date(2026, 4, 1))  # a suspended permit still holds its place
    _, facts = results(
        mei_vendor("Bruno Henrique Prado"), "ilha-comprida-2017", "ambulante-praia", today=dt.date(2026, 5, 1)
    )
    assert facts.active_count == 2


# --------------------------------------------------------------------------- praca permit print


@needs_pdftotext
def test_praca_permit_print_writes_the_three_pdfs(database, tmp_path, capsys):
    from desktop.cli import main

    set_store(tmp_path / "files")
    holder = company("Barraca Boa Eventos Ltda", person("Pedro Alves Costa"), registration="445566")
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 18),
        holder=holder,
        site="rua-cel-ribeiro-da-luz",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
    )
    permit = issue(app, tmp_path / "keys", dt.date(2026, 3, 20), point="Posição 07")
    revoked = revoke(
        issue(
            approved(
                "sao-bento-2026",
                "event-stall",
                on=dt.date(2026, 3, 18),
                holder=holder,
                equipment="barraca",
                front="3,00",
                depth="3,00",
            ),
            tmp_path / "keys",
            dt.date(2026, 3, 20),
        ),
        by="fiscal",
        reason="Sublocação",
        today=dt.date(2026, 3, 27),
    )
    close_database()
    texts = {}
    for what in ("permit", "card", "placard"):
        out = tmp_path / f"{what}.pdf"
        assert (
            main(["permit", "print", "--db", database, "--number", permit.number, "--what", what, "--out", str(out)])
            == 0
        )
        assert f"nº {permit.number} gravado em {out}" in capsys.readouterr().out
        texts[what] = pdf_text(out, squash="all")
    assert permit.number in texts["permit"] and "Barraca Boa Eventos Ltda" in texts["permit"]
    assert "27/03/2026 a 29/03/2026" in texts["permit"] and "Dec. 4.794/2026" in texts["permit"]
    assert permit.number in texts["card"] and "Barraca Boa Eventos Ltda".upper() in texts["card"].upper()
    assert "BARRACA BOA EVENTOS LTDA" in texts["placard"] and "445566" in texts["placard"]  # art. 4º, par. único
    # an unknown number, and a permit no longer in force: one line, exit 2
    assert (
        main(
            [
                "permit",
                "print",
                "--db",
                database,
                "--number",
                "2026/09999",
                "--what",
                "card",
                "--out",
                str(tmp_path / "x.pdf"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err == "praca: Permissão nº 2026/09999 não encontrada.\n"
    assert (
        main(
            [
                "permit",
                "print",
                "--db",
                database,
                "--number",
                revoked.number,
                "--what",
                "card",
                "--out",
                str(tmp_path / "y.pdf"),
            ]
        )
        == 2
    )
    assert "está cassada" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "y.pdf").exists()


def test_praca_permit_without_action_is_one_line(capsys):
    from desktop.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["permit"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_related_holders_span_family_partners_and_their_companies(keys):
    from models.permits import related_holders

    spouse = person("Sandra Regina Alves")
    child = person("Lucas Alves Moreira", birth_date=dt.date(2004, 2, 2))
    me = person(
        "Paulo Moreira Alves",
        household=[
            HouseholdInput(name=spouse.name, relation="spouse", cpf=spouse.cpf),
            HouseholdInput(name=child.name, relation="child", cpf=child.cpf),
        ],
    )
    parent = person("Olga Moreira Alves", household=[HouseholdInput(name=me.name, relation="child", cpf=me.cpf)])
    my_mei = company("PAULO MOREIRA ALVES MEI", me, mei=True)
    her_mei = company("SANDRA REGINA ALVES MEI", spouse, mei=True)
    partner = person("Quirino Dias Neto")
    shop = company("Alves & Dias Ltda", me, partner)
    persons, companies = related_holders("person", me.id)
    assert persons == {
        me.id: "self",
        spouse.id: "spouse",
        child.id: "dependant",
        parent.id: "family",
        partner.id: "business-partner",
    }
    assert companies == {my_mei.id: "self", her_mei.id: "spouse", shop.id: "business-partner"}
    # from the shop's side: its partners are business partners, their families count as theirs
    persons, companies = related_holders("company", shop.id)
    assert companies[shop.id] == "self" and companies[her_mei.id] == "spouse"
    assert persons[me.id] == persons[partner.id] == "business-partner" and persons[spouse.id] == "spouse"
    # an MEI is its owner
    persons, companies = related_holders("company", my_mei.id)
    assert persons[me.id] == "self" and companies[my_mei.id] == "self"


def test_a_stale_copy_cannot_renew_nor_renew_twice(keys):
    holder = company("Food Truck Ltda", person("Marcos Paulo Dias"))
    old = tpu(keys, holder)
    desk_a, desk_b = Permit.get_by_id(old.id), Permit.get_by_id(old.id)
    renew(desk_a, by="ana", today=dt.date(2031, 5, 2), key_dir=keys)
    with pytest.raises(UserError, match=r"alterada em outra mesa|já foi renovada"):
        renew(desk_b, by="bia", today=dt.date(2031, 5, 2), key_dir=keys)
    revoked_elsewhere = Permit.get_by_id(old.id)
    stale = Permit.get_by_id(old.id)
    revoke(revoked_elsewhere, by="chefe", reason="Abandono do ponto", today=dt.date(2031, 5, 3))
    assert Permit.select().where(Permit.previous == old.id).count() == 1
    with pytest.raises(UserError):
        renew(stale, by="ana", today=dt.date(2031, 5, 4), key_dir=keys)


def test_the_cap_is_counted_again_at_issue(keys, monkeypatch):
    """Dec. 890/2017: 280 licences at most — two approvals cannot both be issued past the limit."""
    import models.services.issuing as issuing

    app_one = approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        on=dt.date(2026, 3, 10),
        holder=mei_vendor("Mário Sérgio Prado"),
        site="ponto-04",
    )
    app_two = approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        on=dt.date(2026, 3, 10),
        holder=mei_vendor("Ana Beatriz Prado"),
        site="ponto-05",
    )
    real_count = issuing.active_count
    monkeypatch.setattr(issuing, "active_count", lambda *a, **k: real_count(*a, **k) + 279)  # 279 already
    issue(app_one, keys, dt.date(2026, 3, 11))
    with pytest.raises(UserError, match=r"Limite de 280 permissões .*280 em vigor"):
        issue(app_two, keys, dt.date(2026, 3, 11))
    assert Permit.select().count() == 1


def test_a_beach_licence_issued_after_30_september_says_how_it_is_renewed(keys):
    """Dec. 890/2017, art. 12: renewal until 30/09; a licence issued later is renewed while in force (Praça's
    reading)."""
    late = beach_licence(keys, mei_vendor("Lúcia Helena Prado"), on=dt.date(2026, 11, 24))
    window = renewal_window(late)
    assert (window.opens, window.closes) == (dt.date(2026, 11, 24), dt.date(2026, 12, 31))
    assert "emitida depois de 30/09 de 2026" in window.text and "art. 12" in window.article
