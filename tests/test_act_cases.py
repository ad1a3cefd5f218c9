"""The act's worked cases (``[[cases]]``, issue 29 §4): every shipped act carries the examples and table rows its
text gives and cases written from it, ``praca regimes check`` computes each with the engine the desks use, and a
case that does not come out as it expects is reported with the file's other mistakes, at its id path and line."""

import json
import re
import shlex
from pathlib import Path

import pytest

from desktop.cli import main
from models.rules.regimes import default_regimes_folder, load_regime_text
from models.services.act_cases import check_act, command_line

SHIPPED = sorted(default_regimes_folder().glob("*.toml"))
SAO_BENTO = default_regimes_folder() / "sao-bento-2026.toml"
CABECEIRA = default_regimes_folder() / "cabeceira-grande-2012.toml"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_act_carries_cases_and_they_all_confer(path: Path):
    checked = check_act(_text(path), path.name, expected_id=path.stem)
    assert checked.errors == []
    assert len(checked.outcomes) >= 3
    assert all(outcome.passed for outcome in checked.outcomes)
    kinds = {o.case.kind for o in checked.outcomes}
    regime = load_regime_text(_text(path), path.name)
    # every act with sanctions and deadlines has cases to check them (Chapadão do Sul's Tabela III has neither)
    assert ("penalty" in kinds) == bool(regime.infractions) and ("deadline" in kinds) == bool(regime.deadlines)


def test_the_acts_own_examples_are_marked_as_such():
    """The examples and table rows the acts give (source "act") are there, beside the readings."""
    regimes = {p.stem: load_regime_text(_text(p), p.name) for p in SHIPPED}
    from_act = {rid: [c.id for c in r.cases if c.source == "act"] for rid, r in regimes.items()}
    assert {"energia-baixo-consumo", "energia-alto-consumo", "multa-nao-desmontar"} <= set(from_act["sao-bento-2026"])
    venue_rows = [c for c in regimes["olimpia-2025"].cases if c.source == "act" and c.input("venue")]
    assert len(venue_rows) == 18  # art. 89: 9 rows × (1 day, the per-day minimum)
    assert len([c for c in from_act["sjc-2014"] if c.startswith("taxa-")]) == 8  # art. 5º, I a V
    assert len([c for c in from_act["sapezal-2014"] if c.startswith("pontos-")]) == 28  # art. 10, I a VII


def _wrong_total() -> str:
    text = _text(SAO_BENTO)
    return text.replace(
        'expect = { total = "591.67", lines = { occupation = "591.67" } }', 'expect = { total = "591.68" }'
    )


def test_a_wrong_expectation_fails_at_its_id_path_and_line_expected_against_computed():
    text = _wrong_total()
    checked = check_act(text, SAO_BENTO.name, expected_id=SAO_BENTO.stem)
    assert [e.key for e in checked.errors] == ["cases.trailer-mei-local.expect.total"]
    error = checked.errors[0]
    assert error.line == _line_of(text, 'expect = { total = "591.68" }')
    assert "esperado R$ 591,68, calculado R$ 591,67" in error.reason
    assert "art. 9º, § 2º" in error.reason
    failed = [o for o in checked.outcomes if not o.passed]
    assert [o.case.id for o in failed] == ["trailer-mei-local"]


def test_the_check_prints_the_failure_and_the_command_that_computes_it_again(database, tmp_path, capsys):
    path = tmp_path / SAO_BENTO.name
    path.write_text(_wrong_total(), encoding="utf-8")
    assert main(["regimes", "check", str(path)]) == 2
    err = capsys.readouterr().err
    line = _line_of(_wrong_total(), 'expect = { total = "591.68" }')
    assert f"sao-bento-2026.toml:{line}: cases.trailer-mei-local.expect.total: o caso «Trailer de 4,00" in err
    assert "1 erro; nada foi gravado." in err
    command = next(x for x in err.splitlines() if "trailer-mei-local: praca quote" in x).split(": ", 2)[2]
    args = shlex.split(command)
    assert args[:4] == ["praca", "quote", "--regime", "sao-bento-2026"] and "--mei" in args
    # the command it prints computes the figure the case got, on the real command line
    assert main(["--db", database, *args[1:]]) == 0
    assert "Total: R$ 591,67" in capsys.readouterr().out

    assert main(["regimes", "check", str(path), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert [e["key"] for e in out["errors"]] == ["cases.trailer-mei-local.expect.total"]
    assert out["errors"][0]["line"] == line
    case = next(c for c in out["cases"] if c["id"] == "trailer-mei-local")
    assert case["passed"] is False
    assert case["mismatches"] == [{"key": "expect.total", "what": "total", "expected": "R$ 591,68", "got": "R$ 591,67"}]


def test_a_shipped_act_checks_clean_and_says_how_many_cases_confer(capsys):
    assert main(["regimes", "check", str(SAO_BENTO)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Casos do ato: 11 conferem \(4 exemplos ou linhas de tabela do próprio ato, 7 escritos", out)


def test_a_failing_case_is_reported_with_ten_other_defects_in_one_run():
    from ten_defects import TEN, ten_defects

    text = ten_defects().replace(
        "expect = { due = 2026-06-22, extended = true }", "expect = { due = 2026-06-20, extended = true }"
    )
    checked = check_act(text, CABECEIRA.name, expected_id=CABECEIRA.stem)
    keys = [e.key for e in checked.errors]
    # the case of the broken deadline (defence: days = "5") is not run; the appeal's is, and does not confer
    assert sorted(keys) == sorted([*TEN, "cases.recurso-10-dias.expect.due"])
    assert keys == sorted(keys, key=lambda k: next(e.line for e in checked.errors if e.key == k))  # file's order
    due = next(e for e in checked.errors if e.key.startswith("cases."))
    assert "esperado 20/06/2026, calculado 22/06/2026" in due.reason


def test_a_case_of_a_broken_item_is_not_run():
    """The broken ladder's mistake is said once: the case that names its infraction does not add its own."""
    text = _text(CABECEIRA).replace(
        'kind = "seizure", basis = "art. 5º", notes', 'kind = "seizures", basis = "art. 5º", notes'
    )
    checked = check_act(text, CABECEIRA.name, expected_id=CABECEIRA.stem)
    assert [e.key.split(".")[0] for e in checked.errors] == ["ladders"]


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        (
            'kind = "penalty"\nsource',
            'kind = "penalties"\nsource',
            "cases.sem-licenca-apreensao.kind",
            'quis dizer "penalty"?',
        ),
        (
            'expect = { sanctions = ["seizure", "forfeiture"]',
            'expect = { due = 2026-06-01, sanctions = ["seizure", "forfeiture"]',
            "cases.sem-licenca-apreensao.expect.due",
            'não se aplica a um caso de kind "penalty"',
        ),
        (
            'inputs = { kind = "defence", from = 2026-06-01 }',
            'inputs = { kind = "defence", from = "01/06/2026" }',
            "cases.defesa-termina-no-sabado.inputs.from",
            "esperada uma data TOML",
        ),
        (
            "expect = { due = 2026-06-22, extended = true }",
            "expect = { }",
            "cases.recurso-10-dias.expect",
            "diga o que o caso espera",
        ),
    ],
    ids=["kind", "expect-of-another-kind", "from-as-text", "nothing-expected"],
)
def test_a_malformed_case_is_a_mistake_of_the_file(old, new, key, reason):
    text = _text(CABECEIRA)
    assert old in text
    checked = check_act(text.replace(old, new, 1), CABECEIRA.name, expected_id=CABECEIRA.stem)
    assert [e.key for e in checked.errors] == [key]
    assert reason in checked.errors[0].reason


def test_an_input_refused_by_the_engine_is_reported_at_the_input():
    text = _text(SAO_BENTO).replace('front = "0,80", depth = "0,80"', 'front = "0.80", depth = "0,80"')
    checked = check_act(text, SAO_BENTO.name, expected_id=SAO_BENTO.stem)
    assert [e.key for e in checked.errors] == ["cases.pipoca-metragem-minima.inputs.front"]
    assert "pode ser lido de duas formas" in checked.errors[0].reason


def test_the_command_line_of_a_deadline_case():
    regime = load_regime_text(_text(default_regimes_folder() / "sjc-2014.toml"), "sjc-2014.toml")
    case = next(c for c in regime.cases if c.id == "recurso-72-horas")
    assert command_line(regime, case) == "praca deadline --regime sjc-2014 --kind appeal --from '2014-09-01 10:00'"


def test_a_score_case_that_does_not_confer_says_the_points(capsys, tmp_path):
    path = tmp_path / "sapezal-2014.toml"
    text = (default_regimes_folder() / "sapezal-2014.toml").read_text(encoding="utf-8")
    text = text.replace(
        'inputs = { housing = "financed" }\nexpect = { points = 80 }',
        'inputs = { housing = "financed" }\nexpect = { points = 100 }',
    )
    path.write_text(text, encoding="utf-8")
    assert main(["regimes", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cases.pontos-moradia-financiada.expect.points" in err and "pontos: esperado 100, calculado 80" in err
    assert "pontos-moradia-financiada: (pontuação: calculada na Seleção)" in err


def test_the_regime_sheet_and_show_list_the_cases_with_what_they_expect(capsys):
    from reports.regime_sheet import regime_html

    regime = load_regime_text(_text(SAO_BENTO), SAO_BENTO.name)
    import html as html_lib

    html = html_lib.unescape(regime_html(regime)).replace("\xa0", " ")
    assert '<a name="casos"></a>Casos do ato' in html
    assert "multas impostas R$ 150,00; sanções: multa, impedimento" in html
    assert main(["regimes", "--show", "sao-bento-2026"]) == 0
    out = capsys.readouterr().out
    assert "CASOS DO ATO" in out
    assert (
        "Barraca de 2,50 m de empresa que não é MEI do município: 5,50 × 38,42 × 2,50 = R$ 528,275 → R$ 528,28 "
        "(preço, 27/03/2026; lido do texto) — espera total R$ 528,28 — Dec. 4.794/2026, art. 9º, § 2º"
    ) in out


def test_a_case_the_engine_refuses_unexpectedly_is_reported_at_the_case():
    text = _text(SAO_BENTO).replace(
        'inputs = { equipment = "barraca", front = "2,50", depth = "2,00" }', 'inputs = { depth = "2,00" }'
    )
    checked = check_act(text, SAO_BENTO.name, expected_id=SAO_BENTO.stem)
    assert [e.key for e in checked.errors] == ["cases.barraca-sem-desconto"]
    assert "esperado um resultado, calculado recusa:" in checked.errors[0].reason
    assert checked.errors[0].line == _line_of(text, 'id = "barraca-sem-desconto"') - 1  # the [[cases]] header


def test_a_case_of_a_formula_fee_gives_the_value_the_act_leaves_open_as_input():
    """``input = { nota = "4" }`` is ``--input nota=4``: the formula's open value, within the act's bounds."""
    from formula_acts import TEST_ID, made_up_text

    case = """
[[cases]]
id = "diaria-nota-4"
label = "Diária graduada pelo fiscal com nota 4, 2 dias: 4 ÷ 5 × 1 UFESP × 2"
article = "art. 12, § 1º"
date = 2026-06-10
kind = "quote"
inputs = { fee = ["diaria-graduada"], days = 2, input = { nota = "4" } }
expect = { total = "61.47" }

[[cases]]
id = "diaria-nota-7"
label = "Nota 7: fora dos limites do ato, recusada"
article = "art. 12, § 1º"
date = 2026-06-10
kind = "quote"
inputs = { fee = ["diaria-graduada"], days = 2, input = { nota = "7" } }
expect = { refused = "fora dos limites do ato" }
"""
    checked = check_act(made_up_text() + case, f"{TEST_ID}.toml", expected_id=TEST_ID)
    assert checked.errors == [] and [o.passed for o in checked.outcomes] == [True, True]
    assert command_line(checked.regime, checked.outcomes[0].case).endswith(
        "--fee diaria-graduada --days 2 --input nota=4 --date 10/06/2026 --year 2026"
    )
