"""The records tab: the list of notices and records with their filters and the acts on them."""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.registry.municipality import own_scope
from models.rules.regimes import act_money
from views import theme
from views.blocks import fill, say, user_errors
from views.enforcement.adjust_dialog import AdjustDialog
from views.enforcement.common import KIND_FILTERS, STATUS_FILTERS, day_label
from views.enforcement.contest_dialogs import ContestDialog, DecisionDialog
from views.enforcement.record_dialog import RecordDialog
from views.flow import FlowLayout
from views.keys import search_keys
from views.operations import in_background
from views.roles import allow
from views.table_models import Column, RowsModel, make_table, select_where, selected_row
from views.widgets import act_version_line, current_user_name, print_document, save_pdf_as


class RecordsTab(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._fines: dict[int, str] = {}  # each listed record's fine in its act's money, read with the rows
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
                Column(self.tr("Data"), lambda r: day_label(r.at)),
                Column(self.tr("Autuado"), lambda r: r.offender),
                Column(self.tr("Local"), lambda r: r.place),
                Column(self.tr("Infrações"), lambda r: r.infractions),
                Column(self.tr("Multa"), lambda r: self._fines.get(r.id, "—"), right=True),
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
            text, kind, status = self.search.text(), self.kind.currentData() or None, self.status.currentData() or None
            rows, self._fines = in_background(lambda: _rows(text, kind, status))
        except Exception as exc:  # no database open yet: an empty list
            rows, self._fines = [], {}
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
        return self._of_selected(lambda record: record)

    def _of_selected(self, gather):
        """``gather(record)`` of the selected record, read on a worker (issue 27 §5); None with none selected."""
        row = self.selected()
        return in_background(lambda: gather(enf.get_record(row.id))) if row is not None else None

    def _say(self, text: str, *, error: bool = False) -> None:
        say(self.message, text, error=error)

    def say_refusal(self, text: str) -> None:
        """A refusal on the message line (the target of ``user_errors``)."""
        self._say(text, error=True)

    def _show_selected(self) -> None:
        row = self.selected()
        today = self.today
        facts: Any = in_background(lambda: _record_facts(row.id, today)) if row is not None else None
        record: Any = facts.record if facts is not None else None
        enabled = record is not None
        live = enabled and record.status == "issued"
        contests = facts.contests if facts is not None else []
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
        waiting = live and record.kind != "notice" and any(s.actions for s in facts.proposal.sanctions)
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
        self.detail.setHtml(self._detail_html(facts))

    def _detail_html(self, facts) -> str:
        record = facts.record
        data = record.proposal_data
        current = {s["number"]: s for s in facts.current}
        parts = [
            f"<p><b>{escape(record.reference)}</b> — {escape(record.kind_label)} · {escape(record.regime)} · "
            f"<b>{escape(facts.situation)}</b></p>",
            f"<p>{escape(day_label(record.at))} — {escape(record.place)}<br>"
            f"{self.tr('Autuado')}: <b>{escape(record.offender_name)}</b> {escape(record.offender_document)}"
            + (f" — {escape(record.offender_description)}" if record.offender_description else "")
            + f"<br>{self.tr('Fatos')}: {escape(record.facts)}</p>",
        ]
        version = act_version_line(self, record.regime, record.act_sha256)
        if version:  # the act's version it was judged by, even after the act was amended
            parts.append("<p>" + fill(self.tr("Lavrado com o %1"), version) + "</p>")
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
                    text += "<br>" + escape(fill(self.tr("Condição: %1 (%2)"), condition["text"], condition["basis"]))
                    if met:
                        text += escape(
                            fill(
                                self.tr(" — verificado em %1 por %2"),
                                day_label(_dt.date.fromisoformat(met["on"])),
                                met["by"],
                            )
                        )
                if s.get("waiting"):
                    text += "<br>" + escape(s["waiting"])
                text += f' <span style="color:{theme.colour("muted")}">({escape(s["basis"])})</span>'
                lines.append(f"<li>{text}</li>")
            lines.append("</ul></li>")
        parts.append("<ul>" + "".join(lines) + "</ul>")
        rows = facts.deadlines
        if rows:
            parts.append(
                "<p><b>"
                + self.tr("Prazos")
                + "</b></p><ul>"
                + "".join(
                    f"<li>{escape(r.label if r.label.startswith(r.role_label) else f'{r.role_label} — {r.label}')}: "
                    f"<b>{escape(r.due_text)}</b> "
                    + (
                        f"<i>({escape(self.tr('prorrogado pelo calendário do município'))}; {escape(r.moved)})</i> "
                        if r.moved
                        else ""
                    )
                    + f'[{escape(r.state)}] <span style="color:{theme.colour("muted")}">({escape(r.basis)})</span>'
                    + (
                        "<br><i>"
                        + escape(self.tr("Termina fora do expediente; a autoridade decide entre as leituras:"))
                        + " "
                        + escape("; ".join(f"({i}) {t}" for i, t in enumerate(r.readings, start=1)))
                        + "</i>"
                        if r.readings
                        else ""
                    )
                    + "</li>"
                    for r in rows
                )
                + "</ul>"
            )
        charges = facts.charges
        if charges:
            parts.append(
                "<p><b>"
                + self.tr("Cobranças")
                + "</b></p><ul>"
                + "".join(
                    f"<li>nº {escape(c.number)} — {escape(c.label)}: {act_money(c.amount, record.regime)}, vencimento "
                    f"{day_label(c.due_on)} — {escape(c.status_label)}"
                    + (f" ({escape(c.cancel_reason)})" if c.status == "cancelled" else "")
                    + "</li>"
                    for c in charges
                )
                + "</ul>"
            )
        items = facts.items
        if items:
            parts.append(
                "<p><b>"
                + self.tr("Objetos apreendidos")
                + f"</b> — {escape(record.depot)}</p><ul>"
                + "".join(
                    f"<li>{escape(str(i.quantity))} {escape(i.unit)} {escape(i.description)}"
                    + (self.tr(" (perecível)") if i.perishable else "")
                    + (f" — devolvido em {day_label(i.released_on)}" if i.released_on else "")
                    + (f" — doado em {day_label(i.donated_on)} a {escape(i.donated_to)}" if i.donated_on else "")
                    + "</li>"
                    for i in items
                )
                + "</ul>"
            )
        contests = facts.contests
        if contests:
            parts.append(
                "<p><b>"
                + self.tr("Defesa e recurso")
                + "</b></p><ul>"
                + "".join(
                    f"<li>{escape(c.kind_label)} de {day_label(c.filed_on)} ({escape(c.instance)})"
                    + ("" if c.on_time else self.tr(" — fora do prazo"))
                    + (self.tr(" — efeito suspensivo") if c.suspensive else "")
                    + f": <b>{escape(c.outcome_label)}</b>"
                    + (f" em {day_label(c.decided_on)} — {escape(c.decision_reason)}" if c.outcome else "")
                    + (f" — multa {act_money(c.new_amount, record.regime)}" if c.new_amount is not None else "")
                    + (self.tr(" — decisão final") if c.final else "")
                    + "</li>"
                    for c in contests
                )
                + "</ul>"
            )
        events = facts.events
        if events:
            parts.append(
                "<p><b>"
                + self.tr("Histórico")
                + "</b></p><ul>"
                + "".join(f"<li>{day_label(e.on)} — {escape(e.text)} ({escape(e.by)})</li>" for e in events)
                + "</ul>"
            )
        files = facts.files
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
        self.last_dialog: QDialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        record = dialog.record
        if record is None:
            return None
        self._say(
            fill(
                self.tr("%1 lavrado%2. Salve o PDF ou imprima para entregar a via do autuado."),
                record.reference,
                fill(self.tr(" — multa de %1 lançada na Cobrança"), act_money(record.fine_total, record.regime))
                if dialog.fined
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
        regime = regime or in_background(enf.default_regime_id)  # issue 27 §5
        base = enf.RecordDraft(kind=kind, regime=regime, at=at, inspector=current_user_name())
        return self._open(base, title=self.tr("Novo auto"), mode="new", dialog_hook=dialog_hook)

    def follow_up(self, *, kind: str | None = None, dialog_hook=None):
        """A record that follows the selected one: the infraction record after a notice not complied with, or a
        seizure/interdiction record drawn up with an infraction record."""
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))

        def follower(record):
            follows = kind or ("infraction" if record.kind == "notice" else "seizure")
            relation = "follows-notice" if record.kind == "notice" and follows == "infraction" else "accompanies"
            return (
                record,
                follows,
                enf.draft_from(
                    record,
                    kind=follows,
                    refers_to_id=record.id,
                    relation=relation,
                    at=max(now, record.at),
                    adjustments=[],
                    items=[],
                    depot="",
                ),
            )

        found = self._of_selected(follower)
        if found is None:
            return None
        record, kind, base = found
        title = fill(self.tr("%1 — seguimento do %2"), self.tr(enf.KINDS[kind]), record.reference)
        return self._open(base, title=title, mode="follow", dialog_hook=dialog_hook)

    def correct_selected(self, *, dialog_hook=None):
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))
        found = self._of_selected(
            lambda record: (
                record,
                enf.draft_from(record, refers_to_id=record.id, relation="correction", notified_at=max(now, record.at)),
            )
        )
        if found is None:
            return None
        record, base = found
        title = fill(self.tr("Corrigir %1 (novo auto que se refere a ele)"), record.reference)
        return self._open(base, title=title, mode="correct", dialog_hook=dialog_hook)

    def identify_selected(self, *, dialog_hook=None):
        now = _dt.datetime.combine(self.today, _dt.datetime.now().time().replace(second=0, microsecond=0))
        reason = self.tr("identificação do infrator")
        found = self._of_selected(
            lambda record: (
                record,
                enf.draft_from(
                    record,
                    refers_to_id=record.id,
                    relation="identification",
                    unknown_name="",
                    reason=reason,
                    notified_at=max(now, record.at),
                ),
            )
        )
        if found is None:
            return None
        record, base = found
        title = fill(self.tr("Identificar o infrator do %1"), record.reference)
        return self._open(base, title=title, mode="identify", dialog_hook=dialog_hook)

    def contest_selected(self, kind: str, *, dialog_hook=None):
        found = self._of_selected(lambda record: (record, enf.contests_of(record)))
        if found is None:
            return None
        record, contests = found
        dialog = ContestDialog(record, contests, kind, self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.contest is None:
            return None
        c = dialog.contest
        self._say(
            fill(
                self.tr("%1 protocolada em %2%3."),
                c.kind_label,
                day_label(c.filed_on),
                "" if c.on_time else self.tr(" — fora do prazo; a autoridade decide"),
            )
        )
        self.refresh_rows()
        return c

    def decide_selected(self, *, dialog_hook=None):
        def pending(record):
            waiting = [c for c in enf.contests_of(record) if c.pending]
            return DecisionDialog.facts(waiting[-1]) if waiting else None

        facts = self._of_selected(pending)
        if facts is None:
            return None
        dialog = DecisionDialog(facts, self, today=self.today)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.decided is None:
            return None
        c = dialog.decided
        self._say(fill(self.tr("%1 julgada: %2."), c.kind_label, c.outcome_label))
        self.refresh_rows()
        return c

    def decide_sanctions_selected(self, *, dialog_hook=None):
        """The authority decides on the selected record's proposed sanctions (a new event on the record)."""
        found = self._of_selected(lambda record: (record, enf.current_proposal(record)))
        if found is None:
            return None
        record, proposal = found
        dialog = AdjustDialog(
            proposal,
            self,
            today=self.today,
            title=fill(self.tr("Decidir sanções — %1"), record.reference),
        )
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        elif dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        if dialog.result_input is None:
            return None
        try:
            decided, by, today = dialog.result_input, current_user_name(), self.today
            event = in_background(lambda: enf.decide_sanctions(record, decided, by=by, today=today))
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
            fill(self.tr("Aplicar à permissão a suspensão ou cassação do %1?"), record.reference),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        with user_errors(self.say_refusal) as refused:
            by, today = current_user_name(), self.today
            permit = in_background(lambda: enf.apply_to_permit(record, by=by, today=today))
        if refused:
            return False
        self._say(fill(self.tr("Permissão nº %1: %2."), permit.number, permit.status_label))
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
        self._say(fill(self.tr("PDF do %1 gravado em %2."), record.reference, str(written)))
        return written

    def print_record(self, printer=None) -> bool:
        from reports.enforcement_docs import record_html
        from reports.pdf import text_document

        today = self.today
        found = self._of_selected(lambda record: (record, record_html(record, today=today)))
        if found is None:
            return False
        record, html = found
        if not print_document(
            self,
            printer,
            f"{record.kind}-{record.number.replace('/', '-')}",
            lambda: text_document(html),
        ):
            return False
        self._say(fill(self.tr("%1 enviado para impressão."), record.reference))
        return True


def _rows(text: str, kind: str | None, status: str | None) -> tuple[list, dict[int, str]]:
    """The worker thread (issue 27 §5): the records listed, and each fine in its act's money (the act read here)."""
    rows = enf.record_rows(text=text, kind=kind, status=status, regimes=own_scope())
    return rows, {r.id: act_money(r.fine, r.regime) for r in rows if r.fine}


def _record_facts(record_id: int, today: _dt.date) -> SimpleNamespace:
    """What the records tab shows of one auto, read in one go on a worker thread (issue 27 §5)."""
    record = enf.get_record(record_id)
    live = record.status == "issued" and record.kind != "notice"
    return SimpleNamespace(
        record=record,
        contests=enf.contests_of(record),
        proposal=enf.current_proposal(record) if live else SimpleNamespace(sanctions=[]),
        current=enf.current_sanctions(record),
        situation=enf.situation(record),
        deadlines=enf.deadline_rows(record, today),
        charges=enf.charges_of(record),
        items=enf.items_of(record),
        events=enf.events_of(record),
        files=enf.files_of(record),
    )
