"""The appeals tab: appeals against a published list and the final list."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.selection.appeals import Process, allowed_points, decide_appeal, file_appeal, process_of, publish_final
from models.selection.publications import has_appeals
from views import theme
from views.blocks import fill, user_errors
from views.save import save_file_name
from views.selection.call_tab import CallTab
from views.selection.common import (
    MONO,
    date_edit,
    day_text,
    message_line,
    picked_date,
    rich_label,
    set_up_table,
    write_publication,
)
from views.table_models import Column, RowsModel, selected_row
from views.widgets import current_user_name


class AppealsTab(QWidget):
    """Where the act opens an appeal against the ranking (Sapezal art. 10, §§ 4º–5º): the ranking published and its
    window, the appeals filed, the commission's decisions, and the final list the draw of places takes."""

    changed = Signal()

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.process: Process | None = None
        layout = QVBoxLayout(self)
        self.status = rich_label("process")
        theme.styled(self.status, "background: ${panel}; padding: 6px;")
        layout.addWidget(self.status)

        self.ranking = RowsModel(
            [
                Column(self.tr("Class."), lambda r: f"{r.rank}º", right=True),
                (self.tr("Protocolo"), lambda r: r.id),
                (self.tr("Participante"), lambda r: r.name),
                Column(self.tr("Pontos"), lambda r: str(r.total), right=True, tooltip=lambda r: r.tie_break or None),
                Column(
                    self.tr("Publicado"),
                    lambda r: fill(self.tr("%1º, %2 pts"), str(r.published_rank), str(r.published_total)),
                    right=True,
                ),
                (self.tr("Após recursos"), lambda r: r.change_text),
            ],
            self,
        )
        self.ranking_view = set_up_table(QTableView(), self.ranking, stretch=(2,))
        self.ranking_view.setObjectName("ranking")
        self.appeals = RowsModel(
            [
                Column(self.tr("Nº"), lambda a: str(a.id), right=True),
                (self.tr("Recorrente"), lambda a: a.name),
                (self.tr("Interposto em"), lambda a: day_text(a.filed_on)),
                Column(
                    self.tr("Situação"),
                    lambda a: a.status_label + (self.tr(" (decidido fora do prazo)") if a.decided_late else ""),
                    tooltip=lambda a: a.decision or None,
                ),
                Column(
                    self.tr("Decidir até"),
                    lambda a: day_text(a.decision_due),
                    tooltip=lambda a: a.decision_formula or None,
                ),
            ],
            self,
        )
        self.appeals_view = set_up_table(QTableView(), self.appeals, stretch=(1,))
        self.appeals_view.setObjectName("appeals")
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QGroupBox(self.tr("Classificação (com as decisões dos recursos)"))
        QVBoxLayout(left).addWidget(self.ranking_view)
        right = QGroupBox(self.tr("Recursos"))
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.appeals_view, 1)
        self.appeal_detail = rich_label("appeal-detail")
        right_layout.addWidget(self.appeal_detail)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([600, 480])
        layout.addWidget(split, 1)

        boxes = QHBoxLayout()
        filing = QGroupBox(self.tr("Registrar recurso"))
        filing_form = QFormLayout(filing)
        self.appellant = QComboBox()
        self.appellant.setObjectName("appellant")
        self.filed_on = date_edit("filed-on", self.call.today)
        self.grounds = QPlainTextEdit()
        self.grounds.setObjectName("grounds")
        self.grounds.setPlaceholderText(self.tr("O que o recorrente pede e por quê"))
        self.grounds.setMaximumHeight(70)
        self.file_button = QPushButton(self.tr("Registrar &recurso"))
        self.file_button.setObjectName("file-appeal")
        filing_form.addRow(self.tr("Recorrente:"), self.appellant)
        filing_form.addRow(self.tr("Interposto em:"), self.filed_on)
        filing_form.addRow(self.tr("Fundamentos:"), self.grounds)
        filing_form.addRow("", self.file_button)
        boxes.addWidget(filing, 1)

        deciding = QGroupBox(self.tr("Decisão da Comissão sobre o recurso selecionado"))
        deciding_form = QFormLayout(deciding)
        self.outcome = QComboBox()
        self.outcome.setObjectName("outcome")
        self.outcome.addItem(self.tr("Deferido"), True)
        self.outcome.addItem(self.tr("Indeferido"), False)
        correction = QHBoxLayout()
        self.criterion = QComboBox()
        self.criterion.setObjectName("criterion")
        self.points = QComboBox()
        self.points.setObjectName("points")
        correction.addWidget(self.criterion, 3)
        correction.addWidget(QLabel(self.tr("para")))
        correction.addWidget(self.points, 1)
        self.reason = QPlainTextEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("Motivo da decisão"))
        self.reason.setMaximumHeight(50)
        self.decided_on = date_edit("decided-on", self.call.today)
        self.decide_button = QPushButton(self.tr("Registrar &decisão"))
        self.decide_button.setObjectName("decide-appeal")
        deciding_form.addRow(self.tr("Decisão:"), self.outcome)
        deciding_form.addRow(self.tr("Corrigir:"), correction)
        deciding_form.addRow(self.tr("Motivo:"), self.reason)
        deciding_form.addRow(self.tr("Decidido em:"), self.decided_on)
        deciding_form.addRow("", self.decide_button)
        boxes.addWidget(deciding, 1)
        layout.addLayout(boxes)

        final = QHBoxLayout()
        self.final_label = rich_label("final")
        final.addWidget(self.final_label, 1)
        caption = QLabel(self.tr("Publicada em:"))
        self.final_on = date_edit("final-on", self.call.today)
        caption.setBuddy(self.final_on)
        final.addWidget(caption)
        final.addWidget(self.final_on)
        self.final_button = QPushButton(self.tr("Publicar lista de&finitiva…"))
        self.final_button.setObjectName("publish-final")
        self.final_button.setStyleSheet("font-weight: 600; padding: 6px 14px;")
        final.addWidget(self.final_button)
        layout.addLayout(final)
        self.message = message_line()
        layout.addWidget(self.message)

        self.appeals_view.selectionModel().selectionChanged.connect(lambda *_: self._show_appeal())
        self.criterion.currentIndexChanged.connect(lambda _i: self._fill_points())
        self.outcome.currentIndexChanged.connect(lambda _i: self._show_appeal())
        self.file_button.clicked.connect(lambda: self.file())
        self.decide_button.clicked.connect(lambda: self.decide())
        self.final_button.clicked.connect(lambda: self.publish_final())

    def refresh(self) -> None:
        regime = self.call.regime_id()
        self.process = None
        if regime and has_appeals(regime):
            self.process = process_of(regime, self.call.site_value(), self.call.group_value(), today=self.call.today)
        process = self.process
        keep = self.selected()
        self.ranking.set_rows(process.rows if process else [])
        self.appeals.set_rows(process.appeals if process else [])
        self.appellant.clear()
        if process is None:
            self.status.setText(
                self.tr(
                    "Nenhuma classificação publicada para este chamamento. Publique-a na aba "
                    "«Chamamento e lista»: o prazo de recurso conta da data da publicação."
                )
            )
            self.final_label.setText("")
        else:
            r = process.ranking
            self.status.setText(
                fill(
                    self.tr(
                        "<b>Classificação publicada em %1</b> (%2) — SHA-256 <span style='%3'>%4</span><br>"
                        "Prazo de recurso: %5 — %6<br><b>%7</b>"
                    ),
                    day_text(r.published_on),
                    escape(r.medium or r.created_by),
                    MONO,
                    r.list_sha256,
                    escape(r.appeal_formula),
                    escape(r.appeal_basis),
                    escape(process.stage_text),
                )
            )
            for row in process.rows:
                self.appellant.addItem(f"{row.published_rank}º — {row.name} ({row.id})", row.id)
            if process.final is not None:
                f = process.final
                self.final_label.setText(
                    fill(
                        self.tr("<b>Lista definitiva publicada em %1</b> — SHA-256 <span style='%2'>%3</span>"),
                        day_text(f.published_on),
                        MONO,
                        f.list_sha256,
                    )
                )
            else:
                self.final_label.setText(
                    escape(process.final_problem)
                    or self.tr("Prazo encerrado e recursos decididos: publique a lista definitiva.")
                )
        open_ = process is not None and process.final is None
        self.file_button.setEnabled(open_)
        self.final_button.setEnabled(open_ and process is not None and not process.final_problem)
        if keep is not None:
            for index, a in enumerate(self.appeals.rows):
                if a.id == keep.id:
                    self.appeals_view.selectRow(index)
        self._show_appeal()

    def selected(self):
        return selected_row(self.appeals_view, self.appeals)

    def select_appeal(self, appeal_id: int) -> None:
        for row, a in enumerate(self.appeals.rows):
            if a.id == appeal_id:
                self.appeals_view.selectRow(row)
                return
        raise KeyError(appeal_id)

    def _show_appeal(self) -> None:
        a = self.selected()
        pending = a is not None and a.status == "pending"
        for widget in (self.outcome, self.reason, self.decided_on, self.decide_button):
            widget.setEnabled(pending)
        granted = bool(self.outcome.currentData())
        self.criterion.setEnabled(pending and granted)
        self.points.setEnabled(pending and granted)
        if a is None:
            self.appeal_detail.setText(self.tr("Selecione um recurso para ver os fundamentos e decidi-lo."))
            return
        lines = [
            fill(
                self.tr("<b>Recurso nº %1</b> — %2, interposto em %3"), str(a.id), escape(a.name), day_text(a.filed_on)
            ),
            fill(self.tr("Fundamentos: %1"), escape(a.grounds)),
        ]
        if a.decision_formula:
            lines.append(fill(self.tr("Prazo da decisão: %1"), escape(a.decision_formula)))
        if a.decision:
            colour = theme.colour("error" if a.status in ("late", "denied") else "ok")
            lines.append(
                f"<span style='color: {colour};'><b>{escape(a.status_label)}</b>"
                + (f" em {day_text(a.decided_on)}" if a.decided_on and a.status != "late" else "")
                + f": {escape(a.decision)}</span>"
            )
        if a.corrections_text:
            lines.append(fill(self.tr("Correção: %1"), escape(a.corrections_text)))
        self.appeal_detail.setText("<br>".join(lines))
        if pending:
            self._fill_criteria(a.participant_id)

    def _fill_criteria(self, participant_id: str) -> None:
        row = next((r for r in self.process.rows if r.id == participant_id), None) if self.process else None
        keep = self.criterion.currentData()
        self.criterion.blockSignals(True)
        self.criterion.clear()
        self.criterion.addItem(self.tr("(sem correção de pontos)"), "")
        if row is not None:
            for line in row.score.lines:
                self.criterion.addItem(
                    fill(self.tr("%1 — %2 pontos (%3)"), line.label, str(line.points), line.basis.split(", ", 1)[-1]),
                    line.criterion_id,
                )
        self.criterion.setCurrentIndex(max(0, self.criterion.findData(keep)))
        self.criterion.blockSignals(False)
        self._fill_points()

    def _fill_points(self) -> None:
        self.points.clear()
        criterion = self.criterion.currentData()
        if criterion and self.process is not None:
            for value in allowed_points(self.process.ranking.regime, criterion):
                self.points.addItem(str(value), value)

    def file(self):
        """Record the appeal typed (one filed after the window is recorded as not heard, with the article)."""
        if self.process is None:
            return None
        try:
            appeal = file_appeal(
                self.process.ranking,
                participant_id=self.appellant.currentData() or "",
                filed_on=picked_date(self.filed_on),
                grounds=self.grounds.toPlainText(),
                by=current_user_name(),
                today=self.call.today,
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        if appeal.status == "late":
            self.message.setText(
                fill(self.tr("Recurso nº %1 registrado e não conhecido: %2"), str(appeal.id), appeal.decision)
            )
        else:
            self.message.setText(
                fill(
                    self.tr("Recurso nº %1 registrado; a Comissão decide até %2 (%3)."),
                    str(appeal.id),
                    day_text(appeal.decision_due),
                    appeal.decision_formula,
                )
            )
        self.grounds.clear()
        self.refresh()
        self.select_appeal(appeal.id)
        self.changed.emit()
        return appeal

    def decide(self):
        a = self.selected()
        if a is None or a.status != "pending":
            return None
        granted = bool(self.outcome.currentData())
        corrections = {}
        if granted and self.criterion.currentData() and self.points.currentData() is not None:
            corrections[self.criterion.currentData()] = int(self.points.currentData())
        try:
            appeal = decide_appeal(
                a.id,
                granted=granted,
                reason=self.reason.toPlainText(),
                decided_on=picked_date(self.decided_on),
                by=current_user_name(),
                today=self.call.today,
                corrections=corrections,
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        text = fill(
            self.tr("Recurso nº %1 %2."), str(appeal.id), self.tr("deferido") if granted else self.tr("indeferido")
        )
        if corrections:
            text += " " + self.tr("A pontuação corrigida muda a classificação (veja a coluna «Após recursos»).")
        self.message.setText(text)
        self.reason.clear()
        self.refresh()
        self.changed.emit()
        return appeal

    def publish_final(self, path: str | Path | None = None):
        """Publish the final list (the draw's list): recorded, then saved as PDF and exact text."""
        if self.process is None:
            return None
        if not path:
            path, _ = save_file_name(
                self,
                self.tr("Publicar lista definitiva"),
                f"lista-definitiva-{self.call.today:%Y-%m-%d}.pdf",
                self.tr("PDF (*.pdf)"),
            )
            if not path:
                return None
        path = Path(path)
        with user_errors(self.message) as refused:
            pub = publish_final(
                self.process.ranking,
                by=current_user_name(),
                published_on=picked_date(self.final_on),
                today=self.call.today,
                medium=self.call.medium.text().strip() or path.name,
            )
        if refused:
            return None
        if write_publication(self, pub, path) is not None:
            self.message.setText(
                fill(
                    self.tr(
                        "Lista definitiva publicada em %1: SHA-256 %2. O sorteio dos locais corre "
                        "sobre ela (aba «Sorteio»)."
                    ),
                    day_text(pub.published_on),
                    pub.list_sha256,
                )
            )
        self.refresh()
        self.changed.emit()
        return pub
