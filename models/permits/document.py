"""The printed permit: its :class:`~models.permits.permit_doc.PermitDocument` and the signed QR text."""

from __future__ import annotations

from pathlib import Path

from models.access.signing_keys import KeySource, qr_content
from models.base.errors import UserError
from models.permits.steps import regime_of, root_application
from models.permits.tables import Permit
from models.registry.people import Company, Person, mei_company, responsible_person
from models.registry.town import serves


def _address(row) -> str:
    street = " ".join(p for p in (row.street, row.number) if p).strip()
    if row.street and row.number:
        street = f"{row.street}, {row.number}"
    city = "/".join(p for p in (row.city, row.state) if p)
    return " — ".join(p for p in (street, row.district, city) if p)


def _size_text(front, depth, hitch) -> str:
    from models.base.money import format_decimal_br

    if front is None and depth is None:
        return ""
    parts = [format_decimal_br(v, 2) for v in (front, depth) if v is not None]
    text = " × ".join(parts) + " m"
    if hitch:
        text += f" (+ {format_decimal_br(hitch, 2)} m de engate)"
    return text


def _label_of(finder, ident: str, fmt=None) -> str:
    if not ident:
        return ""
    try:
        item = finder(ident)
    except UserError:
        return ident
    return fmt(item) if fmt else item.label


def _photo(person: Person | None) -> Path | None:
    if person is None or not person.photo_path:
        return None
    from models.store.files import resolve

    try:
        path = resolve(person.photo_path)
    except UserError:
        return None
    return path if path.is_file() else None


def permit_document(permit: Permit):
    """The :class:`models.permits.permit_doc.PermitDocument` of ``permit``: holder, place, activity, term, warning,
    QR."""
    from models.base.br import format_cpf
    from models.permits.permit_doc import from_regime
    from models.registry.municipality import municipality

    regime = regime_of(permit)
    values: dict = {}
    person = Person.get_by_id(permit.person_id) if permit.person_id else None
    if person is not None:
        mei = mei_company(person)
        values.update(
            holder_name=person.name,
            cpf=person.cpf,
            rg=person.rg,
            address=_address(person),
            holder_id_number=format_cpf(person.cpf),
            photo_path=_photo(person),
        )
        if mei is not None:
            values.update(
                cnpj=mei.cnpj,
                company_name=mei.legal_name,
                trade_name=mei.trade_name,
                municipal_registration=mei.municipal_registration,
            )
    else:
        company = Company.get_by_id(permit.company_id)
        owner = responsible_person(company)
        values.update(
            holder_name=company.legal_name,
            cnpj=company.cnpj,
            trade_name=company.trade_name,
            municipal_registration=company.municipal_registration,
            address=_address(company),
            photo_path=_photo(owner),
        )
        if owner is not None:
            values.update(holder_id_number=format_cpf(owner.cpf), rg=owner.rg)
    site = permit.site
    if site:
        try:
            site = regime.site(site).label
        except UserError:
            pass
    app = root_application(permit)
    # the agency is this municipality's (Cadastros → Município); a regime of another town prints none
    town = municipality()
    agency, arms = (town.agency, town.coat_of_arms) if serves(regime) else ("", b"")
    values.update(
        number=permit.number,
        valid_from=permit.valid_from,
        valid_until=permit.valid_until,
        agency=agency,
        coat_of_arms=arms,
        process_number=app.protocol if app is not None else "",
        product_line=_label_of(regime.line, permit.line),
        product_group=_label_of(
            regime.group,
            permit.group,
            lambda g: g.label if g.label.lower().startswith("grupo") else f"Grupo {g.number} — {g.label}",
        ),
        section=_label_of(regime.section, permit.section, lambda s: f"Seção {s.numeral} — {s.label}"),
        equipment=_label_of(regime.equipment, permit.equipment),
        equipment_size=_size_text(permit.front, permit.depth, permit.hitch),
        site=site,
        point=permit.point,
        days=permit.days_hours,
        issued_at=permit.issued_on,
        issued_by=permit.issued_by,
        observations=permit.notes,
        qr_text=qr_content(permit.qr_text),
    )
    return from_regime(regime, permit.permit_kind, **values)


def sign_permit(permit: Permit, key_dir: KeySource | None) -> None:
    if key_dir is None:
        return
    try:
        doc = permit_document(permit).signed(Path(key_dir) if isinstance(key_dir, (str, Path)) else key_dir)
    except OSError as exc:  # a key folder that cannot be created or read: nothing is issued
        raise UserError(
            f"Não foi possível usar a pasta de chaves {key_dir}: {exc.strerror or exc}; nada foi emitido.", field="key"
        ) from exc
    Permit.update(qr_text=doc.qr_text).where(Permit.id == permit.id).execute()
    permit.qr_text = doc.qr_text
