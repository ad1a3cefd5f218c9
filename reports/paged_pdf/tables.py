"""Tables whose rows are never split across pages and whose header repeats on each page."""

from __future__ import annotations

from dataclasses import dataclass

# --------------------------------------------------------------------------- tables


@dataclass
class Row:
    cells: list
    height: float
    styles: list  # TableStyle commands with row index 0 (shifted when placed)


def rows_table_class():
    from reportlab.platypus import Flowable, Table, TableStyle

    class _RowsTable(Flowable):
        """A table of rows measured once: split between rows only, its header on each page, ``lead`` (a heading,
        its note) kept with the first rows, ``tail`` (the closing notes after it) with the last: never a page of
        its own (issue 32 §3). Each split costs the rows of one page, not the whole table again."""

        def __init__(self, widths, header: Row | None, rows: list[Row], base_style, lead=(), start=0, tail=()):
            super().__init__()
            self.widths, self.header, self.rows, self.base_style = widths, header, rows, base_style
            self.lead, self.start, self.tail = list(lead), start, list(tail)

        def _lead_height(self, aw, flowables=None):
            total = 0.0
            for f in self.lead if flowables is None else flowables:
                _w, h = f.wrap(aw, 10**6)
                total += h + f.getSpaceBefore() + f.getSpaceAfter()
            return total

        def wrap(self, aw, ah):
            self.width = aw
            head = self.header.height if self.header else 0
            rows = sum(r.height for r in self.rows[self.start :])
            self._height = self._lead_height(aw) + head + rows + self._lead_height(aw, self.tail)
            return aw, self._height

        def _table(self, stop):
            rows = ([self.header] if self.header else []) + self.rows[self.start : stop]
            style = list(self.base_style)
            for i, row in enumerate(rows):
                style += [(cmd, (c0, r0 + i), (c1, r1 + i), *rest) for cmd, (c0, r0), (c1, r1), *rest in row.styles]
            return Table(
                [r.cells for r in rows],
                colWidths=self.widths,
                rowHeights=[r.height for r in rows],
                style=TableStyle(style),
                repeatRows=1 if self.header else 0,
                hAlign="LEFT",
            )

        def split(self, aw, ah):
            room = ah - self._lead_height(aw) - (self.header.height if self.header else 0)
            stop = self.start
            while stop < len(self.rows) and self.rows[stop].height <= room:
                room -= self.rows[stop].height
                stop += 1
            if stop == len(self.rows) and self.tail:  # every row here but not the notes after them:
                stop -= 1  # the last row goes over with them
            if stop == self.start:
                return []  # not even one row here: all of it on the next page
            rest = _RowsTable(self.widths, self.header, self.rows, self.base_style, start=stop, tail=self.tail)
            return [*self.lead, self._table(stop), rest]

        def draw(self):
            y = self._height
            for f in [*self.lead, self._table(len(self.rows)), *self.tail]:
                _w, h = f.wrap(self.width, 10**6)
                y -= f.getSpaceBefore() + h
                f.drawOn(self.canv, 0, y)
                y -= f.getSpaceAfter()

    return _RowsTable
