"""Cobrança screen: generate the month (plan first), record a payment, cancel with a reason, delinquency, Painel."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import run_modal, type_text
from factories import sjc_stall
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QInputDialog

from models.billing.charges import Charge, Payment
from views.charges_page import ChargesTab, DelinquencyTab, GenerateDialog

SEPT = dt.date(2026, 9, 15)  # before the 20th: the charges are open, not overdue


@pytest.fixture
def tab(qtbot, keys, inpc, app_ready):
    sjc_stall(keys, "Maria das Dores Lima")
    sjc_stall(keys, "João Batista Rocha")
    widget = ChargesTab(today=SEPT)
    qtbot.addWidget(widget)
    widget.show()
    widget.set_month(2026, 9)
    return widget


def rows_text(tab: ChargesTab, column: int) -> list[str]:
    model = tab.table.model()
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_generate_shows_the_plan_then_creates_once(qtbot, tab):
    assert tab.model.rowCount() == 0

    def look_and_confirm(dialog):
        assert isinstance(dialog, GenerateDialog)
        assert "2 cobrança(s) a gerar" in dialog.summary.text()
        model = dialog.table.model()
        assert model.rowCount() == 2
        assert "art. 11, § 5º" in model.index(0, 5).data()
        assert Charge.select().count() == 0  # nothing written while the clerk looks
        qtbot.mouseClick(dialog.generate_button, Qt.MouseButton.LeftButton)

    _dialog, created = run_modal(lambda: tab.generate(), look_and_confirm)
    assert len(created) == 2 and Charge.select().count() == 2
    assert "2 cobrança(s) gerada(s)" in tab.message.text()
    assert tab.model.rowCount() == 2 and set(rows_text(tab, 8)) == {"em aberto"}
    assert "lançado <b>R$" in tab.totals.text()

    def look_and_leave(dialog):
        assert "Nenhuma cobrança nova" in dialog.summary.text() and "2 já gerada(s)" in dialog.summary.text()
        assert not dialog.generate_button.isEnabled()
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel).click()

    _dialog, again = run_modal(lambda: tab.generate(), look_and_leave)
    assert again == [] and Charge.select().count() == 2


def test_record_a_payment_in_the_dialog_with_field_errors_first(qtbot, tab):
    tab.generate(confirm=True)
    tab.table.selectRow(0)
    number = tab.selected().number
    assert "Fórmula: 2,50 ×" in tab.detail.text() and "Base legal:" in tab.detail.text()

    def pay(dialog):
        assert dialog.amount.text()  # the open amount is offered
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)  # no slip number yet
        assert "boleto" in dialog.error.text().lower()
        assert Payment.select().count() == 0
        dialog.amount.clear()
        type_text(dialog.amount, "10,00")
        type_text(dialog.reference, "34191.79001 01043")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    run_modal(lambda: tab.pay_selected(), pay)
    assert Payment.select().count() == 1
    assert "Pagamento de R$ 10,00 registrado" in tab.message.text()
    assert tab.selected().number == number and "boleto 34191.79001 01043" in tab.detail.text()

    def same_slip(dialog):
        dialog.amount.clear()
        type_text(dialog.amount, "10,00")
        type_text(dialog.reference, "34191.79001 01043")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert "já foi registrado" in dialog.error.text()
        assert dialog.isVisible()

    run_modal(lambda: tab.pay_selected(), same_slip)
    assert Payment.select().count() == 1


def test_cancel_asks_the_reason_and_confirms(qtbot, tab, monkeypatch, no_blocking_message_boxes):
    tab.generate(confirm=True)
    tab.table.selectRow(1)
    number = tab.selected().number
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Lançada em duplicidade", True))
    assert tab.cancel_selected()
    assert any(number in said for said in no_blocking_message_boxes)  # the confirmation named the charge
    assert Charge.get(Charge.number == number).cancel_reason == "Lançada em duplicidade"
    tab.status.setCurrentIndex(tab.status.findData("cancelled"))
    assert rows_text(tab, 0) == [number]
    tab.table.selectRow(0)
    assert "Lançada em duplicidade" in tab.detail.text()
    assert not tab.pay_button.isEnabled() and not tab.cancel_button.isEnabled()


def test_search_as_you_type(qtbot, tab):
    tab.generate(confirm=True)
    type_text(tab.search, "joao batista")  # without accents, any case
    qtbot.waitUntil(lambda: tab.model.rowCount() == 1)
    assert rows_text(tab, 2) == ["João Batista Rocha"]


def test_delinquency_lists_candidates_and_painel_shows_overdue(qtbot, keys, inpc, app_ready):
    from views.home import HomePage

    sjc_stall(keys, "Devedor Contumaz Silva", on=dt.date(2026, 6, 1))
    from models.billing.charges import generate_month

    for month in (7, 8, 9):
        generate_month(2026, month, by="tesouraria", today=dt.date(2026, month, 1))
    tab = DelinquencyTab(today=dt.date(2026, 9, 21))
    qtbot.addWidget(tab)
    tab.refresh()
    assert tab.candidates.rowCount() == 1 and "art. 11, § 6º" in tab.candidates.index(0, 3).data()
    assert tab.overdue.rowCount() == 3
    home = HomePage()
    qtbot.addWidget(home)
    home.day = dt.date(2026, 9, 21)
    home.refresh()
    shown = [home.today.item(i).text() for i in range(home.today.count())]
    assert any("3 cobrança(s) vencida(s)" in s for s in shown)
    assert any("decisão da chefia" in s for s in shown)
    assert "setembro de 2026: lançado R$" in home.month.text()


def test_worklist_awaiting_payment_charges_the_quote_and_issue_waits_for_payment(qtbot, keys, app_ready):
    import json

    from factories import approved, company, person

    from models.billing.charges import record_payment
    from models.billing.pricing import quote
    from views.front_desk import WorklistTab

    holder = company("Pastelaria Festa Ltda", person("Sebastião Ferreira Lopes"))
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 16),
        holder=holder,
        site="rua-cel-ribeiro-da-luz",
        equipment="barraca",
        front="3,00",
        depth="3,00",
    )
    frozen = quote(
        "sao-bento-2026",
        permit_kind="event-stall",
        equipment="barraca",
        front="3,00",
        depth="3,00",
        energy="high",
        year=2026,
    ).to_dict()
    app.quote_json = json.dumps(frozen)
    app.save()
    tab = WorklistTab(key_dir=keys)
    qtbot.addWidget(tab)
    tab.refresh()
    tab.select_protocol(app.protocol)
    qtbot.mouseClick(tab.action_buttons["awaiting_payment"], Qt.MouseButton.LeftButton)
    charges = list(Charge.select().where(Charge.application == app.id).order_by(Charge.id))
    assert len(charges) == 2 and "aguardando pagamento das cobranças" in tab.message.text()
    assert all(c.number in tab.message.text() for c in charges)
    tab.select_protocol(app.protocol)
    assert tab.issue(today=dt.date(2026, 3, 20)) is None and "aguarda pagamento" in tab.message.text()
    for n, charge in enumerate(charges):
        record_payment(
            charge,
            paid_on=dt.date(2026, 3, 18),
            amount=charge.amount,
            reference=f"B{n}",
            by="caixa",
            today=dt.date(2026, 3, 20),
        )
    tab.select_protocol(app.protocol)
    assert tab.issue(today=dt.date(2026, 3, 20)) is not None


def test_the_payment_dialog_reads_1_500_as_one_thousand_five_hundred_and_refuses_1_50_with_a_dot(qtbot, tab):
    """pt-BR money (issue 18 §3): "1.500" is R$ 1.500,00, never R$ 1,50; "1.50" can be read two ways and is
    refused at the field with both readings; nothing is stored for it."""
    tab.generate(confirm=True)
    tab.table.selectRow(0)

    def ambiguous(dialog):
        dialog.amount.clear()
        type_text(dialog.amount, "1.50")
        type_text(dialog.reference, "BOLETO-1")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert "pode ser lido de duas formas" in dialog.error.text() and "1,50" in dialog.error.text()
        assert dialog.isVisible() and Payment.select().count() == 0
        dialog.amount.clear()
        type_text(dialog.amount, "1.500")
        asked = []
        dialog.ask_overpayment = lambda text: not asked.append(text)  # issue 30 §5: asked before it is saved
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert asked and "Pagamento a maior: R$ 1.500,00" in asked[0]

    run_modal(lambda: tab.pay_selected(), ambiguous)
    assert [p.amount for p in Payment.select()] == [Decimal("1500.00")]
    assert "R$ 1.500,00" in tab.message.text()
