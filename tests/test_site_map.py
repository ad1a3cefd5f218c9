"""reports/site_map: the printed map (PDF, PNG, SVG) from the export dict, and ``praca layout export``."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

import pytest
from factories import feira_export
from factories import map_export_of as export_of
from factories import map_stall as stall
from pdftext import pdf_pages, pdf_text
from PySide6.QtGui import QImage

from desktop.cli import main
from reports.site_map import PAPERS, SCALES, choose_page, stall_parts, strip_breaks, write_pdf, write_png, write_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def feira():
    return feira_export()


# --------------------------------------------------------------------------- page and scale


def test_a_short_street_fits_a4_at_a_standard_scale(feira):
    choice = choose_page(feira)
    assert choice.paper == "A4" and choice.scale in SCALES and choice.fits
    assert choice.strips[0].first and choice.strips[-1].last and choice.strips[-1].end == 80
    # the finest scale that fits: on the bigger paper it gets finer still
    assert choose_page(feira, paper="A3").scale < choice.scale
    # the smallest stall is legible on paper
    assert 3.5 * 1000 / choice.scale >= 5


def test_a_long_feira_goes_to_a3_in_strips_cut_between_stalls():
    stalls = [stall(n, str((n - 1) * 8.5)) for n in range(1, 50)]
    export = export_of(length="420", width="12", stalls=stalls)
    choice = choose_page(export)
    assert choice.paper == "A3" and choice.fits and len(choice.strips) > 1
    assert choice.strips[0].start == 0 and choice.strips[-1].end == pytest.approx(420)
    for strip in choice.strips[:-1]:
        for s in stalls:  # no stall is cut in two
            x0, x1 = float(s["x"]), float(s["x"]) + 8
            assert not (x0 < strip.end < x1)
    forced = choose_page(export, paper="A4")
    assert forced.paper == "A4" and forced.scale > choice.scale


def test_breaks_fall_in_the_free_space():
    pieces = strip_breaks(100.0, [(0, 30), (31, 60), (61, 90)], 45.0)
    assert pieces[0] == (0.0, 30.5) and pieces[-1][1] == 100.0
    assert strip_breaks(10.0, [], 45.0) == [(0.0, 10.0)]


def test_stall_parts_put_the_colour_on_the_back():
    body, band, tow = stall_parts(10.0, 4.0, 2.0, 0)
    assert body == (2.0, 0.0, 10.0, 4.0) and band[1] == 0.0 and tow[0] == 0.0  # side A: back on its kerb (y=0)
    _, band, _ = stall_parts(10.0, 4.0, 0.0, 180)
    assert band[3] == 4.0  # side B: back on the far kerb
    body, band, tow = stall_parts(4.0, 10.0, 2.0, 90)
    assert body[1] == 2.0 and band[2] == 4.0 and tow[3] == 2.0


# --------------------------------------------------------------------------- files


def test_the_printed_map_is_headed_with_the_coat_of_arms(feira, tmp_path, app_ready):
    """Issue 31 §1: the printed site map carries the municipality's coat of arms on each page, beside its name."""
    import base64

    from factories import arms_png, pdf_images

    write_pdf(feira, tmp_path / "sem.pdf")
    plain = pdf_images(tmp_path / "sem.pdf")
    uri = "data:image/png;base64," + base64.b64encode(arms_png()).decode("ascii")
    write_pdf({**feira, "coat_of_arms": uri}, tmp_path / "mapa.pdf")
    pages = len(pdf_pages(tmp_path / "mapa.pdf"))
    assert len(pdf_images(tmp_path / "mapa.pdf")) == len(plain) + pages


def test_pdf_has_the_map_legend_streets_scale_and_the_list_of_holders(feira, tmp_path, app_ready):
    out = tmp_path / "mapa.pdf"
    choice = write_pdf(feira, out)
    assert out.read_bytes().startswith(b"%PDF")
    text = pdf_text(out)
    for expected in (
        "Feira do Teste",
        "Legenda",
        "Verde e branco",
        "Vermelho e branco",
        "Azul e branco",
        "Lei 9.158/2014, art. 9º, I",
        "Rua Júpiter",
        "Rua Saturno",
        "Avenida Andrômeda",
        f"Escala 1:{choice.scale}",
        "entrada de garagem",
        "Bancas e titulares",
        "2026/00001",
        "Ana Souza",
        "Bia Lima",
        "banca livre",
        "4 banca(s), 2 com titular",
    ):
        assert expected in text, expected
    pages = text.count("\f")
    assert pages == 2  # the map, then the list


def test_png_has_the_paper_aspect(feira, tmp_path, app_ready):
    out = tmp_path / "mapa.png"
    choice = write_png(feira, out, dpi=100)
    image = QImage(str(out))
    assert not image.isNull()
    width, height = PAPERS[choice.paper]
    assert image.width() / image.height() == pytest.approx(width / height, rel=0.01)
    assert image.width() == pytest.approx(width / 25.4 * 100, abs=1)
    # the map is drawn: the green of Seção I (art. 9º, I) is on the page
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert "#2e7d32" in colours and "#1565c0" in colours


def test_svg_is_valid_xml_with_the_names(feira, tmp_path, app_ready):
    out = tmp_path / "mapa.svg"
    choice = write_svg(feira, out)
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width", "").endswith("mm")
    assert float(root.get("width")[:-2]) == pytest.approx(PAPERS[choice.paper][0], rel=0.01)
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    for expected in ("Rua Júpiter", "Avenida Andrômeda", "Verde e branco", "Legenda"):
        assert expected in texts, expected


def test_a_beach_prints_its_named_points(tmp_path, app_ready):
    export = export_of()
    export["segments"] = []
    export["length"] = None
    export["site"]["kind"] = "beach"
    export["points"] = [
        {
            "code": "Ponto 01",
            "label": "",
            "description": "Balneário Di Franco",
            "basis": "art. 23, § 2º, a",
            "x": None,
            "side": None,
        }
    ]
    out = tmp_path / "praia.pdf"
    choice = write_pdf(export, out)
    assert choice.scale == 0
    text = pdf_text(out)
    assert "Ponto 01" in text and "Balneário Di Franco" in text


# --------------------------------------------------------------------------- the command line


@pytest.fixture
def demo_url(sqlite_database):
    from models.demo.sites import demo_sites
    from models.store.bootstrap import close_database

    demo_sites()
    close_database()
    return sqlite_database


@pytest.mark.parametrize("fmt", ["pdf", "png", "svg"])
def test_cli_exports_each_format(demo_url, tmp_path, capsys, fmt, app_ready):
    assert main(["sites", "--json", "--db", demo_url]) == 0
    import json

    sid = next(r["id"] for r in json.loads(capsys.readouterr().out) if r["regime"] == "sjc-2014")
    out = tmp_path / f"feira.{fmt}"
    assert main(["layout", "export", "--site", str(sid), "--format", fmt, "--out", str(out), "--db", demo_url]) == 0
    assert "gravado em" in capsys.readouterr().out
    data = out.read_bytes()
    if fmt == "pdf":
        assert data.startswith(b"%PDF")
        text = pdf_text(out)
        assert "Rua Júpiter" in text and "Rua Saturno" in text and "Azul e branco" in text
    elif fmt == "png":
        assert data.startswith(b"\x89PNG")
        image = QImage(str(out))
        assert image.width() > image.height()
    else:
        assert ET.fromstring(data).tag == f"{SVG}svg"


def test_cli_export_runs_headless_in_a_fresh_process(demo_url, tmp_path):
    """No Qt application before the command: the renderer makes one offscreen."""
    import os
    import sys

    from models.access.users import create_user
    from models.store.bootstrap import close_database, open_database

    out = tmp_path / "rua.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    open_database(demo_url)
    create_user(username="admin", name="Admin", role="administrador", password="senha-forte-1")
    close_database()
    env.update(PRACA_USER="admin", PRACA_PASSWORD="senha-forte-1")  # a process of its own logs in (issue 16 §4)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop",
            "layout",
            "export",
            "--site",
            "1",
            "--format",
            "png",
            "--out",
            str(out),
            "--db",
            demo_url,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert QImage(str(out)).width() > 0
