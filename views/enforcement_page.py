"""Fiscalização: record notices and infraction, seizure and interdiction records; defences and appeals;
seized goods and what is due to release them; fines for the dívida ativa.

Every act goes through :mod:`models.enforcement`, which checks it against the
regime and records it; the screen shows the sanction worked out step by step
with its articles and the deadlines with their dates before anything is
issued, and the domain's one-line refusal at the field or in the message line.
"""

from __future__ import annotations

import datetime as _dt
import json
from html import escape
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.rules.regimes import get_regime, shipped_regimes
from views import theme
from views.fit import fit_to_screen
from views.flow import FlowLayout
from views.keys import search_keys
from views.roles import allow
from views.table_models import Column, RowsModel, make_table, select_where, selected_row
from views.widgets import DateEdit, act_version_line, current_user_name, print_document, save_pdf_as

KIND_FILTERS = (("", "Todos os tipos"),) + tuple(enf.KINDS.items())
STATUS_FILTERS = (
    ("", "Todas as situações"),
    ("issued", "Lavrados"),
    ("contested", "Em defesa ou recurso"),
    ("corrected", "Corrigidos"),
    ("annulled", "Anulados"),
)
SCOPE_LABELS = {
    "street-vending": "comércio ambulante",
    "event": "eventos",
    "street-food": "comida de rua",
    "feira": "feira livre",
    "beach": "praia",
}


def _d(day) -> str:
    if day is None:
        return ""
    if isinstance(day, _dt.datetime):
        return day.strftime("%d/%m/%Y %H:%M")
    return day.strftime("%d/%m/%Y")


class OverdueRowsModel(RowsModel):
    """Rows past their deadline in red."""

    def __init__(self, columns, parent=None, *, flag: str = "overdue"):
        super().__init__(columns, parent)
        self.flag = flag

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid():
            return theme.qcolour("error") if getattr(self.rows[index.row()], self.flag, False) else None
        return super().data(index, role)


# --------------------------------------------------------------------------- adjusting the proposal


class AdjustDialog(QDialog):
    """Decide on a sanction within the act's limits — record the fact a condition waits for (the day it was
    verified and who verified it), impose or omit what the act leaves to the authority, grade a fine, fix a
    suspension's days — always with the written reason, which stays on the record."""

    ACTIONS = {
        "fact": "Registrar o fato verificado",
        "apply": "Impor a sanção",
        "omit": "Dispensar a sanção",
        "amount": "Graduar o valor da multa (R$)",
        "days": "Fixar o prazo da suspensão (dias)",
    }

    def __init__(
        self, proposal, parent: QWidget | None = None, *, today: _dt.date | None = None, title: str | None = None
    ):
        super().__init__(parent)
        self.setWindowTitle(title or self.tr("Decidir sobre a sanção"))
        self.result_input: enf.AdjustInput | None = None
        self.proposal = proposal
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Praça propõe; a autoridade decide dentro dos limites do ato. O motivo, o fato "
                "verificado e quem decidiu ficam registrados no auto."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.sanction = QComboBox()
        self.sanction.setObjectName("adjust-sanction")
        for s in proposal.sanctions:
            self.sanction.addItem(f"{s.number}. {s.label}"[:110], s.number)
        self.state = QLabel()
        self.state.setObjectName("adjust-state")
        self.state.setWordWrap(True)
        self.what = QComboBox()
        self.what.setObjectName("adjust-what")
        self.value = QLineEdit()
        self.value.setObjectName("adjust-value")
        self.value.setPlaceholderText(self.tr("350,00 ou 10"))
        self.fact_on = DateEdit()
        self.fact_on.setObjectName("adjust-fact-on")
        self.fact_on.set_date(today or _dt.date.today())
        self.fact_by = QLineEdit(current_user_name())
        self.fact_by.setObjectName("adjust-fact-by")
        self.fact_note = QLineEdit()
        self.fact_note.setObjectName("adjust-fact-note")
        self.fact_note.setPlaceholderText(self.tr("como foi verificado: vistoria, relatório, foto…"))
        self.reason = QLineEdit()
        self.reason.setObjectName("adjust-reason")
        self.reason.setPlaceholderText(self.tr("gravidade, circunstâncias, antecedentes…"))
        form.addRow(self.tr("&Sanção:"), self.sanction)
        form.addRow("", self.state)
        form.addRow(self.tr("&Decisão:"), self.what)
        self.value_label = QLabel(self.tr("&Valor ou dias:"))
        self.value_label.setBuddy(self.value)
        form.addRow(self.value_label, self.value)
        self.fact_labels = [
            QLabel(self.tr("Verificado &em:")),
            QLabel(self.tr("Verificado &por:")),
            QLabel(self.tr("&Como:")),
        ]
        for label, widget in zip(self.fact_labels, (self.fact_on, self.fact_by, self.fact_note)):
            label.setBuddy(widget)
            form.addRow(label, widget)
        form.addRow(self.tr("&Motivo:"), self.reason)
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("adjust-error")
        self.error.setWordWrap(True)
        self.error.setProperty("role", "error")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Registrar a decisão"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)
        self.sanction.currentIndexChanged.connect(lambda _i: self._sanction_changed())
        self.what.currentIndexChanged.connect(lambda _i: self._what_changed())
        first = next((i for i, s in enumerate(proposal.sanctions) if s.actions), 0)
        self.sanction.setCurrentIndex(first)
        self._sanction_changed()

    def _current(self):
        return self.proposal.sanction(self.sanction.currentData())

    def _sanction_changed(self) -> None:
        s = self._current()
        parts = [f"{enf.DECISION_LABELS.get(s.decision, s.decision)} — {s.basis}"]
        if s.condition is not None:
            met = f" — {s.condition_met.text}" if s.condition_met else ""
            parts.append(
                self.tr("Condição: %1 (%2)%3")
                .replace("%1", s.condition.text)
                .replace("%2", s.condition.basis)
                .replace("%3", met)
            )
        if s.pending:
            parts.append(s.pending)
        self.state.setText("\n".join(parts))
        self.what.blockSignals(True)
        self.what.clear()
        for key in s.actions:
            self.what.addItem(self.tr(self.ACTIONS[key]), key)
        self.what.blockSignals(False)
        self.ok_button.setEnabled(bool(s.actions))
        if not s.actions:
            self.error.setText(
                self.tr("Nada a decidir sobre esta sanção: %1.").replace(
                    "%1", enf.DECISION_LABELS.get(s.decision, s.decision)
                )
            )
        else:
            self.error.setText("")
        self._what_changed()

    def _what_changed(self) -> None:
        what = self.what.currentData()
        self.value.setVisible(what in ("amount", "days"))
        self.value_label.setVisible(what in ("amount", "days"))
        for widget in (self.fact_on, self.fact_by, self.fact_note, *self.fact_labels):
            widget.setVisible(what == "fact")

    def accept(self) -> None:
        from models.enforcement.sanctions import Verification, adjust

        number = self.sanction.currentData()
        what = self.what.currentData()
        value = self.value.text().strip()
        kwargs: dict = {}
        if what == "amount":
            kwargs["amounts"] = {number: value}
        elif what == "days":
            if not value.isdigit():
                self.error.setText(self.tr("Informe o prazo em dias (número inteiro)."))
                return
            kwargs["days"] = {number: int(value)}
        elif what == "apply":
            kwargs["apply"] = (number,)
        elif what == "omit":
            kwargs["omit"] = (number,)
        elif what == "fact":
            try:
                on = self.fact_on.date()
            except UserError as exc:
                self.error.setText(exc.message)
                return
            if on is None:
                self.error.setText(self.tr("Informe a data em que o fato foi verificado."))
                return
            kwargs["facts"] = {number: Verification(on, self.fact_by.text().strip(), self.fact_note.text().strip())}
        else:
            return
        item = enf.AdjustInput(reason=self.reason.text().strip(), by=current_user_name(), **kwargs)
        try:  # the domain says at once whether the act allows it
            adjust(
                self.proposal,
                reason=item.reason,
                amounts=dict(item.amounts),
                days=dict(item.days),
                apply=item.apply,
                omit=item.omit,
                facts=dict(item.facts),
                by=item.by,
            )
        except UserError as exc:
            self.error.setText(exc.message)
            return
        self.result_input = item
        super().accept()


# --------------------------------------------------------------------------- the record form


class RecordDialog(QDialog):
    """Novo auto: offender, place, facts, infractions from the catalogue; the proposal and the deadlines
    worked out as the inspector types; adjust with a reason; issue."""

    def __init__(
        self,
        base: enf.RecordDraft,
        parent: QWidget | None = None,
        *,
        today: _dt.date,
        title: str = "",
        mode: str = "new",
    ):
        super().__init__(parent)
        self.today = today
        self.mode = mode  # new | follow | correct | identify
        self.base = base
        self.record = None
        self.last_preview = None
        self.adjustments: list[enf.AdjustInput] = list(base.adjustments)
        self.checked: list[str] = list(base.infractions)
        self.photos: list[str] = []
        self.offender: tuple[str, int] | None = None
        if base.person_id:
            self.offender = ("person", base.person_id)
        elif base.company_id:
            self.offender = ("company", base.company_id)
        self.permit = None
        self.setWindowTitle(title or self.tr("Novo auto"))
        fit_to_screen(self, QSize(1240, 820))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.update_preview)
        self._build()
        self._load(base)
        self.update_preview()

    # -- building ------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        form_widget = QWidget()
        form = QVBoxLayout(form_widget)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_widget)
        split.addWidget(scroll)

        top = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        for key, label in enf.KINDS.items():
            self.kind.addItem(self.tr(label), key)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        for rid, regime in sorted(shipped_regimes().items(), key=lambda kv: kv[1].municipality):
            self.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", rid)
        self.scope = QComboBox()
        self.scope.setObjectName("scope")
        top.addRow(self.tr("&Tipo:"), self.kind)
        top.addRow(self.tr("&Regime:"), self.regime)
        top.addRow(self.tr("&Matéria:"), self.scope)
        form.addLayout(top)

        who = QGroupBox(self.tr("Autuado"))
        who_layout = QVBoxLayout(who)
        self.offender_search = QLineEdit()
        self.offender_search.setObjectName("offender-search")
        self.offender_search.setPlaceholderText(self.tr("CPF, CNPJ ou parte do nome de quem está cadastrado…"))
        self.offender_search.setClearButtonEnabled(True)
        who_layout.addWidget(self.offender_search)
        self.matches = RowsModel(
            [
                Column(self.tr("Nome"), lambda m: m.name),
                Column(self.tr("CPF/CNPJ"), lambda m: m.document),
                Column(self.tr(""), lambda m: m.detail),
            ],
            self,
        )
        self.matches_view = make_table("offender-matches", self.matches)
        self.matches_view.setMaximumHeight(110)
        self.matches_view.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        who_layout.addWidget(self.matches_view)
        self.offender_label = QLabel()
        self.offender_label.setObjectName("offender-chosen")
        self.offender_label.setWordWrap(True)
        who_layout.addWidget(self.offender_label)
        self.unknown = QCheckBox(self.tr("Infrator &não identificado (descrever)"))
        self.unknown.setObjectName("unknown")
        who_layout.addWidget(self.unknown)
        unknown_form = QFormLayout()
        self.unknown_name = QLineEdit()
        self.unknown_name.setObjectName("unknown-name")
        self.unknown_name.setPlaceholderText(self.tr("nome dado, apelido ou denominação que o identifique"))
        self.unknown_description = QLineEdit()
        self.unknown_description.setObjectName("unknown-description")
        self.unknown_description.setPlaceholderText(self.tr("aparência, roupa, o que vendia, veículo…"))
        self.offender_document = QLineEdit()
        self.offender_document.setObjectName("offender-document")
        self.offender_address = QLineEdit()
        self.offender_address.setObjectName("offender-address")
        unknown_form.addRow(self.tr("Nome:"), self.unknown_name)
        unknown_form.addRow(self.tr("Descrição:"), self.unknown_description)
        unknown_form.addRow(self.tr("Documento:"), self.offender_document)
        unknown_form.addRow(self.tr("Endereço:"), self.offender_address)
        who_layout.addLayout(unknown_form)
        permit_form = QFormLayout()
        self.permit_number = QLineEdit()
        self.permit_number.setObjectName("permit-number")
        self.permit_number.setPlaceholderText(self.tr("AAAA/NNNNN (opcional)"))
        self.permit_found = QLabel()
        self.permit_found.setObjectName("permit-found")
        self.permit_found.setWordWrap(True)
        permit_form.addRow(self.tr("&Permissão nº:"), self.permit_number)
        permit_form.addRow("", self.permit_found)
        who_layout.addLayout(permit_form)
        form.addWidget(who)

        facts = QGroupBox(self.tr("Fato"))
        facts_form = QFormLayout(facts)
        when = QHBoxLayout()
        self.date = DateEdit()
        self.date.setObjectName("date")
        self.time = QLineEdit()
        self.time.setObjectName("time")
        self.time.setInputMask("00:00;_")
        self.time.setMaximumWidth(70)
        when.addWidget(self.date)
        when.addWidget(self.time)
        when.addStretch(1)
        self.place = QLineEdit()
        self.place.setObjectName("place")
        self.facts = QPlainTextEdit()
        self.facts.setObjectName("facts")
        self.facts.setPlaceholderText(self.tr("o fato que constitui a infração e as circunstâncias"))
        self.facts.setMaximumHeight(90)
        when_label = QLabel(self.tr("&Dia e hora:"))
        when_label.setBuddy(self.date)
        facts_form.addRow(when_label, when)
        facts_form.addRow(self.tr("&Local:"), self.place)
        facts_form.addRow(self.tr("&Fatos:"), self.facts)
        form.addWidget(facts)

        infractions = QGroupBox(self.tr("Infrações (catálogo do regime)"))
        inf_layout = QVBoxLayout(infractions)
        self.infraction_search = QLineEdit()
        self.infraction_search.setObjectName("infraction-search")
        self.infraction_search.setPlaceholderText(self.tr("artigo, código ou palavras: 145, lixo, sem autorização…"))
        self.infraction_search.setClearButtonEnabled(True)
        inf_layout.addWidget(self.infraction_search)
        self.catalogue = QListWidget()
        self.catalogue.setObjectName("catalogue")
        self.catalogue.setMinimumHeight(130)
        inf_layout.addWidget(self.catalogue)
        self.chosen = QLabel()
        self.chosen.setObjectName("chosen-infractions")
        self.chosen.setWordWrap(True)
        inf_layout.addWidget(self.chosen)
        form.addWidget(infractions)

        seizure = QGroupBox(self.tr("Objetos apreendidos"))
        self.seizure_box = seizure
        seizure_layout = QVBoxLayout(seizure)
        self.items = QTableWidget(0, 4)
        self.items.setObjectName("items")
        self.items.setHorizontalHeaderLabels(
            [self.tr("Descrição"), self.tr("Quantidade"), self.tr("Unidade"), self.tr("Perecível")]
        )
        self.items.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.items.setMaximumHeight(120)
        seizure_layout.addWidget(self.items)
        rows = QHBoxLayout()
        add_item = QPushButton(self.tr("Adicionar &objeto"))
        add_item.clicked.connect(lambda: self.add_item())
        remove_item = QPushButton(self.tr("Remover objeto"))
        remove_item.clicked.connect(
            lambda: self.items.removeRow(max(self.items.currentRow(), 0)) if self.items.rowCount() else None
        )
        rows.addWidget(add_item)
        rows.addWidget(remove_item)
        rows.addStretch(1)
        seizure_layout.addLayout(rows)
        depot_form = QFormLayout()
        self.depot = QLineEdit()
        self.depot.setObjectName("depot")
        self.depot.setPlaceholderText(self.tr("onde os objetos ficam depositados"))
        depot_form.addRow(self.tr("De&pósito:"), self.depot)
        seizure_layout.addLayout(depot_form)
        form.addWidget(seizure)

        people = QGroupBox(self.tr("Testemunhas, ciência e agente"))
        people_form = QFormLayout(people)
        self.witnesses = QPlainTextEdit()
        self.witnesses.setObjectName("witnesses")
        self.witnesses.setPlaceholderText(self.tr("uma por linha: nome; documento"))
        self.witnesses.setMaximumHeight(60)
        self.signature = QComboBox()
        self.signature.setObjectName("signature")
        for key, label in enf.SIGNATURES.items():
            self.signature.addItem(self.tr(label), key)
        self.signature_note = QLineEdit()
        self.signature_note.setObjectName("signature-note")
        self.inspector = QLineEdit()
        self.inspector.setObjectName("inspector")
        self.inspector_id = QLineEdit()
        self.inspector_id.setObjectName("inspector-id")
        self.inspector_id.setMaximumWidth(140)
        people_form.addRow(self.tr("Testemun&has:"), self.witnesses)
        people_form.addRow(self.tr("&Ciência:"), self.signature)
        people_form.addRow(self.tr("Observação:"), self.signature_note)
        people_form.addRow(self.tr("&Agente fiscal:"), self.inspector)
        people_form.addRow(self.tr("Matríc&ula:"), self.inspector_id)
        form.addWidget(people)

        photos = QGroupBox(self.tr("Fotos"))
        photos_layout = QHBoxLayout(photos)
        self.photo_list = QListWidget()
        self.photo_list.setObjectName("photos")
        self.photo_list.setMaximumHeight(60)
        add_photos = QPushButton(self.tr("Adicionar f&otos…"))
        add_photos.setObjectName("add-photos")
        add_photos.clicked.connect(lambda: self.add_photos())
        photos_layout.addWidget(self.photo_list, 1)
        photos_layout.addWidget(add_photos)
        form.addWidget(photos)

        extra = QFormLayout()
        self.payment_due = DateEdit()
        self.payment_due.setObjectName("payment-due")
        self.payment_due_label = QLabel(self.tr("Venc&imento da multa:"))
        self.payment_due_label.setBuddy(self.payment_due)
        extra.addRow(self.payment_due_label, self.payment_due)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason_label = QLabel(self.tr("Motivo da corr&eção:"))
        self.reason_label.setBuddy(self.reason)
        extra.addRow(self.reason_label, self.reason)
        self.apply_permit = QCheckBox(self.tr("Aplicar a suspensão ou cassação à permissão ao lavrar"))
        self.apply_permit.setObjectName("apply-permit")
        extra.addRow("", self.apply_permit)
        form.addLayout(extra)
        self.choices_box = QGroupBox(self.tr("Prazos aplicáveis"))
        self.choices_form = QFormLayout(self.choices_box)
        self.choice_combos: dict[str, QComboBox] = {}
        form.addWidget(self.choices_box)
        form.addStretch(1)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(QLabel(self.tr("<b>Sanção proposta e prazos</b>")))
        self.proposal_view = QTextBrowser()
        self.proposal_view.setObjectName("proposal")
        right_layout.addWidget(self.proposal_view, 1)
        adjust_row = QHBoxLayout()
        self.adjust_button = QPushButton(self.tr("A&justar…"))
        self.adjust_button.setObjectName("adjust")
        self.adjust_button.clicked.connect(lambda: self.ask_adjustment())
        self.clear_adjust_button = QPushButton(self.tr("Desfazer ajustes"))
        self.clear_adjust_button.setObjectName("clear-adjustments")
        self.clear_adjust_button.clicked.connect(lambda: self.clear_adjustments())
        adjust_row.addWidget(self.adjust_button)
        adjust_row.addWidget(self.clear_adjust_button)
        adjust_row.addStretch(1)
        right_layout.addLayout(adjust_row)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        scroll.setMinimumWidth(560)
        split.setSizes([700, 520])
        outer.addWidget(split, 1)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.colour('error')};")
        outer.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.issue_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.issue_button.setText(self.tr("La&vrar"))
        self.issue_button.setObjectName("issue")
        buttons.accepted.connect(self.issue)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self.fields = {
            "kind": self.kind,
            "regime": self.regime,
            "scope": self.scope,
            "offender": self.offender_search,
            "unknown_description": self.unknown_description,
            "permit": self.permit_number,
            "at": self.date,
            "notified_at": self.date,
            "place": self.place,
            "facts": self.facts,
            "infractions": self.infraction_search,
            "signature": self.signature,
            "witnesses": self.witnesses,
            "inspector": self.inspector,
            "items": self.items,
            "depot": self.depot,
            "photos": self.photo_list,
            "payment_due": self.payment_due,
            "reason": self.reason,
            "adjust": self.adjust_button,
            "deadlines": self.choices_box,
        }

        # signals
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self.regime.currentIndexChanged.connect(lambda _i: self._regime_changed())
        self.scope.currentIndexChanged.connect(lambda _i: self.changed())
        self.offender_search.textChanged.connect(lambda _t: self.search_offender())
        self.matches_view.selectionModel().selectionChanged.connect(lambda *_: self._offender_selected())
        self.unknown.toggled.connect(lambda _c: self._unknown_toggled())
        self.permit_number.textChanged.connect(lambda _t: self._permit_changed())
        self.infraction_search.textChanged.connect(lambda _t: self.fill_catalogue())
        self.catalogue.itemChanged.connect(self._catalogue_item_changed)
        for edit in (
            self.unknown_name,
            self.unknown_description,
            self.place,
            self.date,
            self.time,
            self.depot,
            self.inspector,
            self.inspector_id,
            self.reason,
            self.payment_due,
        ):
            edit.textChanged.connect(lambda _t: self.changed())
        for edit in (self.facts, self.witnesses):
            edit.textChanged.connect(lambda: self.changed())
        self.signature.currentIndexChanged.connect(lambda _i: self.changed())
        self.items.itemChanged.connect(lambda _i: self.changed())

    def _load(self, base: enf.RecordDraft) -> None:
        for combo, value in ((self.kind, base.kind), (self.regime, base.regime)):
            index = combo.findData(value)
            combo.blockSignals(True)
            combo.setCurrentIndex(max(index, 0))
            combo.blockSignals(False)
        self._fill_scopes(base.scope)
        if base.at is not None:
            self.date.set_date(base.at.date())
            self.time.setText(base.at.strftime("%H:%M"))
        else:
            self.date.set_date(self.today)
            self.time.setText(_dt.datetime.now().strftime("%H:%M"))
        self.place.setText(base.place)
        self.facts.setPlainText(base.facts)
        self.witnesses.setPlainText("\n".join(f"{w.name}; {w.document}".rstrip("; ") for w in base.witnesses))
        self.signature.setCurrentIndex(max(self.signature.findData(base.signature), 0))
        self.signature_note.setText(base.signature_note)
        self.inspector.setText(base.inspector or current_user_name())
        self.inspector_id.setText(base.inspector_id)
        self.depot.setText(base.depot)
        for item in base.items:
            self.add_item(item.description, str(item.quantity), item.unit, item.perishable)
        if base.unknown_name:
            self.unknown.setChecked(True)
            self.unknown_name.setText(base.unknown_name)
            self.unknown_description.setText(base.unknown_description)
            self.offender_document.setText(base.offender_document)
            self.offender_address.setText(base.offender_address)
        if base.permit_id:
            self.permit_number.setText(enf.permit_number_of(base.permit_id))
        self._show_offender()
        self.reason.setText(base.reason)
        locked = self.mode in ("correct", "identify") or bool(base.refers_to_id)
        self.kind.setEnabled(not locked or self.mode == "follow")
        self.regime.setEnabled(not locked)
        correcting = self.mode in ("correct", "identify")
        self.reason_label.setVisible(correcting)
        self.reason.setVisible(correcting)
        if self.mode == "identify":
            self.unknown.setChecked(False)
            self.unknown.setEnabled(False)
        self._kind_changed(refresh=False)
        self._unknown_toggled(refresh=False)
        self.fill_catalogue()

    # -- reacting ---------------------------------------------------------------------

    def changed(self) -> None:
        self._timer.start()

    def regime_id(self) -> str:
        return self.regime.currentData() or ""

    def _fill_scopes(self, keep: str = "") -> None:
        self.scope.blockSignals(True)
        self.scope.clear()
        try:
            regime = get_regime(self.regime_id())
        except UserError:
            regime = None
        self.scope.addItem(self.tr("conforme as infrações"), "")
        for scope in regime.scope if regime else ():
            self.scope.addItem(self.tr(SCOPE_LABELS.get(scope, scope)), scope)
        index = self.scope.findData(keep)
        self.scope.setCurrentIndex(max(index, 0))
        self.scope.blockSignals(False)

    def _regime_changed(self) -> None:
        self._fill_scopes()
        self.checked = []
        self.adjustments = []
        self.fill_catalogue()
        self.changed()

    def _kind_changed(self, refresh: bool = True) -> None:
        seizure = self.kind.currentData() == "seizure"
        self.seizure_box.setVisible(seizure)
        if seizure and self.items.rowCount() == 0:
            self.add_item()
        if refresh:
            self.changed()

    def _unknown_toggled(self, refresh: bool = True) -> None:
        unknown = self.unknown.isChecked()
        for w in (self.unknown_name, self.unknown_description, self.offender_document, self.offender_address):
            w.setEnabled(unknown)
        self.offender_search.setEnabled(not unknown)
        self.matches_view.setEnabled(not unknown)
        if unknown:
            self.offender = None
        self._show_offender()
        if refresh:
            self.changed()

    def search_offender(self) -> None:
        self.matches.set_rows(enf.offender_matches(self.offender_search.text()))
        if len(self.matches.rows) == 1:
            self.matches_view.selectRow(0)

    def _offender_selected(self) -> None:
        index = self.matches_view.currentIndex()
        if index.isValid() and index.row() < len(self.matches.rows):
            match = self.matches.rows[index.row()]
            self.offender = (match.kind, match.id)
            self._offender_name = f"{match.name} ({match.document})"
        self._show_offender()
        self.changed()

    def choose_offender(self, kind: str, ident: int, name: str = "") -> None:
        """Pick the offender directly (the identification of a record, tests)."""
        self.offender = (kind, ident)
        self._offender_name = name
        self.unknown.setChecked(False)
        self._show_offender()
        self.changed()

    def _show_offender(self) -> None:
        if self.unknown.isChecked():
            self.offender_label.setText(self.tr("Infrator não identificado: descreva-o abaixo."))
        elif self.offender is not None:
            name = getattr(self, "_offender_name", "") or self._registered_name(*self.offender)
            self.offender_label.setText(self.tr("Autuado: <b>%1</b>").replace("%1", escape(name)))
        elif self.permit is not None:
            self.offender_label.setText(self.tr("Autuado: o titular da permissão."))
        else:
            self.offender_label.setText(self.tr("Busque o autuado no cadastro, ou marque não identificado."))

    @staticmethod
    def _registered_name(kind: str, ident: int) -> str:
        from models.registry.people import get_company, get_person

        try:
            return get_person(ident).name if kind == "person" else get_company(ident).legal_name
        except UserError as exc:
            return exc.message

    def _permit_changed(self) -> None:
        text = self.permit_number.text().strip()
        if not text:
            self.permit = None
            self.permit_found.setText("")
        else:
            self.permit, label = enf.permit_label(text)
            self.permit_found.setText(label)
        self._show_offender()
        self.changed()

    def fill_catalogue(self) -> None:
        self.catalogue.blockSignals(True)
        self.catalogue.clear()
        try:
            rows = enf.infraction_catalogue(self.regime_id(), self.infraction_search.text())
        except UserError:
            rows = []
        for code, article, label in rows:
            item = QListWidgetItem(f"{article} — {label}  [{code}]")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if code in self.checked else Qt.CheckState.Unchecked)
            item.setToolTip(label)
            self.catalogue.addItem(item)
        self.catalogue.blockSignals(False)
        self._show_chosen()

    def _catalogue_item_changed(self, item: QListWidgetItem) -> None:
        code = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked and code not in self.checked:
            self.checked.append(code)
        elif item.checkState() != Qt.CheckState.Checked and code in self.checked:
            self.checked.remove(code)
        self._show_chosen()
        self.changed()

    def check_infraction(self, code: str, on: bool = True) -> None:
        """Tick an infraction of the catalogue by its code (as a click on its box does)."""
        for row in range(self.catalogue.count()):
            item = self.catalogue.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == code:
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                return
        raise KeyError(code)

    def _show_chosen(self) -> None:
        if self.checked:
            self.chosen.setText(self.tr("Escolhidas: %1").replace("%1", ", ".join(self.checked)))
        else:
            self.chosen.setText(self.tr("Nenhuma infração escolhida."))

    def add_item(self, description: str = "", quantity: str = "1", unit: str = "un", perishable: bool = False) -> None:
        row = self.items.rowCount()
        self.items.blockSignals(True)
        self.items.insertRow(row)
        self.items.setItem(row, 0, QTableWidgetItem(description))
        self.items.setItem(row, 1, QTableWidgetItem(quantity))
        self.items.setItem(row, 2, QTableWidgetItem(unit))
        check = QTableWidgetItem()
        check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
        check.setCheckState(Qt.CheckState.Checked if perishable else Qt.CheckState.Unchecked)
        self.items.setItem(row, 3, check)
        self.items.blockSignals(False)
        self.changed()

    def add_photos(self, paths=None) -> None:
        if paths is None:
            paths, _ = QFileDialog.getOpenFileNames(
                self, self.tr("Fotos do auto"), "", self.tr("Imagens (*.jpg *.jpeg *.png *.heic);;Todos (*)")
            )
        for path in paths or []:
            if path and str(path) not in self.photos:
                self.photos.append(str(path))
                self.photo_list.addItem(Path(path).name)
        self.changed()

    def ask_adjustment(self, dialog_hook=None):
        try:  # the proposal as adjusted so far, a fine still to grade included
            base = enf.preview(self.draft(), today=self.today, strict=False).proposal
        except UserError as exc:
            self.error.setText(self.tr("Complete o auto antes de ajustar a sanção: %1").replace("%1", exc.message))
            return None
        dialog = AdjustDialog(base, self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.result_input is None:
            return None
        self.adjustments.append(dialog.result_input)
        self.update_preview()
        return dialog.result_input

    def clear_adjustments(self) -> None:
        self.adjustments = []
        self.update_preview()

    # -- the draft ------------------------------------------------------------------

    def _at(self) -> _dt.datetime | None:
        day = self.date.date()
        if day is None:
            return None
        text = self.time.text()
        try:
            hour, minute = (int(p) for p in text.split(":"))
            return _dt.datetime.combine(day, _dt.time(hour, minute))
        except ValueError:
            raise UserError(self.tr("Hora inválida: %1 (use hh:mm).").replace("%1", text), field="at") from None

    def _witnesses(self) -> list[enf.Witness]:
        out = []
        for line in self.witnesses.toPlainText().splitlines():
            if not line.strip():
                continue
            name, _, document = line.partition(";")
            out.append(enf.Witness(name.strip(), document.strip()))
        return out

    def _items(self) -> list[enf.ItemInput]:
        out = []
        for row in range(self.items.rowCount()):
            cells = [self.items.item(row, c) for c in range(4)]
            description = cells[0].text() if cells[0] else ""
            if not description.strip() and row > 0:
                continue
            out.append(
                enf.ItemInput(
                    description,
                    cells[1].text() if cells[1] else "1",
                    cells[2].text() if cells[2] else "un",
                    bool(cells[3] and cells[3].checkState() == Qt.CheckState.Checked),
                )
            )
        return out

    def draft(self, **overrides) -> enf.RecordDraft:
        person_id = company_id = None
        if self.offender is not None and not self.unknown.isChecked():
            if self.offender[0] == "person":
                person_id = self.offender[1]
            else:
                company_id = self.offender[1]
        unknown = self.unknown.isChecked()
        kind = self.kind.currentData()
        values = dict(
            kind=kind,
            regime=self.regime_id(),
            at=self._at(),
            place=self.place.text(),
            facts=self.facts.toPlainText(),
            infractions=list(self.checked),
            person_id=person_id,
            company_id=company_id,
            unknown_name=self.unknown_name.text() if unknown else "",
            unknown_description=self.unknown_description.text() if unknown else "",
            offender_document=self.offender_document.text() if unknown else "",
            offender_address=self.offender_address.text() if unknown else "",
            permit_number=self.permit_number.text().strip(),
            scope=self.scope.currentData() or "",
            witnesses=self._witnesses(),
            signature=self.signature.currentData(),
            signature_note=self.signature_note.text(),
            inspector=self.inspector.text(),
            inspector_id=self.inspector_id.text(),
            photos=list(self.photos),
            items=self._items() if kind == "seizure" else [],
            depot=self.depot.text() if kind == "seizure" else "",
            adjustments=list(self.adjustments),
            payment_due=self.payment_due.date(),
            deadline_choices={
                role: combo.currentData() for role, combo in self.choice_combos.items() if combo.currentIndex() > 0
            },
            refers_to_id=self.base.refers_to_id,
            relation=self.base.relation,
            reason=self.reason.text(),
            notified_at=self.base.notified_at,
            step=self.base.step,
            step_reason=self.base.step_reason,
            apply_to_permit=self.apply_permit.isChecked(),
        )
        values.update(overrides)
        return enf.RecordDraft(**values)

    def _mark(self, errors: dict[str, str]) -> None:
        for widget in self.fields.values():
            widget.setStyleSheet("")
            widget.setToolTip("")
        for key, message in errors.items():
            widget = self.fields.get(key.split("[")[0])
            if widget is not None:
                widget.setStyleSheet(theme.error_style())
                widget.setToolTip(message)

    def update_preview(self):
        """Work out the proposal and the deadlines for what is on the form (nothing is written)."""
        self._timer.stop()
        try:
            pv = enf.preview(self.draft(), today=self.today)
        except FieldErrors as exc:
            self.last_preview = None
            self._mark(exc.errors)
            shown = list(exc.errors.values())
            self.proposal_view.setHtml(
                "<p>"
                + escape(self.tr("Para ver a sanção e os prazos, complete o auto:"))
                + "</p><ul>"
                + "".join(f"<li>{escape(m)}</li>" for m in shown)
                + "</ul>"
            )
            self.error.setText("")
            self.issue_button.setEnabled(False)
            return None
        except UserError as exc:
            self.last_preview = None
            self._mark({exc.field or "infractions": exc.message})
            self.proposal_view.setHtml(f'<p style="color:{theme.colour("error")}">{escape(exc.message)}</p>')
            self.issue_button.setEnabled(False)
            return None
        self._mark({})
        self.last_preview = pv
        self._show_preview(pv)
        self._update_choices(pv)
        self.payment_due.setVisible(pv.needs_payment_due)
        self.payment_due_label.setVisible(pv.needs_payment_due)
        self.issue_button.setEnabled(True)
        self.error.setText("")
        return pv

    def _show_preview(self, pv) -> None:
        html = []
        for indent, text in enf.explain(pv):
            style = f"margin-left:{indent * 18}px; margin-top:{6 if indent == 0 else 1}px; margin-bottom:0"
            weight = (
                "font-weight:600;" if indent == 0 and text.startswith(("Infração", "Multa a lançar", "Prazo")) else ""
            )
            html.append(f"<p style='{style};{weight}'>{escape(text)}</p>")
        for warning in pv.warnings:
            html.append(f'<p style="color:{theme.colour("warning")}">⚠ {escape(warning)}</p>')
        self.proposal_view.setHtml("".join(html))

    def _update_choices(self, pv) -> None:
        wanted = {role: options for role, options in pv.options.items() if len(options) > 1}
        current = {
            role: tuple(combo.itemData(i) for i in range(1, combo.count()))
            for role, combo in self.choice_combos.items()
        }
        if {r: tuple(i for i, _l in o) for r, o in wanted.items()} == current:
            return
        while self.choices_form.rowCount():
            self.choices_form.removeRow(0)
        self.choice_combos = {}
        for role, options in wanted.items():
            combo = QComboBox()
            combo.setObjectName(f"deadline-{role}")
            combo.addItem(self.tr("conforme a matéria (automático)"), "")
            for ident, label in options:
                combo.addItem(label, ident)
            combo.currentIndexChanged.connect(lambda _i: self.changed())
            self.choice_combos[role] = combo
            label = enf.ROLES.get(role.replace("-perishable", ""), role)
            if role.endswith("-perishable"):
                label += self.tr(" (perecíveis)")
            self.choices_form.addRow(label + ":", combo)
        self.choices_box.setVisible(bool(wanted))

    def issue(self) -> None:
        try:
            self.record = enf.issue_record(self.draft(), by=current_user_name(), today=self.today)
        except FieldErrors as exc:
            self._mark(exc.errors)
            self.error.setText(next(iter(exc.errors.values())))
            return
        except UserError as exc:
            self._mark({exc.field: exc.message} if exc.field else {})
            self.error.setText(exc.message)
            return
        self.accept()


# --------------------------------------------------------------------------- defence and decision


class ContestDialog(QDialog):
    """File a defence or an appeal: date, instance, grounds, suspensive effect (the deadline's note shows
    whether the act gives it)."""

    def __init__(self, record, kind: str, parent: QWidget | None = None, *, today: _dt.date):
        super().__init__(parent)
        self.record, self.kind, self.today, self.contest = record, kind, today, None
        self.setWindowTitle(
            self.tr("%1 — %2").replace("%1", self.tr(enf.CONTEST_KINDS[kind])).replace("%2", record.reference)
        )
        layout = QVBoxLayout(self)
        notes = [
            f"{d['label']}: {d['due_text']} ({d['basis']})" + (f" — {d['notes']}" if d.get("notes") else "")
            for d in record.deadline_data
            if d.get("role") == ("defence" if kind == "defence" else "appeal")
        ]
        for c in enf.contests_of(record):
            notes += [
                f"{d['label']}: {d['due_text']} ({d['basis']})" + (f" — {d['notes']}" if d.get("notes") else "")
                for d in json.loads(c.after or "[]")
                if d.get("role") == "appeal" and kind == "appeal"
            ]
        info = QLabel("<br>".join(escape(n) for n in notes) or self.tr("O ato não fixa prazo para esta peça."))
        info.setObjectName("contest-deadline")
        info.setWordWrap(True)
        info.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(info)
        form = QFormLayout()
        self.filed_on = DateEdit()
        self.filed_on.setObjectName("filed-on")
        self.filed_on.set_date(today)
        self.instance = QLineEdit(self.tr(enf.INSTANCES[kind]))
        self.instance.setObjectName("instance")
        self.grounds = QPlainTextEdit()
        self.grounds.setObjectName("grounds")
        self.grounds.setMaximumHeight(90)
        self.suspensive = QCheckBox(self.tr("Com efeito &suspensivo"))
        self.suspensive.setObjectName("suspensive")
        self.suspensive_note = QLineEdit()
        self.suspensive_note.setObjectName("suspensive-note")
        self.suspensive_note.setPlaceholderText(self.tr("artigo ou despacho que dá o efeito suspensivo"))
        form.addRow(self.tr("Pro&tocolo em:"), self.filed_on)
        form.addRow(self.tr("&Instância:"), self.instance)
        form.addRow(self.tr("&Razões:"), self.grounds)
        form.addRow("", self.suspensive)
        form.addRow(self.tr("Fundamento:"), self.suspensive_note)
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("contest-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.colour('error')};")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Protocolar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def accept(self) -> None:
        try:
            self.contest = enf.file_contest(
                self.record,
                kind=self.kind,
                filed_on=self.filed_on.date(),
                by=current_user_name(),
                grounds=self.grounds.toPlainText(),
                suspensive=self.suspensive.isChecked(),
                suspensive_note=self.suspensive_note.text(),
                instance=self.instance.text(),
                today=self.today,
            )
        except UserError as exc:
            self.error.setText(exc.message)
            return
        super().accept()


class DecisionDialog(QDialog):
    """Decide a defence or appeal: upheld, partly (the new fine), annulled; the reason; whether it is final."""

    def __init__(self, contest, parent: QWidget | None = None, *, today: _dt.date):
        super().__init__(parent)
        self.contest, self.today, self.decided = contest, today, None
        record = enf.get_record(contest.record_id)
        self.setWindowTitle(
            self.tr("Julgar %1 — %2").replace("%1", contest.kind_label.lower()).replace("%2", record.reference)
        )
        layout = QVBoxLayout(self)
        about = QLabel(
            self.tr("%1 protocolada em %2 — %3. Multa atual: %4.")
            .replace("%1", contest.kind_label)
            .replace("%2", _d(contest.filed_on))
            .replace("%3", contest.instance)
            .replace("%4", format_brl(enf.current_fine(record)))
        )
        about.setWordWrap(True)
        layout.addWidget(about)
        form = QFormLayout()
        self.outcome = QComboBox()
        self.outcome.setObjectName("outcome")
        for key, label in enf.OUTCOMES.items():
            self.outcome.addItem(self.tr(label), key)
        self.decided_on = DateEdit()
        self.decided_on.setObjectName("decided-on")
        self.decided_on.set_date(today)
        self.notified_on = DateEdit()
        self.notified_on.setObjectName("notified-on")
        self.notified_on.set_date(today)
        self.new_amount = QLineEdit()
        self.new_amount.setObjectName("new-amount")
        self.new_amount.setPlaceholderText(self.tr("novo valor da multa, na procedência em parte"))
        self.reason = QPlainTextEdit()
        self.reason.setObjectName("decision-reason")
        self.reason.setMaximumHeight(90)
        self.final = QCheckBox(self.tr("Decisão &final (encerra a instância administrativa)"))
        self.final.setObjectName("final")
        self.final.setChecked(enf.default_final(contest))
        form.addRow(self.tr("&Decisão:"), self.outcome)
        form.addRow(self.tr("&Data:"), self.decided_on)
        form.addRow(self.tr("&Ciência do autuado:"), self.notified_on)
        form.addRow(self.tr("&Nova multa (R$):"), self.new_amount)
        form.addRow(self.tr("&Fundamentos:"), self.reason)
        form.addRow("", self.final)
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("decision-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.colour('error')};")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Registrar decisão"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.outcome.currentIndexChanged.connect(lambda _i: self._outcome_changed())
        self._outcome_changed()
        self.setMinimumWidth(560)

    def _outcome_changed(self) -> None:
        self.new_amount.setEnabled(self.outcome.currentData() == "partly")

    def accept(self) -> None:
        try:
            self.decided = enf.decide_contest(
                self.contest,
                outcome=self.outcome.currentData(),
                decided_on=self.decided_on.date(),
                by=current_user_name(),
                reason=self.reason.toPlainText(),
                new_amount=self.new_amount.text() if self.new_amount.isEnabled() else None,
                final=self.final.isChecked(),
                notified_on=self.notified_on.date(),
                today=self.today,
            )
        except UserError as exc:
            self.error.setText(exc.message)
            return
        super().accept()


class DonateDialog(QDialog):
    def __init__(self, row, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Doar bens — %1").replace("%1", row.reference))
        layout = QVBoxLayout(self)
        about = QLabel(
            f"{escape(row.items)}<br>{self.tr('Prazo de retirada')}: {escape(row.reclaim_due)} "
            f"{escape(row.reclaim_basis)}"
        )
        about.setWordWrap(True)
        about.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(about)
        form = QFormLayout()
        self.to = QLineEdit()
        self.to.setObjectName("donate-to")
        self.to.setPlaceholderText(self.tr("entidade beneficente ou assistencial"))
        self.reason = QLineEdit()
        self.reason.setObjectName("donate-reason")
        self.consent = QCheckBox(self.tr("Com a &anuência do infrator (perecível ou declarou que não retira)"))
        self.consent.setObjectName("donate-consent")
        form.addRow(self.tr("&Entidade:"), self.to)
        form.addRow(self.tr("&Fundamento:"), self.reason)
        form.addRow("", self.consent)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Doar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)


# --------------------------------------------------------------------------- the records


class RecordsTab(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(self.tr("Buscar por número, autuado ou local…"))
        self.search.setClearButtonEnabled(True)
        self.kind = QComboBox()
        self.kind.setObjectName("kind-filter")
        for key, label in KIND_FILTERS:
            self.kind.addItem(self.tr(label), key)
        self.status = QComboBox()
        self.status.setObjectName("status-filter")
        for key, label in STATUS_FILTERS:
            self.status.addItem(self.tr(label), key)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.kind)
        bar.addWidget(self.status)
        layout.addLayout(bar)
        self.model = RowsModel(
            [
                Column(self.tr("Auto"), lambda r: r.reference),
                Column(self.tr("Data"), lambda r: _d(r.at)),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Local"), lambda r: r.place),
                Column(self.tr("Infrações"), lambda r: r.infractions),
                Column(self.tr("Multa"), lambda r: format_brl(r.fine) if r.fine else "—", right=True),
                Column(self.tr("Situação"), lambda r: r.situation),
            ],
            self,
        )
        self.table = make_table("records", self.model)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(4, 190)
        self.detail = QTextBrowser()
        self.detail.setObjectName("detail")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        actions = FlowLayout()  # eleven actions: a second line on a narrow screen
        self.buttons: dict[str, QPushButton] = {}
        for key, label, slot in (
            ("new", "&Novo auto…", lambda: self.new_record()),
            ("follow", "&Seguimento…", lambda: self.follow_up()),
            ("correct", "&Corrigir…", lambda: self.correct_selected()),
            ("identify", "&Identificar infrator…", lambda: self.identify_selected()),
            ("defence", "&Defesa…", lambda: self.contest_selected("defence")),
            ("appeal", "&Recurso…", lambda: self.contest_selected("appeal")),
            ("decide", "Jul&gar…", lambda: self.decide_selected()),
            ("sanctions", "D&ecidir sanções…", lambda: self.decide_sanctions_selected()),
            ("permit", "Ap&licar à permissão", lambda: self.apply_permit_selected()),
            ("pdf", "Salvar PD&F…", lambda: self.save_pdf()),
            ("print", "Im&primir…", lambda: self.print_record()),
        ):
            button = QPushButton(self.tr(label))
            button.setObjectName(key)
            button.clicked.connect(slot)
            self.buttons[key] = button
            actions.addWidget(button)
        actions.addStretch(1)
        layout.addLayout(actions)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.refresh_rows)
        self.search.textChanged.connect(lambda _t: self._timer.start())
        search_keys(self.search, self.table)
        self.kind.currentIndexChanged.connect(lambda _i: self.refresh_rows())
        self.status.currentIndexChanged.connect(lambda _i: self.refresh_rows())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        self.refresh_rows()

    def refresh_rows(self) -> None:
        self._timer.stop()
        keep = self.selected()
        try:
            rows = enf.record_rows(
                text=self.search.text(), kind=self.kind.currentData() or None, status=self.status.currentData() or None
            )
        except Exception as exc:  # noqa: BLE001 - no database open yet: an empty list
            rows = []
            if isinstance(exc, UserError):
                self.message.setText(exc.message)
        self.model.set_rows(rows)
        if keep is not None:
            self.select_record(keep.id, quiet=True)
        self._show_selected()

    def selected(self):
        return selected_row(self.table, self.model)

    def select_record(self, record_id: int, *, quiet: bool = False) -> bool:
        return select_where(self.table, self.model, lambda item: item.id == record_id, key=record_id, quiet=quiet)

    def _record(self):
        row = self.selected()
        return enf.get_record(row.id) if row is not None else None

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message.setStyleSheet(f"color: {theme.colour('error')};" if error else "")
        self.message.setText(text)

    def _show_selected(self) -> None:
        record = self._record()
        enabled = record is not None
        live = enabled and record.status == "issued"
        contests = enf.contests_of(record) if enabled else []
        pending = [c for c in contests if c.pending]
        closed = any(c.final for c in contests)
        allow(self.buttons["new"], "enforcement.record")
        allow(self.buttons["follow"], "enforcement.record", live)
        allow(self.buttons["correct"], "enforcement.record", live)
        allow(self.buttons["identify"], "enforcement.record", live and not record.identified)
        allow(
            self.buttons["defence"],
            "enforcement.record",
            live and record.kind != "notice" and not contests and not closed,
        )
        allow(
            self.buttons["appeal"],
            "enforcement.record",
            live and record.kind != "notice" and not pending and not closed,
        )
        allow(self.buttons["decide"], "enforcement.decide", bool(pending))
        waiting = live and record.kind != "notice" and any(s.actions for s in enf.current_proposal(record).sanctions)
        self.buttons["sanctions"].setEnabled(bool(waiting))
        self.buttons["sanctions"].setToolTip(
            self.tr(
                "Registrar o fato de que uma sanção depende, ou impor ou dispensar, com o motivo, uma sanção que o "
                "ato deixa à autoridade"
            )
        )
        allow(self.buttons["permit"], "permits.sanction", live and bool(record.permit_id))
        self.buttons["pdf"].setEnabled(enabled)
        self.buttons["print"].setEnabled(enabled)
        if record is None:
            self.detail.setHtml(self.tr("Selecione um auto para ver a sanção, os prazos, a defesa e as cobranças."))
            return
        self.detail.setHtml(self._detail_html(record))

    def _detail_html(self, record) -> str:
        data = record.proposal_data
        current = {s["number"]: s for s in enf.current_sanctions(record)}
        parts = [
            f"<p><b>{escape(record.reference)}</b> — {escape(record.kind_label)} · {escape(record.regime)} · "
            f"<b>{escape(enf.situation(record))}</b></p>",
            f"<p>{escape(_d(record.at))} — {escape(record.place)}<br>"
            f"{self.tr('Autuado')}: <b>{escape(record.offender_name)}</b> {escape(record.offender_document)}"
            + (f" — {escape(record.offender_description)}" if record.offender_description else "")
            + f"<br>{self.tr('Fatos')}: {escape(record.facts)}</p>",
        ]
        version = act_version_line(self, record.regime, record.act_sha256)
        if version:  # the act's version it was judged by, even after the act was amended
            parts.append("<p>" + self.tr("Lavrado com o %1").replace("%1", version) + "</p>")
        lines = []
        for item in data.get("infractions", []):
            lines.append(
                f"<li><b>{escape(item['label'])}</b> — {escape(item['article'])} ({item['offence']}ª ocorrência)<ul>"
            )
            for stored in item["sanctions"]:
                s = current.get(stored["number"], stored)
                text = f"{s['number']}. {escape(s['label'])}"
                if s.get("amount_text"):
                    text += f": <b>{escape(s['amount_text'])}</b>"
                text += f" — <i>{escape(enf.DECISION_LABELS.get(s.get('decision', ''), ''))}</i>"
                condition = s.get("condition")
                if isinstance(condition, dict):
                    met = s.get("condition_met")
                    text += "<br>" + escape(
                        self.tr("Condição: %1 (%2)").replace("%1", condition["text"]).replace("%2", condition["basis"])
                    )
                    if met:
                        text += escape(
                            self.tr(" — verificado em %1 por %2")
                            .replace("%1", _d(_dt.date.fromisoformat(met["on"])))
                            .replace("%2", met["by"])
                        )
                if s.get("waiting"):
                    text += "<br>" + escape(s["waiting"])
                text += f' <span style="color:{theme.colour("muted")}">({escape(s["basis"])})</span>'
                lines.append(f"<li>{text}</li>")
            lines.append("</ul></li>")
        parts.append("<ul>" + "".join(lines) + "</ul>")
        rows = enf.deadline_rows(record, self.today)
        if rows:
            parts.append(
                "<p><b>"
                + self.tr("Prazos")
                + "</b></p><ul>"
                + "".join(
                    f"<li>{escape(r.label if r.label.startswith(r.role_label) else f'{r.role_label} — {r.label}')}: "
                    f"<b>{escape(r.due_text)}</b> "
                    f'[{escape(r.state)}] <span style="color:{theme.colour("muted")}">({escape(r.basis)})</span></li>'
                    for r in rows
                )
                + "</ul>"
            )
        charges = enf.charges_of(record)
        if charges:
            parts.append(
                "<p><b>"
                + self.tr("Cobranças")
                + "</b></p><ul>"
                + "".join(
                    f"<li>nº {escape(c.number)} — {escape(c.label)}: {format_brl(c.amount)}, vencimento "
                    f"{_d(c.due_on)} — {escape(c.status_label)}"
                    + (f" ({escape(c.cancel_reason)})" if c.status == "cancelled" else "")
                    + "</li>"
                    for c in charges
                )
                + "</ul>"
            )
        items = enf.items_of(record)
        if items:
            parts.append(
                "<p><b>"
                + self.tr("Objetos apreendidos")
                + f"</b> — {escape(record.depot)}</p><ul>"
                + "".join(
                    f"<li>{escape(str(i.quantity))} {escape(i.unit)} {escape(i.description)}"
                    + (self.tr(" (perecível)") if i.perishable else "")
                    + (f" — devolvido em {_d(i.released_on)}" if i.released_on else "")
                    + (f" — doado em {_d(i.donated_on)} a {escape(i.donated_to)}" if i.donated_on else "")
                    + "</li>"
                    for i in items
                )
                + "</ul>"
            )
        contests = enf.contests_of(record)
        if contests:
            parts.append(
                "<p><b>"
                + self.tr("Defesa e recurso")
                + "</b></p><ul>"
                + "".join(
                    f"<li>{escape(c.kind_label)} de {_d(c.filed_on)} ({escape(c.instance)})"
                    + ("" if c.on_time else self.tr(" — fora do prazo"))
                    + (self.tr(" — efeito suspensivo") if c.suspensive else "")
                    + f": <b>{escape(c.outcome_label)}</b>"
                    + (f" em {_d(c.decided_on)} — {escape(c.decision_reason)}" if c.outcome else "")
                    + (f" — multa {format_brl(c.new_amount)}" if c.new_amount is not None else "")
                    + (self.tr(" — decisão final") if c.final else "")
                    + "</li>"
                    for c in contests
                )
                + "</ul>"
            )
        events = enf.events_of(record)
        if events:
            parts.append(
                "<p><b>"
                + self.tr("Histórico")
                + "</b></p><ul>"
                + "".join(f"<li>{_d(e.on)} — {escape(e.text)} ({escape(e.by)})</li>" for e in events)
                + "</ul>"
            )
        files = enf.files_of(record)
        if files:
            parts.append(
                "<p>"
                + self.tr("Fotos")
                + ": "
                + ", ".join(f"{escape(f.original_name)} (SHA-256 {f.sha256[:12]}…)" for f in files)
                + "</p>"
            )
        return "".join(parts)

    # -- acts --------------------------------------------------------------------------

    def _open(self, base: enf.RecordDraft, *, title: str, mode: str, dialog_hook=None):
        dialog = RecordDialog(base, self, today=self.today, title=title, mode=mode)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        record = dialog.record
        if record is None:
            return None
        self._say(
            self.tr("%1 lavrado%2. Salve o PDF ou imprima para entregar a via do autuado.")
            .replace("%1", record.reference)
            .replace(
                "%2",
                self.tr(" — multa de %1 lançada na Cobrança").replace("%1", format_brl(record.fine_total))
                if enf.charges_of(record, "fine")
                else "",
            )
        )
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.kind.setCurrentIndex(0)
        self.status.setCurrentIndex(0)
        self.refresh_rows()
        self.select_record(record.id, quiet=True)
        return record

    def new_record(self, *, dialog_hook=None, regime: str | None = None, kind: str = "infraction"):
        now = _dt.datetime.now().replace(second=0, microsecond=0)
        at = _dt.datetime.combine(self.today, now.time()) if self._today else now
        regime = regime or enf.default_regime_id()
        base = enf.RecordDraft(kind=kind, regime=regime, at=at, inspector=current_user_name())
        return self._open(base, title=self.tr("Novo auto"), mode="new", dialog_hook=dialog_hook)

    def follow_up(self, *, kind: str | None = None, dialog_hook=None):
        """A record that follows the selected one: the infraction record after a notice not complied with, or a
        seizure/interdiction record drawn up with an infraction record."""
        record = self._record()
        if record is None:
            return None
        if kind is None:
            kind = "infraction" if record.kind == "notice" else "seizure"
        relation = "follows-notice" if record.kind == "notice" and kind == "infraction" else "accompanies"
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))
        base = enf.draft_from(
            record,
            kind=kind,
            refers_to_id=record.id,
            relation=relation,
            at=max(now, record.at),
            adjustments=[],
            items=[],
            depot="",
        )
        title = self.tr("%1 — seguimento do %2").replace("%1", self.tr(enf.KINDS[kind])).replace("%2", record.reference)
        return self._open(base, title=title, mode="follow", dialog_hook=dialog_hook)

    def correct_selected(self, *, dialog_hook=None):
        record = self._record()
        if record is None:
            return None
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))
        base = enf.draft_from(record, refers_to_id=record.id, relation="correction", notified_at=max(now, record.at))
        title = self.tr("Corrigir %1 (novo auto que se refere a ele)").replace("%1", record.reference)
        return self._open(base, title=title, mode="correct", dialog_hook=dialog_hook)

    def identify_selected(self, *, dialog_hook=None):
        record = self._record()
        if record is None:
            return None
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))
        base = enf.draft_from(
            record,
            refers_to_id=record.id,
            relation="identification",
            unknown_name="",
            reason=self.tr("identificação do infrator"),
            notified_at=max(now, record.at),
        )
        title = self.tr("Identificar o infrator do %1").replace("%1", record.reference)
        return self._open(base, title=title, mode="identify", dialog_hook=dialog_hook)

    def contest_selected(self, kind: str, *, dialog_hook=None):
        record = self._record()
        if record is None:
            return None
        dialog = ContestDialog(record, kind, self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.contest is None:
            return None
        c = dialog.contest
        self._say(
            self.tr("%1 protocolada em %2%3.")
            .replace("%1", c.kind_label)
            .replace("%2", _d(c.filed_on))
            .replace("%3", "" if c.on_time else self.tr(" — fora do prazo; a autoridade decide"))
        )
        self.refresh_rows()
        return c

    def decide_selected(self, *, dialog_hook=None):
        record = self._record()
        if record is None:
            return None
        pending = [c for c in enf.contests_of(record) if c.pending]
        if not pending:
            return None
        dialog = DecisionDialog(pending[-1], self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.decided is None:
            return None
        c = dialog.decided
        self._say(self.tr("%1 julgada: %2.").replace("%1", c.kind_label).replace("%2", c.outcome_label))
        self.refresh_rows()
        return c

    def decide_sanctions_selected(self, *, dialog_hook=None):
        """The authority decides on the selected record's proposed sanctions (a new event on the record)."""
        record = self._record()
        if record is None:
            return None
        dialog = AdjustDialog(
            enf.current_proposal(record),
            self,
            today=self.today,
            title=self.tr("Decidir sanções — %1").replace("%1", record.reference),
        )
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.result_input is None:
            return None
        try:
            event = enf.decide_sanctions(record, dialog.result_input, by=current_user_name(), today=self.today)
        except FieldErrors as exc:
            self._say(next(iter(exc.errors.values())), error=True)
            return None
        except UserError as exc:
            self._say(exc.message, error=True)
            return None
        self._say(event.text)
        self.refresh_rows()
        self.select_record(record.id, quiet=True)
        return event

    def apply_permit_selected(self) -> bool:
        record = self._record()
        if record is None:
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Aplicar à permissão"),
            self.tr("Aplicar à permissão a suspensão ou cassação do %1?").replace("%1", record.reference),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        try:
            permit = enf.apply_to_permit(record, by=current_user_name(), today=self.today)
        except UserError as exc:
            self._say(exc.message, error=True)
            return False
        self._say(self.tr("Permissão nº %1: %2.").replace("%1", permit.number).replace("%2", permit.status_label))
        self.refresh_rows()
        return True

    def save_pdf(self, path: str | Path | None = None) -> Path | None:
        from reports.enforcement_docs import write_record_pdf

        record = self._record()
        if record is None:
            return None
        written = save_pdf_as(
            self,
            path,
            title=self.tr("Salvar auto em PDF"),
            default_name=f"{record.kind}-{record.number.replace('/', '-')}.pdf",
            write=lambda target: write_record_pdf(record, target, today=self.today),
            fail=lambda text: self._say(text, error=True),
        )
        if written is None:
            return None
        self._say(self.tr("PDF do %1 gravado em %2.").replace("%1", record.reference).replace("%2", str(written)))
        return written

    def print_record(self, printer=None) -> bool:
        from reports.enforcement_docs import record_document

        record = self._record()
        if record is None:
            return False
        if not print_document(
            self,
            printer,
            f"{record.kind}-{record.number.replace('/', '-')}",
            lambda: record_document(record, today=self.today),
        ):
            return False
        self._say(self.tr("%1 enviado para impressão.").replace("%1", record.reference))
        return True


# --------------------------------------------------------------------------- seized goods


class SeizuresTab(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Bens apreendidos ainda no depósito e o que é devido hoje para devolvê-los "
                "(multas e diárias de depósito); vencido o prazo de retirada, a doação."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.model = OverdueRowsModel(
            [
                Column(self.tr("Auto"), lambda r: r.reference),
                Column(self.tr("Apreensão"), lambda r: _d(r.seized_at)),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Bens"), lambda r: r.items, tooltip=lambda r: r.items),
                Column(self.tr("Retirada até"), lambda r: r.reclaim_due, tooltip=lambda r: r.reclaim_basis),
                Column(self.tr("Dias"), lambda r: str(r.days), right=True),
                Column(
                    self.tr("Depósito"),
                    lambda r: format_brl(r.depot_due) if r.depot_due is not None else "—",
                    right=True,
                    tooltip=lambda r: r.depot_formula,
                ),
                Column(self.tr("Multas"), lambda r: format_brl(r.fines_open), right=True),
                Column(self.tr("Devido hoje"), lambda r: format_brl(r.total_due), right=True),
                Column(self.tr("Situação"), lambda r: r.state),
            ],
            self,
            flag="reclaim_passed",
        )
        self.table = make_table("seized", self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.detail = QLabel()
        self.detail.setObjectName("seized-detail")
        self.detail.setWordWrap(True)
        layout.addWidget(self.detail)
        actions = QHBoxLayout()
        self.charge_button = QPushButton(self.tr("&Cobrar diárias até hoje"))
        self.charge_button.setObjectName("charge-depot")
        self.release_button = QPushButton(self.tr("De&volver bens"))
        self.release_button.setObjectName("release")
        self.donate_button = QPushButton(self.tr("D&oar…"))
        self.donate_button.setObjectName("donate")
        self.charge_button.clicked.connect(lambda: self.charge_selected())
        self.release_button.clicked.connect(lambda: self.release_selected())
        self.donate_button.clicked.connect(lambda: self.donate_selected())
        for b in (self.charge_button, self.release_button, self.donate_button):
            actions.addWidget(b)
        actions.addStretch(1)
        layout.addLayout(actions)
        self.message = QLabel()
        self.message.setObjectName("seized-message")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        try:
            rows = enf.seized_goods(self.today)
        except Exception:  # noqa: BLE001 - no database open yet
            rows = []
        keep = self.selected()
        self.model.set_rows(rows)
        if keep is not None:
            for i, r in enumerate(rows):
                if r.record_id == keep.record_id:
                    self.table.selectRow(i)
        self._show_selected()

    def selected(self):
        return selected_row(self.table, self.model)

    def _show_selected(self) -> None:
        row = self.selected()
        for b in (self.charge_button, self.release_button, self.donate_button):
            b.setEnabled(row is not None)
        if row is None:
            self.detail.setText("")
            return
        self.detail.setText(
            self.tr("%1 — depósito: %2. Diárias: %3. Retirada: %4 %5")
            .replace("%1", row.reference)
            .replace("%2", row.depot)
            .replace("%3", row.depot_formula)
            .replace("%4", row.reclaim_due)
            .replace("%5", row.reclaim_basis)
        )

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message.setStyleSheet(f"color: {theme.colour('error')};" if error else "")
        self.message.setText(text)

    def charge_selected(self, amount: str | None = None):
        row = self.selected()
        if row is None:
            return None
        try:
            charge = enf.charge_depot_fee(
                enf.get_record(row.record_id), on=self.today, by=current_user_name(), amount=amount, today=self.today
            )
        except FieldErrors as exc:
            if "amount" in exc.errors and amount is None:
                value, ok = QInputDialog.getText(self, self.tr("Preço do depósito"), exc.errors["amount"])
                return self.charge_selected(value) if ok else None
            self._say(exc.message, error=True)
            return None
        except UserError as exc:
            self._say(exc.message, error=True)
            return None
        self._say(
            self.tr("Diárias de depósito lançadas: cobrança nº %1, %2.")
            .replace("%1", charge.number)
            .replace("%2", format_brl(charge.amount))
        )
        self.refresh()
        return charge

    def release_selected(self) -> bool:
        row = self.selected()
        if row is None:
            return False
        try:
            enf.release_items(enf.get_record(row.record_id), on=self.today, by=current_user_name(), today=self.today)
        except UserError as exc:
            self._say(exc.message, error=True)
            return False
        self._say(self.tr("Bens do %1 devolvidos.").replace("%1", row.reference))
        self.refresh()
        return True

    def donate_selected(self, *, dialog_hook=None) -> bool:
        row = self.selected()
        if row is None:
            return False
        dialog = DonateDialog(row, self)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        try:
            enf.donate_items(
                enf.get_record(row.record_id),
                on=self.today,
                by=current_user_name(),
                to=dialog.to.text(),
                reason=dialog.reason.text(),
                consent=dialog.consent.isChecked(),
                today=self.today,
            )
        except UserError as exc:
            self._say(exc.message, error=True)
            return False
        self._say(self.tr("Bens do %1 doados a %2.").replace("%1", row.reference).replace("%2", dialog.to.text()))
        self.refresh()
        return True


class DebtTab(QWidget):
    """Fines not paid by their deadline: for inscription in the dívida ativa."""

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Multas não pagas no prazo, sem defesa ou recurso com efeito suspensivo pendente: "
                "a encaminhar para inscrição em dívida ativa."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.model = RowsModel(
            [
                Column(self.tr("Auto"), lambda r: r.reference),
                Column(self.tr("Cobrança"), lambda r: r.charge_number),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Documento"), lambda r: r.document),
                Column(self.tr("Em aberto"), lambda r: format_brl(r.amount), right=True),
                Column(self.tr("Prazo"), lambda r: _d(r.due_on)),
                Column(self.tr("Dias de atraso"), lambda r: str(r.days_late), right=True),
                Column(self.tr("Base legal"), lambda r: r.basis),
            ],
            self,
        )
        self.table = make_table("debts", self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.total = QLabel()
        self.total.setObjectName("debt-total")
        layout.addWidget(self.total)

    def refresh(self) -> None:
        try:
            rows = enf.debt_register(self._today or _dt.date.today())
        except Exception:  # noqa: BLE001 - no database open yet
            rows = []
        self.model.set_rows(rows)
        total = sum((r.amount for r in rows), start=enf.ZERO)
        self.total.setText(
            self.tr("%1 multa(s), %2 em aberto.").replace("%1", str(len(rows))).replace("%2", format_brl(total))
        )


class EnforcementPage(QWidget):
    """Fiscalização: records, seized goods, dívida ativa."""

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Fiscalização"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.records = RecordsTab(today=today)
        self.seizures = SeizuresTab(today=today)
        self.debts = DebtTab(today=today)
        self.tabs.addTab(self.records, self.tr("Autos"))
        self.tabs.addTab(self.seizures, self.tr("Apreensões"))
        self.tabs.addTab(self.debts, self.tr("Dívida ativa"))
        self.tabs.currentChanged.connect(lambda _i: self.tabs.currentWidget().refresh())
        layout.addWidget(self.tabs, 1)

    @property
    def new_item_label(self) -> str:
        return self.tr("Novo auto")

    def new_item(self):
        """Ctrl+N: a new infraction record."""
        self.tabs.setCurrentWidget(self.records)
        return self.records.new_record()

    def refresh(self) -> None:
        for tab in (self.records, self.seizures, self.debts):
            tab.refresh()
