"""The call tab: the call's text, its participants with their scores and debts, the list and its publication."""

from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import UserError
from models.base.money import format_brl
from models.rules.regimes import get_regime
from models.selection.appeals import publish_ranking
from models.selection.publications import publication_check, publication_kind, publish_list
from models.services.calls import (
    CallList,
    call_list,
    default_call_text,
    group_options,
    method_text,
    selection_regimes,
    site_options,
)
from views import theme
from views.blocks import fill, user_errors
from views.operations import in_background
from views.save import save_file_name
from views.selection.common import (
    MONO,
    date_edit,
    day_text,
    message_line,
    picked_date,
    rich_label,
    set_up_table,
    when_text,
    write_publication,
)
from views.table_models import Column, RowsModel, select_where, selected_row
from views.widgets import WrappingLabel, current_user_name


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
        site_edit = self.site.lineEdit()
        assert site_edit is not None  # an editable combo box has its line edit
        site_edit.setPlaceholderText(self.tr("todos os locais, ou digite o local/evento"))
        site_edit.editingFinished.connect(self._site_typed)
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
        theme.styled(self.method, "color: ${muted};")
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
                (self.tr("Pagamento"), lambda c: when_text(c.participant.paid_at) or c.paid_at_text),
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
        self.table = set_up_table(QTableView(), self.model, stretch=(2,))
        self.table.setObjectName("participants")
        self.detail = QLabel()
        self.detail.setObjectName("detail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setMargin(6)
        theme.styled(self.detail, "background: ${panel};")
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
        self.hash_label = rich_label("list-hash")
        box_layout.addWidget(self.hash_label, 1)
        publish_form = QFormLayout()
        self.published_on = date_edit("published-on", self.today)
        self.published_on.setToolTip(self.tr("A data em que a lista é afixada ou sai no jornal: dela contam os prazos"))
        self.medium = QLineEdit()
        self.medium.setObjectName("medium")
        self.medium.setPlaceholderText(self.tr("mural da Prefeitura, jornal…"))
        self.medium.setMinimumWidth(240)
        publish_form.addRow(self.tr("Publicada &em:"), self.published_on)
        publish_form.addRow(self.tr("O&nde:"), self.medium)
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
        self.message = message_line()
        layout.addWidget(self.message)

        self.regime.currentIndexChanged.connect(lambda _i: self._regime_changed())
        self.site.activated.connect(lambda _i: self.refresh_list())
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
        for regime in in_background(selection_regimes):
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
            sites, groups = in_background(lambda: (site_options(regime), group_options(regime)))
            for option in sites:
                self.site.addItem(option.label, option.value)
            for option in groups:
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
            site, group, today, marks = self.site_value(), self.group_value(), self.today, self.marks
            self.current = in_background(lambda: call_list(regime, site=site, group=group, today=today, marks=marks))
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
            self.hash_label.setText(fill(self.tr("Sem lista: %1"), escape(problem or self.tr("nenhum participante."))))
            self.publish_button.setEnabled(False)
            self.count.setText(fill(self.tr("%1 inscrito(s)"), str(len(current.candidates) if current else 0)))
            return
        listed = len(current.published.participants)
        self.count.setText(
            fill(
                self.tr("%1 inscrito(s): %2 na lista, %3 excluído(s)"),
                str(len(current.candidates)),
                str(listed),
                str(len(current.candidates) - listed),
            )
        )
        text = ""
        if current.process_note:
            text += f"<b>{escape(current.process_note)}</b><br>"
        text += fill(self.tr("SHA-256 da lista (%1 participante(s)):"), str(listed))
        text += f"<br><span style='{MONO} font-size: 11pt;'><b>{current.sha256}</b></span><br>"
        check = self.publication()
        pub = check.publication
        if check.matches:
            text += fill(
                self.tr("Publicada em %1 (%2, %3)."),
                day_text(pub.published_on),
                escape(pub.kind_label),
                escape(pub.medium or pub.created_by),
            )
        elif pub is not None:
            text += (
                f"<span style='color: {theme.colour('error')};'>"
                + fill(
                    self.tr("A lista mudou desde a publicação de %1: publique-a de novo antes do sorteio."),
                    day_text(pub.published_on),
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
            out.append(fill(self.tr("Pagamento: %1"), escape(c.paid_at_text)))
        if c.score is not None:
            act = get_regime(self.current.regime_id).short + ", " if self.current is not None else ""
            out.append(fill(self.tr("<b>Pontuação</b> (artigos: %1):"), escape(act.rstrip(", "))))
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
                    fill(self.tr("Idade e residência na data da inscrição: %1."), c.score.on.strftime("%d/%m/%Y"))
                )
            if c.rank is not None:
                place = fill(self.tr("%1º na classificação do grupo"), str(c.rank))
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
                self, self.tr("Preferência"), fill(self.tr("Preferência de %1:"), c.applicant), items, 0, False
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
        with user_errors(self.message) as refused:
            pub = publish(
                current,
                by=current_user_name(),
                published_on=picked_date(self.published_on),
                today=self.today,
                call=call,
                medium=medium,
            )
        if refused:
            return None
        written = write_publication(self, pub, path)
        if written is None:
            return None
        text = fill(
            self.tr("%1 publicada em %2: SHA-256 %3. PDF em %4; texto exato para conferir em %5."),
            pub.kind_label.capitalize(),
            day_text(pub.published_on),
            pub.list_sha256,
            str(path),
            str(path.with_suffix(".txt")),
        )
        if pub.appeal_due:
            text += " " + fill(self.tr("Prazo de recurso até %1 (%2)."), day_text(pub.appeal_due), pub.appeal_basis)
        self.message.setText(text)
        self._show_list()
        self.list_changed.emit()
        return path
