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


def _write_xlsx(rows: list[DebtRow], path: Path, as_of: _dt.date) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_numbers": False})
    sheet = book.add_worksheet("Dívida ativa")
    bold = book.add_format({"bold": True, "text_wrap": True, "valign": "top"})
    money = book.add_format({"num_format": "[$R$-416] #,##0.00"})
    sheet.write_string(0, 0, f"Dívida ativa — valores atualizados até {date_text(as_of)}", bold)
    for c, (_k, heading) in enumerate(COLUMNS):
        sheet.write_string(2, c, heading, bold)
        sheet.set_column(c, c, 16 if _k in MONEY else 28)
    for r, row in enumerate(rows, 3):
        for c, (key, _h) in enumerate(COLUMNS):
            value = row.values[key]
            if key in MONEY:
                sheet.write_number(r, c, float(str(value)), money)  # a cell's number; the value is rounded Decimal
            else:
                sheet.write_string(r, c, str(value))
    book.close()
