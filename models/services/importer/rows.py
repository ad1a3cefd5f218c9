"""Checking one row of an import: documents (CPF, CNPJ), dates (dd/mm/aaaa, ISO, Excel serials), sizes, yes/no,
and the permit's fields against the regime — every mistake listed with the row's line.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from models.base.br import calendar_problem, clean_cnpj, clean_cpf, format_cnpj, format_cpf
from models.base.errors import FieldErrors, UserError
from models.base.text import search_key
from models.registry.people import CompanyInput, PartnerInput, PersonInput, validate_company, validate_person
from models.services.importer.fields import EXCEL_EPOCH, FIELD, PERMIT_FIELDS


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
    address: dict[str, Any] = {  # the same keywords in CompanyInput and PersonInput
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
