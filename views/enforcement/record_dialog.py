"""The dialog that drafts and issues a notice or record.

Its fields are a collaborator, :class:`views.enforcement.record_fields.RecordForm`, which owns them; the dialog
holds what the inspector chose (the offender, the permit, the infractions, the adjustments, the photos), reads
the form into the one draft and its live preview, and issues the record.

The widgets are the form's; the draft, the preview and the marked errors are the dialog's.
"""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.base.errors import FieldErrors, UserError
from models.enforcement.sanctions import fine_inputs
from models.registry.town import working_regimes
from models.rules.fees.formula import bounds_text
from models.rules.regimes import shipped_regimes
from models.rules.regimes.model.fees import SETTERS
from models.rules.silences import Choice
from views import theme
from views.blocks import error_label, fill
from views.enforcement.adjust_dialog import AdjustDialog
from views.enforcement.common import SCOPE_LABELS
from views.enforcement.record_fields import RecordForm
from views.fit import fit_to_screen
from views.operations import LatestQuery, in_background
from views.save import remember_folder, start_folder
from views.widgets import current_user_name

if TYPE_CHECKING:
    from models.permits import Permit


def registered_name(kind: str, ident: int) -> str:
    """The worker thread: the name of a person or company of the registry (or why it is not found)."""
    from models.registry.people import get_company, get_person

    try:
        return get_person(ident).name if kind == "person" else get_company(ident).legal_name
    except UserError as exc:
        return exc.message


def _opening(base: enf.RecordDraft):
    """The worker thread: what the dialog shows when it opens — every act (a record may be under another town's,
    issue 31), the municipality's own (offered for a new record), the permit's number, the offender."""
    name = ""
    if base.person_id:
        name = registered_name("person", base.person_id)
    elif base.company_id:
        name = registered_name("company", base.company_id)
    number = enf.permit_number_of(base.permit_id) if base.permit_id else ""
    return shipped_regimes(), working_regimes(), number, name


def _issued(draft: enf.RecordDraft, by: str, today: _dt.date) -> tuple[enf.Record, bool]:
    """The worker thread: the record issued, and whether its fine was charged."""
    record = enf.issue_record(draft, by=by, today=today)
    return record, bool(enf.charges_of(record, "fine"))


def _preview(draft: enf.RecordDraft, today: _dt.date):
    """The worker thread: the proposal and deadlines of ``draft``, with their explanation."""
    pv = enf.preview(draft, today=today)
    return pv, enf.explain(pv)


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
        self.record: enf.Record | None = None
        self.fined = False  # the record issued has its fine charged
        self.last_preview: enf.Preview | None = None
        self.adjustments: list[enf.AdjustInput] = list(base.adjustments)
        self.checked: list[str] = list(base.infractions)
        self.asked_edits: dict[str, QLineEdit] = {}
        self.photos: list[str] = []
        self.offender: tuple[str, int] | None = None
        if base.person_id:
            self.offender = ("person", base.person_id)
        elif base.company_id:
            self.offender = ("company", base.company_id)
        self.permit: Permit | None = None
        # issue 27 §5: the acts, the permit's number and the offender's name read on a worker; the searches and
        # the preview are live queries whose newest answer alone is shown
        self.regimes, working, permit_number, self._offender_name = in_background(lambda: _opening(base))
        self._matcher = LatestQuery(self, enf.offender_matches, self._offender_matches)
        self._permit_finder = LatestQuery(self, enf.permit_label, self._permit_found)
        self._previewer = LatestQuery(self, _preview, self._previewed, self._preview_refused)
        self.setWindowTitle(title or self.tr("Novo auto"))
        fit_to_screen(self, QSize(1240, 820))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.ask_preview)
        self.form = RecordForm(working)
        self.choice_combos: dict[str, QComboBox] = {}  # the deadlines to choose, as the preview asks
        self._build()
        self._load(base, permit_number)
        self.ask_preview()

    # -- building ------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        split = QSplitter(Qt.Orientation.Horizontal)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        split.addWidget(scroll)

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
        self.error = error_label("error")
        outer.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.issue_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.issue_button.setText(self.tr("La&vrar"))
        self.issue_button.setObjectName("issue")
        buttons.accepted.connect(self.issue)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self.fields = {
            "kind": self.form.kind,
            "regime": self.form.regime,
            "scope": self.form.scope,
            "offender": self.form.offender_search,
            "unknown_description": self.form.unknown_description,
            "permit": self.form.permit_number,
            "at": self.form.date,
            "notified_at": self.form.date,
            "place": self.form.place,
            "facts": self.form.facts,
            "infractions": self.form.infraction_search,
            "signature": self.form.signature,
            "witnesses": self.form.witnesses,
            "inspector": self.form.inspector,
            "items": self.form.items,
            "depot": self.form.depot,
            "photos": self.form.photo_list,
            "payment_due": self.form.payment_due,
            "reason": self.form.reason,
            "adjust": self.adjust_button,
            "asked": self.form.asked_box,
            "deadlines": self.form.choices_box,
            "readings": self.form.readings_box,
        }

        self._connect()

    def _connect(self) -> None:
        """Every field's change reaches the preview."""
        self.form.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self.form.regime.currentIndexChanged.connect(lambda _i: self._regime_changed())
        self.form.readings_box.changed.connect(self.changed)
        self.form.scope.currentIndexChanged.connect(lambda _i: self.changed())
        self.form.offender_search.textChanged.connect(lambda _t: self.search_offender())
        self.form.matches_view.selectionModel().selectionChanged.connect(lambda *_: self._offender_selected())
        self.form.unknown.toggled.connect(lambda _c: self._unknown_toggled())
        self.form.permit_number.textChanged.connect(lambda _t: self._permit_changed())
        self.form.infraction_search.textChanged.connect(lambda _t: self.fill_catalogue())
        self.form.catalogue.itemChanged.connect(self._catalogue_item_changed)
        for edit in (
            self.form.unknown_name,
            self.form.unknown_description,
            self.form.place,
            self.form.date,
            self.form.time,
            self.form.depot,
            self.form.inspector,
            self.form.inspector_id,
            self.form.reason,
            self.form.payment_due,
        ):
            edit.textChanged.connect(lambda _t: self.changed())
        for text in (self.form.facts, self.form.witnesses):
            text.textChanged.connect(lambda: self.changed())
        self.form.signature.currentIndexChanged.connect(lambda _i: self.changed())
        self.form.items.itemChanged.connect(lambda _i: self.changed())
        self.form.item_added.connect(self.changed)
        self.form.photos_requested.connect(lambda: self.add_photos())

    def _load(self, base: enf.RecordDraft, permit_number: str) -> None:
        if base.regime and self.form.regime.findData(base.regime) < 0 and base.regime in self.regimes:
            # a record under another town's act (a database filled before issue 31): its follow-ups and corrections
            # stay under it; only new records are limited to the municipality's own acts
            regime = self.regimes[base.regime]
            self.form.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        for combo, value in ((self.form.kind, base.kind), (self.form.regime, base.regime)):
            index = combo.findData(value)
            combo.blockSignals(True)
            combo.setCurrentIndex(max(index, 0))
            combo.blockSignals(False)
        self._fill_scopes(base.scope)
        if base.at is not None:
            self.form.date.set_date(base.at.date())
            self.form.time.setText(base.at.strftime("%H:%M"))
        else:
            self.form.date.set_date(self.today)
            self.form.time.setText(_dt.datetime.now().strftime("%H:%M"))
        self.form.place.setText(base.place)
        self.form.facts.setPlainText(base.facts)
        self.form.witnesses.setPlainText("\n".join(f"{w.name}; {w.document}".rstrip("; ") for w in base.witnesses))
        self.form.signature.setCurrentIndex(max(self.form.signature.findData(base.signature), 0))
        self.form.signature_note.setText(base.signature_note)
        self.form.inspector.setText(base.inspector or current_user_name())
        self.form.inspector_id.setText(base.inspector_id)
        self.form.depot.setText(base.depot)
        for item in base.items:
            self.add_item(item.description, str(item.quantity), item.unit, item.perishable)
        if base.unknown_name:
            self.form.unknown.setChecked(True)
            self.form.unknown_name.setText(base.unknown_name)
            self.form.unknown_description.setText(base.unknown_description)
            self.form.offender_document.setText(base.offender_document)
            self.form.offender_address.setText(base.offender_address)
        if permit_number:
            self.form.permit_number.setText(permit_number)
        self._show_offender()
        self.form.reason.setText(base.reason)
        locked = self.mode in ("correct", "identify") or bool(base.refers_to_id)
        self.form.kind.setEnabled(not locked or self.mode == "follow")
        self.form.regime.setEnabled(not locked)
        correcting = self.mode in ("correct", "identify")
        self.form.reason_label.setVisible(correcting)
        self.form.reason.setVisible(correcting)
        if self.mode == "identify":
            self.form.unknown.setChecked(False)
            self.form.unknown.setEnabled(False)
        self._kind_changed(refresh=False)
        self._unknown_toggled(refresh=False)
        self.fill_catalogue()
        self.fill_readings(base.readings)
        self.fill_asked(base.asked)

    # -- reacting ---------------------------------------------------------------------

    def changed(self) -> None:
        self._timer.start()

    def regime_id(self) -> str:
        return self.form.regime.currentData() or ""

    def regime(self):
        """The act chosen, as read when the dialog opened (None when none is)."""
        return self.regimes.get(self.regime_id())

    def _fill_scopes(self, keep: str = "") -> None:
        self.form.scope.blockSignals(True)
        self.form.scope.clear()
        regime = self.regime()
        self.form.scope.addItem(self.tr("conforme as infrações"), "")
        for scope in regime.scope if regime else ():
            self.form.scope.addItem(self.tr(SCOPE_LABELS.get(scope, scope)), scope)
        index = self.form.scope.findData(keep)
        self.form.scope.setCurrentIndex(max(index, 0))
        self.form.scope.blockSignals(False)

    def _regime_changed(self) -> None:
        self._fill_scopes()
        self.checked = []
        self.adjustments = []
        self.fill_catalogue()
        self.fill_readings()
        self.fill_asked({})
        self.changed()

    def fill_asked(self, values=None) -> None:
        """The values the fines of the infractions ticked ask for (a fine written as a formula), each with the
        bounds and the article of the act; what was typed stays while the infractions change."""
        typed = dict(values) if values is not None else {n: self._typed(e) for n, e in self.asked_edits.items()}
        while self.form.asked_form.rowCount():
            self.form.asked_form.removeRow(0)
        self.asked_edits = {}
        regime = self.regime()
        items = fine_inputs(regime, self.checked) if regime is not None else {}
        for name, item in items.items():
            edit = QLineEdit(typed.get(name, ""))
            edit.setObjectName(f"fine-input-{name}")
            assert regime is not None
            bounds = bounds_text(regime, item)
            edit.setPlaceholderText(bounds.split(" (")[0])
            edit.setToolTip(fill(self.tr("Valor que %1: %2"), SETTERS.get(item.set_by, item.set_by), bounds))
            if item.fee is not None:  # another fee of the act: priced from the permit the record names
                edit.setPlaceholderText(fill(self.tr("%1 — ou da permissão"), edit.placeholderText()))
                edit.setToolTip(
                    fill(
                        self.tr("%1. Com a permissão do infrator indicada, o Praça calcula %2 com os dados dela."),
                        edit.toolTip(),
                        regime.fee(item.fee).label.lower(),
                    )
                )
            edit.textChanged.connect(self.changed)
            self.form.asked_form.addRow(item.label + ":", edit)
            self.asked_edits[name] = edit
        self.form.asked_box.setVisible(bool(items))

    def fill_readings(self, chosen=None, *, keep: bool = False) -> None:
        """The points where the act is silent that concern the infractions ticked (``ReadingsBox``)."""
        self.form.readings_box.show_points(
            self.regime_id(), codes=self.checked, chosen=chosen, keep=keep, regime=self.regime()
        )

    def _readings(self) -> dict[str, Choice]:
        return self.form.readings_box.choices(current_user_name())

    def _kind_changed(self, refresh: bool = True) -> None:
        seizure = self.form.kind.currentData() == "seizure"
        self.form.seizure_box.setVisible(seizure)
        if seizure and self.form.items.rowCount() == 0:
            self.add_item()
        if refresh:
            self.changed()

    def _unknown_toggled(self, refresh: bool = True) -> None:
        unknown = self.form.unknown.isChecked()
        for w in (
            self.form.unknown_name,
            self.form.unknown_description,
            self.form.offender_document,
            self.form.offender_address,
        ):
            w.setEnabled(unknown)
        self.form.offender_search.setEnabled(not unknown)
        self.form.matches_view.setEnabled(not unknown)
        if unknown:
            self.offender = None
        self._show_offender()
        if refresh:
            self.changed()

    def search_offender(self) -> None:
        """The registry searched on a worker as the inspector types; the newest text's matches are shown."""
        self._matcher.ask(self.form.offender_search.text())

    def _offender_matches(self, rows) -> None:
        self.form.matches.set_rows(rows)
        if len(self.form.matches.rows) == 1:
            self.form.matches_view.selectRow(0)

    def _offender_selected(self) -> None:
        index = self.form.matches_view.currentIndex()
        if index.isValid() and index.row() < len(self.form.matches.rows):
            match = self.form.matches.rows[index.row()]
            self.offender = (match.kind, match.id)
            self._offender_name = f"{match.name} ({match.document})"
        self._show_offender()
        self.changed()

    def choose_offender(self, kind: str, ident: int, name: str = "") -> None:
        """Pick the offender directly (the identification of a record, tests)."""
        self.offender = (kind, ident)
        self._offender_name = name or in_background(lambda: registered_name(kind, ident))
        self.form.unknown.setChecked(False)
        self._show_offender()
        self.changed()

    def _show_offender(self) -> None:
        if self.form.unknown.isChecked():
            self.form.offender_label.setText(self.tr("Infrator não identificado: descreva-o abaixo."))
        elif self.offender is not None:
            self.form.offender_label.setText(fill(self.tr("Autuado: <b>%1</b>"), escape(self._offender_name)))
        elif self.permit is not None:
            self.form.offender_label.setText(self.tr("Autuado: o titular da permissão."))
        else:
            self.form.offender_label.setText(self.tr("Busque o autuado no cadastro, ou marque não identificado."))

    def _permit_changed(self) -> None:
        text = self.form.permit_number.text().strip()
        if not text:
            self._permit_finder.stop()
            self._permit_found((None, ""))
        else:
            self._permit_finder.ask(text)  # found on a worker: ``_permit_found``
        self.changed()

    def _permit_found(self, found) -> None:
        self.permit, label = found
        self.form.permit_found.setText(label)
        self._show_offender()
        # another permit, or none: the values the former one priced are the clerk's again until the next preview
        # says which this one prices (a field left held while the form is refused could never be typed in)
        released = [edit for edit in self.asked_edits.values() if not edit.isEnabled()]
        for edit in released:
            self._hold(edit, None)
        if released:
            self.changed()

    def fill_catalogue(self) -> None:
        self.form.catalogue.blockSignals(True)
        self.form.catalogue.clear()
        regime = self.regime()
        rows = enf.infractions_matching(regime, self.form.infraction_search.text()) if regime is not None else []
        for code, article, label in rows:
            item = QListWidgetItem(f"{article} — {label}  [{code}]")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if code in self.checked else Qt.CheckState.Unchecked)
            item.setToolTip(label)
            self.form.catalogue.addItem(item)
        self.form.catalogue.blockSignals(False)
        self._show_chosen()

    def _catalogue_item_changed(self, item: QListWidgetItem) -> None:
        code = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked and code not in self.checked:
            self.checked.append(code)
        elif item.checkState() != Qt.CheckState.Checked and code in self.checked:
            self.checked.remove(code)
        self._show_chosen()
        self.fill_readings(keep=True)
        self.fill_asked()
        self.changed()

    def check_infraction(self, code: str, on: bool = True) -> None:
        """Tick an infraction of the catalogue by its code (as a click on its box does)."""
        for row in range(self.form.catalogue.count()):
            item = self.form.catalogue.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == code:
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                return
        raise KeyError(code)

    def _show_chosen(self) -> None:
        if self.checked:
            self.form.chosen.setText(fill(self.tr("Escolhidas: %1"), ", ".join(self.checked)))
        else:
            self.form.chosen.setText(self.tr("Nenhuma infração escolhida."))

    def add_item(self, description: str = "", quantity: str = "1", unit: str = "un", perishable: bool = False) -> None:
        """A row of goods seized (the preview follows, through the form's ``item_added``)."""
        self.form.add_item(description, quantity, unit, perishable)

    def add_photos(self, paths=None) -> None:
        if paths is None:
            filters = self.tr("Imagens (*.jpg *.jpeg *.png *.heic);;Todos (*)")
            paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Fotos do auto"), str(start_folder(filters)), filters)
            remember_folder(filters, paths[0] if paths else "")
        for path in paths or []:
            if path and str(path) not in self.photos:
                self.photos.append(str(path))
                self.form.photo_list.addItem(Path(path).name)
        self.changed()

    def ask_adjustment(self, dialog_hook=None):
        try:  # the proposal as adjusted so far, a fine still to grade included
            draft, today = self.draft(), self.today
            base = in_background(lambda: enf.preview(draft, today=today, strict=False).proposal, busy=self._asking())
        except UserError as exc:
            self.error.setText(fill(self.tr("Complete o auto antes de ajustar a sanção: %1"), exc.message))
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
        self.ask_preview()

    # -- the draft ------------------------------------------------------------------

    def draft(self, **overrides) -> enf.RecordDraft:
        person_id = company_id = None
        if self.offender is not None and not self.form.unknown.isChecked():
            if self.offender[0] == "person":
                person_id = self.offender[1]
            else:
                company_id = self.offender[1]
        unknown = self.form.unknown.isChecked()
        kind = self.form.kind.currentData()
        values = dict(
            kind=kind,
            regime=self.regime_id(),
            at=self.form.at(),
            place=self.form.place.text(),
            facts=self.form.facts.toPlainText(),
            infractions=list(self.checked),
            person_id=person_id,
            company_id=company_id,
            unknown_name=self.form.unknown_name.text() if unknown else "",
            unknown_description=self.form.unknown_description.text() if unknown else "",
            offender_document=self.form.offender_document.text() if unknown else "",
            offender_address=self.form.offender_address.text() if unknown else "",
            permit_number=self.form.permit_number.text().strip(),
            scope=self.form.scope.currentData() or "",
            witnesses=self.form.witness_list(),
            signature=self.form.signature.currentData(),
            signature_note=self.form.signature_note.text(),
            inspector=self.form.inspector.text(),
            inspector_id=self.form.inspector_id.text(),
            photos=list(self.photos),
            items=self.form.item_list() if kind == "seizure" else [],
            depot=self.form.depot.text() if kind == "seizure" else "",
            adjustments=list(self.adjustments),
            payment_due=self.form.payment_due.date(),
            deadline_choices={
                role: combo.currentData() for role, combo in self.choice_combos.items() if combo.currentIndex() > 0
            },
            refers_to_id=self.base.refers_to_id,
            relation=self.base.relation,
            reason=self.form.reason.text(),
            notified_at=self.base.notified_at,
            step=self.base.step,
            step_reason=self.base.step_reason,
            apply_to_permit=self.form.apply_permit.isChecked(),
            readings=self._readings(),
            asked={name: e.text() for name, e in self.asked_edits.items() if e.isEnabled() and e.text().strip()},
        )
        values.update(overrides)
        return enf.RecordDraft(**values)

    def _mark(self, errors: dict[str, str]) -> None:
        for widget in self.fields.values():
            widget.setStyleSheet("")
            widget.setToolTip("")
        for key, message in errors.items():
            marked = self.fields.get(key.split("[")[0])
            if marked is not None:
                theme.styled(marked, theme.REFUSED)
                marked.setToolTip(message)

    def _asking(self) -> tuple[QWidget, ...]:
        return (self.issue_button, self.adjust_button, self.clear_adjust_button)

    def ask_preview(self) -> None:
        """Work out the proposal and the deadlines for what is on the form (nothing is written) on a worker; Lavrar
        waits for the answer, which ``_previewed`` shows — the newest form's alone."""
        self._timer.stop()
        self.issue_button.setEnabled(False)
        self._previewer.ask(self.draft(), self.today)

    def update_preview(self):
        """The preview of the form as it is now, once shown (None when the form is refused)."""
        self.ask_preview()
        self.settle()
        return self.last_preview

    def settle(self):
        """Wait for what is pending — the offender's and the permit's searches, the preview the last change asks
        for — with the event loop running (tests, instead of waiting for a widget); the preview shown."""
        queries = (self._matcher, self._permit_finder, self._previewer)
        while self._timer.isActive() or any(q.busy for q in queries):
            if self._timer.isActive():
                self.ask_preview()
            for query in queries:
                query.wait()
        return self.last_preview

    def done(self, result: int) -> None:
        for query in (self._matcher, self._permit_finder, self._previewer):
            query.stop()
        super().done(result)

    def _preview_refused(self, exc: BaseException) -> None:
        if isinstance(exc, FieldErrors):
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
        elif isinstance(exc, UserError):
            self.last_preview = None
            self._mark({exc.field or "infractions": exc.message})
            self.proposal_view.setHtml(f'<p style="color:{theme.colour("error")}">{escape(exc.message)}</p>')
            self.issue_button.setEnabled(False)
        else:
            raise exc

    def _previewed(self, answer) -> None:
        pv, explained = answer
        self._mark({})
        self.last_preview = pv
        self._show_preview(pv, explained)
        self._update_choices(pv)
        self._priced_from_permit(pv)
        self.form.payment_due.setVisible(pv.needs_payment_due)
        self.form.payment_due_label.setVisible(pv.needs_payment_due)
        self.issue_button.setEnabled(True)
        self.error.setText("")

    def _priced_from_permit(self, pv) -> None:
        """A value of a fine's formula that the proposal priced from the offender's permit (another fee of the act)
        is not asked: its field is held, saying so; the others are asked as the act bounds them."""
        priced = {name for s in pv.proposal.sanctions for name in s.from_permit}
        for name, edit in self.asked_edits.items():
            held = name in priced and self.permit is not None
            if held == edit.isEnabled():
                self._hold(edit, self.permit.number if held and self.permit is not None else None)
                if not held and edit.text().strip():
                    self.changed()  # the value given back goes into the proposal shown

    def _hold(self, edit: QLineEdit, permit: str | None) -> None:
        """Hold a value's field as priced from permit nº ``permit`` — what was typed set aside, so that the field says
        where the value comes from — or (None) give it back to the clerk with what was typed."""
        asked = edit.property("asked-placeholder") or edit.placeholderText()
        edit.setProperty("asked-placeholder", asked)
        edit.blockSignals(True)  # the preview that follows is asked by whoever holds or releases
        if permit is not None:
            edit.setProperty("asked-typed", edit.text())
            edit.clear()
            edit.setPlaceholderText(fill(self.tr("calculado da permissão nº %1"), permit))
        else:
            edit.setText(self._typed(edit))
            edit.setPlaceholderText(asked)
        edit.setEnabled(permit is None)
        edit.blockSignals(False)

    @staticmethod
    def _typed(edit: QLineEdit) -> str:
        """What the clerk typed in a value's field, set aside while the permit prices it."""
        return edit.text() if edit.isEnabled() else str(edit.property("asked-typed") or "")

    def _show_preview(self, pv, explained) -> None:
        html = []
        for indent, text in explained:
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
        while self.form.choices_form.rowCount():
            self.form.choices_form.removeRow(0)
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
            self.form.choices_form.addRow(label + ":", combo)
        self.form.choices_box.setVisible(bool(wanted))

    def issue(self) -> None:
        try:
            draft, by, today = self.draft(), current_user_name(), self.today
            self.record, self.fined = in_background(lambda: _issued(draft, by, today), busy=self._asking())
        except FieldErrors as exc:
            self._mark(exc.errors)
            self.error.setText(next(iter(exc.errors.values())))
            return
        except UserError as exc:
            self._mark({exc.field: exc.message} if exc.field else {})
            self.error.setText(exc.message)
            return
        self.accept()
