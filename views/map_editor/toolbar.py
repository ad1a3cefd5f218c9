"""The editor's toolbars: the file and undo tools, the editing tools and the view's tools, with their shortcuts.

:class:`MapToolbar` owns its actions and three tool bars (laid side by side where the screen is wide, the
view's on a second line where it is not — never behind a "››"). It is created with what it drives itself: the
widget whose shortcuts they are, the undo stack and the view (zoom, fit, legend). The actions that change
the plan or write a file are the editor's to connect (:class:`views.map_editor.editor.MapEditor`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMenu, QStyle, QToolBar, QToolButton, QWidget
from shiboken6 import isValid

from views.blocks import fill
from views.flow import FlowLayout
from views.map_editor.view import MapView

Shortcut = str | QKeySequence | QKeySequence.StandardKey | list[QKeySequence] | list[str]


class MapToolbar(QObject):
    """The editor's actions and the tool bars that show them."""

    def __init__(self, owner: QWidget, undo: QUndoStack, view: MapView):
        super().__init__(owner)
        self.owner = owner
        self.undo = undo
        self.view = view
        self.widget = QWidget()
        self.widget.setObjectName("map-toolbars")
        flow = FlowLayout(self.widget, spacing=0)
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

        sp = QStyle.StandardPixmap
        tr = self.tr
        self.action_save = self._action(
            tr("&Salvar"), shortcut=QKeySequence.StandardKey.Save, icon=sp.SP_DialogSaveButton, name="save"
        )
        self.action_save.setShortcutContext(Qt.ShortcutContext.WindowShortcut)  # Ctrl+S wherever the focus is
        # own actions (not createUndoAction): a short text in the toolbar, what is undone in the tooltip
        self.action_undo = self._action(
            tr("&Desfazer"), undo.undo, shortcut=QKeySequence.StandardKey.Undo, icon=sp.SP_ArrowBack, name="undo"
        )
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        for extra in ("Ctrl+Shift+Z", "Ctrl+Y"):
            if QKeySequence(extra) not in redo_keys:
                redo_keys.append(QKeySequence(extra))
        self.action_redo = self._action(
            tr("&Refazer"), undo.redo, shortcut=redo_keys, icon=sp.SP_ArrowForward, name="redo"
        )
        self.action_auto = self._action(tr("&Auto-layout"), name="auto-layout")
        self.action_add = self._action(tr("+ &Banca"), shortcut="Ctrl+B", name="add")
        self.action_add.setToolTip(tr("Adicionar uma banca livre (Ctrl+B)"))
        self.action_delete = self._action(tr("E&xcluir"), shortcut=QKeySequence.StandardKey.Delete, name="delete")
        self.action_rotate = self._action(tr("&Girar"), shortcut="R", name="rotate")
        self.action_rotate.setToolTip(tr("Girar 90° (R)"))
        self.action_distribute = self._action(tr("&Distribuir"), name="distribute")
        self.action_distribute.setToolTip(tr("Espaços iguais entre a primeira e a última banca selecionada"))
        self.action_pack = self._action(tr("&Encostar"), name="pack")
        self.action_pack.setToolTip(tr("Encostar as bancas selecionadas com o espaço mínimo entre elas"))
        self.action_zoom_in = self._action(
            tr("Zoom +"),
            lambda: view.zoom_by(1.25, anchor_under_mouse=False),
            shortcut=["Ctrl+=", "Ctrl++"],
            name="zoom-in",
        )
        self.action_zoom_in.setToolTip(tr("Aproximar (Ctrl+=; roda do mouse)"))
        self.action_zoom_out = self._action(
            tr("Zoom −"), lambda: view.zoom_by(0.8, anchor_under_mouse=False), shortcut="Ctrl+-", name="zoom-out"
        )
        self.action_zoom_out.setToolTip(tr("Afastar (Ctrl+-)"))
        self.action_fit = self._action(tr("&Tudo"), view.fit, shortcut="Ctrl+0", name="fit")
        self.action_fit.setToolTip(tr("Ajustar o trecho inteiro à janela (Ctrl+0)"))
        self.action_across = self._action(tr("&Rua"), view.fit_across, shortcut="Ctrl+9", name="fit-across")
        self.action_across.setToolTip(
            tr("A largura da rua na altura da janela (Ctrl+9); arraste com o botão do meio ou com Espaço para andar")
        )
        self.action_legend = self._action(tr("&Legenda"), self._toggle_legend, name="legend")
        self.action_legend.setCheckable(True)
        self.action_legend.setChecked(True)
        self.action_print = self._action(tr("&Imprimir…"), shortcut=QKeySequence.StandardKey.Print, name="print")
        self.action_export = self._action(tr("E&xportar…"), name="export")
        self.align_menu = QMenu(tr("Alinhar"), owner)
        self.align_actions: dict[str, QAction] = {}
        for how, text in (
            ("left", tr("Pelo início (esquerda)")),
            ("right", tr("Pelo fim (direita)")),
            ("top", tr("Pelo lado A (acima)")),
            ("bottom", tr("Pelo lado B (abaixo)")),
            ("kerb", tr("No meio-fio do seu lado")),
        ):
            action = self.align_menu.addAction(text)
            action.setObjectName(f"align-{how}")
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

    def _action(
        self,
        text: str,
        slot: Callable[[], object] | None = None,
        *,
        shortcut: Shortcut | None = None,
        icon: QStyle.StandardPixmap | None = None,
        name: str = "",
    ) -> QAction:
        """An action of the owner widget (its shortcut works where the focus is in the editor)."""
        action = QAction(text, self.owner)
        if icon is not None:
            action.setIcon(self.owner.style().standardIcon(icon))
        if shortcut is not None:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([k if isinstance(k, QKeySequence) else QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        action.setObjectName(name)
        self.owner.addAction(action)
        return action

    @staticmethod
    def wire(action: QAction, slot: Callable[[], object]) -> None:
        """Run ``slot`` (without the checked flag) when the action is triggered."""
        action.triggered.connect(lambda _checked=False: slot())

    def bars(self) -> tuple[QToolBar, QToolBar, QToolBar]:
        return (self.toolbar, self.edit_tools, self.view_tools)

    def follow_undo(self) -> None:
        """Undo and redo enabled as the stack allows, what they would do in their tooltips."""
        undo = self.undo
        # the stack is cleared while the editor is destroyed: nothing to show then
        if not (isValid(self) and isValid(undo)):
            return
        self.action_undo.setEnabled(undo.canUndo())
        self.action_redo.setEnabled(undo.canRedo())
        self.action_undo.setToolTip(
            fill(self.tr("Desfazer: %1"), undo.undoText()) if undo.canUndo() else self.tr("Nada a desfazer")
        )
        self.action_redo.setToolTip(
            fill(self.tr("Refazer: %1"), undo.redoText()) if undo.canRedo() else self.tr("Nada a refazer")
        )

    def _toggle_legend(self) -> None:
        self.view.legend.setVisible(self.action_legend.isChecked())
        self.view._place_overlays()
