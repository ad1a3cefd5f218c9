"""Cadastros → Feriados: the town's own holidays and optional closures, which every deadline counts with.

National and state holidays come with Praça (the ``holidays`` package); the municipality's are entered here, each
with its source. After a change the page lists the running deadlines of the town's records that moved.
"""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models import enforcement as enf
from models.registry.municipality import own_regime_ids
from models.rules import holidays
from models.rules.regimes import shipped_regimes
from views.blocks import (
    FieldErrorsView,
    button_row,
    error_label,
    fill,
    message_label,
    push_button,
    say,
    user_errors,
    wrapped_label,
)
from views.operations import in_background
from views.save import ask_open_path
from views.table_models import Column, RowsModel


class HolidaysPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self.today = today or _dt.date.today()
        layout = QVBoxLayout(self)
        layout.addWidget(
            wrapped_label(
                self.tr(
                    "Os feriados nacionais e estaduais já contam em todo prazo. Cadastre aqui os do município — "
                    "feriados e pontos facultativos decretados, com a lei ou o decreto que os fixa: todo prazo que "
                    "termina ou passa por eles é recalculado, nas mesas e nos relatórios."
                )
            )
        )
        top = QFormLayout()
        self.town = QComboBox()
        self.town.setObjectName("town")
        top.addRow(self.tr("M&unicípio:"), self.town)
        self.year = QSpinBox()
        self.year.setObjectName("year")
        self.year.setRange(1900, 2199)
        self.year.setValue(self.today.year)
        top.addRow(self.tr("Datas do an&o:"), self.year)
        self.office = QLineEdit()
        self.office.setObjectName("office-hours")
        self.office.setPlaceholderText(self.tr("ex.: 08:00-17:00"))
        self.office.setMaximumWidth(160)
        self.office_button = push_button(self.tr("Salvar &expediente"), "save-office-hours", self.save_office_hours)
        self.office.returnPressed.connect(self.save_office_hours)
        office_row = button_row(self.office, self.office_button)
        top.addRow(self.tr("E&xpediente:"), office_row)
        self.show_removed = QCheckBox(self.tr("Mostrar também os &removidos"))
        self.show_removed.setObjectName("show-removed")
        top.addRow("", self.show_removed)
        layout.addLayout(top)

        self.model = RowsModel(
            [
                Column(self.tr("Nº"), lambda r: str(r.id), right=True),
                Column(self.tr("Quando"), lambda r: r.when_text),
                Column(self.tr("Data"), self._dates),
                Column(self.tr("Nome"), lambda r: r.name),
                Column(self.tr("Tipo"), lambda r: r.kind_label),
                Column(self.tr("Fonte"), lambda r: r.source),
                Column(self.tr("Cadastrado por"), self._who),
            ],
            self,
        )
        self.table = QTableView()
        self.table.setObjectName("holidays")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)

        form = QFormLayout()
        self.when = QLineEdit()
        self.when.setObjectName("when")
        self.when.setPlaceholderText(self.tr("20/01/2027 (um dia), 20/01 (todo ano) ou Páscoa-47 (dias da Páscoa)"))
        form.addRow(self.tr("&Quando:"), self.when)
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.name.setPlaceholderText(self.tr("ex.: Aniversário da cidade"))
        form.addRow(self.tr("&Nome:"), self.name)
        self.source = QLineEdit()
        self.source.setObjectName("source")
        self.source.setPlaceholderText(self.tr("ex.: Lei Municipal nº 1.000/1990, art. 1º"))
        form.addRow(self.tr("&Fonte:"), self.source)
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        self.kind.addItem(self.tr("Feriado"), "holiday")
        self.kind.addItem(self.tr("Ponto facultativo decretado (a repartição fecha)"), "optional")
        form.addRow(self.tr("Ti&po:"), self.kind)
        layout.addLayout(form)
        self.error = error_label()
        layout.addWidget(self.error)
        self.fields = FieldErrorsView(
            self.error,
            {"when": self.when, "name": self.name, "source": self.source, "kind": self.kind, "municipality": self.town},
        )
        self.add_button = push_button(self.tr("Cadas&trar"), "add-holiday", self.add)
        self.remove_button = push_button(self.tr("Remo&ver…"), "remove-holiday", self.ask_remove)
        self.import_button = push_button(self.tr("&Importar CSV…"), "import-holidays", self.ask_import)
        layout.addLayout(button_row(self.add_button, self.remove_button, self.import_button))
        self.message = message_label()
        layout.addWidget(self.message)
        self.moved = QPlainTextEdit()
        self.moved.setObjectName("moved")
        self.moved.setReadOnly(True)
        self.moved.setMaximumHeight(110)
        self.moved.hide()
        layout.addWidget(self.moved)

        self.town.currentIndexChanged.connect(self.show_town)
        self.year.valueChanged.connect(self.show_town)
        self.show_removed.toggled.connect(self.show_town)
        self.when.returnPressed.connect(self.add)
        self.source.returnPressed.connect(self.add)
        for edit in (self.when, self.name, self.source):
            edit.textEdited.connect(lambda _t, e=edit: self.fields.forget(e))
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self._selection_changed()

    # -- reading -------------------------------------------------------------
    def _dates(self, row) -> str:
        days = row.days_in(self.year.value())
        return ", ".join(d.strftime("%d/%m/%Y") for d in days) or self.tr("—")

    def _who(self, row) -> str:
        text = f"{row.created_by} em {row.created_at:%d/%m/%Y}"
        if row.removed_at is not None:
            text += fill(
                self.tr(" — removido em %1 por %2: %3"),
                f"{row.removed_at:%d/%m/%Y}",
                row.removed_by,
                row.removed_reason,
            )
        return text

    def current_town(self) -> tuple[str, str] | None:
        key = self.town.currentData()  # "Olímpia/SP": a Qt item keeps text, not a Python tuple
        if not key:
            return None
        municipality, _, state = key.rpartition("/")
        return municipality, state

    def choose_town(self, municipality: str, state: str) -> bool:
        position = self.town.findData(f"{municipality}/{state}")
        if position >= 0:
            self.town.setCurrentIndex(position)
        return position >= 0

    def refresh(self) -> None:
        current = self.current_town()
        with user_errors(self.message) as refused:
            regimes = list(in_background(shipped_regimes).values())
        if refused:
            return
        with user_errors(self.message):
            hours = in_background(holidays.office_hours)
            self.office.setText(f"{hours[0]:%H:%M}-{hours[1]:%H:%M}" if hours else "")
        towns: dict[tuple[str, str], list[str]] = {}
        for regime in regimes:
            towns.setdefault(holidays.town_of(regime), []).append(regime.short)
        self.town.blockSignals(True)
        self.town.clear()
        for (municipality, state), acts in sorted(towns.items()):
            self.town.addItem(f"{municipality}/{state} ({', '.join(sorted(acts))})", f"{municipality}/{state}")
        self.town.blockSignals(False)
        if current is None:  # first shown: the municipality's own town (its first step, issue 31 §3)
            own = in_background(lambda: own_regime_ids(regimes))
            current = holidays.town_of(next(r for r in regimes if r.id == own[0])) if own else None
        position = self.town.findData("/".join(current)) if current else -1
        self.town.setCurrentIndex(position if position >= 0 else 0)
        self.show_town()

    @Slot()
    def save_office_hours(self) -> bool:
        with user_errors(lambda text: say(self.message, text, error=True)) as refused:
            typed = self.office.text()
            opens, closes = in_background(lambda: holidays.set_office_hours(typed))
        if refused:
            self.office.setFocus()
            return False
        self.office.setText(f"{opens:%H:%M}-{closes:%H:%M}")
        say(
            self.message,
            fill(
                self.tr(
                    "Expediente: %1 às %2. Um prazo em horas que termine fora dele mostra as leituras à autoridade."
                ),
                f"{opens:%H:%M}",
                f"{closes:%H:%M}",
            ),
        )
        return True

    @Slot()
    def show_town(self) -> None:
        town = self.current_town()
        if town is None:
            self.model.set_rows([])
            return
        with user_errors(self.message) as refused:
            removed = self.show_removed.isChecked()
            rows = in_background(lambda: holidays.list_holidays(*town, include_removed=removed))
        if refused:
            return
        self.model.set_rows(rows)
        self.table.resizeColumnsToContents()
        self._selection_changed()

    def selected(self):
        index = self.table.currentIndex()
        rows = self.model.rows
        return rows[index.row()] if index.isValid() and 0 <= index.row() < len(rows) else None

    @Slot()
    def _selection_changed(self, *_args) -> None:
        row = self.selected()
        self.remove_button.setEnabled(row is not None and row.removed_at is None)

    # -- changing ------------------------------------------------------------
    @Slot()
    def add(self) -> bool:
        town = self.current_town()
        if town is None:
            return False
        self.fields.clear()
        with user_errors(self.fields) as refused:
            when, name, source, kind = self.when.text(), self.name.text(), self.source.text(), self.kind.currentData()
            row = in_background(lambda: holidays.add_holiday(*town, when, name=name, source=source, kind=kind))
        if refused:
            return False
        for edit in (self.when, self.name, self.source):
            edit.clear()
        self.show_town()
        self._after(fill(self.tr("Cadastrado: %1 — %2 (%3)."), row.when_text, row.name, row.kind_label), town)
        self.when.setFocus()
        return True

    @Slot()
    def ask_remove(self) -> None:
        row = self.selected()
        if row is None:
            return
        reason, ok = QInputDialog.getText(
            self,
            self.tr("Remover feriado"),
            fill(self.tr("Por que %1 (%2) sai do calendário? Ele fica no histórico."), row.name, row.when_text),
        )
        if ok:
            self.remove(row.id, reason)

    def remove(self, holiday_id: int, reason: str) -> bool:
        with user_errors(lambda text: say(self.message, text, error=True)) as refused:
            row = in_background(lambda: holidays.remove_holiday(holiday_id, reason=reason))
        if refused:
            return False
        self.show_town()
        self._after(fill(self.tr("Removido: %1 — %2."), row.when_text, row.name), (row.municipality, row.state))
        return True

    @Slot()
    def ask_import(self) -> None:
        path = ask_open_path(self, self.tr("Importar feriados"), self.tr("Planilha CSV (*.csv)"))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> bool:
        town = self.current_town()
        if town is None:
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Importar feriados"),
            fill(self.tr("Importar os feriados do arquivo para %1/%2? Tudo ou nada: uma linha errada cancela."), *town),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        return self.import_confirmed(path)

    def import_confirmed(self, path: str) -> bool:
        town = self.current_town()
        if town is None:
            return False
        with user_errors(lambda text: say(self.message, text, error=True)) as refused:
            rows = in_background(lambda: holidays.import_holidays(*town, path))
        if refused:
            return False
        self.show_town()
        self._after(fill(self.tr("Importados %1 feriado(s)."), len(rows)), town)
        return True

    def _after(self, done: str, town: tuple[str, str]) -> None:
        """What was done, and the running deadlines of the town that moved."""
        with user_errors(lambda text: say(self.message, text, error=True)) as refused:
            today = self.today
            moved = in_background(lambda: enf.moved_deadlines(today, municipality=town[0]))
        if refused:
            return
        if not moved:
            say(self.message, done + " " + self.tr("Nenhum prazo em curso mudou."))
            self.moved.hide()
            return
        say(self.message, done + " " + fill(self.tr("%1 prazo(s) em curso recalculado(s):"), len(moved)))
        self.moved.setPlainText(
            "\n".join(f"{m.reference} — {m.label}: {self.tr('agora')} {m.now} ({m.moved})" for m in moved)
        )
        self.moved.show()
