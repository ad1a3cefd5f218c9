"""Issue 32 §3: a report's closing note (``p.foot``: where it came from, the audit trail's line) is never alone on
a PDF page — when the table before it fills the page, its last row goes over with the note."""

from __future__ import annotations

import pytest
from pdftext import pdf_pages

from reports.paged_pdf import write_html_pdf

ROW = "<tr><td>2026/{n:05d}</td><td>Maria Aparecida Souza</td><td align='right'>R$ 36,20</td></tr>"


def _html(rows: int) -> str:
    body = "".join(ROW.format(n=n) for n in range(1, rows + 1))
    return (
        "<html><head><title>Relatório</title></head><body><h2>Pagamentos recebidos no mês</h2>"
        "<table class='grid' width='100%' cellspacing='0' cellpadding='3' border='1'>"
        "<thead><tr><th>Cobrança</th><th>Titular</th><th>Valor</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
        "<p class='foot'>Prefeitura — relatório gerado pelo Praça em 30/11/2026.</p>"
        "<p class='foot'>Trilha de auditoria nº 12 · hash 31f53c7b91d3434a.</p></body></html>"
    )


def _pages(tmp_path, rows: int) -> list[str]:
    return pdf_pages(write_html_pdf(_html(rows), tmp_path / f"r{rows}.pdf"))


def test_the_closing_note_never_stands_alone_on_a_page(tmp_path):
    # the number of rows that fill the first page: the first count that takes two pages, less one
    one_page = next(n for n in range(20, 120) if len(_pages(tmp_path, n)) > 1) - 1
    for rows in range(one_page - 3, one_page + 4):
        pages = _pages(tmp_path, rows)
        for number, page in enumerate(pages, start=1):
            if "Trilha de auditoria nº 12" in page:
                assert "2026/" in page, (rows, number, page)  # rows of the table on the note's page
        assert "2026/00001" in pages[0], rows


@pytest.mark.parametrize("rows", [3])
def test_a_short_table_keeps_its_note_on_its_page(tmp_path, rows):
    pages = _pages(tmp_path, rows)
    assert len(pages) == 1 and "Trilha de auditoria nº 12" in pages[0]
