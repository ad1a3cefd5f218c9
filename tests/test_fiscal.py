"""Fiscal-unit values entered by the clerk override the regime files, with who and when."""

from __future__ import annotations

from decimal import Decimal

import pytest

from models.errors import UserError
from models.fiscal import (FiscalUnitValue, set_unit_value, unit_overrides, unit_value_history,
                           unit_value_rows)
from models.regimes import get_regime


def test_file_values_are_listed_with_their_source(database):
    regime = get_regime("olimpia-2025")
    rows = {(r.unit, r.year): r for r in unit_value_rows(regime)}
    assert rows[("UFESP", 2026)].value == Decimal("38.42")
    assert rows[("UFESP", 2024)].value == Decimal("35.36")
    assert rows[("UFESP", 2026)].origin == "ato"


def test_entered_value_overrides_and_keeps_history(database):
    regime = get_regime("olimpia-2025")
    set_unit_value(regime, "UFESP", 2027, "39,90", entered_by="Ana (atendente)", reason="Comunicado DICAR")
    set_unit_value(regime, "UFESP", 2027, Decimal("39.95"), entered_by="Chefe", reason="correção")
    assert unit_overrides(regime.id) == {("UFESP", 2027): Decimal("39.95")}
    history = unit_value_history(regime.id, "UFESP", 2027)
    assert [h.value for h in history] == [Decimal("39.95"), Decimal("39.90")]
    assert history[1].entered_by == "Ana (atendente)" and history[1].reason == "Comunicado DICAR"
    row = {(r.unit, r.year): r for r in unit_value_rows(regime)}[("UFESP", 2027)]
    assert row.origin == "cadastro" and row.value == Decimal("39.95") and "Chefe em" in row.source
    assert regime.unit_value("UFESP", 2027, unit_overrides(regime.id)) == Decimal("39.95")


def test_override_of_a_file_year_shows_both(database):
    regime = get_regime("olimpia-2025")
    set_unit_value(regime, "UFESP", 2026, "38.50", entered_by="Chefe")
    row = {(r.unit, r.year): r for r in unit_value_rows(regime)}[("UFESP", 2026)]
    assert row.value == Decimal("38.50") and row.file_value == Decimal("38.42")


def test_a_unit_without_value_can_be_given_one(database):
    regime = get_regime("sapezal-2014")
    code = regime.units[0].code
    with pytest.raises(UserError, match=code):
        regime.unit_value(code, 2026)
    set_unit_value(regime, code, 2026, "50.00", entered_by="Chefe")
    assert regime.unit_value(code, 2026, unit_overrides(regime.id)) == Decimal("50.00")


@pytest.mark.parametrize("unit,year,value,field", [
    ("XYZ", 2026, "1.00", "unit"),
    ("UFESP", 1800, "1.00", "year"),
    ("UFESP", 2026, "0", "value"),
    ("UFESP", 2026, "-3,00", "value"),
    ("UFESP", 2026, "1,234", "value"),
    ("UFESP", 2026, "abc", "value"),
])
def test_bad_values_are_refused_and_nothing_is_stored(database, unit, year, value, field):
    regime = get_regime("olimpia-2025")
    with pytest.raises(UserError) as err:
        set_unit_value(regime, unit, year, value, entered_by="x")
    assert err.value.field == field
    assert FiscalUnitValue.select().count() == 0
