"""Painel: where the clerk lands — the municipality, the database, what is registered, what is due."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QLocale, QSize, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from views import theme
from views.blocks import error_label, fill, push_button, wrapped_label
from views.fit import scrollable


class _DayList(QListWidget):
    """The day's list: it takes the room the page leaves (its stretch) and asks for little, so that the page
    scrolls only on a screen where the rest does not fit."""

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), 60)


class HomePage(QWidget):
    #: The tables the Painel reads: a write to any other leaves it as it is (issue 27 §5)
    shows = frozenset(
        {
            "person",
            "company",
            "setting",
            "regime_act",
            "municipal_holiday",
            "application",
            "application_event",
            "permit",
            "permit_event",
            "charge",
            "payment",
            "payment_reversal",
            "credit",
            "guia",
            "guia_charge",
            "debt_inscription",
            "index_correction",
            "fiscal_unit_value",
            "enforcement_record",
            "enforcement_item",
            "enforcement_charge",
            "enforcement_event",
            "enforcement_file",
            "enforcement_contest",
            "signing_key",
            "app_user",
        }
    )

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        body = QWidget()
        body.setObjectName("painel-body")
        outer.addWidget(scrollable(body))  # the first steps' checklist and the day's list: scrolled on a small screen
        layout = QVBoxLayout(body)
        layout.setContentsMargins(32, 28, 32, 28)
        self.heading = QLabel()
        self.heading.setObjectName("heading")
        self.heading.setStyleSheet("font-size: 20pt; font-weight: 600;")
        self.agency = QLabel()
        self.agency.setStyleSheet("font-size: 11pt;")
        layout.addWidget(self.heading)
        layout.addWidget(self.agency)
        layout.addSpacing(16)
        self.main = parent  # the window: the first steps' buttons take the clerk to the right desk
        self.first_steps = self._first_steps()
        layout.addWidget(self.first_steps)

        self.backup_notice = self._backup_notice()
        layout.addWidget(self.backup_notice)
        # the trail's guards were missing or altered when the database was opened (models.store.audit.repair_guards)
        self.guard_notice = error_label("guard-notice")
        self.guard_notice.hide()
        layout.addWidget(self.guard_notice)

        box = QFrame()
        box.setFrameShape(QFrame.Shape.StyledPanel)
        form = QFormLayout(box)
        self.people = QLabel()
        self.people.setObjectName("people-count")
        self.companies = QLabel()
        self.companies.setObjectName("company-count")
        self.database = QLabel()
        self.database.setObjectName("database")
        self.regimes = wrapped_label(name="regimes")
        form.addRow(self.tr("Pessoas cadastradas:"), self.people)
        form.addRow(self.tr("Empresas cadastradas:"), self.companies)
        self.month = wrapped_label(name="month-totals")
        form.addRow(self.tr("Cobrança do mês:"), self.month)
        form.addRow(self.tr("Regimes carregados:"), self.regimes)
        form.addRow(self.tr("Banco de dados:"), self.database)
        layout.addWidget(box)
        layout.addSpacing(12)
        today_title = QLabel(self.tr("Para hoje"))
        today_title.setStyleSheet("font-size: 13pt; font-weight: 600;")
        layout.addWidget(today_title)
        self.today = _DayList()
        self.today.setObjectName("today")
        self.today.setWordWrap(True)
        self.today.setMinimumHeight(60)
        layout.addWidget(self.today, 1)
        self.day: _dt.date | None = None  # None: the real today
        self.heading.setText(self.tr("Praça"))  # until refresh() fills the page from the database
        self.today.addItem(self.tr("Abrindo o banco de dados…"))

    def _first_steps(self) -> QGroupBox:
        """The first steps' checklist (models.services.first_steps), kept until every step is done: each step
        ticked or not, what is set or missing, and a button to the tab of Cadastros that does it."""
        from models.services.first_steps import STEPS

        box = QGroupBox(self.tr("Primeiros passos"))
        box.setObjectName("first-steps")
        column = QVBoxLayout(box)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        self.step_marks: dict[str, QLabel] = {}
        self.step_texts: dict[str, QLabel] = {}
        self.step_buttons: dict[str, QPushButton] = {}
        for row, step in enumerate(STEPS):
            mark = QLabel()
            mark.setObjectName(f"step-mark-{step.id}")
            text = wrapped_label(name=f"step-text-{step.id}")
            button = QPushButton(fill(self.tr("%1…"), step.label))
            button.setObjectName(f"step-{step.id}")
            button.clicked.connect(lambda _c=False, t=step.tab: self._go_to(t))
            grid.addWidget(mark, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(text, row, 1)
            grid.addWidget(button, row, 2, Qt.AlignmentFlag.AlignTop)
            self.step_marks[step.id], self.step_texts[step.id], self.step_buttons[step.id] = mark, text, button
        column.addLayout(grid)
        self.open_steps = push_button(self.tr("Abrir os &Primeiros passos…"), "open-first-steps", self._open_steps)
        self.demo_hint = hint = wrapped_label(
            self.tr(
                "Para experimentar antes: <code>praca demo --db sqlite:///demo.sqlite3</code> cria um banco de "
                "demonstração (usuários com a senha <code>praca2026</code>); abra-o em Arquivo → Abrir banco de "
                "dados."
            ),
            "first-steps-text",
        )
        steps_row = QHBoxLayout()
        steps_row.addWidget(self.open_steps, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        steps_row.addWidget(hint, 1)
        column.addLayout(steps_row)
        box.hide()
        return box

    def _show_first_steps(self, steps) -> None:
        from html import escape

        for step in steps:
            self.step_marks[step.id].setText("✔" if step.done else "○")
            label = step.label + (self.tr(" (opcional)") if step.optional else "")
            self.step_texts[step.id].setText(f"<b>{escape(label)}</b> — {escape(step.why)}")
            self.step_buttons[step.id].setVisible(not step.done)
        self.first_steps.setVisible(any(not s.done for s in steps))
        # a first start, nothing set yet: the demo is worth a try
        self.demo_hint.setVisible(not any(s.done for s in steps if s.id == "municipality"))

    def _open_steps(self) -> None:
        window = self.main
        if window is not None and hasattr(window, "open_first_steps"):
            window.open_first_steps()

    def _backup_notice(self) -> QFrame:
        """Today's automatic backup was written unsigned (this desk is not unlocked): said plainly, with the way
        to sign it — unlocking the desk signs it (models.store.backup.seal_pending_backups)."""
        box = QFrame()
        box.setObjectName("backup-notice")
        box.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(box)
        self.backup_text = wrapped_label(name="backup-notice-text")
        row.addWidget(self.backup_text, 1)
        self.backup_unlock = push_button(
            self.tr("Liberar esta mesa e assinar o &backup…"), "backup-unlock", self._unlock_and_sign
        )
        row.addWidget(self.backup_unlock)
        box.hide()
        return box

    def _refresh_backup_notice(self) -> None:
        from views.operations import in_background

        self._show_backup_notice(*in_background(_backup_facts))

    def _show_backup_notice(self, path, has_key: bool) -> None:
        self.backup_notice.setVisible(path is not None)
        if path is None:
            return
        if not has_key:
            self.backup_text.setText(
                fill(
                    self.tr(
                        "O backup automático de hoje (%1) foi gravado SEM assinatura: a prefeitura ainda não "
                        "tem chave de assinatura (o administrador a cria em Cadastros → Assinatura). Restaurá-lo "
                        "exigirá aceitar um backup não assinado."
                    ),
                    path.name,
                )
            )
            self.backup_unlock.hide()
            return
        self.backup_text.setText(
            fill(
                self.tr(
                    "O backup automático de hoje (%1) foi gravado SEM assinatura: esta mesa não está liberada "
                    "para assinar com a chave da prefeitura. Libere-a agora e o backup é assinado; senão, "
                    "restaurá-lo exigirá aceitar um backup não assinado."
                ),
                path.name,
            )
        )
        self.backup_unlock.show()

    def _unlock_and_sign(self) -> None:
        from views.signing_page import unlock_desk

        text = unlock_desk(self)
        if text is None:
            return
        self._refresh_backup_notice()
        window = self.main
        if window is not None and hasattr(window, "statusBar"):
            window.statusBar().showMessage(text, 8000)

    def _go_to(self, tab: str) -> None:
        window = self.main
        if window is not None and hasattr(window, "open_registry_tab"):
            window.open_registry_tab(tab)

    def refresh(self) -> None:
        # imported here: the window shows this page's frame before the database is open (start-up)
        from models.base.money import format_brl
        from models.store.audit import GUARD_REPAIRS
        from views.operations import in_background

        day = self.day or _dt.date.today()
        facts = in_background(lambda: _painel_facts(day))  # every read off the GUI thread (issue 27 §5)
        place = facts["place"]
        self._show_backup_notice(facts["unsigned_backup"], facts["has_key"])
        self.guard_notice.setText("\n".join(GUARD_REPAIRS))
        self.guard_notice.setVisible(bool(GUARD_REPAIRS))
        self.steps = facts["steps"]
        self._show_first_steps(self.steps)  # until every first step is done
        self.heading.setText(
            fill(self.tr("Praça — %1"), place) if place else self.tr("Praça — configure o município em Cadastros")
        )
        self.agency.setText(facts["agency"])
        numbers = facts["counts"]
        locale = QLocale()
        self.people.setText(locale.toString(numbers["people"]))
        self.companies.setText(locale.toString(numbers["companies"]))
        url = facts["url"]
        self.database.setText(url.display() if url else "—")
        self.regimes.setText("\n".join(facts["regimes"]) or "—")
        s = facts["month"]
        self.month.setText(
            fill(
                self.tr("%1: lançado %2, pago %3, em aberto %4 (vencido %5)"),
                s.label,
                format_brl(s.charged),
                format_brl(s.paid),
                format_brl(s.open),
                format_brl(s.overdue),
            )
        )
        items = facts["items"]
        self.today.clear()
        for item in items:
            article = f" ({item.article})" if item.article else ""
            entry = QListWidgetItem(f"{item.date:%d/%m/%Y} — {item.text}{article}")
            if item.overdue:
                entry.setForeground(QBrush(theme.qcolour("error")))
            self.today.addItem(entry)
        if not items:
            self.today.addItem(self.tr("Nada vence hoje nem nos próximos dias."))


def _backup_facts():
    """Today's automatic backup when it was written unsigned, and whether the municipality has a key."""
    from models.access.signing_keys import active_key
    from models.store.backup import unsigned_daily_backup

    path = unsigned_daily_backup()
    return path, (active_key() is not None) if path is not None else False


def _painel_facts(day: _dt.date) -> dict:
    """What the Painel shows, read in one go on a worker thread."""
    from models.billing.charges import charge_alerts, month_summary
    from models.enforcement import enforcement_alerts
    from models.permits import today_items
    from models.registry.municipality import municipality, own_scope
    from models.registry.people import counts
    from models.services.first_steps import first_steps
    from models.store.db import current_url
    from views.regime_list import regime_titles

    path, has_key = _backup_facts()
    town = municipality()
    scope = own_scope()
    return {
        "place": town.label,
        "unsigned_backup": path,
        "has_key": has_key,
        "agency": town.agency_name,
        "counts": counts(),
        "url": current_url(),
        "regimes": regime_titles(),
        "month": month_summary(day.year, day.month, today=day, regimes=scope),  # as its report counts
        # this municipality's items only (a database filled with several towns' data before issue 31)
        "items": charge_alerts(day, regimes=scope)
        + enforcement_alerts(day, regimes=scope)
        + today_items(day, regimes=scope),
        "steps": first_steps(),
    }
