"""``praca draw``: a public draw from a CSV, headless, text or JSON; bad input is one line and exit 2."""

from __future__ import annotations

import hashlib

import pytest
from factories import draw_json, one_line_error
from factories import write_list as write

from desktop.cli import COMMANDS, main
from models.selection import order_from_list

GROUPS_CSV = "id,name,group,debtor\n" + "".join(
    f"{g}-{i:02d},Ambulante {g} {i},{g},{'sim' if (g, i) == ('g01', 7) else ''}\n"
    for g in ("g01", "g04")
    for i in range(1, 16)
)


def test_draw_is_registered():
    assert COMMANDS["draw"][0] == "draw"


def test_json_per_group_with_the_acts_ten_alternates(tmp_path, capsys):
    csv_path = write(tmp_path, GROUPS_CSV, bom=True)
    data = draw_json(
        capsys,
        "--regime",
        "sapezal-2014",
        "--input",
        csv_path,
        "--vacancies",
        "3",
        "--seed",
        "Loteria Federal 06001: 41234",
    )
    assert data["seed"] == "Loteria Federal 06001: 41234"
    assert data["list_sha256"] == hashlib.sha256(("\n".join(data["list"]) + "\n").encode("utf-8")).hexdigest()
    assert len(data["order"]) == 29 and "g01-07" not in data["order"]  # the debtor is left out (art. 12, I)
    assert data["excluded"][0]["id"] == "g01-07" and "art. 12, I" in data["excluded"][0]["basis"]
    groups = {g["group"]: g for g in data["groups"]}
    assert len(groups["g01"]["holders"]) == 3 and len(groups["g01"]["alternates"]) == 10
    assert len(groups["g04"]["holders"]) == 3 and len(groups["g04"]["alternates"]) == 10
    assert data["holders"] == groups["g01"]["holders"] + groups["g04"]["holders"]
    g01 = [pid for pid in data["order"] if pid.startswith("g01")]
    assert groups["g01"]["holders"] == g01[:3] and groups["g01"]["alternates"] == g01[3:13]
    # the list and the seed alone give the order
    list_text = "".join(line + "\n" for line in data["list"])
    assert list(order_from_list(list_text, data["seed"])) == data["order"]


def test_same_input_same_json_and_another_seed_another_order(tmp_path, capsys):
    csv_path = write(tmp_path, GROUPS_CSV)
    args = ["--regime", "sapezal-2014", "--input", csv_path, "--vacancies", "g01=2,g04=4", "--seed", "777"]
    first = draw_json(capsys, *args)
    assert draw_json(capsys, *args) == first
    assert len(first["groups"][1]["holders"]) == 4
    other = draw_json(capsys, *args[:-1], "778")
    assert other["order"] != first["order"] and sorted(other["order"]) == sorted(first["order"])


def test_readable_text_and_alternates_option(tmp_path, capsys):
    csv_path = write(
        tmp_path, "id;name;debtor\n1;Ana Souza;\n2;Bruno Lima;\n3;Carla Dias;\n4;Davi Rocha;\n5;Eva Melo;\n"
    )
    assert (
        main(
            [
                "draw",
                "--regime",
                "ilha-comprida-2017",
                "--input",
                csv_path,
                "--vacancies",
                "2",
                "--seed",
                "Ilha Verão",
                "--alternates",
                "1",
                "--events",
                "3",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Sorteio — Ilha Comprida/SP" in out and "Semente: Ilha Verão" in out and "SHA-256 " in out
    assert "Titulares, na ordem sorteada" in out and "Suplentes, na ordem de chamada" in out
    assert "reservada(s) à cota" not in out  # the quota of art. 11, § 2º is of licences, not of art. 21's draws
    assert "Evento 3:" in out and "Ordem sorteada:" in out


def test_payment_time_regime(tmp_path, capsys):
    csv_path = write(
        tmp_path,
        "id,name,paid_at\nA,Lanches,26/03/2026 10:15\nB,Pastel,26/03/2026 09:10\n"
        "C,Churros,\nD,Caldo,2026-03-26T08:00\n",
    )
    data = draw_json(capsys, "--regime", "sao-bento-2026", "--input", csv_path, "--vacancies", "2", "--seed", "1")
    assert sorted(data["holders"]) == ["B", "D"] and data["others"] == ["A"]
    assert [e["id"] for e in data["excluded"]] == ["C"]


def test_list_only_before_the_seed_and_the_readme_check(tmp_path, capsys):
    csv_path = write(tmp_path, GROUPS_CSV)
    listed = tmp_path / "lista.txt"
    assert (
        main(["draw", "--regime", "sapezal-2014", "--input", csv_path, "--list-only", "--list-out", str(listed)]) == 0
    )
    out = capsys.readouterr().out
    digest = hashlib.sha256(listed.read_bytes()).hexdigest()
    assert f"SHA-256 {digest}" in out and "Excluído: [g01-07]" in out
    data = draw_json(capsys, "--regime", "sapezal-2014", "--input", csv_path, "--vacancies", "1", "--seed", "42")
    assert data["list_sha256"] == digest  # the list published before is the list drawn
    assert list(order_from_list(listed.read_text(encoding="utf-8"), "42")) == data["order"]


@pytest.mark.parametrize(
    "csv_text, args, message",
    [
        ("id,name\n1,Ana\n2,Bia\n1,Cris\n", [], "Participante repetido: o id '1' aparece nas linhas 2 e 4"),
        ("id,name\n", [], "lista de participantes está vazia"),
        ("", [], "está vazio"),
        ("id,nome\n1,Ana\n", [], "Falta(m) a(s) coluna(s) name"),
        ("name\nAna\n", [], "coluna(s) id"),
        ("id,name\n1,Ana\n", ["--vacancies", "0"], "maior que zero (veio 0)"),
        ("id,name\n1,Ana\n", ["--vacancies", "-3"], "maior que zero"),
        ("id,name\n1,Ana\n", ["--vacancies", "três"], "Vagas inválidas"),
        ("id,name\n1,Ana\n", ["--regime", "atlantida-2030"], "não existe"),
        ("id,name\n1,Ana\n", ["--regime", "olimpia-2025"], "não prevê sorteio"),
        ("id,name\n1,Ana\n", ["--alternates", "-1"], "pelo menos 0"),
        ("id,name\n1,Ana\n", ["--alternates", "dez"], "inválido"),
        ("id,name\n1,Ana\n", ["--seed", "  "], "semente"),
        ("id,name,group\n1,Ana,g01\n", ["--vacancies", "g02=1"], "grupo"),
        ("id,name,quota\n1,Ana,sim\n", [], "não prevê cota"),
        ("id,name,paid_at\n1,Ana,ontem\n", [], "Linha 2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, csv_text, args, message):
    csv_path = write(tmp_path, csv_text)
    base = {"--regime": "sapezal-2014", "--input": csv_path, "--vacancies": "2", "--seed": "123"}
    for i in range(0, len(args), 2):
        base[args[i]] = args[i + 1]
    argv = [part for pair in base.items() for part in pair]
    assert message in one_line_error(capsys, *argv)


def test_missing_file_and_missing_options(tmp_path, capsys):
    assert "não encontrado" in one_line_error(
        capsys, "--regime", "sapezal-2014", "--input", str(tmp_path / "nada.csv"), "--vacancies", "1", "--seed", "1"
    )
    csv_path = write(tmp_path, "id,name\n1,Ana\n")
    assert "--vacancies" in one_line_error(capsys, "--regime", "sapezal-2014", "--input", csv_path, "--seed", "1")
    assert "--seed" in one_line_error(capsys, "--regime", "sapezal-2014", "--input", csv_path, "--vacancies", "1")
    assert "--regime" in one_line_error(capsys, "--input", csv_path, "--vacancies", "1", "--seed", "1")
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes("id,name\n1,João\n".encode("latin-1"))
    assert "UTF-8" in one_line_error(
        capsys, "--regime", "sapezal-2014", "--input", str(latin1), "--vacancies", "1", "--seed", "1"
    )


def test_ilha_comprida_arena_is_capped_at_60_points_art_22(tmp_path, capsys):
    """Dec. 890/2017, art. 22: the points in the Arena de Shows "não poderá ultrapassar 60 (sessenta)" — a draw
    (or a rotating list's event) of 61 places is refused naming the article; 60 runs."""
    csv_path = write(tmp_path, "id,name\n" + "".join(f"{i},Ambulante {i}\n" for i in range(1, 81)))
    args = ["--regime", "ilha-comprida-2017", "--input", csv_path, "--seed", "Ilha Verão"]
    error = one_line_error(capsys, *args, "--vacancies", "61")
    assert "61 vagas" in error and "no máximo 60 pontos" in error and "art. 22" in error
    error = one_line_error(capsys, *args, "--vacancies", "61", "--events", "2")
    assert "no máximo 60 pontos" in error
    assert len(draw_json(capsys, *args, "--vacancies", "60")["holders"]) == 60
