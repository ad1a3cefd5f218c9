"""Render the README's report images from the demo, through the programs their readers use.

    make report-images

Builds the README's town demo (``praca demo --town sao-bento``, ``README_TOWN``: the town of the screenshots,
dated today) in a temporary folder, writes this month's fee report as a workbook and as a PDF, then saves into
docs/:

* ``relatorio-libreoffice.png`` — the workbook's Resumo as LibreOffice prints it
  (``soffice --convert-to pdf``, first page, ``pdftoppm``);
* ``relatorio-pdf.png`` — a page of the PDF's charge list (the annex), as printed.
* ``impressao-sancoes.png``, ``impressao-dividas.png`` — the first page of the sanctions workbook of the year and
  of the dívida ativa list, as LibreOffice prints them (issue 32 §1: nothing below 8 pt).

Needs LibreOffice and poppler-utils (.ci/run installs them).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def png_page(pdf: Path, page: int, target: Path, dpi: int = 80, *, height: int | None = None) -> None:
    """Page ``page`` of ``pdf`` as printed, at ``dpi``, into ``target`` (pdftoppm); ``height``: only its top so
    many pixels."""
    crop = ["-x", "0", "-y", "0", "-W", "100000", "-H", str(height)] if height else []
    pages = ["-f", str(page), "-l", str(page)]
    out = str(target.with_suffix(""))
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", *pages, *crop, "-singlefile", str(pdf), out], check=True)


def main() -> int:
    office = shutil.which("soffice") or shutil.which("libreoffice")
    if office is None or shutil.which("pdftoppm") is None:
        print("make report-images: precisa do LibreOffice e do poppler-utils (pdftoppm)", file=sys.stderr)
        return 2
    from models.access.session import SYSTEM, acting_as
    from models.billing.collection.dividas import export_debts
    from models.billing.collection.late import set_late_rules
    from models.demo import fill_demo
    from models.demo.towns import README_TOWN
    from models.store.bootstrap import close_database, open_database
    from reports.debts_export import writer
    from reports.fee_export import export_fee_report
    from reports.sanctions_export import export_sanctions_report

    today = dt.date.today()
    folder = Path(tempfile.mkdtemp(prefix="praca-report-images-"))
    try:
        open_database(f"sqlite:///{folder / 'demo.sqlite3'}", create=True)
        with acting_as(SYSTEM):  # the demo is written by the system, as `praca demo` does
            fill_demo(town=README_TOWN, today=today)
        # one municipality's reports (issue 31 §1), the database's own: the month of the demo's day
        xlsx, _report = export_fee_report(today.year, today.month, "xlsx", folder / "taxas.xlsx", today=today)
        pdf, _report = export_fee_report(today.year, today.month, "pdf", folder / "taxas.pdf", today=today)
        sanctions, _sanctions = export_sanctions_report(
            dt.date(today.year, 1, 1), today, "xlsx", folder / "sancoes.xlsx", today=today
        )
        with acting_as(SYSTEM):
            set_late_rules(fine_percent="2", interest_percent="1", source="CTN, art. 161", due_days="5", debt_term="30")
            debts = folder / "dividas.xlsx"
            export_debts(debts, writer("xlsx", today), as_of=today, today=today)
        close_database()
        subprocess.run(
            [
                office,
                f"-env:UserInstallation={(folder / 'lo').as_uri()}",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                str(folder / "lo-pdf"),
                str(xlsx),
                str(sanctions),
                str(debts),
            ],
            check=True,
            capture_output=True,
            timeout=240,
        )
        png_page(folder / "lo-pdf" / "taxas.pdf", 1, HERE / "relatorio-libreoffice.png")
        png_page(folder / "lo-pdf" / "sancoes.pdf", 1, HERE / "impressao-sancoes.png")
        png_page(folder / "lo-pdf" / "dividas.pdf", 1, HERE / "impressao-dividas.png")
        pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        count = int(next(line.split()[-1] for line in pages.splitlines() if line.startswith("Pages:")))
        png_page(pdf, count, HERE / "relatorio-pdf.png")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        "docs/relatorio-libreoffice.png, docs/relatorio-pdf.png, docs/impressao-sancoes.png, docs/impressao-dividas.png"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
