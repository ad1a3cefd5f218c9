"""The documents' HTML read into a small tree of nodes (the templates' own subset of HTML)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import resources

FONTS = Path(resources.__file__).resolve().parent / "fonts"
FACES = (
    ("DejaVuSans", "DejaVuSans.ttf"),
    ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf"),
    ("DejaVuSans-Oblique", "DejaVuSans-Oblique.ttf"),
    ("DejaVuSans-BoldOblique", "DejaVuSans-BoldOblique.ttf"),
)
FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
MM = 72 / 25.4

Progress = Callable[[int, int], None]

# the look of report_common.html.j2 and receipt.html.j2: size (pt), colour, bold — per class
CLASS_LOOK = {
    "agency": (12, "#1f4f45", True),
    "place": (10, "#1f4f45", False),
    "small": (7, "#555555", False),
    "note": (7, "#555555", False),
    "foot": (7, "#555555", False),
    "muted": (None, "#595959", False),
    "late": (None, "#b00020", False),
    "missing": (None, "#b00020", False),
    "big": (11, None, True),
    "month": (11, None, False),
}
DARK, GRID, HEAD_LIGHT, TOTAL_BG = "#1f4f45", "#c9d3cc", "#e9efe9", "#e9efe9"


# --------------------------------------------------------------------------- HTML to a small tree


@dataclass
class Node:
    tag: str
    attrs: dict = field(default_factory=dict)
    children: list = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def find(self, tag: str) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node) and c.tag == tag]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


VOID = {"br", "meta", "rect", "line", "img", "hr"}


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    tree = _Tree()
    tree.feed(str.__str__(html))  # a plain str: jinja's Markup would escape what the parser puts together
    tree.close()
    return tree.root


def walk_tag(node: Node, tag: str):
    for c in node.children:
        if isinstance(c, Node):
            if c.tag == tag:
                yield c
            yield from walk_tag(c, tag)
