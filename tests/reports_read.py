"""Reading the reports back as their readers do — shared by the fee and sanctions report tests (no test module
imports another): the workbook LibreOffice recalculated, the HTML's figures, a PDF's page sizes and text."""

from __future__ import annotations

import re
import shutil
import subprocess
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

from pdftext import pdf_text

OFFICE = shutil.which("libreoffice") or shutil.which("soffice")


def cents(value) -> int:
    return int((Decimal(str(value)) * 100).quantize(Decimal(1)))


def recalculated(path: Path, tmp_path: Path) -> Path | None:
    """The workbook as LibreOffice computes it (its formulas evaluated), or None without LibreOffice."""
    if OFFICE is None:
        return None
    out = tmp_path / "recalculated"
    profile = tmp_path / "lo-profile"
    subprocess.run(
        [
            OFFICE,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--calc",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out),
            str(path),
        ],
        check=True,
        timeout=180,
        capture_output=True,
    )
    result = out / path.name
    assert result.exists(), "LibreOffice did not convert the workbook (would it need repair?)"
    return result


class Figures(HTMLParser):
    """Every element with an id and data-cents, and all the text."""

    def __init__(self):
        super().__init__()
        self.cents: dict[str, int] = {}
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs and "data-cents" in attrs:
            self.cents[attrs["id"]] = int(attrs["data-cents"])

    def handle_data(self, data):
        self.text.append(data)


def pdf_pages(path: Path) -> tuple[list[tuple[float, float]], str]:
    """Each page's size (width, height in points) and the text of the whole file, as laid out (pdfinfo,
    :func:`pdftext.pdf_text`)."""
    text = pdf_text(path)
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(path)], capture_output=True, text=True).stdout
    sizes = [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)]
    return sizes, text
