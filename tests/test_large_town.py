"""The paths a large town takes (bench/README.md): bulk inserts, the month's run in batches, the prefix search by
range, the Painel's pre-filter, the map's spots when zoomed out, the desks built when first shown."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from factories import new_cpf, person, sjc_stall
from hypothesis import given
from hypothesis import strategies as st

import models.billing.charges as charges
from models.base.errors import FieldErrors
from models.billing.charges import Charge, generate_month
from models.registry.applications import next_number, next_numbers
from models.registry.search import _ALPHABET, find_applicants, prefix_upper
from models.store.audit import AuditEntry, bulk_rows
from models.store.db import db


def bulk_entries(table: str) -> list[AuditEntry]:
    return list(
        AuditEntry.select()
        .where((AuditEntry.table_name == table) & (AuditEntry.action == "insert"))
        .order_by(AuditEntry.id)
    )


# --------------------------------------------------------------------------- bulk writes


def test_insert_rows_converts_audits_once_and_refuses_a_text_too_long(database):
    from models.billing.fiscal import IndexCorrection

    fields = [
        IndexCorrection.index,
        IndexCorrection.year,
        IndexCorrection.rate,
        IndexCorrection.entered_by,
        IndexCorrection.entered_at,
        IndexCorrection.reason,
    ]
    at = dt.datetime(2026, 11, 30, 9, 0)
    rows = [("INPC", 2030 + i, Decimal("0.0523"), "teste", at, "carga") for i in range(3)]
    assert IndexCorrection.insert_rows(fields, rows) == 3
    stored = list(IndexCorrection.select().where(IndexCorrection.year >= 2030).order_by(IndexCorrection.year))
    assert [(r.year, r.rate, r.entered_at) for r in stored] == [(2030 + i, Decimal("0.0523"), at) for i in range(3)]
    entry = bulk_entries("index_correction")[-1]
    listed = bulk_rows(entry.after)
    assert "3 registro(s)" in entry.note and len(listed) == 3
    assert listed[0] == {
        "index": "INPC",
        "year": 2030,
        "rate": "0.0523",
        "entered_by": "teste",
        "entered_at": "2026-11-30T09:00:00",
        "reason": "carga",
    }
    with pytest.raises(FieldErrors) as caught:
        IndexCorrection.insert_rows(fields, [("X" * 17, 2040, Decimal(0), "teste", at, "")])
    assert "index" in caught.value.errors
    assert IndexCorrection.select().where(IndexCorrection.year == 2040).count() == 0


def test_insert_rows_keeps_apart_values_equal_but_written_differently(database):
    from models.billing.fiscal import IndexCorrection

    fields = [
        IndexCorrection.index,
        IndexCorrection.year,
        IndexCorrection.rate,
        IndexCorrection.entered_by,
        IndexCorrection.entered_at,
        IndexCorrection.reason,
    ]
    at = dt.datetime(2026, 11, 30, 9, 0)
    rates = [Decimal("0.05"), Decimal("0.050"), Decimal("0.05")]
    IndexCorrection.insert_rows(fields, [("INPC", 2050 + i, rate, "teste", at, "") for i, rate in enumerate(rates)])
    stored = db.execute_sql("SELECT rate FROM index_correction WHERE year >= 2050 ORDER BY year").fetchall()
    assert [r for (r,) in stored] == ["0.05", "0.050", "0.05"]  # each as written, though equal as numbers
    assert [row["rate"] for row in bulk_rows(bulk_entries("index_correction")[-1].after)] == ["0.05", "0.050", "0.05"]


def test_a_bulk_insert_of_rows_with_different_keys_is_audited_as_they_came(database):
    from models.registry.people import Person

    Person.insert_many(
        [
            {"name": "Ana", "cpf": "52998224725", "search_name": "ana"},
            {"name": "Bia", "cpf": "11144477735", "search_name": "bia", "phone": "12 3456-7890"},
        ]
    ).execute()
    after = bulk_entries("person")[-1].after
    assert bulk_rows(after) == [
        {"name": "Ana", "cpf": "52998224725", "search_name": "ana"},
        {"name": "Bia", "cpf": "11144477735", "search_name": "bia", "phone": "12 3456-7890"},
    ]
    assert '"values"' not in after  # no key Ana left out is written as null: the field's default filled it


def test_numbers_taken_at_once_stay_gapless(database):
    with db.atomic():
        first = next_number("bench-test")
        block = next_numbers("bench-test", 3)
        after = next_number("bench-test")
    assert (first, list(block), after) == (1, [2, 3, 4], 5)


def test_the_month_run_writes_in_batches_numbered_without_gaps(keys, inpc, monkeypatch):
    monkeypatch.setattr(charges.month, "_BATCH", 2)
    for name in ("Ana Souza", "Bruno Lima", "Carla Dias", "Davi Rocha", "Eva Nunes"):
        sjc_stall(keys, name)
    seen = []
    created = generate_month(
        2026, 9, by="tesouraria", today=dt.date(2026, 9, 1), progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(2, 5), (4, 5), (5, 5)]
    numbers = [int(c.number.split("/")[1]) for c in created]
    assert numbers == list(range(numbers[0], numbers[0] + 5))
    stored = {c.id: (c.number, c.key, c.amount, c.due_on, c.status) for c in Charge.select()}
    assert {c.id: (c.number, c.key, c.amount, c.due_on, c.status) for c in created} == stored
    assert [len(bulk_rows(e.after)) for e in bulk_entries("charge")] == [2, 2, 1]
    assert generate_month(2026, 9, by="tesouraria", today=dt.date(2026, 9, 1)) == []


# --------------------------------------------------------------------------- search by prefix


@given(st.text(_ALPHABET, min_size=1, max_size=6), st.text(_ALPHABET, max_size=14))
def test_a_prefix_is_a_range(fragment, value):
    upper = prefix_upper(fragment)
    assert (value >= fragment and (upper is None or value < upper)) == value.startswith(fragment)


def test_a_cpf_typed_in_part_finds_what_starts_with_it(database):
    people = [
        person(f"Pessoa {name}", cpf=cpf)
        for name, cpf in (("Um", "52998224725"), ("Dois", "52999999925"), ("Tres", new_cpf()), ("Quatro", new_cpf()))
    ]
    for someone in people:
        for size in (3, 4, 9, 11):
            typed = someone.cpf[:size]
            expected = {p.id for p in people if p.cpf.startswith(typed)}
            assert {m.id for m in find_applicants(typed) if m.kind == "person"} == expected, typed
    punctuated = f"{people[1].cpf[:3]}.{people[1].cpf[3:6]}.{people[1].cpf[6:9]}"
    assert {m.id for m in find_applicants(punctuated)} == {people[1].id}


# --------------------------------------------------------------------------- the Painel


def test_the_painel_reads_only_permits_that_can_be_due_and_lists_the_same(demo_database, monkeypatch):
    import models.permits as permits
    import models.permits.today as today_module

    everything = today_module._maybe_due
    for day in (dt.date(2026, 11, 30), dt.date(2027, 1, 8), dt.date(2027, 9, 20), dt.date(2027, 12, 20)):
        filtered = permits.today_items(day)
        monkeypatch.setattr(today_module, "_maybe_due", lambda *args: permits.Permit.id > 0)
        assert permits.today_items(day) == filtered, day
        monkeypatch.setattr(today_module, "_maybe_due", everything)


# --------------------------------------------------------------------------- the map far out


def test_far_out_the_scene_draws_the_stalls_as_spots(editor):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QGraphicsItem

    no_contents = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents

    def render() -> QImage:
        image = QImage(editor.view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.white)
        painter = QPainter(image)
        editor.view.render(painter)
        painter.end()
        return image

    editor.view.zoom_by(1e-6)  # as far out as the view goes: a stall is under a pixel
    assert editor.scene.far and all(item.flags() & no_contents for item in editor.items.values())
    render()
    spots = {colour.name().upper(): len(rects) for colour, rects in editor.scene._spots}
    expected = {}
    for item in editor.items.values():
        hex_code = editor.plan.entry(item.box).hex.upper()
        expected[hex_code] = expected.get(hex_code, 0) + 1
    assert spots == expected and sum(spots.values()) == 4
    editor.scene.clearSelection()
    next(iter(editor.items.values())).setSelected(True)  # the selected stall is a blue spot
    render()
    assert {colour.name().upper(): len(rects) for colour, rects in editor.scene._spots}.get("#1E88E5") == 1
    editor.view.fit_across()
    assert not editor.scene.far and not any(item.flags() & no_contents for item in editor.items.values())
    render()


# --------------------------------------------------------------------------- start-up


def test_only_the_desk_on_screen_is_built_at_start(app_ready, qtbot, sqlite_database):
    from PySide6.QtCore import QSettings

    from desktop.main_window import MainWindow

    QSettings().clear()
    window = MainWindow()
    qtbot.addWidget(window)
    assert list(window.pages.built) == ["painel"]
    window.show_desk("cobranca")
    assert list(window.pages.built) == ["painel", "cobranca"]
    assert window.stack.currentWidget() is window.pages["cobranca"]
    assert len(window.pages) == window.stack.count() == 8
