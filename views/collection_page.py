"""Cadastros → Arrecadação: the town's collection agreement (FEBRABAN) and its Pix key (issue 30 §1).

The screen only reads and writes through models.billing.collection.agreement; every check is the domain's.
"""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from models.billing.collection.agreement import VALUE_ID_LABELS, get_agreement
from models.billing.collection.late import get_late_rules, save_collection_settings
from views.blocks import (
    FieldErrorsView,
    FormDialog,
    button_row,
    error_label,
    message_label,
    push_button,
    user_errors,
    wrapped_label,
)
from views.operations import in_background


class CollectionPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(
            wrapped_label(
                self.tr(
                    "O convênio de arrecadação que o banco deu ao município (padrão FEBRABAN, segmento 1 — "
                    "prefeituras) e a chave Pix: com eles o Praça emite guias com código de barras e QR Pix "
                    "e lê o arquivo de retorno do banco."
                ),
                "collection-intro",
            )
        )
        form = QFormLayout()
        self.agreement = QLineEdit()
        self.agreement.setObjectName("agreement")
        self.agreement.setMaxLength(4)
        self.agreement.setPlaceholderText(self.tr("4 algarismos"))
        self.value_id = QComboBox()
        self.value_id.setObjectName("value_id")
        for key, label in VALUE_ID_LABELS.items():
            self.value_id.addItem(self.tr(label), key)
        self.pix_key = QLineEdit()
        self.pix_key.setObjectName("pix_key")
        self.pix_key.setPlaceholderText(self.tr("CPF, CNPJ, e-mail, +55DDNÚMERO ou chave aleatória"))
        self.pix_name = QLineEdit()
        self.pix_name.setObjectName("pix_name")
        self.pix_city = QLineEdit()
        self.pix_city.setObjectName("pix_city")
        form.addRow(self.tr("&Convênio (FEBRABAN):"), self.agreement)
        form.addRow(self.tr("&Identificador de valor:"), self.value_id)
        form.addRow(self.tr("C&have Pix:"), self.pix_key)
        form.addRow(self.tr("&Nome do recebedor (Pix):"), self.pix_name)
        form.addRow(self.tr("Ci&dade (Pix):"), self.pix_city)
        # late payment: the town's tax code, never Praça's (issue 30 §3)
        self.fine_percent = QLineEdit()
        self.fine_percent.setObjectName("fine_percent")
        self.fine_percent.setPlaceholderText(self.tr("% do valor, uma vez (ex.: 2)"))
        self.interest_percent = QLineEdit()
        self.interest_percent.setObjectName("interest_percent")
        self.interest_percent.setPlaceholderText(self.tr("% ao mês ou fração (ex.: 1)"))
        self.late_source = QLineEdit()
        self.late_source.setObjectName("late_source")
        self.late_source.setPlaceholderText(self.tr("lei e artigo do código tributário do município"))
        self.due_days = QLineEdit()
        self.due_days.setObjectName("due_days")
        self.due_days.setMaxLength(2)
        form.addRow(self.tr("Mul&ta de mora (%):"), self.fine_percent)
        form.addRow(self.tr("Ju&ros de mora (% ao mês):"), self.interest_percent)
        form.addRow(self.tr("&Fonte (multa e juros):"), self.late_source)
        form.addRow(self.tr("Dias para pagar a &2ª via:"), self.due_days)
        self.debt_term = QLineEdit()
        self.debt_term.setObjectName("debt_term")
        self.debt_term.setMaxLength(4)
        self.debt_term.setPlaceholderText(self.tr("dias depois do vencimento"))
        form.addRow(self.tr("Prazo para dívida ati&va (dias):"), self.debt_term)
        self.correction_index = QLineEdit()
        self.correction_index.setObjectName("correction_index")
        self.correction_index.setMaxLength(16)
        self.correction_index.setPlaceholderText(self.tr("ex.: INPC — correções anuais em Correção monetária"))
        self.correction_source = QLineEdit()
        self.correction_source.setObjectName("correction_source")
        self.correction_source.setPlaceholderText(self.tr("lei e artigo que mandam corrigir os débitos vencidos"))
        form.addRow(self.tr("Índice da c&orreção monetária:"), self.correction_index)
        form.addRow(self.tr("Font&e (correção):"), self.correction_source)
        layout.addLayout(form)
        self.error = error_label()
        self.errors = FieldErrorsView(
            self.error,
            {
                "agreement": self.agreement,
                "value_id": self.value_id,
                "pix_key": self.pix_key,
                "pix_name": self.pix_name,
                "pix_city": self.pix_city,
                "fine_percent": self.fine_percent,
                "interest_percent": self.interest_percent,
                "source": self.late_source,
                "due_days": self.due_days,
                "debt_term": self.debt_term,
                "correction_index": self.correction_index,
                "correction_source": self.correction_source,
            },
        )
        layout.addWidget(self.error)
        self.message = message_label()
        layout.addWidget(self.message)
        self.save_button = push_button(self.tr("&Salvar"), "save-collection", self.save)
        layout.addLayout(button_row(self.save_button, push_button(self.tr("Desfazer"), "reset", self.refresh)))
        layout.addStretch(1)

    def refresh(self) -> None:
        found, rules = in_background(lambda: (get_agreement(), get_late_rules()))
        self.agreement.setText(found.agreement)
        index = self.value_id.findData(found.value_id or "6")
        self.value_id.setCurrentIndex(max(index, 0))
        self.pix_key.setText(found.pix_key)
        self.pix_name.setText(found.pix_name)
        self.pix_city.setText(found.pix_city)
        pct = lambda d: f"{d.normalize():f}".replace(".", ",") if d else ""  # noqa: E731 - a local formatter
        self.fine_percent.setText(pct(rules.fine_percent))
        self.interest_percent.setText(pct(rules.interest_percent))
        self.late_source.setText(rules.source)
        self.due_days.setText(str(rules.due_days))
        self.debt_term.setText("" if rules.debt_term is None else str(rules.debt_term))
        self.correction_index.setText(rules.correction_index)
        self.correction_source.setText(rules.correction_source)
        self.errors.clear()
        self.message.clear()

    def save(self) -> None:
        self.errors.clear()
        self.message.clear()
        agreement, rules = (
            {
                "agreement": self.agreement.text(),
                "value_id": self.value_id.currentData() or "",
                "pix_key": self.pix_key.text(),
                "pix_name": self.pix_name.text(),
                "pix_city": self.pix_city.text(),
            },
            {
                "fine_percent": self.fine_percent.text(),
                "interest_percent": self.interest_percent.text(),
                "source": self.late_source.text(),
                "due_days": self.due_days.text(),
                "debt_term": self.debt_term.text(),
                "correction_index": self.correction_index.text(),
                "correction_source": self.correction_source.text(),
            },
        )
        with user_errors(self.errors) as refused:
            pix_key = in_background(lambda: (save_collection_settings(agreement, rules), get_agreement().pix_key)[1])
        if refused:
            return
        self.pix_key.setText(pix_key)
        self.message.setText(self.tr("Convênio de arrecadação salvo."))


def save_guia(parent: QWidget, charges: list, path: str | None, *, today, message) -> object | None:
    """Issue the guia of ``charges`` and write it to ``path`` (asked when ``None``); the outcome on ``message``."""
    from models.billing.collection.codes import format_linha, linha_digitavel
    from models.billing.collection.guias import issue_guia
    from reports.guia_pdf import write_guia_pdf
    from views.blocks import fill
    from views.save import ask_save_path, file_name

    if path is None:
        path = ask_save_path(
            parent, parent.tr("Salvar guia (DAM)"), file_name("guia", charges[0].number), parent.tr("PDF (*.pdf)")
        )
        if not path:
            return None
    with user_errors(message) as refused:
        guia = in_background(lambda: issue_guia(charges, today=today, write=lambda g: write_guia_pdf(g, path)))
    if refused:
        return None
    message.setText(
        fill(
            parent.tr("Guia nº %1 gravada em %2 — linha digitável %3."),
            guia.number,
            path,
            format_linha(linha_digitavel(guia.barcode)),
        )
    )
    return guia


def payment_notes(widget: QWidget, charge) -> dict[int, str]:
    """What the desk adds to each payment of ``charge``: where it came from, and its reversal."""
    from html import escape

    from models.billing.collection.desk import reversals_of, sources_of
    from views.blocks import fill

    sources, reversals = in_background(
        lambda: ([(s, s.guia, s.return_file) for s in sources_of(charge).values()], reversals_of(charge))
    )
    notes: dict[int, str] = {}
    for source, guia, bank_file in sources:
        if source.channel == "credit":  # a payer's credit used: credit_notes says which
            continue
        if source.channel == "pix":
            notes[source.payment_id] = fill(
                widget.tr(" — Pix da guia nº %1, extrato %2"),
                guia.number if guia is not None else "",
                bank_file.file_name if bank_file is not None else "",
            )
            continue
        notes[source.payment_id] = fill(
            widget.tr(" — pela guia nº %1, arquivo de retorno NSA %2, registro %3"),
            guia.number if guia is not None else "",
            bank_file.nsa if bank_file is not None else "",
            source.record or "",
        )
    for payment_id, reversal in reversals.items():
        notes[payment_id] = notes.get(payment_id, "") + fill(
            widget.tr(" — <b>estornado</b> (estorno nº %1 em %2 por %3: %4)"),
            reversal.number,
            reversal.reversed_on.strftime("%d/%m/%Y"),
            escape(reversal.reversed_by),
            escape(reversal.reason),
        )
    return notes


def reverse_on_desk(parent: QWidget, charge, payment_id: int | None, reason: str | None, *, message) -> object | None:
    """Estornar: which payment (asked when the charge has several), why (asked), then the reversal."""
    from PySide6.QtWidgets import QInputDialog

    from models.base.money import format_brl
    from models.billing.charges import payments_of
    from models.billing.collection.desk import reversals_of, reverse_payment
    from views.blocks import fill

    done = reversals_of(charge)
    live = [p for p in payments_of(charge) if p.id not in done]
    if not live:
        message.setText(parent.tr("Esta cobrança não tem pagamento a estornar."))
        return None
    if payment_id is None:
        if len(live) == 1:
            payment_id = live[0].id
        else:
            labels = [f"nº {p.id} — {format_brl(p.amount)} em {p.paid_on:%d/%m/%Y} ({p.reference})" for p in live]
            chosen, ok = QInputDialog.getItem(
                parent, parent.tr("Estornar pagamento"), parent.tr("Pagamento a estornar:"), labels, 0, False
            )
            if not ok:
                return None
            payment_id = live[labels.index(chosen)].id
    if reason is None:
        reason, ok = QInputDialog.getText(
            parent,
            parent.tr("Estornar pagamento"),
            fill(
                parent.tr(
                    "Motivo do estorno do pagamento nº %1 (fica registrado; a cobrança volta a ficar em aberto):"
                ),
                payment_id,
            ),
        )
        if not ok:
            return None
    with user_errors(message) as refused:
        reversal = in_background(lambda: reverse_payment(payment_id, reason=reason))
    if refused:
        return None
    message.setText(
        fill(
            parent.tr("Estorno nº %1 do pagamento nº %2 registrado: a cobrança nº %3 volta a ficar em aberto."),
            reversal.number,
            payment_id,
            charge.number,
        )
    )
    return reversal


def credit_notes(widget: QWidget, charge) -> tuple[dict[int, str], list[str]]:
    """What the desk shows of credits on ``charge``: each payment made with a credit (by payment id), and the payer's
    open credits (lines) — issue 30 §5."""
    from models.base.money import format_brl
    from models.billing.collection.credits import credits_for, uses_of
    from views.blocks import fill
    from views.operations import in_background

    uses, open_credits = in_background(lambda: (uses_of(charge), credits_for(charge)))
    notes = {
        payment_id: fill(widget.tr(" — com o crédito nº %1 (ato nº %2)"), use.credit_id, use.number)
        for payment_id, use in uses.items()
    }
    lines = [
        fill(
            widget.tr("<b>Crédito do contribuinte</b> nº %1 de %2: %3 em aberto (%4)"),
            line.id,
            line.arisen_on.strftime("%d/%m/%Y"),
            format_brl(line.balance),
            line.origin,
        )
        for line in open_credits
    ]
    return notes, lines


def use_credit_on_desk(
    parent: QWidget, charge, *, today, message, credit_id: int | None = None, amount: str | None = None, confirm=None
):
    """Usar crédito: the payer's open credit on ``charge`` — what will be used is asked first (``confirm(text)``,
    a question box unless given), then written off the GUI thread; the outcome on ``message``."""
    from PySide6.QtWidgets import QMessageBox

    from models.base.money import format_brl
    from models.billing.collection.credits import apply_credit, credits_for
    from views.blocks import fill
    from views.operations import in_background

    lines = [line for line in in_background(lambda: credits_for(charge)) if credit_id in (None, line.id)]
    if not lines:
        message.setText(parent.tr("O devedor desta cobrança não tem crédito em aberto."))
        return None
    available = sum((line.balance for line in lines), Decimal("0.00"))
    use = min(available, charge.open_amount)
    text = fill(
        parent.tr("Usar %1 de crédito (em aberto: %2 — %3) na cobrança nº %4, que deve %5?"),
        amount or format_brl(use),
        format_brl(available),
        "; ".join(f"nº {line.id}" for line in lines),
        charge.number,
        format_brl(charge.open_amount),
    )
    if confirm is None:
        answer = QMessageBox.question(
            parent,
            parent.tr("Usar crédito"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        ok = answer == QMessageBox.StandardButton.Yes
    else:
        ok = confirm(text)
    if not ok:
        return None
    with user_errors(message) as refused:
        uses = in_background(lambda: apply_credit(charge, credit_id=credit_id, amount=amount, today=today))
    if refused:
        return None
    message.setText(
        fill(
            parent.tr("Crédito usado na cobrança nº %1: %2 (ato(s) nº %3)."),
            charge.number,
            format_brl(sum((u.amount for u in uses), Decimal("0.00"))),
            ", ".join(u.number for u in uses),
        )
    )
    return uses


class RefundCreditDialog(FormDialog):
    """Devolver crédito: which of the payer's open credits, how much of it (its whole balance, or part of it typed
    the Brazilian way — "1.500,00"; the rest stays open) and why. The refund is an act of its own (number, date,
    author, reason), written off the GUI thread; a refusal is shown at its field and nothing is recorded."""

    def __init__(self, lines, parent: QWidget | None = None, *, today, credit_id: int | None = None):
        super().__init__(parent)
        from PySide6.QtWidgets import QDialogButtonBox

        from models.base.money import format_brl

        self.setWindowTitle(self.tr("Devolver crédito"))
        self.lines, self.today, self.use = lines, today, None
        self.body.addWidget(
            wrapped_label(
                self.tr(
                    "Devolva todo o saldo do crédito ou parte dele — o que não for devolvido continua em aberto. "
                    "A devolução é um ato próprio, com número, data e motivo."
                ),
                "refund-intro",
            )
        )
        form = QFormLayout()
        self.credit = QComboBox()
        self.credit.setObjectName("credit")
        for line in lines:
            self.credit.addItem(f"nº {line.id} — {format_brl(line.balance)} ({line.origin})", line.id)
        self.amount = QLineEdit()
        self.amount.setObjectName("amount")
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("ordem bancária, processo…"))
        form.addRow(self.tr("&Crédito:"), self.credit)
        form.addRow(self.tr("&Valor devolvido (R$):"), self.amount)
        form.addRow(self.tr("&Motivo e como foi devolvido:"), self.reason)
        self.body.addLayout(form)
        buttons = self.finish(
            {"credit": self.credit, "amount": self.amount, "reason": self.reason},
            buttons=QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
            field="amount",
        )
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Devolver"))
        self.credit.currentIndexChanged.connect(self._whole_balance)
        ids = [line.id for line in lines]
        self.credit.setCurrentIndex(ids.index(credit_id) if credit_id in ids else 0)
        self._whole_balance()
        self.setMinimumWidth(600)
        self.reason.setFocus()

    def chosen(self):
        return self.lines[max(self.credit.currentIndex(), 0)]

    def _whole_balance(self) -> None:
        """The amount starts as the chosen credit's whole balance, in the Brazilian form the clerk types."""
        from models.base.money import format_brl

        self.amount.setText(format_brl(self.chosen().balance).replace("R$", "").strip())

    def accept(self) -> None:
        from models.billing.collection.credits import refund_credit

        credit_id, amount, reason = self.chosen().id, self.amount.text(), self.reason.text()
        with self.refused() as refused:
            self.use = in_background(lambda: refund_credit(credit_id, reason=reason, amount=amount, today=self.today))
        if refused:
            return
        super().accept()


def refund_credit_on_desk(parent: QWidget, charge, *, today, message, credit_id: int | None = None, dialog_hook=None):
    """Devolver crédito: a refund of one of the payer's open credits, in whole or in part — asked in
    :class:`RefundCreditDialog` (``dialog_hook(dialog)`` drives it instead of ``exec``, as tests do); the outcome on
    ``message``."""
    from PySide6.QtWidgets import QDialog

    from models.base.money import format_brl
    from models.billing.collection.credits import credits_for
    from views.blocks import fill

    lines = in_background(lambda: credits_for(charge))
    if not lines:
        message.setText(parent.tr("O devedor desta cobrança não tem crédito em aberto."))
        return None
    dialog = RefundCreditDialog(lines, parent, today=today, credit_id=credit_id)
    if dialog_hook is not None:
        dialog_hook(dialog)
    elif dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    use = dialog.use
    if use is None:
        return None
    message.setText(
        fill(
            parent.tr("Devolução de %1 do crédito nº %2 registrada (ato nº %3)."),
            format_brl(use.amount),
            use.credit_id,
            use.number,
        )
    )
    return use
