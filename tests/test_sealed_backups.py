"""Backups that prove where they come from (issue 16 §6): signed, checked before anything else, optionally
encrypted; a restore onto a new machine verifies the permits it holds (issue 17 §3)."""

from __future__ import annotations

import pytest
from factories import PASS, make_summary, tamper_backup
from factories import SIGNING_TODAY as TODAY

from desktop.cli import main
from models.access import signing_keys as sk
from models.access.signing import as_signer, public_key_fingerprint
from models.base.errors import UserError
from models.store.backup import BackupError, read_backup, restore_backup, write_backup
from models.store.bootstrap import close_database, open_database
from models.store.sealed import Trust


@pytest.fixture
def signed_backup(database, tmp_path):
    from models.store.settings import set_settings

    sk.create_key(PASS)
    set_settings({"municipality": "São Bento do Sapucaí"})
    path = tmp_path / "assinado.praca-backup"
    info = write_backup(path, signer=sk.municipal_signer())
    assert info.signed_by == sk.active_key().key_id
    return path


def test_signed_backup_restores_and_a_changed_one_is_refused(signed_backup, tmp_path):
    result = restore_backup(signed_backup, force=True)
    assert result.counts["signing_key"] == 1
    forged = tmp_path / "alterado.praca-backup"
    tamper_backup(signed_backup, forged)
    read_backup(forged)  # the checksum was recomputed: only the signature tells
    with pytest.raises(BackupError, match="alterado depois de assinado"):
        restore_backup(forged, force=True)
    with pytest.raises(BackupError, match="--accept-unsigned"):
        read_backup(forged, trust=Trust(sk.key_ring()))
    assert read_backup(forged, trust=Trust(sk.key_ring(), accept_unsigned=True)).seal.status == "bad"


def test_unsigned_backup_needs_acceptance(database, tmp_path):
    path = tmp_path / "sem.praca-backup"
    write_backup(path)
    with pytest.raises(BackupError, match="não tem assinatura"):
        restore_backup(path, force=True)
    restore_backup(path, force=True, trust=Trust(accept_unsigned=True))


def test_a_key_kept_outside_the_backup(database, tmp_path):
    path = tmp_path / "x.praca-backup"
    write_backup(path, signer=as_signer(tmp_path / "chave-do-admin"))
    with pytest.raises(BackupError, match="que este banco não conhece"):
        restore_backup(path, force=True)
    fingerprint = public_key_fingerprint(tmp_path / "chave-do-admin")
    restore_backup(path, force=True, trust=Trust(fingerprints=(fingerprint.lower(),)))


def test_restore_on_a_new_machine_verifies_its_permits(signed_backup, tmp_path, capsys, monkeypatch, fresh_desk):
    from models.access.signing import sign_summary, verify_text

    text = sign_summary(make_summary(), sk.MUNICIPAL_KEY)
    fingerprint = public_key_fingerprint(sk.active_key().public)
    close_database()
    elsewhere = f"sqlite:///{tmp_path / 'outra-maquina.sqlite3'}"
    monkeypatch.setattr("desktop.commands.restore.ask", lambda prompt: "não\n")
    assert main(["restore", "--db", elsewhere, str(signed_backup)]) == 2
    assert fingerprint in capsys.readouterr().err
    assert main(["restore", "--db", elsewhere, str(signed_backup), "--accept-unsigned"]) == 2
    assert "não confirmada" in capsys.readouterr().err
    assert main(["restore", "--db", elsewhere, str(signed_backup), "--trust-fingerprint", fingerprint]) == 0
    capsys.readouterr()
    open_database(elsewhere)
    # the restored database's keys verify what the old one signed
    assert verify_text(text, sk.key_ring(), today=TODAY).ok
    sk._session.clear()
    sk._private.clear()
    fresh_desk.clear()  # the new machine's keyring
    assert not sk.is_unlocked()  # the new machine signs only once the administrator gives the passphrase
    sk.unlock(PASS)
    assert sk.is_unlocked()


def test_encrypted_backup(signed_backup, tmp_path):
    secret = tmp_path / "cifrado.praca-backup"
    info = write_backup(secret, signer=sk.municipal_signer(), passphrase="senha do pendrive 2026")
    assert info.encrypted
    raw = secret.read_bytes()
    assert raw.startswith(b"PRACA-BACKUP-AES1\n") and b"municipality" not in raw
    with pytest.raises(UserError, match="backup cifrado"):
        read_backup(secret)
    with pytest.raises(UserError, match="Senha incorreta"):
        read_backup(secret, passphrase="outra senha qualquer")
    flipped = bytearray(raw)
    flipped[-5] ^= 1
    (tmp_path / "virado.praca-backup").write_bytes(bytes(flipped))
    with pytest.raises(UserError, match=r"Senha incorreta .* ou o arquivo foi alterado"):
        read_backup(tmp_path / "virado.praca-backup", passphrase="senha do pendrive 2026")
    backup = read_backup(secret, passphrase="senha do pendrive 2026", trust=Trust(sk.key_ring()))
    assert backup.encrypted and backup.seal.ok
    with pytest.raises(UserError, match="pelo menos 12"):
        write_backup(tmp_path / "curta.praca-backup", passphrase="curta")


def test_cli_backup_signs_and_encrypts(signed_backup, tmp_path, capsys, monkeypatch, database):
    close_database()
    out = tmp_path / "cli.praca-backup"
    monkeypatch.setenv("PRACA_BACKUP_PASSPHRASE", "senha do pendrive 2026")
    assert main(["backup", "--db", database, "--out", str(out), "--encrypt"]) == 0
    said = capsys.readouterr().out
    assert "assinado pela chave" in said and "cifrado" in said
    assert main(["restore", "--db", database, str(out), "--check"]) == 0
    assert "assinado pela chave" in capsys.readouterr().out
    monkeypatch.delenv("PRACA_BACKUP_PASSPHRASE")
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha errada demais")
    assert main(["restore", "--db", database, str(out), "--force"]) == 2
    assert "Senha incorreta" in capsys.readouterr().err
