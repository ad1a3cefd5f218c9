"""The daily automatic backup proves where it comes from too (issue 16 §6): signed at start when the desk is
unlocked; otherwise written unsigned, said on the Painel with the way to sign it — unlocking the desk signs the
backup this session wrote, and only while its bytes are those written."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal
from factories import PASS
from factories import type_passphrase as _type_passphrase

from models.access import signing_keys as sk
from models.store import backup
from models.store.sealed import Trust

TODAY = dt.date.today()


@pytest.fixture
def locked_desk(sqlite_database, fresh_desk):
    """A SQLite database with the municipality's key, opened by a desk that does not know its passphrase."""
    sk.create_key(PASS)
    sk._session.clear()
    sk._private.clear()
    fresh_desk.clear()
    assert not sk.is_unlocked()
    return sqlite_database


def _seal(path):
    return backup.read_backup(path, trust=Trust(sk.key_ring(), accept_unsigned=True)).seal


def test_an_unlocked_desk_signs_its_daily_backup_at_once(locked_desk, tmp_path):
    sk.unlock(PASS)
    result = backup.daily_backup(tmp_path / "b", today=TODAY)
    assert _seal(result.written).ok and backup.unsigned_daily_backup() is None


def test_unlocking_the_desk_signs_the_unsigned_daily_backup_of_this_session(locked_desk, tmp_path):
    result = backup.daily_backup(tmp_path / "b", today=TODAY)
    assert _seal(result.written).status == "unsigned"
    assert backup.unsigned_daily_backup() == result.written.resolve()
    assert backup.seal_pending_backups() == []  # locked: nothing signed, still pending
    with pytest.raises(backup.BackupError, match="--accept-unsigned"):
        backup.read_backup(result.written, trust=Trust(sk.key_ring()))
    sk.unlock(PASS)
    assert backup.seal_pending_backups() == [result.written.resolve()]
    assert _seal(result.written).ok and backup.unsigned_daily_backup() is None
    assert backup.read_backup(result.written, trust=Trust(sk.key_ring())).seal.key_id == sk.active_key().key_id
    assert "assinado pela chave" in (result.written.parent / backup.BACKUP_LOG).read_text(encoding="utf-8")


def test_a_daily_backup_changed_after_it_was_written_is_never_signed(locked_desk, tmp_path):
    from factories import tamper_backup

    result = backup.daily_backup(tmp_path / "b", today=TODAY)
    forged = tmp_path / "forjado.praca-backup"
    from models.store.settings import set_settings

    set_settings({"municipality": "São Bento do Sapucaí"})  # something for _tamper to change
    backup.write_backup(forged)
    tamper_backup(forged, result.written)  # someone swapped the file in the data folder
    sk.unlock(PASS)
    assert backup.seal_pending_backups() == []
    assert _seal(result.written).status == "unsigned"
    assert "não foi assinado" in (result.written.parent / backup.BACKUP_LOG).read_text(encoding="utf-8")


def test_the_painel_says_the_backup_is_unsigned_and_unlocking_there_signs_it(locked_desk, tmp_path, app_ready, qtbot):
    from views.home import HomePage

    result = backup.daily_backup(tmp_path / "b", today=TODAY)
    page = HomePage()
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    assert page.backup_notice.isVisible() and page.backup_unlock.isVisible()
    assert "SEM assinatura" in page.backup_text.text() and result.written.name in page.backup_text.text()
    wrong = _type_passphrase("uma senha que não é a da chave")
    run_modal(page._unlock_and_sign, wrong)
    assert "Senha incorreta" in wrong.error and page.backup_notice.isVisible()
    run_modal(page.backup_unlock.click, _type_passphrase(PASS))
    assert not page.backup_notice.isVisible() and _seal(result.written).ok


def test_the_painel_says_so_when_the_municipality_has_no_key_yet(sqlite_database, tmp_path, app_ready, qtbot):
    from views.home import HomePage

    backup.daily_backup(tmp_path / "b", today=TODAY)
    page = HomePage()
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    assert page.backup_notice.isVisible() and not page.backup_unlock.isVisible()
    assert "ainda não tem chave" in page.backup_text.text()
