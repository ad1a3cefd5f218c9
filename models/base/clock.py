"""The one clock of Praça: what every row is stamped with (issue 21 §3).

A timestamp column keeps seconds, not microseconds, so the clock says the local time to the second: the value
read back from the database equals the one written. Tests that freeze time patch ``models.base.clock.now``.

A story told on another day — the demo, whose records are dated back from today — sets that day with
:func:`on_day`: whatever is stamped meanwhile (an application's history, a charge's creation, a permit's issue)
carries the story's date, not the moment the demo was built.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DAY: ContextVar[_dt.date | _dt.datetime | None] = ContextVar("praca_clock_day", default=None)


def now() -> _dt.datetime:
    """The local date and time, to the second — on the day :func:`on_day` set, if any (the time of day kept), or
    the very moment it set."""
    moment = _dt.datetime.now().replace(microsecond=0)
    day = _DAY.get()
    if day is None:
        return moment
    if isinstance(day, _dt.datetime):
        return day.replace(microsecond=0)
    return _dt.datetime.combine(day, moment.time())


@contextmanager
def on_day(day: _dt.date | _dt.datetime) -> Iterator[None]:
    """Within it, :func:`now` says ``day`` (at the current time of day), or the moment ``day`` when it has a time:
    what a story of that day writes is stamped with that day."""
    token = _DAY.set(day)
    try:
        yield
    finally:
        _DAY.reset(token)
