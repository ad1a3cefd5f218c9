"""Backups that prove where they come from (issue 16 §6): a signature over the manifest, and optional encryption.

**Signature.** A signed backup holds a third member, ``signature.json``:
``{"algorithm": "Ed25519", "key_id", "public_key" (hex), "signed": "manifest.json", "signature" (hex)}``, the
signature taken over the exact bytes of ``manifest.json``. The manifest holds the SHA-256 and the size of the
data, so changing any byte of the data — and recomputing the checksum in the manifest — breaks the signature.
The key is the municipality's (:mod:`models.access.signing_keys`, the desk must be unlocked) or one the administrator
keeps outside the backup (a key folder, ``praca backup --key``).

A restore checks the signature *before anything else* against the keys it trusts: the target database's
municipal keys, a public key file the administrator gives, or a key fingerprint the administrator confirms
(``--trust-fingerprint``: a restore onto a new machine, whose database has no key yet). A backup that is
unsigned, signed by a key nobody trusts, or whose signature does not match is refused unless the administrator
accepts it explicitly (``--accept-unsigned``, and a confirmation).

**Encryption** (copies that leave the building: a backup holds every CPF, LGPD art. 46): the whole file is
``PRACA-BACKUP-AES1\\n`` followed by a JSON header line (scrypt salt and parameters, the nonce) and the
AES-256-GCM ciphertext of the signed zip, the key derived from a passphrase with scrypt (n=2^15, r=8, p=1).
GCM authenticates the ciphertext: a wrong passphrase and a changed byte are both refused. The scrypt parameters
a header asks for are bounded before anything is derived (:func:`models.access.key_envelope.check_scrypt`: n=2^20,
r=16 would take 2 GiB; it is refused at once with one line).

No Qt here (models/ layer).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from models.access.key_envelope import check_scrypt
from models.access.signing import KeyRing, Signer, key_id, public_key_fingerprint
from models.base.errors import UserError

SIGNATURE = "signature.json"
MAGIC = b"PRACA-BACKUP-AES1\n"
MIN_PASSPHRASE = 12
_SCRYPT = {"n": 2**15, "r": 8, "p": 1}
MAX_HEADER = 4096


# --------------------------------------------------------------------------- signature


def signature_member(signer: Signer, manifest_bytes: bytes) -> bytes:
    """The ``signature.json`` of a backup whose manifest is ``manifest_bytes``."""
    public = signer.private.public_key().public_bytes_raw()
    return json.dumps(
        {
            "algorithm": "Ed25519",
            "key_id": signer.key_id,
            "public_key": public.hex(),
            "signed": "manifest.json",
            "signature": signer.sign(manifest_bytes).hex(),
        },
        indent=2,
    ).encode("utf-8")


@dataclass(frozen=True)
class Trust:
    """What a restore accepts: the keys it trusts, and whether the administrator accepted a backup it cannot
    prove (unsigned, an unknown key, a signature that does not match)."""

    ring: KeyRing = field(default_factory=lambda: KeyRing(()))
    fingerprints: tuple[str, ...] = ()
    accept_unsigned: bool = False


@dataclass(frozen=True)
class Seal:
    """What the signature of one backup proves. ``status``: ``valid``, ``unsigned``, ``unknown-key``, ``bad``."""

    status: str
    key_id: str = ""
    fingerprint: str = ""
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "valid"


def _norm(fingerprint: str) -> str:
    return "".join(c for c in fingerprint.upper() if c.isalnum())


def check_seal(manifest_bytes: bytes, member: bytes | None, trust: Trust, name: str) -> Seal:
    """Check ``signature.json`` (``member``, ``None`` when absent) over ``manifest_bytes`` against ``trust``."""
    if member is None:
        return Seal("unsigned", message=f"{name} não tem assinatura: não há como saber se foi alterado.")
    try:
        data = json.loads(member.decode("utf-8"))
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(data["public_key"]))
        signature = bytes.fromhex(data["signature"])
        if data.get("algorithm") != "Ed25519" or data.get("signed") != "manifest.json":
            raise ValueError
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return Seal("bad", message=f"{name}: a assinatura está ilegível.")
    kid, print_ = key_id(public), public_key_fingerprint(public)
    try:
        public.verify(signature, manifest_bytes)
        matches = True
    except InvalidSignature:
        matches = False
    trusted = trust.ring.get(kid)
    if trusted is not None and trusted.public.public_bytes_raw() != public.public_bytes_raw():
        trusted = None
    known = trusted is not None or _norm(print_) in {_norm(f) for f in trust.fingerprints}
    if not matches:
        return Seal(
            "bad",
            kid,
            print_,
            f"{name} foi alterado depois de assinado: a assinatura da chave {kid} não confere com o conteúdo.",
        )
    if not known:
        return Seal(
            "unknown-key",
            kid,
            print_,
            f"{name} foi assinado pela chave {kid} (impressão digital {print_}), que este banco não conhece. "
            f"Confira a impressão digital com a prefeitura e repita com --trust-fingerprint {print_}.",
        )
    if trusted is not None and trusted.revoked_on is not None:
        return Seal(
            "bad", kid, print_, f"{name} foi assinado pela chave {kid}, revogada em {trusted.revoked_on:%d/%m/%Y}."
        )
    return Seal("valid", kid, print_, f"assinado pela chave {kid} da prefeitura ({print_})")


# --------------------------------------------------------------------------- encryption


def _check_passphrase(passphrase: str) -> bytes:
    if not isinstance(passphrase, str) or len(passphrase) < MIN_PASSPHRASE:
        raise UserError(
            f"A senha do backup cifrado precisa ter pelo menos {MIN_PASSPHRASE} caracteres.", field="passphrase"
        )
    return passphrase.encode("utf-8")


def _key(passphrase: bytes, salt: bytes, params: dict) -> bytes:
    return Scrypt(salt=salt, length=32, n=params["n"], r=params["r"], p=params["p"]).derive(passphrase)


def encrypt(data: bytes, passphrase: str) -> bytes:
    secret = _check_passphrase(passphrase)
    salt, nonce = os.urandom(16), os.urandom(12)
    header = {"kdf": "scrypt", **_SCRYPT, "salt": salt.hex(), "cipher": "AES-256-GCM", "nonce": nonce.hex()}
    line = json.dumps(header, sort_keys=True).encode("ascii") + b"\n"
    return MAGIC + line + AESGCM(_key(secret, salt, _SCRYPT)).encrypt(nonce, data, MAGIC + line)


def is_encrypted(head: bytes) -> bool:
    return head.startswith(MAGIC)


def decrypt(data: bytes, passphrase: str | None, name: str) -> bytes:
    if not passphrase:
        raise UserError(
            f"{name} é um backup cifrado: informe a senha (PRACA_BACKUP_PASSPHRASE ou no terminal). Nada foi alterado.",
            field="passphrase",
        )
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER)
    try:
        if end < 0:
            raise ValueError
        line = data[len(MAGIC) : end + 1]
        header = json.loads(line)
        if not isinstance(header, dict) or header.get("kdf") != "scrypt":
            raise ValueError
        salt, nonce = bytes.fromhex(header["salt"]), bytes.fromhex(header["nonce"])
    except (ValueError, KeyError, TypeError):
        raise UserError(f"{name} está corrompido (cabeçalho da cifra ilegível); nada foi alterado.") from None
    # the memory and time the header asks for, bounded before any work (n=2^20, r=16 would be 2 GiB)
    params = check_scrypt(header, name)
    try:
        return AESGCM(_key(passphrase.encode("utf-8"), salt, params)).decrypt(nonce, data[end + 1 :], MAGIC + line)
    except Exception:  # InvalidTag: the wrong passphrase, or a changed byte
        raise UserError(
            f"Senha incorreta para {name}, ou o arquivo foi alterado; nada foi alterado.", field="passphrase"
        ) from None
