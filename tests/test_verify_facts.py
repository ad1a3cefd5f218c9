"""What ``praca verify`` answers means what it says (issue 26 §5).

Whoever holds the municipality's private key can sign any summary: ``verify --db`` compares what the QR says with
the permit's record (it exists, its holder, validity, act, status) and names what it checked; ``verify --key``
checks the signature only and says plainly that the status was not checked; a key revoked from a later day
verifies until that day and says so; only the administrator exports the verification page or changes keys.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from factories import PASS, person, tpu

from desktop.cli import main
from models.access import session, users
from models.access import signing_keys as sk
from models.access.signing import decode_payload, sign_summary
from models.permits import revoke, signatures
from models.store.bootstrap import close_database, open_database

TODAY = dt.date.today()  # the command line verifies against the machine's clock
ALL_FACTS = "Conferido: assinatura, existência da permissão, titular, validade, ato, situação."


@pytest.fixture
def permit(database, tmp_path):
    from models.store.files import set_store

    set_store(tmp_path / "files")
    sk.create_key(PASS)
    return tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"), on=TODAY)


def _summary(permit):
    import base64

    payload = permit.qr_text.split(".")[2]
    return decode_payload(base64.b32decode(payload + "=" * (-len(payload) % 8)))


def _forge(permit, **changes) -> str:
    """What someone holding the leaked private key signs: the permit's own summary with ``changes``."""
    return sign_summary(dataclasses.replace(_summary(permit), **changes), sk.MUNICIPAL_KEY)


def test_verify_db_says_every_fact_it_checked(permit, database, capsys):
    result = signatures.verify_here(permit.qr_text)
    assert result.ok and result.status_checked
    assert result.checked == ("assinatura", "existência da permissão", "titular", "validade", "ato", "situação")
    assert main(["verify", permit.qr_text, "--db", database]) == 0
    out = capsys.readouterr().out
    assert out.startswith("válido — ") and ALL_FACTS in out and "NÃO foi verificada" not in out
    assert main(["verify", permit.qr_text, "--db", database, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status_checked"] is True and data["checked"][-1] == "situação"


def test_verify_db_refuses_a_qr_signed_for_a_permit_that_does_not_exist(permit, database, capsys):
    forged = _forge(permit, number="2026/99999")
    result = signatures.verify_here(forged)
    assert result.status == "invalid" and result.summary is None
    assert "a assinatura é autêntica, mas não há permissão nº 2026/99999 neste banco" in result.message
    assert "pode ter vazado" in result.message
    assert main(["verify", forged, "--db", database]) == 1
    out = capsys.readouterr().out
    assert out.startswith("inválido — ") and "Conferido: assinatura, existência da permissão." in out


def test_verify_db_refuses_a_real_number_with_another_holder_or_validity(permit, database, capsys):
    other = _forge(permit, holder_name="Eva Impostora", holder_document="52998224725")
    result = signatures.verify_here(other)
    assert result.status == "invalid" and result.summary is None
    assert f"não confere com a permissão {permit.number}" in result.message
    assert "titular no QR: Eva Impostora (52998224725), no banco: Maria Aparecida Souza" in result.message
    assert main(["verify", other, "--db", database]) == 1
    assert capsys.readouterr().out.startswith("inválido — ")

    longer = _forge(permit, valid_until=permit.valid_until + dt.timedelta(days=3650))
    result = signatures.verify_here(longer)
    assert result.status == "invalid" and "validade no QR" in result.message and "titular" not in result.message
    elsewhere = _forge(permit, regime_id="sao-bento-2026")
    assert "ato no QR: sao-bento-2026, no banco: olimpia-2025" in signatures.verify_here(elsewhere).message
    assert signatures.verify_here(permit.qr_text).ok  # the permit's own QR still verifies


def test_a_holder_renamed_after_issue_still_verifies(permit):
    from models.registry.people import Person

    Person.update(name="Maria Aparecida Souza Lima").where(Person.id == permit.person_id).execute()
    assert signatures.verify_here(permit.qr_text).ok  # the holder Praça signed into this permit


def _public_pem(path) -> None:
    from cryptography.hazmat.primitives import serialization

    path.write_bytes(
        sk.active_key().public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )


def test_verify_key_says_plainly_that_the_status_was_not_checked(permit, database, tmp_path, capsys):
    revoke(permit, by="chefe", reason="comércio de produto proibido", today=TODAY)
    public = tmp_path / "pub.pem"
    _public_pem(public)
    close_database()
    assert main(["verify", permit.qr_text, "--key", str(public)]) == 0  # the signature is authentic
    out = capsys.readouterr().out
    assert out.startswith("válido — ")
    assert "Conferido: assinatura. A situação da permissão (revogada, suspensa, cancelada) NÃO foi verificada" in out
    assert main(["verify", permit.qr_text, "--key", str(public), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status_checked"] is False and data["checked"] == ["assinatura"]
    assert main(["verify", permit.qr_text, "--db", database]) == 1  # with the database: revogada
    assert capsys.readouterr().out.startswith("revogada — ")


def test_a_revocation_from_a_later_day_takes_effect_on_that_day(permit, database, capsys):
    later = TODAY + dt.timedelta(days=10)
    kid = sk.active_key().key_id
    close_database()
    code = main(
        ["signing", "revoke", kid, "--reason", "troca programada", "--on", f"{later:%d/%m/%Y}", "--db", database]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert f"Chave {kid} revogada a partir de {later:%d/%m/%Y}: até lá, os documentos que ela assinou continuam" in out
    assert "não são mais aceitas" not in out
    assert main(["verify", permit.qr_text, "--db", database]) == 0
    out = capsys.readouterr().out
    assert out.startswith("válido — ")
    assert f"a chave {kid} que o assinou está revogada a partir de {later:%d/%m/%Y}" in out
    open_database(database)
    assert signatures.verify_here(permit.qr_text, today=later - dt.timedelta(days=1)).key_revoked_on == later
    on_the_day = signatures.verify_here(permit.qr_text, today=later)
    assert on_the_day.status == "invalid" and f"revogada em {later:%d/%m/%Y}" in on_the_day.message
    assert sk.active_key() is None  # it signs nothing new meanwhile


# --------------------------------------------------------------------------- who may


@pytest.fixture
def clerks(permit, database):
    for username, role in (("admin", "administrador"), ("ana", "atendente"), ("fabio", "fiscal")):
        users.create_user(username=username, name=username.title(), role=role, password="senha-forte-123")
    close_database()
    return database


@pytest.mark.parametrize("username", ["ana", "fabio"])
def test_only_the_administrator_exports_the_page_or_changes_keys_on_the_command_line(
    clerks, username, monkeypatch, capsys, tmp_path
):
    monkeypatch.setenv("PRACA_USER", username)
    monkeypatch.setenv("PRACA_PASSWORD", "senha-forte-123")
    monkeypatch.setenv(sk.PASSPHRASE_ENV, "uma senha nova para a chave")
    public = tmp_path / "mesa-antiga.pem"
    with session.acting_as(None):
        open_database(clerks)
        kid = sk.active_key().key_id
        close_database()
        page = tmp_path / "verificar.html"
        for argv in (
            ["verify-page", "--out", str(page)],
            ["signing", "rotate"],
            ["signing", "revoke", kid, "--reason", "quero"],
            ["signing", "resign"],
            ["signing", "url", "https://www.olimpia.sp.gov.br/verificar.html"],
        ):
            assert main([*argv, "--db", clerks]) == 2, argv
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "não pode alterar as configurações" in err, (argv, err)
        assert not page.exists()
        open_database(clerks)
        _public_pem(public)
        close_database()
        assert main(["signing", "add-key", str(public), "--db", clerks]) == 2
        assert "não pode alterar as configurações" in capsys.readouterr().err
    open_database(clerks)
    assert [row.key_id for row in sk.SigningKey.select()] == [kid] and sk.active_key().revoked_on is None
    assert sk.verify_url() == ""


def test_a_clerk_cannot_export_the_page_from_the_window(clerks, app_ready, qtbot, tmp_path, monkeypatch):
    from views.signing_page import SigningPage

    open_database(clerks)
    out = tmp_path / "verificar.html"
    monkeypatch.setattr("views.save.QFileDialog.getSaveFileName", lambda *a, **k: (str(out), ""))
    for role in ("atendente", "fiscal"):
        with session.acting_as(session.Session(None, "ana", "Ana", role)):
            page = SigningPage(today=TODAY)
            qtbot.addWidget(page)
            page.refresh()
            assert not page.export_button.isEnabled() and not page.rotate_button.isEnabled()
            page.export_page()  # even if a button were left enabled: the domain refuses
            assert "não pode alterar as configurações" in page.message.text()
            assert not out.exists()
