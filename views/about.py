"""Ajuda → Sobre: version, Qt, the acts loaded and the database in use."""

from __future__ import annotations

import html

import PySide6
from PySide6.QtCore import QCoreApplication, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from models.store.db import current_url
from views import theme
from views.blocks import fill, wrapped_label
from views.regime_list import regime_titles


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Sobre o Praça"))
        layout = QVBoxLayout(self)
        acts = "".join(f"<li>{html.escape(t)}</li>" for t in regime_titles())
        url = current_url()
        text = self.tr(
            "<h2>Praça %1</h2>"
            "<p>Comércio em espaço público para prefeituras: atendimento, mapas de bancas, "
            "cobrança e fiscalização.</p>"
            "<p><b>Atos carregados:</b></p><ul>%2</ul>"
            "<p><b>Banco de dados:</b> %3</p>"
            "<p style='color:%6'>Qt %4 · PySide6 %5</p>"
        )
        text = fill(
            text,
            html.escape(QCoreApplication.applicationVersion()),
            acts,
            html.escape(url.display() if url else "—"),
            qVersion(),
            PySide6.__version__,
            theme.colour("muted"),
        )
        self.label = wrapped_label(text, name="about-text")
        layout.addWidget(self.label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.buttons = buttons
