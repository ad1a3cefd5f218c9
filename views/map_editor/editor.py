"""The map editor: the toolbar, the side lists, the undo stack, the breaches and saving.

Over 600 lines as one cohesive thing: one widget that wires the plan, the scene, the view, the undo
stack and the side panels together, each action a method on the one editor.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyle,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QUndoView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from models.base.errors import FieldErrors, UserError
from models.sites import (
    HolderRow,
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
from models.sites.layout import NUMBERING, OBSTACLE_KINDS, SIDE_LABELS, SIDE_USES, format_metres
from models.sites.stall_plan import Box, HolderInfo, StallPlan
from reports.site_map import OBSTACLE_MARKS
from views import theme
from views.blocks import error_label, fill
from views.flow import FlowLayout
from views.map_editor.commands import push_change
from views.map_editor.dialogs import HolderList, KeepBreachDialog
from views.map_editor.items import StallItem
from views.map_editor.scene import MapScene
from views.map_editor.style import SPOT, metre_text
from views.map_editor.view import MapView
from views.roles import allow
from views.save import file_name, save_file_name


class MapEditor(QWidget):
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
    def _action(self, text: str, slot, *, shortcut=None, icon=None, name: str = "") -> QAction:
        action = QAction(text, self)
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        if shortcut is not None:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(k) if not isinstance(k, QKeySequence) else k for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        action.setObjectName(name)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        tr = self.tr
        self.action_save = self._action(
            tr("&Salvar"), self.save, shortcut=QKeySequence.StandardKey.Save, icon=sp.SP_DialogSaveButton, name="save"
        )
        self.action_save.setShortcutContext(Qt.ShortcutContext.WindowShortcut)  # Ctrl+S wherever the focus is
        # own actions (not createUndoAction): a short text in the toolbar, what is undone in the tooltip
        self.action_undo = self._action(
            tr("&Desfazer"), self.undo.undo, shortcut=QKeySequence.StandardKey.Undo, icon=sp.SP_ArrowBack, name="undo"
        )
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        for extra in ("Ctrl+Shift+Z", "Ctrl+Y"):
            if QKeySequence(extra) not in redo_keys:
                redo_keys.append(QKeySequence(extra))
        self.action_redo = self._action(
            tr("&Refazer"), self.undo.redo, shortcut=redo_keys, icon=sp.SP_ArrowForward, name="redo"
        )
        self.undo.canUndoChanged.connect(self._undo_changed)
        self.undo.canRedoChanged.connect(self._undo_changed)
        self.action_auto = self._action(tr("&Auto-layout"), self.run_auto_layout, name="auto-layout")
        self.action_add = self._action(tr("+ &Banca"), self.add_stall, shortcut="Ctrl+B", name="add")
        self.action_add.setToolTip(tr("Adicionar uma banca livre (Ctrl+B)"))
        self.action_delete = self._action(
            tr("E&xcluir"), self.delete_selected, shortcut=QKeySequence.StandardKey.Delete, name="delete"
        )
        self.action_rotate = self._action(tr("&Girar"), self.rotate_selected, shortcut="R", name="rotate")
        self.action_rotate.setToolTip(tr("Girar 90° (R)"))
        self.action_distribute = self._action(tr("&Distribuir"), self.distribute_selected, name="distribute")
        self.action_distribute.setToolTip(tr("Espaços iguais entre a primeira e a última banca selecionada"))
        self.action_pack = self._action(tr("&Encostar"), self.pack_selected, name="pack")
        self.action_pack.setToolTip(tr("Encostar as bancas selecionadas com o espaço mínimo entre elas"))
        self.action_zoom_in = self._action(
            tr("Zoom +"),
            lambda: self.view.zoom_by(1.25, anchor_under_mouse=False),
            shortcut=["Ctrl+=", "Ctrl++"],
            name="zoom-in",
        )
        self.action_zoom_in.setToolTip(tr("Aproximar (Ctrl+=; roda do mouse)"))
        self.action_zoom_out = self._action(
            tr("Zoom −"), lambda: self.view.zoom_by(0.8, anchor_under_mouse=False), shortcut="Ctrl+-", name="zoom-out"
        )
        self.action_zoom_out.setToolTip(tr("Afastar (Ctrl+-)"))
        self.action_fit = self._action(tr("&Tudo"), self.view.fit, shortcut="Ctrl+0", name="fit")
        self.action_fit.setToolTip(tr("Ajustar o trecho inteiro à janela (Ctrl+0)"))
        self.action_across = self._action(tr("&Rua"), self.view.fit_across, shortcut="Ctrl+9", name="fit-across")
        self.action_across.setToolTip(
            tr("A largura da rua na altura da janela (Ctrl+9); arraste com o botão do meio ou com Espaço para andar")
        )
        self.action_legend = self._action(tr("&Legenda"), self._toggle_legend, name="legend")
        self.action_legend.setCheckable(True)
        self.action_legend.setChecked(True)
        self.action_print = self._action(
            tr("&Imprimir…"), self.print_dialog, shortcut=QKeySequence.StandardKey.Print, name="print"
        )
        self.action_export = self._action(tr("E&xportar…"), self.export_dialog, name="export")
        self.align_menu = QMenu(tr("Alinhar"), self)
        self.align_actions = {}
        for how, text in (
            ("left", tr("Pelo início (esquerda)")),
            ("right", tr("Pelo fim (direita)")),
            ("top", tr("Pelo lado A (acima)")),
            ("bottom", tr("Pelo lado B (abaixo)")),
            ("kerb", tr("No meio-fio do seu lado")),
        ):
            action = self.align_menu.addAction(text)
            action.setObjectName(f"align-{how}")
            action.triggered.connect(lambda _c=False, h=how: self.align_selected(h))
            self.align_actions[how] = action
        align_button = QToolButton()
        align_button.setText(tr("Alinhar"))
        align_button.setMenu(self.align_menu)
        align_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar = self.toolbar
        for action in (self.action_save, self.action_print, self.action_export):
            bar.addAction(action)
        bar.addSeparator()
        for action in (self.action_undo, self.action_redo):
            bar.addAction(action)
        bar = self.edit_tools
        for action in (self.action_auto, self.action_add, self.action_delete, self.action_rotate):
            bar.addAction(action)
        bar.addWidget(align_button)
        bar.addAction(self.action_distribute)
        bar.addAction(self.action_pack)
        for action in (
            self.action_zoom_in,
            self.action_zoom_out,
            self.action_fit,
            self.action_across,
            self.action_legend,
        ):
            self.view_tools.addAction(action)

    def _undo_changed(self, *_args) -> None:
        # the stack is cleared while the editor is destroyed: nothing to show then
        if not (isValid(self) and isValid(self.undo)):
            return
        self.action_undo.setEnabled(self.undo.canUndo())
        self.action_redo.setEnabled(self.undo.canRedo())
        self.action_undo.setToolTip(
            fill(self.tr("Desfazer: %1"), self.undo.undoText()) if self.undo.canUndo() else self.tr("Nada a desfazer")
        )
        self.action_redo.setToolTip(
            fill(self.tr("Refazer: %1"), self.undo.redoText()) if self.undo.canRedo() else self.tr("Nada a refazer")
        )
        self._update_status()
        self.changed.emit()

    def _toggle_legend(self) -> None:
        self.view.legend.setVisible(self.action_legend.isChecked())
        self.view._place_overlays()

    def _build_checks_tab(self) -> None:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.breach_summary = QLabel()
        self.breach_summary.setObjectName("breach-summary")
        self.breach_summary.setWordWrap(True)
        layout.addWidget(self.breach_summary)
        self.breach_list = QListWidget()
        self.breach_list.setObjectName("breaches")
        self.breach_list.setWordWrap(True)
        self.breach_list.currentItemChanged.connect(lambda *_: self._breach_chosen())
        layout.addWidget(self.breach_list, 2)
        row = QVBoxLayout()
        self.keep_button = QPushButton(self.tr("Manter com jus&tificativa…"))
        self.keep_button.setObjectName("keep-breach")
        self.keep_button.clicked.connect(lambda: self.keep_selected_breach())
        self.unkeep_button = QPushButton(self.tr("Retirar justificativa"))
        self.unkeep_button.setObjectName("drop-kept")
        self.unkeep_button.clicked.connect(lambda: self.drop_selected_kept())
        row.addWidget(self.keep_button)
        row.addWidget(self.unkeep_button)
        layout.addLayout(row)
        self.auto_result = QTextBrowser()
        self.auto_result.setObjectName("auto-result")
        self.auto_result.setVisible(False)
        layout.addWidget(self.auto_result, 1)
        self.tabs.addTab(page, self.tr("Verificações"))

    def _build_holders_tab(self) -> None:
        page = QWidget()
        layout = QVBoxLayout(page)
        hint = QLabel(
            self.tr("Arraste um titular até uma banca do mapa, ou selecione a banca e o titular e clique em Atribuir.")
        )
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.holder_filter = QLineEdit()
        self.holder_filter.setObjectName("holder-filter")
        self.holder_filter.setPlaceholderText(self.tr("Filtrar por nº da permissão, nome ou seção"))
        self.holder_filter.setClearButtonEnabled(True)
        self.holder_filter.textChanged.connect(lambda _t: self._fill_holders())
        layout.addWidget(self.holder_filter)
        self.holder_list = HolderList()
        layout.addWidget(self.holder_list, 1)
        row = QHBoxLayout()
        self.assign_button = QPushButton(self.tr("A&tribuir"))
        self.assign_button.setObjectName("assign")
        self.assign_button.clicked.connect(lambda: self.assign_selected())
        self.unassign_button = QPushButton(self.tr("&Liberar banca"))
        self.unassign_button.setObjectName("unassign")
        self.unassign_button.clicked.connect(lambda: self.unassign_selected())
        row.addWidget(self.assign_button)
        row.addWidget(self.unassign_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.holder_message = error_label("holder-message")
        layout.addWidget(self.holder_message)
        self.tabs.addTab(page, self.tr("Titulares"))

    def _build_stall_tab(self) -> None:
        page = QWidget()
        layout = QVBoxLayout(page)
        form = QFormLayout()
        self.prop_number = QSpinBox()
        self.prop_number.setObjectName("number")
        self.prop_number.setRange(1, 99_999)
        self.prop_section = QComboBox()
        self.prop_section.setObjectName("section")
        # typed in metres the pt-BR way (models.base.money.parse_typed), refused at the field — never clamped:
        # a spin box capped at the act's maximum turned "12" into 1,00 m and "-3" into 3,00 (issue 18 §3)
        self.prop_front = QLineEdit()
        self.prop_front.setObjectName("front")
        self.prop_depth = QLineEdit()
        self.prop_depth.setObjectName("depth")
        for edit in (self.prop_front, self.prop_depth):
            edit.setPlaceholderText(self.tr("metros, ex.: 3,50"))
            edit.setMaximumWidth(edit.fontMetrics().horizontalAdvance("0" * 16))
        self.prop_error = QLabel()
        self.prop_error.setObjectName("error")
        self.prop_error.setWordWrap(True)
        self.prop_error.hide()
        self.prop_limit = QLabel()
        self.prop_limit.setObjectName("limit")
        self.prop_limit.setWordWrap(True)
        self.prop_where = QLabel()
        self.prop_where.setObjectName("where")
        self.prop_where.setWordWrap(True)
        self.prop_holder = QLabel()
        self.prop_holder.setObjectName("holder")
        self.prop_holder.setWordWrap(True)
        form.addRow(self.tr("&Número:"), self.prop_number)
        form.addRow(self.tr("S&eção:"), self.prop_section)
        form.addRow(self.tr("&Frente:"), self.prop_front)
        form.addRow(self.tr("&Profundidade:"), self.prop_depth)
        form.addRow(self.tr("Tamanho máximo:"), self.prop_limit)
        form.addRow(self.tr("Posição:"), self.prop_where)
        form.addRow(self.tr("Titular:"), self.prop_holder)
        layout.addLayout(form)
        layout.addWidget(self.prop_error)
        layout.addStretch(1)
        self.prop_number.editingFinished.connect(self._number_edited)
        self.prop_section.activated.connect(lambda _i: self._section_edited())
        self.prop_front.editingFinished.connect(self._size_edited)
        self.prop_depth.editingFinished.connect(self._size_edited)
        self.stall_page = page
        self.tabs.addTab(page, self.tr("Banca"))

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
        open_count = sum(1 for b in breaches if b.signature not in self.kept)
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
    def push(self, changes: dict, text: str, *, merge: bool = False) -> bool:
        return push_change(self.undo, self.plan, changes, text, merge=merge)

    def moving_text(self, uids) -> str:
        if len(uids) == 1:
            return fill(self.tr("Mover banca %1"), str(self.plan.stalls[uids[0]].number))
        return fill(self.tr("Mover %1 bancas"), str(len(uids)))

    def nudge(self, dx: int, dy: int) -> None:
        uids = self.selected_uids()
        self.push(self.plan.nudged(uids, dx, dy), self.moving_text(uids), merge=True)

    def rotate_selected(self) -> None:
        uids = self.selected_uids()
        self.push(self.plan.rotated(uids), fill(self.tr("Girar %1 banca(s)"), str(len(uids))))

    def delete_selected(self) -> None:
        uids = self.selected_uids()
        if uids:
            numbers = ", ".join(str(self.plan.stalls[u].number) for u in uids)
            self.push(self.plan.deleted(uids), fill(self.tr("Excluir banca(s) %1"), numbers))

    def align_selected(self, how: str) -> None:
        self.push(self.plan.aligned(self.selected_uids(), how), self.tr("Alinhar bancas"))

    def distribute_selected(self) -> None:
        self.push(self.plan.distributed(self.selected_uids()), self.tr("Distribuir bancas"))

    def pack_selected(self) -> None:
        self.push(self.plan.packed(self.selected_uids()), self.tr("Encostar bancas"))

    def add_stall(self, section: str | None = None) -> int | None:
        """A new stall in the middle of what the window shows, of the selected stall's section if any."""
        uids = self.selected_uids()
        if section is None and uids:
            section = self.plan.stalls[uids[0]].section
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        try:
            uid, changes = self.plan.added(
                section=section, x=round(centre.x()), side="a" if centre.y() < self.plan.width / 2 else "b"
            )
        except UserError as exc:
            self.show_status(exc.message)
            return None
        self.push(changes, fill(self.tr("Adicionar banca %1"), str(changes[uid].number)))
        self.select_stalls([uid])
        return uid

    def _number_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        try:
            changes = self.plan.edited(uids[0], number=self.prop_number.value())
        except UserError as exc:
            self.show_status(exc.message)
            self._selection_changed()
            return
        self.push(changes, self.tr("Renumerar banca"))

    def _section_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) == 1:
            changes = self.plan.edited(uids[0], section=self.prop_section.currentData())
            self.push(changes, fill(self.tr("Mudar a seção da banca %1"), str(self.plan.stalls[uids[0]].number)))

    def _show_size(self, box: Box) -> None:
        """The stall's size in the fields, unmarked."""
        self.prop_front.setText(format_metres(box.front, mm=True).removesuffix(" m"))
        self.prop_depth.setText(format_metres(box.depth, mm=True).removesuffix(" m"))
        self._size_error(None)

    def _size_error(self, exc: UserError | None) -> None:
        for key, edit in (("front", self.prop_front), ("depth", self.prop_depth)):
            wrong = exc is not None and exc.field == key
            edit.setStyleSheet(theme.error_style() if wrong else "")
            edit.setToolTip(exc.message if wrong else "")
        self.prop_error.setText(exc.message if exc is not None else "")
        self.prop_error.setVisible(exc is not None)

    def _size_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        try:
            front, depth = self.plan.typed_size(uids[0], self.prop_front.text(), self.prop_depth.text())
        except UserError as exc:  # kept as typed, marked, nothing changed on the map
            self._size_error(exc)
            return
        self._size_error(None)
        self.resize_stall(uids[0], front, depth)

    def resize_stall(self, uid: int, front: int, depth: int) -> bool:
        changes, limit, clamped = self.plan.resized(uid, front, depth)
        if clamped:
            self.show_status(
                fill(self.tr("Tamanho limitado — %1"), limit.text) + (f" ({limit.basis})" if limit.basis else "")
            )
        return self.push(changes, fill(self.tr("Redimensionar banca %1"), str(self.plan.stalls[uid].number)))

    # -- holders ---------------------------------------------------------------------
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
        wanted = self.holder_filter.text().strip().lower()
        sections = {s.id: s for s in self.plan.regime.sections}
        keep = self.holder_list.currentItem().data(Qt.ItemDataRole.UserRole) if self.holder_list.currentItem() else None
        self.holder_list.clear()
        for holder in self.free_holders():
            section = sections.get(holder.section)
            text = f"{holder.number} — {holder.name}"
            if section is not None:
                text += "\n" + fill(self.tr("Seção %1 (%2)"), section.numeral, section.label)
            if wanted and wanted not in text.lower():
                continue
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, holder.permit_id)
            item.setToolTip(fill(self.tr("Local da permissão: %1"), holder.place or "—"))
            self.holder_list.addItem(item)
            if holder.permit_id == keep:
                self.holder_list.setCurrentItem(item)

    def assign(self, uid: int, permit_id: int) -> bool:
        """Put the permit's holder on the stall (one undo step); the refusal is shown in pt-BR."""
        holder = self.holders.get(permit_id)
        box = self.plan.stalls.get(uid)
        if holder is None or box is None:
            self.holder_message.setText(self.tr("Titular ou banca não encontrados."))
            return False
        try:
            check_assignment(self.site_id, permit_id, number=box.number, section=box.section)
            changes = self.plan.assigned(
                uid,
                HolderInfo(holder.permit_id, holder.number, holder.name, holder.section),
                elsewhere=self._elsewhere(),
            )
        except UserError as exc:
            self.holder_message.setText(exc.message)
            self.tabs.setCurrentIndex(1)
            return False
        self.holder_message.clear()
        self.select_stalls([uid])
        return self.push(changes, fill(self.tr("Atribuir %1 à banca %2"), holder.number, str(box.number)))

    def assign_selected(self) -> bool:
        uids = self.selected_uids()
        item = self.holder_list.currentItem()
        if len(uids) != 1:
            self.holder_message.setText(self.tr("Selecione uma banca no mapa."))
            return False
        if item is None:
            self.holder_message.setText(self.tr("Selecione um titular na lista."))
            return False
        return self.assign(uids[0], item.data(Qt.ItemDataRole.UserRole))

    def unassign_selected(self) -> bool:
        uids = self.selected_uids()
        changes = self.plan.unassigned(uids)
        if not changes:
            return False
        numbers = ", ".join(str(changes[u].number) for u in changes)
        return self.push(changes, fill(self.tr("Liberar banca %1"), numbers))

    # -- breaches ----------------------------------------------------------------------
    def _breach_chosen(self) -> None:
        item = self.breach_list.currentItem()
        breach = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        kept = self.kept.get(breach.signature) if breach is not None else None
        allow(self.keep_button, "sites.edit", breach is not None and kept is None)
        allow(self.unkeep_button, "sites.edit", kept is not None)
        if breach is not None:
            uids = self.plan.breach_uids(breach)
            if uids:
                self.select_stalls(uids)
                rect = QRectF()
                for uid in uids:
                    rect = rect.united(self.items[uid].sceneBoundingRect())
                self.view.ensureVisible(rect, 40, 40)

    def selected_breach(self):
        item = self.breach_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def keep_selected_breach(self):
        """Open the reason dialog for the chosen breach; returns the kept breach or None."""
        breach = self.selected_breach()
        if breach is None:
            return None
        dialog = KeepBreachDialog(self.site_id, breach, self)
        self.last_dialog = dialog
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.kept is None:
            return None
        self.kept = kept_breaches(self.site_id)
        self._refresh_checks()
        self._update_status()
        self.show_status(self.tr("Irregularidade mantida com justificativa."))
        return dialog.kept

    def drop_selected_kept(self) -> bool:
        breach = self.selected_breach()
        kept = self.kept.get(breach.signature) if breach is not None else None
        if kept is None:
            return False
        drop_kept_breach(kept.id)
        self.kept = kept_breaches(self.site_id)
        self._refresh_checks()
        self._update_status()
        return True

    # -- auto-layout, saving, output -----------------------------------------------------
    def run_auto_layout(self):
        """Lay out again this segment's stalls and the holders of the site without one; one undo step."""
        from views.operations import run_operation

        elsewhere = self._elsewhere()
        names = {h.permit_id: h.name for h in self.holders.values()}
        site_id, plan = self.site_id, self.plan

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
        self.push(changes, self.tr("Auto-layout"))
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
        self.auto_result.setHtml("".join(html))
        self.auto_result.setVisible(True)
        self.tabs.setCurrentIndex(0)
        self.show_status(layout.summary())
        return layout

    def save(self) -> bool:
        """Write the segment's stalls and holders in one transaction (:func:`models.sites.save_layout`)."""
        if self.plan is None:
            return False
        open_breaches = self.open_breaches()
        if open_breaches:  # the README's promise: each breach fixed, or kept with its written reason, first
            self.tabs.setCurrentIndex(0)
            self.show_status(
                fill(
                    self.tr(
                        "O mapa não foi salvo: %1 irregularidade(s) em aberto (a primeira: %2). "
                        "Corrija cada uma ou mantenha-a "
                        "com justificativa em Verificações → Manter com justificativa…"
                    ),
                    str(len(open_breaches)),
                    open_breaches[0].message,
                )
            )
            return False
        try:
            result = save_layout(self.site_id, self.plan.placed(), segment=self.segment_id, keep_holders=False)
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
        return [b for b in self.plan.breaches() if b.signature not in self.kept] if self.plan is not None else []

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
