"""The draws tab: the draws kept, their holders, permits and stalls."""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.base.br import parse_br_date
from models.base.errors import UserError
from models.registry.applications import get_application
from models.rules import describe
from models.rules.eligibility import join_articles
from models.selection.draws import annul_draw, draw_entries
from models.services.calls import (
    StallChoice,
    assign_stalls,
    draw_holders,
    draw_rows,
    draw_sites,
    issue_holder_permits,
    stall_choices,
)
from views import theme
from views.blocks import fill, user_errors
from views.operations import in_background
from views.selection.common import MONO, message_line, set_up_table, when_text
from views.table_models import Column, RowsModel, select_where, selected_row
from views.widgets import current_user_name, print_document, save_pdf_as


class DrawsTab(QWidget):
    """Every draw held, checked again; its result, its ata; annulment; the holders' permits and stalls."""

    replace_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None, *, key_dir=None, today: _dt.date | None = None):
        super().__init__(parent)
        self.key_dir = key_dir
        self._today = today
        self.choices: list[StallChoice] = []
        layout = QVBoxLayout(self)
        self.model = RowsModel(
            [
                Column(self.tr("Nº"), lambda d: str(d.id), right=True),
                (self.tr("Data e hora"), lambda d: d.held_at.strftime("%d/%m/%Y %H:%M")),
                (self.tr("Regime"), lambda d: d.regime_label),
                (self.tr("Chamamento"), lambda d: d.call),
                (self.tr("Local/evento"), lambda d: d.site_label),
                Column(self.tr("Participantes"), lambda d: str(d.participants), right=True),
                Column(self.tr("Situação"), lambda d: d.situation, tooltip=lambda d: d.annul_reason or None),
                Column(self.tr("Conferência"), lambda d: d.check_text, tooltip=lambda d: " ".join(d.problems) or None),
            ],
            self,
        )
        self.table = set_up_table(QTableView(), self.model, stretch=(3,))
        self.table.setObjectName("draws")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)

        below = QWidget()
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        self.about = QLabel()
        self.about.setObjectName("about")
        self.about.setWordWrap(True)
        self.about.setTextFormat(Qt.TextFormat.RichText)
        self.about.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        below_layout.addWidget(self.about)
        acts = QHBoxLayout()
        self.ata_button = QPushButton(self.tr("Salvar a&ta (PDF)…"))
        self.ata_button.setObjectName("ata-pdf")
        self.print_button = QPushButton(self.tr("&Imprimir ata…"))
        self.print_button.setObjectName("ata-print")
        self.annul_button = QPushButton(self.tr("A&nular sorteio…"))
        self.annul_button.setObjectName("annul")
        self.replace_button = QPushButton(self.tr("Novo sorteio em &substituição"))
        self.replace_button.setObjectName("replace")
        for button in (self.ata_button, self.print_button, self.annul_button, self.replace_button):
            acts.addWidget(button)
        acts.addStretch(1)
        below_layout.addLayout(acts)

        self.inner = QTabWidget()
        self.entries = RowsModel(
            [
                (self.tr("Grupo"), lambda e: e.group),
                (
                    self.tr("Resultado"),
                    lambda e: e.role_label + (f" {e.role_order}º" if e.role in ("holder", "alternate") else ""),
                ),
                Column(self.tr("Posição sorteada"), lambda e: str(e.position) if e.position else "—", right=True),
                (self.tr("Id"), lambda e: e.participant_id),
                (self.tr("Nome"), lambda e: e.name + (self.tr(" (cota)") if e.quota else "")),
                Column(
                    self.tr("Class./pontos"),
                    lambda e: (
                        (f"{e.rank}º" if e.rank else "")
                        + (f" — {describe.number(e.score)}" if e.score is not None else "")
                    ),
                    right=True,
                ),
                (self.tr("Pagamento"), lambda e: when_text(e.paid_at)),
                Column(
                    self.tr("Motivo"),
                    lambda e: e.reason + (f" ({e.reason_basis})" if e.reason_basis else ""),
                    tooltip=lambda e: e.reason_basis or None,
                ),
            ],
            self,
        )
        self.entries_view = set_up_table(QTableView(), self.entries, stretch=(4,))
        self.entries_view.setObjectName("entries")
        self.inner.addTab(self.entries_view, self.tr("Resultado"))

        holders = QWidget()
        holders_layout = QVBoxLayout(holders)
        site_row = QHBoxLayout()
        self.site = QComboBox()
        self.site.setObjectName("stall-site")
        self.site.setMinimumWidth(320)
        caption = QLabel(self.tr("Bancas do &local:"))
        caption.setBuddy(self.site)
        site_row.addWidget(caption)
        site_row.addWidget(self.site)
        site_row.addStretch(1)
        holders_layout.addLayout(site_row)
        self.holders = QTableWidget(0, 8)
        self.holders.setObjectName("holders")
        self.holders.setHorizontalHeaderLabels(
            [
                self.tr("Ordem"),
                self.tr("Grupo"),
                self.tr("Titular"),
                self.tr("Requerimento"),
                self.tr("Permissão"),
                self.tr("Banca atual"),
                self.tr("Banca a atribuir"),
                self.tr("A apresentar depois da lista"),
            ]
        )
        self.holders.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.holders.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.holders.verticalHeader().hide()
        self.holders.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.holders.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        holders_layout.addWidget(self.holders, 1)
        hold_acts = QHBoxLayout()
        self.issue_button = QPushButton(self.tr("&Emitir permissões dos titulares"))
        self.issue_button.setObjectName("issue-permits")
        self.assign_button = QPushButton(self.tr("Atri&buir bancas"))
        self.assign_button.setObjectName("assign-stalls")
        self.documents_button = QPushButton(self.tr("Registrar &documentos entregues…"))
        self.documents_button.setObjectName("record-documents")
        self.documents_button.setToolTip(
            self.tr("Os documentos que o ato pede ao titular depois da lista definitiva, no prazo que ele fixa")
        )
        hold_acts.addWidget(self.issue_button)
        hold_acts.addWidget(self.assign_button)
        hold_acts.addWidget(self.documents_button)
        hold_acts.addStretch(1)
        holders_layout.addLayout(hold_acts)
        self.inner.addTab(holders, self.tr("Titulares: permissões e bancas"))
        below_layout.addWidget(self.inner, 1)
        self.message = message_line()
        below_layout.addWidget(self.message)
        split.addWidget(below)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setSizes([170, 480])
        layout.addWidget(split, 1)

        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self.ata_button.clicked.connect(lambda: self.save_ata())
        self.print_button.clicked.connect(lambda: self.print_ata())
        self.annul_button.clicked.connect(lambda: self.annul())
        self.replace_button.clicked.connect(self._replace)
        self.issue_button.clicked.connect(lambda: self.issue_permits())
        self.assign_button.clicked.connect(lambda: self.assign())
        self.documents_button.clicked.connect(lambda: self.record_documents())
        self.holders.itemSelectionChanged.connect(self._holder_selected)
        self.site.currentIndexChanged.connect(lambda _i: self._show_stalls())
        self._show_selected()

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        keep = self.selected()
        self.model.set_rows(in_background(draw_rows))
        if keep is not None:
            self.select_draw(keep.id, quiet=True)
        if self.selected() is None and self.model.rows:
            self.table.selectRow(0)
        self._show_selected()

    def selected(self):
        return selected_row(self.table, self.model)

    def select_draw(self, draw_id: int, *, quiet: bool = False) -> bool:
        return select_where(self.table, self.model, lambda d: d.id == draw_id, key=draw_id, quiet=quiet)

    def _show_selected(self) -> None:
        d = self.selected()
        held = d is not None and d.status == "held"
        for button in (self.ata_button, self.print_button):
            button.setEnabled(d is not None)
        self.annul_button.setEnabled(held)
        self.replace_button.setEnabled(d is not None and d.status == "annulled" and not d.replaced_by)
        self.issue_button.setEnabled(held)
        self.assign_button.setEnabled(held)
        if d is None:
            self.about.setText(
                self.tr(
                    "Nenhum sorteio realizado ainda. Escolha o chamamento, publique a lista e "
                    "realize o sorteio na aba «Sorteio»."
                )
            )
            self.entries.set_rows([])
            self.holders.setRowCount(0)
            self.site.clear()
            return
        lines = [
            fill(
                self.tr("<b>Sorteio nº %1</b> — %2, %3 — %4"),
                str(d.id),
                d.held_at.strftime("%d/%m/%Y %H:%M"),
                escape(d.place),
                escape(d.situation),
            ),
            fill(
                self.tr("Semente «<b>%1</b>» · SHA-256 da lista <span style='%2'>%3</span>"),
                escape(d.seed),
                MONO,
                d.list_sha256,
            ),
        ]
        if d.problems:
            lines.append(
                f"<span style='color: {theme.colour('error')};'><b>"
                + self.tr("Conferência:")
                + "</b> "
                + escape(" ".join(d.problems))
                + "</span>"
            )
        else:
            lines.append(
                self.tr("Conferência: a lista guardada tem o hash publicado e a semente reproduz a ordem registrada.")
            )
        if d.status == "annulled":
            lines.append(
                f"<span style='color: {theme.colour('error')};'>"
                + fill(self.tr("Anulado: %1"), escape(d.annul_reason))
                + "</span>"
            )
        self.about.setText("<br>".join(lines))
        entries = draw_entries(d.id)
        self.entries.set_rows(entries)
        # only the columns this draw uses: ranks/scores, payment times, reasons of exclusion
        for column, used in (
            (5, any(e.rank or e.score is not None for e in entries)),
            (6, any(e.paid_at for e in entries)),
            (7, any(e.reason for e in entries)),
        ):
            self.entries_view.setColumnHidden(column, not used)
        self._fill_sites(d.id)
        self._show_stalls()

    def _fill_sites(self, draw_id: int) -> None:
        self.site.blockSignals(True)
        self.site.clear()
        for option in draw_sites(draw_id):
            self.site.addItem(option.label, option.value)
        if self.site.count() == 0:
            self.site.addItem(self.tr("(nenhum local com bancas neste regime — cadastre-o em Mapas)"), "")
        self.site.blockSignals(False)

    def _show_stalls(self) -> None:
        d = self.selected()
        if d is None:
            return
        site, draw_id, today = self.site.currentData(), d.id, self.today
        holders, self.choices = in_background(  # issue 27 §5: the holders and their stalls read on a worker
            lambda: (
                draw_holders(draw_id, today=today, requirements=True),
                stall_choices(draw_id, int(site)) if site else [],
            )
        )
        self.holder_rows = holders
        by_entry = {c.holder.entry_id: c for c in self.choices}
        for row in range(self.holders.rowCount()):  # the old combos go now, not at the next event loop turn
            old = self.holders.cellWidget(row, 6)
            if old is not None:
                old.hide()
                self.holders.removeCellWidget(row, 6)
        self.holders.setRowCount(len(holders))
        for row, h in enumerate(holders):
            values = [
                f"{h.order}º",
                h.group,
                h.name + (self.tr(" (cota)") if h.quota else ""),
                f"{h.participant_id} — {h.application_status_label}",
                f"{h.permit_number} ({h.permit_status_label})" if h.permit_number else self.tr("não emitida"),
                h.stall_text,
            ]
            for column, value in enumerate(values):
                self.holders.setItem(row, column, QTableWidgetItem(value))
            choice = by_entry.get(h.entry_id)
            combo = QComboBox()
            combo.setObjectName(f"stall-{h.entry_id}")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(24)
            combo.addItem(choice.note if choice and choice.note else self.tr("(não atribuir)"), "")
            if choice is not None and not choice.note:
                for option in choice.free:
                    combo.addItem(option.label, option.value)
                combo.setCurrentIndex(max(0, combo.findData(choice.default)))
            combo.setEnabled(choice is not None and not choice.note and d.status == "held")
            self.holders.setCellWidget(row, 6, combo)
            later = QTableWidgetItem(h.requirements_text)
            later.setToolTip("\n".join(f"{r.label}: {r.reason} ({r.article})" for r in h.requirements))
            if any(r.status == "failed" for r in h.requirements):
                later.setForeground(QBrush(theme.qcolour("error")))
            self.holders.setItem(row, 7, later)
        self.holders.setColumnHidden(7, not any(h.requirements for h in holders))
        self._holder_selected()

    def stall_combo(self, row: int) -> QComboBox:
        combo = self.holders.cellWidget(row, 6)
        assert isinstance(combo, QComboBox)  # the stall column holds a combo box on every row
        return combo

    def selected_holder(self):
        rows = self.holders.selectionModel().selectedRows() if self.holders.selectionModel() else []
        holders = getattr(self, "holder_rows", [])
        return holders[rows[0].row()] if rows and rows[0].row() < len(holders) else None

    def _holder_selected(self) -> None:
        h = self.selected_holder()
        self.documents_button.setEnabled(bool(h and h.due_documents))

    def record_documents(self, fill=None) -> list:
        """Open the delivery of the selected holder's documents still due (Sapezal art. 11); ``fill(dialog)``
        drives it in tests instead of the clerk."""
        from views.documents_dialog import DeliveredDocumentsDialog

        h = self.selected_holder()
        if h is None or not h.due_documents or h.application_id is None:
            return []
        application_id = h.application_id
        app = in_background(lambda: get_application(application_id))  # issue 27 §5
        unmet = [r for r in h.requirements if r.status != "passed"]
        dues = sorted({r.due for r in unmet if r.due is not None})
        articles = join_articles([r.article for r in unmet])
        deadline = (
            self.tr("Prazo para apresentar: até %1 (%2).").replace("%1", dues[0].strftime("%d/%m/%Y"))
            if dues
            else self.tr("O prazo ainda não começou a correr (%2).")
        ).replace("%2", articles)
        dialog = DeliveredDocumentsDialog(app, h.due_documents, today=self.today, deadline_text=deadline, parent=self)
        if fill is not None:
            fill(dialog)
        elif not dialog.exec():
            return []
        recorded = dialog.recorded
        if recorded:
            self.message.setText(
                self.tr("%1: %2 documento(s) registrado(s).").replace("%1", h.name).replace("%2", str(len(recorded)))
            )
        self._show_stalls()
        return recorded

    # -- the ata ---------------------------------------------------------------

    def save_ata(self, path: str | Path | None = None) -> Path | None:
        from reports.draw_ata import write_draw_ata_pdf

        d = self.selected()
        if d is None:
            return None
        written = save_pdf_as(
            self,
            path,
            title=self.tr("Ata do sorteio"),
            default_name=f"ata-sorteio-{d.id}.pdf",
            write=lambda target: write_draw_ata_pdf(d.id, target),
            fail=self.message.setText,
        )
        if written is None:
            return None
        self.message.setText(fill(self.tr("Ata do sorteio nº %1 gravada em %2."), str(d.id), str(written)))
        return written

    def print_ata(self, printer=None) -> bool:
        """Print the ata of the selected draw; ``printer`` None asks with the print dialog."""
        from reports.draw_ata import draw_ata_document

        d = self.selected()
        if d is None:
            return False
        if not print_document(self, printer, f"ata-sorteio-{d.id}", lambda: draw_ata_document(d.id)):
            return False
        self.message.setText(fill(self.tr("Ata do sorteio nº %1 enviada para impressão."), str(d.id)))
        return True

    # -- annulment -------------------------------------------------------------

    def annul(self, reason: str | None = None) -> bool:
        """Annul the selected draw with a written reason (asked, then confirmed)."""
        d = self.selected()
        if d is None or d.status != "held":
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(
                self,
                self.tr("Anular sorteio"),
                fill(self.tr("Motivo da anulação do sorteio nº %1 (fica registrado na ata):"), str(d.id)),
            )
            if not ok:
                return False
        if not (reason or "").strip():
            self.message.setText(self.tr("Informe o motivo da anulação do sorteio."))
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Anular sorteio"),
            fill(
                self.tr(
                    "Anular o sorteio nº %1? O sorteio e a sua ata ficam guardados, marcados como anulados, e "
                    "um novo sorteio pode ser realizado em seu lugar.\n\nMotivo: %2"
                ),
                str(d.id),
                reason,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        with user_errors(self.message) as refused:
            annul_draw(d.id, reason, by=current_user_name())
        if refused:
            return False
        self.message.setText(
            fill(
                self.tr("Sorteio nº %1 anulado. Para realizar outro em seu lugar, use «Novo sorteio em substituição»."),
                str(d.id),
            )
        )
        self.refresh()
        return True

    def _replace(self) -> None:
        d = self.selected()
        if d is not None and d.status == "annulled" and not d.replaced_by:
            self.replace_requested.emit(d.id)

    # -- permits and stalls ----------------------------------------------------

    def issue_permits(self, *, end: _dt.date | None = None) -> list:
        """Issue the permits of the holders whose application is approved; asks the end date when the act leaves it
        open (like the worklist's "Emitir permissão")."""
        d = self.selected()
        if d is None:
            return []
        with user_errors(self.message) as refused:
            outcomes = issue_holder_permits(
                d.id, by=current_user_name(), today=self.today, key_dir=self.key_dir, end=end
            )
            needs = next((o for o in outcomes if o.needs), None)
            if needs is not None and end is None:
                text, ok = QInputDialog.getText(
                    self,
                    self.tr("Emitir permissões"),
                    needs.message.split(": ", 1)[-1] + "\n" + self.tr("Data final das permissões (dd/mm/aaaa):"),
                )
                if ok:
                    try:
                        end = parse_br_date(text, what="Data final das permissões")
                    except UserError as exc:
                        self.message.setText(exc.message)
                        self._show_stalls()
                        return outcomes
                    outcomes = issue_holder_permits(
                        d.id, by=current_user_name(), today=self.today, key_dir=self.key_dir, end=end
                    )
        if refused:
            return []
        self.message.setText("\n".join(o.message for o in outcomes) or self.tr("O sorteio não tem titulares."))
        self._show_stalls()
        return outcomes

    def assign(self) -> list:
        """Put each holder on the stall picked in its row, in order of choice."""
        d = self.selected()
        if d is None:
            return []
        holders = draw_holders(d.id)
        picks = {}
        for row, h in enumerate(holders):
            combo = self.stall_combo(row)
            if combo is not None and combo.isEnabled() and combo.currentData():
                picks[h.entry_id] = combo.currentData()
        if not picks:
            self.message.setText(self.tr("Nenhuma banca escolhida: emita as permissões e escolha as bancas livres."))
            return []
        with user_errors(self.message) as refused:
            results = assign_stalls(d.id, picks)
        if refused:
            return []
        self.message.setText("\n".join(text for _ok, text in results))
        self._show_stalls()
        return results
