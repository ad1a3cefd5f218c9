"""Where the act is silent (issue 28 §2): a group that shows each point with its readings and asks the reason of
the one the authority chooses — on the infraction record and at the draw."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QWidget

from models.base.errors import UserError
from models.rules.regimes import get_regime
from models.rules.silences import Choice, points_at
from views.blocks import fill


class ReadingsBox(QGroupBox):
    """One row per point (question and articles), a combo of its readings — the declared one first, applied until
    the authority chooses — and the reason of the reading chosen. Hidden when the act declares no point here."""

    changed = Signal()

    def __init__(self, where: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.where = where
        self.setTitle(self.tr("Pontos em que o ato silencia — leitura da autoridade"))
        self.setObjectName("readings")
        self.form = QFormLayout(self)
        self.combos: dict[str, QComboBox] = {}
        self.reasons: dict[str, QLineEdit] = {}
        self.setVisible(False)

    def choices(self, by: str = "") -> dict[str, Choice]:
        """The readings chosen (a combo moved off the declared one), each with the reason typed."""
        return {
            point: Choice(combo.currentData(), self.reasons[point].text(), by)
            for point, combo in self.combos.items()
            if combo.currentIndex() > 0
        }

    def show_points(self, regime_id: str, *, codes=None, chosen=None, keep: bool = False, regime=None) -> None:
        """The points of ``regime_id`` at this place (for a penalty: those of the infractions ``codes``);
        ``keep``: when they are the ones shown, nothing changes (what was chosen and typed stays). ``regime``: the
        act itself when the screen read it off the GUI thread (issue 27 §5), else it is looked up by its id."""
        if regime is None:
            try:
                regime = get_regime(regime_id) if regime_id else None
            except UserError:
                regime = None
        points = points_at(regime, self.where, codes=codes) if regime is not None else ()
        if keep and tuple(p.id for p in points) == tuple(self.combos):
            return
        if keep:
            typed = {p: Choice("", r.text()) for p, r in self.reasons.items()}
            chosen = {**typed, **(chosen or self.choices())}
        while self.form.rowCount():
            self.form.removeRow(0)
        self.combos, self.reasons = {}, {}
        for point in points:
            assert regime is not None
            cited_point = regime.cite(point.basis, point.basis_act)
            question = QLabel(f"<b>{escape(point.question)}</b> ({escape(cited_point)})")
            question.setWordWrap(True)
            self.form.addRow(question)
            # the combo names each reading shortly ("Leitura 2"); the whole text and its source are read below it
            combo = QComboBox()
            combo.setObjectName(f"reading-{point.id}")
            shown = QLabel()
            shown.setObjectName(f"reading-text-{point.id}")
            shown.setWordWrap(True)
            texts = [fill(self.tr("Leitura declarada, aplicada até a escolha: %1"), point.default.text)]
            combo.addItem(self.tr("Leitura declarada (até a escolha)"), "")
            for number, reading in enumerate(point.readings, start=1):
                cited = "; ".join(p for p in (regime.cite(reading.basis) if reading.basis else "", reading.source) if p)
                combo.addItem(fill(self.tr("Leitura %1"), number), reading.id)
                combo.setItemData(combo.count() - 1, f"{reading.text}\n{cited}", Qt.ItemDataRole.ToolTipRole)
                texts.append(f"{reading.text} — {cited}")
            combo.currentIndexChanged.connect(lambda i, label=shown, t=texts: label.setText(t[max(i, 0)]))
            reason = QLineEdit()
            reason.setObjectName(f"reading-reason-{point.id}")
            reason.setPlaceholderText(self.tr("motivo da leitura escolhida"))
            given = (chosen or {}).get(point.id)
            if given is not None:
                combo.setCurrentIndex(max(combo.findData(given.reading), 0))
                reason.setText(given.reason)
            combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
            reason.textChanged.connect(lambda _t: self.changed.emit())
            self.combos[point.id] = combo
            self.reasons[point.id] = reason
            shown.setText(texts[max(combo.currentIndex(), 0)])
            self.form.addRow(self.tr("Leitura:"), combo)
            self.form.addRow("", shown)
            self.form.addRow(self.tr("Motivo:"), reason)
        self.setVisible(bool(points))
