"""The dialogs that answer a record: a defence or appeal, its decision, the donation of seized goods."""

from __future__ import annotations

import datetime as _dt
import json
from html import escape
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.rules.regimes import act_currency, act_money
from views.blocks import error_label, fill, user_errors
from views.enforcement.common import day_label
from views.operations import in_background
from views.widgets import DateEdit, current_user_name


class ContestDialog(QDialog):
    """File a defence or an appeal: date, instance, grounds, suspensive effect (the deadline's note shows
    whether the act gives it)."""

    def __init__(self, record, contests, kind: str, parent: QWidget | None = None, *, today: _dt.date):
        """``contests``: the record's (``enf.contests_of``), read with it on a worker (issue 27 §5)."""
        super().__init__(parent)
        self.record, self.kind, self.today = record, kind, today
        self.contest: enf.Contest | None = None
        self.setWindowTitle(fill(self.tr("%1 — %2"), self.tr(enf.CONTEST_KINDS[kind]), record.reference))
        layout = QVBoxLayout(self)
        notes = [
            f"{d['label']}: {d['due_text']} ({d['basis']})" + (f" — {d['notes']}" if d.get("notes") else "")
            for d in record.deadline_data
            if d.get("role") == ("defence" if kind == "defence" else "appeal")
        ]
        for c in contests:
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
        self.error = error_label("contest-error")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Protocolar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def accept(self) -> None:
        with user_errors(self.error) as refused:
            typed: dict[str, Any] = {
                "kind": self.kind,
                "filed_on": self.filed_on.date(),
                "by": current_user_name(),
                "grounds": self.grounds.toPlainText(),
                "suspensive": self.suspensive.isChecked(),
                "suspensive_note": self.suspensive_note.text(),
                "instance": self.instance.text(),
                "today": self.today,
            }
            record = self.record
            self.contest = in_background(lambda: enf.file_contest(record, **typed), busy=(self.ok_button,))
        if refused:
            return
        super().accept()


class DecisionDialog(QDialog):
    """Decide a defence or appeal: upheld, partly (the new fine), annulled; the reason; whether it is final."""

    @staticmethod
    def facts(contest) -> SimpleNamespace:
        """The worker thread: what the dialog shows of ``contest`` — its record, the fine now, whether a
        decision closes the instance by default."""
        record = enf.get_record(contest.record_id)
        return SimpleNamespace(
            contest=contest,
            record=record,
            fine_text=act_money(enf.current_fine(record), record.regime),
            final=enf.default_final(contest),
        )

    def __init__(self, facts: SimpleNamespace, parent: QWidget | None = None, *, today: _dt.date):
        """``facts``: :meth:`facts`, read on a worker (issue 27 §5)."""
        super().__init__(parent)
        contest, record = facts.contest, facts.record
        self.contest, self.today = contest, today
        self.decided: enf.Contest | None = None
        self.setWindowTitle(fill(self.tr("Julgar %1 — %2"), contest.kind_label.lower(), record.reference))
        layout = QVBoxLayout(self)
        about = QLabel(
            fill(
                self.tr("%1 protocolada em %2 — %3. Multa atual: %4."),
                contest.kind_label,
                day_label(contest.filed_on),
                contest.instance,
                facts.fine_text,
            )
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
        self.final.setChecked(facts.final)
        form.addRow(self.tr("&Decisão:"), self.outcome)
        form.addRow(self.tr("&Data:"), self.decided_on)
        form.addRow(self.tr("&Ciência do autuado:"), self.notified_on)
        form.addRow(fill(self.tr("&Nova multa (%1):"), act_currency(record.regime)), self.new_amount)
        form.addRow(self.tr("&Fundamentos:"), self.reason)
        form.addRow("", self.final)
        layout.addLayout(form)
        self.error = error_label("decision-error")
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
        with user_errors(self.error) as refused:
            typed: dict[str, Any] = {
                "outcome": self.outcome.currentData(),
                "decided_on": self.decided_on.date(),
                "by": current_user_name(),
                "reason": self.reason.toPlainText(),
                "new_amount": self.new_amount.text() if self.new_amount.isEnabled() else None,
                "final": self.final.isChecked(),
                "notified_on": self.notified_on.date(),
                "today": self.today,
            }
            contest = self.contest
            self.decided = in_background(lambda: enf.decide_contest(contest, **typed), busy=(self.ok_button,))
        if refused:
            return
        super().accept()


class DonateDialog(QDialog):
    def __init__(self, row, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(fill(self.tr("Doar bens — %1"), row.reference))
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
