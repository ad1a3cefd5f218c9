"""Permit PDFs (reports.permit_docs): page sizes, the fields each act requires, and the QR that decodes back.

Text is extracted with poppler's ``pdftotext``; the QR is decoded with
``zbarimg`` (zbar-tools) from a 600 dpi rendering by ``pdftoppm``. Tests that
need a missing tool are skipped, never failed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from pdftext import pdf_pages, pdf_text

from models.access.signing import verify_text
from models.base.errors import UserError
from models.permits.permit_doc import PermitDocument, from_regime, precariousness
from models.rules.regimes import get_regime

PT_PER_MM = 72 / 25.4
TODAY = dt.date(2026, 3, 28)
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) ausente")
needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) ausente")
needs_zbar = pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbar-tools (zbarimg) ausente")

SAPEZAL_WARNING = (
    "A permissão é a título precário, podendo ser revogada a qualquer momento havendo interesse público "
    "devidamente justificado, sem direito a indenização, e cancelada nos seguintes casos: a) se não for "
    "cumprida a exigência contida nesta lei e seus regulamentos; b) se o autorizado não iniciar suas "
    "atividades dentro de 10 dias contados da data que lhe fora concedida a permissão; c) por "
    "descumprimento das normas estabelecidas nesta lei (Lei 1.171/2014, art. 35, VI)."
)


# --------------------------------------------------------------------------- helpers


def media_boxes_mm(path: Path) -> list[tuple[float, float]]:
    """Every page's MediaBox (width, height) in mm, read from the PDF itself."""
    raw = path.read_bytes()
    boxes = re.findall(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", raw)
    assert boxes, "no MediaBox in the PDF"
    return [((float(x1) - float(x0)) / PT_PER_MM, (float(y1) - float(y0)) / PT_PER_MM) for x0, y0, x1, y1 in boxes]


def page_count(path: Path) -> int:
    return len(media_boxes_mm(path))


def render_png(path: Path, page: int, dpi: int, out_dir: Path) -> Path:
    prefix = out_dir / f"{path.stem}-p{page}-{dpi}"
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", "-f", str(page), "-l", str(page), "-singlefile", str(path), str(prefix)],
        check=True,
        capture_output=True,
    )
    return prefix.with_suffix(".png")


def decode_qr(png: Path) -> list[str]:
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True)
    return [line.strip() for line in result.stdout.splitlines() if line.strip()]


@pytest.fixture
def photo(tmp_path, qapp) -> Path:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(300, 400, QImage.Format.Format_RGB32)
    image.fill(QColor("#b8c7d9"))
    painter = QPainter(image)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#5a4636"))
    painter.drawEllipse(QRectF(95, 70, 110, 140))
    painter.setBrush(QColor("#2d4a6b"))
    painter.drawEllipse(QRectF(40, 230, 220, 260))
    painter.end()
    path = tmp_path / "foto.png"
    assert image.save(str(path))
    return path


@pytest.fixture
def key_dir(tmp_path) -> Path:
    return tmp_path / "keys"


@pytest.fixture
def ilha_doc(photo, key_dir) -> PermitDocument:
    """Beach vendor, Ilha Comprida (Dec. 890/2017): the card must show everything art. 8º lists."""
    regime = get_regime("ilha-comprida-2017")
    return from_regime(
        regime,
        "ambulante-praia",
        number="2026/000087",
        process_number="1523/2025",
        valid_from=dt.date(2026, 1, 10),
        valid_until=dt.date(2027, 1, 9),
        holder_name="Maria Aparecida dos Santos Oliveira",
        cpf="52998224725",
        rg="23.456.789-0",
        cnpj="11222333000181",
        trade_name="Sorvetes da Cida",
        municipal_registration="004512",
        holder_id_number="AMB-0231",
        address="Rua das Gaivotas, 120 — Balneário Meu Recanto, Ilha Comprida/SP",
        photo_path=photo,
        agency="Divisão de Uso e Ocupação do Solo e Licenças",
        product_line="Sorvetes e picolés industrializados",
        equipment="Carrinho",
        equipment_size="1,50 × 0,80 m + 0,20 m de cabo",
        site="Praia do Boqueirão Norte",
        point="Ponto 7",
        days="todos os dias",
        hours="das 8h às 19h",
        amount=Decimal("1234.56"),
        issued_at=dt.date(2026, 1, 10),
        issued_by="Ana Beatriz Rocha, Chefe da Divisão",
        card_title="Cartão de Habilitação",
        card_basis="art. 8º",
    ).signed(key_dir)


@pytest.fixture
def sapezal_doc(key_dir) -> PermitDocument:
    """Fixed-point licence, Sapezal (Lei 1.171/2014): art. 35 contents and art. 22 card."""
    regime = get_regime("sapezal-2014")
    return from_regime(
        regime,
        "ponto-fixo",
        number="LF-2026/0042",
        process_number="PA 311/2026",
        valid_from=dt.date(2026, 2, 1),
        valid_until=dt.date(2027, 1, 31),
        holder_name="José Carlos Pereira",
        cpf="11144477735",
        cnpj="11444777000161",
        company_name="J C Pereira Lanches ME",
        address="Av. Tancredo Neves, 455 — Centro, Sapezal/MT",
        agency="Secretaria Municipal de Desenvolvimento Econômico",
        product_group="Grupo 3 — Lanches e salgados",
        product_line="Cachorro-quente, lanches e sucos naturais",
        equipment="Trailer",
        equipment_size="3,00 × 2,00 m",
        site="Praça dos Pioneiros",
        point="Ponto 4",
        days="de terça a domingo",
        hours="das 17h às 23h",
        issued_at=dt.date(2026, 1, 28),
        issued_by="Carla Menezes, Diretora de Tributação",
        card_basis="arts. 21 e 22",
        precariousness=SAPEZAL_WARNING,
        duties=("Manter o cartão de identificação em lugar visível do equipamento (Lei 1.171/2014, art. 21)",),
    ).signed(key_dir)


@pytest.fixture
def olimpia_doc(key_dir) -> PermitDocument:
    """Street food TPU, Olímpia (LC 324/2025, art. 175): category, foods, address, days and periods."""
    regime = get_regime("olimpia-2025")
    return from_regime(
        regime,
        "street-food-tpu-a",
        instrument="termo de permissão de uso",
        number="TPU 007/2026",
        valid_from=dt.date(2026, 5, 1),
        valid_until=dt.date(2031, 4, 30),
        holder_name="Sabores do Thermas Food Truck Ltda",
        cnpj="45723174000110",
        equipment="Categoria A — food truck",
        product_line="Hambúrgueres, batata frita e refrigerantes",
        site="Av. Menina Moça, 1.200 (em frente ao parque)",
        days="sextas, sábados e domingos",
        hours="das 18h às 24h",
        issued_at=dt.date(2026, 4, 20),
        issued_by="Prefeito Municipal",
    ).signed(key_dir)


@pytest.fixture
def sao_bento():
    return get_regime("sao-bento-2026")


@pytest.fixture
def sao_bento_doc(sao_bento, key_dir) -> PermitDocument:
    return from_regime(
        sao_bento,
        "event-stall",
        number="2026/000012",
        valid_from=dt.date(2026, 3, 27),
        valid_until=dt.date(2026, 3, 29),
        holder_name="Pastelaria Serra da Mantiqueira Ltda",
        cnpj="12345678000195",
        municipal_registration="12.345",
        site="Rua Cel. Ribeiro da Luz",
        point="Barraca 12",
        product_line="Pastéis e caldo de cana",
        issued_at=dt.date(2026, 3, 25),
        issued_by="João Silva",
    ).signed(key_dir)


# --------------------------------------------------------------------------- the plain document


def test_document_summary_and_citation(ilha_doc, key_dir):
    assert ilha_doc.citation == "Dec. 890/2017, art. 3º, II"
    assert ilha_doc.instrument == "autorização"
    assert ilha_doc.place == "Praia do Boqueirão Norte — Ponto 7"
    summary = ilha_doc.summary()
    assert summary.holder_document == "11222333000181"  # CNPJ wins over CPF for a MEI
    assert summary.regime_id == "ilha-comprida-2017"
    result = verify_text(ilha_doc.qr_text, key_dir, today=TODAY)
    assert result.status == "valid" and result.summary == summary


def test_precariousness_is_the_one_the_regime_declares_sapezal_art_35_vi():
    """Lei 1.171/2014, art. 35, VI: the permit carries the warning that it is precarious — declared on the kind
    (``precarious``), never picked out of its notes."""
    regime = get_regime("sapezal-2014")
    text = precariousness(regime, regime.permit_kind("ponto-fixo"))
    assert text.startswith("A permissão é a título precário") and text.endswith("(Lei 1.171/2014, art. 35, VI)")
    doc = from_regime(regime, "ponto-fixo", number="1", valid_from=TODAY, valid_until=TODAY, holder_name="X")
    assert doc.precariousness == text
    olimpia = get_regime("olimpia-2025")
    assert precariousness(olimpia, olimpia.permit_kind("street-vending")) == ""  # art. 138 does not say it
    assert precariousness(olimpia, olimpia.permit_kind("street-food-tpu-b")).endswith("(LC 324/2025, art. 158)")


# --------------------------------------------------------------------------- permit (A4)


def test_permit_html_escapes_and_lists_the_fields(qapp, sapezal_doc):
    from reports.permit_docs import permit_html

    html = permit_html(dataclasses.replace(sapezal_doc, observations="<b>não</b> & sim"))
    assert "&lt;b&gt;não&lt;/b&gt; &amp; sim" in html
    for text in (
        "PREFEITURA MUNICIPAL DE SAPEZAL",
        "Estado de Mato Grosso",
        "LICENÇA DE FUNCIONAMENTO Nº LF-2026/0042",
        "Grupo 3 — Lanches e salgados",
        "Praça dos Pioneiros",
        "de terça a domingo",
        "das 17h às 23h",
        "de 01/02/2026 a 31/01/2027",
        "111.444.777-35",
        "11.444.777/0001-61",
        "ADVERTÊNCIA",
        "Sapezal/MT, 28 de janeiro de 2026.",
    ):
        assert text in html, text


@needs_pdftotext
def test_permit_pdf_sapezal(qapp, sapezal_doc, tmp_path):
    from reports.permit_docs import write_permit_pdf

    path = write_permit_pdf(sapezal_doc, tmp_path / "alvara.pdf")
    boxes = media_boxes_mm(path)
    for width, height in boxes:
        assert abs(width - 210) < 0.5 and abs(height - 297) < 0.5
    text = pdf_text(path, squash="spaces")
    # Lei 1.171/2014, art. 35: name and address, place, product group, days and hours, term, precariousness
    for expected in (
        "PREFEITURA MUNICIPAL DE SAPEZAL",
        "LICENÇA DE FUNCIONAMENTO Nº LF-2026/0042",
        "José Carlos Pereira",
        "J C Pereira Lanches ME",
        "Av. Tancredo Neves, 455",
        "Praça dos Pioneiros",
        "Grupo 3 — Lanches e salgados",
        "de terça a domingo",
        "das 17h às 23h",
        "de 01/02/2026 a 31/01/2027",
        "Lei nº 1.171, de 29 de dezembro de 2014",
        "art. 27, I",
        "ADVERTÊNCIA",
        "a título precário",
        "sem direito a indenização",
        "art. 35, VI",
        "Carla Menezes",
        "Página 1 de",
    ):
        assert expected in text, expected
    assert text.count("Página ") == len(boxes)


@needs_pdftotext
def test_permit_pdf_money_photo_and_qr(qapp, ilha_doc, key_dir, tmp_path):
    from reports.permit_docs import write_permit_pdf

    path = write_permit_pdf(ilha_doc, tmp_path / "autorizacao.pdf")
    text = pdf_text(path, squash="spaces")
    assert "R$ 1.234,56" in text
    assert "AUTORIZAÇÃO Nº 2026/000087" in text
    assert "Maria Aparecida dos Santos Oliveira" in text
    assert "de 10/01/2026 a 09/01/2027" in text
    assert "Ilha Comprida/SP, 10 de janeiro de 2026." in text
    if shutil.which("zbarimg") and shutil.which("pdftoppm"):
        decoded = decode_qr(render_png(path, 1, 300, tmp_path))
        assert decoded == [ilha_doc.qr_text]
        assert verify_text(decoded[0], key_dir, today=TODAY).status == "valid"


@needs_pdftotext
def test_permit_pdf_tpu_olimpia(qapp, olimpia_doc, tmp_path):
    from reports.permit_docs import write_permit_pdf

    path = write_permit_pdf(olimpia_doc, tmp_path / "tpu.pdf")
    text = pdf_text(path, squash="spaces")
    # LC 324/2025, art. 175: equipment category, foods, address of the installation, days and periods
    for expected in (
        "TERMO DE PERMISSÃO DE USO Nº TPU 007/2026",
        "Categoria A — food truck",
        "Hambúrgueres, batata frita e refrigerantes",
        "Av. Menina Moça, 1.200",
        "sextas, sábados e domingos",
        "das 18h às 24h",
        "de 01/05/2026 a 30/04/2031",
        "45.723.174/0001-10",
        "a título precário, intransferível e oneroso",
    ):
        assert expected in text, expected
    assert page_count(path) == 1


@needs_pdftotext
def test_long_permit_flows_to_a_second_page_with_footer(qapp, sapezal_doc, tmp_path):
    from reports.permit_docs import write_permit_pdf

    long_doc = dataclasses.replace(
        sapezal_doc, duties=tuple(f"Obrigação número {i} do titular (art. {i})" for i in range(1, 40))
    )
    path = write_permit_pdf(long_doc, tmp_path / "longo.pdf")
    pages = page_count(path)
    assert pages >= 2
    text = pdf_text(path, squash="spaces")
    assert f"Página {pages} de {pages}" in text
    assert "Obrigação número 39" in text
    # the signature block is never split from the place and date
    last_page = pdf_pages(path, mode="plain")[pages - 1]
    assert "Carla Menezes" in last_page and "Sapezal/MT, 28 de janeiro de 2026." in last_page


# --------------------------------------------------------------------------- ID card


@needs_pdftotext
def test_id_card_size_and_contents(qapp, ilha_doc, tmp_path):
    from reports.permit_docs import write_id_card_pdf

    path = write_id_card_pdf(ilha_doc, tmp_path / "cartao.pdf")
    boxes = media_boxes_mm(path)
    assert len(boxes) == 2  # front and back
    for width, height in boxes:
        assert abs(width - 85.6) <= 0.5 and abs(height - 53.98) <= 0.5
    text = pdf_text(path, squash="spaces")
    # Dec. 890/2017, art. 8º: name (with photo), RG and CNPJ, address, id number, place, line, validity, hours, process
    for expected in (
        "PREFEITURA MUNICIPAL DE ILHA COMPRIDA/SP",
        "CARTÃO DE HABILITAÇÃO",
        "Maria Aparecida dos Santos Oliveira",
        "23.456.789-0",
        "11.222.333/0001-81",
        "529.982.247-25",
        "Rua das Gaivotas, 120",
        "AMB-0231",
        "Praia do Boqueirão Norte — Ponto 7",
        "Sorvetes e picolés industrializados",
        "10/01/2026 a 09/01/2027",
        "das 8h às 19h",
        "1523/2025",
        "Nº 2026/000087",
        "Dec. 890/2017, art. 8º",
        "1,50 × 0,80 m",
    ):
        assert expected in text, expected
    assert "FOTO" not in text  # the photo was drawn


@needs_pdftotext
def test_id_card_sapezal_art_22_and_photo_placeholder(qapp, sapezal_doc, tmp_path):
    from reports.permit_docs import write_id_card_pdf

    path = write_id_card_pdf(sapezal_doc, tmp_path / "cartao.pdf")
    front = pdf_pages(path, mode="plain")[0]
    # Lei 1.171/2014, art. 22 — on the front, the side fixed on the equipment (art. 21)
    for expected in (
        "José Carlos Pereira",
        "Cachorro-quente",
        "3,00 × 2,00 m",
        "das 17h às 23h",
        "Praça dos Pioneiros",
        "01/02/2026 a 31/01/2027",
        "FOTO",
    ):
        assert expected in front, expected


@needs_pdftoppm
@needs_zbar
def test_id_card_qr_decodes_and_verifies(qapp, ilha_doc, key_dir, tmp_path):
    from reports.permit_docs import write_id_card_pdf

    path = write_id_card_pdf(ilha_doc, tmp_path / "cartao.pdf")
    decoded = decode_qr(render_png(path, 2, 600, tmp_path))
    assert decoded == [ilha_doc.qr_text]
    result = verify_text(decoded[0], key_dir, today=TODAY)
    assert result.status == "valid"
    assert result.summary.holder_name == "Maria Aparecida dos Santos Oliveira"
    assert result.summary.number == "2026/000087"
    # a plain office print (150 dpi) still reads
    assert decode_qr(render_png(path, 2, 150, tmp_path)) == [ilha_doc.qr_text]


def test_qr_is_vector(qapp, ilha_doc, tmp_path):
    """The QR is drawn as filled paths, not as an embedded image."""
    from reports.permit_docs import write_id_card_pdf

    doc = dataclasses.replace(ilha_doc, photo_path=None)
    raw = write_id_card_pdf(doc, tmp_path / "cartao.pdf").read_bytes()
    assert b"/Subtype /Image" not in raw


# --------------------------------------------------------------------------- placard


@needs_pdftotext
def test_placard_sao_bento(qapp, sao_bento, sao_bento_doc, tmp_path):
    from reports.permit_docs import write_placard_pdf

    path = write_placard_pdf(sao_bento_doc, tmp_path / "placa.pdf", sao_bento)
    ((width, height),) = media_boxes_mm(path)
    assert abs(width - 650) <= 0.5 and abs(height - 450) <= 0.5  # at least 0,65 × 0,45 m
    text = " ".join(pdf_text(path, squash="spaces").split())  # where the name wraps depends on the fonts installed
    # Dec. 4.794/2026, art. 4º, parágrafo único: company name, CNPJ, municipal registration
    for expected in (
        "PASTELARIA SERRA DA MANTIQUEIRA LTDA",
        "CNPJ 12.345.678/0001-95",
        "CADASTRO MUNICIPAL Nº 12.345",
        "Dec. 4.794/2026, art. 4º, parágrafo único",
    ):
        assert expected in text, expected


@needs_pdftotext
def test_the_placard_carries_the_coat_of_arms(qapp, sao_bento, sao_bento_doc, tmp_path):
    """Issue 31 §1: the placard's foot is headed with the municipality's coat of arms, as the permit and the card."""
    from factories import arms_png, pdf_images

    from reports.permit_docs import write_placard_pdf

    plain = pdf_images(write_placard_pdf(sao_bento_doc, tmp_path / "sem.pdf", sao_bento))
    with_arms = dataclasses.replace(sao_bento_doc, coat_of_arms=arms_png())
    shown = pdf_images(write_placard_pdf(with_arms, tmp_path / "placa.pdf", sao_bento))
    assert len(shown) == len(plain) + 1


@needs_pdftoppm
def test_placard_is_black_on_white(qapp, sao_bento, sao_bento_doc, tmp_path):
    from PySide6.QtGui import QImage

    from reports.permit_docs import write_placard_pdf

    path = write_placard_pdf(sao_bento_doc, tmp_path / "placa.pdf", sao_bento)
    image = QImage(str(render_png(path, 1, 20, tmp_path)))
    assert not image.isNull()
    colours = set()
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            colours.add((c.red(), c.green(), c.blue()))
    assert all(r == g == b for r, g, b in colours), "only white, black and anti-aliasing greys"
    assert (255, 255, 255) in colours and min(r for r, _g, _b in colours) < 40
    corner = image.pixelColor(1, 1)
    assert (corner.red(), corner.green(), corner.blue()) == (255, 255, 255)


@needs_pdftotext
def test_placard_grows_when_the_regime_asks_for_more(qapp, sao_bento, sao_bento_doc, tmp_path):
    from reports.permit_docs import write_placard_pdf

    bigger = dataclasses.replace(
        sao_bento, placard=dataclasses.replace(sao_bento.placard, min_width=Decimal("0.80"), min_height=Decimal("0.60"))
    )
    ((width, height),) = media_boxes_mm(write_placard_pdf(sao_bento_doc, tmp_path / "placa.pdf", bigger))
    assert abs(width - 800) <= 0.5 and abs(height - 600) <= 0.5


def test_placard_requires_what_the_act_lists(qapp, sao_bento, sao_bento_doc, tmp_path):
    from reports.permit_docs import write_placard_pdf

    with pytest.raises(UserError, match=r"CNPJ.*art\. 4º, parágrafo único"):
        write_placard_pdf(dataclasses.replace(sao_bento_doc, cnpj=""), tmp_path / "a.pdf", sao_bento)
    with pytest.raises(UserError, match="Cadastro Municipal"):
        write_placard_pdf(dataclasses.replace(sao_bento_doc, municipal_registration=""), tmp_path / "b.pdf", sao_bento)
    assert not (tmp_path / "a.pdf").exists() and not (tmp_path / "b.pdf").exists()


def test_placard_needs_a_regime_with_a_placard(qapp, sapezal_doc, tmp_path):
    from reports.permit_docs import write_placard_pdf

    with pytest.raises(UserError, match="não prevê placa"):
        write_placard_pdf(sapezal_doc, tmp_path / "placa.pdf", get_regime("sjc-2014"))


@needs_pdftotext
def test_placard_follows_the_regime_contents(qapp, sapezal_doc, tmp_path):
    """Sapezal's regime lists holder name and line (Lei 1.171/2014, arts. 21–22) and no minimum size."""
    from reports.permit_docs import write_placard_pdf

    regime = get_regime("sapezal-2014")
    path = write_placard_pdf(sapezal_doc, tmp_path / "placa.pdf", regime)
    ((width, height),) = media_boxes_mm(path)
    assert abs(width - 650) <= 0.5 and abs(height - 450) <= 0.5
    text = " ".join(pdf_text(path, squash="spaces").split())  # lines wrap beside the QR every signed placard has
    assert "JOSÉ CARLOS PEREIRA" in text
    assert "Cachorro-quente, lanches e sucos naturais" in text
    assert "CNPJ" not in text  # not asked for by this regime
    assert "Lei 1.171/2014, art. 21; art. 22" in text


@needs_pdftoppm
@needs_zbar
def test_placard_with_photo_and_qr(qapp, sao_bento, sao_bento_doc, photo, key_dir, tmp_path):
    """A regime may ask for the photo and the QR on the placard too; the QR still reads from afar (40 dpi)."""
    from reports.permit_docs import write_placard_pdf

    regime = dataclasses.replace(
        sao_bento,
        placard=dataclasses.replace(
            sao_bento.placard, contents=("company-name", "cnpj", "municipal-registration", "photo", "qr-code")
        ),
    )
    with pytest.raises(UserError, match="foto"):
        write_placard_pdf(sao_bento_doc, tmp_path / "sem-foto.pdf", regime)
    path = write_placard_pdf(dataclasses.replace(sao_bento_doc, photo_path=photo), tmp_path / "placa.pdf", regime)
    decoded = decode_qr(render_png(path, 1, 40, tmp_path))
    assert decoded == [sao_bento_doc.qr_text]
    assert verify_text(decoded[0], key_dir, today=TODAY).status == "valid"


def test_long_date_and_state_names():
    from reports.permit_docs import STATE_NAMES, long_date_br

    assert long_date_br(dt.date(2026, 3, 1)) == "1 de março de 2026"
    assert len(STATE_NAMES) == 27 and STATE_NAMES["MT"] == "Mato Grosso"


# --------------------------------------------------------------------------- issue 32 §2: read at 100 dpi

LONG_ADDRESS = "https://www.prefeituradesaobentodosapucai.sp.gov.br/servicos/verificar.html#"


@needs_pdftoppm
@needs_zbar
@pytest.mark.parametrize("address", ["", LONG_ADDRESS], ids=["texto", "endereço"])
@pytest.mark.parametrize(
    ("document", "fixture"),
    [
        ("permit", "ilha_doc"),
        ("permit", "sao_bento_doc"),
        ("card", "ilha_doc"),
        ("card", "sapezal_doc"),
        ("placard", "sapezal_doc"),
        ("placard", "sao_bento_doc"),
    ],
)
def test_every_printed_qr_reads_at_100_dpi(qapp, request, key_dir, tmp_path, document, fixture, address):
    """Permit, card and placard — the placard even where the act does not ask for a QR, so that the public can
    verify the stall — decode with zbar from the PDF rendered at 100 dpi (an ordinary scan or a phone's view),
    with and without the verification address; what they decode verifies."""
    from models.access.signing import signed_text
    from reports.permit_docs import write_id_card_pdf, write_permit_pdf, write_placard_pdf

    doc = request.getfixturevalue(fixture)
    doc = dataclasses.replace(doc, qr_text=address + doc.qr_text)
    if document == "permit":
        path, page = write_permit_pdf(doc, tmp_path / "permissao.pdf"), 1
    elif document == "card":
        path, page = write_id_card_pdf(doc, tmp_path / "cartao.pdf"), 2
    else:
        path, page = write_placard_pdf(doc, tmp_path / "placa.pdf", get_regime(doc.regime_id)), 1
    decoded = decode_qr(render_png(path, page, 100, tmp_path))
    assert decoded == [doc.qr_text]
    assert signed_text(decoded[0]).startswith("PRACA3.")
    assert verify_text(decoded[0], key_dir, today=TODAY).status == "valid"


def test_the_permit_qr_modules_are_at_least_0_4_mm(ilha_doc):
    """The A4 permit's QR grows with its text: every module at least 0,4 mm (it was 0,33 mm in 27 mm)."""
    from reports.permit_docs import qr_modules
    from reports.permit_docs.permit import PERMIT_QR_QUIET, permit_qr_mm

    for text in (ilha_doc.qr_text, LONG_ADDRESS + ilha_doc.qr_text):
        doc = dataclasses.replace(ilha_doc, qr_text=text)
        assert permit_qr_mm(doc) / (len(qr_modules(text)) + 2 * PERMIT_QR_QUIET) >= 0.4
