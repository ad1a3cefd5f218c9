"""Issuing a permit — from an application, by renewal, transfer to an heir or exchange of sites.

The service step above both the front desk and the charges: it reads the applicant's facts through
:mod:`models.services.front_desk` (eligibility checked again at issue) and the application's open charges
(:mod:`models.billing.charges`); nothing below it in the package imports those.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from pathlib import Path

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.permits import Permit, PermitDocument, active_count, permit_term, renewal_window
from models.permits.document import sign_permit
from models.permits.renewal import delivered_documents, documents_of
from models.permits.steps import (
    claim,
    date_text,
    issue_successor,
    next_permit_number,
    plural,
    record_event,
    regime_of,
    required_reason,
    supersede,
)
from models.permits.term import schedule_text
from models.registry.applications import Application, change_status
from models.registry.people import Person
from models.rules.acts import act_sha
from models.services.front_desk import Moment, applicant_of, evaluate_applicant, load_applicant
from models.store.db import db
from models.store.files import keep_file


def check_cap(regime, kind, today: _dt.date) -> None:
    """The act's limit of permits (e.g. Ilha Comprida's 280) counted again at issue, not only at approval."""
    for rule in kind.rules:
        if rule.kind == "cap" and rule.count and not rule.admin_defined:
            in_force = active_count(regime.id, kind.id, today=today)
            if in_force >= rule.count:
                raise UserError(
                    f"Limite de {rule.count} permissões de {kind.label} atingido ({in_force} em vigor; "
                    f"{regime.cite_item(rule)}): a permissão não foi emitida."
                )


def issue_permit(
    app: Application,
    *,
    by: str,
    today: _dt.date,
    key_dir: Path | None,
    days_hours: str = "",
    point: str = "",
    event_end: _dt.date | None = None,
    valid_until: _dt.date | None = None,
    quota: bool = False,
) -> Permit:
    """Issue the permit of an approved application (or one awaiting payment) — one transaction.

    The application moves to ``issued``; the permit gets the next number of
    the year, the term its kind sets (:func:`permit_term`) and the QR text
    signed with the key in ``key_dir`` (``None``: unsigned, for demo data only).
    """
    require("permits.issue")
    by = acting(by)
    if app.status not in ("approved", "awaiting_payment"):
        from models.registry.applications import STATUSES as APP_STATUSES

        raise UserError(
            f"O requerimento {app.protocol} está {APP_STATUSES.get(app.status, app.status)}: "
            "só se emite a permissão de um requerimento aprovado ou aguardando pagamento."
        )
    if app.status == "awaiting_payment":
        from models.base.money import format_brl
        from models.billing.charges import open_charges_of_application

        unpaid = open_charges_of_application(app)
        if unpaid:
            listed = "; ".join(f"nº {c.number} {c.label} ({format_brl(c.open_amount)})" for c in unpaid)
            raise UserError(
                f"O requerimento {app.protocol} aguarda pagamento: {listed}. O ato exige o pagamento "
                "antes da permissão; registre-o em Cobrança."
            )
    regime = regime_of(app.regime)
    kind = regime.permit_kind(app.permit_kind)
    term = permit_term(regime, kind.id, today, event_end=event_end, valid_until=valid_until)
    check_due_later(app, today)
    with db.atomic():
        year, seq, number = next_permit_number(today)  # issues queue here, so the count below is current
        check_cap(regime, kind, today)
        change_status(app, "issued", by=by, reason=f"permissão nº {number}")
        permit = Permit.create(
            number=number,
            year=year,
            seq=seq,
            application=app.id,
            origin="application",
            regime=app.regime,
            permit_kind=app.permit_kind,
            person=app.person_id,
            company=app.company_id,
            site=app.site,
            point=point.strip(),
            line=app.line,
            group=app.group,
            section=app.section,
            equipment=app.equipment,
            front=app.front,
            depth=app.depth,
            hitch=app.hitch,
            days_hours=(days_hours or "").strip() or schedule_text(regime, kind),
            quota=bool(quota),
            valid_from=term.valid_from,
            valid_until=term.valid_until,
            status="active",
            issued_on=today,
            issued_by=by,
            act_sha256=act_sha(app.regime, today),
        )
        record_event(
            permit,
            "issued",
            by=by,
            on=today,
            status_to="active",
            reason=f"requerimento {app.protocol}",
            data={"term": term.text, "article": term.article},
        )
        sign_permit(permit, key_dir)
    return permit


def check_due_later(app: Application, today: _dt.date) -> None:
    """What the act asks after the application (``Rule.due``: Sapezal art. 11 — CNPJ, health and clearance
    certificates within 10 business days of the final list) must be met before the permit: refused otherwise,
    listing each requirement with its deadline (:func:`later_requirements`, the applicant judged at approval).

    Not yet the whole judgement at :attr:`Moment.ISSUE` that a renewal or a transfer makes: switched on, it refuses
    São Bento's permits whose price was paid in Cobrança but whose "comprovante de recolhimento" (a document rule,
    art. 4º) was never delivered, and the demo's Olímpia holders without a municipal registration (art. 138) —
    the act's rules and the recorded payment must first be reconciled."""
    from models.rules.eligibility import PASSED
    from models.services.front_desk import later_requirements

    unmet = [result for result in later_requirements(app, today=today) if result.status != PASSED]
    if unmet:
        listing = "; ".join(f"{r.label}: {r.reason} ({r.article})" for r in unmet)
        raise UserError(
            f"O requerimento {app.protocol} ainda não cumpre o que o ato pede antes da permissão — {listing}"
        )


def refuse_failed(result, what: str) -> None:
    """Refuse, listing every failed rule with its article (``what``: "Emissão", "Renovação", "Transferência")."""
    from models.rules.eligibility import FAILED

    failed = result.by_status(FAILED)
    if failed:
        listing = "; ".join(f"{r.label}: {r.reason} ({r.article})" for r in failed)
        count = plural(len(failed), "requisito não atendido", "requisitos não atendidos")
        raise UserError(f"{what} recusada — {count}: {listing}")


def check_eligibility(
    moment,
    holder_kind: str,
    holder_id: int,
    permit: Permit,
    *,
    today: _dt.date,
    site: str,
    documents,
    exclude: Iterable[int],
    what: str,
):
    """Eligibility of ``holder`` for ``permit``'s kind at ``moment`` (renewal, transfer); refuses listing every
    failed rule."""

    result = evaluate_applicant(
        moment,
        load_applicant(holder_kind, holder_id),
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        documents=documents,
        today=today,
        site=site,
        exclude_permits=tuple(exclude),
    )
    refuse_failed(result, what)
    return result


def renew(
    permit: Permit,
    *,
    by: str,
    today: _dt.date,
    key_dir: Path | None = None,
    documents: Sequence | None = None,
    valid_until: _dt.date | None = None,
) -> Permit:
    """Renew ``permit`` inside its renewal window: a new permit for the next term; the old one runs to its end.

    Eligibility is checked again through the front desk (the permit being
    renewed left out of the counts); any failed rule refuses the renewal and
    the message lists each with its article. ``documents`` (``DocumentInput``)
    replace those on file of the same kind (e.g. a new health certificate).
    """
    require("permits.lifecycle")
    by = acting(by)
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    if permit.status != "active":
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}; só uma permissão ativa pode ser renovada."
        )
    successor = Permit.get_or_none((Permit.previous == permit.id) & (Permit.origin == "renewal"))
    if successor is not None:
        raise UserError(
            f"A permissão nº {permit.number} já foi renovada pela nº {successor.number} "
            f"(válida de {date_text(successor.valid_from)} a {date_text(successor.valid_until)})."
        )
    window = renewal_window(permit)
    if window is None and kind.renewal is not None and kind.renewal.by_decree:
        raise UserError(
            f"O {regime.short} deixa a decreto do Executivo a janela de renovação de {kind.label} "
            f"({regime.cite_item(kind.renewal)}) e nenhum decreto foi registrado para as permissões que terminam em "
            f"{permit.valid_until.year}: registre o decreto (número, data e janela) em Permissões → Decreto de "
            "renovação… ou com praca renewal-decree add."
        )
    if window is None:
        raise UserError(f"O ato ({regime.short}) não prevê renovação de {kind.label}; faça um novo requerimento.")
    if not window.contains(today):
        raise UserError(
            f"Fora do prazo de renovação da permissão nº {permit.number}: pedido de {date_text(window.opens)} a "
            f"{date_text(window.closes)} ({window.text}; {window.article}); hoje é {date_text(today)}."
            + (f" Atenção: {window.closed_flag}." if window.closed_flag else "")
        )
    holder_kind, holder_id = permit.holder_ref
    delivered = delivered_documents(regime, kind, documents, today=today)
    check_eligibility(
        Moment.RENEWAL,
        holder_kind,
        holder_id,
        permit,
        today=today,
        site=permit.site,
        documents=documents_of(permit, [d for d, _f in delivered]),
        exclude=(permit.id,),
        what="Renovação",
    )
    start = permit.valid_until + _dt.timedelta(days=1)
    term = permit_term(regime, kind.id, start, valid_until=valid_until, renewal=True)
    kept = [(doc, keep_file(doc.file) if doc.file else None) for doc, _f in delivered]  # copied before the txn
    with db.atomic():
        claim(permit)  # another desk renewing or revoking it meanwhile loses here
        if Permit.select().where((Permit.previous == permit.id) & (Permit.origin == "renewal")).exists():
            raise UserError(f"A permissão nº {permit.number} acabou de ser renovada em outra mesa.")
        new = issue_successor(
            permit,
            origin="renewal",
            by=by,
            today=today,
            valid_from=term.valid_from,
            valid_until=term.valid_until,
            notes=f"Renovação da permissão nº {permit.number}.",
            reason=f"renovação da nº {permit.number}",
            data={"term": term.text, "article": term.article},
        )
        for doc, stored in kept:
            PermitDocument.create(
                permit=new.id,
                document=doc.document,
                delivered_on=doc.delivered_on,
                valid_until=doc.valid_until,
                file_path=stored.path if stored else "",
                sha256=stored.sha256 if stored else "",
                original_name=stored.original_name if stored else "",
                recorded_by=by,
            )
        # The renewed permit stays in force until its last day; the new one starts the day after.
        record_event(
            permit,
            "renewed",
            by=by,
            on=today,
            status_from="active",
            status_to="active",
            other=new,
            reason=f"renovada pela permissão nº {new.number}, válida a partir de {date_text(term.valid_from)} "
            f"({window.article})",
        )
        sign_permit(new, key_dir)
    return new


def _transfer_rule(kind):
    """The kind's ``transfer`` (who may receive the permit and the article), if the regime gives one."""
    return getattr(kind, "transfer", None)


def transfer_to_heir(
    permit: Permit,
    heir_person: Person,
    *,
    by: str,
    reason: str,
    today: _dt.date,
    key_dir: Path | None = None,
    documents: Sequence | None = None,
) -> Permit:
    """Transfer ``permit`` to an heir where the act allows it (e.g. Lei 9.158/2014, art. 17), for the remaining term.

    The heir must meet the kind's rules now (the permit transferred left out of
    the counts); a new permit is issued in the heir's name, valid until the old
    one's last day, and the old one is superseded.
    """
    require("permits.sanction")
    by, reason = acting(by), required_reason(reason, "falecimento do titular e indicação dos sucessores")
    regime = regime_of(permit)
    kind = regime.permit_kind(permit.permit_kind)
    rule = _transfer_rule(kind)
    if rule is None:
        raise UserError(
            f"O ato ({regime.short}) não prevê a transferência de {kind.label} a herdeiro: a "
            "permissão é pessoal e intransferível."
        )
    article = regime.cite_item(rule)
    if permit.status != "active":
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}; só uma permissão ativa pode ser transferida."
        )
    if permit.person_id is None or "person" not in kind.holder:
        raise UserError(
            f"A permissão nº {permit.number} é de pessoa jurídica: a sucessão se faz pela alteração "
            f"do quadro societário da titular, não pela transferência da permissão ({article})."
        )
    if permit.person_id == heir_person.id:
        raise FieldErrors({"heir": "O herdeiro indicado é o próprio titular."})
    check_eligibility(
        Moment.TRANSFER,
        "person",
        heir_person.id,
        permit,
        today=today,
        site=permit.site,
        documents=list(documents or ()),
        exclude=(permit.id,),
        what="Transferência",
    )
    with db.atomic():
        new = issue_successor(
            permit,
            origin="transfer",
            by=by,
            today=today,
            valid_from=today,
            valid_until=permit.valid_until,
            notes=f"Transferida da permissão nº {permit.number} ({article}).",
            reason=f"transferência da nº {permit.number}: {reason}",
            data={"article": article},
            person=heir_person.id,
            company=None,
        )
        supersede(
            permit,
            new,
            kind="transfer",
            by=by,
            today=today,
            reason=f"transferida a {heir_person.name} pela permissão nº {new.number}: {reason} ({article})",
            data={"heir": heir_person.id, "article": article},
        )
        sign_permit(new, key_dir)
    return new


def exchange_sites(
    permit_a: Permit, permit_b: Permit, *, by: str, reason: str, today: _dt.date, key_dir: Path | None = None
) -> tuple[Permit, Permit]:
    """Two holders exchange their places with the Administration's consent: two new permits, the old superseded.

    ``reason`` records the consent (decision, process number). Both permits must
    be active, of the same kind in the same regime and in different places; a
    rule that bars relatives or partners in the same feira (Lei 9.158/2014, art.
    12) is checked at the new place of each holder.
    """
    require("permits.sanction")
    by, reason = acting(by), required_reason(reason, "anuência da Administração")
    for p in (permit_a, permit_b):
        if p.status != "active":
            raise UserError(
                f"A permissão nº {p.number} está {p.status_label}; só permissões ativas podem ser permutadas."
            )
    if permit_a.id == permit_b.id:
        raise UserError("Escolha duas permissões diferentes.")
    if (permit_a.regime, permit_a.permit_kind) != (permit_b.regime, permit_b.permit_kind):
        raise UserError("A permuta é entre permissões do mesmo tipo no mesmo regime.")
    if (permit_a.site, permit_a.point) == (permit_b.site, permit_b.point):
        raise UserError("As duas permissões já estão no mesmo local.")
    check_site_rules(permit_a, permit_b.site, today=today, exclude=(permit_a.id, permit_b.id))
    check_site_rules(permit_b, permit_a.site, today=today, exclude=(permit_a.id, permit_b.id))
    created = []
    with db.atomic():
        for old, other in ((permit_a, permit_b), (permit_b, permit_a)):
            new = issue_successor(
                old,
                origin="exchange",
                by=by,
                today=today,
                valid_from=today,
                valid_until=old.valid_until,
                notes=f"Permuta de local com a permissão nº {other.number}; substitui a nº {old.number}.",
                reason=f"permuta com a nº {other.number}: {reason}",
                site=other.site,
                point=other.point,
            )
            created.append((old, new, other))
        for old, new, other in created:
            supersede(
                old,
                new,
                kind="exchange",
                by=by,
                today=today,
                reason=f"permuta de local com a nº {other.number}, substituída pela nº {new.number}: {reason}",
                data={"with": other.id},
            )
        for _old, new, _other in created:
            sign_permit(new, key_dir)
    return created[0][1], created[1][1]


def check_site_rules(permit: Permit, site: str, *, today: _dt.date, exclude: Iterable[int]) -> None:
    """Refuse a move that breaks a one-per rule bound to the same feira/site (the holder judged at the exchange)."""
    from models.rules.eligibility import FAILED

    kind = regime_of(permit).permit_kind(permit.permit_kind)
    if not any(r.kind == "one-per" and r.same_site for r in kind.rules):
        return
    result = evaluate_applicant(
        Moment.EXCHANGE,
        applicant_of(permit),
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        documents=[],
        today=today,
        site=site,
        exclude_permits=tuple(exclude),
    )
    failed = [r for r in result.results if r.rule.kind == "one-per" and r.rule.same_site and r.status == FAILED]
    if failed:
        listing = "; ".join(f"{r.reason} ({r.article})" for r in failed)
        raise UserError(f"Permuta recusada para a permissão nº {permit.number}: {listing}")
