"""Importing what the bank sends (issue 30 §4): a FEBRABAN return file (:mod:`~.returns`) or a bank statement in OFX
(:mod:`~.statements`), previewed record by record and then written in one transaction, in bulk."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import peewee
from peewee import IntegrityError, PostgresqlDatabase

from models.access.session import acting, require
from models.base import clock
from models.base.money import from_centavos, to_centavos
from models.billing.charges import ChargeState, Payment
from models.billing.collection.agreement import require_agreement
from models.billing.collection.bulk_return import drop_staging, import_bulk, lazy_preview, read_file, stage_and_check
from models.billing.collection.guias import late_item
from models.billing.collection.late import get_late_rules
from models.billing.collection.returns import (
    Item,
    Preview,
    ReturnFileError,
    chunks,
    preview_return,
)
from models.billing.collection.statements import is_ofx, preview_statement
from models.billing.collection.tables import Credit, ReturnFile
from models.registry.applications import next_number
from models.store.audit import record_bulk
from models.store.db import check_row, db, take_write_turn

_WRAP = getattr(peewee, "__exception_wrapper__")  # noqa: B009 - the driver's errors as peewee's

# --------------------------------------------------------------------------- importing


class ImportResult:
    """What an import did: the return file row, how many payments and credits it wrote, and its preview — record by
    record, made when first asked for (a file of thousands: the command line lists them; the bulk write needs no
    Python object per record)."""

    def __init__(
        self,
        preview: Preview | None,
        return_file: ReturnFile | None,
        payments: int,
        credits: int,
        *,
        build: Callable[[], Preview] | None = None,
    ):
        self._preview, self._build = preview, build
        self.return_file, self.payments, self.credits = return_file, payments, credits

    @property
    def preview(self) -> Preview:
        if self._preview is None:
            assert self._build is not None
            self._preview = self._build()
        return self._preview


def import_return(
    path: str | Path, *, dry_run: bool = False, accept_overpayment: bool = False, today: _dt.date | None = None
) -> ImportResult:
    """Import the return file (or OFX statement) at ``path`` — one transaction; ``dry_run`` only previews. A record
    paid above what its guia owes (or a guia paid twice) refuses the file unless ``accept_overpayment``: the excess is
    then kept as the payer's credit. A FEBRABAN file is matched and written by the database in bulk
    (:mod:`~.bulk_return`); a statement, record by record (:func:`_import_statement`). Every write is audited."""
    require("charges.pay")
    today = today or _dt.date.today()
    source = Path(path)
    data = source.read_bytes()
    if dry_run:
        preview = preview_file(data, source.name, today=today)
        return ImportResult(preview, preview.already, 0, 0)
    if is_ofx(data):
        return _import_statement(data, source.name, accept_overpayment=accept_overpayment, today=today)
    by = acting()
    agreement = require_agreement().agreement
    read = read_file(data)
    try:
        with db.atomic():  # matched inside the transaction, once this desk holds the write turn
            take_write_turn(db)
            already = stage_and_check(read, agreement, today)
            if already is not None:
                return ImportResult(preview_file(data, source.name, today=today), already, 0, 0)
            header = read.header
            record = ReturnFile.create(
                agreement=header.agreement,
                nsa=header.nsa,
                generated_on=header.generated_on,
                layout=header.layout,
                bank=f"{header.bank_code} {header.bank_name}".strip()[:40],
                file_name=source.name[:255],
                sha256=read.sha256,
                records=len(read.details),
                total=from_centavos(read.total),
                imported_by=by,
            )
            written = import_bulk(
                read,
                record,
                by,
                agreement=agreement,
                judge=lambda items: _refuse_unconsented(items, accept_overpayment),
            )
            credits = _write_credits(written.judged, record)
            _write_late(written.judged, today)
    finally:
        drop_staging()
    prefix = f"RET {record.agreement}/{record.nsa}/"
    return ImportResult(
        None, record, written.payments, credits, build=lazy_preview(read, source.name, written.judged, prefix)
    )


def _import_statement(data: bytes, file_name: str, *, accept_overpayment: bool, today: _dt.date) -> ImportResult:
    """A bank statement in OFX: its Pix credits matched to their guias record by record, written in bulk."""
    by = acting()
    with db.atomic():  # read and matched inside the transaction: what another desk wrote meanwhile is seen
        preview = preview_file(data, file_name, today=today)
        if preview.already is not None:
            return ImportResult(preview, preview.already, 0, 0)
        _refuse_unconsented(preview.items, accept_overpayment)
        header = preview.parsed.header
        record = ReturnFile.create(
            agreement=header.agreement,
            nsa=next_number("ofx-statement"),
            generated_on=header.generated_on,
            layout=header.layout,
            bank=f"{header.bank_code} {header.bank_name}".strip()[:40],
            file_name=file_name[:255],
            sha256=preview.parsed.sha256,
            records=len(preview.parsed.details),
            total=from_centavos(preview.parsed.total_centavos),
            imported_by=by,
        )
        payments = _write_payments(preview, record, by, prefix="PIX ", channel="pix")
        credits = _write_credits(preview.items, record)
        _write_late(preview.items, today)
    return ImportResult(preview, record, payments, credits)


def _write_credits(items: list[Item], record: ReturnFile) -> int:
    """What each record paid beyond its guia, as the payer's credit."""
    credits = [
        {
            "payment": None,
            "guia": item.guia.id,
            "return_file": record.id,
            "record": item.detail.record,
            "person": item.guia.person_id,
            "company": item.guia.company_id,
            "amount": item.credit,
            "status": "open",
            "arisen_on": item.detail.paid_on,
            "note": item.note,
        }
        for item in items
        if item.guia is not None and item.credit > 0
    ]
    for chunk in chunks(credits):
        Credit.insert_many(chunk).execute()
    return len(credits)


def _write_late(items: list[Item], today: _dt.date) -> None:
    """The correction, multa and juros still owed by guias paid after their due date, as accessory charges."""
    owed = [(charge, late) for item in items for charge, late in item.late]
    if not owed:
        return
    due = today + _dt.timedelta(days=get_late_rules().due_days)
    for charge, late in owed:
        late_item(charge, late, due, today, why=" (guia paga após o vencimento)")


def preview_file(data: bytes, file_name: str = "", *, today: _dt.date | None = None) -> Preview:
    """The preview of a FEBRABAN return file, or of a bank statement in OFX (Pix credits matched by txid)."""
    if is_ofx(data):
        return preview_statement(data, file_name, today=today)
    return preview_return(data, file_name, today=today)


def _refuse_unconsented(items: list[Item], accept_overpayment: bool) -> None:
    over = next((i for i in items if i.credit > 0), None)
    if over is not None and not accept_overpayment:
        raise ReturnFileError(
            f"registro {over.detail.record}: {over.category_label} — {over.note}. Confirme o registro do excesso "
            "como crédito (--accept-overpayment); nada foi importado."
        )


def _write_payments(preview: Preview, record: ReturnFile, by: str, *, prefix: str = "", channel: str = "bank") -> int:
    """The payments of every record (each with its source), and each charge's paid total and status; the count."""
    prefix = prefix or f"RET {record.agreement}/{record.nsa}/"
    rows: list[dict[str, object]] = []
    added: dict[int, int] = {}
    for item in preview.items:
        if item.guia is None:
            continue
        reference = item.reference or f"{prefix}{item.detail.nsr}"[:64]
        for charge, take in item.parts:
            rows.append(
                {
                    "charge": charge.id,
                    "paid_on": item.detail.paid_on,
                    "amount": take,
                    "reference": reference,
                    "recorded_at": clock.now(),
                    "recorded_by": by,
                    "note": (
                        f"extrato {record.file_name}, lançamento {item.reference[4:]}"
                        if channel == "pix"
                        else f"arquivo de retorno {record.file_name}, NSA {record.nsa}, registro {item.detail.record}"
                    ),
                    "channel": channel,
                    "guia_id": item.guia.id,
                    "return_file_id": record.id,
                    "record": item.detail.record,
                    "barcode": item.detail.barcode,
                    "credited_on": item.detail.credited_on,
                    "fee": from_centavos(item.detail.fee_centavos),
                }
            )
            added[charge.id] = added.get(charge.id, 0) + to_centavos(take)
    if not rows:
        return 0
    what = f"{'extrato' if channel == 'pix' else 'arquivo de retorno'} {record.file_name}"
    try:
        _insert(Payment, rows, what)
    except IntegrityError:
        raise ReturnFileError(
            f"registro 1: pagamentos deste arquivo (NSA {record.nsa}) já constam nas cobranças; nada foi importado."
        ) from None
    _add_paid(sorted(added.items()), what)
    return len(rows)


def _sqlite() -> bool:
    return not isinstance(db.obj, PostgresqlDatabase)


def _insert(model, rows: list[dict[str, object]], what: str) -> None:
    """``rows`` (field name → value, all of one shape) inserted by the driver's bulk insert — ``executemany`` on
    SQLite, ``execute_values`` on PostgreSQL: a return file holds thousands — and audited as one entry
    (:func:`models.store.audit.record_bulk`), inside the caller's transaction, which takes the write turn first."""
    if not rows:
        return
    names = list(rows[0])
    fields = [model._meta.fields[name] for name in names]
    check_row(model, rows[0])  # the texts: the file's name in the note
    sqlite = _sqlite()

    def stored(field, value):
        value = field.db_value(value)
        return str(value) if sqlite and isinstance(value, (_dt.date, _dt.datetime)) else value

    values = [tuple(stored(f, row[f.name]) for f in fields) for row in rows]
    columns = ", ".join(f'"{f.column_name}"' for f in fields)
    sql = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES '
    take_write_turn(db)
    with _WRAP:  # the driver's errors as peewee's (IntegrityError)
        cursor = db.cursor()
        if sqlite:
            cursor.executemany(sql + f"({', '.join('?' * len(fields))})", values)
        else:
            from psycopg2.extras import execute_values  # type: ignore[import-untyped]

            execute_values(cursor, sql + "%s", values, page_size=1000)
    record_bulk(
        model,
        "insert",
        names,
        [[row[n] for n in names] for row in rows],
        note=f"{what}: {len(rows)} registro(s) de uma vez",
    )


def _add_paid(added: list[tuple[int, int]], what: str) -> None:
    """Each charge's paid total (``added``: charge id, centavos) and status — ``paid`` once the total reaches the
    amount; a cancelled charge is left as it is —, by the driver's bulk statement, and one audit entry listing
    each charge's paid total, status and version before and after."""
    if not added:
        return
    ids = [c for c, _v in added]
    before = _paid_state(ids)
    take_write_turn(db)
    with _WRAP:
        cursor = db.cursor()
        if _sqlite():
            cursor.executemany(
                'UPDATE "charge_state" SET "paid_total" = "paid_total" + ?, "status" = CASE WHEN "paid_total" + ? >= '
                '"amount" THEN \'paid\' ELSE "status" END, "version" = "version" + 1 '
                'WHERE "id" = ? AND "status" <> \'cancelled\'',
                [(v, v, c) for c, v in added],
            )
        else:
            from psycopg2.extras import execute_values

            execute_values(
                cursor,
                'UPDATE "charge_state" AS c SET "paid_total" = c."paid_total" + v.add, "status" = CASE WHEN '
                'c."paid_total" + v.add >= c."amount" THEN \'paid\' ELSE c."status" END, '
                '"version" = c."version" + 1 FROM (VALUES %s) AS v(id, add) '
                'WHERE c."id" = v.id AND c."status" <> \'cancelled\'',
                [(c, v) for c, v in added],
                template="(%s::integer, %s::bigint)",
                page_size=1000,
            )
    after = _paid_state(ids)
    changed = [c for c in ids if before[c] != after[c]]
    if changed:
        record_bulk(
            ChargeState,
            "update",
            ["id", "paid_total", "status", "version"],
            [[c, *after[c]] for c in changed],
            [[c, *before[c]] for c in changed],
            note=f"{what}: {len(changed)} registro(s) de uma vez",
        )


def _paid_state(ids: list[int]) -> dict[int, tuple[object, str, int]]:
    """Each charge's paid total (as money), status and version."""
    out: dict[int, tuple[object, str, int]] = {}
    for chunk in chunks(ids, 500):
        query = ChargeState.select(
            ChargeState.charge, ChargeState.paid_total, ChargeState.status, ChargeState.version
        ).where(ChargeState.charge.in_(chunk))
        found: list[tuple[Any, ...]] = list(cast(Any, query.tuples()))
        out.update((c, (paid, status, version)) for c, paid, status, version in found)
    return out
