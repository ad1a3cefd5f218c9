"""Seleção desk, the whole page on real widgets: the call, scores line by line, the list's hash published,
the draw with the seed typed, the ata, annulment and a new draw, the holders' permits and stalls.

Runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL (``database`` through ``keys``)."""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

import pytest
from conftest import type_text
from factories import SAPEZAL_SITE, TODAY, approved, company, person, sapezal_applicant
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QInputDialog, QLabel

from models.base.errors import UserError
from models.billing.charges import Charge, Payment, create_charge, record_payment
from models.permits import Permit
from models.registry.applications import Application
from models.selection import order_from_list
from models.selection.draws import Draw, DrawEntry, verify_draw
from models.selection.process_tables import ListPublication, PointDraw, RotationEvent, SelectionAppeal
from models.selection.rotation_list import add_event, hold_point_draw, parse_points, verify_point_draw
from models.services.calls import call_list, payment_time, stall_choices
from models.sites import SegmentInput, SiteInput, Stall, save_layout, save_site
from models.sites.layout import PlacedStall
from views.selection import SelectionPage


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.objectName()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def column(view, col: int) -> list[str]:
    model = view.model()
    return [model.index(r, col).data() for r in range(model.rowCount())]


def stalls_site(name, regime, count, **kw):
    site = save_site(
        SiteInput(
            name=name, kind="street", regime=regime, segments=[SegmentInput(street=name, length="60", width="10")], **kw
        )
    )
    save_layout(
        site,
        [
            PlacedStall(key=str(n), number=n, side="a", x=D(4 * (n - 1)), y=D(0), width=D(3), depth=D(2))
            for n in range(1, count + 1)
        ],
    )
    return site


@pytest.fixture
def sapezal(keys):
    """Four applicants of group 3 (one still in analysis), one debtor, and a square with five stalls."""
    people = {}
    people["rosa"] = sapezal_applicant(
        "Rosa Maria Amaral",
        housing="rented",
        income="0,80",
        birth=dt.date(1958, 2, 1),
        since=dt.date(1990, 1, 1),
        children=(dt.date(2015, 5, 5),),
        disabled=True,
    )
    people["joao"] = sapezal_applicant(
        "João Carlos Peixoto", housing="financed", income="1,50", birth=dt.date(1970, 6, 1), since=dt.date(2005, 3, 1)
    )
    people["lucia"] = sapezal_applicant(
        "Lúcia Helena Prado", housing="owned", income="2,50", birth=dt.date(1985, 9, 9), since=dt.date(2016, 1, 1)
    )
    people["tiago"] = sapezal_applicant(
        "Tiago Nunes Barreto",
        housing="other",
        income="5,00",
        birth=dt.date(2000, 1, 1),
        since=dt.date(2023, 1, 1),
        status="analysis",
    )
    people["devedor"] = sapezal_applicant(
        "Dário Devedor Souza", housing="rented", income="0,50", birth=dt.date(1950, 1, 1), since=dt.date(1980, 1, 1)
    )
    create_charge(
        kind="fine",
        regime="sapezal-2014",
        label="Multa por ocupação irregular",
        amount="150,00",
        due_on=TODAY - dt.timedelta(days=30),
        basis="art. 45",
        by="fiscal",
        person_id=people["devedor"][0].id,
        today=TODAY - dt.timedelta(days=40),
    )
    site = stalls_site(SAPEZAL_SITE, "sapezal-2014", 5)
    return people, site


@pytest.fixture(autouse=True)
def save_dialog(monkeypatch, tmp_path):
    """A save dialog would wait forever offscreen: it answers with the name offered, in the test's folder."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(
        QFileDialog,
        "getSaveFileName",
        lambda _parent, _title, name, *a, **k: (str(tmp_path / Path(name).name), "PDF (*.pdf)"),
    )


def type_lines(qtbot, widget, *lines: str) -> None:
    """Type lines into a multi-line field, Enter between them (type_text sends no line breaks)."""
    for i, line in enumerate(lines):
        if i:
            qtbot.keyClick(widget, Qt.Key.Key_Return)
        type_text(widget, line)


def set_date(edit, day: dt.date) -> None:
    edit.setDate(QDate(day.year, day.month, day.day))


def shot(widget, name: str) -> None:
    """Save what the clerk sees (PRACA_SHOTS=folder), to look at the screens offscreen."""
    import os

    folder = os.environ.get("PRACA_SHOTS")
    if folder:
        from PySide6.QtWidgets import QApplication

        for _ in range(3):  # the layout requests posted by the last changes
            QApplication.processEvents()
        widget.grab().save(os.path.join(folder, f"{name}.png"))


def shot_pdf(path, name: str) -> None:
    """The first page of a PDF as PNG (PRACA_SHOTS=folder; needs pdftoppm)."""
    import os
    import shutil
    import subprocess

    folder = os.environ.get("PRACA_SHOTS")
    if folder and shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", str(path), os.path.join(folder, name)], check=True
        )


def final_list(qtbot, page, tmp_path, *, ranking_on=dt.date(2026, 11, 16), final_on=dt.date(2026, 11, 24)):
    """Publish the ranking (art. 10, § 4º), let the window pass with no appeal, publish the final list (§ 5º)."""
    set_date(page.call.published_on, ranking_on)
    page.call.publish(tmp_path / "classificacao.pdf")
    page.tabs.setCurrentWidget(page.appeals)
    set_date(page.appeals.final_on, final_on)
    click(qtbot, page.appeals.final_button)
    page.tabs.setCurrentWidget(page.call)


def choose_call(qtbot, page, regime, site_text, group=""):
    call = page.call
    page.refresh()
    call.regime.setCurrentIndex(call.regime.findData(regime))
    call.site.setFocus()
    call.site.lineEdit().selectAll()
    type_text(call.site.lineEdit(), site_text)
    qtbot.keyClick(call.site.lineEdit(), Qt.Key.Key_Return)
    if group:
        call.group.setCurrentIndex(call.group.findData(group))


def test_the_whole_sapezal_call_from_scores_to_stalls(qtbot, page, sapezal, tmp_path, monkeypatch, steps):
    people, _site = sapezal
    call = page.call
    choose_call(qtbot, page, "sapezal-2014", SAPEZAL_SITE, "g03")
    assert "art. 10" in call.method.text() and "10 suplentes" in call.method.text()
    assert "devedores" in call.method.text() and "art. 12, I" in call.method.text()

    # the eligible participants: four listed by rank (Rosa first), the debtor flagged and left out with the article
    names = column(call.table, 2)
    assert len(names) == 5 and names[0] == "Rosa Maria Amaral" and names[-1] == "Dário Devedor Souza"
    assert column(call.table, 0)[:4] == ["1º", "2º", "3º", "4º"] and column(call.table, 0)[4] == "—"
    assert column(call.table, 9) == ["sim"] * 4 + ["excluído"]
    assert column(call.table, 7)[4] == "em débito"
    assert "analysis" in {c.status for c in call.current.candidates}  # in analysis, still in the call
    call.select_protocol(people["devedor"][1].protocol)
    detail = call.detail.text()
    assert "Fora da lista" in detail and "art. 12, I" in detail and "1 multa não paga" in detail
    assert "R$ 150,00" in detail

    # each points line of art. 10 is visible, with its article, and the total
    call.select_protocol(people["rosa"][1].protocol)
    detail = call.detail.text()
    for label, basis in (
        ("Moradia", "art. 10, I"),
        ("Renda familiar", "art. 10, II"),
        ("Idade", "art. 10, III"),
        ("Tempo de residência", "art. 10, IV"),
        ("filhos menores de 16", "art. 10, V"),
    ):
        assert label in detail and basis in detail
    rosa = call.current.candidates[0]
    assert rosa.score.total == sum(line.points for line in rosa.score.lines)
    assert f"<b>{rosa.score.total}</b>" in detail and "1º na classificação do grupo" in detail
    assert rosa.score.complete and column(call.table, 5)[0] == str(rosa.score.total)
    # only the columns this act uses: points, no payment time, no marks
    assert not call.table.isColumnHidden(call.POINTS) and call.table.isColumnHidden(call.PAYMENT)
    assert call.table.isColumnHidden(call.MARKS) and not call.preference_button.isVisible()

    # the ranking and its SHA-256 are shown and published (PDF to post, exact text to re-run the draw): art. 10, § 4º
    sha = call.current.sha256
    assert sha in call.hash_label.text() and "Ainda não publicada" in call.hash_label.text()
    assert call.publish_button.text().replace("&", "") == "Publicar classificação…"
    set_date(call.published_on, dt.date(2026, 11, 16))
    pdf = call.publish(tmp_path / "lista.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    exact = (tmp_path / "lista.txt").read_bytes()
    assert hashlib.sha256(exact).hexdigest() == sha
    assert exact.decode("utf-8").count("\n") == 4 and "group=g03" in exact.decode("utf-8")
    assert "Publicada em 16/11/2026" in call.hash_label.text() and sha in call.message.text()
    assert "Prazo de recurso até 19/11/2026" in call.message.text() and "art. 10, § 4º" in call.message.text()
    assert not call.publish_button.isEnabled()  # the same ranking is not published twice

    # no draw before the final list (art. 10, § 5º); with no appeal in the window, the final list is the ranking
    draw_tab = page.draw
    assert not draw_tab.draw_button.isEnabled() and "lista definitiva" in draw_tab.summary.text()
    page.tabs.setCurrentWidget(page.appeals)
    set_date(page.appeals.final_on, dt.date(2026, 11, 20))
    click(qtbot, page.appeals.final_button)
    final = ListPublication.get(ListPublication.kind == "final")
    assert final.list_sha256 == sha and final.published_on == dt.date(2026, 11, 20)

    # the draw: place, officials, places, the seed typed in front of the public
    page.tabs.setCurrentWidget(page.draw)
    assert sha in draw_tab.summary.text() and "publicada em 20/11/2026" in draw_tab.summary.text()
    assert draw_tab.alternates.value() == 10 and "art. 12" in draw_tab.alternates_basis.text()
    type_text(draw_tab.place, "Auditório da Prefeitura")
    type_lines(qtbot, draw_tab.officials, "Maria Secretária (presidente)", "José Testemunha")
    type_text(draw_tab.vacancies, "3")
    # where the act is silent (issue 28 §2): the alternates of art. 12, § 3º and the tie-break of art. 10, § 3º
    assert not draw_tab.readings.isHidden()
    assert set(draw_tab.readings.combos) == {"suplentes-por-sorteio", "deficiente-fisico"}
    combo = draw_tab.readings.combos["deficiente-fisico"]
    combo.setCurrentIndex(combo.findData("so-deficiencia-fisica"))
    type_text(draw_tab.readings.reasons["deficiente-fisico"], "o edital repete a letra da lei")
    click(qtbot, draw_tab.draw_button)  # no seed yet
    assert "semente" in draw_tab.error.text() and Draw.select().count() == 0
    type_text(draw_tab.seed, "Loteria Federal 12345")
    click(qtbot, draw_tab.draw_button)
    first = Draw.get()
    kept = {r["point"]: r for r in first.result["readings"]}
    assert kept["deficiente-fisico"]["reason"] == "o edital repete a letra da lei"
    assert kept["suplentes-por-sorteio"]["reading"] == "sorteio-entre-nao-selecionados"
    assert first.list_sha256 == sha and first.seed == "Loteria Federal 12345" and verify_draw(first) == []
    assert page.tabs.currentWidget() is page.draws

    # holders (the three best scores, listed in drawn order), the alternate, the debtor excluded
    draws = page.draws
    assert column(draws.table, 0) == [str(first.id)] and column(draws.table, 7) == ["confere"]
    results = column(draws.entries_view, 1)
    assert sorted(results) == ["excluído", "suplente 1º", "titular 1º", "titular 2º", "titular 3º"]
    holders = {e.name for e in DrawEntry.select().where((DrawEntry.draw == first.id) & (DrawEntry.role == "holder"))}
    assert holders == {"Rosa Maria Amaral", "João Carlos Peixoto", "Lúcia Helena Prado"}
    assert "Loteria Federal 12345" in draws.about.text() and "reproduz a ordem" in draws.about.text()

    # the ata, saved as PDF and printed
    ata = draws.save_ata(tmp_path / "ata.pdf")
    assert ata.read_bytes().startswith(b"%PDF") and "gravada" in draws.message.text()
    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "impressa.pdf"))
    assert draws.print_ata(printer) and (tmp_path / "impressa.pdf").read_bytes().startswith(b"%PDF")

    # annulled with a written reason, then a new draw held in its place
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("", True))
    click(qtbot, draws.annul_button)
    assert "motivo" in draws.message.text() and Draw.get_by_id(first.id).status == "held"
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Semente lida errado em voz alta", True))
    click(qtbot, draws.annul_button)
    assert Draw.get_by_id(first.id).status == "annulled"
    assert "anulado" in column(draws.table, 6)[0] and not draws.issue_button.isEnabled()
    click(qtbot, draws.replace_button)
    assert page.tabs.currentWidget() is page.call and f"nº {first.id}" in draw_tab.replacing.text()
    assert draw_tab.vacancies.text() == "3" and draw_tab.place.text() == "Auditório da Prefeitura"
    call.group.setCurrentIndex(call.group.findData("g03"))
    type_text(draw_tab.seed, "Loteria Federal 54321")
    click(qtbot, draw_tab.draw_button)
    second = Draw.get(Draw.id != first.id)
    assert Draw.get_by_id(first.id).replaced_by_id == second.id
    assert second.list_sha256 == sha  # the same published list
    assert draws.selected().id == second.id and "substitui o nº" in draws.selected().situation
    situations = dict(zip(column(draws.table, 0), column(draws.table, 6), strict=True))
    assert f"substituído pelo nº {second.id}" in situations[str(first.id)]

    # the holders' permits, then the stalls, holder 1 choosing first
    draws.inner.setCurrentIndex(1)
    assert draws.holders.rowCount() == 3
    assert draws.stall_combo(0).currentText().startswith("emita a permissão") or not draws.stall_combo(0).isEnabled()
    # art. 11: CNPJ, health and clearance certificates within 10 business days of the final list (20/11/2026)
    assert not draws.holders.isColumnHidden(7)
    assert [draws.holders.item(r, 7).text() for r in range(3)] == ["3 a apresentar até 04/12/2026"] * 3
    click(qtbot, draws.issue_button)
    assert Permit.select().count() == 0 and draws.message.text().count("art. 11") >= 3
    for row in range(3):
        draws.holders.selectRow(row)
        assert draws.documents_button.isEnabled()

        def deliver(dialog):
            assert "até 04/12/2026" in dialog.findChild(QLabel, "deadline").text()
            for doc_id in ("cnpj-card", "health-certificate", "municipal-clearance"):
                dialog.tick(doc_id, on=TODAY)
            click(qtbot, dialog.save_button)

        with steps(f"documentos entregues: titular {row + 1}"):  # read and written on workers (issue 27 §5)
            assert len(draws.record_documents(fill=deliver)) == 3
    steps.check()
    assert [draws.holders.item(r, 7).text() for r in range(3)] == ["cumpridos"] * 3
    click(qtbot, draws.issue_button)
    permits = list(Permit.select().order_by(Permit.id))
    assert len(permits) == 3 and draws.message.text().count("emitida") == 3
    assert {p.site for p in permits} == {SAPEZAL_SITE}
    defaults = [draws.stall_combo(r).currentText() for r in range(3)]
    assert [t.split(" — ")[0] for t in defaults] == ["Banca 1", "Banca 2", "Banca 3"]
    first_holder = draws.holders.item(0, 2).text()
    combo = draws.stall_combo(0)
    combo.setCurrentIndex(combo.findText("Banca 5", Qt.MatchFlag.MatchStartsWith))
    click(qtbot, draws.assign_button)
    taken = {s.number: s.holder.holder_name for s in Stall.select().where(Stall.holder.is_null(False))}
    assert taken[5] == first_holder and set(taken) == {5, 2, 3}
    assert draws.holders.item(0, 5).text() == f"Banca 5 — {SAPEZAL_SITE}"
    assert "já ocupa a banca 5" in draws.stall_combo(0).currentText()
    # a second press issues nothing new
    click(qtbot, draws.issue_button)
    assert Permit.select().count() == 3 and draws.message.text().count("já emitida") == 3


def test_a_changed_list_must_be_published_again(qtbot, page, sapezal, tmp_path):
    people, _site = sapezal
    choose_call(qtbot, page, "sapezal-2014", SAPEZAL_SITE, "g03")
    final_list(qtbot, page, tmp_path)
    before = page.call.current.sha256
    assert "Publicada em 24/11/2026" in page.call.hash_label.text()
    # Lúcia, in the final list, is fined and does not pay: she is left out of the draw (art. 12, I), the list changes
    create_charge(
        kind="fine",
        regime="sapezal-2014",
        label="Multa",
        amount="80,00",
        due_on=TODAY - dt.timedelta(days=2),
        basis="art. 45",
        by="fiscal",
        person_id=people["lucia"][0].id,
        today=TODAY - dt.timedelta(days=5),
    )
    page.call.refresh_list()
    assert page.call.current.sha256 != before and "mudou desde a publicação" in page.call.hash_label.text()
    lucia = next(c for c in page.call.current.candidates if c.protocol == people["lucia"][1].protocol)
    assert "art. 12, I" in lucia.excluded
    draw = page.draw
    type_text(draw.place, "Prefeitura")
    type_text(draw.officials, "Ana")
    type_text(draw.vacancies, "2")
    type_text(draw.seed, "777")
    click(qtbot, draw.draw_button)
    assert "publique-a de novo" in draw.message.text() and Draw.select().count() == 0
    assert page.call.publish_button.text().replace("&", "") == "Publicar lista…"  # the draw's list, now
    page.call.publish(tmp_path / "lista2.pdf")
    assert ListPublication.select().where(ListPublication.kind == "list").count() == 1
    click(qtbot, draw.draw_button)
    assert Draw.select().count() == 1 and Draw.get().list_sha256 == page.call.current.sha256


def test_sao_bento_orders_by_payment_time_and_leaves_the_unpaid_out(qtbot, page, keys, monkeypatch):
    import json

    from models.billing.charges import await_payment
    from models.billing.pricing import quote

    frozen = quote(
        "sao-bento-2026", permit_kind="event-stall", equipment="barraca", front="3,00", depth="3,00", year=2026
    ).to_dict()
    apps = []
    for name in ("Pastelaria Um Ltda", "Doces Dois Ltda", "Caldo Três Ltda"):
        app = approved(
            "sao-bento-2026",
            "event-stall",
            on=dt.date(2026, 3, 16),
            site="rua-cel-ribeiro-da-luz",
            holder=company(name, person(f"Sócio de {name}")),
            equipment="barraca",
            front="3,00",
            depth="3,00",
        )
        Application.update(quote_json=json.dumps(frozen)).where(Application.id == app.id).execute()
        await_payment(Application.get_by_id(app.id), by="ana", today=dt.date(2026, 3, 16))
        apps.append(Application.get_by_id(app.id))
    # Doces pays at 09:10 on the day it is recorded, Pastelaria at 10:30; Caldo has not paid
    for app, moment in ((apps[1], dt.datetime(2026, 3, 18, 9, 10)), (apps[0], dt.datetime(2026, 3, 18, 10, 30))):
        for n, charge in enumerate(Charge.select().where(Charge.application == app.id)):
            payment = record_payment(
                charge,
                paid_on=dt.date(2026, 3, 18),
                amount=charge.amount,
                reference=f"{app.id}-{n}",
                by="caixa",
                today=dt.date(2026, 3, 18),
            )
            Payment.update(recorded_at=moment).where(Payment.id == payment.id).execute()
    at, text = payment_time(apps[0])
    assert at == dt.datetime(2026, 3, 18, 10, 30) and "hora do registro" in text
    choose_call(qtbot, page, "sao-bento-2026", "Rua Cel")
    call = page.call
    assert call.site_value() == "rua-cel-ribeiro-da-luz"  # completed from the act's label
    assert "data e hora do pagamento" in call.method.text()
    assert column(call.table, 2) == ["Doces Dois Ltda", "Pastelaria Um Ltda", "Caldo Três Ltda"]
    assert column(call.table, 0) == ["1º", "2º", "—"]
    assert column(call.table, 6)[:2] == ["18/03/2026 09:10:00", "18/03/2026 10:30:00"]
    assert "sem data e hora do pagamento" in call.current.candidates[2].excluded
    assert call.table.isColumnHidden(call.POINTS) and not call.table.isColumnHidden(call.PAYMENT)
    lines = call.current.published.text.splitlines()
    assert all("paid_at=2026-03-18T" in line for line in lines) and len(lines) == 2
    # Caldo paid on the 18th too, but the payment was recorded on the 19th: its time of day is not known, the
    # end of the 18th is taken — it does not pass ahead of payments of that day whose time is known
    for n, charge in enumerate(Charge.select().where(Charge.application == apps[2].id)):
        payment = record_payment(
            charge,
            paid_on=dt.date(2026, 3, 18),
            amount=charge.amount,
            reference=f"c-{n}",
            by="caixa",
            today=dt.date(2026, 3, 19),
        )
        Payment.update(recorded_at=dt.datetime(2026, 3, 19, 8, 0)).where(Payment.id == payment.id).execute()
    at, text = payment_time(apps[2])
    assert at == dt.datetime(2026, 3, 18, 23, 59, 59) and "hora não registrada" in text
    call.refresh_list()
    assert column(call.table, 2) == ["Doces Dois Ltda", "Pastelaria Um Ltda", "Caldo Três Ltda"]
    assert column(call.table, 0) == ["1º", "2º", "3º"] and len(call.current.published.participants) == 3


def test_sjc_preference_then_draw_permits_ask_the_end_and_stalls_of_the_section(qtbot, page, keys, monkeypatch):
    from models.demo.sites import demo_sites

    feira = "Feira Noturna do Jardim Satélite"
    apps = [
        approved(
            "sjc-2014",
            "feirante",
            holder=person(name),
            site=feira,
            line="pastel",
            section="xvi",
            equipment="banca",
            front="8,00",
            depth="3,50",
        )
        for name in ("Akira Fundador Tanaka", "Bruno Segundo Alves", "Carla Terceira Dias")
    ]
    demo_sites("sjc-2014")
    choose_call(qtbot, page, "sjc-2014", feira, "pastel")
    call = page.call
    assert call.preference_button.isVisible() and not call.quota_button.isVisible()
    assert "mais de 2" in call.method.text()
    call.select_protocol(apps[0].protocol)
    monkeypatch.setattr(QInputDialog, "getItem", lambda _p, _t, _l, items, *a, **k: (items[1], True))
    click(qtbot, call.preference_button)
    assert "preference=fundadores" in call.current.published.text
    assert column(call.table, 2)[0] == "Akira Fundador Tanaka" and column(call.table, 8)[0].startswith("Fundadores")
    draw = page.draw
    type_text(draw.place, "Sede da Associação dos Feirantes")
    type_lines(qtbot, draw.officials, "Fiscal de Posturas", "Presidente da Associação")
    type_text(draw.vacancies, "1")
    type_text(draw.seed, "0451")
    assert draw.alternates.value() == 0
    click(qtbot, draw.draw_button)
    held = Draw.get()
    holder = DrawEntry.get((DrawEntry.draw == held.id) & (DrawEntry.role == "holder"))
    assert holder.name == "Akira Fundador Tanaka"  # the founder first (art. 11, § 3º, I)

    draws = page.draws
    draws.inner.setCurrentIndex(1)
    asked = []

    def end_date(_parent, _title, label, *a, **k):
        asked.append(label)
        return "31/12/2027", True

    monkeypatch.setattr(QInputDialog, "getText", end_date)
    click(qtbot, draws.issue_button)
    permit = Permit.get()
    assert asked and permit.valid_until == dt.date(2027, 12, 31) and "emitida" in draws.message.text()
    # the stall offered is a free one of the holder's section; one of another section is refused in words
    offered = stall_choices(held, draws.site.currentData())[0]
    assert offered.default and Stall.get_by_id(int(offered.default)).section == "xvi"
    combo = draws.stall_combo(0)
    assert combo.currentData() == offered.default
    other = next(
        i for i in range(1, combo.count()) if Stall.get_by_id(int(combo.itemData(i))).section not in ("", "xvi")
    )
    combo.setCurrentIndex(other)
    click(qtbot, draws.assign_button)
    assert "Seção XVI" in draws.message.text() and not Stall.select().where(Stall.holder == permit.id).exists()
    draws.stall_combo(0).setCurrentIndex(draws.stall_combo(0).findData(offered.default))
    click(qtbot, draws.assign_button)
    assert Stall.get(Stall.holder == permit.id).id == int(offered.default)


def test_call_list_model_reads_marks_and_no_quota_in_the_event_draw(keys):
    """models/services/calls.py alone: the call of the arena takes the event credentials (Dec. 890/2017, art. 21), and a
    quota mark does not enter its list — the 10 % of art. 11, § 2º is of the licences, not of these draws."""
    app = approved(
        "ilha-comprida-2017", "credencial-evento", holder=person("Idosa Cotista Lima"), site="arena-de-shows"
    )
    approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        holder=person("Praia Sem Evento"),
        site="arena-de-shows",
        line="cadeiras-guarda-sol",
        equipment="carrinho",
        front="1,50",
        depth="0,80",
        hitch="0,20",
    )
    plain = call_list("ilha-comprida-2017", site="arena-de-shows", today=TODAY)
    marked = call_list("ilha-comprida-2017", site="arena-de-shows", today=TODAY, marks={app.protocol: {"quota": True}})
    assert [c.applicant for c in plain.candidates] == ["Idosa Cotista Lima"]  # the beach licence is not a call
    assert "quota=1" not in marked.published.text and plain.sha256 == marked.sha256
    assert plain.rules.quota_percent is None and "art. 11, § 2º" in plain.rules.quota_note
    assert call_list("ilha-comprida-2017", site="Arena de Shows", today=TODAY).candidates  # by the act's label
    nothing = call_list("ilha-comprida-2017", site="Outro lugar", today=TODAY)
    assert nothing.candidates == () and nothing.published is None and "vazia" in nothing.problem


# --------------------------------------------------------------------------- Sapezal art. 10, §§ 4º–5º


def test_sapezal_ranking_appeals_final_list_and_the_draw_on_it(qtbot, page, sapezal, tmp_path):
    """The ranking is published, an appeal in the window is granted and moves the ranking, an appeal after the window
    is not heard (art. 10, § 4º), the final list is published (§ 5º) and only then the draw of places runs on it."""
    people, _site = sapezal
    paulo = sapezal_applicant(
        "Paulo Sérgio Lima", housing="other", income="2,50", birth=dt.date(1986, 3, 3), since=dt.date(2016, 1, 1)
    )
    choose_call(qtbot, page, "sapezal-2014", SAPEZAL_SITE, "g03")
    call = page.call
    assert page.tabs.isTabVisible(page.tabs.indexOf(page.appeals))
    assert not page.tabs.isTabVisible(page.tabs.indexOf(page.rotation))
    assert page.tabs.tabText(page.tabs.indexOf(page.appeals)) == "2. Recursos e lista definitiva"
    assert column(call.table, 2)[:5] == [
        "Rosa Maria Amaral",
        "João Carlos Peixoto",
        "Lúcia Helena Prado",
        "Paulo Sérgio Lima",
        "Tiago Nunes Barreto",
    ]
    assert column(call.table, 5)[2:4] == ["300", "280"]
    shot(page, "sapezal-1-call")

    # published on Monday 16/11/2026: 3 days counted from the publication, the day itself not counted
    set_date(call.published_on, dt.date(2026, 11, 16))
    type_text(call.medium, "Mural da Prefeitura e Jornal do Sapezal")
    call.publish(tmp_path / "classificacao.pdf")
    ranking = ListPublication.get(ListPublication.kind == "ranking")
    assert ranking.appeal_due == dt.date(2026, 11, 19) and "art. 10, § 4º" in ranking.appeal_basis
    assert ranking.medium == "Mural da Prefeitura e Jornal do Sapezal" and len(ranking.entries) == 5
    assert not page.draw.draw_button.isEnabled() and "lista definitiva" in page.draw.summary.text()
    page.tabs.setCurrentWidget(page.draw)
    shot(page, "sapezal-0-draw-blocked")

    appeals = page.appeals
    page.tabs.setCurrentWidget(appeals)
    assert "16/11/2026" in appeals.status.text() and "19/11/2026 (quinta-feira)" in appeals.status.text()
    assert "art. 10, § 4º" in appeals.status.text()
    assert column(appeals.ranking_view, 2) == [
        "Rosa Maria Amaral",
        "João Carlos Peixoto",
        "Lúcia Helena Prado",
        "Paulo Sérgio Lima",
        "Tiago Nunes Barreto",
    ]

    # Paulo appeals on the 17th, in time: his home is rented, not "other"
    appeals.appellant.setCurrentIndex(appeals.appellant.findData(paulo[1].protocol))
    set_date(appeals.filed_on, dt.date(2026, 11, 17))
    type_text(appeals.grounds, "Moro de aluguel desde 2020; junto o contrato de locação.")
    click(qtbot, appeals.file_button)
    in_time = SelectionAppeal.get(SelectionAppeal.participant_id == paulo[1].protocol)
    assert in_time.status == "pending"
    # 3 business days from Tuesday 17/11: Friday 20/11 is a national holiday (Consciência Negra) → Monday 23/11
    assert in_time.decision_due == dt.date(2026, 11, 23) and "art. 10, § 5º" in in_time.decision_formula
    assert "23/11/2026" in appeals.message.text()
    assert column(appeals.appeals_view, 3) == ["aguardando decisão"]
    # the final list waits for the decision
    assert not appeals.final_button.isEnabled() and "Decida os recursos" in appeals.final_label.text()

    # Lúcia appeals on the 23rd, after the window closed on the 19th: recorded, not heard, with the article
    appeals.appellant.setCurrentIndex(appeals.appellant.findData(people["lucia"][1].protocol))
    set_date(appeals.filed_on, dt.date(2026, 11, 23))
    type_text(appeals.grounds, "Minha renda foi calculada errado.")
    click(qtbot, appeals.file_button)
    late = SelectionAppeal.get(SelectionAppeal.participant_id == people["lucia"][1].protocol)
    assert late.status == "late" and late.decision_due is None
    assert "não conhecido" in appeals.message.text() and "19/11/2026" in appeals.message.text()
    assert "art. 10, § 4º" in appeals.message.text()
    assert "não conhecido (fora do prazo)" in column(appeals.appeals_view, 3)

    # the commission grants Paulo's appeal on the 19th: housing 20 → 100 points; the ranking changes
    appeals.select_appeal(in_time.id)
    assert appeals.decide_button.isEnabled() and "Moro de aluguel" in appeals.appeal_detail.text()
    appeals.outcome.setCurrentIndex(appeals.outcome.findData(True))
    appeals.criterion.setCurrentIndex(appeals.criterion.findData("moradia"))
    assert [appeals.points.itemText(i) for i in range(appeals.points.count())] == ["20", "40", "80", "100"]
    appeals.points.setCurrentIndex(appeals.points.findData(100))
    click(qtbot, appeals.decide_button)
    assert "Informe o motivo" in appeals.message.text()
    type_text(appeals.reason, "Contrato de locação comprovado.")
    set_date(appeals.decided_on, dt.date(2026, 11, 19))
    click(qtbot, appeals.decide_button)
    decided = SelectionAppeal.get_by_id(in_time.id)
    assert decided.status == "granted" and decided.corrections == {"moradia": 100}
    assert column(appeals.ranking_view, 2)[:4] == [
        "Rosa Maria Amaral",
        "João Carlos Peixoto",
        "Paulo Sérgio Lima",
        "Lúcia Helena Prado",
    ]
    paulo_row = next(r for r in appeals.ranking.rows if r.id == paulo[1].protocol)
    assert (paulo_row.published_rank, paulo_row.rank, paulo_row.published_total, paulo_row.total) == (4, 3, 280, 360)
    assert column(appeals.ranking_view, 5)[2:4] == ["subiu do 4º", "desceu do 3º"]
    assert column(appeals.ranking_view, 4)[2] == "4º, 280 pts"
    assert appeals.final_button.isEnabled()
    shot(page, "sapezal-2-appeals")

    # the final list, published on the 24th; then no more appeals
    set_date(appeals.final_on, dt.date(2026, 11, 24))
    click(qtbot, appeals.final_button)
    final = ListPublication.get(ListPublication.kind == "final")
    assert final.follows_id == ranking.id and final.list_sha256 != ranking.list_sha256
    assert "rank=3;score=360" in final.list_text and (tmp_path / "lista-definitiva-2026-11-30.pdf").exists()
    assert "Lista definitiva publicada em 24/11/2026" in appeals.final_label.text()
    assert not appeals.file_button.isEnabled()
    with pytest.raises(UserError, match="lista definitiva já foi publicada"):
        from models.selection.appeals import file_appeal

        file_appeal(
            ranking,
            participant_id=people["joao"][1].protocol,
            filed_on=dt.date(2026, 11, 25),
            grounds="tarde",
            by="ana",
            today=TODAY,
        )

    # the call now shows the final list, and the draw of places runs on it (art. 12)
    page.tabs.setCurrentWidget(call)
    assert column(call.table, 2)[2] == "Paulo Sérgio Lima" and column(call.table, 5)[2] == "360"
    assert call.current.sha256 == final.list_sha256 and "Publicada em 24/11/2026" in call.hash_label.text()
    call.select_protocol(paulo[1].protocol)
    assert "corrigida em recurso" in call.detail.text()
    shot(page, "sapezal-3-call-final")
    draw = page.draw
    page.tabs.setCurrentWidget(draw)
    assert draw.draw_button.isEnabled() and "publicada em 24/11/2026" in draw.summary.text()
    type_text(draw.place, "Auditório da Prefeitura")
    type_text(draw.officials, "Presidente da Comissão")
    type_text(draw.vacancies, "3")
    type_text(draw.seed, "Loteria Federal 55555")
    click(qtbot, draw.draw_button)
    held = Draw.get()
    assert held.list_sha256 == final.list_sha256 and verify_draw(held) == []
    holders = {e.name for e in DrawEntry.select().where((DrawEntry.draw == held.id) & (DrawEntry.role == "holder"))}
    assert holders == {"Rosa Maria Amaral", "João Carlos Peixoto", "Paulo Sérgio Lima"}

    # persistence: a new page (another session) sees the same ranking, appeals, final list and publication
    again = SelectionPage(today=TODAY)
    qtbot.addWidget(again)
    again.resize(1200, 800)
    again.show()
    choose_call(qtbot, again, "sapezal-2014", SAPEZAL_SITE, "g03")
    again.tabs.setCurrentWidget(again.appeals)
    assert [a.status for a in again.appeals.appeals.rows] == ["granted", "late"]
    assert "Lista definitiva publicada em 24/11/2026" in again.appeals.final_label.text()
    assert "Publicada em 24/11/2026" in again.call.hash_label.text()


def test_appeal_refusals_of_the_model(keys, sapezal):
    """Appeals: no grounds, before the publication, decided twice, points the act's table does not give."""
    from models.base.errors import FieldErrors
    from models.selection.appeals import decide_appeal, file_appeal, publish_final, publish_ranking
    from models.selection.publications import publish_list
    from models.services.calls import call_list

    people, _site = sapezal
    current = call_list("sapezal-2014", site=SAPEZAL_SITE, group="g03", today=TODAY)
    with pytest.raises(UserError, match="lista definitiva"):
        publish_list(current, by="ana", published_on=TODAY, today=TODAY)
    ranking = publish_ranking(current, by="ana", published_on=dt.date(2026, 11, 26), today=TODAY)
    # 3 days end on Sunday 29/11: Lei 9.784/1999, art. 66, § 1º (subsidiary) moves it to Monday
    assert ranking.appeal_due == dt.date(2026, 11, 30)
    with pytest.raises(UserError, match="já foi publicada"):
        publish_ranking(current, by="ana", published_on=TODAY, today=TODAY)
    rosa = people["rosa"][1].protocol
    with pytest.raises(FieldErrors):
        file_appeal(ranking, participant_id=rosa, filed_on=TODAY, grounds=" ", by="ana", today=TODAY)
    with pytest.raises(UserError, match="anterior à publicação"):
        file_appeal(ranking, participant_id=rosa, filed_on=dt.date(2026, 11, 25), grounds="x", by="ana", today=TODAY)
    with pytest.raises(UserError, match="posterior a hoje"):
        file_appeal(
            ranking, participant_id=rosa, filed_on=TODAY + dt.timedelta(days=1), grounds="x", by="ana", today=TODAY
        )
    appeal = file_appeal(
        ranking, participant_id=rosa, filed_on=dt.date(2026, 11, 27), grounds="x", by="ana", today=TODAY
    )
    with pytest.raises(UserError, match="prazo de recurso termina"):
        publish_final(ranking, by="ana", published_on=dt.date(2026, 11, 28), today=TODAY)
    with pytest.raises(UserError, match="tabela do ato dá 20, 40, 80, 100"):
        decide_appeal(
            appeal, granted=True, reason="r", decided_on=TODAY, by="chefe", today=TODAY, corrections={"moradia": 90}
        )
    with pytest.raises(UserError, match="Só um recurso deferido"):
        decide_appeal(
            appeal, granted=False, reason="r", decided_on=TODAY, by="chefe", today=TODAY, corrections={"moradia": 80}
        )
    decide_appeal(appeal, granted=False, reason="Sem prova.", decided_on=TODAY, by="chefe", today=TODAY)
    with pytest.raises(UserError, match="já está indeferido"):
        decide_appeal(appeal, granted=True, reason="r", decided_on=TODAY, by="chefe", today=TODAY)
    # a decision after its 3 business days is recorded and flagged (the law binds the commission; the process goes on)
    joao = file_appeal(
        ranking,
        participant_id=people["joao"][1].protocol,
        filed_on=dt.date(2026, 11, 28),
        grounds="y",
        by="ana",
        today=TODAY,
    )
    assert joao.decision_due == dt.date(2026, 12, 2)  # filed on a Saturday: Monday, Tuesday, Wednesday
    decide_appeal(
        joao,
        granted=True,
        reason="Deficiência comprovada.",
        decided_on=dt.date(2026, 12, 7),
        by="chefe",
        today=dt.date(2026, 12, 10),
        corrections={"deficiencia": 100},
    )
    from models.selection.appeals import process_of

    process = process_of("sapezal-2014", SAPEZAL_SITE, "g03", today=dt.date(2026, 12, 10))
    assert [(a.decision_due, a.decided_late) for a in process.appeals] == [
        (dt.date(2026, 12, 2), False),
        (dt.date(2026, 12, 2), True),
    ]
    assert process.stage == "ready" and process.rows[1].total == 540
    with pytest.raises(UserError, match="decidido em 07/12/2026, depois da data"):
        publish_final(ranking, by="ana", published_on=dt.date(2026, 12, 4), today=dt.date(2026, 12, 10))
    final = publish_final(ranking, by="ana", published_on=dt.date(2026, 12, 8), today=dt.date(2026, 12, 10))
    assert "Deficiência comprovada." in final.document and "Classificação final" in final.document


# --------------------------------------------------------------------------- Ilha Comprida art. 21–22


@pytest.fixture
def ilha_vendors(keys):
    """Five vendors registered for the events of the Arena de Shows."""
    return [
        approved("ilha-comprida-2017", "credencial-evento", holder=person(name), site="arena-de-shows")
        for name in ("Ana Beira-Mar", "Bruno Areia", "Carla Maré", "Davi Concha", "Elisa Duna")
    ]


def test_ilha_comprida_rotating_list_across_events_and_the_point_draw(qtbot, page, ilha_vendors, tmp_path):
    call = page.call
    page.refresh()
    call.set_call("ilha-comprida-2017", "arena-de-shows")
    assert page.tabs.isTabVisible(page.tabs.indexOf(page.rotation))
    assert not page.tabs.isTabVisible(page.tabs.indexOf(page.appeals))
    assert page.tabs.tabText(page.tabs.indexOf(page.rotation)) == "3. Lista corrida e pontos"
    assert "lista corrida" in call.method.text()

    # the list is published (kept in the database) and then drawn in a page of another session
    set_date(call.published_on, dt.date(2026, 11, 27))
    call.publish(tmp_path / "lista.pdf")
    published = ListPublication.get()
    assert published.kind == "list" and published.list_sha256 == call.current.sha256
    page.close()
    page = SelectionPage(today=TODAY)
    qtbot.addWidget(page)
    page.resize(1200, 800)
    page.show()
    page.refresh()
    page.call.set_call("ilha-comprida-2017", "arena-de-shows")
    assert "Publicada em 27/11/2026" in page.call.hash_label.text()
    draw = page.draw
    assert "publicada em 27/11/2026" in draw.summary.text()
    type_text(draw.place, "Divisão de Uso e Ocupação do Solo")
    type_text(draw.officials, "Chefe da Divisão")
    type_text(draw.vacancies, "5")
    type_text(draw.seed, "Loteria 2026-12-21")
    click(qtbot, draw.draw_button)
    held = Draw.get()
    order = held.result["order"]
    names = {e.participant_id: e.name for e in DrawEntry.select().where(DrawEntry.draw == held.id)}

    # the rotating list: at most 60 points in the arena (art. 22)
    rotation = page.rotation
    page.tabs.setCurrentWidget(rotation)
    assert rotation.draw_combo.currentData() == held.id
    assert rotation.vacancies.maximum() == 60 and "art. 22" in rotation.about.text()
    assert column(rotation.list_view, 1) == [names[pid] for pid in order]
    assert column(rotation.list_view, 0)[0] == "▶ 1"

    def add(day, label, vacancies):
        set_date(rotation.event_date, day)
        rotation.event_label.clear()
        type_text(rotation.event_label, label)
        rotation.vacancies.setValue(vacancies)
        click(qtbot, rotation.add_button)

    rotation.vacancies.setValue(3)
    assert all(names[pid] in rotation.preview.text() for pid in order[:3])
    shot(page, "ilha-0-before-events")
    add(dt.date(2026, 12, 31), "Réveillon", 3)
    rotation.vacancies.setValue(3)
    assert "recomeça do início" in rotation.preview.text()
    add(dt.date(2027, 1, 2), "Show de sábado", 3)
    assert "recomeçou do início" in rotation.message.text()
    add(dt.date(2027, 1, 1), "Antes do anterior", 2)
    assert "em ordem" in rotation.message.text() and RotationEvent.select().count() == 2
    add(dt.date(2027, 1, 9), "Show de Carnaval", 4)
    events = list(RotationEvent.select().order_by(RotationEvent.number))
    assert [e.vendors for e in events] == [order[0:3], [order[3], order[4], order[0]], order[1:5]]
    assert column(rotation.events_view, 0) == ["1", "2", "3"]
    assert column(rotation.events_view, 4) == ["1º ao 3º", "4º ao 5º e 1º (a lista recomeçou do início)", "2º ao 5º"]
    assert column(rotation.list_view, 0)[0] == "▶ 1"  # 10 places taken of a list of 5: the next event starts over
    assert column(rotation.list_view, 3)[0] == "1, 2"
    with pytest.raises(UserError, match=r"no máximo 60 pontos.*art\. 22"):
        add_event(held, event_date=dt.date(2027, 1, 10), vacancies=61, by="chefe")

    # a typing mistake: the last event, without points drawn, can be removed and entered again
    assert rotation.remove_button.isEnabled()
    click(qtbot, rotation.remove_button)
    assert RotationEvent.select().count() == 2 and "excluído" in rotation.message.text()
    add(dt.date(2027, 1, 9), "Show de Carnaval", 4)

    # the second draw: event 2's vendors over its points, the seed typed in public
    rotation.select_event(2)
    assert rotation.points.text() == "1-3" and rotation.assignments.rowCount() == 3
    type_text(rotation.place, "Arena de Shows")
    type_text(rotation.officials, "Fiscal de Posturas")
    click(qtbot, rotation.points_button)
    assert "semente" in rotation.message.text() and PointDraw.select().count() == 0
    type_text(rotation.seed, "Loteria 2027-01-02")
    click(qtbot, rotation.points_button)
    pd = PointDraw.get()
    assert verify_point_draw(pd) == []
    drawn = order_from_list(pd.list_text, "Loteria 2027-01-02")
    assert sorted(drawn) == sorted([order[3], order[4], order[0]])
    assert pd.assignments == list(zip(drawn, ["1", "2", "3"], strict=True))
    shown = [(rotation.assignments.item(r, 1).text(), rotation.assignments.item(r, 2).text()) for r in range(3)]
    assert shown == [(f"Ponto {i}", names[pid]) for i, pid in enumerate(drawn, 1)]
    assert not rotation.points_button.isEnabled()  # held once
    rotation.select_event(3)
    assert rotation.points_button.isEnabled() and rotation.seed.text() == ""  # each draw has its own seed, typed
    rotation.select_event(2)
    shot(page, "ilha-1-rotation")
    sheet = rotation.save_sheet(tmp_path / "evento-2.pdf")
    assert sheet.read_bytes().startswith(b"%PDF")
    shot_pdf(sheet, "ilha-2-sheet")
    from reports.event_points import event_sheet_html

    html = event_sheet_html(events[1].id)
    assert "Loteria 2027-01-02" in html and pd.list_sha256 in html and "recomeçou do início" in html

    # the point draw's limits: at most 60 points (art. 22), no fewer points than vendors
    third = RotationEvent.get(RotationEvent.number == 3)
    with pytest.raises(UserError, match=r"61 pontos; o ato permite no máximo 60.*art\. 22"):
        hold_point_draw(third, points="1-61", seed="x", place="Arena", officials="Fiscal", by="chefe")
    with pytest.raises(UserError, match="4 ambulantes para 2 pontos"):
        hold_point_draw(third, points="A1, A2", seed="x", place="Arena", officials="Fiscal", by="chefe")
    with pytest.raises(UserError, match="já foram sorteados"):
        hold_point_draw(events[1].id, points="1-3", seed="y", place="Arena", officials="Fiscal", by="chefe")

    # persistence: a new page goes on from where the list stopped
    again = SelectionPage(today=TODAY)
    qtbot.addWidget(again)
    again.resize(1200, 800)
    again.show()
    again.refresh()
    again.call.set_call("ilha-comprida-2017", "arena-de-shows")
    again.tabs.setCurrentWidget(again.rotation)
    state = again.rotation.state
    assert [e.number for e in state.events] == [1, 2, 3] and state.next_start == 1 and not state.problems
    again.rotation.select_event(2)
    assert again.rotation.assignments.item(0, 2).text() == names[drawn[0]]
    again.rotation.vacancies.setValue(2)
    set_date(again.rotation.event_date, dt.date(2027, 1, 16))
    click(qtbot, again.rotation.add_button)
    assert RotationEvent.get(RotationEvent.number == 4).vendors == order[0:2]


@given(
    st.integers(0, 500), st.integers(0, 200), st.lists(st.from_regex(r"[A-Z][0-9]{1,2}", fullmatch=True), max_size=5)
)
def test_parse_points_ranges_and_labels(first, size, labels):
    text = ", ".join([f"{first}-{first + size}", *labels])
    points = parse_points(text)
    assert points[: size + 1] == tuple(str(n) for n in range(first, first + size + 1))
    assert points[size + 1 :] == tuple(labels)
