"""The bundle's entry point (PyInstaller): the same ``praca`` as the wheel's console script.

``praca-gui.exe`` (Windows, no console) starts with no standard output or error at all (``None``): what Praça
would say there — a warning, the traceback of an unexpected error — goes to ``praca-gui.log`` in the data folder
(the desk's, ``PRACA_DATA``, when the installer chose one database for the desk; else the user's local one)
instead of failing on the first line written.
"""

import os
import sys
from pathlib import Path


def _streams_without_console() -> None:
    if sys.stdout is not None and sys.stderr is not None:
        return
    shared = os.environ.get("PRACA_DATA", "").strip()  # desktop.paths.DATA_ENV, read before Qt is imported
    local = Path(os.environ.get("LOCALAPPDATA") or Path.home() / ".local" / "share") / "Praca" / "Praca"
    folder = Path(shared) if shared else local
    try:
        folder.mkdir(parents=True, exist_ok=True)
        log = open(folder / "praca-gui.log", "a", encoding="utf-8", buffering=1)  # for the run
    except OSError:
        log = open(os.devnull, "w", encoding="utf-8")
    sys.stdout = sys.stdout or log
    sys.stderr = sys.stderr or log


if __name__ == "__main__":
    _streams_without_console()
    from desktop.cli import main

    sys.exit(main())
