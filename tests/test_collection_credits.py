"""Issue 30 §5: a payer's credit (paid above a charge, or a guia paid twice) used on their next charge or refunded —
each use a new act referring to the credit (and to the charge and the payment it made), audited; the credit's
balance falls, a partial use leaves the rest open; the desk offers it on the payer's charges; the monthly report's
credits block agrees to the cent in xlsx, HTML and PDF, and a credit used is no money received. SQLite and, with
``PRACA_TEST_PG``, PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from factories import olimpia_fine as _fine
from pdftext import pdf_text

from desktop.cli import main
from models.base.errors import FieldErrors, UserError

TODAY = dt.date(2026, 3, 10)


def _overpaid(holder, paid="100,00", owed="80,00", reference="REC-1"):
    """A charge of ``owed`` paid ``paid`` at the desk: the excess is the payer's credit."""
    from models.billing.collection.desk import record_desk_payment
    from models.billing.collection.tables import Credit

    charge = _fine(holder, owed, label="Multa — art. 161")
    record_desk_payment(charge, paid_on=TODAY, amount=paid, reference=reference, accept_overpayment=True, today=TODAY)
    return Credit.select().order_by(Credit.id.desc()).get()


def test_a_credit_pays_part_of_the_next_charge_then_the_rest_of_another_and_the_rest_is_refunded(database):
    from factories import person

    from models.billing.charges import Charge, Payment
    from models.billing.collection.credits import apply_credit, balances, credits_for, refund_credit
    from models.billing.collection.tables import Credit, CreditUse
    from models.store.audit import AuditEntry, verify_chain

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor, "100,00", "80,00")  # R$ 20,00 of credit
    assert credit.amount == Decimal("20.00") and balances([credit.id]) == {credit.id: Decimal("20.00")}
    nxt = _fine(vendor, "50,00")
    [use] = apply_credit(nxt, today=TODAY)
    nxt = Charge.get_by_id(nxt.id)
    assert (use.amount, use.kind, use.charge_id, use.number) == (Decimal("20.00"), "apply", nxt.id, "2026/00001")
    assert (nxt.paid_total, nxt.status, nxt.open_amount) == (Decimal("20.00"), "open", Decimal("30.00"))
    payment = Payment.get_by_id(use.payment_id)
    assert payment.charge_id == nxt.id and payment.reference == "CRÉDITO nº 1 (uso 2026/00001)"
    assert payment.channel == "credit"
    assert Credit.get_by_id(credit.id).status == "used" and credits_for(nxt) == []
    with pytest.raises(UserError, match="não tem crédito em aberto"):
        apply_credit(nxt, today=TODAY)

    big = _overpaid(vendor, "400,00", "300,00", reference="REC-2")  # R$ 100,00 of credit
    [partial] = apply_credit(nxt, today=TODAY)  # the charge owes R$ 30,00: R$ 70,00 stay open
    assert partial.amount == Decimal("30.00") and Charge.get_by_id(nxt.id).status == "paid"
    assert balances([big.id]) == {big.id: Decimal("70.00")} and Credit.get_by_id(big.id).status == "open"
    with pytest.raises(FieldErrors) as caught:
        refund_credit(big.id, reason="", today=TODAY)
    assert set(caught.value.errors) == {"reason"}
    with pytest.raises(FieldErrors, match="no máximo R\\$ 70,00"):
        refund_credit(big.id, reason="Ordem bancária 55", amount="70,01", today=TODAY)
    refund = refund_credit(big.id, reason="Ordem bancária 55", today=TODAY)
    assert (refund.kind, refund.amount, refund.charge_id, refund.payment_id) == ("refund", Decimal("70.00"), None, None)
    assert Credit.get_by_id(big.id).status == "refunded" and balances([big.id])[big.id] == Decimal("0.00")
    assert CreditUse.select().count() == 3
    written = {e.table_name for e in AuditEntry.select().where(AuditEntry.action == "insert")}
    assert {"credit_use", "payment"} <= written
    assert verify_chain().intact


def test_another_payers_credit_a_closed_charge_and_a_bad_amount_are_refused(database):
    from factories import person

    from models.billing.collection.credits import apply_credit
    from models.billing.collection.tables import CreditUse

    carlos, ana = person("Carlos Alberto Nunes"), person("Ana Paula Lima")
    credit = _overpaid(carlos)
    ana_fine = _fine(ana, "50,00")
    with pytest.raises(UserError, match="é de outro contribuinte"):
        apply_credit(ana_fine, credit_id=credit.id, today=TODAY)
    with pytest.raises(UserError, match="não tem crédito em aberto"):
        apply_credit(ana_fine, today=TODAY)
    mine = _fine(carlos, "50,00")
    with pytest.raises(FieldErrors, match="no máximo R\\$ 20,00"):
        apply_credit(mine, amount="25,00", today=TODAY)
    with pytest.raises(FieldErrors):
        apply_credit(mine, amount="abc", today=TODAY)
    assert CreditUse.select().count() == 0


def test_reversing_a_credit_payment_reopens_the_credit_and_a_used_excess_is_not_reversed_first(database):
    from factories import person

    from models.billing.charges import Charge, Payment
    from models.billing.collection.credits import apply_credit, balances
    from models.billing.collection.desk import reverse_payment
    from models.billing.collection.tables import Credit, Reversal

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor)
    origin = Payment.get(Payment.reference == "REC-1")
    nxt = _fine(vendor, "50,00")
    [use] = apply_credit(nxt, amount="15,00", today=TODAY)
    assert balances([credit.id])[credit.id] == Decimal("5.00")
    with pytest.raises(UserError, match="estorne antes o uso do crédito"):
        reverse_payment(origin.id, reason="cheque devolvido", today=TODAY)
    assert Reversal.select().count() == 0
    reverse_payment(use.payment_id, reason="crédito usado por engano", today=TODAY)
    assert balances([credit.id])[credit.id] == Decimal("20.00") and Credit.get_by_id(credit.id).status == "open"
    assert Charge.get_by_id(nxt.id).paid_total == Decimal("0.00")
    reverse_payment(origin.id, reason="cheque devolvido", today=TODAY)  # the credit's use reversed: now it may
    assert Credit.get_by_id(credit.id).status == "reversed"


def test_the_command_line_lists_applies_and_refunds_credits(database, capsys):
    from factories import person

    from models.store.bootstrap import close_database

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor, "130,00", "80,00")  # R$ 50,00
    nxt = _fine(vendor, "30,00")
    close_database()
    base = ["--db", database, "payments"]
    assert main([*base, "credits", "--charge", nxt.number, "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["credit"], listed["balance"], listed["payer"]) == (credit.id, "50.00", "Carlos Alberto Nunes")
    assert main([*base, "apply-credit", "--charge", nxt.number, "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["charge_status"] == "paid" and done["still_owed"] == "0.00"
    assert [u["amount"] for u in done["uses"]] == ["30.00"] and done["credits"][0]["balance"] == "20.00"
    assert main([*base, "refund-credit", str(credit.id), "--reason", "OB 77", "--amount", "25,00"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no máximo R$ 20,00" in err
    assert main([*base, "refund-credit", "x1", "--reason", "OB 77"]) == 2
    assert "Número de crédito inválido" in capsys.readouterr().err
    assert main([*base, "refund-credit", str(credit.id), "--reason", "OB 77"]) == 0
    assert "devolução de R$ 20,00" in capsys.readouterr().out
    assert main([*base, "credits"]) == 0
    assert "Nenhum crédito em aberto" in capsys.readouterr().out


def test_the_desk_shows_the_payers_credit_and_uses_it_on_the_selected_charge(database, qtbot, app_ready, tmp_path):
    from factories import person

    from models.billing.charges import Charge
    from views.charges_page import ChargesTab

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor)  # R$ 20,00
    nxt = _fine(vendor, "50,00", label="Multa — art. 162")
    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.resize(1366, 700)
    tab.show()
    tab.set_month(2026, 3)
    assert tab.select_number(nxt.number)
    assert tab.credit_button.isEnabled()
    assert (
        f"Crédito do contribuinte</b> nº {credit.id}" in tab.detail.text() and "R$ 20,00 em aberto" in tab.detail.text()
    )
    tab.grab().save(str(tmp_path / "credito.png"))
    asked = []
    assert tab.use_credit_selected(confirm=lambda text: asked.append(text) and False) is None
    assert "Usar R$ 20,00 de crédito" in asked[0] and Charge.get_by_id(nxt.id).paid_total == 0
    uses = tab.use_credit_selected(confirm=lambda text: True)
    assert uses and "Crédito usado na cobrança" in tab.message.text()
    assert Charge.get_by_id(nxt.id).open_amount == Decimal("30.00")
    assert tab.select_number(nxt.number)
    assert f"com o crédito nº {credit.id}" in tab.detail.text() and not tab.credit_button.isEnabled()
    assert not tab.refund_button.isEnabled()  # the credit is used up


def _refund(dialog, qtbot, amount: str | None, reason: str) -> None:
    """Type into the refund dialog as a clerk does and press Devolver."""
    from PySide6.QtCore import Qt

    if amount is not None:
        dialog.amount.clear()
        qtbot.keyClicks(dialog.amount, amount)
    dialog.reason.setText(reason)  # QTest types no "º"
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)


def test_the_desk_refunds_part_of_the_payers_credit_typed_the_brazilian_way_as_an_act(
    database, qtbot, app_ready, tmp_path
):
    from factories import person

    from models.billing.collection.credits import balances
    from models.billing.collection.tables import Credit, CreditUse
    from models.store.audit import verify_chain
    from views.charges_page import ChargesTab

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor, "2.300,00", "300,00")  # R$ 2.000,00 of credit
    nxt = _fine(vendor, "50,00", label="Multa — art. 162")
    tab = ChargesTab(today=TODAY)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    assert tab.select_number(nxt.number) and tab.refund_button.isEnabled()
    seen = {}

    def refused_then_part(dialog):
        seen["whole"] = dialog.amount.text()
        dialog.show()
        for amount, reason, field, says in [
            ("1.50", "Ordem bancária nº 123", "amount", "pode ser lido de duas formas"),  # ambiguous
            ("2.000,01", "Ordem bancária nº 123", "amount", "no máximo R$ 2.000,00"),  # above the balance
            ("0,00", "Ordem bancária nº 123", "amount", "maior que zero"),
            ("abc", "Ordem bancária nº 123", "amount", "«abc»"),
            ("1.500,00", "  ", "reason", "Informe o motivo"),
        ]:
            _refund(dialog, qtbot, amount, reason)
            assert dialog.use is None and dialog.isVisible(), amount
            assert says in dialog.error.text(), (amount, dialog.error.text())
            assert says in getattr(dialog, field).toolTip(), (field, amount)  # marked at the field
            assert CreditUse.select().count() == 0
        dialog.grab().save(str(tmp_path / "devolver.png"))
        _refund(dialog, qtbot, "1.500,00", "Ordem bancária nº 123")
        assert dialog.use is not None and not dialog.isVisible()

    use = tab.refund_credit_selected(dialog_hook=refused_then_part)
    assert seen["whole"] == "2.000,00"  # the whole balance is offered
    assert use is not None and "Devolução de R$ 1.500,00 do crédito" in tab.message.text()
    assert (use.kind, use.amount, use.reason) == ("refund", Decimal("1500.00"), "Ordem bancária nº 123")
    assert use.number == "2026/00001"
    assert balances([credit.id])[credit.id] == Decimal("500.00") and Credit.get_by_id(credit.id).status == "open"
    assert tab.select_number(nxt.number) and "R$ 500,00 em aberto" in tab.detail.text()
    # the rest, as offered: the credit is refunded
    rest = tab.refund_credit_selected(dialog_hook=lambda d: _refund(d, qtbot, None, "OB 124"))
    assert rest is not None and rest.amount == Decimal("500.00") and rest.number == "2026/00002"
    assert Credit.get_by_id(credit.id).status == "refunded" and balances([credit.id])[credit.id] == Decimal("0.00")
    assert tab.select_number(nxt.number) and not tab.refund_button.isEnabled()
    assert verify_chain().intact


def test_the_monthly_reports_credits_block_agrees_to_the_cent_and_a_credit_used_is_not_received(database, tmp_path):
    import openpyxl
    from factories import person

    from models.billing.charges import month_summary
    from models.billing.collection.credits import apply_credit, refund_credit
    from reports.fee_export import export_fee_report

    vendor = person("Carlos Alberto Nunes")
    credit = _overpaid(vendor, "100,00", "80,00")  # received R$ 100,00; R$ 20,00 of credit
    apply_credit(_fine(vendor, "12,50"), today=TODAY)  # R$ 12,50 used
    refund_credit(credit.id, reason="OB 1", amount="5,00", today=TODAY)  # R$ 5,00 refunded; R$ 2,50 open
    expected = {
        "Recebido no balcão": Decimal("100.00"),
        "Créditos de contribuintes": Decimal("20.00"),
        "Créditos usados em cobranças": Decimal("12.50"),
        "Créditos devolvidos": Decimal("5.00"),
        "Créditos em aberto no fim do mês": Decimal("2.50"),
    }
    assert month_summary(2026, 3, today=TODAY).received == Decimal("100.00")  # the credit's payment is not money
    _path, report = export_fee_report(2026, 3, "xlsx", tmp_path / "taxas.xlsx", today=TODAY)
    figures = {f.label: f.amount for f in report.collection.rows}
    assert {k: figures[k] for k in expected} == expected and report.received == Decimal("100.00")
    resumo = openpyxl.load_workbook(tmp_path / "taxas.xlsx", data_only=True)["Resumo"]
    shown = {r[0]: r[1] for r in resumo.iter_rows(min_row=4, max_row=60, max_col=2, values_only=True) if r[0]}
    assert {k: Decimal(str(shown[k])).quantize(Decimal("0.01")) for k in expected} == expected
    export_fee_report(2026, 3, "html", tmp_path / "taxas.html", today=TODAY)
    html = (tmp_path / "taxas.html").read_text(encoding="utf-8")
    labels = [f.label for f in report.collection.rows]
    for label, amount in expected.items():
        assert f'id="arrecadacao-{labels.index(label) + 1}" data-cents="{int(amount * 100)}"' in html
    export_fee_report(2026, 3, "pdf", tmp_path / "taxas.pdf", today=TODAY)
    text = " ".join(pdf_text(tmp_path / "taxas.pdf").split())
    assert "Créditos usados em cobranças R$ 12,50" in text and "Créditos em aberto no fim do mês R$ 2,50" in text
