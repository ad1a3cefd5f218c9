"""A permit's term: how long it runs by its kind's ``validity`` (days, months, years, exercise, event days)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.base.errors import FieldErrors, UserError
from models.permits.steps import date_text, plural, regime_of
from models.rules.eligibility import add_months


def exercise_cycle(kind) -> bool:
    """A yearly licence whose renewal is due on a fixed day of the year runs by exercise (Dec. 890/2017, art. 12)."""
    validity, renewal = kind.validity, kind.renewal
    if validity is None:
        return False
    if validity.until == "fiscal-year-end":
        return True
    return bool(validity.years and renewal is not None and renewal.until_month_day)


@dataclass(frozen=True)
class Term:
    """A permit's term: first and last day in force, with the article and how it was counted."""

    valid_from: _dt.date
    valid_until: _dt.date
    article: str
    text: str


def permit_term(
    regime,
    kind_id: str,
    start: _dt.date,
    *,
    event_end: _dt.date | None = None,
    valid_until: _dt.date | None = None,
    renewal: bool = False,
) -> Term:
    """The term of a permit of ``kind_id`` starting on ``start`` (the issue day, or the day after the renewed one).

    ``event_end`` is the event's last day when the regime has no dates for it;
    ``valid_until`` the last day the Administration fixes when the act fixes no
    term. Either given where the act already decides is refused.
    """
    if isinstance(regime, str):
        regime = regime_of(regime)
    kind = regime.permit_kind(kind_id)
    validity = kind.validity
    if validity is None:
        if valid_until is None:
            raise FieldErrors(
                {
                    "valid_until": f"O ato ({regime.short}) não fixa prazo de validade para "
                    f"{kind.label}: informe a data final fixada pela Administração."
                }
            )
        if valid_until < start:
            raise FieldErrors(
                {
                    "valid_until": f"A validade termina em {date_text(valid_until)}, "
                    f"antes de começar em {date_text(start)}."
                }
            )
        return Term(start, valid_until, "", f"prazo fixado pela Administração ({regime.short} não fixa validade)")
    if valid_until is not None:
        raise FieldErrors(
            {"valid_until": f"O ato fixa a validade ({regime.cite_item(validity)}); não informe outra data final."}
        )
    article = regime.cite_item(validity)
    schedule = regime.schedule(kind.schedule) if kind.schedule else None
    event_days = sorted(d.date for d in schedule.days) if schedule is not None else []
    if validity.until == "event-end":
        if event_days and schedule is not None and not renewal:
            if event_end is not None and event_end != event_days[-1]:
                raise FieldErrors(
                    {
                        "event_end": f"O ato fixa o fim do evento em {date_text(event_days[-1])} "
                        f"({regime.cite_item(schedule)}); não informe outra data."
                    }
                )
            end, how = event_days[-1], f"até o fim do evento ({schedule.label})"
        else:
            if event_end is None:
                raise FieldErrors(
                    {"event_end": f"Informe o último dia do evento: a permissão vale até o fim do evento ({article})."}
                )
            end, how = event_end, "até o fim do evento"
        if end < start:
            raise UserError(f"O evento terminou em {date_text(end)}; não há o que autorizar em {date_text(start)}.")
        return Term(start, end, article, how)
    if event_end is not None:
        raise FieldErrors({"event_end": f"A validade de {kind.label} não depende do fim de um evento ({article})."})
    if validity.until == "fiscal-year-end":  # "válida para o exercício": to 31/12 of the year it starts in
        return Term(start, _dt.date(start.year, 12, 31), article, f"exercício de {start.year}")
    if validity.days:
        first = start
        if event_days and not renewal:
            first = event_days[0]
            last = first + _dt.timedelta(days=validity.days - 1)
            if start > last:
                raise UserError(f"Os {validity.days} dias da permissão terminaram em {date_text(last)} ({article}).")
            return Term(
                max(start, first),
                last,
                article,
                f"{plural(validity.days, 'dia', 'dias')} a partir de {date_text(first)}",
            )
        return Term(first, first + _dt.timedelta(days=validity.days - 1), article, plural(validity.days, "dia", "dias"))
    months = validity.months or 12 * (validity.years or 0)
    if exercise_cycle(kind):
        years = validity.years or 1
        end = _dt.date(start.year + years - 1, 12, 31)
        return Term(
            start,
            end,
            article,
            f"exercício de {start.year}" if years == 1 else f"exercícios de {start.year} a {end.year}",
        )
    end = add_months(start, months) - _dt.timedelta(days=1)
    text = plural(validity.years, "ano", "anos") if validity.years else plural(months, "mês", "meses")
    return Term(start, end, article, text)


def schedule_text(regime, kind) -> str:
    """Days and hours from the kind's calendar, for the permit when the clerk gives none."""
    from models.rules import describe

    if not kind.schedule:
        return ""
    schedule = regime.schedule(kind.schedule)
    if schedule.days:
        return "; ".join(describe.schedule_day(d) for d in schedule.days)
    hours = schedule.opening_hours
    if hours is not None and not hours.admin_defined and hours.opens and hours.closes:
        names = [describe.WEEKDAYS.get(w, w) for w in hours.weekdays]
        days = ", ".join(names[:-1]) + " e " + names[-1] if len(names) > 1 else "".join(names)
        clock = f"das {describe.clock(hours.opens)} às {describe.clock(hours.closes)}"
        return f"{days[:1].upper()}{days[1:]}, {clock}" if days else clock
    return ""
