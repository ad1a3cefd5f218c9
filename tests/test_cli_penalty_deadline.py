"""``praca penalty`` and ``praca deadline`` through ``desktop.cli.main``: good input, bad input, one-line errors."""

from __future__ import annotations

import json

import pytest

from desktop.cli import COMMANDS, main


@pytest.fixture
def sqlite_url(sqlite_database):
    """The commands read an existing database only: this one is made first, as ``praca init`` makes it."""
    from models.store.bootstrap import close_database

    close_database()
    return sqlite_database


def one_line_error(capsys, code: int) -> str:
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("praca: ")
    return captured.err


def test_both_commands_are_registered():
    assert COMMANDS["penalty"][0] == "penalty" and COMMANDS["deadline"][0] == "deadline"


# --------------------------------------------------------------------------- penalty


def test_penalty_text(sqlite_url, capsys):
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--infraction",
                "ambulante-sem-autorizacao",
                "--date",
                "04/05/2026",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Data da infração: 04/05/2026 · valores de 2026" in out
    assert "Infração: Comercializar sem autorização" in out and "[ambulante-sem-autorizacao]" in out
    assert "Gradação: Comércio ambulante ou eventual [ambulante] — degrau 1" in out
    assert "1. Advertência, prazo de 1 hora para regularizar" in out
    assert (
        "2. Multa (valor da infração): R$ 384,20 [proposta — só mercadoria não retirada no prazo da notificação]"
    ) in out
    assert (
        "A definir: aguarda o fato: Mercadoria não retirada no prazo da notificação (LC 324/2025, art. 145, I e II)"
    ) in out
    assert "Fórmula: 10 UFESP × R$ 38,42 (UFESP 2026) = R$ 384,20" in out
    assert "Base legal: LC 324/2025, art. 145, II e § 1º" in out
    assert "praca deadline --regime olimpia-2025 --kind comply-street-vending --from DATA" in out
    assert "Multas impostas: R$ 0,00" in out
    assert "Multas propostas, à espera da decisão da autoridade ou do fato: R$ 384,20" in out


def test_penalty_json_with_prior_offences_and_two_infractions(sqlite_url, capsys):
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "olimpia-2025",
                "--infraction",
                "tpu-area-suja",
                "--infraction",
                "tpu-animais",
                "--prior",
                "1",
                "--date",
                "2026-05-04",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["cumulative"] is True and "art. 190" in data["cumulative_basis"]
    assert [i["offence"] for i in data["infractions"]] == [2, 2]
    assert data["total"] == "4610.40"  # 2 × (2 × 30 × 38,42)
    suspension = [s for i in data["infractions"] for s in i["sanctions"] if s["kind"] == "suspension"]
    assert [s["days"] for s in suspension] == [180, 180]


def test_penalty_graded_fine_is_shown_as_pending(sqlite_url, capsys):
    assert (
        main(
            [
                "penalty",
                "--db",
                sqlite_url,
                "--regime",
                "sjc-2014",
                "--infraction",
                "sujeira",
                "--year",
                "2014",
                "--date",
                "2014-10-01",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Fórmula: até R$ 500,00" in out
    assert (
        "A decidir: Sanção nº 2: aguarda o fato: Notificação Preliminar não atendida no prazo para regularizar "
        '("sob pena de multa") (Lei 9.158/2014, art. 23) — registre a data em que foi verificado e quem o '
        "verificou; valor da multa a graduar pela autoridade, até R$ 500,00"
    ) in out


def test_penalty_uses_the_unit_value_entered_in_the_database(database, capsys):
    from models.billing.fiscal import set_unit_value
    from models.rules.regimes import get_regime
    from models.store.bootstrap import close_database

    set_unit_value(get_regime("sapezal-2014"), "UFS", 2026, "45,10", entered_by="t", reason="decreto municipal")
    close_database()
    assert (
        main(
            [
                "penalty",
                "--db",
                database,
                "--regime",
                "sapezal-2014",
                "--infraction",
                "dever-40-i",
                "--infraction",
                "proibido-44-i",
                "--year",
                "2026",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == "135.30" and data["cumulative"] is True


def test_penalty_missing_unit_value_says_how(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(
            ["penalty", "--db", sqlite_url, "--regime", "sapezal-2014", "--infraction", "dever-40-i", "--year", "2026"]
        ),
    )
    assert "UFS (Unidade Fiscal de Sapezal) não tem valor para 2026" in err
    assert "units set UFS 2026 VALOR --source TEXTO" in err and "Cadastros → Unidades fiscais" in err


def test_penalty_missing_index_correction_says_how(sqlite_url, capsys):
    err = one_line_error(
        capsys,
        main(["penalty", "--db", sqlite_url, "--regime", "sjc-2014", "--infraction", "agressao", "--year", "2026"]),
    )
    assert "Falta a correção do INPC" in err and "--year 2014" in err and "Correção monetária" in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (
            ["--regime", "olimpia-2025", "--infraction", "nao-existe"],
            "Infração 'nao-existe' não existe no regime olimpia-2025 (LC 324/2025): veja os códigos em "
            "praca regimes --show olimpia-2025.",
        ),
        (["--regime", "olimpia-2025"], "Informe a infração: --infraction CÓDIGO"),
        (["--infraction", "x"], "Informe o regime"),
        (["--regime", "nada", "--infraction", "x"], 'regime "nada" não existe'),
        (
            ["--regime", "olimpia-2025", "--infraction", "tpu-area-suja", "--prior", "-1"],
            "ocorrências anteriores inválido",
        ),
        (
            ["--regime", "olimpia-2025", "--infraction", "tpu-area-suja", "--prior", "dois"],
            "ocorrências anteriores inválido",
        ),
        (["--regime", "olimpia-2025", "--infraction", "tpu-area-suja", "--year", "26"], "Ano inválido"),
        (
            ["--regime", "olimpia-2025", "--infraction", "tpu-area-suja", "--date", "31/02/2026"],
            "31/02/2026 não existe",
        ),
        (["--regime", "olimpia-2025", "--infraction", "tpu-area-suja", "--infraction", "tpu-area-suja"], "repetida"),
    ],
)
def test_penalty_bad_input_is_one_line_before_the_database(argv, fragment, tmp_path, capsys):
    path = tmp_path / "nunca.sqlite3"
    err = one_line_error(capsys, main(["penalty", "--db", f"sqlite:///{path}", *argv]))
    assert fragment in err
    assert not path.exists()


def test_penalty_bad_input_in_json_mode_too(sqlite_url, capsys):
    err = one_line_error(
        capsys, main(["penalty", "--db", sqlite_url, "--regime", "sjc-2014", "--infraction", "x", "--json"])
    )
    assert "praca regimes --show sjc-2014" in err


# --------------------------------------------------------------------------- deadline


def test_deadline_text(capsys):
    assert main(["deadline", "--regime", "olimpia-2025", "--kind", "defence", "--from", "03/03/2026"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Regime: Olímpia/SP — Lei Complementar nº 324, de 03 de dezembro de 2025 (olimpia-2025)"
    assert out[1].startswith("Prazo: Defesa contra o auto de infração [defence] — 20 dias corridos")
    assert out[2:6] == [
        "Início: 03/03/2026 (terça-feira)",
        "Termina: até 23/03/2026 (segunda-feira)",
        "Cálculo: 20 dias corridos a partir de 03/03/2026 (terça-feira), sem contar o dia do início: "
        "termina em 23/03/2026 (segunda-feira)",
        "Base legal: LC 324/2025, art. 34",
    ]


def test_deadline_text_with_the_extension(capsys):
    assert main(["deadline", "--regime", "olimpia-2025", "--kind", "reclaim-perishable", "--from", "02/04/2026"]) == 0
    out = capsys.readouterr().out
    assert "Prazo: Reclamação de mercadorias perecíveis apreendidas (regra geral) [reclaim-perishable]" in out
    assert "se terminar em dia sem expediente, vai até o fim do expediente do primeiro dia útil seguinte" in out
    assert "Início: 02/04/2026 (quinta-feira)" in out
    assert "Termina: até o fim do expediente de 06/04/2026 (segunda-feira)" in out
    assert "Base legal: LC 324/2025, art. 24, § 2º; art. 24, § 2º, I" in out


def test_deadline_json_business_days(capsys):
    assert main(["deadline", "--regime", "olimpia-2025", "--kind", "decision", "--from", "2026-04-01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["due"] == "2026-04-24" and data["count"] == "business"
    assert data["holidays"] == [
        {"date": "2026-04-03", "name": "Sexta-feira Santa"},
        {"date": "2026-04-21", "name": "Tiradentes"},
    ]
    assert data["basis"] == "LC 324/2025, art. 38"


def test_deadline_in_hours_with_a_time(capsys):
    assert main(["deadline", "--regime", "sjc-2014", "--kind", "appeal", "--from", "20/03/2026 18:00"]) == 0
    out = capsys.readouterr().out
    assert "Termina: até 23/03/2026 (segunda-feira) às 18:00" in out
    assert "Base legal: Lei 9.158/2014, art. 27, I" in out


def test_deadline_with_a_municipal_holiday(capsys):
    assert (
        main(
            [
                "deadline",
                "--regime",
                "ilha-comprida-2017",
                "--kind",
                "appeal",
                "--from",
                "2026-02-13",
                "--holiday",
                "2026-02-16",
                "--holiday",
                "17/02/2026",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["due"] == "2026-02-24"
    assert (
        main(["deadline", "--regime", "ilha-comprida-2017", "--kind", "appeal", "--from", "2026-02-13", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["due"] == "2026-02-20"  # Carnaval is not a holiday


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (
            ["--regime", "olimpia-2025", "--kind", "nada", "--from", "2026-03-03"],
            "Prazo 'nada' não existe no regime olimpia-2025 (LC 324/2025): "
            "veja os prazos em praca regimes --show olimpia-2025.",
        ),
        (["--regime", "olimpia-2025", "--from", "2026-03-03"], "Informe o prazo: --kind PRAZO"),
        (["--regime", "olimpia-2025", "--kind", "defence"], "Informe o início do prazo"),
        (["--kind", "defence", "--from", "2026-03-03"], "Informe o regime"),
        (["--regime", "olimpia-2025", "--kind", "defence", "--from", "30/02/2026"], "30/02/2026 não existe"),
        (["--regime", "sjc-2014", "--kind", "appeal", "--from", "2026-03-20"], "contado em horas"),
        (
            ["--regime", "sjc-2014", "--kind", "appeal", "--from", "2026-03-20 18:00", "--holiday", "x"],
            "Data do feriado inválida",
        ),
        (
            [
                "--regime",
                "sjc-2014",
                "--kind",
                "appeal-revocation",
                "--from",
                "2026-03-20",
                "--holiday",
                "2026-03-21 10:00",
            ],
            "só a data",
        ),
    ],
)
def test_deadline_bad_input_is_one_line(argv, fragment, capsys):
    err = one_line_error(capsys, main(["deadline", *argv]))
    assert fragment in err


# --------------------------------------------------------------------------- where the codes are listed


@pytest.mark.parametrize(
    "regime_id", ["olimpia-2025", "sjc-2014", "sapezal-2014", "ilha-comprida-2017", "sao-bento-2026"]
)
def test_regimes_show_lists_the_codes_and_kinds_the_commands_take(regime_id, capsys):
    from models.rules.regimes import get_regime

    regime = get_regime(regime_id)
    assert main(["regimes", "--show", regime_id]) == 0
    out = capsys.readouterr().out
    assert "(o id entre colchetes é o que praca penalty --infraction aceita)" in out
    assert "(o id entre colchetes é o que praca deadline --kind aceita)" in out
    for infraction in regime.infractions:
        assert f"[{infraction.code}]" in out
    for deadline in regime.deadlines:
        assert f"[{deadline.id}]" in out
