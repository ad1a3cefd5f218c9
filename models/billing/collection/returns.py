"""The bank's return file (FEBRABAN *Layout Padrão de Arrecadação/Recebimento com Utilização do Código de Barras*,
item 6, layout versions 04 and 05): every payment of a guia the bank collected, matched to its guia by the barcode.

Records of 150 characters (positions 1-based, as the layout numbers them):

* ``A`` header — 2: ``2`` (retorno: bank → company); 3–22 the agreement (convênio, as the bank defines it,
  left-aligned, blanks after); 23–42 company name; 43–45 bank code; 46–65 bank name; 66–73 generation date
  AAAAMMDD; 74–79 NSA (the file's sequential number, one more for each file); 80–81 layout version; 82–98
  ``CODIGO DE BARRAS``; 99–150 filler.
* ``G`` detail — 2–21 the account credited (bank, agency, account); 22–29 payment date; 30–37 credit date;
  38–81 the 44-digit barcode; 82–93 amount received in centavos; 94–100 the bank's fee; 101–108 NSR (the
  record's sequence); 109–116 collecting agency; 117 how it was collected (``1``–``7`` with the guia: teller,
  ATM, internet, other, correspondent, phone, lottery house; ``a``–``g`` the same without it); 118–140
  authentication; 141 how it was paid (``1`` cash, ``2`` cheque, ``3`` other); 142–150 filler.
* ``Z`` trailer — 2–7 the number of records *including* the header and the trailer; 8–24 the total of the
  ``G`` amounts in centavos; 25–150 filler.

Where the layout differs from what issue 30 lists: the agreement in 3–22 is the bank's code for the contract
(up to 20 characters), not necessarily the barcode's 4 digits — Praça accepts it when, blanks and leading zeros
aside, it is the agreement set in Cadastros → Arrecadação; 117 may be a letter (collected without the guia);
the ``G`` record carries the credited account in 2–21; and the trailer's count includes ``A`` and ``Z``.

The import is all or nothing: a file that is not this town's, a record that is truncated or of an unknown type, a
field that should be digits, a date that does not exist, a trailer whose count or total does not add up — one
line naming the record, nothing imported. The same file (agreement + NSA) twice changes nothing and says so.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import dataclass, field
from decimal import Decimal

from models.base.errors import UserError
from models.base.money import format_brl, from_centavos
from models.billing.charges import Charge
from models.billing.charges.steps import date_text
from models.billing.collection import codes
from models.billing.collection.agreement import require_agreement
from models.billing.collection.late import Late, get_late_rules, late_charge
from models.billing.collection.tables import Guia, GuiaCharge, ReturnFile

RECORD_SIZE = 150
STATEMENT_LAYOUT = "OF"  # a ReturnFile that is a bank statement in OFX (models.billing.collection.statements)
MAX_RECORDS = 2_000_000

CATEGORIES = {
    "paid": "pago",
    "late": "pago com atraso",
    "less": "pago a menor",
    "more": "pago a maior",
    "twice": "pago em duplicidade",
    "unknown": "código de barras desconhecido",
    "already": "já importado (extrato anterior)",
}
COLLECTED = {
    "1": "guichê de caixa",
    "2": "autoatendimento",
    "3": "internet",
    "4": "outros meios",
    "5": "correspondente bancário",
    "6": "telefone",
    "7": "casa lotérica",
}


class ReturnFileError(UserError):
    """The file is refused whole (exit 2): the message names the record."""


@dataclass(frozen=True)
class Header:
    agreement: str
    company: str
    bank_code: str
    bank_name: str
    generated_on: _dt.date
    nsa: int
    layout: str


@dataclass(frozen=True)
class Detail:
    record: int  # the record's position in the file (1 = the header)
    paid_on: _dt.date
    credited_on: _dt.date
    barcode: str
    centavos: int
    fee_centavos: int
    nsr: int
    collected: str
    paid_by: str


@dataclass(frozen=True)
class ParsedFile:
    header: Header
    details: list[Detail]
    count: int
    total_centavos: int
    sha256: str


@dataclass
class Item:
    detail: Detail
    category: str
    guia: Guia | None = None
    due: Decimal = Decimal("0.00")  # what the guia's charges still owed when the record is applied
    applied: Decimal = Decimal("0.00")  # what goes to the charges
    credit: Decimal = Decimal("0.00")  # what is kept as the payer's credit
    owed: Decimal = Decimal("0.00")  # what stays open afterwards
    note: str = ""
    late: list = field(default_factory=list)  # (charge, Late) still owed for paying after the guia's due date
    parts: list = field(default_factory=list)  # (charge, amount) the record pays of each of the guia's charges
    reference: str = ""  # the payment's reference when not the return file's (a statement's FITID)

    @property
    def late_owed(self) -> Decimal:
        return sum((late.total for _c, late in self.late), Decimal("0.00"))

    @property
    def amount(self) -> Decimal:
        return from_centavos(self.detail.centavos)

    @property
    def category_label(self) -> str:
        return CATEGORIES[self.category]

    def as_dict(self) -> dict[str, object]:
        return {
            "record": self.detail.record,
            "nsr": self.detail.nsr,
            "barcode": self.detail.barcode,
            "paid_on": date_text(self.detail.paid_on),
            "amount": f"{self.amount:.2f}",
            "category": self.category,
            "category_label": self.category_label,
            "guia": self.guia.number if self.guia else "",
            "payer": self.guia.payer_name if self.guia else "",
            "applied": f"{self.applied:.2f}",
            "credit": f"{self.credit:.2f}",
            "still_owed": f"{self.owed:.2f}",
            "late_owed": f"{self.late_owed:.2f}",
            "note": self.note,
        }


@dataclass
class Preview:
    parsed: ParsedFile
    file_name: str
    items: list[Item] = field(default_factory=list)
    already: ReturnFile | None = None

    def counts(self) -> dict[str, int]:
        return {key: sum(1 for i in self.items if i.category == key) for key in CATEGORIES}

    def as_dict(self) -> dict[str, object]:
        h = self.parsed.header
        return {
            "file": self.file_name,
            "agreement": h.agreement,
            "nsa": h.nsa,
            "generated_on": date_text(h.generated_on),
            "bank": f"{h.bank_code} {h.bank_name}".strip(),
            "records": len(self.parsed.details),
            "total": f"{from_centavos(self.parsed.total_centavos):.2f}",
            "already_imported": self.already is not None,
            "counts": self.counts(),
            "items": [i.as_dict() for i in self.items],
        }


# --------------------------------------------------------------------------- reading


def _digits(text: str, where: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise ReturnFileError(f"{where}: {what} não é numérico ({text.strip() or 'em branco'!s}).")
    return int(text)


def _date(text: str, where: str, what: str) -> _dt.date:
    _digits(text, where, what)
    try:
        return _dt.date(int(text[:4]), int(text[4:6]), int(text[6:8]))
    except ValueError:
        raise ReturnFileError(f"{where}: {what} não existe ({text[6:8]}/{text[4:6]}/{text[:4]}).") from None


def record_lines(data: bytes) -> list[str]:
    """The file's records as text, line ends and the trailing blank lines or end-of-file marks left out."""
    lines = [raw.rstrip("\r") for raw in data.decode("latin-1").split("\n")]
    while lines and not lines[-1].strip("\r\x1a"):
        lines.pop()
    return lines


def read_header(line: str, where: str = "registro 1") -> Header:
    """The ``A`` record (the caller checked its length and type)."""
    if line[1] != "2":
        raise ReturnFileError(f"{where}: código de remessa {line[1]!r} — um arquivo de retorno tem 2.")
    return Header(
        agreement=line[2:22].strip(),
        company=line[22:42].strip(),
        bank_code=line[42:45].strip(),
        bank_name=line[45:65].strip(),
        generated_on=_date(line[65:73], where, "a data de geração"),
        nsa=_digits(line[73:79], where, "o NSA"),
        layout=line[79:81],
    )


def read_detail(line: str, n: int, where: str = "") -> Detail:
    """A ``G`` record, the ``n``-th of the file (the caller checked its length and type)."""
    where = where or f"registro {n}"
    barcode = line[37:81]
    if not (barcode.isascii() and barcode.isdigit()):
        raise ReturnFileError(f"{where}: o código de barras não tem 44 algarismos ({barcode.strip()}).")
    return Detail(
        record=n,
        paid_on=_date(line[21:29], where, "a data de pagamento"),
        credited_on=_date(line[29:37], where, "a data de crédito"),
        barcode=barcode,
        centavos=_digits(line[81:93], where, "o valor recebido"),
        fee_centavos=_digits(line[93:100], where, "o valor da tarifa"),
        nsr=_digits(line[100:108], where, "o NSR"),
        collected=line[116],
        paid_by=line[140],
    )


def read_trailer(line: str, where: str) -> tuple[int, int]:
    """The ``Z`` record: (number of records, total in centavos)."""
    return (_digits(line[1:7], where, "o total de registros"), _digits(line[7:24], where, "o valor total"))


def parse_return(data: bytes) -> ParsedFile:
    """Read the records; :class:`ReturnFileError` naming the first record that is wrong."""
    lines = record_lines(data)
    if not lines:
        raise ReturnFileError("Arquivo de retorno vazio.")
    if len(lines) > MAX_RECORDS:
        raise ReturnFileError(f"Arquivo de retorno com mais de {MAX_RECORDS} registros.")
    header: Header | None = None
    details: list[Detail] = []
    trailer: tuple[int, int] | None = None
    for n, line in enumerate(lines, 1):
        where = f"registro {n}"
        if trailer is not None:
            raise ReturnFileError(f"{where}: há registros depois do trailer (Z).")
        if len(line) != RECORD_SIZE:
            raise ReturnFileError(
                f"{where}: tem {len(line)} caracteres, o leiaute FEBRABAN pede {RECORD_SIZE} (registro truncado?)."
            )
        kind = line[0]
        if n == 1 and kind != "A":
            raise ReturnFileError(f"{where}: o arquivo deve começar pelo header (A), não por {kind!r}.")
        if kind == "A":
            if n != 1:
                raise ReturnFileError(f"{where}: um segundo header (A) no arquivo.")
            header = read_header(line, where)
        elif kind == "G":
            details.append(read_detail(line, n, where))
        elif kind == "Z":
            trailer = read_trailer(line, where)
        else:
            raise ReturnFileError(f"{where}: tipo de registro desconhecido {kind!r} (o retorno tem A, G e Z).")
    if header is None or trailer is None:
        raise ReturnFileError(f"registro {len(lines)}: o arquivo termina sem o trailer (Z) — incompleto?")
    count, total = trailer
    if count != len(lines):
        raise ReturnFileError(
            f"registro {len(lines)} (trailer): diz {count} registros, o arquivo tem {len(lines)}; arquivo recusado."
        )
    received = sum(d.centavos for d in details)
    if total != received:
        raise ReturnFileError(
            f"registro {len(lines)} (trailer): total {format_brl(from_centavos(total))}, a soma dos registros G é "
            f"{format_brl(from_centavos(received))}; arquivo recusado."
        )
    return ParsedFile(header, details, count, total, hashlib.sha256(data).hexdigest())


def _same_agreement(theirs: str, ours: str) -> bool:
    a, b = theirs.strip(), ours.strip()
    if a.isdigit() and b.isdigit():
        return int(a) == int(b)
    return a == b


# --------------------------------------------------------------------------- matching


def chunks(items: list, size: int = 500) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _guia_rows(guia_ids: list[int]) -> dict[int, list[GuiaCharge]]:
    """Each guia's charges (with the charge), in one query per 500 guias."""
    out: dict[int, list[GuiaCharge]] = {}
    for chunk in chunks(guia_ids):
        query = (
            GuiaCharge.select(GuiaCharge, Charge)
            .join(Charge)
            .where(GuiaCharge.guia.in_(chunk))
            .order_by(GuiaCharge.guia, Charge.number)
        )
        for row in query:
            out.setdefault(row.guia_id, []).append(row)
    return out


def preview_return(data: bytes, file_name: str = "", *, today: _dt.date | None = None) -> Preview:
    """What importing the file would do, record by record (nothing written)."""
    today = today or _dt.date.today()
    parsed = parse_return(data)
    agreement = require_agreement()
    check_agreement(parsed.header, agreement.agreement)
    future = next((d for d in parsed.details if d.paid_on > today), None)
    if future is not None:
        refuse_future(future.record, future.paid_on)
    preview = Preview(parsed, file_name)
    preview.already = imported_before(parsed.header, parsed.sha256)
    match(preview, agreement.agreement)
    return preview


def check_agreement(header: Header, ours: str) -> None:
    if not _same_agreement(header.agreement, ours):
        raise ReturnFileError(
            f"registro 1: o arquivo é do convênio {header.agreement or '(em branco)'}, o do município é "
            f"{ours}; nada foi importado."
        )


def refuse_future(record: int, paid_on: _dt.date) -> None:
    raise ReturnFileError(
        f"registro {record}: a data de pagamento {date_text(paid_on)} está no futuro; nada foi importado."
    )


def imported_before(header: Header, sha256: str) -> ReturnFile | None:
    """The file of the same agreement and NSA imported before (the same file: nothing to do), or ``None``; another
    file with that NSA is refused."""
    found = ReturnFile.get_or_none((ReturnFile.agreement == header.agreement) & (ReturnFile.nsa == header.nsa))
    if found is not None and found.sha256 != sha256:
        raise ReturnFileError(
            f"registro 1: o NSA {header.nsa} do convênio {header.agreement} já foi importado em "
            f"{date_text(found.imported_at.date())} de outro arquivo; este arquivo difere e foi recusado."
        )
    return found


def match(preview: Preview, agreement: str, skip: set[int] | None = None) -> None:
    """Classify every record of ``preview`` against the guias (``skip``: records already imported)."""
    preview.items.extend(classify(preview.parsed.details, agreement, skip))


def classify(details: list[Detail], agreement: str, skip: set[int] | None = None) -> list[Item]:
    """Each record matched to its guia and classified, in the file's order (what one record pays is spent for the
    next ones)."""
    guias: dict[str, Guia] = {}
    for chunk in chunks(sorted({d.barcode for d in details})):
        guias.update((g.barcode, g) for g in Guia.select().where(Guia.barcode.in_(chunk)))
    rows = _guia_rows([g.id for g in guias.values()])
    spent: dict[int, Decimal] = {}
    rules = get_late_rules()
    items = []
    for detail in details:
        if skip and detail.record in skip:
            items.append(Item(detail, "already", note="este lançamento já foi importado"))
            continue
        guia = guias.get(detail.barcode)
        found = rows.get(guia.id, []) if guia is not None else []
        items.append(_classify(detail, guia, found, agreement, spent, rules))
    return items


def _classify(
    detail: Detail, guia: Guia | None, rows: list[GuiaCharge], agreement: str, spent: dict[int, Decimal], rules
) -> Item:
    amount = from_centavos(detail.centavos)
    try:
        read = codes.parse_barcode(detail.barcode)
    except ValueError as exc:
        return Item(detail, "unknown", note=str(exc))
    if guia is None or read.agreement != agreement:
        return Item(detail, "unknown", note="nenhuma guia do Praça com este código de barras")
    charges = [
        (row.charge, max(row.charge.open_amount - spent.get(row.charge.id, Decimal("0.00")), Decimal("0.00")))
        for row in rows
    ]
    due = sum((left for _c, left in charges), Decimal("0.00"))
    item = Item(detail, "paid", guia, due=due)
    if due == 0:
        item.category, item.credit = "twice", amount
        item.note = f"a guia nº {guia.number} já estava paga: {format_brl(amount)} ficam como crédito a devolver"
        return item
    applied = min(amount, due)
    for charge, left in charges:
        take = min(left, applied - item.applied)
        if take > 0:
            spent[charge.id] = spent.get(charge.id, Decimal("0.00")) + take
            item.applied += take
            item.parts.append((charge, take))
    item.credit = amount - item.applied
    item.owed = due - item.applied
    if item.owed > 0:
        item.category = "less"
        item.note = f"fica em aberto {format_brl(item.owed)} da guia nº {guia.number}"
    elif item.credit > 0:
        item.category = "more"
        item.note = f"{format_brl(item.credit)} a maior ficam como crédito do contribuinte"
    if detail.paid_on > guia.due_on and item.owed == 0:
        item.category = "late"
        item.late, missing = _late_owed(rows, detail.paid_on, rules)
        late_text = (
            f"; ficam devidos {format_brl(item.late_owed)} de {item.late[0][1].what.lower()} ({item.late[0][1].basis})"
            if item.late
            else ("; nada acrescido" if rules.applies else "; sem regra de multa e juros cadastrada")
        ) + (f"; {missing}" if missing else "")
        item.note = (
            item.note + "; " if item.note else ""
        ) + f"pago em {date_text(detail.paid_on)}, vencimento {date_text(guia.due_on)}{late_text}"
    if guia.status == "replaced":
        item.note = (item.note + "; " if item.note else "") + f"guia substituída pela nº {guia.replaced_by}"
    return item


def _late_owed(rows: list[GuiaCharge], paid_on: _dt.date, rules) -> tuple[list[tuple[Charge, Late]], str]:
    """The monetary correction, multa and juros still owed for a guia's charges paid on ``paid_on``: as the town's
    rules compute them from each charge's own due date, less what the guia already carried for it. A payment the
    bank made is recorded even when a year's index is missing: the correction is then left out and named (the
    second text)."""
    import dataclasses

    from models.billing.collection.late import MissingIndex

    carried: dict[str, Decimal] = {}
    for row in rows:
        if row.charge.kind == "late":
            carried[row.charge.source] = carried.get(row.charge.source, Decimal("0.00")) + row.amount
    out, missing = [], ""
    for row in rows:
        if row.charge.kind == "late":
            continue
        try:
            late = late_charge(row.amount, row.charge.due_on, paid_on, rules)
        except MissingIndex as exc:
            missing = "correção monetária não calculada: " + exc.message.split(" (")[0].lower()
            late = late_charge(row.amount, row.charge.due_on, paid_on, dataclasses.replace(rules, correction_index=""))
        if late is None:
            continue
        already = carried.get(row.charge.number, Decimal("0.00"))
        if late.total > already:
            formula = late.formula + (f"; menos {format_brl(already)} já cobrados na guia" if already else "")
            left = late.total - already
            correction = min(late.correction, left)
            out.append(
                (row.charge, Late(late.months, Decimal("0.00"), left - correction, formula, late.basis, correction))
            )
    return out, missing


# --------------------------------------------------------------------------- building a file (tests, bench)


def build_return(
    *,
    agreement: str,
    nsa: int,
    generated_on: _dt.date,
    payments: list[tuple[str, int, _dt.date]],
    bank: tuple[str, str] = ("001", "BANCO DO BRASIL"),
) -> bytes:
    """A return file as a bank writes it: ``payments`` are (barcode, centavos, paid on)."""
    lines = [
        f"A2{agreement:<20}{'PREFEITURA':<20}{bank[0]:>03}{bank[1]:<20}{generated_on:%Y%m%d}{nsa:06d}05"
        f"{'CODIGO DE BARRAS':<17}{'':52}"
    ]
    for n, (barcode, centavos, paid_on) in enumerate(payments, 1):
        credit = paid_on + _dt.timedelta(days=1)
        lines.append(
            f"G{bank[0]:>03}{'00010000000123456':<17}{paid_on:%Y%m%d}{credit:%Y%m%d}{barcode}{centavos:012d}"
            f"{0:07d}{n:08d}{'0001':<8}3{'':23}1{'':9}"
        )
    total = sum(c for _b, c, _d in payments)
    lines.append(f"Z{len(lines) + 1:06d}{total:017d}{'':126}")
    return ("\r\n".join(lines) + "\r\n").encode("ascii")
