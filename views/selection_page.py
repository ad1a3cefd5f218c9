"""Seleção: the call and its participants, the public draw, the draws kept, and the holders' permits and stalls.

Every decision is the domain's: :mod:`models.calls` gathers the participants
(debts, scores line by line, payment time), :mod:`models.selection` makes the
list and its SHA-256, :mod:`models.draws` holds and annuls the draw,
:mod:`reports.draw_ata` prints the ata. The screen shows what they say — the
article of each decision — and the domain's one-line refusals.
"""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models import describe
from models.calls import (
    CallList,
    assign_stalls,
    call_list,
    default_call_text,
    draw_holders,
    draw_rows,
    draw_sites,
    group_options,
    issue_holder_permits,
    method_text,
    selection_regimes,
    site_options,
    stall_choices,
)
from models.draws import annul_draw, draw_entries, get_draw, hold_draw
from models.errors import FieldErrors, UserError
from models.money import format_brl
from models.regimes import get_regime
from models.selection import parse_vacancies
from views.table_models import Column, RowsModel
from views.widgets import FieldErrorsView, current_user_name

MONO = "font-family: monospace;"
ERROR_COLOUR = "#b00020"


def _when(value: _dt.datetime | None) -> str:
    return value.strftime("%d/%m/%Y %H:%M:%S") if value else ""


def _table(view: QTableView, model, stretch: tuple[int, ...] = ()) -> QTableView:
    view.setModel(model)
    view.verticalHeader().hide()
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.setWordWrap(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    for column in stretch:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    return view


def _message_line(name: str = "message") -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


# --------------------------------------------------------------------------- 1. the call and its list


class CallTab(QWidget):
    """Choose the call, see who takes part (debts, scores, payment time) and publish the list with its SHA-256."""

    list_changed = Signal()
    POINTS, PAYMENT, MARKS = 5, 6, 8  # columns shown only where the act uses them

    def __init__(self, parent: QWidget | None = None, *, today: _dt.date | None = None):
        super().__init__(parent)
        self._today = today
        self.current: CallList | None = None
        self.marks: dict[str, dict] = {}  # protocol → {"preference": id, "quota": bool}
        self.published: tuple[str, _dt.datetime, str] | None = None  # (sha256, when, where) of this session
        layout = QVBoxLayout(self)

        row = QHBoxLayout()
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        self.site = QComboBox()
        self.site.setObjectName("site")
        self.site.setEditable(True)
        self.site.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.site.setMinimumWidth(260)
        self.site.lineEdit().setPlaceholderText(self.tr("todos os locais, ou digite o local/evento"))
        self.group = QComboBox()
        self.group.setObjectName("group")
        self.group.setMinimumWidth(200)
        for label, widget, stretch in ((self.tr("&Regime:"), self.regime, 2), (self.tr("&Local/evento:"), self.site, 2),
                                       (self.tr("&Grupo/ramo:"), self.group, 2)):
            caption = QLabel(label)
            caption.setBuddy(widget)
            row.addWidget(caption)
            row.addWidget(widget, stretch)
        layout.addLayout(row)
        self.method = QLabel()
        self.method.setObjectName("method")
        self.method.setWordWrap(True)
        self.method.setStyleSheet("color: #333;")
        layout.addWidget(self.method)

        self.model = RowsModel([
            Column(self.tr("Class."), self._order_text, right=True),
            (self.tr("Protocolo"), lambda c: c.protocol),
            (self.tr("Requerente"), lambda c: c.applicant),
            Column(self.tr("Grupo/ramo"), lambda c: c.group_short, tooltip=lambda c: c.group_label or None),
            (self.tr("Situação"), lambda c: c.status_label),
            Column(self.tr("Pontos"), self._points_text, right=True,
                   tooltip=lambda c: self.tr("Dados faltando: veja o detalhe.")
                   if c.score is not None and not c.score.complete else None),
            (self.tr("Pagamento"), lambda c: _when(c.participant.paid_at) or c.paid_at_text),
            Column(self.tr("Débitos"), lambda c: self.tr("em débito") if c.debts else self.tr("nenhum"),
                   tooltip=lambda c: c.debt_text or None),
            (self.tr("Marcas"), self._marks_text),
            Column(self.tr("Na lista"), lambda c: self.tr("excluído") if c.excluded else self.tr("sim"),
                   tooltip=lambda c: c.excluded or None),
        ], self)
        self.table = _table(QTableView(), self.model, stretch=(2,))
        self.table.setObjectName("participants")
        self.detail = QLabel()
        self.detail.setObjectName("detail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setMargin(6)
        self.detail.setStyleSheet("background: #fafafa;")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.detail)
        scroll.setMinimumWidth(340)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([640, 380])
        layout.addWidget(split, 1)

        marks = QHBoxLayout()
        self.preference_button = QPushButton(self.tr("&Preferência…"))
        self.preference_button.setObjectName("preference")
        self.preference_button.setToolTip(self.tr("A preferência que o ato dá a este participante (decisão da "
                                                  "comissão; entra na lista e no hash)"))
        self.quota_button = QPushButton(self.tr("C&ota"))
        self.quota_button.setObjectName("quota")
        self.quota_button.setCheckable(True)
        self.quota_button.setToolTip(self.tr("Beneficiário da cota (comprovado na análise; entra na lista e no hash)"))
        marks.addWidget(self.preference_button)
        marks.addWidget(self.quota_button)
        marks.addStretch(1)
        self.count = QLabel()
        self.count.setObjectName("count")
        marks.addWidget(self.count)
        layout.addLayout(marks)

        box = QGroupBox(self.tr("Lista de participantes a publicar antes do sorteio"))
        box_layout = QHBoxLayout(box)
        self.hash_label = QLabel()
        self.hash_label.setObjectName("list-hash")
        self.hash_label.setWordWrap(True)
        self.hash_label.setTextFormat(Qt.TextFormat.RichText)
        self.hash_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box_layout.addWidget(self.hash_label, 1)
        self.publish_button = QPushButton(self.tr("P&ublicar lista…"))
        self.publish_button.setObjectName("publish")
        self.publish_button.setToolTip(self.tr("Grava a lista em PDF, para imprimir e afixar, e o texto exato que "
                                               "entra no hash (.txt), para conferir o sorteio"))
        box_layout.addWidget(self.publish_button)
        layout.addWidget(box)
        self.message = _message_line()
        layout.addWidget(self.message)

        self.regime.currentIndexChanged.connect(lambda _i: self._regime_changed())
        self.site.activated.connect(lambda _i: self.refresh_list())
        self.site.lineEdit().editingFinished.connect(self._site_typed)
        self.group.currentIndexChanged.connect(lambda _i: self.refresh_list())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self.preference_button.clicked.connect(lambda: self.choose_preference())
        self.quota_button.clicked.connect(lambda checked: self.mark_selected(quota=checked))
        self.publish_button.clicked.connect(lambda: self.publish())
        self._site_text = ""

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    # -- the call ------------------------------------------------------------

    def refresh(self) -> None:
        keep = self.regime.currentData()
        self.regime.blockSignals(True)
        self.regime.clear()
        for regime in selection_regimes():
            self.regime.addItem(f"{regime.municipality}/{regime.state} — {regime.short}", regime.id)
        self.regime.setCurrentIndex(max(0, self.regime.findData(keep)))
        self.regime.blockSignals(False)
        self._regime_changed(keep_choice=True)

    def regime_id(self) -> str:
        return self.regime.currentData() or ""

    def site_value(self) -> str:
        """The site chosen (an act's id or a map site's name) or the place typed."""
        text = self.site.currentText().strip()
        index = self.site.findText(text)
        if index >= 0:
            return self.site.itemData(index) or ""
        return text

    def group_value(self) -> str:
        return self.group.currentData() or ""

    def set_call(self, regime: str, site: str = "", group: str = "") -> None:
        """Choose a call by ids (used by the tests and by "Novo sorteio em substituição")."""
        index = self.regime.findData(regime)
        if index < 0:
            raise KeyError(regime)
        self.regime.blockSignals(True)
        self.regime.setCurrentIndex(index)
        self.regime.blockSignals(False)
        self._fill_choices()
        self.site.blockSignals(True)
        found = self.site.findData(site)
        if found >= 0:
            self.site.setCurrentIndex(found)
        else:
            self.site.setEditText(site)
        self.site.blockSignals(False)
        self.group.blockSignals(True)
        self.group.setCurrentIndex(max(0, self.group.findData(group)))
        self.group.blockSignals(False)
        self.method.setText(method_text(regime))
        self.refresh_list()

    def _fill_choices(self) -> None:
        regime = self.regime_id()
        self.site.blockSignals(True)
        self.group.blockSignals(True)
        self.site.clear()
        self.group.clear()
        self.site.addItem(self.tr("(todos os locais)"), "")
        self.group.addItem(self.tr("(todos)"), "")
        if regime:
            for option in site_options(regime):
                self.site.addItem(option.label, option.value)
            for option in group_options(regime):
                self.group.addItem(option.label, option.value)
        self.site.blockSignals(False)
        self.group.blockSignals(False)

    def _regime_changed(self, *, keep_choice: bool = False) -> None:
        site, group = (self.site_value(), self.group_value()) if keep_choice else ("", "")
        self._fill_choices()
        if keep_choice:
            found = self.site.findData(site)
            if found >= 0:
                self.site.setCurrentIndex(found)
            elif site:
                self.site.setEditText(site)
            self.group.setCurrentIndex(max(0, self.group.findData(group)))
        regime = self.regime_id()
        self.method.setText(method_text(regime) if regime else self.tr("Nenhum regime prevê sorteio."))
        self.refresh_list()

    def _site_typed(self) -> None:
        if self.site.currentText().strip() != self._site_text:
            self.refresh_list()

    def refresh_list(self) -> None:
        """Read the participants again (debts and payments may have changed) and make the list."""
        regime = self.regime_id()
        self._site_text = self.site.currentText().strip()
        keep = self.selected()
        if not regime:
            self.current = None
            self.model.set_rows([])
            self._show_list()
            return
        try:
            self.current = call_list(regime, site=self.site_value(), group=self.group_value(), today=self.today,
                                     marks=self.marks)
        except UserError as exc:
            self.current = None
            self.model.set_rows([])
            self.message.setText(exc.message)
            self._show_list()
            return
        self.model.set_rows(self.current.candidates)
        rules = self.current.rules
        self.preference_button.setVisible(bool(rules.preferences))
        self.quota_button.setVisible(rules.quota_percent is not None)
        # only the columns this act uses: points (scores), payment (payment order), marks (preference, quota)
        self.table.setColumnHidden(self.POINTS, not self.current.scored)
        self.table.setColumnHidden(self.PAYMENT, rules.mode != "payment-time")
        self.table.setColumnHidden(self.MARKS, not rules.preferences and rules.quota_percent is None)
        if keep is not None:
            self.select_protocol(keep.protocol, quiet=True)
        if self.selected() is None and self.model.rows:
            self.table.selectRow(0)
        self._show_selected()
        self._show_list()
        self.list_changed.emit()

    def _order_text(self, c) -> str:
        if c.excluded:
            return "—"
        if c.rank is not None:
            return f"{c.rank}º"
        if self.current is not None and self.current.rules.mode == "payment-time" and c.participant.paid_at:
            listed = [x for x in self.current.candidates if not x.excluded]
            return f"{listed.index(c) + 1}º"
        return ""

    @staticmethod
    def _points_text(c) -> str:
        if c.score is None:
            return ""
        return f"{c.score.total}" + ("" if c.score.complete else " ⚠")

    def _marks_text(self, c) -> str:
        parts = []
        p = c.participant
        if p.preference and self.current is not None:
            labels = {pref.id: pref.label for pref in self.current.rules.preferences}
            parts.append(labels.get(p.preference, p.preference).split(":")[0])
        if p.quota:
            parts.append(self.tr("cota"))
        return ", ".join(parts)

    def _show_list(self) -> None:
        current = self.current
        if current is None or current.published is None:
            problem = current.problem if current is not None else ""
            self.hash_label.setText(self.tr("Sem lista: %1").replace("%1", escape(problem or self.tr(
                "nenhum participante."))))
            self.publish_button.setEnabled(False)
            self.count.setText(self.tr("%1 inscrito(s)").replace("%1", str(len(current.candidates) if current
                                                                         else 0)))
            return
        listed, out = len(current.published.participants), len(current.published.excluded)
        self.count.setText(self.tr("%1 inscrito(s): %2 na lista, %3 excluído(s)")
                           .replace("%1", str(len(current.candidates))).replace("%2", str(listed))
                           .replace("%3", str(out)))
        text = self.tr("SHA-256 da lista (%1 participante(s)):").replace("%1", str(listed))
        text += f"<br><span style='{MONO} font-size: 11pt;'><b>{current.sha256}</b></span><br>"
        if self.published is not None and self.published[0] == current.sha256:
            text += self.tr("Publicada em %1 (%2).").replace("%1", _when(self.published[1])).replace(
                "%2", escape(self.published[2]))
        elif self.published is not None:
            text += (f"<span style='color: {ERROR_COLOUR};'>" + self.tr(
                "A lista mudou desde a publicação de %1: publique-a de novo antes do sorteio.").replace(
                "%1", _when(self.published[1])) + "</span>")
        else:
            text += self.tr("Ainda não publicada nesta sessão: publique e afixe antes de anunciar a semente.")
        self.hash_label.setText(text)
        self.publish_button.setEnabled(True)

    # -- one participant -----------------------------------------------------

    def selected(self):
        index = self.table.currentIndex()
        rows = self.model.rows
        return rows[index.row()] if index.isValid() and index.row() < len(rows) else None

    def select_protocol(self, protocol: str, *, quiet: bool = False) -> bool:
        for row, c in enumerate(self.model.rows):
            if c.protocol == protocol:
                self.table.selectRow(row)
                return True
        if not quiet:
            raise KeyError(protocol)
        return False

    def _show_selected(self) -> None:
        c = self.selected()
        self.preference_button.setEnabled(c is not None)
        self.quota_button.setEnabled(c is not None)
        self.quota_button.setChecked(bool(c and c.participant.quota))
        if c is None:
            self.detail.setText(self.tr("Selecione um participante para ver os débitos, a pontuação linha a linha "
                                        "e a ordem de pagamento."))
            return
        self.detail.setText(self.detail_html(c))

    def detail_html(self, c) -> str:
        out = [f"<b>{escape(c.applicant)}</b> — {escape(c.protocol)} ({escape(c.status_label)})"]
        if c.group:
            out.append(escape(c.group_label or c.group))
        if c.excluded:
            out.append(f"<span style='color: {ERROR_COLOUR};'><b>" + self.tr("Fora da lista:") + "</b> "
                       + escape(c.excluded) + "</span>")
        if c.debts:
            out.append(self.tr("<b>Débitos com o Município:</b>") + "<br>" + "<br>".join(
                escape(f"• {d.description}: {format_brl(d.amount)}")
                for d in c.debts))
        else:
            out.append(self.tr("Sem débitos vencidos nem multas em aberto com o Município."))
        if c.paid_at_text:
            out.append(self.tr("Pagamento: %1").replace("%1", escape(c.paid_at_text)))
        if c.score is not None:
            act = get_regime(self.current.regime_id).short + ", " if self.current is not None else ""
            out.append(self.tr("<b>Pontuação</b> (artigos: %1):").replace("%1", escape(act.rstrip(", "))))
            rows = "".join(
                f"<tr><td>{escape(line.label)}</td><td>{escape(line.value_text)}</td>"
                f"<td align='right'><b>{line.points}</b></td><td>{escape(line.basis.removeprefix(act))}</td></tr>"
                + (f"<tr><td colspan='4' style='color: {ERROR_COLOUR};'>{escape(line.note)}</td></tr>"
                   if line.status != "ok" else "")
                for line in c.score.lines)
            head = (f"<tr><th align='left'>{self.tr('Critério')}</th><th align='left'>{self.tr('Valor')}</th>"
                    f"<th align='right'>{self.tr('Pontos')}</th><th align='left'>{self.tr('Artigo')}</th></tr>")
            out.append(f"<table cellspacing='0' cellpadding='2'>{head}{rows}"
                       f"<tr><td colspan='2'><b>{self.tr('Total')}</b></td>"
                       f"<td align='right'><b>{c.score.total}</b></td><td></td></tr></table>")
            if c.score.on is not None:
                out.append(self.tr("Idade e residência na data da inscrição: %1.").replace(
                    "%1", c.score.on.strftime("%d/%m/%Y")))
            if c.rank is not None:
                place = self.tr("%1º na classificação do grupo").replace("%1", str(c.rank))
                if c.tie_break:
                    place += f" ({escape(c.tie_break)})"
                out.append(place + ".")
            if c.tie_unresolved:
                out.append(f"<span style='color: {ERROR_COLOUR};'>" + self.tr(
                    "Empate em todos os critérios do ato: decidido pelo protocolo; a comissão decide.") + "</span>")
        return "<br>".join(out)

    def choose_preference(self, preference: str | None = None) -> bool:
        """Mark the selected participant's preference (SJC art. 11, § 3º); ``None`` asks from a list."""
        c = self.selected()
        if c is None or self.current is None:
            return False
        prefs = sorted(self.current.rules.preferences, key=lambda p: p.rank)
        if preference is None:
            items = [self.tr("Nenhuma")] + [f"{p.rank}º — {p.label} ({p.basis})" for p in prefs]
            chosen, ok = QInputDialog.getItem(self, self.tr("Preferência"), self.tr("Preferência de %1:").replace(
                "%1", c.applicant), items, 0, False)
            if not ok:
                return False
            index = items.index(chosen)
            preference = prefs[index - 1].id if index > 0 else ""
        return self.mark_selected(preference=preference)

    def mark_selected(self, *, preference: str | None = None, quota: bool | None = None) -> bool:
        c = self.selected()
        if c is None:
            return False
        mark = dict(self.marks.get(c.protocol, {}))
        if preference is not None:
            mark["preference"] = preference
        if quota is not None:
            mark["quota"] = bool(quota)
        self.marks[c.protocol] = mark
        self.refresh_list()
        return True

    # -- publishing ----------------------------------------------------------

    def publish(self, path: str | Path | None = None, call: str = "") -> Path | None:
        """Save the list as PDF (to print and post) and, beside it, the exact text that is hashed (.txt)."""
        from reports.pdf import html_to_pdf

        self.refresh_list()
        current = self.current
        if current is None or current.published is None:
            return None
        if not path:
            suggested = f"lista-sorteio-{current.regime_id}-{self.today:%Y-%m-%d}.pdf"
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Publicar lista de participantes"), suggested,
                                                  self.tr("PDF (*.pdf)"))
            if not path:
                return None
        path = Path(path)
        exact = path.with_suffix(".txt")
        text = current.text(call or default_call_text(current.regime_id, current.site, current.group,
                                                      year=self.today.year))
        html = ("<html><body><pre style='white-space: pre-wrap; font-size: 8pt;'>" + escape(text)
                + "</pre></body></html>")
        try:
            html_to_pdf(html, path, title=self.tr("Lista de participantes do sorteio"))
            exact.write_bytes(current.published.text.encode("utf-8"))
        except OSError as exc:
            self.message.setText(self.tr("Não foi possível gravar %1: %2").replace("%1", str(path))
                                 .replace("%2", exc.strerror or str(exc)))
            return None
        self.published = (current.sha256, _dt.datetime.now().replace(microsecond=0), path.name)
        self.message.setText(self.tr("Lista publicada: SHA-256 %1. PDF em %2; texto exato para conferir em %3.")
                             .replace("%1", current.sha256).replace("%2", str(path)).replace("%3", str(exact)))
        self._show_list()
        self.list_changed.emit()
        return path


# --------------------------------------------------------------------------- 2. the draw


class DrawTab(QWidget):
    """The public act: where, who, how many places, the seed typed in front of everybody — and the draw."""

    drawn = Signal(int)

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.replaces: int | None = None
        self.last_draw = None
        layout = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        form = QFormLayout()
        self.call_text = QLineEdit()
        self.call_text.setObjectName("call")
        self.call_text.setPlaceholderText(self.tr("Edital / chamamento nº …"))
        self.place = QLineEdit()
        self.place.setObjectName("place")
        self.place.setPlaceholderText(self.tr("Onde o sorteio é feito, em público"))
        self.officials = QPlainTextEdit()
        self.officials.setObjectName("officials")
        self.officials.setPlaceholderText(self.tr("Quem conduz e quem testemunha — um por linha"))
        self.officials.setMaximumHeight(90)
        self.vacancies = QLineEdit()
        self.vacancies.setObjectName("vacancies")
        self.vacancies.setMaximumWidth(260)
        self.alternates = QSpinBox()
        self.alternates.setObjectName("alternates")
        self.alternates.setRange(0, 999)
        self.alternates.setMaximumWidth(90)
        self.alternates_basis = QLabel()
        alt_row = QHBoxLayout()
        alt_row.addWidget(self.alternates)
        alt_row.addWidget(self.alternates_basis, 1)
        self.seed = QLineEdit()
        self.seed.setObjectName("seed")
        self.seed.setPlaceholderText(self.tr("Ex.: resultado da Loteria Federal anunciado antes do sorteio"))
        self.seed.setStyleSheet("font-size: 14pt; padding: 4px;")
        form.addRow(self.tr("&Edital/chamamento:"), self.call_text)
        form.addRow(self.tr("&Local do sorteio:"), self.place)
        form.addRow(self.tr("&Responsáveis e testemunhas:"), self.officials)
        form.addRow(self.tr("&Vagas:"), self.vacancies)
        alternates_caption = QLabel(self.tr("&Suplentes por grupo:"))
        alternates_caption.setBuddy(self.alternates)
        form.addRow(alternates_caption, alt_row)
        form.addRow(self.tr("Se&mente:"), self.seed)
        layout.addLayout(form)
        self.replacing = QLabel()
        self.replacing.setObjectName("replacing")
        self.replacing.setStyleSheet(f"color: {ERROR_COLOUR};")
        layout.addWidget(self.replacing)
        buttons = QHBoxLayout()
        self.draw_button = QPushButton(self.tr("Realizar &sorteio…"))
        self.draw_button.setObjectName("draw")
        self.draw_button.setStyleSheet("font-weight: 600; padding: 6px 14px;")
        buttons.addWidget(self.draw_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.error = QLabel()
        layout.addWidget(self.error)
        self.errors = FieldErrorsView(self.error, {"call": self.call_text, "place": self.place,
                                                   "officials": self.officials, "vacancies": self.vacancies,
                                                   "seed": self.seed, "alternates": self.alternates})
        self.message = _message_line()
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.draw_button.clicked.connect(lambda: self.hold())
        self.call.list_changed.connect(self.refresh)
        self._regime_seen = ""

    def refresh(self) -> None:
        current = self.call.current
        regime = self.call.regime_id()
        if regime and regime != self._regime_seen:
            self._regime_seen = regime
            rules = current.rules if current is not None else None
            if rules is not None:
                self.alternates.setValue(rules.alternates)
                self.alternates_basis.setText(self.tr("o ato fixa %1 (%2)").replace("%1", str(rules.alternates))
                                              .replace("%2", rules.alternates_basis) if rules.alternates_basis
                                              else self.tr("o ato não fixa suplentes"))
            sel = get_regime(regime).selection
            spec = sel.draw or sel.positions if sel is not None else None
            if spec is not None and spec.place and not self.place.text():
                self.place.setText(spec.place)
        if current is not None and not self.call_text.isModified():
            self.call_text.setText(default_call_text(current.regime_id, current.site, current.group,
                                                     year=self.call.today.year))
        groups = current.groups if current is not None else ()
        self.vacancies.setPlaceholderText(
            self.tr("um número por grupo, ou %1").replace("%1", ",".join(f"{g}=N" for g in groups[:3]))
            if len([g for g in groups if g]) > 1 else self.tr("número de vagas (ex.: 3)"))
        if current is None or current.published is None:
            self.summary.setText(self.tr("Sem lista para sortear: %1").replace(
                "%1", escape(current.problem if current is not None else self.tr("escolha o chamamento."))))
            self.draw_button.setEnabled(False)
            return
        published = self.call.published
        state = (self.tr("publicada em %1").replace("%1", _when(published[1]))
                 if published is not None and published[0] == current.sha256
                 else f"<span style='color: {ERROR_COLOUR};'>" + self.tr("não publicada nesta sessão") + "</span>")
        self.summary.setText(self.tr("<b>%1</b> — %2 participante(s) na lista, %3.<br>SHA-256 da lista: "
                                     "<span style='%4'>%5</span>")
                             .replace("%1", escape(get_regime(current.regime_id).title))
                             .replace("%2", str(len(current.published.participants))).replace("%3", state)
                             .replace("%4", MONO).replace("%5", current.sha256))
        self.draw_button.setEnabled(True)

    def set_replacing(self, draw_id: int | None) -> None:
        self.replaces = draw_id
        self.replacing.setText(self.tr("Este sorteio substituirá o sorteio nº %1, anulado.").replace(
            "%1", str(draw_id)) if draw_id else "")

    def hold(self):
        """Check the list against the one published, confirm, and hold the draw (``models.draws.hold_draw``)."""
        self.errors.clear()
        self.message.clear()
        self.call.refresh_list()  # debts and payments as they are now
        current = self.call.current
        if current is None or current.published is None:
            self.message.setText(current.problem if current is not None else self.tr("Escolha o chamamento."))
            return None
        published = self.call.published
        if published is not None and published[0] != current.sha256:
            self.message.setText(self.tr("A lista mudou desde a publicação (SHA-256 publicado %1, atual %2): "
                                         "publique-a de novo antes do sorteio.")
                                 .replace("%1", published[0][:16] + "…").replace("%2", current.sha256[:16] + "…"))
            return None
        text = self.vacancies.text().strip()
        if not text:
            self.errors.show({"vacancies": self.tr("Informe o número de vagas.")})
            return None
        try:
            vacancies = parse_vacancies(text)
        except UserError as exc:
            self.errors.show({"vacancies": exc.message})
            return None
        seed = self.seed.text().strip()
        if not seed:
            self.errors.show({"seed": self.tr("Informe a semente anunciada antes do sorteio.")})
            return None
        warning = "" if published is not None else self.tr(
            "\n\nA lista não foi publicada nesta sessão: confira o SHA-256 com a lista afixada.")
        answer = QMessageBox.question(
            self, self.tr("Realizar sorteio"),
            self.tr("Sortear %1 participante(s) com a semente «%2»?\n\nSHA-256 da lista: %3\nVagas: %4; suplentes: "
                    "%5.\n\nUm sorteio realizado não se altera: só pode ser anulado, com o motivo.%6")
            .replace("%1", str(len(current.published.participants))).replace("%2", seed)
            .replace("%3", current.sha256).replace("%4", text).replace("%5", str(self.alternates.value()))
            .replace("%6", warning),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return None
        try:
            draw = hold_draw(current.regime_id, current.participants, seed, vacancies, call=self.call_text.text(),
                             place=self.place.text(), officials=self.officials.toPlainText(),
                             created_by=current_user_name(), alternates=self.alternates.value(),
                             site=current.site, replaces=self.replaces)
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            return None
        except UserError as exc:
            if exc.field in ("vacancies", "seed", "alternates"):
                self.errors.show({exc.field: exc.message})
            else:
                self.message.setText(exc.message)
            return None
        self.last_draw = draw
        self.message.setText(self.tr("Sorteio nº %1 realizado e guardado (SHA-256 %2, semente «%3»).")
                             .replace("%1", str(draw.id)).replace("%2", draw.list_sha256).replace("%3", draw.seed))
        self.set_replacing(None)
        self.seed.clear()
        self.drawn.emit(draw.id)
        return draw


# --------------------------------------------------------------------------- 3. the draws kept


class DrawsTab(QWidget):
    """Every draw held, checked again; its result, its ata; annulment; the holders' permits and stalls."""

    replace_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None, *, key_dir=None, today: _dt.date | None = None):
        super().__init__(parent)
        self.key_dir = key_dir
        self._today = today
        self.choices = []
        layout = QVBoxLayout(self)
        self.model = RowsModel([
            Column(self.tr("Nº"), lambda d: str(d.id), right=True),
            (self.tr("Data e hora"), lambda d: d.held_at.strftime("%d/%m/%Y %H:%M")),
            (self.tr("Regime"), lambda d: d.regime_label),
            (self.tr("Chamamento"), lambda d: d.call),
            (self.tr("Local/evento"), lambda d: d.site_label),
            Column(self.tr("Participantes"), lambda d: str(d.participants), right=True),
            Column(self.tr("Situação"), lambda d: d.situation, tooltip=lambda d: d.annul_reason or None),
            Column(self.tr("Conferência"), lambda d: d.check_text, tooltip=lambda d: " ".join(d.problems) or None),
        ], self)
        self.table = _table(QTableView(), self.model, stretch=(3,))
        self.table.setObjectName("draws")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)

        below = QWidget()
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        self.about = QLabel()
        self.about.setObjectName("about")
        self.about.setWordWrap(True)
        self.about.setTextFormat(Qt.TextFormat.RichText)
        self.about.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        below_layout.addWidget(self.about)
        acts = QHBoxLayout()
        self.ata_button = QPushButton(self.tr("Salvar &ata (PDF)…"))
        self.ata_button.setObjectName("ata-pdf")
        self.print_button = QPushButton(self.tr("&Imprimir ata…"))
        self.print_button.setObjectName("ata-print")
        self.annul_button = QPushButton(self.tr("A&nular sorteio…"))
        self.annul_button.setObjectName("annul")
        self.replace_button = QPushButton(self.tr("Novo sorteio em &substituição"))
        self.replace_button.setObjectName("replace")
        for button in (self.ata_button, self.print_button, self.annul_button, self.replace_button):
            acts.addWidget(button)
        acts.addStretch(1)
        below_layout.addLayout(acts)

        self.inner = QTabWidget()
        self.entries = RowsModel([
            (self.tr("Grupo"), lambda e: e.group),
            (self.tr("Resultado"), lambda e: e.role_label + (f" {e.role_order}º" if e.role in ("holder", "alternate")
                                                               else "")),
            Column(self.tr("Posição sorteada"), lambda e: str(e.position) if e.position else "—", right=True),
            (self.tr("Id"), lambda e: e.participant_id),
            (self.tr("Nome"), lambda e: e.name + (self.tr(" (cota)") if e.quota else "")),
            Column(self.tr("Class./pontos"), lambda e: (f"{e.rank}º" if e.rank else "")
                   + (f" — {describe.number(e.score)}" if e.score is not None else ""), right=True),
            (self.tr("Pagamento"), lambda e: _when(e.paid_at)),
            Column(self.tr("Motivo"), lambda e: e.reason + (f" ({e.reason_basis})" if e.reason_basis else ""),
                   tooltip=lambda e: e.reason_basis or None),
        ], self)
        self.entries_view = _table(QTableView(), self.entries, stretch=(4,))
        self.entries_view.setObjectName("entries")
        self.inner.addTab(self.entries_view, self.tr("Resultado"))

        holders = QWidget()
        holders_layout = QVBoxLayout(holders)
        site_row = QHBoxLayout()
        self.site = QComboBox()
        self.site.setObjectName("stall-site")
        self.site.setMinimumWidth(320)
        caption = QLabel(self.tr("Bancas do &local:"))
        caption.setBuddy(self.site)
        site_row.addWidget(caption)
        site_row.addWidget(self.site)
        site_row.addStretch(1)
        holders_layout.addLayout(site_row)
        self.holders = QTableWidget(0, 7)
        self.holders.setObjectName("holders")
        self.holders.setHorizontalHeaderLabels([self.tr("Ordem"), self.tr("Grupo"), self.tr("Titular"),
                                                self.tr("Requerimento"), self.tr("Permissão"),
                                                self.tr("Banca atual"), self.tr("Banca a atribuir")])
        self.holders.verticalHeader().hide()
        self.holders.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.holders.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        holders_layout.addWidget(self.holders, 1)
        hold_acts = QHBoxLayout()
        self.issue_button = QPushButton(self.tr("&Emitir permissões dos titulares"))
        self.issue_button.setObjectName("issue-permits")
        self.assign_button = QPushButton(self.tr("Atri&buir bancas"))
        self.assign_button.setObjectName("assign-stalls")
        hold_acts.addWidget(self.issue_button)
        hold_acts.addWidget(self.assign_button)
        hold_acts.addStretch(1)
        holders_layout.addLayout(hold_acts)
        self.inner.addTab(holders, self.tr("Titulares: permissões e bancas"))
        below_layout.addWidget(self.inner, 1)
        self.message = _message_line()
        below_layout.addWidget(self.message)
        split.addWidget(below)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setSizes([170, 480])
        layout.addWidget(split, 1)

        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self.ata_button.clicked.connect(lambda: self.save_ata())
        self.print_button.clicked.connect(lambda: self.print_ata())
        self.annul_button.clicked.connect(lambda: self.annul())
        self.replace_button.clicked.connect(self._replace)
        self.issue_button.clicked.connect(lambda: self.issue_permits())
        self.assign_button.clicked.connect(lambda: self.assign())
        self.site.currentIndexChanged.connect(lambda _i: self._show_stalls())
        self._show_selected()

    @property
    def today(self) -> _dt.date:
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        keep = self.selected()
        self.model.set_rows(draw_rows())
        if keep is not None:
            self.select_draw(keep.id, quiet=True)
        if self.selected() is None and self.model.rows:
            self.table.selectRow(0)
        self._show_selected()

    def selected(self):
        index = self.table.currentIndex()
        rows = self.model.rows
        return rows[index.row()] if index.isValid() and index.row() < len(rows) else None

    def select_draw(self, draw_id: int, *, quiet: bool = False) -> bool:
        for row, d in enumerate(self.model.rows):
            if d.id == draw_id:
                self.table.selectRow(row)
                return True
        if not quiet:
            raise KeyError(draw_id)
        return False

    def _show_selected(self) -> None:
        d = self.selected()
        held = d is not None and d.status == "held"
        for button in (self.ata_button, self.print_button):
            button.setEnabled(d is not None)
        self.annul_button.setEnabled(held)
        self.replace_button.setEnabled(d is not None and d.status == "annulled" and not d.replaced_by)
        self.issue_button.setEnabled(held)
        self.assign_button.setEnabled(held)
        if d is None:
            self.about.setText(self.tr("Nenhum sorteio realizado ainda. Escolha o chamamento, publique a lista e "
                                       "realize o sorteio na aba «Sorteio»."))
            self.entries.set_rows([])
            self.holders.setRowCount(0)
            self.site.clear()
            return
        lines = [self.tr("<b>Sorteio nº %1</b> — %2, %3 — %4").replace("%1", str(d.id))
                 .replace("%2", d.held_at.strftime("%d/%m/%Y %H:%M")).replace("%3", escape(d.place))
                 .replace("%4", escape(d.situation)),
                 self.tr("Semente «<b>%1</b>» · SHA-256 da lista <span style='%2'>%3</span>")
                 .replace("%1", escape(d.seed)).replace("%2", MONO).replace("%3", d.list_sha256)]
        if d.problems:
            lines.append(f"<span style='color: {ERROR_COLOUR};'><b>" + self.tr("Conferência:") + "</b> "
                         + escape(" ".join(d.problems)) + "</span>")
        else:
            lines.append(self.tr("Conferência: a lista guardada tem o hash publicado e a semente reproduz a ordem "
                                 "registrada."))
        if d.status == "annulled":
            lines.append(f"<span style='color: {ERROR_COLOUR};'>" + self.tr("Anulado: %1").replace(
                "%1", escape(d.annul_reason)) + "</span>")
        self.about.setText("<br>".join(lines))
        entries = draw_entries(d.id)
        self.entries.set_rows(entries)
        # only the columns this draw uses: ranks/scores, payment times, reasons of exclusion
        for column, used in ((5, any(e.rank or e.score is not None for e in entries)),
                             (6, any(e.paid_at for e in entries)), (7, any(e.reason for e in entries))):
            self.entries_view.setColumnHidden(column, not used)
        self._fill_sites(d.id)
        self._show_stalls()

    def _fill_sites(self, draw_id: int) -> None:
        self.site.blockSignals(True)
        self.site.clear()
        for option in draw_sites(draw_id):
            self.site.addItem(option.label, option.value)
        if self.site.count() == 0:
            self.site.addItem(self.tr("(nenhum local com bancas neste regime — cadastre-o em Mapas)"), "")
        self.site.blockSignals(False)

    def _show_stalls(self) -> None:
        d = self.selected()
        if d is None:
            return
        site = self.site.currentData()
        holders = draw_holders(d.id)
        self.choices = stall_choices(d.id, int(site)) if site else []
        by_entry = {c.holder.entry_id: c for c in self.choices}
        for row in range(self.holders.rowCount()):  # the old combos go now, not at the next event loop turn
            old = self.holders.cellWidget(row, 6)
            if old is not None:
                old.hide()
                self.holders.removeCellWidget(row, 6)
        self.holders.setRowCount(len(holders))
        for row, h in enumerate(holders):
            values = [f"{h.order}º", h.group, h.name + (self.tr(" (cota)") if h.quota else ""),
                      f"{h.participant_id} — {h.application_status_label}",
                      f"{h.permit_number} ({h.permit_status_label})" if h.permit_number else self.tr("não emitida"),
                      h.stall_text]
            for column, value in enumerate(values):
                self.holders.setItem(row, column, QTableWidgetItem(value))
            choice = by_entry.get(h.entry_id)
            combo = QComboBox()
            combo.setObjectName(f"stall-{h.entry_id}")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(24)
            combo.addItem(choice.note if choice and choice.note else self.tr("(não atribuir)"), "")
            if choice is not None and not choice.note:
                for option in choice.free:
                    combo.addItem(option.label, option.value)
                combo.setCurrentIndex(max(0, combo.findData(choice.default)))
            combo.setEnabled(choice is not None and not choice.note and d.status == "held")
            self.holders.setCellWidget(row, 6, combo)

    def stall_combo(self, row: int) -> QComboBox:
        return self.holders.cellWidget(row, 6)

    # -- the ata ---------------------------------------------------------------

    def save_ata(self, path: str | Path | None = None) -> Path | None:
        from reports.draw_ata import write_draw_ata_pdf

        d = self.selected()
        if d is None:
            return None
        if not path:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Ata do sorteio"), f"ata-sorteio-{d.id}.pdf",
                                                  self.tr("PDF (*.pdf)"))
            if not path:
                return None
        try:
            written = write_draw_ata_pdf(d.id, path)
        except OSError as exc:
            self.message.setText(self.tr("Não foi possível gravar %1: %2").replace("%1", str(path))
                                 .replace("%2", exc.strerror or str(exc)))
            return None
        self.message.setText(self.tr("Ata do sorteio nº %1 gravada em %2.").replace("%1", str(d.id))
                             .replace("%2", str(written)))
        return written

    def print_ata(self, printer=None) -> bool:
        """Print the ata of the selected draw; ``printer`` None asks with the print dialog."""
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from reports.draw_ata import draw_ata_document

        d = self.selected()
        if d is None:
            return False
        if printer is None:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            printer.setDocName(f"ata-sorteio-{d.id}")
            if not QPrintDialog(printer, self).exec():
                return False
        draw_ata_document(d.id).print_(printer)
        self.message.setText(self.tr("Ata do sorteio nº %1 enviada para impressão.").replace("%1", str(d.id)))
        return True

    # -- annulment -------------------------------------------------------------

    def annul(self, reason: str | None = None) -> bool:
        """Annul the selected draw with a written reason (asked, then confirmed)."""
        d = self.selected()
        if d is None or d.status != "held":
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(self, self.tr("Anular sorteio"), self.tr(
                "Motivo da anulação do sorteio nº %1 (fica registrado na ata):").replace("%1", str(d.id)))
            if not ok:
                return False
        if not (reason or "").strip():
            self.message.setText(self.tr("Informe o motivo da anulação do sorteio."))
            return False
        answer = QMessageBox.question(
            self, self.tr("Anular sorteio"),
            self.tr("Anular o sorteio nº %1? O sorteio e a sua ata ficam guardados, marcados como anulados, e "
                    "um novo sorteio pode ser realizado em seu lugar.\n\nMotivo: %2").replace("%1", str(d.id))
            .replace("%2", reason),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        try:
            annul_draw(d.id, reason, by=current_user_name())
        except UserError as exc:
            self.message.setText(exc.message)
            return False
        self.message.setText(self.tr("Sorteio nº %1 anulado. Para realizar outro em seu lugar, use «Novo sorteio "
                                     "em substituição».").replace("%1", str(d.id)))
        self.refresh()
        return True

    def _replace(self) -> None:
        d = self.selected()
        if d is not None and d.status == "annulled" and not d.replaced_by:
            self.replace_requested.emit(d.id)

    # -- permits and stalls ----------------------------------------------------

    def issue_permits(self, *, end: _dt.date | None = None) -> list:
        """Issue the permits of the holders whose application is approved; asks the end date when the act leaves it
        open (like the worklist's "Emitir permissão")."""
        d = self.selected()
        if d is None:
            return []
        try:
            outcomes = issue_holder_permits(d.id, by=current_user_name(), today=self.today, key_dir=self.key_dir,
                                            end=end)
            needs = next((o for o in outcomes if o.needs), None)
            if needs is not None and end is None:
                text, ok = QInputDialog.getText(self, self.tr("Emitir permissões"), needs.message.split(": ", 1)[-1]
                                                + "\n" + self.tr("Data final das permissões (dd/mm/aaaa):"))
                if ok:
                    try:
                        end = _dt.datetime.strptime(text.strip(), "%d/%m/%Y").date()
                    except ValueError:
                        self.message.setText(self.tr("Data inválida: %1 (use dd/mm/aaaa).").replace("%1", text))
                        self._show_stalls()
                        return outcomes
                    outcomes = issue_holder_permits(d.id, by=current_user_name(), today=self.today,
                                                    key_dir=self.key_dir, end=end)
        except UserError as exc:
            self.message.setText(exc.message)
            return []
        self.message.setText("\n".join(o.message for o in outcomes) or self.tr("O sorteio não tem titulares."))
        self._show_stalls()
        return outcomes

    def assign(self) -> list:
        """Put each holder on the stall picked in its row, in order of choice."""
        d = self.selected()
        if d is None:
            return []
        holders = draw_holders(d.id)
        picks = {}
        for row, h in enumerate(holders):
            combo = self.stall_combo(row)
            if combo is not None and combo.isEnabled() and combo.currentData():
                picks[h.entry_id] = combo.currentData()
        if not picks:
            self.message.setText(self.tr("Nenhuma banca escolhida: emita as permissões e escolha as bancas livres."))
            return []
        try:
            results = assign_stalls(d.id, picks)
        except UserError as exc:
            self.message.setText(exc.message)
            return []
        self.message.setText("\n".join(text for _ok, text in results))
        self._show_stalls()
        return results


# --------------------------------------------------------------------------- the page


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
        self.draw = DrawTab(self.call)
        self.draws = DrawsTab(key_dir=key_dir, today=today)
        self.tabs.addTab(self.call, self.tr("1. Chamamento e lista"))
        self.tabs.addTab(self.draw, self.tr("2. Sorteio"))
        self.tabs.addTab(self.draws, self.tr("Sorteios realizados"))
        layout.addWidget(self.tabs, 1)
        self.draw.drawn.connect(self._drawn)
        self.draws.replace_requested.connect(self._replace)
        self.tabs.currentChanged.connect(self._tab_shown)

    def refresh(self) -> None:
        self.call.refresh()
        self.draw.refresh()
        self.draws.refresh()

    def _tab_shown(self, _index: int) -> None:
        current = self.tabs.currentWidget()
        if current is self.call:
            self.call.refresh_list()
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
            self.draws.message.setText(self.tr("O regime %1 não está mais disponível.").replace("%1", old.regime))
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
