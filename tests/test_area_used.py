"""SJC (Lei 9.158/2014): the monthly fee is charged on the area used — art. 11, § 5º: "uma taxa de licença no valor
de R$ 2,50 … por metro quadrado utilizado" — and the sizes of art. 5º ("respeitadas as seguintes dimensões") are
maximums, as the map treats them. Runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import pytest
from factories import feirante, person
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.billing.charges import plan_month
from models.rules.fees import fee_quote
from models.rules.regimes import get_regime

SJC = get_regime("sjc-2014")


def test_regime_declares_the_area_used():
    """The fee's area is the one declared (``area``) or the front × depth used (art. 11, § 5º), never the line's
    size: the file's formula reads the area, and each line's maximum is a refusal with its item of art. 5º."""
    quoted = fee_quote(SJC, line="pastel", front="3,00", depth="2,00", year=2014).lines[0]
    assert (quoted.formula, quoted.amount) == ("2,50 × 3,00 × 2,00", Decimal("15.00"))  # 6 m², not the line's 42
    declared = fee_quote(SJC, line="pastel", area="10", year=2014).lines[0]
    assert declared.amount == Decimal("25.00")
    with pytest.raises(UserError) as exc:
        fee_quote(SJC, line="pastel", area="43", year=2014)
    assert exc.value.field == "area" and "art. 5º, IV" in exc.value.message


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["comidas-tipicas", "legumes-verduras", "frutas", "pastel", "frios"]),
    st.decimals(min_value=Decimal("0.50"), max_value=Decimal("13"), places=2),
    st.decimals(min_value=Decimal("0.50"), max_value=Decimal("4"), places=2),
)
def test_art_11_par_5_price_is_the_area_used_and_art_5_caps_it(line_id, front, depth):
    """Art. 11, § 5º and art. 5º, any stall: within the line's size, 2,50 × front × depth rounded once; beyond
    it, refused at the field that exceeds."""
    line = SJC.line(line_id)
    if front > line.front or depth > line.depth:
        with pytest.raises(UserError) as exc:
            fee_quote(SJC, line=line_id, front=front, depth=depth, year=2014)
        assert exc.value.field == ("front" if front > line.front else "depth")
        assert "acima do máximo" in exc.value.message and "art. 5º" in exc.value.message
        return
    quoted = fee_quote(SJC, line=line_id, front=front, depth=depth, year=2014).lines[0]
    assert quoted.amount == (Decimal("2.50") * front * depth).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert quoted.amount <= Decimal("2.50") * line.area


def test_month_charges_the_area_used_by_the_permit(keys, inpc):
    """The month's charge of a pastel stall of 8,00 × 3,50 (art. 5º, IV allows up to 12,00 × 3,50): the formula
    multiplies 8,00 × 3,50 — 28 m², not 42 — and names art. 11, § 5º and art. 5º, IV."""
    permit = feirante(keys, person("Maria das Dores"), on=dt.date(2026, 8, 3))
    assert (permit.line, permit.front, permit.depth) == ("pastel", Decimal("8.00"), Decimal("3.50"))
    planned = plan_month(2026, 9, today=dt.date(2026, 9, 1)).to_create[0]
    assert planned.formula.endswith(" × 8,00 × 3,50") and planned.formula.startswith("2,50 × ")
    factor = Decimal(planned.formula.split(" × ")[1].replace(",", "."))
    assert planned.amount == (Decimal("2.50") * factor * 28).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert "art. 11, § 5º" in planned.basis and "art. 5º, IV" in planned.basis
    assert any("Área utilizada: 28,00 m²" in d for d in planned.detail.get("details", []))


def test_month_skips_a_permit_without_the_area_used_and_says_why(keys, inpc):
    """Without the stall's size the month never guesses the area (art. 11, § 5º): it lists the permit with the
    reason and the maximum art. 5º allows."""
    from models.permits import Permit

    permit = feirante(keys, person("Sem Medida"), on=dt.date(2026, 8, 3))
    Permit.update(front=None, depth=None).where(Permit.id == permit.id).execute()
    plan = plan_month(2026, 9, today=dt.date(2026, 9, 1))
    assert plan.to_create == ()
    assert any(permit.number in s and "metro quadrado utilizado" in s and "12,00 × 3,50" in s for s in plan.skipped)
