"""The application as filed, for the one who decides (issue 18 §4): the person or company, the documents with
their files, the eligibility rule by rule, the price and the history — and Aprovar / Indeferir beside them, the
approval confirmed with what is still "a conferir" listed."""

from __future__ import annotations

from html import escape
from types import SimpleNamespace

from PySide6.QtCore import QSize, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models.registry.applications import STATUSES, TRANSITIONS, ApplicationEvent, get_application
from models.services.front_desk import eligibility_now
from views import theme
from views.blocks import fill, push_button
from views.fit import fit_to_screen
from views.operations import in_background
from views.roles import allow

MARKS = {"passed": "✔", "failed": "✘", "manual": "?", "missing": "…", "due-later": "⧗"}
#: Each mark's colour (a role of views/theme.py): the record is shown on paper, so in its paper shade.
MARK_ROLES = {"passed": "ok", "failed": "error", "manual": "warning", "missing": "muted", "due-later": "info"}


def mark_html(status: str) -> str:
    mark = MARKS.get(status, "")
    role = MARK_ROLES.get(status)
    return f'<b style="color:{theme.on_paper(role)}">{mark}</b>' if mark and role else mark


def to_check(eligibility) -> list[str]:
    """The rules a person must still check ("a conferir"), with their article."""
    return [f"{r.label or r.rule.kind} ({r.article})" for r in eligibility.by_status("manual")]


def eligibility_html(eligibility) -> str:
    rows = "".join(
        f"<tr><td>{mark_html(r.status)} {escape(r.label or r.rule.kind)}</td><td>{escape(r.reason)}</td>"
        f"<td><small>{escape(r.article)}</small></td></tr>"
        for r in eligibility.results
    )
    return (
        f"<h3>Elegibilidade hoje</h3><p><b>{escape(eligibility.summary.text)}</b></p>"
        "<table border='1' cellspacing='0' cellpadding='3' width='100%'>"
        f"<tr><th>Requisito</th><th>Situação</th><th>Artigo</th></tr>{rows}</table>"
    )


def filed_facts(application_id: int) -> SimpleNamespace:
    """The worker thread (issue 27 §5): everything the view shows of one application — the record as filed with
    the eligibility rule by rule on what is recorded today, its files and its history."""
    from reports.receipt import receipt_html

    app = get_application(application_id)
    eligibility = eligibility_now(app)
    return SimpleNamespace(
        app=app,
        applicant_name=app.applicant_name,
        eligibility=eligibility,
        html=eligibility_html(eligibility) + receipt_html(app),
        files=[
            (f"{doc.document}: {doc.original_name or doc.file_path}", doc.file_path)
            for doc in app.documents
            if doc.file_path
        ],
        events=[
            (
                event.at.strftime("%d/%m/%Y %H:%M"),
                event.by,
                STATUSES.get(event.status_to, event.status_to),
                event.reason,
            )
            for event in app.events.order_by(ApplicationEvent.id)
        ],
    )


class ApplicationView(QDialog):
    """Everything filed with one application; ``decision`` says what was decided here ("approved", "refused")."""

    def __init__(self, application_id: int, parent: QWidget | None = None, *, decide=None):
        super().__init__(parent)
        facts = in_background(lambda: filed_facts(application_id))
        self.app = facts.app
        self.applicant_name = facts.applicant_name
        self.decide = decide  # decide(status, reason) -> bool: the worklist's own move
        self.decision: str | None = None
        self.setWindowTitle(fill(self.tr("Requerimento %1 — %2"), self.app.protocol, self.applicant_name))
        layout = QVBoxLayout(self)
        head = QLabel(
            fill(
                self.tr("<b>%1</b> — %2 · situação: <b>%3</b>"),
                escape(self.app.protocol),
                escape(self.applicant_name),
                escape(self.app.status_label),
            )
        )
        head.setObjectName("application-head")
        layout.addWidget(head)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.filed = QTextBrowser()
        self.filed.setObjectName("filed")
        theme.paper(self.filed)  # the record as filed, on a white page: its header and marks read on any palette
        self.eligibility = facts.eligibility  # rule by rule, on what is recorded today
        self.filed.setHtml(facts.html)
        split.addWidget(self.filed)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QLabel(self.tr("Arquivos entregues (duplo clique abre):")))
        self.files = QListWidget()
        self.files.setObjectName("files")
        for label, path in facts.files:
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, path)
            self.files.addItem(item)
        if not self.files.count():
            self.files.addItem(self.tr("nenhum arquivo digitalizado"))
        self.files.itemActivated.connect(self._open_file)
        side_layout.addWidget(self.files, 1)
        side_layout.addWidget(QLabel(self.tr("Histórico:")))
        self.history = QTableWidget(0, 4)
        self.history.setObjectName("history")
        self.history.setHorizontalHeaderLabels(
            [self.tr("Quando"), self.tr("Por"), self.tr("Situação"), self.tr("Motivo")]
        )
        self.history.verticalHeader().hide()
        self.history.setWordWrap(False)
        self.history.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.history.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.history.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for event in facts.events:
            row = self.history.rowCount()
            self.history.insertRow(row)
            for column, text in enumerate(event):
                self.history.setItem(row, column, QTableWidgetItem(text))
        side_layout.addWidget(self.history, 2)
        split.addWidget(side)
        split.setSizes([700, 380])
        layout.addWidget(split, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.approve_button = push_button(self.tr("A&provar…"), "approve")
        self.refuse_button = push_button(self.tr("&Indeferir…"), "refuse")
        allowed = TRANSITIONS.get(self.app.status, set())
        for button, status in ((self.approve_button, "approved"), (self.refuse_button, "refused")):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
            allow(button, "applications.decide", status in allowed and decide is not None)
        self.approve_button.clicked.connect(lambda _checked=False: self.approve())
        self.refuse_button.clicked.connect(lambda: self.refuse())
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        fit_to_screen(self, QSize(1120, 720))

    def _open_file(self, item: QListWidgetItem) -> None:
        from models.store.files import resolve

        relative = item.data(Qt.ItemDataRole.UserRole)
        if relative:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(resolve(relative))))

    @Slot()
    def approve(self, reason: str | None = None) -> bool:
        """Aprovar, after a confirmation; with rules still to be checked by a person, the reason is asked and
        recorded (issue 31 §4)."""
        pending = to_check(self.eligibility)
        text = fill(self.tr("Aprovar o requerimento %1 de %2?"), self.app.protocol, self.applicant_name)
        if pending and reason is None:
            text += (
                "\n\n"
                + self.tr("Ainda a conferir:")
                + "\n"
                + "\n".join(f"• {line}" for line in pending)
                + "\n\n"
                + self.tr("Confira-os e informe o motivo da aprovação (fica registrado no histórico):")
            )
            reason, ok = QInputDialog.getMultiLineText(self, self.tr("Aprovar requerimento"), text)
            if not ok:
                return False
            if not reason.strip():
                QMessageBox.warning(self, self.tr("Aprovar requerimento"), self.tr("Informe o motivo da aprovação."))
                return False
        elif reason is None:
            answer = QMessageBox.question(
                self,
                self.tr("Aprovar requerimento"),
                text,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
            reason = ""
        return self._decided("approved", reason)

    def refuse(self, reason: str | None = None) -> bool:
        return self._decided("refused", reason)

    def _decided(self, status: str, reason: str | None) -> bool:
        if self.decide is None or not self.decide(status, reason):
            return False
        self.decision = status
        self.accept()
        return True
