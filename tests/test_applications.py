"""Applications: protocol numbers (gapless, per year, under concurrency), documents, statuses."""

from __future__ import annotations

import datetime as dt
import multiprocessing

import pytest
from factories import open_new_database

from models.base.errors import FieldErrors, UserError
from models.registry.applications import (
    Application,
    ApplicationDocument,
    ApplicationEvent,
    ApplicationInput,
    DocumentInput,
    change_status,
    worklist,
)
from models.registry.people import PersonInput, save_person
from models.services.filing import create_application
from models.store.bootstrap import close_database
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def applicant(database, tmp_path):
    set_store(tmp_path / "files")
    return save_person(
        PersonInput(name="Maria José da Silva", cpf="529.982.247-25", birth_date=dt.date(1980, 5, 17)), today=TODAY
    )


def sapezal(applicant, **kw) -> ApplicationInput:
    base = dict(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=applicant.id)
    base.update(kw)
    return ApplicationInput(**base)


def test_first_kinds(applicant):
    from models.rules.regimes import get_regime

    assert "ponto-fixo" in get_regime("sapezal-2014").ids("permit_kind")


def test_protocols_are_sequential_per_year(applicant):
    first = create_application(sapezal(applicant), clerk="ana", today=TODAY)
    second = create_application(sapezal(applicant), clerk="ana", today=TODAY)
    next_year = create_application(sapezal(applicant), clerk="ana", today=dt.date(2027, 1, 2))
    assert (first.protocol, second.protocol, next_year.protocol) == ("2026/00001", "2026/00002", "2027/00001")


def test_failed_save_gives_the_number_back(applicant):
    create_application(sapezal(applicant), clerk="ana", today=TODAY)
    with pytest.raises(FieldErrors):
        create_application(sapezal(applicant, front="-1"), clerk="ana", today=TODAY)
    with pytest.raises(UserError):  # fails inside the transaction: the file to keep is missing
        create_application(
            sapezal(applicant, documents=[DocumentInput("identity-card", TODAY, file="/nao/existe.pdf")]),
            clerk="ana",
            today=TODAY,
        )
    assert create_application(sapezal(applicant), clerk="ana", today=TODAY).protocol == "2026/00002"
    assert Application.select().count() == 2


def test_documents_are_kept_with_their_hash(applicant, tmp_path):
    from models.rules.regimes import get_regime

    doc_id = get_regime("sapezal-2014").permit_kind("ponto-fixo").documents[0]
    scan = tmp_path / "rg.pdf"
    scan.write_bytes(b"%PDF-1.4 scanned")
    app = create_application(
        sapezal(applicant, documents=[DocumentInput(doc_id, TODAY, file=str(scan))]), clerk="ana", today=TODAY
    )
    doc = ApplicationDocument.get(ApplicationDocument.application == app)
    import hashlib

    assert doc.sha256 == hashlib.sha256(b"%PDF-1.4 scanned").hexdigest()
    assert (tmp_path / "files" / doc.file_path).read_bytes() == b"%PDF-1.4 scanned"
    assert doc.original_name == "rg.pdf"


@pytest.mark.parametrize(
    "changes,field",
    [
        (dict(regime="atlantida-1900"), "regime"),
        (dict(permit_kind="nave"), "permit_kind"),
        (dict(equipment="nave"), "equipment"),
        (dict(front="0"), "front"),
        (dict(depth="abc"), "depth"),
        (dict(person_id=None), "applicant"),
    ],
)
def test_bad_application_is_refused(applicant, changes, field):
    with pytest.raises(FieldErrors) as err:
        create_application(sapezal(applicant, **changes), clerk="ana", today=TODAY)
    assert field in err.value.errors
    assert Application.select().count() == 0


def test_workflow_and_history(applicant):
    app = create_application(sapezal(applicant), clerk="ana", today=TODAY)
    app = change_status(app, "analysis", by="chefe")
    with pytest.raises(FieldErrors):
        change_status(app, "refused", by="chefe")
    app = change_status(app, "refused", by="chefe", reason="Documentos incompletos")
    with pytest.raises(UserError, match="não pode passar"):
        change_status(app, "issued", by="chefe")
    app = change_status(app, "appealed", by="ana", reason="Entregou o atestado")
    assert [(e.status_from, e.status_to) for e in app.events.order_by(ApplicationEvent.id)] == [
        ("", "received"),
        ("received", "analysis"),
        ("analysis", "refused"),
        ("refused", "appealed"),
    ]
    assert [w.protocol for w in worklist(today=TODAY)] == [app.protocol]
    assert worklist(statuses=("issued",), today=TODAY) == []


def test_stale_status_change_is_refused(applicant):
    app = create_application(sapezal(applicant), clerk="ana", today=TODAY)
    stale = Application.get_by_id(app.id)
    change_status(app, "analysis", by="chefe")
    with pytest.raises(UserError, match="outra mesa"):
        change_status(stale, "withdrawn", by="ana", reason="desistiu")


def _save_many(url: str, person_id: int, count: int, queue) -> None:
    """Runs in a process of its own: another desk saving applications."""
    from models.access import session

    session.log_in(session.SYSTEM)  # a desk of its own: someone is logged in there (issue 16 §4)
    open_new_database(url)
    protocols = []
    for _ in range(count):
        app = create_application(
            ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person_id),
            clerk="mesa",
            today=TODAY,
        )
        protocols.append(app.protocol)
    close_database()
    queue.put(protocols)


def test_two_desks_saving_at_once_get_distinct_gapless_numbers(applicant, database):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_save_many, args=(database, applicant.id, 15, queue)) for _ in range(3)]
    for w in workers:
        w.start()
    results = [queue.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    numbers = sorted(int(p.split("/")[1]) for batch in results for p in batch)
    assert numbers == list(range(1, 46))
