"""A record printed: notice, infraction, seizure or interdiction record, with every element the acts require.

The same HTML (``resources/templates/record.html.j2``) becomes the PDF
(:func:`write_record_pdf`) and the document of the print dialog
(:func:`record_document`). It shows what the acts ask a record to contain —
day, month, year, hour and place; the offender's name, document and address
(or the description of someone not identified); the facts and the article
infringed; the sanction with its articles and, for a notice, the penalty if the
situation is not regularised; the deadlines to comply, pay, defend or appeal
with their dates and basis; the witnesses; whether the offender signed or
refused; the inspector's name, registration number and signature (Olímpia, LC
324/2025, art. 28 and 32; Ilha Comprida, Dec. 890/2017, art. 29) — and for a
seizure the goods and where they are kept (LC 324/2025, art. 22, parágrafo
único).
"""

from __future__ import annotations

from pathlib import Path

from models import enforcement as enf
from models.registry.municipality import letterhead
from models.rules import describe
from models.rules.regimes import act_money, get_regime
from reports.pdf import html_to_pdf, text_document
from reports.templating import render

SIGNATURE_TEXT = {
    "signed": "O autuado deu ciência, assinou e recebeu a segunda via.",
    "refused": "O autuado recusou-se a assinar e a dar ciência; a recusa é declarada pelo agente fiscal.",
    "unable": "O autuado não pôde assinar; a circunstância é declarada pelo agente fiscal.",
    "absent": "O autuado não estava presente; será notificado na forma do ato.",
}


def record_context(record: enf.Record, *, today=None) -> dict:
    import datetime as _dt

    today = today or _dt.date.today()
    regime = get_regime(record.regime, on=record.at.date())  # the act's text in force on the record's day
    stored = record.proposal_data
    proposal = enf.current_proposal(record).to_dict()  # as issued, with the authority's later decisions
    for key in ("prior_refs", "fine_lines", "not_complied"):
        proposal[key] = stored.get(key)
    for item in proposal.get("infractions", []):
        for s in item["sanctions"]:
            if s.get("wait_until"):
                s["wait_until"] = _dt.date.fromisoformat(s["wait_until"]).strftime("%d/%m/%Y")
    infractions = []
    for code in record.codes:
        try:
            item = regime.infraction(code)
        except Exception:  # a code gone from a later regime file still prints as written
            infractions.append({"code": code, "label": code, "article": ""})
            continue
        infractions.append({"code": code, "label": item.label, "article": regime.cite(item.article)})
    conditional = [
        s
        for item in proposal.get("infractions", [])
        for s in item["sanctions"]
        if s.get("condition") and not s.get("condition_met")
    ]
    rules = regime.penalties.record if regime.penalties is not None else None
    unsigned = (
        f"{rules.unsigned_valid.text} ({regime.cite_item(rules.unsigned_valid)})"
        if record.signature != "signed"
        and rules is not None
        and rules.unsigned_valid is not None
        and rules.unsigned_valid.text
        else ""
    )
    items = enf.items_of(record)
    fee = enf.depot_fee(record, today) if record.kind == "seizure" and items else None
    permit = record.permit if record.permit_id else None
    permit_text = ""
    if permit is not None:
        try:
            kind = regime.permit_kind(permit.permit_kind).label
        except Exception:  # a kind gone from a later regime file: its key, as recorded
            kind = permit.permit_kind
        permit_text = f"nº {permit.number} — {kind}" + (f" — {permit.site}" if permit.site else "")
    refers = record.refers_to if record.refers_to_id else None
    followers = enf.followers_of(record)
    contests = []
    for c in enf.contests_of(record):
        contests.append(
            {"c": c, "new_amount": act_money(c.new_amount, record.regime) if c.new_amount is not None else ""}
        )
    charges = [
        {
            "number": c.number,
            "label": c.label,
            "amount": act_money(c.amount, record.regime),
            "status": c.status_label,
            "due": c.due_on,
        }
        for c in enf.charges_of(record)
    ]
    return {
        "record": record,
        "regime": regime,
        "title": record.kind_label,
        "proposal": proposal,
        "infractions": infractions,
        "conditional": conditional,
        "deadlines": enf.deadline_rows(record, today),
        "witnesses": record.witness_data,
        "signature_text": SIGNATURE_TEXT.get(record.signature, record.signature),
        "unsigned_text": unsigned,
        "decision_labels": enf.DECISION_LABELS,
        "items": items,
        "fee": fee,
        "seizure": regime.seizure,
        "files": enf.files_of(record),
        "permit_text": permit_text,
        "refers": refers,
        "relation_text": enf.RELATIONS.get(record.relation, record.relation),
        "followers": followers,
        "contests": contests,
        "charges": charges,
        "situation": enf.situation(record),
        "fine_total": act_money(enf.charged_fines_total(record), record.regime),
        "scope": describe.SCOPES.get(record.scope, record.scope),
        **letterhead(regime),
    }


def record_html(record: enf.Record, *, today=None) -> str:
    return render("record.html.j2", **record_context(record, today=today))


def record_document(record: enf.Record, *, today=None):
    """The record as a ``QTextDocument`` for the print dialog."""
    return text_document(record_html(record, today=today))


def write_record_pdf(record: enf.Record, path: str | Path, *, today=None) -> Path:
    return html_to_pdf(record_html(record, today=today), path, title=f"{record.kind_label} {record.reference}")
