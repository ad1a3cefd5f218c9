"""A cell's or a paragraph's inline markup in platypus' own tags: bold, italics, classes that set a look."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape as xml_escape

from reports.paged_pdf.tree import CLASS_LOOK, Node

# --------------------------------------------------------------------------- inline markup


def looked_markup(classes, markup: str) -> str:
    for name in classes:
        look = CLASS_LOOK.get(name)
        if look is None:
            continue
        size, colour, bold = look
        if bold:
            markup = f"<b>{markup}</b>"
        attrs = (f' size="{size}"' if size else "") + (f' color="{colour}"' if colour else "")
        if attrs:
            markup = f"<font{attrs}>{markup}</font>"
    return markup


def _image(node: Node) -> str:
    """An ``<img>`` (the coat of arms on a letterhead) as platypus' inline image on a line of its own, ``height``
    CSS pixels tall and as wide as its proportions say; nothing when it cannot be read. (The paragraph that holds
    it grows to it: :func:`fitted_style`.)"""
    from reportlab.lib.utils import ImageReader

    src = node.attrs.get("src", "")
    try:
        width, height = ImageReader(src).getSize()
        tall = float(node.attrs.get("height", 48)) * 0.75  # CSS px → pt
    except Exception:  # a picture that does not load leaves the text as it is
        return ""
    wide = tall * width / height if height else tall
    return f'<img src="{xml_escape(src)}" width="{wide:.1f}" height="{tall:.1f}"/><br/>'


def fitted_style(style, markup: str):
    """``style``, or — for a paragraph holding an image — a copy whose lines grow to what they hold."""
    if "<img " not in markup:
        return style
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle(f"{style.name}-img", parent=style, autoLeading="max")


def inline(node: Node) -> str:
    """``node``'s content as platypus paragraph markup; block children end with a line break."""
    out = []
    for c in node.children:
        if isinstance(c, str):
            out.append(xml_escape(re.sub(r"\s+", " ", c)))
        elif c.tag == "br":
            out.append("<br/>")
        elif c.tag == "img":
            out.append(_image(c))
        elif c.tag in ("b", "strong"):
            out.append(f"<b>{inline(c)}</b>")
        elif c.tag in ("i", "em"):
            out.append(f"<i>{inline(c)}</i>")
        elif c.tag in ("div", "p"):
            out.append(looked_markup(c.classes, inline(c).strip()) + "<br/>")
        else:
            out.append(looked_markup(c.classes, inline(c)))
    text = "".join(out)
    while text.endswith("<br/>"):
        text = text[:-5]
    return text.strip()
