"""A regime in readable form (HTML): what the Regimes screen shows and prints."""

from __future__ import annotations

from reports.templating import render


def regime_html(regime, unit_rows=None) -> str:
    """The whole regime — units, permits, lines, sections, fees, infractions, deadlines — each with its article.

    ``unit_rows`` are ``models.fiscal.UnitValueRow``s (the file's values merged
    with the clerk's); without them the file's values are shown.
    """
    return render("regime.html.j2", regime=regime, unit_rows=unit_rows)
