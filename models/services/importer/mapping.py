"""Step 2 of an import: the :class:`Mapping` of columns to fields — guessed from the header, saved and loaded as
JSON, remembered for a header already seen, checked against the sheet.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from models.base.errors import UserError
from models.base.text import search_key
from models.services.importer.fields import FIELD, FIELDS, MAPPING_FORMAT, MAPPING_VERSION, PERMIT_FIELDS


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
    from models.registry.town import for_new_work

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
            for_new_work(mapping.defaults["regime"].strip())  # never another town's act (issue 31 §1)
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
