"""The yearly rest (descanso/afastamento) a kind's ``leave`` allows."""

from __future__ import annotations

import datetime as _dt

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.permits.steps import claim, date_text, plural, record_event, regime_of
from models.permits.tables import Permit, PermitEvent
from models.store.db import db


def _leave_days_by_year(start: _dt.date, end: _dt.date) -> dict[int, int]:
    days: dict[int, int] = {}
    day = start
    while day <= end:
        days[day.year] = days.get(day.year, 0) + 1
        day += _dt.timedelta(days=1)
    return days


def grant_leave(
    permit: Permit,
    start: _dt.date,
    end: _dt.date,
    substitute_name: str = "",
    substitute_cpf: str = "",
    *,
    by: str,
    today: _dt.date | None = None,
    reason: str = "",
) -> PermitEvent:
    """Grant the yearly rest the kind's ``leave`` allows (Lei 9.158/2014, art. 16: 30 days in up to two periods).

    Counts the leaves of this permit and of the permits it continues (renewals)
    in each calendar year the new period touches; the request must come
    ``notice_days`` before the start (art. 16, § 1º).
    """
    require("permits.lifecycle")
    from models.base.br import clean_cpf

    by = acting(by)
    today = today or _dt.date.today()
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    leave = kind.leave
    if leave is None:
        raise UserError(f"O ato ({regime.short}) não prevê descanso ou afastamento para {kind.label}.")
    article = regime.cite_item(leave)
    errors: dict[str, str] = {}
    if end < start:
        errors["end"] = f"O fim ({date_text(end)}) é anterior ao início ({date_text(start)})."
    if start < permit.valid_from or end > permit.valid_until:
        errors.setdefault(
            "start",
            f"O período deve estar dentro da validade ({date_text(permit.valid_from)} a "
            f"{date_text(permit.valid_until)}).",
        )
    if leave.notice_days and (start - today).days < leave.notice_days:
        errors.setdefault(
            "start",
            f"O pedido deve ser feito com {leave.notice_days} dias de antecedência "
            f"({article}): para {date_text(today)}, início a partir de "
            f"{date_text(today + _dt.timedelta(days=leave.notice_days))}.",
        )
    name = " ".join((substitute_name or "").split())
    cpf = ""
    if (substitute_cpf or "").strip():
        try:
            cpf = clean_cpf(substitute_cpf)
        except UserError as exc:
            errors["substitute_cpf"] = exc.message
        if not name:
            errors["substitute_name"] = "Informe o nome do substituto."
    if errors:
        raise FieldErrors(errors)
    chain = [permit.id]
    cursor = permit
    while cursor.previous_id and cursor.origin == "renewal":
        cursor = Permit.get_by_id(cursor.previous_id)
        chain.append(cursor.id)
    taken = [
        (event.start, event.end)
        for event in PermitEvent.select().where(PermitEvent.permit.in_(chain) & (PermitEvent.kind == "leave"))
        if event.start is not None and event.end is not None  # a leave has both
    ]
    for other_start, other_end in taken:
        if other_start <= end and start <= other_end:
            raise UserError(f"O período coincide com o descanso de {date_text(other_start)} a {date_text(other_end)}.")
    wanted = _leave_days_by_year(start, end)
    for year, days in wanted.items():
        used_days = 0
        periods = 0
        for other_start, other_end in taken:
            in_year = _leave_days_by_year(other_start, other_end).get(year, 0)
            if in_year:
                used_days += in_year
                periods += 1
        if used_days + days > leave.max_days_per_year:
            raise UserError(
                f"Descanso de {plural(days, 'dia', 'dias')} em {year}: já há {used_days} no ano e o "
                f"ato permite no máximo {leave.max_days_per_year} ({article})."
            )
        if leave.max_periods is not None and periods + 1 > leave.max_periods:
            raise UserError(
                f"Em {year} já há {plural(periods, 'período', 'períodos')} de descanso; o ato permite "
                f"no máximo {leave.max_periods} ({article})."
            )
    with db.atomic():
        if permit.status != "active":
            raise UserError(
                f"A permissão nº {permit.number} está {permit.status_label}; o descanso é da permissão ativa."
            )
        claim(permit)  # the days counted above are this desk's view: a second desk granting at once loses
        return record_event(
            permit,
            "leave",
            by=by,
            on=today,
            start=start,
            end=end,
            reason=(reason or "").strip() or "descanso anual",
            data={"substitute_name": name, "substitute_cpf": cpf, "article": article, "days": (end - start).days + 1},
        )
