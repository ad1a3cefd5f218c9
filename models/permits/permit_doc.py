"""What a printed permit says: one plain value the PDF writers lay out (no Qt, no database).

The acts fix what each document must show, and :class:`PermitDocument` has a
field for every item they ask for:

* ID card — Ilha Comprida, Dec. 890/2017, art. 8º: name with a 2×2 photo, RG
  and CNPJ, home address, the holder's identification number, the designated
  place and area, the line of activity, the validity, the hours and the number
  of the process that granted the licence; Sapezal, Lei 1.171/2014, art. 22:
  name, goods or line, the equipment's size, hours and place, validity.
* Licence/alvará — Sapezal, art. 35: name and address, the place, the product
  group, days and hours, the term and the warning that the permission is
  precarious (:attr:`PermitDocument.precariousness`).
* TPU — Olímpia, LC 324/2025, art. 175: equipment category, foods allowed,
  address of the installation, days and periods.
* Stall placard — São Bento do Sapucaí, Dec. 4.794/2026, art. 4º, parágrafo
  único: company name, CNPJ and municipal registration number.

A screen or a command fills it from the database and the regime
(:func:`from_regime` takes what the regime knows); ``reports.permit_docs``
writes it as PDF.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from models.access.signing import PermitSummary, sign_summary

__all__ = ["PermitDocument", "from_regime", "precariousness"]


@dataclass(frozen=True)
class PermitDocument:
    # -- the act and the permit
    number: str  # permit number, e.g. "2026/000123"
    instrument: (
        str  # "alvará", "termo de permissão de uso", "credencial", "licença de funcionamento", "permissão de uso"…
    )
    kind_label: str  # the regime's permit kind label
    municipality: str
    state: str  # UF, e.g. "SP"
    act: str  # the act, e.g. "Decreto nº 890, de 11 de dezembro de 2017"
    basis: str  # the articles that ground the permit, e.g. "art. 3º, II; art. 12"
    valid_from: dt.date
    valid_until: dt.date
    holder_name: str  # person's name, or the company's legal name
    act_short: str = ""  # e.g. "Dec. 890/2017"; citations use it (defaults to ``act``)
    regime_id: str = ""
    agency: str = ""  # issuing body, e.g. "Divisão de Uso e Ocupação do Solo e Licenças"
    process_number: str = ""  # process/protocol that granted the permit (Dec. 890/2017, art. 8º, IX)
    # -- the holder
    cpf: str = ""  # compact
    rg: str = ""
    cnpj: str = ""  # compact
    company_name: str = ""  # nome empresarial, when the holder is a company/MEI and differs from holder_name
    trade_name: str = ""  # nome fantasia
    municipal_registration: str = ""  # inscrição mobiliária / Cadastro Municipal
    holder_id_number: str = ""  # the holder's identification number (Dec. 890/2017, art. 8º, IV)
    address: str = ""  # home address, one line
    photo_path: Path | None = None
    # -- the activity
    product_line: str = ""  # line of activity / goods / foods allowed
    product_group: str = ""  # e.g. "Grupo 3 — …" (Lei 1.171/2014, art. 34)
    section: str = ""  # feira section, e.g. "Seção IV — Pastel"
    equipment: str = ""  # equipment kind or category, e.g. "Carrinho", "Categoria A — food truck"
    equipment_size: str = ""  # e.g. "1,50 × 0,80 m (+ 0,20 m de cabo)"
    # -- where and when
    site: str = ""  # street, feira, beach, event area
    point: str = ""  # stall / point within the site, e.g. "Barraca 12"
    days: str = ""  # e.g. "27, 28 e 29/03/2026" or "sábados e domingos"
    hours: str = ""  # e.g. "das 8h às 18h"
    # -- money (optional): shown as R$ 1.234,56 — in the act's own money (``currency``: Cr$ for an act of 1975)
    amount: Decimal | None = None
    currency: str = "R$"
    amount_label: str = "Preço público recolhido"
    amount_basis: str = ""
    # -- issue
    issued_at: dt.date | dt.datetime | None = None
    issued_by: str = ""  # the clerk (name and role)
    card_title: str = "Cartão de identificação"  # "Cartão de Habilitação" (Ilha Comprida), …
    card_basis: str = ""  # article that fixes the card's contents, e.g. "art. 8º"
    precariousness: str = ""  # the warning the act requires (Lei 1.171/2014, art. 35, VI)
    duties: tuple[str, ...] = ()  # obligations to print, each with its citation
    observations: str = ""
    qr_text: str = ""  # signed text (models.access.signing); empty → no QR printed
    coat_of_arms: bytes = b""  # the municipality's (PNG or JPEG, models.registry.municipality), b"" for none

    # -- derived ----------------------------------------------------------

    @property
    def citation(self) -> str:
        """``"Dec. 890/2017, art. 3º, II; art. 12"``."""
        short = self.act_short or self.act
        return f"{short}, {self.basis}" if self.basis else short

    @property
    def place(self) -> str:
        """Site and point in one line: ``"Rua Cel. Ribeiro da Luz — Barraca 12"``."""
        return " — ".join(part for part in (self.site, self.point) if part)

    @property
    def holder_document(self) -> str:
        """The document the QR carries: the CNPJ when there is one (companies and MEI), else the CPF."""
        return self.cnpj or self.cpf

    @property
    def display_company_name(self) -> str:
        return self.company_name or self.holder_name

    def summary(self) -> PermitSummary:
        return PermitSummary(
            number=self.number,
            holder_name=self.holder_name,
            holder_document=self.holder_document,
            kind_label=self.kind_label,
            place=self.place,
            valid_from=self.valid_from,
            valid_until=self.valid_until,
            regime_id=self.regime_id,
            municipality=self.municipality,
        )

    def signed(self, key) -> PermitDocument:
        """A copy whose ``qr_text`` is the summary signed by ``key`` (:func:`models.access.signing.as_signer`)."""
        return dataclasses.replace(self, qr_text=sign_summary(self.summary(), key))


def precariousness(regime, kind) -> str:
    """The warning the act requires that the permit is precarious, in its words with its article, as the regime
    declares it on the kind (``precarious``); "" where the act says nothing of it."""
    if kind.precarious is None:
        return ""
    return f"{kind.precarious.text} ({regime.cite_item(kind.precarious)})"


def from_regime(regime, kind_id: str, **values) -> PermitDocument:
    """A document for one permit kind of ``regime``, with what the regime knows filled in.

    ``values`` give the rest (number, holder, dates…) and may override any
    field. The precariousness warning is the one the kind declares
    (``precarious``), with its article.
    """
    kind = regime.permit_kind(kind_id)
    defaults = dict(
        instrument=kind.instrument,
        kind_label=kind.label,
        municipality=regime.municipality,
        state=regime.state,
        act=regime.act,
        act_short=regime.short,
        basis=kind.basis,
        regime_id=regime.id,
        precariousness=precariousness(regime, kind),
        currency=regime.currency,
    )
    defaults.update(values)
    return PermitDocument(**defaults)
