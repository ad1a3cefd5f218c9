"""The draw tab: the public draw of a call, step by step, and its ata."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from models.base.errors import FieldErrors, UserError
from models.rules.regimes import get_regime
from models.selection import parse_vacancies
from models.selection.draws import Draw, hold_draw
from models.selection.publications import publication_check
from models.services.calls import (
    default_call_text,
)
from views import theme
from views.blocks import FieldErrorsView, fill
from views.readings_box import ReadingsBox
from views.selection.call_tab import CallTab
from views.selection.common import MONO, day_text, message_line, public_draw_fields
from views.widgets import current_user_name


class DrawTab(QWidget):
    """The public act: where, who, how many places, the seed typed in front of everybody — and the draw."""

    drawn = Signal(int)

    def __init__(self, call: CallTab, parent: QWidget | None = None):
        super().__init__(parent)
        self.call = call
        self.replaces: int | None = None
        self.last_draw: Draw | None = None
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
        self.place, self.officials = public_draw_fields(self, "", 90)
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
        self.readings = ReadingsBox("draw")
        layout.addWidget(self.readings)
        self.replacing = QLabel()
        self.replacing.setObjectName("replacing")
        theme.styled(self.replacing, "color: ${error};")
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
                "readings": self.readings,
            },
        )
        self.message = message_line()
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
            self.readings.show_points(regime)
            rules = current.rules if current is not None else None
            if rules is not None:
                self.alternates.setValue(rules.alternates)
                self.alternates_basis.setText(
                    fill(self.tr("o ato fixa %1 (%2)"), str(rules.alternates), rules.alternates_basis)
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
            fill(self.tr("um número por grupo, ou %1"), ",".join(f"{g}=N" for g in groups[:3]))
            if len([g for g in groups if g]) > 1
            else self.tr("número de vagas (ex.: 3)")
        )
        if current is None or current.published is None:
            self.summary.setText(
                fill(
                    self.tr("Sem lista para sortear: %1"),
                    escape(current.problem if current is not None else self.tr("escolha o chamamento.")),
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
        text = fill(
            self.tr("<b>%1</b> — %2 participante(s) na lista, %3.<br>SHA-256 da lista: <span style='%4'>%5</span>"),
            escape(get_regime(current.regime_id).title),
            str(len(current.published.participants)),
            state,
            MONO,
            current.sha256,
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
            fill(self.tr("Este sorteio substituirá o sorteio nº %1, anulado."), str(draw_id)) if draw_id else ""
        )

    def hold(self):
        """Check the list against the one published, confirm, and hold the draw
        (``models.selection.draws.hold_draw``)."""
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
                fill(
                    self.tr(
                        "A lista mudou desde a publicação de %1 (SHA-256 publicado %2, atual %3): "
                        "publique-a de novo antes do sorteio."
                    ),
                    day_text(check.publication.published_on),
                    check.publication.list_sha256[:16] + "…",
                    current.sha256[:16] + "…",
                )
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
            fill(
                self.tr(
                    "Sortear %1 participante(s) com a semente «%2»?\n\nSHA-256 da lista: %3\nVagas: %4; suplentes: "
                    "%5.\n\nUm sorteio realizado não se altera: só pode ser anulado, com o motivo.%6"
                ),
                str(len(current.published.participants)),
                seed,
                current.sha256,
                text,
                str(self.alternates.value()),
                warning,
            ),
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
                readings=self.readings.choices(current_user_name()),
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
            fill(
                self.tr("Sorteio nº %1 realizado e guardado (SHA-256 %2, semente «%3»)."),
                str(draw.id),
                draw.list_sha256,
                draw.seed,
            )
        )
        self.set_replacing(None)
        self.seed.clear()
        self.drawn.emit(draw.id)
        return draw
