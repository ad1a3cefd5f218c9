"""Step 4 of an import: the good rows prepared and staged in numbered batches, each in a short transaction of its
own, then published in one short transaction — people, companies and their permits, numbered last, one bulk insert
per table — and the permits signed after (issue 26 §7).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models.base import clock
from models.base.br import clean_cpf
from models.base.errors import UserError
from models.registry.people import (
    Company,
    CompanyPartner,
    Person,
    validate_company,
    validate_person,
)
from models.services.importer.fields import ImportCancelled
from models.services.importer.preview import Preview
from models.services.importer.rows import RowCheck
from models.services.importer.staging import (
    PUBLISHED,
    STAGING,
    STALE_AFTER,
    ImportRun,
    ImportStage,
    dump_rows,
    load_rows,
)
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


#: Rows prepared and staged per transaction: a batch of 250 is written in some tens of milliseconds.
BATCH_ROWS = 250

#: Rows per bulk insert when publishing (SQLite takes at most 32.766 values in one statement; a person has ~30).
INSERT_ROWS = 500

#: Permits signed per transaction after the publication (each signature is an update of the permit, audited).
SIGN_ROWS = 100


def import_rows(
    preview: Preview,
    *,
    all_or_nothing: bool = False,
    today: _dt.date | None = None,
    key_dir: Path | None = None,
    progress: Callable[[int, int], bool | None] | None = None,
) -> ImportResult:
    """Write the good rows of ``preview`` (see the module's docstring) in short transactions, the town's tables
    reached by the last one alone.

    1. **Prepare and stage.** Every row is prepared with no transaction open — validated as the people screens
       validate, its permit's fields, schedule and event made — and each batch of :data:`BATCH_ROWS` prepared rows
       is written to the staging table in a transaction of its own, numbered (:mod:`.staging`). Nothing staged is
       visible to another desk. A desk killed meanwhile resumes here: the same rows imported again (same file,
       mapping, options and user) skip the batches already staged.
    2. **Publish.** One short transaction checks again what another desk registered meanwhile and inserts every
       prepared row with one bulk insert per table and per :data:`INSERT_ROWS` rows (each one audit entry), the
       permits' numbers taken last, in one step: the import appears whole or not at all.
    3. **Sign.** With ``key_dir``, the active permits' QR texts are signed after, :data:`SIGN_ROWS` per
       transaction; a desk killed meanwhile signs the rest at its next import.

    ``progress(done, total)`` is called before each row is prepared and at the end, inside the publication;
    returning ``False`` cancels: nothing is published, or it is rolled back, and the staged batches are removed
    (``ImportCancelled``). A refusal (a bad row, a CPF registered meanwhile) removes them too.
    ``key_dir``: the municipality's signing key folder, to sign the QR text of the imported permits (``None``:
    unsigned).
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
    if key_dir is not None and any(row.permit is not None for row in good):
        from models.access.signing import as_signer

        key_dir = as_signer(key_dir)  # no key, or a locked one: refused before anything is staged
    finish_published(key_dir)  # an import killed while it signed: its permits first
    run = _open_run(_run_key(good, today=today, by=by, key_dir=key_dir), source, by, len(good))
    if run.state == PUBLISHED:  # imported already; killed before its permits were all signed
        return _finish(run, key_dir)
    try:
        _stage(run, good, today=today, source=source, by=by, progress=progress)
        prepared = [row for stage in run.stages.order_by(ImportStage.batch) for row in load_rows(stage.rows)]
        with db.atomic():
            if (
                ImportRun.update(state=PUBLISHED)
                .where((ImportRun.id == run.id) & (ImportRun.state == STAGING))
                .execute()
                != 1
            ):
                raise _PublishedElsewhereError()
            people, companies, numbers, to_sign = _publish(prepared, today=today)
            ImportStage.delete().where(ImportStage.run == run.id).execute()
            outcome = {"people": people, "companies": companies, "numbers": numbers, "skipped": len(bad)}
            ImportRun.update(result=json.dumps({**outcome, "sign": to_sign})).where(ImportRun.id == run.id).execute()
            if progress is not None and progress(len(good), len(good)) is False:
                raise ImportCancelled()
    except _PublishedElsewhereError:
        raise UserError("Esta lista já foi importada em outra mesa, ou está sendo: nada foi importado.") from None
    except (ImportCancelled, UserError):
        _discard(run.id)
        raise
    return _finish(ImportRun.get_by_id(run.id), key_dir)


class _PublishedElsewhereError(Exception):
    """Another desk published the same run (the same user's rows) first."""


def _run_key(good: list[RowCheck], *, today: _dt.date, by: str, key_dir: Path | None) -> str:
    """What makes two imports the same one (to resume): the rows as checked, the day, the user."""
    digest = hashlib.sha256(f"{by}\n{today.isoformat()}\n{key_dir is not None}\n".encode())
    for row in good:
        digest.update(repr(row).encode("utf-8", "surrogatepass"))
        digest.update(b"\n")
    return digest.hexdigest()


def _open_run(key: str, source: str, by: str, total: int) -> ImportRun:
    """The run of these rows: the one a killed desk left (resumed), or a new one. Runs left for too long by a desk
    that never came back are removed first."""
    stale = clock.now() - STALE_AFTER
    with db.atomic():
        old = [r.id for r in ImportRun.select(ImportRun.id).where(ImportRun.started_at < stale)]
        if old:
            ImportStage.delete().where(ImportStage.run.in_(old)).execute()
            ImportRun.delete().where(ImportRun.id.in_(old) & (ImportRun.state == STAGING)).execute()
        run = ImportRun.get_or_none(ImportRun.key == key)
        if run is None:
            batches = (total + BATCH_ROWS - 1) // BATCH_ROWS
            ImportRun.insert(key=key, source=source[:300], username=by, total=total, batches=batches).execute()
            run = ImportRun.get(ImportRun.key == key)
    return run


def _stage(
    run: ImportRun,
    good: list[RowCheck],
    *,
    today: _dt.date,
    source: str,
    by: str,
    progress: Callable[[int, int], bool | None] | None,
) -> None:
    """Prepare the rows batch by batch, no transaction open, and write each batch in one short transaction."""
    staged = {s.batch for s in ImportStage.select(ImportStage.batch).where(ImportStage.run == run.id)}
    for number, start in enumerate(range(0, len(good), BATCH_ROWS), start=1):
        if number in staged:  # written before the desk was killed: not prepared again
            continue
        batch: list[dict] = []
        for done, row in enumerate(good[start : start + BATCH_ROWS], start=start):
            if progress is not None and progress(done, len(good)) is False:
                raise ImportCancelled()
            try:
                batch.append(_prepare_row(row, today=today, source=source, by=by))
            except UserError as exc:
                raise UserError(f"Linha {row.line}: {exc.message} Nada foi importado.", field=exc.field) from exc
        with db.atomic():
            ImportStage.insert(run=run.id, batch=number, rows=dump_rows(batch)).execute()


def _discard(run_id: int) -> None:
    with db.atomic():
        ImportStage.delete().where(ImportStage.run == run_id).execute()
        ImportRun.delete().where(ImportRun.id == run_id).execute()


def _finish(run: ImportRun, key_dir: Path | None) -> ImportResult:
    """Sign what the run left unsigned, :data:`SIGN_ROWS` permits per transaction; remove the run."""
    from models.permits import Permit
    from models.permits.document import sign_permit

    outcome = json.loads(run.result)
    ids: list[int] = outcome["sign"] if key_dir is not None else []
    for start in range(0, len(ids), SIGN_ROWS):
        with db.atomic():
            for permit in Permit.select().where(Permit.id.in_(ids[start : start + SIGN_ROWS]) & (Permit.qr_text == "")):
                sign_permit(permit, key_dir)
    with db.atomic():
        ImportRun.delete().where(ImportRun.id == run.id).execute()
    numbers = tuple(outcome["numbers"])
    return ImportResult(outcome["people"], outcome["companies"], len(numbers), outcome["skipped"], numbers)


def finish_published(key_dir: Path | None) -> int:
    """Sign the permits of every import published but killed before it had signed them all; how many runs."""
    if key_dir is None:  # the runs wait for a desk that holds the key
        return 0
    runs = list(ImportRun.select().where(ImportRun.state == PUBLISHED))
    if runs:
        from models.access.signing import as_signer

        key_dir = as_signer(key_dir)
    for run in runs:
        _finish(run, key_dir)
    return len(runs)


def _prepare_row(row: RowCheck, *, today: _dt.date, source: str, by: str) -> dict:
    """One row made ready for the publication (plain values, staged as JSON): nothing in it needs the database's
    write turn."""
    ready: dict[str, Any] = {"line": row.line, "cpf": row.cpf, "link": bool(row.link_person)}
    ready["person"] = ready["company"] = ready["permit"] = ready["event"] = None
    ready["partners"] = []
    if row.person is not None and not row.link_person:
        ready["person"] = validate_person(row.person, today=today)
    elif row.person is not None:
        ready["linked"] = True  # the partner's CPF is registered: linked, not registered again
    if row.company is not None:
        ready["company"] = validate_company(row.company)
        ready["partners"] = [
            {
                "name": " ".join(partner.name.split()),
                "cpf": clean_cpf(partner.cpf) if partner.cpf.strip() else "",
                "spouse_name": " ".join(partner.spouse_name.split()),
                "spouse_cpf": clean_cpf(partner.spouse_cpf) if partner.spouse_cpf.strip() else "",
            }
            for partner in row.company.partners
        ]
    if row.permit is not None:
        ready["permit"], ready["event"] = _prepare_permit(row, today=today, source=source, by=by)
        ready["holder"] = row.permit.holder
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


def _filled(model, rows: list[dict]) -> list[dict]:
    """Rows of one shape for a bulk insert: what a row leaves out, its field's default."""
    names = sorted({name for row in rows for name in row})
    defaults = {}
    for name in names:
        field = model._meta.fields[name]
        defaults[name] = field.default() if callable(field.default) else field.default
    return [{name: row.get(name, defaults[name]) for name in names} for row in rows]


def _insert(model, rows: list[dict]) -> None:
    """Bulk insert, :data:`INSERT_ROWS` rows per statement (one audit entry each)."""
    rows = _filled(model, rows)
    for start in range(0, len(rows), INSERT_ROWS):
        model.insert_many(rows[start : start + INSERT_ROWS]).execute()


def _ids(model, column, values: list) -> dict[Any, int]:
    """The ids of the rows whose unique ``column`` holds ``values``."""
    found: dict[Any, int] = {}
    for start in range(0, len(values), INSERT_ROWS):
        query = model.select(model.id, column).where(column.in_(values[start : start + INSERT_ROWS]))
        for row in query.tuples():
            found[row[1]] = row[0]
    return found


def _publish(prepared: list[dict], *, today: _dt.date) -> tuple[int, int, list[str], list[int]]:
    """Inside the caller's transaction: the prepared rows, checked again against what another desk registered
    meanwhile, inserted in bulk; the permits' numbers taken last, in one step. Returns the people and companies
    registered, the permits' numbers and the ids of the active permits (to sign)."""
    from models.permits import Permit, PermitEvent
    from models.registry.applications import next_numbers

    def clash(model, column, values: list[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for start in range(0, len(values), INSERT_ROWS):
            for row in model.select().where(column.in_(values[start : start + INSERT_ROWS])):
                found[getattr(row, column.name)] = row
        return found

    people = [p for p in prepared if p["person"] is not None]
    companies = [p for p in prepared if p["company"] is not None]
    taken_cpf = clash(Person, Person.cpf, [p["person"]["cpf"] for p in people])
    taken_cnpj = clash(Company, Company.cnpj, [p["company"]["cnpj"] for p in companies])
    for ready in people:
        if ready["person"]["cpf"] in taken_cpf:
            raise UserError(
                f"Linha {ready['line']}: CPF já cadastrado para {taken_cpf[ready['person']['cpf']].name} (em outra "
                "mesa, enquanto a lista era preparada). Nada foi importado.",
                field="cpf",
            )
    for ready in companies:
        if ready["company"]["cnpj"] in taken_cnpj:
            raise UserError(
                f"Linha {ready['line']}: CNPJ já cadastrado para {taken_cnpj[ready['company']['cnpj']].legal_name} "
                "(em outra mesa). Nada foi importado.",
                field="cnpj",
            )
    _insert(Person, [p["person"] for p in people])
    cpfs = {p["cpf"] for p in prepared if p["cpf"]} | {
        partner["cpf"] for p in companies for partner in p["partners"] if partner["cpf"]
    }
    person_id = _ids(Person, Person.cpf, sorted(cpfs))
    for ready in prepared:
        if ready.get("linked") and ready["cpf"] not in person_id:
            raise UserError(
                f"Linha {ready['line']}: o sócio de CPF {ready['cpf']} não está mais cadastrado. Nada foi importado.",
                field="cpf",
            )
    _insert(Company, [p["company"] for p in companies])
    company_id = _ids(Company, Company.cnpj, [p["company"]["cnpj"] for p in companies])
    partners = [
        {**partner, "company": company_id[p["company"]["cnpj"]], "person": person_id.get(partner["cpf"])}
        for p in companies
        for partner in p["partners"]
    ]
    if partners:
        _insert(CompanyPartner, partners)
    with_permit = [p for p in prepared if p["permit"] is not None]
    if not with_permit:
        return len(people), len(companies), [], []
    permits = []
    # the numbers last: the counter's row is held only from here to the commit
    for ready, seq in zip(with_permit, next_numbers(f"permit-{today.year}", len(with_permit)), strict=True):
        holder_company = ready["holder"] == "company"
        permits.append(
            {
                **ready["permit"],
                "seq": seq,
                "number": f"{today.year}/{seq:05d}",
                "person": None if holder_company else person_id.get(ready["cpf"]),
                "company": company_id.get(ready["company"]["cnpj"]) if holder_company and ready["company"] else None,
            }
        )
    _insert(Permit, permits)
    numbers = [p["number"] for p in permits]
    permit_id = _ids(Permit, Permit.number, numbers)
    _insert(
        PermitEvent,
        [{**ready["event"], "permit": permit_id[p["number"]]} for ready, p in zip(with_permit, permits, strict=True)],
    )
    to_sign = [permit_id[p["number"]] for p in permits if p["status"] == "active"]
    return len(people), len(companies), numbers, to_sign


def release_connection() -> None:
    """Close this thread's connection to the database (a worker thread's, when its import is over)."""
    if db.obj is not None and not db.is_closed():
        db.close()
