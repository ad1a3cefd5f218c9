"""The whole act (:class:`Regime`): its parts, and what the rest of Praça asks of it — a part by id (with the
options in the message when there is none), full citations, the value of a fiscal unit in a year.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import ClassVar, TypeVar

from models.base.errors import UserError
from models.rules.regimes.errors import MissingUnitValue
from models.rules.regimes.model import (
    Amendment,
    Calendar,
    Choice,
    ClosedDay,
    Conversion,
    Deadline,
    Document,
    Duty,
    Equipment,
    Fee,
    Group,
    Index,
    InForce,
    Infraction,
    Ladder,
    LayoutRules,
    Line,
    Penalties,
    PermitKind,
    Placard,
    Prohibition,
    Purpose,
    Schedule,
    Section,
    Seizure,
    Selection,
    Silence,
    Site,
    Unit,
    Venue,
)
from models.rules.regimes.model.cases import Case
from models.rules.regimes.vocabulary import PROCESS_ROLES

T = TypeVar("T")


#: the first word of an act's name that is feminine: "redação dada pela Lei…", else "pelo Decreto…"
_FEMININE = ("lei", "emenda", "resolução", "portaria", "instrução", "deliberação", "medida")


def wording(act: str) -> str:
    """ "redação dada pela Lei nº 2.000/1990" / "redação dada pelo Decreto nº 10/1991"."""
    first = act.strip().split(" ", 1)[0].lower()
    return f"redação dada {'pela' if first in _FEMININE else 'pelo'} {act.strip()}"


def _index(items: Iterable[T], attr: str) -> dict[str, T]:
    return {getattr(item, attr): item for item in items}


@dataclass(frozen=True)
class Regime:
    id: str
    municipality: str
    state: str
    act: str
    short: str
    published: dt.date
    scope: tuple[str, ...]
    summary: str
    in_force: InForce | None = None
    #: the aim the act declares (``[regime] purpose``), printed with it; no rule is read from it
    purpose: Purpose | None = None
    #: the money the act's amounts are written in (``CURRENCIES``): its amounts print with this symbol
    currency: str = "R$"
    #: the rule that converts the act's amounts to reais from a day (None: shown in the act's own money, always)
    conversion: Conversion | None = None
    amendment: Amendment | None = None
    calendar: Calendar | None = None
    units: tuple[Unit, ...] = ()
    indexes: tuple[Index, ...] = ()
    documents: tuple[Document, ...] = ()
    equipment_kinds: tuple[Equipment, ...] = ()
    groups: tuple[Group, ...] = ()
    lines: tuple[Line, ...] = ()
    sections: tuple[Section, ...] = ()
    permit_kinds: tuple[PermitKind, ...] = ()
    fees: tuple[Fee, ...] = ()
    schedules: tuple[Schedule, ...] = ()
    sites: tuple[Site, ...] = ()
    layout: LayoutRules | None = None
    selection: Selection | None = None
    ladders: tuple[Ladder, ...] = ()
    infractions: tuple[Infraction, ...] = ()
    penalties: Penalties | None = None
    deadlines: tuple[Deadline, ...] = ()
    seizure: Seizure | None = None
    prohibitions: tuple[Prohibition, ...] = ()
    duties: tuple[Duty, ...] = ()
    placard: Placard | None = None
    silences: tuple[Silence, ...] = ()
    #: the act's worked cases, run by ``praca regimes check`` (not by the engines)
    cases: tuple[Case, ...] = ()
    #: the articles the act has (``[regime] articles``), when the file lists them: "9", "9-A"
    articles: tuple[str, ...] = ()
    notes: str | None = None
    source: str | None = field(default=None, compare=False)
    #: SHA-256 of the file's text (hex): which version of the act a figure was computed from
    sha256: str | None = field(default=None, compare=False)

    def currency_on(self, day: dt.date) -> str:
        """The money the act's figures are shown in on ``day``: reais once a declared conversion applies, else the
        act's own (never converted without a rule)."""
        return self.conversion.to if self.conversion is not None and self.conversion.applies(day) else self.currency

    @property
    def effective_from(self) -> dt.date:
        """The first day this version of the act applies: its amendment's, else the act's entry into force."""
        if self.amendment is not None:
            return self.amendment.in_force_from
        return self.in_force.from_ if self.in_force is not None else self.published

    # lookup tables, built once
    units_by_code: dict[str, Unit] = field(init=False, repr=False, compare=False)
    _lookups: dict[str, dict[str, object]] = field(init=False, repr=False, compare=False)
    #: the fees priced by the consumption tier declared (an energy fee, a formula fee with a table of the tiers)
    energy_fees: tuple[Fee, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units_by_code", _index(self.units, "code"))
        object.__setattr__(self, "energy_fees", tuple(fee for fee in self.fees if fee.energy_tiers()))
        venues: dict[str, Venue | Choice] = {}  # a venue listed by a fee and by its deposit's: the first
        for fee in self.fees:
            for venue in fee.venue_choices():
                venues.setdefault(venue.id, venue)
        object.__setattr__(
            self,
            "_lookups",
            {
                "index": _index(self.indexes, "code"),
                "document": _index(self.documents, "id"),
                "equipment": _index(self.equipment_kinds, "id"),
                "group": _index(self.groups, "id"),
                "line": _index(self.lines, "id"),
                "section": _index(self.sections, "id"),
                "permit_kind": _index(self.permit_kinds, "id"),
                "fee": _index(self.fees, "id"),
                "venue": dict(venues),
                "schedule": _index(self.schedules, "id"),
                "site": _index(self.sites, "id"),
                "ladder": _index(self.ladders, "id"),
                "infraction": _index(self.infractions, "code"),
                "deadline": _index(self.deadlines, "id"),
                "prohibition": _index(self.prohibitions, "id"),
                "duty": _index(self.duties, "id"),
                "silence": _index(self.silences, "id"),
            },
        )

    def silences_for(self, where: str) -> tuple[Silence, ...]:
        """The points where the act is silent that are shown at ``where`` (penalty, draw, quote, deadline…)."""
        return tuple(s for s in self.silences if where in s.where)

    # -- citations ---------------------------------------------------------

    def cite(self, basis: str | None, basis_act: str | None = None, amended_by: str | None = None) -> str:
        """Full citation: ``"Dec. 4.794/2026, art. 9º, § 2º"``; a value taken
        from another act adds it: ``"…, art. 2º, § 2º; Lei Municipal nº 1.620/2013, art. 7º"``; a value an
        amending act gave its wording says so: ``"…, art. 9º (redação dada pela Lei nº 2.000/1990)"``."""
        text = f"{self.short}, {basis}" if basis else self.short
        if amended_by:
            text = f"{text} ({wording(amended_by)})"
        if basis_act:
            text = f"{text}; {basis_act}"
        return text

    def cite_item(self, item: object) -> str:
        """Full citation of anything that has ``basis`` (and maybe ``basis_act``); an item that rests only on
        another law (``basis_act`` without ``basis``: Lei 9.784/1999 applied subsidiarily) cites that law."""
        basis: str | None = getattr(item, "basis", None)
        act: str | None = getattr(item, "basis_act", None)
        if isinstance(item, InForce) and item.basis_unknown:
            return f"{self.short}, artigo da vigência desconhecido"
        amended: str | None = getattr(item, "amended_by", None)
        if basis is None and act:
            return act + (f" ({wording(amended)})" if amended else "")
        return self.cite(basis, act, amended)

    def matter_of(self, codes: Iterable[str]) -> str:
        """The matter (a scope) the infractions declare (their own ``matter``, else their ladder's), when they all
        declare the same one; "" otherwise."""
        found = set()
        for code in codes:
            if code not in self.ids("infraction"):
                return ""
            infraction = self.infraction(code)
            matter = infraction.matter or (self.ladder(infraction.ladder).matter if infraction.ladder else None)
            found.add(matter or "")
        return found.pop() if len(found) == 1 else ""

    def closed_day_rule(self, deadline: Deadline) -> ClosedDay | None:
        """What happens when ``deadline`` ends on a day without public service: its own rule, else the regime's
        calendar for a process deadline counted forward (``PROCESS_ROLES``); None: it ends where it falls."""
        if deadline.closed_day is not None:
            return deadline.closed_day
        if self.calendar is not None and deadline.role in PROCESS_ROLES and deadline.direction == "after":
            return self.calendar.closed_day
        return None

    @property
    def title(self) -> str:
        return f"{self.municipality}/{self.state} — {self.act}"

    # -- lookups -----------------------------------------------------------

    _LABELS: ClassVar[dict[str, str]] = {
        "index": "Índice",
        "document": "Documento",
        "equipment": "Equipamento",
        "group": "Grupo",
        "line": "Ramo (linha de produtos)",
        "section": "Seção",
        "permit_kind": "Tipo de permissão",
        "fee": "Preço/taxa",
        "venue": "Imóvel/local",
        "schedule": "Calendário",
        "site": "Local",
        "ladder": "Gradação de penalidades",
        "infraction": "Infração",
        "deadline": "Prazo",
        "prohibition": "Proibição",
        "duty": "Obrigação",
        "silence": "Ponto em que o ato silencia",
    }

    def _get(self, kind: str, key: str, cls: type[T]) -> T:
        table = self._lookups[kind]
        try:
            item = table[key]
        except (KeyError, TypeError):
            options = ", ".join(table) or "nenhum"
            raise UserError(
                f"{self._LABELS[kind]} '{key}' não existe no regime {self.id} ({self.short}). Opções: {options}.",
                field=kind,
            ) from None
        assert isinstance(item, cls), f"{kind} {key!r} is a {type(item).__name__}"  # built together
        return item

    def ids(self, kind: str) -> tuple[str, ...]:
        """Every id of one kind (``"equipment"``, ``"line"``, ``"venue"``…)."""
        return tuple(self._lookups[kind])

    def unit(self, code: str) -> Unit:
        try:
            return self.units_by_code[code]
        except KeyError:
            options = ", ".join(self.units_by_code) or "nenhuma"
            raise UserError(
                f"Unidade fiscal '{code}' não existe no regime {self.id} ({self.short}). Opções: {options}.",
                field="unit",
            ) from None

    def index(self, code: str) -> Index:
        return self._get("index", code, Index)

    def document(self, id: str) -> Document:
        return self._get("document", id, Document)

    def equipment(self, id: str) -> Equipment:
        return self._get("equipment", id, Equipment)

    def group(self, id: str) -> Group:
        return self._get("group", id, Group)

    def line(self, id: str) -> Line:
        return self._get("line", id, Line)

    def section(self, id: str) -> Section:
        return self._get("section", id, Section)

    def permit_kind(self, id: str) -> PermitKind:
        return self._get("permit_kind", id, PermitKind)

    def fee(self, id: str) -> Fee:
        return self._get("fee", id, Fee)

    def venue(self, id: str) -> Venue | Choice:
        """A venue of the act: a venue table's, or an option of a formula fee's table of venues."""
        return self._get("venue", id, (Venue, Choice))  # type: ignore[arg-type]

    def venue_fee(self, venue_id: str) -> Fee:
        """The venue-table fee that lists ``venue_id``."""
        venue = self.venue(venue_id)
        for fee in self.fees:
            if venue in fee.venue_choices():
                return fee
        raise AssertionError("venue without fee")  # pragma: no cover - built together

    def schedule(self, id: str) -> Schedule:
        return self._get("schedule", id, Schedule)

    def site(self, id: str) -> Site:
        return self._get("site", id, Site)

    def ladder(self, id: str) -> Ladder:
        return self._get("ladder", id, Ladder)

    def infraction(self, code: str) -> Infraction:
        return self._get("infraction", code, Infraction)

    def deadline(self, id: str) -> Deadline:
        return self._get("deadline", id, Deadline)

    def prohibition(self, id: str) -> Prohibition:
        return self._get("prohibition", id, Prohibition)

    def duty(self, id: str) -> Duty:
        return self._get("duty", id, Duty)

    def silence(self, id: str) -> Silence:
        return self._get("silence", id, Silence)

    def sections_of_side(self, side: str) -> tuple[Section, ...]:
        """The sections on one side, in the act's order."""
        found = [s for s in self.sections if s.side == side]
        return tuple(sorted(found, key=lambda s: (s.order is None, s.order or 0)))

    # -- fiscal units --------------------------------------------------------

    def unit_value(
        self,
        code: str,
        year: int,
        overrides: Mapping[tuple[str, int], Decimal] | None = None,
    ) -> Decimal:
        """Value of one fiscal unit in one year.

        ``overrides`` — ``{(code, year): Decimal}`` kept by the clerk in the
        database — wins over the file. With neither, :class:`MissingUnitValue`
        (a ``UserError`` naming the unit and the year) is raised: never a guess.
        """
        if code == "BRL":
            return Decimal(1)
        if code not in self.units_by_code:
            self.unit(code)  # raises the UserError with the options
        if overrides:
            value = overrides.get((code, year))
            if value is not None:
                if isinstance(value, float) or isinstance(value, bool):
                    raise TypeError("unit_value: override must be Decimal/str/int, not float")
                return Decimal(value) if not isinstance(value, Decimal) else value
        found = self.units_by_code[code].value_for(year)
        if found is None:
            raise MissingUnitValue(self, code, year)
        return found.value

    def unit_value_citation(
        self,
        code: str,
        year: int,
        overrides: Mapping[tuple[str, int], Decimal] | None = None,
    ) -> str:
        """Where the value of ``code`` in ``year`` comes from: the full citation
        of the act (``"Dec. 4.794/2026, art. 9º, § 2º"``), the outside source
        (``"Comunicado SEFAZ-SP"``) or the clerk's table."""
        if code == "BRL":
            return ""
        if overrides and (code, year) in overrides:
            return "valor cadastrado pela Administração"
        unit = self.unit(code)
        value = unit.value_for(year)
        if value is None:
            raise MissingUnitValue(self, code, year)
        if value.basis:
            return self.cite(value.basis, None, value.amended_by)
        if value.source:
            return value.source + (f" ({wording(value.amended_by)})" if value.amended_by else "")
        return self.cite(unit.basis, None, value.amended_by)
