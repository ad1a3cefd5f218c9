"""Seleção: the call and its participants, the public draw, the draws kept, and the holders' permits and stalls.

Every decision is the domain's: :mod:`models.services.calls` gathers the participants
(debts, scores line by line, payment time), :mod:`models.selection` makes the
list and its SHA-256, :mod:`models.selection.draws` holds and annuls the draw,
:mod:`reports.draw_ata` prints the ata. The screen shows what they say — the
article of each decision — and the domain's one-line refusals.
"""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
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

from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.registry.applications import get_application
from models.rules import describe
from models.rules.eligibility import join_articles
from models.rules.regimes import get_regime
from models.selection import parse_vacancies
from models.selection.draws import annul_draw, draw_entries, get_draw, hold_draw
from models.selection.process import (
    KINDS,
    add_event,
    allowed_points,
    decide_appeal,
    file_appeal,
    has_appeals,
    hold_point_draw,
    point_label,
    preview_event,
    process_of,
    publication_check,
    publication_kind,
    publish_final,
    publish_list,
    publish_ranking,
    remove_last_event,
    rotation_draws,
    rotation_state,
)
from models.services.calls import (
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
from views import theme
from views.save import save_file_name
from views.table_models import Column, RowsModel, select_where, selected_row
from views.widgets import FieldErrorsView, WrappingLabel, current_user_name, print_document, save_pdf_as

MONO = "font-family: monospace;"


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


def _date_edit(name: str, today: _dt.date) -> QDateEdit:
    edit = QDateEdit(QDate(today.year, today.month, today.day))
    edit.setObjectName(name)
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("dd/MM/yyyy")
    return edit


def _day(value: _dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def _rich(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


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
        for label, widget, stretch in (
            (self.tr("&Regime:"), self.regime, 2),
            (self.tr("&Local/evento:"), self.site, 2),
            (self.tr("&Grupo/ramo:"), self.group, 2),
        ):
            caption = QLabel(label)
            caption.setBuddy(widget)
            row.addWidget(caption)
            row.addWidget(widget, stretch)
        layout.addLayout(row)
        self.method = WrappingLabel()  # the act's rules in full, never clipped by the list below it
        self.method.setObjectName("method")
        self.method.setStyleSheet(f"color: {theme.colour('muted')};")
        layout.addWidget(self.method)

        self.model = RowsModel(
            [
                Column(self.tr("Class."), self._order_text, right=True),
                (self.tr("Protocolo"), lambda c: c.protocol),
                (self.tr("Requerente"), lambda c: c.applicant),
                Column(self.tr("Grupo/ramo"), lambda c: c.group_short, tooltip=lambda c: c.group_label or None),
                (self.tr("Situação"), lambda c: c.status_label),
                Column(
                    self.tr("Pontos"),
                    self._points_text,
                    right=True,
                    tooltip=lambda c: (
                        self.tr("Dados faltando: veja o detalhe.")
                        if c.score is not None and not c.score.complete
                        else None
                    ),
                ),
                (self.tr("Pagamento"), lambda c: _when(c.participant.paid_at) or c.paid_at_text),
                Column(
                    self.tr("Débitos"),
                    lambda c: self.tr("em débito") if c.debts else self.tr("nenhum"),
                    tooltip=lambda c: c.debt_text or None,
                ),
                (self.tr("Marcas"), self._marks_text),
                Column(
                    self.tr("Na lista"),
                    lambda c: self.tr("excluído") if c.excluded else self.tr("sim"),
                    tooltip=lambda c: c.excluded or None,
                ),
            ],
            self,
        )
        self.table = _table(QTableView(), self.model, stretch=(2,))
        self.table.setObjectName("participants")
        self.detail = QLabel()
        self.detail.setObjectName("detail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setMargin(6)
        self.detail.setStyleSheet(f"background: {theme.colour('panel')};")
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
        self.preference_button.setToolTip(
            self.tr("A preferência que o ato dá a este participante (decisão da comissão; entra na lista e no hash)")
        )
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

        self.box = QGroupBox(self.tr("Lista de participantes a publicar antes do sorteio"))
        box_layout = QHBoxLayout(self.box)
        self.hash_label = _rich("list-hash")
        box_layout.addWidget(self.hash_label, 1)
        publish_form = QFormLayout()
        self.published_on = _date_edit("published-on", self.today)
        self.published_on.setToolTip(self.tr("A data em que a lista é afixada ou sai no jornal: dela contam os prazos"))
        self.medium = QLineEdit()
        self.medium.setObjectName("medium")
        self.medium.setPlaceholderText(self.tr("mural da Prefeitura, jornal…"))
        self.medium.setMinimumWidth(240)
        publish_form.addRow(self.tr("Publicada &em:"), self.published_on)
        publish_form.addRow(self.tr("&Onde:"), self.medium)
        box_layout.addLayout(publish_form)
        self.publish_button = QPushButton(self.tr("P&ublicar lista…"))
        self.publish_button.setObjectName("publish")
        self.publish_button.setToolTip(
            self.tr(
                "Registra a publicação (data, onde, SHA-256) e grava a lista em PDF, "
                "para imprimir e afixar, e o texto exato que entra no hash (.txt)"
            )
        )
        box_layout.addWidget(self.publish_button)
        layout.addWidget(self.box)
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
            self.current = call_list(
                regime, site=self.site_value(), group=self.group_value(), today=self.today, marks=self.marks
            )
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

    def publication(self):
        """The current list against the latest publication of its call (kept in the database)."""
        return publication_check(self.current)

    def _show_list(self) -> None:
        current = self.current
        ranking = current is not None and publication_kind(current) == "ranking"
        self.box.setTitle(
            self.tr("Classificação a publicar — abre o prazo de recurso")
            if ranking
            else self.tr("Lista de participantes a publicar antes do sorteio")
        )
        self.publish_button.setText(self.tr("P&ublicar classificação…") if ranking else self.tr("P&ublicar lista…"))
        if current is None or current.published is None:
            problem = current.problem if current is not None else ""
            self.hash_label.setText(
                self.tr("Sem lista: %1").replace("%1", escape(problem or self.tr("nenhum participante.")))
            )
            self.publish_button.setEnabled(False)
            self.count.setText(self.tr("%1 inscrito(s)").replace("%1", str(len(current.candidates) if current else 0)))
            return
        listed, out = len(current.published.participants), len(current.published.excluded)
        self.count.setText(
            self.tr("%1 inscrito(s): %2 na lista, %3 excluído(s)")
            .replace("%1", str(len(current.candidates)))
            .replace("%2", str(listed))
            .replace("%3", str(len(current.candidates) - listed))
        )
        text = ""
        if current.process_note:
            text += f"<b>{escape(current.process_note)}</b><br>"
        text += self.tr("SHA-256 da lista (%1 participante(s)):").replace("%1", str(listed))
        text += f"<br><span style='{MONO} font-size: 11pt;'><b>{current.sha256}</b></span><br>"
        check = self.publication()
        pub = check.publication
        if check.matches:
            text += (
                self.tr("Publicada em %1 (%2, %3).")
                .replace("%1", _day(pub.published_on))
                .replace("%2", escape(pub.kind_label))
                .replace("%3", escape(pub.medium or pub.created_by))
            )
        elif pub is not None:
            text += (
                f"<span style='color: {theme.colour('error')};'>"
                + self.tr("A lista mudou desde a publicação de %1: publique-a de novo antes do sorteio.").replace(
                    "%1", _day(pub.published_on)
                )
                + "</span>"
            )
        elif ranking:
            text += self.tr(
                "Ainda não publicada: publique a classificação; o prazo de recurso conta da data da publicação."
            )
        else:
            text += self.tr("Ainda não publicada: publique e afixe antes de anunciar a semente.")
        self.hash_label.setText(text)
        self.publish_button.setEnabled(not (ranking and check.matches))

    # -- one participant -----------------------------------------------------

    def selected(self):
        return selected_row(self.table, self.model)

    def select_protocol(self, protocol: str, *, quiet: bool = False) -> bool:
        return select_where(self.table, self.model, lambda c: c.protocol == protocol, key=protocol, quiet=quiet)

    def _show_selected(self) -> None:
        c = self.selected()
        self.preference_button.setEnabled(c is not None)
        self.quota_button.setEnabled(c is not None)
        self.quota_button.setChecked(bool(c and c.participant.quota))
        if c is None:
            self.detail.setText(
                self.tr(
                    "Selecione um participante para ver os débitos, a pontuação linha a linha e a ordem de pagamento."
                )
            )
            return
        self.detail.setText(self.detail_html(c))

    def detail_html(self, c) -> str:
        out = [f"<b>{escape(c.applicant)}</b> — {escape(c.protocol)} ({escape(c.status_label)})"]
        if c.group:
            out.append(escape(c.group_label or c.group))
        if c.excluded:
            out.append(
                f"<span style='color: {theme.colour('error')};'><b>"
                + self.tr("Fora da lista:")
                + "</b> "
                + escape(c.excluded)
                + "</span>"
            )
        if c.debts:
            out.append(
                self.tr("<b>Débitos com o Município:</b>")
                + "<br>"
                + "<br>".join(escape(f"• {d.description}: {format_brl(d.amount)}") for d in c.debts)
            )
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
                + (
                    f"<tr><td colspan='4' style='color: {theme.colour('error' if line.status != 'ok' else 'ok')};'>"
                    f"{escape(line.note)}</td></tr>"
                    if line.note
                    else ""
                )
                for line in c.score.lines
            )
            head = (
                f"<tr><th align='left'>{self.tr('Critério')}</th><th align='left'>{self.tr('Valor')}</th>"
                f"<th align='right'>{self.tr('Pontos')}</th><th align='left'>{self.tr('Artigo')}</th></tr>"
            )
            out.append(
                f"<table cellspacing='0' cellpadding='2'>{head}{rows}"
                f"<tr><td colspan='2'><b>{self.tr('Total')}</b></td>"
                f"<td align='right'><b>{c.score.total}</b></td><td></td></tr></table>"
            )
            if c.score.on is not None:
                out.append(
                    self.tr("Idade e residência na data da inscrição: %1.").replace(
                        "%1", c.score.on.strftime("%d/%m/%Y")
                    )
                )
            if c.rank is not None:
                place = self.tr("%1º na classificação do grupo").replace("%1", str(c.rank))
                if c.tie_break:
                    place += f" ({escape(c.tie_break)})"
                out.append(place + ".")
            if c.tie_missing:
                out.append(f"<span style='color: {theme.colour('error')};'>" + escape(c.tie_missing) + "</span>")
        return "<br>".join(out)

    def choose_preference(self, preference: str | None = None) -> bool:
        """Mark the selected participant's preference (SJC art. 11, § 3º); ``None`` asks from a list."""
        c = self.selected()
        if c is None or self.current is None:
            return False
        prefs = sorted(self.current.rules.preferences, key=lambda p: p.rank)
        if preference is None:
            items = [self.tr("Nenhuma")] + [f"{p.rank}º — {p.label} ({p.basis})" for p in prefs]
            chosen, ok = QInputDialog.getItem(
                self, self.tr("Preferência"), self.tr("Preferência de %1:").replace("%1", c.applicant), items, 0, False
            )
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
        """Record the publication (date, where, SHA-256) and save the list as PDF (to print and post) and, beside
        it, the exact text that is hashed (.txt). Where the act opens an appeal, this publishes the ranking."""
        self.refresh_list()
        current = self.current
        if current is None or current.published is None:
            return None
        kind = publication_kind(current)
        if not path:
            suggested = (
                f"{'classificacao' if kind == 'ranking' else 'lista-sorteio'}-{current.regime_id}-"
                f"{self.today:%Y-%m-%d}.pdf"
            )
            path, _ = save_file_name(
                self, self.tr("Publicar lista de participantes"), suggested, self.tr("PDF (*.pdf)")
            )
            if not path:
                return None
        path = Path(path)
        call = call or default_call_text(current.regime_id, current.site, current.group, year=self.today.year)
        medium = self.medium.text().strip() or path.name
        publish = publish_ranking if kind == "ranking" else publish_list
        try:
            pub = publish(
                current,
                by=current_user_name(),
                published_on=self.published_on.date().toPython(),
                today=self.today,
                call=call,
                medium=medium,
            )
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        written = _write_publication(self, pub, path)
        if written is None:
            return None
        text = (
            self.tr("%1 publicada em %2: SHA-256 %3. PDF em %4; texto exato para conferir em %5.")
            .replace("%1", pub.kind_label.capitalize())
            .replace("%2", _day(pub.published_on))
            .replace("%3", pub.list_sha256)
            .replace("%4", str(path))
            .replace("%5", str(path.with_suffix(".txt")))
        )
        if pub.appeal_due:
            text += " " + self.tr("Prazo de recurso até %1 (%2).").replace("%1", _day(pub.appeal_due)).replace(
                "%2", pub.appeal_basis
            )
        self.message.setText(text)
        self._show_list()
        self.list_changed.emit()
        return path


def _write_publication(owner, pub, path: Path) -> Path | None:
    """The publication's document as PDF and, beside it, the exact hashed text (.txt)."""
    from models.store.outfile import write_bytes
    from reports.pdf import html_to_pdf

    html = (
        "<html><body><pre style='white-space: pre-wrap; font-size: 8pt;'>"
        + escape(pub.document)
        + "</pre></body></html>"
    )
    try:
        html_to_pdf(html, path, title=KINDS.get(pub.kind, pub.kind).capitalize())
        write_bytes(path.with_suffix(".txt"), pub.list_text.encode("utf-8"), kind="txt")
    except UserError as exc:  # models/store/outfile.py: one line, the target left as it was
        owner.message.setText(
            owner.tr("Publicação registrada, mas não foi possível gravar %1: %2")
            .replace("%1", str(path))
            .replace("%2", str(exc))
        )
        return None
    except OSError as exc:
        owner.message.setText(
            owner.tr("Publicação registrada, mas não foi possível gravar %1: %2")
            .replace("%1", str(path))
            .replace("%2", exc.strerror or str(exc))
        )
        return None
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
        alternates_caption = QLabel(self.tr("S&uplentes por grupo:"))
        alternates_caption.setBuddy(self.alternates)
        form.addRow(alternates_caption, alt_row)
        form.addRow(self.tr("Seme&nte:"), self.seed)
        layout.addLayout(form)
        self.replacing = QLabel()
        self.replacing.setObjectName("replacing")
        self.replacing.setStyleSheet(f"color: {theme.colour('error')};")
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
        self.errors = FieldErrorsView(
            self.error,
            {
                "call": self.call_text,
                "place": self.place,
                "officials": self.officials,
                "vacancies": self.vacancies,
                "seed": self.seed,
                "alternates": self.alternates,
            },
        )
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
                self.alternates_basis.setText(
                    self.tr("o ato fixa %1 (%2)")
                    .replace("%1", str(rules.alternates))
                    .replace("%2", rules.alternates_basis)
                    if rules.alternates_basis
                    else self.tr("o ato não fixa suplentes")
                )
            sel = get_regime(regime).selection
            spec = sel.draw or sel.positions if sel is not None else None
            if spec is not None and spec.place and not self.place.text():
                self.place.setText(spec.place)
        if current is not None and not self.call_text.isModified():
            self.call_text.setText(
                default_call_text(current.regime_id, current.site, current.group, year=self.call.today.year)
            )
        groups = current.groups if current is not None else ()
        self.vacancies.setPlaceholderText(
            self.tr("um número por grupo, ou %1").replace("%1", ",".join(f"{g}=N" for g in groups[:3]))
            if len([g for g in groups if g]) > 1
            else self.tr("número de vagas (ex.: 3)")
        )
        if current is None or current.published is None:
            self.summary.setText(
                self.tr("Sem lista para sortear: %1").replace(
                    "%1", escape(current.problem if current is not None else self.tr("escolha o chamamento."))
                )
            )
            self.draw_button.setEnabled(False)
            return
        check = publication_check(current, ("list", "final"))
        state = (
            escape(check.text)
            if check.matches
            else f"<span style='color: {theme.colour('error')};'>" + escape(check.text) + "</span>"
        )
        text = (
            self.tr("<b>%1</b> — %2 participante(s) na lista, %3.<br>SHA-256 da lista: <span style='%4'>%5</span>")
            .replace("%1", escape(get_regime(current.regime_id).title))
            .replace("%2", str(len(current.published.participants)))
            .replace("%3", state)
            .replace("%4", MONO)
            .replace("%5", current.sha256)
        )
        if current.draw_blocked:
            text += (
                f"<br><span style='color: {theme.colour('error')};'><b>" + escape(current.draw_blocked) + "</b></span>"
            )
        self.summary.setText(text)
        self.draw_button.setEnabled(not current.draw_blocked)

    def set_replacing(self, draw_id: int | None) -> None:
        self.replaces = draw_id
        self.replacing.setText(
            self.tr("Este sorteio substituirá o sorteio nº %1, anulado.").replace("%1", str(draw_id)) if draw_id else ""
        )

    def hold(self):
        """Check the list against the one published, confirm, and hold the draw (``models.selection.draws.hold_draw``)."""
        self.errors.clear()
        self.message.clear()
        self.call.refresh_list()  # debts and payments as they are now
        current = self.call.current
        if current is None or current.published is None:
            self.message.setText(current.problem if current is not None else self.tr("Escolha o chamamento."))
            return None
        if current.draw_blocked:
            self.message.setText(current.draw_blocked)
            return None
        check = publication_check(current, ("list", "final"))
        if check.publication is not None and not check.matches:
            self.message.setText(
                self.tr(
                    "A lista mudou desde a publicação de %1 (SHA-256 publicado %2, atual %3): "
                    "publique-a de novo antes do sorteio."
                )
                .replace("%1", _day(check.publication.published_on))
                .replace("%2", check.publication.list_sha256[:16] + "…")
                .replace("%3", current.sha256[:16] + "…")
            )
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
        warning = (
            "" if check.published else self.tr("\n\nA lista não foi publicada: confira o SHA-256 com a lista afixada.")
        )
        answer = QMessageBox.question(
            self,
            self.tr("Realizar sorteio"),
            self.tr(
                "Sortear %1 participante(s) com a semente «%2»?\n\nSHA-256 da lista: %3\nVagas: %4; suplentes: "
                "%5.\n\nUm sorteio realizado não se altera: só pode ser anulado, com o motivo.%6"
            )
            .replace("%1", str(len(current.published.participants)))
            .replace("%2", seed)
            .replace("%3", current.sha256)
            .replace("%4", text)
            .replace("%5", str(self.alternates.value()))
            .replace("%6", warning),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
        try:
            draw = hold_draw(
                current.regime_id,
                current.participants,
                seed,
                vacancies,
                call=self.call_text.text(),
                place=self.place.text(),
                officials=self.officials.toPlainText(),
                created_by=current_user_name(),
                alternates=self.alternates.value(),
                site=current.site,
                replaces=self.replaces,
            )
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
        self.message.setText(
            self.tr("Sorteio nº %1 realizado e guardado (SHA-256 %2, semente «%3»).")
            .replace("%1", str(draw.id))
            .replace("%2", draw.list_sha256)
            .replace("%3", draw.seed)
        )
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
        self.model = RowsModel(
            [
                Column(self.tr("Nº"), lambda d: str(d.id), right=True),
                (self.tr("Data e hora"), lambda d: d.held_at.strftime("%d/%m/%Y %H:%M")),
                (self.tr("Regime"), lambda d: d.regime_label),
                (self.tr("Chamamento"), lambda d: d.call),
                (self.tr("Local/evento"), lambda d: d.site_label),
                Column(self.tr("Participantes"), lambda d: str(d.participants), right=True),
                Column(self.tr("Situação"), lambda d: d.situation, tooltip=lambda d: d.annul_reason or None),
                Column(self.tr("Conferência"), lambda d: d.check_text, tooltip=lambda d: " ".join(d.problems) or None),
            ],
            self,
        )
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
        self.ata_button = QPushButton(self.tr("Salvar a&ta (PDF)…"))
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
        self.entries = RowsModel(
            [
                (self.tr("Grupo"), lambda e: e.group),
                (
                    self.tr("Resultado"),
                    lambda e: e.role_label + (f" {e.role_order}º" if e.role in ("holder", "alternate") else ""),
                ),
                Column(self.tr("Posição sorteada"), lambda e: str(e.position) if e.position else "—", right=True),
                (self.tr("Id"), lambda e: e.participant_id),
                (self.tr("Nome"), lambda e: e.name + (self.tr(" (cota)") if e.quota else "")),
                Column(
                    self.tr("Class./pontos"),
                    lambda e: (
                        (f"{e.rank}º" if e.rank else "")
                        + (f" — {describe.number(e.score)}" if e.score is not None else "")
                    ),
                    right=True,
                ),
                (self.tr("Pagamento"), lambda e: _when(e.paid_at)),
                Column(
                    self.tr("Motivo"),
                    lambda e: e.reason + (f" ({e.reason_basis})" if e.reason_basis else ""),
                    tooltip=lambda e: e.reason_basis or None,
                ),
            ],
            self,
        )
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
        self.holders = QTableWidget(0, 8)
        self.holders.setObjectName("holders")
        self.holders.setHorizontalHeaderLabels(
            [
                self.tr("Ordem"),
                self.tr("Grupo"),
                self.tr("Titular"),
                self.tr("Requerimento"),
                self.tr("Permissão"),
                self.tr("Banca atual"),
                self.tr("Banca a atribuir"),
                self.tr("A apresentar depois da lista"),
            ]
        )
        self.holders.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.holders.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
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
        self.documents_button = QPushButton(self.tr("Registrar &documentos entregues…"))
        self.documents_button.setObjectName("record-documents")
        self.documents_button.setToolTip(
            self.tr("Os documentos que o ato pede ao titular depois da lista definitiva, no prazo que ele fixa")
        )
        hold_acts.addWidget(self.issue_button)
        hold_acts.addWidget(self.assign_button)
        hold_acts.addWidget(self.documents_button)
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
        self.documents_button.clicked.connect(lambda: self.record_documents())
        self.holders.itemSelectionChanged.connect(self._holder_selected)
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
        return selected_row(self.table, self.model)

    def select_draw(self, draw_id: int, *, quiet: bool = False) -> bool:
        return select_where(self.table, self.model, lambda d: d.id == draw_id, key=draw_id, quiet=quiet)

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
            self.about.setText(
                self.tr(
                    "Nenhum sorteio realizado ainda. Escolha o chamamento, publique a lista e "
                    "realize o sorteio na aba «Sorteio»."
                )
            )
            self.entries.set_rows([])
            self.holders.setRowCount(0)
            self.site.clear()
            return
        lines = [
            self.tr("<b>Sorteio nº %1</b> — %2, %3 — %4")
            .replace("%1", str(d.id))
            .replace("%2", d.held_at.strftime("%d/%m/%Y %H:%M"))
            .replace("%3", escape(d.place))
            .replace("%4", escape(d.situation)),
            self.tr("Semente «<b>%1</b>» · SHA-256 da lista <span style='%2'>%3</span>")
            .replace("%1", escape(d.seed))
            .replace("%2", MONO)
            .replace("%3", d.list_sha256),
        ]
        if d.problems:
            lines.append(
                f"<span style='color: {theme.colour('error')};'><b>"
                + self.tr("Conferência:")
                + "</b> "
                + escape(" ".join(d.problems))
                + "</span>"
            )
        else:
            lines.append(
                self.tr("Conferência: a lista guardada tem o hash publicado e a semente reproduz a ordem registrada.")
            )
        if d.status == "annulled":
            lines.append(
                f"<span style='color: {theme.colour('error')};'>"
                + self.tr("Anulado: %1").replace("%1", escape(d.annul_reason))
                + "</span>"
            )
        self.about.setText("<br>".join(lines))
        entries = draw_entries(d.id)
        self.entries.set_rows(entries)
        # only the columns this draw uses: ranks/scores, payment times, reasons of exclusion
        for column, used in (
            (5, any(e.rank or e.score is not None for e in entries)),
            (6, any(e.paid_at for e in entries)),
            (7, any(e.reason for e in entries)),
        ):
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
        holders = self.holder_rows = draw_holders(d.id, today=self.today, requirements=True)
        self.choices = stall_choices(d.id, int(site)) if site else []
        by_entry = {c.holder.entry_id: c for c in self.choices}
        for row in range(self.holders.rowCount()):  # the old combos go now, not at the next event loop turn
            old = self.holders.cellWidget(row, 6)
            if old is not None:
                old.hide()
                self.holders.removeCellWidget(row, 6)
        self.holders.setRowCount(len(holders))
        for row, h in enumerate(holders):
            values = [
                f"{h.order}º",
                h.group,
                h.name + (self.tr(" (cota)") if h.quota else ""),
                f"{h.participant_id} — {h.application_status_label}",
                f"{h.permit_number} ({h.permit_status_label})" if h.permit_number else self.tr("não emitida"),
                h.stall_text,
            ]
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
            later = QTableWidgetItem(h.requirements_text)
            later.setToolTip("\n".join(f"{r.label}: {r.reason} ({r.article})" for r in h.requirements) or None)
            if any(r.status == "failed" for r in h.requirements):
                later.setForeground(QBrush(theme.qcolour("error")))
            self.holders.setItem(row, 7, later)
        self.holders.setColumnHidden(7, not any(h.requirements for h in holders))
        self._holder_selected()

    def stall_combo(self, row: int) -> QComboBox:
        return self.holders.cellWidget(row, 6)

    def selected_holder(self):
        rows = self.holders.selectionModel().selectedRows() if self.holders.selectionModel() else []
        holders = getattr(self, "holder_rows", [])
        return holders[rows[0].row()] if rows and rows[0].row() < len(holders) else None

    def _holder_selected(self) -> None:
        h = self.selected_holder()
        self.documents_button.setEnabled(bool(h and h.due_documents))

    def record_documents(self, fill=None) -> list:
        """Open the delivery of the selected holder's documents still due (Sapezal art. 11); ``fill(dialog)``
        drives it in tests instead of the clerk."""
        from views.documents_dialog import DeliveredDocumentsDialog

        h = self.selected_holder()
        if h is None or not h.due_documents or h.application_id is None:
            return []
        app = get_application(h.application_id)
        unmet = [r for r in h.requirements if r.status != "passed"]
        dues = sorted({r.due for r in unmet if r.due is not None})
        articles = join_articles([r.article for r in unmet])
        deadline = (
            self.tr("Prazo para apresentar: até %1 (%2).").replace("%1", dues[0].strftime("%d/%m/%Y"))
            if dues
            else self.tr("O prazo ainda não começou a correr (%2).")
        ).replace("%2", articles)
        dialog = DeliveredDocumentsDialog(app, h.due_documents, today=self.today, deadline_text=deadline, parent=self)
        if fill is not None:
            fill(dialog)
        elif not dialog.exec():
            return []
        recorded = dialog.recorded
        if recorded:
            self.message.setText(
                self.tr("%1: %2 documento(s) registrado(s).").replace("%1", h.name).replace("%2", str(len(recorded)))
            )
        self._show_stalls()
        return recorded

    # -- the ata ---------------------------------------------------------------

    def save_ata(self, path: str | Path | None = None) -> Path | None:
        from reports.draw_ata import write_draw_ata_pdf

        d = self.selected()
        if d is None:
            return None
        written = save_pdf_as(
            self,
            path,
            title=self.tr("Ata do sorteio"),
            default_name=f"ata-sorteio-{d.id}.pdf",
            write=lambda target: write_draw_ata_pdf(d.id, target),
            fail=self.message.setText,
        )
        if written is None:
            return None
        self.message.setText(
            self.tr("Ata do sorteio nº %1 gravada em %2.").replace("%1", str(d.id)).replace("%2", str(written))
        )
        return written

    def print_ata(self, printer=None) -> bool:
        """Print the ata of the selected draw; ``printer`` None asks with the print dialog."""
        from reports.draw_ata import draw_ata_document

        d = self.selected()
        if d is None:
            return False
        if not print_document(self, printer, f"ata-sorteio-{d.id}", lambda: draw_ata_document(d.id)):
            return False
        self.message.setText(self.tr("Ata do sorteio nº %1 enviada para impressão.").replace("%1", str(d.id)))
        return True

    # -- annulment -------------------------------------------------------------

    def annul(self, reason: str | None = None) -> bool:
        """Annul the selected draw with a written reason (asked, then confirmed)."""
        d = self.selected()
        if d is None or d.status != "held":
            return False
        if reason is None:
            reason, ok = QInputDialog.getText(
                self,
                self.tr("Anular sorteio"),
                self.tr("Motivo da anulação do sorteio nº %1 (fica registrado na ata):").replace("%1", str(d.id)),
            )
            if not ok:
                return False
        if not (reason or "").strip():
            self.message.setText(self.tr("Informe o motivo da anulação do sorteio."))
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Anular sorteio"),
            self.tr(
                "Anular o sorteio nº %1? O sorteio e a sua ata ficam guardados, marcados como anulados, e "
                "um novo sorteio pode ser realizado em seu lugar.\n\nMotivo: %2"
            )
            .replace("%1", str(d.id))
            .replace("%2", reason),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        try:
            annul_draw(d.id, reason, by=current_user_name())
        except UserError as exc:
            self.message.setText(exc.message)
            return False
        self.message.setText(
            self.tr(
                "Sorteio nº %1 anulado. Para realizar outro em seu lugar, use «Novo sorteio em substituição»."
            ).replace("%1", str(d.id))
        )
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
            outcomes = issue_holder_permits(
                d.id, by=current_user_name(), today=self.today, key_dir=self.key_dir, end=end
            )
            needs = next((o for o in outcomes if o.needs), None)
            if needs is not None and end is None:
                text, ok = QInputDialog.getText(
                    self,
                    self.tr("Emitir permissões"),
                    needs.message.split(": ", 1)[-1] + "\n" + self.tr("Data final das permissões (dd/mm/aaaa):"),
                )
                if ok:
                    try:
                        end = _dt.datetime.strptime(text.strip(), "%d/%m/%Y").date()
                    except ValueError:
                        self.message.setText(self.tr("Data inválida: %1 (use dd/mm/aaaa).").replace("%1", text))
                        self._show_stalls()
                        return outcomes
                    outcomes = issue_holder_permits(
                        d.id, by=current_user_name(), today=self.today, key_dir=self.key_dir, end=end
                    )
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


# --------------------------------------------------------------------------- appeals and the final list


class AppealsTab(QWidget):
    """Where the act opens an appeal against the ranking (Sapezal art. 10, §§ 4º–5º): the ranking published and its
    window, the appeals filed, the commission's decisions, and the final list the draw of places takes."""

    changed = Signal()

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.process = None
        layout = QVBoxLayout(self)
        self.status = _rich("process")
        self.status.setStyleSheet(f"background: {theme.colour('panel')}; padding: 6px;")
        layout.addWidget(self.status)

        self.ranking = RowsModel(
            [
                Column(self.tr("Class."), lambda r: f"{r.rank}º", right=True),
                (self.tr("Protocolo"), lambda r: r.id),
                (self.tr("Participante"), lambda r: r.name),
                Column(self.tr("Pontos"), lambda r: str(r.total), right=True, tooltip=lambda r: r.tie_break or None),
                Column(
                    self.tr("Publicado"),
                    lambda r: (
                        self.tr("%1º, %2 pts")
                        .replace("%1", str(r.published_rank))
                        .replace("%2", str(r.published_total))
                    ),
                    right=True,
                ),
                (self.tr("Após recursos"), lambda r: r.change_text),
            ],
            self,
        )
        self.ranking_view = _table(QTableView(), self.ranking, stretch=(2,))
        self.ranking_view.setObjectName("ranking")
        self.appeals = RowsModel(
            [
                Column(self.tr("Nº"), lambda a: str(a.id), right=True),
                (self.tr("Recorrente"), lambda a: a.name),
                (self.tr("Interposto em"), lambda a: _day(a.filed_on)),
                Column(
                    self.tr("Situação"),
                    lambda a: a.status_label + (self.tr(" (decidido fora do prazo)") if a.decided_late else ""),
                    tooltip=lambda a: a.decision or None,
                ),
                Column(
                    self.tr("Decidir até"), lambda a: _day(a.decision_due), tooltip=lambda a: a.decision_formula or None
                ),
            ],
            self,
        )
        self.appeals_view = _table(QTableView(), self.appeals, stretch=(1,))
        self.appeals_view.setObjectName("appeals")
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QGroupBox(self.tr("Classificação (com as decisões dos recursos)"))
        QVBoxLayout(left).addWidget(self.ranking_view)
        right = QGroupBox(self.tr("Recursos"))
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.appeals_view, 1)
        self.appeal_detail = _rich("appeal-detail")
        right_layout.addWidget(self.appeal_detail)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([600, 480])
        layout.addWidget(split, 1)

        boxes = QHBoxLayout()
        filing = QGroupBox(self.tr("Registrar recurso"))
        filing_form = QFormLayout(filing)
        self.appellant = QComboBox()
        self.appellant.setObjectName("appellant")
        self.filed_on = _date_edit("filed-on", self.call.today)
        self.grounds = QPlainTextEdit()
        self.grounds.setObjectName("grounds")
        self.grounds.setPlaceholderText(self.tr("O que o recorrente pede e por quê"))
        self.grounds.setMaximumHeight(70)
        self.file_button = QPushButton(self.tr("Registrar &recurso"))
        self.file_button.setObjectName("file-appeal")
        filing_form.addRow(self.tr("Recorrente:"), self.appellant)
        filing_form.addRow(self.tr("Interposto em:"), self.filed_on)
        filing_form.addRow(self.tr("Fundamentos:"), self.grounds)
        filing_form.addRow("", self.file_button)
        boxes.addWidget(filing, 1)

        deciding = QGroupBox(self.tr("Decisão da Comissão sobre o recurso selecionado"))
        deciding_form = QFormLayout(deciding)
        self.outcome = QComboBox()
        self.outcome.setObjectName("outcome")
        self.outcome.addItem(self.tr("Deferido"), True)
        self.outcome.addItem(self.tr("Indeferido"), False)
        correction = QHBoxLayout()
        self.criterion = QComboBox()
        self.criterion.setObjectName("criterion")
        self.points = QComboBox()
        self.points.setObjectName("points")
        correction.addWidget(self.criterion, 3)
        correction.addWidget(QLabel(self.tr("para")))
        correction.addWidget(self.points, 1)
        self.reason = QPlainTextEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("Motivo da decisão"))
        self.reason.setMaximumHeight(50)
        self.decided_on = _date_edit("decided-on", self.call.today)
        self.decide_button = QPushButton(self.tr("Registrar &decisão"))
        self.decide_button.setObjectName("decide-appeal")
        deciding_form.addRow(self.tr("Decisão:"), self.outcome)
        deciding_form.addRow(self.tr("Corrigir:"), correction)
        deciding_form.addRow(self.tr("Motivo:"), self.reason)
        deciding_form.addRow(self.tr("Decidido em:"), self.decided_on)
        deciding_form.addRow("", self.decide_button)
        boxes.addWidget(deciding, 1)
        layout.addLayout(boxes)

        final = QHBoxLayout()
        self.final_label = _rich("final")
        final.addWidget(self.final_label, 1)
        caption = QLabel(self.tr("Publicada em:"))
        self.final_on = _date_edit("final-on", self.call.today)
        caption.setBuddy(self.final_on)
        final.addWidget(caption)
        final.addWidget(self.final_on)
        self.final_button = QPushButton(self.tr("Publicar lista de&finitiva…"))
        self.final_button.setObjectName("publish-final")
        self.final_button.setStyleSheet("font-weight: 600; padding: 6px 14px;")
        final.addWidget(self.final_button)
        layout.addLayout(final)
        self.message = _message_line()
        layout.addWidget(self.message)

        self.appeals_view.selectionModel().selectionChanged.connect(lambda *_: self._show_appeal())
        self.criterion.currentIndexChanged.connect(lambda _i: self._fill_points())
        self.outcome.currentIndexChanged.connect(lambda _i: self._show_appeal())
        self.file_button.clicked.connect(lambda: self.file())
        self.decide_button.clicked.connect(lambda: self.decide())
        self.final_button.clicked.connect(lambda: self.publish_final())

    def refresh(self) -> None:
        regime = self.call.regime_id()
        self.process = None
        if regime and has_appeals(regime):
            self.process = process_of(regime, self.call.site_value(), self.call.group_value(), today=self.call.today)
        process = self.process
        keep = self.selected()
        self.ranking.set_rows(process.rows if process else [])
        self.appeals.set_rows(process.appeals if process else [])
        self.appellant.clear()
        if process is None:
            self.status.setText(
                self.tr(
                    "Nenhuma classificação publicada para este chamamento. Publique-a na aba "
                    "«Chamamento e lista»: o prazo de recurso conta da data da publicação."
                )
            )
            self.final_label.setText("")
        else:
            r = process.ranking
            self.status.setText(
                self.tr(
                    "<b>Classificação publicada em %1</b> (%2) — SHA-256 <span style='%3'>%4</span><br>"
                    "Prazo de recurso: %5 — %6<br><b>%7</b>"
                )
                .replace("%1", _day(r.published_on))
                .replace("%2", escape(r.medium or r.created_by))
                .replace("%3", MONO)
                .replace("%4", r.list_sha256)
                .replace("%5", escape(r.appeal_formula))
                .replace("%6", escape(r.appeal_basis))
                .replace("%7", escape(process.stage_text))
            )
            for row in process.rows:
                self.appellant.addItem(f"{row.published_rank}º — {row.name} ({row.id})", row.id)
            if process.final is not None:
                f = process.final
                self.final_label.setText(
                    self.tr("<b>Lista definitiva publicada em %1</b> — SHA-256 <span style='%2'>%3</span>")
                    .replace("%1", _day(f.published_on))
                    .replace("%2", MONO)
                    .replace("%3", f.list_sha256)
                )
            else:
                self.final_label.setText(
                    escape(process.final_problem)
                    or self.tr("Prazo encerrado e recursos decididos: publique a lista definitiva.")
                )
        open_ = process is not None and process.final is None
        self.file_button.setEnabled(open_)
        self.final_button.setEnabled(open_ and not process.final_problem)
        if keep is not None:
            for row, a in enumerate(self.appeals.rows):
                if a.id == keep.id:
                    self.appeals_view.selectRow(row)
        self._show_appeal()

    def selected(self):
        return selected_row(self.appeals_view, self.appeals)

    def select_appeal(self, appeal_id: int) -> None:
        for row, a in enumerate(self.appeals.rows):
            if a.id == appeal_id:
                self.appeals_view.selectRow(row)
                return
        raise KeyError(appeal_id)

    def _show_appeal(self) -> None:
        a = self.selected()
        pending = a is not None and a.status == "pending"
        for widget in (self.outcome, self.reason, self.decided_on, self.decide_button):
            widget.setEnabled(pending)
        granted = bool(self.outcome.currentData())
        self.criterion.setEnabled(pending and granted)
        self.points.setEnabled(pending and granted)
        if a is None:
            self.appeal_detail.setText(self.tr("Selecione um recurso para ver os fundamentos e decidi-lo."))
            return
        lines = [
            self.tr("<b>Recurso nº %1</b> — %2, interposto em %3")
            .replace("%1", str(a.id))
            .replace("%2", escape(a.name))
            .replace("%3", _day(a.filed_on)),
            self.tr("Fundamentos: %1").replace("%1", escape(a.grounds)),
        ]
        if a.decision_formula:
            lines.append(self.tr("Prazo da decisão: %1").replace("%1", escape(a.decision_formula)))
        if a.decision:
            colour = theme.colour("error" if a.status in ("late", "denied") else "ok")
            lines.append(
                f"<span style='color: {colour};'><b>{escape(a.status_label)}</b>"
                + (f" em {_day(a.decided_on)}" if a.decided_on and a.status != "late" else "")
                + f": {escape(a.decision)}</span>"
            )
        if a.corrections_text:
            lines.append(self.tr("Correção: %1").replace("%1", escape(a.corrections_text)))
        self.appeal_detail.setText("<br>".join(lines))
        if pending:
            self._fill_criteria(a.participant_id)

    def _fill_criteria(self, participant_id: str) -> None:
        row = next((r for r in self.process.rows if r.id == participant_id), None) if self.process else None
        keep = self.criterion.currentData()
        self.criterion.blockSignals(True)
        self.criterion.clear()
        self.criterion.addItem(self.tr("(sem correção de pontos)"), "")
        if row is not None:
            for line in row.score.lines:
                self.criterion.addItem(
                    self.tr("%1 — %2 pontos (%3)")
                    .replace("%1", line.label)
                    .replace("%2", str(line.points))
                    .replace("%3", line.basis.split(", ", 1)[-1]),
                    line.criterion_id,
                )
        self.criterion.setCurrentIndex(max(0, self.criterion.findData(keep)))
        self.criterion.blockSignals(False)
        self._fill_points()

    def _fill_points(self) -> None:
        self.points.clear()
        criterion = self.criterion.currentData()
        if criterion and self.process is not None:
            for value in allowed_points(self.process.ranking.regime, criterion):
                self.points.addItem(str(value), value)

    def file(self):
        """Record the appeal typed (one filed after the window is recorded as not heard, with the article)."""
        if self.process is None:
            return None
        try:
            appeal = file_appeal(
                self.process.ranking,
                participant_id=self.appellant.currentData() or "",
                filed_on=self.filed_on.date().toPython(),
                grounds=self.grounds.toPlainText(),
                by=current_user_name(),
                today=self.call.today,
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        if appeal.status == "late":
            self.message.setText(
                self.tr("Recurso nº %1 registrado e não conhecido: %2")
                .replace("%1", str(appeal.id))
                .replace("%2", appeal.decision)
            )
        else:
            self.message.setText(
                self.tr("Recurso nº %1 registrado; a Comissão decide até %2 (%3).")
                .replace("%1", str(appeal.id))
                .replace("%2", _day(appeal.decision_due))
                .replace("%3", appeal.decision_formula)
            )
        self.grounds.clear()
        self.refresh()
        self.select_appeal(appeal.id)
        self.changed.emit()
        return appeal

    def decide(self):
        a = self.selected()
        if a is None or a.status != "pending":
            return None
        granted = bool(self.outcome.currentData())
        corrections = {}
        if granted and self.criterion.currentData() and self.points.currentData() is not None:
            corrections[self.criterion.currentData()] = int(self.points.currentData())
        try:
            appeal = decide_appeal(
                a.id,
                granted=granted,
                reason=self.reason.toPlainText(),
                decided_on=self.decided_on.date().toPython(),
                by=current_user_name(),
                today=self.call.today,
                corrections=corrections,
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        text = (
            self.tr("Recurso nº %1 %2.")
            .replace("%1", str(appeal.id))
            .replace("%2", self.tr("deferido") if granted else self.tr("indeferido"))
        )
        if corrections:
            text += " " + self.tr("A pontuação corrigida muda a classificação (veja a coluna «Após recursos»).")
        self.message.setText(text)
        self.reason.clear()
        self.refresh()
        self.changed.emit()
        return appeal

    def publish_final(self, path: str | Path | None = None):
        """Publish the final list (the draw's list): recorded, then saved as PDF and exact text."""
        if self.process is None:
            return None
        if not path:
            path, _ = save_file_name(
                self,
                self.tr("Publicar lista definitiva"),
                f"lista-definitiva-{self.call.today:%Y-%m-%d}.pdf",
                self.tr("PDF (*.pdf)"),
            )
            if not path:
                return None
        path = Path(path)
        try:
            pub = publish_final(
                self.process.ranking,
                by=current_user_name(),
                published_on=self.final_on.date().toPython(),
                today=self.call.today,
                medium=self.call.medium.text().strip() or path.name,
            )
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        if _write_publication(self, pub, path) is not None:
            self.message.setText(
                self.tr(
                    "Lista definitiva publicada em %1: SHA-256 %2. O sorteio dos locais corre "
                    "sobre ela (aba «Sorteio»)."
                )
                .replace("%1", _day(pub.published_on))
                .replace("%2", pub.list_sha256)
            )
        self.refresh()
        self.changed.emit()
        return pub


# --------------------------------------------------------------------------- the rotating list and its points


class RotationTab(QWidget):
    """A rotating list applied event after event (Ilha Comprida art. 21, § 1º, I), each event's vendors spread over
    the day's points by a second draw (II), at most the points the act allows in the area (art. 22)."""

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.state = None
        self._seed_of = None  # the event whose seed is in the field: a seed is typed in public for each draw
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        caption = QLabel(self.tr("Lista corrida do &sorteio:"))
        self.draw_combo = QComboBox()
        self.draw_combo.setObjectName("rotation-draw")
        self.draw_combo.setMinimumWidth(420)
        self.draw_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        caption.setBuddy(self.draw_combo)
        top.addWidget(caption)
        top.addWidget(self.draw_combo)
        top.addStretch(1)
        layout.addLayout(top)
        self.about = _rich("rotation-about")
        self.about.setStyleSheet(f"background: {theme.colour('panel')}; padding: 6px;")
        layout.addWidget(self.about)

        self.list_model = RowsModel(
            [
                Column(
                    self.tr("Posição"),
                    lambda r: ("▶ " if self.state and r.position == self.state.next_start else "") + str(r.position),
                    right=True,
                    tooltip=lambda r: (
                        self.tr("O próximo evento começa aqui")
                        if self.state and r.position == self.state.next_start
                        else None
                    ),
                ),
                (self.tr("Ambulante"), lambda r: r.name),
                (self.tr("Id"), lambda r: r.id),
                (self.tr("Eventos"), lambda r: ", ".join(str(n) for n in r.events)),
            ],
            self,
        )
        self.list_view = _table(QTableView(), self.list_model, stretch=(1,))
        self.list_view.setObjectName("rotating-list")
        self.events_model = RowsModel(
            [
                Column(self.tr("Nº"), lambda e: str(e.number), right=True),
                (self.tr("Data"), lambda e: _day(e.event_date)),
                (self.tr("Evento"), lambda e: e.label),
                Column(self.tr("Vagas"), lambda e: str(e.vacancies), right=True),
                (self.tr("Posições na lista"), lambda e: e.span_text),
                Column(
                    self.tr("Ambulantes"),
                    lambda e: ", ".join(name for _pid, name in e.vendors),
                    tooltip=lambda e: "\n".join(name for _pid, name in e.vendors),
                ),
                Column(
                    self.tr("Pontos"),
                    lambda e: (
                        (self.tr("sorteados") if e.point_draw else self.tr("a sortear"))
                        + (" — " + self.tr("NÃO CONFERE") if e.problems else "")
                    ),
                ),
            ],
            self,
        )
        self.events_view = _table(QTableView(), self.events_model, stretch=(5,))
        self.events_view.setObjectName("events")

        split = QSplitter(Qt.Orientation.Horizontal)
        left = QGroupBox(self.tr("A lista, na ordem sorteada"))
        QVBoxLayout(left).addWidget(self.list_view)
        right = QGroupBox(self.tr("Eventos, na ordem em que a lista foi aplicada"))
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.events_view, 1)
        form = QHBoxLayout()
        self.event_date = _date_edit("event-date", self.call.today)
        self.event_label = QLineEdit()
        self.event_label.setObjectName("event-label")
        self.event_label.setPlaceholderText(self.tr("Nome do evento (ex.: Show de 31/12)"))
        self.vacancies = QSpinBox()
        self.vacancies.setObjectName("event-vacancies")
        self.vacancies.setRange(1, 999)
        self.vacancies.setValue(10)
        for text, widget in (
            (self.tr("Data:"), self.event_date),
            (self.tr("Evento:"), self.event_label),
            (self.tr("Vagas:"), self.vacancies),
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            form.addWidget(label)
            form.addWidget(widget, 2 if widget is self.event_label else 0)
        self.add_button = QPushButton(self.tr("Registrar &evento"))
        self.add_button.setObjectName("add-event")
        self.remove_button = QPushButton(self.tr("Excluir o último"))
        self.remove_button.setObjectName("remove-event")
        self.remove_button.setToolTip(self.tr("Só enquanto os pontos dele não foram sorteados (erro de digitação)"))
        form.addWidget(self.add_button)
        form.addWidget(self.remove_button)
        right_layout.addLayout(form)
        self.preview = _rich("event-preview")
        right_layout.addWidget(self.preview)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([330, 750])
        layout.addWidget(split, 1)

        self.points_box = QGroupBox(self.tr("2º sorteio: os ambulantes do evento selecionado nos pontos do dia"))
        points_layout = QHBoxLayout(self.points_box)
        points_form = QFormLayout()
        self.points = QLineEdit()
        self.points.setObjectName("points")
        self.points.setPlaceholderText(self.tr("1-20, ou A1, A2, B1…"))
        self.place = QLineEdit()
        self.place.setObjectName("points-place")
        self.place.setPlaceholderText(self.tr("Onde o sorteio é feito, em público"))
        self.officials = QPlainTextEdit()
        self.officials.setObjectName("points-officials")
        self.officials.setPlaceholderText(self.tr("Quem conduz e quem testemunha — um por linha"))
        self.officials.setMaximumHeight(52)
        self.seed = QLineEdit()
        self.seed.setObjectName("points-seed")
        self.seed.setPlaceholderText(self.tr("A semente anunciada antes do sorteio"))
        self.seed.setStyleSheet("font-size: 13pt; padding: 3px;")
        points_form.addRow(self.tr("P&ontos:"), self.points)
        points_form.addRow(self.tr("&Local:"), self.place)
        points_form.addRow(self.tr("Responsáveis:"), self.officials)
        points_form.addRow(self.tr("Seme&nte:"), self.seed)
        buttons = QHBoxLayout()
        self.points_button = QPushButton(self.tr("Sortear os &pontos…"))
        self.points_button.setObjectName("draw-points")
        self.points_button.setStyleSheet("font-weight: 600; padding: 5px 12px;")
        self.sheet_button = QPushButton(self.tr("Salvar &folha do evento (PDF)…"))
        self.sheet_button.setObjectName("event-sheet")
        buttons.addWidget(self.points_button)
        buttons.addWidget(self.sheet_button)
        buttons.addStretch(1)
        points_form.addRow("", buttons)
        points_layout.addLayout(points_form, 1)
        self.assignments = QTableWidget(0, 3)
        self.assignments.setObjectName("assignments")
        self.assignments.setHorizontalHeaderLabels([self.tr("Ordem sorteada"), self.tr("Ponto"), self.tr("Ambulante")])
        self.assignments.verticalHeader().hide()
        self.assignments.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.assignments.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        points_layout.addWidget(self.assignments, 1)
        layout.addWidget(self.points_box)
        self.message = _message_line()
        layout.addWidget(self.message)

        self.draw_combo.currentIndexChanged.connect(lambda _i: self.show_draw())
        self.events_view.selectionModel().selectionChanged.connect(lambda *_: self._show_event())
        self.vacancies.valueChanged.connect(lambda _v: self._preview())
        self.add_button.clicked.connect(lambda: self.add_event())
        self.remove_button.clicked.connect(lambda: self.remove_last())
        self.points_button.clicked.connect(lambda: self.draw_points())
        self.sheet_button.clicked.connect(lambda: self.save_sheet())

    def refresh(self) -> None:
        keep = self.draw_combo.currentData()
        self.draw_combo.blockSignals(True)
        self.draw_combo.clear()
        for draw_id, label in rotation_draws():
            self.draw_combo.addItem(label, draw_id)
        if self.draw_combo.count() == 0:
            self.draw_combo.addItem(self.tr("(nenhum sorteio de lista corrida realizado)"), None)
        self.draw_combo.setCurrentIndex(max(0, self.draw_combo.findData(keep)))
        self.draw_combo.blockSignals(False)
        self.show_draw()

    def select_draw(self, draw_id: int) -> None:
        index = self.draw_combo.findData(draw_id)
        if index < 0:
            raise KeyError(draw_id)
        self.draw_combo.setCurrentIndex(index)
        self.show_draw()

    def show_draw(self) -> None:
        draw_id = self.draw_combo.currentData()
        keep = self.selected_event()
        self.state = rotation_state(draw_id) if draw_id else None
        state = self.state
        self.list_model.set_rows(state.rows if state else [])
        self.events_model.set_rows(state.events if state else [])
        for widget in (self.add_button, self.remove_button, self.event_date, self.event_label, self.vacancies):
            widget.setEnabled(state is not None and state.draw_status == "held")
        if state is None:
            self.about.setText(
                self.tr(
                    "Realize o sorteio que forma a lista corrida (aba «Sorteio»): a ordem sorteada "
                    "é aplicada evento após evento."
                )
            )
            self.preview.setText("")
            self._show_event()
            return
        if state.max_points:
            self.vacancies.setMaximum(state.max_points)
        limit = (
            self.tr("no máximo %1 pontos na área (%2)")
            .replace("%1", str(state.max_points))
            .replace("%2", state.max_basis)
            if state.max_points
            else self.tr("o ato não limita os pontos")
        )
        lines = [
            self.tr(
                "<b>%1 ambulantes</b> na ordem sorteada (semente «%2», SHA-256 <span style='%3'>%4…</span>). "
                "Cada evento pega os próximos da lista; quando ela acaba, recomeça do início (%5); %6."
            )
            .replace("%1", str(state.size))
            .replace("%2", escape(state.seed))
            .replace("%3", MONO)
            .replace("%4", state.list_sha256[:24])
            .replace("%5", escape(state.basis))
            .replace("%6", escape(limit))
        ]
        if state.draw_status != "held":
            lines.append(
                f"<span style='color: {theme.colour('error')};'>"
                + self.tr("Sorteio anulado: não recebe novos eventos.")
                + "</span>"
            )
        if state.problems:
            lines.append(
                f"<span style='color: {theme.colour('error')};'><b>"
                + self.tr("Conferência:")
                + "</b> "
                + escape(" ".join(state.problems))
                + "</span>"
            )
        elif state.events:
            lines.append(
                self.tr(
                    "Conferência: cada evento tem os ambulantes que a lista dá e cada sorteio de pontos "
                    "é reproduzido pela sua lista e semente."
                )
            )
        self.about.setText("<br>".join(lines))
        self.remove_button.setEnabled(
            bool(state.events) and state.events[-1].point_draw is None and state.draw_status == "held"
        )
        self._preview()
        row = next(
            (i for i, e in enumerate(state.events) if keep is not None and e.number == keep.number),
            len(state.events) - 1,
        )
        if row >= 0:
            self.events_view.selectRow(row)
        self._show_event()

    def _preview(self) -> None:
        if self.state is None or self.state.draw_status != "held":
            self.preview.setText("")
            return
        try:
            vendors, wrapped = preview_event(self.state.draw_id, self.vacancies.value())
        except UserError as exc:
            self.preview.setText(f"<span style='color: {theme.colour('error')};'>{escape(exc.message)}</span>")
            return
        text = (
            self.tr("<b>Próximo evento</b> (a partir do %1º da lista): %2")
            .replace("%1", str(self.state.next_start))
            .replace("%2", escape(", ".join(name for _pid, name in vendors)))
        )
        if wrapped:
            text += " — " + self.tr("a lista chega ao fim e recomeça do início.")
        self.preview.setText(text)

    def selected_event(self):
        return selected_row(self.events_view, self.events_model)

    def select_event(self, number: int) -> None:
        for row, e in enumerate(self.events_model.rows):
            if e.number == number:
                self.events_view.selectRow(row)
                return
        raise KeyError(number)

    def _show_event(self) -> None:
        e = self.selected_event()
        held = self.state is not None and self.state.draw_status == "held"
        can_draw = e is not None and e.point_draw is None and held
        for widget in (self.points, self.place, self.officials, self.seed, self.points_button):
            widget.setEnabled(can_draw)
        self.sheet_button.setEnabled(e is not None)
        if e is None:
            self.points_box.setTitle(self.tr("2º sorteio: os ambulantes do evento selecionado nos pontos do dia"))
            self.assignments.setRowCount(0)
            return
        self.points_box.setTitle(
            self.tr("2º sorteio — evento %1 (%2): %3 ambulante(s) nos pontos do dia")
            .replace("%1", str(e.number))
            .replace("%2", _day(e.event_date))
            .replace("%3", str(len(e.vendors)))
        )
        if e.point_draw is None:
            self.points.setText(f"1-{e.vacancies}")
            if self._seed_of != (self.state.draw_id, e.number):
                self.seed.clear()
            rows = [("", "", name) for _pid, name in e.vendors]
        else:
            pd = e.point_draw
            self.points.setText(", ".join(pd.points))
            self.place.setText(pd.place)
            self.officials.setPlainText(pd.officials)
            self.seed.setText(pd.seed)
            rows = [(f"{i}º", point_label(point), name) for i, (_pid, name, point) in enumerate(e.assignments, 1)]
        self._seed_of = (self.state.draw_id, e.number)
        self.assignments.setRowCount(len(rows))
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                self.assignments.setItem(r, c, QTableWidgetItem(value))

    def add_event(self):
        if self.state is None:
            return None
        try:
            event = add_event(
                self.state.draw_id,
                event_date=self.event_date.date().toPython(),
                vacancies=self.vacancies.value(),
                label=self.event_label.text(),
                by=current_user_name(),
            )
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        self.event_label.clear()
        self.show_draw()
        self.select_event(event.number)
        e = self.selected_event()
        self.message.setText(
            self.tr("Evento %1 registrado: %2 ambulante(s), do %3º da lista.")
            .replace("%1", str(e.number))
            .replace("%2", str(len(e.vendors)))
            .replace("%3", str(e.start))
            + (" " + self.tr("A lista chegou ao fim e recomeçou do início.") if e.wrapped else "")
        )
        return event

    def remove_last(self) -> bool:
        if self.state is None or not self.state.events:
            return False
        last = self.state.events[-1]
        answer = QMessageBox.question(
            self,
            self.tr("Excluir evento"),
            self.tr("Excluir o evento %1 (%2)? A lista corrida volta a continuar do evento anterior.")
            .replace("%1", str(last.number))
            .replace("%2", _day(last.event_date)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        try:
            number = remove_last_event(self.state.draw_id, by=current_user_name())
        except UserError as exc:
            self.message.setText(exc.message)
            return False
        self.message.setText(self.tr("Evento %1 excluído.").replace("%1", str(number)))
        self.show_draw()
        return True

    def draw_points(self):
        """The second draw of the selected event, with the seed typed in front of the public."""
        e = self.selected_event()
        if e is None or e.point_draw is not None:
            return None
        if not self.seed.text().strip():
            self.message.setText(self.tr("Informe a semente anunciada antes do sorteio dos pontos."))
            return None
        answer = QMessageBox.question(
            self,
            self.tr("Sortear pontos"),
            self.tr(
                "Sortear os pontos de %1 ambulante(s) do evento %2 com a semente «%3»?\n\nUm sorteio realizado não "
                "se altera."
            )
            .replace("%1", str(len(e.vendors)))
            .replace("%2", str(e.number))
            .replace("%3", self.seed.text().strip()),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
        try:
            pd = hold_point_draw(
                e.id,
                points=self.points.text(),
                seed=self.seed.text(),
                place=self.place.text(),
                officials=self.officials.toPlainText(),
                by=current_user_name(),
            )
        except FieldErrors as exc:
            self.message.setText(" ".join(exc.errors.values()))
            return None
        except UserError as exc:
            self.message.setText(exc.message)
            return None
        self.show_draw()
        self.select_event(e.number)
        self.message.setText(
            self.tr("Pontos do evento %1 sorteados (semente «%2», SHA-256 da lista %3).")
            .replace("%1", str(e.number))
            .replace("%2", pd.seed)
            .replace("%3", pd.list_sha256)
        )
        return pd

    def save_sheet(self, path: str | Path | None = None) -> Path | None:
        """The event's sheet: who works it, from where in the list, and the point draw (its ata)."""
        from reports.event_points import write_event_sheet_pdf

        e = self.selected_event()
        if e is None:
            return None
        written = save_pdf_as(
            self,
            path,
            title=self.tr("Folha do evento"),
            default_name=f"evento-{e.number}.pdf",
            write=lambda target: write_event_sheet_pdf(e.id, target),
            fail=self.message.setText,
        )
        if written is None:
            return None
        self.message.setText(
            self.tr("Folha do evento %1 gravada em %2.").replace("%1", str(e.number)).replace("%2", str(written))
        )
        return written


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
        names = [(self.call, self.tr("Chamamento e lista"))]
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
