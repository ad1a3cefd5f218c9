"""Cadastros → Regimes: each act in readable form, every rule with its article."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models.errors import UserError
from models.fiscal import unit_value_rows
from models.regimes import shipped_regimes
from reports.pdf import html_to_pdf
from reports.regime_sheet import regime_html
from views import theme


class RegimesPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)

        self.list = QListWidget()
        self.list.setObjectName("regime-list")
        self.list.setMinimumWidth(220)
        self.list.setMaximumWidth(300)
        self.list.setSpacing(3)
        self.browser = QTextBrowser()
        self.browser.setObjectName("regime-text")
        theme.paper(self.browser)  # the act's text as printed (regime.html.j2), also on a dark palette
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(lambda url: self.browser.scrollToAnchor(url.fragment()))

        self.find_edit = QLineEdit()
        self.find_edit.setObjectName("find")
        self.find_edit.setPlaceholderText(self.tr("Procurar no regime (artigo, palavra…) — Enter para o próximo"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.textEdited.connect(lambda _t: self.find(restart=True))
        self.find_edit.returnPressed.connect(lambda: self.find(restart=False))
        self.find_status = QLabel()
        self.pdf_button = QPushButton(self.tr("Salvar em PDF…"))
        self.pdf_button.clicked.connect(self.save_pdf)
        tools = QHBoxLayout()
        tools.addWidget(self.find_edit, 1)
        tools.addWidget(self.find_status)
        tools.addWidget(self.pdf_button)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(tools)
        right_layout.addWidget(self.browser, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)

        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.find_edit.setFocus)
        self.list.currentItemChanged.connect(lambda *_: self.show_current())
        self.regimes = {}

    def refresh(self) -> None:
        current = self.current_id()
        try:
            self.regimes = shipped_regimes()
        except UserError as exc:
            self.error.setText(exc.message)
            self.error.show()
            self.regimes = {}
        else:
            self.error.hide()
        self.list.blockSignals(True)
        self.list.clear()
        for regime in sorted(self.regimes.values(), key=lambda r: r.municipality):
            item = QListWidgetItem(f"{regime.municipality}/{regime.state}\n{regime.short}")
            item.setData(Qt.ItemDataRole.UserRole, regime.id)
            item.setToolTip(regime.act)
            self.list.addItem(item)
        self.list.blockSignals(False)
        ids = [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]
        self.list.setCurrentRow(ids.index(current) if current in ids else (0 if ids else -1))
        self.show_current()

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def select(self, regime_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == regime_id:
                self.list.setCurrentRow(row)
                return
        raise KeyError(regime_id)

    def show_current(self) -> None:
        regime = self.regimes.get(self.current_id() or "")
        if regime is None:
            self.browser.clear()
            return
        rows = [row for unit in regime.units for row in unit_value_rows(unit.code)]
        self.browser.setHtml(regime_html(regime, rows))
        self.find_status.clear()

    def find(self, *, restart: bool) -> bool:
        text = self.find_edit.text()
        if not text:
            self.find_status.clear()
            return False
        if restart:
            cursor = self.browser.textCursor()
            cursor.movePosition(cursor.MoveOperation.Start)
            self.browser.setTextCursor(cursor)
        found = self.browser.find(text)
        if not found and not restart:  # wrap around
            cursor = self.browser.textCursor()
            cursor.movePosition(cursor.MoveOperation.Start)
            self.browser.setTextCursor(cursor)
            found = self.browser.find(text)
        self.find_status.setText("" if found else self.tr("não encontrado"))
        return found

    def save_pdf(self) -> None:
        regime_id = self.current_id()
        if not regime_id:
            return
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Salvar regime em PDF"), f"{regime_id}.pdf",
                                              self.tr("PDF (*.pdf)"))
        if path:
            self.write_pdf(path)

    def write_pdf(self, path: str) -> None:
        regime = self.regimes.get(self.current_id() or "")
        html_to_pdf(self.browser.toHtml(), path, title=regime.title if regime else "")
