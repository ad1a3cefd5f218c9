"""Issue 31 §2: a demo per town — one municipality with its own act, dated from today, with work open at each desk.

Each town's demo is built (small) on each back end, once per run (``town_demo``), and each desk's job is done in
a copy of it through the services the desks call: a new application filed today and a permit issued from the
desk's worklist, a site with its stalls, a charge recorded and paid, an infraction record issued today. What a
test files is the test's (``TOWN_FILINGS`` in tests/factories.py), not the demo's; tests/test_town_demo_desks.py
does the same jobs through the widgets.
"""

from __future__ import annotations

import datetime as dt

import pytest
from demo_db import TOWN_SIZE
from factories import town_filing

from models.base.errors import UserError
from models.demo import fill_demo
from models.demo.towns import TOWNS
from models.enforcement import Record, RecordDraft, issue_record
from models.enforcement.seizures import reclaim_due_of
from models.permits import Permit
from models.registry.applications import Application
from models.registry.municipality import municipality
from models.registry.people import Company, Person

#: what the clerk types at issuing where the act sets no term (SJC, Lei 9.158/2014, art. 4º; Cabeceira Grande)
NO_TERM = {"sjc", "cabeceira-grande"}


@pytest.mark.parametrize(
    "town_demo",
    [*TOWNS, *(pytest.param((slug, "postgresql"), id=f"{slug}-postgresql") for slug in TOWNS)],
    indirect=True,
)
def test_each_desk_job_can_be_done_in_each_towns_demo(town_demo):
    """Each town's demo built on each back end (once per run: ``town_demo``, tests/demo_db.py, into a database
    holding every act, as ``database`` does); each desk's job done in a copy of it, and the town's open job there."""
    slug = town_demo.slug
    town = (slug, TOWNS[slug], town_demo.counts)
    _one_municipality_with_its_own_act(town)
    _the_front_desk_files_today_and_issues_from_its_worklist(town)
    _the_map_desk_has_a_site_with_stalls(town)
    _the_fee_desk_charges_and_records_a_payment(town)
    _the_inspector_records_an_infraction_today(town)
    OPEN_JOB.get(slug, lambda: None)()


def _one_municipality_with_its_own_act(town_demo):
    from models.rules import acts
    from models.rules.regimes import shipped_regimes

    _slug, place, counts = town_demo
    identity = municipality()  # the database's identity (issue 31 §1), from the town's act
    assert (identity.label, identity.agency_name) == (place.label, place.agency)
    assert identity.ibge.isdigit() and len(identity.ibge) == 7
    assert {(p.city, p.state) for p in Person.select()} == {(place.municipality, place.state)}
    assert {(c.city, c.state) for c in Company.select()} == {(place.municipality, place.state)}
    assert all(p.phone.startswith(f"({place.area_code})") for p in Person.select())
    # only its act is offered for new work; the others are kept, retired with the reason
    assert list(shipped_regimes()) == [place.regime_id]  # the acts offered for new work
    retired = [v for v in acts.history() if v.regime_id != place.regime_id]
    assert retired and all(v.retired_at is not None for v in retired)
    assert {a.regime for a in Application.select()} == {place.regime_id}
    assert {p.regime for p in Permit.select()} == {place.regime_id}
    assert {r.regime for r in Record.select()} <= {place.regime_id}
    assert counts["applications"] >= 3 and counts["permits"] >= 3 and counts["sites"] >= 1
    statuses = {a.status for a in Application.select()}
    assert len(statuses) >= 3, statuses  # applications in several states


def _the_front_desk_files_today_and_issues_from_its_worklist(town_demo):
    from models.billing.charges import open_charges_of_application, record_payment
    from models.registry.applications import ApplicationInput, change_status
    from models.services.filing import create_application
    from models.services.issuing import issue_permit

    slug, place, _counts = town_demo
    today = dt.date.today()
    filing = town_filing(slug)  # what the clerk files today (the test's builder)
    holder = {f"{filing.holder_kind}_id": filing.holder().id}
    app = create_application(
        ApplicationInput(regime=place.regime_id, permit_kind=filing.kind, **holder, **filing.fields), clerk="Ana Souza"
    )
    assert app.status == "received" and app.protocol.startswith(f"{today.year}/")
    # the worklist: an application the chefe approved (or one still in analysis, approved now) gets its permit
    ready = (
        Application.select()
        .where(Application.status.in_(("approved", "awaiting_payment")))
        .order_by(Application.id.desc())
    )
    waiting = list(ready)
    if not waiting:
        analysed = Application.select().where(Application.status == "analysis").order_by(Application.id).first()
        assert analysed is not None, "nothing on the desk's worklist"
        waiting = [change_status(analysed, "approved", by="Helena Prado")]
    issued = None
    problems = []
    for candidate in waiting:
        for n, charge in enumerate(open_charges_of_application(candidate)):
            record_payment(charge, paid_on=today, amount=charge.amount, reference=f"T{candidate.id}{n}", by="caixa")
        try:
            end = dt.date(today.year + 1, 12, 31) if slug in NO_TERM else None
            issued = issue_permit(
                Application.get_by_id(candidate.id), by="Ana Souza", today=today, key_dir=None, valid_until=end
            )
            break
        except UserError as exc:
            problems.append(f"{candidate.protocol}: {exc.message}")
    assert issued is not None, problems
    assert issued.regime == place.regime_id and issued.valid_until >= today


def _the_map_desk_has_a_site_with_stalls(town_demo):
    from models.sites import Site, Stall, plan_of

    _slug, place, _counts = town_demo
    sites = list(Site.select().where(Site.regime == place.regime_id))
    with_stalls = [s for s in sites if Stall.select().where(Stall.site == s.id).exists()]
    assert with_stalls, [s.name for s in sites]
    plan = plan_of(with_stalls[0])
    assert plan.stalls


def _the_fee_desk_charges_and_records_a_payment(town_demo):
    from models.billing.charges import Charge, create_charge, record_payment

    _slug, place, _counts = town_demo
    today = dt.date.today()
    permit = Permit.select().where(Permit.regime == place.regime_id).order_by(Permit.id.desc()).first()
    charge = create_charge(
        kind="other",
        regime=place.regime_id,
        label="Taxa fixada pela Administração (teste)",
        amount="85,40",
        due_on=today + dt.timedelta(days=10),
        basis="teste",
        by="tesouraria",
        permit=permit,
    )
    record_payment(charge, paid_on=today, amount=charge.amount, reference="TESTE1", by="tesouraria")
    assert Charge.get_by_id(charge.id).status == "paid"


def _the_inspector_records_an_infraction_today(town_demo):
    from models.rules.regimes import get_regime

    slug, place, _counts = town_demo
    regime = get_regime(place.regime_id)
    code = town_filing(slug).infraction or regime.infractions[0].code
    permit = Permit.select().where(Permit.regime == place.regime_id).order_by(Permit.id).first()
    now = dt.datetime.combine(dt.date.today(), dt.time(10, 0))
    record = issue_record(
        RecordDraft(
            kind="infraction",
            regime=place.regime_id,
            at=now,
            place="Centro",
            facts="Constatado pela fiscalização (teste).",
            infractions=[code],
            permit_id=permit.id if permit is not None else None,
            person_id=None if permit is not None else Person.select().first().id,
            inspector="Marcos Ribeiro",
            inspector_id="4521",
            payment_due=dt.date.today() + dt.timedelta(days=30),
        ),
        by="Marcos Ribeiro",
        today=dt.date.today(),
    )
    assert record.regime == place.regime_id and record.number


def _sao_bento_has_an_open_event_ahead():
    from models.rules.filing import OPEN, schedule_dates
    from models.rules.regimes import get_regime
    from models.services.filing import filing_for

    regime = get_regime("sao-bento-2026")
    event = schedule_dates(regime, "event-stall")
    assert event is not None and event.first > dt.date.today() and event.first.weekday() == 4  # a Friday (art. 5º)
    assert "Demonstração do Praça" in (regime.amendment.act if regime.amendment else "")
    said = f"{event.first:%d/%m} a {event.last:%d/%m/%Y}"  # the texts say the moved days, once
    assert said in regime.summary and said in regime.schedule("indomit").label and "/03/2026" not in regime.summary
    check = filing_for(regime, "event-stall", "rua-cel-ribeiro-da-luz", dt.datetime.now())
    assert check.status == OPEN, check.text
    # the March 2026 edition is still judged by the decree as published: its permits ended with it (art. 2º)
    march = Permit.select().where(Permit.valid_from < dt.date(2026, 4, 1))
    assert march.count() == 6 and {(p.valid_until, p.status) for p in march} == {(dt.date(2026, 3, 29), "expired")}
    assert schedule_dates(get_regime("sao-bento-2026", on=dt.date(2026, 3, 25)), "event-stall").first == dt.date(
        2026, 3, 27
    )


def _sapezal_has_an_open_call():
    from models.services.calls import call_list

    sapezal = call_list("sapezal-2014", site="Feira do Produtor")
    assert len(sapezal.candidates) >= 5


def _ilha_comprida_has_an_upcoming_event_with_a_draw():
    from models.demo.open_jobs import ilha_verao
    from models.services.calls import call_list
    from models.sites import Site

    first, last = ilha_verao(dt.date.today())
    arena = Site.get(Site.regime_site == "arena-de-shows")
    assert (arena.first_day, arena.last_day) == (first, last) and first > dt.date.today()
    call = call_list("ilha-comprida-2017", site=arena.name)
    assert len(call.candidates) >= 5 and not call.draw_blocked, call.draw_blocked
    # more regular vendors than the places the Administration opens: the public draw (art. 21, § 1º)
    from models.selection.draws import draw_entries, hold_draw

    draw = hold_draw(
        "ilha-comprida-2017",
        call.participants,
        "semente pública de teste",
        3,
        call="Credenciamento — Ilha Verão (teste)",
        place="Paço Municipal",
        officials="Comissão de credenciamento",
        created_by="Carlos Lima",
        site=arena.name,
    )
    assert len(draw_entries(draw)) >= 5


OPEN_JOB = {
    "sao-bento": _sao_bento_has_an_open_event_ahead,
    "sapezal": _sapezal_has_an_open_call,
    "ilha-comprida": _ilha_comprida_has_an_upcoming_event_with_a_draw,
}


@pytest.mark.parametrize("slug", ["sjc", "olimpia"])
def test_a_town_demo_built_a_year_on_still_builds(sqlite_url, slug):
    """Dated from its day: a year after the acts' last UFESP and INPC, the demo enters them as marked demonstration
    values (as a clerk would, Cadastros → Unidades fiscais) and its terms follow its day. (Date arithmetic: SQLite
    only; the back ends are compared by the test above.)"""
    from models.billing.fiscal import index_corrections, unit_overrides
    from models.store.bootstrap import open_database

    open_database(sqlite_url, create=True)

    day = dt.date(2027, 12, 10)
    counts = fill_demo(town=slug, today=day, **TOWN_SIZE)
    assert counts["permits"] >= 10
    assert 2027 in index_corrections("INPC")  # the INPC of 2026, applied from 2027
    if slug == "olimpia":
        assert ("UFESP", 2027) in unit_overrides("olimpia-2025")
    assert Permit.select().where(Permit.valid_until < Permit.valid_from).count() == 0


def test_the_coming_ilha_verao_runs_from_31_december_to_the_sunday_after_carnival():
    from models.demo.open_jobs import carnival, ilha_verao

    assert [carnival(y) for y in (2026, 2027, 2028)] == [
        dt.date(2026, 2, 17),
        dt.date(2027, 2, 9),
        dt.date(2028, 2, 29),
    ]
    assert ilha_verao(dt.date(2026, 12, 7)) == (dt.date(2026, 12, 31), dt.date(2027, 2, 14))
    assert ilha_verao(dt.date(2026, 12, 31)) == (dt.date(2027, 12, 31), dt.date(2028, 3, 5))  # begun: the next one
    assert ilha_verao(dt.date(2027, 1, 15))[0] == dt.date(2027, 12, 31)


def test_an_unknown_town_is_one_clear_line(database):
    with pytest.raises(UserError, match="Use um de: sao-bento, sapezal"):
        fill_demo(town="atlantida")
    assert not Person.select().exists()


def test_praca_help_lists_town(capsys, tmp_path):
    from desktop.cli import main

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = capsys.readouterr().out
    assert "--town" in out and "cabeceira-grande" in out and "Olímpia/SP" in out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--town" in capsys.readouterr().out
    with pytest.raises(SystemExit) as bad:
        main(["demo", "--town", "atlantida", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert bad.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists()  # refused before anything is created


@pytest.mark.parametrize("today", [dt.date(2026, 12, 8), dt.date(2026, 12, 9)])
def test_olimpias_unclaimed_feira_goods_are_donated_after_the_term_whatever_the_weekday(sqlite_database, today):
    """The feira's goods are donated the day after the 72-hour withdrawal term the act gives (LC 324/2025,
    art. 215, § 2º), which a weekend carries on: the demo read the term from the record, not "four days later",
    which fell inside it when the feira was on a Wednesday or Thursday (90 days before 08/12 or 09/12/2026)."""
    fill_demo(town="olimpia", today=today, **TOWN_SIZE)
    from models.enforcement.reading import items_of

    (feira,) = [r for r in Record.select() if r.kind == "seizure" and "redes" in r.facts]
    items = items_of(feira)
    assert items and all(i.donated_on is not None and not i.held for i in items)
    due = dt.date.fromisoformat(reclaim_due_of(feira, perishable=False)["due_date"])
    assert {i.donated_on for i in items} == {due + dt.timedelta(days=1)}
