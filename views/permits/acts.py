"""The acts on the selected permit: its documents (PDF, print), status changes (suspend, reactivate,
revoke, cancel), renewal, leave, heir, exchange, the facts recorded and the history.

:class:`PermitActs` is a collaborator of :class:`views.permits.tab.PermitsTab`, created with what it needs: the
widget its dialogs open over, the day, the key folder, the message line, and the two readings of the tab's
selection (the permit, the renewal or deadline). Each act asks what it needs, calls the domain, says what happened
on the message line and signals the permit that results (``permit_changed``) or that a list is stale.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QImage, QPainter, QTextDocument
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from models.base.errors import UserError
from models.permits import (
    Permit,
    PermitRow,
    cancel,
    documents_on_file,
    expire_due,
    extend_startup,
    find_permit,
    permit_document,
    reactivate,
    record_picked_up,
    record_started,
    revoke,
    suspend,
)
from models.registry.people import get_person
from models.rules.regimes import get_regime
from models.services.issuing import exchange_sites, renew, transfer_to_heir
from views.blocks import fill, user_errors
from views.operations import in_background
from views.permits.common import (
    DOCUMENTS,
    DueRow,
    MessageLine,
    date_text,
    period_text,
)
from views.permits.dialogs import (
    ExchangeDialog,
    HeirDialog,
    HistoryDialog,
    LeaveDialog,
    RenewalDecreeDialog,
    RenewalDialog,
)
from views.save import save_file_name, write_in_background
from views.widgets import (
    current_user_name,
    print_document,
)


def _fresh(number: str) -> Permit:
    """The worker thread: the permit as it is now, its holder read with it (the screen shows the holder's name)."""
    permit = find_permit(number)
    _ = permit.holder_name  # the person or company kept on the permit: no statement when the screen reads it
    return permit


class PermitActs(QObject):
    """The acts on the permit selected in the tab (or in its renewals and deadlines)."""

    #: a permit to show and select (the one an act resulted in)
    permit_changed = Signal(object)
    #: the permits list is stale
    rows_stale = Signal()
    #: the renewals and deadlines list is stale
    due_stale = Signal()

    def __init__(
        self,
        widget: QWidget,
        *,
        today: Callable[[], _dt.date],
        key_dir: Path | None,
        message: MessageLine,
        selected: Callable[[], PermitRow | None],
        selected_due: Callable[[], DueRow | None],
    ):
        super().__init__(widget)
        self.widget = widget  # the dialogs' parent
        self.today = today
        self.key_dir = key_dir
        self.message = message
        self.selected = selected
        self.selected_due = selected_due
        self.last_dialog: RenewalDialog | None = None

    def _permit(self) -> Permit | None:
        """The selected permit as it is now in the database (fresh version for the optimistic lock)."""
        row = self.selected()
        return in_background(lambda: _fresh(row.number)) if row is not None else None

    # ------------------------------------------------------------------ asking and saying

    def _confirm(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(
            self.widget,
            title,
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _ask_reason(self, title: str, label: str) -> str | None:
        reason, ok = QInputDialog.getText(self.widget, title, label)
        return reason if ok else None

    def _run(self, act: Callable[[], Permit], done: Callable[[Permit], str]) -> Permit | None:
        """Run a domain act: its refusal goes to the message line; the permit it results in is selected."""
        with user_errors(self.message.say_refusal) as refused:
            result = in_background(act)  # the worker thread (issue 27 §5): the act reads only what it was given
        if refused:
            return None
        self.message.say(done(result))
        self.permit_changed.emit(result)
        return result

    # ------------------------------------------------------------------ documents

    def _check_printable(self, permit: Permit) -> None:
        """Only a permit in force is printed (as ``praca permit print``), and not once its term has ended."""
        if permit.status != "active":
            raise UserError(
                fill(
                    self.tr("A permissão nº %1 está %2: só se imprime permissão em vigor."),
                    permit.number,
                    permit.status_label,
                )
            )
        if permit.valid_until < self.today():
            raise UserError(
                fill(
                    self.tr("A validade da permissão nº %1 terminou em %2: só se imprime permissão em vigor."),
                    permit.number,
                    date_text(permit.valid_until),
                )
            )

    def save_pdf(self, what: str, path: str | Path | None = None) -> Path | None:
        """Write the permit, the ID card or the placard of the selected permit; ``path`` None asks where."""
        from reports.permit_docs import write_id_card_pdf, write_permit_pdf, write_placard_pdf

        permit = self._permit()
        if permit is None:
            return None
        prefix, name = DOCUMENTS[what]
        if path is None:
            path, _ = save_file_name(
                self.widget, self.tr(name), f"{prefix}-{permit.number.replace('/', '-')}.pdf", self.tr("PDF (*.pdf)")
            )
            if not path:
                return None
        path = Path(path)
        try:
            self._check_printable(permit)
            doc, regime = in_background(lambda: (permit_document(permit), get_regime(permit.regime)))  # issue 27 §5
            writers = {
                "permit": lambda: write_permit_pdf(doc, path),
                "card": lambda: write_id_card_pdf(doc, path),
                "placard": lambda: write_placard_pdf(doc, path, regime),
            }
            write_in_background(
                self.widget,
                fill(self.tr("Gravando o PDF da permissão nº %1…"), permit.number),
                writers.get(what, writers["placard"]),
            )
        except UserError as exc:
            self.message.say(exc.message, error=True)
            return None
        except OSError as exc:
            self.message.say(
                fill(self.tr("Não foi possível gravar %1: %2"), str(path), exc.strerror or str(exc)),
                error=True,
            )
            return None
        self.message.say(
            fill(self.tr("PDF (%1) da permissão nº %2 gravado em %3."), self.tr(name).lower(), permit.number, str(path))
        )
        return path

    def permit_text_document(self, permit: Permit) -> QTextDocument:
        """The permit laid out for a printer: the same HTML as the PDF, the QR as an image."""
        from reports.permit_docs import PHOTO_RESOURCE, QR_RESOURCE, draw_qr, permit_html

        doc = in_background(lambda: permit_document(permit))  # issue 27 §5
        text = QTextDocument(self)
        if doc.photo_path and Path(doc.photo_path).is_file():
            text.addResource(
                QTextDocument.ResourceType.ImageResource, QUrl(PHOTO_RESOURCE), QImage(str(doc.photo_path))
            )
        qr = QImage(640, 640, QImage.Format.Format_ARGB32)
        qr.fill(Qt.GlobalColor.transparent)
        if doc.qr_text:
            painter = QPainter(qr)
            try:
                draw_qr(painter, qr.rect().toRectF(), doc.qr_text, quiet=2)
            finally:
                painter.end()
        text.addResource(QTextDocument.ResourceType.ImageResource, QUrl(QR_RESOURCE), qr)
        text.setHtml(permit_html(doc))
        return text

    def print_permit(self, printer: QPrinter | None = None) -> bool:
        """Print the selected permit; ``printer`` None asks with the print dialog."""
        permit = self._permit()
        if permit is None:
            return False
        with user_errors(self.message.say_refusal) as refused:
            self._check_printable(permit)
        if refused:
            return False
        with user_errors(self.message.say_refusal) as refused:
            if not print_document(
                self.widget,
                printer,
                f"permissao-{permit.number.replace('/', '-')}",
                lambda: self.permit_text_document(permit),
            ):
                return False
        if refused:
            return False
        self.message.say(fill(self.tr("Permissão nº %1 enviada para impressão."), permit.number))
        return True

    # ------------------------------------------------------------------ status changes

    def suspend_selected(self, reason: str | None = None) -> Permit | None:
        permit = self._permit()
        if permit is None or not self._confirm(
            self.tr("Suspender"),
            fill(self.tr("Suspender a permissão nº %1 de %2?"), permit.number, permit.holder_name),
        ):
            return None
        if reason is None:
            reason = self._ask_reason(self.tr("Suspender"), self.tr("Motivo da suspensão:"))
            if reason is None:
                return None
        return self._run(
            lambda: suspend(permit, by=current_user_name(), reason=reason, today=self.today()),
            lambda p: fill(self.tr("Permissão nº %1 suspensa."), p.number) + self._page_note(),
        )

    def reactivate_selected(self) -> Permit | None:
        permit = self._permit()
        if permit is None:
            return None
        return self._run(
            lambda: reactivate(permit, by=current_user_name(), today=self.today()),
            lambda p: fill(self.tr("Permissão nº %1 reativada."), p.number),
        )

    def revoke_selected(self, reason: str | None = None) -> Permit | None:
        permit = self._permit()
        if permit is None or not self._confirm(
            self.tr("Cassar"),
            fill(
                self.tr(
                    "Cassar a permissão nº %1 de %2? A cassação não se desfaz e conta "
                    "para os prazos de carência de novos pedidos."
                ),
                permit.number,
                permit.holder_name,
            ),
        ):
            return None
        if reason is None:
            reason = self._ask_reason(self.tr("Cassar"), self.tr("Motivo da cassação:"))
            if reason is None:
                return None
        abandonment = False
        if reason.strip() and self._waits_after_abandonment(permit):
            abandonment = self._confirm(
                self.tr("Cassar"),
                self.tr("A cassação é por abandono da feira? O ato fixa carência maior para quem abandonou."),
            )
        return self._run(
            lambda: revoke(permit, by=current_user_name(), reason=reason, today=self.today(), abandonment=abandonment),
            lambda p: fill(self.tr("Permissão nº %1 cassada."), p.number) + self._page_note(),
        )

    def cancel_selected(self, reason: str | None = None) -> Permit | None:
        permit = self._permit()
        if permit is None or not self._confirm(
            self.tr("Cancelar"),
            fill(self.tr("Cancelar a permissão nº %1 de %2?"), permit.number, permit.holder_name),
        ):
            return None
        if reason is None:
            reason = self._ask_reason(self.tr("Cancelar"), self.tr("Motivo do cancelamento:"))
            if reason is None:
                return None
        at_request = False
        if reason.strip():
            at_request = self._confirm(
                self.tr("Cancelar"),
                self.tr("O cancelamento foi pedido pelo titular? (Se foi, não conta como carência.)"),
            )
        return self._run(
            lambda: cancel(
                permit, by=current_user_name(), reason=reason, today=self.today(), at_holder_request=at_request
            ),
            lambda p: fill(self.tr("Permissão nº %1 cancelada."), p.number) + self._page_note(),
        )

    def _page_note(self) -> str:
        """The published verification page lists withdrawn permits: say when this act made it out of date."""
        from reports.verify_page import page_is_current

        if in_background(page_is_current) is False:  # issue 27 §5
            return self.tr(
                " A página de verificação publicada ficou desatualizada: exporte-a de novo em Cadastros → Assinatura."
            )
        return ""

    @staticmethod
    def _waits_after_abandonment(permit: Permit) -> bool:
        """Whether the act makes whoever abandoned the feira wait longer (Lei 9.158/2014, art. 26, parágrafo único)."""
        try:
            kind = get_regime(permit.regime).permit_kind(permit.permit_kind)
        except UserError:
            return False
        return any(getattr(rule, "after", None) == "abandonment" for rule in kind.rules)

    # ------------------------------------------------------------------ renewal

    def renew_selected(self) -> Permit | None:
        permit = self._permit()
        if permit is None:
            return None
        return self._renew(permit)

    def renew_due(self) -> Permit | None:
        item = self.selected_due()
        if item is None or not item.renewal_open:
            return None
        return self._renew(in_background(lambda: _fresh(item.number)))  # issue 27 §5

    def _renew(self, permit: Permit, *, dialog_hook=None) -> Permit | None:
        """One click when what is on file still satisfies the act; otherwise the documents dialog, with the
        refusal on top, to take the new ones (a health certificate renewed every six months…)."""

        def done(new: Permit) -> str:
            return fill(
                self.tr("Permissão nº %1 renovada: nova permissão nº %2, de %3 a %4."),
                permit.number,
                new.number,
                date_text(new.valid_from),
                date_text(new.valid_until),
            )

        by, today, key_dir = current_user_name(), self.today(), self.key_dir
        try:  # on a worker (issue 27 §5)
            new = in_background(lambda: renew(permit, by=by, today=today, key_dir=key_dir))
        except UserError as exc:
            has_documents = in_background(
                lambda: bool(get_regime(permit.regime).permit_kind(permit.permit_kind).documents)
            )
            if not has_documents or "Fora do prazo" in exc.message or "já foi renovada" in exc.message:
                self.message.say(exc.message, error=True)
                return None
            return self.renew_with_documents(permit, refusal=exc.message, dialog_hook=dialog_hook)
        self.message.say(done(new))
        self.permit_changed.emit(new)
        return new

    def renew_with_documents(
        self, permit: Permit | None = None, *, refusal: str = "", dialog_hook=None
    ) -> Permit | None:
        permit = permit or self._permit()
        if permit is None:
            return None
        today = self.today()
        on_file = in_background(lambda: documents_on_file(permit, today=today))  # issue 27 §5
        dialog = RenewalDialog(permit, on_file, today, self.key_dir, self.widget, refusal=refusal)
        self.last_dialog = dialog
        if dialog_hook is not None:
            dialog_hook(dialog)
        else:
            dialog.exec()
        new = dialog.renewed
        if new is None:
            self.message.say(refusal or self.tr("Renovação não feita."), error=bool(refusal))
            return None
        self.message.say(
            fill(
                self.tr("Permissão nº %1 renovada com os documentos novos: nova permissão nº %2, de %3 a %4."),
                permit.number,
                new.number,
                date_text(new.valid_from),
                date_text(new.valid_until),
            )
        )
        self.permit_changed.emit(new)
        return new

    def renew_due_with_documents(self, *, dialog_hook=None) -> Permit | None:
        item = self.selected_due()
        if item is None or not item.renewal_open:
            return None
        return self.renew_with_documents(find_permit(item.number), dialog_hook=dialog_hook)

    def extend_startup_due(self, reason: str | None = None) -> bool:
        """Extend, once, the start-up deadline of the permit selected in the deadlines list (LC 324/2025, art. 176)."""
        item = self.selected_due()
        if item is None:
            return False
        permit = in_background(lambda: _fresh(item.number))  # issue 27 §5
        if reason is None:
            reason = self._ask_reason(
                self.tr("Prorrogar prazo de início"),
                self.tr("Justificativa da prorrogação (o ato a admite uma única vez):"),
            )
            if reason is None:
                return False
        with user_errors(self.message.say_refusal) as refused:
            by, today = current_user_name(), self.today()
            due = in_background(lambda: extend_startup(permit, by=by, reason=reason, today=today))
        if refused:
            return False
        self.message.say(
            fill(self.tr("Prazo de início da permissão nº %1 prorrogado até %2."), permit.number, date_text(due))
        )
        self.due_stale.emit()
        self.rows_stale.emit()
        return True

    def expire_lapsed(self) -> list:
        """Mark as expired every permit past its last day (after confirmation): the Painel lists them."""
        if not self._confirm(
            self.tr("Dar baixa nas vencidas"),
            fill(
                self.tr("Marcar como vencidas todas as permissões cuja validade terminou antes de %1?"),
                date_text(self.today()),
            ),
        ):
            return []
        today, by = self.today(), current_user_name()
        expired = in_background(lambda: expire_due(today, by=by))  # issue 27 §5
        self.message.say(fill(self.tr("%1 permissão(ões) marcada(s) como vencida(s)."), str(len(expired))))
        self.rows_stale.emit()
        self.due_stale.emit()
        return expired

    def record_decree(self, *, dialog_hook: Callable[[RenewalDecreeDialog], None] | None = None):
        """Decreto de renovação…: the Executive's decree where the act leaves the renewal window to it."""
        dialog = RenewalDecreeDialog(self.today(), self.widget)
        if dialog_hook is not None:
            dialog_hook(dialog)
        if dialog.exec() and dialog.decree is not None:
            from models.permits import decree_text

            self.message.say(fill(self.tr("Decreto registrado: %1."), decree_text(dialog.decree)))
            self.rows_stale.emit()
            self.due_stale.emit()
        return dialog.decree

    # ------------------------------------------------------------------ leave, heir, exchange, facts

    def leave_selected(self) -> LeaveDialog | None:
        permit = self._permit()
        if permit is None:
            return None
        dialog = LeaveDialog(permit, self.today(), self.widget)
        if dialog.exec() and dialog.leave is not None:
            event = dialog.leave
            self.message.say(
                fill(
                    self.tr("Afastamento da permissão nº %1 registrado: %2."),
                    permit.number,
                    period_text(event.start, event.end),
                )
            )
            self.rows_stale.emit()
        return dialog

    def transfer_selected(self) -> HeirDialog | None:
        row, permit = self.selected(), self._permit()
        if row is None or permit is None:
            return None
        dialog = HeirDialog(row, self.widget)
        if not dialog.exec():
            return dialog
        chosen = dialog.heir().id
        heir = in_background(lambda: get_person(chosen))  # issue 27 §5
        if not self._confirm(
            self.tr("Transferir a herdeiro"),
            fill(
                self.tr("Transferir a permissão nº %1 de %2 para %3? A permissão atual será substituída."),
                permit.number,
                permit.holder_name,
                heir.name,
            ),
        ):
            return dialog
        reason = dialog.reason.text()
        self._run(
            lambda: transfer_to_heir(
                permit, heir, by=current_user_name(), reason=reason, today=self.today(), key_dir=self.key_dir
            ),
            lambda new: fill(
                self.tr("Permissão nº %1 transferida a %2: nova permissão nº %3."), permit.number, heir.name, new.number
            ),
        )
        return dialog

    def exchange_selected(self) -> ExchangeDialog | None:
        row, permit = self.selected(), self._permit()
        if row is None or permit is None:
            return None
        dialog = ExchangeDialog(row, self.today(), self.widget)
        if not dialog.exec() or dialog.other is None:
            return dialog
        other = dialog.other
        if not self._confirm(
            self.tr("Permutar local"),
            fill(
                self.tr(
                    "Permutar os locais das permissões nº %1 (%2) e nº %3 (%4)? As duas serão substituídas por novas."
                ),
                row.number,
                row.holder_name,
                other.number,
                dialog.other_holder,
            ),
        ):
            return dialog
        with user_errors(self.message.say_refusal) as refused:
            by, why, today, key_dir = current_user_name(), dialog.reason.text(), self.today(), self.key_dir

            def exchange() -> tuple[Permit, Permit, str, str]:  # the worker thread: the act and the names it shows
                mine, theirs = exchange_sites(permit, other, by=by, reason=why, today=today, key_dir=key_dir)
                return mine, theirs, mine.holder_name, theirs.holder_name

            mine, theirs, my_holder, their_holder = in_background(exchange)
        if refused:
            return dialog
        self.message.say(
            fill(
                self.tr("Locais permutados: nova permissão nº %1 para %2 e nº %3 para %4."),
                mine.number,
                my_holder,
                theirs.number,
                their_holder,
            )
        )
        self.permit_changed.emit(mine)
        return dialog

    def record_selected(self, fact: str) -> bool:
        permit = self._permit()
        if permit is None:
            return False
        record = record_started if fact == "started" else record_picked_up
        with user_errors(self.message.say_refusal) as refused:
            by, today = current_user_name(), self.today()
            in_background(lambda: record(permit, by=by, on=today))
        if refused:
            return False
        what = self.tr("início das atividades") if fact == "started" else self.tr("retirada do alvará")
        self.message.say(
            fill(self.tr("Permissão nº %1: %2 registrado em %3."), permit.number, what, date_text(self.today()))
        )
        self.due_stale.emit()
        self.rows_stale.emit()
        return True

    def open_history(self) -> HistoryDialog | None:
        row = self.selected()
        if row is None:
            return None
        dialog = HistoryDialog(row, self.widget)
        dialog.exec()
        return dialog
