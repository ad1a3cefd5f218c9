"""The text of a PDF as poppler's ``pdftotext`` reads it — the one way every test reads a PDF's words.

pdftotext gives back the glyphs a font drew: a typeset "fiscal" or "fluxo" may come out with the single
ligature character "ﬁ"/"ﬂ" (U+FB01, U+FB02), which no assertion in plain text would find. Those
presentation forms (U+FB00–U+FB06) are replaced by their NFKC decomposition, and nothing else is: NFKC on the
whole text would also turn "nº" into "no" and "1ª" into "1a", which the documents print on purpose.

A missing pdftotext skips the test — a failure under ``CI=true``, where .ci/run installs poppler-utils.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

_LIGATURES = re.compile("[\ufb00-\ufb06]")


def _pdftotext() -> str:
    found = shutil.which("pdftotext")
    if found is None:
        message = "poppler-utils (pdftotext) ausente"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}: .ci/run should have installed it")
        pytest.skip(message)
    return found


def _squash(text: str, squash: str | None) -> str:
    if squash == "spaces":  # runs of blanks (no-break spaces too) one space; the lines kept
        return re.sub(r"[ \t\xa0]+", " ", text)
    if squash == "all":  # every run of white space one space: a wrapped line reads on
        return " ".join(text.split())
    assert squash is None, squash
    return text


def pdf_text(path: str | Path, *, mode: str = "layout", squash: str | None = None) -> str:
    """The whole text of ``path``: ``mode`` "layout" (as laid out), "raw" (in the order it was drawn: a table
    cell's lines together) or "plain" (pdftotext's default reading order); ``squash`` "spaces" or "all" (see
    :func:`_squash`). Pages are separated by a form feed."""
    flag = {"layout": ["-layout"], "raw": ["-raw"], "plain": []}[mode]
    out = subprocess.run([_pdftotext(), *flag, str(path), "-"], check=True, capture_output=True, text=True).stdout
    out = _LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), out)
    return _squash(out, squash)


def pdf_pages(path: str | Path, *, mode: str = "layout", squash: str | None = None) -> list[str]:
    """Each page's text (see :func:`pdf_text`); no empty page after the last form feed."""
    pages = pdf_text(path, mode=mode).split("\f")
    pages = pages[:-1] if pages and not pages[-1].strip() else pages
    return [_squash(page, squash) for page in pages]
