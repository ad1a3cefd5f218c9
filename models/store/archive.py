"""Zip files read with bounds: a backup or a spreadsheet is checked against sane limits before anything in it
is decompressed, so that a small file that would unpack to gigabytes (a "zip bomb") is refused in a moment
with bounded memory, never read for minutes.

The limits are the declared sizes in the zip's central directory, which Python's ``zipfile`` also enforces
while reading (a member never yields more bytes than declared, and its CRC is checked at the end): checking
them first is therefore checking what will be read.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass

from models.base.errors import UserError

__all__ = ["ZipLimits", "check_zip", "megabytes", "read_member"]


@dataclass(frozen=True)
class ZipLimits:
    """What a kind of file may hold once decompressed."""

    what: str  # "o backup", "a planilha": named in the message
    max_entries: int
    max_entry_bytes: int
    max_total_bytes: int
    max_ratio: int  # decompressed / compressed, for any member above ``ratio_floor`` bytes
    ratio_floor: int = 1024 * 1024


def _of(what: str) -> str:
    """ "de o backup" → "do backup", "de a planilha" → "da planilha"."""
    for article, contracted in (("o ", "do "), ("a ", "da ")):
        if what.startswith(article):
            return contracted + what[len(article) :]
    return "de " + what


def megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB".replace(".", ",")


def check_zip(zf: zipfile.ZipFile, *, name: str, limits: ZipLimits) -> None:
    """Refuse ``zf`` (one pt-BR :class:`UserError` naming the file) when what it declares exceeds ``limits``."""
    infos = zf.infolist()
    if len(infos) > limits.max_entries:
        raise UserError(
            f"{name}: {limits.what} tem {len(infos)} partes dentro do zip (o limite é "
            f"{limits.max_entries}); não foi lido."
        )
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > limits.max_entry_bytes:
            raise UserError(
                f"{name}: a parte {info.filename} {_of(limits.what)} teria {megabytes(info.file_size)} "
                f"descompactada (o limite é {megabytes(limits.max_entry_bytes)}); não foi lido."
            )
        if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise UserError(
                f"{name}: a parte {info.filename} {_of(limits.what)} se expandiria "
                f"{info.file_size // max(info.compress_size, 1)} vezes ao ser descompactada "
                f"({megabytes(info.file_size)}); um arquivo legítimo não se comprime assim. "
                f"Não foi lido."
            )
    if total > limits.max_total_bytes:
        raise UserError(
            f"{name}: {limits.what} teria {megabytes(total)} descompactado (o limite é "
            f"{megabytes(limits.max_total_bytes)}); não foi lido."
        )


def read_member(zf: zipfile.ZipFile, member: str, *, name: str, max_bytes: int, chunk: int = 1024 * 1024) -> bytes:
    """The bytes of ``member``, read in chunks and never more than ``max_bytes`` (one line past it)."""
    out = bytearray()
    with zf.open(member) as fh:
        while block := fh.read(chunk):
            out += block
            if len(out) > max_bytes:
                raise UserError(f"{name}: a parte {member} passa de {megabytes(max_bytes)}; não foi lida.")
    return bytes(out)
