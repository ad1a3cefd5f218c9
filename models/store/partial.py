"""Partial files: what a writer fills beside its target before renaming it into place (issue 26 §8).

A partial file is named ``.NAME.XXXXXXXX.partial`` (hidden, beside ``NAME``), created readable by its owner only
— it holds what the finished file will hold, every CPF of a backup — and **locked** while its writer lives
(``flock`` on POSIX; on Windows an open file cannot be removed at all). A writer killed half-way leaves it behind
unlocked: :func:`sweep` removes such dead ones, and only those, the next time anything is written there (the
next backup) and at start (the database's folder and the automatic backups' folder), with a line in the log.

This module imports nothing of Praça: :mod:`models.store.db` (a copy of the database beside itself) and
:mod:`models.store.outfile` (every file written) both use it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
from pathlib import Path

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows: an open file cannot be deleted, which is the lock we need
    fcntl = None  # type: ignore[assignment]

_log = logging.getLogger(__name__)

SUFFIX = ".partial"
#: ``.NAME.XXXXXXXX.partial``: what :func:`create` makes (``tempfile``'s eight random characters).
PATTERN = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.partial$")
_NAME_CHARS = 60

#: The partial files this process is writing: path → the descriptor that holds its lock.
_held: dict[str, int] = {}


def create(target: Path) -> Path:
    """A new, empty partial file for ``target`` in its folder: owner only (0600), locked until :func:`release`.
    ``OSError`` when the folder cannot take it."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name[:_NAME_CHARS]}.", suffix=SUFFIX, dir=target.parent)
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a file system without flock (some network shares): the file is still owner only
            pass
    _held[name] = fd
    return Path(name)


def release(path: Path) -> None:
    """Let go of a partial file's lock (after it was renamed into place or removed)."""
    fd = _held.pop(str(path), None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def discard(path: Path) -> None:
    """Remove a partial file this process made, and let go of it."""
    with contextlib.suppress(OSError):
        path.unlink()
    release(path)


def is_live(path: Path) -> bool:
    """Whether a writer — of this process or another — still holds ``path``."""
    if str(path) in _held:
        return True
    if fcntl is None:  # pragma: no cover - Windows: a file open in another process cannot be renamed
        try:
            os.replace(path, path)
        except PermissionError:
            return True
        except OSError:
            return False
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:  # no flock here: only its age can tell; a writer touches its file as it goes
        return False
    finally:
        os.close(fd)
    return False


def sweep(folder: Path, target: str | None = None) -> list[Path]:
    """Remove the partial files in ``folder`` that no writer holds any more (of ``target`` only, when given):
    what a killed writer left. Returns those removed; each is logged. Never raises."""
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for path in entries:
        match = PATTERN.match(path.name)
        if match is None or (target is not None and match.group("name") != target[:_NAME_CHARS]):
            continue
        try:
            if not path.is_file() or path.is_symlink() or is_live(path):
                continue
            path.unlink()
        except OSError:
            continue
        _log.info("arquivo parcial de uma gravação interrompida removido: %s", path)
        removed.append(path)
    return removed
