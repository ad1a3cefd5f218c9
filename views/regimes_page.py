"""Cadastros → Regimes: each act in readable form, every rule with its article; its versions; and, for the
administrator, "Instalar ato…", "Alterar ato…" and "Retirar ato…" (models.rules.acts: checked whole, audited)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from models.access import session
from models.base.errors import UserError
from models.billing.fiscal import unit_value_rows
from models.rules import acts
from models.rules.regimes import Regime, RegimeError, RegimeErrors, retired_regimes, shipped_regimes
from reports.pdf import html_to_pdf
from reports.regime_sheet import regime_html
from views import theme
from views.blocks import error_label, fill, push_button, wrapped_label
from views.operations import in_background
from views.save import open_file_name, save_file_name


class RegimesPage(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.error = error_label()
        self.error.hide()
        layout.addWidget(self.error)

        self.list = QListWidget()
        self.list.setObjectName("regime-list")
        self.list.setMinimumWidth(220)
        self.list.setMaximumWidth(300)
        self.list.setSpacing(3)
        self.browser = QTextBrowser()
        self.browser.setObjectName("regime-text")
        theme.paper(self.browser)  # the act's text as printed (regime.html.j2), also on a dark palette
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(lambda url: self.browser.scrollToAnchor(url.fragment()))

        self.find_edit = QLineEdit()
        self.find_edit.setObjectName("find")
        self.find_edit.setPlaceholderText(self.tr("Procurar no regime (artigo, palavra…) — Enter para o próximo"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.textEdited.connect(lambda _t: self.find_text(restart=True))
        self.find_edit.returnPressed.connect(lambda: self.find_text(restart=False))
        self.find_status = QLabel()
        self.pdf_button = QPushButton(self.tr("Salvar em PDF…"))
        self.pdf_button.clicked.connect(self.save_pdf)
        tools = QHBoxLayout()
        tools.addWidget(self.find_edit, 1)
        tools.addWidget(self.find_status)
        tools.addWidget(self.pdf_button)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(tools)
        right_layout.addWidget(self.browser, 1)

        self.install_button = push_button(self.tr("Instalar ato…"), "install-act")
        self.install_button.clicked.connect(lambda: self.choose_file(amend=False))
        self.amend_button = push_button(self.tr("Alterar ato…"), "amend-act")
        self.amend_button.clicked.connect(lambda: self.choose_file(amend=True))
        self.retire_button = push_button(self.tr("Retirar ato…"), "retire-act", self.ask_retire)
        self.versions = wrapped_label(name="act-versions")
        self.versions.setTextFormat(Qt.TextFormat.RichText)
        self.message = wrapped_label(name="act-message")
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list, 1)
        left_layout.addWidget(self.versions)
        for button in (self.install_button, self.amend_button, self.retire_button):
            left_layout.addWidget(button)
        left_layout.addWidget(self.message)
        left.setMaximumWidth(300)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)

        QShortcut(QKeySequence.StandardKey.Find, self, self.find_edit.setFocus)
        self.list.currentItemChanged.connect(self.show_current)
        self.regimes: dict[str, Regime] = {}
        self.retired: dict[str, Regime] = {}

    def refresh(self) -> None:
        current = self.current_id()
        try:
            self.regimes, self.retired = in_background(lambda: (shipped_regimes(), retired_regimes()))
            self.regimes.update(self.retired)
        except UserError as exc:
            self.error.setText(exc.message)
            self.error.show()
            self.regimes = {}
        else:
            self.error.hide()
        self.list.blockSignals(True)
        self.list.clear()
        for regime in sorted(self.regimes.values(), key=lambda r: r.municipality):
            label = f"{regime.municipality}/{regime.state}\n{regime.short}"
            if regime.id in self.retired:
                label += self.tr(" (retirado)")
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, regime.id)
            item.setToolTip(regime.act)
            self.list.addItem(item)
        self.list.blockSignals(False)
        ids = [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]
        self.list.setCurrentRow(ids.index(current) if current in ids else (0 if ids else -1))
        self.show_current()

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def choose(self, regime_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == regime_id:
                self.list.setCurrentRow(row)
                return
        raise KeyError(regime_id)

    select = choose

    @Slot()
    def show_current(self) -> None:
        regime = self.regimes.get(self.current_id() or "")
        allowed = session.can("regimes.manage")
        self.install_button.setEnabled(allowed)
        live = regime is not None and regime.id not in self.retired
        self.amend_button.setEnabled(allowed and live)
        self.retire_button.setEnabled(allowed and live)
        if regime is None:
            self.browser.clear()
            self.versions.clear()
            return
        codes = [unit.code for unit in regime.units]
        rows = in_background(lambda: [row for code in codes for row in unit_value_rows(code)])  # issue 27 §5
        self.browser.setHtml(regime_html(regime, rows))
        self.find_status.clear()
        self.show_versions(regime.id)

    def show_versions(self, regime_id: str) -> None:
        """Every version of the act: from when it applies, the amending act, who installed it and when."""
        try:
            versions = in_background(lambda: acts.history(regime_id))
        except UserError:
            versions = []
        lines = [f"<b>{escape(self.tr('Versões do ato'))}</b>"]
        for v in versions:
            lines.append(escape(f"{v.label} — {v.installed_by}, {v.installed_at.strftime('%d/%m/%Y %H:%M')}"))
        self.versions.setText("<br>".join(lines) if versions else "")

    # -- install, amend, retire (the administrator's)

    def choose_file(self, *, amend: bool) -> None:
        title = (
            self.tr("Alterar ato: escolha o arquivo da nova redação")
            if amend
            else self.tr("Instalar ato: escolha o arquivo do regime")
        )
        path, _ = open_file_name(self, title, "", self.tr("Regime (*.toml)"))
        if path:
            self.install_file(path, amend=amend)

    def install_file(self, path: str, *, amend: bool = False) -> bool:
        """Check the file whole; with any error show them all and store nothing; else say what it defines, ask,
        and install it (or its amended version)."""
        from pathlib import Path

        from models.rules.acts import defines
        from models.rules.regimes import check_regime_text, load_regime_text
        from models.services.act_cases import run_cases

        self.error.hide()
        self.message.clear()
        try:
            data, name = acts.read_file(path)
        except UserError as exc:
            return self._fail([exc.message])
        errors = check_regime_text(data, name, expected_id=Path(name).stem)
        if errors:
            return self._fail(
                [str(e) for e in errors], head=self.tr("%n erro(s) no arquivo; nada foi gravado:", "", len(errors))
            )
        regime = load_regime_text(data, name)
        what = self.tr("Alterar %1 com esta nova redação?") if amend else self.tr("Instalar este ato?")
        text = (
            fill(what, regime.id) + "\n\n" + f"{regime.municipality}/{regime.state} — {regime.act}\n" + defines(regime)
        )
        failed = [o for o in run_cases(regime) if not o.passed]  # the act's worked cases, computed from the file
        if failed:
            text += "\n" + self.tr("Atenção: %n caso(s) do ato não conferem:", "", len(failed))
            text += "".join(
                f"\n  {o.case.id}: {o.mismatches[0].what}, esperado {o.mismatches[0].expected}, "
                f"calculado {o.mismatches[0].got}"
                for o in failed
            )
        answer = QMessageBox.question(
            self, self.tr("Regimes"), text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        try:  # written on a worker (issue 27 §5), the page's buttons held
            write = acts.amend if amend else acts.install
            version = in_background(lambda: write(data, name), busy=self._buttons())
        except RegimeErrors as exc:
            return self._fail([str(e) for e in exc.errors])
        except (RegimeError, UserError) as exc:
            return self._fail([exc.message])
        self.refresh()
        self.choose(regime.id)
        self.message.setText(fill(self.tr("%1 instalado: %2"), regime.id, version.label))
        return True

    def ask_retire(self) -> None:
        regime_id = self.current_id()
        if not regime_id:
            return
        reason, ok = QInputDialog.getText(
            self,
            self.tr("Retirar ato"),
            fill(self.tr("Motivo da retirada de %1 (revogação, substituição…):"), regime_id),
        )
        if ok:
            self.retire(regime_id, reason)

    def retire(self, regime_id: str, reason: str) -> bool:
        self.error.hide()
        try:
            in_background(lambda: acts.retire(regime_id, reason), busy=self._buttons())  # issue 27 §5
        except UserError as exc:
            return self._fail([exc.message])
        self.refresh()
        self.message.setText(fill(self.tr("%1 retirado: não é mais oferecido para novos requerimentos."), regime_id))
        return True

    def _buttons(self) -> tuple[QWidget, ...]:
        return (self.install_button, self.amend_button, self.retire_button)

    def _fail(self, lines: list[str], head: str = "") -> bool:
        self.error.setText("\n".join(([head] if head else []) + lines))
        self.error.show()
        return False

    def find_text(self, *, restart: bool) -> bool:
        text = self.find_edit.text()
        if not text:
            self.find_status.clear()
            return False
        if restart:
            cursor = self.browser.textCursor()
            cursor.movePosition(cursor.MoveOperation.Start)
            self.browser.setTextCursor(cursor)
        found = self.browser.find(text)
        if not found and not restart:  # wrap around
            cursor = self.browser.textCursor()
            cursor.movePosition(cursor.MoveOperation.Start)
            self.browser.setTextCursor(cursor)
            found = self.browser.find(text)
        self.find_status.setText("" if found else self.tr("não encontrado"))
        return found

    def save_pdf(self) -> None:
        regime_id = self.current_id()
        if not regime_id:
            return
        path, _ = save_file_name(self, self.tr("Salvar regime em PDF"), f"{regime_id}.pdf", self.tr("PDF (*.pdf)"))
        if path:
            self.write_pdf(path)

    def write_pdf(self, path: str) -> None:
        regime = self.regimes.get(self.current_id() or "")
        html_to_pdf(self.browser.toHtml(), path, title=regime.title if regime else "")
