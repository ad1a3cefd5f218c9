"""Import of the town's existing lists: vendors (people or companies) and, optionally, their permits.

The steps, the same for the window and for ``praca import vendors``:

1. :func:`read_sheet` reads an ``.xlsx`` (openpyxl, read-only: the first sheet)
   or a ``.csv`` (``;`` or ``,``; UTF-8, with or without BOM, else Latin-1 /
   Windows-1252). The first non-empty row is the header; empty rows are left
   out; every row keeps its line number in the file.
2. A :class:`Mapping` says which column holds each Praça field
   (:data:`FIELDS`) and, for the permit fields, may give one value for every
   row (``defaults``: the regime and the kind of permit, usually).
   :func:`guess_mapping` proposes one from the header names in pt-BR ("Nome",
   "CPF", "Data de nascimento"…); mappings are saved and loaded as JSON and the
   last one used for a given header is remembered (:func:`remember_mapping`).
3. :func:`preview_import` checks every row — CPF and CNPJ check digits, dates
   (dd/mm/aaaa, ISO or Excel serial numbers), sizes (> 0, at most two
   decimals), required fields, duplicates within the file and against the
   database — and lists each bad row with its line number and reason.
   Nothing is written.
4. :func:`import_rows` writes, after the clerk confirms, in **one
   transaction**: every good row (the bad ones are left out), or nothing at
   all when the clerk chose "tudo ou nada" and a row is bad. Every row is
   first prepared with no transaction open (validated by the people models'
   own validators, its permit made but for its number); the write is one
   short transaction that checks again what another desk registered
   meanwhile and takes the permits' numbers last — other desks wait only for
   that. A cancel writes nothing, or rolls everything back. The rows are
   written by the people models (so the audit trail records them).

Readings:

* A row is a **person** when it has a CPF, a **company** when it has a CNPJ; a
  column "CPF/CNPJ" is split by length. A row with both is a company whose
  partner is the person (an MEI and its owner): the person is registered too,
  or linked when already registered.
* A CPF or CNPJ already registered refuses the row ("já cadastrado") — an
  import never changes a registered person or company — except the CPF of a
  company's partner, which links to the person registered.
* **Permits** are imported when a permit column has a value in the row. The
  old number goes to ``notes`` as "número anterior"; Praça gives the permit
  its own number from the year's gapless counter, as for any permit. The
  term is the one in the list (both dates required); the status is active, or
  expired when the last day has passed. The permit is an existing one:
  eligibility and limits were decided when it was granted and are not
  checked again. The kind must accept the holder (person or company).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from models.base.br import calendar_problem, clean_cnpj, clean_cpf, format_cnpj, format_cpf
from models.base.errors import FieldErrors, UserError
from models.base.text import control_problem, read_csv
from models.registry.people import (
    Company,
    CompanyInput,
    PartnerInput,
    Person,
    PersonInput,
    search_key,
    validate_company,
    validate_person,
)
from models.store.archive import ZipLimits, check_zip
from models.store.db import db

MAPPING_FORMAT = "praca-import-mapping"
MAPPING_VERSION = 1
EXCEL_EPOCH = _dt.date(1899, 12, 30)  # serial 1 = 31/12/1899 in Excel's 1900 system (its 29/02/1900 skipped)
MAX_ROWS = 100_000


@dataclass(frozen=True)
class ImportField:
    key: str
    label: str
    group: str  # "vendor" | "permit"
    aliases: tuple[str, ...]
    hint: str = ""


FIELDS: tuple[ImportField, ...] = (
    ImportField(
        "name",
        "Nome",
        "vendor",
        (
            "nome",
            "nome completo",
            "ambulante",
            "permissionario",
            "titular",
            "vendedor",
            "nome do ambulante",
            "nome do titular",
            "nome do permissionario",
            "feirante",
            "nome razao social",
            "requerente",
        ),
    ),
    ImportField("legal_name", "Razão social", "vendor", ("razao social", "empresa", "nome empresarial")),
    ImportField("cpf", "CPF", "vendor", ("cpf", "cpf do titular", "n cpf", "no cpf")),
    ImportField("cnpj", "CNPJ", "vendor", ("cnpj", "n cnpj", "no cnpj")),
    ImportField(
        "cpf_cnpj",
        "CPF ou CNPJ",
        "vendor",
        ("cpf cnpj", "cnpj cpf", "cpf ou cnpj", "documento", "cpf cnpj do titular", "doc"),
    ),
    ImportField("rg", "RG", "vendor", ("rg", "identidade", "carteira de identidade", "rg numero", "n rg", "no rg")),
    ImportField(
        "birth_date",
        "Data de nascimento",
        "vendor",
        ("data de nascimento", "nascimento", "dt nascimento", "data nasc", "dt nasc", "data de nasc", "nasc"),
        "dd/mm/aaaa",
    ),
    ImportField(
        "street", "Logradouro", "vendor", ("endereco", "logradouro", "rua", "endereco residencial", "end", "avenida")
    ),
    ImportField("number", "Número", "vendor", ("numero", "n", "no", "num", "nro", "numero da casa")),
    ImportField("district", "Bairro", "vendor", ("bairro",)),
    ImportField("city", "Cidade", "vendor", ("cidade", "municipio")),
    ImportField("state", "UF", "vendor", ("uf", "estado")),
    ImportField("zip_code", "CEP", "vendor", ("cep",)),
    ImportField(
        "phone", "Telefone", "vendor", ("telefone", "celular", "fone", "tel", "contato", "whatsapp", "telefone celular")
    ),
    ImportField("email", "E-mail", "vendor", ("e mail", "email", "correio eletronico")),
    ImportField("trade_name", "Nome fantasia", "vendor", ("nome fantasia", "fantasia")),
    ImportField(
        "municipal_registration",
        "Inscrição municipal",
        "vendor",
        ("inscricao municipal", "im", "cadastro municipal", "insc municipal", "inscr municipal"),
    ),
    ImportField("mei", "MEI", "vendor", ("mei", "e mei", "microempreendedor individual"), "sim/não"),
    ImportField("regime", "Regime", "permit", ("regime", "ato", "lei"), "id do regime"),
    ImportField(
        "permit_kind",
        "Tipo de permissão",
        "permit",
        ("tipo de permissao", "tipo", "modalidade", "tipo de licenca", "categoria", "tipo de alvara"),
    ),
    ImportField(
        "site", "Local", "permit", ("local", "ponto", "feira", "localizacao", "endereco do ponto", "local de trabalho")
    ),
    ImportField(
        "line",
        "Ramo",
        "permit",
        ("ramo", "atividade", "produto", "produtos", "ramo de atividade", "mercadoria", "mercadorias"),
    ),
    ImportField("section", "Seção", "permit", ("secao", "setor")),
    ImportField("front", "Frente (m)", "permit", ("frente", "testada", "frente m", "largura"), "metros"),
    ImportField("depth", "Profundidade (m)", "permit", ("profundidade", "fundo", "profundidade m"), "metros"),
    ImportField(
        "valid_from",
        "Válida desde",
        "permit",
        (
            "inicio",
            "valido de",
            "valida de",
            "validade inicial",
            "inicio da validade",
            "data de emissao",
            "emissao",
            "vigencia inicial",
            "desde",
            "inicio da vigencia",
            "data de inicio",
        ),
        "dd/mm/aaaa",
    ),
    ImportField(
        "valid_until",
        "Válida até",
        "permit",
        (
            "validade",
            "valido ate",
            "valida ate",
            "vencimento",
            "fim",
            "fim da validade",
            "vigencia final",
            "data de validade",
            "fim da vigencia",
            "data de vencimento",
        ),
        "dd/mm/aaaa",
    ),
    ImportField(
        "previous_number",
        "Número anterior",
        "permit",
        (
            "numero anterior",
            "alvara",
            "n do alvara",
            "no do alvara",
            "numero do alvara",
            "n alvara",
            "no alvara",
            "licenca",
            "numero da licenca",
            "n da licenca",
            "permissao",
            "numero da permissao",
            "n da permissao",
            "termo",
            "tpu",
            "credencial",
        ),
    ),
)
FIELD = {f.key: f for f in FIELDS}
PERMIT_FIELDS = tuple(f.key for f in FIELDS if f.group == "permit")
_DATES = ("birth_date", "valid_from", "valid_until")


class ImportCancelled(UserError):
    def __init__(self):
        super().__init__("Importação cancelada: nada foi gravado.")


# --------------------------------------------------------------------------- reading the file


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
    return cells


def _read_xlsx(path: Path) -> Sheet:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        with zipfile.ZipFile(path) as zf:
            check_zip(zf, name=path.name, limits=XLSX_LIMITS)  # a zip bomb is refused before openpyxl reads it
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, InvalidFileException) as exc:
        raise UserError(f"Não foi possível ler a planilha {path.name}: {exc}.") from None
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


def decode_text(raw: bytes) -> tuple[str, str]:
    """The text of a CSV and the encoding it was read in: UTF-8 (BOM or not), else Windows-1252, else Latin-1."""
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            return raw.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes any byte")  # pragma: no cover


def _read_csv(path: Path) -> Sheet:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"Não foi possível ler {path.name}: {exc.strerror or exc}.") from None
    if b"\x00" in raw[:4096]:
        raise UserError(f"{path.name} não é um arquivo de texto (CSV); salve a planilha como .xlsx ou .csv.")
    text, encoding = decode_text(raw)
    table = read_csv(text, name=path.name)  # strict: a stray quote or a control character names its line
    headers = None
    rows = []
    for number, values in table.rows:
        cells = [_cell(v) for v in values]
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


# --------------------------------------------------------------------------- the mapping


def normalize_header(text: str) -> str:
    """``"Data de Nascimento:"`` → ``"data de nascimento"``; ``"CPF/CNPJ"`` → ``"cpf cnpj"``; ``"Nº"`` → ``"no"``."""
    plain = search_key(unicodedata.normalize("NFKC", str(text or "")).replace("º", "o").replace("°", ""))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain).split())


@dataclass
class Mapping:
    """Praça field → column header; ``defaults``: a permit field's value for every row."""

    columns: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "format": MAPPING_FORMAT,
            "version": MAPPING_VERSION,
            "columns": dict(self.columns),
            "defaults": dict(self.defaults),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_dict(cls, data, *, source: str = "o mapeamento") -> Mapping:
        if not isinstance(data, dict) or data.get("format") != MAPPING_FORMAT:
            raise UserError(f"{source} não é um mapeamento de colunas do Praça.")
        if not isinstance(data.get("version"), int) or data["version"] > MAPPING_VERSION:
            raise UserError(f"{source} é de um Praça mais novo (versão {data.get('version')!r}).")
        columns, defaults = data.get("columns", {}), data.get("defaults", {})
        if not isinstance(columns, dict) or not isinstance(defaults, dict):
            raise UserError(f"{source}: 'columns' e 'defaults' devem ser objetos JSON.")
        for key, value in list(columns.items()) + list(defaults.items()):
            if key not in FIELD:
                raise UserError(f"{source}: campo desconhecido '{key}' (campos: {', '.join(FIELD)}).")
            if not isinstance(value, str):
                raise UserError(f"{source}: o valor de '{key}' deve ser um texto.")
        for key in defaults:
            if FIELD[key].group != "permit":
                raise UserError(f"{source}: só campos da permissão têm valor fixo ('{key}' não).")
        return cls({k: v for k, v in columns.items() if v}, {k: v for k, v in defaults.items() if v.strip()})

    @classmethod
    def from_json(cls, text: str, *, source: str = "o mapeamento") -> Mapping:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise UserError(f"{source} não é JSON válido: {exc}.") from None
        return cls.from_dict(data, source=source)

    @property
    def with_permits(self) -> bool:
        return any(k in PERMIT_FIELDS for k in list(self.columns) + list(self.defaults))


def save_mapping(path: str | Path, mapping: Mapping) -> Path:
    from models.store.outfile import write_text

    path = Path(path)
    try:
        write_text(path, mapping.to_json() + "\n", kind="json", private=False)
    except OSError as exc:
        raise UserError(f"Não foi possível gravar {path}: {exc.strerror or exc}.") from None
    return path


def load_mapping(path: str | Path) -> Mapping:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"Mapeamento não encontrado: {path}.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"Não foi possível ler o mapeamento {path.name}: {exc}.") from None
    return Mapping.from_json(text, source=path.name)


def guess_mapping(headers: Sequence[str]) -> Mapping:
    """A mapping proposed from the header names: exact names first, then the longest name a header starts with."""
    norm = {h: normalize_header(h) for h in headers}
    columns: dict[str, str] = {}
    used: set[str] = set()
    for f in FIELDS:  # exact
        for header in headers:
            if header not in used and norm[header] in f.aliases:
                columns[f.key] = header
                used.add(header)
                break
    candidates = []  # (alias length, field, header) — a header beginning with an alias
    for f in FIELDS:
        if f.key in columns:
            continue
        for header in headers:
            if header in used:
                continue
            for alias in f.aliases:
                if len(alias) >= 3 and norm[header].startswith(alias + " "):
                    candidates.append((len(alias), f.key, header))
    for _n, key, header in sorted(candidates, key=lambda c: -c[0]):
        if key not in columns and header not in used:
            columns[key] = header
            used.add(header)
    if "cpf_cnpj" in columns and ("cpf" in columns or "cnpj" in columns):
        del columns["cpf_cnpj"]
    return Mapping(columns)


def header_signature(headers: Sequence[str]) -> str:
    """The same for two files with the same columns (case, accents and spacing aside)."""
    text = "\n".join(normalize_header(h) for h in headers)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _store(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def remember_mapping(store: str | Path, headers: Sequence[str], mapping: Mapping) -> None:
    """Keep ``mapping`` as the last one used for files with these headers (a JSON file in the data folder)."""
    store = Path(store)
    data = _store(store)
    data[header_signature(headers)] = mapping.to_dict()
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        tmp = store.with_name(store.name + ".partial")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
        tmp.replace(store)
    except OSError:
        pass  # remembering is a convenience: never a reason to fail an import


def recall_mapping(store: str | Path, headers: Sequence[str]) -> Mapping | None:
    """The mapping last used for files with these headers, if its columns are all still there."""
    data = _store(Path(store)).get(header_signature(headers))
    if data is None:
        return None
    try:
        mapping = Mapping.from_dict(data)
    except UserError:
        return None
    if any(h not in headers for h in mapping.columns.values()):
        return None
    return mapping


def check_mapping(mapping: Mapping, headers: Sequence[str]) -> None:
    """Refuse a mapping that cannot import anything from these headers (one pt-BR line)."""
    from models.rules.regimes import get_regime

    missing = [h for h in mapping.columns.values() if h not in headers]
    if missing:
        raise UserError(
            f"A planilha não tem a coluna {missing[0]!r} do mapeamento (colunas: {', '.join(headers)}).",
            field="mapping",
        )
    if not any(k in mapping.columns for k in ("cpf", "cnpj", "cpf_cnpj")):
        raise UserError(
            'Indique a coluna do CPF, do CNPJ ou de "CPF ou CNPJ": sem ela não há como conferir quem é cada ambulante.',
            field="cpf",
        )
    if not any(k in mapping.columns for k in ("name", "legal_name")):
        raise UserError("Indique a coluna do nome (ou da razão social).", field="name")
    if mapping.with_permits:
        if "regime" in mapping.defaults:
            get_regime(mapping.defaults["regime"].strip())
        for key, what in (
            ("regime", "o regime"),
            ("permit_kind", "o tipo de permissão"),
            ("valid_from", "o início da validade"),
            ("valid_until", "o fim da validade"),
        ):
            if key not in mapping.columns and key not in mapping.defaults:
                raise UserError(
                    f"Para importar as permissões, indique {what}: uma coluna ou um valor para todas as linhas.",
                    field=key,
                )


# --------------------------------------------------------------------------- checking one row


def parse_date(value, label: str) -> _dt.date:
    """dd/mm/aaaa, aaaa-mm-dd, an Excel serial number, or a date cell; else ``UserError`` naming ``label``."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return _serial(value, label)
    text = str(value).strip()
    match = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?", text)
    try:
        if match:
            day, month, year = (int(g) for g in match.groups())
            problem = calendar_problem(year, month, day)
            if problem:
                raise UserError(f"{label}: {text} não existe — {problem}.")
            return _dt.date(year, month, day)
        match = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?", text)
        if match:
            year, month, day = (int(g) for g in match.groups())
            return _dt.date(year, month, day)
    except ValueError:
        raise UserError(f"{label}: {text} não existe no calendário.") from None
    if re.fullmatch(r"\d{1,6}", text):
        return _serial(int(text), label)
    raise UserError(f"{label}: {text!r} não é uma data (use dd/mm/aaaa).")


def _serial(number: int, label: str) -> _dt.date:
    if not 1 <= number <= 2_958_465:  # 31/12/9999
        raise UserError(f"{label}: {number} não é uma data (use dd/mm/aaaa).")
    if number < 61:  # Excel counts a 29/02/1900 that never was
        number += 1
    return EXCEL_EPOCH + _dt.timedelta(days=number)


def parse_size(value, label: str) -> Decimal:
    """A size in metres: > 0, at most two decimals (``2,5`` or ``2.50``)."""
    from models.base.money import parse_typed

    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        number = Decimal(value)
        text = str(value)
    else:
        text = str(value).strip().lower().removesuffix("m").strip()
        number = parse_typed(text, what=label)
    if not number.is_finite() or number <= 0:
        raise UserError(f"{label}: informe um valor maior que zero ({text}).")
    if number > 1000:  # before quantizing: a huge number has more digits than the context holds
        raise UserError(f"{label}: {text} m é grande demais para uma banca.")
    if number != number.quantize(Decimal("0.01")):
        raise UserError(f"{label}: no máximo duas casas decimais ({text}).")
    return number.quantize(Decimal("0.01"))


_YES = {"sim", "s", "x", "1", "true", "verdadeiro", "yes", "y", "v"}
_NO = {"nao", "n", "0", "false", "falso", "no", "", "-"}


def parse_bool(value, label: str) -> bool:
    text = search_key(str(value))
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise UserError(f"{label}: {value!r} — use sim ou não.")


def _text(value) -> str:
    if isinstance(value, _dt.date):
        return value.strftime("%d/%m/%Y")
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value).strip()


def _document_digits(value, width: int) -> str:
    """A CPF/CNPJ cell as text; a number cell gets back the zeros a spreadsheet drops."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value).zfill(width)
    return _text(value)


def _pick(regime, items, value: str, *attrs: str):
    """The item of ``items`` whose id or label (or numeral) is ``value``, accents and case aside."""
    key = search_key(value)
    for item in items:
        for attr in attrs:
            candidate = getattr(item, attr, None)
            if candidate and search_key(str(candidate)) == key:
                return item
    return None


@dataclass
class PermitData:
    regime: str
    permit_kind: str
    holder: str = ""  # "person" | "company": who holds it (a company and its partner: as the kind allows)
    site: str = ""
    line: str = ""
    section: str = ""
    front: Decimal | None = None
    depth: Decimal | None = None
    valid_from: _dt.date | None = None
    valid_until: _dt.date | None = None
    previous_number: str = ""


@dataclass
class RowCheck:
    """One row of the file, checked: what it would register, or why it cannot."""

    line: int
    name: str = ""
    document: str = ""
    person: PersonInput | None = None
    company: CompanyInput | None = None
    permit: PermitData | None = None
    errors: list[str] = field(default_factory=list)
    cpf: str = ""
    cnpj: str = ""
    link_person: bool = False  # the partner's CPF is already registered: link, do not register again

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def reason(self) -> str:
        return "; ".join(e.rstrip(".") for e in self.errors) + "." if self.errors else ""

    @property
    def kind_label(self) -> str:
        if self.company is not None and self.person is not None:
            return "empresa e sócio"
        if self.company is not None:
            return "empresa"
        return "pessoa" if self.person is not None else ""


def _add_errors(errors: list[str], exc: UserError) -> None:
    messages = exc.errors.values() if isinstance(exc, FieldErrors) else [exc.message]
    for message in messages:
        if message not in errors:
            errors.append(message)


def _value(cells: dict, key: str):
    value = cells.get(key, "")
    return value if not isinstance(value, str) else value.strip()


def check_row(line: int, cells: dict, *, today: _dt.date, defaults: dict | None = None) -> RowCheck:
    """Check one row (``cells``: Praça field → cell) without the database: every problem is listed."""
    defaults = defaults or {}
    row = RowCheck(line)
    errors = row.errors
    text = {k: _text(v) for k, v in cells.items()}

    cpf_text = _document_digits(_value(cells, "cpf"), 11)
    cnpj_text = _document_digits(_value(cells, "cnpj"), 14).upper()
    either = _value(cells, "cpf_cnpj")
    if either != "":
        if isinstance(either, int) and not isinstance(either, bool):
            digits = str(either)
            as_text = digits.zfill(11) if len(digits) <= 11 else digits.zfill(14)
        else:
            as_text = _text(either)
        compact = re.sub(r"[^0-9A-Za-z]", "", as_text)
        if len(compact) <= 11 and compact.isdigit():
            cpf_text = cpf_text or as_text
        else:
            cnpj_text = cnpj_text or as_text.upper()
    if not cpf_text and not cnpj_text:
        errors.append("Informe o CPF ou o CNPJ.")
    cpf = cnpj = ""
    if cpf_text:
        try:
            cpf = clean_cpf(cpf_text)
        except UserError as exc:
            errors.append(exc.message)
    if cnpj_text:
        try:
            cnpj = clean_cnpj(cnpj_text)
        except UserError as exc:
            errors.append(exc.message)
    row.cpf, row.cnpj = cpf, cnpj

    birth = None
    if text.get("birth_date"):
        try:
            birth = parse_date(_value(cells, "birth_date"), "Data de nascimento")
        except UserError as exc:
            errors.append(exc.message)
    mei = False
    if text.get("mei"):
        try:
            mei = parse_bool(_value(cells, "mei"), "MEI")
        except UserError as exc:
            errors.append(exc.message)

    name = " ".join(text.get("name", "").split())
    legal = " ".join(text.get("legal_name", "").split()) or name
    address = {
        k: text.get(k, "") for k in ("street", "number", "district", "city", "state", "zip_code", "phone", "email")
    }
    for key, limit in (
        ("name", 200),
        ("legal_name", 200),
        ("trade_name", 200),
        ("street", 200),
        ("number", 20),
        ("district", 100),
        ("city", 100),
        ("phone", 30),
        ("email", 200),
        ("rg", 30),
        ("municipal_registration", 40),
    ):
        if len(text.get(key, "")) > limit:
            errors.append(f"{FIELD[key].label}: no máximo {limit} caracteres.")
    if cnpj_text:
        row.company = CompanyInput(
            cnpj=cnpj_text,
            legal_name=legal,
            trade_name=text.get("trade_name", ""),
            mei=mei,
            municipal_registration=text.get("municipal_registration", ""),
            **address,
        )
        if cpf_text:
            row.company.partners = [PartnerInput(name=name, cpf=cpf_text)]
        try:
            validate_company(row.company)
        except UserError as exc:
            _add_errors(errors, exc)
    if cpf_text:
        row.person = PersonInput(name=name, cpf=cpf_text, rg=text.get("rg", ""), birth_date=birth, **address)
        try:
            validate_person(row.person, today=today)
        except UserError as exc:
            _add_errors(errors, exc)
    row.name = legal if row.company is not None else name
    row.document = format_cnpj(cnpj) if cnpj else (format_cpf(cpf) if cpf else (cnpj_text or cpf_text))

    permit_columns = [k for k in PERMIT_FIELDS if k in cells]
    if any(text.get(k) for k in permit_columns) or (not permit_columns and any(k in defaults for k in PERMIT_FIELDS)):
        row.permit = _check_permit(cells, text, defaults, row, errors)
    errors[:] = [" ".join(e.split()) for e in errors]  # a cell's line breaks never split the preview's line
    return row


def _check_permit(cells: dict, text: dict, defaults: dict, row: RowCheck, errors: list[str]) -> PermitData | None:
    from models.rules.regimes import get_regime

    def given(key: str):
        value = _value(cells, key)
        if value == "" and key in defaults:
            return defaults[key].strip()
        return value

    def given_text(key: str) -> str:
        return _text(given(key))

    regime = None
    holder = ""
    regime_id = given_text("regime")
    if not regime_id:
        errors.append("Permissão: informe o regime.")
    else:
        try:
            regime = get_regime(regime_id)
        except UserError as exc:
            errors.append(exc.message)
    kind = None
    kind_text = given_text("permit_kind")
    if not kind_text:
        errors.append("Permissão: informe o tipo de permissão.")
    elif regime is not None:
        kind = _pick(regime, regime.permit_kinds, kind_text, "id", "label")
        if kind is None:
            options = ", ".join(k.id for k in regime.permit_kinds)
            errors.append(f"Tipo de permissão {kind_text!r} não existe em {regime.short} (tipos: {options}).")
        elif row.company is not None and "company" in kind.holder:
            holder = "company"
        elif row.person is not None and "person" in kind.holder:
            holder = "person"
        elif row.person is not None or row.company is not None:
            who = "empresa (CNPJ)" if "company" in kind.holder else "pessoa (CPF)"
            errors.append(f"{kind.label} é concedida a {who} ({regime.cite_item(kind)}).")
    data = PermitData(
        regime=regime.id if regime else regime_id,
        permit_kind=kind.id if kind else kind_text,
        holder=holder,
        site=given_text("site"),
        previous_number=given_text("previous_number"),
    )
    for key, limit in (("site", 200), ("previous_number", 40)):
        if len(getattr(data, key)) > limit:
            errors.append(f"{FIELD[key].label}: no máximo {limit} caracteres.")
    line_text = given_text("line")
    if line_text and regime is not None:
        found = _pick(regime, regime.lines, line_text, "id", "label")
        if found is None:
            errors.append(f"Ramo {line_text!r} não existe em {regime.short}.")
        else:
            data.line = found.id
    section_text = given_text("section")
    if section_text and regime is not None:
        found = _pick(regime, regime.sections, section_text, "id", "numeral", "label")
        if found is None:
            errors.append(f"Seção {section_text!r} não existe em {regime.short}.")
        else:
            data.section = found.id
    for key in ("front", "depth"):
        value = given(key)
        if _text(value):
            try:
                setattr(data, key, parse_size(value, FIELD[key].label))
            except UserError as exc:
                errors.append(exc.message)
    for key, label in (("valid_from", "Início da validade"), ("valid_until", "Fim da validade")):
        value = given(key)
        if not _text(value):
            errors.append(f"Permissão: informe {label.lower()}.")
            continue
        try:
            setattr(data, key, parse_date(value, label))
        except UserError as exc:
            errors.append(exc.message)
    if data.valid_from and data.valid_until and data.valid_until < data.valid_from:
        errors.append(
            f"A validade termina ({data.valid_until:%d/%m/%Y}) antes de começar ({data.valid_from:%d/%m/%Y})."
        )
    return data


# --------------------------------------------------------------------------- the preview


@dataclass
class Preview:
    """Every row checked, against the file and the database; nothing was written."""

    sheet: Sheet
    mapping: Mapping
    rows: list[RowCheck]

    @property
    def ok_rows(self) -> list[RowCheck]:
        return [r for r in self.rows if r.ok]

    @property
    def bad_rows(self) -> list[RowCheck]:
        return [r for r in self.rows if not r.ok]

    def summary(self) -> str:
        ok, bad = len(self.ok_rows), len(self.bad_rows)
        text = f"{ok} {'linha correta' if ok == 1 else 'linhas corretas'}"
        if bad:
            text += f", {bad} com problemas"
        permits = sum(1 for r in self.ok_rows if r.permit is not None)
        if permits:
            text += f" ({permits} com permissão)"
        return text

    def text(self) -> str:
        """The preview as the command line prints it."""
        out = [f"{self.sheet.name}: {len(self.rows)} linhas lidas — {self.summary()}."]
        for row in self.bad_rows:
            who = f" ({row.name})" if row.name else ""
            out.append(f"linha {row.line}{who}: {row.reason}")
        return "\n".join(out) + "\n"


def cells_of(sheet: Sheet, mapping: Mapping, cells: list) -> dict:
    index = {h: i for i, h in enumerate(sheet.headers)}
    return {key: cells[index[header]] for key, header in mapping.columns.items() if header in index}


def preview_import(sheet: Sheet, mapping: Mapping, *, today: _dt.date | None = None) -> Preview:
    """Check every row (see the module's docstring); reads the database for duplicates, writes nothing."""
    today = today or _dt.date.today()
    check_mapping(mapping, sheet.headers)
    rows = [
        check_row(line, cells_of(sheet, mapping, cells), today=today, defaults=mapping.defaults)
        for line, cells in sheet.rows
    ]
    if not rows:
        raise UserError(f"{sheet.name} não tem linhas de dados abaixo do cabeçalho.")
    people = _registered(Person, Person.cpf, {r.cpf for r in rows if r.cpf}, lambda p: p.name)
    companies = _registered(Company, Company.cnpj, {r.cnpj for r in rows if r.cnpj}, lambda c: c.legal_name)
    first_person: dict[str, RowCheck] = {}  # CPF → the row that registers that person
    first_cnpj: dict[str, int] = {}
    for row in rows:  # in file order: an earlier row's checks are all done when a later one looks at it
        if row.cnpj:
            if row.cnpj in companies:
                row.errors.append(f"CNPJ já cadastrado para {companies[row.cnpj]}.")
            elif row.cnpj in first_cnpj:
                row.errors.append(f"CNPJ repetido: já está na linha {first_cnpj[row.cnpj]}.")
            else:
                first_cnpj[row.cnpj] = row.line
        if not row.cpf:
            continue
        earlier = first_person.get(row.cpf)
        if row.company is None:  # a person's own row
            if row.cpf in people:
                row.errors.append(f"CPF já cadastrado para {people[row.cpf]}.")
            elif earlier is not None:
                row.errors.append(f"CPF repetido: já está na linha {earlier.line}.")
            else:
                first_person[row.cpf] = row
        elif row.cpf in people:  # a company's partner already registered: linked, not registered again
            row.link_person = True
        elif earlier is not None:
            if earlier.ok:
                row.link_person = True  # registered by the earlier row, imported before this one
            else:
                row.errors.append(
                    f"O sócio (CPF {format_cpf(row.cpf)}) está na linha {earlier.line}, que tem problemas."
                )
        else:
            first_person[row.cpf] = row
    return Preview(sheet, mapping, rows)


def _registered(model, column, keys, label) -> dict[str, str]:
    found: dict[str, str] = {}
    values = list(keys)
    for start in range(0, len(values), 500):
        for item in model.select().where(column.in_(values[start : start + 500])):
            found[getattr(item, column.name)] = label(item)
    return found


# --------------------------------------------------------------------------- the import


@dataclass(frozen=True)
class ImportResult:
    people: int
    companies: int
    permits: int
    skipped: int
    permit_numbers: tuple[str, ...] = ()

    def text(self) -> str:
        parts = [
            f"{self.people} {'pessoa' if self.people == 1 else 'pessoas'}",
            f"{self.companies} {'empresa' if self.companies == 1 else 'empresas'}",
            f"{self.permits} {'permissão' if self.permits == 1 else 'permissões'}",
        ]
        text = "Importados: " + ", ".join(parts[:-1]) + " e " + parts[-1] + "."
        if self.skipped:
            text += f" {self.skipped} {'linha ficou' if self.skipped == 1 else 'linhas ficaram'} de fora."
        return text


def import_rows(
    preview: Preview,
    *,
    all_or_nothing: bool = False,
    today: _dt.date | None = None,
    key_dir: Path | None = None,
    progress: Callable[[int, int], bool | None] | None = None,
) -> ImportResult:
    """Write the good rows of ``preview`` in one transaction (see the module's docstring).

    Two phases, so that another desk waits at most for the writing: every row is first **prepared** with no
    transaction open — validated as the people screens validate, its permit's fields, schedule and event made —
    and only then written in **one short transaction** that checks again what another desk may have registered
    meanwhile, inserts the prepared rows and takes the permits' numbers at the end, in one step.

    ``progress(done, total)`` is called before each row is prepared and at the end, inside the write;
    returning ``False`` cancels: nothing is written, or everything is rolled back (``ImportCancelled``).
    ``key_dir``: the municipality's signing key folder, to sign the QR text of
    the imported permits (``None``: unsigned).
    """
    from models.access import session

    session.require("import")
    today = today or _dt.date.today()
    bad = preview.bad_rows
    if all_or_nothing and bad:
        raise UserError(
            f"{len(bad)} {'linha tem' if len(bad) == 1 else 'linhas têm'} problemas e a importação é "
            "tudo ou nada: nada foi importado."
        )
    good = preview.ok_rows
    if not good:
        raise UserError("Nenhuma linha correta para importar: nada foi importado.")
    if any(row.company is not None or (row.person is not None and not row.link_person) for row in good):
        session.require("people.save")
    by = session.who()
    source = preview.sheet.name
    prepared: list[_Prepared] = []
    for done, row in enumerate(good):  # no transaction open: other desks write meanwhile
        if progress is not None and progress(done, len(good)) is False:
            raise ImportCancelled()
        try:
            prepared.append(_prepare_row(row, today=today, source=source, by=by))
        except UserError as exc:
            raise UserError(f"Linha {row.line}: {exc.message} Nada foi importado.", field=exc.field) from exc
    with db.atomic():
        people, companies, numbers = _write_prepared(prepared, today=today, key_dir=key_dir, by=by)
        if progress is not None and progress(len(good), len(good)) is False:
            raise ImportCancelled()
    return ImportResult(people, companies, len(numbers), len(bad), tuple(numbers))


@dataclass
class _Prepared:
    """One row made ready for the write: nothing in it needs the database's write turn."""

    row: RowCheck
    person_values: dict | None = None  # a person to register (validated)
    company_values: dict | None = None  # a company to register (validated)
    permit: dict | None = None  # the permit's fields but its number and holder
    event: dict | None = None  # its "issued" event but the permit


def _prepare_row(row: RowCheck, *, today: _dt.date, source: str, by: str) -> _Prepared:
    ready = _Prepared(row)
    if row.person is not None and not row.link_person:
        ready.person_values = validate_person(row.person, today=today)
        if row.person.photo_file:  # pragma: no cover - a list does not carry photos; kept as the screen keeps them
            from models.store.files import keep_file

            kept = keep_file(row.person.photo_file, "photos")
            ready.person_values["photo_path"], ready.person_values["photo_sha256"] = kept.path, kept.sha256
    if row.company is not None:
        ready.company_values = validate_company(row.company)
    if row.permit is not None:
        ready.permit, ready.event = _prepare_permit(row, today=today, source=source, by=by)
    return ready


def _prepare_permit(row: RowCheck, *, today: _dt.date, source: str, by: str) -> tuple[dict, dict]:
    from models.permits.term import schedule_text
    from models.rules.regimes import get_regime

    data = row.permit
    regime = get_regime(data.regime)
    kind = regime.permit_kind(data.permit_kind)
    status = "active" if data.valid_until >= today else "expired"
    notes = "Importada da lista do município"
    if data.previous_number:
        notes += f"; número anterior: {data.previous_number}"
    fields = dict(
        year=today.year,
        origin="import",
        regime=regime.id,
        permit_kind=kind.id,
        act_sha256=regime.sha256 or "",
        site=data.site,
        line=data.line,
        section=data.section,
        front=data.front,
        depth=data.depth,
        days_hours=schedule_text(regime, kind),
        valid_from=data.valid_from,
        valid_until=data.valid_until,
        status=status,
        issued_on=data.valid_from,
        issued_by=by,
        notes=notes + ".",
    )
    event = dict(
        on=today,
        by=by,
        kind="issued",
        status_from="",
        status_to=status,
        reason=f"importada de {source}, linha {row.line}"
        + (f" (número anterior {data.previous_number})" if data.previous_number else ""),
        ground="",
        data=json.dumps(
            {"import": source, "line": row.line, "previous_number": data.previous_number},
            ensure_ascii=False,
            sort_keys=True,
        ),
    )
    return fields, event


def _write_prepared(
    prepared: list[_Prepared], *, today: _dt.date, key_dir: Path | None, by: str
) -> tuple[int, int, list[str]]:
    """The write: inside the caller's transaction, what was prepared, checked again against what another desk
    registered meanwhile; the permits' numbers taken last, in one step."""
    from models.permits import Permit, PermitEvent
    from models.permits.document import sign_permit
    from models.registry.applications import next_numbers
    from models.registry.people import write_company, write_person

    def clash(model, column, values: list[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for start in range(0, len(values), 500):
            for row in model.select().where(column.in_(values[start : start + 500])):
                found[getattr(row, column.name)] = row
        return found

    cpfs = [p.person_values["cpf"] for p in prepared if p.person_values is not None]
    cnpjs = [p.company_values["cnpj"] for p in prepared if p.company_values is not None]
    linked = [p.row.cpf for p in prepared if p.row.person is not None and p.row.link_person]
    taken_cpf, taken_cnpj = clash(Person, Person.cpf, cpfs), clash(Company, Company.cnpj, cnpjs)
    known = clash(Person, Person.cpf, linked)
    people = companies = 0
    permits: list[tuple[_Prepared, Permit]] = []
    made: dict[str, Person] = {}
    for ready in prepared:
        row = ready.row
        person = company = None
        if ready.person_values is not None:
            cpf = ready.person_values["cpf"]
            if cpf in taken_cpf:
                raise UserError(
                    f"Linha {row.line}: CPF já cadastrado para {taken_cpf[cpf].name} (em outra mesa, "
                    "enquanto a lista era preparada). Nada foi importado.",
                    field="cpf",
                )
            person = made[cpf] = write_person(row.person, dict(ready.person_values), None)
            people += 1
        elif row.person is not None:
            person = made.get(row.cpf) or known.get(row.cpf)
            if person is None:
                raise UserError(
                    f"Linha {row.line}: o sócio de CPF {row.cpf} não está mais cadastrado. Nada foi importado.",
                    field="cpf",
                )
        if ready.company_values is not None:
            cnpj = ready.company_values["cnpj"]
            if cnpj in taken_cnpj:
                raise UserError(
                    f"Linha {row.line}: CNPJ já cadastrado para {taken_cnpj[cnpj].legal_name} (em "
                    "outra mesa). Nada foi importado.",
                    field="cnpj",
                )
            company = write_company(row.company, dict(ready.company_values), None)
            companies += 1
        if ready.permit is not None:
            holder_company = row.permit.holder == "company"
            permit = Permit(
                **ready.permit,
                person=None if holder_company else (person.id if person else None),
                company=(company.id if company else None) if holder_company else None,
            )
            permits.append((ready, permit))
    numbers: list[str] = []
    if permits:  # the numbers last: the counter's row is held only from here to the commit
        for (ready, permit), seq in zip(permits, next_numbers(f"permit-{today.year}", len(permits)), strict=True):
            permit.seq, permit.number = seq, f"{today.year}/{seq:05d}"
            permit.save(force_insert=True)
            PermitEvent.create(permit=permit.id, **ready.event)
            if permit.status == "active":
                sign_permit(permit, key_dir)
            numbers.append(permit.number)
    return people, companies, numbers


def release_connection() -> None:
    """Close this thread's connection to the database (a worker thread's, when its import is over)."""
    if db.obj is not None and not db.is_closed():
        db.close()
