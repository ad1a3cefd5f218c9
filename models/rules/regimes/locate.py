"""Where a mistake of a regime file is, for the person who fixes it: the item's id path
(``fees.banca-coberta.rate`` rather than the list position ``fees[4].rate``) and the line of the TOML text
(``tomllib`` gives no lines: a light scan of the text finds each table's header and each key), and a
suggestion for a near miss (``lable`` → ``label``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from models.rules.regimes.errors import RegimeError

_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r'^\s*([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*|"[^"]*")\s*=')


def segments(key: str) -> list[str | int]:
    """``fees[4].discounts[1].rate`` → ``["fees", 4, "discounts", 1, "rate"]``."""
    return [name if name else int(index) for name, index in _SEGMENT.findall(key)]


def joined(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def item_id(item: Any) -> str | None:
    """The id (or code) that names a table of a list, when it has one."""
    if isinstance(item, dict):
        for name in ("id", "code", "name"):
            value = item.get(name)
            if isinstance(value, str) and value.strip() and not re.search(r"[.\[\]\s]", value):
                return value
    return None


def id_path(key: str, data: Any) -> str:
    """The key with each list position replaced by the id of the table there (when it has one)."""
    parts = segments(key)
    out: list[str | int] = []
    node = data
    for part in parts:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            ident = item_id(item)
            out.append(ident if ident is not None else part)
            node = item
        else:
            out.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return joined(out)


def key_lines(text: str) -> dict[str, int]:
    """Each table and key of the TOML text, by its positional path (``fees[4].rate``) → its line (from 1)."""
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}  # positional path of an array of tables -> how many opened so far
    current: list[str | int] = []
    in_string = False
    for number, line in enumerate(text.splitlines(), start=1):
        odd = line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1
        if in_string:  # inside a multi-line string: nothing here is a key
            in_string = not odd
            continue
        in_string = odd  # the key on this line opens one
        header = _HEADER.match(line)
        if header and not _KEY.match(line):
            names = [n.strip().strip('"') for n in header.group(2).split(".")]
            path: list[str | int] = []
            for i, name in enumerate(names):
                path.append(name)
                last = i == len(names) - 1
                array = joined(path)
                if last and header.group(1) == "[[":
                    counts[array] = counts.get(array, -1) + 1
                    path.append(counts[array])
                elif array in counts:
                    path.append(counts[array])
            current = path
            lines.setdefault(joined(current), number)
            continue
        found = _KEY.match(line)
        if found:
            names = [n.strip().strip('"') for n in found.group(1).split(".")]
            for i in range(1, len(names) + 1):
                lines.setdefault(joined([*current, *names[:i]]), number)
    return lines


def line_of(key: str | None, lines: dict[str, int]) -> int | None:
    """The line of ``key``, or of the nearest table or key that holds it (a missing key: its table's header)."""
    if not key:
        return None
    parts = segments(key)
    while parts:
        found = lines.get(joined(parts))
        if found is not None:
            return found
        parts.pop()
    return None


def located(errors: Iterable[RegimeError], data: dict[str, Any], text: str) -> list[RegimeError]:
    """The errors again, each with its key as an id path and its line in the text, in the file's order."""
    lines = key_lines(text)
    out = []
    for error in errors:
        key = id_path(error.key, data) if error.key else error.key
        out.append(RegimeError(error.reason, file=error.file, key=key, line=line_of(error.key, lines)))
    return sorted(out, key=lambda e: e.line if e.line is not None else 0)  # as the file reads


_ARTICLE = r"(\d+)\s*[º°o]?(?:\s*-\s*([A-Z]))?"
_ARTS = re.compile(r"^\s*arts?\.\s*((?:" + _ARTICLE + r"\s*(?:,|\be\b|\ba\b)?\s*)+)", re.IGNORECASE)
_ONE = re.compile(_ARTICLE + r"|\ba\b", re.IGNORECASE)


def article(entry: str | int) -> str | None:
    """An entry of ``[regime] articles`` as Praça compares it: ``"art. 9º-A"``, ``"9-A"``, ``9`` → ``"9-A"``/``"9"``."""
    found = _ONE.search(str(entry))
    if found is None or found.group(1) is None:
        return None
    return f"{int(found.group(1))}-{found.group(2).upper()}" if found.group(2) else str(int(found.group(1)))


def cited_articles(basis: str) -> list[str]:
    """The articles of the act a ``basis`` cites: ``"art. 12, II; arts. 14 a 16"`` → ``["12", "14", "15", "16"]``
    (paragraphs, items and annexes are not articles)."""
    out: list[str] = []
    for part in basis.split(";"):
        head = _ARTS.match(part)
        if head is None:
            continue
        previous: int | None = None
        ranged = False
        for found in _ONE.finditer(head.group(1)):
            if found.group(1) is None:  # "a": the articles between the one before and the next
                ranged = True
                continue
            number = int(found.group(1))
            if ranged and previous is not None and not found.group(2):
                out.extend(str(n) for n in range(previous + 1, number))
            ranged = False
            previous = number
            out.append(f"{number}-{found.group(2).upper()}" if found.group(2) else str(number))
    return out
