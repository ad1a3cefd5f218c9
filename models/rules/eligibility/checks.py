"""One check per rule kind of docs/regime-format.md: each gives ``(status, reason)`` for one applicant."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import ROUND_CEILING, Decimal

from models.base.money import format_brl
from models.rules import describe
from models.rules.eligibility.context import (
    Context,
    add_months,
    age_on,
    date_text,
    document_last_valid_day,
    duration,
    elapsed,
    form_text,
    forms_of,
    is_more_than,
    is_same_site,
    join_words,
    kinds_text,
    months_text,
    permit_text,
    plural,
    siblings_of,
    site_text,
    wait_end,
    years_text,
)
from models.rules.eligibility.facts import (
    BENEFICIARY_TEXT,
    DUE_LATER,
    EVENT_TEXT,
    FAILED,
    FORM_TEXT,
    INACTIVE_STATUSES,
    MANUAL,
    MISSING,
    PASSED,
    SCOPE_RELATIONS,
    SCOPE_TEXT,
    HistoryFacts,
)
from models.rules.regimes import Regime
from models.rules.regimes.model import PermitKind, Rule

# --------------------------------------------------------------------------- rule checks
# Each returns (status, reason).

Outcome = tuple[str, str]


def _check_min_age(ctx: Context, rule: Rule) -> Outcome:
    years = rule.years if rule.years is not None else ctx.admin(rule)
    if years is None:
        return MANUAL, "A idade mínima é definida pela Administração e ainda não foi informada."
    years = int(years)
    facts = ctx.facts
    if facts.birth_date is None:
        if facts.applicant_type == "company":
            return MISSING, (
                f"Informe a data de nascimento do titular/responsável pela pessoa jurídica; "
                f"o ato exige {years_text(years)}."
            )
        return MISSING, f"Data de nascimento não informada; o ato exige {years_text(years)}."
    age = age_on(facts.birth_date, facts.today)
    comes_of_age = add_months(facts.birth_date, 12 * years)
    if age >= years:
        return PASSED, f"Idade {years_text(max(age, 0))}; o ato exige {years}."
    return FAILED, (
        f"Idade {years_text(max(age, 0))}; o ato exige {years} (completa {years} em {date_text(comes_of_age)})."
    )


def _check_legally_capable(ctx: Context, rule: Rule) -> Outcome:
    value = ctx.facts.legally_capable
    if value is None:
        return MISSING, "Capacidade civil não informada; o ato exige pessoa legalmente capaz."
    if value:
        return PASSED, "Pessoa legalmente capaz, como o ato exige."
    return FAILED, "Pessoa não legalmente capaz; o ato exige capacidade civil."


def _check_legal_form(ctx: Context, rule: Rule) -> Outcome:
    facts = ctx.facts
    allowed = set(rule.allowed)
    allowed_text = join_words([FORM_TEXT.get(a, a) for a in rule.allowed])
    forms = forms_of(facts)
    if forms & allowed:
        return PASSED, f"Forma jurídica: {form_text(facts)}; o ato admite {allowed_text}."
    if facts.is_mei is None and "mei" in allowed:
        return MISSING, (f"Forma jurídica: {form_text(facts)}; informe se é MEI — o ato admite {allowed_text}.")
    return FAILED, f"Forma jurídica: {form_text(facts)}; o ato admite somente {allowed_text}."


def _yes_no(value: bool | None, yes: str, no: str, missing: str) -> Outcome:
    if value is None:
        return MISSING, missing
    return (PASSED, yes) if value else (FAILED, no)


def _check_cnpj(ctx: Context, rule: Rule) -> Outcome:
    return _yes_no(
        ctx.facts.has_cnpj,
        "Possui CNPJ, como o ato exige.",
        "Não possui CNPJ; o ato exige inscrição no CNPJ.",
        "Informe se o requerente possui CNPJ; o ato o exige.",
    )


def _check_municipal_registration(ctx: Context, rule: Rule) -> Outcome:
    return _yes_no(
        ctx.facts.has_municipal_registration,
        "Possui inscrição municipal (cadastro mobiliário), como o ato exige.",
        "Sem inscrição municipal (cadastro mobiliário); o ato a exige.",
        "Informe se o requerente tem inscrição municipal; o ato a exige.",
    )


def _check_resident(ctx: Context, rule: Rule) -> Outcome:
    years = rule.years if rule.years is not None else ctx.admin(rule)
    if years is None and rule.admin_defined:
        return MANUAL, "O tempo mínimo de residência é definido pela Administração e ainda não foi informado."
    years = int(years or 0)
    strict = is_more_than(rule)
    facts = ctx.facts
    if years == 0:
        need = "residir no município"
    else:
        need = f"{'mais de' if strict else 'pelo menos'} {years_text(years)}"
    since = facts.resident_since
    if since is None:
        if facts.is_resident is False:
            return FAILED, f"Não reside no município; o ato exige {need if years else 'residência no município'}."
        return MISSING, f"Data de início da residência no município não informada; exige {need}."
    if since > facts.today:
        return FAILED, (f"Residência no município informada a partir de {date_text(since)}, data futura; exige {need}.")
    held = duration(*elapsed(since, facts.today))
    if years == 0:
        return PASSED, f"Reside no município desde {date_text(since)} (há {held})."
    anniversary = add_months(since, 12 * years)
    ok = facts.today > anniversary if strict else facts.today >= anniversary
    text = f"Reside no município há {held} (desde {date_text(since)}); exige {need}"
    if ok:
        return PASSED, text + "."
    first = anniversary + dt.timedelta(days=1) if strict else anniversary
    return FAILED, f"{text} — atende a partir de {date_text(first)}."


def _check_document(ctx: Context, rule: Rule) -> Outcome:
    doc_id = rule.document
    if not doc_id:
        return MANUAL, "Regra de documento sem o documento indicado; confira manualmente."
    try:
        document = ctx.regime.document(doc_id)
        label, months, condition = document.label, document.validity_months, document.condition
        recorded = document.recorded
    except Exception:  # the loader checks references; never crash the desk
        label, months, condition, recorded = doc_id, None, None, None
    facts = ctx.facts
    delivered = facts.documents.get(doc_id)
    if delivered is None and recorded == "municipal-registration" and facts.has_municipal_registration:
        # the act's file declares that the registration recorded in the form stands for this paper (issue 18 §4)
        return PASSED, f"{label}: inscrição municipal registrada no cadastro do requerente."
    if delivered is None:
        if condition:
            return MANUAL, f"{label}: não entregue; exigido só quando: {condition} Confira se é o caso."
        return FAILED, f"{label}: não entregue."
    if delivered.delivered_on > facts.today:
        return FAILED, (
            f"{label}: entrega registrada em {date_text(delivered.delivered_on)}, "
            f"depois de hoje ({date_text(facts.today)})."
        )
    last = document_last_valid_day(delivered, months)
    where = f"entregue em {date_text(delivered.delivered_on)}"
    if last is None:
        return PASSED, f"{label}: {where}."
    how = "" if delivered.valid_until is not None else f" ({months_text(months or 0)} de validade)"
    if facts.today <= last:
        return PASSED, f"{label}: {where}, válido até {date_text(last)}{how}."
    return FAILED, f"{label}: {where}, vencido em {date_text(last)}{how}; hoje é {date_text(facts.today)}."


def _check_one_per(ctx: Context, rule: Rule) -> Outcome:
    scope = rule.scope or "person"
    relations = SCOPE_RELATIONS.get(scope)
    if relations is None:
        return MANUAL, f"Abrangência '{scope}' desconhecida; confira manualmente."
    siblings = siblings_of(ctx, rule)
    kinds = [k for k, _ in siblings]
    kind_ids = {k.id for k in kinds}
    facts = ctx.facts
    related = [
        p
        for p in facts.permits
        if p.regime_id == ctx.regime.id
        and p.permit_kind_id in kind_ids
        and p.relation in relations
        and (p.status or "").lower() not in INACTIVE_STATUSES
    ]
    who = SCOPE_TEXT.get(scope, scope)
    what = kinds_text(ctx, kinds)
    if scope == "person":
        clear = f"O requerente não tem outra permissão ativa {what}."
    else:
        clear = f"Nenhum {who} do requerente tem permissão ativa {what}."
    if is_same_site(ctx, rule):
        wanted = facts.site_id
        place = site_text(wanted, facts.site_label)
        if not related:
            return PASSED, clear[:-1] + (f" em {place}." if wanted else ".")
        if wanted is None:
            listing = "; ".join(permit_text(ctx, p) for p in related)
            return MISSING, (
                f"Informe a feira/local pretendido: o ato veda {who} já permissionário na mesma "
                f"feira, e há permissão ativa: {listing}."
            )
        conflicts = [p for p in related if p.site_id == wanted]
        unknown = [p for p in related if p.site_id is None]
        if conflicts:
            listing = "; ".join(permit_text(ctx, p) for p in conflicts)
            return FAILED, f"Já há {who} com permissão ativa na mesma feira ({place}): {listing}."
        if unknown:
            listing = "; ".join(permit_text(ctx, p) for p in unknown)
            return MISSING, f"Informe a feira/local destas permissões de {who}: {listing}."
        others = "; ".join(permit_text(ctx, p) for p in related)
        return PASSED, (
            f"Nenhum {who} com permissão ativa em {place}; há permissão em outra feira, o que o ato não veda: {others}."
        )
    if not related:
        return PASSED, clear
    listing = "; ".join(permit_text(ctx, p) for p in related)
    if scope == "person":
        return (
            FAILED,
            f"O requerente já tem {plural(len(related), 'permissão ativa', 'permissões ativas')}: {listing}.",
        )
    return FAILED, f"Já há {who} do requerente com permissão ativa: {listing}."


def _check_no_debts(ctx: Context, rule: Rule) -> Outcome:
    debts = ctx.facts.debts
    if debts is None:
        return MISSING, "Situação de débitos com o município não verificada."
    open_debts = [d for d in debts if d.count > 0 or d.amount > 0]
    if not open_debts:
        return PASSED, "Nenhum débito em aberto com o município."
    count = sum(max(d.count, 1) for d in open_debts)
    total = sum((d.amount for d in open_debts), Decimal("0"))
    listing = "; ".join(
        f"{d.description} ({d.count} em aberto, {format_brl(d.amount)})"
        if d.count > 1
        else f"{d.description} ({format_brl(d.amount)})"
        for d in open_debts
    )
    return FAILED, (
        f"Há {plural(count, 'débito', 'débitos')} em aberto com o município, "
        f"total {format_brl(total)}: {listing}. "
        f"Regularize antes de participar."
    )


def _events(ctx: Context, rule: Rule, kind: str) -> tuple[list[HistoryFacts], list[PermitKind]]:
    kinds = [k for k, _ in siblings_of(ctx, rule)]
    ids = {k.id for k in kinds}
    events = [
        e for e in ctx.facts.history if e.kind == kind and e.regime_id == ctx.regime.id and e.permit_kind_id in ids
    ]
    return events, kinds


def _wait_outcome(ctx: Context, rule: Rule, event_kind: str, months: int) -> Outcome:
    events, kinds = _events(ctx, rule, event_kind)
    name = EVENT_TEXT.get(event_kind, event_kind)
    if not events:
        where = "deste tipo de permissão" if len(kinds) == 1 else "nos tipos de permissão da regra"
        return PASSED, f"Nenhum registro de {name} {where}."
    today = ctx.facts.today
    last = max(events, key=lambda e: e.date)
    ends = wait_end(last.date, months)
    number = f" (nº {last.number})" if last.number else ""
    head = f"Último registro de {name} em {date_text(last.date)}{number}; o ato exige {months_text(months)}"
    if today >= ends:
        return PASSED, f"{head}, cumpridos em {date_text(ends)}."
    return FAILED, f"{head}: pode requerer a partir de {date_text(ends)}."


def _check_waiting_period(ctx: Context, rule: Rule) -> Outcome:
    months = rule.months if rule.months is not None else ctx.admin(rule)
    if months is None:
        return MANUAL, "O prazo de espera é definido pela Administração e ainda não foi informado."
    return _wait_outcome(ctx, rule, rule.after or "revocation", int(months))


def _check_no_prior_revocation(ctx: Context, rule: Rule) -> Outcome:
    months = rule.months if rule.months is not None else ctx.admin(rule)
    if months is None:
        return MANUAL, "O período sem cassação é definido pela Administração e ainda não foi informado."
    return _wait_outcome(ctx, rule, "revocation", int(months))


def _cap_value(ctx: Context, rule: Rule) -> int | None:
    value = rule.count if rule.count is not None else ctx.admin(rule)
    return None if value is None else int(value)


def _check_cap(ctx: Context, rule: Rule) -> Outcome:
    cap = _cap_value(ctx, rule)
    if cap is None:
        return MANUAL, "O número máximo de permissões é definido pela Administração e ainda não foi informado."
    active = ctx.facts.active_count
    if active is None:
        return MISSING, f"Número de permissões ativas deste tipo não informado; o ato limita a {cap}."
    if active < cap:
        return PASSED, f"Permissões ativas deste tipo: {active} de {cap}; resta(m) {cap - active} vaga(s)."
    return FAILED, f"Permissões ativas deste tipo: {active} de {cap} — limite de {cap} atingido."


def _check_quota(ctx: Context, rule: Rule) -> Outcome:
    percent = rule.percent
    if percent is None:
        given = ctx.admin(rule)
        percent = None if given is None else Decimal(str(given)) if not isinstance(given, Decimal) else given
    if percent is None:
        return MANUAL, "O percentual da cota é definido pela Administração e ainda não foi informado."
    cap_rule = next((r for r in ctx.kind.rules if r.kind == "cap"), None)
    cap = _cap_value(ctx, cap_rule) if cap_rule is not None else None
    who = (
        join_words([BENEFICIARY_TEXT.get(b, b) for b in rule.beneficiaries], "ou")
        if rule.beneficiaries
        else "beneficiários"
    )
    pct = describe.percent(percent)
    if cap is None:
        return MANUAL, (f"Cota de {pct} para {who}: o total de vagas não está definido; confira a cota manualmente.")
    reserved = int((percent * cap).to_integral_value(rounding=ROUND_CEILING))
    general = cap - reserved
    facts = ctx.facts
    if facts.active_count is None or facts.quota_used is None:
        return MISSING, (
            f"Cota de {pct} para {who} ({reserved} de {cap} vagas): informe as permissões "
            f"ativas e as vagas da cota já ocupadas."
        )
    # beneficiaries beyond the reserved places hold general ones
    used_quota = min(max(facts.quota_used, 0), facts.active_count, reserved)
    used_general = max(facts.active_count - used_quota, 0)
    free_reserved = max(reserved - used_quota, 0)
    free_general = max(general - used_general, 0)
    reserved_text = f"vagas reservadas: {used_quota} de {reserved} ocupadas"
    general_text = f"vagas não reservadas: {used_general} de {general} ocupadas"
    beneficiary = facts.quota_beneficiary
    if beneficiary:
        cats = join_words([BENEFICIARY_TEXT.get(c, c) for c in facts.quota_categories])
        fits = f"Enquadra-se na cota de {pct} ({cats or who})"
        if free_reserved:
            return PASSED, f"{fits}; {reserved_text}, resta(m) {free_reserved}."
        if free_general:
            return PASSED, (
                f"{fits}, mas as {reserved} vagas reservadas estão ocupadas; concorre às vagas não "
                f"reservadas ({used_general} de {general} ocupadas, resta(m) {free_general})."
            )
        return FAILED, f"{fits}, mas não há vagas: {reserved_text}; {general_text}."
    if free_general:
        if beneficiary is False:
            prefix = f"Não se enquadra na cota de {pct} para {who}"
        else:
            prefix = (
                f"Cota de {pct} para {who}: enquadramento não informado, desnecessário enquanto "
                f"houver vaga não reservada"
            )
        return PASSED, f"{prefix}; {general_text}, resta(m) {free_general} ({reserved} reservadas à cota)."
    if beneficiary is None and free_reserved:
        return MISSING, (
            f"As {general} vagas não reservadas estão ocupadas e resta(m) {free_reserved} reservada(s) "
            f"a {who}: informe se o requerente se enquadra na cota de {pct}."
        )
    if free_reserved:
        return FAILED, (
            f"Não se enquadra na cota de {pct} para {who}; as {general} vagas não reservadas estão "
            f"ocupadas e as {free_reserved} restantes são reservadas à cota."
        )
    return FAILED, f"Sem vagas: {reserved_text}; {general_text}."


def _check_not_public_servant(ctx: Context, rule: Rule) -> Outcome:
    servant = ctx.facts.public_servant
    return _yes_no(
        None if servant is None else not servant,
        "Não é servidor público, como o ato exige.",
        "É servidor público; o ato veda a permissão a servidor.",
        "Informe se o requerente é servidor público; o ato o veda.",
    )


def _check_custom(ctx: Context, rule: Rule) -> Outcome:
    return MANUAL, f"Conferir: {rule.text or 'requisito definido no ato'}"


def _proves_residence(ctx: Context, rule: Rule) -> bool:
    if rule.kind == "resident":
        return True
    if rule.kind != "document" or not rule.document:
        return False
    try:
        return ctx.regime.document(rule.document).proves == "residence"
    except Exception:  # the loader checks references; never crash the desk
        return False


def non_resident(ctx: Context, rule: Rule, outcome: Outcome) -> Outcome:
    """Where the act admits applicants from other municipalities (the kind's ``non_residents``: Sapezal art. 29
    and art. 32), a residence requirement — a ``resident`` rule, a document that ``proves`` residence — does not
    refuse one whose home or seat is elsewhere."""
    admitted = ctx.kind.non_residents
    if admitted is None or not _proves_residence(ctx, rule) or outcome[0] == PASSED:
        return outcome
    where = ctx.regime.cite_item(admitted)
    who = "empresa" if ctx.facts.applicant_type == "company" else "requerente"
    if ctx.facts.based_elsewhere:
        return PASSED, (
            f"Não se exige: {who} de outra localidade, que o ato admite ({where}); a residência no "
            f"município não a recusa."
        )
    if ctx.facts.based_elsewhere is None and outcome[0] in (FAILED, MISSING):
        place = "a sede da empresa" if who == "empresa" else "o endereço do requerente"
        return MISSING, (
            f"{outcome[1]} Informe {place}: o ato admite quem é de outra localidade ({where}), e então "
            f"a residência não é exigida."
        )
    return outcome


def deferred(ctx: Context, rule: Rule, outcome: Outcome) -> Outcome:
    """A rule the act asks later (``due``: Sapezal art. 11 — CNPJ, health and clearance certificates "publicada a
    lista definitiva … no prazo de 10 dias úteis") is not unmet at the application: it is due later, with the
    deadline once it runs, and unmet only when the deadline has passed."""
    if not rule.due or outcome[0] in (PASSED, MANUAL) or ctx.facts.issuing:
        return outcome
    reason = outcome[1].rstrip(".")
    known = ctx.facts.deadlines.get(rule.due)
    if known is not None:
        if ctx.facts.today > known.due:
            return FAILED, f"{reason} — o prazo para apresentar terminou em {date_text(known.due)} ({known.basis})."
        return DUE_LATER, f"{reason} — a apresentar até {date_text(known.due)}: {known.text} ({known.basis})."
    try:
        deadline = ctx.regime.deadline(rule.due)
        when = f"em {describe.deadline_text(deadline)} ({ctx.regime.cite_item(deadline)})"
    except Exception:  # the loader checks references; never crash the desk
        when = "no prazo do ato"
    return DUE_LATER, f"{reason} — a apresentar depois, {when}, não no requerimento."


CHECKS: dict[str, Callable[[Context, Rule], Outcome]] = {
    "min-age": _check_min_age,
    "legally-capable": _check_legally_capable,
    "legal-form": _check_legal_form,
    "cnpj-required": _check_cnpj,
    "municipal-registration": _check_municipal_registration,
    "resident": _check_resident,
    "document": _check_document,
    "one-per": _check_one_per,
    "no-debts": _check_no_debts,
    "no-prior-revocation": _check_no_prior_revocation,
    "waiting-period": _check_waiting_period,
    "cap": _check_cap,
    "quota": _check_quota,
    "not-public-servant": _check_not_public_servant,
    "custom": _check_custom,
}


def rule_label(rule: Rule, regime: Regime) -> str:
    if rule.admin_defined:
        name = describe.RULES.get(rule.kind, rule.kind)
        return f"{name[:1].upper()}{name[1:]} (definido pela Administração)"
    if rule.kind == "quota" and rule.percent is not None:
        who = join_words([BENEFICIARY_TEXT.get(b, b) for b in rule.beneficiaries], "ou")
        return f"Cota de {describe.percent(rule.percent)} para {who}"
    if rule.kind == "resident" and rule.years:
        return f"Residente no município há {'mais de' if is_more_than(rule) else 'pelo menos'} {years_text(rule.years)}"
    try:
        return describe.rule(rule, regime)
    except Exception:  # a label must never stop the evaluation
        return rule.kind
