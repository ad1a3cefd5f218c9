"""Permits and their rules in words: who may apply, one per whom, validity, renewal, documents."""

from __future__ import annotations

from collections.abc import Iterable

from models.rules.describe.penalties import deadline_text
from models.rules.describe.text import Fact, cap, days, fact, join_words, months, percent, plural, years
from models.rules.describe.words import AFTER, BENEFICIARIES, HOLDERS, ONE_PER, RELATIVES, RULES
from models.rules.regimes import Regime
from models.rules.regimes.model import Document, Leave, PermitKind, Renewal, Rule, Startup, Validity

# --------------------------------------------------------------------------- permits and their rules


def _same_site(item: Rule, regime: Regime | None) -> str | None:
    """The act's "na mesma feira" for a one-per rule (its declared words), or None when the bar is not limited to
    one site."""
    if not getattr(item, "same_site", False):
        return None
    return getattr(item, "same_site_words", None) or "mesmo local"


def _more_than(item: Rule) -> bool:
    """ "há mais de 1 ano" (Sapezal art. 7º) rather than "há pelo menos", as the rule declares it."""
    return bool(getattr(item, "more_than", False))


def one_per(item: Rule, regime: Regime | None = None) -> str:
    """A one-per rule as the acts say it."""
    scope = item.scope or "person"
    where = _same_site(item, regime)
    place = f" {'no' if where.startswith('mesmo') else 'na'} {where}" if where else ""
    if scope in RELATIVES:
        return f"Não se concede permissão a {RELATIVES[scope]} de quem já é permissionário{place}"
    return f"No máximo uma permissão por {ONE_PER.get(scope, scope)}{place}"


def beneficiaries(ids: Iterable[str]) -> str:
    return join_words([BENEFICIARIES.get(b, b) for b in ids]) or "beneficiários"


def rule(item: Rule, regime: Regime | None = None) -> str:
    """One eligibility rule in words."""
    kind = item.kind
    name = RULES.get(kind, kind)
    admin = bool(getattr(item, "admin_defined", False))
    if kind == "min-age":
        if admin or item.years is None:
            return "Idade mínima definida pela Administração"
        return f"Idade mínima de {years(item.years)}"
    if kind == "legally-capable":
        return "Pessoa legalmente capaz"
    if kind == "legal-form":
        return "Forma jurídica: " + ", ".join(HOLDERS.get(a, a) for a in item.allowed)
    if kind == "cnpj-required":
        return "Ter CNPJ"
    if kind == "municipal-registration":
        return "Inscrição municipal (cadastro mobiliário)"
    if kind == "resident":
        if admin:
            return "Residente no município (tempo mínimo definido pela Administração)"
        if item.years:
            return f"Residente no município há {'mais de' if _more_than(item) else 'pelo menos'} {years(item.years)}"
        return "Residente no município"
    if kind == "document" and item.document:
        label = item.document
        if regime is not None:
            try:
                label = regime.document(item.document).label
            except Exception:  # a dangling id is caught by the loader; show the id
                pass
        return f"Documento: {label}"
    if kind == "one-per":
        return one_per(item, regime)
    if kind == "no-prior-revocation":
        if admin or item.months is None:
            return "Sem cassação anterior (prazo definido pela Administração)"
        return f"Sem cassação nos últimos {months(item.months)}"
    if kind == "waiting-period":
        after = AFTER.get(item.after or "revocation", item.after or "")
        if admin or item.months is None:
            return f"Carência após {after} (prazo definido pela Administração)"
        return f"Carência de {months(item.months)} após {after}"
    if kind == "cap":
        if admin or item.count is None:
            return "Limite de permissões definido pela Administração"
        return f"No máximo {plural(item.count, 'permissão', 'permissões')}"
    if kind == "quota":
        who = beneficiaries(item.beneficiaries)
        if admin or item.percent is None:
            return f"Cota de vagas para {who} (percentual definido pela Administração)"
        return f"Cota de {percent(item.percent)} das vagas para {who}"
    if kind == "no-debts":
        return "Sem débitos com o município"
    if kind == "not-public-servant":
        return "Não ser servidor público"
    if kind == "custom":
        return item.text or cap(name)
    return cap(name)


def rule_due(item: Rule, regime: Regime) -> str:
    """ " — a apresentar depois: 10 dias úteis, contados da publicação da lista final" for a rule the act asks
    after the application (``due``; Sapezal art. 11), else ""."""
    if not item.due:
        return ""
    try:
        return f" — a apresentar depois: {deadline_text(regime.deadline(item.due))}"
    except Exception:  # a dangling id is caught by the loader; show the id
        return f" — a apresentar depois ({item.due})"


def validity(item: Validity) -> str:
    if item is None:
        return "—"
    if item.years:
        return years(item.years)
    if item.months:
        return months(item.months)
    if item.days:
        return days(item.days)
    if item.until:
        return {"event-end": "até o fim do evento", "fiscal-year-end": "até o fim do exercício (31/12)"}.get(
            item.until, item.until
        )
    return "—"


def renewal(item: Renewal) -> str:
    if item.by_decree:
        return "janela fixada por decreto do Executivo (registrado na mesa)"
    if item.until_month_day:
        return f"até {item.until_month_day[3:]}/{item.until_month_day[:2]} de cada ano"
    if item.from_days_before is not None and item.to_days_before is not None:
        return f"entre {item.from_days_before} e {item.to_days_before} dias antes do vencimento"
    if item.to_days_before is not None:
        return f"até {days(item.to_days_before)} antes do vencimento"
    if item.from_days_before is not None:
        return f"a partir de {days(item.from_days_before)} antes do vencimento"
    return "—"


def startup(item: Startup) -> str:
    return f"em até {days(item.days)}" + (", prorrogável uma vez" if item.extendable_once else "")


def leave(item: Leave) -> str:
    parts = [f"até {days(item.max_days_per_year)} por ano"]
    if item.max_periods:
        parts.append(f"em até {plural(item.max_periods, 'período', 'períodos')}")
    if item.notice_days:
        parts.append(f"pedido com {days(item.notice_days)} de antecedência")
    return ", ".join(parts)


def holders(values: Iterable[str]) -> str:
    return ", ".join(HOLDERS.get(h, h) for h in values)


def document(doc: Document) -> str:
    """A document with its validity, who must give it and when."""
    parts = [doc.label]
    if doc.validity_months:
        parts.append(f"validade de {months(doc.validity_months)}")
    if doc.applies_to:
        parts.append(f"de {holders(doc.applies_to)}")
    if doc.proves == "residence":
        parts.append("prova a residência no município")
    if doc.recorded == "municipal-registration":
        parts.append("dispensado quando a inscrição municipal consta do cadastro do requerente")
    text = " — ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]
    if doc.condition:
        text += f". Quando: {doc.condition}"
    return text


def permit_facts(regime: Regime, kind: PermitKind) -> list[Fact]:
    """What a permit kind is: instrument and holder, validity, renewal, start-up, leave, calendar, fees."""
    out = [fact(regime, f"{cap(kind.instrument)} · titular: {holders(kind.holder)}", kind)]
    if kind.validity is not None:
        out.append(fact(regime, f"Validade: {validity(kind.validity)}", kind.validity))
    if kind.renewal is not None:
        out.append(fact(regime, f"Renovação: {renewal(kind.renewal)}", kind.renewal))
    if kind.startup is not None:
        out.append(fact(regime, f"Início da atividade: {startup(kind.startup)}", kind.startup))
    if kind.leave is not None:
        out.append(fact(regime, f"Afastamento anual: {leave(kind.leave)}", kind.leave))
    if kind.non_residents is not None:
        out.append(
            fact(
                regime,
                "Admite requerentes de outras localidades: a residência no município não os recusa",
                kind.non_residents,
            )
        )
    if kind.schedule:
        schedule = regime.schedule(kind.schedule)
        out.append(fact(regime, f"Calendário: {schedule.label}", ident=schedule.id, citation=""))
    if kind.fees:
        labels = [regime.fee(f).label for f in kind.fees]
        out.append(Fact(text="Preços e taxas: " + "; ".join(labels)))
    return out
