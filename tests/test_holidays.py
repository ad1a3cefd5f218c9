"""The town's own calendar (issue 28 §1): holidays and optional closures in the database, counted by every deadline.

Lei 9.784/1999, art. 66, § 1º (applied subsidiarily by the acts, [calendar] closed_day): a deadline that ends on a
day without office hours moves to the next business day — a municipal holiday is such a day. Database tests run on
SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import type_text
from factories import draft, person
from factories import issue_record as issue
from hypothesis import given
from hypothesis import strategies as st

from desktop.cli import main
from models import enforcement as enf
from models.access.session import PermissionDenied, Session, acting_as
from models.base.errors import FieldErrors, UserError
from models.rules import holidays
from models.rules.deadlines import compute_deadline
from models.rules.holidays import easter, parse_when

OLIMPIA = ("Olímpia", "SP")
ATENDENTE = Session(None, "atendente.ana", "Ana Atendente", "atendente")


# --------------------------------------------------------------------------- when it falls (no database)


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2199, 12, 31)))
def test_a_day_typed_either_way_is_that_day(day):
    assert parse_when(day.strftime("%d/%m/%Y")).day == day
    assert parse_when(day.isoformat()).day == day
    annual = parse_when(day.strftime("%d/%m"))
    assert (annual.rule, annual.month, annual.day_of_month) == ("annual", day.month, day.day)


@given(st.integers(min_value=-120, max_value=120))
def test_days_from_easter(offset):
    text = "Páscoa" if offset == 0 else f"Páscoa{offset:+d}"
    assert parse_when(text).easter_offset == offset
    assert parse_when(text.lower().replace("á", "a")).easter_offset == offset


@given(st.text(max_size=20))
def test_anything_else_is_refused_with_the_forms_never_crashes(text):
    try:
        parse_when(text)
    except UserError as exc:
        assert exc.field == "when" and "\n" not in exc.message
    # whatever parses is one of the three rules
    else:
        assert parse_when(text).rule in holidays.RULES


@pytest.mark.parametrize("text", ["32/01", "29/02/2027", "31/04/2026", "Páscoa+500", "amanhã", "20-01-2026"])
def test_impossible_days_are_refused(text):
    with pytest.raises(UserError):
        parse_when(text)


@pytest.mark.parametrize(
    "year, day",
    [
        (2024, dt.date(2024, 3, 31)),
        (2025, dt.date(2025, 4, 20)),
        (2026, dt.date(2026, 4, 5)),
        (2027, dt.date(2027, 3, 28)),
    ],
)
def test_easter_sunday(year, day):
    assert easter(year) == day


# --------------------------------------------------------------------------- the defect: a defence on time


def test_a_defence_filed_the_business_day_after_a_municipal_holiday_is_on_time(keys):
    """LC 324/2025, art. 34: 20 days from the receipt of the auto; notified on 31/12/2025 it ends on 20/01/2026 —
    São Sebastião, a municipal holiday in Olímpia — so it moves to 21/01/2026 (art. 315; Lei 9.784/1999, art. 66,
    § 1º). Entered after the record was issued, the holiday moves the running deadline, the desk says so, and a
    defence filed on 21/01 is on time."""
    holder = person("Vendedor de Olímpia")
    record = issue(
        draft("olimpia-2025", ["feira-sem-autorizacao"], "31/12/2025 09:00", holder=holder),
        today=dt.date(2025, 12, 31),
    )
    defence = next(d for d in record.deadline_data if d["role"] == "defence")
    assert defence["due_date"] == "2026-01-20" and "moved_from" not in defence

    holidays.add_holiday(*OLIMPIA, "20/01", name="São Sebastião", source="Lei Municipal nº 1.000/1990")
    defence = next(d for d in record.deadline_data if d["role"] == "defence")
    assert defence["due_date"] == "2026-01-21" and defence["moved_from"].startswith("até 20/01/2026")
    issued = next(d for d in record.issued_deadline_data if d["role"] == "defence")
    assert issued["due_date"] == "2026-01-20"  # the record as issued is never rewritten
    row = next(r for r in enf.deadline_rows(record, dt.date(2026, 1, 5)) if r.role == "defence")
    assert "antes: até 20/01/2026" in row.moved and "São Sebastião" in row.moved
    moved = enf.moved_deadlines(dt.date(2026, 1, 5), municipality="Olímpia")
    assert [(m.reference, m.now[:14]) for m in moved if "Defesa" in m.label] == [(record.reference, "até 21/01/2026")]
    assert enf.moved_deadlines(dt.date(2026, 1, 5), municipality="Sapezal") == []

    contest = enf.file_contest(record, kind="defence", filed_on=dt.date(2026, 1, 21), by="protocolo", grounds="x")
    assert contest.on_time


def test_a_holiday_of_another_town_moves_nothing_here(keys):
    holidays.add_holiday("Sapezal", "MT", "20/01", name="Padroeiro", source="Lei Municipal nº 1/2000")
    result = compute_deadline("olimpia-2025", "defence", dt.date(2025, 12, 31))
    assert result.due_date == dt.date(2026, 1, 20)
    here = compute_deadline("sapezal-2014", "defence", dt.date(2026, 1, 5))
    assert any("Padroeiro" in name for _d, name in here.holidays) or here.due_date < dt.date(2026, 1, 20)


def test_an_optional_closure_closes_the_office_and_a_removed_day_counts_again(keys):
    """Carnaval's Tuesday is a ponto facultativo — not a holiday unless the town decrees the closure."""
    carnival = easter(2026) - dt.timedelta(days=47)  # 17/02/2026
    start = carnival - dt.timedelta(days=20)
    assert compute_deadline("olimpia-2025", "defence", start).due_date == carnival
    row = holidays.add_holiday(*OLIMPIA, "Páscoa-47", name="Carnaval", source="Decreto nº 8.000/2026", kind="optional")
    result = compute_deadline("olimpia-2025", "defence", start)
    assert result.due_date == carnival + dt.timedelta(days=1)
    assert "Carnaval (ponto facultativo, Decreto nº 8.000/2026)" in result.formula
    holidays.remove_holiday(row.id, reason="Decreto revogado")
    assert compute_deadline("olimpia-2025", "defence", start).due_date == carnival
    kept = holidays.list_holidays(*OLIMPIA, include_removed=True)
    assert [(r.name, r.removed_reason) for r in kept] == [("Carnaval", "Decreto revogado")]


def test_bad_input_and_duplicates_are_refused_whole(keys):
    with pytest.raises(FieldErrors) as caught:
        holidays.add_holiday(*OLIMPIA, "32/01", name="", source="")
    assert set(caught.value.errors) == {"when", "name", "source"}
    holidays.add_holiday(*OLIMPIA, "20/01", name="São Sebastião", source="Lei nº 1")
    with pytest.raises(UserError, match="já está no calendário de Olímpia/SP"):
        holidays.add_holiday("olímpia ", "sp", "20/01", name="Outro", source="Lei nº 2")
    assert len(holidays.list_holidays(*OLIMPIA)) == 1


def test_only_a_chefe_or_the_administrator_changes_the_calendar(keys):
    with acting_as(ATENDENTE), pytest.raises(PermissionDenied, match="chefe"):
        holidays.add_holiday(*OLIMPIA, "20/01", name="São Sebastião", source="Lei nº 1")
    assert holidays.list_holidays() == []


# --------------------------------------------------------------------------- the command line


def test_the_command_line_adds_lists_imports_and_removes(database, capsys, tmp_path):
    from models.store.bootstrap import close_database

    close_database()
    base = ["--db", database, "holidays"]
    assert (
        main([*base, "add", "20/01", "--name", "São Sebastião", "--source", "Lei nº 1", "--regime", "olimpia-2025"])
        == 0
    )
    assert "Cadastrado: nº 1 — São Sebastião (feriado), 20/01, todo ano, Olímpia/SP." in capsys.readouterr().out
    csv = tmp_path / "feriados.csv"
    csv.write_text(
        "data;nome;fonte;tipo\n19/03;São José;Lei nº 2;feriado\nPáscoa-47;Carnaval;Decreto nº 3;ponto facultativo\n",
        encoding="utf-8",
    )
    assert main([*base, "import", str(csv), "--regime", "olimpia-2025"]) == 0
    assert "Importados 2 feriado(s) para Olímpia/SP." in capsys.readouterr().out
    assert main([*base, "list", "--regime", "olimpia-2025", "--year", "2026", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(h["name"], h["dates"]) for h in listed] == [
        ("São Sebastião", ["2026-01-20"]),
        ("São José", ["2026-03-19"]),
        ("Carnaval", ["2026-02-17"]),
    ]
    assert (
        main(["--db", database, "deadline", "--regime", "olimpia-2025", "--kind", "defence", "--from", "31/12/2025"])
        == 0
    )
    assert "Termina: até 21/01/2026" in capsys.readouterr().out
    assert main([*base, "remove", "1", "--reason", "Lei revogada"]) == 0
    assert "Removido: nº 1" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["add", "32/01", "--name", "x", "--source", "y", "--regime", "olimpia-2025"], "Dia impossível"),
        (["add", "20/01", "--name", "x", "--source", "y"], "--regime"),
        (["add", "20/01", "--source", "y", "--regime", "olimpia-2025"], "Informe o nome do feriado"),
        (["remove", "um", "--reason", "x"], "Número de feriado inválido"),
        (["remove", "99", "--reason", "x"], "não existe"),
        (["list", "--year", "26"], "Ano inválido"),
    ],
)
def test_bad_input_is_one_line(database, capsys, argv, fragment):
    from models.store.bootstrap import close_database

    close_database()
    assert main(["--db", database, "holidays", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err


def test_a_csv_with_a_bad_line_imports_nothing(database, capsys, tmp_path):
    from models.store.bootstrap import close_database

    close_database()
    csv = tmp_path / "feriados.csv"
    csv.write_text("data;nome;fonte\n20/01;São Sebastião;Lei nº 1\n31/02;Errado;Lei nº 2\n", encoding="utf-8")
    assert main(["--db", database, "holidays", "import", str(csv), "--regime", "olimpia-2025"]) == 2
    assert "linha 3" in capsys.readouterr().err
    assert main(["--db", database, "holidays", "list"]) == 0
    assert "Nenhum feriado municipal cadastrado" in capsys.readouterr().out


# --------------------------------------------------------------------------- the desk


def test_cadastros_feriados_adds_shows_and_says_which_deadlines_moved(keys, app_ready, qtbot):
    from views.holidays_page import HolidaysPage

    record = issue(
        draft("olimpia-2025", ["feira-sem-autorizacao"], "31/12/2025 09:00", holder=person("Feirante Antunes")),
        today=dt.date(2025, 12, 31),
    )
    page = HolidaysPage(today=dt.date(2026, 1, 5))
    qtbot.addWidget(page)
    page.resize(1100, 700)
    page.show()
    page.refresh()
    assert page.choose_town(*OLIMPIA)
    page.year.setValue(2026)
    type_text(page.when, "32/01")
    type_text(page.name, "São Sebastião")
    type_text(page.source, "Lei Municipal nº 1.000/1990")
    qtbot.mouseClick(page.add_button, qtbot_left())
    assert "Dia impossível" in page.error.text() and page.when.toolTip()
    assert page.model.rowCount() == 0
    page.when.clear()
    type_text(page.when, "20/01")
    qtbot.mouseClick(page.add_button, qtbot_left())
    assert page.model.rowCount() == 1
    assert page.model.index(0, 2).data() == "20/01/2026"
    assert "1 prazo(s) em curso recalculado(s)" in page.message.text()
    assert record.reference in page.moved.toPlainText() and "até 21/01/2026" in page.moved.toPlainText()
    page.table.selectRow(0)
    assert page.remove_button.isEnabled()
    assert page.remove(page.model.rows[0].id, "Lei revogada")
    assert page.model.rowCount() == 0
    page.show_removed.setChecked(True)
    assert page.model.rowCount() == 1 and "Lei revogada" in page.model.index(0, 6).data()


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


# --------------------------------------------------------------------------- the office's hours


@given(st.integers(0, 22), st.integers(0, 59), st.integers(1, 23), st.integers(0, 59))
def test_office_hours_typed_any_usual_way(h1, m1, h2, m2):
    text = f"{h1:02d}:{m1:02d}-{h2:02d}:{m2:02d}"
    if (h2, m2) <= (h1, m1):
        with pytest.raises(UserError, match="termina antes de começar"):
            holidays.parse_office_hours(text)
    else:
        assert holidays.parse_office_hours(text) == (dt.time(h1, m1), dt.time(h2, m2))
        assert holidays.parse_office_hours(f"{h1}h{m1:02d} às {h2}h{m2:02d}") == (dt.time(h1, m1), dt.time(h2, m2))


def test_an_hour_count_ending_after_the_office_closed_hands_both_readings_to_the_authority(keys):
    """Lei 9.158/2014 (SJC), art. 23: 24 hours from the notice; notified on Monday 23/03/2026 at 18:30 it ends on
    Tuesday at 18:30, after the office closed (17:00): the act is silent, so the result says so and offers the hour
    counted and the end of the next office period (by analogy with Lei 9.784/1999, art. 66, § 1º)."""
    start = dt.datetime(2026, 3, 23, 18, 30)
    assert compute_deadline("sjc-2014", "comply-warning", start).readings == ()  # no office hours set: nothing said
    holidays.set_office_hours("08:00-17:00")
    result = compute_deadline("sjc-2014", "comply-warning", start)
    assert result.due == dt.datetime(2026, 3, 24, 18, 30)  # the figure stays the hour counted until decided
    assert len(result.readings) == 2
    assert "termina na hora contada, 24/03/2026 (terça-feira) às 18:30" in result.readings[0]
    assert "17:00 de 25/03/2026" in result.readings[1] and "art. 66, § 1º" in result.readings[1]
    assert "fora do expediente da repartição (08:00–17:00)" in result.formula
    inside = compute_deadline("sjc-2014", "comply-warning", dt.datetime(2026, 3, 23, 10, 0))
    assert inside.readings == ()
    before_opening = compute_deadline("sjc-2014", "comply-warning", dt.datetime(2026, 3, 23, 6, 0))
    assert "17:00 de 24/03/2026" in before_opening.readings[1]  # the same day's office period


def test_the_desk_shows_the_readings_on_the_record(keys, inpc, capsys, database):
    holidays.set_office_hours("8h às 17h")
    record = issue(
        draft("sjc-2014", ["sujeira"], "23/03/2026 18:30", holder=person("Feirante Noturno")),
        today=dt.date(2026, 3, 23),
    )
    rows = [r for r in enf.deadline_rows(record, dt.date(2026, 3, 23)) if r.readings]
    assert rows and "mesmo com a repartição fechada" in rows[0].readings[0]
    assert main(["--db", database, "holidays", "office-hours"]) == 0
    assert "Expediente da repartição: 08:00–17:00" in capsys.readouterr().out
