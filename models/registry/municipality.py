"""The municipality this database is (issue 31 §1): one town hall per database.

Its identity — name, UF, IBGE code, CNPJ, address, the agency's name, the coat of arms and the office's hours —
is set once, at ``praca init --municipality … --uf …``, with ``praca municipality set`` or in Cadastros →
Município, and is kept in the settings table (one key each; the office's hours are the calendar's own key,
:mod:`models.rules.holidays`). A database made before it has at most a name and a UF (the old Configurações tab):
the window and the command line ask the administrator to complete it; nothing guesses a town.

Every letterhead takes the municipality from here (:func:`letterhead`), and the reports cover only the acts of
one municipality (:func:`report_town`): a fee report never mixes towns.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from pathlib import Path

from models.access.session import require
from models.base.br import clean_cnpj, format_cnpj
from models.base.errors import FieldErrors, UserError
from models.base.text import read_small_file, search_key
from models.registry.town import serves
from models.store.db import db
from models.store.settings import AGENCY, MUNICIPALITY, STATE, Setting, get_setting, write_setting

IBGE = "municipality_ibge"
CNPJ = "municipality_cnpj"
ADDRESS = "municipality_address"
COAT_OF_ARMS = "municipality_coat_of_arms"  # the image's bytes in base64 ("" for none)

#: the 27 federative units and the two digits an IBGE municipality code of each starts with (IBGE, tabela de UFs)
UF_CODES = {
    "RO": "11",
    "AC": "12",
    "AM": "13",
    "RR": "14",
    "PA": "15",
    "AP": "16",
    "TO": "17",
    "MA": "21",
    "PI": "22",
    "CE": "23",
    "RN": "24",
    "PB": "25",
    "PE": "26",
    "AL": "27",
    "SE": "28",
    "BA": "29",
    "MG": "31",
    "ES": "32",
    "RJ": "33",
    "SP": "35",
    "PR": "41",
    "SC": "42",
    "RS": "43",
    "MS": "50",
    "MT": "51",
    "GO": "52",
    "DF": "53",
}
UFS = tuple(sorted(UF_CODES))

#: codes IBGE assigned whose seventh digit does not follow the check-digit rule (they are valid all the same)
IBGE_EXCEPTIONS = frozenset(
    {"2201919", "2201988", "2202251", "2611533", "3117836", "3152131", "4305871", "5203939", "5203962"}
)

#: the coat of arms: a PNG or JPEG image up to this size (kept in base64 in the settings; a backup row is at most
#: 1 MiB — models.store.backup.reading.MAX_ROW_BYTES)
COAT_OF_ARMS_MAX_BYTES = 512 * 1024  # in base64 a row of the backup, which holds at most 1 MiB
_IMAGE_KINDS = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"))

_TELL_CLI = "praca municipality set --name NOME --uf UF"
_TELL_WINDOW = "Cadastros → Município"


@dataclass(frozen=True)
class Municipality:
    """The municipality as stored (compact CNPJ, the coat of arms as bytes, office hours as "08:00-17:00")."""

    name: str = ""
    state: str = ""
    ibge: str = ""
    cnpj: str = ""
    address: str = ""
    agency: str = ""
    coat_of_arms: bytes = b""
    office_hours: str = ""

    @property
    def is_set(self) -> bool:
        """Name and UF known: the database knows which municipality it is."""
        return bool(self.name and self.state)

    @property
    def label(self) -> str:
        """'Olímpia/SP' ('' while not set)."""
        return f"{self.name}/{self.state}" if self.name and self.state else self.name

    @property
    def agency_name(self) -> str:
        """The agency on the letterhead: as set, else 'Prefeitura Municipal de <name>'."""
        return self.agency or (f"Prefeitura Municipal de {self.name}" if self.name else "")

    @property
    def coat_of_arms_type(self) -> str:
        return image_type(self.coat_of_arms) if self.coat_of_arms else ""

    @property
    def coat_of_arms_uri(self) -> str:
        """The coat of arms as a data: URI (HTML letterheads), '' when none."""
        if not self.coat_of_arms:
            return ""
        return f"data:{self.coat_of_arms_type};base64,{base64.b64encode(self.coat_of_arms).decode('ascii')}"

    def as_dict(self) -> dict[str, object]:
        """For ``praca municipality show --json``."""
        return {
            "name": self.name,
            "uf": self.state,
            "ibge": self.ibge,
            "cnpj": format_cnpj(self.cnpj),
            "address": self.address,
            "agency": self.agency_name,
            "coat_of_arms": (
                {
                    "type": self.coat_of_arms_type,
                    "bytes": len(self.coat_of_arms),
                    "sha256": hashlib.sha256(self.coat_of_arms).hexdigest(),
                }
                if self.coat_of_arms
                else None
            ),
            "office_hours": self.office_hours,
            "set": self.is_set,
        }


def municipality() -> Municipality:
    """The municipality this database is (fields '' where not set), read in one query."""
    from models.rules.holidays import OFFICE_HOURS

    keys = (MUNICIPALITY, STATE, IBGE, CNPJ, ADDRESS, AGENCY, COAT_OF_ARMS, OFFICE_HOURS)
    found = {row.key: (row.value or "").strip() for row in Setting.select().where(Setting.key.in_(keys))}
    arms = found.get(COAT_OF_ARMS, "")
    try:
        image = base64.b64decode(arms, validate=True) if arms else b""
    except (binascii.Error, ValueError):
        image = b""  # never written so by Praça: a letterhead without arms rather than a crash
    return Municipality(
        name=found.get(MUNICIPALITY, ""),
        state=found.get(STATE, "").upper(),
        ibge=found.get(IBGE, ""),
        cnpj=found.get(CNPJ, ""),
        address=found.get(ADDRESS, ""),
        agency=found.get(AGENCY, ""),
        coat_of_arms=image,
        office_hours=found.get(OFFICE_HOURS, ""),
    )


class NoMunicipality(UserError):  # noqa: N818 - a UserError: the message is for the user
    """The database does not know which municipality it is yet."""

    def __init__(self, what: str = "") -> None:
        lead = f"{what}: " if what else ""
        super().__init__(
            f"{lead}este banco de dados ainda não sabe de qual município é. O administrador informa o município "
            f"em {_TELL_WINDOW} ou com: {_TELL_CLI} [--ibge CÓDIGO --cnpj CNPJ …].",
            field="municipality",
        )


def missing_notice() -> str:
    """One line for the command line when the database has no municipality yet ('' when it has)."""
    if municipality().is_set:
        return ""
    return f"Este banco de dados ainda não sabe de qual município é: rode {_TELL_CLI} (ou {_TELL_WINDOW})."


# --------------------------------------------------------------------------- checks


def ibge_check_digit(first6: str) -> int:
    """The seventh digit of an IBGE municipality code: weights 1,2,1,2,1,2, a product's digits summed, mod 10."""
    total = 0
    for position, char in enumerate(first6):
        product = int(char) * (1 if position % 2 == 0 else 2)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def clean_ibge(value: str, state: str = "") -> str:
    """The 7-digit IBGE code, checked (digits, check digit, the UF's prefix), or ``UserError``."""
    raw = "".join((value or "").split())
    if not raw:
        return ""
    if not (raw.isascii() and raw.isdigit() and len(raw) == 7):
        raise UserError(f"Código IBGE inválido: {raw[:20]} (são 7 algarismos, como 3533908).", field="ibge")
    if raw not in IBGE_EXCEPTIONS and ibge_check_digit(raw[:6]) != int(raw[6]):
        raise UserError(f"Código IBGE inválido: {raw} (o dígito verificador não confere).", field="ibge")
    prefix = UF_CODES.get(state)
    if prefix and raw[:2] != prefix:
        raise UserError(
            f"O código IBGE {raw} não é de um município de {state} (os de {state} começam por {prefix}).",
            field="ibge",
        )
    return raw


def clean_uf(value: str) -> str:
    raw = (value or "").strip().upper()
    if not raw:
        raise UserError("Informe a UF do município (duas letras, como SP).", field="state")
    if raw not in UF_CODES:
        raise UserError(f"UF inválida: {raw[:10]} (use a sigla de um estado, como SP, MG ou MT).", field="state")
    return raw


def image_type(data: bytes) -> str:
    """'image/png' or 'image/jpeg' by the file's first bytes; '' for anything else."""
    return next((kind for magic, kind in _IMAGE_KINDS if data.startswith(magic)), "")


def check_coat_of_arms(data: bytes) -> bytes:
    if not data:
        return b""
    if len(data) > COAT_OF_ARMS_MAX_BYTES:
        raise UserError(
            f"Brasão grande demais ({len(data) // 1024} KiB): use uma imagem de até "
            f"{COAT_OF_ARMS_MAX_BYTES // 1024} KiB.",
            field="coat_of_arms",
        )
    if not image_type(data):
        raise UserError("O brasão precisa ser uma imagem PNG ou JPEG.", field="coat_of_arms")
    return data


def read_coat_of_arms(path: str | Path) -> bytes:
    """The bytes of a coat-of-arms image file, checked (PNG or JPEG, at most 512 KiB)."""
    try:
        data = read_small_file(path, max_bytes=COAT_OF_ARMS_MAX_BYTES)
    except OSError as exc:
        raise UserError(
            f"Não foi possível ler o brasão {Path(path).name}: {exc.strerror or type(exc).__name__}.",
            field="coat_of_arms",
        ) from None
    return check_coat_of_arms(data)


@dataclass(frozen=True)
class MunicipalityInput:
    """What the administrator typed. ``None``: keep what is stored (the command line's options left out);
    ``coat_of_arms=b""`` removes the image."""

    name: str | None = None
    state: str | None = None
    ibge: str | None = None
    cnpj: str | None = None
    address: str | None = None
    agency: str | None = None
    coat_of_arms: bytes | None = None
    office_hours: str | None = None


def check(given: MunicipalityInput, current: Municipality | None = None) -> Municipality:
    """The municipality ``given`` makes of ``current``, every field checked; ``FieldErrors`` naming each bad
    field (form order) and nothing else."""
    from models.rules.holidays import parse_office_hours

    base = current or Municipality()
    errors: dict[str, str] = {}
    name = base.name if given.name is None else " ".join(given.name.split())
    if not name:
        errors["name"] = "Informe o nome do município."
    elif len(name) > 100:
        errors["name"] = "Nome do município com mais de 100 caracteres."
    state = base.state
    try:
        state = clean_uf(base.state if given.state is None else given.state)
    except UserError as exc:
        errors["state"] = exc.message
    ibge = base.ibge if given.ibge is None else given.ibge
    try:
        ibge = clean_ibge(ibge, state if "state" not in errors else "")
    except UserError as exc:
        errors["ibge"] = exc.message
    cnpj = base.cnpj if given.cnpj is None else given.cnpj.strip()
    if cnpj:
        try:
            cnpj = clean_cnpj(cnpj)
        except UserError as exc:
            errors["cnpj"] = exc.message
    address = base.address if given.address is None else " ".join(given.address.split())
    if len(address) > 300:
        errors["address"] = "Endereço com mais de 300 caracteres."
    agency = base.agency if given.agency is None else " ".join(given.agency.split())
    if len(agency) > 150:
        errors["agency"] = "Nome do órgão com mais de 150 caracteres."
    arms = base.coat_of_arms
    if given.coat_of_arms is not None:
        try:
            arms = check_coat_of_arms(given.coat_of_arms)
        except UserError as exc:
            errors["coat_of_arms"] = exc.message
    hours = base.office_hours
    if given.office_hours is not None:
        if given.office_hours.strip():
            try:
                opens, closes = parse_office_hours(given.office_hours)
                hours = f"{opens:%H:%M}-{closes:%H:%M}"
            except UserError as exc:
                errors["office_hours"] = exc.message
        else:
            hours = ""
    if errors:
        raise FieldErrors(errors)
    return Municipality(name, state, ibge, cnpj, address, agency, arms, hours)


def set_municipality(given: MunicipalityInput) -> Municipality:
    """Check and store the municipality in one transaction (administrator: ``settings.edit``; the office's hours
    as the calendar keeps them). Nothing is stored when any field is refused."""
    from models.rules import holidays

    require("settings.edit")
    with db.atomic():
        current = municipality()
        new = check(given, current)
        write_setting(MUNICIPALITY, new.name)
        write_setting(STATE, new.state)
        write_setting(IBGE, new.ibge)
        write_setting(CNPJ, new.cnpj)
        write_setting(ADDRESS, new.address)
        write_setting(AGENCY, new.agency)
        if new.coat_of_arms != current.coat_of_arms:
            write_setting(COAT_OF_ARMS, base64.b64encode(new.coat_of_arms).decode("ascii"))
        if new.office_hours != current.office_hours:
            write_setting(holidays.OFFICE_HOURS, new.office_hours)
    holidays.forget()
    return municipality()


# --------------------------------------------------------------------------- whose acts, whose letterhead


def own_regime_ids(regimes) -> list[str]:
    """The ids of ``regimes`` whose act is this municipality's (issue 18 §5); none while no municipality is set."""
    town = search_key(get_setting(MUNICIPALITY))
    if not town:
        return []
    return sorted(r.id for r in regimes if search_key(r.municipality) == town)


def letterhead(regime=None) -> dict[str, str]:
    """The letterhead of a document: the municipality's identity (name/UF, agency, coat of arms, CNPJ, address).

    ``regime``: the act the document is under. Its own municipality's act — or any act when ``regime`` is None
    — is headed with the identity; an act of another town (a database filled before issue 31 holds several)
    keeps that town's name and a plain "Prefeitura Municipal de …", never the database's (a São Bento receipt
    never says Olímpia), and so does every act while the database has no municipality yet."""
    own = municipality()
    if own.is_set and (regime is None or serves(regime)):
        return {
            "municipality": own.label,
            "agency": own.agency_name,
            "coat_of_arms": own.coat_of_arms_uri,
            "cnpj": format_cnpj(own.cnpj),
            "address": own.address,
        }
    if regime is None:
        return {"municipality": own.label, "agency": own.agency_name, "coat_of_arms": "", "cnpj": "", "address": ""}
    place = f"{regime.municipality}/{regime.state}" if regime.state else regime.municipality
    return {
        "municipality": place,
        "agency": f"Prefeitura Municipal de {regime.municipality}",
        "coat_of_arms": "",
        "cnpj": "",
        "address": "",
    }


# --------------------------------------------------------------------------- a report is one municipality's


@dataclass(frozen=True)
class ReportTown:
    """The municipality a report covers: its header and the acts whose records it counts."""

    label: str  # "Olímpia/SP"
    agency: str
    coat_of_arms: str  # data: URI or ""
    regime_ids: frozenset[str]

    def left_out(self, counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
        """Of ``counts`` (records per regime id), those of other towns' acts, per town: ('São José dos
        Campos/SP', 28)."""
        from models.rules.regimes import get_regime

        towns: dict[str, int] = {}
        for regime_id, count in counts.items():
            if regime_id in self.regime_ids or not count:
                continue
            try:
                regime = get_regime(regime_id)
                town = f"{regime.municipality}/{regime.state}"
            except UserError:
                town = regime_id
            towns[town] = towns.get(town, 0) + count
        return tuple(sorted(towns.items()))


def own_scope() -> frozenset[str] | None:
    """The acts a screen's month figures cover, as the reports do: the municipality's own, or — while the
    database does not know its municipality — every act (None)."""
    if not municipality().is_set:
        return None
    return frozenset(own_regime_ids(_all_regimes()))


def left_out_note(label: str, left_out: tuple[tuple[str, int], ...], what: str) -> str:
    """What a report of ``label`` leaves out, in one line ('' when nothing): 'não inclui 28 cobrança(s) de atos
    de outros municípios (São José dos Campos/SP: 28)'."""
    if not left_out:
        return ""
    towns = "; ".join(f"{town}: {count}" for town, count in left_out)
    total = sum(count for _town, count in left_out)
    return f"relatório de {label}: não inclui {total} {what} de atos de outros municípios ({towns})"


def _all_regimes() -> list:
    from models.rules.regimes import retired_regimes, shipped_regimes

    return [*shipped_regimes().values(), *retired_regimes().values()]


def report_town(name: str | None = None, *, present: dict[str, int] | None = None) -> ReportTown:
    """The municipality a report covers — never several:

    * ``name``: a town whose acts the database holds (a database filled before issue 31 holds several), headed
      with that act's town;
    * else the database's own municipality (its identity);
    * else, while the database does not know its municipality, the one town whose acts the period holds
      (``present``: records per regime id), headed with that act's town — or nothing, for an empty period;
      a period with several towns' records is refused (:class:`NoMunicipality`) rather than mixed.
    """
    regimes = _all_regimes()
    own = municipality()
    if name is None and not own.is_set:
        towns = {_town_of(regimes, regime_id) for regime_id, count in (present or {}).items() if count}
        if len(towns) > 1:
            raise NoMunicipality(f"Relatório com registros de {len(towns)} municípios ({', '.join(sorted(towns))})")
        if not towns:
            return ReportTown(own.label, own.agency_name, "", frozenset(own_regime_ids(regimes)))
        name = towns.pop()
    if name is None or (own.is_set and search_key(name) in (search_key(own.name), search_key(own.label))):
        return ReportTown(own.label, own.agency_name, own.coat_of_arms_uri, frozenset(own_regime_ids(regimes)))
    key = search_key(name)
    found = [r for r in regimes if key in (search_key(r.municipality), search_key(f"{r.municipality}/{r.state}"))]
    if not found:
        towns_held = sorted({f"{r.municipality}/{r.state}" for r in regimes})
        raise UserError(
            f"Município sem ato no banco de dados: {name.strip()[:60]} (há atos de {', '.join(towns_held)}).",
            field="municipality",
        )
    first = found[0]
    return ReportTown(
        f"{first.municipality}/{first.state}",
        f"Prefeitura Municipal de {first.municipality}",
        "",
        frozenset(r.id for r in found),
    )


def _town_of(regimes, regime_id: str) -> str:
    found = next((r for r in regimes if r.id == regime_id), None)
    return f"{found.municipality}/{found.state}" if found is not None else regime_id
