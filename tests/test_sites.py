"""models/sites/__init__.py on a real database: sites, layouts saved and read back, holders kept one-to-one by
the DB."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

import pytest
from factories import feira_site as feira
from factories import placed_at as placed
from factories import site_permit as make_permit
from peewee import IntegrityError

from models.base.errors import FieldErrors, UserError
from models.demo.sites import demo_sites
from models.permits import Permit
from models.sites import (
    NamedPoint,
    ObstacleInput,
    SegmentInput,
    Site,
    SiteInput,
    SiteSegment,
    Stall,
    assign_holder,
    delete_site,
    find_site,
    keep_breach,
    kept_breaches,
    plan_of,
    requests_from_permits,
    save_layout,
    save_site,
    site_export,
    site_rows,
    stall_rows,
    unassign_holder,
)
from models.sites.breaches import OpenBreaches
from models.sites.layout import PlacedStall, StallRequest
from models.store.db import db

# --------------------------------------------------------------------------- the database enforces it


def test_a_holder_holds_one_stall_per_site_enforced_by_the_database(database):
    site = feira()
    segment = SiteSegment.get(SiteSegment.site == site.id)
    permit = make_permit()
    common = dict(site=site.id, segment=segment.id, side="a", y=D(0), front=D(3), depth=D(2))
    Stall.create(number=1, x=D(0), holder=permit.id, **common)
    with pytest.raises(IntegrityError), db.atomic():
        Stall.insert(number=2, x=D(4), holder=permit.id, **common).execute()
    # free stalls (NULL holder) never clash
    Stall.create(number=3, x=D(8), holder=None, **common)
    Stall.create(number=4, x=D(12), holder=None, **common)
    # the same number twice in one site is refused too
    with pytest.raises(IntegrityError), db.atomic():
        Stall.insert(number=3, x=D(16), **common).execute()
    # the same holder in another site is a matter for the act, not for this index
    other = feira(name="Outra Feira")
    other_segment = SiteSegment.get(SiteSegment.site == other.id)
    Stall.create(number=1, x=D(0), holder=permit.id, **dict(common, site=other.id, segment=other_segment.id))
    assert Stall.select().where(Stall.holder == permit.id).count() == 2


# --------------------------------------------------------------------------- sites


def test_save_site_reads_the_form_and_lists_it(database):
    site = feira()
    assert site.weekday_list == ("fri",)
    assert (site.setup_from, site.teardown_to) == (dt.time(16), dt.time(23))
    segment = SiteSegment.get(SiteSegment.site == site.id)
    assert (segment.length, segment.width, segment.sides) == (D("200.00"), D("10"), "both")
    assert segment.title == "Avenida Andrômeda, entre Rua Júpiter e Rua Saturno"
    rows = site_rows()
    assert [(r.name, r.kind, r.regime, r.length, r.stalls) for r in rows] == [
        ("Feira do Teste", "feira", "sjc-2014", D("200.00"), 0)
    ]
    assert find_site(str(site.id)).id == site.id and find_site("feira do teste").id == site.id
    with pytest.raises(UserError, match="não encontrado"):
        find_site(999)


def test_save_site_refuses_in_portuguese_every_field_at_once(database):
    with pytest.raises(FieldErrors) as caught:
        save_site(
            SiteInput(
                name="",
                kind="mercado",
                regime="nenhum",
                weekdays=("sexta",),
                setup_from="25:00",
                setup_to="17:00",
                first_day="30/03/2026",
                last_day="27/03/2026",
                numbering="zigzag",
                segments=[
                    SegmentInput(
                        street="",
                        length="-3",
                        width="abc",
                        sides="three",
                        obstacles=[ObstacleInput(kind="poste", side="c", start="1", extent="0")],
                    )
                ],
            )
        )
    errors = caught.value.errors
    for key in (
        "name",
        "kind",
        "regime",
        "weekdays",
        "setup_from",
        "last_day",
        "numbering",
        "segments[0].street",
        "segments[0].length",
        "segments[0].width",
        "segments[0].sides",
        "segments[0].obstacles[0].kind",
        "segments[0].obstacles[0].side",
        "segments[0].obstacles[0].extent",
    ):
        assert key in errors, key
    assert errors["name"] == "Informe o nome do local."
    assert errors["last_day"] == "O último dia é anterior ao primeiro."
    assert Site.select().count() == 0


def test_save_site_checks_against_the_act(database):
    with pytest.raises(FieldErrors) as caught:
        feira(regime="olimpia-2025", gap="0,30")
    assert "menor que o mínimo legal de 0,50 m (LC 324/2025, art. 206, I)" in caught.value.errors["gap"]
    with pytest.raises(FieldErrors) as caught:
        save_site(
            SiteInput(
                name="Arena",
                kind="event-area",
                regime="ilha-comprida-2017",
                regime_site="arena-de-shows",
                max_points="61",
            )
        )
    assert caught.value.errors["max_points"] == "O ato admite no máximo 60 pontos (Dec. 890/2017, art. 22)."
    arena = save_site(
        SiteInput(name="Arena", kind="event-area", regime="ilha-comprida-2017", regime_site="arena-de-shows")
    )
    assert arena.max_points == 60
    with pytest.raises(FieldErrors) as caught:
        feira(
            segments=[
                SegmentInput(
                    street="Rua A",
                    length="50",
                    width="8",
                    obstacles=[ObstacleInput(kind="garage", start="49", extent="3")],
                )
            ]
        )
    assert "passa do fim do trecho" in caught.value.errors["segments[0].obstacles[0].extent"]
    feira()
    with pytest.raises(FieldErrors, match="Já existe um local"):
        feira(name="FEIRA do teste")


def test_update_site_keeps_segments_with_stalls(database):
    site = feira()
    save_layout(site, [placed(1, "0")])
    data = SiteInput(name="Feira do Teste", kind="feira", regime="sjc-2014", segments=[])
    with pytest.raises(FieldErrors):  # a feira needs a segment
        save_site(data, site=site)
    two = SiteInput(
        name="Feira do Teste",
        kind="feira",
        regime="sjc-2014",
        segments=[
            SegmentInput(street="Avenida Andrômeda", length="250", width="10"),
            SegmentInput(street="Rua Vênus", length="80", width="7", sides="one"),
        ],
    )
    site = save_site(two, site=site)
    assert [s.street for s in SiteSegment.select().order_by(SiteSegment.position)] == ["Avenida Andrômeda", "Rua Vênus"]
    assert Stall.select().count() == 1 and plan_of(site).segment.length == D("250")
    stale = Site.get_by_id(site.id)
    stale.version -= 1
    with pytest.raises(UserError, match="alterado por outra pessoa"):
        save_site(two, site=stale)
    delete_site(site)
    assert Site.select().count() == 0 and Stall.select().count() == 0


# --------------------------------------------------------------------------- layouts


def test_layout_round_trip_and_holders_kept_by_number(database):
    site = feira()
    holders = [make_permit(section=s, line=ln) for s, ln in (("i", "legumes-verduras"), ("xvi", "pastel"))]
    plan = plan_of(site)
    assert plan.stalls == () and plan.segment.width == D("10")
    layout = plan.auto(
        [StallRequest(key=p.number, section=p.section, holder=p.number, holder_id=p.id) for p in holders]
        + [StallRequest(key="free", section="iii")]
    )
    saved = save_layout(site, layout.stalls)
    assert saved.stalls == 3
    again = plan_of(site)
    assert [
        (s.number, s.side, s.x, s.y, s.width, s.depth, s.rotation, s.section, s.line, s.holder, s.holder_id)
        for s in again.stalls
    ] == [
        (s.number, s.side, s.x, s.y, s.width, s.depth, s.rotation, s.section, s.line, s.holder, s.holder_id)
        for s in sorted(layout.stalls, key=lambda s: s.number)
    ]
    assert again.check() == []
    # a new layout without holders: each holder stays with the stall of the same number
    bare = [PlacedStall(**{**s.__dict__, "holder": None, "holder_id": None}) for s in again.stalls]
    saved = save_layout(site, bare)
    assert sorted(saved.kept) == sorted((s.number, s.holder) for s in again.stalls if s.holder)
    assert saved.released == ()
    # the stall of a holder goes away: the holder is released and said so
    gone = next(s for s in again.stalls if s.holder == holders[1].number)
    saved = save_layout(site, [s for s in bare if s.number != gone.number])
    assert saved.released == (holders[1].number,)
    assert "sem banca agora" in saved.summary()
    assert [r.permit_number for r in stall_rows(site) if r.permit_number] == [holders[0].number]


def test_save_layout_refuses_one_holder_on_two_stalls(database):
    site = feira()
    permit = make_permit()
    with pytest.raises(UserError, match="uma só banca por local"):
        save_layout(site, [placed(1, "0", holder_id=permit.id), placed(2, "4", holder_id=permit.id)])
    with pytest.raises(FieldErrors, match="repetido"):
        save_layout(site, [placed(1, "0"), placed(1, "4")])
    with pytest.raises(UserError, match="cassada"):
        save_layout(site, [placed(1, "0", holder_id=make_permit(status="revoked").id)])
    assert Stall.select().count() == 0


# --------------------------------------------------------------------------- holders


def test_assign_and_unassign_with_clear_refusals(database):
    site = feira()
    save_layout(site, [placed(1, "0"), placed(2, "4"), placed(3, "8", section="xvi", line="pastel", side="b")])
    s1, s2, s3 = (Stall.get((Stall.site == site.id) & (Stall.number == n)) for n in (1, 2, 3))
    ana, bia = make_permit(section="vi"), make_permit(section="vi")
    assert assign_holder(s1, ana.number).holder_id == ana.id
    assert assign_holder(s1, ana).holder_id == ana.id  # the same again is no change

    with pytest.raises(UserError, match=r"banca 1 já tem titular \(permissão nº " + ana.number):
        assign_holder(s1, bia)
    with pytest.raises(UserError, match=f"permissão nº {ana.number} .* já ocupa a banca 1"):
        assign_holder(s2, ana)
    with pytest.raises(UserError, match="é da Seção VI; a banca 3 é da Seção XVI"):
        assign_holder(s3, bia)
    with pytest.raises(UserError, match="regime olimpia-2025"):
        assign_holder(s2, make_permit(regime="olimpia-2025"))
    with pytest.raises(UserError, match="cassada"):
        assign_holder(s2, make_permit(section="vi", status="revoked"))
    with pytest.raises(UserError, match="não encontrada"):
        assign_holder(s2, "2099/99999")
    # nothing half-saved
    assert {s.number: s.holder_id for s in Stall.select()} == {1: ana.id, 2: None, 3: None}

    unassign_holder(s1)
    assert assign_holder(s2, ana).holder_id == ana.id
    assert assign_holder(s1, bia).holder_id == bia.id


def test_requests_from_the_permits_of_the_site(database):
    site = feira()
    mine = make_permit(section="xvi", line="pastel", front=D("12.00"), depth=D("3.50"))
    make_permit(section="i", status="cancelled")
    make_permit(section="i", site="Outra Feira")
    requests = requests_from_permits(site)
    assert [(r.key, r.section, r.front, r.holder_id) for r in requests] == [(mine.number, "xvi", D("12.00"), mine.id)]


# --------------------------------------------------------------------------- breaches kept with a reason


def test_a_breach_is_kept_only_with_a_written_reason(database):
    site = feira()
    twins = [placed(1, "0"), placed(2, "2")]
    breach = plan_of(site).check(twins)[0]
    assert breach.code == "overlap"
    with pytest.raises(FieldErrors, match="motivo"):
        keep_breach(site, breach, "", by="ana.souza")
    kept = keep_breach(site, breach, "Bancas geminadas a pedido dos dois titulares (ofício 12/2026).", by="ana.souza")
    assert kept_breaches(site)[breach.signature].reason.startswith("Bancas geminadas")
    assert kept.stalls == ("1", "2")
    save_layout(site, twins)
    assert plan_of(site).check() == [breach]


def test_the_printed_map_names_the_municipality_the_day_and_every_kept_breach_with_its_reason(
    database, tmp_path, app_ready
):
    """Issue 31 §6: the printed map had no municipality and left out the breach kept with its reason."""
    from pdftext import pdf_text

    from models.store.settings import MUNICIPALITY, STATE, set_settings
    from reports.site_map import write_pdf

    set_settings({MUNICIPALITY: "São José dos Campos", STATE: "SP"})
    site = feira()
    twins = [placed(1, "0"), placed(2, "2")]
    breach = plan_of(site).check(twins)[0]
    keep_breach(site, breach, "Bancas geminadas a pedido dos dois titulares (ofício 12/2026).", by="Ana Souza")
    save_layout(site, twins)
    export = site_export(site)
    assert export["municipality"] == "São José dos Campos/SP"
    assert [k["stalls"] for k in export["kept_breaches"]] == [["1", "2"]]
    out = tmp_path / "mapa.pdf"
    write_pdf(export, out)
    text = pdf_text(out, squash="spaces")
    assert "Prefeitura de São José dos Campos/SP" in text
    assert f"Emitido em {dt.date.today():%d/%m/%Y}" in text
    assert "Irregularidades mantidas, com a justificativa" in text and "Bancas 1, 2:" in text
    assert "Justificativa: Bancas geminadas a pedido dos dois titulares (ofício 12/2026). — Ana Souza" in text


def test_save_layout_refuses_an_open_breach_whoever_calls_it(database):
    """Not only the map editor: a layout with a breach neither fixed nor kept with its reason is not saved."""
    site = feira()
    save_layout(site, [placed(1, "0"), placed(2, "4")])
    twins = [placed(1, "0"), placed(2, "2"), placed(3, "8")]
    with pytest.raises(OpenBreaches, match=r"não foi salvo: 1 irregularidade\(s\) em aberto") as caught:
        save_layout(site, twins)
    assert [b.code for b in caught.value.breaches] == ["overlap"] and caught.value.field == "breaches"
    assert "justificativa" in caught.value.message and "\n" not in caught.value.message
    assert sorted((s.number, s.x) for s in Stall.select()) == [(1, D(0)), (2, D(4))]  # nothing written
    keep_breach(site, caught.value.breaches[0], "Bancas geminadas a pedido dos dois titulares.", by="ana.souza")
    assert save_layout(site, twins).stalls == 3


# --------------------------------------------------------------------------- export and demo


def test_export_in_metres(database):
    site = feira()
    permit = make_permit(section="vi")
    save_layout(site, [placed(1, "0", holder_id=permit.id), placed(2, "4")])
    data = site_export(site)
    assert data["length"] == D("200.00")
    assert data["obstacles"] == [
        {
            "segment": 0,
            "kind": "tree",
            "kind_label": "árvore",
            "side": "b",
            "start": D("20"),
            "extent": D("1"),
            "label": "",
        },
        {
            "segment": 0,
            "kind": "hydrant",
            "kind_label": "hidrante",
            "side": "a",
            "start": D("100"),
            "extent": D("0.5"),
            "label": "",
        },
    ]  # along the street
    assert [o.start for o in plan_of(site).obstacles] == [D("20"), D("100")]
    first = data["stalls"][0]
    assert {k: first[k] for k in ("number", "section", "side", "x", "y", "width", "depth", "rotation", "holder")} == {
        "number": 1,
        "section": "vi",
        "side": "a",
        "x": D("0"),
        "y": D("0"),
        "width": D("3"),
        "depth": D("2"),
        "rotation": 0,
        "holder": permit.number,
    }
    assert data["stalls"][1]["holder"] is None


def test_demo_sites(database):
    counts = demo_sites()
    assert counts["sites"] == 3 and counts["points"] == 15
    sjc = find_site("Feira Noturna do Jardim Satélite")
    plan = plan_of(sjc)
    assert {s.section for s in plan.stalls} == {s.id for s in plan.regime.sections}
    assert len({s.section for s in plan.stalls}) == 28
    assert plan.check() == []
    street = Site.get(Site.regime == "sao-bento-2026")
    segment = plan_of(street).segment
    assert (segment.street, segment.from_street, segment.to_street) == (
        "Rua Cel. Ribeiro da Luz",
        "Av. Dr. Rubião Júnior",
        "Rua 7 de Setembro",
    )
    assert (street.first_day, street.last_day) == (dt.date(2026, 3, 27), dt.date(2026, 3, 29))
    assert plan_of(street).stalls and plan_of(street).check() == []
    beach = Site.get(Site.regime == "ilha-comprida-2017")
    points = list(NamedPoint.select().where(NamedPoint.site == beach.id).order_by(NamedPoint.position))
    assert [p.code for p in points] == [f"Ponto {i:02d}" for i in range(1, 16)]
    assert points[0].description == "Balneário Di Franco, no alinhamento à Capela Santo Antonio de Categeró"
    assert points[4].basis == "art. 23, § 2º, e"
    export = site_export(beach)
    assert export["length"] is None and export["stalls"] == [] and len(export["points"]) == 15
    with pytest.raises(UserError, match="não tem trecho"):
        plan_of(beach)
    assert demo_sites("olimpia-2025") == {"sites": 0, "stalls": 0, "assigned": 0, "points": 0}


def test_demo_sites_take_the_demo_holders(demo_database):
    counts = demo_database.counts  # the demo lays out its sites once its permits are issued
    assert counts["sites"] == 3
    with pytest.raises(FieldErrors, match="Já existe um local"):
        demo_sites("sjc-2014")
    live = (
        Permit.select()
        .where(
            (Permit.regime == "sjc-2014")
            & Permit.status.in_(("active", "suspended"))
            & (Permit.site == "Feira Noturna do Jardim Satélite")
        )
        .count()
    )
    site = find_site("Feira Noturna do Jardim Satélite")
    assert live > 20 and sum(1 for r in stall_rows(site) if r.permit_number) == live
    rows = stall_rows(find_site("Feira Noturna do Jardim Satélite"))
    for row in rows:
        if row.permit_number:
            assert Permit.get(Permit.number == row.permit_number).section == row.section
