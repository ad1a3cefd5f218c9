"""Issue 31: a demo's records carry the demo's own dates. An application filed on a day of the demo's calendar has
its history on that day — the protocol, the receipt and "Histórico" agree — never the moment the demo was built."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("town_demo", ["sao-bento"], indirect=True)
def test_an_applications_history_is_dated_as_its_receipt(town_demo):
    from models.base import clock
    from models.registry.applications import Application, ApplicationEvent

    apps = {a.id: a for a in Application.select()}
    events = list(ApplicationEvent.select().order_by(ApplicationEvent.id))
    assert apps and events
    days = set()
    for event in events:
        app = apps[event.application_id]
        if event.status_to == "received":
            assert event.at == app.created_at, app.protocol  # filed: the receipt's moment
        assert event.at >= app.created_at, (app.protocol, event.status_to, event.at, app.created_at)
        if event.status_to in ("analysis", "approved", "awaiting_payment", "refused", "withdrawn"):
            assert event.at.date() == app.created_at.date(), (app.protocol, event.status_to)  # the filing day's steps
        days.add(event.at.date())
    assert len(days) > 1 and max(days) <= clock.now().date()  # the demo's calendar, not one build moment


def test_a_story_told_on_another_day_stamps_that_day():
    import datetime as dt

    from models.base import clock

    with clock.on_day(dt.date(2026, 12, 4)):
        assert clock.now().date() == dt.date(2026, 12, 4)
        with clock.on_day(dt.datetime(2026, 12, 4, 9, 30)):
            assert clock.now() == dt.datetime(2026, 12, 4, 9, 30)
    assert clock.now().date() == dt.date.today()
