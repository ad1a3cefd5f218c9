"""Cobrança → Simulador de preço: the fee engine's lines, formulas and articles as the clerk types."""

from __future__ import annotations

import datetime as _dt
from html import escape

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import UserError
from models.base.money import format_brl, parse_typed
from models.billing.pricing import quote
from models.registry.town import working_regimes
from models.rules.acts import version_text
from models.rules.fees import Quote
from models.rules.fees.formula import bounds_text
from models.rules.fees.needs import administration_fees, asked_values, energy_tiers, engine_values, fees_needs, needed
from models.rules.regimes import Regime, get_regime
from models.rules.regimes.model.fees import SETTERS
from views import theme
from views.blocks import error_label, fill, user_errors, wrapped_label
from views.operations import LatestQuery, in_background
from views.table_models import Column, RowsModel
from views.widgets import DateEdit, current_user_name, version_line

NONE = ""


def where_to_enter(exc: UserError) -> str:
    """For a value the database lacks, where the clerk enters it in this window."""
    from models.billing.pricing import MissingCorrection
    from models.rules.regimes import MissingUnitValue

    if isinstance(exc, MissingCorrection):
        return " " + QCoreApplication.translate("PriceSimulator", "(Cadastros → Correção monetária)")
    if isinstance(exc, MissingUnitValue):
        return " " + QCoreApplication.translate("PriceSimulator", "(Cadastros → Unidades fiscais)")
    return ""


def quote_lines_model(parent=None, currency=lambda: "R$") -> RowsModel:
    """The lines of a quote: what, how much, how (formula) and why (article); details as tooltip. ``currency``: the
    money of the act quoted (its amounts print as the act writes them: "Cr$" for an act in cruzeiros)."""
    tr = lambda text: QCoreApplication.translate("PriceSimulator", text)  # noqa: E731
    details = lambda line: "\n".join(line.details) or None  # noqa: E731
    return RowsModel(
        [
            Column(tr("Descrição"), lambda line: line.label, tooltip=details),
            Column(tr("Valor"), lambda line: format_brl(line.amount, currency=currency()), right=True, tooltip=details),
            Column(tr("Fórmula"), lambda line: line.formula, tooltip=details),
            Column(tr("Base legal"), lambda line: line.basis, tooltip=details),
        ],
        parent,
    )


class PriceSimulator(QWidget):
    """Pick a regime, describe the stall: every line of the price, its formula and its article."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.regimes: dict[str, Regime] = {}
        layout = QVBoxLayout(self)

        inputs = QGroupBox(self.tr("Dados da banca"))
        grid = QGridLayout(inputs)
        self.regime_combo = QComboBox()
        self.regime_combo.setObjectName("regime")
        self.equipment = QComboBox()
        self.equipment.setObjectName("equipment")
        self.line = QComboBox()
        self.line.setObjectName("line")
        self.venue = QComboBox()
        self.venue.setObjectName("venue")
        self.energy = QComboBox()
        self.energy.setObjectName("energy")
        self.exemption = QComboBox()
        self.exemption.setObjectName("exemption")
        self.exemption.setToolTip(
            self.tr("Casos que o ato dispensa da taxa ou da caução (ex.: evento assistencial, LC 324/2025, art. 90)")
        )
        self.permit_kind = QComboBox()
        self.permit_kind.setObjectName("permit_kind")
        self.front = self._metres("front", self.tr("ex.: 4,00"))
        self.depth_edit = self._metres("depth", self.tr("ex.: 3,00"))
        self.hitch = self._metres("hitch", self.tr("engate, se houver"))
        self.area = self._metres("area", self.tr("m², se o ramo não fixa"))
        self.mei = QCheckBox(self.tr("ME&I"))
        self.mei.setObjectName("mei")
        self.local = QCheckBox(self.tr("do muni&cípio"))
        self.local.setObjectName("local")
        self.days = QSpinBox()
        self.days.setObjectName("days")
        self.days.setRange(0, 366)
        self.days.setSpecialValueText(self.tr("—"))
        self.days.setMaximumWidth(140)
        # the periods the act's formulas count a price in (issue 29 §2): shown only where the act has such a price
        self.period_spins: dict[str, QSpinBox] = {}
        for name in ("feira_days", "events", "months", "fiscal_years"):
            spin = QSpinBox()
            spin.setObjectName(f"period-{name}")
            spin.setRange(0, 999)
            spin.setSpecialValueText(self.tr("—"))
            spin.setMaximumWidth(140)
            self.period_spins[name] = spin
        self.year = QSpinBox()
        self.year.setObjectName("year")
        self.year.setRange(1900, 2100)  # acts in cruzeiros (1942–1993) are priced in their own years
        self.year.setValue(_dt.date.today().year)
        self.year.setMaximumWidth(140)
        # the day of the fact (the event, the month charged): an amended act prices by the version in force then
        self.date = DateEdit()
        self.date.setObjectName("date")
        self.date.set_date(_dt.date.today())
        self.date.setToolTip(
            self.tr("Vale a redação do ato em vigor nesta data (alterações com vigência posterior não se aplicam).")
        )
        date_label = QLabel(self.tr("Data-&base:"))
        date_label.setBuddy(self.date)

        left = QFormLayout()
        left.addRow(self.tr("&Regime:"), self.regime_combo)
        left.addRow(self.tr("&Permissão:"), self.permit_kind)
        left.addRow(self.tr("E&quipamento:"), self.equipment)
        left.addRow(self.tr("Ram&o:"), self.line)
        left.addRow(self.tr("Imó&vel/local:"), self.venue)
        left.addRow(self.tr("Ener&gia:"), self.energy)
        left.addRow(self.tr("Dispen&sa:"), self.exemption)
        right = QFormLayout()
        right.addRow(self.tr("&Frente (m):"), self.front)
        right.addRow(self.tr("Prof&undidade (m):"), self.depth_edit)
        right.addRow(self.tr("Enga&te (m):"), self.hitch)
        right.addRow(self.tr("Ár&ea (m²):"), self.area)
        right.addRow(self.tr("&Dias:"), self.days)
        self.right = right
        period_labels = {
            "feira_days": self.tr("Dias de fei&ra:"),
            "events": self.tr("E&ventos:"),
            "months": self.tr("&Meses:"),
            "fiscal_years": self.tr("E&xercícios:"),
        }
        for name, spin in self.period_spins.items():
            right.addRow(period_labels[name], spin)
            right.setRowVisible(spin, False)
        right.addRow(self.tr("A&no:"), self._row(self.year, date_label, self.date))
        right.addRow(self.tr("Requerente:"), self._row(self.mei, self.local))
        grid.addLayout(left, 0, 0)
        grid.addLayout(right, 0, 1)
        layout.addWidget(inputs)
        self.admin_box = QGroupBox(self.tr("Valores definidos pela Administração (R$)"))
        self.admin_box.setObjectName("admin-values")
        self.admin_form = QFormLayout(self.admin_box)
        self.admin_edits: dict[str, QLineEdit] = {}
        layout.addWidget(self.admin_box)
        # values a formula of the act needs and leaves to someone (issue 29 §1): typed here, within the act's
        # bounds, and recorded with the clerk's name on the line that uses them
        self.asked_box = QGroupBox(self.tr("Valores que o ato deixa em aberto"))
        self.asked_box.setObjectName("asked-values")
        self.asked_form = QFormLayout(self.asked_box)
        self.asked_edits: dict[str, QLineEdit] = {}
        layout.addWidget(self.asked_box)

        self.error = error_label()
        layout.addWidget(self.error)
        self.notes = QLabel()
        self.notes.setObjectName("notes")
        self.notes.setTextFormat(Qt.TextFormat.RichText)
        self.notes.setWordWrap(True)
        layout.addWidget(self.notes)

        self.model = quote_lines_model(self, lambda: self.last_quote.currency if self.last_quote else "R$")
        self.table = QTableView()
        self.table.setObjectName("lines")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().currentRowChanged.connect(self._show_details)
        layout.addWidget(self.table, 1)
        self.details = wrapped_label(name="details")
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.details)
        self.total = QLabel()
        self.total.setObjectName("total")
        self.total.setStyleSheet("font-size: 14pt; font-weight: 600;")
        self.total.setAlignment(Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.total)

        self.regime_combo.currentIndexChanged.connect(self._regime_changed)
        for combo in (self.permit_kind, self.equipment, self.line, self.venue, self.energy, self.exemption):
            combo.currentIndexChanged.connect(self.update_quote)
        for edit in (self.front, self.depth_edit, self.hitch, self.area):
            edit.textChanged.connect(self.update_quote)
        for box in (self.mei, self.local):
            box.toggled.connect(self.update_quote)
        for spin in (self.days, self.year, *self.period_spins.values()):
            spin.valueChanged.connect(self.update_quote)
        self.date.textChanged.connect(self._date_changed)
        self.last_quote: Quote | None = None
        self._pricing = LatestQuery(self, self._price, self._priced, self._refused)

    # -- building ------------------------------------------------------------
    def _metres(self, name: str, placeholder: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        edit.setMaximumWidth(140)
        return edit

    @staticmethod
    def _row(*widgets) -> QWidget:
        from PySide6.QtWidgets import QHBoxLayout

        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in widgets:
            row.addWidget(widget)
        row.addStretch(1)
        return box

    def refresh(self) -> None:
        current = self.regime_combo.currentData()
        with user_errors(self.error) as refused:
            self.regimes = in_background(working_regimes)
        if refused:
            return
        self.regime_combo.blockSignals(True)
        self.regime_combo.clear()
        for regime in sorted(self.regimes.values(), key=lambda r: r.municipality):
            if regime.fees:
                self.regime_combo.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        self.regime_combo.blockSignals(False)
        index = self.regime_combo.findData(current)
        if index < 0:
            index = self.regime_combo.findData(self._home_regime())
        self.regime_combo.setCurrentIndex(index if index >= 0 else 0)
        self._regime_changed()

    def _home_regime(self) -> str | None:
        """The regime of the municipality this copy of Praça serves, if one is loaded."""
        from models.store.settings import MUNICIPALITY, get_setting

        town = in_background(lambda: get_setting(MUNICIPALITY))
        return next((r.id for r in self.regimes.values() if r.municipality == town), None)

    def regime(self):
        return self.regimes.get(self.regime_combo.currentData() or "")

    def select_regime(self, regime_id: str) -> None:
        index = self.regime_combo.findData(regime_id)
        if index < 0:
            raise KeyError(regime_id)
        self.regime_combo.setCurrentIndex(index)

    def _fill(self, combo: QComboBox, items: list[tuple[str, str]], none_label: str) -> None:
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(none_label, NONE)
        for key, label in items:
            combo.addItem(label, key)
        combo.setEnabled(bool(items))
        combo.blockSignals(False)

    @Slot()
    def _regime_changed(self) -> None:
        regime = self.regime()
        if regime is None:
            return
        spins = tuple(self.period_spins.values())
        widgets = (self.front, self.depth_edit, self.hitch, self.area, self.days, self.mei, self.local, *spins)
        for widget in widgets:  # what was typed for another act does not carry over
            widget.blockSignals(True)
        for edit in (self.front, self.depth_edit, self.hitch, self.area):
            edit.clear()
        for spin in (self.days, *spins):
            spin.setValue(0)
        # the measures and periods the act's fees read (models.rules.fees.needs): asked only where a fee reads them
        read = needed(regime)
        for name, spin in self.period_spins.items():
            self.right.setRowVisible(spin, name in read)
        area = "area" in read
        for name, widget in (
            ("front", self.front),
            ("depth", self.depth_edit),
            ("hitch", self.hitch),
            ("area", self.area),
            ("days", self.days),
        ):
            self.right.setRowVisible(widget, name in read or (area and name in ("front", "depth")))
        self.mei.setChecked(False)
        self.local.setChecked(False)
        for widget in widgets:
            widget.blockSignals(False)
        none = self.tr("— nenhum —")
        self._fill(
            self.permit_kind,
            [(k.id, k.label) for k in regime.permit_kinds if k.fees],
            self.tr("— pelos dados da banca —"),
        )
        self._build_admin_values(regime)
        self._build_asked_values(regime)
        self._fill(self.equipment, [(e.id, e.label) for e in regime.equipment_kinds], none)
        self._fill(self.line, [(ln.id, ln.label) for ln in regime.lines], none)
        self._fill(self.venue, [(v, regime.venue(v).label) for v in regime.ids("venue")], none)
        self._fill(self.energy, energy_tiers(regime), self.tr("sem energia"))
        self._fill(
            self.exemption,
            list(
                {e.id: (e.id, f"{e.label} ({regime.cite_item(e)})") for f in regime.fees for e in f.exemptions}.values()
            ),
            self.tr("nenhuma"),
        )
        self.update_quote()

    def _build_admin_values(self, regime) -> None:
        self.admin_box.setTitle(fill(self.tr("Valores definidos pela Administração (%1)"), regime.currency))
        while self.admin_form.rowCount():
            self.admin_form.removeRow(0)
        self.admin_edits = {}
        for fee in administration_fees(regime):
            edit = QLineEdit()
            edit.setObjectName(f"admin-{fee.id}")
            edit.setPlaceholderText(self.tr("valor fixado pela Administração"))
            edit.setMaximumWidth(200)
            edit.textChanged.connect(self.update_quote)
            self.admin_form.addRow(fee.label + ":", edit)
            self.admin_edits[fee.id] = edit
        self.admin_box.setVisible(bool(self.admin_edits))

    def _build_asked_values(self, regime) -> None:
        while self.asked_form.rowCount():
            self.asked_form.removeRow(0)
        self.asked_edits = {}
        for name, item in asked_values(regime).items():
            edit = QLineEdit()
            edit.setObjectName(f"input-{name}")
            bounds = bounds_text(regime, item)
            edit.setPlaceholderText(bounds.split(" (")[0])
            edit.setToolTip(fill(self.tr("Valor que %1: %2"), SETTERS.get(item.set_by, item.set_by), bounds))
            edit.setMaximumWidth(200)
            edit.setAccessibleName(item.label)
            edit.textChanged.connect(self.update_quote)
            self.asked_form.addRow(item.label + ":", edit)
            self.asked_edits[name] = edit
        self.asked_box.setVisible(bool(self.asked_edits))

    @Slot()
    def _date_changed(self) -> None:
        """A whole date typed carries its year (the fiscal units' year) and prices again."""
        try:
            day = self.date.date()
        except UserError:
            day = None
        if day is not None and day.year != self.year.value():
            self.year.blockSignals(True)
            self.year.setValue(day.year)
            self.year.blockSignals(False)
        self.update_quote()

    def quote_day(self) -> _dt.date | None:
        """The date typed (None when empty: today); ``UserError`` (field ``date``) when it is incomplete or
        impossible."""
        try:
            return self.date.date()
        except UserError as exc:
            raise UserError(fill(self.tr("Data-base: %1"), exc.message), field="date") from None

    # -- pricing -------------------------------------------------------------
    def inputs(self) -> dict:
        """What the clerk typed, as the engine takes it (text sizes, never float)."""
        values: dict = {"year": self.year.value(), "mei": self.mei.isChecked(), "local": self.local.isChecked()}
        for key, combo in (("equipment", self.equipment), ("line", self.line), ("venue", self.venue)):
            if combo.currentData():
                values[key] = combo.currentData()
        if self.energy.currentData():
            values["energy"] = self.energy.currentData()
        if self.exemption.currentData():
            values["exemption"] = self.exemption.currentData()
        # typed the pt-BR way, read by the one parser (models.base.money.parse_typed): "1.500" is mil e quinhentos
        # and "2.5" is refused with both readings — the regime files' dot decimals are not the clerk's
        for key, label, edit in (
            ("front", "Frente", self.front),
            ("depth", "Profundidade", self.depth_edit),
            ("hitch", "Engate", self.hitch),
            ("area", "Área", self.area),
        ):
            if edit.text().strip():
                values[key] = parse_typed(edit.text(), what=label, field=key)
        if self.days.value():
            values["days"] = self.days.value()
        for name, spin in self.period_spins.items():
            if spin.value():
                values[name] = spin.value()
        if self.permit_kind.currentData():
            values["permit_kind"] = self.permit_kind.currentData()
        admin = {
            fee: parse_typed(edit.text(), what="Valor", field=f"admin_values.{fee}")
            for fee, edit in self.admin_edits.items()
            if edit.text().strip()
        }
        asked = {
            name: parse_typed(edit.text(), what=edit.accessibleName() or name, field=f"inputs.{name}")
            for name, edit in self.asked_edits.items()
            if edit.text().strip()
        }
        regime = self.regime()
        if regime is not None:  # as the engine takes them, whatever the wording of the fee that asks them
            values.update(engine_values(regime, by_fee=admin, by_name=asked))
        if values.get("asked") or values.get("admin_values"):
            values["asked_by"] = current_user_name() or None  # who set them, kept on the line that uses them
        return values

    @Slot()
    def update_quote(self) -> None:
        """What the clerk typed, priced off the GUI thread (the act's version in force on the date and the
        municipality's values are read from the database): a newer input drops the answer still on its way."""
        regime = self.regime()
        self._mark_field(None)
        if regime is None:
            return
        try:
            values = self.inputs()
            day = self.quote_day()
        except UserError as exc:
            self._pricing.stop()
            self._refused(exc)
            return
        if not any(k in values for k in ("equipment", "line", "venue", "front", "area", "energy", "permit_kind")):
            self._pricing.stop()
            self._clear()
            self.error.setText(self.tr("Escolha a permissão, o equipamento, o ramo ou o imóvel para ver o preço."))
            return
        self._pricing.ask(regime.id, day, values)

    def settle(self) -> None:
        """Until the last input is priced and shown (tests, instead of waiting for a widget)."""
        self._pricing.wait()

    @staticmethod
    def _price(regime_id: str, day: _dt.date | None, values: dict) -> tuple[Quote, str, str]:
        """The worker thread: the act's version in force on ``day`` (today when None) prices ``values``; a day
        before the act's force is refused. Returns the quote, the version's id and its text."""
        dated = get_regime(regime_id, on=day or _dt.date.today())
        result = quote(dated, on=day, **values)
        return result, dated.id, version_text(dated.id, dated.sha256 or "")

    def _clear(self) -> None:
        self.model.set_rows([])
        self.last_quote = None
        self.notes.clear()
        self.total.clear()
        self.details.clear()

    def _refused(self, exc: BaseException) -> None:
        if not isinstance(exc, UserError):
            raise exc
        self._clear()
        self.error.setText(exc.message + where_to_enter(exc))
        self._mark_field(exc.field)

    def _priced(self, answer: tuple[Quote, str, str]) -> None:
        result, regime_id, version = answer
        self.last_quote = result
        self.error.clear()
        lines = [escape(fill(self.tr("Observação: %1"), n)) for n in result.notes]
        version = version_line(self, regime_id, version)
        if version:  # the version of the act the date chose
            lines.append(fill(self.tr("Calculado com o %1"), version))
        self.notes.setText("<br>".join(lines))
        self.model.set_rows(result.lines)
        self.table.resizeRowsToContents()
        text = fill(self.tr("Total: %1"), result.money(result.total))
        if result.total_deposits:
            text = fill(
                self.tr("Preços e taxas: %1 · Cauções (restituíveis): %2 · Total: %3"),
                result.money(result.total_charges),
                result.money(result.total_deposits),
                result.money(result.total),
            )
        self.total.setText(text)
        if self.model.rowCount():
            self.table.selectRow(0)
        self._show_details()

    @Slot()
    def _show_details(self) -> None:
        row = self.table.currentIndex().row()
        if self.last_quote is None or not 0 <= row < len(self.last_quote.lines):
            self.details.clear()
            return
        line = self.last_quote.lines[row]
        parts = [f"{line.label}: {line.formula} = {self.last_quote.money(line.amount)} — {line.basis}", *line.details]
        if line.due:
            parts.append(fill(self.tr("Vencimento: %1"), line.due))
        self.details.setText("\n".join(parts))

    def _administration(self) -> list:
        """The needs of the fees whose value the Administration sets (their edits: ``admin_edits``)."""
        regime = self.regime()
        if regime is None:
            return []
        return [n for n in fees_needs(regime) if n.administration is not None and n.fee in self.admin_edits]

    def _mark_field(self, field: str | None) -> None:
        widgets = {
            "front": self.front,
            "depth": self.depth_edit,
            "hitch": self.hitch,
            "area": self.area,
            "equipment": self.equipment,
            "line": self.line,
            "venue": self.venue,
            "days": self.days,
            **self.period_spins,
            "year": self.year,
            "date": self.date,
            "on": self.date,
            "energy": self.energy,
            "permit_kind": self.permit_kind,
            **{f"admin_values.{fee}": edit for fee, edit in self.admin_edits.items()},
            **{f"inputs.{needs.administration}": self.admin_edits[needs.fee] for needs in self._administration()},
            **{f"inputs.{name}": edit for name, edit in self.asked_edits.items()},
        }
        marked = widgets.get(field or "")
        for widget in {id(w): w for w in widgets.values()}.values():  # one widget may answer two keys
            theme.styled(widget, "border: 1px solid ${error};" if widget is marked else "")
