"""Every file Praça writes: to a temporary file beside the target, checked, synced, renamed over it.

A write that failed is never reported as done (issue 16 §1). The writer works
on a temporary file in the target's folder; when it returns, the file is
checked — not empty, and complete for its kind: a PDF ends with its trailer,
an xlsx or a backup (zip) reads back, a PNG ends with its last chunk, an SVG
closes its root — then synced to the disk and renamed over the target in one
step, and the folder synced. Anything else is a :class:`WriteFailed`
(``UserError``: one line and exit 2 on the command line, a message on the
desk), the target untouched and no temporary file left.

A target that exists and is not a regular file (a device such as
``/dev/full``, a fifo, a folder) is refused; a symbolic link is written
through to the file it names, never replaced. Files that hold personal data —
every document, report, export and backup unless the caller says otherwise —
are created readable by their owner only (mode 0600).

Use :func:`output` around a writer that needs a path, or :func:`write_bytes` /
:func:`write_text`; :func:`atomic_writer` turns a function ``f(x, path, …)``
into one that writes this way.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import stat
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from models.base.errors import UserError

PRIVATE_MODE = 0o600


class WriteFailed(UserError):  # noqa: N818 - a public name the writers and the tests use
    """The file could not be written whole; the target was left as it was."""

    def __init__(self, message: str):
        super().__init__(message, field="out")


class TargetExists(WriteFailed):
    """An ``exclusive`` write found the target already there (another process made it first); it was kept."""


def _reason(exc: OSError) -> str:
    import errno

    known = {
        errno.ENOSPC: "o disco está cheio",
        errno.EDQUOT: "a cota de disco acabou",
        errno.EACCES: "sem permissão de escrita",
        errno.EPERM: "sem permissão de escrita",
        errno.EROFS: "a pasta está numa mídia somente leitura",
        errno.ENOENT: "a pasta não existe",
        errno.EISDIR: "é uma pasta",
        errno.ENAMETOOLONG: "o nome é longo demais",
    }
    return known.get(exc.errno, exc.strerror or type(exc).__name__)


def resolve_target(target: str | os.PathLike) -> Path:
    """The file a write to ``target`` really replaces: a symbolic link's target; refused if it exists and is not
    a regular file, or if its folder does not exist."""
    path = Path(os.path.expanduser(os.fspath(target)))
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise WriteFailed(f"Não foi possível gravar {path}: {_reason(exc)}.") from None
    if mode is not None and not stat.S_ISREG(mode):
        what = "uma pasta" if stat.S_ISDIR(mode) else "um dispositivo ou fila, não um arquivo comum"
        raise WriteFailed(f"{path} é {what}: escolha um arquivo para gravar.")
    folder = path.parent
    if not folder.is_dir():
        what = "não é uma pasta" if folder.exists() else "não existe"
        raise WriteFailed(f"A pasta {folder.resolve()} {what}: crie-a ou escolha outro caminho para {path.name}.")
    return path


def _ends(path: Path, size: int, head: int, tail: int) -> tuple[bytes, bytes]:
    """The first ``head`` and the last ``tail`` bytes of the file (``size`` bytes long)."""
    with path.open("rb") as fh:
        first = fh.read(head)
        fh.seek(max(size - tail, 0))
        return first, fh.read()


def check_complete(path: Path, kind: str | None = None) -> str | None:
    """What is wrong with the written file ``path`` (``None``: it is whole). ``kind`` defaults to its suffix."""
    size = path.stat().st_size
    if size == 0:
        return "o arquivo ficou vazio"
    kind = (kind or path.suffix.lstrip(".")).lower()
    if kind == "pdf":
        head, tail = _ends(path, size, 5, 1024)
        if head != b"%PDF-" or b"%%EOF" not in tail:
            return "o PDF ficou incompleto (sem o fim do arquivo)"
    elif kind in ("xlsx", "zip", "praca-backup"):
        try:
            with zipfile.ZipFile(path) as archive:
                if archive.testzip() is not None:
                    return "o arquivo compactado não confere ao ser relido"
        except (zipfile.BadZipFile, OSError, EOFError):
            return "o arquivo compactado não se deixa reler"
    elif kind == "png":
        head, tail = _ends(path, size, 8, 12)
        if head != b"\x89PNG\r\n\x1a\n" or b"IEND" not in tail:
            return "a imagem PNG ficou incompleta"
    elif kind == "svg":
        with path.open("rb") as fh:
            fh.seek(max(size - 256, 0))
            if b"</svg>" not in fh.read():
                return "o SVG ficou incompleto"
    return None


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # a folder that cannot be opened (Windows): the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def output(
    target: str | os.PathLike,
    *,
    kind: str | None = None,
    private: bool = True,
    check: Callable[[Path], str | None] | None = None,
    mode: int | None = None,
    exclusive: bool = False,
) -> Iterator[Path]:
    """``with output(target) as tmp:`` write ``tmp`` (a new, empty file beside the target); on leaving the block
    it is checked (:func:`check_complete`, then ``check``), synced and renamed over the target. An error in the
    block or in the checks removes it and leaves the target as it was.

    ``mode`` sets the file's mode outright (a launcher 0755, a public key 0644); ``exclusive`` never replaces
    a file: one already there — even one another process made meanwhile — raises :class:`TargetExists`."""
    path = resolve_target(target)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name[:60]}.", suffix=".partial", dir=path.parent)
    except OSError as exc:
        raise WriteFailed(f"Não foi possível gravar em {path.parent}: {_reason(exc)}.") from None
    os.close(fd)
    tmp = Path(name)
    try:
        try:
            yield tmp
            problem = check_complete(tmp, kind or path.suffix.lstrip(".") or None)
            if problem is None and check is not None:
                problem = check(tmp)
            if problem:
                raise WriteFailed(f"{path} não foi gravado: {problem}.")
            os.chmod(tmp, mode if mode is not None else PRIVATE_MODE if private else 0o666 & ~_umask())
            with tmp.open("rb+") as fh:
                os.fsync(fh.fileno())
            if exclusive:
                _link_new(tmp, path)
            else:
                os.replace(tmp, path)
        except OSError as exc:
            raise WriteFailed(f"{path} não foi gravado: {_reason(exc)}.") from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


def _link_new(tmp: Path, path: Path) -> None:
    """``tmp`` becomes ``path`` only if there is no ``path`` yet (a hard link never overwrites)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise TargetExists(f"{path} já existe: o Praça não o sobrescreve.") from None
    except OSError:  # a file system without hard links: checked, then renamed
        if path.exists():
            raise TargetExists(f"{path} já existe: o Praça não o sobrescreve.") from None
        os.replace(tmp, path)
        return
    tmp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(target: str | os.PathLike, data: bytes, **options) -> Path:
    """``data`` written to ``target`` as :func:`output` writes; returns ``target`` as a path."""
    with output(target, **options) as tmp:
        tmp.write_bytes(data)
    return Path(target)


def write_text(
    target: str | os.PathLike, text: str, *, encoding: str = "utf-8", newline: str | None = None, **options
) -> Path:
    with output(target, **options) as tmp:
        with tmp.open("w", encoding=encoding, newline=newline) as fh:
            fh.write(text)
    return Path(target)


def atomic_writer(param: str = "path", *, kind: str | None = None, private: bool = True):
    """Decorate a writer ``f(…, path, …)`` so that it writes through :func:`output`: it is given the temporary
    file for ``param`` and whatever it returns that is that file comes back as the target."""

    def decorate(function):
        signature = inspect.signature(function)

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            target = bound.arguments[param]
            with output(target, kind=kind, private=private) as tmp:
                bound.arguments[param] = type(target)(tmp) if isinstance(target, (str, Path)) else tmp
                result = function(*bound.args, **bound.kwargs)
            if isinstance(result, (str, Path)) and Path(result) == tmp:
                return str(target) if isinstance(result, str) else Path(target)
            return result

        return wrapper

    return decorate
