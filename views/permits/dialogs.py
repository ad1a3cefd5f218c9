"""The dialogs of the acts on a permit: its history, a leave, a renewal, the heir, an exchange."""

from __future__ import annotations

import datetime as _dt
from html import escape

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.permits import (
    Permit,
    PermitEvent,
    PermitRow,
    RenewalDecreeInput,
    decree_choices,
    decree_text,
    find_permit,
    grant_leave,
    permit_history,
    permit_rows,
    record_renewal_decree,
    renewal_decrees,
)
from models.permits.renewal import DocumentOnFile
from models.registry.search import find_applicants
from models.rules.regimes import get_regime
from models.services.issuing import renew
from views import theme
from views.blocks import FieldErrorsView, error_label, fill, user_errors
from views.fit import fit_to_screen
from views.operations import LatestQuery, in_background
from views.permits.common import date_text, history_columns
from views.save import open_file_name
from views.table_models import Column, RowsModel, make_table, selected_row
from views.widgets import DateEdit, DocumentEdit, current_user_name


def register_buttons(dialog: QDialog, layout: QVBoxLayout) -> QPushButton:
    """Registrar / Cancelar at the foot of a dialog that records a fact; returns Registrar."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(dialog.tr("&Registrar"))
    buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(dialog.tr("Cancelar"))
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    return buttons.button(QDialogButtonBox.StandardButton.Ok)


class HistoryDialog(QDialog):
    """The whole history of one permit, every column at full width."""

    def __init__(self, row: PermitRow, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(fill(self.tr("Histórico da permissão nº %1"), row.number))
        layout = QVBoxLayout(self)
        heading = QLabel(
            f"<b>{escape(row.number)}</b> — {escape(row.holder_name)} ({row.holder_document})<br>"
            f"{escape(row.kind_label)} · {escape(row.regime_short)} · {escape(row.status_label)}"
        )
        heading.setTextFormat(Qt.TextFormat.RichText)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.model = RowsModel(history_columns(self.tr), self)
        self.model.set_rows(in_background(lambda: permit_history(row.id)))  # issue 27 §5
        self.table = make_table("history", self.model)
        self.table.setWordWrap(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        layout.addWidget(self.table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        fit_to_screen(self, QSize(900, 420))


class LeaveDialog(QDialog):
    """Descanso/afastamento: the period and, if any, the substitute; the domain checks the act's limits."""

    def __init__(self, permit: Permit, today: _dt.date, parent: QWidget | None = None):
        super().__init__(parent)
        self.permit, self.today = permit, today
        self.leave: PermitEvent | None = None  # not self.event: that is QWidget.event()
        self.setWindowTitle(fill(self.tr("Afastamento — permissão nº %1"), permit.number))
        layout = QVBoxLayout(self)
        intro = QLabel(self._rule_text(permit))
        intro.setObjectName("leave-rule")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.start = DateEdit()
        self.start.setObjectName("leave-start")
        self.end = DateEdit()
        self.end.setObjectName("leave-end")
        self.substitute_name = QLineEdit()
        self.substitute_name.setObjectName("substitute-name")
        self.substitute_cpf = DocumentEdit("cpf")
        self.substitute_cpf.setObjectName("substitute-cpf")
        self.reason = QLineEdit()
        self.reason.setObjectName("leave-reason")
        self.reason.setPlaceholderText(self.tr("descanso anual"))
        form.addRow(self.tr("&Início:"), self.start)
        form.addRow(self.tr("&Fim:"), self.end)
        form.addRow(self.tr("&Substituto (nome):"), self.substitute_name)
        form.addRow(self.tr("&CPF do substituto:"), self.substitute_cpf)
        form.addRow(self.tr("&Motivo:"), self.reason)
        layout.addLayout(form)
        self.error = QLabel()
        theme.styled(self.error, "color: ${error};")
        layout.addWidget(self.error)
        self.errors = FieldErrorsView(
            self.error,
            {
                "start": self.start,
                "end": self.end,
                "substitute_name": self.substitute_name,
                "substitute_cpf": self.substitute_cpf,
            },
        )
        self.ok_button = register_buttons(self, layout)
        self.setMinimumWidth(480)

    def _rule_text(self, permit: Permit) -> str:
        """What the act allows, so the clerk asks right the first time (the domain checks it anyway)."""
        try:
            regime = get_regime(permit.regime)
            leave = regime.permit_kind(permit.permit_kind).leave
        except UserError:
            return ""
        if leave is None:
            return ""
        parts = [fill(self.tr("até %1 dias por ano"), str(leave.max_days_per_year))]
        if leave.max_periods:
            parts.append(fill(self.tr("em até %1 período(s)"), str(leave.max_periods)))
        if leave.notice_days:
            parts.append(fill(self.tr("pedido com %1 dias de antecedência"), str(leave.notice_days)))
        text = ", ".join(parts)
        return fill(
            self.tr("O ato permite %1 (%2). Validade da permissão: %3 a %4."),
            text,
            regime.cite_item(leave),
            date_text(permit.valid_from),
            date_text(permit.valid_until),
        )

    def accept(self) -> None:
        errors: dict[str, str] = {}
        dates: dict[str, _dt.date | None] = {}
        for key, edit in (("start", self.start), ("end", self.end)):
            try:
                dates[key] = edit.date()
            except UserError as exc:
                errors[key] = exc.message
            else:
                if dates[key] is None:
                    errors[key] = self.tr("Informe a data (dd/mm/aaaa).")
        start, end = dates.get("start"), dates.get("end")
        if errors or start is None or end is None:  # a date missing is among the errors
            self.errors.show(errors)
            return
        permit, name, cpf = self.permit, self.substitute_name.text(), self.substitute_cpf.compact()
        by, today, reason = current_user_name(), self.today, self.reason.text()
        try:  # the fields read here; the act's check and the write on a worker (issue 27 §5)
            self.leave = in_background(
                lambda: grant_leave(permit, start, end, name, cpf, by=by, today=today, reason=reason),
                busy=(self.ok_button,),
            )
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            return
        except UserError as exc:
            self.errors.clear()
            self.error.setText(exc.message)
            return
        super().accept()


class RenewalDialog(QDialog):
    """Renew with the documents the act requires: what is on file, and the new ones delivered now."""

    def __init__(
        self,
        permit: Permit,
        on_file: list[DocumentOnFile],
        today: _dt.date,
        key_dir,
        parent: QWidget | None = None,
        *,
        refusal: str = "",
    ):
        """``on_file``: ``documents_on_file(permit)``, read on a worker (issue 27 §5)."""
        super().__init__(parent)
        self.permit, self.today, self.key_dir = permit, today, key_dir
        self.renewed: Permit | None = None
        self.setWindowTitle(fill(self.tr("Renovar — permissão nº %1"), permit.number))
        layout = QVBoxLayout(self)
        intro = QLabel(
            refusal
            or self.tr(
                "Informe os documentos entregues agora; os demais seguem os que estão em "
                "arquivo. Os requisitos são conferidos de novo ao renovar."
            )
        )
        intro.setObjectName("renewal-intro")
        intro.setWordWrap(True)
        if refusal:
            theme.styled(intro, "color: ${error};")
        layout.addWidget(intro)
        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        for column, head in enumerate(
            (
                self.tr("Documento (base legal)"),
                self.tr("Em arquivo"),
                self.tr("Entregue em"),
                self.tr("Válido até"),
                self.tr("Arquivo digitalizado"),
            )
        ):
            title = QLabel(f"<b>{escape(head)}</b>")
            grid.addWidget(title, 0, column, 1, 2 if column == 4 else 1)
        self.rows: dict[str, tuple[DateEdit, DateEdit, QLineEdit]] = {}
        for line, doc in enumerate(on_file, start=1):
            if doc.delivered_on:
                state = fill(self.tr("entregue em %1"), date_text(doc.delivered_on))
                if doc.valid_until:
                    state += fill(self.tr("; válido até %1"), date_text(doc.valid_until))
            else:
                state = self.tr("não consta")
            state = escape(state)
            if doc.expired:
                state = f'<b style="color:{theme.colour("error")}">{state}</b>'
            label = QLabel(f"{escape(doc.label)} <small>({escape(doc.basis)})</small>")
            label.setWordWrap(True)
            label.setMinimumWidth(320)
            status = QLabel(state)
            status.setObjectName(f"on-file-{doc.document}")
            status.setWordWrap(True)
            delivered, until, file_edit = DateEdit(), DateEdit(), QLineEdit()
            delivered.setObjectName(f"delivered-{doc.document}")
            until.setObjectName(f"until-{doc.document}")
            file_edit.setObjectName(f"file-{doc.document}")
            file_edit.setPlaceholderText(self.tr("opcional"))
            browse = QPushButton(self.tr("…"))
            browse.setFixedWidth(32)
            browse.setToolTip(self.tr("Escolher o arquivo digitalizado"))
            browse.clicked.connect(lambda _c=False, e=file_edit: self._browse(e))
            for column, widget in enumerate((label, status, delivered, until, file_edit, browse)):
                grid.addWidget(widget, line, column)
            self.rows[doc.document] = (delivered, until, file_edit)
        grid.setRowStretch(len(self.rows) + 1, 1)  # rows packed at the top
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(4, 2)
        holder = QWidget()
        holder.setLayout(grid)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        layout.addWidget(scroll, 1)
        self.error = error_label("renewal-error")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Renovar"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancelar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        fit_to_screen(self, QSize(1100, 560))

    def _browse(self, edit: QLineEdit) -> None:
        path, _ = open_file_name(
            self, self.tr("Documento digitalizado"), "", self.tr("Documentos (*.pdf *.png *.jpg *.jpeg);;Todos (*)")
        )
        if path:
            edit.setText(path)

    def accept(self) -> None:
        from models.registry.applications import DocumentInput

        documents = []
        for doc_id, (delivered, until, file_edit) in self.rows.items():
            with user_errors(self.error) as refused:
                on, valid = delivered.date(), until.date()
            if refused:
                return
            if on is None and valid is None and not file_edit.text().strip():
                continue
            if on is None:
                self.error.setText(self.tr("Informe a data de entrega de cada documento novo."))
                delivered.setFocus()
                return
            documents.append(DocumentInput(doc_id, on, valid, file_edit.text().strip() or None))
        permit, by, today, key_dir = self.permit, current_user_name(), self.today, self.key_dir
        try:  # the requirements checked again and the new permit issued on a worker (issue 27 §5)
            self.renewed = in_background(
                lambda: renew(permit, by=by, today=today, key_dir=key_dir, documents=documents),
                busy=(self.ok_button,),
            )
        except FieldErrors as exc:
            self.error.setText(" ".join(exc.errors.values()))
            return
        except UserError as exc:
            self.error.setText(exc.message)
            return
        super().accept()


class RenewalDecreeDialog(QDialog):
    """Decreto de renovação: where an act leaves the renewal window to the Executive, the decree's number, date and
    window as the authority set them — recorded with who recorded it; renewals then use it."""

    def __init__(self, today: _dt.date, parent: QWidget | None = None):
        super().__init__(parent)
        self.decree = None
        self.setWindowTitle(self.tr("Decreto de renovação"))
        layout = QVBoxLayout(self)
        self.choices, recorded = in_background(lambda: (decree_choices(), renewal_decrees()))
        intro = QLabel(
            self.tr(
                "Onde o ato deixa a janela de renovação a decreto do Executivo, o Praça não a inventa: registre o "
                "decreto (número, data e janela). As renovações das permissões que terminam no exercício o usam."
            )
            if self.choices
            else self.tr("Nenhum ato deste município deixa a janela de renovação a decreto: nada a registrar.")
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("decree-kind")
        for choice in self.choices:
            self.kind.addItem(f"{choice.label} ({choice.article})", (choice.regime, choice.permit_kind))
        self.year = QLineEdit(str(today.year))
        self.year.setObjectName("decree-year")
        self.number = QLineEdit()
        self.number.setObjectName("decree-number")
        self.number.setPlaceholderText(self.tr("Decreto nº 1.234/2026"))
        self.decree_date = DateEdit()
        self.decree_date.setObjectName("decree-date")
        self.opens = DateEdit()
        self.opens.setObjectName("decree-opens")
        self.closes = DateEdit()
        self.closes.setObjectName("decree-closes")
        self.notes = QLineEdit()
        self.notes.setObjectName("decree-notes")
        form.addRow(self.tr("&Tipo de permissão:"), self.kind)
        form.addRow(self.tr("&Exercício (ano em que terminam):"), self.year)
        form.addRow(self.tr("&Decreto:"), self.number)
        form.addRow(self.tr("D&ata do decreto:"), self.decree_date)
        form.addRow(self.tr("&Janela — início:"), self.opens)
        form.addRow(self.tr("Janela — &fim:"), self.closes)
        form.addRow(self.tr("&Observação:"), self.notes)
        layout.addLayout(form)
        self.recorded = QLabel("<br>".join(escape(decree_text(d)) for d in recorded[:8]))
        self.recorded.setObjectName("decrees-recorded")
        self.recorded.setWordWrap(True)
        layout.addWidget(self.recorded)
        self.error = error_label()
        layout.addWidget(self.error)
        self.errors = FieldErrorsView(
            self.error,
            {
                "permit_kind": self.kind,
                "year": self.year,
                "number": self.number,
                "decree_date": self.decree_date,
                "opens": self.opens,
                "closes": self.closes,
            },
        )
        self.ok_button = register_buttons(self, layout)
        self.ok_button.setEnabled(bool(self.choices))
        self.setMinimumWidth(560)

    def accept(self) -> None:
        regime, kind = self.kind.currentData() or ("", "")
        data = RenewalDecreeInput(
            regime=regime,
            permit_kind=kind,
            year=self.year.text(),
            number=self.number.text(),
            decree_date=self.decree_date.text(),
            opens=self.opens.text(),
            closes=self.closes.text(),
            notes=self.notes.text(),
        )
        with user_errors(self.errors) as refused:  # each mistake at its field, a refusal on the line
            self.decree = in_background(lambda: record_renewal_decree(data), busy=(self.ok_button,))
        if refused:
            return
        super().accept()


class HeirDialog(QDialog):
    """Transferir a herdeiro: find the heir among the registered people by CPF or name; the reason is required."""

    def __init__(self, row: PermitRow, parent: QWidget | None = None):
        super().__init__(parent)
        self.row = row
        self.setWindowTitle(fill(self.tr("Transferir a herdeiro — permissão nº %1"), row.number))
        layout = QVBoxLayout(self)
        intro = QLabel(
            fill(
                self.tr("Titular atual: %1 (%2). A permissão transferida vale pelo prazo restante, até %3."),
                row.holder_name,
                row.holder_document,
                date_text(row.valid_until),
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.query = QLineEdit()
        self.query.setObjectName("heir-search")
        self.query.setPlaceholderText(self.tr("CPF ou parte do nome de uma pessoa cadastrada…"))
        self.query.setClearButtonEnabled(True)
        form.addRow(self.tr("&Herdeiro:"), self.query)
        layout.addLayout(form)
        self.model = RowsModel(
            [
                Column(self.tr("Nome"), lambda m: m.name),
                Column(self.tr("CPF"), lambda m: m.document),
                Column(self.tr("Cidade"), lambda m: m.detail),
            ],
            self,
        )
        self.table = make_table("heirs", self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)
        form2 = QFormLayout()
        self.reason = QLineEdit()
        self.reason.setObjectName("heir-reason")
        self.reason.setPlaceholderText(self.tr("falecimento do titular e indicação dos sucessores"))
        form2.addRow(self.tr("&Motivo:"), self.reason)
        layout.addLayout(form2)
        self.error = error_label("")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Transferir"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancelar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # the people search as you type, off the GUI thread (issue 27 §5): the latest text wins
        self._finder = LatestQuery(self, find_applicants, self._show_matches)
        self.query.textChanged.connect(self.search)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update())
        self._update()
        fit_to_screen(self, QSize(620, 380))

    @property
    def searching(self) -> bool:
        return self._finder.busy

    def search(self) -> None:
        self._finder.ask(self.query.text())

    def _show_matches(self, found) -> None:
        holder = self.row.holder_id if self.row.holder_kind == "person" else None
        matches = [m for m in found if m.kind == "person" and m.id != holder]
        self.model.set_rows(matches)
        if matches:
            self.table.selectRow(0)
        self._update()

    def heir(self):
        return selected_row(self.table, self.model)

    def _update(self) -> None:
        self.ok_button.setEnabled(self.heir() is not None)

    def accept(self) -> None:
        if self.heir() is None:
            self.error.setText(self.tr("Escolha o herdeiro na lista."))
            return
        super().accept()


class ExchangeDialog(QDialog):
    """Permutar local: the other permit by its number (shown as typed) and the Administration's consent."""

    def __init__(self, row: PermitRow, today: _dt.date, parent: QWidget | None = None):
        super().__init__(parent)
        self.row, self.today = row, today
        self.other: Permit | None = None
        self.other_holder = ""  # the other permit's holder, read with it on the worker
        self.setWindowTitle(fill(self.tr("Permutar local — permissão nº %1"), row.number))
        layout = QVBoxLayout(self)
        intro = QLabel(
            fill(
                self.tr("%1 (%2), em %3, troca de local com o titular de outra permissão do mesmo tipo."),
                row.holder_name,
                row.number,
                row.place or self.tr("local não informado"),
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.number = QLineEdit()
        self.number.setObjectName("other-number")
        self.number.setPlaceholderText(self.tr("AAAA/NNNNN"))
        self.found = QLabel()
        self.found.setObjectName("other-found")
        self.found.setWordWrap(True)
        self.reason = QLineEdit()
        self.reason.setObjectName("exchange-reason")
        self.reason.setPlaceholderText(self.tr("despacho ou processo que autoriza a permuta"))
        form.addRow(self.tr("&Outra permissão nº:"), self.number)
        layout.addLayout(form)
        layout.addWidget(self.found)
        form2 = QFormLayout()
        form2.addRow(self.tr("&Anuência:"), self.reason)
        layout.addLayout(form2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Permutar"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancelar"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # the other permit is looked up on a worker as the clerk types; only the newest answer is shown (issue 27 §5)
        self._finder = LatestQuery(self, _other_permit, self._found, self._not_found)
        self.number.textChanged.connect(self._look_up)
        self._look_up()
        self.setMinimumWidth(560)

    @property
    def searching(self) -> bool:
        return self._finder.busy

    def _look_up(self) -> None:
        self.other = None
        self.ok_button.setEnabled(False)
        text = self.number.text().strip()
        if not text:
            self.found.setText(self.tr("Digite o número da outra permissão."))
        else:
            self._finder.ask(text, self.today)

    def _found(self, answer: tuple[Permit, str, str, str]) -> None:
        other, holder, place, status = answer
        if other.id == self.row.id:
            self.found.setText(self.tr("É a própria permissão; escolha a outra."))
        else:
            self.other, self.other_holder = other, holder
            self.found.setText(f"{holder} · {place or self.tr('sem local')} · {status}")
        self.ok_button.setEnabled(self.other is not None)

    def _not_found(self, error: BaseException) -> None:
        if not isinstance(error, UserError):
            raise error
        self.found.setText(error.message)


def _other_permit(text: str, today: _dt.date) -> tuple[Permit, str, str, str]:
    """The worker thread: the permit numbered ``text``, its holder, and its place and status today (from its row in
    the list, or the permit's own where the list does not show it)."""
    other = find_permit(text)
    row = next((r for r in permit_rows(text=other.number, today=today) if r.id == other.id), None)
    if row is not None:
        return other, row.holder_name, row.place, row.status_label
    return other, other.holder_name, other.site, other.status_label
