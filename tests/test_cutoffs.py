"""Cut-off times as the acts word them, and the front desk that enforces them when an application is filed.

São Bento (Dec. 4.794/2026): "deverão se inscrever … no dia 26 de março de 2026, até 12h00min, cujos
comprovantes de recolhimentos deverão ser enviados para Secretaria da Fazenda até às 14h00min" (art. 3º; art.
6º); "havendo disponibilidade de espaços após os prazos … ainda será permitida a instalação … mediante
solicitação do interessado e considerando a ordem de inscrição" (art. 10). The permit covers 27–29 March (art.
2º). Desk tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from factories import application_dialog, broken_shipped, company, draw_json, person
from factories import write_list as write
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from models.base.errors import UserError
from models.billing.charges import Charge, Payment, await_payment, record_payment
from models.registry.applications import Application, ApplicationEvent, ApplicationInput, change_status
from models.rules.filing import CLOSED, LATE, OPEN, filing_check
from models.rules.regimes import get_regime
from models.selection import Participant, draw_rules, run_draw
from models.services.calls import call_list
from models.services.filing import create_application

SB = get_regime("sao-bento-2026")
UNTIL = dt.datetime(2026, 3, 26, 12, 0)
PROOF = dt.datetime(2026, 3, 26, 14, 0)


# --------------------------------------------------------------------------- the window, pure


def test_sao_bento_window_art_3_art_10_art_2():
    """Art. 3º: until 12:00 of 26/03 the filing is in time; art. 10: after it, a late request for the places
    left, said plainly; art. 2º: after 29/03 the event is over and nothing is filed."""
    in_time = filing_check(SB, "event-stall", dt.datetime(2026, 3, 26, 11, 59))
    assert in_time.status == OPEN and "art. 3º" in in_time.text
    late = filing_check(SB, "event-stall", dt.datetime(2026, 3, 26, 12, 1))
    assert late.status == LATE and not late.refused
    assert "Inscrições encerradas em 26/03/2026 (quinta-feira) às 12:00 (Dec. 4.794/2026, art. 3º)" in late.text
    assert "Dec. 4.794/2026, art. 10" in late.text and "1 dia após a emissão do boleto" in late.text
    during = filing_check(SB, "event-stall", dt.datetime(2026, 3, 28, 9, 0))
    assert during.status == LATE  # the act still takes requests while the event runs, for the places left
    over = filing_check(SB, "event-stall", dt.datetime(2026, 3, 30, 8, 0))
    assert over.status == CLOSED and over.refused and "29/03/2026" in over.text and "art. 2º" in over.text


def test_registration_without_late_filing_is_refused_after_it_closes():
    """Where the act admits no late request (no ``late_fill``), a filing after the registration is refused."""
    strict = dataclasses.replace(SB, selection=dataclasses.replace(SB.selection, late_fill=None))
    check = filing_check(strict, "event-stall", dt.datetime(2026, 3, 26, 12, 30))
    assert check.status == CLOSED and "não admite pedido depois do prazo" in check.text


@given(st.datetimes(min_value=dt.datetime(2026, 3, 1), max_value=dt.datetime(2026, 4, 30)))
def test_window_is_open_then_late_then_closed(at):
    """Art. 3º, art. 10 and art. 2º in order, for any moment of March and April 2026."""
    status = filing_check(SB, "event-stall", at).status
    expected = OPEN if at <= UNTIL else (LATE if at.date() <= dt.date(2026, 3, 29) else CLOSED)
    assert status == expected


def test_loader_refuses_a_proof_article_without_the_proof_cutoff(tmp_path):
    err = broken_shipped(tmp_path, "sao-bento-2026", "proof_until = 2026-03-26T14:00:00, ", "")
    assert "selection.registration.proof_basis: só vale com proof_until" in str(err)


# --------------------------------------------------------------------------- the draw


def test_draw_leaves_out_payments_after_the_proof_cutoff_art_3_and_6():
    """Dec. 4.794/2026, art. 3º and art. 6º: a payment after 14:00 of 26/03 does not enter the order of art. 3º,
    § 2º; a registration after 12:00 neither (it waits for the places left, art. 10)."""
    rules = draw_rules(SB)
    assert rules.proof_until == PROOF and rules.proof_basis == "Dec. 4.794/2026, art. 3º; art. 6º"
    ps = [
        Participant(id="A", name="A", paid_at=dt.datetime(2026, 3, 26, 13, 59)),
        Participant(id="B", name="B", paid_at=dt.datetime(2026, 3, 26, 14, 1)),
        Participant(
            id="C", name="C", paid_at=dt.datetime(2026, 3, 25, 9, 0), registered_at=dt.datetime(2026, 3, 26, 12, 30)
        ),
        Participant(
            id="D", name="D", paid_at=dt.datetime(2026, 3, 25, 10, 0), registered_at=dt.datetime(2026, 3, 26, 11, 0)
        ),
    ]
    result = run_draw(ps, "1", 3, rules)
    assert set(result.holders) == {"A", "D"}
    excluded = {e.participant.id: e for e in result.excluded}
    assert "depois do prazo do comprovante (26/03/2026 14:00)" in excluded["B"].reason
    assert excluded["B"].basis == "Dec. 4.794/2026, art. 3º; art. 6º"
    assert "depois do prazo de 26/03/2026 12:00" in excluded["C"].reason and "art. 10" in excluded["C"].reason
    assert excluded["C"].basis == "Dec. 4.794/2026, art. 3º"


def test_praca_draw_excludes_a_late_payment_with_its_article(tmp_path, capsys):
    """``praca draw --regime sao-bento-2026``: the late payment is in ``excluded`` with art. 3º and art. 6º; the
    CSV may carry ``registered_at`` too."""
    path = write(
        tmp_path,
        "id,name,paid_at,registered_at\nA,Lanches,26/03/2026 13:15,26/03/2026 09:00\n"
        "B,Pastel,26/03/2026 15:40,\nC,Caldo,25/03/2026 10:00,26/03/2026 12:05\n",
    )
    data = draw_json(capsys, "--regime", "sao-bento-2026", "--input", path, "--vacancies", "2", "--seed", "1")
    assert data["holders"] == ["A"]
    out = {e["id"]: e for e in data["excluded"]}
    assert out["B"]["basis"] == "Dec. 4.794/2026, art. 3º; art. 6º" and "15:40" in out["B"]["reason"]
    assert out["C"]["basis"] == "Dec. 4.794/2026, art. 3º" and "art. 10" in out["C"]["reason"]


# --------------------------------------------------------------------------- the desk


def event_stall(name: str, at: dt.datetime) -> Application:
    return create_application(
        ApplicationInput(
            regime="sao-bento-2026",
            permit_kind="event-stall",
            company_id=company(name, person(f"Sócio de {name}")).id,
            site="rua-cel-ribeiro-da-luz",
            equipment="barraca",
            front="3,00",
            depth="3,00",
        ),
        clerk="ana",
        now=at,
    )


def test_filing_after_the_event_is_refused_and_nothing_stored(keys):
    """Art. 2º: on 30/03/2026 the Indomit is over — the desk refuses the application at filing, one line, and
    stores nothing."""
    with pytest.raises(UserError, match="O evento terminou em 29/03/2026") as refused:
        event_stall("Tarde Demais Ltda", dt.datetime(2026, 3, 30, 9, 0))
    assert refused.value.field == "permit_kind"
    assert Application.select().count() == 0


def test_late_filing_is_kept_with_art_10_in_its_history(keys):
    """Art. 3º and art. 10: filed at 12:30 of 26/03, the application is kept, its history says it is late and
    for the places left, and it is dated when it was filed."""
    app = event_stall("Fora do Prazo Ltda", dt.datetime(2026, 3, 26, 12, 30))
    assert app.created_at == dt.datetime(2026, 3, 26, 12, 30)
    event = ApplicationEvent.get(ApplicationEvent.application == app.id)
    assert "fora do prazo" in event.reason and "art. 10" in event.reason


def test_filing_after_a_map_sites_last_day_is_refused(keys):
    """An event area kept in Mapas with its days (no schedule in the act): past its last day, the filing is
    refused at the site field."""
    from models.sites import SegmentInput, SiteInput, save_site

    save_site(
        SiteInput(
            name="Festa do Peão 2026",
            kind="street",
            regime="sapezal-2014",
            first_day="01/08/2026",
            last_day="03/08/2026",
            segments=[SegmentInput(street="Rua da Festa", length="60", width="10")],
        )
    )
    data = ApplicationInput(
        regime="sapezal-2014",
        permit_kind="temporaria",
        site="Festa do Peão 2026",
        company_id=company("Pastel da Festa Ltda", person("Dono do Pastel")).id,
    )
    with pytest.raises(
        UserError, match="O evento terminou em 03/08/2026 — datas do local «Festa do Peão 2026»"
    ) as refused:
        create_application(data, clerk="ana", now=dt.datetime(2026, 8, 4, 8, 0))
    assert refused.value.field == "site"
    assert create_application(data, clerk="ana", now=dt.datetime(2026, 8, 2, 8, 0)).protocol


def pay(app: Application, at: dt.datetime) -> None:
    """Approve, charge and pay ``app`` at ``at`` (recorded on the spot: the time of day is known)."""
    from models.billing.pricing import quote

    frozen = quote(
        "sao-bento-2026", permit_kind="event-stall", equipment="barraca", front="3,00", depth="3,00", year=2026
    ).to_dict()
    Application.update(quote_json=json.dumps(frozen)).where(Application.id == app.id).execute()
    app = change_status(change_status(Application.get_by_id(app.id), "analysis", by="chefe"), "approved", by="chefe")
    await_payment(app, by="ana", today=app.created_at.date())
    for n, charge in enumerate(Charge.select().where(Charge.application == app.id)):
        payment = record_payment(
            charge, paid_on=at.date(), amount=charge.amount, reference=f"{app.id}-{n}", by="caixa", today=at.date()
        )
        Payment.update(recorded_at=at).where(Payment.id == payment.id).execute()


def test_call_list_enforces_the_cutoffs_of_art_3_and_art_6(keys):
    """The Seleção desk's list for the Indomit, on both back ends: in time and paid by 14:00 — in the list by
    payment time; paid at 15:10 — left out with art. 3º and art. 6º; filed at 12:20 — left out, pointing to the
    places left of art. 10."""
    in_time = event_stall("No Prazo Ltda", dt.datetime(2026, 3, 24, 10, 0))
    late_pay = event_stall("Pagou Tarde Ltda", dt.datetime(2026, 3, 25, 10, 0))
    late_filed = event_stall("Inscreveu Tarde Ltda", dt.datetime(2026, 3, 26, 12, 20))
    pay(in_time, dt.datetime(2026, 3, 26, 13, 0))
    pay(late_pay, dt.datetime(2026, 3, 26, 15, 10))
    pay(late_filed, dt.datetime(2026, 3, 26, 12, 40))
    call = call_list("sao-bento-2026", site="rua-cel-ribeiro-da-luz", today=dt.date(2026, 3, 26))
    by = {c.applicant: c for c in call.candidates}
    assert by["No Prazo Ltda"].excluded == ""
    assert [p.id for p in call.published.participants] == [in_time.protocol]
    assert "depois do prazo do comprovante" in by["Pagou Tarde Ltda"].excluded
    assert "Dec. 4.794/2026, art. 3º; art. 6º" in by["Pagou Tarde Ltda"].excluded
    assert "depois do prazo de 26/03/2026 12:00" in by["Inscreveu Tarde Ltda"].excluded
    assert "art. 10" in by["Inscreveu Tarde Ltda"].excluded


# --------------------------------------------------------------------------- the front desk's form


def open_form(qtbot, holder, now):
    return application_dialog(qtbot, "company", holder.id, "sao-bento-2026", now=now)


def test_form_refuses_an_event_that_is_over(qtbot, mei, app_ready):
    """Atendimento on 30/03/2026: the form says in red that the Indomit ended (art. 2º); clicking Protocolar
    shows the reason at the field and files nothing."""
    d = open_form(qtbot, mei, dt.datetime(2026, 3, 30, 9, 0))
    assert d.filing.isVisible() and d.filing.property("status") == "closed"
    assert "O evento terminou em 29/03/2026" in d.filing.text()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    assert d.protocol.text() == "" and "O evento terminou" in d.error.text()
    assert "permit_kind" in d.errors.shown
    assert Application.select().count() == 0


def test_form_warns_plainly_of_a_late_filing_and_files_it(qtbot, mei, app_ready):
    """Atendimento at 12:30 of 26/03/2026: the form warns that the registration of art. 3º closed and that the
    request is for the places left (art. 10); Protocolar files it and says it is late."""
    d = open_form(qtbot, mei, dt.datetime(2026, 3, 26, 12, 30))
    assert d.filing.property("status") == "late"
    assert "Inscrições encerradas" in d.filing.text() and "art. 10" in d.filing.text()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    assert d.protocol.text().startswith("Protocolo 2026/") and "fora do prazo" in d.protocol.text()
    assert Application.select().count() == 1


def test_form_in_time_says_until_when(qtbot, mei, app_ready):
    """Art. 3º: at 10:00 of 26/03/2026 the form shows the registration is in time and until when."""
    d = open_form(qtbot, mei, dt.datetime(2026, 3, 26, 10, 0))
    assert d.filing.property("status") == "open" and "Inscrição no prazo" in d.filing.text()
    assert "26/03/2026 (quinta-feira) às 12:00" in d.filing.text()
