"""Legal deadlines (models/rules/deadlines.py) against the articles that set them.

Dates checked by hand on a 2026 calendar: 03/04/2026 is Good Friday, 21/04
Tiradentes (Tuesday), 09/07 the São Paulo state holiday (Revolução
Constitucionalista), 07/09 Independence (Monday), 25/12 Christmas (Friday);
Carnaval (16–17/02/2026) is an optional day (ponto facultativo), not a holiday.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.base.errors import UserError
from models.rules.deadlines import HolidayCalendar, compute_deadline, deadline_kinds, parse_moment
from models.rules.regimes import RegimeError, default_regimes_folder, load_regime_file, shipped_regimes

D = dt.date
T = dt.datetime
REGIMES = shipped_regimes()


# --------------------------------------------------------------------------- the holiday calendar


def test_national_and_state_holidays_in_sao_paulo():
    sp = HolidayCalendar("SP")
    assert sp.holiday(D(2026, 4, 21)) == "Tiradentes"
    assert sp.holiday(D(2026, 12, 25)) == "Natal"
    assert sp.holiday(D(2026, 4, 3)) == "Sexta-feira Santa"
    assert sp.holiday(D(2026, 7, 9)) == "Revolução Constitucionalista"  # state holiday of SP
    assert sp.closed_because(D(2026, 4, 21)) == "feriado: Tiradentes"
    assert sp.closed_because(D(2026, 3, 21)) == "sábado"
    assert sp.closed_because(D(2026, 3, 22)) == "domingo"
    assert sp.closed_because(D(2026, 3, 23)) is None


def test_carnaval_is_not_a_holiday_for_the_holidays_package():
    sp = HolidayCalendar("SP")
    assert sp.is_business_day(D(2026, 2, 16)) and sp.is_business_day(D(2026, 2, 17))
    assert sp.is_business_day(D(2026, 12, 24))  # Christmas Eve: optional, offices may open


def test_the_state_holiday_is_the_regimes_state_only():
    assert not HolidayCalendar("SP").is_business_day(D(2026, 7, 9))
    assert HolidayCalendar("MT").is_business_day(D(2026, 7, 9))
    assert HolidayCalendar.for_regime(REGIMES["sapezal-2014"]).state == "MT"


def test_municipal_holidays_as_dates_or_named():
    cal = HolidayCalendar("SP", {D(2026, 3, 5): "Aniversário da cidade"})
    assert cal.holiday(D(2026, 3, 5)) == "Aniversário da cidade"
    assert not HolidayCalendar("SP", [D(2026, 3, 5)]).is_business_day(D(2026, 3, 5))
    with pytest.raises(UserError):
        HolidayCalendar("SP", ["2026-03-05"])


def test_shift_business_days_lists_the_holidays_passed():
    due, skipped = HolidayCalendar("SP").shift_business_days(D(2026, 4, 1), 15)
    assert due == D(2026, 4, 24)
    assert skipped == ((D(2026, 4, 3), "Sexta-feira Santa"), (D(2026, 4, 21), "Tiradentes"))


# --------------------------------------------------------------------------- each regime, against its article


CASES = [
    # Olímpia, LC 324/2025
    ("olimpia-2025", "comply", D(2026, 3, 3), D(2026, 4, 2), "art. 10"),  # 30 days from the notice
    ("olimpia-2025", "comply-sidewalk", D(2026, 3, 3), D(2026, 3, 6), "art. 260, I"),
    ("olimpia-2025", "payment", D(2026, 3, 3), D(2026, 5, 4), "art. 11"),  # 60 days: Saturday 02/05 → Monday
    ("olimpia-2025", "payment-after-decision", D(2026, 3, 3), D(2026, 4, 2), "art. 40"),
    ("olimpia-2025", "defence", D(2026, 3, 3), D(2026, 3, 23), "art. 34"),  # 20 days
    ("olimpia-2025", "decision", D(2026, 4, 1), D(2026, 4, 24), "art. 38"),  # 15 business days
    ("olimpia-2025", "appeal", D(2026, 3, 19), D(2026, 4, 8), "art. 41"),
    ("olimpia-2025", "appeal-decision", D(2026, 4, 1), D(2026, 4, 24), "art. 38"),
    ("olimpia-2025", "defence-tpu", D(2026, 3, 13), D(2026, 3, 23), "art. 198"),  # street food: 10 days
    ("olimpia-2025", "appeal-tpu", D(2026, 3, 2), D(2026, 4, 1), "art. 198, § 1º"),  # street food: 30 days
    ("olimpia-2025", "appeal-tpu-sanitary", D(2026, 3, 2), D(2026, 3, 23), "art. 199"),  # Sunday → Monday
    ("olimpia-2025", "reclaim", D(2026, 12, 1), D(2027, 1, 14), "art. 24"),  # 30 business days over Christmas
    ("olimpia-2025", "reclaim-perishable", D(2026, 12, 18), D(2026, 12, 21), "art. 24, § 2º"),
    ("olimpia-2025", "tpu-opinion", D(2026, 3, 2), D(2026, 3, 23), "art. 167"),  # Sunday → Monday
    ("olimpia-2025", "tpu-publication", D(2026, 3, 2), D(2026, 3, 17), "art. 175"),
    ("olimpia-2025", "tpu-startup", D(2026, 3, 2), D(2026, 5, 31), "art. 176"),
    # São Bento do Sapucaí, Dec. 4.794/2026
    ("sao-bento-2026", "late-payment", D(2026, 3, 26), D(2026, 3, 27), "art. 10"),
    # Cabeceira Grande, Lei 376/2012: none of its own; Lei 9.784/1999 applied subsidiarily (arts. 24, 59, 66)
    ("cabeceira-grande-2012", "defence", D(2026, 3, 6), D(2026, 3, 11), "art. 5º"),  # 5 days (art. 24)
    ("cabeceira-grande-2012", "appeal", D(2026, 3, 6), D(2026, 3, 16), "art. 5º"),  # 10 days: Sunday 15 → Monday
    # São Lourenço do Oeste, Lei 1.101/1997: none of its own; Lei 9.784/1999 applied subsidiarily (arts. 24, 59)
    ("sao-lourenco-do-oeste-1997", "defence", D(2026, 3, 6), D(2026, 3, 11), "art. 2º, § 2º"),  # 5 days
    ("sao-lourenco-do-oeste-1997", "appeal", D(2026, 3, 6), D(2026, 3, 16), "art. 2º, § 2º"),  # Sunday 15 → Monday
    # São José dos Campos, Lei 9.158/2014
    ("sjc-2014", "appeal-revocation", D(2026, 12, 11), D(2026, 12, 21), "art. 27, II"),  # 10 days
    ("sjc-2014", "leave-request", D(2026, 7, 1), D(2026, 6, 1), "art. 16, § 1º"),  # 30 days BEFORE
    ("sjc-2014", "illness-substitute", D(2026, 3, 2), D(2026, 3, 9), "art. 28"),  # Saturday → Monday
    # Sapezal, Lei 1.171/2014
    ("sapezal-2014", "defence", D(2026, 9, 1), D(2026, 9, 16), "art. 53, § 1º"),  # 15 days to the body
    ("sapezal-2014", "appeal", D(2026, 9, 16), D(2026, 9, 28), "art. 53, § 2º"),  # 10 days: Saturday → Monday
    ("sapezal-2014", "selection-appeal", D(2026, 9, 1), D(2026, 9, 4), "art. 10, § 4º"),
    ("sapezal-2014", "selection-decision", D(2026, 9, 4), D(2026, 9, 10), "art. 10, § 5º"),  # over 07/09
    ("sapezal-2014", "winner-documents", D(2026, 9, 1), D(2026, 9, 16), "art. 11"),  # 10 business, over 07/09
    ("sapezal-2014", "permit-pickup", D(2026, 9, 1), D(2026, 9, 9), "art. 37"),
    ("sapezal-2014", "startup", D(2026, 9, 1), D(2026, 9, 11), "art. 35, VI, b"),
    ("sapezal-2014", "non-use", D(2026, 9, 1), D(2026, 10, 1), "art. 36, parágrafo único"),
    ("sapezal-2014", "licence-collection", D(2026, 9, 1), D(2026, 10, 1), "art. 60"),
    ("sapezal-2014", "licence-lapse", D(2026, 10, 1), D(2026, 10, 31), "art. 60, parágrafo único"),
    ("sapezal-2014", "renewal", D(2026, 12, 31), D(2026, 12, 1), "art. 5º, § 3º"),  # 30 days BEFORE
    ("sapezal-2014", "relocation-notice", D(2026, 9, 1), D(2026, 10, 1), "art. 19, § 1º"),
    # Ilha Comprida, Dec. 890/2017
    ("ilha-comprida-2017", "appeal", D(2026, 12, 23), D(2026, 12, 31), "art. 30"),  # 5 business days over Christmas
    ("ilha-comprida-2017", "area-swap-decision", D(2026, 4, 1), D(2026, 4, 24), "art. 13, § 1º"),
    ("ilha-comprida-2017", "startup", D(2026, 4, 1), D(2026, 4, 16), "art. 23, § 3º"),
]

HOUR_CASES = [
    ("olimpia-2025", "comply-street-vending", T(2026, 3, 20, 10, 30), T(2026, 3, 20, 11, 30), "art. 145, I"),
    # 24 hours from Friday end on Saturday: the same hour of Monday (art. 315; Lei 9.784/1999, art. 66, § 1º)
    ("olimpia-2025", "reclaim-perishable-street-vending", T(2026, 3, 20, 10, 0), T(2026, 3, 23, 10, 0), "art. 149"),
    ("olimpia-2025", "reclaim-perishable-feira", T(2026, 3, 20, 10, 0), T(2026, 3, 23, 10, 0), "art. 215, § 2º"),
    ("olimpia-2025", "reclaim-feira", T(2026, 3, 17, 7, 0), T(2026, 3, 20, 7, 0), "art. 215, § 2º"),
    ("olimpia-2025", "damage-report", T(2026, 3, 16, 22, 0), T(2026, 3, 18, 22, 0), "art. 91, § 4º"),
    ("olimpia-2025", "deposit-return", T(2026, 3, 16, 9, 0), T(2026, 3, 18, 9, 0), "art. 91, § 5º"),
    ("sjc-2014", "comply-warning", T(2026, 3, 19, 20, 0), T(2026, 3, 20, 20, 0), "art. 23"),  # at least 24 hours
    ("sjc-2014", "appeal", T(2026, 3, 20, 18, 0), T(2026, 3, 23, 18, 0), "art. 27, I"),  # 72 hours
]


def test_every_deadline_of_every_regime_has_a_case():
    covered = {(r, k) for r, k, *_ in CASES + HOUR_CASES}
    every = {(rid, kind) for rid, regime in REGIMES.items() for kind in deadline_kinds(regime)}
    assert every - covered == set()


@pytest.mark.parametrize("regime_id, kind, start, due, article", CASES)
def test_day_deadlines_against_their_article(regime_id, kind, start, due, article):
    result = compute_deadline(regime_id, kind, start)
    assert result.due == due
    assert result.due_time is None
    regime = REGIMES[regime_id]
    assert result.basis.startswith(f"{regime.short}, ") and article in result.basis
    assert f"{start:%d/%m/%Y}" in result.formula and f"{due:%d/%m/%Y}" in result.formula
    if result.extended:  # moved off a closed day: the rule is cited
        assert "9.784/1999, art. 66, § 1º" in result.basis or "art. 24, § 2º, I" in result.basis
    assert str(regime.deadline(kind).days) in result.formula


@pytest.mark.parametrize("regime_id, kind, start, due, article", HOUR_CASES)
def test_hour_deadlines_against_their_article(regime_id, kind, start, due, article):
    result = compute_deadline(regime_id, kind, start)
    assert result.due == due
    assert article in result.basis
    assert f"{due:%d/%m/%Y} (" in result.formula and f"às {due:%H:%M}" in result.formula


def test_the_worked_example_reads_in_words():
    result = compute_deadline("olimpia-2025", "defence", D(2026, 3, 3))
    assert result.formula == (
        "20 dias corridos a partir de 03/03/2026 (terça-feira), sem contar o dia do início: "
        "termina em 23/03/2026 (segunda-feira)"
    )
    assert result.basis == "LC 324/2025, art. 34"
    assert result.due_text == "até 23/03/2026 (segunda-feira)"


def test_business_days_skip_weekends_and_holidays_and_say_which():
    result = compute_deadline("olimpia-2025", "decision", D(2026, 4, 1))  # art. 38: 15 dias úteis
    assert result.due == D(2026, 4, 24)
    assert result.holidays == ((D(2026, 4, 3), "Sexta-feira Santa"), (D(2026, 4, 21), "Tiradentes"))
    assert "03/04 Sexta-feira Santa" in result.formula and "21/04 Tiradentes" in result.formula


def test_ilha_comprida_appeal_is_five_business_days_over_tiradentes():
    # art. 30: recurso em 5 dias úteis; 17/04/2026 is a Friday, 21/04 Tiradentes
    assert compute_deadline("ilha-comprida-2017", "appeal", D(2026, 4, 17)).due == D(2026, 4, 27)


def test_state_holiday_counts_in_sao_paulo_not_in_mato_grosso():
    # 09/07/2026 (Thursday): Revolução Constitucionalista, a holiday in SP only
    assert compute_deadline("ilha-comprida-2017", "appeal", D(2026, 7, 8)).due == D(2026, 7, 16)
    assert compute_deadline("sapezal-2014", "selection-decision", D(2026, 7, 8)).due == D(2026, 7, 13)


def test_carnaval_counts_unless_the_municipality_makes_it_a_holiday():
    assert compute_deadline("ilha-comprida-2017", "appeal", D(2026, 2, 13)).due == D(2026, 2, 20)
    carnaval = {D(2026, 2, 16): "Carnaval", D(2026, 2, 17): "Carnaval"}
    result = compute_deadline("ilha-comprida-2017", "appeal", D(2026, 2, 13), holidays=carnaval)
    assert result.due == D(2026, 2, 24)
    assert (D(2026, 2, 16), "Carnaval") in result.holidays
    # the same through a calendar of the caller's own
    cal = HolidayCalendar("SP", carnaval)
    assert compute_deadline("ilha-comprida-2017", "appeal", D(2026, 2, 13), calendar=cal).due == D(2026, 2, 24)


# --------------------------------------------------------------------------- the legal calendar


def test_perishables_ending_on_a_sunday_move_to_monday_olimpia_art_24_par_2_i():
    result = compute_deadline("olimpia-2025", "reclaim-perishable", D(2026, 4, 2))  # +3 = Sunday 05/04
    assert result.extended and result.unextended == D(2026, 4, 5)
    assert result.due == D(2026, 4, 6)
    assert result.due_text == "até o fim do expediente de 06/04/2026 (segunda-feira)"
    assert "art. 24, § 2º, I" in result.basis
    assert "→ prorrogado até o fim do expediente de 06/04/2026 (segunda-feira)" in result.formula


def test_perishables_ending_on_christmas_or_tiradentes_move_on():
    assert compute_deadline("olimpia-2025", "reclaim-perishable", D(2026, 12, 22)).due == D(2026, 12, 28)
    result = compute_deadline("olimpia-2025", "reclaim-perishable", D(2026, 4, 18))  # +3 = Tiradentes
    assert result.due == D(2026, 4, 22)
    assert (D(2026, 4, 21), "Tiradentes") in result.holidays


def test_perishables_ending_on_a_municipal_holiday_move_on():
    plain = compute_deadline("olimpia-2025", "reclaim-perishable", D(2026, 3, 2))
    assert plain.due == D(2026, 3, 5) and not plain.extended
    moved = compute_deadline(
        "olimpia-2025", "reclaim-perishable", D(2026, 3, 2), holidays={D(2026, 3, 5): "Aniversário do município"}
    )
    assert moved.due == D(2026, 3, 6) and moved.extended
    assert "feriado: Aniversário do município" in moved.formula


def test_an_appeal_ending_on_tiradentes_moves_to_the_next_business_day_olimpia_art_315_lei_9784_art_66():
    """Olímpia art. 41: 20 days from 01/04/2026 end on Tiradentes (21/04); LC 324/2025, art. 315 applies Lei
    9.784/1999, art. 66, § 1º subsidiarily: the appeal may be filed on 22/04."""
    result = compute_deadline("olimpia-2025", "appeal", D(2026, 4, 1))
    assert result.due == D(2026, 4, 22) and result.unextended == D(2026, 4, 21)
    assert result.extended and not result.ends_on_closed_day and result.closed_rule == "next-business-day"
    assert result.basis == "LC 324/2025, art. 41; art. 315; Lei nº 9.784/1999, art. 66, § 1º (aplicação subsidiária)"
    assert "cai em dia sem expediente (feriado: Tiradentes) → prorrogado até 22/04/2026" in result.formula
    assert result.due_text == "até 22/04/2026 (quarta-feira)"


def test_acts_that_say_nothing_move_by_lei_9784_art_66_par_1_cited_in_the_regime():
    """SJC art. 27, II: ten days from 15/12/2026 end on Christmas → Monday 28/12, by Lei 9.784/1999, art. 66,
    § 1º applied subsidiarily (the regime file's [calendar])."""
    christmas = compute_deadline("sjc-2014", "appeal-revocation", D(2026, 12, 15))
    assert christmas.due == D(2026, 12, 28) and christmas.extended
    assert (D(2026, 12, 25), "Natal") in christmas.holidays
    assert christmas.basis == "Lei 9.158/2014, art. 27, II; Lei nº 9.784/1999, art. 66, § 1º (aplicação subsidiária)"
    # Ilha Comprida art. 30 counts business days: it never ends on a closed day
    assert compute_deadline("ilha-comprida-2017", "appeal", D(2026, 12, 23)).closed_rule is None


def test_hours_ending_on_a_closed_day_move_to_the_same_hour_of_the_next_business_day_lei_9784_art_66():
    """Olímpia art. 215, § 2º: 72 hours from Saturday 18/04/2026 10:00 end on Tiradentes → 22/04 at 10:00.
    SJC art. 27, I: 72 hours from Thursday 19/03 18:00 end on Sunday → Monday 23/03 at 18:00."""
    result = compute_deadline("olimpia-2025", "reclaim-feira", T(2026, 4, 18, 10, 0))
    assert result.due == T(2026, 4, 22, 10, 0) and result.extended and result.unextended == T(2026, 4, 21, 10, 0)
    assert result.due_text == "até 22/04/2026 (quarta-feira) às 10:00"
    sjc = compute_deadline("sjc-2014", "appeal", T(2026, 3, 19, 18, 0))
    assert sjc.due == T(2026, 3, 23, 18, 0) and sjc.extended
    # SJC art. 27, I: 72 hours from Friday evening end on Monday evening, nothing to move
    assert compute_deadline("sjc-2014", "appeal", T(2026, 3, 20, 18, 0)).due == T(2026, 3, 23, 18, 0)


def test_a_deadline_outside_the_process_stays_on_its_closed_day_and_says_so():
    """Ilha Comprida art. 23, § 3º: the holder's 15 days to start are not a process deadline: they end where
    they fall, and the reckoning says why."""
    result = compute_deadline("ilha-comprida-2017", "startup", D(2026, 3, 7))
    assert result.due == D(2026, 3, 22) and result.ends_on_closed_day and not result.extended
    assert "não é prazo do processo administrativo" in result.formula


def test_a_deadline_can_switch_the_rule_off_where_the_act_says_so(tmp_path):
    """A regime declares closed_day = { rule = "stays", basis } on a deadline whose act says it does not move."""
    regime = _olimpia_with(
        tmp_path,
        'id = "appeal"\nlabel = "Recurso ao Conselho de Julgamento de Recursos"\n',
        'id = "appeal"\nlabel = "Recurso ao Conselho de Julgamento de Recursos"\n'
        'closed_day = { rule = "stays", basis = "art. 41" }\n',
    )
    result = compute_deadline(regime, "appeal", D(2026, 4, 1))
    assert result.due == D(2026, 4, 21) and result.ends_on_closed_day
    assert "o ato diz que não se prorroga (LC 324/2025, art. 41)" in result.formula


def test_hour_deadlines_need_the_time():
    with pytest.raises(UserError, match="contado em horas"):
        compute_deadline("sjc-2014", "appeal", D(2026, 3, 20))


def test_day_deadlines_take_a_datetime_as_its_day():
    result = compute_deadline("olimpia-2025", "defence", T(2026, 3, 3, 15, 40))
    assert result.due == D(2026, 3, 23)
    assert "03/03/2026 (terça-feira) às 15:40" in result.formula


def test_unknown_kind_lists_the_options():
    with pytest.raises(UserError, match="Prazo 'nada' não existe no regime sjc-2014"):
        compute_deadline("sjc-2014", "nada", D(2026, 3, 2))


def test_to_dict_is_json_ready():
    data = compute_deadline("olimpia-2025", "reclaim-perishable", D(2026, 4, 2)).to_dict()
    assert data["due"] == "2026-04-06" and data["unextended"] == "2026-04-05" and data["extended"] is True
    assert data["count_text"] == "dias corridos" and data["from"] == "seizure"
    hours = compute_deadline("sjc-2014", "appeal", T(2026, 3, 20, 18, 0)).to_dict()
    assert hours["due"] == "2026-03-23T18:00" and hours["due_time"] == "18:00"


# --------------------------------------------------------------------------- the regime format


def _olimpia_with(tmp_path: Path, old: str, new: str):
    text = (default_regimes_folder() / "olimpia-2025.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "olimpia-2025.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_regime_file(path)


def test_the_acts_own_closed_day_rule_is_read_with_its_article_olimpia_art_24_par_2_i():
    deadline = REGIMES["olimpia-2025"].deadline("reclaim-perishable")
    assert deadline.closed_day is not None and deadline.closed_day.rule == "end-of-next-business-day"
    assert deadline.closed_day.basis == "art. 24, § 2º, I"
    stays = REGIMES["olimpia-2025"].deadline("comply-street-vending").closed_day  # "em no máximo 1 hora"
    assert stays.rule == "stays" and stays.basis == "art. 145, I"
    assert all(
        d.closed_day is None
        for r in REGIMES.values()
        for d in r.deadlines
        if (r.id, d.id) not in (("olimpia-2025", "reclaim-perishable"), ("olimpia-2025", "comply-street-vending"))
    )


def test_a_closed_day_move_is_refused_on_a_deadline_counted_backwards(tmp_path):
    with pytest.raises(RegimeError) as error:
        _olimpia_with(
            tmp_path,
            'from = "request-received"\n',
            'from = "request-received"\ndirection = "before"\n'
            'closed_day = { rule = "next-business-day", basis = "art. 1º" }\n',
        )
    assert error.value.key.endswith("closed_day")


def test_the_acts_own_rule_needs_its_article(tmp_path):
    with pytest.raises(RegimeError) as error:
        _olimpia_with(
            tmp_path,
            'closed_day = { rule = "end-of-next-business-day", basis = "art. 24, § 2º, I",',
            'closed_day = { rule = "end-of-next-business-day",',
        )
    assert "basis" in error.value.key


def test_the_old_next_business_day_key_says_what_replaced_it(tmp_path):
    with pytest.raises(RegimeError, match="closed_day"):
        _olimpia_with(
            tmp_path,
            'closed_day = { rule = "end-of-next-business-day", basis = "art. 24, § 2º, I",',
            'next_business_day = { basis = "art. 24, § 2º, I",',
        )


# --------------------------------------------------------------------------- properties

ALL_KINDS = sorted((rid, kind) for rid, regime in REGIMES.items() for kind in deadline_kinds(regime))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(ALL_KINDS),
    st.datetimes(min_value=T(2024, 1, 1), max_value=T(2031, 12, 31)).map(lambda x: x.replace(second=0, microsecond=0)),
)
def test_due_follows_the_rules(regime_kind, start):
    regime_id, kind = regime_kind
    regime = REGIMES[regime_id]
    deadline = regime.deadline(kind)
    cal = HolidayCalendar.for_regime(regime)
    result = compute_deadline(regime, kind, start if deadline.count == "hours" else start.date())
    begin = start if deadline.count == "hours" else start.date()
    if deadline.direction == "after":
        assert result.due >= begin
    else:
        assert result.due <= begin
    if deadline.count == "business":
        assert cal.is_business_day(result.due_date)
        assert result.holidays == tuple(x for x in result.holidays if not cal.is_business_day(x[0]))
    elif deadline.count == "calendar" and not result.extended:
        sign = 1 if deadline.direction == "after" else -1
        assert result.due == start.date() + dt.timedelta(days=sign * deadline.days)
    elif deadline.count == "hours" and not result.extended:
        sign = 1 if deadline.direction == "after" else -1
        assert result.due == start + dt.timedelta(hours=sign * deadline.hours)
    if result.extended:
        assert cal.is_business_day(result.due_date)
        assert regime.closed_day_rule(deadline) is not None
        was = result.unextended.date() if isinstance(result.unextended, dt.datetime) else result.unextended
        assert 0 < (result.due_date - was).days <= 5  # never beyond the first business day
        assert all(not cal.is_business_day(was + dt.timedelta(days=i)) for i in range((result.due_date - was).days))
        if deadline.count == "hours" and regime.closed_day_rule(deadline).rule == "next-business-day":
            assert result.due_time == result.unextended.time()  # the same hour of the next business day
    assert result.ends_on_closed_day == (not result.extended and not cal.is_business_day(result.due_date))


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=D(2024, 1, 1), max_value=D(2031, 12, 31)), st.integers(min_value=1, max_value=40))
def test_business_days_counted_one_by_one(start, n):
    cal = HolidayCalendar("SP")
    due, _ = cal.shift_business_days(start, n)
    days = [start + dt.timedelta(days=i) for i in range(1, (due - start).days + 1)]
    assert sum(cal.is_business_day(d) for d in days) == n
    assert cal.is_business_day(due)
    back, _ = cal.shift_business_days(due, -n)
    assert back <= start and cal.business_day_on_or_after(back) == back


# --------------------------------------------------------------------------- parsing dates


@given(st.dates(min_value=D(1990, 1, 1), max_value=D(2100, 12, 31)))
def test_parse_moment_reads_both_date_forms(day):
    assert parse_moment(day.isoformat()) == day
    assert parse_moment(day.strftime("%d/%m/%Y")) == day


@given(st.datetimes(min_value=T(1990, 1, 1), max_value=T(2100, 12, 31)))
def test_parse_moment_reads_date_and_time(moment):
    moment = moment.replace(second=0, microsecond=0)
    for text in (
        moment.strftime("%Y-%m-%d %H:%M"),
        moment.strftime("%Y-%m-%dT%H:%M"),
        moment.strftime("%d/%m/%Y %H:%M"),
        moment.strftime("%d/%m/%Y %Hh%M"),
    ):
        assert parse_moment(text) == moment


@pytest.mark.parametrize("text", ["2026-02-30", "31/04/2026"])
def test_parse_moment_names_a_day_the_calendar_does_not_have(text):
    with pytest.raises(UserError) as error:
        parse_moment(text)
    assert (
        "\n" not in error.value.message and "não existe" in error.value.message and "não tem dia" in error.value.message
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  ",
        "2026/03/03",
        "03-03-2026",
        "amanhã",
        "2026-03-03 25:00",
        "2026-03-03 10:61",
        "2026-03-03 10",
        "2026-03-03 10:00 x",
    ],
)
def test_parse_moment_refuses_with_one_line(text):
    with pytest.raises(UserError) as error:
        parse_moment(text)
    assert "\n" not in error.value.message and "AAAA-MM-DD ou DD/MM/AAAA" in error.value.message
