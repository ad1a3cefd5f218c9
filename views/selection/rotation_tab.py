"""The rotation tab: the rotation of stalls among the holders over the draws."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.selection.rotation_list import (
    RotationState,
    add_event,
    hold_point_draw,
    point_label,
    preview_event,
    remove_last_event,
    rotation_draws,
    rotation_state,
)
from views import theme
from views.blocks import fill, user_errors
from views.operations import in_background
from views.selection.call_tab import CallTab
from views.selection.common import (
    MONO,
    date_edit,
    day_text,
    message_line,
    picked_date,
    public_draw_fields,
    rich_label,
    set_up_table,
)
from views.table_models import Column, RowsModel, selected_row
from views.widgets import current_user_name, save_pdf_as


class RotationTab(QWidget):
    """A rotating list applied event after event (Ilha Comprida art. 21, § 1º, I), each event's vendors spread over
    the day's points by a second draw (II), at most the points the act allows in the area (art. 22)."""

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.state: RotationState | None = None
        # the event whose seed is in the field: a seed is typed in public for each draw
        self._seed_of: tuple[int | None, int] | None = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        caption = QLabel(self.tr("Lista corrida do &sorteio:"))
        self.draw_combo = QComboBox()
        self.draw_combo.setObjectName("rotation-draw")
        self.draw_combo.setMinimumWidth(420)
        self.draw_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        caption.setBuddy(self.draw_combo)
        top.addWidget(caption)
        top.addWidget(self.draw_combo)
        top.addStretch(1)
        layout.addLayout(top)
        self.about = rich_label("rotation-about")
        theme.styled(self.about, "background: ${panel}; padding: 6px;")
        layout.addWidget(self.about)

        self.list_model = RowsModel(
            [
                Column(
                    self.tr("Posição"),
                    lambda r: ("▶ " if self.state and r.position == self.state.next_start else "") + str(r.position),
                    right=True,
                    tooltip=lambda r: (
                        self.tr("O próximo evento começa aqui")
                        if self.state and r.position == self.state.next_start
                        else None
                    ),
                ),
                (self.tr("Ambulante"), lambda r: r.name),
                (self.tr("Id"), lambda r: r.id),
                (self.tr("Eventos"), lambda r: ", ".join(str(n) for n in r.events)),
            ],
            self,
        )
        self.list_view = set_up_table(QTableView(), self.list_model, stretch=(1,))
        self.list_view.setObjectName("rotating-list")
        self.events_model = RowsModel(
            [
                Column(self.tr("Nº"), lambda e: str(e.number), right=True),
                (self.tr("Data"), lambda e: day_text(e.event_date)),
                (self.tr("Evento"), lambda e: e.label),
                Column(self.tr("Vagas"), lambda e: str(e.vacancies), right=True),
                (self.tr("Posições na lista"), lambda e: e.span_text),
                Column(
                    self.tr("Ambulantes"),
                    lambda e: ", ".join(name for _pid, name in e.vendors),
                    tooltip=lambda e: "\n".join(name for _pid, name in e.vendors),
                ),
                Column(
                    self.tr("Pontos"),
                    lambda e: (
                        (self.tr("sorteados") if e.point_draw else self.tr("a sortear"))
                        + (" — " + self.tr("NÃO CONFERE") if e.problems else "")
                    ),
                ),
            ],
            self,
        )
        self.events_view = set_up_table(QTableView(), self.events_model, stretch=(5,))
        self.events_view.setObjectName("events")

        split = QSplitter(Qt.Orientation.Horizontal)
        left = QGroupBox(self.tr("A lista, na ordem sorteada"))
        QVBoxLayout(left).addWidget(self.list_view)
        right = QGroupBox(self.tr("Eventos, na ordem em que a lista foi aplicada"))
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.events_view, 1)
        form = QHBoxLayout()
        self.event_date = date_edit("event-date", self.call.today)
        self.event_label = QLineEdit()
        self.event_label.setObjectName("event-label")
        self.event_label.setPlaceholderText(self.tr("Nome do evento (ex.: Show de 31/12)"))
        self.vacancies = QSpinBox()
        self.vacancies.setObjectName("event-vacancies")
        self.vacancies.setRange(1, 999)
        self.vacancies.setValue(10)
        for text, widget in (
            (self.tr("Data:"), self.event_date),
            (self.tr("Evento:"), self.event_label),
            (self.tr("Vagas:"), self.vacancies),
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            form.addWidget(label)
            form.addWidget(widget, 2 if widget is self.event_label else 0)
        self.add_button = QPushButton(self.tr("Registrar &evento"))
        self.add_button.setObjectName("add-event")
        self.remove_button = QPushButton(self.tr("Excluir o último"))
        self.remove_button.setObjectName("remove-event")
        self.remove_button.setToolTip(self.tr("Só enquanto os pontos dele não foram sorteados (erro de digitação)"))
        form.addWidget(self.add_button)
        form.addWidget(self.remove_button)
        right_layout.addLayout(form)
        self.preview = rich_label("event-preview")
        right_layout.addWidget(self.preview)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([330, 750])
        layout.addWidget(split, 1)

        self.points_box = QGroupBox(self.tr("2º sorteio: os ambulantes do evento selecionado nos pontos do dia"))
        points_layout = QHBoxLayout(self.points_box)
        points_form = QFormLayout()
        self.points = QLineEdit()
        self.points.setObjectName("points")
        self.points.setPlaceholderText(self.tr("1-20, ou A1, A2, B1…"))
        self.place, self.officials = public_draw_fields(self, "points-", 52)
        self.seed = QLineEdit()
        self.seed.setObjectName("points-seed")
        self.seed.setPlaceholderText(self.tr("A semente anunciada antes do sorteio"))
        self.seed.setStyleSheet("font-size: 13pt; padding: 3px;")
        points_form.addRow(self.tr("P&ontos:"), self.points)
        points_form.addRow(self.tr("&Local:"), self.place)
        points_form.addRow(self.tr("Responsáveis:"), self.officials)
        points_form.addRow(self.tr("Seme&nte:"), self.seed)
        buttons = QHBoxLayout()
        self.points_button = QPushButton(self.tr("Sortear os &pontos…"))
        self.points_button.setObjectName("draw-points")
        self.points_button.setStyleSheet("font-weight: 600; padding: 5px 12px;")
        self.sheet_button = QPushButton(self.tr("Salvar &folha do evento (PDF)…"))
        self.sheet_button.setObjectName("event-sheet")
        buttons.addWidget(self.points_button)
        buttons.addWidget(self.sheet_button)
        buttons.addStretch(1)
        points_form.addRow("", buttons)
        points_layout.addLayout(points_form, 1)
        self.assignments = QTableWidget(0, 3)
        self.assignments.setObjectName("assignments")
        self.assignments.setHorizontalHeaderLabels([self.tr("Ordem sorteada"), self.tr("Ponto"), self.tr("Ambulante")])
        self.assignments.verticalHeader().hide()
        self.assignments.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.assignments.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        points_layout.addWidget(self.assignments, 1)
        layout.addWidget(self.points_box)
        self.message = message_line()
        layout.addWidget(self.message)

        self.draw_combo.currentIndexChanged.connect(lambda _i: self.show_draw())
        self.events_view.selectionModel().selectionChanged.connect(lambda *_: self._show_event())
        self.vacancies.valueChanged.connect(lambda _v: self._preview())
        self.add_button.clicked.connect(lambda: self.add_event())
        self.remove_button.clicked.connect(lambda: self.remove_last())
        self.points_button.clicked.connect(lambda: self.draw_points())
        self.sheet_button.clicked.connect(lambda: self.save_sheet())

    def refresh(self) -> None:
        keep = self.draw_combo.currentData()
        self.draw_combo.blockSignals(True)
        self.draw_combo.clear()
        for draw_id, label in in_background(rotation_draws):
            self.draw_combo.addItem(label, draw_id)
        if self.draw_combo.count() == 0:
            self.draw_combo.addItem(self.tr("(nenhum sorteio de lista corrida realizado)"), None)
        self.draw_combo.setCurrentIndex(max(0, self.draw_combo.findData(keep)))
        self.draw_combo.blockSignals(False)
        self.show_draw()

    def select_draw(self, draw_id: int) -> None:
        index = self.draw_combo.findData(draw_id)
        if index < 0:
            raise KeyError(draw_id)
        self.draw_combo.setCurrentIndex(index)
        self.show_draw()

    def show_draw(self) -> None:
        draw_id = self.draw_combo.currentData()
        keep = self.selected_event()
        self.state = rotation_state(draw_id) if draw_id else None
        state = self.state
        self.list_model.set_rows(state.rows if state else [])
        self.events_model.set_rows(state.events if state else [])
        for widget in (self.add_button, self.remove_button, self.event_date, self.event_label, self.vacancies):
            widget.setEnabled(state is not None and state.draw_status == "held")
        if state is None:
            self.about.setText(
                self.tr(
                    "Realize o sorteio que forma a lista corrida (aba «Sorteio»): a ordem sorteada "
                    "é aplicada evento após evento."
                )
            )
            self.preview.setText("")
            self._show_event()
            return
        if state.max_points:
            self.vacancies.setMaximum(state.max_points)
        limit = (
            fill(self.tr("no máximo %1 pontos na área (%2)"), str(state.max_points), state.max_basis)
            if state.max_points
            else self.tr("o ato não limita os pontos")
        )
        lines = [
            fill(
                self.tr(
                    "<b>%1 ambulantes</b> na ordem sorteada (semente «%2», SHA-256 <span style='%3'>%4…</span>). "
                    "Cada evento pega os próximos da lista; quando ela acaba, recomeça do início (%5); %6."
                ),
                str(state.size),
                escape(state.seed),
                MONO,
                state.list_sha256[:24],
                escape(state.basis),
                escape(limit),
            )
        ]
        if state.draw_status != "held":
            lines.append(
                f"<span style='color: {theme.colour('error')};'>"
                + self.tr("Sorteio anulado: não recebe novos eventos.")
                + "</span>"
            )
        if state.problems:
            lines.append(
                f"<span style='color: {theme.colour('error')};'><b>"
                + self.tr("Conferência:")
                + "</b> "
                + escape(" ".join(state.problems))
                + "</span>"
            )
        elif state.events:
            lines.append(
                self.tr(
                    "Conferência: cada evento tem os ambulantes que a lista dá e cada sorteio de pontos "
                    "é reproduzido pela sua lista e semente."
                )
            )
        self.about.setText("<br>".join(lines))
        self.remove_button.setEnabled(
            bool(state.events) and state.events[-1].point_draw is None and state.draw_status == "held"
        )
        self._preview()
        row = next(
            (i for i, e in enumerate(state.events) if keep is not None and e.number == keep.number),
            len(state.events) - 1,
        )
        if row >= 0:
            self.events_view.selectRow(row)
        self._show_event()

    def _preview(self) -> None:
        if self.state is None or self.state.draw_status != "held":
            self.preview.setText("")
            return
        try:
            vendors, wrapped = preview_event(self.state.draw_id, self.vacancies.value())
        except UserError as exc:
            self.preview.setText(f"<span style='color: {theme.colour('error')};'>{escape(exc.message)}</span>")
            return
        text = fill(
            self.tr("<b>Próximo evento</b> (a partir do %1º da lista): %2"),
            str(self.state.next_start),
            escape(", ".join(name for _pid, name in vendors)),
        )
        if wrapped:
            text += " — " + self.tr("a lista chega ao fim e recomeça do início.")
        self.preview.setText(text)

    def selected_event(self):
        return selected_row(self.events_view, self.events_model)

    def select_event(self, number: int) -> None:
        for row, e in enumerate(self.events_model.rows):
            if e.number == number:
                self.events_view.selectRow(row)
                return
        raise KeyError(number)

    def _show_event(self) -> None:
        e = self.selected_event()
        draw_id = self.state.draw_id if self.state is not None else None
        held = self.state is not None and self.state.draw_status == "held"
        can_draw = e is not None and e.point_draw is None and held
        for widget in (self.points, self.place, self.officials, self.seed, self.points_button):
            widget.setEnabled(can_draw)
        self.sheet_button.setEnabled(e is not None)
        if e is None:
            self.points_box.setTitle(self.tr("2º sorteio: os ambulantes do evento selecionado nos pontos do dia"))
            self.assignments.setRowCount(0)
            return
        self.points_box.setTitle(
            fill(
                self.tr("2º sorteio — evento %1 (%2): %3 ambulante(s) nos pontos do dia"),
                str(e.number),
                day_text(e.event_date),
                str(len(e.vendors)),
            )
        )
        if e.point_draw is None:
            self.points.setText(f"1-{e.vacancies}")
            if self._seed_of != (draw_id, e.number):
                self.seed.clear()
            rows = [("", "", name) for _pid, name in e.vendors]
        else:
            pd = e.point_draw
            self.points.setText(", ".join(pd.points))
            self.place.setText(pd.place)
            self.officials.setPlainText(pd.officials)
            self.seed.setText(pd.seed)
            rows = [(f"{i}º", point_label(point), name) for i, (_pid, name, point) in enumerate(e.assignments, 1)]
        self._seed_of = (draw_id, e.number)
        self.assignments.setRowCount(len(rows))
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                self.assignments.setItem(r, c, QTableWidgetItem(value))

    def add_event(self):
        if self.state is None:
            return None
        with user_errors(self.message) as refused:
            event = add_event(
                self.state.draw_id,
                event_date=picked_date(self.event_date),
                vacancies=self.vacancies.value(),
                label=self.event_label.text(),
                by=current_user_name(),
            )
        if refused:
            return None
        self.event_label.clear()
        self.show_draw()
        self.select_event(event.number)
        e = self.selected_event()
        self.message.setText(
            fill(
                self.tr("Evento %1 registrado: %2 ambulante(s), do %3º da lista."),
                str(e.number),
                str(len(e.vendors)),
                str(e.start),
            )
            + (" " + self.tr("A lista chegou ao fim e recomeçou do início.") if e.wrapped else "")
        )
        return event

    def remove_last(self) -> bool:
        if self.state is None or not self.state.events:
            return False
        last = self.state.events[-1]
        answer = QMessageBox.question(
            self,
            self.tr("Excluir evento"),
            fill(
                self.tr("Excluir o evento %1 (%2)? A lista corrida volta a continuar do evento anterior."),
                str(last.number),
                day_text(last.event_date),
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        with user_errors(self.message) as refused:
            number = remove_last_event(self.state.draw_id, by=current_user_name())
        if refused:
            return False
        self.message.setText(fill(self.tr("Evento %1 excluído."), str(number)))
        self.show_draw()
        return True

    def draw_points(self):
        """The second draw of the selected event, with the seed typed in front of the public."""
        e = self.selected_event()
        if e is None or e.point_draw is not None:
            return None
        if not self.seed.text().strip():
            self.message.setText(self.tr("Informe a semente anunciada antes do sorteio dos pontos."))
            return None
        answer = QMessageBox.question(
            self,
            self.tr("Sortear pontos"),
            fill(
                self.tr(
                    "Sortear os pontos de %1 ambulante(s) do evento %2 com a semente «%3»?\n\nUm sorteio realizado não "
                    "se altera."
                ),
                str(len(e.vendors)),
                str(e.number),
                self.seed.text().strip(),
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
        try:
            pd = hold_point_draw(
                e.id,
                points=self.points.text(),
                seed=self.seed.text(),
                place=self.place.text(),
                officials=self.officials.toPlainText(),
                by=current_user_name(),
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        self.show_draw()
        self.select_event(e.number)
        self.message.setText(
            fill(
                self.tr("Pontos do evento %1 sorteados (semente «%2», SHA-256 da lista %3)."),
                str(e.number),
                pd.seed,
                pd.list_sha256,
            )
        )
        return pd

    def save_sheet(self, path: str | Path | None = None) -> Path | None:
        """The event's sheet: who works it, from where in the list, and the point draw (its ata)."""
        from reports.event_points import write_event_sheet_pdf

        e = self.selected_event()
        if e is None:
            return None
        written = save_pdf_as(
            self,
            path,
            title=self.tr("Folha do evento"),
            default_name=f"evento-{e.number}.pdf",
            write=lambda target: write_event_sheet_pdf(e.id, target),
            fail=self.message.setText,
        )
        if written is None:
            return None
        self.message.setText(fill(self.tr("Folha do evento %1 gravada em %2."), str(e.number), str(written)))
        return written
