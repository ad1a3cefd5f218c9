"""Arquivo → Importar ambulantes…: the town's list (xlsx or csv) in four steps.

Open the file → map its columns to Praça's fields (guessed from the header
names, or the mapping last used for files with the same header) → check every
row (the bad ones in red, with the reason) → import after the clerk confirms,
off the GUI thread with a progress bar: the rows are prepared in short batches
that no other desk sees and published at the end in one short transaction
(issue 26 §7: the other desks keep working meanwhile); Cancelar removes the
batches, or rolls the publication back. The rules are
:mod:`models.services.importer`'s.
"""

from __future__ import annotations

import datetime as _dt
import logging
from pathlib import Path

from PySide6.QtCore import Qt, QThread, Signal, Slot
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import UserError
from models.registry.town import working_regimes
from models.services import importer
from views import theme
from views.blocks import error_label, fill, say, user_errors, wrapped_label
from views.operations import in_background
from views.save import open_file_name, save_file_name

NOT_MAPPED = ""  # the combo's data for "— não importar —"
FROM_COLUMN = ""  # the default combos' data for "— da coluna / nenhum —"


class ImportWorker(QThread):
    """Runs :func:`models.services.importer.import_rows` off the GUI thread; ``cancel()`` makes it roll back."""

    progressed = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)

    def __init__(self, preview: importer.Preview, *, all_or_nothing: bool, key_dir: Path | None, today: _dt.date):
        super().__init__()
        self.preview = preview
        self.all_or_nothing = all_or_nothing
        self.key_dir = key_dir
        self.today = today
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def _progress(self, done: int, total: int) -> bool:
        self.progressed.emit(done, total)
        return not self._cancelled

    def run(self) -> None:
        try:
            result = importer.import_rows(
                self.preview,
                all_or_nothing=self.all_or_nothing,
                today=self.today,
                key_dir=self.key_dir,
                progress=self._progress,
            )
        except UserError as exc:
            self.failed.emit(exc.message)
        except Exception as exc:
            # the detail to the log (praca.log); the clerk reads Portuguese only (issue 31 §5)
            logging.getLogger(__name__).error("importação interrompida", exc_info=exc)
            self.failed.emit(
                "Algo que o Praça não esperava interrompeu a importação. Nada foi importado. Tente de novo; se "
                "acontecer outra vez, o detalhe está no registro de erros do Praça (praca.log, na pasta de dados)."
            )
        else:
            self.succeeded.emit(result)
        finally:
            importer.release_connection()  # this thread's own connection


class ImportDialog(QDialog):
    """The import wizard. ``store``: the JSON file where the mappings used are remembered."""

    PAGE_FILE, PAGE_MAPPING, PAGE_PREVIEW, PAGE_RUNNING, PAGE_DONE = range(5)
    imported = Signal(object)

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        store: Path | None = None,
        key_dir: Path | None = None,
        today: _dt.date | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Importar ambulantes"))
        self.setMinimumSize(820, 560)
        self.store = Path(store) if store else None
        self.key_dir = key_dir
        self.today = today or _dt.date.today()
        self.sheet: importer.Sheet | None = None
        self.preview: importer.Preview | None = None
        self.import_result: importer.ImportResult | None = None
        self.worker: ImportWorker | None = None
        self.combos: dict[str, QComboBox] = {}

        layout = QVBoxLayout(self)
        self.steps = QLabel()
        self.steps.setObjectName("steps")
        layout.addWidget(self.steps)
        self.stack = QStackedWidget()
        layout.addWidget(self.stack, 1)
        self.stack.addWidget(self._file_page())
        self.stack.addWidget(self._mapping_page())
        self.stack.addWidget(self._preview_page())
        self.stack.addWidget(self._running_page())
        self.stack.addWidget(self._done_page())

        self.error = error_label()
        layout.addWidget(self.error)

        bar = QHBoxLayout()
        self.back_button = QPushButton(self.tr("< Voltar"))
        self.back_button.clicked.connect(self.go_back)
        self.next_button = QPushButton(self.tr("Avançar >"))
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self.go_next)
        self.close_button = QPushButton(self.tr("Fechar"))
        self.close_button.clicked.connect(self.reject)
        bar.addStretch(1)
        bar.addWidget(self.back_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.close_button)
        layout.addLayout(bar)
        self._show(self.PAGE_FILE)

    # -- pages -------------------------------------------------------------
    def _file_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        intro = wrapped_label(
            self.tr(
                "Escolha a planilha com a lista de ambulantes do município (.xlsx ou .csv separado por ; ou ,). "
                "A primeira linha preenchida deve ser o cabeçalho com o nome de cada coluna. Nada é gravado antes "
                "da sua confirmação, depois da conferência de cada linha."
            )
        )
        layout.addWidget(intro)
        row = QHBoxLayout()
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText(self.tr("/caminho/para/ambulantes.xlsx"))
        self.path_edit.returnPressed.connect(self.go_next)
        browse = QPushButton(self.tr("Escolher…"))
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        layout.addLayout(row)
        layout.addStretch(1)
        return page

    def _mapping_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.file_label = wrapped_label()
        layout.addWidget(self.file_label)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        inner = QWidget()
        columns = QHBoxLayout(inner)
        vendor_box = QGroupBox(self.tr("Ambulante (pessoa ou empresa)"))
        permit_box = QGroupBox(self.tr("Permissão (opcional)"))
        forms = {"vendor": QFormLayout(vendor_box), "permit": QFormLayout(permit_box)}
        for f in importer.FIELDS:
            combo = QComboBox()
            combo.setObjectName(f"column-{f.key}")
            label = f.label + (f" ({f.hint})" if f.hint else "")
            forms[f.group].addRow(label + ":", combo)
            self.combos[f.key] = combo
        self.regime_combo = QComboBox()
        self.regime_combo.setObjectName("default-regime")
        self.regime_combo.addItem(self.tr("— o da coluna —"), FROM_COLUMN)
        self.regimes = in_background(working_regimes)
        for regime in sorted(self.regimes.values(), key=lambda r: r.id):
            self.regime_combo.addItem(f"{regime.municipality}/{regime.state} — {regime.short} ({regime.id})", regime.id)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("default-kind")
        self.regime_combo.currentIndexChanged.connect(self._fill_kinds)
        forms["permit"].addRow(QLabel(self.tr("Para todas as linhas:")))
        forms["permit"].addRow(self.tr("Regime:"), self.regime_combo)
        forms["permit"].addRow(self.tr("Tipo de permissão:"), self.kind_combo)
        note = wrapped_label(
            self.tr(
                "Uma permissão é importada quando a linha tem algum dado dela. Ela recebe um número "
                "novo do Praça; o da planilha fica como número anterior."
            )
        )
        forms["permit"].addRow(note)
        columns.addWidget(vendor_box, 1)
        columns.addWidget(permit_box, 1)
        scroll.setWidget(inner)
        layout.addWidget(scroll, 1)
        row = QHBoxLayout()
        self.load_button = QPushButton(self.tr("Carregar mapeamento…"))
        self.load_button.clicked.connect(self._load_mapping)
        self.save_button = QPushButton(self.tr("Salvar mapeamento…"))
        self.save_button.clicked.connect(self._save_mapping)
        row.addWidget(self.load_button)
        row.addWidget(self.save_button)
        row.addStretch(1)
        layout.addLayout(row)
        self._fill_kinds()
        return page

    def _preview_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.summary = wrapped_label(name="summary")
        layout.addWidget(self.summary)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Linha"),
                self.tr("Situação"),
                self.tr("Nome"),
                self.tr("CPF/CNPJ"),
                self.tr("Cadastro"),
                self.tr("Motivo"),
            ]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        self.mode_good = QRadioButton(self.tr("Importar as linhas corretas e deixar de fora as com problemas"))
        self.mode_all = QRadioButton(self.tr("Tudo ou nada: se alguma linha tem problema, não importar nenhuma"))
        self.mode_good.setChecked(True)
        group = QButtonGroup(page)
        group.addButton(self.mode_good)
        group.addButton(self.mode_all)
        self.mode_good.toggled.connect(self._update_buttons)
        layout.addWidget(self.mode_good)
        layout.addWidget(self.mode_all)
        return page

    def _running_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.running_label = wrapped_label(
            self.tr(
                "Importando… as linhas são preparadas em lotes e entram todas de uma vez no fim; as outras mesas "
                "continuam trabalhando. Cancelar desfaz tudo."
            )
        )
        layout.addWidget(self.running_label)
        self.progress = QProgressBar()
        layout.addWidget(self.progress)
        self.cancel_button = QPushButton(self.tr("Cancelar"))
        self.cancel_button.clicked.connect(self.cancel_import)
        layout.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        return page

    def _done_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.result_label = wrapped_label(name="result")
        layout.addWidget(self.result_label)
        layout.addStretch(1)
        return page

    # -- navigation ----------------------------------------------------------
    def _show(self, page: int) -> None:
        self.stack.setCurrentIndex(page)
        names = [self.tr("1. Arquivo"), self.tr("2. Colunas"), self.tr("3. Conferência"), self.tr("4. Importação")]
        current = min(page, 3)
        self.steps.setText("  ›  ".join(f"<b>{n}</b>" if i == current else n for i, n in enumerate(names)))
        self._update_buttons()

    @Slot()
    def _update_buttons(self) -> None:
        page = self.stack.currentIndex()
        self.back_button.setVisible(page in (self.PAGE_MAPPING, self.PAGE_PREVIEW))
        self.next_button.setVisible(page in (self.PAGE_FILE, self.PAGE_MAPPING, self.PAGE_PREVIEW))
        self.close_button.setEnabled(page != self.PAGE_RUNNING)
        texts = {
            self.PAGE_FILE: self.tr("Avançar >"),
            self.PAGE_MAPPING: self.tr("Conferir as linhas >"),
            self.PAGE_PREVIEW: self.tr("Importar"),
        }
        self.next_button.setText(texts.get(page, ""))
        enabled = True
        if page == self.PAGE_PREVIEW and self.preview is not None:
            enabled = bool(self.preview.ok_rows) and not (self.mode_all.isChecked() and self.preview.bad_rows)
        self.next_button.setEnabled(enabled)

    def go_back(self) -> None:
        self.error.clear()
        self._show(max(self.stack.currentIndex() - 1, self.PAGE_FILE))

    def go_next(self) -> None:
        self.error.clear()
        page = self.stack.currentIndex()
        if page == self.PAGE_FILE:
            self.open_file(self.path_edit.text().strip())
        elif page == self.PAGE_MAPPING:
            self.check_rows()
        elif page == self.PAGE_PREVIEW:
            self.start_import()

    def _browse(self) -> None:
        path, _ = open_file_name(
            self, self.tr("Lista de ambulantes"), "", self.tr("Planilhas (*.xlsx *.csv);;Todos (*)")
        )
        if path:
            self.path_edit.setText(path)
            self.open_file(path)

    # -- step 1: the file ----------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        if not str(path).strip():
            self.error.setText(self.tr("Escolha a planilha."))
            return False
        self.path_edit.setText(str(path))
        with user_errors(self.error) as refused:
            sheet = self.sheet = importer.read_sheet(path)
        if refused:
            return False
        mapping = importer.recall_mapping(self.store, sheet.headers) if self.store else None
        remembered = mapping is not None
        self.set_mapping(mapping or importer.guess_mapping(sheet.headers))
        how = (
            self.tr("o mapeamento usado da última vez com este cabeçalho")
            if remembered
            else self.tr("as colunas reconhecidas pelo nome; confira")
        )
        self.file_label.setText(
            fill(
                self.tr("%1: %2 linhas de dados, %3 colunas. Abaixo, %4."),
                sheet.name,
                len(sheet.rows),
                len(sheet.headers),
                how,
            )
        )
        self._show(self.PAGE_MAPPING)
        return True

    # -- step 2: the mapping ---------------------------------------------------
    def _fill_kinds(self) -> None:
        self.kind_combo.clear()
        self.kind_combo.addItem(self.tr("— o da coluna —"), FROM_COLUMN)
        regime_id = self.regime_combo.currentData()
        if regime_id:
            for kind in self.regimes[regime_id].permit_kinds:
                self.kind_combo.addItem(kind.label, kind.id)

    def set_mapping(self, mapping: importer.Mapping) -> None:
        headers = self.sheet.headers if self.sheet else []
        for key, combo in self.combos.items():
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(self.tr("— não importar —"), NOT_MAPPED)
            for header in headers:
                combo.addItem(header, header)
            index = combo.findData(mapping.columns.get(key, NOT_MAPPED))
            combo.setCurrentIndex(max(index, 0))
            combo.blockSignals(False)
        regime = mapping.defaults.get("regime", FROM_COLUMN)
        index = self.regime_combo.findData(regime)
        self.regime_combo.setCurrentIndex(max(index, 0))
        self._fill_kinds()
        index = self.kind_combo.findData(mapping.defaults.get("permit_kind", FROM_COLUMN))
        self.kind_combo.setCurrentIndex(max(index, 0))

    def mapping(self) -> importer.Mapping:
        columns = {key: combo.currentData() for key, combo in self.combos.items() if combo.currentData()}
        defaults = {}
        if self.regime_combo.currentData():
            defaults["regime"] = self.regime_combo.currentData()
        if self.kind_combo.currentData():
            defaults["permit_kind"] = self.kind_combo.currentData()
        return importer.Mapping(columns, defaults)

    def _load_mapping(self) -> None:
        path, _ = open_file_name(self, self.tr("Carregar mapeamento"), "", self.tr("Mapeamento (*.json);;Todos (*)"))
        if not path:
            return
        with user_errors(self.error) as refused:
            mapping = importer.load_mapping(path)
            if self.sheet is not None:
                missing = [h for h in mapping.columns.values() if h not in self.sheet.headers]
                if missing:
                    raise UserError(fill(self.tr("Esta planilha não tem a coluna %1 do mapeamento."), repr(missing[0])))
        if refused:
            return
        self.set_mapping(mapping)

    def _save_mapping(self) -> None:
        path, _ = save_file_name(self, self.tr("Salvar mapeamento"), "mapeamento.json", self.tr("Mapeamento (*.json)"))
        if not path:
            return
        with user_errors(self.error):
            importer.save_mapping(path, self.mapping())

    # -- step 3: the preview ---------------------------------------------------
    def check_rows(self) -> bool:
        if self.sheet is None:
            return False
        sheet, mapping, today = self.sheet, self.mapping(), self.today
        with user_errors(self.error) as refused:  # checked against the registry on a worker (issue 27 §5)
            self.preview = in_background(
                lambda: importer.preview_import(sheet, mapping, today=today),
                busy=(self.back_button, self.next_button),
            )
        if refused:
            return False
        if self.store:
            importer.remember_mapping(self.store, self.sheet.headers, mapping)
        self._fill_table()
        self._show(self.PAGE_PREVIEW)
        return True

    def _fill_table(self) -> None:
        preview = self.preview
        if preview is None:
            return
        rows = preview.rows
        self.summary.setText(preview.summary() + ".")
        self.table.setRowCount(len(rows))
        red, pink = QBrush(theme.qcolour("error")), QBrush(theme.qcolour("error_background"))
        for i, row in enumerate(rows):
            kind = row.kind_label + (self.tr(" + permissão") if row.permit is not None else "")
            values = [
                str(row.line),
                self.tr("ok") if row.ok else self.tr("com problema"),
                row.name,
                row.document,
                kind,
                row.reason,
            ]
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column == 0:
                    item.setData(Qt.ItemDataRole.UserRole, row.line)
                if not row.ok:
                    item.setForeground(red)
                    item.setBackground(pink)
                    item.setToolTip(row.reason)
                self.table.setItem(i, column, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)

    # -- step 4: the import ----------------------------------------------------
    def start_import(self) -> bool:
        if self.preview is None:
            return False
        good = self.preview.ok_rows
        permits = sum(1 for r in good if r.permit is not None)
        question = fill(
            self.tr("Importar %1 linhas (%2 com permissão) de %3, de uma só vez?"),
            len(good),
            permits,
            self.preview.sheet.name,
        )
        if self.preview.bad_rows:
            question += " " + fill(self.tr("As %1 linhas com problema ficam de fora."), len(self.preview.bad_rows))
        answer = QMessageBox.question(
            self,
            self.tr("Importar ambulantes"),
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.progress.setRange(0, len(good))
        self.progress.setValue(0)
        self.cancel_button.setEnabled(True)
        self._show(self.PAGE_RUNNING)
        self.worker = ImportWorker(
            self.preview, all_or_nothing=self.mode_all.isChecked(), key_dir=self.key_dir, today=self.today
        )
        self.worker.progressed.connect(self._progressed)
        self.worker.succeeded.connect(self._succeeded)
        self.worker.failed.connect(self._failed)
        self.worker.finished.connect(self._worker_done)
        self.worker.start()
        return True

    def cancel_import(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.running_label.setText(self.tr("Cancelando… nada será gravado."))

    def _progressed(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    def _succeeded(self, result: importer.ImportResult) -> None:
        self.import_result = result
        say(self.result_label, result.text())
        self._show(self.PAGE_DONE)
        self.imported.emit(result)

    def _failed(self, message: str) -> None:
        say(self.result_label, message, error=True)
        self._show(self.PAGE_DONE)

    def _worker_done(self) -> None:
        self.worker = None

    def reject(self) -> None:
        if self.worker is not None:  # never leave a transaction running behind a closed window
            return
        super().reject()

    def closeEvent(self, event) -> None:  # Qt's name
        if self.worker is not None:
            event.ignore()
            return
        super().closeEvent(event)
