"""models/rules/regimes/ — loading and strict validation of resources/regimes/*.toml."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from factories import BASE_REGIME as BASE
from factories import write_regime as write

from models.base.errors import UserError
from models.rules.fees import fee_quote as quote
from models.rules.regimes import (
    MissingUnitValue,
    Regime,
    RegimeError,
    default_regimes_folder,
    get_regime,
    load_regime_file,
    load_regimes,
    regime_to_dict,
)

D = Decimal
REGIMES = default_regimes_folder()
DOCS = Path(__file__).resolve().parent.parent / "docs"
SHIPPED = sorted(p.stem for p in REGIMES.glob("*.toml"))


# ---------------------------------------------------------------- shipped files


def test_default_folder_is_the_repository_resources():
    assert REGIMES.is_dir()
    assert REGIMES.name == "regimes" and REGIMES.parent.name == "resources"
    assert {"sao-bento-2026", "sjc-2014"} <= set(SHIPPED)


@pytest.mark.parametrize("regime_id", SHIPPED)
def test_every_shipped_file_loads(regime_id):
    regime = load_regime_file(REGIMES / f"{regime_id}.toml")
    assert isinstance(regime, Regime)
    assert regime.id == regime_id
    assert regime.short and regime.act and regime.municipality
    json.dumps(regime_to_dict(regime))  # JSON-ready


def test_load_regimes_returns_all_by_id():
    regimes = load_regimes()
    assert sorted(regimes) == SHIPPED


def test_get_regime_is_cached_and_unknown_ids_are_refused():
    assert get_regime("sao-bento-2026") is get_regime("sao-bento-2026")
    with pytest.raises(RegimeError) as exc:
        get_regime("atlantida-1999")
    assert "atlantida-1999" in str(exc.value) and "sao-bento-2026" in str(exc.value)
    assert isinstance(exc.value, UserError)


def test_parsed_regimes_are_kept_in_the_cache_folder_and_rebuilt_when_anything_changes(tmp_path, monkeypatch):
    import shutil

    import models.rules.regimes.catalogue as regimes_module
    from models.store.cache import set_cache_folder

    acts = tmp_path / "regimes"
    shutil.copytree(REGIMES, acts)
    cache = tmp_path / "cache"
    monkeypatch.setattr("models.store.cache._folder", None)
    assert regimes_module.load_through_cache(acts).keys() == set(SHIPPED)  # no cache folder: nothing kept
    set_cache_folder(cache)
    first = regimes_module.load_through_cache(acts)
    [kept] = cache.glob("regimes-*.pickle")
    parsed = []
    real = regimes_module.load_regimes
    monkeypatch.setattr(regimes_module, "load_regimes", lambda folder=None: parsed.append(1) or real(folder))
    again = regimes_module.load_through_cache(acts)
    assert parsed == [] and again == first and again["sjc-2014"].sections == first["sjc-2014"].sections
    # an act changed: parsed again, a new file, the old one removed
    sjc = acts / "sjc-2014.toml"
    sjc.write_text(sjc.read_text(encoding="utf-8") + "\n# nota\n", encoding="utf-8")
    regimes_module.load_through_cache(acts)
    [newer] = cache.glob("regimes-*.pickle")
    assert parsed == [1] and newer != kept
    # a damaged cache file is rebuilt, never trusted
    newer.write_bytes(b"not a pickle")
    assert regimes_module.load_through_cache(acts).keys() == set(SHIPPED) and parsed == [1, 1]
    # an act that does not load is refused as before, and nothing of it is kept
    sjc.write_text("[regime\n", encoding="utf-8")
    with pytest.raises(RegimeError):
        regimes_module.load_through_cache(acts)
    assert len(list(cache.glob("regimes-*.pickle"))) == 1
    # what does not pickle is parsed each time, never a crash
    sjc.write_text((REGIMES / "sjc-2014.toml").read_text(encoding="utf-8"), encoding="utf-8")

    def refuse(*args, **kwargs):
        raise TypeError("cannot pickle")

    monkeypatch.setattr("pickle.dumps", refuse)
    assert regimes_module.load_through_cache(acts).keys() == set(SHIPPED)


def test_no_cache_location_keeps_nothing_in_the_current_folder(app_ready, monkeypatch):
    from PySide6.QtCore import QStandardPaths

    from desktop.paths import cache_dir

    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda location: "")
    assert cache_dir() is None


def test_missing_folder_is_a_regime_error(tmp_path):
    with pytest.raises(RegimeError):
        load_regimes(tmp_path / "nope")


# ---------------------------------------------------------------- São Bento (Dec. 4.794/2026)


@pytest.fixture(scope="module")
def sb():
    return get_regime("sao-bento-2026")


@pytest.fixture(scope="module")
def sjc():
    return get_regime("sjc-2014")


def test_sb_citation(sb):
    assert sb.short == "Dec. 4.794/2026"
    assert sb.cite("art. 9º, § 2º") == "Dec. 4.794/2026, art. 9º, § 2º"
    assert sb.published.isoformat() == "2026-03-24"


def test_sb_ufesp_values(sb):
    """UFESP 2026 = R$ 38,42 (art. 9º, § 2º); 2024 and 2025 from SEFAZ-SP."""
    assert sb.unit_value("UFESP", 2026) == D("38.42")
    assert sb.unit_value("UFESP", 2025) == D("37.02")
    assert sb.unit_value("UFESP", 2024) == D("35.36")
    assert sb.unit_value_citation("UFESP", 2026) == "Dec. 4.794/2026, art. 9º, § 2º"


def test_unit_without_value_for_the_year_names_unit_and_year(sb):
    with pytest.raises(MissingUnitValue) as exc:
        sb.unit_value("UFESP", 2027)
    message = str(exc.value)
    assert "UFESP" in message and "2027" in message
    assert isinstance(exc.value, UserError)


def test_unit_overrides_supply_and_win(sb):
    overrides = {("UFESP", 2027): D("40.00"), ("UFESP", 2026): D("38.50")}
    assert sb.unit_value("UFESP", 2027, overrides) == D("40.00")
    assert sb.unit_value("UFESP", 2026, overrides) == D("38.50")
    with pytest.raises(UserError):
        sb.unit_value("UFM", 2026)


def test_sb_lookups(sb):
    assert sb.equipment("trailer").has_hitch
    assert not sb.equipment("barraca").has_hitch
    occupation = sb.fee("occupation")  # art. 9º, § 2º: Ci × UFESP × ML, the hitch counted, at least 1 ML (§§ 1º, 3º)
    assert occupation.formula == "coeficiente * metros"
    assert [(t.name, t.value, t.unit, t.formula) for t in occupation.terms] == [
        ("coeficiente", D("5.50"), "UFESP/m", None),
        ("metros", None, "", "max(front + hitch, 1.00 m)"),
    ]
    assert sb.infraction("nao-desmontar").fine.amount.value == D("150.00")
    assert sb.site("rua-cel-ribeiro-da-luz").from_ == "Av. Dr. Rubião Júnior"
    with pytest.raises(UserError) as exc:
        sb.equipment("helicoptero")
    assert "helicoptero" in str(exc.value) and "trailer" in str(exc.value)


def test_sb_discounts_and_energy(sb):
    """Art. 9º, § 3º, I: 30 % / 50 % for MEIs of the municipality; art. 12: 0,82 / 3,25 UFESP."""
    occupation = sb.fee("occupation")
    # the highest discount that applies is tried first
    assert [(e.formula, e.basis) for e in occupation.exceptions] == [
        ("base * (1 - 0.50)", "art. 9º, § 3º, I"),
        ("base * (1 - 0.30)", "art. 9º, § 3º, I"),
    ]
    cart, structure = occupation.exceptions
    assert cart.when == "mei and local and equipment in ['carrinho-pipoca', 'carrinho-algodao-doce']"
    assert structure.when == "mei and local and equipment in ['trailer', 'reboque', 'barraca'] and depth <= 3.00 m"
    # art. 12: the tiers the desk offers, their tariffs in UFESP 2026 (R$ 38,42) and their limits, as priced
    assert [(t.id, t.label) for t in sb.fee("energy").energy_tiers()] == [
        ("low", "Impacto I/IV — Baixo consumo"),
        ("high", "Impacto I/IV — Alto consumo"),
    ]
    low = quote(sb, equipment="carrinho-pipoca", front="1,00", energy="low", fees=["energy"], year=2026)
    high = quote(sb, equipment="trailer", front="4,00", depth="3,00", energy="high", fees=["energy"], year=2026)
    assert (low.lines[0].formula, high.lines[0].formula) == ("0,82 × 38,42", "3,25 × 38,42")
    with pytest.raises(UserError, match="vale até 2,00 ML"):
        quote(sb, equipment="carrinho-pipoca", front="2,50", energy="low", fees=["energy"], year=2026)
    with pytest.raises(UserError, match="vale até 3,00 m de profundidade"):
        quote(sb, equipment="trailer", front="4,00", depth="3,50", energy="high", fees=["energy"], year=2026)


def test_sb_schedule_site_selection_layout(sb):
    """Art. 2º (3 days, set-up from 27/03 12h, tear-down until 30/03 12h), art. 5º hours,
    art. 3º (order by payment time, draw of positions), art. 10 (late fill), art. 11, § 4º (gap)."""
    schedule = sb.schedule("indomit")
    assert schedule.setup.at.isoformat() == "2026-03-27T12:00:00"
    assert schedule.teardown.at.isoformat() == "2026-03-30T12:00:00"
    assert [d.date.day for d in schedule.days] == [27, 28, 29]
    assert schedule.days[0].crosses_midnight
    assert schedule.days[0].closes_at.isoformat() == "2026-03-28T01:00:00"
    assert sb.permit_kind("event-stall").validity.days == 3
    selection = sb.selection
    assert selection.method == "registration-order" and selection.order_by == "payment-time"
    assert selection.positions.at.isoformat() == "2026-03-26T15:00:00"
    assert selection.late_fill.pay_days_after_issue == 1
    assert sb.layout.min_gap.admin_defined and sb.layout.min_gap.value is None
    assert sb.placard.min_width == D("0.65") and "cnpj" in sb.placard.contents


def test_sb_penalties(sb):
    """Art. 2º, § 2º: R$ 150,00 + impediment; art. 14: 20 UFESP and seizure."""
    tear_down = sb.infraction("nao-desmontar")
    assert tear_down.fine.amount.unit == "BRL"
    assert "1.620" in tear_down.fine.basis_act
    assert any(s.kind == "impediment" for s in tear_down.sanctions)
    alcohol = sb.infraction("bebida-alcoolica")
    assert (alcohol.fine.amount.value, alcohol.fine.amount.unit) == (D("20"), "UFESP")
    assert any(s.kind == "seizure" for s in alcohol.sanctions)
    # art. 14 "cumulativamente ou não" is about one infraction; on simultaneous ones the decree is silent
    assert sb.penalties.cumulative is None
    assert all(s.discretionary for s in alcohol.sanctions if s.kind == "seizure")


# ---------------------------------------------------------------- São José dos Campos (Lei 9.158/2014)


def test_sjc_28_sections_in_the_legal_order(sjc):
    """Art. 8º, § 2º: one side I–IX, the other X–XXVIII, in sequence."""
    assert len(sjc.sections) == 28
    side_a = [s.numeral for s in sjc.sections_of_side("a")]
    side_b = [s.numeral for s in sjc.sections_of_side("b")]
    assert side_a == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    assert side_b[0] == "X" and side_b[-1] == "XXVIII" and len(side_b) == 19
    assert [s.order for s in sjc.sections_of_side("b")] == list(range(1, 20))


def test_sjc_colours_by_section_group(sjc):
    """Art. 9º: I green/white, II red/white, III blue/white (the rest)."""
    colour = {s.numeral: s.colour.name for s in sjc.sections}
    assert {colour[n] for n in ("I", "II", "III", "IV")} == {"verde e branco"}
    assert {colour[n] for n in ("V", "VII", "VIII", "IX", "XXVI", "XXVII")} == {"vermelho e branco"}
    assert {colour[n] for n in ("VI", "X", "XI", "XII", "XVI", "XXVIII")} == {"azul e branco"}


def test_sjc_fire_rules(sjc):
    """Art. 15: sections XI, XII, XIII, XV, XVI, XVII, XVIII, XXII, XXIII and XXIV."""
    fire = {s.numeral for s in sjc.sections if s.fire_rules}
    assert fire == {"XI", "XII", "XIII", "XV", "XVI", "XVII", "XVIII", "XXII", "XXIII", "XXIV"}
    assert all(s.fire_rules_basis == "art. 15" for s in sjc.sections if s.fire_rules)


def test_sjc_line_sizes(sjc):
    """Art. 5º: 4,00 / 8,00 / 10,00 / 12,00 / 6,00 m × 3,50 m."""
    assert (sjc.line("comidas-tipicas").front, sjc.line("comidas-tipicas").depth) == (D("4.00"), D("3.50"))
    assert sjc.line("legumes-verduras").front == D("8.00")
    assert sjc.line("frutas").front == D("10.00")
    assert sjc.line("pastel").front == D("12.00")
    assert sjc.line("frios").front == D("6.00")
    assert sjc.section("xvi").lines == ("pastel",)


def test_sjc_schedule_fee_deadlines(sjc):
    """Art. 10 (16–17 h / 22–23 h), art. 11, §§ 5º–7º, art. 27 (72 h / 10 days)."""
    schedule = sjc.schedule("feira-noturna")
    assert (schedule.setup_hours.start.hour, schedule.setup_hours.end.hour) == (16, 17)
    assert (schedule.teardown_hours.start.hour, schedule.teardown_hours.end.hour) == (22, 23)
    fee = sjc.fee("licence-fee")
    assert fee.due.day_of_month == 20 and fee.per == "month"
    assert fee.arrears.months == 3 and fee.arrears.sanction == "revocation"
    # R$ 2,50 per m² a month, in values of 2014 corrected by the INPC (art. 11, §§ 5º and 7º), as priced
    line = quote(
        sjc, line="pastel", front="3,00", depth="2,00", fees=["licence-fee"], year=2026, index_factors={"INPC": "2"}
    ).lines[0]
    assert line.formula == "2,50 × 2 × 3,00 × 2,00" and line.amount == D("30.00")
    assert sjc.deadline("appeal").hours == 72 and sjc.deadline("appeal").count == "hours"
    assert sjc.deadline("appeal-revocation").days == 10
    assert sjc.deadline("comply-warning").hours == 24


def test_sjc_penalties(sjc):
    """Art. 24 (up to R$ 500, doubled), art. 25, § ún. (R$ 1.000 + 15 days), art. 26 (revocation, 36 months)."""
    general = sjc.infraction("descumprimento-geral")
    assert general.fine.max.value == D("500.00") and general.fine.graded
    aggression = sjc.infraction("agressao")
    assert aggression.fine.amount.value == D("1000.00")
    first = sjc.ladder(aggression.ladder).step_for(1)
    assert {s.kind for s in first.sanctions} == {"fine", "suspension"}
    assert next(s for s in first.sanctions if s.kind == "suspension").days == 15
    assert sjc.ladder(aggression.ladder).step_for(2).sanctions[0].kind == "revocation"
    assert sjc.ladder(aggression.ladder).step_for(9).sanctions[0].kind == "revocation"  # last step repeats
    abandonment = sjc.infraction("abandono")
    assert abandonment.sanctions[0].wait_months == 36
    assert sjc.penalties.recurrence.multiplier == D("2")
    assert sjc.selection.method == "preference-then-draw"
    assert [p.id for p in sjc.selection.preferences] == ["fundadores", "feiras-diurnas"]
    assert sjc.selection.draw.when_more_than == 2


def test_regime_to_dict_carries_every_id_with_label_and_article(sb, sjc):
    for regime in (sb, sjc):
        data = json.loads(json.dumps(regime_to_dict(regime)))
        for kind in ("equipment", "lines", "sections", "permit_kinds", "infractions", "deadlines", "venues"):
            for item in data[kind]:
                assert item["label"]
                assert item["article"].startswith(regime.short + ", art")
        assert data["ids"]["equipment"] == [e.id for e in regime.equipment_kinds]
        assert data["ids"]["infractions"] == [i.code for i in regime.infractions]
    sjc_data = regime_to_dict(sjc)
    aggression = next(i for i in sjc_data["infractions"] if i["code"] == "agressao")
    assert aggression["article"] == "Lei 9.158/2014, art. 25, parágrafo único"  # article infringed
    assert aggression["penalty_article"] == "Lei 9.158/2014, art. 25, parágrafo único; art. 26, I"
    alcohol = next(i for i in regime_to_dict(sb)["infractions"] if i["code"] == "bebida-alcoolica")
    assert (alcohol["article"], alcohol["penalty_article"]) == ("Dec. 4.794/2026, art. 8º", "Dec. 4.794/2026, art. 14")
    assert regime_to_dict(sb)["ids"]["energy"] == ["none", "low", "high"]


def test_regime_to_dict_lists_olimpia_venues():
    if "olimpia-2025" not in SHIPPED:
        pytest.skip("olimpia-2025.toml not written yet")
    data = regime_to_dict(get_regime("olimpia-2025"))
    assert data["venues"] and all(v["article"].startswith("LC 324/2025, art. 89") for v in data["venues"])


# ---------------------------------------------------------------- broken files


def broken(tmp_path: Path, old: str, new: str, name: str = "teste") -> RegimeError:
    assert old in BASE, old
    path = write(tmp_path, BASE.replace(old, new, 1), name)
    with pytest.raises(RegimeError) as exc:
        load_regime_file(path)
    return exc.value


def test_base_fixture_is_valid(tmp_path):
    regime = load_regime_file(write(tmp_path, BASE))
    assert regime.id == "teste"
    assert regime.fee("occupation").discounts[0].when.notes


def test_toml_syntax_error_names_the_file(tmp_path):
    error = broken(tmp_path, 'label = "Trailer"', 'label = "Trailer')
    assert error.file == "teste.toml"
    assert "sintaxe TOML" in error.reason
    assert str(error).startswith("teste.toml: ")


def test_missing_required_key(tmp_path):
    error = broken(tmp_path, 'act = "Decreto nº 1, de 1º de janeiro de 2026"\n', "")
    assert (error.file, error.key) == ("teste.toml", "regime.act")
    assert "obrigatória" in error.reason
    assert str(error) == "teste.toml: regime.act: chave obrigatória ausente"


def test_unknown_key_is_an_error(tmp_path):
    error = broken(tmp_path, 'coefficient = "5.50"', 'coefficient = "5.50"\ncoeficient = "5.50"')
    assert error.key == "fees[0].coeficient"
    assert "desconhecida" in error.reason


def test_unknown_top_level_table(tmp_path):
    path = write(tmp_path, BASE + '\n[extras]\nfoo = "bar"\n')
    with pytest.raises(RegimeError) as exc:
        load_regime_file(path)
    assert exc.value.key == "extras"


def test_wrong_type(tmp_path):
    error = broken(tmp_path, 'label = "Cartão CNPJ"', "label = 5")
    assert error.key == "documents[0].label"
    assert "texto" in error.reason and "inteiro" in error.reason


def test_float_where_a_decimal_string_is_required(tmp_path):
    error = broken(tmp_path, 'coefficient = "5.50"', "coefficient = 5.5")
    assert error.key == "fees[0].coefficient"
    assert "5.5" in error.reason and "float" in error.reason


def test_float_deep_in_the_tree_names_the_full_path(tmp_path):
    error = broken(tmp_path, 'rate = "0.50"', "rate = 0.5")
    assert error.key == "fees[0].discounts[1].rate"
    assert str(error).startswith("teste.toml: fees[0].discounts[1].rate: ")


def test_integer_where_a_decimal_string_is_required(tmp_path):
    error = broken(tmp_path, 'min_metres = "1.00"', "min_metres = 1")
    assert error.key == "fees[0].min_metres"
    assert '"1"' in error.reason


def test_float_in_an_inline_table(tmp_path):
    error = broken(tmp_path, 'fine = { value = "20"', "fine = { value = 20.0")
    assert error.key == "infractions[0].fine.value"


def test_bad_decimal_text(tmp_path):
    error = broken(tmp_path, 'coefficient = "5.50"', 'coefficient = "5,50"')
    assert error.key == "fees[0].coefficient"


def test_bad_id(tmp_path):
    error = broken(tmp_path, 'id = "trailer"', 'id = "Trailer Grande"')
    assert error.key == "equipment[0].id"
    assert "kebab" in error.reason


def test_duplicate_id(tmp_path):
    extra = '[[equipment]]\nid = "trailer"\nlabel = "Outro trailer"\nbasis = "art. 3º"\n\n[[lines]]'
    error = broken(tmp_path, "[[lines]]", extra)
    assert error.key == "equipment[1].id"
    assert "repetido" in error.reason and "equipment[0]" in error.reason


def test_duplicate_infraction_code(tmp_path):
    path = write(
        tmp_path, BASE + '\n[[infractions]]\ncode = "sem-placa"\nlabel = "X"\narticle = "art. 8º"\nbasis = "art. 9º"\n'
    )
    with pytest.raises(RegimeError) as exc:
        load_regime_file(path)
    assert exc.value.key == "infractions[1].code"


@pytest.mark.parametrize(
    "old, new, key, what",
    [
        ('documents = ["cnpj-card"]', 'documents = ["cnpj-card", "alvara"]', "permit_kinds[0].documents[1]", "alvara"),
        ('fees = ["occupation"]', 'fees = ["energia"]', "permit_kinds[0].fees[0]", "energia"),
        ('lines = ["comidas"]', 'lines = ["bebidas"]', "sections[0].lines[0]", "bebidas"),
        ('ladder = "geral"', 'ladder = "grave"', "infractions[0].ladder", "grave"),
        (
            'fine = { value = "20", unit = "UFESP"',
            'fine = { value = "20", unit = "UFM"',
            "infractions[0].fine.unit",
            "UFM",
        ),
        ('unit = "UFESP"\nmin_metres', 'unit = "UFIC"\nmin_metres', "fees[0].unit", "UFIC"),
        (
            "when = { mei = true }",
            'when = { mei = true, equipment = ["carrinho"] }',
            "fees[0].discounts[1].when.equipment[0]",
            "carrinho",
        ),
    ],
)
def test_dangling_references(tmp_path, old, new, key, what):
    error = broken(tmp_path, old, new)
    assert error.key == key
    assert what in error.reason and "não" in error.reason


def test_missing_basis(tmp_path):
    error = broken(
        tmp_path, 'label = "Trailer"\nhas_hitch = true\nbasis = "art. 3º"', 'label = "Trailer"\nhas_hitch = true'
    )
    assert error.key == "equipment[0].basis"
    assert "obrigatória" in error.reason


def test_basis_must_cite_an_article(tmp_path):
    error = broken(tmp_path, 'basis = "art. 10"', 'basis = "dez"')
    assert error.key == "deadlines[0].basis"
    assert "artigo" in error.reason


def test_file_id_must_equal_file_name(tmp_path):
    path = write(tmp_path, BASE, name="outro-nome")
    with pytest.raises(RegimeError) as exc:
        load_regime_file(path)
    assert exc.value.file == "outro-nome.toml"
    assert exc.value.key == "regime.id"
    assert "outro-nome" in exc.value.reason


def test_bad_enum_value(tmp_path):
    error = broken(tmp_path, 'kind = "linear-metre"', 'kind = "per-metre"')
    assert error.key == "fees[0].kind"
    assert "linear-metre" in error.reason  # lists the allowed values


def test_ladder_steps_must_be_in_order(tmp_path):
    error = broken(tmp_path, "offence = 2", "offence = 3")
    assert error.key == "ladders[0].steps[1].offence"


def test_deadline_needs_days_or_hours(tmp_path):
    error = broken(tmp_path, "days = 10\n", "")
    assert error.key == "deadlines[0].days"


def test_hours_deadline_needs_hours_count(tmp_path):
    error = broken(tmp_path, 'days = 10\ncount = "calendar"', 'hours = 72\ncount = "calendar"')
    assert error.key == "deadlines[0].count"


def test_notes_are_accepted_anywhere(tmp_path):
    text = BASE.replace('label = "Trailer"', 'label = "Trailer"\nnotes = "nota"', 1)
    text = text.replace(
        '{ kind = "warning", comply_days = 30, basis = "art. 7º" }',
        '{ kind = "warning", comply_days = 30, basis = "art. 7º", notes = "nota" }',
    )
    text = text.replace("[regime]", 'notes = "nota do arquivo"\n\n[regime]')
    regime = load_regime_file(write(tmp_path, text))
    assert regime.equipment("trailer").notes == "nota"
    assert regime.notes is None or regime.notes  # header notes optional


def test_a_float_in_the_shipped_sao_bento_file_is_reported_like_the_format_doc(tmp_path):
    """docs/regime-format.md: "sao-bento-2026.toml: fees[0].terms[0].value: …"."""
    text = (REGIMES / "sao-bento-2026.toml").read_text(encoding="utf-8")
    assert 'value = "5.50"' in text
    path = write(tmp_path, text.replace('value = "5.50"', "value = 5.5", 1), name="sao-bento-2026")
    with pytest.raises(RegimeError) as exc:
        load_regime_file(path)
    assert str(exc.value).startswith("sao-bento-2026.toml: fees[0].terms[0].value: ")
    assert str(exc.value).split(": ", 1)[1] in " ".join((DOCS / "regime-format.md").read_text("utf-8").split())
    assert "5.5" in str(exc.value)


def test_load_regimes_stops_at_the_broken_file(tmp_path):
    write(tmp_path, BASE)
    write(
        tmp_path,
        BASE.replace('id = "teste"', 'id = "quebrado"').replace('coefficient = "5.50"', "coefficient = 5.5"),
        name="quebrado",
    )
    with pytest.raises(RegimeError) as exc:
        load_regimes(tmp_path)
    assert exc.value.file == "quebrado.toml"


def test_admin_defined_instead_of_a_number(tmp_path):
    text = BASE + '\n[layout]\nmin_gap = { admin_defined = true, basis = "art. 11" }\n'
    regime = load_regime_file(write(tmp_path, text))
    assert regime.layout.min_gap.admin_defined
    both = BASE + '\n[layout]\nmin_gap = { admin_defined = true, value = "0.50", basis = "art. 11" }\n'
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, both))
    assert exc.value.key == "layout.min_gap.value"


# ---------------------------------------------------------------- resident more_than / one-per same_site

RULES_EXTRA = """
[[permit_kinds.rules]]
kind = "resident"
years = 1
more_than = true
basis = "art. 5º, III"

[[permit_kinds.rules]]
kind = "one-per"
scope = "spouse"
same_site = true
basis = "art. 5º, IV"
"""
RULES_ANCHOR = 'allowed = ["company", "mei"]\nbasis = "art. 5º"\n'


def _with_rules(extra: str) -> str:
    return BASE.replace(RULES_ANCHOR, RULES_ANCHOR + extra, 1)


def test_more_than_and_same_site_are_read(tmp_path):
    regime = load_regime_file(write(tmp_path, _with_rules(RULES_EXTRA)))
    resident, one_per = regime.permit_kind("stall").rules[1:]
    assert (resident.kind, resident.more_than, resident.same_site) == ("resident", True, False)
    assert (one_per.kind, one_per.same_site, one_per.more_than) == ("one-per", True, False)
    plain = load_regime_file(write(tmp_path, BASE)).permit_kind("stall").rules[0]
    assert (plain.more_than, plain.same_site) == (False, False)  # the default: "no mínimo", any site


@pytest.mark.parametrize(
    "old, new, key, fragment",
    [
        ("more_than = true", 'more_than = "sim"', "permit_kinds[0].rules[1].more_than", "booleano"),
        ("same_site = true", "same_site = 1", "permit_kinds[0].rules[2].same_site", "booleano"),
        ('kind = "resident"', 'kind = "min-age"', "permit_kinds[0].rules[1].more_than", "resident"),
        (
            'kind = "one-per"\nscope = "spouse"\n',
            'kind = "no-debts"\n',
            "permit_kinds[0].rules[2].same_site",
            "one-per",
        ),
        ("years = 1\nmore_than", "years = 0\nmore_than", "permit_kinds[0].rules[1].more_than", "years"),
    ],
)
def test_more_than_and_same_site_are_checked(tmp_path, old, new, key, fragment):
    text = _with_rules(RULES_EXTRA.replace(old, new, 1))
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, text))
    assert exc.value.key == key
    assert fragment in exc.value.reason


def test_one_article_over_several_kinds_reads_alike(tmp_path):
    """SJC art. 12 binds feirante and produtor rural: every copy must say same_site alike."""
    second = (
        '\n[[permit_kinds]]\nid = "other"\nlabel = "Outra"\ninstrument = "permissão de uso"\n'
        'holder = ["company"]\nbasis = "art. 5º"\n\n[[permit_kinds.rules]]\nkind = "one-per"\n'
        'scope = "spouse"\nbasis = "art. 5º, IV"\n'
    )
    text = _with_rules(RULES_EXTRA).replace("\n[[fees]]", second + "\n[[fees]]", 1)
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, text))
    assert exc.value.key == "permit_kinds[1].rules[0].same_site"
    assert "permit_kinds[0].rules[2]" in exc.value.reason
    agreed = text.replace(
        'scope = "spouse"\nbasis = "art. 5º, IV"\n\n', 'scope = "spouse"\nsame_site = true\nbasis = "art. 5º, IV"\n\n'
    )
    assert load_regime_file(write(tmp_path, agreed)).permit_kind("other").rules[0].same_site


def test_shipped_rules_carry_the_readings_of_the_acts():
    """Sapezal art. 7º, parágrafo único, III: "há mais de 01 (um) ano"; SJC art. 12: "na mesma feira livre"."""
    sapezal = get_regime("sapezal-2014")
    residents = [r for k in sapezal.permit_kinds for r in k.rules if r.kind == "resident"]
    assert residents and all(r.more_than for r in residents)
    sjc = get_regime("sjc-2014")
    art12 = [r for k in sjc.permit_kinds for r in k.rules if r.kind == "one-per" and r.basis == "art. 12"]
    assert len(art12) == 6 and all(r.same_site for r in art12)
    assert not any(r.same_site for k in sjc.permit_kinds for r in k.rules if r.basis != "art. 12")
    ilha = get_regime("ilha-comprida-2017")  # "no mínimo 02 (dois) anos"
    assert not any(r.more_than for k in ilha.permit_kinds for r in k.rules)


def test_sao_bento_has_no_one_permit_per_person_rule():
    """Dec. 4.794/2026, art. 11, § 5º: each authorisation covers a single structure — not one per person."""
    kind = get_regime("sao-bento-2026").permit_kind("event-stall")
    assert not [r for r in kind.rules if r.kind == "one-per"]
    structure = [r for r in kind.rules if r.basis == "art. 11, § 5º"]
    assert len(structure) == 1 and structure[0].kind == "custom"
    assert "única estrutura" in structure[0].text


def test_venue_one_day_above_two_days_is_refused(tmp_path):
    """A venue whose one-day rate exceeds two days' price (per day × minimum) would make 2 days cheaper than 1."""
    venue = (
        '\n[[fees]]\nid = "venue"\nlabel = "Imóvel"\nkind = "venue-table"\nbasis = "art. 12"\n\n'
        '[[fees.venues]]\nid = "arena"\nlabel = "Arena"\none_day = { value = "50", unit = "UFESP" }\n'
        'per_day = { value = "15", unit = "UFESP" }\nmin_days = 3\nbasis = "art. 12"\n'
    )
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, BASE + venue))
    assert exc.value.key == "fees[1].venues[0].one_day"
    assert "2 dias" in exc.value.reason
    ok = load_regime_file(write(tmp_path, BASE + venue.replace('"50"', '"45"')))
    assert ok.venue("arena").one_day.value == D("45")


# ---------------------------------------------------------------- places left to the Executive; the act's aim


def test_places_left_to_the_executive_and_the_acts_aim_are_read_checked_and_said(tmp_path):
    """Issue 29 §7 (Caravelas/BA, Lei 28/94): "in public places the mayor designates" and the aim of art. 1º had no
    key; now each is declared with its article and said on the regime sheet and by ``--show``."""
    from models.rules import describe
    from models.rules.regimes import check_regime_text

    aim = 'purpose = { text = "Vender a varejo e barato", basis = "art. 1º" }\n'
    places = (
        '\n[[schedules]]\nid = "feira"\nlabel = "Feira"\nbasis = "art. 2º"\n'
        'opening_hours = { opens = "07:00", closes = "16:00", weekdays = ["mon"], basis = "art. 2º" }\n'
        'places = { admin_defined = true, text = "logradouros que o Prefeito designar", basis = "art. 2º" }\n'
    )
    text = BASE.replace('summary = "Regime de teste."\n', 'summary = "Regime de teste."\n' + aim, 1) + places
    regime = load_regime_file(write(tmp_path, text))
    assert (regime.purpose.text, regime.purpose.basis) == ("Vender a varejo e barato", "art. 1º")
    feira = regime.schedule("feira")
    assert feira.places.admin_defined and feira.places.text == "logradouros que o Prefeito designar"
    said = [(f.text, f.cite) for f in describe.schedule_facts(regime, feira)]
    where = "Locais: definidos pela Administração — logradouros que o Prefeito designar"
    assert (where, "Dec. 1/2026, art. 2º") in said
    assert [(f.text, f.cite) for f in describe.purpose_facts(regime)] == [
        ("Finalidade: Vender a varejo e barato", "Dec. 1/2026, art. 1º")
    ]
    # the checker: places must say the places are the Executive's (named places are [[sites]]); a near miss is
    # named; the aim needs its article — all in one run
    broken = text.replace("places = { admin_defined = true, ", "places = { ", 1).replace(
        aim, 'purpose = { text = "Vender a varejo e barato" }\n', 1
    )
    errors = {e.key: e.reason for e in check_regime_text(broken, "teste.toml", expected_id="teste")}
    assert "admin_defined = true" in errors["schedules.feira.places.admin_defined"]
    assert "[[sites]]" in errors["schedules.feira.places.admin_defined"]
    assert "regime.purpose.basis" in errors
    typo = text.replace('text = "logradouros', 'txt = "logradouros', 1)
    errors = {e.key: e.reason for e in check_regime_text(typo, "teste.toml", expected_id="teste")}
    assert 'quis dizer "text"' in errors["schedules.feira.places.txt"]
