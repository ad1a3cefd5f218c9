"""Issue 29 §2: a conversion to reais that a rule of the act declares (``[regime] conversion``) applies to its fines
as to its quote lines — the proposal (``praca penalty`` and the record dialog), the record's charge and document —
each converted figure saying the rule and its article; before the rule's day, and in the act's worked cases, the
act's own money. The made-up act in cruzeiros reais of the period tests, with its Cr$ 500,00 fine."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from period_acts import FINE, PERIOD_FEES, REGIME_ID, period_act_text

from models.enforcement.sanctions import in_reais, propose_sanction
from models.rules.regimes import load_regime_text

RULE = (
    'conversion = { to = "R$", divide_by = "2750", from = 1994-07-01, basis = "art. 1º", '
    'basis_act = "Lei federal nº 8.880/1994" }'
)
TEXT = period_act_text(extra=PERIOD_FEES + FINE).replace('currency = "Cr$"\n', f'currency = "CR$"\n{RULE}\n', 1)
ON = dt.date(2026, 5, 4)
SAID = "Convertido em reais: CR$ 500,00 ÷ 2.750 = R$ 0,18 (Lei federal nº 8.880/1994, art. 1º)"


@pytest.fixture(scope="module")
def regime():
    assert RULE in TEXT
    return load_regime_text(TEXT, f"{REGIME_ID}.toml")


def _fine(proposal):
    return next(s for s in proposal.sanctions if s.kind == "fine")


def test_a_fine_after_the_rules_day_is_in_reais_with_the_rule_and_before_it_in_the_acts_money(regime):
    act = propose_sanction(regime, ["multa-cruzeiros"], on=ON)
    assert act.currency == "CR$" and _fine(act).amount == Decimal("500.00")
    shown = in_reais(act, regime)
    fine = _fine(shown)
    assert shown.currency == fine.currency == "R$" and shown.total == fine.amount == Decimal("0.18")  # 0,1818… half up
    assert fine.formula == "CR$ 500,00 ÷ 2.750 = R$ 0,18"
    assert fine.details[-1] == f"{SAID}."
    assert shown.notes[-1].startswith("Valores do ato em CR$ convertidos em reais desde 01/07/1994")
    assert in_reais(shown, regime) == shown  # once
    early = propose_sanction(regime, ["multa-cruzeiros"], on=dt.date(1994, 6, 30))
    assert in_reais(early, regime) == early  # the act's own money until the rule's day
    recurrent = in_reais(propose_sanction(regime, ["multa-cruzeiros"], on=ON, prior=1), regime)
    assert _fine(recurrent).formula.endswith("÷ 2.750 = R$ " + f"{_fine(recurrent).amount}".replace(".", ","))


def test_the_acts_worked_cases_stay_in_its_own_money():
    from models.services.act_cases import check_act

    checked = check_act(TEXT, f"{REGIME_ID}.toml", expected_id=REGIME_ID)
    assert not checked.errors, [(e.key, e.reason) for e in checked.errors]
    assert any(o.case.id == "multa-em-cruzeiros" for o in checked.outcomes)  # expects 500.00, in CR$


def test_praca_penalty_shows_the_fine_in_reais_with_the_rule(database, tmp_path, capsys):
    from desktop.cli import main

    path = tmp_path / f"{REGIME_ID}.toml"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    argv = ["--db", database, "penalty", "--regime", REGIME_ID, "--infraction", "multa-cruzeiros"]
    assert main([*argv, "--date", "04/05/2026"]) == 0
    out = capsys.readouterr().out
    assert SAID in out and "Fórmula: CR$ 500,00 ÷ 2.750 = R$ 0,18" in out
    assert out.rstrip().endswith("Multas impostas: R$ 0,18")


def test_the_record_charges_the_fine_in_reais_and_its_document_says_the_rule(database, app_ready, tmp_path):
    from factories import draft, person
    from pdftext import pdf_text

    from models import enforcement as enf
    from models.access import session
    from models.rules import acts
    from reports.enforcement_docs import record_html, write_record_pdf

    with session.acting_as(session.SYSTEM):
        acts.install(TEXT.encode("utf-8"), f"{REGIME_ID}.toml")
    holder = person("José Ambulante")
    d = draft(REGIME_ID, ["multa-cruzeiros"], "04/05/2026 10:00", holder=holder, payment_due=dt.date(2026, 5, 20))
    record = enf.issue_record(d, by="ana.souza", today=ON)
    (charge,) = enf.charges_of(record, "fine")
    assert charge.amount == Decimal("0.18") and "÷ 2.750 = R$ 0,18" in charge.formula
    page = " ".join(record_html(record, today=ON).replace("\xa0", " ").split())
    assert "CR$ 500,00 ÷ 2.750 = R$ 0,18" in page and "Lei federal nº 8.880/1994, art. 1º" in page
    assert "R$ 0,18" in page.replace("CR$ 0,18", "")
    printed = " ".join(pdf_text(write_record_pdf(record, tmp_path / "auto.pdf", today=ON)).replace("\xa0", " ").split())
    assert "CR$ 500,00 ÷ 2.750 = R$ 0,18" in printed


def test_fiscalizacao_proposes_the_fine_in_reais(database, app_ready, qtbot, tmp_path):
    """The record dialog's proposal under the act: the fine in reais with the conversion and its article, and the
    record it issues charges R$ 0,18."""
    from conftest import run_modal
    from factories import fill_record_form, person
    from PySide6.QtCore import Qt

    from models import enforcement as enf
    from models.access import session
    from models.rules import acts
    from views.enforcement import EnforcementPage

    with session.acting_as(session.SYSTEM):
        acts.install(TEXT.encode("utf-8"), f"{REGIME_ID}.toml")
    acts.forget()
    person("José Ambulante")
    page = EnforcementPage(today=ON)
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()

    def fill(dialog):
        when = dt.datetime(2026, 5, 4, 10, 0)
        fill_record_form(dialog, REGIME_ID, "José Ambulante", when, "Praça da Matriz", "Vendia sem licença.")
        dialog.check_infraction("multa-cruzeiros")
        dialog.form.payment_due.set_date(dt.date(2026, 5, 20))
        dialog.update_preview()
        shown = " ".join(dialog.proposal_view.toPlainText().split())
        assert "Fórmula: CR$ 500,00 ÷ 2.750 = R$ 0,18" in shown and SAID in shown
        assert "Multa a lançar: R$ 0,18" in shown
        dialog.grab().save(str(tmp_path / "record-conversion.png"))
        qtbot.waitUntil(dialog.issue_button.isEnabled, timeout=3000)
        qtbot.mouseClick(dialog.issue_button, Qt.MouseButton.LeftButton)

    _d, record = run_modal(lambda: page.records.new_record(regime=REGIME_ID), fill)
    assert record is not None
    (charge,) = enf.charges_of(record, "fine")
    assert charge.amount == Decimal("0.18")


def test_the_regime_sheet_says_the_rule_and_each_figure_in_reais_beside_the_acts(regime, tmp_path, app_ready):
    """The regime sheet (HTML, its PDF, and ``praca regimes --show``): the conversion rule with its day, divisor
    and article, and each amount in the act's money followed by its value in reais by that rule."""
    from pdftext import pdf_text

    from desktop.commands.regimes import regime_text
    from reports.pdf import html_to_pdf
    from reports.regime_sheet import regime_html

    rule = (
        "Valores em cruzeiros reais (CR$), a moeda do ato; desde 01/07/1994 convertidos em reais: cada valor ÷ 2.750, "
        "arredondado ao centavo (Lei federal nº 8.880/1994, art. 1º)."
    )
    html = regime_html(regime).replace("&nbsp;", " ")
    assert rule in html
    assert "Multa: CR$ 500,00 (R$ 0,18)" in html  # the fine, 500 ÷ 2.750
    assert "CR$ 1.500,00 (R$ 0,55)" in html  # the yearly fee, 1.500 ÷ 2.750
    assert "CR$ 12,50 (R$ 0,0045)" in html  # a lot's price per feira day: a rate, with four places
    pdf = html_to_pdf(regime_html(regime), str(tmp_path / "regime.pdf"), title=regime.title)
    text = " ".join(pdf_text(pdf).replace("\xa0", " ").split())
    assert "CR$ 500,00 (R$ 0,18)" in text and "desde 01/07/1994 convertidos em reais" in text
    shown = regime_text(regime)  # what praca regimes --show prints
    assert rule in " ".join(shown.split()) and "CR$ 500,00 (R$ 0,18)" in shown


def test_the_depots_daily_fee_of_a_seizure_is_charged_in_reais_too(database):
    """A seizure's depot fee in the act's money (CR$ 100,00 a day, added to the act for the test) is charged in
    reais after the rule's day: the days at the act's price, then the conversion with the rule's article."""
    from factories import draft, person

    from models import enforcement as enf
    from models.access import session
    from models.enforcement import ItemInput
    from models.rules import acts

    text = TEXT.replace(
        '[seizure]\nbasis = "art. 5º"\n',
        '[seizure]\nbasis = "art. 5º"\ndepot_fee = { amount = { value = "100.00", unit = "BRL" }, per = "day", '
        'basis = "art. 5º" }\n',
        1,
    )
    assert "depot_fee" in text
    with session.acting_as(session.SYSTEM):
        acts.install(text.encode("utf-8"), f"{REGIME_ID}.toml")
    holder = person("José Ambulante")
    d = draft(
        REGIME_ID,
        ["sem-licenca"],
        "04/05/2026 10:00",
        kind="seizure",
        holder=holder,
        items=[ItemInput("Caixa de balas", "1", "cx")],
        depot="Almoxarifado da Prefeitura",
    )
    record = enf.issue_record(d, by="ana.souza", today=ON)
    charge = enf.charge_depot_fee(record, on=dt.date(2026, 5, 6), by="ana.souza")
    assert charge.amount == Decimal("0.07")  # 2 × CR$ 100,00 = CR$ 200,00 ÷ 2.750 = 0,0727… → R$ 0,07
    assert charge.formula == (
        "2 diária(s) × CR$ 100,00 = CR$ 200,00 ÷ 2.750 = R$ 0,07 (Lei federal nº 8.880/1994, art. 1º)"
    )
