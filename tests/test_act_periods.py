"""Periods as acts speak of them (issue 29 §2): prices per feira day, per event, per fiscal year and per month as
formula inputs, each in its own unit (a price per feira day cannot be multiplied by calendar days); the licence
valid for the fiscal year it is issued in — on the command line, in the act's worked cases and in the checker."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from factories import open_new_database
from hypothesis import given
from hypothesis import strategies as st
from period_acts import PERIOD_FEES, REGIME_ID, period_act_text

from desktop.cli import main
from models.base.errors import UserError
from models.rules.fees import fee_quote
from models.rules.regimes import check_regime_text, load_regime_text
from models.services.act_cases import check_act

ACT = load_regime_text(period_act_text(), f"{REGIME_ID}.toml")


def _line(fee, **inputs):
    return fee_quote(ACT, fees=[fee], **inputs).lines[0]


def test_a_price_per_lot_per_feira_day_counts_the_feira_days():
    line = _line("lote-feira", feira_days=8, asked={"lotes": "3"}, asked_by="ana")
    assert line.amount == Decimal("300.00")
    assert line.formula == "12,50 × 3 × 8"
    assert "Preço de um lote por dia de feira = 12,50 Cr$/dia_feira (Lei 376/2012, art. 4º)" in line.details
    assert "Período: 8 dias de feira." in line.details


@given(days=st.integers(min_value=1, max_value=31), lots=st.integers(min_value=1, max_value=4))
def test_the_feira_days_beyond_eight_cost_half_and_the_price_never_falls_when_a_day_is_added(days, lots):
    """Art. 4º, § 2º (made up): the exception, tried after the rule, in the file's order."""
    line = _line("lote-feira", feira_days=days, asked={"lotes": str(lots)})
    full = Decimal("12.50") * lots * min(days, 8) + Decimal("6.25") * lots * max(days - 8, 0)
    assert line.amount == full.quantize(Decimal("0.01"))
    if days < 31:
        assert _line("lote-feira", feira_days=days + 1, asked={"lotes": str(lots)}).amount > line.amount


def test_prices_per_event_per_fiscal_year_and_per_month():
    assert _line("espaco-evento", events=2).amount == Decimal("600.00")
    assert _line("espaco-evento", events=2).formula == "300,00 × 2"
    assert _line("taxa-anual", fiscal_years=1).amount == Decimal("1500.00")
    assert _line("ocupacao-mensal", area="6.00", months=3).formula == "2,00 × 6,00 × 3"


def test_a_period_the_formula_needs_is_asked_for_and_a_bad_one_refused_at_its_field():
    with pytest.raises(UserError, match="Informe o número de dias de feira") as missing:
        _line("lote-feira", asked={"lotes": "1"})
    assert missing.value.field == "feira_days"
    for bad in (0, -1, "2,5", True):
        with pytest.raises(UserError, match="dias de feira") as refused:
            _line("lote-feira", feira_days=bad, asked={"lotes": "1"})
        assert refused.value.field == "feira_days"


def test_a_period_given_that_no_price_reads_is_said_not_dropped():
    quote = fee_quote(ACT, fees=["espaco-evento"], events=1, fiscal_years=2)
    assert quote.total == Decimal("300.00")
    assert "2 exercícios: nenhum dos preços calculados é contado nesse período — a informação não altera o valor." in (
        quote.notes
    )
    assert quote.inputs["events"] == 1 and quote.inputs["fiscal_years"] == 2


def test_the_checker_refuses_a_price_per_feira_day_multiplied_by_calendar_days():
    by_days = PERIOD_FEES.replace('"preco_lote * lotes * feira_days"', '"preco_lote * lotes * days"')
    wrong = period_act_text(extra=by_days)
    errors = check_regime_text(wrong, f"{REGIME_ID}.toml")
    assert [(e.key, e.reason) for e in errors] == [
        ("fees.lote-feira.formula", "erro na fórmula, coluna 1: a fórmula do preço deve dar R$, dá R$·dia/dia de feira")
    ]
    per = period_act_text(extra=PERIOD_FEES.replace('per = "fiscal-year"', 'per = "exercicio"'))
    errors = check_regime_text(per, f"{REGIME_ID}.toml")
    assert [e.key for e in errors] == ["fees.taxa-anual.per"]
    assert "fiscal-year" in errors[0].reason and "feira-day" in errors[0].reason


def test_the_acts_worked_cases_count_periods():
    checked = check_act(period_act_text(), f"{REGIME_ID}.toml", expected_id=REGIME_ID)
    assert checked.errors == []
    ran = {outcome.case.id for outcome in checked.outcomes}
    assert {"tres-lotes-oito-feiras", "dois-eventos", "um-exercicio", "seis-m2-tres-meses"} <= ran
    wrong = period_act_text(extra=PERIOD_FEES.replace('expect = { total = "600.00" }', 'expect = { total = "500.00" }'))
    failed = check_act(wrong, f"{REGIME_ID}.toml", expected_id=REGIME_ID)
    assert [e.key for e in failed.errors] == ["cases.dois-eventos.expect.total"]
    assert "esperado Cr$ 500,00, calculado Cr$ 600,00" in failed.errors[0].reason


def test_praca_quote_takes_the_periods_and_prints_them_in_the_acts_money(database, tmp_path, capsys):
    path = tmp_path / f"{REGIME_ID}.toml"
    path.write_text(period_act_text(), encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    quote = ["--db", database, "quote", "--regime", REGIME_ID, "--date", "01/03/1986"]
    assert main([*quote, "--fee", "lote-feira", "--feira-days", "8", "--input", "lotes=3"]) == 0
    out = capsys.readouterr().out
    assert "8 dias de feira" in out and "12,50 × 3 × 8" in out and "Cr$ 300,00" in out
    assert main([*quote, "--fee", "taxa-anual", "--fiscal-years", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total_text"] == "Cr$ 1.500,00" and data["inputs"]["fiscal_years"] == 1
    assert main([*quote, "--fee", "espaco-evento", "--events", "dois"]) == 2
    assert "--events (eventos) inválido: 'dois' (use um número inteiro, a partir de 1)." in capsys.readouterr().err


def test_a_licence_valid_for_the_fiscal_year_runs_to_the_31st_of_december_with_its_article():
    from models.permits import permit_term
    from models.rules import describe

    term = permit_term(ACT, "licenca-ambulante", dt.date(1986, 3, 10))
    assert (term.valid_from, term.valid_until) == (dt.date(1986, 3, 10), dt.date(1986, 12, 31))
    assert term.text == "exercício de 1986" and term.article == "Lei 376/2012, art. 6º"
    renewed = permit_term(ACT, "licenca-ambulante", dt.date(1987, 1, 1), renewal=True)
    assert renewed.valid_until == dt.date(1987, 12, 31)
    assert describe.validity(ACT.permit_kind("licenca-ambulante").validity) == "até o fim do exercício (31/12)"
    wrong = period_act_text(validity='validity = { until = "fiscal-year", basis = "art. 6º" }')
    errors = check_regime_text(wrong, f"{REGIME_ID}.toml")
    until = [e for e in errors if e.key == "permit_kinds.licenca-ambulante.validity.until"]
    assert until and "fiscal-year-end" in until[0].reason


def test_the_months_run_counts_the_feira_days_of_the_month_from_the_kinds_calendar(keys):
    """SJC's act amended (made up) to price its feira stall per m² per feira day, its feira on Thursdays: the
    month's run counts September 2026's Thursdays (3, 10, 17, 24) from the kind's calendar — declared in the
    file — and writes the count in the charge's formula; a calendar without weekdays gives no invented count."""
    from factories import sjc_stall
    from formula_acts import sjc_amended_to_formula

    from models.access import session
    from models.billing.charges import plan_month
    from models.billing.charges.month import month_periods
    from models.rules import acts

    text = sjc_amended_to_formula("2026-09-01")
    text = text.replace('formula = "taxa * INPC * area"', 'formula = "taxa * area * feira_days"', 1)
    text = text.replace('value = "2.50"\nunit = "R$/m2"', 'value = "0.50"\nunit = "R$/m2/dia_feira"', 1)
    text = text.replace('id = "feirante"\n', 'id = "feirante"\nschedule = "feira-noturna"\n', 1)
    undated = load_regime_text(text, "sjc-2014.toml")
    fee = undated.fee("licence-fee")
    assert month_periods(undated, "feirante", fee, 2026, 9) == {}  # hours "fixados pelo Executivo": no weekdays
    admin_hours = text[text.index("opening_hours = { admin_defined = true") :].split("\n", 1)[0]
    thursdays = 'opening_hours = { opens = "18:00", closes = "23:00", weekdays = ["thu"], basis = "art. 2º" }'
    text = text.replace(admin_hours, thursdays, 1)
    sjc_stall(keys)  # 8,00 × 3,50 m of pastel, issued 03/08/2026
    with session.acting_as(session.SYSTEM):
        acts.amend(text.encode("utf-8"), "sjc-2014.toml")
    september = plan_month(2026, 9, today=dt.date(2026, 9, 1)).to_create[0]
    assert september.formula == "0,50 × 8,00 × 3,50 × 4"  # R$ 0,50 per m² per feira day × 8,00 × 3,50 m × 4 Thursdays
    assert september.amount == Decimal("56.00")
    assert "Período: 4 dias de feira." in september.detail["details"]


def test_the_price_simulator_asks_the_periods_the_acts_prices_count_and_prices_with_them(
    app_ready, qtbot, sqlite_url, tmp_path
):
    from models.rules import acts
    from views.price_simulator import PriceSimulator

    open_new_database(sqlite_url, acts=["cabeceira-grande-2012"])
    acts.install(period_act_text().encode("utf-8"), f"{REGIME_ID}.toml")
    simulator = PriceSimulator()
    qtbot.addWidget(simulator)
    simulator.show()
    simulator.refresh()
    simulator.select_regime(REGIME_ID)
    spins = simulator.period_spins
    assert all(spin.isVisible() for spin in spins.values())  # this act prices per feira day, event, month, exercício
    assert simulator.admin_box.title() == "Valores definidos pela Administração (Cr$)"
    simulator.permit_kind.setCurrentIndex(simulator.permit_kind.findData("licenca-ambulante"))
    simulator.date.set_date(dt.date(1986, 3, 1))
    simulator.year.setValue(1986)
    qtbot.keyClicks(simulator.admin_edits["taxa-licenca"], "100")
    simulator.settle()
    assert simulator.error.text() == ""
    simulator.select_regime("cabeceira-grande-2012")
    assert not any(spin.isVisible() for spin in spins.values())  # an act with no such price: no such field
    simulator.select_regime(REGIME_ID)
    simulator.permit_kind.setCurrentIndex(0)  # priced by the stall's data
    simulator.date.set_date(dt.date(1986, 3, 1))
    simulator.year.setValue(1986)
    qtbot.keyClicks(simulator.area, "6")
    spins["months"].setValue(3)
    simulator.settle()
    assert [(line.fee, line.formula) for line in simulator.last_quote.lines if line.fee == "ocupacao-mensal"] == [
        ("ocupacao-mensal", "2,00 × 6,00 × 3")
    ]
    assert "Cr$ 36,00" in simulator.total.text() and simulator.last_quote.lines[0].year == 1986
    simulator.grab().save(str(tmp_path / "simulador-periodos.png"))


def test_a_permit_issued_for_the_fiscal_year_runs_to_the_31st_of_december_and_keeps_its_article(keys, make_tab):
    from factories import all_documents, approved, issue, person, select

    from models.access import session
    from models.permits import PermitEvent
    from models.rules import acts

    with session.acting_as(session.SYSTEM):
        acts.install(period_act_text().encode("utf-8"), f"{REGIME_ID}.toml")
    on = dt.date(2026, 3, 10)
    app = approved(
        REGIME_ID,
        "licenca-ambulante",
        on=on,
        holder=person("Carlos Alberto Nunes"),
        documents=all_documents(REGIME_ID, "licenca-ambulante", on),
    )
    permit = issue(app, keys, on=on)
    assert (permit.valid_from, permit.valid_until) == (on, dt.date(2026, 12, 31))
    issued = PermitEvent.get((PermitEvent.permit == permit.id) & (PermitEvent.kind == "issued"))
    assert '"term": "exercício de 2026"' in issued.data and "Lei 376/2012, art. 6º" in issued.data
    tab = make_tab()  # the Permissões desk: the term with how it was counted and its article
    select(tab, permit.number)
    validity = tab.detail_labels["validity"].text()
    assert validity == "de 10/03/2026 a 31/12/2026 (exercício de 2026; Lei 376/2012, art. 6º)"
