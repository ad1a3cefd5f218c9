"""What the clerk reads when something nobody expected goes wrong — the start-up's box, the main window's, the
daily backup's line — and where the technical detail goes instead (issue 31 §5: nothing in English reaches the
clerk; the detail is in the log file and one click copies it).

Apart from desktop.app so that the main window reads it without importing the start-up, which imports the main
window (issue 27 §3: no import cycle, counting imports inside functions).
"""

from __future__ import annotations

import datetime as dt
import logging
import logging.handlers
import sys
import traceback
from pathlib import Path
from types import TracebackType

from models.base.errors import UserError

LOG_NAME = "praca.log"
_log = logging.getLogger("praca")
_log_file: Path | None = None

UNEXPECTED = (
    "Algo que o Praça não esperava impediu esta ação de terminar. O que já estava salvo continua salvo; "
    "nada foi gravado pela metade."
)


def explain(exc: BaseException) -> str:
    """One pt-BR line for an error nobody expected — no exception's English text (that goes to the log)."""
    import peewee

    if isinstance(exc, UserError):
        return exc.message
    from models.store.db import database_error_text

    known = database_error_text(exc, detail=False)  # the driver's English words go to the log
    if known is not None:
        return known
    if isinstance(exc, (peewee.InterfaceError, peewee.OperationalError)):
        return (
            "A conexão com o banco de dados falhou. Nada foi gravado pela metade. Confira a rede (ou o servidor) "
            "e tente de novo."
        )
    if isinstance(exc, peewee.DataError):
        return "O banco de dados recusou um valor. Nada foi gravado."
    return UNEXPECTED


def start_log(folder: Path) -> Path | None:
    """Errors (with their tracebacks) and notes go to ``folder/praca.log`` from now on (1 MB, three older kept).
    None when the file cannot be written: the messages still say what happened, stderr keeps the detail."""
    global _log_file
    path = folder / LOG_NAME
    if _log_file == path:
        return path
    try:
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    _log_file = path
    return path


def stop_log() -> None:
    """No more writing to the log file (a test's, or before another data folder)."""
    global _log_file
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, logging.handlers.RotatingFileHandler) and Path(handler.baseFilename) == _log_file:
            root.removeHandler(handler)
            handler.close()
    _log_file = None


def log_file() -> Path | None:
    """The log file errors are written to (None before ``start_log``)."""
    return _log_file


def details(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> str:
    """The report for whoever supports the desk: when, which Praça, Python, Qt and system, and the traceback."""
    import platform  # only here: 5 ms of the start-up otherwise

    import PySide6

    import desktop

    head = [
        f"Praça {desktop.__version__} · Python {platform.python_version()} · PySide6 {PySide6.__version__}",
        f"{platform.platform()} · {dt.datetime.now().astimezone().isoformat(timespec='seconds')}",
        "",
    ]
    return "\n".join(head) + "".join(traceback.format_exception(kind, value, tb))


def report_unexpected(parent, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """An error that reached the event loop: its traceback to stderr and the log file, and to the clerk a box
    in Portuguese with what to do, "Copiar detalhes" and the log's place (a ``UserError``: its line only)."""
    from PySide6.QtWidgets import QMessageBox

    traceback.print_exception(kind, value, tb, file=sys.stderr)
    if isinstance(value, UserError):
        QMessageBox.critical(parent, "Praça", value.message)
        return
    _log.error("erro inesperado", exc_info=(kind, value, tb))
    from views.error_dialog import ErrorDialog

    dialog = ErrorDialog(parent, explain(value), details(kind, value, tb), log_file())
    dialog.exec()
