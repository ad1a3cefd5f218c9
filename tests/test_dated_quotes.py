"""Issue 20 §2 on the desks: the price simulator and the front desk quote by the act's version in force on the
simulation's / the application's date, as ``praca quote --date`` does (an amendment from 26/03/2026 raises São
Bento's coefficient from 5,50 to 6,00 UFESP per linear metre)."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import type_text
from factories import person

from models.registry.applications import ApplicationInput
from models.rules import acts
from models.rules.regimes import default_regimes_folder
from models.services.front_desk import assess, load_applicant

SINCE = dt.date(2026, 3, 26)


@pytest.fixture
def amended(database):
    text = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    text = text.replace('value = "5.50"', 'value = "6.00"', 1)
    text += f'\n[regime.amendment]\nact = "Decreto nº 4.800, de 25 de março de 2026"\nin_force_from = {SINCE}\n'
    return acts.amend(text.encode("utf-8"), "sao-bento-2026.toml")


def test_the_simulator_prices_by_the_version_in_force_on_its_date(amended, app_ready, qtbot):
    from views.price_simulator import PriceSimulator

    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    sim.refresh()
    assert sim.date.date() == dt.date.today()  # today unless the clerk types another day
    sim.select_regime("sao-bento-2026")
    sim.equipment.setCurrentIndex(sim.equipment.findData("barraca"))
    type_text(sim.front, "3,00")

    def total_on(day: str) -> str:
        sim.date.clear()
        qtbot.keyClicks(sim.date, day)
        sim.settle()  # priced off the GUI thread (issue 27 §5)
        assert sim.error.text() == ""
        return sim.total.text().replace("\xa0", " ")

    assert total_on("25032026") == "Total: R$ 633,93"  # 5,50 × 38,42 × 3,00, the original text
    assert sim.year.value() == 2026
    assert "versão 1 (texto original)" in sim.notes.text()
    assert total_on("27032026") == "Total: R$ 691,56"  # 6,00 × 38,42 × 3,00, the amendment
    assert "versão 2 (alteração: Decreto nº 4.800" in sim.notes.text() and amended.sha256[:16] in sim.notes.text()
    assert total_on("26032026") == "Total: R$ 691,56"  # in force from its first day
    sim.date.clear()  # Dec. 4.794/2026, art. 15: in force from 24/03/2026 — a day before it is not priced by it
    qtbot.keyClicks(sim.date, "23032026")
    sim.settle()
    assert "anterior à vigência do ato (Dec. 4.794/2026), em vigor desde 24/03/2026" in sim.error.text()
    assert sim.total.text() == ""
    sim.date.clear()
    qtbot.keyClicks(sim.date, "3102")  # an impossible day is said at the field, and nothing priced
    assert "Data-base" in sim.error.text() and sim.total.text() == ""


def test_the_front_desk_quotes_by_the_version_in_force_on_the_applications_day(amended):
    holder = person("Paula Trailer")
    data = ApplicationInput(
        regime="sao-bento-2026",
        permit_kind="event-stall",
        person_id=holder.id,
        site="rua-cel-ribeiro-da-luz",
        equipment="barraca",
        front="3,00",
        depth="2,00",
    )
    applicant = load_applicant("person", holder.id)
    before = assess(applicant, data, today=dt.date(2026, 3, 25))
    after = assess(applicant, data, today=dt.date(2026, 3, 27))
    assert before.quote is not None and after.quote is not None, (before.quote_problem, after.quote_problem)
    assert before.quote.total < after.quote.total
    assert "5,50" in " ".join(line.formula for line in before.quote.lines)
    assert "6,00" in " ".join(line.formula for line in after.quote.lines)
