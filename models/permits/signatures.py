"""A permit's signature against the municipality's keys (issue 16): verifying a QR here, with the permit's standing
in this database, checking every permit after a restore, and signing again those a revoked key signed.

Above both :mod:`models.access.signing_keys` (the keys) and the permits' tables: it needs the two.
"""

from __future__ import annotations

import datetime as _dt

from models.access.session import require
from models.access.signing import MissingKey, Verification, verify_text, withdrawn
from models.access.signing_keys import SigningKey, key_ring, municipal_signer
from models.permits.document import sign_permit
from models.permits.queries import permit_standing, withdrawn_permits
from models.permits.tables import LIVE_STATUSES, Permit
from models.store.db import db


def resign_permits(*, today: _dt.date) -> list[str]:
    """Sign again, with the active key, the QR of every permit still in force that a revoked key signed (its
    card no longer verifies anywhere) or that holds an old ``PRACA1`` text (an old desk's own key: no key id, it
    verifies only where that desk's public key was added, and its QR is no address a phone can open); returns
    their numbers, whose cards and placards must be printed again. The permit itself is not changed: the summary
    is made again from the database (never taken from the old text) and signed."""
    require("settings.edit")
    revoked = {row.key_id for row in SigningKey.select().where(SigningKey.revoked_on.is_null(False))}
    signer = municipal_signer()
    numbers = []
    with db.atomic():
        for permit in (
            Permit.select()
            .where(Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until >= today))
            .order_by(Permit.number)
        ):
            parts = permit.qr_text.split(".")
            if (len(parts) == 4 and parts[0] == "PRACA2" and parts[1] in revoked) or parts[0] == "PRACA1":
                sign_permit(permit, signer)
                numbers.append(permit.number)
    return numbers


#: What a QR says of a permit the database no longer has in force (issue 16 §7: "revogada desde …").
STANDING_WORDS = {"revoked": "revogada", "suspended": "suspensa", "cancelled": "cancelada", "superseded": "substituída"}


def verify_here(text: str, today: _dt.date | None = None) -> Verification:
    """Check ``text`` against the database's keys, then the permit's status in the database: an authentic QR
    of a permit revoked, suspended, cancelled or superseded says so, with the date."""
    ring = key_ring()
    if not ring.entries:
        raise MissingKey(
            "A prefeitura ainda não tem chave de assinatura neste banco (Cadastros → Assinatura); "
            "não há com que verificar.",
            field="key",
        )
    today = today or _dt.date.today()
    result = verify_text(text, ring, today=today)
    if result.summary is None:
        return result
    standing = permit_standing(result.summary.number)
    if standing is not None and standing[0] in STANDING_WORDS:
        status, since = standing
        if since is None or since <= today:
            return withdrawn(result, STANDING_WORDS[status], since)
    return result


def check_all_permits(today: _dt.date | None = None) -> tuple[int, list[str]]:
    """Every signed permit's QR checked against the database's keys (after a restore onto a new machine):
    (how many carry an authentic signature, the numbers of those that do not)."""
    ring = key_ring()
    today = today or _dt.date.today()
    good, bad = 0, []
    for number, text in Permit.select(Permit.number, Permit.qr_text).where(Permit.qr_text != "").tuples():
        result = verify_text(text, ring, today=today)
        if result.summary is not None and result.summary.number == number:
            good += 1
        else:
            bad.append(number)
    return good, sorted(bad)


def withdrawn_numbers() -> list[tuple[str, str, _dt.date | None]]:
    """Every permit no longer in force by an act (number, word, since): what the verification page lists."""
    return [
        (number, STANDING_WORDS[status], since) for number, status, since in withdrawn_permits(tuple(STANDING_WORDS))
    ]
