"""Mapas: the sites (streets, feiras, event areas, beaches), their forms, and the stall map editor.

The list on the left comes from :func:`models.sites.site_rows`; choosing a
site opens its first segment in the :class:`views.map_editor.MapEditor` (a
beach or a place without a street shows its named points instead). Leaving a
map with unsaved changes asks first.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.sites import delete_site, named_points, site_export, site_rows, site_segments
from models.store.db import current_url
from views.blocks import button_row, fill, message_label, push_button, user_errors, wrapped_label
from views.map_editor import MapEditor
from views.operations import in_background
from views.save import file_name, save_file_name
from views.site_form import SiteFormDialog
from views.table_models import Column, RowsModel, selected_row


def _count(row) -> str:
    if row.stalls or not row.points:
        return f"{row.stalls} ({row.assigned} c/ titular)"
    return f"{row.points} ponto(s)"


class PointsPanel(QWidget):
    """A site without a street: the points the act names, with their descriptions, and the printed list."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.site_id: int | None = None
        layout = QVBoxLayout(self)
        self.title = wrapped_label(name="points-title")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.title)
        self.model = RowsModel(
            [
                (self.tr("Código"), lambda p: p.code),
                (self.tr("Descrição"), lambda p: p.description or p.label),
                (self.tr("Base legal"), lambda p: p.basis),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("points")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.export_button = push_button(self.tr("E&xportar lista…"), "export-points", self.export_dialog)
        layout.addLayout(button_row(self.export_button))
        self.message = QLabel()
        self.message.setObjectName("points-message")
        layout.addWidget(self.message)

    def load(self, site_id: int, name: str) -> None:
        self.site_id = site_id
        points = in_background(lambda: named_points(site_id))  # issue 27 §5
        self.model.set_rows(points)
        self.title.setText(
            fill(
                self.tr(
                    "<b>%1</b> — sem trecho de rua: %2 ponto(s) nomeado(s). Cadastre um trecho "
                    "(Editar local) para desenhar o mapa."
                ),
                escape(name),
                len(points),
            )
        )

    @Slot()
    def export_dialog(self) -> None:
        if self.site_id is None:
            return
        site_id = self.site_id
        saved = in_background(lambda: site_export(site_id))  # issue 27 §5
        name = file_name("pontos", saved["site"]["name"])
        path, _ = save_file_name(
            self, self.tr("Exportar pontos"), name, self.tr("PDF (*.pdf);;PNG (*.png);;SVG (*.svg)")
        )
        if path:
            from reports import site_map

            fmt = Path(path).suffix.lower().lstrip(".") or "pdf"
            getattr(site_map, f"write_{fmt}", site_map.write_pdf)(saved, Path(path))
            self.message.setText(fill(self.tr("Lista gravada em %1."), path))


class MapsPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 8)
        heading = QLabel(self.tr("Mapas"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        # with a map open the list of sites gives the map its room: a selector beside the heading instead
        head = QHBoxLayout()
        head.addWidget(heading)
        head.addStretch(1)
        self.list_button = push_button(self.tr("Lista de locai&s"), "show-sites")
        self.list_button.setCheckable(True)
        self.list_button.setChecked(True)
        self.list_button.setToolTip(self.tr("Mostrar ou esconder a lista de locais ao lado do mapa"))
        self.site_picker = QComboBox()
        self.site_picker.setObjectName("site-picker")
        self.site_picker.setToolTip(self.tr("O local cujo mapa está aberto"))
        self.site_picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.site_picker.setMinimumContentsLength(32)
        head.addWidget(self.site_picker)
        head.addWidget(self.list_button)
        layout.addLayout(head)

        left = QWidget()
        self.left = left
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        self.model = RowsModel(
            [
                (self.tr("Local"), lambda r: r.name),
                (self.tr("Tipo"), lambda r: r.kind_label),
                (self.tr("Regime"), lambda r: r.regime_short),
                Column(self.tr("Bancas"), _count, right=True),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("sites")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        left_layout.addWidget(self.table, 1)
        self.new_button = push_button(self.tr("&Novo local…"), "new-site")
        self.edit_button = push_button(self.tr("&Editar local…"), "edit-site")
        self.delete_button = push_button(self.tr("Excluir"), "delete-site")
        left_layout.addLayout(button_row(self.new_button, self.edit_button, self.delete_button))
        self.message = message_label()
        left_layout.addWidget(self.message)

        self.stack = QStackedWidget()
        self.empty = QLabel(self.tr("Escolha um local à esquerda, ou cadastre um em Novo local."))
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.editor = MapEditor()
        self.points = PointsPanel()
        for widget in (self.empty, self.editor, self.points):
            self.stack.addWidget(widget)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.stack)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 4)
        split.setSizes([330, 1000])
        self.split = split
        layout.addWidget(split, 1)

        self.current_id: int | None = None
        self._url: str | None = None
        self.table.selectionModel().selectionChanged.connect(self._site_chosen)
        self.new_button.clicked.connect(self.new_site)
        self.edit_button.clicked.connect(self.edit_site)
        self.delete_button.clicked.connect(self.delete_selected)
        self.table.doubleClicked.connect(self.edit_site)
        self.editor.saved.connect(self._refresh_rows)
        self.split.setCollapsible(0, False)
        self.list_button.toggled.connect(self._show_list)
        self.site_picker.activated.connect(lambda i: self.select_site(self.site_picker.itemData(i), quiet=True))
        self._show_list(True)

    def _show_empty(self) -> None:
        self.stack.setCurrentWidget(self.empty)
        self._show_list(True)

    def _show_list(self, shown: bool) -> None:
        """The sites' list beside the map (``shown``) or only the selector over it."""
        self.list_button.setChecked(shown)
        self.left.setVisible(shown)
        if shown and self.split.sizes()[0] < self.left.minimumSizeHint().width():
            self.split.setSizes([330, max(self.split.width() - 330, 400)])
        self.site_picker.setVisible(not shown or self.stack.currentWidget() is not self.empty)
        self.list_button.setVisible(self.stack.currentWidget() is not self.empty)

    @property
    def new_item_label(self) -> str:
        return self.tr("Novo local")

    def new_item(self):
        """Ctrl+N: a new site (street, feira, event area)."""
        return self.new_site()

    # -- the list ----------------------------------------------------------
    def refresh(self) -> None:
        url = current_url()
        if url is None:
            return
        if url.raw != self._url:  # another database: nothing of the old one stays on screen
            self._url = url.raw
            self.editor.undo.clear()
            self.current_id = None
            self._show_empty()
        elif self.editor.is_dirty():
            self._refresh_rows()
            return
        self._refresh_rows()
        self.current_id = None
        self._site_chosen()

    def confirm_leave(self) -> bool:
        """Before the window closes or another database opens: a map with unsaved changes asks first."""
        return not self.editor.is_dirty() or self.editor.confirm_discard()

    def _refresh_rows(self) -> None:
        keep = self.current_id
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(in_background(site_rows))
        self.table.selectionModel().blockSignals(False)
        self.site_picker.blockSignals(True)
        self.site_picker.clear()
        for item in self.model.rows:
            self.site_picker.addItem(item.name, item.id)
        self.site_picker.blockSignals(False)
        if keep is not None:
            self.select_site(keep, quiet=True, load=False)
        self._update_buttons()

    def selected(self):
        return selected_row(self.table, self.model)

    def select_site(self, site_id: int, *, quiet: bool = False, load: bool = True) -> bool:
        for row, item in enumerate(self.model.rows):
            if item.id == site_id:
                if not load:
                    self.table.selectionModel().blockSignals(True)
                self.table.selectRow(row)
                if not load:
                    self.table.selectionModel().blockSignals(False)
                return True
        if not quiet:
            raise KeyError(site_id)
        return False

    def _update_buttons(self) -> None:
        row = self.selected()
        index = self.site_picker.findData(self.current_id) if self.current_id is not None else -1
        self.site_picker.setCurrentIndex(index)
        self.edit_button.setEnabled(row is not None)
        self.delete_button.setEnabled(row is not None)

    @Slot()
    def _site_chosen(self) -> None:
        row = self.selected()
        self._update_buttons()
        if row is None:
            if not self.editor.is_dirty():
                self._show_empty()
            return
        if row.id == self.current_id:
            return
        if self.editor.is_dirty() and not self.editor.confirm_discard():
            if self.current_id is not None:
                self.select_site(self.current_id, quiet=True, load=False)
            return
        self.open_site(row.id)

    def open_site(self, site_id: int) -> None:
        self.editor.undo.clear()  # what was not saved is dropped (the clerk was asked)
        self.current_id = site_id
        row = next((r for r in self.model.rows if r.id == site_id), None)
        segments = in_background(lambda: site_segments(site_id))  # issue 27 §5
        if not segments:
            self.points.load(site_id, row.name if row else "")
            self.stack.setCurrentWidget(self.points)
            self._show_list(False)
            self._update_buttons()
            return
        with user_errors(self.message) as refused:
            self.editor.load(site_id, segments[0].id, segments=segments)
        if refused:
            self._show_empty()
            return
        self.stack.setCurrentWidget(self.editor)
        self.message.clear()
        self._show_list(False)
        self._update_buttons()

    # -- sites ---------------------------------------------------------------------
    @Slot()
    def new_site(self, *, dialog_hook=None):
        return self._form(None, dialog_hook)

    @Slot()
    def edit_site(self, *, dialog_hook=None):
        row = self.selected()
        if row is None:
            return None
        if self.editor.is_dirty() and row.id == self.current_id and not self.editor.confirm_discard():
            return None
        return self._form(row.id, dialog_hook)

    def _form(self, site_id: int | None, dialog_hook):
        dialog = SiteFormDialog(site_id, self)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        site = dialog.saved_site
        if site is None:
            return None
        self.message.setText(fill(self.tr("Local %1 salvo."), site.name))
        self.current_id = None
        self._refresh_rows()
        self.select_site(site.id, quiet=True)
        if self.current_id != site.id:
            self.open_site(site.id)
        return site

    @Slot()
    def delete_selected(self) -> bool:
        row = self.selected()
        if row is None:
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Excluir local"),
            fill(
                self.tr(
                    "Excluir %1 com todos os trechos, obstáculos, pontos e %2 banca(s)? Os titulares ficam sem "
                    "banca neste local."
                ),
                row.name,
                row.stalls,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        with user_errors(self.message) as refused:
            in_background(lambda: delete_site(row.id))
        if refused:
            return False
        self.message.setText(fill(self.tr("Local %1 excluído."), row.name))
        self.editor.undo.clear()
        self.current_id = None
        self._show_empty()
        self._refresh_rows()
        return True
