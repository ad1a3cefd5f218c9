"""Cadastros → Município: which municipality this database is (issue 31 §1) — name, UF, IBGE code, CNPJ,
address, agency, coat of arms and the office's hours — read by every letterhead.

Every check is the domain's (:mod:`models.registry.municipality`); the page reads and writes off the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from models.base.br import format_cnpj
from models.registry.municipality import (
    UFS,
    Municipality,
    MunicipalityInput,
    municipality,
    read_coat_of_arms,
    set_municipality,
)
from views.blocks import (
    FieldErrorsView,
    button_row,
    error_label,
    fill,
    message_label,
    push_button,
    user_errors,
    wrapped_label,
)
from views.operations import in_background
from views.save import ask_open_path

ARMS_SIZE = 96  # the preview's side, in pixels


class MunicipalityPage(QWidget):
    """The municipality's identity as a form; ``saved`` is emitted after a save (the window retitles)."""

    saved = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._arms: bytes = b""  # the image shown (chosen or stored)
        self._arms_changed = False
        layout = QVBoxLayout(self)
        layout.addWidget(
            wrapped_label(
                self.tr(
                    "Este banco de dados é de um município: o nome, a UF e o brasão daqui vão no cabeçalho de "
                    "cada alvará, recibo, guia, mapa e relatório, e os relatórios contam só os atos deste "
                    "município."
                ),
                "municipality-intro",
            )
        )
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.name.setPlaceholderText(self.tr("ex.: Olímpia"))
        self.state = QComboBox()
        self.state.setObjectName("state")
        self.state.addItem("", "")
        for uf in UFS:
            self.state.addItem(uf, uf)
        self.state.setMaximumWidth(80)
        self.ibge = QLineEdit()
        self.ibge.setObjectName("ibge")
        self.ibge.setMaxLength(7)
        self.ibge.setPlaceholderText(self.tr("7 algarismos, ex.: 3533908"))
        self.ibge.setMaximumWidth(200)
        self.cnpj = QLineEdit()
        self.cnpj.setObjectName("cnpj")
        self.cnpj.setPlaceholderText(self.tr("CNPJ da prefeitura"))
        self.cnpj.setMaximumWidth(200)
        self.address = QLineEdit()
        self.address.setObjectName("address")
        self.address.setPlaceholderText(self.tr("rua, número, bairro, CEP"))
        self.agency = QLineEdit()
        self.agency.setObjectName("agency")
        self.agency.setPlaceholderText(self.tr("ex.: Prefeitura da Estância Turística de Olímpia"))
        self.office_hours = QLineEdit()
        self.office_hours.setObjectName("office_hours")
        self.office_hours.setPlaceholderText(self.tr("ex.: 08:00-17:00"))
        self.office_hours.setMaximumWidth(160)
        self.arms = QLabel()
        self.arms.setObjectName("coat_of_arms")
        self.arms.setFixedSize(ARMS_SIZE, ARMS_SIZE)
        self.arms.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.arms.setFrameShape(QLabel.Shape.StyledPanel)
        self.choose_arms = push_button(self.tr("Escol&her imagem…"), "choose-coat-of-arms", self.choose_image)
        self.remove_arms = push_button(self.tr("Remo&ver"), "remove-coat-of-arms", self.remove_image)
        form.addRow(self.tr("Muni&cípio:"), self.name)
        form.addRow(self.tr("&UF:"), self.state)
        form.addRow(self.tr("Código &IBGE:"), self.ibge)
        form.addRow(self.tr("C&NPJ:"), self.cnpj)
        form.addRow(self.tr("&Endereço:"), self.address)
        form.addRow(self.tr("Ó&rgão:"), self.agency)
        form.addRow(self.tr("E&xpediente:"), self.office_hours)
        form.addRow(self.tr("Brasão:"), button_row(self.arms, self.choose_arms, self.remove_arms))
        layout.addLayout(form)
        self.error = error_label()
        self.errors = FieldErrorsView(
            self.error,
            {
                "name": self.name,
                "state": self.state,
                "ibge": self.ibge,
                "cnpj": self.cnpj,
                "address": self.address,
                "agency": self.agency,
                "office_hours": self.office_hours,
                "coat_of_arms": self.arms,
            },
        )
        layout.addWidget(self.error)
        self.message = message_label()
        layout.addWidget(self.message)
        self.save_button = push_button(self.tr("&Salvar"), "save-municipality", self.save)
        layout.addLayout(button_row(self.save_button, push_button(self.tr("Desfazer"), "reset", self.refresh)))
        layout.addStretch(1)
        for edit in (self.name, self.ibge, self.cnpj, self.address, self.agency, self.office_hours):
            edit.returnPressed.connect(self.save)
            edit.textEdited.connect(lambda _t, e=edit: self.errors.forget(e))

    # -- reading -----------------------------------------------------------
    def refresh(self) -> None:
        with user_errors(self.error) as refused:
            found = in_background(municipality)
        if refused:
            return
        self.show_municipality(found)
        self.errors.clear()
        self.message.clear()

    def show_municipality(self, found: Municipality) -> None:
        self.name.setText(found.name)
        self.state.setCurrentIndex(max(0, self.state.findData(found.state)))
        self.ibge.setText(found.ibge)
        self.cnpj.setText(format_cnpj(found.cnpj))
        self.address.setText(found.address)
        self.agency.setText(found.agency)
        self.office_hours.setText(found.office_hours)
        self._arms, self._arms_changed = found.coat_of_arms, False
        self._show_arms()

    def _show_arms(self) -> None:
        pixmap = QPixmap()
        if self._arms and pixmap.loadFromData(self._arms):
            self.arms.setPixmap(
                pixmap.scaled(
                    ARMS_SIZE - 4,
                    ARMS_SIZE - 4,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
            self.arms.setToolTip(fill(self.tr("Brasão (%1 KiB)"), max(1, len(self._arms) // 1024)))
        else:
            self.arms.clear()
            self.arms.setText(self.tr("sem brasão"))
            self.arms.setToolTip("")
        self.remove_arms.setEnabled(bool(self._arms))

    # -- the coat of arms --------------------------------------------------
    def choose_image(self) -> bool:
        path = ask_open_path(self, self.tr("Brasão do município"), self.tr("Imagens (*.png *.jpg *.jpeg)"))
        if not path:
            return False
        return self.use_image_file(path)

    def use_image_file(self, path: str) -> bool:
        """Show the image at ``path`` as the coat of arms to save (checked now: PNG or JPEG, at most 512 KiB)."""
        self.errors.forget(self.arms)
        with user_errors(self.errors) as refused:
            data = read_coat_of_arms(path)
        if refused:
            return False
        pixmap = QPixmap()
        if not pixmap.loadFromData(data):
            self.errors.show({"coat_of_arms": self.tr("A imagem do brasão não pôde ser lida (arquivo danificado?).")})
            return False
        self._arms, self._arms_changed = data, True
        self._show_arms()
        self.message.setText(self.tr("Brasão escolhido: salve para gravá-lo."))
        return True

    def remove_image(self) -> None:
        self._arms, self._arms_changed = b"", True
        self._show_arms()

    # -- saving ------------------------------------------------------------
    def typed(self) -> MunicipalityInput:
        return MunicipalityInput(
            name=self.name.text(),
            state=self.state.currentData() or "",
            ibge=self.ibge.text(),
            cnpj=self.cnpj.text(),
            address=self.address.text(),
            agency=self.agency.text(),
            coat_of_arms=self._arms if self._arms_changed else None,
            office_hours=self.office_hours.text(),
        )

    def save(self) -> bool:
        self.errors.clear()
        self.message.clear()
        given = self.typed()
        with user_errors(self.errors) as refused:
            found = in_background(lambda: set_municipality(given))
        if refused:
            return False
        self.show_municipality(found)
        self.saved.emit()  # the window retitles (and the pages read again: this one too)
        self.message.setText(fill(self.tr("Município salvo: %1."), found.label))
        return True
