"""Quotes with what the database keeps: the clerk's unit values and the INPC corrections (SJC art. 11, § 7º)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from models.base.errors import UserError
from models.billing.fiscal import index_factor, set_index_correction, set_unit_value
from models.billing.pricing import MissingCorrection, quote
from models.rules.regimes import get_regime


def test_index_factor_is_the_product_of_yearly_corrections(database):
    set_index_correction("INPC", 2015, "6,23", entered_by="t")
    set_index_correction("inpc", 2016, "11,28", entered_by="t")
    factor = index_factor("INPC", 2014, 2016)
    assert factor.factor == Decimal("1.0623") * Decimal("1.1128")
    assert factor.formula == "(1 + 6,23 %) × (1 + 11,28 %)"
    assert factor.missing == ()
    assert index_factor("INPC", 2014, 2018).missing == (2017, 2018)


def test_newest_correction_wins(database):
    set_index_correction("INPC", 2015, "6,00", entered_by="t")
    set_index_correction("INPC", 2015, "6,23", entered_by="chefe", reason="correção")
    assert index_factor("INPC", 2014, 2015).factor == Decimal("1.0623")


def test_sjc_fee_is_corrected_by_inpc(database):
    """Lei 9.158/2014, art. 11, § 5º and § 7º: R$ 2,50/m² of 2014 corrected yearly by the INPC."""
    set_index_correction("INPC", 2015, "6,23", entered_by="t")
    set_index_correction("INPC", 2016, "11,28", entered_by="t")
    result = quote("sjc-2014", line="comidas-tipicas", front="4", depth="3,5", year=2016)
    line = result.lines[0]
    # 1,0623 × 1,1128 = 1,18212744 → factor kept to 6 places: 1,182127; 2,50 × 1,182127 × 4,00 × 3,50 = 41,374445
    assert line.amount == Decimal("41.37")
    assert line.formula == "2,50 × 1,182127 × 4,00 × 3,50"
    assert any("(1 + 6,23 %) × (1 + 11,28 %)" in d for d in line.details)
    assert "art. 11, § 7º" in line.basis


def test_missing_correction_is_refused_naming_the_years(database):
    set_index_correction("INPC", 2015, "6,23", entered_by="t")
    with pytest.raises(MissingCorrection) as err:
        quote("sjc-2014", line="pastel", front="12", depth="3,5", year=2017)
    # the domain says what to enter; the window and the command line say where
    assert "2016, 2017" in err.value.message and "Cadastre a correção do INPC de 2016 a 2017" in err.value.message
    assert "Cadastros" not in err.value.message
    assert (err.value.index, err.value.years, err.value.base_year, err.value.field) == (
        "INPC",
        (2016, 2017),
        2014,
        "index_factor",
    )
    assert isinstance(err.value, UserError)


def test_clerks_unit_value_prevails(database):
    set_unit_value(get_regime("olimpia-2025"), "UFESP", 2026, "40,00", entered_by="t", reason="teste")
    result = quote("olimpia-2025", venue="recinto-arena", days=1, year=2026)
    assert result.lines[0].amount == Decimal("1000.00")  # 25 UFESP × R$ 40,00


@pytest.mark.parametrize("value", ["abc", "150", "-60"])
def test_bad_corrections_are_refused(database, value):
    with pytest.raises(UserError) as err:
        set_index_correction("INPC", 2015, value, entered_by="t")
    assert err.value.field == "rate"
