"""The bank's return file written in bulk, matched by the database (issue 30 §4's budget: a file of 10.000 records
within twice a bare parse-and-executemany of it).

The ``G`` records are handed to the database as one parameter (a JSON array on SQLite, a text split by the server
on PostgreSQL) and staged in a temporary table, fields cut and checked there (lengths, types, digits — the file is
read again by :func:`~.returns.parse_return` only to name the first wrong record). The database then matches them:
each record's guia by the barcode, and whether it is *plainly paid* — its guia open, paid on time, once in the file,
for exactly what the guia's charges still owe, none of them shared with another record. Those records become
payments without passing through Python: ``INSERT … SELECT`` of the payments with their sources, one
``UPDATE … FROM`` of the charges' paid totals and statuses (their narrow ``charge_state`` rows, schema v32). The
others (paid less, more, twice, late, an unknown barcode, a replaced guia) are classified by
:func:`~.returns.classify`, the preview's own judgement, and join the same statements. Every write is audited:
one entry per table, its rows rendered as JSON by the database itself (:func:`models.store.audit.record_bulk_table`)
— on a desk the server's triggers write them row by row.

Temporary tables are the connection's own (no other desk sees or waits for them); the transaction is the caller's.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from peewee import PostgresqlDatabase

from models.base import clock
from models.base.money import from_centavos, to_centavos
from models.billing.charges import Charge, ChargeState, Payment
from models.billing.collection.returns import (
    MAX_RECORDS,
    RECORD_SIZE,
    Header,
    Item,
    ParsedFile,
    Preview,
    ReturnFileError,
    check_agreement,
    chunks,
    classify,
    imported_before,
    parse_return,
    read_detail,
    read_header,
    read_trailer,
    record_lines,
    refuse_future,
)
from models.billing.collection.tables import Guia, ReturnFile
from models.store import desks
from models.store.audit import money_text, record_bulk_table, rendered_rows, table_json
from models.store.db import check_row, db

STAGE = "praca_ret_stage"
PARTS = "praca_ret_parts"
ADDED = "praca_ret_added"
OWED = "praca_ret_owed"


#: A ``G`` record as the layout has it: 20 characters, then 87 digits (the two dates, the barcode, the amount, the
#: fee and the NSR), then 42 characters.
G_RECORD = re.compile(r"G.{20}[0-9]{87}.{42}\Z", re.DOTALL)


def _pg() -> bool:
    return isinstance(db.obj, PostgresqlDatabase)


def _analyze(table: str) -> None:
    """PostgreSQL plans a temporary table it has no statistics for as if it held a few rows: its joins with the
    town's tables (thousands of guias and charges) want them."""
    if _pg():
        _sql(f"ANALYZE {table}")


def _sql(text: str, params: tuple = ()):
    """One statement with ``?`` placeholders, in the open database's style."""
    return db.execute_sql(text.replace("?", "%s") if _pg() else text, params)


@dataclass
class FileRead:
    """The return file as the import needs it: the header, its ``G`` records as text (record 2 on), the trailer."""

    data: bytes
    header: Header
    details: list[str]
    count: int
    total: int
    sha256: str


def read_file(data: bytes) -> FileRead:
    """The header and the trailer read and checked; the ``G`` records left as text for the database to cut."""
    lines = record_lines(data)
    ok = 2 <= len(lines) <= MAX_RECORDS and all(len(lines[i]) == RECORD_SIZE for i in (0, -1))
    if not ok or lines[0][0] != "A" or lines[-1][0] != "Z":
        parse_return(data)  # names the record that is wrong
        raise ReturnFileError("registro 1: arquivo de retorno ilegível.")  # pragma: no cover - parse_return raised
    header = read_header(lines[0])
    count, total = read_trailer(lines[-1], f"registro {len(lines)}")
    details = lines[1:-1]
    match = G_RECORD.match
    if count != len(lines) or not all(map(match, details)):
        parse_return(data)  # names the record that is wrong
        raise ReturnFileError("arquivo de retorno recusado.")  # pragma: no cover - parse_return raised
    return FileRead(data, header, details, count, total, hashlib.sha256(data).hexdigest())


def _stage(read: FileRead) -> None:
    """The ``G`` records (their form checked by :data:`G_RECORD`) into the connection's temporary table, each field
    cut by the database and each record's guia found by its barcode in the same statement."""
    if _pg():
        _sql(
            f"CREATE TEMP TABLE {STAGE} (record integer PRIMARY KEY, paid_on text, credited_on text, barcode text, "
            "centavos bigint, fee bigint, nsr bigint, guia_id integer) ON COMMIT DROP"
        )
        _sql(f"CREATE TEMP TABLE {PARTS} (record integer, charge_id integer, amount bigint) ON COMMIT DROP")
        number = "substr(line, {0}, {1})::bigint"
        lines = "unnest(string_to_array(?, E'\\n')) WITH ORDINALITY AS t(line, ord)"
        record, text = "ord + 1", "\n".join(read.details)
    else:
        drop_staging()
        _sql(
            f"CREATE TEMP TABLE {STAGE} (record INTEGER PRIMARY KEY, paid_on TEXT, credited_on TEXT, barcode TEXT, "
            "centavos INTEGER, fee INTEGER, nsr INTEGER, guia_id INTEGER)"
        )
        _sql(f"CREATE TEMP TABLE {PARTS} (record INTEGER, charge_id INTEGER, amount INTEGER)")
        number = "CAST(substr(line, {0}, {1}) AS INTEGER)"
        lines = "(SELECT key AS ord, value AS line FROM json_each(?))"
        record, text = "ord + 2", json.dumps(read.details)
    day = "substr(line, {0}, 4) || '-' || substr(line, {1}, 2) || '-' || substr(line, {2}, 2)"
    _sql(
        f"INSERT INTO {STAGE} (record, paid_on, credited_on, barcode, centavos, fee, nsr, guia_id) SELECT {record}, "
        f"{day.format(22, 26, 28)}, {day.format(30, 34, 36)}, substr(line, 38, 44), {number.format(82, 12)}, "
        f"{number.format(94, 7)}, {number.format(101, 8)}, g.id FROM {lines} "
        "LEFT JOIN guia AS g ON g.barcode = substr(line, 38, 44)",
        (text,),
    )


def _check_staged(read: FileRead) -> None:
    """What :func:`~.returns.parse_return` checks, on the staged records: a wrong one is named by reading the file
    record by record."""
    (received,) = _sql(f"SELECT COALESCE(SUM(centavos), 0) FROM {STAGE}").fetchone()
    days = [d for (d,) in _sql(f"SELECT paid_on FROM {STAGE} UNION SELECT credited_on FROM {STAGE}")]
    try:
        for day in days:
            _dt.date.fromisoformat(day)
        valid = True
    except (TypeError, ValueError):
        valid = False
    if not valid or int(received) != read.total:
        parse_return(read.data)  # names the first wrong record
        raise ReturnFileError("arquivo de retorno recusado.")  # pragma: no cover - parse_return raised


def _check_dates(today: _dt.date) -> None:
    found = _sql(
        f"SELECT record, paid_on FROM {STAGE} WHERE paid_on > ? ORDER BY record LIMIT 1", (today.isoformat(),)
    ).fetchone()
    if found is not None:
        refuse_future(found[0], _dt.date.fromisoformat(found[1]))


def _match(agreement: str) -> list[int]:
    """Each staged record's guia, and which records are plainly paid (see the module's text); the others' numbers."""
    date = "::date" if _pg() else ""
    _analyze(STAGE)
    # per guia of the file: what its charges still owe, and whether each is open, owes, and is in no other record
    _sql(
        f"CREATE TEMP TABLE {OWED} (guia_id integer PRIMARY KEY, owed bigint, clean integer)"
        + (" ON COMMIT DROP" if _pg() else "")
    )
    _sql(
        f"INSERT INTO {OWED} (guia_id, owed, clean) SELECT gc.guia_id, SUM(c.amount - c.paid_total), "
        "MIN(CASE WHEN c.status = 'open' AND c.amount > c.paid_total THEN 1 ELSE 0 END) "
        f"FROM guia_charge AS gc JOIN charge_state AS c ON c.id = gc.charge_id "
        f"WHERE gc.guia_id IN (SELECT guia_id FROM {STAGE}) GROUP BY gc.guia_id"
    )
    _sql(
        f"UPDATE {OWED} SET clean = 0 WHERE guia_id IN (SELECT gc.guia_id FROM guia_charge AS gc WHERE gc.charge_id "
        f"IN (SELECT x.charge_id FROM {STAGE} AS t JOIN guia_charge AS x ON x.guia_id = t.guia_id "
        "GROUP BY x.charge_id HAVING COUNT(*) > 1))"
    )
    _analyze(OWED)
    # the plainly paid records' parts — what each of their guia's charges still owes — in one statement
    _sql(
        f"INSERT INTO {PARTS} (record, charge_id, amount) SELECT s.record, gc.charge_id, c.amount - c.paid_total "
        f"FROM {STAGE} AS s JOIN guia AS g ON g.id = s.guia_id JOIN {OWED} AS o ON o.guia_id = s.guia_id "
        "JOIN guia_charge AS gc ON gc.guia_id = s.guia_id JOIN charge_state AS c ON c.id = gc.charge_id "
        "WHERE g.status = 'open' AND substr(s.barcode, 16, 4) = ? "
        f"AND s.paid_on{date} <= g.due_on AND s.centavos = o.owed AND o.clean = 1 "
        f"AND s.barcode NOT IN (SELECT barcode FROM {STAGE} GROUP BY barcode HAVING COUNT(*) > 1)",
        (agreement,),
    )
    return [
        r
        for (r,) in _sql(f"SELECT record FROM {STAGE} WHERE record NOT IN (SELECT record FROM {PARTS}) ORDER BY record")
    ]


@dataclass
class Written:
    """What the bulk import wrote: the payments and the records judged one by one (the rest were plainly paid)."""

    payments: int
    judged: list[Item] = field(default_factory=list)


def import_bulk(read: FileRead, record: ReturnFile, by: str, *, agreement: str, judge: Callable[[list[Item]], None]):
    """Stage, match and write the payments of ``read`` for the return file row ``record`` (the caller's transaction;
    :func:`stage_and_check` ran already). ``judge(items)`` sees the records that were not plainly paid before
    anything is written (it refuses an unconsented overpayment)."""
    details = [read_detail(read.details[n - 2], n) for n in _match(agreement)]
    items = classify(details, agreement) if details else []  # every record plainly paid: nothing to look up
    judge(items)
    parts = [(item.detail.record, charge.id, to_centavos(take)) for item in items for charge, take in item.parts]
    if parts:
        cursor = db.cursor()
        cursor.executemany(
            f"INSERT INTO {PARTS} (record, charge_id, amount) VALUES ({', '.join(['%s' if _pg() else '?'] * 3)})",
            parts,
        )
    _analyze(PARTS)
    what = f"arquivo de retorno {record.file_name}"
    prefix = f"RET {record.agreement}/{record.nsa}/"
    note = f"arquivo de retorno {record.file_name}, NSA {record.nsa}, registro "
    check_row(Payment, {"reference": prefix, "recorded_by": by, "note": note})
    now = clock.now()
    date = "::date" if _pg() else ""
    last = _sql("SELECT COALESCE(MAX(id), 0) FROM payment").fetchone()[0]
    payments = (
        "INSERT INTO payment (charge_id, paid_on, amount, reference, recorded_at, recorded_by, note, channel, guia_id, "
        "return_file_id, record, barcode, credited_on, fee) "
        f"SELECT p.charge_id, s.paid_on{date}, p.amount, substr(? || s.nsr, 1, 64), ?, ?, ? || s.record, 'bank', "
        f"s.guia_id, ?, s.record, s.barcode, s.credited_on{date}, s.fee "
        f"FROM {PARTS} AS p JOIN {STAGE} AS s ON s.record = p.record ORDER BY p.record, p.charge_id"
    )
    made = _sql(payments, (prefix, now if _pg() else str(now), by, note, record.id)).rowcount
    if not made:
        return Written(0, items)
    audit = not desks.is_desk(db.obj)  # on a desk the server's triggers write the trail, row by row
    if audit:
        _audit_inserts(last, what, made)
    _add_paid(what, audit)
    return Written(made, items)


def _audit_inserts(last: int, what: str, made: int) -> None:
    """The trail's entry of the payments after id ``last``, as the database renders them."""
    columns = ["id", "charge", "paid_on", "amount", "reference", "recorded_at", "recorded_by", "note", "channel"]
    columns += ["guia_id", "return_file_id", "record", "barcode", "credited_on", "fee"]
    text = "::text" if _pg() else ""
    rows = rendered_rows(
        f"p.id, p.charge_id, p.paid_on{text}, {money_text('p.amount')}, p.reference, p.recorded_at{text}, "
        f"p.recorded_by, p.note, p.channel, p.guia_id, p.return_file_id, p.record, p.barcode, p.credited_on{text}, "
        f"{money_text('p.fee')}",
        f"payment AS p WHERE p.id > {int(last)}",
        "p.id",
    )
    record_bulk_table(Payment, "insert", table_json(columns, rows), note=f"{what}: {made} registro(s) de uma vez")


def _add_paid(what: str, audit: bool) -> None:
    """Each charge's paid total and status (its ``charge_state`` row) — ``paid`` once the total reaches the amount;
    a cancelled charge is left as it is — by one ``UPDATE … FROM``, and one audit entry with each charge's paid
    total, status and version before and after."""
    if _pg():
        _sql(
            f"CREATE TEMP TABLE {ADDED} ON COMMIT DROP AS SELECT charge_id, SUM(amount) AS plus FROM {PARTS} "
            "GROUP BY charge_id"
        )
    else:
        _sql(f"CREATE TEMP TABLE {ADDED} (charge_id INTEGER PRIMARY KEY, plus INTEGER)")
        _sql(f"INSERT INTO {ADDED} SELECT charge_id, SUM(amount) FROM {PARTS} GROUP BY charge_id")
    _analyze(ADDED)
    # the charges the file pays, looked up by their keys (SQLite: CROSS JOIN keeps the file's table outside); their
    # state before and after rendered in one reading, before the update (the after is what the update will write)
    state = (
        f"{ADDED} AS a {'JOIN' if _pg() else 'CROSS JOIN'} charge_state AS c ON c.id = a.charge_id "
        "WHERE c.status <> 'cancelled'"
    )
    status = "CASE WHEN c.paid_total + a.plus >= c.amount THEN 'paid' ELSE c.status END"
    if audit:
        before, after = rendered_rows(
            f"c.id, {money_text('c.paid_total')}, c.status, c.version",
            state,
            "c.id",
            f"c.id, {money_text('(c.paid_total + a.plus)')}, {status}, c.version + 1",
        )
    changed = _sql(
        # SQLite's UPDATE … FROM (3.33+): the charges by key, each sum read once
        "UPDATE charge_state AS c SET paid_total = c.paid_total + a.plus, "
        f"status = {status}, version = c.version + 1 FROM {ADDED} AS a "
        "WHERE c.id = a.charge_id AND c.status <> 'cancelled'"
    ).rowcount
    if audit and changed:
        columns = ["id", "paid_total", "status", "version"]
        record_bulk_table(
            ChargeState,
            "update",
            table_json(columns, after),
            table_json(columns, before),
            note=f"{what}: {changed} registro(s) de uma vez",
        )


def drop_staging() -> None:
    """SQLite keeps a connection's temporary tables until it closes: dropped once the import ends (PostgreSQL drops
    them at the commit)."""
    if not _pg():
        for table in (STAGE, PARTS, ADDED, OWED):
            _sql(f"DROP TABLE IF EXISTS temp.{table}")


def stage_and_check(read: FileRead, agreement: str, today: _dt.date) -> ReturnFile | None:
    """Stage the records and check them, the agreement and the dates; the same file imported before, or ``None``."""
    _stage(read)
    _check_staged(read)
    check_agreement(read.header, agreement)
    _check_dates(today)
    return imported_before(read.header, read.sha256)


def lazy_preview(read: FileRead, file_name: str, judged: list[Item], prefix: str) -> Callable[[], Preview]:
    """The import's preview, made when it is asked for (the command line lists every record; the desk showed its
    preview before): the records judged one by one as they were judged, the plainly paid ones as paid — their guia
    and the payments made on its charges."""

    def build() -> Preview:
        parsed: ParsedFile = parse_return(read.data)
        done = {item.detail.record: item for item in judged}
        plain = [d for d in parsed.details if d.record not in done]
        guias: dict[str, Guia] = {}
        for chunk in chunks(sorted({d.barcode for d in plain})):
            guias.update((g.barcode, g) for g in Guia.select().where(Guia.barcode.in_(chunk)))
        parts: dict[str, list] = {}
        query = Payment.select(Payment, Charge).join(Charge).where(Payment.reference.startswith(prefix))
        for payment in query.order_by(Payment.id):
            parts.setdefault(payment.reference, []).append((payment.charge, payment.amount))
        preview = Preview(parsed, file_name)
        for detail in parsed.details:
            if detail.record in done:
                preview.items.append(done[detail.record])
                continue
            amount = from_centavos(detail.centavos)
            preview.items.append(
                Item(
                    detail,
                    "paid",
                    guias.get(detail.barcode),
                    due=amount,
                    applied=amount,
                    parts=parts.get(f"{prefix}{detail.nsr}"[:64], []),
                )
            )
        return preview

    return build
