"""Acts in the database: every desk of a municipality computes with the same text.

Each version of an act is one ``regime_act`` row: the regime file's TOML text,
its SHA-256, the day it applies from and who installed it. A new database holds
no act: the administrator installs the municipality's own — one shipped with
Praça (``install_shipped_act``, ``praca init --act ID``) or a file of its own
(``install``) — and an act of another municipality is refused (issue 31 §1:
the database is one town hall). A database made before the acts lived in it
got every shipped act by the migration (its records were made under them), and a
Praça that ships a corrected text of an act the database holds installs it as a
new version on opening (the older one stays); a shipped act the database does
not hold is never installed behind the administrator's back. A municipality
amends an act (``amend``: the amended text declares ``[regime.amendment]
{ act, in_force_from }``) or retires one (``retire``: no longer offered for new
work, still read for what was done under it). Rows are never edited, except
to mark an act retired; nothing is deleted.

Which version judges a fact: the one with the latest ``effective_from`` not
after the fact's date (between two versions from the same day, the one
installed later — a corrected encoding). :func:`models.rules.regimes.get_regime`
asks this module when a database is open (``get_regime(id, on=date)``).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from peewee import (
    CharField,
    Database,
    DatabaseProxy,
    DateField,
    DateTimeField,
    IntegerField,
    IntegrityError,
    TextField,
    fn,
)

from models.access import session
from models.base import clock
from models.base.errors import UserError
from models.base.text import read_small_file, search_key
from models.rules import regimes
from models.store.db import BaseModel, db

#: who installed a version: Praça itself (a shipped act) or the municipality
ORIGINS = {"praca": "Praça", "municipio": "município"}


class RegimeAct(BaseModel):
    regime_id = CharField(max_length=64)
    version = IntegerField()
    text = TextField()
    act_sha256 = CharField(max_length=64)
    effective_from = DateField()
    amending_act = CharField(max_length=300, default="")  # the amending act's citation ("" for an original text)
    origin = CharField(max_length=10, default="municipio")
    installed_by = CharField(max_length=100)
    installed_at = DateTimeField(default=clock.now)
    retired_at = DateTimeField(null=True)
    retired_by = CharField(max_length=100, default="")
    retired_reason = TextField(default="")

    class Meta:
        table_name = "regime_act"
        indexes = ((("regime_id", "version"), True),)


# --------------------------------------------------------------------------- the shipped acts


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shipped_texts() -> dict[str, bytes]:
    """The texts of the acts shipped with this Praça, by id."""
    folder = regimes.default_regimes_folder()
    return {p.stem: p.read_bytes() for p in sorted(folder.glob("*.toml"))}


def install_shipped(
    database: Database | DatabaseProxy | None = None, ids: Iterable[str] | None = None, *, by: str = ""
) -> int:
    """Install the shipped acts ``ids`` (default: every shipped act — the migration of a database made before the
    acts lived in it, the all-towns demo, the tests' databases) whose text the database does not hold yet;
    returns how many versions were added; ``by``: the administrator who chose them (else Praça itself). A text
    the database already holds — under any version — is never installed twice. Only a text missing is parsed."""
    database = database or db
    texts = shipped_texts()
    if ids is not None:
        wanted = set(ids)
        texts = {i: data for i, data in texts.items() if i in wanted}
    with RegimeAct.bind_ctx(database):
        held = {(row.regime_id, row.act_sha256) for row in RegimeAct.select(RegimeAct.regime_id, RegimeAct.act_sha256)}
        missing = {i: data for i, data in texts.items() if (i, _sha(data)) not in held}
        if not missing:
            return 0
        shipped = regimes.shipped_regimes_from_files()
        with database.atomic():
            for regime_id, data in missing.items():
                regime = shipped[regime_id]
                last = RegimeAct.select(fn.MAX(RegimeAct.version)).where(RegimeAct.regime_id == regime_id).scalar()
                RegimeAct.create(
                    regime_id=regime_id,
                    version=(last or 0) + 1,
                    text=data.decode("utf-8"),
                    act_sha256=regime.sha256,
                    effective_from=regime.effective_from,
                    amending_act=regime.amendment.act if regime.amendment else "",
                    origin="praca",
                    installed_by=by or session.SYSTEM.username,
                )
    return len(missing)


def refresh_shipped(database: Database | DatabaseProxy | None = None) -> int:
    """A corrected text this Praça ships of an act the database holds, installed as a new version; an act the
    database does not hold stays out (the municipality chooses its acts)."""
    database = database or db
    with RegimeAct.bind_ctx(database):
        held = {row.regime_id for row in RegimeAct.select(RegimeAct.regime_id).distinct()}
    if not held:
        return 0
    return install_shipped(database, sorted(held & set(shipped_texts())))


def opened() -> None:
    """After a database is opened: bring in the corrected texts this Praça ships of the acts it holds, and read its
    acts anew."""
    forget()
    try:
        refresh_shipped()
    except IntegrityError:  # another desk installed the same version at the same moment: theirs stands
        pass


def held_ids() -> set[str]:
    """The ids of the acts the open database holds (retired ones included)."""
    return {row.regime_id for row in RegimeAct.select(RegimeAct.regime_id).distinct()}


def town_matches(regime: regimes.Regime, town: str) -> bool:
    """True when ``regime`` is the act of ``town`` (a name, as typed: accents and case do not count)."""
    return bool(town) and search_key(regime.municipality) == search_key(town)


def shipped_for(town: str) -> list[regimes.Regime]:
    """The acts shipped with Praça whose municipality is ``town`` (none for a town Praça ships no act of)."""
    found = regimes.shipped_regimes_from_files().values()
    return sorted((r for r in found if town_matches(r, town)), key=lambda r: r.id)


def _own_town_only(regime: regimes.Regime) -> None:
    """Refuse an act of another municipality once the database knows its own (one database, one town hall)."""
    from models.store.settings import MUNICIPALITY, get_setting

    town = get_setting(MUNICIPALITY)
    if town and not town_matches(regime, town):
        raise UserError(
            f"O ato {regime.id} é de {regime.municipality}/{regime.state}, e este banco de dados é de {town}: "
            "um banco só aplica os atos do seu município.",
            field="file",
        )


def install_shipped_act(regime_id: str) -> Version:
    """Install one act shipped with Praça (administrator), as the municipality's choice: refused for an id Praça
    does not ship, an act already installed, or another municipality's act."""
    session.require("regimes.manage")
    shipped = regimes.shipped_regimes_from_files()
    regime = shipped.get(regime_id)
    if regime is None:
        raise UserError(
            f"O Praça não traz o ato '{regime_id[:64]}'. Atos fornecidos: {', '.join(sorted(shipped))}; o de outro "
            "município é um arquivo .toml (docs/novo-ato.md).",
            field="act",
        )
    _own_town_only(regime)
    with db.atomic():
        if RegimeAct.select().where(RegimeAct.regime_id == regime_id).exists():
            raise UserError(f"O ato {regime_id} já está instalado.", field="act")
        install_shipped(db, [regime_id], by=session.who())
    forget()
    return history(regime_id)[-1]


# --------------------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class Version:
    """One version of an act, as installed."""

    regime_id: str
    version: int
    effective_from: _dt.date
    sha256: str
    amending_act: str
    origin: str
    installed_by: str
    installed_at: _dt.datetime
    retired_at: _dt.datetime | None
    regime: regimes.Regime | None  # None when this Praça cannot load the text any more
    problem: str = ""  # why it does not load

    @property
    def label(self) -> str:
        what = f"alteração: {self.amending_act}" if self.amending_act else "texto original"
        return f"versão {self.version} ({what}), em vigor a partir de {self.effective_from.strftime('%d/%m/%Y')}"


class Catalogue(regimes.ActSource):
    """The acts of the open database, parsed once (a shipped text is the shipped file already parsed)."""

    def __init__(self, versions: dict[str, tuple[Version, ...]], retired: set[str]):
        self.by_id = versions
        self.retired_ids = frozenset(retired)

    def versions(self, regime_id: str) -> tuple[regimes.Regime, ...]:
        return tuple(v.regime for v in self.by_id.get(regime_id, ()) if v.regime is not None)

    def ids(self) -> list[str]:
        return sorted(i for i in self.by_id if self.versions(i))

    def retired(self, regime_id: str) -> bool:
        return regime_id in self.retired_ids


_parsed: dict[str, regimes.Regime] = {}  # by SHA-256: a text is parsed once per process
_catalogue: Catalogue | None = None
_lock = threading.Lock()


def _parse(regime_id: str, text: str, sha: str) -> regimes.Regime:
    regime = _parsed.get(sha)
    if regime is None:
        shipped = regimes.shipped_regimes_from_files().get(regime_id)
        if shipped is not None and shipped.sha256 == sha:
            regime = shipped
        else:
            regime = regimes.load_regime_text(
                text, f"{regime_id}.toml", expected_id=regime_id, source=f"banco de dados: {regime_id}"
            )
        _parsed[sha] = regime
    return regime


def load_catalogue() -> Catalogue:
    rows = list(RegimeAct.select().order_by(RegimeAct.regime_id, RegimeAct.effective_from, RegimeAct.version))
    shipped = regimes.shipped_regimes_from_files()
    by_id: dict[str, list[Version]] = {}
    retired: set[str] = set()
    for row in rows:
        regime, problem = None, ""
        known = _parsed.get(row.act_sha256)
        if known is None and row.regime_id in shipped and shipped[row.regime_id].sha256 == row.act_sha256:
            known = shipped[row.regime_id]
        try:
            regime = known or _parse(row.regime_id, row.text, row.act_sha256)
        except regimes.RegimeError as exc:  # a text an older Praça accepted: kept, shown, not computed with
            problem = str(exc)
        if row.retired_at is not None:
            retired.add(row.regime_id)
        by_id.setdefault(row.regime_id, []).append(
            Version(
                regime_id=row.regime_id,
                version=row.version,
                effective_from=row.effective_from,
                sha256=row.act_sha256,
                amending_act=row.amending_act,
                origin=row.origin,
                installed_by=row.installed_by,
                installed_at=row.installed_at,
                retired_at=row.retired_at,
                regime=regime,
                problem=problem,
            )
        )
    return Catalogue({k: tuple(v) for k, v in by_id.items()}, retired)


def catalogue() -> Catalogue | None:
    """The acts of the open database (``None`` with no database open, or one without the acts table)."""
    global _catalogue
    if db.obj is None or db.is_closed():
        return None
    with _lock:
        if _catalogue is None:
            _catalogue = load_catalogue()
        return _catalogue


def forget() -> None:
    """Read the acts from the database again at the next use (after an install, or another database)."""
    global _catalogue
    with _lock:
        _catalogue = None


regimes.set_act_source(catalogue)


# --------------------------------------------------------------------------- history and text


def history(regime_id: str | None = None) -> list[Version]:
    cat = load_catalogue()
    if regime_id is not None:
        if regime_id not in cat.by_id:
            raise UserError(
                f"Regime '{regime_id}' não está instalado. Instalados: {', '.join(sorted(cat.by_id))}.", field="regime"
            )
        return list(cat.by_id[regime_id])
    return [v for versions in cat.by_id.values() for v in versions]


def act_text(regime_id: str, version: int | None = None) -> str:
    query = RegimeAct.select().where(RegimeAct.regime_id == regime_id)
    if version is not None:
        query = query.where(RegimeAct.version == version)
    row = query.order_by(RegimeAct.version.desc()).first()
    if row is None:
        raise UserError(f"Regime '{regime_id}' não está instalado.", field="regime")
    return str(row.text)


def version_of(regime: regimes.Regime) -> Version | None:
    """The installed version a parsed regime is (by its text's hash)."""
    cat = catalogue()
    if cat is None or regime.sha256 is None:
        return None
    for version in cat.by_id.get(regime.id, ()):
        if version.sha256 == regime.sha256:
            return version
    return None


# --------------------------------------------------------------------------- install, amend, retire


def _checked(data: bytes, file: str) -> regimes.Regime:
    stem = Path(file).stem
    errors = regimes.check_regime_text(data, file, expected_id=stem)
    if errors:
        raise regimes.RegimeErrors(errors)
    return regimes.load_regime_text(data, file, expected_id=stem)


def install(data: bytes, file: str) -> Version:
    """Install a new act (administrator): refused with every error when the file is not valid, or when an act
    with its id is already installed (an amendment goes through :func:`amend`)."""
    session.require("regimes.manage")
    regime = _checked(data, file)
    if regime.amendment is not None:
        raise UserError(
            f"{file} declara uma alteração ([regime.amendment]): instale-a com  praca regimes amend "
            f"(o ato {regime.id} precisa estar instalado).",
            field="file",
        )
    _own_town_only(regime)
    with db.atomic():
        if RegimeAct.select().where(RegimeAct.regime_id == regime.id).exists():
            raise UserError(
                f"O ato {regime.id} já está instalado. Para uma nova redação, use  praca regimes amend "
                "com [regime.amendment] { act, in_force_from }.",
                field="file",
            )
        RegimeAct.create(
            regime_id=regime.id,
            version=1,
            text=data.decode("utf-8"),
            act_sha256=regime.sha256,
            effective_from=regime.effective_from,
            origin="municipio",
            installed_by=session.who(),
        )
    forget()
    return history(regime.id)[-1]


def amend(data: bytes, file: str) -> Version:
    """Install an amended version of an installed act (administrator). The file declares
    ``[regime.amendment] { act, in_force_from }``; the versions before stay and judge the facts before it."""
    session.require("regimes.manage")
    regime = _checked(data, file)
    if regime.amendment is None:
        raise UserError(
            f"{file} não declara a alteração: acrescente [regime.amendment] com act (o ato que altera) "
            "e in_force_from (a data a partir da qual vale).",
            field="file",
        )
    with db.atomic():
        rows = list(RegimeAct.select().where(RegimeAct.regime_id == regime.id).order_by(RegimeAct.version))
        if not rows:
            raise UserError(
                f"O ato {regime.id} não está instalado: instale o texto original primeiro (praca regimes install).",
                field="file",
            )
        if any(row.act_sha256 == regime.sha256 for row in rows):
            raise UserError(
                f"Este texto já está instalado como versão "
                f"{next(r.version for r in rows if r.act_sha256 == regime.sha256)} de {regime.id}.",
                field="file",
            )
        if rows[-1].retired_at is not None:
            raise UserError(
                f"O ato {regime.id} foi retirado em {rows[-1].retired_at.strftime('%d/%m/%Y')}; não recebe alterações.",
                field="file",
            )
        same = [r for r in rows if _same_act(r.amending_act, regime.amendment.act)]
        if same:
            raise UserError(
                f"A alteração «{regime.amendment.act}» já está instalada como versão {same[0].version} de "
                f"{regime.id}, em vigor a partir de {same[0].effective_from.strftime('%d/%m/%Y')}: uma correção "
                "dela é outra alteração, com o ato que a corrige.",
                field="file",
            )
        number = rows[-1].version + 1
        RegimeAct.create(
            regime_id=regime.id,
            version=number,
            text=data.decode("utf-8"),
            act_sha256=regime.sha256,
            effective_from=regime.effective_from,
            amending_act=regime.amendment.act,
            origin="municipio",
            installed_by=session.who(),
        )
    forget()
    # the version just installed — not the latest in force, which an amendment dated before another is not
    return next(v for v in history(regime.id) if v.version == number)


def _same_act(a: str | None, b: str | None) -> bool:
    """Two citations of the same amending act, whatever the spacing and capitals."""
    return bool(a) and bool(b) and " ".join((a or "").casefold().split()) == " ".join((b or "").casefold().split())


def retire(regime_id: str, reason: str) -> int:
    """Retire an act (administrator): it is no longer offered for new work; what was done under it is still
    read, shown and recomputed with it. Returns how many versions were marked."""
    session.require("regimes.manage")
    reason = (reason or "").strip()
    if not reason:
        raise UserError("Informe o motivo da retirada (revogação, substituição por outro ato…).", field="reason")
    with db.atomic():
        rows = list(RegimeAct.select().where(RegimeAct.regime_id == regime_id))
        if not rows:
            raise UserError(f"Regime '{regime_id}' não está instalado.", field="regime")
        if all(row.retired_at is not None for row in rows):
            raise UserError(f"O ato {regime_id} já foi retirado.", field="regime")
        count = (
            RegimeAct.update(retired_at=clock.now(), retired_by=session.who(), retired_reason=reason)
            .where((RegimeAct.regime_id == regime_id) & RegimeAct.retired_at.is_null())
            .execute()
        )
    forget()
    return int(count)


def act_sha(regime_id: str, on: _dt.date | None = None) -> str:
    """The SHA-256 of the act's text in force on ``on`` — what a frozen charge, permit, record or application
    keeps ("" for an act this Praça does not know)."""
    try:
        return regimes.get_regime(regime_id, on=on).sha256 or ""
    except regimes.RegimeError:
        return ""


def version_text(regime_id: str, sha: str, *, short: bool = False) -> str:
    """How a frozen item names the act's version it was computed from ("" when it kept none); ``short`` fits
    one line of a details pane (the version, the day it applies from and the hash's first 8 digits)."""
    if not sha:
        return ""
    cat = catalogue()
    for version in cat.by_id.get(regime_id, ()) if cat is not None else ():
        if version.sha256 == sha:
            if short:
                return f"v{version.version} de {version.effective_from.strftime('%d/%m/%Y')}, hash {sha[:8]}"
            return f"{version.label}; SHA-256 {sha[:16]}…"
    if short:
        return f"hash {sha[:8]} (não instalado neste banco)"
    return f"texto SHA-256 {sha[:16]}… (não instalado neste banco)"


def defines(regime: regimes.Regime) -> str:
    """What a regime file defines, counted, one line each (what the administrator checks before installing)."""
    rows = [
        ("tipos de permissão", len(regime.permit_kinds)),
        ("documentos", len(regime.documents)),
        ("ramos", len(regime.lines)),
        ("seções", len(regime.sections)),
        ("equipamentos", len(regime.equipment_kinds)),
        ("preços e taxas", len(regime.fees)),
        ("locais", len(regime.sites)),
        ("infrações", len(regime.infractions)),
        ("prazos", len(regime.deadlines)),
        ("unidades fiscais", len(regime.units)),
    ]
    lines = [f"  {label}: {count}" for label, count in rows if count]
    force = regime.in_force
    if force is not None and force.basis_unknown:  # said, never left out: the date is the file's, not an article's
        lines.insert(0, f"  vigência: desde {force.from_.strftime('%d/%m/%Y')} — artigo da vigência desconhecido")
    if regime.amendment is not None:
        lines.insert(
            0,
            f"  alteração: {regime.amendment.act}, em vigor a partir de "
            f"{regime.amendment.in_force_from.strftime('%d/%m/%Y')}",
        )
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class ActChoice:
    """An act the administrator names for the municipality: a shipped act's id, or a file's name and text."""

    shipped_id: str = ""
    file: str = ""
    data: bytes = b""

    @property
    def shown(self) -> str:
        return self.shipped_id or self.file


def choose_act(spec: str) -> ActChoice:
    """What ``--act`` names: an existing file or a name ending in .toml is a file (read now: an unreadable one is
    refused with one line); anything else is the id of an act shipped with Praça, checked here."""
    spec = (spec or "").strip()
    if not spec:
        raise UserError("Informe o ato: o id de um ato fornecido com o Praça ou um arquivo .toml.", field="act")
    path = Path(spec)
    if path.suffix.lower() == ".toml" or path.exists() or "/" in spec or "\\" in spec:
        data, name = read_file(path)
        return ActChoice(file=name, data=data)
    shipped = regimes.shipped_regimes_from_files()
    if spec not in shipped:
        raise UserError(
            f"Ato desconhecido: {spec[:64]}. Fornecidos com o Praça: {', '.join(sorted(shipped))}; o de outro "
            "município é um arquivo .toml (docs/novo-ato.md).",
            field="act",
        )
    return ActChoice(shipped_id=spec)


def check_choice(choice: ActChoice, town: str) -> regimes.Regime:
    """The act ``choice`` names, read and checked whole (every error of a file at once), and refused when it is
    of another municipality than ``town`` ('' : none known yet) — before anything is written."""
    if choice.shipped_id:
        regime = regimes.shipped_regimes_from_files()[choice.shipped_id]
    else:
        regime = _checked(choice.data, choice.file)
    if town and not town_matches(regime, town):
        raise UserError(
            f"O ato {regime.id}{f' ({choice.file})' if choice.file else ''} é de {regime.municipality}/"
            f"{regime.state}, não de {town}: um banco "
            "de dados só aplica os atos do seu município.",
            field="act",
        )
    return regime


def install_choice(choice: ActChoice) -> Version:
    """Install the act ``choice`` names (administrator): a shipped act or a file, as :func:`install_shipped_act`
    and :func:`install` do."""
    if choice.shipped_id:
        return install_shipped_act(choice.shipped_id)
    return install(choice.data, choice.file)


def read_file(path: str | Path) -> tuple[bytes, str]:
    path = Path(path)
    try:
        return read_small_file(path, max_bytes=regimes.MAX_REGIME_BYTES), path.name
    except IsADirectoryError:
        raise UserError(f"Não foi possível ler {path}: é uma pasta, não o arquivo de um ato.", field="file") from None
    except OSError as exc:
        raise UserError(f"Não foi possível ler {path}: {exc.strerror or exc}.", field="file") from None
