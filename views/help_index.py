"""The index of the offline help (resources/help/index.json): which guides are bundled, in which order. Apart from
the help window (views/help.py) so that the main window lists the guides in its Ajuda menu without importing the
window's widgets before its first frame (bench startup)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import resources

HELP_DIR = Path(resources.__file__).resolve().parent / "help"
#: the page shown for a desk without a guide of its own
HOME = "painel"


@dataclass(frozen=True)
class HelpPage:
    key: str
    title: str

    @property
    def path(self) -> Path:
        return HELP_DIR / f"{self.key}.html"


def help_pages() -> list[HelpPage]:
    """The bundled guides, in the order of their index."""
    try:
        index = json.loads((HELP_DIR / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # an installation without its help: the menu is empty, nothing fails
        return []
    return [HelpPage(entry["key"], entry["title"]) for entry in index]
