"""The offline help (issue 31 §3): resources/help/*.html generated from the Portuguese guides in docs/ajuda/*.md.

``python -m desktop.help_build`` (``make help``) writes them; tests/test_help.py fails when the checked-in pages
are not what the guides give. The Markdown read is the small part the guides use — headings, paragraphs, bullet
and numbered lists, ``**bold**``, ``*italic*``, ``code`` and links (a link to another guide, ``x.md``, becomes
``x.html``) — converted the same way on every machine, so that the check never depends on a library's version.
"""

from __future__ import annotations

import json
import re
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "ajuda"
OUT = ROOT / "resources" / "help"

#: the order of the guides in Ajuda → Guias das mesas: the desks' order, then the rest alphabetically
ORDER = ("painel", "atendimento", "selecao", "mapas", "cobranca", "fiscalizacao", "relatorios", "cadastros")

_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_BULLET = re.compile(r"^[*-] +(.*)$")
_NUMBER = re.compile(r"^\d+\. +(.*)$")

STYLE = (
    "body { font-family: sans-serif; line-height: 1.4; } h1 { font-size: 18pt; } h2 { font-size: 14pt; } "
    "code { font-family: monospace; }"
)


def _inline(text: str) -> str:
    """Escape ``text`` and turn its inline marks into HTML (code spans are kept as typed)."""
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        codes.append(f"<code>{escape(match.group(1))}</code>")
        return f"\0{len(codes) - 1}\0"

    text = _CODE.sub(keep, text)
    links: list[tuple[str, str]] = []

    def link(match: re.Match[str]) -> str:
        target = match.group(2)
        if target.endswith(".md") and "/" not in target:
            target = target[:-3] + ".html"
        links.append((match.group(1), target))
        return f"\1{len(links) - 1}\1"

    text = _LINK.sub(link, text)
    text = escape(text, quote=False)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)
    text = re.sub(
        "\1(\\d+)\1",
        lambda m: f'<a href="{escape(links[int(m.group(1))][1])}">{escape(links[int(m.group(1))][0])}</a>',
        text,
    )
    return re.sub("\0(\\d+)\0", lambda m: codes[int(m.group(1))], text)


def to_html(markdown: str) -> tuple[str, str]:
    """The page's title (its first ``#`` heading) and its HTML."""
    title = ""
    body: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal kind
        if paragraph:
            body.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            body.append(f"<{kind}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{kind}>")
            items.clear()
            kind = ""

    for raw in markdown.splitlines():
        line = raw.strip()
        heading = re.match(r"^(#{1,3}) +(.*)$", line)
        bullet, number = _BULLET.match(line), _NUMBER.match(line)
        if not line:
            flush()
        elif heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2)
            title = title or text
            body.append(f"<h{level}>{_inline(text)}</h{level}>")
        elif bullet or number:
            wanted = "ul" if bullet else "ol"
            if paragraph or (items and kind != wanted):
                flush()
            kind = wanted
            items.append((bullet or number).group(1))  # type: ignore[union-attr]
        elif items and raw.startswith((" ", "\t")):
            items[-1] += " " + line  # a list item continued on the next line
        else:
            if items:
                flush()
            paragraph.append(line)
    flush()
    page = (
        '<!DOCTYPE html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
    return title, page


def _order(stem: str) -> tuple[int, str]:
    return (ORDER.index(stem), "") if stem in ORDER else (len(ORDER), stem)


def build(docs: Path = DOCS) -> dict[str, str]:
    """Every file to write, by name: one page per guide and ``index.json`` (the guides' keys and titles, in
    order)."""
    files: dict[str, str] = {}
    index = []
    for path in sorted(docs.glob("*.md"), key=lambda p: _order(p.stem)):
        title, page = to_html(path.read_text(encoding="utf-8"))
        files[f"{path.stem}.html"] = page
        index.append({"key": path.stem, "title": title})
    files["index.json"] = json.dumps(index, ensure_ascii=False, indent=1) + "\n"
    return files


def write(out: Path = OUT, docs: Path = DOCS) -> list[str]:
    """Write the pages into ``out`` (the pages of guides no longer in ``docs`` removed); returns the names."""
    out.mkdir(parents=True, exist_ok=True)
    files = build(docs)
    for old in out.glob("*.html"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8", newline="\n")
    return sorted(files)


def main() -> int:
    names = write()
    print(f"{len(names)} arquivos de ajuda gravados em {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
