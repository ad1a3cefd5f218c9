"""Cadastros → Assinatura, driven as the administrator and a clerk would (issue 17 §3, issue 16 §7)."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal, type_text
from factories import PASS, make_summary
from factories import type_passphrase as _type_passphrase
from PySide6.QtCore import Qt

from models.access import session
from models.access import signing_keys as sk
from models.access.signing import sign_summary
from models.permits import revoke
from views.save import documents_folder
from views.signing_page import SigningPage

TODAY = dt.date.today()


@pytest.fixture
def page(database, app_ready, qtbot, tmp_path):
    from models.store.files import set_store

    set_store(tmp_path / "files")
    widget = SigningPage(today=TODAY)
    qtbot.addWidget(widget)
    widget.refresh()
    return widget


def test_the_administrator_creates_the_key_and_another_desk_is_unlocked(page, qtbot, fresh_desk):
    assert "ainda não tem chave" in page.state.text()
    assert page.create_button.isEnabled() and not page.rotate_button.isEnabled()
    mismatch = _type_passphrase(PASS, again="outra coisa qualquer")
    run_modal(page.create_key, mismatch)
    assert mismatch.error == "As duas senhas não conferem." and sk.active_key() is None
    run_modal(page.create_key, _type_passphrase(PASS))
    kid = sk.active_key().key_id
    assert page.model.rowCount() == 1 and "Esta mesa assina" in page.state.text() and kid in page.state.text()
    assert not page.create_button.isEnabled() and page.rotate_button.isEnabled()

    sk._session.clear()  # another desk on the same database
    sk._private.clear()
    fresh_desk.clear()
    page.refresh()
    assert "NÃO assina" in page.state.text() and page.unlock_button.isEnabled()
    wrong = _type_passphrase("uma senha que não é a dela")
    run_modal(page.unlock, wrong)
    assert f"Senha incorreta para a chave {kid}" in wrong.error and not sk.is_unlocked()
    run_modal(page.unlock, _type_passphrase(PASS))
    assert sk.is_unlocked() and "a senha ficou no cofre" in page.message.text()
    assert not page.unlock_button.isEnabled()


def test_address_page_state_and_the_desk_check(page, qtbot, tmp_path, monkeypatch):
    from factories import person, tpu

    sk.create_key(PASS)
    page.refresh()
    type_text(page.url, "http://sem-https.gov.br/v.html")
    qtbot.mouseClick(page.url_save, Qt.MouseButton.LeftButton)
    assert "https://" in page.message.text() and sk.verify_url() == ""
    page.url.clear()
    type_text(page.url, "https://www.olimpia.sp.gov.br/verificar.html")
    qtbot.mouseClick(page.url_save, Qt.MouseButton.LeftButton)
    assert sk.verify_url() == "https://www.olimpia.sp.gov.br/verificar.html"

    assert "ainda não foi exportada" in page.page_state.text()
    out = tmp_path / "verificar.html"
    asked = []
    monkeypatch.setattr("views.save.QFileDialog.getSaveFileName", lambda *a, **k: asked.append(a[2]) or (str(out), ""))
    qtbot.mouseClick(page.export_button, Qt.MouseButton.LeftButton)
    assert out.exists() and "em dia" in page.page_state.text()
    # in Documents, never in the working folder (the Windows shortcuts start in Program Files: issue 32 §5)
    assert asked == [str(documents_folder() / "verificar.html")]
    assert "https://www.olimpia.sp.gov.br/verificar.html" in page.message.text()

    permit = tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"), on=TODAY)
    type_text(page.qr_text, f"https://www.olimpia.sp.gov.br/verificar.html#{permit.qr_text}")
    qtbot.mouseClick(page.check_button, Qt.MouseButton.LeftButton)
    assert page.check_result.text().startswith("VÁLIDO — ") and "Maria Aparecida Souza" in page.check_result.text()
    revoke(permit, by="chefe", reason="comércio de produto proibido", today=TODAY)
    page.refresh()
    assert "DESATUALIZADA" in page.page_state.text()  # the published page no longer says what the database says
    qtbot.mouseClick(page.check_button, Qt.MouseButton.LeftButton)
    assert page.check_result.text().startswith(f"REVOGADA — Permissão revogada desde {TODAY:%d/%m/%Y}")
    forged = sign_summary(make_summary(), tmp_path / "forger")
    page.qr_text.clear()
    type_text(page.qr_text, forged)
    qtbot.mouseClick(page.check_button, Qt.MouseButton.LeftButton)
    assert page.check_result.text().startswith("INVÁLIDO — ")


def test_rotation_and_revocation_from_the_screen(page, qtbot, monkeypatch):
    sk.create_key(PASS)
    page.refresh()
    first = sk.active_key().key_id
    run_modal(page.rotate_key, _type_passphrase("a nova senha da prefeitura"))
    assert sk.active_key().key_id != first and page.model.rowCount() == 2
    page.table.selectRow(0)
    monkeypatch.setattr("views.signing_page.QInputDialog.getText", lambda *a, **k: ("notebook furtado", True))
    page.revoke_key()
    assert f"Chave {first} revogada" in page.message.text()
    assert page.model.rows[0].state == f"revogada em {TODAY:%d/%m/%Y}"
    assert page.resign_button.isEnabled()
    qtbot.mouseClick(page.resign_button, Qt.MouseButton.LeftButton)
    assert page.message.text() == (
        "Nenhuma permissão em vigor foi assinada por chave revogada nem tem QR no formato antigo (PRACA1)."
    )


def test_a_clerk_sees_but_does_not_manage(page):
    sk.create_key(PASS)
    clerk = session.Session(None, "ana", "Ana Souza", "atendente")
    with session.acting_as(clerk):
        page.refresh()
        assert not page.rotate_button.isEnabled() and not page.revoke_button.isEnabled()
        assert not page.export_button.isEnabled() and not page.url.isEnabled()
        assert page.check_button.isEnabled()
