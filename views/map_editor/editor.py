"""The map editor: the toolbar, the side lists, the undo stack, the breaches and saving.

The toolbar and side panels are built in :mod:`views.map_editor.panels`, the edits of the plan are in
:mod:`views.map_editor.edits` (mixins of the editor); here the editor loads a segment, follows the plan and
the selection, checks, saves, prints and exports.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import (
    QUndoStack,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QMessageBox,
    QSplitter,
    QStyle,
    QTabWidget,
    QToolBar,
    QUndoView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.sites import (
    HolderRow,
    kept_breaches,
    plan_of,
    save_layout,
    site_export,
    site_holders,
    stall_rows,
)
from models.sites.breaches import OpenBreaches, open_breaches
from models.sites.layout import NUMBERING, OBSTACLE_KINDS, SIDE_LABELS, SIDE_USES, format_metres
from models.sites.stall_plan import Box, StallPlan
from reports.site_map import OBSTACLE_MARKS
from views import theme
from views.blocks import fill
from views.flow import FlowLayout
from views.map_editor.edits import StallEdits
from views.map_editor.items import StallItem
from views.map_editor.panels import EditorPanels
from views.map_editor.scene import MapScene
from views.map_editor.style import SPOT, metre_text
from views.map_editor.view import MapView
from views.roles import allow
from views.save import file_name, save_file_name


class MapEditor(StallEdits, EditorPanels, QWidget):
    """One segment of a site: the map, its toolbar, the checks, the holders and the selected stall."""

    saved = Signal()
    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.site_id: int | None = None
        self.segment_id: int | None = None
        self.plan: StallPlan | None = None
        self.items: dict[int, StallItem] = {}
        self.kept: dict = {}
        self.holders: dict[int, HolderRow] = {}
        self.last_layout = None
        self.undo = QUndoStack(self)
        self.undo.cleanChanged.connect(self._undo_changed)
        self.undo.indexChanged.connect(self._undo_changed)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setObjectName("map-title")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        self.segment_box = QComboBox()
        self.segment_box.setObjectName("segment")
        self.segment_box.setVisible(False)
        head.addWidget(self.segment_box)
        layout.addLayout(head)
        # the editing tools and the view's (zoom, legend): side by side where the screen is wide, the view's on a
        # second line where it is not — never behind a "››"
        tools = QWidget()
        tools.setObjectName("map-toolbars")
        flow = FlowLayout(tools, spacing=0)
        self.toolbar = QToolBar()
        self.toolbar.setObjectName("map-tools")
        self.edit_tools = QToolBar()
        self.edit_tools.setObjectName("map-edit-tools")
        self.view_tools = QToolBar()
        self.view_tools.setObjectName("map-view-tools")
        for bar in (self.toolbar, self.edit_tools, self.view_tools):
            bar.setIconSize(QSize(18, 18))
            bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            flow.addWidget(bar)
        layout.addWidget(tools)

        self.scene = MapScene(self)
        self.view = MapView(self, self.scene)
        self.view.zoomed.connect(self._update_far)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("map-side")
        self.tabs.setMinimumWidth(300)
        self.tabs.setUsesScrollButtons(False)  # every tab's name whole: the tabs take the room they need
        self._build_checks_tab()
        self._build_holders_tab()
        self._build_stall_tab()
        self.history = QUndoView(self.undo)
        self.history.setEmptyLabel(self.tr("<mapa aberto>"))
        self.tabs.addTab(self.history, self.tr("Histórico"))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.view)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 340])
        layout.addWidget(split, 1)
        self.status = QLabel()
        self.status.setObjectName("map-status")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.message = QLabel()
        self.message.setObjectName("map-message")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self._build_actions()
        self.scene.selectionChanged.connect(self._selection_changed)
        self.segment_box.activated.connect(self._segment_chosen)
        self._set_enabled(False)

    # -- building ------------------------------------------------------------
    def _set_enabled(self, on: bool) -> None:
        for widget in (self.toolbar, self.edit_tools, self.view_tools, self.view, self.tabs):
            widget.setEnabled(on)
        for action in (self.action_auto, self.action_add):
            allow(action, "sites.edit")

    # -- loading ---------------------------------------------------------------
    def is_dirty(self) -> bool:
        return not self.undo.isClean()

    def load(self, site_id: int, segment_id: int | None = None, *, segments: list | None = None) -> None:
        """Open a segment (default: the first) of the site; the undo history starts afresh."""
        plan = plan_of(site_id, segment_id)
        self.site_id = site_id
        self.segment_id = plan.segment_id
        names = {r.permit_id: r.holder_name for r in stall_rows(site_id) if r.permit_id}
        position = 0
        if segments is not None:
            self.segment_box.blockSignals(True)
            self.segment_box.clear()
            for seg in segments:
                self.segment_box.addItem(fill(self.tr("Trecho %1: %2"), str(seg.position + 1), seg.street), seg.id)
            self.segment_box.setVisible(len(segments) > 1)
            index = self.segment_box.findData(plan.segment_id)
            self.segment_box.setCurrentIndex(max(0, index))
            self.segment_box.blockSignals(False)
            position = next((seg.position for seg in segments if seg.id == plan.segment_id), 0)
        self.plan = StallPlan(plan, names=names, position=position)
        self.plan.listeners.append(self._plan_changed)
        self.undo.clear()
        self.scene.clear()
        self.items = {}
        self.last_layout = None
        self.auto_result.setVisible(False)
        for box in self.plan.boxes():
            item = StallItem(self, box)
            self.items[box.uid] = item
            self.scene.addItem(item)
        self.scene.setSceneRect(self.view.street_rect().adjusted(-20_000, -8_000, 20_000, 8_000))
        self._reload_holders()
        self.kept = kept_breaches(site_id)
        self._set_enabled(True)
        segment = plan.segment
        ends = (
            fill(self.tr(", entre %1 e %2"), escape(segment.from_street), escape(segment.to_street))
            if segment.from_street and segment.to_street
            else ""
        )
        gap = format_metres(self.plan.gap, mm=True)
        self.title.setText(
            f"<b>{escape(segment.street)}</b>{ends} — {format_metres(segment.length)} × "
            f"{format_metres(segment.width)}, {SIDE_USES.get(segment.sides, segment.sides)}; "
            + fill(self.tr("espaço entre bancas %1; numeração %2"), gap, NUMBERING.get(plan.numbering, plan.numbering))
        )
        self._fill_sections()
        self._refresh_checks()
        self.view.legend.set_entries(self.plan.legend(), self._legend_extra())
        self.view._place_overlays()
        self.view.fit_across()
        self._selection_changed()
        self._undo_changed()
        self.message.clear()

    def _legend_extra(self) -> list[str]:
        extra = []
        kinds = []
        for o in self.plan.plan.obstacles:
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
        if self.plan.kept_free():
            extra.append(
                self.tr(
                    "<span style='color:#d50000'>▨</span> faixa mantida livre; "
                    "<span style='color:#d50000'>▭</span> banca com irregularidade"
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

    def _reload_holders(self) -> None:
        self.holders = {h.permit_id: h for h in site_holders(self.site_id)}
        self._fill_holders()

    def _fill_sections(self) -> None:
        self.prop_section.clear()
        self.prop_section.addItem(self.tr("(sem seção)"), "")
        for section in self.plan.regime.sections:
            self.prop_section.addItem(f"{section.numeral} — {section.label}", section.id)

    # -- following the plan ------------------------------------------------------
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
        for uid in uids:
            box = self.plan.stalls.get(uid)
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
        self.view.legend.set_entries(self.plan.legend(), self._legend_extra())
        self.view._place_overlays()
        self._fill_holders()
        self._selection_changed()
        self._update_status()

    def _refresh_checks(self) -> None:
        plan = self.plan
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
        current = self.breach_list.currentItem()
        current_sig = current.data(Qt.ItemDataRole.UserRole).signature if current is not None else None
        self.breach_list.blockSignals(True)
        self.breach_list.clear()
        warn = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        ok = self.style().standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton)
        open_count = 0
        for breach in breaches:
            kept = self.kept.get(breach.signature)
            text = f"{breach.label.capitalize()}: {breach.message}"
            text += "\n" + (
                fill(self.tr("Base: %1"), breach.basis) if breach.basis else self.tr("Base: verificação do mapa")
            )
            if kept is not None:
                text += "\n" + fill(
                    self.tr("Mantida — %1 (%2, %3)"), kept.reason, kept.kept_by, kept.kept_at.strftime("%d/%m/%Y")
                )
            else:
                open_count += 1
            item = QListWidgetItem(ok if kept is not None else warn, text)
            item.setData(Qt.ItemDataRole.UserRole, breach)
            if kept is None:
                item.setForeground(theme.qcolour("error"))
            self.breach_list.addItem(item)
            if breach.signature == current_sig:
                self.breach_list.setCurrentItem(item)
        self.breach_list.blockSignals(False)
        if not breaches:
            self.breach_summary.setText(self.tr("Nenhuma irregularidade: o mapa atende às regras do ato."))
        else:
            self.breach_summary.setText(
                fill(
                    self.tr("%1 irregularidade(s), %2 mantida(s) com justificativa."),
                    str(len(breaches)),
                    str(len(breaches) - open_count),
                )
            )
        self._breach_chosen()

    def _update_status(self) -> None:
        if self.plan is None:
            self.status.clear()
            return
        stalls, held = self.plan.counts()
        breaches = self.plan.breaches()
        open_count = len(open_breaches(breaches, self.kept))
        text = fill(
            self.tr("%1 banca(s) · %2 com titular · %3 irregularidade(s) em aberto"),
            str(stalls),
            str(held),
            str(open_count),
        )
        if self.is_dirty():
            text += " · " + self.tr("<b>alterações não salvas</b>")
        self.status.setText(text)
        allow(self.action_save, "sites.edit", self.is_dirty())

    def show_status(self, text: str) -> None:
        self.message.setText(text)

    def describe(self, box: Box) -> str:
        plan = self.plan
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

    def select_stalls(self, uids) -> None:
        self.scene.clearSelection()
        for uid in uids:
            if uid in self.items:
                self.items[uid].setSelected(True)

    def select_number(self, number: int) -> int:
        uid = self.plan.by_number(number)[0]
        self.select_stalls([uid])
        return uid

    def _selection_changed(self) -> None:
        if self.plan is None:
            return
        uids = self.selected_uids()
        one = len(uids) == 1
        for action in (self.action_delete, self.action_rotate):
            allow(action, "sites.edit", bool(uids))
        for how, action in self.align_actions.items():
            allow(action, "sites.edit", len(uids) >= (1 if how == "kerb" else 2))
        allow(self.action_distribute, "sites.edit", len(uids) >= 3)
        allow(self.action_pack, "sites.edit", len(uids) >= 2)
        allow(self.unassign_button, "sites.assign", one and self.plan.stalls[uids[0]].holder_id is not None)
        allow(self.assign_button, "sites.assign", one)
        self.stall_page.setEnabled(one)
        for widget in (self.prop_number, self.prop_section, self.prop_front, self.prop_depth):
            widget.blockSignals(True)
        if one:
            box = self.plan.stalls[uids[0]]
            limit = self.plan.limits(box)
            self.prop_number.setValue(box.number)
            index = self.prop_section.findData(box.section or "")
            self.prop_section.setCurrentIndex(max(0, index))
            self._show_size(box)
            self.prop_limit.setText(limit.text + (f" ({limit.basis})" if limit.basis else ""))
            self.prop_where.setText(
                f"{SIDE_LABELS.get(box.side, box.side)}, {metre_text(box.x)} "
                + fill(self.tr("do início; rotação %1°"), str(box.rotation))
            )
            self.prop_holder.setText(f"{box.holder} — {box.holder_name or ''}" if box.holder else self.tr("livre"))
        else:
            self.prop_limit.clear()
            self.prop_where.setText(
                fill(self.tr("%1 bancas selecionadas"), str(len(uids)))
                if uids
                else self.tr("Selecione uma banca no mapa.")
            )
            self.prop_holder.clear()
        for widget in (self.prop_number, self.prop_section, self.prop_front, self.prop_depth):
            widget.blockSignals(False)
        for item in self.items.values():
            if item.isSelected():
                item.update()
        self.scene.spots_changed()

    # -- edits -----------------------------------------------------------------------
    def save(self) -> bool:
        """Write the segment's stalls and holders in one transaction (:func:`models.sites.save_layout`)."""
        if self.plan is None:
            return False
        try:
            result = save_layout(self.site_id, self.plan.placed(), segment=self.segment_id, keep_holders=False)
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

    def open_breaches(self) -> list:
        """The plan's breaches of the act not kept with a written reason."""
        return open_breaches(self.plan.breaches(), self.kept) if self.plan is not None else []

    def export_dict(self) -> dict:
        """What the printed map shows: the site as saved, with this segment as it is on screen."""
        return self.plan.export(site_export(self.site_id))

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

    def print_to(self, printer, export: dict | None = None):
        from reports.site_map import print_map

        choice = print_map(printer, export or self.export_dict())
        self.show_status(fill(self.tr("Mapa enviado para impressão (escala 1:%1)."), str(choice.scale)))
        return choice

    def export_dialog(self) -> None:
        name = file_name("mapa", site_export(self.site_id)["site"]["name"]) if self.site_id else "mapa.pdf"
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
