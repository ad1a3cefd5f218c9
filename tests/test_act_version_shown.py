"""Issue 20 §1: a permit and an infraction record show the act's version they were computed from — the act, the
day that version applies from and its short hash — as the charge does, also after the act was amended."""

from __future__ import annotations

import datetime as dt

from factories import approved, draft, event_stall, person, select
from factories import issue_record as issue

from models.rules import acts
from models.rules.regimes import default_regimes_folder
from models.services.issuing import issue_permit


def amend(regime_id: str, since: dt.date):
    """An amendment of a shipped act from ``since`` (its text otherwise the same)."""
    text = (default_regimes_folder() / f"{regime_id}.toml").read_text(encoding="utf-8")
    text += f'\n[regime.amendment]\nact = "Decreto nº 9.999, de 1º de março de 2026"\nin_force_from = {since}\n'
    return acts.amend(text.encode("utf-8"), f"{regime_id}.toml")


def test_the_permit_detail_shows_the_version_it_was_issued_by(make_tab, keys, clock):
    before = event_stall(keys, person("Paula Trailer"))  # issued 20/03/2026
    v1 = acts.history("sao-bento-2026")[0]
    v2 = amend("sao-bento-2026", dt.date(2026, 3, 26))
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 27),
        holder=person("Rui Trailer"),
        site="rua-cel-ribeiro-da-luz",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
    )
    after = issue_permit(app, by="ana", today=dt.date(2026, 3, 27), key_dir=keys, point="Posição 08")
    clock.day = dt.date(2026, 3, 27)  # both in force
    tab = make_tab()
    select(tab, before.number)
    text = tab.detail_labels["origin"].text()
    assert "· ato v1 de " in text
    assert v1.sha256[:8] in text and v2.sha256[:8] not in text
    select(tab, after.number)
    text = tab.detail_labels["origin"].text()
    assert "· ato v2 de 26/03/2026" in text and v2.sha256[:8] in text


def test_the_record_detail_shows_the_version_it_was_judged_by(qtbot, keys, app_ready):
    from views.enforcement import EnforcementPage

    jose = person("José Ambulante")
    before = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "02/03/2026 09:30", holder=jose))
    v1 = acts.history("olimpia-2025")[0]
    v2 = amend("olimpia-2025", dt.date(2026, 3, 10))
    after = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "12/03/2026 09:30", holder=jose))
    page = EnforcementPage(today=dt.date(2026, 3, 16))
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    page.refresh()
    tab = page.records
    assert tab.select_record(before.id)
    shown = tab.detail.toPlainText()
    assert "Lavrado com o ato olimpia-2025, versão 1 (texto original)" in shown
    assert v1.sha256[:16] in shown and v2.sha256[:16] not in shown
    assert tab.select_record(after.id)
    shown = tab.detail.toPlainText()
    assert "versão 2" in shown and "em vigor a partir de 10/03/2026" in shown and v2.sha256[:16] in shown


def test_an_old_charge_still_shows_the_version_it_was_computed_from(keys, app_ready, qtbot):
    from models.billing.charges import create_charge
    from views.charges_page import ChargesTab

    debtor = person("Maria Barraqueira").id
    old = create_charge(
        kind="event",
        regime="sao-bento-2026",
        label="Preço público",
        amount="633,93",
        due_on=dt.date(2026, 3, 26),
        basis="art. 9º, § 2º",
        by="ana",
        today=dt.date(2026, 3, 25),
        person_id=debtor,
    )
    v1 = acts.history("sao-bento-2026")[0]
    v2 = amend("sao-bento-2026", dt.date(2026, 3, 26))
    tab = ChargesTab(today=dt.date(2026, 3, 27))
    qtbot.addWidget(tab)
    tab.show()
    tab.set_month(2026, 3)
    assert tab.select_number(old.number)
    shown = tab.detail.text()
    assert "Calculada com o ato sao-bento-2026, versão 1 (texto original)" in shown
    assert v1.sha256[:16] in shown and v2.sha256[:16] not in shown
