"""The fee kinds that came before the rule language, said as formulas (issue 29 §6,
``models.rules.regimes.legacy_fees``): the one engine prices every fee as its formula, and each kind says what the
fee-kind engine said (frozen out of the application as the reference, ``bench/fee_kinds.py``) — figures for every worked
case of the acts, and labels, articles, figures, formulas and refusals for any stall, tier, venue, days, value
or area hypothesis draws (one test per kind)."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal

import pytest
from formula_acts import (
    ADMINISTRATION_FEES,
    administration_fee_by_kind_text,
    olimpia_by_kind_text,
    sao_bento_by_kind_text,
    sjc_by_kind_text,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench.fee_kinds import priced_by_kind
from models.base.errors import UserError
from models.rules.fees import fee_quote
from models.rules.fees.typed import quote_inputs
from models.rules.regimes import Regime, default_regimes_folder, load_regime_text
from models.rules.regimes.fee_formulas import program_for
from models.rules.regimes.legacy_fees import admin_value_name, as_formulas, converted_fees
from models.services import act_cases

FILES = sorted(default_regimes_folder().glob("*.toml"))
SHIPPED = {path.stem: load_regime_text(path.read_text(encoding="utf-8"), path) for path in FILES}
#: the acts as the converter reads them: São Bento's occupation price and energy tariff, Olímpia's venue table and
#: São José dos Campos' monthly fee in their older kinds, and the fees the Administration sets in theirs (``fixed``,
#: ``admin_defined``), as the files said them before they were written as formulas
REGIMES = {
    **SHIPPED,
    "sao-bento-2026": load_regime_text(sao_bento_by_kind_text(), "sao-bento-2026.toml"),
    "olimpia-2025": load_regime_text(olimpia_by_kind_text(), "olimpia-2025.toml"),
    "sjc-2014": load_regime_text(sjc_by_kind_text(), "sjc-2014.toml"),
    **{n: load_regime_text(administration_fee_by_kind_text(n), f"{n}.toml") for n in ADMINISTRATION_FEES},
}


def converted(regime: Regime) -> Regime:
    return dataclasses.replace(regime, fees=converted_fees(regime), sha256=None)


CONVERTED = {name: converted(regime) for name, regime in REGIMES.items()}


def totals(quote) -> dict[str, Decimal]:
    """Each fee's charge, and a venue's deposit under ``<fee>-caucao`` (its own fee once converted)."""
    out: dict[str, Decimal] = {}
    for line in quote.lines:
        key = line.fee if line.kind == "charge" or line.fee.endswith("-caucao") else f"{line.fee}-caucao"
        out[key] = out.get(key, Decimal(0)) + line.amount
    return out


def as_converted(regime: Regime, inputs: dict) -> dict:
    """The same request to the converted act: a value the Administration sets is asked by its name; a venue
    table named gives its deposit too."""
    inputs = dict(inputs)
    admin = inputs.pop("admin_values", None)
    if admin:
        inputs["asked"] = {**(inputs.get("asked") or {}), **{admin_value_name(k): v for k, v in admin.items()}}
    if inputs.get("fees"):
        inputs["fees"] = [
            ident
            for fee in inputs["fees"]
            for ident in ([fee, f"{fee}-caucao"] if regime.fee(fee).kind == "venue-table" else [fee])
        ]
    return inputs


def by_kind(regime: Regime, **inputs):
    """The quote of the fee-kind engine (``bench/fee_kinds.py``), the reference of the conversion."""
    with priced_by_kind():
        return fee_quote(regime, **inputs)


def both(name: str, **inputs) -> tuple[object, object]:
    """The fee-kind engine's totals and the converted act's, or the refusal of each (``UserError``)."""
    out = []
    for price, regime, given_inputs in (
        (by_kind, REGIMES[name], inputs),
        (fee_quote, CONVERTED[name], as_converted(REGIMES[name], inputs)),
    ):
        try:
            out.append(totals(price(regime, **given_inputs)))
        except UserError as exc:
            out.append(type(exc))
    return out[0], out[1]


def test_every_fee_of_the_six_acts_compiles_as_a_formula_without_a_mistake():
    count = 0
    for name, regime in CONVERTED.items():
        for fee in regime.fees:
            assert fee.kind == "formula"
            assert program_for(regime, fee).errors == (), (name, fee.id)
            count += 1
    assert count == sum(len(as_formulas(f)) for r in REGIMES.values() for f in r.fees) >= 15


def _quote_cases():
    for name, regime in REGIMES.items():
        for case in regime.cases:
            if case.kind == "quote":
                yield pytest.param(name, case, id=f"{name}:{case.id}")


@pytest.mark.parametrize("name, case", list(_quote_cases()))
def test_every_worked_case_of_the_acts_gives_the_same_figures_converted(name, case):
    typed = act_cases._typed(case)
    typed.pop("unit-value", None)
    try:
        inputs = quote_inputs(typed)
    except UserError:
        return  # a case about how the command line reads its input: no price
    inputs.setdefault("year", case.date.year)
    inputs["unit_overrides"] = act_cases._unit_values(case, inputs["year"])
    kinds, formulas = both(name, **inputs)
    assert formulas == kinds  # the same figures, or both refuse (SJC's pastel above its line's size, art. 5º)


@settings(max_examples=60, deadline=None)
@given(
    equipment=st.sampled_from(
        ["barraca", "trailer", "reboque", "carrinho-pipoca", "carrinho-algodao-doce", "carrinho-cachorro-quente"]
    ),
    front=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("12"), places=2).map(str),
    hitch=st.one_of(st.none(), st.decimals(min_value=Decimal("0"), max_value=Decimal("3"), places=2).map(str)),
    depth=st.one_of(st.none(), st.decimals(min_value=Decimal("0.10"), max_value=Decimal("6"), places=2).map(str)),
    mei=st.booleans(),
    local=st.booleans(),
    energy=st.sampled_from(["none", "low", "high"]),
)
def test_sao_bentos_stall_prices_the_same_converted(equipment, front, hitch, depth, mei, local, energy):
    """Dec. 4.794/2026, arts. 9º and 12: the price by linear metre with its discounts, and the energy tiers."""
    inputs = dict(equipment=equipment, front=front, depth=depth, mei=mei, local=local, energy=energy)
    if hitch is not None and equipment in ("trailer", "reboque"):
        inputs["hitch"] = hitch
    kinds, formulas = both("sao-bento-2026", **inputs)
    try:  # the shipped file, its occupation price written as its formula
        shipped: object = totals(fee_quote(SHIPPED["sao-bento-2026"], **inputs))
    except UserError as exc:
        shipped = type(exc)
    assert shipped == formulas
    if kinds is UserError:
        return  # the fee-kind engine refuses (a size beyond the equipment's, a tier it is not entitled to)
    assert formulas == kinds


def wording(regime: Regime, price=fee_quote, **inputs) -> object:
    """What the occupation line says beside its figure: its label, its articles, why a discount claimed was not
    granted, whether the hitch is in the metreage — or the refusal's message."""
    try:
        line = next(x for x in price(regime, **inputs).lines if x.fee == "occupation")
    except UserError as exc:
        return str(exc)
    refusals = [d for d in line.details if d.startswith("Sem desconto")]
    hitch = [m[0] for d in line.details for m in [re.search(r"[\d,]+ \+ [\d,]+ = [\d,]+", d)] if m]
    return line.label, line.basis, refusals, hitch


@settings(max_examples=80, deadline=None)
@given(
    equipment=st.one_of(st.none(), st.sampled_from(REGIMES["sao-bento-2026"].ids("equipment"))),
    front=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("12"), places=2).map(str),
    hitch=st.one_of(st.none(), st.decimals(min_value=Decimal("0"), max_value=Decimal("3"), places=2).map(str)),
    depth=st.one_of(st.none(), st.decimals(min_value=Decimal("0.10"), max_value=Decimal("6"), places=2).map(str)),
    mei=st.booleans(),
    local=st.booleans(),
)
@example(equipment=None, front="0.01", hitch="0.01", depth=None, mei=False, local=False)  # the minimum binds
def test_sao_bentos_occupation_says_the_same_converted(equipment, front, hitch, depth, mei, local):
    """Dec. 4.794/2026, art. 9º: the converted fee cites the minimum (§ 3º) only when it binds and the hitch (§ 1º)
    only when there is one, says why a discount claimed was not granted, asks the depth by the discount's article
    (§ 3º, I) and refuses a hitch on equipment without one — as the fee-kind engine did."""
    inputs = dict(equipment=equipment, front=front, depth=depth, mei=mei, local=local, hitch=hitch)
    kinds = wording(REGIMES["sao-bento-2026"], by_kind, **inputs)
    for regime in (CONVERTED["sao-bento-2026"], SHIPPED["sao-bento-2026"]):
        formulas = wording(regime, **inputs)
        if isinstance(kinds, str):
            assert isinstance(formulas, str) and ("engate" in kinds) == ("engate" in formulas)
            assert kinds.split("(")[-1] == formulas.split("(")[-1]  # the same article asks for what is missing
            continue
        assert formulas == kinds


@settings(max_examples=40, deadline=None)
@given(venue_days=st.data(), days=st.integers(min_value=1, max_value=9), year=st.sampled_from([2025, 2026]))
def test_olimpias_venue_table_prices_the_same_converted(venue_days, days, year):
    """LC 324/2025, art. 89: one day at the one-day rate; two or more at the daily rate, at least the minimum;
    the deposit apart."""
    venue = venue_days.draw(st.sampled_from(REGIMES["olimpia-2025"].ids("venue")))
    kinds, formulas = both("olimpia-2025", venue=venue, days=days, year=year)
    assert isinstance(kinds, dict) and formulas == kinds


@settings(max_examples=40, deadline=None)
@given(
    front=st.decimals(min_value=Decimal("0.5"), max_value=Decimal("4"), places=2).map(str),
    depth=st.decimals(min_value=Decimal("0.5"), max_value=Decimal("3.5"), places=2).map(str),
    year=st.sampled_from([2014, 2020]),
    factor=st.decimals(min_value=Decimal("1.0001"), max_value=Decimal("2.5"), places=4).map(str),
)
def test_sjcs_monthly_fee_prices_the_same_converted(front, depth, year, factor):
    """Lei 9.158/2014, art. 11, §§ 5º e 7º: R$ 2,50 per m² used, a month, corrected by the INPC."""
    inputs = dict(line="pastel", front=front, depth=depth, year=year, index_factors={"INPC": factor})
    kinds, formulas = both("sjc-2014", **inputs)
    assert isinstance(kinds, dict) and formulas == kinds


@pytest.mark.parametrize(
    "name, fee, value, days",
    [
        ("cabeceira-grande-2012", "taxa-licenca", "150,00", None),
        ("olimpia-2025", "street-vending-tax", "12,34", 3),
        ("olimpia-2025", "depot-feira", None, 4),
        ("sjc-2014", "rateio-energia-banheiros", "80,00", None),
    ],
)
def test_fixed_and_daily_fees_and_the_administrations_value_price_the_same_converted(name, fee, value, days):
    inputs: dict = dict(fees=[fee], days=days)
    if value is not None:
        inputs["admin_values"] = {fee: value}
    kinds, formulas = both(name, **inputs)
    assert isinstance(kinds, dict) and formulas == kinds
    if value is not None:  # without the value both refuse: the act leaves it to the Administration
        assert both(name, fees=[fee], days=days) == (UserError, UserError)


def test_the_permit_kinds_fees_price_the_same_converted_with_and_without_energy():
    """São Bento's permit kind names the occupation price and the energy tariff: without a tier declared, the
    tariff is left out by both; with one, both price it."""
    kind = REGIMES["sao-bento-2026"].permit_kinds[0].id
    for energy in ("none", "high"):
        inputs = dict(permit_kind=kind, equipment="barraca", front="4,00", depth="3,00", energy=energy)
        kinds, formulas = both("sao-bento-2026", **inputs)
        assert isinstance(kinds, dict) and formulas == kinds
        assert ("energy" in kinds) == (energy != "none")


def test_a_table_by_one_id_is_looked_up_with_the_first_row_of_each_id_and_its_last_row_for_every_other():
    """A table whose rows compare one desk name with an id is read by lookup (issue 29 §8): the same row as
    trying the rows in order — the first of a repeated id, the "every other case" row for an id not listed."""
    from models.rules.formulas.syntax import parse
    from models.rules.regimes.fee_formulas import _keyed

    whens = (parse("venue == 'a'"), parse("venue == 'b'"), parse("venue == 'a'"), None)
    assert _keyed(whens) == ("venue", {"a": 0, "b": 1})
    assert _keyed((parse("venue == 'a'"), parse("line == 'b'"))) is None  # two names: tried in order
    assert _keyed((parse("venue == 'a'"), None, parse("venue == 'b'"))) is None  # a default row mid-table
    assert _keyed((parse("venue == 'a' and days == 1 dia"),)) is None
    program = program_for(CONVERTED["olimpia-2025"], CONVERTED["olimpia-2025"].fee("event-venue"))
    assert program.tables["taxa_por_dia"].keyed is not None


def test_an_installed_old_format_version_loads_from_the_database_and_prices_as_its_formulas(keys):
    """A database keeps the versions it installed as TOML text: São Bento's act in its fee-kind wording
    (linear-metre, with discounts), installed as an amendment, loads from that text and prices every stall as its
    formulas do — figures, articles and reasons (SQLite; PostgreSQL with PRACA_TEST_PG)."""
    import datetime as dt

    from models.access import session
    from models.rules import acts
    from models.rules.regimes import get_regime

    text = sao_bento_by_kind_text() + (
        '\n[regime.amendment]\nact = "Versão instalada no banco (texto por tipo de preço)"\n'
        'in_force_from = 2026-09-01\nsummary = "O mesmo ato, com a ocupação por metro linear."\n'
    )
    with session.acting_as(session.SYSTEM):
        acts.amend(text.encode("utf-8"), "sao-bento-2026.toml")
    acts.forget()
    installed = get_regime("sao-bento-2026", dt.date(2026, 9, 2))
    assert installed.fee("occupation").kind == "linear-metre" and installed.source.startswith("banco de dados")
    formulas = converted(installed)
    stalls = [
        dict(equipment="trailer", front="3,20", hitch="0,80", depth="2,50", mei=True, local=True),
        dict(equipment="barraca", front="4", depth="3,5", mei=True),
        dict(equipment="carrinho-pipoca", front="0,50", mei=True, local=True),
        dict(equipment="carrinho-cachorro-quente", front="1", mei=True, local=True),
        dict(front="2,5"),
    ]
    for stall in stalls:
        kinds, now = by_kind(installed, **stall, year=2026), fee_quote(installed, **stall, year=2026)
        assert totals(kinds) == totals(now) == totals(fee_quote(formulas, **stall, year=2026)), stall
        assert wording(installed, by_kind, **stall) == wording(installed, **stall) == wording(formulas, **stall), stall


def energy_wording(regime: Regime, price=fee_quote, **inputs) -> object:
    """What the energy line says beside its figure — its label, its article, its figure and formula — or the
    refusal's message and field."""
    try:
        line = next(x for x in price(regime, **inputs).lines if x.fee == "energy")
    except UserError as exc:
        return str(exc), exc.field
    return line.label.split(" — ")[-1], line.basis, line.amount, line.formula


@settings(max_examples=80, deadline=None)
@given(
    equipment=st.one_of(st.none(), st.sampled_from(REGIMES["sao-bento-2026"].ids("equipment"))),
    front=st.one_of(st.none(), st.decimals(min_value=Decimal("0.01"), max_value=Decimal("4"), places=2).map(str)),
    hitch=st.one_of(st.none(), st.decimals(min_value=Decimal("0"), max_value=Decimal("1"), places=2).map(str)),
    depth=st.one_of(st.none(), st.decimals(min_value=Decimal("0.10"), max_value=Decimal("5"), places=2).map(str)),
    energy=st.sampled_from(["low", "high"]),
)
@example(equipment="carrinho-pipoca", front="2.50", hitch=None, depth=None, energy="low")  # beyond 2,00 ML
@example(equipment="trailer", front="4", hitch=None, depth="3.50", energy="high")  # deeper than 3,00 m
@example(equipment="trailer", front="4", hitch=None, depth="3", energy="low")  # a tier not for trailers
def test_sao_bentos_energy_tariff_says_the_same_converted(equipment, front, hitch, depth, energy):
    """Dec. 4.794/2026, art. 12, §§ 1º e 2º: the tier's figure with the tier's article alone, and each limit of
    the tier — the equipment it is for, 2,00 ML, 3,00 m deep — refused with the tier's article and the value
    given (``[[fees.refusals]]``), as the fee-kind engine did; a measure a limit needs is asked by that article."""
    inputs = dict(equipment=equipment, front=front, depth=depth, energy=energy, fees=["energy"])
    if hitch is not None and equipment in ("trailer", "reboque"):
        inputs["hitch"] = hitch
    kinds = energy_wording(REGIMES["sao-bento-2026"], by_kind, **inputs)
    formulas = energy_wording(CONVERTED["sao-bento-2026"], **inputs)
    if isinstance(kinds, tuple) and isinstance(kinds[0], str) and kinds[0].startswith("Informe"):
        # what is missing is asked for, in the engine's words, by the same article
        assert isinstance(formulas, tuple) and formulas[0].startswith("Informe")
        assert kinds[0].split("(")[-1] == formulas[0].split("(")[-1]
        return
    assert formulas == kinds


def line_words(price, regime: Regime, fee: str, **inputs) -> object:
    """What a fee's line says — label, articles, figure, formula, for each of its lines (a venue's fee and its
    deposit) — or the refusal's field and the article it ends with."""
    try:
        quote = price(regime, fees=[fee], **inputs)
    except UserError as exc:
        return exc.field, re.findall(r"\(([^()]*\d[^()]*)\)", str(exc))[-1:]  # its field, the article it ends with
    return [(x.label, x.basis, x.amount, x.formula, x.kind) for x in quote.lines]


def same_words(name: str, fee: str, **inputs) -> None:
    kinds = line_words(by_kind, REGIMES[name], fee, **inputs)
    assert line_words(fee_quote, REGIMES[name], fee, **inputs) == kinds


@settings(max_examples=60, deadline=None)
@given(venue_days=st.data(), days=st.integers(min_value=1, max_value=9), year=st.sampled_from([2025, 2026]))
def test_olimpias_venue_table_says_the_same_converted(venue_days, days, year):
    """LC 324/2025, art. 89: the line's label (the venue and the days), its article (the venue's paragraph),
    its figure and formula (``3 × 60 × 38,42``: the days charged, at least the minimum), and the deposit's — and
    the words of the days (the minimum said with its article where it binds), as the fee-kind engine did."""
    regime = REGIMES["olimpia-2025"]
    venue = venue_days.draw(st.sampled_from(regime.ids("venue")))
    same_words("olimpia-2025", "event-venue", venue=venue, days=days, year=year)
    details = [
        [d for d in line.details if "dia" in d and ("mínimo" in d or "taxa por 1 dia" in d)]
        for price in (by_kind, fee_quote)
        for line in price(regime, venue=venue, days=days, year=year).lines[:1]
    ]
    assert details[0] and set(details[0]) <= set(details[1])


@settings(max_examples=40, deadline=None)
@given(
    fee=st.sampled_from(
        [
            ("olimpia-2025", "depot-feira"),
            ("olimpia-2025", "street-vending-tax"),
            ("cabeceira-grande-2012", "taxa-licenca"),
            ("sjc-2014", "rateio-energia-banheiros"),
        ]
    ),
    days=st.one_of(st.none(), st.integers(min_value=1, max_value=30)),
    value=st.one_of(st.none(), st.decimals(min_value=Decimal("0"), max_value=Decimal("9999.99"), places=2)),
    year=st.sampled_from([2025, 2026]),
)
def test_fixed_and_daily_fees_and_the_administrations_value_say_the_same_converted(fee, days, value, year):
    """A fixed value, a value per day (``Depósito (3 dias)``: ``3 × 1 × 38,42``) and a value the Administration
    sets (given by the fee's id, asked for when missing): the same label, article, figure and formula."""
    name, ident = fee
    inputs: dict = dict(days=days, year=max(year, REGIMES[name].published.year))
    if value is not None and REGIMES[name].fee(ident).admin_defined:
        inputs["admin_values"] = {ident: value}
    same_words(name, ident, **inputs)


@settings(max_examples=80, deadline=None)
@given(
    line=st.one_of(st.none(), st.sampled_from(REGIMES["sjc-2014"].ids("line"))),
    sizes=st.one_of(
        st.none(),
        st.tuples(
            st.decimals(min_value=Decimal("0.5"), max_value=Decimal("14"), places=2).map(str),
            st.decimals(min_value=Decimal("0.5"), max_value=Decimal("4"), places=2).map(str),
        ),
        st.decimals(min_value=Decimal("1"), max_value=Decimal("50"), places=2).map(lambda d: str(d)),
    ),
    year=st.sampled_from([2014, 2020]),
    factor=st.decimals(min_value=Decimal("1.0001"), max_value=Decimal("2.5"), places=4).map(str),
)
@example(line="pastel", sizes=("13", "3"), year=2014, factor="1.1")  # beyond the line's front (art. 5º, IV)
@example(line="pastel", sizes="43", year=2014, factor="1.1")  # beyond its area
@example(line="pastel", sizes=None, year=2014, factor="1.1")  # the area used is asked, with the line's size
def test_sjcs_monthly_fee_says_the_same_converted(line, sizes, year, factor):
    """Lei 9.158/2014, art. 11, § 5º, with art. 5º: R$ 2,50 per m² used (``2,50 × 4,00 × 3,50``; corrected by
    the INPC after 2014, § 7º), citing the line's size — and the same refusals: no line, no area, a front, a
    depth or an area beyond the line's size (``[[fees.refusals]]``), at the same field and article."""
    inputs: dict = dict(line=line, year=year, index_factors={"INPC": factor})
    if isinstance(sizes, tuple):
        inputs.update(front=sizes[0], depth=sizes[1])
    elif sizes is not None:
        inputs["area"] = sizes
    same_words("sjc-2014", "licence-fee", **inputs)
