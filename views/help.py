"""The offline help (issue 31 §3): the Portuguese guides bundled in resources/help (generated from docs/ajuda by
desktop/help_build.py), shown in a window of their own — F1 opens the guide of the desk in use, Ajuda → Guias das
mesas lists them all (views/help_index.py). Nothing is fetched: the pages are files of the installed Praça."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QListWidget, QTextBrowser, QVBoxLayout, QWidget

from views.help_index import HELP_DIR, HOME, help_pages


class HelpWindow(QDialog):
    """The guides: their list on the left, the page on the right; links between guides are followed here, links
    to the web open in the browser."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("help-window")
        self.setWindowTitle(self.tr("Ajuda do Praça"))
        self.pages = help_pages()
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.list = QListWidget()
        self.list.setObjectName("help-list")
        self.list.setFixedWidth(200)
        self.list.setSpacing(3)
        for page in self.pages:
            self.list.addItem(page.title)
        row.addWidget(self.list)
        self.browser = QTextBrowser()
        self.browser.setObjectName("help-browser")
        self.browser.setOpenExternalLinks(True)
        self.browser.setSearchPaths([str(HELP_DIR)])
        row.addWidget(self.browser, 1)
        layout.addLayout(row, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self._row_chosen)
        self.browser.sourceChanged.connect(self._followed)
        self.resize(960, 640)
        self.key = ""

    def show_page(self, key: str) -> None:
        """The guide ``key`` (a desk's key: ``atendimento``…), or the Painel's when there is none."""
        keys = [p.key for p in self.pages]
        if key not in keys:
            key = HOME if HOME in keys else (keys[0] if keys else "")
        if not key:
            self.browser.setPlainText(self.tr("A ajuda não foi instalada com este Praça."))
            return
        self.list.setCurrentRow(keys.index(key))

    def _row_chosen(self, row: int) -> None:
        if 0 <= row < len(self.pages):
            page = self.pages[row]
            if page.key != self.key:
                self.key = page.key
                self.browser.setSource(QUrl.fromLocalFile(str(page.path)))

    def _followed(self, url: QUrl) -> None:
        """A link to another guide was followed: the list shows which."""
        stem = Path(url.toLocalFile()).stem
        keys = [p.key for p in self.pages]
        if stem in keys and stem != self.key:
            self.key = stem
            self.list.setCurrentRow(keys.index(stem))
