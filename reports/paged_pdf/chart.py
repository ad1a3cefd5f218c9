"""The report's SVG bar chart drawn as a platypus drawing, in vector."""

from __future__ import annotations

from reports.paged_pdf.tree import FONT, Node

# --------------------------------------------------------------------------- the chart


def svg_drawing(svg: Node, width: float):
    """The bar chart's SVG (reports/fee_report_html.py: rect, line, text) as a drawing ``width`` wide."""
    from reportlab.graphics.shapes import Drawing, Group, Line, Rect, String
    from reportlab.lib.colors import HexColor

    w, h = float(svg.attrs.get("width", 680)), float(svg.attrs.get("height", 260))
    base = float(svg.attrs.get("font-size", 10))
    group = Group()
    for el in svg.children:
        if not isinstance(el, Node):
            continue
        a = el.attrs
        if el.tag == "rect":
            x, y = float(a.get("x", 0)), float(a.get("y", 0))
            rw, rh = float(a.get("width", 0)), float(a.get("height", 0))
            group.add(Rect(x, h - y - rh, rw, rh, fillColor=HexColor(a.get("fill", "#000000")), strokeColor=None))
        elif el.tag == "line":
            group.add(
                Line(
                    float(a["x1"]),
                    h - float(a["y1"]),
                    float(a["x2"]),
                    h - float(a["y2"]),
                    strokeColor=HexColor(a.get("stroke", "#000000")),
                    strokeWidth=float(a.get("stroke-width", 1)),
                )
            )
        elif el.tag == "text":
            anchor = a.get("text-anchor", "start")
            group.add(
                String(
                    float(a["x"]),
                    h - float(a["y"]),
                    el.text(),
                    fontName=FONT,
                    fontSize=float(a.get("font-size", base)),
                    textAnchor=anchor,
                    fillColor=HexColor(a.get("fill", "#222222")),
                )
            )
    scale = min(1.0, width / w)
    group.transform = (scale, 0, 0, scale, 0, 0)
    drawing = Drawing(w * scale, h * scale)
    drawing.add(group)
    return drawing
