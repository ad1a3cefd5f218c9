"""The act's rules in the words a lawyer reads (issue 29 §6): each fee's general rule, its values, table rows and
asked values, then its exceptions in the order they are tried — each with its article — written from the
compiled formula (a fee of the older kinds through its formula), on the regime sheet and ``praca regimes --show``."""

from __future__ import annotations

import dataclasses

import pytest
from formula_acts import made_up

from desktop.commands.regimes import regime_text
from models.rules.describe.rules import rule_facts
from models.rules.regimes import default_regimes_folder, load_regime_text
from reports.regime_sheet import regime_html

FILES = sorted(default_regimes_folder().glob("*.toml"))
REGIMES = {path.stem: load_regime_text(path.read_text(encoding="utf-8"), path) for path in FILES}


def said(regime, fee_id: str) -> list[str]:
    """The rule's sentences, each with its citation, nested ones indented."""
    out = []
    for fact in rule_facts(regime, regime.fee(fee_id)):
        out.append(f"{fact.text} — {fact.cite}" if fact.cite else fact.text)
        out.extend(f"  {d.text} — {d.cite}" for d in fact.details)
    return out


def test_sjcs_monthly_fee_reads_as_the_law_says_it():
    lines = said(REGIMES["sjc-2014"], "licence-fee")
    assert lines[0] == (
        "Valor = R$ 2,50 × correção do INPC desde 2014 × área (m²), por mês — Lei 9.158/2014, art. 11, § 5º"
    )
    assert "Valor por metro quadrado, ao mês: R$ 2,50 por m² — Lei 9.158/2014, art. 11, § 5º" in lines
    assert any(line.startswith("Correção do INPC desde 2014:") and line.endswith("art. 11, § 7º") for line in lines)


def test_sao_bentos_price_says_the_rule_then_the_exceptions_in_the_order_they_are_tried():
    lines = said(REGIMES["sao-bento-2026"], "occupation")
    assert lines[0].startswith("Valor = 5,50 UFESP × metros lineares ocupados, com o engate, no mínimo 1,00 ML — ")
    assert (
        "Metros lineares ocupados, com o engate, no mínimo 1,00 ML = o maior entre frente (m) + engate (m) e 1,00 m"
        " — Dec. 4.794/2026, art. 9º, § 1º; art. 9º, § 3º" in lines
    )
    exceptions = [line for line in lines if line.startswith("Exceção")]
    assert [line.split(" — ")[0] for line in exceptions] == ["Exceção 1", "Exceção 2"]
    assert "quando MEI, do município e equipamento: carrinho de pipoca ou carrinho de algodão-doce, " in exceptions[0]
    assert exceptions[0].endswith(
        "Valor = o valor da regra geral × (1 − 0,50) — Dec. 4.794/2026, art. 9º, § 3º, I; Lei nº 2.537/2025, art. 5º"
    )
    assert "profundidade (m) ≤ 3,00 m, Valor = o valor da regra geral × (1 − 0,30)" in exceptions[1]


def test_olimpias_venue_table_reads_as_a_table_with_its_one_day_exception_and_its_deposit():
    lines = said(REGIMES["olimpia-2025"], "event-venue")
    assert lines[0].startswith("Valor = dias cobrados × taxa por dia, conforme o imóvel")
    assert "Dias cobrados = o maior entre dias e mínimo de dias cobrados, conforme o imóvel — LC 324/2025, art. 89" in (
        lines
    )
    assert "  Quando imóvel: Estádio Municipal “Tereza Breda”: 30 UFESP por dia — LC 324/2025, art. 89, § 3º" in lines
    assert "  Quando imóvel: Estádio Municipal “Tereza Breda”: 5 dias — LC 324/2025, art. 89, § 3º" in lines
    one_day = "Exceção 1 — uso por um só dia: quando dias = 1 dia, Valor = dias × taxa por 1 dia"
    assert any(line.startswith(one_day) for line in lines)
    # its deposit, a fee of its own that the permit kind charges with it
    assert "Caução = caução, conforme o imóvel — LC 324/2025, art. 89" in said(
        REGIMES["olimpia-2025"], "event-venue-caucao"
    )


def test_a_value_the_act_leaves_to_the_administration_says_who_sets_it():
    lines = said(REGIMES["cabeceira-grande-2012"], "taxa-licenca")
    assert lines == [
        "Valor = valor definido pela Administração — Lei 376/2012, art. 3º",
        "Valor definido pela Administração: valor que a Administração fixa, sem limite fixado no ato"
        " — Lei 376/2012, art. 3º",
    ]


def test_the_words_come_from_the_compiled_formula_not_from_a_text():
    """Change a formula fee's formula and its words change with it."""
    regime = made_up()
    fee = regime.fee("diaria-graduada")
    assert said(regime, fee.id)[0] == "Valor = nota do fiscal ÷ 5 × 1 UFESP × dias, por dia — Dec. 4.794/2026, art. 12"
    other = dataclasses.replace(fee, formula="max(nota, 2) * teto * days")
    changed = dataclasses.replace(regime, fees=(other,), sha256=None)
    assert said(changed, fee.id)[0] == (
        "Valor = (o maior entre nota do fiscal e 2) × 1 UFESP × dias, por dia — Dec. 4.794/2026, art. 12"
    )


@pytest.mark.parametrize("name", sorted(REGIMES))
def test_every_fee_of_the_shipped_acts_has_its_rule_on_the_sheet_and_the_command_line(name):
    regime = REGIMES[name]
    html, text = regime_html(regime), regime_text(regime)
    assert html.count("A regra, como o ato a diz") == text.count("A regra, como o ato a diz") == len(regime.fees)
    for fee in regime.fees:
        first = rule_facts(regime, fee)[0]
        assert first.text.startswith(("Valor = ", "Caução = ")) and first.cite
        assert first.text in text
