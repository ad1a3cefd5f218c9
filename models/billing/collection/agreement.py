"""The town's collection agreement (convênio de arrecadação) and its Pix key, kept in the database's settings.

Cadastros → Arrecadação and ``praca collection set|show`` write and read it: the FEBRABAN agreement code the bank
gave the town (4 digits, positions 16–19 of the barcode), the segment (``1``, prefeituras), the value identifier
(``6``: value in reais, check digits modulo 10; ``8``: modulo 11), and the municipality's Pix key with the name
and city the BR Code carries. A guia is issued only when the agreement is set.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.billing.collection.codes import SEGMENT_PREFEITURAS, VALUE_IDS, pix_key_kind, plain_ascii
from models.store.db import db
from models.store.settings import get_setting, write_setting

AGREEMENT = "collection_agreement"
VALUE_ID = "collection_value_id"
PIX_KEY = "collection_pix_key"
PIX_NAME = "collection_pix_name"
PIX_CITY = "collection_pix_city"

VALUE_ID_LABELS = {
    "6": "6 — valor em reais, dígitos módulo 10",
    "8": "8 — valor em reais, dígitos módulo 11",
}
PIX_KINDS = {"cpf": "CPF", "cnpj": "CNPJ", "email": "e-mail", "phone": "telefone", "evp": "chave aleatória"}


@dataclass(frozen=True)
class Agreement:
    agreement: str
    value_id: str
    segment: str
    pix_key: str
    pix_name: str
    pix_city: str

    @property
    def configured(self) -> bool:
        return bool(self.agreement and self.value_id)

    @property
    def has_pix(self) -> bool:
        return bool(self.pix_key and self.pix_name and self.pix_city)

    @property
    def pix_kind(self) -> str:
        kind = pix_key_kind(self.pix_key) if self.pix_key else None
        return PIX_KINDS.get(kind or "", "")

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "configured": self.configured, "pix_kind": self.pix_kind}


def get_agreement() -> Agreement:
    return Agreement(
        agreement=get_setting(AGREEMENT),
        value_id=get_setting(VALUE_ID),
        segment=SEGMENT_PREFEITURAS,
        pix_key=get_setting(PIX_KEY),
        pix_name=get_setting(PIX_NAME),
        pix_city=get_setting(PIX_CITY),
    )


def normal_pix_key(text: str) -> str:
    """A Pix key as the BR Code carries it: CPF/CNPJ without punctuation, a phone as +55DDNNNNNNNNN, an e-mail
    as typed, a random key in lower case."""
    raw = (text or "").strip()
    digits = "".join(ch for ch in raw if ch.isdigit())
    if "@" in raw:
        return raw
    if raw.startswith("+"):
        return "+" + digits
    if len(raw) == 36 and raw.count("-") == 4:
        return raw.lower()
    if raw and set(raw) <= set("0123456789.-/ "):
        return digits
    return raw


def check_agreement(
    *, agreement: str, value_id: str, pix_key: str = "", pix_name: str = "", pix_city: str = ""
) -> dict[str, str]:
    """The values normalised; :class:`FieldErrors` naming each field that is wrong."""
    errors: dict[str, str] = {}
    agreement = (agreement or "").strip()
    value_id = (value_id or "").strip()
    if not (len(agreement) == 4 and agreement.isascii() and agreement.isdigit()):
        errors["agreement"] = (
            f"Código do convênio inválido: {agreement or '(vazio)'!s} — são os 4 algarismos que o banco deu "
            "ao município (posições 16 a 19 do código de barras)."
        )
    if value_id not in VALUE_IDS:
        errors["value_id"] = (
            f"Identificador de valor inválido: {value_id or '(vazio)'!s} — use 6 (módulo 10) ou 8 (módulo 11)."
        )
    key = normal_pix_key(pix_key)
    name, city = (pix_name or "").strip(), (pix_city or "").strip()
    if key or name or city:
        if not key:
            errors["pix_key"] = "Informe a chave Pix do município (ou deixe nome e cidade do Pix em branco)."
        elif pix_key_kind(key) is None:
            errors["pix_key"] = (
                f"Chave Pix inválida: {pix_key.strip()} — use um CPF ou CNPJ válido, um e-mail, um telefone "
                "como +5517999998888 ou uma chave aleatória (36 caracteres)."
            )
        if not name:
            errors["pix_name"] = "Informe o nome do recebedor do Pix (até 25 letras)."
        elif len(plain_ascii(name)) > 25:
            errors["pix_name"] = f"Nome do recebedor do Pix com mais de 25 letras: {name}."
        if not city:
            errors["pix_city"] = "Informe a cidade do recebedor do Pix (até 15 letras)."
        elif len(plain_ascii(city)) > 15:
            errors["pix_city"] = f"Cidade do Pix com mais de 15 letras: {city}."
    if errors:
        raise FieldErrors(errors)
    return {AGREEMENT: agreement, VALUE_ID: value_id, PIX_KEY: key, PIX_NAME: name, PIX_CITY: city}


def set_agreement(
    *, agreement: str, value_id: str, pix_key: str = "", pix_name: str = "", pix_city: str = ""
) -> Agreement:
    """Check and store the agreement (one transaction; audited as every setting)."""
    require("settings.edit")
    values = check_agreement(
        agreement=agreement, value_id=value_id, pix_key=pix_key, pix_name=pix_name, pix_city=pix_city
    )
    with db.atomic():
        for key, value in values.items():
            write_setting(key, value)
    return get_agreement()


def require_agreement() -> Agreement:
    found = get_agreement()
    if not found.configured:
        raise UserError(
            "O convênio de arrecadação não está cadastrado: informe-o em Cadastros → Arrecadação "
            "ou com praca collection set --agreement NNNN --value-id 6|8.",
            step="collection",
        )
    return found
