"""The town's own calendar (issue 28 §1): municipal holidays and optional closures, kept in the database.

The acts do not list a municipality's holidays; its own laws and decrees do. Each entry says which municipality it
belongs to (the regimes of that municipality and state use it), what it is — a ``holiday`` (feriado) or an
``optional`` closure (ponto facultativo decreed: the offices do not open) —, when it falls and where it comes from
(``source``: the law or decree). When it falls is one of:

* ``date`` — one day (``20/01/2027``);
* ``annual`` — the same day every year (``20/01``: São Sebastião, the town's anniversary);
* ``easter`` — a number of days from Easter Sunday (``Páscoa-47``: Carnaval's Tuesday; ``Páscoa+60``: Corpus
  Christi), every year.

National and state holidays come from the ``holidays`` package (``models.rules.deadlines``); these are added to
them. Every deadline counted anywhere asks :func:`municipal_days` through the hook the deadlines module offers, so
a holiday entered here moves every deadline of that town that ends or passes on it. Entries are never deleted: a
removal is recorded with who, when and why, and the day counts as ordinary again from then on.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from peewee import AutoField, CharField, DateField, DateTimeField, IntegerField

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.text import read_small_file
from models.rules.deadlines import set_town_days
from models.rules.regimes import Regime
from models.store.db import BaseModel, db

KINDS = {"holiday": "feriado", "optional": "ponto facultativo"}
RULES = ("date", "annual", "easter")
MIN_YEAR, MAX_YEAR = 1900, 2199
#: how long a desk trusts what it read of the calendar before reading it again (another desk may have added a day)
CACHE_SECONDS = 30.0
#: the largest holidays CSV read (a town has dozens of lines, not megabytes)
MAX_CSV_BYTES = 1_000_000


class MunicipalHoliday(BaseModel):
    id = AutoField()
    municipality = CharField(max_length=120, index=True)
    state = CharField(max_length=2)
    name = CharField(max_length=200)
    kind = CharField(max_length=16, default="holiday")  # KINDS
    rule = CharField(max_length=8)  # RULES
    day = DateField(null=True)  # rule "date"
    month = IntegerField(null=True)  # rule "annual"
    day_of_month = IntegerField(null=True)  # rule "annual"
    easter_offset = IntegerField(null=True)  # rule "easter": days from Easter Sunday
    source = CharField(max_length=300)
    created_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)
    removed_at = DateTimeField(null=True)
    removed_by = CharField(max_length=100, default="")
    removed_reason = CharField(max_length=300, default="")

    class Meta:
        table_name = "municipal_holiday"

    @property
    def when_text(self) -> str:
        return when_text(self.rule, self.day, self.month, self.day_of_month, self.easter_offset)

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    def days_in(self, year: int) -> list[_dt.date]:
        return days_of(self.rule, self.day, self.month, self.day_of_month, self.easter_offset, year)


# --------------------------------------------------------------------------- when it falls


@dataclass(frozen=True)
class When:
    """When a holiday falls, as typed: one day, every year on a day, or days from Easter."""

    rule: str
    day: _dt.date | None = None
    month: int | None = None
    day_of_month: int | None = None
    easter_offset: int | None = None

    @property
    def text(self) -> str:
        return when_text(self.rule, self.day, self.month, self.day_of_month, self.easter_offset)


_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_ANNUAL = re.compile(r"^(\d{1,2})/(\d{1,2})$")
_EASTER = re.compile(r"^p[áa]scoa\s*(?:([+-])\s*(\d{1,3}))?$", re.IGNORECASE)


def parse_when(text: str) -> When:
    """``20/01/2027`` or ``2027-01-20`` (one day), ``20/01`` (every year), ``Páscoa``, ``Páscoa-47``,
    ``Páscoa+60`` (days from Easter Sunday, every year). Anything else — or an impossible day — is refused with
    the forms accepted."""
    raw = " ".join((text or "").split())
    forms = "use DD/MM/AAAA (um dia), DD/MM (todo ano) ou Páscoa±N (dias da Páscoa, todo ano: Páscoa-47, Páscoa+60)"
    if not raw:
        raise UserError(f"Informe quando cai o feriado: {forms}.", field="when")
    for pattern, order in ((_DATE, (3, 2, 1)), (_ISO, (1, 2, 3))):
        m = pattern.match(raw)
        if m:
            year, month, day = (int(m.group(i)) for i in order)
            if not MIN_YEAR <= year <= MAX_YEAR:
                raise UserError(f"Ano fora do calendário: {year} (entre {MIN_YEAR} e {MAX_YEAR}).", field="when")
            try:
                return When("date", day=_dt.date(year, month, day))
            except ValueError:
                raise UserError(f"Data impossível: {raw!r}.", field="when") from None
    m = _ANNUAL.match(raw)
    if m:
        day, month = int(m.group(1)), int(m.group(2))
        try:
            _dt.date(2000, month, day)  # a leap year: 29/02 is a day that exists (in leap years)
        except ValueError:
            raise UserError(f"Dia impossível: {raw!r}.", field="when") from None
        return When("annual", month=month, day_of_month=day)
    m = _EASTER.match(raw)
    if m:
        offset = int(m.group(2) or 0) * (-1 if m.group(1) == "-" else 1)
        if abs(offset) > 120:
            raise UserError(f"Até 120 dias da Páscoa (veio {offset}).", field="when")
        return When("easter", easter_offset=offset)
    raise UserError(f"Não entendi {raw!r}: {forms}.", field="when")


def easter(year: int) -> _dt.date:
    """Easter Sunday of ``year`` (Gregorian calendar; the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month = (h + ell - 7 * m + 114) // 31
    day = (h + ell - 7 * m + 114) % 31 + 1
    return _dt.date(year, month, day)


def days_of(
    rule: str,
    day: _dt.date | None,
    month: int | None,
    day_of_month: int | None,
    easter_offset: int | None,
    year: int,
) -> list[_dt.date]:
    if rule == "date":
        return [day] if day is not None and day.year == year else []
    if rule == "annual" and month and day_of_month:
        try:
            return [_dt.date(year, month, day_of_month)]
        except ValueError:  # 29/02 in a common year
            return []
    if rule == "easter":
        return [easter(year) + _dt.timedelta(days=easter_offset or 0)]
    return []


def when_text(
    rule: str, day: _dt.date | None, month: int | None, day_of_month: int | None, easter_offset: int | None
) -> str:
    if rule == "date" and day is not None:
        return day.strftime("%d/%m/%Y")
    if rule == "annual":
        return f"{day_of_month:02d}/{month:02d}, todo ano"
    if rule == "easter":
        offset = easter_offset or 0
        if offset == 0:
            return "domingo de Páscoa, todo ano"
        return f"{abs(offset)} dia(s) {'antes' if offset < 0 else 'depois'} da Páscoa, todo ano"
    return "?"


# --------------------------------------------------------------------------- the town


def town_of(regime: Regime) -> tuple[str, str]:
    """The municipality and state a regime belongs to: the key of its holidays."""
    return regime.municipality, regime.state


def _town_key(municipality: str, state: str) -> tuple[str, str]:
    return " ".join(municipality.casefold().split()), state.strip().upper()


# --------------------------------------------------------------------------- reading (with a short cache)

_cache: dict[tuple[str, str], tuple[float, list[MunicipalHoliday]]] = {}
_cache_lock = threading.Lock()


def forget() -> None:
    """Drop what this desk read of the calendar (after a change here; other desks read again within
    :data:`CACHE_SECONDS`)."""
    global _office_cache
    with _cache_lock:
        _cache.clear()
        _office_cache = None


def _rows(municipality: str, state: str) -> list[MunicipalHoliday]:
    key = _town_key(municipality, state)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and now - hit[0] < CACHE_SECONDS:
            return hit[1]
    rows = [
        r
        for r in MunicipalHoliday.select().where(MunicipalHoliday.removed_at.is_null())
        if _town_key(r.municipality, r.state) == key
    ]
    with _cache_lock:
        _cache[key] = (now, rows)
    return rows


def municipal_days(municipality: str, state: str, year: int) -> dict[_dt.date, str]:
    """The town's closed days of ``year`` entered in the database: ``{date: "São Sebastião (feriado municipal,
    Lei nº 100/1990)"}``."""
    out: dict[_dt.date, str] = {}
    for row in _rows(municipality, state):
        for day in row.days_in(year):
            label = "feriado municipal" if row.kind == "holiday" else "ponto facultativo"
            out[day] = f"{row.name} ({label}, {row.source})"
    return out


def _town_days(municipality: str, state: str, year: int) -> dict[_dt.date, str]:
    """What every deadline asks (``models.rules.deadlines``): nothing with no database open."""
    if db.obj is None or db.is_closed():
        return {}
    return municipal_days(municipality, state, year)


# --------------------------------------------------------------------------- the office's hours (expediente)

#: the settings key of the office's hours, "08:00-17:00" ("" while not set)
OFFICE_HOURS = "office_hours"
_HOURS = re.compile(r"^(\d{1,2})(?:[:h](\d{2}))?h?\s*(?:-|–|às|as|a)\s*(\d{1,2})(?:[:h](\d{2}))?h?$", re.IGNORECASE)
_office_cache: tuple[float, tuple[_dt.time, _dt.time] | None] | None = None


def parse_office_hours(text: str) -> tuple[_dt.time, _dt.time]:
    """``"08:00-17:00"``, ``"8h às 17h"``, ``"08:00 – 17:30"`` → (opens, closes); anything else refused."""
    raw = " ".join((text or "").split())
    m = _HOURS.match(raw)
    if not m:
        raise UserError(f"Expediente inválido: {raw!r} (use, por exemplo, 08:00-17:00).", field="office_hours")
    try:
        opens = _dt.time(int(m.group(1)), int(m.group(2) or 0))
        closes = _dt.time(int(m.group(3)), int(m.group(4) or 0))
    except ValueError:
        raise UserError(f"Expediente com hora impossível: {raw!r}.", field="office_hours") from None
    if closes <= opens:
        raise UserError(f"O expediente termina antes de começar: {raw!r}.", field="office_hours")
    return opens, closes


def office_hours() -> tuple[_dt.time, _dt.time] | None:
    """The office's hours as set (cached for :data:`CACHE_SECONDS`), None where never set."""
    global _office_cache
    now = time.monotonic()
    if _office_cache is not None and now - _office_cache[0] < CACHE_SECONDS:
        return _office_cache[1]
    from models.store.settings import get_setting

    text = get_setting(OFFICE_HOURS)
    try:
        value = parse_office_hours(text) if text else None
    except UserError:
        value = None
    _office_cache = (now, value)
    return value


def office_hours_text() -> str:
    hours = office_hours()
    return f"{hours[0]:%H:%M}–{hours[1]:%H:%M}" if hours else ""


def set_office_hours(text: str) -> tuple[_dt.time, _dt.time]:
    """Set the office's hours (chefe or administrator): an hour count that ends outside them is flagged."""
    require("calendar.edit")
    opens, closes = parse_office_hours(text)
    from models.store.settings import write_setting

    with db.atomic():
        write_setting(OFFICE_HOURS, f"{opens:%H:%M}-{closes:%H:%M}")
    forget()
    return opens, closes


def _office() -> tuple[_dt.time, _dt.time] | None:
    if db.obj is None or db.is_closed():
        return None
    return office_hours()


set_town_days(_town_days, _office)


def list_holidays(
    municipality: str | None = None, state: str | None = None, *, include_removed: bool = False
) -> list[MunicipalHoliday]:
    query = MunicipalHoliday.select().order_by(MunicipalHoliday.municipality, MunicipalHoliday.id)
    if not include_removed:
        query = query.where(MunicipalHoliday.removed_at.is_null())
    rows = list(query)
    if municipality is not None:
        key = _town_key(municipality, state or "")
        rows = [r for r in rows if _town_key(r.municipality, r.state) == key]
    return rows


# --------------------------------------------------------------------------- writing


def _clean(text: str | None, what: str, field: str, limit: int) -> str:
    value = " ".join((text or "").split())
    if not value:
        raise UserError(f"Informe {what}.", field=field)
    if len(value) > limit:
        raise UserError(f"{what[0].upper()}{what[1:]}: no máximo {limit} caracteres.", field=field)
    return value


def _check(
    municipality: str, state: str, when: str, name: str, source: str, kind: str
) -> tuple[When, str, str, str, str]:
    errors: dict[str, str] = {}
    parsed = None
    try:
        parsed = parse_when(when)
    except UserError as exc:
        errors["when"] = exc.message
    values = {}
    for key, what, limit, value in (
        ("name", "o nome do feriado", 200, name),
        ("source", "a fonte (a lei ou o decreto que o fixa)", 300, source),
        ("municipality", "o município", 120, municipality),
    ):
        try:
            values[key] = _clean(value, what, key, limit)
        except UserError as exc:
            errors[key] = exc.message
    if kind not in KINDS:
        errors["kind"] = f"Tipo desconhecido: {kind!r} (feriado ou ponto facultativo)."
    uf = (state or "").strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", uf):
        errors["state"] = "Informe a UF com duas letras."
    if errors:
        raise FieldErrors(errors)
    assert parsed is not None
    return parsed, values["name"], values["source"], values["municipality"], uf


def add_holiday(
    municipality: str, state: str, when: str, *, name: str, source: str, kind: str = "holiday", by: str = ""
) -> MunicipalHoliday:
    """Enter a holiday or an optional closure of the town (chefe or administrator); refused when the same day
    (the same rule) is already entered for the town."""
    require("calendar.edit")
    parsed, name, source, municipality, uf = _check(municipality, state, when, name, source, kind)
    who = acting(by)
    with db.atomic():
        for row in _rows_fresh(municipality, uf):
            if (row.rule, row.day, row.month, row.day_of_month, row.easter_offset) == (
                parsed.rule,
                parsed.day,
                parsed.month,
                parsed.day_of_month,
                parsed.easter_offset,
            ):
                raise UserError(
                    f"{parsed.text} já está no calendário de {row.municipality}/{row.state}: "
                    f"{row.name} ({row.source}).",
                    field="when",
                )
        row = MunicipalHoliday.create(
            municipality=municipality,
            state=uf,
            name=name,
            kind=kind,
            rule=parsed.rule,
            day=parsed.day,
            month=parsed.month,
            day_of_month=parsed.day_of_month,
            easter_offset=parsed.easter_offset,
            source=source,
            created_by=who,
        )
    forget()
    return row


def _rows_fresh(municipality: str, state: str) -> list[MunicipalHoliday]:
    forget()
    return _rows(municipality, state)


def remove_holiday(holiday_id: int, *, reason: str, by: str = "") -> MunicipalHoliday:
    """Take a day off the calendar (kept, marked removed with who, when and why)."""
    require("calendar.edit")
    why = _clean(reason, "o motivo da remoção", "reason", 300)
    who = acting(by)
    with db.atomic():
        row = MunicipalHoliday.get_or_none(MunicipalHoliday.id == holiday_id)
        if row is None:
            raise UserError(f"Feriado nº {holiday_id} não existe.", field="holiday")
        if row.removed_at is not None:
            raise UserError(f"O feriado nº {holiday_id} já foi removido em {row.removed_at:%d/%m/%Y}.")
        MunicipalHoliday.update(removed_at=clock.now(), removed_by=who, removed_reason=why).where(
            MunicipalHoliday.id == row.id
        ).execute()
    forget()
    return MunicipalHoliday.get_by_id(row.id)


@dataclass(frozen=True)
class CsvLine:
    number: int
    when: str
    name: str
    source: str
    kind: str


_CSV_KINDS = {"feriado": "holiday", "holiday": "holiday", "ponto facultativo": "optional", "optional": "optional"}


def read_holidays_csv(path: str | Path) -> list[CsvLine]:
    """A CSV of the town's days, UTF-8 (with or without BOM), ``;`` or ``,``, with a header: ``data``, ``nome``,
    ``fonte`` and optionally ``tipo`` (feriado | ponto facultativo). Every bad line is reported at once."""
    try:
        data = read_small_file(path, max_bytes=MAX_CSV_BYTES)
    except OSError as exc:
        raise UserError(
            f"{Path(path).name}: não foi possível ler o arquivo ({exc.strerror or exc}).", field="file"
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{Path(path).name}: salve o arquivo em UTF-8.", field="file") from None
    sample = text[:2000]
    delimiter = ";" if sample.count(";") >= sample.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = {(h or "").strip().casefold(): h for h in reader.fieldnames or ()}
    missing = [c for c in ("data", "nome", "fonte") if c not in header]
    if missing:
        raise UserError(
            f"{Path(path).name}: faltam as colunas {', '.join(missing)} (cabeçalho: data; nome; fonte; tipo).",
            field="file",
        )
    lines, errors = [], []
    for number, row in enumerate(reader, start=2):
        when, name, source = (row.get(header[c]) or "" for c in ("data", "nome", "fonte"))
        kind_text = " ".join((row.get(header["tipo"]) or "feriado").casefold().split()) if "tipo" in header else ""
        kind = _CSV_KINDS.get(kind_text or "feriado")
        problems = []
        try:
            parse_when(when)
        except UserError as exc:
            problems.append(exc.message)
        if not name.strip():
            problems.append("falta o nome")
        if not source.strip():
            problems.append("falta a fonte")
        if kind is None:
            problems.append(f"tipo desconhecido {kind_text!r} (feriado ou ponto facultativo)")
        if problems:
            errors.append(f"linha {number}: {'; '.join(problems)}")
        else:
            assert kind is not None
            lines.append(CsvLine(number, when, name, source, kind))
    if errors:
        raise UserError(f"{Path(path).name}: {' · '.join(errors)}. Nada foi importado.", field="file")
    if not lines:
        raise UserError(f"{Path(path).name}: nenhuma linha de feriado.", field="file")
    return lines


def import_holidays(municipality: str, state: str, path: str | Path, *, by: str = "") -> list[MunicipalHoliday]:
    """Enter every line of a holidays CSV, all or nothing; a day already in the calendar is refused with its line."""
    require("calendar.edit")
    lines = read_holidays_csv(path)
    added = []
    with db.atomic():
        for line in lines:
            try:
                added.append(
                    add_holiday(
                        municipality, state, line.when, name=line.name, source=line.source, kind=line.kind, by=by
                    )
                )
            except UserError as exc:
                raise UserError(f"{Path(path).name}, linha {line.number}: {exc.message} Nada foi importado.") from None
            except FieldErrors as exc:
                text = "; ".join(exc.errors.values())
                raise UserError(f"{Path(path).name}, linha {line.number}: {text} Nada foi importado.") from None
    forget()
    return added
