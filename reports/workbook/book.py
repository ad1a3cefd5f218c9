"""The workbook and its sheets: header, frozen panes, print set-up, rows streamed with their formats."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import xlsxwriter

from reports.templating import date_br
from reports.workbook.formulas import Area, Formula, Styled, quote_sheetname
from reports.workbook.sizes import columns_on_one_page, fitted_columns, print_scale, row_height, text_lines
from reports.workbook.styles import (
    EMPTY,
    FIRST,
    FONT,
    FONT_SIZE,
    HEADER,
    HEADER_ROW,
    LONG_TEXT,
    MONEY,
    STYLES,
    SUBTITLE,
    TITLE,
    TOTAL_STYLE,
    VALUE_STYLE,
    money_format,
)

# --------------------------------------------------------------------------- the workbook and its sheets


def coat_of_arms(ws, uri: str, widths: Sequence[float], height_points: float) -> bool:
    """The municipality's coat of arms (``uri``: a data: URI, "" for none) at the right end of the title rows, as
    tall as they are (issue 31 §1: every letterhead carries it). Returns whether an image was placed."""
    import base64
    import io

    from PySide6.QtGui import QImage

    if not uri.startswith("data:image/") or ";base64," not in uri:
        return False
    data = base64.b64decode(uri.split(";base64,", 1)[1])
    image = QImage.fromData(data)
    if image.isNull() or not image.height():
        return False
    tall = max(height_points * 4 / 3 - 4, 16)  # pixels: the title rows' height, less a little air
    scale = tall / image.height()
    wide = image.width() * scale
    last = len(widths) - 1
    column_px = widths[last] * 7 + 5  # Excel's 7 px per character plus padding (reports.workbook.sizes)
    ws.insert_image(
        0,
        last,
        "brasao.png" if data.startswith(b"\x89PNG") else "brasao.jpg",
        {
            "image_data": io.BytesIO(data),
            "x_scale": scale,
            "y_scale": scale,
            "x_offset": max(int(column_px - wide - 2), 0),
            "y_offset": 2,
            "object_position": 3,  # neither moved nor sized with the cells
            "description": "Brasão do município",
        },
    )
    return True


class Book:
    """An XlsxWriter workbook with the report's formats (each names its font) and its sheets made in tab order."""

    def __init__(self, path: Path, title: str, sheets: Sequence[str], currency: str = "R$"):
        self.wb = xlsxwriter.Workbook(
            str(path),
            {
                "constant_memory": True,  # rows stream to disk: a 20.000-charge month in little memory
                "strings_to_formulas": False,
                "strings_to_numbers": False,
                "strings_to_urls": False,
                "remove_timezone": True,
                "default_format_properties": {"font_name": FONT, "font_size": FONT_SIZE},
            },
        )
        self.wb.set_properties({"title": title, "author": "Praça", "comments": "Gerado pelo Praça"})
        money = money_format(currency)  # the amounts in the act's own money (Cr$ for an act in cruzeiros)
        self.formats = {
            name: self.wb.add_format(
                {"font_name": FONT, "font_size": FONT_SIZE, **props}
                | ({"num_format": money} if props.get("num_format") == MONEY else {})
            )
            for name, props in STYLES.items()
        }
        self.sheets = {name: self.wb.add_worksheet(name) for name in sheets}
        self.laid_out: list[Sheet] = []

    def close(self) -> None:
        """Each sheet's print area, its table's columns down to its last row, then the file."""
        for sheet in self.laid_out:
            sheet.set_print_area()
        self.wb.close()


def new_workbook(path: str | Path, title: str, sheets: Sequence[str], currency: str = "R$") -> Book:
    return Book(Path(path), title, sheets, currency)


class Sheet:
    """A sheet with the report's look: title rows, a header row tall enough for its wrapped names, A4 landscape
    print with the header repeated and page numbers; the values written to each column are kept (:meth:`area`)
    so the summaries' formulas store their results.

    ``report`` is any report with ``label``, ``agency``, ``municipality``, ``today`` and ``generated_at`` (the
    monthly fee report, the sanctions report)."""

    def __init__(
        self,
        book: Book,
        title: str,
        report,
        columns,
        *,
        heading: str,
        freeze_col: str = "A",
        note: str = "",
        key_columns: int = 1,
        items=None,
    ):
        self.book, self.title = book, title
        self.ws = ws = book.sheets[title]
        self.fmt = book.formats
        if items is not None:  # the widths from what the list holds: never wider than declared, never a clipped figure
            columns = fitted_columns(columns, items)
        self.columns = columns
        widths = [width for _name, width, *_rest in columns]
        self.widths = widths
        for index, width in enumerate(widths):
            ws.set_column(index, index, width)
        freeze = ord(freeze_col.upper()) - ord("A")
        ws.freeze_panes(HEADER_ROW, freeze)
        ws.set_landscape()
        ws.set_paper(9)  # A4
        ws.set_margins(left=0.4, right=0.4, top=0.6, bottom=0.6)
        ws.repeat_rows(0, HEADER_ROW - 1)  # title, subtitle and column names on every page (issue 32 §1)
        place = " — ".join(x for x in (report.agency, report.municipality) if x)
        caption = f"{heading} — {report.label}"[:90].replace("&", "&&")
        from reports.templating import trail_anchor

        trail = trail_anchor()  # the audit trail's signed checkpoint (issue 26 §3), whole words only in the footer
        if len(trail) > 110:  # the reason it is unsigned does not fit beside the page's number: left out, not cut
            trail = trail.split(" (", 1)[0]
        if len(trail) > 110:
            trail = trail[:110].rsplit(" · ", 1)[0]
        trail = trail.replace("&", "&&")
        # the page's own lines in the sheet's type (LibreOffice scales them with the sheet): never below 8 pt
        # (the caption above, so that the trail, at the foot, has the width it needs beside the page's number)
        ws.set_header(f'&L&"{FONT}"&{FONT_SIZE}{caption}', {"margin": 0.25})
        ws.set_footer(f'&C&"{FONT}"&{FONT_SIZE}{trail}&R&"{FONT}"&{FONT_SIZE}Página &P de &N', {"margin": 0.25})
        scale, across = print_scale(widths, key_columns)
        self.across = across
        if across > 1:  # too wide for one page at 8 pt: its key columns again on each page across
            ws.repeat_columns(0, key_columns - 1)
            ws.print_across()
        # a fixed scale, never a fit: "fit to N pages wide" shrinks the type as far as the widest row asks
        ws.set_print_scale(scale)
        book.laid_out.append(self)  # its print area when the book closes (Book.close)
        self.print_columns = len(columns)
        self.row = 0  # the next row, 0-based
        # title and subtitle wrapped over the columns of the first page (the key columns, repeated on each page,
        # when the list takes more than one across): whole on every page, never cut at a page's edge
        span = len(columns) if across == 1 else key_columns
        room = sum(widths[:span])
        main = f"{heading} — {report.label}"
        sub = f"{place} · situação em {date_br(report.today)} · gerado em {date_br(report.generated_at)}"
        sub = f"{sub}{' · ' + note if note else ''}"
        heights = []
        for text, style, size in ((main, TITLE, 14), (sub, SUBTITLE, FONT_SIZE)):
            heights.append(row_height(text_lines(text, room * FONT_SIZE / size, bold=size > FONT_SIZE), size))
            ws.set_row(self.row, heights[-1])
            if span > 1:
                ws.merge_range(self.row, 0, self.row, span - 1, text, self.fmt[style])
                self.row += 1
            else:
                self.append([Styled(text, style)])
        lines = max(text_lines(name, width, bold=True) for name, width, *_r in columns)
        self.append([Styled(name, HEADER) for name, *_rest in columns], height=row_height(lines))
        self.data: dict[str, list] = {name: [] for name, *_rest in columns}
        coat_of_arms(ws, getattr(report, "coat_of_arms", ""), widths[:span], sum(heights))

    # writing

    def put(self, row: int, col: int, value, style: str | None = None) -> None:
        ws, fmt = self.ws, (self.fmt[style] if style else None)
        if isinstance(value, Styled):
            value, fmt = value.value, self.fmt[value.style]
        if isinstance(value, Formula):
            result = value.value
            ws.write_formula(row, col, value.text, fmt, float(result) if isinstance(result, Decimal) else result)
        elif isinstance(value, str):
            ws.write_string(row, col, value, fmt)  # never read as a formula, a number or a link
        elif isinstance(value, bool):
            ws.write_boolean(row, col, value, fmt)
        elif isinstance(value, (int, float, Decimal)):
            ws.write_number(row, col, float(value), fmt)
        elif isinstance(value, (_dt.date, _dt.datetime)):
            ws.write_datetime(row, col, value, fmt)
        elif value is None:
            if fmt is not None:
                ws.write_blank(row, col, None, fmt)
        else:
            ws.write_string(row, col, str(value), fmt)

    def append(self, values, *, height: float | None = None) -> int:
        """Write a row after the last; returns its 1-based number."""
        if height is not None:
            self.ws.set_row(self.row, height)
        for col, value in enumerate(values):
            self.put(self.row, col, value)
        self.row += 1
        return self.row

    def wrapped(self, values, widths: Sequence[float]) -> int:
        """A row of wrapped text: its height from the longest cell."""
        cells = ((v.value if isinstance(v, Styled) else v, w) for v, w in zip(values, widths, strict=False))
        # the row's cells: as many as it has, of the widths
        lines = max((text_lines(text, w) for text, w in cells if isinstance(text, str)), default=1)
        return self.append(values, height=row_height(lines) if lines > 1 else None)

    def rows(self, items, progress=None) -> int:
        """One row per item; returns the last data row (``HEADER_ROW`` when there is none). A text longer than its
        column wraps, the row as tall as its longest text; an empty list is one line, "Nenhum no período", below
        the list's (blank) first row, so that no formula over the list counts it."""
        getters = [getter for *_rest, getter in self.columns]
        styles = [self.fmt[VALUE_STYLE[fmt]] if fmt else None for _n, _w, fmt, *_r in self.columns]
        stores = [self.data[name] for name, *_rest in self.columns]
        widths = self.widths
        wrap = self.fmt[LONG_TEXT]
        ws = self.ws
        write_string, write_number, write_datetime = ws.write_string, ws.write_number, ws.write_datetime
        count = 0
        for item in items:
            row = self.row
            values = [getter(item) for getter in getters]
            lines = max(
                (text_lines(str(v), w) for v, w, f in zip(values, widths, styles, strict=True) if f is None and v),
                default=1,
            )
            if lines > 1:
                ws.set_row(row, row_height(lines))
            for col, (value, fmt, store) in enumerate(zip(values, styles, stores, strict=True)):
                store.append(value)
                if value is None or value == "":
                    continue
                if fmt is None:
                    write_string(row, col, str(value), wrap if lines > 1 else None)  # text is text: never a formula
                elif isinstance(value, (_dt.date, _dt.datetime)):
                    write_datetime(row, col, value, fmt)
                else:
                    write_number(row, col, float(value), fmt)
            self.row += 1
            count += 1
            if progress is not None:
                progress()
        if not count:
            self.row += 1  # the list's first row stays blank: its formulas' ranges
            self.append([Styled(EMPTY, "Praça nota")])
            if self.across > 1:  # nothing under the headers: the columns of one page, not pages of empty headers
                self.print_columns = columns_on_one_page(widths)
            return HEADER_ROW
        return self.row

    def set_print_area(self) -> None:
        """Only the table's columns print: a title or a note running past them would add pages of its own."""
        self.ws.print_area(0, 0, max(self.row - 1, HEADER_ROW), self.print_columns - 1)

    def chart_below(self, chart) -> None:
        """A chart under what the sheet holds, from column A: never beside a table, which would shrink the page."""
        self.skip()
        self.ws.set_h_pagebreaks([self.row])  # on a page of its own: never cut between two pages
        self.ws.insert_chart(self.row, 0, chart, {"x_offset": 4, "y_offset": 4})
        self.row += 18  # 320 px of chart over rows of 17 px

    def area(self, name: str) -> Area:
        index = next(i for i, (header, *_r) in enumerate(self.columns) if header == name)
        return Area(self.title, index, self.data[name])

    def skip(self) -> None:
        self.row += 1

    def figures(self, money_rows, count_rows) -> None:
        """A summary's lines: (label, formula, how it is computed) in money, then (label, formula or number)."""
        for label, formula, how in money_rows:
            self.append([label, Styled(formula, "Praça destaque"), how])
        for label, formula in count_rows:
            self.append([label, Styled(formula, "Praça número")])
        self.skip()

    def filter(self, last_row: int) -> None:
        self.ws.autofilter(HEADER_ROW - 1, 0, max(last_row, FIRST) - 1, len(self.columns) - 1)

    def total(self, values) -> None:
        """A total row: bold on a light fill; formulas and numbers keep the column's format."""
        cells = []
        for index, value in enumerate(values):
            fmt = self.columns[index][2] if index < len(self.columns) and value not in (None, "") else None
            cells.append(Styled(value, TOTAL_STYLE.get(fmt, TOTAL_STYLE[None])))
        self.append(cells)


def sheet_range(sheet: str, column: str, last: int) -> str:
    return f"{quote_sheetname(sheet)}!${column}${FIRST}:${column}${max(last, FIRST)}"
