"""Atendimento → novo requerimento: what is wanted, the documents delivered, eligibility and price live."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.base.br import format_cnpj, format_cpf
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.registry.applications import Application, ApplicationInput, DocumentInput
from models.registry.town import working_regimes
from models.rules.fees.formula import bounds_text
from models.rules.fees.needs import asked_values, energy_tiers, needed
from models.rules.fees.needs import venues as venue_choices
from models.rules.regimes.model.fees import SETTERS
from models.services.filing import create_application
from models.services.front_desk import Applicant, assess, load_applicant
from models.store.settings import MUNICIPALITY, get_setting
from views import theme
from views.blocks import FieldErrorsView, fill, push_button, show, user_errors, wrapped_label
from views.documents_table import DocumentsTable
from views.fit import fit_to_screen
from views.operations import LatestQuery, in_background
from views.price_simulator import where_to_enter
from views.save import open_file_name, save_file_name, write_in_background
from views.widgets import GuardedDialog, current_user_name

STATUS_LOOK = {
    "passed": ("✔", "ok", "atendido"),
    "failed": ("✘", "error", "não atendido"),
    "manual": ("?", "warning", "conferir"),
    "missing-data": ("…", "warning", "sem dados"),
    "due-later": ("→", "info", "a apresentar depois"),
}


def _assess(applicant: Applicant, data: ApplicationInput, energy: str, now: _dt.datetime):
    """The worker thread: the form's eligibility, price and filing check (``models.services.front_desk.assess``)."""
    return assess(applicant, data, energy=energy, now=now)


class ApplicationDialog(GuardedDialog):
    discard_question = "Descartar este requerimento ainda não protocolado?"

    def __init__(
        self,
        applicant_kind: str,
        applicant_id: int,
        parent: QWidget | None = None,
        *,
        today: _dt.date | None = None,
        now: _dt.datetime | None = None,
    ):
        super().__init__(parent)
        self.today = now.date() if now is not None else (today or _dt.date.today())
        self._now = now
        self.applicant: Applicant
        self.applicant, town, self.regimes = in_background(
            lambda: (load_applicant(applicant_kind, applicant_id), get_setting(MUNICIPALITY), working_regimes())
        )
        self.application: Application | None = None
        self.files: dict[str, str] = {}
        self.setWindowTitle(fill(self.tr("Novo requerimento — %1"), self.applicant.name))
        fit_to_screen(self, QSize(1180, 780))
        layout = QVBoxLayout(self)
        document = (
            format_cpf(self.applicant.document)
            if self.applicant.kind == "person"
            else format_cnpj(self.applicant.document)
        )
        who = QLabel(
            f"<b>{self.applicant.name}</b> — {document}" + (self.tr(" · MEI") if self.applicant.is_mei else "")
        )
        who.setObjectName("applicant")
        layout.addWidget(who)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        layout.addWidget(splitter, 1)
        form_widget = QWidget()
        form_layout = QVBoxLayout(form_widget)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_widget)
        splitter.addWidget(scroll)

        what = QGroupBox(self.tr("O que se pede"))
        form = QFormLayout(what)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        for regime in sorted(self.regimes.values(), key=lambda r: r.municipality):
            if regime.permit_kinds:
                self.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        home = next((r.id for r in self.regimes.values() if r.municipality == town), None)
        if home:
            self.regime.setCurrentIndex(self.regime.findData(home))
        self.kind = QComboBox()
        self.kind.setObjectName("permit_kind")
        self.line = QComboBox()
        self.line.setObjectName("line")
        self.group = QComboBox()
        self.group.setObjectName("group")
        self.section = QComboBox()
        self.section.setObjectName("section")
        self.site = QComboBox()
        self.site.setObjectName("site")
        self.site.setEditable(True)
        site_edit = self.site.lineEdit()
        assert site_edit is not None  # an editable combo box has its line edit
        site_edit.setPlaceholderText(self.tr("local, evento ou área pretendida"))
        form.addRow(self.tr("&Regime:"), self.regime)
        form.addRow(self.tr("&Permissão:"), self.kind)
        form.addRow(self.tr("Ra&mo:"), self.line)
        form.addRow(self.tr("&Grupo:"), self.group)
        form.addRow(self.tr("&Seção:"), self.section)
        form.addRow(self.tr("Lo&cal:"), self.site)
        form_layout.addWidget(what)

        equipment = QGroupBox(self.tr("Equipamento"))
        eq_form = QFormLayout(equipment)
        self.equipment = QComboBox()
        self.equipment.setObjectName("equipment")
        self.front = self._metres("front", "ex.: 4,00")
        self.depth_edit = self._metres("depth", "ex.: 3,00")
        self.hitch = self._metres("hitch", "engate, se houver")
        self.electric = QCheckBox(self.tr("equipamentos elétricos"))
        self.electric.setObjectName("electric")
        self.power = self._metres("power_kw", "potência em kW")
        self.energy = QComboBox()
        self.energy.setObjectName("energy")
        self.gas = QCheckBox(self.tr("botijão de gás"))
        self.gas.setObjectName("gas")
        self.sound = QCheckBox(self.tr("som"))
        self.sound.setObjectName("sound")
        eq_form.addRow(self.tr("&Tipo:"), self.equipment)
        eq_form.addRow(self.tr("&Frente (m):"), self.front)
        eq_form.addRow(self.tr("Pr&ofundidade (m):"), self.depth_edit)
        eq_form.addRow(self.tr("&Engate (m):"), self.hitch)
        eq_form.addRow(self.electric, self.power)
        eq_form.addRow(self.tr("E&nergia:"), self.energy)
        eq_form.addRow(self.gas, self.sound)
        form_layout.addWidget(equipment)

        self.venue_box = QGroupBox(self.tr("Imóvel público"))
        self.venue_box.setObjectName("venue-box")
        venue_form = QFormLayout(self.venue_box)
        self.venue = QComboBox()
        self.venue.setObjectName("venue")
        self.days = QLineEdit()
        self.days.setObjectName("days")
        self.days.setPlaceholderText(self.tr("dias de uso"))
        self.days.setMaximumWidth(120)
        self.exemption = QComboBox()
        self.exemption.setObjectName("exemption")
        self.exemption.setToolTip(
            self.tr("Casos que o ato dispensa da taxa e da caução (ex.: evento assistencial, LC 324/2025, art. 90)")
        )
        venue_form.addRow(self.tr("Imó&vel:"), self.venue)
        venue_form.addRow(self.tr("&Dias de uso:"), self.days)
        venue_form.addRow(self.tr("Dispens&a:"), self.exemption)
        form_layout.addWidget(self.venue_box)
        self.venue_box.hide()

        # values a formula of the act leaves open (issue 29 §1): typed within the act's bounds, priced, and kept
        # with the clerk's name in the quote frozen on the application
        self.asked_box = QGroupBox(self.tr("Valores que o ato deixa em aberto"))
        self.asked_box.setObjectName("asked-box")
        self.asked_form = QFormLayout(self.asked_box)
        self.asked_edits: dict[str, QLineEdit] = {}
        form_layout.addWidget(self.asked_box)
        self.asked_box.hide()

        docs = QGroupBox(self.tr("Documentos entregues"))
        docs_layout = QVBoxLayout(docs)
        self.documents = DocumentsTable(attach=self.attach)
        self.documents.changed.connect(self.schedule_assessment)
        docs_layout.addWidget(self.documents)
        form_layout.addWidget(docs)
        self.notes = QLineEdit()
        self.notes.setObjectName("notes")
        self.notes.setPlaceholderText(self.tr("observações"))
        form_layout.addWidget(self.notes)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        self.filing = wrapped_label(name="filing")
        self.filing.hide()
        right_layout.addWidget(self.filing)
        self.verdict = wrapped_label(name="verdict")
        self.verdict.setStyleSheet("font-size: 12pt; font-weight: 600;")
        right_layout.addWidget(self.verdict)
        self.rules = QTableWidget(0, 2)
        self.rules.setObjectName("rules")
        self.rules.setHorizontalHeaderLabels([self.tr("Requisito e situação"), self.tr("Artigo")])
        self.rules.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.rules.setColumnWidth(1, 170)
        self.rules.verticalHeader().hide()
        self.rules.setWordWrap(True)
        right_layout.addWidget(self.rules, 2)
        self.quote_table = QTableWidget(0, 4)
        self.quote_table.setObjectName("quote")
        self.quote_table.setHorizontalHeaderLabels(
            [self.tr("Preço"), self.tr("Valor"), self.tr("Fórmula"), self.tr("Base legal")]
        )
        self.quote_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.quote_table.verticalHeader().hide()
        right_layout.addWidget(self.quote_table, 1)
        self.quote_note = wrapped_label(name="quote-note")
        right_layout.addWidget(self.quote_note)
        splitter.addWidget(right)
        splitter.setSizes([540, 640])
        form_widget.setMinimumWidth(500)

        self.error = QLabel()
        layout.addWidget(self.error)
        bottom = QHBoxLayout()
        self.protocol = QLabel()
        self.protocol.setObjectName("protocol")
        self.protocol.setStyleSheet("font-size: 14pt; font-weight: 600;")
        bottom.addWidget(self.protocol, 1)
        self.receipt_button = push_button(self.tr("Reci&bo em PDF…"), "receipt")
        self.receipt_button.setEnabled(False)
        self.receipt_button.clicked.connect(self.save_receipt)
        self.print_button = push_button(self.tr("&Imprimir recibo…"), "print")
        self.print_button.setEnabled(False)
        self.print_button.clicked.connect(self.print_receipt)
        bottom.addWidget(self.receipt_button)
        bottom.addWidget(self.print_button)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText(self.tr("Protoco&lar"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)
        self.errors = FieldErrorsView(
            self.error,
            {
                "regime": self.regime,
                "permit_kind": self.kind,
                "site": self.site,
                "line": self.line,
                "group": self.group,
                "section": self.section,
                "equipment": self.equipment,
                "front": self.front,
                "depth": self.depth_edit,
                "hitch": self.hitch,
                "power_kw": self.power,
                "documents": self.documents,
                "venue": self.venue,
                "days": self.days,
                "exemption": self.exemption,
            },
        )

        # Eligibility and price are worked out once the clerk pauses, not on every keystroke.
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(250)
        self._pending.timeout.connect(self.update_assessment)
        # ... and off the GUI thread (issue 27 §5): a newer input drops the answer still on its way
        self._assessor = LatestQuery(self, _assess, self._assessed, self._assessment_refused)
        self.last_assessment = None
        self.regime.currentIndexChanged.connect(self.regime_changed)
        self.kind.currentIndexChanged.connect(self.kind_changed)
        for combo in (self.line, self.group, self.section, self.equipment, self.energy, self.venue, self.exemption):
            combo.currentIndexChanged.connect(self.schedule_assessment)
        self.days.textChanged.connect(self.schedule_assessment)
        self.site.currentTextChanged.connect(self.schedule_assessment)
        for edit in (self.front, self.depth_edit, self.hitch, self.power):
            edit.textChanged.connect(self.schedule_assessment)
        self.regime_changed()
        self.watch_edits()

    # -- building ----------------------------------------------------------------
    def _metres(self, name: str, placeholder: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        edit.setMaximumWidth(160)
        return edit

    @staticmethod
    def _fill(combo: QComboBox, items, none_label: str | None) -> None:
        combo.blockSignals(True)
        combo.clear()
        if none_label is not None:
            combo.addItem(none_label, "")
        for key, label in items:
            combo.addItem(label, key)
        combo.setEnabled(bool(items))
        combo.blockSignals(False)

    def current_regime(self):
        return self.regimes.get(self.regime.currentData() or "")

    def now(self) -> _dt.datetime:
        """The moment of filing: the one given, else the current time on the desk's day."""
        if self._now is not None:
            return self._now
        return _dt.datetime.combine(self.today, _dt.datetime.now().time()).replace(microsecond=0)

    @Slot()
    def regime_changed(self) -> None:
        regime = self.current_regime()
        if regime is None:
            return
        # what the last act refused (its fields, its red frames) says nothing about this one (issue 31 §6)
        self.errors.clear()
        self.save_button.setToolTip("")
        none = self.tr("—")
        self._fill(self.kind, [(k.id, k.label) for k in regime.permit_kinds], None)
        self._fill(self.line, [(ln.id, ln.label) for ln in regime.lines], none)
        self._fill(
            self.group,
            [(g.id, g.label if str(g.number) in g.label else f"{g.number} — {g.label}") for g in regime.groups],
            none,
        )
        self._fill(self.section, [(s.id, f"{s.numeral} — {s.label}") for s in regime.sections], none)
        self._fill(self.equipment, [(e.id, e.label) for e in regime.equipment_kinds], none)
        self._fill(self.energy, energy_tiers(regime), self.tr("sem energia"))
        self.site.blockSignals(True)
        self.site.clear()
        self.site.addItem("", "")
        for site in regime.sites:
            self.site.addItem(site.label, site.id)
        self.site.blockSignals(False)
        self.kind_changed()

    @Slot()
    def kind_changed(self) -> None:
        regime = self.current_regime()
        kind_id = self.kind.currentData()
        self.documents.setRowCount(0)
        self.files = {}
        if regime is None or not kind_id:
            return
        fees = [regime.fee(f) for f in regime.permit_kind(kind_id).fees]
        # what the kind's fees read (models.rules.fees.needs), whatever their wording: the venue and the days
        # are asked only where a fee reads them
        read = needed(regime, fees)
        venues = venue_choices(regime, fees) if "venue" in read else []
        # an exemption of a fee and of its deposit (a fee of its own) is offered once
        exemptions = list(
            {e.id: (e.id, f"{e.label} ({regime.cite_item(e)})") for f in fees for e in f.exemptions}.values()
        )
        self._fill(self.venue, venues, self.tr("—"))
        self._fill(self.exemption, exemptions, self.tr("nenhuma"))
        self.days.clear()
        venue_form = self.venue_box.layout()
        assert isinstance(venue_form, QFormLayout)
        venue_form.setRowVisible(self.venue, bool(venues))
        venue_form.setRowVisible(self.days, "days" in read)
        venue_form.setRowVisible(self.exemption, bool(exemptions))
        self.venue_box.setVisible(bool(venues or exemptions or "days" in read))
        self._build_asked(regime, fees)
        proofs = list(
            dict.fromkeys(e.document for f in fees for e in f.exemptions if e.document)
        )  # listed; asked only when chosen
        documents = list(dict.fromkeys([*regime.permit_kind(kind_id).documents, *proofs]))
        self.documents.fill(regime, documents, self.today)
        self.update_assessment()

    def _build_asked(self, regime, fees) -> None:
        while self.asked_form.rowCount():
            self.asked_form.removeRow(0)
        self.asked_edits = {}
        for item in asked_values(regime, fees).values():
            edit = QLineEdit()
            edit.setObjectName(f"input-{item.name}")
            bounds = bounds_text(regime, item)
            edit.setPlaceholderText(bounds.split(" (")[0])
            edit.setToolTip(fill(self.tr("Valor que %1: %2"), SETTERS.get(item.set_by, item.set_by), bounds))
            edit.setMaximumWidth(200)
            edit.textChanged.connect(self.schedule_assessment)
            self.asked_form.addRow(item.label + ":", edit)
            self.asked_edits[item.name] = edit
        self.asked_box.setVisible(bool(self.asked_edits))

    # -- documents ---------------------------------------------------------------
    def set_delivered(
        self, doc_id: str, delivered: bool = True, *, on: _dt.date | None = None, valid_until: _dt.date | None = None
    ) -> None:
        """Tick a document (used by the keyboard/mouse and by tests alike)."""
        self.documents.tick(doc_id, delivered, on=on, valid_until=valid_until)

    def attach(self, doc_id: str, button: QPushButton | None = None, path: str | None = None) -> None:
        if path is None:
            path, _ = open_file_name(
                self, self.tr("Documento digitalizado"), "", self.tr("Documentos (*.pdf *.jpg *.jpeg *.png);;Todos (*)")
            )
        if not path:
            return
        self.files[doc_id] = path
        if button is not None:
            button.setText(Path(path).name)
        self.set_delivered(doc_id, True)
        self.dirty = True

    def document_inputs(self) -> list[DocumentInput]:
        return self.documents.inputs(self.files, default_day=self.today)

    # -- the application -----------------------------------------------------------
    def application_input(self) -> ApplicationInput:
        person_id = self.applicant.id if self.applicant.kind == "person" else None
        company_id = self.applicant.id if self.applicant.kind == "company" else None
        site_text = self.site.currentText().strip()
        site_id = (
            self.site.currentData() if self.site.currentText() == self.site.itemText(self.site.currentIndex()) else ""
        )
        return ApplicationInput(
            regime=self.regime.currentData() or "",
            permit_kind=self.kind.currentData() or "",
            person_id=person_id,
            company_id=company_id,
            line=self.line.currentData() or "",
            group=self.group.currentData() or "",
            section=self.section.currentData() or "",
            site=site_id or site_text,
            equipment=self.equipment.currentData() or "",
            front=self.front.text(),
            depth=self.depth_edit.text(),
            hitch=self.hitch.text(),
            electric=self.electric.isChecked(),
            power_kw=self.power.text(),
            gas=self.gas.isChecked(),
            sound=self.sound.isChecked(),
            venue=self.venue.currentData() or "",
            days=self.days.text().strip(),
            exemption=self.exemption.currentData() or "",
            notes=self.notes.text(),
            documents=self.document_inputs(),
            asked={name: edit.text() for name, edit in self.asked_edits.items()},
        )

    @Slot()
    def schedule_assessment(self) -> None:
        self._pending.start()

    def settle(self):
        """Work out what is pending now and wait for it (before saving, and in tests instead of waiting); the
        assessment shown, None when the input was refused."""
        if self._pending.isActive():
            self._pending.stop()
            self.update_assessment()
        self._assessor.wait()
        return self.last_assessment

    def update_assessment(self) -> None:
        """The form as typed now, assessed on a worker thread; shown when it answers (``_assessed``)."""
        if self.application is not None or not self.kind.currentData():
            return
        with user_errors(self.verdict) as refused:
            data = self.application_input()
        if refused:
            self._assessor.stop()
            self.last_assessment = None
            return
        self._assessor.ask(self.applicant, data, self.energy.currentData() or "none", self.now())

    def _assessed(self, result) -> None:
        if self.application is not None:  # filed meanwhile: the protocol's assessment stands
            return
        self.show_filing(result.filing)
        self.show_rules(result.eligibility)
        self.show_quote(result.quote, result.quote_problem)
        self.last_assessment = result

    def _assessment_refused(self, exc: BaseException) -> None:
        if not isinstance(exc, UserError):
            raise exc
        self.last_assessment = None
        show(self.verdict, exc)

    def show_filing(self, check) -> None:
        """Registration closed, the event over (refused), or a late filing the act allows (warned), plainly."""
        if check is None or not check.text:
            self.filing.hide()
            return
        role = {"closed": "error", "late": "warning"}.get(check.status, "ok")
        theme.styled(self.filing, "font-weight: 600; color: ${" + role + "};")
        self.filing.setText(check.text)
        self.filing.setProperty("status", check.status)
        self.filing.show()

    def show_rules(self, eligibility) -> None:
        self.verdict.setText(eligibility.summary.text)
        role = {"eligible": "ok", "ineligible": "error"}.get(eligibility.verdict, "warning")
        theme.styled(self.verdict, "font-size: 12pt; font-weight: 600; color: ${" + role + "};")
        self.rules.setRowCount(0)
        for result in eligibility.results:
            row = self.rules.rowCount()
            self.rules.insertRow(row)
            mark, role, word = STATUS_LOOK.get(result.status, ("", "muted", result.status))
            colour = theme.colour(role)
            title = result.label or result.rule.kind
            reason = result.reason
            if reason.removeprefix("Conferir: ").rstrip(".") == title.rstrip("."):
                reason = ""  # a rule checked by hand: its text says it all
            label = QTableWidgetItem(f"{mark} {title} — {self.tr(word)}" + (f"\n{reason}" if reason else ""))
            label.setToolTip(result.reason)
            label.setForeground(QBrush(QColor(colour)))
            label.setData(Qt.ItemDataRole.UserRole, result.status)
            self.rules.setItem(row, 0, label)
            self.rules.setItem(row, 1, QTableWidgetItem(result.article))
        self.rules.resizeRowsToContents()

    def show_quote(self, result, problem) -> None:
        self.quote_table.setRowCount(0)
        if result is None:
            self.quote_note.setText(
                problem.message + where_to_enter(problem)
                if problem
                else self.tr("Esta permissão não tem preço fixado no ato.")
            )
            return
        notes = "".join("\n" + fill(self.tr("Observação: %1"), n) for n in result.notes)
        for line in result.lines:
            row = self.quote_table.rowCount()
            self.quote_table.insertRow(row)
            for col, text in enumerate((line.label, format_brl(line.amount), line.formula, line.basis)):
                self.quote_table.setItem(row, col, QTableWidgetItem(text))
        self.quote_note.setText(fill(self.tr("Total: %1"), format_brl(result.total)) + notes)

    def save(self) -> None:
        if self.application is not None:
            return
        self._pending.stop()
        self._assessor.stop()  # assessed again with what is stored
        try:
            data = self.application_input()
            at = self.now()
            applicant, energy, clerk = self.applicant, self.energy.currentData() or "none", current_user_name()

            def file():  # the worker thread (issue 27 §5): assessed again and stored while the window repaints
                result = assess(applicant, data, energy=energy, now=at)
                application = create_application(
                    data,
                    clerk=clerk,
                    now=at,
                    quote=result.quote.to_dict() if result.quote else {},
                    eligibility=result.eligibility.to_dict() if result.eligibility else {},
                )
                return result, application

            result, self.application = in_background(file)
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            self.save_button.setToolTip(self.error.text())
            return
        except UserError as exc:
            self.errors.show({exc.field or "regime": exc.message})
            return
        self.dirty = False
        self.errors.clear()
        self.protocol.setText(fill(self.tr("Protocolo %1"), self.application.protocol))
        if result.filing is not None and result.filing.status == "late":
            self.protocol.setToolTip(result.filing.text)
            self.protocol.setText(self.protocol.text() + self.tr(" — fora do prazo de inscrição"))
        self.save_button.setEnabled(False)
        self.receipt_button.setEnabled(True)
        self.print_button.setEnabled(True)
        for box in self.findChildren(QGroupBox):
            box.setEnabled(False)

    # -- receipt ---------------------------------------------------------------------
    def save_receipt(self, path: str | None = None) -> str | None:
        from reports.receipt import write_receipt_pdf

        if self.application is None:
            return None
        if not path:
            path, _ = save_file_name(
                self,
                self.tr("Recibo do protocolo"),
                f"recibo-{self.application.protocol.replace('/', '-')}.pdf",
                self.tr("PDF (*.pdf)"),
            )
        if path:
            app = self.application
            write_in_background(self, self.tr("Gravando o recibo…"), lambda: write_receipt_pdf(app, path))
        return path or None

    def print_receipt(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from reports.receipt import receipt_document

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        if self.application is not None and QPrintDialog(printer, self).exec():
            receipt_document(self.application).print_(printer)
