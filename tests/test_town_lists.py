"""Issue 31 §1: the desks' lists are the municipality's. A database filled with several towns' data (the
all-towns demo, a database made before issue 31) shows on the Painel's "Para hoje", Cobrança's and
Fiscalização's lists only the items of the municipality's own acts; while it does not know its municipality,
every item."""

from __future__ import annotations

import pytest

from models import enforcement as enf
from models.access import session
from models.billing.charges import charge_alerts, charge_rows, revocation_candidates
from models.demo import DEMO_TODAY
from models.permits import today_items
from models.registry.municipality import MunicipalityInput, own_scope, set_municipality

SJC = "sjc-2014"


@pytest.fixture
def sjc(demo_database):
    """The all-towns demo, told that it is São José dos Campos's database (the town with most of its data)."""
    with session.acting_as(session.SYSTEM):
        set_municipality(MunicipalityInput(name="São José dos Campos", state="SP"))
    assert own_scope() == frozenset({SJC})
    return demo_database


def _regimes(rows) -> set[str]:
    return {row.regime for row in rows}


def test_the_lists_read_only_the_municipalitys_acts(sjc):
    day, scope = DEMO_TODAY, own_scope()
    for every, own in (
        (charge_rows(today=day), charge_rows(today=day, regimes=scope)),
        (enf.record_rows(), enf.record_rows(regimes=scope)),
    ):
        assert len(_regimes(every)) > 1 and _regimes(own) == {SJC}  # the demo mixes towns; the list does not
        assert own == [row for row in every if row.regime == SJC][: len(own)]
    debts = enf.debt_register(day)  # the demo's fines for the dívida ativa are São Bento's and Sapezal's
    assert debts and SJC not in _regimes(debts) and enf.debt_register(day, regimes=scope) == []
    seized_every, seized_own = enf.seized_goods(day), enf.seized_goods(day, regimes=scope)
    assert _regimes(seized_own) <= {SJC} and seized_own == [r for r in seized_every if r.regime == SJC]
    assert _regimes(revocation_candidates(today=day, regimes=scope)) <= {SJC}
    alerts = charge_alerts(day) + enf.enforcement_alerts(day) + today_items(day)
    own_alerts = (
        charge_alerts(day, regimes=scope) + enf.enforcement_alerts(day, regimes=scope) + today_items(day, regimes=scope)
    )
    assert own_alerts and len(own_alerts) < len(alerts)
    from models.permits import Permit

    def towns_of(items) -> set[str]:
        ids = sorted({i.permit_id for i in items})
        return {p.regime for p in Permit.select(Permit.regime).where(Permit.id.in_(ids))}

    assert towns_of(today_items(day)) - {SJC}  # other towns' permits have something due that day …
    assert towns_of(today_items(day, regimes=scope)) <= {SJC}  # … and the municipality's list leaves them out


def test_no_municipality_known_lists_every_town(demo_database):
    from models.store.settings import MUNICIPALITY, set_settings

    set_settings({MUNICIPALITY: ""})
    assert own_scope() is None
    assert len(_regimes(charge_rows(today=DEMO_TODAY, regimes=own_scope()))) > 1


def test_the_desks_show_only_the_municipalitys_items(sjc, app_ready, qtbot):
    from views.charges_page import ChargesTab, DelinquencyTab
    from views.enforcement import EnforcementPage
    from views.home import HomePage

    charges = ChargesTab(today=DEMO_TODAY)
    qtbot.addWidget(charges)
    charges.status.setCurrentIndex(0)  # Todas
    index = next(i for i in range(charges.month.count()) if charges.month.itemData(i) == (2026, 11))
    charges.month.setCurrentIndex(index)
    charges.refresh()
    assert charges.model.rows and _regimes(charges.model.rows) == {SJC}
    assert len(_regimes(charge_rows(year=2026, month=11, today=DEMO_TODAY))) > 1  # what it would have mixed

    arrears = DelinquencyTab(today=DEMO_TODAY)
    qtbot.addWidget(arrears)
    arrears.refresh()
    assert arrears.overdue.rows and _regimes(arrears.overdue.rows) == {SJC}
    assert _regimes(arrears.candidates.rows) <= {SJC}

    page = EnforcementPage(today=DEMO_TODAY)
    qtbot.addWidget(page)
    for tab in (page.records, page.seizures, page.debts):
        tab.refresh()
        assert _regimes(tab.model.rows) <= {SJC}
    assert page.records.model.rows and not page.debts.model.rows  # none of São José dos Campos's is due

    home = HomePage()
    qtbot.addWidget(home)
    home.day = DEMO_TODAY
    home.refresh()
    shown = [home.today.item(i).text() for i in range(home.today.count())]
    scope = own_scope()
    own = charge_alerts(DEMO_TODAY, regimes=scope) + enf.enforcement_alerts(DEMO_TODAY, regimes=scope)
    own += today_items(DEMO_TODAY, regimes=scope)
    others = [i for i in today_items(DEMO_TODAY) if i not in own]
    assert others and not any(item.text in text for item in others for text in shown)
    assert all(any(item.text in text for text in shown) for item in own)
