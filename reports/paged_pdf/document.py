"""The document: page set-up from the HTML, the fonts embedded, the builder and the 'Página N de M' pages."""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass
from pathlib import Path

from models.store.outfile import atomic_writer
from reports.paged_pdf.chart import svg_drawing
from reports.paged_pdf.inline import fitted_style, inline, looked_markup
from reports.paged_pdf.tables import Row, rows_table_class
from reports.paged_pdf.tree import (
    BOLD,
    DARK,
    FACES,
    FONT,
    FONTS,
    HEAD_LIGHT,
    MM,
    TOTAL_BG,
    Node,
    Progress,
    parse,
    walk_tag,
)

# --------------------------------------------------------------------------- the document


@dataclass
class PageSetup:
    margins: tuple  # top, right, bottom, left in points
    annex_margins: tuple | None
    footer: str


def _page_setup(root: Node) -> PageSetup:
    css = " ".join(s.text() for s in walk_tag(root, "style"))

    def margins(rule: str):
        m = re.search(rule + r"\s*\{[^{}]*?margin:\s*([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm", css)
        return tuple(float(v) * MM for v in m.groups()) if m else None

    foot = re.search(r'@bottom-left\s*\{\s*content:\s*"([^"]*)"', css)
    return PageSetup(
        margins(r"@page") or (15 * MM,) * 4, margins(r"@page annex"), htmllib.unescape(foot.group(1)) if foot else ""
    )


def register_fonts() -> None:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, file in FACES:
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, BOLD)
    addMapping(FONT, 0, 1, "DejaVuSans-Oblique")
    addMapping(FONT, 1, 1, "DejaVuSans-BoldOblique")
    # no base-14 face in the file, all of them unembedded: a page's first font (the canvas's) and a drawing's
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = FONT


class _Builder:
    def __init__(self, setup: PageSetup, width: float, annex_width: float, receipt: bool) -> None:
        from reportlab.lib.styles import ParagraphStyle

        self.width, self.annex_width, self.receipt = width, annex_width, receipt
        size = 10 if receipt else 8.5
        self.body = ParagraphStyle(
            "body", fontName=FONT, fontSize=size, leading=size * 1.25, textColor="#222222", spaceAfter=4
        )
        self.h1 = ParagraphStyle(
            "h1",
            parent=self.body,
            fontName=BOLD,
            fontSize=15 if receipt else 16,
            leading=20,
            textColor="#222222" if receipt else DARK,
            spaceBefore=6,
            spaceAfter=4,
        )
        self.h2 = ParagraphStyle(
            "h2",
            parent=self.body,
            fontName=BOLD,
            fontSize=11,
            leading=14,
            textColor="#222222" if receipt else DARK,
            spaceBefore=10,
            spaceAfter=4,
            borderPadding=(0, 0, 2, 0),
        )
        self.cell_cache: dict = {}
        self.annex = False

    # ---- blocks
    def flowables(self, body: Node) -> list:
        from reportlab.platypus import NextPageTemplate, PageBreak

        out: list = []
        pending: list = []  # headings and their notes waiting for what follows

        def emit(f, keep=False):
            if keep:
                pending.append(f)
                return
            if pending and getattr(f, "_takes_lead", False):
                f.lead = pending[:]
                out.append(f)
            elif pending:
                from reportlab.platypus import KeepTogether

                out.append(KeepTogether([*pending, f]))
            else:
                out.append(f)
            pending.clear()

        prev = None
        for c in body.children:
            if not isinstance(c, Node):
                continue
            if c.tag == "div" and "annex" in c.classes:
                for f in pending:
                    out.append(f)
                pending.clear()
                out += [NextPageTemplate("annex"), PageBreak()]
                self.annex = True
                sub = self.flowables(c)
                out += sub
                self.annex = False
            elif c.tag == "div" and "chart" in c.classes:
                svg = next(walk_tag(c, "svg"), None)
                if svg is not None:
                    emit(svg_drawing(svg, self.frame_width))
            elif c.tag in ("h1", "h2"):
                emit(self.heading(c), keep=True)
            elif c.tag in ("p", "div") and "foot" in c.classes and not pending and out:
                # a closing note stays with what comes before it: never alone on a page (issue 32 §3)
                last = out[-1]
                if getattr(last, "_takes_lead", False):
                    last.tail.append(self.paragraph(c))
                else:
                    from reportlab.platypus import KeepTogether

                    out[-1] = KeepTogether([last, self.paragraph(c)])
            elif c.tag in ("p", "div"):
                keep = prev is not None and prev.tag == "h2" and "note" in c.classes
                emit(self.paragraph(c), keep=keep)
            elif c.tag == "table":
                emit(self.table(c))
            prev = c
        out += pending
        return out

    @property
    def frame_width(self) -> float:
        return self.annex_width if self.annex else self.width

    def heading(self, node: Node):
        from reportlab.platypus import Paragraph

        style = self.h1 if node.tag == "h1" else self.h2
        p = Paragraph(inline(node), style)
        if node.tag == "h2":
            p = _underlined(p, "#555555" if self.receipt else DARK)
        return p

    def paragraph(self, node: Node):
        from reportlab.platypus import Paragraph

        markup = looked_markup(node.classes, inline(node))
        style = self.body
        if "foot" in node.classes:
            from reportlab.lib.styles import ParagraphStyle

            style = ParagraphStyle("foot", parent=self.body, spaceBefore=12, borderPadding=(4, 0, 0, 0))
            return _underlined(Paragraph(markup, style), "#b9c6bd", above=True)
        return Paragraph(markup, fitted_style(style, markup))

    # ---- tables
    def table(self, node: Node):
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.pdfbase.pdfmetrics import stringWidth
        from reportlab.platypus import Paragraph

        classes = node.classes
        grid = "grid" in classes or node.attrs.get("border") == "1"
        listing = "list" in classes
        size = 7.5 if listing else (9 if self.receipt else 8.5)
        pad = 2 if listing else 3
        trs = list(walk_tag(node, "tr"))
        ncols = max(
            (sum(int(td.attrs.get("colspan", 1)) for td in tr.children if isinstance(td, Node)) for tr in trs),
            default=1,
        )
        # column widths: the first row that gives them (percent of the frame), the rest shared equally
        total = self.frame_width
        widths: list = [None] * ncols
        for tr in trs:
            col = 0
            for td in tr.children:
                if not isinstance(td, Node):
                    continue
                w = td.attrs.get("width", "")
                if w.endswith("%") and int(td.attrs.get("colspan", 1)) == 1 and widths[col] is None:
                    widths[col] = total * float(w[:-1]) / 100
                col += int(td.attrs.get("colspan", 1))
        free = [i for i, w in enumerate(widths) if w is None]
        if free:
            left = max(total - sum(w for w in widths if w is not None), 20.0 * len(free))
            for i in free:
                widths[i] = left / len(free)
        if "masthead" in classes:
            widths = [total / ncols] * ncols
        scale = min(1.0, total / sum(widths))
        widths = [w * scale for w in widths]

        style = ParagraphStyle(f"cell{size}", fontName=FONT, fontSize=size, leading=size * 1.22, textColor="#222222")
        aligned: dict[tuple[str, str | None, bool], ParagraphStyle] = {}

        def pstyle(align: str, colour: str | None, bold: bool):
            key = (align, colour, bold)
            s = aligned.get(key)
            if s is None:
                s = aligned[key] = ParagraphStyle(
                    f"c{size}{key}",
                    parent=style,
                    alignment={"right": 2, "center": 1}.get(align, 0),
                    textColor=colour or style.textColor,
                    fontName=BOLD if bold else FONT,
                    splitLongWords=align != "right",
                )  # an amount stays whole
            return s

        header: Row | None = None
        rows: list[Row] = []
        heights = self.cell_cache
        for tr in trs:
            tds = [td for td in tr.children if isinstance(td, Node) and td.tag in ("td", "th")]
            is_head = bool(tds) and all(td.tag == "th" for td in tds)
            row_classes = tr.attrs.get("class", "").split()
            colour = "#b00020" if "late" in row_classes else ("#595959" if "cancelled" in row_classes else None)
            if is_head:
                colour = "#ffffff" if grid and not self.receipt and "grid" in classes else "#222222"
            bold = is_head or "total" in row_classes
            cells, cmds, col, height = [], [], 0, 0.0
            for td in tds:
                span = int(td.attrs.get("colspan", 1))
                width = sum(widths[col : col + span]) - 2 * pad
                align = td.attrs.get("align") or ("right" if "num" in td.classes else "left")
                markup = looked_markup(td.classes, inline(td))
                if "num" in td.classes:  # white-space: nowrap — an amount is never broken at its space
                    markup = re.sub(r" (?![^<]*>)", "\u00a0", markup)
                if "cancelled" in row_classes and markup:
                    markup = f"<strike>{markup}</strike>"
                plain = "<" not in markup and "&" not in markup
                font = BOLD if bold else FONT
                if plain and stringWidth(markup, font, size) <= width:
                    cells.append(markup)
                    cmds += [("FONT", (col, 0), (col, 0), font, size), ("ALIGN", (col, 0), (col, 0), align.upper())]
                    if colour:
                        cmds.append(("TEXTCOLOR", (col, 0), (col, 0), colour))
                    h = size * 1.22
                else:
                    p = Paragraph(markup, fitted_style(pstyle(align, colour, bold), markup))
                    key = (markup, width, align, colour, bold)
                    cached = heights.get(key)
                    if cached is None:
                        cached = heights[key] = p.wrap(width, 10**6)[1]
                    h = cached
                    cells.append(p)
                if span > 1:
                    cmds.append(("SPAN", (col, 0), (col + span - 1, 0)))
                    cells += [""] * (span - 1)
                height = max(height, h)
                col += span
            cells += [""] * (ncols - len(cells))
            if is_head and grid:
                cmds.append(("BACKGROUND", (0, 0), (-1, 0), DARK if "grid" in classes else HEAD_LIGHT))
            elif is_head:
                cmds.append(("BACKGROUND", (0, 0), (-1, 0), HEAD_LIGHT))
            if "total" in row_classes:
                cmds.append(("BACKGROUND", (0, 0), (-1, 0), TOTAL_BG))
            row = Row(cells, height + 2 * pad + 1, cmds)
            if is_head and header is None and not rows:
                header = row
            else:
                rows.append(row)
        base = [
            ("FONT", (0, 0), (-1, -1), FONT, size),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), pad),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
        ]
        if grid:
            base.append(("GRID", (0, 0), (-1, -1), 0.5, DARK if "grid" in classes else "#555555"))
        elif "figures" in classes:
            base.append(("LINEBELOW", (0, 0), (-1, -1), 0.5, "#d5ddd7"))
        f = rows_table_class()(widths, header, rows, base)
        f._takes_lead = True
        return f


def _underlined_class():
    from reportlab.platypus import Flowable

    class Underlined(Flowable):
        """A paragraph with a rule under it (h2's border-bottom) or above it (the report's foot)."""

        def __init__(self, inner, colour, above=False):
            super().__init__()
            self.inner, self.colour, self.above = inner, colour, above

        def wrap(self, aw, ah):
            self.width = aw
            _w, self.height = self.inner.wrap(aw, ah)
            self.height += 3
            return aw, self.height

        def getSpaceBefore(self):  # noqa: N802 - ReportLab's name
            return self.inner.getSpaceBefore()

        def getSpaceAfter(self):  # noqa: N802 - ReportLab's name
            return self.inner.getSpaceAfter()

        def draw(self):
            self.inner.drawOn(self.canv, 0, 0 if self.above else 3)
            self.canv.setStrokeColor(self.colour)
            self.canv.setLineWidth(0.75)
            y = self.height if self.above else 1
            self.canv.line(0, y, self.width, y)

    return Underlined


def _underlined(inner, colour, above=False):
    return _underlined_class()(inner, colour, above)


def _numbered_canvas(footer: str):
    from reportlab.pdfgen.canvas import Canvas

    class NumberedCanvas(Canvas):
        """Keeps each page until the end, then writes them with "Página N de M" and the footer's text."""

        def __init__(self, *args, **kwargs):
            kwargs["initialFontName"] = FONT
            super().__init__(*args, **kwargs)
            self._saved: list[dict] = []

        def showPage(self):  # noqa: N802 - ReportLab's name
            self._saved.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._saved)
            for number, state in enumerate(self._saved, start=1):
                self.__dict__.update(state)
                width, _height = self._pagesize
                margin = self._praca_margins
                self.setFont(FONT, 7)
                self.setFillColor("#4d4d4d")
                y = margin[2] / 2
                first, _newline, second = footer.partition("\\A")  # CSS's line break in the @page foot
                if first:
                    self.drawString(margin[3], y, first)
                if second:  # the audit trail's checkpoint, under the place and title
                    self.drawString(margin[3], y - 8, second)
                self.drawRightString(width - margin[1], y, f"Página {number} de {total}")
                Canvas.showPage(self)
            Canvas.save(self)

    return NumberedCanvas


@atomic_writer("path", kind="pdf")
def write_html_pdf(html: str, path: str | Path, *, progress: Progress | None = None) -> Path:
    """Lay ``html`` out on A4 pages (landscape from its ``div.annex``) and write it to ``path``.

    ``progress(done, 2)``: before the layout, after building it, after writing — it may raise to stop between."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    path = Path(path)
    if progress is not None:
        progress(0, 2)
    register_fonts()
    root = parse(html)
    setup = _page_setup(root)
    title = next((t.text().strip() for t in walk_tag(root, "title")), "")
    body = next(walk_tag(root, "body"), root)
    top, right, bottom, left = setup.margins
    a_top, a_right, a_bottom, a_left = setup.annex_margins or setup.margins
    portrait, wide = A4, landscape(A4)

    def mark(margins):
        def on_page(canvas, _doc):
            canvas._praca_margins = margins

        return on_page

    frames = {
        "page": Frame(
            left,
            bottom,
            portrait[0] - left - right,
            portrait[1] - top - bottom,
            id="page",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        ),
        "annex": Frame(
            a_left,
            a_bottom,
            wide[0] - a_left - a_right,
            wide[1] - a_top - a_bottom,
            id="annex",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        ),
    }
    builder = _Builder(setup, frames["page"]._width, frames["annex"]._width, receipt="masthead" not in html)
    story = builder.flowables(body)
    if progress is not None:
        progress(1, 2)
    doc = BaseDocTemplate(
        str(path),
        pagesize=portrait,
        title=title,
        author="Praça",
        creator="Praça",
        lang="pt-BR",
        pageTemplates=[
            PageTemplate(
                "page", [frames["page"]], pagesize=portrait, onPage=mark(setup.margins), autoNextPageTemplate="page"
            ),
            PageTemplate(
                "annex",
                [frames["annex"]],
                pagesize=wide,
                onPage=mark(setup.annex_margins or setup.margins),
                autoNextPageTemplate="annex",
            ),
        ],
    )
    doc.build(story, canvasmaker=_numbered_canvas(setup.footer))
    if progress is not None:
        progress(2, 2)
    return path
