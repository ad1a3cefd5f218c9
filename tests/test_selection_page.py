"""Seleção desk, the whole page on real widgets: the call, scores line by line, the list's hash published,
the draw with the seed typed, the ata, annulment and a new draw, the holders' permits and stalls.

Runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL (``database`` through ``keys``)."""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal as D

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from conftest import type_text
from models.applications import Application, ApplicationInput, change_status, create_application
from models.calls import call_list, payment_time, stall_choices
from models.charges import Charge, Payment, create_charge, record_payment
from models.draws import Draw, DrawEntry, verify_draw
from models.layout import PlacedStall
from models.people import HouseholdInput
from models.permits import Permit
from models.sites import SegmentInput, SiteInput, Stall, save_layout, save_site
from test_permits import TODAY, approved, company, keys, person  # noqa: F401  (keys: fixture)
from views.selection_page import SelectionPage

SAPEZAL_SITE = "Praça da Matriz"


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.objectName()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def column(view, col: int) -> list[str]:
    model = view.model()
    return [model.index(r, col).data() for r in range(model.rowCount())]


def sapezal_applicant(name, *, housing, income, birth, since, children=(), disabled=False, status="approved"):
    household = [HouseholdInput(name=f"Filho {i} de {name}", relation="child", birth_date=b)
                 for i, b in enumerate(children, 1)]
    who = person(name, housing=housing, family_income_mw=income, birth_date=birth, resident_since=since,
                 household=household, disabled=disabled, experience_years=5)
    fields = dict(line="bebidas", group="g03", equipment="barraca", front="2.00", depth="1.50", site=SAPEZAL_SITE)
    if status == "approved":
        return who, approved("sapezal-2014", "ponto-fixo", holder=who, **fields)
    app = create_application(ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=who.id,
                                              **fields), clerk="ana", today=TODAY)
    return who, change_status(app, "analysis", by="chefe")


def stalls_site(name, regime, count, **kw):
    site = save_site(SiteInput(name=name, kind="street", regime=regime,
                               segments=[SegmentInput(street=name, length="60", width="10")], **kw))
    save_layout(site, [PlacedStall(key=str(n), number=n, side="a", x=D(4 * (n - 1)), y=D(0), width=D(3),
                                   depth=D(2)) for n in range(1, count + 1)])
    return site


@pytest.fixture
def sapezal(keys):
    """Four applicants of group 3 (one still in analysis), one debtor, and a square with five stalls."""
    people = {}
    people["rosa"] = sapezal_applicant("Rosa Maria Amaral", housing="rented", income="0.80", birth=dt.date(1958, 2, 1),
                                       since=dt.date(1990, 1, 1), children=(dt.date(2015, 5, 5),), disabled=True)
    people["joao"] = sapezal_applicant("João Carlos Peixoto", housing="financed", income="1.50",
                                       birth=dt.date(1970, 6, 1), since=dt.date(2005, 3, 1))
    people["lucia"] = sapezal_applicant("Lúcia Helena Prado", housing="owned", income="2.50",
                                        birth=dt.date(1985, 9, 9), since=dt.date(2016, 1, 1))
    people["tiago"] = sapezal_applicant("Tiago Nunes Barreto", housing="other", income="5.00",
                                        birth=dt.date(2000, 1, 1), since=dt.date(2023, 1, 1), status="analysis")
    people["devedor"] = sapezal_applicant("Dário Devedor Souza", housing="rented", income="0.50",
                                          birth=dt.date(1950, 1, 1), since=dt.date(1980, 1, 1))
    create_charge(kind="fine", regime="sapezal-2014", label="Multa por ocupação irregular", amount="150,00",
                  due_on=TODAY - dt.timedelta(days=30), basis="art. 45", by="fiscal",
                  person_id=people["devedor"][0].id, today=TODAY - dt.timedelta(days=40))
    site = stalls_site(SAPEZAL_SITE, "sapezal-2014", 5)
    return people, site


@pytest.fixture
def page(qtbot, keys, app_ready):
    widget = SelectionPage(key_dir=keys, today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    return widget


def type_lines(qtbot, widget, *lines: str) -> None:
    """Type lines into a multi-line field, Enter between them (type_text sends no line breaks)."""
    for i, line in enumerate(lines):
        if i:
            qtbot.keyClick(widget, Qt.Key.Key_Return)
        type_text(widget, line)


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


def test_the_whole_sapezal_call_from_scores_to_stalls(qtbot, page, sapezal, tmp_path, monkeypatch):
    people, site = sapezal
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
    for label, basis in (("Moradia", "art. 10, I"), ("Renda familiar", "art. 10, II"), ("Idade", "art. 10, III"),
                         ("Tempo de residência", "art. 10, IV"), ("filhos menores de 16", "art. 10, V")):
        assert label in detail and basis in detail
    rosa = call.current.candidates[0]
    assert rosa.score.total == sum(line.points for line in rosa.score.lines)
    assert f"<b>{rosa.score.total}</b>" in detail and "1º na classificação do grupo" in detail
    assert rosa.score.complete and column(call.table, 5)[0] == str(rosa.score.total)
    # only the columns this act uses: points, no payment time, no marks
    assert not call.table.isColumnHidden(call.POINTS) and call.table.isColumnHidden(call.PAYMENT)
    assert call.table.isColumnHidden(call.MARKS) and not call.preference_button.isVisible()

    # the list and its SHA-256 are shown and published (PDF to post, exact text to re-run the draw) before the draw
    sha = call.current.sha256
    assert sha in call.hash_label.text() and "Ainda não publicada" in call.hash_label.text()
    pdf = call.publish(tmp_path / "lista.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    exact = (tmp_path / "lista.txt").read_bytes()
    assert hashlib.sha256(exact).hexdigest() == sha
    assert exact.decode("utf-8").count("\n") == 4 and "group=g03" in exact.decode("utf-8")
    assert "Publicada em" in call.hash_label.text() and sha in call.message.text()

    # the draw: place, officials, places, the seed typed in front of the public
    page.tabs.setCurrentWidget(page.draw)
    draw_tab = page.draw
    assert sha in draw_tab.summary.text() and "publicada em" in draw_tab.summary.text()
    assert draw_tab.alternates.value() == 10 and "art. 12" in draw_tab.alternates_basis.text()
    type_text(draw_tab.place, "Auditório da Prefeitura")
    type_lines(qtbot, draw_tab.officials, "Maria Secretária (presidente)", "José Testemunha")
    type_text(draw_tab.vacancies, "3")
    click(qtbot, draw_tab.draw_button)  # no seed yet
    assert "semente" in draw_tab.error.text() and Draw.select().count() == 0
    type_text(draw_tab.seed, "Loteria Federal 12345")
    click(qtbot, draw_tab.draw_button)
    first = Draw.get()
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
    assert page.tabs.currentWidget() is page.call and "nº %d" % first.id in draw_tab.replacing.text()
    assert draw_tab.vacancies.text() == "3" and draw_tab.place.text() == "Auditório da Prefeitura"
    call.group.setCurrentIndex(call.group.findData("g03"))
    type_text(draw_tab.seed, "Loteria Federal 54321")
    click(qtbot, draw_tab.draw_button)
    second = Draw.get(Draw.id != first.id)
    assert Draw.get_by_id(first.id).replaced_by_id == second.id
    assert second.list_sha256 == sha  # the same published list
    assert draws.selected().id == second.id and "substitui o nº" in draws.selected().situation
    situations = dict(zip(column(draws.table, 0), column(draws.table, 6)))
    assert "substituído pelo nº %d" % second.id in situations[str(first.id)]

    # the holders' permits, then the stalls, holder 1 choosing first
    draws.inner.setCurrentIndex(1)
    assert draws.holders.rowCount() == 3
    assert draws.stall_combo(0).currentText().startswith("emita a permissão") or not draws.stall_combo(0).isEnabled()
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
    page.call.publish(tmp_path / "lista.pdf")
    before = page.call.current.sha256
    # the debtor pays the fine: it joins the list, whose hash changes
    fine = Charge.get(Charge.kind == "fine")
    record_payment(fine, paid_on=TODAY, amount=fine.amount, reference="R-1", by="caixa", today=TODAY)
    page.call.refresh_list()
    assert page.call.current.sha256 != before and "mudou desde a publicação" in page.call.hash_label.text()
    draw = page.draw
    type_text(draw.place, "Prefeitura")
    type_text(draw.officials, "Ana")
    type_text(draw.vacancies, "2")
    type_text(draw.seed, "777")
    click(qtbot, draw.draw_button)
    assert "publique-a de novo" in draw.message.text() and Draw.select().count() == 0
    page.call.publish(tmp_path / "lista2.pdf")
    click(qtbot, draw.draw_button)
    assert Draw.select().count() == 1


def test_sao_bento_orders_by_payment_time_and_leaves_the_unpaid_out(qtbot, page, keys, monkeypatch):
    import json

    from models.charges import await_payment
    from models.pricing import quote

    frozen = quote("sao-bento-2026", permit_kind="event-stall", equipment="barraca", front="3.00", depth="3.00",
                   year=2026).to_dict()
    apps = []
    for name in ("Pastelaria Um Ltda", "Doces Dois Ltda", "Caldo Três Ltda"):
        app = approved("sao-bento-2026", "event-stall", on=dt.date(2026, 3, 16), site="rua-cel-ribeiro-da-luz",
                       holder=company(name, person(f"Sócio de {name}")), equipment="barraca", front="3.00",
                       depth="3.00")
        Application.update(quote_json=json.dumps(frozen)).where(Application.id == app.id).execute()
        await_payment(Application.get_by_id(app.id), by="ana", today=dt.date(2026, 3, 16))
        apps.append(Application.get_by_id(app.id))
    # Doces pays at 09:10 on the day it is recorded, Pastelaria at 10:30; Caldo has not paid
    for app, moment in ((apps[1], dt.datetime(2026, 3, 18, 9, 10)), (apps[0], dt.datetime(2026, 3, 18, 10, 30))):
        for n, charge in enumerate(Charge.select().where(Charge.application == app.id)):
            payment = record_payment(charge, paid_on=dt.date(2026, 3, 18), amount=charge.amount,
                                     reference=f"{app.id}-{n}", by="caixa", today=dt.date(2026, 3, 18))
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
        payment = record_payment(charge, paid_on=dt.date(2026, 3, 18), amount=charge.amount, reference=f"c-{n}",
                                 by="caixa", today=dt.date(2026, 3, 19))
        Payment.update(recorded_at=dt.datetime(2026, 3, 19, 8, 0)).where(Payment.id == payment.id).execute()
    at, text = payment_time(apps[2])
    assert at == dt.datetime(2026, 3, 18, 23, 59, 59) and "hora não registrada" in text
    call.refresh_list()
    assert column(call.table, 2) == ["Doces Dois Ltda", "Pastelaria Um Ltda", "Caldo Três Ltda"]
    assert column(call.table, 0) == ["1º", "2º", "3º"] and len(call.current.published.participants) == 3


def test_sjc_preference_then_draw_permits_ask_the_end_and_stalls_of_the_section(qtbot, page, keys, monkeypatch):
    from models.sites import demo_sites

    feira = "Feira Noturna do Jardim Satélite"
    apps = [approved("sjc-2014", "feirante", holder=person(name), site=feira, line="pastel", section="xvi",
                     equipment="banca", front="8.00", depth="3.50")
            for name in ("Akira Fundador Tanaka", "Bruno Segundo Alves", "Carla Terceira Dias")]
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
    other = next(i for i in range(1, combo.count())
                 if Stall.get_by_id(int(combo.itemData(i))).section not in ("", "xvi"))
    combo.setCurrentIndex(other)
    click(qtbot, draws.assign_button)
    assert "Seção XVI" in draws.message.text() and not Stall.select().where(Stall.holder == permit.id).exists()
    draws.stall_combo(0).setCurrentIndex(draws.stall_combo(0).findData(offered.default))
    click(qtbot, draws.assign_button)
    assert Stall.get(Stall.holder == permit.id).id == int(offered.default)


def test_call_list_model_reads_marks_and_quota(keys):
    """models/calls.py alone: the quota mark enters the list only where the act has a quota (Ilha Comprida)."""
    app = approved("ilha-comprida-2017", "ambulante-praia", holder=person("Idosa Cotista Lima"),
                   site="arena-de-shows", line="cadeiras-guarda-sol", equipment="carrinho", front="1.50",
                   depth="0.80", hitch="0.20")
    plain = call_list("ilha-comprida-2017", site="arena-de-shows", today=TODAY)
    marked = call_list("ilha-comprida-2017", site="arena-de-shows", today=TODAY,
                       marks={app.protocol: {"quota": True}})
    assert "quota=1" not in plain.published.text and "quota=1" in marked.published.text
    assert plain.sha256 != marked.sha256
    assert call_list("ilha-comprida-2017", site="Arena de Shows", today=TODAY).candidates  # by the act's label
    nothing = call_list("ilha-comprida-2017", site="Outro lugar", today=TODAY)
    assert nothing.candidates == () and nothing.published is None and "vazia" in nothing.problem
