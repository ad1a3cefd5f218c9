"""The codes printed on a guia: FEBRABAN's arrecadação barcode and linha digitável, and the Pix BR Code.

Pure functions over plain values (no database): the guia (:mod:`models.billing.collection.guias`) and the
return file (:mod:`models.billing.collection.returns`) call them.

**The barcode** (FEBRABAN, *Layout Padrão de Arrecadação/Recebimento com Utilização do Código de Barras*, item 4):
44 digits —

====== ======= ====================================================================
 pos    size    content
====== ======= ====================================================================
 1      1       product: ``8`` (arrecadação)
 2      1       segment: ``1`` (prefeituras)
 3      1       value identifier: ``6`` value in reais, check digits modulo 10;
                ``8`` value in reais, modulo 11 (``7``/``9``, a quantity of a currency, are not used)
 4      1       general check digit, over the other 43 digits
 5–15   11      the value in centavos
 16–19  4       the company's / agency's code at the bank (the agreement, *convênio*)
 20–44  25      free field: here the guia's identification
====== ======= ====================================================================

**The linha digitável** (item 7): the 44 digits in four blocks of 11, each followed by its own check digit
(same modulus as the general one) — 48 digits, printed as ``NNNNNNNNNNN-D NNNNNNNNNNN-D …``.

Modulo 10: weights 2, 1, 2, 1 … from the right, the digits of each product summed; DV = (10 − sum mod 10) mod 10.
Modulo 11: weights 2 … 9 from the right; remainder = sum mod 11; DV = 0 when the remainder is 0 or 1, else
11 − remainder (the general DV of arrecadação has no exception for 1, unlike the boleto's).

**The Pix BR Code** (Banco Central do Brasil, *Manual de Padrões para Iniciação do Pix*, static QR): EMV® QRCPS-MPM
TLV fields — 00 payload format ``01``; 26 merchant account (00 ``br.gov.bcb.pix``, 01 the key); 52 ``0000``;
53 ``986`` (BRL); 54 the amount; 58 ``BR``; 59 the name (≤ 25); 60 the city (≤ 15); 62 additional data with 05
the txid (≤ 25, letters and digits); 63 the CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) of everything before
it including ``6304``, four upper-case hex digits.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass
from decimal import Decimal

PRODUCT = "8"
SEGMENT_PREFEITURAS = "1"
VALUE_IDS = ("6", "8")  # value in reais: modulo 10 / modulo 11
MAX_CENTAVOS = 99_999_999_999  # 11 digits


def mod10(digits: str) -> int:
    """FEBRABAN modulo 10 check digit of ``digits``."""
    total = 0
    weight = 2
    for ch in reversed(digits):
        product = int(ch) * weight
        total += product // 10 + product % 10
        weight = 1 if weight == 2 else 2
    return (10 - total % 10) % 10


def mod11(digits: str) -> int:
    """FEBRABAN (arrecadação) modulo 11 check digit of ``digits``: weights 2…9 from the right; 0 for a
    remainder of 0 or 1."""
    total = 0
    weight = 2
    for ch in reversed(digits):
        total += int(ch) * weight
        weight = 2 if weight == 9 else weight + 1
    remainder = total % 11
    return 0 if remainder in (0, 1) else 11 - remainder


def check_digit(value_id: str, digits: str) -> int:
    if value_id in ("6", "7"):
        return mod10(digits)
    if value_id in ("8", "9"):
        return mod11(digits)
    raise ValueError(f"value identifier {value_id!r} is not 6, 7, 8 or 9")


def barcode(*, value_id: str, centavos: int, agreement: str, free: str, segment: str = SEGMENT_PREFEITURAS) -> str:
    """The 44-digit arrecadação barcode."""
    if value_id not in VALUE_IDS:
        raise ValueError(f"value identifier {value_id!r} is not 6 or 8")
    if not (0 <= centavos <= MAX_CENTAVOS):
        raise ValueError(f"{centavos} centavos do not fit in 11 digits")
    if not (len(agreement) == 4 and agreement.isascii() and agreement.isdigit()):
        raise ValueError(f"agreement {agreement!r} is not 4 digits")
    if not (len(free) == 25 and free.isascii() and free.isdigit()):
        raise ValueError(f"free field {free!r} is not 25 digits")
    body = f"{PRODUCT}{segment}{value_id}{centavos:011d}{agreement}{free}"
    dv = check_digit(value_id, body)
    return f"{body[:3]}{dv}{body[3:]}"


@dataclass(frozen=True)
class Barcode:
    """A 44-digit arrecadação barcode read back."""

    code: str
    segment: str
    value_id: str
    centavos: int
    agreement: str
    free: str


def parse_barcode(code: str) -> Barcode:
    """Read a 44-digit barcode; ``ValueError`` (with the reason, in Portuguese) when it is not one or its general
    check digit does not match."""
    if not (len(code) == 44 and code.isascii() and code.isdigit()):
        raise ValueError("o código de barras não tem 44 algarismos")
    if code[0] != PRODUCT:
        raise ValueError(f"o código de barras não é de arrecadação (produto {code[0]}, esperado 8)")
    value_id = code[2]
    if value_id not in ("6", "7", "8", "9"):
        raise ValueError(f"identificador de valor {value_id} desconhecido")
    if check_digit(value_id, code[:3] + code[4:]) != int(code[3]):
        raise ValueError("o dígito verificador geral do código de barras não confere")
    return Barcode(code, code[1], value_id, int(code[4:15]), code[15:19], code[19:])


def linha_digitavel(code: str) -> str:
    """The 48 digits (no separators) of the barcode ``code``: four blocks of 11, each with its check digit."""
    value_id = code[2]
    return "".join(code[i : i + 11] + str(check_digit(value_id, code[i : i + 11])) for i in range(0, 44, 11))


def format_linha(linha: str) -> str:
    """``83640000001-1 33120138000-2 …`` — as printed."""
    return " ".join(f"{linha[i : i + 11]}-{linha[i + 11]}" for i in range(0, 48, 12))


def barcode_from_linha(linha: str) -> str:
    """The barcode of a linha digitável (separators ignored); ``ValueError`` when a block's check digit fails."""
    digits = re.sub(r"[\s.\-]", "", linha)
    if not (len(digits) == 48 and digits.isascii() and digits.isdigit()):
        raise ValueError("a linha digitável não tem 48 algarismos")
    value_id = digits[2]
    blocks = [digits[i : i + 12] for i in range(0, 48, 12)]
    for n, block in enumerate(blocks, 1):
        if value_id not in ("6", "7", "8", "9") or check_digit(value_id, block[:11]) != int(block[11]):
            raise ValueError(f"o dígito do {n}º bloco da linha digitável não confere")
    return "".join(b[:11] for b in blocks)


# --------------------------------------------------------------------------- Pix BR Code

PIX_GUI = "br.gov.bcb.pix"
_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
_PHONE = re.compile(r"^\+55\d{10,11}$")
_TXID = re.compile(r"^[A-Za-z0-9]{1,25}$")


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def _tlv(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"field {tag} longer than 99 characters")
    return f"{tag}{len(value):02d}{value}"


def plain_ascii(text: str) -> str:
    """Upper-case ASCII without accents (what the BR Code's name and city carry)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"\s+", " ", folded).strip().upper()


def pix_key_kind(key: str) -> str | None:
    """``cpf``, ``cnpj``, ``email``, ``phone`` or ``evp`` for a valid Pix key as stored; ``None`` otherwise."""
    from stdnum.br import cnpj, cpf

    if key.isascii() and key.isdigit():
        if len(key) == 11 and cpf.is_valid(key):
            return "cpf"
        if len(key) == 14 and cnpj.is_valid(key):
            return "cnpj"
        return None
    if _PHONE.match(key):
        return "phone"
    if len(key) <= 77 and _EMAIL.match(key):
        return "email"
    try:
        if len(key) == 36 and str(uuid.UUID(key)) == key.lower():
            return "evp"
    except ValueError:
        return None
    return None


def pix_payload(*, key: str, name: str, city: str, amount: Decimal, txid: str) -> str:
    """The static Pix BR Code (copia e cola) for ``amount`` reais to ``key``, identified by ``txid``."""
    if not _TXID.match(txid):
        raise ValueError(f"txid {txid!r} is not 1 to 25 letters and digits")
    if amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise ValueError(f"amount {amount} is not a positive number of centavos")
    name, city = plain_ascii(name)[:25], plain_ascii(city)[:15]
    account = _tlv("00", PIX_GUI) + _tlv("01", key)
    body = (
        _tlv("00", "01")
        + _tlv("26", account)
        + _tlv("52", "0000")
        + _tlv("53", "986")
        + _tlv("54", f"{amount:.2f}")
        + _tlv("58", "BR")
        + _tlv("59", name)
        + _tlv("60", city)
        + _tlv("62", _tlv("05", txid))
        + "6304"
    )
    return body + f"{crc16_ccitt(body.encode('utf-8')):04X}"


def parse_tlv(text: str) -> dict[str, str]:
    """The top-level fields of an EMV MPM payload (tag → value)."""
    fields: dict[str, str] = {}
    i = 0
    while i < len(text):
        tag, size = text[i : i + 2], int(text[i + 2 : i + 4])
        fields[tag] = text[i + 4 : i + 4 + size]
        i += 4 + size
    return fields


def pix_crc_ok(payload: str) -> bool:
    return len(payload) > 8 and payload[-8:-4] == "6304" and payload[-4:] == f"{crc16_ccitt(payload[:-4].encode()):04X}"
