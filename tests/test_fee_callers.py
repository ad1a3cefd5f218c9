"""Issue 29 §6: the callers of the fee engine read a fee through what it asks (``models.rules.fees.needs``), never
its kind — so when every fee of every shipped act is said as a formula at load (``legacy_fees.as_formulas``, a
venue table's deposit a fee of its own named by its permit kinds), the month's charges, a quote, the price
simulator and the application form give the same figures, and the screens ask for the same inputs (SQLite;
PostgreSQL with PRACA_TEST_PG)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
import hashlib
import json

import pytest
from factories import approved, company, event_stall, feirante, person, sapezal_licence

from models.rules.fees.needs import engine_values, fee_needs, needed
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.legacy_fees import as_formulas

YEAR = 2026
ON = dt.date(2026, 3, 25)


def said_as_formulas(regime: Regime) -> Regime:
    """``regime`` with every fee a formula fee: a venue table gives its fee and its deposit, and each permit kind
    that names the table names the deposit too (the act charges both)."""
    converted = {fee.id: as_formulas(fee) for fee in regime.fees}
    kinds = tuple(
        dataclasses.replace(kind, fees=tuple(f.id for ident in kind.fees for f in converted[ident]))
        if kind.fees
        else kind
        for kind in regime.permit_kinds
    )
    fees = tuple(f for fee in regime.fees for f in converted[fee.id])
    # not the text's version (sha256): the engine works out what it reads once per version of an act
    return dataclasses.replace(regime, fees=fees, permit_kinds=kinds, sha256=None)


@pytest.fixture
def every_fee_a_formula(monkeypatch):
    """From its call on, every act read (the files and the database's installed versions) is said as formulas."""
    from models.rules import acts
    from models.rules.regimes import catalogue, loader
    from models.rules.regimes.catalogue import clear_regime_cache

    def convert():
        read = loader._read

        def read_as_formulas(*a, **kw):
            regime, found, data = read(*a, **kw)
            if regime is not None:  # another version than the text's: what is worked out once per version is its own
                other = hashlib.sha256(f"{regime.sha256}:as-formulas".encode()).hexdigest()
                regime = dataclasses.replace(said_as_formulas(regime), sha256=other)
            return regime, found, data

        monkeypatch.setattr(loader, "_read", read_as_formulas)
        # the shipped files parsed anew, not from the pickle an earlier test left in the cache folder
        monkeypatch.setattr(catalogue, "load_through_cache", catalogue.load_regimes)
        # the installed texts parsed anew into a dict of their own: the process's (by each text's SHA-256) is left
        # as it was, so no later test reads an act said as formulas
        monkeypatch.setattr(acts, "_parsed", {})
        clear_regime_cache()
        acts.forget()

    yield convert
    clear_regime_cache()
    acts.forget()


#: (act, permit kind, the stall, values typed by fee (the Administration's), values typed by name (a formula's))
SCENARIOS = [
    (
        "sao-bento-2026",
        "event-stall",
        dict(equipment="trailer", front="3,20", hitch="0,80", depth="2,50", energy="high", mei=True, local=True),
        {},
        {},
    ),
    ("sao-bento-2026", "event-stall", dict(equipment="barraca", front="4", depth="3,5"), {}, {}),
    ("sjc-2014", "feirante", dict(line="pastel", front="3,00", depth="2,00"), {}, {}),
    (
        "olimpia-2025",
        "event-public",
        dict(venue="recinto-todas-instalacoes", days=4),
        {"event-utilities": "250,00"},
        {},
    ),
    ("olimpia-2025", "event-public", dict(venue="recinto-exceto-estacionamento", days=1), {"event-utilities": "1"}, {}),
    ("olimpia-2025", "street-vending", dict(days=3), {"street-vending-tax": "12,34"}, {}),
    ("olimpia-2025", "street-food-tpu-a", {}, {"tpu-public-price": "500,00"}, {}),
    ("sapezal-2014", "ponto-fixo", dict(line="bebidas", equipment="barraca"), {"licenca": "85,00"}, {}),
    ("cabeceira-grande-2012", "licenca-ambulante", {}, {"taxa-licenca": "48,50"}, {}),
    ("ilha-comprida-2017", "ambulante-praia", {}, {"tributos-devidos": "300,00"}, {}),
    (
        "chapadao-do-sul-2007",
        "licenca-dia",
        dict(line="marmitas", days=3, local=True),
        {},
        {"desconto_residente": "10"},
    ),
    ("sao-lourenco-do-oeste-1997", "alvara-ambulante", dict(equipment="automotor", days=2), {}, {}),
]


def _unit_values() -> None:
    """The fiscal units the acts leave to the municipality's table, for the year priced."""
    from models.billing.fiscal import set_unit_value

    set_unit_value(get_regime("chapadao-do-sul-2007"), "UFM", YEAR, "20,00", entered_by="teste", reason="UFM de teste")
    set_unit_value(
        get_regime("sao-lourenco-do-oeste-1997"), "UFRM", YEAR, "120,00", entered_by="teste", reason="UFRM de teste"
    )


def _lines(result) -> list[tuple]:
    """A quote's figures: each line's fee (a deposit under the fee that asks it), kind and amount."""
    return sorted((line.fee.removesuffix("-caucao"), line.kind, line.amount) for line in result.lines)


def quotes() -> dict:
    from models.billing.pricing import quote

    out = {}
    for n, (regime_id, kind, stall, by_fee, by_name) in enumerate(SCENARIOS):
        regime = get_regime(regime_id, on=ON)
        inputs = dict(stall, permit_kind=kind, **engine_values(regime, by_fee=by_fee, by_name=by_name))
        result = quote(regime, year=YEAR, **inputs)
        out[n] = (_lines(result), result.total_charges, result.total_deposits)
    return out


def describe_stall(screen, depth, stall: dict) -> None:
    """Choose and type the stall on a screen (the simulator, the form): what the last scenario chose does not
    carry over."""
    for key in ("equipment", "line", "venue", "energy"):
        combo = getattr(screen, key)
        combo.setCurrentIndex(max(combo.findData(stall.get(key, "")), 0))
    for key, edit in (("front", screen.front), ("depth", depth), ("hitch", screen.hitch)):
        edit.setText(stall.get(key, ""))


def simulator_figures(qtbot) -> dict:
    from views.price_simulator import PriceSimulator

    sim = PriceSimulator()
    qtbot.addWidget(sim)
    sim.show()
    sim.refresh()
    out = {}
    for n, (regime_id, kind, stall, by_fee, by_name) in enumerate(SCENARIOS):
        sim.select_regime(regime_id)
        sim.date.set_date(ON)
        sim.permit_kind.setCurrentIndex(sim.permit_kind.findData(kind))
        describe_stall(sim, sim.depth_edit, stall)
        sim.days.setValue(stall.get("days", 0))
        sim.mei.setChecked(stall.get("mei", False))
        sim.local.setChecked(stall.get("local", False))
        for fee_id, value in by_fee.items():
            sim.admin_edits[fee_id].setText(value)
        for name, value in by_name.items():
            sim.asked_edits[name].setText(value)
        sim.settle()
        assert sim.error.text() == "", (regime_id, kind, sim.error.text())
        asks = sorted(
            name
            for name, widget in (
                ("front", sim.front),
                ("depth", sim.depth_edit),
                ("hitch", sim.hitch),
                ("area", sim.area),
                ("days", sim.days),
                *sim.period_spins.items(),
            )
            if widget.isVisibleTo(sim)
        )
        out[n] = (
            _lines(sim.last_quote),
            sim.total.text(),
            asks,
            sorted(sim.admin_edits),
            sorted(sim.asked_edits),
            [sim.energy.itemData(i) for i in range(sim.energy.count())],
        )
    return out


def form_figures(qtbot, applicant) -> dict:
    from views.application_form import ApplicationDialog

    d = ApplicationDialog("company", applicant.id, now=dt.datetime.combine(ON, dt.time(10)))
    qtbot.addWidget(d)
    d.show()
    out = {}
    for n, (regime_id, kind, stall, _by_fee, by_name) in enumerate(SCENARIOS):
        d.regime.setCurrentIndex(d.regime.findData(regime_id))
        d.kind.setCurrentIndex(d.kind.findData(kind))
        describe_stall(d, d.depth_edit, stall)
        d.days.setText(str(stall.get("days", "")))
        for name, value in by_name.items():
            d.asked_edits[name].setText(value)
        assessment = d.settle()
        assert assessment is not None and assessment.quote_problem is None, (regime_id, kind)
        result = assessment.quote
        out[n] = (
            _lines(result) if result is not None else None,
            [note for note in (result.notes if result is not None else ()) if "cobrado à parte" in note],
            d.quote_note.text(),
            sorted(d.asked_edits),
            d.venue_box.isVisibleTo(d),
            d.days.isVisibleTo(d),
            [d.venue.itemData(i) for i in range(d.venue.count())],
        )
    d.dirty = False
    return out


def month_figures() -> dict:
    from models.billing.charges import plan_month

    out = {}
    for year, month in ((2026, 3), (2026, 9), (2026, 12)):
        plan = plan_month(year, month, today=dt.date(year, month, 1))
        out[year, month] = (
            sorted((c.permit_number, c.kind, c.amount, c.due_on, c.period) for c in plan.to_create),
            sorted(s.split(":")[0].split(" — ")[0] for s in plan.skipped),
        )
    return out


def _permits(keys) -> None:
    """A permit of each shape the month charges: SJC's monthly fee, São Bento's fee charged once, Sapezal's value
    the Administration sets, and Olímpia's venue (its deposit) with the quote frozen on the application."""
    from models.billing.pricing import quote
    from models.registry.applications import Application

    feirante(keys, person("Maria das Dores"), on=dt.date(2026, 8, 3))
    sapezal_licence(keys, person("João Sapezal"), on=dt.date(2026, 8, 3))
    event_stall(keys, company("Trailer do Zé Ltda", person("José Carlos Pinto")))
    frozen = quote(
        "olimpia-2025",
        permit_kind="event-public",
        venue="recinto-todas-instalacoes",
        days=4,
        year=YEAR,
        **engine_values(get_regime("olimpia-2025"), by_fee={"event-utilities": "250,00"}),
    ).to_dict()
    olimpia = approved("olimpia-2025", "event-public", on=dt.date(2026, 8, 3), holder=company("Eventos Ltda"))
    Application.update(quote_json=json.dumps(frozen)).where(Application.id == olimpia.id).execute()


def test_every_desk_prices_alike_when_every_fee_of_the_shipped_acts_is_a_formula(
    keys,
    inpc,
    app_ready,
    qtbot,
    every_fee_a_formula,
):
    from models.billing.charges import await_payment
    from models.registry.applications import Application

    _unit_values()
    _permits(keys)
    applicant = company("Comércio Geral Ltda", person("Ana Comerciante"))
    kinds_of = {}
    olimpia = Application.select().where(Application.regime == "olimpia-2025").get()

    def figures() -> dict:
        regime = get_regime("olimpia-2025", on=ON)
        lines = json.loads(olimpia.quote_json)["lines"]
        from models.billing.charges.steps import charge_kind

        kinds_of[len(kinds_of)] = [
            charge_kind(regime, regime.fee(line["fee"]), line.get("kind", "charge")) for line in lines
        ]
        # the widgets left over are collected here, on the GUI thread, never by a pricing worker (a segfault)
        gc.collect()
        gc.disable()
        try:
            return dict(
                quotes=quotes(),
                simulator=simulator_figures(qtbot),
                form=form_figures(qtbot, applicant),
                month=month_figures(),
            )
        finally:
            gc.enable()

    before = figures()
    # the fee-kind wording prices: every scenario has a figure, and the month charges and skips what it should
    assert all(total > 0 for _lines, total, _deposits in before["quotes"].values())
    assert before["quotes"][3][2] > 0  # Olímpia's venue: its deposit (caução)
    assert any(kind == "monthly" for c in before["month"][2026, 9][0] for kind in c[1:2])
    every_fee_a_formula()
    for regime_id in {s[0] for s in SCENARIOS}:  # every fee of every act read is now a formula fee
        regime = get_regime(regime_id, on=ON)
        assert {fee.kind for fee in regime.fees} == {"formula"}, regime_id
    assert "event-venue-caucao" in get_regime("olimpia-2025").permit_kind("event-public").fees
    after = figures()
    for desk in before:
        for key in before[desk]:
            assert after[desk][key] == before[desk][key], (desk, key)
    assert kinds_of[0] == kinds_of[1] and {"venue", "deposit"} <= set(kinds_of[0])
    # and the frozen quote is charged alike: its venue charge, its deposit
    charges = await_payment(Application.get_by_id(olimpia.id), by="ana", today=dt.date(2026, 8, 4))
    assert sorted(c.kind for c in charges) == sorted(kinds_of[0])


def test_what_a_fee_asks_is_the_same_said_either_way():
    """The interface answers alike for each fee of the old kinds and for the formula it becomes: the inputs it
    reads (São José dos Campos' area fee reads the line that caps the area, in its refusals), its period, the value
    it leaves to the Administration, and its deposit (the formula's own deposit fee)."""
    from formula_acts import (
        ADMINISTRATION_FEES,
        administration_fee_by_kind_text,
        olimpia_by_kind_text,
        sao_bento_by_kind_text,
        sjc_by_kind_text,
    )

    from models.rules.regimes import load_regime_text, shipped_regimes_from_files

    compared = 0
    # São Bento's occupation price and energy tariff, Olímpia's venue table and São José dos Campos' monthly fee
    # in their older kinds, as the files said them before their formulas; and the fees the Administration sets, in
    # their older kind (fixed, admin_defined), as their files said them
    by_kind = [
        load_regime_text(sao_bento_by_kind_text(), "sao-bento-2026.toml"),
        load_regime_text(olimpia_by_kind_text(), "olimpia-2025.toml"),
        load_regime_text(sjc_by_kind_text(), "sjc-2014.toml"),
    ]
    admin_by_kind = [load_regime_text(administration_fee_by_kind_text(n), f"{n}.toml") for n in ADMINISTRATION_FEES]
    for regime in [*shipped_regimes_from_files().values(), *by_kind, *admin_by_kind]:
        converted = said_as_formulas(regime)
        for fee in regime.fees:
            if fee.kind == "formula":
                continue
            old = fee_needs(regime, fee)
            new = [fee_needs(converted, f) for f in as_formulas(fee)]
            names = {need.name for need in old.inputs}
            assert names == {need.name for need in new[0].inputs} | ({"venue"} if len(new) > 1 else set())
            assert (old.per, old.administration) == (new[0].per, new[0].administration), fee.id
            assert old.deposit == any(n.deposit for n in new), fee.id
            assert [a.name for a in old.asked] == [a.name for a in new[0].asked], fee.id
            compared += 1
    assert compared >= 13
    asked = needed(shipped_regimes_from_files()["sao-bento-2026"])
    assert list(asked) == ["equipment", "front", "depth", "hitch", "energy", "mei", "local"]
    assert asked["hitch"].basis == "art. 9º, § 1º" and asked["hitch"].unit == "m"
    # the formula asks each fact by the article its kind did: the front by the rule's (§ 2º), the hitch by § 1º
    said = {name: need.basis for name, need in needed(by_kind[0]).items()}
    assert {name: need.basis for name, need in asked.items()} == said
    assert said["front"] == "art. 9º, § 2º"


@pytest.fixture
def cli_db(sqlite_url):
    """The commands read an existing database only: this one is made first, as ``praca init`` makes it."""
    from factories import open_new_database

    from models.store.bootstrap import close_database

    open_new_database(sqlite_url, acts=["cabeceira-grande-2012", "olimpia-2025", "sao-bento-2026"])
    close_database()
    return sqlite_url


CLI = {
    "admin-value": "--regime cabeceira-grande-2012 --permit-kind licenca-ambulante --admin-value taxa-licenca=48,50",
    "venue": "--regime olimpia-2025 --venue recinto-todas-instalacoes --days 4 --year 2026",
    "input": "--regime olimpia-2025 --fee street-vending-tax --days 3 --input valor_street_vending_tax=9",
    "stall": "--regime sao-bento-2026 --equipment trailer --front 3,20 --hitch 0,80 --mei",
}


@pytest.mark.parametrize("args", [text.split() for text in CLI.values()], ids=CLI.keys())
def test_praca_quote_prices_alike_when_every_fee_is_a_formula(cli_db, capsys, every_fee_a_formula, args):
    """``praca quote``: a value the Administration sets is typed by the fee (``--admin-value``) or by its name
    (``--input``) whatever the fee's wording, and the figures are the same."""
    from desktop.cli import main

    def priced() -> tuple:
        assert main(["quote", "--db", cli_db, *args, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        lines = sorted((line["fee"].removesuffix("-caucao"), line["kind"], line["amount"]) for line in data["lines"])
        return lines, data["total"]

    before = priced()
    assert before[0] and before[1] != "0.00"
    every_fee_a_formula()
    assert priced() == before
