"""The form of a site: a street segment, a feira, an event area or a beach, saved through
:func:`models.sites.save_site`.

One dialog with four tabs — the site and its act, days and hours, segments
with their obstacles, named points. The domain checks everything
(:class:`models.base.errors.FieldErrors`); each message is shown at its field or
table cell, and the tab holding the first one comes forward.

Over 600 lines and kept whole: it is one dialog whose four tabs edit one site — the act chosen on the
first tab sets the kinds, limits and checks of the others, and a refusal from the domain is shown at whichever
tab's field it names.
"""

from __future__ import annotations

import datetime as _dt
import re
from decimal import Decimal

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.base.br import weekday_name
from models.base.errors import FieldErrors, UserError
from models.base.money import format_decimal_br, parse_typed
from models.registry.town import working_regimes
from models.rules.regimes import WEEKDAYS, get_regime
from models.sites import (
    SITE_KINDS,
    ObstacleInput,
    PointInput,
    SegmentInput,
    Site,
    SiteInput,
    find_site,
    save_site,
    site_input,
)
from models.sites.layout import NUMBERING, OBSTACLE_KINDS, SIDE_USES, resolve_gap
from views import theme
from views.blocks import FieldErrorsView, fill, user_errors, wrapped_label
from views.fit import fit_to_screen
from views.operations import in_background
from views.widgets import DateEdit, GuardedDialog, add_remove_row

_OBSTACLE_SIDES = {"a": "lado A", "b": "lado B", "both": "os dois lados"}
_KEY = re.compile(r"^(segments|points)\[(\d+)\](?:\.obstacles\[(\d+)\])?(?:\.(\w+))?$")


def _metres(value) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, Decimal):
        places = 3 if value != value.quantize(Decimal("0.01")) else 2
        return format_decimal_br(value, places, group=False)
    return str(value)


def _time(value: _dt.time | None) -> str:
    return value.strftime("%H:%M") if value else ""


def _opening(site_id: int | None):
    """The worker thread: the site (None for a new one), what it stores as the form's input, and the acts offered —
    the municipality's own, and a site's under another town's act (a database filled before issue 31), which stays
    readable and editable."""
    site = find_site(site_id) if site_id is not None else None
    regimes = working_regimes()
    if site is not None and site.regime and site.regime not in regimes:
        regimes[site.regime] = get_regime(site.regime)
    return site, site_input(site) if site is not None else None, regimes


class SiteFormDialog(GuardedDialog):
    """Create (``site_id=None``) or edit a site."""

    SEGMENT_COLUMNS = ("street", "from_street", "to_street", "length", "width", "sides")
    OBSTACLE_COLUMNS = ("segment", "kind", "side", "start", "extent", "label")
    POINT_COLUMNS = ("code", "label", "description", "x", "side")

    def __init__(self, site_id: int | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        # issue 27 §5: the site as stored and the acts read on a worker
        self.site, data, self.regimes = in_background(lambda: _opening(site_id))
        self.saved_site: Site | None = None
        self.setWindowTitle(self.tr("Editar local") if self.site else self.tr("Novo local"))
        fit_to_screen(self, QSize(940, 640))
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("site-tabs")
        layout.addWidget(self.tabs, 1)
        self._build_general()
        self._build_days()
        self._build_segments()
        self._build_points()
        self.add_save_bar(layout)
        widgets = {
            "name": self.name,
            "kind": self.kind,
            "regime": self.regime,
            "regime_site": self.regime_site,
            "schedule": self.schedule,
            "numbering": self.numbering,
            "gap": self.gap,
            "max_points": self.max_points,
            "avoid": self.avoid_box,
            "weekdays": self.weekdays_box,
            "notes": self.notes,
            "setup_from": self.setup_from,
            "setup_to": self.setup_to,
            "opens": self.opens,
            "closes": self.closes,
            "teardown_from": self.teardown_from,
            "teardown_to": self.teardown_to,
            "first_day": self.first_day,
            "last_day": self.last_day,
        }
        self.errors = FieldErrorsView(self.error, widgets)
        self._tab_of = {
            key: 0
            for key in (
                "name",
                "kind",
                "regime",
                "regime_site",
                "schedule",
                "numbering",
                "gap",
                "max_points",
                "avoid",
                "notes",
            )
        }
        self._tab_of.update(
            {
                key: 1
                for key in (
                    "weekdays",
                    "setup_from",
                    "setup_to",
                    "opens",
                    "closes",
                    "teardown_from",
                    "teardown_to",
                    "first_day",
                    "last_day",
                )
            }
        )
        self._tab_of.update({"segments": 2, "points": 3})
        self._obstacle_rows: dict[tuple[int, int], int] = {}
        if data is not None:
            self._load(data)
        else:
            self._regime_changed()
            self.add_segment()
        self.watch_edits()
        for table in (self.segments, self.obstacles, self.points):
            table.itemChanged.connect(lambda _item: setattr(self, "dirty", True))
        self.name.setFocus()

    # -- building ------------------------------------------------------------
    def _build_general(self) -> None:
        page = QWidget()
        outer = QVBoxLayout(page)
        form = QFormLayout()
        outer.addLayout(form)
        outer.addStretch(1)
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        for key, label in SITE_KINDS.items():
            self.kind.addItem(label, key)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        for regime in sorted(self.regimes.values(), key=lambda r: (r.municipality, r.id)):
            self.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        self.regime.currentIndexChanged.connect(self._regime_changed)
        self.regime_site = QComboBox()
        self.regime_site.setObjectName("regime_site")
        self.schedule = QComboBox()
        self.schedule.setObjectName("schedule")
        self.numbering = QComboBox()
        self.numbering.setObjectName("numbering")
        for key, label in NUMBERING.items():
            self.numbering.addItem(label, key)
        self.gap = QLineEdit()
        self.gap.setObjectName("gap")
        self.gap.setPlaceholderText(self.tr("em metros, ex.: 0,50"))
        self.gap.setMaximumWidth(160)
        self.gap.textChanged.connect(self._gap_hint)
        self.gap_hint = wrapped_label(name="gap-hint")
        self.max_points = QLineEdit()
        self.max_points.setObjectName("max_points")
        self.max_points.setMaximumWidth(120)
        self.avoid_box = QWidget()
        self.avoid_box.setObjectName("avoid")
        grid = QGridLayout(self.avoid_box)
        grid.setContentsMargins(0, 0, 0, 0)
        self.avoid: dict[str, QCheckBox] = {}
        for i, (key, label) in enumerate(OBSTACLE_KINDS.items()):
            box = QCheckBox(label)
            box.setObjectName(f"avoid-{key}")
            box.toggled.connect(lambda _on: setattr(self, "dirty", True))
            self.avoid[key] = box
            grid.addWidget(box, i // 3, i % 3)
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("notes")
        self.notes.setMaximumHeight(90)
        self.notes.textChanged.connect(lambda: setattr(self, "dirty", True))
        form.addRow(self.tr("&Nome:"), self.name)
        form.addRow(self.tr("&Tipo:"), self.kind)
        form.addRow(self.tr("&Regime (ato):"), self.regime)
        form.addRow(self.tr("Loca&l nomeado no ato:"), self.regime_site)
        form.addRow(self.tr("&Calendário do ato:"), self.schedule)
        form.addRow(self.tr("N&umeração das bancas:"), self.numbering)
        form.addRow(self.tr("&Espaço entre bancas (m):"), self.gap)
        form.addRow("", self.gap_hint)
        form.addRow(self.tr("&Máximo de pontos:"), self.max_points)
        form.addRow(self.tr("Manter livres (além do que o ato exige):"), self.avoid_box)
        form.addRow(self.tr("&Observações:"), self.notes)
        self.tabs.addTab(page, self.tr("Local"))

    def _build_days(self) -> None:
        page = QWidget()
        outer = QVBoxLayout(page)
        form = QFormLayout()
        outer.addLayout(form)
        outer.addStretch(1)
        self.weekdays_box = QWidget()
        self.weekdays_box.setObjectName("weekdays")
        row = QHBoxLayout(self.weekdays_box)
        row.setContentsMargins(0, 0, 0, 0)
        self.weekdays: dict[str, QCheckBox] = {}
        for day, key in enumerate(WEEKDAYS):
            box = QCheckBox(weekday_name(day, short=True))
            box.setObjectName(f"weekday-{key}")
            box.toggled.connect(lambda _on: setattr(self, "dirty", True))
            self.weekdays[key] = box
            row.addWidget(box)
        row.addStretch(1)
        form.addRow(self.tr("Dias da &semana:"), self.weekdays_box)
        for start, end, label in (
            ("setup_from", "setup_to", self.tr("&Montagem (descarga):")),
            ("opens", "closes", self.tr("&Funcionamento:")),
            ("teardown_from", "teardown_to", self.tr("&Desmontagem (carga):")),
        ):
            pair = QHBoxLayout()
            for key in (start, end):
                edit = QLineEdit()
                edit.setObjectName(key)
                edit.setPlaceholderText("16:00")
                edit.setMaximumWidth(90)
                setattr(self, key, edit)
            pair.addWidget(getattr(self, start))
            pair.addWidget(QLabel(self.tr("às")))
            pair.addWidget(getattr(self, end))
            pair.addStretch(1)
            form.addRow(label, pair)
        self.first_day = DateEdit()
        self.first_day.setObjectName("first_day")
        self.last_day = DateEdit()
        self.last_day.setObjectName("last_day")
        form.addRow(self.tr("&Primeiro dia (eventos):"), self.first_day)
        form.addRow(self.tr("Ú&ltimo dia:"), self.last_day)
        self.schedule_hint = wrapped_label()
        form.addRow("", self.schedule_hint)
        self.tabs.addTab(page, self.tr("Dias e horários"))

    def _table(self, name: str, headers: list[str]) -> QTableWidget:
        table = QTableWidget(0, len(headers))
        table.setObjectName(name)
        table.setHorizontalHeaderLabels(headers)
        table.verticalHeader().hide()
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.horizontalHeader().setStretchLastSection(True)
        return table

    def _build_segments(self) -> None:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(
            QLabel(
                self.tr(
                    "Trechos de rua (o comprimento vai de uma esquina à outra; a largura é a "
                    "da via, de meio-fio a meio-fio):"
                )
            )
        )
        self.segments = self._table(
            "segments",
            [
                self.tr("Rua"),
                self.tr("Da rua (início)"),
                self.tr("Até a rua (fim)"),
                self.tr("Comprimento (m)"),
                self.tr("Largura da via (m)"),
                self.tr("Lados usados"),
            ],
        )
        self.segments.setColumnWidth(0, 210)
        self.segments.setColumnWidth(1, 170)
        self.segments.setColumnWidth(2, 170)
        self.segments.setColumnWidth(3, 130)
        self.segments.setColumnWidth(4, 140)
        layout.addWidget(self.segments, 1)
        layout.addLayout(
            add_remove_row(
                self, self.tr("Adicionar &trecho"), self.add_segment, lambda: self._remove_row(self.segments)
            )
        )
        layout.addWidget(QLabel(self.tr("Obstáculos ao longo dos lados (posição a partir do início do trecho):")))
        self.obstacles = self._table(
            "obstacles",
            [
                self.tr("Trecho"),
                self.tr("Tipo"),
                self.tr("Lado"),
                self.tr("Início (m)"),
                self.tr("Extensão (m)"),
                self.tr("Descrição"),
            ],
        )
        self.obstacles.setColumnWidth(1, 170)
        layout.addWidget(self.obstacles, 1)
        layout.addLayout(
            add_remove_row(
                self, self.tr("Adicionar &obstáculo"), self.add_obstacle, lambda: self._remove_row(self.obstacles)
            )
        )
        self.tabs.addTab(page, self.tr("Trechos e obstáculos"))

    def _build_points(self) -> None:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(QLabel(self.tr("Pontos nomeados pelo ato (ex.: Ponto 01 — Balneário Di Franco):")))
        self.points = self._table(
            "points",
            [self.tr("Código"), self.tr("Nome"), self.tr("Descrição"), self.tr("Posição (m)"), self.tr("Lado")],
        )
        self.points.setColumnWidth(2, 360)
        layout.addWidget(self.points, 1)
        layout.addLayout(
            add_remove_row(self, self.tr("Adicionar &ponto"), self.add_point, lambda: self._remove_row(self.points))
        )
        self.point_extra: dict[int, PointInput] = {}
        self.tabs.addTab(page, self.tr("Pontos"))

    # -- rows ----------------------------------------------------------------
    @staticmethod
    def _combo(options: dict[str, str], value: str, name: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for key, label in options.items():
            combo.addItem(label, key)
        combo.setCurrentIndex(max(0, combo.findData(value)))
        return combo

    def add_segment(self, seg: SegmentInput | None = None) -> int:
        seg = seg or SegmentInput()
        table = self.segments
        row = table.rowCount()
        table.insertRow(row)
        for col, value in enumerate(
            (seg.street, seg.from_street, seg.to_street, _metres(seg.length), _metres(seg.width))
        ):
            table.setItem(row, col, QTableWidgetItem(value))
        table.setCellWidget(row, 5, self._combo(SIDE_USES, seg.sides, "sides"))
        self.dirty = True
        return row

    def add_obstacle(self, obstacle: ObstacleInput | None = None, segment: int = 0) -> int:
        obstacle = obstacle or ObstacleInput(kind="garage")
        table = self.obstacles
        row = table.rowCount()
        table.insertRow(row)
        spin = QSpinBox()
        spin.setObjectName("segment")
        spin.setRange(1, 99)
        spin.setValue(segment + 1)
        table.setCellWidget(row, 0, spin)
        table.setCellWidget(row, 1, self._combo(OBSTACLE_KINDS, obstacle.kind, "kind"))
        table.setCellWidget(row, 2, self._combo(_OBSTACLE_SIDES, obstacle.side, "side"))
        for col, value in ((3, _metres(obstacle.start)), (4, _metres(obstacle.extent)), (5, obstacle.label)):
            table.setItem(row, col, QTableWidgetItem(value))
        self.dirty = True
        return row

    def add_point(self, point: PointInput | None = None) -> int:
        point = point or PointInput()
        table = self.points
        row = table.rowCount()
        table.insertRow(row)
        for col, value in enumerate((point.code, point.label, point.description, _metres(point.x))):
            table.setItem(row, col, QTableWidgetItem(value))
        table.setCellWidget(row, 4, self._combo({"": "—", "a": "lado A", "b": "lado B"}, point.side, "side"))
        self.point_extra[row] = point
        self.dirty = True
        return row

    def _remove_row(self, table: QTableWidget) -> None:
        row = table.currentRow()
        if row < 0:
            row = table.rowCount() - 1
        if row >= 0:
            table.removeRow(row)
            if table is self.points:
                self.point_extra = {(r if r < row else r - 1): p for r, p in self.point_extra.items() if r != row}
            self.dirty = True

    # -- regime ----------------------------------------------------------------
    @Slot()
    def _regime_changed(self) -> None:
        regime = self.regimes.get(self.regime.currentData())
        self.regime_site.clear()
        self.regime_site.addItem(self.tr("(nenhum)"), "")
        self.schedule.clear()
        self.schedule.addItem(self.tr("(nenhum)"), "")
        if regime is None:
            return
        for site in regime.sites:
            self.regime_site.addItem(f"{site.label} ({regime.cite(site.basis)})", site.id)
        for schedule in regime.schedules:
            self.schedule.addItem(f"{schedule.label} ({regime.cite(schedule.basis)})", schedule.id)
        self._gap_hint()

    @Slot()
    def _gap_hint(self) -> None:
        """What the act says of the gap, for the gap typed (the domain's words and article)."""
        regime = self.regimes.get(self.regime.currentData())
        if regime is None:
            self.gap_hint.clear()
            return
        try:
            typed = parse_typed(self.gap.text()) if self.gap.text().strip() else None
        except (UserError, TypeError, ValueError, ArithmeticError):
            typed = None
        with user_errors(self.gap_hint) as refused:
            _gap, basis, how = resolve_gap(regime, typed, strict=False)
        if refused:
            return
        self.gap_hint.setText(how + (f" ({basis})" if basis else ""))

    # -- loading and reading -------------------------------------------------------
    def _load(self, data: SiteInput) -> None:
        self.name.setText(data.name)
        self.kind.setCurrentIndex(max(0, self.kind.findData(data.kind)))
        self.regime.setCurrentIndex(max(0, self.regime.findData(data.regime)))
        self._regime_changed()
        self.regime_site.setCurrentIndex(max(0, self.regime_site.findData(data.regime_site)))
        self.schedule.setCurrentIndex(max(0, self.schedule.findData(data.schedule)))
        self.numbering.setCurrentIndex(max(0, self.numbering.findData(data.numbering)))
        self.gap.setText(_metres(data.gap))
        self.max_points.setText("" if data.max_points is None else str(data.max_points))
        for key, box in self.avoid.items():
            box.setChecked(key in data.avoid)
        self.notes.setPlainText(data.notes)
        for key, box in self.weekdays.items():
            box.setChecked(key in data.weekdays)
        for key in ("setup_from", "setup_to", "opens", "closes", "teardown_from", "teardown_to"):
            getattr(self, key).setText(_time(getattr(data, key)))
        self.first_day.set_date(data.first_day)
        self.last_day.set_date(data.last_day)
        for i, seg in enumerate(data.segments):
            self.add_segment(seg)
            for obstacle in seg.obstacles:
                self.add_obstacle(obstacle, i)
        for point in data.points:
            self.add_point(point)
        self.dirty = False

    @staticmethod
    def _cell(table: QTableWidget, row: int, col: int) -> str:
        item = table.item(row, col)
        return item.text().strip() if item is not None else ""

    def read(self) -> SiteInput:
        """The form as :class:`models.sites.SiteInput`; a date typed half-way is a ``FieldErrors``."""
        errors = {}
        days = {}
        for key in ("first_day", "last_day"):
            try:
                days[key] = getattr(self, key).date()
            except UserError as exc:
                errors[key] = exc.message
        if errors:
            raise FieldErrors(errors)
        segments = []
        seg_rows = []
        for row in range(self.segments.rowCount()):
            values = [self._cell(self.segments, row, c) for c in range(5)]
            if not any(values):
                continue
            seg_rows.append(row)
            segments.append(
                SegmentInput(
                    street=values[0],
                    from_street=values[1],
                    to_street=values[2],
                    length=values[3],
                    width=values[4],
                    sides=self.segments.cellWidget(row, 5).currentData(),
                )
            )
        self._segment_rows = seg_rows
        self._obstacle_rows = {}
        for row in range(self.obstacles.rowCount()):
            start, extent, label = (self._cell(self.obstacles, row, c) for c in (3, 4, 5))
            if not (start or extent or label):
                continue
            index = self.obstacles.cellWidget(row, 0).value() - 1
            if not 0 <= index < len(segments):
                raise FieldErrors(
                    {"obstacles": fill(self.tr("Obstáculo na linha %1: o trecho %2 não existe."), row + 1, index + 1)}
                )
            target = segments[index].obstacles
            self._obstacle_rows[(index, len(target))] = row
            target.append(
                ObstacleInput(
                    kind=self.obstacles.cellWidget(row, 1).currentData(),
                    side=self.obstacles.cellWidget(row, 2).currentData(),
                    start=start,
                    extent=extent,
                    label=label,
                )
            )
        points = []
        self._point_rows = []
        for row in range(self.points.rowCount()):
            values = [self._cell(self.points, row, c) for c in range(4)]
            if not any(values):
                continue
            self._point_rows.append(row)
            extra = self.point_extra.get(row, PointInput())
            points.append(
                PointInput(
                    code=values[0],
                    label=values[1],
                    description=values[2],
                    x=values[3] or None,
                    side=self.points.cellWidget(row, 4).currentData(),
                    regime_site=extra.regime_site,
                    basis=extra.basis,
                )
            )

        def text(edit: QLineEdit):
            return edit.text().strip() or None

        return SiteInput(
            name=self.name.text(),
            kind=self.kind.currentData(),
            regime=self.regime.currentData() or "",
            regime_site=self.regime_site.currentData() or "",
            schedule=self.schedule.currentData() or "",
            weekdays=[key for key, box in self.weekdays.items() if box.isChecked()],
            setup_from=text(self.setup_from),
            setup_to=text(self.setup_to),
            opens=text(self.opens),
            closes=text(self.closes),
            teardown_from=text(self.teardown_from),
            teardown_to=text(self.teardown_to),
            first_day=days["first_day"],
            last_day=days["last_day"],
            max_points=text(self.max_points),
            numbering=self.numbering.currentData(),
            gap=text(self.gap),
            avoid=[key for key, box in self.avoid.items() if box.isChecked()],
            notes=self.notes.toPlainText(),
            segments=segments,
            points=points,
        )

    # -- errors at the field -----------------------------------------------------------
    def _clear_cells(self) -> None:
        for table in (self.segments, self.obstacles, self.points):
            table.setStyleSheet("")
            table.setToolTip("")
            for row in range(table.rowCount()):
                for col in range(table.columnCount()):
                    item = table.item(row, col)
                    if item is not None:
                        item.setData(Qt.ItemDataRole.BackgroundRole, None)
                        item.setData(Qt.ItemDataRole.ForegroundRole, None)
                        item.setToolTip("")
                    widget = table.cellWidget(row, col)
                    if widget is not None:
                        widget.setStyleSheet("")
                        widget.setToolTip("")

    def _mark_cell(self, key: str, message: str) -> int | None:
        """Mark the table cell of ``segments[0].length``, ``segments[0].obstacles[1].extent``,
        ``points[2].code``; returns the tab."""
        match = _KEY.match(key)
        if match is None:
            return None
        what, index, obstacle, column = match.group(1), int(match.group(2)), match.group(3), match.group(4)
        if what == "points":
            table, rows, columns = self.points, getattr(self, "_point_rows", []), self.POINT_COLUMNS
        elif obstacle is not None:
            table, columns = self.obstacles, self.OBSTACLE_COLUMNS
            row = self._obstacle_rows.get((index, int(obstacle)))
            rows = None
        else:
            table, rows, columns = self.segments, getattr(self, "_segment_rows", []), self.SEGMENT_COLUMNS
        if rows is not None:
            row = rows[index] if index < len(rows) else None
        if row is None:
            return self._tab_of["points" if what == "points" else "segments"]
        col = columns.index(column) if column in columns else 0
        item = table.item(row, col)
        widget = table.cellWidget(row, col)
        if widget is not None:
            theme.styled(widget, theme.REFUSED)
            widget.setToolTip(message)
        elif item is not None:
            item.setBackground(theme.qcolour("error_background"))
            item.setForeground(QColor(theme.values()["field_ink"]))  # the ink comes with its ground
            item.setToolTip(message)
        table.setCurrentCell(row, col)
        return self._tab_of["points" if what == "points" else "segments"]

    def show_errors(self, errors: dict[str, str]) -> None:
        self._clear_cells()
        self.errors.show(errors)
        tabs = []
        for key, message in errors.items():
            tab = self._mark_cell(key, message)
            table = {"segments": self.segments, "points": self.points, "obstacles": self.obstacles}.get(key)
            if table is not None:  # the table as a whole ("informe ao menos um trecho")
                theme.styled(table, "QTableWidget { border: 1px solid ${error}; }")
                table.setToolTip(message)
                tab = 3 if table is self.points else 2
            if tab is None:
                tab = self._tab_of.get(key.split(".")[0].split("[")[0], 0)
            tabs.append(tab)
        if tabs:
            self.tabs.setCurrentIndex(tabs[0])

    def save(self) -> None:
        try:
            data, site = self.read(), self.site
            self.saved_site = in_background(lambda: save_site(data, site=site), busy=(self.buttons,))
        except FieldErrors as exc:
            self.show_errors(exc.errors)
            return
        except UserError as exc:
            self.show_errors({exc.field or "name": exc.message})
            return
        self.dirty = False
        self.accept()
