"""Filing an application: may it be filed now, and its protocol.

An application for an event is refused once the act's registration has closed or the event's dates have passed
(:func:`models.rules.filing.filing_check`); the event's dates are those the map desk keeps for the site
(:class:`models.sites.Site`). That reading puts filing above the sites — and so above the permits, whose table the
sites read — while :mod:`models.registry.applications` (the tables, the statuses and their history) stays below
them both.
"""

from __future__ import annotations

import datetime as _dt
import json

from peewee import fn

from models.access.session import acting, require
from models.base.errors import UserError
from models.registry.applications import (
    Application,
    ApplicationDocument,
    ApplicationEvent,
    ApplicationInput,
    next_number,
    validate_application,
)
from models.rules.acts import act_sha
from models.rules.filing import EventDates, FilingCheck, filing_check
from models.rules.regimes import Regime, get_regime
from models.sites import Site
from models.store.db import db

__all__ = ["create_application", "filing_for", "moment_of", "site_dates"]


def site_dates(regime: Regime, site: str) -> EventDates | None:
    """The first and last day the map desk keeps for the event area ``site`` (a site's name or the act's id)."""
    text = " ".join((site or "").split())
    if not text:
        return None
    row = (
        Site.select()
        .where((Site.regime == regime.id) & ((fn.LOWER(Site.name) == text.lower()) | (Site.regime_site == text)))
        .order_by(Site.id)
        .first()
    )
    if row is None or row.last_day is None:
        return None
    return EventDates(row.first_day or row.last_day, row.last_day, f"datas do local «{row.name}» em Mapas")


def filing_for(regime: Regime | str, permit_kind: str, site: str, at: _dt.datetime) -> FilingCheck:
    """May an application for ``permit_kind`` at ``site`` be filed at ``at`` (``models.rules.filing.filing_check``)?"""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    return filing_check(regime, permit_kind, at, event=site_dates(regime, site))


def moment_of(today: _dt.date | None, now: _dt.datetime | None) -> _dt.datetime:
    """The moment a desk acts: ``now``, else the current time on the desk's ``today``."""
    if now is not None:
        return now.replace(microsecond=0)
    clock = _dt.datetime.now().replace(microsecond=0)
    return clock if today is None else _dt.datetime.combine(today, clock.time())


def create_application(
    data: ApplicationInput,
    *,
    clerk: str,
    today: _dt.date | None = None,
    now: _dt.datetime | None = None,
    quote: dict | None = None,
    eligibility: dict | None = None,
) -> Application:
    """Save an application with its documents and give it the next protocol number — one transaction.

    Filed at ``now`` (default: the current time on ``today``). An application for an event whose registration
    has closed, or whose dates have passed, is refused (``models.rules.filing``); one the act still takes after the
    registration closes (São Bento, Dec. 4.794/2026, art. 10) is filed with that said in its history."""
    require("applications.create")
    clerk = acting(clerk)  # the session's user (issue 16 §4)
    from models.store.files import keep_file

    at = moment_of(today, now)
    today = at.date()
    values = validate_application(data, today=today)
    filing = filing_for(data.regime, data.permit_kind, data.site, at)
    if filing.refused:
        raise UserError(filing.text, field=filing.field)
    kept = [keep_file(d.file) if d.file else None for d in data.documents]  # copied before the transaction
    with db.atomic():
        seq = next_number(f"protocol-{today.year}")
        app = Application.create(
            protocol=f"{today.year}/{seq:05d}",
            year=today.year,
            seq=seq,
            created_by=clerk,
            created_at=at,
            quote_json=json.dumps(quote or {}, ensure_ascii=False),
            eligibility_json=json.dumps(eligibility or {}, ensure_ascii=False),
            act_sha256=act_sha(data.regime, today),
            **values,
        )
        for doc, stored in zip(data.documents, kept, strict=True):
            ApplicationDocument.create(
                application=app,
                document=doc.document,
                delivered_on=doc.delivered_on,
                valid_until=doc.valid_until,
                file_path=stored.path if stored else "",
                sha256=stored.sha256 if stored else "",
                original_name=stored.original_name if stored else "",
            )
        ApplicationEvent.create(
            application=app,
            at=at,  # the moment of filing, as the protocol and the receipt say
            by=clerk,
            status_to="received",
            reason="protocolado" + (f" — {filing.text}" if filing.status == "late" else ""),
        )
    return app
