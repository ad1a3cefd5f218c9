"""Fiscal-unit values entered by the clerk: one value per unit for every regime, with who, when and source."""

from __future__ import annotations

from decimal import Decimal

import pytest

from models.base.errors import UserError
from models.billing.fiscal import (
    FiscalUnitValue,
    set_unit_value,
    unit_overrides,
    unit_value_history,
    unit_value_rows,
    unit_value_warnings,
)
from models.rules.regimes import get_regime


def test_file_values_are_listed_with_their_source(database):
    rows = {r.year: r for r in unit_value_rows("UFESP")}
    assert rows[2026].value == Decimal("38.42") and rows[2026].origin == "ato"
    assert rows[2024].value == Decimal("35.36")
    assert "Dec. 4.794/2026" in rows[2026].fixed_by  # São Bento fixes it in art. 9º, § 2º


def test_entered_value_is_one_for_every_regime_and_keeps_history(database):
    olimpia = get_regime("olimpia-2025")
    set_unit_value(olimpia, "UFESP", 2027, "39,90", entered_by="Ana (atendente)", reason="Comunicado DICAR")
    set_unit_value(olimpia, "UFESP", 2027, Decimal("39.95"), entered_by="Chefe", reason="correção")
    assert unit_overrides("olimpia-2025") == {("UFESP", 2027): Decimal("39.95")}
    assert unit_overrides("sao-bento-2026") == {("UFESP", 2027): Decimal("39.95")}  # the State's unit
    history = unit_value_history("UFESP", 2027)
    assert [h.value for h in history] == [Decimal("39.95"), Decimal("39.90")]
    assert history[1].entered_by == "Ana (atendente)" and history[1].reason == "Comunicado DICAR"
    row = {r.year: r for r in unit_value_rows("UFESP")}[2027]
    assert row.origin == "cadastro" and row.value == Decimal("39.95")
    assert "Chefe em" in row.source and "fonte: correção" in row.source
    assert olimpia.unit_value("UFESP", 2027, unit_overrides(olimpia.id)) == Decimal("39.95")


def test_a_value_the_act_fixes_itself_prevails_for_that_act(database):
    """Dec. 4.794/2026, art. 9º, § 2º: "UFESP = Fixada para o exercício de 2026 em R$ 38,42"."""
    set_unit_value(get_regime("olimpia-2025"), "UFESP", 2026, "38,50", entered_by="Chefe", reason="teste")
    assert unit_overrides("olimpia-2025")[("UFESP", 2026)] == Decimal("38.50")
    assert ("UFESP", 2026) not in unit_overrides("sao-bento-2026")
    row = {r.year: r for r in unit_value_rows("UFESP")}[2026]
    assert row.value == Decimal("38.50") and row.file_value == Decimal("38.42")


def test_a_unit_without_value_can_be_given_one(database):
    regime = get_regime("sapezal-2014")
    code = regime.units[0].code
    with pytest.raises(UserError, match=code):
        regime.unit_value(code, 2026)
    set_unit_value(regime, code, 2026, "50,00", entered_by="Chefe", reason="Decreto municipal")
    assert regime.unit_value(code, 2026, unit_overrides(regime.id)) == Decimal("50.00")


def test_warnings_before_replacing_or_on_a_likely_typo(database):
    assert unit_value_warnings("UFESP", 2027, "39,90") == []
    assert any("difere" in w for w in unit_value_warnings("UFESP", 2027, "3990"))
    assert any("substitui" in w for w in unit_value_warnings("UFESP", 2026, "38,42"))
    assert any("próprio ato" in w for w in unit_value_warnings("UFESP", 2026, "38,42"))


@pytest.mark.parametrize(
    "unit,year,value,reason,field",
    [
        ("XYZ", 2026, "1.00", "x", "unit"),
        ("UFESP", 1800, "1.00", "x", "year"),
        ("UFESP", 2026, "0", "x", "value"),
        ("UFESP", 2026, "-3,00", "x", "value"),
        ("UFESP", 2026, "1,234", "x", "value"),
        ("UFESP", 2026, "abc", "x", "value"),
        ("UFESP", 2027, "40,00", "  ", "reason"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_stored(database, unit, year, value, reason, field):
    regime = get_regime("olimpia-2025")
    with pytest.raises(UserError) as err:
        set_unit_value(regime, unit, year, value, entered_by="x", reason=reason)
    assert err.value.field == field
    assert FiscalUnitValue.select().count() == 0
