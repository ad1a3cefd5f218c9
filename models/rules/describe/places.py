"""Where and when in words: calendars, sites, the layout of a street, the placard; units and sections."""

from __future__ import annotations

import datetime as dt

from models.base.br import weekday_name
from models.rules.describe.text import Fact, cap, clock, date, fact, join_words, metres, moment, notes, plural
from models.rules.describe.words import (
    DISTANCES,
    NUMBERING,
    PLACARD_CONTENTS,
    SIDES,
    SITE_KINDS,
    WEEKDAYS,
)
from models.rules.regimes import Regime
from models.rules.regimes.model import Index, LayoutRules, Placard, Schedule, ScheduleDay, Section, Site

# --------------------------------------------------------------------------- the act's declared aim


def purpose_facts(regime: Regime) -> list[Fact]:
    """ "Finalidade: …" with its article, where the act declares what its rules are for (``[regime] purpose``)."""
    if regime.purpose is None:
        return []
    return [fact(regime, f"Finalidade: {regime.purpose.text}", regime.purpose)]


# --------------------------------------------------------------------------- calendars, sites, layout


def _hours(start: dt.time, end: dt.time) -> str:
    return f"das {clock(start)} às {clock(end)}"


def schedule_day(day: ScheduleDay) -> str:
    """ "Sexta-feira, 27/03/2026: das 18:00 às 01:00 de 28/03/2026"."""
    text = f"{cap(weekday_name(day.date.weekday()))}, {date(day.date)}: das {clock(day.opens)} às {clock(day.closes)}"
    if day.crosses_midnight:
        if day.closes == dt.time(0, 0):
            text += " (meia-noite)"
        else:
            text += f" de {date(day.closes_at.date())}"
    return text


def schedule_facts(regime: Regime, schedule: Schedule) -> list[Fact]:
    """A calendar: set-up, each day's hours, tear-down; or the weekly hours of a feira."""
    out = []
    if schedule.setup is not None:
        out.append(fact(regime, f"Montagem a partir de {moment(schedule.setup.at)}", schedule.setup))
    for day in schedule.days:
        out.append(fact(regime, f"Funcionamento — {schedule_day(day)}", day))
    if schedule.teardown is not None:
        out.append(fact(regime, f"Desmontagem até {moment(schedule.teardown.at)}", schedule.teardown))
    oh = schedule.opening_hours
    if oh is not None:
        if oh.admin_defined:
            text = "Dias e horários de funcionamento: definidos pela Administração"
        else:
            when = join_words([WEEKDAYS.get(w, w) for w in oh.weekdays])
            assert oh.opens is not None and oh.closes is not None, "the loader requires them unless admin_defined"
            text = "Funcionamento: " + (f"{when}, " if when else "") + _hours(oh.opens, oh.closes)
        out.append(fact(regime, text, oh))
    if schedule.places is not None:
        where = schedule.places
        out.append(
            fact(regime, "Locais: definidos pela Administração" + (f" — {where.text}" if where.text else ""), where)
        )
    if schedule.setup_hours is not None:
        hours = schedule.setup_hours
        out.append(fact(regime, f"Montagem (em cada dia de funcionamento): {_hours(hours.start, hours.end)}", hours))
    if schedule.teardown_hours is not None:
        out.append(
            fact(
                regime,
                f"Desmontagem (em cada dia de funcionamento): "
                f"{_hours(schedule.teardown_hours.start, schedule.teardown_hours.end)}",
                schedule.teardown_hours,
            )
        )
    if not out:
        out.append(
            Fact(
                text="Datas não fixadas no regime (veja a observação)"
                if notes(schedule)
                else "Datas não fixadas no regime"
            )
        )
    return out


def site(item: Site) -> str:
    """A site the act names: "Rua Cel. Ribeiro da Luz (trecho de rua, entre … e …)"."""
    parts = [SITE_KINDS.get(item.kind, item.kind)]
    if item.from_ and item.to:
        parts.append(f"entre {item.from_} e {item.to}")
    elif item.from_:
        parts.append(f"a partir de {item.from_}")
    elif item.to:
        parts.append(f"até {item.to}")
    text = f"{item.label} ({', '.join(parts)})"
    if item.description:
        text += f": {item.description}"
    if item.max_points:
        text += f"; no máximo {plural(item.max_points, 'ponto', 'pontos')}"
    return text


def layout_facts(regime: Regime, layout: LayoutRules) -> list[Fact]:
    if layout is None:
        return []
    out = []
    if layout.min_gap is not None:
        g = layout.min_gap
        value = "definido pela Administração" if g.admin_defined else metres(g.value)
        out.append(fact(regime, f"Espaço mínimo entre bancas, barracas ou veículos: {value}", g))
    if layout.no_crossings is not None:
        out.append(fact(regime, "Nenhuma banca montada em cruzamento de vias", layout.no_crossings))
    if layout.keep_garages_free is not None:
        out.append(
            fact(
                regime,
                "Livre acesso às garagens e guias rebaixadas: nada instalado na frente delas",
                layout.keep_garages_free,
            )
        )
    if layout.sides is not None:
        out.append(fact(regime, "Seções em dois lados, cada uma na sua posição (lado A e lado B)", layout.sides))
    if layout.end_vendors is not None:
        e = layout.end_vendors
        text = f"Comércio nas pontas da feira: espaço máximo de {metres(e.front)} × {metres(e.depth)}"
        if e.min_distance is not None:
            text += f", a pelo menos {metres(e.min_distance)} da primeira e da última banca"
        out.append(fact(regime, text, e))
    for d in layout.min_distance_from:
        out.append(fact(regime, f"Distância mínima de {metres(d.value)} de {DISTANCES.get(d.what, d.what)}", d))
    if layout.max_points is not None:
        m = layout.max_points
        value = (
            "definido pela Administração"
            if m.admin_defined or m.value is None  # the loader asks one or the other
            else plural(m.value, "ponto", "pontos")
        )
        out.append(fact(regime, f"Número máximo de pontos: {value}", m))
    if layout.numbering:
        out.append(Fact(text="Numeração: " + ", ".join(NUMBERING.get(n, n) for n in layout.numbering)))
    return out


def placard_facts(regime: Regime, placard: Placard) -> list[Fact]:
    if placard is None:
        return []
    parts = []
    if placard.min_width is not None and placard.min_height is not None:
        parts.append(f"no mínimo {metres(placard.min_width)} × {metres(placard.min_height)}")
    elif placard.min_width is not None:
        parts.append(f"largura mínima de {metres(placard.min_width)}")
    elif placard.min_height is not None:
        parts.append(f"altura mínima de {metres(placard.min_height)}")
    if placard.background:
        parts.append(f"na cor {placard.background}")
    text = "Identificação que a banca deve exibir" + (f": {', '.join(parts)}" if parts else "")
    out = [fact(regime, text, placard)]
    if placard.contents:
        colour = f", na cor {placard.text_colour}" if placard.text_colour else ""
        out.append(
            Fact(text=f"Conteúdo{colour}: " + join_words([PLACARD_CONTENTS.get(c, c) for c in placard.contents]))
        )
    elif placard.text_colour:
        out.append(Fact(text=f"Texto na cor {placard.text_colour}"))
    return out


# --------------------------------------------------------------------------- units, sections


def index_text(index: Index) -> str:
    return f"Índice {index.code} — {index.name}: valores do ato em preços de {index.base_year}, corrigidos anualmente"


def section_title(section: Section) -> str:
    return f"Seção {section.numeral}: {section.label}"


def section_place(section: Section) -> str:
    place = []
    if section.side:
        place.append(SIDES.get(section.side, section.side))
    if section.order is not None:
        place.append(f"posição {section.order}")
    return ", ".join(place)
