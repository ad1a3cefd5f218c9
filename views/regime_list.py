"""The regimes Praça has loaded, as one line each for the home page and the about box."""

from __future__ import annotations

from models.base.errors import UserError
from models.rules.regimes import shipped_regimes


def regime_titles() -> list[str]:
    """'Olímpia/SP — Lei Complementar nº 324/2025' for each regime; an error line if one is malformed."""
    try:
        regimes = shipped_regimes()
    except UserError as exc:
        return [f"⚠ {exc.message}"]
    return [f"{r.municipality}/{r.state} — {r.act}" for r in sorted(regimes.values(), key=lambda r: r.municipality)]
