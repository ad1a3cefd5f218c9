"""The keyboard of a search list (issue 18 §5): Down in the search box goes into the results (the first one
selected), Enter in the results opens the one selected — the same on every desk."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QLineEdit


class _SearchKeys(QObject):
    def __init__(self, edit: QLineEdit, view: QAbstractItemView, open_selected: Callable[[], object] | None):
        super().__init__(edit)
        self.edit, self.view, self.open_selected = edit, view, open_selected

    def eventFilter(self, watched, event) -> bool:  # Qt's name
        if event.type() != QEvent.Type.KeyPress:
            return False
        key = event.key()
        if watched is self.edit and key == Qt.Key.Key_Down:
            model = self.view.model()
            if model is None or model.rowCount() == 0:
                return False
            self.view.setFocus()
            if not self.view.currentIndex().isValid() or not self.view.selectionModel().hasSelection():
                self.view.setCurrentIndex(model.index(0, 0))
                if hasattr(self.view, "selectRow"):
                    self.view.selectRow(0)
            return True
        if watched is self.view and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.open_selected is not None:
            if self.view.currentIndex().isValid():
                self.open_selected()
                return True
        return False


def search_keys(edit: QLineEdit, view: QAbstractItemView, open_selected: Callable[[], object] | None = None) -> None:
    """Down from ``edit`` into ``view``; Enter in ``view`` calls ``open_selected()``."""
    keys = _SearchKeys(edit, view, open_selected)
    edit.installEventFilter(keys)
    view.installEventFilter(keys)
