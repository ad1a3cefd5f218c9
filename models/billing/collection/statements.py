"""Bank statements in OFX (issue 30 §4): the Pix credits of the town's account matched to their guias by the txid
the guia's BR Code carries (``PRACA`` + year + sequence), which the bank repeats in the credit's name or memo.

Read with ``ofxtools``; each credit becomes a record of the same preview as the FEBRABAN return file (paid, late,
less, more, twice, unknown), and its FITID the payment's reference (``PIX <FITID>``): statements that overlap —
one downloaded each day for the last week — record each credit once (``already``); the same file twice changes
nothing. Debits are ignored.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from decimal import Decimal

from models.base.money import to_centavos
from models.billing.charges import Payment
from models.billing.collection.agreement import require_agreement
from models.billing.collection.returns import (
    STATEMENT_LAYOUT,
    Detail,
    Header,
    ParsedFile,
    Preview,
    ReturnFileError,
    match,
)
from models.billing.collection.tables import Guia, ReturnFile

TXID = re.compile(r"PRACA\d{12}")
AGREEMENT = "OFX"


def is_ofx(data: bytes) -> bool:
    head = data[:8192].lstrip().upper()
    return head.startswith(b"OFXHEADER") or b"<OFX>" in head


def _date(value) -> _dt.date:
    return value.date() if isinstance(value, _dt.datetime) else value


def read_statement(data: bytes) -> tuple[str, list[tuple[str, _dt.date, Decimal, str]]]:
    """(account, [(fitid, posted on, amount, text)]) of the credits; one line naming the problem otherwise."""
    import io

    from ofxtools.Parser import OFXTree

    parser = OFXTree()
    try:
        parser.parse(io.BytesIO(data))
        ofx = parser.convert()
    except Exception as exc:  # ofxtools raises many kinds (ParseError, ValueError, KeyError…): all mean "not OFX"
        raise ReturnFileError(f"Extrato OFX ilegível: {type(exc).__name__}: {str(exc)[:160]}") from None
    credits = []
    account = ""
    for stmt in getattr(ofx, "statements", []) or []:
        acct = getattr(stmt, "account", None)
        account = account or str(getattr(acct, "acctid", "") or "")
        for n, txn in enumerate(stmt.transactions, 1):
            amount = Decimal(txn.trnamt)
            if amount <= 0:
                continue
            text = " ".join(str(v) for v in (txn.name, txn.memo, getattr(txn, "refnum", None)) if v)
            fitid = str(txn.fitid or f"sem-fitid-{n}")
            credits.append((fitid, _date(txn.dtposted), amount, text))
    return account, credits


def preview_statement(data: bytes, file_name: str = "", *, today: _dt.date | None = None) -> Preview:
    today = today or _dt.date.today()
    agreement = require_agreement()
    account, credits = read_statement(data)
    future = next((c for c in credits if c[1] > today), None)
    if future is not None:
        raise ReturnFileError(
            f"lançamento {future[0]}: a data {future[1]:%d/%m/%Y} está no futuro; nada foi importado."
        )
    txids = {m.group(0): m.group(0) for *_x, text in credits for m in [TXID.search(text)] if m}
    barcodes = {g.txid: g.barcode for g in Guia.select(Guia.txid, Guia.barcode).where(Guia.txid.in_(list(txids)))}
    details, references = [], {}
    for n, (fitid, posted, amount, text) in enumerate(credits, 1):
        found = TXID.search(text)
        code = barcodes.get(found.group(0), "") if found else ""
        details.append(
            Detail(
                record=n,
                paid_on=posted,
                credited_on=posted,
                barcode=code or "0" * 44,
                centavos=to_centavos(amount),
                fee_centavos=0,
                nsr=n,
                collected="P",
                paid_by="3",
            )
        )
        references[n] = f"PIX {fitid}"[:64]
    sha = hashlib.sha256(data).hexdigest()
    header = Header(AGREEMENT, account[:20], "", "", today, 0, STATEMENT_LAYOUT)
    parsed = ParsedFile(header, details, len(details), sum(d.centavos for d in details), sha)
    preview = Preview(parsed, file_name)
    preview.already = ReturnFile.get_or_none((ReturnFile.agreement == AGREEMENT) & (ReturnFile.sha256 == sha))
    seen = {
        p.reference for p in Payment.select(Payment.reference).where(Payment.reference.in_(list(references.values())))
    }
    match(preview, agreement.agreement, skip={n for n, ref in references.items() if ref in seen})
    for item in preview.items:
        item.reference = references[item.detail.record]
        if item.category == "unknown":
            item.note = (
                "nenhuma guia do Praça com este txid"
                if TXID.search(credits[item.detail.record - 1][3])
                else ("crédito sem txid de guia do Praça")
            )
    return preview
