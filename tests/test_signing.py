"""Signed QR texts (models.access.signing) and ``praca verify``."""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import stat
import sys

import pytest
import segno
from factories import SIGNING_TODAY as TODAY
from factories import make_summary
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.cli import main
from models.access.signing import (
    PREFIX,
    PRIVATE_KEY_FILE,
    PUBLIC_KEY_FILE,
    KeyEntry,
    KeyRing,
    MissingKey,
    SigningKeyError,
    canonical_json,
    key_id,
    load_or_create_private_key,
    load_public_key,
    public_key_fingerprint,
    sign_summary,
    signed_text,
    verify_text,
)
from models.base.errors import UserError

QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """One key and one signed text for the property tests (key generation once per module)."""
    key_dir = tmp_path_factory.mktemp("keys")
    return key_dir, sign_summary(make_summary(), key_dir)


def _b32decode(text: str) -> bytes:
    return base64.b32decode(text + "=" * (-len(text) % 8))


# --------------------------------------------------------------------------- round trip and format


def test_round_trip(tmp_path):
    summary = make_summary()
    text = sign_summary(summary, tmp_path / "keys")
    result = verify_text(text, tmp_path / "keys", today=TODAY)
    assert result.status == "valid" and result.ok
    assert result.summary == summary
    assert result.status_pt == "válido"
    assert "São Bento do Sapucaí" in result.message and "29/03/2026" in result.message
    assert not result.malformed


def test_text_shape_is_qr_alphanumeric_and_payload_is_compact(signed):
    """PRACA3 (issue 32 §2): the nine fields in a fixed order, separated by U+001F, no JSON keys or quotes."""
    _key_dir, text = signed
    prefix, kid, payload, signature = text.split(".")
    assert prefix == PREFIX == "PRACA3"
    assert kid == key_id(_key_dir) and len(kid) == 8
    assert set(text) <= QR_ALPHANUMERIC  # the whole text fits QR alphanumeric mode
    raw = _b32decode(payload)
    summary = make_summary()
    assert raw.decode("utf-8").split("\x1f") == [
        summary.number,
        summary.holder_name,
        summary.holder_document,
        summary.kind_label,
        summary.place,
        "20260327",
        "20260329",
        summary.regime_id,
        summary.municipality,
    ]
    assert "São Bento do Sapucaí".encode() in raw  # UTF-8 kept
    assert len(_b32decode(signature)) == 64
    # the signature covers the version and the key id, not only the payload
    load_public_key(_key_dir).verify(_b32decode(signature), f"{prefix}.{kid}.{payload}".encode("ascii"))
    # shorter than the JSON payload of PRACA2 by every key, quote and comma
    json_payload = canonical_json(summary.to_wire())
    assert len(json_payload) - len(raw) >= 40


def _json_text(summary, key_dir) -> str:
    """A PRACA2 text as desks before issue 32 signed it (JSON payload)."""
    from models.access.signing import _b32, as_signer

    signer = as_signer(key_dir)
    signed = f"PRACA2.{signer.key_id}.{_b32(canonical_json(summary.to_wire()))}"
    return f"{signed}.{_b32(signer.sign(signed.encode('ascii')))}"


def test_json_format_still_reads(tmp_path):
    """Cards printed with PRACA2 (JSON payload) keep verifying; the same payload under PRACA3 does not."""
    summary = make_summary()
    text = _json_text(summary, tmp_path / "k")
    result = verify_text(text, tmp_path / "k", today=TODAY)
    assert result.status == "valid" and result.summary == summary
    assert verify_text("PRACA3" + text[6:], tmp_path / "k", today=TODAY).status == "invalid"
    # a compact text relabelled PRACA2 is refused too (the version is signed)
    compact = sign_summary(summary, tmp_path / "k")
    assert verify_text("PRACA2" + compact[6:], tmp_path / "k", today=TODAY).status == "invalid"


def test_compact_payload_refuses_a_control_character(tmp_path):
    """A field with the separator could pass for two fields: it is refused when signing, never signed."""
    with pytest.raises(UserError, match="caractere de controle"):
        sign_summary(make_summary(holder_name="Maria\x1fSilva"), tmp_path / "k")


def test_qr_fits_an_id_card(signed):
    _key_dir, text = signed
    qr = segno.make(text, error="m", micro=False)
    assert qr.mode == "alphanumeric"
    assert qr.version <= 15  # ≤ 77 modules: 0,5 mm a module in the card's 41 mm square


def test_signature_is_deterministic_and_key_reused(tmp_path):
    key_dir = tmp_path / "keys"
    first = sign_summary(make_summary(), key_dir)
    private_before = (key_dir / PRIVATE_KEY_FILE).read_bytes()
    public_before = (key_dir / PUBLIC_KEY_FILE).read_bytes()
    second = sign_summary(make_summary(), key_dir)
    assert first == second  # Ed25519 is deterministic: same key, same summary, same text
    assert (key_dir / PRIVATE_KEY_FILE).read_bytes() == private_before
    assert (key_dir / PUBLIC_KEY_FILE).read_bytes() == public_before
    assert public_before.startswith(b"-----BEGIN PUBLIC KEY-----")
    assert private_before.startswith(b"-----BEGIN PRIVATE KEY-----")
    assert public_key_fingerprint(key_dir) == public_key_fingerprint(load_or_create_private_key(key_dir))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_private_key_is_0600(tmp_path):
    key_dir = tmp_path / "keys"
    load_or_create_private_key(key_dir)
    assert stat.S_IMODE(os.stat(key_dir / PRIVATE_KEY_FILE).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(key_dir).st_mode) & 0o077 == 0


def test_deleted_public_key_is_recreated_and_a_foreign_one_refused(tmp_path):
    key_dir = tmp_path / "keys"
    key = load_or_create_private_key(key_dir)
    (key_dir / PUBLIC_KEY_FILE).unlink()
    load_or_create_private_key(key_dir)
    assert public_key_fingerprint(key_dir) == public_key_fingerprint(key)
    other = tmp_path / "other"
    load_or_create_private_key(other)
    (key_dir / PUBLIC_KEY_FILE).write_bytes((other / PUBLIC_KEY_FILE).read_bytes())
    with pytest.raises(SigningKeyError, match="não corresponde"):
        load_or_create_private_key(key_dir)


def test_public_key_sources_agree(tmp_path):
    key_dir = tmp_path / "keys"
    text = sign_summary(make_summary(), key_dir)
    pem_file = key_dir / PUBLIC_KEY_FILE
    key = load_public_key(key_dir)
    for source in (key_dir, pem_file, str(pem_file), pem_file.read_bytes(), key, key.public_bytes_raw()):
        assert verify_text(text, source, today=TODAY).status == "valid"


def test_verification_never_creates_a_key(tmp_path):
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(MissingKey):
        verify_text("PRACA2.AAAAAAAA.AAAA.AAAA", empty)
    assert list(empty.iterdir()) == []


def test_a_different_key_is_invalid(tmp_path):
    text = sign_summary(make_summary(), tmp_path / "a")
    load_or_create_private_key(tmp_path / "b")
    result = verify_text(text, tmp_path / "b", today=TODAY)
    assert result.status == "invalid"
    assert result.summary is None
    assert key_id(tmp_path / "a") in result.message and "que esta prefeitura não tem" in result.message
    assert not result.malformed


def test_a_foreign_signature_under_a_known_key_id_is_invalid(tmp_path):
    """Naming the municipality's key id does not help a forger: the signature is checked with that key."""
    genuine = sign_summary(make_summary(), tmp_path / "a")
    forged = sign_summary(make_summary(valid_until=dt.date(2030, 1, 1)), tmp_path / "b")
    kid_a = genuine.split(".")[1]
    parts = forged.split(".")
    result = verify_text(".".join([parts[0], kid_a, *parts[2:]]), tmp_path / "a", today=TODAY)
    assert result.status == "invalid" and "assinatura não confere" in result.message


def test_first_format_still_reads(tmp_path):
    """PRACA1 (no key id, signature over the payload) from desks before the municipal key."""
    from models.access.signing import _b32, encode_summary

    key = load_or_create_private_key(tmp_path / "old")
    payload = encode_summary(make_summary(), "PRACA1")
    legacy = f"PRACA1.{_b32(payload)}.{_b32(key.sign(payload))}"
    other = load_or_create_private_key(tmp_path / "new").public_key()
    ring = KeyRing((KeyEntry(other), KeyEntry(key.public_key())))
    assert verify_text(legacy, ring, today=TODAY).status == "valid"
    assert verify_text(legacy, other, today=TODAY).status == "invalid"


def test_key_ring_rotation_and_revocation(tmp_path):
    old_text = sign_summary(make_summary(), tmp_path / "old")
    new_text = sign_summary(make_summary(), tmp_path / "new")
    old, new = load_public_key(tmp_path / "old"), load_public_key(tmp_path / "new")
    ring = KeyRing((KeyEntry(old), KeyEntry(new)))
    assert verify_text(old_text, ring, today=TODAY).key_id == key_id(old)  # a rotated key still verifies
    assert verify_text(new_text, ring, today=TODAY).key_id == key_id(new)
    revoked = KeyRing((KeyEntry(old, revoked_on=TODAY), KeyEntry(new)))
    assert verify_text(old_text, revoked, today=TODAY - dt.timedelta(days=1)).ok
    result = verify_text(old_text, revoked, today=TODAY)
    assert result.status == "invalid" and result.summary is None
    assert f"chave {key_id(old)} que o assinou foi revogada em 28/03/2026" in result.message
    assert verify_text(new_text, revoked, today=TODAY).ok


def test_verification_address_carries_the_text(signed):
    key_dir, text = signed
    assert signed_text(f"https://www.olimpia.sp.gov.br/verificar.html#{text}") == text
    assert verify_text(f"https://www.olimpia.sp.gov.br/verificar.html#{text}", key_dir, today=TODAY).ok
    assert verify_text(f"  {text}\n", key_dir, today=TODAY).ok


def test_expiry(signed):
    key_dir, text = signed
    assert verify_text(text, key_dir, today=dt.date(2026, 3, 29)).status == "valid"  # last day still valid
    expired = verify_text(text, key_dir, today=dt.date(2026, 3, 30))
    assert expired.status == "expired" and expired.status_pt == "vencido"
    assert expired.summary == make_summary()  # authentic: the inspector still sees what it was
    assert "vencido em 29/03/2026" in expired.message


def test_not_yet_in_force_is_flagged(signed):
    key_dir, text = signed
    early = verify_text(text, key_dir, today=dt.date(2026, 3, 1))
    assert early.status == "valid" and early.not_yet_in_force
    assert "só começa a valer em 27/03/2026" in early.message


def test_summary_refuses_inconsistent_dates_and_empty_number():
    with pytest.raises(UserError, match="Validade inconsistente"):
        make_summary(valid_from=dt.date(2026, 4, 1))
    with pytest.raises(UserError, match="número"):
        make_summary(number=" ")
    with pytest.raises(TypeError):
        make_summary(valid_until=dt.datetime(2026, 3, 29, 12, 0))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "PRACA1",
        "PRACA1..",
        "PRACA2.AAAA.BBBB",
        "praca1.AAAA.BBBB",
        "PRACA1.AAAA.BBBB.CCCC",
        "PRACA4.AAAAAAAA.BBBB.CCCC",
        "https://example.org/?q=PRACA1.AAAA.BBBB",
    ],
)
def test_malformed_texts_are_invalid_and_flagged(signed, text):
    key_dir, _ = signed
    result = verify_text(text, key_dir, today=TODAY)
    assert result.status == "invalid" and result.malformed and result.summary is None


# --------------------------------------------------------------------------- tampering


def test_every_position_changed_is_invalid(signed):
    """Deterministic sweep: each character replaced by a neighbour in the base32 alphabet, or by its lower case."""
    key_dir, text = signed
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    for index, char in enumerate(text):
        replacements = {alphabet[(alphabet.index(char) + 1) % 32] if char in alphabet else "A", char.lower()}
        for new in replacements - {char}:
            tampered = text[:index] + new + text[index + 1 :]
            assert verify_text(tampered, key_dir, today=TODAY).status == "invalid", (index, char, new)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_any_single_character_change_is_invalid(signed, data):
    key_dir, text = signed
    index = data.draw(st.integers(min_value=0, max_value=len(text) - 1), label="index")
    new = data.draw(st.characters(codec="utf-8").filter(lambda c: c != text[index]), label="char")
    tampered = text[:index] + new + text[index + 1 :]
    assert verify_text(tampered, key_dir, today=TODAY).status == "invalid"


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_any_single_insertion_or_deletion_is_invalid(signed, data):
    key_dir, text = signed
    index = data.draw(st.integers(min_value=0, max_value=len(text) - 1), label="index")
    if data.draw(st.booleans(), label="delete"):
        tampered = text[:index] + text[index + 1 :]
    else:
        tampered = text[:index] + data.draw(st.characters(codec="utf-8"), label="char") + text[index:]
    if tampered.strip() == text:  # whitespace a scanner adds around the text: the signed text is unchanged
        assert verify_text(tampered, key_dir, today=TODAY).status == "valid"
        return
    assert verify_text(tampered, key_dir, today=TODAY).status == "invalid"


def test_resigned_payload_with_foreign_key_is_invalid(signed, tmp_path):
    """A forger who changes the validity and signs with their own key gets "inválido"."""
    key_dir, _ = signed
    forged = sign_summary(make_summary(valid_until=dt.date(2030, 1, 1)), tmp_path / "forger")
    assert verify_text(forged, key_dir, today=TODAY).status == "invalid"


# --------------------------------------------------------------------------- praca verify


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    import desktop.paths

    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setattr(desktop.paths, "data_dir", lambda: folder)
    return folder


def _issue(data_folder, **changes) -> str:
    return sign_summary(make_summary(**changes), data_folder / "keys")


def test_cli_valid(data_folder, capsys):
    text = _issue(
        data_folder,
        valid_until=dt.date.today() + dt.timedelta(days=30),
        valid_from=dt.date.today() - dt.timedelta(days=1),
    )
    assert main(["verify", text]) == 0
    out = capsys.readouterr().out
    assert out.startswith("válido — ")
    assert "Pastelaria Serra da Mantiqueira Ltda" in out
    assert "CNPJ 12.345.678/0001-95" in out
    assert "2026/000012" in out


def test_cli_expired_and_invalid_exit_1(data_folder, capsys):
    expired = _issue(data_folder, valid_from=dt.date(2020, 1, 1), valid_until=dt.date(2020, 1, 31))
    assert main(["verify", expired]) == 1
    assert capsys.readouterr().out.startswith("vencido — Documento vencido em 31/01/2020")
    tampered = expired[:-3] + ("A" if expired[-3] != "A" else "B") + expired[-2:]
    assert main(["verify", tampered]) == 1
    out = capsys.readouterr().out
    assert out.startswith("inválido — ")
    assert "Pastelaria" not in out  # nothing of an unauthenticated text is shown


def test_cli_json(data_folder, capsys):
    text = _issue(data_folder, valid_from=dt.date(2020, 1, 1), valid_until=dt.date(2020, 1, 31))
    assert main(["verify", text, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "expired" and data["status_pt"] == "vencido"
    assert data["summary"]["holder_document"] == "12345678000195"
    assert data["summary"]["valid_until"] == "2020-01-31"
    assert data["key"] == key_id(data_folder / "keys")


def test_cli_malformed_is_one_line_exit_2(data_folder, capsys):
    _issue(data_folder)
    assert main(["verify", "isto não é um QR"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("praca: Texto não reconhecido")


def test_cli_without_key_is_exit_2(data_folder, capsys):
    assert main(["verify", "PRACA2.AAAAAAAA.AAAA.AAAA"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Chave pública não encontrada" in err
    assert not (data_folder / "keys").exists()


def test_cli_reads_stdin_and_takes_a_key_file(data_folder, tmp_path, capsys, monkeypatch):
    import io

    text = sign_summary(
        make_summary(valid_from=dt.date.today() - dt.timedelta(days=1), valid_until=dt.date.today()),
        tmp_path / "elsewhere",
    )
    monkeypatch.setattr(sys, "stdin", io.StringIO(text + "\n"))
    assert main(["verify", "-", "--key", str(tmp_path / "elsewhere" / PUBLIC_KEY_FILE)]) == 0
    assert capsys.readouterr().out.startswith("válido")
