"""Legal deadlines, counted as each act counts them — pure functions.

A regime's ``[[deadlines]]`` say how long (``days`` or ``hours``), how
(``count``: calendar days, business days or hours), from which event and in
which direction. :func:`compute_deadline` turns one of them and a starting
moment into a due date, with the reckoning in words and the article:

* **calendar days** — the day of the start is not counted (it is the day of
  the notification, the seizure…); the deadline ends on the n-th day after it,
  whatever day of the week that is;
* **business days** — only days with office hours count: not Saturdays, not
  Sundays, not the national and state holidays of the ``holidays`` package
  (Brazil with the regime's state) nor the town's own holidays and optional
  closures kept in the database (Cadastros → Feriados, ``praca holidays``;
  ``models.rules.holidays``), nor the one-off ones the caller passes;
* **hours** — from the moment given, hour by hour.

**The legal calendar.** A deadline that ends on a day without public service
follows the rule the regime declares (``Regime.closed_day_rule``): the
deadline's own ``closed_day`` (Olímpia art. 24, § 2º, I: "até o final do
expediente do primeiro dia útil seguinte"), else, for a deadline of the
administrative process (``regimes.PROCESS_ROLES``: defence, appeal, reclaim,
compliance…), the regime's ``[calendar] closed_day`` — the act's rule or, where
the act says nothing, Lei 9.784/1999, art. 66, § 1º applied subsidiarily (the
citation is in the file). ``next-business-day`` moves it to the next business
day (a deadline in hours, to the same hour of that day);
``end-of-next-business-day`` to the end of that day's office hours; ``stays``
(or no rule, for a deadline outside the process) leaves it where it falls, and
the result says so.

Optional holidays (``ponto facultativo``: Carnaval, Corpus Christi…) are not
holidays: the offices may open, so they count as business days unless the
municipality enters them as its own.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.base.br import calendar_problem
from models.base.errors import UserError
from models.rules import describe
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.model import ClosedDay, Deadline

if TYPE_CHECKING:
    from holidays import HolidayBase

__all__ = [
    "DeadlineResult",
    "HolidayCalendar",
    "check_kind",
    "compute_deadline",
    "deadline_kinds",
    "parse_moment",
    "set_town_days",
]

COUNTS = {"calendar": "dias corridos", "business": "dias úteis", "hours": "horas"}
_WEEKEND = {5: "sábado", 6: "domingo"}


# --------------------------------------------------------------------------- calendar


@functools.lru_cache(maxsize=32)
def _official(state: str | None) -> HolidayBase:
    """Brazil's national holidays plus those of ``state`` (names in pt-BR), years filled in on demand (the
    ``holidays`` package is imported here, when a deadline is first counted: start-up does not need it)."""
    import holidays as holidays_lib

    subdiv = state if state and state in holidays_lib.country_holidays("BR").subdivisions else None
    return holidays_lib.country_holidays("BR", subdiv=subdiv, language="pt_BR")


#: the town's own calendar kept in the database (``models.rules.holidays`` registers it when imported):
#: ``(municipality, state, year) → {date: name}``, empty with no database open
TownDays = Callable[[str, str, int], Mapping[dt.date, str]]
_town_days: TownDays | None = None
#: the office's hours (expediente) kept in the database: ``() → (opens, closes)`` or None where none is set
OfficeHours = Callable[[], "tuple[dt.time, dt.time] | None"]
_office_hours: OfficeHours | None = None


def set_town_days(source: TownDays | None, office: OfficeHours | None = None) -> None:
    global _town_days, _office_hours
    _town_days, _office_hours = source, office


class HolidayCalendar:
    """Which days have office hours: not weekends, not national, state or municipal holidays.

    ``state`` is the UF (``"SP"``, ``"MT"``); an unknown one gives the
    national holidays only. ``municipal`` are extra holidays given by the caller
    (``praca deadline --holiday``), as dates or as ``{date: name}``; ``town``
    names the municipality whose calendar in the database (Cadastros → Feriados)
    is added to them.
    """

    def __init__(
        self,
        state: str | None = None,
        municipal: Mapping[dt.date, str] | Iterable[dt.date] = (),
        town: str | None = None,
    ):
        self.state = state
        self.town = town
        self._town_years: dict[int, Mapping[dt.date, str]] = {}
        self._office: tuple[dt.time, dt.time] | bool | None = False  # not read yet
        if isinstance(municipal, Mapping):
            items = dict(municipal)
        else:
            items = {day: "feriado municipal" for day in municipal}
        self.municipal: dict[dt.date, str] = {}
        for day, name in items.items():
            if isinstance(day, dt.datetime) or not isinstance(day, dt.date):
                raise UserError(f"Feriado municipal inválido: {day!r} (informe uma data).", field="holiday")
            self.municipal[day] = (name or "feriado municipal").strip() or "feriado municipal"
        self._official = _official(state)

    @classmethod
    def for_regime(cls, regime: Regime, municipal: Mapping[dt.date, str] | Iterable[dt.date] = ()) -> HolidayCalendar:
        return cls(regime.state, municipal, town=regime.municipality)

    def office_hours(self) -> tuple[dt.time, dt.time] | None:
        """When the office is open on a business day (Cadastros → Feriados, Expediente), or None where not set."""
        if self._office is False:
            self._office = _office_hours() if (_office_hours is not None and self.town is not None) else None
        return self._office if isinstance(self._office, tuple) else None

    def town_day(self, day: dt.date) -> str | None:
        """The town's own holiday or closure on ``day`` as the database keeps it, or None."""
        if self.town is None or _town_days is None:
            return None
        if day.year not in self._town_years:
            self._town_years[day.year] = _town_days(self.town, self.state or "", day.year)
        return self._town_years[day.year].get(day)

    def holiday(self, day: dt.date) -> str | None:
        """The holiday's name, or None on an ordinary day."""
        if day in self.municipal:
            return self.municipal[day]
        return self.town_day(day) or self._official.get(day)

    def closed_because(self, day: dt.date) -> str | None:
        """Why ``day`` has no office hours (``"sábado"``, ``"feriado: Tiradentes"``), or None."""
        name = self.holiday(day)
        if name:
            return f"feriado: {name}"
        return _WEEKEND.get(day.weekday())

    def is_business_day(self, day: dt.date) -> bool:
        return day.weekday() < 5 and self.holiday(day) is None

    def business_day_on_or_after(self, day: dt.date) -> dt.date:
        while not self.is_business_day(day):
            day += dt.timedelta(days=1)
        return day

    def next_business_day(self, day: dt.date) -> dt.date:
        """The first business day strictly after ``day``."""
        return self.business_day_on_or_after(day + dt.timedelta(days=1))

    def shift_business_days(self, start: dt.date, n: int) -> tuple[dt.date, tuple[tuple[dt.date, str], ...]]:
        """The n-th business day after (n > 0) or before (n < 0) ``start``, and the
        holidays passed on the way (weekends are not listed)."""
        step = dt.timedelta(days=1 if n >= 0 else -1)
        left = abs(n)
        day = start
        skipped: list[tuple[dt.date, str]] = []
        while left:
            day += step
            if self.is_business_day(day):
                left -= 1
            else:
                name = self.holiday(day)
                if name:
                    skipped.append((day, name))
        return day, tuple(skipped)


# --------------------------------------------------------------------------- result


@dataclass(frozen=True)
class DeadlineResult:
    """A deadline worked out: when it ends, how, and why (the article)."""

    regime: str
    kind: str
    label: str
    count: str  # calendar | business | hours
    direction: str  # after | before
    start: dt.date | dt.datetime
    due_date: dt.date
    #: the hour it ends for hour counts; None when it ends with the day (or the office hours of the day)
    due_time: dt.time | None
    formula: str
    basis: str
    days: int | None = None
    hours: int | None = None
    from_event: str = ""
    #: moved to the next business day by the act's rule or the law applied subsidiarily
    extended: bool = False
    #: the rule for a closed last day that applied (``CLOSED_DAY_RULES``), None where none does
    closed_rule: str | None = None
    #: where it would have ended without that move
    unextended: dt.date | dt.datetime | None = None
    #: it ends on a day without office hours and the act does not move it
    ends_on_closed_day: bool = False
    holidays: tuple[tuple[dt.date, str], ...] = ()
    details: tuple[str, ...] = ()
    notes: str | None = None
    #: an hour count that ends while the office is closed on a business day: the act says nothing, and these are the
    #: readings handed to the authority (pt-BR, each with its source); empty otherwise
    readings: tuple[str, ...] = ()

    @property
    def due(self) -> dt.date | dt.datetime:
        """The end: a datetime for hour counts (unless moved to a business day), else a date."""
        if self.due_time is None:
            return self.due_date
        return dt.datetime.combine(self.due_date, self.due_time)

    @property
    def due_text(self) -> str:
        if self.extended and self.due_time is None and self.closed_rule == "end-of-next-business-day":
            return f"até o fim do expediente de {_day(self.due_date)}"
        if self.due_time is not None:
            return f"até {_moment(dt.datetime.combine(self.due_date, self.due_time))}"
        return f"até {_day(self.due_date)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "regime": self.regime,
            "kind": self.kind,
            "label": self.label,
            "count": self.count,
            "count_text": COUNTS[self.count],
            "days": self.days,
            "hours": self.hours,
            "direction": self.direction,
            "from": self.from_event,
            "from_text": describe.event(self.from_event) if self.from_event else "",
            "start": _iso(self.start),
            "due": _iso(self.due),
            "due_date": self.due_date.isoformat(),
            "due_time": self.due_time.strftime("%H:%M") if self.due_time else None,
            "due_text": self.due_text,
            "extended": self.extended,
            "closed_rule": self.closed_rule,
            "unextended": _iso(self.unextended) if self.unextended is not None else None,
            "ends_on_closed_day": self.ends_on_closed_day,
            "holidays": [{"date": d.isoformat(), "name": n} for d, n in self.holidays],
            "formula": self.formula,
            "basis": self.basis,
            "details": list(self.details),
            "notes": self.notes,
            "readings": list(self.readings),
        }


def _iso(value: dt.date | dt.datetime) -> str:
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="minutes")
    return value.isoformat()


def _day(value: dt.date) -> str:
    """ "23/03/2026 (segunda-feira)"."""
    return f"{value:%d/%m/%Y} ({describe.DAY_NAMES[value.weekday()]})"


def _moment(value: dt.datetime) -> str:
    """ "23/03/2026 (segunda-feira) às 18:00"."""
    return f"{_day(value.date())} às {value:%H:%M}"


def _start_text(value: dt.date | dt.datetime) -> str:
    return _moment(value) if isinstance(value, dt.datetime) else _day(value)


def _amount_text(deadline: Deadline) -> str:
    return describe.period(deadline.days, deadline.hours, deadline.count)


# --------------------------------------------------------------------------- computing


def deadline_kinds(regime: Regime | str) -> tuple[str, ...]:
    """The ids ``compute_deadline`` takes for ``regime``, in the file's order."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    return tuple(d.id for d in regime.deadlines)


def check_kind(regime: Regime, kind: str | None) -> str:
    """A deadline id as typed (``praca deadline --kind``, a worked case), known to ``regime``; else one line saying
    where to find them."""
    if kind is None or not kind.strip():
        raise UserError(
            f"Informe o prazo: --kind PRAZO (os prazos estão em praca regimes --show {regime.id}).", field="kind"
        )
    kind = kind.strip()
    if kind not in regime.ids("deadline"):
        raise UserError(
            f"Prazo '{kind}' não existe no regime {regime.id} ({regime.short}): "
            f"veja os prazos em praca regimes --show {regime.id}.",
            field="kind",
        )
    return kind


def compute_deadline(
    regime: Regime | str,
    kind: str,
    start: dt.date | dt.datetime,
    *,
    calendar: HolidayCalendar | None = None,
    holidays: Mapping[dt.date, str] | Iterable[dt.date] = (),
) -> DeadlineResult:
    """When the deadline ``kind`` of ``regime`` ends, counted from ``start``.

    ``start`` is the date (or date and time) of the event the deadline counts
    from (``deadline.from_``: the notification, the seizure…); a deadline in
    hours needs the time. ``calendar`` defaults to the regime's state; the
    municipality's holidays go in ``holidays`` (dates or ``{date: name}``) or
    in the calendar.
    """
    regime = get_regime(regime) if isinstance(regime, str) else regime
    deadline = regime.deadline(kind)
    if calendar is None:
        calendar = HolidayCalendar.for_regime(regime, holidays)
    elif holidays:
        merged = dict(calendar.municipal)
        merged.update(HolidayCalendar(None, holidays).municipal)
        calendar = HolidayCalendar(calendar.state, merged, town=calendar.town)
    if not isinstance(start, dt.date):
        raise UserError(f"Início do prazo inválido: {start!r} (informe uma data).", field="start")
    if deadline.count == "hours":
        if not isinstance(start, dt.datetime):
            raise UserError(
                f'O prazo "{deadline.label}" [{deadline.id}] é contado em horas '
                f"({regime.cite_item(deadline)}): informe também a hora do início (por exemplo 2026-03-20 18:00).",
                field="start",
            )
    return _count(regime, deadline, start, calendar)


def _basis(regime: Regime, deadline: Deadline, extended: bool) -> str:
    text = regime.cite_item(deadline)
    rule = regime.closed_day_rule(deadline)
    if extended and rule is not None:
        if rule.basis and rule.basis not in deadline.basis:
            text = f"{text}; {rule.basis}"
        if rule.basis_act and rule.basis_act not in text:
            text = f"{text}; {rule.basis_act}"
    return text


def _closed_day_text(regime: Regime, deadline: Deadline, calendar: HolidayCalendar, day: dt.date) -> str:
    why = calendar.closed_because(day)
    rule = regime.closed_day_rule(deadline)
    if rule is not None:  # "stays", as the act says
        return f"termina em dia sem expediente ({why}); o ato diz que não se prorroga ({regime.cite_item(rule)})"
    return (
        f"termina em dia sem expediente ({why}); não é prazo do processo administrativo e o ato não o prorroga "
        f"({regime.short})"
    )


def _move(
    regime: Regime, deadline: Deadline, calendar: HolidayCalendar, due: dt.date, before: bool
) -> tuple[dt.date | None, ClosedDay | None]:
    """Where a deadline that ends on ``due`` (a closed day) ends under the legal calendar: ``(moved day, rule)``,
    or ``(None, rule)`` when it stays."""
    rule = regime.closed_day_rule(deadline)
    if before or rule is None or rule.rule == "stays":
        return None, rule
    return calendar.next_business_day(due), rule


def _moved_text(
    regime: Regime,
    calendar: HolidayCalendar,
    due: dt.date,
    moved: dt.date,
    rule: ClosedDay,
    time: dt.time | None = None,
) -> str:
    where = (
        f"até o fim do expediente de {_day(moved)}"
        if rule.rule == "end-of-next-business-day"
        else f"até {_day(moved)}" + (f" às {time:%H:%M}" if time is not None else "")
    )
    return (
        f"; cai em dia sem expediente ({calendar.closed_because(due)}) → prorrogado {where}, primeiro dia útil "
        f"seguinte ({regime.cite_item(rule)})"
    )


def _count(regime: Regime, deadline: Deadline, start: dt.date, calendar: HolidayCalendar) -> DeadlineResult:
    """The one deadline engine (issue 27 §4): where the count of days (calendar or business) or hours ends, then the
    legal calendar's move when it ends on a closed day, then — for an hour count — the office's hours."""
    before = deadline.direction == "before"
    holidays_seen: tuple[tuple[dt.date, str], ...] = ()
    details: list[str] = []
    amount = _amount_text(deadline)
    due_time: dt.time | None = None
    end: dt.date | dt.datetime
    if deadline.count == "hours":
        assert isinstance(start, dt.datetime)
        n = deadline.hours or 0
        end = start - dt.timedelta(hours=n) if before else start + dt.timedelta(hours=n)
        if before:
            formula = f"{amount} antes de {_moment(start)}: até {_moment(end)}"
        else:
            formula = f"{amount} a partir de {_moment(start)}: termina em {_moment(end)}"
        due, due_time = end.date(), end.time().replace(second=0, microsecond=0)
    else:
        start_day = start.date() if isinstance(start, dt.datetime) else start
        n = deadline.days or 0
        if deadline.count == "business":
            if n == 0:
                due = calendar.business_day_on_or_after(start_day)
            else:
                due, holidays_seen = calendar.shift_business_days(start_day, -n if before else n)
            skipped = "; ".join(f"{d:%d/%m} {name}" for d, name in holidays_seen)
            how = "sem contar sábados, domingos e feriados" + (f" ({skipped})" if skipped else "")
            if before:
                formula = f"{amount} antes de {_start_text(start)}, {how}: até {_day(due)}"
            else:
                formula = f"{amount} a partir de {_start_text(start)}, {how}: termina em {_day(due)}"
            for d, name in holidays_seen:
                details.append(f"{d:%d/%m/%Y} ({describe.DAY_NAMES[d.weekday()]}): {name} — não conta")
        else:
            due = start_day - dt.timedelta(days=n) if before else start_day + dt.timedelta(days=n)
            if before:
                formula = f"{amount} antes de {_start_text(start)}: até {_day(due)}"
            else:
                formula = (
                    f"{amount} a partir de {_start_text(start)}, sem contar o dia do início: termina em {_day(due)}"
                )
        end = due

    extended, closed = False, False
    unextended: dt.date | dt.datetime | None = None
    closed_rule: str | None = None
    if not calendar.is_business_day(due):
        moved, rule = _move(regime, deadline, calendar, due, before)
        if moved is not None:
            assert rule is not None, "a deadline moves only under a rule"
            # an hour count keeps its hour on the next business day, unless the act says "até o fim do expediente"
            keep = due_time if rule.rule == "next-business-day" else None
            formula += _moved_text(regime, calendar, due, moved, rule, keep)
            for day in _closed_days(calendar, due, moved):
                holiday = calendar.holiday(day)
                if holiday:
                    holidays_seen += ((day, holiday),)
            unextended, due, due_time, extended, closed_rule = end, moved, keep, True, rule.rule
        else:
            closed = True
            closed_rule = rule.rule if rule is not None else None
            holiday = calendar.holiday(due)
            if holiday:
                holidays_seen += ((due, holiday),)
            if before:
                formula += f"; cai em dia sem expediente ({calendar.closed_because(due)})"
            else:
                formula += "; " + _closed_day_text(regime, deadline, calendar, due)
    readings: tuple[str, ...] = ()
    office = calendar.office_hours()
    if office is not None and due_time is not None and not before and calendar.is_business_day(due):
        opens, closes = office
        if not opens <= due_time <= closes:
            readings = _office_readings(calendar, dt.datetime.combine(due, due_time), opens, closes)
            formula += (
                f"; termina às {due_time:%H:%M} de {_day(due)}, fora do expediente da repartição "
                f"({opens:%H:%M}–{closes:%H:%M}): o ato não diz o que ocorre — a autoridade decide entre as leituras: "
                + "; ".join(f"({i}) {r}" for i, r in enumerate(readings, start=1))
            )
    return DeadlineResult(
        regime=regime.id,
        kind=deadline.id,
        label=deadline.label,
        count=deadline.count,
        direction=deadline.direction,
        start=start,
        due_date=due,
        due_time=due_time,
        formula=formula,
        basis=_basis(regime, deadline, extended),
        days=deadline.days if deadline.count != "hours" else None,
        hours=deadline.hours if deadline.count == "hours" else None,
        from_event=deadline.from_,
        extended=extended,
        closed_rule=closed_rule,
        unextended=unextended,
        ends_on_closed_day=closed,
        holidays=holidays_seen,
        details=tuple(details),
        notes=deadline.notes,
        readings=readings,
    )


def _closed_days(calendar: HolidayCalendar, first: dt.date, moved: dt.date) -> list[dt.date]:
    days, day = [], first
    while day < moved:
        days.append(day)
        day += dt.timedelta(days=1)
    return days


def _office_readings(calendar: HolidayCalendar, end: dt.datetime, opens: dt.time, closes: dt.time) -> tuple[str, ...]:
    """The two readings of an hour count that ends while the office is closed (issue 28 §1): the hour counted, or
    the end of the next office period (by analogy with Lei 9.784/1999, art. 66, § 1º)."""
    day = end.date() if end.time() < opens else calendar.next_business_day(end.date())
    return (
        f"termina na hora contada, {_moment(end)}, mesmo com a repartição fechada (contagem contínua em horas)",
        f"prorroga-se até o fim do expediente seguinte, {closes:%H:%M} de {_day(day)} (por analogia com a "
        "Lei nº 9.784/1999, art. 66, § 1º: o prazo que termina sem expediente vai ao primeiro dia útil seguinte)",
    )


# --------------------------------------------------------------------------- parsing

_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_BR_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_TIME = re.compile(r"^(\d{1,2})(?::|h)(\d{2})$")


def parse_moment(text: str, *, what: str = "Data") -> dt.date | dt.datetime:
    """``"2026-03-20"`` / ``"20/03/2026"`` → date; with a time (``"2026-03-20 18:00"``,
    ``"2026-03-20T18:00"``, ``"20/03/2026 18:00"``, ``"20/03/2026 18h00"``) → datetime.

    Anything else is a one-line pt-BR ``UserError``.
    """
    raw = (text or "").strip()
    bad = UserError(
        f"{what} inválida: '{text}' (use AAAA-MM-DD ou DD/MM/AAAA, com a hora se preciso: 2026-03-20 18:00).",
        field="date",
    )
    if not raw:
        raise bad
    parts = raw.replace("T", " ", 1).split()
    if len(parts) > 2:
        raise bad
    date_part = parts[0]
    match = _ISO_DATE.match(date_part)
    if match:
        year, month, day = (int(g) for g in match.groups())
    else:
        match = _BR_DATE.match(date_part)
        if not match:
            raise bad
        day, month, year = (int(g) for g in match.groups())
    problem = calendar_problem(year, month, day)
    if problem:
        raise UserError(f"{what}: {date_part} não existe — {problem}.", field="date")
    day_value = dt.date(year, month, day)
    if len(parts) == 1:
        return day_value
    match = _TIME.match(parts[1])
    if not match:
        raise bad
    hour, minute = (int(g) for g in match.groups())
    if hour > 23 or minute > 59:
        raise bad
    return dt.datetime.combine(day_value, dt.time(hour, minute))
