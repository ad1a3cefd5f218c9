"""Step 1 of an import: reading the file — an ``.xlsx`` (read-only, the first sheet, its zip checked first) or a
``.csv`` (``;`` or ``,``; UTF-8 or Latin-1) — into a :class:`Sheet` of rows with their line numbers.
"""

from __future__ import annotations

import datetime as _dt
import re
import zipfile
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from models.base.errors import UserError
from models.base.text import control_problem, read_csv
from models.services.importer.fields import MAX_ROWS
from models.store.archive import ZipLimits, check_zip


@dataclass
class Sheet:
    """The file as read: its header and its non-empty rows, each with its line number."""

    name: str
    headers: list[str]
    rows: list[tuple[int, list]]  # (line number in the file, cells: str, date, datetime, int or Decimal)
    encoding: str = ""
    delimiter: str = ""


def _unique(headers: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for i, header in enumerate(headers):
        text = " ".join(str(header or "").split()) or f"Coluna {i + 1}"
        if text in seen:
            seen[text] += 1
            text = f"{text} ({seen[text]})"
        else:
            seen[text] = 1
        out.append(text)
    return out


def _cell(value):
    """A cell as the importer keeps it: text stripped, a date, an int or a Decimal — never a binary float."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "sim" if value else "não"
    if isinstance(value, _dt.datetime):
        return value.date() if value.time() == _dt.time() else value
    if isinstance(value, (_dt.date, int, Decimal)):
        return value
    if isinstance(value, float):  # a number cell of a spreadsheet: its shortest exact text
        text = repr(value)
        number = Decimal(text)
        return int(number) if number == number.to_integral_value() and "e" not in text else number
    if isinstance(value, _dt.time):
        return value.isoformat()
    return str(value).replace("\xa0", " ").strip()


def _blank(cells) -> bool:
    return all(c == "" for c in cells)


#: What a list of vendors in .xlsx may hold once decompressed (a list of 100.000 rows is some tens of MB).
XLSX_LIMITS = ZipLimits(
    "a planilha", max_entries=2_000, max_entry_bytes=256 * 1024**2, max_total_bytes=384 * 1024**2, max_ratio=100
)


def _column_letter(index: int) -> str:
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _checked_cells(values, number: int, name: str, cell_name) -> list:
    cells = [_cell(v) for v in values]
    for column, cell in enumerate(cells, start=1):
        if isinstance(cell, str):
            problem = control_problem(cell)
            if problem:
                raise UserError(f"{name}, {cell_name(number, column)}: {problem}")
            problem = _mojibake_problem(cell)
            if problem:
                raise UserError(f"{name}, {cell_name(number, column)}: {problem}.")
    return cells


def _unreadable(path: Path, exc: BaseException) -> UserError:
    """One pt-BR line for a workbook that cannot be read: cut short, damaged, not a workbook, or XML that declares
    entities (an "entity bomb": refused by defusedxml before it expands)."""
    from defusedxml import DefusedXmlException  # what openpyxl's parser raises for a DTD's entities

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:  # openpyxl wraps the parser's error in its own
        seen.add(id(current))
        if isinstance(current, DefusedXmlException):
            return UserError(
                f"A planilha {path.name} declara entidades XML (DTD), que o Praça não lê por segurança; "
                "abra-a no Excel ou no LibreOffice e salve-a de novo como .xlsx."
            )
        current = current.__cause__ or current.__context__
    if isinstance(exc, zipfile.BadZipFile) and "not a zip" in str(exc):
        why = "não é um arquivo .xlsx válido (o arquivo pode estar cortado)"
    elif isinstance(exc, OSError) and not isinstance(exc, zipfile.BadZipFile):
        why = f"não foi possível abri-la ({exc.strerror or type(exc).__name__})"
    else:
        why = "o arquivo está danificado ou incompleto"
    return UserError(f"Não foi possível ler a planilha {path.name}: {why}. Salve-a de novo e tente outra vez.")


#: What a damaged workbook makes the zip reader, the decompressor, the XML parser or openpyxl raise (each of them
#: is the file's fault, never Praça's): caught while the workbook is opened and while its rows are read.
_BROKEN = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    KeyError,
    IndexError,
    OSError,
    ValueError,
    TypeError,
    AttributeError,
    SyntaxError,  # xml.etree.ElementTree.ParseError, expat's "limit on input amplification factor"
)


def _read_xlsx(path: Path) -> Sheet:
    try:
        with zipfile.ZipFile(path) as zf:
            check_zip(zf, name=path.name, limits=XLSX_LIMITS)  # a zip bomb is refused before openpyxl reads it
    except UserError:
        raise
    except _BROKEN as exc:
        raise _unreadable(path, exc) from None
    try:
        return _read_book(path)
    except UserError:
        raise
    except _BROKEN as exc:
        raise _unreadable(path, exc) from None


def _read_book(path: Path) -> Sheet:
    import openpyxl  # reads XML through defusedxml when it is installed (a dependency): no entity is expanded
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except InvalidFileException as exc:
        raise _unreadable(path, exc) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise UserError(f"A planilha {path.name} não tem abas.")
        headers = None
        rows = []
        for number, values in enumerate(sheet.iter_rows(values_only=True), 1):
            if number > 2 * MAX_ROWS:  # blank rows count too: a sheet of a million empty rows ends here
                raise UserError(f"A planilha {path.name} tem mais de {2 * MAX_ROWS} linhas: divida-a em partes.")
            cells = _checked_cells(values, number, path.name, lambda n, c: f"célula {_column_letter(c)}{n}")
            if _blank(cells):
                continue
            if headers is None:
                headers = _unique([str(c) for c in cells])
                continue
            rows.append((number, cells))
            if len(rows) > MAX_ROWS:
                raise UserError(f"A planilha {path.name} tem mais de {MAX_ROWS} linhas: divida-a em partes.")
    finally:
        book.close()
    if headers is None:
        raise UserError(f"A planilha {path.name} está vazia.")
    return Sheet(path.name, headers, [(n, _fit(c, len(headers))) for n, c in rows])


def _fit(cells: list, width: int) -> list:
    return (cells + [""] * width)[:width] if len(cells) < width else cells[:width]


_RAW_LINE_END = re.compile(b"\r\n|\r|\n")  # the lines read_csv numbers (models.base.text)


def _lines(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:10]))
    if len(numbers) > 10:
        shown += f" e mais {len(numbers) - 10}"
    return f"{'a linha' if len(numbers) == 1 else 'as linhas'} {shown}"


def decode_text(raw: bytes, *, name: str = "O arquivo") -> tuple[str, str]:
    """The text of a CSV and the encoding it was read in — one for the whole file (issue 26 §7): UTF-8 (BOM or
    not) when every line is; else Windows-1252 (Latin-1 for the bytes it leaves undefined) when no line is UTF-8
    text. A file with lines of each — UTF-8 letters on some lines, bytes that are not UTF-8 on others: the rows of
    two files pasted together — is refused naming both sets of lines, never read one way or the other (4 names of
    5 stored as "JoÃ£o" before)."""
    try:
        return raw.decode("utf-8-sig"), "utf-8-sig"
    except UnicodeDecodeError:
        pass
    utf8, other = [], []
    for number, line in enumerate(_RAW_LINE_END.split(raw), start=1):
        if line.isascii():
            continue
        try:
            line.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            other.append(number)
        else:
            utf8.append(number)
    if utf8 or raw.startswith(b"\xef\xbb\xbf"):  # UTF-8 lines, or UTF-8's mark (BOM) at the start
        those = (
            f"{_lines(utf8)} {'está' if len(utf8) == 1 else 'estão'} em UTF-8"
            if utf8
            else "o arquivo começa com a marca de UTF-8 (BOM)"
        )
        raise UserError(
            f"{name} mistura codificações: {_lines(other)} não {'está' if len(other) == 1 else 'estão'} em UTF-8 "
            f"(parece Latin-1/Windows-1252) e {those}. Salve o arquivo de novo numa só codificação (UTF-8) e "
            "importe outra vez."
        )
    try:
        return raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1"


def mojibake(text: str) -> str:
    """What ``text`` reads as when it is UTF-8 that was read as Windows-1252 or Latin-1 ("JoÃ£o" → "João"), or
    "" when it is not such text. Portuguese text never is: its accented letters in Windows-1252 are bytes that
    UTF-8 cannot read in that order."""
    if text.isascii():
        return ""
    for encoding in ("cp1252", "latin-1"):
        try:
            fixed = text.encode(encoding).decode("utf-8")
        except UnicodeError:
            continue
        if fixed != text:
            return fixed
    return ""


def _mojibake_problem(text: str) -> str:
    fixed = mojibake(text)
    if not fixed:
        return ""
    return f'"{text}" parece texto com a codificação trocada (seria "{fixed}"): corrija a planilha e importe outra vez'


def _read_csv(path: Path) -> Sheet:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"Não foi possível ler {path.name}: {exc.strerror or exc}.") from None
    if b"\x00" in raw[:4096]:
        raise UserError(f"{path.name} não é um arquivo de texto (CSV); salve a planilha como .xlsx ou .csv.")
    text, encoding = decode_text(raw, name=path.name)
    table = read_csv(text, name=path.name)  # strict: a stray quote or a control character names its line
    headers = None
    rows = []
    for number, values in table.rows:
        cells = [_cell(v) for v in values]
        for column, cell in enumerate(cells, start=1):
            problem = _mojibake_problem(cell)
            if problem:
                raise UserError(f"{path.name}, linha {number}, coluna {column}: {problem}.")
        if _blank(cells):
            continue
        if headers is None:
            headers = _unique([str(c) for c in cells])
            continue
        rows.append((number, cells))
        if len(rows) > MAX_ROWS:
            raise UserError(f"{path.name} tem mais de {MAX_ROWS} linhas: divida-o em partes.")
    if headers is None:
        raise UserError(f"{path.name} está vazio.")
    return Sheet(path.name, headers, [(n, _fit(c, len(headers))) for n, c in rows], encoding, table.delimiter)


def read_sheet(path: str | Path) -> Sheet:
    """Read an ``.xlsx`` or ``.csv`` list (see the module's docstring)."""
    path = Path(path).expanduser()
    if not path.exists():
        raise UserError(f"Arquivo não encontrado: {path}.")
    if path.is_dir():
        raise UserError(f"{path} é uma pasta; escolha a planilha (.xlsx ou .csv).")
    suffix = path.suffix.lower()
    with path.open("rb") as fh:
        head = fh.read(8)
    if suffix in (".xlsx", ".xlsm") or head.startswith(b"PK\x03\x04"):
        return _read_xlsx(path)
    if suffix in (".xls", ".ods") or head.startswith(b"\xd0\xcf\x11\xe0"):
        raise UserError(f"{path.name}: formato não aceito; salve a planilha como .xlsx ou .csv.")
    return _read_csv(path)
