"""The map editor: the plan's undo commands on a bare QUndoStack, and the real editor driven with qtbot."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

import pytest
from conftest import run_modal, type_text
from factories import placed_stall as stall
from factories import uid_of
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.sites import Plan
from models.sites.layout import Segment, format_metres
from models.sites.stall_plan import GRID, HolderInfo, StallPlan, legend
from views.map_editor import PlanCommand, push_change

SJC = get_regime("sjc-2014")


def bare_plan(*stalls, length="60", width="10", gap="0.50") -> StallPlan:
    plan = Plan(
        site_id=1,
        segment_id=1,
        regime=SJC,
        segment=Segment(
            length=D(length),
            width=D(width),
            street="Avenida Andrômeda",
            from_street="Rua Júpiter",
            to_street="Rua Saturno",
        ),
        obstacles=(),
        stalls=tuple(stalls),
        gap=D(gap),
        max_points=None,
        numbering="sequential",
        avoid=(),
    )
    return StallPlan(plan)


def snapshot(plan: StallPlan) -> dict:
    return dict(plan.stalls)


@pytest.fixture
def three():
    return bare_plan(stall(1, "0"), stall(2, "4"), stall(3, "8"))


# --------------------------------------------------------------------------- commands on a bare stack


def test_every_command_undoes_and_redoes_exactly(qapp, three):
    plan = three
    stack = QUndoStack()
    a, b, c = (uid_of(plan, n) for n in (1, 2, 3))
    start = snapshot(plan)
    edits = [
        ("move", plan.moved([b], 2000, 0)),
        ("rotate", lambda: plan.rotated([c])),
        ("resize", lambda: plan.resized(a, 2500, 1500)[0]),
        ("align", lambda: plan.aligned([a, b, c], "bottom")),
        ("distribute", lambda: plan.distributed([a, b, c])),
        ("add", lambda: plan.added(section="vi", x=30_000)[1]),
        ("assign", lambda: plan.assigned(b, HolderInfo(7, "2026/00007", "Ana Souza", "vi"))),
        ("delete", lambda: plan.deleted([c])),
    ]
    states = [start]
    for name, make in edits:
        changes = make() if callable(make) else make
        assert changes, name
        assert push_change(stack, plan, changes, name)
        assert snapshot(plan) != states[-1], name
        states.append(snapshot(plan))
    assert stack.count() == len(edits)
    for expected in reversed(states[:-1]):
        stack.undo()
        assert snapshot(plan) == expected
    for expected in states[1:]:
        stack.redo()
        assert snapshot(plan) == expected


def test_move_rotate_resize_in_millimetres(qapp, three):
    plan = three
    stack = QUndoStack()
    b = uid_of(plan, 2)
    push_change(stack, plan, plan.moved([b], 3000, 0, snap=False), "mover")
    assert (plan.stalls[b].x, plan.stalls[b].y) == (7000, 0)
    # turned about its centre, kept on its kerb
    push_change(stack, plan, plan.rotated([b]), "girar")
    box = plan.stalls[b]
    assert (box.rotation, box.along, box.across, box.y) == (90, 2000, 3000, 0)
    assert box.x == 7000 + (3000 - 2000) // 2
    stack.undo()
    stack.undo()
    assert (plan.stalls[b].x, plan.stalls[b].rotation) == (4000, 0)


def test_resize_stays_within_what_the_line_allows(qapp):
    plan = bare_plan(stall(1, "0", section="xvi", line="pastel", width="12", depth="3.5"))
    uid = uid_of(plan, 1)
    changes, limit, clamped = plan.resized(uid, 15_000, 5_000)
    assert clamped and changes == {}  # already at the pastel line's maximum, 12,00 × 3,50 m (art. 5º)
    assert (limit.max_front, limit.max_depth) == (12_000, 3_500)
    assert limit.basis == "Lei 9.158/2014, art. 5º, IV"
    changes, _, clamped = plan.resized(uid, 10_000, 3_000)
    assert not clamped and (changes[uid].front, changes[uid].depth) == (10_000, 3_000)


def test_nudges_of_the_same_stalls_merge_into_one_step(qapp, three):
    plan = three
    stack = QUndoStack()
    a = uid_of(plan, 1)
    for _ in range(3):
        stack.push(PlanCommand(plan, plan.nudged([a], 100, 0), "empurrar", merge=True))
    assert stack.count() == 1 and plan.stalls[a].x == 300
    # another stall: a step of its own; a drag never merges
    b = uid_of(plan, 2)
    stack.push(PlanCommand(plan, plan.nudged([b], 0, 100), "empurrar", merge=True))
    stack.push(PlanCommand(plan, plan.moved([b], 1000, 0, snap=False), "arrastar"))
    stack.push(PlanCommand(plan, plan.moved([b], 1000, 0, snap=False), "arrastar"))
    assert stack.count() == 4
    stack.undo()
    stack.undo()
    stack.undo()
    stack.undo()
    assert plan.stalls[a].x == 0 and plan.stalls[b].x == 4000


def test_nudges_that_come_back_leave_no_step(qapp, three):
    plan = three
    stack = QUndoStack()
    a = uid_of(plan, 1)
    stack.push(PlanCommand(plan, plan.nudged([a], 100, 0), "empurrar", merge=True))
    stack.push(PlanCommand(plan, plan.nudged([a], -100, 0), "empurrar", merge=True))
    assert stack.count() == 0 and plan.stalls[a].x == 0


def test_snap_to_grid_neighbour_and_kerb(qapp):
    plan = bare_plan(stall(1, "0"), stall(2, "20"))
    b = uid_of(plan, 2)
    # far from anything: the 0,10 m grid
    assert plan.moved([b], 5_037, 0, tolerance=200)[b].x == 25_000
    assert plan.moved([b], 5_071, 0, tolerance=20)[b].x == 25_100
    # near stall 1: right behind it, at the minimum gap (0,50 m)
    change = plan.moved([b], -16_300, 0, tolerance=300)[b]
    assert change.x == 3_000 + 500
    # dragged a little into the street: back on its kerb
    assert plan.moved([b], 0, 180, tolerance=300) == {}
    # dragged across the middle: side B, facing the middle
    change = plan.moved([b], 0, 7_900, tolerance=300)[b]
    assert (change.side, change.rotation, change.y1) == ("b", 180, 10_000)


def test_align_distribute_pack(qapp):
    plan = bare_plan(stall(1, "0"), stall(2, "5"), stall(3, "20"))
    a, b, c = (uid_of(plan, n) for n in (1, 2, 3))
    changes = plan.distributed([a, b, c])
    assert changes[b].x == 10_000  # equal gaps: (23 − 9) / 2 = 7 m between
    assert changes[b].x - 3_000 == 20_000 - (changes[b].x + 3_000)
    changes = plan.packed([a, b, c])
    assert (changes[b].x, changes[c].x) == (3_500, 7_000)
    changes = plan.aligned([b, c], "left")
    assert changes[c].x == 5_000 and b not in changes


def test_assignment_refusals_in_the_plan(qapp):
    plan = bare_plan(stall(1, "0", holder_id=7, holder="2026/00007"), stall(2, "4"))
    a, b = uid_of(plan, 1), uid_of(plan, 2)
    ana = HolderInfo(7, "2026/00007", "Ana Souza", "vi")
    bia = HolderInfo(8, "2026/00008", "Bia Lima", "vi")
    with pytest.raises(UserError, match="já tem titular"):
        plan.assigned(a, bia)
    with pytest.raises(UserError, match="já ocupa a banca 1 deste local"):
        plan.assigned(b, ana)
    with pytest.raises(UserError, match="já ocupa a banca 9"):
        plan.assigned(b, bia, elsewhere={8: 9})
    assert plan.assigned(a, ana) == {}
    assert plan.assigned(b, bia)[b].holder_id == 8
    assert plan.unassigned([a])[a].holder is None


def test_auto_layout_is_one_step_and_keeps_the_holders(qapp):
    plan = bare_plan(
        stall(
            1, "30", section="xvi", line="pastel", width="12", depth="3.5", holder_id=7, holder="2026/00007", side="b"
        ),
        stall(2, "2", section="i", line="legumes-verduras", width="8", depth="3.5"),
    )
    stack = QUndoStack()
    before = snapshot(plan)
    changes, layout = plan.auto()
    push_change(stack, plan, changes, "auto")
    assert layout.fits and stack.count() == 1
    by_section = {b.section: b for b in plan.stalls.values()}
    assert by_section["i"].x == 0 and by_section["i"].side == "a"  # Seção I first on side A (art. 8º, § 2º)
    assert by_section["xvi"].holder_id == 7 and by_section["xvi"].side == "b"
    stack.undo()
    assert snapshot(plan) == before


def test_live_checks_name_the_stalls_and_the_article(qapp, three):
    plan = three
    stack = QUndoStack()
    b = uid_of(plan, 2)
    push_change(stack, plan, plan.moved([b], -2_000, 0, snap=False), "sobrepor")
    codes = {br.code for br in plan.breaches()}
    assert "overlap" in codes
    assert plan.flagged().keys() == {uid_of(plan, 1), b}
    push_change(stack, plan, plan.moved([b], 0, 7_000, snap=False), "para o lado B")
    wrong = [br for br in plan.breaches() if br.code == "wrong-side"]
    assert wrong and wrong[0].basis == "Lei 9.158/2014, art. 8º, § 2º"
    stack.undo()
    stack.undo()
    assert plan.breaches() == []


def test_legend_groups_sections_by_colour_with_the_article():
    entries = legend(SJC, [("i", None, False), ("ii", None, False), ("xvi", None, False), ("v", None, False)])
    assert [(e.label, e.basis) for e in entries] == [
        ("Verde e branco", "Lei 9.158/2014, art. 9º, I"),
        ("Vermelho e branco", "Lei 9.158/2014, art. 9º, II"),
        ("Azul e branco", "Lei 9.158/2014, art. 9º, III"),
    ]
    assert entries[0].detail == "Seções I a IV"


# --------------------------------------------------------------------------- the editor on a database

_seq = iter(range(1, 10_000))


def make_permit(section="vi", *, line="biscoitos-balas", status="active", site="Feira do Teste"):
    from models.permits import Permit
    from models.registry.people import Person

    n = next(_seq)
    person = Person.create(name=f"Feirante Número {n}", cpf=f"{n:011d}")
    return Permit.create(
        number=f"2026/{n:05d}",
        year=2026,
        seq=n,
        regime="sjc-2014",
        permit_kind="feirante",
        person=person.id,
        site=site,
        section=section,
        line=line,
        status=status,
        valid_from=dt.date(2026, 1, 1),
        valid_until=dt.date(2026, 12, 31),
        issued_on=dt.date(2026, 1, 1),
        issued_by="teste",
    )


def viewport_point(editor, x_mm: float, y_mm: float) -> QPoint:
    return editor.view.mapFromScene(QPointF(x_mm, y_mm))


def drag(qtbot, editor, start: QPoint, end: QPoint, steps: int = 6) -> None:
    viewport = editor.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, steps + 1):
        point = start + (end - start) * i / steps
        QTest.mouseMove(viewport, point)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def test_editor_shows_the_street_and_the_stalls(editor):
    assert len(editor.items) == 4
    assert "Avenida Andrômeda" in editor.title.text() and "Rua Júpiter" in editor.title.text()
    assert editor.checks.breach_summary.text().startswith("Nenhuma irregularidade")
    labels = [e.label for e in editor.view.legend.entries]
    assert labels == ["Azul e branco"]
    assert "4 banca(s)" in editor.status.text()
    assert editor.tools.action_save.isEnabled() is False


def test_drag_a_stall_with_the_mouse_then_undo_and_redo(editor, qtbot):
    plan = editor.plan
    uid = uid_of(plan, 2)
    box = plan.stalls[uid]
    lod = editor.view.px_per_mm()
    start = viewport_point(editor, box.x + box.along / 2, box.y + box.across / 2)
    end = start + QPoint(round(5_000 * lod), 0)  # five metres along the street
    drag(qtbot, editor, start, end)
    moved = plan.stalls[uid]
    assert abs(moved.x - 9_000) <= GRID and moved.x % GRID == 0
    assert editor.undo.count() == 1  # the whole drag is one step
    assert editor.undo.undoText().startswith("Mover banca 2")
    assert editor.is_dirty() and editor.tools.action_save.isEnabled()
    assert editor.items[uid].pos().x() == moved.x
    qtbot.keyClick(editor.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert plan.stalls[uid] == box and editor.items[uid].pos().x() == box.x
    qtbot.keyClick(editor.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert plan.stalls[uid] == moved


def test_drag_onto_a_neighbour_shows_the_breach_in_red_then_keep_it_with_a_reason(editor, qtbot):
    from models.sites import kept_breaches

    plan = editor.plan
    uid = uid_of(plan, 2)
    box = plan.stalls[uid]
    lod = editor.view.px_per_mm()
    start = viewport_point(editor, box.x + box.along / 2, box.y + box.across / 2)
    # Alt: no snapping, so that it lands on stall 1
    viewport = editor.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(viewport, start - QPoint(round(2_000 * lod), 0))
    end = start - QPoint(round(2_000 * lod), 0)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.AltModifier, end)
    codes = [b.code for b in plan.breaches()]
    assert "overlap" in codes or "gap" in codes
    assert editor.items[uid].state == "breach" and editor.items[uid_of(plan, 1)].state == "breach"
    assert editor.checks.breach_list.count() == len(plan.breaches())
    assert "irregularidade" in editor.status.text()
    editor.checks.breach_list.setCurrentRow(0)
    breach = editor.selected_breach()

    def refuse_then_fill(dialog):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert "motivo" in dialog.error.text()
        assert dialog.reason.toolTip()
        dialog.reason.setFocus()
        type_text(dialog.reason, "Bancas geminadas a pedido dos titulares (ofício 12/2026).")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    run_modal(editor.keep_selected_breach, refuse_then_fill)
    kept = kept_breaches(editor.site_id)
    assert breach.signature in kept and kept[breach.signature].reason.startswith("Bancas geminadas")
    assert editor.items[uid].state == "kept"
    text = editor.checks.breach_list.item(0).text()
    assert "Mantida — Bancas geminadas a pedido dos titulares" in text
    assert "0 irregularidade(s) em aberto" in editor.status.text()
    # the reason can be withdrawn
    editor.checks.breach_list.setCurrentRow(0)
    assert editor.drop_selected_kept()
    assert editor.items[uid].state == "breach"


def test_rubber_band_selects_and_align_and_keyboard_nudges(editor, qtbot):
    plan = editor.plan
    a, b, c = (uid_of(plan, n) for n in (1, 2, 3))
    # a rubber band from the empty street (middle) over stalls 1–3 (side A)
    start = viewport_point(editor, -500, 6_000)
    end = viewport_point(editor, 10_500, 500)
    viewport = editor.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, 6):
        QTest.mouseMove(viewport, start + (end - start) * i / 5)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert sorted(editor.selected_uids()) == sorted([a, b, c])
    editor.tools.action_pack.trigger()
    assert [plan.stalls[u].x for u in (a, b, c)] == [0, 3_500, 7_000]
    assert editor.undo.count() == 1
    # arrows: 0,10 m; Shift: 1 m — one step for the run
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_Right)
    qtbot.keyClick(editor.view, Qt.Key.Key_Right)
    qtbot.keyClick(editor.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert [plan.stalls[u].x for u in (a, b, c)] == [1_200, 4_700, 8_200]
    assert editor.undo.count() == 2
    editor.undo.undo()
    assert [plan.stalls[u].x for u in (a, b, c)] == [0, 3_500, 7_000]
    # rotate and delete with the keyboard, undone
    editor.select_stalls([c])
    qtbot.keyClick(editor.view, Qt.Key.Key_R)
    assert plan.stalls[c].rotation == 90
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)
    assert c not in plan.stalls and c not in editor.items
    editor.undo.undo()
    editor.undo.undo()
    assert plan.stalls[c].rotation == 0 and c in editor.items


def test_properties_resize_within_the_line_and_add_a_stall(editor, qtbot):
    plan = editor.plan
    pastel = uid_of(plan, 4)
    editor.select_stalls([pastel])
    assert (
        "12,00 m × 3,50 m" in editor.stall_panel.prop_limit.text()
        and "art. 5º, IV" in editor.stall_panel.prop_limit.text()
    )
    assert editor.stall_panel.prop_front.text() == format_metres(plan.stalls[pastel].front, mm=True).removesuffix(" m")

    def type_front(text):
        editor.stall_panel.prop_front.setFocus()
        editor.stall_panel.prop_front.selectAll()
        qtbot.keyClicks(editor.stall_panel.prop_front, text)
        qtbot.keyClick(editor.stall_panel.prop_front, Qt.Key.Key_Return)

    type_front("10")
    assert plan.stalls[pastel].front == 10_000
    assert plan.stalls[pastel].y1 == 10_000  # side B: still on its kerb
    assert editor.stall_panel.prop_error.isHidden()
    type_front("12")  # typed in full: twelve metres, the line's maximum — not 1,00 m (issue 18 §3)
    assert plan.stalls[pastel].front == 12_000 and editor.stall_panel.prop_front.text() == "12,00"
    type_front("7,5")
    assert plan.stalls[pastel].front == 7_500
    count = editor.undo.count()
    for typed, said in (
        ("14", "passa do máximo"),
        ("12,01", "passa do máximo"),
        ("-3", "maior que zero"),
        ("0", "maior que zero"),
        ("1.50", "duas formas"),
        ("doze", "não é um número"),
    ):
        type_front(typed)
        assert plan.stalls[pastel].front == 7_500, typed  # nothing changed, nothing clamped
        assert editor.undo.count() == count
        assert editor.stall_panel.prop_front.text() == typed  # kept as typed, marked at the field
        assert (
            said in editor.stall_panel.prop_error.text()
            and editor.stall_panel.prop_front.toolTip() == editor.stall_panel.prop_error.text()
        )
        assert not editor.stall_panel.prop_error.isHidden()
        if said == "passa do máximo":  # the act's maximum and its article, read from the regime
            assert (
                "12,00 m × 3,50 m" in editor.stall_panel.prop_error.text()
                and "art. 5º, IV" in editor.stall_panel.prop_error.text()
            )
    editor.stall_panel.prop_depth.setFocus()
    editor.stall_panel.prop_depth.selectAll()
    qtbot.keyClicks(editor.stall_panel.prop_depth, "4")
    type_front("8")
    assert plan.stalls[pastel].front == 7_500 and "Profundidade" in editor.stall_panel.prop_error.text()
    assert "3,50 m" in editor.stall_panel.prop_error.text()
    editor.stall_panel.prop_depth.selectAll()
    qtbot.keyClicks(editor.stall_panel.prop_depth, "3,5")
    type_front("8")
    assert (plan.stalls[pastel].front, plan.stalls[pastel].depth) == (8_000, 3_500)
    assert editor.stall_panel.prop_error.isHidden() and editor.stall_panel.prop_front.toolTip() == ""
    count = editor.undo.count()
    uid = editor.add_stall()
    assert plan.stalls[uid].number == 5 and plan.stalls[uid].section == "xvi"
    assert editor.undo.count() == count + 1 and uid in editor.items
    editor.undo.undo()
    assert uid not in plan.stalls


def test_resize_by_dragging_the_grip(editor, qtbot):
    plan = editor.plan
    uid = uid_of(plan, 1)
    editor.select_stalls([uid])
    box = plan.stalls[uid]
    lod = editor.view.px_per_mm()
    grip = editor.items[uid].handle_rect(lod)
    start = viewport_point(editor, box.x + grip.center().x(), box.y + grip.center().y())
    # 0,5 m shorter along the street and 0,5 m deeper
    drag(qtbot, editor, start, start + QPoint(round(-500 * lod), round(500 * lod)))
    resized = plan.stalls[uid]
    assert (resized.front, resized.depth, resized.x, resized.y) == (2_500, 2_500, 0, 0)
    assert editor.undo.count() == 1 and editor.undo.undoText() == "Redimensionar banca 1"
    editor.undo.undo()
    assert plan.stalls[uid] == box


def test_wheel_zooms_and_the_middle_button_pans(editor, qtbot):
    from PySide6.QtGui import QWheelEvent

    view = editor.view
    before = view.px_per_mm()
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(
        centre,
        view.mapToGlobal(centre.toPoint()).toPointF(),
        QPoint(),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.px_per_mm() == pytest.approx(before * 1.44, rel=0.01)
    bar = view.horizontalScrollBar()
    bar.setValue((bar.minimum() + bar.maximum()) // 2)
    value = bar.value()
    viewport = view.viewport()
    start = viewport.rect().center()
    QTest.mousePress(viewport, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(viewport, start - QPoint(120, 0))
    QTest.mouseRelease(viewport, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, start - QPoint(120, 0))
    assert bar.value() == value + 120
    assert editor.undo.count() == 0  # panning changes nothing on the plan


def test_zoom_and_fit(editor, qtbot):
    before = editor.view.px_per_mm()
    qtbot.keyClick(editor.view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert editor.view.px_per_mm() > before
    qtbot.keyClick(editor.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert editor.view.px_per_mm() < before
    qtbot.keyClick(editor.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    visible = editor.view.mapToScene(editor.view.viewport().rect()).boundingRect()
    assert visible.left() <= 0 and visible.right() >= editor.plan.length
    metres, px = editor.view.scale_bar.metres()
    assert 20 <= px <= 180 and metres > 0


def send_drop(editor, mime, point: QPoint) -> None:
    viewport = editor.view.viewport()
    action = Qt.DropAction.CopyAction
    for event in (
        QDragEnterEvent(point, action, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier),
        QDragMoveEvent(point, action, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier),
        QDropEvent(
            QPointF(point), action, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QEvent.Type.Drop
        ),
    ):
        QApplication.sendEvent(viewport, event)


def test_assign_by_dropping_a_holder_and_by_the_button_then_save(editor, qtbot):
    from models.sites import stall_rows

    ana = make_permit("vi")
    bia = make_permit("vi")
    pastel_holder = make_permit("xvi", line="pastel")
    editor._reload_holders()
    numbers = [
        editor.holder_panel.holder_list.item(i).text().split(" — ")[0]
        for i in range(editor.holder_panel.holder_list.count())
    ]
    assert numbers == [ana.number, bia.number, pastel_holder.number]
    # drop Ana on stall 1
    item = editor.holder_panel.holder_list.item(0)
    mime = editor.holder_panel.holder_list.mimeData([item])
    box = editor.plan.stalls[uid_of(editor.plan, 1)]
    send_drop(editor, mime, viewport_point(editor, box.x + box.along / 2, box.y + box.across / 2))
    assert editor.plan.stalls[box.uid].holder_id == ana.id
    assert editor.undo.undoText() == f"Atribuir {ana.number} à banca 1"
    assert ana.number not in next(
        editor.holder_panel.holder_list.item(i).text() for i in range(editor.holder_panel.holder_list.count())
    )
    # the pastel holder on a stall of Seção VI: refused with the article
    editor.select_stalls([uid_of(editor.plan, 2)])
    editor.holder_panel.holder_filter.setText(pastel_holder.number)
    editor.holder_panel.holder_list.setCurrentRow(0)
    qtbot.mouseClick(editor.holder_panel.assign_button, Qt.MouseButton.LeftButton)
    assert (
        "é da Seção XVI; a banca 2 é da Seção VI (Lei 9.158/2014, art. 8º, VI)"
        in editor.holder_panel.holder_message.text()
    )
    assert editor.plan.stalls[uid_of(editor.plan, 2)].holder_id is None
    # Bia on stall 1, which Ana holds: refused by the plan
    editor.holder_panel.holder_filter.setText(bia.number)
    editor.holder_panel.holder_list.setCurrentRow(0)
    editor.select_stalls([uid_of(editor.plan, 1)])
    qtbot.mouseClick(editor.holder_panel.assign_button, Qt.MouseButton.LeftButton)
    assert "já tem titular" in editor.holder_panel.holder_message.text()
    # Bia on stall 2 with the button
    editor.select_stalls([uid_of(editor.plan, 2)])
    qtbot.mouseClick(editor.holder_panel.assign_button, Qt.MouseButton.LeftButton)
    assert editor.plan.stalls[uid_of(editor.plan, 2)].holder_id == bia.id
    assert editor.save()
    assert {r.number: r.permit_number for r in stall_rows(editor.site_id)} == {
        1: ana.number,
        2: bia.number,
        3: None,
        4: None,
    }
    assert not editor.is_dirty()
    # free stall 1 and save: it stays free (the editor's plan carries every holder)
    editor.select_stalls([uid_of(editor.plan, 1)])
    qtbot.mouseClick(editor.holder_panel.unassign_button, Qt.MouseButton.LeftButton)
    assert editor.save()
    assert {r.number: r.permit_number for r in stall_rows(editor.site_id)}[1] is None
    assert "Mapa salvo" in editor.message.text()


def test_auto_layout_button_reports_what_did_not_fit(editor, qtbot, monkeypatch):
    import threading

    from views import operations

    holder = make_permit("xvi", line="pastel")
    editor._reload_holders()
    real, seen = StallPlan.auto, []

    def spy(plan, *args, **kwargs):  # issue 18 §2: laid out in the worker, under the progress dialog
        seen.append(
            (
                threading.current_thread() is threading.main_thread(),
                operations.current is not None and operations.current.dialog.labelText(),
            )
        )
        return real(plan, *args, **kwargs)

    monkeypatch.setattr(StallPlan, "auto", spy)
    editor.tools.action_auto.trigger()
    assert seen == [(False, "Distribuindo as bancas…")]
    layout = editor.last_layout
    assert layout is not None and editor.undo.count() == 1
    assert any(b.holder_id == holder.id for b in editor.plan.stalls.values())  # the site's holder got a stall
    assert "Auto-layout" in editor.checks.auto_result.toPlainText()
    assert layout.summary() in editor.checks.auto_result.toPlainText()
    editor.undo.undo()
    assert not any(b.holder_id == holder.id for b in editor.plan.stalls.values())


def test_a_short_street_says_by_how_much(app_ready, qtbot, database):
    from models.sites import SegmentInput, SiteInput, save_layout, save_site
    from views.map_editor import MapEditor

    site = save_site(
        SiteInput(
            name="Travessa",
            kind="street",
            regime="sjc-2014",
            segments=[SegmentInput(street="Travessa Curta", length="20", width="10")],
        )
    )
    save_layout(
        site, [stall(n, str((n - 1) * 9), section="i", line="legumes-verduras", width="8", depth="3.5") for n in (1, 2)]
    )
    widget = MapEditor()
    qtbot.addWidget(widget)
    widget.load(site.id)
    # three more stalls of Seção I: they do not all fit in 20 m
    for _ in range(3):
        widget.add_stall("i")
    layout = widget.run_auto_layout()
    assert layout.unplaced and layout.shortfall > 0
    text = widget.checks.auto_result.toPlainText()
    assert "Faltam" in text and "não coube no lado A" in text


def test_print_to_a_pdf_printer_and_export(editor, tmp_path, qtbot):
    from PySide6.QtPrintSupport import QPrinter

    editor.plan.apply(editor.plan.moved([uid_of(editor.plan, 2)], 10_000, 0, snap=False))  # unsaved on screen
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "impresso.pdf"))
    choice = editor.print_to(printer)
    assert (tmp_path / "impresso.pdf").stat().st_size > 1000 and choice.scale in (50, 100, 200, 250, 500)
    assert editor.export_dict()["stalls"][1]["x"] == D("14.000")
    assert editor.export_to(tmp_path / "mapa.svg")
    assert (tmp_path / "mapa.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_the_page_lists_sites_opens_the_map_and_the_form_saves(app_ready, qtbot, database, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from models.demo.sites import demo_sites
    from models.sites import SiteSegment, find_site
    from views.maps_page import MapsPage

    demo_sites()
    page = MapsPage()
    qtbot.addWidget(page)
    page.resize(1400, 800)
    page.show()
    page.refresh()
    names = [r.name for r in page.model.rows]
    assert "Feira Noturna do Jardim Satélite" in names
    feira_id = find_site("Feira Noturna do Jardim Satélite").id
    page.select_site(feira_id)
    count = next(r.stalls for r in page.model.rows if r.id == feira_id)
    assert page.stack.currentWidget() is page.editor and len(page.editor.items) == count > 28
    # unsaved changes: leaving the map asks; Cancelar keeps it open with the changes
    editor = page.editor
    editor.push(editor.plan.deleted([uid_of(editor.plan, 1)]), "Excluir banca 1")
    beach = next(r for r in page.model.rows if r.kind == "beach")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    page.select_site(beach.id)
    assert page.stack.currentWidget() is page.editor and editor.is_dirty()
    assert page.selected().id == feira_id
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    page.select_site(beach.id)
    assert page.stack.currentWidget() is page.points and page.points.model.rowCount() == 15
    assert not editor.is_dirty()

    # a new street through the form: errors at the field, then saved
    def fill(dialog):
        dialog.name.setFocus()
        type_text(dialog.name, "Rua São João")
        dialog.regime.setCurrentIndex(dialog.regime.findData("olimpia-2025"))
        dialog.segments.item(0, 0).setText("Rua São João")
        dialog.segments.item(0, 1).setText("Rua A")
        dialog.segments.item(0, 2).setText("Rua B")
        dialog.segments.item(0, 3).setText("abc")
        dialog.segments.item(0, 4).setText("9")
        dialog.gap.setText("0,30")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert dialog.isVisible()
        assert "não é um número" in dialog.segments.item(0, 3).toolTip()
        assert "mínimo legal de 0,50 m" in dialog.gap.toolTip()
        dialog.segments.item(0, 3).setText("120,00")
        dialog.gap.setText("0,50")
        row = dialog.add_obstacle()
        dialog.obstacles.item(row, 3).setText("30")
        dialog.obstacles.item(row, 4).setText("3")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    _dialog, site = run_modal(page.new_site, fill)
    assert site is not None and site.name == "Rua São João"
    segment = SiteSegment.get(SiteSegment.site == site.id)
    assert (segment.length, segment.width, segment.from_street) == (D("120.00"), D("9"), "Rua A")
    assert page.stack.currentWidget() is page.editor
    assert "Rua São João" in page.editor.title.text()
    assert [o.kind for o in page.editor.plan.plan.obstacles] == ["garage"]
    # and deleted (the question answered Yes)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert page.delete_selected()
    assert "Rua São João" not in [r.name for r in page.model.rows]
    assert page.stack.currentWidget() is page.empty


def test_edit_form_loads_the_site(app_ready, qtbot, feira):
    from views.site_form import SiteFormDialog

    dialog = SiteFormDialog(feira.id)
    qtbot.addWidget(dialog)
    assert dialog.name.text() == "Feira do Teste"
    assert dialog.weekdays["fri"].isChecked() and not dialog.weekdays["sat"].isChecked()
    assert dialog.segments.item(0, 3).text() == "60,00"
    assert dialog.obstacles.rowCount() == 1 and dialog.obstacles.cellWidget(0, 1).currentData() == "hydrant"
    dialog.segments.item(0, 4).setText("")
    dialog.save()
    assert dialog.tabs.currentIndex() == 2
    assert "largura" in dialog.segments.item(0, 4).toolTip()
    dialog.segments.item(0, 4).setText("11")
    dialog.save()
    assert dialog.result() == 1
    from models.sites import plan_of

    assert plan_of(feira.id).segment.width == D("11")


def test_two_thousand_stalls_checked():  # how fast: bench/plan_check.py
    stalls = [
        replace(stall(n, str((n - 1) // 2 * 4), side="a" if n % 2 else "b", section=None, line=None), key=str(n))
        for n in range(1, 2001)
    ]
    plan = bare_plan(*stalls, length="4100")
    assert plan.breaches() == []
    uid = uid_of(plan, 10)
    plan.apply(plan.moved([uid], 800, 0, snap=False))
    assert plan.breaches()


def test_closing_the_window_with_an_unsaved_map_asks_first(app_ready, qtbot, sqlite_database, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from desktop.main_window import MainWindow
    from models.demo.sites import demo_sites
    from models.sites import find_site

    demo_sites()
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.show_desk("mapas")
    page = window.pages["mapas"]
    page.refresh()
    page.select_site(find_site("Feira Noturna do Jardim Satélite").id)
    editor = page.editor
    editor.push(editor.plan.deleted([uid_of(editor.plan, 1)]), "Excluir banca 1")
    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Cancel
    )
    assert not window.close() and window.isVisible() and editor.is_dirty()
    assert not window.switch_database(sqlite_database)
    assert len(asked) == 2 and "não salvas" in asked[0]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert window.close()


# --------------------------------------------------------------------------- issue 31 §5: no crash box


def test_a_map_edited_then_a_change_of_user_and_an_import_raise_nothing(app_ready, qtbot, feira, tmp_path):
    """As the clerk did: a stall moved and saved on the Mapas desk, still selected; then Trocar de usuário and
    Arquivo → Importar ambulantes… — each reloads the map. The old map's selected stall was deleted while the
    editor still read it ("Internal C++ object (StallItem) already deleted" in an English box)."""
    from factories import vendor_rows, write_xlsx
    from PySide6.QtCore import QSettings

    from desktop.main_window import MainWindow
    from models.access import session
    from models.access.users import create_user

    QSettings().clear()
    for username, role in (("admin", "administrador"), ("bia", "fiscal")):
        create_user(username=username, name=username.title(), role=role, password="segredo123", confirm="segredo123")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.show_desk("mapas")
    page = window.pages["mapas"]
    page.select_site(feira.id)
    editor = page.editor
    assert editor.site_id == feira.id
    uid = editor.select_number(1)
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_Right)
    assert editor.is_dirty()
    assert editor.save(), editor.message.text()
    assert editor.selected_uids() == [uid]
    moved = editor.current_plan().stalls[uid].x

    def first_x() -> int:
        plan = editor.current_plan()
        return next(plan.stalls[u].x for u in editor.items if plan.stalls[u].number == 1)

    def log_in(dialog):
        type_text(dialog.username, "admin")
        type_text(dialog.password, "segredo123")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible(), dialog.error.text()

    try:
        run_modal(window.switch_user, log_in)  # the map reloads for the new user (pytest-qt fails on any raise)
        assert session.current().username == "admin"
        assert editor.site_id == feira.id and editor.items
        editor.select_number(1)

        def do_import(dialog):
            dialog.path_edit.setText(str(write_xlsx(tmp_path / "ambulantes.xlsx", vendor_rows())))
            qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
            qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
            with qtbot.waitSignal(dialog.imported, timeout=20000):
                qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: dialog.worker is None, timeout=5000)

        run_modal(window.import_dialog, do_import)  # the window refreshes every desk after an import
        assert editor.site_id == feira.id
        assert first_x() == moved  # the saved map, read again
    finally:
        session.log_out()


def test_a_drag_moves_a_small_stall_far_out_resizing_only_from_a_grip_large_enough(editor, qtbot):
    """Issue 31 §6: at the "Tudo" zoom of a long street a stall is a few pixels across and its 9-pixel grip
    covered all of it — a drag resized the stall to 0,50 m deep instead of moving it. Far out there is no grip:
    a drag moves; resizing is from the grip, shown only where the stall is large enough to have one apart."""
    plan = editor.plan
    uid = uid_of(plan, 2)
    box = plan.stalls[uid]
    editor.view.fit()
    while min(box.along, box.across) * editor.view.px_per_mm() > 8:  # a long street's "Tudo": a stall of pixels
        editor.view.zoom_by(0.8, anchor_under_mouse=False)
    lod = editor.view.px_per_mm()
    editor.select_stalls([uid])
    assert not editor.items[uid].has_grip(lod)
    start = viewport_point(editor, box.x + box.along / 2, box.y + box.across / 2)
    drag(qtbot, editor, start, start + QPoint(max(4, round(5_000 * lod)), 0))
    moved = plan.stalls[uid]
    assert (moved.front, moved.depth) == (box.front, box.depth)  # the same size
    assert moved.x > box.x and editor.undo.undoText().startswith("Mover banca 2")
    editor.view.fit_across()  # near again: the grip is back
    assert editor.items[uid].has_grip(editor.view.px_per_mm())


def test_a_new_stall_goes_to_the_first_free_legal_place(editor, qtbot):
    """Issue 31 §6: "+ Banca" dropped the new stall in the middle of the view, onto the stalls there. Now it goes
    to the first place from the street's start where it breaks no rule: after stall 3, at the act's gap."""
    plan = editor.plan
    editor.view.fit()  # the whole street: its middle is on stalls 1–3's kerb, among them
    before = len(plan.breaches())
    editor.tools.action_add.trigger()  # "+ Banca"
    (uid,) = editor.selected_uids()
    new = plan.stalls[uid]
    assert new.number == 5 and new.side == "a"
    third = plan.stalls[uid_of(plan, 3)]
    assert third.x1 + plan.gap <= new.x <= third.x1 + plan.gap + GRID  # right after stall 3, at the gap
    assert len(plan.breaches()) == before == 0  # it breaks nothing
    full = bare_plan(*(stall(n, str(4 * (n - 1))) for n in range(1, 16)))  # a kerb full to its end
    spare, changes = full.added(x=None, side="a")
    assert changes[spare].side == "b"  # the other kerb, where there is room
