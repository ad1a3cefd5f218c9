"""The municipality's private key wrapped under its passphrase, and the bounds on any KDF a file asks for (issue 26 §5).

**The envelope** (what ``signing_key.private_pem`` holds since issue 26): one line,
``PRACA-KEY1 `` followed by JSON ``{"kdf": "scrypt", "n", "r", "p", "salt", "cipher": "AES-256-GCM", "nonce",
"key_id", "ct"}``. The key-encryption key is scrypt of the passphrase at OWASP's first recommended setting
(n = 2^17, r = 8, p = 1: 128 MiB and about half a second on a desk per try, where the PBKDF2 with 2,048 iterations
of the old PKCS#8 PEM let one core try about 4,000 passphrases a second); ``ct`` is AES-256-GCM of the 32 raw
bytes of the Ed25519 private key, the header (everything but ``ct``) authenticated with it, so changing the
parameters or the key id breaks the envelope.

Keys wrapped before (``-----BEGIN ENCRYPTED PRIVATE KEY-----``: PBES2, PBKDF2-HMAC-SHA256 with 2,048 iterations,
what ``cryptography``'s ``BestAvailableEncryption`` writes) are still read, and wrapped again in an envelope the
next time a desk unlocks them (:func:`needs_rewrap`).

**Bounds.** Whatever file hands Praça the parameters of a KDF (a key envelope in a database or a backup, an old
PEM, the header of an encrypted backup: :mod:`models.store.sealed`), they are checked *before* any work is done:
:func:`check_scrypt` refuses more than :data:`MAX_SCRYPT_MEMORY` of memory or :data:`MAX_SCRYPT_WORK` of work
(n = 2^20, r = 16 asks 2 GiB: refused at once), :func:`check_pem` more than :data:`MAX_PBKDF2_ITERATIONS`.

No Qt here (models/ layer).
"""

from __future__ import annotations

import json
import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from models.base.errors import UserError

__all__ = [
    "ENVELOPE",
    "KEY_KDF",
    "MAX_PBKDF2_ITERATIONS",
    "MAX_SCRYPT_MEMORY",
    "MAX_SCRYPT_WORK",
    "BadEnvelope",
    "check_pem",
    "check_scrypt",
    "needs_rewrap",
    "unwrap",
    "wrap",
]

ENVELOPE = "PRACA-KEY1 "
#: scrypt for a new envelope: OWASP Password Storage Cheat Sheet, first setting (128 MiB).
KEY_KDF = {"n": 2**17, "r": 8, "p": 1}
#: At most this much memory (128·n·r bytes) for a KDF a file asks for: twice what Praça itself uses.
MAX_SCRYPT_MEMORY = 256 * 2**20
#: At most this much work (n·r·p) for a KDF a file asks for: four times what Praça itself uses.
MAX_SCRYPT_WORK = 4 * 2**17 * 8
#: At most this many PBKDF2 iterations in an old PKCS#8 PEM (Praça wrote 2,048).
MAX_PBKDF2_ITERATIONS = 2_000_000
MAX_ENVELOPE = 4096


class BadEnvelope(UserError):  # noqa: N818 - read as "the envelope is bad", as MissingKey
    """A wrapped key, or the KDF a file asks for, that Praça refuses before any work."""


def check_scrypt(params: object, what: str) -> dict[str, int]:
    """``{"n", "r", "p"}`` from ``params`` (a file's header), checked before any work; :class:`BadEnvelope`
    with one line naming ``what`` otherwise."""
    try:
        if not isinstance(params, dict):
            raise ValueError
        values = {k: params[k] for k in ("n", "r", "p")}
        if not all(type(v) is int for v in values.values()):
            raise ValueError
    except (KeyError, ValueError):
        raise BadEnvelope(f"{what}: parâmetros da derivação de chave (scrypt) ilegíveis; nada foi feito.") from None
    n, r, p = values["n"], values["r"], values["p"]
    if n < 2 or n & (n - 1) or r < 1 or p < 1:
        raise BadEnvelope(f"{what}: parâmetros de scrypt inválidos (n={n}, r={r}, p={p}); nada foi feito.")
    if 128 * n * r > MAX_SCRYPT_MEMORY or n * r * p > MAX_SCRYPT_WORK:
        raise BadEnvelope(
            f"{what} pede uma derivação de chave (scrypt n={n}, r={r}, p={p}) acima do limite do Praça "
            f"({MAX_SCRYPT_MEMORY // 2**20} MiB de memória): recusado sem calcular; nada foi feito."
        )
    return values


def _kek(passphrase: str, salt: bytes, params: dict[str, int]) -> bytes:
    return Scrypt(salt=salt, length=32, n=params["n"], r=params["r"], p=params["p"]).derive(passphrase.encode("utf-8"))


def _header_bytes(header: dict) -> bytes:
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode("ascii")


def wrap(private: Ed25519PrivateKey, passphrase: str, kid: str, params: dict[str, int] | None = None) -> str:
    """The envelope of ``private`` (key id ``kid``) under ``passphrase``."""
    params = dict(params or KEY_KDF)
    salt, nonce = os.urandom(16), os.urandom(12)
    header = {
        "kdf": "scrypt",
        **params,
        "salt": salt.hex(),
        "cipher": "AES-256-GCM",
        "nonce": nonce.hex(),
        "key_id": kid,
    }
    raw = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    ct = AESGCM(_kek(passphrase, salt, params)).encrypt(nonce, raw, _header_bytes(header))
    return ENVELOPE + json.dumps({**header, "ct": ct.hex()}, sort_keys=True, separators=(",", ":"))


def _read(text: str, kid: str) -> dict:
    what = f"A chave {kid} guardada no banco"
    if len(text) > MAX_ENVELOPE:
        raise BadEnvelope(f"{what} está corrompida (grande demais); nada foi feito.", field="key")
    try:
        data = json.loads(text[len(ENVELOPE) :])
        if not isinstance(data, dict) or data.get("kdf") != "scrypt" or data.get("cipher") != "AES-256-GCM":
            raise ValueError
        bytes.fromhex(data["salt"]), bytes.fromhex(data["nonce"]), bytes.fromhex(data["ct"])
    except (ValueError, KeyError, TypeError):
        raise BadEnvelope(f"{what} está corrompida (envelope ilegível); nada foi feito.", field="key") from None
    check_scrypt(data, what)
    return data


def _wrong(kid: str) -> UserError:
    # made where it is raised: an exception kept in a local of the frame that raises it holds that frame, and every
    # frame up to the handler (a dialog's), in a cycle only the garbage collector breaks
    return UserError(f"Senha incorreta para a chave {kid}.", field="passphrase")


def unwrap(text: str, passphrase: str, kid: str) -> Ed25519PrivateKey:
    """The private key in ``text`` (an envelope or an old encrypted PEM), its KDF bounded before any work.
    A wrong passphrase: ``UserError`` "Senha incorreta"."""
    if not text.startswith(ENVELOPE):
        check_pem(text, f"A chave {kid} guardada no banco")
        try:
            key = serialization.load_pem_private_key(text.encode("ascii"), passphrase.encode("utf-8"))
        except (ValueError, TypeError, UnicodeEncodeError):
            raise _wrong(kid) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise BadEnvelope(f"A chave {kid} guardada no banco está corrompida.", field="key")
        return key
    data = _read(text, kid)
    header = {k: v for k, v in data.items() if k != "ct"}
    if header.get("key_id") != kid:
        raise BadEnvelope(f"A chave {kid} guardada no banco está corrompida (envelope de outra chave).", field="key")
    params = {k: data[k] for k in ("n", "r", "p")}
    try:
        raw = AESGCM(_kek(passphrase, bytes.fromhex(data["salt"]), params)).decrypt(
            bytes.fromhex(data["nonce"]), bytes.fromhex(data["ct"]), _header_bytes(header)
        )
    except Exception:  # InvalidTag: the wrong passphrase, or a changed byte
        raise _wrong(kid) from None
    if len(raw) != 32:
        raise BadEnvelope(f"A chave {kid} guardada no banco está corrompida.", field="key")
    return Ed25519PrivateKey.from_private_bytes(raw)


def needs_rewrap(text: str) -> bool:
    """Whether ``text`` should be wrapped again: an old PEM, or an envelope weaker than :data:`KEY_KDF`."""
    if not text:
        return False
    if not text.startswith(ENVELOPE):
        return True
    try:
        data = json.loads(text[len(ENVELOPE) :])
        return any(int(data[k]) < KEY_KDF[k] for k in ("n", "r", "p"))
    except (ValueError, KeyError, TypeError):
        return False


# --------------------------------------------------------------------------- old PKCS#8 PEM: read its KDF first

_PBES2 = bytes.fromhex("2a864886f70d01050d")  # 1.2.840.113549.1.5.13
_PBKDF2 = bytes.fromhex("2a864886f70d01050c")  # 1.2.840.113549.1.5.12
_SCRYPT = bytes.fromhex("2b06010401da47040b")  # 1.3.6.1.4.1.11591.4.11


def _tlv(data: bytes, at: int) -> tuple[int, bytes, int]:
    """(tag, content, next offset) of the DER element at ``at``; ``ValueError`` if it does not fit."""
    if at + 2 > len(data):
        raise ValueError
    tag, length = data[at], data[at + 1]
    at += 2
    if length & 0x80:
        count = length & 0x7F
        if not 1 <= count <= 4 or at + count > len(data):
            raise ValueError
        length = int.from_bytes(data[at : at + count], "big")
        at += count
    if at + length > len(data):
        raise ValueError
    return tag, data[at : at + length], at + length


def _seq(content: bytes) -> list[tuple[int, bytes]]:
    items, at = [], 0
    while at < len(content):
        tag, value, at = _tlv(content, at)
        items.append((tag, value))
    return items


def check_pem(text: str, what: str) -> None:
    """Refuse, before ``cryptography`` derives anything, an encrypted PKCS#8 PEM whose KDF asks too much work
    (PBKDF2 iterations above :data:`MAX_PBKDF2_ITERATIONS`, scrypt above :func:`check_scrypt`'s bounds) or that is
    not PBES2 with PBKDF2 or scrypt."""
    import base64

    def refused() -> BadEnvelope:  # made where raised (see _wrong)
        return BadEnvelope(f"{what} está corrompida ou cifrada de um modo que o Praça não lê; nada foi feito.")

    lines = text.strip().splitlines()
    if len(text) > MAX_ENVELOPE or len(lines) < 3 or lines[0] != "-----BEGIN ENCRYPTED PRIVATE KEY-----":
        raise refused()
    try:
        der = base64.b64decode("".join(lines[1:-1]), validate=True)
        _, info, _ = _tlv(der, 0)  # EncryptedPrivateKeyInfo
        (_, algorithm), _data = _seq(info)
        oid, params = _seq(algorithm)
        if oid[1] != _PBES2:
            raise ValueError
        kdf, _cipher = _seq(params[1])
        kdf_oid, kdf_params = _seq(kdf[1])
        fields = _seq(kdf_params[1])
    except (ValueError, TypeError, IndexError):
        raise refused() from None
    if kdf_oid[1] == _PBKDF2:
        iterations = int.from_bytes(fields[1][1], "big") if len(fields) > 1 and fields[1][0] == 0x02 else -1
        if not 1 <= iterations <= MAX_PBKDF2_ITERATIONS:
            raise BadEnvelope(
                f"{what} pede {iterations} iterações de PBKDF2, acima do limite do Praça "
                f"({MAX_PBKDF2_ITERATIONS}): recusado sem calcular; nada foi feito."
            )
        return
    if kdf_oid[1] == _SCRYPT:
        ints = [int.from_bytes(v, "big") for tag, v in fields[1:] if tag == 0x02]
        if len(ints) < 3:
            raise refused()
        check_scrypt({"n": ints[0], "r": ints[1], "p": ints[2]}, what)
        return
    raise refused()
