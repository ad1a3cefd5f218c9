"""One municipality, one signature (issue 17 §3): the signing key lives in the database, every desk signs with
it and every desk verifies against it; ``praca verify`` says a withdrawn permit's status (issue 16 §7)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from factories import PASS, make_summary, open_new_database, person, tpu
from factories import SIGNING_TODAY as TODAY

from desktop.cli import main
from models.access import key_envelope
from models.access import signing_keys as sk
from models.access.signing import SigningKeyError, sign_summary, verify_text
from models.base.errors import UserError
from models.permits import revoke, signatures, suspend

ROOT = Path(__file__).resolve().parent.parent


def other_desk(vault: dict | None = None) -> None:
    """What another desk of the same database knows: nothing in memory, its own (empty) keyring."""
    sk._session.clear()
    sk._private.clear()
    if vault is not None:
        vault.clear()


def signature_ok(text: str, today: dt.date = TODAY) -> bool:
    """The signature alone against the database's keys (a summary that is no permit of this database: what
    ``praca verify --db`` answers for it is tests/test_key_wrapping.py's)."""
    return verify_text(text, sk.key_ring(), today=today).ok


def test_private_key_is_stored_encrypted(database):
    row = sk.create_key(PASS)
    assert row.private_pem.startswith(key_envelope.ENVELOPE) and PASS not in row.private_pem
    with pytest.raises(UserError, match="Senha incorreta"):  # no passphrase, no key
        key_envelope.unwrap(row.private_pem, "", row.key_id)
    key = key_envelope.unwrap(row.private_pem, PASS, row.key_id)
    assert sk.SigningKey.get().public_key == key.public_key().public_bytes_raw().hex()
    with pytest.raises(UserError, match="já tem a chave"):
        sk.create_key(PASS)
    with pytest.raises(UserError, match="pelo menos 12"):
        sk.rotate_key("curta", today=TODAY)


def test_every_desk_signs_with_the_municipal_key(database, fresh_desk):
    with pytest.raises(SigningKeyError, match="ainda não tem chave"):
        sk.municipal_signer()
    row = sk.create_key(PASS)
    text_a = sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    assert text_a.split(".")[1] == row.key_id
    other_desk(fresh_desk)  # desk B: same database, nothing of desk A's memory or keyring
    with pytest.raises(SigningKeyError, match="Esta mesa ainda não pode assinar"):
        sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    with pytest.raises(UserError, match="Senha incorreta"):
        sk.unlock("uma senha que não é a dela")
    assert not sk.is_unlocked()
    assert sk.unlock(PASS) is True and fresh_desk == {row.key_id: PASS}
    text_b = sign_summary(make_summary(number="2026/000013"), sk.MUNICIPAL_KEY)
    other_desk()  # desk B again after a restart: the keyring remembers
    assert sk.is_unlocked()
    for text in (text_a, text_b):
        assert signature_ok(text)
    sk.forget()
    assert not sk.is_unlocked() and fresh_desk == {}


def test_rotation_keeps_old_signatures_and_revocation_refuses_them(database):
    first = sk.create_key(PASS)
    old = sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    second = sk.rotate_key("a nova senha da chave", today=TODAY)
    new = sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    assert new.split(".")[1] == second.key_id != first.key_id
    assert signature_ok(old) and signature_ok(new)
    assert [r.state for r in sk.key_rows()] == ["substituída em 28/03/2026", "em uso"]
    sk.revoke_key(first.key_id, on=TODAY, reason="notebook furtado")
    assert signature_ok(old, today=TODAY - dt.timedelta(days=1))
    refused = signatures.verify_here(old, today=TODAY)
    assert refused.status == "invalid" and "revogada em 28/03/2026" in refused.message
    assert signature_ok(new)
    with pytest.raises(UserError, match="motivo"):
        sk.revoke_key(second.key_id, on=TODAY, reason=" ")
    sk.revoke_key(second.key_id, on=TODAY, reason="senha vazada")
    with pytest.raises(SigningKeyError, match="ainda não tem chave"):
        sk.municipal_signer()


def test_an_old_desk_key_is_kept_for_verification(database, tmp_path):
    old_text = sign_summary(make_summary(), tmp_path / "old-desk")  # what a desk signed before v18
    sk.create_key(PASS)
    assert not signature_ok(old_text)
    added = sk.add_public_key(tmp_path / "old-desk")
    assert signature_ok(old_text)
    assert sk.key_rows()[-1].state == "só verificação (mesa antiga)"
    assert sk.active_key().key_id != added.key_id  # it never signs
    with pytest.raises(UserError, match="já está no cadastro"):
        sk.add_public_key(tmp_path / "old-desk" / "ed25519-public.pem")


def test_verify_url_goes_into_the_qr(database):
    assert sk.qr_content("PRACA2.X") == "PRACA2.X"
    with pytest.raises(UserError, match="https://"):
        sk.set_verify_url("http://prefeitura.gov.br/v.html")
    sk.set_verify_url("https://www.olimpia.sp.gov.br/verificar.html")
    assert sk.qr_content("PRACA2.X") == "https://www.olimpia.sp.gov.br/verificar.html#PRACA2.X"


def test_card_qr_with_the_address_stays_small(database):
    """The address in byte mode and the text in alphanumeric mode: the card's QR stays within version 16."""
    import segno

    from reports.permit_docs import qr_modules, qr_segments

    sk.create_key(PASS)
    sk.set_verify_url("https://www.saobentodosapucai.sp.gov.br/verificar.html")
    content = sk.qr_content(sign_summary(make_summary(), sk.MUNICIPAL_KEY))
    qr = segno.make(qr_segments(content), error="m", micro=False)
    assert qr.version <= 16 and len(qr_modules(content)) == qr.version * 4 + 17
    assert segno.make(content, error="m", micro=False).version > qr.version


# --------------------------------------------------------------------------- two desks, two processes


_DESK_B = """
import sys
from models.store.bootstrap import open_database
from models.access.signing_keys import MUNICIPAL_KEY
from models.access.signing import sign_summary
from factories import SIGNING_TODAY as TODAY, make_summary
open_database(sys.argv[1])
print(sign_summary(make_summary(number="2026/000099"), MUNICIPAL_KEY))
"""


def _desk_b(*args, passphrase: str | None = PASS, code: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != sk.PASSPHRASE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")])
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    if passphrase:
        env[sk.PASSPHRASE_ENV] = passphrase
    argv = [sys.executable, "-c", code] if code else [sys.executable, "-m", "desktop"]
    return subprocess.run([*argv, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def test_two_desks_on_one_database_verify_each_other(database, capsys, tmp_path):
    from models.store.files import set_store

    set_store(tmp_path / "files")
    sk.create_key(PASS)
    signed_here = tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"), on=dt.date.today()).qr_text
    locked = _desk_b(database, passphrase=None, code=_DESK_B)
    assert locked.returncode != 0 and "Esta mesa ainda não pode assinar" in locked.stderr
    desk_b = _desk_b(database, code=_DESK_B)
    assert desk_b.returncode == 0, desk_b.stderr
    signed_there = desk_b.stdout.strip()
    assert signature_ok(signed_there)  # desk B's signature verifies here
    there = _desk_b("verify", signed_here, "--db", database, passphrase=None)  # and desk A's there
    assert there.returncode == 0 and there.stdout.startswith("válido — "), there.stderr
    tampered = signed_there[:40] + ("A" if signed_there[40] != "A" else "B") + signed_there[41:]
    assert main(["verify", tampered, "--db", database]) == 1
    assert capsys.readouterr().out.startswith("inválido — ")


# --------------------------------------------------------------------------- status in the database (issue 16 §7)


@pytest.fixture
def permit(database, tmp_path):
    from models.store.files import set_store

    set_store(tmp_path / "files")
    sk.create_key(PASS)
    return tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"))


def test_verify_says_revoked_since(permit, capsys, database):
    assert permit.qr_text.split(".")[1] == sk.active_key().key_id
    on_day = permit.valid_from + dt.timedelta(days=3)
    assert signatures.verify_here(permit.qr_text, today=on_day).ok
    revoke(permit, by="chefe", reason="comércio de produto proibido", today=on_day)
    result = signatures.verify_here(permit.qr_text, today=on_day + dt.timedelta(days=1))
    assert result.status == "withdrawn" and result.status_pt == "revogada" and result.standing_since == on_day
    assert f"Permissão revogada desde {on_day:%d/%m/%Y}" in result.message
    assert main(["verify", permit.qr_text, "--db", database]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"revogada — Permissão revogada desde {on_day:%d/%m/%Y}")
    assert "Maria Aparecida Souza" in out
    assert main(["verify", permit.qr_text, "--db", database, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "withdrawn" and data["standing"] == "revogada"
    assert data["standing_since"] == on_day.isoformat() and data["key"] == sk.active_key().key_id
    assert signatures.withdrawn_numbers() == [(permit.number, "revogada", on_day)]


def test_verify_says_suspended_since(permit, capsys, database):
    on_day = permit.valid_from + dt.timedelta(days=2)
    suspend(permit, by="chefe", reason="falta de pagamento", today=on_day, until=on_day + dt.timedelta(days=30))
    result = signatures.verify_here(permit.qr_text, today=on_day)
    assert result.status_pt == "suspensa" and f"suspensa desde {on_day:%d/%m/%Y}" in result.message


def test_verify_db_is_honoured(tmp_path, capsys, database):
    """``--db`` names the database: a wrong one is an error, never the default's keys."""
    assert main(["verify", "PRACA2.AAAAAAAA.AAAA.AAAA", "--db", f"sqlite:///{tmp_path / 'nao-existe.db'}"]) == 2
    assert "nao-existe.db" in capsys.readouterr().err
    assert main(["verify", "PRACA2.AAAAAAAA.AAAA.AAAA", "--db", database]) == 2
    assert "ainda não tem chave" in capsys.readouterr().err


def test_cli_signing_commands(database, capsys, monkeypatch):
    monkeypatch.setenv(sk.PASSPHRASE_ENV, PASS)
    assert main(["signing", "create", "--db", database]) == 0
    assert "criada" in capsys.readouterr().out
    assert main(["signing", "list", "--db", database]) == 0
    kid = capsys.readouterr().out.split()[0]
    assert main(["signing", "rotate", "--db", database]) == 0
    assert "verify-page" in capsys.readouterr().out  # the published page must be exported again
    assert main(["signing", "revoke", kid, "--reason", "vazou", "--on", "01/12/2026", "--db", database]) == 0
    capsys.readouterr()
    assert main(["signing", "revoke", "ZZZZZZZZ", "--reason", "x", "--db", database]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["signing", "url", "https://www.olimpia.sp.gov.br/verificar.html", "--db", database]) == 0
    assert main(["signing", "list", "--db", database]) == 0
    out = capsys.readouterr().out
    assert f"{kid}" in out and "revogada em 01/12/2026" in out and "em uso" in out
    assert "https://www.olimpia.sp.gov.br/verificar.html" in out


def test_permits_signed_by_a_revoked_key_are_signed_again(permit, capsys, database, monkeypatch):
    on_day = permit.valid_from
    old = permit.qr_text
    first = sk.active_key().key_id
    sk.rotate_key("a nova senha da prefeitura", today=on_day)
    assert signatures.resign_permits(today=on_day) == []  # a rotated key still verifies: nothing to do
    sk.revoke_key(first, on=on_day, reason="notebook furtado")
    assert not signatures.verify_here(old, today=on_day).ok
    monkeypatch.setenv(sk.PASSPHRASE_ENV, "a nova senha da prefeitura")
    assert main(["signing", "resign", "--db", database]) == 0
    assert f"reimprima cartões e placas: {permit.number}" in capsys.readouterr().out
    from models.permits import Permit

    renewed = Permit.get_by_id(permit.id).qr_text
    assert renewed.split(".")[1] == sk.active_key().key_id != first
    assert signatures.verify_here(renewed, today=on_day).ok
    assert renewed.split(".")[2] == old.split(".")[2]  # the same summary: only the signature changed


def test_permits_with_an_old_praca1_qr_are_signed_again(permit, capsys, database, monkeypatch, tmp_path):
    """An old desk's PRACA1 text (its own key, no key id, not an address a phone opens): resign makes a PRACA3 one
    with the municipal key from the database's summary, and lists the card to print again."""
    from models.access.signing import _b32, _unb32, decode_payload, encode_summary, load_or_create_private_key
    from models.permits import Permit

    compact = _unb32(permit.qr_text.split(".")[2])
    payload = encode_summary(decode_payload(compact), "PRACA1")  # PRACA1 carried JSON
    desk = load_or_create_private_key(tmp_path / "mesa-antiga")
    legacy = f"PRACA1.{_b32(payload)}.{_b32(desk.sign(payload))}"
    Permit.update(qr_text=legacy).where(Permit.id == permit.id).execute()
    assert not signatures.verify_here(legacy, today=permit.valid_from).ok  # the old desk's key is not in the database
    monkeypatch.setenv(sk.PASSPHRASE_ENV, PASS)
    assert main(["signing", "resign", "--db", database]) == 0
    assert f"reimprima cartões e placas: {permit.number}" in capsys.readouterr().out
    renewed = Permit.get_by_id(permit.id).qr_text
    assert renewed.startswith(f"PRACA3.{sk.active_key().key_id}.") and renewed.split(".")[2] == _b32(compact)
    assert signatures.verify_here(renewed, today=permit.valid_from).ok
    assert signatures.resign_permits(today=permit.valid_from) == []  # done once


def test_two_administrators_creating_the_key_at_once_make_one_key(pg_schema_url, fresh_desk):
    """PostgreSQL, two desks at the same moment: the second waits for the first's transaction, then is told the
    municipality has a key — never two keys in use (the write turn taken before the check, models.store.db)."""
    import threading
    import time

    from models.store.db import db

    open_new_database(pg_schema_url)
    first_in, release = threading.Event(), threading.Event()
    outcome = {}

    def first():
        try:
            with db.atomic():
                outcome["first"] = sk.create_key(PASS).key_id
                first_in.set()
                release.wait(60)
        finally:
            first_in.set()
            db.close()

    def second():
        try:
            outcome["second"] = sk.create_key(PASS + "-outra").key_id
        except UserError as exc:
            outcome["second"] = exc.message
        finally:
            db.close()

    one = threading.Thread(target=first)
    one.start()
    assert first_in.wait(60) and "first" in outcome
    two = threading.Thread(target=second)
    two.start()
    for _ in range(3000):  # until the second desk waits for the first's lock (or, unserialised, has finished)
        (waiting,) = db.execute_sql("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()
        if waiting or not two.is_alive():
            break
        time.sleep(0.01)
    release.set()
    one.join(60)
    two.join(60)
    assert sk.SigningKey.select().count() == 1
    assert outcome["second"].startswith(f"A prefeitura já tem a chave {outcome['first']}")
    assert "nada foi criado" in outcome["second"]
