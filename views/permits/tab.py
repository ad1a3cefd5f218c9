"""The permits tab: the search, the permit's term, renewal window and history, and the acts on it.

The acts on the selected permit are done by :class:`views.permits.acts.PermitActs`, a collaborator the tab
creates with what it needs (the day, the key folder, the message line, the readings of the selection); here the
tab is laid out, lists and selects the permits, and shows the permit an act resulted in.

A little over 600 lines as one cohesive thing: the layout (about 230 lines of it) and the selection that
drives which acts are offered belong to the one widget.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from html import escape
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import UserError
from models.permits import (
    LIVE_STATUSES,
    ROWS_LIMIT,
    Permit,
    PermitRow,
    due_for_renewal,
    find_permit,
    permit_history,
    permit_rows,
    renewal_by_decree,
    renewal_window,
    startup_deadlines,
)
from models.rules.regimes import get_regime, shipped_regimes
from views import theme
from views.blocks import fill
from views.keys import search_keys
from views.operations import in_background
from views.permits.acts import PermitActs
from views.permits.common import (
    ACTS,
    RENEWAL_HORIZON_DAYS,
    STATUS_FILTERS,
    DueRow,
    DueRowsModel,
    MessageLine,
    StatusRowsModel,
    date_text,
    history_columns,
)
from views.roles import allow
from views.table_models import Column, RowsModel, make_table, selected_row
from views.widgets import (
    WrappingLabel,
    act_version_line,
)


class PermitsTab(QWidget):
    """The permits of every regime: filters, the list, the selected permit's details and history, the acts."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        key_dir: Path | None = None,
        today: Callable[[], _dt.date] | _dt.date | None = None,
    ):
        super().__init__(parent)
        self.key_dir = key_dir  # the municipal key (models.access.signing_keys) or, in tests, a key folder
        self._today = today
        self.message = MessageLine()
        self.acts = PermitActs(
            self,
            today=self.today,
            key_dir=key_dir,
            message=self.message,
            selected=self.selected,
            selected_due=self.selected_due,
        )
        acts = self.acts

        layout = QVBoxLayout(self)
        filters = QHBoxLayout()
        self.status = QComboBox()
        self.status.setObjectName("status")
        for name, key in STATUS_FILTERS:
            self.status.addItem(self.tr(name), key)
        self.regime = QComboBox()
        self.regime.setObjectName("regime")
        self.regime.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.query = QLineEdit()
        self.query.setObjectName("search")
        self.query.setPlaceholderText(self.tr("Número, CPF, CNPJ ou parte do nome do titular…"))
        self.query.setClearButtonEnabled(True)
        for text, widget, stretch in (
            (self.tr("&Situação:"), self.status, 0),
            (self.tr("Re&gime:"), self.regime, 0),
            (self.tr("&Buscar:"), self.query, 1),
        ):
            buddy = QLabel(text)
            buddy.setBuddy(widget)
            filters.addWidget(buddy)
            filters.addWidget(widget, stretch)
        layout.addLayout(filters)

        self.model = StatusRowsModel(
            [
                Column(self.tr("Número"), lambda r: r.number),
                Column(self.tr("Titular"), lambda r: r.holder_name, tooltip=lambda r: r.holder_name),
                Column(self.tr("CPF/CNPJ"), lambda r: r.holder_document),
                Column(self.tr("Situação"), lambda r: r.status_label),
                Column(
                    self.tr("Validade"),
                    lambda r: date_text(r.valid_until),
                    tooltip=lambda r: f"{date_text(r.valid_from)} a {date_text(r.valid_until)}",
                ),
                Column(self.tr("Regime"), lambda r: r.regime_short, tooltip=lambda r: r.regime_title),
                Column(self.tr("Tipo"), lambda r: r.kind_label, tooltip=lambda r: r.kind_label),
                Column(self.tr("Local"), lambda r: r.place, tooltip=lambda r: r.place or None),
            ],
            self,
        )
        self.table = make_table("permits", self.model)
        self.table.installEventFilter(self)
        header = self.table.horizontalHeader()
        fit, free = QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.Interactive
        for column, mode in enumerate((fit, free, fit, fit, fit, fit, free, QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(column, mode)
        header.resizeSection(1, 220)
        header.resizeSection(6, 190)
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        theme.styled(self.hint, "color: ${muted};")
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.hint)

        # page 1 — the selected permit: details and history side by side, the acts under them
        self.details_box = QGroupBox(self.tr("Permissão selecionada"))
        details = QFormLayout(self.details_box)
        details.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        details.setVerticalSpacing(3)
        self.detail_labels: dict[str, QLabel] = {}
        for key, caption in (
            ("holder", self.tr("Titular:")),
            ("kind", self.tr("Tipo:")),
            ("place", self.tr("Local:")),
            ("validity", self.tr("Validade:")),
            ("renewal", self.tr("Renovação:")),
            ("origin", self.tr("Origem:")),
        ):
            label = WrappingLabel()  # a long kind or validity takes the lines it needs (1280×720)
            label.setObjectName(f"detail-{key}")
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            details.addRow(caption, label)
            self.detail_labels[key] = label
        self.detail_labels["origin"].setTextFormat(Qt.TextFormat.RichText)
        # the pane keeps date, event, reason and who; the dialog (Enter on the list) shows every column
        columns = history_columns(self.tr)
        self.history_model = RowsModel([columns[0], columns[1], columns[4], columns[3]], self)
        self.history = make_table("history", self.history_model)
        history_header = self.history.horizontalHeader()
        history_header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        history_header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        history_box = QGroupBox(self.tr("Histórico"))
        QVBoxLayout(history_box).addWidget(self.history)
        panes = QHBoxLayout()
        panes.addWidget(self.details_box, 1)
        panes.addWidget(history_box, 1)

        self.buttons: dict[str, QPushButton] = {}
        groups = (
            (
                ("pdf-permit", self.tr("&Permissão (PDF)…"), lambda: acts.save_pdf("permit")),
                ("pdf-card", self.tr("Car&tão (PDF)…"), lambda: acts.save_pdf("card")),
                ("pdf-placard", self.tr("P&laca (PDF)…"), lambda: acts.save_pdf("placard")),
                ("print", self.tr("&Imprimir…"), lambda: acts.print_permit()),
                None,
                ("started", self.tr("R&egistrar início"), lambda: acts.record_selected("started")),
                ("picked-up", self.tr("Registrar retira&da"), lambda: acts.record_selected("picked-up")),
                ("leave", self.tr("A&fastamento…"), lambda: acts.leave_selected()),
            ),
            (
                ("renew", self.tr("&Renovar"), lambda: acts.renew_selected()),
                ("suspend", self.tr("S&uspender…"), lambda: acts.suspend_selected()),
                ("reactivate", self.tr("Reati&var"), lambda: acts.reactivate_selected()),
                ("revoke", self.tr("&Cassar…"), lambda: acts.revoke_selected()),
                ("cancel", self.tr("Ca&ncelar…"), lambda: acts.cancel_selected()),
                None,
                ("transfer", self.tr("Transferir a &herdeiro…"), lambda: acts.transfer_selected()),
                ("exchange", self.tr("Permutar l&ocal…"), lambda: acts.exchange_selected()),
            ),
        )
        actions = QVBoxLayout()
        actions.setSpacing(4)
        for group in groups:
            row = QHBoxLayout()
            for item in group:
                if item is None:
                    row.addSpacing(16)
                    continue
                key, text, slot = item
                button = QPushButton(text)
                button.setObjectName(key)
                button.clicked.connect(lambda _checked=False, s=slot: s())
                row.addWidget(button)
                self.buttons[key] = button
            row.addStretch(1)
            actions.addLayout(row)
        selected_page = QWidget()
        selected_layout = QVBoxLayout(selected_page)
        selected_layout.setContentsMargins(6, 6, 6, 6)
        selected_layout.addLayout(panes, 1)
        selected_layout.addLayout(actions)

        # page 2 — renewals whose window is open (or opens soon) and the open start-up deadlines
        due_page = QWidget()
        due_layout = QVBoxLayout(due_page)
        due_layout.setContentsMargins(6, 6, 6, 6)
        self.due_model = DueRowsModel(
            [
                Column(self.tr("Data"), lambda d: date_text(d.date)),
                Column(self.tr("Permissão"), lambda d: d.number),
                Column(self.tr("Titular"), lambda d: d.holder, tooltip=lambda d: d.holder),
                Column(self.tr("Prazo"), lambda d: d.what, tooltip=lambda d: d.what),
                Column(self.tr("Período"), lambda d: d.period),
                Column(self.tr("Fundamento"), lambda d: d.article, tooltip=lambda d: d.article),
            ],
            self,
        )
        self.due_table = make_table("due", self.due_model)
        due_header = self.due_table.horizontalHeader()
        due_header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        due_header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        due_header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        due_header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        due_header.resizeSection(2, 240)
        due_header.resizeSection(3, 260)
        due_layout.addWidget(self.due_table, 1)
        due_buttons = QHBoxLayout()
        self.due_renew = QPushButton(self.tr("&Renovar"))
        self.due_renew.setObjectName("due-renew")
        self.due_renew.clicked.connect(lambda: acts.renew_due())
        self.due_hint = QLabel()
        self.due_hint.setObjectName("due-hint")
        theme.styled(self.due_hint, "color: ${muted};")
        self.due_renew_documents = QPushButton(self.tr("Renovar com &documentos…"))
        self.due_renew_documents.setObjectName("due-renew-documents")
        self.due_renew_documents.clicked.connect(lambda: acts.renew_due_with_documents())
        self.due_extend = QPushButton(self.tr("Prorrogar &início…"))
        self.due_extend.setObjectName("due-extend-startup")
        self.due_extend.clicked.connect(lambda: acts.extend_startup_due())
        self.expire_button = QPushButton(self.tr("Dar baixa nas &vencidas…"))
        self.expire_button.setObjectName("expire-due")
        self.expire_button.clicked.connect(lambda: acts.expire_lapsed())
        due_buttons.addWidget(self.due_renew)
        due_buttons.addWidget(self.due_renew_documents)
        due_buttons.addWidget(self.due_extend)
        due_buttons.addStretch(1)
        self.decree_button = QPushButton(self.tr("Decreto de re&novação…"))
        self.decree_button.setObjectName("renewal-decree")
        self.decree_button.setToolTip(
            self.tr("Registra o decreto do Executivo que fixa a janela de renovação, onde o ato a deixa a decreto.")
        )
        self.decree_button.clicked.connect(lambda: acts.record_decree())
        due_buttons.addWidget(self.decree_button)
        due_buttons.addWidget(self.expire_button)
        due_layout.addLayout(due_buttons)
        # what Renovar needs, on a line of its own: with the decree's button the row no longer fits 1280 px beside it
        self.due_hint.setWordWrap(True)
        due_layout.addWidget(self.due_hint)

        # the two pages share the space under the list; the actions of one are hidden (and their
        # mnemonics off) while the other shows, so both may say "&Renovar"
        self.pages = QTabWidget()
        self.pages.setObjectName("pages")
        self.pages.addTab(selected_page, self.tr("Permissão selecionada"))
        self.pages.addTab(due_page, self.tr("Renovações e pra&zos"))
        self.pages.currentChanged.connect(self._page_changed)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.pages)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.message)

        self.status.currentIndexChanged.connect(lambda _i: self.refresh_rows())
        self.regime.currentIndexChanged.connect(lambda _i: self.refresh_rows())
        self.query.textChanged.connect(lambda _t: self.refresh_rows())
        self.query.returnPressed.connect(self._to_table)
        search_keys(self.query, self.table)  # Enter in the list: its own activated (the history)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self.table.activated.connect(lambda _index: acts.open_history())
        self.table.pressed.connect(lambda _index: self.pages.setCurrentIndex(0))
        self.due_table.selectionModel().currentRowChanged.connect(lambda *_: self._update_due())
        QShortcut(QKeySequence(self.tr("Ctrl+L")), self, self.focus_search)
        acts.permit_changed.connect(self.show_permit)
        acts.rows_stale.connect(self.refresh_rows)
        acts.due_stale.connect(self.refresh_due)
        self._show_selected()
        self._update_due()

    def eventFilter(self, watched, event):
        # reaching the list from the keyboard brings back the selected permit's page
        if watched is self.table and event.type() == QEvent.Type.FocusIn:
            self.pages.setCurrentIndex(0)
        return super().eventFilter(watched, event)

    def _page_changed(self, index: int) -> None:
        if index == 1:
            self.due_table.setFocus()
            if not self.due_table.currentIndex().isValid() and self.due_model.rows:
                self.due_table.selectRow(0)

    # ------------------------------------------------------------------ data

    def today(self) -> _dt.date:
        if callable(self._today):
            return self._today()
        return self._today or _dt.date.today()

    def refresh(self) -> None:
        """Reload the regimes, the list (keeping the selection) and the renewals and deadlines."""
        from views.widgets import fill_regime_filter

        fill_regime_filter(self.regime, in_background(shipped_regimes))  # the municipality's own act(s) first
        self.refresh_rows()
        self.refresh_due()

    def refresh_rows(self) -> None:
        selected = self.selected()
        from views.widgets import regime_filter_value

        status, regime, text, today = (
            self.status.currentData(),
            regime_filter_value(self.regime),
            self.query.text(),
            self.today(),
        )
        rows = in_background(lambda: permit_rows(status=status, regime=regime, text=text, today=today))
        self.model.set_rows(rows)
        # selecting a row after the reset shows its details (currentRowChanged); an empty list clears them
        if not (selected is not None and self.select_permit(selected.id)) and rows:
            self.table.selectRow(0)
        if len(rows) >= ROWS_LIMIT:
            self.hint.setText(
                fill(
                    self.tr("As %1 permissões mais recentes; use a busca ou os filtros para achar outras."),
                    str(ROWS_LIMIT),
                )
            )
        elif rows:
            count = self.tr("1 permissão") if len(rows) == 1 else fill(self.tr("%1 permissões"), str(len(rows)))
            self.hint.setText(fill(self.tr("%1. Enter na lista abre o histórico completo."), count))
        elif self.query.text().strip():
            self.hint.setText(self.tr("Nenhuma permissão encontrada com estes filtros."))
        else:
            self.hint.setText(self.tr("Nenhuma permissão nesta situação."))
        if not rows:
            self._show_selected()

    def refresh_due(self) -> None:
        today = self.today()
        rows = []
        due, startups = in_background(lambda: (due_for_renewal(today, RENEWAL_HORIZON_DAYS), startup_deadlines(today)))
        for item in due:
            is_open = item.opens <= today
            what = self.tr("renovação (pedido aberto)") if is_open else self.tr("renovação (abre em breve)")
            rows.append(
                DueRow(
                    item.closes if is_open else item.opens,
                    item.permit_id,
                    item.number,
                    item.holder,
                    what,
                    f"{date_text(item.opens)} a {date_text(item.closes)}",
                    item.article,
                    False,
                    is_open,
                )
            )
        for deadline in startups:
            what = deadline.label + (self.tr(" — vencido") if deadline.overdue else "")
            rows.append(
                DueRow(
                    deadline.due,
                    deadline.permit_id,
                    deadline.number,
                    deadline.holder,
                    what,
                    fill(self.tr("até %1"), date_text(deadline.due)),
                    deadline.article,
                    deadline.overdue,
                    False,
                    deadline.extendable,
                )
            )
        rows.sort(key=lambda r: (r.date, r.number))
        selected = self.selected_due()
        self.due_model.set_rows(rows)
        self.pages.setTabText(1, fill(self.tr("Renovações e pra&zos (%1)"), str(len(rows))))
        if selected is not None:
            for index, row in enumerate(rows):
                if (row.permit_id, row.what) == (selected.permit_id, selected.what):
                    self.due_table.selectRow(index)
                    break
        self._update_due()

    # ------------------------------------------------------------------ selection

    def selected(self) -> PermitRow | None:
        return selected_row(self.table, self.model)

    def selected_due(self) -> DueRow | None:
        return selected_row(self.due_table, self.due_model)

    def select_permit(self, permit_id: int) -> bool:
        for index, row in enumerate(self.model.rows):
            if row.id == permit_id:
                self.table.selectRow(index)
                self.table.scrollTo(self.model.index(index, 0))
                return True
        return False

    def show_permit(self, permit: Permit) -> None:
        """Refresh and select ``permit``; filters that hide it are relaxed one by one (status, regime, search)."""
        self.refresh_due()
        self.refresh_rows()
        relax = (
            lambda: self.status.setCurrentIndex(self.status.findData(None)),
            lambda: self.regime.setCurrentIndex(0),
            lambda: self.query.setText(permit.number),
        )
        for step in relax:
            if self.select_permit(permit.id):
                break
            for widget in (self.status, self.regime, self.query):
                widget.blockSignals(True)
            step()
            for widget in (self.status, self.regime, self.query):
                widget.blockSignals(False)
            self.refresh_rows()
        self.select_permit(permit.id)
        self._show_selected()

    def focus_search(self) -> None:
        self.query.setFocus()
        self.query.selectAll()

    def _to_table(self) -> None:
        if self.model.rows:
            self.table.setFocus()
            if not self.table.currentIndex().isValid():
                self.table.selectRow(0)

    def _show_selected(self) -> None:
        row = self.selected()
        labels = self.detail_labels
        if row is None:
            for label in labels.values():
                label.clear()
            self.details_box.setTitle(self.tr("Permissão selecionada"))
            self.history_model.set_rows([])
            self._update_actions(None, None, [])
            return
        permit, history, window = in_background(lambda: _permit_facts(row))
        self.history_model.set_rows(history)
        self.history.scrollToBottom()
        self.details_box.setTitle(fill(self.tr("Permissão nº %1 — %2"), row.number, row.status_label))
        labels["holder"].setText(f"{row.holder_name} ({row.holder_document})")
        labels["kind"].setText(f"{row.kind_label} — {row.regime_title}")
        labels["place"].setText(row.place or self.tr("—"))
        issued = next((e for e in history if e.kind == "issued"), None)
        origin = escape(issued.reason if issued is not None else row.origin)
        # the act's version it was issued by, even after the act was amended (on the origin's line: the pane
        # fits 1280×720, tests/test_fit.py)
        version = act_version_line(self, permit.regime, permit.act_sha256, short=True)
        labels["origin"].setText(fill(self.tr("%1 · %2"), origin, version) if version else origin)
        term = ""
        if issued is not None and issued.details.get("term"):
            term = issued.details["term"]
            if issued.details.get("article"):
                term += f"; {issued.details['article']}"
            term = f" ({term})"
        labels["validity"].setText(
            fill(self.tr("de %1 a %2"), date_text(row.valid_from), date_text(row.valid_until)) + term
        )
        try:
            by_decree = renewal_by_decree(row.regime, row.permit_kind) if window is None else None
        except UserError:  # a regime file no longer shipped
            by_decree = None
        if by_decree is not None:
            labels["renewal"].setText(
                fill(
                    self.tr(
                        "janela fixada por decreto do Executivo (%1): nenhum decreto registrado para as permissões "
                        "que terminam em %2 — Renovações e prazos → Decreto de renovação…"
                    ),
                    by_decree_article(row.regime, by_decree),
                    str(row.valid_until.year),
                )
            )
        elif window is None:
            labels["renewal"].setText(self.tr("o ato não prevê renovação; faz-se novo requerimento."))
        else:
            labels["renewal"].setText(
                fill(
                    self.tr("pedido de %1 a %2 (%3; %4)"),
                    date_text(window.opens),
                    date_text(window.closes),
                    window.text,
                    window.article,
                )
            )
        self._update_actions(row, window, history)

    def _update_actions(self, row: PermitRow | None, window, history) -> None:
        today = self.today()
        status = row.status if row is not None else None
        live = status in LIVE_STATUSES
        lapsed = row is not None and row.lapsed
        holder_kind = row.holder_kind if row is not None else None
        origin = row.origin if row is not None else None
        printable = live and not lapsed  # no valid-looking card of a permit past its last day
        active = status == "active" and not lapsed
        kind = regime = None
        if row is not None:
            try:
                regime = get_regime(row.regime)
                kind = regime.permit_kind(row.permit_kind)
            except UserError:
                pass
        done = {e.kind for e in history}
        enabled = {
            "pdf-permit": printable,
            "pdf-card": printable,
            "pdf-placard": printable and regime is not None and regime.placard is not None,
            "print": printable,
            "suspend": active,
            "reactivate": status == "suspended" and not lapsed,
            "revoke": live,
            "cancel": live,
            "renew": active and window is not None and window.contains(today),
            "leave": active and kind is not None and kind.leave is not None,
            "transfer": active and kind is not None and kind.transfer is not None and holder_kind == "person",
            "exchange": active,
            "started": live and origin == "application" and "started" not in done,
            "picked-up": live and origin == "application" and "picked-up" not in done,
        }
        tips = {
            "pdf-placard": self.tr("O regime não prevê placa indicativa.")
            if regime is not None and regime.placard is None
            else "",
            "renew": (
                self.tr("O ato não prevê renovação.")
                if window is None
                else fill(
                    self.tr("Pedido de renovação de %1 a %2 (%3)."),
                    date_text(window.opens),
                    date_text(window.closes),
                    window.article,
                )
            )
            if row is not None
            else "",
            "leave": self.tr("O ato não prevê descanso ou afastamento.")
            if kind is not None and kind.leave is None
            else "",
            "transfer": self.tr("O ato não prevê a transferência a herdeiro.")
            if kind is not None and kind.transfer is None
            else "",
        }
        for key, button in self.buttons.items():
            button.setEnabled(bool(enabled.get(key)))
            button.setToolTip(tips.get(key, ""))
            button.setProperty("role-tip", False)
            act = ACTS.get(key)
            if act is not None:  # what the user's role may not do: disabled, saying who may
                allow(button, act, bool(enabled.get(key)))

    def _update_due(self) -> None:
        item = self.selected_due()
        allow(self.due_renew, "permits.lifecycle", item is not None and item.renewal_open)
        allow(self.decree_button, "calendar.edit", True)
        allow(self.due_renew_documents, "permits.lifecycle", item is not None and item.renewal_open)
        allow(self.due_extend, "permits.lifecycle", item is not None and item.extendable)
        if not self.due_model.rows:
            self.due_hint.setText(
                fill(
                    self.tr("Nada a renovar nos próximos %1 dias e nenhum prazo de início aberto."),
                    str(RENEWAL_HORIZON_DAYS),
                )
            )
        elif item is not None and not item.renewal_open:
            self.due_hint.setText(self.tr("Selecione uma renovação com pedido aberto para renovar."))
        else:
            self.due_hint.setText(
                self.tr("Renova a permissão selecionada nesta lista, conferindo de novo os requisitos.")
            )


def _permit_facts(row: PermitRow):
    """The selected permit, its history and its renewal window, read on a worker thread (issue 27 §5)."""
    permit = find_permit(row.number)
    try:
        window = renewal_window(permit)
    except UserError:  # a regime file no longer shipped
        window = None
    return permit, permit_history(row.id), window


def by_decree_article(regime_id: str, renewal) -> str:
    """The article of the act that leaves the renewal window to a decree."""
    return get_regime(regime_id).cite_item(renewal)
