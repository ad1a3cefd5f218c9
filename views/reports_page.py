"""Relatórios: the monthly fee report and the sanctions report, in Excel, HTML or PDF.

The clerk picks the month (fees) or the period (sanctions: from and to dates)
and the format and presses *Exportar…*: a file dialog proposes
``taxas-AAAA-MM.xlsx`` or ``sancoes-AAAA-MM-DD-a-AAAA-MM-DD.pdf``, a progress
dialog follows the export and can cancel it (nothing is left half-written:
reports/fee_export.py writes a temporary file and renames it), and once written
the file can be opened. The figures shown under the choice are the domain's
(``month_summary``); the screen computes nothing itself.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QDate, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from models.base.br import month_names
from models.base.errors import Cancelled, UserError
from models.base.money import format_brl
from models.billing.charges import month_label, month_summary
from models.enforcement.sanctions_report import check_period, period_label
from models.registry.municipality import own_scope, report_town
from models.services.report_towns import report_towns
from reports import sanctions_export
from reports.fee_export import FORMATS, default_name, export_fee_report
from views.blocks import fill, message_label, push_button, say, wrapped_label
from views.operations import in_background
from views.save import save_file_name


def _picked(edit: QDateEdit) -> _dt.date:
    """The day chosen in a date edit (always a valid day)."""
    day = edit.date()
    return _dt.date(day.year(), day.month(), day.day())


class ReportsPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, today: Callable[[], _dt.date] | None = None):
        super().__init__(parent)
        self._today = today or _dt.date.today
        self.progress_dialog: QProgressDialog | None = None
        self.last_path: Path | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Relatórios"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        # a report is one municipality's (issue 31 §1): the database's own, or another town whose acts it holds
        self.town = QComboBox()
        self.town.setObjectName("town")
        self.town.setMinimumContentsLength(30)
        self.town_row = QWidget()
        town_row = QHBoxLayout(self.town_row)
        town_row.setContentsMargins(0, 0, 0, 0)
        town_label = QLabel(self.tr("Mu&nicípio do relatório:"))
        town_label.setBuddy(self.town)
        town_row.addWidget(town_label)
        town_row.addWidget(self.town)
        town_row.addStretch(1)
        self.town_row.hide()  # shown when the database holds records of more than one town's acts
        layout.addWidget(self.town_row)
        self.town.currentIndexChanged.connect(lambda _i: self.refresh_summary())

        box = QGroupBox(self.tr("Relatório mensal de taxas"))
        form = QFormLayout(box)
        intro = wrapped_label(
            self.tr(
                "Cobrado, pago, em aberto e vencido das cobranças com vencimento no mês — por regime, local, seção "
                "e tipo —, a lista das cobranças com titular, permissão, fórmula e base legal, os pagamentos "
                "recebidos no mês e os inadimplentes. Em Excel os totais são fórmulas; em HTML e PDF, pronto para "
                "imprimir em A4."
            )
        )
        form.addRow(intro)

        day = self._today()
        self.month = QComboBox()
        self.month.setObjectName("month")
        self.month.addItems([m.capitalize() for m in month_names()])
        self.month.setCurrentIndex(day.month - 1)
        self.year = QSpinBox()
        self.year.setObjectName("year")
        self.year.setRange(2000, 2100)
        self.year.setValue(day.year)
        when = QHBoxLayout()
        when.addWidget(self.month)
        when.addWidget(self.year)
        when.addStretch(1)
        form.addRow(self.tr("Mês:"), when)

        self.format = self._format_box("format")
        what = QHBoxLayout()
        what.addWidget(self.format)
        what.addStretch(1)
        form.addRow(self.tr("Formato:"), what)

        self.summary = wrapped_label(name="summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("No mês:"), self.summary)

        self.export_button = push_button(self.tr("Exportar…"), "export")
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(lambda: self.export())
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        form.addRow(buttons)

        self.message = message_label()
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.message)
        layout.addWidget(box)

        sanctions = QGroupBox(self.tr("Relatório de sanções"))
        sanctions.setObjectName("sanctions")
        form = QFormLayout(sanctions)
        intro = wrapped_label(
            self.tr(
                "Os autos lavrados no período — por tipo, regime, local e fiscal —, as infrações por artigo com a base "
                "legal, as sanções aplicadas, as multas lançadas, pagas e vencidas, os prazos em curso, os bens "
                "apreendidos ainda no depósito, as reincidências e a dívida ativa."
            )
        )
        form.addRow(intro)
        self.sanctions_from = self._date_edit("sanctions-from", _dt.date(day.year, 1, 1))
        self.sanctions_to = self._date_edit("sanctions-to", day)
        period = QHBoxLayout()
        period.addWidget(QLabel(self.tr("de")))
        period.addWidget(self.sanctions_from)
        period.addWidget(QLabel(self.tr("a")))
        period.addWidget(self.sanctions_to)
        period.addStretch(1)
        form.addRow(self.tr("Período:"), period)
        self.sanctions_format = self._format_box("sanctions-format")
        what = QHBoxLayout()
        what.addWidget(self.sanctions_format)
        what.addStretch(1)
        form.addRow(self.tr("Formato:"), what)
        self.sanctions_button = push_button(self.tr("Exportar…"), "sanctions-export")
        self.sanctions_button.clicked.connect(lambda: self.export_sanctions())
        buttons = QHBoxLayout()
        buttons.addWidget(self.sanctions_button)
        buttons.addStretch(1)
        form.addRow(buttons)
        self.sanctions_message = wrapped_label(name="sanctions-message")
        self.sanctions_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.sanctions_message)
        layout.addWidget(sanctions)
        layout.addStretch(1)

        self.month.currentIndexChanged.connect(self.refresh_summary)
        self.year.valueChanged.connect(self.refresh_summary)
        self.refresh()

    def _format_box(self, name: str) -> QComboBox:
        box = QComboBox()
        box.setObjectName(name)
        for key, (label, _filter) in FORMATS.items():
            box.addItem(f"{self.tr(label)} (.{key})", key)
        return box

    @staticmethod
    def _date_edit(name: str, day: _dt.date) -> QDateEdit:
        edit = QDateEdit(QDate(day.year, day.month, day.day))
        edit.setObjectName(name)
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("dd/MM/yyyy")
        return edit

    # ------------------------------------------------------------------ state

    def today(self) -> _dt.date:
        return self._today()

    def selected_month(self) -> tuple[int, int]:
        return self.year.value(), self.month.currentIndex() + 1

    def set_month(self, year: int, month: int) -> None:
        self.year.setValue(year)
        self.month.setCurrentIndex(month - 1)

    def selected_format(self) -> str:
        return self.format.currentData()

    def set_format(self, fmt: str) -> None:
        self._pick(self.format, fmt)

    @staticmethod
    def _pick(box: QComboBox, fmt: str) -> None:
        index = box.findData(fmt)
        if index < 0:
            raise KeyError(fmt)
        box.setCurrentIndex(index)

    def selected_period(self) -> tuple[_dt.date, _dt.date]:
        return _picked(self.sanctions_from), _picked(self.sanctions_to)

    def set_period(self, start: _dt.date, end: _dt.date) -> None:
        self.sanctions_from.setDate(QDate(start.year, start.month, start.day))
        self.sanctions_to.setDate(QDate(end.year, end.month, end.day))

    def selected_sanctions_format(self) -> str:
        return self.sanctions_format.currentData()

    def set_sanctions_format(self, fmt: str) -> None:
        self._pick(self.sanctions_format, fmt)

    @Slot()
    def refresh(self) -> None:
        """The towns a report can be of, and the chosen month's figures (nothing when no database is open)."""
        try:
            towns = in_background(report_towns)
        except Exception:
            towns = []
        chosen = self.town.currentData()
        self.town.blockSignals(True)
        self.town.clear()
        for label, name in towns:
            self.town.addItem(label if name else fill(self.tr("%1 (este banco)"), label), name)
        self.town.setCurrentIndex(max(0, self.town.findData(chosen)))
        self.town.blockSignals(False)
        self.town_row.setVisible(self.town.count() > 1)
        self.refresh_summary()

    def selected_town(self) -> str | None:
        """The town whose report is asked: None for the database's own."""
        return self.town.currentData() or None

    def refresh_summary(self) -> None:
        year, month = self.selected_month()
        name = self.selected_town()
        try:
            today = self.today()
            s = in_background(
                lambda: month_summary(
                    year, month, today=today, regimes=report_town(name).regime_ids if name else own_scope()
                )
            )
        except Exception:
            self.summary.setText(self.tr("—"))
            return
        if not s.count and not s.received:
            self.summary.setText(fill(self.tr("Nenhuma cobrança com vencimento em %1."), s.label))
            return
        self.summary.setText(
            fill(
                self.tr("%1 cobrança(s): cobrado %2, pago %3, em aberto %4, vencido %5; recebido no mês %6."),
                s.count,
                format_brl(s.charged, currency=s.currency),
                format_brl(s.paid, currency=s.currency),
                format_brl(s.open, currency=s.currency),
                format_brl(s.overdue, currency=s.currency),
                format_brl(s.received, currency=s.currency),
            )
        )

    def _say(self, text: str, *, error: bool = False, label: QLabel | None = None) -> None:
        say(label or self.message, text, error=error)

    # ------------------------------------------------------------------ export

    def export(self, path: str | Path | None = None, *, open_after: bool | None = None) -> Path | None:
        """Export the chosen month in the chosen format.

        ``path`` None asks where (file dialog); ``open_after`` None asks whether
        to open the file once written (tests pass both and meet no dialog but
        the progress bar).
        """
        year, month = self.selected_month()
        fmt = self.selected_format()
        path = path or self._ask_path(self.tr("Exportar relatório de taxas"), default_name(year, month, fmt), fmt)
        if not path:
            return None
        what = month_label(year, month)
        today = self.today()
        town = self.selected_town()
        done = self._run_export(
            lambda progress: export_fee_report(
                year, month, fmt, path, today=today, progress=progress, municipality=town
            ),
            fill(self.tr("Gerando o relatório de taxas de %1…"), what),
            self.export_button,
            self.message,
        )
        if done is None:
            return None
        written, report = done
        t = report.totals
        self._say(
            fill(
                self.tr("Relatório de taxas de %1 gravado em %2 (%3 cobrança(s); cobrado %4, pago %5)."),
                what,
                written,
                t.count,
                format_brl(t.charged, currency=report.currency),
                format_brl(t.paid, currency=report.currency),
            )
            + self._left_out(report, self.tr("cobranças"))
        )
        return self._offer_open(written, open_after)

    def export_sanctions(self, path: str | Path | None = None, *, open_after: bool | None = None) -> Path | None:
        """Export the sanctions report of the chosen period in the chosen format (``path`` and ``open_after``
        as in :meth:`export`)."""
        start, end = self.selected_period()
        fmt = self.selected_sanctions_format()
        try:
            check_period(start, end)  # said before the file dialog: no name to choose for a period upside down
        except UserError as exc:
            self._say(exc.message, error=True, label=self.sanctions_message)
            return None
        path = path or self._ask_path(
            self.tr("Exportar relatório de sanções"), sanctions_export.default_name(start, end, fmt), fmt
        )
        if not path:
            return None
        what = period_label(start, end)
        today = self.today()
        town = self.selected_town()
        done = self._run_export(
            lambda progress: sanctions_export.export_sanctions_report(
                start, end, fmt, path, today=today, progress=progress, municipality=town
            ),
            fill(self.tr("Gerando o relatório de sanções de %1…"), what),
            self.sanctions_button,
            self.sanctions_message,
        )
        if done is None:
            return None
        written, report = done
        f = report.figures
        self._say(
            fill(
                self.tr("Relatório de sanções de %1 gravado em %2 (%3 auto(s); multas lançadas %4, pagas %5)."),
                what,
                written,
                f.records,
                format_brl(f.charged, currency=report.currency),
                format_brl(f.paid, currency=report.currency),
            )
            + self._left_out(report, self.tr("autos")),
            label=self.sanctions_message,
        )
        return self._offer_open(written, open_after)

    def _left_out(self, report, what: str) -> str:
        """What a report of one municipality left out: the records of other towns' acts (issue 31 §1)."""
        if not report.left_out:
            return ""
        towns = "; ".join(f"{town}: {count}" for town, count in report.left_out)
        return " " + fill(
            self.tr("É o relatório de %1: não inclui %2 de atos de outros municípios (%3)."),
            report.municipality,
            what,
            towns,
        )

    def _ask_path(self, title: str, name: str, fmt: str) -> str | None:
        path, _ = save_file_name(self, title, name, self.tr(FORMATS[fmt][1]))
        if path and not Path(path).suffix:
            path = f"{path}.{fmt}"
        return path or None

    def _run_export(self, run, text: str, button: QPushButton, message: QLabel):
        """``run(progress)`` in a worker thread under a progress dialog that can cancel it (views/operations.py);
        None when cancelled or refused (said on ``message``)."""
        from views.operations import run_operation

        def started(dialog) -> None:
            dialog.setMaximum(1000)
            self.progress_dialog = dialog

        button.setEnabled(False)
        try:
            return run_operation(
                self,
                text,
                run,
                title=self.tr("Exportar relatório"),
                show_after_ms=400,
                on_start=started,
            )
        except Cancelled:
            self._say(self.tr("Exportação cancelada: nenhum arquivo foi gravado."), label=message)
            return None
        except UserError as exc:
            self._say(exc.message, error=True, label=message)
            return None
        finally:
            self.progress_dialog = None
            button.setEnabled(True)

    def _offer_open(self, written: Path, open_after: bool | None) -> Path:
        self.last_path = written
        if open_after is None:
            answer = QMessageBox.question(
                self,
                self.tr("Exportar relatório"),
                fill(self.tr("Relatório gravado em %1.\n\nAbrir o arquivo agora?"), written),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes,
            )
            open_after = answer == QMessageBox.StandardButton.Yes
        if open_after and not self.open_file(written):  # no program for the file: said, not silent
            QMessageBox.information(
                self,
                self.tr("Exportar relatório"),
                fill(
                    self.tr("Não há neste computador um programa que abra %1. O arquivo está gravado em %2."),
                    written.suffix.lstrip(".").upper() or written.name,
                    written,
                ),
            )
        return written

    def open_file(self, path: Path) -> bool:
        """Open the written file with the system's program for it."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
