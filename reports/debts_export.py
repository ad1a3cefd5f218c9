"""The dívida ativa list (issue 30 §6) as a spreadsheet or CSV: one row per debt, the columns Lei 6.830/1980,
art. 2º, § 5º asks for (models.billing.collection.dividas)."""

from __future__ import annotations

import csv
import datetime as _dt
from pathlib import Path

from models.billing.charges.steps import date_text
from models.billing.collection.dividas import COLUMNS, MONEY, DebtRow


def writer(fmt: str, as_of: _dt.date):
    """The function that writes the rows to a path in ``fmt`` (xlsx or csv)."""
    from models.base.errors import UserError

    if fmt == "csv":
        return _write_csv
    if fmt == "xlsx":
        return lambda rows, path: _write_xlsx(rows, path, as_of)
    raise UserError(f"Formato inválido: {fmt!r} (use xlsx ou csv).", field="format")


def _write_csv(rows: list[DebtRow], path: Path) -> None:
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh, delimiter=";")
        writer.writerow([heading for _k, heading in COLUMNS])
        for row in rows:
            writer.writerow(
                [
                    f"{row.values[k]:.2f}".replace(".", ",") if k in MONEY else _safe(str(row.values[k]))
                    for k, _h in COLUMNS
                ]
            )


def _safe(text: str) -> str:
    """A cell a spreadsheet would read as a formula is written as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# the widest each column may be before its text wraps (characters of Arial 10); the rest: 36
_WIDTHS = {"inscription": 12, "inscribed_on": 12, "debtor": 30, "document": 19, "charge": 12, "start": 12}


def _write_xlsx(rows: list[DebtRow], path: Path, as_of: _dt.date) -> None:
    """The list with the reports' look and print (issue 32 §1): Arial 10, money in pt-BR, widths from the content,
    long texts wrapped, A4 landscape at 80 % or more with the title and header on every page and its number."""
    from types import SimpleNamespace

    from models.registry.municipality import letterhead
    from reports.workbook.book import Sheet, new_workbook
    from reports.workbook.styles import MONEY as MONEY_FORMAT

    title = "Dívida ativa"
    columns = [
        (heading, 16 if key in MONEY else _WIDTHS.get(key, 36), MONEY_FORMAT if key in MONEY else None, _value(key))
        for key, heading in COLUMNS
    ]
    heading = "Dívida ativa (Lei 6.830/1980, art. 2º, § 5º)"
    listing = SimpleNamespace(
        label=f"valores atualizados até {date_text(as_of)}",
        agency=letterhead()["agency"],
        municipality=letterhead()["municipality"],
        today=as_of,
        generated_at=_dt.datetime.now().replace(microsecond=0),
    )
    book = new_workbook(path, heading, [title])
    sheet = Sheet(book, title, listing, columns, heading=heading, freeze_col="D", key_columns=3, items=rows)
    last = sheet.rows(rows)
    sheet.filter(last)
    book.close()


def _value(key: str):
    return lambda row: row.values[key] if key in MONEY else str(row.values[key])
