"""Atendimento → pessoa: register or edit a natural person, their household and socio-economic data."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from models.base.br import format_cpf, parse_br_date
from models.base.errors import FieldErrors, UserError
from models.registry.people import HOUSING, RELATIONS, HouseholdInput, Person, PersonInput, save_person
from models.store.files import resolve
from views import theme
from views.blocks import FieldErrorsView, fill
from views.fit import fit_to_screen, scrollable
from views.operations import in_background
from views.save import open_file_name
from views.widgets import DateEdit, DocumentEdit, GuardedDialog, add_remove_row, cell_text, make_address_fields


class PersonDialog(GuardedDialog):
    """Nobody found at the counter → register the person (or edit one already registered)."""

    def __init__(
        self,
        person: Person | None = None,
        parent: QWidget | None = None,
        *,
        cpf: str = "",
        today: _dt.date | None = None,
    ):
        super().__init__(parent)
        self.person = person
        self.today = today or _dt.date.today()
        self.photo_file: str | None = None
        self.setWindowTitle(self.tr("Editar pessoa") if person else self.tr("Nova pessoa"))
        self.setMinimumWidth(820)
        outer = QVBoxLayout(self)
        body = QWidget()  # the form scrolls on a short screen; the save bar stays in view
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)

        ident = QGroupBox(self.tr("Identificação"))
        grid = QGridLayout(ident)
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.cpf = DocumentEdit("cpf")
        self.cpf.setObjectName("cpf")
        self.cpf_status = QLabel()
        self.cpf_status.setObjectName("cpf-status")
        self.cpf.validity_changed.connect(lambda ok, msg: self.cpf_status.setText("✓" if ok else msg))
        self.rg = QLineEdit()
        self.rg.setObjectName("rg")
        self.birth = DateEdit()
        self.birth.setObjectName("birth_date")
        self.photo = QLabel(self.tr("sem foto"))
        self.photo.setObjectName("photo")
        self.photo.setFixedSize(96, 120)
        self.photo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        theme.styled(self.photo, "border: 1px solid ${border};")
        photo_button = QPushButton(self.tr("&Foto…"))
        photo_button.clicked.connect(self.choose_photo)
        grid.addWidget(QLabel(self.tr("&Nome completo:")), 0, 0)
        grid.addWidget(self.name, 0, 1, 1, 3)
        grid.addWidget(QLabel(self.tr("C&PF:")), 1, 0)
        grid.addWidget(self.cpf, 1, 1)
        grid.addWidget(self.cpf_status, 1, 2, 1, 2)
        grid.addWidget(QLabel(self.tr("&RG:")), 2, 0)
        grid.addWidget(self.rg, 2, 1)
        grid.addWidget(QLabel(self.tr("Nasci&mento:")), 3, 0)
        grid.addWidget(self.birth, 3, 1)
        grid.addWidget(self.photo, 0, 4, 4, 1)
        grid.addWidget(photo_button, 4, 4)
        for row, widget in enumerate((self.name, self.cpf, self.rg, self.birth)):
            cell = grid.itemAtPosition(row, 0)
            caption = cell.widget() if cell is not None else None
            if isinstance(caption, QLabel):  # the label of each line, in the first column
                caption.setBuddy(widget)
        layout.addWidget(ident)

        contact = QGroupBox(self.tr("Endereço e contato"))
        form = QGridLayout(contact)
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
        self.phone2 = QLineEdit()
        self.phone2.setObjectName("phone2")
        self.resident_since = DateEdit()
        self.resident_since.setObjectName("resident_since")
        form.addWidget(QLabel(self.tr("Logradouro:")), 0, 0)
        form.addWidget(self.street, 0, 1, 1, 3)
        form.addWidget(QLabel(self.tr("Nº:")), 0, 4)
        form.addWidget(self.number, 0, 5)
        form.addWidget(QLabel(self.tr("Bairro:")), 1, 0)
        form.addWidget(self.district, 1, 1)
        form.addWidget(QLabel(self.tr("Cidade:")), 1, 2)
        form.addWidget(self.city, 1, 3)
        form.addWidget(QLabel(self.tr("UF:")), 1, 4)
        form.addWidget(self.state, 1, 5)
        form.addWidget(QLabel(self.tr("CEP:")), 2, 0)
        form.addWidget(self.zip_code, 2, 1)
        form.addWidget(QLabel(self.tr("Reside no município desde:")), 2, 2)
        form.addWidget(self.resident_since, 2, 3)
        form.addWidget(QLabel(self.tr("Telefones:")), 3, 0)
        form.addWidget(self.phone, 3, 1)
        form.addWidget(self.phone2, 3, 3)
        form.addWidget(QLabel(self.tr("E-mail:")), 4, 0)
        form.addWidget(self.email, 4, 1, 1, 3)
        layout.addWidget(contact)

        social = QGroupBox(self.tr("Situação socioeconômica"))
        social_form = QFormLayout(social)
        self.family_income = QLineEdit()
        self.family_income.setObjectName("family_income_mw")
        self.family_income.setPlaceholderText(self.tr("em salários mínimos, ex.: 1,5"))
        self.family_income.setMaximumWidth(200)
        self.housing = QComboBox()
        self.housing.setObjectName("housing")
        self.housing.addItem(self.tr("— não informada —"), "")
        for key, label in HOUSING.items():
            self.housing.addItem(label, key)
        self.experience = QSpinBox()
        self.experience.setObjectName("experience_years")
        self.experience.setRange(-1, 90)
        self.experience.setSpecialValueText(self.tr("— não informado —"))
        self.experience.setValue(-1)
        self.experience.setSuffix(self.tr(" anos"))
        self.disabled = QCheckBox(self.tr("Pessoa com deficiência"))
        self.disabled.setObjectName("disabled")
        self.disability_notes = QLineEdit()
        self.disability_notes.setObjectName("disability_notes")
        self.disability_notes.setPlaceholderText(self.tr("qual (opcional)"))
        social_form.addRow(self.tr("Renda famil&iar:"), self.family_income)
        social_form.addRow(self.tr("M&oradia:"), self.housing)
        social_form.addRow(self.tr("&Experiência no ramo:"), self.experience)
        social_form.addRow(self.disabled, self.disability_notes)
        layout.addWidget(social)

        family = QGroupBox(self.tr("Família (cônjuge/companheiro e dependentes)"))
        family_layout = QVBoxLayout(family)
        self.household = QTableWidget(0, 5)
        self.household.setObjectName("household")
        self.household.setHorizontalHeaderLabels(
            [self.tr("Nome"), self.tr("Parentesco"), self.tr("CPF"), self.tr("Nascimento"), self.tr("Deficiência")]
        )
        self.household.horizontalHeader().setStretchLastSection(False)
        self.household.setColumnWidth(0, 260)
        self.household.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.household.setMaximumHeight(140)
        family_layout.addWidget(self.household)
        family_layout.addLayout(
            add_remove_row(self, self.tr("&Adicionar familiar"), self.add_member, self.remove_member)
        )
        layout.addWidget(family)
        outer.addWidget(scrollable(body), 1)
        self.add_save_bar(outer)
        fit_to_screen(self, body.sizeHint() + QSize(40, 90))

        self.errors = FieldErrorsView(
            self.error,
            {
                "name": self.name,
                "cpf": self.cpf,
                "rg": self.rg,
                "birth_date": self.birth,
                **self.address.widgets(),
                "phone2": self.phone2,
                "resident_since": self.resident_since,
                "family_income_mw": self.family_income,
                "housing": self.housing,
                "experience_years": self.experience,
                "disability_notes": self.disability_notes,
                "household": self.household,
                "search_name": self.name,
            },
        )
        if person is not None:
            self.load(person)
        elif cpf:
            self.cpf.setText(cpf)
        self.watch_edits()
        self.name.setFocus()

    # -- household ----------------------------------------------------------
    def add_member(self, member: HouseholdInput | None = None) -> int:
        row = self.household.rowCount()
        self.household.insertRow(row)
        self.household.setItem(row, 0, QTableWidgetItem(member.name if member else ""))
        relation = QComboBox()
        relation.addItem(self.tr("— parentesco —"), "")
        for key, label in RELATIONS.items():
            relation.addItem(label, key)
        if member:
            relation.setCurrentIndex(relation.findData(member.relation))
        self.household.setCellWidget(row, 1, relation)
        self.household.setItem(row, 2, QTableWidgetItem(format_cpf(member.cpf) if member and member.cpf else ""))
        born = member.birth_date.strftime("%d/%m/%Y") if member and member.birth_date else ""
        self.household.setItem(row, 3, QTableWidgetItem(born))
        check = QTableWidgetItem()
        check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
        check.setCheckState(Qt.CheckState.Checked if member and member.disabled else Qt.CheckState.Unchecked)
        self.household.setItem(row, 4, check)
        self.dirty = True
        return row

    def remove_member(self) -> None:
        row = self.household.currentRow()
        if row >= 0:
            self.household.removeRow(row)
            self.dirty = True

    def household_input(self) -> list[HouseholdInput]:
        members = []
        for row in range(self.household.rowCount()):
            born_text = cell_text(self.household, row, 3)
            born = None
            if born_text:
                try:
                    born = parse_br_date(born_text, what=fill(self.tr("Familiar %1: data de nascimento"), row + 1))
                except UserError as refused:
                    raise FieldErrors({f"household[{row}].birth_date": refused.message}) from None
            relation = self.household.cellWidget(row, 1)
            assert isinstance(relation, QComboBox)  # the relation column holds a combo box on every row
            disabled = self.household.item(row, 4)
            members.append(
                HouseholdInput(
                    name=cell_text(self.household, row, 0),
                    relation=relation.currentData(),
                    cpf=cell_text(self.household, row, 2),
                    birth_date=born,
                    disabled=disabled is not None and disabled.checkState() == Qt.CheckState.Checked,
                )
            )
        return members

    # -- photo ---------------------------------------------------------------
    def choose_photo(self) -> None:
        path, _ = open_file_name(self, self.tr("Foto"), "", self.tr("Imagens (*.jpg *.jpeg *.png)"))
        if path:
            self.set_photo(path)

    def set_photo(self, path: str) -> None:
        pixmap = QPixmap(path)
        if pixmap.isNull():
            self.errors.show({"photo": self.tr("O arquivo escolhido não é uma imagem.")})
            return
        self.photo_file = path
        self.photo.setPixmap(
            pixmap.scaled(
                self.photo.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        )
        self.dirty = True

    # -- load / save -----------------------------------------------------------
    def load(self, person: Person) -> None:
        self.name.setText(person.name)
        self.cpf.set_value(person.cpf)
        self.rg.setText(person.rg)
        self.birth.set_date(person.birth_date)
        self.address.load(person)
        self.phone2.setText(person.phone2)
        self.resident_since.set_date(person.resident_since)
        from models.base.money import format_decimal_br

        if person.family_income_mw is not None:
            self.family_income.setText(format_decimal_br(person.family_income_mw, 2))
        self.housing.setCurrentIndex(max(0, self.housing.findData(person.housing)))
        self.experience.setValue(person.experience_years if person.experience_years is not None else -1)
        self.disabled.setChecked(person.disabled)
        self.disability_notes.setText(person.disability_notes)
        for member in person.household:
            self.add_member(
                HouseholdInput(member.name, member.relation, member.cpf, member.birth_date, member.disabled)
            )
        if person.photo_path:
            pixmap = QPixmap(str(resolve(person.photo_path)))
            if not pixmap.isNull():
                self.photo.setPixmap(pixmap.scaled(self.photo.size(), Qt.AspectRatioMode.KeepAspectRatio))
        self.dirty = False

    def person_input(self) -> PersonInput:
        errors = {}
        dates = {}
        for key, widget in (("birth_date", self.birth), ("resident_since", self.resident_since)):
            try:
                dates[key] = widget.date()
            except UserError as exc:
                errors[key] = exc.message
        if errors:
            raise FieldErrors(errors)
        return PersonInput(
            name=self.name.text(),
            cpf=self.cpf.compact(),
            rg=self.rg.text(),
            birth_date=dates["birth_date"],
            **self.address.values(),
            phone2=self.phone2.text(),
            resident_since=dates["resident_since"],
            disabled=self.disabled.isChecked(),
            disability_notes=self.disability_notes.text(),
            family_income_mw=self.family_income.text(),
            housing=self.housing.currentData(),
            experience_years=self.experience.value() if self.experience.value() >= 0 else None,
            photo_file=self.photo_file,
            household=self.household_input(),
        )

    def save(self) -> None:
        try:
            data, person, today = self.person_input(), self.person, self.today
            self.person = in_background(  # the worker thread (issue 27 §5)
                lambda: save_person(data, person=person, today=today), busy=(self.save_button,)
            )
        except FieldErrors as exc:
            self.errors.show(exc.errors)
            self.save_button.setToolTip(self.error.text())
            return
        except UserError as exc:
            self.errors.show({exc.field or "name": exc.message})
            return
        self.dirty = False
        self.accept()
