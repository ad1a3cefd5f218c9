"""Which acts there are: the shipped files (parsed once per process, kept parsed in the cache folder between
runs), or — with a database open — its installed acts (:mod:`models.rules.acts`), each in the version in
force on a day.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from models.rules.regimes.errors import RegimeError
from models.rules.regimes.loader import load_regime_file
from models.rules.regimes.reader import show
from models.rules.regimes.regime import Regime


def default_regimes_folder() -> Path:
    """``resources/regimes`` of the installed ``resources`` package (or of this checkout)."""
    try:
        import resources  # a plain package of files, installed as such (importlib.resources costs a start-up)

        candidate = Path(resources.__file__).resolve().parent / "regimes"
        if candidate.is_dir():
            return candidate
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - fallback below
        pass
    return models_root().parent / "resources" / "regimes"


def load_regimes(folder: str | Path | None = None) -> dict[str, Regime]:
    """Every ``*.toml`` of ``folder`` (default: :func:`default_regimes_folder`), by id.

    The first malformed file stops the load with its :class:`RegimeError`.
    """
    folder = Path(folder) if folder is not None else default_regimes_folder()
    if not folder.is_dir():
        raise RegimeError(f"pasta de regimes não encontrada: {folder}")
    regimes: dict[str, Regime] = {}
    for path in sorted(folder.glob("*.toml")):
        regime = load_regime_file(path)
        regimes[regime.id] = regime
    return regimes


@functools.lru_cache(maxsize=1)
def _default_regimes() -> dict[str, Regime]:
    return load_through_cache(default_regimes_folder())


def models_root() -> Path:
    """The ``models`` package folder: every module of the domain, at any depth."""
    import models

    return Path(models.__file__).resolve().parent


def load_through_cache(folder: Path) -> dict[str, Regime]:
    """:func:`load_regimes`, kept parsed in the cache folder (:mod:`models.store.cache`) between runs: parsing and
    checking the five acts costs a start-up more than the rest of the Painel. The cache file is named by a hash
    of the files' text, of the domain's code (the text of each ``models/*.py``) and of Python's version —
    any change makes a new one; one that does not load is rebuilt. A file that fails to load is never cached."""
    import hashlib
    import pickle
    import sys

    from models.store.cache import cache_folder

    where = cache_folder()
    if where is None or not folder.is_dir():
        return load_regimes(folder)
    digest = hashlib.sha256(f"{sys.version}|{pickle.HIGHEST_PROTOCOL}|".encode())
    for source in sorted(models_root().rglob("*.py")):  # the text, not the time: some
        digest.update(
            source.relative_to(models_root()).as_posix().encode() + b"\0" + source.read_bytes() + b"\0"
        )  # installs fix every mtime
    for file in sorted(folder.glob("*.toml")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    path = where / f"regimes-{digest.hexdigest()[:40]}.pickle"
    try:
        with open(path, "rb") as fh:
            regimes = pickle.load(fh)
        if isinstance(regimes, dict) and all(isinstance(r, Regime) for r in regimes.values()):
            return regimes
    except FileNotFoundError:
        pass
    except Exception:  # a damaged or foreign cache file: rebuilt below
        pass
    regimes = load_regimes(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(pickle.dumps(regimes, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)
        for old in where.glob("regimes-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except Exception:  # a read-only or full disk, something that does not pickle: parsed next time
        pass
    return regimes


class ActSource:
    """Where the installed acts come from when a database is open (:mod:`models.rules.acts`): each id's versions,
    oldest first, and whether the act was retired."""

    def versions(self, regime_id: str) -> tuple[Regime, ...]:  # pragma: no cover - interface
        raise NotImplementedError

    def ids(self) -> list[str]:  # pragma: no cover - interface
        raise NotImplementedError

    def retired(self, regime_id: str) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


#: a callable returning the open database's ActSource (None with none open); None until acts sets it
_act_source: Callable[[], ActSource | None] | None = None


def set_act_source(source: Callable[[], ActSource | None]) -> None:
    """Called once by :mod:`models.rules.acts`: from then on, with a database open, the acts are the database's."""
    global _act_source
    _act_source = source


def _acts() -> ActSource | None:
    return _act_source() if _act_source is not None else None


def in_force_on(versions: tuple[Regime, ...], on: dt.date) -> Regime:
    """Of an act's versions (oldest first), the one that judges a fact of ``on``: the latest whose
    ``effective_from`` is not after it (the first version for a fact before them all — refused later by
    ``[regime] in_force`` where that matters)."""
    chosen = versions[0]
    for version in versions:
        if version.effective_from <= on:
            chosen = version
    return chosen


def check_in_force(regime: Regime, on: dt.date, *, what: str = "A infração") -> None:
    """Refuse a fact dated before the act came into force (``[regime] in_force``), naming the date — every path
    that judges or prices a fact of a day (penalty, record, quote) asks this first."""
    from models.base.errors import UserError

    force = regime.in_force
    if force is not None and on < force.from_:
        raise UserError(
            f"{what} de {on:%d/%m/%Y} é anterior à vigência do ato ({regime.short}), em vigor desde "
            f"{force.from_:%d/%m/%Y} ({regime.cite_item(force)}): o ato não se aplica a esse fato.",
            field="on",
        )


def shipped_regimes_from_files() -> dict[str, Regime]:
    """The acts shipped with this Praça, as their files say (read once per process)."""
    return dict(_default_regimes())


def shipped_regimes() -> dict[str, Regime]:
    """The acts offered for new work, by id: with a database open, its installed acts not retired, each in the
    version in force today; else the shipped files. (Screens ask for them often: kept parsed.)"""
    acts = _acts()
    if acts is None:
        return dict(_default_regimes())
    today = dt.date.today()
    return {i: in_force_on(acts.versions(i), today) for i in acts.ids() if not acts.retired(i)}


def retired_regimes() -> dict[str, Regime]:
    """The acts of the open database that were retired (each in its version in force today): no longer offered,
    still shown with their history."""
    acts = _acts()
    if acts is None:
        return {}
    today = dt.date.today()
    return {i: in_force_on(acts.versions(i), today) for i in acts.ids() if acts.retired(i)}


def get_regime(regime_id: str, on: dt.date | None = None) -> Regime:
    """The act ``regime_id`` in the version in force on ``on`` (default: today) — from the open database's
    installed acts (retired ones included: what was done under them is still read), else the shipped files."""
    acts = _acts()
    if acts is not None:
        versions = acts.versions(regime_id)
        if versions:
            return in_force_on(versions, on or dt.date.today())
        options = ", ".join(i for i in acts.ids() if not acts.retired(i)) or "nenhum"
        raise RegimeError(f"regime {show(regime_id)} não existe. Regimes disponíveis: {options}.")
    regimes = _default_regimes()
    try:
        return regimes[regime_id]
    except KeyError:
        options = ", ".join(sorted(regimes)) or "nenhum"
        raise RegimeError(f"regime {show(regime_id)} não existe. Regimes disponíveis: {options}.") from None


def clear_regime_cache() -> None:
    """Forget the cached regimes (after the files changed)."""
    _default_regimes.cache_clear()


def act_currency(regime_id: str, on: dt.date | None = None) -> str:
    """The money the act ``regime_id``'s figures of ``on`` (default: today) are shown in: its own (``[regime]
    currency``: "R$", "Cr$"…), or reais once a rule of it converts them (``[regime] conversion``); R$ for an act no
    longer known."""
    try:
        return get_regime(regime_id).currency_on(on or dt.date.today())
    except RegimeError:
        return "R$"


def act_money(value: str | int | Decimal, regime_id: str, *, nbsp: bool = False) -> str:
    """``value`` in the act's own money — "Cr$ 1.500,00" for an act in cruzeiros — rounded to the cent, never
    converted (the messages and documents of what was done under the act)."""
    from models.base.money import format_brl

    return format_brl(value, nbsp=nbsp, currency=act_currency(regime_id))
