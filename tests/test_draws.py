"""Draws kept as public acts: held in one transaction, never edited, annulled only with a reason; the ata."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from html import escape

import pytest
from pdftext import pdf_text

from models.base.errors import FieldErrors, UserError
from models.selection import Participant, order_from_list

HELD_AT = dt.datetime(2026, 4, 2, 15, 0)


def participants(n: int = 14, **kw) -> list[Participant]:
    return [Participant(id=f"{i:02d}", name=f"Ambulante {i}", **kw) for i in range(1, n + 1)]


def hold(**kw):
    from models.selection.draws import hold_draw

    args = dict(
        call="Edital de chamamento nº 1/2026",
        place="Paço Municipal, sala de reuniões",
        officials=["Maria Presidente (comissão)", "João Testemunha"],
        created_by="atendente",
        held_at=HELD_AT,
    )
    args.update(kw)
    regime = args.pop("regime", "sapezal-2014")
    people = args.pop("participants", None) or participants()
    seed = args.pop("seed", "Loteria Federal 06001: 41234")
    vacancies = args.pop("vacancies", 3)
    return hold_draw(regime, people, seed, vacancies, **args)


def test_hold_stores_the_draw_and_every_entry(database):
    from models.selection.draws import Draw, draw_entries, list_draws, verify_draw

    people = [*participants(), Participant(id="99", name="Devedor", debtor=True)]
    draw = hold(participants=people)
    again = Draw.get_by_id(draw.id)
    assert again.status == "held" and again.regime == "sapezal-2014"
    assert again.seed == "Loteria Federal 06001: 41234" and len(again.list_sha256) == 64
    assert again.held_at == HELD_AT and again.alternates == 10 and again.algorithm == "praca-sorteio-1"
    assert again.official_list == ["Maria Presidente (comissão)", "João Testemunha"]
    entries = draw_entries(again)
    assert len(entries) == 15
    roles = [e.role for e in entries]
    assert roles.count("holder") == 3 and roles.count("alternate") == 10 and roles.count("other") == 1
    assert roles.count("excluded") == 1
    devedor = next(e for e in entries if e.participant_id == "99")
    assert devedor.position is None and "débito" in devedor.reason and "art. 12, I" in devedor.reason_basis
    # positions follow the drawn order recomputed from the stored list and seed
    order = order_from_list(again.list_text, again.seed)
    assert [e.participant_id for e in sorted((e for e in entries if e.position), key=lambda e: e.position)] == list(
        order
    )
    holders = draw_entries(again, role="holder")
    assert [e.participant_id for e in holders] == list(order[:3]) and [e.role_order for e in holders] == [1, 2, 3]
    assert again.result["holders"] == list(order[:3])
    assert verify_draw(again) == []
    assert [d.id for d in list_draws()] == [draw.id]
    assert list_draws(regime="sjc-2014") == []


def test_links_to_people_and_applications_are_kept(database):
    from models.registry.people import HouseholdMember, Person
    from models.selection.draws import draw_entries, participant_from_person

    person = Person.create(
        name="Rosa Lima",
        cpf="52998224725",
        birth_date=dt.date(1960, 2, 1),
        disabled=True,
        housing="rented",
        family_income_mw=Decimal("1.5"),
        resident_since=dt.date(2001, 1, 1),
        experience_years=4,
    )
    HouseholdMember.create(person=person, name="Filho", relation="child", birth_date=dt.date(2015, 1, 1))
    HouseholdMember.create(person=person, name="Filha", relation="child", birth_date=dt.date(2005, 1, 1))  # 21
    HouseholdMember.create(person=person, name="Neto", relation="dependant", birth_date=dt.date(2020, 1, 1))
    HouseholdMember.create(person=person, name="Esposo", relation="spouse")
    p = participant_from_person(person, group="g01", registered_at=dt.datetime(2026, 3, 1, 9, 0))
    assert (p.id, p.dependants_under_16, p.disabled, p.housing, p.person_id) == (
        str(person.id),
        2,
        True,
        "rented",
        person.id,
    )
    from models.rules.regimes import get_regime
    from models.selection import score_participant

    score = score_participant(get_regime("sapezal-2014"), p)
    assert score.complete and score.total == 100 + 80 + 100 + 100 + 40 + 100 + 80
    draw = hold(participants=[p, *participants(3, group="g01")], vacancies=1)
    (entry,) = [e for e in draw_entries(draw) if e.participant_id == p.id]
    assert entry.person_id == person.id and entry.group == "g01"


def test_unknown_birth_date_of_a_child_leaves_the_count_unknown(database):
    from models.registry.people import HouseholdMember, Person
    from models.selection.draws import participant_from_person

    person = Person.create(name="Sem data", cpf="11144477735")
    HouseholdMember.create(person=person, name="Filho", relation="child")
    assert participant_from_person(person).dependants_under_16 is None


def test_participant_from_application(database):
    from models.registry.applications import Application
    from models.registry.people import Person
    from models.selection.draws import participant_from_application

    person = Person.create(name="Ana Feirante", cpf="52998224725")
    app = Application.create(
        protocol="2026/00007",
        year=2026,
        seq=7,
        regime="sjc-2014",
        permit_kind="feirante",
        person=person,
        line="pastel",
        created_by="atendente",
        created_at=dt.datetime(2026, 2, 3, 10, 0),
    )
    p = participant_from_application(app, preference="fundadores")
    assert (p.id, p.name, p.group, p.application_id, p.person_id, p.preference) == (
        "2026/00007",
        "Ana Feirante",
        "pastel",
        app.id,
        person.id,
        "fundadores",
    )
    assert p.registered_at == dt.datetime(2026, 2, 3, 10, 0)


@pytest.mark.parametrize("missing", ["call", "place", "officials"])
def test_hold_needs_call_place_officials_and_clerk(database, missing):
    from models.selection.draws import Draw

    with pytest.raises(FieldErrors) as error:
        hold(**{missing: "" if missing != "officials" else []})
    assert missing in error.value.errors
    assert Draw.select().count() == 0


def test_a_refused_draw_stores_nothing(database):
    from models.selection.draws import Draw, DrawEntry

    with pytest.raises(UserError, match="repetido"):
        hold(participants=[Participant(id="1", name="A"), Participant(id="1", name="B")])
    with pytest.raises(UserError, match="não prevê sorteio"):
        hold(regime="olimpia-2025")
    assert Draw.select().count() == 0 and DrawEntry.select().count() == 0


def test_a_held_draw_is_never_edited(database):
    from models.selection.draws import Draw, draw_entries

    draw = hold()
    draw.seed = "outra semente"
    with pytest.raises(UserError, match="não se altera"):
        draw.save()
    entry = draw_entries(draw)[0]
    entry.role = "holder"
    with pytest.raises(UserError, match="não se altera"):
        entry.save()
    assert Draw.get_by_id(draw.id).seed == "Loteria Federal 06001: 41234"


def test_annul_with_reason_then_hold_a_new_one(database):
    from models.selection.draws import annul_draw, get_draw, hold_draw, list_draws, replacement_of

    first = hold()
    with pytest.raises(UserError, match="motivo"):
        annul_draw(first, "   ", by="atendente")
    assert get_draw(first.id).status == "held"
    annulled = annul_draw(
        first, "Lista publicada sem dois inscritos do grupo 1.", by="chefe", at=dt.datetime(2026, 4, 2, 16, 0)
    )
    assert annulled.status == "annulled" and annulled.annul_reason.startswith("Lista publicada")
    assert annulled.annulled_by == "chefe" and annulled.annulled_at == dt.datetime(2026, 4, 2, 16, 0)
    assert annulled.seed == first.seed and annulled.list_sha256 == first.list_sha256  # nothing else moved
    with pytest.raises(UserError, match="já foi anulado"):
        annul_draw(first, "de novo", by="chefe")
    second = hold(replaces=first, seed="Loteria Federal 06002: 99871", participants=participants(16))
    assert replacement_of(first).id == second.id
    assert [(d.id, d.status) for d in list_draws()] == [(second.id, "held"), (first.id, "annulled")]
    assert [d.id for d in list_draws(status="annulled")] == [first.id]
    with pytest.raises(UserError, match="já foi substituído"):
        hold(replaces=first)
    with pytest.raises(UserError, match="não foi anulado"):
        hold(replaces=second)
    with pytest.raises(UserError, match="não existe"):
        hold_draw(
            "sapezal-2014", participants(), "x", 1, call="c", place="p", officials="o", created_by="a", replaces=9999
        )


def test_verify_detects_a_tampered_record(database):
    from models.selection.draws import Draw, verify_draw

    draw = hold()
    Draw.update(seed="semente trocada").where(Draw.id == draw.id).execute()  # behind Praça's back
    assert verify_draw(draw.id) == ["A ordem registrada não é a que a lista e a semente produzem."]
    Draw.update(list_text=draw.list_text + "x;Intruso\n").where(Draw.id == draw.id).execute()
    assert "hash" in verify_draw(draw.id)[0]


def test_ata_html_has_hash_seed_officials_and_result(database):
    from models.selection.draws import annul_draw, draw_entries
    from reports.draw_ata import draw_ata_html

    people = [*participants(5, group="g01"), Participant(id="40", name="Zeca <Vendedor>", group="g04")]
    draw = hold(participants=people, vacancies={"g01": 2, "g04": 1})
    html = draw_ata_html(draw)
    assert draw.list_sha256 in html and "Loteria Federal 06001: 41234" in html
    assert "Maria Presidente (comissão)" in html and "Paço Municipal, sala de reuniões" in html
    assert "02/04/2026 15:00" in html and "praca-sorteio-1" in html
    assert "Zeca &lt;Vendedor&gt;" in html  # escaped
    for e in draw_entries(draw, role="holder"):
        assert escape(e.name) in html
    assert "Grupo 1" in html and "Grupo 4" in html
    assert "01;Ambulante 1;group=g01" in html  # the published list, line by line
    assert "a semente reproduz a ordem registrada" in html
    assert "ANULADO" not in html
    annul_draw(draw, "Erro de digitação na lista.", by="chefe")
    html = draw_ata_html(draw.id)
    assert "SORTEIO ANULADO" in html and "Erro de digitação na lista." in html


def test_ata_pdf(database, qapp, tmp_path):
    from reports.draw_ata import write_draw_ata_pdf

    draw = hold()
    path = write_draw_ata_pdf(draw, tmp_path / "ata.pdf")
    assert path.read_bytes().startswith(b"%PDF") and path.stat().st_size > 2000
    text = pdf_text(path, mode="plain")
    assert "Ata do sorteio" in text and draw.list_sha256[:32] in text.replace("\n", "")


def test_schema_has_the_draw_tables(database):
    from models.store.db import db, table_names
    from models.store.schema import LATEST, MIGRATIONS

    assert {"draw", "draw_entry"} <= set(table_names(db.obj))
    assert (8, "sorteios públicos e seus resultados") in [(v, d) for v, d, _ in MIGRATIONS]
    assert LATEST >= 8
