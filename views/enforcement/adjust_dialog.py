"""The dialog that adjusts a record's sanction (an aggravating or mitigating circumstance)."""

from __future__ import annotations

import datetime as _dt
from typing import ClassVar

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import UserError
from views.blocks import error_label, fill, user_errors
from views.widgets import DateEdit, current_user_name


class AdjustDialog(QDialog):
    """Decide on a sanction within the act's limits — record the fact a condition waits for (the day it was
    verified and who verified it), impose or omit what the act leaves to the authority, grade a fine, fix a
    suspension's days — always with the written reason, which stays on the record."""

    ACTIONS: ClassVar[dict[str, str]] = {
        "fact": "Registrar o fato verificado",
        "apply": "Impor a sanção",
        "omit": "Dispensar a sanção",
        "amount": "Graduar o valor da multa (%1)",
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
        for label, widget in zip(self.fact_labels, (self.fact_on, self.fact_by, self.fact_note), strict=True):
            label.setBuddy(widget)
            form.addRow(label, widget)
        form.addRow(self.tr("&Motivo:"), self.reason)
        layout.addLayout(form)
        self.error = error_label("adjust-error")
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
            parts.append(fill(self.tr("Condição: %1 (%2)%3"), s.condition.text, s.condition.basis, met))
        if s.kind == "fine" and s.formula:  # the fine as computed, with the values the inspector gave and who
            parts.append(fill(self.tr("Fórmula: %1"), s.formula))
        parts.extend(fill(self.tr("Valor calculado da permissão: %1"), said) for said in s.permit_values)
        parts.extend(fill(self.tr("Valor informado: %1"), given) for given in s.asked)
        if s.pending:
            parts.append(s.pending)
        self.state.setText("\n".join(parts))
        self.what.blockSignals(True)
        self.what.clear()
        for key in s.actions:
            self.what.addItem(fill(self.tr(self.ACTIONS[key]), self.proposal.currency), key)  # the act's money
        self.what.blockSignals(False)
        self.ok_button.setEnabled(bool(s.actions))
        if not s.actions:
            self.error.setText(
                fill(self.tr("Nada a decidir sobre esta sanção: %1."), enf.DECISION_LABELS.get(s.decision, s.decision))
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
            with user_errors(self.error) as refused:
                on = self.fact_on.date()
            if refused:
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
