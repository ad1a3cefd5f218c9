"""The editor's toolbar and side panels: its actions and their shortcuts, the checks, holders and stall tabs.

A mixin of :class:`views.map_editor.editor.MapEditor`, which builds them once in its constructor.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QAction,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPushButton,
    QSpinBox,
    QStyle,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from views.blocks import error_label, fill
from views.map_editor.dialogs import HolderList


class EditorPanels:
    """The toolbar and side panels of :class:`views.map_editor.editor.MapEditor`."""

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
