"""``praca sites`` and ``praca layout export``: in-process through ``desktop.cli.main``."""

from __future__ import annotations

import json

import pytest

from desktop.cli import main


@pytest.fixture
def demo_url(sqlite_database):
    """A database with the demo sites (no people: the sites stand on their own)."""
    from models.demo.sites import demo_sites
    from models.store.bootstrap import close_database

    demo_sites()
    close_database()
    return sqlite_database


def site_id(url: str, regime: str, capsys) -> int:
    assert main(["sites", "--json", "--db", url]) == 0
    rows = json.loads(capsys.readouterr().out)
    return next(r["id"] for r in rows if r["regime"] == regime)


def test_sites_json_lists_id_name_kind_regime(demo_url, capsys):
    assert main(["sites", "--json", "--db", demo_url]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["name"], r["kind"], r["regime"]) for r in rows} == {
        ("Feira Noturna do Jardim Satélite", "feira", "sjc-2014"),
        ("Rua Cel. Ribeiro da Luz", "street", "sao-bento-2026"),
        ("Praia — pontos de cadeiras e guarda-sol", "beach", "ilha-comprida-2017"),
    }
    assert all(isinstance(r["id"], int) for r in rows)
    beach = next(r for r in rows if r["kind"] == "beach")
    assert beach["points"] == 15 and beach["stalls"] == 0


def test_sites_text_and_empty(demo_url, sqlite_url, tmp_path, capsys):
    assert main(["sites", "--db", demo_url]) == 0
    out = capsys.readouterr().out
    assert "Feira Noturna do Jardim Satélite" in out and "15 ponto(s)" in out
    empty = f"sqlite:///{tmp_path / 'vazio.sqlite3'}"
    assert main(["init", "--db", empty]) == 0  # a new database is made on purpose, never by a listing
    capsys.readouterr()
    assert main(["sites", "--db", empty]) == 0
    assert capsys.readouterr().out == "Nenhum local cadastrado.\n"


def test_layout_export_json(demo_url, tmp_path, capsys):
    sid = site_id(demo_url, "sao-bento-2026", capsys)
    out = tmp_path / "rua.json"
    assert main(["layout", "export", "--site", str(sid), "--format", "json", "--out", str(out), "--db", demo_url]) == 0
    assert "gravado em" in capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["length"] == 80.0
    assert data["segments"][0]["from"] == "Av. Dr. Rubião Júnior"
    assert {o["kind"] for o in data["obstacles"]} == {"garage", "hydrant"}
    garage = next(o for o in data["obstacles"] if o["kind"] == "garage")
    assert (garage["side"], garage["start"], garage["extent"]) == ("a", 42.0, 3.0)
    assert data["stalls"]
    for stall in data["stalls"]:
        assert {"number", "section", "side", "x", "y", "width", "depth", "rotation", "holder"} <= set(stall)
        assert stall["holder"] is None
        end = stall["x"] + stall["width"] + stall["hitch"]
        assert 0 <= stall["x"] and end <= 80
        if stall["side"] == "a":  # the site keeps the garage free (the Administration's choice)
            assert end <= 42 or stall["x"] >= 45
    numbers = [s["number"] for s in data["stalls"]]
    assert numbers == sorted(numbers)
    parity = {side: {s["number"] % 2 for s in data["stalls"] if s["side"] == side} for side in "ab"}
    assert parity == {"a": {1}, "b": {0}}  # odd on side A, even on side B


def test_layout_export_of_the_feira_has_all_28_sections(demo_url, tmp_path, capsys):
    sid = site_id(demo_url, "sjc-2014", capsys)
    out = tmp_path / "feira.json"
    assert main(["layout", "export", "--site", str(sid), "--out", str(out), "--db", demo_url]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len({s["section"] for s in data["stalls"]}) == 28
    pastel = next(s for s in data["stalls"] if s["section"] == "xvi")
    assert (pastel["width"], pastel["depth"], pastel["side"]) == (12.0, 3.5, "b")


def test_bad_site_id_is_one_line_exit_2(demo_url, tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["layout", "export", "--site", "999", "--out", str(out), "--db", demo_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "não encontrado" in err
    assert main(["layout", "export", "--site", "abc", "--out", str(out), "--db", demo_url]) == 2
    assert "Id de local inválido" in capsys.readouterr().err
    assert not out.exists()


def test_missing_folder_is_refused(demo_url, tmp_path, capsys):
    assert main(["layout", "export", "--site", "1", "--out", str(tmp_path / "nada" / "x.json"), "--db", demo_url]) == 2
    assert "não existe" in capsys.readouterr().err


def test_drawn_formats_wait_for_a_renderer(demo_url, tmp_path, capsys, monkeypatch):
    from desktop.commands import layout

    monkeypatch.setattr(layout, "RENDERER_MODULE", "reports.no_such_renderer")
    out = tmp_path / "mapa.pdf"
    assert main(["layout", "export", "--site", "1", "--format", "pdf", "--out", str(out), "--db", demo_url]) == 2
    assert "ainda não disponível" in capsys.readouterr().err
    # a renderer plugged in is used, with the same export the JSON has
    seen = {}
    monkeypatch.setitem(layout.RENDERERS, "svg", lambda export, path: seen.update(export=export, path=path))
    assert (
        main(["layout", "export", "--site", "1", "--format", "svg", "--out", str(tmp_path / "m.svg"), "--db", demo_url])
        == 0
    )
    assert seen["path"] == tmp_path / "m.svg" and seen["export"]["site"]["id"] == 1
