"""Praça's icon, for the application and its main window (apart from desktop.app, which imports the main window)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QIcon

import resources

ICON = Path(resources.__file__).resolve().parent / "icons" / "praca.svg"


def app_icon() -> QIcon:
    return QIcon(str(ICON))
