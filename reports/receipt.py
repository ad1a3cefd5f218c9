"""The receipt of an application: protocol, what was asked, documents delivered and missing, price."""

from __future__ import annotations

import json
from pathlib import Path

from models.base.br import format_cnpj, format_cpf
from models.registry.applications import Application
from models.registry.municipality import letterhead
from models.rules.regimes import get_regime
from reports.pdf import text_document
from reports.templating import render


def receipt_context(app: Application) -> dict:
    regime = get_regime(app.regime)
    kind = regime.permit_kind(app.permit_kind)
    delivered = {d.document: d for d in app.documents}
    later = _asked_later(regime, kind)
    from models.services.front_desk import recorded_documents

    recorded = recorded_documents(*app.applicant_ref, regime, kind)  # met by the record, where the act's file says so
    documents = []
    for doc_id in kind.documents:
        doc = regime.document(doc_id)
        got = delivered.get(doc_id)
        documents.append(
            {
                "label": doc.label,
                "article": regime.cite_item(doc),
                "delivered": got is not None,
                "later": later.get(doc_id, "") if got is None else "",
                "recorded": recorded.get(doc_id, "") if got is None else "",
                "delivered_on": got.delivered_on if got else None,
                "valid_until": got.valid_until if got else None,
                "file": got.original_name if got else "",
                "sha256": got.sha256 if got else "",
            }
        )
    person, company = app.person, app.company  # no query for an empty key
    if person is not None:
        applicant = {"name": person.name, "document": f"CPF {format_cpf(person.cpf)}"}
    else:
        assert company is not None  # an application names a person or a company
        applicant = {"name": company.legal_name, "document": f"CNPJ {format_cnpj(company.cnpj)}"}
    return {
        "app": app,
        "regime": regime,
        "kind": kind,
        "applicant": applicant,
        "documents": documents,
        "missing": [d for d in documents if not d["delivered"] and not d["later"] and not d["recorded"]],
        "quote": json.loads(app.quote_json or "{}"),
        "eligibility": json.loads(app.eligibility_json or "{}"),
        **letterhead(regime),
        "line": regime.line(app.line).label if app.line else "",
        "section": regime.section(app.section).label if app.section else "",
        "equipment": regime.equipment(app.equipment).label if app.equipment else "",
        "site": _site_label(regime, app.site),
    }


def _asked_later(regime, kind) -> dict[str, str]:
    """Documents the act asks after the application (``Rule.due``; Sapezal art. 11), with when, in words."""
    from models.rules import describe

    out = {}
    for rule in kind.rules:
        if rule.kind == "document" and rule.due:
            deadline = regime.deadline(rule.due)
            out[rule.document] = f"{describe.deadline_text(deadline)} ({regime.cite_item(deadline)})"
    return out


def _site_label(regime, site: str) -> str:
    """A site the act names shows by its name; a place the clerk typed shows as typed."""
    if site and site in regime.ids("site"):
        return regime.site(site).label
    return site


def receipt_html(app: Application) -> str:
    return render("receipt.html.j2", **receipt_context(app))


def receipt_document(app: Application):
    return text_document(receipt_html(app))


def write_receipt_pdf(app: Application, path: str | Path) -> Path:
    """A PDF whose rows are never split across pages (reports/paged_pdf.py); the print dialog still
    takes Qt's document (:func:`receipt_document`)."""
    from reports.paged_pdf import write_html_pdf

    return write_html_pdf(receipt_html(app), path)
