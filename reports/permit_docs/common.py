"""What every printed document shares: page and font, colours, dates in words, the signed QR drawn as vector squares."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import segno
import segno.consts
from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
)

from models.base.br import format_cnpj, format_cpf, month_name
from models.base.errors import UserError
from models.permits.permit_doc import PermitDocument
from reports.qt_fonts import ensure_gui_app

CARD_WIDTH_MM = 85.6
CARD_HEIGHT_MM = 53.98
PLACARD_DEFAULT_MM = (650.0, 450.0)  # Dec. 4.794/2026, art. 4º, parágrafo único: "no mínimo 0,65 × 0,45"
A4_MARGINS_MM = (18.0, 16.0, 18.0, 14.0)  # left, top, right, bottom (bottom without the footer)
FOOTER_MM = 9.0

INK = QColor("#1b1b1b")
BRAND = QColor("#1f4f45")
BRAND_LIGHT = QColor("#e9efe9")
ACCENT = QColor("#c9a227")
MUTED = QColor("#5b6660")

SANS = ["DejaVu Sans", "Liberation Sans", "Arial"]  # the first shipped and registered (reports/qt_fonts.py)

STATE_NAMES = {
    "AC": "Acre",
    "AL": "Alagoas",
    "AP": "Amapá",
    "AM": "Amazonas",
    "BA": "Bahia",
    "CE": "Ceará",
    "DF": "Distrito Federal",
    "ES": "Espírito Santo",
    "GO": "Goiás",
    "MA": "Maranhão",
    "MT": "Mato Grosso",
    "MS": "Mato Grosso do Sul",
    "MG": "Minas Gerais",
    "PA": "Pará",
    "PB": "Paraíba",
    "PR": "Paraná",
    "PE": "Pernambuco",
    "PI": "Piauí",
    "RJ": "Rio de Janeiro",
    "RN": "Rio Grande do Norte",
    "RS": "Rio Grande do Sul",
    "RO": "Rondônia",
    "RR": "Roraima",
    "SC": "Santa Catarina",
    "SP": "São Paulo",
    "SE": "Sergipe",
    "TO": "Tocantins",
}
# The colours a regime may name for a placard (pt-BR, either gender), or "#RRGGBB".
_COLOURS = {
    "branca": "#ffffff",
    "branco": "#ffffff",
    "preta": "#000000",
    "preto": "#000000",
    "amarela": "#ffd400",
    "amarelo": "#ffd400",
    "azul": "#0b3d91",
    "verde": "#0b6e3a",
    "vermelha": "#c8102e",
    "vermelho": "#c8102e",
    "cinza": "#808080",
    "laranja": "#f28c00",
}

# --------------------------------------------------------------------------- small helpers


def long_date_br(value: dt.date | dt.datetime) -> str:
    """``"27 de março de 2026"``."""
    return f"{value.day} de {month_name(value.month)} de {value.year}"


def state_name(uf: str) -> str:
    return STATE_NAMES.get((uf or "").upper(), uf or "")


def document_title(doc: PermitDocument) -> str:
    return f"{doc.instrument.upper()} Nº {doc.number}"


def short_instrument(instrument: str) -> str:
    """A label that fits under the card's photo: "ALVARÁ", "LICENÇA", "TPU", "PERMISSÃO DE USO"…"""
    text = (instrument or "").strip()
    if text.lower().startswith("termo de permissão de uso"):
        return "TPU"
    return (text if len(text) <= 18 else text.split()[0]).upper()


def holder_document_line(doc: PermitDocument) -> list[tuple[str, str]]:
    rows = []
    if doc.cpf:
        rows.append(("CPF", format_cpf(doc.cpf)))
    if doc.cnpj:
        rows.append(("CNPJ", format_cnpj(doc.cnpj)))
    return rows


def make_font(point_size: float, *, bold: bool = False, families: Sequence[str] = SANS) -> QFont:
    font = QFont()
    font.setFamilies(list(families))
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def doc_colour(name: str | None, default: str) -> QColor:
    if not name:
        return QColor(default)
    key = name.strip().lower()
    if key.startswith("#") and QColor.isValidColorName(key):
        return QColor(key)
    if key in _COLOURS:
        return QColor(_COLOURS[key])
    raise UserError(f"Cor '{name}' da placa não reconhecida (use branca, preta, amarela… ou #RRGGBB).", field="placard")


class PageBox:
    """Millimetre ↔ device-pixel conversions for one ``QPdfWriter``."""

    def __init__(self, writer: QPdfWriter):
        self.dpi = writer.resolution()

    def mm(self, value: float) -> float:
        return value * self.dpi / 25.4

    def rect(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(self.mm(x), self.mm(y), self.mm(w), self.mm(h))


def pdf_writer(
    path: Path, width_mm: float, height_mm: float, title: str, *, resolution: int = 1200, name: str = ""
) -> QPdfWriter:
    ensure_gui_app()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = QPdfWriter(str(path))
    size = QPageSize(QSizeF(width_mm, height_mm), QPageSize.Unit.Millimeter, name, QPageSize.SizeMatchPolicy.ExactMatch)
    writer.setPageLayout(QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    writer.setResolution(resolution)
    writer.setTitle(title)
    writer.setCreator("Praça")
    return writer


def begin_painting(writer: QPdfWriter, path: Path) -> QPainter:
    painter = QPainter()
    if not painter.begin(writer):
        raise UserError(f"Não foi possível gravar o PDF em {path}.", field="path")
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    return painter


# --------------------------------------------------------------------------- QR


def qr_segments(text: str) -> str | list[tuple[str, int]]:
    """A verification address ``https://…#PRACA2.…`` as two segments: the address in byte mode and the signed
    text in alphanumeric mode (5,5 bits a character instead of 8: the card's QR stays small); any other text
    as it is. A phone's reader joins the segments into one address."""
    head, sep, tail = text.partition("#")
    if sep and tail and set(tail) <= _QR_ALPHANUMERIC:
        return [(head + sep, segno.consts.MODE_BYTE), (tail, segno.consts.MODE_ALPHANUMERIC)]
    return text


_QR_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


def qr_modules(text: str, error: str = "m") -> list[list[bool]]:
    """The QR symbol of ``text`` as rows of dark (True) / light modules, without the quiet zone."""
    # segno takes a list of (content, mode) segments too; its annotations name only a single content
    qr = segno.make(qr_segments(text), error=error, micro=False)  # type: ignore[arg-type]
    return [[bool(v) for v in row] for row in qr.matrix_iter(border=0)]


#: The module of the QRs Praça sizes to their text (issue 32 §2): at 0,55 mm a module is 2,2 pixels of a 100 dpi
#: scan, which zbar reads with the verification address too; at 0,33 mm the A4 permit's QR needed 200 dpi, and
#: 0,45–0,5 mm still failed at 100 dpi on the permit.
QR_MODULE_MM = 0.55


def qr_side_mm(text: str, quiet: int, *, at_least: float = 0.0, module_mm: float = QR_MODULE_MM) -> float:
    """The side (mm) of the square :func:`draw_qr` needs for ``text`` with ``quiet`` light modules around it so
    that every module is at least ``module_mm`` wide; never less than ``at_least``."""
    return max(at_least, (len(qr_modules(text)) + 2 * quiet) * module_mm)


def draw_qr(painter: QPainter, rect: QRectF, text: str, *, quiet: int = 4, error: str = "m") -> None:
    """Draw the QR of ``text`` centred in ``rect`` as one vector path of filled squares.

    Horizontal runs of dark modules become one rectangle each and all of them
    one path, so viewers draw no hairline seams between modules. ``quiet``
    light modules are painted around the symbol.
    """
    modules = qr_modules(text, error)
    count = len(modules)
    side = min(rect.width(), rect.height())
    unit = side / (count + 2 * quiet)
    left = rect.x() + (rect.width() - side) / 2 + quiet * unit
    top = rect.y() + (rect.height() - side) / 2 + quiet * unit
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#ffffff"))
    painter.drawRect(QRectF(left - quiet * unit, top - quiet * unit, side, side))
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for y, row in enumerate(modules):
        x = 0
        while x < count:
            if row[x]:
                start = x
                while x < count and row[x]:
                    x += 1
                path.addRect(QRectF(left + start * unit, top + y * unit, (x - start) * unit, unit))
            else:
                x += 1
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.fillPath(path, QColor("#000000"))
    painter.restore()
