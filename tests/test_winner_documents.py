"""Sapezal (Lei 1.171/2014), art. 11: "Publicada a lista definitiva dos participantes vencedores, estes terão o
prazo de 10 (dez) dias úteis para apresentar: I. Prova de Inscrição no CNPJ; II. Atestado médico …; III. Certidão
Negativa de Débitos Municipais" — due after the final list, not at the application; the desk tracks them for the
winners and no licence is issued without them. Desk tests run on SQLite and, with ``PRACA_TEST_PG``, on
PostgreSQL."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import pytest
from factories import SAPEZAL_SITE, TODAY, application_dialog, broken_shipped, good_facts, sapezal_applicant
from PySide6.QtCore import Qt

from models.rules.eligibility import DUE_LATER, FAILED, PASSED, DueFacts, evaluate_eligibility
from models.rules.regimes import get_regime

SAPEZAL = get_regime("sapezal-2014")
ART_11 = ("cnpj-card", "health-certificate", "municipal-clearance")


def art_11_results(result):
    return {r.rule.document or r.rule.kind: r for r in result.results if r.rule.due}


def test_regime_defers_art_11_to_the_deadline_after_the_final_list():
    """The permanent licences defer art. 11, I–III (and the firm it presupposes) to "winner-documents": 10
    business days from the final list; the temporary one asks them at the application (art. 32)."""
    deadline = SAPEZAL.deadline("winner-documents")
    assert (deadline.days, deadline.count, deadline.basis) == (10, "business", "art. 11")
    for kind_id in ("ponto-fixo", "movel", "feira-livre"):
        deferred = {r.document or r.kind for r in SAPEZAL.permit_kind(kind_id).rules if r.due}
        assert deferred == {*ART_11, "cnpj-required", "legal-form"}
        assert {r.due for r in SAPEZAL.permit_kind(kind_id).rules if r.due} == {"winner-documents"}
    assert not any(r.due for r in SAPEZAL.permit_kind("temporaria").rules)


def test_at_the_application_art_11_is_due_after_the_final_list():
    """Art. 11: a natural person without CNPJ and without the three documents is eligible at the application —
    each shows "a apresentar depois, em 10 dias úteis, contados da publicação da lista final"."""
    kind = SAPEZAL.permit_kind("ponto-fixo")
    good = good_facts(SAPEZAL, kind)
    docs = {k: v for k, v in good.documents.items() if k not in ART_11}
    facts = replace(good, applicant_type="person", is_mei=False, has_cnpj=False, documents=docs)
    result = evaluate_eligibility(SAPEZAL, kind, facts, admin_values={"cap": 10})
    deferred = art_11_results(result)
    assert {r.status for r in deferred.values()} == {DUE_LATER} and len(deferred) == 5
    assert all(
        "10 dias úteis, contados da publicação da lista final (Lei 1.171/2014, art. 11)" in r.reason
        for r in deferred.values()
    )
    assert result.verdict != "ineligible" and result.summary.due_later == 5
    assert "5 requisitos a apresentar depois" in result.summary.text


def test_once_the_list_is_published_the_deadline_is_shown_then_enforced():
    """Art. 11 with the final list of 20/11/2026: until 04/12/2026 the documents are due with that date; from
    05/12 they are missing — "o prazo para apresentar terminou em 04/12/2026"."""
    kind = SAPEZAL.permit_kind("ponto-fixo")
    good = good_facts(SAPEZAL, kind, today=dt.date(2026, 12, 4))
    docs = {k: v for k, v in good.documents.items() if k != "cnpj-card"}
    due = {
        "winner-documents": DueFacts(
            dt.date(2026, 12, 4), "10 dias úteis a partir de 20/11/2026", "Lei 1.171/2014, art. 11"
        )
    }
    facts = replace(good, documents=docs, deadlines=due)
    on_time = art_11_results(evaluate_eligibility(SAPEZAL, kind, facts, admin_values={"cap": 10}))["cnpj-card"]
    assert on_time.status == DUE_LATER and "a apresentar até 04/12/2026" in on_time.reason
    assert on_time.due == dt.date(2026, 12, 4)
    late = art_11_results(
        evaluate_eligibility(SAPEZAL, kind, replace(facts, today=dt.date(2026, 12, 5)), admin_values={"cap": 10})
    )["cnpj-card"]
    assert late.status == FAILED and "o prazo para apresentar terminou em 04/12/2026" in late.reason
    issuing = evaluate_eligibility(SAPEZAL, kind, replace(facts, issuing=True), admin_values={"cap": 10})
    assert art_11_results(issuing)["cnpj-card"].status == FAILED  # the licence needs it now


def test_delivered_art_11_documents_pass_as_any_document():
    kind = SAPEZAL.permit_kind("ponto-fixo")
    result = evaluate_eligibility(SAPEZAL, kind, good_facts(SAPEZAL, kind), admin_values={"cap": 10})
    assert {r.status for r in art_11_results(result).values()} == {PASSED}


def test_loader_checks_due(tmp_path):
    err = broken_shipped(tmp_path, "sapezal-2014", 'due = "winner-documents"', 'due = "winner-papers"')
    assert re.search(r"rules\[\d+\]\.due: prazo .winner-papers. não existe em \[\[deadlines\]\]", str(err))
    err = broken_shipped(
        tmp_path,
        "sapezal-2014",
        'kind = "min-age"\nyears = 18\n',
        'kind = "min-age"\nyears = 18\ndue = "winner-documents"\n',
    )
    assert ".due: só vale para regras" in str(err)


# --------------------------------------------------------------------------- the desk


@pytest.fixture
def winners(keys):
    """Two applicants of group 3 in a final list published on 20/11/2026 (after the ranking of 16/11)."""
    from models.selection.appeals import publish_final, publish_ranking
    from models.services.calls import call_list

    common = dict(income="0,80", since=dt.date(1990, 1, 1), birth=dt.date(1960, 3, 3))
    apps = [
        sapezal_applicant("Rosa Amaral", housing="rented", **common)[1],
        sapezal_applicant("Bento Lima", housing="owned", **common)[1],
    ]
    current = call_list("sapezal-2014", site=SAPEZAL_SITE, group="g03", today=TODAY)
    ranking = publish_ranking(current, by="chefe", published_on=dt.date(2026, 11, 16), today=dt.date(2026, 11, 16))
    publish_final(ranking, by="chefe", published_on=dt.date(2026, 11, 20), today=dt.date(2026, 11, 20))
    return apps


def test_the_desk_counts_art_11_from_the_final_list_and_records_the_delivery(winners):
    """On both back ends: 10 business days from 20/11/2026 end on 04/12/2026 (art. 11); the documents recorded
    later make the requirements met; past the deadline, what was not delivered is missing."""
    from models.registry.applications import DocumentInput, record_documents
    from models.services.front_desk import later_requirements

    rosa, bento = winners
    found = {r.rule.document or r.rule.kind: r for r in later_requirements(rosa, today=TODAY)}
    assert {found[d].status for d in ART_11} == {DUE_LATER}
    assert {found[d].due for d in ART_11} == {dt.date(2026, 12, 4)}
    assert "termina em 04/12/2026" in found["cnpj-card"].reason
    record_documents(
        rosa, [DocumentInput(d, dt.date(2026, 12, 1)) for d in ART_11], by="ana", today=dt.date(2026, 12, 1)
    )
    assert {r.status for r in later_requirements(rosa, today=dt.date(2026, 12, 7))} == {PASSED}
    late = {r.rule.document or r.rule.kind: r for r in later_requirements(bento, today=dt.date(2026, 12, 7))}
    assert {late[d].status for d in ART_11} == {FAILED}
    assert "terminou em 04/12/2026" in late["health-certificate"].reason
    from models.base.errors import UserError
    from models.services.issuing import issue_permit

    with pytest.raises(UserError, match=r"ainda não cumpre o que o ato pede antes da permissão.*art\. 11, II"):
        issue_permit(bento, by="ana", today=dt.date(2026, 12, 7), key_dir=None)


def test_record_documents_refuses_what_is_not_asked_and_keeps_nothing(winners):
    from models.base.errors import FieldErrors
    from models.registry.applications import ApplicationDocument, DocumentInput, record_documents

    rosa = winners[0]
    before = ApplicationDocument.select().count()
    with pytest.raises(FieldErrors) as bad:
        record_documents(
            rosa,
            [DocumentInput("cnpj-card", dt.date(2026, 12, 1)), DocumentInput("passaporte", dt.date(2026, 12, 1))],
            by="ana",
            today=dt.date(2026, 12, 1),
        )
    assert "documents[1]" in bad.value.errors
    with pytest.raises(FieldErrors):
        record_documents(rosa, [DocumentInput("cnpj-card", dt.date(2026, 12, 9))], by="ana", today=dt.date(2026, 12, 1))
    assert ApplicationDocument.select().count() == before


def test_application_form_shows_art_11_as_due_after_the_final_list(qtbot, keys, app_ready):
    """Atendimento: Sapezal's fixed-point licence — the three documents of art. 11 read "a apresentar depois",
    in blue, and do not make the applicant "Não apto"."""
    who, _app = sapezal_applicant(
        "Carla Nunes", housing="rented", income="0,80", birth=dt.date(1970, 1, 1), since=dt.date(2000, 1, 1)
    )
    d = application_dialog(qtbot, "person", who.id, "sapezal-2014", "ponto-fixo")
    kind = SAPEZAL.permit_kind("ponto-fixo")
    for doc_id in kind.documents:
        if doc_id not in ART_11:
            d.set_delivered(doc_id, on=TODAY)
    d.settle()
    statuses = {
        d.rules.item(r, 0).text().split("\n")[0]: d.rules.item(r, 0).data(Qt.ItemDataRole.UserRole)
        for r in range(d.rules.rowCount())
    }
    later = [title for title, status in statuses.items() if status == DUE_LATER]
    assert len(later) == 3 and all("a apresentar depois" in t for t in later)
    assert "Não apto" not in d.verdict.text() and "a apresentar depois" in d.verdict.text()


def test_regime_text_says_art_11_comes_after_the_final_list(capsys):
    """``praca regimes --show sapezal-2014`` lists art. 11's requirements as asked after the final list."""
    from desktop.cli import main

    assert main(["regimes", "--show", "sapezal-2014"]) == 0
    out = capsys.readouterr().out
    assert (
        "Ter CNPJ — a apresentar depois: 10 dias úteis, contados da publicação da lista final — "
        "Lei 1.171/2014, art. 11, I"
    ) in out


def test_one_evaluation_with_explicit_moments(winners):
    """Issue 27 §4: the applicant is judged by one service, and the moment decides what is due — art. 11 is due
    later at filing (no deadline yet), by 04/12/2026 at approval (the final list of 20/11/2026), and now from the
    issue on; the approval's functions are that service at that moment, and only a replacing moment leaves a
    permit out of the counts."""
    from models.rules.eligibility import DUE_LATER, FAILED
    from models.services.front_desk import (
        Moment,
        applicant_of,
        eligibility_now,
        evaluate_applicant,
        evaluate_application,
        later_requirements,
    )

    rosa, _bento = winners
    at = {m: art_11_results(evaluate_application(rosa, m, today=TODAY)) for m in Moment}
    assert {at[Moment.FILING][d].status for d in ART_11} == {DUE_LATER}
    assert {at[Moment.FILING][d].due for d in ART_11} == {None}
    assert {at[Moment.APPROVAL][d].due for d in ART_11} == {dt.date(2026, 12, 4)}
    for moment in (Moment.ISSUE, Moment.RENEWAL, Moment.TRANSFER, Moment.EXCHANGE):
        assert {at[moment][d].status for d in ART_11} == {FAILED}, moment
    assert eligibility_now(rosa, today=TODAY) == evaluate_application(rosa, Moment.APPROVAL, today=TODAY)
    assert later_requirements(rosa, today=TODAY) == tuple(
        r for r in evaluate_application(rosa, Moment.APPROVAL, today=TODAY).results if r.rule.due
    )
    with pytest.raises(ValueError, match="no permit is replaced"):
        evaluate_applicant(
            Moment.FILING,
            applicant_of(rosa),
            regime=rosa.regime,
            permit_kind=rosa.permit_kind,
            documents=[],
            today=TODAY,
            exclude_permits=(1,),
        )
