"""The guia (DAM — Documento de Arrecadação Municipal) as a PDF: the municipality's letterhead, the payer, the
charges with their act and article, the due date and amount, the linha digitável, the FEBRABAN barcode drawn as
Interleaved 2 of 5 at the size banks read (narrow bar 0,254 mm, ratio 1:3, 13 mm high — 103 mm for 44 digits)
and the static Pix QR with its copia-e-cola text."""

from __future__ import annotations

from pathlib import Path

from models.base.br import format_cnpj, format_cpf
from models.base.money import format_brl
from models.billing.charges.steps import date_text
from models.billing.collection import codes
from models.billing.collection.guias import guia_lines
from models.billing.collection.tables import Guia
from models.registry.municipality import letterhead
from models.rules.regimes import get_regime
from models.store.outfile import atomic_writer
from reports.paged_pdf import BOLD, FONT, register_fonts

MM = 72 / 25.4
NARROW_BAR = 0.254 * MM
BAR_HEIGHT = 13 * MM


def _document(doc: str) -> str:
    if len(doc) == 11:
        return f"CPF {format_cpf(doc)}"
    if len(doc) == 14:
        return f"CNPJ {format_cnpj(doc)}"
    return doc


def _address(guia: Guia) -> str:
    holder = guia.person if guia.person_id else (guia.company if guia.company_id else None)
    if holder is None:
        return ""
    parts = [", ".join(p for p in (holder.street, holder.number) if p), holder.district]
    place = "/".join(p for p in (holder.city, holder.state) if p)
    return " — ".join(p for p in (*parts, place) if p)


def _period(period: str) -> str:
    return f"{period[5:7]}/{period[:4]}" if len(period) == 7 else ""


def _qr(canvas, text: str, x: float, y: float, side: float) -> None:
    import segno

    qr = segno.make(text, error="m", micro=False)
    rows = [[bool(v) for v in row] for row in qr.matrix_iter(border=4)]
    unit = side / len(rows)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(x, y, side, side, stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    path = canvas.beginPath()
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                path.rect(x + start * unit, y + side - (r + 1) * unit, (c - start) * unit, unit)
            else:
                c += 1
    canvas.drawPath(path, stroke=0, fill=1)


def _coat_of_arms(c, uri: str, left: float, y: float) -> float:
    """The municipality's coat of arms left of the letterhead's lines; the width it takes (0 without one)."""
    if not uri:
        return 0.0
    from reportlab.lib.utils import ImageReader

    reader = ImageReader(uri)
    width, height = reader.getSize()
    tall = 14 * MM
    wide = tall * width / height if height else tall
    c.drawImage(reader, left, y - 8 * MM, width=wide, height=tall, mask="auto")
    return wide + 4 * MM


@atomic_writer("path")
def write_guia_pdf(guia: Guia, path: str | Path) -> Path:
    from reportlab.graphics.barcode.common import I2of5
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph, Table, TableStyle

    register_fonts()
    regime = get_regime(guia.regime)
    money = regime.currency_on(guia.issued_on)  # the act's own, or reais once a rule of it converts
    head = letterhead(regime)
    width, height = A4
    left = 15 * MM
    inner = width - 2 * left
    c = Canvas(str(path), pagesize=A4)
    c.setTitle(f"Guia {guia.number} — {head['agency']}")
    y = height - 18 * MM
    text_left = left + _coat_of_arms(c, head["coat_of_arms"], left, y)
    c.setFont(BOLD, 13)
    c.drawString(text_left, y, head["agency"])
    c.setFont(FONT, 10)
    place = head["municipality"] + (f" · CNPJ {head['cnpj']}" if head["cnpj"] else "")
    c.drawString(text_left, y - 5 * MM, place)
    y -= 13 * MM
    c.setFont(BOLD, 12)
    c.drawString(left, y, "DAM — Documento de Arrecadação Municipal")
    c.setFont(FONT, 10)
    c.drawString(left, y - 5 * MM, f"Guia nº {guia.number} — emitida em {date_text(guia.issued_on)}")
    y -= 9 * MM
    c.line(left, y, width - left, y)
    y -= 6 * MM
    c.setFont(BOLD, 10)
    c.drawString(left, y, f"Contribuinte: {guia.payer_name}")
    c.setFont(FONT, 10)
    c.drawRightString(width - left, y, _document(guia.payer_document))
    address = _address(guia)
    if address:
        y -= 5 * MM
        c.drawString(left, y, address[:110])
    y -= 8 * MM
    small = ParagraphStyle("small", fontName=FONT, fontSize=8, leading=10)
    bold = ParagraphStyle("bold", parent=small, fontName=BOLD)
    rows = [[Paragraph(t, bold) for t in ("Cobrança", "Descrição e base legal", "Competência", "Vencimento", "Valor")]]
    for line in guia_lines(guia):
        rows.append(
            [
                Paragraph(line.number, small),
                Paragraph(
                    f"{_esc(line.label)}<br/><i>{_esc(line.basis)}</i>"
                    + (f"<br/>{_esc(line.formula)}" if line.formula else ""),
                    small,
                ),
                Paragraph(_period(line.period), small),
                Paragraph(date_text(line.due_on), small),
                Paragraph(format_brl(line.amount, currency=money), small),
            ]
        )
    table = Table(rows, colWidths=[22 * MM, inner - 98 * MM, 26 * MM, 24 * MM, 26 * MM], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, (0.6, 0.6, 0.6)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
            ]
        )
    )
    _w, h = table.wrapOn(c, inner, y)
    table.drawOn(c, left, y - h)
    y -= h + 8 * MM
    c.setFont(BOLD, 12)
    c.drawString(left, y, f"Vencimento: {date_text(guia.due_on)}")
    c.drawRightString(width - left, y, f"Total a pagar: {format_brl(guia.amount, currency=money)}")
    y -= 12 * MM
    c.setFont(BOLD, 11)
    c.drawString(left, y, codes.format_linha(codes.linha_digitavel(guia.barcode)))
    y -= 4 * MM + BAR_HEIGHT
    bars = I2of5(guia.barcode, barWidth=NARROW_BAR, ratio=3, barHeight=BAR_HEIGHT, checksum=0, bearers=0, quiet=1)
    bars.drawOn(c, left - bars.lquiet, y)
    y -= 6 * MM
    c.setFont(FONT, 8)
    c.drawString(left, y, f"Convênio de arrecadação {guia.agreement} — pagável em bancos, lotéricas e correspondentes.")
    if guia.pix:
        y -= 8 * MM
        side = 40 * MM
        _qr(c, guia.pix, left, y - side, side)
        c.setFont(BOLD, 10)
        c.drawString(left + side + 6 * MM, y - 6 * MM, "Pague com Pix: leia o QR Code ou use o Pix copia e cola")
        text = c.beginText(left + side + 6 * MM, y - 12 * MM)
        text.setFont(FONT, 7)
        payload = guia.pix
        for i in range(0, len(payload), 70):
            text.textLine(payload[i : i + 70])
        c.drawText(text)
        y -= side
    c.setFont(FONT, 7)
    c.drawString(left, 12 * MM, f"Identificação da guia: {guia.txid} — Praça")
    c.showPage()
    c.save()
    return Path(path)


def _esc(text: str) -> str:
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
