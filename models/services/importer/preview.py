"""Step 3 of an import: every row checked, duplicates within the file and against the database found — nothing
written.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.base.br import format_cpf
from models.base.errors import UserError
from models.registry.people import (
    Company,
    Person,
)
from models.services.importer.mapping import Mapping, check_mapping
from models.services.importer.rows import RowCheck, check_row
from models.services.importer.sheet import Sheet


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
