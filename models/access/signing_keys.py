"""The municipality's signing identity, kept in the database: one key pair for every desk.

Every desk that issues a permit signs its QR with the same key, and every desk
and ``praca verify`` check a QR against the same public keys, so a permit
signed at one desk verifies at all of them, and a backup carries the keys.

How the private key is protected (the design, README "Assinatura"):

* it is stored in the database wrapped under the passphrase with a memory-hard
  KDF (:mod:`models.access.key_envelope`: scrypt n = 2^17, r = 8, p = 1 and
  AES-256-GCM). Whoever copies the database or a backup gets no usable key
  without the passphrase, and each guess at it costs 128 MiB and about half a
  second. A key wrapped before issue 26 (a PKCS#8 PEM under PBKDF2 with 2,048
  iterations) is wrapped again the next time a desk unlocks it; the KDF any
  stored key asks for is bounded before it is run;
* the administrator chooses the passphrase when creating the key (Cadastros →
  Assinatura, or ``praca signing create``) and types it once on each desk that
  issues permits ("liberar esta mesa"); the desk keeps it in the system keyring
  (Windows Credential Manager, macOS Keychain, Secret Service) through
  ``keyring``. A desk without a keyring keeps it only until it closes; a
  scheduled job may give it in ``PRACA_SIGNING_PASSPHRASE``;
* rotation makes a new pair; the old public key stays to verify what it
  signed (each text names its key id). Revocation (a leaked key) sets a date
  from which that key's signatures are refused everywhere.

Old desks each made their own key in ``<data folder>/keys``; their public key
can be added here (:func:`add_public_key`) so what they signed still verifies.

No Qt here (models/ layer).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from peewee import AutoField, CharField, DateField, DateTimeField, TextField

from models.access.key_envelope import needs_rewrap, unwrap, wrap
from models.access.session import require, who
from models.access.signing import (
    KeyEntry,
    KeyRing,
    PublicKeySource,
    Signer,
    SigningKeyError,
    key_id,
    load_public_key,
    public_key_fingerprint,
)
from models.base.errors import UserError
from models.store import changes
from models.store.db import BaseModel, db, take_write_turn

__all__ = [
    "MIN_PASSPHRASE",
    "MUNICIPAL_KEY",
    "PASSPHRASE_ENV",
    "VERIFY_URL",
    "KeyRow",
    "SigningKey",
    "active_key",
    "add_public_key",
    "create_key",
    "forget",
    "is_unlocked",
    "key_ring",
    "key_rows",
    "municipal_signer",
    "qr_content",
    "revoke_key",
    "rotate_key",
    "set_verify_url",
    "unlock",
    "verify_url",
]

PASSPHRASE_ENV = "PRACA_SIGNING_PASSPHRASE"
KEYRING_SERVICE = "Praça — chave de assinatura"
MIN_PASSPHRASE = 12
VERIFY_URL = "verify_url"  # the setting: the municipality's verification page


class SigningKey(BaseModel):
    id = AutoField()
    key_id = CharField(max_length=8, unique=True)
    public_key = CharField(max_length=64)  # raw Ed25519 public key, hex
    # the wrapped private key (models.access.key_envelope; an old encrypted PKCS#8 PEM until it is next unlocked);
    # "" for a key kept here only to verify
    private_pem = TextField(default="")
    origin = CharField(max_length=16, default="created")  # created | desk (an old desk's key, verify only)
    created_at = DateTimeField()
    created_by = CharField(max_length=64)
    retired_on = DateField(null=True)  # rotated away: signs no more, still verifies
    revoked_on = DateField(null=True)  # leaked: its signatures are refused from this day
    revoked_reason = TextField(default="")

    class Meta:
        table_name = "signing_key"

    @property
    def public(self) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public_key))


@dataclass(frozen=True)
class KeyRow:
    """One key as the screen and ``praca signing list`` show it."""

    key_id: str
    fingerprint: str
    state: str  # "em uso", "substituída em …", "revogada em …", "só verificação (mesa antiga)"
    created_at: _dt.datetime
    created_by: str
    revoked_on: _dt.date | None
    unlocked: bool


# --------------------------------------------------------------------------- passphrases on this desk

_session: dict[str, str] = {}  # key id → passphrase, for this process
_private: dict[str, Ed25519PrivateKey] = {}  # key id → decrypted key, for this process
_refused: set[str] = set()  # digests of (key, passphrase) this process found wrong: not derived again


def _keyring_get(kid: str) -> str | None:
    try:
        import keyring
        import keyring.errors

        return keyring.get_password(KEYRING_SERVICE, kid)
    except Exception:  # no backend, a locked or broken keyring: this desk asks again
        return None


def _keyring_set(kid: str, passphrase: str) -> bool:
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, kid, passphrase)
        return keyring.get_password(KEYRING_SERVICE, kid) == passphrase  # a null backend keeps nothing
    except Exception:
        return False


def _keyring_delete(kid: str) -> None:
    try:
        import keyring

        keyring.delete_password(KEYRING_SERVICE, kid)
    except Exception:
        pass


def _check_passphrase(passphrase: str) -> str:
    if not isinstance(passphrase, str) or len(passphrase) < MIN_PASSPHRASE:
        raise UserError(f"A senha da chave precisa ter pelo menos {MIN_PASSPHRASE} caracteres.", field="passphrase")
    return passphrase


def _decrypt(row: SigningKey, passphrase: str) -> Ed25519PrivateKey:
    key = unwrap(row.private_pem, passphrase, row.key_id)
    if key_id(key) != row.key_id:
        raise SigningKeyError(f"A chave {row.key_id} guardada no banco está corrompida.", field="key")
    if needs_rewrap(row.private_pem):
        _rewrap(row, key, passphrase)
    return key


def _rewrap(row: SigningKey, key: Ed25519PrivateKey, passphrase: str) -> None:
    """Wrap a key kept under an old KDF (PBKDF2 with 2,048 iterations) again under :data:`key_envelope.KEY_KDF`,
    now that this desk knows its passphrase: the same key and passphrase, only the wrapping changes (audited as
    any write). Only if nobody changed the row meanwhile; a desk that may not write it leaves it for the next."""
    envelope = wrap(key, passphrase, row.key_id)
    try:
        with db.atomic():
            changed = (
                SigningKey.update(private_pem=envelope)
                .where((SigningKey.id == row.id) & (SigningKey.private_pem == row.private_pem))
                .execute()
            )
    except Exception:  # a read-only desk, a database role without the right: the key still signs, as it was
        return
    if changed:
        row.private_pem = envelope


def _attempt(row: SigningKey, passphrase: str) -> str:
    return hashlib.sha256(f"{row.key_id}\0{row.private_pem}\0{passphrase}".encode()).hexdigest()


def _private_key(row: SigningKey) -> Ed25519PrivateKey | None:
    """The decrypted key of ``row`` with the passphrase this desk knows, or None."""
    if row.key_id in _private:
        return _private[row.key_id]
    for passphrase in (_session.get(row.key_id), os.environ.get(PASSPHRASE_ENV) or None, _keyring_get(row.key_id)):
        if not passphrase:
            continue
        attempt = _attempt(row, passphrase)
        if attempt in _refused:  # each try costs a scrypt: a passphrase that did not open this key is not tried again
            continue
        try:
            key = _decrypt(row, passphrase)
        except UserError:
            _refused.add(attempt)
            continue
        _private[row.key_id] = key
        return key
    return None


def unlock(passphrase: str, *, remember: bool = True) -> bool:
    """Let this desk sign: checks ``passphrase`` against the active key and keeps it (the system keyring when
    ``remember`` and one is available; this process otherwise). Returns whether the keyring kept it."""
    row = active_key()
    if row is None:
        raise SigningKeyError(_no_key_text(), field="key")
    _private[row.key_id] = _decrypt(row, passphrase)
    _session[row.key_id] = passphrase
    changes.announce("signing_key")  # this desk signs now: what shows whether it does (the Painel) is stale
    return _keyring_set(row.key_id, passphrase) if remember else False


def forget() -> None:
    """This desk no longer signs until unlocked again (the keyring entries of every key removed)."""
    for row in SigningKey.select():
        _keyring_delete(row.key_id)
    _session.clear()
    _private.clear()


def is_unlocked() -> bool:
    row = active_key()
    return row is not None and _private_key(row) is not None


# --------------------------------------------------------------------------- keys


def _no_key_text() -> str:
    return (
        "A prefeitura ainda não tem chave de assinatura: o administrador a cria em Cadastros → Assinatura "
        "(ou praca signing create); nada foi emitido."
    )


def active_key() -> SigningKey | None:
    """The key that signs now: the newest neither retired nor revoked."""
    return (
        SigningKey.select()
        .where(SigningKey.retired_on.is_null() & SigningKey.revoked_on.is_null() & (SigningKey.private_pem != ""))
        .order_by(SigningKey.id.desc())
        .first()
    )


def _new_row(passphrase: str, by: str) -> SigningKey:
    private = Ed25519PrivateKey.generate()
    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    row = SigningKey.create(
        key_id=key_id(private),
        public_key=raw.hex(),
        private_pem=wrap(private, passphrase, key_id(private)),
        origin="created",
        created_at=_dt.datetime.now().replace(microsecond=0),
        created_by=by,
    )
    _private[row.key_id] = private
    _session[row.key_id] = passphrase
    _keyring_set(row.key_id, passphrase)
    return row


def create_key(passphrase: str) -> SigningKey:
    """The municipality's first key pair (the administrator, once). This desk can sign at once."""
    require("settings.edit")
    _check_passphrase(passphrase)
    with db.atomic():
        take_write_turn(db)  # two administrators at once on PostgreSQL: the second waits, then sees the first's key
        current = active_key()
        if current is not None:
            raise UserError(
                f"A prefeitura já tem a chave {current.key_id} (criada por {current.created_by} em "
                f"{current.created_at:%d/%m/%Y %H:%M}): para trocá-la, use a rotação; nada foi criado.",
                field="key",
            )
        return _new_row(passphrase, who())


def rotate_key(passphrase: str, *, today: _dt.date) -> SigningKey:
    """A new key pair signs from now on; the old one is kept to verify what it signed. Every desk that issues
    permits must be unlocked again with ``passphrase``."""
    require("settings.edit")
    _check_passphrase(passphrase)
    with db.atomic():
        take_write_turn(db)  # two rotations at once: one after the other, never two keys in use
        current = active_key()
        if current is None:
            raise UserError(_no_key_text().replace("; nada foi emitido", ""), field="key")
        SigningKey.update(retired_on=today).where(SigningKey.id == current.id).execute()
        return _new_row(passphrase, who())


def revoke_key(kid: str, *, on: _dt.date, reason: str) -> SigningKey:
    """Refuse, from ``on``, every signature of key ``kid`` (a leaked key). The active key, revoked, signs no more:
    make a new one (:func:`create_key`) and reissue the documents it signed."""
    require("settings.edit")
    reason = (reason or "").strip()
    if not reason:
        raise UserError("Informe o motivo da revogação da chave.", field="reason")
    with db.atomic():
        row = SigningKey.get_or_none(SigningKey.key_id == (kid or "").strip().upper())
        if row is None:
            raise UserError(f"Chave {kid} não encontrada.", field="key")
        if row.revoked_on is not None:
            raise UserError(f"A chave {row.key_id} já foi revogada em {row.revoked_on:%d/%m/%Y}.", field="key")
        SigningKey.update(revoked_on=on, revoked_reason=reason, retired_on=row.retired_on or on).where(
            SigningKey.id == row.id
        ).execute()
    _private.pop(row.key_id, None)
    _session.pop(row.key_id, None)
    _keyring_delete(row.key_id)
    return SigningKey.get_by_id(row.id)


def add_public_key(source: PublicKeySource) -> SigningKey:
    """Keep an old desk's public key (``<data folder>/keys/ed25519-public.pem``) so that what it signed
    verifies here too; it never signs."""
    require("settings.edit")
    public = load_public_key(source)
    kid = key_id(public)
    existing = SigningKey.get_or_none(SigningKey.key_id == kid)
    if existing is not None:
        raise UserError(f"A chave {kid} já está no cadastro.", field="key")
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return SigningKey.create(
        key_id=kid,
        public_key=raw.hex(),
        private_pem="",
        origin="desk",
        created_at=_dt.datetime.now().replace(microsecond=0),
        created_by=who(),
    )


def key_ring() -> KeyRing:
    """Every public key of the municipality, with its revocation date."""
    return KeyRing(tuple(KeyEntry(row.public, row.revoked_on) for row in SigningKey.select().order_by(SigningKey.id)))


def key_rows() -> list[KeyRow]:
    active = active_key()
    rows = []
    for row in SigningKey.select().order_by(SigningKey.id):
        if row.revoked_on is not None:
            state = f"revogada em {row.revoked_on:%d/%m/%Y}"
        elif row.origin == "desk":
            state = "só verificação (mesa antiga)"
        elif active is not None and row.id == active.id:
            state = "em uso"
        else:
            state = f"substituída em {row.retired_on:%d/%m/%Y}"
        unlocked = active is not None and row.id == active.id and _private_key(row) is not None
        rows.append(
            KeyRow(
                row.key_id,
                public_key_fingerprint(row.public),
                state,
                row.created_at,
                row.created_by,
                row.revoked_on,
                unlocked,
            )
        )
    return rows


class _MunicipalKey:
    """The database's active key, looked up each time a permit is signed (another desk may have rotated it)."""

    def signer(self) -> Signer:
        return municipal_signer()

    def __repr__(self) -> str:
        return "MUNICIPAL_KEY"


MUNICIPAL_KEY = _MunicipalKey()

#: What signs an issued permit: a key folder (tests, a town's own files), a signer at hand, or the database's
#: active key looked up at each signature.
KeySource = Path | Signer | _MunicipalKey


def municipal_signer() -> Signer:
    """A signer with the municipality's active key, or a clear error telling what to do at this desk."""
    row = active_key()
    if row is None:
        raise SigningKeyError(_no_key_text(), field="key", step="signing")
    private = _private_key(row)
    if private is None:
        raise SigningKeyError(
            f"Esta mesa ainda não pode assinar com a chave {row.key_id} da prefeitura: informe a senha da chave "
            "em Cadastros → Assinatura → Liberar esta mesa (ou praca signing unlock); nada foi emitido.",
            field="key",
            step="signing",
        )
    return Signer(private)


# --------------------------------------------------------------------------- verifying here


# --------------------------------------------------------------------------- the verification address


def verify_url() -> str:
    from models.store.settings import get_setting

    return get_setting(VERIFY_URL)


def set_verify_url(url: str) -> None:
    """The address of the municipality's verification page (``praca verify-page``), put in every QR."""
    from models.store.settings import set_settings

    url = (url or "").strip()
    if url and (not url.lower().startswith("https://") or "#" in url or any(c.isspace() for c in url)):
        raise UserError(
            "O endereço de verificação deve começar com https:// e não ter espaços nem #.", field="verify_url"
        )
    set_settings({VERIFY_URL: url})


def qr_content(text: str) -> str:
    """What a QR holds for signed ``text``: ``https://…/verificar.html#PRACA2.…`` when the municipality set its
    verification address, the text alone otherwise."""
    if not text:
        return text
    url = verify_url()
    return f"{url}#{text}" if url else text
