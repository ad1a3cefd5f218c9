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

from peewee import IntegrityError, PostgresqlDatabase

from models.access.signing_keys import KeySource
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
    compact,
    dump,
    stored_rows,
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
    key_dir: KeySource | None = None,
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
        staged = _check_staged(run)
        try:
            _publish_run(staged, skipped=len(bad), today=today, progress=progress, total=len(good))
        except IntegrityError:  # another desk registered one of them after the check: say which, as the check does
            _check_staged(run)
            raise UserError("Outra mesa cadastrou alguém desta lista agora mesmo: nada foi importado.") from None
    except _PublishedElsewhereError:
        raise UserError("Esta lista já foi importada em outra mesa, ou está sendo: nada foi importado.") from None
    except (ImportCancelled, UserError):
        _discard(run.id)
        raise
    return _finish(ImportRun.get_by_id(run.id), key_dir)


def _publish_run(
    staged: _Staged,
    *,
    skipped: int,
    today: _dt.date,
    progress: Callable[[int, int], bool | None] | None,
    total: int,
) -> None:
    """The publication's one transaction: its first write takes the write turn, held to the commit."""
    run = staged.run
    with db.atomic():
        if (
            ImportRun.update(state=PUBLISHED).where((ImportRun.id == run.id) & (ImportRun.state == STAGING)).execute()
            != 1
        ):
            raise _PublishedElsewhereError()
        people, companies, numbers, to_sign = _publish(staged, today=today)
        outcome = {"people": people, "companies": companies, "numbers": numbers, "skipped": skipped}
        ImportRun.update(result=json.dumps({**outcome, "sign": to_sign})).where(ImportRun.id == run.id).execute()
        if progress is not None and progress(total, total) is False:
            raise ImportCancelled()


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
    """Prepare the rows batch by batch, no transaction open, and write each batch in one short transaction: per
    table, its rows as the database stores them (:func:`.staging.stored_rows`), which the publication inserts."""
    staged = {s.batch for s in ImportStage.select(ImportStage.batch).where(ImportStage.run == run.id)}
    permits_before = 0  # each permit's place among the import's permits: its number is the first one plus it
    for number, start in enumerate(range(0, len(good), BATCH_ROWS), start=1):
        rows = good[start : start + BATCH_ROWS]
        first_permit = permits_before
        permits_before += sum(1 for row in rows if row.permit is not None)
        if number in staged:  # written before the desk was killed: not prepared again
            continue
        batch: list[dict] = []
        for done, row in enumerate(rows, start=start):
            if progress is not None and progress(done, len(good)) is False:
                raise ImportCancelled()
            try:
                batch.append(_prepare_row(row, today=today, source=source, by=by))
            except UserError as exc:
                raise UserError(f"Linha {row.line}: {exc.message} Nada foi importado.", field=exc.field) from exc
        tables = _staged_tables(batch, first_permit)
        try:
            with db.atomic():
                ImportStage.insert(run=run.id, batch=number, **{k: dump(v) for k, v in tables.items()}).execute()
        except IntegrityError:  # the same user imports the same list at another desk, at this very moment
            raise _PublishedElsewhereError() from None


def _staged_tables(batch: list[dict], first_permit: int) -> dict[str, list[dict]]:
    """A batch of prepared rows as the rows of each table, with what the publication needs to link them: a
    person's or a partner's CPF (``_cpf``), a company's CNPJ (``_cnpj``), a permit's place (``_n``), the line."""
    from models.permits import Permit, PermitEvent

    people, companies, partners, permits, events = [], [], [], [], []
    place = first_permit
    for ready in batch:
        line = {"_line": ready["line"]}
        if ready["person"] is not None:
            people.append({**ready["person"], **line})
        if ready["company"] is not None:
            cnpj = ready["company"]["cnpj"]
            companies.append({**ready["company"], **line})
            partners += [{**partner, "_cnpj": cnpj, "_cpf": partner["cpf"], **line} for partner in ready["partners"]]
        if ready["permit"] is not None:
            holder = (
                {"_cnpj": ready["company"]["cnpj"], "_cpf": ""}
                if ready["holder"] == "company"
                else {"_cpf": ready["cpf"], "_cnpj": ""}
            )
            permits.append({**ready["permit"], **holder, **line, "_n": place})
            events.append({**ready["event"], "_n": place})
            place += 1
    return {
        "people": stored_rows(Person, people),
        "companies": stored_rows(Company, companies),
        "partners": stored_rows(CompanyPartner, partners),
        "permits": stored_rows(Permit, permits),
        "events": stored_rows(PermitEvent, events),
    }


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
        ImportStage.delete().where(ImportStage.run == run.id).execute()
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


class _Rows:
    """The SQL that reads one staged table's rows of a run, on the server (one ``INSERT … SELECT``): SQLite's
    ``json_each`` and ``json_extract``, PostgreSQL's ``jsonb_array_elements`` and ``jsonb_populate_record`` (each
    value cast to its column's type by the column's own input function)."""

    def __init__(self, model, stage_column: str, run_id: int) -> None:
        self.model, self.run_id = model, run_id
        self.pg = isinstance(db.obj, PostgresqlDatabase)
        table = model._meta.table_name
        if self.pg:
            self.source = (
                f'FROM "import_stage" s CROSS JOIN LATERAL jsonb_array_elements(s."{stage_column}"::jsonb) e(doc) '
                f'CROSS JOIN LATERAL jsonb_populate_record(NULL::"{table}", e.doc) r'
            )
        else:
            self.source = f'FROM "import_stage" s, json_each(s."{stage_column}") e'

    def column(self, name: str) -> str:
        return f'r."{name}"' if self.pg else f"json_extract(e.value, '$.\"{name}\"')"

    def extra(self, name: str) -> str:
        return f"(e.doc->>'{name}')" if self.pg else f"json_extract(e.value, '$.\"{name}\"')"

    def number(self, year: int, first: int) -> tuple[str, str]:
        """A permit's sequence number and its text (``AAAA/NNNNN``, as :func:`_publish` formats it) from its place."""
        if self.pg:
            seq = f"({first} + ({self.extra('_n')})::integer)"
            return seq, f"'{year}/' || CASE WHEN {seq} < 100000 THEN lpad({seq}::text, 5, '0') ELSE {seq}::text END"
        seq = f"({first} + {self.extra('_n')})"
        return seq, f"printf('%d/%05d', {year}, {seq})"

    def insert(self, computed: dict[str, str], joins: str = "") -> int:
        """Insert the run's staged rows: every column of the table but the key, those in ``computed`` from their
        SQL; returns how many rows."""
        pk = self.model._meta.primary_key
        names = [f.column_name for f in self.model._meta.sorted_fields if f is not pk]
        values = [computed.get(name, self.column(name)) for name in names]
        cols = ", ".join(f'"{n}"' for n in names)
        order = "s.batch, e.key" if not self.pg else "s.batch"
        sql = (
            f'INSERT INTO "{self.model._meta.table_name}" ({cols}) SELECT {", ".join(values)} {self.source} {joins} '
            f"WHERE s.run_id = {int(self.run_id)} ORDER BY {order}"
        )
        cursor = db.execute_sql(sql)
        return cursor.rowcount


def _insert_local(model, rows: list[dict], computed: dict[str, Callable[[dict], Any]]) -> int:
    """Insert staged rows with one ``executemany`` (SQLite): each column's stored value, or ``computed``'s."""
    pk = model._meta.primary_key
    names = [f.column_name for f in model._meta.sorted_fields if f is not pk]
    cols = ", ".join(f'"{n}"' for n in names)
    sql = f'INSERT INTO "{model._meta.table_name}" ({cols}) VALUES ({", ".join("?" * len(names))})'
    data = [tuple(computed[n](row) if n in computed else row[n] for n in names) for row in rows]
    cursor = db.cursor()
    cursor.executemany(sql, data)
    return cursor.rowcount


def _ids(model, column, values: list) -> dict[Any, int]:
    """The ids of the rows whose unique ``column`` holds one of ``values`` (SQLite: one query, the values as one
    JSON parameter)."""
    sql = (
        f'SELECT "{column.column_name}", "id" FROM "{model._meta.table_name}" '
        f'WHERE "{column.column_name}" IN (SELECT value FROM json_each(?))'
    )
    return dict(db.execute_sql(sql, (json.dumps(values),)).fetchall())


def _staged(run_id: int, column: str) -> tuple[list[dict], str]:
    """Every staged row of one table of a run, in order, and the audit entry that will list them."""
    texts = [
        text
        for (text,) in ImportStage.select(getattr(ImportStage, column))
        .where(ImportStage.run == run_id)
        .order_by(ImportStage.batch)
        .tuples()
    ]
    rows = [row for text in texts for row in json.loads(text)]
    return rows, compact(rows) if rows else "[]"


def _clash(model, column, values: list[str]) -> dict[str, str]:
    """Which of ``values`` are registered, with the name each was registered under."""
    name = Person.name if model is Person else Company.legal_name
    found: dict[str, str] = {}
    for start in range(0, len(values), 1000):
        query = model.select(column, name).where(column.in_(values[start : start + 1000]))
        found.update(dict(query.tuples()))
    return found


@dataclass
class _Staged:
    """A run's staged rows, read and checked before the publication takes the write turn."""

    run: ImportRun
    rows: dict[str, list[dict]]  # table's stage column → its rows as staged
    audit: dict[str, str]  # table's stage column → the audit entry that lists them

    @property
    def counts(self) -> dict[str, int]:
        return {column: len(rows) for column, rows in self.rows.items()}


def _check_staged(run: ImportRun) -> _Staged:
    """Read a run's staged rows and check them against what another desk registered meanwhile (no transaction
    open: the publication's inserts are refused by the unique keys if another desk registers one after this)."""
    columns = ("people", "companies", "partners", "permits", "events")
    rows, texts = {}, {}
    for column in columns:
        rows[column], texts[column] = _staged(run.id, column)
    taken = _clash(Person, Person.cpf, [p["cpf"] for p in rows["people"]])
    for row in rows["people"]:
        if row["cpf"] in taken:
            raise UserError(
                f"Linha {row['_line']}: CPF já cadastrado para {taken[row['cpf']]} (em outra mesa, enquanto a lista "
                "era preparada). Nada foi importado.",
                field="cpf",
            )
    taken = _clash(Company, Company.cnpj, [c["cnpj"] for c in rows["companies"]])
    for row in rows["companies"]:
        if row["cnpj"] in taken:
            raise UserError(
                f"Linha {row['_line']}: CNPJ já cadastrado para {taken[row['cnpj']]} (em outra mesa). "
                "Nada foi importado.",
                field="cnpj",
            )
    new = {p["cpf"] for p in rows["people"]}
    holders = [*rows["permits"], *rows["partners"]]  # a person a permit or a partner names: imported now, or there
    there = _clash(Person, Person.cpf, sorted({p["_cpf"] for p in holders if p["_cpf"] and p["_cpf"] not in new}))
    for row in holders:
        if row["_cpf"] and row["_cpf"] not in new and row["_cpf"] not in there:
            raise UserError(
                f"Linha {row['_line']}: o sócio de CPF {row['_cpf']} não está mais cadastrado. Nada foi importado.",
                field="cpf",
            )
    return _Staged(run, rows, texts)


def _publish(staged: _Staged, *, today: _dt.date) -> tuple[int, int, list[str], list[int]]:
    """Inside the caller's transaction, which holds the write turn: the run's staged rows inserted on the server,
    one ``INSERT … SELECT`` per table, each table's rows one audit entry; the permits' numbers taken last, in one
    step. Returns the people and companies registered, the permits' numbers and the ids of the active permits (to
    sign)."""
    from models.permits import Permit, PermitEvent
    from models.registry.applications import next_numbers
    from models.store.audit import append

    run, counts = staged.run, staged.counts
    note = f"importação de {run.source}: {{}} registro(s) de uma vez"

    def audited(model, column: str, inserted: int) -> None:
        if inserted != counts[column]:  # pragma: no cover - the joins find every holder checked before
            raise RuntimeError(f"{model._meta.table_name}: {inserted} of {counts[column]} staged rows inserted")
        if inserted:
            after = staged.audit[column]
            append(table_name=model._meta.table_name, action="insert", after=after, note=note.format(inserted))

    pg = isinstance(db.obj, PostgresqlDatabase)

    def put(model, column: str, server: dict[str, str] | None = None, joins: str = "", local=None) -> None:
        """PostgreSQL: one ``INSERT … SELECT`` from the staged JSON, on the server. SQLite (the desk's own file,
        where ``json_extract`` would parse each row once per column): the rows already read, in one
        ``executemany``; ``local`` computes what ``server`` joins."""
        if pg:
            inserted = _Rows(model, column, run.id).insert(server or {}, joins)
        else:
            inserted = _insert_local(model, staged.rows[column], local or {})
        audited(model, column, inserted)

    put(Person, "people")
    put(Company, "companies")
    person_id: dict[str, int] = {}
    company_id: dict[str, int] = {}
    if not pg:  # what the server's joins find
        holders = [*staged.rows["partners"], *staged.rows["permits"]]
        person_id = _ids(Person, Person.cpf, sorted({row["_cpf"] for row in holders if row["_cpf"]}))
        company_id = _ids(Company, Company.cnpj, sorted({row["_cnpj"] for row in holders if row["_cnpj"]}))
    rows = _Rows(CompanyPartner, "partners", run.id)
    put(
        CompanyPartner,
        "partners",
        {"company_id": "c.id", "person_id": "p.id"},
        f'JOIN "company" c ON c."cnpj" = {rows.extra("_cnpj")} '
        f'LEFT JOIN "person" p ON p."cpf" = {rows.extra("_cpf")} AND {rows.extra("_cpf")} <> \'\'',
        {"company_id": lambda r: company_id[r["_cnpj"]], "person_id": lambda r: person_id.get(r["_cpf"])},
    )
    if not counts["permits"]:
        return counts["people"], counts["companies"], [], []
    # the numbers last: the counter's row is held only from here to the commit
    seqs = next_numbers(f"permit-{today.year}", counts["permits"])
    first = seqs[0]
    rows = _Rows(Permit, "permits", run.id)
    seq, number = rows.number(today.year, first)
    put(
        Permit,
        "permits",
        {"person_id": "p.id", "company_id": "c.id", "seq": seq, "number": number},
        f'LEFT JOIN "person" p ON p."cpf" = {rows.extra("_cpf")} AND {rows.extra("_cpf")} <> \'\' '
        f'LEFT JOIN "company" c ON c."cnpj" = {rows.extra("_cnpj")} AND {rows.extra("_cnpj")} <> \'\'',
        {
            "person_id": lambda r: person_id.get(r["_cpf"]),
            "company_id": lambda r: company_id.get(r["_cnpj"]),
            "seq": lambda r: first + r["_n"],
            "number": lambda r: f"{today.year}/{first + r['_n']:05d}",
        },
    )
    numbers = [f"{today.year}/{n:05d}" for n in seqs]
    append(
        table_name="permit",
        action="insert",
        after=json.dumps({"first": numbers[0], "last": numbers[-1]}),
        note=f"importação de {run.source}: números {numbers[0]} a {numbers[-1]}, na ordem das linhas (_n)",
    )
    permit_id = {} if pg else _ids(Permit, Permit.number, numbers)
    rows = _Rows(PermitEvent, "events", run.id)
    seq, number = rows.number(today.year, first)
    put(
        PermitEvent,
        "events",
        {"permit_id": "pm.id"},
        f'JOIN "permit" pm ON pm."number" = {number}',
        {"permit_id": lambda r: permit_id[numbers[r["_n"]]]},
    )
    to_sign = [
        pid
        for (pid,) in Permit.select(Permit.id)
        .where((Permit.year == today.year) & Permit.seq.between(seqs[0], seqs[-1]) & (Permit.status == "active"))
        .order_by(Permit.seq)
        .tuples()
    ]
    return counts["people"], counts["companies"], numbers, to_sign


def release_connection() -> None:
    """Close this thread's connection to the database (a worker thread's, when its import is over)."""
    if db.obj is not None and not db.is_closed():
        db.close()
