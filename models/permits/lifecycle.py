"""Status changes of a permit in force: suspension, reactivation, revocation, cancellation, expiry."""

from __future__ import annotations

import datetime as _dt

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.permits.steps import date_text, move_status, record_event, required_reason
from models.permits.tables import GROUND_ABANDONMENT, GROUND_HOLDER_REQUEST, LIVE_STATUSES, Permit
from models.store.db import db


def suspend(permit: Permit, *, by: str, reason: str, today: _dt.date, until: _dt.date | None = None) -> Permit:
    """Suspend an active permit (until a date, or until lifted by :func:`reactivate`)."""
    require("permits.sanction")
    by, reason = acting(by), required_reason(reason, "suspensão")
    if until is not None and until < today:
        raise FieldErrors(
            {"until": f"A suspensão terminaria em {date_text(until)}, antes de hoje ({date_text(today)})."}
        )
    with db.atomic():
        updated = move_status(permit, "suspended", allowed_from=("active",), what="suspensa")
        record_event(
            updated,
            "suspended",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="suspended",
            reason=reason,
            start=today,
            end=until,
        )
    return updated


def reactivate(permit: Permit, *, by: str, today: _dt.date, reason: str = "") -> Permit:
    """Lift a suspension; a permit whose term has ended cannot come back."""
    require("permits.sanction")
    by = acting(by)
    if permit.status == "suspended" and permit.valid_until < today:
        raise UserError(
            f"A permissão nº {permit.number} venceu em {date_text(permit.valid_until)}; não pode ser reativada."
        )
    with db.atomic():
        updated = move_status(permit, "active", allowed_from=("suspended",), what="reativada")
        record_event(
            updated,
            "reactivated",
            by=by,
            on=today,
            status_from="suspended",
            status_to="active",
            reason=(reason or "").strip() or "fim da suspensão",
        )
    return updated


def revoke(permit: Permit, *, by: str, reason: str, today: _dt.date, abandonment: bool = False) -> Permit:
    """Revoke (cassar) a permit; the event is the history waiting periods count from.

    ``abandonment``: the ground is abandoning the feira (Lei 9.158/2014, art.
    26, IV), which some acts make wait longer (its parágrafo único: 36 meses).
    """
    require("permits.sanction")
    by, reason = acting(by), required_reason(reason, "cassação")
    with db.atomic():
        updated = move_status(permit, "revoked", allowed_from=LIVE_STATUSES, what="cassada")
        record_event(
            updated,
            "revoked",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="revoked",
            reason=reason,
            ground=GROUND_ABANDONMENT if abandonment else "",
        )
    return updated


def cancel(permit: Permit, *, by: str, reason: str, today: _dt.date, at_holder_request: bool = False) -> Permit:
    """Cancel a permit — at the holder's request (Dec. 890/2017, art. 12, § 3º; LC 324/2025, art. 180) or by act.

    Only a cancellation by act counts as history for waiting periods.
    """
    require("permits.sanction")
    by, reason = acting(by), required_reason(reason, "cancelamento")
    with db.atomic():
        updated = move_status(permit, "cancelled", allowed_from=LIVE_STATUSES, what="cancelada")
        record_event(
            updated,
            "cancelled",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="cancelled",
            reason=reason,
            ground=GROUND_HOLDER_REQUEST if at_holder_request else "",
        )
    return updated


def expire_due(today: _dt.date, *, by: str = "sistema") -> list[Permit]:
    """Mark as expired every permit in force whose last day is before ``today`` — one transaction.

    The event is dated the first day without licence (``valid_until`` + 1).
    """
    require("permits.lifecycle")
    expired: list[Permit] = []
    with db.atomic():
        due = Permit.select().where(Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today)).order_by(Permit.id)
        for permit in due:
            try:
                updated = move_status(permit, "expired", allowed_from=LIVE_STATUSES, what="dada como vencida")
            except UserError:  # changed by another desk meanwhile: its next run will see it
                continue
            record_event(
                updated,
                "expired",
                by=by,
                on=permit.valid_until + _dt.timedelta(days=1),
                status_from=permit.status,
                status_to="expired",
                reason=f"fim da validade em {date_text(permit.valid_until)}",
            )
            expired.append(updated)
    return expired
