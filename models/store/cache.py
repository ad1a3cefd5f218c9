"""Where the domain may keep what it can always rebuild — the parsed regimes — between runs.

The application points it at the user's cache folder (``desktop.paths.use_data_folder``); unset (the command
line on a read-only machine, the tests' own folder aside), nothing is kept and everything is rebuilt. Nothing
here is ever the only copy: a cache file that is missing, stale or unreadable is rebuilt from the source.
"""

from __future__ import annotations

from pathlib import Path

_folder: Path | None = None


def set_cache_folder(folder: str | Path | None) -> None:
    global _folder
    _folder = Path(folder) if folder is not None else None


def cache_folder() -> Path | None:
    return _folder
