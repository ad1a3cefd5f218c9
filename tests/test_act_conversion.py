"""Issue 29 §2: a conversion to reais exists only where a rule says it. An act written in cruzeiros reais whose
file declares the rule (``[regime] conversion``: the divisor, the day and the article) shows its figures after that
day in reais, each line saying the conversion and the rule's article; before it, in its own money; an act without
the rule is never converted; and ``praca regimes check`` refuses a conversion badly declared."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from period_acts import REGIME_ID, period_act_text

from desktop.cli import main
from models.rules.regimes import load_regime_text
from models.services.act_cases import check_act

RULE = (
    'conversion = { to = "R$", divide_by = "2750", from = 1994-07-01, basis = "art. 1º", '
    'basis_act = "Lei federal nº 8.880/1994" }'
)


def _text(conversion: str = RULE, currency: str = "CR$") -> str:
    text = period_act_text().replace('currency = "Cr$"\n', f'currency = "{currency}"\n{conversion}\n', 1)
    assert conversion in text
    return text


def test_figures_after_the_rules_day_are_in_reais_with_its_article_and_before_it_in_the_acts_money():
    from models.billing.pricing import converted
    from models.rules.fees import fee_quote

    regime = load_regime_text(_text(), f"{REGIME_ID}.toml")
    priced = fee_quote(regime, fees=["taxa-anual"], fiscal_years=1)
    assert priced.currency == "CR$" and priced.total == Decimal("1500.00")
    before = converted(priced, regime, dt.date(1994, 6, 30))
    assert before == priced  # the act's own money until the rule's day
    after = converted(priced, regime, dt.date(1994, 7, 1))
    assert after.currency == "R$" and after.total == Decimal("0.55")  # 1.500 ÷ 2.750 = 0,5454… → 0,55 (half up)
    (line,) = after.lines
    assert (
        line.details[-1] == "Convertido em reais: CR$ 1.500,00 ÷ 2.750 = R$ 0,55 (Lei federal nº 8.880/1994, art. 1º)"
    )
    assert line.formula.endswith("= CR$ 1.500,00 ÷ 2.750")
    assert after.notes[-1].startswith("Valores do ato em CR$ convertidos em reais desde 01/07/1994")
    assert regime.currency_on(dt.date(1994, 6, 30)) == "CR$" and regime.currency_on(dt.date(2026, 1, 1)) == "R$"
    plain = load_regime_text(_text(conversion=""), f"{REGIME_ID}.toml")  # no rule: never converted
    assert converted(priced, plain, dt.date(2026, 1, 1)) == priced and plain.currency_on(dt.date(2026, 1, 1)) == "CR$"


def test_praca_quote_on_a_database_shows_the_conversion_and_its_article(database, tmp_path, capsys):
    path = tmp_path / f"{REGIME_ID}.toml"
    path.write_text(_text(), encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    quote = ["--db", database, "quote", "--regime", REGIME_ID, "--fee", "taxa-anual", "--fiscal-years", "1"]
    assert main([*quote, "--date", "10/03/2026"]) == 0
    out = capsys.readouterr().out
    assert "Convertido em reais: CR$ 1.500,00 ÷ 2.750 = R$ 0,55 (Lei federal nº 8.880/1994, art. 1º)" in out
    assert out.rstrip().endswith("Total: R$ 0,55")


@pytest.mark.parametrize(
    ("conversion", "currency", "key", "fragment"),
    [
        (RULE, "R$", "regime.conversion", "já escreve seus valores em reais"),
        (RULE.replace('"2750"', '"0"'), "CR$", "regime.conversion.divide_by", ""),
        (RULE.replace("divide_by", "divide_bi"), "CR$", "regime.conversion", "divide_by"),
        (RULE.replace('to = "R$"', 'to = "US$"'), "CR$", "regime.conversion.to", ""),
    ],
    ids=["act-in-reais", "zero-divisor", "near-miss", "not-reais"],
)
def test_the_checker_refuses_a_conversion_badly_declared(conversion, currency, key, fragment):
    text = _text(conversion=conversion, currency=currency)
    checked = check_act(text, f"{REGIME_ID}.toml", expected_id=REGIME_ID)
    found = [e for e in checked.errors if (e.key or "").startswith(key)]
    assert found, [(e.key, e.reason) for e in checked.errors]
    assert fragment in " ".join(f"{e.key} {e.reason}" for e in found)
