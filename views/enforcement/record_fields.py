"""The record dialog's form: its groups of fields — kind and regime, offender, facts, infractions, seizure,
people, photos, the reason and deadlines — built in that order.

:class:`RecordForm` is a collaborator of :class:`views.enforcement.record_dialog.RecordDialog`: a widget that
owns its fields and reads the ones that need reading (the day and hour, the witnesses, the goods seized). It
knows nothing of the draft; the dialog listens to its fields and to its two signals.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import UserError
from views.blocks import fill
from views.readings_box import ReadingsBox
from views.table_models import Column, RowsModel, make_table
from views.widgets import DateEdit

if TYPE_CHECKING:
    from models.rules.regimes import Regime


class RecordForm(QWidget):
    """The fields of a notice or record, in their groups."""

    #: a row of goods seized was added
    item_added = Signal()
    #: "Adicionar fotos…" was clicked
    photos_requested = Signal()

    def __init__(self, regimes: Mapping[str, Regime], parent: QWidget | None = None):
        super().__init__(parent)
        self.regimes = regimes  # the municipality's own acts, read by the dialog off the GUI thread (issue 27 §5)
        form = QVBoxLayout(self)
        self._build_top(form)
        self._build_offender(form)
        self._build_facts(form)
        self._build_infractions(form)
        self._build_seizure(form)
        self._build_people(form)
        self._build_photos(form)
        self._build_extra(form)
        form.addStretch(1)

    def _build_top(self, form: QVBoxLayout) -> None:
        """The group of fields of the kind, regime and subject of the record."""
        top = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        for key, label in enf.KINDS.items():
            self.kind.addItem(self.tr(label), key)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        for rid, regime in sorted(self.regimes.items(), key=lambda kv: kv[1].municipality):
            self.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", rid)
        self.scope = QComboBox()
        self.scope.setObjectName("scope")
        top.addRow(self.tr("&Tipo:"), self.kind)
        top.addRow(self.tr("&Regime:"), self.regime)
        top.addRow(self.tr("&Matéria:"), self.scope)
        form.addLayout(top)

    def _build_offender(self, form: QVBoxLayout) -> None:
        """The group of fields of the offender: a registered person or company, one unknown, the permit."""
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

    def _build_facts(self, form: QVBoxLayout) -> None:
        """The group of fields of the facts: day and time, place, what was seen."""
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

    def _build_infractions(self, form: QVBoxLayout) -> None:
        """The group of fields of the infractions, checked in the regime's catalogue."""
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

    def _build_seizure(self, form: QVBoxLayout) -> None:
        """The group of fields of the goods seized and the depot."""
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

    def _build_people(self, form: QVBoxLayout) -> None:
        """The group of fields of the witnesses, the acknowledgement and the inspector."""
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

    def _build_photos(self, form: QVBoxLayout) -> None:
        """The group of fields of the photos."""
        photos = QGroupBox(self.tr("Fotos"))
        photos_layout = QHBoxLayout(photos)
        self.photo_list = QListWidget()
        self.photo_list.setObjectName("photos")
        self.photo_list.setMaximumHeight(60)
        add_photos = QPushButton(self.tr("Adicionar f&otos…"))
        add_photos.setObjectName("add-photos")
        add_photos.clicked.connect(lambda: self.photos_requested.emit())
        photos_layout.addWidget(self.photo_list, 1)
        photos_layout.addWidget(add_photos)
        form.addWidget(photos)

    def _build_extra(self, form: QVBoxLayout) -> None:
        """The group of fields of the reason, the payment term and the deadlines to choose."""
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
        form.addWidget(self.choices_box)
        # where the act is silent (issue 28 §2): each point with its readings; the reason of the one chosen
        self.readings_box = ReadingsBox("penalty")
        form.addWidget(self.readings_box)
        # the values a fine written as a formula asks for (issue 29 §1): typed within the act's bounds, and kept on
        # the record's proposal with the inspector's name
        self.asked_box = QGroupBox(self.tr("Valores que a multa pede"))
        self.asked_box.setObjectName("fine-asked")
        self.asked_form = QFormLayout(self.asked_box)
        form.addWidget(self.asked_box)
        self.asked_box.hide()

    # -- the rows of goods seized, and what the form reads --------------------------------

    def add_item(self, description: str = "", quantity: str = "1", unit: str = "un", perishable: bool = False) -> None:
        """A row of goods seized (its edits are not signalled while it is filled)."""
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
        self.item_added.emit()

    def at(self) -> _dt.datetime | None:
        """The day and hour of the facts (None without a day); an hour not hh:mm refused at the field."""
        day = self.date.date()
        if day is None:
            return None
        text = self.time.text()
        try:
            hour, minute = (int(p) for p in text.split(":"))
            return _dt.datetime.combine(day, _dt.time(hour, minute))
        except ValueError:
            raise UserError(fill(self.tr("Hora inválida: %1 (use hh:mm)."), text), field="at") from None

    def witness_list(self) -> list[enf.Witness]:
        out = []
        for line in self.witnesses.toPlainText().splitlines():
            if not line.strip():
                continue
            name, _, document = line.partition(";")
            out.append(enf.Witness(name.strip(), document.strip()))
        return out

    def item_list(self) -> list[enf.ItemInput]:
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
