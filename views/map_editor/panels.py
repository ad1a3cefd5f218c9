"""The editor's side panels: the checks (breaches), the holders to place and the selected stall's fields.

Each panel is a widget that owns its fields and shows what it is given; it knows nothing of the editor. The
editor (:class:`views.map_editor.editor.MapEditor`) creates one of each, fills them and listens to their
signals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QStyle,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import UserError
from models.sites.layout import format_metres
from views import theme
from views.blocks import error_label, fill
from views.map_editor.dialogs import HolderList

if TYPE_CHECKING:
    from models.sites import HolderRow, KeptBreach
    from models.sites.layout import Breach
    from models.sites.stall_plan import Box


class ChecksPanel(QWidget):
    """The plan's breaches, each with its basis and whether it is kept; the buttons to keep or drop a reason."""

    breach_chosen = Signal()
    keep_requested = Signal()
    drop_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.breach_summary = QLabel()
        self.breach_summary.setObjectName("breach-summary")
        self.breach_summary.setWordWrap(True)
        layout.addWidget(self.breach_summary)
        self.breach_list = QListWidget()
        self.breach_list.setObjectName("breaches")
        self.breach_list.setWordWrap(True)
        self.breach_list.currentItemChanged.connect(lambda *_: self.breach_chosen.emit())
        layout.addWidget(self.breach_list, 2)
        row = QVBoxLayout()
        self.keep_button = QPushButton(self.tr("Manter com jus&tificativa…"))
        self.keep_button.setObjectName("keep-breach")
        self.keep_button.clicked.connect(lambda: self.keep_requested.emit())
        self.unkeep_button = QPushButton(self.tr("Retirar justificativa"))
        self.unkeep_button.setObjectName("drop-kept")
        self.unkeep_button.clicked.connect(lambda: self.drop_requested.emit())
        row.addWidget(self.keep_button)
        row.addWidget(self.unkeep_button)
        layout.addLayout(row)
        self.auto_result = QTextBrowser()
        self.auto_result.setObjectName("auto-result")
        self.auto_result.setVisible(False)
        layout.addWidget(self.auto_result, 1)

    def selected_breach(self) -> Breach | None:
        item = self.breach_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def show_breaches(self, breaches: list[Breach], kept: dict[str, KeptBreach]) -> None:
        """List the breaches (open ones in the error colour), keeping the chosen one chosen; no signal sent."""
        current = self.selected_breach()
        current_sig = current.signature if current is not None else None
        self.breach_list.blockSignals(True)
        self.breach_list.clear()
        warn = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        ok = self.style().standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton)
        open_count = 0
        for breach in breaches:
            held = kept.get(breach.signature)
            text = f"{breach.label.capitalize()}: {breach.message}"
            text += "\n" + (
                fill(self.tr("Base: %1"), breach.basis) if breach.basis else self.tr("Base: verificação do mapa")
            )
            if held is not None:
                text += "\n" + fill(
                    self.tr("Mantida — %1 (%2, %3)"), held.reason, held.kept_by, held.kept_at.strftime("%d/%m/%Y")
                )
            else:
                open_count += 1
            item = QListWidgetItem(ok if held is not None else warn, text)
            item.setData(Qt.ItemDataRole.UserRole, breach)
            if held is None:
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

    def show_auto_result(self, html: str | None) -> None:
        """The last auto-layout's report, or none."""
        if html is None:
            self.auto_result.setVisible(False)
            return
        self.auto_result.setHtml(html)
        self.auto_result.setVisible(True)


class HoldersPanel(QWidget):
    """The site's holders not yet on a stall, filtered as typed, with the buttons to assign and free a stall."""

    assign_requested = Signal()
    unassign_requested = Signal()
    filter_changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        hint = QLabel(
            self.tr("Arraste um titular até uma banca do mapa, ou selecione a banca e o titular e clique em Atribuir.")
        )
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.holder_filter = QLineEdit()
        self.holder_filter.setObjectName("holder-filter")
        self.holder_filter.setPlaceholderText(self.tr("Filtrar por nº da permissão, nome ou seção"))
        self.holder_filter.setClearButtonEnabled(True)
        self.holder_filter.textChanged.connect(lambda _t: self.filter_changed.emit())
        layout.addWidget(self.holder_filter)
        self.holder_list = HolderList()
        layout.addWidget(self.holder_list, 1)
        row = QHBoxLayout()
        self.assign_button = QPushButton(self.tr("A&tribuir"))
        self.assign_button.setObjectName("assign")
        self.assign_button.clicked.connect(lambda: self.assign_requested.emit())
        self.unassign_button = QPushButton(self.tr("&Liberar banca"))
        self.unassign_button.setObjectName("unassign")
        self.unassign_button.clicked.connect(lambda: self.unassign_requested.emit())
        row.addWidget(self.assign_button)
        row.addWidget(self.unassign_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.holder_message = error_label("holder-message")
        layout.addWidget(self.holder_message)

    def chosen_permit(self) -> int | None:
        """The permit of the holder chosen in the list, if any."""
        item = self.holder_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def show_holders(self, holders: list[HolderRow], section_names: dict[str, tuple[str, str]]) -> None:
        """List the holders that match the filter (section id → its numeral and label), keeping the chosen one."""
        wanted = self.holder_filter.text().strip().lower()
        keep = self.chosen_permit()
        self.holder_list.clear()
        for holder in holders:
            section = section_names.get(holder.section) if holder.section else None
            text = f"{holder.number} — {holder.name}"
            if section is not None:
                text += "\n" + fill(self.tr("Seção %1 (%2)"), *section)
            if wanted and wanted not in text.lower():
                continue
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, holder.permit_id)
            item.setToolTip(fill(self.tr("Local da permissão: %1"), holder.place or "—"))
            self.holder_list.addItem(item)
            if holder.permit_id == keep:
                self.holder_list.setCurrentItem(item)


class StallPanel(QWidget):
    """The selected stall: its number, section and size (typed in metres, refused at the field), where it is."""

    number_edited = Signal()
    section_edited = Signal()
    size_edited = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
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
        self.prop_number.editingFinished.connect(self.number_edited.emit)
        self.prop_section.activated.connect(lambda _i: self.section_edited.emit())
        self.prop_front.editingFinished.connect(self.size_edited.emit)
        self.prop_depth.editingFinished.connect(self.size_edited.emit)

    def set_sections(self, sections: list[tuple[str, str]]) -> None:
        """The sections offered (id, what is shown), after "(sem seção)"."""
        self.prop_section.clear()
        self.prop_section.addItem(self.tr("(sem seção)"), "")
        for section_id, text in sections:
            self.prop_section.addItem(text, section_id)

    def _fields(self) -> tuple[QWidget, ...]:
        return (self.prop_number, self.prop_section, self.prop_front, self.prop_depth)

    def show_stall(self, box: Box, limit: str, where: str, holder: str) -> None:
        """One stall chosen: its fields filled without a signal sent."""
        for widget in self._fields():
            widget.blockSignals(True)
        self.prop_number.setValue(box.number)
        index = self.prop_section.findData(box.section or "")
        self.prop_section.setCurrentIndex(max(0, index))
        self.show_size(box)
        self.prop_limit.setText(limit)
        self.prop_where.setText(where)
        self.prop_holder.setText(holder)
        for widget in self._fields():
            widget.blockSignals(False)

    def show_none(self, where: str) -> None:
        """None or several stalls chosen: what is said in place of the stall's position."""
        self.prop_limit.clear()
        self.prop_where.setText(where)
        self.prop_holder.clear()

    def show_size(self, box: Box) -> None:
        """The stall's size in the fields, unmarked."""
        self.prop_front.setText(format_metres(box.front, mm=True).removesuffix(" m"))
        self.prop_depth.setText(format_metres(box.depth, mm=True).removesuffix(" m"))
        self.size_error(None)

    def size_error(self, exc: UserError | None) -> None:
        """The refusal of a typed size at its field (the other field unmarked), or none."""
        for key, edit in (("front", self.prop_front), ("depth", self.prop_depth)):
            wrong = exc is not None and exc.field == key
            theme.styled(edit, theme.REFUSED if wrong else "")
            edit.setToolTip(exc.message if wrong and exc is not None else "")
        self.prop_error.setText(exc.message if exc is not None else "")
        self.prop_error.setVisible(exc is not None)
