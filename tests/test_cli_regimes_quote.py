"""``praca regimes`` and ``praca quote``: in-process through ``desktop.cli.main`` and through the real entry point.

The quotes are the shared table of tests/quote_cases.py (also checked through
the simulator screen): what the act says the total and the first formula must be.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from quote_cases import QUOTE_CASES, QUOTE_ERRORS

from desktop.cli import main


@pytest.fixture
def sqlite_url(sqlite_database):
    """The commands read an existing database only: this one is made first, as ``praca init`` makes it."""
    from models.store.bootstrap import close_database

    close_database()
    return sqlite_database


REGIME_IDS = [
    "cabeceira-grande-2012",
    "caravelas-1994",
    "chapadao-do-sul-2007",
    "ilha-comprida-2017",
    "leopolis-2003",
    "olimpia-2025",
    "sao-bento-2026",
    "sao-lourenco-do-oeste-1997",
    "sapezal-2014",
    "sjc-2014",
]


def quote_argv(case: dict, *extra: str) -> list[str]:
    """``quote --regime ID`` and the case's inputs: key → ``--key value``, True → bare flag."""
    argv = ["quote", "--regime", case["regime"]]
    for key, value in case["args"].items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is False or value is None:
            continue
        else:
            argv += [flag, str(value)]
    return argv + list(extra)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The real entry point, in a process of its own (``python -m desktop``)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=Path(__file__).resolve().parent.parent,
    )


def one_line_error(capsys, code: int) -> str:
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("praca: ")
    return captured.err


# --------------------------------------------------------------------------- regimes


def test_regimes_lists_every_shipped_act(capsys):
    assert main(["regimes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == REGIME_IDS
    sb = next(line for line in lines if line.startswith("sao-bento-2026"))
    assert "  São Bento do Sapucaí/SP — Decreto nº 4.794, de 24 de março de 2026" in sb


def test_regimes_json_list(capsys):
    assert main(["regimes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in data] == REGIME_IDS
    sjc = data[-1]
    assert sjc == {
        "id": "sjc-2014",
        "municipality": "São José dos Campos",
        "state": "SP",
        "act": "Lei nº 9.158, de 28 de agosto de 2014",
        "short": "Lei 9.158/2014",
    }


def test_show_sjc_has_the_28th_section_with_its_article(capsys):
    assert main(["regimes", "--show", "sjc-2014"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "Seção XXVIII" in x)
    assert "Arte, cultura e lazer em geral" in line
    assert "[xxviii]" in line
    assert "Lei 9.158/2014, art. 8º, XXVIII" in line
    # the other parts of the act, each with its citation
    for heading in [
        "UNIDADES FISCAIS E VALORES",
        "TIPOS DE PERMISSÃO",
        "RAMOS E SEÇÕES",
        "EQUIPAMENTOS",
        "PREÇOS E TAXAS",
        "INFRAÇÕES",
        "GRADAÇÕES DE PENALIDADES",
        "PRAZOS",
    ]:
        assert heading in out
    assert "Pastel [pastel], 12,00 m × 3,50 m — Lei 9.158/2014, art. 5º, IV" in out
    assert "Multa: até R$ 500,00 (graduada pelo fiscal) — Lei 9.158/2014, art. 24" in out
    assert "Advertência, prazo de 24 horas para regularizar — Lei 9.158/2014, art. 23" in out
    assert "Recurso contra a cassação da permissão [appeal-revocation]: 10 dias corridos" in out


def test_show_sao_bento_text(capsys):
    assert main(["regimes", "--show", "sao-bento-2026"]) == 0
    out = capsys.readouterr().out
    assert "2026: R$ 38,42 (Dec. 4.794/2026, art. 9º, § 2º)" in out
    assert "Trailer [trailer] (com engate) — Dec. 4.794/2026, art. 9º, § 1º" in out
    # art. 9º: the rule and its MEI discounts, as the act says them
    assert (
        "Valor = 5,50 UFESP × metros lineares ocupados, com o engate, no mínimo 1,00 ML — "
        "Dec. 4.794/2026, art. 9º, § 2º" in out
    )
    assert (
        "Exceção 2 — desconto de 30 %: quando MEI, do município, equipamento: trailer, reboque ou barraca e "
        "profundidade (m) ≤ 3,00 m, Valor = o valor da regra geral × (1 − 0,30) — Dec. 4.794/2026, art. 9º, § 3º, I"
        in out
    )
    assert "(--energy high)" in out
    assert "Forma jurídica: pessoa jurídica, MEI — Dec. 4.794/2026, art. 4º" in out
    assert "Multa: 20 UFESP — Dec. 4.794/2026, art. 14, I" in out


def test_show_olimpia_lists_venues(capsys):
    assert main(["regimes", "--show", "olimpia-2025"]) == 0
    out = capsys.readouterr().out
    assert "IMÓVEIS" in out
    assert "[recinto-arena] — LC 324/2025, art. 89, § 1º" in out


def test_show_sao_bento_is_complete(capsys):
    """Calendar, site, layout, selection, placard, penalties and notes, as on the Regimes screen."""
    assert main(["regimes", "--show", "sao-bento-2026"]) == 0
    out = capsys.readouterr().out
    for heading in [
        "CALENDÁRIOS",
        "LOCAIS NOMEADOS PELO ATO",
        "DISPOSIÇÃO DAS BANCAS",
        "SELEÇÃO DOS PERMISSIONÁRIOS",
        "PLACA DE IDENTIFICAÇÃO",
        "PENALIDADES: REGRAS GERAIS",
        "APREENSÃO",
    ]:
        assert heading in out, heading
    assert (
        "Funcionamento — Sexta-feira, 27/03/2026: das 18:00 às 01:00 de 28/03/2026 — Dec. 4.794/2026, art. 5º, I"
    ) in out
    assert "Revogação, cumulativa — Dec. 4.794/2026, art. 11, § 6º" in out
    assert "Obs.: Imediata revogação da autorização" in out
    assert "(--energy low) — Dec. 4.794/2026, art. 12, § 1º" in out


def test_show_sjc_fee_due_and_penalty_order(capsys):
    assert main(["regimes", "--show", "sjc-2014"]) == 0
    out = capsys.readouterr().out
    assert "Pagamento: antecipadamente, até o dia 20 de cada mês — Lei 9.158/2014, art. 11, § 5º" in out
    assert "conforme a gravidade da infração — Lei 9.158/2014, art. 22, parágrafo único" in out
    assert "vencimento dia" not in out and "None" not in out


@pytest.mark.parametrize("regime_id", REGIME_IDS)
def test_show_every_regime_as_text_and_json(regime_id, capsys):
    assert main(["regimes", "--show", regime_id]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[1].startswith(f"id: {regime_id}")
    assert main(["regimes", "--show", regime_id, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == regime_id
    for key in [
        "equipment",
        "venues",
        "permit_kinds",
        "lines",
        "sections",
        "infractions",
        "deadlines",
        "fees",
        "units",
        "ids",
    ]:
        assert key in data, key
        assert isinstance(data[key], (list, dict))
    for key in [
        "equipment",
        "venues",
        "permit_kinds",
        "lines",
        "sections",
        "infractions",
        "deadlines",
        "energy",
        "fees",
    ]:
        assert key in data["ids"], key
    for equipment in data["equipment"]:  # every id shown in the text, with its article
        assert f"[{equipment['id']}]" in text
        assert equipment["article"] in text


def test_show_json_carries_ids_and_articles(capsys):
    assert main(["regimes", "--show", "sjc-2014", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    section = next(s for s in data["sections"] if s["numeral"] == "XXVIII")
    assert section["article"] == "Lei 9.158/2014, art. 8º, XXVIII"
    assert "pastel" in data["ids"]["lines"]
    assert main(["regimes", "--show", "olimpia-2025", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "recinto-arena" in [v["id"] for v in data["venues"]]
    assert main(["regimes", "--show", "sao-bento-2026", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "trailer" in data["ids"]["equipment"]
    assert data["ids"]["energy"] == ["none", "low", "high"]


def test_show_unknown_regime_is_one_line(capsys):
    err = one_line_error(capsys, main(["regimes", "--show", "atlantida-1900"]))
    assert "atlantida-1900" in err
    for regime_id in REGIME_IDS:
        assert regime_id in err


# --------------------------------------------------------------------------- quote: the shared table


@pytest.mark.parametrize("case", QUOTE_CASES, ids=[c["id"] for c in QUOTE_CASES])
def test_quote_json(case, sqlite_url, capsys):
    assert main(quote_argv(case, "--db", sqlite_url, "--json")) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    data = json.loads(captured.out)
    assert data["regime"] == case["regime"]
    assert data["total"] == case["total"]
    assert data["lines"][0]["formula"] == case["formula"]
    for line in data["lines"]:
        assert set(line) >= {"label", "amount", "formula", "basis"}
        assert line["basis"]
        whole, cents = line["amount"].split(".")
        assert whole.isdigit() and len(cents) == 2


@pytest.mark.parametrize("case", QUOTE_CASES, ids=[c["id"] for c in QUOTE_CASES])
def test_quote_text(case, sqlite_url, capsys):
    assert main(quote_argv(case, "--db", sqlite_url)) == 0
    out = capsys.readouterr().out
    assert out.startswith("Regime: ")
    assert f"Fórmula: {case['formula']}" in out
    assert "Base legal: " in out
    total = out.splitlines()[-1]
    assert total.startswith("Total: R$ ")
    whole, cents = case["total"].split(".")
    assert total == f"Total: R$ {int(whole):,}".replace(",", ".") + f",{cents}"


@pytest.mark.parametrize("case", QUOTE_ERRORS, ids=[c["id"] for c in QUOTE_ERRORS])
def test_quote_errors_are_one_line(case, sqlite_url, capsys):
    err = one_line_error(capsys, main(quote_argv(case, "--db", sqlite_url)))
    assert case["fragment"] in err


@pytest.mark.parametrize("case", QUOTE_ERRORS, ids=[c["id"] for c in QUOTE_ERRORS])
def test_quote_errors_in_json_mode_too(case, sqlite_url, capsys):
    one_line_error(capsys, main(quote_argv(case, "--db", sqlite_url, "--json")))


# --------------------------------------------------------------------------- quote: the details


def test_quote_text_sample(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "trailer",
                "--front",
                "4",
                "--depth",
                "3",
                "--mei",
                "--local",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Regime: São Bento do Sapucaí/SP — Decreto nº 4.794, de 24 de março de 2026 (sao-bento-2026)"
    assert lines[1] == "Dados: equipamento trailer, frente 4,00 m, profundidade 3,00 m, MEI, do município"
    assert "1. Preço público de ocupação de via pública — desconto de 30 %: R$ 591,67" in lines
    assert "   Fórmula: 5,50 × 38,42 × 4,00 × (1 − 0,30) = R$ 591,67" in lines
    assert "   Base legal: Dec. 4.794/2026, art. 9º, § 2º; art. 9º, § 3º, I" in lines
    assert "     · UFESP 2026 = R$ 38,42 (Dec. 4.794/2026, art. 9º, § 2º)" in lines
    assert "   Vencimento: até 26/03/2026" in lines
    assert lines[-1] == "Total: R$ 591,67"
    assert not any(line.startswith("Cauções") for line in lines)


def test_quote_deposits_have_their_own_subtotal(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--venue",
                "recinto-todas-instalacoes",
                "--days",
                "1",
                "--year",
                "2026",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Caução — Recinto de Exposições — todas as instalações (restituível): R$ 5.763,00" in out
    assert "Preços e taxas: R$ 3.842,00\nCauções (restituíveis): R$ 5.763,00\nTotal: R$ 9.605,00\n" in out


def test_sizes_are_typed_the_brazilian_way_and_a_dot_decimal_is_refused_with_both_readings(sqlite_url, capsys):
    outputs = []
    for front in ("2,5", "2,50", "R$ 2,50"[3:]):
        assert (
            main(
                [
                    "quote",
                    "--db",
                    sqlite_url,
                    "--regime",
                    "sao-bento-2026",
                    "--equipment",
                    "barraca",
                    "--front",
                    front,
                    "--depth",
                    "2",
                    "--json",
                ]
            )
            == 0
        )
        outputs.append(json.loads(capsys.readouterr().out)["total"])
    assert outputs == ["528.28"] * 3
    err = one_line_error(
        capsys,
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "barraca",
                "--front",
                "2.50",
                "--depth",
                "2",
            ]
        ),
    )
    assert "«2.50» pode ser lido de duas formas" in err and "2,50" in err and "250" in err


def test_fixed_fee_by_id_with_admin_value(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--fee",
                "depot-feira",
                "--days",
                "3",
                "--year",
                "2026",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["total"] == "115.26"  # 3 × 1 UFESP 2026
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sapezal-2014",
                "--fee",
                "licenca",
                "--admin-value",
                "licenca=150,00",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["total"] == "150.00"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--regime", "atlantida-1900", "--front", "2"], "atlantida-1900"),
        (["--front", "2"], "--regime"),
        (["--regime", "sjc-2014", "--line", "pastel", "--year", "abc"], "Ano inválido: 'abc'"),
        (["--regime", "sjc-2014", "--line", "pastel", "--year", "20.5"], "Ano inválido"),
        (["--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "-2"], "frente"),
        (["--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "dois"], "dois"),
        (["--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "2", "--depth", "0"], "profundidade"),
        (["--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "2", "--energy", "mega"], "mega"),
        (["--regime", "olimpia-2025", "--venue", "recinto-arena", "--days", "1,5"], "dias"),
        (["--regime", "olimpia-2025", "--venue", "recinto-arena", "--days", "0"], "dias"),
        (["--regime", "olimpia-2025", "--venue", "castelo", "--days", "1"], "castelo"),
        (["--regime", "sjc-2014", "--line", "pastel", "--front", "12", "--depth", "3,5", "--year", "2024"], "INPC"),
        (["--regime", "sao-bento-2026"], "Nada a calcular"),
        (["--regime", "sapezal-2014", "--fee", "licenca", "--admin-value", "licenca"], "TAXA=VALOR"),
        # Dec. 4.794/2026, art. 15: a day before the decree came into force is not priced by it (as penalty refuses)
        (
            ["--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "2", "--date", "23/03/2026"],
            "anterior à vigência do ato (Dec. 4.794/2026), em vigor desde 24/03/2026 (Dec. 4.794/2026, art. 15)",
        ),
    ],
)
def test_quote_bad_input_is_one_line(argv, fragment, sqlite_url, capsys):
    err = one_line_error(capsys, main(["quote", "--db", sqlite_url, *argv]))
    assert fragment in err


def test_bad_input_is_refused_before_the_database_is_created(tmp_path, capsys):
    path = tmp_path / "nunca.sqlite3"
    one_line_error(capsys, main(["quote", "--db", f"sqlite:///{path}", "--regime", "x", "--front", "2"]))
    one_line_error(capsys, main(["quote", "--db", f"sqlite:///{path}", "--regime", "sjc-2014", "--year", "x"]))
    assert not path.exists()


def test_unit_value_entered_in_the_database_changes_the_quote(database, capsys):
    from models.billing.fiscal import set_unit_value
    from models.rules.regimes import get_regime
    from models.store.bootstrap import close_database

    set_unit_value(get_regime("olimpia-2025"), "UFESP", 2027, "40,00", entered_by="t", reason="teste")
    close_database()
    assert (
        main(
            [
                "quote",
                "--db",
                database,
                "--regime",
                "olimpia-2025",
                "--venue",
                "recinto-arena",
                "--days",
                "1",
                "--year",
                "2027",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [line["amount"] for line in data["lines"]] == ["1000.00", "2000.00"]  # 25 × 40; deposit 50 × 40
    assert data["lines"][0]["formula"] == "1 × 25 × 40,00"
    assert data["total"] == "3000.00"
    assert data["total_deposits"] == "2000.00"
    # UFESP is the State's unit: the value entered serves São Bento too
    assert (
        main(
            [
                "quote",
                "--db",
                database,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "barraca",
                "--front",
                "2",
                "--year",
                "2027",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["total"] == "440.00"  # 5,50 × 40,00 × 2,00
    # a year nobody gave a value for is refused
    assert (
        main(
            [
                "quote",
                "--db",
                database,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "barraca",
                "--front",
                "2",
                "--year",
                "2028",
            ]
        )
        == 2
    )
    assert "2028" in capsys.readouterr().err


# --------------------------------------------------------------------------- the real entry point


def test_subprocess_quote_json_and_text(tmp_path):
    """A quote needs no set-up: with no database yet it computes from the act alone and creates none."""
    case = QUOTE_CASES[0]
    result = run_cli(*quote_argv(case, "--json"))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total"] == case["total"]
    assert data["lines"][0]["formula"] == case["formula"]
    result = run_cli(*quote_argv(case))
    assert result.returncode == 0, result.stderr
    assert f"Fórmula: {case['formula']}" in result.stdout and "Total: R$ 591,67" in result.stdout


def test_subprocess_errors_are_one_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'praca.sqlite3'}"
    result = run_cli("quote", "--db", url, "--regime", "sjc-2014", "--line", "pastel", "--year", "abc")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Ano inválido" in result.stderr
    result = run_cli("regimes", "--show", "nenhum")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "sjc-2014" in result.stderr


def test_subprocess_regimes():
    result = run_cli("regimes")
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == REGIME_IDS


# --------------------------------------------------------------------------- what the tester found


def test_size_beyond_the_centimetre_is_refused(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(["quote", "--db", sqlite_url, "--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "4,004"]),
    )
    assert "informe no máximo duas casas decimais (centímetros)" in err
    err = one_line_error(
        capsys,
        main(["quote", "--db", sqlite_url, "--regime", "sao-bento-2026", "--equipment", "barraca", "--front", "400"]),
    )
    assert "acima de 100 m" in err


def test_discount_not_granted_says_why(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "trailer",
                "--front",
                "4",
                "--depth",
                "3,5",
                "--mei",
                "--local",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "     · Sem desconto: profundidade 3,50 m acima de 3,00 m (Dec. 4.794/2026, art. 9º, § 3º, I)\n" in out
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "trailer",
                "--front",
                "4",
                "--depth",
                "3",
                "--mei",
            ]
        )
        == 0
    )
    assert (
        "Sem desconto: o desconto é só para MEI do município (Dec. 4.794/2026, art. 9º, § 3º, I)"
        in capsys.readouterr().out
    )


def test_two_days_of_a_venue_are_charged_as_the_minimum(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--venue",
                "recinto-arena",
                "--days",
                "2",
                "--year",
                "2026",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "   Fórmula: 3 × 15 × 38,42 = R$ 1.728,90" in out
    assert "mínimo de 3 dias cobrados — LC 324/2025, art. 89, § 1º" in out


def test_year_before_the_act_is_refused(sqlite_url, capsys):
    err = one_line_error(
        capsys, main(["quote", "--db", sqlite_url, "--regime", "sjc-2014", "--line", "pastel", "--year", "2013"])
    )
    assert "2013" in err and "Lei nº 9.158, de 28 de agosto de 2014" in err


def test_unknown_admin_value_id_is_refused(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sapezal-2014",
                "--fee",
                "licenca",
                "--admin-value",
                "licensa=150,00",
            ]
        ),
    )
    assert "'licensa'" in err and "licenca" in err


def test_inputs_without_effect_are_observed_not_dropped(sqlite_url, capsys):
    """--mei, --local, --days and --energy alike: the price is given and each one is said to change nothing."""
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sjc-2014",
                "--line",
                "pastel",
                "--front",
                "12",
                "--depth",
                "3,5",
                "--year",
                "2014",
                "--mei",
                "--local",
                "--days",
                "3",
                "--energy",
                "high",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    notes = [line for line in lines if line.startswith("Observação: ")]
    assert len(notes) == 4, lines
    assert any("MEI" in n for n in notes) and any("3 dias" in n for n in notes)
    assert any("não tem tarifa de energia" in n for n in notes)
    assert lines[-1] == "Total: R$ 105,00"
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "barraca",
                "--front",
                "2",
                "--days",
                "3",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == "422.62" and len(data["notes"]) == 1 and "3 dias" in data["notes"][0]


def test_energy_tier_is_named_in_portuguese(sqlite_url, capsys):
    assert (
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sao-bento-2026",
                "--equipment",
                "trailer",
                "--front",
                "4",
                "--depth",
                "3",
                "--energy",
                "high",
            ]
        )
        == 0
    )
    dados = capsys.readouterr().out.splitlines()[1]
    assert "energia Impacto I/IV — Alto consumo" in dados and "high" not in dados


def test_missing_correction_says_how_from_the_command_line(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "sjc-2014",
                "--line",
                "pastel",
                "--front",
                "12",
                "--depth",
                "3,5",
                "--year",
                "2016",
            ]
        ),
    )
    assert "Cadastre a correção do INPC de 2015 a 2016" in err
    assert f"praca --db {sqlite_url}" in err and "Cadastros → Correção monetária" in err


def test_missing_unit_value_says_how_from_the_command_line(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(
            [
                "quote",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--venue",
                "recinto-arena",
                "--days",
                "1",
                "--year",
                "2031",
            ]
        ),
    )
    assert "UFESP" in err and "2031" in err and "Cadastros → Unidades fiscais" in err


def test_password_is_not_echoed_in_the_hint():
    from argparse import Namespace

    from desktop.commands.quote import index_hint, unit_hint

    text = index_hint(Namespace(db="postgresql://praca:segredo@servidor:5432/praca"), "INPC", (2015,))
    assert "segredo" not in text and "postgresql://praca:***@servidor:5432/praca" in text
    assert "praca units set-index INPC 2015" in index_hint(Namespace(db=None), "INPC", (2015,))
    assert "praca units set UFIC 2026 VALOR" in unit_hint(Namespace(db=None), "UFIC", 2026)


def test_empty_db_url_is_refused(capsys):
    err = one_line_error(
        capsys, main(["quote", "--db", "", "--regime", "sjc-2014", "--line", "pastel", "--year", "2014"])
    )
    assert "URL vazia" in err
    one_line_error(capsys, main(["demo", "--db", "  "]))


def test_sqlite_in_a_missing_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "nao" / "existe"
    err = one_line_error(
        capsys,
        main(
            [
                "quote",
                "--db",
                f"sqlite:///{folder / 'x.sqlite3'}",
                "--regime",
                "sjc-2014",
                "--line",
                "pastel",
                "--year",
                "2014",
            ]
        ),
    )
    assert str(folder) in err and "não existe" in err
    assert not (tmp_path / "nao").exists()


def test_unbuilt_command_help_says_it_is_not_available(capsys):
    from desktop.cli import COMMANDS

    unbuilt = [name for name, (module, _help) in COMMANDS.items() if module is None]
    if not unbuilt:
        pytest.skip("every command is built")
    with pytest.raises(SystemExit) as exit_:
        main([unbuilt[0], "--help"])
    assert exit_.value.code == 0
    assert "Ainda não disponível nesta versão do Praça" in capsys.readouterr().out
