"""Step 4 of an import: the good rows written in one short transaction — people, companies and their permits,
numbered last — after preparing each row with no transaction open.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.base.errors import UserError
from models.registry.people import (
    Company,
    Person,
    validate_company,
    validate_person,
)
from models.services.importer.fields import ImportCancelled
from models.services.importer.preview import Preview
from models.services.importer.rows import RowCheck
from models.store.db import db


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
