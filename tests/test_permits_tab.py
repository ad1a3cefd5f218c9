"""Permissões driven like a clerk, the back end's side: the list and its search as you type, the history, and the
acts run on workers with the GUI thread's statements counted (renew, renew with documents, extend, expire, leave,
transfer to an heir, exchange).

Every test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL. The screen's own drives (buttons, dialogs'
refusals, the keyboard, the models) are in test_permits_tab_drive, on SQLite only.
"""

from __future__ import annotations

import datetime as dt

from conftest import run_modal, searched, type_text
from factories import (
    TODAY,
    click,
    company,
    feirante,
    history_kinds,
    person,
    sapezal_licence,
    select,
    set_status,
    shown,
    tpu,
)
from PySide6.QtCore import Qt

from models.base.br import format_cpf
from models.permits import expire_due, find_permit, permit_history, permit_rows, revoke, suspend
from models.rules.regimes import get_regime
from models.services.issuing import exchange_sites


def test_permit_rows_filter_by_status_regime_and_text(keys):
    antonio = person("Antônio Carlos Mendes")
    fair = feirante(keys, antonio)
    truck_co = company("Food Truck Ltda", person("Marcos Paulo Dias"))
    truck = tpu(keys, truck_co)
    gone = revoke(
        tpu(keys, company("Lanches Rápidos Ltda", person("Paulo Souza")), site="Praça da Matriz"),
        by="fiscal",
        reason="Sublocação",
        today=TODAY,
    )
    rows = permit_rows(today=TODAY)
    assert [r.number for r in rows] == [gone.number, truck.number, fair.number]  # newest first
    row = rows[-1]
    assert (row.holder_name, row.holder_document, row.holder_kind) == (antonio.name, format_cpf(antonio.cpf), "person")
    kind = get_regime("sjc-2014").permit_kind("feirante")
    assert (row.regime_short, row.kind_label) == ("Lei 9.158/2014", kind.label)
    assert (row.site, row.status_label, row.lapsed) == ("Feira Noturna do Jardim Satélite", "ativa", False)
    assert [r.number for r in permit_rows(status="active", today=TODAY)] == [truck.number, fair.number]
    assert [r.number for r in permit_rows(status="revoked", today=TODAY)] == [gone.number]
    assert [r.number for r in permit_rows(regime="sjc-2014", today=TODAY)] == [fair.number]
    # words of the name in any order, without accents; CPF/CNPJ prefix with any punctuation; the number
    assert [r.number for r in permit_rows(text="mendes antonio", today=TODAY)] == [fair.number]
    assert [r.number for r in permit_rows(text=format_cpf(antonio.cpf)[:7], today=TODAY)] == [fair.number]
    assert [r.number for r in permit_rows(text=truck_co.cnpj[:8], today=TODAY)] == [truck.number]
    assert [r.number for r in permit_rows(text=truck.number, today=TODAY)] == [truck.number]
    assert [r.number for r in permit_rows(text="2026/2", today=TODAY)] == [truck.number]  # 2026/00002
    assert permit_rows(text="ninguém", today=TODAY) == []
    # past its last day but not yet marked: listed as expired, not as active
    later = dt.date(2028, 1, 1)
    assert [r.number for r in permit_rows(status="expired", today=later)] == [fair.number]
    assert fair.number not in [r.number for r in permit_rows(status="active", today=later)]
    lapsed = permit_rows(text=fair.number, today=later)[0]
    assert lapsed.lapsed and lapsed.status_label == "vencida em 31/12/2027 (baixa pendente)"
    expire_due(later)
    assert permit_rows(status="expired", today=later)[0].status_label == "vencida"
    assert len(permit_rows(today=TODAY, limit=2)) == 2


def test_permit_history_in_order_with_labels_and_the_other_permit(keys):
    permit = suspend(feirante(keys, person("Antônio Carlos Mendes")), by="fiscal", reason="Sem crachá", today=TODAY)
    items = permit_history(permit.id)
    assert [(i.kind_label, i.status_from, i.status_to, i.by, i.reason) for i in items] == [
        ("emissão", "", "ativa", "ana", items[0].reason),
        ("suspensão", "ativa", "suspensa", "fiscal", "Sem crachá"),
    ]
    assert items[1].start == TODAY and items[1].end is None and items[1].other_number == ""
    a = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro")
    b = feirante(keys, person("José Wilson Prado"), site="Feira Noturna do Parque Industrial")
    new_a, _new_b = exchange_sites(a, b, by="chefe", reason="Despacho 12/2026", today=TODAY)
    assert permit_history(a.id)[-1].other_number == new_a.number
    assert permit_history(new_a.id)[0].other_number == a.number


def test_search_finds_the_permit_as_you_type(make_tab, keys, qtbot):
    antonio = person("Antônio Carlos Mendes")
    fair = feirante(keys, antonio)
    truck = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    tab = make_tab()
    assert shown(tab) == [truck.number, fair.number]
    assert "2 permissões" in tab.hint.text()
    qtbot.keyClicks(tab.query, "mend")
    assert shown(tab) == [fair.number]
    assert tab.selected().number == fair.number
    assert antonio.name in tab.detail_labels["holder"].text()
    assert "de 30/11/2026 a 31/12/2027" in tab.detail_labels["validity"].text()
    tab.query.clear()
    type_text(tab.query, "Antônio C")
    assert shown(tab) == [fair.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, format_cpf(antonio.cpf)[:8])
    assert shown(tab) == [fair.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, truck.number)
    assert shown(tab) == [truck.number]
    tab.query.clear()
    qtbot.keyClicks(tab.query, "zzz")
    assert shown(tab) == [] and "Nenhuma permissão" in tab.hint.text()
    assert not any(b.isEnabled() for b in tab.buttons.values())
    tab.query.clear()
    set_status(tab, "suspended")
    assert shown(tab) == []
    set_status(tab, None)
    tab.regime.setCurrentIndex(tab.regime.findData("olimpia-2025"))
    assert shown(tab) == [truck.number]


def test_renew_from_the_renewals_table_selects_the_new_permit(make_tab, keys, qtbot, clock, steps):
    old = tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias")))
    feirante(keys, person("Antônio Carlos Mendes"))
    clock.day = dt.date(2031, 5, 2)
    tab = make_tab()
    tab.pages.setCurrentIndex(1)
    rows = tab.due_model.rows
    assert "(2)" in tab.pages.tabText(1)
    # the start-up deadline never closed, overdue and in red; the renewal window open today
    assert [(r.number, r.what, r.overdue, r.renewal_open) for r in rows] == [
        (old.number, "início das atividades — vencido", True, False),
        (old.number, "renovação (pedido aberto)", False, True),
    ]
    assert (rows[1].period, rows[1].article) == ("03/04/2031 a 30/09/2031", "LC 324/2025, art. 166; art. 177")
    tab.due_table.selectRow(0)
    assert not tab.due_renew.isEnabled()
    tab.due_table.selectRow(1)
    with steps("renovar"):  # read, renewed and shown on workers (issue 27 §5)
        click(qtbot, tab.due_renew)
    steps.check()
    new = find_permit("2031/00001")
    assert new.previous_id == old.id and new.origin == "renewal"
    assert find_permit(old.number).status == "active"  # in force until 29/11/2031; the new one starts after
    assert tab.selected().number == new.number
    assert tab.message.text() == (
        f"Permissão nº {old.number} renovada: nova permissão nº {new.number}, de 30/11/2031 a 29/11/2036."
    )
    assert [r.what for r in tab.due_model.rows] == ["início das atividades — vencido"]  # no renewal left
    assert not tab.due_renew.isEnabled()
    assert "renovação da nº" in tab.detail_labels["origin"].text()


def test_renew_with_a_new_health_certificate_keeps_it_for_the_next_time(make_tab, keys, qtbot, clock, tmp_path, steps):
    from models.permits import PermitDocument, documents_on_file

    old = sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha")))
    clock.day = dt.date(2027, 10, 20)
    scan = tmp_path / "atestado.pdf"
    scan.write_bytes(b"%PDF-1.4 atestado de saude")
    tab = make_tab()
    select(tab, old.number)

    def deliver(dialog):
        type_text(dialog.rows["health-certificate"][0], "18/10/2027")
        type_text(dialog.rows["health-certificate"][1], "17/04/2028")
        dialog.rows["health-certificate"][2].setText(str(scan))
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible(), dialog.error.text()

    with steps("renovar com documentos"):  # what is on file read, and the renewal made, on workers (issue 27 §5)
        run_modal(lambda: tab.acts.renew_with_documents(), deliver)
    steps.check()
    new = tab.selected()
    assert new.number != old.number and "com os documentos novos" in tab.message.text()
    kept = PermitDocument.get(PermitDocument.document == "health-certificate")
    assert kept.delivered_on == dt.date(2027, 10, 18) and len(kept.sha256) == 64 and kept.recorded_by
    on_file = {d.document: d for d in documents_on_file(find_permit(new.number), today=clock.day)}
    assert on_file["health-certificate"].delivered_on == dt.date(2027, 10, 18)
    assert not on_file["health-certificate"].expired


def test_extend_startup_once_and_expire_lapsed_from_the_screen(make_tab, keys, qtbot, clock, steps):
    permit = tpu(keys, company("Lanches da Praça Ltda", person("Rita Souza Melo")))  # 90 days, once more 90
    tab = make_tab()
    tab.pages.setCurrentIndex(1)
    row = next(r for r, item in enumerate(tab.due_model.rows) if item.number == permit.number)
    tab.due_table.selectRow(row)
    assert tab.due_extend.isEnabled()
    with steps("prorrogar o início"):
        assert tab.acts.extend_startup_due(reason="Aguardando ligação de energia")
    assert "prorrogado até" in tab.message.text()
    row = next(r for r, item in enumerate(tab.due_model.rows) if item.number == permit.number)
    tab.due_table.selectRow(row)
    assert not tab.due_extend.isEnabled()  # once only (LC 324/2025, art. 176)
    clock.day = dt.date(2032, 1, 1)
    with steps("marcar vencidas"):
        expired = tab.acts.expire_lapsed()
    steps.check()
    assert [p.number for p in expired] == [permit.number]
    assert "1 permissão(ões) marcada(s) como vencida(s)" in tab.message.text()


def test_leave_dialog_shows_the_acts_limits_and_records_the_leave(make_tab, keys, qtbot, steps):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    tab = make_tab()
    select(tab, permit.number)

    def too_soon(d):
        qtbot.keyClicks(d.start, "10122026")
        qtbot.keyClicks(d.end, "20122026")
        click(qtbot, d.ok_button)
        assert d.isVisible()  # refused: the dialog stays open with the act's reason
        assert "30 dias de antecedência" in d.error.text() and "Lei 9.158/2014, art. 16" in d.error.text()
        d.start.clear()
        d.end.clear()
        qtbot.keyClicks(d.start, "10012027")
        qtbot.keyClicks(d.end, "24012027")
        type_text(d.substitute_name, "Joana Aparecida Lopes")
        qtbot.keyClicks(d.substitute_cpf, "52998224725")
        click(qtbot, d.ok_button)
        assert not d.isVisible(), d.error.text()

    with steps("afastamento"):  # the act's check and the write on a worker (issue 27 §5)
        dialog, _ = run_modal(tab.acts.leave_selected, too_soon)
    steps.check()
    event = dialog.leave
    assert (event.start, event.end, event.details["substitute_cpf"]) == (
        dt.date(2027, 1, 10),
        dt.date(2027, 1, 24),
        "52998224725",
    )
    assert history_kinds(tab)[-1] == "descanso/afastamento"
    assert "10/01/2027 a 24/01/2027" in tab.message.text()


def test_transfer_to_an_heir_found_by_name(make_tab, keys, qtbot, no_blocking_message_boxes, steps):
    permit = feirante(keys, person("Antônio Carlos Mendes"))
    heir = person("Carla Mendes Ribeiro")
    tab = make_tab()
    select(tab, permit.number)

    def pick(d):
        assert not d.ok_button.isEnabled()
        type_text(d.query, "carla mendes")
        searched(qtbot, d)
        assert [m.name for m in d.model.rows] == ["Carla Mendes Ribeiro"]  # the holder himself is left out
        type_text(d.reason, "Falecimento; sucessores indicaram a filha")
        click(qtbot, d.ok_button)

    with steps("transferir a herdeiro"):  # the search, the heir and the transfer on workers (issue 27 §5)
        run_modal(tab.acts.transfer_selected, pick)
    steps.check()
    assert "para Carla Mendes Ribeiro?" in no_blocking_message_boxes[-1]
    new = tab.selected()
    assert (new.holder_name, new.origin) == (heir.name, "transfer") and new.number != permit.number
    assert find_permit(permit.number).status == "superseded"
    assert "transferida a Carla Mendes Ribeiro" in tab.message.text()


def test_exchange_sites_with_another_permit_by_number(make_tab, keys, qtbot, steps):
    mine = feirante(keys, person("Antônio Carlos Mendes"), point="Banca 03")
    theirs = feirante(keys, person("Rita de Cássia Nunes"), site="Feira Noturna do Centro", point="Banca 11")
    tab = make_tab()
    select(tab, mine.number)

    def pick(d):
        qtbot.keyClicks(d.number, "2026/09999")
        searched(qtbot, d)  # looked up on a worker as the clerk types (issue 27 §5)
        assert "não encontrada" in d.found.text() and not d.ok_button.isEnabled()
        d.number.clear()
        qtbot.keyClicks(d.number, mine.number)
        searched(qtbot, d)
        assert "própria" in d.found.text() and not d.ok_button.isEnabled()
        d.number.clear()
        qtbot.keyClicks(d.number, theirs.number)
        assert not d.ok_button.isEnabled()  # not before the answer
        searched(qtbot, d)
        assert "Rita de Cássia Nunes" in d.found.text() and "Feira Noturna do Centro" in d.found.text()
        type_text(d.reason, "Despacho 12/2026 do Departamento de Posturas")
        click(qtbot, d.ok_button)

    with steps("permutar"):
        run_modal(tab.acts.exchange_selected, pick)
    steps.check()
    new = tab.selected()
    assert new.holder_name == "Antônio Carlos Mendes" and new.place == "Feira Noturna do Centro — Banca 11"
    assert {find_permit(mine.number).status, find_permit(theirs.number).status} == {"superseded"}
    assert "Locais permutados" in tab.message.text()
