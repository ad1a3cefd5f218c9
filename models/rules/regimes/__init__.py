"""Regimes: one legal act encoded as data (``resources/regimes/<id>.toml``).

``load_regimes()`` reads every file of the folder into frozen dataclasses and
validates it strictly against docs/regime-format.md: a missing required key, an
unknown key, a wrong type, a TOML float where a decimal string is required, a
bad or duplicate id, a dangling reference, a missing ``basis``, a file whose id
is not its name or a TOML syntax error each raise :class:`RegimeError`, whose
message names the file, the key path (``fees[0].discounts[1].rate``) and the
reason, in pt-BR.

No rule of a town lives here: this package only knows the *format*. Its modules:

* :mod:`.errors` — ``RegimeError``, ``RegimeErrors``, ``MissingUnitValue``;
* :mod:`.vocabulary` — the patterns and the choices of each enumerated key;
* :mod:`.model` — one frozen dataclass per table of the format; :mod:`.regime` — the whole act, ``Regime``;
* :mod:`.reader` — ``Node``, the typed reader of one TOML table, and the collecting of every mistake;
* ``parse_*`` — one parser per table (:mod:`.parse_common`, :mod:`.parse_act`, :mod:`.parse_permits`,
  :mod:`.parse_fees`, :mod:`.parse_places`, :mod:`.parse_penalties`); :mod:`.references` — the ids between them;
* :mod:`.loader` — one act from its text or file; :mod:`.catalogue` — which acts there are (shipped files,
  kept parsed in the cache folder, or the open database's), ``get_regime``;
* :mod:`.export` — ``regime_to_dict``, the JSON of ``praca regimes --show``.

This module re-exports the public names, so ``from models.rules.regimes import get_regime, Regime`` is the
ordinary import.
"""

from __future__ import annotations

from models.rules.regimes.catalogue import (
    ActSource,
    act_currency,
    act_money,
    check_in_force,
    default_regimes_folder,
    get_regime,
    load_regimes,
    retired_regimes,
    set_act_source,
    shipped_regimes,
    shipped_regimes_from_files,
)
from models.rules.regimes.errors import (
    MissingUnitValue,
    RegimeError,
    RegimeErrors,
)
from models.rules.regimes.export import (
    regime_to_dict,
)
from models.rules.regimes.loader import (
    MAX_REGIME_BYTES,
    check_regime_text,
    load_regime_file,
    load_regime_text,
)
from models.rules.regimes.regime import (
    Regime,
)
from models.rules.regimes.vocabulary import (
    CODE_RE,
    DEADLINE_ROLES,
    DECIMAL_RE,
    ID_RE,
    PROCESS_ROLES,
    RULE_KINDS,
    TIME_RE,
    WEEKDAYS,
)

__all__ = [
    "CODE_RE",
    "DEADLINE_ROLES",
    "DECIMAL_RE",
    "ID_RE",
    "MAX_REGIME_BYTES",
    "PROCESS_ROLES",
    "RULE_KINDS",
    "TIME_RE",
    "WEEKDAYS",
    "ActSource",
    "MissingUnitValue",
    "Regime",
    "RegimeError",
    "RegimeErrors",
    "act_currency",
    "act_money",
    "check_in_force",
    "check_regime_text",
    "default_regimes_folder",
    "get_regime",
    "load_regime_file",
    "load_regime_text",
    "load_regimes",
    "regime_to_dict",
    "retired_regimes",
    "set_act_source",
    "shipped_regimes",
    "shipped_regimes_from_files",
]
