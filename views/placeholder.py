"""A desk that is not built yet: its title and what it will hold."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class PlaceholderPage(QWidget):
    def __init__(self, title: str, description: str, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 28, 32, 28)
        heading = QLabel(title)
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        text = QLabel(description)
        text.setWordWrap(True)
        text.setStyleSheet("font-size: 11pt;")
        soon = QLabel(self.tr("Esta mesa está em construção."))
        soon.setObjectName("soon")
        layout.addWidget(heading)
        layout.addWidget(text)
        layout.addSpacing(12)
        layout.addWidget(soon)
        layout.addStretch(1)
        layout.setAlignment(Qt.AlignmentFlag.AlignTop)
