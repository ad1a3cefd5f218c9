"""A permit's signature against the municipality's keys (issue 16): verifying a QR here, with the permit's standing
in this database, checking every permit after a restore, and signing again those a revoked key signed.

Above both :mod:`models.access.signing_keys` (the keys) and the permits' tables: it needs the two.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime as _dt
from typing import Any, cast

from models.access.session import require
from models.access.signing import (
    KEYED_PREFIXES,
    SITUATION,
    MissingKey,
    PermitSummary,
    Verification,
    decode_payload,
    verify_text,
    withdrawn,
)
from models.access.signing_keys import SigningKey, key_ring, municipal_signer
from models.permits.document import sign_permit
from models.permits.queries import permit_standing, withdrawn_permits
from models.permits.tables import LIVE_STATUSES, Permit
from models.registry.people import Company, Person, mei_company
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
            if (len(parts) == 4 and parts[0] in KEYED_PREFIXES and parts[1] in revoked) or parts[0] == "PRACA1":
                sign_permit(permit, signer)
                numbers.append(permit.number)
    return numbers


#: What a QR says of a permit the database no longer has in force (issue 16 §7: "revogada desde …").
STANDING_WORDS = {"revoked": "revogada", "suspended": "suspensa", "cancelled": "cancelada", "superseded": "substituída"}


#: What ``praca verify --db`` compares with the database's record, in the order it says them.
DATABASE_FACTS = ("assinatura", "existência da permissão", "titular", "validade", "ato", SITUATION)


def verify_here(text: str, today: _dt.date | None = None) -> Verification:
    """Check ``text`` against the database's keys, then its facts against the database's record (issue 26 §5):
    the permit exists, its holder (name and CPF/CNPJ), validity and act are the ones the QR carries — a QR signed
    with a leaked key for a permit that does not exist, or for a real number with another holder, is invalid —
    and its status: an authentic QR of a permit revoked, suspended, cancelled or superseded says so, with the
    date. ``checked`` names every fact checked."""
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
    summary = result.summary
    permit = Permit.get_or_none(Permit.number == summary.number)
    leaked = " A chave de assinatura da prefeitura pode ter vazado: avise o administrador."
    if permit is None:
        return dataclasses.replace(
            result,
            status="invalid",
            summary=None,
            not_yet_in_force=False,
            message=f"Documento inválido: a assinatura é autêntica, mas não há permissão nº {summary.number} "
            "neste banco." + leaked,
            checked=DATABASE_FACTS[:2],
        )
    differences = _differences(summary, permit)
    if differences:
        return dataclasses.replace(
            result,
            status="invalid",
            summary=None,
            not_yet_in_force=False,
            message=f"Documento inválido: a assinatura é autêntica, mas o QR não confere com a permissão "
            f"{permit.number} no banco — {'; '.join(differences)}." + leaked,
            checked=DATABASE_FACTS[:-1],
        )
    result = dataclasses.replace(result, checked=DATABASE_FACTS)
    standing = permit_standing(summary.number)
    if standing is not None and standing[0] in STANDING_WORDS:
        status, since = standing
        if since is None or since <= today:
            return withdrawn(result, STANDING_WORDS[status], since)
    return result


def _holders(permit: Permit) -> set[tuple[str, str]]:
    """(name, document) the permit's QR may carry: its holder's now (a MEI's CNPJ, else the CPF; a company's
    legal name and CNPJ) and the one Praça signed into it when it issued it."""
    if permit.person_id:
        person = Person.get_by_id(permit.person_id)
        mei = mei_company(person)
        holders = {(person.name, mei.cnpj if mei is not None else person.cpf)}
    else:
        company = Company.get_by_id(permit.company_id)
        holders = {(company.legal_name, company.cnpj)}
    parts = (permit.qr_text or "").split(".")
    if len(parts) >= 3:
        try:
            signed = decode_payload(base64.b32decode(parts[-2] + "=" * (-len(parts[-2]) % 8)), parts[0])
        except (ValueError, binascii.Error):
            pass
        else:
            holders.add((signed.holder_name, signed.holder_document))
    return holders


def _differences(summary: PermitSummary, permit: Permit) -> list[str]:
    """What the QR says that the permit's record does not, one pt-BR phrase each."""
    out = []
    if (summary.holder_name, summary.holder_document) not in _holders(permit):
        out.append(
            f"titular no QR: {summary.holder_name} ({summary.holder_document or 'sem documento'}), "
            f"no banco: {permit.holder_name}"
        )
    if (summary.valid_from, summary.valid_until) != (permit.valid_from, permit.valid_until):
        out.append(
            f"validade no QR: {summary.valid_from:%d/%m/%Y} a {summary.valid_until:%d/%m/%Y}, no banco: "
            f"{permit.valid_from:%d/%m/%Y} a {permit.valid_until:%d/%m/%Y}"
        )
    if summary.regime_id != permit.regime:
        out.append(f"ato no QR: {summary.regime_id}, no banco: {permit.regime}")
    return out


def check_all_permits(today: _dt.date | None = None) -> tuple[int, list[str]]:
    """Every signed permit's QR checked against the database's keys (after a restore onto a new machine):
    (how many carry an authentic signature, the numbers of those that do not)."""
    ring = key_ring()
    today = today or _dt.date.today()
    good, bad = 0, []
    for number, text in cast(Any, Permit.select(Permit.number, Permit.qr_text).where(Permit.qr_text != "").tuples()):
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
