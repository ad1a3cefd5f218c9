"""Signed QR codes for permits: the municipality's Ed25519 key and the text in the QR.

An inspector on the street reads the QR of an ID card or a permit and checks,
offline, with the municipality's *public* key only, that Praça issued it and
that nothing on it was changed.

The QR text is ``PRACA3.<key id>.<payload>.<signature>``:

* ``key id`` — 8 base32 characters naming the key that signed (the first 40
  bits of SHA-256 of the raw public key): the municipality rotates its key and
  keeps the old public keys, so each text says which one to check it with;
* ``payload`` — the :class:`PermitSummary`'s nine fields in a fixed order (number, holder, document,
  kind, place, from, until, act, municipality; dates ``YYYYMMDD``), UTF-8, separated by the
  unit separator U+001F (issue 32 §2: no JSON keys, quotes and commas — a QR about 60 characters
  shorter, read at 100 dpi); a field holding a control character cannot be signed;
* ``signature`` — Ed25519 over the ASCII bytes ``PRACA3.<key id>.<payload>``
  (the text before the last dot: the version and the key id are signed too);
* payload and signature in RFC 4648 base32, upper case, without ``=`` padding.
  Every character of the text is then in the QR *alphanumeric* set, which
  stores 5,5 bits a character against 8 for base64 in byte mode: the same
  summary needs a QR two versions smaller, which matters on an
  85,6 × 53,98 mm card.

A QR may hold the text as the fragment of the municipality's verification
address (``https://…/verificar.html#PRACA2.…``): a phone opens the page, which
checks the signature itself; :func:`signed_text` takes the text back out.
``PRACA2.<key id>.<payload>.<signature>`` (the same with the payload as canonical JSON — sorted keys, no
spaces, ``ensure_ascii=False``, UTF-8 — with one-letter keys) and ``PRACA1.<payload>.<signature>`` (the first
format: JSON, no key id, signature over the payload, checked against every key given) are still read: cards
already printed keep verifying.

Decoding is strict: a lower-case letter, padding, whitespace, non-canonical
trailing bits or non-canonical JSON make the text invalid, so that changing any
single character of a signed text never leaves it valid.

Whoever signs is a :class:`Signer`: the municipality's key kept in the
database (:mod:`models.access.signing_keys`, what every desk uses) or, for tests and
tools, a key folder: the private key in PKCS#8 PEM with 0600 permissions, the
public key beside it in SubjectPublicKeyInfo PEM, created on first use. Whoever
verifies gives one public key or a :class:`KeyRing` (every key the municipality
ever signed with, and the date each was revoked, if it was).

No Qt here (models/ layer).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime as dt
import hashlib
import json
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from models.base.errors import UserError

__all__ = [
    "JSON_PREFIX",
    "KEYED_PREFIXES",
    "LEGACY_PREFIX",
    "PREFIX",
    "PRIVATE_KEY_FILE",
    "PUBLIC_KEY_FILE",
    "SIGNATURE_FACT",
    "SITUATION",
    "STATUS_NOT_CHECKED",
    "KeyEntry",
    "KeyRing",
    "MissingKey",
    "PermitSummary",
    "Signer",
    "SigningKeyError",
    "Verification",
    "as_signer",
    "canonical_json",
    "decode_payload",
    "encode_summary",
    "is_praca_text",
    "key_id",
    "load_or_create_private_key",
    "load_public_key",
    "public_key_fingerprint",
    "sign_summary",
    "signed_text",
    "verify_text",
    "withdrawn",
]

PREFIX = "PRACA3"
JSON_PREFIX = "PRACA2"  # the same shape, the payload as JSON (issue 16 — issue 32)
LEGACY_PREFIX = "PRACA1"
#: The formats with a key id: ``<prefix>.<key id>.<payload>.<signature>``.
KEYED_PREFIXES = (PREFIX, JSON_PREFIX)
_SEPARATOR = "\x1f"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
PRIVATE_KEY_FILE = "ed25519-private.pem"
PUBLIC_KEY_FILE = "ed25519-public.pem"

# One letter per field keeps the QR small; the mapping is the wire format of PRACA1.
_WIRE = {
    "number": "n",
    "holder_name": "h",
    "holder_document": "d",
    "kind_label": "k",
    "place": "p",
    "valid_from": "f",
    "valid_until": "u",
    "regime_id": "r",
    "municipality": "m",
}
_FROM_WIRE = {v: k for k, v in _WIRE.items()}
_DATE_FIELDS = ("valid_from", "valid_until")
_B32 = re.compile(r"^[A-Z2-7]+$")
_SHAPE = re.compile(r"^PRACA\d+(\.[A-Za-z0-9_=+/-]+){2,3}$")
_KEY_ID = re.compile(r"^[A-Z2-7]{8}$")

Status = Literal["valid", "invalid", "expired", "withdrawn"]
PublicKeySource = Path | str | Ed25519PublicKey | bytes

STATUS_PT = {"valid": "válido", "invalid": "inválido", "expired": "vencido"}
SIGNATURE_FACT = "assinatura"
SITUATION = "situação"
#: Said of every answer that checked the signature only (``praca verify --key``, a page without the database).
STATUS_NOT_CHECKED = (
    "A situação da permissão (revogada, suspensa, cancelada) NÃO foi verificada: só a assinatura foi conferida. "
    "Confira no banco da prefeitura (praca verify --db) ou na página de verificação."
)


# --------------------------------------------------------------------------- errors


class SigningKeyError(UserError):
    """A key file is missing, unreadable or does not match its pair."""


class MissingKey(SigningKeyError):  # noqa: N818 - a public name the screens and the tests use
    """No public key where one was expected (verification never creates keys)."""


# --------------------------------------------------------------------------- summary


@dataclass(frozen=True)
class PermitSummary:
    """What the QR carries: enough for an inspector to match the card to the person and the place."""

    number: str
    holder_name: str
    holder_document: str  # CPF or CNPJ, compact
    kind_label: str
    place: str
    valid_from: dt.date
    valid_until: dt.date
    regime_id: str
    municipality: str

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _DATE_FIELDS:
                if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
                    raise TypeError(f"PermitSummary.{f.name} deve ser datetime.date")
            elif not isinstance(value, str):
                raise TypeError(f"PermitSummary.{f.name} deve ser texto")
        if not self.number.strip():
            raise UserError("O documento precisa de um número para ser assinado.", field="number")
        if self.valid_until < self.valid_from:
            raise UserError(
                f"Validade inconsistente: termina em {self.valid_until:%d/%m/%Y}, antes de começar "
                f"em {self.valid_from:%d/%m/%Y}.",
                field="valid_until",
            )

    def to_wire(self) -> dict[str, str]:
        data = asdict(self)
        out = {}
        for name, key in _WIRE.items():
            value = data[name]
            out[key] = value.strftime("%Y%m%d") if name in _DATE_FIELDS else value
        return out

    @classmethod
    def from_wire(cls, data: object) -> PermitSummary:
        """The summary from decoded JSON; ``ValueError`` if any key is missing, extra or mistyped."""
        if not isinstance(data, dict) or set(data) != set(_FROM_WIRE):
            raise ValueError("campos do resumo não conferem")
        values = {}
        for key, name in _FROM_WIRE.items():
            value = data[key]
            if not isinstance(value, str):
                raise ValueError(f"campo {key} não é texto")
            if name in _DATE_FIELDS:
                if not re.fullmatch(r"\d{8}", value):
                    raise ValueError(f"data inválida em {key}")
                value = dt.datetime.strptime(value, "%Y%m%d").date()
            values[name] = value
        try:
            return cls(**values)
        except (UserError, TypeError) as exc:
            raise ValueError(str(exc)) from None


@dataclass(frozen=True)
class Verification:
    """The result of reading a QR text.

    ``status`` is ``"valid"``, ``"invalid"`` or ``"expired"``; ``summary`` is
    given whenever the signature is authentic (valid or expired); ``message``
    is one pt-BR sentence for the inspector. ``malformed`` tells that the text
    is not shaped like a Praça QR at all (the command line exits 2 on it).
    """

    status: Status
    summary: PermitSummary | None
    message: str
    malformed: bool = False
    not_yet_in_force: bool = False
    key_id: str = ""  # the key that signed (authentic texts)
    standing: str = ""  # "withdrawn": the permit's word ("revogada", "suspensa", "cancelada")
    standing_since: dt.date | None = None
    #: what was checked, in pt-BR ("assinatura", "existência da permissão", "titular", "validade", "situação");
    #: a verification with a public key alone checks the signature only: the permit's status was not checked
    checked: tuple[str, ...] = ()
    key_revoked_on: dt.date | None = None  # the key that signed is revoked from this later day

    @property
    def status_checked(self) -> bool:
        return SITUATION in self.checked

    @property
    def ok(self) -> bool:
        return self.status == "valid"

    @property
    def status_pt(self) -> str:
        if self.status == "withdrawn":
            return self.standing
        return STATUS_PT[self.status]


# --------------------------------------------------------------------------- keys


def _private_path(key_dir: Path) -> Path:
    return Path(key_dir) / PRIVATE_KEY_FILE


def _public_path(key_dir: Path) -> Path:
    return Path(key_dir) / PUBLIC_KEY_FILE


def _public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _write_new(path: Path, data: bytes, mode: int) -> bool:
    """Write ``data`` to ``path`` through models/store/outfile.py (aside, synced, then linked), only if ``path``
    does not exist yet. Returns False when another process created it first (its file wins)."""
    from models.store.outfile import TargetExists, write_bytes

    try:
        write_bytes(path, data, kind="pem", mode=mode, exclusive=True)
    except TargetExists:
        return False
    return True


def load_or_create_private_key(key_dir: Path) -> Ed25519PrivateKey:
    """The municipality's signing key in ``key_dir``, generated on first use.

    The folder is created with 0700, the private key written with 0600, and
    the public key written beside it (re-written if it was deleted). A public
    file that does not match the private key is refused: somebody replaced it.
    """
    key_dir = Path(key_dir)
    key_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    private_path = _private_path(key_dir)
    if not private_path.exists():
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        _write_new(private_path, pem, 0o600)
    try:
        loaded = serialization.load_pem_private_key(private_path.read_bytes(), password=None)
    except (ValueError, TypeError, OSError) as exc:
        raise SigningKeyError(f"Não foi possível ler a chave privada {private_path}: {exc}", field="key") from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise SigningKeyError(f"A chave {private_path} não é Ed25519.", field="key")
    public_path = _public_path(key_dir)
    pem = _public_pem(loaded.public_key())
    if not public_path.exists():
        _write_new(public_path, pem, 0o644)
    existing = load_public_key(public_path)
    if _raw_public(existing) != _raw_public(loaded.public_key()):
        raise SigningKeyError(
            f"A chave pública {public_path} não corresponde à chave privada {private_path}: "
            "restaure o par original ou apague a chave pública para recriá-la.",
            field="key",
        )
    return loaded


def load_public_key(source: PublicKeySource) -> Ed25519PublicKey:
    """A public key from a key folder, a PEM file, PEM bytes, 32 raw bytes or a key object.

    Never creates a key: a folder without one raises :class:`MissingKey`.
    """
    if isinstance(source, Ed25519PublicKey):
        return source
    if isinstance(source, bytes):
        if len(source) == 32:
            return Ed25519PublicKey.from_public_bytes(source)
        return _public_from_pem(source, "chave informada")
    path = Path(source)
    if path.is_dir():
        path = _public_path(path)
    if not path.is_file():
        raise MissingKey(
            f"Chave pública não encontrada em {path}. Este computador ainda não emitiu documentos: "
            f"copie o arquivo {PUBLIC_KEY_FILE} da prefeitura para essa pasta.",
            field="key",
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SigningKeyError(f"Não foi possível ler a chave pública {path}: {exc}", field="key") from None
    return _public_from_pem(data, str(path))


def _public_from_pem(data: bytes, where: str) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise SigningKeyError(f"Chave pública ilegível ({where}): {exc}", field="key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningKeyError(f"A chave pública ({where}) não é Ed25519.", field="key")
    return key


def key_id(key: PublicKeySource | Ed25519PrivateKey) -> str:
    """The id a signed text names its key by: 8 base32 characters (SHA-256 of the raw public key, 40 bits)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else load_public_key(key)
    return _b32(hashlib.sha256(_raw_public(public)).digest()[:5])


@dataclass(frozen=True)
class Signer:
    """A private key ready to sign, and the id its texts carry."""

    private: Ed25519PrivateKey

    @property
    def key_id(self) -> str:
        return key_id(self.private)

    def sign(self, data: bytes) -> bytes:
        return self.private.sign(data)


@dataclass(frozen=True)
class KeyEntry:
    """One public key a municipality signed with; ``revoked_on``: from that day its signatures are refused."""

    public: Ed25519PublicKey
    revoked_on: dt.date | None = None

    @property
    def key_id(self) -> str:
        return key_id(self.public)


@dataclass(frozen=True)
class KeyRing:
    """Every key a verifier accepts, by key id."""

    entries: tuple[KeyEntry, ...]

    def get(self, kid: str) -> KeyEntry | None:
        return next((e for e in self.entries if e.key_id == kid), None)

    @classmethod
    def of(cls, key: PublicKeySource | KeyRing) -> KeyRing:
        if isinstance(key, KeyRing):
            return key
        return cls((KeyEntry(load_public_key(key)),))


def as_signer(key) -> Signer:
    """A :class:`Signer` from a signer, an object with ``signer()`` (the database's key, looked up when
    signing) or a key folder (its key created on first use)."""
    if isinstance(key, Signer):
        return key
    if hasattr(key, "signer"):
        return key.signer()
    return Signer(load_or_create_private_key(Path(key)))


def public_key_fingerprint(key: PublicKeySource | Ed25519PrivateKey) -> str:
    """A short, human-comparable id of a key pair: ``"3F2A-91C0-…"`` (SHA-256 of the raw public key, 64 bits)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else load_public_key(key)
    digest = hashlib.sha256(_raw_public(public)).hexdigest().upper()[:16]
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


# --------------------------------------------------------------------------- encoding


def canonical_json(data: dict) -> bytes:
    """Deterministic JSON: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=")


def _unb32(text: str) -> bytes:
    """Strict base32: upper case, no padding, and the canonical encoding of what it decodes to."""
    if not _B32.fullmatch(text):
        raise ValueError("caracteres fora do alfabeto")
    try:
        data = base64.b32decode(text + "=" * (-len(text) % 8))
    except (binascii.Error, ValueError):
        raise ValueError("base32 inválido") from None
    if _b32(data) != text:  # unused trailing bits set, or an impossible length
        raise ValueError("base32 não canônico")
    return data


def encode_summary(summary: PermitSummary, prefix: str = PREFIX) -> bytes:
    """The exact bytes that are signed: the compact fields (``PRACA3``) or canonical JSON (``PRACA1``/``2``).

    A field holding a control character (the separator among them) is refused: its text could not be told
    apart from the next field's."""
    wire = summary.to_wire()
    if prefix != PREFIX:
        return canonical_json(wire)
    for name, key in _WIRE.items():
        if _CONTROL.search(wire[key]):
            raise UserError(
                f"O campo {name} do documento tem um caractere de controle; corrija-o antes de assinar.", field=name
            )
    return _SEPARATOR.join(wire[key] for key in _WIRE.values()).encode("utf-8")


def decode_payload(payload: bytes, prefix: str = PREFIX) -> PermitSummary:
    """The summary from signed bytes of the format ``prefix``; ``ValueError`` unless they are its canonical
    encoding of a summary."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("UTF-8 inválido") from None
    if prefix == PREFIX:
        values = text.split(_SEPARATOR)
        if len(values) != len(_WIRE):
            raise ValueError("campos do resumo não conferem")
        data: object = dict(zip(_WIRE.values(), values, strict=True))
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise ValueError("JSON inválido") from None
    summary = PermitSummary.from_wire(data)
    try:
        canonical = encode_summary(summary, prefix)
    except UserError:
        raise ValueError("caractere de controle") from None
    if canonical != payload:
        raise ValueError("resumo não canônico")
    return summary


def sign_summary(summary: PermitSummary, key) -> str:
    """The QR text for ``summary``, signed by ``key`` (see :func:`as_signer`), in the compact ``PRACA3``."""
    signer = as_signer(key)
    signed = f"{PREFIX}.{signer.key_id}.{_b32(encode_summary(summary))}"
    return f"{signed}.{_b32(signer.sign(signed.encode('ascii')))}"


def signed_text(text: str) -> str:
    """The signed text in what a QR holds: the fragment of a verification address, or the text itself."""
    text = (text or "").strip()
    if "#" in text and text.split("#", 1)[0].lower().startswith(("https://", "http://")):
        return text.split("#", 1)[1]
    return text


def is_praca_text(text: str) -> bool:
    """Whether ``text`` is *shaped* like a Praça QR text (says nothing about its signature)."""
    return bool(_SHAPE.fullmatch(text or ""))


# --------------------------------------------------------------------------- verification


def _date_br(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


def verify_text(text: str, key: PublicKeySource | KeyRing, today: dt.date | None = None) -> Verification:
    """Check a QR text offline against the municipality's public keys.

    ``key`` is a :class:`KeyRing`, or one key: the key folder, the public key
    file, its PEM or raw bytes, or a key object. A missing key raises
    :class:`MissingKey`; everything wrong with the *text* gives
    ``status="invalid"`` (never an exception). An authentic text whose
    ``valid_until`` is before ``today`` is ``"expired"``. ``text`` may be the
    whole verification address the QR holds (:func:`signed_text`).
    """
    ring = KeyRing.of(key)
    today = today or dt.date.today()
    if not isinstance(text, str):
        text = ""
    text = signed_text(text)
    if not is_praca_text(text):
        return Verification(
            "invalid",
            None,
            "Texto não reconhecido: não é o QR code de um documento emitido pelo Praça.",
            malformed=True,
        )
    parts = text.split(".")
    prefix = parts[0]
    keyed = prefix in KEYED_PREFIXES
    if prefix not in (*KEYED_PREFIXES, LEGACY_PREFIX) or len(parts) != (4 if keyed else 3):
        return Verification(
            "invalid",
            None,
            f"Formato {prefix} desconhecido: esta versão do Praça lê {PREFIX}, {JSON_PREFIX} e {LEGACY_PREFIX}.",
            malformed=True,
        )
    forged = Verification(
        "invalid",
        None,
        "Documento inválido: a assinatura não confere. O texto foi alterado ou o documento "
        "não foi emitido por esta prefeitura.",
    )
    try:
        payload = _unb32(parts[-2])
        signature = _unb32(parts[-1])
    except ValueError:
        return forged
    if len(signature) != 64:
        return forged
    if keyed:
        entry = ring.get(parts[1]) if _KEY_ID.fullmatch(parts[1]) else None
        if entry is None:
            return Verification(
                "invalid",
                None,
                f"Documento inválido: foi assinado com uma chave ({parts[1]}) que esta prefeitura não tem. "
                "O documento não foi emitido por ela, ou a lista de chaves está desatualizada.",
            )
        candidates = [entry]
        signed = ".".join(parts[:3]).encode("ascii")
    else:
        candidates = list(ring.entries)
        signed = payload
    entry = None
    for candidate in candidates:
        try:
            candidate.public.verify(signature, signed)
        except InvalidSignature:
            continue
        entry = candidate
        break
    if entry is None:
        return forged
    try:
        summary = decode_payload(payload, prefix)
    except ValueError:
        # Authentic bytes that are not a summary: signed by this key, but not by Praça's format.
        return forged
    kid = entry.key_id
    if entry.revoked_on is not None and today >= entry.revoked_on:
        return Verification(
            "invalid",
            None,
            f"Documento inválido: a chave {kid} que o assinou foi revogada em {_date_br(entry.revoked_on)}; "
            "o titular deve pedir à prefeitura um documento novo.",
            key_id=kid,
            checked=(SIGNATURE_FACT,),
        )
    # a revocation from a later day: the signature is accepted until then, and the answer says so
    later = entry.revoked_on
    warning = (
        f" Atenção: a chave {kid} que o assinou está revogada a partir de {_date_br(later)}; desse dia em diante "
        "este documento não vale mais e o titular deve pedir à prefeitura um documento novo."
        if later is not None
        else ""
    )
    if today > summary.valid_until:
        return Verification(
            "expired",
            summary,
            f"Documento vencido em {_date_br(summary.valid_until)}: a assinatura é autêntica, "
            "mas a permissão não vale mais.",
            key_id=kid,
            checked=(SIGNATURE_FACT,),
            key_revoked_on=later,
        )
    if today < summary.valid_from:
        return Verification(
            "valid",
            summary,
            f"Assinatura autêntica; atenção: a permissão só começa a valer em {_date_br(summary.valid_from)} "
            f"(válida até {_date_br(summary.valid_until)})." + warning,
            not_yet_in_force=True,
            key_id=kid,
            checked=(SIGNATURE_FACT,),
            key_revoked_on=later,
        )
    return Verification(
        "valid",
        summary,
        f"Documento válido: assinatura autêntica da Prefeitura de {summary.municipality}; "
        f"vale até {_date_br(summary.valid_until)}." + warning,
        key_id=kid,
        checked=(SIGNATURE_FACT,),
        key_revoked_on=later,
    )


def withdrawn(result: Verification, word: str, since: dt.date | None) -> Verification:
    """``result`` (authentic) for a permit the database says is no longer in force: "revogada desde …"."""
    when = f" desde {_date_br(since)}" if since else ""
    return dataclasses.replace(
        result,
        status="withdrawn",
        standing=word,
        standing_since=since,
        not_yet_in_force=False,
        message=f"Permissão {word}{when}: a assinatura é autêntica, mas a permissão não está em vigor.",
    )
