"""The map editor: a screen object that composes its collaborators and owns the segment's state.

:class:`MapEditor` holds what the clerk has open (the site, the segment, its plan, the stalls drawn, the holders
and the breaches kept) and composes explicit collaborators, each created with what it needs and holding its own
attributes:

* :class:`views.map_editor.toolbar.MapToolbar` — the actions and tool bars (created with the editor widget, the
  undo stack and the view);
* :class:`views.map_editor.panels.ChecksPanel`, :class:`~views.map_editor.panels.HoldersPanel` and
  :class:`~views.map_editor.panels.StallPanel` — the side tabs, which show what they are given and signal what
  the clerk asks;
* :class:`views.map_editor.edits.PlanEdits` — the edit controller, which turns each edit into one undo step;
* :class:`views.map_editor.scene.MapScene` and :class:`views.map_editor.view.MapView` — the drawing.

The editor connects them: it reads the selection, asks the controller, and shows the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.sites import (
    HolderRow,
    KeptBreach,
    check_assignment,
    drop_kept_breach,
    kept_breaches,
    plan_of,
    requests_from_permits,
    save_layout,
    site_export,
    site_holders,
    stall_rows,
)
from models.sites.breaches import OpenBreaches, open_breaches
from models.sites.layout import NUMBERING, OBSTACLE_KINDS, SIDE_LABELS, SIDE_USES, Breach, format_metres
from models.sites.stall_plan import Box, HolderInfo, StallPlan
from reports.site_map import OBSTACLE_MARKS
from views.blocks import fill
from views.map_editor.dialogs import KeepBreachDialog
from views.map_editor.edits import PlanEdits
from views.map_editor.items import StallItem
from views.map_editor.panels import ChecksPanel, HoldersPanel, StallPanel
from views.map_editor.scene import MapScene
from views.map_editor.style import BREACH, SPOT, metre_text
from views.map_editor.toolbar import MapToolbar
from views.map_editor.view import MapView
from views.operations import in_background
from views.roles import allow
from views.save import file_name, save_file_name

if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrinter

    from models.sites.layout import Layout
    from reports.site_map import PageChoice


class MapEditor(QWidget):
    """One segment of a site: the map, its toolbar, the checks, the holders and the selected stall."""

    saved = Signal()
    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        # what is open
        self.site_id: int | None = None
        self.segment_id: int | None = None
        self.plan: StallPlan | None = None
        self.items: dict[int, StallItem] = {}
        self.kept: dict[str, KeptBreach] = {}
        self.holders: dict[int, HolderRow] = {}
        self.last_layout: Layout | None = None
        self.last_dialog: KeepBreachDialog | None = None
        self.undo = QUndoStack(self)
        self.edits = PlanEdits(self.undo, self)

        # the collaborators
        self.title = QLabel()
        self.title.setObjectName("map-title")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.segment_box = QComboBox()
        self.segment_box.setObjectName("segment")
        self.segment_box.setVisible(False)
        self.scene = MapScene(self)
        self.view = MapView(self, self.scene)
        self.tools = MapToolbar(self, self.undo, self.view)
        self.checks = ChecksPanel()
        self.holder_panel = HoldersPanel()
        self.stall_panel = StallPanel()
        self.history = QUndoView(self.undo)
        self.history.setEmptyLabel(self.tr("<mapa aberto>"))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("map-side")
        self.tabs.setMinimumWidth(300)
        self.tabs.setUsesScrollButtons(False)  # every tab's name whole: the tabs take the room they need
        self.tabs.addTab(self.checks, self.tr("Verificações"))
        self.tabs.addTab(self.holder_panel, self.tr("Titulares"))
        self.tabs.addTab(self.stall_panel, self.tr("Banca"))
        self.tabs.addTab(self.history, self.tr("Histórico"))
        self.status = QLabel()
        self.status.setObjectName("map-status")
        self.status.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("map-message")
        self.message.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.segment_box)
        layout.addLayout(head)
        layout.addWidget(self.tools.widget)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.view)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 340])
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.message)

        self._connect()
        self._set_enabled(False)

    def _connect(self) -> None:
        tools, wire = self.tools, MapToolbar.wire
        wire(tools.action_save, self.save)
        wire(tools.action_auto, self.run_auto_layout)
        wire(tools.action_add, self.add_stall)
        wire(tools.action_delete, self.delete_selected)
        wire(tools.action_rotate, self.rotate_selected)
        wire(tools.action_distribute, self.distribute_selected)
        wire(tools.action_pack, self.pack_selected)
        wire(tools.action_print, self.print_dialog)
        wire(tools.action_export, self.export_dialog)
        for how, action in tools.align_actions.items():
            wire(action, partial(self.align_selected, how))
        self.undo.cleanChanged.connect(self._undo_changed)
        self.undo.indexChanged.connect(self._undo_changed)
        self.undo.canUndoChanged.connect(self._undo_changed)
        self.undo.canRedoChanged.connect(self._undo_changed)
        self.view.zoomed.connect(self._update_far)
        self.checks.breach_chosen.connect(self._breach_chosen)
        self.checks.keep_requested.connect(self.keep_selected_breach)
        self.checks.drop_requested.connect(self.drop_selected_kept)
        self.holder_panel.filter_changed.connect(self._fill_holders)
        self.holder_panel.assign_requested.connect(self.assign_selected)
        self.holder_panel.unassign_requested.connect(self.unassign_selected)
        self.stall_panel.number_edited.connect(self._number_edited)
        self.stall_panel.section_edited.connect(self._section_edited)
        self.stall_panel.size_edited.connect(self._size_edited)
        self.scene.selectionChanged.connect(self._selection_changed)
        self.segment_box.activated.connect(self._segment_chosen)

    def _set_enabled(self, on: bool) -> None:
        for widget in (*self.tools.bars(), self.view, self.tabs):
            widget.setEnabled(on)
        for action in (self.tools.action_auto, self.tools.action_add):
            allow(action, "sites.edit")

    def current_plan(self) -> StallPlan:
        """The open plan (an editor without one shows nothing to act on)."""
        if self.plan is None:
            raise RuntimeError("no segment open")
        return self.plan

    # -- loading ---------------------------------------------------------------
    def is_dirty(self) -> bool:
        return not self.undo.isClean()

    def load(self, site_id: int, segment_id: int | None = None, *, segments: list | None = None) -> None:
        """Open a segment (default: the first) of the site; the undo history starts afresh."""
        data, rows, kept = in_background(  # the worker thread (issue 27 §5)
            lambda: (plan_of(site_id, segment_id), stall_rows(site_id), kept_breaches(site_id))
        )
        self.site_id = site_id
        self.segment_id = data.segment_id
        names = {r.permit_id: r.holder_name or "" for r in rows if r.permit_id}
        position = 0
        if segments is not None:
            self.segment_box.blockSignals(True)
            self.segment_box.clear()
            for seg in segments:
                self.segment_box.addItem(fill(self.tr("Trecho %1: %2"), str(seg.position + 1), seg.street), seg.id)
            self.segment_box.setVisible(len(segments) > 1)
            index = self.segment_box.findData(data.segment_id)
            self.segment_box.setCurrentIndex(max(0, index))
            self.segment_box.blockSignals(False)
            position = next((seg.position for seg in segments if seg.id == data.segment_id), 0)
        plan = self.plan = StallPlan(data, names=names, position=position)
        plan.listeners.append(self._plan_changed)
        self.edits.open(plan)
        self._drop_items()
        self.last_layout = None
        self.checks.show_auto_result(None)
        for box in plan.boxes():
            item = StallItem(self, box)
            self.items[box.uid] = item
            self.scene.addItem(item)
        self.scene.setSceneRect(self.view.street_rect().adjusted(-20_000, -8_000, 20_000, 8_000))
        self._reload_holders()
        self.kept = kept
        self._set_enabled(True)
        segment = data.segment
        ends = (
            fill(self.tr(", entre %1 e %2"), escape(segment.from_street), escape(segment.to_street))
            if segment.from_street and segment.to_street
            else ""
        )
        gap = format_metres(plan.gap, mm=True)
        self.title.setText(
            f"<b>{escape(segment.street)}</b>{ends} — {format_metres(segment.length)} × "
            f"{format_metres(segment.width)}, {SIDE_USES.get(segment.sides, segment.sides)}; "
            + fill(self.tr("espaço entre bancas %1; numeração %2"), gap, NUMBERING.get(data.numbering, data.numbering))
        )
        self.stall_panel.set_sections([(s.id, f"{s.numeral} — {s.label}") for s in plan.regime.sections])
        self._refresh_checks()
        self.view.legend.set_entries(plan.legend(), self._legend_extra())
        self.view._place_overlays()
        self.view.fit_across()
        self._selection_changed()
        self._undo_changed()
        self.message.clear()

    def _drop_items(self) -> None:
        """Take the old plan's stalls off the map. The selection goes first, while every item still lives: a
        selected item deleted by ``scene.clear()`` makes the scene say its selection changed half-way through the
        deletion, and a handler that then read the other, already deleted, items raised "Internal C++ object
        (StallItem) already deleted" (issue 31 §5: after editing a map, on Trocar de usuário, after an import)."""
        self.scene.gesture = None  # a drag under way refers to the old plan's stalls
        self.scene.clearSelection()
        self.items = {}
        self.scene.clear()

    def _legend_extra(self) -> list[str]:
        plan = self.current_plan()
        extra = []
        kinds: list[str] = []
        for o in plan.plan.obstacles:
            if o.kind not in kinds:
                kinds.append(o.kind)
        if kinds:
            extra.append(
                fill(
                    self.tr("Obstáculos: %1"),
                    " · ".join(
                        f"{OBSTACLE_MARKS.get(k) or ('●' if k == 'tree' else '▨')} {OBSTACLE_KINDS[k]}" for k in kinds
                    ),
                )
            )
        if plan.kept_free():
            red = BREACH.name()  # the drawing's own red, on the legend's white ground
            extra.append(
                fill(
                    self.tr("%1 faixa mantida livre; %2 banca com irregularidade"),
                    f"<span style='color:{red}'>▨</span>",
                    f"<span style='color:{red}'>▭</span>",
                )
            )
        return extra

    def _segment_chosen(self) -> None:
        segment_id = self.segment_box.currentData()
        if segment_id == self.segment_id or self.site_id is None:
            return
        if self.is_dirty() and not self.confirm_discard():
            index = self.segment_box.findData(self.segment_id)
            self.segment_box.setCurrentIndex(index)
            return
        self.load(self.site_id, segment_id)

    def confirm_discard(self) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Mapa"),
            self.tr("O mapa tem alterações não salvas. Descartá-las?"),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Discard

    # -- following the plan and the undo stack -------------------------------------
    def _undo_changed(self, *_args: object) -> None:
        self.tools.follow_undo()
        self._update_status()
        self.changed.emit()

    def _update_far(self) -> None:
        """Far out (every stall under ``SPOT`` pixels across) the scene draws the stalls as spots in one go."""
        lod = self.view.px_per_mm()
        far = bool(self.items) and all(
            min(item.box.along, item.box.across) * lod < SPOT for item in self.items.values()
        )
        if far != self.scene.far:
            self.scene.far = far
            for item in self.items.values():
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, far)
        self.scene.spots_changed()

    def _plan_changed(self, uids: set[int]) -> None:
        plan = self.current_plan()
        for uid in uids:
            box = plan.stalls.get(uid)
            item = self.items.get(uid)
            if box is None:
                if item is not None:
                    self.scene.removeItem(item)
                    del self.items[uid]
            elif item is None:
                item = StallItem(self, box)
                self.items[uid] = item
                self.scene.addItem(item)
            else:
                item.show_box(box)
        self._update_far()  # a stall larger now may need its own drawing again
        self._refresh_checks()
        self.view.legend.set_entries(plan.legend(), self._legend_extra())
        self.view._place_overlays()
        self._fill_holders()
        self._selection_changed()
        self._update_status()

    def _refresh_checks(self) -> None:
        plan = self.current_plan()
        breaches = plan.breaches()
        flagged: dict[int, str] = {}
        for breach in breaches:
            state = "kept" if breach.signature in self.kept else "breach"
            for uid in plan.breach_uids(breach):
                if flagged.get(uid) != "breach":
                    flagged[uid] = state
        for uid, item in self.items.items():
            state = flagged.get(uid, "")
            if item.state != state:
                item.state = state
                item.update()
        self.scene.spots_changed()
        self.checks.show_breaches(breaches, self.kept)
        self._breach_chosen()

    def _update_status(self) -> None:
        if self.plan is None:
            self.status.clear()
            return
        stalls, held = self.plan.counts()
        text = fill(
            self.tr("%1 banca(s) · %2 com titular · %3 irregularidade(s) em aberto"),
            str(stalls),
            str(held),
            str(len(self.open_breaches())),
        )
        if self.is_dirty():
            text += " · " + self.tr("<b>alterações não salvas</b>")
        self.status.setText(text)
        allow(self.tools.action_save, "sites.edit", self.is_dirty())

    def show_status(self, text: str) -> None:
        self.message.setText(text)

    def describe(self, box: Box) -> str:
        plan = self.current_plan()
        parts = [fill(self.tr("Banca %1"), str(box.number))]
        section = plan.section_label(box)
        if section:
            parts.append(section)
        parts.append(
            f"{metre_text(box.front)} × {metre_text(box.depth)}"
            + (f" + {metre_text(box.hitch)} de engate" if box.hitch else "")
        )
        parts.append(f"{SIDE_LABELS.get(box.side, box.side)}, {self.tr('início')} {metre_text(box.x)}")
        parts.append(
            fill(self.tr("titular: %1"), f"{box.holder} — {box.holder_name or ''}".rstrip(" —"))
            if box.holder
            else self.tr("banca livre")
        )
        text = "\n".join(parts)
        for breach in plan.flagged().get(box.uid, []):
            text += "\n⚠ " + breach.message + (f" ({breach.basis})" if breach.basis else "")
        return text

    # -- selection -----------------------------------------------------------------
    def selected_uids(self) -> list[int]:
        return [item.uid for item in self.scene.selectedItems() if isinstance(item, StallItem)]

    def select_stalls(self, uids: Iterable[int]) -> None:
        self.scene.clearSelection()
        for uid in uids:
            if uid in self.items:
                self.items[uid].setSelected(True)

    def select_number(self, number: int) -> int:
        uid = self.current_plan().by_number(number)[0]
        self.select_stalls([uid])
        return uid

    def _selection_changed(self) -> None:
        if self.plan is None:
            return
        plan = self.plan
        tools = self.tools
        uids = self.selected_uids()
        one = len(uids) == 1
        for action in (tools.action_delete, tools.action_rotate):
            allow(action, "sites.edit", bool(uids))
        for how, action in tools.align_actions.items():
            allow(action, "sites.edit", len(uids) >= (1 if how == "kerb" else 2))
        allow(tools.action_distribute, "sites.edit", len(uids) >= 3)
        allow(tools.action_pack, "sites.edit", len(uids) >= 2)
        allow(self.holder_panel.unassign_button, "sites.assign", one and plan.stalls[uids[0]].holder_id is not None)
        allow(self.holder_panel.assign_button, "sites.assign", one)
        self.stall_panel.setEnabled(one)
        if one:
            box = plan.stalls[uids[0]]
            limit = plan.limits(box)
            self.stall_panel.show_stall(
                box,
                limit=limit.text + (f" ({limit.basis})" if limit.basis else ""),
                where=f"{SIDE_LABELS.get(box.side, box.side)}, {metre_text(box.x)} "
                + fill(self.tr("do início; rotação %1°"), str(box.rotation)),
                holder=f"{box.holder} — {box.holder_name or ''}" if box.holder else self.tr("livre"),
            )
        else:
            self.stall_panel.show_none(
                fill(self.tr("%1 bancas selecionadas"), str(len(uids)))
                if uids
                else self.tr("Selecione uma banca no mapa.")
            )
        for item in self.scene.selectedItems():  # the scene's own: never an item it has already deleted
            item.update()
        self.scene.spots_changed()

    # -- edits (each one undo step, by the edit controller) ----------------------------
    def push(self, changes: dict, text: str, *, merge: bool = False) -> bool:
        return self.edits.push(changes, text, merge=merge)

    def moving_text(self, uids: list[int]) -> str:
        return self.edits.moving_text(uids)

    def nudge(self, dx: int, dy: int) -> None:
        self.edits.nudge(self.selected_uids(), dx, dy)

    def rotate_selected(self) -> None:
        self.edits.rotate(self.selected_uids())

    def delete_selected(self) -> None:
        self.edits.delete(self.selected_uids())

    def align_selected(self, how: str) -> None:
        self.edits.align(self.selected_uids(), how)

    def distribute_selected(self) -> None:
        self.edits.distribute(self.selected_uids())

    def pack_selected(self) -> None:
        self.edits.pack(self.selected_uids())

    def add_stall(self, section: str | None = None) -> int | None:
        """A new stall, of the selected stall's section if any, at the first place from the street's start where
        it breaks no rule — on the kerb nearer the middle of what the window shows first (issue 31 §6: it was
        dropped in the middle of the view, onto the stalls there); shown there."""
        plan = self.current_plan()
        uids = self.selected_uids()
        if section is None and uids:
            section = plan.stalls[uids[0]].section
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        try:
            uid = self.edits.add(section, None, "a" if centre.y() < plan.width / 2 else "b")
        except UserError as exc:
            self.show_status(exc.message)
            return None
        self.select_stalls([uid])
        self.view.ensureVisible(self.items[uid])
        return uid

    def _number_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        try:
            self.edits.renumber(uids[0], self.stall_panel.prop_number.value())
        except UserError as exc:
            self.show_status(exc.message)
            self._selection_changed()

    def _section_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) == 1:
            self.edits.set_section(uids[0], self.stall_panel.prop_section.currentData())

    def _size_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        panel = self.stall_panel
        try:
            front, depth = self.current_plan().typed_size(uids[0], panel.prop_front.text(), panel.prop_depth.text())
        except UserError as exc:  # kept as typed, marked, nothing changed on the map
            panel.size_error(exc)
            return
        panel.size_error(None)
        self.resize_stall(uids[0], front, depth)

    def resize_stall(self, uid: int, front: int, depth: int) -> bool:
        pushed, cut_to = self.edits.resize(uid, front, depth)
        if cut_to is not None:
            self.show_status(
                fill(self.tr("Tamanho limitado — %1"), cut_to.text) + (f" ({cut_to.basis})" if cut_to.basis else "")
            )
        return pushed

    # -- holders ---------------------------------------------------------------------
    def _reload_holders(self) -> None:
        site_id = self.site_id
        found = in_background(lambda: site_holders(site_id)) if site_id is not None else []
        self.holders = {h.permit_id: h for h in found}
        self._fill_holders()

    def _elsewhere(self) -> dict[int, int]:
        """Holders on a stall of another segment of the site → that stall's number."""
        return {
            h.permit_id: h.stall
            for h in self.holders.values()
            if h.stall is not None and h.segment_id not in (None, self.segment_id)
        }

    def free_holders(self) -> list[HolderRow]:
        if self.plan is None:
            return []
        on_plan = {b.holder_id for b in self.plan.stalls.values() if b.holder_id is not None}
        elsewhere = self._elsewhere()
        return [h for h in self.holders.values() if h.permit_id not in on_plan and h.permit_id not in elsewhere]

    def _fill_holders(self) -> None:
        if self.plan is None:
            return
        sections = {s.id: (s.numeral, s.label) for s in self.plan.regime.sections}
        self.holder_panel.show_holders(self.free_holders(), sections)

    def assign(self, uid: int, permit_id: int) -> bool:
        """Put the permit's holder on the stall (one undo step); the refusal is shown in pt-BR."""
        message = self.holder_panel.holder_message
        holder = self.holders.get(permit_id)
        box = self.current_plan().stalls.get(uid)
        if holder is None or box is None or self.site_id is None:
            message.setText(self.tr("Titular ou banca não encontrados."))
            return False
        info = HolderInfo(holder.permit_id, holder.number, holder.name, holder.section)
        site_id = self.site_id
        try:  # the act's and the permit's checks read on a worker (issue 27 §5), the holder's buttons held
            in_background(
                lambda: check_assignment(site_id, permit_id, number=box.number, section=box.section),
                busy=(self.holder_panel.assign_button, self.holder_panel.unassign_button),
            )
            changes, text = self.edits.assignment(uid, info, self._elsewhere())
        except UserError as exc:
            message.setText(exc.message)
            self.tabs.setCurrentIndex(1)
            return False
        message.clear()
        self.select_stalls([uid])
        return self.edits.push(changes, text)

    def assign_selected(self) -> bool:
        uids = self.selected_uids()
        permit_id = self.holder_panel.chosen_permit()
        if len(uids) != 1:
            self.holder_panel.holder_message.setText(self.tr("Selecione uma banca no mapa."))
            return False
        if permit_id is None:
            self.holder_panel.holder_message.setText(self.tr("Selecione um titular na lista."))
            return False
        return self.assign(uids[0], permit_id)

    def unassign_selected(self) -> bool:
        return self.edits.unassign(self.selected_uids())

    # -- breaches ----------------------------------------------------------------------
    def _breach_chosen(self) -> None:
        breach = self.checks.selected_breach()
        kept = self.kept.get(breach.signature) if breach is not None else None
        allow(self.checks.keep_button, "sites.edit", breach is not None and kept is None)
        allow(self.checks.unkeep_button, "sites.edit", kept is not None)
        if breach is not None:
            uids = self.current_plan().breach_uids(breach)
            if uids:
                self.select_stalls(uids)
                rect = QRectF()
                for uid in uids:
                    rect = rect.united(self.items[uid].sceneBoundingRect())
                self.view.ensureVisible(rect, 40, 40)

    def selected_breach(self) -> Breach | None:
        return self.checks.selected_breach()

    def keep_selected_breach(self) -> KeptBreach | None:
        """Open the reason dialog for the chosen breach; returns the kept breach or None."""
        breach = self.selected_breach()
        if breach is None or self.site_id is None:
            return None
        dialog = KeepBreachDialog(self.site_id, breach, self)
        self.last_dialog = dialog
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.kept is None:
            return None
        site_id = self.site_id
        self.kept = in_background(lambda: kept_breaches(site_id))  # issue 27 §5
        self._refresh_checks()
        self._update_status()
        self.show_status(self.tr("Irregularidade mantida com justificativa."))
        return dialog.kept

    def drop_selected_kept(self) -> bool:
        breach = self.selected_breach()
        kept = self.kept.get(breach.signature) if breach is not None else None
        if kept is None or self.site_id is None:
            return False
        site_id, kept_id = self.site_id, kept.id

        def drop():  # the worker thread (issue 27 §5)
            drop_kept_breach(kept_id)
            return kept_breaches(site_id)

        self.kept = in_background(drop, busy=(self.checks.keep_button, self.checks.unkeep_button))
        self._refresh_checks()
        self._update_status()
        return True

    def open_breaches(self) -> list[Breach]:
        """The plan's breaches of the act not kept with a written reason."""
        return open_breaches(self.plan.breaches(), self.kept) if self.plan is not None else []

    # -- auto-layout -------------------------------------------------------------------
    def run_auto_layout(self) -> Layout | None:
        """Lay out again this segment's stalls and the holders of the site without one; one undo step."""
        from views.operations import run_operation

        elsewhere = self._elsewhere()
        names = {h.permit_id: h.name for h in self.holders.values()}
        site_id, plan = self.site_id, self.current_plan()
        assert site_id is not None  # a plan is open

        def work(progress):  # the worker thread (issue 18 §2): a large site's layout leaves the window responsive
            progress(0, 0)  # a busy bar: the layout reports no steps; nothing is written, so nothing to cancel
            extra = [r for r in requests_from_permits(site_id) if r.holder_id not in elsewhere]
            return plan.auto(extra, names=names)

        try:
            changes, layout = run_operation(
                self, self.tr("Distribuindo as bancas…"), work, title=self.tr("Auto-layout"), cancellable=False
            )
        except UserError as exc:
            self.show_status(exc.message)
            return None
        self.last_layout = layout
        self.edits.push(changes, self.tr("Auto-layout"))
        html = [f"<b>{escape(self.tr('Auto-layout'))}</b>: {escape(layout.summary())}"]
        if layout.unplaced:
            html.append(
                "<ul>"
                + "".join(
                    f"<li>{escape(u.key)} — {escape(u.reason)}"
                    + (f" <i>({escape(u.basis)})</i>" if u.basis else "")
                    + "</li>"
                    for u in layout.unplaced
                )
                + "</ul>"
            )
        html.append(
            "<ul>"
            + "".join(
                f"<li>{escape(n.text)}" + (f" <i>({escape(n.basis)})</i>" if n.basis else "") + "</li>"
                for n in layout.notes
            )
            + "</ul>"
        )
        self.checks.show_auto_result("".join(html))
        self.tabs.setCurrentIndex(0)
        self.show_status(layout.summary())
        return layout

    # -- saving, printing, exporting ----------------------------------------------------
    def save(self) -> bool:
        """Write the segment's stalls and holders in one transaction (:func:`models.sites.save_layout`)."""
        if self.plan is None or self.site_id is None:
            return False
        try:
            site_id, placed, segment_id = self.site_id, self.plan.placed(), self.segment_id
            result = in_background(  # the worker thread (issue 27 §5): one transaction
                lambda: save_layout(site_id, placed, segment=segment_id, keep_holders=False)
            )
        except OpenBreaches as exc:  # the domain refuses it (the README's promise); the screen shows where to act
            self.tabs.setCurrentIndex(0)
            self.show_status(
                fill(
                    self.tr(
                        "O mapa não foi salvo: %1 irregularidade(s) em aberto (a primeira: %2). "
                        "Corrija cada uma ou mantenha-a "
                        "com justificativa em Verificações → Manter com justificativa…"
                    ),
                    str(len(exc.breaches)),
                    exc.breaches[0].message,
                )
            )
            return False
        except FieldErrors as exc:
            self.show_status(next(iter(exc.errors.values())))
            return False
        except UserError as exc:
            self.show_status(exc.message)
            return False
        self.undo.setClean()
        self._reload_holders()
        self._update_status()
        self.show_status(fill(self.tr("Mapa salvo: %1"), result.summary()))
        self.saved.emit()
        return True

    def export_dict(self) -> dict:
        """What the printed map shows: the site as saved, with this segment as it is on screen."""
        return self.current_plan().export(self._site_export())

    def _site_export(self) -> dict:
        """The site as saved (``models.sites.site_export``), read on a worker (issue 27 §5)."""
        site_id = self.site_id
        assert site_id is not None  # a plan is open
        return in_background(lambda: site_export(site_id))

    def print_dialog(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from reports.site_map import prepare_printer

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        export = self.export_dict()
        prepare_printer(printer, export)
        dialog = QPrintDialog(printer, self)
        dialog.setWindowTitle(self.tr("Imprimir mapa"))
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.print_to(printer, export)

    def print_to(self, printer: QPrinter, export: dict | None = None) -> PageChoice:
        from reports.site_map import print_map

        choice = print_map(printer, export or self.export_dict())
        self.show_status(fill(self.tr("Mapa enviado para impressão (escala 1:%1)."), str(choice.scale)))
        return choice

    def export_dialog(self) -> None:
        name = file_name("mapa", self._site_export()["site"]["name"]) if self.site_id else "mapa.pdf"
        path, _ = save_file_name(self, self.tr("Exportar mapa"), name, self.tr("PDF (*.pdf);;PNG (*.png);;SVG (*.svg)"))
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> bool:
        from reports import site_map

        fmt = path.suffix.lower().lstrip(".") or "pdf"
        writer = getattr(site_map, f"write_{fmt}", None)
        if writer is None:
            self.show_status(self.tr("Formato desconhecido: use .pdf, .png ou .svg."))
            return False
        try:
            choice = writer(self.export_dict(), path)
        except UserError as exc:
            self.show_status(exc.message)
            return False
        self.show_status(fill(self.tr("Mapa gravado em %1 (escala 1:%2)."), str(path), str(choice.scale)))
        return True
