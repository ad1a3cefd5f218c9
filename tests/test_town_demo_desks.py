"""Issue 31 "Done when": each of the three jobs done end to end in each town's demo, through the desks, as a clerk
would — typing, clicking and reading what the screens show (one driver, parametrised over the towns).

* **Front desk** — the clerk finds a person (or company) of the town at the Balcão, files an application with the
  documents delivered and reads the eligibility; the chefe opens it from the worklist and approves it with the
  record in front; the clerk issues the permit (paying its charges at the fee desk first where the act prices it)
  and prints it.
* **Map desk** — the town's site opens on its map with its stalls; "+ Banca" adds a stall where no rule is broken,
  a holder without a stall is given one where there is one, and the map is saved through its live checks.
* **Fees and enforcement** — the month's charges, a payment recorded at the fee desk; an inspector's record with
  the sanction the act proposes; the month's fee report written.

Each town's demo is built once per session (``town_demo`` in tests/demo_db.py) and copied for each test, on
SQLite; São Bento's (the README's town) also on PostgreSQL when PRACA_TEST_PG is set — one town there, as the demo
built on PostgreSQL costs several times SQLite's; the same jobs through the services are compared on both back ends
for every town in tests/test_town_demos.py.
What a clerk types for each town is the test's (``TOWN_FILINGS`` in tests/factories.py), not the demo's.
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import run_modal, searched, type_text
from factories import town_filing
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from models.access import session
from models.demo.towns import TOWNS

#: every town on SQLite; São Bento's also on PostgreSQL (skipped without PRACA_TEST_PG)
pytestmark = pytest.mark.parametrize(
    "town_demo",
    [*TOWNS, pytest.param(("sao-bento", "postgresql"), id="sao-bento-postgresql")],
    indirect=True,
)


def _chefe() -> None:
    session.log_in(session.Session(None, "helena.prado", "Helena Prado", "chefe"))


def test_the_front_desk_files_approves_issues_and_prints(qtbot, town_demo, tmp_path, monkeypatch):
    from pdftext import pdf_text

    from models.permits import Permit
    from models.registry.applications import Application
    from views.front_desk import FrontDeskPage

    place = TOWNS[town_demo.slug]
    filing = town_filing(town_demo.slug)
    page = FrontDeskPage(key_dir=tmp_path / "keys")
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    page.refresh()
    # the Balcão: found by a piece of the name, as typed
    holder = filing.holder()
    name = holder.name if filing.holder_kind == "person" else holder.legal_name
    desk = page.search
    type_text(desk.query, name[:12])
    searched(qtbot, desk)
    rows = [(m.kind, m.id) for m in desk.model.rows]
    assert (filing.holder_kind, holder.id) in rows, rows
    desk.table.selectRow(rows.index((filing.holder_kind, holder.id)))
    seen = {}

    def file(dialog):
        dialog.resize(1366, 768)
        regimes = [dialog.regime.itemData(i) for i in range(dialog.regime.count())]
        assert regimes == [place.regime_id], regimes  # only the town's own act takes new work
        dialog.regime.setCurrentIndex(0)
        filing.fill(qtbot, dialog)
        documents = dialog.documents
        for row in range(documents.rowCount()):
            dialog.set_delivered(documents.item(row, 0).data(Qt.ItemDataRole.UserRole))
        dialog.settle()
        seen["verdict"] = dialog.verdict.text()
        seen["rules"] = [dialog.rules.item(r, 0).text() for r in range(dialog.rules.rowCount())]
        seen["failed"] = [
            dialog.rules.item(r, 0).text()
            for r in range(dialog.rules.rowCount())
            if dialog.rules.item(r, 0).data(Qt.ItemDataRole.UserRole) == "failed"
        ]
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        seen["protocol"] = dialog.protocol.text()

    run_modal(desk.start_application, file)
    assert seen["verdict"] and seen["rules"], seen  # the eligibility, rule by rule, in front of the clerk
    assert not seen["failed"], seen["failed"]
    assert seen["protocol"].startswith(f"Protocolo {dt.date.today().year}/"), seen
    app = Application.select().order_by(Application.id.desc()).first()
    assert app.regime == place.regime_id and app.protocol in seen["protocol"]

    # the chefe: in analysis, then Aprovar opens the record; any check still to be made asks for a recorded reason
    _chefe()
    work = page.worklist
    page.tabs.setCurrentWidget(work)
    work.refresh()
    work.select_protocol(app.protocol)
    qtbot.mouseClick(work.action_buttons["analysis"], Qt.MouseButton.LeftButton)
    assert Application.get_by_id(app.id).status == "analysis"
    reason = "Documentos conferidos no balcão pela chefia."
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: (reason, True))

    def decide(view):
        seen["filed"] = view.filed.toPlainText()
        qtbot.mouseClick(view.approve_button, Qt.MouseButton.LeftButton)

    run_modal(lambda: qtbot.mouseClick(work.action_buttons["approved"], Qt.MouseButton.LeftButton), decide)
    assert name in seen["filed"] and "Elegibilidade" in seen["filed"]
    assert Application.get_by_id(app.id).status == "approved", work.message.text()

    # its charges first where the act prices the permit, paid at the fee desk; then the permit, issued and printed
    session.log_in(session.SYSTEM)
    work.select_protocol(app.protocol)
    if filing.priced:
        qtbot.mouseClick(work.action_buttons["awaiting_payment"], Qt.MouseButton.LeftButton)
        assert "aguardando pagamento" in work.message.text(), work.message.text()
        _pay_charges_of(qtbot, app)
        work.refresh_rows()
        work.select_protocol(app.protocol)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (f"31/12/{dt.date.today().year + 1}", True))
    assert work.issue_button.isEnabled()
    qtbot.mouseClick(work.issue_button, Qt.MouseButton.LeftButton)
    permit = work.last_permit
    assert permit is not None, work.message.text()
    assert f"Permissão nº {permit.number} emitida" in work.message.text()
    assert Permit.get_by_id(permit.id).regime == place.regime_id

    from views.permits import PermitsTab

    permits = PermitsTab(key_dir=tmp_path / "keys")
    qtbot.addWidget(permits)
    permits.resize(1366, 700)
    permits.show()
    permits.refresh()
    type_text(permits.query, permit.number)
    assert permits.select_permit(permit.id), permit.number
    out = permits.acts.save_pdf("permit", tmp_path / "permissao.pdf")
    assert out is not None and str(out) in permits.message.text()
    text = pdf_text(out, squash="all")
    assert permit.number in text and name.replace(" ", "") in text.replace(" ", "")
    from PySide6.QtPrintSupport import QPrinter  # and printed: the same document laid out for the printer

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "impresso.pdf"))
    assert permits.acts.print_permit(printer)
    assert "enviada para impressão" in permits.message.text()
    assert permit.number in pdf_text(tmp_path / "impresso.pdf", squash="all")


def _pay_charges_of(qtbot, app) -> None:
    """Each open charge of ``app`` paid at the fee desk, found by its number in its month's list."""
    from models.billing.charges import open_charges_of_application
    from views.charges_page import ChargesTab

    charges = list(open_charges_of_application(app))
    assert charges, "the act prices the permit: its charges to pay first"
    tab = ChargesTab()
    qtbot.addWidget(tab)
    tab.show()
    for charge in charges:
        tab.set_month(charge.due_on.year, charge.due_on.month)
        _pay_at_the_desk(qtbot, tab, charge.number)


def _pay_at_the_desk(qtbot, tab, number: str) -> None:
    """The charge ``number``, listed in ``tab``'s month, paid with its boleto's line typed in Registrar pagamento."""
    from models.billing.charges import Charge, Payment

    listed = [tab.model.rows[r].number for r in range(tab.model.rowCount())]
    tab.table.selectRow(listed.index(number))
    payments = Payment.select().count()

    def pay(dialog):
        type_text(dialog.reference, "34191.79001 01043")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    run_modal(tab.pay_selected, pay)
    assert Payment.select().count() == payments + 1
    assert Charge.get(Charge.number == number).status == "paid", tab.message.text()


def test_the_map_desk_opens_the_site_places_and_assigns_a_stall_and_saves(qtbot, town_demo):
    from models.sites import Site, stall_rows
    from views.maps_page import MapsPage

    place = TOWNS[town_demo.slug]
    page = MapsPage()
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    page.refresh()
    own = {s.id: s.name for s in Site.select().where(Site.regime == place.regime_id)}
    listed = {r.id: r for r in page.model.rows}
    assert set(listed) == set(own), ([r.name for r in page.model.rows], own)
    site_id = max(listed, key=lambda i: listed[i].stalls)  # the town's site with its stalls laid out
    assert listed[site_id].stalls > 0
    assert page.select_site(site_id)
    editor = page.editor
    assert page.stack.currentWidget() is editor and len(editor.items) == listed[site_id].stalls
    before = len(editor.plan.stalls)
    free = editor.free_holders()
    editor.tools.action_add.trigger()  # "+ Banca": at the first place where no rule is broken
    (uid,) = editor.selected_uids()
    assert len(editor.plan.stalls) == before + 1 and not editor.open_breaches(), editor.open_breaches()
    holder = None
    if free:  # a holder without a stall on this site: given the new one (refusals say why, with the article)
        panel = editor.holder_panel
        for row in range(panel.holder_list.count()):
            panel.holder_list.setCurrentRow(row)
            editor.select_stalls([uid])
            qtbot.mouseClick(panel.assign_button, Qt.MouseButton.LeftButton)
            if editor.plan.stalls[uid].holder_id is not None:
                holder = editor.plan.stalls[uid].holder_id
                break
        assert holder is not None, panel.holder_message.text()
    editor.tools.action_save.trigger()
    assert "Mapa salvo" in editor.message.text(), editor.message.text()
    assert not editor.is_dirty()
    saved = stall_rows(site_id)
    assert len(saved) == before + 1
    if holder is not None:
        assert holder in {r.permit_id for r in saved}


def test_the_fee_and_enforcement_desks_charge_collect_sanction_and_report(qtbot, town_demo, tmp_path):
    from pdftext import pdf_text

    from models.billing.charges import Charge
    from models.enforcement import Record
    from models.rules.regimes import get_regime
    from views.charges_page import ChargesTab
    from views.enforcement import EnforcementPage
    from views.reports_page import ReportsPage

    place = TOWNS[town_demo.slug]
    today = dt.date.today()
    # the fees: the month's charges listed; an open one paid at the desk (an event's charges may fall due next month:
    # the clerk turns to it)
    tab = ChargesTab()
    qtbot.addWidget(tab)
    tab.resize(1366, 700)
    tab.show()
    ahead = dt.date(today.year + today.month // 12, today.month % 12 + 1, 1)
    for month in (today, ahead):
        tab.set_month(month.year, month.month)
        listed = [tab.model.rows[r].number for r in range(tab.model.rowCount())]
        open_ones = [n for n in listed if Charge.get(Charge.number == n).status == "open"]
        if open_ones:
            break
    assert open_ones, f"no charge open this month or the next: {listed}"
    _pay_at_the_desk(qtbot, tab, open_ones[0])

    # the enforcement desk: an infraction recorded today, the act's sanction proposed with its article
    regime = get_regime(place.regime_id)
    code = town_filing(town_demo.slug).infraction or regime.infractions[0].code
    page = EnforcementPage()
    qtbot.addWidget(page)
    page.resize(1366, 700)
    page.show()
    page.refresh()
    records = page.records
    before = {r.reference for r in Record.select()}
    shown = {records.model.index(r, 0).data() for r in range(records.model.rowCount())}
    assert before and shown >= before
    holder = town_filing(town_demo.slug).holder()
    name = holder.name if town_filing(town_demo.slug).holder_kind == "person" else holder.legal_name
    seen = {}

    def fill(dialog):
        form = dialog.form
        assert [form.regime.itemData(i) for i in range(form.regime.count())] == [place.regime_id]
        type_text(form.offender_search, name[:12])
        qtbot.waitUntil(lambda: form.matches.rowCount() >= 1, timeout=10000)
        form.matches_view.selectRow(0)
        form.time.setText("10:15")
        type_text(form.place, place.streets[0])
        type_text(form.facts, "Constatado pela fiscalização em ronda de rotina.")
        dialog.check_infraction(code)
        form.inspector.setText("Marcos Ribeiro")
        type_text(form.inspector_id, "4521")
        dialog.update_preview()
        seen["proposal"] = dialog.proposal_view.toPlainText()
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)
        seen["error"] = dialog.error.text()
        if dialog.isVisible() and "informe o vencimento" in seen["error"]:  # the act sets no term: the inspector does
            form.payment_due.setFocus()
            qtbot.keyClicks(form.payment_due, f"{today + dt.timedelta(days=30):%d%m%Y}")
            qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)
            seen["error"] = dialog.error.text()

    _dialog, record = run_modal(lambda: records.new_record(regime=place.regime_id), fill)
    proposal = seen["proposal"]  # the sanction the act sets, with its article, before the record is issued
    assert "Penalidade:" in proposal and "Base legal:" in proposal and regime.short in proposal, proposal
    assert record is not None, seen
    assert record.regime == place.regime_id and record.reference not in before
    assert f"{record.reference} lavrado" in records.message.text()

    # the month's fee report, written as PDF, headed by the town hall
    reports = ReportsPage()
    qtbot.addWidget(reports)
    reports.show()
    reports.refresh()
    reports.set_month(today.year, today.month)
    assert "cobrança(s)" in reports.summary.text(), reports.summary.text()
    reports.set_format("pdf")
    out = reports.export(tmp_path / "taxas.pdf", open_after=False)
    assert out is not None, reports.message.text()
    text = pdf_text(out)
    assert place.municipality in text, text[:400]
