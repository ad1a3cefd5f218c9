"""Which municipalities' reports a database can give (issue 31 §1): its own, and every other town whose acts
its charges or records were made under (a database filled before Praça knew its municipality — the old demo —
holds several). A report is always one of them, never a mix."""

from __future__ import annotations

from models.base.errors import UserError
from models.billing.charges import Charge
from models.enforcement import Record
from models.registry.municipality import municipality, report_town
from models.rules.regimes import get_regime


def report_towns() -> list[tuple[str, str | None]]:
    """(label, name to ask :func:`models.registry.municipality.report_town` for): the database's own municipality
    first (name ``None``), then each other town with charges or records, by name."""
    own = municipality()
    mine = report_town().regime_ids if own.is_set else frozenset()
    used: set[str] = {str(charge.regime) for charge in Charge.select(Charge.regime).distinct()}
    used |= {str(record.regime) for record in Record.select(Record.regime).distinct()}
    others: dict[str, str] = {}
    for regime_id in sorted(used - mine):
        try:
            regime = get_regime(regime_id)
        except UserError:  # an act no longer installed: its records are read under their own id elsewhere
            continue
        others.setdefault(f"{regime.municipality}/{regime.state}", regime.municipality)
    found: list[tuple[str, str | None]] = [(own.label, None)] if own.is_set else []
    return found + sorted(others.items())
