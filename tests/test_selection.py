"""Selection: Sapezal's socio-economic score line by line, tie-breaks, and the public draw.

The draw must give the same result for the same list and seed on any machine
(a pinned result below), a different order for a different seed, every
participant exactly once, and must be reproducible with the README's snippet.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.selection import (
    ALGORITHM,
    DrawRules,
    Participant,
    assign_points,
    canonical_line,
    canonical_list,
    draw_rules,
    drawn_order,
    event_vendors,
    list_sha256,
    max_points_of,
    order_from_list,
    parse_vacancies,
    published_list,
    rank_by_score,
    read_participants_csv,
    rotation,
    run_draw,
    score_participant,
    with_ranks,
)

ROOT = Path(__file__).resolve().parent.parent
SAPEZAL = get_regime("sapezal-2014")
REGISTERED = dt.datetime(2026, 3, 10, 9, 30)


def people(n: int, **kw) -> list[Participant]:
    return [Participant(id=f"{i:03d}", name=f"Pessoa {i}", **kw) for i in range(1, n + 1)]


def years_before(day: dt.date, years: int, days: int = 0) -> dt.date:
    return day.replace(year=day.year - years) - dt.timedelta(days=days)


def line_of(score, criterion_id):
    return next(line for line in score.lines if line.criterion_id == criterion_id)


def points(criterion_id: str, **facts) -> tuple[int, str]:
    p = Participant(id="1", name="Teste", registered_at=REGISTERED, **facts)
    line = line_of(score_participant(SAPEZAL, p), criterion_id)
    return line.points, line.status


# --------------------------------------------------------------------------- Sapezal art. 10, line by line


@pytest.mark.parametrize(
    "housing, expected",
    [
        ("rented", 100),
        ("financed", 80),
        ("owned", 40),
        ("lent", 40),
        ("other", 20),
    ],
)
def test_housing_art_10_I(housing, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    assert points("moradia", housing=housing) == (expected, "ok")


@pytest.mark.parametrize(
    "income, expected",
    [
        ("0", 100),
        ("0.5", 100),
        ("1.00", 100),  # a) ≤ 1 SM
        ("1.01", 80),
        ("2", 80),  # b) > 1 e ≤ 2
        ("2.01", 60),
        ("3.00", 60),  # c)
        ("3.01", 40),
        ("4", 40),  # d)
        ("4.01", 20),
        ("12", 20),  # e) > 4
    ],
)
def test_family_income_art_10_II_upper_limits_inclusive(income, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    assert points("renda-familiar", family_income_mw=Decimal(income)) == (expected, "ok")


@pytest.mark.parametrize(
    "age, expected",
    [
        (18, 20),
        (30, 20),  # e) ≤ 30
        (31, 40),
        (45, 40),  # d)
        (46, 60),
        (55, 60),  # c)
        (56, 80),
        (60, 80),  # b) > 55 e ≤ 60
        (61, 100),
        (80, 100),  # a) maior de 60
    ],
)
def test_age_art_10_III(age, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    born = years_before(REGISTERED.date(), age)
    assert points("idade", birth_date=born) == (expected, "ok")


def test_age_and_residence_are_measured_alike_art_10_III_and_IV():  # noqa: N802 - the act's items
    """Lei 1.171/2014, art. 10, III ("maior de 60 anos") and IV ("mais de 20 anos") word age and residence time
    alike: both are counted the same way, as the regime declares (``measure = "elapsed"``) and the line says."""
    day = REGISTERED.date()
    criteria = {c.id: c for c in SAPEZAL.selection.criteria}
    assert criteria["idade"].measure == criteria["tempo-residencia"].measure == "elapsed"
    # the day before the 31st birthday the person is more than 30 (40 points); exactly 30, 20 points
    assert points("idade", birth_date=years_before(day, 31) + dt.timedelta(days=1)) == (40, "ok")
    assert points("idade", birth_date=years_before(day, 30)) == (20, "ok")
    # 60 years and 11 months is "maior de 60 anos" as 20 years and 11 months of residence is "mais de 20 anos"
    assert points("idade", birth_date=years_before(day, 60, days=335)) == (100, "ok")
    assert points("tempo-residencia", resident_since=years_before(day, 20, days=335)) == (100, "ok")
    assert points("idade", age_years=61) == (100, "ok")  # given directly
    score = score_participant(
        SAPEZAL, Participant(id="1", name="A", registered_at=REGISTERED, birth_date=dt.date(1965, 1, 1))
    )
    assert "contados em tempo decorrido exato" in line_of(score, "idade").value_text


def test_a_time_criterion_must_declare_how_it_is_measured(tmp_path):
    """The meaning is declared in the file, never assumed: a criterion on age or residence without ``measure`` is
    refused, and ``measure`` on another field too."""
    from models.rules.regimes import check_regime_text, default_regimes_folder

    text = (default_regimes_folder() / "sapezal-2014.toml").read_text(encoding="utf-8")
    without = text.replace('field = "age_years"\nmeasure = "elapsed"\n', 'field = "age_years"\n', 1)
    assert without != text
    assert any("measure" in str(e) for e in check_regime_text(without, "sapezal-2014.toml"))
    misplaced = text.replace(
        'field = "dependants_under_16"\n', 'field = "dependants_under_16"\nmeasure = "elapsed"\n', 1
    )
    assert any("measure" in str(e) for e in check_regime_text(misplaced, "sapezal-2014.toml"))


@pytest.mark.parametrize(
    "years, extra_days, expected",
    [
        (0, 100, 0),
        (1, 0, 0),  # until 1 year the act gives nothing
        (1, 1, 20),
        (4, 0, 20),  # e) > 1 e ≤ 4
        (4, 1, 40),
        (8, 0, 40),  # d)
        (8, 1, 60),
        (13, 0, 60),  # c)
        (13, 1, 80),
        (20, 0, 80),  # b)
        (20, 1, 100),
        (35, 0, 100),  # a) mais de 20
    ],
)
def test_residence_art_10_IV_is_exact_time(years, extra_days, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    since = years_before(REGISTERED.date(), years, days=extra_days)
    assert points("tempo-residencia", resident_since=since) == (expected, "ok")


@pytest.mark.parametrize("count, expected", [(0, 0), (1, 20), (2, 40), (3, 60), (4, 80), (5, 100), (7, 100)])
def test_children_art_10_V(count, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    assert points("filhos-dependentes", dependants_under_16=count) == (expected, "ok")


@pytest.mark.parametrize("disabled, expected", [(True, 100), (False, 0)])
def test_disability_art_10_VI(disabled, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    assert points("deficiencia", disabled=disabled) == (expected, "ok")


@pytest.mark.parametrize("years, expected", [(0, 0), (1, 20), (2, 40), (7, 140), (60, 1200)])
def test_experience_art_10_VII_twenty_per_year(years, expected):  # noqa: N802 - the act's article and item, as the act numbers them
    assert points("experiencia", experience_years=years) == (expected, "ok")


def test_experience_beyond_the_table_is_left_to_the_commission():
    assert points("experiencia", experience_years=61) == (0, "out-of-range")


def test_full_score_lines_carry_label_value_points_and_article():
    p = Participant(
        id="7",
        name="Maria",
        registered_at=REGISTERED,
        housing="rented",
        family_income_mw=Decimal("1.5"),
        birth_date=dt.date(1970, 1, 1),
        resident_since=dt.date(2015, 3, 1),
        dependants_under_16=2,
        disabled=True,
        experience_years=3,
    )
    score = score_participant(SAPEZAL, p)
    assert [line.points for line in score.lines] == [100, 80, 80, 60, 40, 100, 60]
    assert score.total == 520 and score.complete
    assert [line.basis for line in score.lines] == [
        f"Lei 1.171/2014, art. 10, {n}" for n in ("I", "II", "III", "IV", "V", "VI", "VII")
    ]
    assert line_of(score, "moradia").value_text == "alugada"
    assert line_of(score, "tempo-residencia").value_text.startswith("11 anos, 0 meses e 9 dias")
    data = score.to_dict()
    assert data["total"] == 520 and data["lines"][1]["value"] == "1.5"


def test_missing_facts_are_shown_and_score_zero():
    score = score_participant(SAPEZAL, Participant(id="1", name="Sem dados", housing="other"))
    assert score.total == 20 and not score.complete
    missing = [line.criterion_id for line in score.lines if line.status == "missing"]
    assert missing == [
        "renda-familiar",
        "idade",
        "tempo-residencia",
        "filhos-dependentes",
        "deficiencia",
        "experiencia",
    ]
    assert line_of(score, "idade").value_text == "não informado"


def test_reference_date_falls_back_to_on():
    p = Participant(id="1", name="X", birth_date=dt.date(1990, 6, 1))
    assert 35 < line_of(score_participant(SAPEZAL, p, on=dt.date(2026, 5, 31)), "idade").value < 36
    assert line_of(score_participant(SAPEZAL, p, on=dt.date(2026, 6, 1)), "idade").value == 36


def test_regime_without_scores_refuses():
    with pytest.raises(UserError, match="não prevê pontuação"):
        score_participant(get_regime("sao-bento-2026"), Participant(id="1", name="X"))


# --------------------------------------------------------------------------- tie-breaks (art. 10, § 3º)

BASE = dict(
    registered_at=REGISTERED, family_income_mw=Decimal("5"), resident_since=dt.date(2000, 1, 1), experience_years=0
)


def test_tie_break_art_10_par_3_disabled_first_then_oldest_then_the_lot():
    """Lei 1.171/2014, art. 10, § 3º: "Ocorrendo empate, terá prioridade o deficiente físico e, persistindo o
    empate, será considerado vencedor o mais idoso" — and what the act leaves equal shares a rank."""
    # A and B: 140 points each, A disabled; C and D: same points, C older (same age bracket); E and F identical
    a = Participant(
        id="a", name="A", disabled=True, housing="other", dependants_under_16=0, birth_date=dt.date(1990, 1, 1), **BASE
    )
    b = Participant(
        id="b",
        name="B",
        disabled=False,
        housing="rented",
        dependants_under_16=1,
        birth_date=dt.date(1990, 1, 1),
        **BASE,
    )
    c = Participant(
        id="c",
        name="C",
        disabled=False,
        housing="financed",
        dependants_under_16=0,
        birth_date=dt.date(1982, 5, 1),
        **BASE,
    )
    d = Participant(
        id="d",
        name="D",
        disabled=False,
        housing="financed",
        dependants_under_16=0,
        birth_date=dt.date(1985, 5, 1),
        **BASE,
    )
    e = Participant(
        id="f", name="F", disabled=False, housing="owned", dependants_under_16=0, birth_date=dt.date(1985, 5, 1), **BASE
    )
    f = Participant(
        id="e", name="E", disabled=False, housing="owned", dependants_under_16=0, birth_date=dt.date(1985, 5, 1), **BASE
    )
    ranked = rank_by_score(SAPEZAL, [f, e, d, c, b, a])
    totals = {r.participant.id: r.score.total for r in ranked}
    assert totals["a"] == totals["b"] and totals["c"] == totals["d"] and totals["e"] == totals["f"]
    assert [r.participant.id for r in ranked] == ["a", "b", "c", "d", "e", "f"]
    assert [r.rank for r in ranked] == [1, 2, 3, 4, 5, 5]  # E and F: the draw decides, not the id
    assert "deficiência" in ranked[0].tie_break and "idoso" in ranked[2].tie_break
    assert "Lei 1.171/2014, art. 10, § 3º" in ranked[0].tie_break
    assert [r.tie_unresolved for r in ranked] == [False, False, False, False, True, True]
    assert "decide o sorteio" in ranked[4].tie_break and not any(r.tie_missing for r in ranked)


def test_higher_total_wins_before_any_tie_break():
    poor = Participant(id="z", name="Z", housing="rented", **BASE)
    rich = Participant(id="a", name="A", housing="other", disabled=True, **BASE)
    assert [r.participant.id for r in rank_by_score(SAPEZAL, [rich, poor])] == ["a", "z"]  # 100+20 > 100
    assert [
        r.participant.id for r in rank_by_score(SAPEZAL, [Participant(id="a", name="A", housing="other", **BASE), poor])
    ] == ["z", "a"]


# --------------------------------------------------------------------------- the list and its hash


def test_canonical_list_sorted_by_id_with_every_deciding_fact():
    ps = [
        Participant(
            id="10",
            name="  Zé   da  Silva ",
            group="g01",
            quota=True,
            rank=2,
            score=Decimal("85.50"),
            paid_at=dt.datetime(2026, 3, 26, 10, 15, 7, 999),
        ),
        Participant(id="2", name="Ana", preference="fundadores", rank=1),
    ]
    text = canonical_list(ps)
    assert text == (
        "10;Zé da Silva;group=g01;quota=1;rank=2;score=85.5;paid_at=2026-03-26T10:15:07\n"
        "2;Ana;preference=fundadores;rank=1\n"
    )
    assert list_sha256(ps) == hashlib.sha256(text.encode("utf-8")).hexdigest() == list_sha256(text)


def test_list_is_unicode_normalised_and_order_free():
    composed = [Participant(id="1", name="José"), Participant(id="2", name="Inês")]
    decomposed = [
        Participant(id="2", name=unicodedata.normalize("NFD", "Inês")),
        Participant(id="1", name=unicodedata.normalize("NFD", "José")),
    ]
    assert list_sha256(composed) == list_sha256(decomposed)
    assert drawn_order(composed, "1") == drawn_order(decomposed, "1")


@pytest.mark.parametrize(
    "bad, message",
    [
        ([], "vazia"),
        ([Participant(id="1", name="A"), Participant(id=" 1 ", name="B")], "repetido"),
        ([Participant(id="1", name="A;B")], "';'"),
        ([Participant(id="", name="A")], "sem id"),
        ([Participant(id="1", name="  ")], "sem nome"),
    ],
)
def test_bad_lists_are_refused(bad, message):
    with pytest.raises(UserError, match=message):
        run_draw(bad, "123", 1)


@pytest.mark.parametrize("seed", ["", "   ", "a\nb"])
def test_bad_seed_is_refused(seed):
    with pytest.raises(UserError, match="semente"):
        run_draw(people(3), seed, 1)


# --------------------------------------------------------------------------- the draw: reproducibility

PINNED = [
    Participant(id=str(i), name=n)
    for i, n in enumerate(
        ["Ana Souza", "Bruno Lima", "Carla Dias", "Davi Rocha", "Eva Melo", "Fábio Nunes", "Gisele Prado"], 1
    )
]


def test_pinned_result_never_changes():
    """Any machine, any Python version, any future Praça: this list and seed give this order."""
    result = run_draw(PINNED, "Loteria Federal 5.999: 12345", 3)
    assert (
        result.list_sha256
        == hashlib.sha256(
            (
                "1;Ana Souza\n2;Bruno Lima\n3;Carla Dias\n4;Davi Rocha\n5;Eva Melo\n6;Fábio Nunes\n7;Gisele Prado\n"
            ).encode()
        ).hexdigest()
    )
    expected = sorted(
        (p.id for p in PINNED),
        key=lambda i: hashlib.sha256(f"Loteria Federal 5.999: 12345\n{result.list_sha256}\n{i}".encode()).hexdigest(),
    )
    assert list(result.order) == expected
    assert result.list_sha256 == "230631f5c2454fe91da2a55592ec47510c6934c228c1da535e98f4f4d8c9112d"
    assert list(result.order) == ["4", "2", "3", "1", "5", "6", "7"]
    assert result.holders == ("4", "2", "3")
    assert result.algorithm == ALGORITHM


def test_same_input_same_output_different_seed_different_order():
    ps = people(30)
    first = run_draw(ps, "12345", 5, DrawRules(alternates=3))
    again = run_draw(list(reversed(ps)), " 12345 ", 5, DrawRules(alternates=3))
    assert first.to_dict() == again.to_dict()
    other = run_draw(ps, "12346", 5, DrawRules(alternates=3))
    assert other.order != first.order and sorted(other.order) == sorted(first.order)
    assert other.list_sha256 == first.list_sha256


def test_adding_a_participant_changes_the_list_hash_and_the_draw():
    ps = people(10)
    assert run_draw(ps, "1", 2).list_sha256 != run_draw(ps + people(11)[-1:], "1", 2).list_sha256


ids = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters=";"),
    min_size=1,
    max_size=6,
)


@settings(max_examples=80, deadline=None)
@given(
    names=st.lists(ids, min_size=1, max_size=40, unique_by=lambda s: unicodedata.normalize("NFC", s)),
    groups=st.integers(min_value=1, max_value=3),
    vacancies=st.integers(min_value=1, max_value=12),
    alternates=st.integers(min_value=0, max_value=10),
    seed=st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).filter(
        lambda s: s.strip()
    ),
)
def test_every_participant_exactly_once(names, groups, vacancies, alternates, seed):
    ps = [Participant(id=n, name=f"Nome {i}", group=f"g{i % groups}") for i, n in enumerate(names)]
    result = run_draw(ps, seed, vacancies, DrawRules(alternates=alternates))
    listed = {p.id for p in result.participants}
    assert len(result.order) == len(listed) == len(ps)
    assert set(result.order) == listed
    everyone = result.holders + result.alternates + result.others
    assert sorted(everyone) == sorted(listed)
    for g in result.groups:
        members = [pid for pid in result.order if result.participant(pid).group == g.group]
        assert len(g.holders) == min(vacancies, len(members))
        assert list(g.holders) == members[: len(g.holders)]  # plain draw: the first N in drawn order
        assert len(g.alternates) == min(alternates, len(members) - len(g.holders))
    # the README's algorithm, straight from the list text
    assert order_from_list(result.list_text, seed) == result.order


# --------------------------------------------------------------------------- groups, alternates


def test_sapezal_per_group_with_ten_alternates_each():
    rules = draw_rules(SAPEZAL)
    assert rules.alternates == 10 and rules.exclude_debtors
    ps = [Participant(id=f"{g}-{i:02d}", name=f"N {g} {i}", group=g) for g in ("g01", "g04") for i in range(15)]
    result = run_draw(ps, "seed", {"g01": 3, "g04": 2}, rules)
    by_group = {g.group: g for g in result.groups}
    assert (len(by_group["g01"].holders), len(by_group["g01"].alternates), len(by_group["g01"].others)) == (3, 10, 2)
    assert (len(by_group["g04"].holders), len(by_group["g04"].alternates), len(by_group["g04"].others)) == (2, 10, 3)
    assert by_group["g01"].label.startswith("Grupo 1")
    g01 = [pid for pid in result.order if pid.startswith("g01")]
    assert by_group["g01"].holders + by_group["g01"].alternates + by_group["g01"].others == tuple(g01)
    data = result.to_dict()
    assert [g["group"] for g in data["groups"]] == ["g01", "g04"]
    assert data["holders"] == list(by_group["g01"].holders + by_group["g04"].holders)


def test_alternates_override_and_vacancy_checks():
    rules = draw_rules(SAPEZAL, alternates=2)
    result = run_draw(people(6), "x", 3, rules)
    assert len(result.alternates) == 2 and len(result.others) == 1
    with pytest.raises(UserError, match="maior que zero"):
        run_draw(people(3), "x", 0)
    with pytest.raises(UserError, match="Informe as vagas do grupo 'b'"):
        run_draw([Participant(id="1", name="A", group="a"), Participant(id="2", name="B", group="b")], "x", {"a": 1})
    with pytest.raises(UserError, match="negativo"):
        draw_rules(SAPEZAL, alternates=-1)


def test_more_vacancies_than_people_makes_everyone_a_holder():
    result = run_draw(people(3), "x", 10, DrawRules(alternates=5))
    assert sorted(result.holders) == ["001", "002", "003"] and result.alternates == ()


# --------------------------------------------------------------------------- debtors (Sapezal art. 12, I)


def test_debtors_are_excluded_with_reason_and_article():
    ps = [*people(5), Participant(id="999", name="Devedor", debtor=True)]
    result = run_draw(ps, "x", 2, draw_rules(SAPEZAL))
    assert "999" not in result.order and len(result.order) == 5
    (excluded,) = result.excluded
    assert excluded.participant.id == "999" and "débito" in excluded.reason
    assert excluded.basis.startswith("Lei 1.171/2014, art. 12, I")
    assert "999" not in result.list_text
    assert published_list(ps, draw_rules(SAPEZAL)).sha256 == result.list_sha256
    assert result.role("999") == "excluded"
    # Ilha Comprida's act does not exclude debtors from its event draw
    ilha = run_draw(ps, "x", 2, draw_rules(get_regime("ilha-comprida-2017")))
    assert "999" in ilha.order and not ilha.excluded


# --------------------------------------------------------------------------- a quota in a draw

ILHA = get_regime("ilha-comprida-2017")
#: a draw with a 10 % quota — no shipped act has one: Ilha Comprida's (art. 11, § 2º) is of licences, not draws
QUOTA_RULES = DrawRules(method="draw", quota_percent=Decimal("0.10"), quota_basis="Decreto de teste, art. 1º")


def test_quota_fills_reserved_places_first():
    rules = QUOTA_RULES
    ps = people(20)
    plain = run_draw(ps, "q", 10, rules)
    last = plain.order[-1]  # the worst drawn position: without quota never a holder
    with_quota = [Participant(id=p.id, name=p.name, quota=(p.id == last)) for p in ps]
    result = run_draw(with_quota, "q", 10, rules)
    (group,) = result.groups
    assert group.quota_reserved == 1 and group.quota_holders == (last,)
    assert last in result.holders and len(result.holders) == 10
    # the general places are the first 9 in drawn order
    assert set(result.holders) - {last} == set([pid for pid in result.order if pid != last][:9])


def test_quota_rounds_up_and_unused_places_go_to_the_general_list():
    rules = QUOTA_RULES
    result = run_draw(people(12), "r", 3, rules)  # 10 % of 3 = 0,3 → 1 reserved place, nobody of the quota
    assert result.groups[0].quota_reserved == 1 and result.groups[0].quota_holders == ()
    assert list(result.holders) == list(result.order[:3])


def test_quota_people_beyond_the_reserved_places_compete_for_general_ones():
    rules = QUOTA_RULES
    ps = [Participant(id=f"{i:02d}", name=f"N{i}", quota=True) for i in range(10)]
    result = run_draw(ps, "s", 10 - 5, rules)
    assert len(result.groups[0].quota_holders) == 1 and list(result.holders) == list(result.order[:5])


def test_quota_refused_where_the_act_has_none():
    with pytest.raises(UserError, match="não prevê cota"):
        run_draw([Participant(id="1", name="A", quota=True)], "x", 1, draw_rules(SAPEZAL))


# --------------------------------------------------------------------------- payment time (São Bento art. 3º, § 2º)

SAO_BENTO = get_regime("sao-bento-2026")


def test_payment_time_selects_and_the_draw_gives_positions():
    rules = draw_rules(SAO_BENTO)
    assert rules.mode == "payment-time"
    t = dt.datetime(2026, 3, 26, 8, 0)
    ps = [Participant(id=f"c{i}", name=f"Comércio {i}", paid_at=t + dt.timedelta(minutes=10 * i)) for i in range(8)]
    ps.append(Participant(id="late", name="Sem pagamento"))
    result = run_draw(ps, "sorteio do dia", 3, rules)
    assert set(result.holders) == {"c0", "c1", "c2"}  # the three who paid first
    assert list(result.holders) == [pid for pid in result.order if pid in {"c0", "c1", "c2"}]  # positions drawn
    assert list(result.others) == ["c3", "c4", "c5", "c6", "c7"]  # then in order of payment (art. 10)
    assert [e.participant.id for e in result.excluded] == ["late"]
    assert "art. 3º" in result.excluded[0].basis


def test_payment_ties_are_broken_by_the_draw_and_payment_is_required():
    rules = draw_rules(SAO_BENTO)
    t = dt.datetime(2026, 3, 26, 9, 0)
    ps = [Participant(id=str(i), name=f"N{i}", paid_at=t) for i in range(6)]
    result = run_draw(ps, "z", 2, rules)
    assert list(result.holders) == list(result.order[:2])
    with pytest.raises(UserError, match="paid_at"):
        run_draw(people(3), "z", 1, rules)


# --------------------------------------------------------------------------- ranking and preferences


def test_ranked_participants_hold_by_rank_and_alternates_are_drawn():
    same = dict(disabled=False, birth_date=dt.date(1980, 1, 1))  # equal on the tie-break of art. 10, § 3º too
    ps = [Participant(id=f"{i:02d}", name=f"N{i}", score=Decimal(100 - i), **same) for i in range(12)]
    ps.append(Participant(id="tie", name="Empate", score=Decimal(98), **same))  # same score as "02"
    result = run_draw(ps, "s", 3, draw_rules(SAPEZAL, alternates=4))
    chosen = {"00", "01"} | {next(pid for pid in result.order if pid in ("02", "tie"))}  # the tie by the draw
    assert set(result.holders) == chosen
    rest = [pid for pid in result.order if pid not in chosen]
    assert list(result.alternates) == rest[:4]  # "serão sorteados mais dez suplentes" (art. 12, § 3º)
    assert "rank=3;score=98" in result.list_text


def test_ranks_from_rank_by_score_go_into_the_draw():
    a = Participant(
        id="a", name="A", disabled=True, housing="other", dependants_under_16=0, birth_date=dt.date(1990, 1, 1), **BASE
    )
    b = Participant(
        id="b",
        name="B",
        disabled=False,
        housing="rented",
        dependants_under_16=1,
        birth_date=dt.date(1990, 1, 1),
        **BASE,
    )
    ranked = rank_by_score(SAPEZAL, [b, a])
    ps = with_ranks(ranked)
    assert [(p.id, p.rank) for p in ps] == [("a", 1), ("b", 2)]
    assert ps[0].score == ps[1].score == Decimal(ranked[0].score.total)  # equal points: the tie-break decided
    for seed in ("1", "2", "3", "4"):
        assert run_draw(ps, seed, 1, draw_rules(SAPEZAL)).holders == ("a",)  # the disabled, whatever the seed


def test_sjc_preferences_first_and_draw_only_above_two():
    sjc = get_regime("sjc-2014")
    rules = draw_rules(sjc)
    assert rules.mode == "preference" and rules.when_more_than == 2
    ps = [Participant(id=f"{i}", name=f"N{i}", group="pastel") for i in range(6)]
    ps[4] = Participant(id="4", name="Fundador", group="pastel", preference="fundadores")
    ps[5] = Participant(id="5", name="Diurno", group="pastel", preference="feiras-diurnas")
    result = run_draw(ps, "s", 2, rules)
    assert set(result.holders) == {"4", "5"}
    assert result.groups[0].draw_required
    few = run_draw(ps[:2], "s", 1, rules)
    assert not few.groups[0].draw_required and "mais de 2" in few.groups[0].note
    with pytest.raises(UserError, match="preferência 'outra'"):
        run_draw([Participant(id="1", name="A", preference="outra")], "s", 1, rules)


def test_act_without_draw_is_refused():
    with pytest.raises(UserError, match="não prevê sorteio"):
        draw_rules(get_regime("olimpia-2025"))


# --------------------------------------------------------------------------- rotating list (Ilha Comprida art. 21)


def test_rotating_list_runs_in_sequence_then_starts_again():
    order = tuple("ABCDEFGHIJ")
    events = rotation(order, [4, 4, 4, 4, 3])
    assert events == (tuple("ABCD"), tuple("EFGH"), tuple("IJAB"), tuple("CDEF"), tuple("GHI"))
    assert event_vendors(order, [4, 4, 4], 3) == tuple("IJAB")
    # every vendor gets a turn before anyone's second turn
    assert sorted("".join(events[0] + events[1] + ("I", "J"))) == list(order)


def test_rotating_list_never_repeats_a_vendor_in_one_event():
    assert rotation(("a", "b", "c"), [5, 2]) == (("a", "b", "c"), ("a", "b"))
    with pytest.raises(UserError):
        rotation(("a",), [0])
    with pytest.raises(UserError):
        event_vendors(("a",), [1], 2)


def test_rotating_list_from_a_draw_over_several_events():
    result = run_draw(people(25), "Ilha Verão", 10, draw_rules(ILHA))
    events = rotation(result.order, [10] * 5)
    assert events[0] == result.holders
    assert events[1] == result.order[10:20]
    assert events[2] == result.order[20:] + result.order[:5]
    seen = [pid for e in events for pid in e]
    assert all(seen.count(pid) == 2 for pid in result.order)  # 50 places, 25 vendors: each twice


def test_second_draw_spreads_the_day_over_at_most_60_points():
    limit, basis = max_points_of(ILHA)
    assert limit == 60 and "art. 22" in basis
    day = people(8)
    points = [f"P{i:02d}" for i in range(1, 11)]
    spread = assign_points(day, points, "segundo sorteio", max_points=limit, max_basis=basis)
    assert [pid for pid, _ in spread.assignments] == list(spread.order)
    assert [pt for _, pt in spread.assignments] == points[:8]
    assert assign_points(day, points, "segundo sorteio").to_dict() == spread.to_dict()
    with pytest.raises(UserError, match="no máximo 60"):
        assign_points(day, [f"P{i}" for i in range(61)], "x", max_points=limit, max_basis=basis)
    with pytest.raises(UserError, match="8 ambulantes para 5 pontos"):
        assign_points(day, points[:5], "x")


# --------------------------------------------------------------------------- CSV and vacancies


def test_csv_with_bom_semicolons_and_optional_columns():
    text = (
        "\ufeffid;name;group;quota;paid_at;score;debtor;cpf\n"
        "1;Ana;g01;sim;26/03/2026 10:15;85,5;;123\n"
        "2;Bruno;g01;;2026-03-26T09:00:00;;1;\n"
        "\n"
    )
    participants, ignored = read_participants_csv(text)
    assert ignored == ("cpf",)
    a, b = participants
    assert (a.id, a.name, a.group, a.quota, a.paid_at, a.score, a.debtor) == (
        "1",
        "Ana",
        "g01",
        True,
        dt.datetime(2026, 3, 26, 10, 15),
        Decimal("85.5"),
        None,
    )
    assert b.debtor is True and b.score is None and not b.quota


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "vazio"),
        ("id,name\n", "vazia"),
        ("id,nome\n1,Ana\n", "coluna"),
        ("id,name\n1,Ana\n2,Bia\n1,Cris\n", "linhas 2 e 4"),
        ("id,name\n,Ana\n", "Linha 2: falta o id"),
        ("id,name,quota\n1,Ana,talvez\n", "Linha 2: valor inválido na coluna quota"),
        ("id,name,paid_at\n1,Ana,amanhã\n", "Linha 2: data e hora"),
        ("id,name,score\n1,Ana,muito\n", "Linha 2: pontuação"),
    ],
)
def test_bad_csv(text, message):
    with pytest.raises(UserError, match=message):
        read_participants_csv(text)


@pytest.mark.parametrize("text, expected", [("3", 3), (" 12 ", 12), ("g01=3, g02 = 2", {"g01": 3, "g02": 2})])
def test_parse_vacancies(text, expected):
    assert parse_vacancies(text) == expected


@pytest.mark.parametrize("text", ["0", "-2", "x", "g01=0", "g01=2,g01=3", ""])
def test_parse_vacancies_refuses(text):
    with pytest.raises(UserError):
        parse_vacancies(text)


# --------------------------------------------------------------------------- the README's snippet


def readme_snippet() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Sorteios: como conferir", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    return code


def test_readme_snippet_reproduces_the_order(tmp_path, monkeypatch, capsys):
    ps = [
        Participant(id=str(i), name=n, group="g01" if i % 2 else "g02", quota=i == 3)
        for i, n in enumerate(["Zoë", "João", "Ana Lúcia", "Mário", "Иван", "李雷", "Ñandú"], 1)
    ]
    result = run_draw(ps, "12345", 2, QUOTA_RULES)
    (tmp_path / "lista.txt").write_bytes(result.list_text.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    code = readme_snippet()
    assert 'seed = "12345"' in code
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # the documented snippet itself
    assert namespace["list_sha256"] == result.list_sha256
    assert tuple(namespace["order"]) == result.order
    assert capsys.readouterr().out.splitlines()[0] == result.list_sha256


def independent_order(list_text: str, seed: str) -> list[str]:
    """The algorithm re-written from its description, without models.selection."""
    data = list_text.encode("utf-8")
    digest = hashlib.new("sha256", data).hexdigest()
    keyed = []
    for raw in list_text.split("\n"):
        if raw == "":
            continue
        pid = raw[: raw.index(";")]
        keyed.append((hashlib.new("sha256", f"{seed}\n{digest}\n{pid}".encode()).hexdigest(), pid))
    keyed.sort()
    return [pid for _, pid in keyed]


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(ids, min_size=1, max_size=25, unique_by=lambda s: unicodedata.normalize("NFC", s)),
    seed=st.text(min_size=1, max_size=12).filter(lambda s: s.strip() and "\n" not in s and "\r" not in s),
)
def test_independent_implementation_agrees(names, seed):
    ps = [Participant(id=n, name=f"Participante {i}") for i, n in enumerate(names)]
    result = run_draw(ps, seed, 1)
    assert independent_order(result.list_text, result.seed) == list(result.order)


def test_canonical_line_is_what_the_list_holds():
    p = Participant(id="x1", name="Fulano", group="g02")
    assert canonical_line(p) == "x1;Fulano;group=g02"
    assert canonical_list([p]) == "x1;Fulano;group=g02\n"
