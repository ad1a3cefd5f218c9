"""The Seleção page: the call, draw, draws, appeals and rotation tabs."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtWidgets import (
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.rules.regimes import get_regime
from models.selection.draws import get_draw
from models.selection.publications import has_appeals
from views.blocks import fill
from views.selection.appeals_tab import AppealsTab
from views.selection.call_tab import CallTab
from views.selection.draw_tab import DrawTab
from views.selection.draws_tab import DrawsTab
from views.selection.rotation_tab import RotationTab


class SelectionPage(QWidget):
    def __init__(self, parent: QWidget | None = None, *, key_dir=None, today: _dt.date | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        heading = QLabel(self.tr("Seleção"))
        heading.setObjectName("heading")
        heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        layout.addWidget(heading)
        self.tabs = QTabWidget()
        self.call = CallTab(today=today)
        self.appeals = AppealsTab(self.call)
        self.draw = DrawTab(self.call)
        self.rotation = RotationTab(self.call)
        self.draws = DrawsTab(key_dir=key_dir, today=today)
        for tab in (self.call, self.appeals, self.draw, self.rotation, self.draws):
            self.tabs.addTab(tab, "")
        self._name_tabs()
        layout.addWidget(self.tabs, 1)
        self.draw.drawn.connect(self._drawn)
        self.draws.replace_requested.connect(self._replace)
        self.tabs.currentChanged.connect(self._tab_shown)
        self.call.regime.currentIndexChanged.connect(lambda _i: self._name_tabs())
        self.call.list_changed.connect(self._name_tabs)
        self.appeals.changed.connect(self.call.refresh_list)

    def _name_tabs(self) -> None:
        """Only the steps the act has: appeals before the draw (Sapezal art. 10, §§ 4º–5º), the rotating list after
        it (Ilha Comprida art. 21, § 1º)."""
        regime = self.call.regime_id()
        appeals = bool(regime) and has_appeals(regime)
        selection = get_regime(regime).selection if regime else None
        rotating = selection is not None and selection.method == "rotating-draw"
        self.tabs.setTabVisible(self.tabs.indexOf(self.appeals), appeals)
        self.tabs.setTabVisible(self.tabs.indexOf(self.rotation), rotating)
        names: list[tuple[QWidget, str]] = [(self.call, self.tr("Chamamento e lista"))]
        if appeals:
            names.append((self.appeals, self.tr("Recursos e lista definitiva")))
        names.append((self.draw, self.tr("Sorteio")))
        if rotating:
            names.append((self.rotation, self.tr("Lista corrida e pontos")))
        for number, (tab, name) in enumerate(names, start=1):
            self.tabs.setTabText(self.tabs.indexOf(tab), f"{number}. {name}")
        self.tabs.setTabText(self.tabs.indexOf(self.draws), self.tr("Sorteios realizados"))

    def refresh(self) -> None:
        self.call.refresh()
        self._name_tabs()
        self.draw.refresh()
        self.draws.refresh()

    def _tab_shown(self, _index: int) -> None:
        current = self.tabs.currentWidget()
        if current is self.call:
            self.call.refresh_list()
        elif current is self.appeals:
            self.appeals.refresh()
        elif current is self.rotation:
            self.rotation.refresh()
        elif current is self.draws:
            self.draws.refresh()

    def _drawn(self, draw_id: int) -> None:
        self.draws.refresh()
        self.draws.select_draw(draw_id)
        self.draws.message.setText(self.draw.message.text())
        self.tabs.setCurrentWidget(self.draws)

    def _replace(self, draw_id: int) -> None:
        """Prepare a new draw in place of an annulled one: the same regime and place, the same act's data."""
        old = get_draw(draw_id)
        try:
            self.call.set_call(old.regime, old.site)
        except KeyError:
            self.draws.message.setText(fill(self.tr("O regime %1 não está mais disponível."), old.regime))
            return
        self.draw.call_text.setText(old.call)
        self.draw.call_text.setModified(True)
        self.draw.place.setText(old.place)
        self.draw.officials.setPlainText(old.officials)
        self.draw.vacancies.setText(self._vacancies_text(old.vacancies_value))
        self.draw.set_replacing(draw_id)
        self.tabs.setCurrentWidget(self.call)

    @staticmethod
    def _vacancies_text(value) -> str:
        if isinstance(value, dict):
            return ",".join(f"{g}={n}" for g, n in sorted(value.items()))
        return str(value)
