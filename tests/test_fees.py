"""models/rules/fees/ — every fee figure the acts print, plus properties of the engine.

Each test names the article whose figure it reproduces.
"""

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.rules.fees import Quote, QuoteLine, amount_value, fee_quote, price_units
from models.rules.regimes import default_regimes_folder, get_regime, load_regime_file, load_regimes

D = Decimal


@pytest.fixture(scope="module")
def sb():
    return get_regime("sao-bento-2026")


@pytest.fixture(scope="module")
def sjc():
    return get_regime("sjc-2014")


def only(quote: Quote, fee_id: str) -> QuoteLine:
    lines = [line for line in quote.lines if line.fee == fee_id]
    assert len(lines) == 1, quote.lines
    return lines[0]


# ================================================================ São Bento do Sapucaí — Dec. 4.794/2026


def test_sb_mei_local_trailer_4m(sb):
    """Art. 9º, § 2º and § 3º, I: V = 5,50 × 38,42 × 4,00 × (1 − 0,30) = 591,668 → R$ 591,67."""
    quote = fee_quote(sb, equipment="trailer", front="4", depth="3", mei=True, local=True)
    line = only(quote, "occupation")
    assert line.formula == "5,50 × 38,42 × 4,00 × (1 − 0,30)"
    assert line.amount == D("591.67")
    assert line.basis == "Dec. 4.794/2026, art. 9º, § 2º; art. 9º, § 3º, I"
    assert line.year == 2026
    assert line.due == "até 26/03/2026"  # art. 6º
    assert quote.total == D("591.67")


def test_sb_hitch_counts_in_the_metreage(sb):
    """Art. 9º, § 1º: the trailer's hitch is part of the structure — 3,20 + 0,80 = 4,00 ML."""
    line = only(
        fee_quote(sb, equipment="trailer", front="3,20", hitch="0,80", depth="2,50", mei=True, local=True), "occupation"
    )
    assert line.formula == "5,50 × 38,42 × 4,00 × (1 − 0,30)"
    assert line.amount == D("591.67")
    assert "art. 9º, § 1º" in line.basis
    assert any("3,20 + 0,80 = 4,00" in d for d in line.details)


def test_sb_no_discount(sb):
    """Art. 9º, § 2º without D: 5,50 × 38,42 × 4,00 = R$ 845,24."""
    line = only(fee_quote(sb, equipment="barraca", front=4), "occupation")
    assert line.formula == "5,50 × 38,42 × 4,00"
    assert line.amount == D("845.24")
    assert line.basis == "Dec. 4.794/2026, art. 9º, § 2º"


@pytest.mark.parametrize(
    "mei, local",
    [(True, False), (False, True), (False, False)],
)
def test_sb_discount_only_for_mei_of_the_municipality(sb, mei, local):
    """Art. 9º, § 3º, I: the discounts are for MEIs *of São Bento do Sapucaí* only."""
    line = only(fee_quote(sb, equipment="trailer", front="4", depth="3", mei=mei, local=local), "occupation")
    assert line.amount == D("845.24")


def test_sb_minimum_one_linear_metre(sb):
    """Art. 9º, § 3º: at least 1 ML per commercial unit — 0,60 m is charged as 1,00 ML."""
    line = only(fee_quote(sb, equipment="barraca", front="0,60"), "occupation")
    assert line.formula == "5,50 × 38,42 × 1,00"
    assert line.amount == D("211.31")  # 211,31
    assert "art. 9º, § 3º" in line.basis


def test_sb_popcorn_cart_half_price(sb):
    """Art. 9º, § 3º, I: 50 % for popcorn and cotton-candy carts — 5,50 × 38,42 × 1,00 × 0,50 = 105,655 → 105,66."""
    for cart in ("carrinho-pipoca", "carrinho-algodao-doce"):
        line = only(fee_quote(sb, equipment=cart, front="1", mei=True, local=True), "occupation")
        assert line.formula == "5,50 × 38,42 × 1,00 × (1 − 0,50)"
        assert line.amount == D("105.66")


def test_sb_hot_dog_cart_has_no_fifty_percent(sb):
    """Art. 9º, § 3º, I names only popcorn and cotton candy for the 50 %."""
    line = only(fee_quote(sb, equipment="carrinho-cachorro-quente", front="1", mei=True, local=True), "occupation")
    assert line.amount == D("211.31")


def test_sb_deeper_than_three_metres_gets_no_discount(sb):
    """Art. 9º, § 3º, I: 30 % only up to 3 m of depth."""
    line = only(fee_quote(sb, equipment="trailer", front="4", depth="3,01", mei=True, local=True), "occupation")
    assert line.amount == D("845.24")


def test_sb_discount_needs_the_depth(sb):
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="trailer", front="4", mei=True, local=True)
    assert "profundidade" in str(exc.value) and "art. 9º, § 3º, I" in str(exc.value)


def test_sb_energy_low(sb):
    """Art. 12, § 1º: 0,82 × R$ 38,42 = R$ 31,50."""
    quote = fee_quote(sb, equipment="carrinho-pipoca", front="1,5", energy="low", mei=True, local=True)
    line = only(quote, "energy")
    assert line.formula == "0,82 × 38,42"
    assert line.amount == D("31.50")
    assert line.basis == "Dec. 4.794/2026, art. 12, § 1º"


def test_sb_energy_high_rounds_half_up(sb):
    """Art. 12, § 2º: 3,25 × R$ 38,42 = R$ 124,865 → R$ 124,87 (HALF_UP, not half-even)."""
    quote = fee_quote(sb, equipment="trailer", front="4", depth="3", energy="high")
    line = only(quote, "energy")
    assert line.formula == "3,25 × 38,42"
    assert line.amount == D("124.87")
    assert quote.total == D("845.24") + D("124.87")


def test_energy_figures_printed_in_every_regime_are_reproduced():
    """Every tier with the R$ the act prints is reproduced for the act's year: a tier of the old kind with
    `expected`, or a tier of a formula fee's table of the tiers, whose printed figure is a worked case of the act
    (``[[cases]]`` quoting that tier)."""
    from models.services.act_cases import run_case

    checked = 0
    for path in sorted(default_regimes_folder().glob("*.toml")):
        regime = load_regime_file(path)
        for fee in regime.fees:
            for tier in fee.tiers:
                if tier.expected is None:
                    continue
                year = fee.year or regime.published.year
                exact = tier.factor * regime.unit_value(fee.unit, year)
                assert exact.quantize(D("0.01"), ROUND_HALF_UP) == tier.expected, (regime.id, tier.id)
                checked += 1
            for tier in fee.choices("energy"):
                printed = [case for case in regime.cases if case.kind == "quote" and case.input("energy") == tier.id]
                assert printed, (regime.id, tier.id)
                for case in printed:
                    assert run_case(regime, case).passed, (regime.id, case.id)
                checked += 1
    assert checked >= 2


def test_sb_energy_tier_must_fit_the_equipment(sb):
    """Art. 12, § 1º (carts up to 2 ML) and § 2º (barracas/trailers/reboques up to 3 m deep)."""
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="trailer", front="4", depth="3", energy="low")
    assert "art. 12, § 1º" in str(exc.value)
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="carrinho-pipoca", front="2,50", energy="low")
    assert "2,00 ML" in str(exc.value)
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="trailer", front="4", depth="3,50", energy="high")
    assert "3,00 m" in str(exc.value)
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="trailer", front="4", energy="high")
    assert "profundidade" in str(exc.value)


def test_sb_energy_only(sb):
    quote = fee_quote(sb, energy="high", depth="2")
    assert [line.fee for line in quote.lines] == ["energy"]
    assert quote.total == D("124.87")


def test_sb_permit_kind_prices_its_fees(sb):
    quote = fee_quote(
        sb, permit_kind="event-stall", equipment="trailer", front="4", depth="3", energy="high", mei=True, local=True
    )
    assert [line.fee for line in quote.lines] == ["occupation", "energy"]
    assert quote.total == D("591.67") + D("124.87")
    no_energy = fee_quote(sb, permit_kind="event-stall", equipment="trailer", front="4", depth="3")
    assert [line.fee for line in no_energy.lines] == ["occupation"]


def test_sb_fines(sb):
    """Art. 14, I: 20 UFESP × R$ 38,42 = R$ 768,40; art. 2º, § 2º: R$ 150,00."""
    line = price_units(sb, 20, "UFESP", 2026)
    assert line.amount == D("768.40")
    assert line.formula == "20 × 38,42"
    assert line.label == "20 UFESP de 2026"
    assert line.basis == "Dec. 4.794/2026, art. 9º, § 2º"  # where UFESP 2026 comes from
    cited = price_units(sb, 20, "UFESP", 2026, basis="art. 14, I")
    assert cited.basis == "Dec. 4.794/2026, art. 14, I"
    fine = sb.infraction("nao-desmontar").fine.amount
    assert amount_value(sb, fine, 2026) == D("150.00")
    assert price_units(sb, fine.value, "BRL", 2026).amount == D("150.00")


def test_price_units_other_years_and_overrides(sb):
    assert price_units(sb, 20, "UFESP", 2025).amount == D("740.40")  # 20 × 37,02
    assert price_units(sb, 20, "UFESP", 2024).basis == "Comunicado SEFAZ-SP"
    with pytest.raises(UserError) as exc:
        price_units(sb, 20, "UFESP", 2027)
    assert "UFESP" in str(exc.value) and "2027" in str(exc.value)
    line = price_units(sb, 20, "UFESP", 2027, {("UFESP", 2027): D("40.00")})
    assert line.amount == D("800.00")
    assert "cadastrado" in line.basis


def test_unit_without_value_in_a_quote_names_unit_and_year(sb):
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="barraca", front="2", year=2030)
    assert "UFESP" in str(exc.value) and "2030" in str(exc.value)
    quote = fee_quote(sb, equipment="barraca", front="2", year=2030, unit_overrides={("UFESP", 2030): D("45.00")})
    assert quote.total == D("495.00")  # 5,50 × 45,00 × 2,00


# ================================================================ São José dos Campos — Lei 9.158/2014


def full(sjc, line: str) -> dict:
    """A stall of ``line`` at the largest size art. 5º allows."""
    return dict(line=line, front=sjc.line(line).front, depth=sjc.line(line).depth)


@pytest.mark.parametrize(
    "line, area, amount",
    [
        ("comidas-tipicas", "14,00", D("35.00")),  # art. 5º, I: 4,00 × 3,50
        ("legumes-verduras", "28,00", D("70.00")),  # art. 5º, II: 8,00 × 3,50
        ("banana", "28,00", D("70.00")),
        ("carnes-aves", "28,00", D("70.00")),
        ("peixes", "28,00", D("70.00")),
        ("frutas", "35,00", D("87.50")),  # art. 5º, III: 10,00 × 3,50
        ("pastel", "42,00", D("105.00")),  # art. 5º, IV: 12,00 × 3,50
        ("frios", "21,00", D("52.50")),  # art. 5º, V: 6,00 × 3,50
    ],
)
def test_sjc_licence_fee_per_square_metre(sjc, line, area, amount):
    """Art. 11, § 5º: R$ 2,50 per m² used per month, paid by the 20th; a stall of art. 5º's full size."""
    quote = fee_quote(sjc, **full(sjc, line), year=2014)
    fee_line = only(quote, "licence-fee")
    assert fee_line.amount == amount
    assert fee_line.formula.startswith("2,50 × ")
    assert any(f"= {area} m²" in d for d in fee_line.details)
    assert fee_line.due == "até o dia 20 de cada mês"
    assert fee_line.basis.startswith("Lei 9.158/2014, art. 11, § 5º; art. 5º")


def test_sjc_14_square_metres_is_35_reais(sjc):
    """Art. 11, § 5º with art. 5º, I: 2,50 × 4,00 × 3,50 = R$ 35,00."""
    line = only(fee_quote(sjc, **full(sjc, "comidas-tipicas"), year=2014), "licence-fee")
    assert line.formula == "2,50 × 4,00 × 3,50"
    assert line.amount == D("35.00")


def test_sjc_inpc_correction_needs_the_factor(sjc):
    """Art. 11, § 7º: the R$ 2,50 of 2014 is corrected yearly by the INPC — never charged uncorrected."""
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, **full(sjc, "comidas-tipicas"), year=2026)
    message = str(exc.value)
    assert "INPC" in message and "2014" in message and "2026" in message and "art. 11, § 7º" in message


def test_sjc_inpc_correction_with_factor(sjc):
    """Corrected: 2,50 × 1,6512 × 4,00 × 3,50 = 57,792 → R$ 57,79 (rounded once)."""
    line = only(
        fee_quote(sjc, **full(sjc, "comidas-tipicas"), year=2026, index_factors={"INPC": "1.6512"}), "licence-fee"
    )
    assert line.formula == "2,50 × 1,6512 × 4,00 × 3,50"
    assert line.amount == D("57.79")
    assert "art. 11, § 7º" in line.basis


def test_sjc_line_without_size_uses_the_real_area(sjc):
    """Lines the act gives no size (art. 5º, caput: the Department's standard) need the stall's area."""
    with pytest.raises(UserError):
        fee_quote(sjc, line="churrasco", year=2014)
    line = only(fee_quote(sjc, line="churrasco", front="3", depth="3", year=2014), "licence-fee")
    assert line.formula == "2,50 × 3,00 × 3,00"
    assert line.amount == D("22.50")
    line = only(fee_quote(sjc, line="churrasco", area="9.5", year=2014), "licence-fee")
    assert line.amount == D("23.75")


def test_sjc_art_11_par_5_charges_the_area_used_up_to_the_art_5_maximum(sjc):
    """Art. 11, § 5º: "por metro quadrado utilizado" — a pastel stall of 10,00 × 3,00 pays 2,50 × 10,00 × 3,00 =
    R$ 75,00, not the 42 m² of art. 5º, IV, which is the maximum: 13,00 m of front is refused."""
    line = only(fee_quote(sjc, line="pastel", front="10", depth="3", year=2014), "licence-fee")
    assert line.formula == "2,50 × 10,00 × 3,00" and line.amount == D("75.00")
    assert any('máximo do ramo "Pastel": 12,00 × 3,50 = 42,00 m²' in d for d in line.details)
    assert "art. 5º, IV" in line.basis
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, line="pastel", front="13", depth="3", year=2014)
    assert exc.value.field == "front" and "acima do máximo de 12,00 m" in str(exc.value)
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, line="pastel", area="43", year=2014)
    assert exc.value.field == "area"
    with pytest.raises(UserError) as exc:  # the line alone no longer prices: the area used is asked
        fee_quote(sjc, line="pastel", year=2014)
    assert "metro quadrado utilizado" in str(exc.value) and "12,00 × 3,50" in str(exc.value)


def test_sjc_needs_the_line(sjc):
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, fees=["licence-fee"], area="10", year=2014)
    assert "ramo" in str(exc.value)


def test_sjc_fines(sjc):
    """Art. 24: up to R$ 500,00; art. 25, parágrafo único: R$ 1.000,00 for aggression."""
    assert amount_value(sjc, sjc.infraction("descumprimento-geral").fine.max, 2014) == D("500.00")
    assert price_units(sjc, sjc.infraction("agressao").fine.amount.value, "BRL", 2014).amount == D("1000.00")


def test_sjc_admin_defined_fee_asks_for_the_value(sjc):
    """Art. 32: energy and chemical toilets may be passed on — the act sets no value."""
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, fees=["rateio-energia-banheiros"])
    assert "Administração" in str(exc.value)
    quote = fee_quote(sjc, fees=["rateio-energia-banheiros"], admin_values={"rateio-energia-banheiros": "42,10"})
    assert quote.total == D("42.10")


# ================================================================ Olímpia — LC 324/2025, art. 89 (venue tables)

# The act's tables (art. 89, §§ 1º–4º): (basis, label words, one day, per day, min days, deposit) in UFESP
ART_89 = [
    ("art. 89, § 1º", ("todas",), 100, 60, 3, 150),
    ("art. 89, § 1º", ("exceto", "estacionamento"), 80, 48, 3, 150),
    ("art. 89, § 1º", ("— estacionamento",), 60, 36, 3, 50),
    ("art. 89, § 1º", ("grandes",), 60, 36, 3, 100),
    ("art. 89, § 1º", ("pequenas",), 25, 15, 3, 50),
    ("art. 89, § 1º", ("arena",), 25, 15, 3, 50),
    ("art. 89, § 2º", ("cultura",), 15, 10, 5, 50),
    ("art. 89, § 3º", ("tereza",), 50, 30, 5, 200),
    ("art. 89, § 4º", ("demais",), 15, 10, 5, 50),
]

OLIMPIA_FIXTURE = """
[regime]
id = "olimpia-fixture"
municipality = "Olímpia"
state = "SP"
act = "Lei Complementar nº 324, de 3 de dezembro de 2025"
short = "LC 324/2025"
published = 2025-12-03
scope = ["event"]
summary = "Tabela do art. 89 (fixture de teste)."
in_force = { from = 2025-12-03, basis = "art. 317" }

[[units]]
code = "UFESP"
name = "Unidade Fiscal do Estado de São Paulo"
basis = "art. 89"
values = [
  { year = 2025, value = "37.02", source = "Comunicado SEFAZ-SP" },
  { year = 2026, value = "38.42", source = "Comunicado SEFAZ-SP" },
]

[[fees]]
id = "event-venue"
label = "Taxa de utilização de imóvel público"
kind = "venue-table"
basis = "art. 89"

[[fees.venues]]
id = "recinto-todas"
label = "Recinto — todas as instalações"
one_day = { value = "100", unit = "UFESP" }
per_day = { value = "60", unit = "UFESP" }
min_days = 3
deposit = { value = "150", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "casa-da-cultura"
label = "Casa da Cultura e Ginásio de Esportes"
one_day = { value = "15", unit = "UFESP" }
per_day = { value = "10", unit = "UFESP" }
min_days = 5
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 2º"
"""


@pytest.fixture(scope="module")
def olimpia_fixture(tmp_path_factory):
    path = tmp_path_factory.mktemp("regimes") / "olimpia-fixture.toml"
    path.write_text(OLIMPIA_FIXTURE, encoding="utf-8")
    return load_regime_file(path)


@pytest.mark.parametrize(
    "venue, days, charge, formula, deposit",
    [
        ("recinto-todas", 1, D("3842.00"), "1 × 100 × 38,42", D("5763.00")),  # "Taxa por 1 dia": 100 UFESP
        ("recinto-todas", 2, D("6915.60"), "3 × 60 × 38,42", D("5763.00")),  # "mínimo de 3 dias": 3 charged
        ("recinto-todas", 3, D("6915.60"), "3 × 60 × 38,42", D("5763.00")),
        ("recinto-todas", 4, D("9220.80"), "4 × 60 × 38,42", D("5763.00")),
        ("casa-da-cultura", 1, D("576.30"), "1 × 15 × 38,42", D("1921.00")),
        ("casa-da-cultura", 4, D("1921.00"), "5 × 10 × 38,42", D("1921.00")),  # § 2º: minimum of 5 days
        ("casa-da-cultura", 5, D("1921.00"), "5 × 10 × 38,42", D("1921.00")),
        ("casa-da-cultura", 6, D("2305.20"), "6 × 10 × 38,42", D("1921.00")),
    ],
)
def test_venue_table_rule_on_a_fixture(olimpia_fixture, venue, days, charge, formula, deposit):
    """Art. 89: 1 day → the one-day rate; 2 days or more → the daily rate for at least the minimum; + deposit."""
    quote = fee_quote(olimpia_fixture, venue=venue, days=days, year=2026)
    charge_line, deposit_line = quote.lines
    assert (charge_line.amount, charge_line.formula, charge_line.kind) == (charge, formula, "charge")
    assert (deposit_line.amount, deposit_line.kind) == (deposit, "deposit")
    assert quote.total == charge + deposit
    assert quote.total_charges == charge and quote.total_deposits == deposit
    assert charge_line.basis.startswith("LC 324/2025, art. 89, §")


def test_venue_table_needs_days(olimpia_fixture):
    with pytest.raises(UserError) as exc:
        fee_quote(olimpia_fixture, venue="recinto-todas", year=2026)
    assert "dias" in str(exc.value)
    with pytest.raises(UserError):
        fee_quote(olimpia_fixture, venue="recinto-todas", days=0, year=2026)


def test_a_venue_not_chosen_is_asked_for_by_its_names_never_its_ids(olimpia_fixture):
    """Issue 31 §6: the clerk read "Opções: recinto-todas-instalacoes, …" — the act's internal ids."""
    with pytest.raises(UserError) as exc:
        fee_quote(olimpia_fixture, fees=["event-venue"], days=3, year=2026)
    fee = next(f for f in olimpia_fixture.fees if f.kind == "venue-table")
    for venue in fee.venues:
        assert venue.label in exc.value.message and venue.id not in exc.value.message


@pytest.fixture(scope="module")
def olimpia():
    path = default_regimes_folder() / "olimpia-2025.toml"
    if not path.exists():
        pytest.skip("olimpia-2025.toml not written yet (covered by the fixture above)")
    return get_regime("olimpia-2025")


def _venue(regime, basis, words):
    found = list(  # a venue of the fee's table and of its deposit's: one venue
        {
            v.id: v
            for f in regime.fees
            for v in f.venue_choices()
            if v.basis == basis and all(w.lower() in v.label.lower() for w in words)
        }.values()
    )
    assert len(found) == 1, (basis, words, found)
    return found[0]


@pytest.mark.parametrize("basis, words, one_day, per_day, min_days, deposit", ART_89)
def test_olimpia_art_89_tables(olimpia, basis, words, one_day, per_day, min_days, deposit):
    """LC 324/2025, art. 89, §§ 1º–4º, in UFESP 2026 (R$ 38,42)."""
    venue = _venue(olimpia, basis, words)
    ufesp = D("38.42")
    one = fee_quote(olimpia, venue=venue.id, days=1, year=2026)
    assert one.lines[0].amount == (one_day * ufesp).quantize(D("0.01"))
    assert one.lines[1].amount == (deposit * ufesp).quantize(D("0.01"))
    assert one.lines[1].kind == "deposit"
    at_min = fee_quote(olimpia, venue=venue.id, days=min_days, year=2026)
    assert at_min.lines[0].amount == (min_days * per_day * ufesp).quantize(D("0.01"))
    # "Taxa por dia (mínimo de N dias)": from 2 days on, the daily rate for at least N days
    for days in range(2, min_days + 1):
        assert fee_quote(olimpia, venue=venue.id, days=days, year=2026).lines[0].amount == at_min.lines[0].amount
    more = fee_quote(olimpia, venue=venue.id, days=min_days + 1, year=2026)
    assert more.lines[0].amount == ((min_days + 1) * per_day * ufesp).quantize(D("0.01"))


def test_olimpia_two_days_say_the_minimum_is_charged(olimpia):
    """LC 324/2025, art. 89, § 1º: 2 days at the Arena cost 3 days' price, and the line says why."""
    line = fee_quote(olimpia, venue="recinto-arena", days=2, year=2026).lines[0]
    assert line.formula == "3 × 15 × 38,42"
    assert line.amount == D("1728.90")
    assert "2 dias de uso: mínimo de 3 dias cobrados — LC 324/2025, art. 89, § 1º" in line.details
    one = fee_quote(olimpia, venue="recinto-arena", days=1, year=2026).lines[0]
    assert one.formula == "1 × 25 × 38,42"
    assert any("taxa por 1 dia" in d and "mínimo de 3 dias cobrados" in d for d in one.details)


def test_olimpia_depot_per_day(olimpia):
    """Art. 145, § 2º / art. 215, § 4º: 1 UFESP per day of deposit — 3 days in 2026 = R$ 115,26."""
    per_day = [olimpia.fee("depot-street-vending"), olimpia.fee("depot-feira")]  # formula fees since issue 29 §6
    for fee in per_day:
        quote = fee_quote(olimpia, fees=[fee.id], days=3, year=2026)
        assert quote.total == D("115.26")


def test_olimpia_fines_in_ufesp(olimpia):
    """Art. 14: 20 UFESP when no other penalty applies — R$ 768,40 in 2026; 10 UFESP (ch. XV) R$ 384,20."""
    assert price_units(olimpia, 20, "UFESP", 2026).amount == D("768.40")
    assert price_units(olimpia, 10, "UFESP", 2026).amount == D("384.20")
    assert price_units(olimpia, 30, "UFESP", 2025).amount == D("1110.60")  # 30 × 37,02


# ================================================================ bad input


@pytest.mark.parametrize(
    "kwargs, word",
    [
        (dict(equipment="helicoptero", front="4"), "helicoptero"),
        (dict(equipment="barraca", front="0"), "zero"),
        (dict(equipment="barraca", front="-2"), "maior que zero"),
        (dict(equipment="barraca", front="4", depth="0"), "Profundidade"),
        (dict(venue="maracana", days=2), "maracana"),
        (dict(line="sushi"), "sushi"),
        (dict(energy="medio"), "medio"),
        (dict(equipment="barraca"), "frente"),
        (dict(), "Nada a calcular"),
        (dict(equipment="barraca", front="abc"), "inválido"),
        (dict(equipment="barraca", front="4", hitch="1"), "engate"),
        (dict(fees=["nao-existe"]), "nao-existe"),
    ],
)
def test_bad_inputs_are_user_errors_in_portuguese(sb, kwargs, word):
    with pytest.raises(UserError) as exc:
        fee_quote(sb, **kwargs)
    assert word.lower() in str(exc.value).lower()


def test_float_is_refused(sb):
    with pytest.raises(TypeError):
        fee_quote(sb, equipment="barraca", front=4.0)


def test_regime_by_id_and_to_dict(sb):
    quote = fee_quote("sao-bento-2026", equipment="barraca", front="2,5")
    data = quote.to_dict()
    assert data["total"] == "528.28"  # 5,50 × 38,42 × 2,50 = 528,275 → 528,28
    assert data["total_text"] == "R$ 528,28"
    assert data["lines"][0]["basis"] == "Dec. 4.794/2026, art. 9º, § 2º"
    assert data["inputs"]["front"] == "2.5"


# ================================================================ properties

metres = st.decimals(min_value=D("0.01"), max_value=D("60"), places=2)
depths = st.decimals(min_value=D("0.10"), max_value=D("6"), places=2)
structures = st.sampled_from(
    [
        "barraca",
        "trailer",
        "reboque",
        "conteiner",
        "carrinho-pipoca",
        "carrinho-algodao-doce",
        "carrinho-cachorro-quente",
    ]
)


@settings(max_examples=150, deadline=None)
@given(structures, metres, depths, st.booleans(), st.booleans())
def test_amounts_have_two_places_and_round_half_up(equipment, front, depth, mei, local):
    sb = get_regime("sao-bento-2026")
    line = fee_quote(sb, equipment=equipment, front=front, depth=depth, mei=mei, local=local).lines[0]
    assert line.amount.as_tuple().exponent == -2
    ml = max(front, D("1.00"))
    rate = D(0)
    if mei and local:
        if equipment in ("carrinho-pipoca", "carrinho-algodao-doce"):
            rate = D("0.50")
        elif equipment in ("barraca", "trailer", "reboque") and depth <= 3:
            rate = D("0.30")
    exact = D("5.50") * D("38.42") * ml * (1 - rate)
    assert line.amount == exact.quantize(D("0.01"), rounding=ROUND_HALF_UP)


@settings(max_examples=150, deadline=None)
@given(structures, metres, metres, depths, st.booleans(), st.booleans())
def test_price_is_monotone_in_metres(equipment, a, b, depth, mei, local):
    sb = get_regime("sao-bento-2026")
    small, large = sorted((a, b))

    def price(front):
        return fee_quote(sb, equipment=equipment, front=front, depth=depth, mei=mei, local=local).total

    assert price(small) <= price(large)


@settings(max_examples=150, deadline=None)
@given(structures, metres, depths, st.decimals(min_value=D("0"), max_value=D("2"), places=2))
def test_discount_never_increases_the_price(equipment, front, depth, hitch):
    sb = get_regime("sao-bento-2026")
    kwargs = dict(equipment=equipment, front=front, depth=depth)
    if sb.equipment(equipment).has_hitch:
        kwargs["hitch"] = hitch
    full = fee_quote(sb, **kwargs).total
    for mei, local in ((True, True), (True, False), (False, True)):
        assert fee_quote(sb, mei=mei, local=local, **kwargs).total <= full


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["comidas-tipicas", "legumes-verduras", "frutas", "pastel", "frios"]),
    st.decimals(min_value=D("1"), max_value=D("3"), places=4),
)
def test_sjc_correction_is_rounded_once(line, factor):
    sjc = get_regime("sjc-2014")
    quote_line = fee_quote(sjc, **full(sjc, line), year=2020, index_factors={"INPC": factor}).lines[0]
    exact = D("2.50") * factor * sjc.line(line).area
    assert quote_line.amount == exact.quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert quote_line.amount.as_tuple().exponent == -2


VENUES = [(regime, venue) for regime in load_regimes().values() for venue in regime.ids("venue")]


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(min_value=1, max_value=60))
def test_venue_price_never_decreases_when_days_increase(data, days):
    """Every venue of every shipped regime: one more day never costs less (LC 324/2025, art. 89)."""
    regime, venue = data.draw(st.sampled_from(VENUES))

    def price(n):
        return fee_quote(regime, venue=venue, days=n, year=2026).total_charges

    assert price(days) <= price(days + 1)


@given(st.integers(min_value=0, max_value=1000), st.sampled_from([2024, 2025, 2026]))
def test_price_units_is_n_times_the_unit(n, year):
    sb = get_regime("sao-bento-2026")
    line = price_units(sb, n, "UFESP", year)
    assert line.amount == (n * sb.unit_value("UFESP", year)).quantize(D("0.01"), rounding=ROUND_HALF_UP)


# ================================================================ the formula reproduces the amount


def formula_product(formula: str) -> Decimal:
    """Multiply out a formula as printed: ``5,50 × 38,42 × 4,00 × (1 − 0,30)``."""

    def number(text: str) -> Decimal:
        return D(text.replace(".", "").replace(",", "."))

    result = D(1)
    for part in formula.split(" × "):
        if part.startswith("(") and part.endswith(")"):
            left, right = part[1:-1].split(" − ")
            result *= number(left) - number(right)
        else:
            result *= number(part)
    return result


def assert_formulas_reproduce(quote: Quote) -> None:
    for line in quote.lines:
        assert line.amount == formula_product(line.formula).quantize(D("0.01"), rounding=ROUND_HALF_UP), line


@settings(max_examples=300, deadline=None)
@given(
    structures,
    st.decimals(min_value=D("0.001"), max_value=D("100"), places=3),
    st.decimals(min_value=D("0.01"), max_value=D("6"), places=2),
    st.decimals(min_value=D("0"), max_value=D("3"), places=2),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["none", "low", "high"]),
)
def test_amount_is_the_formulas_own_product_sao_bento(equipment, front, depth, hitch, mei, local, energy):
    """Whatever the inputs, each line's amount is its printed formula multiplied out, rounded HALF_UP —
    or the size is refused at its field (front 4,004 would print 4,00 and charge 4,004)."""
    sb = get_regime("sao-bento-2026")
    kwargs = dict(equipment=equipment, front=front, depth=depth, mei=mei, local=local, energy=energy)
    if sb.equipment(equipment).has_hitch:
        kwargs["hitch"] = hitch
    try:
        quote = fee_quote(sb, **kwargs)
    except UserError as exc:
        if front != front.quantize(D("0.01")):
            assert exc.field == "front" and "duas casas decimais" in exc.message
        else:  # an energy tier the stall is not entitled to
            assert exc.field in ("energy", "front"), exc
        return
    assert front == front.quantize(D("0.01"))
    assert_formulas_reproduce(quote)


@settings(max_examples=100, deadline=None)
@given(
    st.decimals(min_value=D("0.01"), max_value=D("100"), places=2),
    st.decimals(min_value=D("0.01"), max_value=D("100"), places=2),
    st.decimals(min_value=D("1"), max_value=D("3"), places=6),
    st.booleans(),
)
def test_amount_is_the_formulas_own_product_sjc(front, depth, factor, declared):
    sjc = get_regime("sjc-2014")
    sizes = (
        dict(area=max((front * depth).quantize(D("0.01")), D("0.01"))) if declared else dict(front=front, depth=depth)
    )
    assert_formulas_reproduce(fee_quote(sjc, line="churrasco", year=2020, index_factors={"INPC": factor}, **sizes))
    assert_formulas_reproduce(fee_quote(sjc, **full(sjc, "pastel"), year=2020, index_factors={"INPC": factor}))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(min_value=1, max_value=30), st.sampled_from([2025, 2026]))
def test_amount_is_the_formulas_own_product_venues(data, days, year):
    regime, venue = data.draw(st.sampled_from(VENUES))
    assert_formulas_reproduce(fee_quote(regime, venue=venue, days=days, year=year))


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(equipment="barraca", front="4,004"), "front"),
        (dict(equipment="barraca", front="4,004"), "front"),
        (dict(equipment="trailer", front="4", depth="2,999"), "depth"),
        (dict(equipment="trailer", front="3", hitch="0,805"), "hitch"),
    ],
)
def test_sizes_beyond_the_centimetre_are_refused(sb, kwargs, field):
    """Front 4,004 would be charged 4,004 while the formula shows 4,00: refused at the field."""
    with pytest.raises(UserError) as exc:
        fee_quote(sb, **kwargs)
    assert exc.value.field == field
    assert "informe no máximo duas casas decimais (centímetros)" in exc.value.message


def test_area_beyond_two_places_is_refused(sjc):
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, line="churrasco", area="9.505", year=2014)
    assert exc.value.field == "area" and "no máximo duas casas decimais" in exc.value.message


def test_trailing_zeros_are_not_extra_places(sb):
    assert (
        fee_quote(sb, equipment="barraca", front="4,000").total == fee_quote(sb, equipment="barraca", front="4").total
    )


@pytest.mark.parametrize(
    "kwargs, field, fragment",
    [
        (dict(equipment="barraca", front="100,01"), "front", "acima de 100 m"),
        (dict(equipment="barraca", front="4000"), "front", "acima de 100 m"),
        (dict(equipment="barraca", front="9" * 40), "front", "acima de 100 m"),  # too long even to round
        (dict(equipment="trailer", front="4", depth="350"), "depth", "acima de 100 m"),
        (dict(equipment="trailer", front="4", hitch="101", depth="2"), "hitch", "acima de 100 m"),
    ],
)
def test_absurd_sizes_are_refused(sb, kwargs, field, fragment):
    with pytest.raises(UserError) as exc:
        fee_quote(sb, **kwargs)
    assert exc.value.field == field and fragment in exc.value.message
    assert fee_quote(sb, equipment="barraca", front="100").total == D("21131.00")  # 5,50 × 38,42 × 100,00


def test_absurd_area_is_refused(sjc):
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, line="churrasco", area="10000.01", year=2014)
    assert exc.value.field == "area" and "acima de 10.000 m²" in exc.value.message
    assert fee_quote(sjc, line="churrasco", area="10000", year=2014).total == D("25000.00")


# ================================================================ a discount claimed and not granted is explained


def test_mei_local_trailer_too_deep_says_why(sb):
    """Dec. 4.794/2026, art. 9º, § 3º, I: 30 % only up to 3 m deep — the line says the depth failed."""
    line = only(fee_quote(sb, equipment="trailer", front="4", depth="3,5", mei=True, local=True), "occupation")
    assert line.amount == D("845.24")
    assert "Sem desconto: profundidade 3,50 m acima de 3,00 m (Dec. 4.794/2026, art. 9º, § 3º, I)" in line.details


@pytest.mark.parametrize("mei, local", [(True, False), (False, True)])
def test_mei_without_local_says_why(sb, mei, local):
    line = only(fee_quote(sb, equipment="trailer", front="4", depth="3", mei=mei, local=local), "occupation")
    assert "Sem desconto: o desconto é só para MEI do município (Dec. 4.794/2026, art. 9º, § 3º, I)" in line.details


def test_every_failed_condition_is_named(sb):
    line = only(fee_quote(sb, equipment="barraca", front="4", depth="3,5", mei=True), "occupation")
    assert (
        "Sem desconto: o desconto é só para MEI do município; profundidade 3,50 m acima de 3,00 m "
        "(Dec. 4.794/2026, art. 9º, § 3º, I)"
    ) in line.details


def test_stall_no_discount_reaches_says_so(sb):
    """Art. 9º, § 3º, I names popcorn and cotton-candy carts, not hot-dog carts."""
    line = only(fee_quote(sb, equipment="carrinho-cachorro-quente", front="1", mei=True, local=True), "occupation")
    assert any(
        d.startswith("Sem desconto: nenhum desconto deste preço alcança Carrinho de cachorro-quente")
        and d.endswith("(Dec. 4.794/2026, art. 9º, § 3º, I)")
        for d in line.details
    ), line.details
    no_equipment = only(fee_quote(sb, front="2", mei=True, local=True), "occupation")
    assert any("equipamento" in d for d in no_equipment.details if d.startswith("Sem desconto"))


def test_nothing_claimed_nothing_explained(sb):
    line = only(fee_quote(sb, equipment="trailer", front="4", depth="3,5"), "occupation")
    assert not any(d.startswith("Sem desconto") for d in line.details)
    granted = only(fee_quote(sb, equipment="trailer", front="4", depth="3", mei=True, local=True), "occupation")
    assert not any(d.startswith("Sem desconto") for d in granted.details)


@settings(max_examples=150, deadline=None)
@given(structures, metres, depths, st.booleans(), st.booleans())
def test_a_claim_is_always_answered(equipment, front, depth, mei, local):
    """MEI or local claimed: the line either carries the discount or says why not."""
    sb = get_regime("sao-bento-2026")
    line = fee_quote(sb, equipment=equipment, front=front, depth=depth, mei=mei, local=local).lines[0]
    discounted = "desconto de" in line.label
    explained = any(d.startswith("Sem desconto:") for d in line.details)
    if mei or local:
        assert discounted != explained
    else:
        assert not explained


# ================================================================ a year before the act


def test_year_before_the_act_is_refused(sjc):
    """Lei 9.158/2014 is of 2014: nothing of it can be priced for 2013."""
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, **full(sjc, "pastel"), year=2013)
    message = exc.value.message
    assert exc.value.field == "year"
    assert "2013" in message and "Lei nº 9.158, de 28 de agosto de 2014" in message and "2014" in message
    assert fee_quote(sjc, **full(sjc, "pastel"), year=2014).total == D("105.00")


@pytest.mark.parametrize("regime_id", sorted(load_regimes()))
def test_no_regime_prices_before_its_publication(regime_id):
    regime = get_regime(regime_id)
    with pytest.raises(UserError) as exc:
        fee_quote(regime, year=regime.published.year - 1, equipment="x")
    assert exc.value.field == "year" and str(regime.published.year) in exc.value.message


# ================================================================ inputs that do not change the price are said


def test_unknown_admin_value_id_is_refused_with_the_options(sjc, sb):
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, fees=["rateio-energia-banheiros"], admin_values={"rateio": "10"})
    assert exc.value.field == "admin_value"
    assert "'rateio'" in exc.value.message and "rateio-energia-banheiros" in exc.value.message
    with pytest.raises(UserError) as exc:  # a fee the act prices itself is not admin-defined
        fee_quote(sjc, **full(sjc, "pastel"), year=2014, admin_values={"licence-fee": "10"})
    assert "licence-fee" in exc.value.message
    with pytest.raises(UserError) as exc:
        fee_quote(sb, equipment="barraca", front="2", admin_values={"x": "1"})
    assert "não tem preço definido pela Administração" in exc.value.message


def test_admin_value_is_in_cents(sjc):
    with pytest.raises(UserError) as exc:
        fee_quote(sjc, fees=["rateio-energia-banheiros"], admin_values={"rateio-energia-banheiros": "42,105"})
    assert exc.value.field == "admin_values.rateio-energia-banheiros" and "centavos" in exc.value.message


def test_admin_value_of_a_fee_not_priced_is_noted(sjc):
    quote = fee_quote(sjc, **full(sjc, "pastel"), year=2014, admin_values={"rateio-energia-banheiros": "10"})
    assert quote.total == D("105.00")
    assert any("'rateio-energia-banheiros'" in n for n in quote.notes)


def test_mei_local_days_energy_without_effect_are_noted(sjc, sb):
    quote = fee_quote(sjc, **full(sjc, "pastel"), year=2014, mei=True, local=True, days=3, energy="high")
    assert quote.total == D("105.00")
    notes = " | ".join(quote.notes)
    assert "MEI" in notes and "do município" in notes.lower() and "3 dias" in notes
    assert "não tem tarifa de energia" in notes and "'high'" in notes
    assert quote.to_dict()["notes"] == list(quote.notes)
    # the same inputs where they count: nothing to note
    used = fee_quote(sb, equipment="trailer", front="4", depth="3", mei=True, local=True, energy="high")
    assert used.notes == ()
    venue = fee_quote(get_regime("olimpia-2025"), venue="recinto-arena", days=3, year=2026)
    assert venue.notes == ()


def test_energy_outside_the_requested_fees_is_noted(sb):
    quote = fee_quote(sb, fees=["occupation"], equipment="barraca", front="2", energy="high", depth="2")
    assert [line.fee for line in quote.lines] == ["occupation"]
    assert any("não faz parte dos preços pedidos" in n for n in quote.notes)
