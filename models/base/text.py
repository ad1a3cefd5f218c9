"""Text that comes from people: control characters refused at the door and made visible on the way out, and
CSV read strictly.

* :func:`control_problem` — a C0/C1 control character (anything but a tab or a line break, and those only
  where a field holds several lines) in a text, named with its position and code, in pt-BR. Every write
  through the models asks it (``models.store.db``), and so do the imports and the draws' CSV, so that no form,
  list or file stores an escape sequence or other garbage.
* :func:`visible` — the same characters in old data, shown as visible symbols (␛, ␀…) in reports and on the
  terminal instead of being written raw (a spreadsheet library refuses them; a terminal obeys them).
* :func:`search_key` — lower case without accents, single spaces: what a search by name compares.
* :func:`read_csv` — RFC 4180 as the town halls' spreadsheets write it: ``;``, ``,`` or tab, each field quoted
  or not; a stray quote is an error naming the line and the column, never a silent merge of the rows after
  it. A quoted field does not span lines (no list Praça reads holds a line break inside a cell).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.base.errors import UserError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "CONTROL",
    "CsvTable",
    "char_name",
    "control_problem",
    "read_csv",
    "read_small_file",
    "search_key",
    "sniff_delimiter",
    "visible",
]

#: Every C0 and C1 control character and DEL, except tab, line feed and carriage return.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAKS = re.compile("[\t\n\r]")
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))
_LINE_END = re.compile("\r\n|\r|\n")

_C0_NAMES = (
    "NUL",
    "SOH",
    "STX",
    "ETX",
    "EOT",
    "ENQ",
    "ACK",
    "BEL",
    "BS",
    "HT",
    "LF",
    "VT",
    "FF",
    "CR",
    "SO",
    "SI",
    "DLE",
    "DC1",
    "DC2",
    "DC3",
    "DC4",
    "NAK",
    "SYN",
    "ETB",
    "CAN",
    "EM",
    "SUB",
    "ESC",
    "FS",
    "GS",
    "RS",
    "US",
)


def char_name(char: str) -> str:
    """``"U+001B (ESC)"``: a control character named so that a clerk can find it and an IT colleague knows it."""
    code = ord(char)
    if code < 0x20:
        short = _C0_NAMES[code]
    elif code == 0x7F:
        short = "DEL"
    else:
        short = unicodedata.name(char, "controle C1")
    return f"U+{code:04X} ({short})"


def control_problem(text: str, *, multiline: bool = False) -> str | None:
    """What is wrong with ``text`` as a person's input, or ``None``: a control character (tab and line breaks
    only where ``multiline``), named with its position counted from 1."""
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return None  # printable ASCII only, seen at C speed (a trail entry of 10.000 rows is megabytes of it)
    match = CONTROL.search(text)
    if match is None and not multiline:
        match = _LINE_BREAKS.search(text)
    if match is None:
        return None
    if match.group() in "\t\n\r":
        return (
            f"O texto tem uma quebra de linha ou tabulação na posição {match.start() + 1} e este campo tem "
            f"uma linha só: apague-a."
        )
    return (
        f"O texto tem um caractere de controle {char_name(match.group())} na posição {match.start() + 1}, "
        f"que não é texto: apague-o e digite de novo."
    )


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1: the replacement character


def visible(text: str) -> str:
    """``text`` with its control characters (but tab and line breaks) replaced by visible symbols."""
    return CONTROL.sub(_picture, text) if CONTROL.search(text) else text


# --------------------------------------------------------------------------- CSV, strictly


@dataclass(frozen=True)
class CsvTable:
    """The rows of a CSV (``(line number, cells)``, the header first), and the delimiter they were read with."""

    delimiter: str
    rows: tuple[tuple[int, list[str]], ...]


def sniff_delimiter(text: str) -> str:
    """``;``, ``,`` or a tab: the one the first non-blank line uses most outside quotes (``;`` on a tie, as
    Brazilian spreadsheets save)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    plain = re.sub(r'"[^"]*"', "", first)
    counts = {d: plain.count(d) for d in (";", ",", "\t")}
    best = max(counts, key=lambda d: (counts[d], d == ";"))
    return best if counts[best] else ";"


def _split_line(line: str, delimiter: str, number: int, name: str) -> list[str]:
    cells: list[str] = []
    i, end = 0, len(line)
    while True:
        if i < end and line[i] == '"':  # a quoted field: "" is a quote; it ends at a quote before the delimiter
            value, i = [], i + 1
            while True:
                close = line.find('"', i)
                if close < 0:
                    raise UserError(
                        f"{name}, linha {number}: aspas abertas na coluna {len(cells) + 1} que não "
                        f"se fecham nesta linha; corrija as aspas (uma célula de várias linhas não "
                        f"é aceita em CSV: salve a planilha como .xlsx). Nenhuma linha foi lida."
                    )
                value.append(line[i:close])
                if line.startswith('""', close):
                    value.append('"')
                    i = close + 2
                    continue
                i = close + 1
                break
            cells.append("".join(value))
            if i < end and line[i] != delimiter:
                raise UserError(
                    f"{name}, linha {number}: texto depois das aspas que fecham a coluna "
                    f"{len(cells)}; corrija as aspas (nenhuma linha foi lida)."
                )
        else:
            stop = line.find(delimiter, i)
            stop = end if stop < 0 else stop
            cell = line[i:stop]
            if '"' in cell:
                raise UserError(
                    f"{name}, linha {number}: aspas soltas na coluna {len(cells) + 1} "
                    f"(«{visible(cell)}»); uma coluna com aspas começa e termina com elas "
                    f"(nenhuma linha foi lida)."
                )
            cells.append(cell)
            i = stop
        if i >= end:
            return cells
        i += 1  # past the delimiter
        if i == end:
            cells.append("")
            return cells


def read_csv(text: str, *, name: str, delimiter: str | None = None) -> CsvTable:
    """Every line of ``text`` as cells, strictly (see the module's docstring); blank lines are skipped. A
    control character is refused naming the line, the column and the character."""
    text = text.lstrip("\ufeff")
    delimiter = delimiter or sniff_delimiter(text)
    rows = []
    # Only CR/LF end a line: str.splitlines would also split at FS, GS, RS, VT, FF, NEL… hiding them.
    for number, line in enumerate(_LINE_END.split(text), start=1):
        if not line.strip():
            continue
        cells = _split_line(line, delimiter, number, name)
        for column, cell in enumerate(cells, start=1):
            problem = control_problem(cell)
            if problem:
                raise UserError(f"{name}, linha {number}, coluna {column}: {problem}")
        rows.append((number, cells))
    return CsvTable(delimiter, tuple(rows))


def control_errors(
    data: DataclassInstance, *, multiline: frozenset[str] = frozenset(), prefix: str = ""
) -> dict[str, str]:
    """``{field: problem}`` for every text of the input dataclass ``data`` (and of the dataclasses in its lists,
    as ``household[0].name``) that holds a control character — checked as typed, before a form's cleaning
    (a name's whitespace folded into single spaces) could turn one into a space silently. The fields in
    ``multiline`` may hold line breaks and tabs."""
    import dataclasses

    errors: dict[str, str] = {}
    for item in dataclasses.fields(data):
        value = getattr(data, item.name)
        key = f"{prefix}{item.name}"
        if isinstance(value, str):
            problem = control_problem(value, multiline=item.name in multiline)
            if problem:
                errors[key] = problem
        elif isinstance(value, (list, tuple)):
            for index, element in enumerate(value):
                if dataclasses.is_dataclass(element) and not isinstance(element, type):
                    errors.update(control_errors(element, multiline=multiline, prefix=f"{key}[{index}]."))
    return errors


def read_small_file(path: str | os.PathLike[str], *, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``. A device, a fifo or a folder (``/dev/full``, which
    never ends; ``/dev/stdin``) is refused before anything is read, and a longer file after ``max_bytes + 1``
    bytes: ``OSError`` with a pt-BR ``strerror``, which the callers show as they show any failed read."""
    with open(path, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(errno.EINVAL, "não é um arquivo comum")
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OSError(errno.EFBIG, f"arquivo grande demais (mais de {max_bytes // 1024} KiB)")
    return data


def search_key(text: str) -> str:
    """Lower case without accents, single spaces: what name search compares."""
    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    return " ".join(plain.lower().split())
