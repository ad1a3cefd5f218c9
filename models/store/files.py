"""Files Praça keeps (scanned documents, photos): copied into its data folder, named by their SHA-256.

The database keeps the relative path and the hash; the same content is stored
once. The folder is set at start-up by the application (the user's data
folder) and by tests (a temporary one).
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from models.base.errors import UserError

_store: Path | None = None
MAX_BYTES = 50 * 1024 * 1024


def set_store(folder: str | Path) -> Path:
    global _store
    _store = Path(folder)
    _store.mkdir(parents=True, exist_ok=True)
    return _store


def store() -> Path:
    if _store is None:
        raise UserError("A pasta de arquivos do Praça não foi configurada.")
    return _store


@dataclass(frozen=True)
class StoredFile:
    path: str  # relative to the store
    sha256: str
    original_name: str
    size: int


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def keep_file(source: str | Path, kind: str = "docs") -> StoredFile:
    """Copy ``source`` into the store (``kind/ab/abcdef….ext``) and return its path and hash."""
    src = Path(source)
    if not src.is_file():
        raise UserError(f"Arquivo não encontrado: {src}", field="file")
    size = src.stat().st_size
    if size == 0:
        raise UserError(f"O arquivo {src.name} está vazio.", field="file")
    if size > MAX_BYTES:
        raise UserError(f"O arquivo {src.name} tem mais de 50 MB.", field="file")
    digest = sha256_of(src)
    relative = Path(kind) / digest[:2] / f"{digest}{src.suffix.lower()}"
    target = store() / relative
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        from models.store.outfile import output

        with output(
            target,
            kind="scan",
            check=lambda tmp: None if sha256_of(tmp) == digest else "a cópia não confere com o original",
        ) as tmp:  # a scan of a document: owner only
            shutil.copyfile(src, tmp)
    return StoredFile(relative.as_posix(), digest, src.name, size)


def resolve(relative: str) -> Path:
    return store() / relative


def verify(relative: str, sha256: str) -> bool:
    """True when the kept file still has the hash recorded for it."""
    path = resolve(relative)
    return path.is_file() and sha256_of(path) == sha256
