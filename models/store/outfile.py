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
through to the file it names, never replaced.

**What is never written over** (issue 26 §6): the target is resolved first —
every link followed, ``..`` normalised — and refused with one line when it is
the open database or its ``-wal``, ``-shm`` or ``-journal``, any Praça database
(an SQLite file whose ``praca_meta`` says ``app = praca``, and its journals), a
Praça backup (a ``.praca-backup``, a zip whose manifest says it is one, an
encrypted backup) unless the writer is the backup itself (``backup=True``), or
anything inside a protected folder — the data folder's ``backups``, registered
by the desktop (:func:`protect_folder`) — unless the writer is the automatic
backup (``automatic=True``). Every command and every screen writes through here,
so each of them gets the same refusals.

The temporary file is a :mod:`models.store.partial` file: owner only and locked
while written; one a killed writer left beside the same target is removed by
the next write there. Files that hold personal data —
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
import json
import os
import sqlite3
import stat
import sys
import traceback
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from models.base.errors import UserError
from models.store import partial

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
    return known.get(exc.errno or 0, exc.strerror or type(exc).__name__)


def resolve_target(target: str | os.PathLike, *, backup: bool = False, automatic: bool = False) -> Path:
    """The file a write to ``target`` really replaces: every symbolic link followed and ``..`` normalised; refused
    if it exists and is not a regular file, if its folder does not exist, or if it is something Praça never writes
    over (see the module's docstring; ``backup``: the writer is the backup, ``automatic``: the automatic one)."""
    path = Path(os.path.realpath(os.path.expanduser(os.fspath(target))))
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
    problem = protected(path, exists=mode is not None, backup=backup, automatic=automatic)
    if problem:
        raise WriteFailed(problem)
    return path


# --------------------------------------------------------------------------- what is never written over

_JOURNALS = ("-wal", "-shm", "-journal")
#: Folders only the automatic backup writes in (the data folder's ``backups``): paths, or functions that say them.
_protected_folders: list[Path | Callable[[], Path | None]] = []


def protect_folder(folder: Path | Callable[[], Path | None]) -> None:
    """Nothing but the automatic backup writes inside ``folder`` (a path, or a function that says it when asked:
    the data folder is known only once the desktop has named the application)."""
    if folder not in _protected_folders:
        _protected_folders.append(folder)


def _open_database() -> Path | None:
    from models.store.db import current_url

    url = current_url()
    if url is None or url.backend != "sqlite" or url.path in (None, "", ":memory:"):
        return None
    return Path(os.path.realpath(os.path.expanduser(url.path)))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def is_praca_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite file whose ``praca_meta`` says it is Praça's (read-only, a few pages read)."""
    try:
        with path.open("rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return False
    except OSError:
        return False
    from urllib.parse import quote

    try:
        con = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=1)
    except sqlite3.Error:
        return True  # an SQLite file that cannot even be read: never taken for a file to replace
    try:
        row = con.execute("SELECT value FROM praca_meta WHERE key = 'app'").fetchone()
        return row is not None and row[0] == "praca"
    except sqlite3.OperationalError as exc:  # no such table: another program's database
        return "no such table" not in str(exc)
    except sqlite3.Error:
        return True
    finally:
        con.close()


def is_praca_backup(path: Path) -> bool:
    """Whether ``path`` is a Praça backup: by its name, an encrypted backup's mark, or a zip whose manifest says so
    (only the manifest is read, bounded)."""
    if path.name.lower().endswith(".praca-backup"):
        return True
    try:
        with path.open("rb") as fh:
            head = fh.read(32)
    except OSError:
        return False
    if head.startswith(b"PRACA-BACKUP-"):
        return True
    if not head.startswith(b"PK"):
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("manifest.json")
            if info.file_size > 4 * 1024 * 1024:
                return False
            manifest = json.loads(archive.read(info))
    except (KeyError, OSError, ValueError, zipfile.BadZipFile, EOFError, RuntimeError, NotImplementedError):
        return False
    return isinstance(manifest, dict) and manifest.get("format") == "praca-backup"


def protected(path: Path, *, exists: bool, backup: bool = False, automatic: bool = False) -> str | None:
    """Why the resolved ``path`` must not be written (one pt-BR sentence), or ``None``."""
    keep = "o Praça não grava por cima dele; escolha outro arquivo"
    database = _open_database()
    if database is not None:
        for suffix in ("", *_JOURNALS):
            own = database.with_name(database.name + suffix)
            if path == own or (exists and _same_file(path, own)):
                what = "o banco de dados aberto" if not suffix else f"o arquivo {suffix} do banco de dados aberto"
                return f"{path} é {what}: {keep}."
    for suffix in _JOURNALS:
        if path.name.endswith(suffix):
            base = path.with_name(path.name[: -len(suffix)])
            if base.exists() and is_praca_database(base):
                return f"{path} é o arquivo {suffix} de um banco de dados do Praça ({base.name}): {keep}."
    if exists and is_praca_database(path):
        return f"{path} é um banco de dados do Praça: {keep}."
    if not backup and (path.name.lower().endswith(".praca-backup") or (exists and is_praca_backup(path))):
        return (
            f"{path} é um backup do Praça: só o próprio backup grava um arquivo .praca-backup; escolha outro arquivo."
        )
    if not automatic:
        for entry in _protected_folders:
            try:
                folder = entry() if callable(entry) else entry
            except Exception:  # a folder that cannot be named now protects nothing now
                folder = None
            if folder is None:
                continue
            folder = Path(os.path.realpath(folder))
            if path.is_relative_to(folder):
                return (
                    f"{path} fica na pasta dos backups automáticos ({folder}), onde só o backup diário grava: "
                    "escolha outra pasta."
                )
    return None


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
    backup: bool = False,
    automatic: bool = False,
) -> Iterator[Path]:
    """``with output(target) as tmp:`` write ``tmp`` (a new, empty file beside the target); on leaving the block
    it is checked (:func:`check_complete`, then ``check``), synced and renamed over the target. An error in the
    block or in the checks removes it and leaves the target as it was; a full disk, however the writer says it,
    is a :class:`WriteFailed`.

    ``mode`` sets the file's mode outright (a launcher 0755, a public key 0644); ``exclusive`` never replaces
    a file: one already there — even one another process made meanwhile — raises :class:`TargetExists`.
    ``backup`` and ``automatic`` say the writer is the backup, or the automatic backup (:func:`protected`)."""
    path = resolve_target(target, backup=backup, automatic=automatic)
    # what a writer killed earlier left: of this file; of any file, beside a backup (the next backup cleans up)
    partial.sweep(path.parent, None if backup else path.name)
    try:
        tmp = partial.create(path)
    except OSError as exc:
        raise WriteFailed(f"Não foi possível gravar em {path.parent}: {_reason(exc)}.") from None
    try:
        try:
            try:
                yield tmp
            except Exception as exc:
                cause = _os_error(exc)
                if cause is None:
                    raise
                _let_go(exc)
                raise cause from None
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
        partial.discard(tmp)
        raise
    partial.release(tmp)
    _fsync_folder(path.parent)


def _os_error(exc: BaseException) -> OSError | None:
    """The operating system's error under a writer's own (XlsxWriter's ``FileCreateError(OSError)``), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError):
            return current
        inner = next((a for a in current.args if isinstance(a, OSError)), None)
        if inner is not None:
            return inner
        current = current.__cause__ or current.__context__
    return None


def _let_go(exc: BaseException) -> None:
    """Close now, quietly, what a writer that failed left open (XlsxWriter's zip, held by its traceback's frames):
    closed later, on a full disk, it would print "Exception ignored…" after the one line the user gets."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _unraisable: None
    try:
        seen: set[int] = set()
        current: BaseException | None = exc
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            if current.__traceback__ is not None:
                traceback.clear_frames(current.__traceback__)
            current = current.__cause__ or current.__context__
        import gc

        gc.collect()
    finally:
        sys.unraisablehook = hook


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
