"""The sanction proposed for a draft and the deadlines it runs: :func:`preview`, checked before issuing."""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed
from models.billing.charges.month import permit_fee_lines
from models.enforcement.chains import prior_offences
from models.enforcement.deadline_roles import (
    ROLES,
    deadline_dict,
    deadline_matter,
    pick_deadline,
    role_candidates,
    start_for,
)
from models.enforcement.drafts import AdjustInput, RecordDraft, offender_facts
from models.enforcement.sanctions import (
    PROPOSED,
    PriorOffence,
    Proposal,
    Verification,
    adjust,
    fine_fees,
    fine_inputs,
    in_reais,
    propose_sanction,
    sanction_lines,
)
from models.enforcement.tables import KINDS, RELATIONS, SIGNATURES, ZERO, Record, day_text
from models.permits import Permit, find_permit
from models.rules import describe
from models.rules.deadlines import compute_deadline
from models.rules.regimes import MissingUnitValue, Regime, check_in_force, get_regime
from models.rules.regimes.model import Deadline
from models.rules.silences import Choice


@dataclass(frozen=True)
class Preview:
    """Everything a record will say, before it is issued: proposal, deadlines, what it charges."""

    regime: Regime
    kind: str
    proposal: Proposal
    priors: tuple[PriorOffence, ...]
    prior_refs: tuple[str, ...]
    fine_total: Decimal  # what becomes a charge when issued
    fine_lines: tuple[dict, ...]  # the fines charged: label, amount, formula, basis
    deadlines: tuple[dict, ...]
    options: Mapping[str, tuple[tuple[str, str], ...]]  # role → (id, label) the inspector may choose
    needs_payment_due: bool
    warnings: tuple[str, ...]
    offender: tuple[str, str, str, str]

    @property
    def payment_deadline(self) -> dict | None:
        return next((d for d in self.deadlines if d["role"] == "payment"), None)


def unit_value_overrides(regime: Regime):
    from models.billing.fiscal import unit_overrides

    return unit_overrides(regime.id)


def _index_factors(regime: Regime, year: int) -> dict[str, Decimal]:
    from models.billing.pricing import FACTOR_PLACES, regime_index_factors

    factors = regime_index_factors(regime, year)
    return {code: f.factor.quantize(FACTOR_PLACES) for code, f in factors.items() if not f.missing}


def _propose(
    regime: Regime,
    codes: list[str],
    on: _dt.date,
    prior,
    step: int | None,
    step_reason: str,
    adjustments: Sequence[AdjustInput],
    facts: Mapping[str, Verification] | None = None,
    readings: Mapping[str, Choice] | None = None,
    asked: Mapping[str, str] | None = None,
    asked_by: str | None = None,
    permit: Permit | None = None,
) -> Proposal:
    fees = fine_fees(regime, codes)
    permit_fees = permit_fee_lines(regime, permit, fees, on) if permit is not None and fees else None
    try:
        proposal = propose_sanction(
            regime,
            codes,
            on=on,
            prior=prior,
            unit_values=unit_value_overrides(regime),
            index_factors=_index_factors(regime, on.year),
            step=step,
            reason=step_reason or None,
            facts=facts,
            readings=readings,
            asked=asked,
            asked_by=asked_by,
            permit_fees=permit_fees,
            permit=permit.number if permit is not None else None,
        )
    except MissingUnitValue as exc:
        raise UserError(f"{exc.message} (Cadastros → Unidades fiscais)", field="infractions") from None
    except UserError as exc:
        if exc.field == "reading":
            raise FieldErrors({"readings": exc.message}) from None
        if exc.field == "index_factor":
            raise UserError(f"{exc.message} (Cadastros → Correção monetária)", field="infractions") from None
        raise
    proposal = in_reais(proposal, regime)  # where a rule of the act converts its money: the authority decides in it
    for item in adjustments:
        proposal = apply_adjustment(proposal, item)
    return proposal


def apply_adjustment(proposal: Proposal, item: AdjustInput) -> Proposal:
    return adjust(
        proposal,
        reason=item.reason,
        amounts=dict(item.amounts),
        days=dict(item.days),
        apply=item.apply,
        omit=item.omit,
        facts=dict(item.facts),
        by=item.by or None,
    )


def _charged_fines(proposal: Proposal) -> list:
    """Fines that become due now: imposed (by the act, by the authority, or once their fact was verified)."""
    return [s for s in proposal.sanctions if s.kind == "fine" and s.applied]


def _values_not_given(regime: Regime, pending: list, given: Mapping[str, str], *, named_permit: bool) -> str:
    """What the fines written as formulas still ask (``[[infractions.fine.inputs]]``), each by its label with the
    act's bounds and article — or, for a value that is another fee of the act, the offender's permit it is priced
    from — per sanction ("" when every value is given)."""
    from models.rules.fees.formula import bounds_text

    said = []
    for s in pending:
        missing = []
        for name, item in fine_inputs(regime, [s.infraction]).items():
            if str(given.get(name) or "").strip():
                continue
            text = f"{item.label.lower()} ({bounds_text(regime, item)})"
            if item.fee is not None and not named_permit:
                text += f", ou a permissão do infrator, com a qual o Praça calcula {regime.fee(item.fee).label.lower()}"
            missing.append(text)
        if missing:
            said.append(f"Sanção nº {s.number}: informe " + "; ".join(missing))
    return " — ".join(said) + " — antes de lavrar." if said else ""


def _count(regime: Regime, deadline: Deadline, start, role: str) -> dict:
    return deadline_dict(compute_deadline(regime, deadline.id, start), role)


def _record_deadlines(
    regime: Regime,
    kind: str,
    proposal: Proposal,
    *,
    at: _dt.datetime,
    notified: _dt.datetime,
    scope: str,
    codes: list[str],
    choices: Mapping[str, str],
    perishable: Iterable[bool],
    has_fine: bool,
    not_complied: bool = False,
) -> tuple[list[dict], dict[str, tuple[tuple[str, str], ...]]]:
    """The deadlines that start with the record, and the alternatives per role the inspector may pick."""
    applied = {s.kind for s in proposal.sanctions if s.applied}
    if has_fine:
        applied.add("fine")
    out: list[dict] = []
    options: dict[str, tuple[tuple[str, str], ...]] = {}

    def run(role: str, candidates: list[Deadline], *, extra: Mapping | None = None, key: str | None = None) -> None:
        key = key or role
        usable = [d for d in candidates if start_for(d.from_, at, notified) is not None]
        if not usable:
            return
        options[key] = tuple((d.id, f"{d.label} ({regime.cite_item(d)})") for d in usable)
        chosen_id = choices.get(key)
        if chosen_id:
            picked = [d for d in usable if d.id == chosen_id]
            if not picked:
                raise UserError(
                    f"Prazo '{chosen_id}' não serve para {ROLES.get(role, role).lower()} neste auto.", field="deadlines"
                )
        else:
            picked = pick_deadline(usable, scope)
        for d in picked:
            start = start_for(d.from_, at, notified)
            if start is None:  # not usable: left out above
                continue
            out.append(deadline_dict(compute_deadline(regime, d.id, start), role, extra=extra))

    # a warning runs its own deadline to comply (Olímpia art. 10; SJC art. 23)
    warnings = [s for s in proposal.sanctions if s.kind == "warning" and s.applied]
    if warnings and kind in ("notice", "infraction") and not not_complied:
        ids = {i for s in warnings for i in s.deadlines}
        run("compliance", [d for d in regime.deadlines if d.id in ids])
    if has_fine and kind != "notice":
        run("payment", role_candidates(regime, "payment", applied))
    if kind != "notice":
        run("defence", role_candidates(regime, "defence", applied))
        run("appeal", role_candidates(regime, "appeal", applied))
    if kind == "seizure":
        reclaim = role_candidates(regime, "reclaim")
        kinds = set(perishable)
        for flag in sorted(kinds):
            group = [d for d in reclaim if bool(d.perishable) == flag]
            run("reclaim", group, extra={"perishable": flag}, key="reclaim-perishable" if flag else "reclaim")
    return out, options


def _validate(draft: RecordDraft, regime: Regime | None, today: _dt.date) -> dict[str, str]:
    errors: dict[str, str] = {}
    if draft.kind not in KINDS:
        errors["kind"] = f"Tipo de auto desconhecido: {draft.kind}."
    if regime is None:
        errors["regime"] = "Escolha o regime (o ato que rege a fiscalização)."
    if draft.at is None:
        errors["at"] = "Informe o dia e a hora da lavratura."
    elif not isinstance(draft.at, _dt.datetime):
        errors["at"] = "Informe também a hora da lavratura."
    elif draft.at.date() > today:
        errors["at"] = f"A data do auto ({day_text(draft.at.date())}) está no futuro."
    elif regime is not None:
        try:
            check_in_force(regime, draft.at.date(), what="O fato")
        except UserError as exc:
            errors["at"] = exc.message
    if draft.notified_at is not None and draft.at is not None and draft.notified_at < draft.at:
        errors["notified_at"] = "A ciência do infrator não pode ser anterior à lavratura."
    if not (draft.place or "").strip():
        errors["place"] = "Informe o local da infração."
    if not (draft.facts or "").strip():
        errors["facts"] = "Descreva o fato que constitui a infração e suas circunstâncias."
    codes = [c.strip() for c in draft.infractions if c and c.strip()]
    if not codes:
        errors["infractions"] = "Escolha ao menos uma infração do catálogo do regime (dispositivo infringido)."
    elif regime is not None:
        unknown = [c for c in codes if c not in regime.ids("infraction")]
        if unknown:
            errors["infractions"] = f"Infração '{unknown[0]}' não existe no regime {regime.id} ({regime.short})."
    if draft.scope and regime is not None and draft.scope not in regime.scope:
        errors["scope"] = f"Matéria '{draft.scope}' não consta do regime {regime.id}."
    if draft.signature not in SIGNATURES:
        errors["signature"] = "Diga se o infrator assinou, recusou-se, não pôde assinar ou estava ausente."
    for i, w in enumerate(draft.witnesses):
        if not (w.name or "").strip():
            errors[f"witnesses[{i}]"] = f"Testemunha {i + 1}: informe o nome."
    if not (draft.inspector or "").strip():
        errors["inspector"] = "Informe o nome do agente fiscal que lavra o auto."
    if draft.kind == "seizure":
        if not draft.items:
            errors["items"] = "Descreva os objetos apreendidos (descrição, quantidade, perecível ou não)."
        for i, item in enumerate(draft.items):
            if not (item.description or "").strip():
                errors[f"items[{i}]"] = f"Objeto {i + 1}: descreva-o."
                continue
            try:
                quantity = parse_typed(item.quantity)
            except (UserError, TypeError, ValueError):
                quantity = None
            if quantity is None or quantity <= 0:
                errors[f"items[{i}]"] = f"Objeto {i + 1}: quantidade inválida ({item.quantity})."
        if not (draft.depot or "").strip():
            errors["depot"] = "Indique o lugar onde os objetos ficarão depositados."
    for photo in draft.photos:
        if not Path(photo).is_file():
            errors["photos"] = f"Foto não encontrada: {photo}"
            break
    if draft.relation and draft.relation not in RELATIONS:
        errors["relation"] = f"Relação desconhecida: {draft.relation}."
    if draft.relation and not draft.refers_to_id:
        errors["relation"] = "Informe o auto a que este se refere."
    if draft.relation == "correction" and not (draft.reason or "").strip():
        errors["reason"] = "Informe o motivo da correção (o que estava errado ou faltava)."
    if draft.relation == "identification" and not (draft.person_id or draft.company_id):
        errors["offender"] = "Escolha a pessoa ou a empresa identificada."
    return errors


def permit_of(draft: RecordDraft, errors: dict) -> Permit | None:
    if draft.permit_id:
        permit = Permit.get_or_none(Permit.id == draft.permit_id)
        if permit is None:
            errors["permit"] = f"Permissão {draft.permit_id} não encontrada."
        return permit
    if (draft.permit_number or "").strip():
        try:
            return find_permit(draft.permit_number)
        except UserError as exc:
            errors["permit"] = exc.message
    return None


def _readings(draft: RecordDraft) -> dict[str, Choice]:
    """The readings chosen on the form, each with its reason (required: the authority says why) and who chose."""
    chosen: dict[str, Choice] = {}
    for point, choice in draft.readings.items():
        if not (choice.reason or "").strip():
            raise FieldErrors({"readings": f"Diga o motivo da leitura escolhida no ponto '{point}'."})
        by = (choice.by or "").strip() or (draft.inspector or "").strip()
        chosen[point] = Choice(choice.reading, choice.reason.strip(), by)
    return chosen


def preview(draft: RecordDraft, *, today: _dt.date, strict: bool = True) -> Preview:
    """The proposal, the deadlines and the charges the record would have — nothing is written.

    Refuses with ``FieldErrors`` what the acts require and is missing; with
    ``strict`` False a fine still to be graded is let through (the proposal to
    adjust).
    """
    try:
        regime = get_regime(draft.regime, on=draft.at.date() if draft.at else None) if draft.regime else None
    except UserError:
        regime = None
    errors = _validate(draft, regime, today)
    permit = permit_of(draft, errors)
    if permit is not None and not (draft.person_id or draft.company_id or (draft.unknown_name or "").strip()):
        draft = dataclasses.replace(draft, person_id=permit.person_id, company_id=permit.company_id)
    if permit is not None and regime is not None and permit.regime != regime.id:
        errors["permit"] = f"A permissão nº {permit.number} é do regime {permit.regime}, não do {regime.id}."
    offender = offender_facts(draft, errors)
    if errors:
        raise FieldErrors(errors)
    assert regime is not None and draft.at is not None
    refers = Record.get_or_none(Record.id == draft.refers_to_id) if draft.refers_to_id else None
    if draft.refers_to_id and refers is None:
        raise FieldErrors({"relation": "O auto de referência não existe."})
    if refers is not None and refers.regime != regime.id:
        raise FieldErrors({"relation": f"{refers.reference} é do regime {refers.regime}."})
    codes = [c.strip() for c in draft.infractions if c and c.strip()]
    priors, refs = prior_offences(
        regime, person_id=draft.person_id, company_id=draft.company_id, before=draft.at, exclude=refers
    )
    not_complied = draft.relation == "follows-notice"
    facts = {}
    if not_complied and refers is not None:
        # the inspector who draws up the record after the notice verified that it was not complied with
        facts["not-complied"] = Verification(
            draft.at.date(),
            (draft.inspector or "").strip() or "agente fiscal",
            f"{refers.reference} não atendida no prazo",
        )
    readings = _readings(draft)
    proposal = _propose(
        regime,
        codes,
        draft.at.date(),
        priors,
        draft.step,
        draft.step_reason,
        draft.adjustments,
        facts,
        readings,
        asked=draft.asked,
        asked_by=(draft.inspector or "").strip() or None,
        permit=permit,
    )
    warnings: list[str] = []
    fines = _charged_fines(proposal) if draft.kind != "notice" else []
    pending = [s for s in fines if s.amount is None]
    not_given = _values_not_given(regime, pending, draft.asked or {}, named_permit=permit is not None)
    if not_given and strict:  # the form has a field for each: the fine is the act's, once its values are given
        raise FieldErrors({"asked": not_given})
    if pending and strict:
        raise FieldErrors(
            {
                "adjust": f"Sanção nº {pending[0].number}: {pending[0].pending} — ajuste o valor, "
                "com o motivo, antes de lavrar."
            }
        )
    fine_lines = tuple(
        {
            "number": s.number,
            "label": s.label,
            "amount": s.amount,
            "formula": s.formula or "",
            "basis": s.basis,
            "infraction": s.infraction,
        }
        for s in fines
    )
    total = sum((s.amount for s in fines if s.amount is not None), ZERO)
    if draft.kind in ("infraction", "seizure", "interdiction") and not not_complied:
        conditional = [
            s
            for s in proposal.sanctions
            if s.decision == PROPOSED
            and s.condition is not None
            and s.condition_met is None
            and s.condition.fact == "not-complied"
        ]
        if conditional:
            warnings.append(
                "A sanção começa pela notificação: "
                + "; ".join(
                    f"nº {s.number} ({s.label}) só {condition.text.lower()} ({condition.basis})"
                    for s in conditional
                    if (condition := s.condition) is not None
                )
                + " — lavre a notificação, ou este auto como seguimento de uma notificação não atendida."
            )
    waiting = [
        s
        for s in proposal.waiting
        if not (s.condition is not None and s.condition.fact == "not-complied" and s.condition_met is None)
    ]
    if waiting and draft.kind != "notice":
        warnings.append(
            "Aguardam a autoridade: " + "; ".join(f"nº {s.number} ({s.label}) — {s.waiting}" for s in waiting) + "."
        )
    tolerated = [s for s in proposal.sanctions if s.decision == "tolerated"]
    if tolerated and draft.kind != "notice":
        tolerance = next(i.tolerance for i in proposal.items if i.tolerance)
        warnings.append(
            f"Dentro da tolerância ({tolerance[2]}): {tolerance[0]}ª de {tolerance[1]} "
            f"ocorrências toleradas — sem "
            + " e sem ".join(describe.SANCTIONS.get(s.kind, s.kind) for s in tolerated)
            + "; registre a ocorrência como notificação."
        )
    if total > 0 and not (draft.person_id or draft.company_id):
        warnings.append(
            "Infrator não identificado: a multa é lançada quando ele for identificado (novo auto que se refere a este)."
        )
    rules = regime.penalties.record if regime.penalties is not None else None
    if rules is not None and draft.signature != "signed":
        if rules.witness_when_unsigned is not None and not draft.witnesses:
            warnings.append(
                "Sem a assinatura do autuado, convém indicar uma testemunha "
                f"({regime.cite_item(rules.witness_when_unsigned)})."
            )
        if rules.unsigned_note is not None and not (draft.signature_note or "").strip():
            warnings.append(
                "Sem a assinatura do autuado, declare a circunstância no auto "
                f"({regime.cite_item(rules.unsigned_note)})."
            )
    if rules is not None and rules.inspector_id is not None and not (draft.inspector_id or "").strip():
        warnings.append(
            f"Informe a matrícula do agente fiscal (exigida no auto: {regime.cite_item(rules.inspector_id)})."
        )
    notified = draft.notified_at or draft.at
    deadlines, options = _record_deadlines(
        regime,
        draft.kind,
        proposal,
        at=draft.at,
        notified=notified,
        scope=deadline_matter(regime, draft, codes),
        codes=codes,
        choices=draft.deadline_choices,
        perishable=[bool(i.perishable) for i in draft.items],
        has_fine=total > 0,
        not_complied=not_complied,
    )
    payment = [d for d in deadlines if d["role"] == "payment"]
    needs_due = total > 0 and not payment
    return Preview(
        regime=regime,
        kind=draft.kind,
        proposal=proposal,
        priors=tuple(priors),
        prior_refs=tuple(refs),
        fine_total=total,
        fine_lines=fine_lines,
        deadlines=tuple(deadlines),
        options=options,
        needs_payment_due=needs_due,
        warnings=tuple(warnings),
        offender=offender,
    )


def explain(pv: Preview) -> list[tuple[int, str]]:
    """The proposal step by step in pt-BR: ``(indent, text)`` lines with each step's article."""
    proposal = pv.proposal
    out: list[tuple[int, str]] = []
    if pv.prior_refs:
        out.append((0, "Ocorrências anteriores do infrator neste regime: " + "; ".join(pv.prior_refs) + "."))
    else:
        out.append((0, "Sem ocorrências anteriores do infrator neste regime."))
    for note in proposal.notes:
        out.append((0, note))
    for reading in proposal.readings:
        out.append((0, reading.head))
        out.append((1, reading.applied_text))
        for ident, text, source in reading.others:
            out.append((1, f"Outra leitura [{ident}]: {text} ({source})"))
    for item in proposal.items:
        out.append((0, f"Infração: {item.label} — {item.article}"))
        out.append((1, f"Penalidade: {item.basis}"))
        if item.ladder:
            out.append((1, f"Gradação: {item.ladder_label} — degrau {item.step}"))
        for detail in item.details:
            out.append((1, detail))
        for s in item.sanctions:
            out.extend((indent + 1, text) for indent, text in sanction_lines(s))
    for a in proposal.adjustments:
        out.append(
            (
                0,
                f"Decisão sobre a sanção nº {a.number}: {a.before} → {a.after} — motivo: {a.reason}"
                + (f" ({a.by})" if a.by else ""),
            )
        )
    if pv.fine_total > 0:
        out.append((0, f"Multa a lançar: {proposal.money(pv.fine_total)}"))
    if proposal.total_proposed > 0:
        out.append(
            (
                0,
                "Multa proposta, à espera da decisão da autoridade ou do fato: "
                + proposal.money(proposal.total_proposed),
            )
        )
    for d in pv.deadlines:
        out.append((0, f"Prazo — {d['label']}: {d['due_text']} ({d['basis']})"))
    return out
