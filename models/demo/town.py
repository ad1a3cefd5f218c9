"""The demo's municipality (issue 31 §1): a demo database is one town hall, its identity taken from the act it
runs — name and UF from the regime file, the IBGE code from IBGE's table (no regime carries it)."""

from __future__ import annotations

from dataclasses import replace

from models.registry.municipality import Municipality, identity_of_regime, set_municipality

#: the IBGE municipality codes of the shipped acts' towns (IBGE, códigos dos municípios)
IBGE_CODES = {
    "sao-bento-2026": "3548203",
    "sapezal-2014": "5107875",
    "ilha-comprida-2017": "3520426",
    "sjc-2014": "3549904",
    "olimpia-2025": "3533908",
    "cabeceira-grande-2012": "3109451",
}


def set_demo_town(regime, *, agency: str = "") -> Municipality:
    """Make the open database ``regime``'s municipality (the caller acts as the system or an administrator)."""
    given = identity_of_regime(regime, ibge=IBGE_CODES.get(regime.id, ""))
    return set_municipality(replace(given, agency=agency or given.agency))
