"""The municipality's private key under a memory-hard KDF, and every KDF a file asks for bounded (issue 26 §5).

The key was kept as a PKCS#8 PEM under PBKDF2 with 2,048 iterations (about 4,000 guesses a second on one core
for whoever copied a database or a backup): it is now wrapped with scrypt at OWASP's setting, an old key is
wrapped again the next time a desk unlocks it, and a key envelope, an old PEM or an encrypted backup's header that
asks for more memory or work than Praça allows is refused before anything is derived.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from factories import PASS, make_summary

from desktop.cli import main
from models.access import key_envelope
from models.access import signing_keys as sk
from models.access.signing import key_id, sign_summary, verify_text
from models.base.errors import UserError
from models.store import sealed
from models.store.audit import AuditEntry

#: What Praça wraps a key with (read before tests/factories.py's fixture makes it light for the other tests).
PRODUCTION = dict(key_envelope.KEY_KDF)


def other_desk(vault: dict) -> None:
    sk._session.clear()
    sk._private.clear()
    vault.clear()


def _envelope(row) -> dict:
    assert row.private_pem.startswith(key_envelope.ENVELOPE)
    return json.loads(row.private_pem[len(key_envelope.ENVELOPE) :])


def _no_work(monkeypatch, module) -> list:
    """Fail the test if ``module`` derives a key (scrypt) or loads a PEM: a refusal must come before any work."""
    calls: list = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("a KDF ran before its parameters were checked")

    monkeypatch.setattr(module, "Scrypt", refuse)
    if hasattr(module, "serialization"):
        monkeypatch.setattr(module.serialization, "load_pem_private_key", refuse)
    return calls


def test_a_new_key_is_wrapped_with_scrypt_at_owasp_parameters(database, fresh_desk, monkeypatch):
    assert PRODUCTION == {"n": 2**17, "r": 8, "p": 1}  # OWASP Password Storage Cheat Sheet: 128 MiB, r=8, p=1
    monkeypatch.setattr(key_envelope, "KEY_KDF", PRODUCTION)
    row = sk.create_key(PASS)
    envelope = _envelope(row)
    assert {k: envelope[k] for k in ("n", "r", "p")} == PRODUCTION
    assert envelope["kdf"] == "scrypt" and envelope["cipher"] == "AES-256-GCM" and envelope["key_id"] == row.key_id
    assert "PRIVATE KEY" not in row.private_pem and PASS not in row.private_pem
    other_desk(fresh_desk)
    with pytest.raises(UserError, match=f"Senha incorreta para a chave {row.key_id}"):
        sk.unlock("uma senha que não é a dela")
    sk.unlock(PASS)
    text = sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    assert text.split(".")[1] == row.key_id and verify_text(text, sk.key_ring(), today=dt.date(2026, 3, 28)).ok
    # the envelope's header is authenticated: another key id, or lighter parameters, break it
    for change in ({"key_id": "AAAAAAAA"}, {"n": 2**10}):
        forged = key_envelope.ENVELOPE + json.dumps({**envelope, **change})
        with pytest.raises(UserError):
            key_envelope.unwrap(forged, PASS, row.key_id)


def _old_key_row(passphrase: str = PASS) -> tuple[sk.SigningKey, Ed25519PrivateKey]:
    """A key as Praça kept it before issue 26: PKCS#8 PEM under PBKDF2 with 2,048 iterations."""
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode()),
    ).decode()
    row = sk.SigningKey.create(
        key_id=key_id(private),
        public_key=private.public_key().public_bytes_raw().hex(),
        private_pem=pem,
        origin="created",
        created_at=dt.datetime(2026, 1, 5, 9, 0),
        created_by="admin",
    )
    return row, private


def test_an_old_pbkdf2_key_is_wrapped_again_on_the_next_unlock(database, fresh_desk):
    row, private = _old_key_row()
    assert row.private_pem.startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    with pytest.raises(UserError, match="Senha incorreta"):
        sk.unlock("uma senha que não é a dela")
    assert sk.SigningKey.get_by_id(row.id).private_pem == row.private_pem  # nothing changed on a wrong passphrase
    sk.unlock(PASS)
    stored = sk.SigningKey.get_by_id(row.id)
    assert {k: _envelope(stored)[k] for k in ("n", "r", "p")} == key_envelope.KEY_KDF
    assert stored.key_id == row.key_id and stored.public_key == row.public_key  # the same key, wrapped anew
    assert key_envelope.unwrap(stored.private_pem, PASS, row.key_id).private_bytes_raw() == private.private_bytes_raw()
    rewrap = AuditEntry.select().where((AuditEntry.table_name == "signing_key") & (AuditEntry.action == "update"))
    assert rewrap.count() == 1  # audited as any write
    other_desk(fresh_desk)
    sk.unlock(PASS)  # the new envelope opens on another desk
    assert sk.is_unlocked()


def test_an_old_key_unlocked_from_the_keyring_is_wrapped_again_too(database, fresh_desk):
    row, _ = _old_key_row()
    fresh_desk[row.key_id] = PASS  # the passphrase this desk kept in the system keyring before the upgrade
    assert sk.is_unlocked()
    assert sk.SigningKey.get_by_id(row.id).private_pem.startswith(key_envelope.ENVELOPE)


def test_a_stale_passphrase_in_the_keyring_costs_one_derivation_not_one_per_look(database, fresh_desk, monkeypatch):
    row = sk.create_key(PASS)
    other_desk(fresh_desk)
    fresh_desk[row.key_id] = "a senha de antes da troca"  # the keyring kept an old passphrase
    derived = []
    real = key_envelope.Scrypt

    def counted(*args, **kwargs):
        derived.append(kwargs.get("n"))
        return real(*args, **kwargs)

    monkeypatch.setattr(key_envelope, "Scrypt", counted)
    assert not sk.is_unlocked() and not sk.is_unlocked() and not sk.is_unlocked()  # the screen asks often
    assert len(derived) == 1
    sk.unlock(PASS)
    assert sk.is_unlocked() and len(derived) == 2


def test_a_key_envelope_asking_too_much_is_refused_at_once(database, fresh_desk, monkeypatch):
    row = sk.create_key(PASS)
    hostile = {**_envelope(row), "n": 2**20, "r": 16}  # 2 GiB of memory for each guess
    sk.SigningKey.update(private_pem=key_envelope.ENVELOPE + json.dumps(hostile)).where(
        sk.SigningKey.id == row.id
    ).execute()
    other_desk(fresh_desk)
    calls = _no_work(monkeypatch, key_envelope)
    with pytest.raises(UserError) as refused:
        sk.unlock(PASS)
    message = str(refused.value)
    assert "\n" not in message and "scrypt n=1048576, r=16" in message and "acima do limite" in message
    assert calls == [] and not sk.is_unlocked()


def _der(tag: int, content: bytes) -> bytes:
    length = len(content)
    head = bytes([length]) if length < 0x80 else bytes([0x82]) + length.to_bytes(2, "big")
    return bytes([tag]) + head + content


def _pem_with_iterations(iterations: int) -> str:
    """An encrypted PKCS#8 PEM (PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC) asking ``iterations``."""
    oid = lambda hex_: _der(0x06, bytes.fromhex(hex_))  # noqa: E731
    pbkdf2 = _der(
        0x30,
        oid("2a864886f70d01050c")
        + _der(
            0x30,
            _der(0x04, os.urandom(16))
            + _der(0x02, iterations.to_bytes(8, "big").lstrip(b"\0"))
            + _der(0x30, oid("2a864886f70d0209") + _der(0x05, b"")),  # hmacWithSHA256
        ),
    )
    cipher = _der(0x30, oid("60864801650304012a") + _der(0x04, os.urandom(16)))  # aes256-CBC and its IV
    algorithm = _der(0x30, oid("2a864886f70d01050d") + _der(0x30, pbkdf2 + cipher))
    der = _der(0x30, algorithm + _der(0x04, os.urandom(48)))
    body = base64.encodebytes(der).decode().strip()
    return f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{body}\n-----END ENCRYPTED PRIVATE KEY-----\n"


def test_an_old_pem_asking_a_billion_iterations_is_refused_before_any_work(database, fresh_desk, monkeypatch):
    row, _ = _old_key_row()
    sk.SigningKey.update(private_pem=_pem_with_iterations(10**9)).where(sk.SigningKey.id == row.id).execute()
    calls = _no_work(monkeypatch, key_envelope)
    with pytest.raises(UserError, match="1000000000 iterações de PBKDF2, acima do limite"):
        sk.unlock(PASS)
    assert calls == []
    key_envelope.check_pem(_pem_with_iterations(2048), "a chave")  # what Praça wrote is read


def _hostile_backup(tmp_path, **params):
    header = {"kdf": "scrypt", "n": 2**15, "r": 8, "p": 1, "salt": "00" * 16, "cipher": "AES-256-GCM"}
    header.update(nonce="00" * 12, **params)
    path = tmp_path / "hostil.praca-backup"
    path.write_bytes(sealed.MAGIC + json.dumps(header).encode() + b"\n" + os.urandom(64))
    return path


def test_an_encrypted_backup_asking_two_gib_is_refused_at_once(tmp_path, monkeypatch, capsys, sqlite_url):
    path = _hostile_backup(tmp_path, n=2**20, r=16)
    monkeypatch.setenv("PRACA_BACKUP_PASSPHRASE", "uma senha bem comprida")
    with monkeypatch.context() as patched:
        calls = _no_work(patched, sealed)
        with pytest.raises(UserError, match=r"scrypt n=1048576, r=16, p=1\) acima do limite"):
            sealed.decrypt(path.read_bytes(), "uma senha bem comprida", path.name)
        assert main(["restore", "--db", sqlite_url, str(path), "--check"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "acima do limite" in err and "hostil.praca-backup" in err
        assert calls == []
    # what Praça writes is within the bounds, and a wrong passphrase is still told as such
    ours = sealed.encrypt(b"dados", "a senha do backup cifrado")
    assert sealed.decrypt(ours, "a senha do backup cifrado", "b") == b"dados"
    with pytest.raises(UserError, match="Senha incorreta"):
        sealed.decrypt(ours, "outra senha qualquer", "b")
