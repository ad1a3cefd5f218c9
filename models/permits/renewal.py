"""When a permit may be renewed and with what: the renewal window, the documents on file, what is due.

The renewal itself (eligibility checked again through the front desk) is in :mod:`models.services.issuing`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass

from models.base.errors import FieldErrors
from models.permits.steps import chain_of, date_text, live_permits, regime_of, root_application
from models.permits.tables import Permit, PermitDocument
from models.registry.applications import ApplicationDocument
from models.rules.eligibility import add_months


@dataclass(frozen=True)
class RenewalWindow:
    """When a renewal may be asked: ``opens`` to ``closes``, both days included; unpacks as ``(opens, closes)``."""

    opens: _dt.date
    closes: _dt.date
    article: str
    text: str
    opens_fixed: bool  # the act fixes the first day (else the window opens at issue)
    #: the last day is one without public service: why, and the point where the act is silent on it (issue 28 §4)
    closed_flag: str = ""

    def __iter__(self):
        yield self.opens
        yield self.closes

    def contains(self, day: _dt.date) -> bool:
        return self.opens <= day <= self.closes


def _closed_flag(regime, closes: _dt.date) -> str:
    """Why ``closes`` has no public service, and the reading applied of the act's silence on it; empty when open."""
    from models.rules.deadlines import HolidayCalendar
    from models.rules.silences import resolve

    why = HolidayCalendar.for_regime(regime).closed_because(closes)
    if not why:
        return ""
    text = f"o último dia, {date_text(closes)}, é sem expediente ({why})"
    for point in resolve(regime, "renewal"):
        text += (
            f"; {point.question} ({point.basis}) — leitura aplicada [{point.reading}]: {point.text} ({point.source})"
        )
        text += "".join(f"; outra leitura [{i}]: {t} ({s})" for i, t, s in point.others)
    return text


def renewal_window(permit: Permit) -> RenewalWindow | None:
    """The renewal window of ``permit`` from its kind's ``renewal``; ``None`` when the act has no renewal.

    A window whose last day has no public service is flagged (``closed_flag``) with the reading the regime
    declares of the act's silence on it (``[[silences]]`` shown at "renewal"); the window itself is as the act reads.
    """
    window = _renewal_window(permit)
    if window is None:
        return None
    flag = _closed_flag(regime_of(permit), window.closes)
    return dataclasses.replace(window, closed_flag=flag) if flag else window


def _renewal_window(permit: Permit) -> RenewalWindow | None:
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    renewal = kind.renewal
    if renewal is None:
        return None
    article = regime.cite_item(renewal)
    end = permit.valid_until
    if renewal.until_month_day:
        month, day = (int(x) for x in renewal.until_month_day.split("-"))
        closes = _dt.date(end.year, month, day)
        if closes > end:  # the last such day while in force
            closes = _dt.date(end.year - 1, month, day)
        text = f"renovação até {day:02d}/{month:02d}"
        if closes < permit.valid_from:  # issued after that year's date: while in force
            closes = end
            text = (
                f"renovação até {day:02d}/{month:02d}; emitida depois de {day:02d}/{month:02d} de "
                f"{permit.valid_from.year}, pode ser renovada enquanto vigente (leitura do Praça)"
            )
        opens = max(permit.valid_from, _dt.date(closes.year, 1, 1))
        return RenewalWindow(opens, closes, article, text, False)
    if renewal.from_days_before is not None:
        opens = end - _dt.timedelta(days=renewal.from_days_before)
        fixed = True
    else:
        opens, fixed = permit.valid_from, False
    closes = end - _dt.timedelta(days=renewal.to_days_before or 0)
    if renewal.from_days_before is not None and renewal.to_days_before is not None:
        text = f"entre {renewal.from_days_before} e {renewal.to_days_before} dias antes do fim da validade"
    elif renewal.to_days_before:
        text = f"até {renewal.to_days_before} dias antes do fim da validade"
    else:
        text = f"a partir de {renewal.from_days_before} dias antes do fim da validade"
    return RenewalWindow(max(opens, permit.valid_from), closes, article, text, fixed)


def documents_of(permit: Permit, extra) -> list:
    """The documents on file for ``permit``: its first application's, replaced by those delivered later with a
    renewal (:class:`PermitDocument`, oldest first), then by any ``extra`` ones being delivered now."""
    from models.registry.applications import DocumentInput

    docs: dict[str, DocumentInput] = {}
    app = root_application(permit)
    if app is not None:
        for row in ApplicationDocument.select().where(ApplicationDocument.application == app.id):
            docs[row.document] = DocumentInput(row.document, row.delivered_on, row.valid_until)
    later = (
        PermitDocument.select()
        .where(PermitDocument.permit.in_([p.id for p in chain_of(permit)]))
        .order_by(PermitDocument.delivered_on, PermitDocument.id)
    )
    for delivered in later:
        docs[delivered.document] = DocumentInput(delivered.document, delivered.delivered_on, delivered.valid_until)
    for doc in extra or ():
        docs[doc.document] = doc
    return list(docs.values())


@dataclass(frozen=True)
class DocumentOnFile:
    """A document the permit's kind requires, as on file: from the application or delivered with a renewal."""

    document: str
    label: str
    basis: str
    validity_months: int | None
    delivered_on: _dt.date | None
    valid_until: _dt.date | None
    expired: bool  # no longer valid on the given day (or never delivered)


def documents_on_file(permit: Permit, *, today: _dt.date) -> list[DocumentOnFile]:
    """The kind's documents and what is on file for each — what a renewal must bring anew."""
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    on_file = {d.document: d for d in documents_of(permit, ())}
    rows = []
    for doc_id in kind.documents:
        doc = regime.document(doc_id)
        have = on_file.get(doc_id)
        valid_until = have.valid_until if have else None
        if have is not None and valid_until is None and doc.validity_months and have.delivered_on:
            valid_until = add_months(have.delivered_on, doc.validity_months) - _dt.timedelta(days=1)
        rows.append(
            DocumentOnFile(
                doc_id,
                doc.label,
                regime.cite_item(doc),
                doc.validity_months,
                have.delivered_on if have else None,
                valid_until,
                have is None or (valid_until is not None and valid_until < today),
            )
        )
    return rows


def delivered_documents(regime, kind, documents, *, today: _dt.date) -> list:
    """Documents delivered now, checked: a document of the kind, a delivery date not in the future, a validity
    after it; ``(DocumentInput, None)`` pairs (the file is kept once the renewal is decided)."""
    errors: dict[str, str] = {}
    found = []
    for doc in documents or ():
        if doc.document not in kind.documents:
            errors[f"doc:{doc.document}"] = f"{doc.document}: documento não exigido para {kind.label}."
            continue
        label = regime.document(doc.document).label
        delivered_on = doc.delivered_on or today
        if delivered_on > today:
            errors[f"doc:{doc.document}"] = f"{label}: entregue em {date_text(delivered_on)}, no futuro."
        elif doc.valid_until is not None and doc.valid_until < delivered_on:
            errors[f"doc:{doc.document}"] = f"{label}: validade ({date_text(doc.valid_until)}) antes da entrega."
        found.append((dataclasses.replace(doc, delivered_on=delivered_on), None))
    if errors:
        raise FieldErrors(errors)
    return found


@dataclass(frozen=True)
class RenewalDue:
    permit_id: int
    number: str
    holder: str
    regime: str
    permit_kind: str
    valid_until: _dt.date
    opens: _dt.date
    closes: _dt.date
    article: str
    text: str


def due_for_renewal(today: _dt.date, within_days: int = 30) -> list[RenewalDue]:
    """Permits in force whose renewal window is open today or opens within ``within_days`` days."""
    horizon = today + _dt.timedelta(days=within_days)
    renewed = {row.previous_id for row in Permit.select(Permit.previous).where(Permit.origin == "renewal")}
    items = []
    for permit in live_permits(today).where(Permit.status == "active"):
        if permit.id in renewed:
            continue
        window = renewal_window(permit)
        if window is None or window.closes < today or window.opens > horizon:
            continue
        if window.opens <= today and window.closes > horizon and not window.opens_fixed:
            continue  # the act sets only the last day: listed when that day nears
        if window.opens <= today:
            text = (
                f"Renovação da permissão nº {permit.number} ({permit.holder_name}): pedido até "
                f"{date_text(window.closes)} — validade até {date_text(permit.valid_until)}."
            )
        else:
            text = (
                f"Renovação da permissão nº {permit.number} ({permit.holder_name}): pedido de "
                f"{date_text(window.opens)} a {date_text(window.closes)}."
            )
        if window.closed_flag:
            text += f" Atenção: {window.closed_flag}."
        items.append(
            RenewalDue(
                permit.id,
                permit.number,
                permit.holder_name,
                permit.regime,
                permit.permit_kind,
                permit.valid_until,
                window.opens,
                window.closes,
                window.article,
                text,
            )
        )
    items.sort(key=lambda r: (r.closes, r.number))
    return items
