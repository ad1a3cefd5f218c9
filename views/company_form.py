"""Atendimento → empresa: register or edit a company (MEI included) and its partners."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.base.br import format_cpf
from models.base.errors import FieldErrors, UserError
from models.registry.people import Company, CompanyInput, PartnerInput, save_company
from views.blocks import FieldErrorsView
from views.operations import in_background
from views.widgets import DocumentEdit, GuardedDialog, add_remove_row, cell_text, make_address_fields


class CompanyDialog(GuardedDialog):
    def __init__(self, company: Company | None = None, parent: QWidget | None = None, *, cnpj: str = ""):
        super().__init__(parent)
        self.company = company
        self.setWindowTitle(self.tr("Editar empresa") if company else self.tr("Nova empresa"))
        self.setMinimumWidth(760)
        layout = QVBoxLayout(self)
        box = QGroupBox(self.tr("Empresa"))
        form = QFormLayout(box)
        self.cnpj = DocumentEdit("cnpj")
        self.cnpj.setObjectName("cnpj")
        self.cnpj_status = QLabel()
        self.cnpj.validity_changed.connect(lambda ok, msg: self.cnpj_status.setText("✓" if ok else msg))
        row = QHBoxLayout()
        row.addWidget(self.cnpj)
        row.addWidget(self.cnpj_status, 1)
        self.legal_name = QLineEdit()
        self.legal_name.setObjectName("legal_name")
        self.trade_name = QLineEdit()
        self.trade_name.setObjectName("trade_name")
        self.mei = QCheckBox(self.tr("Microempreendedor individual (MEI)"))
        self.mei.setObjectName("mei")
        self.registration = QLineEdit()
        self.registration.setObjectName("municipal_registration")
        address = self.address = make_address_fields()
        self.street, self.number, self.district, self.city = (
            address.street,
            address.number,
            address.district,
            address.city,
        )
        self.state, self.zip_code, self.phone, self.email = (
            address.state,
            address.zip_code,
            address.phone,
            address.email,
        )
        form.addRow(self.tr("C&NPJ:"), row)
        form.addRow(self.tr("&Razão social:"), self.legal_name)
        form.addRow(self.tr("Nome &fantasia:"), self.trade_name)
        form.addRow("", self.mei)
        form.addRow(self.tr("&Inscrição municipal:"), self.registration)
        form.addRow(self.tr("Logradouro, nº:"), self._pair(self.street, self.number))
        form.addRow(self.tr("Bairro:"), self.district)
        form.addRow(self.tr("Cidade, UF:"), self._pair(self.city, self.state))
        form.addRow(self.tr("CEP:"), self.zip_code)
        form.addRow(self.tr("Telefone:"), self.phone)
        form.addRow(self.tr("E-mail:"), self.email)
        layout.addWidget(box)

        partners = QGroupBox(self.tr("Sócios e cônjuges"))
        partners_layout = QVBoxLayout(partners)
        self.partners = QTableWidget(0, 4)
        self.partners.setObjectName("partners")
        self.partners.setHorizontalHeaderLabels(
            [self.tr("Sócio"), self.tr("CPF do sócio"), self.tr("Cônjuge"), self.tr("CPF do cônjuge")]
        )
        self.partners.setColumnWidth(0, 200)
        self.partners.setColumnWidth(1, 140)
        self.partners.setColumnWidth(2, 180)
        self.partners.setColumnWidth(3, 140)
        self.partners.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.partners.setMaximumHeight(130)
        partners_layout.addWidget(self.partners)
        partners_layout.addLayout(
            add_remove_row(
                self,
                self.tr("&Adicionar sócio"),
                self.add_partner,
                lambda: self.partners.removeRow(self.partners.currentRow()),
            )
        )
        layout.addWidget(partners)
        self.add_save_bar(layout)
        self.errors = FieldErrorsView(
            self.error,
            {
                "cnpj": self.cnpj,
                "legal_name": self.legal_name,
                **self.address.widgets(),
                "partners": self.partners,
                "trade_name": self.trade_name,
                "municipal_registration": self.registration,
                "search_name": self.legal_name,
            },
        )
        if company is not None:
            self.load(company)
        elif cnpj:
            self.cnpj.setText(cnpj)
        self.watch_edits()

    @staticmethod
    def _pair(first: QWidget, second: QWidget) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(first, 1)
        row.addWidget(second)
        return box

    def add_partner(self, partner: PartnerInput | None = None) -> int:
        row = self.partners.rowCount()
        self.partners.insertRow(row)
        values = (
            [
                partner.name,
                format_cpf(partner.cpf) if partner.cpf else "",
                partner.spouse_name,
                format_cpf(partner.spouse_cpf) if partner.spouse_cpf else "",
            ]
            if partner
            else ["", "", "", ""]
        )
        for col, value in enumerate(values):
            self.partners.setItem(row, col, QTableWidgetItem(value))
        self.dirty = True
        return row

    def load(self, company: Company) -> None:
        self.cnpj.set_value(company.cnpj)
        self.legal_name.setText(company.legal_name)
        self.trade_name.setText(company.trade_name)
        self.mei.setChecked(company.mei)
        self.registration.setText(company.municipal_registration)
        self.address.load(company)
        for partner in company.partners:
            self.add_partner(PartnerInput(partner.name, partner.cpf, partner.spouse_name, partner.spouse_cpf))
        self.dirty = False

    def company_input(self) -> CompanyInput:
        partners = []
        for row in range(self.partners.rowCount()):
            cells = [cell_text(self.partners, row, col) for col in range(4)]
            if any(cells):
                partners.append(PartnerInput(*cells))
        return CompanyInput(
            cnpj=self.cnpj.compact(),
            legal_name=self.legal_name.text(),
            trade_name=self.trade_name.text(),
            mei=self.mei.isChecked(),
            municipal_registration=self.registration.text(),
            **self.address.values(),
            partners=partners,
        )

    def save(self) -> None:
        try:
            data, company = self.company_input(), self.company
            self.company = in_background(  # the worker thread (issue 27 §5)
                lambda: save_company(data, company=company), busy=(self.save_button,)
            )
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            self.save_button.setToolTip(self.error.text())
            return
        except UserError as exc:
            self.errors.show({exc.field or "cnpj": exc.message})
            return
        self.dirty = False
        self.accept()
