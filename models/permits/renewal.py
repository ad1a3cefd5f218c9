"""When a permit may be renewed and with what: the renewal window, the documents on file, what is due.

The renewal itself (eligibility checked again through the front desk) is in :mod:`models.services.issuing`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass

from models.access.session import acting, require
from models.base.br import parse_br_date
from models.base.errors import FieldErrors, UserError
from models.permits.steps import chain_of, date_text, live_permits, regime_of, root_application
from models.permits.tables import Permit, PermitDocument, RenewalDecree
from models.registry.applications import ApplicationDocument
from models.rules.eligibility import add_months
from models.store.db import db


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
    if renewal.by_decree:  # the Executive's decree for the year the permit ends, as recorded; none: no window yet
        decree = renewal_decree(permit.regime, permit.permit_kind, end.year)
        if decree is None:
            return None
        text = f"janela fixada pelo {decree.number}, de {date_text(decree.decree_date)}"
        return RenewalWindow(decree.opens, decree.closes, f"{article}; {decree.number}", text, True)
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


# --------------------------------------------------------------------------- a window set by decree


@dataclass(frozen=True)
class RenewalDecreeInput:
    """The decree as the desk or the command line types it (dates as dd/mm/aaaa or dates)."""

    regime: str
    permit_kind: str
    year: int | str
    number: str
    decree_date: _dt.date | str
    opens: _dt.date | str
    closes: _dt.date | str
    notes: str = ""


def renewal_by_decree(regime_id: str, kind_id: str):
    """The kind's ``renewal`` when the act leaves its window to a decree, else None."""
    from models.rules.regimes import get_regime

    kind = get_regime(regime_id).permit_kind(kind_id)
    return kind.renewal if kind.renewal is not None and kind.renewal.by_decree else None


def renewal_decree(regime_id: str, kind_id: str, year: int) -> RenewalDecree | None:
    """The decree in force (not replaced) that sets the renewal window of ``kind_id`` permits ending in ``year``."""
    return (
        RenewalDecree.select()
        .where(
            (RenewalDecree.regime == regime_id)
            & (RenewalDecree.permit_kind == kind_id)
            & (RenewalDecree.year == year)
            & RenewalDecree.replaced_by.is_null()
        )
        .order_by(RenewalDecree.id.desc())
        .first()
    )


def renewal_decrees(regime_id: str | None = None) -> list[RenewalDecree]:
    """The decrees recorded (the replaced ones too, marked), newest year first."""
    query = RenewalDecree.select()
    if regime_id:
        query = query.where(RenewalDecree.regime == regime_id)
    return list(query.order_by(RenewalDecree.year.desc(), RenewalDecree.permit_kind, RenewalDecree.id))


def _date(errors: dict[str, str], key: str, value: _dt.date | str, what: str) -> _dt.date | None:
    if isinstance(value, _dt.date):
        return value
    try:
        return parse_br_date(str(value), what=what, field=key)
    except UserError as exc:
        errors[key] = exc.message
        return None


def record_renewal_decree(data: RenewalDecreeInput, *, by: str = "") -> RenewalDecree:
    """Record the decree that sets the renewal window of a kind whose act leaves it to the Executive (``renewal =
    { by_decree = true }``), with who recorded it; a decree for the same act, kind and year already recorded is
    replaced (kept, marked). Every mistake is refused at its field, nothing stored."""
    from models.rules.regimes import get_regime

    require("calendar.edit")
    by = acting(by)
    errors: dict[str, str] = {}
    regime = get_regime(data.regime.strip())
    kind = next((k for k in regime.permit_kinds if k.id == data.permit_kind.strip()), None)
    if kind is None:
        options = ", ".join(k.id for k in regime.permit_kinds)
        raise FieldErrors(
            {"permit_kind": f"Tipo de permissão {data.permit_kind!r} não existe em {regime.short} (tipos: {options})."}
        )
    if kind.renewal is None or not kind.renewal.by_decree:
        where = f" ({regime.cite_item(kind.renewal)})" if kind.renewal is not None else ""
        raise FieldErrors(
            {
                "permit_kind": f"O {regime.short} não deixa a decreto a janela de renovação de {kind.label}{where}: "
                "não há decreto a registrar."
            }
        )
    try:
        year = int(str(data.year).strip())
    except ValueError:
        year = 0
    if not 1900 <= year <= 2200:
        errors["year"] = f"Exercício inválido: {data.year!r} (o ano em que terminam as permissões, como 2026)."
    number = " ".join((data.number or "").split())
    if not number:
        errors["number"] = "Informe o número do decreto (como Decreto nº 1.234/2026)."
    elif len(number) > 100:
        errors["number"] = "O número do decreto tem no máximo 100 caracteres."
    decree_date = _date(errors, "decree_date", data.decree_date, "Data do decreto")
    opens = _date(errors, "opens", data.opens, "Início da janela")
    closes = _date(errors, "closes", data.closes, "Fim da janela")
    if opens and closes and closes < opens:
        errors["closes"] = f"O fim da janela ({date_text(closes)}) é antes do início ({date_text(opens)})."
    if decree_date and opens and closes and decree_date > closes:
        errors["decree_date"] = f"O decreto ({date_text(decree_date)}) é posterior ao fim da janela que fixa."
    if errors:
        raise FieldErrors(errors)
    assert decree_date is not None and opens is not None and closes is not None
    with db.atomic():
        old = renewal_decree(regime.id, kind.id, year)
        new = RenewalDecree.create(
            regime=regime.id,
            permit_kind=kind.id,
            year=year,
            number=number,
            decree_date=decree_date,
            opens=opens,
            closes=closes,
            recorded_by=by,
            notes=(data.notes or "").strip(),
        )
        if old is not None:
            RenewalDecree.update(replaced_by=new.id).where(RenewalDecree.id == old.id).execute()
    return new


def decree_text(decree: RenewalDecree) -> str:
    """One line: 'Decreto nº 1.234/2026, de 10/10/2026: renovação de 01/11/2026 a 30/11/2026 (permissões que
    terminam em 2026) — registrado por Helena Prado em 12/10/2026'."""
    return (
        f"{decree.number}, de {date_text(decree.decree_date)}: renovação de {date_text(decree.opens)} a "
        f"{date_text(decree.closes)} (permissões que terminam em {decree.year}) — registrado por "
        f"{decree.recorded_by} em {date_text(decree.recorded_at.date())}"
        + (" — substituído" if decree.replaced_by else "")
    )


@dataclass(frozen=True)
class DecreeChoice:
    """A permit kind whose act leaves its renewal window to a decree, as the desk offers it."""

    regime: str
    permit_kind: str
    label: str  # "Licença anual — Lei 376/2012"
    article: str


def decree_choices() -> list[DecreeChoice]:
    """The kinds of the acts this database works under whose renewal window is set by decree."""
    from models.registry.town import working_regimes

    found = []
    for regime in sorted(working_regimes().values(), key=lambda r: r.id):
        for kind in regime.permit_kinds:
            if kind.renewal is not None and kind.renewal.by_decree:
                found.append(
                    DecreeChoice(regime.id, kind.id, f"{kind.label} — {regime.short}", regime.cite_item(kind.renewal))
                )
    return found
