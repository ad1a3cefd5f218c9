"""Ties of the socio-economic score broken as Sapezal's act words them (Lei 1.171/2014, art. 10, § 3º):
"Ocorrendo empate, terá prioridade o deficiente físico e, persistindo o empate, será considerado vencedor o
mais idoso" — on the Seleção desk and in ``praca draw``; the lot decides only what the act leaves tied.

Desk tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL (``database`` through ``keys``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from factories import SAPEZAL_SITE, TODAY, broken_shipped, draw_json, one_line_error, sapezal_applicant
from factories import write_list as write
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.selection import Participant, draw_rules, published_list, read_participants_csv, run_draw
from models.services.calls import call_list

SAPEZAL = get_regime("sapezal-2014")
RULES = draw_rules(SAPEZAL, alternates=0)


def test_regime_declares_the_tie_break_with_its_article():
    """Art. 10, § 3º is declared in the file: the order of the criteria and the article, never guessed."""
    sel = SAPEZAL.selection
    assert sel.tie_break == ("disabled", "oldest") and sel.tie_break_basis == "art. 10, § 3º"
    assert RULES.tie_break == ("disabled", "oldest") and RULES.tie_basis == "Lei 1.171/2014, art. 10, § 3º"


def test_loader_refuses_an_unknown_tie_break_and_one_without_its_article(tmp_path):
    """A tie-break the engine does not know, or one without the article (art. 10, § 3º), is refused at load."""
    err = broken_shipped(
        tmp_path, "sapezal-2014", 'tie_break = ["disabled", "oldest"]', 'tie_break = ["disabled", "youngest"]'
    )
    assert "selection.tie_break[1]" in str(err) and "youngest" in str(err)
    err = broken_shipped(tmp_path, "sapezal-2014", 'tie_break_basis = "art. 10, § 3º"\n', "")
    assert "selection.tie_break_basis: chave obrigatória ausente" in str(err)


def entrant(
    pid: str, score: int, *, disabled: bool | None = False, born: dt.date | None = dt.date(1970, 1, 1), group: str = ""
) -> Participant:
    return Participant(
        id=pid, name=f"Pessoa {pid}", group=group, score=Decimal(score), disabled=disabled, birth_date=born
    )


def test_draw_art_10_par_3_disabled_then_oldest_then_the_lot():
    """Art. 10, § 3º in the draw: with one place and three equal scores, the disabled person wins whatever the
    seed; without her, the oldest; two identical ones share the rank and only then the seed decides."""
    ps = [
        entrant("a", 300),
        entrant("b", 300, disabled=True, born=dt.date(1995, 1, 1)),
        entrant("c", 300, born=dt.date(1950, 1, 1)),
        entrant("d", 400),
    ]
    for seed in ("1", "2", "3", "4", "5"):
        assert run_draw(ps, seed, 2, RULES).holders in (("d", "b"), ("b", "d"))
        assert set(run_draw([p for p in ps if p.id != "b"], seed, 2, RULES).holders) == {"d", "c"}
    twins = [entrant("x", 300), entrant("y", 300)]
    listed = published_list(twins, RULES)
    assert [p.rank for p in listed.participants] == [1, 1]  # the act cannot separate them
    assert "decide o sorteio" in listed.ties["x"]
    assert {run_draw(twins, seed, 1, RULES).holders for seed in map(str, range(12))} == {("x",), ("y",)}


def test_draw_refuses_a_tie_the_act_decides_but_whose_facts_are_missing():
    """The lot must not decide what art. 10, § 3º decides: a tie without the facts is refused, naming them."""
    with pytest.raises(UserError, match=r"Empate em 300 pontos.*art\. 10, § 3º.*deficiência"):
        published_list([entrant("a", 300, disabled=None), entrant("b", 300)], RULES)
    with pytest.raises(UserError, match=r"art\. 10, § 3º.*data de nascimento de \[b\]"):
        published_list([entrant("a", 300), entrant("b", 300, born=None)], RULES)
    # no tie, no need of the facts
    assert published_list([entrant("a", 300, disabled=None, born=None), entrant("b", 200)], RULES)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([100, 200, 300]),
            st.booleans(),
            st.sampled_from([dt.date(1950, 1, 1), dt.date(1970, 6, 1), dt.date(1990, 2, 2)]),
        ),
        min_size=1,
        max_size=12,
    ),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=10**6),
)
def test_holders_never_lose_to_someone_behind_them_on_art_10(facts, vacancies, seed):
    """Art. 10, §§ 2º–3º, any list and any seed: no holder is behind a non-holder on (score, disability, age);
    the lot only orders people equal on all three."""
    ps = [entrant(f"p{i:02d}", score, disabled=disabled, born=born) for i, (score, disabled, born) in enumerate(facts)]
    result = run_draw(ps, str(seed), vacancies, RULES)

    def key(p):
        return (-p.score, not p.disabled, p.birth_date)

    holders = {pid for pid in result.holders}
    for h in holders:
        for other in ps:
            if other.id not in holders:
                assert key(result.participant(h)) <= key(other)


def test_csv_reads_disability_and_birth_date():
    """The CSV of ``praca draw`` carries the facts of art. 10, § 3º: disability (sim/não) and birth_date."""
    ps, ignored = read_participants_csv(
        "id;name;score;disability;birth_date\n1;Ana;10;sim;15/04/1961\n2;Bia;10;não;1950-02-03\n3;Caio;5;;\n"
    )
    assert not ignored
    assert [(p.disabled, p.birth_date) for p in ps] == [
        (True, dt.date(1961, 4, 15)),
        (False, dt.date(1950, 2, 3)),
        (None, None),
    ]
    with pytest.raises(UserError, match="Linha 2: data de nascimento inválida: '31/02/1961'"):
        read_participants_csv("id,name,birth_date\n1,Ana,31/02/1961\n")
    with pytest.raises(UserError, match="Linha 2: valor inválido na coluna disability"):
        read_participants_csv("id,name,disability\n1,Ana,talvez\n")


def test_praca_draw_breaks_ties_as_art_10_par_3(tmp_path, capsys):
    """``praca draw --regime sapezal-2014`` with the columns disability and birth_date: art. 10, § 3º first,
    the seed only between the ones still tied; the JSON says what decided each tie."""
    path = write(
        tmp_path,
        "id;name;score;disability;birth_date\n"
        "a;Ana;300;não;15/04/1961\nb;Bruno;300;sim;01/01/1990\n"
        "c;Carla;300;não;15/04/1961\ne;Edu;300;não;03/02/1950\n",
    )
    for seed in ("1", "2", "3"):
        data = draw_json(
            capsys, "--regime", "sapezal-2014", "--input", path, "--vacancies", "2", "--seed", seed, "--alternates", "0"
        )
        assert set(data["holders"]) == {"b", "e"}
        assert "deficiência" in data["tie_breaks"]["b"] and "art. 10, § 3º" in data["tie_breaks"]["b"]
        assert "idoso" in data["tie_breaks"]["e"] and "decide o sorteio" in data["tie_breaks"]["a"]
    assert "rank=1;score=300" in "\n".join(data["list"])  # the rank the tie-break gave is in the hashed list
    assert main_text(capsys, tmp_path, path).count("empate em 300 pontos") == 4


def main_text(capsys, tmp_path, path) -> str:
    from desktop.cli import main

    assert main(["draw", "--regime", "sapezal-2014", "--input", path, "--vacancies", "2", "--seed", "9"]) == 0
    return capsys.readouterr().out


def test_praca_draw_without_the_tie_facts_is_one_line(tmp_path, capsys):
    """A tie that art. 10, § 3º decides, in a CSV without the columns: one line, exit 2, naming the column."""
    path = write(tmp_path, "id,name,score\na,Ana,10\nb,Bia,10\n")
    err = one_line_error(capsys, "--regime", "sapezal-2014", "--input", path, "--vacancies", "1", "--seed", "1")
    assert "art. 10, § 3º" in err and "(disability)" in err


# --------------------------------------------------------------------------- the desk


@pytest.fixture
def tied(keys):
    """Group 3 of Sapezal: Rosa (disabled) and Bento tie on 380 points; Carmo and Dora tie on everything."""
    common = dict(income="0,80", since=dt.date(1990, 1, 1))
    people = {
        "rosa": sapezal_applicant("Rosa Amaral", housing="other", birth=dt.date(1960, 3, 3), disabled=True, **common),
        "bento": sapezal_applicant(
            "Bento Lima", housing="rented", birth=dt.date(1960, 3, 3), children=(dt.date(2015, 1, 1),), **common
        ),
        "carmo": sapezal_applicant("Carmo Dias", housing="owned", birth=dt.date(1970, 5, 5), **common),
        "dora": sapezal_applicant("Dora Dias", housing="owned", birth=dt.date(1970, 5, 5), **common),
    }
    return {name: app for name, (_who, app) in people.items()}


def test_desk_ranks_art_10_par_3_and_shares_the_rank_the_act_leaves_tied(tied):
    """The Seleção desk (call_list) on both back ends: equal totals go to the disabled person, then the oldest
    (art. 10, § 3º); Carmo and Dora share a rank, and the published list says so for the lot to decide."""
    call = call_list("sapezal-2014", site=SAPEZAL_SITE, group="g03", today=TODAY)
    by = {c.applicant: c for c in call.candidates}
    assert by["Rosa Amaral"].score.total == by["Bento Lima"].score.total
    assert (by["Rosa Amaral"].rank, by["Bento Lima"].rank) == (1, 2)
    assert "pessoa com deficiência primeiro (Lei 1.171/2014, art. 10, § 3º)" in by["Rosa Amaral"].tie_break
    assert by["Carmo Dias"].rank == by["Dora Dias"].rank == 3
    assert by["Carmo Dias"].tie_unresolved and by["Dora Dias"].tie_unresolved
    assert call.published is not None and call.published.text.count(";rank=3;") == 2


def test_desk_refuses_the_list_when_a_tie_lacks_the_birth_date(keys):
    """Art. 10, § 3º on the desk: a tie the act decides by age, with a birth date missing, stops the list
    (no ranking, no draw) and says whose birth date to enter."""
    common = dict(income="0,80", since=dt.date(2005, 1, 1))
    sapezal_applicant("Sem Data", housing="rented", birth=None, **common)  # 100 + age missing (0)
    sapezal_applicant("Com Data", housing="financed", birth=dt.date(2000, 1, 1), **common)  # 80 + 20
    call = call_list("sapezal-2014", site=SAPEZAL_SITE, group="g03", today=TODAY)
    assert call.published is None
    assert "art. 10, § 3º" in call.problem and "data de nascimento de" in call.problem and "Sem Data" in call.problem
    assert any(c.tie_missing for c in call.candidates)


def click_row(qtbot, view, text: str, column: int = 2) -> None:
    """Click the row whose ``column`` shows ``text``, as the clerk does."""
    model = view.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, column).data() == text)
    rect = view.visualRect(model.index(row, column))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_selection_page_shows_the_tie_break_of_art_10_par_3(qtbot, tied, page):
    """On the real page: the call chosen, the clerk clicks Rosa and reads the tie-break with its article
    (art. 10, § 3º); Carmo and Dora both show 3º and the detail says the draw orders them."""
    page.resize(1366, 768)
    page.refresh()
    tab = page.call
    tab.set_call("sapezal-2014", SAPEZAL_SITE, "g03")
    model = tab.table.model()
    shown = {model.index(r, 2).data(): model.index(r, 0).data() for r in range(model.rowCount())}
    assert shown == {"Rosa Amaral": "1º", "Bento Lima": "2º", "Carmo Dias": "3º", "Dora Dias": "3º"}
    click_row(qtbot, tab.table, "Rosa Amaral")
    assert "1º na classificação do grupo" in tab.detail.text()
    assert "pessoa com deficiência primeiro (Lei 1.171/2014, art. 10, § 3º)" in tab.detail.text()
    click_row(qtbot, tab.table, "Dora Dias")
    assert "3º na classificação do grupo" in tab.detail.text() and "decide o sorteio" in tab.detail.text()
    assert "art. 10, § 3º" in tab.method.text()
