"""Ilha Comprida (Dec. 890/2017): the 10 % quota of art. 11, § 2º — "será reservada a cota de 10% das vagas a
serem distribuídas em todo o território do município" — is a quota of the ambulante licences, not of the event
draws of art. 21, whose rotating list gives a turn to "todos os inscritos".

The regime declares which permit kinds its selection serves (``[selection] permit_kinds``): the draw takes its
rules from those kinds only. Desk tests run on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL."""

from __future__ import annotations

import re

import pytest
from factories import approved, broken_shipped, mei_vendor, one_line_error, person, results
from factories import write_list as write

from models.rules.regimes import get_regime
from models.selection import Participant, draw_rules, run_draw

ILHA = get_regime("ilha-comprida-2017")


def test_selection_declares_the_event_credential_of_art_21():
    """Art. 21: the draw is the event credential's; art. 11, § 2º stays on the beach licence."""
    assert ILHA.selection.permit_kinds == ("credencial-evento",)
    assert any(r.kind == "quota" for r in ILHA.permit_kind("ambulante-praia").rules)
    assert not any(r.kind == "quota" for r in ILHA.permit_kind("credencial-evento").rules)


def test_loader_refuses_a_selection_kind_that_does_not_exist(tmp_path):
    err = broken_shipped(
        tmp_path, "ilha-comprida-2017", 'permit_kinds = ["credencial-evento"]', 'permit_kinds = ["credencial-festa"]'
    )
    assert re.search(r"selection\.permit_kinds\[0\].*credencial-festa.*não existe", str(err))


def test_event_draw_art_21_reserves_no_quota_of_art_11_par_2():
    """Dec. 890/2017, art. 21, § 1º, I: ten places for twenty entrants are the first ten in drawn order — no place
    is held back for the quota of art. 11, § 2º, and the rules say why."""
    rules = draw_rules(ILHA)
    assert rules.quota_percent is None
    assert "art. 11, § 2º" in rules.quota_note and "art. 21, § 1º" in rules.quota_note
    result = run_draw([Participant(id=f"{i:02d}", name=f"Ambulante {i}") for i in range(20)], "Ilha Verão", 10, rules)
    assert result.groups[0].quota_reserved == 0 and list(result.holders) == sorted(
        result.order[:10], key=result.order.index
    )
    with pytest.raises(Exception, match=r"não prevê cota neste sorteio.*art\. 11, § 2º"):
        run_draw([Participant(id="1", name="Idosa", quota=True)], "x", 1, rules)


def test_praca_draw_refuses_a_quota_column_in_the_event_draw(tmp_path, capsys):
    """``praca draw --regime ilha-comprida-2017`` with quota=sim: one line naming art. 11, § 2º and art. 21."""
    path = write(tmp_path, "id;name;quota\n1;Ana;sim\n2;Bia;\n")
    err = one_line_error(capsys, "--regime", "ilha-comprida-2017", "--input", path, "--vacancies", "1", "--seed", "1")
    assert "art. 11, § 2º" in err and "art. 21" in err


def test_licences_keep_the_quota_of_art_11_par_2(keys):
    """Art. 11, § 2º on the licences, on both back ends: the beach licence checks the 10 % of its 280 places
    (28 reserved); the event credential has no such rule."""
    vendor = mei_vendor("Idosa da Praia")
    found, _facts = results(vendor, "ilha-comprida-2017", "ambulante-praia")
    quota = found["Dec. 890/2017, art. 11, § 2º"]
    assert quota.rule.kind == "quota" and "28 reservadas à cota" in quota.reason
    found, _facts = results(vendor, "ilha-comprida-2017", "credencial-evento")
    assert not any(r.rule.kind == "quota" for r in found.values())


def test_selection_page_ilha_has_no_quota_button_and_says_why(qtbot, page):
    """On the real page: the arena's call lists the credential applications only, offers no quota mark and
    says, with the articles, that the quota is of the licences."""
    approved("ilha-comprida-2017", "credencial-evento", holder=person("Ana Beira-Mar"), site="arena-de-shows")
    approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        holder=person("Bruno Areia"),
        site="arena-de-shows",
        line="cadeiras-guarda-sol",
        equipment="carrinho",
        front="1,50",
        depth="0,80",
        hitch="0,20",
    )
    page.resize(1366, 768)
    page.refresh()
    page.call.set_call("ilha-comprida-2017", "arena-de-shows")
    model = page.call.table.model()
    assert [model.index(r, 2).data() for r in range(model.rowCount())] == ["Ana Beira-Mar"]
    assert not page.call.quota_button.isVisible()
    assert "sem cota" in page.call.method.text() and "art. 11, § 2º" in page.call.method.text()
